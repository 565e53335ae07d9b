"""Drag-law validation checks (validation/drag.py), reduced versions.

A straight free cable sinking through still water must reach the terminal velocity its drag
law predicts; a towed cable must take the steady profile of the continuous cable equations.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize

from tetherdyn.hydro import loading_function_normal, loading_function_tangential
from validation import drag

# Terminal-velocity rows: the simulation differs from the reference only by the RK4 error
# ((dt/tau)^4 ~ 1e-9) and the transient left at the measuring instant (< 1e-8), so 1e-4
# relative is ~100x above what is expected and still ~1000x below any modelling slip
# (buoyancy, added mass in the weight, lumping factor, diameter vs perimeter: percents).
REL = 1e-4


def test_broadside_terminal_velocity():
    row = drag.check_broadside(full=False)
    v = row.values
    assert row.passed, row.details
    assert v["expected"] == pytest.approx(0.9212904, rel=1e-6)  # sqrt(2 w' / (rho Cd d))
    assert v["speed"] == pytest.approx(v["expected"], rel=REL)
    # added mass changes the transient only, not the terminal speed
    assert v["speed_no_added_mass"] == pytest.approx(v["expected"], rel=REL)
    # the whole transient follows v_T tanh(a0 t / v_T): same error budget as the end value
    assert v["transient_error"] < REL
    # broadside fall stays broadside and straight (rigid translation)
    assert v["horizontal_speed"] < REL * v["expected"]
    assert v["straightness"] < drag.STRAIGHTNESS


def test_inclined_terminal_velocity():
    row = drag.check_inclined(full=False)
    v = row.values
    assert row.passed, row.details
    # both components, each to the relative budget of the vector (see REL)
    scale = math.hypot(v["vx_expected"], v["vz_expected"])
    assert abs(v["vx"] - v["vx_expected"]) < REL * scale
    assert abs(v["vz"] - v["vz_expected"]) < REL * scale
    # the glide is not vertical: the cable slides towards its lower end (-x for +30 deg)
    assert v["vx"] < -0.5 * abs(v["vz"])
    assert v["transient_error"] < REL
    assert v["straightness"] < drag.STRAIGHTNESS


def test_loading_functions_terminal_velocity():
    row = drag.check_loading_functions(full=False)
    v = row.values
    assert row.passed, row.details
    # broadside: f_p(pi/2) = 1, so the cross-flow speed with cd_normal
    assert v["speed_broadside"] == pytest.approx(v["expected_broadside"], rel=REL)
    assert v["expected_broadside"] == pytest.approx(0.9212904, rel=1e-6)
    assert v["speed_inclined"] == pytest.approx(v["expected_inclined"], rel=REL)
    scale = math.hypot(v["vx_expected"], v["vz_expected"])
    assert abs(v["vx"] - v["vx_expected"]) < REL * scale
    assert abs(v["vz"] - v["vz_expected"]) < REL * scale
    # steady, not a transient passing by: change over the last second
    assert v["drift"] < REL
    # near-axial glide: small incidence, much faster than broadside
    assert 0.05 < v["eta"] < 0.3
    assert v["speed_inclined"] > 3.0 * v["speed_broadside"]


def test_loading_functions_reference_is_a_force_balance():
    """The reduced 1-D root agrees with a direct 2-D solve of drag + net weight = 0."""
    beta = math.radians(drag.BETA_DEG)
    ref = drag.loading_functions_steady(beta)
    w = drag.net_weight_per_length()
    t = np.array([math.cos(beta), math.sin(beta)])

    def residual(vel):
        # seed 004 eq. (2.12) written out again in the x-z plane, plus the net weight
        ut = float(vel @ t)
        un_vec = vel - ut * t
        un = float(np.linalg.norm(un_vec))
        eta = math.atan2(un, abs(ut))
        p = 0.5 * drag.FLUID_DENSITY * drag.DIAMETER * drag.CD_NORMAL * float(vel @ vel)
        f = -p * loading_function_normal(eta) * un_vec / un
        f -= p * loading_function_tangential(eta) * math.copysign(1.0, ut) * t
        return (f + np.array([0.0, -w])) / w

    sol, info, ier, msg = optimize.fsolve(residual, np.array([-3.0, -3.0]), full_output=True,
                                          xtol=1e-13)
    assert ier == 1, msg
    # both are solutions of the same smooth equations to round-off: 1e-9 relative
    assert np.allclose(sol, ref["velocity"], rtol=1e-9, atol=1e-9)
    assert np.max(np.abs(residual(ref["velocity"]))) < 1e-12


def test_towed_cable_profile():
    row = drag.check_towed(full=False)
    v = row.values
    assert row.passed, row.details
    # 8 elements: the midpoint-rule lumping error ~ 1/N^2 is 1.2e-3 L (end point) and 2.3e-3
    # |F| (towing force); full mode shows it falls at order 2.00-2.03 and that the Richardson
    # extrapolation meets the reference to 1e-6. Tolerances = observed x ~1.7.
    assert v["end_error"] < 2e-3
    assert v["force_error"] < 4e-3
    assert abs(v["end_x"] - v["end_x_expected"]) < 2e-3 * drag.LENGTH
    assert abs(v["end_z"] - v["end_z_expected"]) < 2e-3 * drag.LENGTH
    f_scale = math.hypot(v["force_x_expected"], v["force_z_expected"])
    assert abs(v["force_x"] - v["force_x_expected"]) < 4e-3 * f_scale
    assert abs(v["force_z"] - v["force_z_expected"]) < 4e-3 * f_scale
    # steady: the whole cable moves with the towpoint, the profile no longer changes
    assert v["speed"] == pytest.approx(v["expected"], abs=1e-6)
    assert v["drift"] < 1e-6


def test_towed_reference_limits():
    """The end of the reference profile lies along the end mass's weight/drag resultant."""
    ref = drag.towed_cable_reference(n_points=401)
    x, z = ref["x"], ref["z"]
    # second-order one-sided difference for the end tangent
    dx, dz = 3 * x[-1] - 4 * x[-2] + x[-3], 3 * z[-1] - 4 * z[-2] + z[-3]
    drag_force = 0.5 * drag.FLUID_DENSITY * drag.TOW_DRAG_AREA * drag.TOW_SPEED**2
    expected = math.atan2(drag.TOW_END_MASS * drag.G, drag_force)
    # its error ~ ds^2 kappa'/3 with ds = L/400 and curvature ~0.4/m: ~1e-5 rad
    assert math.atan2(-dz, -dx) == pytest.approx(expected, abs=1e-4)
    # neutrally buoyant cable: the towpoint carries the end mass's weight less the upward
    # part of the normal drag on the cable trailing down behind it (hydrodynamic lift), and
    # the end mass's drag plus the cable's
    assert -drag.TOW_END_MASS * drag.G < ref["force"][1] < 0.0
    assert ref["force"][0] < -drag_force


def test_figure_written(tmp_path):
    row = drag.check_broadside(full=False, figure_dir=tmp_path)
    assert row.figure == "terminal_velocity_broadside.png"
    assert (tmp_path / row.figure).stat().st_size > 10_000
