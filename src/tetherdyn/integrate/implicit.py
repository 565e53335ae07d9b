"""Compiled generalized-α integrator (Chung & Hulbert 1993) for M(q) q̈ = F(t, q, q̇).

Seed 004 §5.4.2, eqs. (5.3)–(5.7), with the parameters from the high-frequency spectral
radius ρ∞ (Chung–Hulbert design, seed 004 §5.4.2 / digest §9.3). Model-agnostic: the loop
knows only the second-order surface of models/base.py (``force``, ``mass``, ``held_acc``,
``n_q``, ``band``, ``held``) plus ``enforce``, ``check`` and, once, ``rhs`` for the first
acceleration. See docs/generalized_alpha.md.

One step from (q_n, v_n, a_n) to t_{n+1} = t_n + h solves for the algorithmic acceleration
a = a_{n+1} of the free coordinates:

    q_{n+1} = q_n + h v_n + h² ((½ − β) a_n + β a)          seed 004 eq. (5.3)
    v_{n+1} = v_n + h ((1 − γ) a_n + γ a)                    seed 004 eq. (5.4)
    g(a) = M(q_α) ((1 − α_m) a + α_m a_n) − F(t_α, q_α, v_α) = 0   eqs. (5.5), (5.7)
    (·)_α = (1 − α_f)(·)_{n+1} + α_f (·)_n,  t_α = t_n + (1 − α_f) h   eq. (5.6)

Held coordinates take their accelerations from ``held_acc`` and their q, q̇ at t_{n+1}
from ``enforce``. Newton (modified: the factorised Jacobian is reused while it converges)
with J = (1 − α_m) M − ∂F(q_α(a), v_α(a))/∂a = (1 − α_m) M − (1 − α_f)(β h² ∂F/∂q
+ γ h ∂F/∂q̇), ∂M/∂q neglected. ∂F/∂a comes from banded finite differences with column
colouring (2·band + 1 perturbed force evaluations per Jacobian, whatever n_q); J is
factorised by a banded LU with partial pivoting inside the band.

The step (Newton with its safeguards, step control, landing on outputs: :func:`_newton`,
:func:`ga_chunk`) is one template for a single line and for a system of lines, points and
bodies (implicit_system.py): the layout's trial update, residual, Jacobian and linear
solve are bound into it by name (:func:`compile_step`; this module's band for a line).

``state`` (float64[14]) is in/out, read by name through the S_* indices (the first six as
in explicit.py): [status, t_fail, element, force evaluations, next step h, steps, scaled
Newton increment at failure, max |residual| at failure, Jacobians, rejected steps, Newton
iterations, h of the factorised Jacobian (0: none), h at failure, 1 while the
acceleration is still to be taken from ``rhs``]. status as in
explicit.py plus NEWTON_FAILED. ``params`` (float64[10]): [α_m, α_f, β, γ, rtol, atol, dt,
adaptive (0/1), max_steps, smallest step].
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from .._jit import bind_kernels, kernel, loop
from .explicit import (
    BLOWUP,
    MAX_STEPS,
    S_ELEMENT,
    S_EVALS,
    S_H,
    S_STATUS,
    S_STEPS,
    S_TFAIL,
    STEP_UNDERFLOW,
)

__all__ = ["NEWTON_FAILED", "parameters", "ga_chunk", "band_lu", "band_solve", "ga_step",
           "STATE_SIZE", "compile_step", "LineJacobian", "Workspace"]

#: status: Newton did not converge even at the smallest step allowed
NEWTON_FAILED = 4
STATE_SIZE = 14
# state indices: the first six as in explicit.py (S_STATUS … S_STEPS), then
S_INCR, S_RESID, S_JACS, S_REJECTS, S_ITERS, S_HJAC, S_HFAIL, S_START = range(6, 14)
# params indices
P_AM, P_AF, P_BETA, P_GAMMA, P_RTOL, P_ATOL, P_DT, P_ADAPT, P_MAXSTEPS, P_HMIN = range(10)

#: Newton stops when the estimated remaining error (scaled like rk45's error norm) is below
#: this fraction of the tolerance
NEWTON_TOL = 0.05
#: Newton iterations per attempt before the step is cut (plus NEWTON_BACKTRACKS)
NEWTON_MAX_ITER = 15
#: a contraction rate above this triggers a fresh Jacobian (a reused one, or one built in
#: this solve at an earlier iterate, at most JAC_REBUILDS times per solve)
SLOW_RATE = 0.5
#: Jacobians rebuilt at the current iterate per solve after the solve's first one
JAC_REBUILDS = 1
#: halvings of a diverging Newton step per solve (line search) before the step is cut
NEWTON_BACKTRACKS = 6
#: a Jacobian is reused for a step h with h / h_J inside [1 / JAC_H_RATIO, JAC_H_RATIO]
JAC_H_RATIO = 1.25
#: relative finite-difference perturbation of the coordinates (≈ sqrt(machine epsilon))
FD_REL = 1.5e-8


def parameters(rho_inf: float) -> tuple[float, float, float, float]:
    """(α_m, α_f, β, γ) for the high-frequency spectral radius ρ∞ ∈ [0, 1] (Chung & Hulbert
    1993; seed 004 §5.4.2): second-order accurate, unconditionally stable (linear), with
    the high-frequency dissipation maximised for the given low-frequency one."""
    if not 0.0 <= rho_inf <= 1.0:
        raise ValueError(f"rho_inf must lie in [0, 1], got {rho_inf}")
    am = (2.0 * rho_inf - 1.0) / (rho_inf + 1.0)
    af = rho_inf / (rho_inf + 1.0)
    gamma = 0.5 - am + af
    beta = 0.25 * (1.0 - am + af) ** 2
    return am, af, beta, gamma


# -- banded LU with partial pivoting ----------------------------------------------------
# Row-wise storage W (n, 3b + 1): entry (i, j) of the matrix at W[i, j - i + b] for
# j ∈ [i - b, i + 2b] (the extra b upper diagonals hold the fill-in of row interchanges,
# as in LAPACK's gbtrf). The multipliers of step k are stored in place of the entries they
# eliminate and stay in their slot when later interchanges move the rest of the row.


@kernel
def band_lu(W, b, piv):
    """Factorise the banded matrix in W in place; returns -1, or the first zero pivot."""
    n = W.shape[0]
    for k in range(n):
        # pivot: largest |entry| of column k among rows k … k + b
        p = k
        big = abs(W[k, b])
        for r in range(k + 1, min(k + b + 1, n)):
            v = abs(W[r, k - r + b])
            if v > big:
                big = v
                p = r
        piv[k] = p
        if big == 0.0:
            return k
        if p != k:
            for j in range(k, min(k + 2 * b + 1, n)):
                tmp = W[k, j - k + b]
                W[k, j - k + b] = W[p, j - p + b]
                W[p, j - p + b] = tmp
        inv = 1.0 / W[k, b]
        for r in range(k + 1, min(k + b + 1, n)):
            lr = W[r, k - r + b] * inv
            W[r, k - r + b] = lr
            if lr != 0.0:
                for j in range(k + 1, min(k + 2 * b + 1, n)):
                    W[r, j - r + b] -= lr * W[k, j - k + b]
    return -1


@kernel
def band_solve(W, b, piv, x):
    """Solve with the factors from :func:`band_lu`; x holds the right-hand side on entry."""
    n = W.shape[0]
    for k in range(n):
        p = piv[k]
        if p != k:
            tmp = x[k]
            x[k] = x[p]
            x[p] = tmp
        xk = x[k]
        for r in range(k + 1, min(k + b + 1, n)):
            x[r] -= W[r, k - r + b] * xk
    for k in range(n - 1, -1, -1):
        s = x[k]
        for j in range(k + 1, min(k + 2 * b + 1, n)):
            s -= W[k, j - k + b] * x[j]
        x[k] = s / W[k, b]


# -- the step template ------------------------------------------------------------------
# _newton and ga_chunk are one template for a single line (this module) and a system of
# lines, points and bodies (implicit_system.py). They call the model's kernels and a
# layout's step helpers by the global names below, which compile_step binds per kernel
# set (_jit.bind_kernels: one compiled copy per set, cached on disk, issue 22). The
# layout's constant and work arrays travel in one tuple ``L`` (LineJacobian here,
# implicit_system.SystemJacobian); F, Fp hold what ``_residual`` evaluates (a line: the
# force, n_q; a system: the rhs, n_state). The step helpers (STEP_ROLES):
#
#   _predict(data, t, h, L, y, a, an)              an = the predictor at t + h
#   _trial(data, t1, h, params, L, y, a, an, y1, ya)   y1 (t_{n+1}) and ya (eq. 5.6) from an
#   _residual(data, ta, am, L, a, an, ya, F, r)    the model at ya; r = g(an), max |r|
#   _jacobian(data, t, h, params, L, y, a, an, F0, y1, ya, ap, Fp)   ∂g/∂a factorised in
#                                                  L; -1 or the first zero pivot
#   _colours(L)                                    force evaluations per Jacobian
#   _solve(L, x)                                   x ← (∂g/∂a)⁻¹ x
#   _update(L, an, dx, s)                          an += s dx on the unknowns
#   _increment_norm(h, params, L, y1, da)          Newton's scaled increment
#   _error_estimate(h, params, L, y, y1, a, an)    the step's scaled local error
#   _accelerations(data, t, L, y, a, work)         a = q̈(t, y) from the rhs (work: n_state)
force = mass = held_acc = enforce = remesh = rhs = check = None
KERNEL_ROLES = ("force", "mass", "held_acc", "enforce", "remesh", "rhs", "check")
STEP_ROLES = ("_predict", "_trial", "_residual", "_jacobian", "_colours", "_solve", "_update",
              "_increment_norm", "_error_estimate", "_accelerations")


def _newton(data, t, h, params, L, y, a, an, y1, ya, F, Fp, ap, r, state):
    """Solve one step for an (from the predictor). Returns True on convergence, with y1 the
    state at t + h; on failure state[S_INCR], state[S_RESID] describe the last iterate.

    Modified Newton (the factorised Jacobian is reused while it converges) with two
    safeguards at the kink of the bilinear tension law (seed 004 eq. 2.17), where a
    Jacobian built on one side of it sends the iterates across and back (issue 22,
    benchmarks/trace_ga_newton.py): a Jacobian built in this solve that stops contracting
    is rebuilt at the current iterate (semismooth Newton: the branch of the iterate), up
    to JAC_REBUILDS times; after that, a diverging step is halved along its direction (a
    line search on the natural monotonicity test, as the seed's §5.4.2 does along the
    Newton direction), up to NEWTON_BACKTRACKS times. ``ap`` holds the last full Newton
    step while no Jacobian is being built."""
    am = params[P_AM]
    ta = t + (1.0 - params[P_AF]) * h
    _predict(data, t, h, L, y, a, an)
    hj = state[S_HJAC]
    need_jac = hj <= 0.0 or h > JAC_H_RATIO * hj or h * JAC_H_RATIO < hj
    fresh = False  # the Jacobian was built in this solve
    rebuilds = 0
    backtracks = 0
    lam = 1.0  # fraction of the last full step ap taken
    e_prev = 0.0
    for _ in range(NEWTON_MAX_ITER + NEWTON_BACKTRACKS):
        _trial(data, t + h, h, params, L, y, a, an, y1, ya)
        resid = _residual(data, ta, am, L, a, an, ya, F, r)
        state[S_EVALS] += 1.0
        state[S_RESID] = resid
        if not math.isfinite(resid):
            state[S_INCR] = math.inf
            return False
        if need_jac:
            state[S_EVALS] += _colours(L)
            state[S_JACS] += 1.0
            bad = _jacobian(data, t, h, params, L, y, a, an, F, y1, ya, ap, Fp)
            need_jac = False
            fresh = True
            if bad >= 0:
                state[S_HJAC] = 0.0
                state[S_INCR] = math.inf
                return False
            state[S_HJAC] = h
            e_prev = 0.0
        for i in range(r.size):
            r[i] = -r[i]
        _solve(L, r)
        state[S_ITERS] += 1.0
        e = _increment_norm(h, params, L, y1, r)
        state[S_INCR] = e
        if not math.isfinite(e):
            return False
        if e_prev > 0.0:
            theta = e / e_prev
            if theta > SLOW_RATE and (not fresh or rebuilds < JAC_REBUILDS):
                # a fresh Jacobian at the current iterate; a contracting step (and, as
                # measured, a reused Jacobian's diverging one) is taken first
                if fresh:
                    rebuilds += 1
                if theta < 1.0 or not fresh:
                    _update(L, an, r, 1.0)
                need_jac = True
                e_prev = 0.0
                continue
            if theta >= 1.0:
                if backtracks == NEWTON_BACKTRACKS:
                    return False  # diverging with a fresh Jacobian
                # halve the last step: an = a_prev + lam ap → a_prev + lam / 2 ap
                backtracks += 1
                _update(L, an, ap, -0.5 * lam)
                lam *= 0.5
                continue
            done = theta / (1.0 - theta) * e <= NEWTON_TOL
        else:
            done = e <= NEWTON_TOL
        _update(L, an, r, 1.0)
        for i in range(r.size):
            ap[i] = r[i]
        lam = 1.0
        if done or e <= 1e-3 * NEWTON_TOL:
            _trial(data, t + h, h, params, L, y, a, an, y1, ya)
            return True
        e_prev = e
    return False


def ga_chunk(data, L, t, t_outputs, y, Y, a, an, y1, ya, F, Fp, ap, r, params, state):
    """Generalized-α steps to each time in t_outputs (steps shortened to land on them),
    storing y there in Y. ``a`` (n_q) is the algorithmic acceleration at t, carried between
    chunks. After a step that changes the state's layout (``remesh``: a winch split or
    merge; ``held`` may change with it) the method restarts from the true acceleration
    (``rhs``) with a fresh Jacobian; so does the first call after :meth:`Workspace.start`
    (state[S_START]: the model's ``rhs`` runs inside this loop, its cached entry point is
    not loaded on its own, issue 22). Returns the number of outputs written (fewer on
    failure; see state)."""
    nq = a.size
    ny = y.size
    if state[S_START] != 0.0:
        _accelerations(data, t, L, y, a, y1)  # y1 is free until the first step
        state[S_START] = 0.0
    adaptive = params[P_ADAPT] != 0.0
    dt = params[P_DT]
    hmin = params[P_HMIN]
    max_steps = params[P_MAXSTEPS]
    h = state[S_H]
    for j in range(t_outputs.size):
        t_target = t_outputs[j]
        while t < t_target:
            if state[S_STEPS] >= max_steps:
                state[S_STATUS] = MAX_STEPS
                state[S_TFAIL] = t
                state[S_H] = h
                return j
            hs = h
            # take the remainder when it is within 1 % of h (no sliver steps before outputs)
            last = t + 1.01 * hs >= t_target
            if last:
                hs = t_target - t
            ok = _newton(data, t, hs, params, L, y, a, an, y1, ya, F, Fp, ap, r, state)
            err = 0.0
            if ok and adaptive:
                err = _error_estimate(hs, params, L, y, y1, a, an)
                if not math.isfinite(err):
                    err = 1e10
            if not ok or err > 1.0:
                state[S_REJECTS] += 1.0
                if not ok:
                    h = 0.5 * hs
                    state[S_HJAC] = 0.0  # a fresh Jacobian at the shorter step
                else:
                    h = hs * max(0.2, 0.9 * err ** (-1.0 / 3.0))
                if h < hmin:
                    state[S_STATUS] = NEWTON_FAILED if not ok else STEP_UNDERFLOW
                    state[S_TFAIL] = t
                    state[S_HFAIL] = hs
                    state[S_ELEMENT] = check(t, y, data)
                    state[S_H] = h
                    return j
                continue
            # accept
            t = t_target if last else t + hs
            for i in range(ny):
                y[i] = y1[i]
            for i in range(nq):
                a[i] = an[i]
            state[S_STEPS] += 1.0
            if remesh(t, y, data) != 0:
                _accelerations(data, t, L, y, a, y1)  # y1 is free until the next step
                state[S_HJAC] = 0.0
            finite = True
            for i in range(ny):
                finite &= (y[i] - y[i]) == 0.0
            if not finite:
                state[S_STATUS] = BLOWUP
                state[S_TFAIL] = t
                state[S_ELEMENT] = check(t, y, data)
                state[S_H] = h
                return j
            if adaptive:
                fac = 2.0 if err == 0.0 else min(2.0, max(0.2, 0.9 * err ** (-1.0 / 3.0)))
                # keep h (and the factorised Jacobian) unless the change is worth it
                if fac < 1.0 or fac > 1.2:
                    if not last or fac < 1.0:
                        h = hs * fac
            else:
                h = min(dt, 2.0 * hs)  # back to the nominal step after a cut
        bad = check(t, y, data)
        if bad >= 0:
            state[S_STATUS] = BLOWUP
            state[S_TFAIL] = t
            state[S_ELEMENT] = bad
            state[S_H] = h
            return j
        for i in range(ny):
            Y[j, i] = y[i]
    state[S_H] = h
    return t_outputs.size


def compile_step(kernels: dict, functions: dict, helpers: tuple, inline: tuple[str, ...]):
    """:func:`ga_chunk` (and :func:`_newton`) compiled with a model's ``kernels`` (global
    name -> kernel) and a layout's step helpers (STEP_ROLES): ``functions``, compiled
    helpers that call no kernel, bound as they are; ``helpers``, templates that call
    kernels, compiled with them in calling order (_jit.bind_kernels; ``inline``: those
    inlined into their callers). Cached on disk per kernel set and layout."""
    given = set(functions) | {h.__name__ for h in helpers}
    if given != set(STEP_ROLES):
        raise ValueError(f"compile_step: step helpers {sorted(given ^ set(STEP_ROLES))} "
                         f"missing or unknown")
    return bind_kernels(ga_chunk, {**kernels, **functions}, helpers=(*helpers, _newton),
                        inline=inline)


# -- a single line: one band ------------------------------------------------------------

#: a line's Jacobian: the half-bandwidth of M and ∂F/∂q (int), the held flags (n_q), the
#: banded mass matrix (band + 1, n_q: lower band by diagonals, as models/base.py's
#: ``mass``), the banded LU W (n_q, 3 band + 1) and its pivots (n_q)
LineJacobian = namedtuple("LineJacobian", ["band", "held", "Mb", "W", "piv"])


def _predict(data, t, h, L, y, a, an):
    """an = a on the free coordinates, the prescribed accelerations on held ones."""
    for i in range(an.size):
        an[i] = a[i]
    held_acc(t + h, y, an, data)


def _trial(data, t1, h, params, L, y, a, an, y1, ya):
    """y1 = state at t_{n+1} from the accelerations an (eqs. 5.3–5.4; held ones then
    overwritten by enforce), ya = α_f-weighted state (eq. 5.6)."""
    beta = params[P_BETA]
    gamma = params[P_GAMMA]
    af = params[P_AF]
    nq = an.size
    for i in range(nq):
        y1[i] = y[i] + h * y[nq + i] + h * h * ((0.5 - beta) * a[i] + beta * an[i])
        y1[nq + i] = y[nq + i] + h * ((1.0 - gamma) * a[i] + gamma * an[i])
    enforce(t1, y1, data)
    for i in range(2 * nq):
        ya[i] = (1.0 - af) * y1[i] + af * y[i]


def _residual(data, ta, am, L, a, an, ya, F, r):
    """F and M at (t_α, ya), then r = M ((1 − α_m) an + α_m a) − F (eqs. 5.5, 5.7)."""
    force(ta, ya, F, data)
    mass(ta, ya, L.Mb, data)
    return _balance(L.Mb, L.band, L.held, am, a, an, F, r)


@loop
def _balance(Mb, band, held, am, a, an, F, r):
    """r = M ((1 − α_m) an + α_m a) − F on the free coordinates (0 on held ones); returns
    max |r| [force units]."""
    nq = r.size
    big = 0.0
    for i in range(nq):
        if held[i]:
            r[i] = 0.0
            continue
        s = 0.0
        for j in range(max(0, i - band), min(nq, i + band + 1)):
            m = Mb[i - j, j] if i >= j else Mb[j - i, i]
            s += m * ((1.0 - am) * an[j] + am * a[j])
        r[i] = s - F[i]
        v = abs(r[i])
        if not v <= big:  # NaN propagates
            big = v
    return big


def _jacobian(data, t, h, params, L, y, a, an, F0, y1, ya, ap, Fp):
    """Banded finite-difference Jacobian of the residual in a, factorised into L.W.

    Columns j ≡ c (mod 2·band + 1) touch disjoint rows, so one force evaluation per colour
    gives all of them. Returns -1 or the index of a zero pivot."""
    band, held, Mb, W, piv = L.band, L.held, L.Mb, L.W, L.piv
    nq = an.size
    am = params[P_AM]
    af = params[P_AF]
    dq_da = (1.0 - af) * params[P_BETA] * h * h  # ∂q_α/∂a, eq. (5.3) with (5.6)
    ta = t + (1.0 - af) * h
    ncol = 2 * band + 1
    for i in range(nq):
        for k in range(3 * band + 1):
            W[i, k] = 0.0
    for c in range(ncol):
        any_col = False
        for i in range(nq):
            ap[i] = an[i]
        for j in range(c, nq, ncol):
            if not held[j]:
                ap[j] += FD_REL * (abs(y[j]) + 1.0) / dq_da
                any_col = True
        if not any_col:
            continue
        _trial(data, t + h, h, params, L, y, a, ap, y1, ya)
        force(ta, ya, Fp, data)
        for j in range(c, nq, ncol):
            if held[j]:
                continue
            inv = 1.0 / (ap[j] - an[j])
            for i in range(max(0, j - band), min(nq, j + band + 1)):
                if held[i]:
                    continue
                m = Mb[i - j, j] if i >= j else Mb[j - i, i]
                W[i, j - i + band] = (1.0 - am) * m - (Fp[i] - F0[i]) * inv
    for i in range(nq):
        if held[i]:
            W[i, band] = 1.0
    return band_lu(W, band, piv)


@loop
def _colours(L):
    """Force evaluations per Jacobian: one per colour of the band."""
    return 2 * L.band + 1


@loop
def _solve(L, x):
    """x ← J⁻¹ x with the band LU of :func:`_jacobian`."""
    band_solve(L.W, L.band, L.piv, x)


@loop
def _update(L, an, dx, s):
    """an += s dx on the free coordinates."""
    for i in range(an.size):
        if not L.held[i]:
            an[i] += s * dx[i]


@loop
def _increment_norm(h, params, L, y1, da):
    """RMS over free coordinates of the position and velocity increments β h² Δa and
    γ h Δa, each scaled by atol + rtol |y| (like rk45's error norm)."""
    held = L.held
    nq = da.size
    bh2 = params[P_BETA] * h * h
    gh = params[P_GAMMA] * h
    rtol = params[P_RTOL]
    atol = params[P_ATOL]
    s = 0.0
    cnt = 0
    for i in range(nq):
        if held[i]:
            continue
        eq = bh2 * da[i] / (atol + rtol * abs(y1[i]))
        ev = gh * da[i] / (atol + rtol * abs(y1[nq + i]))
        s += eq * eq + ev * ev
        cnt += 2
    if cnt == 0:
        return 0.0
    return math.sqrt(s / cnt)


@loop
def _error_estimate(h, params, L, y, y1, a, an):
    """Local error of the position update (Zienkiewicz & Xie 1991): h² |β − 1/6| |a_{n+1} −
    a_n| per free coordinate, scaled by atol + rtol max(|q_n|, |q_{n+1}|), RMS."""
    held = L.held
    nq = a.size
    c = abs(params[P_BETA] - 1.0 / 6.0) * h * h
    rtol = params[P_RTOL]
    atol = params[P_ATOL]
    s = 0.0
    cnt = 0
    for i in range(nq):
        if held[i]:
            continue
        sc = atol + rtol * max(abs(y[i]), abs(y1[i]))
        e = c * (an[i] - a[i]) / sc
        s += e * e
        cnt += 1
    if cnt == 0:
        return 0.0
    return math.sqrt(s / cnt)


def _accelerations(data, t, L, y, a, work):
    """a = q̈ from the model's first-order rhs at (t, y) (work: n_state scratch)."""
    nq = a.size
    rhs(t, y, work, data)
    for i in range(nq):
        a[i] = work[nq + i]


def compiled_ga_chunk(model):
    """:func:`ga_chunk` compiled with ``model``'s kernels and the line's step helpers,
    cached on disk per formulation (compile_step). The class's kernels, not a lean
    per-instance replacement (models/base.py): one compiled loop per formulation."""
    cls = model if isinstance(model, type) else type(model)
    # as before the shared template: _trial, _jacobian and _newton compiled on their own,
    # the small kernel-calling helpers inlined (no kernel finalised in one more function)
    return compile_step({r: getattr(cls, r) for r in KERNEL_ROLES},
                        {"_colours": _colours, "_solve": _solve, "_update": _update,
                         "_increment_norm": _increment_norm,
                         "_error_estimate": _error_estimate},
                        helpers=(_trial, _jacobian, _predict, _residual, _accelerations),
                        inline=("_predict", "_residual", "_accelerations"))


class Workspace:
    """The work arrays of one generalized-α run of a single line (allocated once, reused by
    every chunk): the layout tuple ``L`` (:data:`LineJacobian`) and the step's vectors."""

    def __init__(self, model, y: np.ndarray, params: np.ndarray,
                 held: np.ndarray | None = None) -> None:
        nq = int(model.n_q)
        b = int(model.band)
        ny = y.size
        if ny != 2 * nq:
            raise ValueError(f"model {model.name}: state size {ny} is not 2 n_q = {2 * nq}")
        # the run's held flags (models/base.py RunData.held: a winch split or merge
        # rewrites them in place), else the model's
        held = np.ascontiguousarray(model.held if held is None else held, dtype=np.int64)
        self.band, self.held = b, held
        self.Mb = np.zeros((b + 1, nq))
        self.W = np.zeros((nq, 3 * b + 1))
        self.piv = np.zeros(nq, dtype=np.int64)
        self.L = LineJacobian(band=b, held=held, Mb=self.Mb, W=self.W, piv=self.piv)
        self._vectors(nq, ny, nq, params)

    def _vectors(self, nq: int, ny: int, nf: int, params: np.ndarray) -> None:
        """The step's vectors: accelerations (n_q), trial states (ny), what the residual
        evaluates (nf), the Newton step and residual (n_q), and the counters."""
        self.a = np.zeros(nq)
        self.an = np.zeros(nq)
        self.y1 = np.zeros(ny)
        self.ya = np.zeros(ny)
        self.F = np.zeros(nf)
        self.Fp = np.zeros(nf)
        self.ap = np.zeros(nq)
        self.r = np.zeros(nq)
        self.params = params
        self.state = np.zeros(STATE_SIZE)
        self.state[S_H] = params[P_DT]

    def start(self) -> None:
        """Take a(t) from the model's first-order rhs at the next :meth:`run`'s start (M⁻¹F
        on free coordinates, held_acc on held ones: the contract of models/base.py)."""
        self.state[S_START] = 1.0

    def stats(self) -> dict:
        """Counters of the run so far."""
        st = self.state
        return dict(jacobians=int(st[S_JACS]), rejected_steps=int(st[S_REJECTS]),
                    newton_iterations=int(st[S_ITERS]), steps=int(st[S_STEPS]),
                    force_evaluations=int(st[S_EVALS]), last_step=float(st[S_H]))

    def carried(self) -> dict[str, np.ndarray]:
        """The arrays a restored run needs (the factorised Jacobian is reused across
        steps: part of the state)."""
        return {"state": self.state, "a": self.a, "W": self.L.W, "piv": self.L.piv}

    def compiled(self, model):
        """The compiled :func:`ga_chunk` of this layout and ``model``'s kernels."""
        return compiled_ga_chunk(model)

    def run(self, model, data: tuple, t: float, t_outputs: np.ndarray, y: np.ndarray,
            Y: np.ndarray) -> int:
        """:func:`ga_chunk` with the model's kernels and the run's ``data`` tuple."""
        return self.compiled(model)(data, self.L, t, t_outputs, y, Y, self.a, self.an,
                                    self.y1, self.ya, self.F, self.Fp, self.ap, self.r,
                                    self.params, self.state)


def make_params(alpha: tuple[float, float, float, float], rtol: float, atol: float, dt: float,
                adaptive: bool, max_steps: int) -> np.ndarray:
    """The ``params`` array of :func:`ga_chunk`. Smallest step: dt / 2^12 at a fixed step,
    1e-12 dt when adaptive (the controller may legitimately go far below dt)."""
    am, af, beta, gamma = alpha
    hmin = dt * 1e-12 if adaptive else dt / 4096.0
    return np.array([am, af, beta, gamma, rtol, atol, dt, float(adaptive), float(max_steps),
                     hmin])


def ga_step(model, t: float, y: np.ndarray, a: np.ndarray, h: float,
            alpha: tuple[float, float, float, float], rtol: float = 1e-10,
            atol: float = 1e-12) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One generalized-α step of size h from (y, a) at t: returns (y_{n+1}, a_{n+1}, state).

    For analysis (amplification matrices); runs still go through ``integrate``."""
    from ..models.base import RunData

    y = np.ascontiguousarray(y, dtype=float).copy()
    params = make_params(alpha, rtol, atol, h, False, 10)
    data = RunData(model)
    ws = Workspace(model, y, params, data.held)
    ws.a[:] = a
    Y = np.zeros((1, y.size))
    ws.run(model, data.args, t, np.array([t + h]), y, Y)
    return y, ws.a.copy(), ws.state.copy()
