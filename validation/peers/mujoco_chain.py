"""MuJoCo (PyPI ``mujoco``, optional) as a peer for the rigid-link tether (seed 000).

The tether of Hembree & Slegers (seed 000 §2 and §5) is N uniform, slender, rigid links
joined by spherical joints, the first hanging from a fixed point and the last one free.
Here the same chain is written as an MJCF model and run by MuJoCo:

* **Bodies.** Link j is body ``link{j}`` (j = 1..N). Its frame origin is its start joint
  (joint j - 1, the point it shares with its parent) and its axis is the body's local -z,
  so a child body sits at ``pos = (0, 0, -l)`` in its parent's frame, l = L/N. The root
  body sits at the anchor; its ``quat`` turns the whole reference configuration into the
  straight chain at ``angle_from_gravity_deg`` from gravity (tilted towards +x as in
  ``tetherdyn.initial``), so MuJoCo's reference pose (every ball quaternion = identity,
  velocities zero) *is* the release state of seed 000 §5.2.
* **Joints.** One ``ball`` joint per body at its frame origin (seed 000 §2: spherical
  joints); no limits, no springs, no armature, no friction loss, damping only when asked.
* **Inertia.** Given explicitly with ``<inertial>`` (``inertiafromgeom="false"``, so the
  capsules carry no mass): mass m_T/N at the link centre (0, 0, -l/2); transverse moment
  about the centre m l²/12, the slender rod of seed 000 eq. (46); spin moment m r²/2 with
  r = d/2 (solid cylinder).

  Why a spin moment at all: MuJoCo's ball joint has 3 rotational DOFs, spin included, and a
  zero spin inertia would make the joint-space mass matrix singular (the tip link's spin
  DOF would carry no inertia). Why it does not matter: every force on a link (joint
  reactions at both ends, weight at the centre) passes through the link's axis, so no
  moment acts about that axis, and for an axisymmetric body Euler's spin equation
  I_a dω_a/dt = (I_t - I_t) ω_1 ω_2 + M_a = 0 keeps ω_a = 0 for all time from a rest
  start, whatever I_a > 0. The no-spin chain of seed 000 eq. (4) (ω ⊥ link) is thus an
  exact invariant set of MuJoCo's equations, and the physical value m r²/2 (I_a/I_t =
  6 r²/l², 4e-5 at N = 32) keeps the mass matrix well conditioned without armature.
  ``run_mujoco_chain`` reports the largest spin rate |ω · axis| it saw as a check.
  (The transverse moment follows seed 000 eq. (46) and omits the cylinder's m r²/4, a
  2e-5 relative change at N = 32, so that both codes solve the same equations.)
* **No contacts** (``contype = conaffinity = 0`` and ``<flag contact="disable"/>``), no
  fluid (``density = viscosity = 0``), gravity as given.
* **Integrator.** ``RK4`` (classical 4th-order Runge-Kutta on MuJoCo's joint coordinates,
  quaternions advanced on the rotation group); ``Euler`` (semi-implicit) may be chosen.
* **Joint damping** (``joint_damping`` = the tether's total C_s [N m s]): MuJoCo's ball
  joint damps the *whole* relative angular velocity of the two links with the per-joint
  coefficient C_s m_j l_j/(m_T L) = C_s/N² (seed 000 eq. (48) as ``tetherdyn.case`` reads
  it); the root joint (link 1 to the ground) is not damped, as in tetherdyn's
  ``rigid_links``. Seed 000 §5.1 damps only the bending part (the relative rate normal to
  both links), so MuJoCo also damps the relative twist rate, which the no-spin model does
  not have; the two agree for planar motion (no relative twist). Caution: the twist
  damping acts on the small spin inertia (rate ~ C_s/(N² I_a), ~1e5 1/s at N = 32), which
  makes MuJoCo's explicit RK4 unstable at any practical dt; use ``integrator="Euler"``,
  where MuJoCo integrates joint damping implicitly. The peer row uses no damping.

Limits of MuJoCo for long chains (MuJoCo 4.0.0): its XML parser refuses element nesting
deeper than ~500 (so the MJCF text loads only for N <= ``XML_MAX_LINKS``; longer chains
are built with ``mujoco.MjSpec`` from the same numbers) and its compiler refuses kinematic
trees deeper than 1023 bodies (``MAX_LINKS``). A serial chain's joint-space mass matrix is
dense, so each step costs O(N²) (composite rigid body) to O(N³) (its factorisation).

Run ``python -m tetherdyn.peers.mujoco_chain`` for a self-check (hanging-chain period).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

import numpy as np

from . import output_grid

__all__ = [
    "MAX_LINKS",
    "XML_MAX_LINKS",
    "build_chain_model",
    "build_chain_xml",
    "hanging_chain_period_check",
    "mode_one_nodes",
    "mujoco_available",
    "mujoco_version",
    "mujoco_wall_time",
    "release_direction",
    "rigid_chain_frequencies",
    "run_mujoco_chain",
]

#: longest chain whose MJCF text MuJoCo's XML parser accepts (element depth limit ~500,
#: measured with MuJoCo 4.0.0: 496 links load, 497 do not; a margin is kept)
XML_MAX_LINKS = 480
#: longest serial chain MuJoCo's compiler accepts (tree depth limit, MuJoCo 4.0.0)
MAX_LINKS = 1023

_DOWN_LOCAL = np.array([0.0, 0.0, -1.0])  # link axis in its body frame


def mujoco_available() -> bool:
    """True if the ``mujoco`` Python package can be imported."""
    try:
        import mujoco  # noqa: F401
    except Exception:
        return False
    return True


def mujoco_version() -> str:
    """The installed MuJoCo version, or "not installed"."""
    try:
        import mujoco

        return str(mujoco.__version__)
    except Exception:
        return "not installed"


# --- geometry helpers (quaternions w, x, y, z as in MuJoCo) --------------------------------


def _qmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return np.array([
        w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
        w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
        w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
        w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2,
    ])


def _qconj(q: np.ndarray) -> np.ndarray:
    return np.array([q[0], -q[1], -q[2], -q[3]])


def _quat_from_to(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Unit quaternion of the smallest rotation taking unit vector a onto unit vector b."""
    c = float(a @ b)
    if c < -1.0 + 1e-12:  # opposite: half turn about any axis normal to a
        axis = np.cross(a, [1.0, 0.0, 0.0])
        if np.linalg.norm(axis) < 1e-6:
            axis = np.cross(a, [0.0, 1.0, 0.0])
        axis /= np.linalg.norm(axis)
        return np.array([0.0, *axis])
    q = np.array([1.0 + c, *np.cross(a, b)])
    return q / np.linalg.norm(q)


def release_direction(gravity: Sequence[float], angle_from_gravity_deg: float) -> np.ndarray:
    """Unit vector of a straight tether released at an angle from gravity.

    The same convention as ``tetherdyn.initial`` (``initial.angle_from_gravity_deg``): the
    chain leans from the gravity direction towards +x (towards +z if gravity is along x).
    """
    g = np.asarray(gravity, dtype=float).reshape(3)
    down = g / np.linalg.norm(g) if np.any(g) else _DOWN_LOCAL.copy()
    ex = np.array([1.0, 0.0, 0.0])
    side = ex - down * (ex @ down)
    if np.linalg.norm(side) < 1e-12:
        ez = np.array([0.0, 0.0, 1.0])
        side = ez - down * (ez @ down)
    side /= np.linalg.norm(side)
    a = math.radians(angle_from_gravity_deg)
    return math.cos(a) * down + math.sin(a) * side


def _gravity_vector(gravity) -> np.ndarray:
    """A 3-vector [m/s²]; a scalar g means (0, 0, -g)."""
    g = np.asarray(gravity, dtype=float)
    if g.ndim == 0:
        return np.array([0.0, 0.0, -float(g)])
    return g.reshape(3)


def _chain_numbers(length: float, mass: float, diameter: float, links: int,
                   joint_damping: float) -> dict:
    n = int(links)
    if n < 1:
        raise ValueError("links must be >= 1")
    if n > MAX_LINKS:
        raise ValueError(f"MuJoCo's compiler accepts serial chains of at most {MAX_LINKS} "
                         f"bodies (tree depth limit); asked for {n} links")
    if length <= 0 or mass <= 0 or diameter <= 0:
        raise ValueError("length, mass and diameter must be positive")
    ell = length / n
    m = mass / n
    r = 0.5 * diameter
    return dict(
        n=n,
        l=ell,
        m=m,
        r=r,
        i_t=m * ell * ell / 12.0,  # seed 000 eq. (46): slender rod about its centre
        i_a=0.5 * m * r * r,  # solid cylinder about its axis (see module docstring)
        c_j=joint_damping * m * ell / (mass * length),  # seed 000 eq. (48), C_s m_j l_j/(m_T L)
    )


def _g(x: float) -> str:
    return f"{float(x):.17g}"


def _v(xs) -> str:
    return " ".join(_g(x) for x in xs)


def build_chain_xml(
    length: float,
    mass: float,
    diameter: float,
    links: int,
    gravity: Sequence[float] | float = (0.0, 0.0, -9.81),
    dt: float = 0.005,
    angle_from_gravity_deg: float = 0.0,
    joint_damping: float = 0.0,
    *,
    anchor: Sequence[float] = (0.0, 0.0, 0.0),
    integrator: str = "RK4",
    capsules: bool = True,
) -> str:
    """MJCF text of the rigid-link tether (see the module docstring for every choice).

    Parameters (SI units)
    ----------
    length : tether length L [m]; mass : total mass m_T [kg]; diameter : d [m] (spin
        inertia and the capsules' radius only).
    links : number of links N (1 .. ``MAX_LINKS``; MuJoCo's parser loads this text only
        for N <= ``XML_MAX_LINKS``, use :func:`build_chain_model` beyond).
    gravity : gravity vector [m/s²] (a scalar g means (0, 0, -g)).
    dt : MuJoCo time step [s].
    angle_from_gravity_deg : the reference (= initial) pose is the straight chain at this
        angle from gravity [deg], leaning towards +x.
    joint_damping : total tether damping C_s [N m s]; each ball joint between two links
        gets C_s/N² (whole relative angular velocity, see the module docstring; needs
        ``integrator="Euler"``), the root joint none. 0: no damping element.
    anchor : the fixed start point [m].
    integrator : "RK4" (default) or "Euler".
    capsules : add a massless, contact-free capsule per link (visualisation only).
    """
    c = _chain_numbers(length, mass, diameter, links, joint_damping)
    if integrator not in ("RK4", "Euler"):
        raise ValueError("integrator must be 'RK4' or 'Euler'")
    g = _gravity_vector(gravity)
    q0 = _quat_from_to(_DOWN_LOCAL, release_direction(g, angle_from_gravity_deg))
    n, ell = c["n"], c["l"]
    inertial = (f'<inertial pos="0 0 {_g(-0.5 * ell)}" mass="{_g(c["m"])}" '
                f'diaginertia="{_v([c["i_t"], c["i_t"], c["i_a"]])}"/>')
    # the root joint is not damped (tetherdyn's reading of seed 000 §5.1, docs/rigid_links.md)
    damping = f' damping="{_g(c["c_j"])}"' if c["c_j"] > 0.0 else ""
    geom = (f'<geom type="capsule" fromto="0 0 0 0 0 {_g(-ell)}" size="{_g(c["r"])}" '
            f'contype="0" conaffinity="0" group="1"/>') if capsules else ""
    rows = [
        '<mujoco model="tetherdyn_rigid_links">',
        '  <!-- seed 000 (Hembree & Slegers) rigid-link tether; generated by '
        'tetherdyn.peers.mujoco_chain -->',
        '  <compiler angle="radian" inertiafromgeom="false" autolimits="true"/>',
        f'  <option timestep="{_g(dt)}" integrator="{integrator}" gravity="{_v(g)}" '
        'density="0" viscosity="0">',
        '    <flag contact="disable"/>',
        '  </option>',
        '  <worldbody>',
    ]
    ind = "    "
    for j in range(n):
        pos = _v(anchor) if j == 0 else f"0 0 {_g(-ell)}"
        quat = f' quat="{_v(q0)}"' if j == 0 else ""
        rows.append(f'{ind}<body name="link{j + 1}" pos="{pos}"{quat}>')
        rows.append(f'{ind}  <joint name="joint{j}" type="ball"{damping if j else ""}/>')
        rows.append(f"{ind}  {inertial}")
        if geom:
            rows.append(f"{ind}  {geom}")
        rows.append(f'{ind}  <site name="node{j}" pos="0 0 0"/>')
        if j == n - 1:
            rows.append(f'{ind}  <site name="node{n}" pos="0 0 {_g(-ell)}"/>')
        ind += "  "
    for _ in range(n):
        ind = ind[:-2]
        rows.append(f"{ind}</body>")
    rows += ["  </worldbody>", "</mujoco>", ""]
    return "\n".join(rows)


def _spec_model(length, mass, diameter, links, gravity, dt, angle_from_gravity_deg,
                joint_damping, anchor, integrator, capsules):
    """The same model as :func:`build_chain_xml`, built with ``mujoco.MjSpec`` (deep chains)."""
    import mujoco

    c = _chain_numbers(length, mass, diameter, links, joint_damping)
    g = _gravity_vector(gravity)
    q0 = _quat_from_to(_DOWN_LOCAL, release_direction(g, angle_from_gravity_deg))
    spec = mujoco.MjSpec()
    spec.modelname = "tetherdyn_rigid_links"
    spec.compiler.degree = False
    spec.compiler.inertiafromgeom = mujoco.mjtInertiaFromGeom.mjINERTIAFROMGEOM_FALSE
    spec.option.timestep = dt
    spec.option.integrator = (mujoco.mjtIntegrator.mjINT_RK4 if integrator == "RK4"
                              else mujoco.mjtIntegrator.mjINT_EULER)
    spec.option.gravity = g
    spec.option.density = 0.0
    spec.option.viscosity = 0.0
    spec.option.disableflags |= int(mujoco.mjtDisableBit.mjDSBL_CONTACT)
    n, ell = c["n"], c["l"]
    parent = spec.worldbody
    for j in range(n):
        body = parent.add_body(name=f"link{j + 1}")
        body.pos = np.asarray(anchor, dtype=float) if j == 0 else [0.0, 0.0, -ell]
        if j == 0:
            body.quat = q0
        body.explicitinertial = True
        body.mass = c["m"]
        body.ipos = [0.0, 0.0, -0.5 * ell]
        body.inertia = [c["i_t"], c["i_t"], c["i_a"]]
        body.add_joint(name=f"joint{j}", type=mujoco.mjtJoint.mjJNT_BALL,
                       damping=c["c_j"] if j else 0.0)
        if capsules:
            body.add_geom(type=mujoco.mjtGeom.mjGEOM_CAPSULE, fromto=[0, 0, 0, 0, 0, -ell],
                          size=[c["r"], 0.0, 0.0], contype=0, conaffinity=0, group=1)
        body.add_site(name=f"node{j}", pos=[0.0, 0.0, 0.0])
        if j == n - 1:
            body.add_site(name=f"node{n}", pos=[0.0, 0.0, -ell])
        parent = body
    return spec.compile()


def build_chain_model(
    length: float,
    mass: float,
    diameter: float,
    links: int,
    gravity: Sequence[float] | float = (0.0, 0.0, -9.81),
    dt: float = 0.005,
    angle_from_gravity_deg: float = 0.0,
    joint_damping: float = 0.0,
    *,
    anchor: Sequence[float] = (0.0, 0.0, 0.0),
    integrator: str = "RK4",
    capsules: bool = True,
    via: str = "auto",
):
    """Compiled ``mujoco.MjModel`` of :func:`build_chain_xml` (same arguments).

    ``via``: "xml" loads the MJCF text (N <= ``XML_MAX_LINKS``), "spec" builds the same
    model with ``mujoco.MjSpec`` (any N <= ``MAX_LINKS``), "auto" picks xml when it can.
    """
    import mujoco

    args = (length, mass, diameter, links, gravity, dt, angle_from_gravity_deg, joint_damping)
    if via == "auto":
        via = "xml" if int(links) <= XML_MAX_LINKS else "spec"
    if via == "xml":
        xml = build_chain_xml(*args, anchor=anchor, integrator=integrator, capsules=capsules)
        return mujoco.MjModel.from_xml_string(xml)
    if via == "spec":
        return _spec_model(*args, anchor, integrator, capsules)
    raise ValueError("via must be 'auto', 'xml' or 'spec'")


def _joint_quats(nodes: np.ndarray, q_root: np.ndarray) -> np.ndarray:
    """Ball-joint quaternions (N, 4) that put the joints at ``nodes`` (N + 1, 3).

    Link j's absolute orientation is the smallest rotation of the body axis -z onto its
    direction (the spin angle about the axis is immaterial); each joint quaternion is the
    rotation relative to the parent (the root: relative to the root body's ``quat``).
    """
    seg = np.diff(nodes, axis=0)
    lens = np.linalg.norm(seg, axis=1)
    qabs = [_quat_from_to(_DOWN_LOCAL, s / ln) for s, ln in zip(seg, lens, strict=True)]
    out = np.empty((len(qabs), 4))
    prev = q_root
    for j, q in enumerate(qabs):
        rel = _qmul(_qconj(prev), q)
        out[j] = rel / np.linalg.norm(rel)
        prev = q
    return out


def run_mujoco_chain(
    length: float,
    mass: float,
    diameter: float,
    links: int,
    dt: float,
    duration: float,
    *,
    output_interval: float | None = None,
    gravity: Sequence[float] | float = (0.0, 0.0, -9.81),
    angle_from_gravity_deg: float = 0.0,
    joint_damping: float = 0.0,
    anchor: Sequence[float] = (0.0, 0.0, 0.0),
    initial_nodes: np.ndarray | None = None,
    integrator: str = "RK4",
    capsules: bool = True,
    velocities: bool = True,
) -> dict:
    """Simulate the rigid-link tether in MuJoCo, released from rest.

    Parameters (SI units)
    ----------
    length, mass, diameter, links, gravity, angle_from_gravity_deg, joint_damping, anchor,
        integrator, capsules : as in :func:`build_chain_xml`.
    dt : MuJoCo time step [s]; duration : simulated time [s], a multiple of dt.
    output_interval : sampling interval [s], a multiple of dt (None: every step).
    initial_nodes : optional (N + 1, 3) joint positions [m] at t = 0 (link lengths must be
        L/N; node 0 at the anchor); default: the straight chain at
        ``angle_from_gravity_deg``. Velocities are always zero at t = 0.
    velocities : also return the joint velocities (costs N object-velocity calls per
        output, outside the timed loop).

    Returns
    -------
    dict with ``time`` (k,), ``positions`` (k, N + 1, 3) of joints 0..N [m] (0: anchor,
    N: free end), ``velocities`` (k, N + 1, 3) [m/s] (if asked), ``max_spin_rate`` (largest
    |ω · link axis| of any link at any output [rad/s]; 0 in exact arithmetic), ``energy`` (k,)
    kinetic + gravitational potential energy [J] (MuJoCo's ``mj_energyPos/Vel``),
    ``max_link_length_error`` [m], ``wall_time_s`` (time inside ``mj_step`` only),
    ``steps``, ``us_per_step``, ``wall_per_simulated_s``, ``mujoco_version``, ``warnings``
    (MuJoCo warning counters, all zero for a sound run: an unstable run would be reset).
    """
    import mujoco

    n = int(links)
    n_steps, stride, n_out = output_grid(duration, dt, output_interval)

    g = _gravity_vector(gravity)
    model = build_chain_model(length, mass, diameter, n, g, dt, angle_from_gravity_deg,
                              joint_damping, anchor=anchor, integrator=integrator,
                              capsules=capsules)
    data = mujoco.MjData(model)
    mujoco.mj_resetData(model, data)  # reference pose = straight release, at rest
    if initial_nodes is not None:
        nodes = np.asarray(initial_nodes, dtype=float)
        if nodes.shape != (n + 1, 3):
            raise ValueError(f"initial_nodes must have shape ({n + 1}, 3)")
        ell = np.linalg.norm(np.diff(nodes, axis=0), axis=1)
        if np.abs(ell - length / n).max() > 1e-9 * length:
            raise ValueError("initial_nodes: every link must be L/N long")
        if np.abs(nodes[0] - np.asarray(anchor, dtype=float)).max() > 1e-9 * length:
            raise ValueError("initial_nodes[0] must be the anchor")
        q_root = _quat_from_to(_DOWN_LOCAL, release_direction(g, angle_from_gravity_deg))
        data.qpos[:] = _joint_quats(nodes, q_root).ravel()
    data.qvel[:] = 0.0

    site_ids = np.array([mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_SITE, f"node{i}")
                         for i in range(n + 1)])
    body_ids = np.arange(1, n + 1)  # link bodies in tree order (world is 0)
    positions = np.empty((n_out, n + 1, 3))
    vels = np.empty((n_out, n + 1, 3)) if velocities else None
    energy = np.empty(n_out)
    spin = 0.0
    vel6 = np.empty(6)

    def sample(k: int) -> float:
        mujoco.mj_forward(model, data)  # positions/velocities of the current state
        positions[k] = data.site_xpos[site_ids]
        if vels is not None:
            for i, sid in enumerate(site_ids):
                mujoco.mj_objectVelocity(model, data, mujoco.mjtObj.mjOBJ_SITE, sid, vel6, 0)
                vels[k, i] = vel6[3:]
        mujoco.mj_energyPos(model, data)
        mujoco.mj_energyVel(model, data)
        energy[k] = data.energy[0] + data.energy[1]
        omega = data.cvel[body_ids, :3]  # world-frame angular velocity of each link
        axis = -data.xmat[body_ids].reshape(-1, 3, 3)[:, :, 2]  # body -z in world
        return float(np.abs(np.einsum("ij,ij->i", omega, axis)).max())

    spin = max(spin, sample(0))
    step = mujoco.mj_step
    perf = time.perf_counter
    wall = 0.0
    for k in range(1, n_out):
        t0 = perf()
        step(model, data, stride)
        wall += perf() - t0
        spin = max(spin, sample(k))
    ell_err = float(np.abs(np.linalg.norm(np.diff(positions, axis=1), axis=-1) - length / n).max())
    warnings = {str(w).split(".")[-1]: int(data.warning[int(w)].number)
                for w in mujoco.mjtWarning.__members__.values() if int(w) < len(data.warning)}
    return {
        "time": np.arange(n_out) * (stride * dt),
        "positions": positions,
        "velocities": vels,
        "energy": energy,
        "max_spin_rate": spin,
        "max_link_length_error": ell_err,
        "wall_time_s": wall,
        "steps": n_steps,
        "us_per_step": 1e6 * wall / n_steps,
        "wall_per_simulated_s": wall / (n_steps * dt),
        "dt": dt,
        "links": n,
        "integrator": integrator,
        "mujoco_version": mujoco_version(),
        "warnings": warnings,
    }


def mujoco_wall_time(
    links: int,
    dt: float,
    duration: float,
    *,
    length: float = 10.0,
    mass: float = 0.16,
    diameter: float = 1.5875e-3,
    angle_from_gravity_deg: float = 5.0,
    integrator: str = "RK4",
    repeats: int = 1,
) -> float:
    """Wall seconds of MuJoCo's ``mj_step`` loop per simulated second (best of ``repeats``).

    The seed-000 tether (defaults: 10 m, 0.16 kg, d = 1.5875 mm) released straight at
    ``angle_from_gravity_deg`` from vertical, ``duration`` simulated seconds at step
    ``dt`` [s]; only ``mj_step(model, data, nstep)`` is timed (one call for the whole run,
    so no Python per step), without the capsules (visual only).
    """
    best = math.inf
    for _ in range(max(1, int(repeats))):
        res = run_mujoco_chain(length, mass, diameter, links, dt, duration,
                               output_interval=duration,
                               angle_from_gravity_deg=angle_from_gravity_deg,
                               integrator=integrator, capsules=False, velocities=False)
        best = min(best, res["wall_per_simulated_s"])
    return best


# --------------------------------------------------------------------------------------
# Independent reference: exact small oscillations of the discrete rigid-link chain
# --------------------------------------------------------------------------------------


def rigid_chain_frequencies(length: float, links: int, g: float = 9.81,
                            n_modes: int = 3) -> np.ndarray:
    """Linear angular frequencies [rad/s] of N uniform rigid links hanging in a plane.

    Link j (1 at the top) at small angle φ_j from the vertical; link length l = L/N, mass
    m (cancels), moment about its centre m l²/12 (seed 000 eq. (46)). Its centre moves by
    x_cj = l Σ_{k<j} φ_k + (l/2) φ_j, so the kinetic energy gives the mass matrix
    M_ab = Σ_j m c_ja c_jb + (m l²/12) δ_ab with c_ja = l (a < j), l/2 (a = j), 0 (a > j);
    the potential -Σ m g z_cj gives the diagonal stiffness K_aa = m g l (N - a + 1/2).
    The eigenvalues of K v = ω² M v tend to the continuous chain's
    (``tetherdyn.analytic.hanging_chain_frequencies``) as N grows.
    """
    from scipy.linalg import eigh

    n = int(links)
    ell = length / n
    c = np.zeros((n, n))  # c[j, a]: lateral velocity of centre j per unit dφ_a/dt
    for j in range(n):
        c[j, :j] = ell
        c[j, j] = 0.5 * ell
    mass = c.T @ c + np.eye(n) * ell * ell / 12.0
    stiff = np.diag(g * ell * (n - np.arange(1, n + 1) + 0.5))
    w2 = eigh(stiff, mass, eigvals_only=True)
    return np.sqrt(w2[:n_modes])


# --------------------------------------------------------------------------------------
# Self-check
# --------------------------------------------------------------------------------------


def mode_one_nodes(length: float, links: int, amplitude: float) -> np.ndarray:
    """Joint positions (N + 1, 3) [m]: the hanging chain bent into the continuum mode 1.

    Joint i at arc length s_i gets x_i = amplitude · J0(j01 sqrt((L - s_i)/L)); z keeps
    every link at length L/N.
    """
    from tetherdyn import analytic

    n = int(links)
    s = np.linspace(0.0, length, n + 1)
    x = amplitude * analytic.hanging_chain_mode_shape(s, length, 1)
    ell = length / n
    dz = -np.sqrt(ell * ell - np.diff(x) ** 2)
    return np.column_stack([x, np.zeros(n + 1), np.concatenate([[0.0], np.cumsum(dz)])])


def hanging_chain_period_check(links: int = 32, dt: float = 0.005, periods: int = 5,
                               amplitude: float = 0.05, g: float = 9.81) -> dict:
    """First-mode period [s] of the MuJoCo chain against the discrete and continuous theory.

    Released at rest from the continuum mode-1 shape with a ``amplitude`` tip offset [m]; the
    tip's x(t) is fitted with two sinusoids of free frequency (the discrete chain's modes 1
    and 2; the continuum shape leaks a little into mode 2).
    """
    from tetherdyn import analytic
    from validation.hanging_chain import fit_sinusoids

    length, mass, diameter = 10.0, 0.16, 1.5875e-3
    w_disc = rigid_chain_frequencies(length, links, g, n_modes=2)
    t_cont = analytic.hanging_chain_period(length, g)
    duration = round(periods * t_cont / dt) * dt
    res = run_mujoco_chain(length, mass, diameter, links, dt, duration, output_interval=dt,
                           gravity=g, initial_nodes=mode_one_nodes(length, links, amplitude),
                           velocities=False)
    tip_x = res["positions"][:, -1, 0]
    fit = fit_sinusoids(res["time"], tip_x, list(w_disc))
    period = fit.period(0)
    t_disc = 2.0 * math.pi / w_disc[0]
    return dict(period=period, discrete=t_disc, continuum=t_cont,
                rel_continuum=period / t_cont - 1.0, rel_discrete=period / t_disc - 1.0,
                discrete_bias=t_disc / t_cont - 1.0, fit_rms=fit.rms_residual,
                max_spin_rate=res["max_spin_rate"], us_per_step=res["us_per_step"],
                link_error=res["max_link_length_error"], warnings=res["warnings"])


def _self_check() -> int:
    if not mujoco_available():
        print("mujoco is not installed: pip install mujoco==4.0.0")
        return 1
    import mujoco

    print(f"MuJoCo {mujoco_version()}")
    ok = True

    # 1) the MJCF text and the MjSpec route compile to the same model
    args = (10.0, 0.16, 1.5875e-3, 32, (0.0, 0.0, -9.81), 0.005, 5.0, 0.13)
    mx = build_chain_model(*args, via="xml")
    ms = build_chain_model(*args, via="spec")
    fields = ("body_mass", "body_inertia", "body_ipos", "body_pos", "body_quat",
              "dof_damping", "dof_armature", "site_pos", "opt.gravity", "opt.timestep")
    worst = 0.0
    for f in fields:
        obj_x, obj_s = mx, ms
        for part in f.split("."):
            obj_x, obj_s = getattr(obj_x, part), getattr(obj_s, part)
        worst = max(worst, float(np.max(np.abs(np.asarray(obj_x) - np.asarray(obj_s)))))
    same = worst < 1e-15 and mx.opt.integrator == ms.opt.integrator == 1
    print(f"xml vs MjSpec model (N = 32): largest difference {worst:.1e} "
          f"({'same' if same else 'DIFFERENT'}); nv = {mx.nv}, integrator RK4 = "
          f"{mx.opt.integrator == int(mujoco.mjtIntegrator.mjINT_RK4)}")
    ok &= bool(same)

    # 2) hanging-chain first-mode period (small amplitude) against theory
    r = hanging_chain_period_check(32)
    print(f"hanging chain N = 32, RK4 dt = 0.005 s: period {r['period']:.6f} s; "
          f"exact discrete rigid chain {r['discrete']:.6f} s (rel {r['rel_discrete']:+.1e}); "
          f"continuum Bessel {r['continuum']:.6f} s (rel {r['rel_continuum']:+.2e}; "
          f"discrete bias {r['discrete_bias']:+.2e})")
    print(f"  fit rms {r['fit_rms']:.1e} m, max spin rate {r['max_spin_rate']:.1e} rad/s, "
          f"link length error {r['link_error']:.1e} m, {r['us_per_step']:.1f} µs/step")
    ok &= abs(r["rel_continuum"]) < 5e-3 and abs(r["rel_discrete"]) < 1e-4
    ok &= not any(r["warnings"].values())

    # 3) the undamped 5° release of seed 000 §5.2 (10 s): stays planar, keeps its energy
    res = run_mujoco_chain(10.0, 0.16, 1.5875e-3, 32, 0.005, 10.0, output_interval=0.05,
                           angle_from_gravity_deg=5.0)
    end = res["positions"][:, -1]
    e = res["energy"]
    swing = 0.16 * 9.81 * 5.0 * (1.0 - math.cos(math.radians(5.0)))  # PE of the release [J]
    drift = float(np.abs(e - e[0]).max()) / swing
    print(f"5° release N = 32, 10 s: end x {end[0, 0]:+.4f} -> range "
          f"{end[:, 0].min():+.4f}..{end[:, 0].max():+.4f} m, max |y| "
          f"{np.abs(res['positions'][..., 1]).max():.1e} m, max spin {res['max_spin_rate']:.1e}"
          f" rad/s, energy drift {drift:.1e} of the release energy, "
          f"{res['us_per_step']:.1f} µs/step")
    ok &= bool(np.abs(res["positions"][..., 1]).max() < 1e-9 and drift < 1e-3)
    print("SELF-CHECK", "PASSED" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(_self_check())
