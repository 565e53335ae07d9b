"""Co-simulation example: a 6-DOF ROV pulling its tether, coupled through the step API.

The ROV is a rigid body with added mass, quadratic drag, a hydrostatic restoring moment
and constant thrust (written here in numpy: this is the "host"). A 50 m umbilical
(``tetherdyn`` lumped-mass model, 32 elements, sea water) hangs from a fixed point at the
surface to the ROV's tether attachment. Every host step (10 ms):

1. the host hands the attachment point's position and velocity at the end of the step to
   ``Simulator.step``, which advances the tether (RK4, 0.5 ms) and returns the force the
   tether exerts on its end;
2. the host applies that force (and its moment about the ROV's centre) over its next step.

The same ROV runs without the tether for comparison; the figure shows the disturbance.

Run: ``python -m tetherdyn.examples.cosim_rov [--duration 40] [--plot rov.png]``
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np

from tetherdyn import Simulator

RHO = 1025.0  # sea water [kg/m^3]
G = 9.81
MASS = 120.0  # ROV dry mass [kg], neutrally buoyant
ADDED = np.array([30.0, 80.0, 110.0])  # surge, sway, heave added mass [kg]
INERTIA = np.array([12.0, 20.0, 18.0]) + np.array([3.0, 8.0, 6.0])  # + added inertia [kg m^2]
DRAG_AREA = np.array([0.35, 0.6, 0.8])  # C_d A per body axis [m^2]
ROT_DRAG = np.array([8.0, 12.0, 10.0])  # quadratic rotational damping [N m s^2]
METACENTRE = 0.08  # centre of buoyancy above the centre of gravity [m]
THRUST = np.array([180.0, 0.0, 0.0])  # body-frame thrust [N]
ATTACH = np.array([-0.5, 0.0, 0.25])  # tether attachment in the body frame [m]
HOST_DT = 0.01  # [s]
START = np.array([10.0, 0.0, -30.0])  # ROV centre at t = 0 [m]
CURRENT = np.array([0.0, 0.25, 0.0])  # side current [m/s]


def tether_case(duration: float) -> dict:
    """A 50 m umbilical from the surface (origin) to the ROV's attachment point."""
    return dict(
        name="ROV umbilical",
        tether=dict(length=50.0, diameter=0.015, mass_per_length=0.22, EA=5.0e4,
                    axial_damping=200.0, cd_normal=1.2, cd_tangential=0.01),
        model=dict(type="lumped_mass", elements=32),
        environment=dict(fluid_density=RHO, current=CURRENT.tolist()),
        start=dict(type="fixed", position=[0.0, 0.0, 0.0]),
        end=dict(type="fixed", position=(START + ATTACH).tolist()),
        solver=dict(method="rk4", dt=5e-4, duration=duration, output_interval=HOST_DT),
    )


def rotation(q: np.ndarray) -> np.ndarray:
    """Body-to-world rotation matrix of a unit quaternion (w, x, y, z)."""
    w, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def rov_derivative(state: np.ndarray, tether_force: np.ndarray) -> np.ndarray:
    """d/dt of [position (3), quaternion (4), body velocity (3), body rate (3)]."""
    q = state[3:7] / np.linalg.norm(state[3:7])
    v, w = state[7:10], state[10:13]
    R = rotation(q)
    f_tether = R.T @ tether_force  # world -> body
    gravity_dir = R.T @ np.array([0.0, 0.0, -1.0])
    u = v - R.T @ CURRENT  # velocity through the water, body frame
    force = THRUST - DRAG_AREA * 0.5 * RHO * np.abs(u) * u + f_tether
    # restoring moment: buoyancy above the CG rights the vehicle
    moment = (np.cross(np.array([0.0, 0.0, METACENTRE]), -MASS * G * gravity_dir)
              - ROT_DRAG * np.abs(w) * w + np.cross(ATTACH, f_tether))
    m = MASS + ADDED
    dv = force / m - np.cross(w, v) * (MASS / m)
    dw = (moment - np.cross(w, INERTIA * w)) / INERTIA
    dq = 0.5 * np.array([-q[1:] @ w, *(q[0] * w + np.cross(q[1:], w))])
    return np.concatenate([R @ v, dq, dv, dw])


def rk4(state: np.ndarray, force: np.ndarray, h: float) -> np.ndarray:
    k1 = rov_derivative(state, force)
    k2 = rov_derivative(state + 0.5 * h * k1, force)
    k3 = rov_derivative(state + 0.5 * h * k2, force)
    k4 = rov_derivative(state + h * k3, force)
    out = state + h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
    out[3:7] /= np.linalg.norm(out[3:7])
    return out


def attachment(state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """World position and velocity of the tether attachment point."""
    R = rotation(state[3:7])
    v_world = R @ (state[7:10] + np.cross(state[10:13], ATTACH))
    return state[:3] + R @ ATTACH, v_world


def run(duration: float = 40.0, settle: float = 10.0) -> dict[str, np.ndarray]:
    """Settle the tether with the ROV held, then fly the ROV with and without the tether.

    Returns time histories: ``t``, ROV positions ``free`` and ``tethered`` (n, 3), yaw and
    pitch [deg] of both, and the tether force on the ROV (n, 3) [N].
    """
    sim = Simulator(tether_case(settle + duration))
    for _ in range(int(round(settle / HOST_DT))):  # the umbilical sags into a catenary
        sim.step(HOST_DT)
    n = int(round(duration / HOST_DT))
    state0 = np.concatenate([START, [1.0, 0.0, 0.0, 0.0], np.zeros(6)])
    tethered, free = state0.copy(), state0.copy()
    out = {k: np.empty((n + 1, 3)) for k in ("free", "tethered", "force")}
    angles = {k: np.empty((n + 1, 2)) for k in ("free", "tethered")}
    force = sim.forces[1].copy()  # the force the tether exerts on the ROV (its end holder)
    for k in range(n + 1):
        out["free"][k], out["tethered"][k], out["force"][k] = free[:3], tethered[:3], force
        for name, s in (("free", free), ("tethered", tethered)):
            R = rotation(s[3:7])
            angles[name][k] = (math.degrees(math.atan2(R[1, 0], R[0, 0])),
                               math.degrees(math.asin(-np.clip(R[2, 0], -1, 1))))
        if k == n:
            break
        tethered = rk4(tethered, force, HOST_DT)
        free = rk4(free, np.zeros(3), HOST_DT)
        _, f_end = sim.step(HOST_DT, end=attachment(tethered))
        force = f_end.copy()
    return dict(t=np.arange(n + 1) * HOST_DT, yaw_free=angles["free"][:, 0],
                yaw_tethered=angles["tethered"][:, 0], pitch_free=angles["free"][:, 1],
                pitch_tethered=angles["tethered"][:, 1], **out)


def plot(result: dict[str, np.ndarray], path: str | Path) -> Path:
    import matplotlib.figure

    fig = matplotlib.figure.Figure(figsize=(11.0, 7.0))
    axes = fig.subplots(2, 2)
    t = result["t"]
    ax = axes[0, 0]
    for name, style in (("free", "--"), ("tethered", "-")):
        ax.plot(result[name][:, 0], result[name][:, 2], style, label=f"ROV {name}")
    ax.plot([0.0], [0.0], "ks", label="tether top")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("z [m]")
    ax.set_title("ROV path (side view)", fontsize=9)
    ax2 = ax.inset_axes([0.58, 0.1, 0.4, 0.35])
    for name, style in (("free", "--"), ("tethered", "-")):
        ax2.plot(result[name][:, 0], result[name][:, 1], style)
    ax2.set_title("plan view (x, y)", fontsize=7)
    ax2.tick_params(labelsize=6)
    ax.legend(fontsize=7)
    ax = axes[0, 1]
    for i, c in enumerate("xyz"):
        ax.plot(t, result["force"][:, i], label=f"F{c}")
    ax.plot(t, np.linalg.norm(result["force"], axis=1), "k", lw=1.2, label="|F|")
    ax.set_xlabel("time [s]")
    ax.set_ylabel("tether force on the ROV [N]")
    ax.legend(fontsize=7)
    ax = axes[1, 0]
    ax.plot(t, result["free"][:, 0] - result["tethered"][:, 0], label="surge lag x_free − x")
    ax.plot(t, result["tethered"][:, 2] - result["free"][:, 2], label="depth change z − z_free")
    ax.set_xlabel("time [s]")
    ax.set_ylabel("disturbance [m]")
    ax.legend(fontsize=7)
    ax = axes[1, 1]
    ax.plot(t, result["pitch_tethered"], label="pitch, tethered")
    ax.plot(t, result["pitch_free"], "--", label="pitch, free")
    ax.plot(t, result["yaw_tethered"], label="yaw, tethered")
    ax.plot(t, result["yaw_free"], "--", label="yaw, free")
    ax.set_xlabel("time [s]")
    ax.set_ylabel("angle [deg]")
    ax.legend(fontsize=7)
    fig.suptitle("ROV, 180 N thrust, 0.25 m/s side current, 50 m umbilical (tetherdyn step API)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return Path(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=40.0, help="flight time [s]")
    parser.add_argument("--settle", type=float, default=10.0, help="tether settling [s]")
    parser.add_argument("--plot", default="cosim_rov.png", help="figure path")
    args = parser.parse_args(argv)
    result = run(args.duration, args.settle)
    lag = result["free"][-1, 0] - result["tethered"][-1, 0]
    print(f"after {args.duration:g} s the tether holds the ROV back by {lag:.2f} m in surge; "
          f"peak tether force {np.linalg.norm(result['force'], axis=1).max():.1f} N")
    print(f"wrote {plot(result, args.plot)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
