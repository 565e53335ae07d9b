"""Systems: lumped-mass lines joined at points (issue 19, first part; docs/systems.md).

Physics against what nobody here wrote: a clump weight hung between two chains against the
closed-form equilibrium of two elastic catenaries (Irvine) meeting at the point; energy
held by a system in vacuum without damping. Then the case errors, the results file and
the CLI. All cases share the same compiled signatures (rk4, one data layout).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.optimize import fsolve

import tetherdyn
from tests.system_cases import line_on_free_point
from tetherdyn.analytic import elastic_catenary
from tetherdyn.case import CaseError
from tetherdyn.system_case import load_system
from tetherdyn.system_run import run_system

pytestmark = pytest.mark.filterwarnings("ignore::tetherdyn.case.CaseWarning")


def two_lines(tether: dict, b: dict, *, solver: dict, a=(0.0, 0.0, 0.0), c=(30.0, 0.0, -5.0),
              lengths=(20.0, 18.0), elements=(10, 10), environment: dict | None = None,
              bending=(False, False)) -> dict:
    """Line L1 from fixed point A to point B, line L2 from B to fixed point C."""
    case = {
        "line_types": {"chain": tether},
        "lines": {
            f"L{k + 1}": {"line_type": "chain", "length": lengths[k],
                          "model": {"type": "lumped_mass", "elements": elements[k],
                                    **({"bending": True} if bending[k] else {})},
                          "start": {"point": "AB"[k]}, "end": {"point": "BC"[k]}}
            for k in range(2)},
        "points": {"A": {"type": "fixed", "position": list(a)}, "B": b,
                   "C": {"type": "fixed", "position": list(c)}},
        "solver": solver,
    }
    if environment:
        case["environment"] = environment
    return case


def test_clump_weight_between_two_chains_settles_at_the_two_catenaries_equilibrium():
    """A 400 kg clump (0.02 m³) between two chains in water settles where the closed-form
    elastic catenaries (Irvine 1981; analytic.elastic_catenary) of the two chains, each
    ending at the point, balance its submerged weight: H equal, V_B1 + V_A2 = W."""
    rho, g, d, mpl, EA = 1025.0, 9.81, 0.05, 8.0, 5e6
    L1, L2, M, V = 20.0, 18.0, 400.0, 0.02
    C = (30.0, 0.0, -5.0)
    w = (mpl - rho * math.pi * d * d / 4) * g  # submerged weight per metre [N/m]
    W = (M - rho * V) * g

    def residual(p):
        c1 = elastic_catenary(p[0], p[1], L1, w, EA)
        c2 = elastic_catenary(C[0] - p[0], C[2] - p[1], L2, w, EA)
        return [c2.H - c1.H, -c1.V_B - c2.V_A - W]

    x, z = fsolve(residual, [15.0, -15.0], xtol=1e-12)
    c1 = elastic_catenary(x, z, L1, w, EA)
    case = two_lines(
        {"diameter": d, "mass_per_length": mpl, "EA": EA, "axial_damping": 5e3,
         "cd_normal": 1.2},
        {"type": "free", "position": [14.0, 0.0, -12.0], "mass": M, "volume": V,
         "drag_area": 20.0, "ca": 1.0},
        c=C, lengths=(L1, L2), elements=(20, 20), environment={"fluid_density": rho},
        solver={"method": "rk4", "dt": 4e-4, "duration": 60.0, "output_interval": 0.2})
    res = run_system(case, progress=False)
    # the last 10 s averaged: the chains' transverse modes, lightly damped by drag, still
    # ring at ±10 N on the point (measured)
    late = slice(-50, None)
    p = res.points["B"]["position"][1][late].mean(axis=0)
    # the lumped chain's discretisation (20 elements): measured 2.3e-4 m, 2.7e-5 m
    assert abs(p[0] - x) < 1e-3 and abs(p[2] - z) < 1e-3 and p[1] == 0.0
    # the lines' pull on the point balances its submerged weight; L1's share is H, V_B
    f = res.points["B"]["force"][1][late].mean(axis=0)
    assert f[2] == pytest.approx(W, rel=1e-3)
    assert abs(f[0]) < 1e-3 * W
    f1 = res.lines["L1"].data_vars["end_force"][1][late].mean(axis=0)
    assert f1[0] == pytest.approx(-c1.H, rel=2e-3)
    assert f1[2] == pytest.approx(-c1.V_B, rel=2e-3)


def test_energy_is_held_in_vacuum_without_damping():
    """Two linear-elastic lines (compression carried: no kink) and a 3 kg point swinging in
    vacuum, undamped: max |E − E0| < 1e-5 of the exchanged energy (max kinetic energy;
    the issue's criterion). Measured 1.8e-7 at dt = 2e-4 s (5.6e-9 at 1e-4: RK4's h⁴)."""
    case = two_lines(
        {"diameter": 0.02, "mass_per_length": 1.0, "EA": 2e4, "compression": True},
        {"type": "free", "position": [6.0, 0.0, -7.0], "mass": 3.0},
        c=(13.0, 0.0, -1.0), lengths=(10.0, 8.0), elements=(10, 8),
        solver={"method": "rk4", "dt": 2e-4, "duration": 2.0, "output_interval": 0.05})
    ke, E = run_system(case, progress=False).energies()
    assert ke.max() > 1000.0  # the swing exchanges ~2 kJ
    assert np.abs(E - E[0]).max() / ke.max() < 1e-5


def test_one_line_on_a_free_point_is_the_line_with_that_payload(tmp_path):
    """(self) A line from a fixed point to a free point body is the single-line case with
    that body as its free end's payload (mass, volume, drag area, ca), in water, with
    bending; the results file has the spec's groups and `tetherdyn run` writes it."""
    solver = {"method": "rk4", "dt": 1e-3, "duration": 1.0, "output_interval": 0.25}
    single, system = line_on_free_point({"type": "lumped_mass", "elements": 10,
                                         "bending": True}, solver)
    env = {"fluid_density": 1025.0}
    # calm water, then the sea (a surface above the line: buoyancy, drag and Froude-Krylov
    # inertia of the point by nodes.sea_body_load, as of the payload)
    for sea in ({}, {"water_level": 10.0, "current": [0.3, 0.0, 0.0]}):
        single["environment"] = system["environment"] = {**env, **sea}
        ds = tetherdyn.simulate(single, progress=False)
        res = run_system(system, progress=False)
        line = res.lines["1"].data_vars
        np.testing.assert_allclose(line["position"][1], ds.position.values, rtol=0, atol=1e-9)
        np.testing.assert_allclose(line["tension"][1], ds.tension.values, rtol=1e-9,
                                   atol=1e-6)
        np.testing.assert_allclose(res.points["A"]["force"][1], ds.start_force.values,
                                   rtol=1e-9, atol=1e-6)
        if not sea:  # (with the sea a single line's free-end end_force also holds its
            # body's own buoyancy, drag and fluid inertia: nodes.sea_body_load adds them to
            # the end node's load; the point's force is the line's pull alone)
            np.testing.assert_allclose(res.points["B"]["force"][1], ds.end_force.values,
                                       rtol=1e-9, atol=1e-6)
    # the file: groups per line and point, a line laid out as a single-line result
    import xarray as xr

    path = tmp_path / "system.nc"
    import yaml

    (tmp_path / "system.yaml").write_text(yaml.safe_dump(system))
    from tetherdyn.cli import main

    assert main(["run", str(tmp_path / "system.yaml"), "-o", str(path), "--quiet"]) == 0
    tree = xr.open_datatree(path)
    assert set(tree["lines"].children) == {"1"} and set(tree["points"].children) == {"A", "B"}
    got = tree["lines/1"].to_dataset()
    for name in ("arc_length", "position", "velocity", "tension", "start_force", "end_force",
                 "kinetic_energy", "potential_energy", "curvature"):
        assert name in got, name
    np.testing.assert_array_equal(got.tension.values, line["tension"][1])
    assert tree["points/B"].to_dataset().force.dims == ("time", "axis")
    assert tree.attrs["model"] == "system" and "lines:" in tree.attrs["case"]


@pytest.mark.parametrize("change, message", [
    ({"bodies": {"buoy": {"type": "fixed"}}}, "bodies.buoy: no line ends on this fixed body"),
    ({"lines.L1.end.point": "Q"}, "lines.L1.end.point: unknown point 'Q'"),
    ({"lines.L2.end.point": "B"}, "lines.L2.end.point: the line starts at 'B' too"),
    ({"lines.L1.line_type": "rope"}, "lines.L1.line_type: unknown line type 'rope'"),
    ({"line_types.chain.EA": -1.0}, "lines.L1.tether.EA: must be > 0"),
    ({"lines.L2.model.type": "rod_chain"}, "lines.L2.model.type: a system's lines are "
                                           "lumped_mass or higher_order"),
    ({"points.A.mass": 2.0}, "points.A.mass: only a free point has mass"),
    ({"points.D": {"type": "free", "position": [0, 0, -1]}},
     "points.D: a free point with no mass and no line"),
    ({"points.D": {"type": "fixed", "position": [0, 0, -1]}},
     "points.D: no line ends at this fixed point"),
    ({"points.C": {"type": "coupled"}}, "points.C.trajectory: required for a coupled point"),
    ({"points.B.ca": 1.0}, "points.B.ca: the added mass is ca rho volume"),
    ({"solver.method": "generalized_alpha", "lines.L2.model.type": "higher_order"},
     "lines.L2.model.type: generalized_alpha in a system takes lumped_mass lines only"),
    ({"lines.L1.start": {"point": "A", "where": 1}}, "lines.L1.start.where: unknown key"),
    ({"lines.L1.start": {}}, "lines.L1.start: give point: NAME or body: NAME"),
    ({"tether": {"length": 1.0}}, "tether: a system case gives each line's tether"),
])
def test_bad_system_input_names_the_key(change, message):
    from tetherdyn.case import set_key

    case = two_lines({"diameter": 0.02, "mass_per_length": 1.0, "EA": 2e4},
                     {"type": "free", "position": [6.0, 0.0, -7.0], "mass": 3.0},
                     solver={"dt": 1e-3, "duration": 1.0})
    for key, value in change.items():
        set_key(case, key, value)
    with pytest.raises(CaseError) as err:
        load_system(case)
    assert message in str(err.value)


def test_coupled_point_moves_the_line_ends_on_it():
    """A coupled point's trajectory is the prescribed end of every line on it: the point's
    results position follows the table, and its force is the sum of its lines' pulls."""
    case = two_lines({"diameter": 0.02, "mass_per_length": 1.0, "EA": 2e4},
                     {"type": "coupled",
                      "trajectory": {"t": [0.0, 1.0], "x": [6.0, 6.5], "y": [0.0, 0.0],
                                     "z": [-7.0, -7.0]}, "interpolation": "linear"},
                     c=(13.0, 0.0, -1.0), lengths=(10.0, 8.0), elements=(10, 8),
                     solver={"method": "rk4", "dt": 2e-4, "duration": 1.0,
                             "output_interval": 0.5})
    res = run_system(case, progress=False)
    np.testing.assert_allclose(res.points["B"]["position"][1][:, 0], [6.0, 6.25, 6.5],
                               atol=1e-12)
    f = res.lines["L1"].data_vars["end_force"][1] + res.lines["L2"].data_vars["start_force"][1]
    np.testing.assert_allclose(res.points["B"]["force"][1], f, rtol=0, atol=0)


def test_lines_joined_at_a_free_point_agree_with_moordyn():
    """MoorDyn 2.7.2 runs a two-chain deck with a 400 kg free point (no drag or added
    mass: both codes solve the same equations) from the same nodes with RK4 at the same
    dtM: every line's end tension within the issue's 2 % of its peak (measured 2e-11),
    the point's path to round-off (reduced: 0.5 s of the row's 3 s)."""
    pytest.importorskip("moordyn")
    from validation.moordyn_system import TOL, check_junction

    row = check_junction(full=False)
    v = row.values
    assert v["worst_rel"] < TOL
    assert v["motion"] > 1.0  # the point really moved (m): not a static test
    assert v["point_distance_max"] < 1e-6
    assert row.passed


def test_tetherdyn_run_takes_a_moordyn_deck_with_several_lines(tmp_path):
    """A deck with two lines joined at a free point runs as a system from the CLI (no
    --line): groups lines/1, lines/2 and points/1..3 (MoorDyn IDs); a pinned body (not
    built) is refused naming the section."""
    import xarray as xr

    from tetherdyn.cli import main
    from tetherdyn.moordyn_input import moordyn_to_system
    from validation.moordyn_system import JUNCTION_DECK

    deck = tmp_path / "junction.dat"
    deck.write_text(JUNCTION_DECK)
    out = tmp_path / "junction.nc"
    assert main(["run", str(deck), "--duration", "0.02", "-o", str(out), "--quiet"]) == 0
    tree = xr.open_datatree(out)
    assert set(tree["lines"].children) == {"1", "2"}
    assert set(tree["points"].children) == {"1", "2", "3"}
    assert tree["lines/2"].attrs["start_point"] == "2"
    np.testing.assert_array_equal(tree["points/2"].to_dataset().position.values[0],
                                  [14.0, 3.0, -34.0])
    bodies = JUNCTION_DECK.replace(
        "---------------------- LINES", "---------------------- BODIES ---\n"
        "ID Attachment X0 Y0 Z0 r0 p0 y0 Mass CG* I* Volume CdA* Ca\n"
        "(#) (-) (m) (m) (m) (deg) (deg) (deg) (kg) (m) (kg-m^2) (m^3) (m^2) (-)\n"
        "1 CoupledPinned 0 0 -30 0 0 0 10 0 1 0.01 0.5 1\n"
        "---------------------- LINES")
    deck.write_text(bodies)
    with pytest.raises(CaseError, match="BODIES"):
        load_system(moordyn_to_system(deck, duration=0.02))


def test_moordyn_tripod_deck_with_the_same_equations_agrees_with_moordyn(tmp_path):
    """MoorDyn's tests/Mooring/tripod.txt (11 lines, 9 massless free points) with the float
    lowered 1 m under the surface, the seabed moved to 40 m and no bending, drag or added
    mass (where the codes' models differ: validation/moordyn_system.py), both from
    MoorDyn's nodes at dtM/2: every line's end tension within the issue's 2 % of its peak
    (measured 2.6e-9 over 0.3 s), the free points' paths to round-off (0.1 s here)."""
    pytest.importorskip("moordyn")
    from validation.moordyn_system import DECK, OUTPUT_INTERVAL, TOL, compare, tripod_variant

    deck = tmp_path / "tripod_same_equations.txt"
    deck.write_text(tripod_variant(DECK.read_text(), lower=1.0, depth=40.0, bending=False,
                                   fluid=False))
    r = compare(deck, 10, OUTPUT_INTERVAL)
    assert r["worst_rel"] < TOL
    assert r["motion"] > 0.1  # the points really moved (m)
    assert r["point_distance_max"] < 1e-6


def test_lines_on_the_lean_path_give_the_general_path_s_rates():
    """(self) In a calm sea (a water level, a plane seabed, a uniform current) a system's
    lines without winch or bending step with the lean one-pass kernels (lumped_mass
    flags[LEAN]); the system's dy/dt — lines, a free point and a free body with the end
    nodes lumped on it — is the one with every line on the general sea path (what the
    results run) to rounding, at perturbed states."""
    from tetherdyn.models.lumped_mass import LEAN, LEAN_FLUID
    from tetherdyn.models.system_bodies import system_rhs
    from tetherdyn.models.system_model import build_system
    from validation.system_bodies import swing

    sea = {"fluid_density": 1025.0, "water_level": 5.0, "current": [0.2, -0.1, 0.0],
           "seabed": {"z": -60.0}}
    solver = {"method": "rk4", "dt": 1e-4, "duration": 0.1}
    chain = {"diameter": 0.05, "mass_per_length": 8.0, "EA": 5e6, "axial_damping": 5e3,
             "cd_normal": 1.2, "cd_tangential": 0.3, "ca_tangential": 0.5}
    point = two_lines(chain, {"type": "free", "position": [14.0, 3.0, -22.0], "mass": 400.0,
                              "volume": 0.02, "drag_area": 0.5, "ca": 1.0},
                      solver=solver, c=(30.0, 0.0, -5.0), environment=sea,
                      elements=(10, 40))  # the in-place pass and the one on rows
    body = swing(solver, water=True)
    body["environment"] = sea
    rng = np.random.default_rng(11)
    for case in (point, body):
        model = build_system(load_system(case))
        assert all(m.data.flags[LEAN] == LEAN_FLUID for m in model.line_models.values())
        y0 = model.initial_state()
        for t in (0.0, 0.3):
            y = y0 + 0.02 * rng.normal(size=y0.size)
            d = model.make_data()
            model.enforce(t, y, d)
            a = np.empty_like(y)
            b = np.empty_like(y)
            system_rhs(t, y, a, d, 1.0)  # a float, as the kernels pass it: one compile
            model.rhs(t, y, b, d)
            np.testing.assert_allclose(b, a, rtol=0, atol=1e-12 * np.max(np.abs(a)))
