"""The validation report: each row is a check that runs simulations and compares them with
something independent (analytic solution, another formulation, a seed's number, a peer).

Every check is a function ``check(full: bool) -> Row`` registered with :func:`register`.
``full=False`` is the reduced version the test suite runs (at most ~30 s, still asserting
the physics); ``full=True`` is the report's version. ``python -m validation`` (or
``python -m tetherdyn.validation``) runs them all and writes ``docs/validation.md``.
"""

from __future__ import annotations

import importlib
import pkgutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Row", "register", "save_figure", "all_checks", "run_checks", "write_report", "TIERS",
           "REFERENCES", "peer_not_installed", "merge_rows"]

#: the report's tiers, in order
TIERS = ("analytic", "cross-formulation", "seed", "peer")
#: what a check's criterion compares our results against: a closed form or conservation law
#: (``analytic``), a number or statement of a seed (``seed``), another code run side by side
#: (``peer``), or only our own code (``self``: finer runs, another of our formulations,
#: markers our solver generated, properties such as elitism) — never enough on its own
REFERENCES = ("analytic", "seed", "peer", "self")


@dataclass
class Row:
    """One line of the validation report."""

    name: str
    tier: str
    expected: str
    ours: str
    tolerance: str
    passed: bool
    details: str = ""
    figure: str | None = None  # file name under docs/figures
    seconds: float = 0.0
    values: dict = field(default_factory=dict)  # raw numbers for tests
    skipped: bool = False  # an optional peer is not installed: verified nothing, not passed
    key: str = ""  # the check's registry key (set by run_checks)
    reference: str = ""  # one of REFERENCES (set by run_checks from the registration)


@dataclass(frozen=True)
class CheckSpec:
    key: str
    tier: str
    title: str
    func: Callable[..., Row]
    reference: str


_REGISTRY: dict[str, CheckSpec] = {}


def register(key: str, tier: str, title: str, *, reference: str
             ) -> Callable[[Callable[..., Row]], Callable[..., Row]]:
    """Decorator: register ``func(full: bool, figure_dir: Path | None) -> Row``.

    ``reference``: what the check's criterion compares against, one of :data:`REFERENCES`
    (``self`` when only our own code is on the other side)."""
    if tier not in TIERS:
        raise ValueError(f"unknown tier {tier!r}")
    if reference not in REFERENCES:
        raise ValueError(f"check {key!r}: reference must be one of {REFERENCES}, "
                         f"not {reference!r}")

    def deco(func: Callable[..., Row]) -> Callable[..., Row]:
        _REGISTRY[key] = CheckSpec(key, tier, title, func, reference)
        return func

    return deco


def save_figure(fig, figure_dir: Path, name: str) -> str:
    """Lay out and write a check's figure (150 dpi) under figure_dir; returns its file name."""
    fig.tight_layout()
    figure_dir.mkdir(parents=True, exist_ok=True)
    fig.savefig(figure_dir / name, dpi=150)
    return name


def peer_not_installed(name: str, expected: str, tolerance: str, install: str) -> Row:
    """The row of a peer check whose optional package is missing: not run, not passed."""
    return Row(name=name, tier="peer", expected=expected,
               ours=f"not run: the peer is not installed ({install})", tolerance=tolerance,
               passed=False, skipped=True,
               details="Optional peer (`pip install -e \".[peers]\"`); install it to run "
                       "this row.")


def all_checks() -> dict[str, CheckSpec]:
    """Every registered check: each module of this package registers its own on import."""
    for info in pkgutil.iter_modules(__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}")
    return dict(sorted(_REGISTRY.items(), key=lambda kv: (TIERS.index(kv[1].tier), kv[0])))


def run_checks(keys: list[str] | None = None, *, full: bool = True,
               figure_dir: Path | None = None, echo: Callable[[str], None] | None = None
               ) -> list[Row]:
    checks = all_checks()
    rows = []
    for key, spec in checks.items():
        if keys and key not in keys:
            continue
        t0 = time.perf_counter()
        row = spec.func(full=full, figure_dir=figure_dir)
        row.seconds = time.perf_counter() - t0
        row.key = key
        row.reference = spec.reference
        rows.append(row)
        if echo:
            verdict = "PASS" if row.passed else "SKIP" if row.skipped else "FAIL"
            echo(f"{verdict}  {row.name}  ({row.seconds:.1f} s)")
    return rows


#: the Row fields kept in the report's JSON store (``values`` hold arrays for tests only)
_STORED = ("key", "name", "tier", "expected", "ours", "tolerance", "passed", "details",
           "figure", "seconds", "skipped", "reference")


def merge_rows(rows: list[Row], store: Path) -> list[Row]:
    """``rows`` plus the rows of the other checks kept in ``store`` (the JSON written with
    the last report), in the registry's order: a partial run (``--only``) updates its own
    lines and keeps the rest. Rows of checks no longer registered are dropped."""
    import json

    checks = all_checks()
    kept: dict[str, Row] = {}
    if store.is_file():
        for d in json.loads(store.read_text()):
            kept[d["key"]] = Row(**{k: d[k] for k in _STORED if k in d})
    for r in rows:
        kept[r.key] = r
    for k, r in kept.items():  # a store written before the reference kinds: label it now
        if k in checks:
            r.reference = checks[k].reference
    return [kept[k] for k in checks if k in kept]


def _verdict(r: Row) -> str:
    return "pass" if r.passed else "not run" if r.skipped else "**FAIL**"


def summary_table(rows: list[Row]) -> list[str]:
    """The report's opening lines: one line per row (check, kind of reference, verdict) and
    the counts, so that a reader sees at once which rows rest only on our own code."""
    lines = ["## Summary", "",
             "Reference: what a row's criterion compares against — `analytic` (closed form, "
             "conservation law), `seed` (a seed's number or statement), `peer` (another code "
             "run side by side), `self` (only our own code: finer runs, another of our "
             "formulations, our own synthetic data).", ""]
    counts = []
    for ref in REFERENCES:
        mine = [r for r in rows if r.reference == ref]
        if mine:
            counts.append(f"{ref} {len(mine)} ({sum(r.passed for r in mine)} pass, "
                          f"{sum(not r.passed and not r.skipped for r in mine)} fail"
                          + (f", {sum(r.skipped for r in mine)} not run"
                             if any(r.skipped for r in mine) else "") + ")")
    lines += [f"{len(rows)} rows: " + "; ".join(counts) + ".", "",
              "| check | tier | reference | verdict |", "|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r.name} | {r.tier} | {r.reference or '?'} | {_verdict(r)} |")
    return lines + [""]


def write_report(rows: list[Row], path: Path, command: str) -> Path:
    """Write the tiered markdown report (expected, ours, tolerance, verdict, command), and
    its rows as JSON next to it (``validation.json``, read by :func:`merge_rows`)."""
    lines = [
        "# Validation report",
        "",
        f"Regenerate with `{command}` (figures in `docs/figures/`). Each row runs the",
        "simulations named in its check (source: `validation/`); the test suite",
        "runs a reduced version of every row and asserts the same physics.",
        "",
        *summary_table(rows),
    ]
    for tier in TIERS:
        tier_rows = [r for r in rows if r.tier == tier]
        lines += [f"## {tier.capitalize()}", ""]
        if not tier_rows:
            lines += ["(no checks in this tier yet)", ""]
            continue
        lines += ["| check | reference | expected | ours | tolerance | verdict | time |",
                  "|---|---|---|---|---|---|---|"]
        for r in tier_rows:
            lines.append(f"| {r.name} | {r.reference or '?'} | {r.expected} | {r.ours} | "
                         f"{r.tolerance} | {_verdict(r)} | {r.seconds:.0f} s |")
        lines.append("")
        for r in tier_rows:
            if r.details or r.figure:
                lines.append(f"**{r.name}.** {r.details}")
                if r.figure:
                    lines += ["", f"![{r.name}](figures/{r.figure})"]
                lines.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    import json

    path.with_suffix(".json").write_text(json.dumps(
        [{k: getattr(r, k) for k in _STORED} for r in rows], indent=1, ensure_ascii=False))
    return path
