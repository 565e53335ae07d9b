"""Planar ANCF cable with internal damping and air drag — seed 003 (Abdullah et al.).

N cubic absolute-nodal-coordinate cable elements in the x–z plane (seed 003 §3.1). Each of
the N+1 nodes carries its position (x, z) and its slope vector r' = dr/ds (x', z') with
respect to the unstretched arc length s: 4 coordinates per node, 8 per element (seed
eq. 2). Along an element r(ξ) = S(ξ) e with the cubic Hermite shape functions (seed eq. 3,
lost in the extracted text; the standard ANCF cable functions), so the consistent mass
matrix is constant (eq. 5) and the global one has half-bandwidth 7.

Internal forces come from the axial strain ε = |r'| − 1 (eqs. 6–7) and the exact
curvature κ = (r' × r'') / |r'|³ (eqs. 8–9), with the axial force N = EA ε + C ε̇ and the
bending moment M = EI κ + C_b κ̇ — the seed's damping "energies" (eqs. 12–16) with
C = D·A, C_b = D·I. Both integrals use GAUSS_POINTS-point Gauss quadrature per element.
Gravity with buoyancy is the consistent load of eq. (11); air drag is the seed's
projected-area law (eqs. 17–23, read as in docs/ancf2d.md) or the cross-flow law at the
Gauss points with the local tangent.

State vector: ``y = [q, q̇]`` with ``q = [x_0, z_0, x'_0, z'_0, x_1, …]`` (4 per node) and
dq/dt = q̇. Held coordinates (a fixed or prescribed end's position, a clamped end's slope)
stay in the state; the kernels overwrite them with the prescribed motion. The equations of
motion M q̈ = F (eq. 24) are solved with the banded Cholesky factor of the constant mass
matrix, computed once (held rows and columns replaced by the identity), in O(N) per call.
"""

from __future__ import annotations

import math
from collections import namedtuple
from typing import TYPE_CHECKING

import numpy as np

from .._jit import inline_kernel, kernel
from ..boundary import end_motion_at, fixed_point, free_end_load
from ..hydro import CROSS_FLOW, element_drag
from ..initial import initial_nodes
from ..sea import (
    BED,
    SEA_ACTIVE,
    SEA_FIELDS,
    SEA_RUN_FIELDS,
    fluid_at,
    seabed_force,
    update_anchor,
)
from .base import Formulation, rk4_critical_step
from .sea_loads import (
    SEA_WORK,
    SW_BED,
    TIP_MASS,
    TIP_VOLUME,
    hydrostatic_potential,
    model_sea_arrays,
    replay_samples,
    sea_end_load,
    sea_node_outputs,
    sea_tip_table,
    seabed_critical_step,
)
from .supports import COMMON_TETHER_KEYS, Option, Supports

if TYPE_CHECKING:
    from ..case import Case

#: Gauss–Legendre points per element for the axial, bending and (cross-flow) drag integrals.
#: The integrands are rational in ξ (|r'| and |r'|³ in denominators); 4 points integrate the
#: straight-element stiffness exactly (polynomials up to degree 7) and are what the
#: convergence studies of validation/seed003.py use.
GAUSS_POINTS = 4
BAND = 7  # half-bandwidth of M, ∂F/∂q, ∂F/∂q̇ in q indices (4 coordinates per node)
#: |r'| − 1 above this (1000 % stretch) at a node means the run blew up
ABSURD_STRAIN = 10.0

PROJECTED_AREA = 100  # drag-law code of seed 003 eqs. (17)–(23) (cross_flow: hydro.CROSS_FLOW)
DRAG_CODES = {"projected_area": PROJECTED_AREA, "cross_flow": CROSS_FLOW}

# packed parameter indices (module constants, frozen into the kernels)
EA, CA, EI, CB, RHO, WIDTH, CD_N, CD_T, GX, GZ, UX, UZ, LE, AREA = range(14)  # scal; AREA [m²]
DRAG_LAW, HELD0, HELD1, CLAMP0, CLAMP1 = range(5)  # flags
# ends columns (row 0 start, row 1 end); PAYLOAD: a free end body's inertial mass (mass +
# added mass), WEIGHT: its weight mass (mass - rho V: the net weight over g)
PAYLOAD, RAMP, DRAG_AREA, FX, FY, FZ, WEIGHT = range(7)
# gauss table columns: S_0..S_3, dS/ds, d2S/ds2, weight·le
S0, D0, DD0, WGT = 0, 4, 8, 12
E_AXIAL, E_BENDING = 0, 1  # energy cells

Ancf2dData = namedtuple(
    "Ancf2dData",
    [
        "n_nodes", "n_q", "flags", "scal", "gauss", "mid", "ends", "clamp", "held", "grav",
        "mband", "mband_tether", "chol", "breaks0", "coeffs0", "breaks1", "coeffs1",
        # work arrays (one model per run: never shared between runs)
        "q", "qd", "force", "acc", "hacc", "motion", "tmp", "energy",
        # the sea (sea.py's arrays; docs/ancf2d.md "The sea"): scal without the fluid (its
        # loads come from sea_force), the dry weight's consistent load, each end's body
        # (sea_loads.py), work
        *SEA_FIELDS, "sea_scal", "grav_dry", "sea_tip", "sea_work",
    ],
)
#: what a run mutates (models/base.py: Model and data): host schedules, work arrays
RUN_FIELDS = ("breaks0", "coeffs0", "breaks1", "coeffs1", "q", "qd", "force", "acc", "hacc",
              "motion", "tmp", "energy", *SEA_RUN_FIELDS, "sea_work")


# -- shape functions and the constant matrices ---------------------------------------------


def shape_functions(xi: float, le: float) -> np.ndarray:
    """(3, 4): S, dS/ds, d²S/ds² of the cubic ANCF cable element at ξ = s/le ∈ [0, 1].

    S multiplies (r_a, r'_a, r_b, r'_b): r(ξ) = S_0 r_a + S_1 r'_a + S_2 r_b + S_3 r'_b
    (seed 003 eq. 1; the shape functions of eq. 3 are the cubic Hermite polynomials).
    """
    x = xi
    S = [1.0 - 3 * x**2 + 2 * x**3, le * (x - 2 * x**2 + x**3), 3 * x**2 - 2 * x**3,
         le * (-(x**2) + x**3)]
    dS = [(-6 * x + 6 * x**2) / le, 1.0 - 4 * x + 3 * x**2, (6 * x - 6 * x**2) / le,
          -2 * x + 3 * x**2]
    ddS = [(-6 + 12 * x) / le**2, (-4 + 6 * x) / le, (6 - 12 * x) / le**2, (-2 + 6 * x) / le]
    return np.array([S, dS, ddS])


def gauss_table(le: float, points: int = GAUSS_POINTS) -> np.ndarray:
    """(points, 13): shape functions, their derivatives and weight·le at the Gauss points."""
    x, w = np.polynomial.legendre.leggauss(points)
    table = np.zeros((points, 13))
    for g in range(points):
        table[g, :12] = shape_functions(0.5 * (1.0 + x[g]), le).ravel()
        table[g, WGT] = 0.5 * w[g] * le
    return table


def element_mass(le: float, rho_a: float) -> np.ndarray:
    """(4, 4) consistent mass of one axis of one element [kg, kg m, kg m²] — seed 003 eq. (5).

    Coordinates (r_a, r'_a, r_b, r'_b) of one axis; the x and z blocks are equal.
    """
    return rho_a * le / 420.0 * np.array([
        [156.0, 22.0 * le, 54.0, -13.0 * le],
        [22.0 * le, 4.0 * le**2, 13.0 * le, -3.0 * le**2],
        [54.0, 13.0 * le, 156.0, -22.0 * le],
        [-13.0 * le, -3.0 * le**2, -22.0 * le, 4.0 * le**2],
    ])


def global_mass(n_nodes: int, le: float, rho_a: float) -> np.ndarray:
    """Dense (4n, 4n) global mass matrix of the tether alone (tests and tools)."""
    nq = 4 * n_nodes
    M = np.zeros((nq, nq))
    me = element_mass(le, rho_a)
    for e in range(n_nodes - 1):
        for axis in range(2):
            idx = [4 * e + axis, 4 * e + 2 + axis, 4 * e + 4 + axis, 4 * e + 6 + axis]
            M[np.ix_(idx, idx)] += me
    return M


def to_band(M: np.ndarray, band: int = BAND) -> np.ndarray:
    """Lower band storage: out[k, j] = M[j + k, j] for k = 0..band."""
    n = M.shape[0]
    out = np.zeros((band + 1, n))
    for k in range(band + 1):
        out[k, : n - k] = np.diagonal(M, -k)
    return out


@kernel
def band_cholesky(A, L):
    """Cholesky factor of a symmetric positive definite band matrix (lower band storage
    A[k, j] = M[j + k, j]) into L (same storage, L[0] holds the inverse diagonal).

    Returns the first column whose pivot is not positive, or -1 on success.
    """
    band = A.shape[0] - 1
    n = A.shape[1]
    for j in range(n):
        s = A[0, j]
        for k in range(1, min(band, j) + 1):
            s -= L[k, j - k] * L[k, j - k]
        if not s > 0.0:
            return j
        d = math.sqrt(s)
        L[0, j] = 1.0 / d
        for i in range(1, band + 1):
            if j + i >= n:
                break
            s = A[i, j]
            for k in range(1, band - i + 1):
                if k > j:
                    break
                s -= L[i + k, j - k] * L[k, j - k]
            L[i, j] = s / d
    return -1


@inline_kernel
def band_solve(L, b):
    """Solve (L Lᵀ) x = b in place with the factor of :func:`band_cholesky`."""
    band = L.shape[0] - 1
    n = b.size
    for j in range(n):
        s = b[j]
        for k in range(1, min(band, j) + 1):
            s -= L[k, j - k] * b[j - k]
        b[j] = s * L[0, j]
    for j in range(n - 1, -1, -1):
        s = b[j]
        for k in range(1, band + 1):
            if j + k >= n:
                break
            s -= L[k, j] * b[j + k]
        b[j] = s * L[0, j]


@inline_kernel
def _band_row(Mb, i, x):
    """(M x)_i for a symmetric band matrix in lower band storage."""
    band = Mb.shape[0] - 1
    n = x.size
    s = Mb[0, i] * x[i]
    for k in range(1, band + 1):
        if i - k >= 0:
            s += Mb[k, i - k] * x[i - k]
        if i + k < n:
            s += Mb[k, i] * x[i + k]
    return s


# -- kernels ----------------------------------------------------------------------------------


@kernel
def _load_state(t, y, nq, flags, clamp, b0, c0, b1, c1, motion, q, qd, hacc):
    """q, q̇ from y; held coordinates from their prescribed motion at t (accelerations into
    hacc)."""
    for i in range(nq):
        q[i] = y[i]
        qd[i] = y[nq + i]
    for w in range(2):
        if flags[HELD0 + w]:
            base = 0 if w == 0 else nq - 4
            end_motion_at(w, b0, c0, b1, c1, t, motion[w])
            q[base] = motion[w, 0, 0]
            q[base + 1] = motion[w, 0, 2]
            qd[base] = motion[w, 1, 0]
            qd[base + 1] = motion[w, 1, 2]
            hacc[base] = motion[w, 2, 0]
            hacc[base + 1] = motion[w, 2, 2]
            if flags[CLAMP0 + w]:
                q[base + 2] = clamp[w, 0]
                q[base + 3] = clamp[w, 1]
                qd[base + 2] = 0.0
                qd[base + 3] = 0.0
                hacc[base + 2] = 0.0
                hacc[base + 3] = 0.0


@kernel
def _tether_force(n, flags, scal, gauss, grav, q, qd, F, tmp, energy):
    """Generalized force of the tether alone (no payload) into F: gravity and buoyancy
    (eq. 11), elastic and internal damping forces (eqs. 7, 9, 13, 15; with the sign of
    eq. 24) and air drag (eqs. 17–23 or cross-flow). Elastic energies into energy."""
    nq = 4 * n
    for i in range(nq):
        F[i] = grav[i]
    # the elastic energies (for diagnostics) summed in registers, stored once at the end: a
    # store per Gauss point to an array the compiler cannot tell from q, F or gauss forced
    # reloads (issue 22, a lean step; same sums in the same order: bit-identical)
    u_axial = 0.0
    u_bending = 0.0
    ea, ca, ei, cb = scal[EA], scal[CA], scal[EI], scal[CB]
    rho = scal[RHO]
    law = flags[DRAG_LAW]
    le = scal[LE]
    ng = gauss.shape[0]
    for e in range(n - 1):
        o = 4 * e
        xa, za, xpa, zpa = q[o], q[o + 1], q[o + 2], q[o + 3]
        xb, zb, xpb, zpb = q[o + 4], q[o + 5], q[o + 6], q[o + 7]
        vxa, vza, vxpa, vzpa = qd[o], qd[o + 1], qd[o + 2], qd[o + 3]
        vxb, vzb, vxpb, vzpb = qd[o + 4], qd[o + 5], qd[o + 6], qd[o + 7]
        # element generalized force, x coordinates (fx0..3) and z coordinates (fz0..3)
        fx0 = fx1 = fx2 = fx3 = 0.0
        fz0 = fz1 = fz2 = fz3 = 0.0
        for g in range(ng):
            d0, d1, d2, d3 = gauss[g, D0], gauss[g, D0 + 1], gauss[g, D0 + 2], gauss[g, D0 + 3]
            c0, c1, c2, c3 = (gauss[g, DD0], gauss[g, DD0 + 1], gauss[g, DD0 + 2],
                              gauss[g, DD0 + 3])
            wg = gauss[g, WGT]
            rx = d0 * xa + d1 * xpa + d2 * xb + d3 * xpb  # r'
            rz = d0 * za + d1 * zpa + d2 * zb + d3 * zpb
            sx = c0 * xa + c1 * xpa + c2 * xb + c3 * xpb  # r''
            sz = c0 * za + c1 * zpa + c2 * zb + c3 * zpb
            vx = d0 * vxa + d1 * vxpa + d2 * vxb + d3 * vxpb  # ṙ'
            vz = d0 * vza + d1 * vzpa + d2 * vzb + d3 * vzpb
            wx = c0 * vxa + c1 * vxpa + c2 * vxb + c3 * vxpb  # ṙ''
            wz = c0 * vza + c1 * vzpa + c2 * vzb + c3 * vzpb
            g2 = rx * rx + rz * rz
            nrm = math.sqrt(g2)
            inv_n = 1.0 / nrm
            # axial strain and its rate, force N = EA ε + C ε̇ — seed 003 eqs. (6), (12)
            eps = nrm - 1.0
            eps_dot = (rx * vx + rz * vz) * inv_n
            N = ea * eps + ca * eps_dot
            # exact curvature κ = (r' × r'') / |r'|³ — seed 003 eq. (8)
            inv3 = inv_n / g2
            kap = (rx * sz - rz * sx) * inv3
            k_rx = sz * inv3 - 3.0 * kap * rx / g2  # ∂κ/∂r'
            k_rz = -sx * inv3 - 3.0 * kap * rz / g2
            k_sx = -rz * inv3  # ∂κ/∂r''
            k_sz = rx * inv3
            kap_dot = k_rx * vx + k_rz * vz + k_sx * wx + k_sz * wz
            M = ei * kap + cb * kap_dot  # bending moment, seed 003 eqs. (8), (14)
            u_axial += 0.5 * ea * eps * eps * wg
            u_bending += 0.5 * ei * kap * kap * wg
            # −∂U/∂e − ∂U_D/∂ė (eqs. 7, 9, 13, 15): −∫ (N ∂ε/∂e + M ∂κ/∂e) ds
            ax = wg * N * rx * inv_n
            az = wg * N * rz * inv_n
            bx = wg * M * k_rx
            bz = wg * M * k_rz
            cx = wg * M * k_sx
            cz = wg * M * k_sz
            fx0 -= (ax + bx) * d0 + cx * c0
            fx1 -= (ax + bx) * d1 + cx * c1
            fx2 -= (ax + bx) * d2 + cx * c2
            fx3 -= (ax + bx) * d3 + cx * c3
            fz0 -= (az + bz) * d0 + cz * c0
            fz1 -= (az + bz) * d1 + cz * c1
            fz2 -= (az + bz) * d2 + cz * c2
            fz3 -= (az + bz) * d3 + cz * c3
            if rho > 0.0 and law == CROSS_FLOW:
                # cross-flow drag at the Gauss point with the local tangent and velocity
                s0, s1, s2, s3 = (gauss[g, S0], gauss[g, S0 + 1], gauss[g, S0 + 2],
                                  gauss[g, S0 + 3])
                ux = s0 * vxa + s1 * vxpa + s2 * vxb + s3 * vxpb - scal[UX]
                uz = s0 * vza + s1 * vzpa + s2 * vzb + s3 * vzpb - scal[UZ]
                element_drag(CROSS_FLOW, rho, scal[WIDTH], wg * nrm, scal[CD_N], scal[CD_T],
                             rx * inv_n, 0.0, rz * inv_n, ux, 0.0, uz, tmp)
                fx0 += s0 * tmp[0]
                fx1 += s1 * tmp[0]
                fx2 += s2 * tmp[0]
                fx3 += s3 * tmp[0]
                fz0 += s0 * tmp[2]
                fz1 += s1 * tmp[2]
                fz2 += s2 * tmp[2]
                fz3 += s3 * tmp[2]
        if rho > 0.0 and law == PROJECTED_AREA:
            # seed 003 eqs. (17)–(23): drag on the projected areas with the mean nodal
            # velocity, each component opposing its own velocity (docs/ancf2d.md)
            ux = 0.5 * (vxa + vxb) - scal[UX]  # eq. (20)
            uz = 0.5 * (vza + vzb) - scal[UZ]  # eq. (21)
            area_x = abs(xa - xb) * scal[WIDTH]  # eq. (22): seen by vertical flow
            area_z = abs(za - zb) * scal[WIDTH]  # eq. (23): seen by horizontal flow
            qx = -0.5 * rho * scal[CD_N] * area_z * abs(ux) * ux  # eq. (18)
            qz = -0.5 * rho * scal[CD_N] * area_x * abs(uz) * uz  # eq. (19)
            h = le / 12.0
            fx0 += 0.5 * qx
            fx1 += h * qx
            fx2 += 0.5 * qx
            fx3 -= h * qx
            fz0 += 0.5 * qz
            fz1 += h * qz
            fz2 += 0.5 * qz
            fz3 -= h * qz
        F[o] += fx0
        F[o + 2] += fx1
        F[o + 4] += fx2
        F[o + 6] += fx3
        F[o + 1] += fz0
        F[o + 3] += fz1
        F[o + 5] += fz2
        F[o + 7] += fz3
    energy[E_AXIAL] = u_axial
    energy[E_BENDING] = u_bending


@inline_kernel
def _payload_load(t, ends, w, scal, vx, vz, out):
    """Applied force (ramped), payload weight and payload drag at free end w [N]; the
    x–z plane: out[0] = x, out[1] = y (zero), out[2] = z."""
    free_end_load(t, ends[w, RAMP], ends[w, FX], 0.0, ends[w, FZ], ends[w, WEIGHT],
                  ends[w, DRAG_AREA], scal[RHO], scal[GX], 0.0, scal[GZ], scal[UX], 0.0,
                  scal[UZ], vx, 0.0, vz, out)


@kernel
def _sea_force(t, d):
    """Add the sea's loads to the tether force d.force (docs/ancf2d.md "The sea"): at each
    Gauss point the medium, flow and flow acceleration there (sea.fluid_at: wetted by
    point) give buoyancy −ρ A_d ds g, Froude–Krylov ρ A_d ds a_f (no added mass: the
    ANCF cable has none) and, with cross_flow, drag on the relative flow; with
    projected_area, seed 003 eqs. (17)–(23) with the element's Gauss-weighted mean
    density and flow. Each point load enters by the shape functions. Then seabed contact
    and friction at the free nodes (sea.seabed_force)."""
    n = d.n_nodes
    scal, gauss, q, qd, F, sw, par = d.scal, d.gauss, d.q, d.qd, d.force, d.sea_work, d.sea_par
    law = d.flags[DRAG_LAW]
    gx, gz = scal[GX], scal[GZ]
    le = scal[LE]
    area = scal[AREA]
    ng = gauss.shape[0]
    for e in range(n - 1):
        o = 4 * e
        fx0 = fx1 = fx2 = fx3 = 0.0
        fz0 = fz1 = fz2 = fz3 = 0.0
        rho_m = 0.0  # Σ ρ ds, Σ u ds over the element (projected_area)
        uxm = 0.0
        uzm = 0.0
        for g in range(ng):
            s0, s1, s2, s3 = gauss[g, S0], gauss[g, S0 + 1], gauss[g, S0 + 2], gauss[g, S0 + 3]
            d0, d1, d2, d3 = gauss[g, D0], gauss[g, D0 + 1], gauss[g, D0 + 2], gauss[g, D0 + 3]
            wg = gauss[g, WGT]
            x = s0 * q[o] + s1 * q[o + 2] + s2 * q[o + 4] + s3 * q[o + 6]
            z = s0 * q[o + 1] + s1 * q[o + 3] + s2 * q[o + 5] + s3 * q[o + 7]
            fluid_at(par, d.sea_current, d.sea_wind, d.sea_waves, d.sea_grid, t, x, 0.0, z, sw)
            rho = sw[0]
            vol = rho * area * wg  # displaced mass of the Gauss point's share [kg]
            px = vol * (sw[4] - gx)  # buoyancy and Froude–Krylov
            pz = vol * (sw[6] - gz)
            if law == CROSS_FLOW:
                rx = d0 * q[o] + d1 * q[o + 2] + d2 * q[o + 4] + d3 * q[o + 6]
                rz = d0 * q[o + 1] + d1 * q[o + 3] + d2 * q[o + 5] + d3 * q[o + 7]
                nrm = math.sqrt(rx * rx + rz * rz)
                ux = s0 * qd[o] + s1 * qd[o + 2] + s2 * qd[o + 4] + s3 * qd[o + 6] - sw[1]
                uz = s0 * qd[o + 1] + s1 * qd[o + 3] + s2 * qd[o + 5] + s3 * qd[o + 7] - sw[3]
                element_drag(CROSS_FLOW, rho, scal[WIDTH], wg * nrm, scal[CD_N], scal[CD_T],
                             rx / nrm, 0.0, rz / nrm, ux, 0.0, uz, d.tmp)
                px += d.tmp[0]
                pz += d.tmp[2]
            else:
                rho_m += rho * wg
                uxm += sw[1] * wg
                uzm += sw[3] * wg
            fx0 += s0 * px
            fx1 += s1 * px
            fx2 += s2 * px
            fx3 += s3 * px
            fz0 += s0 * pz
            fz1 += s1 * pz
            fz2 += s2 * pz
            fz3 += s3 * pz
        if law == PROJECTED_AREA:
            # seed 003 eqs. (17)–(23) as _tether_force, with the element's mean medium/flow
            rho = rho_m / le
            ux = 0.5 * (qd[o] + qd[o + 4]) - uxm / le  # eq. (20)
            uz = 0.5 * (qd[o + 1] + qd[o + 5]) - uzm / le  # eq. (21)
            area_x = abs(q[o] - q[o + 4]) * scal[WIDTH]  # eq. (22)
            area_z = abs(q[o + 1] - q[o + 5]) * scal[WIDTH]  # eq. (23)
            qx = -0.5 * rho * scal[CD_N] * area_z * abs(ux) * ux  # eq. (18)
            qz = -0.5 * rho * scal[CD_N] * area_x * abs(uz) * uz  # eq. (19)
            h = le / 12.0
            fx0 += 0.5 * qx
            fx1 += h * qx
            fx2 += 0.5 * qx
            fx3 -= h * qx
            fz0 += 0.5 * qz
            fz1 += h * qz
            fz2 += 0.5 * qz
            fz3 -= h * qz
        F[o] += fx0
        F[o + 2] += fx1
        F[o + 4] += fx2
        F[o + 6] += fx3
        F[o + 1] += fz0
        F[o + 3] += fz1
        F[o + 5] += fz2
        F[o + 7] += fz3
    if par[BED] == 0.0:
        return
    for i in range(n):
        b = 4 * i
        if d.held[b] != 0:
            continue
        tx, tz = _unit_slope(q[b + 2], q[b + 3])
        seabed_force(par, d.sea_bed, d.sea_bed_axes, d.sea_anchor, i, q[b], 0.0, q[b + 1],
                     qd[b], 0.0, qd[b + 1], tx, 0.0, tz, _node_share(i, n, le),
                     scal[WIDTH], sw[SW_BED:SW_BED + 3])
        F[b] += sw[SW_BED]
        F[b + 1] += sw[SW_BED + 2]


@inline_kernel
def _unit_slope(sx, sz):
    """The unit tangent (x, z) along a nodal slope vector r' (x along an untensioned
    zero slope)."""
    nrm = math.sqrt(sx * sx + sz * sz)
    if nrm > 0.0:
        return sx / nrm, sz / nrm
    return 1.0, 0.0


@inline_kernel
def _node_share(i, n, le):
    """A node's share of line [m] for the seabed contact: half of each adjacent element."""
    return 0.5 * le if i == 0 or i == n - 1 else le


@kernel
def _total_force(t, y, d):
    """State into d.q / d.qd / d.hacc and the whole generalized force into d.acc (tether
    force also left in d.force)."""
    n, nq = d.n_nodes, d.n_q
    flags, tmp = d.flags, d.tmp
    _load_state(t, y, nq, flags, d.clamp, d.breaks0, d.coeffs0, d.breaks1, d.coeffs1,
                d.motion, d.q, d.qd, d.hacc)
    sea = d.sea_par[SEA_ACTIVE] != 0.0
    if sea:
        # dry weight and no calm-fluid loads here: the sea's come from _sea_force
        _tether_force(n, flags, d.sea_scal, d.gauss, d.grav_dry, d.q, d.qd, d.force, tmp,
                      d.energy)
        _sea_force(t, d)
    else:
        _tether_force(n, flags, d.scal, d.gauss, d.grav, d.q, d.qd, d.force, tmp, d.energy)
    b = d.acc
    for i in range(nq):
        b[i] = d.force[i]
    for w in range(2):
        if not flags[HELD0 + w]:
            base = 0 if w == 0 else nq - 4
            if sea:
                sc = d.scal
                sea_end_load(d.sea_par, d.sea_current, d.sea_wind, d.sea_waves, d.sea_grid, t,
                             d.sea_tip[w], d.ends[w, RAMP], d.ends[w, FX], 0.0, d.ends[w, FZ],
                             d.ends[w, DRAG_AREA], sc[GX], 0.0, sc[GZ], d.q[base], 0.0,
                             d.q[base + 1], d.qd[base], 0.0, d.qd[base + 1], d.sea_work,
                             tmp[4:7])
            else:
                _payload_load(t, d.ends, w, d.scal, d.qd[base], d.qd[base + 1], tmp[4:7])
            b[base] += tmp[4]
            b[base + 1] += tmp[6]


@kernel
def rhs(t, y, dydt, d):
    """dy/dt = [q̇, q̈] with M q̈ = F (seed 003 eq. 24); held coordinates get their
    prescribed motion, their inertia coupling moves to the right-hand side."""
    nq = d.n_q
    _total_force(t, y, d)
    b, held, hacc, Mb = d.acc, d.held, d.hacc, d.mband
    # M_ff q̈_f = F_f − M_fh a_h (held rows/columns of the factor are the identity). Only an
    # end node's four coordinates can be held (the constructor's ``held``): the two loops
    # visit those alone, in increasing order as a scan of all n_q would (issue 22)
    if d.flags[HELD0] or d.flags[HELD1]:
        for w in range(2):
            for h in range(0 if w == 0 else nq - 4, 4 if w == 0 else nq):
                if held[h]:
                    a = hacc[h]
                    for k in range(1, BAND + 1):
                        if h - k >= 0:
                            b[h - k] -= Mb[k, h - k] * a
                        if h + k < nq:
                            b[h + k] -= Mb[k, h] * a
        for w in range(2):
            for h in range(0 if w == 0 else nq - 4, 4 if w == 0 else nq):
                if held[h]:
                    b[h] = hacc[h]
    band_solve(d.chol, b)
    for i in range(nq):
        dydt[i] = d.qd[i]
        dydt[nq + i] = b[i]


@kernel
def force(t, y, F, d):
    """Generalized applied force F (n_q) [N, N m]: everything but inertia."""
    _total_force(t, y, d)
    for i in range(d.n_q):
        F[i] = d.acc[i]


@kernel
def mass(t, y, Mb, d):
    """The constant mass matrix (payloads included) in lower band storage, (BAND+1, n_q)."""
    for k in range(BAND + 1):
        for j in range(d.n_q):
            Mb[k, j] = d.mband[k, j]


@kernel
def held_acc(t, y, a, d):
    """Prescribed accelerations of the held coordinates into a (others untouched)."""
    nq = d.n_q
    for w in range(2):
        if d.flags[HELD0 + w]:
            base = 0 if w == 0 else nq - 4
            end_motion_at(w, d.breaks0, d.coeffs0, d.breaks1, d.coeffs1, t, d.motion[w])
            a[base] = d.motion[w, 2, 0]
            a[base + 1] = d.motion[w, 2, 2]
            if d.flags[CLAMP0 + w]:
                a[base + 2] = 0.0
                a[base + 3] = 0.0


@kernel
def enforce(t, y, d):
    """Overwrite held coordinates in the state with their prescribed position / velocity."""
    nq = d.n_q
    for w in range(2):
        if d.flags[HELD0 + w]:
            base = 0 if w == 0 else nq - 4
            end_motion_at(w, d.breaks0, d.coeffs0, d.breaks1, d.coeffs1, t, d.motion[w])
            y[base] = d.motion[w, 0, 0]
            y[base + 1] = d.motion[w, 0, 2]
            y[nq + base] = d.motion[w, 1, 0]
            y[nq + base + 1] = d.motion[w, 1, 2]
            if d.flags[CLAMP0 + w]:
                y[base + 2] = d.clamp[w, 0]
                y[base + 3] = d.clamp[w, 1]
                y[nq + base + 2] = 0.0
                y[nq + base + 3] = 0.0


@kernel
def check(t, y, d):
    """Index of an element with non-finite state or absurd chord strain, or -1."""
    nq = d.n_q
    le = d.scal[LE]
    for e in range(d.n_nodes - 1):
        o = 4 * e
        s = 0.0
        for i in range(8):
            s += y[o + i] + y[nq + o + i]
        dx = y[o + 4] - y[o]
        dz = y[o + 5] - y[o + 1]
        L = math.sqrt(dx * dx + dz * dz)
        if not (math.isfinite(s) and math.isfinite(L)):
            return e
        if L / le - 1.0 > ABSURD_STRAIN:
            return e
    return -1


@kernel
def diagnostics(times, Y, d, dydt, tension, start_force, end_force, kinetic, potential):
    """Mid-element tension, end forces and energies at each output instant."""
    n, nq = d.n_nodes, d.n_q
    mid, scal = d.mid, d.scal
    for j in range(times.size):
        t = times[j]
        rhs(t, Y[j], dydt, d)
        q, qd, acc = d.q, d.qd, d.acc
        for e in range(n - 1):
            o = 4 * e
            # r' and ṙ' at mid-length (coordinate of shape function k, axis a: o + 2k + a)
            rx = mid[D0] * q[o] + mid[D0 + 1] * q[o + 2] + mid[D0 + 2] * q[o + 4] \
                + mid[D0 + 3] * q[o + 6]
            rz = mid[D0] * q[o + 1] + mid[D0 + 1] * q[o + 3] + mid[D0 + 2] * q[o + 5] \
                + mid[D0 + 3] * q[o + 7]
            vx = mid[D0] * qd[o] + mid[D0 + 1] * qd[o + 2] + mid[D0 + 2] * qd[o + 4] \
                + mid[D0 + 3] * qd[o + 6]
            vz = mid[D0] * qd[o + 1] + mid[D0 + 1] * qd[o + 3] + mid[D0 + 2] * qd[o + 5] \
                + mid[D0 + 3] * qd[o + 7]
            nrm = math.sqrt(rx * rx + rz * rz)
            tension[j, e] = scal[EA] * (nrm - 1.0) + scal[CA] * (rx * vx + rz * vz) / nrm
        # force on each end's holder: the tether's own load on the end position minus the
        # inertia of the tether there (= m_p a − payload load at a free end)
        for w in range(2):
            base = 0 if w == 0 else nq - 4
            out = start_force if w == 0 else end_force
            fx = d.force[base] - _band_row(d.mband_tether, base, acc)
            fz = d.force[base + 1] - _band_row(d.mband_tether, base + 1, acc)
            out[j, 0] = fx
            out[j, 1] = 0.0
            out[j, 2] = fz
        ke = 0.0
        for i in range(nq):
            ke += 0.5 * qd[i] * _band_row(d.mband, i, qd)
        # gravity (with buoyancy) is linear in q: V = −grav·q; payloads −m g·r. In the sea:
        # dry weights, buoyancy by the hydrostatic potential (_sea_potential)
        sea = d.sea_par[SEA_ACTIVE] != 0.0
        grav = d.grav_dry if sea else d.grav
        pe = d.energy[E_AXIAL] + d.energy[E_BENDING]
        for i in range(nq):
            pe -= grav[i] * q[i]
        if sea:
            pe += _sea_potential(d)
        for w in range(2):
            base = 0 if w == 0 else nq - 4
            m = d.sea_tip[w, TIP_MASS] if sea else d.ends[w, WEIGHT]
            pe -= m * (scal[GX] * q[base] + scal[GZ] * q[base + 1])
        kinetic[j] = ke
        potential[j] = pe


@kernel
def _sea_potential(d):
    """The buoyancy part of the potential energy in the sea [J]: −|g| A_d Σ w_g I(z_g) over
    the Gauss points (I: sea_loads.hydrostatic_potential), and −|g| V I(z) of a free
    end's body (d.q holds the state)."""
    scal, gauss, q = d.scal, d.gauss, d.q
    g_abs = math.sqrt(scal[GX] ** 2 + scal[GZ] ** 2)
    pe = 0.0
    for e in range(d.n_nodes - 1):
        o = 4 * e
        for g in range(gauss.shape[0]):
            z = (gauss[g, S0] * q[o + 1] + gauss[g, S0 + 1] * q[o + 3]
                 + gauss[g, S0 + 2] * q[o + 5] + gauss[g, S0 + 3] * q[o + 7])
            pe -= g_abs * scal[AREA] * gauss[g, WGT] * hydrostatic_potential(d.sea_par, z)
    for w in range(2):
        if not d.flags[HELD0 + w]:
            base = 0 if w == 0 else d.n_q - 4
            pe -= g_abs * d.sea_tip[w, TIP_VOLUME] * hydrostatic_potential(d.sea_par,
                                                                           q[base + 1])
    return pe


@kernel
def remesh(t, y, d):
    """After each accepted step: the seabed's friction anchors follow the free nodes
    (sea.update_anchor). The layout never changes: returns 0."""
    par = d.sea_par
    if par[SEA_ACTIVE] == 0.0 or par[BED] == 0.0:
        return 0
    n = d.n_nodes
    le = d.scal[LE]
    for i in range(n):
        b = 4 * i
        if d.held[b] != 0:
            continue
        tx, tz = _unit_slope(y[b + 2], y[b + 3])
        update_anchor(par, d.sea_bed, d.sea_bed_axes, d.sea_anchor, i, y[b], 0.0, y[b + 1],
                      tx, 0.0, tz, _node_share(i, n, le), d.scal[WIDTH])
    return 0


# -- the formulation ------------------------------------------------------------------------


def element_frequencies(le: float, rho_a: float, EA_: float, EI_: float) -> tuple[float, float]:
    """Highest axial and bending angular frequencies [rad/s] of one free straight element.

    Linearised about the unstretched straight element along x: the axial stiffness
    EA ∫ S'ᵀS' ds acts on the x coordinates, the bending stiffness EI ∫ S''ᵀS'' ds on the
    z coordinates; both against the consistent mass (eq. 5). By the element eigenvalue
    bound (Irons & Treharne) no mode of the assembled mesh is faster than the fastest
    element mode.
    """
    table = gauss_table(le, 4)
    Ka = np.zeros((4, 4))
    Kb = np.zeros((4, 4))
    for row in table:
        dS = row[D0:D0 + 4]
        ddS = row[DD0:DD0 + 4]
        Ka += row[WGT] * EA_ * np.outer(dS, dS)
        Kb += row[WGT] * EI_ * np.outer(ddS, ddS)
    Me = element_mass(le, rho_a)
    wa = float(np.sqrt(max(np.linalg.eigvals(np.linalg.solve(Me, Ka)).real)))
    wb = float(np.sqrt(max(np.linalg.eigvals(np.linalg.solve(Me, Kb)).real)))
    return wa, wb


class Ancf2d(Formulation):
    """Planar ANCF cable elements (``model.type: ancf2d``), seed 003."""

    # planar ANCF cable (seed 003): a continuum with bending, no added mass
    supports = Supports(
        methods=("rk4", "rk45", "generalized_alpha"),
        drag_laws=("projected_area", "cross_flow"),  # seed 003 eqs. (17)-(23) first
        tether_keys=COMMON_TETHER_KEYS | {"EA", "axial_damping"},
        required=("EA",),
        bending=True,
        options={
            "material_damping": Option(
                float, None, "the seed-003 material parameter D [N s/m^2]: shorthand for "
                "axial_damping = D A and bending_damping = D I (I = A EI / EA)",
                excludes=("axial_damping", "bending_damping")),
        },
        clamp=True, planar=True,
    )

    name = "ancf2d"
    fastest_mode = "axial or bending mode of one element (element eigenvalue bound)"
    band = BAND
    rhs = staticmethod(rhs)
    enforce = staticmethod(enforce)
    check = staticmethod(check)
    remesh = staticmethod(remesh)
    run_fields = RUN_FIELDS
    force = staticmethod(force)
    mass = staticmethod(mass)
    held_acc = staticmethod(held_acc)

    def __init__(self, case: Case) -> None:
        super().__init__(case)
        t = case.tether
        N = case.model.elements
        n = N + 1
        nq = 4 * n
        self.n_elements = N
        self.n_nodes = n
        self.n_q = nq
        le = t.length / N
        self.arc_length = np.linspace(0.0, t.length, n)
        env = case.environment
        rho = env.fluid_density
        D = case.model.option("material_damping")
        A = t.material_area
        if D is not None:
            # seed 003 eqs. (12)–(16): C = D·A, C_b = D·I with I = A·EI/EA (E = EA/A)
            c_axial = float(D) * A
            c_bending = float(D) * A * t.EI / t.EA
        else:
            c_axial, c_bending = t.axial_damping, t.bending_damping
        self.axial_damping = c_axial
        self.bending_damping = c_bending
        scal = np.zeros(14)
        scal[[EA, CA, EI, CB, RHO, WIDTH, CD_N, CD_T, LE, AREA]] = (
            t.EA, c_axial, t.EI, c_bending, rho, t.diameter, t.cd_normal, t.cd_tangential, le,
            t.displaced)
        scal[[GX, GZ]] = env.gravity[0], env.gravity[2]
        # a current profile (table, power law) is sea.py's (sea_current); scal's stays 0
        current = env.uniform_current or (0.0, 0.0, 0.0)
        scal[[UX, UZ]] = current[0], current[2]
        sea_scal = scal.copy()
        sea_scal[RHO] = 0.0  # in the sea the fluid's loads are _sea_force's
        ends = (case.start, case.end)
        held_flags = [e.type != "free" for e in ends]
        clamp_flags = [e.type != "free" and e.clamp is not None for e in ends]
        flags = np.array([DRAG_CODES[case.drag_law], *held_flags, *clamp_flags],
                         dtype=np.int64)
        clamp = np.zeros((2, 2))
        held = np.zeros(nq, dtype=np.int64)
        end_table = np.zeros((2, 7))
        for w, e in enumerate(ends):
            base = 0 if w == 0 else nq - 4
            if held_flags[w]:
                held[base:base + 2] = 1
            if clamp_flags[w]:
                c = np.array([e.clamp[0], e.clamp[2]], dtype=float)
                clamp[w] = c / np.linalg.norm(c)  # unit slope: no strain at the clamp
                held[base + 2:base + 4] = 1
            if e.type == "free":
                end_table[w, [PAYLOAD, RAMP, DRAG_AREA, WEIGHT]] = (
                    e.body_masses(rho)[0], e.force_ramp_time or 0.0, e.drag_area,
                    e.body_masses(rho)[1])
                end_table[w, FX:FZ + 1] = e.force
        rho_a = t.linear_mass
        # consistent mass, seed 003 eq. (5); payloads on their end's position coordinates
        M_tether = global_mass(n, le, rho_a)
        M = M_tether.copy()
        for w in range(2):
            base = 0 if w == 0 else nq - 4
            M[base, base] += end_table[w, PAYLOAD]
            M[base + 1, base + 1] += end_table[w, PAYLOAD]
        mband = to_band(M)
        # factor of M with held rows / columns replaced by the identity
        Mh = M.copy()
        for i in np.flatnonzero(held):
            Mh[i, :] = 0.0
            Mh[:, i] = 0.0
            Mh[i, i] = 1.0
        chol = np.zeros_like(mband)
        bad = band_cholesky(to_band(Mh), chol)
        if bad >= 0:  # pragma: no cover - M is positive definite for any N >= 1
            raise ValueError(f"mass matrix not positive definite at coordinate {bad}")
        # gravity and buoyancy as the consistent load, seed 003 eq. (11)
        wet = rho_a - rho * t.displaced  # [kg/m]
        grav = np.zeros(nq)
        grav_dry = np.zeros(nq)  # in the sea: the weight alone (buoyancy: _sea_force)
        shape = np.array([0.5, le / 12.0, 0.5, -le / 12.0]) * le
        for e in range(N):
            for axis, g in ((0, env.gravity[0]), (1, env.gravity[2])):
                idx = [4 * e + axis, 4 * e + 2 + axis, 4 * e + 4 + axis, 4 * e + 6 + axis]
                grav[idx] += shape * wet * g
                grav_dry[idx] += shape * rho_a * g
        m0, m1 = (case.end_motion(w) or fixed_point((0.0, 0.0, 0.0)) for w in ("start", "end"))
        self.data = Ancf2dData(
            n_nodes=n, n_q=nq, flags=flags, scal=scal, gauss=gauss_table(le),
            mid=gauss_table(le, 1)[0], ends=end_table, clamp=clamp, held=held, grav=grav,
            mband=mband, mband_tether=to_band(M_tether), chol=chol,
            breaks0=m0.breaks, coeffs0=m0.coeffs, breaks1=m1.breaks, coeffs1=m1.coeffs,
            q=np.zeros(nq), qd=np.zeros(nq), force=np.zeros(nq), acc=np.zeros(nq),
            hacc=np.zeros(nq), motion=np.zeros((2, 3, 3)), tmp=np.zeros(8),
            energy=np.zeros(2),
            **model_sea_arrays(case, self.arc_length), sea_scal=sea_scal,
            grav_dry=grav_dry, sea_tip=np.stack([sea_tip_table(e) for e in ends]),
            sea_work=np.zeros(SEA_WORK),
        )
        self.held = held

    # -- the formulation surface -------------------------------------------------------
    def initial_state(self) -> np.ndarray:
        """Node positions from the initial shape; slopes from the chords (the straight
        line's unit direction; for a polyline, the mean of the adjacent chords divided by
        the element length, so a stretched shape starts stretched); a clamped end takes its
        clamp direction. Slope rates: ω × r' for a rigid rotation, else 0."""
        pos, vel = initial_nodes(self.case, self.arc_length)
        n, nq = self.n_nodes, self.n_q
        le = self.case.tether.length / self.n_elements
        chord = np.diff(pos, axis=0) / le
        slope = np.empty((n, 3))
        slope[0] = chord[0]
        slope[-1] = chord[-1]
        slope[1:-1] = 0.5 * (chord[:-1] + chord[1:])
        omega = np.asarray(self.case.initial.angular_velocity, dtype=float)
        slope_rate = np.cross(omega[None, :], slope)
        d = self.data
        for w in range(2):
            if d.flags[CLAMP0 + w]:
                i = 0 if w == 0 else n - 1
                slope[i] = (d.clamp[w, 0], 0.0, d.clamp[w, 1])
                slope_rate[i] = 0.0
        y = np.zeros(2 * nq)
        q = y[:nq].reshape(n, 4)
        qd = y[nq:].reshape(n, 4)
        q[:, 0], q[:, 1], q[:, 2], q[:, 3] = pos[:, 0], pos[:, 2], slope[:, 0], slope[:, 2]
        qd[:, 0], qd[:, 1] = vel[:, 0], vel[:, 2]
        qd[:, 2], qd[:, 3] = slope_rate[:, 0], slope_rate[:, 2]
        return y

    def node_states(self, Y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Positions [m], velocities [m/s] and slopes [-] (k, n, 3) with y = 0."""
        k, n, nq = Y.shape[0], self.n_nodes, self.n_q
        q = Y[:, :nq].reshape(k, n, 4)
        qd = Y[:, nq:].reshape(k, n, 4)
        pos = np.zeros((k, n, 3))
        vel = np.zeros((k, n, 3))
        slope = np.zeros((k, n, 3))
        pos[..., 0], pos[..., 2] = q[..., 0], q[..., 1]
        vel[..., 0], vel[..., 2] = qd[..., 0], qd[..., 1]
        slope[..., 0], slope[..., 2] = q[..., 2], q[..., 3]
        return pos, vel, slope

    def outputs(self, times: np.ndarray, Y: np.ndarray, data: tuple | None = None) -> dict:
        k = times.size
        N = self.n_elements
        Y = np.ascontiguousarray(Y, dtype=float)
        tension = np.empty((k, N))
        f0 = np.empty((k, 3))
        f1 = np.empty((k, 3))
        ke = np.empty(k)
        pe = np.empty(k)
        replay_samples(self.data if data is None else data, times, Y, diagnostics, remesh,
                       (tension, f0, f1, ke, pe))
        pos, vel, slope = self.node_states(Y)
        norm = np.linalg.norm(slope, axis=2, keepdims=True)
        tangent = np.divide(slope, norm, out=np.tile([1.0, 0.0, 0.0], slope.shape[:2] + (1,)),
                            where=norm > 0)
        held = self.held.reshape(self.n_nodes, 4)[:, 0] != 0
        sea = sea_node_outputs(self.data if data is None else data, times, pos, vel,
                               np.diff(self.arc_length), self.case.tether.diameter, held,
                               tangent)
        return dict(position=pos, velocity=vel, tension=tension, start_force=f0,
                    end_force=f1, kinetic_energy=ke, potential_energy=pe,
                    slope=(("time", "node", "axis"), slope,
                           {"units": "1", "long_name": "nodal slope vector dr/ds"}), **sea)

    def end_forces(self, t: float, y: np.ndarray, out: np.ndarray,
                   data: tuple | None = None) -> None:
        """Forces [N] on the start (out[0]) and end (out[1]) holders; no allocation after
        the first call (buffers kept on the model)."""
        if not hasattr(self, "_probe"):
            N, ny = self.n_elements, 2 * self.n_q
            self._probe = (np.zeros(1), np.zeros((1, ny)), np.empty(ny), np.empty((1, N)),
                           np.empty((1, 3)), np.empty((1, 3)), np.empty(1), np.empty(1))
        times, Y, dydt, tension, f0, f1, ke, pe = self._probe
        times[0] = t
        Y[0] = y
        diagnostics(times, Y, self.data if data is None else data, dydt, tension, f0, f1, ke,
                    pe)
        out[0] = f0[0]
        out[1] = f1[0]

    def elastic_energy(self, y: np.ndarray) -> tuple[float, float]:
        """Axial and bending strain energy [J] of state y (Gauss quadrature)."""
        F = np.empty(self.n_q)
        force(0.0, np.ascontiguousarray(y, dtype=float), F, self.data)
        return float(self.data.energy[E_AXIAL]), float(self.data.energy[E_BENDING])

    def critical_time_step(self) -> tuple[float, int, float]:
        """Largest stable RK4 step [s], what limits it (element or node index) and its
        frequency [rad/s]: the structure's bound (:meth:`structure_critical_step`) or,
        with a seabed, a grounded node's contact (sea_loads.seabed_critical_step) where
        that is smaller."""
        best = self.structure_critical_step()
        mass = np.full(self.n_elements, self.case.tether.linear_mass * self.case.tether.length
                       / self.n_elements)
        held = self.held.reshape(self.n_nodes, 4)[:, 0] != 0
        bed = seabed_critical_step(self.data.sea_par, np.diff(self.arc_length), mass,
                                   self.case.tether.diameter, held)
        return bed if bed[0] < best[0] else best

    def structure_critical_step(self) -> tuple[float, int, float]:
        """Largest stable RK4 step [s], the limiting element and its frequency [rad/s].

        The fastest axial and bending modes of one free, straight, unstretched element
        (:func:`element_frequencies`) bound every mode of the mesh (element eigenvalue
        theorem). The internal damping is stiffness-proportional per mode (C/EA for axial,
        C_b/EI for bending), so each mode obeys λ² + (c ω²) λ + ω² = 0 with c = C/EA or
        C_b/EI; RK4's limit for it comes from :func:`rk4_critical_step`. Neglected: the
        geometric stiffness of tension (small for a slack or hanging strip) and drag.
        """
        t = self.case.tether
        le = t.length / self.n_elements
        wa, wb = element_frequencies(le, t.linear_mass, t.EA, t.EI)
        best = (math.inf, 0, 0.0)
        for omega, c in ((wa, self.axial_damping / t.EA), (wb, self.bending_damping / t.EI)):
            dt = rk4_critical_step(omega, 0.5 * c * omega)
            if dt < best[0]:
                best = (dt, 0, omega)
        return best
