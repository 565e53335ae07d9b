"""Cost of the two ``model.twist`` choices of higher_order: one compiled right-hand side.

The seed 004 ROV tether (two roll-holding ends, GJ = 0.11) in its initial shape, N = 20,
40, 80: nanoseconds per node of one ``rhs`` evaluation in a compiled loop, with
``parallel_transport`` (8 substeps per element, Richardson) and ``seed_b13`` (App. B: one
midpoint torsion per element), and with GJ = 0 (no twist evaluated) as the floor.

    python benchmarks/bench_twist.py [--out benchmarks/results_twist.md]
"""

from __future__ import annotations

import argparse
import datetime
import time

from _common import compiled_rhs_time, cpu_model, versions

from tetherdyn.case import load_case
from tetherdyn.models import build_model
from validation import seed004_rov as R

SIZES = (20, 40, 80)


def ns_per_node(n: int, gj: float, twist: str) -> float:
    """Best ns per node of one compiled rhs call on the ROV tether's initial state."""
    model = build_model(load_case(R.rov_case(n, gj=gj, twist=twist, dt=1e-4, duration=0.1)))
    us, _ = compiled_rhs_time(model, model.initial_state(), 0.5, 3)
    return 1e3 * us / (n + 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=None, help="also write the markdown here")
    args = ap.parse_args()
    t0 = time.time()
    rows = [(n, ns_per_node(n, 0.0, "parallel_transport"),
             ns_per_node(n, R.GJ, "parallel_transport"), ns_per_node(n, R.GJ, "seed_b13"))
            for n in SIZES]
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# higher_order: cost of the twist choices (one right-hand side)", "",
        f"- Date: {now}; the benchmark took {time.time() - t0:.0f} s",
        f"- Machine: {cpu_model()} (shared with other work)",
        f"- Versions: {versions('numba', 'numpy')}",
        "- Command: `python benchmarks/bench_twist.py --out benchmarks/results_twist.md`",
        "- Case: seed 004 ROV tether (validation/seed004_rov.py) in its initial shape, both "
        "ends holding their roll; best of 3 timings of a compiled loop of rhs calls.", "",
        "| N | GJ = 0 (no twist) [ns/node] | parallel_transport [ns/node] | seed_b13 [ns/node] |",
        "|--:|--:|--:|--:|"]
    lines += [f"| {n} | {a:.0f} | {b:.0f} | {c:.0f} |" for n, a, b, c in rows]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
