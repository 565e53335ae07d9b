"""Statics of a system (system_statics.py; docs/systems.md, "Statics").

Physics against closed forms nobody here wrote: a clump weight between two chains at the
point where the two elastic catenaries (Irvine 1981; analytic.elastic_catenary) balance
its submerged weight; a free junction of three lines whose line forces are each line's
elastic catenary between its anchor and the junction's position and balance the
junction's wet weight. Then the run started from the equilibrium stays still, the
command line, the error when no equilibrium exists, and the reduced MoorPy row.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import yaml
from scipy.optimize import fsolve

from tetherdyn.analytic import elastic_catenary
from tetherdyn.statics import StaticsError
from tetherdyn.system_run import run_system
from tetherdyn.system_statics import solve_system

pytestmark = pytest.mark.filterwarnings("ignore::tetherdyn.case.CaseWarning")

RHO, G = 1025.0, 9.81
CHAIN = {"diameter": 0.05, "mass_per_length": 8.0, "EA": 5e6, "cd_normal": 1.2}
W_CHAIN = (8.0 - RHO * math.pi * 0.05**2 / 4) * G  # submerged weight per metre [N/m]
SOLVER = {"method": "rk4", "dt": 4e-4, "duration": 0.2, "output_interval": 0.1}


def system(anchors: list, lengths: list, point: dict, elements: int = 20) -> dict:
    """Lines i from fixed anchor ``A<i>`` to the point ``P`` (chain, in water)."""
    return {
        "line_types": {"chain": CHAIN},
        "lines": {f"L{i}": {"line_type": "chain", "length": L,
                            "model": {"type": "lumped_mass", "elements": elements},
                            "start": {"point": f"A{i}"}, "end": {"point": "P"}}
                  for i, L in enumerate(lengths)},
        "points": {**{f"A{i}": {"type": "fixed", "position": list(a)}
                      for i, a in enumerate(anchors)}, "P": point},
        "environment": {"fluid_density": RHO},
        "solver": SOLVER,
    }


def catenary_force(anchor, p, length: float) -> np.ndarray:
    """The force [N] of a chain hung from ``anchor`` to ``p`` on ``p``: Irvine's elastic
    catenary in the line's vertical plane (H towards the anchor, V_B down)."""
    anchor, p = np.asarray(anchor, float), np.asarray(p, float)
    d = anchor[:2] - p[:2]
    span = float(np.linalg.norm(d))
    c = elastic_catenary(span, p[2] - anchor[2], length, W_CHAIN, CHAIN["EA"])
    return np.array([*(c.H * d / span), -c.V_B])


def test_clump_weight_between_two_chains_against_the_two_catenaries():
    """A 400 kg clump (0.02 m³) between chains of 20 and 18 m: the closed-form point where
    the two elastic catenaries meet with equal H and V_B1 + V_A2 = W (as
    test_system.py's dynamic check; measured 4.7e-5 m, 1.6e-4 m with 20 elements)."""
    L1, L2, M, V = 20.0, 18.0, 400.0, 0.02
    C = (30.0, 0.0, -5.0)
    W = (M - RHO * V) * G

    def residual(p):
        c1 = elastic_catenary(p[0], p[1], L1, W_CHAIN, CHAIN["EA"])
        c2 = elastic_catenary(C[0] - p[0], C[2] - p[1], L2, W_CHAIN, CHAIN["EA"])
        return [c2.H - c1.H, -c1.V_B - c2.V_A - W]

    x, z = fsolve(residual, [15.0, -15.0], xtol=1e-12)
    case = system([(0, 0, 0), C], [L1, L2],
                  {"type": "free", "position": [14.0, 0.0, -12.0], "mass": M, "volume": V})
    # line L1 from C to P reversed: the clump's two chains as test_system.py's
    case["lines"]["L1"]["start"], case["lines"]["L1"]["end"] = {"point": "P"}, {"point": "A1"}
    eq = solve_system(case)
    p = eq.points["P"]
    assert abs(p[0] - x) < 1e-3 and abs(p[2] - z) < 1e-3 and p[1] == 0.0
    assert eq.point_residuals["P"] <= eq.tol
    assert eq.forces["P"][2] == pytest.approx(W, rel=1e-3)
    # the run started from it stays still (initial: {shape: equilibrium})
    case["initial"] = {"shape": "equilibrium"}
    res = run_system(case, progress=False)
    path = res.points["P"]["position"][1]
    assert np.abs(path - p).max() < 1e-6
    assert res.attrs["initial_shape"] == "equilibrium"


def test_free_junction_of_three_lines_balances_its_weight():
    """A 300 kg junction (0.05 m³) on three chains from anchors at three headings and
    heights: each line's force on it is its elastic catenary between anchor and junction
    (within the 20-element chain's discretisation, 2e-3), and they balance its wet weight."""
    anchors = [(-25.0, 0.0, 5.0), (12.0, 20.0, 0.0), (14.0, -18.0, -3.0)]
    lengths = [30.0, 28.0, 27.0]
    M, V = 300.0, 0.05
    eq = solve_system(system(anchors, lengths, {"type": "free", "position": [0.0, 0.0, -15.0],
                                                "mass": M, "volume": V}))
    p = eq.points["P"]
    total, size = np.zeros(3), 0.0
    for i, (a, L) in enumerate(zip(anchors, lengths, strict=True)):
        f = catenary_force(a, p, L)
        total += f
        size += float(np.linalg.norm(f))
        line = eq.lines[f"L{i}"]
        ours = np.asarray(line.model.outputs(np.array([0.0]), line.y[None, :])["end_force"][0])
        assert np.linalg.norm(ours - f) < 2e-3 * np.linalg.norm(f), (i, ours, f)
    weight = (M - RHO * V) * G
    # the closed forms at our junction balance its weight but for the lines' own
    # discretisation error (measured 6.0 N of the lines' 2e-3 bound)
    assert np.linalg.norm(total - [0.0, 0.0, weight]) < 2e-3 * size, (total, size)
    assert np.linalg.norm(eq.forces["P"] - [0.0, 0.0, weight]) <= eq.tol


def test_statics_command_on_a_system(tmp_path):
    """`tetherdyn statics SYSTEM.yaml` prints per line and point, writes the shape as a
    case that loads and as a results file; no equilibrium is an error naming the point.
    (5 elements a line: this checks the command, not the shape's accuracy, which the tests
    above check with 20.)"""
    import xarray as xr

    from tetherdyn.cli import main
    from tetherdyn.system_case import load_system

    case = system([(-20.0, 0.0, 0.0), (20.0, 0.0, 0.0)], [25.0, 25.0],
                  {"type": "free", "position": [0.0, 0.0, -10.0], "mass": 100.0}, elements=5)
    path = tmp_path / "junction.yaml"
    path.write_text(yaml.safe_dump(case))
    shape, nc = tmp_path / "shape.yaml", tmp_path / "shape.nc"
    assert main(["statics", str(path), "-o", str(shape), "--results", str(nc)]) == 0
    written = load_system(shape)
    assert written.point_positions["P"][0] == pytest.approx(0.0, abs=1e-6)
    tree = xr.open_datatree(nc)
    assert set(tree["lines"].children) == {"L0", "L1"}
    assert tree.attrs["initial_shape"] == "equilibrium"
    # a free point between two free points' line floats nowhere: no equilibrium
    # (a short relaxation budget: its Newton restarts fail the same way)
    bad = system([(0.0, 0.0, 0.0)], [10.0], {"type": "free", "position": [5, 0, -5],
                                              "mass": 10.0}, elements=5)
    bad["points"]["A0"] = {"type": "free", "position": [0, 0, 0], "mass": 1.0}
    with pytest.raises(StaticsError, match=r"points\.\w+: no static equilibrium found"):
        solve_system(bad, relax_steps=200)


def test_a_moving_coupled_point_has_no_static_equilibrium():
    """A coupled point moving at t = 0 is refused before anything is solved, naming it."""
    from tetherdyn.case import CaseError

    case = system([(0.0, 0.0, 0.0)], [10.0], {"type": "coupled", "trajectory": {
        "t": [0.0, 1.0, 2.0], "x": [8.0, 9.0, 10.0], "y": [0.0] * 3, "z": [-5.0] * 3}})
    with pytest.raises(CaseError, match=r"points\.P\.trajectory: the point moves at t = 0"):
        solve_system(case)


def test_moorpy_spread_mooring_reduced():
    """The validation row moorpy_spread_mooring, reduced (two offsets, N = 20)."""
    pytest.importorskip("moorpy")
    from validation.moorpy_spread import check

    row = check(full=False)
    assert row.passed, row.ours
    assert row.values["worst_rel"] < 0.01
