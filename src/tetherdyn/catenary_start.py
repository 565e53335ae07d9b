"""Analytic starting shapes for the static solver (statics.solve, issue 18).

:func:`start_nodes` gives node positions [m] at the model's node arc lengths from closed
forms, before any Newton iteration:

* two held ends: the elastic catenary through them (analytic.elastic_catenary, Irvine
  1981 ch. 1) under the line's wet weight per metre plus the normal drag of a uniform
  current on the chord (the catenary's plane holds the chord and that load); with a flat
  seabed under the lower end the catenary with a grounded length
  (analytic.seabed_catenary, frictionless, Jonkman 2007 ch. 4); a taut line (length <
  chord) comes out straight and stretched from the same closed form;
* two held ends on one vertical: a hanging "U" (two vertical branches, their lengths from
  the height difference), its surplus laid out and back on the seabed where one is;
* one held end, one free: the line hangs along the load of everything below it (wet
  weight of the nodes in their medium, the current's drag on each element at its
  orientation, the payload's wet weight, drag and applied force): the discrete chain's
  own equilibrium (each element parallel to the load it carries, stretched by T/EA),
  found by a few fixed-point passes over the orientation-dependent drag and the water
  level; nodes below a seabed are laid on it.

Everything here is a guess for Newton (statics.py): exact for the lumped chain hanging
under weight and end loads alone, within the discretisation error otherwise.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .case import Case

__all__ = ["start_nodes", "load_direction"]

#: fixed-point passes of the free-hanging shape (drag orientation, water level)
PASSES = 30


def _down(case: Case) -> np.ndarray:
    g = np.asarray(case.environment.gravity, dtype=float)
    n = float(np.linalg.norm(g))
    return g / n if n > 0 else np.array([0.0, 0.0, -1.0])


def _rho_at(case: Case, z: np.ndarray) -> np.ndarray:
    """Density [kg/m³] of the medium at heights z [m]: fluid below the water level (or
    everywhere without one), air above."""
    env = case.environment
    rho = np.full(np.shape(z), float(env.fluid_density))
    if env.water_level is not None:
        rho = np.where(np.asarray(z) > float(env.water_level), env.air, rho)
    return rho


def _current(case: Case) -> np.ndarray:
    u = case.environment.uniform_current
    return np.zeros(3) if u is None else np.asarray(u, dtype=float)


def _wet_in(case: Case, z: np.ndarray) -> np.ndarray:
    """Whether heights z [m] are in the water (drag of the current acts)."""
    wl = case.environment.water_level
    return np.ones(np.shape(z), bool) if wl is None else np.asarray(z) <= float(wl)


def _bed_z(case: Case, xy: np.ndarray) -> np.ndarray | None:
    bed = case.environment.seabed
    if bed is None:
        return None
    if bed.flat:
        return np.full(len(xy), float(bed.z))
    from .estimates import seabed_heights

    return seabed_heights(case, xy)


def load_direction(case: Case, chord: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """(unit vector, magnitude [N/m]) of the distributed load on the line: wet weight per
    metre (the fluid's density; the air's when both held ends are above the water level)
    plus the normal drag ½ ρ cd_n d |U_n| U_n of a uniform current U on a still line
    along ``chord`` (the whole current when no chord is given)."""
    t, env = case.tether, case.environment
    g = np.asarray(env.gravity, dtype=float)
    rho = float(env.fluid_density)
    p = (t.linear_mass - rho * t.displaced) * g
    u = _current(case)
    if chord is not None and np.linalg.norm(chord) > 0:
        c = chord / np.linalg.norm(chord)
        u = u - (u @ c) * c
    p = p + 0.5 * rho * t.cd_normal * t.diameter * float(np.linalg.norm(u)) * u
    m = float(np.linalg.norm(p))
    return (p / m if m > 0 else _down(case)), m


def _perpendicular(v: np.ndarray) -> np.ndarray:
    a = np.array([1.0, 0.0, 0.0]) if abs(v[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    p = a - (a @ v) * v
    return p / np.linalg.norm(p)


def _two_ends(case: Case, s: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Nodes at unstretched arc lengths s between held ends a (s = 0) and b (s = L)."""
    from .analytic import elastic_catenary, seabed_catenary

    t = case.tether
    L = t.length
    EA = t.EA or math.inf
    chord = b - a
    down, w = load_direction(case, chord)
    rise = -float(chord @ down)  # b above a, against the load
    horiz = chord + rise * down
    span = float(np.linalg.norm(horiz))
    cl = float(np.linalg.norm(chord))
    dry = t.linear_mass * float(np.linalg.norm(case.environment.gravity))
    weightless = w <= 1e-9 * dry or w == 0.0
    if weightless and L <= cl:  # taut and weightless: straight, stretched
        return a[None, :] + (s / L)[:, None] * chord[None, :]
    if weightless:
        # slack and weightless (or neutrally buoyant): no unique shape; any shape whose
        # elements keep their unstretched length is at rest. The inextensible chain under
        # a fictitious unit load along gravity (or the hint) is one.
        down = _down(case)
        rise = -float(chord @ down)
        span = float(np.linalg.norm(chord + rise * down))
        if span < 1e-6 * L:
            return _one_vertical(case, s, a, b, down)
        e_h = (chord + rise * down) / span
        try:
            sol = elastic_catenary(span, rise, L, 1.0, math.inf)
            pos = a[None, :] + sol.x(s)[:, None] * e_h[None, :] - sol.z(s)[:, None] * \
                down[None, :]
        except (ValueError, RuntimeError, ArithmeticError):
            return a[None, :] + (s / L)[:, None] * chord[None, :]
        unit = np.zeros((len(s), 3))
        unit[:] = down
        exact = _discrete_two_ends(case, s, a, b, pos, loads=unit, EA=math.inf)
        return pos if exact is None else exact
    if span < 1e-6 * L:
        return _one_vertical(case, s, a, b, down)
    e_h = horiz / span
    up = -down
    bed = _bed_z(case, np.array([a[:2], b[:2]]))
    low, high = (a, b) if rise >= 0 else (b, a)
    grounded = None
    if bed is not None and case.environment.seabed.flat and up[2] > 0.999:
        h = float(high[2] - bed[0])
        on_bed = abs(float(low[2] - bed[0])) <= 1e-3 * L
        if on_bed and h > 0:
            try:
                grounded = seabed_catenary(span, h, L, w, EA)
            except ValueError:
                grounded = None
    if grounded is not None:
        # anchor at the lower end: s' from there
        sp = s if rise >= 0 else L - s
        d = e_h if rise >= 0 else -e_h
        x, z = grounded.x(sp), grounded.z(sp)
        pos = low[None, :] + x[:, None] * d[None, :] + z[:, None] * up[None, :]
        return _on_bed(case, s, pos, grounded.grounded_length, rise >= 0, high)
    try:
        sol = elastic_catenary(span, rise, L, w, EA)
        x, z = sol.x(s), sol.z(s)
    except (ValueError, RuntimeError, ArithmeticError):
        # no closed form (e.g. an inextensible line shorter than the chord): a parabola
        x = span * s / L
        sag = 0.25 * math.sqrt(max(L * L - cl * cl, 0.0))
        z = rise * s / L - 4.0 * sag * (s / L) * (1.0 - s / L)
    pos = a[None, :] + x[:, None] * e_h[None, :] + z[:, None] * up[None, :]
    if bed is None:  # the discrete chain's own equilibrium from there
        exact = _discrete_two_ends(case, s, a, b, pos)
        if exact is not None:
            return exact
    if bed is not None:  # a catenary through the seabed: lay what dips below on it
        zb = _bed_z(case, pos[:, :2])
        pos[:, 2] = np.maximum(pos[:, 2], zb)
    return pos


def _on_bed(case: Case, s: np.ndarray, pos: np.ndarray, grounded_length: float,
            anchor_first: bool, high: np.ndarray) -> np.ndarray:
    """The seabed catenary's nodes refined for the lumped chain: the grounded nodes sink
    into the contact spring under their wet weight (w L_c / (kBot d L_c)), and the
    suspended part from the last grounded node up to the held end is the discrete chain's
    own equilibrium (:func:`_discrete_two_ends`)."""
    t, bed = case.tether, case.environment.seabed
    w = abs(t.linear_mass - case.environment.fluid_density * t.displaced) * float(
        np.linalg.norm(case.environment.gravity))
    sa = s if anchor_first else s[-1] - s
    on = sa <= grounded_length + 1e-9 * t.length
    if bed.stiffness > 0:
        pos[on, 2] -= w / (bed.stiffness * t.diameter)
    k = np.flatnonzero(on)
    if k.size == 0:
        return pos
    if anchor_first:
        i = int(k.max())
        part = _discrete_two_ends(case, s[i:], pos[i], high, pos[i:].copy())
        if part is not None:
            pos[i:] = part
    else:
        i = int(k.min())
        part = _discrete_two_ends(case, s[:i + 1], high, pos[i], pos[:i + 1].copy())
        if part is not None:
            pos[:i + 1] = part
    return pos


def _one_vertical(case: Case, s: np.ndarray, a: np.ndarray, b: np.ndarray,
                  down: np.ndarray) -> np.ndarray:
    """Two held ends on one vertical: straight (stretched) when the line is no longer
    than their distance, else a hanging U of two vertical branches a small distance
    apart; with a seabed the part that would dip below it is laid out and back on it."""
    L = case.tether.length
    chord = b - a
    cl = float(np.linalg.norm(chord))
    if L <= cl:
        return a[None, :] + (s / L)[:, None] * chord[None, :]
    rise = -float(chord @ down)  # b above a
    la = 0.5 * (L + rise)  # branch hanging from a
    side = _perpendicular(down)
    gap = 1e-3 * L
    bed = _bed_z(case, np.array([a[:2]]))
    depth_a = la
    lay = 0.0
    if bed is not None and down[2] < -0.999:
        below_a = float(a[2] - bed[0])
        below_b = float(b[2] - bed[0])
        if 0.0 <= below_a < la or 0.0 <= below_b < L - la:
            lay = max(L - below_a - below_b, 0.0)
            depth_a = below_a
    lb_ = L - depth_a - lay  # branch hanging from b
    pos = np.empty((len(s), 3))
    for k, sk in enumerate(s):
        if sk <= depth_a:
            pos[k] = a + sk * down
        elif sk <= depth_a + lay:  # out and back on the seabed (a hairpin)
            u = sk - depth_a
            out = min(u, lay - u)
            pos[k] = a + depth_a * down + out * side + gap * (u / max(lay, 1e-300)) * \
                np.cross(down, side)
        else:
            pos[k] = b + (L - sk) * down + gap * side * (lay == 0.0)
    pos[0], pos[-1] = a, b
    del lb_
    return pos


def _node_loads(case: Case, ds: np.ndarray, pos: np.ndarray, free_end) -> np.ndarray:
    """Static loads [N] (n, 3) on the nodes at ``pos`` [m] of a still line whose elements
    have unstretched lengths ``ds`` [m]: lumped wet weight in each node's medium (seed 004
    eq. 2.15-2.16), the cross-flow drag of a uniform current on each element at its
    orientation (half to each node), and at a free end (``free_end``, the last node; None:
    none) the payload's wet weight and drag and the applied force."""
    t, env = case.tether, case.environment
    n = len(pos)
    mass = np.zeros(n)
    vol = np.zeros(n)
    mass[:-1] += 0.5 * t.linear_mass * ds
    mass[1:] += 0.5 * t.linear_mass * ds
    vol[:-1] += 0.5 * t.displaced * ds
    vol[1:] += 0.5 * t.displaced * ds
    g = np.asarray(env.gravity, dtype=float)
    U = _current(case)
    rw = float(env.fluid_density)
    f = (mass - _rho_at(case, pos[:, 2]) * vol)[:, None] * g[None, :]
    if np.any(U):
        chordv = np.diff(pos, axis=0)
        cl = np.linalg.norm(chordv, axis=1)
        tang = chordv / np.where(cl > 0, cl, 1.0)[:, None]
        mid_wet = _wet_in(case, 0.5 * (pos[:-1, 2] + pos[1:, 2]))
        un = U[None, :] - (tang @ U)[:, None] * tang
        ut = (tang @ U)[:, None] * tang
        fe = (0.5 * rw * t.cd_normal * t.diameter * np.linalg.norm(un, axis=1)[:, None] * un
              + 0.5 * rw * t.cd_tangential * math.pi * t.diameter
              * np.linalg.norm(ut, axis=1)[:, None] * ut) * (ds * mid_wet)[:, None]
        f[:-1] += 0.5 * fe
        f[1:] += 0.5 * fe
    if free_end is not None:
        rho_end = float(_rho_at(case, np.array([pos[-1, 2]]))[0])
        f[-1] += free_end.body_masses(rho_end)[1] * g + np.asarray(free_end.force, float)
        if _wet_in(case, np.array([pos[-1, 2]]))[0]:
            f[-1] += 0.5 * rw * free_end.drag_area * float(np.linalg.norm(U)) * U
    return f


def _chain(top: np.ndarray, ds: np.ndarray, T: np.ndarray, EA: float,
           hint: np.ndarray) -> np.ndarray:
    """Nodes of a chain from ``top`` whose element k carries the tension vector T[k] [N]:
    along it, stretched by |T|/EA (seed 004 eq. 2.10); ``hint`` where T vanishes."""
    mag = np.linalg.norm(T, axis=1)
    dirs = np.where(mag[:, None] > 1e-12 * max(mag.max(), 1e-300),
                    T / np.where(mag > 0, mag, 1.0)[:, None], hint[None, :])
    stretch = 1.0 + (mag / EA if math.isfinite(EA) else 0.0)
    pos = np.empty((len(ds) + 1, 3))
    pos[0] = top
    pos[1:] = top + np.cumsum((ds * stretch)[:, None] * dirs, axis=0)
    return pos


def _discrete_two_ends(case: Case, s: np.ndarray, a: np.ndarray, b: np.ndarray,
                       pos: np.ndarray, loads: np.ndarray | None = None,
                       EA: float | None = None) -> np.ndarray | None:
    """The lumped chain's own equilibrium between held ends a and b, from the guess
    ``pos``: node k's balance T_k = T_{k-1} − f_k (f the node loads) leaves the first
    element's tension vector T_0 as the only unknown; three equations r_N(T_0) = b are
    solved by Newton (finite-difference 3×3 Jacobian), with the loads' dependence on the
    shape (drag orientation, water level) by fixed-point passes. Exact for lumped_mass
    under weight alone (validation/catenary.py's closed form is its planar case). None
    where it does not converge. ``loads`` (n, 3) [N] and ``EA`` [N] replace the case's
    (a fictitious load for a weightless line)."""
    t = case.tether
    if EA is None:
        EA = t.EA or math.inf
    ds = np.diff(s)
    L = float(s[-1] - s[0])
    chord = b - a
    hint = chord / max(float(np.linalg.norm(chord)), 1e-300)
    # T_0 from the guess: the first element's direction, its stretch or the load scale
    e0 = pos[1] - pos[0]
    l0 = float(np.linalg.norm(e0))
    f = _node_loads(case, ds, pos, None) if loads is None else loads
    scale = float(np.sum(np.linalg.norm(f, axis=1))) + 1e-300
    strain = l0 / ds[0] - 1.0
    T0 = e0 / max(l0, 1e-300) * (EA * strain if math.isfinite(EA) and strain > 0
                                 else scale)
    for _ in range(PASSES):
        C = np.cumsum(f[1:-1], axis=0)  # loads of nodes 1..k

        def end_of(T0v: np.ndarray, C: np.ndarray = C) -> np.ndarray:
            T = np.vstack([T0v[None, :], T0v[None, :] - C])
            return _chain(a, ds, T, EA, hint)[-1]

        ok = False
        for _it in range(60):
            r = end_of(T0) - b
            if float(np.linalg.norm(r)) <= 1e-13 * L:
                ok = True
                break
            J = np.empty((3, 3))
            h = 1e-7 * (float(np.linalg.norm(T0)) + scale)
            for j in range(3):
                Tp = T0.copy()
                Tp[j] += h
                J[:, j] = (end_of(Tp) - b - r) / h
            try:
                d = np.linalg.solve(J, -r)
            except np.linalg.LinAlgError:
                return None
            lam = 1.0
            nr = float(np.linalg.norm(r))
            while lam > 1e-4 and float(np.linalg.norm(end_of(T0 + lam * d) - b)) >= nr:
                lam *= 0.5
            if lam <= 1e-4:
                break
            T0 = T0 + lam * d
        if not ok:
            return None
        T = np.vstack([T0[None, :], T0[None, :] - C])
        new = _chain(a, ds, T, EA, hint)
        f_new = _node_loads(case, ds, new, None) if loads is None else loads
        moved = float(np.max(np.abs(new - pos)))
        pos, f = new, f_new
        if moved <= 1e-12 * L:
            break
    return pos


def _hanging(case: Case, s: np.ndarray, top: np.ndarray, from_start: bool) -> np.ndarray:
    """The free-hanging line from the held end ``top`` (the start when ``from_start``):
    each element parallel to the load it carries (everything beyond it), stretched by
    T / EA (seed 004 eq. 2.16 at rest), with the current's drag at each element's
    orientation and each node's medium found by fixed-point passes."""
    t, env = case.tether, case.environment
    L = t.length
    n = len(s)
    order = np.arange(n) if from_start else np.arange(n)[::-1]
    ds = np.abs(np.diff(s[order]))  # chain order: the held end first
    free_end = case.end if from_start else case.start
    EA = t.EA or math.inf
    # the hint (a weightless, unloaded line): the case's straight direction away from the
    # held end (initial.direction / angle_from_gravity_deg), else gravity
    from .initial import _straight_direction

    ini = case.initial
    hinted = ini.direction is not None or ini.angle_from_gravity_deg is not None
    hint = _straight_direction(case) if hinted else _down(case)
    if not from_start:
        hint = -hint
    pos = top[None, :] + np.concatenate([[0.0], np.cumsum(ds)])[:, None] * hint[None, :]
    for _ in range(PASSES):
        f = _node_loads(case, ds, pos, free_end)
        G = np.cumsum(f[::-1], axis=0)[::-1][1:]  # load carried by element k: nodes > k
        new = _chain(top, ds, G, EA, hint)
        if env.seabed is not None:
            zb = _bed_z(case, new[:, :2])
            new[:, 2] = np.maximum(new[:, 2], zb)
        done = np.max(np.abs(new - pos)) <= 1e-12 * L
        pos = new
        if done:
            break
    return pos if from_start else pos[::-1]


def start_nodes(case: Case, arc_length: np.ndarray, t: float = 0.0) -> np.ndarray:
    """Node positions [m] (n, 3) at unstretched arc lengths ``arc_length`` [m]: the
    analytic start of the module docstring, held ends where the case puts them at ``t``."""
    s = np.asarray(arc_length, dtype=float)
    a = case.end_state("start", t)
    b = case.end_state("end", t)
    if a is not None and b is not None:
        pos = _two_ends(case, s, a[0], b[0])
    elif a is not None:
        pos = _hanging(case, s, a[0], True)
    elif b is not None:
        pos = _hanging(case, s, b[0], False)
    else:  # both free: the case's straight line from its start position
        from .initial import _straight_direction

        pos = case.start_position[None, :] + s[:, None] * _straight_direction(case)[None, :]
    if a is not None:
        pos[0] = a[0]
    if b is not None:
        pos[-1] = b[0]
    return pos
