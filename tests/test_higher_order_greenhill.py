"""higher_order's torsion coupling against Greenhill's critical torque (reduced row)."""

from validation.higher_order_torsion import check


def test_greenhill_critical_torque():
    row = check(full=False)
    # second-order convergence of the discrete rod onto the closed form 2πEI/L
    assert 1.8 < row.values["order"][0.0] < 2.2
    assert abs(row.values["richardson"][0.0]) < 5e-4
    # the discrete rod is stiffer: the critical torque is approached from above
    assert 0 < row.values["errors"]["0.0_20"] < 0.01
    assert row.passed
