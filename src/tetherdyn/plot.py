"""Plots and animations of tetherdyn simulation results.

Both public functions take the ``xarray.Dataset`` produced by a simulation (see the results
contract: ``position(time, node, axis)``, ``start_force(time, axis)``, ``tension(time,
element)``, ...) and draw with matplotlib's non-interactive Agg machinery only: figures are
built with :class:`matplotlib.figure.Figure` directly, so no GUI backend or ``pyplot`` state
is touched and nothing is ever shown on screen.

Conventions: ``z`` is up, node 0 is the start end (the "start holder"), and variable-length
runs carry an ``active(time, node)`` mask with NaN padding for inactive nodes; inactive or
non-finite points are simply left out of every plot.

The sea: when the case (``attrs['case']``) has a ``water_level``, the calm surface is drawn,
and with ``surface_elevation(time, node)`` in the results the instantaneous surface at the
nodes' horizontal positions too; a ``seabed`` (flat, sloped or a bathymetry grid) is drawn as
its section under the line's horizontal span, in the profile plot and in the animation.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import xarray as xr
from matplotlib import animation
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Colormap, ListedColormap, Normalize
from matplotlib.figure import Figure

__all__ = ["animate_results", "choose_plane", "plot_results", "snapshot_indices"]

Plane = Literal["xz", "yz", "principal"]

_AXES = ("x", "y", "z")
#: If the principal horizontal direction of motion lies further than this from both the x
#: and the y axis, the profile is drawn in the vertical plane through that direction.
_PRINCIPAL_ANGLE_DEG = 20.0
_SAVE_DPI = 150


# --------------------------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------------------------
def _units(ds: xr.Dataset, name: str, default: str) -> str:
    if name in ds.variables:
        return str(ds[name].attrs.get("units", default))
    return default


def _case_name(ds: xr.Dataset) -> str | None:
    """The ``name:`` entry of the YAML text in ``attrs['case']``, if any."""
    text = ds.attrs.get("case")
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        import yaml
    except ImportError:  # no PyYAML: fall back to the regex below
        yaml = None
    if yaml is not None:
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError:
            data = None
        if isinstance(data, dict) and data.get("name") not in (None, ""):
            return str(data["name"])
    match = re.search(r"^\s*name\s*:\s*(.+?)\s*$", text, flags=re.MULTILINE)
    if match:
        return match.group(1).strip().strip("'\"") or None
    return None


def _title(ds: xr.Dataset) -> str:
    parts: list[str] = []
    name = _case_name(ds)
    if name:
        parts.append(name)
    details: list[str] = []
    if ds.attrs.get("model") not in (None, ""):
        details.append(f"{ds.attrs['model']} model")
    elements = ds.attrs.get("elements", ds.sizes.get("element"))
    if elements not in (None, ""):
        details.append(f"{elements} elements")
    if details:
        parts.append(", ".join(details))
    return " \N{EM DASH} ".join(parts) if parts else "tetherdyn results"


def snapshot_indices(n_times: int, n_snapshots: int) -> np.ndarray:
    """Indices of ``n_snapshots`` evenly spaced times out of ``n_times`` (first and last
    included, duplicates removed)."""
    if n_times <= 0:
        return np.zeros(0, dtype=int)
    n = max(1, min(int(n_snapshots), n_times))
    if n == 1:
        return np.array([n_times - 1])
    return np.unique(np.rint(np.linspace(0, n_times - 1, n)).astype(int))


def _positions(ds: xr.Dataset) -> np.ndarray:
    """Positions as a float array (time, node, 3) with inactive nodes set to NaN."""
    pos = ds["position"].transpose("time", "node", "axis")
    if "axis" in pos.coords:
        pos = pos.sel(axis=list(_AXES))
    p = np.array(pos.values, dtype=float)
    if "active" in ds.variables:
        active = ds["active"]
        if set(active.dims) == {"time", "node"}:
            mask = np.asarray(active.transpose("time", "node").values, dtype=bool)
            p[~mask] = np.nan
    return p


def _principal_direction(p: np.ndarray) -> np.ndarray | None:
    """Unit horizontal (x, y) direction of largest spread of all points, or None."""
    xy = p[..., :2].reshape(-1, 2)
    xy = xy[np.all(np.isfinite(xy), axis=1)]
    if len(xy) < 2:
        return None
    xy = xy - xy.mean(axis=0)
    cov = xy.T @ xy / len(xy)
    if not np.all(np.isfinite(cov)) or np.trace(cov) <= 0.0:
        return None
    w, v = np.linalg.eigh(cov)
    u = v[:, int(np.argmax(w))]
    if u[int(np.argmax(np.abs(u)))] < 0:
        u = -u
    return u


def _choose(p: np.ndarray) -> Plane:
    u = _principal_direction(p)
    if u is None:
        return "xz"
    angle_x = math.degrees(math.acos(min(1.0, abs(float(u[0])))))
    angle_y = math.degrees(math.acos(min(1.0, abs(float(u[1])))))
    if min(angle_x, angle_y) > _PRINCIPAL_ANGLE_DEG:
        return "principal"
    return "xz" if angle_x <= angle_y else "yz"


def choose_plane(ds: xr.Dataset) -> Plane:
    """The vertical plane that shows the tether and its motion best.

    The horizontal (x, y) scatter of all node positions over all times is reduced to its
    principal direction; ``"xz"`` or ``"yz"`` is returned when that direction is within
    20 degrees of the x or y axis, otherwise ``"principal"`` (the vertical plane through
    that direction).
    """
    return _choose(_positions(ds))


@dataclass
class _Projection:
    h: np.ndarray  # (time, node) horizontal coordinate in the plot plane
    z: np.ndarray  # (time, node) vertical coordinate
    plane: Plane
    xlabel: str
    ylabel: str


def _project(ds: xr.Dataset, plane: str | None) -> _Projection:
    p = _positions(ds)
    unit = _units(ds, "position", "m")
    if plane is None:
        chosen: Plane = _choose(p)
    elif plane in ("xz", "yz", "principal"):
        chosen = plane  # type: ignore[assignment]
    else:
        raise ValueError(f"plane must be None, 'xz', 'yz' or 'principal', not {plane!r}")
    if chosen == "principal":
        u = _principal_direction(p)
        if u is None:
            chosen, u = "xz", None
    if chosen == "xz":
        h, hlabel = p[..., 0], f"x [{unit}]"
    elif chosen == "yz":
        h, hlabel = p[..., 1], f"y [{unit}]"
    else:
        assert u is not None
        h = p[..., 0] * u[0] + p[..., 1] * u[1]
        hlabel = f"horizontal along ({u[0]:.2f}, {u[1]:.2f}) [{unit}]"
    return _Projection(h=h, z=p[..., 2], plane=chosen, xlabel=hlabel, ylabel=f"z [{unit}]")


def _finite(h: np.ndarray, z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ok = np.isfinite(h) & np.isfinite(z)
    return h[ok], z[ok]


def _limits(h: np.ndarray, z: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]]:
    """Axis limits covering all finite points, with a margin and a minimum aspect ratio so
    that equal-aspect plots of nearly straight tethers stay readable."""
    hh, zz = _finite(h, z)
    if hh.size == 0:
        return (-1.0, 1.0), (-1.0, 1.0)
    h0, h1 = float(hh.min()), float(hh.max())
    z0, z1 = float(zz.min()), float(zz.max())
    span = max(h1 - h0, z1 - z0, 1e-9)
    spans = [max(h1 - h0, 0.3 * span), max(z1 - z0, 0.3 * span)]
    out = []
    for (lo, hi), s in zip(((h0, h1), (z0, z1)), spans, strict=True):
        c, half = 0.5 * (lo + hi), 0.5 * s + 0.06 * span
        out.append((c - half, c + half))
    return out[0], out[1]


def _time_cmap() -> Colormap:
    from matplotlib import colormaps

    return ListedColormap(colormaps["Blues"](np.linspace(0.3, 1.0, 256)), name="time_blues")


def _time_format(times: np.ndarray) -> str:
    """A format spec with enough decimals to tell the given times apart."""
    t = np.asarray(times, dtype=float)
    d = np.diff(np.unique(t))
    d = d[d > 0]
    if d.size == 0:
        return ".2f"
    decimals = max(0, min(9, math.ceil(-math.log10(float(d.min())) + 1e-9)))
    return f".{max(decimals, 1)}f"


def _first_finite(h: np.ndarray, z: np.ndarray) -> tuple[float, float] | None:
    ok = np.flatnonzero(np.isfinite(h) & np.isfinite(z))
    if ok.size == 0:
        return None
    return float(h[ok[0]]), float(z[ok[0]])


# --------------------------------------------------------------------------------------------
# the sea: water level, instantaneous surface, seabed section
# --------------------------------------------------------------------------------------------
_WATER = "#9ecae1"
_SAND = "#d9c49a"


@dataclass
class _Sea:
    level: float | None  # calm water level z [m]
    bed_h: np.ndarray | None  # horizontal plot coordinates of the seabed section [m]
    bed_z: np.ndarray | None  # seabed z under them [m]
    eta: np.ndarray | None  # (time, node) surface elevation above the calm level [m]
    wave_h: np.ndarray | None = None  # the section's plot coordinates for the waves [m]
    wave_eta: Callable[[float], np.ndarray] | None = None  # t [s] -> eta along wave_h [m]


def _case_dict(ds: xr.Dataset) -> dict | None:
    text = ds.attrs.get("case")
    if not isinstance(text, str):
        return None
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    return data if isinstance(data, dict) else None


def _section_points(proj: _Projection, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A horizontal line across the view in the plotted vertical plane through the mean
    position: its plot coordinates h [m] (200) and its points (x, y) [m]."""
    xlim, _ = _limits(proj.h, proj.z)
    h = np.linspace(xlim[0], xlim[1], 200)
    xy = p[..., :2].reshape(-1, 2)
    xy = xy[np.all(np.isfinite(xy), axis=1)]
    centre = xy.mean(axis=0) if len(xy) else np.zeros(2)
    if proj.plane == "xz":
        return h, np.column_stack([h, np.full_like(h, centre[1])])
    if proj.plane == "yz":
        return h, np.column_stack([np.full_like(h, centre[0]), h])
    u = _principal_direction(p)
    u = np.array([1.0, 0.0]) if u is None else u
    off = centre - (centre @ u) * u  # the vertical plane's point nearest the origin
    return h, off[None, :] + h[:, None] * u[None, :]


def _rebuilt_case(ds: xr.Dataset, raw: dict, what: str):
    """The results' case, validated again (a sloped or gridded seabed, waves), or None with
    a warning: a plot must not fail on its scenery."""
    try:
        from .case import load_case

        return load_case(raw, base_dir=ds.attrs.get("case_dir") or None)
    except Exception as exc:
        import warnings

        warnings.warn(f"{what} not drawn: {exc}", RuntimeWarning, stacklevel=4)
        return None


def _bed_section(ds: xr.Dataset, raw: dict, h: np.ndarray, pts: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray] | None:
    """The seabed z under the section (plot coordinates h, points pts)."""
    bed = raw["environment"]["seabed"]
    if isinstance(bed, dict) and set(bed) <= {"z", "stiffness", "damping", "friction"} and (
            "z" in bed):
        return h, np.full_like(h, float(bed["z"]))  # flat: no case to rebuild
    case = _rebuilt_case(ds, raw, "seabed")
    if case is None:
        return None
    from .estimates import seabed_heights

    return h, seabed_heights(case, pts)


def _wave_section(ds: xr.Dataset, raw: dict, pts: np.ndarray
                  ) -> Callable[[float], np.ndarray] | None:
    """t [s] -> the wave elevation [m] above the calm level along the section's points,
    from the case's waves through the sea kernel (sea.fluid_at, out[7])."""
    case = _rebuilt_case(ds, raw, "wave surface")
    if case is None:
        return None
    from .sea import FLUID_OUT, fluid_at, sea_arrays

    arrs = sea_arrays(case.environment, np.column_stack([pts, np.zeros(len(pts))]),
                      len(pts))
    level = float(case.environment.water_level)
    args = [arrs[k] for k in ("sea_par", "sea_current", "sea_wind", "sea_waves", "sea_grid")]
    out = np.zeros(FLUID_OUT)

    def eta(t: float) -> np.ndarray:
        res = np.empty(len(pts))
        for j, (x, y) in enumerate(pts):
            fluid_at(*args, float(t), float(x), float(y), level, out)
            res[j] = out[7]
        return res

    return eta


def _sea(ds: xr.Dataset, proj: _Projection) -> _Sea:
    raw = _case_dict(ds)
    env = raw.get("environment") if raw else None
    env = env if isinstance(env, dict) else {}
    level = env.get("water_level")
    level = float(level) if isinstance(level, int | float) else None
    p = _positions(ds)
    h, pts = _section_points(proj, p)
    bed_h = bed_z = None
    if env.get("seabed") is not None:
        section = _bed_section(ds, raw, h, pts)
        if section is not None:
            bed_h, bed_z = section
    eta = None
    if level is not None and "surface_elevation" in ds.variables:
        eta = np.asarray(ds["surface_elevation"].transpose("time", "node").values, dtype=float)
        if not np.any(np.nan_to_num(eta)):  # no waves: the calm level says it all
            eta = None
    wave_eta = None
    if level is not None and env.get("waves") is not None:
        wave_eta = _wave_section(ds, raw, pts)
    return _Sea(level, bed_h, bed_z, eta, h if wave_eta is not None else None, wave_eta)


def _sea_limits(sea: _Sea, proj: _Projection
                ) -> tuple[tuple[float, float], tuple[float, float]]:
    """Axis limits of the motion, widened upwards or downwards to show the surface and the
    seabed when they lie within one span of the line (a deep seabed under a short line
    stays out of view)."""
    xlim, zlim = _limits(proj.h, proj.z)
    _, zz = _finite(proj.h, proj.z)
    if zz.size == 0:
        return xlim, zlim
    z0, z1 = float(zz.min()), float(zz.max())
    span = max(xlim[1] - xlim[0], z1 - z0, 1e-9)
    heights = []
    if sea.level is not None and z0 - span <= sea.level <= z1 + span:
        crest = float(np.nanmax(sea.eta)) if sea.eta is not None and np.isfinite(
            sea.eta).any() else 0.0
        heights += [sea.level, sea.level + max(crest, 0.0)]
    if sea.bed_z is not None and z0 - span <= float(np.min(sea.bed_z)) <= z1 + span:
        heights.append(float(np.min(sea.bed_z)))
    if heights:
        margin = 0.06 * span
        zlim = (min(zlim[0], min(heights) - margin), max(zlim[1], max(heights) + margin))
    return xlim, zlim


def _draw_sea(ax: Axes, sea: _Sea, xlim: tuple[float, float], zlim: tuple[float, float]
              ) -> None:
    """The calm water level and the seabed section (static scenery, behind the line)."""
    if sea.level is not None:
        bottom = zlim[0] - (zlim[1] - zlim[0])
        ax.axhspan(bottom, sea.level, color=_WATER, alpha=0.25, lw=0, zorder=0,
                   gid="sea:water")
        ax.axhline(sea.level, color="C0", lw=1.0, ls="--", zorder=1, gid="sea:level",
                   label="calm water level")
    if sea.bed_h is not None and sea.bed_z is not None:
        floor = min(float(np.min(sea.bed_z)), zlim[0]) - (zlim[1] - zlim[0])
        ax.fill_between(sea.bed_h, sea.bed_z, floor, color=_SAND, lw=0, zorder=1,
                        gid="sea:bed_fill")
        ax.plot(sea.bed_h, sea.bed_z, "-", color="#8c6d31", lw=1.4, zorder=1,
                gid="sea:seabed", label="seabed")
    ax.set_xlim(*xlim)
    ax.set_ylim(*zlim)


def _surface_at(sea: _Sea, proj: _Projection, k: int, t: float
                ) -> tuple[np.ndarray, np.ndarray]:
    """The instantaneous surface at time index k (time t [s]): across the view from the
    case's waves, else level + the results' surface_elevation at the nodes, sorted by h."""
    if sea.level is None:
        return np.zeros(0), np.zeros(0)
    if sea.wave_eta is not None and sea.wave_h is not None:
        return sea.wave_h, sea.level + sea.wave_eta(t)
    if sea.eta is None:
        return np.zeros(0), np.zeros(0)
    h = proj.h[k]
    z = sea.level + sea.eta[k]
    ok = np.isfinite(h) & np.isfinite(z)
    order = np.argsort(h[ok])
    return h[ok][order], z[ok][order]


# --------------------------------------------------------------------------------------------
# panels
# --------------------------------------------------------------------------------------------
def _profile_panel(
    fig: Figure, ax: Axes, ds: xr.Dataset, proj: _Projection, idx: np.ndarray
) -> None:
    times = np.asarray(ds["time"].values, dtype=float)
    t_unit = _units(ds, "time", "s")
    cmap = _time_cmap()
    t0, t1 = float(times[idx[0]]), float(times[idx[-1]])
    norm = Normalize(vmin=t0, vmax=t1 if t1 > t0 else t0 + 1.0)
    fmt = _time_format(times[idx])
    start_label = "start end"
    for k in idx:
        h, z = _finite(proj.h[k], proj.z[k])
        colour = cmap(norm(times[k]))
        (line,) = ax.plot(h, z, "-", color=colour, lw=1.6, label=f"_t = {times[k]:{fmt}}")
        line.set_gid(f"snapshot:{int(k)}")
        start = _first_finite(proj.h[k], proj.z[k])
        if start is not None:
            ax.plot(*start, "s", ms=5, color="k", label=start_label, zorder=3)
            start_label = "_start end"
    ax.set_aspect("equal", adjustable="box")
    sea = _sea(ds, proj)
    xlim, zlim = _sea_limits(sea, proj)
    _draw_sea(ax, sea, xlim, zlim)
    for k in idx if sea.eta is not None or sea.wave_eta is not None else ():
        h, z = _surface_at(sea, proj, int(k), float(times[k]))
        (surf,) = ax.plot(h, z, "-", color=cmap(norm(times[k])), lw=0.8, alpha=0.8,
                          zorder=1)
        surf.set_gid(f"surface:{int(k)}")
    ax.set_xlabel(proj.xlabel)
    ax.set_ylabel(proj.ylabel)
    ax.set_title(
        f"tether profile ({proj.plane} plane)"
        if proj.plane != "principal"
        else "tether profile (plane of motion)",
        fontsize="medium",
    )
    ax.grid(True, lw=0.4, alpha=0.5)
    if start_label.startswith("_") or sea.level is not None or sea.bed_z is not None:
        ax.legend(loc="best", fontsize="small", framealpha=0.8)
    sm = ScalarMappable(norm=norm, cmap=cmap)
    cbar = fig.colorbar(sm, ax=ax, shrink=0.85, pad=0.02)
    cbar.set_label(f"time [{t_unit}]")


def _force_panel(ax: Axes, ds: xr.Dataset) -> None:
    t = np.asarray(ds["time"].values, dtype=float)
    t_unit = _units(ds, "time", "s")
    f_unit = _units(ds, "start_force", "N")
    if "start_force" in ds.variables:
        f = ds["start_force"].transpose("time", "axis")
        if "axis" in f.coords:
            f = f.sel(axis=list(_AXES))
        fv = np.asarray(f.values, dtype=float)
        mag = np.sqrt(np.sum(fv**2, axis=1))
        for j, (name, colour) in enumerate(zip(_AXES, ("C3", "C2", "C0"), strict=True)):
            ax.plot(t, fv[:, j], "--", lw=0.9, color=colour, label=f"$F_{name}$")
        ax.plot(t, mag, "-", lw=1.8, color="k", label=r"$|F|$")
        ax.legend(
            loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
            fontsize="small",
            borderaxespad=0.0,
            frameon=False,
        )
    else:
        ax.text(
            0.5, 0.5, "no start_force in results", ha="center", va="center", transform=ax.transAxes
        )
    ax.axhline(0.0, color="0.6", lw=0.5)
    ax.set_xlabel(f"time [{t_unit}]")
    ax.set_ylabel(f"force on start holder [{f_unit}]")
    ax.set_title("start-end force history", fontsize="medium")
    ax.grid(True, lw=0.4, alpha=0.5)


def _has_tension(ds: xr.Dataset) -> bool:
    return "tension" in ds.variables and bool(np.any(np.isfinite(ds["tension"].values)))


def _has_energy(ds: xr.Dataset) -> bool:
    return any(
        name in ds.variables and bool(np.any(np.isfinite(ds[name].values)))
        for name in ("kinetic_energy", "potential_energy")
    )


def _arc_length_at(ds: xr.Dataset, k: int) -> np.ndarray:
    """Arc length of every node at time index ``k`` (NaN where inactive)."""
    n_node = ds.sizes["node"]
    if "arc_length" in ds.variables:
        s = ds["arc_length"]
        if "time" in s.dims:
            s = s.isel(time=k)
        s = np.array(s.values, dtype=float).reshape(-1)
        if s.size == n_node:
            return s
    # fall back to the length measured along the positions
    p = _positions(ds)[k]
    seg = np.linalg.norm(np.diff(p, axis=0), axis=1)
    out = np.full(n_node, np.nan)
    ok = np.isfinite(p).all(axis=1)
    first = int(np.argmax(ok)) if ok.any() else 0
    out[first] = 0.0
    out[first + 1 :] = out[first] + np.cumsum(seg[first:])
    return out


def _element_arc_length(ds: xr.Dataset, k: int) -> np.ndarray:
    s = _arc_length_at(ds, k)
    n_elem = ds.sizes["element"]
    if n_elem == s.size - 1:
        return 0.5 * (s[:-1] + s[1:])
    if n_elem == s.size:
        return s
    fin = s[np.isfinite(s)]
    if fin.size == 0:
        return np.full(n_elem, np.nan)
    return np.linspace(float(fin.min()), float(fin.max()), n_elem)


def _tension_panel(ax: Axes, ds: xr.Dataset, k: int) -> None:
    t = float(ds["time"].values[k])
    t_unit = _units(ds, "time", "s")
    s_unit = _units(ds, "arc_length", "m")
    tension = ds["tension"].transpose("time", "element")
    values = np.asarray(tension.values, dtype=float)
    s_mid = _element_arc_length(ds, k)
    if "arc_length" in ds.variables and "time" not in ds["arc_length"].dims:
        tmax = np.nanmax(np.where(np.isfinite(values), values, -np.inf), axis=0)
        ok = np.isfinite(tmax) & np.isfinite(s_mid)
        if ok.any() and values.shape[0] > 1:
            ax.plot(s_mid[ok], tmax[ok], ":", color="0.5", lw=1.0, label="max over time")
    ok = np.isfinite(values[k]) & np.isfinite(s_mid)
    ax.plot(
        s_mid[ok],
        values[k][ok],
        ".-",
        color="C0",
        lw=1.4,
        ms=4,
        label=f"t = {t:{_time_format(ds['time'].values)}} {t_unit}",
    )
    ax.set_xlabel(f"arc length from start end [{s_unit}]")
    ax.set_ylabel(f"tension [{_units(ds, 'tension', 'N')}]")
    ax.set_title("tension along the tether", fontsize="medium")
    ax.legend(loc="best", fontsize="small", framealpha=0.8)
    ax.grid(True, lw=0.4, alpha=0.5)


def _energy_panel(ax: Axes, ds: xr.Dataset) -> None:
    t = np.asarray(ds["time"].values, dtype=float)
    total = np.zeros_like(t)
    n = 0
    for name, label, colour in (
        ("kinetic_energy", "kinetic", "C1"),
        ("potential_energy", "potential", "C4"),
    ):
        if name in ds.variables:
            e = np.asarray(ds[name].values, dtype=float)
            ax.plot(t, e, "-", lw=1.0, color=colour, label=label)
            total = total + e
            n += 1
    if n == 2:
        ax.plot(t, total, "-", lw=1.6, color="k", label="total")
    unit = _units(ds, "kinetic_energy", _units(ds, "potential_energy", "J"))
    ax.set_xlabel(f"time [{_units(ds, 'time', 's')}]")
    ax.set_ylabel(f"energy [{unit}]")
    ax.set_title("energy", fontsize="medium")
    ax.legend(loc="best", fontsize="small", framealpha=0.8)
    ax.grid(True, lw=0.4, alpha=0.5)


# --------------------------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------------------------
def plot_results(
    ds: xr.Dataset,
    path: str | Path | None = None,
    n_snapshots: int = 8,
    plane: str | None = None,
) -> Figure:
    """Summary figure of a simulation.

    Left: tether profile at ``n_snapshots`` evenly spaced times in a vertical plane (chosen
    by :func:`choose_plane` unless ``plane`` is ``"xz"``, ``"yz"`` or ``"principal"``),
    equal aspect, lines shaded light to dark with time (colour bar), start end marked.
    Right, top: the force on the start holder (magnitude and components) against time.
    Right, bottom: tension along the tether at the last snapshot, or, if the tension is all
    NaN or missing, the energies against time (omitted when neither is available).

    The figure is saved to ``path`` when given (format from the suffix: .png, .pdf, .svg,
    ...; dpi 150) and returned. No GUI backend is used.

    Axes of the returned figure, in order: profile, force history, [tension or energy],
    colour bar.
    """
    if ds.sizes.get("time", 0) == 0:
        raise ValueError("results contain no time steps")
    proj = _project(ds, plane)
    idx = snapshot_indices(ds.sizes["time"], n_snapshots)

    third = "tension" if _has_tension(ds) else ("energy" if _has_energy(ds) else None)
    fig = Figure(figsize=(12.5, 6.0), layout="constrained")
    FigureCanvasAgg(fig)
    if third is None:
        gs = fig.add_gridspec(1, 2, width_ratios=[1.0, 1.1])
        ax_prof = fig.add_subplot(gs[0, 0])
        ax_force = fig.add_subplot(gs[0, 1])
        ax_third = None
    else:
        gs = fig.add_gridspec(2, 2, width_ratios=[1.0, 1.1], height_ratios=[1.5, 1.0])
        ax_prof = fig.add_subplot(gs[:, 0])
        ax_force = fig.add_subplot(gs[0, 1])
        ax_third = fig.add_subplot(gs[1, 1])

    _force_panel(ax_force, ds)
    if ax_third is not None:
        if third == "tension":
            _tension_panel(ax_third, ds, int(idx[-1]))
        else:
            _energy_panel(ax_third, ds)
    _profile_panel(fig, ax_prof, ds, proj, idx)

    subtitle = []
    if ds.attrs.get("method") not in (None, ""):
        subtitle.append(f"method {ds.attrs['method']}")
    if ds.attrs.get("dt") not in (None, ""):
        dt = ds.attrs["dt"]
        subtitle.append(
            f"dt = {dt:g} s" if isinstance(dt, (int, float, np.number)) else f"dt = {dt} s"
        )
    title = _title(ds)
    if subtitle:
        title += "\n" + ", ".join(subtitle)
    fig.suptitle(title, fontsize="large")

    if path is not None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=_SAVE_DPI)
    return fig


def animate_results(
    ds: xr.Dataset,
    path: str | Path,
    fps: int = 25,
    max_frames: int = 300,
    plane: str | None = None,
) -> Path:
    """Animation of the tether profile over time, written to ``path``.

    ``.gif`` is written with matplotlib's PillowWriter; ``.mp4`` with FFMpegWriter, which
    needs the ``ffmpeg`` executable (a :class:`RuntimeError` says so if it is missing).
    Frames are evenly subsampled to at most ``max_frames``; the axes limits cover the whole
    motion, the aspect is equal, and each frame is stamped with its time. Returns the path.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".gif", ".mp4"):
        raise ValueError(f"animation path must end in .gif or .mp4, not {path.suffix!r}")
    if fps <= 0 or max_frames <= 0:
        raise ValueError("fps and max_frames must be positive")
    writer: animation.AbstractMovieWriter
    if suffix == ".mp4":
        if not animation.FFMpegWriter.isAvailable():
            raise RuntimeError(
                "writing .mp4 needs the ffmpeg executable, which was not found; install "
                "ffmpeg (e.g. `apt install ffmpeg` or `conda install ffmpeg`) or ask for a "
                ".gif path instead"
            )
        writer = animation.FFMpegWriter(fps=fps)
    else:
        writer = animation.PillowWriter(fps=fps)
    if ds.sizes.get("time", 0) == 0:
        raise ValueError("results contain no time steps")

    proj = _project(ds, plane)
    times = np.asarray(ds["time"].values, dtype=float)
    frames = snapshot_indices(len(times), max_frames)
    fmt = _time_format(times[frames])
    t_unit = _units(ds, "time", "s")
    sea = _sea(ds, proj)
    xlim, zlim = _sea_limits(sea, proj)

    dpi = 100
    aspect = (zlim[1] - zlim[0]) / (xlim[1] - xlim[0])
    width = 6.4
    height = min(max(width * aspect + 0.9, 3.2), 9.0)
    # even pixel sizes keep video encoders happy
    width_px = 2 * round(width * dpi / 2)
    height_px = 2 * round(height * dpi / 2)
    fig = Figure(figsize=(width_px / dpi, height_px / dpi), dpi=dpi, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_aspect("equal", adjustable="box")
    _draw_sea(ax, sea, xlim, zlim)
    ax.set_xlabel(proj.xlabel)
    ax.set_ylabel(proj.ylabel)
    ax.grid(True, lw=0.4, alpha=0.5)
    ax.set_title(_title(ds), fontsize="medium")
    (surface,) = ax.plot([], [], "-", color="C0", lw=1.2, gid="surface")
    (line,) = ax.plot([], [], "-", color="C0", lw=2.0)
    (nodes,) = ax.plot([], [], "o", color="C0", ms=2.5)
    (start,) = ax.plot([], [], "s", color="k", ms=6, label="start end")
    ax.legend(loc="upper right", fontsize="small", framealpha=0.8)
    stamp = ax.text(
        0.02,
        0.97,
        "",
        transform=ax.transAxes,
        ha="left",
        va="top",
        family="monospace",
        bbox={"fc": "white", "ec": "0.7", "alpha": 0.8},
    )
    fig.get_layout_engine().execute(fig)
    fig.set_layout_engine("none")  # freeze the layout so frames do not jitter

    path.parent.mkdir(parents=True, exist_ok=True)
    with writer.saving(fig, str(path), dpi=dpi):
        for k in frames:
            h, z = _finite(proj.h[k], proj.z[k])
            line.set_data(h, z)
            nodes.set_data(h, z)
            s = _first_finite(proj.h[k], proj.z[k])
            start.set_data([s[0]] if s else [], [s[1]] if s else [])
            stamp.set_text(f"t = {times[k]:{fmt}} {t_unit}")
            surface.set_data(*_surface_at(sea, proj, int(k), float(times[k])))
            writer.grab_frame()
    return path
