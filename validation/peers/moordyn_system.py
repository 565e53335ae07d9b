"""Run a whole MoorDyn v2 deck (several lines and points) in MoorDyn 2.7.2 and record every
line's end tensions, every free point's position and every body's pose.

The deck is copied into a work folder and initialised with ``moordyn.Init_NoIC`` (no
initial-condition solve): MoorDyn lays each line from its own start (a catenary between its
points where it finds one, else straight) with the free points where the file puts them.
Those node positions are returned (``initial_nodes``) so that tetherdyn starts from the
same state (:func:`tetherdyn.moordyn_input.moordyn_to_system`'s ``initial_nodes``). The
run calls ``moordyn.Step`` in strides of the output interval (coupled points: none here).

Tensions: ``|GetLineNodeTen(line, 0)|`` and ``(line, N)``, the end segments' tension plus
damping (our ``tension[:, 0]`` / ``tension[:, -1]``); MoorDyn has no value at t = 0, so the
first sample is NaN.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import numpy as np

from . import output_grid
from .moordyn import _moordyn_version, _node_positions, _quiet_fd

__all__ = ["run_moordyn_system"]


def run_moordyn_system(deck: str | Path, *, duration: float,
                       output_interval: float | None = None, ic: bool = False,
                       quiet: bool = True) -> dict:
    """Run a MoorDyn deck with free and fixed points only (no coupled DOFs).

    ``ic``: ``moordyn.Init`` (MoorDyn's initial-condition solve first: the run starts
    from its equilibrium) instead of ``Init_NoIC``.

    Returns dict: ``time`` (n_out,), ``initial_nodes`` {line ID: (N+1, 3)},
    ``initial_points`` {free point ID: (3,)},
    ``start_tension`` / ``end_tension`` {line ID: (n_out,)} [N] (NaN at t = 0),
    ``points`` {free point ID: (n_out, 3)} [m], ``bodies`` {body ID: (n_out, 6)} (position
    [m], MoorDyn's Euler XYZ angles [rad]), ``dt``, ``wall_time_s`` (in moordyn.Step),
    ``moordyn_version``.
    """
    import time

    import moordyn as md

    from tetherdyn.moordyn_input import parse_moordyn_file

    parsed = parse_moordyn_file(deck)
    if any(p.kind == "coupled" for p in parsed.points.values()):
        raise ValueError(f"{parsed.path.name}: coupled points are not driven here")
    dt = parsed.option(("dtM", "DT"), None)
    if dt is None:
        raise ValueError(f"{parsed.path.name}: OPTIONS needs dtM")
    n_steps, stride, n_out = output_grid(duration, dt, output_interval, step="dtM")
    free = [p.id for p in parsed.points.values() if p.kind == "free"]
    tmp = tempfile.TemporaryDirectory(prefix="moordyn_system_")
    infile = Path(tmp.name) / "deck.txt"
    shutil.copyfile(parsed.path, infile)
    system = None
    wall = 0.0
    try:
        with _quiet_fd(quiet):
            system = md.Create(str(infile))
            err = (md.Init if ic else md.Init_NoIC)(system, [], [])
        if err != 0:
            raise RuntimeError(f"moordyn initialisation failed with code {err}")
        lines = {ln.id: (md.GetLine(system, ln.id), ln.n_segments) for ln in parsed.lines}
        points = {pid: md.GetPoint(system, pid) for pid in free}
        bodies = {bid: md.GetBody(system, bid) for bid in parsed.bodies}
        poses = {bid: np.empty((n_out, 6)) for bid in bodies}
        for bid, h in bodies.items():
            poses[bid][0] = [*md.GetBodyPos(h), *md.GetBodyAngle(h)]
        initial = {k: _node_positions(md, h, n + 1) for k, (h, n) in lines.items()}
        t0 = {k: np.full(n_out, np.nan) for k in lines}
        t1 = {k: np.full(n_out, np.nan) for k in lines}
        pts = {pid: np.empty((n_out, 3)) for pid in free}
        for pid, h in points.items():
            pts[pid][0] = md.GetPointPos(h)
        k = 0
        with _quiet_fd(quiet):
            for j in range(1, n_out):
                start = time.perf_counter()
                md.Step(system, [], [], k * dt, stride * dt)
                wall += time.perf_counter() - start
                k += stride
                for lid, (h, n) in lines.items():
                    t0[lid][j] = np.linalg.norm(md.GetLineNodeTen(h, 0))
                    t1[lid][j] = np.linalg.norm(md.GetLineNodeTen(h, n))
                for pid, h in points.items():
                    pts[pid][j] = md.GetPointPos(h)
                for bid, h in bodies.items():
                    poses[bid][j] = [*md.GetBodyPos(h), *md.GetBodyAngle(h)]
    finally:
        if system is not None:
            with _quiet_fd(quiet):
                md.Close(system)
        tmp.cleanup()
    return {"time": np.arange(n_out) * (stride * dt), "initial_nodes": initial,
            "initial_points": {pid: pos[0].copy() for pid, pos in pts.items()},
            "start_tension": t0, "end_tension": t1, "points": pts, "bodies": poses, "dt": dt,
            "wall_time_s": wall, "moordyn_version": _moordyn_version()}
