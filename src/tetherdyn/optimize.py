"""``tetherdyn optimize``: genetic-algorithm optimisation of a held end's motion.

The problem is configuration (a YAML *problem file*, docs/optimize.md), not code: a base
case, a motion template whose numbers may be expressions of named decision variables, the
variables' binary encoding (bits, range), the GA settings, and a fitness expression reduced
over a time window. The bundled example ``examples/swingup_ga.yaml`` is the swing-up of
seed 003 §5 (eqs. 26–28).

The GA is written here (about a hundred lines, :class:`BinaryGA`): binary chromosomes, each
variable a group of bits decoded by seed 003 eq. (26); tournament selection, one-point
crossover over the whole chromosome, per-bit flip mutation and elitism (the seed's
"advance strategy": the best individuals pass unchanged). Every generation's new
individuals are evaluated as one batch through :func:`tetherdyn.batch.run_batch` (one Dask
task per individual, the fitness computed on the worker). A failed simulation gets the
worst fitness (+inf for minimisation) and is reported. With a seed the run is reproducible:
the only randomness is one ``numpy.random.Generator`` and the simulations are deterministic.
"""

from __future__ import annotations

import ast
import copy
import csv
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .case import CaseError, _format_validation_error, _Loader, load_case, yaml_text
from .paths import write_trajectory_csv

__all__ = [
    "ProblemError", "Problem", "load_problem", "decode", "stroke_motion", "trajectory_table",
    "FitnessEvaluator", "BinaryGA", "OptimizeResult", "optimize",
    "write_outputs",
]


class ProblemError(CaseError):
    """A problem file that cannot run; the message names the offending key path (a
    CaseError, so the CLI reports it as bad input)."""


# -- safe expressions -----------------------------------------------------------------------

_FUNCS: dict[str, Callable] = {
    "sqrt": np.sqrt, "abs": np.abs, "hypot": np.hypot, "exp": np.exp, "log": np.log,
    "sin": np.sin, "cos": np.cos, "tan": np.tan, "arctan2": np.arctan2, "arccos": np.arccos,
    "arcsin": np.arcsin, "minimum": np.minimum, "maximum": np.maximum,
}
_CONSTS = {"pi": math.pi}
_BINOPS = {ast.Add: np.add, ast.Sub: np.subtract, ast.Mult: np.multiply,
           ast.Div: np.divide, ast.Pow: np.power}


def _check_expr(text: str, names: set[str]) -> ast.Expression:
    """Parse an arithmetic expression; only numbers, the given names, + - * / **, unary
    minus and the functions of ``_FUNCS`` are allowed. Raises ValueError naming the culprit."""
    try:
        tree = ast.parse(str(text), mode="eval")
    except SyntaxError:
        raise ValueError(f"not a valid expression: {text!r}") from None
    for node in ast.walk(tree):
        if isinstance(node, ast.Expression | ast.Load | ast.operator | ast.unaryop):
            if isinstance(node, ast.operator) and type(node) not in _BINOPS:
                raise ValueError(f"operator {type(node).__name__} not allowed in {text!r}")
            continue
        if isinstance(node, ast.BinOp | ast.UnaryOp):
            if isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.USub | ast.UAdd):
                raise ValueError(f"operator not allowed in {text!r}")
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            continue
        if isinstance(node, ast.Call):
            if not (isinstance(node.func, ast.Name) and node.func.id in _FUNCS) or node.keywords:
                raise ValueError(f"only the functions {', '.join(sorted(_FUNCS))} may be "
                                 f"called in {text!r}")
            continue
        if isinstance(node, ast.Name):
            if node.id in _FUNCS or node.id in _CONSTS or node.id in names:
                continue
            raise ValueError(f"unknown name '{node.id}' in {text!r} (known: "
                             f"{', '.join(sorted(names | set(_CONSTS)))})")
        raise ValueError(f"{type(node).__name__} not allowed in {text!r}")
    return tree


def _eval(node: ast.AST, env: dict[str, Any]) -> Any:
    if isinstance(node, ast.Expression):
        return _eval(node.body, env)
    if isinstance(node, ast.Constant):
        return float(node.value)
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        return _CONSTS[node.id]
    if isinstance(node, ast.UnaryOp):
        v = _eval(node.operand, env)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp):
        return _BINOPS[type(node.op)](_eval(node.left, env), _eval(node.right, env))
    if isinstance(node, ast.Call):
        return _FUNCS[node.func.id](*[_eval(a, env) for a in node.args])  # type: ignore[attr-defined]
    raise ValueError(f"cannot evaluate {ast.dump(node)}")


def evaluate_expression(text: str | float, env: dict[str, Any]) -> Any:
    """Value of an arithmetic expression (a number, or text using the names in ``env``)."""
    if isinstance(text, int | float) and not isinstance(text, bool):
        return float(text)
    return _eval(_check_expr(text, set(env)), env)


# -- the problem file -----------------------------------------------------------------------


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Number = float | str  # a number or an expression of the decision variables


class Variable(_Section):
    """One decision variable: ``bits`` binary digits mapped onto [min, max] (seed 003 eq. 26)."""

    bits: int = Field(ge=1, le=30)
    min: float
    max: float

    @model_validator(mode="after")
    def _range(self) -> Variable:
        if not self.max > self.min:
            raise ValueError("max: must be > min")
        return self


class Motion(_Section):
    """Rest-to-rest half-cosine strokes of one held end along a direction."""

    end: Literal["start", "end"] = "start"
    type: Literal["strokes"] = "strokes"
    origin: tuple[float, float, float] | None = None  # default: the base case's position
    direction: tuple[float, float, float] = (1.0, 0.0, 0.0)
    waypoints: list[Number] = Field(min_length=2)  # displacements along direction [m]
    durations: list[Number] = Field(min_length=1)  # stroke durations [s]
    samples: int = Field(default=40, ge=2)  # CSV rows per stroke (Hermite: pos + vel)

    @model_validator(mode="after")
    def _counts(self) -> Motion:
        if len(self.durations) != len(self.waypoints) - 1:
            raise ValueError(f"durations: needs one per stroke, len(waypoints) - 1 = "
                             f"{len(self.waypoints) - 1} (got {len(self.durations)})")
        if not any(self.direction):
            raise ValueError("direction: must be a non-zero vector")
        return self


class GA(_Section):
    population: int = Field(default=10, ge=2)
    generations: int = Field(default=20, ge=0)
    elitism: int = Field(default=1, ge=0)
    crossover_rate: float = Field(default=0.8, ge=0, le=1)
    mutation_rate: float = Field(default=0.05, ge=0, le=1)  # per bit
    tournament: int = Field(default=2, ge=1)
    seed: int | None = None

    @model_validator(mode="after")
    def _elite(self) -> GA:
        if self.elitism >= self.population:
            raise ValueError("elitism: must be < population")
        if self.tournament > self.population:
            raise ValueError("tournament: must be <= population")
        return self


class Fitness(_Section):
    expression: str
    constants: dict[str, float] = {}
    reduce: Literal["min", "max", "mean", "final"] = "min"
    window: tuple[float, float]
    sense: Literal["minimize", "maximize"] = "minimize"

    @model_validator(mode="after")
    def _window(self) -> Fitness:
        if not (0.0 <= self.window[0] < self.window[1]):
            raise ValueError("window: needs 0 <= start < end [s]")
        return self


class _ProblemModel(_Section):
    name: str | None = None
    base_case: str | dict
    motion: Motion
    variables: dict[str, Variable] = Field(min_length=1)
    ga: GA = GA()
    fitness: Fitness


#: names the fitness expression may use: t, then start/end node position and velocity
POINT_NAMES = tuple(f"{p}{a}{s}" for s in ("0", "n") for p in ("", "v") for a in "xyz")
FITNESS_NAMES = ("t",) + POINT_NAMES


@dataclass
class Problem:
    """A validated problem file. ``base_case`` is the case dict; ``base_dir`` resolves it."""

    data: _ProblemModel
    base_case: dict
    base_dir: Path
    source: Path | None = None

    @property
    def names(self) -> list[str]:
        return list(self.data.variables)

    @property
    def bits(self) -> int:
        return sum(v.bits for v in self.data.variables.values())


def load_problem(source: str | Path | dict, *, base_dir: str | Path | None = None) -> Problem:
    """Load and validate a problem file (path or dict). Raises :class:`ProblemError` whose
    message names each offending key path (``ga.population: must be >= 2``)."""
    src_path = None
    if isinstance(source, dict):
        raw = copy.deepcopy(source)
        folder = Path(base_dir) if base_dir is not None else Path.cwd()
    else:
        src_path = Path(source)
        if not src_path.is_file():
            raise ProblemError(f"problem file not found: {src_path}")
        try:
            raw = yaml.load(src_path.read_text(), Loader=_Loader)  # noqa: S506 - SafeLoader
        except yaml.YAMLError as exc:
            raise ProblemError(f"problem file is not valid YAML: {exc}") from None
        if not isinstance(raw, dict):
            raise ProblemError("problem file must be a YAML mapping")
        folder = Path(base_dir) if base_dir is not None else src_path.parent
    try:
        data = _ProblemModel.model_validate(raw)
    except ValidationError as exc:
        raise ProblemError(_format_validation_error(exc)) from None
    errors: list[str] = []
    names = set(data.variables)
    for n in names:
        if not n.isidentifier() or n in FITNESS_NAMES or n in _FUNCS or n in _CONSTS:
            errors.append(f"variables.{n}: must be an identifier other than a fitness or "
                          "function name")
    for key in ("waypoints", "durations"):
        for i, v in enumerate(getattr(data.motion, key)):
            if isinstance(v, str):
                try:
                    _check_expr(v, names)
                except ValueError as exc:
                    errors.append(f"motion.{key}[{i}]: {exc}")
    fit_names = set(FITNESS_NAMES) | set(data.fitness.constants)
    try:
        _check_expr(data.fitness.expression, fit_names)
    except ValueError as exc:
        errors.append(f"fitness.expression: {exc}")
    # the base case
    base: dict | None = None
    if isinstance(data.base_case, str):
        p = Path(data.base_case)
        p = p if p.is_absolute() else folder / p
        if not p.is_file():
            errors.append(f"base_case: case file not found: {p}")
        else:
            base = yaml.load(p.read_text(), Loader=_Loader)  # noqa: S506 - SafeLoader
            folder = p.parent
    else:
        base = copy.deepcopy(data.base_case)
    if base is not None:
        try:
            case = load_case(base, base_dir=folder)
        except ValueError as exc:
            errors += [f"base_case: {line}" for line in str(exc).splitlines()]
        else:
            end = getattr(case, data.motion.end)
            if end.type == "free":
                errors.append(f"motion.end: the base case's {data.motion.end} end is free; "
                              "only a held (fixed or prescribed) end can be moved")
            out = case.solver.output_interval
            if data.fitness.window[1] > case.solver.duration + 1e-12:
                errors.append(f"fitness.window: ends after the base case's solver.duration "
                              f"({case.solver.duration} s)")
            if data.fitness.window[1] - data.fitness.window[0] < out:
                errors.append("fitness.window: shorter than the base case's output_interval")
    if errors:
        raise ProblemError("\n".join(errors))
    return Problem(data, base, folder.resolve(), src_path)


# -- encoding and motion --------------------------------------------------------------------


def decode(bits: np.ndarray, problem: Problem) -> dict[str, float]:
    """Variable values of one chromosome (0/1 array, most significant bit first per
    variable): seed 003 eq. (26), v = v_min + (v_max − v_min) · x / (2^bits − 1)."""
    out: dict[str, float] = {}
    k = 0
    for name, var in problem.data.variables.items():
        x = 0
        for b in bits[k:k + var.bits]:
            x = 2 * x + int(b)
        k += var.bits
        out[name] = var.min + (var.max - var.min) * x / (2**var.bits - 1)  # seed 003 eq. (26)
    return out


def stroke_motion(waypoints: list[float], durations: list[float]
                  ) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """Displacement s(t) [m] and velocity [m/s] of successive rest-to-rest half-cosine
    strokes: stroke i goes from waypoints[i] to waypoints[i+1] in durations[i] seconds,
    s = a + (b − a)(1 − cos(π τ / d))/2 (seed 003 Fig. 8 read as half-cosine waves of
    period T_i = 2 d). Before 0 the first and after the last stroke the last waypoint, at rest.
    """
    w = np.asarray(waypoints, float)
    d = np.asarray(durations, float)
    starts = np.concatenate([[0.0], np.cumsum(d)])

    def motion(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        t = np.asarray(t, float)
        s = np.full(t.shape, w[-1])
        v = np.zeros(t.shape)
        s[t <= 0.0] = w[0]
        for i in range(d.size):
            m = (t >= starts[i]) & (t <= starts[i + 1]) if i == 0 else \
                (t > starts[i]) & (t <= starts[i + 1])
            tau = t[m] - starts[i]
            s[m] = w[i] + (w[i + 1] - w[i]) * 0.5 * (1.0 - np.cos(math.pi * tau / d[i]))
            v[m] = (w[i + 1] - w[i]) * 0.5 * math.pi / d[i] * np.sin(math.pi * tau / d[i])
        return s, v

    return motion


def motion_numbers(problem: Problem, values: dict[str, float]) -> tuple[list[float], list[float]]:
    """Waypoints [m] and stroke durations [s] for the given variable values."""
    m = problem.data.motion
    wp = [float(evaluate_expression(v, values)) for v in m.waypoints]
    du = [float(evaluate_expression(v, values)) for v in m.durations]
    return wp, du


def _origin_direction(problem: Problem) -> tuple[np.ndarray, np.ndarray]:
    m = problem.data.motion
    if m.origin is not None:
        origin = np.asarray(m.origin, float)
    else:
        case = load_case(problem.base_case, base_dir=problem.base_dir)
        origin = case.end_state(m.end, 0.0)[0]
    e = np.asarray(m.direction, float)
    return origin, e / np.linalg.norm(e)


def trajectory_table(problem: Problem, values: dict[str, float]) -> dict[str, list[float]]:
    """The motion as a trajectory table t, x, y, z [m], vx, vy, vz [m/s] (``samples``
    uniformly spaced rows per stroke; position and velocity exact at every row, so the
    reader's cubic Hermite interpolant reproduces the strokes to O(h⁴))."""
    wp, du = motion_numbers(problem, values)
    if any(not (d > 0) for d in du):
        raise ValueError(f"stroke durations must be > 0 (got {du})")
    n = problem.data.motion.samples
    starts = np.concatenate([[0.0], np.cumsum(du)])
    t = np.concatenate([np.linspace(starts[i], starts[i + 1], n + 1)[(0 if i == 0 else 1):]
                        for i in range(len(du))])
    s, v = stroke_motion(wp, du)(t)
    origin, e = _origin_direction(problem)
    table = {"t": t.tolist()}
    for k, a in enumerate("xyz"):
        table[a] = (origin[k] + e[k] * s).tolist()
    for k, a in enumerate("xyz"):
        table[f"v{a}"] = (e[k] * v).tolist()
    return table


def individual_case(problem: Problem, values: dict[str, float],
                    trajectory: str | dict | None = None) -> dict:
    """The base case with the moved end prescribed (inline table unless ``trajectory`` names
    a CSV) and solver.duration = the fitness window's end."""
    case = copy.deepcopy(problem.base_case)
    which = problem.data.motion.end
    end = dict(case.get(which, {}))
    for key in ("position", "type", "trajectory"):
        end.pop(key, None)
    end["type"] = "prescribed"
    end["trajectory"] = trajectory if trajectory is not None else trajectory_table(problem,
                                                                                   values)
    case[which] = end
    case.setdefault("solver", {})["duration"] = float(problem.data.fitness.window[1])
    return case


# -- fitness (runs on the worker) -----------------------------------------------------------


@dataclass(frozen=True)
class FitnessEvaluator:
    """Picklable ``(xarray.Dataset) -> {"fitness": J, "t_best": t}``: the fitness expression
    evaluated at every output time in the window, then reduced (min, max, mean, final)."""

    expression: str
    constants: dict
    window: tuple[float, float]
    reduce: str = "min"

    def series(self, ds) -> tuple[np.ndarray, np.ndarray]:
        """Output times [s] in the window and the expression's value at each."""
        t = np.asarray(ds["time"].values, float)
        m = (t >= self.window[0] - 1e-9) & (t <= self.window[1] + 1e-9)
        pos = np.asarray(ds["position"].values)[m]
        vel = np.asarray(ds["velocity"].values)[m]
        env: dict[str, Any] = dict(self.constants)
        env["t"] = t[m]
        for s, node in (("0", 0), ("n", -1)):
            for k, a in enumerate("xyz"):
                env[f"{a}{s}"] = pos[:, node, k]
                env[f"v{a}{s}"] = vel[:, node, k]
        val = np.broadcast_to(np.asarray(evaluate_expression(self.expression, env), float),
                              env["t"].shape)
        return env["t"], val

    def __call__(self, ds) -> dict[str, float]:
        t, val = self.series(ds)
        if not np.all(np.isfinite(val)):
            raise ValueError("fitness expression is not finite")
        if self.reduce == "min":
            i = int(np.argmin(val))
        elif self.reduce == "max":
            i = int(np.argmax(val))
        else:
            i = val.size - 1
        j = float(np.mean(val)) if self.reduce == "mean" else float(val[i])
        return {"fitness": j, "t_best": float(t[i])}


def evaluator(problem: Problem) -> FitnessEvaluator:
    f = problem.data.fitness
    return FitnessEvaluator(f.expression, dict(f.constants), tuple(f.window), f.reduce)


# -- the genetic algorithm ------------------------------------------------------------------


class BinaryGA:
    """A small generational binary GA with elitism (seed 003 §5.1).

    Fitness is *minimised* internally (a maximised fitness is negated by the caller).
    ``next_generation`` keeps the ``elitism`` best unchanged and fills the rest by
    tournament selection, one-point crossover (rate ``crossover_rate``, over the whole
    chromosome) and bit-flip mutation (probability ``mutation_rate`` per bit).
    """

    def __init__(self, n_bits: int, *, population: int, elitism: int, crossover_rate: float,
                 mutation_rate: float, tournament: int, rng: np.random.Generator) -> None:
        self.n_bits = n_bits
        self.population = population
        self.elitism = elitism
        self.pc = crossover_rate
        self.pm = mutation_rate
        self.k = tournament
        self.rng = rng

    def initial(self) -> np.ndarray:
        return self.rng.integers(0, 2, size=(self.population, self.n_bits), dtype=np.int8)

    def _pick(self, fit: np.ndarray) -> int:
        idx = self.rng.choice(fit.size, size=self.k, replace=False)
        return int(idx[np.argmin(fit[idx])])  # ties: the first drawn

    def next_generation(self, pop: np.ndarray, fit: np.ndarray) -> np.ndarray:
        order = np.argsort(fit, kind="stable")
        new = [pop[i].copy() for i in order[: self.elitism]]  # elitism: unchanged
        while len(new) < self.population:
            a = pop[self._pick(fit)].copy()
            b = pop[self._pick(fit)].copy()
            if self.n_bits > 1 and self.rng.random() < self.pc:
                cut = int(self.rng.integers(1, self.n_bits))
                a[cut:], b[cut:] = b[cut:].copy(), a[cut:].copy()
            for c in (a, b):
                flip = self.rng.random(self.n_bits) < self.pm
                c[flip] ^= 1
                if len(new) < self.population:
                    new.append(c)
        return np.array(new, dtype=np.int8)


# -- the driver -----------------------------------------------------------------------------


@dataclass
class OptimizeResult:
    """Outcome of :func:`optimize`. Fitness in the problem's own sense (not negated)."""

    best_values: dict[str, float]
    best_bits: str
    best_fitness: float
    best_t: float
    history: list[dict]  # per generation: generation, best, mean, evaluated, failed, values
    individuals: list[dict]  # every individual of every generation (CSV rows)
    failures: list[dict] = field(default_factory=list)
    wall_s: float = 0.0


def _bits_str(bits: np.ndarray) -> str:
    return "".join(str(int(b)) for b in bits)


def optimize(problem: Problem | str | Path | dict, *, generations: int | None = None,
             seed: int | None = None, client=None, scheduler: str | None = None,
             workers: int | None = None, echo: Callable[[str], None] | None = print
             ) -> OptimizeResult:
    """Run the GA. Each generation's not-yet-seen chromosomes are simulated as one
    :func:`tetherdyn.batch.run_batch` (one Dask task each); a chromosome seen before reuses
    its fitness (the simulation is deterministic). ``generations`` / ``seed`` override the
    problem's ``ga`` section. Progress lines go to ``echo`` (None: silent)."""
    from .batch import close_client, get_client, run_batch

    if not isinstance(problem, Problem):
        problem = load_problem(problem)
    g = problem.data.ga
    n_gen = g.generations if generations is None else int(generations)
    rng = np.random.default_rng(g.seed if seed is None else seed)
    ga = BinaryGA(problem.bits, population=g.population, elitism=g.elitism,
                  crossover_rate=g.crossover_rate, mutation_rate=g.mutation_rate,
                  tournament=g.tournament, rng=rng)
    sign = 1.0 if problem.data.fitness.sense == "minimize" else -1.0
    evaluate = evaluator(problem)
    own_client = client is None
    if own_client:
        client = get_client(scheduler=scheduler, workers=workers or 2)
    seen: dict[str, tuple[float, float, str, str | None]] = {}
    history: list[dict] = []
    rows: list[dict] = []
    failures: list[dict] = []
    t0 = time.perf_counter()
    pop = ga.initial()
    try:
        for gen in range(n_gen + 1):
            tg = time.perf_counter()
            keys = [_bits_str(b) for b in pop]
            todo = list(dict.fromkeys(k for k in keys if k not in seen))
            cases, bad = [], {}
            for k in todo:
                values = decode(np.array([int(c) for c in k]), problem)
                try:
                    cases.append((k, individual_case(problem, values)))
                except ValueError as exc:
                    bad[k] = str(exc)
            results = run_batch([c for _, c in cases], evaluate, client=client) if cases else []
            for (k, _), r in zip(cases, results, strict=True):
                if r.status == "ok" and math.isfinite(r.values.get("fitness", math.nan)):
                    seen[k] = (sign * r.values["fitness"], r.values.get("t_best", math.nan),
                               "ok", None)
                else:
                    seen[k] = (math.inf, math.nan, "failed", r.error or "no fitness")
            for k, err in bad.items():
                seen[k] = (math.inf, math.nan, "failed", err)
            fit = np.array([seen[k][0] for k in keys])
            new_failed = 0
            fresh = set(todo) | set(bad)  # simulated (or rejected) in this generation
            for i, k in enumerate(keys):
                values = decode(pop[i], problem)
                f, tb, status, err = seen[k]
                rows.append(dict(generation=gen, individual=i, bits=k, **values,
                                 fitness=sign * f if math.isfinite(f) else math.nan,
                                 t_best=tb, status=status, evaluated=k in fresh,
                                 error=err or ""))
                first = k in fresh
                fresh.discard(k)  # a duplicate within the generation is not a new run
                if status == "failed" and first:
                    new_failed += 1
                    failures.append(dict(generation=gen, bits=k, values=values, error=err))
                    if echo:
                        echo(f"  failed: {k} {_fmt(values)}: {(err or '').splitlines()[0]}")
            ib = int(np.argmin(fit))
            finite = fit[np.isfinite(fit)]
            best_vals = decode(pop[ib], problem)
            history.append(dict(generation=gen, best=sign * fit[ib] if np.isfinite(fit[ib])
                                else math.nan,
                                mean=sign * float(finite.mean()) if finite.size else math.nan,
                                evaluated=len(todo), failed=new_failed, bits=keys[ib],
                                **best_vals))
            if echo:
                echo(f"generation {gen:3d}/{n_gen}: best {history[-1]['best']:.6g} "
                     f"({_fmt(best_vals)}), mean {history[-1]['mean']:.6g}, "
                     f"{len(todo)} simulated ({new_failed} failed) in "
                     f"{time.perf_counter() - tg:.1f} s")
            if gen < n_gen:
                pop = ga.next_generation(pop, fit)
    finally:
        if own_client:
            close_client(client)
    # the best chromosome seen (with elitism >= 1 it is also the last generation's best)
    best_key = min(seen, key=lambda k: seen[k][0])
    f, tb, _, _ = seen[best_key]
    return OptimizeResult(
        best_values=decode(np.array([int(c) for c in best_key]), problem), best_bits=best_key,
        best_fitness=sign * f if math.isfinite(f) else math.nan, best_t=tb, history=history,
        individuals=rows, failures=failures, wall_s=time.perf_counter() - t0)


def _fmt(values: dict[str, float]) -> str:
    return ", ".join(f"{k} = {v:.4g}" for k, v in values.items())


# -- outputs --------------------------------------------------------------------------------


def _write_rows(rows: list[dict], path: Path) -> None:
    if not rows:
        return
    with path.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.10g}" if isinstance(v, float) else v) for k, v in r.items()})


def fitness_figure(result: OptimizeResult, problem: Problem):
    """Best and mean fitness per generation (like seed 003 Fig. 9)."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.0, 3.6))
    ax = fig.add_subplot()
    gens = [h["generation"] for h in result.history]
    ax.plot(gens, [h["best"] for h in result.history], "o-", label="best")
    ax.plot(gens, [h["mean"] for h in result.history], "s--", ms=3, label="mean (finite)")
    ax.set_xlabel("generation")
    ax.set_ylabel("fitness")
    ax.set_title(problem.data.name or "GA fitness history")
    ax.legend()
    ax.grid(alpha=0.3)
    return fig


def trajectory_figure(problem: Problem, values: dict[str, float], duration: float | None = None):
    """The best motion's displacement along the motion direction vs time (like seed 003
    Fig. 10)."""
    from matplotlib.figure import Figure

    wp, du = motion_numbers(problem, values)
    end = duration if duration is not None else problem.data.fitness.window[1]
    t = np.linspace(0.0, max(end, sum(du)), 1201)
    s, _ = stroke_motion(wp, du)(t)
    fig = Figure(figsize=(6.0, 3.6))
    ax = fig.add_subplot()
    ax.plot(t, s)
    for tb in np.cumsum(du):
        ax.axvline(tb, color="0.7", lw=0.8)
    ax.set_xlabel("time [s]")
    ax.set_ylabel(f"{problem.data.motion.end} end displacement [m]")
    ax.set_title("best motion: " + _fmt(values))
    ax.grid(alpha=0.3)
    return fig


def write_outputs(problem: Problem, result: OptimizeResult, out: Path) -> dict[str, Path]:
    """best_trajectory.csv, best_case.yaml (referencing it), individuals.csv, history.csv,
    fitness_history.png, trajectory.png under ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {"trajectory": write_trajectory_csv(trajectory_table(problem, result.best_values),
                                                out / "best_trajectory.csv")}
    case = individual_case(problem, result.best_values, trajectory="best_trajectory.csv")
    case["name"] = f"{problem.data.name or 'optimised'}: best of GA ({_fmt(result.best_values)})"
    paths["case"] = out / "best_case.yaml"
    paths["case"].write_text(yaml_text(case))
    paths["individuals"] = out / "individuals.csv"
    _write_rows(result.individuals, paths["individuals"])
    paths["history"] = out / "history.csv"
    _write_rows(result.history, paths["history"])
    fig = fitness_figure(result, problem)
    fig.tight_layout()
    paths["fitness_figure"] = out / "fitness_history.png"
    fig.savefig(paths["fitness_figure"], dpi=150)
    fig = trajectory_figure(problem, result.best_values)
    fig.tight_layout()
    paths["trajectory_figure"] = out / "trajectory.png"
    fig.savefig(paths["trajectory_figure"], dpi=150)
    return paths
