"""Run an arbitrary MoorDyn v2 input file in MoorDyn 2.7.2, started from imposed nodes.

``peers/moordyn.py`` writes its own one-line deck (a held start and a free end point).
Checking :mod:`tetherdyn.moordyn_input` needs MoorDyn to run the *user's* deck as it is --
two fixed points, a free point at end A, coupled points with a motion -- so this module
runs a given file and reuses that module's state-file mechanism (``SaveState`` /
``LoadState``; see ``benchmarks/README_moordyn.md``) to impose the initial node positions
of one line:

* the deck is copied into a work folder (MoorDyn writes its ``.out`` files next to it) and
  initialised with ``moordyn.Init_NoIC`` (no initial-condition solve, whatever TmaxIC says);
* the state is saved; the block of the line's inner nodes ((N-1) x 6) and the block of each
  free end point (1 x 6) are located by content and overwritten (velocities zero); the
  state is loaded, saved again and compared with the request (exact to round-off);
* held ends (Fixed, Coupled) must already be where the imposed nodes put them;
* the run calls ``moordyn.Step``; coupled points get ``motions[id](t)`` every ``dtM`` with
  the secant velocity (MoorDyn moves them as ``r + v tau`` within a step).

Forces are MoorDyn's net force on the end nodes (``GetLineNodeForce(line, 0)`` and
``(line, N)``: end-segment tension, damping, weight, buoyancy and drag of the half
segment), i.e. the force the line exerts on what holds it -- the same quantity as our
``start_force`` / ``end_force`` for a held end at rest (for a moving end ours also
subtracts the inertia of the node mass, MoorDyn's does not), and the end segments'
tensions (``GetLineNodeTen``, our ``tension[:, 0]`` / ``tension[:, -1]``).  MoorDyn has no
value at t = 0 (it has not evaluated anything yet), so the first sample is NaN.  The
values come from MoorDyn's last right-hand-side evaluation (RK4 stage 4).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from . import output_grid
from .moordyn import (
    _find_block,
    _moordyn_version,
    _node_positions,
    _quiet_fd,
    _read_state,
    _write_state,
    moordyn_available,
)

__all__ = ["run_moordyn_deck", "moordyn_available"]


def _impose(md, system, line, n: int, free_points: dict[int, object], nodes: np.ndarray,
            wdir: Path, quiet: bool) -> float:
    """Overwrite the line's inner nodes and its free end points; returns the max error [m]."""
    tol = 1e-9 * max(1.0, float(np.abs(nodes).max()))
    src, dst, chk = (wdir / f"state_{k}.bin" for k in ("init", "imposed", "check"))
    with _quiet_fd(quiet):
        md.SaveState(system, str(src))
    version, blocks = _read_state(src)
    cur = _node_positions(md, line, n + 1)
    targets: list[tuple[int, np.ndarray]] = []
    if n > 1:
        il = _find_block(blocks, n - 1, cur[1:n], tol)
        targets.append((il, nodes[1:n]))
    for node, point in free_points.items():
        ip = _find_block(blocks, 1, np.asarray(md.GetPointPos(point))[None, :], tol)
        targets.append((ip, nodes[node][None, :]))
    for k, pos in targets:
        blocks[k][:, :3] = pos
        blocks[k][:, 3:6] = 0.0
    _write_state(dst, version, blocks)
    with _quiet_fd(quiet):
        md.LoadState(system, str(dst))
        md.SaveState(system, str(chk))
    _, back = _read_state(chk)
    err = 0.0
    for k, pos in targets:
        err = max(err, float(np.abs(back[k][:, :3] - pos).max()),
                  float(np.abs(back[k][:, 3:6]).max()))
    if err > tol:
        raise RuntimeError(f"MoorDyn did not accept the imposed node positions (err {err:g} m)")
    return err


def run_moordyn_deck(
    deck: str | Path,
    *,
    duration: float,
    line: int = 1,
    initial_nodes: np.ndarray | None = None,
    output_interval: float | None = None,
    motions: dict[int, Callable[[float], np.ndarray]] | None = None,
    workdir: str | Path | None = None,
    quiet: bool = True,
) -> dict:
    """Run a MoorDyn v2 input file in MoorDyn (``Init_NoIC``, RK4 or whatever it says).

    Parameters
    ----------
    deck : the input file (read with :func:`tetherdyn.moordyn_input.parse_moordyn_file`
        for the step ``dtM`` and the points; its OPTIONS choose MoorDyn's scheme).
    duration : simulated time [s], a multiple of ``dtM``.
    line : ID of the line that is imposed and recorded.
    initial_nodes : (N+1, 3) start positions [m] of that line, end A to end B (zero
        velocities); default MoorDyn's own initial shape.  Held ends must match.
    output_interval : sampling interval [s] (multiple of dtM); default every dtM.
    motions : ``{point ID: f(t) -> position (3,)}`` for Coupled points; a coupled point
        without one stays at its position in the file.
    workdir, quiet : work folder (default temporary) and silencing of MoorDyn's console.

    Returns dict: ``time`` (n_out,), ``positions`` (n_out, N+1, 3), ``start_force`` /
    ``end_force`` (n_out, 3) and ``start_tension`` / ``end_tension`` (n_out,) (the end
    segments' tension plus damping, ``|GetLineNodeTen|``) (NaN at t = 0), ``dt``,
    ``initial_node_error_m``, ``moordyn_version``.
    """
    import moordyn as md

    from tetherdyn.moordyn_input import parse_moordyn_file

    parsed = parse_moordyn_file(deck)
    dt = parsed.option(("dtM", "DT"), None)
    if dt is None:
        raise ValueError(f"{parsed.path.name}: OPTIONS needs dtM")
    n_steps, stride, n_out = output_grid(duration, dt, output_interval, step="dtM")
    spec = parsed.lines[line - 1]
    n = spec.n_segments
    motions = dict(motions or {})
    coupled = [p for p in parsed.points.values() if p.kind == "coupled"]

    def coupled_state(t: float) -> tuple[list[float], list[float]]:
        x: list[float] = []
        v: list[float] = []
        for p in coupled:
            f = motions.get(p.id)
            if f is None:
                x += list(p.r)
                v += [0.0, 0.0, 0.0]
            else:
                r0 = np.asarray(f(t), dtype=float)
                r1 = np.asarray(f(t + dt), dtype=float)
                x += list(r0)
                v += list((r1 - r0) / dt)  # secant: lands on r(t + dt) at the step's end
        return x, v

    own = workdir is None
    tmp = tempfile.TemporaryDirectory(prefix="moordyn_deck_") if own else None
    wdir = Path(tmp.name if tmp else workdir)
    wdir.mkdir(parents=True, exist_ok=True)
    infile = wdir / "deck.txt"
    shutil.copyfile(parsed.path, infile)
    system = None
    try:
        with _quiet_fd(quiet):
            system = md.Create(str(infile))
            x0, v0 = coupled_state(0.0)
            err = md.Init_NoIC(system, x0, v0)
        if err != 0:
            raise RuntimeError(f"moordyn.Init_NoIC failed with code {err}")
        mline = md.GetLine(system, line)
        if md.GetLineN(mline) != n:
            raise RuntimeError("MoorDyn line has an unexpected number of segments")
        impose_err = 0.0
        if initial_nodes is not None:
            nodes = np.array(initial_nodes, dtype=float)
            if nodes.shape != (n + 1, 3):
                raise ValueError(f"initial_nodes must have shape ({n + 1}, 3)")
            cur = _node_positions(md, mline, n + 1)
            free_points = {}
            for node, pid in ((0, spec.a), (n, spec.b)):
                if parsed.points[pid].kind == "free":
                    free_points[node] = md.GetPoint(system, pid)
                elif not np.allclose(cur[node], nodes[node], rtol=0, atol=1e-9):
                    raise ValueError(f"initial_nodes[{node}] must be at held point {pid} "
                                     f"({cur[node]})")
            impose_err = _impose(md, system, mline, n, free_points, nodes, wdir, quiet)
            start_pos = nodes
        else:
            start_pos = _node_positions(md, mline, n + 1)

        positions = np.empty((n_out, n + 1, 3))
        f0 = np.full((n_out, 3), np.nan)
        f1 = np.full((n_out, 3), np.nan)
        t0 = np.full(n_out, np.nan)
        t1 = np.full(n_out, np.nan)
        positions[0] = start_pos
        k = 0
        with _quiet_fd(quiet):
            for j in range(1, n_out):
                if not coupled:
                    md.Step(system, [], [], k * dt, stride * dt)
                    k += stride
                else:
                    for _ in range(stride):
                        x, v = coupled_state(k * dt)
                        md.Step(system, x, v, k * dt, dt)
                        k += 1
                positions[j] = _node_positions(md, mline, n + 1)
                f0[j] = md.GetLineNodeForce(mline, 0)
                f1[j] = md.GetLineNodeForce(mline, n)
                t0[j] = np.linalg.norm(md.GetLineNodeTen(mline, 0))
                t1[j] = np.linalg.norm(md.GetLineNodeTen(mline, n))
    finally:
        if system is not None:
            with _quiet_fd(quiet):
                md.Close(system)
        if tmp is not None:
            tmp.cleanup()
    return {
        "time": np.arange(n_out) * (stride * dt),
        "positions": positions,
        "start_force": f0,
        "end_force": f1,
        "start_tension": t0,
        "end_tension": t1,
        "dt": dt,
        "initial_node_error_m": impose_err,
        "moordyn_version": _moordyn_version(),
    }
