"""Whole processes as users run them (issue 22): the ROV manoeuvre against real time, and the
seed-003 rubber strip against Exudyn's whole process.

* ROV: ``tetherdyn run rov_manoeuvre.yaml`` (the bundled seed 004 manoeuvre, 57 s
  simulated, higher_order with generalized-α) in fresh processes, numba's cache warm from
  an earlier one; real-time factor = simulated time / process wall time (target ≥ 50).
* Strip: ``tetherdyn run rubber_strip.yaml`` (seed 003, 40 ANCF elements, 2 s,
  generalized-α dt = 0.5 ms, air drag) and the same case in vacuum, against a fresh Python
  process that builds and solves the same strip in Exudyn
  (``validation/peers/exudyn_strip.run_strip``: generalized-α, ρ∞ = 0.8, the same step and
  output interval; with air drag through its per-step Python function, as the seed-003
  peer rows run it). The Exudyn process imports xarray and the lab's peer module for its
  results; their import time, measured inside it, is reported and taken out of its
  "Exudyn alone" time (target: tetherdyn faster than Exudyn).

Every process is timed from outside (wall clock and user + system CPU time); best of
``--repeat`` after one priming run each, the codes interleaved.

    python benchmarks/bench_whole_process.py [--repeat 3] [--out FILE] [--baseline DIR]

``--baseline DIR``: also run the tetherdyn processes from another tree of the package (an
export of an earlier commit, ``git archive COMMIT | tar -x -C DIR``), interleaved with this
checkout's, each with its own numba cache (primed like the others): before/after side by
side in the same run. The two trees' results files are compared (every group, variable,
its values and attributes, every attribute but ``wall_time_s``).

Every bundled example as a whole process against its integration (issue 22: process wall
≤ integration + 1.0 s): benchmarks/bench_startup.py (results_startup.md).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT, cpu_model, ensure_bytecode, package_version, versions

EXAMPLES = ROOT / "src" / "tetherdyn" / "examples"
CLI = "import sys; from tetherdyn.cli import main; sys.exit(main())"
EXUDYN_CHILD = """
import json, sys, time
t0, c0 = time.perf_counter(), time.process_time()
import xarray  # noqa: F401  (run_strip returns a Dataset)
from validation.peers.exudyn_strip import run_strip
t_lab, c_lab = time.perf_counter() - t0, time.process_time() - c0
kw = json.loads(sys.argv[1])
ds = run_strip(**kw)
print(json.dumps({"lab_import_s": t_lab, "lab_import_cpu_s": c_lab,
                  "solve_s": ds.attrs["wall_time_s"]}))
"""


def timed(cmd: list[str], env: dict) -> tuple[float, float, str]:
    """(wall [s], CPU user + system [s], stdout) of one fresh process."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=tempfile.gettempdir())
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
    return wall, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime, proc.stdout


def tetherdyn_run(case: Path, out: Path, env: dict) -> dict:
    import xarray as xr

    wall, cpu, _ = timed([sys.executable, "-c", CLI, "run", str(case), "-q", "-o", str(out)],
                         env)
    with xr.open_dataset(out) as ds:
        integ = float(ds.attrs["wall_time_s"])
        simulated = float(ds.time.values[-1])
    return dict(wall=wall, cpu=cpu, integration=integ, simulated=simulated)


def exudyn_run(kw: dict, env: dict) -> dict:
    wall, cpu, out = timed([sys.executable, "-c", EXUDYN_CHILD, json.dumps(kw)], env)
    inner = json.loads(out.strip().splitlines()[-1])
    return dict(wall=wall, cpu=cpu, integration=inner["solve_s"], lab=inner["lab_import_s"],
                lab_cpu=inner["lab_import_cpu_s"])


def best(runs: list[dict]) -> dict:
    return min(runs, key=lambda r: r["wall"])


def same_results(a: Path, b: Path) -> str:
    """"identical" when two results files hold the same groups, dimensions, variables
    (dims, dtype, attributes, values: NaN equal to NaN) and attributes, wall_time_s
    aside; else what differs."""
    import netCDF4
    import numpy as np

    def read(group, path=""):
        out = {f"{path}/": ({k: len(v) for k, v in group.dimensions.items()},
                            {k: group.getncattr(k) for k in group.ncattrs()
                             if k != "wall_time_s"},
                            {k: (v.dimensions, v.dtype,
                                 {n: v.getncattr(n) for n in v.ncattrs()}, np.asarray(v[...]))
                             for k, v in group.variables.items()})}
        for name, sub in group.groups.items():
            out |= read(sub, f"{path}/{name}")
        return out

    with netCDF4.Dataset(a) as na, netCDF4.Dataset(b) as nb:
        na.set_auto_mask(False)
        nb.set_auto_mask(False)
        ra, rb = read(na), read(nb)
    diff = [] if list(ra) == list(rb) else ["groups"]
    for g in ra:
        if g not in rb:
            continue
        (da, ga, va), (db, gb, vb) = ra[g], rb[g]
        if da != db:
            diff.append(f"{g} dimensions")
        if list(ga) != list(gb) or any(str(ga[k]) != str(gb[k]) for k in ga):
            diff.append(f"{g} attributes " + ", ".join(
                sorted(k for k in {*ga, *gb} if str(ga.get(k)) != str(gb.get(k)))))
        if list(va) != list(vb):
            diff.append(f"{g} variables")
        for k in va:
            if k not in vb:
                continue
            (dims, dt, at, x), (dims_b, dt_b, at_b, y) = va[k], vb[k]
            if (dims, dt, str(at)) != (dims_b, dt_b, str(at_b)):
                diff.append(f"{g}{k} (metadata)")
            elif x.shape != y.shape or not np.array_equal(x, y,
                                                          equal_nan=x.dtype.kind == "f"):
                diff.append(f"{g}{k} (values)")
    return "identical" if not diff else "differ: " + "; ".join(diff)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results_whole_process.md")
    p.add_argument("--baseline", type=Path, default=None,
                   help="another tree of the package (its src/ and lab), run interleaved")
    args = p.parse_args(argv)
    load0 = os.getloadavg()[0]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ensure_bytecode(ROOT / "src")),
                                                         str(ROOT)])}
    work = Path(tempfile.mkdtemp(prefix="tetherdyn_whole_"))
    import yaml

    from validation import seed003_exudyn as S
    from validation.peers.exudyn_strip import exudyn_available

    strip = yaml.safe_load((EXAMPLES / "rubber_strip.yaml").read_text())
    vacuum = dict(strip, environment={**strip["environment"], "fluid_density": 0.0},
                  name="seed 003 rubber strip in vacuum")
    vacuum_case = work / "rubber_strip_vacuum.yaml"
    vacuum_case.write_text(yaml.safe_dump(vacuum, sort_keys=False))
    sv = strip["solver"]
    kw = dict(elements=strip["model"]["elements"], duration=sv["duration"], dt=sv["dt"],
              length=S.LENGTH, width=S.WIDTH, area=S.AREA, density=S.DENSITY, EA=S.EA_STRIP,
              EI=S.EI_STRIP, gravity=S.GRAVITY, release_deg=S.RELEASE_DEG,
              damping=strip["model"]["material_damping"], output_interval=sv["output_interval"],
              solver="generalized_alpha", spectral_radius=sv["rho_inf"])
    jobs = {
        "rov": lambda: tetherdyn_run(EXAMPLES / "rov_manoeuvre.yaml", work / "rov.nc", env),
    }
    base_commit = None
    if args.baseline is not None:
        bdir = args.baseline.resolve()
        benv = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ensure_bytecode(bdir / "src")),
                                                              str(bdir)])}
        base_commit = (bdir / "COMMIT").read_text().strip() if (bdir / "COMMIT").exists() \
            else str(bdir)
        jobs["rov baseline"] = lambda: tetherdyn_run(EXAMPLES / "rov_manoeuvre.yaml",
                                                     work / "rov_b.nc", benv)
        jobs["strip air baseline"] = lambda: tetherdyn_run(EXAMPLES / "rubber_strip.yaml",
                                                           work / "strip_b.nc", benv)
        jobs["strip vacuum baseline"] = lambda: tetherdyn_run(vacuum_case, work / "vac_b.nc",
                                                              benv)
    jobs |= {
        "strip air tetherdyn": lambda: tetherdyn_run(EXAMPLES / "rubber_strip.yaml",
                                                     work / "strip.nc", env),
        "strip vacuum tetherdyn": lambda: tetherdyn_run(vacuum_case, work / "vac.nc", env),
    }
    pairs = [("rov", work / "rov.nc", work / "rov_b.nc"),  # results files, both trees
             ("strip air", work / "strip.nc", work / "strip_b.nc"),
             ("strip vacuum", work / "vac.nc", work / "vac_b.nc")]
    if exudyn_available():
        jobs["strip air Exudyn"] = lambda: exudyn_run(
            dict(kw, cd=strip["tether"]["cd_normal"], air_density=strip["environment"][
                "fluid_density"]), env)
        jobs["strip vacuum Exudyn"] = lambda: exudyn_run(kw, env)
    for job in jobs.values():  # priming: numba's cache written, files in the page cache
        job()
    runs = {k: [] for k in jobs}
    for _ in range(args.repeat):
        for k, job in jobs.items():  # interleaved
            runs[k].append(job())
            print(k, {a: round(b, 3) for a, b in runs[k][-1].items()}, flush=True)
    b = {k: best(v) for k, v in runs.items()}
    rov = b["rov"]
    lines = [
        "# Whole processes: the ROV manoeuvre and the seed-003 strip (issue 22)", "",
        f"Machine: {cpu_model()}, {os.cpu_count()} cores, load average {load0:.2f} before the "
        f"run, {os.getloadavg()[0]:.2f} after. {versions('numba', 'exudyn')}.", "",
        f"Command: `python benchmarks/bench_whole_process.py --repeat {args.repeat}"
        + (f" --baseline DIR` (DIR: `git archive {base_commit} | tar -x -C DIR`)"
           if base_commit else "`") + f". Best of "
        f"{args.repeat} fresh processes each (after one priming run), codes interleaved; CPU "
        "= the process's user + system time.", "",
        "## ROV manoeuvre (`tetherdyn run rov_manoeuvre.yaml`)", "",
        "| code | simulated | process wall | process CPU | integration (wall) | real-time "
        "factor: wall / CPU | ≥ 50× (wall / CPU) |", "|---|---|---|---|---|---|---|"]
    for label, r in (("this checkout", rov), (f"baseline {base_commit}", b.get("rov baseline"))):
        if r is None:
            continue
        lines.append(
            f"| {label} | {r['simulated']:.1f} s | {r['wall']:.2f} s | {r['cpu']:.2f} s | "
            f"{r['integration']:.2f} s | {r['simulated'] / r['wall']:.1f}× / "
            f"{r['simulated'] / r['cpu']:.1f}× | "
            f"{'yes' if r['simulated'] / r['wall'] >= 50 else 'no'} / "
            f"{'yes' if r['simulated'] / r['cpu'] >= 50 else 'no'} |")
    lines += [
        "",
        "## Seed-003 strip: tetherdyn against Exudyn, whole processes", "",
        "| variant | code | process wall | process CPU | integration | lab imports in the "
        "process (wall / CPU) | wall / CPU less lab imports |", "|---|---|---|---|---|---|---|"]
    for variant in ("air", "vacuum"):
        for code in ("tetherdyn", "baseline", "Exudyn"):
            r = b.get(f"strip {variant} {code}")
            if r is None:
                continue
            lab, lab_cpu = r.get("lab", 0.0), r.get("lab_cpu", 0.0)
            name = f"tetherdyn {base_commit}" if code == "baseline" else code
            lines.append(f"| {variant} | {name} | {r['wall']:.2f} s | {r['cpu']:.2f} s | "
                         f"{r['integration']:.2f} s | {lab:.2f} / {lab_cpu:.2f} s | "
                         f"{r['wall'] - lab:.2f} / {r['cpu'] - lab_cpu:.2f} s |")
    lines.append("")
    for variant in ("air", "vacuum"):
        td, ex = b.get(f"strip {variant} tetherdyn"), b.get(f"strip {variant} Exudyn")
        if td and ex:
            ratio = (ex["wall"] - ex["lab"]) / td["wall"]
            cpu_ratio = (ex["cpu"] - ex["lab_cpu"]) / td["cpu"]
            lines.append(f"- {variant}: Exudyn (less its lab imports) / tetherdyn = "
                         f"{ratio:.2f}× by wall time, {cpu_ratio:.2f}× by CPU time (> 1: "
                         f"tetherdyn faster) — {'met' if ratio > 1 else 'NOT met'} / "
                         f"{'met' if cpu_ratio > 1 else 'NOT met'}.")
    if "strip air Exudyn" not in b:
        lines.append(f"- Exudyn not installed ({package_version('exudyn')}): not compared.")
    if base_commit is not None:
        lines += ["", f"Results files, this checkout against {base_commit} (every variable, "
                  "its values and attributes, the attributes but `wall_time_s`):", ""]
        for name, fa, fb in pairs:
            lines.append(f"- {name}: {same_results(fa, fb)}")
    lines.append("")
    args.out.write_text("\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
