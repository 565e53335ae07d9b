"""Peer rows when the optional peer is missing: reported as not run, never as passed."""

from __future__ import annotations

from validation import moordyn_peer, write_report
from validation.peers import moordyn


def test_missing_peer_is_not_run_and_not_passed(monkeypatch, tmp_path):
    monkeypatch.setattr(moordyn, "moordyn_available", lambda: False)
    row = moordyn_peer.check(full=False)
    assert row.skipped and not row.passed
    report = write_report([row], tmp_path / "report.md", "python -m validation")
    assert "| not run |" in report.read_text()
