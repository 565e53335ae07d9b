"""Seed 004 App. B: the total twist between two roll-holding ends as the seed computes it.

``model.twist: seed_b13`` of ``higher_order`` (the default, ``parallel_transport``, is
higher_order.py's ``_total_twist``). With both ends kinematically constrained the twist
constraint (eq. 4.34) makes GJτ uniform, τ = Θ/L_TOT with the total twist

    Θ = α^(N) − α^(0) + Σ_i γ_i L_u                                    (eq. 4.34, digest §5.2)

where α is the torsional deformation, the angle from the Frenet normal n̂ to the section
axis p̂₁ about the tangent, and γ_i the element torsion at the element midpoint (eq. 4.24).
App. B fixes the two boundary values:

- α at an end from the observed normal, α = atan2(−n̂·p̂₂, n̂·p̂₁) (eqs. B.2, B.7), with
  n̂ = r''/κ (B.3); where κ = 0 at the end (a spherical / free end of the spline), n̂ = b̂^(k)
  × t̂ with b̂^(k) the binormal at the first node inward with κ ≠ 0 (B.4–B.6); a straight
  tether keeps the last normal seen at the start (App. B.1, last paragraph);
- that α^(N)* is known only modulo π (inflections flip n̂, B.2; eq. B.16 lists the branches
  α* + mπ); the branch is the one within TOL_α = π/2 of the estimator (B.13)

      α̃^(N) = α^(0) + (φ^(N) − φ^(0)) − Σ_i γ_i L_u,

  φ the ends' roll angles (eqs. B.14, B.15; here the case's roll values, the Euler roll of
  eq. B.8 that B.14 extracts, so a vertical end has no gimbal singularity).

Nothing is tracked in time: every evaluation picks the branch afresh. Since
Θ = Δφ + (α^(N) − α̃^(N)) exactly, |Θ − Δφ| ≤ π/2 always (docs/higher_order.md, "Twist").
"""

from __future__ import annotations

import math

from .._jit import inline_kernel, kernel

#: κ L_u below which a nodal curvature counts as zero (App. B: r'' = 0 at a spline end)
ZERO_CURVATURE = 1e-9
# the memory array: a normal seen at the start (0/1 flag, 3 components), then the last
# evaluation's terms for inspection: α^(0), α̃^(N), α^(N)*, m, Σγ_i L_u, α^(N) [rad]
(M_SEEN, M_NX, M_NY, M_NZ, M_ALPHA0, M_ESTIMATE, M_ALPHA_STAR, M_BRANCH, M_GAMMA_SUM,
 M_ALPHAN) = range(10)
MEMORY = 10


@inline_kernel
def element_torsion(pos, r2, a, b, h):
    """γ [1/m] of the element between nodes a and b at its midpoint, eq. (4.24):
    γ = r'·(r''×r''')/(r''·r''), with r' = Δr/h + (h/24)(r''_a − r''_b), r'' = ½(r''_a + r''_b)
    and r''' = (r''_b − r''_a)/h (the cubic of eq. 4.15 at x = ½); 0 where r'' = 0 (B.6)."""
    d1x = (pos[b, 0] - pos[a, 0]) / h + (h / 24.0) * (r2[a, 0] - r2[b, 0])
    d1y = (pos[b, 1] - pos[a, 1]) / h + (h / 24.0) * (r2[a, 1] - r2[b, 1])
    d1z = (pos[b, 2] - pos[a, 2]) / h + (h / 24.0) * (r2[a, 2] - r2[b, 2])
    d2x = 0.5 * (r2[a, 0] + r2[b, 0])
    d2y = 0.5 * (r2[a, 1] + r2[b, 1])
    d2z = 0.5 * (r2[a, 2] + r2[b, 2])
    kk = d2x * d2x + d2y * d2y + d2z * d2z
    if math.sqrt(kk) * h <= ZERO_CURVATURE:
        return 0.0
    d3x = (r2[b, 0] - r2[a, 0]) / h
    d3y = (r2[b, 1] - r2[a, 1]) / h
    d3z = (r2[b, 2] - r2[a, 2]) / h
    cx = d2y * d3z - d2z * d3y
    cy = d2z * d3x - d2x * d3z
    cz = d2x * d3y - d2y * d3x
    return (d1x * cx + d1y * cy + d1z * cz) / kk


@inline_kernel
def _curved(r2, i, h):
    """Whether node i's curvature vector counts as non-zero (κ L_u above ZERO_CURVATURE)."""
    return math.sqrt(r2[i, 0] ** 2 + r2[i, 1] ** 2 + r2[i, 2] ** 2) * h > ZERO_CURVATURE


@kernel
def _end_normal(n, end, lu, r2, ntan, q, out):
    """Frenet normal n̂ at an end (0 start, 1 end) with tangent q into out; False when the
    tether is straight (no node with κ ≠ 0). Eq. (B.3), or b̂^(k) × q with b̂^(k) the
    binormal at the first curved node k inward (B.4–B.6, B.7)."""
    i0 = 0 if end == 0 else n - 1
    step = 1 if end == 0 else -1
    if _curved(r2, i0, lu[0]):
        for k in range(3):
            out[k] = r2[i0, k]
    else:
        k = i0 + step
        found = False
        while k >= 0 and k < n:
            if _curved(r2, k, lu[0]):
                found = True
                break
            k += step
        if not found:
            return False
        # b̂^(k) ∝ t̂^(k) × r''^(k); n̂ = b̂^(k) × q (normalised by the caller's atan2)
        bx = ntan[k, 1] * r2[k, 2] - ntan[k, 2] * r2[k, 1]
        by = ntan[k, 2] * r2[k, 0] - ntan[k, 0] * r2[k, 2]
        bz = ntan[k, 0] * r2[k, 1] - ntan[k, 1] * r2[k, 0]
        out[0] = by * q[2] - bz * q[1]
        out[1] = bz * q[0] - bx * q[2]
        out[2] = bx * q[1] - by * q[0]
    return True


@inline_kernel
def _alpha(nv, q, p):
    """α = atan2(−n̂·p̂₂, n̂·p̂₁) [rad] with p̂₂ = q × p̂₁ (eqs. B.2, B.7; R_IB of eq. B.8 is
    a rotation, so (q̂, p̂₁, p̂₂) is right-handed); n̂ need not be unit."""
    p2x = q[1] * p[2] - q[2] * p[1]
    p2y = q[2] * p[0] - q[0] * p[2]
    p2z = q[0] * p[1] - q[1] * p[0]
    return math.atan2(-(nv[0] * p2x + nv[1] * p2y + nv[2] * p2z),
                      nv[0] * p[0] + nv[1] * p[1] + nv[2] * p[2])


@kernel
def seed_b13_twist(n, lu, pos, r2, ntan, q0, p0, phi0, q1, p1, phi1, work, mem):
    """Total twist Θ = α^(N) − α^(0) + Σγ_i L_u [rad] between two ends that hold their roll,
    by seed 004 App. B (eqs. B.2–B.7, B.13, B.16; see the module docstring).

    n: live nodes; lu: unstretched element lengths [m]; pos, r2, ntan: node positions,
    curvature vectors r'' (eq. 3.12) and unit spline tangents; q0, p0 / q1, p1: each end's
    tangent (along increasing s) and section axis p̂₁; phi0, phi1: the ends' rolls [rad];
    work: 6 scratch values; mem: MEMORY values kept between calls (see M_*).
    """
    gsum = 0.0
    for e in range(n - 1):
        gsum += element_torsion(pos, r2, e, e + 1, lu[e]) * lu[e]  # Σγ_i L_u (eq. B.13)
    n0 = work[0:3]
    nN = work[3:6]
    if _end_normal(n, 0, lu, r2, ntan, q0, n0):
        mem[M_SEEN] = 1.0
        for k in range(3):
            mem[M_NX + k] = n0[k]
        straight = False
    else:  # straight: the last normal seen at the start (or p̂₁ there before any bend)
        straight = True
        for k in range(3):
            n0[k] = mem[M_NX + k] if mem[M_SEEN] != 0.0 else p0[k]
    if straight or not _end_normal(n, 1, lu, r2, ntan, q1, nN):
        for k in range(3):  # a constant Frenet frame about the (straight) tangent
            nN[k] = n0[k]
    alpha0 = _alpha(n0, q0, p0)  # eq. (B.2)
    star = _alpha(nN, q1, p1)  # eq. (B.7)
    estimate = alpha0 + (phi1 - phi0) - gsum  # eq. (B.13)
    m = round((estimate - star) / math.pi)  # eq. (B.16), |α^(N) − α̃^(N)| ≤ TOL_α = π/2
    alphan = star + m * math.pi
    mem[M_ALPHA0] = alpha0
    mem[M_ESTIMATE] = estimate
    mem[M_ALPHA_STAR] = star
    mem[M_BRANCH] = m
    mem[M_GAMMA_SUM] = gsum
    mem[M_ALPHAN] = alphan
    return alphan - alpha0 + gsum  # eq. (4.34) closed form: L_TOT τ̄
