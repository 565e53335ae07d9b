"""Peer row (reduced): the same cable in MoorDyn 2.7.2 — only where the extra is installed."""

import pytest

pytest.importorskip("moordyn")

from validation.moordyn_peer import VACUUM_TOL, WATER_TOL, check  # noqa: E402


def test_same_cable_as_moordyn():
    row = check(full=False)
    # vacuum: identical equations, so identical trajectories up to round-off
    assert row.values["vacuum_distance"] < VACUUM_TOL
    # water: drag/added mass at element centres vs nodes -> mm-level differences
    assert row.values["water_distance"] < WATER_TOL * 10.0
    assert row.values["water_force_rel"] < WATER_TOL
    assert row.passed
