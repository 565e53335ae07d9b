"""Seed 000 §5.2 bead model (validation row seed000_bead_static_strain, reduced)."""

from validation.seed000_bead import check


def test_bead_model_static_strain_and_step():
    row = check(full=False)
    # the seed says "approximately one percent": 10 % of that; the continuum value is 0.981 %
    assert abs(row.values["strain"] - 0.01) < 0.001
    # the seed integrates with RK4 at dt = 0.005 s: it must be below our stability limit
    assert row.values["dt_critical"] > 0.005
    assert row.values["swing_ok"]
    assert row.passed
