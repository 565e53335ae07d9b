"""Winch ends: paying tether out and reeling it in (variable-length tethers).

A winch end is a held node (at a fixed point, or moving with a vessel on a trajectory)
through which material flows: the element next to it — the *winch element* — has an
unstretched length that grows as tether is paid out and shrinks as it is reeled in. When it
leaves the band ``element_band × L_nom`` (L_nom = tether.length / model.elements) it is split
(a new node is inserted L_nom from its far node) or merged with its neighbour (that node is
removed). Seed 004 §6.1.1 names pay-out/pay-in as the first item of future work; the
scheme is the variable-length first element of the towed- and ROV-tether literature.

The deployed length ℓ(t) comes from a schedule (payout speed or deployed length versus
time) or from a tension controller. The payout speed is ṡ = dℓ/dt (> 0: paying out).

Momentum. Tether material passes the winch with the velocity u = v_W + ṡ t̂ (v_W the winch's
velocity, t̂ the winch element's unit tangent pointing away from the winch). Half of the
winch element's mass is lumped on the winch node (moving with u) and half on its neighbour
P, whose share grows at ṁ/2 (ṁ = m' ṡ). P's equation of motion carries the thrust of the
material it gains or loses, (ṁ/2)(u − v_P) (Meshchersky), so that the deployed tether's
momentum P = m_W u + Σ m_i v_i obeys dP/dt = F_winch + ṁ u + external loads exactly
(docs/winch.md). A split places the new node where it balances the load it takes over
(weight along the element, drag across it, ``_split_position``) and a merge removes the
winch node's neighbour; both keep the tension at the winch continuous, moving a fraction of
a millimetre of slack between drum and tether where a kink needs it, and give the node that
changes the velocity that conserves momentum exactly (tether, drum material included).

State layout. The state holds ``slots`` node rows: capacity for the most nodes the run can
need, plus one pseudo-node for the winch: q = (ℓ, ∫∫e, n_active) and q̇ = (ṡ, ∫e, 0)
(e = T − T_target of the controller; under a schedule ∫∫e's slot holds the net slack that
splits and merges moved between drum and tether, docs/winch.md). Nodes 0 … n_active − 1
are live, node 0 is the start end and n_active − 1 the end end (results-format.md,
variable-length runs); rows beyond are zero and have zero rates.
"""

from __future__ import annotations

import math
from collections import namedtuple
from pathlib import Path

import numpy as np

from ._jit import inline_kernel, kernel
from .boundary import Trajectory, _read_csv, eval_motion, load_trajectory

__all__ = ["load_payout", "payout_capacity", "winch_parameters"]

# the packed winch parameters (float64 array)
(W_ON, W_SIDE, W_LNOM, W_LO, W_HI, W_MODE, W_TARGET, W_KP, W_KI, W_VMAX, W_AMAX, W_TAU,
 W_LMIN, W_LMAX, W_MPL, W_VPL, W_ADDN, W_ADDT, W_SCALE, W_SLOTS, W_FAR, W_EA, W_WX, W_WY,
 W_WZ, W_SPLINE) = range(26)
N_WINCH = 26
#: payout modes: a schedule; the tension controller integrated with the tether (rk4, rk45);
#: the controller stepped explicitly after each accepted step (generalized_alpha, whose
#: banded Jacobian cannot hold the drum's coupling to the whole tether): ℓ then follows a
#: one-segment schedule at the acceleration commanded at the step's start
SCHEDULE, CONTROL, STEPPED = 0, 1, 2
# element / node columns the winch writes (the models' own indices; asserted there)
# LDOT: the rate of change of the element's unstretched length [m/s] (the winch element's
# ṡ, else 0): the material strain rate is (l̇ − (l/L_u) L̇_u)/L_u
L0, ADDED_N, ADDED_T, LDOT = range(4)
MASS, VOLUME = range(2)


# -- building (Python) ------------------------------------------------------------------


def _table(spec, column: str, base_dir: Path | None) -> tuple[np.ndarray, np.ndarray]:
    """(t, values) of a payout table: a CSV path or an inline {t: [...], column: [...]}."""
    if isinstance(spec, str):
        path = Path(spec)
        if not path.is_absolute() and base_dir is not None:
            path = base_dir / path
        cols = _read_csv(path)
    else:
        cols = spec
    missing = [c for c in ("t", column) if c not in cols]
    if missing:
        raise ValueError(f"missing column(s) {', '.join(missing)} (need t, {column})")
    unknown = [c for c in cols if c not in ("t", column)]
    if unknown:
        raise ValueError(f"unknown column(s) {', '.join(unknown)} (need t, {column})")
    try:
        t = np.asarray(cols["t"], dtype=float)
        v = np.asarray(cols[column], dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"columns t and {column} must be lists of numbers") from None
    return t, v


def load_payout(payout, length0: float, duration: float,
                base_dir: Path | None = None) -> Trajectory | None:
    """The deployed length ℓ(t) [m] of a payout schedule as a motion whose x is ℓ (None for
    tension control). Speed tables are integrated exactly from ℓ(0) = ``length0``; length
    tables must start at ``length0``. After a table's last row the winch stops.
    Raises ValueError naming the problem (the caller prefixes the key)."""
    if payout.tension_control is not None:
        return None
    if payout.length is not None:
        t, ell = _table(payout.length, "length", base_dir)
        motion = load_trajectory({"t": list(t), "x": list(ell), "y": [0.0] * t.size,
                                  "z": [0.0] * t.size}, payout.interpolation or "cubic")
        start = motion.evaluate(0.0)[0][0]
        if not math.isclose(start, length0, rel_tol=1e-9, abs_tol=1e-12):
            raise ValueError(f"the deployed length at t = 0 is {start:g} m but tether.length "
                             f"(the length deployed at the start) is {length0:g} m")
        return motion
    if isinstance(payout.speed, str | dict):
        t, v = _table(payout.speed, "speed", base_dir)
        if t.size and t[0] > 0.0:
            raise ValueError("the table must start at t <= 0")
    else:
        t = np.array([0.0, max(duration, 1.0) * 2.0])
        v = np.full(2, float(payout.speed))
    zeros = [0.0] * t.size
    return load_trajectory({"t": list(t), "vx": list(v), "vy": zeros, "vz": zeros},
                           "linear", origin=(length0, 0.0, 0.0))


def schedule_range(motion: Trajectory, duration: float) -> tuple[float, float, float, float]:
    """(smallest ℓ, its time, largest ℓ, its time) [m, s] of a schedule over [0, duration]."""
    t = np.union1d(np.linspace(0.0, duration, 4001),
                   motion.breaks[(motion.breaks >= 0.0) & (motion.breaks <= duration)])
    ell = np.array([motion.evaluate(float(x))[0][0] for x in t])
    i, j = int(np.argmin(ell)), int(np.argmax(ell))
    return float(ell[i]), float(t[i]), float(ell[j]), float(t[j])


def payout_capacity(max_length: float, element_length: float) -> int:
    """Most live nodes a run can need when at most ``max_length`` [m] is deployed: one per
    element length, the winch node, and room for a winch element up to the split length."""
    return int(math.floor(max_length / element_length)) + 3


def winch_parameters(case, linear_mass: float, displaced: float, added_n: float,
                     added_t: float, added_per_element: bool) -> tuple[np.ndarray, np.ndarray,
                                                                        np.ndarray, int]:
    """(winch parameters, schedule breaks, schedule coeffs, node capacity) of a case; the
    parameters are all zero (W_ON = 0) without a winch.

    ``added_n``/``added_t``: the normal/tangential added mass per metre [kg/m];
    ``added_per_element``: the model stores added mass per element (lumped_mass) rather
    than per metre (higher_order).
    """
    w = np.zeros(N_WINCH)
    side = case.winch_side
    if side is None:
        return w, np.array([0.0, 1.0]), np.zeros((1, 3, 4)), case.model.elements + 1
    end = getattr(case, side)
    p = end.payout
    L_nom = case.tether.length / case.model.elements
    motion = case.payout_schedule
    lmin = p.min_length if p.min_length is not None else L_nom
    lmax = p.max_length or 0.0  # the drum: room for it all (a host may drive the payout)
    if motion is not None:
        lmax = max(lmax, case.payout_range[2])  # computed when the case was checked
    w[[W_ON, W_SIDE, W_LNOM, W_LO, W_HI]] = (1.0, 0.0 if side == "start" else 1.0, L_nom,
                                             p.element_band[0] * L_nom,
                                             p.element_band[1] * L_nom)
    w[[W_LMIN, W_LMAX]] = (lmin, p.max_length if p.max_length is not None else math.inf)
    w[[W_MPL, W_VPL, W_ADDN, W_ADDT, W_SCALE]] = (linear_mass, displaced, added_n, added_t,
                                                  float(added_per_element))
    # EA and the net weight per metre (weight less buoyancy) [N/m] place a split's new node
    t = case.tether
    w[W_EA] = t.EA or 0.0
    net = linear_mass - case.environment.fluid_density * displaced
    w[W_WX:W_WZ + 1] = net * np.asarray(case.environment.gravity, dtype=float)
    far = case.end if side == "start" else case.start
    w[W_FAR] = far.mass if far.type == "free" else 0.0  # structural mass of a far-end body
    tc = p.tension_control
    if tc is not None:
        w[W_MODE] = STEPPED if case.method == "generalized_alpha" else CONTROL
        w[[W_TARGET, W_KP, W_KI, W_VMAX, W_AMAX, W_TAU]] = (
            tc.target, tc.kp, tc.ki, tc.max_speed, tc.max_acceleration, tc.response_time)
        # STEPPED: the segment [t_n, ∞) rewritten after every step (control_segment)
        breaks, coeffs = np.array([0.0, math.inf]), np.zeros((1, 3, 4))
        coeffs[0, 0, 2:] = (p.initial_speed, case.tether.length)
    else:
        breaks, coeffs = motion.breaks, motion.coeffs
    cap = payout_capacity(max(lmax, case.tether.length), L_nom)
    w[W_SLOTS] = cap + 1
    return w, np.ascontiguousarray(breaks), np.ascontiguousarray(coeffs), cap


# -- compiled kernels -------------------------------------------------------------------
# the pseudo-node is slot ns − 1: y[3(ns−1)] = ℓ, +1 = ∫∫e, +2 = n_active; velocities
# y[3ns + 3(ns−1)] = ṡ, +1 = ∫e


@inline_kernel
def active_nodes(y, ns, winch):
    """Live nodes of state y (all ``ns`` node rows without a winch)."""
    if winch[W_ON] == 0.0:
        return ns
    return int(y[3 * (ns - 1) + 2] + 0.5)


@inline_kernel
def winch_nodes(n, winch):
    """(winch node W, its neighbour P, the winch element) for n live nodes."""
    if winch[W_SIDE] == 0.0:
        return 0, 1, 0
    return n - 1, n - 2, n - 2


@kernel
def payout_state(t, y, ns, winch, wbreaks, wcoeffs, motion, out):
    """Deployed length ℓ [m], payout speed ṡ [m/s] and schedule acceleration s̈ [m/s²]
    into out[0:3] (controller: ℓ and ṡ from the state, s̈ from :func:`control_rate`)."""
    if winch[W_MODE] == SCHEDULE:
        eval_motion(wbreaks, wcoeffs, t, motion)
        # less the slack splits and merges moved to the drum (remesh_nodes), kept in ∫∫e's
        # slot
        out[0] = motion[0, 0] - y[3 * (ns - 1) + 1]
        out[1] = motion[1, 0]
        out[2] = motion[2, 0]
    else:
        out[0] = y[3 * (ns - 1)]
        out[1] = y[3 * ns + 3 * (ns - 1)]
        # STEPPED: the acceleration commanded for the current step (enforce_payout holds
        # ℓ and ṡ on its segment)
        out[2] = 2.0 * wcoeffs[0, 0, 1] if winch[W_MODE] == STEPPED else 0.0


@kernel
def enforce_payout(t, y, ns, winch, wbreaks, wcoeffs, wmotion, wstate):
    """The held drum coordinates ℓ, ṡ of a schedule (or of the STEPPED controller's current
    segment) at time t into the state (the models' ``enforce``)."""
    if winch[W_MODE] == CONTROL:
        return
    p = 3 * (ns - 1)
    if winch[W_MODE] == SCHEDULE:
        payout_state(t, y, ns, winch, wbreaks, wcoeffs, wmotion, wstate)
        y[p] = wstate[0]
        y[3 * ns + p] = wstate[1]
    else:
        eval_motion(wbreaks, wcoeffs, t, wmotion)
        y[p] = wmotion[0, 0]
        y[3 * ns + p] = wmotion[1, 0]


@kernel
def control_rate(winch, ell, speed, integral, tension):
    """The controller's drum acceleration s̈ [m/s²] and the rate of its error integral:
    v_cmd = sat(kp e + ki ∫e, max_speed), e = T − target; s̈ = sat((v_cmd − ṡ)/τ,
    max_acceleration); at a length limit the command cannot drive further out (in).
    Integration stops while the command saturates (anti-windup)."""
    e = tension - winch[W_TARGET]
    vmax = winch[W_VMAX]
    v = winch[W_KP] * e + winch[W_KI] * integral
    de = e
    if v > vmax:
        v = vmax
        if e > 0.0:
            de = 0.0
    elif v < -vmax:
        v = -vmax
        if e < 0.0:
            de = 0.0
    if ell >= winch[W_LMAX] and v > 0.0:
        v = 0.0
    if ell <= winch[W_LMIN] and v < 0.0:
        v = 0.0
    a = (v - speed) / winch[W_TAU]
    amax = winch[W_AMAX]
    if a > amax:
        a = amax
    elif a < -amax:
        a = -amax
    # at a limit the drum brakes (at least at its response rate) rather than run beyond it;
    # it may always move back inside
    if ell >= winch[W_LMAX] and speed > 0.0:
        a = min(a, -speed / winch[W_TAU])
    if ell <= winch[W_LMIN] and speed < 0.0:
        a = max(a, -speed / winch[W_TAU])
    return a, de


@kernel
def set_winch_element(n, ell, speed, winch, elem, node):
    """Unstretched length [m] and its rate, added mass and the lumped masses of the winch
    element and its two nodes for deployed length ell [m] paid out at ``speed`` [m/s]
    (every other element is L_nom); returns L_w."""
    L_nom = winch[W_LNOM]
    L_w = ell - (n - 2) * L_nom
    iw, ip, e = winch_nodes(n, winch)
    elem[e, L0] = L_w
    elem[e, LDOT] = speed
    if winch[W_SCALE] != 0.0:
        elem[e, ADDED_N] = winch[W_ADDN] * L_w  # seed 004 eq. (2.14) for the element
        elem[e, ADDED_T] = winch[W_ADDT] * L_w
    other = L_nom if n >= 3 else 0.0
    # half of every element on each of its nodes, seed 004 eq. (2.15)
    node[iw, MASS] = 0.5 * winch[W_MPL] * L_w
    node[iw, VOLUME] = 0.5 * winch[W_VPL] * L_w
    node[ip, MASS] = 0.5 * winch[W_MPL] * (L_w + other)
    node[ip, VOLUME] = 0.5 * winch[W_VPL] * (L_w + other)
    return L_w


@kernel
def relayout(n, ell, winch, elem, node, held, held_start, held_end):
    """Element and node tables (and the held coordinates) for n live nodes: every element
    L_nom but the winch element; rows beyond the live ones zeroed. ``held`` (3 per node
    row) marks the two end nodes when they are held (``held_start``/``held_end``: 0/1),
    every dead node row, and the pseudo-node's count (and ℓ under a schedule)."""
    L_nom = winch[W_LNOM]
    ns = int(winch[W_SLOTS])
    for e in range(elem.shape[0]):
        live = e < n - 1
        L = L_nom if live else 0.0
        elem[e, L0] = L if live else 1.0  # dead rows: a harmless positive length
        elem[e, LDOT] = 0.0
        if winch[W_SCALE] != 0.0:
            elem[e, ADDED_N] = winch[W_ADDN] * L
            elem[e, ADDED_T] = winch[W_ADDT] * L
    for i in range(node.shape[0]):
        node[i, MASS] = 0.0
        node[i, VOLUME] = 0.0
    for e in range(n - 1):
        for i in (e, e + 1):
            node[i, MASS] += 0.5 * winch[W_MPL] * L_nom
            node[i, VOLUME] += 0.5 * winch[W_VPL] * L_nom
    set_winch_element(n, ell, 0.0, winch, elem, node)  # the rate: set by every evaluation
    for i in range(3 * ns):
        held[i] = 0
    for i in range(n, ns - 1):  # dead rows are frozen
        for a in range(3):
            held[3 * i + a] = 1
    for a in range(3):
        held[a] = held_start
        held[3 * (n - 1) + a] = held_end
    # the pseudo-node: the count is never integrated; ℓ and ∫∫e only in control mode
    sched = 0 if winch[W_MODE] == CONTROL else 1
    held[3 * (ns - 1)] = sched
    held[3 * (ns - 1) + 1] = sched
    held[3 * (ns - 1) + 2] = 1


@inline_kernel
def material_velocity(pos, vel, iw, ip, speed, L_w, out):
    """Velocity u [m/s] of the tether material at the winch: the winch's velocity plus the
    stretched payout speed ṡ (1 + ε) along the winch element, away from the winch:
    u = v_W + (ṡ / L_w)(r_P − r_W), L_w its unstretched length [m]."""
    s = speed / L_w
    for a in range(3):
        out[a] = vel[iw, a] + s * (pos[ip, a] - pos[iw, a])


@inline_kernel
def material_acceleration(pos, vel, acc_w, iw, ip, speed, accel, L_w, out):
    """Acceleration [m/s²] of the material at the winch, the rate of
    :func:`material_velocity` with dL_w/dt = ṡ: a_W + ((s̈ − ṡ²/L_w)/L_w) Δr + (ṡ/L_w) Δv."""
    c = (accel - speed * speed / L_w) / L_w
    s = speed / L_w
    for a in range(3):
        out[a] = (acc_w[a] + c * (pos[ip, a] - pos[iw, a])
                  + s * (vel[ip, a] - vel[iw, a]))


@kernel
def winch_thrust(n, winch, pos, vel, speed, L_w, force, tmp):
    """Add the thrust (ṁ/2)(u − v_P) of the material the winch node's neighbour gains (or
    loses) to its load ``force`` [N] (Meshchersky's variable-mass equation); tmp: 3 floats."""
    iw, ip, _ = winch_nodes(n, winch)
    material_velocity(pos, vel, iw, ip, speed, L_w, tmp)
    mdot = 0.5 * winch[W_MPL] * speed
    for a in range(3):
        force[ip, a] += mdot * (tmp[a] - vel[ip, a])


@kernel
def winch_rates(t, y, ns, winch, tension, ell, speed, accel, dydt):
    """Rates of the pseudo-node: dℓ/dt = ṡ, dṡ/dt = s̈ (schedule) or the controller's, and
    the error integrals (controller); ``tension`` [N]: the winch element's."""
    p = 3 * (ns - 1)
    v = 3 * ns + p
    dydt[p] = speed
    dydt[p + 2] = 0.0
    dydt[v + 2] = 0.0
    if winch[W_MODE] != CONTROL:
        dydt[p + 1] = 0.0
        dydt[v] = accel
        dydt[v + 1] = 0.0
    else:
        a, de = control_rate(winch, ell, speed, y[v + 1], tension)
        dydt[p + 1] = y[v + 1]
        dydt[v] = a
        dydt[v + 1] = de


@kernel
def remesh_nodes(t, y, ns, winch, elem, node, held, held_start, held_end, out3, r2,
                 on_spline):
    """Split or merge the winch element when it leaves the band (after an accepted step).

    Returns 1 when the layout changed (y rewritten), else 0. Mass and momentum are
    conserved (module docstring); ``out3``: 9 floats of work. ``on_spline`` (higher_order,
    whose strain is the spline's arc length): the split's node goes on the element's
    cubic (seed 004 eq. 3.11, with the nodal curvature vectors ``r2`` of the last
    evaluation) at its material point, and a merge keeps the material (the new spline
    through the remaining nodes follows the old path); otherwise the chord rules below.
    """
    n = active_nodes(y, ns, winch)
    p = 3 * (ns - 1)
    ell = y[p]
    speed = y[3 * ns + p]
    L_nom = winch[W_LNOM]
    L_w = ell - (n - 2) * L_nom
    cap = ns - 1
    vo = 3 * ns  # velocity block offset
    if L_w > winch[W_HI] and n < cap:
        # split: a new node X on the winch element, L_w − L_nom from the winch
        if on_spline:  # X on the old cubic, before the rows move
            a0, b0 = (0, 1) if winch[W_SIDE] == 0.0 else (n - 2, n - 1)
            x = (L_w - L_nom) / L_w if winch[W_SIDE] == 0.0 else L_nom / L_w
            _spline_point(y, r2, a0, b0, L_w, x, out3[6:9])
        if winch[W_SIDE] == 0.0:
            for i in range(n - 1, 0, -1):  # shift nodes 1 … n−1 up by one
                for a in range(3):
                    y[3 * (i + 1) + a] = y[3 * i + a]
                    y[vo + 3 * (i + 1) + a] = y[vo + 3 * i + a]
            iw, ix, ip = 0, 1, 2
        else:
            for a in range(3):  # the winch node moves up one row
                y[3 * n + a] = y[3 * (n - 1) + a]
                y[vo + 3 * n + a] = y[vo + 3 * (n - 1) + a]
            iw, ix, ip = n, n - 1, n - 2
        iq = ip + 1 if winch[W_SIDE] == 0.0 else ip - 1  # P's other neighbour (n >= 3)
        L_x = L_w - L_nom  # the new winch element
        mpl = winch[W_MPL]
        u_old = out3[3:6]
        _uvec(y, vo, iw, ip, speed, L_w, u_old)  # the material velocity before the split
        # X's position (balanced, see _split_position) into its own row; the slack a sag
        # needs comes off the drum
        if on_spline:
            extra = 0.0
            for a in range(3):
                out3[a] = out3[6 + a]
        else:
            extra = _split_position(y, iw, ip, iq, n >= 3, L_x, L_nom, winch, out3)
        for a in range(3):
            y[3 * ix + a] = out3[a]
        L_x2 = L_x + extra
        if winch[W_MODE] == SCHEDULE:
            y[p + 1] -= extra
        else:
            y[p] += extra
        ell += extra
        _uvec(y, vo, iw, ix, speed, L_x2, out3)  # ... and after it
        # X's velocity conserves momentum: W's lump (at u) and P's share of the old element
        # give up what W's new lump (at u') keeps; the slack arrives at u
        m_x = 0.5 * mpl * (L_x2 + L_nom)
        for a in range(3):
            y[vo + 3 * ix + a] = (0.5 * mpl * (L_w + 2.0 * extra) * u_old[a]
                                  + 0.5 * mpl * L_x * y[vo + 3 * ip + a]
                                  - 0.5 * mpl * L_x2 * out3[a]) / m_x
        n += 1
    elif L_w < winch[W_LO] and n > 2:
        # merge: remove the neighbour P; its far neighbour Q takes the momentum
        if winch[W_SIDE] == 0.0:
            iw, ip, iq = 0, 1, 2
        else:
            iw, ip, iq = n - 1, n - 2, n - 3
        mpl = winch[W_MPL]
        m_w = 0.5 * mpl * L_w
        m_p = 0.5 * mpl * (L_w + L_nom)
        far = iq == n - 1 if winch[W_SIDE] == 0.0 else iq == 0
        # Q's structural mass: half of each of its elements (L_nom) plus a far-end body
        m_q = 0.5 * mpl * L_nom * (1.0 if far else 2.0) + (winch[W_FAR] if far else 0.0)
        # the merged element spans the chord W→Q, shorter than the path W→P→Q when P is
        # off the chord: at the path's mean strain it holds a little less material, and
        # that slack d goes back onto the drum. Otherwise a kink of a millimetre would drop
        # the tension of a stiff tether by tens of percent (docs/winch.md)
        l_wp = _dist(y, iw, ip)
        strain = (l_wp + _dist(y, ip, iq)) / (L_w + L_nom) - 1.0
        L_m = L_w + L_nom
        if strain > 0.0 and not on_spline:
            L_m = min(L_m, _dist(y, iw, iq) / (1.0 + strain))
        slack = L_w + L_nom - L_m
        _uvec(y, vo, iw, ip, speed, L_w, out3)
        # momentum of W, P, Q less that of the slack reeled back in with the material at u
        mom0 = (m_w - mpl * slack) * out3[0] + m_p * y[vo + 3 * ip] + m_q * y[vo + 3 * iq]
        mom1 = ((m_w - mpl * slack) * out3[1] + m_p * y[vo + 3 * ip + 1]
                + m_q * y[vo + 3 * iq + 1])
        mom2 = ((m_w - mpl * slack) * out3[2] + m_p * y[vo + 3 * ip + 2]
                + m_q * y[vo + 3 * iq + 2])
        m_w2 = 0.5 * mpl * L_m
        _uvec(y, vo, iw, iq, speed, L_m, out3)
        m_q2 = m_q + 0.5 * mpl * (L_m - L_nom)
        if winch[W_MODE] == SCHEDULE:
            y[p + 1] += slack  # the schedule's deployed length, less the slack returned
        else:
            y[p] -= slack
        ell -= slack
        y[vo + 3 * iq] = (mom0 - m_w2 * out3[0]) / m_q2
        y[vo + 3 * iq + 1] = (mom1 - m_w2 * out3[1]) / m_q2
        y[vo + 3 * iq + 2] = (mom2 - m_w2 * out3[2]) / m_q2
        if winch[W_SIDE] == 0.0:
            for i in range(2, n):  # shift nodes 2 … n−1 down by one
                for a in range(3):
                    y[3 * (i - 1) + a] = y[3 * i + a]
                    y[vo + 3 * (i - 1) + a] = y[vo + 3 * i + a]
        else:
            for a in range(3):
                y[3 * (n - 2) + a] = y[3 * (n - 1) + a]
                y[vo + 3 * (n - 2) + a] = y[vo + 3 * (n - 1) + a]
        n -= 1
        for a in range(3):
            y[3 * n + a] = 0.0
            y[vo + 3 * n + a] = 0.0
    else:
        return 0
    y[p + 2] = float(n)
    relayout(n, ell, winch, elem, node, held, held_start, held_end)
    return 1


@inline_kernel
def _spline_point(y, r2, a, b, h, x, out):
    """The point at x ∈ [0, 1] of the element from node a to node b (unstretched length h)
    on the cubic through their positions and curvature vectors r2 — seed 004 eq. (3.11)."""
    c1 = 1.0 - x
    c2 = h * h * (c1 * c1 * c1 - c1) / 6.0
    c4 = h * h * (x * x * x - x) / 6.0
    for k in range(3):
        out[k] = c1 * y[3 * a + k] + c2 * r2[a, k] + x * y[3 * b + k] + c4 * r2[b, k]


@inline_kernel
def _dist(y, i, j):
    """Distance [m] between nodes i and j of state y."""
    dx = y[3 * j] - y[3 * i]
    dy = y[3 * j + 1] - y[3 * i + 1]
    dz = y[3 * j + 2] - y[3 * i + 2]
    return math.sqrt(dx * dx + dy * dy + dz * dz)


@inline_kernel
def _uvec(y, vo, iw, ip, speed, L_w, out):
    """Material velocity at the winch (as :func:`material_velocity`) read from the state,
    for a winch element of unstretched length L_w [m] from node iw to node ip."""
    s = speed / L_w
    for a in range(3):
        out[a] = y[vo + 3 * iw + a] + s * (y[3 * ip + a] - y[3 * iw + a])



# -- states and results (Python) --------------------------------------------------------


def initial_winch_state(case, ns: int, winch: np.ndarray, pos: np.ndarray,
                        vel: np.ndarray) -> np.ndarray:
    """The state at t = 0 with ``ns`` node rows: the starting nodes (pos, vel: (n, 3)), dead
    rows zero, and the pseudo-node ℓ = tether.length, ṡ(0) and the live count."""
    n0 = pos.shape[0]
    y = np.zeros(6 * ns)
    y[:3 * n0] = pos.ravel()
    y[3 * ns:3 * ns + 3 * n0] = vel.ravel()
    p = 3 * (ns - 1)
    y[p] = case.tether.length
    y[p + 2] = n0
    if winch[W_MODE] == SCHEDULE:
        y[3 * ns + p] = case.payout_schedule.evaluate(0.0)[1][0]
    else:
        y[3 * ns + p] = getattr(case, case.winch_side).payout.initial_speed
    return y


def live_nodes(Y: np.ndarray, ns: int) -> np.ndarray:
    """Live node count of each state row of Y (k, state size) with ``ns`` node rows."""
    return np.rint(Y[:, 3 * (ns - 1) + 2]).astype(int)


def winch_outputs(winch: np.ndarray, wout: np.ndarray, n_nodes: int) -> dict:
    """The variable-length results (results-format.md) from the diagnostics' per-instant
    [live nodes, ℓ, ṡ, momentum (3)]: ``arc_length(time, node)``, ``active(time, node)``,
    ``deployed_length``, ``payout_speed`` and ``momentum``."""
    live = np.rint(wout[:, 0]).astype(int)
    ell = wout[:, 1].copy()
    L_nom = winch[W_LNOM]
    k = live.size
    arc = np.full((k, n_nodes), np.nan)
    for j in range(k):
        n = live[j]
        s = np.arange(n) * L_nom
        if winch[W_SIDE] == 0.0:  # the winch element first
            s[1:] += ell[j] - (n - 1) * L_nom
        else:
            s[-1] = ell[j]
        arc[j, :n] = s
    active = np.arange(n_nodes)[None, :] < live[:, None]
    return {
        "arc_length": (("time", "node"), arc, {
            "units": "m", "long_name": "unstretched arc length of each node from the start "
            "end (NaN: inactive node)"}),
        "active": (("time", "node"), active, {
            "units": "1", "long_name": "node is deployed (live); inactive entries are NaN "
            "padding"}),
        "deployed_length": (("time",), ell, {
            "units": "m", "long_name": "unstretched length of tether deployed from the winch"}),
        "payout_speed": (("time",), wout[:, 2].copy(), {
            "units": "m/s", "long_name": "rate of change of the deployed length (> 0: paying "
            "out)"}),
        "momentum": (("time", "axis"), wout[:, 3:6].copy(), {
            "units": "kg m/s", "long_name": "linear momentum of the deployed tether and its "
            "far-end body (structural mass; the winch node's share at the material velocity)"}),
    }


@inline_kernel
def split_node_weight(winch, L_w, tx, ty, tz):
    """The net weight [N] (weight less buoyancy) of a split's new node, half of the old
    winch element of unstretched length L_w, along the unit vector t (from the winch)."""
    return 0.5 * L_w * (winch[W_WX] * tx + winch[W_WY] * ty + winch[W_WZ] * tz)


@inline_kernel
def _split_position(y, iw, ip, iq, has_q, L_x, L_nom, winch, out):
    """Where the split's new node X goes [m], into out (3); returns the unstretched length
    [m] the new winch element takes from the drum besides L_x (0 on the chord).

    At X's material point on the chord (L_x / L_w from W) both new strains equal the old
    one, but X is out of balance: the load its lump carries, which W and P held before,
    steps onto the winch (m'g L_nom / 2 for a hanging tether: 1 % of the tension in the
    lowering row) and, on a curved tether, X swings across the chord (3 % of the tension
    in a current). So X goes where its two elastic tensions (T = EA ε) balance that load
    F_X:

    * along the chord, its lumped net weight w_X: T_WX − T_XP = w_X·t̂, i.e.
      f (1/L_x + 1/L_nom) = w_X·t̂/(EA l) + 1/L_nom;
    * across it, P's load now (the opposite of the net pull of its two elements: weight,
      buoyancy, drag) scaled to X's share of tether (L_w against L_w + L_nom), which sags
      X by δ = F_X⊥ a b / (T l), a string under tension T over a + b = l.

    The sag makes the pieces longer than the chord: X–P keeps its planned length (its
    unstretched length is L_nom, like every element but the winch's), and the winch
    element takes the extra material at its planned strain, off the drum (a fraction of a
    millimetre; a stiff tether would otherwise turn it into a tension step). Without P's
    other neighbour, without EA, or when slack: the material point on the chord (and no
    sag); the sag is capped (below)."""
    L_w = L_x + L_nom
    f0 = L_x / L_w
    for a in range(3):
        out[a] = y[3 * iw + a] + f0 * (y[3 * ip + a] - y[3 * iw + a])
    ea = winch[W_EA]
    if ea <= 0.0 or not has_q:
        return 0.0
    cx = y[3 * ip] - y[3 * iw]
    cy = y[3 * ip + 1] - y[3 * iw + 1]
    cz = y[3 * ip + 2] - y[3 * iw + 2]
    chord = math.sqrt(cx * cx + cy * cy + cz * cz)
    lq = _dist(y, ip, iq)
    T = ea * (chord / L_w - 1.0)  # the winch element's tension
    Tq = ea * (lq / L_nom - 1.0)  # P's other element's
    if T <= 0.0 or Tq <= 0.0:
        return 0.0
    tx = cx / chord
    ty = cy / chord
    tz = cz / chord
    # P's load: minus the pulls of its elements, towards W (−t̂) and towards Q
    s = L_w / (L_w + L_nom)
    fx = s * (T * tx - Tq * (y[3 * iq] - y[3 * ip]) / lq)
    fy = s * (T * ty - Tq * (y[3 * iq + 1] - y[3 * ip + 1]) / lq)
    fz = s * (T * tz - Tq * (y[3 * iq + 2] - y[3 * ip + 2]) / lq)
    along = fx * tx + fy * ty + fz * tz
    # along the chord only X's net weight: P's axial load also holds its inertia along the
    # tether (payout accelerating or the strain waves), which is no load X should carry
    wt = split_node_weight(winch, L_w, tx, ty, tz)
    f = (wt / (ea * chord) + 1.0 / L_nom) / (1.0 / L_x + 1.0 / L_nom)
    a_len = f * chord
    b_len = (1.0 - f) * chord
    if a_len <= L_x or b_len <= L_nom:
        return 0.0  # the balance would slacken a piece: keep the material point
    # the sag across the chord, at most 3 % of the shorter piece: the sag turns X's
    # velocity (set by momentum) off its new elements, and the Voigt damping of that
    # strain rate steps the winch force by ~ C ṡ θ²/2 L_x (1 % at 0.09 rad in the current
    # case of the split/merge row); capped, both the step and the swing stay below 1 %
    c = a_len * b_len / (T * chord)
    sx = c * (fx - along * tx)
    sy = c * (fy - along * ty)
    sz = c * (fz - along * tz)
    sag = math.sqrt(sx * sx + sy * sy + sz * sz)
    cap = 0.03 * min(a_len, b_len)
    if sag > cap:
        sx *= cap / sag
        sy *= cap / sag
        sz *= cap / sag
    # X on the sphere of radius b around P, in the direction of the sagged point
    dx = y[3 * iw] + f * cx + sx - y[3 * ip]
    dy = y[3 * iw + 1] + f * cy + sy - y[3 * ip + 1]
    dz = y[3 * iw + 2] + f * cz + sz - y[3 * ip + 2]
    k = b_len / math.sqrt(dx * dx + dy * dy + dz * dz)
    out[0] = y[3 * ip] + k * dx
    out[1] = y[3 * ip + 1] + k * dy
    out[2] = y[3 * ip + 2] + k * dz
    # the winch element at its planned strain a/L_x − 1 over its longer chord
    l_a = math.sqrt((out[0] - y[3 * iw]) ** 2 + (out[1] - y[3 * iw + 1]) ** 2
                    + (out[2] - y[3 * iw + 2]) ** 2)
    return l_a * L_x / a_len - L_x


# -- results (compiled: called by the models' diagnostics) ------------------------------


@kernel
def winch_material(n, ns, winch, elem, pos, vel, dydt, speed, u, du):
    """The material's velocity u and acceleration du [m/s, m/s²] at the winch for a state
    whose rates are ``dydt`` (``ns`` node rows); returns the winch node's index."""
    iw, ip, ew = winch_nodes(n, winch)
    L_w = elem[ew, L0]
    material_velocity(pos, vel, iw, ip, speed, L_w, u)
    base = 3 * ns + 3 * iw
    material_acceleration(pos, vel, dydt[base:base + 3], iw, ip, speed,
                          dydt[3 * ns + 3 * (ns - 1)], L_w, du)
    return iw


@kernel
def winch_record(n, winch, node, vel, u, wstate, row):
    """One instant's winch results into ``row`` (6): live nodes, ℓ [m], ṡ [m/s] and the
    momentum [kg m/s] of the deployed tether and its far-end body (structural mass, the
    winch node's lump at the material velocity u)."""
    iw = winch_nodes(n, winch)[0]
    far = n - 1 if winch[W_SIDE] == 0.0 else 0
    row[0] = n
    row[1] = wstate[0]
    row[2] = wstate[1]
    for a in range(3):
        p = 0.0
        for i in range(n):
            m = node[i, MASS] + (winch[W_FAR] if i == far else 0.0)
            p += m * (u[a] if i == iw else vel[i, a])
        row[3 + a] = p


@inline_kernel
def winch_update(t, y, ns, winch, elem, node, held, held_start, held_end, wbreaks, wcoeffs,
                 wmotion, wstate):
    """Every evaluation of a winch model (the models' ``_prepare``): the live node count of
    y, the layout tables for it when the last evaluation had another (a split, a merge, an
    output row), the payout state into ``wstate`` and the winch element at time t.
    Returns (live nodes, the winch element's unstretched length [m])."""
    n = active_nodes(y, ns, winch)
    if wstate[3] != n:
        relayout(n, y[3 * (ns - 1)], winch, elem, node, held, held_start, held_end)
        wstate[3] = n
    payout_state(t, y, ns, winch, wbreaks, wcoeffs, wmotion, wstate)
    return n, set_winch_element(n, wstate[0], wstate[1], winch, elem, node)


#: a node-row model's layout with its winch (winch_setup): the packed parameters, the
#: payout schedule, the state's node rows ``slots`` (capacity + the pseudo-node with a
#: winch, else the nodes), and what the model takes from it: ``on`` (a winch), its most
#: elements and live nodes, and ``n_q`` (3 per node row)
WinchLayout = namedtuple("WinchLayout", ["params", "breaks", "coeffs", "slots", "on",
                                         "n_elements", "n_nodes", "n_q"])


def winch_setup(case, added_per_element: bool, on_spline: bool = False) -> WinchLayout:
    """A node-row model's winch layout (:data:`WinchLayout`; all zero parameters, the node
    count and no pseudo-node without a winch). ``on_spline``: the model's strain is the arc
    length of its spline (splits and merges keep it there, :func:`remesh_nodes`)."""
    t = case.tether
    N = case.model.elements
    rho = case.environment.fluid_density
    winch, wbreaks, wcoeffs, cap = winch_parameters(
        case, t.linear_mass, t.displaced, rho * t.ca_normal * t.displaced,
        rho * t.ca_tangential * t.displaced, added_per_element=added_per_element)
    on = bool(winch[W_ON])
    winch[W_SPLINE] = float(on_spline and on)
    ns = cap + 1 if on else N + 1
    return WinchLayout(params=winch, breaks=wbreaks, coeffs=wcoeffs, slots=ns, on=on,
                       n_elements=cap - 1 if on else N, n_nodes=cap if on else N + 1,
                       n_q=3 * ns)


@kernel
def control_segment(t, y, ns, winch, tension, wbreaks, wcoeffs):
    """STEPPED mode, after an accepted step at time t: the controller's command from the
    winch element's ``tension`` [N] (the last evaluation's), its error integral advanced by
    explicit Euler over the step, and the drum's segment for the next step rewritten:
    ℓ(t + τ) = ℓ + ṡ τ + ½ s̈ τ² from the state's ℓ and ṡ."""
    p = 3 * (ns - 1)
    v = 3 * ns + p
    h = t - wbreaks[0]
    a, de = control_rate(winch, y[p], y[v], y[v + 1], tension)
    y[v + 1] += de * h
    wbreaks[0] = t
    wcoeffs[0, 0, 0] = 0.0
    wcoeffs[0, 0, 1] = 0.5 * a
    wcoeffs[0, 0, 2] = y[v]
    wcoeffs[0, 0, 3] = y[p]
