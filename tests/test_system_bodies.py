"""Rigid bodies in systems (issue 19; docs/systems.md "Bodies", models/system_bodies.py).

Each check against what nobody here wrote: the energy of a conservative system, MoorDyn's
own accelerated pinned-body test (tests/bodies.cpp "Pinned body"), d'Alembert's balance,
MoorPy's end-swap symmetry; and one (self) check of a coupled body's line end against the
same motion given as a coupled point.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from tetherdyn.case import CaseError
from tetherdyn.system_case import load_system
from tetherdyn.system_run import run_system
from validation.system_bodies import BODY_DRAG_DECK as BODY_DECK
from validation.system_bodies import (
    check_accelerated_frame,
    check_end_swap,
    check_energy,
    swing,
)


def test_energy_is_held_with_a_free_body_swinging_on_lines():
    """Vacuum, no damping, lines linear-elastic both ways (no kink): max |E − E0| < 1e-5 of
    the exchanged energy (the issue's criterion), E the lines' (end nodes included) plus
    the body's. Measured 3.8e-7 at dt = 2e-4 s, 1.2e-8 at 1e-4 (RK4's h⁴); it needs the end
    nodes' centripetal term that MoorDyn leaves out. Reduced row system_body_energy."""
    row = check_energy(full=False)
    assert row.values["exchanged"] > 30.0  # the swing exchanges ~40 J
    assert row.values["rel"] < 1e-5
    assert row.passed


def test_swapping_a_line_s_ends_changes_no_tension():
    """MoorPy asserts that a line's end swap changes nothing: in water (drag, added mass,
    damping on lines and body), line L1 given from the body to its anchor instead: every
    tension the same within 1e-9 of it. Reduced row system_body_end_swap."""
    row = check_end_swap(full=False)
    assert row.values["peak"] > 30.0
    assert row.values["worst_rel"] <= 1e-9
    assert row.values["body_distance"] < 1e-12
    assert row.passed


def test_body_in_an_accelerated_frame_settles_at_atan_a_over_g():
    """The issue's row (MoorDyn's "Pinned body" test asserts the same, 1e-3 rad on the mean
    roll): the tilt settles at atan(a/g) within 0.1° (roll = −atan(a/g) for +y, R = Rx Ry
    Rz; measured 0.018° from 10 s on); the lines' force on the body is then m (a − g)
    (d'Alembert; mean of the last 2 s, the lines still ring) within 1 % of its weight and
    their moment about the apex 0. Reduced row system_body_accelerated_frame (12 s)."""
    row = check_accelerated_frame(full=False)
    v = row.values
    assert v["deviation_deg"] < 0.1
    assert v["force_rel"] < 0.01
    assert v["off_axis_rad"] < 1e-9
    assert v["moment_rel"] < 1e-9
    assert row.passed


def test_a_coupled_body_end_moves_as_a_coupled_point():
    """(self) A line hung from a coupled body at its reference point, the body moving
    without turning, equals the line hung from a coupled point on the same trajectory (the
    line's own prescribed end): positions within 1e-9 m, tensions 1e-7 of the peak."""
    t = np.linspace(0.0, 2.0, 21)
    xyz = {"t": t.tolist(), "x": (0.3 * np.sin(2.0 * t)).tolist(), "y": (0.1 * t**2).tolist(),
           "z": (-0.2 * t).tolist()}
    tether = {"diameter": 0.02, "mass_per_length": 1.0, "EA": 1e5, "axial_damping": 100.0,
              "cd_normal": 1.2}
    solver = {"method": "rk4", "dt": 5e-4, "duration": 1.5, "output_interval": 0.1}
    line = {"length": 5.0, "tether": tether, "model": {"type": "lumped_mass", "elements": 8},
            "start": {"point": "A"}, "end": {"point": "P"}}
    by_point = {"lines": {"L": line},
                "points": {"A": {"type": "fixed", "position": [4.0, 0.0, -3.0]},
                           "P": {"type": "coupled", "trajectory": xyz}},
                "environment": {"fluid_density": 1025.0}, "solver": solver}
    by_body = copy.deepcopy(by_point)
    by_body["lines"]["L"]["end"] = {"body": "V", "at": [0.0, 0.0, 0.0]}
    del by_body["points"]["P"]
    zeros = [0.0] * t.size
    by_body["bodies"] = {"V": {"type": "coupled", "trajectory": {
        **xyz, "roll_deg": zeros, "pitch_deg": zeros, "yaw_deg": zeros}}}
    p = run_system(by_point, progress=False)
    b = run_system(by_body, progress=False)
    lp, lb = p.lines["L"].data_vars, b.lines["L"].data_vars
    np.testing.assert_allclose(lb["position"][1], lp["position"][1], rtol=0, atol=1e-9)
    peak = np.abs(lp["tension"][1]).max()
    np.testing.assert_allclose(lb["tension"][1], lp["tension"][1], rtol=0, atol=1e-7 * peak)
    np.testing.assert_allclose(b.bodies["V"]["force"][1], p.points["P"]["force"][1], rtol=0,
                               atol=1e-7 * peak)


@pytest.mark.parametrize(("change", "message"), [
    (lambda c: c["lines"]["L0"].__setitem__("end", {"body": "Q"}),
     "lines.L0.end.body: unknown body 'Q' (bodies: B)"),
    (lambda c: c["lines"]["L0"].__setitem__("end", {"body": "B", "point": "A0"}),
     "lines.L0.end: give point: NAME or body: NAME"),
    (lambda c: c["lines"]["L0"].__setitem__("start", {"point": "A0", "at": [0, 0, 0]}),
     "lines.L0.start.at: only an end on a body has an attachment position"),
    (lambda c: c["bodies"].__setitem__("F", {"type": "fixed"}),
     "bodies.F: no line ends on this fixed body"),
    (lambda c: c["bodies"]["B"].__setitem__("mass", -1.0), "bodies.B.mass: must be >= 0"),
    (lambda c: c["bodies"]["B"].__setitem__("waterplane", {"area": 1.0}),
     "bodies.B.waterplane: a floating body's hydrostatics need environment.water_level"),
])
def test_bad_body_input_is_named(change, message):
    case = swing({"method": "rk4", "dt": 1e-3, "duration": 0.1})
    change(case)
    with pytest.raises(CaseError) as err:
        load_system(case)
    assert message in str(err.value)


def test_moordyn_body_deck_runs_as_moordyn_does():
    """MoorDyn 2.7.2 on its own test deck tests/Mooring/body_tests/bodyDrag.txt (a free body
    on a spring line), same nodes, RK4 at the same dtM: the line's end tensions within the
    issue's 2 % of peak (measured 0.13 % over 10 s) and the body's motion within 1 % of its
    range (measured 3e-7). Reduced row moordyn_system_body_drag (2 s of 10)."""
    pytest.importorskip("moordyn")
    from validation.system_bodies import check_body_drag

    row = check_body_drag(full=False)
    v = row.values
    assert v["range"] > 1.0  # the body really moves (m)
    assert v["worst_rel"] < 0.02
    assert v["motion_rel"] < 0.01
    assert row.passed


def test_a_moordyn_body_row_maps_as_moordyn_reads_it(tmp_path):
    """A BODIES row read as MoorDyn-C 2.7.2's readBody reads it (CG x|y|z, I per axis, CdA
    translational|rotational, one Ca on every axis as added mass Ca rho V), a point on the
    body becoming the line end's `at`, and a pinned body refused naming its row."""
    from tetherdyn.moordyn_input import moordyn_to_system

    deck = BODY_DECK.read_text()
    start = deck.index("1       free")
    end = deck.index("\n", start)
    deck = deck[:start] + "1 Free 1 2 -3 10 20 30 100 0|0|-1 5|6|7 0.5 0.2|0.4 0.8" + deck[end:]
    deck = deck.replace("1         Body1      0.0       0          0",
                        "1         Body1      0.5       0          0.25")
    path = tmp_path / "deck.txt"
    path.write_text(deck)
    case = moordyn_to_system(path, duration=1.0)
    body = case["bodies"]["1"]
    assert body["position"] == [1.0, 2.0, -3.0]
    assert body["orientation_deg"] == [10.0, 20.0, 30.0]
    assert body["center_of_gravity"] == [0.0, 0.0, -1.0]
    assert body["inertia"] == [5.0, 6.0, 7.0]
    assert body["drag_area"] == [0.2] * 3
    assert body["rotational_drag_area"] == [0.4] * 3
    assert body["added_mass"] == pytest.approx([0.8 * 1025.0 * 0.5] * 3 + [0.0] * 3)
    assert case["lines"]["1"]["start"] == {"body": "1", "at": [0.5, 0.0, 0.25]}
    assert "1" not in case["points"]
    load_system(case)  # a valid system case
    path.write_text(deck.replace("1 Free 1 2", "1 CoupledPinned 1 2"))
    with pytest.raises(CaseError, match="BODIES row 1: attachment 'CoupledPinned'"):
        moordyn_to_system(path, duration=1.0)
