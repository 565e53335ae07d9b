"""Plots and animations of a system's results (issue 19; docs/systems.md, "Plots").

A system results file (system_run.py; results-format.md, "Systems") holds a group per line
(``lines/<name>``, each laid out as a single-line result), per point (``points/<name>``:
``position``, ``force``) and per body (``bodies/<name>``: ``position``, ``orientation``
quaternion w, x, y, z, ``force``, ``moment``). :func:`plot_system` draws them in the style
of the single-line figure (plot.py): every line's profile snapshots in a vertical plane and
in plan (x–y), points and bodies marked, each line's top tension and the points' and bodies'
line forces against time. :func:`animate_system` animates the same profile.

Everything is drawn with :class:`matplotlib.figure.Figure` on the Agg canvas only (no GUI,
no ``pyplot`` state), as plot.py does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import xarray as xr
from matplotlib import animation
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from .plot import (
    _SAVE_DPI,
    _WATER,
    _limits,
    _principal_direction,
    _time_format,
    snapshot_indices,
)

__all__ = ["SystemView", "animate_system", "is_system_results", "open_system",
           "plot_system"]

#: point markers by type (the single-line figure marks its start end with a black square)
_POINT_MARKERS = {"fixed": "s", "coupled": "D", "free": "o"}
_SAND_LINE = "#8c6d31"


@dataclass
class SystemView:
    """What the figures read of a system results file: its root attributes, ``time`` [s]
    and a dataset per line, point and body (names as in the file)."""

    attrs: dict
    times: np.ndarray
    lines: dict[str, xr.Dataset]
    points: dict[str, xr.Dataset]
    bodies: dict[str, xr.Dataset]


def is_system_results(path: str | Path) -> bool:
    """Whether a netCDF results file is a system's (root attribute ``model: system``)."""
    import netCDF4

    with netCDF4.Dataset(path) as nc:
        return getattr(nc, "model", None) == "system" or "lines" in nc.groups


def open_system(source) -> SystemView:
    """A :class:`SystemView` of a system results file (path), an ``xarray.DataTree`` or a
    :class:`~tetherdyn.system_run.SystemResults`, read into memory."""
    if isinstance(source, str | Path):
        with xr.open_datatree(source) as tree:
            tree = tree.load()
    elif hasattr(source, "to_datatree"):
        tree = source.to_datatree()
    else:
        tree = source

    def group(name: str) -> dict[str, xr.Dataset]:
        if name not in tree.children:
            return {}
        return {k: node.to_dataset() for k, node in tree[name].children.items()}

    lines = group("lines")
    if not lines:
        raise ValueError("not a system results file: it has no lines/<name> groups")
    return SystemView(dict(tree.attrs), np.asarray(tree["time"].values, dtype=float), lines,
                      group("points"), group("bodies"))


# --------------------------------------------------------------------------------------------
# geometry
# --------------------------------------------------------------------------------------------
def _xyz(da: xr.DataArray, dims: tuple[str, ...]) -> np.ndarray:
    da = da.transpose(*dims)
    if "axis" in da.coords:
        da = da.sel(axis=["x", "y", "z"])
    return np.array(da.values, dtype=float)


def _line_nodes(ds: xr.Dataset) -> np.ndarray:
    """A line's node positions (time, node, 3) [m], inactive nodes NaN."""
    p = _xyz(ds["position"], ("time", "node", "axis"))
    if "active" in ds.variables:
        p[~np.asarray(ds["active"].transpose("time", "node").values, dtype=bool)] = np.nan
    return p


def _quat_matrix(q: np.ndarray) -> np.ndarray:
    """Rotation matrices (k, 3, 3) body -> world of unit quaternions (k, 4) (w, x, y, z)."""
    q = q / np.linalg.norm(q, axis=1)[:, None]
    w, x, y, z = q.T
    return np.stack([
        np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
        np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
        np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
    ], axis=1)


@dataclass
class _Geometry:
    """Every drawn thing's positions (time, ..., 3) [m] and the chosen vertical plane."""

    lines: dict[str, np.ndarray]  # (time, node, 3)
    points: dict[str, np.ndarray]  # (time, 3)
    bodies: dict[str, np.ndarray]  # (time, 3) reference point
    axes: dict[str, np.ndarray]  # body name -> (time, 3, 3): columns the body axes in world
    u: np.ndarray  # unit horizontal direction of the profile plane (x, y)
    xlabel: str
    plane: str
    scale: float  # a triad's arm [m]


def _geometry(view: SystemView, plane: str | None) -> _Geometry:
    lines = {k: _line_nodes(ds) for k, ds in view.lines.items()}
    points = {k: _xyz(ds["position"], ("time", "axis")) for k, ds in view.points.items()
              if "position" in ds.variables}
    bodies = {k: _xyz(ds["position"], ("time", "axis")) for k, ds in view.bodies.items()}
    axes = {k: _quat_matrix(np.array(ds["orientation"].transpose("time", "component").values,
                                     dtype=float))
            for k, ds in view.bodies.items() if "orientation" in ds.variables}
    every = np.concatenate([p.reshape(-1, 3) for p in (*lines.values(), *points.values(),
                                                       *bodies.values())])
    if plane not in (None, "xz", "yz", "principal"):
        raise ValueError(f"plane must be None, 'xz', 'yz' or 'principal', not {plane!r}")
    u = _principal_direction(every[None]) if plane == "principal" else None
    if plane == "yz":
        u, label, plane = np.array([0.0, 1.0]), "y [m]", "yz"
    elif u is None:  # a system's default view: x–z beside the plan x–y
        u, label, plane = np.array([1.0, 0.0]), "x [m]", "xz"
    else:
        label = f"horizontal along ({u[0]:.2f}, {u[1]:.2f}) [m]"
    fin = every[np.all(np.isfinite(every), axis=1)]
    span = float(np.max(np.ptp(fin, axis=0))) if len(fin) else 1.0
    return _Geometry(lines, points, bodies, axes, u, label, plane, 0.08 * max(span, 1e-9))


def _h(g: _Geometry, p: np.ndarray) -> np.ndarray:
    """Horizontal coordinate [m] in the profile plane of positions (..., 3)."""
    return p[..., 0] * g.u[0] + p[..., 1] * g.u[1]


def _all(g: _Geometry, view: str) -> tuple[np.ndarray, np.ndarray]:
    """Every position's (horizontal, vertical) plot coordinates in a view ("profile" or
    "plan"), for the axis limits."""
    ps = [p.reshape(-1, 3) for p in (*g.lines.values(), *g.points.values(),
                                      *g.bodies.values())]
    for name, R in g.axes.items():  # the triads' tips
        ps.append((g.bodies[name][:, None, :] + g.scale * np.swapaxes(R, 1, 2)).reshape(-1, 3))
    p = np.concatenate(ps)
    return (_h(g, p), p[:, 2]) if view == "profile" else (p[:, 0], p[:, 1])


def _colour(k: int) -> str:
    return f"C{k % 10}"


def _shades(colour: str, n: int) -> np.ndarray:
    """``n`` RGBA shades of a colour, light (early) to full (late): the single-line
    figure's light-to-dark time shading, one hue per line."""
    rgba = np.array(to_rgba(colour))
    mix = np.linspace(0.3, 1.0, n)[:, None] if n > 1 else np.ones((1, 1))
    out = np.empty((n, 4))
    out[:, :3] = 1.0 - mix * (1.0 - rgba[:3])
    out[:, 3] = 1.0
    return out


# --------------------------------------------------------------------------------------------
# the sea: calm level and a flat seabed (the case's environment, root attrs['case'])
# --------------------------------------------------------------------------------------------
def _sea_levels(view: SystemView) -> tuple[float | None, float | None]:
    """(calm water level z, flat seabed z) [m] of the system case, None where absent (a
    sloped or gridded seabed is not drawn here)."""
    import yaml

    try:
        raw = yaml.safe_load(view.attrs.get("case", "") or "")
    except yaml.YAMLError:
        return None, None
    env = raw.get("environment") if isinstance(raw, dict) else None
    if not isinstance(env, dict):
        return None, None
    level = env.get("water_level")
    bed = env.get("seabed")
    bed_z = bed.get("z") if isinstance(bed, dict) and set(bed) <= {
        "z", "stiffness", "damping", "friction"} else None
    return (float(level) if isinstance(level, int | float) else None,
            float(bed_z) if isinstance(bed_z, int | float) else None)


def _draw_sea(ax: Axes, view: SystemView, xlim, zlim) -> tuple[tuple, tuple]:
    """The calm level and a flat seabed behind the lines (within one span of them); the
    widened limits."""
    level, bed = _sea_levels(view)
    span = max(xlim[1] - xlim[0], zlim[1] - zlim[0])
    lo, hi = zlim
    if level is not None and zlim[0] - span <= level <= zlim[1] + span:
        lo, hi = min(lo, level - 0.06 * span), max(hi, level + 0.06 * span)
    if bed is not None and zlim[0] - span <= bed <= zlim[1] + span:
        lo, hi = min(lo, bed - 0.06 * span), max(hi, bed + 0.06 * span)
    if level is not None:
        ax.axhspan(lo - span, level, color=_WATER, alpha=0.25, lw=0, zorder=0, gid="sea:water")
        ax.axhline(level, color="C0", lw=1.0, ls="--", zorder=1, gid="sea:level",
                   label="calm water level")
    if bed is not None:
        ax.axhspan(lo - span, bed, color="#d9c49a", lw=0, zorder=1, gid="sea:bed_fill")
        ax.axhline(bed, color=_SAND_LINE, lw=1.4, zorder=1, gid="sea:seabed", label="seabed")
    ax.set_xlim(*xlim)
    ax.set_ylim(lo, hi)
    return xlim, (lo, hi)


# --------------------------------------------------------------------------------------------
# panels
# --------------------------------------------------------------------------------------------
def _shape_panel(ax: Axes, view: SystemView, g: _Geometry, idx: np.ndarray, which: str
                 ) -> None:
    """Every line's snapshots (one LineCollection per line, gid ``line:<name>``), the
    points' paths and final positions, the bodies' reference points and triads; in the
    profile plane (``which="profile"``) or in plan."""
    def hv(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (_h(g, p), p[..., 2]) if which == "profile" else (p[..., 0], p[..., 1])

    for k, (name, p) in enumerate(g.lines.items()):
        h, v = hv(p[idx])
        segs = []
        for j in range(len(idx)):
            ok = np.isfinite(h[j]) & np.isfinite(v[j])
            segs.append(np.column_stack([h[j][ok], v[j][ok]]))
        coll = LineCollection(segs, colors=_shades(_colour(k), len(idx)), linewidths=1.6,
                              label=f"line {name}", zorder=3)
        coll.set_gid(f"line:{name}")
        ax.add_collection(coll)
    last = int(idx[-1])
    for name, p in g.points.items():
        kind = _point_type(view, name)
        h, v = hv(p)
        if kind == "free":
            ax.plot(h[idx], v[idx], ":", color="0.35", lw=0.9, zorder=4, gid=f"path:{name}")
        ax.plot(h[last], v[last], _POINT_MARKERS.get(kind, "o"), ms=6, mfc="w" if kind ==
                "free" else "k", mec="k", zorder=5, gid=f"point:{name}")
        ax.annotate(name, (h[last], v[last]), textcoords="offset points", xytext=(4, 4),
                    fontsize="x-small", zorder=6)
    for name, p in g.bodies.items():
        h, v = hv(p)
        ax.plot(h[idx], v[idx], ":", color="0.35", lw=0.9, zorder=4)
        ax.plot(h[last], v[last], "*", ms=10, color="k", zorder=6, gid=f"body:{name}")
        ax.annotate(name, (h[last], v[last]), textcoords="offset points", xytext=(5, -10),
                    fontsize="x-small", zorder=6)
        if name in g.axes:
            for a, c in enumerate(("C3", "C2", "C0")):  # body x, y, z axes
                tip = p[last] + g.scale * g.axes[name][last][:, a]
                th, tv = hv(tip)
                ax.plot([h[last], th], [v[last], tv], "-", color=c, lw=1.6, zorder=6,
                        gid=f"triad:{name}:{'xyz'[a]}")
    ah, av = _all(g, which)
    xlim, vlim = _limits(ah, av)
    ax.set_aspect("equal", adjustable="box")
    if which == "profile":
        _draw_sea(ax, view, xlim, vlim)
        ax.set_xlabel(g.xlabel)
        ax.set_ylabel("z [m]")
        ax.set_title(f"profile ({g.plane} plane), " + (
            f"{len(idx)} snapshots light to dark" if len(idx) > 1 else "one time"),
            fontsize="medium")
    else:
        ax.set_xlim(*xlim)
        ax.set_ylim(*vlim)
        ax.set_xlabel("x [m]")
        ax.set_ylabel("y [m]")
        ax.set_title("plan (x–y)", fontsize="medium")
    ax.grid(True, lw=0.4, alpha=0.5)


def _point_type(view: SystemView, name: str) -> str:
    """A point's type from the case text (fixed / free / coupled), "" if unknown."""
    import yaml

    try:
        raw = yaml.safe_load(view.attrs.get("case", "") or "")
        return str(raw["points"][name]["type"])
    except Exception:  # a plot must not fail on a label
        return ""


def _upper_end(ds: xr.Dataset) -> tuple[str, str]:
    """(results variable, point/end name) of a line's upper end at t = 0: its end force
    is the line's top tension (what it pulls on that point, results-format.md)."""
    p = _line_nodes(ds)[0]
    ok = np.flatnonzero(np.isfinite(p[:, 2]))
    top_is_end = p[ok[-1], 2] > p[ok[0], 2]
    name = ds.attrs.get("end_point" if top_is_end else "start_point") or (
        "end" if top_is_end else "start")
    return ("end_force" if top_is_end else "start_force"), str(name)


def _tension_along(ax: Axes, view: SystemView) -> None:
    """One time (a static shape): the tension along each line (element midpoints)."""
    for k, (name, ds) in enumerate(view.lines.items()):
        if "tension" not in ds.variables:
            continue
        s = np.asarray(ds["arc_length"].values, dtype=float).reshape(-1)
        s = 0.5 * (s[:-1] + s[1:]) if s.size == ds.sizes["element"] + 1 else np.arange(
            ds.sizes["element"], dtype=float)
        ax.plot(s, np.asarray(ds["tension"].transpose("time", "element").values[0]), ".-",
                lw=1.4, ms=4, color=_colour(k), label=f"{name}", gid=f"tension:{name}")
    ax.set_xlabel("arc length from the line's start [m]")
    ax.set_ylabel("tension [N]")
    ax.set_title(f"tension along each line (t = {view.times[0]:g} s)", fontsize="medium")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
              borderaxespad=0.0, frameon=False)
    ax.grid(True, lw=0.4, alpha=0.5)


def _tension_panel(ax: Axes, view: SystemView) -> None:
    t = view.times
    if t.size == 1:
        _tension_along(ax, view)
        return
    for k, (name, ds) in enumerate(view.lines.items()):
        var, end = _upper_end(ds)
        if var not in ds.variables:
            continue
        f = _xyz(ds[var], ("time", "axis"))
        ax.plot(t, np.linalg.norm(f, axis=1), "-", lw=1.6, color=_colour(k),
                label=f"{name} (at {end})", gid=f"tension:{name}")
    ax.set_xlabel("time [s]")
    ax.set_ylabel("top tension [N]")
    ax.set_title("each line's top tension (end force at its upper end)", fontsize="medium")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
              borderaxespad=0.0, frameon=False)
    ax.grid(True, lw=0.4, alpha=0.5)


def _force_panel(ax: Axes, view: SystemView) -> None:
    t = view.times
    drawn = 0
    for k, (name, ds) in enumerate(view.points.items()):
        if "force" in ds.variables:
            f = _xyz(ds["force"], ("time", "axis"))
            ax.plot(t, np.linalg.norm(f, axis=1), "o-" if t.size == 1 else "-", lw=1.2,
                    color=f"C{(k + 3) % 10}",
                    label=f"point {name}", gid=f"force:point:{name}")
            drawn += 1
    for k, (name, ds) in enumerate(view.bodies.items()):
        if "force" in ds.variables:
            f = _xyz(ds["force"], ("time", "axis"))
            ax.plot(t, np.linalg.norm(f, axis=1), "*--" if t.size == 1 else "--", lw=1.6,
                    color=f"C{k % 10}",
                    label=f"body {name}", gid=f"force:body:{name}")
            drawn += 1
    ax.set_xlabel("time [s]")
    ax.set_ylabel("|F| [N]")
    ax.set_title("net force of the lines on each point and body", fontsize="medium")
    if drawn:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small",
                  borderaxespad=0.0, frameon=False)
    ax.grid(True, lw=0.4, alpha=0.5)


def _title(view: SystemView) -> str:
    name = view.attrs.get("title")
    parts = [str(name)] if name else []
    nb = len(view.bodies)
    n_b = f", {nb} {'body' if nb == 1 else 'bodies'}" if nb else ""
    parts.append(f"system: {len(view.lines)} lines, {len(view.points)} points{n_b}")
    title = " \N{EM DASH} ".join(parts)
    sub = []
    if view.attrs.get("method"):
        sub.append(f"method {view.attrs['method']}")
    if isinstance(view.attrs.get("dt"), int | float | np.number):
        sub.append(f"dt = {view.attrs['dt']:g} s")
    return title + ("\n" + ", ".join(sub) if sub else "")


# --------------------------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------------------------
def plot_system(source, path: str | Path | None = None, n_snapshots: int = 8,
                plane: str | None = None) -> Figure:
    """Summary figure of a system run (``source``: a results file, a DataTree or
    SystemResults).

    Left: every line's profile at ``n_snapshots`` evenly spaced times (light to dark in the
    line's colour) in the x–z plane (``plane``: ``"yz"``, or ``"principal"`` for the
    vertical plane of largest horizontal spread), above it in plan (x–y); points marked by
    type (fixed ■, coupled ◆, free ○ with its path), bodies by their reference point ★
    and the triad of their axes (x red, y green, z blue) at the last snapshot; the calm
    water level and a flat seabed. Right: each line's top tension (the end force at its
    upper end) and the net force of the lines on each point and body, against time.

    Saved to ``path`` when given (dpi 150) and returned. Axes in order: profile, plan,
    tension, forces.
    """
    view = source if isinstance(source, SystemView) else open_system(source)
    if view.times.size == 0:
        raise ValueError("results contain no time steps")
    g = _geometry(view, plane)
    idx = snapshot_indices(view.times.size, n_snapshots)
    fig = Figure(figsize=(13.0, 8.5), layout="constrained")
    FigureCanvasAgg(fig)
    gs = fig.add_gridspec(2, 2, width_ratios=[1.15, 1.0], height_ratios=[1.3, 1.0])
    ax_prof = fig.add_subplot(gs[0, 0])
    ax_plan = fig.add_subplot(gs[1, 0])
    ax_ten = fig.add_subplot(gs[0, 1])
    ax_force = fig.add_subplot(gs[1, 1])
    _shape_panel(ax_prof, view, g, idx, "profile")
    _shape_panel(ax_plan, view, g, idx, "plan")
    handles, labels = ax_prof.get_legend_handles_labels()  # the lines at full colour
    proxies = [Line2D([], [], color=_colour(k), lw=1.6) for k in range(len(view.lines))]
    sea = [(h, lab) for h, lab in zip(handles, labels, strict=True)
           if not isinstance(h, LineCollection)]
    ax_prof.legend(proxies + [h for h, _ in sea],
                   [f"line {k}" for k in view.lines] + [lab for _, lab in sea],
                   loc="best", fontsize="small", framealpha=0.8)
    _tension_panel(ax_ten, view)
    _force_panel(ax_force, view)
    fmt = _time_format(view.times)
    when = (f"t = {view.times[0]:g} s" if view.times.size == 1 else
            f"t = {view.times[idx[0]]:{fmt}} to {view.times[idx[-1]]:{fmt}} s")
    fig.suptitle(f"{_title(view)} ({when})", fontsize="large")
    if path is not None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=_SAVE_DPI)
    return fig


def animate_system(source, path: str | Path, fps: int = 25, max_frames: int = 300,
                   plane: str | None = None) -> Path:
    """Animation of a system's profile (every line, its nodes, the points, the bodies with
    their triads) over time, written to ``path`` (.gif with Pillow, .mp4 with ffmpeg), as
    :func:`tetherdyn.plot.animate_results` does for one line. Returns the path."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".gif", ".mp4"):
        raise ValueError(f"animation path must end in .gif or .mp4, not {path.suffix!r}")
    if fps <= 0 or max_frames <= 0:
        raise ValueError("fps and max_frames must be positive")
    if suffix == ".mp4":
        if not animation.FFMpegWriter.isAvailable():
            raise RuntimeError("writing .mp4 needs the ffmpeg executable, which was not "
                               "found; install ffmpeg or ask for a .gif path instead")
        writer: animation.AbstractMovieWriter = animation.FFMpegWriter(fps=fps)
    else:
        writer = animation.PillowWriter(fps=fps)
    view = source if isinstance(source, SystemView) else open_system(source)
    if view.times.size == 0:
        raise ValueError("results contain no time steps")
    g = _geometry(view, plane)
    frames = snapshot_indices(view.times.size, max_frames)
    fmt = _time_format(view.times[frames])
    xlim, zlim = _limits(*_all(g, "profile"))

    dpi = 100
    aspect = (zlim[1] - zlim[0]) / (xlim[1] - xlim[0])
    width = 6.4
    height = min(max(width * aspect + 0.9, 3.2), 9.0)
    fig = Figure(figsize=(2 * round(width * dpi / 2) / dpi, 2 * round(height * dpi / 2) / dpi),
                 dpi=dpi, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_aspect("equal", adjustable="box")
    _draw_sea(ax, view, xlim, zlim)
    ax.set_xlabel(g.xlabel)
    ax.set_ylabel("z [m]")
    ax.grid(True, lw=0.4, alpha=0.5)
    ax.set_title(_title(view).split("\n")[0], fontsize="medium")
    lines = {}
    for k, name in enumerate(g.lines):
        (lines[name],) = ax.plot([], [], "o-", color=_colour(k), lw=2.0, ms=2.5,
                                 label=f"line {name}", gid=f"line:{name}")
    marks = {}
    for name in g.points:
        kind = _point_type(view, name)
        (marks[name],) = ax.plot([], [], _POINT_MARKERS.get(kind, "o"), ms=6, mec="k",
                                 mfc="w" if kind == "free" else "k", zorder=5,
                                 gid=f"point:{name}")
    bodies, triads = {}, {}
    for name in g.bodies:
        (bodies[name],) = ax.plot([], [], "*", ms=10, color="k", zorder=6, gid=f"body:{name}")
        if name in g.axes:
            triads[name] = [ax.plot([], [], "-", color=c, lw=1.6, zorder=6)[0]
                            for c in ("C3", "C2", "C0")]
    ax.legend(loc="upper right", fontsize="small", framealpha=0.8)
    stamp = ax.text(0.02, 0.97, "", transform=ax.transAxes, ha="left", va="top",
                    family="monospace", bbox={"fc": "white", "ec": "0.7", "alpha": 0.8})
    fig.get_layout_engine().execute(fig)
    fig.set_layout_engine("none")  # freeze the layout so frames do not jitter

    path.parent.mkdir(parents=True, exist_ok=True)
    with writer.saving(fig, str(path), dpi=dpi):
        for k in frames:
            for name, art in lines.items():
                p = g.lines[name][k]
                ok = np.all(np.isfinite(p), axis=1)
                art.set_data(_h(g, p[ok]), p[ok, 2])
            for name, art in marks.items():
                p = g.points[name][k]
                art.set_data([_h(g, p)], [p[2]])
            for name, art in bodies.items():
                p = g.bodies[name][k]
                art.set_data([_h(g, p)], [p[2]])
                for a, arm in enumerate(triads.get(name, ())):
                    tip = p + g.scale * g.axes[name][k][:, a]
                    arm.set_data([_h(g, p), _h(g, tip)], [p[2], tip[2]])
            stamp.set_text(f"t = {view.times[k]:{fmt}} s")
            writer.grab_frame()
    return path
