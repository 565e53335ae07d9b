"""MoorDyn v2 input files as tetherdyn cases (tetherdyn.moordyn_input).

Parsing and mapping on small decks written here (good input, and bad input whose error
must name the file line, the section and the row), the static equilibrium used as the
initial shape (checked against the lumped-mass model itself and Irvine's catenary), and
the cross-check against MoorDyn 2.7.2 where the optional package is installed.
"""

from __future__ import annotations

import math
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
    path = write(types="rope 0.02 0.5 5e4 -0.8 3.0 1.2 1.0 0.2 0.3",
                 options="1e-3 dtM\nRK2 tScheme\n100 WtrDpth\n0 TmaxIC\n2 fancyOption")
    footer = "------------------------- need this line"
    text = path.read_text().replace(
        footer, f"---------------------- OUTPUTS ----\nFairTen1\nEND\n{footer}")
    path.write_text(text)
    with pytest.warns(CaseWarning) as rec:
        moordyn_to_case(path, duration=1.0)
    msgs = " | ".join(str(w.message) for w in rec)
    assert "EI = 3 is not used" in msgs
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
         "points on bodies are not supported"),
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
         "waves are not supported"),
        (dict(options="1e-3 dtM\n100 WtrDpth\n1 Currents"), "OPTIONS", "Currents",
         "current fields are not supported"),
        (dict(options="1e-3 dtM\n100 WtrDpth\nbathy.txt SeafloorFile"), "OPTIONS",
         "SeafloorFile", "bathymetry is not supported"),
        (dict(options="1e-3 dtM\n20 WtrDpth"), "LINES", "1 rope",
         "below the seabed z = -25"),
        (dict(points="1 Free 0 0 -10 2 0 0 0\n2 Vessel 0 0 5 0 0 0 0"), "LINES", "1 rope",
         "above the free surface"),
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
    ("BODIES", "ID Attachment\n(#) (-)\n1 coupled 0 0 0 0 0 0 0 0 0 0 0 0\n",
     "BODIES row 1: bodies are not supported"),
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
