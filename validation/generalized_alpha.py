"""Generalized-α (integrate/implicit.py): spectral radius, order, energy, stiff speed-up.

Rows:

* ``ga_spectral_radius`` (analytic): a mass on a spring (:class:`LinearOscillator`, a
  one-coordinate formulation with both surfaces) stepped at Δt/T = 1e4; the amplification
  matrix of one step is measured column by column from the integrator itself and its
  spectral radius compared with ρ∞ (Chung & Hulbert's design value).
* ``ga_convergence_order`` (analytic): a lumped-mass pendulum chain; the position error at
  the end against a tight rk45 reference for dt, dt/2, dt/4: the observed order must be
  2 ± 0.2.
* ``ga_energy`` (analytic): ρ∞ = 1 (no numerical dissipation) on the undamped lumped-mass
  pendulum of validation/energy.py: max|E − E0| / max KE < 1e-4.
* ``ga_stiff_speedup`` (cross-formulation): a lumped-mass cable with a stiff EA runs with
  generalized_alpha at ≥ 10× the largest stable RK4 step (bisection) while the RMS of
  |start_force| stays within 1 % of an RK4 run at a tenth of its stable step.
"""

from __future__ import annotations

import math
from collections import namedtuple
from pathlib import Path

import numpy as np

from tetherdyn._jit import kernel
from tetherdyn.case import load_case
from tetherdyn.integrate import integrate
from tetherdyn.integrate.implicit import S_STATUS, ga_step, parameters
from tetherdyn.models import build_model
from tetherdyn.models.base import Formulation
from tetherdyn.simulate import simulate

from . import Row, register, save_figure
from .energy import energy_drift, energy_figure, pendulum_case
from .seed000_links import largest_stable_step

__all__ = ["LinearOscillator", "measured_spectral_radius", "theoretical_amplification",
           "convergence_order", "ORDER_TOLERANCE", "SPECTRAL_TOLERANCE"]

SPECTRAL_TOLERANCE = 1e-3  # issue 5: |ρ(Δt/T = 1e4) − ρ∞|
ORDER_TOLERANCE = 0.2  # issue 5: observed order 2 ± 0.2
ENERGY_TOLERANCE = 1e-4  # issue 2/5: max|E − E0| / max KE
FORCE_TOLERANCE = 0.01  # issue 5: RMS |start_force| within 1 %
SPEEDUP = 10.0  # issue 5: generalized_alpha step ≥ 10 × the largest stable RK4 step

# -- a mass on a spring: the smallest legitimate formulation with both surfaces ------------

OscillatorData = namedtuple("OscillatorData", ["k", "c", "m", "nan_after"])


@kernel
def _osc_force(t, y, F, d):
    """Spring and dashpot force [N] on the mass: −k x − c ẋ (NaN after nan_after [s], to
    exercise the integrator's failure path)."""
    F[0] = -d.k * y[0] - d.c * y[1]
    if t > d.nan_after:
        F[0] = math.nan


@kernel
def _osc_mass(t, y, Mb, d):
    Mb[0, 0] = d.m


@kernel
def _osc_held_acc(t, y, a, d):
    return None


@kernel
def _osc_rhs(t, y, dydt, d):
    dydt[0] = y[1]
    _osc_force(t, y, dydt[1:], d)
    dydt[1] /= d.m


@kernel
def _osc_enforce(t, y, d):
    return None


@kernel
def _osc_check(t, y, d):
    if math.isfinite(y[0]) and math.isfinite(y[1]):
        return -1
    return 0


class LinearOscillator(Formulation):
    """m ẍ + c ẋ + k x = 0 [SI]; state [x, ẋ]. Not a tether: a yardstick for integrators."""

    name = "linear_oscillator"
    fastest_mode = "the oscillator"
    n_q = 1
    band = 0
    rhs = staticmethod(_osc_rhs)
    enforce = staticmethod(_osc_enforce)
    check = staticmethod(_osc_check)
    force = staticmethod(_osc_force)
    mass = staticmethod(_osc_mass)
    held_acc = staticmethod(_osc_held_acc)

    def __init__(self, k: float = 1.0, m: float = 1.0, c: float = 0.0, x0: float = 1.0,
                 v0: float = 0.0, nan_after: float = math.inf) -> None:
        super().__init__(None)  # type: ignore[arg-type]
        self.n_nodes = 1
        self.n_elements = 0
        self.arc_length = np.zeros(1)
        self.held = np.zeros(1, dtype=np.int64)
        self.data = OscillatorData(float(k), float(c), float(m), float(nan_after))
        self._y0 = np.array([x0, v0], dtype=float)

    def initial_state(self) -> np.ndarray:
        return self._y0.copy()

    def outputs(self, times: np.ndarray, Y: np.ndarray, data: tuple | None = None
                ) -> dict[str, np.ndarray]:
        return dict(position=Y[:, :1], velocity=Y[:, 1:])

    def critical_time_step(self) -> tuple[float, int, float]:
        w = math.sqrt(self.data.k / self.data.m)
        return 2.8284271 / w, 0, w


def measured_spectral_radius(rho_inf: float, dt_over_T: float = 1e4) -> tuple[float, np.ndarray]:
    """Spectral radius of one generalized-α step on the undamped unit oscillator (ω = 1),
    measured: the amplification matrix on z = [x, h v, h² a] is built column by column
    from single steps of the compiled integrator. Returns (ρ, A)."""
    model = LinearOscillator()
    h = dt_over_T * 2.0 * math.pi
    alpha = parameters(rho_inf)
    A = np.empty((3, 3))
    for col in range(3):
        z = np.zeros(3)
        z[col] = 1.0
        y, a, state = ga_step(model, 0.0, np.array([z[0], z[1] / h]), np.array([z[2] / h**2]),
                              h, alpha)
        if state[S_STATUS] != 0:
            raise RuntimeError(f"the oscillator step failed: state {state}")
        A[:, col] = (y[0], h * y[1], h * h * a[0])
    return float(np.max(np.abs(np.linalg.eigvals(A)))), A


def theoretical_amplification(rho_inf: float, omega_h: float) -> np.ndarray:
    """The same matrix from the generalized-α equations (5.3)–(5.7) written out for
    ẍ = −ω² x by hand: the independent reference for the compiled integrator."""
    am, af, beta, gamma = parameters(rho_inf)
    W2 = omega_h**2
    # unknown z' = [x', hv', h²a']: rows (5.3), (5.4), (5.5)
    lhs = np.array([[1.0, 0.0, -beta],
                    [0.0, 1.0, -gamma],
                    [(1 - af) * W2, 0.0, 1 - am]])
    rhs = np.array([[1.0, 1.0, 0.5 - beta],
                    [0.0, 1.0, 1.0 - gamma],
                    [-af * W2, 0.0, -am]])
    return np.linalg.solve(lhs, rhs)


@register("ga_spectral_radius", "analytic",
          "Generalized-α: spectral radius at Δt/T = 1e4 equals ρ∞", reference="analytic")
def check_spectral(full: bool = True, figure_dir: Path | None = None) -> Row:
    rhos = (0.0, 0.25, 0.5, 0.8, 0.9, 1.0) if full else (0.0, 0.5, 0.8, 1.0)
    measured = {r: measured_spectral_radius(r)[0] for r in rhos}
    worst = max(abs(measured[r] - r) for r in rhos)
    figure = None
    if figure_dir is not None:
        import matplotlib.figure

        fig = matplotlib.figure.Figure(figsize=(6, 3.2))
        ax = fig.add_subplot()
        ratios = np.logspace(-2, 4, 61)
        for r in (0.0, 0.5, 0.8, 1.0):
            theo = [np.max(np.abs(np.linalg.eigvals(
                theoretical_amplification(r, 2 * math.pi * x)))) for x in ratios]
            ax.semilogx(ratios, theo, label=f"ρ∞ = {r:g}")
            ax.plot([1e4], [measured[r]] if r in measured else [np.nan], "ko", ms=3)
        ax.set_xlabel("Δt / T")
        ax.set_ylabel("spectral radius")
        ax.legend(fontsize=7)
        ax.set_title("Generalized-α, undamped oscillator (dots: measured at 1e4)")
        figure = save_figure(fig, figure_dir, "ga_spectral_radius.png")
    return Row(
        name="Generalized-α spectral radius at Δt/T = 1e4",
        tier="analytic",
        expected="ρ∞ (" + ", ".join(f"{r:g}" for r in rhos) + ")",
        ours=", ".join(f"{measured[r]:.6f}" for r in rhos),
        tolerance=f"± {SPECTRAL_TOLERANCE:g}",
        passed=worst <= SPECTRAL_TOLERANCE,
        details=("A mass on a spring (ω = 1 rad/s) stepped by the compiled integrator at "
                 "Δt = 1e4 T from unit x, h·v and h²·a (the algorithmic acceleration): the "
                 "three results are the columns of the one-step amplification matrix, whose "
                 "largest |eigenvalue| is the spectral radius. At ρ∞ < 1 the three "
                 "eigenvalues meet at −ρ∞ (a defective triple root), so round-off and the "
                 "finite Δt/T move them by ~ (1/Ω²)^(1/3); the tolerance is 1e-3."),
        figure=figure,
        values={"measured": measured, "worst": worst},
    )


# -- convergence order -------------------------------------------------------------------


def _chain_case(dt: float, method: str, duration: float, **solver) -> dict:
    """A pendulum chain (the energy row's tether, EA = 200 N, 8 elements) that carries
    compression: the bilinear slack law's kink at zero strain (where these elements start)
    would cut the observed order (measured ~1 between 2 and 1 ms without it)."""
    c = pendulum_case(8, duration, dt)
    c["tether"]["EA"] = 200.0
    c["tether"]["compression"] = True
    c["tether"]["axial_damping"] = 2.0
    c["solver"].update(method=method, output_interval=duration / 10, **solver)
    return c


def _final_positions(case: dict) -> np.ndarray:
    case_ = load_case(case)
    model = build_model(case_)
    s = case_.solver
    run = integrate(model, case_.method, s.dt, s.duration, s.output_interval, rtol=s.rtol,
                    atol=s.atol, progress=False)
    return run.states[-1, :model.n_q] if model.n_q else run.states[-1]


def convergence_order(dts: tuple[float, ...], duration: float, rho_inf: float = 0.8
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Max position error [m] at the end against rk45 (rtol 1e-12) for each dt, and the
    observed orders log2(e(dt) / e(dt / 2))."""
    ref = _final_positions(_chain_case(1e-3, "rk45", duration, rtol=1e-12, atol=1e-14))
    errs = np.array([
        np.abs(_final_positions(_chain_case(dt, "generalized_alpha", duration,
                                            rho_inf=rho_inf, rtol=1e-11, atol=1e-13))
               - ref).max() for dt in dts])
    return errs, np.log(errs[:-1] / errs[1:]) / np.log(np.array(dts[:-1]) / np.array(dts[1:]))


@register("ga_convergence_order", "analytic", "Generalized-α: second order in dt", reference="self")
def check_order(full: bool = True, figure_dir: Path | None = None) -> Row:
    dts = (2e-3, 1e-3, 5e-4, 2.5e-4) if full else (2e-3, 1e-3, 5e-4)
    duration = 2.0 if full else 1.0
    errs, orders = convergence_order(dts, duration)
    order = float(orders[-1])
    return Row(
        name="Generalized-α order of convergence (lumped_mass chain)",
        tier="analytic",
        expected="2",
        ours=f"{order:.3f} (errors " + ", ".join(f"{e:.2e}" for e in errs) + " m)",
        tolerance=f"± {ORDER_TOLERANCE:g}",
        passed=abs(order - 2.0) <= ORDER_TOLERANCE,
        details=("10 m, 8-element lumped-mass chain, EA = 200 N (carrying compression: smooth), "
                 "axial damping 2 N s, "
                 "released 30° off; ρ∞ = 0.8, fixed steps dt = "
                 + ", ".join(f"{d * 1e3:g}" for d in dts)
                 + f" ms over {duration:g} s, Newton rtol 1e-11; error: max |position − "
                 "rk45 (rtol 1e-12)| over nodes at the end; order from the two finest."),
        values={"errors": errs.tolist(), "orders": orders.tolist(), "order": order},
    )


# -- energy --------------------------------------------------------------------------------


@register("ga_energy", "analytic", "Generalized-α at ρ∞ = 1 conserves energy", reference="analytic")
def check_energy(full: bool = True, figure_dir: Path | None = None) -> Row:
    duration = 60.0 if full else 10.0
    # the trapezoidal rule's energy error on this nonlinear cable is O(dt²) (measured at
    # N = 16: 1e-4 at 0.5 ms, 1.5e-5 at 0.25 ms); halving the elements doubles the axial
    # frequency, so the full run halves the step
    dt = 1.25e-4 if full else 2.5e-4
    c = pendulum_case(32 if full else 16, duration, dt)
    c["solver"].update(method="generalized_alpha", rho_inf=1.0, rtol=1e-10, atol=1e-12)
    ds = simulate(c, progress=False)
    drift = energy_drift(ds)
    figure = None
    if figure_dir is not None:
        figure = energy_figure(ds, figure_dir, "ga_energy.png",
                               "Undamped lumped-mass cable, generalized-α ρ∞ = 1, "
                               f"dt = {dt * 1e3:g} ms")
    return Row(
        name="Energy, no damping/drag (lumped_mass, generalized-α ρ∞ = 1)",
        tier="analytic",
        expected="0",
        ours=f"{drift:.2e}",
        tolerance=f"< {ENERGY_TOLERANCE:g}",
        passed=drift < ENERGY_TOLERANCE,
        details=(f"The energy row's pendulum (10 m, 0.16 kg, EA = 2 kN, 30° off), "
                 f"{32 if full else 16} elements, {duration:g} s, dt = {dt * 1e3:g} ms "
                 f"({dt / 5e-5:g}× RK4's step in validation/energy.py); ρ∞ = 1 is the trapezoidal "
                 "rule (α_m = α_f = γ = ½, β = ¼), which conserves the energy of linear "
                 "systems exactly and has no numerical dissipation."),
        figure=figure,
        values={"drift": drift},
    )


# -- stiff EA: speed-up at equal force accuracy -------------------------------------------


def stiff_case(dt: float, method: str, duration: float, elements: int, heave: bool = True,
               **solver) -> dict:
    """A steel-like 50 m tether (EA = 2e7 N) in water hanging from a heaving vessel
    (z = A (1 − cos 2πt/T_h), A = 1 m, T_h = 4 s: it starts at rest), 20 kg payload,
    released 20° off: the start force carries the weight, the heave and the pendulum."""
    tt = np.arange(0.0, duration + 0.05, 0.05)
    z = HEAVE_AMPLITUDE * (1.0 - np.cos(2.0 * math.pi * tt / HEAVE_PERIOD)) * heave
    return dict(
        name="stiff EA cable under a heaving vessel",
        tether=dict(length=50.0, diameter=0.02, mass_per_length=1.0, EA=2.0e7,
                    axial_damping=2.0e4),
        environment=dict(fluid_density=1025.0),
        model=dict(type="lumped_mass", elements=elements),
        start=dict(type="prescribed", trajectory=dict(
            t=tt.tolist(), x=[0.0] * tt.size, y=[0.0] * tt.size, z=z.tolist())),
        end=dict(type="free", mass=20.0, drag_area=0.05),
        initial=dict(angle_from_gravity_deg=20.0),
        solver=dict(method=method, dt=dt, duration=duration, output_interval=dt_output(dt),
                    **solver),
    )


HEAVE_AMPLITUDE = 1.0  # [m]
HEAVE_PERIOD = 4.0  # [s]


def dt_output(dt: float) -> float:
    """Output every 0.05 s rounded to a whole number of steps (bisection needs every dt)."""
    return dt * max(1, round(0.05 / dt))


def _rms_force(ds) -> float:
    return float(np.sqrt(np.mean(np.sum(ds.start_force.values ** 2, axis=1))))


def _rms_force_at(ds, times: np.ndarray) -> float:
    f = np.linalg.norm(ds.start_force.values, axis=1)
    g = np.interp(times, ds.time.values, f)
    return float(np.sqrt(np.mean(g ** 2)))


@register("ga_stiff_speedup", "cross-formulation",
          "Generalized-α: ≥ 10× RK4's stable step on a stiff cable at 1 % force accuracy",
          reference="self")
def check_stiff(full: bool = True, figure_dir: Path | None = None) -> Row:
    elements = 20 if full else 10
    duration = 20.0 if full else 5.0
    iterations = 8 if full else 4

    def make(dt: float) -> dict:
        # the vessel at rest: the bisection's stability test needs loads that only dissipate
        # (the limit is set by the axial modes, not by the slow heave)
        c = stiff_case(dt, "rk4", duration, elements, heave=False)
        c["solver"]["output_interval"] = dt
        return c

    guess = build_model(load_case(make(1e-4))).critical_time_step()[0]
    dt_rk4 = largest_stable_step(make, guess, iterations)
    dt_ref = dt_rk4 / 10.0
    ref = simulate(stiff_case(dt_ref, "rk4", duration, elements), progress=False)
    # RK4 at 0.9 × its stable step: the fastest explicit run, for the timing comparison
    fast = simulate(stiff_case(0.9 * dt_rk4, "rk4", duration, elements), progress=False)
    dt_ga = SPEEDUP * dt_rk4
    ga = simulate(stiff_case(dt_ga, "generalized_alpha", duration, elements, rho_inf=0.8,
                             rtol=1e-6, atol=1e-8), progress=False)
    common = np.intersect1d(np.round(ref.time.values, 9), np.round(ga.time.values, 9))
    f_ref = _rms_force_at(ref, common)
    f_ga = _rms_force_at(ga, common)
    f_fast = _rms_force_at(fast, common)
    rel = abs(f_ga - f_ref) / f_ref
    late = common[common >= 1.0]
    rel_late = abs(_rms_force_at(ga, late) - _rms_force_at(ref, late)) / _rms_force_at(ref, late)
    fr = np.interp(common, ref.time.values, np.linalg.norm(ref.start_force.values, axis=1))
    fg = np.interp(common, ga.time.values, np.linalg.norm(ga.start_force.values, axis=1))
    max_diff = float(np.max(np.abs(fg - fr)))
    w_ga, w_fast = float(ga.attrs["wall_time_s"]), float(fast.attrs["wall_time_s"])
    evals = ga.attrs["rhs_evaluations"] / ga.attrs["steps"]
    figure = None
    if figure_dir is not None:
        import matplotlib.figure

        fig = matplotlib.figure.Figure(figsize=(6, 3.2))
        ax = fig.add_subplot()
        ax.plot(common, fr, "k", lw=1.0, label=f"RK4, dt = {dt_ref * 1e3:.3g} ms")
        ax.plot(common, fg, "r--", lw=1.0, label=f"generalized-α, dt = {dt_ga * 1e3:.3g} ms")
        ax.set_xlabel("time [s]")
        ax.set_ylabel("|start_force| [N]")
        ax.legend(fontsize=7)
        ax.set_title("Stiff cable (EA = 2e7 N) under a heaving vessel")
        figure = save_figure(fig, figure_dir, "ga_stiff_speedup.png")
    return Row(
        name="Generalized-α on a stiff cable: 10× RK4's stable step",
        tier="cross-formulation",
        expected=f"RMS |start_force| of RK4 at dt_stable / 10, with dt = {SPEEDUP:g} dt_stable",
        ours=(f"dt_stable = {dt_rk4 * 1e3:.4g} ms, gen-α dt = {dt_ga * 1e3:.4g} ms: RMS "
              f"{f_ga:.6g} N vs {f_ref:.6g} N ({rel:.2e}); wall {w_ga:.3g} s vs RK4 at "
              f"0.9 dt_stable {w_fast:.3g} s"),
        tolerance=f"≤ {FORCE_TOLERANCE:.0%}",
        passed=bool(rel <= FORCE_TOLERANCE),
        details=(f"50 m, 1 kg/m, EA = 2e7 N (steel-like), axial damping 2e4 N s, in water "
                 f"(drag, added mass, buoyancy), hanging from a vessel heaving 1 m with a 4 s "
                 f"period, 20 kg payload, {elements} elements, released 20° off, "
                 f"{duration:g} s. Largest stable RK4 step by bisection on the same cable "
                 f"with the vessel at rest (the test needs dissipative loads) "
                 f"({iterations} halvings, validation/seed000_links.largest_stable_step); "
                 f"generalized-α (ρ∞ = 0.8, fixed step, {evals:.1f} force evaluations per "
                 "step) at 10× that step; RMS of |start_force| over the output instants "
                 f"both runs share. After the first second: {rel_late:.2e}; largest "
                 f"instantaneous difference {max_diff:.3g} N, in the release transient "
                 "(the payload bouncing on the cable's stretch, period ≈ 0.08 s, which 10× "
                 "the RK4 step resolves with ~5 steps). RK4 at 0.9 dt_stable gives RMS "
                 f"{f_fast:.6g} N in {w_fast:.3g} s (gen-α: {w_ga:.3g} s)."),
        figure=figure,
        values={"dt_rk4": dt_rk4, "dt_ga": dt_ga, "rms_ref": f_ref, "rms_ga": f_ga,
                "relative": rel, "relative_after_1s": rel_late, "max_diff": max_diff,
                "wall_ga": w_ga, "wall_rk4_fast": w_fast, "rms_rk4_fast": f_fast,
                "wall_rk4_ref": float(ref.attrs["wall_time_s"]),
                "steps_ga": int(ga.attrs["steps"]), "evals_per_step": float(evals)},
    )
