"""Generalized-α for systems (integrate/implicit_system.py; docs/systems.md, "Generalized-α").

Physics against what nobody here wrote: the clump weight between two chains of
test_system.py settles, at a step 12x the explicit limit with ρ∞ = 0.5, where the two
closed-form elastic catenaries (Irvine 1981) balance its submerged weight; with ρ∞ = 1 an
undamped system in vacuum holds its energy to O(dt²) (Chung & Hulbert 1993: second order,
no numerical dissipation). Self: the same system, pulled by a coupled point, against rk4
at a small step, converging at second order. Then the refusals. One kernel set (the
system's; generalized-α's chunk compiled once: ~39 s of CPU cold, measured).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import fsolve

from tetherdyn.analytic import elastic_catenary
from tetherdyn.case import CaseError
from tetherdyn.models.system_model import build_system
from tetherdyn.system_case import load_system
from tetherdyn.system_run import run_system

pytestmark = pytest.mark.filterwarnings("ignore::tetherdyn.case.CaseWarning")

RHO, G, D, MPL, EA = 1025.0, 9.81, 0.05, 8.0, 5e6
CHAIN = {"diameter": D, "mass_per_length": MPL, "EA": EA, "axial_damping": 5e3,
         "cd_normal": 1.2}
CLUMP = {"type": "free", "position": [14.0, 0.0, -12.0], "mass": 400.0, "volume": 0.02,
         "drag_area": 20.0, "ca": 1.0}


def two_lines(tether: dict, b: dict, c: dict, solver: dict, lengths=(20.0, 18.0),
              elements=(20, 20), environment: dict | None = None) -> dict:
    """Line L1 from the fixed point A at the origin to point B, line L2 from B to C."""
    case = {
        "line_types": {"chain": tether},
        "lines": {f"L{k + 1}": {"line_type": "chain", "length": lengths[k],
                                "model": {"type": "lumped_mass", "elements": elements[k]},
                                "start": {"point": "AB"[k]}, "end": {"point": "BC"[k]}}
                  for k in range(2)},
        "points": {"A": {"type": "fixed", "position": [0.0, 0.0, 0.0]}, "B": b, "C": c},
        "solver": solver,
    }
    if environment:
        case["environment"] = environment
    return case


def test_clump_settles_at_the_two_catenaries_with_a_step_beyond_the_explicit_limit():
    """test_system.py's clump (400 kg, 0.02 m³) between chains of 20 and 18 m in water,
    generalized-α with ρ∞ = 0.5 at dt = 0.02 s, 12x the rk4 limit (the rk4 test steps
    4e-4 s): settles where the elastic catenaries meet (H equal, V_B1 + V_A2 = W), within
    the same 1e-3 m as rk4 (the discretisation; measured 1.5e-5 m, 1.2e-4 m)."""
    L1, L2, M, V = 20.0, 18.0, 400.0, 0.02
    C = (30.0, 0.0, -5.0)
    w = (MPL - RHO * math.pi * D * D / 4) * G  # submerged weight per metre [N/m]
    W = (M - RHO * V) * G

    def residual(p):
        c1 = elastic_catenary(p[0], p[1], L1, w, EA)
        c2 = elastic_catenary(C[0] - p[0], C[2] - p[1], L2, w, EA)
        return [c2.H - c1.H, -c1.V_B - c2.V_A - W]

    x, z = fsolve(residual, [15.0, -15.0], xtol=1e-12)
    c1 = elastic_catenary(x, z, L1, w, EA)
    dt = 0.02
    case = two_lines(CHAIN, CLUMP, {"type": "fixed", "position": list(C)},
                     {"method": "generalized_alpha", "rho_inf": 0.5, "dt": dt,
                      "duration": 60.0, "output_interval": 0.2},
                     environment={"fluid_density": RHO})
    assert dt > 10.0 * build_system(load_system(case)).critical_time_step()[0]
    res = run_system(case, progress=False)
    assert res.attrs["method"] == "generalized_alpha"
    late = slice(-50, None)
    p = res.points["B"]["position"][1][late].mean(axis=0)
    assert abs(p[0] - x) < 1e-3 and abs(p[2] - z) < 1e-3 and p[1] == 0.0
    f = res.points["B"]["force"][1][late].mean(axis=0)
    assert f[2] == pytest.approx(W, rel=1e-3)
    assert abs(f[0]) < 1e-3 * W
    f1 = res.lines["L1"].data_vars["end_force"][1][late].mean(axis=0)
    assert f1[0] == pytest.approx(-c1.H, rel=2e-3)
    assert f1[2] == pytest.approx(-c1.V_B, rel=2e-3)


def total_energy(res) -> tuple[np.ndarray, np.ndarray]:
    """(kinetic, kinetic + potential) [J] of the lines and the free points."""
    ke = sum(t.data_vars["kinetic_energy"][1] for t in res.lines.values())
    pe = sum(t.data_vars["potential_energy"][1] for t in res.lines.values())
    for v in res.points.values():
        if "kinetic_energy" in v:
            ke = ke + v["kinetic_energy"][1]
            pe = pe + v["potential_energy"][1]
    return ke, ke + pe


def test_energy_error_is_second_order_without_numerical_damping():
    """test_system.py's undamped swing in vacuum (two linear-elastic lines, a 3 kg point;
    ~2 kJ exchanged) with ρ∞ = 1: generalized-α has no numerical dissipation and is
    second order, so max |E − E0| falls 4x when dt halves (measured 0.0078 and 0.0017 of
    the exchanged energy at 2.5 and 1.25 ms: 4.65)."""
    err = []
    for dt in (2.5e-3, 1.25e-3):
        case = two_lines({"diameter": 0.02, "mass_per_length": 1.0, "EA": 2e4,
                          "compression": True},
                         {"type": "free", "position": [6.0, 0.0, -7.0], "mass": 3.0},
                         {"type": "fixed", "position": [13.0, 0.0, -1.0]},
                         {"method": "generalized_alpha", "rho_inf": 1.0, "dt": dt,
                          "duration": 2.0, "output_interval": 0.05},
                         lengths=(10.0, 8.0), elements=(10, 8))
        ke, E = total_energy(run_system(case, progress=False))
        assert ke.max() > 1000.0
        err.append(np.abs(E - E[0]).max() / ke.max())
    assert err[1] < 2e-3
    assert 3.2 < err[0] / err[1] < 5.0


def test_a_coupled_point_pulling_the_clump_agrees_with_rk4_to_second_order():
    """Self: the clump system (10 elements per chain) from its equilibrium, its far end on
    a coupled point pulled 0.5 m in 1 s, generalized-α (ρ∞ = 0.9) against rk4 at 0.4 ms
    over 2 s: the clump's path and the tension at the coupled point converge at second
    order (measured at dt = 2 and 1 ms: 4.1e-6 and 1.0e-6 m, 4.2e-4 and 1.0e-4 of the peak
    tension)."""
    coupled = {"type": "coupled", "trajectory": {  # a Hermite ramp, at rest at both ends
        "t": [0.0, 1.0, 2.0], "x": [30.0, 30.5, 30.5], "y": [0.0, 0.0, 0.0],
        "z": [-5.0, -5.0, -5.0], "vx": [0.0, 0.0, 0.0], "vy": [0.0, 0.0, 0.0],
        "vz": [0.0, 0.0, 0.0]}}
    out = []
    for method, dt in (("rk4", 4e-4), ("generalized_alpha", 2e-3), ("generalized_alpha", 1e-3)):
        case = two_lines(CHAIN, CLUMP, coupled, {"method": method, "rho_inf": 0.9, "dt": dt,
                                                 "duration": 2.0, "output_interval": 0.1},
                         elements=(10, 10), environment={"fluid_density": RHO})
        case["initial"] = {"shape": "equilibrium"}
        res = run_system(case, progress=False)
        out.append((res.points["B"]["position"][1],
                    np.linalg.norm(res.lines["L2"].data_vars["end_force"][1], axis=1)))
    (p4, f4), *ga = out
    assert np.abs(p4 - p4[0]).max() > 0.3  # the pull moves the clump
    dp = [np.abs(p - p4).max() for p, _ in ga]
    df = [np.abs(f - f4).max() / f4.max() for _, f in ga]
    assert dp[0] < 2e-5 and df[0] < 2e-3
    assert 3.2 < dp[0] / dp[1] < 5.0 and 3.2 < df[0] / df[1] < 5.0


def test_the_step_api_drives_a_system_with_generalized_alpha():
    """Self: the step API (system_cosim.py) drives the coupled point C 0.5 m out in 1 s in
    100 host steps; generalized-α (dt = 2 ms) gives the force on C of rk4 at 0.4 ms within
    1e-3 of its peak (measured 2.6e-4)."""
    from tetherdyn.system_cosim import SystemSimulator

    coupled = {"type": "coupled", "trajectory": {"t": [0.0, 1.0], "x": [30.0, 30.0],
                                                 "y": [0.0, 0.0], "z": [-5.0, -5.0]}}
    forces = []
    for method, dt in (("rk4", 4e-4), ("generalized_alpha", 2e-3)):
        case = two_lines(CHAIN, CLUMP, coupled, {"method": method, "dt": dt, "duration": 1.0,
                                                 "output_interval": 0.01},
                         elements=(10, 10), environment={"fluid_density": RHO})
        case["initial"] = {"shape": "equilibrium"}
        sim = SystemSimulator(case)
        f = []
        for k in range(100):
            x = 30.0 + 0.25 * (1.0 - math.cos(math.pi * (k + 1) * 0.01))
            f.append(np.array(sim.step(0.01, points={"C": [x, 0.0, -5.0]})[1]["C"]))
        forces.append(np.array(f))
    f4, fa = forces
    assert np.abs(f4[-1] - f4[0]).max() > 500.0  # the drive changes the pull by > 0.5 kN
    assert np.abs(fa - f4).max() < 1e-3 * np.abs(f4).max()


@pytest.mark.parametrize(("change", "message"), [
    (lambda c: c["bodies"].update(F={"type": "free", "mass": 1.0, "volume": 0.001,
                                     "inertia": [1.0, 1.0, 1.0]}),
     "bodies.F is free"),
])
def test_generalized_alpha_refusals_name_the_key(change, message):
    case = two_lines(CHAIN, CLUMP, {"type": "fixed", "position": [30.0, 0.0, -5.0]},
                     {"method": "generalized_alpha", "dt": 0.01, "duration": 0.1})
    case["bodies"] = {}
    change(case)
    with pytest.raises(CaseError, match=message):
        load_system(case)
