"""Seed 003 §5.1: the GA swing-up of the 21 g mass (``tetherdyn optimize`` on the bundled
``examples/swingup_ga.yaml``).

Two rows share one GA run per process (:func:`run_ga`):

* ``seed003_swingup_vs_seed`` (seed): what the seed's text states of its result (§5.1–5.2;
  Figs 9–11 are graphical, their numbers did not survive): "the fitness value is decreased
  to constant after 17 generations" (Fig. 9) and "the swing-up of the mass object at 1 s
  can be captured by the winch … At t = 1.00, the capture is confirmed" (Fig. 11, §5.2).
  Ours: the generation of the last improvement of the best fitness (generation 0 = the
  initial population) within ``PLATEAU_TOLERANCE`` of 17, and the instant of the best
  individual's fitness minimum (eq. 28: the tip closest to the trolley, slow, early)
  within ``CAPTURE_TOLERANCE`` of 1.00 s.
* ``seed003_swingup`` (self): what our optimiser must guarantee:

* elitism: the best fitness never gets worse from one generation to the next;
* the written outputs are right: the best case written by the optimiser (``best_case.yaml``
  referencing ``best_trajectory.csv``) is simulated again in this process and eq. (27)–(28)
  is recomputed from it by a separate NumPy implementation; it must reproduce the fitness
  the Dask worker reported to 1e-6 (relative) — only the CSV's 12 significant digits and
  the interpolant rebuilt from them differ;
* the fitness is resolved in time: the best motion simulated with half the time step
  changes the fitness by less than 2 %;
* reported, not judged: the best periods T_1..T_3 and the fitness history.
"""

from __future__ import annotations

import copy
import math
import tempfile
from pathlib import Path

import numpy as np

from tetherdyn.case import load_case
from tetherdyn.optimize import (
    fitness_figure,
    load_problem,
    optimize,
    trajectory_figure,
    write_outputs,
)
from tetherdyn.simulate import simulate

from . import Row, register, save_figure

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "swingup_ga.yaml"
#: seed 003 eq. (27) weights
K1, K2 = 0.01, 0.05
#: recomputed fitness (written CSV + case, this process) vs the worker's value, relative
REPRODUCE_TOLERANCE = 1e-6
#: best fitness at dt vs dt/2, relative
DT_TOLERANCE = 0.02
#: seed 003 §5.1: the fitness is constant after 17 generations (Fig. 9)
SEED_PLATEAU_GENERATION = 17
#: [generations] a GA's plateau moves with its random stream; two generations either side
PLATEAU_TOLERANCE = 2
#: seed 003 §5.2: capture at t = 1.00 s (Figs 11–12)
SEED_CAPTURE_TIME = 1.00
CAPTURE_TOLERANCE = 0.1  # [s]


def seed_fitness(ds, window: tuple[float, float]) -> tuple[float, float]:
    """Seed 003 eqs. (27)–(28) straight from the results: min over the window of
    |tip − trolley| + k1 |tip velocity| + k2 t (x–z plane); returns (J, t at the minimum)."""
    t = ds["time"].values
    m = (t >= window[0] - 1e-9) & (t <= window[1] + 1e-9)
    p = ds["position"].values[m]
    v = ds["velocity"].values[m]
    dist = np.sqrt((p[:, 0, 0] - p[:, -1, 0]) ** 2 + (p[:, 0, 2] - p[:, -1, 2]) ** 2)
    speed = np.sqrt(v[:, -1, 0] ** 2 + v[:, -1, 2] ** 2)
    ja = dist + K1 * speed + K2 * t[m]  # seed 003 eq. (27)
    i = int(np.argmin(ja))  # seed 003 eq. (28)
    return float(ja[i]), float(t[m][i])


def reduced_problem() -> dict:
    """The seed's problem made small for the test suite: 10 elements, 1.5 s window,
    population 6, 3 generations (same encoding, motion and fitness)."""
    import yaml

    from tetherdyn.case import _Loader

    raw = yaml.load(EXAMPLE.read_text(), Loader=_Loader)  # noqa: S506 - SafeLoader
    raw = copy.deepcopy(raw)
    raw["base_case"]["model"]["elements"] = 10
    raw["base_case"]["solver"]["duration"] = 1.5
    raw["fitness"]["window"] = [0.0, 1.5]
    raw["ga"].update(population=6, generations=3)
    return raw


_GA: dict[tuple[bool, int], tuple] = {}


def run_ga(full: bool, workers: int = 2, client=None) -> tuple:
    """(problem, result) of the GA — the bundled example (full) or :func:`reduced_problem`;
    run once per process and shared by both swing-up rows. ``client``: a running Dask
    client to use (else a LocalCluster of ``workers`` is started and closed); the result
    does not depend on it (deterministic simulations)."""
    key = (full, workers)
    if key not in _GA:
        problem = load_problem(EXAMPLE) if full else load_problem(reduced_problem(),
                                                                  base_dir=EXAMPLE.parent)
        _GA[key] = (problem, optimize(problem, client=client, workers=workers, echo=None))
    return _GA[key]


def plateau_generation(history: list[float]) -> int:
    """The generation (0 = the initial population) of the best fitness's last improvement:
    from it on the best is constant."""
    last = 0
    for g in range(1, len(history)):
        if history[g] < history[g - 1]:
            last = g
    return last


@register("seed003_swingup_vs_seed", "seed",
          "Seed 003 §5: GA swing-up against the seed's plateau generation and capture time",
          reference="seed")
def check_seed(full: bool = True, figure_dir: Path | None = None, *, workers: int = 2,
               client=None) -> Row:
    problem, result = run_ga(full, workers, client)
    best = [float(h["best"]) for h in result.history]
    g_plateau = plateau_generation(best)
    t_capture = float(result.best_t)
    plateau_ok = abs(g_plateau - SEED_PLATEAU_GENERATION) <= PLATEAU_TOLERANCE
    capture_ok = abs(t_capture - SEED_CAPTURE_TIME) <= CAPTURE_TOLERANCE
    g = problem.data.ga
    reasons = []
    if not capture_ok:
        reasons.append(
            f"the best motion (T = {', '.join(f'{v:.3f}' for v in result.best_values.values())}"
            f" s) brings the tip closest to the trolley at {t_capture:.2f} s: eq. (27)'s "
            f"k2 t term rewards an early approach, and our trolley strokes are a reading of "
            "the graphical Fig. 8 (three rest-to-rest half-cosines 0 → −0.2 → +0.2 → 0 m), "
            "which the seed's 'winch moved toward the tether tip from t = 0.84' may not match")
    if not plateau_ok:
        reasons.append(f"the best fitness last improves at generation {g_plateau} "
                       f"(GA seed {g.seed}; a GA's plateau moves with its random stream)")
    return Row(
        name="Seed 003 §5 GA swing-up vs the seed: plateau generation, capture time"
             + ("" if full else " (reduced)"),
        tier="seed",
        expected=f"fitness constant after {SEED_PLATEAU_GENERATION} generations (Fig. 9); "
                 f"capture at t = {SEED_CAPTURE_TIME:.2f} s (Figs 11–12)",
        ours=f"last improvement at generation {g_plateau} of {len(best) - 1}; best J = "
             f"{result.best_fitness:.4f} reached at t = {t_capture:.2f} s",
        tolerance=f"±{PLATEAU_TOLERANCE} generations; ±{CAPTURE_TOLERANCE:g} s",
        passed=bool(plateau_ok and capture_ok),
        details=("Read from the seed's text (§5.1: 'the fitness value is decreased to "
                 "constant after 17 generations', Fig. 9; §5.2: 'the swing-up of the mass "
                 "object at 1 s can be captured by the winch', 'At t = 1.00, the capture is "
                 "confirmed as the mass object landed on the catcher', Figs 11–12). Ours: "
                 f"population {g.population}, {g.generations} generations, GA seed {g.seed}, "
                 f"{problem.base_case['model']['elements']} elements; plateau = the "
                 "generation of the last improvement of the best fitness (generation 0 is "
                 "the initial population); capture = the instant of the best individual's "
                 "fitness minimum (eq. 28). Best per generation: "
                 + ", ".join(f"{b:.4f}" for b in best) + "."
                 + (" FAILS: " + "; ".join(reasons) + "." if reasons else "")),
        values=dict(plateau_generation=g_plateau, capture_time=t_capture, history=best,
                    plateau_ok=plateau_ok, capture_ok=capture_ok),
    )


@register("seed003_swingup", "seed",
          "Seed 003 §5: GA swing-up, our optimiser's guarantees (eqs. 26–28)", reference="self")
def check(full: bool = True, figure_dir: Path | None = None, *, workers: int = 2,
          client=None) -> Row:
    problem, result = run_ga(full, workers, client)
    window = tuple(problem.data.fitness.window)
    best = [float(h["best"]) for h in result.history]
    monotone = all(b1 <= b0 for b0, b1 in zip(best, best[1:], strict=False))
    with tempfile.TemporaryDirectory() as tmp:
        paths = write_outputs(problem, result, Path(tmp))
        case = load_case(paths["case"])
        ds = simulate(case)
        j_re, t_re = seed_fitness(ds, window)
        raw = case.to_dict()
        raw["solver"]["dt"] = raw["solver"]["dt"] / 2
        ds2 = simulate(load_case(raw, base_dir=Path(tmp)))
        j_half, _ = seed_fitness(ds2, window)
    rel_re = abs(j_re - result.best_fitness) / abs(result.best_fitness)
    rel_dt = abs(j_half - j_re) / abs(j_re)
    passed = bool(monotone and rel_re <= REPRODUCE_TOLERANCE and rel_dt <= DT_TOLERANCE
                  and not math.isnan(result.best_fitness))
    T = result.best_values
    periods = ", ".join(f"{k} = {v:.3f} s" for k, v in T.items())
    n_sim = sum(1 for r in result.individuals if r["evaluated"])
    g = problem.data.ga
    figure = None
    if figure_dir is not None:
        figure = save_figure(fitness_figure(result, problem), figure_dir,
                             "seed003_swingup_fitness.png")
        save_figure(trajectory_figure(problem, T), figure_dir, "seed003_swingup_trajectory.png")
    history = ", ".join(f"{b:.4f}" for b in best)
    return Row(
        name="Seed 003 §5 GA swing-up: " + ("population 10, " if full else "reduced, ")
        + f"{g.generations} generations, {problem.base_case['model']['elements']} elements",
        tier="seed",
        expected="elitism (best never worse), the written best case reproducing the "
                 "worker's fitness, dt-convergence (the seed's plateau and capture time: "
                 "row seed003_swingup_vs_seed)",
        ours=f"best J = {result.best_fitness:.4f} at t = {t_re:.2f} s with {periods}; "
             f"recomputed from the written CSV/case: rel. diff {rel_re:.1e}; dt/2: "
             f"{rel_dt:.1e}",
        tolerance=f"monotone; {REPRODUCE_TOLERANCE:g}; {DT_TOLERANCE:g}",
        passed=passed,
        details=f"Best fitness per generation: {history}. {n_sim} simulations "
                f"({len(result.failures)} failed), GA seed {g.seed}, {result.wall_s:.0f} s "
                "on a local Dask cluster. The trolley's three half-cosine strokes "
                "0 → −0.2 → +0.2 → 0 m are our reading of the graphical Fig. 8 "
                "(docs/optimize.md). Trajectory figure: seed003_swingup_trajectory.png.",
        figure=figure,
        values=dict(best_fitness=result.best_fitness, history=best, monotone=monotone,
                    rel_reproduce=rel_re, rel_dt=rel_dt, t_best=t_re, periods=dict(T),
                    simulations=n_sim, failures=len(result.failures)),
    )
