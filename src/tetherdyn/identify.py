"""Parameter identification from measured marker trajectories — seed 003 §4.3.

The seed identifies the damping parameter D, the drag coefficient C_D and the element
count n of its rubber strip by a **full grid search** (Table 2) over the evaluation
function of eq. (25): the sum over video frames p and markers n of the squared distance
between each measured marker and the simulated tether point at the same place. Here:

    J = Σ_p Σ_k |X_k(t_p) − r(s_k, t_p)|²        [m²]           (seed 003 eq. 25)

with X_k the measured position of marker k (file columns x, y, z), s_k its unstretched arc
length from the start end, and r(s, t) the simulated centre line. Every grid point is one
simulation of the Dask batch runner (:mod:`tetherdyn.batch`). An optional refinement
treats J as the least-squares problem it is: scipy's bounded ``least_squares``
(trust-region reflective) on the residual vector of every marker coordinate, from the few
best grid points (integer parameters fixed at each start's value), every simulation a Dask
task; at the optimum the linearised covariance s² (JᵀJ)⁻¹, 95 % intervals (Student t),
correlations and the cost along each parameter. Usage, the marker format and the choices:
docs/identify.md.

Interpolation choices (stated in docs/identify.md):

- along the tether: with ``ancf2d`` (the results carry the nodal slopes) the cubic Hermite
  shape functions of the element (seed 003 eq. 1), i.e. the model's own centre line;
  otherwise linear between nodes in unstretched arc length;
- in time: the solver's output interval is set so that the outputs hit the marker times
  when they lie on a uniform grid that is a multiple of solver.dt (the normal case of a
  camera); otherwise the outputs are interpolated linearly in time.
"""

from __future__ import annotations

import copy
import csv
import itertools
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .case import CaseError, load_case, set_key, yaml_text

__all__ = ["Markers", "Parameter", "MarkerCost", "IdentifyResult", "identify", "read_markers",
           "parse_param", "check_key", "tether_points",
           "MARKER_COLUMNS"]

MARKER_COLUMNS = ("time", "marker", "arc_length", "x", "y", "z")
_TIME_TOL = 1e-9  # [s] a marker time within this of an output instant hits it


# -- markers --------------------------------------------------------------------------------


@dataclass
class Markers:
    """Measured marker positions, one row per (time, marker).

    time [s], marker (label), arc_length [m] (unstretched, from the start end), xyz [m].
    """

    time: np.ndarray
    marker: np.ndarray
    arc_length: np.ndarray
    xyz: np.ndarray
    source: str = "<markers>"

    def __len__(self) -> int:
        return int(self.time.size)

    @property
    def times(self) -> np.ndarray:
        """The distinct frame times [s], sorted."""
        return np.unique(self.time)


def read_markers(path: str | Path) -> Markers:
    """Read a marker CSV (header ``time,marker,arc_length,x,y,z``, docs/identify.md).

    Raises CaseError naming ``file:line`` and the problem for the first bad row.
    """
    path = Path(path)
    if not path.is_file():
        raise CaseError(f"marker file not found: {path}")
    with path.open(newline="") as f:
        lines = f.read().splitlines()
    rows: list[tuple[int, list[str]]] = []
    for no, text in enumerate(lines, start=1):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        rows.append((no, next(csv.reader([text]))))
    if not rows:
        raise CaseError(f"{path}: no header and no rows (expected columns "
                        f"{', '.join(MARKER_COLUMNS)})")
    hno, header = rows[0]
    header = [h.strip() for h in header]
    missing = [c for c in MARKER_COLUMNS if c not in header]
    if missing:
        raise CaseError(f"{path}:{hno}: header lacks column(s) {', '.join(missing)} "
                        f"(expected {', '.join(MARKER_COLUMNS)})")
    col = {c: header.index(c) for c in MARKER_COLUMNS}
    t, m, s, xyz = [], [], [], []
    seen: dict[tuple[float, str], int] = {}
    for no, cells in rows[1:]:
        where = f"{path}:{no}"
        if len(cells) != len(header):
            raise CaseError(f"{where}: {len(cells)} fields, the header has {len(header)}")
        vals = {}
        for c in ("time", "arc_length", "x", "y", "z"):
            text = cells[col[c]].strip()
            try:
                v = float(text)
            except ValueError:
                raise CaseError(f"{where}: {c} {text!r} is not a number") from None
            if not math.isfinite(v):
                raise CaseError(f"{where}: {c} must be finite (got {text})")
            vals[c] = v
        label = cells[col["marker"]].strip()
        if not label:
            raise CaseError(f"{where}: marker: empty label")
        if vals["time"] < 0:
            raise CaseError(f"{where}: time must be >= 0 (got {vals['time']:g})")
        if vals["arc_length"] < 0:
            raise CaseError(f"{where}: arc_length must be >= 0 (got {vals['arc_length']:g})")
        if (vals["time"], label) in seen:
            raise CaseError(f"{where}: marker {label!r} at time {vals['time']:g} repeats line "
                            f"{seen[(vals['time'], label)]}")
        seen[(vals["time"], label)] = no
        t.append(vals["time"])
        m.append(label)
        s.append(vals["arc_length"])
        xyz.append((vals["x"], vals["y"], vals["z"]))
    if not t:
        raise CaseError(f"{path}: no marker rows after the header")
    return Markers(np.array(t), np.array(m, dtype=object), np.array(s), np.array(xyz),
                   source=str(path))


def write_markers(markers: Markers, path: str | Path) -> Path:
    """Write markers in the format :func:`read_markers` reads."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(MARKER_COLUMNS)
        for i in range(len(markers)):
            w.writerow([repr(float(markers.time[i])), markers.marker[i],
                        repr(float(markers.arc_length[i])),
                        *(repr(float(v)) for v in markers.xyz[i])])
    return path


# -- the simulated centre line at the markers ---------------------------------------------------


def tether_points(ds, times: np.ndarray, arc_length: np.ndarray) -> np.ndarray:
    """Simulated positions [m] (K, 3) of the tether points at unstretched arc lengths
    ``arc_length`` (K,) [m] at instants ``times`` (K,) [s].

    In time: the output instant itself when a time hits one (within 1e-9 s), else linear
    between the two outputs around it. Along the tether: the cubic Hermite shape functions
    of the ANCF element (seed 003 eq. 1) when the results carry nodal slopes (``ancf2d``),
    else linear between nodes. Raises ValueError for a time beyond the last output or an
    arc length outside the tether.
    """
    tt = np.asarray(ds["time"].values, dtype=float)
    s_nodes = np.asarray(ds["arc_length"].values, dtype=float)
    pos = np.asarray(ds["position"].values, dtype=float)
    slope = np.asarray(ds["slope"].values, dtype=float) if "slope" in ds else None
    times = np.asarray(times, dtype=float)
    arc = np.asarray(arc_length, dtype=float)
    if times.size and times.max() > tt[-1] + _TIME_TOL:
        raise ValueError(f"marker time {times.max():g} s is past the simulation's last output "
                         f"{tt[-1]:g} s")
    if arc.size and (arc.min() < -1e-12 or arc.max() > s_nodes[-1] * (1 + 1e-12) + 1e-12):
        raise ValueError(f"marker arc length outside the tether [0, {s_nodes[-1]:g}] m")
    # time: index j and weight w (w = 0: exactly output j)
    j = np.clip(np.searchsorted(tt, times, side="right") - 1, 0, tt.size - 1)
    hit = np.abs(tt[j] - times) <= _TIME_TOL
    nxt = np.minimum(j + 1, tt.size - 1)
    up = np.abs(tt[nxt] - times) <= _TIME_TOL
    j = np.where(up & ~hit, nxt, j)
    hit = hit | up
    nxt = np.minimum(j + 1, tt.size - 1)
    span = np.where(nxt > j, tt[nxt] - tt[j], 1.0)
    w = np.where(hit, 0.0, (times - tt[j]) / span)
    # space: element e and local coordinate xi
    e = np.clip(np.searchsorted(s_nodes, arc, side="right") - 1, 0, s_nodes.size - 2)
    le = s_nodes[e + 1] - s_nodes[e]
    xi = np.clip((arc - s_nodes[e]) / le, 0.0, 1.0)

    def at(k: np.ndarray) -> np.ndarray:
        ra, rb = pos[k, e], pos[k, e + 1]
        if slope is None:
            return (1.0 - xi)[:, None] * ra + xi[:, None] * rb
        # seed 003 eq. (1): cubic Hermite shape functions in the unstretched arc length
        x2, x3 = xi * xi, xi * xi * xi
        S0 = 1.0 - 3 * x2 + 2 * x3
        S1 = le * (xi - 2 * x2 + x3)
        S2 = 3 * x2 - 2 * x3
        S3 = le * (x3 - x2)
        return (S0[:, None] * ra + S1[:, None] * slope[k, e] + S2[:, None] * rb
                + S3[:, None] * slope[k, e + 1])

    p0 = at(j)
    if np.all(w == 0.0):
        return p0
    return (1.0 - w)[:, None] * p0 + w[:, None] * at(nxt)


@dataclass
class MarkerCost:
    """The evaluation function of seed 003 eq. (25) as a picklable callable for
    :func:`tetherdyn.batch.run_batch`: ``cost(ds) -> {"J": [m²], "rms": [m], "max": [m]}``.

    ``rms`` = sqrt(J / K) over the K marker observations, ``max`` the largest distance.
    """

    time: np.ndarray
    arc_length: np.ndarray
    xyz: np.ndarray

    @classmethod
    def from_markers(cls, markers: Markers) -> MarkerCost:
        return cls(np.asarray(markers.time, float), np.asarray(markers.arc_length, float),
                   np.asarray(markers.xyz, float))

    def residuals(self, ds) -> np.ndarray:
        """Measured minus simulated marker positions [m] (K, 3)."""
        return self.xyz - tether_points(ds, self.time, self.arc_length)

    def __call__(self, ds) -> dict[str, float]:
        d2 = np.sum(self.residuals(ds) ** 2, axis=1)
        J = float(np.sum(d2))  # seed 003 eq. (25)
        return {"J": J, "rms": math.sqrt(J / d2.size), "max": float(np.sqrt(d2.max()))}


# -- parameters -----------------------------------------------------------------------------


@dataclass
class Parameter:
    """One identified case key (dotted path) and its grid values."""

    key: str
    values: list
    integer: bool = False

    @property
    def bounds(self) -> tuple[float, float]:
        return float(min(self.values)), float(max(self.values))

    @property
    def step(self) -> float:
        v = sorted(set(self.values))
        return float(min(np.diff(v))) if len(v) > 1 else max(abs(float(v[0])) * 0.05, 1e-9)


def _section_fields(section: str, model_type: str | None) -> set[str] | None:
    from .case import _CaseModel, model_options

    if section == "model":
        from .case import ModelSection

        return set(ModelSection.model_fields) | set(model_options(model_type or ""))
    info = _CaseModel.model_fields.get(section)
    if info is None or not hasattr(info.annotation, "model_fields"):
        return None
    return set(info.annotation.model_fields)


#: keys whose schema type is an integer
_INTEGER_KEYS = {"model.elements", "solver.max_steps"}


def check_key(case: dict, key: str) -> None:
    """Raise CaseError unless ``key`` (``section.name``) names a numeric key of the case
    schema for this case's model."""
    parts = key.split(".")
    model_type = (case.get("model") or {}).get("type")
    if len(parts) != 2:
        raise CaseError(f"--param {key}: not a case key (expected section.name, e.g. "
                        "tether.cd_normal or model.elements)")
    fields = _section_fields(parts[0], model_type)
    if fields is None:
        raise CaseError(f"--param {key}: unknown case section {parts[0]!r}")
    if parts[1] not in fields:
        raise CaseError(f"--param {key}: unknown case key ({parts[0]} has no {parts[1]!r}"
                        + (f" for model {model_type}" if parts[0] == "model" else "") + ")")
    if key in ("model.type",) or parts[1] in ("drag_law", "method", "type", "shape",
                                               "trajectory", "interpolation", "compression",
                                               "adaptive", "position", "clamp", "force",
                                               "gravity", "current", "direction", "points",
                                               "velocity", "angular_velocity"):
        raise CaseError(f"--param {key}: not a numeric scalar key; only numbers can be "
                        "identified")


def _number(text: str, spec: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise CaseError(f"--param {spec}: {text!r} is not a number") from None
    if not math.isfinite(v):
        raise CaseError(f"--param {spec}: {text!r} is not finite")
    return v


def parse_param(spec: str) -> Parameter:
    """``KEY=START:STOP:STEP`` (STOP included) or ``KEY=V1,V2,...`` -> Parameter.

    Integer keys (model.elements) need integer values.
    """
    if "=" not in spec:
        raise CaseError(f"--param {spec}: expected KEY=START:STOP:STEP or KEY=V1,V2,...")
    key, rhs = (x.strip() for x in spec.split("=", 1))
    integer = key in _INTEGER_KEYS
    if ":" in rhs:
        parts = rhs.split(":")
        if len(parts) != 3:
            raise CaseError(f"--param {spec}: expected START:STOP:STEP")
        a, b, h = (_number(p, spec) for p in parts)
        if h <= 0:
            raise CaseError(f"--param {spec}: STEP must be > 0")
        if b < a:
            raise CaseError(f"--param {spec}: STOP must be >= START")
        n = int(math.floor((b - a) / h + 1e-9)) + 1
        if n > 100_000:
            raise CaseError(f"--param {spec}: {n} values; at most 100000")
        values = [a + i * h for i in range(n)]
        # round away the floating-point noise of a + i h (decimal steps print cleanly)
        values = [float(f"{v:.12g}") for v in values]
    else:
        values = [_number(p, spec) for p in rhs.split(",") if p.strip()]
        if not values:
            raise CaseError(f"--param {spec}: no values")
    if integer:
        if any(not float(v).is_integer() for v in values):
            raise CaseError(f"--param {spec}: {key} takes integers")
        values = [int(v) for v in values]
    return Parameter(key, values, integer)


def _as_parameters(parameters: Any) -> list[Parameter]:
    if isinstance(parameters, Mapping):
        out = []
        for k, v in parameters.items():
            if isinstance(v, str):
                out.append(parse_param(f"{k}={v}"))
            else:
                vals = list(np.atleast_1d(np.asarray(v)).tolist())
                integer = k in _INTEGER_KEYS
                if integer:
                    if any(not float(x).is_integer() for x in vals):
                        raise CaseError(f"--param {k}: {k} takes integers")
                    vals = [int(x) for x in vals]
                else:
                    vals = [float(x) for x in vals]
                out.append(Parameter(k, vals, integer))
        return out
    return [p if isinstance(p, Parameter) else parse_param(str(p)) for p in parameters]


# -- sampling -------------------------------------------------------------------------------


def _sampling(raw: dict, times: np.ndarray) -> tuple[dict, str]:
    """Solver settings for the marker times: (updated raw case, note)."""
    case = load_case(raw)
    s = case.solver
    fixed = case.method == "rk4" or (case.method == "generalized_alpha" and not s.adaptive)
    t = np.unique(times)
    dtime = np.diff(t)
    delta = float(dtime.min()) if dtime.size else float(t[0]) if t[0] > 0 else 0.0
    hits = False
    if delta > 0:
        k = t / delta
        on_grid = np.all(np.abs(k - np.round(k)) <= 1e-6)
        ratio = delta / s.dt
        on_dt = (not fixed) or abs(ratio - round(ratio)) <= 1e-6 * max(1.0, ratio)
        hits = bool(on_grid and on_dt and round(ratio) >= 1)
    raw = copy.deepcopy(raw)
    if hits:
        out = float(f"{delta:.12g}")
        note = (f"outputs every {out:g} s hit the marker times (solver.output_interval set to "
                "the camera interval)")
    else:
        out = s.output_interval
        note = (f"marker times not on a grid that is a multiple of solver.dt: outputs every "
                f"{out:g} s, interpolated linearly in time")
    duration = max(out, math.ceil(float(t[-1]) / out - 1e-9) * out)
    set_key(raw, "solver.output_interval", out)
    set_key(raw, "solver.duration", float(f"{duration:.12g}"))
    return raw, note


# -- the identification ---------------------------------------------------------------------


@dataclass
class IdentifyResult:
    """What :func:`identify` found.

    ``table``: one row per evaluated point (the parameters, ``stage`` grid|refine, status,
    error, wall_s, J [m²], rms [m], max [m]); ``best``: the parameters of the smallest J
    (refined when refinement ran and improved); ``grid_best``: the best grid point;
    ``best_case``: the case dict with ``best`` set; ``markers``; ``parameters``.
    """

    table: Any  # pandas.DataFrame
    best: dict[str, float]
    best_J: float
    grid_best: dict[str, float]
    grid_best_J: float
    best_case: dict
    markers: Markers
    parameters: list[Parameter]
    sampling: str = ""
    wall_s: float = 0.0
    refined: dict[str, float] | None = None
    notes: list[str] = field(default_factory=list)
    uncertainty: Uncertainty | None = None
    starts: list[dict] = field(default_factory=list)
    profiles: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)

    @property
    def n_failed(self) -> int:
        return int((self.table["status"] != "ok").sum())

    def to_xarray(self):
        """The table as an xarray.Dataset over a ``point`` dimension."""
        import xarray as xr

        ds = xr.Dataset.from_dataframe(self.table.reset_index(drop=True)
                                       .rename_axis("point"))
        for c in ("J",):
            if c in ds:
                ds[c].attrs.update(units="m2", long_name="seed 003 eq. (25) evaluation function")
        for c in ("rms", "max"):
            if c in ds:
                ds[c].attrs["units"] = "m"
        ds.attrs.update(best=str(self.best), best_J=self.best_J, sampling=self.sampling,
                        markers=self.markers.source)
        u = self.uncertainty
        if u is not None:
            dims, dims2 = ("parameter",), ("parameter", "parameter_2")
            ds = ds.assign_coords(parameter=list(u.keys), parameter_2=list(u.keys))
            for name, v, text in (
                    ("estimate", u.estimate, "refined least-squares estimate"),
                    ("std_error", u.std_error, "standard error, sqrt(diag(s² (JᵀJ)⁻¹))"),
                    ("ci95_low", u.ci95_low, "95 % interval, lower end (Student t)"),
                    ("ci95_high", u.ci95_high, "95 % interval, upper end (Student t)")):
                ds[name] = (dims, np.asarray(v, float), {"long_name": text})
            ds["covariance"] = (dims2, u.covariance, {"long_name": "s² (JᵀJ)⁻¹"})
            ds["correlation"] = (dims2, u.correlation, {"long_name": "parameter correlation"})
            ds.attrs.update(residual_variance_m2=u.s2, dof=u.dof, condition=u.condition,
                            fd_step_grid_steps=u.fd_step,
                            jacobian_mismatch=u.jacobian_mismatch,
                            uncertainty_warnings="; ".join(u.warnings))
        return ds

    def save(self, folder: str | Path, *, figures: bool = True) -> list[Path]:
        """Write results.csv, results.nc, best.yaml, (refined) uncertainty.csv and
        (figures) landscape.png, snapshots.png and (refined) profile.png into ``folder``;
        returns the paths."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        paths = [folder / "results.csv", folder / "results.nc", folder / "best.yaml"]
        self.table.to_csv(paths[0], index=False)
        ds = self.to_xarray()
        for name in ds.data_vars:  # netCDF wants fixed types: text columns as str
            if ds[name].dtype == object:
                ds[name] = ds[name].astype(str)
        ds.to_netcdf(paths[1])
        paths[2].write_text(
            f"# identified by tetherdyn identify: J = {self.best_J:.6g} m^2\n"
            + "".join(f"# {k} = {v}\n" for k, v in self.best.items())
            + yaml_text(self.best_case))
        if self.uncertainty is not None:
            paths.append(folder / "uncertainty.csv")
            self.uncertainty.table().to_csv(paths[-1], index=False)
        if figures:
            paths.append(landscape_figure(self, folder / "landscape.png"))
            paths.append(snapshots_figure(self, folder / "snapshots.png"))
            if self.profiles:
                paths.append(profile_figure(self, folder / "profile.png"))
        return paths


def _absolute_paths(raw: dict, base_dir: Path) -> dict:
    """Relative trajectory file paths made absolute (the workers run elsewhere)."""
    for which in ("start", "end"):
        end = raw.get(which)
        if isinstance(end, dict) and isinstance(end.get("trajectory"), str):
            p = Path(end["trajectory"])
            if not p.is_absolute():
                end["trajectory"] = str((base_dir / p).resolve())
    return raw


def identify(base_case: Any, markers: Markers | str | Path, parameters: Any, *,
             client=None, scheduler: str | None = None, workers: int = 2,
             store: str | Path | None = None, refine: bool = False,
             progress: Any = None, max_refine_evaluations: int = 60, starts: int = 3,
             fd_step: float | None = None, profile_points: int = 7) -> IdentifyResult:
    """Full grid search of seed 003 §4.3 (eq. 25) over ``parameters``, then optionally
    (``refine``) a bounded least-squares refinement of the continuous ones from the
    ``starts`` best grid points, with their uncertainty at the optimum.

    ``base_case``: case dict, YAML path or Case; ``markers``: Markers or a marker CSV;
    ``parameters``: ``{"key": values or "START:STOP:STEP"}`` or a list of
    ``"KEY=START:STOP:STEP"`` specs. Everything is checked (case, markers, keys, the
    grid's extreme values) before any simulation runs. ``client`` / ``scheduler`` /
    ``workers`` / ``store`` / ``progress`` as in :func:`tetherdyn.batch.run_batch`.

    Refinement (docs/identify.md): scipy ``least_squares`` (trust-region reflective,
    bounded to the grid's range) on the residual vector of all marker coordinates, at most
    ``max_refine_evaluations`` simulations per start; Jacobians by finite differences of
    ``fd_step`` grid steps (default :data:`FD_STEP_EXPLICIT` for rk4,
    :data:`FD_STEP_ITERATED` for generalized-α and rk45); then the covariance, 95 % intervals and
    correlations (:class:`Uncertainty`) and the cost along each parameter at
    ``profile_points`` values (0: none). Refinement runs are not kept in ``store``.
    """
    import pandas as pd

    from .batch import close_client, get_client, run_batch
    from .integrate import SimulationError

    t0 = time.perf_counter()
    base = load_case(base_case)
    raw = _absolute_paths(base.to_dict(), base.base_dir)
    if not isinstance(markers, Markers):
        markers = read_markers(markers)
    params = _as_parameters(parameters)
    if not params:
        raise CaseError("--param: give at least one parameter to identify")
    keys = [p.key for p in params]
    if len(set(keys)) != len(keys):
        raise CaseError("--param: a key is given twice")
    for p in params:
        check_key(raw, p.key)
    raw, note = _sampling(raw, markers.time)
    s_max = float(base.tether.length)
    if markers.arc_length.max() > s_max * (1 + 1e-9):
        raise CaseError(f"{markers.source}: arc_length {markers.arc_length.max():g} m is beyond "
                        f"the tether length {s_max:g} m")
    # the extreme values of every parameter must give a valid case (checked here, not
    # 3 000 times on the workers)
    for p in params:
        for v in {min(p.values), max(p.values)}:
            try:
                load_case(set_key(copy.deepcopy(raw), p.key, v))
            except CaseError as exc:
                raise CaseError(f"--param {p.key}={v:g}: {exc}") from None
    cost = MarkerCost.from_markers(markers)
    points = list(itertools.product(*(p.values for p in params)))
    cases = [_point_case(raw, keys, pt) for pt in points]
    own = client is None
    if own:
        client = get_client(scheduler, workers) if _needs_client(cases, store) else None
    try:
        res = run_batch(cases, cost, client=client, store=store, progress=progress)
        rows = [_row(keys, pt, r, "grid") for pt, r in zip(points, res, strict=True)]
        ok = [r for r in rows if r["status"] == "ok"]
        if not ok:
            raise SimulationError("identify: every grid point failed; first error: "
                                  + str(rows[0]["error"]))
        gbest = min(ok, key=lambda r: r["J"])
        grid_best = {k: gbest[k] for k in keys}
        best, best_J, refined = dict(grid_best), float(gbest["J"]), None
        notes: list[str] = []
        refine_info: dict[str, Any] = {}
        if refine:
            cont = [p for p in params if not p.integer]
            if not cont:
                notes.append("refine: no continuous parameter; grid best kept")
            else:
                if client is None:
                    client = get_client(scheduler, workers)
                # the few best grid points (each with its own integer values)
                order = sorted(ok, key=lambda r: r["J"])[:max(1, int(starts))]
                start_points = [{k: r[k] for k in keys} for r in order]
                refined_rows, refined, info = _refine(
                    raw, params, cont, start_points, cost, client, max_refine_evaluations,
                    fd_step, profile_points)
                rows += refined_rows
                notes += info["notes"]
                refine_info = info
                if refined is not None and info["best_J"] <= best_J:
                    best, best_J = dict(refined), float(info["best_J"])
    finally:
        if own and client is not None:
            close_client(client)
    table = pd.DataFrame(rows)
    best_case = _point_case(raw, keys, [best[k] for k in keys])
    return IdentifyResult(table=table, best=best, best_J=best_J, grid_best=grid_best,
                          grid_best_J=float(gbest["J"]), best_case=best_case, markers=markers,
                          parameters=params, sampling=note, wall_s=time.perf_counter() - t0,
                          refined=refined, notes=notes,
                          uncertainty=refine_info.get("uncertainty"),
                          starts=refine_info.get("starts", []),
                          profiles=refine_info.get("profiles", {}))


def _needs_client(cases: list[dict], store) -> bool:
    """False when every case is already in the store (resume without starting a cluster)."""
    if store is None:
        return True
    from .batch import _read_store, case_key

    _, stored = _read_store(Path(store))
    return any(case_key(c) not in stored for c in cases)


def _point_case(raw: dict, keys: Sequence[str], values: Sequence) -> dict:
    c = copy.deepcopy(raw)
    for k, v in zip(keys, values, strict=True):
        set_key(c, k, int(v) if k in _INTEGER_KEYS else float(v))
    return c


def _row(keys: Sequence[str], values: Sequence, r, stage: str) -> dict:
    row = {k: v for k, v in zip(keys, values, strict=True)}
    row.update(stage=stage, status=r.status, error=r.error or "", wall_s=r.wall_s,
               J=r.values.get("J", math.nan), rms=r.values.get("rms", math.nan),
               max=r.values.get("max", math.nan))
    return row


# -- refinement: bounded least squares on the marker residuals ---------------------------

#: |ρ| above which a pair of parameters is reported as not separable by the markers
CORRELATION_WARN = 0.95
#: condition number of the correlation-scaled normal matrix JᵀJ above which the fit is
#: reported ill-conditioned: some combination of the parameters is then determined 100x
#: worse than the best one (for two parameters cond = (1 + |ρ|) / (1 − |ρ|), i.e. |ρ| >
#: 0.9998; with three or more it also catches a collinear group no single pair shows)
CONDITION_WARN = 1e4
#: finite-difference step [grid steps] for rk4 (explicit, fixed step, no iteration): the
#: output is a smooth function of the parameters, the step only has to stay clear of
#: round-off (sea-line row: columns at 0.001, 0.01 and 0.1 steps agree to 3e-4)
FD_STEP_EXPLICIT = 0.01
#: the same for generalized-α (its Newton iterations stop at a tolerance) and rk45 (its
#: accepted steps change with the parameters): the residuals carry integration noise, so
#: the step must stay well above it (seed-003 strip, docs/identify.md: at 0.001–0.01 steps
#: the columns are noise, at 0.1–1 steps they agree to 1–20 %)
FD_STEP_ITERATED = 0.3
#: forward- and central-difference Jacobians at the optimum that differ by more than this
#: (relative, per column) are reported: the residuals are not smooth at the step
JACOBIAN_WARN = 0.1


def _residual_task(case: dict, cost: MarkerCost) -> tuple[str, Any, str | None, float]:
    """One refinement simulation on a worker: (status, residual vector [m] (3K,) or None,
    error, wall [s]). Never raises."""
    import warnings

    from .simulate import simulate

    t0 = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ds = simulate(load_case(case), progress=False)
        r = np.ascontiguousarray(cost.residuals(ds), dtype=float).ravel()
        if not np.all(np.isfinite(r)):
            raise ValueError("non-finite marker residual")
        return "ok", r, None, time.perf_counter() - t0
    except Exception as exc:  # noqa: BLE001 - recorded as a failed point, never dropped
        return "failed", None, f"{type(exc).__name__}: {exc}", time.perf_counter() - t0


class _ResidualRuns:
    """Residual vectors of parameter points, each simulated once as a Dask task (memoised;
    thread-safe, so several least-squares starts can share the workers)."""

    def __init__(self, raw: dict, keys: list[str], cost: MarkerCost, client) -> None:
        import threading

        self.raw, self.keys, self.client = raw, keys, client
        self.cost = client.scatter(cost, broadcast=True, hash=False)
        self.futures: dict[tuple, Any] = {}
        self.done: dict[tuple, np.ndarray | None] = {}
        self.rows: list[dict] = []
        self.lock = threading.Lock()

    def run(self, points: Sequence[Sequence], stage: str) -> list[np.ndarray | None]:
        """Residuals [m] (3K,) of ``points`` (values in ``keys`` order; None: failed)."""
        pts = [tuple(pt) for pt in points]
        with self.lock:
            for pt in pts:
                if pt not in self.futures and pt not in self.done:
                    self.futures[pt] = self.client.submit(
                        _residual_task, _point_case(self.raw, self.keys, pt), self.cost,
                        pure=False, retries=0)
            futs = [self.futures.get(pt) for pt in pts]
        out = []
        for pt, fut in zip(pts, futs, strict=True):
            if fut is None:  # finished before this call
                out.append(self.done[pt])
                continue
            try:
                status, r, error, wall = fut.result()
            except Exception as exc:  # noqa: BLE001 - the task itself died
                status, r, error, wall = "failed", None, f"{type(exc).__name__}: {exc}", math.nan
            with self.lock:
                if pt not in self.done:
                    self.done[pt] = r
                    row = {k: v for k, v in zip(self.keys, pt, strict=True)}
                    d2 = np.sum(r.reshape(-1, 3) ** 2, axis=1) if r is not None else None
                    J = float(np.sum(d2)) if d2 is not None else math.nan  # seed 003 eq. 25
                    row.update(stage=stage, status=status, error=error or "", wall_s=wall,
                               J=J, rms=math.sqrt(J / d2.size) if d2 is not None else math.nan,
                               max=float(np.sqrt(d2.max())) if d2 is not None else math.nan)
                    self.rows.append(row)
                    self.futures.pop(pt, None)  # the worker may drop the result now
            out.append(self.done[pt])
        return out


@dataclass
class Uncertainty:
    """Linearised uncertainty of the refined continuous parameters at the optimum.

    Covariance = s² (JᵀJ)⁻¹ with J the residual Jacobian [m per unit] (central differences)
    and s² = RSS / (m − p) [m²] the residual variance over the m marker coordinates that
    carry a measurement (m − p degrees of freedom); 95 % intervals from Student's t with
    m − p degrees of freedom; correlation = covariance scaled by the standard errors.
    """

    keys: list[str]
    estimate: np.ndarray
    std_error: np.ndarray
    ci95_low: np.ndarray
    ci95_high: np.ndarray
    covariance: np.ndarray
    correlation: np.ndarray
    s2: float
    dof: int
    condition: float
    fd_step: float
    at_bound: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: largest relative difference of a forward- and a central-difference Jacobian column
    jacobian_mismatch: float = math.nan

    def table(self):
        """One row per parameter: estimate, std_error, ci95_low, ci95_high and the
        correlation with every parameter (columns ``rho[KEY]``); a pandas DataFrame."""
        import pandas as pd

        rows = []
        for i, k in enumerate(self.keys):
            row = {"parameter": k, "estimate": self.estimate[i],
                   "std_error": self.std_error[i], "ci95_low": self.ci95_low[i],
                   "ci95_high": self.ci95_high[i]}
            row.update({f"rho[{q}]": self.correlation[i, j] for j, q in enumerate(self.keys)})
            rows.append(row)
        return pd.DataFrame(rows)

    def summary(self) -> str:
        """The estimates, standard errors, 95 % intervals and correlations as text."""
        w = max(len(k) for k in self.keys)
        lines = [f"{'parameter':<{w}}  {'estimate':>12}  {'std error':>10}  95 % interval "
                 f"(Student t, {self.dof} dof; s = {math.sqrt(self.s2) * 1e3:.3g} mm)"]
        for i, k in enumerate(self.keys):
            lines.append(f"{k:<{w}}  {self.estimate[i]:>12.6g}  {self.std_error[i]:>10.3g}  "
                         f"[{self.ci95_low[i]:.6g}, {self.ci95_high[i]:.6g}]")
        if len(self.keys) > 1:
            lines.append("correlation:")
            for i, k in enumerate(self.keys):
                lines.append(f"  {k:<{w}}  " + "  ".join(f"{self.correlation[i, j]:+.3f}"
                                                       for j in range(len(self.keys))))
        lines += [f"WARNING: {m}" for m in self.warnings]
        return "\n".join(lines)


#: a parameter whose whole grid step moves the markers by less than this rms [m] is not
#: identifiable (what is left is round-off)
_DEAD_SHIFT = 1e-9


def _uncertainty(keys: list[str], x: np.ndarray, r: np.ndarray, jac: np.ndarray, h: float,
                 at_bound: list[str], steps: np.ndarray | None = None) -> Uncertainty:
    """Covariance, 95 % intervals and correlations from the residual ``r`` [m] (m,) and its
    Jacobian ``jac`` [m per unit] (m, p) at the optimum ``x`` (see :class:`Uncertainty`);
    ``steps``: the grid steps (a parameter that moves the markers by < 1 nm rms over one
    grid step is reported not identifiable)."""
    from scipy import stats

    # coordinates measured by no marker: zero residual and no sensitivity (y of a planar
    # x-z case); they are not observations and do not count towards m
    used = (r != 0.0) | np.any(jac != 0.0, axis=1)
    r, jac = r[used], jac[used]
    m, p = jac.shape
    dof = m - p
    s2 = float(r @ r) / dof if dof > 0 else math.nan
    d = np.sqrt(np.sum(jac * jac, axis=0))
    warn: list[str] = []
    steps = np.ones(p) if steps is None else np.asarray(steps, float)
    live = d * steps / math.sqrt(max(m, 1)) > _DEAD_SHIFT
    if not live.all():
        dead = [k for k, ok in zip(keys, live, strict=True) if not ok]
        warn.append(f"the markers do not depend on {', '.join(dead)} at the optimum: "
                    "not identifiable, no interval")
    # the identifiable parameters alone (a dead column would make JᵀJ singular)
    jl = jac[:, live] / d[live]
    A = jl.T @ jl  # correlation-scaled normal matrix
    cond = float(np.linalg.cond(A)) if A.size else math.inf
    cov = np.full((p, p), math.nan)
    if A.size and cond < 1e14:
        idx = np.flatnonzero(live)
        cov[np.ix_(idx, idx)] = s2 * np.linalg.inv(A) / np.outer(d[live], d[live])
    elif A.size:
        warn.append(f"JᵀJ is singular (condition number {cond:.2g}): no intervals")
    se = np.sqrt(np.diag(cov))
    with np.errstate(invalid="ignore", divide="ignore"):
        rho = cov / np.outer(se, se)
    tq = float(stats.t.ppf(0.975, dof)) if dof > 0 else math.nan
    for i in range(p):
        for j in range(i + 1, p):
            if abs(rho[i, j]) > CORRELATION_WARN:
                warn.append(f"{keys[i]} and {keys[j]} are correlated (ρ = {rho[i, j]:+.3f}, "
                            f"|ρ| > {CORRELATION_WARN}): the markers barely separate them; "
                            "their intervals are wide along the direction they trade off")
    if CONDITION_WARN < cond < 1e14:
        warn.append(f"JᵀJ is ill-conditioned (condition number {cond:.2g} of the "
                    f"correlation-scaled matrix > {CONDITION_WARN:.0e}): a combination of "
                    f"{', '.join(keys)} is barely determined by the markers")
    if at_bound:
        warn.append(f"{', '.join(at_bound)} at the bound of the searched range: the "
                    "minimum may lie outside it, and the interval assumes an interior "
                    "minimum; widen the range")
    return Uncertainty(list(keys), x, se, x - tq * se, x + tq * se, cov, rho, s2, dof, cond,
                       h, list(at_bound), warn)


def _fd_step(raw: dict) -> float:
    """The finite-difference step [grid steps] for this case's integration method."""
    return FD_STEP_EXPLICIT if load_case(raw).method == "rk4" else FD_STEP_ITERATED


def _refine(raw: dict, params: list[Parameter], cont: list[Parameter], starts: list[dict],
            cost: MarkerCost, client, max_evals: int, fd_step: float | None,
            profile_points: int) -> tuple[list[dict], dict | None, dict]:
    """Bounded least squares (scipy ``least_squares``, trust-region reflective) on the
    marker residual vector over the continuous parameters, from each of ``starts`` (the
    best grid points; integer parameters fixed at each start's value), then the
    uncertainty at the best solution and the cost profiles.

    Returns (table rows, best point or None, info: ``starts`` (one dict per start),
    ``uncertainty``, ``profiles``, ``fd_step``, ``notes``).
    """
    from concurrent.futures import ThreadPoolExecutor

    from scipy.optimize import least_squares

    keys = [p.key for p in params]
    free = [p for p in cont if p.bounds[0] < p.bounds[1]]
    info: dict[str, Any] = {"starts": [], "uncertainty": None, "profiles": {}, "notes": []}
    fixed = [p.key for p in cont if p not in free]
    if fixed:
        info["notes"].append(f"refine: {', '.join(fixed)} has a single grid value; kept")
    if not free:
        return [], None, info
    h = _fd_step(raw) if fd_step is None else float(fd_step)
    info["fd_step"] = h
    steps = np.array([p.step for p in free])
    lo = np.array([p.bounds[0] for p in free])
    hi = np.array([p.bounds[1] for p in free])
    n = len(free)
    runs = _ResidualRuns(raw, keys, cost, client)

    def point(start: dict, x: np.ndarray) -> list:
        vals = dict(start)
        for p, xv in zip(free, np.clip(x, lo, hi), strict=True):
            vals[p.key] = float(xv)
        return [vals[k] for k in keys]

    def probes(u: np.ndarray) -> list[np.ndarray]:
        # forward differences, backward where the forward point leaves the range
        out = []
        for i in range(n):
            v = u.copy()
            v[i] += h if (u[i] + h) * steps[i] <= hi[i] else -h
            out.append(v)
        return out

    def solve(start: dict) -> dict:
        u0 = np.array([float(start[p.key]) for p in free]) / steps
        r0 = runs.run([point(start, u0 * steps)], "refine")[0]
        if r0 is None:
            return {"start": start, "ok": False, "message": "the start point failed"}
        # a failed simulation inside the range: a residual 10x the start's, so the
        # trust region shrinks away from it
        penalty = np.full(r0.size, 10.0 * math.sqrt(float(r0 @ r0) / r0.size) + 1e-6)

        def fun(u: np.ndarray) -> np.ndarray:
            # the Jacobian's probes go with the point, as one batch (they are needed
            # whenever the step is accepted)
            pts = [point(start, u * steps)] + [point(start, v * steps) for v in probes(u)]
            r = runs.run(pts, "refine")[0]
            return penalty if r is None else r

        def jac(u: np.ndarray, *_: Any) -> np.ndarray:
            f = fun(u)  # already simulated: memoised
            J = np.zeros((f.size, n))
            for i, v in enumerate(probes(u)):
                r = runs.run([point(start, v * steps)], "refine")[0]
                if r is not None:
                    J[:, i] = (r - f) / (v[i] - u[i])
            return J

        res = least_squares(fun, u0, jac=jac, bounds=(lo / steps, hi / steps), method="trf",
                            x_scale=1.0, xtol=1e-6, ftol=1e-10, gtol=1e-10,
                            max_nfev=max(3, max_evals // (n + 1)))
        x = np.clip(res.x * steps, lo, hi)
        r = runs.run([point(start, x)], "refine")[0]
        J = float(r @ r) if r is not None else math.inf
        return {"start": start, "ok": r is not None, "x": x, "J": J, "nfev": int(res.nfev),
                "message": res.message, "status": int(res.status), "u": res.x,
                "forward": [(v, point(start, v * steps)) for v in probes(res.x)]}

    with ThreadPoolExecutor(max_workers=len(starts)) as pool:
        solved = list(pool.map(solve, starts))
    info["starts"] = solved
    good = [s for s in solved if s["ok"]]
    if not good:
        return runs.rows, None, info
    win = min(good, key=lambda s: s["J"])
    best = dict(zip(keys, point(win["start"], win["x"]), strict=True))
    info["best_J"] = win["J"]
    x = win["x"]
    # the uncertainty: central differences at the solution ((f(x+h) - f(x-h)) / 2h; at a
    # bound the one-sided second-order formula (-3 f0 + 4 f1 - f2) / 2h into the range)
    hx = h * steps
    pts, plan = [], []
    for i in range(n):
        e = np.zeros(n)
        e[i] = hx[i]
        if x[i] - hx[i] >= lo[i] and x[i] + hx[i] <= hi[i]:
            plan.append(("c", len(pts)))
            pts += [x + e, x - e]
        else:
            sgn = 1.0 if x[i] + 2 * hx[i] <= hi[i] else -1.0
            plan.append((sgn, len(pts)))
            pts += [x + sgn * e, x + 2 * sgn * e]
    rs = runs.run([point(win["start"], x)] + [point(win["start"], q) for q in pts], "jacobian")
    r0 = rs[0]
    if r0 is not None and all(r is not None for r in rs[1:]):
        rs = rs[1:]
        jm = np.zeros((r0.size, n))
        for i, (kind, j) in enumerate(plan):
            if kind == "c":
                jm[:, i] = (rs[j] - rs[j + 1]) / (2 * hx[i])
            else:
                jm[:, i] = kind * (-3 * r0 + 4 * rs[j] - rs[j + 1]) / (2 * hx[i])
        tol = 1e-3 * steps
        at_bound = [p.key for p, xi, a, b, t in zip(free, x, lo, hi, tol, strict=True)
                    if xi - a < t or b - xi < t]
        unc = _uncertainty([p.key for p in free], x, r0, jm, h, at_bound, steps)
        # the forward differences of the last least-squares step (already simulated)
        # against the central ones: do the residuals vary smoothly at the step?
        fwd = runs.run([pt for _, pt in win["forward"]], "refine")
        mismatch = []
        for i, ((v, _), rf) in enumerate(zip(win["forward"], fwd, strict=True)):
            norm = np.linalg.norm(jm[:, i])
            if rf is not None and norm * steps[i] / math.sqrt(r0.size) > _DEAD_SHIFT:
                jf = (rf - r0) / ((v[i] - win["u"][i]) * steps[i])
                mismatch.append(float(np.linalg.norm(jf - jm[:, i]) / norm))
        unc.jacobian_mismatch = max(mismatch) if mismatch else math.nan
        if unc.jacobian_mismatch > JACOBIAN_WARN:
            unc.warnings.append(
                f"forward and central differences of the residuals differ by "
                f"{unc.jacobian_mismatch:.0%} at a step of {h:g} grid steps: the simulation "
                "is not smooth at that scale (integration noise or strong nonlinearity); "
                "the intervals are approximate")
        info["uncertainty"] = unc
        if profile_points > 1:
            info["profiles"] = _profiles(runs, win["start"], free, point, unc, lo, hi,
                                         profile_points)
    else:
        info["notes"].append("refine: a simulation of the Jacobian failed; no uncertainty")
    return runs.rows, best, info


def _profiles(runs: _ResidualRuns, start: dict, free: list[Parameter], point, unc: Uncertainty,
              lo: np.ndarray, hi: np.ndarray, k: int) -> dict[str, dict[str, np.ndarray]]:
    """The cost along each parameter over ±2 interval half-widths around the optimum
    (``k`` points, inside the range): the **slice** (the others at the optimum) and the
    **profile** (the others on their conditional optimum of the linearised model,
    x_o = x̂_o + Σ_oi / Σ_ii (x_i − x̂_i)); one batch of simulations."""
    x = unc.estimate
    plan = []
    for i, p in enumerate(free):
        half = (unc.ci95_high[i] - unc.ci95_low[i]) / 2
        if not np.isfinite(half) or half <= 0:
            continue
        vals = np.clip(x[i] + np.linspace(-2.0, 2.0, k) * half, lo[i], hi[i])
        for kind in ("slice", "profile"):
            for v in vals:
                q = x.copy()
                q[i] = v
                if kind == "profile":
                    q = x + unc.covariance[:, i] / unc.covariance[i, i] * (v - x[i])
                    q[i] = v
                plan.append((p.key, kind, v, np.clip(q, lo, hi)))
    rs = runs.run([point(start, q) for *_, q in plan], "profile")
    out: dict[str, dict[str, Any]] = {}
    for (key, kind, v, _), r in zip(plan, rs, strict=True):
        d = out.setdefault(key, {"value": [], "slice": [], "profile": []})
        if kind == "slice":
            d["value"].append(v)
        d[kind].append(float(r @ r) if r is not None else math.nan)
    return {k: {c: np.asarray(v) for c, v in d.items()} for k, d in out.items()}


# -- figures --------------------------------------------------------------------------------


def landscape_figure(result: IdentifyResult, path: str | Path) -> Path:
    """Cost landscape (cf. seed 003 Fig 6): for each parameter, the smallest J over the
    other parameters at each of its grid values; with two or more continuous parameters,
    also J over the first two at the best values of the others."""
    import matplotlib.figure

    tab = result.table[(result.table["stage"] == "grid") & (result.table["status"] == "ok")]
    params = result.parameters
    cont = [p for p in params if not p.integer]
    heat = len(cont) >= 2
    logscale = bool((tab["J"] > 0).all())  # J = 0 (noise-free, exact model): linear axes
    ncol = len(params) + (1 if heat else 0)
    fig = matplotlib.figure.Figure(figsize=(3.6 * ncol, 3.4))
    for i, p in enumerate(params):
        ax = fig.add_subplot(1, ncol, i + 1)
        prof = tab.groupby(p.key)["J"].min()
        ax.plot(prof.index.values, prof.values, "o-", ms=3)
        if logscale:
            ax.set_yscale("log")
        ax.axvline(result.best[p.key], color="C3", lw=0.8, ls="--")
        ax.set_xlabel(p.key)
        ax.set_ylabel("min J over the others [m²]" if i == 0 else "")
        ax.grid(alpha=0.3, which="both")
        ax.set_title(f"best {result.best[p.key]:.4g}", fontsize=8)
    if heat:
        a, b = cont[0], cont[1]
        sub = tab
        for p in params:
            if p.key not in (a.key, b.key):
                sub = sub[np.isclose(sub[p.key].astype(float), float(result.grid_best[p.key]))]
        piv = sub.pivot_table(index=b.key, columns=a.key, values="J", aggfunc="min")
        ax = fig.add_subplot(1, ncol, ncol)
        if piv.size:
            X, Y = np.meshgrid(piv.columns.values.astype(float), piv.index.values.astype(float))
            z = np.log10(piv.values) if logscale else piv.values
            m = ax.pcolormesh(X, Y, z, shading="nearest", cmap="viridis")
            fig.colorbar(m, ax=ax, label="log10 J [m²]" if logscale else "J [m²]")
        ax.plot([result.best[a.key]], [result.best[b.key]], "r+", ms=10)
        ax.set_xlabel(a.key)
        ax.set_ylabel(b.key)
        ax.set_title("J at the best " + ", ".join(p.key for p in params
                                                  if p.key not in (a.key, b.key)), fontsize=8)
    fig.suptitle(f"evaluation function (seed 003 eq. 25) over {len(tab)} grid points",
                 fontsize=9)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=130)
    return path


def profile_figure(result: IdentifyResult, path: str | Path) -> Path:
    """The cost along each refined parameter around the optimum: the slice (the others at
    the optimum), the profile (the others on their linearised conditional optimum) and the
    profile the linearisation predicts, J* + s² (x − x̂)² / σ²; the dotted line
    J* + t² s² meets that prediction at the ends of the 95 % interval (shaded)."""
    import matplotlib.figure
    import matplotlib.ticker

    u = result.uncertainty
    keys = [k for k in (u.keys if u is not None else []) if k in result.profiles]
    fig = matplotlib.figure.Figure(figsize=(3.8 * max(1, len(keys)), 3.4))
    for n, key in enumerate(keys):
        i = u.keys.index(key)
        d = result.profiles[key]
        x, x0, se = d["value"], u.estimate[i], u.std_error[i]
        tq = (u.ci95_high[i] - x0) / se
        J0 = result.best_J
        ax = fig.add_subplot(1, max(1, len(keys)), n + 1)
        ax.axvspan(u.ci95_low[i], u.ci95_high[i], color="C2", alpha=0.15, label="95 % interval")
        fine = np.linspace(x.min(), x.max(), 101)
        ax.plot(fine, J0 + u.s2 * ((fine - x0) / se) ** 2, "--", color="0.4", lw=1,
                label="linearised profile")
        ax.plot(x, d["slice"], "o-", ms=3, color="C0", label="slice (others fixed)")
        ax.plot(x, d["profile"], "s-", ms=3, color="C3", label="profile (others follow)")
        ax.axhline(J0 + tq * tq * u.s2, color="k", lw=0.8, ls=":")
        ax.axvline(x0, color="k", lw=0.8)
        ax.set_xlabel(key)
        ax.set_ylabel("J [m²]" if n == 0 else "")
        ax.set_title(f"{x0:.5g} ± {tq * se:.2g} (95 %)", fontsize=8)
        ax.grid(alpha=0.3)
        ax.ticklabel_format(axis="y", style="sci", scilimits=(-3, 3))
        ax.ticklabel_format(axis="x", useOffset=False)
        ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(4))
        if n == 0:
            ax.legend(fontsize=6)
    rho = ""
    if u is not None and len(u.keys) == 2:
        rho = f"; ρ = {u.correlation[0, 1]:+.3f}"
    fig.suptitle("evaluation function (seed 003 eq. 25) around the refined optimum" + rho,
                 fontsize=9)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=130)
    return path


def snapshots_figure(result: IdentifyResult, path: str | Path, frames: int = 10) -> Path:
    """Measured markers against the simulated tether of the best parameters (cf. seed 003
    Fig 7) at up to ``frames`` instants; the best case is simulated once here."""
    import matplotlib.figure

    from .simulate import simulate

    ds = simulate(result.best_case, progress=False)
    m = result.markers
    times = m.times
    picks = times[np.unique(np.linspace(0, times.size - 1, min(frames, times.size))
                            .round().astype(int))]
    pos = ds.position.values
    # the plane of the motion: x-z unless the markers move in y
    spread = np.ptp(m.xyz, axis=0)
    h, v = (0, 2) if spread[1] <= 0.1 * max(spread[0], spread[2]) else (0, 1)
    ncol = min(5, picks.size)
    nrow = int(math.ceil(picks.size / ncol))
    fig = matplotlib.figure.Figure(figsize=(2.4 * ncol, 2.4 * nrow + 0.4))
    lim_h = (min(m.xyz[:, h].min(), pos[..., h].min()), max(m.xyz[:, h].max(), pos[..., h].max()))
    lim_v = (min(m.xyz[:, v].min(), pos[..., v].min()), max(m.xyz[:, v].max(), pos[..., v].max()))
    pad = 0.05 * max(lim_h[1] - lim_h[0], lim_v[1] - lim_v[0], 1e-9)
    for k, t in enumerate(picks):
        ax = fig.add_subplot(nrow, ncol, k + 1)
        sel = np.abs(m.time - t) <= _TIME_TOL
        s_fine = np.linspace(0.0, float(ds.arc_length.values[-1]), 200)
        line = tether_points(ds, np.full(s_fine.size, t), s_fine)
        ax.plot(line[:, h], line[:, v], "-", color="C0", lw=1.2, label="simulated")
        ax.plot(m.xyz[sel, h], m.xyz[sel, v], "o", mfc="none", color="C3", ms=4,
                label="measured")
        ax.set_xlim(lim_h[0] - pad, lim_h[1] + pad)
        ax.set_ylim(lim_v[0] - pad, lim_v[1] + pad)
        ax.set_aspect("equal")
        ax.tick_params(labelsize=6)
        ax.set_title(f"t = {t:.2f} s", fontsize=8)
        if k == 0:
            ax.legend(fontsize=6)
    best = ", ".join(f"{k} = {val:.4g}" for k, val in result.best.items())
    fig.suptitle(f"measured markers vs simulation at the identified parameters ({best}; "
                 f"rms {math.sqrt(result.best_J / len(m)) * 1e3:.2f} mm)", fontsize=9)
    fig.tight_layout()
    path = Path(path)
    fig.savefig(path, dpi=130)
    return path
