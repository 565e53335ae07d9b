"""Hydrodynamic loading shared by the formulations: drag laws and loading functions.

All functions are compiled and allocation-free: they write into caller-owned arrays.
Conventions: ``u`` is the velocity of the tether relative to the fluid [m/s] (``v - current``),
``q`` the unit tangent, forces are per element of current length ``length`` [m].
"""

from __future__ import annotations

import math

from ._jit import inline_kernel, kernel

#: drag-law codes used by the compiled kernels
CROSS_FLOW = 0
LOADING_FUNCTIONS = 1
ISOTROPIC = 2
DRAG_LAW_CODES = {"cross_flow": CROSS_FLOW, "loading_functions": LOADING_FUNCTIONS,
                  "isotropic": ISOTROPIC}


@kernel
def loading_function_normal(eta):
    """Normal loading function f_p(eta), eta = incidence angle [rad] in [0, pi/2].

    seed 004 eq. (2.12), coefficients of Driscoll & Nahon (see docs/lumped_mass.md).
    """
    return (0.5 - 0.1 * math.cos(eta) + 0.1 * math.sin(eta) - 0.4 * math.cos(2.0 * eta)
            - 0.011 * math.sin(2.0 * eta))


@kernel
def loading_function_tangential(eta):
    """Tangential loading function f_q(eta) (clamped at >= 0 near pi/2); seed 004 eq. (2.12)."""
    e = eta
    f = 0.01 * (2.008 - 0.3858 * e + 1.9159 * e**2 - 4.1615 * e**3 + 3.5064 * e**4
                - 1.1873 * e**5)
    return f if f > 0.0 else 0.0


@inline_kernel
def cross_flow_drag(k_n, k_t, qx, qy, qz, ux, uy, uz):
    """Cross-flow drag force [N] (fx, fy, fz) on one straight element, ``k_n`` =
    ½ rho cd_n d L and ``k_t`` = ½ rho cd_t π d L [kg/m]: −k_n |u_n| u_n − k_t |u_t| u_t
    (the CROSS_FLOW law of :func:`element_drag`, returned rather than stored so that the
    caller keeps it in registers)."""
    ut = ux * qx + uy * qy + uz * qz
    unx = ux - ut * qx
    uny = uy - ut * qy
    unz = uz - ut * qz
    fn = -k_n * math.sqrt(unx * unx + uny * uny + unz * unz)
    ft = -k_t * abs(ut) * ut
    return fn * unx + ft * qx, fn * uny + ft * qy, fn * unz + ft * qz


@inline_kernel
def _cross_flow_xyz(rho, diameter, length, cd_n, cd_t, qx, qy, qz, ux, uy, uz):
    """The CROSS_FLOW law of :func:`element_drag_xyz`."""
    ut = ux * qx + uy * qy + uz * qz
    unx = ux - ut * qx
    uny = uy - ut * qy
    unz = uz - ut * qz
    un = math.sqrt(unx * unx + uny * uny + unz * unz)
    fn = -0.5 * rho * cd_n * diameter * length * un
    ft = -0.5 * rho * cd_t * math.pi * diameter * length * abs(ut)
    return fn * unx + ft * ut * qx, fn * uny + ft * ut * qy, fn * unz + ft * ut * qz


@inline_kernel
def _other_xyz(law, rho, diameter, length, cd_n, cd_t, qx, qy, qz, ux, uy, uz):
    """The LOADING_FUNCTIONS and ISOTROPIC laws of :func:`element_drag_xyz`."""
    if law == LOADING_FUNCTIONS:
        ut = ux * qx + uy * qy + uz * qz
        unx = ux - ut * qx
        uny = uy - ut * qy
        unz = uz - ut * qz
        un = math.sqrt(unx * unx + uny * uny + unz * unz)
        u2 = un * un + ut * ut
        eta = math.atan2(un, abs(ut))
        p = 0.5 * rho * diameter * length * cd_n * u2
        fp = loading_function_normal(eta)
        fq = loading_function_tangential(eta)
        sn = -p * fp / un if un > 0.0 else 0.0
        st = 0.0
        if ut > 0.0:
            st = -p * fq
        elif ut < 0.0:
            st = p * fq
        return sn * unx + st * qx, sn * uny + st * qy, sn * unz + st * qz
    speed = math.sqrt(ux * ux + uy * uy + uz * uz)
    f = -0.5 * rho * cd_n * diameter * length * speed
    return f * ux, f * uy, f * uz


@kernel
def _drag_other(law, rho, diameter, length, cd_n, cd_t, qx, qy, qz, ux, uy, uz):
    """The LOADING_FUNCTIONS and ISOTROPIC laws, called (compiled once, not in every
    inlined copy of :func:`element_drag_xyz`)."""
    return _other_xyz(law, rho, diameter, length, cd_n, cd_t, qx, qy, qz, ux, uy, uz)


@inline_kernel
def element_drag_xyz(law, rho, diameter, length, cd_n, cd_t, qx, qy, qz, ux, uy, uz):
    """Drag force [N] (fx, fy, fz) on one straight element, returned (kept in registers by
    the caller); the laws and arithmetic of :func:`element_drag`, cross-flow inlined, the
    others called (:func:`_drag_other`): for register code (a call in a branch not taken
    costs code that works on arrays reloads; use element_drag there)."""
    if law != CROSS_FLOW:
        return _drag_other(law, rho, diameter, length, cd_n, cd_t, qx, qy, qz, ux, uy, uz)
    return _cross_flow_xyz(rho, diameter, length, cd_n, cd_t, qx, qy, qz, ux, uy, uz)


@inline_kernel
def element_drag(law, rho, diameter, length, cd_n, cd_t, qx, qy, qz, ux, uy, uz, out):
    """Drag force [N] on one straight element, written to out[0:3] (every law inlined).

    law: CROSS_FLOW   -> -1/2 rho cd_n d L |u_n| u_n - 1/2 rho cd_t (pi d) L |u_t| u_t
         LOADING_FUNCTIONS -> seed 004 eq. (2.12): -1/2 rho d L cd_n |u|^2 (f_p u_n/|u_n|
                          + f_q sign(u_t) q)
         ISOTROPIC    -> seed 000 eq. (47): -1/2 rho cd_n (d L) |u| u
    """
    if law == CROSS_FLOW:
        fx, fy, fz = _cross_flow_xyz(rho, diameter, length, cd_n, cd_t, qx, qy, qz, ux, uy,
                                     uz)
    else:
        fx, fy, fz = _other_xyz(law, rho, diameter, length, cd_n, cd_t, qx, qy, qz, ux, uy,
                                uz)
    out[0] = fx
    out[1] = fy
    out[2] = fz
