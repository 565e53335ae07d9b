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
    # the arch in compression, Θ = 0.1814 rad (RK4 100/200/400 steps agree to 1e-8; 50 here)
    assert arch["theta"] == pytest.approx(0.18143, abs=1e-4)
    assert arch["t_min"] == pytest.approx(-0.0605, abs=1e-3)


def test_at_a_twisting_moment_step_5_allows_the_rods_through_the_ends_need_compression(
        monkeypatch):
    # M̂ = M L / EI = 0.9: |Θ| = 2.05 rad, between step 5's 1.27 rad and π
    monkeypatch.setattr(rov, "NSTEP", 50)
    rod = rov.rov_rod()
    t = rov.tensions_at(rod, 0.9, K=16, seed=7)
    assert t and max(t) < 0.0
