"""The sea around the tether (issue 17): media, current and wind profiles, the wetted
fraction and fluid load of one element, seabed contact and friction.

One compiled module every formulation calls (contract: /work/prompts/sea-api.md; the
rules, with the equations, in docs/sea.md). Everything here is allocation-free and writes
into caller-owned arrays. The arrays a formulation packs are built once by
:func:`sea_arrays` from the case's ``environment`` section (duck typed: no import of
case.py) under the field names :data:`SEA_FIELDS`.

Refinements of the contract (sea-core):

- ``element_fluid`` takes ``length0`` (the element's unstretched length [m]) after
  ``area``: buoyancy, Froude–Krylov and added mass act on the displaced volume
  ``area * length0`` (as the node masses and volumes of the formulations do, and as
  MoorDyn does), drag on the current length. Its ``out`` needs :data:`ELEMENT_OUT` entries
  (out[8:] is scratch).
- ``fluid_at``'s ``out`` needs :data:`FLUID_OUT` (8) entries.
- Power laws are evaluated exactly (no table): ``sea_par[CUR_LAW] == 1`` and the row
  ``sea_current[0]`` holds [reference_z, ux, uy, uz] at the reference height;
  :func:`flow_velocity` evaluates a profile from Python.
- The friction anchor stiffness is ``K_STICK * diameter * length`` with
  ``K_STICK = kBot`` (the contact's own stiffness: the stick displacement under the full
  friction force is mu times the contact penetration; docs/sea.md).
"""

from __future__ import annotations

import math

import numpy as np

from ._jit import inline_kernel, kernel
from .hydro import element_drag_xyz
from .waves import (
    AMP,
    N_WAVE_PAR,
    STRETCH,
    STRETCH_CODES,
    WATER_LEVEL,
    WAVE_DEPTH,
    build_waves,
    elevation_point,
    fill_wave_par,
    wave_elevation,
    wave_kinematics,
    wave_point,
    wave_time,
)

__all__ = [
    "SEA_FIELDS", "SEA_RUN_FIELDS", "sea_arrays", "fluid_at", "element_fluid",
    "element_fluid_calm", "element_fluid_waves", "element_calm", "element_wave_loads",
    "surface_height", "sea_time", "wave_eta",
    "seabed_depth", "seabed_force", "update_anchor", "replay_anchors", "sea_results",
    "flow_velocity", "bathymetry_grid", "node_contact_geometry", "wetted_fraction",
    "STRETCH_CODES", "STRETCH", "WAVE_DEPTH", "WATER_LEVEL",
]

#: the packed-data field names a formulation adds (sea_arrays' keys)
SEA_FIELDS = ("sea_par", "sea_current", "sea_wind", "sea_waves", "sea_grid", "sea_bed",
              "sea_bed_axes", "sea_anchor")
#: what a run mutates (add to the formulation's RUN_FIELDS)
SEA_RUN_FIELDS = ("sea_grid", "sea_anchor")

# sea_par indices: WATER_LEVEL, WAVE_DEPTH, STRETCH (0-2) are waves.py's, the rest sea.py's
(SEA_ACTIVE, HAS_SURFACE, RHO_WATER, RHO_AIR,
 BED, BED_Z0, BED_DZDX, BED_DZDY, BED_NX, BED_NY,
 K_BOT, C_BOT, MU_AXIAL, MU_LATERAL, K_STICK,
 HAS_WAVES, ETA_MAX,
 CUR_LAW, CUR_EXP, CUR_BASE, CUR_SPAN,
 WIND_LAW, WIND_EXP, WIND_BASE, WIND_SPAN, HAS_WIND,
 BED_UX, BED_UY, BED_UZ) = range(N_WAVE_PAR, N_WAVE_PAR + 29)
N_PAR = N_WAVE_PAR + 29

#: seabed kinds (sea_par[BED])
NO_BED, PLANE, GRID = 0, 1, 2
#: profile laws (sea_par[CUR_LAW], sea_par[WIND_LAW])
TABLE, POWER_LAW = 0, 1
# stretching rules (sea_par[STRETCH]): waves.STRETCH_CODES, applied by waves.py
#: out sizes of fluid_at and element_fluid (element_fluid's out[8:] is scratch)
FLUID_OUT = 8
ELEMENT_OUT = 40

#: air density when the case gives none [kg/m^3]
AIR_DENSITY = 1.225


# -- flow profiles --------------------------------------------------------------------------


@inline_kernel
def _profile_full(law, exponent, base, span, table, z):
    """:func:`_profile_xyz`, every law inlined (for code that works on arrays: _profile)."""
    if law == POWER_LAW:
        r = (z - base) / span
        f = r ** exponent if r > 0.0 else 0.0
        return f * table[0, 1], f * table[0, 2], f * table[0, 3]
    n = table.shape[0]
    if n == 1:  # uniform
        return table[0, 1], table[0, 2], table[0, 3]
    if z <= table[0, 0]:
        j, w = 0, 0.0
    elif z >= table[n - 1, 0]:
        j, w = n - 2, 1.0
    else:
        lo = 0
        hi = n - 1
        while hi - lo > 1:  # bisection: table[lo, 0] <= z < table[hi, 0]
            mid = (lo + hi) // 2
            if table[mid, 0] <= z:
                lo = mid
            else:
                hi = mid
        j = lo
        w = (z - table[lo, 0]) / (table[hi, 0] - table[lo, 0])
    return ((1.0 - w) * table[j, 1] + w * table[j + 1, 1],
            (1.0 - w) * table[j, 2] + w * table[j + 1, 2],
            (1.0 - w) * table[j, 3] + w * table[j + 1, 3])


@kernel
def _profile_table(law, exponent, base, span, table, z):
    """_profile_xyz of a table with more than one row or a power law (called: its
    bisection and power compile once)."""
    return _profile_full(law, exponent, base, span, table, z)


@inline_kernel
def _profile_xyz(law, exponent, base, span, table, z):
    """The flow velocity at height z [m/s] of a profile, (ux, uy, uz): a table of rows
    [z, ux, uy, uz] (linear between rows, constant beyond) or a power law
    u_ref ((z - base) / span)^exponent above base, 0 below (DNV-RP-C205 eqs. 2.3.2.12, 4.1.4).
    A uniform flow (one row) inlined, the others called (:func:`_profile_table`): for
    register code (a call in a branch not taken makes code that works on arrays reload
    them; _profile inlines every law)."""
    if law != POWER_LAW and table.shape[0] == 1:  # uniform
        return table[0, 1], table[0, 2], table[0, 3]
    return _profile_table(law, exponent, base, span, table, z)


@inline_kernel
def _profile(law, exponent, base, span, table, z, out, k):
    """Add the flow velocity at height z [m/s] of a profile (:func:`_profile_xyz`) to
    out[k:k+3] (every law inlined)."""
    ux, uy, uz = _profile_full(law, exponent, base, span, table, z)
    out[k] += ux
    out[k + 1] += uy
    out[k + 2] += uz


# The calm path (no waves) is inlined into every caller and holds no wave code; with waves
# the point or element goes to one called kernel (_fluid_at_waves, element_fluid_waves),
# reached only when sea_par[HAS_WAVES] is set. Inlining the wave kinematics into each of
# their callers made the sea path ~45 % of the suite's compile time (issue 22); a branch to
# a called kernel costs only the wave case a call per point or element.


@inline_kernel
def _calm_flow(par, current, z, out, k):
    """Calm-water kinematics at height z: out[k] eta = 0, out[k+1:k+4] the current [m/s],
    out[k+4:k+7] acceleration 0 (a steady current has none)."""
    for a in range(7):
        out[k + a] = 0.0
    _profile(par[CUR_LAW], par[CUR_EXP], par[CUR_BASE], par[CUR_SPAN], current, z, out,
             k + 1)


@inline_kernel
def _water_flow(par, current, waves, grid, t, x, y, z, out, k):
    """Water kinematics at (x, y, z) with waves (par[HAS_WAVES] set): out[k] eta [m],
    out[k+1:k+4] velocity (waves + current) [m/s], out[k+4:k+7] the waves' acceleration
    [m/s^2]. ``out`` must hold k + 8 entries (waves.py writes 7)."""
    wave_kinematics(waves, grid, par, t, x, y, z, out[k:k + 7])
    _profile(par[CUR_LAW], par[CUR_EXP], par[CUR_BASE], par[CUR_SPAN], current, z, out,
             k + 1)


@inline_kernel
def _air_flow(par, wind, z, out, k):
    """Air kinematics at height z: out[k+1:k+4] the wind [m/s], accelerations 0."""
    for a in range(1, 7):
        out[k + a] = 0.0
    if par[HAS_WIND] != 0.0:
        _profile(par[WIND_LAW], par[WIND_EXP], par[WIND_BASE], par[WIND_SPAN], wind, z,
                 out, k + 1)


@kernel
def wave_eta(par, waves, grid, t, x, y, work):
    """The wave elevation eta [m] above the calm level at (x, y) [m] at time t [s]
    (waves.wave_elevation, called: ``work`` 7 floats of scratch). Needs waves."""
    return wave_elevation(waves, grid, par, t, x, y, work)


@inline_kernel
def _surface(par, waves, grid, t, x, y, work):
    """z of the free surface above (x, y) at time t [m]: the water level plus the wave
    elevation (waves.wave_elevation; work[0:7] scratch)."""
    if par[HAS_WAVES] != 0.0:
        return par[WATER_LEVEL] + wave_eta(par, waves, grid, t, x, y, work)
    return par[WATER_LEVEL]


@inline_kernel
def _medium(par, wind, z, out):
    """fluid_at's medium from the water kinematics in out[0:7] (eta in out[0]): water below
    the surface (or everywhere without a water level), else air and the wind."""
    eta = out[0]
    out[7] = eta
    if par[HAS_SURFACE] == 0.0 or z <= par[WATER_LEVEL] + eta:
        out[0] = par[RHO_WATER]
    else:
        _air_flow(par, wind, z, out, 0)
        out[0] = par[RHO_AIR]


@kernel
def _fluid_at_waves(par, current, wind, waves, grid, t, x, y, z, out):
    """fluid_at with waves (called: the wave kinematics compile once, here)."""
    _water_flow(par, current, waves, grid, t, x, y, z, out, 0)
    _medium(par, wind, z, out)


@inline_kernel
def fluid_at(par, current, wind, waves, grid, t, x, y, z, out):
    """The fluid at one point (x, y, z) [m] at time t [s]: out[0] the medium's density
    [kg/m^3] (no water level: fluid_density everywhere), out[1:4] the flow velocity [m/s]
    (current + waves in water, wind in air), out[4:7] the flow acceleration [m/s^2],
    out[7] the wave elevation eta at (x, y) [m] above the calm level. out: FLUID_OUT."""
    if par[HAS_WAVES] != 0.0:
        _fluid_at_waves(par, current, wind, waves, grid, t, x, y, z, out)
        return
    _calm_flow(par, current, z, out, 0)
    _medium(par, wind, z, out)


@inline_kernel
def _fraction(ha, hb):
    """(f, wet_from_a) of a straight element whose ends are ha, hb [m] above the surface
    (the surface linear between them): wetted_fraction's rule."""
    if ha <= 0.0 and hb <= 0.0:
        return 1.0, True
    if ha > 0.0 and hb > 0.0:
        return 0.0, True
    if ha <= 0.0:
        return -ha / (hb - ha), True
    return -hb / (ha - hb), False


@inline_kernel
def wetted_fraction(par, waves, grid, t, ax, ay, az, bx, by, bz, work):
    """(f, wet_from_a): the fraction f in [0, 1] of the straight element a -> b below the
    surface, the surface taken linear between the heights above its two ends, and whether
    the wet part is the one at end a. Continuous in the ends' positions (docs/sea.md)."""
    if par[HAS_SURFACE] == 0.0:
        return 1.0, True
    wl = par[WATER_LEVEL]
    if par[HAS_WAVES] != 0.0 and max(az, bz) >= wl - par[ETA_MAX]:
        ha = az - _surface(par, waves, grid, t, ax, ay, work)
        hb = bz - _surface(par, waves, grid, t, bx, by, work)
    else:
        ha = az - wl
        hb = bz - wl
    return _fraction(ha, hb)


@inline_kernel
def _fluid_part(rho, frac, s, coef, inertia, L, qx, qy, qz, vx, vy, vz, dvx, dvy, dvz, wx,
                wy, wz, fax, fay, faz, g):
    """(fx, fy, fz) [N]: the fluid load of the part [frac] of an element (length L [m], unit
    tangent q) whose centroid is at arc fraction s from end a, in a medium of density rho
    [kg/m^3] flowing at w [m/s] there with acceleration fa [m/s^2] (``inertia`` false: a
    steady flow, no Morison term). v_a and v_b - v_a: its ends' velocity [m/s]; ``coef``
    (law, diameter, area, length0, cd_n, cd_t, ca_n, ca_t) as element_fluid's; g (3)
    [m/s^2]. (Tuples: CPython passes a call of more than 30 arguments as one list, which
    numba does not inline.)"""
    law, diameter, area, length0, cd_n, cd_t, ca_n, ca_t = coef
    gx, gy, gz = g
    vol = rho * area * length0 * frac  # displaced mass [kg]
    # buoyancy -rho V g of the part (Archimedes)
    fx = -vol * gx
    fy = -vol * gy
    fz = -vol * gz
    # drag at the centroid on the relative flow (hydro.element_drag; seed 004 eq. 2.12)
    hx, hy, hz = element_drag_xyz(law, rho, diameter, frac * L, cd_n, cd_t, qx, qy, qz,
                                  vx + s * dvx - wx, vy + s * dvy - wy, vz + s * dvz - wz)
    fx += hx
    fy += hy
    fz += hz
    if inertia:
        # fluid inertia, Morison: rho V [(1 + ca_n) a_n + (1 + ca_t) a_t] (Froude–Krylov
        # plus the flow's part of the added mass, seed 004 eqs. (2.14)-(2.15); docs/sea.md)
        at = fax * qx + fay * qy + faz * qz
        cn = vol * (1.0 + ca_n)
        ct = vol * (1.0 + ca_t)
        fx += cn * (fax - at * qx) + ct * at * qx
        fy += cn * (fay - at * qy) + ct * at * qy
        fz += cn * (faz - at * qz) + ct * at * qz
    return fx, fy, fz


@inline_kernel
def _element_medium(par, ha, hb):
    """(f, wet_a, rho_w, rho_air, rho_added) of an element whose ends are ha, hb [m] above
    the surface: its wetted fraction and wet end (wetted_fraction's rule; wholly wet
    without a water level), the two media's densities and the added-mass density
    f rho_w + (1 - f) rho_air [kg/m^3]."""
    rw = par[RHO_WATER]
    ra = par[RHO_AIR]
    if par[HAS_SURFACE] == 0.0:
        return 1.0, True, rw, ra, rw
    f, wet_a = _fraction(ha, hb)
    return f, wet_a, rw, ra, f * rw + (1.0 - f) * ra


@inline_kernel
def _part_centroids(f, wet_a):
    """Arc fractions from end a of the wet part's centroid ([0, f] from a, or [1 - f, 1])
    and the dry part's."""
    if wet_a:
        return 0.5 * f, 0.5 * (1.0 + f)
    return 1.0 - 0.5 * f, 0.5 * (1.0 - f)


@inline_kernel
def _two_parts(rw, ra, f, sw, sd, coef, inertia, L, qx, qy, qz, vax, vay, vaz, dvx, dvy,
               dvz, wx, wy, wz, fx, fy, fz, ux, uy, uz, g):
    """(fa_x, fa_y, fa_z, fb_x, fb_y, fb_z) [N]: the wet part's load (water rw flowing at w
    with acceleration fx, fy, fz at its centroid sw) and the dry part's (air ra flowing at
    u, steady, at sd), each split on the ends by the lever rule (b gets s, a 1 - s)."""
    pa_x = pa_y = pa_z = pb_x = pb_y = pb_z = 0.0
    for part in range(2):
        wet = part == 0
        frac = f if wet else 1.0 - f
        rho = rw if wet else ra
        if frac > 0.0 and rho != 0.0:
            s = sw if wet else sd
            # (the flow as values: numba's bytecode reader takes no branch in an argument)
            kx = wx if wet else ux
            ky = wy if wet else uy
            kz = wz if wet else uz
            ex = fx if wet else 0.0
            ey = fy if wet else 0.0
            ez = fz if wet else 0.0
            morison = inertia and wet
            px, py, pz = _fluid_part(rho, frac, s, coef, morison, L, qx, qy, qz, vax, vay,
                                     vaz, dvx, dvy, dvz, kx, ky, kz, ex, ey, ez, g)
            pa_x += (1.0 - s) * px
            pa_y += (1.0 - s) * py
            pa_z += (1.0 - s) * pz
            pb_x += s * px
            pb_y += s * py
            pb_z += s * pz
    return pa_x, pa_y, pa_z, pb_x, pb_y, pb_z


@inline_kernel
def _wind_at(par, wind, z):
    """The wind velocity [m/s] at height z (0 without wind)."""
    if par[HAS_WIND] != 0.0:
        return _profile_xyz(par[WIND_LAW], par[WIND_EXP], par[WIND_BASE], par[WIND_SPAN],
                            wind, z)
    return 0.0, 0.0, 0.0


@inline_kernel
def surface_height(par, waves, grid, t, tw, x, y, z, work):
    """Height [m] of the point (x, y, z) above the wavy surface at time t [s]
    (waves.elevation_point with the time weights tw of waves.wave_time; ``work``: 7
    floats)."""
    j, slot, h0, d0, h1, d1 = tw
    return z - (par[WATER_LEVEL] + elevation_point(waves, grid, par, t, j, slot, h0, d0, h1,
                                                   d1, x, y, work))


@inline_kernel
def sea_time(par, grid, t):
    """waves.wave_time at t [s] when the sea has waves on a grid, else zeros: the time
    weights :func:`element_wave_loads` and :func:`surface_height` take."""
    if par[HAS_WAVES] != 0.0 and grid[0] == 1.0:
        return wave_time(grid, t)
    return 0.0, 0, 0.0, 0.0, 0.0, 0.0


@inline_kernel
def element_wave_loads(par, current, wind, waves, grid, t, tw, coef, ha, hb, ax, ay, az, bx,
                       by, bz, vax, vay, vaz, vbx, vby, vbz, g, work):
    """element_fluid with waves (par[HAS_WAVES] set) in registers: (fa_x, fa_y, fa_z, fb_x,
    fb_y, fb_z, f, rho_added) as element_fluid's out[0:8], for an element whose ends are
    ha, hb [m] above the surface (wetted_fraction's rule: :func:`surface_height`, or the
    height above the water level where no crest reaches; ignored without a surface). The
    wet part's flow: the waves (waves.wave_point, time weights of waves.wave_time at t)
    plus the current; the dry part's: the wind. ``tw``: waves.wave_time's weights;
    ``coef``: (law, diameter, area, length0, cd_n, cd_t, ca_n, ca_t); g (3) [m/s^2];
    ``work``: 7 floats of scratch."""
    f, wet_a, rw, ra, rho_added = _element_medium(par, ha, hb)
    dx = bx - ax
    dy = by - ay
    dz = bz - az
    L = math.sqrt(dx * dx + dy * dy + dz * dz)
    if L == 0.0:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, f, rho_added
    sw, sd = _part_centroids(f, wet_a)
    wx = wy = wz = fx = fy = fz = ux = uy = uz = 0.0
    if f > 0.0:  # the wet part's flow at its centroid: waves plus current
        zw = az + sw * dz
        j, slot, h0, d0, h1, d1 = tw
        _, wx, wy, wz, fx, fy, fz = wave_point(waves, grid, par, t, j, slot, h0, d0, h1, d1,
                                               ax + sw * dx, ay + sw * dy, zw, work)
        cx, cy, cz = _profile_xyz(par[CUR_LAW], par[CUR_EXP], par[CUR_BASE], par[CUR_SPAN],
                                  current, zw)
        wx += cx
        wy += cy
        wz += cz
    if f < 1.0:
        ux, uy, uz = _wind_at(par, wind, az + sd * dz)
    fa_x, fa_y, fa_z, fb_x, fb_y, fb_z = _two_parts(
        rw, ra, f, sw, sd, coef, True, L, dx / L, dy / L, dz / L, vax, vay, vaz, vbx - vax,
        vby - vay, vbz - vaz, wx, wy, wz, fx, fy, fz, 0.0 + ux, 0.0 + uy, 0.0 + uz, g)
    return fa_x, fa_y, fa_z, fb_x, fb_y, fb_z, f, rho_added


@kernel
def element_fluid_waves(par, current, wind, waves, grid, t, law, diameter, area, length0,
                        cd_n, cd_t, ca_n, ca_t, ax, ay, az, bx, by, bz, vax, vay, vaz, vbx,
                        vby, vbz, gx, gy, gz, out):
    """element_fluid with waves (par[HAS_WAVES] set; called: the wave kinematics compile
    once, here): :func:`element_wave_loads` with the surface heights above both ends."""
    tw = sea_time(par, grid, t)
    wl = par[WATER_LEVEL]
    ha = az - wl
    hb = bz - wl
    work = out[8:15]
    if par[HAS_SURFACE] != 0.0 and max(az, bz) >= wl - par[ETA_MAX]:
        ha = surface_height(par, waves, grid, t, tw, ax, ay, az, work)
        hb = surface_height(par, waves, grid, t, tw, bx, by, bz, work)
    coef = (law, diameter, area, length0, cd_n, cd_t, ca_n, ca_t)
    (out[0], out[1], out[2], out[3], out[4], out[5], out[6],
     out[7]) = element_wave_loads(par, current, wind, waves, grid, t, tw, coef, ha, hb, ax,
                                  ay, az, bx, by, bz, vax, vay, vaz, vbx, vby, vbz,
                                  (gx, gy, gz), work)


@inline_kernel
def element_calm(par, current, wind, law, diameter, area, length0, cd_n, cd_t, ax, ay, az,
                 bx, by, bz, vax, vay, vaz, vbx, vby, vbz, gx, gy, gz):
    """element_fluid without waves (par[HAS_WAVES] 0), in registers: (fa_x, fa_y, fa_z,
    fb_x, fb_y, fb_z, f, rho_added) as element_fluid's out[0:8]. The arithmetic of
    :func:`element_wave_loads` with a flat surface at the water level and no flow
    acceleration (no Morison term; ca_n, ca_t act only through it)."""
    dx = bx - ax
    dy = by - ay
    dz = bz - az
    L = math.sqrt(dx * dx + dy * dy + dz * dz)
    wl = par[WATER_LEVEL]
    f, wet_a, rw, ra, rho_added = _element_medium(par, az - wl, bz - wl)
    if L == 0.0:
        return 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, f, rho_added
    sw, sd = _part_centroids(f, wet_a)
    wx = wy = wz = ux = uy = uz = 0.0
    if f > 0.0 and rw != 0.0:
        wx, wy, wz = _profile_xyz(par[CUR_LAW], par[CUR_EXP], par[CUR_BASE], par[CUR_SPAN],
                                  current, az + sw * dz)
    if f < 1.0 and ra != 0.0:
        ux, uy, uz = _wind_at(par, wind, az + sd * dz)
    coef = (law, diameter, area, length0, cd_n, cd_t, 0.0, 0.0)
    fa_x, fa_y, fa_z, fb_x, fb_y, fb_z = _two_parts(
        rw, ra, f, sw, sd, coef, False, L, dx / L, dy / L, dz / L, vax, vay, vaz, vbx - vax,
        vby - vay, vbz - vaz, 0.0 + wx, 0.0 + wy, 0.0 + wz, 0.0, 0.0, 0.0, 0.0 + ux,
        0.0 + uy, 0.0 + uz, (gx, gy, gz))
    return fa_x, fa_y, fa_z, fb_x, fb_y, fb_z, f, rho_added


@inline_kernel
def element_fluid_calm(par, current, wind, law, diameter, area, length0, cd_n, cd_t, ax, ay,
                       az, bx, by, bz, vax, vay, vaz, vbx, vby, vbz, gx, gy, gz, out):
    """element_fluid without waves (par[HAS_WAVES] 0; :func:`element_calm`) into out[0:8];
    inlined, no wave code."""
    (out[0], out[1], out[2], out[3], out[4], out[5], out[6],
     out[7]) = element_calm(par, current, wind, law, diameter, area, length0, cd_n, cd_t, ax,
                            ay, az, bx, by, bz, vax, vay, vaz, vbx, vby, vbz, gx, gy, gz)


@inline_kernel
def element_fluid(par, current, wind, waves, grid, t, law, diameter, area, length0, cd_n,
                  cd_t, ca_n, ca_t, ax, ay, az, bx, by, bz, vax, vay, vaz, vbx, vby, vbz,
                  gx, gy, gz, out):
    """The fluid's load on one straight element a -> b at time t [s].

    Positions [m], velocities [m/s] of its ends; ``area`` the displaced area per metre
    [m^2] (tether.displaced), ``length0`` the unstretched length [m] (displaced volume
    area * length0), ``law`` a hydro drag-law code, ``diameter`` [m], coefficients as in
    the case; g [m/s^2]. Writes out[0:3] the force given to end a and out[3:6] to end b
    [N]: buoyancy, drag and fluid inertia (Morison) of the wet part in water and of the
    dry part in air, each part's load split by the lever rule about its centroid;
    out[6] the wetted fraction f; out[7] the added-mass density f rho_w + (1 - f) rho_air
    [kg/m^3] (no water level: rho_w). out: ELEMENT_OUT entries (out[8:] scratch).
    docs/sea.md gives the rules. With waves: element_fluid_waves (called); without:
    element_fluid_calm (inlined). A hot loop over elements is faster split by
    par[HAS_WAVES] around two loops, each calling one of them (nodes.sea_loads)."""
    if par[HAS_WAVES] != 0.0:
        element_fluid_waves(par, current, wind, waves, grid, t, law, diameter, area,
                            length0, cd_n, cd_t, ca_n, ca_t, ax, ay, az, bx, by, bz, vax,
                            vay, vaz, vbx, vby, vbz, gx, gy, gz, out)
    else:
        element_fluid_calm(par, current, wind, law, diameter, area, length0, cd_n, cd_t, ax,
                           ay, az, bx, by, bz, vax, vay, vaz, vbx, vby, vbz, gx, gy, gz, out)


# -- the seabed ----------------------------------------------------------------------------


@inline_kernel
def _bracket(axis, n, v):
    """(j, w): the cell j (0 <= j <= n - 2) of the increasing axis[:n] holding v and the
    weight w in [0, 1] of its upper row (clamped beyond the ends)."""
    if v <= axis[0]:
        return 0, 0.0
    if v >= axis[n - 1]:
        return n - 2, 1.0
    lo = 0
    hi = n - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if axis[mid] <= v:
            lo = mid
        else:
            hi = mid
    return lo, (v - axis[lo]) / (axis[hi] - axis[lo])


@kernel
def _bed_grid(par, bed, bed_axes, x, y):
    """_bed_at on a bathymetry grid (called: the bisections compile once, here)."""
    nx = int(par[BED_NX])
    ny = int(par[BED_NY])
    i, u = _bracket(bed_axes[0], nx, x)
    j, v = _bracket(bed_axes[1], ny, y)
    z00 = bed[i, j]
    z10 = bed[i + 1, j]
    z01 = bed[i, j + 1]
    z11 = bed[i + 1, j + 1]
    z = ((1.0 - u) * (1.0 - v) * z00 + u * (1.0 - v) * z10 + (1.0 - u) * v * z01
         + u * v * z11)
    a = 0.0
    b = 0.0
    if bed_axes[0, 0] < x < bed_axes[0, nx - 1]:
        a = ((1.0 - v) * (z10 - z00) + v * (z11 - z01)) / (bed_axes[0, i + 1]
                                                           - bed_axes[0, i])
    if bed_axes[1, 0] < y < bed_axes[1, ny - 1]:
        b = ((1.0 - u) * (z01 - z00) + u * (z11 - z10)) / (bed_axes[1, j + 1]
                                                           - bed_axes[1, j])
    inv = 1.0 / math.sqrt(1.0 + a * a + b * b)
    return z, -a * inv, -b * inv, inv


@inline_kernel
def _bed_at(par, bed, bed_axes, x, y):
    """(z, nx, ny, nz): the seabed's height [m] under (x, y) and its unit upward normal.
    A plane z0 + a x + b y; a grid: bilinear in each cell, the normal of that surface
    (its exact gradient); beyond the grid the edge values continue (gradient 0 across)
    (_bed_grid, called)."""
    kind = par[BED]
    if kind == PLANE:  # the unit normal precomputed by sea_arrays (_plane_normal)
        return (par[BED_Z0] + par[BED_DZDX] * x + par[BED_DZDY] * y, par[BED_UX], par[BED_UY],
                par[BED_UZ])
    if kind == GRID:
        return _bed_grid(par, bed, bed_axes, x, y)
    return -math.inf, 0.0, 0.0, 1.0


@inline_kernel
def seabed_depth(par, bed, bed_axes, x, y, out):
    """The seabed's z [m] under (x, y) [m] (-inf without a seabed); out[0:3] its unit
    upward normal."""
    z, nx, ny, nz = _bed_at(par, bed, bed_axes, x, y)
    out[0] = nx
    out[1] = ny
    out[2] = nz
    return z


@inline_kernel
def _bed_axes_of(nx, ny, nz, tx, ty, tz):
    """Unit axial (the line's tangent projected on the bed) and lateral (normal x axial)
    directions in the bed's plane; a tangent along the normal takes the x-like one."""
    tn = tx * nx + ty * ny + tz * nz
    ax = tx - tn * nx
    ay = ty - tn * ny
    az = tz - tn * nz
    m = math.sqrt(ax * ax + ay * ay + az * az)
    if m < 1e-9:  # a line standing on the bed: any direction in the plane
        ax = nz
        ay = 0.0
        az = -nx
        m = math.sqrt(ax * ax + az * az)
        if m < 1e-12:
            ax, ay, az, m = 0.0, 1.0, 0.0, 1.0
    ax /= m
    ay /= m
    az /= m
    return ax, ay, az, ny * az - nz * ay, nz * ax - nx * az, nx * ay - ny * ax


@inline_kernel
def _cap(fa, fl, cap_a, cap_l):
    """(fa, fl, scale): the friction components limited to the ellipse
    (fa / cap_a)^2 + (fl / cap_l)^2 <= 1 (OrcaFlex-style anisotropic Coulomb limit);
    a zero cap forces its component to 0; scale < 1 when the limit was reached."""
    r2 = 0.0
    if cap_a > 0.0:
        r2 += (fa / cap_a) ** 2
    else:
        fa = 0.0
    if cap_l > 0.0:
        r2 += (fl / cap_l) ** 2
    else:
        fl = 0.0
    if r2 > 1.0:
        s = 1.0 / math.sqrt(r2)
        return fa * s, fl * s, s
    return fa, fl, 1.0


@inline_kernel
def seabed_force(par, bed, bed_axes, anchor, i, x, y, z, vx, vy, vz, tx, ty, tz, length,
                 diameter, out):
    """The seabed's force [N] on contact point i at (x, y, z) [m] moving at v [m/s], with
    line tangent t (unit), contact length ``length`` [m] and ``diameter`` [m], into
    out[0:3]; returns 1 when grounded, else 0 (out zero).

    Normal: (kBot pen - cBot v_n) d L along the bed's unit normal, not pulling (MoorDyn's
    kBot, cBot per unit area of d x L). Friction in the bed's plane: the anchor spring
    -K_STICK d L (p - anchor) with a damper -cBot d L v_t, limited to the ellipse of
    mu_axial N along the line and mu_lateral N across it (docs/sea.md)."""
    z_bed, nx, ny, nz = _bed_at(par, bed, bed_axes, x, y)
    pen = (z_bed - z) * nz  # distance below the bed's plane (exact for a plane)
    if pen <= 0.0:
        out[0] = 0.0
        out[1] = 0.0
        out[2] = 0.0
        return 0
    area = diameter * length
    vn = vx * nx + vy * ny + vz * nz
    N = (par[K_BOT] * pen - par[C_BOT] * vn) * area
    if N < 0.0:
        N = 0.0
    fx = N * nx
    fy = N * ny
    fz = N * nz
    mu_a = par[MU_AXIAL]
    mu_l = par[MU_LATERAL]
    if N > 0.0 and (mu_a > 0.0 or mu_l > 0.0):
        eax, eay, eaz, elx, ely, elz = _bed_axes_of(nx, ny, nz, tx, ty, tz)
        va = vx * eax + vy * eay + vz * eaz
        vl = vx * elx + vy * ely + vz * elz
        da = 0.0
        dl = 0.0
        if anchor[i, 3] != 0.0:
            ddx = x - anchor[i, 0]
            ddy = y - anchor[i, 1]
            ddz = z - anchor[i, 2]
            da = ddx * eax + ddy * eay + ddz * eaz
            dl = ddx * elx + ddy * ely + ddz * elz
        k = par[K_STICK] * area
        c = par[C_BOT] * area
        fa, fl, _ = _cap(-k * da - c * va, -k * dl - c * vl, mu_a * N, mu_l * N)
        fx += fa * eax + fl * elx
        fy += fa * eay + fl * ely
        fz += fa * eaz + fl * elz
    out[0] = fx
    out[1] = fy
    out[2] = fz
    return 1


@inline_kernel
def update_anchor(par, bed, bed_axes, anchor, i, x, y, z, tx, ty, tz, length, diameter):
    """After an accepted step: point i's friction anchor is set where it lands, dragged
    along so that the anchor spring stays on the friction limit when it is exceeded (the
    point slides), and cleared when the point lifts off. Arguments as seabed_force."""
    z_bed, nx, ny, nz = _bed_at(par, bed, bed_axes, x, y)
    pen = (z_bed - z) * nz
    if pen <= 0.0:
        anchor[i, 3] = 0.0
        return
    if anchor[i, 3] == 0.0:
        anchor[i, 0] = x
        anchor[i, 1] = y
        anchor[i, 2] = z
        anchor[i, 3] = 1.0
        return
    eax, eay, eaz, elx, ely, elz = _bed_axes_of(nx, ny, nz, tx, ty, tz)
    ddx = x - anchor[i, 0]
    ddy = y - anchor[i, 1]
    ddz = z - anchor[i, 2]
    da = ddx * eax + ddy * eay + ddz * eaz
    dl = ddx * elx + ddy * ely + ddz * elz
    area = diameter * length
    N = par[K_BOT] * pen * area  # the static contact force
    k = par[K_STICK] * area
    cap_a = par[MU_AXIAL] * N
    cap_l = par[MU_LATERAL] * N
    fa, fl, s = _cap(-k * da, -k * dl, cap_a, cap_l)
    if s < 1.0 or cap_a == 0.0 or cap_l == 0.0:
        # slide: the anchor offset that carries the capped force, -f / k (0 along a
        # direction without friction); a sticking anchor is left exactly where it is
        na = -fa / k
        nl = -fl / k
        anchor[i, 0] = x - na * eax - nl * elx
        anchor[i, 1] = y - na * eay - nl * ely
        anchor[i, 2] = z - na * eaz - nl * elz


# -- building the arrays -----------------------------------------------------------------


def _plane_normal(a: float, b: float) -> tuple[float, float, float]:
    """The unit upward normal of the plane z = z0 + a x + b y (a, b: its gradient)."""
    inv = 1.0 / math.sqrt(1.0 + a * a + b * b)
    return -a * inv, -b * inv, inv


def bathymetry_grid(x, y, z) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Columns x, y, z [m] (one row per grid point, any order) of a regular x–y grid as
    (x axis (nx,), y axis (ny,), z (nx, ny)). Raises ValueError when the points do not
    fill a grid (every x with every y exactly once, at least 2 of each)."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    z = np.asarray(z, dtype=float)
    if not (x.size == y.size == z.size):
        raise ValueError(f"columns of unequal length (x {x.size}, y {y.size}, z {z.size})")
    if not np.all(np.isfinite(x) & np.isfinite(y) & np.isfinite(z)):
        raise ValueError("non-finite values")
    xs = np.unique(x)
    ys = np.unique(y)
    if xs.size < 2 or ys.size < 2:
        raise ValueError(f"need at least 2 distinct x and 2 distinct y (got {xs.size} x "
                         f"{ys.size})")
    if xs.size * ys.size != x.size:
        raise ValueError(f"{x.size} points do not form a regular grid of {xs.size} x by "
                         f"{ys.size} y values")
    grid = np.full((xs.size, ys.size), np.nan)
    grid[np.searchsorted(xs, x), np.searchsorted(ys, y)] = z
    if np.isnan(grid).any():
        raise ValueError("some (x, y) grid points are missing (each x with each y once)")
    return xs, ys, grid


def _flow_rows(flow, law) -> np.ndarray:
    """(K, 4) rows [z, ux, uy, uz] of a current or wind: a vector, a table (``rows()``) or
    a power law (one row at its reference height)."""
    if flow is None:
        return np.zeros((1, 4))
    if isinstance(flow, tuple | list | np.ndarray):
        return np.array([[0.0, *map(float, flow)]])
    if getattr(flow, "type", "table") == "power_law":
        a = math.radians(flow.direction_deg)
        return np.array([[law[2], flow.speed * math.cos(a), flow.speed * math.sin(a), 0.0]])
    return np.asarray(flow.rows(), dtype=float)


def sea_arrays(environment, nodes_xyz: np.ndarray, n_points: int) -> dict[str, np.ndarray]:
    """The sea's packed arrays (float64, keys :data:`SEA_FIELDS`; all but the run fields
    :data:`SEA_RUN_FIELDS` read-only) for a case's
    ``environment`` section (duck typed), the model's initial node positions
    ``nodes_xyz`` (n, 3) [m] and ``n_points`` contact points (the rows of sea_anchor).

    With no sea key (no water level, waves, seabed, wind; a uniform current) the arrays
    are inert and ``sea_par[SEA_ACTIVE] == 0``: the formulations keep their calm path."""
    env = environment
    par = np.zeros(N_PAR)
    par[RHO_WATER] = env.fluid_density
    wl = getattr(env, "water_level", None)
    if wl is not None:
        par[HAS_SURFACE] = 1.0
        par[WATER_LEVEL] = wl
        air = getattr(env, "air_density", None)
        par[RHO_AIR] = AIR_DENSITY if air is None else air
    laws = {w: env.flow_law(w) if hasattr(env, "flow_law") else None
            for w in ("current", "wind")}
    current = _flow_rows(env.current, laws["current"])
    wind_spec = getattr(env, "wind", None)
    wind = _flow_rows(wind_spec, laws["wind"])
    for which, (law_i, exp_i, base_i, span_i) in (
            ("current", (CUR_LAW, CUR_EXP, CUR_BASE, CUR_SPAN)),
            ("wind", (WIND_LAW, WIND_EXP, WIND_BASE, WIND_SPAN))):
        law = laws[which]
        if law is not None:
            par[law_i] = POWER_LAW
            par[exp_i] = law[0]
            par[base_i] = law[1]
            par[span_i] = law[2] - law[1]
    if wind_spec is not None:
        if wl is None:
            raise ValueError("environment.wind: needs environment.water_level")
        par[HAS_WIND] = 1.0
    waves = getattr(env, "waves", None)
    seabed = getattr(env, "seabed", None)
    # the flat seabed's depth below the water level sets the dispersion (waves.depth wins)
    depth = None
    if (seabed is not None and wl is not None and getattr(seabed, "z", None) is not None
            and getattr(seabed, "slope_deg", 0.0) == 0.0):
        depth = wl - seabed.z
    fill_wave_par(par, waves, 0.0 if wl is None else wl, depth)
    g = float(np.linalg.norm(env.gravity))
    sea_waves, sea_grid = build_waves(waves, g, depth, wl, extent=nodes_xyz)
    if sea_waves.shape[0] > 0:
        par[HAS_WAVES] = 1.0
        par[ETA_MAX] = float(np.sum(np.abs(sea_waves[:, AMP])))  # |eta| <= sum of A
    bed = np.zeros((1, 1))
    bed_axes = np.zeros((2, 1))
    if seabed is not None:
        grid = getattr(seabed, "grid", None)
        if grid is not None:
            xs, ys, bed = (np.asarray(a, dtype=float) for a in grid)
            par[BED] = GRID
            par[BED_NX] = xs.size
            par[BED_NY] = ys.size
            bed_axes = np.zeros((2, max(xs.size, ys.size)))
            bed_axes[0, :xs.size] = xs
            bed_axes[1, :ys.size] = ys
            bed = np.ascontiguousarray(bed)
        else:
            par[BED] = PLANE
            par[BED_Z0] = seabed.z
            par[BED_DZDX], par[BED_DZDY] = seabed.gradient
            par[BED_UX], par[BED_UY], par[BED_UZ] = _plane_normal(par[BED_DZDX],
                                                                  par[BED_DZDY])
        par[K_BOT] = seabed.stiffness
        par[C_BOT] = seabed.damping
        par[MU_AXIAL] = seabed.friction.axial
        par[MU_LATERAL] = seabed.friction.lateral
        par[K_STICK] = seabed.stiffness  # docs/sea.md: the contact's own stiffness
    nonuniform = current.shape[0] > 1 or par[CUR_LAW] == POWER_LAW
    par[SEA_ACTIVE] = float(wl is not None or waves is not None or seabed is not None
                            or wind_spec is not None or nonuniform)
    # the constants read-only from the start (as a model's frozen data holds them): every
    # caller, a model or a Python helper, gives the kernels the same array types, so each
    # compiles once
    for a in (par, current, wind, bed, bed_axes):
        a.flags.writeable = False
    return {"sea_par": par, "sea_current": current, "sea_wind": wind, "sea_waves": sea_waves,
            "sea_grid": sea_grid, "sea_bed": bed, "sea_bed_axes": bed_axes,
            "sea_anchor": np.zeros((int(n_points), 4))}


# -- Python helpers: profiles, contact geometry, results -----------------------------------


def flow_velocity(arrays: dict, which: str, z) -> np.ndarray:
    """The current (``which="current"``) or wind profile's velocity [m/s] at heights z [m]
    (shape z.shape + (3,)), exactly as the kernels evaluate it."""
    par = arrays["sea_par"]
    if which == "current":
        law, idx, table = par[CUR_LAW], (CUR_EXP, CUR_BASE, CUR_SPAN), arrays["sea_current"]
    elif which == "wind":
        law, idx, table = par[WIND_LAW], (WIND_EXP, WIND_BASE, WIND_SPAN), arrays["sea_wind"]
    else:
        raise ValueError(f"which: 'current' or 'wind', not {which!r}")
    z = np.asarray(z, dtype=float)
    out = np.zeros(z.shape + (3,))
    flat = out.reshape(-1, 3)
    for k, zk in enumerate(z.ravel()):
        _profile_py(law, par[idx[0]], par[idx[1]], par[idx[2]], table, float(zk), flat[k])
    return out


@kernel
def _profile_py(law, exponent, base, span, table, z, out):
    _profile(law, exponent, base, span, table, z, out, 0)


def node_contact_geometry(pos: np.ndarray, length0: np.ndarray | None = None
                          ) -> tuple[np.ndarray, np.ndarray]:
    """(tangent (n, 3), contact length (n,)) at the n nodes of a polyline ``pos`` [m]: the
    unit mean of the adjacent elements' directions and half their lengths [m] (their
    unstretched lengths ``length0`` (n - 1,) when given, as MoorDyn's kBot applies)."""
    pos = np.asarray(pos, dtype=float)
    seg = np.diff(pos, axis=0)
    L = np.linalg.norm(seg, axis=1)
    q = seg / np.where(L > 0, L, 1.0)[:, None]
    tan = np.zeros_like(pos)
    tan[:-1] += q
    tan[1:] += q
    norm = np.linalg.norm(tan, axis=1)
    tan /= np.where(norm > 0, norm, 1.0)[:, None]
    half = 0.5 * (L if length0 is None else np.asarray(length0, dtype=float))
    contact = np.zeros(pos.shape[0])
    contact[:-1] += half
    contact[1:] += half
    return tan, contact


@kernel
def _replay(par, bed, bed_axes, anchor, pos, vel, tangent, length, diameter, force, grounded):
    for k in range(pos.shape[0]):
        for i in range(pos.shape[1]):
            grounded[k, i] = seabed_force(
                par, bed, bed_axes, anchor, i, pos[k, i, 0], pos[k, i, 1], pos[k, i, 2],
                vel[k, i, 0], vel[k, i, 1], vel[k, i, 2], tangent[k, i, 0], tangent[k, i, 1],
                tangent[k, i, 2], length[k, i], diameter, force[k, i])
            update_anchor(par, bed, bed_axes, anchor, i, pos[k, i, 0], pos[k, i, 1],
                          pos[k, i, 2], tangent[k, i, 0], tangent[k, i, 1], tangent[k, i, 2],
                          length[k, i], diameter)


def replay_anchors(arrays: dict, pos: np.ndarray, vel: np.ndarray, tangent: np.ndarray,
                   length: np.ndarray, diameter: float, anchor: np.ndarray | None = None
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The seabed force (T, n, 3) [N] and grounded flags (T, n) over output samples:
    positions ``pos`` and velocities ``vel`` (T, n, 3), unit tangents (T, n, 3), contact
    lengths (T, n) or (n,) [m], with the anchors replayed by update_anchor from sample to
    sample (starting from ``anchor``, default none set). Exact while a point sticks from
    its first grounded sample on, or slides steadily (the force is then the friction
    limit); a point that lands and moves between two samples gets its anchor at the next
    sample, not where it landed (docs/sea.md)."""
    pos = np.ascontiguousarray(pos, dtype=float)
    T, n, _ = pos.shape
    length = np.broadcast_to(np.asarray(length, dtype=float), (T, n)).copy()
    anc = (np.zeros((n, 4)) if anchor is None else np.array(anchor, dtype=float))
    force = np.zeros((T, n, 3))
    grounded = np.zeros((T, n), dtype=np.int64)
    _replay(arrays["sea_par"], arrays["sea_bed"], arrays["sea_bed_axes"], anc, pos,
            np.ascontiguousarray(vel, dtype=float), np.ascontiguousarray(tangent, dtype=float),
            length, float(diameter), force, grounded)
    return force, grounded.astype(bool)


@kernel
def _elevations(par, waves, grid, times, pos, work, eta):
    for k in range(pos.shape[0]):
        for i in range(pos.shape[1]):
            eta[k, i] = _surface(par, waves, grid, times[k], pos[k, i, 0], pos[k, i, 1],
                                 work) - par[WATER_LEVEL]


def sea_results(arrays: dict, times: np.ndarray, pos: np.ndarray, vel: np.ndarray,
                tangent: np.ndarray, length: np.ndarray, diameter: float,
                anchor: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """The sea's result variables (shared/spec/results-format.md) over output samples:
    ``surface_elevation`` (T, n) [m] (the wave elevation above the calm level at each
    node's x, y), ``grounded`` (T, n) bool and ``seabed_force`` (T, n, 3) [N] (contact and
    friction, replayed: :func:`replay_anchors`). Inputs as replay_anchors, times (T,) [s]."""
    pos = np.ascontiguousarray(pos, dtype=float)
    eta = np.zeros(pos.shape[:2])
    if arrays["sea_par"][HAS_WAVES] != 0.0:
        _elevations(arrays["sea_par"], arrays["sea_waves"], arrays["sea_grid"],
                    np.asarray(times, dtype=float), pos, np.zeros(8), eta)
    force, grounded = replay_anchors(arrays, pos, vel, tangent, length, diameter, anchor)
    return {"surface_elevation": eta, "grounded": grounded, "seabed_force": force}
