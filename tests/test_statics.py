"""tetherdyn.statics.equilibrium: the general static solver against independent answers."""

import math

import numpy as np
import pytest

from tetherdyn.case import load_case
from tetherdyn.models import build_model
from tetherdyn.statics import equilibrium
from validation import seed003
from validation.catenary import discrete_catenary


def catenary_case(n: int, span: float, dz: float, length: float, EA: float) -> dict:
    return dict(tether=dict(length=length, diameter=1.5875e-3, mass_per_length=0.016, EA=EA),
                model=dict(type="lumped_mass", elements=n),
                environment=dict(gravity=[0.0, 0.0, -9.81]),
                start=dict(type="fixed", position=[0.0, 0.0, 0.0]),
                end=dict(type="fixed", position=[span, 0.0, dz]),
                solver=dict(dt=1e-3, duration=1.0))


def test_lumped_mass_catenary_is_the_exact_discrete_chain():
    # between two supports the lumped chain's equilibrium is known in closed form up to two
    # scalars (validation/catenary.py: element k carries the continuum's tension at its
    # mid-length); Newton from a sagging guess must land on it to rounding (1e-9 m on a
    # 10 m span: the solve's residual 1e-10 N over a stiffness EA/L_e = 3 kN/m)
    n, span, dz, length, EA = 16, 10.0, 3.0, 10.6, 2000.0
    s = np.linspace(0.0, 1.0, n + 1)
    guess = np.column_stack([span * s, 0 * s, dz * s - 4.0 * s * (1 - s)]).ravel()
    eq = equilibrium(catenary_case(n, span, dz, length, EA), guess, tol=1e-10)
    assert eq.converged and eq.residual < 1e-10
    nodes, _, _ = discrete_catenary(span, dz, length, 0.016 * 9.81, EA, n)
    assert np.max(np.abs(eq.positions[:, [0, 2]] - nodes)) < 1e-9
    assert np.max(np.abs(eq.positions[:, 1])) == 0.0
    # the banded (coloured) Jacobian is exact for a chain without bending: same answer
    eqb = equilibrium(catenary_case(n, span, dz, length, EA), guess, tol=1e-10,
                      jacobian="banded")
    assert eqb.converged and np.max(np.abs(eqb.positions - eq.positions)) < 1e-9


def test_taut_line_under_an_end_force_stretches_by_F_over_EA():
    # a weightless line hanging from a fixed point with a tip force F along it: every
    # element carries F, so node k sits at s_k (1 + F/EA); continuation over 5 load steps
    F, EA, L, n = 50.0, 1e4, 3.0, 6
    case = dict(tether=dict(length=L, diameter=0.01, mass_per_length=0.1, EA=EA),
                model=dict(type="lumped_mass", elements=n),
                environment=dict(gravity=[0.0, 0.0, 0.0]),
                start=dict(type="fixed", position=[0.0, 0.0, 0.0]),
                end=dict(type="free", force=[0.0, 0.0, -F], force_ramp_time=10.0),
                initial=dict(direction=[0.0, 0.0, -1.0]),
                solver=dict(dt=1e-3, duration=1.0))
    eq = equilibrium(case, load_steps=5, tol=1e-9)
    assert eq.converged and eq.load_steps == 5
    # the ramp of the case is dropped: the full force acts in the static solve
    exact = -np.linspace(0.0, L, n + 1) * (1.0 + F / EA)
    assert np.max(np.abs(eq.positions[:, 2] - exact)) < 1e-12 * L * 1e3
    assert [round(lam, 12) for lam, _ in eq.history] == [0.2, 0.4, 0.6, 0.8, 1.0]


def test_ancf2d_large_deflection_cantilever_matches_the_model_specific_solver():
    # the ancf2d cantilever (clamped slopes are held coordinates) under a tip load
    # P L²/EI = 5, reached by load continuation, must agree with seed003's own banded
    # Newton solve of the same model (independent code) to 1e-9 of L, and with the
    # elastica shooting solution to its discretisation error (8 elements: 1e-3 of L; 2e-3
    # asserted)
    alpha = 5.0
    case = seed003.cantilever_case(8, EI=1.0, EA=1e5, tip_load=alpha)
    eq = equilibrium(case, load_steps=10, tol=1e-10)
    assert eq.converged
    model = build_model(load_case(case))
    y = model.initial_state()
    for k in range(1, 11):  # the model-specific solver needs its own continuation
        c = seed003.cantilever_case(8, EI=1.0, EA=1e5, tip_load=alpha * k / 10)
        m = build_model(load_case(c))
        y, _ = seed003.static_solve(m, y)
    ours = eq.y[: model.n_q]
    assert np.max(np.abs(ours - y[: model.n_q])) < 1e-9
    v, h = seed003.elastica(alpha, 1e5)
    tip = eq.positions[-1]
    assert abs(-tip[2] - v) < 2e-3
    assert abs((1.0 - tip[0]) - h) < 2e-3


def test_convergence_is_judged_by_the_residual_not_the_iteration_count():
    # one Newton iteration cannot reach the cantilever's equilibrium: the result must
    # say so (converged False, residual above tol) instead of raising or pretending
    case = seed003.cantilever_case(8, EI=1.0, EA=1e5, tip_load=5.0)
    eq = equilibrium(case, max_iter=1, tol=1e-10)
    assert not eq.converged
    assert eq.residual > 1e-10
    assert math.isfinite(eq.residual)


def test_solve_contract_surface_reports_the_shape_and_raises_when_it_fails():
    # statics.solve (issue 18's API): converged to rtol · weight, the derived quantities
    # and the case / results writers; a solve that cannot converge raises StaticsError
    from tetherdyn.statics import StaticsError, solve

    n, span, dz, length, EA = 16, 10.0, 3.0, 10.6, 2000.0
    case = catenary_case(n, span, dz, length, EA)
    s = np.linspace(0.0, 1.0, n + 1)
    guess = np.column_stack([span * s, 0 * s, dz * s - 4.0 * s * (1 - s)])
    eq = solve(case, guess=guess)
    w = 0.016 * 9.81 * length  # no fluid: the dry weight
    assert eq.weight == pytest.approx(w, rel=1e-12)
    assert eq.converged and eq.residual <= 1e-6 * w
    nodes, _, _ = discrete_catenary(span, dz, length, 0.016 * 9.81, EA, n)
    assert np.max(np.abs(eq.positions[:, [0, 2]] - nodes)) < 1e-6
    assert eq.lowest[2] == pytest.approx(nodes[:, 1].min(), abs=1e-6)
    t0, t1 = eq.end_tensions
    assert t1 > t0 > 0.0  # the upper end carries more
    assert eq.touchdown is None
    raw = eq.to_case_dict()
    assert raw["initial"]["shape"] == "points" and len(raw["initial"]["points"]) == n + 1
    ds = eq.results().to_dataset()
    assert ds.sizes["time"] == 1 and float(np.abs(ds["velocity"]).max()) == 0.0
    with pytest.raises(StaticsError, match=r"residual .* N .* node \d+ \(arc length"):
        solve(case, guess=guess, max_iter=1, rtol=1e-14, relax_steps=2000)


# -- statics.solve: the robust pipeline of issue 18 ----------------------------------------

def _line(n: int, EA_ratio: float, span: float, dz: float, *, model: str = "lumped_mass",
          mpl: float = 10.0, d: float = 0.05, L: float = 100.0, end=None, env=None,
          tether=None, opts=None) -> dict:
    rho = 1025.0
    w = abs(mpl - rho * math.pi * d * d / 4) * 9.81
    t = dict(length=L, diameter=d, mass_per_length=mpl, EA=EA_ratio * w * L, **(tether or {}))
    e = dict(gravity=[0.0, 0.0, -9.81], fluid_density=rho, **(env or {}))
    return dict(tether=t, model=dict(type=model, elements=n, **(opts or {})), environment=e,
                start=dict(type="fixed", position=[0.0, 0.0, -100.0]),
                end=end or dict(type="fixed", position=[span, 0.0, -100.0 + dz]),
                solver=dict(dt=1e-4, duration=1.0))


def test_solve_the_stiff_jumper_with_bending_of_issue_18():
    # issue 18: 170 m, EA = 5e8 N, EI = 1.2e5 N m², 68 segments, both ends held,
    # lumped_mass bending: Newton stalled at 1e5 N from an inextensible catenary guess.
    # Converged: the residual within 1e-6 of the weight, and the holders carry the whole
    # wet weight (vertical balance: an independent check of the shape's loads)
    from tetherdyn.statics import solve

    case = dict(tether=dict(length=170.0, diameter=0.25, mass_per_length=120.0, EA=5e8,
                            EI=1.2e5),
                model=dict(type="lumped_mass", elements=68, bending=True),
                environment=dict(gravity=[0.0, 0.0, -9.81], fluid_density=1025.0),
                start=dict(type="fixed", position=[0.0, 0.0, -100.0]),
                end=dict(type="fixed", position=[100.0, 0.0, -70.0]),
                solver=dict(dt=1e-4, duration=1.0))
    eq = solve(case)
    W = (120.0 - 1025.0 * math.pi * 0.25**2 / 4) * 9.81 * 170.0
    assert eq.weight == pytest.approx(W, rel=1e-12)
    assert eq.converged and eq.residual <= 1e-6 * W
    out = eq.model.outputs(np.array([0.0]), eq.y[None, :])
    vertical = out["start_force"][0][2] + out["end_force"][0][2]
    # the holders carry the weight less what the free nodes' residuals leave unbalanced
    assert abs(vertical + W) <= 67 * eq.residual + 1e-12 * W


@pytest.mark.parametrize("EA_ratio,span", [(1e2, 60.0), (1e8, 60.0), (1e8, 95.0)])
def test_solve_soft_and_stiff_slack_and_taut_lines_match_the_discrete_catenary(EA_ratio,
                                                                                span):
    # EA/(w L) from 1e2 to 1e8, slack (chord 72 m) and taut (chord 102.9 m > L = 100 m):
    # the lumped chain between two supports is validation/catenary.py's closed form
    from tetherdyn.statics import solve

    n, dz = 10, 40.0
    case = _line(n, EA_ratio, span, dz)
    eq = solve(case)
    w = (10.0 - 1025.0 * math.pi * 0.05**2 / 4) * 9.81
    assert eq.converged and eq.residual <= 1e-6 * w * 100.0
    nodes, _, _ = discrete_catenary(span, dz, 100.0, w, case["tether"]["EA"], n)
    assert np.max(np.abs(eq.positions[:, [0, 2]] - nodes - [0.0, -100.0])) < 1e-6 * 100.0


def test_solve_buoyant_line_floats_up_and_its_anchor_carries_the_net_buoyancy():
    # a positively buoyant line (10 kg/m in a 0.25 m tube: 50 kg/m of water displaced)
    # held at the seabed end and free above: it stands straight up, each element carrying
    # the net buoyancy of what is above it, stretched by T/EA (closed form)
    from tetherdyn.statics import solve

    n = 8
    case = _line(n, 1e3, 0.0, 0.0, d=0.25, end=dict(type="free"))
    eq = solve(case)
    b = (1025.0 * math.pi * 0.25**2 / 4 - 10.0) * 9.81  # net buoyancy per metre [N/m]
    assert eq.converged and eq.residual <= 1e-6 * b * 100.0
    assert eq.end_tensions[0] == pytest.approx(b * 100.0, rel=1e-9)
    EA, le = case["tether"]["EA"], 100.0 / n
    # element k carries the buoyancy of nodes k+1..n (half an element at the tip)
    T = b * le * (n - np.arange(n) - 0.5)
    z = -100.0 + np.concatenate([[0.0], np.cumsum(le * (1.0 + T / EA))])
    assert np.max(np.abs(eq.positions[:, 2] - z)) < 1e-9 * 100.0
    assert np.max(np.abs(eq.positions[:, :2])) < 1e-9


@pytest.mark.parametrize("stiffness", [3e6, 3e9])
def test_solve_seabed_grounded_length_and_fairlead_tension_match_the_closed_form(stiffness):
    # mooring_touchdown.yaml's chain (180 m, EA 5e8 N, 50 m deep, fairlead 150 m away) on
    # a flat seabed: analytic.seabed_catenary (Jonkman 2007; frictionless: the statics'
    # friction anchors sit at the unloaded start) within the discretisation: the grounded
    # length to one element (5 m), the fairlead tension to 1 %. A stiff bed (3e9 Pa/m:
    # the grounded nodes sink 3 µm, the chain's elements stretch 0.3 mm) needs the
    # difference step below the least stretch (statics.fd_step_cap): it went to the
    # dynamic relaxation before
    from tetherdyn.analytic import seabed_catenary
    from tetherdyn.statics import solve

    n = 36
    env = dict(water_level=0.0, seabed=dict(z=-50.0, stiffness=stiffness, damping=3e5,
                                            friction=dict(axial=0.5, lateral=1.0)))
    case = dict(tether=dict(length=180.0, diameter=0.12, mass_per_length=100.0, EA=5e8),
                model=dict(type="lumped_mass", elements=n),
                environment=dict(gravity=[0.0, 0.0, -9.81], fluid_density=1025.0, **env),
                start=dict(type="fixed", position=[0.0, 0.0, -50.0]),
                end=dict(type="fixed", position=[150.0, 0.0, -5.0]),
                solver=dict(dt=1e-3, duration=1.0))
    eq = solve(case)
    assert eq.converged and eq.residual <= 1e-6 * eq.weight
    assert eq.method == "newton"
    w = (100.0 - 1025.0 * math.pi * 0.12**2 / 4) * 9.81
    ref = seabed_catenary(150.0, 45.0, 180.0, w, 5e8)
    assert eq.touchdown is not None
    assert abs(eq.touchdown["arc_length"] - ref.grounded_length) <= 180.0 / n
    assert eq.end_tensions[1] == pytest.approx(ref.fairlead_tension, rel=0.01)


def test_solve_grounded_line_in_a_cross_current_with_the_anchors_its_relaxation_slid():
    # validation/statics.py's "seabed + current": the cross current moves the grounded
    # nodes ~1 m from the frictionless start, past their friction cap; Newton fails and
    # the dynamic relaxation (of the line softened to EA/(wL) = 1e4, then Newton on the real
    # one) slides the anchors as a run does (sea.update_anchor). Measured against the
    # start's anchors it stayed at 118 N; with the slid ones it converges, the equilibrium
    # carries them, and a run from it stays still (issue 18: < 1e-6 m/s)
    from tetherdyn.integrate import integrate
    from tetherdyn.start import initial_state
    from tetherdyn.statics import free_force, solve

    w = (10.0 - 1025.0 * math.pi * 0.05**2 / 4) * 9.81
    case = load_case(dict(
        tether=dict(length=100.0, diameter=0.05, mass_per_length=10.0, EA=1e6 * w * 100.0),
        model=dict(type="lumped_mass", elements=20),
        environment=dict(gravity=[0.0, 0.0, -9.81], fluid_density=1025.0, water_level=0.0,
                         current=[0.6, 0.8, 0.0],
                         seabed=dict(z=-100.0, stiffness=3e6, damping=3e5,
                                     friction=dict(axial=0.5, lateral=1.0))),
        start=dict(type="fixed", position=[0.0, 0.0, -100.0]),
        end=dict(type="fixed", position=[85.0, 0.0, -70.0]),
        initial=dict(shape="equilibrium"), solver=dict(method="rk4", dt=2.5e-4,
                                                       duration=0.5)))
    eq = solve(build_model(case))
    assert eq.method == "dynamic_relaxation" and eq.residual <= 1e-6 * eq.weight
    model = build_model(case)
    model.data.sea_anchor[:] = eq.anchors
    free = np.flatnonzero(np.asarray(model.held) == 0)
    assert np.max(np.abs(free_force(model, eq.y, 0.0, free))) == pytest.approx(eq.residual,
                                                                               rel=1e-6)
    start = initial_state(model)
    run = integrate(model, "rk4", 2.5e-4, 0.5, 0.05, y0=start.y, data=start.data(model))
    assert np.max(np.abs(run.states[:, model.n_q:])) < 1e-6


def test_solve_payload_in_a_current_hangs_along_its_weight_and_drag():
    # a thin light line (its weight and drag 2e-4 of the payload's) under a 50 kg payload with
    # drag area 0.5 m² in a 1 m/s current: the line is straight along the payload's
    # load, at atan(D / W) from the vertical (D = ½ ρ A U², W its wet weight), to 1e-3
    from tetherdyn.statics import solve

    end = dict(type="free", mass=50.0, volume=0.01, drag_area=0.5)
    case = _line(10, 1e4, 0.0, 0.0, mpl=1e-4, d=1e-6, end=end,
                 env=dict(current=[1.0, 0.0, 0.0]))
    eq = solve(case)
    assert eq.converged and eq.residual <= 1e-6 * eq.weight
    D = 0.5 * 1025.0 * 0.5 * 1.0**2
    W = (50.0 - 1025.0 * 0.01) * 9.81
    tip = eq.positions[-1] - eq.positions[0]
    assert math.atan2(tip[0], -tip[2]) == pytest.approx(math.atan2(D, W), rel=1e-3)
    assert eq.end_tensions[0] == pytest.approx(math.hypot(D, W), rel=1e-3)


@pytest.mark.parametrize("model", ["rigid_links", "rod_chain"])
def test_solve_rigid_links_and_rod_chain_by_dynamic_relaxation(model):
    # no second-order surface: dynamic relaxation (the model's own RK4 step, damped), from
    # a guess hanging straight down. A chain hanging with a horizontal tip force F: every
    # link (rod) lies along the load it carries, the
    # tip force plus the weight below its centre (moment balance about its upper hinge),
    # so the tip sits at the closed-form sum over links; 1e-4 of L
    from tetherdyn.statics import solve

    n, L, F = 6, 10.0, 2.0
    case = dict(tether=dict(length=L, diameter=0.01, mass_per_length=0.2, EA=1e6),
                model=dict(type=model, elements=n),
                environment=dict(gravity=[0.0, 0.0, -9.81]),
                start=dict(type="fixed", position=[0.0, 0.0, 0.0]),
                end=dict(type="free", force=[F, 0.0, 0.0]),
                solver=dict(dt=2e-3, duration=1.0))
    if model == "rigid_links":
        case["tether"].pop("EA")
    s = np.linspace(0.0, L, n + 1)
    eq = solve(case, guess=np.column_stack([0.0 * s, 0.0 * s, -s]))
    assert eq.method == "dynamic_relaxation" and eq.converged
    wl = 0.2 * 9.81 * L / n  # one link's weight [N]
    k = np.arange(n)
    load = np.column_stack([np.full(n, F), np.zeros(n), -wl * (n - k - 0.5)])
    T = np.linalg.norm(load, axis=1)
    stretch = 1.0 + (T / 1e6 if model == "rod_chain" else 0.0 * T)
    tip = np.sum((L / n) * stretch[:, None] * load / T[:, None], axis=0)
    assert np.max(np.abs(eq.positions[-1] - tip)) < 1e-4 * L


def test_solve_error_names_the_residual_where_it_sits_and_what_to_try():
    # a line with both ends free under its weight has no equilibrium: StaticsError with
    # the residual [N], the node and its arc length, the methods tried and what to try
    from tetherdyn.statics import StaticsError, solve

    case = _line(4, 1e3, 0.0, 0.0, end=dict(type="free"))
    case["start"] = dict(type="free")
    with pytest.raises(StaticsError) as err:
        solve(case, relax_steps=2000)
    msg = str(err.value)
    for part in ("residual", " N ", "node", "arc length", "newton", "dynamic relaxation",
                 "Try"):
        assert part in msg


@pytest.mark.parametrize("ratio", [1e6, 1e8])
@pytest.mark.parametrize("model", ["lumped_mass", "higher_order"])
def test_solve_stiff_slack_line_with_bending_by_newton(model, ratio):
    # EA/(w L) = 1e6, slack (chord 72 m of 100 m), EI = 1e3 N m²: the elements stretch
    # ~5e-6 m, less than the Jacobian's old difference step (1e-4 m), which made them
    # slack in half the evaluations; Newton then diverged (3.9 N -> 4e4 N) and the solve
    # went to the relaxation (lumped_mass: 40-58 s) or failed (higher_order: 0.05-0.4 N
    # against 7.8e-3 N). 1e8: no step both stays off the kink and differences more than
    # rounding; the Jacobian of the twin without the kink (compression allowed) converges
    # where the plain step left 1.3 N / 10 N. The holders carry the wet weight (vertical
    # balance, independent of the solver) to what the free nodes' residuals leave
    from tetherdyn.statics import solve

    opts = dict(bending=True) if model == "lumped_mass" else None
    case = _line(20, ratio, 60.0, 40.0, model=model, tether=dict(EI=1e3), opts=opts)
    eq = solve(case)
    W = (10.0 - 1025.0 * math.pi * 0.05**2 / 4) * 9.81 * 100.0
    assert eq.converged and eq.residual <= 1e-6 * W and eq.method == "newton"
    out = eq.model.outputs(np.array([0.0]), eq.y[None, :])
    vertical = out["start_force"][0][2] + out["end_force"][0][2]
    assert abs(vertical + W) <= 19 * eq.residual + 1e-9 * W


def test_solve_error_says_when_the_equilibrium_needs_compression():
    # a neutrally buoyant slack line with bending clamped straight down at its start (the
    # ROV umbilical's situation): the weightless elastica is in compression near the
    # clamp. Allowed compression, Newton converges; without it the solve fails, and the
    # error says that the equilibrium needs compression and what to set
    from tetherdyn.statics import StaticsError, solve

    neutral = 1025.0 * math.pi * 0.05**2 / 4
    case = _line(10, 1e4, 60.0, 40.0, mpl=neutral, model="higher_order",
                 tether=dict(EI=1e5))
    case["tether"]["EA"] = 1e7
    case["start"]["clamp"] = [0.0, 0.0, -1.0]
    with pytest.raises(StaticsError, match=r"elements in compression .* tether.compression"):
        solve(case, relax_steps=0, max_iter=12)  # the diagnosis, not the relaxation
    case["tether"]["compression"] = True
    eq = solve(case)
    assert eq.converged and eq.residual <= 1e-6 * eq.weight
    T = eq.model.outputs(np.array([0.0]), eq.y[None, :])["tension"][0]
    assert T.min() < -1e3 * eq.residual


def test_solve_says_a_torque_free_neutral_line_with_ends_closer_than_L_over_sqrt2_has_none():
    # a neutrally buoyant, compression-free higher_order line (GJ = 0) clamped at its
    # start and pinned at its end: its internal force is one constant P, the tension
    # T = P·t >= 0, and the planar elastica's tangent turns by at most 90°, so the ends
    # must be at least L/√2 apart (docs/statics.md, "No equilibrium"). Ends 64 m apart
    # on 100 m (< 70.7 m): the error says so after Newton, without the relaxation; allowed
    # compression, the arch stands
    from tetherdyn.statics import StaticsError, solve

    neutral = 1025.0 * math.pi * 0.05**2 / 4
    case = _line(10, 1e4, 50.0, 40.0, mpl=neutral, model="higher_order",
                 tether=dict(EI=1e5))
    case["tether"]["EA"] = 1e7
    case["start"]["clamp"] = [0.0, 0.0, -1.0]
    with pytest.raises(StaticsError, match=r"no static equilibrium exists: the ends are "
                                           r"64.03 m apart, closer than L/√2 = 70.71 m"):
        solve(case, max_iter=12)
    case["tether"]["compression"] = True
    eq = solve(case)
    assert eq.converged and eq.residual <= 1e-6 * eq.weight


def test_solve_a_very_stiff_line_below_the_position_rounding_floor():
    # EA/(w L) = 1e8, N = 100, slack: one ulp of a node coordinate at 100 m (1.4e-14 m)
    # is EA ulp / L_e = 0.011 N of tension, above the 7.8e-3 N tolerance, so Newton's
    # step rounded to nearest stalls there (0.0144 N); rounding each coordinate of the
    # last step to the neighbour that keeps the element lengths right converges. The
    # holders carry the wet weight (vertical balance) to what the residuals leave
    from tetherdyn.statics import solve

    eq = solve(_line(100, 1e8, 60.0, 40.0))
    W = (10.0 - 1025.0 * math.pi * 0.05**2 / 4) * 9.81 * 100.0
    assert eq.converged and eq.residual <= 1e-6 * W
    out = eq.model.outputs(np.array([0.0]), eq.y[None, :])
    vertical = out["start_force"][0][2] + out["end_force"][0][2]
    assert abs(vertical + W) <= 99 * eq.residual + 1e-9 * W


def test_solve_a_steady_tow_to_the_force_residual_in_the_moving_frame():
    # a line towed at 1 m/s through water with a drag body at its free end: steady.settle
    # stops at its own test (the holder forces' ranges: 1e-4 of the weight on chapman_turn),
    # then Newton in the moving frame takes the force residual to 1e-6 of the weight. The
    # run from that state (the model's own dynamics, not the solver) keeps every node at
    # the tow's velocity
    from tetherdyn.statics import solve
    from tetherdyn.steady import Continuation

    tow = dict(t=[0.0, 4000.0], x=[0.0, 4000.0], y=[0.0, 0.0], z=[-10.0, -10.0])
    case = dict(tether=dict(length=20.0, diameter=0.02, mass_per_length=1.0, EA=1e5),
                model=dict(type="lumped_mass", elements=6),
                environment=dict(gravity=[0.0, 0.0, -9.81], fluid_density=1025.0),
                start=dict(type="prescribed", interpolation="linear", trajectory=tow),
                end=dict(type="free", mass=20.0, volume=0.002, drag_area=0.1),
                initial=dict(shape="equilibrium"), solver=dict(dt=1e-3, duration=1.0))
    eq = solve(case)
    assert eq.method == "steady" and eq.residual <= 1e-6 * eq.weight
    n = eq.model.n_nodes
    assert np.allclose(eq.y[3 * n:].reshape(n, 3), [1.0, 0.0, 0.0])
    run = Continuation(load_case(case), y0=eq.y)
    _, Y = run.advance(0.2, 0.1)
    v = Y[:, 3 * n:].reshape(len(Y), n, 3) - np.array([1.0, 0.0, 0.0])
    assert np.max(np.abs(v)) < 1e-6


def test_twist_precession_chord_bounds_every_path_in_its_triangle():
    # docs/statics.md, 'No equilibrium', step 5: tangents within 90° of P̂ whose azimuth
    # about P̂ spans at most x keep chord / length >= twist_precession_chord(x); x = 0 is
    # the planar 1/√2. Checked on random piecewise-constant tangent paths in that region,
    # and near-tight where the path sits at the triangle's vertices
    from tetherdyn.statics import twist_precession_chord

    assert twist_precession_chord(0.0) == pytest.approx(1.0 / math.sqrt(2.0), rel=1e-15)
    rng = np.random.default_rng(18)
    for x in (0.0, 0.3, 0.56, 1.0, 2.0):
        bound = twist_precession_chord(x)
        theta = rng.uniform(0.0, 0.5 * math.pi, (2000, 40))
        phi = rng.uniform(0.0, x, (2000, 40))
        t = np.stack([np.sin(theta) * np.cos(phi), np.sin(theta) * np.sin(phi),
                      np.cos(theta)], -1)
        chord = np.linalg.norm(t.mean(axis=1), axis=1)
        assert chord.min() >= bound
        # the pole and the two equator corners, a third of the length each
        pole, a, b = np.array([0, 0, 1.0]), np.array([1.0, 0, 0]), np.array(
            [math.cos(x), math.sin(x), 0.0])
        corners = np.linalg.norm(pole + a + b) / 3.0
        assert corners >= bound and corners <= 1.2 * bound
