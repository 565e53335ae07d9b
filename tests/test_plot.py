"""Tests for tetherdyn.plot on hand-built synthetic result datasets."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest
import xarray as xr
from matplotlib import animation
from matplotlib.figure import Figure
from PIL import Image

from tetherdyn.plot import animate_results, choose_plane, plot_results, snapshot_indices

N_NODE = 11
N_TIME = 41
LENGTH = 10.0
MASS = 5.0  # kg, whole line
G = 9.81

CASE_YAML = """\
name: rigid pendulum swing
tether:
  length: 10.0
  elements: 10
"""


def pendulum_dataset(swing: str = "x", n_time: int = N_TIME) -> xr.Dataset:
    """A rigid straight line hinged at node 0 (the start end) swinging as a pendulum.

    ``swing`` is the horizontal direction of the swing: "x", "y" or "diag" (45 degrees).
    """
    t = np.linspace(0.0, 4.0, n_time)
    s = np.linspace(0.0, LENGTH, N_NODE)
    omega = np.sqrt(1.5 * G / LENGTH)
    theta = 0.6 * np.cos(omega * t)
    dtheta = -0.6 * omega * np.sin(omega * t)
    direction = {"x": (1.0, 0.0), "y": (0.0, 1.0), "diag": (np.sqrt(0.5), np.sqrt(0.5))}[swing]
    horiz = s[None, :] * np.sin(theta)[:, None]
    pos = np.zeros((n_time, N_NODE, 3))
    pos[..., 0] = direction[0] * horiz
    pos[..., 1] = direction[1] * horiz
    pos[..., 2] = -s[None, :] * np.cos(theta)[:, None]
    vel = np.zeros_like(pos)
    vh = s[None, :] * (np.cos(theta) * dtheta)[:, None]
    vel[..., 0] = direction[0] * vh
    vel[..., 1] = direction[1] * vh
    vel[..., 2] = s[None, :] * (np.sin(theta) * dtheta)[:, None]
    s_mid = 0.5 * (s[:-1] + s[1:])
    tension = MASS * G * np.cos(theta)[:, None] * (1.0 - s_mid[None, :] / LENGTH) + 1.0
    start_force = np.zeros((n_time, 3))
    start_force[:, 0] = direction[0] * tension[:, 0] * np.sin(theta)
    start_force[:, 1] = direction[1] * tension[:, 0] * np.sin(theta)
    start_force[:, 2] = -tension[:, 0] * np.cos(theta)
    ke = 0.5 * (MASS / N_NODE) * np.sum(vel**2, axis=(1, 2))
    pe = (MASS / N_NODE) * G * np.sum(pos[..., 2], axis=1)
    ds = xr.Dataset(
        {
            "arc_length": (("node",), s, {"units": "m"}),
            "position": (("time", "node", "axis"), pos, {"units": "m"}),
            "velocity": (("time", "node", "axis"), vel, {"units": "m/s"}),
            "tension": (("time", "element"), tension, {"units": "N"}),
            "start_force": (("time", "axis"), start_force, {"units": "N"}),
            "end_force": (("time", "axis"), np.zeros((n_time, 3)), {"units": "N"}),
            "kinetic_energy": (("time",), ke, {"units": "J"}),
            "potential_energy": (("time",), pe, {"units": "J"}),
        },
        coords={
            "time": ("time", t, {"units": "s"}),
            "node": np.arange(N_NODE),
            "element": np.arange(N_NODE - 1),
            "axis": ["x", "y", "z"],
        },
        attrs={
            "model": "lumped-mass",
            "elements": N_NODE - 1,
            "method": "rk4",
            "dt": float(t[1] - t[0]),
            "case": CASE_YAML,
        },
    )
    return ds


def variable_length_dataset() -> xr.Dataset:
    """Pendulum whose line is paid out: nodes become active over time, NaN padding beyond."""
    ds = pendulum_dataset("x")
    n_active = np.clip(np.rint(np.linspace(3, N_NODE, N_TIME)).astype(int), 3, N_NODE)
    active = np.arange(N_NODE)[None, :] < n_active[:, None]
    scale = n_active / N_NODE
    pos = ds["position"].values * scale[:, None, None]
    pos[~active] = np.nan
    vel = ds["velocity"].values.copy()
    vel[~active] = np.nan
    arc = np.linspace(0.0, LENGTH, N_NODE)[None, :] * scale[:, None]
    arc = np.where(active, arc, np.nan)
    elem_active = active[:, 1:]
    tension = np.where(elem_active, ds["tension"].values, np.nan)
    return ds.assign(
        arc_length=(("time", "node"), arc, {"units": "m"}),
        active=(("time", "node"), active),
        position=(("time", "node", "axis"), pos, {"units": "m"}),
        velocity=(("time", "node", "axis"), vel, {"units": "m/s"}),
        tension=(("time", "element"), tension, {"units": "N"}),
    )


def expected_indices(n_time: int, n: int) -> np.ndarray:
    return np.unique(np.round(np.linspace(0, n_time - 1, n)).astype(int))


def snapshot_lines(fig: Figure) -> dict[int, object]:
    ax = fig.axes[0]
    out = {}
    for line in ax.get_lines():
        gid = line.get_gid()
        if gid and gid.startswith("snapshot:"):
            out[int(gid.split(":")[1])] = line
    return out


def test_snapshot_indices() -> None:
    assert list(snapshot_indices(41, 8)) == [0, 6, 11, 17, 23, 29, 34, 40]
    assert list(snapshot_indices(3, 8)) == [0, 1, 2]
    assert list(snapshot_indices(5, 1)) == [4]


def test_plot_results_png(tmp_path: Path) -> None:
    ds = pendulum_dataset("x")
    out = tmp_path / "results.png"
    fig = plot_results(ds, out, n_snapshots=8)
    assert isinstance(fig, Figure)
    assert out.exists() and out.stat().st_size > 20_000
    with Image.open(out) as im:  # 12.5 x 6 in at dpi 150
        assert im.size[0] == pytest.approx(12.5 * 150, abs=2)
    # profile, force history, tension, colour bar
    assert len(fig.axes) == 4
    prof, force, tension = fig.axes[:3]
    assert prof.get_xlabel() == "x [m]" and prof.get_ylabel() == "z [m]"
    assert prof.get_aspect() == 1.0
    assert force.get_ylabel() == "force on start holder [N]"
    assert force.get_xlabel() == "time [s]"
    assert tension.get_ylabel() == "tension [N]"
    assert "arc length" in tension.get_xlabel()
    title = fig.get_suptitle()
    assert "rigid pendulum swing" in title
    assert "lumped-mass" in title and "10 elements" in title


def test_snapshot_lines_match_positions() -> None:
    ds = pendulum_dataset("x")
    fig = plot_results(ds, n_snapshots=8)
    lines = snapshot_lines(fig)
    idx = expected_indices(N_TIME, 8)
    assert sorted(lines) == list(idx)
    pos = ds["position"].values
    for k in idx:
        x, z = lines[k].get_data()
        np.testing.assert_allclose(x, pos[k, :, 0])
        np.testing.assert_allclose(z, pos[k, :, 2])
    # shaded light to dark: later lines are darker
    lum = [np.mean(lines[k].get_color()[:3]) for k in idx]
    assert all(a > b for a, b in itertools.pairwise(lum))


def test_force_panel_data() -> None:
    ds = pendulum_dataset("x")
    fig = plot_results(ds)
    force = fig.axes[1]
    mag = np.linalg.norm(ds["start_force"].values, axis=1)
    ydata = [np.asarray(line.get_ydata(), dtype=float) for line in force.get_lines()]
    assert any(y.shape == mag.shape and np.allclose(y, mag) for y in ydata)


def test_tension_panel_last_snapshot() -> None:
    ds = pendulum_dataset("x")
    fig = plot_results(ds, n_snapshots=5)
    ax = fig.axes[2]
    last = ds["tension"].values[-1]
    ydata = [np.asarray(line.get_ydata(), dtype=float) for line in ax.get_lines()]
    assert any(y.shape == last.shape and np.allclose(y, last) for y in ydata)


def test_automatic_plane_choice() -> None:
    assert choose_plane(pendulum_dataset("x")) == "xz"
    assert choose_plane(pendulum_dataset("y")) == "yz"
    assert choose_plane(pendulum_dataset("diag")) == "principal"


def test_plot_yz_motion_uses_yz() -> None:
    ds = pendulum_dataset("y")
    fig = plot_results(ds, n_snapshots=4)
    assert fig.axes[0].get_xlabel() == "y [m]"
    lines = snapshot_lines(fig)
    for k, line in lines.items():
        np.testing.assert_allclose(line.get_xdata(), ds["position"].values[k, :, 1])


def test_plane_forced() -> None:
    ds = pendulum_dataset("y")
    fig = plot_results(ds, plane="xz")
    assert fig.axes[0].get_xlabel() == "x [m]"
    with pytest.raises(ValueError, match="plane"):
        plot_results(ds, plane="xy")


def test_principal_plane_projection() -> None:
    ds = pendulum_dataset("diag")
    fig = plot_results(ds, n_snapshots=3)
    assert "horizontal" in fig.axes[0].get_xlabel()
    lines = snapshot_lines(fig)
    pos = ds["position"].values
    for k, line in lines.items():
        horiz = np.hypot(pos[k, :, 0], pos[k, :, 1]) * np.sign(pos[k, :, 0])
        np.testing.assert_allclose(line.get_xdata(), horiz, atol=1e-9)


@pytest.mark.parametrize("suffix", [".pdf", ".svg"])
def test_plot_vector_formats(tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"results{suffix}"
    plot_results(pendulum_dataset("x"), out)
    assert out.exists() and out.stat().st_size > 5_000


def test_energy_panel_when_tension_all_nan(tmp_path: Path) -> None:
    ds = pendulum_dataset("x")
    ds["tension"][:] = np.nan
    fig = plot_results(ds, tmp_path / "energy.png")
    assert len(fig.axes) == 4
    assert fig.axes[2].get_ylabel() == "energy [J]"


def test_two_panels_without_tension_or_energy() -> None:
    ds = pendulum_dataset("x").drop_vars(["tension", "kinetic_energy", "potential_energy"])
    fig = plot_results(ds)
    assert len(fig.axes) == 3  # profile, force history, colour bar


def test_variable_length_nan_padding(tmp_path: Path) -> None:
    ds = variable_length_dataset()
    fig = plot_results(ds, tmp_path / "var.png", n_snapshots=6)
    assert (tmp_path / "var.png").stat().st_size > 20_000
    lines = snapshot_lines(fig)
    active = ds["active"].values
    pos = ds["position"].values
    for k, line in lines.items():
        x, z = line.get_data()
        assert len(x) == active[k].sum()
        np.testing.assert_allclose(x, pos[k, active[k], 0])
        np.testing.assert_allclose(z, pos[k, active[k], 2])
    gif = animate_results(ds, tmp_path / "var.gif", max_frames=10)
    with Image.open(gif) as im:
        assert im.n_frames == 10


def test_animate_gif_frames(tmp_path: Path) -> None:
    ds = pendulum_dataset("x")
    out = animate_results(ds, tmp_path / "anim.gif", fps=10, max_frames=20)
    assert out == tmp_path / "anim.gif"
    assert out.exists() and out.stat().st_size > 10_000
    with Image.open(out) as im:
        assert im.n_frames == 20
        assert im.info.get("duration") == pytest.approx(100, abs=1)


def test_animate_all_frames_when_few(tmp_path: Path) -> None:
    ds = pendulum_dataset("y", n_time=12)
    out = animate_results(ds, str(tmp_path / "few.gif"), max_frames=300)
    assert isinstance(out, Path)
    with Image.open(out) as im:
        assert im.n_frames == 12


def test_animate_mp4_without_ffmpeg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(animation.FFMpegWriter, "isAvailable", classmethod(lambda cls: False))
    with pytest.raises(RuntimeError, match="ffmpeg"):
        animate_results(pendulum_dataset("x"), tmp_path / "anim.mp4")


@pytest.mark.skipif(not animation.FFMpegWriter.isAvailable(), reason="ffmpeg not installed")
def test_animate_mp4(tmp_path: Path) -> None:
    out = animate_results(pendulum_dataset("x"), tmp_path / "anim.mp4", max_frames=10)
    assert out.exists() and out.stat().st_size > 1_000


def test_animate_bad_suffix(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"\.gif or \.mp4"):
        animate_results(pendulum_dataset("x"), tmp_path / "anim.avi")


# -- the sea: water level, instantaneous surface, seabed ------------------------------------

SEA_YAML = """\
name: pendulum in the sea
environment:
  fluid_density: 1025.0
  water_level: -2.0
  seabed: {z: -12.0, stiffness: 3.0e6}
"""


def sea_dataset() -> xr.Dataset:
    """The pendulum under a water level at z = -2 with a flat seabed at z = -12 and a
    travelling surface elevation at the nodes."""
    ds = pendulum_dataset("x")
    x = ds["position"].values[..., 0]
    t = ds["time"].values[:, None]
    eta = 0.5 * np.cos(0.8 * x - 1.3 * t)
    ds["surface_elevation"] = (("time", "node"), eta, {"units": "m"})
    ds.attrs["case"] = SEA_YAML
    return ds


def gid_lines(ax, prefix: str) -> dict[str, object]:
    return {ln.get_gid(): ln for ln in ax.get_lines()
            if ln.get_gid() and ln.get_gid().startswith(prefix)}


def test_profile_draws_water_level_surface_and_seabed() -> None:
    ds = sea_dataset()
    fig = plot_results(ds, n_snapshots=4)
    ax = fig.axes[0]
    level = gid_lines(ax, "sea:level")["sea:level"]
    assert np.allclose(level.get_ydata(), -2.0)
    bed = gid_lines(ax, "sea:seabed")["sea:seabed"]
    h = np.asarray(bed.get_xdata())
    assert np.allclose(bed.get_ydata(), -12.0)
    lo, hi = ax.get_xlim()
    assert h.min() <= lo + 1e-9 and h.max() >= hi - 1e-9  # under the whole view
    assert ax.get_ylim()[0] < -12.0  # the seabed is in view (within a span of the line)
    # the instantaneous surface of each snapshot: level + eta at the nodes, sorted by x
    surfaces = gid_lines(ax, "surface:")
    idx = expected_indices(N_TIME, 4)
    assert sorted(int(k.split(":")[1]) for k in surfaces) == list(idx)
    for k in idx:
        line = surfaces[f"surface:{k}"]
        x = ds["position"].values[k, :, 0]
        order = np.argsort(x)
        np.testing.assert_allclose(line.get_xdata(), x[order])
        np.testing.assert_allclose(line.get_ydata(),
                                   -2.0 + ds["surface_elevation"].values[k][order])
    labels = ax.get_legend_handles_labels()[1]
    assert "calm water level" in labels and "seabed" in labels


def test_no_sea_no_scenery() -> None:
    ax = plot_results(pendulum_dataset("x")).axes[0]
    assert not gid_lines(ax, "sea:") and not gid_lines(ax, "surface:")


def test_a_deep_seabed_stays_out_of_view() -> None:
    ds = sea_dataset()
    ds.attrs["case"] = SEA_YAML.replace("z: -12.0", "z: -500.0")
    ax = plot_results(ds).axes[0]
    assert ax.get_ylim()[0] > -30.0


def test_animation_draws_the_sea(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every frame shows the seabed, the calm level and that frame's surface."""
    seen = []
    original = animation.PillowWriter.grab_frame

    def grab(self, **kw):
        ax = self.fig.axes[0]
        surface = gid_lines(ax, "surface")["surface"]
        seen.append((np.asarray(surface.get_xdata()).copy(),
                     np.asarray(surface.get_ydata()).copy(),
                     bool(gid_lines(ax, "sea:seabed")), bool(gid_lines(ax, "sea:level"))))
        return original(self, **kw)

    monkeypatch.setattr(animation.PillowWriter, "grab_frame", grab)
    ds = sea_dataset()
    animate_results(ds, tmp_path / "sea.gif", max_frames=5)
    frames = snapshot_indices(N_TIME, 5)
    assert len(seen) == len(frames)
    for (h, z, bed, level), k in zip(seen, frames, strict=True):
        x = ds["position"].values[k, :, 0]
        order = np.argsort(x)
        np.testing.assert_allclose(h, x[order])
        np.testing.assert_allclose(z, -2.0 + ds["surface_elevation"].values[k][order])
        assert bed and level


def test_sloped_and_gridded_seabed_sections(tmp_path: Path) -> None:
    """A sloped plane and a bathymetry grid come from the case through the sea kernels:
    the drawn section is z0 + tan(slope) x along the plotted x (plane through the line),
    and the grid's bilinear surface along y = the line's mean y."""
    from tetherdyn.simulate import simulate

    case = {
        "name": "line over a slope",
        "tether": {"length": 4.0, "diameter": 0.01, "mass_per_length": 0.5, "EA": 1.0e4},
        "model": {"type": "lumped_mass", "elements": 4},
        "environment": {"fluid_density": 1025.0, "water_level": 0.0,
                        "seabed": {"z": -6.0, "slope_deg": 10.0}},
        "start": {"type": "fixed", "position": [0.0, 0.0, -1.0]},
        "initial": {"direction": [0.6, 0.0, -0.8]},
        "solver": {"method": "rk4", "dt": 1e-3, "duration": 0.05, "output_interval": 0.01},
    }
    ds = simulate(case, progress=False)
    bed = gid_lines(plot_results(ds).axes[0], "sea:seabed")["sea:seabed"]
    x = np.asarray(bed.get_xdata())
    np.testing.assert_allclose(bed.get_ydata(), -6.0 + math.tan(math.radians(10.0)) * x,
                               atol=1e-12)
    xs, ys = [-10.0, 0.0, 10.0], [-5.0, 5.0]
    z = {(-10.0, -5.0): -7.0, (-10.0, 5.0): -9.0, (0.0, -5.0): -6.0, (0.0, 5.0): -8.0,
         (10.0, -5.0): -5.0, (10.0, 5.0): -5.0}
    grid = tmp_path / "bed.csv"
    grid.write_text("x,y,z\n" + "".join(f"{a},{b},{z[a, b]}\n" for a in xs for b in ys))
    case["environment"]["seabed"] = {"bathymetry": str(grid)}
    ds = simulate(case, progress=False)
    bed = gid_lines(plot_results(ds).axes[0], "sea:seabed")["sea:seabed"]
    x = np.asarray(bed.get_xdata())
    y = float(np.mean(ds.position.values[..., 1]))
    v = (y + 5.0) / 10.0  # bilinear: linear in y between the two rows, then in x
    row = [(1 - v) * z[a, -5.0] + v * z[a, 5.0] for a in xs]
    np.testing.assert_allclose(bed.get_ydata(), np.interp(x, xs, row), atol=1e-12)


def test_wave_surface_across_the_view() -> None:
    """With waves in the case the surface is drawn across the whole view, from the sea
    kernels: the Airy closed form level + H/2 cos(k x - w t), deep water k = w^2 / g."""
    from tetherdyn.simulate import simulate

    case = {
        "name": "line under a wave",
        "tether": {"length": 4.0, "diameter": 0.01, "mass_per_length": 0.5, "EA": 1.0e4},
        "model": {"type": "lumped_mass", "elements": 4},
        "environment": {"fluid_density": 1025.0, "water_level": 1.0,
                        "waves": {"type": "airy", "height": 0.4, "period": 3.0}},
        "start": {"type": "fixed", "position": [0.0, 0.0, 0.0]},
        "initial": {"direction": [0.6, 0.0, -0.8]},
        "solver": {"method": "rk4", "dt": 1e-3, "duration": 0.3, "output_interval": 0.1},
    }
    ds = simulate(case, progress=False)
    ax = plot_results(ds, n_snapshots=4).axes[0]
    lines = gid_lines(ax, "surface:")
    assert sorted(int(k.split(":")[1]) for k in lines) == [0, 1, 2, 3]
    w = 2 * math.pi / 3.0
    k = w * w / 9.81
    for idx, line in lines.items():
        t = float(ds.time.values[int(idx.split(":")[1])])
        x = np.asarray(line.get_xdata())
        lo, hi = ax.get_xlim()
        assert x.min() <= lo + 1e-9 and x.max() >= hi - 1e-9  # across the view
        np.testing.assert_allclose(line.get_ydata(), 1.0 + 0.2 * np.cos(k * x - w * t),
                                   atol=1e-9)
