"""Statics: the static equilibrium of any formulation (model level).

Estimates from a case alone (no model) are estimates.py; :func:`static_top_tension` is
re-exported here for the callers that import it from statics.

* :func:`equilibrium` — the static equilibrium ``F(q) = 0`` of any formulation that offers
  the second-order surface of models/base.py (``n_q``, ``held``, ``force``, ``enforce``):
  Newton's method on the free coordinates with a central-difference Jacobian of the
  model's own force kernel (full steps first, a damped Newton where they fail), and load
  continuation on the applied end loads (force, moment, torque), which are scaled from 0
  to their full values over ``load_steps`` increments (halved where Newton fails).
  Velocities are zero; held coordinates take their values at time ``t`` from the case.
  docs/seed004_bending.md describes the choices and what they were measured against.

* :func:`solve` — the robust pipeline of issue 18 for every formulation (analytic start of
  catenary_start.py, Newton with load and stiffness continuation, dynamic relaxation,
  towed cases by steady.settle), converged at ``max |F_free| <= rtol · weight``
  (:func:`line_weight`), else :class:`StaticsError`. A run's initial state for
  ``initial: {shape: equilibrium}`` comes from ``start.initial_state`` (which calls
  :func:`solve`). docs/statics.md, "The solver".

Convergence is judged by the force residual ``max |F_free|`` [N] at the full load, never by
an iteration count or a solver's exit flag (seed 004 digest §5.1.6: a general root finder
that stalls near its initial guess gives spuriously good answers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .case import Case, load_case
from .estimates import static_top_tension
from .models import build_model

__all__ = ["static_top_tension", "equilibrium", "Equilibrium", "free_force",
           "force_jacobian", "solve", "StaticsError", "line_weight",
           "statics_band"]


class StaticsError(ValueError):
    """Nothing converged: the message names the residual [N], where it sits (node index and
    arc length [m]), the methods tried, and what to try."""


# -- general static equilibrium -----------------------------------------------------------

#: relative finite-difference step of the Jacobian (central differences: truncation
#: O(h²), rounding O(eps/h); 1e-6 of the coordinate scale balances the two)
FD_REL = 1e-6


@dataclass
class Equilibrium:
    """A static equilibrium found by :func:`equilibrium`.

    ``y``: the state ``[q, 0]`` (held coordinates from the case at ``t``); ``positions``:
    node positions (n_nodes, 3) [m] from the model's outputs; ``residual``: max |F| [N] over
    the free coordinates at the full load; ``converged``: ``residual <= tol``;
    ``iterations``: Newton iterations over all load steps; ``load_steps``: increments taken
    (more than asked where steps were halved); ``history``: (load factor, q) after every
    accepted increment.
    """

    model: object
    y: np.ndarray
    positions: np.ndarray
    residual: float
    tol: float
    converged: bool
    iterations: int
    load_steps: int
    t: float
    history: list = field(default_factory=list, repr=False)
    #: how it was found: "newton", "newton+continuation", "dynamic_relaxation", "steady"
    method: str = "newton"
    #: |the line's weight in its medium| [N] plus the applied end loads (:func:`line_weight`)
    weight: float = 0.0
    #: node of the largest residual (-1: none computed)
    worst: int = -1
    #: the seabed's friction anchors (the data's ``sea_anchor``) the solve used, None
    #: without a seabed: a dynamic run continues from them (:meth:`run_arrays`)
    anchors: np.ndarray | None = None

    @property
    def q(self) -> np.ndarray:
        """The generalized coordinates (n_q)."""
        return self.y[: self.model.n_q]

    def _outputs(self) -> dict:
        if not hasattr(self, "_out"):
            self._out = self.model.outputs(np.array([self.t]), self.y[None, :])
        return self._out

    @property
    def end_tensions(self) -> tuple[float, float]:
        """|force| [N] the line exerts on its start and end (holder or free-end body)."""
        out = self._outputs()
        return (float(np.linalg.norm(out["start_force"][0])),
                float(np.linalg.norm(out["end_force"][0])))

    @property
    def touchdown(self) -> dict | None:
        """Where the line leaves the seabed: ``{"arc_length": s [m], "position": [x, y,
        z] [m]}`` of the grounded node at the first grounded/lifted transition from the
        start (estimates.sea_estimate's rule); None without a seabed or contact."""
        from .estimates import sea_estimate

        est = sea_estimate(self.model.case, self.positions)
        if est.touchdown_arc is None:
            return None
        return {"arc_length": float(est.touchdown_arc),
                "position": [float(v) for v in est.touchdown_point]}

    @property
    def lowest(self) -> np.ndarray:
        """Position [m] of the lowest node (along gravity; -z without gravity)."""
        return self.positions[int(np.argmax(self.positions @ _down(self.model.case)))].copy()

    @property
    def worst_node(self) -> int:
        """Node index of the largest residual force."""
        if self.worst >= 0:
            return self.worst
        return _worst_node(self.model, self.y, self.t)[0]

    def run_arrays(self) -> dict[str, np.ndarray]:
        """What a dynamic run started from this equilibrium must carry besides the state,
        as ``RunData.restore`` takes it: the friction anchors (``data.sea_anchor``) the
        statics used, so friction starts from the same rest positions (empty without a
        seabed)."""
        return {} if self.anchors is None else {"data.sea_anchor": self.anchors.copy()}

    def to_case_dict(self) -> dict:
        """The case with ``initial: {shape: points, points: [...]}`` (the equilibrium's node
        positions [m], at rest)."""
        raw = self.model.case.to_dict()
        raw["initial"] = {"shape": "points",
                          "points": [[float(v) for v in p] for p in self.positions]}
        return raw

    def results(self):
        """The shape as a :class:`~tetherdyn.results.ResultsTable` with one output time
        ``t`` (writes netCDF like any run: ``.write(path)``)."""
        from .integrate import IntegrationResult
        from .results import results_table

        run = IntegrationResult(times=np.array([self.t]), states=self.y[None, :].copy(),
                                rhs_evaluations=0, wall_time_s=0.0, steps=0,
                                data=self.model.data)
        return results_table(self.model.case, self.model, run)


def free_force(model, y: np.ndarray, t: float, free: np.ndarray,
               work: np.ndarray | None = None) -> np.ndarray:
    """The generalized force F [N] (model.force) on the free coordinates at state y."""
    F = np.empty(model.n_q) if work is None else work
    model.force(t, y, F, model.data)
    return F[free].copy()


def force_jacobian(model, y: np.ndarray, t: float, free: np.ndarray, *, scale: float = 1.0,
                   banded: bool = False, h_max: float = math.inf) -> np.ndarray:
    """∂F_free/∂q_free [N/m] by central differences of the model's force kernel.

    Step ``FD_REL × (|q_j| + scale)`` per coordinate (``scale``: a length of the problem,
    e.g. the element length [m]), at most ``h_max`` [m] (:func:`fd_step_cap`). Dense: two
    force evaluations per free coordinate.
    ``banded``: columns ``j ≡ c (mod 2·band + 1)`` are perturbed together (entries with
    |i − j| > model.band are taken as zero), for long tethers; exact only where the
    model's force is truly banded in q.
    """
    nq = model.n_q
    nf = free.size
    J = np.zeros((nf, nf))
    Fp = np.empty(nq)
    Fm = np.empty(nq)
    yp = np.array(y, dtype=float)
    if not banded:
        for k, j in enumerate(free):
            h = min(FD_REL * (abs(y[j]) + scale), h_max)
            yp[j] = y[j] + h
            model.force(t, yp, Fp, model.data)
            yp[j] = y[j] - h
            model.force(t, yp, Fm, model.data)
            yp[j] = y[j]
            J[:, k] = (Fp[free] - Fm[free]) / (2.0 * h)
        return J
    band = int(model.band)
    ncol = 2 * band + 1
    where = np.full(nq, -1)
    where[free] = np.arange(nf)
    for c in range(ncol):
        cols = free[np.arange(nf) % ncol == c]
        if cols.size == 0:
            continue
        h = np.minimum(FD_REL * (np.abs(y[cols]) + scale), h_max)
        yp[cols] = y[cols] + h
        model.force(t, yp, Fp, model.data)
        yp[cols] = y[cols] - h
        model.force(t, yp, Fm, model.data)
        yp[cols] = y[cols]
        for j, hj in zip(cols, h, strict=True):
            rows = np.arange(max(0, j - band), min(nq, j + band + 1))
            rows = rows[where[rows] >= 0]
            J[where[rows], where[j]] = (Fp[rows] - Fm[rows]) / (2.0 * hj)
    return J


#: the difference step's largest fraction of the least element stretch (fd_step_cap), and
#: the most its rounding may err relative to the geometric stiffness by the worst-case bound
FD_STRETCH = 0.1
FD_ROUNDING = 10.0


def _smooth_twin(model):
    """The model with ``tether.compression: true`` (its axial law without the slack kink),
    for the Jacobian where :func:`fd_step_cap` finds no step that stays off the kink: its
    stiffness equals the model's wherever the elements are in tension, so Newton's step is
    the same there, and the residual is still the model's own. (EA/(w L) = 1e8 with
    bending: the plain step across the kink left lumped_mass at 1.3 N and higher_order at
    10 N of a 7.8e-3 N tolerance; with this Jacobian Newton converges in 11 and 17
    iterations.) Built once per model; the friction anchors are the model's."""
    case = model.case
    if (case.tether.compression or isinstance(model, _MovingFrame)
            or "compression" not in model.supports.tether_keys):
        return model
    twin = getattr(model, "_statics_twin", None)
    if twin is None:
        twin = build_model(case.with_changes({"tether.compression": True}))
        model._statics_twin = twin
    a = getattr(model.data, "sea_anchor", None)
    if a is not None:
        twin.data.sea_anchor[:] = a
    return twin


def fd_step_cap(model, y: np.ndarray, t: float) -> float:
    """The largest difference step [m] that keeps every element of a tether without
    compression (seed 004 eq. 2.17) on its side of the slack kink: FD_STRETCH times the
    least stretch T_e L_e / EA of the elements in tension at y. A step larger than an
    element's stretch makes it slack in one of the two evaluations, and the difference
    mixes the two branches: a slack catenary with EA/(w L) = 1e6 and bending (stretch
    ~5e-6 m against the 1e-4 m relative step) got a stiffness whose Newton step raised the
    residual from 3.9 N to 4e4 N. The cap is taken only where the difference's rounding,
    bounded by EA ε |r| / L_e per evaluation over the step (every position off by an ulp),
    stays within FD_ROUNDING times the geometric stiffness T_min / L_e (the bound is far
    from typical: that line's cap sits at 0.6 of it and Newton converges in 6 iterations);
    else (EA/(w L) 1e8 with 1 m elements: the cap 1e5 times below the bound; an element all
    but slack at an early iterate) inf: the plain step, on the model without the kink
    (:func:`_smooth_twin`)."""
    case = model.case
    EA = float(case.tether.EA or 0.0)
    if case.tether.compression or EA <= 0.0:
        return math.inf
    out = model.outputs(np.array([t]), y[None, :])
    T = out.get("tension")
    if T is None:
        return math.inf
    T = np.asarray(T[0], dtype=float)
    T = T[T > 0.0]
    if T.size == 0:
        return math.inf
    t_min = float(T.min())
    le = case.tether.length / max(model.n_elements, 1)
    cap = FD_STRETCH * t_min * le / EA
    reach = float(np.max(np.abs(out["position"][0]))) + le
    rounding = EA * np.finfo(float).eps * reach / t_min / FD_ROUNDING  # the least step [m]
    return cap if cap >= rounding else math.inf


#: end keys scaled by the load continuation (free ends only carry them)
_LOAD_KEYS = ("force", "moment", "torque")


def _scaled_case(case: Case, lam: float) -> Case:
    """The case with its free ends' applied force, moment and torque times ``lam``, and no
    force ramp (the loads act in full at any time)."""
    raw = case.to_dict()
    for which in ("start", "end"):
        end = raw.get(which)
        if not isinstance(end, dict):
            continue
        for key in _LOAD_KEYS:
            v = end.get(key)
            if v is None:
                continue
            end[key] = [lam * float(c) for c in v] if isinstance(v, list | tuple) else lam * v
        end.pop("force_ramp_time", None)
    return load_case(raw, base_dir=case.base_dir)


def _has_loads(case: Case) -> bool:
    for which in ("start", "end"):
        end = getattr(case, which)
        if any(end.force) or (end.moment is not None and any(end.moment)) or end.torque:
            return True
    return False


def _factor(K: np.ndarray):
    """LU factors of the stiffness K; where K is singular (slack elements, a mechanism), of
    K + μI with μ = 1e-3 max |K_ii|: the step then follows the force along the null space
    (a gradient step the line search shortens). None if nothing works."""
    import warnings

    from scipy.linalg import LinAlgWarning, lu_factor

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LinAlgWarning)
        lu = lu_factor(K, check_finite=False)
        d = np.abs(np.diag(lu[0]))
        if np.all(np.isfinite(lu[0])) and d.min() > 1e-13 * max(d.max(), 1e-300):
            return lu
        mu = 1e-3 * float(np.max(np.abs(np.diag(K))))
        if not (mu > 0 and math.isfinite(mu)):
            return None
        lu = lu_factor(K + mu * np.eye(K.shape[0]), check_finite=False)
        return lu if np.all(np.isfinite(lu[0])) else None


#: bending on the spline through the nodes (lumped_mass ``bending: true``, higher_order):
#: the fewest nodes each side inside the statics' Jacobian band (statics_band)
BENDING_BAND_NODES = 6


def statics_band(model) -> int:
    """Half-bandwidth [q indices] of the stiffness the static Newton uses: the model's
    band, widened where the spline through the nodes couples every node to all others
    (its influence falls by 2 − √3 ≈ 0.27 per node): higher_order (the elements' curved
    lengths) and lumped_mass ``bending: true``. What the band leaves out, relative to the
    axial stiffness EA/L_e, must stay below 1e-3 of the line's geometric stiffness
    ~ w L / L_e: k >= BENDING_BAND_NODES nodes with 0.27^k · EA / (w L) <= 1e-3.
    Measured: a 20-element higher_order line with EA/(w L) = 1e4 stalls at 1e-5 of its
    weight with 6 nodes and converges in 4 iterations with 13; the lumped_mass jumper
    (EA/(w L) = 4e3) polishes to 6.7e-4 N with 6 nodes, to 3.7e-6 N with the exact
    Jacobian."""
    b = int(model.band)
    case = model.case
    decay = 2.0 - math.sqrt(3.0)
    if model.name == "higher_order" or (model.name == "lumped_mass"
                                        and getattr(model, "bending", False)):
        t = case.tether
        w = abs(t.linear_mass - case.environment.fluid_density * t.displaced) * float(
            np.linalg.norm(case.environment.gravity))
        ratio = (t.EA or 0.0) / max(w * t.length, 1e-300) if w > 0 else 1e8
        k = math.ceil(math.log(1e-3 / max(ratio, 1e-3)) / math.log(decay)) if ratio > 1e-3 \
            else 0
        k = min(max(k, BENDING_BAND_NODES), model.n_nodes)
        b = max(b, 3 * k + 2)
    return b


def _band_stiffness(model, y: np.ndarray, t: float, free: np.ndarray, scale: float,
                    b: int, h_max: float = math.inf) -> np.ndarray:
    """K = −∂F_free/∂q_free [N/m] in LAPACK's general band storage for dgbtrf (kl = ku =
    b: K[i, j] at AB[2b + i − j, j]), by central differences with columns j ≡ c (mod 2b +
    1) perturbed together: 2 (2b + 1) force evaluations, O(n) work."""
    nq = model.n_q
    nf = free.size
    AB = np.zeros((3 * b + 1, nf))
    Fp = np.empty(nq)
    Fm = np.empty(nq)
    yp = np.array(y, dtype=float)
    ncol = 2 * b + 1
    idx = np.arange(nf)
    offs = np.arange(-b, b + 1)
    for c in range(min(ncol, nf)):
        k = idx[c::ncol]
        cols = free[k]
        h = np.minimum(FD_REL * (np.abs(y[cols]) + scale), h_max)
        yp[cols] = y[cols] + h
        model.force(t, yp, Fp, model.data)
        yp[cols] = y[cols] - h
        model.force(t, yp, Fm, model.data)
        yp[cols] = y[cols]
        dF = (Fp - Fm)[free]
        i = k[:, None] + offs[None, :]  # rows each perturbed column reaches
        ok = (i >= 0) & (i < nf)
        ii = np.where(ok, i, 0)
        ok &= np.abs(free[ii] - cols[:, None]) <= b
        kk = np.broadcast_to(k[:, None], i.shape)[ok]
        AB[(2 * b + offs[None, :] + 0 * k[:, None])[ok], kk] = \
            -dF[ii[ok]] / (2.0 * np.broadcast_to(h[:, None], i.shape)[ok])
    return AB


def _band_factor(AB: np.ndarray, b: int):
    """(LU, pivots) of the band stiffness (dgbtrf); where it is singular, of K + μI with
    μ = 1e-3 max |K_ii| (as :func:`_factor`). None if nothing works."""
    from scipy.linalg.lapack import dgbtrf

    lu, piv, info = dgbtrf(AB, b, b)
    d = np.abs(lu[2 * b])
    if info == 0 and np.all(np.isfinite(lu)) and d.min() > 1e-13 * max(d.max(), 1e-300):
        return lu, piv, b
    mu = 1e-3 * float(np.max(np.abs(AB[2 * b])))
    if not (mu > 0 and math.isfinite(mu)):
        return None
    A2 = AB.copy()
    A2[2 * b] += mu
    lu, piv, info = dgbtrf(A2, b, b)
    return (lu, piv, b) if info == 0 and np.all(np.isfinite(lu)) else None


def _band_solve(fac, r: np.ndarray) -> np.ndarray:
    from scipy.linalg.lapack import dgbtrs

    lu, piv, b = fac
    x, info = dgbtrs(lu, b, b, r, piv)
    return x


#: full-step Newton: iterations without a new lowest residual before it gives way to the
#: damped Newton (the stiff jumper's full steps reach a new low every 1-3 iterations)
FULL_STALL = 8


def _newton(model, y: np.ndarray, t: float, free: np.ndarray, tol: float, max_iter: int,
            scale: float, banded: bool, damped: bool = True, band: int | None = None
            ) -> tuple[np.ndarray, float, int]:
    """Newton from y (modified in place and returned); returns (y, max |F_free| [N],
    iterations). Stops when the residual is below tol or the iteration stalls.

    ``damped=False``: full steps (shortened only where the model's ``check`` rejects the
    state), stopped when the residual exceeds 1e8 times its start or has not reached a
    new low in FULL_STALL iterations (a higher_order payload in a current wandered at
    1e6-1e8 N for 40 full steps before the damped Newton converged). A slender structure
    with stiff axial springs converges that way even though each rotation step leaves a
    large axial residual that the next step removes: the intermediate states carry large
    axial forces whose geometric stiffness no merit function can see from the last point.

    The step length comes from Deuflhard's natural monotonicity test (affine invariant:
    the simplified Newton correction ``J⁻¹F(q + λ Δq)`` must be shorter than ``Δq``), not
    from ``|F|``: a stiff axial spring next to a soft bending one makes ``|F|`` punish
    every rotation of an element with its second-order stretch, and a line search on it
    crawls.

    ``band``: the stiffness in band storage with that half-bandwidth (O(n): coloured
    differences, LAPACK's band LU) instead of the dense matrix."""
    from scipy.linalg import lu_solve

    nq = model.n_q
    work = np.empty(nq)
    r = free_force(model, y, t, free, work)
    res = float(np.max(np.abs(r))) if r.size else 0.0
    res0 = res
    best, it_best = res, 0
    it = 0
    while res > tol and it < max_iter:
        it += 1
        if band is not None:
            cap = fd_step_cap(model, y, t)
            jm = model if math.isfinite(cap) else _smooth_twin(model)
            fac = _band_factor(_band_stiffness(jm, y, t, free, scale, band, cap), band)
            if fac is None:
                break

            def lin(v, fac=fac):
                return _band_solve(fac, v)
        else:
            K = -force_jacobian(model, y, t, free, scale=scale, banded=banded,
                                h_max=fd_step_cap(model, y, t))  # stiffness
            fac = _factor(K)
            if fac is None:
                break

            def lin(v, fac=fac):
                return lu_solve(fac, v)
        dq = lin(r)
        if not np.all(np.isfinite(dq)):
            break
        norm0 = float(np.linalg.norm(dq))
        rnorm0 = float(np.linalg.norm(r))
        lam = 1.0
        accepted = False
        trial = y.copy()
        for _ in range(40):
            trial[free] = y[free] + lam * dq
            if model.check(t, trial, model.data) < 0:
                r_new = free_force(model, trial, t, free, work)
                if not damped:
                    accepted = bool(np.all(np.isfinite(r_new)))
                    if accepted:
                        break
                elif np.all(np.isfinite(r_new)):
                    bar = lin(r_new)  # simplified Newton correction
                    if (float(np.linalg.norm(bar)) <= (1.0 - 0.25 * lam) * norm0
                            or float(np.linalg.norm(r_new)) <= (1.0 - 1e-4 * lam) * rnorm0
                            or float(np.max(np.abs(r_new))) <= tol):
                        accepted = True
                        break
            lam *= 0.5
        if not accepted:
            break
        y[:] = trial
        r = r_new
        res = float(np.max(np.abs(r)))
        if not damped and res > 1e8 * max(res0, tol):
            break
        if res < best:
            best, it_best = res, it
        elif not damped and it - it_best >= FULL_STALL:
            break
    return y, res, it


#: the representable neighbours of each coordinate's Newton target the rounding step tries
#: (ulps either side of the nearest double), and its passes
LATTICE_ULPS = 2
LATTICE_PASSES = 3


def _band_rows(AB: np.ndarray, b: int, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Dense block K[rows][:, cols] of the band stiffness AB (K[i, j] at AB[2b + i − j, j];
    zero outside the band)."""
    i = rows[:, None]
    j = cols[None, :]
    k = 2 * b + i - j
    ok = (k >= b) & (k <= 3 * b)
    return np.where(ok, AB[np.clip(k, 0, 3 * b), np.broadcast_to(j, k.shape)], 0.0)


def _lattice_polish(model, y: np.ndarray, t: float, free: np.ndarray, tol: float,
                    scale: float, band: int) -> tuple[np.ndarray, float]:
    """Newton's last step rounded to representable coordinates with the least residual.

    A very stiff line stalls at a rounding floor that is not the force kernel's: node
    positions are doubles, spaced ulp(|r|) apart (1.4e-14 m at 100 m), and one ulp of
    element length is a tension of EA ulp / L_e (0.011 N for EA/(w L) = 1e8, 1 m elements,
    against a tolerance of 7.8e-3 N: Newton's target y + Δq, rounded to nearest, leaves
    residuals of that size; the same positions evaluated in extended precision give the
    same residual to 1.8e-4 N). Which neighbour each coordinate is rounded to is free:
    node by node along the line (band order), every choice among the nearest double and
    LATTICE_ULPS ulps either side is tried on the linearised residual ``−K δ`` (δ the
    rounding error of the step, K the band stiffness), keeping the one whose rows that
    the choice completes are smallest. Kept only where the model's own residual falls.
    Returns (y, max |F_free| [N])."""
    nq = model.n_q
    work = np.empty(nq)
    r = free_force(model, y, t, free, work)
    best_y, best = y.copy(), float(np.max(np.abs(r)))
    cpn = _coords_per_node(model)
    node_of = free // cpn
    nodes = np.unique(node_of)
    offs = np.arange(-LATTICE_ULPS, LATTICE_ULPS + 1)
    for _ in range(LATTICE_PASSES):
        if best <= tol:
            break
        y = best_y.copy()
        r = free_force(model, y, t, free, work)
        cap = fd_step_cap(model, y, t)
        jm = model if math.isfinite(cap) else _smooth_twin(model)
        AB = _band_stiffness(jm, y, t, free, scale, band, cap)
        fac = _band_factor(AB, band)
        if fac is None:
            break
        dq = _band_solve(fac, r)
        if not np.all(np.isfinite(dq)):
            break
        target = y[free] + dq  # Newton's target, rounded to nearest
        yf = y[free]
        # the last column each row couples to (the band's true pattern)
        nf = free.size
        last_col = np.arange(nf)
        for o in range(1, band + 1):
            j = np.arange(nf - o)
            nz = AB[2 * band - o, j + o] != 0.0
            last_col[j[nz]] = j[nz] + o
        new = target.copy()
        chosen = np.zeros(nf)  # rounding error δ of the coordinates decided so far
        complete = np.zeros(nf, dtype=bool)
        for k, node in enumerate(nodes):
            cols = np.flatnonzero(node_of == node)
            hi = cols.max() if k < len(nodes) - 1 else nf
            # the rows this node's choice completes (every coupled column decided); where
            # none, the node's own rows as a guide (undecided neighbours at δ = 0)
            done = np.flatnonzero(~complete & (last_col <= hi))
            complete[done] = True
            rows = done if done.size else cols
            near = np.arange(max(0, rows.min() - band), min(nf, rows.max() + band + 1))
            base = _band_rows(AB, band, rows, near) @ chosen[near]
            Kc = _band_rows(AB, band, rows, cols)
            cand = target[cols][:, None] + offs[None, :] * np.spacing(
                np.abs(target[cols]))[:, None]
            delta = (cand - yf[cols][:, None]) - dq[cols][:, None]
            combos = np.stack(np.meshgrid(*[np.arange(offs.size)] * cols.size,
                                          indexing="ij"), -1).reshape(-1, cols.size)
            ii = np.arange(cols.size)[None, :]
            dc = delta[ii, combos]  # (combos, coords)
            if k == len(nodes) - 1:  # the last free node: every remaining row
                score = np.max(np.abs(base[None, :] + dc @ Kc.T), axis=1)
            else:
                # the error of the element from the last node: K's coupling times the
                # difference of the two nodes' errors (kept small element by element, so
                # that the errors do not drift along the line and meet the far held end)
                prev = cols - cpn
                dprev = chosen[prev] if prev.min() >= 0 and k > 0 else np.zeros(cols.size)
                score = np.max(np.abs((dc - dprev[None, :]) @ Kc.T), axis=1)
            c = int(np.argmin(score))
            chosen[cols] = dc[c]
            new[cols] = cand[ii[0], combos[c]]
        trial = y.copy()
        trial[free] = new
        if model.check(t, trial, model.data) >= 0:
            break
        res = float(np.max(np.abs(free_force(model, trial, t, free, work))))
        if not res < best:
            break
        best_y, best = trial, res
    return best_y, best


#: Newton stalled within this factor of the tolerance: try the rounding step
LATTICE_REACH = 100.0


def _rounded(eq: Equilibrium) -> Equilibrium:
    """eq with Newton's last step rounded by :func:`_lattice_polish` (where that lowers
    the residual; converged where it reaches eq.tol)."""
    m = eq.model
    free = np.flatnonzero(np.asarray(m.held) == 0)
    scale = m.case.tether.length / max(m.n_elements, 1)
    y, res = _lattice_polish(m, eq.y.copy(), eq.t, free, eq.tol, scale, statics_band(m))
    if res < eq.residual:
        eq.y, eq.residual, eq.converged, eq.worst = y, res, bool(res <= eq.tol), -1
        eq.positions = np.asarray(m.outputs(np.array([eq.t]), y[None, :])["position"][0])
    return eq


def _solve(model, y: np.ndarray, t: float, free: np.ndarray, tol: float, max_iter: int,
           scale: float, banded: bool, band: int | None = None
           ) -> tuple[np.ndarray, float, int]:
    """Full-step Newton from y; where it fails, damped Newton from the same y."""
    y_full, res, it = _newton(model, y.copy(), t, free, tol, max_iter, scale, banded,
                              damped=False, band=band)
    if res <= tol:
        return y_full, res, it
    y_d, res_d, it_d = _newton(model, y, t, free, tol, max_iter, scale, banded, damped=True,
                               band=band)
    if res_d <= res or not np.isfinite(res):
        return y_d, res_d, it + it_d
    return y_full, res, it + it_d


def equilibrium(case_or_model, q0: np.ndarray | None = None, *, t: float = 0.0,
                load_steps: int = 1, tol: float = 1e-6, max_iter: int = 40,
                jacobian: str = "auto", min_step: float = 1e-4,
                start_load: float = 0.0, anchors: np.ndarray | None = None
                ) -> Equilibrium:
    """Static equilibrium ``F(q) = 0`` [N] of a case (or a built model) by Newton's method.

    Parameters
    ----------
    case_or_model:
        A validated Case, a case dict/path, or a model from ``build_model`` whose class
        offers the second-order surface (``n_q > 0``: lumped_mass, ancf2d, higher_order).
    q0:
        Initial guess of the coordinates (n_q) or of the whole state; default the case's
        initial state.
    t:
        Time [s] at which held ends take their positions (fixed ends: any).
    load_steps:
        Number of equal load increments from 0 to the full applied end force / moment /
        torque of the case (1: no continuation). An increment whose Newton solve fails is
        halved, down to ``min_step`` of the full load.
    tol:
        Convergence: max |F| [N] over the free coordinates. Reaching it is the only test of
        success (``Equilibrium.converged``); nothing is raised when it is missed.
    max_iter:
        Newton iterations per increment.
    start_load:
        Load factor at which the continuation starts (``q0`` should then be the equilibrium
        under that fraction of the loads, e.g. the previous solution of a load sequence).
    jacobian:
        ``"dense"`` (every column differenced, dense LU) or ``"banded"`` / ``"auto"``
        (the same): coloured differences within :func:`statics_band` and LAPACK's band
        LU, O(n).
    anchors:
        The seabed's friction anchors (the data's ``sea_anchor``) of every model the solve
        builds (load continuation); default the model's own.
    """
    if hasattr(case_or_model, "n_q") and hasattr(case_or_model, "case"):
        base_model = case_or_model
        case = base_model.case
    else:
        case = load_case(case_or_model)
        base_model = build_model(case)
    if not base_model.n_q:
        raise ValueError(f"model {base_model.name} offers no second-order surface "
                         "(force/mass/held): no static solve")
    nq = base_model.n_q
    free = np.flatnonzero(np.asarray(base_model.held) == 0)
    banded = jacobian == "banded"
    # "auto" and "banded": O(n) band storage and LAPACK's band LU (a dense LU of a few
    # hundred unknowns costs 0.1-0.2 s where OpenBLAS's threads share a loaded machine)
    band = None if jacobian == "dense" else statics_band(base_model)
    scale = case.tether.length / case.model.elements
    if q0 is not None and np.size(q0) == 2 * nq:  # a whole state: no initial shape needed
        y = np.array(q0, dtype=float)
    else:
        y = np.array(base_model.initial_state(), dtype=float)
        if q0 is not None:
            q0 = np.asarray(q0, dtype=float)
            y[:nq] = q0[:nq]
    y[nq:] = 0.0
    if anchors is None and getattr(base_model.data, "sea_anchor", None) is not None:
        anchors = base_model.data.sea_anchor.copy()

    def prepare(model, y):
        if anchors is not None:
            model.data.sea_anchor[:] = anchors
        model.enforce(t, y, model.data)
        y[nq:] = 0.0
        return y

    loads = _has_loads(case) and (load_steps > 1 or start_load > 0.0)
    history: list = []
    total_it = 0
    if not loads:
        model = build_model(_scaled_case(case, 1.0)) if _has_loads(case) else base_model
        y = prepare(model, y)
        y, res, it = _solve(model, y, t, free, tol, max_iter * max(load_steps, 1), scale,
                             banded, band)
        total_it += it
        history.append((1.0, y[:nq].copy()))
        steps = 1
    else:
        lam = float(start_load)
        dlam = (1.0 - lam) / load_steps
        steps = 0
        prev: tuple[float, np.ndarray] | None = None
        res = math.inf
        model = base_model
        while lam < 1.0 - 1e-12:
            target = min(1.0, lam + dlam)
            model = build_model(_scaled_case(case, target))
            trial = y.copy()
            if prev is not None:  # secant predictor from the last two load levels
                lam0, q_prev = prev
                trial[:nq] += (target - lam) / (lam - lam0) * (y[:nq] - q_prev)
            trial = prepare(model, trial)
            trial, res, it = _solve(model, trial, t, free, tol, max_iter, scale, banded, band)
            total_it += it
            if res > tol and prev is not None:  # retry from the last solution itself
                trial = prepare(model, y.copy())
                trial, res, it = _solve(model, trial, t, free, tol, max_iter, scale, banded, band)
                total_it += it
            if res <= tol:
                prev = (lam, y[:nq].copy())
                y = trial
                lam = target
                steps += 1
                history.append((lam, y[:nq].copy()))
                dlam = min(2.0 * dlam, (1.0 - start_load) / load_steps) if it < 6 else dlam
            else:
                dlam *= 0.5
                if dlam < min_step:
                    y = trial
                    break
    pos = model.outputs(np.array([t]), y[None, :])["position"][0]
    return Equilibrium(model=model, y=y, positions=np.asarray(pos), residual=float(res),
                       tol=tol, converged=bool(res <= tol), iterations=total_it,
                       load_steps=steps, t=t, history=history)


# -- the robust pipeline (issue 18) ---------------------------------------------------------


def _down(case: Case) -> np.ndarray:
    """Unit vector along gravity (-z without gravity)."""
    g = np.asarray(case.environment.gravity, dtype=float)
    n = float(np.linalg.norm(g))
    return g / n if n > 0 else np.array([0.0, 0.0, -1.0])


def _node_densities(case: Case, positions: np.ndarray) -> np.ndarray:
    """Density [kg/m³] of the medium at each node: the fluid below the water level (or
    everywhere without one), the air above it."""
    env = case.environment
    rho = np.full(len(positions), float(env.fluid_density))
    if env.water_level is not None:
        rho[positions[:, 2] > float(env.water_level)] = env.air
    return rho


def line_weight(case: Case, positions: np.ndarray) -> float:
    """The load scale [N] of the convergence test ``max |F_free| <= rtol · weight``.

    The sum over the nodes of |wet weight| (lumped masses minus the displaced fluid of the
    medium each node is in, times |g|), plus at free ends |payload wet weight| and |applied
    force|, plus the normal drag of a uniform current on the whole line (½ ρ cd_n d |U|² L)
    and on an end body (½ ρ drag_area |U|²): every load the line must carry. At least
    1e-3 of the dry weight (a neutrally buoyant, unloaded line), 1 N without any of
    these."""
    from .models.base import lumped_nodes

    env = case.environment
    g = float(np.linalg.norm(env.gravity))
    _, _, mass, volume = lumped_nodes(case)
    pos = np.asarray(positions, dtype=float)
    if len(pos) != len(mass):  # another discretisation's nodes: the medium of the nearest
        idx = np.rint(np.linspace(0, len(pos) - 1, len(mass))).astype(int)
        pos = pos[idx]
    rho = _node_densities(case, pos)
    total = float(np.sum(np.abs(mass - rho * volume))) * g
    u = env.uniform_current
    speed2 = float(np.dot(u, u)) if u is not None else 0.0
    t = case.tether
    total += 0.5 * env.fluid_density * t.cd_normal * t.diameter * speed2 * t.length
    for which in ("start", "end"):
        end = getattr(case, which)
        if end.type != "free":
            continue
        total += abs(end.body_masses(env.fluid_density)[1]) * g
        total += float(np.linalg.norm(end.force))
        total += 0.5 * env.fluid_density * end.drag_area * speed2
    dry = float(np.sum(mass)) * g
    # a neutrally buoyant, unloaded line: its wet weight is rounding; the scale is then
    # 1e-3 of its dry weight (1 N without gravity either)
    return max(total, 1e-3 * dry) if max(total, dry) > 0.0 else 1.0


def _coords_per_node(model) -> int:
    return 4 if model.name == "ancf2d" else 3


def _worst_node(model, y: np.ndarray, t: float) -> tuple[int, float]:
    """(node, max |F| [N] there) of the largest free-coordinate residual."""
    if not model.n_q:
        return 0, math.nan
    F = np.empty(model.n_q)
    model.force(t, y, F, model.data)
    F[np.asarray(model.held) != 0] = 0.0
    j = int(np.argmax(np.abs(F)))
    return j // _coords_per_node(model), float(abs(F[j]))


def _error(model, y: np.ndarray, t: float, residual: float, tol: float,
           tried: list[str], hint: str = "", node: int = -1) -> StaticsError:
    """The StaticsError of a failed solve: residual, where it sits, methods, what to try."""
    if node < 0:
        node, _ = _worst_node(model, y, t)
    arc = model.arc_length
    s = float(arc[min(node, len(arc) - 1)])
    return StaticsError(
        f"static equilibrium not found: residual {residual:.4g} N (tolerance {tol:.3g} N) "
        f"largest at node {node} (arc length {s:.4g} m); tried {', '.join(tried)}. "
        "Try: more elements (model.elements), more load_steps, a guess "
        "(initial.points), a looser rtol, or check that the case has an equilibrium "
        f"(a free line with a net load has none){'; ' + hint if hint else ''}")


def _nodes_state(case: Case, nodes: np.ndarray) -> np.ndarray:
    """The model state at rest with its nodes at ``nodes`` [m], in the model's own
    coordinates (each formulation maps node positions itself: ancf2d's slopes from the
    chords, rigid_links' attitudes, rod_chain's rod vectors): the model of the case with
    ``initial: {shape: points}``."""
    raw = case.to_dict()
    raw["initial"] = {"shape": "points", "points": np.asarray(nodes, float).tolist()}
    y = np.array(build_model(load_case(raw, base_dir=case.base_dir)).initial_state(),
                 dtype=float)
    return y


def _rates(model, ny: int) -> slice:
    """Where the rates sit in a state of size ``ny`` (zero at rest): after the n_q
    coordinates of the second-order surface, after rigid_links' 4N quaternion entries,
    else the second half (rod_chain's rod vectors, then their rates)."""
    if model.n_q:
        return slice(model.n_q, None)
    if model.name == "rigid_links":
        return slice(4 * model.n_elements, None)
    return slice(ny // 2, None)


def _set_anchors(model, nodes: np.ndarray) -> np.ndarray | None:
    """Friction anchors (sea.seabed_force) of the nodes on or below the seabed at
    ``nodes`` [m], written into the model's own data; returns the anchor array (None
    without a seabed). The statics' friction rule (docs/statics.md, "The solver")."""
    from .estimates import seabed_heights
    from .sea import BED

    d = model.data
    anchor = getattr(d, "sea_anchor", None)
    if anchor is None or d.sea_par[BED] == 0.0:
        return None
    p = np.asarray(nodes, dtype=float)
    zb = seabed_heights(model.case, p[:, :2])
    on = p[:, 2] <= zb + 1e-6 * model.case.tether.length
    anchor[:] = 0.0
    k = min(len(p), anchor.shape[0])
    anchor[:k, :3] = p[:k]
    anchor[:k, 3] = on[:k]
    return anchor.copy()


#: a tow: a held end moving at the same velocity over this window [s] from t
TOW_WINDOW = 10.0


def _is_towed(case: Case, t: float) -> bool:
    """A held end moving at t with the same velocity over TOW_WINDOW (a tow from t = 0):
    no static equilibrium, a steady state in the moving frame. An end that moves but
    changes its velocity is held where it is at t (a static equilibrium)."""
    for which in ("start", "end"):
        st = case.end_state(which, t)
        if st is None or float(np.linalg.norm(st[1])) == 0.0:
            continue
        motion = case.end_motion(which)
        t1 = min(t + TOW_WINDOW, float(motion.breaks[-1]))
        ts = np.linspace(t, t1, 11)
        v = np.array([case.end_state(which, tk)[1] for tk in ts])
        if t1 > t and np.max(np.abs(v - st[1][None, :])) <= 1e-6 * float(
                np.linalg.norm(st[1])):
            return True
    return False


def solve(case_or_model, *, t: float = 0.0, rtol: float = 1e-6, guess=None,
          load_steps: int = 1, max_iter: int = 40, relax_steps: int | None = None,
          relax_time: float | None = None
          ) -> Equilibrium:
    """The static equilibrium of a case or a built model, for every formulation.

    Pipeline (docs/statics.md, "The solver"): the analytic start of catenary_start.py
    (or ``guess``: node positions (n_nodes, 3) [m] or a whole state vector) -> Newton with
    Deuflhard's line search and load continuation -> stiffness continuation (EA from a
    soft line up to the real one) -> dynamic relaxation (the model's own stepper with
    kinetic damping; the only route for models without the second-order surface:
    rigid_links, rod_chain) and a final Newton. A held end moving at ``t`` (a tow): the
    steady state in the moving frame by steady.settle (method "steady").

    Converged when ``max |F_free| <= rtol · weight`` [N] (:func:`line_weight`);
    velocities zero; held ends where the case puts them at time ``t`` [s].
    ``relax_steps``: the dynamic relaxation's budget in RK4 steps (default RELAX_STEPS: a
    count, so that a solve gives the same answer on every machine); ``relax_time``: an
    optional wall-clock limit [s] on top (a caller's give-up time: what it stops at then
    depends on the machine). Raises
    :class:`StaticsError` when nothing converges.
    """
    from .catenary_start import start_nodes

    if hasattr(case_or_model, "case") and hasattr(case_or_model, "n_nodes"):
        model = case_or_model
        case = model.case
    else:
        case = load_case(case_or_model)
        model = build_model(case)
    arc = np.asarray(model.arc_length, dtype=float)
    y0 = None
    if guess is not None:
        g = np.asarray(guess, dtype=float)
        if g.ndim == 2:
            nodes = g
        else:
            y0 = g.copy()
            nodes = np.asarray(model.outputs(np.array([t]), y0[None, :])["position"][0])
    else:
        nodes = start_nodes(case, arc, t)
    if y0 is None:
        y0 = _nodes_state(case, nodes)
    y0[_rates(model, y0.size)] = 0.0
    weight = line_weight(case, nodes)
    tol = rtol * weight
    if _is_towed(case, t):
        return _steady(model, y0, t, tol, weight)
    anchors = _set_anchors(model, nodes)
    tried: list[str] = []
    best = None
    if model.n_q:
        tried.append("newton" + (" with load continuation" if _has_loads(case) else ""))
        eq = equilibrium(model, y0, t=t, tol=tol, load_steps=max(load_steps, 1),
                         max_iter=max_iter, anchors=anchors)
        eq.method = "newton+continuation" if eq.load_steps > 1 else "newton"
        if not eq.converged and eq.residual <= LATTICE_REACH * tol:
            eq = _rounded(eq)
        if eq.converged:
            return _done(eq, weight, anchors)
        best = eq
        why = _no_equilibrium(model, eq.y, t)
        if why:  # proven: nothing further to try
            node = _worst_node(eq.model, eq.y, t)[0]
            raise StaticsError(
                f"{why}. Newton from the analytic start stops at a residual "
                f"{eq.residual:.4g} N (tolerance {tol:.3g} N) largest at node {node} (arc "
                f"length {float(arc[min(node, len(arc) - 1)]):.4g} m)")
        if case.tether.EA:
            tried.append("stiffness continuation (EA)")
            eq = _stiffness_continuation(model, y0, t, tol, max_iter, anchors)
            if eq is not None and eq.converged:
                return _done(eq, weight, anchors)
            if eq is not None and eq.residual < best.residual:
                best = eq
    tried.append("dynamic relaxation")
    y_relax = y0 if best is None else best.y
    budget = RELAX_STEPS if relax_steps is None else relax_steps
    eq = _soft_relax(model, y_relax.copy(), t, tol, anchors, min(budget, SOFT_RELAX_STEPS),
                     relax_time)
    if eq is None or not eq.converged:
        eq = _relax(model, y_relax.copy(), t, tol, budget, anchors, relax_time)
    if eq.converged:  # with the anchors where the relaxation's run slid them
        return _done(eq, weight, anchors if eq.anchors is None else eq.anchors)
    if best is None or eq.residual < best.residual:
        best = eq
    hint = _compression_hint(model, y0, t, tol, max_iter, anchors)
    if (model.name == "higher_order" and (case.tether.GJ or 0.0) > 0.0
            and getattr(model, "twist_mode", 0) != 0):
        # the held roll's twisting moment is all that the proof of _no_equilibrium lacks
        twin = build_model(case.with_changes({"tether.GJ": 0.0}))
        if _no_equilibrium(twin, y0.copy(), t):
            hint = ((hint + "; ") if hint else "") + (
                "the same line without twist stiffness (tether.GJ: 0) provably has no "
                "equilibrium (its ends are closer than L/√2: docs/statics.md, 'No "
                "equilibrium'); the held roll's twisting moment is what that proof lacks, "
                "and no equilibrium was found with it either")
            hint += _twist_needed(twin, best, t)
    raise _error(best.model, best.y, t, best.residual, tol, tried, node=best.worst,
                 hint=hint)


def twist_precession_chord(x: float) -> float:
    """The least chord / length [-] of a tensioned, unloaded Kirchhoff rod pinned at one
    end whose tangent precesses about the internal force P by at most x [rad]
    (docs/statics.md, "No equilibrium", step 5): every tangent lies in the spherical
    triangle of the pole P̂ and two equator points x apart, inside the cap about its
    circumcentre of angular radius ρ, cos ρ = cos(x/2) / sqrt(1 + cos²(x/2)); x = 0 is
    the planar bound 1/√2."""
    c = math.cos(0.5 * x)
    return c / math.sqrt(1.0 + c * c)


def _twist_needed(twin, best: Equilibrium, t: float) -> str:
    """What an equilibrium of the twisted line needs, where the untwisted ``twin`` (GJ = 0)
    provably has none: a total twist |Θ| ≥ Θ* [rad], i.e. a twisting moment |GJ τ| =
    GJ |Θ| / L ≥ EI x* / L [N m], x* the precession at which twist_precession_chord
    reaches the chord (a proven necessary condition, docs/statics.md, "No equilibrium",
    step 5), with the twist the solver's best state has; "" where it does not apply."""
    case = twin.case
    tt = case.tether
    ends = [case.end_state(w, t) for w in ("start", "end")]
    length = float(tt.length)
    chord = float(np.linalg.norm(np.asarray(ends[1][0]) - np.asarray(ends[0][0])))
    EI, GJ = float(tt.EI or 0.0), float(best.model.case.tether.GJ or 0.0)
    if not (EI > 0.0 and GJ > 0.0) or chord >= length / math.sqrt(2.0):
        return ""
    lo, hi = 0.0, math.pi
    for _ in range(60):  # twist_precession_chord falls from 1/√2 at 0 to 0 at π
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if twist_precession_chord(mid) > chord / length else (lo, mid)
    x = 0.5 * (lo + hi)
    h = 1e-6  # the bound holds for the stretched length too where ℓ f(|M| ℓ / EI) grows
    if (twist_precession_chord(x + h) - twist_precession_chord(x - h)) / (2 * h) * x \
            + twist_precession_chord(x) <= 0.0:
        return ""
    theta = tracked = math.nan
    m = best.model
    if getattr(m, "twist_mode", 0) != 0 and hasattr(m.data, "tw"):
        F = np.empty(m.n_q)
        m.force(t, best.y, F, m.data)
        tracked = float(m.data.tw[0])  # the branch the solve carried (nearest its last)
        if hasattr(m, "reset_twist"):
            m.reset_twist()  # the branch nearest the rolls' difference, as a run takes it
        m.force(t, best.y, F, m.data)
        theta = float(m.data.tw[0])
    return (f"; with the twist, an equilibrium needs a total twist |Θ| ≥ {x * EI / GJ:.3g} "
            f"rad (a twisting moment GJ|Θ|/L ≥ {x * EI / length:.3g} N m: the tangent "
            f"precesses about the internal force by at most |M| L/EI, and by less than "
            f"{x:.3g} rad the chord cannot be as short as {chord:.4g} m; docs/statics.md, "
            f"'No equilibrium', step 5); the solver's best state has Θ = {theta:.3g} rad "
            f"on the branch nearest the held rolls' difference (the branch a run from it "
            f"takes; the solve had carried it to {tracked:.3g} rad)")


def _no_equilibrium(model, y: np.ndarray, t: float) -> str:
    """Why the case has no static equilibrium at all, where that is proven; "" otherwise.

    A higher_order tether that takes no compression (seed 004 eq. 2.17), with no load
    along it (neutrally buoyant to rounding, no current, wind, waves, seabed or winch
    thrust) and no twisting moment (GJ = 0 or a roll free), held at both ends, clamped at
    one and pinned at the other. Then (Kirchhoff rod; docs/statics.md, "No equilibrium"):
    the internal force is one constant vector P (n' = 0); its component along the line is
    the tension, T = P·t ≥ 0 (the model's element force along its chord is T |c|²/L); no
    twist and no bending moment at the pinned end make the moment m·P̂ = 0 everywhere,
    so the rod is planar, and with ψ the angle from P, EI ψ'' = P sin ψ, ψ'(L) = 0: the
    first integral ½ EI ψ'² = P (cos ψ_L − cos ψ) keeps ψ monotone within [ψ_L, π/2]
    (tension) — the tangent turns by at most 90°, so every tangent lies within 45° of one
    direction and the chord is at least L/√2 (the stretched length is at least L: an
    element slack over a stretch would need t ⟂ P there, which ψ'' = (P/EI) sin ψ ≠ 0
    forbids; P = 0 leaves a straight line, which the clamp forbids unless the chord is
    along it)."""
    case = model.case
    tt, env = case.tether, case.environment
    if (model.name != "higher_order" or tt.compression or not (tt.EI or 0.0) > 0.0
            or case.start.type == "free" or case.end.type == "free"):
        return ""
    if (tt.GJ or 0.0) > 0.0 and getattr(model, "twist_mode", 0) != 0:
        return ""
    clamps = [getattr(case, w).clamp is not None for w in ("start", "end")]
    if sum(clamps) != 1:
        return ""
    if (env.water_level is not None or env.seabed is not None or env.waves is not None
            or env.wind is not None or env.uniform_current is None
            or any(env.uniform_current)):
        return ""
    from .models.base import lumped_nodes

    _, _, mass, volume = lumped_nodes(case)
    g = float(np.linalg.norm(env.gravity))
    if float(np.sum(np.abs(mass - env.fluid_density * volume))) * g > 1e-12 * max(
            float(np.sum(mass)) * g, 1e-300):
        return ""
    if getattr(model, "winch", False):
        F = np.empty(model.n_q)
        model.force(t, y, F, model.data)
        if model.data.wstate[1] != 0.0:  # paying out at t: a thrust on the line
            return ""
    arc = np.asarray(model.arc_length, dtype=float)
    length = float(arc[-1] - arc[0])
    ends = [case.end_state(w, t) for w in ("start", "end")]
    if ends[0] is None or ends[1] is None:
        return ""
    chord = float(np.linalg.norm(np.asarray(ends[1][0]) - np.asarray(ends[0][0])))
    if chord >= length / math.sqrt(2.0):
        return ""
    return (f"no static equilibrium exists: the ends are {chord:.4g} m apart, closer than "
            f"L/√2 = {length / math.sqrt(2.0):.4g} m (L = {length:.4g} m), and a tether "
            "without compression (tether.compression: false), without load along it "
            "(neutrally buoyant, no current) and without twisting moment, clamped at one "
            "end and pinned at the other, can only take the tension of a planar elastica "
            "whose tangent turns by at most 90° (proof: docs/statics.md, 'No "
            "equilibrium'); the solver folds an element instead. Start from a shape "
            "(initial.points, as the bundled ROV examples do), set tether.compression: "
            "true (an arch in compression then stands), or hold the ends at least L/√2 "
            "apart")


def _compression_hint(model, y0: np.ndarray, t: float, tol: float, max_iter: int,
                      anchors) -> str:
    """Why a line that refuses compression (``tether.compression: false``, seed 004 eq.
    2.17) has no equilibrium, where that is the reason: Newton with compression allowed
    converges from the same start to a shape whose elements carry compression (the
    weightless elastica between two ends closer than its length is an arch in compression,
    e.g. the neutrally buoyant ROV umbilical). Its elements would go slack and lose the
    force that holds the bending; a shape at rest with them slack sits on the kink of the
    axial law, where Newton does not converge. "" otherwise."""
    case = model.case
    if (not model.n_q or case.tether.compression
            or "compression" not in model.supports.tether_keys):
        return ""
    try:
        alt = build_model(case.with_changes({"tether.compression": True}))
        eq = equilibrium(alt, y0.copy(), t=t, tol=tol, max_iter=max_iter, anchors=anchors)
    except (ValueError, ArithmeticError):
        return ""
    if not eq.converged:
        return ""
    T = np.asarray(alt.outputs(np.array([t]), eq.y[None, :])["tension"][0], dtype=float)
    pushed = T < -tol
    if not np.any(pushed):
        return ""
    # the median: an element next to a held end that moves at t also shows that end's
    # axial damping in the outputs (the ROV's last element: 41 N of its 0.02-0.06 N)
    return (f"with compression allowed (tether.compression: true) Newton converges "
            f"(residual {eq.residual:.3g} N, {eq.iterations} iterations) to a shape with "
            f"{int(np.sum(pushed))} of {T.size} elements in compression (median "
            f"{-float(np.median(T[pushed])):.3g} N): this tether takes no compression, so "
            "that shape cannot stand, and a shape at rest with those elements slack was not "
            "found. Set tether.compression: true (a rod), or put the line in tension "
            "(weight, an end force, the ends farther apart)")


#: after convergence, Newton iterations more towards the rounding floor (a start at
#: 1e-6 of the weight is not still: a node with a residual f creeps at ~f/(m ω) on the
#: slow modes; 3.9e-4 m/s measured for the jumper, 3.8e-8 m/s at 4.5e-11 of the weight)
POLISH_ITER = 4


def _polish(eq: Equilibrium, anchors) -> Equilibrium:
    """A converged Newton solution taken a few full Newton steps further (POLISH_ITER),
    kept where they lower the residual."""
    if not eq.model.n_q or eq.method == "steady" or eq.residual == 0.0:
        return eq
    nq = eq.model.n_q
    free = np.flatnonzero(np.asarray(eq.model.held) == 0)
    y = eq.y.copy()
    y[nq:] = 0.0
    case = eq.model.case
    scale = case.tether.length / max(eq.model.n_elements, 1)
    y2, res, it = _newton(eq.model, y, eq.t, free, 0.0, POLISH_ITER, scale, False,
                          damped=False, band=statics_band(eq.model))
    if res < eq.residual and np.all(np.isfinite(y2)):
        eq.y = y2
        eq.residual = res
        eq.iterations += it
        eq.positions = np.asarray(eq.model.outputs(np.array([eq.t]), y2[None, :])
                                  ["position"][0])
        eq.worst = -1
    return eq


def _done(eq: Equilibrium, weight: float, anchors: np.ndarray | None = None
          ) -> Equilibrium:
    eq = _polish(eq, anchors)
    eq.weight = weight
    eq.anchors = None if anchors is None else np.array(anchors, copy=True)
    return eq


#: stiffness continuation: EA/(w L) of the softest level, and the growth per level
SOFT_RATIO = 1e2
EA_GROWTH = 10.0


def _stiffness_continuation(model, y0: np.ndarray, t: float, tol: float, max_iter: int,
                            anchors) -> Equilibrium | None:
    """Newton along a sequence of axial stiffnesses from a soft line (EA/(w L) =
    SOFT_RATIO, the bending stiffness scaled alike) up to the real EA, each level solved
    from the last one's solution (a growth per level that fails is square-rooted, down to
    1.01). A stiff line's Newton steps rotate elements against an axial spring whose
    stretch they cannot see; a soft line takes those rotations, and from each level's
    solution the next is close. None when the soft level itself does not converge."""
    case = model.case
    EA = float(case.tether.EA)
    EI = float(getattr(case.tether, "EI", 0.0) or 0.0)
    scale = max(line_weight(case, model.outputs(np.array([t]), y0[None, :])["position"][0]),
                1e-300)
    f = min(1.0, SOFT_RATIO * scale / EA)
    if f >= 1.0:
        return None

    def level(fac: float, y: np.ndarray, tol_k: float) -> Equilibrium:
        changes = {"tether.EA": EA * fac}
        if EI > 0.0:
            changes["tether.EI"] = EI * fac
        m = model if fac == 1.0 else build_model(case.with_changes(changes))
        return equilibrium(m, y, t=t, tol=tol_k, max_iter=max_iter, anchors=anchors)

    eq = level(f, y0.copy(), tol * 1e3)
    if not eq.converged:
        return None
    iters = eq.iterations
    growth = EA_GROWTH
    while f < 1.0:
        nf = min(1.0, f * growth)
        trial = level(nf, eq.y.copy(), tol if nf == 1.0 else tol * 1e3)
        iters += trial.iterations
        if trial.converged:
            eq, f = trial, nf
            growth = min(EA_GROWTH, growth * growth)
        else:
            growth = math.sqrt(growth)
            if growth < 1.01:
                trial.iterations = iters
                trial.method = "newton+stiffness"
                return trial
    eq.iterations = iters
    eq.method = "newton+stiffness"
    return eq


#: dynamic relaxation: RK4 steps between two velocity scalings, chunks between two
#: measurements of the static residual, and the RK4 steps allowed (solve's relax_steps)
DR_CHUNK = 8
DR_PROBE = 25
RELAX_STEPS = 40_000


def _node_masses(case: Case) -> np.ndarray:
    """Lumped node masses [kg] with the added mass of the fluid and the free ends'
    payloads: the inertia that turns a node's acceleration into its residual force."""
    from .models.base import lumped_nodes

    t, env = case.tether, case.environment
    _, _, m, v = lumped_nodes(case)
    m = m + env.fluid_density * t.ca_normal * v
    for k, which in ((0, "start"), (-1, "end")):
        m[k] += getattr(case, which).body_masses(env.fluid_density)[0]
    return m


def _relax(model, y0: np.ndarray, t: float, tol: float, max_steps: int,
           anchors, wall: float | None = None) -> Equilibrium:
    """Dynamic relaxation: the model's own compiled RK4 step (its ``rhs``) from y0, with
    mass-proportional damping applied as a velocity scaling exp(−c·DR_CHUNK·dt) between
    chunks of DR_CHUNK steps (every mode then decays at the rate c/2; c = 1.4 ω₀ with ω₀
    = sqrt(g_eff / L), g_eff the line's loads over its mass: near critical for the
    slowest, pendulum-like mode). Each chunk restarts at time t (held ends stay put).
    Every DR_PROBE chunks the static residual of the current shape at rest is measured:
    for a model with the second-order surface max |F_free| (Newton polishes from there
    once it falls a decade, and once more when the budget is spent); else max over free
    nodes of m_i |a_i| with a_i = 2 (r_i(t + dt) − r_i(t)) / dt² from one step at rest.
    On a seabed with friction the run slides the anchors as any run does (remesh:
    sea.update_anchor), and the residual, the polish and the returned Equilibrium's
    ``anchors`` are those slid anchors (docs/statics.md, "Seabed friction"). Stops
    converged below ``tol`` [N], or after ``max_steps`` RK4 steps, at a measurement (the
    state returned is the one measured; ``wall``: also after that many seconds of wall
    clock, if given)."""
    import time

    from .integrate import StepperOptions, make_stepper
    from .integrate.explicit import RK4Workspace, compiled_loop, rk4_chunk
    from .models.base import RunData

    case = model.case
    if _has_loads(case):  # the full loads from t on (no force ramp)
        model = build_model(_scaled_case(case, 1.0))
    dt = 0.8 * model.critical_time_step()[0]  # RK4's own limit: no output grid here
    opts = StepperOptions(dt=dt)
    data = RunData(model)
    if anchors is not None and getattr(data.args, "sea_anchor", None) is not None:
        data.args.sea_anchor[:] = anchors
    y = np.array(y0, dtype=float)
    rates = _rates(model, y.size)
    mass = _node_masses(case)
    load = line_weight(case, model.outputs(np.array([t]), y[None, :])["position"][0])
    omega0 = math.sqrt(max(load / float(mass.sum()), 1e-12) / case.tether.length)
    decay = math.exp(-1.4 * omega0 * DR_CHUNK * dt)
    held = np.array([case.start.type != "free", case.end.type != "free"])
    nq = model.n_q
    free = np.flatnonzero(np.asarray(model.held) == 0) if nq else None
    times = t + dt * np.arange(1, 2)
    Y = np.empty((1, y.size))
    ws = RK4Workspace(y.size)
    loop = compiled_loop(rk4_chunk, model)
    one = np.empty((1, y.size))
    t_end = math.inf if wall is None else time.perf_counter() + wall
    res = math.inf
    worst = -1
    chunks = 0
    polish_at = math.inf
    run_anchor = getattr(data.args, "sea_anchor", None) if anchors is not None else None
    while True:
        if chunks % DR_PROBE == 0:  # the static residual of this shape, at rest
            rest = y.copy()
            rest[rates] = 0.0
            if run_anchor is not None:
                # the anchors as the run has slid them (remesh: sea.update_anchor, a node
                # pulled past μN drags its anchor along): the residual and the polish are
                # those of the shape with the friction it has in the run (measured against
                # the start's anchors a grounded line in a cross current, slid ~1 m, kept
                # 118 N at its capped friction however long it relaxed)
                anchors = run_anchor.copy()
                model.data.sea_anchor[:] = anchors
            if nq:
                res = float(np.max(np.abs(free_force(model, rest, t, free))))
                if res > tol and res <= polish_at:
                    eq = equilibrium(model, rest, t=t, tol=tol, max_iter=20,
                                     anchors=anchors)
                    if eq.converged:
                        eq.method = "dynamic_relaxation"
                        eq.iterations += chunks
                        eq.anchors = anchors
                        return eq
                    polish_at = 0.1 * res
            else:
                st = make_stepper("rk4", model, data, rest, t, opts)
                p0 = np.asarray(model.outputs(np.array([t]), st.y[None, :],
                                              data.args)["position"][0])
                st.advance(times[:1], one)
                p1 = np.asarray(model.outputs(times[:1], one, data.args)["position"][0])
                f = mass[:, None] * 2.0 * (p1 - p0) / dt**2
                f[0] *= not held[0]
                f[-1] *= not held[1]
                fn = np.linalg.norm(f, axis=1)
                worst = int(np.argmax(fn))
                res = float(fn[worst])
            if res <= tol or chunks * DR_CHUNK >= max_steps or time.perf_counter() > t_end:
                y = rest
                if nq and res > tol and res > polish_at:
                    # the budget is spent: Newton once more from where the relaxation
                    # stopped (the grounded line in a cross current: 13 N left after 40 000
                    # steps, its suspended part still swinging; Newton from there, the
                    # anchors as slid, converges in 5 iterations; the last gated try, at
                    # 35 N with the anchors still sliding, had failed)
                    eq = equilibrium(model, rest, t=t, tol=tol, max_iter=20,
                                     anchors=anchors)
                    if eq.converged:
                        eq.method = "dynamic_relaxation"
                        eq.iterations += chunks
                        eq.anchors = anchors
                        return eq
                break
        # one chunk of DR_CHUNK steps from time t, y advanced in place: RK4's compiled loop
        # called directly (a stepper built per chunk cost 0.1 ms of Python a chunk, more
        # than its 8 steps of a 20-element line: 1.2 of seabed + current's 2.1 s)
        model.enforce(t, y, data.args)  # held ends back where they are at t
        if loop(data.args, t, dt, 0, DR_CHUNK, 1, y, Y, *ws.k, ws.state) < 1:
            res, worst = math.inf, -1  # the relaxation blew up: nothing found
            break
        y[rates] *= decay
        chunks += 1
    y[rates] = 0.0
    pos = np.asarray(model.outputs(np.array([t]), y[None, :])["position"][0])
    return Equilibrium(model=model, y=y, positions=pos, residual=float(res), tol=tol,
                       converged=bool(res <= tol), iterations=chunks, load_steps=1, t=t,
                       method="dynamic_relaxation", worst=worst, anchors=anchors)


#: the softened line's dynamic relaxation: its EA/(w L) (EI scaled alike), its RK4 steps
SOFT_RELAX_RATIO = 1e4
SOFT_RELAX_STEPS = 10_000


def _soft_relax(model, y0: np.ndarray, t: float, tol: float, anchors, max_steps: int,
                wall: float | None = None) -> Equilibrium | None:
    """Dynamic relaxation of the same line softened to EA/(w L) = SOFT_RELAX_RATIO (EI
    scaled by the same factor, as in :func:`_stiffness_continuation`) to 1e3 tol, then
    Newton on the real line from there with the friction anchors where the soft run slid
    them. RK4's stable step grows as sqrt(EA): a stiff line (EA/(w L) = 1e6) relaxes 10
    times fewer steps soft; its shape differs from the real one by the strain T/EA, which
    Newton removes. Seabed + current (EA/(w L) = 1e6, a cross current sliding the
    grounded nodes ~1 m): 40 000 real steps (1.3-1.6 s CPU the solve) before Newton
    converged; soft, about 3 700 steps and 4 Newton iterations (0.25-0.31 s the solve).
    The anchors are those of the soft run: friction is indeterminate in statics
    (docs/statics.md, "Seabed friction"); the equilibrium returned is that of those
    anchors, its residual measured on the real line.
    At most ``max_steps`` RK4 steps (solve's relax_steps, up to SOFT_RELAX_STEPS). None
    where the line is no stiffer than that (the plain relaxation is the soft one)."""
    case = model.case
    if not model.n_q or not case.tether.EA or max_steps <= 0:
        return None
    EA = float(case.tether.EA)
    weight = line_weight(case, model.outputs(np.array([t]), y0[None, :])["position"][0])
    fac = SOFT_RELAX_RATIO * max(weight, 1e-300) / EA
    if fac >= 1.0:
        return None
    changes = {"tether.EA": EA * fac}
    EI = float(getattr(case.tether, "EI", 0.0) or 0.0)
    if EI > 0.0:
        changes["tether.EI"] = EI * fac
    soft = build_model(case.with_changes(changes))
    relaxed = _relax(soft, y0, t, tol * 1e3, max_steps,
                     None if anchors is None else np.array(anchors, copy=True), wall)
    if not relaxed.converged:
        return None
    slid = anchors if relaxed.anchors is None else relaxed.anchors
    eq = equilibrium(model, relaxed.y.copy(), t=t, tol=tol, max_iter=20, anchors=slid)
    eq.method = "dynamic_relaxation"
    eq.iterations += relaxed.iterations
    eq.anchors = slid
    return eq


#: a tow's steady state: how long the straight tow runs at most [s]
TOW_TIME = 2000.0


def _straight_tow(case: Case, t: float) -> tuple[Case, dict[str, np.ndarray]]:
    """The case with every moving held end on the straight line it follows at t, at its
    velocity then, from t on for TOW_TIME (a trajectory that turns or stops later does not
    change the tow's steady state at t), and those velocities {which: v [m/s]}."""
    raw = case.to_dict()
    vel = {}
    for which in ("start", "end"):
        st = case.end_state(which, t)
        if st is None or float(np.linalg.norm(st[1])) == 0.0:
            continue
        p, v = st
        ts = [t, t + TOW_TIME]
        raw[which]["trajectory"] = {"t": ts, **{
            ax: [float(p[k]), float(p[k] + v[k] * TOW_TIME)] for k, ax in enumerate("xyz")}}
        raw[which]["interpolation"] = "linear"
        raw[which].pop("position", None)
        vel[which] = np.asarray(v, dtype=float)
    return load_case(raw, base_dir=case.base_dir), vel


def _steady(model, y0: np.ndarray, t: float, tol: float, weight: float) -> Equilibrium:
    """A tow (a held end moving at constant velocity at t): the steady state in the moving
    frame by steady.settle (frame "towed") on the straight tow (:func:`_straight_tow`) from
    the analytic start y0; converged when settle's own test holds (the holder forces' and
    the free end's ranges over its window). For the node formulations the settled shape is
    moved back by the tow's travel so that it sits where the towed end is at t."""
    from .steady import NotSettledError, settle

    tow, vel = _straight_tow(model.case, t)
    v = next(iter(vel.values()))
    polishable = (model.name in ("lumped_mass", "higher_order")
                  and not getattr(model, "winch", False)
                  and model.n_q == 3 * model.data.n_nodes)
    if polishable:
        # Newton in the moving frame from the analytic start first: where it converges,
        # settle starts on the steady tow and only confirms it over its window (a run from
        # it stays steady: the stable state, not just a balance of forces), instead of
        # running the whole transient from the start (chapman_turn: 2 windows, not 33)
        y_p, res, _ = _towed_polish(model, y0, t, v, tol)
        if res <= tol and np.all(np.isfinite(y_p)):
            y0 = y_p
    try:
        st = settle(tow, y0=y0, t0=t, frame="towed", time_limit=t + TOW_TIME)
    except (NotSettledError, ValueError) as exc:
        raise StaticsError(f"towed case: no steady state in the moving frame ({exc}); "
                           "tried steady.settle on the straight tow from the analytic "
                           "start") from exc
    y = st.state.copy()
    m = st.continuation.model
    t_eq = st.time
    if m.name in ("lumped_mass", "higher_order") and not getattr(m, "winch", False):
        ns = m.data.n_nodes
        y[:3 * ns].reshape(ns, 3)[:] -= v[None, :] * (st.time - t)
        t_eq = t
        m = model  # the case's own model: its ends are where the tow's are at t
    residual, iterations = float(max(st.variation.values(), default=0.0)), 0
    if m is model and polishable:
        y_p, res, it = _towed_polish(model, y, t, v, tol)
        if res <= tol:  # the force residual in the moving frame replaces settle's ranges
            y, residual, iterations = y_p, res, it
    eq = Equilibrium(model=m, y=y, positions=np.asarray(
        m.outputs(np.array([t_eq]), y[None, :])["position"][0]),
        residual=residual, tol=tol, converged=True, iterations=iterations, load_steps=1,
        t=t_eq, method="steady", weight=weight)
    return eq


class _MovingFrame:
    """A node model seen from the frame moving at the tow's velocity: every node's rate is
    that velocity (the line at rest in the frame), so ``force`` is the static force there
    (drag of the relative flow; internal damping idle). Everything else is the model's."""

    def __init__(self, model, rates: np.ndarray):
        self._model = model
        self._rates = rates

    def __getattr__(self, name):
        return getattr(self._model, name)

    def force(self, t, y, F, data):
        y[self._model.n_q:] = self._rates
        self._model.force(t, y, F, data)


def _towed_polish(model, y: np.ndarray, t: float, v: np.ndarray, tol: float
                  ) -> tuple[np.ndarray, float, int]:
    """Newton on the settled tow in its moving frame (every node at the tow velocity
    ``v`` [m/s], held ends where the case puts them at ``t``): settle stops when the
    holder forces vary less than its own tolerance over a window (chapman_turn: 1.2e-4 of
    the weight), Newton takes the shape to ``tol`` [N]. Returns (y, max |F_free| [N],
    iterations); the state's rates are the tow velocity."""
    nq = model.n_q
    rates = np.tile(np.asarray(v, dtype=float), nq // 3)
    frame = _MovingFrame(model, rates)
    free = np.flatnonzero(np.asarray(model.held) == 0)
    y = np.array(y, dtype=float)
    model.enforce(t, y, model.data)
    y[nq:] = rates
    scale = model.case.tether.length / max(model.n_elements, 1)
    return _solve(frame, y, t, free, tol, POLISH_ITER * 5, scale, False,
                  band=statics_band(model))

