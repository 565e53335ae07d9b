"""The sea's validation rows (issue 17): surface crossing, a catenary on the seabed, seabed
friction (dragging, sticking and sliding on a slope), a tethered balloon in wind, and the
same mooring line in waves side by side with MoorDyn 2.7.2 (:mod:`validation.sea_moordyn`).

Every reference is a closed form of :mod:`tetherdyn.analytic` (which imports nothing else of
tetherdyn) or a peer; the criteria are the issue's own statements (issue 17, "It must show").
Static states come from :func:`tetherdyn.statics.equilibrium` where the state does not
depend on the history (no friction); with friction the static state depends on how the line
got there, so those rows run the dynamics from a stated start (a tension-free lay) with
:func:`tetherdyn.steady.settle`.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from tetherdyn import analytic
from tetherdyn.simulate import simulate

from . import Row, register, save_figure

G = 9.81  # [m/s^2]
RHO_W = 1025.0  # sea water [kg/m^3]
RHO_A = 1.225  # air [kg/m^3]


def _area(d: float) -> float:
    return math.pi * d * d / 4.0


def _top_force(eq) -> np.ndarray:
    """Forces (2, 3) [N] of the line on its start and end holders at a static state."""
    out = np.zeros((2, 3))
    eq.model.end_forces(0.0, eq.y, out)
    return out


# =========================================================================================
# 1. A vertical line hanging through the surface
# =========================================================================================

#: a 10 m line, 50 mm, 4 kg/m: wet weight 19.5 N/m, weight in air 39.2 N/m (a strong jump)
SC_LENGTH, SC_D, SC_MPL, SC_EA = 10.0, 0.05, 4.0, 1.0e5
#: issue 17: static top tension within 0.1 %
SC_TOL = 1e-3


def surface_case(model: str, elements: int, top_z: float) -> dict:
    """The line hanging straight down from ``top_z`` [m] through the water level z = 0.
    higher_order needs a bending stiffness: a small one (a straight vertical line bends
    nowhere, so it does not change the statics)."""
    case = dict(
        name="vertical line through the surface",
        tether=dict(length=SC_LENGTH, diameter=SC_D, mass_per_length=SC_MPL, EA=SC_EA,
                    cd_normal=1.2, ca_normal=1.0),
        model=dict(type=model, elements=elements),
        environment=dict(gravity=[0.0, 0.0, -G], fluid_density=RHO_W, water_level=0.0,
                         air_density=RHO_A),
        start=dict(type="fixed", position=[0.0, 0.0, top_z]),
        end=dict(type="free"),
        initial=dict(direction=[0.0, 0.0, -1.0]),
        solver=dict(method="rk4", dt=1e-4, duration=0.1, output_interval=0.01),
    )
    if model == "higher_order":
        case["tether"]["EI"] = 1.0
    return case


def surface_reference(top_z: float) -> analytic.SurfaceCrossingLine:
    return analytic.vertical_line_through_surface(
        SC_LENGTH, top_z, 0.0, SC_MPL, _area(SC_D), RHO_W, RHO_A, EA=SC_EA, g=G)


def surface_top_tension(model: str, elements: int, top_z: float, q0=None):
    """(static top tension [N], equilibrium) of the line hanging from ``top_z``."""
    from tetherdyn.statics import equilibrium

    eq = equilibrium(surface_case(model, elements, top_z), q0, tol=1e-9, max_iter=60)
    return float(np.linalg.norm(_top_force(eq)[0])), eq


def surface_sweep(model: str, elements: int, tops: np.ndarray) -> dict:
    """Static top tension along a sweep of top heights (each solve starts from the last)."""
    ours, ref, dry, conv = [], [], [], []
    q = None
    for z in tops:
        t, eq = surface_top_tension(model, elements, float(z), q)
        q = eq.q.copy() if eq.converged else None
        r = surface_reference(float(z))
        ours.append(t)
        ref.append(r.top_tension)
        dry.append(r.dry_length)
        conv.append(bool(eq.converged))
    return dict(top=np.asarray(tops), ours=np.array(ours), ref=np.array(ref),
                dry=np.array(dry), converged=np.array(conv))


def surface_crossing(model: str, elements: int, n_sweep: int) -> dict:
    """Top tension against the closed form at three immersions, and a fine sweep of the top
    height across one node's crossing: each step's change of top force against the weight
    change of the length that crossed (w_air − w_water) Δs_w (the node's share)."""
    le = SC_LENGTH / elements
    # three immersions: a quarter, a half and three quarters of the line out of the water
    tops = np.array([0.25, 0.5, 0.75]) * SC_LENGTH + 0.13 * le
    coarse = surface_sweep(model, elements, tops)
    # the node half-way down crosses the surface in the middle of this sweep (stretch aside)
    mid = 0.5 * SC_LENGTH
    fine_tops = np.linspace(mid - le, mid + le, n_sweep)
    fine = surface_sweep(model, elements, fine_tops)
    jump_w = (SC_MPL - RHO_A * _area(SC_D)) * G - (SC_MPL - RHO_W * _area(SC_D)) * G
    d_ours = np.abs(np.diff(fine["ours"]))
    share = jump_w * np.abs(np.diff(fine["dry"]))  # the weight change of what crossed
    err = np.abs(np.concatenate([coarse["ours"], fine["ours"]])
                 / np.concatenate([coarse["ref"], fine["ref"]]) - 1.0)
    return dict(coarse=coarse, fine=fine, err=float(err.max()),
                step_ratio=float((d_ours / share).max()), node_jump=jump_w * le,
                max_step=float(d_ours.max()),
                converged=bool(coarse["converged"].all() and fine["converged"].all()))


@register("sea_surface_crossing", "analytic", "Vertical line through the water surface",
          reference="analytic")
def check_surface_crossing(full: bool = True, figure_dir: Path | None = None) -> Row:
    elements = 20
    n_sweep = 41 if full else 11
    models = ("lumped_mass", "higher_order") if full else ("lumped_mass",)
    res, notes = {}, []
    for m in models:
        try:
            res[m] = surface_crossing(m, elements, n_sweep)
        except Exception as exc:  # a formulation without the sea says so; the row fails
            notes.append(f"{m}: {type(exc).__name__}: {exc}")
    ok = bool(res) and not notes and all(
        r["converged"] and r["err"] <= SC_TOL and r["step_ratio"] <= 1.0 + SC_TOL
        for r in res.values())
    ours = "; ".join(
        f"{m}: top tension off by {r['err']:.1e} (relative), largest step "
        f"{r['step_ratio']:.4f} × the crossing length's weight change "
        f"(a node-lumped buoyancy would jump {r['node_jump']:.2f} N, ours {r['max_step']:.3f} N)"
        for m, r in res.items())
    if notes:
        ours = (ours + "; " if ours else "") + "; ".join(notes)
    figure = None
    if figure_dir is not None and res:
        import matplotlib.figure

        fig = matplotlib.figure.Figure(figsize=(6.4, 3.2))
        ax = fig.add_subplot()
        for m, r in res.items():
            f = r["fine"]
            ax.plot(f["top"], f["ours"], "o", ms=3, label=f"{m} (N = {elements})")
        f = next(iter(res.values()))["fine"]
        ax.plot(f["top"], f["ref"], "-", label="closed form")
        ax.set_xlabel("top height above the water level [m]")
        ax.set_ylabel("static top tension [N]")
        ax.set_title("a node crosses the surface mid-sweep")
        ax.legend()
        figure = save_figure(fig, figure_dir, "sea_surface_crossing.png")
    return Row(
        name=f"Vertical line through the surface (N = {elements})",
        tier="analytic",
        expected=("top tension = weight in air above + weight in water below; a node "
                  "crossing moves it by no more than its share of the weight change"),
        ours=ours,
        tolerance="0.1 %; step ≤ (w_air − w_water) Δs_w (+0.1 %)",
        passed=ok,
        details=("10 m line, d = 50 mm, m' = 4 kg/m, EA = 100 kN, hung from a fixed top at "
                 "several heights above the water level (z = 0; ρ_w = 1025, ρ_air = 1.225 "
                 "kg/m³); static equilibrium by statics.equilibrium. Reference: "
                 "analytic.vertical_line_through_surface (Archimedes per metre, Hooke's law "
                 "placing the surface on the stretched line). The sweep moves the top by ±1 "
                 f"element around the mid-line node in {n_sweep} steps; each step's change "
                 "of top force is compared with (w_air − w_water) × the unstretched length "
                 "that crossed the surface in that step."),
        figure=figure,
        values=dict(res=res, notes=notes),
    )


# =========================================================================================
# 2. A catenary resting on a flat seabed
# =========================================================================================

#: chain-like line: 100 m, 80 mm, 40 kg/m (wet weight 341.9 N/m), EA = 2 MN (1 % strain)
CAT_LENGTH, CAT_D, CAT_MPL, CAT_EA = 100.0, 0.08, 40.0, 2.0e6
CAT_DEPTH = 50.0  # water depth [m]; the anchor lies on the seabed at z = -50
#: frictionless: fairlead 85 m away, 20 m above the seabed (77.6 m grounded)
CAT_SPAN, CAT_HEIGHT = 85.0, 20.0
#: with friction: a tauter line (fairlead pulled from 93 m to 95 m away) so that H > mu w
#: L_B: the anchor keeps a tension and the grounded part's axial force drops by mu w L_B
CAT_FRICTION_START, CAT_FRICTION_SPAN, CAT_MU = 93.0, 95.0, 0.3
CAT_PULL_TIME = 100.0  # [s]: 2 cm/s on average
KBOT, CBOT = 3.0e6, 3.0e5  # MoorDyn's default seabed [Pa/m], [Pa s/m]
#: issue 17: touchdown and top tension within 0.5 %
CAT_TOL = 5e-3


def cat_weight() -> float:
    return (CAT_MPL - RHO_W * _area(CAT_D)) * G


def catenary_case(elements: int, span: float, *, friction: float = 0.0,
                  points: np.ndarray | None = None, duration: float = 1.0,
                  dt: float = 1e-3) -> dict:
    """The line from the anchor (0, 0, -depth) to the fairlead (span, 0, height - depth)."""
    zb = -CAT_DEPTH
    case = dict(
        name="catenary on the seabed",
        tether=dict(length=CAT_LENGTH, diameter=CAT_D, mass_per_length=CAT_MPL, EA=CAT_EA,
                    axial_damping=2.0e4, cd_normal=1.2, cd_tangential=0.008, ca_normal=1.0),
        model=dict(type="lumped_mass", elements=elements),
        environment=dict(gravity=[0.0, 0.0, -G], fluid_density=RHO_W, water_level=0.0,
                         seabed=dict(z=zb, stiffness=KBOT, damping=CBOT,
                                     friction=dict(axial=friction, lateral=friction))),
        start=dict(type="fixed", position=[0.0, 0.0, zb]),
        end=dict(type="fixed", position=[span, 0.0, zb + CAT_HEIGHT]),
        solver=dict(method="rk4", dt=dt, duration=duration, output_interval=0.1),
    )
    if points is not None:
        case["initial"] = dict(shape="points", points=np.asarray(points).tolist())
    return case


def catenary_points(ref: analytic.SeabedCatenary, elements: int) -> np.ndarray:
    """Node positions (N+1, 3) [m] sampled from a closed-form shape by unstretched length."""
    s = np.linspace(0.0, CAT_LENGTH, elements + 1)
    pts = np.zeros((elements + 1, 3))
    pts[:, 0] = ref.x(s)
    pts[:, 2] = ref.z(s) - CAT_DEPTH
    pts[-1] = [ref.span, 0.0, CAT_HEIGHT - CAT_DEPTH]
    return pts


def touchdown_x(pos: np.ndarray, H: float, w: float, penetration: float) -> float:
    """Touchdown [m] from the shape: the first node (from the anchor) clearly off the bed
    (height > 20 penetrations) traced back along the local catenary ``x - x_TD = (H/w)
    acosh(1 + w h / H)`` that leaves the bed horizontally (h: height above the bed)."""
    h = pos[:, 2] + CAT_DEPTH + penetration
    i = int(np.argmax(h > 20.0 * penetration))
    return float(pos[i, 0] - (H / w) * math.acosh(1.0 + w * h[i] / H))


def catenary_static(elements: int) -> dict:
    """Frictionless: static equilibrium (history-free) against the closed form."""
    from tetherdyn.statics import equilibrium

    w = cat_weight()
    ref = analytic.seabed_catenary(CAT_SPAN, CAT_HEIGHT, CAT_LENGTH, w, EA=CAT_EA)
    case = catenary_case(elements, CAT_SPAN, points=catenary_points(ref, elements))
    eq = equilibrium(case, tol=1e-6, max_iter=80)
    f = _top_force(eq)
    pen = w / (KBOT * CAT_D)
    H = abs(f[1, 0])
    td = touchdown_x(eq.positions, H, w, pen)
    return dict(ref=ref, fairlead=float(np.linalg.norm(f[1])), H=H, touchdown=td,
                anchor=float(np.linalg.norm(f[0])), positions=eq.positions,
                converged=bool(eq.converged), residual=float(eq.residual),
                err_t=abs(float(np.linalg.norm(f[1])) / ref.fairlead_tension - 1.0),
                err_td=abs(td / ref.touchdown_x - 1.0))


def catenary_friction(elements: int, time_limit: float) -> dict:
    """With friction the static state depends on the history; the closed form is the state
    in which friction is fully mobilised along the whole grounded part against a pull from
    the fairlead. So the line starts in that state for a fairlead at CAT_FRICTION_START
    (nodes on the closed-form shape: their spacing carries its tensions) and the fairlead is
    then pulled slowly (2 cm/s) to CAT_FRICTION_SPAN: every grounded point moves towards the
    fairlead all the while, friction stays mobilised against it, and the settled state must
    be the closed form's at the new span: anchor tension T_a = H − μ w L_B."""
    from tetherdyn.steady import settle

    w = cat_weight()
    start = analytic.seabed_catenary(CAT_FRICTION_START, CAT_HEIGHT, CAT_LENGTH, w, EA=CAT_EA,
                                     friction=CAT_MU)
    ref = analytic.seabed_catenary(CAT_FRICTION_SPAN, CAT_HEIGHT, CAT_LENGTH, w, EA=CAT_EA,
                                   friction=CAT_MU)
    case = catenary_case(elements, CAT_FRICTION_START, friction=CAT_MU,
                         points=catenary_points(start, elements), duration=time_limit)
    zf = CAT_HEIGHT - CAT_DEPTH
    # a smooth pull (smoothstep: no velocity jump at its start or end), so that stopping it
    # does not set the suspended part swinging and unload the friction near the touchdown
    tau = np.linspace(0.0, 1.0, 81)
    xs = CAT_FRICTION_START + (CAT_FRICTION_SPAN - CAT_FRICTION_START) * tau**2 * (3 - 2 * tau)
    case["end"] = dict(type="prescribed", interpolation="linear", trajectory=dict(
        t=[*(CAT_PULL_TIME * tau), 10.0 * time_limit], x=[*xs, CAT_FRICTION_SPAN],
        y=[0.0] * 82, z=[zf] * 82))
    st = settle(case, force_rtol=5e-4, force_atol=0.5, window=10.0, time_limit=time_limit,
                min_time=CAT_PULL_TIME + 10.0)
    H = abs(st.end_force[0])
    # the anchor's tension is the horizontal pull of the grounded line (the holder's force
    # also carries the held node's half-element weight, vertical). The held node takes the
    # bed's friction on its half element too, so the holder feels the continuum's tension at
    # s = L_e / 2: like with like, the drop is compared with mu w (L_B - L_e / 2)
    anchor = abs(float(st.start_force[0]))
    drop_ours = H - anchor
    drop_ref = CAT_MU * w * (ref.grounded_length - 0.5 * CAT_LENGTH / elements)
    return dict(ref=ref, fairlead=float(np.linalg.norm(st.end_force)), H=H, anchor=anchor,
                drop=drop_ours, drop_ref=drop_ref, positions=st.position, time=st.time,
                err_t=abs(float(np.linalg.norm(st.end_force)) / ref.fairlead_tension - 1.0),
                err_drop=abs(drop_ours / drop_ref - 1.0))


@register("sea_seabed_catenary", "analytic", "Catenary resting on a flat seabed",
          reference="analytic")
def check_seabed_catenary(full: bool = True, figure_dir: Path | None = None) -> Row:
    # N = 50 in both: the lumped chain's touchdown error is O(L_e) with a sign that depends
    # on where the touchdown falls between nodes (fairlead tension +0.72 % at N = 25, -0.38 %
    # at 50, +0.12 % at 100)
    elements = 50
    notes = []
    try:
        plain = catenary_static(elements)
    except Exception as exc:
        plain = None
        notes.append(f"frictionless: {type(exc).__name__}: {exc}")
    try:
        fric = catenary_friction(elements, 400.0 if full else 260.0)
    except Exception as exc:
        fric = None
        notes.append(f"friction: {type(exc).__name__}: {exc}")
    ok = (plain is not None and fric is not None and plain["converged"]
          and plain["err_t"] <= CAT_TOL and plain["err_td"] <= CAT_TOL
          and fric["err_t"] <= CAT_TOL and fric["err_drop"] <= CAT_TOL)
    parts = []
    if plain is not None:
        parts.append(f"μ = 0: fairlead tension {plain['err_t'] * 100:.3f} %, touchdown "
                     f"{plain['err_td'] * 100:.3f} % ({plain['touchdown']:.2f} m vs "
                     f"{plain['ref'].touchdown_x:.2f} m)")
    if fric is not None:
        parts.append(f"μ = {CAT_MU}: fairlead tension {fric['err_t'] * 100:.3f} %, grounded "
                     f"axial force drop H − T_a {fric['drop']:.0f} N vs μ w (L_B − L_e/2) "
                     f"{fric['drop_ref']:.0f} N ({fric['err_drop'] * 100:.2f} %)")
    figure = None
    if figure_dir is not None and (plain or fric):
        import matplotlib.figure

        fig = matplotlib.figure.Figure(figsize=(6.4, 3.4))
        ax = fig.add_subplot()
        for r, lab in ((plain, "μ = 0"), (fric, f"μ = {CAT_MU}")):
            if r is None:
                continue
            s = np.linspace(0.0, CAT_LENGTH, 400)
            ax.plot(r["ref"].x(s), r["ref"].z(s) - CAT_DEPTH, "-", lw=1,
                    label=f"closed form, {lab}")
            ax.plot(r["positions"][:, 0], r["positions"][:, 2], "o", ms=2,
                    label=f"lumped_mass, {lab}")
        ax.axhline(-CAT_DEPTH, color="0.5", lw=0.8)
        ax.set_xlabel("x [m]")
        ax.set_ylabel("z [m]")
        ax.legend(fontsize=7)
        figure = save_figure(fig, figure_dir, "sea_seabed_catenary.png")
    return Row(
        name=f"Catenary on a flat seabed (lumped_mass, N = {elements})",
        tier="analytic",
        expected=("touchdown and top tension of the catenary with a grounded length; with "
                  "friction the grounded part's axial force drops by μ w L_g"),
        ours="; ".join(parts + notes),
        tolerance="0.5 %",
        passed=bool(ok),
        details=(f"{CAT_LENGTH:g} m line, d = 80 mm, 40 kg/m (w = {cat_weight():.1f} N/m in "
                 f"water), EA = 2 MN, anchor on a flat seabed {CAT_DEPTH:g} m deep (kBot = "
                 "3 MPa/m, cBot = 0.3 MPa s/m), fairlead fixed 20 m above the seabed. "
                 f"Frictionless ({CAT_SPAN:g} m span): statics.equilibrium from the closed "
                 "shape; touchdown from the first node 20 penetrations off the bed traced "
                 "back along the local catenary. Friction μ = "
                 f"{CAT_MU} axial and lateral: the line starts in the closed form's "
                 f"mobilised state for a {CAT_FRICTION_START:g} m span, the fairlead is "
                 f"pulled to {CAT_FRICTION_SPAN:g} m in {CAT_PULL_TIME:g} s along a "
                 "smoothstep (no velocity jump at either end; a linear pull that stops "
                 "abruptly sets the suspended part swinging, which unloads the friction near "
                 "the touchdown: drop 2.0 % short with a 100 s pull, 0.70 % with 300 s) "
                 "(so that every grounded point "
                 "moves towards it and H > μ w L_B) and the line settles (steady.settle, "
                 "forces steady to 5e-4 over 10 s, a tenth of the criterion); the drop H − "
                 "T_a (T_a the anchor's horizontal force) against μ w (L_B − L_e/2): the held "
                 "anchor node takes the bed's friction on its half element, so the holder "
                 "feels the continuum's tension at L_e/2. (A start from a tension-free lay "
                 "does not load the grounded part monotonically: the falling chain lays line "
                 "down towards the anchor, and friction then acts both ways.) Reference: "
                 "analytic.seabed_catenary (Jonkman 2007, "
                 "NREL/TP-500-41958, ch. 4, with seabed friction C_B)."),
        figure=figure,
        values=dict(plain=plain, friction=fric, notes=notes),
    )


# =========================================================================================
# 3. Friction: dragging along the seabed, sticking and sliding on a slope
# =========================================================================================

FR_LENGTH, FR_D, FR_MPL, FR_EA = 10.0, 0.05, 4.0, 1.0e6
FR_DEPTH = 20.0
DRAG_SPEED = 0.2  # [m/s]
MU_AXIAL, MU_LATERAL = 0.5, 1.0  # dragged along its axis: the axial coefficient acts
SLOPE_DEG = 5.0
#: issue 17: friction force within 1 %; creep < 1 mm in 100 s
DRAG_TOL, CREEP_LIMIT = 1e-2, 1e-3
#: the sliding acceleration's tolerance: the issue names none; the drag row's 1 %
SLIDE_TOL = 1e-2


def fr_weight() -> float:
    return (FR_MPL - RHO_W * _area(FR_D)) * G


def _fr_tether() -> dict:
    # no fluid drag and no axial added mass: the friction is the only force along the line
    return dict(length=FR_LENGTH, diameter=FR_D, mass_per_length=FR_MPL, EA=FR_EA,
                axial_damping=2.0e3, cd_normal=0.0, cd_tangential=0.0, ca_normal=1.0,
                ca_tangential=0.0)


def drag_case(elements: int, duration: float) -> dict:
    """The line lies straight along -x on the seabed; its start is pulled along +x."""
    zb = -FR_DEPTH
    t_end = duration + 1.0
    return dict(
        name="line dragged along the seabed",
        tether=_fr_tether(),
        model=dict(type="lumped_mass", elements=elements),
        environment=dict(gravity=[0.0, 0.0, -G], fluid_density=RHO_W, water_level=0.0,
                         seabed=dict(z=zb, stiffness=KBOT, damping=CBOT,
                                     friction=dict(axial=MU_AXIAL, lateral=MU_LATERAL))),
        start=dict(type="prescribed", interpolation="linear",
                   trajectory=dict(t=[0.0, t_end], x=[0.0, DRAG_SPEED * t_end],
                                   y=[0.0, 0.0], z=[zb, zb])),
        end=dict(type="free"),
        initial=dict(shape="points", points=[[-FR_LENGTH * k / elements, 0.0, zb]
                                             for k in range(elements + 1)]),
        solver=dict(method="rk4", dt=2e-4, duration=duration, output_interval=0.01),
    )


def drag_friction(elements: int, duration: float) -> dict:
    ds = simulate(drag_case(elements, duration), progress=False)
    t = ds.time.values
    late = t >= 0.5 * duration
    fb = ds.seabed_force.values  # (time, node, axis)
    friction = -fb[:, :, 0].sum(axis=1)  # the bed's force against the motion, all nodes
    normal = fb[:, :, 2].sum(axis=1)
    holder = ds.start_force.values[:, 0]
    # the held (pulled) node takes no bed contact: its half element's weight is the
    # holder's, so the line's weight on the ground is w (L - L_e / 2)
    ref = MU_AXIAL * fr_weight() * (FR_LENGTH - 0.5 * FR_LENGTH / elements)
    mean = float(friction[late].mean())
    return dict(time=t, friction=friction, normal=normal, holder=holder, ref=ref,
                mean=mean, holder_mean=float(holder[late].mean()),
                mu_normal=MU_AXIAL * float(normal[late].mean()),
                normal_mean=float(normal[late].mean()),
                spread=float(np.ptp(friction[late])), err=abs(mean / ref - 1.0))


def slope_case(elements: int, mu: float, duration: float, output_interval: float) -> dict:
    """A line at rest on a plane seabed rising towards -x at SLOPE_DEG, along the fall line,
    both ends free; it starts on the plane (no penetration)."""
    th = math.radians(SLOPE_DEG)
    z0 = -FR_DEPTH
    s = np.linspace(0.0, FR_LENGTH, elements + 1)
    pts = np.zeros((elements + 1, 3))
    pts[:, 0] = s * math.cos(th)
    pts[:, 2] = z0 - s * math.sin(th)
    return dict(
        name=f"line on a {SLOPE_DEG:g}° slope, mu = {mu:g}",
        tether=_fr_tether(),
        model=dict(type="lumped_mass", elements=elements),
        environment=dict(gravity=[0.0, 0.0, -G], fluid_density=RHO_W, water_level=0.0,
                         seabed=dict(z=z0, slope_deg=SLOPE_DEG, slope_direction_deg=180.0,
                                     stiffness=KBOT, damping=CBOT,
                                     friction=dict(axial=mu, lateral=mu))),
        start=dict(type="free"),
        end=dict(type="free"),
        initial=dict(shape="points", points=pts.tolist()),
        solver=dict(method="rk4", dt=2e-4, duration=duration, output_interval=output_interval),
    )


def _downslope(pos: np.ndarray) -> np.ndarray:
    """Centroid displacement along the fall line [m] for positions (time, node, 3)."""
    th = math.radians(SLOPE_DEG)
    c = pos.mean(axis=1)
    return (c[:, 0] - c[0, 0]) * math.cos(th) - (c[:, 2] - c[0, 2]) * math.sin(th)


def slope_stick(elements: int, duration: float) -> dict:
    ds = simulate(slope_case(elements, 0.3, duration, 0.5), progress=False)
    pos = ds.position.values
    u = _downslope(pos)
    th = math.radians(SLOPE_DEG)
    along = np.array([math.cos(th), 0.0, -math.sin(th)])
    node = np.abs((pos - pos[0]) @ along).max()
    return dict(time=ds.time.values, creep=u, creep_end=float(abs(u[-1])),
                node_max=float(node))


def slope_slide(elements: int, duration: float, fit_from: float) -> dict:
    mu = 0.05
    ds = simulate(slope_case(elements, mu, duration, 0.05), progress=False)
    t = ds.time.values
    u = _downslope(ds.position.values)
    sel = t >= fit_from
    a_fit = 2.0 * float(np.polyfit(t[sel], u[sel], 2)[0])
    a_ref = analytic.sliding_acceleration(math.radians(SLOPE_DEG), mu, fr_weight(), FR_MPL)
    return dict(time=t, u=u, a=a_fit, a_ref=a_ref, err=abs(a_fit / a_ref - 1.0))


@register("sea_seabed_friction", "analytic", "Seabed friction: dragging, sticking, sliding",
          reference="analytic")
def check_seabed_friction(full: bool = True, figure_dir: Path | None = None) -> Row:
    elements = 20
    stick_time = 100.0 if full else 20.0
    notes, res = [], {}
    for key, fn in (("drag", lambda: drag_friction(elements, 20.0 if full else 6.0)),
                    ("stick", lambda: slope_stick(elements, stick_time)),
                    ("slide", lambda: slope_slide(elements, 10.0 if full else 5.0,
                                                  2.0 if full else 1.5))):
        try:
            res[key] = fn()
        except Exception as exc:
            notes.append(f"{key}: {type(exc).__name__}: {exc}")
    drag, stick, slide = (res.get(k) for k in ("drag", "stick", "slide"))
    # the stick criterion is per 100 s: a shorter (reduced) run must stay below its share
    creep_limit = CREEP_LIMIT * stick_time / 100.0
    ok = (not notes and drag["err"] <= DRAG_TOL and stick["node_max"] < creep_limit
          and slide["err"] <= SLIDE_TOL)
    parts = []
    if drag:
        parts.append(f"drag: friction {drag['mean']:.3f} N vs μ w (L − L_e/2) "
                     f"{drag['ref']:.3f} N ({drag['err'] * 100:.3f} %; μ × the bed's measured "
                     f"normal force {drag['mu_normal']:.3f} N)")
    if stick:
        parts.append(f"μ = 0.3 on {SLOPE_DEG:g}°: creep {stick['node_max'] * 1e3:.3f} mm in "
                     f"{stick_time:g} s")
    if slide:
        parts.append(f"μ = 0.05: a = {slide['a']:.5f} m/s² vs {slide['a_ref']:.5f} "
                     f"({slide['err'] * 100:.2f} %)")
    figure = None
    if figure_dir is not None and drag and slide:
        import matplotlib.figure

        fig = matplotlib.figure.Figure(figsize=(7.0, 3.0))
        a1, a2 = fig.subplots(1, 2)
        a1.plot(drag["time"], drag["friction"], label="Σ seabed friction")
        a1.axhline(drag["ref"], color="k", ls="--", label="μ w L")
        a1.set_xlabel("time [s]")
        a1.set_ylabel("force [N]")
        a1.legend(fontsize=7)
        a2.plot(slide["time"], slide["u"], label="μ = 0.05 (ours)")
        a2.plot(slide["time"], 0.5 * slide["a_ref"] * slide["time"] ** 2, "--",
                label="½ a t² (closed form)")
        a2.set_xlabel("time [s]")
        a2.set_ylabel("down-slope travel [m]")
        a2.legend(fontsize=7)
        figure = save_figure(fig, figure_dir, "sea_seabed_friction.png")
    return Row(
        name=f"Seabed friction: drag, stick, slide (lumped_mass, N = {elements})",
        tier="analytic",
        expected=("dragged: friction = μ × wet weight on the ground; on 5°: μ = 0.3 creeps "
                  "< 1 mm in 100 s, μ = 0.05 slides at (w/m)(sin θ − μ cos θ)"),
        ours="; ".join(parts + notes),
        tolerance="1 %; 1 mm / 100 s; 1 % (acceleration: no tolerance in the issue, the "
                  "drag row's)",
        passed=bool(ok),
        details=(f"{FR_LENGTH:g} m line, d = 50 mm, 4 kg/m (w = {fr_weight():.2f} N/m in "
                 "water), EA = 1 MN, no fluid drag and no axial added mass (so friction is "
                 "the only force along it), kBot = 3 MPa/m, cBot = 0.3 MPa s/m. Drag: lying "
                 f"straight on a flat seabed, its start pulled along its axis at "
                 f"{DRAG_SPEED:g} m/s (μ_axial = {MU_AXIAL}, μ_lateral = {MU_LATERAL}); "
                 "the bed's tangential force summed over the nodes, averaged over the second "
                 "half of the run, against μ w (L − L_e/2): the pulled end is a held node, "
                 "whose half element's weight the holder carries (the bed gives held nodes "
                 "no contact). Slope: a plane seabed at 5°, the line along the fall line, "
                 "both ends free, started on the plane at rest; creep = the largest node "
                 "travel along the fall line; sliding: a quadratic fit of the centroid's "
                 "travel after the first seconds. References: μ w (L − L_e/2); "
                 "analytic.sliding_acceleration."),
        figure=figure,
        values=dict(res=res, notes=notes),
    )


# =========================================================================================
# 5. A tethered balloon in a steady wind
# =========================================================================================

BAL_LENGTH, BAL_D, BAL_MPL, BAL_EA = 100.0, 0.005, 0.02, 5.0e4
BAL_LIFT = 80.0  # upward force of the balloon's buoyancy [N]
BAL_MASS = 2.0  # balloon mass [kg]
BAL_CDA = 2.0  # balloon Cd x frontal area [m^2]
BAL_WIND = 5.0  # uniform wind along +x [m/s]
#: the issue gives no tolerance: the seabed catenary's 0.5 % (the same family of closed form)
BAL_TOL = 5e-3


def balloon_case(elements: int) -> dict:
    """Tether anchored 1 m above the water level, all in air; the balloon is the free end
    (mass, a constant upward buoyancy force, drag area in the wind)."""
    return dict(
        name="tethered balloon in wind",
        tether=dict(length=BAL_LENGTH, diameter=BAL_D, mass_per_length=BAL_MPL, EA=BAL_EA,
                    cd_normal=0.0, cd_tangential=0.0, ca_normal=0.0, ca_tangential=0.0),
        model=dict(type="lumped_mass", elements=elements),
        environment=dict(gravity=[0.0, 0.0, -G], fluid_density=RHO_W, water_level=0.0,
                         air_density=RHO_A, wind=[BAL_WIND, 0.0, 0.0]),
        start=dict(type="fixed", position=[0.0, 0.0, 1.0]),
        end=dict(type="free", mass=BAL_MASS, force=[0.0, 0.0, BAL_LIFT], drag_area=BAL_CDA),
        initial=dict(direction=[0.3, 0.0, 1.0]),
        solver=dict(method="rk4", dt=1e-3, duration=1.0, output_interval=0.1),
    )


def balloon_reference() -> analytic.CatenarySolution:
    drag = 0.5 * RHO_A * BAL_CDA * BAL_WIND**2
    w = (BAL_MPL - RHO_A * _area(BAL_D)) * G
    return analytic.tethered_balloon(BAL_LENGTH, w, drag, BAL_LIFT - BAL_MASS * G, EA=BAL_EA)


def balloon(elements: int) -> dict:
    from tetherdyn.statics import equilibrium

    ref = balloon_reference()
    eq = equilibrium(balloon_case(elements), tol=1e-8, max_iter=80)
    f = _top_force(eq)
    top = eq.positions[-1] - eq.positions[0]
    err_pos = float(np.hypot(top[0] - ref.span, top[2] - ref.height_difference) / BAL_LENGTH)
    anchor = float(np.linalg.norm(f[0]))
    # control (not the criterion): the same balloon in one unbounded air fluid with the wind
    # given as the uniform `current` (no water level: the path before the sea) — it tells a
    # failure of the sea's path from one of the closed form or the case
    air = balloon_case(elements)
    air["environment"] = dict(gravity=[0.0, 0.0, -G], fluid_density=RHO_A,
                              current=[BAL_WIND, 0.0, 0.0])
    ctl = equilibrium(air, tol=1e-8, max_iter=80)
    ctl_top = ctl.positions[-1] - ctl.positions[0]
    ctl_err = float(np.hypot(ctl_top[0] - ref.span, ctl_top[2] - ref.height_difference)
                    / BAL_LENGTH)
    return dict(ref=ref, top=top, anchor=anchor, positions=eq.positions,
                converged=bool(eq.converged), err_pos=err_pos,
                err_t=abs(anchor / ref.tension_A - 1.0), control_err=ctl_err)


@register("sea_balloon_wind", "analytic", "Tethered balloon in a steady wind",
          reference="analytic")
def check_balloon(full: bool = True, figure_dir: Path | None = None) -> Row:
    elements = 40 if full else 20
    try:
        r = balloon(elements)
        note = ""
    except Exception as exc:
        r, note = None, f"{type(exc).__name__}: {exc}"
    ok = r is not None and r["converged"] and r["err_pos"] <= BAL_TOL and r["err_t"] <= BAL_TOL
    ref = balloon_reference()
    ours = note if r is None else (
        f"balloon at ({r['top'][0]:.3f}, {r['top'][2]:.3f}) m vs ({ref.span:.3f}, "
        f"{ref.height_difference:.3f}) m ({r['err_pos']:.1e} of L); anchor tension "
        f"{r['anchor']:.3f} N vs {ref.tension_A:.3f} N ({r['err_t']:.1e} relative); control "
        f"without water level (wind as the fluid's current): {r['control_err']:.1e} of L")
    figure = None
    if figure_dir is not None and r is not None:
        import matplotlib.figure

        fig = matplotlib.figure.Figure(figsize=(4.0, 4.0))
        ax = fig.add_subplot()
        ax.plot(ref.x_nodes, ref.z_nodes, "-", label="closed form (Irvine)")
        p = r["positions"] - r["positions"][0]
        ax.plot(p[:, 0], p[:, 2], "o", ms=2, label=f"lumped_mass N = {elements}")
        ax.set_xlabel("x downwind [m]")
        ax.set_ylabel("height above the anchor [m]")
        ax.set_aspect("equal")
        ax.legend(fontsize=7)
        figure = save_figure(fig, figure_dir, "sea_balloon_wind.png")
    return Row(
        name=f"Tethered balloon in wind (lumped_mass, N = {elements})",
        tier="analytic",
        expected="the catenary whose top carries the balloon's drag and net lift",
        ours=ours,
        tolerance="0.5 % (of L; of the anchor tension)",
        passed=bool(ok),
        details=(f"{BAL_LENGTH:g} m tether, d = 5 mm, 20 g/m, EA = 50 kN, no drag of its own, "
                 f"anchored 1 m above the water level; balloon: {BAL_MASS:g} kg, buoyancy "
                 f"{BAL_LIFT:g} N (end force), Cd·A = {BAL_CDA:g} m² in a uniform wind of "
                 f"{BAL_WIND:g} m/s (ρ_air = 1.225): drag ½ ρ Cd A U² = "
                 f"{0.5 * RHO_A * BAL_CDA * BAL_WIND ** 2:.3f} N. Static equilibrium by "
                 "statics.equilibrium. Reference: analytic.tethered_balloon, Irvine's elastic "
                 "catenary (1981, ch. 1) with H = drag and V = net lift − w (L − s). Control "
                 "(not the criterion): the same balloon in one unbounded air fluid with the "
                 "wind as its uniform current, the path without a sea."),
        figure=figure,
        values=dict(res=r),
    )
