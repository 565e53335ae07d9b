"""Seed 004 §2.3 rows (reduced): Chapman's steady turns and the Vaz & Patel tows."""

from __future__ import annotations

import math

import pytest

from tetherdyn.hydro import loading_function_normal
from validation import seed004_towing as tow


def test_seed_data_and_the_straight_tow_balance():
    # digest §1 / §7 rows 4-5: the derived cable and depressor data
    assert tow.wet_weight() == pytest.approx(17.80, abs=0.01)
    assert (tow.FISH_DENSITY - tow.RHO_W) * tow.FISH_VOLUME * tow.G == pytest.approx(423.0,
                                                                                    abs=0.1)
    assert tow.length_scale() == pytest.approx(15.96, abs=0.01)
    # the straight-tow inclination solves w cos(phi) = 1/2 rho d C_D U^2 f_p(phi)
    phi = tow.straight_tow_angle(1.235)
    q = 0.5 * tow.RHO_W * tow.HA_DIAMETER * tow.HA_CD * 1.235**2
    assert tow.wet_weight() * math.cos(phi) == pytest.approx(
        q * loading_function_normal(phi), rel=1e-10)
    # the quasi-static shooting solver's straight limit (with the depressor) lies between
    # the bare cable's line and the vertical: the body pulls the end down
    qs = tow.quasi_static_turn(math.inf)
    assert qs["body_depth"] > tow.CHAPMAN_LENGTH * math.sin(tow.straight_tow_angle(1.78))


def test_chapman_turns_reduced():
    row = tow.check_chapman(full=False)
    v = row.values
    # the row's verdict is every check, the seed's 3 % on 6253 N included
    assert row.passed == all(v["checks"].values())
    assert v["checks"]["n10_vs_quasi_static"] and v["checks"]["limit_vs_quasi_static"]
    assert v["checks"]["chapman_6346"] and v["checks"]["onset"]
    # N = 10 and 20 settled 71.4 m turns: the towpoint holder force converges on the
    # continuous quasi-static cable (0.3 % at N = 10, 0.1 % at N = 20)
    qs = v["quasi_static_71"]
    assert v["holder_force"][0] == pytest.approx(qs, rel=3e-3)
    assert v["holder_force"][1] == pytest.approx(qs, rel=1e-3)
    # the first element's mean tension rises towards it (Fig. 2.7(a))
    t1 = v["first_element_tension"]
    assert t1[0] < t1[1] < qs
    # Richardson (p = 1) over N = 10, 20 overshoots the power-law limit slightly: 1 %
    assert v["t_inf"] == pytest.approx(qs, rel=1e-2)
    # normal drag only reproduces Chapman's 6346 N (0.2 %)
    assert v["quasi_static_71_cross_flow"] == pytest.approx(tow.CHAPMAN_T71, rel=2e-3)
    # the loading functions' tangential part f_q adds tension along the cable
    assert v["quasi_static_71_normal_only"] < qs
    # transition onset near Chapman's 1.264
    assert abs(v["onset_depth"] - tow.CRITICAL_RATIO) < 0.1
    # drop-down: the 71.4 m turn sits far deeper than the gentle 714 m turn
    assert v["turns"][71.4]["depth"] > 2.0 * v["turns"][714.0]["depth"]


@pytest.mark.xfail(reason="seed 004 §2.3.2: 6253 N ±3 %; the continuous cable with the "
                          "seed's loading functions carries 6470 N (+3.5 %): f_q adds 114 N, "
                          "and the seed's value lies 1.5 % below Chapman's normal-drag-only "
                          "6346 N", strict=False)
def test_71m_turn_tow_off_tension_within_3_percent_of_the_seed():
    # our N -> infinity limit is this continuous cable's (0.06 %, the full row)
    t = tow.quasi_static_turn(71.4)["tow_off_tension"]
    assert abs(t / tow.SEED_T71 - 1.0) <= tow.SEED_T71_TOLERANCE


def test_vaz_patel_straight_tows_reduced():
    row = tow.check_straight(full=False)
    assert row.passed, row.details
    v = row.values
    for name, speeds in (("acceleration", (0.566, 1.235)), ("deceleration", (1.286, 0.514))):
        for key, speed in zip(("before", "after"), speeds, strict=True):
            r = v[name][key]
            assert r["speed"] == speed
            assert r["angle_deg"] == pytest.approx(r["analytic_deg"], abs=0.01)
            assert r["tension"] == pytest.approx(r["analytic_tension"], rel=5e-4)
    # gravity-driven deceleration transients outlast thrust-driven acceleration ones
    assert v["deceleration"]["settling_after_ramp"] > v["acceleration"]["settling_after_ramp"]
