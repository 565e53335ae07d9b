"""The lumped-mass step against a minimal allocation-free kernel of the same physics (issue 22).

The reference (written here, not in the package) is the smallest compiled right-hand side
we could write for bench_lumped_mass.py's cable: one pass over the elements reading
positions and velocities straight from the state, the previous element's nodal force
carried in registers (no scratch arrays, no per-node branches, no data tuple), a fixed
anchor at node 0 and a free end:

* ``vacuum``: Voigt elements (EA ε, bilinear: no compression, slack damping kept — the
  case defaults, seed 004 eqs. (2.10), (2.11), (2.17)) and the nodes' weight (eq. 2.13);
* ``water``: the same plus buoyancy, cross-flow drag at the element centre, half to each
  node (seed 004 eqs. (2.12), (2.16), hydro.element_drag's CROSS_FLOW law) and normal added
  mass ρ V C_a,n per element, half to each node, solved as a 3x3 system per node
  (eqs. (2.14)–(2.15)).

Before timing, the reference's dy/dt is compared with ``model.rhs`` at the same state
(their largest difference relative to the largest rate is printed: round-off only).

Timed: the best of many short repetitions (a machine shared with other work: the minimum
is the time the code needs when it has the core), the two codes interleaved:

* RHS: ``model.rhs`` called K times from a compiled loop (``_common.rhs_loop``, the call
  passes the model's data tuple) against the reference called K times the same way;
* RK4 step: K steps of tetherdyn's own time loop (``rk4_chunk`` bound to the model's
  kernels, what a run calls: enforce, remesh and the blow-up scan included) against the
  reference inside a minimal compiled RK4 loop (four stages, no checks).

Target (issue 22): tetherdyn within 1.5x of the reference at N = 40 and N = 160.

    python benchmarks/bench_lean_step.py [--n 40 160] [--seconds 1.0]
        [--out benchmarks/results_lean_step.md]
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import sys
import time
from pathlib import Path

import numpy as np
from _common import cpu_model, rhs_loop, versions
from bench_lumped_mass import DT, MEDIA, make_case
from numba import njit

import tetherdyn
from tetherdyn.models import build_model
from tetherdyn.models.nodes import ADDED_N, L0, MASS, VOLUME

HERE = Path(__file__).resolve().parent
TARGET = 1.5


@njit(cache=True)
def reference_rhs_vacuum(y, dydt, L0u, EA, C, w_over_m, inv_m, g):
    """dy/dt of the anchored cable in vacuum: one pass, nothing stored between elements."""
    n = L0u.size + 1
    v0 = 3 * n
    for k in range(v0):
        dydt[k] = y[v0 + k]
    px = py = pz = 0.0  # the previous element's force on the current node
    for e in range(n - 1):
        i = 3 * e
        dx = y[i + 3] - y[i]
        dy = y[i + 4] - y[i + 1]
        dz = y[i + 5] - y[i + 2]
        L = math.sqrt(dx * dx + dy * dy + dz * dz)
        inv_L = 1.0 / L
        qx = dx * inv_L
        qy = dy * inv_L
        qz = dz * inv_L
        inv_Lu = 1.0 / L0u[e]
        strain = (L - L0u[e]) * inv_Lu
        rate = ((y[v0 + i + 3] - y[v0 + i]) * qx + (y[v0 + i + 4] - y[v0 + i + 1]) * qy
                + (y[v0 + i + 5] - y[v0 + i + 2]) * qz) * inv_Lu
        T = (EA * strain if strain > 0.0 else 0.0) + C * rate
        fx = T * qx
        fy = T * qy
        fz = T * qz
        if e > 0:
            im = inv_m[e]
            dydt[v0 + i] = w_over_m[e] * g[0] + (px + fx) * im
            dydt[v0 + i + 1] = w_over_m[e] * g[1] + (py + fy) * im
            dydt[v0 + i + 2] = w_over_m[e] * g[2] + (pz + fz) * im
        px = -fx
        py = -fy
        pz = -fz
    i = 3 * (n - 1)
    im = inv_m[n - 1]
    dydt[v0 + i] = w_over_m[n - 1] * g[0] + px * im
    dydt[v0 + i + 1] = w_over_m[n - 1] * g[1] + py * im
    dydt[v0 + i + 2] = w_over_m[n - 1] * g[2] + pz * im
    dydt[v0] = dydt[v0 + 1] = dydt[v0 + 2] = 0.0  # the anchor


@njit(cache=True)
def reference_rhs_water(y, dydt, L0u, EA, C, weight, mass, added_n, rho, d, cdn, cdt, g):
    """dy/dt of the anchored cable in still water: drag and half the added mass of each
    element on its nodes, a 3x3 solve per node; one pass, the previous element in
    registers."""
    n = L0u.size + 1
    v0 = 3 * n
    for k in range(v0):
        dydt[k] = y[v0 + k]
    px = py = pz = 0.0  # the previous element's load on the current node
    pa = pqx = pqy = pqz = 0.0  # its half added mass and tangent
    for e in range(n):
        i = 3 * e
        if e < n - 1:
            dx = y[i + 3] - y[i]
            dy = y[i + 4] - y[i + 1]
            dz = y[i + 5] - y[i + 2]
            L = math.sqrt(dx * dx + dy * dy + dz * dz)
            inv_L = 1.0 / L
            qx = dx * inv_L
            qy = dy * inv_L
            qz = dz * inv_L
            inv_Lu = 1.0 / L0u[e]
            strain = (L - L0u[e]) * inv_Lu
            dvx = y[v0 + i + 3] - y[v0 + i]
            dvy = y[v0 + i + 4] - y[v0 + i + 1]
            dvz = y[v0 + i + 5] - y[v0 + i + 2]
            T = (EA * strain if strain > 0.0 else 0.0) + C * (dvx * qx + dvy * qy
                                                              + dvz * qz) * inv_Lu
            ux = 0.5 * (y[v0 + i] + y[v0 + i + 3])
            uy = 0.5 * (y[v0 + i + 1] + y[v0 + i + 4])
            uz = 0.5 * (y[v0 + i + 2] + y[v0 + i + 5])
            ut = ux * qx + uy * qy + uz * qz
            unx = ux - ut * qx
            uny = uy - ut * qy
            unz = uz - ut * qz
            fn = -0.5 * rho * cdn * d * L * math.sqrt(unx * unx + uny * uny + unz * unz)
            ft = -0.5 * rho * cdt * math.pi * d * L * abs(ut)
            fx = T * qx + 0.5 * (fn * unx + ft * ut * qx)
            fy = T * qy + 0.5 * (fn * uny + ft * ut * qy)
            fz = T * qz + 0.5 * (fn * unz + ft * ut * qz)
            gx = -T * qx + 0.5 * (fn * unx + ft * ut * qx)  # on the element's second node
            gy = -T * qy + 0.5 * (fn * uny + ft * ut * qy)
            gz = -T * qz + 0.5 * (fn * unz + ft * ut * qz)
            a = 0.5 * added_n[e]
        else:
            fx = fy = fz = gx = gy = gz = a = qx = qy = qz = 0.0
        if e > 0:
            Fx = weight[e] * g[0] + px + fx
            Fy = weight[e] * g[1] + py + fy
            Fz = weight[e] * g[2] + pz + fz
            # M = (m + a_prev + a) I - a_prev q_prev q_prev^T - a q q^T, solved by cofactors
            diag = mass[e] + pa + a
            m00 = diag - pa * pqx * pqx - a * qx * qx
            m11 = diag - pa * pqy * pqy - a * qy * qy
            m22 = diag - pa * pqz * pqz - a * qz * qz
            m01 = -pa * pqx * pqy - a * qx * qy
            m02 = -pa * pqx * pqz - a * qx * qz
            m12 = -pa * pqy * pqz - a * qy * qz
            c00 = m11 * m22 - m12 * m12
            c01 = m02 * m12 - m01 * m22
            c02 = m01 * m12 - m02 * m11
            inv_det = 1.0 / (m00 * c00 + m01 * c01 + m02 * c02)
            c11 = m00 * m22 - m02 * m02
            c12 = m01 * m02 - m00 * m12
            c22 = m00 * m11 - m01 * m01
            dydt[v0 + i] = (c00 * Fx + c01 * Fy + c02 * Fz) * inv_det
            dydt[v0 + i + 1] = (c01 * Fx + c11 * Fy + c12 * Fz) * inv_det
            dydt[v0 + i + 2] = (c02 * Fx + c12 * Fy + c22 * Fz) * inv_det
        px = gx
        py = gy
        pz = gz
        pa = a
        pqx = qx
        pqy = qy
        pqz = qz
    dydt[v0] = dydt[v0 + 1] = dydt[v0 + 2] = 0.0  # the anchor


@njit(cache=True)
def _rhs_loop_vacuum(k, y, dydt, L0u, EA, C, w_over_m, inv_m, g):
    for _ in range(k):
        reference_rhs_vacuum(y, dydt, L0u, EA, C, w_over_m, inv_m, g)


@njit(cache=True)
def _rhs_loop_water(k, y, dydt, L0u, EA, C, weight, mass, added_n, rho, d, cdn, cdt, g):
    for _ in range(k):
        reference_rhs_water(y, dydt, L0u, EA, C, weight, mass, added_n, rho, d, cdn, cdt, g)


@njit(cache=True)
def _rk4_vacuum(steps, dt, y, k1, k2, k3, k4, yt, L0u, EA, C, w_over_m, inv_m, g):
    """Classical RK4, nothing else: the reference step."""
    ny = y.size
    for _ in range(steps):
        reference_rhs_vacuum(y, k1, L0u, EA, C, w_over_m, inv_m, g)
        for i in range(ny):
            yt[i] = y[i] + 0.5 * dt * k1[i]
        reference_rhs_vacuum(yt, k2, L0u, EA, C, w_over_m, inv_m, g)
        for i in range(ny):
            yt[i] = y[i] + 0.5 * dt * k2[i]
        reference_rhs_vacuum(yt, k3, L0u, EA, C, w_over_m, inv_m, g)
        for i in range(ny):
            yt[i] = y[i] + dt * k3[i]
        reference_rhs_vacuum(yt, k4, L0u, EA, C, w_over_m, inv_m, g)
        for i in range(ny):
            y[i] += dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i])


@njit(cache=True)
def _rk4_water(steps, dt, y, k1, k2, k3, k4, yt, L0u, EA, C, weight, mass, added_n, rho, d,
               cdn, cdt, g):
    """Classical RK4, nothing else: the reference step (water)."""
    ny = y.size
    for _ in range(steps):
        reference_rhs_water(y, k1, L0u, EA, C, weight, mass, added_n, rho, d, cdn, cdt, g)
        for i in range(ny):
            yt[i] = y[i] + 0.5 * dt * k1[i]
        reference_rhs_water(yt, k2, L0u, EA, C, weight, mass, added_n, rho, d, cdn, cdt, g)
        for i in range(ny):
            yt[i] = y[i] + 0.5 * dt * k2[i]
        reference_rhs_water(yt, k3, L0u, EA, C, weight, mass, added_n, rho, d, cdn, cdt, g)
        for i in range(ny):
            yt[i] = y[i] + dt * k3[i]
        reference_rhs_water(yt, k4, L0u, EA, C, weight, mass, added_n, rho, d, cdn, cdt, g)
        for i in range(ny):
            y[i] += dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i])


def reference_args(model, medium: str) -> tuple:
    """The reference kernel's parameters, read from the model's own tables."""
    d = model.data
    elem, node, scal = d.elem, d.node, d.scal
    from tetherdyn.models.nodes import CD_N, CD_T, DAMPING, DIAMETER, EA, GX, GY, GZ, RHO

    L0u = np.ascontiguousarray(elem[:, L0])
    g = np.array([scal[GX], scal[GY], scal[GZ]])
    rho = scal[RHO]
    weight = node[:, MASS] - rho * node[:, VOLUME]
    if medium == "vacuum":
        return (L0u, scal[EA], scal[DAMPING], weight / node[:, MASS], 1.0 / node[:, MASS], g)
    return (L0u, scal[EA], scal[DAMPING], weight, np.ascontiguousarray(node[:, MASS]),
            np.ascontiguousarray(elem[:, ADDED_N]), rho, scal[DIAMETER], scal[CD_N],
            scal[CD_T], g)


def mid_run_state(n: int, medium: str) -> np.ndarray:
    """A taut, moving state: the cable 0.5 s after release (every branch live)."""
    ds = tetherdyn.simulate(make_case(n, medium, 0.5), progress=False)
    return np.concatenate([ds["position"].values[-1].ravel(), ds["velocity"].values[-1].ravel()])


def min_time(fn, k: int, seconds: float) -> float:
    """Best µs per unit of ``fn(k)`` over repetitions filling ``seconds`` (each one short:
    the minimum filters out the time other processes took the core)."""
    best = math.inf
    t_end = time.perf_counter() + seconds
    reps = 0
    while reps < 5 or time.perf_counter() < t_end:
        t0 = time.perf_counter()
        fn(k)
        best = min(best, time.perf_counter() - t0)
        reps += 1
    return 1e6 * best / k


def tetherdyn_steps(model, y0: np.ndarray):
    """fn(k): k RK4 steps of tetherdyn's own time loop (integrate/explicit.py's rk4_chunk
    bound to the model's kernels, as a run calls it: enforce, remesh and the blow-up scan
    included), from a copy of y0, one output at the end."""
    from tetherdyn.integrate.explicit import RK4Workspace

    ws = RK4Workspace(y0.size)
    data = model.data
    y = y0.copy()
    Y = np.empty((1, y0.size))

    def fn(k):
        y[:] = y0
        ws.run(model, data, 0.0, DT, 0, k, 1, y, Y)
        assert ws.state[0] == 0, "the benchmark cable blew up"
    return fn


def bench(n: int, medium: str, seconds: float) -> dict:
    """One row: agreement, then RHS and RK4-step timings of tetherdyn and the reference."""
    model = build_model(tetherdyn.load_case(make_case(n, medium, 1.0)))
    y = mid_run_state(n, medium)
    args = reference_args(model, medium)
    rhs_ref = reference_rhs_vacuum if medium == "vacuum" else reference_rhs_water
    loop_ref = _rhs_loop_vacuum if medium == "vacuum" else _rhs_loop_water
    rk4_ref = _rk4_vacuum if medium == "vacuum" else _rk4_water
    a = np.empty_like(y)
    b = np.empty_like(y)
    model.rhs(0.5, y, a, model.data)
    rhs_ref(y, b, *args)
    agree = float(np.abs(a - b).max() / np.abs(a).max())
    ws = [np.empty_like(y) for _ in range(5)]
    yy = y.copy()

    def ref_steps(k):
        yy[:] = y
        rk4_ref(k, DT, yy, *ws, *args)

    td_steps = tetherdyn_steps(model, y)
    k_rhs = max(1, 4000 // n)
    k_step = max(1, 1000 // n)
    # compile / load everything before timing
    loop_ref(1, y, b, *args)
    rhs_loop(model.rhs, model.data, 0.0, y, a, 1)
    ref_steps(1)
    td_steps(1)
    r = dict(N=n, medium=medium, agree=agree)
    for _ in range(2):  # interleaved, so that load from other processes hits both alike
        for key, fn, k in (
                ("td_rhs", lambda k: rhs_loop(model.rhs, model.data, 0.0, y, a, k), k_rhs),
                ("ref_rhs", lambda k: loop_ref(k, y, b, *args), k_rhs),
                ("td_step", td_steps, k_step), ("ref_step", ref_steps, k_step)):
            r[key] = min(r.get(key, math.inf), min_time(fn, k, seconds / 2))
    return r


def table(rows: list[dict]) -> str:
    lines = ["| medium | N | RHS tetherdyn µs | RHS reference µs | ratio | RK4 step tetherdyn µs "
             "| RK4 step reference µs | ratio | ≤ 1.5× (RHS / step) | agreement |",
             "|---|--:|--:|--:|--:|--:|--:|--:|---|--:|"]
    for r in rows:
        q1 = r["td_rhs"] / r["ref_rhs"]
        q2 = r["td_step"] / r["ref_step"]
        ok = "/".join("yes" if q <= TARGET else "no" for q in (q1, q2))
        lines.append(f"| {r['medium']} | {r['N']} | {r['td_rhs']:.3f} | {r['ref_rhs']:.3f} | "
                     f"{q1:.2f} | {r['td_step']:.3f} | {r['ref_step']:.3f} | {q2:.2f} | {ok} | "
                     f"{r['agree']:.1e} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, nargs="+", default=[40, 160])
    p.add_argument("--media", nargs="+", default=list(MEDIA), choices=list(MEDIA))
    p.add_argument("--seconds", type=float, default=1.0,
                   help="timing per quantity and code [s] (best of many short repetitions)")
    p.add_argument("--out", type=Path, default=None)
    args = p.parse_args(argv)
    argv = sys.argv[1:] if argv is None else argv
    load0 = os.getloadavg()[0]
    started = datetime.datetime.now(datetime.UTC)
    rows = []
    for medium in args.media:
        for n in args.n:
            rows.append(bench(n, medium, args.seconds))
            print(table(rows[-1:]).splitlines()[-1], flush=True)
    text = table(rows)
    print(text)
    if args.out is not None:
        cmd = "python benchmarks/bench_lean_step.py" + "".join(f" {a}" for a in argv)
        args.out.write_text("\n".join([
            "# The lumped-mass step against a minimal kernel (issue 22)", "",
            f"- Date: {started:%Y-%m-%d %H:%M} UTC; machine: {cpu_model()}, "
            f"{os.cpu_count()} cores, load average {load0:.2f} at the start",
            f"- Versions: {versions('numba', 'numpy')}",
            f"- Command: `{cmd}`",
            "- The cable of bench_lumped_mass.py (10 m, EA = 80 N, anchored, free end, "
            "dt = 1e-4 s). Reference: this script's one-pass kernels (module docstring). "
            "Ratio = tetherdyn / reference (≤ 1.5 asked). Agreement: largest |dy/dt| "
            "difference over the largest rate, at a mid-run state.", "",
            text, ""]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
