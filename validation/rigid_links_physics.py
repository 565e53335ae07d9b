"""rigid_links (seed 000) against analytic physics: the hanging chain's first-mode period
(Bernoulli's Bessel solution) and conservation of energy without damping or drag."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from tetherdyn import analytic
from tetherdyn.simulate import simulate

from . import Row, register, save_figure
from .energy import energy_drift, energy_figure
from .hanging_chain import (
    DIAMETER,
    LENGTH,
    MASS,
    OUTPUT_INTERVAL,
    G,
    fit_sinusoids,
    mode_shape_points,
    zero_crossing_period,
)

PERIOD_TOLERANCE = 3e-3  # issue 3: within 0.3 % of the Bessel value for N >= 16
ENERGY_TOLERANCE = 1e-6  # issue 3: max|E - E0| / max KE over 20 s, RK4
# measured at N = 32, 30° release, 20 s: 4.8e-7 at the seed's dt = 5 ms, 1.7e-8 at 2.5 ms
ENERGY_DT = 0.0025


def link_chain_case(elements: int, duration: float, dt: float = 0.0025,
                    amplitude: float = 0.05) -> dict:
    """The seed-000 tether as N rigid links, hanging in vacuum, released from the first mode
    shape with a lateral tip displacement ``amplitude`` [m] (links keep their length)."""
    points = mode_shape_points(elements, 1, amplitude, EA=math.inf)
    return dict(
        name=f"hanging chain of {elements} rigid links",
        tether=dict(length=LENGTH, diameter=DIAMETER, mass=MASS),
        model=dict(type="rigid_links", elements=elements),
        environment=dict(gravity=[0.0, 0.0, -G]),
        initial=dict(shape="points", points=points.tolist()),
        solver=dict(method="rk4", dt=dt, duration=duration, output_interval=OUTPUT_INTERVAL),
    )


def link_chain_period(elements: int, periods: float) -> tuple[float, np.ndarray, np.ndarray]:
    """First-mode period [s] measured from the free end's sway (zero crossings refined by a
    sinusoid fit), and the sway history (t, x)."""
    T_c = analytic.hanging_chain_period(LENGTH, G)
    duration = round(periods * T_c / OUTPUT_INTERVAL) * OUTPUT_INTERVAL
    ds = simulate(link_chain_case(elements, duration), progress=False)
    t = ds.time.values
    x = ds.position.sel(axis="x").isel(node=-1).values
    T_zero = zero_crossing_period(t, x)
    return fit_sinusoids(t, x, [2.0 * math.pi / T_zero]).period(), t, x


@register("rigid_links_hanging_chain", "analytic",
          "rigid_links: hanging-chain first-mode period (Bernoulli)", reference="analytic")
def check_period(full: bool = True, figure_dir: Path | None = None) -> Row:
    T_c = analytic.hanging_chain_period(LENGTH, G)
    sizes = (8, 16, 32, 64, 128) if full else (16,)
    periods = 8 if full else 3
    runs = {n: link_chain_period(n, periods) for n in sizes}
    errors = {n: runs[n][0] / T_c - 1.0 for n in sizes}
    judged = [n for n in sizes if n >= 16]
    worst = max(abs(errors[n]) for n in judged)
    figure = None
    if figure_dir is not None:
        import matplotlib.figure

        fig = matplotlib.figure.Figure(figsize=(9.0, 3.4))
        ax1, ax2 = fig.subplots(1, 2)
        _, t, x = runs[32 if 32 in runs else sizes[0]]
        ax1.plot(t, 1e3 * x)
        ax1.set_xlabel("time [s]")
        ax1.set_ylabel("free-end x [mm]")
        ax1.set_title("32 rigid links released from mode 1", fontsize=9)
        ax2.loglog(sizes, [abs(errors[n]) for n in sizes], "o-")
        ax2.axhline(PERIOD_TOLERANCE, color="k", ls="--", lw=0.8, label="tolerance 0.3 %")
        ax2.set_xlabel("links N")
        ax2.set_ylabel("|T / T_Bessel − 1|")
        ax2.set_xticks(list(sizes))
        ax2.set_xticklabels([str(n) for n in sizes])
        ax2.legend(fontsize=7)
        ax2.set_title("first-mode period error", fontsize=9)
        figure = save_figure(fig, figure_dir, "rigid_links_hanging_chain.png")
    return Row(
        name="rigid_links: hanging-chain first-mode period",
        tier="analytic",
        expected=f"T1 = {T_c:.4f} s (2π / (j01/2 · sqrt(g/L)))",
        ours=", ".join(f"N={n}: {errors[n] * 100:+.4f} %" for n in sizes),
        tolerance="|error| < 0.3 % for N >= 16",
        passed=worst < PERIOD_TOLERANCE,
        details=("The seed-000 tether (10 m, 0.16 kg) in vacuum as rigid links, released "
                 "from the continuum mode shape with a 5 cm tip offset; RK4, dt = 2.5 ms. "
                 "The period comes from the free end's sway (zero crossings refined by a "
                 "sinusoid fit). Rigid links carry the continuum's distributed mass, so "
                 "the error is a small discretisation bias that falls with N."),
        figure=figure,
        values={"errors": errors, "worst": worst},
    )


def swing_case(elements: int, duration: float, dt: float) -> dict:
    """The seed-000 tether as rigid links released 30° from vertical, nothing dissipating."""
    return dict(
        name="energy: undamped rigid-link pendulum",
        tether=dict(length=LENGTH, diameter=DIAMETER, mass=MASS),
        model=dict(type="rigid_links", elements=elements),
        initial=dict(angle_from_gravity_deg=30.0),
        solver=dict(method="rk4", dt=dt, duration=duration, output_interval=0.01),
    )


@register("rigid_links_energy", "analytic", "rigid_links: energy conserved (no damping/drag)",
          reference="analytic")
def check_energy(full: bool = True, figure_dir: Path | None = None) -> Row:
    elements = 32 if full else 16
    ds = simulate(swing_case(elements, 20.0, ENERGY_DT), progress=False)
    drift = energy_drift(ds)
    figure = None
    if figure_dir is not None:
        figure = energy_figure(ds, figure_dir, "rigid_links_energy.png",
                               f"{elements} rigid links, released 30°, RK4, "
                               f"dt = {ENERGY_DT * 1e3:g} ms")
    return Row(
        name="rigid_links: energy, no damping or drag (RK4, 20 s)",
        tier="analytic",
        expected="0",
        ours=f"{drift:.1e}",
        tolerance=f"< {ENERGY_TOLERANCE:g}",
        passed=drift < ENERGY_TOLERANCE,
        details=(f"{elements} links, 10 m, 0.16 kg, released 30° from vertical; E = KE of "
                 "translation and rotation of every link + gravity. The spec's measure "
                 "max|E − E0| / max KE over 20 s."),
        figure=figure,
        values={"drift": drift},
    )
