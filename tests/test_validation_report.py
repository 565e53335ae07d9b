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


def test_every_check_declares_its_reference_kind():
    import pytest

    from validation import REFERENCES, all_checks, register

    checks = all_checks()
    assert checks and all(spec.reference in REFERENCES for spec in checks.values())
    # the seed-003 rows that compare our solver only with itself say so
    assert checks["seed003_strip"].reference == "self"
    assert checks["seed003_identification"].reference == "self"
    with pytest.raises(ValueError, match="reference"):
        register("no_such_check", "analytic", "t", reference="ours")


def test_report_opens_with_the_summary_table(tmp_path):
    rows = [_row("winch_lowering", "analytic", "x"), _row("seed003_strip", "seed", "y")]
    rows[0].reference, rows[1].reference = "analytic", "self"
    rows[1].passed = False
    text = write_report(rows, tmp_path / "v.md", "cmd").read_text()
    summary = text.index("## Summary")
    assert summary < text.index("## Analytic") and summary < text.index("## Seed")
    assert "| seed003 strip | seed | self | **FAIL** |" in text
    assert "2 rows: analytic 1 (1 pass, 0 fail); self 1 (0 pass, 1 fail)." in text


def test_a_store_without_reference_kinds_is_labelled_from_the_registry(tmp_path):
    import json

    store = tmp_path / "validation.json"
    store.write_text(json.dumps([{"key": "seed003_strip", "name": "s", "tier": "seed",
                                  "expected": "e", "ours": "o", "tolerance": "t",
                                  "passed": True}]))
    (row,) = merge_rows([], store)
    assert row.reference == "self"
