"""Rows: rigid bodies in systems of lines (issue 19; docs/systems.md "Bodies").

- ``system_body_accelerated_frame``: MoorDyn's own "Pinned body" test (tests/bodies.cpp,
  Mooring/body_tests/pinnedBody.txt: a pinned body accelerated at 0.5 m/s², mean roll
  within 1e-3 rad of atan(-a/g)) built with lines: a frame (a coupled body) accelerated
  along y holds a tripod of three stiff lines whose apex is the reference point of a
  10 kg body with its centre of gravity 1 m below. The lines pin the body there; a
  rotational drag (nothing else of the fluid acts on it) lets the swing settle. Criterion
  (the issue's): the tilt settles at atan(a/g) within 0.1°. Analytic.
- ``system_body_energy``: a free body on three lines from fixed points, in vacuum without
  damping, lines linear-elastic both ways: max |E − E0| < 1e-5 of the exchanged energy
  (the issue's criterion). A conservation law.
- ``system_body_end_swap``: the same body in water with drag, added mass and damping; line
  L1 given from the body to its anchor instead: no tension changes by more than 1e-9 of it
  (MoorPy asserts the same of its lines). A symmetry the equations have.
"""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np

from tetherdyn.system_run import run_system

from . import Row, register, save_figure

G = 9.80665
A_FRAME = 0.5  # MoorDyn's test's acceleration [m/s^2]


def swing(solver: dict, *, water: bool = False) -> dict:
    """A 20 kg body, its centre of gravity off the reference point, hung from three fixed
    points by three lines, thrown sideways and spinning (in water: damping, drag, added
    mass on lines and body)."""
    tether = {"diameter": 0.02, "mass_per_length": 1.0, "EA": 2.0e4, "compression": True}
    if water:
        tether |= {"axial_damping": 50.0, "cd_normal": 1.2, "ca_normal": 1.0}
    lines, points = {}, {}
    for i, ang in enumerate(np.radians([0.0, 120.0, 240.0])):
        c, s = float(np.cos(ang)), float(np.sin(ang))
        points[f"A{i}"] = {"type": "fixed", "position": [2 * c, 2 * s, 0.0]}
        lines[f"L{i}"] = {"length": 2.497, "tether": tether,
                          "model": {"type": "lumped_mass", "elements": 6},
                          "start": {"point": f"A{i}"},
                          "end": {"body": "B", "at": [0.5 * c, 0.5 * s, 0.2]}}
    body = {"type": "free", "position": [0.0, 0.0, -2.2], "mass": 20.0, "inertia": [2, 3, 4],
            "center_of_gravity": [0.05, 0.0, -0.1], "velocity": [1.5, 0.8, 0.0],
            "angular_velocity": [1.0, -0.5, 2.0]}
    if water:
        body |= {"volume": 0.01, "drag_area": [0.3, 0.3, 0.5], "added_mass": [5, 5, 8, 1, 1, 1],
                 "rotational_drag_area": [0.1, 0.1, 0.1]}
    return {"lines": lines, "points": points, "bodies": {"B": body},
            "environment": {"fluid_density": 1025.0 if water else 0.0},
            "solver": solver}


def energy(res) -> tuple[np.ndarray, np.ndarray]:
    """(the body's kinetic energy, the system's total energy) over time [J]: the lines'
    (their end nodes included) plus the body's (SystemResults.energies)."""
    return res.bodies["B"]["kinetic_energy"][1], res.energies()[1]


def frame_case(a: float, duration: float, dt: float) -> dict:
    """The accelerated frame (module docstring): frame trajectory y = a t²/2 from rest
    (a natural cubic spline through 0.1 s knots, run 2 s past the end), lines EA 0.1 MN
    lightly damped, body 10 kg, I = 1 kg m², rotational drag area 20 m⁵ in water (no
    volume, translational drag or added mass)."""
    t = np.arange(0.0, duration + 2.0 + 1e-9, 0.1)
    zeros = [0.0] * t.size
    traj = {"t": t.tolist(), "x": zeros, "y": (0.5 * a * t**2).tolist(), "z": zeros,
            "roll_deg": zeros, "pitch_deg": zeros, "yaw_deg": zeros}
    tether = {"diameter": 0.01, "mass_per_length": 0.5, "EA": 1.0e5, "axial_damping": 30.0,
              "cd_normal": 0.0, "ca_normal": 0.0}
    lines = {}
    for i, ang in enumerate(np.radians([90.0, 210.0, 330.0])):
        lines[f"L{i}"] = {"length": float(np.sqrt(2.0)), "tether": tether,
                          "model": {"type": "lumped_mass", "elements": 3},
                          "start": {"body": "frame",
                                    "at": [float(np.cos(ang)), float(np.sin(ang)), 0.0]},
                          "end": {"body": "B", "at": [0.0, 0.0, 0.0]}}
    return {"lines": lines,
            "bodies": {"frame": {"type": "coupled", "trajectory": traj},
                       "B": {"type": "free", "position": [0.0, 0.0, -1.0], "mass": 10.0,
                             "inertia": [1.0, 1.0, 1.0], "center_of_gravity": [0, 0, -1.0],
                             "rotational_drag_area": [20.0, 20.0, 20.0]}},
            "environment": {"fluid_density": 1025.0, "gravity": [0.0, 0.0, -G]},
            "solver": {"method": "rk4", "dt": dt, "duration": duration,
                       "output_interval": 0.05}}


@register("system_body_accelerated_frame", "analytic", "A body hung on lines in a frame "
          "accelerated at a tilts to atan(a/g)", reference="analytic")
def check_accelerated_frame(full: bool = True, figure_dir: Path | None = None) -> Row:
    duration, settled = (30.0, 20.0) if full else (12.0, 10.0)
    res = run_system(frame_case(A_FRAME, duration, 1e-3), progress=False)
    b = res.bodies["B"]
    t = res.times
    late = t >= settled
    theta = float(np.arctan(-A_FRAME / G))
    roll = b["roll_pitch_yaw"][1][:, 0]
    dev = float(np.degrees(np.abs(roll[late] - theta).max()))
    mean = float(np.degrees(roll[late].mean() - theta))
    force = b["force"][1][late].mean(axis=0)
    weight = 10.0 * G
    force_rel = float(np.abs(force - [0.0, 10.0 * A_FRAME, weight]).max() / weight)
    off_axis = float(np.abs(b["roll_pitch_yaw"][1][:, 1:]).max())
    moment_rel = float(np.abs(b["moment"][1]).max() / weight)
    figure = None
    if figure_dir is not None:
        import matplotlib.figure

        fig = matplotlib.figure.Figure(figsize=(6.0, 3.2))
        ax = fig.add_subplot(1, 1, 1)
        ax.plot(t, np.degrees(roll), label="tetherdyn: body roll")
        ax.axhline(np.degrees(theta), ls="--", color="k", label="atan(-a/g)")
        ax.set_xlabel("time [s]")
        ax.set_ylabel("roll [deg]")
        ax.legend(fontsize=8)
        figure = save_figure(fig, figure_dir, "system_body_accelerated_frame.png")
    return Row(
        name=f"Body on lines in a frame accelerated at {A_FRAME} m/s² ({duration:.3g} s)",
        tier="analytic",
        expected="the tilt settles at atan(a/g) within 0.1° (issue 19; MoorDyn's 'Pinned "
                 "body' test asserts its mean roll within 1e-3 rad)",
        ours=(f"from {settled:.3g} s on within {dev:.2g}° of atan(a/g) = "
              f"{np.degrees(theta):.4g}° (mean {mean:+.2g}°); lines' force on the body "
              f"m (a − g) within {force_rel:.2g} of its weight; pitch and yaw "
              f"{off_axis:.1g} rad"),
        tolerance="0.1°",
        passed=bool(dev < 0.1),
        details=("MoorDyn's test (tests/bodies.cpp 'Pinned body', "
                 "Mooring/body_tests/pinnedBody.txt: a coupled pinned body with a rod, in "
                 "vacuum, the mean roll over two swings) built with lines: a coupled frame "
                 "on y = a t²/2 holds a tripod of three lines (EA 0.1 MN, 3 segments) whose "
                 "apex is the reference point of a free 10 kg body, its centre of gravity "
                 "1 m below; in water with a rotational drag area of 20 m⁵ only (no volume, "
                 "translational drag or added mass), so the swing decays; RK4 at 1 ms. "
                 "The lines' pull on the body at its apex has no moment about it (checked "
                 "1e-9), so only gravity and the frame's acceleration set the tilt."),
        figure=figure,
        values={"deviation_deg": dev, "mean_deg": mean, "force_rel": force_rel,
                "off_axis_rad": off_axis, "moment_rel": moment_rel},
    )


@register("system_body_energy", "analytic", "Energy held: a free body swinging on three "
          "lines in vacuum", reference="analytic")
def check_energy(full: bool = True, figure_dir: Path | None = None) -> Row:
    duration = 5.0 if full else 2.0
    solver = {"method": "rk4", "dt": 2e-4, "duration": duration, "output_interval": 0.05}
    res = run_system(swing(solver), progress=False)
    ke, E = energy(res)
    rel = float(np.abs(E - E[0]).max() / ke.max())
    return Row(
        name=f"Free body swinging on three lines, vacuum, undamped ({duration:.3g} s)",
        tier="analytic",
        expected="total energy held within 1e-5 of the exchanged energy (issue 19)",
        ours=f"max |E − E0| = {rel:.2g} of the body's peak kinetic energy {ke.max():.3g} J",
        tolerance="1e-5",
        passed=bool(rel < 1e-5 and ke.max() > 30.0),
        details=("A 20 kg body (centre of gravity off its reference point, I = 2, 3, 4 "
                 "kg m²) thrown at 1.7 m/s and spinning at 2.3 rad/s on three 2.5 m lines "
                 "(EA 20 kN, 6 segments, compression carried: no kink) from fixed points; "
                 "RK4 at 0.2 ms. E = the lines' kinetic, gravitational and strain energy "
                 "(their end nodes on the body included) plus the body's. Measured 3.8e-7 "
                 "at 0.2 ms and 1.2e-8 at 0.1 ms over 2 s (RK4's h⁴). It holds because the "
                 "end nodes lumped on the body carry their centripetal inertia (MoorDyn's "
                 "Body leaves it out)."),
        values={"rel": rel, "exchanged": float(ke.max())},
    )


@register("system_body_end_swap", "analytic", "Swapping a line's ends changes no tension "
          "(a body in water)", reference="analytic")
def check_end_swap(full: bool = True, figure_dir: Path | None = None) -> Row:
    duration = 2.0 if full else 0.5
    solver = {"method": "rk4", "dt": 2e-4, "duration": duration, "output_interval": 0.05}
    case = swing(solver, water=True)
    swapped = copy.deepcopy(case)
    line = swapped["lines"]["L1"]
    line["start"], line["end"] = line["end"], line["start"]
    a = run_system(case, progress=False)
    b = run_system(swapped, progress=False)
    worst = 0.0
    peak = 0.0
    for name in case["lines"]:
        ta = a.lines[name].data_vars["tension"][1]
        tb = b.lines[name].data_vars["tension"][1]
        if name == "L1":
            tb = tb[:, ::-1]
        peak = max(peak, float(np.abs(ta).max()))
        worst = max(worst, float((np.abs(tb - ta) / np.maximum(np.abs(ta), 1e-300)).max()))
    moved = float(np.abs(b.bodies["B"]["position"][1] - a.bodies["B"]["position"][1]).max())
    return Row(
        name=f"Line L1 of a body's mooring given end to start ({duration:.3g} s)",
        tier="analytic",
        expected="no tension changes by more than 1e-9 of it (issue 19; MoorPy asserts the "
                 "same)",
        ours=f"worst {worst:.2g} of the tension (peak {peak:.3g} N); body within {moved:.2g} m",
        tolerance="1e-9",
        passed=bool(worst <= 1e-9 and peak > 30.0),
        details=("The free body of system_body_energy in water: line damping, drag and "
                 "added mass on lines and body (volume 0.01 m³, CdA 0.3-0.5 m², added mass "
                 "5-8 kg); RK4 at 0.2 ms; the tension of every element of every line "
                 "compared, L1's in reverse order."),
        values={"worst_rel": worst, "peak": peak, "body_distance": moved},
    )


BODY_DRAG_DECK = Path(__file__).resolve().parent / "decks" / "moordyn_bodyDrag.txt"


def compare_body_deck(deck: Path, duration: float, output_interval: float) -> dict:
    """Both codes on a MoorDyn deck with bodies from the same initial nodes (MoorDyn's
    Init_NoIC), at the deck's dtM: per line and end the largest end tension difference
    relative to MoorDyn's peak, per body the largest position difference relative to its
    range of motion (and the angles' largest difference [rad])."""
    import warnings

    from tetherdyn.case import CaseWarning
    from tetherdyn.moordyn_input import moordyn_to_system
    from validation.peers.moordyn_system import run_moordyn_system

    md = run_moordyn_system(deck, duration=duration, output_interval=output_interval)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CaseWarning)
        case = moordyn_to_system(deck, duration=duration, output_interval=output_interval,
                                 initial_nodes=md["initial_nodes"])
    res = run_system(case, progress=False)
    rel = {}
    hist = {}
    for lid in md["start_tension"]:
        T = np.abs(res.lines[str(lid)].data_vars["tension"][1])
        for end, ours, theirs in (("A", T[:, 0], md["start_tension"][lid]),
                                  ("B", T[:, -1], md["end_tension"][lid])):
            rel[f"{lid}{end}"] = float(np.nanmax(np.abs(ours[1:] - theirs[1:]))
                                       / np.nanmax(theirs))
            hist[f"{lid}{end}"] = (ours, theirs)
    motion, angle, ranges = {}, {}, {}
    for bid, pose in md["bodies"].items():
        ours = res.bodies[str(bid)]
        span = float(np.ptp(pose[:, :3], axis=0).max())
        ranges[bid] = span
        motion[bid] = float(np.abs(ours["position"][1] - pose[:, :3]).max()) / span
        angle[bid] = float(np.abs(ours["roll_pitch_yaw"][1] - pose[:, 3:]).max())
        hist[f"body{bid}"] = (ours["position"][1][:, 2], pose[:, 2])
    worst = max(rel, key=rel.get)
    return dict(rel=rel, worst=worst, worst_rel=rel[worst], motion_rel=motion, angle=angle,
                ranges=ranges, time=res.times, hist=hist, version=md["moordyn_version"],
                dt=float(case["solver"]["dt"]), dt_md=float(md["dt"]))


@register("moordyn_system_body_drag", "peer", "MoorDyn's bodyDrag deck (a free body on a "
          "line) in tetherdyn and MoorDyn 2.7.2", reference="peer")
def check_body_drag(full: bool = True, figure_dir: Path | None = None) -> Row:
    from validation.peers.moordyn import moordyn_available

    from . import peer_not_installed

    name = "MoorDyn tests/Mooring/body_tests/bodyDrag.txt: tetherdyn system vs MoorDyn 2.7.2"
    if not moordyn_available():
        return peer_not_installed(name, "tension histories within 2 % of peak, body motions "
                                  "within 1 % of their range", "2 %, 1 %",
                                  "pip install moordyn==2.7.2")
    duration = 10.0 if full else 2.0
    r = compare_body_deck(BODY_DRAG_DECK, duration, 0.02)
    worst_motion = max(r["motion_rel"].values())
    figure = None
    if figure_dir is not None:
        import matplotlib.figure

        fig = matplotlib.figure.Figure(figsize=(8.0, 3.2))
        for j, key in enumerate(("1A", "body1")):
            ax = fig.add_subplot(1, 2, j + 1)
            ours, theirs = r["hist"][key]
            ax.plot(r["time"], theirs, label="MoorDyn 2.7.2")
            ax.plot(r["time"], ours, "--", label="tetherdyn")
            ax.set_xlabel("time [s]")
            ax.set_ylabel("line 1 tension at the body [N]" if j == 0 else "body 1 z [m]")
            ax.legend(fontsize=8)
        figure = save_figure(fig, figure_dir, "moordyn_system_body_drag.png")
    return Row(
        name=f"{name} ({duration:.3g} s)",
        tier="peer",
        expected="every line's end tension history within 2 % of its peak, body motions "
                 "within 1 % of their range, same step (issue 19)",
        ours=(f"worst tension {r['worst_rel'] * 100:.2g} % of peak (line {r['worst'][:-1]} "
              f"end {r['worst'][-1]}); body 1 within {worst_motion:.2g} of its "
              f"{r['ranges'][1]:.3g} m range, angles within {r['angle'][1]:.1g} rad"),
        tolerance="2 % of peak tension, 1 % of the range of motion",
        passed=bool(r["worst_rel"] < 0.02 and worst_motion < 0.01),
        details=("MoorDyn's own test deck (tests/Mooring/body_tests/bodyDrag.txt, "
                 "unchanged; its test checks the body drag stays positive): a free 10 kg "
                 "body (I = 5 kg m², pitched -90°, CdA 0.1 m² on every axis and rotation) on "
                 "one 4.5 m spring line of one segment (EA 500 N, 10 kg/m, d = 0.1 m, BA "
                 "-0.4) to a fixed point 5 m below, released with the line stretched; it "
                 "falls past the anchor and sinks at its drag's terminal speed. RK4 at the "
                 f"deck's dtM = {r['dt_md']:g} s from MoorDyn's Init_NoIC nodes. The line's "
                 "end node (half its 45 kg) rides on the body: lumped onto it in both codes."),
        figure=figure,
        values={"worst_rel": r["worst_rel"], "motion_rel": worst_motion,
                "range": r["ranges"][1], "angle": r["angle"][1]},
    )
