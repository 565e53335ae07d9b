"""Peer rows: two more of MoorDyn's own test decks with points and bodies, run whole by
tetherdyn (``moordyn_to_system``) and by MoorDyn 2.7.2 at the same step (issue 19: "tension
histories within 2 % of peak, body motions within 1 % of their range").

The decks are copied unchanged from MoorDyn's repository (FloatingArrayDesign/MoorDyn at
v2.7.1, commit 319ff99771cffb835fea4423306a0849692afd53, the newest tag in the snapshot we
hold; the python package we run is 2.7.2; BSD-3-Clause) into ``validation/decks/``:

- ``moordyn_system_pendulum``: ``tests/Mooring/pendulum.txt`` (tests/pendulum.cpp): a
  1e5 kg free point on a 100.5 m line (20 segments, as dense as water, EA 1 GN, BA -0.01,
  no drag or added mass) from a fixed point, released 10 m off the vertical; RK4 at the step
  MoorDyn derives from the deck's CFL = 0.1 (the deck gives no dtM). MoorDyn's test runs
  five periods and checks the swing's period and amplitude; so does the full row.
- ``moordyn_system_rotating_body``: ``tests/Mooring/body_tests/rotatingBody.txt``
  (tests/bodies.cpp "Rotating body"): a free 10 kg body (I = 5 kg m²) held at its origin by
  six stretched nylon lines to fixed points 1 m away, and turned by a seventh line from a
  point 1 m out on the body to a coupled point that the test drives round the body on a 2 m
  circle: three quarter turns of 2 s (x→z, z→y, y→x) with 0.5 s holds between them, after
  0.1 s at rest, as bodies.cpp does (without its 5 cm jumps of the point at the holds: a
  step in position with zero velocity, which a host cannot give both codes alike). Both
  codes get the same piecewise-linear path (samples every dtM: MoorDyn moves a coupled
  point at the secant velocity through each step, we interpolate the samples linearly).
  No tScheme in the deck: MoorDyn runs its default RK2 (MoorDyn2.cpp), we RK4, both at
  dtM = 0.5 ms; the row measures MoorDyn RK2 against MoorDyn RK4.

Both codes start from MoorDyn's own initial nodes (``Init_NoIC``). Tensions: MoorDyn's
``|GetLineNodeTen|`` at both ends against our ``|tension[:, 0]|`` / ``|tension[:, -1]|``.
Motions: free points and bodies (their origin, and for the rotating body the point on it
where line 7 attaches: it carries the rotation) against MoorDyn's, the largest distance
relative to the largest range of a coordinate.

Decks looked at and skipped (MoorDyn tests/Mooring at that commit): orbitalBody.txt,
pinnedBody.txt, local_euler/complex_system.txt (rods; pinned bodies); lifting.txt (the
pendulum's line with its point below the anchor; its test pays the line in through
SetLineUnstretchedLengthVel, which a system line does not take: on its own the deck is a
0.5 m drop of a mass on a line); local_euler/*.txt (tScheme lEuler, a local-time-step
scheme we do not have: the comparison would not be at the same scheme); seafloor.txt (a 3D
seafloor file under a path relative to MoorDyn's test folder); lines.txt, WD*_Chain.txt
(single lines from vessel points, covered by moordyn_decks); time_schemes.txt (a template:
@DT@ and @TSCHEME@ are filled by its test); wavekin*/viv/polyester/syrope decks (single
lines with wave kinematics, VIV or nonlinear materials).
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np

from tetherdyn.case import CaseWarning
from tetherdyn.moordyn_input import moordyn_to_system
from tetherdyn.system_run import run_system

from . import Row, peer_not_installed, register, save_figure

DECKS = Path(__file__).resolve().parent / "decks"
PENDULUM_DECK = DECKS / "moordyn_pendulum.txt"
ROTATING_DECK = DECKS / "moordyn_rotatingBody.txt"
TOL_TENSION = 0.02  # of each line's peak tension (issue 19)
TOL_MOTION = 0.01  # of the range of motion (issue 19)
G = 9.80665  # the deck's g (MoorDyn's default)


def _tensions(md: dict, res, skip: np.ndarray | None = None) -> tuple[dict, dict]:
    """Per line end ('1A', '1B', ...): the largest |ours - MoorDyn's| of the end tension
    over MoorDyn's peak (samples where ``skip`` is true left out), and the two
    histories."""
    rel, hist = {}, {}
    keep = np.ones(res.times.size, dtype=bool) if skip is None else ~skip
    keep[0] = False  # MoorDyn reports no tension at t = 0
    for lid in md["start_tension"]:
        T = np.abs(res.lines[str(lid)].data_vars["tension"][1])
        for end, ours, theirs in (("A", T[:, 0], md["start_tension"][lid]),
                                  ("B", T[:, -1], md["end_tension"][lid])):
            rel[f"{lid}{end}"] = float(np.nanmax(np.abs(ours[keep] - theirs[keep]))
                                       / np.nanmax(theirs))
            hist[f"{lid}{end}"] = (ours, theirs)
    return rel, hist


def _path_rel(ours: np.ndarray, theirs: np.ndarray) -> tuple[float, float]:
    """(largest distance between two paths [m] over the largest range of a coordinate of
    MoorDyn's, that range [m])."""
    span = float(np.ptp(theirs, axis=0).max())
    return float(np.linalg.norm(ours - theirs, axis=1).max()) / span, span


def _run(deck: Path, duration: float, output_interval: float, dt: float,
         md: dict, motions: dict | None = None) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CaseWarning)
        case = moordyn_to_system(deck, duration=duration, output_interval=output_interval,
                                 dt=dt, initial_nodes=md["initial_nodes"], motions=motions,
                                 interpolation="linear")
    return run_system(case, progress=False)


def _figure(time, panels, figure_dir: Path, name: str, t_max: tuple = ()) -> str:
    """Ours against MoorDyn's, one panel per (label, (ours, theirs)); ``t_max``: each
    panel's last time shown [s] (None: all)."""
    import matplotlib.figure

    fig = matplotlib.figure.Figure(figsize=(8.0, 3.2))
    for j, (label, (ours, theirs)) in enumerate(panels):
        ax = fig.add_subplot(1, len(panels), j + 1)
        end = t_max[j] if j < len(t_max) and t_max[j] is not None else time[-1]
        k = time <= end + 1e-12
        ax.plot(time[k], theirs[k], label="MoorDyn 2.7.2")
        ax.plot(time[k], ours[k], "--", label="tetherdyn")
        ax.set_xlabel("time [s]")
        ax.set_ylabel(label)
        ax.legend(fontsize=8)
    return save_figure(fig, figure_dir, name)


# --------------------------------------------------------------------------------------
# tests/Mooring/pendulum.txt
# --------------------------------------------------------------------------------------

def compare_pendulum(n_periods: float, stride: int = 36) -> dict:
    """Both codes on pendulum.txt for ``n_periods`` small-swing periods 2 pi sqrt(l0/g)
    (l0 the point's initial distance from the anchor, as tests/pendulum.cpp takes it) at
    MoorDyn's CFL step, output every ``stride`` steps."""
    from validation.peers.moordyn_system import moordyn_step, run_moordyn_system

    dt = moordyn_step(PENDULUM_DECK)
    l0 = math.hypot(10.0, 100.0)  # the free point's start (POINTS row 2)
    period = 2.0 * math.pi * math.sqrt(l0 / G)  # tests/pendulum.cpp's T
    n_out = max(1, round(n_periods * period / (stride * dt)))
    interval = stride * dt
    duration = n_out * interval
    md = run_moordyn_system(PENDULUM_DECK, duration=duration, output_interval=interval)
    res = _run(PENDULUM_DECK, duration, interval, dt, md)
    rel, hist = _tensions(md, res)
    ours = res.points["2"]["position"][1]
    theirs = md["points"][2]
    motion, span = _path_rel(ours, theirs)
    hist["x"] = (ours[:, 0], theirs[:, 0])
    worst = max(rel, key=rel.get)
    return dict(rel=rel, worst=worst, worst_rel=rel[worst], motion_rel=motion, span=span,
                time=res.times, hist=hist, dt=dt, period=period, scheme=md["scheme"],
                peak=float(np.nanmax(md["end_tension"][1])),
                wall_ours=float(res.attrs["wall_time_s"]), wall_md=float(md["wall_time_s"]))


@register("moordyn_system_pendulum", "peer", "MoorDyn's pendulum deck (a free point on a "
          "line) in tetherdyn and MoorDyn 2.7.2", reference="peer")
def check_pendulum(full: bool = True, figure_dir: Path | None = None) -> Row:
    from validation.peers.moordyn import moordyn_available

    name = "MoorDyn tests/Mooring/pendulum.txt: tetherdyn system vs MoorDyn 2.7.2"
    if not moordyn_available():
        return peer_not_installed(name, "tension histories within 2 % of peak, motions "
                                  "within 1 % of their range", "2 %, 1 %",
                                  "pip install moordyn==2.7.2")
    r = compare_pendulum(5.0 if full else 0.25)
    figure = None
    if figure_dir is not None:
        figure = _figure(r["time"], [("line 1 tension at the point [N]", r["hist"]["1B"]),
                                     ("point 2 x [m]", r["hist"]["x"])],
                         figure_dir, "moordyn_system_pendulum.png", t_max=(3.0, None))
    t_end = float(r["time"][-1])
    return Row(
        name=f"{name} ({t_end:.3g} s)",
        tier="peer",
        expected="every line's end tension history within 2 % of its peak, the free point's "
                 "path within 1 % of its range, same step (issue 19)",
        ours=(f"worst tension {r['worst_rel'] * 100:.2g} % of peak (line {r['worst'][:-1]} "
              f"end {r['worst'][-1]}, peak {r['peak']:.3g} N); point 2 within "
              f"{r['motion_rel']:.2g} of its {r['span']:.3g} m range"),
        tolerance="2 % of peak tension, 1 % of the range of motion",
        passed=bool(r["worst_rel"] < TOL_TENSION and r["motion_rel"] < TOL_MOTION),
        details=("MoorDyn's own test deck (tests/Mooring/pendulum.txt at v2.7.1, unchanged; "
                 "tests/pendulum.cpp checks five periods' peaks against 2 pi sqrt(l0/g)): a "
                 "1e5 kg free point on a 100.5 m line of 20 segments (d = 0.1 m, 7.854 kg/m "
                 "in 1000 kg/m³ water: neutrally buoyant; EA 1 GN, BA -0.01, no drag or "
                 "added mass) from a fixed point, released 10 m off the vertical from "
                 "MoorDyn's Init_NoIC nodes. The deck gives CFL = 0.1 and no dtM: both codes "
                 f"step RK4 at MoorDyn's step from it, {r['dt'] * 1e6:.4g} µs "
                 f"(T = {r['period']:.4g} s). Step-loop wall times: tetherdyn "
                 f"{r['wall_ours']:.3g} s, MoorDyn {r['wall_md']:.3g} s (under load)."),
        figure=figure,
        values={"worst_rel": r["worst_rel"], "rel": r["rel"], "motion_rel": r["motion_rel"],
                "range": r["span"], "dt": r["dt"], "peak": r["peak"], "scheme": r["scheme"]},
    )


# --------------------------------------------------------------------------------------
# tests/Mooring/body_tests/rotatingBody.txt
# --------------------------------------------------------------------------------------

BODY_CENTRE = np.array([0.0, 0.0, 5.0])  # tests/bodies.cpp body_center
RADIUS = 2.0  # tests/bodies.cpp radius
REST, TURN, HOLD = 0.1, 2.0, 0.5  # [s]: the first outer step, each quarter turn, each hold


def coupled_path(t: float) -> np.ndarray:
    """tests/bodies.cpp's "Rotating body" path of coupled point 9 [m] at t [s]: 0.1 s at
    rest at (2, 0, 0) from the body's centre, then quarter turns x→z, z→y, y→x at pi/4
    rad/s, each followed by a 0.5 s hold (the test's 5 cm jumps at the holds left out)."""
    phases = ((lambda a: (math.cos(a), 0.0, math.sin(a))),
              (lambda a: (0.0, math.sin(a), math.cos(a))),
              (lambda a: (math.sin(a), math.cos(a), 0.0)))
    s = t - REST
    if s <= 0.0:
        return BODY_CENTRE + RADIUS * np.array([1.0, 0.0, 0.0])
    for k, f in enumerate(phases):
        s0 = k * (TURN + HOLD)
        if s <= s0 + TURN + HOLD or k == 2:
            angle = 0.25 * math.pi * min(max(s - s0, 0.0), TURN)
            return BODY_CENTRE + RADIUS * np.array(f(angle))
    raise AssertionError("unreachable")


def path_corners(duration: float) -> np.ndarray:
    """The times [s] up to ``duration`` where :func:`coupled_path`'s velocity jumps (each
    quarter turn's start and end)."""
    starts = REST + np.arange(3) * (TURN + HOLD)
    corners = np.sort(np.concatenate([starts, starts + TURN]))
    return corners[corners <= duration + 1e-12]


def compare_rotating(duration: float) -> dict:
    """Both codes on rotatingBody.txt for ``duration`` [s], coupled point 9 on
    :func:`coupled_path`, sampled every dtM: ours against MoorDyn with the deck's scheme
    (its default RK2) and against MoorDyn with RK4 (ours), and MoorDyn's two schemes
    against each other. At the path's corners the point's velocity jumps, so an end
    segment's damping force (and the tension reported, T + Td) has two values at that
    instant: MoorDyn reports the one of the step ending there, we the one of the path
    after it. The tensions are compared at every other sample (``worst_rel``) and at the
    corners on their own (``corner_rel``)."""
    from validation.peers.moordyn_system import moordyn_step, run_moordyn_system

    deck = ROTATING_DECK
    dt = moordyn_step(deck)
    interval = dt
    n = round(duration / dt)
    ts = np.arange(n + 2) * dt
    xyz = np.array([coupled_path(float(t)) for t in ts])
    table = {"t": ts.tolist(), "x": xyz[:, 0].tolist(), "y": xyz[:, 1].tolist(),
             "z": xyz[:, 2].tolist()}
    md = run_moordyn_system(deck, duration=duration, output_interval=interval,
                            motions={9: coupled_path})
    md4 = run_moordyn_system(deck, duration=duration, output_interval=interval,
                             motions={9: coupled_path}, scheme="RK4")
    res = _run(deck, duration, interval, dt, md, motions={9: table})
    arm_ours = _node0(res, "7")
    body = res.bodies["1"]["position"][1]
    out = dict(time=res.times, dt=dt, scheme=md["scheme"], scheme4=md4["scheme"],
               peak=max(float(np.nanmax(v)) for v in md["end_tension"].values()),
               wall_ours=float(res.attrs["wall_time_s"]), wall_md=float(md["wall_time_s"]))
    corners = np.zeros(res.times.size, dtype=bool)
    for c in path_corners(duration):
        corners[np.abs(res.times - c) < 0.5 * dt] = True
    for tag, m in (("", md), ("rk4_", md4)):
        rel, hist = _tensions(m, res, skip=corners)
        at_corners = _tensions(m, res, skip=~corners)[0] if corners.any() else {"-": 0.0}
        out[f"{tag}corner_rel"] = max(at_corners.values())
        worst = max(rel, key=rel.get)
        centre, centre_span = _path_rel(body, m["bodies"][1][:, :3])
        arm, arm_span = _path_rel(arm_ours, m["body_points"][8])
        hist["arm_z"] = (arm_ours[:, 2], m["body_points"][8][:, 2])
        out.update({f"{tag}rel": rel, f"{tag}worst": worst, f"{tag}worst_rel": rel[worst],
                    f"{tag}centre_rel": centre, f"{tag}centre_span": centre_span,
                    f"{tag}arm_rel": arm, f"{tag}arm_span": arm_span, f"{tag}hist": hist})
    out["n_corners"] = int(corners.sum())
    out["scheme_rel"] = max(
        float(np.nanmax(np.abs(md[e][k][1:] - md4[e][k][1:])) / np.nanmax(md4[e][k]))
        for e in ("start_tension", "end_tension") for k in md4[e])
    return out


def _node0(res, line: str) -> np.ndarray:
    """Line ``line``'s end-A node path (n_out, 3) [m]."""
    return np.asarray(res.lines[line].data_vars["position"][1])[:, 0, :]


@register("moordyn_system_rotating_body", "peer", "MoorDyn's rotatingBody deck (a free body "
          "turned by a driven point) in tetherdyn and MoorDyn 2.7.2", reference="peer")
def check_rotating_body(full: bool = True, figure_dir: Path | None = None) -> Row:
    from validation.peers.moordyn import moordyn_available

    name = ("MoorDyn tests/Mooring/body_tests/rotatingBody.txt: tetherdyn system vs MoorDyn "
            "2.7.2")
    if not moordyn_available():
        return peer_not_installed(name, "tension histories within 2 % of peak, body motions "
                                  "within 1 % of their range", "2 %, 1 %",
                                  "pip install moordyn==2.7.2")
    duration = REST + 3 * (TURN + HOLD) if full else 1.0
    r = compare_rotating(duration)  # every dtM: 15200 samples of each code
    figure = None
    if figure_dir is not None:
        figure = _figure(r["time"], [("line 7 tension at the body [N]", r["hist"]["7A"]),
                                     ("body point 8 z [m]", r["hist"]["arm_z"])],
                         figure_dir, "moordyn_system_rotating_body.png")
    motion = max(r["centre_rel"], r["arm_rel"])
    t_end = float(r["time"][-1])
    return Row(
        name=f"{name} ({t_end:.3g} s)",
        tier="peer",
        expected="every line's end tension history within 2 % of its peak, body motions "
                 "within 1 % of their range, same step (issue 19)",
        ours=(f"worst tension {r['worst_rel'] * 100:.3g} % of peak (line "
              f"{r['worst'][:-1]} end {r['worst'][-1]}); the body's origin within "
              f"{r['centre_rel']:.2g} of its {r['centre_span']:.3g} m range, its point 8 "
              f"within {r['arm_rel']:.2g} of its {r['arm_span']:.3g} m range (MoorDyn with "
              f"its default RK2, the deck giving no tScheme). Against MoorDyn with RK4, "
              f"ours: worst {r['rk4_worst_rel'] * 100:.2g} %, body within "
              f"{max(r['rk4_centre_rel'], r['rk4_arm_rel']):.2g}; MoorDyn RK2 against "
              f"MoorDyn RK4: {r['scheme_rel'] * 100:.2g} % of peak. Compared every dtM "
              f"but at the path's {r['n_corners']} corners, where the driven point's "
              f"velocity jumps and the end segment's T + Td has two values (MoorDyn reports "
              f"the one before, we the one after): there {r['corner_rel'] * 100:.2g} % "
              f"(RK2), {r['rk4_corner_rel'] * 100:.2g} % (RK4)"),
        tolerance="2 % of peak tension, 1 % of the range of motion",
        passed=bool(r["worst_rel"] < TOL_TENSION and motion < TOL_MOTION),
        details=("MoorDyn's own test deck (tests/Mooring/body_tests/rotatingBody.txt at "
                 "v2.7.1, unchanged; tests/bodies.cpp checks the body's point 8 ends within "
                 "0.15 m of where the turns should put it): a free 10 kg body (I = 5 kg m², "
                 "no volume or drag) held at its origin by six 0.9 m nylon lines to fixed "
                 "points 1 m away (one segment each, d = 0.124 m, 13.76 kg/m, EA 25.2 kN, "
                 "BA -0.4), line 7 (1 m) from its point 8 "
                 "(1 m along body x) to coupled point 9, driven on bodies.cpp's path "
                 "(validation/moordyn_test_decks.py coupled_path), g = 0, water 1025 kg/m³ "
                 f"by default; dtM = {r['dt'] * 1e3:g} ms, from MoorDyn's Init_NoIC nodes. "
                 "Per line and end: " + ", ".join(f"{k} {v * 100:.2g} %"
                                                  for k, v in r["rel"].items())
                 + ". The whole system is 4 to 6 m above the calm surface (z = 0): no fluid "
                 "acts on it in either code (MoorDyn wets what is below the surface; the "
                 "importer gives no air loads, as MoorDyn), so the deck's Ca, CaAx and Cl "
                 "do not act. MoorDyn 2.7.2 reads the deck's 11-column LINE TYPES row "
                 "(header 'EI tbd Can Cat Cdn Cdt') by position: Cd 0, Ca 1, CdAx 0, CaAx "
                 "1.6 and Cl = 0.05, a VIV lift that acts on inner nodes only (Line.cpp), "
                 "and every line here has one segment: the importer takes it with a "
                 "warning. The deck gives no tScheme: MoorDyn runs its default RK2 "
                 "(MoorDyn2.cpp), tetherdyn RK4 at the same dtM. Step-loop wall times "
                 f"(MoorDyn RK2): tetherdyn {r['wall_ours']:.3g} s, MoorDyn "
                 f"{r['wall_md']:.3g} s (MoorDyn called from Python every dtM, under load)."),
        figure=figure,
        values={"worst_rel": r["worst_rel"], "rel": r["rel"], "centre_rel": r["centre_rel"],
                "arm_rel": r["arm_rel"], "arm_range": r["arm_span"],
                "centre_range": r["centre_span"], "scheme_rel": r["scheme_rel"],
                "rk4_worst_rel": r["rk4_worst_rel"],
                "rk4_motion_rel": max(r["rk4_centre_rel"], r["rk4_arm_rel"]),
                "scheme": r["scheme"], "peak": r["peak"], "corner_rel": r["corner_rel"],
                "rk4_corner_rel": r["rk4_corner_rel"], "n_corners": r["n_corners"]},
    )
