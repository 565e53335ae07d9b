"""Seed 004 §2.3: towed armoured cables — the rows that check towing, towed bodies and
steady-state extraction.

* ``seed004_chapman_turns`` (seed): §2.3.2, 357 m of the HA cable (Table 2.2) towing the
  depressor of Table 2.4 at 1.78 m/s in steady circular turns of 59…714 m radius. Each turn
  starts from a settled straight tow, runs a 20 s straight approach then the turn, and is
  held until :func:`tetherdyn.steady.settle` declares it steady. Checked against an
  independent quasi-static solution of the same continuous cable (the steady equations in
  the rotating frame, integrated from the depressor up and shot onto the ship's circle —
  Chapman's method with our drag law), against the seed's extrapolated 71.4 m tow-off
  tension (6253 N; Chapman 6346 N) and the onset of the transition regime (scope/radius
  1.264).
* ``seed004_straight_tows`` (seed): §2.3.1, the Vaz & Patel acceleration (Table 2.1) and
  deceleration (Table 2.3) of 300 m of the HA cable on six 50 m elements, as towpoint
  velocity tables; the settled profiles against the analytic straight inclined line of a
  uniform drag-dominated cable and its tow tension.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq, fsolve, least_squares

from tetherdyn.hydro import loading_function_normal, loading_function_tangential
from tetherdyn.paths import circular_turn
from tetherdyn.steady import SteadyState, settle

from . import Row, register, save_figure

# -- the seed's data ----------------------------------------------------------------------
G = 9.81
RHO_W = 1025.0  # sea water [kg/m^3] (digest §1: reproduces W_FISH = 423.1 N)
#: Table 2.2, HA towcable
HA_DIAMETER = 0.0332
HA_DENSITY = 3121.0
HA_CD = 1.649
HA_DAMPING = 10.0  # C_ID [N s]
HA_E = 77.5e9
HA_AREA = math.pi * HA_DIAMETER**2 / 4
#: Table 2.4, cannonball depressor
FISH_DIAMETER = 0.20
FISH_DENSITY = 11320.0
FISH_CD = 0.30
FISH_WEIGHT = 423.1  # in-situ weight [N] (the table's value, for the non-dimensional scale)
FISH_VOLUME = math.pi / 6 * FISH_DIAMETER**3
FISH_CA = 0.5  # sphere
#: §2.3.2
CHAPMAN_LENGTH = 357.0
CHAPMAN_SPEED = 1.78
CHAPMAN_APPROACH = 20.0
CHAPMAN_T71 = 6346.0  # Chapman's tow-off tension, 71.4 m turn [N]
SEED_T71 = 6253.0  # the seed's N -> infinity extrapolation [N]
SEED_T71_TOLERANCE = 0.03  # digest §7 row 14: ±3 % of 6253 N
CHAPMAN_T71_TOLERANCE = 0.05  # digest §7 row 14: within ~±5 % of Chapman
SEED_BOTTOM = 442.0  # the seed's bottom tension, 160 elements [N]
CRITICAL_RATIO = 1.264  # Chapman's critical scope / radius for this system
#: the radii of Fig. 2.6 (59 … 714 m, scope/radius 6.05 … 0.5) for the full row
RADII_FULL = (714.0, 510.0, 400.0, 330.0, 282.0, 240.0, 200.0, 160.0, 130.0, 110.0, 89.25,
              71.4, 59.0)
RADII_REDUCED = (714.0, 357.0, 178.5, 71.4)
#: §2.3.1
VP_LENGTH = 300.0
VP_ELEMENTS = 6


def wet_weight() -> float:
    """HA cable in-water weight per metre [N/m] (17.80)."""
    return (HA_DENSITY - RHO_W) * HA_AREA * G


def length_scale(in_water: bool = False) -> float:
    """Chapman's length scale W_FISH / w [m] of Table 2.5: w = ¼π ρ_c d² g (dry weight per
    metre, the seed's printed formula: 15.96 m) or the in-water weight per metre (23.77 m)."""
    rho = HA_DENSITY - RHO_W if in_water else HA_DENSITY
    return FISH_WEIGHT / (0.25 * math.pi * rho * HA_DIAMETER**2 * G)


# -- cases --------------------------------------------------------------------------------

def ha_tether(length: float, drag_law: str = "loading_functions") -> dict:
    """The HA towcable of Table 2.2 (EA = 77.5 GPa × πd²/4 = 6.709e7 N)."""
    return dict(length=length, diameter=HA_DIAMETER, density=HA_DENSITY, EA=HA_E * HA_AREA,
                axial_damping=HA_DAMPING, drag_law=drag_law, cd_normal=HA_CD)


def depressor_end() -> dict:
    """Table 2.4's depressor as a towed body at the free end: its mass ρ_s V, displaced
    volume V (in-situ weight (ρ_s − ρ_W) V g = 423.0 N), sphere added mass 0.5 ρ_W V and
    drag on C_DS · πd²/4."""
    return dict(type="free", mass=FISH_DENSITY * FISH_VOLUME, volume=FISH_VOLUME, ca=FISH_CA,
                drag_area=FISH_CD * math.pi * FISH_DIAMETER**2 / 4)


def towed_case(length: float, elements: int, start: dict, *, body: bool = True,
               method: str = "rk4", dt: float | None = None, output_interval: float = 0.5,
               duration: float = 100.0, drag_law: str = "loading_functions",
               initial: dict | None = None) -> dict:
    """A case dict: the HA cable from a prescribed towpoint, optionally with the depressor.

    dt default: rk4 at half the axial stability limit (digest §2.6: 10 ms for 35.7 m
    elements), generalized-α 0.02 s."""
    if dt is None:
        dt = 0.02 if method == "generalized_alpha" else _rk4_dt(length / elements)
    solver = dict(method=method, dt=dt, duration=duration, output_interval=output_interval)
    if method == "generalized_alpha":
        solver.update(rtol=1e-9, atol=1e-9)
    case = dict(name="seed 004 §2.3 towed HA cable", tether=ha_tether(length, drag_law),
                model=dict(type="lumped_mass", elements=elements),
                environment=dict(fluid_density=RHO_W, gravity=[0.0, 0.0, -G]),
                start=start, end=depressor_end() if body else dict(type="free"),
                solver=solver)
    if initial is not None:
        case["initial"] = initial
    return case


def _rk4_dt(element_length: float) -> float:
    """A safe RK4 step [s] for the HA cable: half the axial limit, on a 0.5 s grid."""
    limit = 0.0103 * element_length / 35.7  # digest §2.6: 10 ms at 35.7 m elements
    return 0.5 / math.ceil(0.5 / (0.5 * limit))


def constant_tow(speed: float, until: float) -> dict:
    """A towpoint at the origin moving along +x at ``speed`` [m/s] until ``until`` [s]."""
    return dict(type="prescribed", position=[0.0, 0.0, 0.0], interpolation="linear",
                trajectory=dict(t=[0.0, until], vx=[speed, speed], vy=[0.0, 0.0],
                                vz=[0.0, 0.0]))


# -- analytic straight tow ----------------------------------------------------------------

def straight_tow_angle(speed: float, drag_law: str = "loading_functions") -> float:
    """Inclination φ [rad] below the horizontal of a uniform cable towed straight with no
    end body: the normal balance w cos φ = ½ ρ d C_D U² f_p(φ) (the flow meets the cable at
    the incidence η = φ; cross-flow law: f_p = sin²φ)."""
    w = wet_weight()
    q = 0.5 * RHO_W * HA_DIAMETER * HA_CD * speed**2
    fp = (loading_function_normal if drag_law == "loading_functions"
          else lambda e: math.sin(e) ** 2)
    return brentq(lambda p: w * math.cos(p) - q * fp(p), 1e-6, math.pi / 2)


def straight_tow_tension(speed: float, length: float, drag_law: str = "loading_functions"
                         ) -> float:
    """Tow-off tension [N] of that straight cable: T(0) = L (w sin φ + ½ρ d C_D U² f_q(φ)),
    the weight and tangential drag it carries along its length."""
    phi = straight_tow_angle(speed, drag_law)
    ft = loading_function_tangential(phi) if drag_law == "loading_functions" else 0.0
    return length * (wet_weight() * math.sin(phi)
                     + 0.5 * RHO_W * HA_DIAMETER * HA_CD * speed**2 * ft)


# -- quasi-static steady turn (independent of the dynamic model) ---------------------------

def _drag_per_length(u: np.ndarray, q: np.ndarray, drag_law: str) -> np.ndarray:
    """Drag [N/m] on the cable moving at u through still water, tangent q (hydro's laws)."""
    ut = float(u @ q)
    un_v = u - ut * q
    un = float(np.linalg.norm(un_v))
    if drag_law == "cross_flow":
        return -0.5 * RHO_W * HA_CD * HA_DIAMETER * un * un_v
    p = 0.5 * RHO_W * HA_DIAMETER * HA_CD * float(u @ u)
    eta = math.atan2(un, abs(ut))
    normal = un_v / un if un > 0 else 0.0 * un_v
    # seed 004 eq. (2.12): f_p across, f_q along ("normal_only": the same without f_q)
    f_q = 0.0 if drag_law == "normal_only" else loading_function_tangential(eta)
    return (-p * loading_function_normal(eta) * normal
            - p * f_q * math.copysign(1.0, ut) * q)


def quasi_static_turn(radius: float, speed: float = CHAPMAN_SPEED,
                      length: float = CHAPMAN_LENGTH, drag_law: str = "loading_functions",
                      guess: tuple[float, float] | None = None) -> dict:
    """Steady turn of the continuous cable and depressor, solved as Chapman did: in the
    frame turning at Ω = U/R about the circle's centre the cable is at rest; the equilibrium
    d(T q)/ds = −(f − m a) (f: in-water weight and drag of the flow Ω ẑ × r, a = −Ω² r_h
    with the normal added mass ρA) is integrated from the depressor (tension = its net
    weight and drag less its inertia) up the unstretched arc length, and the depressor's
    radius and depth are shot until the towpoint lies on the ship's circle at the surface.

    ``drag_law``: ``loading_functions`` (seed 004 eq. 2.12), ``normal_only`` (its f_p
    without the tangential f_q) or ``cross_flow``.
    ``radius = inf``: a straight tow (flow U x̂, no inertia). Returns tow_off_tension [N],
    body_radius (horizontal distance from the centre; straight: trail behind the ship) and
    body_depth [m], ship_angle [rad] and the profile.
    """
    omega = 0.0 if math.isinf(radius) else speed / radius
    w = wet_weight()
    m_cable = HA_DENSITY * HA_AREA
    m_added = RHO_W * HA_AREA  # ca_normal = 1, none tangential (seed 004 eq. 2.14)
    EA = HA_E * HA_AREA
    m_fish = FISH_DENSITY * FISH_VOLUME + FISH_CA * RHO_W * FISH_VOLUME
    w_fish = (FISH_DENSITY - RHO_W) * FISH_VOLUME * G
    a_fish = FISH_CD * math.pi * FISH_DIAMETER**2 / 4  # C_DS x frontal area [m^2]

    def vel_acc(r):
        if omega == 0.0:
            return np.array([speed, 0.0, 0.0]), np.zeros(3)
        return (omega * np.array([-r[1], r[0], 0.0]),
                -omega * omega * np.array([r[0], r[1], 0.0]))

    def rhs(_sigma, y):
        r, P = y[:3], y[3:]
        T = float(np.linalg.norm(P))
        q = P / T
        stretch = 1.0 + T / EA
        u, a = vel_acc(r)
        f = np.array([0.0, 0.0, -w]) + stretch * _drag_per_length(u, q, drag_law)
        inertia = m_cable * a + m_added * (a - (a @ q) * q)
        return np.concatenate([-stretch * q, f - inertia])

    def shoot(x):
        rb = np.array([x[0], 0.0, -x[1]])
        u, a = vel_acc(rb)
        drag = -0.5 * RHO_W * a_fish * np.linalg.norm(u) * u
        Pb = np.array([0.0, 0.0, -w_fish]) + drag - m_fish * a
        sol = solve_ivp(rhs, (0.0, length), np.concatenate([rb, Pb]), method="DOP853",
                        rtol=1e-10, atol=1e-8)
        return sol

    def residual(x):
        top = shoot(x).y[:, -1]
        if omega == 0.0:
            return [top[0], top[2]]
        return [math.hypot(top[0], top[1]) - radius, top[2]]

    if guess is None:
        guess = (-0.9 * length, 0.4 * length) if omega == 0.0 else (
            math.sqrt(max(radius**2 - (0.6 * length) ** 2, (0.1 * radius) ** 2)),
            0.5 * length)
    x, info, ier, msg = fsolve(residual, guess, full_output=True, xtol=1e-11)
    if ier != 1 or max(abs(v) for v in residual(x)) > 1e-4:
        fit = least_squares(residual, x, xtol=1e-14, ftol=1e-14)
        x = fit.x
        if max(abs(v) for v in residual(x)) > 1e-3:
            raise RuntimeError(f"quasi-static turn R = {radius:g} m: shooting failed ({msg})")
    sol = shoot(x)
    top = sol.y[:, -1]
    return dict(tow_off_tension=float(np.linalg.norm(top[3:])), body_radius=float(x[0]),
                body_depth=float(x[1]), ship_angle=float(math.atan2(top[1], top[0])),
                profile=sol.y[:3].T[::-1], guess=(float(x[0]), float(x[1])),
                bottom_tension=float(np.linalg.norm(sol.y[3:, 0])))


def quasi_static_sweep(radii, drag_law: str = "loading_functions") -> list[dict]:
    """:func:`quasi_static_turn` for decreasing radii, each solve starting from the last
    (the first from the straight tow's trail and depth)."""
    straight = quasi_static_turn(math.inf, drag_law=drag_law)
    trail, depth = -straight["body_radius"], straight["body_depth"]
    out = []
    guess = None
    for R in sorted(radii, reverse=True):
        if guess is None:
            guess = (math.sqrt(R * R + trail * trail) - 0.5 * trail * trail / R, depth)
        res = quasi_static_turn(R, drag_law=drag_law, guess=guess)
        res["radius"] = R
        out.append(res)
        guess = res["guess"]
    return out


# -- dynamic runs ---------------------------------------------------------------------------

def resample_state(y: np.ndarray, n_to: int) -> np.ndarray:
    """A lumped-mass state (positions then velocities) moved onto ``n_to`` elements by
    linear interpolation in the node fraction (uniform elements: fraction = s / L)."""
    n_from = y.size // 6
    f0 = np.linspace(0.0, 1.0, n_from)
    f1 = np.linspace(0.0, 1.0, n_to + 1)
    pos = y[:3 * n_from].reshape(n_from, 3)
    vel = y[3 * n_from:].reshape(n_from, 3)
    out = [np.column_stack([np.interp(f1, f0, a[:, k]) for k in range(3)]) for a in (pos, vel)]
    return np.concatenate([out[0].ravel(), out[1].ravel()])


def settle_straight_tow(speed: float, length: float, elements: int, *, body: bool,
                        method: str = "rk4", time_limit: float = 3000.0,
                        y0: np.ndarray | None = None) -> SteadyState:
    """The settled straight tow at ``speed`` [m/s], started from the analytic straight
    line (or from ``y0``) and settled in the frame towed with the towpoint."""
    phi = straight_tow_angle(speed)
    initial = dict(shape="straight", direction=[-math.cos(phi), 0.0, -math.sin(phi)],
                   velocity=[speed, 0.0, 0.0])
    case = towed_case(length, elements, constant_tow(speed, time_limit), body=body,
                      method=method, initial=initial)
    return settle(case, y0=y0, frame="towed", time_limit=time_limit, window=30.0, chunk=30.0,
                  force_rtol=1e-4, force_atol=0.1, position_tol=0.01, min_time=60.0)


def shift_to_origin(y: np.ndarray) -> np.ndarray:
    """A state moved so that its first node (the towpoint) is at the origin."""
    y = y.copy()
    n = y.size // 6
    pos = y[:3 * n].reshape(n, 3)
    pos -= pos[0].copy()
    return y


def settle_turn(radius: float, elements: int, y0: np.ndarray, *, method: str = "rk4",
                time_limit: float = 8000.0, record: bool = False,
                drag_law: str = "loading_functions") -> SteadyState:
    """Seed 004 §2.3.2: from the settled straight tow ``y0`` (towpoint at the origin, heading
    +x), a 20 s straight approach at 1.78 m/s then a left turn of ``radius`` [m], held until
    the tow-off tension, the depressor's radius about the turn centre and its depth settle."""
    table = circular_turn(CHAPMAN_SPEED, radius, CHAPMAN_APPROACH, time_limit,
                          sample_interval=1.0)
    start = dict(type="prescribed", trajectory=table)
    case = towed_case(CHAPMAN_LENGTH, elements, start, method=method, drag_law=drag_law)
    centre = (CHAPMAN_SPEED * CHAPMAN_APPROACH, radius)
    return settle(case, y0=shift_to_origin(y0), centre=centre, time_limit=time_limit,
                  window=60.0, chunk=60.0, force_rtol=2e-4, force_atol=0.5, position_tol=0.05,
                  min_time=CHAPMAN_APPROACH + 2.0 * CHAPMAN_LENGTH / CHAPMAN_SPEED,
                  record=record)


def fit_infinite_n(ns, values) -> tuple[float, float, float]:
    """T(N) = T∞ + a N^(−p) through the (N, T) pairs (least squares; exact for three):
    the first element's mean tension misses the towpoint's by about half an element's
    load, so the error falls like a power of the element length. Returns (T∞, a, p)."""
    ns = np.asarray(ns, dtype=float)
    vals = np.asarray(values, dtype=float)
    if ns.size == 2:  # Richardson with p = 1
        p = 1.0
        a = (vals[0] - vals[1]) / (ns[0] ** -p - ns[1] ** -p)
        return float(vals[1] - a * ns[1] ** -p), float(a), p

    def res(x):
        return x[0] + x[1] * ns ** -x[2] - vals

    x0 = [vals[-1], (vals[0] - vals[-1]) * ns[0], 1.0]
    fit = least_squares(res, x0, xtol=1e-14, ftol=1e-14)
    return float(fit.x[0]), float(fit.x[1]), float(fit.x[2])


def fit_exponential(ns, values) -> float:
    """T∞ of the seed's form T(N) = T∞ + a e^(−bN) (least squares, ≥ 3 pairs; §2.3.2's
    "exponential fit", form not given): for comparison with :func:`fit_infinite_n`."""
    ns = np.asarray(ns, dtype=float)
    vals = np.asarray(values, dtype=float)

    def res(x):
        return x[0] + x[1] * np.exp(-x[2] * ns) - vals

    x0 = [vals[-1], (vals[0] - vals[-1]) * math.exp(0.05 * ns[0]), 0.05]
    return float(least_squares(res, x0, xtol=1e-14, ftol=1e-14).x[0])


def transition_onset(ratios, values) -> float:
    """Onset of the transition regime: where the steepest tangent of the curve (value vs
    scope/radius) meets the straight-tow level (the curve's value at the smallest ratio)."""
    x = np.asarray(ratios, dtype=float)
    v = np.asarray(values, dtype=float)
    order = np.argsort(x)
    x, v = x[order], v[order]
    slope = np.gradient(v, x)
    k = int(np.argmax(slope))
    return float(x[k] - (v[k] - v[0]) / slope[k])


# -- seed004_chapman_turns ------------------------------------------------------------------

def _qs_ratios(full: bool) -> np.ndarray:
    if full:
        return np.concatenate([np.arange(0.1, 1.0, 0.1), np.arange(1.0, 2.4, 0.05),
                               np.arange(2.5, 6.3, 0.25)])
    return np.concatenate([[0.25, 0.5, 0.75], np.arange(1.0, 2.3, 0.1), [2.5, 3.0, 4.0, 5.0]])


def chapman_runs(full: bool) -> dict:
    """Every simulation of the Chapman row: the quasi-static sweeps, the N = 10 turns of
    Fig. 2.6 and the element-count study of the 71.4 m turn (Fig. 2.7)."""
    ratios = _qs_ratios(full)
    qs = quasi_static_sweep(CHAPMAN_LENGTH / ratios)
    qs_straight = quasi_static_turn(math.inf)
    qs71_cf = quasi_static_turn(71.4, drag_law="cross_flow")
    qs71_normal = quasi_static_turn(71.4, drag_law="normal_only")
    straight = settle_straight_tow(CHAPMAN_SPEED, CHAPMAN_LENGTH, 10, body=True)
    radii = RADII_FULL if full else RADII_REDUCED
    turns = {}
    for R in radii:
        turns[R] = settle_turn(R, 10, straight.state, record=(R == 71.4))
    ns = (10, 20, 40, 80, 160) if full else (10, 20)
    conv = {10: turns[71.4]}
    for N in ns[1:]:
        method = "rk4" if N <= 20 else "generalized_alpha"
        conv[N] = settle_turn(71.4, N, resample_state(straight.state, N), method=method)
    return dict(ratios=ratios, qs=qs, qs_straight=qs_straight, qs71_cf=qs71_cf,
                qs71_normal=qs71_normal, straight=straight, turns=turns, conv=conv)


def _chapman_figures(runs: dict, fits: dict, figure_dir: Path) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ls = length_scale()
    qs = runs["qs"]
    x_qs = [CHAPMAN_LENGTH / r["radius"] for r in qs]
    turns = runs["turns"]
    x_dyn = [CHAPMAN_LENGTH / R for R in turns]
    fig, axes = plt.subplots(2, 3, figsize=(13, 7.5))
    panels = (("tow_off_tension", FISH_WEIGHT, r"$\bar T_{SHIP} = T_{SHIP}/W$"),
              ("body_radius", ls, r"$\bar R_{FISH} = R_{FISH}\,\frac{1}{4}\pi\rho_c d^2 g/W$"),
              ("body_depth", ls, r"$\bar D_{FISH} = Z_{FISH}\,\frac{1}{4}\pi\rho_c d^2 g/W$"))
    for ax, (key, scale, label) in zip(axes[0], panels, strict=True):
        ax.plot(x_qs, [r[key] / scale for r in qs], "-", color="0.4",
                label="quasi-static, continuous cable")
        ax.plot(x_dyn, [getattr(turns[R], key) / scale for R in turns], "o", color="C0",
                label="lumped mass N = 10, settled")
        ax.axvline(CRITICAL_RATIO, color="C3", ls=":", label="Chapman critical 1.264")
        ax.axvline(fits["onset"], color="C2", ls="--", label=f"onset (knee) {fits['onset']:.2f}")
        ax.set_xlabel(r"scope / ship turn radius $L_{TOT}/R_{SHIP}$")
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    axes[0, 0].plot([5.0], [SEED_T71 / FISH_WEIGHT], "s", color="C1", label="seed N→∞ (14.78)")
    axes[0, 0].plot([5.0], [CHAPMAN_T71 / FISH_WEIGHT], "^", color="C3", label="Chapman (15.0)")
    axes[0, 0].legend(fontsize=7)
    axes[0, 1].set_yscale("log")
    # Fig. 2.7(a): tow-off tension vs N
    ax = axes[1, 0]
    conv = runs["conv"]
    ns = np.array(sorted(conv))
    t1 = np.array([conv[n].first_element_tension for n in ns])
    hold = np.array([conv[n].tow_off_tension for n in ns])
    ax.plot(ns, t1, "o", label="first-element tension")
    ax.plot(ns, hold, "x", label="towpoint holder force")
    nn = np.linspace(ns[0], max(ns[-1], 160), 200)
    t_inf, a, p = fits["fit"]
    ax.plot(nn, t_inf + a * nn ** -p, "-", color="C0", lw=0.8,
            label=f"fit T∞ + a N^-p: T∞ = {t_inf:.0f} N, p = {p:.2f}")
    ax.axhline(fits["qs71"], color="0.4", label=f"quasi-static {fits['qs71']:.0f} N")
    ax.axhline(SEED_T71, color="C1", ls="--", label="seed 6253 N")
    ax.axhline(CHAPMAN_T71, color="C3", ls=":", label="Chapman 6346 N")
    ax.axhline(runs["qs71_cf"]["tow_off_tension"], color="C4", ls="-.",
               label="quasi-static, normal drag only")
    ax.set_xscale("log")
    ax.set_xlabel("elements N")
    ax.set_ylabel("tow-off tension, 71.4 m turn [N]")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    # Fig. 2.7(b): tension profiles
    ax = axes[1, 1]
    for n in ns:
        st = conv[n]
        edges = np.linspace(0.0, CHAPMAN_LENGTH, n + 1)
        ax.stairs(st.tension, edges, baseline=None, label=f"N = {n}")
    ax.set_xlabel("unstretched arc length from the towpoint s [m]")
    ax.set_ylabel("element tension [N]")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    # Fig. 2.5: tracks in the 71.4 m turn
    ax = axes[1, 2]
    t, Y = turns[71.4].history["states"]
    n = Y.shape[1] // 6
    pos = Y[:, :3 * n].reshape(len(t), n, 3)
    ax.plot(pos[:, 0, 0], pos[:, 0, 1], color="0.3", lw=0.8, label="ship (towpoint)")
    ax.plot(pos[:, -1, 0], pos[:, -1, 1], color="C0", lw=0.8, label="depressor")
    ax.set_aspect("equal")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_title("71.4 m turn: plan view (20 s approach from the origin)", fontsize=9)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    return save_figure(fig, figure_dir, "seed004_chapman_turns.png")


@register("seed004_chapman_turns", "seed",
          "Seed 004 §2.3.2: steady turns of a towed depressor vs Chapman", reference="seed")
def check_chapman(full: bool = True, figure_dir: Path | None = None) -> Row:
    runs = chapman_runs(full)
    conv = runs["conv"]
    ns = sorted(conv)
    t1 = [conv[n].first_element_tension for n in ns]
    fit = fit_infinite_n(ns, t1)
    t_inf = fit[0]
    qs = runs["qs"]
    qs71 = quasi_static_turn(71.4, guess=None)["tow_off_tension"]
    ls = length_scale()
    onset = transition_onset([CHAPMAN_LENGTH / r["radius"] for r in qs],
                             [r["body_depth"] for r in qs])
    onset_t = transition_onset([CHAPMAN_LENGTH / r["radius"] for r in qs],
                               [r["tow_off_tension"] for r in qs])
    # N = 10 settled turns against the continuous quasi-static cable
    dev = {}
    for R, st in runs["turns"].items():
        ref = quasi_static_turn(R, guess=_nearest_guess(qs, R))
        dev[R] = (st.tow_off_tension / ref["tow_off_tension"] - 1.0,
                  st.body_depth / ref["body_depth"] - 1.0,
                  st.body_radius - ref["body_radius"])
    worst_t = max(abs(v[0]) for v in dev.values())
    worst_d = max(abs(v[1]) for v in dev.values())
    worst_r = max(abs(v[2]) for v in dev.values())
    err_qs = t_inf / qs71 - 1.0
    err_seed = t_inf / SEED_T71 - 1.0
    err_chap = t_inf / CHAPMAN_T71 - 1.0
    st160 = conv.get(160)
    bottom = float(st160.tension[-1]) if st160 is not None else None
    fits = dict(fit=fit, onset=onset, qs71=qs71)
    qs_cf = runs["qs71_cf"]["tow_off_tension"]
    qs_n = runs["qs71_normal"]["tow_off_tension"]
    t_exp = fit_exponential(ns, t1) if len(ns) > 2 else None
    figure = _chapman_figures(runs, fits, figure_dir) if figure_dir is not None else None
    checks = {
        # N = 10 is the seed's discretisation (35.7 m elements): its tow-off tension within
        # 3 % of the continuous cable's (the holder force converges like 1/N), the depressor's
        # depth and radius within 1 % of the scope
        "n10_vs_quasi_static": (worst_t <= 0.03 and worst_d * max(
            st.body_depth for st in runs["turns"].values()) <= 0.01 * CHAPMAN_LENGTH
            and worst_r <= 0.01 * CHAPMAN_LENGTH),
        # the N -> infinity limit is the continuous cable's (fit error; Richardson with two
        # points when reduced)
        "limit_vs_quasi_static": abs(err_qs) <= (0.002 if full else 0.01),
        # the seed's extrapolated 6253 N within 3 %, Chapman's 6346 N within 5 % (digest
        # §7 row 14, the seed's "compares fairly well")
        "seed_6253": abs(err_seed) <= SEED_T71_TOLERANCE,
        "chapman_6346": abs(err_chap) <= CHAPMAN_T71_TOLERANCE,
        "onset": abs(onset - CRITICAL_RATIO) <= 0.1,
    }
    if bottom is not None:
        checks["bottom_442"] = abs(bottom / SEED_BOTTOM - 1.0) <= 0.05
    passed = all(checks.values())
    straight = runs["straight"]
    values = dict(
        t_inf=t_inf, fit_a=fit[1], fit_p=fit[2], ns=ns, first_element_tension=t1,
        holder_force=[conv[n].tow_off_tension for n in ns], quasi_static_71=qs71,
        quasi_static_71_cross_flow=runs["qs71_cf"]["tow_off_tension"],
        quasi_static_71_normal_only=runs["qs71_normal"]["tow_off_tension"],
        t_inf_exponential=t_exp,
        err_seed=err_seed, err_chapman=err_chap, err_quasi_static=err_qs,
        onset_depth=onset, onset_tension=onset_t, worst_tension_dev=worst_t,
        worst_depth_dev=worst_d, worst_radius_dev=worst_r, bottom_tension_160=bottom,
        straight_tow_tension=straight.tow_off_tension, straight_depth=straight.body_depth,
        quasi_static_straight=runs["qs_straight"]["tow_off_tension"],
        turns={R: dict(tension=st.tow_off_tension, depth=st.body_depth,
                       radius=st.body_radius, settled_at=st.time,
                       T_bar=st.tow_off_tension / FISH_WEIGHT, R_bar=st.body_radius / ls,
                       D_bar=st.body_depth / ls) for R, st in runs["turns"].items()},
        checks=checks)
    fit_txt = (f"T1(N) = T∞ + a N^-p least squares over N = {ns}" if len(ns) > 2
               else f"Richardson T∞ = 2 T1(20) − T1(10) (p = 1) over N = {ns}")
    ours = (f"71.4 m turn T∞ = {t_inf:.0f} N (T̄ = {t_inf / FISH_WEIGHT:.2f}; "
            f"{100 * err_seed:+.1f} % vs 6253, {100 * err_chap:+.1f} % vs 6346; continuous "
            f"quasi-static {qs71:.0f} N); onset {onset:.2f}"
            + (f"; bottom {bottom:.0f} N" if bottom is not None else ""))
    details = (
        f"357 m HA cable (Table 2.2, EA = {HA_E * HA_AREA:.4g} N, loading-function drag), "
        f"depressor of Table 2.4 as a towed body (mass {FISH_DENSITY * FISH_VOLUME:.2f} kg, "
        f"volume {FISH_VOLUME:.4g} m³, ca 0.5, drag area {FISH_CD * math.pi * 0.01:.4g} m²; "
        f"in-situ weight {(FISH_DENSITY - RHO_W) * FISH_VOLUME * G:.1f} N), 1.78 m/s. Each "
        "turn starts from the settled straight tow (tow-off "
        f"{straight.tow_off_tension:.0f} N, depth {straight.body_depth:.1f} m at N = 10), "
        "20 s straight approach, then paths.circular_turn; settled (tetherdyn.steady.settle) "
        "when over 60 s the tow-off and body forces vary < 0.02 % and the depressor's radius "
        "about the turn centre and depth < 5 cm. rk4 (half the axial limit: 5.1 ms at "
        "N = 10, 2.5 ms at N = 20), generalized-α 0.02 s (ρ∞ 0.8, rtol 1e-9) for N ≥ 40. "
        f"Tow-off tension N → ∞: {fit_txt}: a = {fit[1]:.4g}, p = {fit[2]:.3f}. The "
        "independent reference is the quasi-static continuous cable (rotating-frame "
        "equilibrium integrated from the depressor up, shot onto the ship's circle, same "
        f"drag law): T(0) = {qs71:.1f} N. Where the gap to the seed's 6253 N comes from "
        "(continuous cable, 71.4 m turn): with normal drag only (Chapman's assumption, "
        f"cross-flow law) T(0) = {qs_cf:.0f} N, Chapman's 6346 N to "
        f"{100 * (qs_cf / CHAPMAN_T71 - 1):+.2f} % (so our quasi-static solver reproduces "
        "Chapman independently); the seed's loading functions without their tangential "
        f"part f_q give {qs_n:.0f} N ({100 * (qs_n / SEED_T71 - 1):+.2f} % vs 6253: the "
        "normal function's shape matters little); the tangential drag f_q (Driscoll & "
        "Nahon's, reconstructed, digest §2.2.3) adds "
        f"{qs71 - qs_n:.0f} N ({100 * (qs71 / qs_n - 1):+.2f} %). Neither the mesh (our "
        f"N → ∞ limit is the continuous cable's to {100 * err_qs:+.2f} %) nor the turn's "
        "transient (each turn settled; same limit) contributes"
        + ("" if t_exp is None else
           f"; the extrapolation's form does a little: the seed's exponential form over "
           f"our element means gives {t_exp:.0f} N ({100 * (t_exp / SEED_T71 - 1):+.2f} %), "
           "but it misses their 1/N tail, which the continuous cable confirms")
        + ". The seed's own numbers "
        "show why 3 % of 6253 N cannot be met with its drag law: its 6253 N lies 1.47 % "
        "BELOW Chapman's normal-drag-only 6346 N, while any tangential drag, which the "
        "seed's eq. (2.12) includes, can only add tension along the cable (here "
        f"{qs71 - qs_n:.0f} N); so the seed's value is below what its own law gives a "
        "continuous cable by the f_q share plus ~1.5 % that the seed does not explain "
        "(its exponential fit over N, the unstated settling). Dropping f_q would meet 3 % "
        f"({100 * (qs_n / SEED_T71 - 1):+.2f} %) but contradicts the seed's law, so we keep "
        f"it: our limit is {100 * err_seed:+.1f} % from 6253 N"
        + (" — FAILS the 3 % bound" if abs(err_seed) > SEED_T71_TOLERANCE else "")
        + f" — and {100 * err_chap:+.1f} % from Chapman. Non-dimensional values use Table "
        "2.5 as "
        "printed (¼πρ_c d² g, the dry weight per metre: length scale "
        f"{ls:.2f} m; with the in-water weight it would be {length_scale(True):.2f} m). "
        f"Onset of the transition: knee of the quasi-static depth curve (steepest tangent "
        f"meets the straight-tow level) at L/R = {onset:.3f} (tension curve: "
        f"{onset_t:.3f}) vs Chapman's 1.264. N = 10 settled turns vs the continuous cable: "
        f"tow-off within {100 * worst_t:.1f} %, depth {100 * worst_d:.2f} %, radius "
        f"{worst_r:.2f} m. Checks: {checks}.")
    return Row(name="seed004_chapman_turns", tier="seed",
               expected="71.4 m turn T_SHIP(N→∞) = 6253 N (Chapman 6346 N); transition "
                        "onset L/R = 1.264; bottom tension 442 N (N = 160)",
               ours=ours,
               tolerance="±3 % of 6253 N, ±5 % of 6346 N; limit vs continuous cable 0.2 % "
                         "(reduced: 1 %); onset ±0.1; 442 N ±5 %; N = 10 vs continuous: "
                         "3 % tension, depth and radius 1 % of the scope",
               passed=passed, details=details, figure=figure, values=values)


def _nearest_guess(qs: list[dict], R: float) -> tuple[float, float]:
    return min(qs, key=lambda r: abs(math.log(r["radius"] / R)))["guess"]


# -- seed004_straight_tows ------------------------------------------------------------------

#: the towpoint speed tables [s, m/s] (Tables 2.1 and 2.3 as velocities; the final speed of
#: the acceleration is the velocity column's 1.235 m/s — its position column and the prose
#: imply 1.286 m/s, a = 0.012 m/s^2: digest §3.1)
ACCELERATION = dict(t=(0.0, 120.0, 180.0), v=(0.566, 0.566, 1.235))
DECELERATION = dict(t=(0.0, 60.0, 120.0), v=(1.286, 1.286, 0.514))


def manoeuvre_start(table: dict, until: float) -> dict:
    """The prescribed towpoint of a Vaz & Patel manoeuvre as a velocity table along +x."""
    t = [*table["t"], until]
    v = [*table["v"], table["v"][-1]]
    return dict(type="prescribed", position=[0.0, 0.0, 0.0], interpolation="linear",
                trajectory=dict(t=t, vx=v, vy=[0.0] * len(t), vz=[0.0] * len(t)))


def chord_angle(pos: np.ndarray) -> float:
    """Inclination [rad] below the horizontal of the chord from the towpoint to the end."""
    d = pos[-1] - pos[0]
    return math.atan2(-d[2], math.hypot(d[0], d[1]))


def straightness(pos: np.ndarray) -> float:
    """Largest distance [m] of a node from the towpoint-to-end chord."""
    d = pos[-1] - pos[0]
    e = d / np.linalg.norm(d)
    rel = pos - pos[0]
    return float(np.linalg.norm(rel - np.outer(rel @ e, e), axis=1).max())


def run_manoeuvre(table: dict, time_limit: float, elements: int = VP_ELEMENTS) -> dict:
    """Seed 004 §2.3.1: settle the straight tow at the table's first speed, run the table's
    speed changes from it and settle again; returns both steady states and the record."""
    v0, v1 = table["v"][0], table["v"][-1]
    before = settle_straight_tow(v0, VP_LENGTH, elements, body=False)
    case = towed_case(VP_LENGTH, elements, manoeuvre_start(table, time_limit), body=False)
    after = settle(case, y0=shift_to_origin(before.state), frame="towed",
                   time_limit=time_limit, window=60.0, chunk=30.0, force_rtol=1e-5,
                   force_atol=0.05, position_tol=0.002, min_time=table["t"][-1] + 30.0,
                   record=True)
    return dict(before=before, after=after, v0=v0, v1=v1, table=table)


def _profiles_figure(runs: dict, figure_dir: Path) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(14, 4.5))
    for ax, (name, run) in zip(axes, runs.items(), strict=True):
        t, Y = run["after"].history["states"]
        t = np.concatenate([[0.0], t])
        Y = np.vstack([shift_to_origin(run["before"].state)[None, :], Y])
        n = Y.shape[1] // 6
        pos = Y[:, :3 * n].reshape(len(t), n, 3)
        marks = [0.0, 60.0, 120.0, 150.0, 180.0, 240.0, 300.0, 400.0, 600.0, 900.0, t[-1]]
        for k, tm in enumerate(m for m in marks if m <= t[-1]):
            j = int(np.argmin(abs(t - tm)))
            p = pos[j] - pos[j, 0]
            ax.plot(p[:, 0], p[:, 2], "o-", ms=3, color=plt.cm.viridis(k / len(marks)),
                    label=f"{t[j]:.0f} s")
        for v, ls in ((run["v0"], ":"), (run["v1"], "--")):
            phi = straight_tow_angle(v)
            ax.plot([0, -VP_LENGTH * math.cos(phi)], [0, -VP_LENGTH * math.sin(phi)], ls,
                    color="0.5", lw=0.8, label=f"analytic straight line {v} m/s")
        ax.set_aspect("equal")
        ax.set_xlabel("x − x_towpoint [m]")
        ax.set_ylabel("z [m]")
        fig_no = 3 if name == "acceleration" else 4
        ax.set_title(f"{name}: {run['v0']} → {run['v1']} m/s (cf. Fig. 2.{fig_no})", fontsize=9)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        ax.grid(alpha=0.3)
    return save_figure(fig, figure_dir, "seed004_straight_tows.png")


@register("seed004_straight_tows", "seed",
          "Seed 004 §2.3.1: Vaz & Patel acceleration and deceleration of a towed cable",
          reference="analytic")
def check_straight(full: bool = True, figure_dir: Path | None = None) -> Row:
    runs = {"acceleration": run_manoeuvre(ACCELERATION, 4000.0),
            "deceleration": run_manoeuvre(DECELERATION, 6000.0)}
    res = {}
    ok = True
    for name, run in runs.items():
        out = {}
        for key, st, v in (("before", run["before"], run["v0"]),
                           ("after", run["after"], run["v1"])):
            phi = straight_tow_angle(v)
            t_ref = straight_tow_tension(v, VP_LENGTH)
            ang = chord_angle(st.position)
            out[key] = dict(speed=v, angle_deg=math.degrees(ang),
                            analytic_deg=math.degrees(phi), straightness=straightness(st.position),
                            tension=st.tow_off_tension, analytic_tension=t_ref,
                            settled_at=st.time)
            # the discrete straight tow is exactly straight (each node balances the same
            # per-length weight and drag): 0.01° and 1 cm allow for the strain-dependent drag
            # length and the settling tolerance; the holder force is L (w sin φ + D_t) up to
            # the strain (1e-4) and settling (1e-4)
            ok &= abs(math.degrees(ang - phi)) <= 0.01 and straightness(st.position) <= 0.01
            ok &= abs(st.tow_off_tension / t_ref - 1.0) <= 5e-4
        out["ramp_end"] = run["table"]["t"][-1]
        out["settling_after_ramp"] = run["after"].time - out["ramp_end"]
        res[name] = out
    # the seed: the deceleration's transient lasts longer (gravity, not thrust, drives it)
    slower = res["deceleration"]["settling_after_ramp"] > res["acceleration"]["settling_after_ramp"]
    ok &= slower
    figure = _profiles_figure(runs, figure_dir) if figure_dir is not None else None
    a, d = res["acceleration"], res["deceleration"]
    ours = (f"settled inclinations {a['before']['angle_deg']:.3f}° → "
            f"{a['after']['angle_deg']:.3f}° "
            f"(acceleration), {d['before']['angle_deg']:.3f}° → {d['after']['angle_deg']:.3f}° "
            f"(deceleration); tow tension {a['after']['tension']:.0f} / "
            f"{d['after']['tension']:.0f} N; settled {a['settling_after_ramp']:.0f} s / "
            f"{d['settling_after_ramp']:.0f} s after the ramp")
    expected = (f"straight lines at {a['before']['analytic_deg']:.3f}° → "
                f"{a['after']['analytic_deg']:.3f}° and {d['before']['analytic_deg']:.3f}° → "
                f"{d['after']['analytic_deg']:.3f}° (w cos φ = ½ρdC_D U² f_p(φ)); tension "
                f"{a['after']['analytic_tension']:.0f} / {d['after']['analytic_tension']:.0f} N "
                "(L(w sin φ + ½ρdC_D U² f_q)); deceleration settles slower")
    details = (
        "300 m of the HA cable (Table 2.2) on six 50 m elements, no end body, towpoint "
        "prescribed by velocity tables (Tables 2.1, 2.3 as speeds, integrated exactly: the "
        "printed position columns are inconsistent with them). Acceleration: 0.566 m/s for "
        "120 s, ramp to 1.235 m/s (the velocity column and Fig. 2.3's caption; the position "
        "column and the prose imply 1.286 m/s) by 180 s. Deceleration: 1.286 m/s for 60 s, "
        "ramp to 0.514 m/s by 120 s. Initial conditions: the steady straight tow at the "
        "first speed, settled by tetherdyn.steady.settle from the analytic line (the seed "
        "accelerated a hanging cable; the settled state is the same). rk4, dt 7.1 ms. The "
        "Vaz & Patel data are graphical only (no digitised points): the check is the "
        f"analytic straight tow before and after. Numbers: {res}.")
    return Row(name="seed004_straight_tows", tier="seed", expected=expected, ours=ours,
               tolerance="inclination 0.01°, straightness 1 cm, tension 0.05 %",
               passed=bool(ok), details=details, figure=figure, values=res)
