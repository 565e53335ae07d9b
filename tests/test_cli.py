"""The ``tetherdyn`` command line, called in-process (``tetherdyn.cli.main``) plus one real
call of the installed console script."""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from tetherdyn import load_case
from tetherdyn.cli import EXIT_BAD_INPUT, EXIT_FAILED, example_names, main
from tetherdyn.models import build_model

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
BUNDLED = ("hanging_chain", "mooring_catenary", "seed000_tether", "towed_cable",
           "rov_umbilical_waves", "mooring_touchdown", "balloon_tether_wind")


def _number(text: str, label: str) -> float:
    """The first number after ``label :`` in the check output."""
    m = re.search(rf"^{re.escape(label)}\s*:.*?([-+]?\d[\d.]*(?:e[-+]?\d+)?)", text,
                  re.MULTILINE)
    assert m, f"no {label!r} line in:\n{text}"
    return float(m.group(1))


@pytest.fixture(scope="module")
def results_file(tmp_path_factory, small_case) -> Path:
    """A results file written by ``tetherdyn run`` (shared by plot / animate)."""
    import yaml

    folder = tmp_path_factory.mktemp("cli_run")
    case_path = folder / "swing.yaml"
    case_path.write_text(yaml.safe_dump(small_case()))
    out = folder / "swing.nc"
    assert main(["run", str(case_path), "-o", str(out), "-q"]) == 0
    return out


# -- run -----------------------------------------------------------------------------------------

def test_run_writes_netcdf_and_plot(small_case, write_case, tmp_path, capsys):
    path = write_case(small_case(), "swing.yaml")
    out = tmp_path / "results" / "swing.nc"
    png = tmp_path / "swing.png"
    assert main(["run", str(path), "-o", str(out), "--plot", str(png)]) == 0
    captured = capsys.readouterr()
    assert f"wrote {out}" in captured.out and f"wrote {png}" in captured.out
    assert "21 outputs" in captured.out  # 0.2 s every 0.01 s
    assert "Traceback" not in captured.err
    with xr.open_dataset(out) as ds:
        assert ds.sizes["time"] == 21 and ds.sizes["node"] == 5
        assert ds.attrs["model"] == "lumped_mass"
        assert np.all(np.isfinite(ds["position"].values))
    assert png.read_bytes()[:8] == PNG_MAGIC


def test_run_quiet_prints_nothing(small_case, write_case, tmp_path, capsys):
    path = write_case(small_case({"solver.duration": 0.05}))
    out = tmp_path / "quiet.nc"
    assert main(["run", str(path), "-o", str(out), "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""
    with xr.open_dataset(out) as ds:
        assert ds.sizes["time"] == 6


def test_run_blow_up_exits_1(small_case, write_case, tmp_path, capsys):
    path = write_case(small_case({"solver.dt": 0.02, "solver.output_interval": 0.02,
                                  "solver.duration": 5.0}))
    assert main(["run", str(path), "-o", str(tmp_path / "x.nc"), "-q"]) == EXIT_FAILED
    err = capsys.readouterr().err
    assert "blew up" in err and "solver.dt <=" in err and "Traceback" not in err
    assert not (tmp_path / "x.nc").exists()


# -- check ---------------------------------------------------------------------------------------

def test_check_prints_derived_numbers(small_case, write_case, capsys):
    raw = small_case()
    path = write_case(raw, "chain.yaml")
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    L, N, mpl, EA, g = 1.0, 4, 0.05, 500.0, 9.81
    Le = L / N
    assert "(valid)" in out
    assert f"length {Le:.6g} m, mass {mpl * Le:.6g} kg" in out
    assert _number(out, "total mass") == pytest.approx(mpl * L, rel=1e-6)
    # free lower end: the holder carries the whole weight (printed to 6 digits)
    assert _number(out, "top tension") == pytest.approx(mpl * L * g, rel=1e-5)
    dt_crit, element, omega = build_model(load_case(raw)).critical_time_step()
    assert f"critical dt : {dt_crit:.4g} s" in out
    assert f"limited by element {element})" in out
    # the uniform chain's highest axial mode: omega_max = 2 sqrt(EA / (m' L_e^2)), RK4 limit
    # 2.83 / omega_max; 1 % covers printing to 4 digits and 2.83 vs 2*sqrt(2)
    omega_max = 2.0 * math.sqrt(EA / (mpl * Le**2))
    assert _number(out, "critical dt") == pytest.approx(2.83 / omega_max, rel=0.01)
    assert omega == pytest.approx(omega_max, rel=1e-12)
    assert "above the limit" not in out


def test_check_flags_dt_above_limit(small_case, write_case, capsys):
    path = write_case(small_case({"solver.dt": 0.005, "solver.output_interval": 0.01}))
    assert main(["check", str(path)]) == 0
    assert "above the limit" in capsys.readouterr().out


def test_check_warns_about_unused_property(small_case, write_case, capsys):
    path = write_case(small_case({"tether.EI": 1.0}))
    assert main(["check", str(path)]) == 0
    err = capsys.readouterr().err
    assert "warning" in err and "tether.EI" in err


@pytest.mark.parametrize("name", BUNDLED)
def test_check_bundled_examples(name, tmp_path, capsys):
    assert main(["examples", name, "-o", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["check", str(tmp_path / f"{name}.yaml")]) == 0
    out = capsys.readouterr().out
    assert "(valid)" in out and "critical dt" in out


def sea_case(small_case) -> dict:
    """12 m of line from 2 m above the water level down to a flat seabed 6 m below it and
    4 m along it (an L of 12 one-metre elements)."""
    points = [[0.0, 0.0, 2.0 - k] for k in range(9)] + [[float(k), 0.0, -6.0]
                                                          for k in range(1, 5)]
    return small_case({"tether.length": 12.0, "tether.diameter": 0.02,
                       "tether.mass_per_length": 1.0, "tether.EA": 1.0e5,
                       "tether.ca_normal": 0.8, "model.elements": 12,
                       "environment.fluid_density": 1025.0, "environment.water_level": 0.0,
                       "environment.seabed": {"z": -6.0, "stiffness": 2.0e6,
                                              "damping": 1.0e4}},
                      initial={"shape": "points", "points": points},
                      start={"type": "fixed", "position": [0.0, 0.0, 2.0]})


def test_check_reports_the_sea(small_case, write_case, capsys):
    """Submerged length, touchdown and the seabed's step limit, against hand numbers:
    2 m of 12 in air; the line meets the bed 8 m from the start; a node on the bed is the
    oscillator kBot d / m' per metre (damping cBot d), and a bed that stiff lowers the
    tether's own RK4 limit."""
    from tetherdyn.models.base import rk4_critical_step

    raw = sea_case(small_case)
    raw["environment"]["seabed"]["stiffness"] = 2.0e8  # stiffer than the tether's axial mode
    path = write_case(raw, "sea.yaml")
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert _number(out, "submerged") == pytest.approx(10.0, rel=1e-6)
    assert "of 12 m below the water level z = 0 m" in out
    assert re.search(r"^touchdown\s*: at s = 8 m, \(0, 0, -6\) m; 4 m on the seabed", out,
                     re.MULTILINE), out
    omega = math.sqrt(2.0e8 * 0.02 / 1.0)
    dt = rk4_critical_step(omega, 1.0e4 * 0.02 / (2 * 1.0 * omega))
    assert _number(out, "seabed dt") == pytest.approx(dt, rel=1e-3)
    assert f"contact {omega:.6g} rad/s" in out
    raw_free = dict(raw, environment={k: v for k, v in raw["environment"].items()
                                      if k != "seabed"})
    alone = build_model(load_case(raw_free)).critical_time_step()[0]
    dt_crit = build_model(load_case(raw)).critical_time_step()[0]
    assert dt_crit < alone
    assert (f"the critical dt is {alone:.4g} s without the seabed: the seabed lowers it by "
            f"{100 * (1 - dt_crit / alone):.3g} %") in out


def test_check_sea_without_touchdown(small_case, write_case, capsys):
    raw = sea_case(small_case)
    raw["environment"]["seabed"]["z"] = -20.0
    assert main(["check", str(write_case(raw, "deep.yaml"))]) == 0
    out = capsys.readouterr().out
    assert "touchdown   : none (the initial shape clears the seabed by 14 m)" in out


def test_check_without_a_sea_prints_no_sea_lines(small_case, write_case, capsys):
    assert main(["check", str(write_case(small_case()))]) == 0
    out = capsys.readouterr().out
    assert "submerged" not in out and "touchdown" not in out and "seabed" not in out


# -- examples ------------------------------------------------------------------------------------

def test_examples_lists_bundled_cases(capsys):
    assert main(["examples"]) == 0
    out = capsys.readouterr().out
    assert set(BUNDLED) <= set(example_names())
    for name in example_names():
        assert re.search(rf"^{name}\s", out, re.MULTILINE), name
    assert "tetherdyn examples NAME" in out


def test_examples_writes_towed_cable_with_its_track(tmp_path, capsys, monkeypatch):
    dest = tmp_path / "mine"
    assert main(["examples", "towed_cable", "-o", str(dest)]) == 0
    out = capsys.readouterr().out
    assert (dest / "towed_cable.yaml").is_file() and (dest / "tow_track.csv").is_file()
    assert "tow_track.csv" in out
    monkeypatch.chdir(tmp_path)  # the track is found next to the case, not in cwd
    case = load_case(dest / "towed_cable.yaml")
    assert case.start_trajectory is not None
    pos, _, _ = case.start_trajectory.evaluate(0.0)
    np.testing.assert_allclose(pos, 0.0, atol=1e-12)


def test_examples_hanging_chain_writes_only_the_case(tmp_path, capsys):
    assert main(["examples", "hanging_chain", "-o", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hanging_chain.yaml"]


def test_examples_unknown_name(tmp_path, capsys):
    assert main(["examples", "no_such_example", "-o", str(tmp_path)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "no_such_example" in err and "hanging_chain" in err


# -- plot / animate ------------------------------------------------------------------------------

def test_plot_from_results(results_file, tmp_path, capsys):
    png = tmp_path / "fig.png"
    assert main(["plot", str(results_file), "-o", str(png), "--snapshots", "4"]) == 0
    assert f"wrote {png}" in capsys.readouterr().out
    assert png.read_bytes()[:8] == PNG_MAGIC


def test_animate_from_results(results_file, tmp_path, capsys):
    gif = tmp_path / "anim.gif"
    assert main(["animate", str(results_file), "-o", str(gif), "--max-frames", "5",
                 "--fps", "5"]) == 0
    assert "wrote" in capsys.readouterr().out
    assert gif.read_bytes()[:6] in (b"GIF87a", b"GIF89a")


# -- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["run", "check"])
@pytest.mark.parametrize(
    ("change", "key"),
    [({"tether.EA": -5.0}, "tether.EA"), ({"model.elements": 0}, "model.elements"),
     ({"tether.foo": 1}, "tether.foo")],
)
def test_bad_case_exits_2(command, change, key, small_case, write_case, tmp_path, capsys):
    path = write_case(small_case(change))
    out = tmp_path / "never.nc"
    args = [command, str(path)] + (["-o", str(out)] if command == "run" else [])
    assert main(args) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith("error: ") and key in err and "Traceback" not in err
    assert not out.exists()


@pytest.mark.parametrize("command", ["run", "check", "plot", "animate"])
def test_missing_file_exits_2(command, tmp_path, capsys):
    missing = tmp_path / ("nope.yaml" if command in ("run", "check") else "nope.nc")
    args = [command, str(missing)]
    if command != "check":
        args += ["-o", str(tmp_path / "out.x")]
    assert main(args) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "not found" in err and str(missing) in err


def test_console_script_bad_case(small_case, write_case):
    exe = Path(sys.executable).with_name("tetherdyn")
    exe = str(exe) if exe.is_file() else shutil.which("tetherdyn")
    assert exe, "the tetherdyn console script is not installed"
    path = write_case(small_case({"tether.EA": float("nan")}))
    proc = subprocess.run([exe, "check", str(path)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "tether.EA" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


# -- export --------------------------------------------------------------------------------

def test_export_writes_a_paraview_series(small_case, write_case, tmp_path, capsys):
    out = tmp_path / "r.nc"
    assert main(["run", str(write_case(small_case())), "-o", str(out), "-q"]) == 0
    assert main(["export", str(out), "--vtk", str(tmp_path / "vtk"), "--stride", "5"]) == 0
    assert "r.pvd" in capsys.readouterr().out
    assert len(list((tmp_path / "vtk").glob("*.vtu"))) == 5  # outputs 0, 5, 10, 15, 20


def test_export_names_a_missing_file(tmp_path, capsys):
    assert main(["export", str(tmp_path / "none.nc"), "--vtk", str(tmp_path)]) == 2
    assert "results file not found" in capsys.readouterr().err


# -- MoorDyn decks -------------------------------------------------------------------------

def test_run_and_import_a_moordyn_deck(tmp_path, capsys):
    deck = str(Path(__file__).parent.parent / "src/tetherdyn/examples/moordyn_line.dat")
    assert main(["run", deck, "--duration", "0.2", "-o", str(tmp_path / "md.nc"), "-q"]) == 0
    assert (tmp_path / "md.nc").is_file()
    assert main(["import", deck, "--duration", "1", "-o", str(tmp_path / "md.yaml")]) == 0
    assert main(["check", str(tmp_path / "md.yaml")]) == 0
    # a deck sets no simulation time: the error names the key and the option
    assert main(["run", deck, "-o", str(tmp_path / "x.nc")]) == 2
    err = capsys.readouterr().err
    assert "solver.duration" in err and "--duration" in err


def test_one_blas_thread_only_before_numpy_and_never_over_the_user(monkeypatch):
    """A CLI process starts OpenBLAS with one thread (cli._one_blas_thread): set only while
    numpy is not loaded, and a user's own choice wins."""
    import sys

    from tetherdyn import cli

    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    cli._one_blas_thread()  # numpy is loaded in this process: nothing to do
    assert "OPENBLAS_NUM_THREADS" not in os.environ
    monkeypatch.delitem(sys.modules, "numpy")
    cli._one_blas_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    cli._one_blas_thread()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "4"
