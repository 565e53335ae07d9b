"""The surface every formulation offers to the integrators, the results layer and the CLI.

A formulation is built from a validated :class:`~tetherdyn.case.Case` and holds a frozen
``data`` tuple (arrays and floats, plus its own preallocated work arrays) and three
compiled kernels with the signatures the integrators call:

- ``rhs(t, y, dydt, data)``   first-order derivative of the state (no allocation);
- ``enforce(t, y, data)``     overwrite kinematically held coordinates in ``y``;
- ``check(t, y, data)``       -1 when the state is sound, else the offending element;
- ``remesh(t, y, data)``      after every accepted step: change the state's layout when a
  discrete event asks for it (a winch splitting or merging its element, winch.py) and
  return 1, else return 0. The default does nothing.

``initial_state()``, ``outputs(times, Y, data=None)`` (the results variables of the spec,
evaluated with a run's data tuple, default the model's own) and ``critical_time_step()``
complete the surface.

Model and data (Pinocchio's ``Model`` / ``createData``, MuJoCo's ``mjModel`` / ``mjData``).
The kernels take one ``data`` tuple that mixes constants with what a run mutates; the split
is declared, not restructured, so the kernels' arguments and arithmetic stay as they are:

- ``run_fields`` (class attribute, tuple of field names of the data namedtuple): the fields
  a run mutates — work arrays, held rows, winch tables (changed by a split or merge), host
  schedules (an end's motion, a winch's payout: rewritten by the step API or the tension
  controller), tracked state such as a twist branch. ``None`` (the default, for
  formulations that declare nothing) means every array field.
- every other array field is a constant: after :meth:`Formulation.freeze` (called by
  ``build_model`` and by the first :meth:`Formulation.make_data`) it is read-only
  (``flags.writeable = False``) and shared by all runs of the model.
- ``model.data``: the model's own data tuple (the template). Its constants are the frozen
  shared arrays; its run fields belong to the model's own post-processing (``outputs``
  and ``end_forces`` without a run's data, tests, tools) and are never used by a run.
- ``model.make_data()``: a fresh data tuple for one run — the constants shared, a fresh
  copy of every run field, copied from the state the template had when it was frozen (so
  a run never depends on what post-processing did to the template). Two runs of one model,
  sequential or interleaved, never see each other.
- :class:`RunData` wraps one run's tuple (``.args``, what the kernels get as ``data``) and
  is the only way a run's data changes from outside the kernels: ``set_end_motion``,
  ``set_payout``, ``save`` / ``restore``; nothing outside this module calls ``_replace``.

Second-order surface (optional; needed by ``solver.method: generalized_alpha``, see
integrate/implicit.py and docs/generalized_alpha.md). A formulation whose equations are
``M(q) q̈ = F(t, q, q̇)`` may also offer:

- ``n_q: int`` (instance attribute): the state is ``y = [q (n_q), q̇ (n_q)]`` and
  dq/dt = q̇. ``n_q = 0`` (the class default) means "no second-order surface".
- ``band: int``: half-bandwidth in q-indices of M(q), ∂F/∂q and ∂F/∂q̇ (entries with
  |i − j| > band are zero); lumped_mass: 5 (3 coordinates per node), ancf2d: 7.
- ``held: np.ndarray`` (int64, n_q): 1 for coordinates prescribed kinematically (held
  ends: fixed / prescribed positions, clamped slopes); ``enforce`` sets their q and q̇.
- compiled static kernels, allocation-free, writing into the caller's arrays:

  - ``force(t, y, F, data)``: the generalized applied force F (n_q), everything except
    inertia (elastic, internal damping, gravity/buoyancy, drag, end loads, payload
    weight/drag); entries of held coordinates are ignored by the integrator;
  - ``mass(t, y, Mb, data)``: the symmetric mass matrix M(q) in lower band storage
    ``Mb[k, j] = M[j + k, j]``, k = 0 … band, shape (band + 1, n_q) (payloads and added
    mass included); callers call it right after ``force`` on the same t and y (the
    generalized-α loop does), so it may use what ``force`` left in ``data`` (higher_order:
    the spline's nodal tangents);
  - ``held_acc(t, y, a, data)``: the prescribed accelerations of held coordinates into
    ``a`` (the other entries untouched).

- the kernels generalized-α binds are the class's (``type(model).rhs`` …): a model may
  replace ``rhs``, ``enforce`` or ``remesh`` per instance with faster kernels of the same
  physics for the explicit loops (lumped_mass's lean path), which step them every stage;
  generalized-α calls them once per step or trial beside ``force`` and ``mass``, so one
  compiled loop per formulation serves every instance.
- consistency (tests/test_generalized_alpha.py checks it for every model with the
  surface): on free coordinates ``rhs`` gives q̈ = M⁻¹F restricted to them, with the held
  accelerations on the right-hand side (M_ff q̈_f = F_f − M_fh a_h), and q̈_h = held_acc.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .._jit import loop

if TYPE_CHECKING:
    from ..case import Case

__all__ = ["Formulation", "RunData", "rk4_critical_step", "lumped_nodes", "uniform_elements"]


# Not cached on disk (``loop``, unlike ``kernel``): every formulation's data type reaches
# this one function, formulations defined outside the package (tests, the validation lab)
# included, and a cache index that names such a type cannot be loaded where its module is
# not importable (ModuleNotFoundError: No module named 'validation', seen when an example
# ran after the tests). Compiling it costs microseconds.
@loop
def no_remesh(t, y, data):
    """The remesh hook of a formulation whose layout never changes."""
    return 0


class Formulation:
    """Base class: one subclass per model type, built from a Case."""

    remesh = staticmethod(no_remesh)
    #: fields of ``data`` a run mutates (module docstring); None: every array field
    run_fields: tuple[str, ...] | None = None

    name: str = ""
    #: what limits the explicit time step (reported by ``tetherdyn check``)
    fastest_mode: str = ""
    n_nodes: int
    n_elements: int
    arc_length: np.ndarray
    data: tuple
    #: second-order surface (see the module docstring); n_q = 0: not offered
    n_q: int = 0
    band: int = 0
    held: np.ndarray | None = None
    force = None
    mass = None
    held_acc = None

    def __init__(self, case: Case) -> None:
        self.case = case

    def initial_state(self) -> np.ndarray:  # pragma: no cover - interface
        raise NotImplementedError

    def outputs(self, times: np.ndarray, Y: np.ndarray, data: tuple | None = None
                ) -> dict[str, np.ndarray]:
        raise NotImplementedError  # pragma: no cover - interface

    # -- model and data ---------------------------------------------------------------
    def _run_field_names(self) -> tuple[str, ...]:
        d = self.data
        names = getattr(d, "_fields", None)
        if self.run_fields is not None:
            return tuple(self.run_fields)
        if names is None:  # a plain tuple: every array item is per run
            return tuple(str(i) for i, v in enumerate(d) if isinstance(v, np.ndarray))
        return tuple(f for f in names if isinstance(getattr(d, f), np.ndarray))

    def run_arrays(self, data: tuple) -> dict[str, np.ndarray]:
        """The arrays a run mutates in ``data`` (a run's data tuple), keyed
        ``data.<field>``: what a saved run carries (:meth:`RunData.save` /
        :meth:`RunData.restore`). A model whose data nests per-run arrays (a system's
        stacked lines, its higher_order lines' own data) adds them under longer keys."""
        names = getattr(data, "_fields", None)
        return {f"data.{n}": (getattr(data, n) if names is not None else data[int(n)])
                for n in self._run_field_names()}

    def freeze(self) -> None:
        """Make the constant arrays of ``data`` read-only and remember the run fields'
        starting values (what :meth:`make_data` copies). Idempotent."""
        if getattr(self, "_pristine", None) is not None:
            return
        run = self._run_field_names()
        d = self.data
        names = getattr(d, "_fields", None) or tuple(str(i) for i in range(len(d)))
        unknown = set(run) - set(names)
        if unknown:
            raise TypeError(f"{type(self).__name__}.run_fields names no data field: "
                            f"{sorted(unknown)}")
        for name, v in zip(names, d, strict=True):
            if isinstance(v, np.ndarray) and name not in run:
                v.flags.writeable = False
        self._pristine = {name: v.copy() for name, v in zip(names, d, strict=True)
                          if name in run and isinstance(v, np.ndarray)}

    def make_data(self) -> tuple:
        """A fresh data tuple for one run: the frozen constants shared with ``data``, a
        fresh copy of every run field (module docstring)."""
        self.freeze()
        fresh = {k: v.copy() for k, v in self._pristine.items()}
        d = self.data
        if hasattr(d, "_replace"):
            return d._replace(**fresh)
        return tuple(fresh.get(str(i), v) for i, v in enumerate(d))

    def critical_time_step(self) -> tuple[float, int, float]:
        raise NotImplementedError  # pragma: no cover - interface

    def end_forces(self, t: float, y: np.ndarray, out: np.ndarray,
                   data: tuple | None = None) -> None:
        """Forces [N] the tether exerts on its start (out[0]) and end (out[1]) holders at
        state y, time t (the results' start_force / end_force), with a run's ``data``
        (default: the model's own). Models override this with an allocation-free version
        for the step API; this fallback goes through outputs."""
        res = self.outputs(np.array([t]), y[None, :], data)
        out[0] = res["start_force"][0]
        out[1] = res["end_force"][0]


_END_FIELDS = {"start": ("breaks0", "coeffs0"), "end": ("breaks1", "coeffs1")}


class RunData:
    """The data of one run of a built model (module docstring: Model and data).

    ``args`` is the tuple the kernels get as ``data``; read it again after a named setter
    (a setter may give a new tuple). ``model`` is the model it was made from.
    """

    def __init__(self, model: Formulation) -> None:
        self.model = model
        self.args = model.make_data()

    @property
    def held(self) -> np.ndarray | None:
        """The run's held-coordinate flags (int64, n_q; a winch split or merge changes
        them), or None for a model without the second-order surface."""
        held = getattr(self.args, "held", None)
        if held is None:
            held = self.model.held
        return None if held is None else np.ascontiguousarray(held, dtype=np.int64)

    def _fields(self, names: tuple[str, ...], key: str) -> None:
        have = getattr(self.args, "_fields", ())
        if not all(n in have for n in names):
            raise ValueError(f"{key}: model {self.model.name or type(self.model).__name__} "
                             "takes no host schedule here")

    def end_motion(self, which: str) -> tuple[np.ndarray, np.ndarray]:
        """(breaks [s], coeffs) of the piecewise cubic an end (``"start"`` / ``"end"``)
        follows in this run (boundary.py's layout)."""
        names = _END_FIELDS[which]
        try:
            return getattr(self.args, names[0]), getattr(self.args, names[1])
        except AttributeError:
            self._fields(names, which)
            raise

    def set_end_motion(self, which: str, breaks: np.ndarray, coeffs: np.ndarray) -> None:
        """Make a held end follow (breaks [s], coeffs (k, 3, 4)) from now on in this run;
        the arrays are used as given (the caller may rewrite them in place later)."""
        names = _END_FIELDS[which]
        self._fields(names, which)
        self.args = self.args._replace(**{names[0]: breaks, names[1]: coeffs})

    def payout(self) -> tuple[np.ndarray, np.ndarray]:
        """(breaks [s], coeffs) of the winch's payout schedule in this run (winch.py)."""
        try:
            return self.args.wbreaks, self.args.wcoeffs
        except AttributeError:
            self._fields(("wbreaks", "wcoeffs"), "payout")
            raise

    def set_payout(self, breaks: np.ndarray, coeffs: np.ndarray) -> None:
        """Make the winch follow the payout schedule (breaks [s], coeffs (k, 3, 4); the
        deployed length [m] in coefficient row 0) from now on in this run."""
        self._fields(("wbreaks", "wcoeffs"), "payout")
        self.args = self.args._replace(wbreaks=breaks, wcoeffs=coeffs)

    @property
    def winch(self) -> np.ndarray:
        """The winch parameters (winch.py's W_* layout; read-only)."""
        self._fields(("winch",), "winch")
        return self.args.winch

    def save(self) -> dict[str, np.ndarray]:
        """Every array the run mutates (Formulation.run_arrays), keyed ``data.<field>``
        (copies)."""
        return {k: np.array(v, copy=True)
                for k, v in self.model.run_arrays(self.args).items()}

    def restore(self, arrays: dict[str, np.ndarray]) -> None:
        """Set the run's arrays from :meth:`save`'s: in place where the shape and type
        agree (arrays others hold, e.g. a workspace's held flags, stay valid); else a
        top-level field takes a copy (a winch split changed its size), and a nested one is
        an error (its size is fixed by the case)."""
        replace = {}
        for key, cur in self.model.run_arrays(self.args).items():
            if key not in arrays:
                continue
            new = arrays[key]
            if cur.shape == new.shape and cur.dtype == new.dtype:
                np.copyto(cur, new)
            elif key.count(".") == 1:
                replace[key[5:]] = np.ascontiguousarray(new, dtype=cur.dtype).copy()
            else:
                raise ValueError(f"restore: {key} was saved with shape {new.shape}, the "
                                 f"run has {cur.shape}: not this case's run")
        if replace:
            if hasattr(self.args, "_fields"):
                self.args = self.args._replace(**replace)
            else:
                args = list(self.args)
                for name, v in replace.items():
                    args[int(name)] = v
                self.args = tuple(args)


def _rk4_amplification(z: complex) -> float:
    return abs(1 + z + z**2 / 2 + z**3 / 6 + z**4 / 24)


def rk4_critical_step(omega: float, zeta: float) -> float:
    """Largest RK4 step [s] stable for the oscillator x'' + 2ζω x' + ω² x = 0.

    Found by bisection on the RK4 amplification factor |R(λ dt)| <= 1 for both roots λ.
    Undamped: dt = 2.828 / ω.
    """
    if omega <= 0:
        return math.inf
    disc = complex(zeta * zeta - 1.0) ** 0.5
    lams = (omega * (-zeta + disc), omega * (-zeta - disc))

    def stable(dt: float) -> bool:
        return all(_rk4_amplification(lam * dt) <= 1.0 + 1e-12 for lam in lams)

    hi = 2.8284271 / omega
    while stable(hi):  # heavily damped modes may allow more (real-axis limit 2.785 / |λ|)
        hi *= 2.0
    lo = 0.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if stable(mid):
            lo = mid
        else:
            hi = mid
    return lo


def uniform_elements(case: Case) -> tuple[np.ndarray, np.ndarray]:
    """``model.elements`` equal elements: unstretched lengths [m] and node arc lengths [m]."""
    N = case.model.elements
    L0 = np.full(N, case.tether.length / N)
    return L0, np.concatenate([[0.0], np.cumsum(L0)])


def lumped_nodes(case: Case) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Uniform elements with half of each element lumped on each of its nodes (seed 004
    eq. 2.15): unstretched element lengths [m], node arc lengths [m], node masses [kg] and
    node displaced volumes [m³]."""
    t = case.tether
    L0, arc_length = uniform_elements(case)
    node_mass = np.zeros(arc_length.size)
    node_volume = np.zeros(arc_length.size)
    for share, per_length in ((node_mass, t.linear_mass), (node_volume, t.displaced)):
        share[:-1] += 0.5 * per_length * L0
        share[1:] += 0.5 * per_length * L0
    return L0, arc_length, node_mass, node_volume
