"""Towpoint velocity tables (t, vx, vy, vz) integrated exactly for position."""

import numpy as np
import pytest

from tetherdyn.boundary import load_trajectory
from tetherdyn.case import CaseError, load_case

#: seed 004 Table 2.3 (deceleration tow) as speeds: 1.286 m/s for 60 s, a linear ramp to
#: 0.514 m/s over 60 s, then constant
DECELERATION = {"t": [0.0, 60.0, 120.0, 200.0], "vx": [1.286, 1.286, 0.514, 0.514],
                "vy": [0.0] * 4, "vz": [0.0] * 4}


def test_table_2_3_integrates_to_the_exact_ramp():
    traj = load_trajectory(DECELERATION, None, origin=(0.0, 0.0, -5.0))
    # 77.16 m at 60 s; the exact ramp gives 131.16 m at 120 s (the seed prints 131.2; its
    # rounded ½a = −0.0065 would give 130.92 m)
    for t, x in ((60.0, 77.16), (120.0, 131.16), (200.0, 131.16 + 0.514 * 80.0)):
        p, v, a = traj.evaluate(t - 1e-9)
        assert p[0] == pytest.approx(x, abs=1e-6)
        assert p[2] == -5.0
    p, v, a = traj.evaluate(90.0)
    assert v[0] == pytest.approx(0.9, abs=1e-12)  # mid-ramp speed
    assert a[0] == pytest.approx((0.514 - 1.286) / 60.0, rel=1e-12)
    # position is C1: the velocity is continuous at every row
    for t in DECELERATION["t"][1:-1]:
        assert traj.evaluate(t - 1e-7)[1][0] == pytest.approx(traj.evaluate(t + 1e-7)[1][0],
                                                              abs=1e-8)


def test_velocity_table_in_a_case(tmp_path):
    case = {
        "tether": {"length": 30.0, "diameter": 0.03, "mass_per_length": 2.7, "EA": 6.7e7},
        "model": {"type": "lumped_mass", "elements": 3},
        "start": {"type": "prescribed", "trajectory": DECELERATION, "position": [1.0, 0, 0]},
        "initial": {"direction": [0.0, 0.0, -1.0]},
        "solver": {"dt": 0.001, "duration": 1.0},
    }
    c = load_case(case)
    assert c.end_state("start", 60.0)[0][0] == pytest.approx(1.0 + 77.16)
    bad = {**case, "start": {**case["start"], "interpolation": "cubic"}}
    with pytest.raises(CaseError, match="start.trajectory: a velocity table"):
        load_case(bad)
    table = {"t": [0.0, 1.0], "x": [0.0, 1.0], "y": [0.0, 0.0], "z": [0.0, 0.0]}
    bad = {**case, "start": {"type": "prescribed", "trajectory": table, "position": [0, 0, 0]}}
    with pytest.raises(CaseError, match="start.trajectory: a position table"):
        load_case(bad)
    np.testing.assert_allclose(load_case({**case, "start": {"type": "prescribed",
                                                             "trajectory": table}})
                               .end_state("start", 0.5)[0], [0.5, 0.0, 0.0], atol=1e-12)
