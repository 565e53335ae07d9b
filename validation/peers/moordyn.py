"""MoorDyn v2 (C++, PyPI ``moordyn==2.7.2``) as a peer for timing and trajectory comparison.

One MoorDyn line hangs from a start point (``anchor``; fixed, or "Coupled" when
``fairlead_motion`` is given) to a *free* end point (point mass ``end_mass``,
zero volume): a hanging chain / tether pendulum.  z is up and gravity acts along -z.

How the run is set up (all checked against MoorDyn 2.7.2, see ``README_moordyn.md``):

* The input file is a MoorDyn v2 file with one line type, two points and one line.
  Options: ``dtM = dt``, ``tScheme RK4``, ``g = gravity``, ``WtrDnsty = fluid_density``,
  ``TmaxIC 0`` and, on top of that, the system is initialised with
  ``moordyn.Init_NoIC`` so that no initial-condition (stationary / dynamic relaxation)
  solve runs at all.
* MoorDyn always builds its own initial line shape in ``Line::initialize`` (a catenary
  when the two ends are horizontally apart, a straight line when they are vertically
  aligned) and offers no call to set single node positions.  We therefore write the
  free point's initial position into the input file, initialise, dump the state with
  ``moordyn.SaveState``, overwrite the inner-node and free-point positions (velocities
  zero) in that binary state file and read it back with ``moordyn.LoadState`` (the
  mechanism MoorDyn offers for initial conditions exported from MoorPy).  The state is
  saved again and compared to the requested positions (exact to round-off).  Caveat:
  after ``LoadState`` ``GetLineNodePos`` still reports the old shape until the first
  ``Step`` (the integrator state is what counts); the self-check verifies that the first
  step starts from the imposed nodes (free fall of the unstretched straight line).
* The whole system is shifted down internally (``z_offset``) so that it stays fully
  submerged (MoorDyn's free surface is z = 0; out-of-water segments get no buoyancy,
  drag or added mass) and far above the seabed (``WtrDpth``); positions are returned
  in the caller's frame.

Run ``python -m tetherdyn.peers.moordyn`` for a self-check against MoorDyn itself.
"""

import contextlib
import math
import os
import struct
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from . import output_grid

__all__ = ["moordyn_available", "run_moordyn_line"]


def moordyn_available() -> bool:
    """True if the ``moordyn`` Python package (MoorDyn-C wrapper) can be imported."""
    try:
        import moordyn  # noqa: F401
    except Exception:
        return False
    return True


@contextlib.contextmanager
def _quiet_fd(enabled: bool = True):
    """Silence C/C++ writes to stdout/stderr (MoorDyn prints its banner and log there)."""
    if not enabled:
        yield
        return
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, devnull):
            os.close(fd)


def _g(x: float) -> str:
    return f"{float(x):.17g}"


def _input_file_text(
    *,
    n_elements: int,
    length: float,
    mass_per_length: float,
    diameter: float,
    EA: float,
    BA: float,
    cd_normal: float,
    ca_normal: float,
    cd_tangential: float,
    ca_tangential: float,
    start_kind: str,
    start: np.ndarray,
    end: np.ndarray,
    end_mass: float,
    dt: float,
    gravity: float,
    fluid_density: float,
    water_depth: float,
) -> str:
    """MoorDyn v2 input file for one line from point 1 (start) to free point 2 (end)."""
    rows = [
        "--------------------- MoorDyn Input File ------------------------------------",
        "tetherdyn peer benchmark: one line hanging from point 1 to free point 2",
        "---------------------- LINE TYPES -------------------------------------------",
        "TypeName  Diam  Mass/m  EA  BA/-zeta  EI  Cd  Ca  CdAx  CaAx",
        "(name)  (m)  (kg/m)  (N)  (N-s/-)  (N-m^2)  (-)  (-)  (-)  (-)",
        " ".join(
            [
                "tether",
                _g(diameter),
                _g(mass_per_length),
                _g(EA),
                _g(BA),
                "0",
                _g(cd_normal),
                _g(ca_normal),
                _g(cd_tangential),
                _g(ca_tangential),
            ]
        ),
        "---------------------- POINTS -----------------------------------------------",
        "ID  Attachment  X  Y  Z  Mass  Volume  CdA  Ca",
        "(#)  (word/ID)  (m)  (m)  (m)  (kg)  (m^3)  (m^2)  (-)",
        f"1 {start_kind} {_g(start[0])} {_g(start[1])} {_g(start[2])} 0 0 0 0",
        f"2 Free {_g(end[0])} {_g(end[1])} {_g(end[2])} {_g(end_mass)} 0 0 0",
        "---------------------- LINES ------------------------------------------------",
        "ID  LineType  AttachA  AttachB  UnstrLen  NumSegs  LineOutputs",
        "(#)  (name)  (ID)  (ID)  (m)  (-)  (-)",
        f"1 tether 1 2 {_g(length)} {int(n_elements)} -",
        "---------------------- OPTIONS ----------------------------------------------",
        "0 writeLog",
        f"{_g(dt)} dtM",
        "RK4 tScheme",
        f"{_g(gravity)} g",
        f"{_g(fluid_density)} WtrDnsty",
        f"{_g(water_depth)} WtrDpth",
        "0 TmaxIC",
        "0 WaveKin",
        "0 Currents",
        "1 disableOutput",
        "1 disableOutTime",
        "------------------------- need this line -----------------------------------",
        "",
    ]
    return "\n".join(rows)


# --- MoorDyn binary state files (moordyn.SaveState / moordyn.LoadState) --------------
# Layout (v2.7): b"MoorDyn" + 2 version bytes, uint64 total word count, uint64 number of
# instances, then per instance uint64 rows, uint64 cols and rows*cols float64 values.
# A free point is a (1, 6) block [x y z vx vy vz]; a line is an (N-1, 6) block with its
# inner nodes 1..N-1.  Blocks are located by their content, not by their order.


def _read_state(path: Path) -> tuple[bytes, list[np.ndarray]]:
    buf = path.read_bytes()
    if buf[:7] != b"MoorDyn":
        raise RuntimeError("unexpected MoorDyn state file header")
    version = buf[7:9]
    _total, ninst = struct.unpack_from("<QQ", buf, 9)
    off = 25
    blocks = []
    for _ in range(ninst):
        rows, cols = struct.unpack_from("<QQ", buf, off)
        off += 16
        count = rows * cols
        blk = np.frombuffer(buf, dtype="<f8", count=count, offset=off).reshape(rows, cols)
        blocks.append(blk.copy())
        off += 8 * count
    if off != len(buf):
        raise RuntimeError("could not parse MoorDyn state file (size mismatch)")
    return version, blocks


def _write_state(path: Path, version: bytes, blocks: list[np.ndarray]) -> None:
    data = b"".join(
        struct.pack("<QQ", *b.shape) + np.ascontiguousarray(b, dtype="<f8").tobytes()
        for b in blocks
    )
    header = b"MoorDyn" + version + struct.pack("<QQ", len(data) // 8 + 1, len(blocks))
    path.write_bytes(header + data)


def _find_block(blocks, rows: int, current: np.ndarray, tol: float) -> int:
    hits = [
        k
        for k, b in enumerate(blocks)
        if b.shape[0] == rows and b.shape[1] >= 6 and np.allclose(b[:, :3], current, atol=tol)
    ]
    if len(hits) != 1:
        raise RuntimeError(f"cannot identify state block ({len(hits)} candidates)")
    return hits[0]


def _node_positions(md, line, n_nodes: int) -> np.ndarray:
    return np.array([md.GetLineNodePos(line, i) for i in range(n_nodes)], dtype=float)


def _node_velocities(md, line, n_nodes: int) -> np.ndarray:
    return np.array([md.GetLineNodeVel(line, i) for i in range(n_nodes)], dtype=float)


def _impose_nodes(md, system, line, end_point, nodes: np.ndarray, workdir: Path, quiet: bool):
    """Overwrite inner-node and free-end positions (zero velocities) via a state file.

    Returns the (N + 1, 3) positions as MoorDyn holds them afterwards.  Note: after
    ``LoadState`` the integrator state is updated, but ``GetLineNodePos`` keeps returning
    the old (catenary) shape until the first ``Step``; so the check re-saves the state.
    """
    n = nodes.shape[0] - 1
    tol = 1e-9 * max(1.0, float(np.abs(nodes).max()))
    src, dst, chk = (workdir / f"state_{k}.bin" for k in ("init", "imposed", "check"))
    with _quiet_fd(quiet):
        md.SaveState(system, str(src))
    version, blocks = _read_state(src)
    cur = _node_positions(md, line, n + 1)
    ip = _find_block(blocks, 1, np.asarray(md.GetPointPos(end_point))[None, :], tol)
    blocks[ip][0, :3] = nodes[n]
    blocks[ip][0, 3:6] = 0.0
    il = None
    if n > 1:
        il = _find_block(blocks, n - 1, cur[1:n], tol)
        blocks[il][:, :3] = nodes[1:n]
        blocks[il][:, 3:6] = 0.0
    _write_state(dst, version, blocks)
    with _quiet_fd(quiet):
        md.LoadState(system, str(dst))
        md.SaveState(system, str(chk))
    _, back = _read_state(chk)
    got = np.array(nodes, dtype=float)
    got[0] = md.GetLineNodePos(line, 0)
    got[n] = back[ip][0, :3]
    vel_err = float(np.abs(back[ip][0, 3:6]).max())
    if il is not None:
        got[1:n] = back[il][:, :3]
        vel_err = max(vel_err, float(np.abs(back[il][:, 3:6]).max()))
    err = float(np.abs(got - nodes).max())
    if err > tol or vel_err != 0.0:
        raise RuntimeError(f"MoorDyn did not accept the imposed node positions (err {err:g} m)")
    return got, err


def _motion_sampler(fairlead_motion: Callable, dt: float):
    """Return f(t) -> (position, velocity) from a callable giving pos or (pos, vel)."""

    def sample(t: float):
        out = np.asarray(fairlead_motion(t), dtype=float)
        if out.shape == (3,):
            nxt = np.asarray(fairlead_motion(t + dt), dtype=float).reshape(3)
            # secant velocity: MoorDyn moves a coupled point as r(t) + v*(tau), so the
            # point lands exactly on the prescribed position at the end of the step.
            return out, (nxt - out) / dt
        if out.shape == (2, 3):
            return out[0], out[1]
        raise ValueError("fairlead_motion(t) must return a position (3,) or (pos, vel) (2, 3)")

    return sample


def _start_force_from_state(
    nodes, vels, *, seg_len, EA, BA, mass_per_length, area, fluid_density, gravity
) -> np.ndarray:
    """Force of the line on its start point, MoorDyn's formula for end node 0 (no drag).

    Used only for the t = 0 sample (MoorDyn has not evaluated its forces yet there).
    """
    d = nodes[1] - nodes[0]
    lstr = float(np.linalg.norm(d))
    q = d / lstr
    force = np.zeros(3)
    if lstr > seg_len:
        force += EA * (lstr / seg_len - 1.0) * q
    ldstr = float(np.dot(d, vels[1] - vels[0])) / lstr
    force += BA * (ldstr / seg_len) * q
    force[2] -= 0.5 * seg_len * (mass_per_length - fluid_density * area) * gravity
    return force


def run_moordyn_line(
    *,
    n_elements: int,
    length: float,
    mass_per_length: float,
    diameter: float,
    EA: float,
    axial_damping: float,
    dt: float,
    duration: float,
    anchor=(0.0, 0.0, 0.0),
    initial_nodes: np.ndarray | None = None,
    fairlead_motion=None,
    end_mass: float = 0.0,
    fluid_density: float = 0.0,
    cd_normal: float = 0.0,
    cd_tangential: float = 0.0,
    ca_normal: float = 0.0,
    ca_tangential: float = 0.0,
    gravity: float = 9.81,
    output_interval: float | None = None,
    workdir=None,
    quiet: bool = True,
) -> dict:
    """Simulate one hanging MoorDyn line (start point -> free end point).

    Parameters (SI units; z up, gravity along -z)
    ----------
    n_elements : number of segments N (N + 1 nodes).
    length : unstretched length [m].  mass_per_length [kg/m], diameter [m] (MoorDyn uses it
        for buoyancy ``rho_f * pi d^2/4`` per metre, drag and added mass).
    EA : axial stiffness [N].  Tension only (a compressed segment carries no force).
    axial_damping : internal damping BA [N s] = force per unit strain rate, passed to MoorDyn
        unchanged (a negative value means "fraction of critical" in MoorDyn, see README).
    dt, duration : MoorDyn time step ``dtM`` [s] and simulated time [s].
    anchor : fixed start point; ignored when ``fairlead_motion`` is given.
    initial_nodes : (N + 1, 3) initial positions, start to end (zero initial velocities).
        Default: straight down from the start point, segments unstretched.
    fairlead_motion : optional callable ``f(t)`` returning the start-point position (3,) or
        ``(position, velocity)``; the start point then is a MoorDyn "Coupled" point and
        ``Step`` is called every ``dt``.
    end_mass : point mass at the free end [kg] (zero volume), added to the line's own
        half-segment end-node mass.
    fluid_density : MoorDyn ``WtrDnsty``; 0 gives a vacuum (no buoyancy/drag/added mass).
    cd_normal, cd_tangential, ca_normal, ca_tangential : MoorDyn Cd, CdAx, Ca, CaAx.
        Note CdAx refers to the surface area pi*d*l (Cd to the frontal area d*l).
    output_interval : sampling interval (multiple of dt); None = every dt.
    workdir : folder for the input/state files (default: a temporary folder).
    quiet : silence MoorDyn's console output.

    Returns
    -------
    dict with ``time`` (n_out,), ``positions`` and ``velocities`` (n_out, N + 1, 3),
    ``start_force`` (n_out, 3): force exerted by the line on the start point (MoorDyn's net
    force on line node 0: end-segment tension + internal damping + weight/buoyancy and
    hydrodynamics of the half segment at node 0; a hanging line gives about (0, 0, -W)),
    ``start_tension`` (n_out,): its norm, ``wall_time_s`` (time spent in moordyn.Step only),
    ``steps`` (number of dt steps), ``us_per_step`` and some metadata.
    """
    import moordyn as md

    n = int(n_elements)
    if n < 1:
        raise ValueError("n_elements must be >= 1")
    if dt <= 0 or duration <= 0:
        raise ValueError("dt and duration must be positive")
    n_steps, stride, n_out = output_grid(duration, dt, output_interval)

    sample = _motion_sampler(fairlead_motion, dt) if fairlead_motion is not None else None
    start = np.asarray(sample(0.0)[0] if sample else anchor, dtype=float).reshape(3)
    if initial_nodes is None:
        s = np.linspace(0.0, length, n + 1)
        nodes = start[None, :] - s[:, None] * np.array([0.0, 0.0, 1.0])
    else:
        nodes = np.array(initial_nodes, dtype=float)
        if nodes.shape != (n + 1, 3):
            raise ValueError(f"initial_nodes must have shape ({n + 1}, 3)")
        if not np.allclose(nodes[0], start, atol=1e-9 * max(1.0, np.abs(start).max())):
            raise ValueError("initial_nodes[0] must coincide with the start point")
        nodes[0] = start

    # Internal vertical shift: keep everything submerged (z < 0) and far from the seabed.
    z_samples = [nodes[:, 2]]
    if sample is not None:
        ts = np.linspace(0.0, duration, 1001)
        z_samples.append(np.array([sample(t)[0][2] for t in ts]))
    z_all = np.concatenate(z_samples)
    margin = 2.0 * length + 10.0
    z_offset = -(float(z_all.max()) + margin)
    water_depth = margin + float(z_all.max() - z_all.min()) + 4.0 * length + 100.0
    shift = np.array([0.0, 0.0, z_offset])
    nodes_md = nodes + shift

    own_dir = workdir is None
    tmp = tempfile.TemporaryDirectory(prefix="moordyn_peer_") if own_dir else None
    wdir = Path(tmp.name if tmp else workdir)
    wdir.mkdir(parents=True, exist_ok=True)
    input_text = _input_file_text(
        n_elements=n,
        length=length,
        mass_per_length=mass_per_length,
        diameter=diameter,
        EA=EA,
        BA=axial_damping,
        cd_normal=cd_normal,
        ca_normal=ca_normal,
        cd_tangential=cd_tangential,
        ca_tangential=ca_tangential,
        start_kind="Coupled" if sample else "Fixed",
        start=nodes_md[0],
        end=nodes_md[n],
        end_mass=end_mass,
        dt=dt,
        gravity=gravity,
        fluid_density=fluid_density,
        water_depth=water_depth,
    )
    infile = wdir / "moordyn_line.txt"
    infile.write_text(input_text)

    system = None
    try:
        with _quiet_fd(quiet):
            system = md.Create(str(infile))
            if sample is not None:
                x0, v0 = sample(0.0)
                x0 = list(x0 + shift)
                v0 = list(v0)
            else:
                x0, v0 = [], []
            err = md.Init_NoIC(system, x0, v0)
        if err != 0:
            raise RuntimeError(f"moordyn.Init_NoIC failed with code {err}")
        line = md.GetLine(system, 1)
        end_point = md.GetPoint(system, 2)
        if md.GetLineN(line) != n:
            raise RuntimeError("MoorDyn line has an unexpected number of segments")
        got, impose_err = _impose_nodes(md, system, line, end_point, nodes_md, wdir, quiet)

        positions = np.empty((n_out, n + 1, 3))
        velocities = np.empty((n_out, n + 1, 3))
        start_force = np.empty((n_out, 3))
        positions[0] = got - shift
        velocities[0] = 0.0
        start_force[0] = _start_force_from_state(
            positions[0],
            velocities[0],
            seg_len=length / n,
            EA=EA,
            BA=axial_damping if axial_damping > 0 else 0.0,
            mass_per_length=mass_per_length,
            area=math.pi / 4.0 * diameter**2,
            fluid_density=fluid_density,
            gravity=gravity,
        )
        times = np.arange(n_out) * (stride * dt)

        step = md.Step
        perf = time.perf_counter
        wall = 0.0
        loop_t0 = perf()
        k = 0  # dt steps done
        for j in range(1, n_out):
            if sample is None:
                t0 = perf()
                step(system, [], [], k * dt, stride * dt)
                wall += perf() - t0
                k += stride
            else:
                for _ in range(stride):
                    x, v = sample(k * dt)
                    xs, vs = list(x + shift), list(v)
                    t0 = perf()
                    step(system, xs, vs, k * dt, dt)
                    wall += perf() - t0
                    k += 1
            positions[j] = _node_positions(md, line, n + 1) - shift
            velocities[j] = _node_velocities(md, line, n + 1)
            start_force[j] = md.GetLineNodeForce(line, 0)
        loop_wall = perf() - loop_t0
    finally:
        if system is not None:
            with _quiet_fd(quiet):
                md.Close(system)
        if tmp is not None:
            tmp.cleanup()

    return {
        "time": times,
        "positions": positions,
        "velocities": velocities,
        "start_force": start_force,
        "start_tension": np.linalg.norm(start_force, axis=1),
        "wall_time_s": wall,
        "loop_wall_time_s": loop_wall,
        "steps": n_steps,
        "us_per_step": 1e6 * wall / n_steps,
        "step_calls": n_steps if sample is not None else n_steps // stride,
        "dt": dt,
        "n_elements": n,
        "z_offset": z_offset,
        "water_depth": water_depth,
        "initial_node_error_m": impose_err,
        "input_file": input_text,
        "moordyn_version": _moordyn_version(),
    }


def _moordyn_version() -> str:
    try:
        from importlib.metadata import version

        return version("moordyn")
    except Exception:
        return "unknown"


# --------------------------------------------------------------------------------------
# Self-check
# --------------------------------------------------------------------------------------


def _self_check() -> int:
    if not moordyn_available():
        print("moordyn is not installed: pip install moordyn==2.7.2")
        return 1
    length, mass, diam, ea = 10.0, 0.16, 1.5875e-3, 80.0
    w = mass / length
    weight = mass * 9.81
    cable = dict(length=length, mass_per_length=w, diameter=diam, EA=ea, dt=1e-4)
    ok = True

    # 1) pendulum: straight line released at 5 deg from vertical, vacuum, no damping.
    n = 32
    th = math.radians(5.0)
    u = np.array([math.sin(th), 0.0, -math.cos(th)])
    nodes0 = np.outer(np.linspace(0.0, length, n + 1), u)
    res = run_moordyn_line(n_elements=n, axial_damping=0.0, duration=2.0,
                           initial_nodes=nodes0, output_interval=1e-3, **cable)
    pos = res["positions"]
    start_ok = np.allclose(pos[0], nodes0, atol=1e-12)
    # first output step (1 ms): the unstretched straight line carries no tension at t = 0,
    # so every free node starts in free fall; check that MoorDyn really starts from nodes0
    fall = pos[1, 1:, 2] - pos[0, 1:, 2]
    fall_ok = abs(fall[n // 2] / (-0.5 * 9.81 * 1e-3**2) - 1.0) < 0.05
    dist = np.linalg.norm(pos[:, -1, :] - pos[:, 0, :], axis=1)
    rel = np.abs(dist / length - 1.0)
    angle = np.degrees(np.arctan2(pos[:, -1, 0], -pos[:, -1, 2]))  # signed, in the x-z plane
    print(
        f"pendulum N={n}: us/step = {res['us_per_step']:.2f} "
        f"(wall {res['wall_time_s']:.3f} s for {res['steps']} steps)"
    )
    print(
        f"  start exact: {start_ok}, mid-node drop in first ms {fall[n // 2]:.3e} m "
        f"(free fall {-0.5 * 9.81 * 1e-6:.3e} m); "
        f"end distance {dist.min():.4f}..{dist.max():.4f} m "
        f"(max |d/L-1| = {rel.max():.4f}); end angle {angle[0]:+.2f} -> {angle[-1]:+.2f} deg "
        f"(range {angle.min():+.2f}..{angle.max():+.2f}); max |y| {np.abs(pos[..., 1]).max():.1e} m"
    )
    ok &= bool(start_ok and fall_ok and rel.max() < 0.02)
    ok &= bool(angle[-1] < 0.0 < angle[0] and np.abs(angle).max() < 7.0)

    # 2) static: vertical line with internal damping settles, anchor force = total weight.
    # BA = 5 N s gives ~0.35 of critical damping on the first axial mode
    # (zeta_1 = BA * omega_1 / (2 EA), omega_1 = pi/2 * sqrt(EA/w) / L) and stays well inside
    # the RK4 stability limit of the stiffest damping mode at dt = 1e-4 s.
    res = run_moordyn_line(n_elements=n, axial_damping=5.0, duration=6.0,
                           output_interval=1e-2, **cable)
    fz = res["start_force"][:, 2]
    z_end_theory = -(length + w * 9.81 * length**2 / (2.0 * ea))
    tail = res["time"] > 5.0
    err = abs(-fz[-1] / weight - 1.0)
    print(
        f"static N={n}: anchor force z at t=6 s {fz[-1]:.5f} N, weight {weight:.5f} N, "
        f"rel err {err:.2e}; spread over last 1 s {np.ptp(fz[tail]):.2e} N; "
        f"t=0 value {fz[0]:.5f} N; end z {res['positions'][-1, -1, 2]:.4f} m "
        f"(continuum static theory {z_end_theory:.4f} m)"
    )
    ok &= bool(err < 0.01)

    # timings: benchmarks/bench_lumped_mass.py (same cable, against tetherdyn)
    print("SELF-CHECK", "PASSED" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(_self_check())
