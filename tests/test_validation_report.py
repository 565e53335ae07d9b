"""The validation report: a partial run (--only) keeps the other rows of the last report."""

from validation import Row, merge_rows, write_report


def _row(key: str, tier: str, ours: str) -> Row:
    return Row(name=key.replace("_", " "), tier=tier, expected="e", ours=ours, tolerance="t",
               passed=True, key=key)


def test_partial_run_updates_its_rows_and_keeps_the_others(tmp_path):
    report = tmp_path / "validation.md"
    old = [_row("winch_lowering", "analytic", "old"), _row("winch_momentum", "analytic", "m")]
    write_report(old, report, "python -m validation")
    assert (tmp_path / "validation.json").is_file()
    rows = merge_rows([_row("winch_lowering", "analytic", "new")], tmp_path / "validation.json")
    assert [r.key for r in rows] == ["winch_lowering", "winch_momentum"]
    assert [r.ours for r in rows] == ["new", "m"]
    write_report(rows, report, "python -m validation")
    text = report.read_text()
    assert "| new |" in text and "| m |" in text and "| old |" not in text


def test_rows_of_unregistered_checks_are_dropped(tmp_path):
    write_report([_row("no_such_check", "analytic", "x")], tmp_path / "v.md", "cmd")
    assert merge_rows([], tmp_path / "v.json") == []
