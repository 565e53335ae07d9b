"""Run a whole MoorDyn v2 deck (several lines and points) in MoorDyn 2.7.2 and record every
line's end tensions, every free point's position and every body's pose.

The deck is copied into a work folder and initialised with ``moordyn.Init_NoIC`` (no
initial-condition solve): MoorDyn lays each line from its own start (a catenary between its
points where it finds one, else straight) with the free points where the file puts them.
Those node positions are returned (``initial_nodes``) so that tetherdyn starts from the
same state (:func:`tetherdyn.moordyn_input.moordyn_to_system`'s ``initial_nodes``). The
run calls ``moordyn.Step`` in strides of the output interval; with coupled points one dtM
per call, each point given ``motions[id](t)`` and the secant velocity to ``motions[id](t +
dtM)`` (MoorDyn moves a coupled point at the given velocity through the step: it lands on
the next sample, a piecewise-linear path). A deck without dtM runs at MoorDyn's own step
from its CFL (MoorDyn2.cpp: the smallest of the objects' ``cfl2dt``), read after Init.

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


def moordyn_step(deck: str | Path) -> float:
    """MoorDyn 2.7.2's time step on ``deck`` [s]: its dtM, else the step its CFL gives
    (computed in Init; the python binding's GetDt returns nothing, cmoordyn's does)."""
    import cmoordyn
    import moordyn as md

    from tetherdyn.moordyn_input import parse_moordyn_file

    coupled = [p for p in parse_moordyn_file(deck).points.values() if p.kind == "coupled"]
    with tempfile.TemporaryDirectory(prefix="moordyn_dt_") as tmp:
        infile = Path(tmp) / "deck.txt"
        shutil.copyfile(deck, infile)
        with _quiet_fd(True):
            system = md.Create(str(infile))
            try:
                md.Init_NoIC(system, *_coupled_state(coupled, {}, 0.0, 1.0))
                return float(cmoordyn.get_dt(system))
            finally:
                md.Close(system)


def _coupled_state(coupled: list, motions: dict, t: float, dt: float
                   ) -> tuple[list[float], list[float]]:
    """The coupled points' positions at t [m] and secant velocities to t + dt [m/s], in ID
    order (a point without a motion held where the file puts it)."""
    x: list[float] = []
    v: list[float] = []
    for p in coupled:
        f = motions.get(p.id)
        r0 = np.asarray(p.r if f is None else f(t), dtype=float)
        r1 = r0 if f is None else np.asarray(f(t + dt), dtype=float)
        x += list(r0)
        v += list((r1 - r0) / dt)
    return x, v


def run_moordyn_system(deck: str | Path, *, duration: float,
                       output_interval: float | None = None, ic: bool = False,
                       quiet: bool = True, motions: dict | None = None,
                       scheme: str | None = None) -> dict:
    """Run a MoorDyn deck with fixed, free and coupled points and fixed or free bodies.

    ``ic``: ``moordyn.Init`` (MoorDyn's initial-condition solve first: the run starts
    from its equilibrium) instead of ``Init_NoIC``. ``motions``: ``{coupled point ID:
    f(t) -> position (3,) [m]}`` (others held where the file puts them). ``scheme``:
    MoorDyn's time scheme instead of the deck's (e.g. "RK4"; a deck without tScheme runs
    MoorDyn-C 2.7.2's default RK2).

    Returns dict: ``time`` (n_out,), ``initial_nodes`` {line ID: (N+1, 3)},
    ``initial_points`` {free point ID: (3,)},
    ``start_tension`` / ``end_tension`` {line ID: (n_out,)} [N] (NaN at t = 0),
    ``points`` {free point ID: (n_out, 3)} [m], ``body_points`` {ID of a point on a body:
    (n_out, 3)} [m], ``bodies`` {body ID: (n_out, 6)} (position [m], MoorDyn's Euler XYZ
    angles [rad]), ``dt``, ``scheme`` (MoorDyn's name of it), ``wall_time_s`` (in
    moordyn.Step), ``moordyn_version``.
    """
    import time

    import cmoordyn
    import moordyn as md

    from tetherdyn.moordyn_input import parse_moordyn_file

    parsed = parse_moordyn_file(deck)
    motions = dict(motions or {})
    coupled = [p for p in parsed.points.values() if p.kind == "coupled"]
    free = [p.id for p in parsed.points.values() if p.kind == "free"]
    on_body = [p.id for p in parsed.points.values() if p.kind == "body"]
    tmp = tempfile.TemporaryDirectory(prefix="moordyn_system_")
    infile = Path(tmp.name) / "deck.txt"
    shutil.copyfile(parsed.path, infile)
    system = None
    wall = 0.0
    try:
        with _quiet_fd(quiet):
            system = md.Create(str(infile))
            if scheme is not None:
                md.SetTimeScheme(system, scheme)
            err = (md.Init if ic else md.Init_NoIC)(system,
                                                    *_coupled_state(coupled, motions, 0.0, 1e-3))
        if err != 0:
            raise RuntimeError(f"moordyn initialisation failed with code {err}")
        dt = float(cmoordyn.get_dt(system))  # the deck's dtM, else its CFL's step
        n_steps, stride, n_out = output_grid(duration, dt, output_interval, step="dtM")
        scheme_name = str(cmoordyn.get_tscheme(system))
        lines = {ln.id: (md.GetLine(system, ln.id), ln.n_segments) for ln in parsed.lines}
        points = {pid: md.GetPoint(system, pid) for pid in free + on_body}
        bodies = {bid: md.GetBody(system, bid) for bid in parsed.bodies}
        poses = {bid: np.empty((n_out, 6)) for bid in bodies}
        for bid, h in bodies.items():
            poses[bid][0] = [*md.GetBodyPos(h), *md.GetBodyAngle(h)]
        initial = {k: _node_positions(md, h, n + 1) for k, (h, n) in lines.items()}
        t0 = {k: np.full(n_out, np.nan) for k in lines}
        t1 = {k: np.full(n_out, np.nan) for k in lines}
        pts = {pid: np.empty((n_out, 3)) for pid in points}
        for pid, h in points.items():
            pts[pid][0] = md.GetPointPos(h)
        k = 0
        with _quiet_fd(quiet):
            for j in range(1, n_out):
                if not coupled:
                    start = time.perf_counter()
                    md.Step(system, [], [], k * dt, stride * dt)
                    wall += time.perf_counter() - start
                    k += stride
                for _ in range(stride if coupled else 0):
                    x, v = _coupled_state(coupled, motions, k * dt, dt)
                    start = time.perf_counter()
                    md.Step(system, x, v, k * dt, dt)
                    wall += time.perf_counter() - start
                    k += 1
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
            "initial_points": {pid: pts[pid][0].copy() for pid in free},
            "start_tension": t0, "end_tension": t1,
            "points": {pid: pts[pid] for pid in free},
            "body_points": {pid: pts[pid] for pid in on_body}, "bodies": poses, "dt": dt,
            "scheme": scheme_name, "wall_time_s": wall, "moordyn_version": _moordyn_version()}
