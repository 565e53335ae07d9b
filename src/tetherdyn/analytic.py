"""Closed-form and semi-analytic reference solutions for tether/cable dynamics.

These functions are the "ground truth" that simulations are compared against in
the test suite and in the validation report.  They depend only on NumPy and
SciPy (nothing else from :mod:`tetherdyn`), so that a bug in the simulator can
never leak into its own reference.

Conventions (shared with the rest of the library)
-------------------------------------------------
* SI units throughout: metres, seconds, kilograms, newtons, radians.
* ``z`` is up; gravity of magnitude ``g > 0`` acts along ``-z``.
* The tether's (unstretched) arc length ``s`` runs from ``0`` at its "start"
  end to ``L`` at the other end.

Contents
--------
* :func:`hanging_chain_frequencies`, :func:`hanging_chain_period`,
  :func:`hanging_chain_mode_shape` -- small transverse oscillations of a
  uniform inextensible chain hanging from a fixed point (Daniel Bernoulli 1733,
  Euler; see e.g. Rayleigh, *The Theory of Sound*, Vol. 1, chapter on the
  transverse vibration of strings, or Irvine, *Cable Structures*, 1981).
* :func:`elastic_catenary` / :class:`CatenarySolution` -- the elastic catenary
  between two fixed supports (Irvine, *Cable Structures*, MIT Press 1981,
  Ch. 1, the elastic catenary with supports at different levels).
* :func:`terminal_velocity_cross_flow`, :func:`terminal_velocity_inclined` --
  steady sinking of a straight cable under Morison-type "cross-flow" (independence
  principle) drag (Morison et al. 1950; Hoerner, *Fluid-Dynamic Drag*, 1965;
  Blevins, *Applied Fluid Dynamics Handbook*, 1984).
* :func:`axial_natural_frequency_fixed_free` -- longitudinal vibration of a
  uniform fixed-free bar (Rayleigh, *The Theory of Sound*, longitudinal vibration
  of bars; Timoshenko, Young & Weaver, *Vibration Problems in Engineering*).
* :func:`vertical_line_through_surface` -- static tension of an elastic vertical line
  hanging through the water surface (Archimedes' principle per unit length, Hooke's law).
* :func:`seabed_catenary` / :class:`SeabedCatenary` -- the elastic catenary with a grounded
  part on a flat seabed, with Coulomb friction along it (Jonkman 2007, NREL/TP-500-41958,
  ch. 4, the quasi-static mooring line in contact with the seabed; the same equations are
  MAP++'s and MoorPy's documented catenary with seabed friction coefficient C_B).
* :func:`sliding_acceleration` -- a rigid line sliding down an inclined plane under
  Coulomb friction (Amontons-Coulomb; e.g. Meriam & Kraige, *Engineering Mechanics:
  Dynamics*, the block on an incline).
* :func:`tethered_balloon` -- the steady shape of a tether with its own weight and a
  balloon pulling at its top with a horizontal drag and a net lift (Irvine 1981, ch. 1:
  the elastic catenary whose end forces are given).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy import optimize, special

__all__ = [
    "CatenarySolution",
    "axial_natural_frequency_fixed_free",
    "elastic_catenary",
    "hanging_chain_frequencies",
    "hanging_chain_mode_shape",
    "hanging_chain_period",
    "SeabedCatenary",
    "SurfaceCrossingLine",
    "seabed_catenary",
    "sliding_acceleration",
    "terminal_velocity_cross_flow",
    "terminal_velocity_inclined",
    "tethered_balloon",
    "vertical_line_through_surface",
]

STANDARD_GRAVITY = 9.81
"""Default gravitational acceleration [m/s^2] used by the helpers below."""


def _require_positive(name: str, value: float) -> float:
    value = float(value)
    if not (value > 0.0) or math.isnan(value):
        raise ValueError(f"{name} must be > 0, got {value!r}")
    return value


def _require_positive_int(name: str, value: int) -> int:
    if int(value) != value or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


# ---------------------------------------------------------------------------
# 1-2. Hanging chain (Bernoulli / Euler)
# ---------------------------------------------------------------------------


def hanging_chain_frequencies(
    length: float, g: float = STANDARD_GRAVITY, n_modes: int = 5
) -> NDArray[np.float64]:
    """Angular frequencies of a uniform inextensible chain hanging from a fixed point.

    Small transverse (pendulum-like) oscillations of a chain of length ``L``
    whose top is fixed and whose lower end is free.  The tension is
    ``T(s) = rho * g * (L - s)`` and the lateral displacement ``u`` obeys
    ``d/ds(g (L - s) du/ds) = d^2u/dt^2``, whose regular solution is a Bessel
    function of order zero.  The fixed top gives

        omega_k = (j_{0,k} / 2) * sqrt(g / L),

    where ``j_{0,k}`` is the ``k``-th positive zero of ``J0``.  Result due to
    Daniel Bernoulli (1733) and Euler; see Rayleigh, *The Theory of Sound*,
    Vol. 1 (heavy chain).  Independent of the chain's mass per length.

    Parameters
    ----------
    length:
        Chain length ``L`` [m], > 0.
    g:
        Gravitational acceleration [m/s^2], > 0.
    n_modes:
        Number of modes to return (>= 1).

    Returns
    -------
    numpy.ndarray
        Shape ``(n_modes,)``, angular frequencies [rad/s], ascending.
    """
    length = _require_positive("length", length)
    g = _require_positive("g", g)
    n_modes = _require_positive_int("n_modes", n_modes)
    return 0.5 * special.jn_zeros(0, n_modes) * math.sqrt(g / length)


def hanging_chain_period(length: float, g: float = STANDARD_GRAVITY) -> float:
    """Period [s] of the fundamental mode of a hanging chain.

    ``2 pi / omega_1 = (4 pi / j_{0,1}) sqrt(L / g) ~= 5.2255 sqrt(L / g)``
    with ``j_{0,1} = 2.404826...`` (see :func:`hanging_chain_frequencies`).
    Equivalent to a simple pendulum of length ``(2 / j_{0,1})^2 L ~= 0.6917 L``.

    Parameters
    ----------
    length:
        Chain length ``L`` [m], > 0.
    g:
        Gravitational acceleration [m/s^2], > 0.
    """
    omega_1 = hanging_chain_frequencies(length, g, n_modes=1)[0]
    return float(2.0 * math.pi / omega_1)


def hanging_chain_mode_shape(s: ArrayLike, length: float, mode: int = 1) -> NDArray[np.float64]:
    """Lateral displacement shape of mode ``k`` of a hanging chain (dimensionless).

    ``u_k(s) = J0(j_{0,k} * sqrt((L - s) / L))`` with ``s`` the arc length from
    the fixed top (``s = 0``, where ``u = 0``) to the free bottom (``s = L``,
    where ``u = J0(0) = 1``), i.e. the shape is normalised to 1 at the free end.
    Mode ``k`` has ``k - 1`` interior nodes.  Source as for
    :func:`hanging_chain_frequencies` (Bernoulli / Euler; Rayleigh, *The Theory of Sound*).

    Parameters
    ----------
    s:
        Arc length(s) from the fixed top [m], each in ``[0, L]``.
    length:
        Chain length ``L`` [m], > 0.
    mode:
        Mode number ``k >= 1``.

    Returns
    -------
    numpy.ndarray
        ``u_k(s)`` with the same shape as ``s`` (dimensionless).
    """
    length = _require_positive("length", length)
    mode = _require_positive_int("mode", mode)
    s_arr = np.asarray(s, dtype=float)
    tol = 1e-12 * length
    if np.any(s_arr < -tol) or np.any(s_arr > length + tol):
        raise ValueError("s must lie in [0, length]")
    j0k = special.jn_zeros(0, mode)[-1]
    xi = np.sqrt(np.clip((length - s_arr) / length, 0.0, 1.0))
    return special.j0(j0k * xi)


# ---------------------------------------------------------------------------
# 3. Elastic catenary (Irvine)
# ---------------------------------------------------------------------------


def _catenary_xzt(
    s: ArrayLike, H: float, V_A: float, w: float, compliance: float
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Irvine's parametric elastic catenary: (x(s), z(s), T(s)) (see CatenarySolution)."""
    s_arr = np.asarray(s, dtype=float)
    v = w * s_arr - V_A
    tension = np.hypot(H, v)
    t_a = math.hypot(H, V_A)
    x = H * s_arr * compliance + (H / w) * (np.arcsinh(v / H) + math.asinh(V_A / H))
    # (T(s) - T_A) / w without cancellation: T(s)^2 - T_A^2 = w s (w s - 2 V_A).
    z = (0.5 * w * s_arr**2 - V_A * s_arr) * compliance + s_arr * (w * s_arr - 2.0 * V_A) / (
        tension + t_a
    )
    return x, z, tension


@dataclass(frozen=True, eq=False)
class CatenarySolution:
    """Equilibrium of an elastic catenary between two fixed supports.

    Support A is at ``(0, 0)``, support B at ``(span, height_difference)``;
    ``s`` is the unstretched arc length measured from A.  Forces in [N].

    With ``V(s) = w s - V_A`` the vertical component of the cable tension
    (positive when the cable rises with increasing ``s``) and
    ``T(s) = sqrt(H^2 + V(s)^2)``, Irvine's closed form (*Cable Structures*,
    1981, Ch. 1, written here with ``z`` up and ``s`` from A) is

        x(s) = H s / EA + (H / w) [asinh(V(s) / H) + asinh(V_A / H)]
        z(s) = (w s^2 / 2 - V_A s) / EA + (T(s) - T_A) / w

    Attributes
    ----------
    span, height_difference, length, weight_per_length, EA:
        The inputs (see :func:`elastic_catenary`).
    H:
        Horizontal component of tension [N] (constant along the cable), > 0.
    V_A, V_B:
        Upward vertical reactions of the supports on the cable [N];
        ``V_A + V_B = w L`` (total weight).  A negative value means the
        support pulls the cable down (the cable leaves the support upwards).
    tension_A, tension_B:
        Cable tension at A and B [N].
    s_nodes, x_nodes, z_nodes, tension_nodes:
        ``n_points`` equally spaced samples in unstretched arc length and the
        corresponding coordinates [m] and tension [N].
    """

    span: float
    height_difference: float
    length: float
    weight_per_length: float
    EA: float
    H: float
    V_A: float
    V_B: float
    tension_A: float
    tension_B: float
    s_nodes: NDArray[np.float64] = field(repr=False)
    x_nodes: NDArray[np.float64] = field(repr=False)
    z_nodes: NDArray[np.float64] = field(repr=False)
    tension_nodes: NDArray[np.float64] = field(repr=False)

    @property
    def compliance(self) -> float:
        """``1 / EA`` [1/N]; zero for an inextensible cable."""
        return 0.0 if math.isinf(self.EA) else 1.0 / self.EA

    def vertical_tension(self, s: ArrayLike) -> NDArray[np.float64]:
        """Vertical component of tension ``V(s) = w s - V_A`` [N] (positive: cable rises)."""
        return self.weight_per_length * np.asarray(s, dtype=float) - self.V_A

    def tension(self, s: ArrayLike) -> NDArray[np.float64]:
        """Cable tension ``T(s) = sqrt(H^2 + V(s)^2)`` [N] at unstretched arc length ``s``."""
        return np.hypot(self.H, self.vertical_tension(s))

    def x(self, s: ArrayLike) -> NDArray[np.float64]:
        """Horizontal coordinate [m] of the material point at unstretched arc length ``s``."""
        return _catenary_xzt(s, self.H, self.V_A, self.weight_per_length, self.compliance)[0]

    def z(self, s: ArrayLike) -> NDArray[np.float64]:
        """Vertical coordinate [m] (up) of the material point at unstretched arc length ``s``."""
        return _catenary_xzt(s, self.H, self.V_A, self.weight_per_length, self.compliance)[1]

    @property
    def stretched_length(self) -> float:
        """Stretched (arc) length [m]: ``L + (1/EA) * integral_0^L T(s) ds``."""
        if self.compliance == 0.0:
            return self.length
        H, w = self.H, self.weight_per_length

        def primitive(v: float) -> float:  # integral of sqrt(H^2 + v^2) dv
            return 0.5 * (v * math.hypot(H, v) + H * H * math.asinh(v / H))

        integral_t = (primitive(self.V_B) - primitive(-self.V_A)) / w
        return self.length + integral_t * self.compliance

    def _s_at_x(self, x_target: float) -> float:
        # x(s) is strictly increasing (dx/ds = H/EA + H/T > 0).
        if x_target <= 0.0:
            return 0.0
        if x_target >= self.span:
            return self.length
        return float(
            optimize.brentq(
                lambda s: float(self.x(s)) - x_target,
                0.0,
                self.length,
                xtol=1e-14 * self.length,
                rtol=4 * np.finfo(float).eps,
            )
        )

    def z_at_x(self, x: float) -> float:
        """Height [m] of the cable at horizontal position ``x`` in ``[0, span]``."""
        return float(self.z(self._s_at_x(float(x))))

    def sag_at_midspan(self) -> float:
        """Vertical distance [m] from the chord AB down to the cable at ``x = span / 2``.

        Positive when the cable is below the chord (the usual case).
        """
        return 0.5 * self.height_difference - self.z_at_x(0.5 * self.span)

    def lowest_point(self) -> tuple[float, float, float]:
        """Lowest point of the cable as ``(s, x, z)`` [m].

        Interior (where ``V(s) = 0``, i.e. ``s = V_A / w``) when both reactions
        are positive, otherwise the lower support.
        """
        s_low = min(max(self.V_A / self.weight_per_length, 0.0), self.length)
        return float(s_low), float(self.x(s_low)), float(self.z(s_low))


def _catenary_residual(
    p: NDArray[np.float64],
    span: float,
    h: float,
    length: float,
    w: float,
    compliance: float,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Scaled end-point mismatch and its Jacobian.

    Unknowns ``p = (log(H / (w L)), V_A / (w L))``; residuals are
    ``((x(L) - span) / L, (z(L) - h) / L)``.
    """
    wl = w * length
    H = wl * math.exp(p[0])
    va = wl * p[1]
    vb = wl - va
    ta = math.hypot(H, va)
    tb = math.hypot(H, vb)
    ash = math.asinh(vb / H) + math.asinh(va / H)
    x_end = H * length * compliance + (H / w) * ash
    # (T_B - T_A) / w = L (w L - 2 V_A) / (T_A + T_B), cancellation-free.
    z_end = (0.5 * w * length**2 - va * length) * compliance + length * (wl - 2 * va) / (ta + tb)
    res = np.array([(x_end - span) / length, (z_end - h) / length])

    dx_dh = length * compliance + ash / w - (vb / tb + va / ta) / w
    dx_dva = (H / ta - H / tb) / w
    dz_dh = (H / tb - H / ta) / w
    dz_dva = -length * compliance - (vb / tb + va / ta) / w
    jac = np.array(
        [
            [H * dx_dh / length, wl * dx_dva / length],
            [H * dz_dh / length, wl * dz_dva / length],
        ]
    )
    return res, jac


def _log_sinhc(u: float) -> float:
    """``log(sinh(u) / u)`` for ``u > 0`` without overflow or cancellation."""
    if u < 1e-3:
        u2 = u * u
        return u2 / 6.0 - u2 * u2 / 180.0
    if u < 20.0:
        return math.log(math.sinh(u) / u)
    return u - math.log(2.0 * u) + math.log1p(-math.exp(-2.0 * u))


def _inextensible_catenary(span: float, h: float, length: float, w: float) -> tuple[float, float]:
    """``(H, V_A)`` of the classic (inextensible) catenary; requires ``L > chord``.

    With ``a = H / w`` and ``u = span / (2 a)`` the length condition reads
    ``sinh(u) / u = sqrt(L^2 - h^2) / span`` (e.g. Irvine 1981, Ch. 1),
    solved here by bracketing.  The vertex abscissa then follows from
    ``h = sqrt(L^2 - h^2) sinh(u - x0 / a)``.
    """
    log_r = 0.5 * math.log((length - h) * (length + h)) - math.log(span)
    u_hi = 1.0
    while _log_sinhc(u_hi) < log_r:
        u_hi *= 2.0
    u = optimize.brentq(
        lambda v: _log_sinhc(v) - log_r, 0.0, u_hi, xtol=1e-300, rtol=4 * np.finfo(float).eps
    )
    a = span / (2.0 * u)
    m = math.asinh(h / math.sqrt((length - h) * (length + h)))
    H = w * a
    V_A = H * math.sinh(u - m)
    return H, V_A


def elastic_catenary(
    span: float,
    height_difference: float,
    length: float,
    weight_per_length: float,
    EA: float = math.inf,
    n_points: int = 201,
) -> CatenarySolution:
    """Static equilibrium of an elastic catenary hanging between two fixed supports.

    Support A is at ``(x, z) = (0, 0)`` and support B at
    ``(span, height_difference)``.  The cable has unstretched length ``L``,
    weight ``w`` per unit *unstretched* length acting along ``-z`` and axial
    stiffness ``EA`` (Hooke's law ``ds_stretched = (1 + T / EA) ds``).

    The horizontal tension ``H`` and the vertical reaction ``V_A`` are found by
    solving the two end-point conditions ``x(L) = span``, ``z(L) =
    height_difference`` of Irvine's closed-form parametric solution
    (Irvine, *Cable Structures*, MIT Press 1981, Ch. 1; the same equations
    underlie the quasi-static mooring-line models of FAST/MAP++ and MoorDyn's
    catenary initialisation).  Initial guesses come from the
    classic inextensible catenary (slack case), from a straight-bar estimate
    (taut case) and from Peyrot & Goulois (1979) ``lambda_0``; Newton-type
    iteration on ``(log H, V_A)`` with an analytic Jacobian then converges to
    machine precision.

    Parameters
    ----------
    span:
        Horizontal distance between the supports [m], > 0.
    height_difference:
        Height of B above A [m] (negative if B is lower).
    length:
        Unstretched cable length ``L`` [m], > 0.
    weight_per_length:
        Weight per unit unstretched length ``w`` [N/m], > 0 (use the submerged
        weight, i.e. minus buoyancy, for a cable in water).
    EA:
        Axial stiffness [N], > 0; ``math.inf`` (default) for an inextensible
        cable, which then requires ``L`` to exceed the chord length.
    n_points:
        Number of equally spaced samples in ``s`` stored on the result (>= 2).

    Returns
    -------
    CatenarySolution

    Raises
    ------
    ValueError
        For invalid input, an inextensible cable not longer than the chord, or
        if the solver fails to converge.
    """
    span = _require_positive("span", span)
    h = float(height_difference)
    length = _require_positive("length", length)
    w = _require_positive("weight_per_length", weight_per_length)
    EA = _require_positive("EA", EA)
    n_points = int(n_points)
    if n_points < 2:
        raise ValueError(f"n_points must be >= 2, got {n_points}")
    if not math.isfinite(h):
        raise ValueError("height_difference must be finite")
    compliance = 0.0 if math.isinf(EA) else 1.0 / EA
    chord = math.hypot(span, h)
    wl = w * length

    guesses: list[tuple[float, float]] = []
    if length > chord * (1.0 + 1e-12):
        guesses.append(_inextensible_catenary(span, h, length, w))
    elif compliance == 0.0:
        raise ValueError(
            f"an inextensible cable (EA = inf) of length {length} cannot span a chord of "
            f"{chord}; it must be strictly longer than the chord"
        )
    if compliance > 0.0:
        # Straight bar carrying the strain needed to reach the chord (taut estimate).
        t0 = max(EA * (chord / length - 1.0), 0.0) + 0.5 * wl
        guesses.append((t0 * span / chord, 0.5 * wl - t0 * h / chord))
    # Peyrot & Goulois (1979) / Jonkman (2007) starting values.
    if length**2 > chord**2:
        lam = math.sqrt(max(3.0 * ((length**2 - h**2) / span**2 - 1.0), 1e-12))
    else:
        lam = 0.2
    lam = min(lam, 1e6)
    guesses.append((abs(w * span / (2.0 * lam)), 0.5 * w * (length - h / math.tanh(lam))))

    tol = 1e-12
    best: tuple[float, NDArray[np.float64]] | None = None
    for H0, va0 in guesses:
        p0 = np.array([math.log(max(H0, 1e-12 * wl) / wl), va0 / wl])
        for method in ("hybr", "lm"):
            sol = optimize.root(
                _catenary_residual,
                p0,
                args=(span, h, length, w, compliance),
                jac=True,
                method=method,
                options={"xtol": 1e-15} if method == "hybr" else {"xtol": 1e-15, "ftol": 1e-15},
            )
            if not np.all(np.isfinite(sol.x)):
                continue
            res = _catenary_residual(sol.x, span, h, length, w, compliance)[0]
            err = float(np.max(np.abs(res)))
            if best is None or err < best[0]:
                best = (err, sol.x)
            if err < tol:
                break
        if best is not None and best[0] < tol:
            break
    if best is None or not best[0] < 1e-9:
        raise ValueError(
            "elastic catenary solver did not converge "
            f"(span={span}, height_difference={h}, length={length}, w={w}, EA={EA})"
        )

    p = best[1]
    H = wl * math.exp(p[0])
    V_A = wl * p[1]
    V_B = wl - V_A
    s_nodes = np.linspace(0.0, length, n_points)
    x_nodes, z_nodes, t_nodes = _catenary_xzt(s_nodes, H, V_A, w, compliance)
    return CatenarySolution(
        span=span,
        height_difference=h,
        length=length,
        weight_per_length=w,
        EA=EA,
        H=H,
        V_A=V_A,
        V_B=V_B,
        tension_A=math.hypot(H, V_A),
        tension_B=math.hypot(H, V_B),
        s_nodes=s_nodes,
        x_nodes=x_nodes,
        z_nodes=z_nodes,
        tension_nodes=t_nodes,
    )


# ---------------------------------------------------------------------------
# 4. Terminal velocity of a straight cable (cross-flow / independence principle)
# ---------------------------------------------------------------------------


def _net_weight_per_length(
    diameter: float,
    mass_per_length: float,
    fluid_density: float,
    g: float,
    displaced_area: float | None,
) -> float:
    area = 0.25 * math.pi * diameter**2 if displaced_area is None else float(displaced_area)
    if area < 0.0:
        raise ValueError(f"displaced_area must be >= 0, got {area!r}")
    return (mass_per_length - fluid_density * area) * g


def terminal_velocity_cross_flow(
    diameter: float,
    mass_per_length: float,
    cd: float,
    fluid_density: float,
    g: float = STANDARD_GRAVITY,
    displaced_area: float | None = None,
) -> float:
    """Terminal speed [m/s] of a straight horizontal cable falling broadside.

    Force balance per unit length between the normal (cross-flow) drag
    ``1/2 rho c_d d v^2`` (Morison-type drag on a cylinder in cross flow, e.g.
    Hoerner, *Fluid-Dynamic Drag*, 1965) and the net weight
    ``w_net = (m' - rho A_disp) g``:

        v = sqrt(2 w_net / (rho c_d d)).

    Parameters
    ----------
    diameter:
        Hydrodynamic diameter ``d`` [m], > 0.
    mass_per_length:
        Mass per unit length ``m'`` [kg/m], >= 0.
    cd:
        Normal drag coefficient [-], > 0.
    fluid_density:
        ``rho`` [kg/m^3], > 0.
    g:
        Gravitational acceleration [m/s^2], > 0.
    displaced_area:
        Displaced cross-section area [m^2] used for buoyancy; defaults to
        ``pi d^2 / 4``.

    Returns
    -------
    float
        Signed sinking speed [m/s]: positive when the cable sinks (velocity
        ``(0, -v)``), negative when it is buoyant and rises.
    """
    diameter = _require_positive("diameter", diameter)
    cd = _require_positive("cd", cd)
    rho = _require_positive("fluid_density", fluid_density)
    g = _require_positive("g", g)
    if mass_per_length < 0.0:
        raise ValueError(f"mass_per_length must be >= 0, got {mass_per_length!r}")
    w_net = _net_weight_per_length(diameter, mass_per_length, rho, g, displaced_area)
    return math.copysign(math.sqrt(2.0 * abs(w_net) / (rho * cd * diameter)), w_net)


def terminal_velocity_inclined(
    diameter: float,
    mass_per_length: float,
    cd_normal: float,
    cd_tangential: float,
    fluid_density: float,
    inclination: float,
    g: float = STANDARD_GRAVITY,
    displaced_area: float | None = None,
) -> NDArray[np.float64]:
    """Steady velocity ``(v_x, v_z)`` [m/s] of a straight cable inclined at ``beta``.

    The cable's unit tangent is ``t = (cos beta, 0, sin beta)`` and its
    in-plane normal ``n = (-sin beta, 0, cos beta)``.  With the "cross-flow"
    (independence-principle) drag law, the relative velocity ``u = u_t t + u_n n``
    produces the drag per unit length

        f = -1/2 rho c_dn d |u_n| u_n n - 1/2 rho c_dt pi d |u_t| u_t t,

    (normal drag on the projected diameter, skin friction on the wetted
    perimeter ``pi d``; e.g. Hoerner 1965; Blevins 1984; the
    tangential convention of OrcaFlex/MoorDyn).  Balancing ``f`` against the
    net weight ``-w_net e_z`` projects onto ``t`` and ``n`` independently:

        u_t = -sgn(w_net sin beta) sqrt(2 |w_net sin beta| / (rho c_dt pi d))
        u_n = -sgn(w_net cos beta) sqrt(2 |w_net cos beta| / (rho c_dn d))

    so the velocity is in general not vertical: the cable glides towards its
    lower end.  (Because the law is separable in ``u_t`` and ``u_n`` no
    iterative solve is needed; the test suite checks the force balance with
    :func:`scipy.optimize.fsolve`.)

    Parameters
    ----------
    diameter, mass_per_length, fluid_density, g, displaced_area:
        As in :func:`terminal_velocity_cross_flow`.
    cd_normal:
        Normal drag coefficient ``c_dn`` [-], >= 0.
    cd_tangential:
        Tangential (skin-friction) drag coefficient ``c_dt`` [-], >= 0.
    inclination:
        Angle ``beta`` [rad] of the tangent above the horizontal.

    Returns
    -------
    numpy.ndarray
        ``[v_x, v_z]`` [m/s] in the plane spanned by ``t`` and ``e_z``.

    Raises
    ------
    ValueError
        If a drag coefficient is zero while the corresponding weight component
        is not (the cable would accelerate forever in that direction: no
        steady state exists).
    """
    diameter = _require_positive("diameter", diameter)
    rho = _require_positive("fluid_density", fluid_density)
    g = _require_positive("g", g)
    if mass_per_length < 0.0:
        raise ValueError(f"mass_per_length must be >= 0, got {mass_per_length!r}")
    if cd_normal < 0.0 or cd_tangential < 0.0:
        raise ValueError("drag coefficients must be >= 0")
    beta = float(inclination)
    w_net = _net_weight_per_length(diameter, mass_per_length, rho, g, displaced_area)
    sin_b, cos_b = math.sin(beta), math.cos(beta)
    # Snap round-off (e.g. cos(pi/2) = 6e-17) so exact axis cases behave exactly.
    if abs(sin_b) < 1e-15:
        sin_b = 0.0
    if abs(cos_b) < 1e-15:
        cos_b = 0.0
    w_t = w_net * sin_b  # weight component along -t
    w_n = w_net * cos_b  # weight component along -n

    def component(w_comp: float, coeff: float, width: float, name: str) -> float:
        if w_comp == 0.0:
            return 0.0
        if coeff == 0.0:
            raise ValueError(
                f"{name} drag coefficient is zero but the weight has a component "
                f"{w_comp:.6g} N/m along that direction: the cable would slide without "
                "limit, so no terminal velocity exists"
            )
        return -math.copysign(math.sqrt(2.0 * abs(w_comp) / (rho * coeff * width)), w_comp)

    u_t = component(w_t, cd_tangential, math.pi * diameter, "tangential")
    u_n = component(w_n, cd_normal, diameter, "normal")
    return np.array([u_t * cos_b - u_n * sin_b, u_t * sin_b + u_n * cos_b])


# ---------------------------------------------------------------------------
# 5. Axial (longitudinal) vibration of a fixed-free bar
# ---------------------------------------------------------------------------


def axial_natural_frequency_fixed_free(
    length: float, EA: float, mass_per_length: float, mode: int = 1
) -> float:
    """Longitudinal natural angular frequency [rad/s] of a uniform fixed-free bar.

    The axial displacement obeys ``m' u_tt = EA u_ss`` with ``u(0) = 0`` and
    ``u_s(L) = 0``, giving ``u_k = sin((2k - 1) pi s / (2L))`` and

        omega_k = ((2k - 1) pi / 2) sqrt(EA / (m' L^2)),

    (Rayleigh, *The Theory of Sound*; Timoshenko, Young & Weaver,
    *Vibration Problems in Engineering*).  The fundamental is
    ``(pi / 2) sqrt(EA / (m' L^2))``.

    Parameters
    ----------
    length:
        Bar length ``L`` [m], > 0.
    EA:
        Axial stiffness [N], > 0.
    mass_per_length:
        ``m'`` [kg/m], > 0.
    mode:
        Mode number ``k >= 1`` (default 1, the fundamental).
    """
    length = _require_positive("length", length)
    EA = _require_positive("EA", EA)
    m = _require_positive("mass_per_length", mass_per_length)
    mode = _require_positive_int("mode", mode)
    return (2 * mode - 1) * 0.5 * math.pi * math.sqrt(EA / (m * length**2))


# ---------------------------------------------------------------------------
# 6. The sea: a vertical line through the surface, a catenary on the seabed,
#    sliding on a slope, a tethered balloon in wind
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SurfaceCrossingLine:
    """Static state of a vertical line hanging through the water surface.

    Lengths are unstretched [m]; ``top_tension`` [N] is the force of the line on its top
    support; ``bottom_z`` [m] the (stretched) height of the lower end.
    """

    top_tension: float
    dry_length: float
    wet_length: float
    bottom_z: float


def vertical_line_through_surface(
    length: float,
    top_z: float,
    water_level: float,
    mass_per_length: float,
    displaced_area: float,
    water_density: float,
    air_density: float = 0.0,
    EA: float = math.inf,
    end_mass: float = 0.0,
    g: float = STANDARD_GRAVITY,
) -> SurfaceCrossingLine:
    """Top tension of an elastic line hanging straight down from ``top_z`` through the
    calm water surface at ``water_level``.

    Each metre weighs ``w_a = (m' - rho_a A) g`` in air and ``w_w = (m' - rho_w A) g`` in
    water (Archimedes' principle per unit length; ``A`` the displaced area). With ``s``
    the unstretched arc length from the top and ``s_w`` the material point at the surface,
    the tension is the weight of everything below,

        T(s) = P + w_w (L - s_w) + w_a (s_w - s)  (s < s_w),   T(s) = P + w_w (L - s)  (s >= s_w),

    with ``P = end_mass g`` (a point mass without volume), and Hooke's law
    ``dz/ds = -(1 + T / EA)`` places the surface: ``top_z - water_level = s_w +
    (1/EA) integral_0^{s_w} T ds`` (a quadratic in ``s_w``, solved by bracketing). The
    top tension is ``T(0) = P + w_a s_w + w_w (L - s_w)``: the weight in air of the part
    above plus the weight in water of the part below.

    Parameters
    ----------
    length: unstretched length ``L`` [m] > 0. top_z, water_level: heights [m].
    mass_per_length: ``m'`` [kg/m]. displaced_area: ``A`` [m^2] >= 0.
    water_density, air_density: [kg/m^3] >= 0. EA: axial stiffness [N] (inf: rigid).
    end_mass: point mass at the lower end [kg]. g: [m/s^2].
    """
    length = _require_positive("length", length)
    g = _require_positive("g", g)
    EA = _require_positive("EA", EA)
    if displaced_area < 0.0 or water_density < 0.0 or air_density < 0.0:
        raise ValueError("displaced_area, water_density and air_density must be >= 0")
    c = 0.0 if math.isinf(EA) else 1.0 / EA
    w_a = (mass_per_length - air_density * displaced_area) * g
    w_w = (mass_per_length - water_density * displaced_area) * g
    p = end_mass * g
    d = float(top_z) - float(water_level)

    def depth_of_surface(s_w: float) -> float:  # top_z - z(s_w) as a function of s_w
        return s_w + c * ((p + w_w * length) * s_w - w_w * s_w**2 + 0.5 * w_a * s_w**2)

    if d <= 0.0:
        s_w = 0.0
    elif depth_of_surface(length) <= d:
        s_w = length
    else:
        s_w = optimize.brentq(lambda s: depth_of_surface(s) - d, 0.0, length,
                              xtol=1e-15 * length, rtol=4 * np.finfo(float).eps)
    top = p + w_a * s_w + w_w * (length - s_w)
    # integral of T over the whole line: dry part (linear) plus wet part (linear)
    t_w = p + w_w * (length - s_w)  # tension at the surface
    integral = 0.5 * (top + t_w) * s_w + 0.5 * (t_w + p) * (length - s_w)
    return SurfaceCrossingLine(top_tension=float(top), dry_length=float(s_w),
                               wet_length=float(length - s_w),
                               bottom_z=float(top_z - length - c * integral))


@dataclass(frozen=True, eq=False)
class SeabedCatenary:
    """Static equilibrium of an elastic line from an anchor on a flat seabed to a fairlead,
    part of it lying on the seabed (see :func:`seabed_catenary`).

    Anchor at ``(0, 0)``, fairlead at ``(span, height)`` above it; ``s`` is the unstretched
    arc length from the anchor. Forces [N], lengths [m].

    Attributes
    ----------
    H: horizontal tension of the suspended part (= the tension at the touchdown point).
    V_F: vertical tension at the fairlead (= weight of the suspended part, ``w L_s``).
    fairlead_tension: ``hypot(H, V_F)``.
    grounded_length: unstretched length ``L_B`` lying on the seabed.
    touchdown_x: horizontal distance anchor -> touchdown point (stretched).
    anchor_tension: ``max(H - mu w L_B, 0)``.
    """

    span: float
    height: float
    length: float
    weight_per_length: float
    EA: float
    friction: float
    H: float
    V_F: float
    fairlead_tension: float
    grounded_length: float
    touchdown_x: float
    anchor_tension: float

    @property
    def _c(self) -> float:
        return 0.0 if math.isinf(self.EA) else 1.0 / self.EA

    @property
    def _tension_start(self) -> float:
        """Unstretched arc length where the grounded part starts to carry tension [m]."""
        mu_w = self.friction * self.weight_per_length
        if mu_w == 0.0:
            return 0.0
        return max(self.grounded_length - self.H / mu_w, 0.0)

    def tension(self, s: ArrayLike) -> NDArray[np.float64]:
        """Tension [N] at unstretched arc length ``s`` from the anchor."""
        s = np.asarray(s, dtype=float)
        w, lb = self.weight_per_length, self.grounded_length
        grounded = np.maximum(self.H - self.friction * w * (lb - s), 0.0)
        suspended = np.hypot(self.H, w * (s - lb))
        return np.where(s <= lb, grounded, suspended)

    def x(self, s: ArrayLike) -> NDArray[np.float64]:
        """Horizontal position [m] of the material point ``s`` (from the anchor)."""
        s = np.asarray(s, dtype=float)
        H, w, lb, c = self.H, self.weight_per_length, self.grounded_length, self._c
        s0 = self._tension_start
        sg = np.clip(s, s0, lb)  # grounded tension integral, zero before s0
        stretch = H * (sg - s0) - 0.5 * self.friction * w * ((lb - s0) ** 2 - (lb - sg) ** 2)
        xg = np.minimum(s, lb) + c * stretch
        sig = np.maximum(s - lb, 0.0)
        return xg + (H / w) * np.arcsinh(w * sig / H) + c * H * sig

    def z(self, s: ArrayLike) -> NDArray[np.float64]:
        """Height [m] above the seabed of the material point ``s``."""
        s = np.asarray(s, dtype=float)
        H, w, c = self.H, self.weight_per_length, self._c
        sig = np.maximum(s - self.grounded_length, 0.0)
        return (H / w) * (np.hypot(1.0, w * sig / H) - 1.0) + 0.5 * c * w * sig**2


def _seabed_span_height(H: float, V_F: float, length: float, w: float, c: float,
                        mu: float) -> tuple[float, float]:
    """Fairlead position (x, z) above the anchor for given H and V_F (Jonkman 2007, ch. 4)."""
    lb = length - V_F / w
    mu_w = mu * w
    if mu_w == 0.0 or H >= mu_w * lb:
        grounded_integral = H * lb - 0.5 * mu_w * lb**2
    else:  # only the last H / (mu w) next to the touchdown carries tension
        grounded_integral = H * H / (2.0 * mu_w)
    x = lb + c * grounded_integral + (H / w) * math.asinh(V_F / H) + c * H * (V_F / w)
    z = (H / w) * (math.hypot(1.0, V_F / H) - 1.0) + c * V_F**2 / (2.0 * w)
    return x, z


def seabed_catenary(
    span: float,
    height: float,
    length: float,
    weight_per_length: float,
    EA: float = math.inf,
    friction: float = 0.0,
) -> SeabedCatenary:
    """Elastic catenary resting partly on a flat seabed, with Coulomb friction along it.

    The anchor lies on the seabed at ``(0, 0)``, the fairlead at ``(span, height)``. The
    suspended length ``L_s = V_F / w`` leaves the seabed horizontally at the touchdown
    point with tension ``H``; the grounded length ``L_B = L - V_F / w`` lies straight
    along the seabed. Friction fully mobilised along the grounded part against a pull
    from the fairlead (the line was loaded from a tension-free lay) gives the tension
    ``T = max(H - mu w sigma, 0)`` at the unstretched distance ``sigma`` from the
    touchdown, so the anchor carries ``T_a = max(H - mu w L_B, 0)`` and the grounded
    part's axial force drops by ``mu w L_B`` where that is positive. With ``c = 1/EA``
    (Jonkman 2007, NREL/TP-500-41958, ch. 4, the seabed case with friction coefficient
    ``C_B``; written here from the equilibrium of the two parts):

        span   = L_B + c I_B + (H / w) asinh(V_F / H) + c H L_s,
        height = (H / w) (sqrt(1 + (V_F / H)^2) - 1) + c V_F^2 / (2 w),

    ``I_B = H L_B - mu w L_B^2 / 2`` when ``H >= mu w L_B``, else ``H^2 / (2 mu w)``.
    Solved for ``(H, V_F)`` by Newton from the inextensible frictionless closed form
    (``L_s = sqrt(h^2 + 2 a h)``, ``span = L - L_s + a acosh(1 + h / a)``, ``a = H / w``).

    Parameters
    ----------
    span: horizontal anchor-fairlead distance [m] > 0. height: fairlead above seabed [m] > 0.
    length: unstretched length [m]. weight_per_length: wet weight ``w`` [N/m] > 0.
    EA: axial stiffness [N] (inf: inextensible). friction: Coulomb coefficient ``mu`` >= 0
    along the line.

    Raises
    ------
    ValueError
        When no part of the line rests on the seabed (use :func:`elastic_catenary`), or the
        line is too short to reach the fairlead.
    """
    span = _require_positive("span", span)
    h = _require_positive("height", height)
    length = _require_positive("length", length)
    w = _require_positive("weight_per_length", weight_per_length)
    EA = _require_positive("EA", EA)
    mu = float(friction)
    if mu < 0.0 or math.isnan(mu):
        raise ValueError(f"friction must be >= 0, got {friction!r}")
    c = 0.0 if math.isinf(EA) else 1.0 / EA
    wl = w * length
    a_max = (length**2 - h**2) / (2.0 * h)  # the whole line suspended, horizontal at anchor
    if a_max <= 0.0 and c == 0.0:
        raise ValueError("the line is shorter than the fairlead's height above the seabed")

    def rigid(a: float) -> float:
        return length - math.sqrt(h * h + 2.0 * a * h) + a * math.acosh(1.0 + h / a) - span

    if a_max > 0.0 and rigid(1e-12 * length) < 0.0 < rigid(a_max):
        a = optimize.brentq(rigid, 1e-12 * length, a_max, xtol=1e-14 * length)
        guess = (w * a, w * math.sqrt(h * h + 2.0 * a * h))
    elif c == 0.0:
        raise ValueError("no grounded part or too short a line for this span and height: "
                         "use elastic_catenary")
    else:  # stretch lets an elastic line reach further than the rigid one
        guess = (w * max(a_max, h), 0.9 * wl)

    def residual(p: NDArray[np.float64]) -> NDArray[np.float64]:
        H, V_F = wl * math.exp(p[0]), wl * p[1]
        x, z = _seabed_span_height(H, V_F, length, w, c, mu)
        return np.array([(x - span) / length, (z - h) / length])

    p0 = np.array([math.log(guess[0] / wl), guess[1] / wl])
    sol = optimize.root(residual, p0, method="hybr", options={"xtol": 1e-15})
    err = float(np.max(np.abs(residual(sol.x))))
    H, V_F = wl * math.exp(sol.x[0]), wl * sol.x[1]
    if not err < 1e-10 or not 0.0 < V_F < wl:
        raise ValueError(f"seabed catenary: no solution with a grounded part (span={span}, "
                         f"height={h}, length={length}, w={w}, EA={EA}, friction={mu})")
    lb = length - V_F / w
    mu_w = mu * w
    grounded_integral = (H * lb - 0.5 * mu_w * lb**2 if mu_w == 0.0 or H >= mu_w * lb
                         else H * H / (2.0 * mu_w))
    return SeabedCatenary(span=span, height=h, length=length, weight_per_length=w, EA=EA,
                          friction=mu, H=float(H), V_F=float(V_F),
                          fairlead_tension=float(math.hypot(H, V_F)),
                          grounded_length=float(lb), touchdown_x=float(lb + c * grounded_integral),
                          anchor_tension=float(max(H - mu_w * lb, 0.0)))


def sliding_acceleration(slope: float, friction: float, weight_per_length: float,
                         mass_per_length: float) -> float:
    """Acceleration [m/s^2] down an inclined plane of a straight line lying along the fall
    line, under Coulomb friction (Amontons-Coulomb law; the block on an incline, e.g.
    Meriam & Kraige, *Engineering Mechanics: Dynamics*):

        a = (w / m) (sin(theta) - mu cos(theta))   when tan(theta) > mu, else 0 (it sticks),

    ``w`` the weight per length that presses it on the plane (wet weight in water) [N/m],
    ``m`` the mass per length it accelerates (plus any added mass along its axis) [kg/m],
    ``theta`` = ``slope`` [rad] >= 0, ``mu`` = ``friction`` >= 0.
    """
    theta = float(slope)
    if not 0.0 <= theta < 0.5 * math.pi:
        raise ValueError(f"slope must be in [0, pi/2) rad, got {slope!r}")
    if friction < 0.0:
        raise ValueError(f"friction must be >= 0, got {friction!r}")
    w = _require_positive("weight_per_length", weight_per_length)
    m = _require_positive("mass_per_length", mass_per_length)
    if math.tan(theta) <= friction:
        return 0.0
    return (w / m) * (math.sin(theta) - friction * math.cos(theta))


def tethered_balloon(
    length: float,
    weight_per_length: float,
    drag: float,
    net_lift: float,
    EA: float = math.inf,
    n_points: int = 201,
) -> CatenarySolution:
    """Steady shape of a balloon's tether in a uniform wind (Irvine 1981, ch. 1).

    The tether (weight ``w`` per unstretched metre, no drag of its own) is anchored at
    ``(0, 0)``; the balloon pulls its top end with the horizontal drag ``D`` (downwind,
    +x) and the net lift ``B`` (its buoyancy minus its own weight, up). The horizontal
    tension is ``H = D`` all along and the vertical one ``V(s) = B - w (L - s)``: the
    elastic catenary of :class:`CatenarySolution` with ``V_A = w L - B`` (negative: the
    anchor pulls the tether down), whose far end is where the balloon settles,
    ``(span, height_difference)``. Needs ``B > w L`` (else part of the tether lies on the
    ground) and ``D > 0``.

    Parameters
    ----------
    length: unstretched tether length [m]. weight_per_length: ``w`` [N/m] (in air: minus
    the air's buoyancy). drag: ``D`` [N] > 0. net_lift: ``B`` [N]. EA: [N] (inf: rigid).
    n_points: samples stored on the result (>= 2).
    """
    length = _require_positive("length", length)
    w = _require_positive("weight_per_length", weight_per_length)
    H = _require_positive("drag", drag)
    EA = _require_positive("EA", EA)
    if not net_lift > w * length:
        raise ValueError(f"net_lift {net_lift!r} N must exceed the tether's weight "
                         f"{w * length!r} N (else it rests on the ground)")
    compliance = 0.0 if math.isinf(EA) else 1.0 / EA
    v_a = w * length - float(net_lift)
    s_nodes = np.linspace(0.0, length, int(n_points))
    x_nodes, z_nodes, t_nodes = _catenary_xzt(s_nodes, H, v_a, w, compliance)
    x_end, z_end, _ = _catenary_xzt(np.array([length]), H, v_a, w, compliance)
    return CatenarySolution(
        span=float(x_end[0]), height_difference=float(z_end[0]), length=length,
        weight_per_length=w, EA=EA, H=H, V_A=v_a, V_B=float(net_lift),
        tension_A=math.hypot(H, v_a), tension_B=math.hypot(H, float(net_lift)),
        s_nodes=s_nodes, x_nodes=x_nodes, z_nodes=z_nodes, tension_nodes=t_nodes)
