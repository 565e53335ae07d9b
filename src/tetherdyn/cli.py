"""The ``tetherdyn`` command line: run, check, statics, import, plot, animate, examples,
export, identify, optimize.

The validation report is the lab's, not the package's: ``python -m validation`` from a checkout."""

from __future__ import annotations

import argparse
import math
import os
import sys
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .case import Case

EXIT_BAD_INPUT = 2
EXIT_FAILED = 1


def _examples_dir():
    from importlib import resources  # here: ~0.02 s of imports a run does not need

    return resources.files("tetherdyn") / "examples"


#: bundled example kinds: file suffix -> (what it is, how to run it)
_EXAMPLE_KINDS = {".yaml": ("case", "tetherdyn run {file}"),
                  ".dat": ("MoorDyn v2 deck", "tetherdyn run {file} --duration 20")}


def _example_files() -> dict[str, object]:
    """Bundled examples by name: case files, GA problem files and MoorDyn decks."""
    return {p.name.rsplit(".", 1)[0]: p for p in _examples_dir().iterdir()
            if "." + p.name.rsplit(".", 1)[-1] in _EXAMPLE_KINDS}


def example_names() -> list[str]:
    """Names of the bundled examples (cases, GA problems, MoorDyn decks)."""
    return sorted(_example_files())


def _example_kind(name: str, text: str) -> tuple[str, str]:
    file = _example_files()[name].name
    if file.endswith(".yaml") and "\nbase_case:" in "\n" + text:
        return "GA problem", f"tetherdyn optimize {file}"
    kind, how = _EXAMPLE_KINDS["." + file.rsplit(".", 1)[-1]]
    return kind, how.format(file=file)


def _is_moordyn(path: str) -> bool:
    """A MoorDyn input deck (``.dat`` / ``.txt``) rather than a tetherdyn YAML case."""
    return Path(path).suffix.lower() in (".dat", ".txt")


def _moordyn_case(args: argparse.Namespace) -> dict:
    from .moordyn_input import moordyn_to_case, moordyn_to_system, parse_moordyn_file

    if args.line is None and len(parse_moordyn_file(args.case).lines) > 1:
        # a deck with several lines runs as a system (docs/systems.md)
        return moordyn_to_system(args.case, duration=args.duration)
    return moordyn_to_case(args.case, duration=args.duration, line=args.line)


def _load_any(path: str, args: argparse.Namespace | None = None):
    """A single-line Case or a SystemCase (system_case.py: a case with lines and points, or
    a MoorDyn deck with several lines). system_case.py (and rigid_body.py with it) is
    imported only for a system: ~0.05 s of a single-line run's start (issue 22)."""
    from .case import CaseWarning, is_system, load_case, read_case_source

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CaseWarning)
        if _is_moordyn(path):
            raw, folder = _moordyn_case(args), Path(path).parent
        else:
            raw, folder = read_case_source(path, None)
        if is_system(raw):
            from .system_case import load_system

            case = load_system(raw, base_dir=folder)
        else:
            case = load_case(raw, base_dir=folder)
    for w in caught:
        print(f"warning: {w.message}", file=sys.stderr)
    return case


# -- check ---------------------------------------------------------------------------------

def _cmd_check(args: argparse.Namespace) -> int:
    from .case import Case
    from .estimates import static_top_tension
    from .integrate import output_times
    from .models import build_model

    case = _load_any(args.case, args)
    if not isinstance(case, Case):
        return _check_system(case, args)
    model = build_model(case)
    t = case.tether
    N = case.model.elements
    Le = t.length / N
    total = t.linear_mass * t.length + case.start.mass + case.end.mass
    dt_crit, element, omega = model.critical_time_step()
    tension, how = static_top_tension(case)
    eq = None
    if case.initial.shape == "equilibrium":  # the state the run starts from (start.py)
        from .start import initial_state

        eq = initial_state(model).equilibrium
        tension, how = max(eq.end_tensions), "the static equilibrium, the run's start"
    s = case.solver
    print(f"case        : {case.name or args.case}  (valid)")
    nodes = f"{model.n_nodes} nodes"
    if case.winch_side is not None:
        p = getattr(case, case.winch_side).payout
        nodes = (f"{N + 1} nodes (up to {model.n_nodes} as the {case.winch_side} winch pays "
                 f"out; elements split above {p.element_band[1]:g} and merge below "
                 f"{p.element_band[0]:g} x {Le:.6g} m)")
    print(f"model       : {case.model.type}, {N} elements, {nodes}, "
          f"drag law {case.drag_law}, method {case.method}")
    print(f"element     : length {Le:.6g} m, mass {t.linear_mass * Le:.6g} kg")
    print(f"total mass  : {total:.6g} kg (tether {t.linear_mass * t.length:.6g} kg)")
    print(f"top tension : {tension:.6g} N static ({how})")
    if eq is not None:
        print(f"initial     : static equilibrium ({eq.method}, {eq.iterations} iterations, "
              f"residual {eq.residual:.3g} N = {eq.residual / eq.weight:.3g} of the weight)")
    print(f"fastest mode: {omega:.6g} rad/s ({omega / (2 * math.pi):.6g} Hz), "
          f"{model.fastest_mode}, element {element}")
    implicit = case.method == "generalized_alpha"
    print(f"critical dt : {dt_crit:.4g} s for explicit RK4 (limited by element {element}); "
          f"solver.dt = {s.dt:g} s" + ("  <-- above the limit" if
                                      case.method == "rk4" and s.dt > dt_crit else "")
          + ("  (generalized_alpha is implicit: no such limit)" if implicit else ""))
    _print_sea(case, dt_crit, None if eq is None else eq.positions)
    n_out = output_times(s.duration, s.output_interval).size
    fixed = case.method == "rk4" or (implicit and not s.adaptive)
    print(f"run         : {s.duration:g} s, {n_out} outputs every {s.output_interval:g} s"
          + (f", {int(round(s.duration / s.dt))} steps" if fixed else ""))
    return 0


def _check_system(case, args: argparse.Namespace) -> int:
    """``tetherdyn check`` on a system case: per line what the single-line check prints
    (its element, its static top tension estimate, its RK4 limit: estimates.py and the
    line's own model on the line's single-line case), per point its type, mass, volume and
    the line ends on it, per body its mass and attachments; the system's stable step is the
    smallest line's (models/system.py LineSystem.critical_time_step), named."""
    import numpy as np

    from .estimates import static_top_tension
    from .integrate import output_times
    from .models import build_model

    bodies = getattr(case, "bodies", None) or {}  # rigid bodies, where the case has them
    lines, points = case.lines, case.points
    free = sum(p.type == "free" for p in points.values())
    nb = f", {len(bodies)} {'body' if len(bodies) == 1 else 'bodies'}" if bodies else ""
    print(f"case        : {case.name or args.case}  (valid system: {len(lines)} lines, "
          f"{len(points)} points, {free} free{nb})")
    eq = None
    if case.initial_shape == "equilibrium":  # the state the run starts from (system_run.py)
        from .system_statics import solve_system

        eq = solve_system(case)
        print(f"initial     : static equilibrium ({eq.method}, {eq.iterations} iterations, "
              f"residual {eq.residual:.3g} N = {eq.residual / eq.weight:.3g} of the weight)")
    width = max(len(k) for k in [*lines, *points, *bodies])
    rho = case.environment.fluid_density
    g = float(np.linalg.norm(case.environment.gravity))
    limits = {}
    n_nodes = 0
    for name, lc in lines.items():
        model = build_model(lc)
        n_nodes += model.n_nodes
        t, N = lc.tether, lc.model.elements
        Le = t.length / N
        ends = " -> ".join(_end_name(case, name, w) for w in (0, 1))
        if eq is not None:
            tension = max(eq.lines[name].end_tensions)
            how = "the static equilibrium, the run's start"
        else:
            tension, how = static_top_tension(lc)
            held = [getattr(lc, e).type != "free" for e in ("start", "end")]
            if not all(held):
                how += ("; the line alone, without the load of " + " and ".join(
                    _end_name(case, name, w) for w in (0, 1) if not held[w]))
        dt, element, omega = model.critical_time_step()
        limits[name] = dt
        pad = " " * (width + 8)
        print(f"line  {name:<{width}} : {ends}; {lc.model.type}, {N} elements, "
              f"{model.n_nodes} nodes, length {t.length:.6g} m, mass "
              f"{t.linear_mass * t.length:.6g} kg")
        print(f"{pad}element length {Le:.6g} m, mass {t.linear_mass * Le:.6g} kg")
        print(f"{pad}top tension {tension:.6g} N static ({how})")
        print(f"{pad}critical dt {dt:.4g} s for explicit RK4 ({model.fastest_mode}, element "
              f"{element}, {omega:.6g} rad/s)")
    for name, p in points.items():
        on = ", ".join(f"{ln} ({'end' if w else 'start'})" for ln, w in case.attached(name))
        pos = case.point_positions[name]
        text = f"{p.type:<7} at {_vec(pos)} m" + (" (t = 0)" if p.type != "fixed" else "")
        if p.type == "free":
            text += (f", mass {p.mass:.6g} kg, volume {p.volume:.6g} m^3 (wet weight "
                     f"{(p.mass - rho * p.volume) * g:.6g} N)")
        print(f"point {name:<{width}} : {text}; lines {on}")
    attached = getattr(case, "attached_to_body", None)
    for name, b in bodies.items():
        ends = attached(name) if attached is not None else []
        on = ", ".join(f"{ln} ({'end' if w else 'start'} at {_vec(at)} m)"
                       for ln, w, at in ends) or "none"
        print(f"body  {name:<{width}} : {b.type:<7} mass {b.mass:.6g} kg, volume "
              f"{b.volume:.6g} m^3, at {_vec(b.position)} m; lines {on}")
    s = case.solver
    worst = min(limits, key=limits.get)
    dt_crit = limits[worst]
    print(f"critical dt : {dt_crit:.4g} s for explicit RK4, the smallest line's: line {worst} "
          f"(the system's stable step); solver.dt = {s.dt:g} s"
          + ("  <-- above the limit" if case.method == "rk4" and s.dt > dt_crit else ""))
    n_out = output_times(s.duration, s.output_interval).size
    print(f"run         : {s.duration:g} s, {n_out} outputs every {s.output_interval:g} s, "
          f"method {case.method}, {n_nodes} nodes in all"
          + (f", {int(round(s.duration / s.dt))} steps" if case.method == "rk4" else ""))
    return 0


def _end_name(case, line: str, w: int) -> str:
    """What a line's start (w = 0) / end (1) attaches to: a point, or a body (with bodies
    in the case: line_bodies)."""
    point = case.line_points[line][w]
    if point is not None:
        return f"point {point}"
    body = getattr(case, "line_bodies", {}).get(line, (None, None))[w]
    return f"body {body[0]}" if body is not None else "?"


def _print_sea(case: Case, dt_crit: float, nodes=None) -> None:
    """The initial shape (``nodes`` [m], default the case's laid shape) against the water
    level and the seabed (estimates.sea_estimate)."""
    from .estimates import sea_estimate

    env = case.environment
    if getattr(env, "water_level", None) is None and getattr(env, "seabed", None) is None:
        return
    sea = sea_estimate(case, nodes)
    L = case.tether.length
    if sea.submerged_length is not None:
        print(f"submerged   : {sea.submerged_length:.6g} m of {L:g} m below the water level "
              f"z = {env.water_level:g} m (initial shape)")
    if sea.bed_clearance is None:
        return
    if sea.touchdown_point is None:
        print(f"touchdown   : none (the initial shape clears the seabed by "
              f"{sea.bed_clearance:.4g} m)")
    else:
        x, y, z = sea.touchdown_point
        print(f"touchdown   : at s = {sea.touchdown_arc:.6g} m, ({x:.6g}, {y:.6g}, {z:.6g}) m; "
              f"{sea.grounded_length:.6g} m on the seabed (initial shape)")
    from .models.base import rk4_critical_step

    seabed_dt = rk4_critical_step(sea.seabed_omega, sea.seabed_zeta)
    print(f"seabed dt   : {seabed_dt:.4g} s for explicit RK4 at a node resting on the "
          f"seabed (contact {sea.seabed_omega:.6g} rad/s, damping ratio {sea.seabed_zeta:.3g}"
          ": kBot d, cBot d on the tether's mass per metre)")
    without = _critical_dt_without_seabed(case)
    if without is not None:
        drop = 100.0 * (1.0 - dt_crit / without)
        print(f"{'':12s}  the critical dt is {without:.4g} s without the seabed: "
              + (f"the seabed lowers it by {drop:.3g} %" if drop > 1e-6 else
                 "the seabed does not change it"))


def _critical_dt_without_seabed(case: Case) -> float | None:
    """The formulation's RK4 limit [s] for the same case with no seabed (None when the
    model offers no such bound)."""
    from .case import CaseError, load_case
    from .models import build_model

    raw = case.to_dict()
    raw["environment"].pop("seabed", None)
    try:
        return build_model(load_case(raw, base_dir=case.base_dir)).critical_time_step()[0]
    except (NotImplementedError, CaseError):
        return None


# -- statics -------------------------------------------------------------------------------

def _vec(v) -> str:
    return "(" + ", ".join(f"{float(c):.6g}" for c in v) + ")"


def _cmd_statics(args: argparse.Namespace) -> int:
    import time

    from .case import Case, CaseError, load_case
    from .models import build_model
    from .start import initial_state

    case = _load_any(args.case, args)
    outputs = [Path(p) for p in (args.output, args.results, args.plot) if p]
    for out in outputs:  # before the solve: a bad path is bad input
        if not out.parent.is_dir():
            raise CaseError(f"{out}: folder {out.parent} does not exist")
    if not isinstance(case, Case):
        return _statics_system(case, args)
    if case.initial.shape != "equilibrium":  # the equilibrium a run of it would start from
        raw = case.to_dict()
        ini = raw.setdefault("initial", {})
        ini["shape"] = "equilibrium"  # its points or direction stay as the guess
        for key in ("velocity", "angular_velocity"):
            ini.pop(key, None)
        case = load_case(raw, base_dir=case.base_dir)
    model = build_model(case)
    t0 = time.perf_counter()
    start = initial_state(model)
    wall = time.perf_counter() - t0
    eq = start.equilibrium
    t_start, t_end = eq.end_tensions
    print(f"case        : {case.name or args.case}  ({case.model.type}, "
          f"{case.model.elements} elements)")
    print(f"end tension : start {t_start:.6g} N, end {t_end:.6g} N")
    td = eq.touchdown
    if td is not None:
        print(f"touchdown   : at s = {td['arc_length']:.6g} m, {_vec(td['position'])} m")
    elif case.environment.seabed is not None:
        print("touchdown   : none (the line does not reach the seabed)")
    print(f"lowest point: {_vec(eq.lowest)} m")
    print(f"residual    : {eq.residual:.3g} N, {eq.residual / eq.weight:.3g} of the line's "
          f"weight {eq.weight:.6g} N (tolerance {eq.tol / eq.weight:.3g})")
    print(f"solver      : {eq.method}, {eq.iterations} iterations, {wall:.3g} s")
    if args.output:
        _write_shape_case(eq, args, load_case)
    if args.results or args.plot:
        table = eq.results()
        table.attrs.update(start.attrs)
    if args.results:
        from .results import save_results

        print(f"wrote {save_results(table, args.results)}")
    if args.plot:  # the shape and its tension along the line
        from .plot import plot_results

        plot_results(table.to_dataset(), args.plot)
        print(f"wrote {args.plot}")
    return 0


def _write_shape_case(eq, args: argparse.Namespace, load) -> None:
    """Write ``tetherdyn statics -o``'s case (the equilibrium as ``initial.points``), after
    checking with ``load`` (load_case or load_system) that it loads from where it is
    written."""
    from .case import CaseError, yaml_text

    raw = eq.to_case_dict()
    out = Path(args.output)
    try:  # the written case must load and run from where it is written
        load(raw, base_dir=out.parent)
    except CaseError as exc:
        raise CaseError(f"{out}: the shape's case would not load from {out.parent} "
                        f"(write it next to the case file): {exc}") from None
    out.write_text(f"# the static equilibrium of {Path(args.case).name} "
                   f"(tetherdyn statics: {eq.method}, residual {eq.residual:.3g} N)\n"
                   + yaml_text(raw))
    print(f"wrote {out}")


def _statics_system(case, args: argparse.Namespace) -> int:
    """``tetherdyn statics`` on a system case (system_statics.py): per line its end
    tensions and touchdown, per point its position and residual, per body its position,
    roll/pitch/yaw, the lines' force and moment on it and (free) its residual; the shape
    as a case (lines' ``initial.points``, free points' positions, free bodies' poses) or a
    results file (one time)."""
    import time

    from .system_case import load_system
    from .system_statics import solve_system

    t0 = time.perf_counter()
    eq = solve_system(case)
    wall = time.perf_counter() - t0
    free = sum(p.type == "free" for p in case.points.values())
    bodies = (f", {len(case.bodies)} bodies, "
              f"{sum(b.type == 'free' for b in case.bodies.values())} free"
              if case.bodies else "")
    print(f"case        : {case.name or args.case}  (system: {len(case.lines)} lines, "
          f"{len(case.points)} points, {free} free{bodies})")
    width = max(len(k) for k in list(case.lines) + list(case.points) + list(case.bodies))
    for name, leq in eq.lines.items():
        t_start, t_end = leq.end_tensions
        a, b = (p if p is not None else f"body {on[0]}" for p, on in
                zip(case.line_points[name], case.line_bodies[name], strict=True))
        text = f"end tension start ({a}) {t_start:.6g} N, end ({b}) {t_end:.6g} N"
        if case.environment.seabed is not None:
            td = leq.touchdown
            text += ("; touchdown none" if td is None else
                     f"; touchdown at s = {td['arc_length']:.6g} m, {_vec(td['position'])} m")
        print(f"line  {name:<{width}} : {text}")
    for name, spec in case.points.items():
        text = f"{spec.type:<7} {_vec(eq.points[name])} m, line force {_vec(eq.forces[name])} N"
        if spec.type == "free":
            text += f", residual {eq.point_residuals[name]:.3g} N"
        print(f"point {name:<{width}} : {text}")
    import numpy as np

    for name, body in case.bodies.items():
        f6 = eq.body_forces[name]
        text = (f"{body.type:<7} {_vec(eq.bodies[name][:3])} m, roll/pitch/yaw "
                f"{_vec(np.degrees(eq.roll_pitch_yaw(name)))} deg, line force "
                f"{_vec(f6[:3])} N, moment {_vec(f6[3:])} N m")
        if body.type == "free":
            f, m = eq.body_residuals[name]
            text += f", residual {f:.3g} N, {m:.3g} N m"
        print(f"body  {name:<{width}} : {text}")
    print(f"residual    : {eq.residual:.3g} N, {eq.residual / eq.weight:.3g} of the system's "
          f"weight {eq.weight:.6g} N (tolerance {eq.tol / eq.weight:.3g})")
    print(f"solver      : {eq.method}, {eq.iterations} iterations, {wall:.3g} s")
    if args.output:
        _write_shape_case(eq, args, load_system)
    if args.results or args.plot:
        from .integrate import IntegrationResult
        from .models.system_model import build_system
        from .system_run import system_results

        model = build_system(case)
        run = IntegrationResult(times=np.array([0.0]), states=eq.state(model)[None, :],
                                rhs_evaluations=0, wall_time_s=0.0, steps=0,
                                data=model.data)
        res = system_results(case, model, run)
        res.attrs.update(initial_shape="equilibrium", initial_equilibrium_method=eq.method,
                         initial_equilibrium_residual=float(eq.residual))
    if args.results:
        print(f"wrote {res.write(args.results)}")
    if args.plot:  # the shape: every line, point (and body) (system_plot.py)
        from .system_plot import plot_system

        plot_system(res, args.plot)
        print(f"wrote {args.plot}")
    return 0


# -- run / plot / animate -------------------------------------------------------------------

def _cmd_run(args: argparse.Namespace) -> int:
    from .case import Case
    from .results import save_results
    from .simulate import run_case

    case = _load_any(args.case, args)
    progress = False if args.quiet else None
    if not isinstance(case, Case):
        return _run_system(case, args, progress)
    # the file is written without xarray (results.py: ~0.8 s of imports a run never uses)
    table = run_case(case, progress=progress)
    out = save_results(table, args.output)
    if not args.quiet:
        print(f"wrote {out}  ({table.sizes['time']} outputs, {table.attrs['wall_time_s']:.3g} "
              f"s integration, {table.attrs['rhs_evaluations']} rhs evaluations)")
    if args.plot:
        from .plot import plot_results

        plot_results(table.to_dataset(), args.plot)
        if not args.quiet:
            print(f"wrote {args.plot}")
    return 0


def _run_system(case, args: argparse.Namespace, progress: bool | None) -> int:
    """``tetherdyn run`` on a system case: one netCDF file with a group per line and point
    (system_run.py)."""
    from .system_run import run_system

    res = run_system(case, progress=progress)
    out = res.write(args.output)
    if not args.quiet:
        print(f"wrote {out}  ({len(case.lines)} lines, {len(case.points)} points, "
              f"{res.times.size} outputs, {res.attrs['wall_time_s']:.3g} s integration, "
              f"{res.attrs['rhs_evaluations']} rhs evaluations)")
    if args.plot:  # every line, point and body (system_plot.py)
        from .system_plot import plot_system

        plot_system(res, args.plot)
        if not args.quiet:
            print(f"wrote {args.plot}")
    return 0


def _open_results(path: str):
    """A single-line results Dataset, or a system's SystemView (system_plot.py)."""
    from .case import CaseError
    from .results import load_results
    from .system_plot import is_system_results, open_system

    if not Path(path).is_file():
        raise CaseError(f"results file not found: {path}")
    if is_system_results(path):
        return open_system(path)
    return load_results(path)


def _cmd_plot(args: argparse.Namespace) -> int:
    from .plot import plot_results
    from .system_plot import SystemView, plot_system

    ds = _open_results(args.results)
    draw = plot_system if isinstance(ds, SystemView) else plot_results
    draw(ds, args.output, n_snapshots=args.snapshots, plane=args.plane)
    print(f"wrote {args.output}")
    return 0


def _cmd_animate(args: argparse.Namespace) -> int:
    from .plot import animate_results
    from .system_plot import SystemView, animate_system

    ds = _open_results(args.results)
    draw = animate_system if isinstance(ds, SystemView) else animate_results
    out = draw(ds, args.output, fps=args.fps, max_frames=args.max_frames, plane=args.plane)
    print(f"wrote {out}")
    return 0


# -- examples -----------------------------------------------------------------------------

def _cmd_examples(args: argparse.Namespace) -> int:
    from .case import CaseError
    files = _example_files()
    names = sorted(files)
    if not args.name:
        for name in names:
            text = files[name].read_text()
            # a case's first comment line; a MoorDyn deck's line after its title bar
            lines = text.splitlines()
            first = (lines[1].strip() if files[name].name.endswith(".dat") and len(lines) > 1
                     else next((ln.lstrip("# ").strip() for ln in lines
                                if ln.startswith("#") and ln.lstrip("# ").strip()), ""))
            kind, how = _example_kind(name, text)
            print(f"{name:24s} {first}\n{'':24s} [{kind}: {how}]")
        print("\nwrite one out with: tetherdyn examples NAME [-o DIR]")
        return 0
    if args.name not in names:
        raise CaseError(f"no example named {args.name!r} (available: {', '.join(names)})")
    folder = Path(args.output)
    folder.mkdir(parents=True, exist_ok=True)
    src = files[args.name]
    dest = folder / src.name
    dest.write_text(src.read_text())
    print(f"wrote {dest}")
    # data files an example refers to travel with it
    for extra in _examples_dir().iterdir():
        if extra.name.endswith(".csv") and extra.name in src.read_text():
            (folder / extra.name).write_text(extra.read_text())
            print(f"wrote {folder / extra.name}")
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    from .export import export_vtk

    if not Path(args.results).is_file():
        print(f"error: results file not found: {args.results}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.stride < 1:
        print("error: --stride: must be >= 1", file=sys.stderr)
        return EXIT_BAD_INPUT
    pvd = export_vtk(args.results, args.vtk, stride=args.stride)
    print(f"wrote {pvd}  (open it in ParaView)")
    return 0


def _cmd_import(args: argparse.Namespace) -> int:
    from .case import CaseWarning, yaml_text

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CaseWarning)
        case = _moordyn_case(args)
        from .system_case import load_any

        load_any(case, base_dir=Path(args.case).parent)  # validate before writing
    for w in caught:
        print(f"warning: {w.message}", file=sys.stderr)
    out = Path(args.output)
    out.write_text(f"# imported from the MoorDyn deck {Path(args.case).name}\n"
                   + yaml_text(case))
    print(f"wrote {out}")
    return 0


def _deck_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--duration", type=float,
                        help="simulated time [s] for a MoorDyn deck (decks set none)")
    parser.add_argument("--line", type=int, help="line ID of a MoorDyn deck with several")


# -- identify / optimize (the library functions live in identify.py / optimize.py) ------

def _cmd_identify(args: argparse.Namespace) -> int:
    from .identify import identify

    out = Path(args.out)
    progress = False if args.quiet else None
    result = identify(args.case, args.markers, args.param, scheduler=args.scheduler,
                      workers=args.workers, store=out / "store.csv", refine=args.refine,
                      progress=progress)
    paths = result.save(out, figures=not args.no_figures)
    n = len(result.table)
    print(f"evaluated {n} points ({result.n_failed} failed) in {result.wall_s:.1f} s; "
          f"{result.sampling}")
    rms = math.sqrt(result.best_J / len(result.markers))
    print("best: " + ", ".join(f"{k} = {v:.6g}" for k, v in result.best.items())
          + f"  (J = {result.best_J:.6g} m², rms {rms * 1e3:.3g} mm)")
    if args.refine:
        print("grid best: " + ", ".join(f"{k} = {v:.6g}" for k, v in result.grid_best.items())
              + f"  (J = {result.grid_best_J:.6g} m²); refined from "
              f"{len(result.starts)} grid points")
    for note in result.notes:
        print(note)
    if result.uncertainty is not None:
        print(result.uncertainty.summary())
    for p in paths:
        print(f"wrote {p}")
    return 0


def add_identify_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``tetherdyn identify`` to the CLI's subparsers; returns the parser."""
    p = subparsers.add_parser(
        "identify", help="identify case parameters from measured markers (grid search, "
        "seed 003 eq. 25)",
        description="Full grid search over the given case keys for the parameters whose "
        "simulation best matches measured marker positions (seed 003 eq. 25), optionally "
        "refined by bounded least squares with 95 % intervals and correlations. Runs on a "
        "local Dask cluster or an existing one. Re-running "
        "with the same --out resumes (finished points are kept in OUT/store.csv).")
    p.add_argument("case", help="base case file (YAML)")
    p.add_argument("--markers", required=True,
                   help="marker CSV: time,marker,arc_length,x,y,z (docs/identify.md)")
    p.add_argument("--param", action="append", required=True, metavar="KEY=START:STOP:STEP",
                   help="a case key and its grid (STOP included), or KEY=V1,V2,...; repeat")
    p.add_argument("--refine", action="store_true",
                   help="then refine the continuous parameters by bounded least squares "
                   "from the 3 best grid points and report their 95 %% intervals")
    p.add_argument("--scheduler", metavar="ADDR",
                   help="address of a running Dask scheduler (default: $TETHERDYN_SCHEDULER, "
                   "else a local cluster)")
    p.add_argument("--workers", type=int, default=2,
                   help="worker processes of the local cluster [2]")
    p.add_argument("--out", default="identify_out", help="output folder [identify_out]")
    p.add_argument("--no-figures", action="store_true", help="skip the figures")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_identify)
    return p


def _cmd_optimize(args: argparse.Namespace) -> int:
    from .optimize import _fmt, load_problem, optimize, write_outputs

    problem = load_problem(args.problem)
    result = optimize(problem, generations=args.generations, seed=args.seed,
                      scheduler=args.scheduler, workers=args.workers)
    out = Path(args.out) if args.out else Path(f"{Path(args.problem).stem}_ga")
    paths = write_outputs(problem, result, out)
    print(f"best fitness {result.best_fitness:.6g} at t = {result.best_t:.3g} s: "
          f"{_fmt(result.best_values)} (bits {result.best_bits}); "
          f"{sum(r['evaluated'] for r in result.individuals)} simulations, "
          f"{len(result.failures)} failed, {result.wall_s:.1f} s")
    for p in paths.values():
        print(f"wrote {p}")
    return 0


def add_optimize_parser(subparsers) -> argparse.ArgumentParser:
    """Register ``tetherdyn optimize PROBLEM.yaml [--generations N] [--seed S]
    [--scheduler ADDR] [--workers N] [--out DIR]``."""
    p = subparsers.add_parser("optimize", help="GA optimisation of a held end's motion")
    p.add_argument("problem", help="problem file (YAML, see docs/optimize.md)")
    p.add_argument("--generations", type=int, default=None, help="override ga.generations")
    p.add_argument("--seed", type=int, default=None, help="override ga.seed")
    p.add_argument("--scheduler", default=None,
                   help="Dask scheduler address (default: a local cluster, or "
                        "$TETHERDYN_SCHEDULER)")
    p.add_argument("--workers", type=int, default=None, help="local cluster workers (default 2)")
    p.add_argument("--out", default=None, help="output folder (default PROBLEM_ga)")
    p.set_defaults(func=_cmd_optimize)
    return p


def build_parser() -> argparse.ArgumentParser:
    from ._version import __version__

    p = argparse.ArgumentParser(prog="tetherdyn",
                                description="Dynamics of tethers, cables and umbilicals.")
    p.add_argument("--version", action="version", version=f"tetherdyn {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser("run", help="run a case file and write results (netCDF)")
    r.add_argument("case", help="case file (YAML) or MoorDyn v2 deck (.dat, .txt)")
    r.add_argument("-o", "--output", default="out.nc", help="results file [out.nc]")
    r.add_argument("--plot", metavar="PNG", help="also draw the results figure")
    r.add_argument("-q", "--quiet", action="store_true", help="no progress bar or summary")
    _deck_options(r)
    r.set_defaults(func=_cmd_run)

    c = sub.add_parser("check", help="validate a case and print derived numbers")
    c.add_argument("case", help="case file (YAML) or MoorDyn v2 deck (.dat, .txt)")
    _deck_options(c)
    c.set_defaults(func=_cmd_check)

    st = sub.add_parser("statics", help="the static equilibrium of a case: end tensions, "
                        "touchdown, lowest point; write it as a case or results")
    st.add_argument("case", help="case file (YAML) or MoorDyn v2 deck (.dat, .txt)")
    st.add_argument("-o", "--output", metavar="YAML",
                    help="write the shape as a case file (initial: shape points)")
    st.add_argument("--results", metavar="NC", help="write the shape as a results file "
                    "(netCDF, one time)")
    st.add_argument("--plot", metavar="PNG", help="draw the shape and its tension")
    _deck_options(st)
    st.set_defaults(func=_cmd_statics)

    im = sub.add_parser("import", help="turn a MoorDyn v2 deck into a tetherdyn case file")
    im.add_argument("case", help="MoorDyn v2 input file")
    im.add_argument("-o", "--output", default="case.yaml", help="case file to write")
    _deck_options(im)
    im.set_defaults(func=_cmd_import)

    pl = sub.add_parser("plot", help="tether snapshots and end-force history")
    pl.add_argument("results")
    pl.add_argument("-o", "--output", default="fig.png")
    pl.add_argument("--snapshots", type=int, default=8)
    pl.add_argument("--plane", choices=["xz", "yz", "principal"])
    pl.set_defaults(func=_cmd_plot)

    a = sub.add_parser("animate", help="animation of the motion (.gif, or .mp4 with ffmpeg)")
    a.add_argument("results")
    a.add_argument("-o", "--output", default="anim.gif")
    a.add_argument("--fps", type=int, default=25)
    a.add_argument("--max-frames", type=int, default=300)
    a.add_argument("--plane", choices=["xz", "yz", "principal"])
    a.set_defaults(func=_cmd_animate)

    e = sub.add_parser("examples", help="list bundled example cases, or write one out")
    e.add_argument("name", nargs="?")
    e.add_argument("-o", "--output", default=".", help="folder to write into [.]")
    e.set_defaults(func=_cmd_examples)

    x = sub.add_parser("export", help="write results as a ParaView (VTK) time series")
    x.add_argument("results", help="results file (netCDF, from `tetherdyn run`)")
    x.add_argument("--vtk", metavar="DIR", required=True, help="folder for .vtu files + .pvd")
    x.add_argument("--stride", type=int, default=1, help="keep every n-th output time [1]")
    x.set_defaults(func=_cmd_export)

    add_identify_parser(sub)
    add_optimize_parser(sub)

    return p


def _skip_exit_collection() -> None:
    """At interpreter exit, leave the objects alive now to the operating system instead of
    a last full garbage collection through them: numba's typing and target contexts hold
    ~10^5 objects, and that collection cost ~0.15 s of every ``tetherdyn`` process (issue
    22, benchmarks/results_startup.md). Registered by :func:`main` once; files are closed
    by the commands themselves."""
    import gc

    gc.freeze()


def _statics_error() -> type[Exception]:
    """statics.StaticsError when statics.py has been imported (nothing can have raised it
    otherwise: a run that does not solve statics need not import it)."""
    statics = sys.modules.get(f"{__package__}.statics")
    return statics.StaticsError if statics is not None else _NeverRaised


class _NeverRaised(Exception):
    """What :func:`_statics_error` gives before statics.py is imported."""


def _one_blas_thread() -> None:
    """One OpenBLAS thread for this process, unless the user chose a number or numpy is
    loaded already (a Python session calling :func:`main`). The CLI's dense linear algebra is
    small (statics' and identification's solves; the time loops are compiled and call no
    BLAS), while numpy's OpenBLAS starts a thread per core when it loads, which spins
    there: ~0.05 s of CPU beside the main thread in every process, and on a busy machine
    ~0.1 s of wall time (`import numpy` 0.15-0.23 s against 0.27-0.42 s, load ~2, 2 cores;
    benchmarks/results_startup.md). Dask's workers set the same variable."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main(argv: list[str] | None = None) -> int:
    import atexit
    import gc

    atexit.unregister(_skip_exit_collection)
    atexit.register(_skip_exit_collection)
    args = build_parser().parse_args(argv)
    _one_blas_thread()
    # after parsing: `tetherdyn --help` and a usage error load neither pydantic nor numba
    from .case import CaseError
    from .integrate import SimulationError

    # a command allocates many long-lived objects (imports, numba's contexts) and few
    # cycles: collect the youngest generation less often while it runs (~0.08 s a run)
    thresholds = gc.get_threshold()
    gc.set_threshold(max(thresholds[0], 50_000), *thresholds[1:])
    try:
        return args.func(args)
    except CaseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as exc:
        if not isinstance(exc, (SimulationError, _statics_error())):
            raise
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        gc.set_threshold(*thresholds)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
