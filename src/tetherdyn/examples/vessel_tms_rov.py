"""Worked example of the system step API (issue 19): ROV, TMS and umbilical hanging from a
vessel in waves, the vessel driven by a host program.

The system (``vessel_tms_rov.yaml``): a vessel (coupled 6-DOF body), a 70 m umbilical
(lumped mass with bending) from its stern A-frame to a tether-management system (TMS, a
free body with its weight, buoyancy, drag and added mass), and a 25 m tether from the TMS
to a nearly neutral ROV (free body), in 2.5 m, 9 s Airy waves and a 0.25 m/s current (the
case's ``environment``: the lines, TMS and ROV feel them).

The host is this script: a seakeeping model of the vessel reduced to response amplitude
operators. From the same Airy wave at the vessel's reference point it computes heave
z = RAO_z η(t − τ) and pitch θ = −RAO_θ ∂η/∂x(t − τ) (bow up on a rising slope; positive
pitch is bow down in docs/bodies.md's convention), faded in over ``ramp`` seconds, and
every host step hands the pose and velocity at the step's end to
:meth:`tetherdyn.system_cosim.SystemSimulator.step`, which returns the lines' force and
moment on the vessel. The TMS's and ROV's motions, the lines' shapes and tensions are read
from the simulator.

Run: ``python -m tetherdyn.examples.vessel_tms_rov [--duration 60] [--plot fig.png]``
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import numpy as np

from tetherdyn.system_case import load_system
from tetherdyn.system_cosim import SystemSimulator
from tetherdyn.waves import AMP, OMEGA, PHASE, K, airy_table

CASE = Path(__file__).with_name("vessel_tms_rov.yaml")
HOST_DT = 0.05  # the host's step [s]
RAO_HEAVE = 0.8  # heave per wave elevation [m/m]
RAO_PITCH = 0.6  # pitch per wave slope [rad/rad]
LAG = 0.6  # the vessel's response lag [s]
G = 9.81


def vessel_motion(case, t: float, ramp: float) -> tuple[np.ndarray, np.ndarray]:
    """The host's vessel pose [x, y, z, roll, pitch, yaw] [m, rad] and velocity [vx, vy, vz,
    wx, wy, wz] [m/s, rad/s; ω in body axes] at time t: heave and pitch of the RAOs on the
    case's Airy wave at the vessel (x = 0), faded in by a C1 smoothstep over ``ramp`` s."""
    w = case.environment.waves
    c = airy_table(w.height, w.period, w.direction_deg or 0.0, w.phase_deg or 0.0, g=G)[0]
    amp, omega, k, phase = c[AMP], c[OMEGA], c[K], c[PHASE]
    s = t - LAG
    # eta = A cos(k x - omega t + phase) at x = 0; its slope along x is -A k sin(...)
    eta, deta = amp * math.cos(phase - omega * s), amp * omega * math.sin(phase - omega * s)
    slope = -amp * k * math.sin(phase - omega * s)
    dslope = amp * k * omega * math.cos(phase - omega * s)
    u = min(max(t / ramp, 0.0), 1.0) if ramp > 0 else 1.0
    f, df = u * u * (3.0 - 2.0 * u), (6.0 * u * (1.0 - u) / ramp if 0.0 < u < 1.0 else 0.0)
    z, dz = RAO_HEAVE * eta * f, RAO_HEAVE * (deta * f + eta * df)
    pitch = -RAO_PITCH * slope * f
    dpitch = -RAO_PITCH * (dslope * f + slope * df)
    # roll and yaw stay 0: the body-axes angular velocity is (0, dpitch, 0)
    return (np.array([0.0, 0.0, z, 0.0, pitch, 0.0]),
            np.array([0.0, 0.0, dz, 0.0, dpitch, 0.0]))


def run(duration: float = 60.0, ramp: float = 10.0, calm: bool = False,
        snapshots: int = 7) -> dict:
    """Drive the vessel for ``duration`` s; ``calm``: no waves, no current and the vessel
    held still (the static check). Returns time histories (``t``; the lines' ``force`` and
    ``moment`` on the vessel (n, 3) [N, N m] about its reference point, world axes; the
    umbilical's tension at the TMS and the tether's at the TMS and the ROV [N]; vessel
    ``heave`` [m] and ``pitch`` [rad]; ``tms`` and ``rov`` positions (n, 3)) and ``shapes``
    (time, umbilical nodes, tether nodes) at ``snapshots`` evenly spaced times."""
    case = load_system(CASE)
    if calm:
        case = case.with_changes({"environment.waves": None,
                                  "environment.current": [0.0, 0.0, 0.0]})
    sim = SystemSimulator(case)
    n = int(round(duration / HOST_DT))
    out = {k: np.zeros((n + 1, 3)) for k in ("force", "moment", "tms", "rov")}
    out |= {k: np.zeros(n + 1) for k in ("t", "heave", "pitch", "umbilical_tms",
                                         "tether_tms", "tether_rov")}
    every = max(1, n // max(snapshots - 1, 1))
    shapes = []
    for k in range(n + 1):
        if k > 0:
            t = k * HOST_DT
            if calm:
                pose, vel = np.zeros(6), np.zeros(6)
            else:
                pose, vel = vessel_motion(case, t, ramp)
            sim.step(HOST_DT, bodies={"vessel": (pose, vel)})
            out["heave"][k], out["pitch"][k] = pose[2], pose[4]
        force, moment = sim.body_loads["vessel"]
        out["t"][k] = sim.t
        out["force"][k], out["moment"][k] = force, moment
        out["umbilical_tms"][k] = np.linalg.norm(sim.line_end_forces("umbilical")[1])
        ends = sim.line_end_forces("tether")
        out["tether_tms"][k], out["tether_rov"][k] = np.linalg.norm(ends, axis=1)
        out["tms"][k] = sim.body_state("tms")[:3]
        out["rov"][k] = sim.body_state("rov")[:3]
        if k % every == 0:
            shapes.append((sim.t, sim.line_positions("umbilical").copy(),
                           sim.line_positions("tether").copy()))
    out["shapes"] = shapes
    out["simulator"] = sim
    return out


def wet_weight(case) -> float:
    """The submerged weight [N] of everything below the A-frame at t = 0: the umbilical
    (its length above the calm water in air), the TMS, the tether and the ROV."""
    rho, g = case.environment.fluid_density, G
    total = 0.0
    for name, line in case.lines.items():
        tether = line.tether
        area = math.pi * tether.diameter**2 / 4.0
        w = tether.linear_mass
        top = case.line_bodies[name][0]
        if name == "umbilical":  # from the A-frame (z = 4 m) down: 4 m in air
            dry = float(top[1][2])
            total += g * (w * dry + (w - rho * area) * (tether.length - dry))
        else:
            total += g * (w - rho * area) * tether.length
    for b in ("tms", "rov"):
        body = case.bodies[b]
        total += g * (body.mass - rho * body.volume)
    return total


def plot(result: dict, path: str | Path) -> Path:
    """The figure: line shapes at the snapshot times (side view) beside the tensions at
    the vessel and the TMS and the vessel's heave and pitch over time."""
    import matplotlib.figure

    fig = matplotlib.figure.Figure(figsize=(11.0, 7.0))
    grid = fig.add_gridspec(2, 2, width_ratios=(1.0, 1.4))
    ax = fig.add_subplot(grid[:, 0])
    shapes = result["shapes"]
    for j, (t, umb, teth) in enumerate(shapes):
        shade = 0.25 + 0.75 * j / max(len(shapes) - 1, 1)
        ax.plot(umb[:, 0], umb[:, 2], color=(0.1, 0.3, 0.8, shade), lw=1.2,
                label=f"t = {t:.0f} s" if j in (0, len(shapes) - 1) else None)
        ax.plot(teth[:, 0], teth[:, 2], color=(0.85, 0.4, 0.0, shade), lw=1.2)
        ax.plot(umb[-1, 0], umb[-1, 2], "s", color=(0.1, 0.3, 0.8, shade), ms=6)
        ax.plot(teth[-1, 0], teth[-1, 2], "o", color=(0.85, 0.4, 0.0, shade), ms=6)
    ax.axhline(0.0, color="0.6", lw=0.8, ls="--")
    ax.plot([-14.0, 14.0], [0.0, 0.0], color="0.2", lw=4, solid_capstyle="butt")
    ax.annotate("vessel", (0.0, 1.0), ha="center", fontsize=8)
    ax.annotate("TMS", (shapes[-1][1][-1, 0] + 2.0, shapes[-1][1][-1, 2]), fontsize=8)
    ax.annotate("ROV", (shapes[-1][2][-1, 0] + 2.0, shapes[-1][2][-1, 2]), fontsize=8)
    ax.set_xlabel("x [m]")
    ax.set_ylabel("z [m]")
    ax.set_title("umbilical (blue) and tether (orange), light to dark in time", fontsize=9)
    ax.set_aspect("equal", adjustable="datalim")
    ax.legend(fontsize=7, loc="lower left")
    t = result["t"]
    ax = fig.add_subplot(grid[0, 1])
    ax.plot(t, np.linalg.norm(result["force"], axis=1) / 1e3, "k", label="at the vessel (A-frame)")
    ax.plot(t, result["umbilical_tms"] / 1e3, color="tab:blue", label="umbilical at the TMS")
    ax.set_ylabel("tension [kN]")
    ax2 = ax.twinx()
    ax2.plot(t, result["tether_tms"], color="tab:orange", lw=0.9, label="tether at the TMS")
    ax2.set_ylabel("tether tension [N]", color="tab:orange")
    lines = ax.get_legend_handles_labels()
    lines2 = ax2.get_legend_handles_labels()
    ax.legend(lines[0] + lines2[0], lines[1] + lines2[1], fontsize=7, loc="upper left")
    ax = fig.add_subplot(grid[1, 1])
    ax.plot(t, result["heave"], label="vessel heave [m]")
    ax.plot(t, np.degrees(result["pitch"]), label="vessel pitch [deg]")
    ax.plot(t, result["tms"][:, 2] - result["tms"][0, 2], label="TMS heave [m]")
    ax.set_xlabel("time [s]")
    ax.legend(fontsize=7, loc="upper left")
    fig.suptitle("ROV, TMS and umbilical from a vessel in 2.5 m, 9 s waves "
                 "(tetherdyn system step API)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return Path(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=60.0, help="simulated time [s]")
    parser.add_argument("--plot", default="vessel_tms_rov.png", help="figure path")
    args = parser.parse_args(argv)
    result = run(args.duration)
    top = np.linalg.norm(result["force"], axis=1)
    print(f"tension at the A-frame {top.min() / 1e3:.2f} to {top.max() / 1e3:.2f} kN "
          f"(wet weight below it {wet_weight(result['simulator'].case) / 1e3:.2f} kN); "
          f"at the TMS {result['umbilical_tms'].min() / 1e3:.2f} to "
          f"{result['umbilical_tms'].max() / 1e3:.2f} kN; tether at the TMS up to "
          f"{result['tether_tms'].max():.0f} N")
    print(f"wrote {plot(result, args.plot)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
