"""``tetherdyn statics CASE [-o shape.yaml] [--results shape.nc]`` (issue 18), in-process.

Physics asserted: a line hanging from a fixed start with a payload at its free end carries
at the holder its whole wet weight (m' L + payload − displaced fluid) g, exactly for the
lumped masses; its lowest point is the payload's node, plumb below the holder. The shape
written as a case loads and runs, and starts with that tension.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
import xarray as xr
import yaml

from tetherdyn import load_case
from tetherdyn.cli import EXIT_BAD_INPUT, EXIT_FAILED, main
from tetherdyn.simulate import run_case

G, RHO, PAYLOAD = 9.81, 1025.0, 0.02


def _wet_weight(raw: dict) -> float:
    t = raw["tether"]
    displaced = math.pi * t["diameter"] ** 2 / 4
    return ((t["mass_per_length"] - RHO * displaced) * t["length"] + PAYLOAD) * G


def _hanging(small_case) -> dict:
    """The 1 m, 4-element test chain in water with a payload, equilibrium from a 10° hint."""
    return small_case({"environment.fluid_density": RHO, "end.type": "free",
                       "end.mass": PAYLOAD, "initial.shape": "equilibrium",
                       "solver.duration": 0.02})


def _numbers(text: str, label: str) -> list[float]:
    m = re.search(rf"^{re.escape(label)}\s*:(.*)$", text, re.MULTILINE)
    assert m, f"no {label!r} line in:\n{text}"
    return [float(x) for x in re.findall(r"[-+]?\d[\d.]*(?:e[-+]?\d+)?", m.group(1))]


def test_statics_prints_and_writes_a_case_and_results(small_case, write_case, tmp_path,
                                                      capsys):
    raw = _hanging(small_case)
    path = write_case(raw, "hang.yaml")
    shape, nc, png = tmp_path / "shape.yaml", tmp_path / "shape.nc", tmp_path / "shape.png"
    assert main(["statics", str(path), "-o", str(shape), "--results", str(nc),
                 "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    weight = _wet_weight(raw)
    start_t, end_t = _numbers(out, "end tension")
    assert start_t == pytest.approx(weight, rel=1e-5)  # printed to 6 digits
    assert end_t == pytest.approx(PAYLOAD * G, rel=1e-5)  # the payload's weight
    x, y, z = _numbers(out, "lowest point")
    assert (x, y) == pytest.approx((0.0, 0.0), abs=1e-6)
    assert -1.01 < z < -1.0  # the 1 m line, stretched by its weight (EA = 500 N)
    residual, relative = _numbers(out, "residual")[:2]
    assert relative <= 1e-6 and residual <= 1e-6 * weight
    assert re.search(r"^solver\s*: newton\S*, \d+ iterations, [\d.e-]+ s$", out, re.MULTILINE)
    assert "touchdown" not in out  # no seabed: no touchdown line
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the case file: shape points, and it runs starting with the holder carrying the weight
    written = yaml.safe_load(shape.read_text())
    assert written["initial"]["shape"] == "points"
    assert len(written["initial"]["points"]) == 5
    r = run_case(load_case(shape), progress=False)
    assert np.linalg.norm(r.data_vars["start_force"][1][0]) == pytest.approx(weight, rel=1e-9)
    # the results file: one time, the same shape, the equilibrium named
    with xr.open_dataset(nc) as ds:
        assert ds.sizes["time"] == 1
        assert np.allclose(ds.position.values[0], written["initial"]["points"], atol=0)
        assert ds.attrs["initial_shape"] == "equilibrium"
        assert ds.attrs["initial_equilibrium_relative_residual"] <= 1e-6


def test_check_reports_the_equilibrium_start(small_case, write_case, capsys):
    raw = _hanging(small_case)
    assert main(["check", str(write_case(raw))]) == 0
    out = capsys.readouterr().out
    assert _numbers(out, "top tension")[0] == pytest.approx(_wet_weight(raw), rel=1e-5)
    assert "initial     : static equilibrium (newton" in out


@pytest.mark.parametrize("change, key", [
    ({"initial.velocity": [1.0, 0.0, 0.0]}, "initial.velocity"),
    ({"tether.EA": -1.0}, "tether.EA"),
])
def test_statics_bad_case_exits_2(change, key, small_case, write_case, tmp_path, capsys):
    raw = _hanging(small_case)
    raw.update(small_case(change, **{k: raw[k] for k in ("environment", "end", "initial")}))
    assert main(["statics", str(write_case(raw))]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith("error: ") and key in err and "Traceback" not in err


def test_statics_missing_file_and_folder_exit_2(small_case, write_case, tmp_path, capsys):
    assert main(["statics", str(tmp_path / "nope.yaml")]) == EXIT_BAD_INPUT
    assert "not found" in capsys.readouterr().err
    path = write_case(_hanging(small_case))
    bad = tmp_path / "no" / "such" / "shape.yaml"
    assert main(["statics", str(path), "-o", str(bad)]) == EXIT_BAD_INPUT
    assert "does not exist" in capsys.readouterr().err
    assert not bad.exists()


def test_statics_without_an_equilibrium_exits_1(small_case, write_case, capsys,
                                                monkeypatch):
    """Both ends free under gravity: no static equilibrium exists; the error names the
    residual and where it sits. (The dynamic relaxation's budget is cut to 5000 RK4 steps:
    the exit path is tested here, not the solver.)"""
    from tetherdyn import statics

    monkeypatch.setitem(statics.solve.__kwdefaults__, "relax_steps", 5000)
    raw = small_case({"start": {"type": "free"}, "initial.shape": "equilibrium"})
    assert main(["statics", str(write_case(raw))]) == EXIT_FAILED
    err = capsys.readouterr().err
    assert "residual" in err and "node" in err and "Traceback" not in err


def test_statics_prints_the_touchdown_of_a_seabed_catenary(write_case, capsys):
    """A line from an anchor on the seabed to a fairlead 10 m up (MoorDyn's quasi-static
    catenary with a grounded length, analytic.seabed_catenary): the printed touchdown lies
    within one element of the closed form's, the fairlead and anchor tensions within 1 %
    (the lumped discretisation at N = 20; measured 0.3 % and 0.2 %)."""
    from tetherdyn.analytic import seabed_catenary

    raw = dict(name="seabed catenary",
               tether=dict(length=30.0, diameter=0.02, mass_per_length=2.0, EA=1.0e6),
               model=dict(type="lumped_mass", elements=20),
               environment=dict(fluid_density=RHO, water_level=0.0, seabed=dict(z=-10.0)),
               start=dict(type="fixed", position=[0.0, 0.0, -10.0]),
               end=dict(type="fixed", position=[25.0, 0.0, 0.0]),
               initial=dict(shape="equilibrium"),
               solver=dict(dt=1e-4, duration=0.01, output_interval=0.005))
    assert main(["statics", str(write_case(raw))]) == 0
    out = capsys.readouterr().out
    w = (2.0 - RHO * math.pi * 0.02**2 / 4) * G
    ref = seabed_catenary(25.0, 10.0, 30.0, w, EA=1.0e6)
    s_td, x_td, _, z_td = _numbers(out, "touchdown")
    assert abs(s_td - ref.grounded_length) <= 30.0 / 20
    assert abs(x_td - ref.touchdown_x) <= 30.0 / 20 and z_td == pytest.approx(-10.0, abs=0.01)
    anchor, fairlead = _numbers(out, "end tension")
    assert fairlead == pytest.approx(ref.fairlead_tension, rel=0.01)
    assert anchor == pytest.approx(ref.anchor_tension, rel=0.01)
    # tetherdyn check estimates the sea on the same start: the equilibrium's touchdown
    assert main(["check", str(write_case(raw))]) == 0
    assert _numbers(capsys.readouterr().out, "touchdown")[0] == s_td
