"""higher_order lines in a system (issue 19; models/system_higher.py, docs/systems.md).

Physics against what nobody here wrote: a vertical chain of a higher_order line, a free
body and a lumped-mass line with a point weight settles at the static elongation of
Hooke's law under the weight below each element (closed form). Then (self) a higher_order
line alone from a fixed to a free point is the single-line case with that point as its
payload, rates and history to rounding; the statics refuses such a system, naming the
line. Small systems, short rk4 runs (one compiled kernel set for the three).
"""

from __future__ import annotations

import numpy as np
import pytest

import tetherdyn
from tests.system_cases import line_on_free_point
from tetherdyn.system_case import load_system
from tetherdyn.system_run import run_system, system_model

pytestmark = pytest.mark.filterwarnings("ignore::tetherdyn.case.CaseWarning")

G = 9.81


def test_vertical_chain_on_a_body_settles_at_hookes_elongation():
    """A (fixed) -- higher_order line, 10 m -- free body (20 kg, attached 0.5 m above and
    below its centre of gravity) -- lumped-mass line, 5 m -- free point C (5 kg), hanging
    in vacuum, released straight and unstretched, damped axially. At rest each element
    stretches by T h / EA with T the weight below it, so (exact for the straight discrete
    lines too: the midpoint rule on a linear tension) line i stretches by
    (W_below_i + ½ w L_i) L_i / EA. Checked: C's and the body's heights, the pull on A
    (the whole weight) and on the body."""
    case, exact = _chain_case()
    res = run_system(case, progress=False)
    zb = res.bodies["B"]["position"][1][-1, 2]
    zc = res.points["C"]["position"][1][-1, 2]
    # (measured: 1.9e-13 m and 1.0e-12 m from the closed form after 8 s; the stretches
    # are 0.34 m and 0.037 m)
    assert zb == pytest.approx(exact["zb"], abs=1e-9)
    assert zc == pytest.approx(exact["zc"], abs=1e-9)
    total = exact["total"]
    f_a = res.points["A"]["force"][1][-1]
    np.testing.assert_allclose(f_a, [0.0, 0.0, -total], atol=1e-6 * total)
    # on the body: the higher_order line holds up all below it, the lumped line pulls
    # down with all below the body: their sum balances the body's own weight
    f_b = res.bodies["B"]["force"][1][-1]
    np.testing.assert_allclose(f_b, [0.0, 0.0, exact["body"]], atol=1e-6 * total)
    f_h = res.lines["H"].data_vars["end_force"][1][-1]
    assert f_h[2] == pytest.approx(exact["h_end"], rel=1e-6)
    twist = res.lines["H"].data_vars["twist"][1]
    assert np.all(twist == 0.0)  # a system's line ends hold no roll: torque-free


def test_one_higher_order_line_on_a_free_point_is_the_line_with_that_payload():
    """(self) A higher_order line (bending) from a fixed point to a free point body is the
    single-line higher_order case with that body as its free end's payload (mass, volume,
    drag area, ca) in water: dy/dt at the start and the history to rounding."""
    solver = {"method": "rk4", "dt": 1e-3, "duration": 0.2, "output_interval": 0.05}
    single, system = line_on_free_point({"type": "higher_order", "elements": 6}, solver)
    # the rates at t = 0, bent (a lateral kink in the line's middle), moving
    from tetherdyn.models import build_model

    case1 = tetherdyn.load_case(single)
    m1 = build_model(case1)
    sc = load_system(system)
    ms = system_model(sc)
    y1 = m1.initial_state()
    rng = np.random.default_rng(1)
    y1[3:3 * 6] += rng.normal(scale=0.05, size=3 * 5)
    y1[3 * 7 + 3:] += rng.normal(scale=0.1, size=3 * 6)
    ys = ms.initial_state()
    line = ms.line_slices()["1"]
    ys[line] = y1
    ys[ms.point_slice("B")] = np.concatenate([y1[18:21], y1[21 + 18:21 + 21]])
    d1 = np.zeros_like(y1)
    ds_ = np.zeros_like(ys)
    m1.rhs(0.0, y1, d1, m1.make_data())
    ms.rhs(0.0, ys, ds_, ms.make_data())
    np.testing.assert_allclose(ds_[line], d1, rtol=1e-12, atol=1e-9 * np.abs(d1).max())
    # the history
    ds = tetherdyn.simulate(single, progress=False)
    res = run_system(system, progress=False)
    got = res.lines["1"].data_vars
    np.testing.assert_allclose(got["position"][1], ds.position.values, rtol=0, atol=1e-9)
    np.testing.assert_allclose(got["tension"][1], ds.tension.values, rtol=1e-9, atol=1e-6)
    np.testing.assert_allclose(got["curvature"][1], ds.curvature.values, rtol=1e-9,
                               atol=1e-9)
    np.testing.assert_allclose(res.points["A"]["force"][1], ds.start_force.values,
                               rtol=1e-9, atol=1e-6)
    np.testing.assert_allclose(res.points["B"]["force"][1], ds.end_force.values,
                               rtol=1e-9, atol=1e-6)


def _chain_case() -> tuple[dict, dict]:
    """The vertical chain of test_vertical_chain_on_a_body_settles_at_hookes_elongation
    (its docstring) and its closed-form static heights [m] and forces [N]."""
    EA, mpl, L1, L2, MB, MC, arm = 1e4, 1.0, 10.0, 5.0, 20.0, 5.0, 0.5
    tether = {"diameter": 0.01, "mass_per_length": mpl, "EA": EA, "axial_damping": 3e3}
    case = {
        "lines": {
            "H": {"tether": {**tether, "EI": 0.5}, "length": L1,
                  "model": {"type": "higher_order", "elements": 5},
                  "start": {"point": "A"}, "end": {"body": "B", "at": [0.0, 0.0, arm]}},
            "L": {"tether": tether, "length": L2, "model": {"type": "lumped_mass",
                                                            "elements": 3},
                  "start": {"body": "B", "at": [0.0, 0.0, -arm]}, "end": {"point": "C"}}},
        "points": {"A": {"type": "fixed", "position": [0.0, 0.0, 0.0]},
                   "C": {"type": "free", "position": [0.0, 0.0, -L1 - L2 - 2 * arm],
                         "mass": MC}},
        "bodies": {"B": {"type": "free", "position": [0.0, 0.0, -L1 - arm], "mass": MB,
                         "inertia": [2.0, 2.0, 1.0]}},
        "environment": {"fluid_density": 0.0, "gravity": [0.0, 0.0, -G]},
        "solver": {"method": "rk4", "dt": 5e-4, "duration": 8.0, "output_interval": 0.5},
    }
    w = mpl * G
    d2 = (MC * G + 0.5 * w * L2) * L2 / EA
    d1 = ((MC + MB + mpl * L2) * G + 0.5 * w * L1) * L1 / EA
    exact = {"zb": -L1 - arm - d1, "zc": -L1 - L2 - 2 * arm - d1 - d2,
             "total": (MB + MC + mpl * (L1 + L2)) * G, "body": MB * G,
             "h_end": (MB + MC + mpl * L2) * G}
    return case, exact


def test_statics_of_a_system_with_a_higher_order_line():
    """The chain above solved by the system's statics (solve_system: each line by the
    single-line solver between its ends, the free body and point by Newton on their
    force balance): the body and C at Hooke's closed-form heights, the pulls on A and on
    the body the closed form's; a run started from it (initial.shape equilibrium) stays
    still."""
    from tetherdyn.system_statics import solve_system

    case, exact = _chain_case()
    eq = solve_system(case)
    # the statics tolerance is 1e-6 of the weight: heights within that force over the
    # lines' axial stiffness EA / L (~1e-8 m); asserted to 1e-7 m
    assert eq.bodies["B"][2] == pytest.approx(exact["zb"], abs=1e-7)
    assert eq.points["C"][2] == pytest.approx(exact["zc"], abs=1e-7)
    assert np.abs(eq.bodies["B"][:2]).max() < 1e-9 and np.abs(eq.points["C"][:2]).max() < 1e-9
    tol = 1e-6 * exact["total"]
    np.testing.assert_allclose(eq.forces["A"], [0.0, 0.0, -exact["total"]], atol=tol)
    np.testing.assert_allclose(eq.body_forces["B"][:3], [0.0, 0.0, exact["body"]], atol=tol)
    assert eq.residual <= eq.tol
    # a run from it (both its lines' shapes, the body and the point) stays still
    res = run_system({**case, "initial": {"shape": "equilibrium"},
                      "solver": {**case["solver"], "duration": 0.5}}, progress=False)
    zb = res.bodies["B"]["position"][1][:, 2]
    zc = res.points["C"]["position"][1][:, 2]
    assert np.abs(zb - exact["zb"]).max() < 1e-7 and np.abs(zc - exact["zc"]).max() < 1e-7
    f_h = res.lines["H"].data_vars["end_force"][1][0]
    assert f_h[2] == pytest.approx(exact["h_end"], rel=1e-6)
