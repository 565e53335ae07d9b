"""Seed 003 against Exudyn (optional peer): the reduced peer rows, skipped without exudyn."""

from __future__ import annotations

import pytest

from validation import seed003_exudyn
from validation.peers import exudyn_strip

needs_exudyn = pytest.mark.skipif(not exudyn_strip.exudyn_available(),
                                  reason="optional peer exudyn not installed")


@needs_exudyn
def test_strip_tip_path_matches_exudyn_within_one_percent_of_the_length():
    row = seed003_exudyn.check_strip(full=False)
    assert row.passed, row.ours
    v = row.values
    assert v["max_tip"] < 0.01 * seed003_exudyn.LENGTH
    # without air the two codes solve the same equations: same path until the whip
    assert v["max_tip_vacuum_before_whip"] < 5e-3
    # the drag load's one-step lag in Exudyn is far below the tolerance
    assert v["exudyn_dt_half"] < 1e-3


@needs_exudyn
def test_identification_recovers_exudyns_damping_and_drag(dask_client):
    row = seed003_exudyn.check_identification(full=False, client=dask_client)
    assert row.passed, row.ours
    assert abs(row.values["err_D"]) < 0.05 and abs(row.values["err_cd"]) < 0.05
    assert row.values["n_failed"] == 0


def test_rows_are_not_run_without_exudyn(monkeypatch):
    monkeypatch.setattr(seed003_exudyn, "exudyn_available", lambda: False)
    for check in (seed003_exudyn.check_strip, seed003_exudyn.check_identification):
        row = check(full=False)
        assert row.skipped and not row.passed
