"""rov_manoeuvre.yaml (held roll, GJ = 0.11) at t = 0 as a continuum Kirchhoff rod
(validation/statics_rov.py, written from the rod equations, not from the model): the
equilibria a multistart finds all need compression (docs/statics.md, "No equilibrium",
the held roll). numpy only: no compiled kernels."""

from __future__ import annotations

import math

import numpy as np
import pytest

from validation import statics_rov as rov


def test_the_shooting_rod_without_force_is_a_helix_about_its_moment():
    # P = 0: m is constant and t precesses about it at |m| / EI (t' = m × t): a helix whose
    # axis is m, radius sin(a) / |m| and pitch per turn 2π cos(a) / |m| (a the angle from m
    # to t0) -- the closed form of the force-free Kirchhoff rod
    rod = rov.rov_rod()
    z = np.array([[0.0, 0.0, 0.0, 1.3, -0.4, 0.7]])
    y, tmin = rov.shoot(rod, z)
    m = 0.7 * rod.t0 + 1.3 * rod.p0 + (-0.4) * np.cross(rod.t0, rod.p0)
    k = float(np.linalg.norm(m))
    a = math.acos(float(rod.t0 @ m) / k)
    axial = math.cos(a)  # the end's advance along m̂ over s = 1
    assert float(y[0, 0:3] @ (m / k)) == pytest.approx(axial, abs=1e-8)
    # the moment is carried unchanged, the twisting moment along t is M̂
    assert np.allclose(y[0, 6:9], m, atol=1e-10)
    assert float(y[0, 6:9] @ y[0, 3:6]) == pytest.approx(0.7, abs=1e-10)
    assert tmin[0] == 0.0


def test_every_equilibrium_found_needs_compression_and_the_run_branch_has_only_the_arch(
        monkeypatch):
    monkeypatch.setattr(rov, "NSTEP", 50)  # RK4's error on the arch's Θ: ~2e-7 rad
    rod = rov.rov_rod()
    found = rov.equilibria(rod, K=24, seed=0)
    assert found
    assert all(o["t_min"] < 0.0 for o in found), [o["t_min"] for o in found]
    run_branch = [o for o in found if o["branch"] == 0]
    assert len(run_branch) == 1
    arch = run_branch[0]
    # the arch in compression, Θ = 0.1814 rad (RK4 with 100 and 400 steps: the same to 4
    # digits; 50 here)
    assert arch["theta"] == pytest.approx(0.18143, abs=1e-4)
    assert arch["t_min"] == pytest.approx(-0.0605, abs=1e-3)


def test_at_a_twisting_moment_step_5_allows_the_rods_through_the_ends_need_compression(
        monkeypatch):
    # M̂ = M L / EI = 0.9: |Θ| = 2.05 rad, between step 5's 1.27 rad and π
    monkeypatch.setattr(rov, "NSTEP", 50)
    rod = rov.rov_rod()
    t = rov.tensions_at(rod, 0.9, K=16, seed=7)
    assert t and max(t) < 0.0


def test_the_model_with_compression_finds_the_continuum_arch():
    # the one equilibrium on the run's branch, the arch in compression, found by the
    # higher_order model's statics with tether.compression: true (seed 004's discrete rod)
    # and by the continuum shooting: the same twist and the same force on the clamp,
    # within the model's discretisation (N = 20: 1.7e-4 rad and 0.5 %; N = 40: 4e-5 rad)
    import yaml

    from tetherdyn.case import _Loader, load_case
    from tetherdyn.models import build_model
    from tetherdyn.statics import solve

    rod = rov.rov_rod()
    z, res, tmin, th = rov.gauss_newton(
        rod, np.array([[-9.416, 1.677, 4.057, -0.118, -0.654, 0.0798]]), iters=15)
    assert res[0] < 1e-9
    raw = yaml.load(rov.EXAMPLE.read_text(), Loader=_Loader)  # noqa: S506 - the case reader's
    raw["initial"] = {"shape": "equilibrium"}
    raw["tether"]["compression"] = True
    model = build_model(load_case(raw, base_dir=rov.EXAMPLE.parent))
    eq = solve(model)
    F = np.empty(model.n_q)
    model.force(0.0, eq.y, F, model.data)
    assert float(model.data.tw[0]) == pytest.approx(float(th[0]), abs=1e-3)
    f0 = model.outputs(np.array([0.0]), eq.y[None, :])["start_force"][0]
    P = z[0, 0:3] * rod.force_unit  # the internal force: what the line pulls the clamp with
    assert np.linalg.norm(f0 - P) <= 0.01 * np.linalg.norm(P)
