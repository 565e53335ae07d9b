"""Statics of systems with free bodies (issue 19; docs/systems.md "Statics",
system_statics.py): the decay period of a moored floating body against the linearised
stiffness from statics (ours and MoorPy's: peer), the body's own restoring in that
stiffness against Newman's closed form, a hanging body's balance of weight against its
lines' end forces, and the command line."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import yaml

from tetherdyn.statics import StaticsError
from tetherdyn.system_statics import body_stiffness, solve_system
from validation.system_bodies import swing


def test_moored_body_decay_period_against_statics_stiffness():
    """Reduced row system_body_decay (N = 80, 140 s): the surge period measured from zero
    crossings within 2 % (the issue's) of 2π/ω from K φ = ω² (M + A) φ with K from our
    statics and from MoorPy's lines' stiffness plus closed-form hydrostatics (measured
    0.18 % and 0.66 %); the body's own part of our K is Newman's ρ g A_wp, ρ g (I_wp + V
    z_b) − m g z_c to 1e-5 of its largest entry (measured 3e-6: differences of the
    residual)."""
    pytest.importorskip("moorpy")
    from validation.system_body_decay import check

    row = check(full=False)
    v = row.values
    assert v["crossings"] >= 3
    assert v["rel_K"] < 0.02
    assert v["rel_moorpy"] < 0.02
    assert v["own_rel"] < 1e-5
    assert row.passed


def hung(solver: dict | None = None) -> dict:
    """validation/system_bodies.swing's 20 kg body on three lines, in vacuum, at rest and
    level (its centre of gravity off the reference point: it tilts to balance)."""
    case = swing(solver or {"method": "rk4", "dt": 2e-4, "duration": 0.2,
                            "output_interval": 0.02})
    for key in ("velocity", "angular_velocity"):
        case["bodies"]["B"].pop(key)
    return case


def test_hung_body_balances_its_weight_and_stays_at_rest(tmp_path, capsys):
    """`tetherdyn statics` on a system with a free body: its pose and residual printed; the
    lines' end forces (their own outputs, not the residual's lumped nodal loads) hold the
    weight, m g within 1e-6 of it, and their moment about the centre of gravity is zero
    (d'Alembert, 1e-6 m g × 1 m); the written case, run with RK4 (self: our dynamics from
    our statics), keeps the body within 1e-6 m of it over 0.2 s, as does a run from
    ``initial: {shape: equilibrium}``."""
    import xarray as xr

    from tetherdyn.cli import main
    from tetherdyn.rigid_body import rotation_matrix
    from tetherdyn.system_case import load_system
    from tetherdyn.system_run import run_system

    path, shape, nc = tmp_path / "hung.yaml", tmp_path / "shape.yaml", tmp_path / "shape.nc"
    path.write_text(yaml.safe_dump(hung()))
    assert main(["statics", str(path), "-o", str(shape), "--results", str(nc)]) == 0
    out = capsys.readouterr().out
    assert "body  B" in out and "roll/pitch/yaw" in out and "residual" in out
    tree = xr.open_datatree(nc)
    assert tree.attrs["initial_shape"] == "equilibrium"
    eq = solve_system(hung())
    st, f6 = eq.bodies["B"], eq.body_forces["B"]
    w = -20.0 * eq.case.environment.gravity[2]
    assert np.abs(f6[:3] - [0.0, 0.0, w]).max() < 1e-6 * w
    lever = rotation_matrix(st[3:7]) @ np.array([0.05, 0.0, -0.1])
    assert np.abs(f6[3:] - np.cross(lever, f6[:3])).max() < 1e-6 * w
    assert abs(np.degrees(eq.roll_pitch_yaw("B"))).max() > 0.5  # it did tilt
    assert np.allclose(tree["bodies/B"]["position"].values[0], st[:3], atol=1e-12)
    res = run_system(load_system(shape), progress=False)
    drift = np.abs(res.bodies["B"]["position"][1] - st[:3]).max()
    assert drift < 1e-6
    # the same from initial: {shape: equilibrium} (system_run.py)
    res = run_system(hung() | {"initial": {"shape": "equilibrium"}}, progress=False)
    assert res.attrs["initial_shape"] == "equilibrium"
    assert np.abs(res.bodies["B"]["position"][1] - st[:3]).max() < 1e-6


def test_body_stiffness_and_a_body_without_equilibrium():
    """The stiffness of a fixed body is refused by name; a free body no line holds (it
    falls) has no equilibrium: StaticsError names it."""
    eq = solve_system(hung())
    K = body_stiffness(eq, "B", condense=False)
    assert K.shape == (6, 6) and K[2, 2] > 0.0
    with pytest.raises(ValueError, match="'A0' is not a free body"):
        body_stiffness(eq, "A0")
    bad = copy.deepcopy(hung())
    bad["bodies"]["C"] = {"type": "free", "position": [0, 0, -5], "mass": 1.0,
                          "inertia": [1, 1, 1]}
    with pytest.raises(StaticsError, match=r"bodies\.C: no static equilibrium found"):
        solve_system(bad, relax_steps=200)


def test_condensed_stiffness_is_the_re_settled_system_s():
    """(self: statics against statics, two ways) With a free point in the mooring (anchor
    A0 freed, held by a line from above), body_stiffness's static condensation equals
    MoorPy's definition of the coupled stiffness, the body held at a moved pose and the
    rest re-settled (central differences of the lines' force on the fixed body): the
    surge column within 1e-4 of its largest entry (measured 1e-5); without condensation
    it differs (the point held: K_xx 54 % larger)."""
    from tetherdyn.rigid_body import rpy_from_quaternion

    c = hung()
    a0 = c["points"]["A0"]["position"]
    c["points"]["A0"] = {"type": "free", "position": a0, "mass": 2.0}
    c["points"]["T"] = {"type": "fixed", "position": [1.25 * a0[0], 1.25 * a0[1], 1.0]}
    c["lines"]["LT"] = copy.deepcopy(c["lines"]["L0"]) | {
        "start": {"point": "T"}, "end": {"point": "A0"}, "length": 1.0}
    eq = solve_system(c, rtol=1e-9)
    K = body_stiffness(eq, "B", lines_only=True)
    st = eq.bodies["B"]
    rpy = list(np.degrees(rpy_from_quaternion(st[3:7])))

    def held(dx: float) -> np.ndarray:
        cc = copy.deepcopy(c)
        cc["bodies"]["B"] = {"type": "fixed", "position": list(st[:3] + [dx, 0.0, 0.0]),
                             "orientation_deg": rpy}
        return solve_system(cc, rtol=1e-9).body_forces["B"][:3]

    h = 1e-4
    direct = -(held(h) - held(-h)) / (2 * h)
    assert np.abs(K[:3, 0] - direct).max() < 1e-4 * np.abs(direct).max()
    K_held = body_stiffness(eq, "B", lines_only=True, condense=False)
    assert K_held[0, 0] > 1.3 * K[0, 0]
