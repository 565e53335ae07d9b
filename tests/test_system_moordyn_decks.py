"""MoorDyn's own test decks with points and bodies against MoorDyn 2.7.2 (issue 19; rows in
validation/moordyn_test_decks.py), and what the importer needed for them: a VIV lift
coefficient on one-segment lines (MoorDyn's lift acts on inner nodes only) and zero
gravity with a calm sea (MoorDyn's g = 0 decks)."""

from __future__ import annotations

import pytest

from tetherdyn.case import CaseError, load_case
from tetherdyn.moordyn_input import parse_moordyn_file
from validation.moordyn_test_decks import ROTATING_DECK, TOL_MOTION, TOL_TENSION


def test_moordyn_pendulum_deck_runs_as_moordyn_does():
    """tests/Mooring/pendulum.txt (a 1e5 kg free point on a 20-segment line, no dtM: the
    step from its CFL), same nodes, RK4 at MoorDyn's step: tension within the issue's 2 %
    of peak (measured 9e-11) and the point's path within 1 % of its range (measured 2e-14).
    Reduced row moordyn_system_pendulum (a quarter period of the row's five)."""
    pytest.importorskip("moordyn")
    from validation.moordyn_test_decks import check_pendulum

    row = check_pendulum(full=False)
    v = row.values
    assert 2e-4 < v["dt"] < 3e-4  # MoorDyn's step from CFL = 0.1 (the deck has no dtM)
    assert v["range"] > 5.0  # the point really swings (m)
    assert v["worst_rel"] < TOL_TENSION
    assert v["motion_rel"] < TOL_MOTION
    assert row.passed


def test_moordyn_rotating_body_deck_runs_as_moordyn_does():
    """tests/Mooring/body_tests/rotatingBody.txt, the coupled point driven on
    tests/bodies.cpp's path: tensions within 2 % of peak against MoorDyn's default RK2
    (measured 0.17 % over 1 s) and 0.045 % against MoorDyn RK4; the body (its origin and
    its point 8) within 1 % of its range. Reduced row moordyn_system_rotating_body (1 s of
    7.6)."""
    pytest.importorskip("moordyn")
    from validation.moordyn_test_decks import check_rotating_body

    row = check_rotating_body(full=False)
    v = row.values
    assert v["scheme"] == "2nd order Runge-Kutta"  # the deck gives no tScheme
    assert v["arm_range"] > 0.3  # the body really turns (m)
    assert v["worst_rel"] < TOL_TENSION
    assert max(v["centre_rel"], v["arm_rel"]) < TOL_MOTION
    assert v["rk4_worst_rel"] < v["worst_rel"]  # the same scheme agrees closer
    assert row.passed


def test_viv_lift_on_one_segment_lines_is_taken_with_a_note(tmp_path):
    """rotatingBody.txt's 11-column LINE TYPES row has Cl = 0.05 (MoorDyn 2.7.2 reads it by
    position); MoorDyn's VIV lift acts on inner nodes only (Line.cpp), and its lines have
    one segment: taken, with a note. With a line of two segments it is refused, naming the
    row and the line."""
    deck = parse_moordyn_file(ROTATING_DECK)
    assert any("Cl = 0.05: not used" in w for w in deck.warnings)
    assert deck.line_types["nylon"].CaAx == pytest.approx(1.6)  # by position, as MoorDyn
    two = tmp_path / "two_segments.txt"
    two.write_text(ROTATING_DECK.read_text().replace(
        "7        nylon      8         9    1.0        1", "7        nylon      8         9"
        "    1.0        2"))
    with pytest.raises(CaseError, match=r"LINE TYPES row 1: Cl = 0.05: .*line 7"):
        parse_moordyn_file(two)


def _case(**environment):
    return load_case(dict(
        tether=dict(length=10.0, diameter=0.05, mass_per_length=20.0, EA=1e7),
        model=dict(type="lumped_mass", elements=4), solver=dict(dt=1e-3, duration=0.01),
        environment={"fluid_density": 1025.0, **environment}))


def test_zero_gravity_takes_a_calm_sea_but_not_waves():
    """g = 0 keeps z up (MoorDyn's g = 0 decks have a surface and a seabed); waves need g
    for their dispersion and are refused."""
    assert _case(gravity=[0.0, 0.0, 0.0], water_level=0.0, seabed=dict(z=-70.0))
    with pytest.raises(CaseError, match="zero gravity only without waves"):
        _case(gravity=[0.0, 0.0, 0.0], water_level=0.0,
              waves=dict(type="airy", height=1.0, period=6.0))
