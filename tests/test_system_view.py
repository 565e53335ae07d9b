"""`tetherdyn check`, `plot` and `animate` of a system (issue 19; docs/systems.md, "Check,
plots and animations"): a small two-line system (5 and 6 elements, 0.2 s).

The check's per-line numbers are the single-line check's functions on each line's case
(self); the system's stable step must be the smallest line's and name it. The figures:
one artist per line in the profile and the plan, points and bodies marked, a body's triad
turned by its quaternion (w, x, y, z: a quarter turn about z puts the body's x axis along
world y)."""

from __future__ import annotations

import numpy as np
import pytest
import yaml

from tetherdyn.cli import main
from tetherdyn.models import build_model
from tetherdyn.system_case import load_system

pytestmark = pytest.mark.filterwarnings("ignore::tetherdyn.case.CaseWarning")

CASE = {
    "name": "two chains and a clump",
    "line_types": {"chain": {"diameter": 0.05, "mass_per_length": 8.0, "EA": 5.0e6,
                             "axial_damping": 5.0e3, "cd_normal": 1.2}},
    "lines": {
        "L1": {"line_type": "chain", "length": 20.0, "model": {"type": "lumped_mass",
                                                               "elements": 5},
               "start": {"point": "A"}, "end": {"point": "B"}},
        "L2": {"line_type": "chain", "length": 18.0, "model": {"type": "lumped_mass",
                                                               "elements": 6},
               "start": {"point": "B"}, "end": {"point": "C"}},
    },
    "points": {
        "A": {"type": "fixed", "position": [0.0, 0.0, 0.0]},
        "B": {"type": "free", "position": [14.0, 2.0, -12.0], "mass": 400.0, "volume": 0.02,
              "drag_area": 20.0, "ca": 1.0},
        "C": {"type": "fixed", "position": [30.0, 0.0, -5.0]},
    },
    "environment": {"fluid_density": 1025.0, "water_level": 2.0, "seabed": {"z": -25.0}},
    "solver": {"method": "rk4", "dt": 1.0e-3, "duration": 0.2, "output_interval": 0.02},
}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """The case file and its results file (one short run for the module)."""
    from tetherdyn.system_run import run_system

    folder = tmp_path_factory.mktemp("sysview")
    case = folder / "two_lines.yaml"
    case.write_text(yaml.safe_dump(CASE, sort_keys=False))
    out = run_system(load_system(CASE)).write(folder / "two_lines.nc")
    return case, out


def test_check_describes_every_line_and_point_and_names_the_smallest_step(files, capsys):
    case, _ = files
    assert main(["check", str(case)]) == 0
    text = capsys.readouterr().out
    for name in ("L1", "L2"):
        assert f"line  {name} " in text
    for name in ("A", "B", "C"):
        assert f"point {name} " in text
    b = next(ln for ln in text.splitlines() if ln.startswith("point B "))
    assert ": free" in b and "mass 400 kg, volume 0.02 m^3" in b
    assert b.endswith("lines L1 (end), L2 (start)")  # the line ends on the junction
    assert "element length 4 m, mass 32 kg" in text  # L1: 20 m / 5, 8 kg/m
    assert "element length 3 m, mass 24 kg" in text  # L2: 18 m / 6
    # the system's stable step: the smallest of the lines' own RK4 limits, that line named
    sys_case = load_system(CASE)
    limits = {k: build_model(c).critical_time_step()[0] for k, c in sys_case.lines.items()}
    worst = min(limits, key=limits.get)
    assert worst == "L2"  # shorter elements, same chain
    line = next(ln for ln in text.splitlines() if ln.startswith("critical dt :"))
    assert f"{limits[worst]:.4g} s" in line and f"line {worst}" in line
    assert f"{limits['L1']:.4g} s" not in line


def test_plot_draws_every_line_point_and_the_forces(files, tmp_path, capsys):
    from tetherdyn.system_plot import plot_system

    _, nc = files
    png = tmp_path / "sys.png"
    assert main(["plot", str(nc), "-o", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    fig = plot_system(nc)
    profile, plan, tension, force = fig.axes[:4]
    for ax in (profile, plan):  # one artist per line, every point marked
        gids = [a.get_gid() for a in ax.get_children()]
        assert sorted(g for g in gids if g and g.startswith("line:")) == ["line:L1", "line:L2"]
        assert {f"point:{p}" for p in "ABC"} <= set(gids)
    assert sorted(ln.get_gid() for ln in tension.lines) == ["tension:L1", "tension:L2"]
    assert {ln.get_gid() for ln in force.lines} == {f"force:point:{p}" for p in "ABC"}
    # the fixed points stay where the case puts them (plan: x, y)
    a = next(ln for ln in plan.lines if ln.get_gid() == "point:C")
    np.testing.assert_allclose(np.ravel(a.get_data()), [30.0, 0.0], atol=1e-12)


def test_animate_writes_a_gif_with_every_line(files, tmp_path, capsys):
    from PIL import Image

    _, nc = files
    gif = tmp_path / "sys.gif"
    assert main(["animate", str(nc), "-o", str(gif), "--max-frames", "4", "--fps", "5"]) == 0
    with Image.open(gif) as im:
        assert im.n_frames == 4


def test_a_body_is_drawn_with_its_triad_turned_by_its_quaternion(files, tmp_path):
    """A bodies/<name> group (results-format.md, "Systems") drawn: reference point and the
    triad of its axes; a quarter turn about z (q = (cos 45°, 0, 0, sin 45°)) puts the
    body's x arm along world +y in the plan."""
    import xarray as xr

    from tetherdyn.system_plot import animate_system, open_system, plot_system

    _, nc = files
    view = open_system(nc)
    k = view.times.size
    c = np.sqrt(0.5)
    view.bodies["F"] = xr.Dataset(
        {"position": (("time", "axis"), np.tile([10.0, 0.0, -6.0], (k, 1))),
         "orientation": (("time", "component"), np.tile([c, 0.0, 0.0, c], (k, 1))),
         "force": (("time", "axis"), np.ones((k, 3)))},
        coords={"time": view.times, "axis": ["x", "y", "z"], "component": list("wxyz")})
    fig = plot_system(view)
    plan = fig.axes[1]
    arms = {ln.get_gid(): np.array(ln.get_data()) for ln in plan.lines}
    assert "body:F" in arms
    x_arm = arms["triad:F:x"]
    d = x_arm[:, 1] - x_arm[:, 0]
    assert abs(d[0]) < 1e-12 * abs(d[1]) and d[1] > 0
    assert "force:body:F" in {ln.get_gid() for ln in fig.axes[3].lines}
    gif = animate_system(view, tmp_path / "body.gif", max_frames=2)
    assert gif.stat().st_size > 0


def test_check_describes_a_moordyn_deck_with_several_lines(tmp_path, capsys):
    """A MoorDyn deck with two lines and a free point is checked as a system: lines and
    points by their IDs, the stable step the smaller line's (line 2: shorter elements)."""
    from validation.moordyn_system import JUNCTION_DECK

    deck = tmp_path / "junction.dat"
    deck.write_text(JUNCTION_DECK)
    assert main(["check", str(deck), "--duration", "1"]) == 0
    text = capsys.readouterr().out
    assert "line  1 : point 1 -> point 2;" in text and "line  2 : point 2 -> point 3;" in text
    assert any(ln.startswith("point 2 : free") for ln in text.splitlines())
    line = next(ln for ln in text.splitlines() if ln.startswith("critical dt :"))
    assert "the smallest line's: line 2 (the system's stable step)" in line


def test_one_time_draws_the_tension_along_each_line(files):
    """A file with one time (`tetherdyn statics --results`/`--plot`): the tension panel is
    the tension along each line, at its elements' midpoints."""
    from tetherdyn.system_plot import SystemView, open_system, plot_system

    _, nc = files
    v = open_system(nc)
    one = SystemView(v.attrs, v.times[:1], {k: d.isel(time=[0]) for k, d in v.lines.items()},
                     {k: d.isel(time=[0]) for k, d in v.points.items()}, {})
    tension = plot_system(one).axes[2]
    l1 = next(ln for ln in tension.lines if ln.get_gid() == "tension:L1")
    np.testing.assert_allclose(l1.get_xdata(), [2.0, 6.0, 10.0, 14.0, 18.0])  # 20 m / 5
    np.testing.assert_allclose(l1.get_ydata(), v.lines["L1"]["tension"].values[0])
