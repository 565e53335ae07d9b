"""Seed 004 §4.6.3 tortuous beam (validation/seed004_tortuous.py), reduced version."""

import math

import pytest

from validation import seed004_tortuous as st


@pytest.fixture(scope="module")
def row():
    return st.check(full=False)


def test_torsion_force_output_is_the_k_tau_formula(row):
    # at release the output equals an independent quadrature of (GJτ/L_u)∫r'×r'' ds over
    # the spline (GJτ = T): both exact, so 1e-9; its largest value is T/R (uniform arc)
    assert row.values["formula_error"] < st.FORMULA_TOL
    assert abs(row.values["initial_peak"] - st.TORQUE / st.RADIUS) < 0.02 * st.TORQUE / st.RADIUS


def test_free_beam_straightens_towards_x_in_its_plane(row):
    # seed Fig. 4.10: overdamped, asymptotically straight along +X; no torque, no twist:
    # the motion stays in the arc's plane (to rounding)
    assert row.values["straight_ok"]
    a0, a1 = row.values["angle"]
    assert a0 == pytest.approx(math.pi / 4, rel=1e-9) and a1 < 0.75 * a0
    assert row.values["z_free"] < 1e-9


def test_torque_makes_conical_traces(row):
    # seed Fig. 4.11: the follower torque winds the beam about X (conical node traces)
    assert row.values["cone_ok"]
    assert row.values["turns"] > 1.0 and row.values["tip_gap"] > 1.0


def test_twist_choice_does_not_enter_a_torque_driven_beam(row):
    # eq. (4.34) with the end torque given: GJτ = T whatever App. B's α would be, so
    # model.twist: seed_b13 runs bit-identical to parallel transport
    assert row.values["studies"]["twist_identical"]


@pytest.mark.xfail(reason="the seed's 140 / 55 / 16 N at 0.2 / 5 / 10 s are not reproduced: "
                          "47 N = T/R at 0.2 s, 47-57 N for N = 6-48 "
                          "(docs/seed004_bending.md)", strict=False)
def test_torsional_force_magnitudes_match_the_seed(row):
    assert row.values["peaks_ok"]
