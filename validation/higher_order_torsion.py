"""Greenhill's twisted shaft: the torsion coupling of ``higher_order`` against a closed form.

A straight rod of length L, pinned at both ends (positions held, r'' = 0), its roll held at
the start and a torque T applied about the tangent at the end, loses its straight
equilibrium when the linearised stiffness becomes singular. For the Kirchhoff rod (the
continuum behind seed 004 eq. 4.13, whose torsion term [GJτ r'×r'']' this model
discretises) the critical torque with an axial tension P is

    (T / 2EI)² = (π / L)² + P / EI,      i.e. T_cr = 2πEI / L at P = 0   (Greenhill 1883).

The check builds the model's stiffness −∂F/∂q about the straight state from its own force
kernel (finite differences), finds the torque where its smallest eigenvalue crosses zero,
and compares with the closed form for N = 10, 20, 40 elements, without and with tension.
Nothing here is fitted: the torque enters only through the model's twist, GJτ = T.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from tetherdyn.case import load_case
from tetherdyn.models import build_model

from . import Row, register, save_figure

LENGTH = 10.0  # [m]
EI = 1.0  # [N m^2]
EA = 1.0e5  # [N]: nearly inextensible, so the axial modes stay far from singular


def _model(n_elements: int, torque: float, tension: float):
    stretch = LENGTH * (1.0 + tension / EA)
    case = {
        "tether": {"length": LENGTH, "diameter": 0.01, "mass_per_length": 1.0, "EA": EA,
                   "EI": EI, "GJ": 1.0, "compression": True},
        "model": {"type": "higher_order", "elements": n_elements},
        "environment": {"gravity": [0.0, 0.0, 0.0]},
        "start": {"type": "fixed", "position": [0.0, 0.0, 0.0], "roll_deg": 0.0},
        "end": {"type": "fixed", "position": [stretch, 0.0, 0.0], "torque": torque},
        "solver": {"method": "rk4", "dt": 1e-3, "duration": 1e-2},
    }
    return build_model(load_case(case))


def lowest_stiffness(n_elements: int, torque: float, tension: float = 0.0) -> float:
    """Smallest real part of the eigenvalues of −∂F/∂q [N/m] on the free coordinates of the
    straight rod under ``torque`` [N m] and ``tension`` [N]."""
    m = _model(n_elements, torque, tension)
    y0 = m.initial_state()
    m.enforce(0.0, y0, m.data)
    nq = m.n_q
    free = np.flatnonzero(m.held == 0)
    F0 = np.zeros(nq)
    m.force(0.0, y0, F0, m.data)
    K = np.empty((free.size, free.size))
    F = np.zeros(nq)
    h = 1e-7  # [m]: the forces are smooth; forward differences resolve 1e-6 of K
    for k, j in enumerate(free):
        y = y0.copy()
        y[j] += h
        m.force(0.0, y, F, m.data)
        K[:, k] = -(F[free] - F0[free]) / h
    return float(np.linalg.eigvals(K).real.min())


def critical_torque(n_elements: int, tension: float = 0.0) -> float:
    """The torque [N m] at which the straight rod's stiffness turns singular (bisection)."""
    lo, hi = 0.0, 2.0 * greenhill(tension)
    if lowest_stiffness(n_elements, hi, tension) >= 0.0:
        raise RuntimeError("no loss of stability below twice the closed-form torque")
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        if lowest_stiffness(n_elements, mid, tension) > 0.0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def greenhill(tension: float = 0.0) -> float:
    """Closed-form critical torque [N m] of the pinned rod: 2EI sqrt((π/L)² + P/EI)."""
    return 2.0 * EI * math.sqrt((math.pi / LENGTH) ** 2 + tension / EI)


@register("higher_order_greenhill", "analytic",
          "higher_order torsion: Greenhill's critical torque of a pinned rod", reference="analytic")
def check(full: bool = True, figure_dir: Path | None = None) -> Row:
    elements = (10, 20, 40) if full else (10, 20)
    tensions = (0.0, 0.2) if full else (0.0,)
    errors = {}
    for P in tensions:
        for n in elements:
            errors[(P, n)] = critical_torque(n, P) / greenhill(P) - 1.0
    # the discrete rod is stiffer than the continuum by O(L_u²): the error must fall at
    # second order, and the Richardson extrapolation of the two finest meshes must land on
    # the closed form (to 0.05 %, well inside the 0.2 % error of 40 elements)
    fine, coarse = elements[-1], elements[-2]
    order = {P: math.log2(errors[(P, coarse)] / errors[(P, fine)]) for P in tensions}
    richardson = {P: (4.0 * errors[(P, fine)] - errors[(P, coarse)]) / 3.0 for P in tensions}
    passed = (all(1.8 < o < 2.2 for o in order.values())
              and all(abs(r) < 5e-4 for r in richardson.values()))
    figure = None
    if figure_dir is not None:
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(5.5, 3.8))
        for P in tensions:
            ns = np.array(elements)
            ax.loglog(LENGTH / ns, [abs(errors[(P, n)]) for n in elements], "o-",
                      label=f"P = {P:g} N (T_cr = {greenhill(P):.4f} N m)")
        ax.set_xlabel("element length L_u [m]")
        ax.set_ylabel("|T_cr / Greenhill − 1|")
        ax.set_title("higher_order: critical torque of a pinned rod")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        figure = save_figure(fig, figure_dir, "higher_order_greenhill.png")
        plt.close(fig)
    listing = "; ".join(f"P = {P:g} N, N = {n}: {100 * e:+.3f} %" for (P, n), e in errors.items())
    listing += "; extrapolated: " + ", ".join(
        f"P = {P:g} N: {100 * r:+.4f} % (order {order[P]:.2f})" for P, r in richardson.items())
    return Row(
        name="higher_order: Greenhill critical torque (pinned rod, end torque)",
        tier="analytic",
        expected=f"T_cr = 2EI·sqrt((π/L)² + P/EI) = {greenhill(0.0):.4f} N·m at P = 0",
        ours=listing,
        tolerance="error falls at order 1.8–2.2; Richardson-extrapolated error < 0.05 %",
        passed=passed,
        details=("The torque where the model's own linearised stiffness (finite differences of "
                 "its force kernel about the straight rod, roll held at the start, torque at "
                 "the end, both ends pinned) becomes singular, against Greenhill's closed form "
                 "for the Kirchhoff rod. It checks the torsion term [GJτ r'×r'']' of seed 004 "
                 "eq. (4.13) and the uniform twist of eq. (4.34) independently of the seed's "
                 "own cases."),
        figure=figure,
        values={"errors": {f"{P}_{n}": e for (P, n), e in errors.items()}, "order": order,
                "richardson": richardson},
    )
