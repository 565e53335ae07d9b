"""Seed 003 (Abdullah et al.): the planar ANCF cable (``ancf2d``) — statics against the
Euler–Bernoulli cantilever and the elastica, energy conservation, and the seed's flat
rubber strip (Table 1) released at 45° with the identified damping and drag (§4, Fig 7).

The strip (Table 1): 0.6 m long, 20 mm × 2 mm (``diameter`` = the 20 mm width that meets the
air), a = 4e-5 m², I = b h³/12 = 1.333e-11 m⁴, E = 9.4 MPa, ρ_t = 920 kg/m³, air
1.293 kg/m³, g = 9.8 m/s²; identified D = 2.0e3 N s/m² and C_D = 0.80 (Table 2).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp
from scipy.linalg import solve_banded
from scipy.optimize import brentq

from tetherdyn.case import load_case
from tetherdyn.models import build_model
from tetherdyn.models.ancf2d import E_AXIAL, E_BENDING, FX, FZ, GAUSS_POINTS, GX, GZ, PAYLOAD
from tetherdyn.simulate import simulate

from . import Row, register, save_figure
from .energy import energy_drift, energy_figure

# -- the seed-003 strip (Table 1, Table 2) --------------------------------------------------
LENGTH = 0.6  # [m]
WIDTH = 20e-3  # b [m]
THICKNESS = 2e-3  # h [m]
AREA = 4e-5  # a [m^2]
YOUNG = 9.4e6  # E [Pa]
DENSITY = 920.0  # rho_t [kg/m^3]
AIR = 1.293  # [kg/m^3]
GRAVITY = 9.8  # [m/s^2]
D_IDENT = 2.0e3  # identified damping parameter D [N s/m^2]
CD_IDENT = 0.80  # identified drag coefficient
EA_STRIP = YOUNG * AREA  # 376 N
EI_STRIP = YOUNG * WIDTH * THICKNESS**3 / 12.0  # 1.253e-4 N m^2
RELEASE_DEG = 45.0  # released from rest, raised 45° above the horizontal
COMPARE_UNTIL = 1.2  # [s] the free end whips shortly after; compare up to here

#: statics: tip deflection of the small-deflection cantilever within 1 % of q L^4 / (8 EI)
CANTILEVER_TOLERANCE = 0.01
#: elastica: finest mesh within this (relative) of the continuum solution
ELASTICA_TOLERANCE = 1e-4
#: energy: max|E - E0| / max KE without damping or drag, over the seed's 2 s
ENERGY_TOLERANCE = 1e-4
ENERGY_WINDOW = 2.0  # [s] the seed's span (§4.3)
#: [s] generalized-α step that holds the tolerance through the whip (measured, 2 s:
#: 20 elements 5.9e-5, 10 elements 9.6e-5 already at 1e-5 s)
ENERGY_DT = 5e-6
#: strip: tip within this of the finest mesh up to 1.2 s for the mesh before the finest [m]
STRIP_TOLERANCE = 0.01

#: Bisshopp & Drucker (1945), Q. Appl. Math. 3, 272–275, table of the cantilever with a
#: vertical tip load: alpha = P L^2 / EI -> (vertical, horizontal) tip deflection / L
#: (the commonly reproduced 4-5 digit values; our shooting solve reproduces them)
BISSHOPP_DRUCKER = {1.0: (0.30172, 0.05643), 2.0: (0.49346, 0.16064),
                    5.0: (0.71379, 0.38763), 10.0: (0.81061, 0.55500)}


def strip_case(elements: int, duration: float = 2.0, dt: float = 1e-5, *,
               method: str = "rk4", damping: bool = True, drag: bool = True,
               output_interval: float = 0.01, **solver) -> dict:
    """The seed-003 rubber strip pinned at the origin, released from rest at 45° (x–z)."""
    tether = dict(length=LENGTH, diameter=WIDTH, area=AREA, displaced_area=AREA,
                  density=DENSITY, EA=EA_STRIP, EI=EI_STRIP, drag_law="projected_area",
                  cd_normal=CD_IDENT)
    model: dict = dict(type="ancf2d", elements=elements)
    if damping:
        model["material_damping"] = D_IDENT
    c = math.cos(math.radians(RELEASE_DEG))
    s = math.sin(math.radians(RELEASE_DEG))
    return dict(
        name=f"seed 003 rubber strip, {elements} ANCF elements",
        tether=tether, model=model,
        environment=dict(gravity=[0.0, 0.0, -GRAVITY], fluid_density=AIR if drag else 0.0),
        start=dict(type="fixed", position=[0.0, 0.0, 0.0]),
        initial=dict(direction=[c, 0.0, s]),
        solver=dict(method=method, dt=dt, duration=duration, output_interval=output_interval,
                    **solver),
    )


def stable_dt(case: dict, safety: float = 0.8) -> float:
    """A fixed RK4 step [s] below ``safety`` × the model's critical step that divides the
    case's output interval."""
    model = build_model(load_case(case))
    dt_crit = model.critical_time_step()[0]
    out = case["solver"]["output_interval"]
    return out / math.ceil(out / (safety * dt_crit))


# -- statics: Newton on F(q) = 0 ------------------------------------------------------------


def static_potential(model, y: np.ndarray, t: float) -> float:
    """Total potential [J] of the ancf2d state y under constant loads: strain energy,
    gravity and buoyancy, payload weight and the (fully ramped) end forces."""
    d = model.data
    nq = model.n_q
    F = np.empty(nq)
    model.force(t, y, F, d)
    pe = d.energy[E_AXIAL] + d.energy[E_BENDING] - float(d.grav @ y[:nq])
    for w in range(2):
        base = 0 if w == 0 else nq - 4
        fx = d.ends[w, FX] + d.ends[w, PAYLOAD] * d.scal[GX]
        fz = d.ends[w, FZ] + d.ends[w, PAYLOAD] * d.scal[GZ]
        pe -= fx * y[base] + fz * y[base + 1]
    return pe


def static_solve(model, y: np.ndarray, *, t: float = 1e6, tol: float = 1e-11,
                 max_iter: int = 60) -> tuple[np.ndarray, int]:
    """Static equilibrium F(q) = 0 of an ancf2d model by Newton's method from state y.

    The Jacobian ∂F/∂q of the free coordinates comes from the model's own force kernel by
    forward differences, banded (half-bandwidth ``model.band``): columns j ≡ c mod
    (2·band + 1) touch disjoint rows, so 2·band + 1 force evaluations give it all. A
    backtracking line search on the total potential (:func:`static_potential`) keeps the
    iteration on the stable branch. Velocities are set to 0; ``t`` is past any force
    ramp. Returns the state and the number of iterations; raises RuntimeError otherwise.
    """
    d = model.data
    nq, band = model.n_q, model.band
    free = np.flatnonzero(model.held == 0)
    nf = free.size
    where = np.full(nq, -1)
    where[free] = np.arange(nf)
    y = np.array(y, dtype=float)
    y[nq:] = 0.0
    model.enforce(t, y, d)
    F = np.empty(nq)
    Fp = np.empty(nq)
    ncol = 2 * band + 1
    for it in range(max_iter):
        model.force(t, y, F, d)
        r = F[free].copy()
        ab = np.zeros((2 * band + 1, nf))  # scipy's banded layout: ab[u + i - j, j]
        for c in range(ncol):
            cols = free[np.arange(nf) % ncol == c]
            yp = y.copy()
            h = 1e-7 * np.maximum(1.0, np.abs(y[cols]))
            yp[cols] += h
            model.force(t, yp, Fp, d)
            for j, hj in zip(cols, h, strict=True):
                for i in range(max(0, j - band), min(nq, j + band + 1)):
                    if where[i] >= 0:
                        ab[band + where[i] - where[j], where[j]] = (Fp[i] - F[i]) / hj
        # K dq = F with K = -dF/dq
        dq = solve_banded((band, band), -ab, r)
        p0 = static_potential(model, y, t)
        slope = -float(r @ dq)
        lam = 1.0
        for _ in range(40):
            trial = y.copy()
            trial[free] += lam * dq
            if (static_potential(model, trial, t) <= p0 + 1e-4 * lam * slope
                    or np.abs(lam * dq).max() < tol):
                break
            lam *= 0.5
        y = trial
        if np.abs(lam * dq).max() < tol:
            return y, it + 1
    raise RuntimeError("static_solve: Newton did not converge")


def cantilever_case(elements: int, *, EI: float, EA: float, weight: float = 0.0,
                    tip_load: float = 0.0, length: float = 1.0) -> dict:
    """A horizontal cantilever along +x, clamped at the origin, gravity −z (weight per
    length [N/m]) and/or a downward tip load [N]."""
    g = 9.81
    return dict(
        tether=dict(length=length, diameter=0.01, mass_per_length=max(weight, 1e-3) / g,
                    EA=EA, EI=EI),
        model=dict(type="ancf2d", elements=elements),
        environment=dict(gravity=[0.0, 0.0, -g if weight > 0 else 0.0]),
        start=dict(type="fixed", position=[0.0, 0.0, 0.0], clamp=[1.0, 0.0, 0.0]),
        end=dict(type="free", force=[0.0, 0.0, -tip_load]),
        initial=dict(direction=[1.0, 0.0, 0.0]),
        solver=dict(method="rk4", dt=1e-3, duration=1e-3, output_interval=1e-3),
    )


def elastica(alpha: float, ea_ratio: float = math.inf) -> tuple[float, float]:
    """Tip deflections (vertical, horizontal) / L of a clamped cantilever with a vertical
    tip load, alpha = P L² / EI, by a shooting solve (independent of the ANCF code).

    Inextensible (``ea_ratio`` = inf): EI θ'' = −P cos θ, θ(0) = 0, θ'(L) = 0. Otherwise
    the continuum of the ancf2d energy ½ EA (λ − 1)² + ½ EI κ², κ = θ'/λ (λ = |r'|,
    ``ea_ratio`` = EA L² / EI): with m = EI θ'/λ², m' = −P λ cos θ, θ' = m λ² / EI and
    λ (EA − m²/EI) = EA + P sin θ (stationarity in λ); m(L) = 0.
    """
    ea = ea_ratio  # lengths in L, forces in EI / L^2

    def stretch(theta, m):
        if math.isinf(ea):
            return 1.0
        return (ea + alpha * math.sin(theta)) / (ea - m * m)

    def field(s, u):
        theta, m = u[0], u[1]
        lam = stretch(theta, m)
        return [m * lam * lam, -alpha * lam * math.cos(theta), lam * math.cos(theta),
                lam * math.sin(theta)]

    def shoot(m0):
        sol = solve_ivp(field, (0.0, 1.0), [0.0, m0, 0.0, 0.0], rtol=1e-12, atol=1e-13,
                        method="DOP853")
        return sol.y[:, -1]

    m0 = brentq(lambda m: shoot(m)[1], 1e-9, alpha * 1.01, xtol=1e-15)
    end = shoot(m0)
    return float(end[3]), float(1.0 - end[2])


@register("ancf2d_cantilever", "analytic",
          "ancf2d statics: cantilever under its own weight and the large-deflection elastica",
          reference="analytic")
def check_statics(full: bool = True, figure_dir: Path | None = None) -> Row:
    # (1) small deflection under own weight: q = 1 N/m, L = 1 m, EI = 1e3 N m^2 (tip
    # deflection 1.25e-4 L: geometric nonlinearity ~1e-8), EA = 1e7 N
    q_w, EI, EA = 1.0, 1.0e3, 1.0e7
    beam = q_w / (8.0 * EI)
    small = {}
    for n in (1, 2, 4, 8):
        model = build_model(load_case(cantilever_case(n, EI=EI, EA=EA, weight=q_w)))
        y, _ = static_solve(model, model.initial_state())
        small[n] = -y[model.n_q - 3] / beam - 1.0
    # (2) tip load alpha = P L^2 / EI, EI = 1, EA = 1e4 (EA L^2 / EI = 1e4): converged in
    # load steps of 0.25 alpha... compared with the continuum of the same energy (shooting)
    alphas = (1.0, 2.0, 5.0, 10.0)
    alpha = 5.0
    ea_ratio = 1.0e4
    sizes = (2, 4, 8, 16, 32) if full else (2, 4, 8, 16)
    ref = elastica(alpha, ea_ratio)
    inext = {a: elastica(a) for a in alphas}
    bd_err = max(max(abs(inext[a][0] - BISSHOPP_DRUCKER[a][0]),
                     abs(inext[a][1] - BISSHOPP_DRUCKER[a][1])) for a in alphas)
    large: dict[int, tuple[float, float]] = {}
    for n in sizes:
        y = None
        for frac in np.linspace(0.0, 1.0, 21)[1:]:
            model = build_model(load_case(cantilever_case(n, EI=1.0, EA=ea_ratio,
                                                          tip_load=alpha * frac)))
            y, _ = static_solve(model, model.initial_state() if y is None else y)
        large[n] = (-y[model.n_q - 3], 1.0 - y[model.n_q - 4])
    err = {n: max(abs(large[n][0] - ref[0]) / ref[0], abs(large[n][1] - ref[1]) / ref[1])
           for n in sizes}
    ordered = [err[n] for n in sizes]
    converging = all(b < a for a, b in zip(ordered, ordered[1:], strict=False))
    small_err = max(abs(v) for v in small.values())
    passed = (small_err < CANTILEVER_TOLERANCE and err[sizes[-1]] < ELASTICA_TOLERANCE
              and converging and bd_err < 2e-5)
    figure = None
    if figure_dir is not None:
        import matplotlib.figure

        fig = matplotlib.figure.Figure(figsize=(6.0, 3.5))
        ax = fig.add_subplot()
        ax.loglog(sizes, [err[n] for n in sizes], "o-")
        ax.set_xlabel("elements")
        ax.set_ylabel("relative tip error vs continuum")
        ax.set_title(f"ancf2d elastica, P L²/EI = {alpha:g}", fontsize=9)
        ax.grid(alpha=0.3, which="both")
        figure = save_figure(fig, figure_dir, "ancf2d_elastica.png")
    return Row(
        name="ancf2d statics: cantilever under own weight; elastica with a tip load",
        tier="analytic",
        expected=(f"tip q L⁴/(8 EI); elastica P L²/EI = {alpha:g}: tip "
                  f"({ref[0]:.5f}, {ref[1]:.5f}) L"),
        ours=(f"weight: max error {small_err:.1e} (1–8 elements); elastica: error "
              + ", ".join(f"{n}: {err[n]:.1e}" for n in sizes)),
        tolerance=(f"< {CANTILEVER_TOLERANCE:.0%}; finest < {ELASTICA_TOLERANCE:g}, "
                   "decreasing"),
        passed=passed,
        details=(
            "Static states by Newton on F(q) = 0 with the model's force kernel and a banded "
            "finite-difference Jacobian (line search on the potential energy). Own weight: "
            "L = 1 m, q = 1 N/m, EI = 1e3 N m², EA = 1e7 N, clamped along +x "
            "(`start.clamp`); cubic elements reproduce the beam's tip deflection q L⁴/(8 EI) "
            "to round-off from one element on (relative errors "
            + ", ".join(f"{n}: {v:+.1e}" for n, v in small.items())
            + "). Tip load: EI = 1 N m², EA = 1e4 N, P = 5 N in 20 load steps; reference: "
            "shooting solve of the continuum with the same energy (axial strain |r'| − 1, "
            f"curvature κ = θ'/|r'|), tip ({ref[0]:.6f}, {ref[1]:.6f}) L; inextensible "
            f"elastica ({inext[alpha][0]:.5f}, {inext[alpha][1]:.5f}) L. Our shooting "
            "reproduces Bisshopp & Drucker's (1945) table (α = 1, 2, 5, 10) to "
            f"{bd_err:.1e}. Element tip results (vertical, horizontal)/L: "
            + "; ".join(f"{n}: ({v[0]:.6f}, {v[1]:.6f})" for n, v in large.items())
            + f". Gauss points per element: {GAUSS_POINTS}."),
        figure=figure,
        values=dict(small=small, large=large, err=err, ref=ref, inextensible=inext,
                    bd_err=bd_err, converging=converging),
    )


# -- energy ---------------------------------------------------------------------------------


@register("ancf2d_energy", "analytic", "ancf2d: energy conserved without damping or drag",
          reference="analytic")
def check_energy(full: bool = True, figure_dir: Path | None = None) -> Row:
    """Energy of the undamped strip in vacuum over the seed's 2 s (§4.3: the measured span)
    with generalized-α at ρ∞ = 1 (the trapezoidal rule)."""
    elements = 20 if full else 10
    duration = ENERGY_WINDOW
    # the free end whips near 1.9 s and the trapezoidal rule conserves a nonlinear system's
    # energy only as dt -> 0 (measured, 20 elements, 2 s: drift 4.7e-3 at dt = 5e-5 s,
    # 8.8e-4 at 2e-5, 2.4e-4 at 1e-5, 5.9e-5 at 5e-6: order ~1.9, with the Newton before issue
    # 22's line search; 7.0e-5 at 5e-6 with it, histories differing to the Newton tolerance);
    # before the whip (1.2 s) 7e-6 at 5e-5
    dt = ENERGY_DT
    case = strip_case(elements, duration, dt, method="generalized_alpha", damping=False,
                      drag=False, rho_inf=1.0)
    ds = simulate(case, progress=False)
    drift = energy_drift(ds)
    E = (ds.kinetic_energy + ds.potential_energy).values
    rel = np.abs(E - E[0]) / float(np.max(ds.kinetic_energy.values))
    t = ds.time.values
    before_whip = float(rel[t <= COMPARE_UNTIL + 1e-9].max())
    t_worst = float(t[int(np.argmax(rel))])
    figure = None
    if figure_dir is not None:
        figure = energy_figure(ds, figure_dir, "ancf2d_energy.png",
                               f"ancf2d strip without damping or drag, generalized-α ρ∞ = 1, "
                               f"dt = {dt:.3g} s")
    passed = drift < ENERGY_TOLERANCE
    return Row(
        name="ancf2d energy, no damping/drag (generalized_alpha)"
             + ("" if full else f", {elements} elements"),
        tier="analytic",
        expected="0",
        ours=f"{drift:.2e} over {duration:g} s (up to {COMPARE_UNTIL:g} s: {before_whip:.1e})",
        tolerance=f"< {ENERGY_TOLERANCE:g} over {duration:g} s",
        passed=passed,
        details=(f"The seed-003 strip ({elements} elements) without internal damping or air, "
                 f"pinned, released at rest 45° above the horizontal, over the seed's "
                 f"{duration:g} s, generalized-α with ρ∞ = 1, dt = {dt:.3g} s. E = kinetic + "
                 "gravitational + axial and bending strain energy (Gauss quadrature); "
                 "max|E − E0| / max KE. The undamped free end whips near 1.9 s (largest "
                 f"error at t = {t_worst:.2f} s); the trapezoidal rule conserves this "
                 "nonlinear system's energy only as dt → 0 (20 elements, 2 s: 4.7e-3 at "
                 "dt = 5e-5 s, 8.8e-4 at 2e-5 s, 2.4e-4 at 1e-5 s, 5.9e-5 at 5e-6 s, measured "
                 "with the Newton before issue 22's line search, which gives 7.0e-5 at 5e-6 "
                 "s: histories differ to the Newton tolerance), hence the small step."
                 + ("" if passed else f" FAILS: {drift:.1e} > {ENERGY_TOLERANCE:g} at this "
                    "step; the error before the whip is within the tolerance.")),
        figure=figure,
        values=dict(drift=drift, before_whip=before_whip, method="generalized_alpha", dt=dt,
                    t_worst=t_worst),
    )


# -- the seed-003 experiment ----------------------------------------------------------------


def strip_runs(sizes: tuple[int, ...], duration: float) -> dict[int, object]:
    """The identified strip (D = 2e3, C_D = 0.8) for each element count, RK4 at 0.8 × the
    critical step (which the internal damping sets: see Ancf2d.critical_time_step)."""
    runs = {}
    for n in sizes:
        dt = stable_dt(strip_case(n, duration))
        runs[n] = simulate(strip_case(n, duration, dt), progress=False)
    return runs


@register("seed003_strip", "seed",
          "Seed 003 §4: the rubber strip released at 45°, 10–50 ANCF elements (Fig 7)",
          reference="self")
def check_strip(full: bool = True, figure_dir: Path | None = None) -> Row:
    sizes = (10, 20, 30, 40, 50) if full else (10, 20, 30)
    duration = 2.0 if full else COMPARE_UNTIL
    runs = strip_runs(sizes, duration)
    ref = runs[sizes[-1]]
    t = ref.time.values
    upto = t <= COMPARE_UNTIL + 1e-9
    tip_ref = ref.position.isel(node=-1).values[:, [0, 2]]
    diff = {}
    for n in sizes[:-1]:
        tip = runs[n].position.isel(node=-1).values[:, [0, 2]]
        diff[n] = float(np.max(np.linalg.norm((tip - tip_ref)[upto], axis=1)))
    ordered = [diff[n] for n in sizes[:-1]]
    converging = all(b < a for a, b in zip(ordered, ordered[1:], strict=False))
    vel = ref.velocity.isel(node=-1).values
    speed = np.linalg.norm(vel, axis=1)
    t_fastest = float(t[np.argmax(speed)])
    # the tip's fastest rise after the first swing (the seed's "immediate rise at 0.96 s")
    later = (t >= 0.8) & (t <= min(1.6, float(t[-1])))
    t_rise = float(t[later][np.argmax(vel[later, 2])])
    stretch = float(np.max(ref.tension.values)) / EA_STRIP
    passed = converging and diff[sizes[-2]] < STRIP_TOLERANCE
    figure = _strip_figure(runs, figure_dir) if figure_dir is not None else None
    return Row(
        name="Seed 003 rubber strip (Table 1, D = 2e3, C_D = 0.8): tip vs elements",
        tier="seed",
        expected=f"converging tip trajectory up to {COMPARE_UNTIL:g} s (Fig 7 motion)",
        ours="max tip difference to " + f"{sizes[-1]} elements: "
             + ", ".join(f"{n}: {diff[n] * 1e3:.1f} mm" for n in sizes[:-1]),
        tolerance=f"decreasing; {sizes[-2]} elements < {STRIP_TOLERANCE * 1e3:g} mm",
        passed=passed,
        details=(
            "Strip of Table 1 (0.6 m, 20 × 2 mm, E = 9.4 MPa, 920 kg/m³; EA = 376 N, "
            "EI = 1.253e-4 N m²) pinned at the origin, released at rest 45° above the "
            f"horizontal, in air 1.293 kg/m³ (projected-area drag, eqs. 17–23), "
            f"g = 9.8 m/s², D = 2.0e3 N s/m² (axial C = D a = {D_IDENT * AREA:.3g} N s, "
            f"bending C_b = D I = {D_IDENT * EI_STRIP / YOUNG:.3g} N m² s), {duration:g} s, "
            "RK4 at 0.8 × the critical step (2.3e-5 s at 10 elements, 1.1e-6 s at 50: the "
            "strain-rate damping of the short elements sets it). The free end whips down "
            f"first (fastest at t = {t_fastest:.2f} s), then rises fastest at t = "
            f"{t_rise:.2f} s (the seed's experiment and simulation: an 'immediate rise at "
            "t = 0.96', §4.3; the seed gives no digitisable trajectory, so this row checks "
            "convergence, not the experiment); largest mid-element tension "
            f"{stretch * EA_STRIP:.2g} N (T/EA = {stretch:.1e}, damping part included)."),
        figure=figure,
        values=dict(diff=diff, converging=converging, t_fastest=t_fastest, t_rise=t_rise,
                    sizes=sizes),
    )


def _strip_figure(runs: dict, figure_dir: Path) -> str:
    import matplotlib.figure

    fig = matplotlib.figure.Figure(figsize=(11.0, 7.5))
    grid = fig.add_gridspec(3, 5)
    sizes = sorted(runs)
    show = 40 if 40 in runs else sizes[-1]
    ds = runs[show]
    t = ds.time.values
    # Fig 7 of the seed: the strip's shape at a series of instants (here every 0.2 s)
    picks = np.arange(0.0, min(float(t[-1]), 1.8) + 1e-9, 0.2)
    for k, tk in enumerate(picks[:10]):
        ax = fig.add_subplot(grid[k // 5, k % 5])
        j = int(np.argmin(np.abs(t - tk)))
        p = ds.position.values[j]
        ax.plot(p[:, 0], p[:, 2], "-", lw=1.2, color="C0")
        ax.plot(p[::4, 0], p[::4, 2], ".", ms=2.5, color="C0")
        ax.plot([0.0], [0.0], "k^", ms=4)
        ax.set_xlim(-0.62, 0.62)
        ax.set_ylim(-0.65, 0.5)
        ax.set_aspect("equal")
        ax.tick_params(labelsize=6)
        ax.set_title(f"t = {t[j]:.2f} s", fontsize=8)
    ax1 = fig.add_subplot(grid[2, :2])
    ax2 = fig.add_subplot(grid[2, 2:])
    for n in sizes:
        tip = runs[n].position.isel(node=-1).values
        tt = runs[n].time.values
        ax1.plot(tip[:, 0], tip[:, 2], lw=0.8, label=f"{n} el.")
        ax2.plot(tt, tip[:, 0], lw=0.8, color=f"C{sizes.index(n)}", label=f"{n} el.")
        ax2.plot(tt, tip[:, 2], lw=0.8, ls="--", color=f"C{sizes.index(n)}")
    ax1.set_aspect("equal")
    ax1.set_xlabel("x [m]")
    ax1.set_ylabel("z [m]")
    ax1.set_title("tip path", fontsize=9)
    ax1.legend(fontsize=6)
    ax2.axvline(COMPARE_UNTIL, color="k", lw=0.5)
    ax2.set_xlabel("time [s]")
    ax2.set_ylabel("tip x (solid), z (dashed) [m]")
    ax2.legend(fontsize=6, ncol=2)
    ax2.grid(alpha=0.3)
    fig.suptitle(f"Seed 003 rubber strip released at 45° ({show} ANCF elements, D = 2e3, "
                 "C_D = 0.8; cf. Fig 7)", fontsize=10)
    return save_figure(fig, figure_dir, "seed003_strip.png")
