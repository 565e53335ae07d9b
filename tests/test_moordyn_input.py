"""MoorDyn v2 input files as tetherdyn cases (tetherdyn.moordyn_input).

Parsing and mapping on small decks written here (good input, and bad input whose error
must name the file line, the section and the row), the static equilibrium used as the
initial shape (checked against the lumped-mass model itself and Irvine's catenary), and
the cross-check against MoorDyn 2.7.2 where the optional package is installed.
"""

from __future__ import annotations

import math
import os
import re
import warnings
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from tetherdyn.analytic import elastic_catenary
from tetherdyn.case import CaseError, CaseWarning, load_case
from tetherdyn.moordyn_input import (
    MOORDYN_GRAVITY,
    MOORDYN_WATER_DENSITY,
    moordyn_to_case,
    parse_moordyn_file,
    read_moordyn_file,
)
from tetherdyn.simulate import simulate

TYPES = """\
---------------------- LINE TYPES -------------------------------------------
TypeName  Diam  Mass/m  EA  BA/-zeta  EI  Cd  Ca  CdAx  CaAx
(name)  (m)  (kg/m)  (N)  (N-s/-)  (N-m^2)  (-)  (-)  (-)  (-)
{types}
"""
POINTS = """\
---------------------- POINTS -----------------------------------------------
ID  Attachment  X  Y  Z  Mass  Volume  CdA  Ca
(#)  (word/ID)  (m)  (m)  (m)  (kg)  (m^3)  (m^2)  (-)
{points}
"""
LINES = """\
---------------------- LINES ------------------------------------------------
ID  LineType  AttachA  AttachB  UnstrLen  NumSegs  LineOutputs
(#)  (name)  (ID)  (ID)  (m)  (-)  (-)
{lines}
"""
OPTIONS = """\
---------------------- OPTIONS ----------------------------------------------
{options}
------------------------- need this line -----------------------------------
"""
GOOD = dict(
    types="rope 0.02 0.5 5e4 -0.8 0 1.2 1.0 0.2 0.3",
    points="1 Free 0 0 -25 2 0.001 0.05 1.0\n2 Vessel 0 0 -5 0 0 0 0",
    lines="1 rope 1 2 20 8 -",
    options="1e-3 dtM\nRK4 tScheme\n9.80665 g\n1025 WtrDnsty\n100 WtrDpth",
    extra="",
)


def deck_text(**changes: str) -> str:
    p = {**GOOD, **changes}
    return ("--------------------- MoorDyn Input File ------------------------------------\n"
            "a test deck\n"
            + TYPES.format(types=p["types"]) + p["extra"]
            + POINTS.format(points=p["points"]) + LINES.format(lines=p["lines"])
            + OPTIONS.format(options=p["options"]))


@pytest.fixture
def write(tmp_path):
    def _write(text: str | None = None, **changes: str) -> Path:
        path = tmp_path / "deck.dat"
        path.write_text(text if text is not None else deck_text(**changes))
        return path
    return _write


def error_of(path: Path, **kw) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CaseWarning)
        with pytest.raises(CaseError) as exc:
            moordyn_to_case(path, duration=kw.pop("duration", 1.0), **kw)
    return str(exc.value)


def line_of(path: Path, text: str) -> int:
    """1-based line number of the first line containing text."""
    return next(i for i, ln in enumerate(path.read_text().splitlines(), 1) if text in ln)


# -- mapping -------------------------------------------------------------------------------


def test_hanging_line_maps_every_field(write):
    path = write()
    case = moordyn_to_case(path, duration=2.0)
    t = case["tether"]
    assert t["length"] == 20.0 and t["diameter"] == 0.02 and t["mass_per_length"] == 0.5
    assert t["EA"] == 5e4 and t["drag_law"] == "cross_flow"
    assert (t["cd_normal"], t["ca_normal"], t["cd_tangential"], t["ca_tangential"]) == (
        1.2, 1.0, 0.2, 0.3)
    # BA = -0.8: MoorDyn's damping ratio per segment, BA = zeta * l_seg * sqrt(EA w)
    assert t["axial_damping"] == pytest.approx(0.8 * 2.5 * math.sqrt(5e4 * 0.5), rel=1e-15)
    assert case["model"] == {"type": "lumped_mass", "elements": 8}
    assert case["environment"]["gravity"] == [0.0, 0.0, -9.80665]
    assert case["environment"]["fluid_density"] == 1025.0
    assert case["solver"] == {"method": "rk4", "dt": 1e-3, "output_interval": 0.01,
                              "duration": 2.0}
    # end A (Free point 1) is the start, end B (Vessel point 2, no motion) the fixed end
    rho_v = 1025.0 * 0.001
    assert case["start"]["type"] == "free"
    assert case["start"]["mass"] == pytest.approx(2.0 + rho_v * 1.0)  # + added mass rho V Ca
    # buoyancy rho V g, plus rho V Ca g that cancels the added mass' weight
    assert case["start"]["force"] == pytest.approx([0.0, 0.0, rho_v * 9.80665 * 2.0])
    assert case["start"]["drag_area"] == 0.05
    assert case["end"] == {"type": "fixed", "position": [0.0, 0.0, -5.0]}
    assert len(case["initial"]["points"]) == 9
    load_case(case)


def test_defaults_of_moordyn_c(write):
    path = write(options="1e-3 dtM\n100 WtrDpth")
    case = moordyn_to_case(path, duration=1.0)
    assert case["environment"]["gravity"] == [0.0, 0.0, -MOORDYN_GRAVITY]
    assert case["environment"]["fluid_density"] == MOORDYN_WATER_DENSITY


def test_positive_ba_is_the_damping_coefficient_and_negative_length_a_factor(write):
    path = write(types="rope 0.02 0.5 5e4 40 0 1.2 1.0 0.2 0.3",
                 points="1 Fixed 0 0 -30 0 0 0 0\n2 Fixed 30 0 -30 0 0 0 0",
                 lines="1 rope 1 2 -1.2 10 -")
    case = moordyn_to_case(path, duration=1.0)
    assert case["tether"]["axial_damping"] == 40.0
    assert case["tether"]["length"] == pytest.approx(36.0)  # 1.2 x the 30 m between the ends


def test_point_force_columns_of_the_older_layout(write):
    path = write(points="1 Connect 0 0 -25 2 0 10 0 -5 0.05 0\n2 Fixed 0 0 -5 0 0 0 0 0 0 0")
    case = moordyn_to_case(path, duration=1.0)
    assert case["start"]["force"] == pytest.approx([10.0, 0.0, -5.0])


def test_coupled_point_with_a_motion_is_prescribed(write):
    traj = {"t": [0.0, 1.0, 2.0], "x": [1.0, 2.0, 3.0], "y": [0.0] * 3, "z": [-5.0] * 3}
    case = moordyn_to_case(write(), duration=1.0, motions={2: traj})
    assert case["end"]["type"] == "prescribed" and case["end"]["trajectory"] == traj
    # the equilibrium hangs below where the motion starts, not below the file's position
    pts = np.array(case["initial"]["points"])
    assert pts[:, 0] == pytest.approx(1.0) and pts[-1] == pytest.approx([1.0, 0.0, -5.0])
    with pytest.raises(CaseError, match=r"motions\[1\]: only Coupled/Vessel points"):
        moordyn_to_case(write(), duration=1.0, motions={1: traj})


def test_coupled_motion_from_a_csv_is_kept_as_an_absolute_path(write, tmp_path, monkeypatch):
    csv = tmp_path / "motion.csv"
    csv.write_text("t,x,y,z\n0,0,0,-5\n1,0,0,-6\n")
    monkeypatch.chdir(tmp_path)
    case = moordyn_to_case(write(), duration=1.0, motions={2: "motion.csv"})
    assert case["end"]["trajectory"] == str(csv.resolve())


def test_several_lines_give_several_cases(write):
    path = write(points="1 Free 0 0 -25 2 0 0 0\n2 Vessel 0 0 -5 0 0 0 0\n"
                        "3 Fixed 40 0 -50 0 0 0 0\n4 Fixed 60 0 -50 0 0 0 0",
                 lines="1 rope 1 2 20 8 -\n2 rope 3 4 25 10 -")
    cases = read_moordyn_file(path, duration=1.0)
    assert [c["model"]["elements"] for c in cases] == [8, 10]
    assert cases[1]["start"]["position"] == [40.0, 0.0, -50.0]
    msg = error_of(path)
    assert "LINES: the file has 2 lines" in msg
    assert moordyn_to_case(path, duration=1.0, line=2)["tether"]["length"] == 25.0


def test_empty_unsupported_sections_are_tolerated(write):
    empty = ("---------------------- ROD TYPES ----\nName Diam\n(-) (m)\n"
             "---------------------- BODIES ----\nID Attachment\n(#) (-)\n")
    path = write(extra=empty)
    moordyn_to_case(path, duration=1.0)


def test_warnings_for_ignored_input(write):
    path = write(options="1e-3 dtM\nRK2 tScheme\n100 WtrDpth\n0 TmaxIC\n2 fancyOption")
    footer = "------------------------- need this line"
    text = path.read_text().replace(
        footer, f"---------------------- OUTPUTS ----\nFairTen1\nEND\n{footer}")
    path.write_text(text)
    with pytest.warns(CaseWarning) as rec:
        moordyn_to_case(path, duration=1.0)
    msgs = " | ".join(str(w.message) for w in rec)
    assert "tScheme = RK2: tetherdyn integrates with rk4" in msgs
    assert "fancyOption = 2: unknown option" in msgs
    assert "OUTPUTS: output channels (FairTen1) are not read" in msgs


# -- initial shapes -------------------------------------------------------------------------


def test_hanging_equilibrium_is_static_in_the_model(write):
    """Independent of the construction: the lumped-mass RHS keeps the nodes where they are,
    and the fairlead carries the whole wet weight (line + clump - float)."""
    case = moordyn_to_case(write(), duration=0.5)
    ds = simulate(case, progress=False)
    pts = np.array(case["initial"]["points"])
    assert np.abs(ds.position.values - pts).max() < 1e-9 * 20.0
    rho, g, A = 1025.0, 9.80665, math.pi * 0.01**2
    weight = (0.5 - rho * A) * 20.0 * g + (2.0 - rho * 0.001) * g
    assert ds.end_force.values[-1] == pytest.approx([0.0, 0.0, -weight], rel=1e-12, abs=1e-9)


def test_catenary_equilibrium_against_irvine(write):
    """Two fixed points: the discrete equilibrium sits within O(1/N^2) of Irvine's
    continuous elastic catenary, and the model holds it (nodes move < 1e-9 L)."""
    path = write(types="chain 0.05 5.0 2e6 500 0 1.2 1.0 0.4 0.5",
                 points="1 Anchor 0 0 -60 0 0 0 0\n2 Fixed 50 0 -20 0 0 0 0",
                 lines="1 chain 1 2 80 40 -", options="1e-3 dtM\n150 WtrDpth")
    case = moordyn_to_case(path, duration=0.2)
    pts = np.array(case["initial"]["points"])
    w = (5.0 - 1025.0 * math.pi * 0.025**2) * 9.80665
    cat = elastic_catenary(50.0, 40.0, 80.0, w, 2e6, n_points=41)
    assert np.abs(pts[:, 0] - cat.x_nodes).max() < 2e-3 * 80.0
    assert np.abs(pts[:, 2] - (-60.0 + cat.z_nodes)).max() < 2e-3 * 80.0
    ds = simulate(case, progress=False)
    assert np.abs(ds.position.values - pts).max() < 1e-9 * 80.0


def test_straight_start(write):
    path = write(points="1 Free 10 0 -22.320508075688775 2 0 0 0\n2 Vessel 0 0 -5 0 0 0 0",
                 options="1e-3 dtM\n100 WtrDpth\n0 TmaxIC")
    case = moordyn_to_case(path, duration=1.0)  # auto: TmaxIC 0 -> straight to the point
    pts = np.array(case["initial"]["points"])
    assert pts[0] == pytest.approx([10.0, 0.0, -22.320508075688775])
    seg = np.linalg.norm(np.diff(pts, axis=0), axis=1)
    assert seg == pytest.approx(2.5)
    with pytest.warns(CaseWarning, match="TmaxIC = 0: MoorDyn would start unrelaxed"):
        eq = moordyn_to_case(path, duration=1.0, initial="equilibrium")
    assert np.array(eq["initial"]["points"])[:, 0] == pytest.approx(0.0)


# -- errors name the file line, the section and the row -------------------------------------


@pytest.mark.parametrize(
    "changes, section, needle, pattern",
    [
        (dict(types="rope 0.02 0.5 5e4 -0.8 1.0 0.0 1.6 0.05"), "LINE TYPES", "rope",
         "MoorDyn v1 layout"),
        (dict(types="rope 0.02 0.5 5e4|6e4 -0.8 0 1.2 1.0 0.2 0.3"), "LINE TYPES", "rope",
         "EA = '5e4|6e4': bar-separated"),
        (dict(types="rope 0.02 0.5 ea.txt -0.8 0 1.2 1.0 0.2 0.3"), "LINE TYPES", "rope",
         "EA = 'ea.txt' is not a number"),
        (dict(types="rope 0.02 0.5 5e4 -0.8 0 1.2 1.0 0.2 0.3 0.8 0.08 0.18"), "LINE TYPES",
         "rope", "Cl = 0.8: vortex-induced"),
        (dict(types="rope 0.02 0.5 -5e4 -0.8 0 1.2 1.0 0.2 0.3"), "LINE TYPES", "rope",
         "EA = -5e4 must be > 0"),
        (dict(points="1 Body1 0 0 -25 2 0 0 0\n2 Vessel 0 0 -5 0 0 0 0"), "POINTS", "Body1",
         "attachment 'Body1': there is no body 1"),
        (dict(points="1 Free 0 0 -25 2 0 0\n2 Vessel 0 0 -5 0 0 0 0"), "POINTS", "1 Free",
         "9 columns needed"),
        (dict(points="2 Free 0 0 -25 2 0 0 0\n1 Vessel 0 0 -5 0 0 0 0"), "POINTS", "2 Free",
         "IDs must run 1, 2, 3"),
        (dict(points="1 Floating 0 0 -25 2 0 0 0\n2 Vessel 0 0 -5 0 0 0 0"), "POINTS",
         "Floating", "not one of Fixed/Anchor"),
        (dict(lines="1 chain 1 2 20 8 -"), "LINES", "1 chain", "unknown line type 'chain'"),
        (dict(lines="1 rope R1A 2 20 8 -"), "LINES", "R1A", "attached to rods"),
        (dict(lines="1 rope 1 7 20 8 -"), "LINES", "1 rope", "there is no point 7"),
        (dict(lines="1 rope 1 2 20 0 -"), "LINES", "1 rope", "NumSegs = 0 must be >= 1"),
        (dict(lines="1 rope 1 2 20 8"), "LINES", "1 rope", "7 columns needed"),
        (dict(options="1e-3 dtM\n100 WtrDpth\n1 WaveKin"), "OPTIONS", "WaveKin",
         "externally driven wave kinematics (set through MoorDyn's API at run time) is not "
         "supported"),
        (dict(options="1e-3 dtM\n100 WtrDpth\n2 WaveKin"), "OPTIONS", "WaveKin",
         "an FFT wave grid"),
        (dict(options="1e-3 dtM\n100 WtrDpth\n3 WaveKin"), "OPTIONS", "WaveKin",
         "wave_elevation.txt"),
        (dict(options="1e-3 dtM\n100 WtrDpth\n2 Currents"), "OPTIONS", "Currents",
         "a dynamic (time-varying) current profile is not supported"),
        (dict(options="1e-3 dtM\n100 WtrDpth\n1 Currents"), "OPTIONS", "Currents",
         "needs the file current_profile.txt next to the deck"),
        (dict(options="1e-3 dtM\n100 WtrDpth\n7 WaveKin"), "OPTIONS", "WaveKin",
         "needs the file wave_frequencies.txt next to the deck"),
        (dict(options="1e-3 dtM\n100 WtrDpth\nbathy.txt SeafloorFile"), "OPTIONS",
         "SeafloorFile", "SeafloorFile = bathy.txt: file not found"),
        (dict(options="1e-3 dtM\n100 WtrDpth\n-2 kBot"), "OPTIONS", "kBot",
         "kBot = -2 must be >= 0"),
        (dict(options="1e-3 dtM\n100 WtrDpth\nwaterkin.dat WaterKin"), "OPTIONS",
         "WaterKin", "MoorDyn-F's water kinematics file is not read"),
        (dict(points="1 Free 0 0 -10 2 0 0 0\n2 Vessel 0 0 -5 0 0 0 0",
              options="1e-3 dtM\n7 WtrDpth\n0 TmaxIC"), "LINES", "1 rope",
         "below the seabed z = -10"),
    ],
)
def test_errors_name_section_and_row(write, changes, section, needle, pattern):
    path = write(**changes)
    msg = error_of(path)
    where = line_of(path, needle)
    assert re.search(rf"deck\.dat:{where}: {section}(: | row \d+: )", msg), msg
    assert pattern in msg, msg


@pytest.mark.parametrize("section, body, pattern", [
    ("RODS", "ID RodType Attachment\n(#) (-) (-)\n1 Can Fixed 0 0 0 0 0 1 4 -\n",
     "RODS row 1: rods are not supported"),
    ("BODIES", "ID Attachment\n(#) (-)\n1 CoupledPinned 0 0 0 0 0 0 0 0 0 0 0 0\n",
     "BODIES row 1: attachment 'CoupledPinned': pinned bodies"),
    ("FAILURE", "FailureID Point Lines FailTime FailTen\n() () () () ()\n1 2 1 10 0\n",
     "FAILURE row 1: line failures are not supported"),
])
def test_non_empty_unsupported_sections(write, section, body, pattern):
    path = write(extra=f"---------------------- {section} ----\n{body}")
    msg = error_of(path)
    assert msg.startswith(f"deck.dat:{line_of(path, body.splitlines()[2])}: {pattern}"), msg


def test_shared_free_point_is_a_junction(write):
    path = write(points="1 Free 0 0 -25 2 0 0 0\n2 Vessel 0 0 -5 0 0 0 0\n"
                        "3 Fixed 0 0 -45 0 0 0 0\n4 Fixed 30 0 -45 0 0 0 0",
                 lines="1 rope 1 2 20 8 -\n2 rope 3 1 20 8 -\n3 rope 3 4 35 8 -")
    msg = error_of(path, line=1)
    assert moordyn_to_case(path, duration=1.0, line=3)["tether"]["length"] == 35.0
    assert re.search(rf"deck\.dat:{line_of(path, '1 rope 1 2')}: LINES row 1: free point 1 "
                     "joins lines 1, 2: a multi-line junction", msg), msg


def test_v1_line_layout_is_named(write):
    text = deck_text().replace("ID  LineType  AttachA  AttachB  UnstrLen",
                               "Line  LineType  UnstrLen  NumSegs  NodeAnch  NodeFair")
    path = write(text)
    assert "LINES row 1: MoorDyn v1 column order" in error_of(path)


def test_missing_inputs(write):
    path = write()
    with pytest.raises(CaseError, match=r"^solver\.duration: a MoorDyn input file sets no"):
        moordyn_to_case(path)
    assert "solver" in read_moordyn_file(path)[0] and (
        "duration" not in read_moordyn_file(path)[0]["solver"])
    path = write(options="100 WtrDpth")
    assert "OPTIONS: dtM is missing" in error_of(path)
    assert moordyn_to_case(path, duration=1.0, dt=2e-3)["solver"]["dt"] == 2e-3
    path = write(text=deck_text().split("---------------------- POINTS")[0])
    assert "POINTS: the section is missing or empty" in error_of(path)
    with pytest.raises(CaseError, match="MoorDyn input file not found"):
        moordyn_to_case(path.parent / "nope.dat", duration=1.0)


def test_free_free_line_needs_a_straight_start(write):
    path = write(points="1 Free 0 0 -25 0 0 0 0\n2 Free 20 0 -25 0 0 0 0")
    assert "both ends are free points" in error_of(path)
    case = moordyn_to_case(path, duration=1.0, initial="straight")
    assert case["start"]["type"] == case["end"]["type"] == "free"


def test_bundled_example_deck():
    ref = resources.files("tetherdyn") / "examples" / "moordyn_line.dat"
    with resources.as_file(ref) as path:
        deck = parse_moordyn_file(path)
        assert deck.points[2].kind == "coupled" and deck.points[1].kind == "free"
        with pytest.warns(CaseWarning, match="OUTPUTS"):
            case = moordyn_to_case(path, duration=0.05)
    load_case(case)
    pts = np.array(case["initial"]["points"])
    assert pts[0] == pytest.approx([10.0, 0.0, -22.320508075688775])  # released 30 deg


# -- cross-check against MoorDyn 2.7.2 -----------------------------------------------------


def test_moordyn_holds_the_mapped_equilibrium(write):
    """MoorDyn's own dynamics keep our equilibrium nodes (weight, buoyancy and the clump's
    mass and volume mapped the way MoorDyn sees them) at rest."""
    pytest.importorskip("moordyn")
    from validation.peers.moordyn_deck import run_moordyn_deck

    path = write()
    case = moordyn_to_case(path, duration=1.0)
    nodes = np.array(case["initial"]["points"])
    md = run_moordyn_deck(path, duration=1.0, initial_nodes=nodes, output_interval=0.1)
    assert md["initial_node_error_m"] == 0.0
    assert np.abs(md["positions"] - nodes).max() < 1e-9 * 20.0


def test_decks_agree_with_moordyn():
    """Two decks (hanging rope with clump/float released 30°; catenary between two fixed
    points released 30° out of its plane about its chord), identical start nodes, RK4 at
    the same dt: issue 10's 1 % of the line length and of the peak fairlead tension.
    Measured (reduced): hanging 0.11 % / 0.32 %, catenary 0.07 % / 0.26 %."""
    pytest.importorskip("moordyn")
    from validation.moordyn_decks import TOL, check

    row = check(full=False)
    v = row.values
    for deck in ("hanging", "catenary"):
        assert v[f"{deck}_distance_rel"] < TOL
        assert v[f"{deck}_force_rel"] < TOL
        assert v[f"{deck}_motion"] > 1.0  # the nodes really moved (m): not a static test
    assert row.passed


# -- the sea: water depth, seabed contact and friction, current, waves, bending ------------


def test_sea_options_map_to_the_environment(write):
    """WtrDpth, kBot, cBot and FrictionCoefficient (MoorDyn docs, Options) become the
    case's water level, seabed and Coulomb friction; MoorDyn has no air loads."""
    path = write(options="1e-3 dtM\n100 WtrDpth\n2e6 kBot\n1e5 cBot\n0.4 FrictionCoefficient")
    env = moordyn_to_case(path, duration=1.0)["environment"]
    assert env["water_level"] == 0.0 and env["air_density"] == 0.0
    assert env["seabed"] == {"z": -100.0, "stiffness": 2e6, "damping": 1e5,
                             "friction": {"axial": 0.4, "lateral": 0.4}}
    assert env["current"] == [0.0, 0.0, 0.0] and "waves" not in env


def test_seabed_defaults_and_moordyn_f_friction(write):
    env = moordyn_to_case(write(), duration=1.0)["environment"]
    assert env["seabed"] == {"z": -100.0, "stiffness": 3.0e6, "damping": 3.0e5}
    path = write(options="1e-3 dtM\n100 WtrDpth\n0.6 MU_KA\n1.0 MU_KT")
    assert moordyn_to_case(path, duration=1.0)["environment"]["seabed"]["friction"] == {
        "axial": 0.6, "lateral": 1.0}


def test_friction_options_without_a_counterpart_warn(write):
    path = write(options="1e-3 dtM\n100 WtrDpth\n0.5 FrictionCoefficient\n100 FricDamp\n"
                         "1.3 StatDynFricScale")
    with pytest.warns(CaseWarning) as rec:
        moordyn_to_case(path, duration=1.0)
    msgs = " | ".join(str(w.message) for w in rec)
    assert "FricDamp = 100: not used: MoorDyn's seabed friction is saturated viscous" in msgs
    assert "Coulomb with a stick phase" in msgs
    assert "StatDynFricScale = 1.3: not used" in msgs
    # FricDamp alone (no friction coefficient) changes nothing: no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", CaseWarning)
        moordyn_to_case(write(options="1e-3 dtM\n100 WtrDpth\n100 FricDamp"), duration=1.0)


def test_current_profile(write):
    """Currents 1: MoorDyn-C's current_profile.txt (three header lines, z ux uy uz)."""
    path = write(options="1e-3 dtM\n100 WtrDpth\n1 Currents")
    (path.parent / "current_profile.txt").write_text(
        "--- MoorDyn steady currents File ---\nTabulated\nz ux uy uz\n"
        "0.0 0.0 0 0\n-10.0 1.25 0.5 0\n-5.0 0.6 0 0\n")
    case = moordyn_to_case(path, duration=1.0)
    assert case["environment"]["current"] == {"z": [-10.0, -5.0, 0.0], "x": [1.25, 0.6, 0.0],
                                              "y": [0.5, 0.0, 0.0]}
    load_case(case)
    (path.parent / "current_profile.txt").write_text("a\nb\nc\n-10 1 0 0.2\n")
    msg = error_of(path)
    assert msg.startswith("current_profile.txt:4: current profile: uz = 0.2"), msg


def _moordyn_eta(comps: list[tuple[float, float, float, float]], depth: float, g: float,
                 x: float, y: float, t: float) -> float:
    """MoorDyn-C's component sum (SpectrumKin.cpp): |A| sin(w t - k d + arg A)."""
    from scipy.optimize import brentq

    eta = 0.0
    for w, a_re, a_im, beta in comps:
        k = brentq(lambda k, w=w: g * k * math.tanh(k * depth) - w * w, 1e-9, 1e3)
        d = x * math.cos(beta) + y * math.sin(beta)
        eta += math.hypot(a_re, a_im) * math.sin(w * t - k * d + math.atan2(a_im, a_re))
    return eta


WAVES = [(0.6, 0.5, 0.3, 0.2), (0.9, -0.2, 0.4, 0.0), (1.3, 0.1, -0.25, -0.5)]


def write_wave_frequencies(folder: Path) -> None:
    (folder / "wave_frequencies.txt").write_text(
        "0.0 0.0 0.0\n" + "".join(f"{w} {re} {im} {b}\n" for w, re, im, b in WAVES))


def test_wave_components_keep_moordyns_elevation(write):
    """WaveKin 7: wave_frequencies.txt (omega [rad/s], complex amplitude, direction [rad])
    to our components a cos(k.x - w t + phase): the elevation of MoorDyn's own sum
    (SpectrumKin.cpp, written out here) at any point and time."""
    path = write(options="1e-3 dtM\n50 WtrDpth\n7 WaveKin")
    write_wave_frequencies(path.parent)
    case = moordyn_to_case(path, duration=1.0)
    waves = case["environment"]["waves"]
    assert waves["type"] == "components" and waves["stretching"] == "wheeler"
    assert waves["depth"] == 50.0
    c = waves["components"]
    assert len(c["frequency"]) == 3  # the omega = 0 row carries nothing
    from scipy.optimize import brentq

    g = MOORDYN_GRAVITY
    for x, y, t in ((0.0, 0.0, 0.0), (7.0, 3.0, 0.5), (-20.0, 11.0, 13.7)):
        ours = 0.0
        for f, a, ph, dr in zip(c["frequency"], c["amplitude"], c["phase_deg"],
                                c["direction_deg"], strict=True):
            w = 2 * math.pi * f
            k = brentq(lambda k, w=w: g * k * math.tanh(k * 50.0) - w * w, 1e-9, 1e3)
            d = x * math.cos(math.radians(dr)) + y * math.sin(math.radians(dr))
            ours += a * math.cos(k * d - w * t + math.radians(ph))
        assert ours == pytest.approx(_moordyn_eta(WAVES, 50.0, g, x, y, t), abs=1e-12)
    load_case(case)


def test_wave_components_bad_rows(write):
    path = write(options="1e-3 dtM\n50 WtrDpth\n7 WaveKin")
    (path.parent / "wave_frequencies.txt").write_text("0.0 0.0 0.1\n0.5 1 0\n")
    assert "wave_frequencies.txt:1: wave components: omega = 0 with an imaginary part" in (
        error_of(path))
    (path.parent / "wave_frequencies.txt").write_text("0.5 1 0 45\n")
    assert "wave_frequencies.txt:1: wave components: beta = 45 must be in radians" in (
        error_of(path))


def test_seafloor_file_is_a_bathymetry_table(write):
    """SeafloorFile: nx ny, the x ticks, the y ticks, then x y z rows (MoorDyn docs)."""
    path = write(options="1e-3 dtM\n100 WtrDpth\nbathy.txt SeafloorFile")
    (path.parent / "bathy.txt").write_text(
        "2 3\n-50 50\n-10 0 10\n-50 -10 -90\n-50 0 -95\n-50 10 -99\n"
        "50 -10 -110\n50 0 -112\n50 10 -120\n")
    bed = moordyn_to_case(path, duration=1.0)["environment"]["seabed"]
    assert "z" not in bed
    assert bed["bathymetry"] == {"x": [-50.0] * 3 + [50.0] * 3, "y": [-10.0, 0.0, 10.0] * 2,
                                 "z": [-90.0, -95.0, -99.0, -110.0, -112.0, -120.0]}
    (path.parent / "bathy.txt").write_text("2 2\n-50 50\n-10 10\n-50 -10 -90\n-50 10 -95\n"
                                           "50 -10 -110\n")
    assert "bathy.txt: seafloor: no row for the grid point (50, 10)" in error_of(path)


def test_ei_maps_to_lumped_mass_bending(write):
    """A line type's EI is our tether.EI with model.bending (no longer dropped); the
    equilibrium start is the bent model's own (statics), so it stays put."""
    path = write(types="rope 0.02 0.5 5e4 -0.8 2.0 1.2 1.0 0.2 0.3",
                 points="1 Fixed 0 0 -40 0 0 0 0\n2 Fixed 15 0 -30 0 0 0 0",
                 lines="1 rope 1 2 25 10 -")
    case = moordyn_to_case(path, duration=0.3)
    assert case["tether"]["EI"] == 2.0 and case["model"]["bending"] is True
    ds = simulate(case, progress=False)
    pts = np.array(case["initial"]["points"])
    assert np.abs(ds.position.values - pts).max() < 1e-6 * 25.0


def test_line_resting_on_the_seabed(write):
    """A chain from an anchor on the seabed to a fairlead starts on the elastic catenary
    with a grounded part (Jonkman 2007, no friction), its grounded nodes sunk by
    w / (kBot d) (the contact pressure carrying the wet weight). Checked against the
    inextensible closed form (suspended length sqrt(h (h + 2a)), a = H / w) for the
    touchdown, and against the model: the lumped line with seabed contact barely moves."""
    path = write(types="chain 0.1 20.0 1e8 -0.8 0 1.2 1.0 0.4 0.5",
                 points="1 Anchor 0 0 -50 0 0 0 0\n2 Fixed 120 0 -5 0 0 0 0",
                 lines="1 chain 1 2 150 50 -", options="5e-4 dtM\n50 WtrDpth")
    case = moordyn_to_case(path, duration=1.0, output_interval=0.01)
    pts = np.array(case["initial"]["points"])
    w = (20.0 - 1025.0 * math.pi * 0.05**2) * MOORDYN_GRAVITY  # wet weight [N/m]
    sink = w / (3e6 * 0.1)
    grounded = pts[:, 2] < -50.0 + 0.5 * sink
    assert grounded[:10].all() and not grounded[-10:].any()
    assert pts[0, 2] == -50.0  # the anchor stays where the deck puts it
    assert np.abs(pts[1:][grounded[1:], 2] + 50.0 + sink).max() < 1e-12
    from scipy.optimize import brentq

    h, L, X = 45.0, 150.0, 120.0

    def miss(a: float) -> float:
        Ls = math.sqrt(h * (h + 2 * a))
        return (L - Ls) + a * math.asinh(Ls / a) - X

    a = brentq(miss, 1.0, 1e4)
    Lg = L - math.sqrt(h * (h + 2 * a))
    s_td = np.linspace(0.0, L, 51)[np.flatnonzero(grounded)[-1]]
    assert abs(s_td - Lg) < L / 50  # within an element of the inextensible closed form
    # the lumped line with contact: within 5 cm (measured 3.6 cm, the O(1/N^2) gap between
    # the continuous and the lumped catenary) and the fairlead force of the closed form,
    # T_F = w (a + h), within 2 % (measured 0.7 % at t = 1 s)
    ds = simulate(case, progress=False)
    assert np.abs(ds.position.values - pts).max() < 0.05
    assert ds.grounded.values[-1, 1:6].all() and not ds.grounded.values[-1, -5:].any()
    T_F = np.linalg.norm(ds.end_force.values[-10:], axis=1).mean()
    assert T_F == pytest.approx(w * (a + h), rel=0.02)


def test_fairlead_above_the_surface(write):
    """MoorDyn's surface is z = 0: a fairlead above it is allowed now; the part above the
    water weighs its weight in air (no buoyancy) in the equilibrium start."""
    path = write(points="1 Fixed 0 0 -30 0 0 0 0\n2 Vessel 20 0 4 0 0 0 0",
                 lines="1 rope 1 2 45 15 -")
    case = moordyn_to_case(path, duration=0.3)
    pts = np.array(case["initial"]["points"])
    assert pts[:, 2].max() > 0.0
    ds = simulate(case, progress=False)
    assert np.abs(ds.position.values - pts).max() < 1e-6 * 45.0


def test_waves_and_current_against_moordyn(write):
    """The mapped waves and current profile are MoorDyn's: elevation, flow velocity and
    acceleration from our sea kernel (fluid_at) against MoorDyn 2.7.2's GetWavesKin at the
    same points and times."""
    md = pytest.importorskip("moordyn")
    from tetherdyn.sea import fluid_at, sea_arrays

    path = write(points="1 Fixed 0 0 -30 0 0 0 0\n2 Fixed 0 0 -5 0 0 0 0",
                 lines="1 rope 1 2 25 5 -",
                 options="1e-3 dtM\n50 WtrDpth\n7 WaveKin\n1 Currents\n0 TmaxIC\n"
                         "1 disableOutput\n1 disableOutTime")
    write_wave_frequencies(path.parent)
    (path.parent / "current_profile.txt").write_text(
        "--- currents ---\nz ux uy uz\n(m) (m/s) (m/s) (m/s)\n-40 0.2 0.1 0\n-10 0.5 0 0\n"
        "0 0.8 -0.1 0\n")
    raw = moordyn_to_case(path, duration=1.0, initial="straight")
    raw["environment"]["waves"]["grid"] = "none"  # the mapping itself: direct sums
    case = load_case(raw)
    arr = sea_arrays(case.environment, np.zeros((6, 3)), 6)
    points = [(7.0, 3.0, -2.0), (-4.0, 0.0, -12.0), (0.0, 1.0, -30.0)]
    cwd = os.getcwd()
    os.chdir(path.parent)
    try:
        system = md.Create(str(path))
        md.Init_NoIC(system, [], [])
        waves = md.GetWaves(system)
        t = 0.0
        out = np.zeros(8)
        for n_steps in (0, 500):
            for _ in range(n_steps):
                md.Step(system, [], [], t, 1e-3)
                t += 1e-3
            for x, y, z in points:
                u, ud, zeta, _ = md.GetWavesKin(waves, x, y, z, None)
                fluid_at(arr["sea_par"], arr["sea_current"], arr["sea_wind"],
                         arr["sea_waves"], arr["sea_grid"], t, x, y, z, out)
                assert out[7] == pytest.approx(zeta, abs=1e-9)
                assert out[1:4] == pytest.approx(u, abs=1e-9)
                assert out[4:7] == pytest.approx(ud, abs=1e-9)
        md.Close(system)
    finally:
        os.chdir(cwd)


IC_DECK = """\
--------------------- MoorDyn Input File ------------------------------------
a clump between an anchor chain and a free body hung from a second fixed point
""" + TYPES.format(types="chain  0.05  8.0  5.0e6  -0.8  0  1.2  1.0  0.0  0.0") + """\
---------------------------- BODIES -----------------------------------------
ID  Attachment  X0  Y0  Z0  r0  p0  y0  Mass  CG*  I*  Volume  CdA*  Ca
(#)  (-)  (m)  (m)  (m)  (deg)  (deg)  (deg)  (kg)  (m)  (kg-m^2)  (m^3)  (m^2)  (-)
1  free  26.7  0.0  -30.8  0  -22  0  300.0  0  50.0  0.0  0.0  0.0
---------------------- POINTS -----------------------------------------------
ID  Attachment  X  Y  Z  Mass  Volume  CdA  Ca
(#)  (word)  (m)  (m)  (m)  (kg)  (m^3)  (m^2)  (-)
1  Fixed  0.0  0.0  -20.0  0.0  0.0  0.0  0.0
2  Free  12.1  0.0  -30.4  200.0  0.0  0.0  0.0
3  Body1  -0.5  0.0  0.4  0.0  0.0  0.0  0.0
4  Body1  0.5  0.0  0.4  0.0  0.0  0.0  0.0
5  Fixed  40.0  0.0  -15.0  0.0  0.0  0.0  0.0
---------------------- LINES ------------------------------------------------
ID  LineType  AttachA  AttachB  UnstrLen  NumSegs  LineOutputs
(#)  (name)  (ID)  (ID)  (m)  (-)  (-)
1  chain  1  2  16.0  10  -
2  chain  2  3  14.0  10  -
3  chain  4  5  20.0  10  -
---------------------- OPTIONS ----------------------------------------------
2e-4  dtM
RK4  tScheme
100  WtrDpth
100  TmaxIC
1e-7  threshIC
1  disableOutput
1  disableOutTime
------------------------- need this line -----------------------------------
"""


def test_a_deck_with_an_initial_condition_solve_starts_from_the_system_equilibrium(tmp_path):
    """TmaxIC > 0: MoorDyn starts from its initial-condition solve, the deck's system from
    its static equilibrium (``initial: {shape: equilibrium}``: a clump and a free body on
    three chains), at rest. MoorDyn 2.7.2's own IC (its stationary relaxation, stopped at
    TmaxIC = 100 s) puts every node within 1 cm of ours (measured 6.9 mm: it is still
    creeping there; from a start farther off and 2 m out of the lines' plane, TmaxIC =
    2000 s brought the clump and body to 1e-6 m of ours in that plane and the body's pitch
    to 1e-6°, its nodes to 1.7 mm with 1.4–1.7 mm of the out-of-plane offset left). With
    TmaxIC 0 or MoorDyn's own nodes for every line the lines start as laid (the deck rows'
    Init_NoIC start)."""
    from tetherdyn.moordyn_input import moordyn_to_system
    from tetherdyn.system_statics import solve_system

    path = tmp_path / "ic.txt"
    path.write_text(IC_DECK)
    with warnings.catch_warnings():
        warnings.simplefilter("error", CaseWarning)
        case = moordyn_to_system(path, duration=1.0)
    assert case["initial"] == {"shape": "equilibrium"}
    no_ic = tmp_path / "no_ic.txt"
    no_ic.write_text(IC_DECK.replace("100  TmaxIC", "0  TmaxIC"))
    assert "initial" not in moordyn_to_system(no_ic, duration=1.0)
    nodes = {i: np.zeros((11, 3)) for i in (1, 2, 3)}
    assert "initial" not in moordyn_to_system(path, duration=1.0, initial_nodes=nodes)
    pytest.importorskip("moordyn")
    from validation.peers.moordyn_system import run_moordyn_system

    eq = solve_system(case)
    md = run_moordyn_system(path, duration=2e-4, ic=True)
    worst = 0.0
    for lid, theirs in md["initial_nodes"].items():
        line = eq.lines[str(lid)]
        n = len(line.positions)
        assert not np.any(line.y[3 * n:])  # at rest
        worst = max(worst, float(np.linalg.norm(line.positions - theirs, axis=1).max()))
    assert worst < 0.01


def test_a_deck_whose_coupled_point_moves_at_t0_starts_as_laid_with_a_warning(tmp_path):
    """The system statics refuse a moving system (a coupled point moving at t = 0): with
    TmaxIC > 0 the deck's lines then start as laid and a CaseWarning names the point and
    why; ``initial`` other than auto / equilibrium / lines is refused by name; a deck with
    waves starts from the equilibrium with a warning that MoorDyn's is in calm water."""
    from tetherdyn.moordyn_input import moordyn_to_system

    path = tmp_path / "ic.txt"
    path.write_text(IC_DECK.replace("5  Fixed  40.0", "5  Coupled  40.0"))
    tow = {"t": [0.0, 1.0], "x": [40.0, 41.0], "y": [0.0, 0.0], "z": [-15.0, -15.0]}
    with pytest.warns(CaseWarning, match=r"coupled point 5 moves at t = 0 \(1 m/s\)"):
        case = moordyn_to_system(path, duration=1.0, motions={5: tow}, interpolation="linear")
    assert "initial" not in case
    still = {**tow, "x": [40.0, 40.0]}
    case = moordyn_to_system(path, duration=1.0, motions={5: still}, interpolation="linear")
    assert case["initial"] == {"shape": "equilibrium"}
    assert "initial" not in moordyn_to_system(path, duration=1.0, initial="lines")
    with pytest.raises(CaseError, match="initial: must be 'auto', 'equilibrium' or 'lines'"):
        moordyn_to_system(path, duration=1.0, initial="straight")
    # waves: MoorDyn relaxes in calm water, our statics in the waves' flow at t = 0 (with
    # these waves the equilibrium moves by 2.5-11 mm): an equilibrium start, said so
    path.write_text(IC_DECK.replace("100  TmaxIC", "100  TmaxIC\n7  WaveKin"))
    write_wave_frequencies(tmp_path)
    with pytest.warns(CaseWarning, match="initial-condition solve runs in calm water"):
        case = moordyn_to_system(path, duration=1.0)
    assert case["initial"] == {"shape": "equilibrium"}
