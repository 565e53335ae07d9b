"""Bit-identity of results across a refactor: every bundled example, run by this checkout and
by a reference commit, compared array for array.

    python -m validation.bitwise --reference 663da0b [--seconds 2] [--only NAME ...]

The reference commit's ``src/`` is extracted with ``git archive`` into a temporary folder and
run in a subprocess with that folder first on ``PYTHONPATH``; this checkout's ``src/`` runs in
another subprocess the same way. Each example (``src/tetherdyn/examples/*.yaml`` and the
MoorDyn deck ``*.dat``) runs for a short duration: ``min(solver.duration, max(--seconds,
5 output intervals))``. Every data variable and coordinate of the two results datasets must be
equal bit for bit (``np.array_equal`` with NaN == NaN); attributes (wall times, versions) are
not compared. Exit status 1 when any example differs or fails in one tree only.

This is a "self" check (our code against our code): it shows that a change of structure left
the arithmetic alone, nothing about the physics.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "src" / "tetherdyn" / "examples"

#: run in a subprocess by each tree: argv = [out_dir, seconds, example paths...]
_WORKER = r"""
import json, sys, warnings
from pathlib import Path
import numpy as np
warnings.simplefilter("ignore")
import tetherdyn
from tetherdyn.case import load_case
out, seconds = Path(sys.argv[1]), float(sys.argv[2])
report = {}
for path in map(Path, sys.argv[3:]):
    try:
        if path.suffix == ".dat":
            from tetherdyn.moordyn_input import moordyn_to_case
            case = load_case(moordyn_to_case(str(path), duration=seconds),
                             base_dir=path.parent)
        else:
            case = load_case(path)
        s = case.solver
        duration = min(s.duration, max(seconds, 5 * s.output_interval))
        case = case.with_changes({"solver.duration": duration})
        ds = tetherdyn.simulate(case, progress=False)
        arrays = {f"var:{k}": np.asarray(v.values) for k, v in ds.data_vars.items()}
        arrays.update({f"coord:{k}": np.asarray(v.values) for k, v in ds.coords.items()
                       if v.dtype.kind in "fiub"})
        np.savez(out / f"{path.stem}.npz", **arrays)
        report[path.stem] = {"ok": True, "duration": duration}
    except Exception as exc:  # a failure is a result to compare, not a crash of the check
        report[path.stem] = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
(out / "report.json").write_text(json.dumps(report))
"""


def _extract(reference: str, into: Path) -> Path:
    """``src/`` of a commit, extracted with git archive; returns the folder holding it."""
    tar_path = into / "src.tar"
    with open(tar_path, "wb") as f:
        subprocess.run(["git", "-C", str(ROOT), "archive", reference, "src"], stdout=f,
                       check=True)
    with tarfile.open(tar_path) as tar:
        tar.extractall(into / "tree", filter="data")
    return into / "tree" / "src"


def _run_tree(src: Path, out: Path, seconds: float, examples: list[Path]) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=str(src))
    subprocess.run([sys.executable, "-c", _WORKER, str(out), str(seconds),
                    *map(str, examples)], env=env, check=True, cwd=out)
    return json.loads((out / "report.json").read_text())


def _equal(a: np.ndarray, b: np.ndarray) -> bool:
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind == "f":
        return bool(np.array_equal(a, b, equal_nan=True))
    return bool(np.array_equal(a, b))


def compare(reference: str, seconds: float = 2.0, only: list[str] | None = None,
            echo=print) -> dict[str, str]:
    """Run the examples in both trees; example name -> verdict ("identical" or what differs)."""
    examples = sorted(p for p in EXAMPLES.iterdir() if p.suffix in (".yaml", ".dat"))
    if only:
        examples = [p for p in examples if p.stem in only]
    verdicts: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="bitwise-") as tmp:
        tmp = Path(tmp)
        ref_src = _extract(reference, tmp)
        ref = _run_tree(ref_src, tmp / "ref", seconds, examples)
        new = _run_tree(ROOT / "src", tmp / "new", seconds, examples)
        for p in examples:
            r, n = ref[p.stem], new[p.stem]
            if not (r["ok"] and n["ok"]):
                verdicts[p.stem] = ("both fail alike" if r == n else
                                    f"reference: {r.get('error', 'ok')}; "
                                    f"now: {n.get('error', 'ok')}")
                echo(f"{p.stem:40s} {verdicts[p.stem]}")
                continue
            a = np.load(tmp / "ref" / f"{p.stem}.npz")
            b = np.load(tmp / "new" / f"{p.stem}.npz")
            differ = sorted(k for k in set(a.files) | set(b.files)
                            if k not in a.files or k not in b.files or not _equal(a[k], b[k]))
            verdicts[p.stem] = ("identical" if not differ else "differs: " + ", ".join(differ))
            echo(f"{p.stem:40s} {n['duration']:8.3g} s  {len(a.files):3d} arrays  "
                 f"{verdicts[p.stem]}")
    return verdicts


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m validation.bitwise", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--reference", required=True, help="commit to compare against")
    p.add_argument("--seconds", type=float, default=2.0,
                   help="simulated time per example (at least 5 output intervals) [2]")
    p.add_argument("--only", nargs="*", metavar="NAME", help="example names (file stems)")
    args = p.parse_args(argv)
    verdicts = compare(args.reference, args.seconds, args.only)
    bad = [k for k, v in verdicts.items() if v not in ("identical", "both fail alike")]
    print(f"{len(verdicts) - len(bad)} of {len(verdicts)} examples bit-identical to "
          f"{args.reference}" + (f"; differ: {', '.join(bad)}" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
