"""Seed 004 §4.6.3: the tortuous slender beam with torsion (``higher_order``), row
``seed004_tortuous``.

A 10 m beam (Table 4.2) held as a quarter circle of radius 20/π m, clamped at node 0 with
its tangent along +X and its roll held, N = 6, released in still water, neutrally buoyant:
(a) free tip, (b) a 300 N m follower torque about the tip's outward tangent. The seed shows
the node traces (Figs 4.10–4.11: straightening along +X; conical traces under the torque)
and gives the largest torsional nodal force (the K_τ forces of eq. 4.28) as 140 N, 55 N and
16 N at 0.2 s, 5 s and 10 s (Fig. 4.12).

The plane of the arc is not stated; we put it in the X–Y plane, bending towards +Y. The
beam is neutrally buoyant in an isotropic fluid, so a rotation of that plane about X gives
the same motion rotated: the choice does not change any magnitude.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from tetherdyn.case import load_case
from tetherdyn.models import build_model
from tetherdyn.simulate import simulate
from tetherdyn.spline import CLAMPED, FREE, spline_curvatures, spline_factor

from . import Row, register, save_figure

# -- Table 4.2 ---------------------------------------------------------------------------------
LENGTH = 10.0  # L_TOT [m]
RADIUS = 20.0 / math.pi  # the quarter circle [m] (6.37 m)
DIAMETER = 0.0254  # d_c [m]
RHO = 1025.0  # water and cable density [kg/m^3]
CD = 1.649
AXIAL_DAMPING = 100.0  # C_ID [N s]
E_MODULUS = 5e9  # [Pa] (printed "5."; read as 5.0 GPa)
G_MODULUS = 37e6  # [Pa]
ELEMENTS = 6
TORQUE = 300.0  # [N m] about the tip's outward tangent (follower)
I_AREA = math.pi * DIAMETER**4 / 64.0  # [m^4]
EA = E_MODULUS * math.pi * DIAMETER**2 / 4.0  # [N] 2.53e6
EI = E_MODULUS * I_AREA  # [N m^2] 102
GJ = G_MODULUS * 2.0 * I_AREA  # J = 2I [N m^2] 1.51

DURATION = 10.0  # [s]
OUTPUT = 0.1  # [s]
#: the seed's largest torsional nodal force [N] at these instants (Fig. 4.12)
SEED_PEAKS = {0.2: 140.0, 5.0: 55.0, 10.0: 16.0}
#: the brief's tolerance on them (the plane of the arc and E are uncertain)
PEAK_TOL = 0.15
#: our torsion_force output against an independent evaluation of its closed form at t = 0
#: (numerical quadrature of (GJτ/L_u)∫r'×r'' ds over our own spline): both exact, 1e-9
FORMULA_TOL = 1e-9


def arc_points(elements: int = ELEMENTS) -> np.ndarray:
    """Nodes (N+1, 3) [m] equally spaced in arc length on the quarter circle: start at the
    origin with tangent +X, bending towards +Y in the X–Y plane."""
    th = np.linspace(0.0, LENGTH, elements + 1) / RADIUS
    return np.column_stack([RADIUS * np.sin(th), RADIUS * (1.0 - np.cos(th)),
                            np.zeros_like(th)])


def tortuous_case(torque: float | None, *, elements: int = ELEMENTS,
                  duration: float = DURATION, dt: float = 1e-3,
                  twist: str | None = None) -> dict:
    """Table 4.2 as a case: clamped along +X at the origin holding roll 0, free tip (with the
    follower ``torque`` [N m] if given); default bilinear law (elements cannot push);
    ``twist``: ``model.twist`` if given."""
    end = dict(type="free")
    if torque:
        end["torque"] = float(torque)
    return dict(
        name=f"seed 004 §4.6.3 tortuous beam, N = {elements}, torque {torque or 0:g} N m",
        tether=dict(length=LENGTH, diameter=DIAMETER, density=RHO, EA=EA, EI=EI, GJ=GJ,
                    axial_damping=AXIAL_DAMPING, cd_normal=CD),
        model=dict(type="higher_order", elements=elements,
                   **({"twist": twist} if twist else {})),
        environment=dict(fluid_density=RHO),
        start=dict(type="fixed", position=[0.0, 0.0, 0.0], clamp=[1.0, 0.0, 0.0],
                   roll_deg=0.0),
        end=end,
        initial=dict(shape="points", points=arc_points(elements).tolist()),
        solver=dict(method="rk4", dt=dt, duration=duration, output_interval=OUTPUT),
    )


def run(torque: float | None, elements: int = ELEMENTS, duration: float = DURATION,
        changes: dict | None = None, twist: str | None = None, step: float = 0.5):
    """Simulate one case with RK4 at ``step`` × the model's critical step (rounded to divide
    the output interval); ``changes``: tether keys to override (sensitivity runs)."""
    case = tortuous_case(torque, elements=elements, duration=duration, twist=twist)
    case["tether"].update(changes or {})
    limit = build_model(load_case(case)).critical_time_step()[0]
    case["solver"]["dt"] = OUTPUT / math.ceil(OUTPUT / (step * limit))
    return simulate(case, progress=False), case["solver"]["dt"]


#: the mesh study (N = 6 is Table 4.2's) and the step study (fractions of the RK4 limit)
MESHES = (6, 12, 24, 48)
STEPS = (0.5, 0.25, 0.125)
#: E [Pa] of the stiffness study: Table 4.2's 5 GPa down to 1 % of it
MODULI = (5e9, 5e8, 5e7)


def measures(ds) -> dict:
    """At the seed's instants (0.2, 5, 10 s): the largest nodal |torsion_force| [N] (the
    seed's number), the clamped node's [N], the largest interior |force|/L_u [N/m] (a force
    per unit length: the interior nodal forces are differences of neighbouring elements', so
    they shrink with L_u), the largest nodal |r''| [1/m] and the tip position [m]."""
    tf = np.linalg.norm(ds.torsion_force.values, axis=2)
    lu = LENGTH / (tf.shape[1] - 1)
    out: dict = {k: {} for k in ("peak", "clamp", "per_length", "curvature", "tip")}
    for ts in SEED_PEAKS:
        k = int(round(ts / OUTPUT))
        out["peak"][ts] = float(tf[k].max())
        out["clamp"][ts] = float(tf[k, 0])
        out["per_length"][ts] = float(tf[k, 1:-1].max() / lu)
        out["curvature"][ts] = float(ds.curvature.values[k].max())
        out["tip"][ts] = [float(x) for x in ds.position.values[k, -1]]
    return out


def studies(full: bool = True) -> dict:
    """The torque case with both twist choices (N = 6), and when ``full`` the mesh study
    (N = 6 … 48), the step study (N = 6 and 12) and the stiffness study (N = 6)."""
    pt, _ = run(TORQUE)
    b13, _ = run(TORQUE, twist="seed_b13")
    out: dict = dict(twist_identical=bool(
        np.array_equal(pt.position.values, b13.position.values)
        and np.array_equal(pt.torsion_force.values, b13.torsion_force.values)))
    if not full:
        return out
    out["mesh"] = {n: measures(run(TORQUE, elements=n)[0]) for n in MESHES}
    out["step"] = {(n, f): measures(run(TORQUE, elements=n, step=f)[0])
                   for n in (6, 12) for f in STEPS}
    out["stiffness"] = {}
    for e in MODULI:
        ds, _ = run(TORQUE, changes=dict(EI=e * I_AREA, EA=e * math.pi * DIAMETER**2 / 4.0))
        out["stiffness"][e] = measures(ds)
    return out


def torsion_forces_closed_form(pos: np.ndarray, torque: float) -> np.ndarray:
    """Nodal torsion forces (N+1, 3) [N] from the formula, independently of the model:
    element e gets f_e = (GJτ/L_u) ∫ r'×r'' ds over its spline (GJτ = the end torque),
    node e receives +f_e and node e+1 −f_e (seed 004 eq. 4.28, digest §3.5). The spline is
    spline.py's (clamped +X at the start, free tip); the integral by 20-point
    Gauss–Legendre quadrature of the cubic's r'×r''."""
    n = pos.shape[0]
    N = n - 1
    lu = np.full(N, LENGTH / N)
    fac = spline_factor(lu, CLAMPED, FREE)
    r2 = np.zeros((n, 3))
    spline_curvatures(np.ascontiguousarray(pos), lu, fac, CLAMPED, FREE,
                      np.array([1.0, 0.0, 0.0]), np.zeros(3), r2)
    x, w = np.polynomial.legendre.leggauss(20)
    u = 0.5 * (x + 1.0)
    out = np.zeros((n, 3))
    for e in range(N):
        h = lu[e]
        a, b = pos[e], pos[e + 1]
        ca, cb = r2[e], r2[e + 1]
        f = np.zeros(3)
        for ui, wi in zip(u, w, strict=True):
            p1 = 1.0 - ui  # φ1 at s = s_e + u h
            # r' = (b − a)/h + h[−(3φ1² − 1) ca + (3φ3² − 1) cb]/6, r'' = φ1 ca + φ3 cb
            d1 = (b - a) / h + h * (-(3 * p1 * p1 - 1) * ca + (3 * ui * ui - 1) * cb) / 6.0
            d2 = p1 * ca + ui * cb
            f += 0.5 * wi * np.cross(d1, d2) * h
        f *= torque / h
        out[e] += f
        out[e + 1] -= f
    return out


def straightening(ds) -> dict:
    """How the free beam relaxes: tip angle from +X seen from node 0 [rad], largest |Y|
    [m] and out-of-plane |Z| [m] over time."""
    p = ds.position.values
    rel = p[:, -1] - p[:, 0]
    ang = np.arctan2(np.hypot(rel[:, 1], rel[:, 2]), rel[:, 0])
    return dict(angle=ang, ymax=np.max(np.abs(p[:, :, 1]), axis=1),
                zmax=float(np.max(np.abs(p[:, :, 2]))), tip=p[:, -1])


def whirl(ds) -> dict:
    """The cone of the torque case: tip rotation about +X (unwrapped) [rad], and the sense
    of the torsion forces' moment about the node-0→tip chord (the net moment of the K_τ
    forces is T(t_N − t_0), projected on the chord) [N m]."""
    p = ds.position.values
    tf = ds.torsion_force.values
    rot = np.unwrap(np.arctan2(p[:, -1, 2], p[:, -1, 1]))
    mc = np.empty(p.shape[0])
    for k in range(p.shape[0]):
        c = p[k, -1] - p[k, 0]
        c /= np.linalg.norm(c)
        mc[k] = float(sum(np.cross(p[k, i] - p[k, 0], tf[k, i]) @ c
                          for i in range(p.shape[1])))
    return dict(rotation=rot, chord_moment=mc)


def _study_text(study: dict) -> str:
    """The mesh, step and stiffness studies as a sentence for the row's details."""
    def trio(m, key="peak", digits=0):
        return " / ".join(f"{m[key][ts]:.{digits}f}" for ts in SEED_PEAKS)

    mesh = "; ".join(f"N = {n}: {trio(m)} N (max |r''| at 0.2 s {m['curvature'][0.2]:.2f} "
                     "1/m)" for n, m in study["mesh"].items())
    step = "; ".join(f"N = {n}, {f:g} × limit: {trio(m, digits=2)} N"
                     for (n, f), m in study["step"].items())
    stiff = "; ".join(f"E = {e / 1e9:g} GPa: {trio(m)} N" for e, m in study["stiffness"].items())
    k02 = max(m["curvature"][0.2] for m in study["mesh"].values())
    return (f" Mesh study (largest nodal force at 0.2 / 5 / 10 s, RK4 at half the limit): "
            f"{mesh}. Step study: {step}. The step is converged (≤ 0.04 %); the mesh is not "
            "after 1 s (the coil under 5 × Greenhill's torque resolves finer with N; the "
            "interior nodal forces are differences of neighbouring elements' and scale with "
            "the element length). At 0.2 s every mesh gives 47–57 N: the seed's 140 N needs "
            f"|r''| ≥ 140/300 = {140.0 / TORQUE:.3f} 1/m at a node, and no mesh reaches more "
            f"than {k02:.2f} 1/m by then. Stiffness study (N = 6; EA and EI scaled with E): "
            f"{stiff}: a beam 100 times softer still gives 45 N at 0.2 s, so the first 0.2 s "
            "are limited by inertia and drag, not by the printed E.")


def _figure(free, torq, t, peak, figure_dir: Path) -> str:
    import matplotlib.figure

    fig = matplotlib.figure.Figure(figsize=(13.0, 4.4))
    ax1 = fig.add_subplot(1, 3, 1, projection="3d")
    ax2 = fig.add_subplot(1, 3, 2, projection="3d")
    ax3 = fig.add_subplot(1, 3, 3)
    for ax, ds, title in ((ax1, free, "(a) no torque (cf. Fig. 4.10)"),
                          (ax2, torq, f"(b) {TORQUE:g} N m follower torque (cf. Fig. 4.11)")):
        p = ds.position.values
        for i in range(p.shape[1]):
            ax.plot(p[:, i, 0], p[:, i, 1], p[:, i, 2], lw=0.6)
        for k in np.linspace(0, p.shape[0] - 1, 6).astype(int):
            ax.plot(p[k, :, 0], p[k, :, 1], p[k, :, 2], "k.-", lw=0.8, ms=3, alpha=0.6)
        ax.set_xlabel("X [m]")
        ax.set_ylabel("Y [m]")
        ax.set_zlabel("Z [m]")
        ax.set_title(title, fontsize=9)
    ax1.set_zlim(-1.0, 1.0)
    ax3.plot(t, peak, label="ours: max |torsion_force|")
    ax3.plot(list(SEED_PEAKS), list(SEED_PEAKS.values()), "rs", label="seed Fig. 4.12")
    ax3.set_xlabel("time [s]")
    ax3.set_ylabel("largest torsional nodal force [N]")
    ax3.set_title("(c) torsional nodal forces, N = 6", fontsize=9)
    ax3.legend(fontsize=7)
    ax3.grid(alpha=0.3)
    return save_figure(fig, figure_dir, "seed004_tortuous.png")


@register("seed004_tortuous", "seed",
          "Seed 004 §4.6.3: tortuous beam with a follower torque (higher_order)", reference="seed")
def check(full: bool = True, figure_dir: Path | None = None) -> Row:
    """The Table 4.2 beam released with and without the 300 N m torque."""
    free, dt = run(None)
    torq, _ = run(TORQUE)
    t = torq.time.values
    tf = torq.torsion_force.values
    peak = np.max(np.linalg.norm(tf, axis=2), axis=1)
    ours = {ts: float(peak[int(round(ts / OUTPUT))]) for ts in SEED_PEAKS}
    ratios = {ts: ours[ts] / SEED_PEAKS[ts] for ts in SEED_PEAKS}
    peaks_ok = all(abs(r - 1.0) <= PEAK_TOL for r in ratios.values())
    # our output at t = 0 against the formula evaluated independently
    ref = torsion_forces_closed_form(torq.position.values[0], TORQUE)
    formula_err = float(np.max(np.abs(tf[0] - ref)) / np.max(np.abs(ref)))
    formula_ok = formula_err < FORMULA_TOL
    # (a) straightens towards +X, monotonically, in its plane
    st = straightening(free)
    dang = np.diff(st["angle"])
    straight_ok = (bool(np.all(dang <= 1e-9)) and st["angle"][-1] < 0.75 * st["angle"][0]
                   and st["zmax"] < 1e-9)
    # (b) conical traces: the tip circles the X axis (more than one turn in 10 s), the
    # torque changes the answer by metres
    wh = whirl(torq)
    turns = float(abs(wh["rotation"][-1] - wh["rotation"][0]) / (2.0 * math.pi))
    gap = float(np.linalg.norm(torq.position.values[-1, -1] - free.position.values[-1, -1]))
    cone_ok = turns > 1.0 and gap > 1.0
    fine = None
    if full:
        # how much the later peaks depend on what the seed leaves open
        variants = {f"N = {2 * ELEMENTS}": dict(elements=2 * ELEMENTS),
                    "compression allowed": dict(changes=dict(compression=True)),
                    "tangential drag C_t = 0.1": dict(changes=dict(cd_tangential=0.1))}
        fine = {}
        for label, kw in variants.items():
            vds, _ = run(TORQUE, **kw)
            vpk = np.max(np.linalg.norm(vds.torsion_force.values, axis=2), axis=1)
            fine[label] = {ts: float(vpk[int(round(ts / OUTPUT))]) for ts in SEED_PEAKS}
    study = studies(full)
    passed = peaks_ok and formula_ok and straight_ok and cone_ok
    figure = _figure(free, torq, t, peak, figure_dir) if (figure_dir is not None and full) \
        else None
    k_max = int(np.argmax(peak))
    k02 = int(round(0.2 / OUTPUT))
    speed02 = float(np.max(np.linalg.norm(torq.velocity.values[: k02 + 1], axis=2)))
    curv02 = float(np.max(torq.curvature.values[k02]))
    sense = wh["chord_moment"]
    t0_force = float(peak[0])
    fine_txt = ""
    if fine is not None:
        fine_txt = (" The later peaks hinge on details the seed leaves open: " + "; ".join(
            f"{label}: " + " / ".join(f"{v:.0f}" for v in vals.values()) + " N"
            for label, vals in fine.items()) + " (at 0.2 / 5 / 10 s); the 0.2 s value "
            "stays within 2 % of T/R in every variant.")
        fine_txt += _study_text(study)
    return Row(
        name="Seed 004 §4.6.3: tortuous beam, torsional nodal forces and traces",
        tier="seed",
        expected="max torsional force 140 / 55 / 16 N at 0.2 / 5 / 10 s; conical traces; "
                 "free beam straightens along +X",
        ours=(" / ".join(f"{ours[ts]:.0f}" for ts in SEED_PEAKS) + " N; "
              f"{turns:.1f} turns of the tip about X; free: angle "
              f"{math.degrees(st['angle'][0]):.0f}° → {math.degrees(st['angle'][-1]):.0f}°"),
        tolerance=f"±{PEAK_TOL:.0%} on the forces; traces qualitative",
        passed=passed,
        details=(
            "Table 4.2: 10 m, d = 0.0254 m, neutrally buoyant in water, C_d = 1.649, C_ID = "
            f"100 N s, E = 5 GPa (EI = {EI:.1f} N m²), G = 37 MPa with J = 2I (GJ = "
            f"{GJ:.3f} N m²), N = {ELEMENTS}, bilinear law on; quarter circle of radius "
            "20/π m in the X–Y plane (our choice: the seed does not give the plane; it "
            "changes nothing, the beam being neutrally buoyant in an isotropic fluid), "
            "clamped at the origin along +X with its roll held (`roll_deg: 0`), released "
            f"at rest; RK4 dt = {dt:.3g} s (half the critical step), {DURATION:g} s. "
            f"Torque case: largest |torsion_force| {', '.join(f'{ours[ts]:.1f} N at {ts:g} s' for ts in SEED_PEAKS)} "  # noqa: E501
            f"(seed 140 / 55 / 16 N; ratios {', '.join(f'{r:.2f}' for r in ratios.values())})"
            f"; it starts at {t0_force:.1f} N = T/R (GJτ = T = 300 N m on curvature 1/R: "
            "any implementation of the K_τ forces GJτ r'×r'' gives this at t = 0), peaks "
            f"at {peak[k_max]:.0f} N at {t[k_max]:.1f} s while the beam coils, and decays. "
            "The seed's 140 N at 0.2 s would need the curvature to triple in 0.2 s; here the "
            f"drag-limited motion reaches {speed02:.2f} m/s by then (largest nodal |r''| "
            f"{curv02:.3f} 1/m vs 1/R = {1 / RADIUS:.3f}). The seed's K_τ "
            "matrix (eq. 4.28) is lost in the text, and its forces may be defined or scaled "
            "differently. Our torsion_force at t = 0 equals an independent quadrature of "
            f"(GJτ/L_u)∫r'×r'' ds over the spline to {formula_err:.1e}. The tip circles the X "
            f"axis {turns:.1f} times in {DURATION:g} s (conical traces), ending "
            f"{gap:.2f} m from the free case's tip. The torsion forces' moment about the "
            "node-0→tip chord (their net moment is T(t_N − t_0)) is "
            f"{sense[2]:+.0f} N m at 0.2 s, {sense[int(round(5 / OUTPUT))]:+.0f} at 5 s, "
            f"{sense[-1]:+.0f} at 10 s (positive: counter-clockwise about the chord seen "
            "from the tip; the seed says counter-clockwise throughout, viewing side not "
            "given). Free case: the tip's angle from +X seen from node 0 falls monotonically "
            f"from {math.degrees(st['angle'][0]):.1f}° to {math.degrees(st['angle'][-1]):.1f}° "
            f"(overdamped), |Z| ≤ {st['zmax']:.0e} m." + fine_txt
            + " Twist choice: the torque end fixes GJτ = T (eq. 4.34 with Τ^(N) given), so "
            "App. B's estimator (model.twist: seed_b13) is never evaluated: the run is "
            + ("bit-identical" if study["twist_identical"] else "NOT identical")
            + " to parallel transport's."
            + ("" if peaks_ok else " FAILS the seed's force magnitudes.")),
        figure=figure,
        values={"peaks": ours, "ratios": ratios, "peaks_ok": peaks_ok,
                "formula_error": formula_err, "initial_peak": t0_force,
                "max_peak": (float(t[k_max]), float(peak[k_max])), "turns": turns,
                "straight_ok": straight_ok, "cone_ok": cone_ok, "tip_gap": gap,
                "angle": (float(st["angle"][0]), float(st["angle"][-1])),
                "z_free": st["zmax"], "speed_0_2": speed02, "curvature_0_2": curv02,
                "chord_moment": [float(sense[2]), float(sense[-1])],
                "fine": fine, "studies": study},
    )
