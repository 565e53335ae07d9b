"""python -m validation [--quick] [--only KEY ...] [--report PATH]: regenerate the report.

Run from a checkout's root (the lab lives beside the installed package, not inside it).
Writes ``docs/validation.md`` (and its JSON store) with figures in ``docs/figures/``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from validation import merge_rows, run_checks, write_report

EXIT_FAILED = 1


def main(argv: list[str] | None = None) -> int:
    """Run the checks and write the report; exit status 1 when a row fails."""
    p = argparse.ArgumentParser(prog="python -m validation",
                                description="run the validation checks, write the report")
    p.add_argument("--quick", action="store_true", help="the reduced checks of the test suite")
    p.add_argument("--only", nargs="*", metavar="KEY", help="run only these checks")
    p.add_argument("--report", default="docs/validation.md")
    args = p.parse_args(argv)
    report = Path(args.report)
    figures = report.parent / "figures"
    figures.mkdir(parents=True, exist_ok=True)
    rows = run_checks(args.only or None, full=not args.quick, figure_dir=figures, echo=print)
    cmd = "python -m validation" + (" --quick" if args.quick else "")
    # --only replaces its own rows and keeps the others of the last report (its JSON store)
    report_rows = merge_rows(rows, report.with_suffix(".json")) if args.only else rows
    write_report(report_rows, report, cmd)
    print(f"wrote {report}")
    skipped = [r.name for r in rows if r.skipped]
    if skipped:
        print(f"not run (optional peers missing): {', '.join(skipped)}")
    return 0 if all(r.passed or r.skipped for r in rows) else EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
