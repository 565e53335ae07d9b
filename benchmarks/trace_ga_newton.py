"""Why generalized-α rejects steps and refreshes Jacobians on a case (issue 22).

A Python copy of ``ga_chunk``'s fixed-step logic (integrate/implicit.py: the same
predictor, Newton iterations, convergence and divergence tests, Jacobian reuse rule, step
halving and landing on the output instants) that calls the model's compiled kernels and
the integrator's own compiled helpers, and records per step why a Jacobian was built and
why a step was rejected. Its totals (steps, rejections, Jacobians, Newton iterations)
are printed beside those of the compiled run of the same case, which it must reproduce.
Slow (Python per iteration): ``--until`` shortens the run.

    python benchmarks/trace_ga_newton.py src/tetherdyn/examples/rov_manoeuvre.yaml
        [--until 57] [--band-nodes N] [--slow-rate 0.5] [--rebuilds 1] [--backtracks 6]
        [--max-iter 15] [--examples 12]

``--band-nodes`` (higher_order only) widens the Jacobian's band; ``--slow-rate`` changes
the contraction rate above which a Jacobian is refreshed, ``--rebuilds`` how often per
solve the solve's own Jacobian is rebuilt at the iterate, ``--backtracks`` the line
search's halvings, ``--max-iter`` the iterations besides them: what-ifs, not the code's
settings (the compiled run is printed beside the replica only with the code's).
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter

import numpy as np
from _common import versions  # noqa: F401  (puts the checkout's root on the path)

from tetherdyn import load_case
from tetherdyn._jit import _clone
from tetherdyn.integrate import implicit as ga
from tetherdyn.integrate import integrate, output_times
from tetherdyn.integrate.stepper import GeneralizedAlphaStepper, StepperOptions
from tetherdyn.models import build_model


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("case")
    p.add_argument("--until", type=float, default=None, help="simulated seconds")
    p.add_argument("--band-nodes", type=int, default=None)
    p.add_argument("--slow-rate", type=float, default=ga.SLOW_RATE)
    p.add_argument("--rebuilds", type=int, default=ga.JAC_REBUILDS)
    p.add_argument("--backtracks", type=int, default=ga.NEWTON_BACKTRACKS)
    p.add_argument("--max-iter", type=int, default=ga.NEWTON_MAX_ITER)
    p.add_argument("--examples", type=int, default=12, help="rejected steps to print")
    a = p.parse_args(argv)
    case = load_case(a.case)
    s = case.solver
    if s.adaptive:
        raise SystemExit("a fixed-step case only (solver.adaptive: false)")
    until = s.duration if a.until is None else min(a.until, s.duration)
    model = build_model(case)
    opts = StepperOptions(dt=s.dt, rtol=s.rtol, atol=s.atol, max_steps=10**9, alpha=None,
                          adaptive=None)
    st = GeneralizedAlphaStepper(model, None, model.initial_state(), 0.0, opts)
    st.compile(np.empty((0, st.y.size)))  # a(0) from rhs, as the run takes it
    ws, data = st._ws, st.data.args
    g = {r: getattr(model, r) for r in ga.KERNEL_ROLES}
    g["_trial"] = trial = _clone(ga._trial, g, "trial")
    jacobian = _clone(ga._jacobian, g, "jacobian")
    params, held, state = ws.params, ws.held, ws.state
    band, Mb, W, piv = ws.band, ws.Mb, ws.W, ws.piv
    if a.band_nodes is not None:
        band = 3 * a.band_nodes + 2
        Mb = np.zeros((band + 1, ws.a.size))
        W = np.zeros((ws.a.size, 3 * band + 1))
    L = ga.LineJacobian(band, held, Mb, W, piv)
    y, A, an, y1, ya = st.y, ws.a, ws.an, ws.y1, ws.ya
    F, Fp, ap, r = ws.F, ws.Fp, ws.ap, ws.r
    free = held == 0
    jac_why, rejects, iters, examples = Counter(), Counter(), Counter(), []
    events = Counter()
    rates = {True: [], False: []}  # contraction rates with a fresh / a reused Jacobian

    def newton(t: float, h: float) -> tuple[str | None, list]:
        am = params[ga.P_AM]
        ta = t + (1.0 - params[ga.P_AF]) * h
        an[:] = A
        model.held_acc(t + h, y, an, data)
        hj = state[ga.S_HJAC]
        need = hj <= 0.0 or h > ga.JAC_H_RATIO * hj or h * ga.JAC_H_RATIO < hj
        why = "after a rejection (or the first)" if hj <= 0.0 else "step size changed"
        fresh, rebuilds, backtracks, lam, e_prev, log = False, 0, 0, 1.0, 0.0, []
        for _ in range(a.max_iter + a.backtracks):
            trial(data, t + h, h, params, L, y, A, an, y1, ya)
            model.force(ta, ya, F, data)
            model.mass(ta, ya, Mb, data)
            state[ga.S_EVALS] += 1
            resid = ga._balance(Mb, band, held, am, A, an, F, r)
            if not math.isfinite(resid):
                return "non-finite residual", log
            if need:
                state[ga.S_EVALS] += 2 * band + 1
                state[ga.S_JACS] += 1
                jac_why[why] += 1
                if jacobian(data, t, h, params, L, y, A, an, F, y1, ya, ap, Fp) >= 0:
                    state[ga.S_HJAC] = 0.0
                    return "zero pivot", log
                need, fresh, e_prev = False, True, 0.0
                state[ga.S_HJAC] = h
                log.append("J")
            r[:] = -r
            ga.band_solve(W, band, piv, r)
            state[ga.S_ITERS] += 1
            e = ga._increment_norm(h, params, L, y1, r)
            log.append(float(f"{e:.3g}"))
            if not math.isfinite(e):
                return "non-finite increment", log
            if e_prev > 0.0:
                theta = e / e_prev
                rates[fresh].append(theta)
                if theta > a.slow_rate and (not fresh or rebuilds < a.rebuilds):
                    if fresh:
                        rebuilds += 1
                        why = ("diverging with this solve's Jacobian: rebuilt at the "
                               "iterate (theta >= 1)" if theta >= 1.0 else
                               "slow contraction with this solve's Jacobian: rebuilt at "
                               "the iterate (theta > slow rate)")
                    else:
                        why = "slow contraction with a reused Jacobian (theta > slow rate)"
                    if theta < 1.0 or not fresh:
                        an[free] += r[free]
                    need, e_prev = True, 0.0
                    continue
                if theta >= 1.0:
                    if backtracks == a.backtracks:
                        return "diverging after the rebuilds and line search", log
                    backtracks += 1
                    events["line-search halvings"] += 1
                    an[free] -= 0.5 * lam * ap[free]
                    lam *= 0.5
                    log.append("/2")
                    continue
                done = theta / (1.0 - theta) * e <= ga.NEWTON_TOL
            else:
                done = e <= ga.NEWTON_TOL
            an[free] += r[free]
            ap[:] = r
            lam = 1.0
            if done or e <= 1e-3 * ga.NEWTON_TOL:
                trial(data, t + h, h, params, L, y, A, an, y1, ya)
                return None, log
            e_prev = e
        return (f"{a.max_iter + a.backtracks} iterations without "
                "convergence"), log

    dt = params[ga.P_DT]
    h, t, steps = dt, 0.0, 0
    times = output_times(s.duration, s.output_interval)
    w0 = time.perf_counter()
    for t_target in times[1:]:
        if t_target > until + 1e-12:
            break
        while t < t_target:
            hs = h
            last = t + 1.01 * hs >= t_target
            if last:
                hs = t_target - t
            why, log = newton(t, hs)
            if why is not None:
                state[ga.S_REJECTS] += 1
                rejects[why] += 1
                if len(examples) < a.examples:
                    examples.append(f"t = {t:.4f} s, h = {hs:.5g} s: {why}; scaled Newton "
                                    f"increments {log}")
                h = 0.5 * hs
                state[ga.S_HJAC] = 0.0
                continue
            t = t_target if last else t + hs
            y[:] = y1
            A[:] = an
            steps += 1
            iters[sum(1 for x in log if not isinstance(x, str))] += 1
            h = min(dt, 2.0 * hs)
    wall = time.perf_counter() - w0
    print(f"case {a.case}, until t = {t:g} s; band {band}, slow rate {a.slow_rate}, rebuilds "
          f"{a.rebuilds}, halvings {a.backtracks}, iterations {a.max_iter} "
          f"({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {wall:.0f} s)")
    print(f"replica: steps {steps}, rejected {int(state[ga.S_REJECTS])}, Jacobians "
          f"{int(state[ga.S_JACS])}, Newton iterations {int(state[ga.S_ITERS])}, force "
          f"evaluations {int(state[ga.S_EVALS])}")
    if (a.band_nodes is None and a.slow_rate == ga.SLOW_RATE and a.rebuilds == ga.JAC_REBUILDS
            and a.backtracks == ga.NEWTON_BACKTRACKS and a.max_iter == ga.NEWTON_MAX_ITER):
        res = integrate(build_model(case), "generalized_alpha", s.dt, t, s.output_interval,
                        rtol=s.rtol, atol=s.atol)
        st2 = res.stats
        print(f"compiled run to t = {t:g} s: steps {st2['steps']}, rejected "
              f"{st2['rejected_steps']}, Jacobians {st2['jacobians']}, Newton iterations "
              f"{st2['newton_iterations']}, force evaluations {st2['force_evaluations']}")
    print("rejected steps:", dict(rejects))
    print("Jacobians built:", dict(jac_why))
    print("line search:", dict(events))
    print("Newton iterations per accepted step:", dict(sorted(iters.items())))
    for fresh in (True, False):
        q = np.quantile(rates[fresh], [0.1, 0.5, 0.9, 0.99]) if rates[fresh] else []
        print(f"contraction rate theta with a {'fresh' if fresh else 'reused'} Jacobian "
              f"({len(rates[fresh])}): 10/50/90/99 % quantiles {np.round(q, 3).tolist()}")
    print("first rejected steps:")
    for line in examples:
        print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
