"""Case validation (shared/spec/case-format.md): bad input is rejected by ``load_case``,
before anything runs, with a message that names the key path; good input fills defaults.

No simulation runs here except through a patched ``build_model`` that must not be reached.
"""

from __future__ import annotations

import importlib
import math
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import yaml

import tetherdyn
from tetherdyn import CaseError, CaseWarning, load_case
from tetherdyn.case import set_key

NAN = float("nan")
INF = float("inf")


# -- helpers --------------------------------------------------------------------------------

def _set(path: str, value) -> Callable[[dict], None]:
    """A mutation that sets the dotted key ``path`` of a case dict."""

    def mutate(case: dict) -> None:
        set_key(case, path, value)

    return mutate


def _drop(path: str) -> Callable[[dict], None]:
    def mutate(case: dict) -> None:
        node = case
        parts = path.split(".")
        for p in parts[:-1]:
            node = node[p]
        del node[parts[-1]]

    return mutate


def _sections(**sections) -> Callable[[dict], None]:
    def mutate(case: dict) -> None:
        case.update(sections)

    return mutate


def _both(*mutations: Callable[[dict], None]) -> Callable[[dict], None]:
    def mutate(case: dict) -> None:
        for m in mutations:
            m(case)

    return mutate


def _inline(**cols) -> dict:
    table = {"t": [0.0, 1.0], "x": [0.0, 1.0], "y": [0.0, 0.0], "z": [0.0, 0.0]}
    table.update(cols)
    return {k: v for k, v in table.items() if v is not None}


def _rejects(case, key: str, **kw) -> str:
    """load_case must raise CaseError whose message contains the key path; returns it."""
    with pytest.raises(CaseError) as info:
        load_case(case, **kw)
    msg = str(info.value)
    assert key in msg, f"message does not name {key!r}: {msg!r}"
    assert "Traceback" not in msg
    return msg


FIXED_END = {"type": "fixed", "position": [0.5, 0.0, -0.8]}

# (id, mutation of the small case, key path the message must name)
BAD_CASES = [
    ("negative length", _set("tether.length", -1.0), "tether.length"),
    ("zero length", _set("tether.length", 0.0), "tether.length"),
    ("zero elements", _set("model.elements", 0), "model.elements"),
    ("negative elements", _set("model.elements", -3), "model.elements"),
    ("fractional elements", _set("model.elements", 2.5), "model.elements"),
    ("boolean elements", _set("model.elements", True), "model.elements"),
    ("zero diameter", _set("tether.diameter", 0.0), "tether.diameter"),
    ("negative diameter", _set("tether.diameter", -1e-3), "tether.diameter"),
    ("zero dt", _set("solver.dt", 0.0), "solver.dt"),
    ("negative dt", _set("solver.dt", -1e-3), "solver.dt"),
    ("zero duration", _set("solver.duration", 0.0), "solver.duration"),
    ("zero EA", _set("tether.EA", 0.0), "tether.EA"),
    ("negative EA", _set("tether.EA", -5.0), "tether.EA"),
    ("missing EA", _drop("tether.EA"), "tether.EA"),
    ("NaN EA", _set("tether.EA", NAN), "tether.EA"),
    ("inf EA", _set("tether.EA", INF), "tether.EA"),
    ("-inf mass_per_length", _set("tether.mass_per_length", -INF), "tether.mass_per_length"),
    ("string EA", _set("tether.EA", "stiff"), "tether.EA"),
    ("string length", _set("tether.length", "ten metres"), "tether.length"),
    ("list for a number", _set("tether.diameter", [1e-3]), "tether.diameter"),
    ("negative EI", _set("tether.EI", -1.0), "tether.EI"),
    ("negative fluid density", _set("environment.fluid_density", -1.0),
     "environment.fluid_density"),
    ("gravity with 2 components", _set("environment.gravity", [0.0, -9.81]),
     "environment.gravity"),
    ("gravity with 4 components", _set("environment.gravity", [0.0, 0.0, -9.81, 0.0]),
     "environment.gravity"),
    ("gravity as a string", _set("environment.gravity", "down"), "environment.gravity"),
    ("NaN in gravity", _set("environment.gravity", [0.0, 0.0, NAN]), "environment.gravity"),
    ("inf in current", _set("environment.current", [INF, 0.0, 0.0]), "environment.current"),
    ("velocity with 2 components", _set("initial.velocity", [1.0, 2.0]), "initial.velocity"),
    ("point with 2 components",
     _sections(initial={"shape": "points", "points": [[0, 0, 0], [0, -1]]}),
     "initial.points[1]"),
    ("NaN start position", _sections(start={"type": "fixed", "position": [0.0, NAN, 0.0]}),
     "start.position"),
    ("unknown tether key", _set("tether.foo", 1.0), "tether.foo"),
    ("unknown solver key", _set("solver.timestep", 1e-3), "solver.timestep"),
    ("unknown top-level section", _set("bogus", {"x": 1}), "bogus"),
    ("tether not a mapping", _set("tether", [1, 2]), "tether"),
    ("missing tether section", _drop("tether"), "tether"),
    ("missing solver.dt", _drop("solver.dt"), "solver.dt"),
    ("missing model.elements", _drop("model.elements"), "model.elements"),
    ("both mass and mass_per_length", _set("tether.mass", 0.05), "tether"),
    ("none of the masses", _drop("tether.mass_per_length"), "tether"),
    ("output_interval not a multiple of dt (rk4)", _set("solver.output_interval", 0.0105),
     "solver.output_interval"),
    ("output_interval above duration", _set("solver.output_interval", 1.0),
     "solver.output_interval"),
    ("unknown drag law", _set("tether.drag_law", "magic"), "tether.drag_law"),
    ("drag law the model lacks", _set("tether.drag_law", "projected_area"), "tether.drag_law"),
    ("unknown method", _set("solver.method", "euler"), "solver.method"),
    ("method the model lacks",
     _both(_set("model.type", "rigid_links"), _set("solver.method", "generalized_alpha")),
     "solver.method"),
    ("model key of another model", _set("model.joint_damping", 0.13), "model.joint_damping"),
    ("unknown model key", _set("model.wobble", 1.0), "model.wobble"),
    ("model key of wrong type", _set("model.slack_damping", "sometimes"),
     "model.slack_damping"),
    ("higher_order without EI", _set("model.type", "higher_order"), "tether.EI"),
    ("bending lumped mass without EI", _set("model.bending", True), "tether.EI"),
    ("bending key not a bool", _set("model.bending", "yes"), "model.bending"),
    ("clamp without model.bending",
     _both(_set("tether.EI", 1.0), _sections(start={"type": "fixed", "clamp": [0.0, 0.0, -1.0]})),
     "start.clamp"),
    ("end moment without bending", _sections(end={"type": "free", "moment": [0.0, 1.0, 0.0]}),
     "end.moment"),
    ("end moment on a fixed end",
     _both(_set("model.bending", True), _set("tether.EI", 1.0),
           _sections(end={**FIXED_END, "moment": [0.0, 1.0, 0.0]})), "moment"),
    ("torque on lumped mass", _sections(end={"type": "free", "torque": 1.0}), "end.torque"),
    ("unreacted torque",
     _both(_set("model.type", "higher_order"), _set("tether.EI", 1.0), _set("tether.GJ", 1.0),
           _sections(end={"type": "free", "torque": 1.0})), "end.torque"),
    ("torque without GJ",
     _both(_set("model.type", "higher_order"), _set("tether.EI", 1.0),
           _sections(end={"type": "free", "torque": 1.0})), "end.torque"),
    ("roll on a free end",
     _both(_set("model.type", "higher_order"), _set("tether.EI", 1.0),
           _sections(end={"type": "free", "roll_deg": 10.0})), "roll_deg"),
    ("ancf2d out of its plane",
     _both(_set("model.type", "ancf2d"), _set("tether.EI", 1.0),
           _set("environment.gravity", [0.0, -9.81, 0.0])), "environment.gravity"),
    ("ancf2d without EI", _set("model.type", "ancf2d"), "tether.EI"),
    ("material damping and axial damping",
     _both(_set("model.type", "ancf2d"), _set("tether.EI", 1.0),
           _set("model.material_damping", 2000.0), _set("tether.axial_damping", 1.0)),
     "tether.axial_damping"),
    ("clamp on a model without bending", _sections(start={"type": "fixed",
                                                          "clamp": [0.0, 0.0, -1.0]}),
     "start.clamp"),
    ("three of the four alpha parameters",
     _both(_set("solver.method", "generalized_alpha"), _set("solver.alpha_m", 0.1),
           _set("solver.alpha_f", 0.2), _set("solver.beta", 0.3)), "solver.gamma"),
    ("alpha parameters for rk4", _set("solver.alpha_m", 0.1), "solver"),
    ("rigid links with a free start",
     _both(_set("model.type", "rigid_links"), _sections(start={"type": "free"})), "start.type"),
    ("rod chain held at both ends",
     _both(_set("model.type", "rod_chain"), _sections(end=dict(FIXED_END))), "end.type"),
    ("joint damping not a number",
     _both(_set("model.type", "rigid_links"), _set("model.joint_damping", "lots")),
     "model.joint_damping"),
    ("negative joint damping",
     _both(_set("model.type", "rigid_links"), _set("model.joint_damping", -1.0)),
     "model.joint_damping"),
    ("rod chain without EA",
     _both(_set("model.type", "rod_chain"), _drop("tether.EA")), "tether.EA"),
    ("unknown model type", _set("model.type", "spaghetti"), "model.type"),
    ("direction with both ends fixed",
     _both(_sections(end=dict(FIXED_END)), _set("initial.direction", [1.0, 0.0, 0.0])),
     "initial.direction"),
    ("zero direction", _set("initial.direction", [0.0, 0.0, 0.0]), "initial.direction"),
    ("fixed end without position", _sections(end={"type": "fixed"}), "end.position"),
    ("force on a fixed end", _sections(end={**FIXED_END, "force": [1.0, 0.0, 0.0]}),
     "end.force"),
    ("payload on a fixed end", _sections(end={**FIXED_END, "mass": 1.0}), "end.mass"),
    ("position of a free end", _sections(end={"type": "free", "position": [0, 0, -1]}),
     "end.position"),
    ("unknown end type", _sections(end={"type": "hinged"}), "end.type"),
    ("prescribed end without trajectory", _sections(start={"type": "prescribed"}),
     "start.trajectory"),
    ("trajectory on a fixed end",
     _sections(start={"type": "fixed", "trajectory": _inline()}), "start.trajectory"),
    ("inline trajectory with unequal columns",
     _sections(start={"type": "prescribed", "trajectory": _inline(y=[0.0])}),
     "start.trajectory"),
    ("inline trajectory without z",
     _sections(start={"type": "prescribed", "trajectory": _inline(z=None)}),
     "start.trajectory"),
    ("inline trajectory with non-increasing t",
     _sections(start={"type": "prescribed", "trajectory": _inline(t=[1.0, 1.0])}),
     "start.trajectory"),
    ("inline trajectory with NaN",
     _sections(start={"type": "prescribed", "trajectory": _inline(x=[0.0, NAN])}),
     "start.trajectory"),
    ("inline trajectory with a string cell",
     _sections(end={"type": "prescribed", "trajectory": _inline(x=[0.0, "a"])}),
     "end.trajectory"),
    ("inline trajectory with only vx",
     _sections(start={"type": "prescribed", "trajectory": _inline(vx=[0.0, 0.0])}),
     "start.trajectory"),
    ("unknown interpolation",
     _sections(start={"type": "prescribed", "trajectory": _inline(),
                      "interpolation": "quadratic"}),
     "start.interpolation"),
]


@pytest.mark.parametrize(
    ("mutate", "key"), [pytest.param(m, k, id=i) for i, m, k in BAD_CASES]
)
def test_bad_case_names_key(small_case, mutate, key):
    case = small_case()
    mutate(case)
    _rejects(case, key)


def test_bad_case_rejected_before_anything_runs(small_case, monkeypatch):
    """simulate() must fail in load_case: building the model is never reached."""
    sim_module = importlib.import_module("tetherdyn.simulate")

    def must_not_run(case):  # pragma: no cover - reached only on failure
        raise AssertionError("the model was built for an invalid case")

    monkeypatch.setattr(sim_module, "build_model", must_not_run)
    with pytest.raises(CaseError, match="tether.EA"):
        tetherdyn.simulate(small_case({"tether.EA": -1.0}), progress=False)


def test_message_for_missing_EA_is_the_spec_example(small_case):
    case = small_case()
    del case["tether"]["EA"]
    msg = _rejects(case, "tether.EA")
    assert "must be > 0" in msg and "lumped_mass" in msg


def test_several_problems_in_one_message(small_case):
    msg = _rejects(small_case({"tether.length": -1.0, "model.elements": 0}), "tether.length")
    assert "model.elements" in msg


def test_both_masses_message_names_the_mass_keys(small_case):
    msg = _rejects(small_case({"tether.mass": 0.05}), "tether")
    assert "mass_per_length" in msg and "mass" in msg


def _yaml_case(**tether) -> str:
    t = {"length": 1.0, "diameter": 1e-3, "mass_per_length": 0.05, "EA": 500.0, **tether}
    body = ", ".join(f"{k}: {v}" for k, v in t.items())
    return (f"tether: {{{body}}}\nmodel: {{type: lumped_mass, elements: 4}}\n"
            "solver: {dt: 1.0e-3, duration: 0.1}\n")


@pytest.mark.parametrize("value", [".nan", ".NaN", ".inf", "-.inf"])
def test_yaml_non_finite_rejected(value):
    _rejects(_yaml_case(EA=value), "tether.EA")


def test_yaml_nan_in_a_vector_rejected(tmp_path):
    text = _yaml_case() + "environment: {gravity: [0.0, 0.0, .nan]}\n"
    path = tmp_path / "nan.yaml"
    path.write_text(text)
    _rejects(path, "environment.gravity")


def test_invalid_yaml_and_missing_file(tmp_path):
    with pytest.raises(CaseError, match="not valid YAML"):
        load_case("tether: [1\nmodel: x\n")
    with pytest.raises(CaseError, match="not found"):
        load_case(tmp_path / "no_such_case.yaml")
    with pytest.raises(CaseError, match="mapping"):
        load_case("- 1\n- 2\n")


# -- key naming in less common places ---------------------------------------------------------

@pytest.mark.parametrize(
    "mutate",
    [
        pytest.param(_both(_sections(end=dict(FIXED_END)),
                           _set("initial.angle_from_gravity_deg", 10.0)), id="both-fixed"),
        pytest.param(_sections(initial={"shape": "points", "points": [[0, 0, 0], [0, 0, -1]],
                                        "angle_from_gravity_deg": 10.0}), id="points"),
    ],
)
def test_angle_from_gravity_is_named(small_case, mutate):
    case = small_case()
    mutate(case)
    _rejects(case, "initial.angle_from_gravity_deg")


def test_inline_trajectory_string_cell_clean_message(small_case):
    case = small_case(end={"type": "prescribed", "trajectory": _inline(x=[0.0, "a"])})
    msg = _rejects(case, "end.trajectory.x[1]")
    assert "dict[" not in msg and "valid string" not in msg


@pytest.mark.parametrize(
    ("path", "value"),
    [("tether.EA", "500"), ("model.elements", "4"), ("tether.compression", "yes")],
)
def test_numeric_strings_rejected(small_case, path, value):
    _rejects(small_case({path: value}), path)


# -- warnings ---------------------------------------------------------------------------------

def test_unused_tether_property_warns(small_case):
    with pytest.warns(CaseWarning, match=r"tether\.EI") as record:
        case = load_case(small_case({"tether.EI": 2.5}))
    assert case.tether.EI == 2.5
    assert all("tether.EI" in str(w.message) for w in record if w.category is CaseWarning)


def test_zero_unused_property_is_silent(small_case):
    with warnings.catch_warnings():
        warnings.simplefilter("error", CaseWarning)
        load_case(small_case({"tether.EI": 0.0, "tether.GJ": 0.0}))


# -- defaults and derived values ---------------------------------------------------------------

def test_defaults_fill_in(small_case):
    raw = small_case()
    del raw["initial"]
    del raw["solver"]["method"]
    del raw["solver"]["output_interval"]
    case = load_case(raw)
    assert case.start.type == "fixed"
    np.testing.assert_array_equal(case.start_position, [0.0, 0.0, 0.0])
    assert case.end.type == "free"
    assert case.end.mass == 0.0 and tuple(case.end.force) == (0.0, 0.0, 0.0)
    assert tuple(case.environment.gravity) == (0.0, 0.0, -9.81)
    assert case.environment.fluid_density == 0.0
    assert tuple(case.environment.current) == (0.0, 0.0, 0.0)
    assert case.initial.shape == "straight"
    assert case.method == "rk4"
    assert case.drag_law == "cross_flow"
    assert case.solver.output_interval == 0.01
    assert case.tether.compression is False
    assert case.tether.cd_normal == 1.2 and case.tether.ca_normal == 1.0
    # defaults are not written back into the raw case (the results file keeps it as given)
    assert "start" not in case.to_dict()


def test_mass_per_length_from_mass_and_density(small_case):
    d = 2e-3
    by_mass = load_case(small_case({"tether.mass_per_length": None, "tether.mass": 0.16,
                                    "tether.length": 10.0, "tether.diameter": d}))
    assert by_mass.tether.linear_mass == pytest.approx(0.016, rel=1e-15)
    raw = small_case({"tether.diameter": d, "tether.density": 7800.0})
    del raw["tether"]["mass_per_length"]
    by_density = load_case(raw)
    # default material area pi d^2/4
    assert by_density.tether.linear_mass == pytest.approx(7800.0 * math.pi * d**2 / 4, rel=1e-15)
    raw["tether"]["area"] = 1.0e-6
    assert load_case(raw).tether.linear_mass == pytest.approx(7800.0e-6, rel=1e-15)


def test_yaml_text_and_dict_agree(small_case):
    raw = small_case()
    a = load_case(raw)
    b = load_case(yaml.safe_dump(raw))
    assert a.tether == b.tether and a.solver == b.solver and a.initial == b.initial


def test_case_text_is_pyyamls_for_every_example():
    """Case.to_yaml / SystemCase.to_yaml (case.yaml_text, libyaml's emitter) give the text
    of PyYAML's own safe_dump for every bundled case, system included, and it reads back."""
    from tetherdyn.system_case import load_any

    examples = Path(tetherdyn.__file__).parent / "examples"
    files = sorted(p for p in examples.glob("*.yaml") if p.stem != "swingup_ga")
    assert len(files) >= 20
    for f in files:
        case = load_any(f)
        text = case.to_yaml()
        assert text == yaml.safe_dump(case.raw, sort_keys=False), f.name
        assert yaml.safe_load(text) == case.raw, f.name


# -- prescribed trajectories -------------------------------------------------------------------

def _prescribed(small_case, trajectory, **extra) -> dict:
    return small_case(start={"type": "prescribed", "trajectory": trajectory, **extra})


def test_relative_trajectory_path_is_relative_to_case_file(small_case, write_case, tmp_path,
                                                           monkeypatch):
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "track.csv").write_text("t,x,y,z\n0,0,0,0\n1,2,0,0\n2,4,1,0\n")
    path = write_case(_prescribed(small_case, "track.csv", interpolation="linear"),
                      folder=folder)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    case = load_case(path)  # the CSV sits next to the case file, not in cwd
    pos, vel, _ = case.start_trajectory.evaluate(1.5)
    np.testing.assert_allclose(pos, [3.0, 0.5, 0.0], atol=1e-12)
    np.testing.assert_allclose(vel, [2.0, 1.0, 0.0], atol=1e-12)
    # the same file given as a dict with no base_dir is looked up in cwd: not found
    msg = _rejects(_prescribed(small_case, "track.csv"), "start.trajectory")
    assert "not found" in msg


def _csv_case(small_case, tmp_path: Path, text: str) -> dict:
    (tmp_path / "motion.csv").write_text(text)
    return _prescribed(small_case, str(tmp_path / "motion.csv"))


def test_trajectory_file_missing(small_case, tmp_path):
    msg = _rejects(_prescribed(small_case, "nowhere.csv"), "start.trajectory",
                   base_dir=tmp_path)
    assert "nowhere.csv" in msg and "not found" in msg


def test_trajectory_non_numeric_cell_names_line(small_case, tmp_path):
    case = _csv_case(small_case, tmp_path, "t,x,y,z\n0,0,0,0\n1,abc,0,0\n2,1,0,0\n")
    msg = _rejects(case, "start.trajectory")
    assert "line 3" in msg and "'x'" in msg and "abc" in msg


def test_trajectory_short_row_names_line(small_case, tmp_path):
    msg = _rejects(_csv_case(small_case, tmp_path, "t,x,y,z\n0,0,0,0\n1,1,0\n"),
                   "start.trajectory")
    assert "line 3" in msg


def test_trajectory_missing_column_z(small_case, tmp_path):
    msg = _rejects(_csv_case(small_case, tmp_path, "t,x,y\n0,0,0\n1,1,0\n"), "start.trajectory")
    assert "z" in msg.split("start.trajectory", 1)[1]


def test_trajectory_non_increasing_t(small_case, tmp_path):
    msg = _rejects(_csv_case(small_case, tmp_path, "t,x,y,z\n0,0,0,0\n1,1,0,0\n1,2,0,0\n"),
                   "start.trajectory")
    assert "'t'" in msg and "increase" in msg


def test_trajectory_empty_file(small_case, tmp_path):
    msg = _rejects(_csv_case(small_case, tmp_path, ""), "start.trajectory")
    assert "empty" in msg


def test_hermite_trajectory_matches_rows(small_case, tmp_path):
    """With vx, vy, vz the interpolant passes through every row's position AND velocity."""
    rows = np.array([
        # t,   x,    y,    z,    vx,   vy,   vz
        [0.0, 0.0, 0.0, 0.0, 0.4, 0.0, -0.2],  # moving at the first row
        [1.0, 0.5, 0.2, -0.1, 1.0, 0.3, 0.0],
        [2.5, 2.0, 0.1, 0.3, 1.2, -0.4, 0.5],
        [3.0, 2.6, 0.0, 0.4, 0.9, 0.0, -0.2],
    ])
    text = "t,x,y,z,vx,vy,vz\n" + "".join(",".join(f"{v:.17g}" for v in r) + "\n" for r in rows)
    case = load_case(_csv_case(small_case, tmp_path, text))
    traj = case.start_trajectory
    for r in rows:  # at the last row itself: the last segment's end (continuous from the left)
        pos, vel, _ = traj.evaluate(r[0])
        np.testing.assert_allclose(pos, r[1:4], atol=1e-12)
        np.testing.assert_allclose(vel, r[4:7], atol=1e-12)
    # just before the last row the Hermite cubic approaches its velocity (C1 interpolant)
    t_end = rows[-1, 0]
    pos, vel, _ = traj.evaluate(t_end - 1e-9)
    np.testing.assert_allclose(pos, rows[-1, 1:4], atol=1e-8)
    np.testing.assert_allclose(vel, rows[-1, 4:7], atol=1e-6)
    # after the last row: held there, at rest
    for t in (t_end + 1e-12, t_end + 0.5, 100.0):
        pos, vel, acc = traj.evaluate(t)
        np.testing.assert_allclose(pos, rows[-1, 1:4], atol=1e-12)
        np.testing.assert_array_equal(vel, 0.0)
        np.testing.assert_array_equal(acc, 0.0)


def test_linear_trajectory(small_case):
    table = {"t": [0.0, 1.0, 3.0], "x": [0.0, 1.0, 0.0], "y": [0.0, 2.0, 2.0],
             "z": [1.0, 1.0, -1.0]}
    case = load_case(_prescribed(small_case, table, interpolation="linear"))
    traj = case.start_trajectory
    pos, vel, acc = traj.evaluate(0.5)
    np.testing.assert_allclose(pos, [0.5, 1.0, 1.0], atol=1e-12)
    np.testing.assert_allclose(vel, [1.0, 2.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(acc, 0.0, atol=1e-12)
    pos, vel, _ = traj.evaluate(2.0)
    np.testing.assert_allclose(pos, [0.5, 2.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(vel, [-0.5, 0.0, -1.0], atol=1e-12)
    pos, vel, _ = traj.evaluate(7.0)  # after the last row: held, at rest
    np.testing.assert_allclose(pos, [0.0, 2.0, -1.0], atol=1e-12)
    np.testing.assert_array_equal(vel, 0.0)


def test_cubic_trajectory_passes_through_rows(small_case):
    table = {"t": [0.0, 1.0, 2.0, 4.0], "x": [0.0, 1.0, 3.0, 3.5], "y": [0.0, 0.0, 1.0, 1.0],
             "z": [0.0, -1.0, -1.0, 0.0]}
    traj = load_case(_prescribed(small_case, table)).start_trajectory
    for k, t in enumerate(table["t"]):
        pos, _, acc = traj.evaluate(t - 1e-12 if k == len(table["t"]) - 1 else t)
        np.testing.assert_allclose(pos, [table[a][k] for a in "xyz"], atol=1e-9)
        if k == 0:  # natural spline: zero acceleration at the ends
            np.testing.assert_allclose(acc, 0.0, atol=1e-9)


def test_yaml_exponent_floats_are_numbers(tmp_path):
    """PyYAML reads 2.0e7 as a string (YAML 1.1); case files use YAML 1.2 numbers."""
    path = tmp_path / "c.yaml"
    path.write_text("tether: {length: 1.0, diameter: 1e-3, mass_per_length: 5.0e-2, EA: 2.0e7}\n"
                    "model: {type: lumped_mass, elements: 2}\n"
                    "solver: {dt: 1e-4, duration: 1.0e-2, output_interval: 1e-3}\n")
    case = load_case(path)
    assert case.tether.EA == 2.0e7 and case.solver.dt == 1e-4


def test_flat_section_without_displaced_area_warns(small_case):
    """A strip (area far from the circle of its diameter) in a fluid: buoyancy would come
    from the circle, so the case says so by name."""
    case = small_case({"tether.area": 4e-5, "tether.diameter": 0.02,
                       "environment.fluid_density": 1.293})
    with pytest.warns(CaseWarning, match="tether.displaced_area: not given"):
        load_case(case)
    case["tether"]["displaced_area"] = 4e-5
    with warnings.catch_warnings():
        warnings.simplefilter("error", CaseWarning)
        load_case(case)


# -- the sea (issue 17): environment.water_level, air_density, wind, current profiles, waves,
# seabed; every bad value is rejected before the run, naming its key ---------------------------

def _sea(**env) -> Callable[[dict], None]:
    """A mutation giving the case water (fluid_density 1025) and these environment keys."""
    return _sections(environment={"fluid_density": 1025.0, **env})


AIRY = {"type": "airy", "height": 2.0, "period": 8.0}
JONSWAP = {"type": "jonswap", "hs": 4.0, "tp": 10.0}

BAD_SEA = [
    ("seabed above the water level", _sea(water_level=0.0, seabed={"z": 5.0}),
     "environment.seabed.z"),
    ("bathymetry all above the water level",
     _sea(water_level=-50.0, seabed={"bathymetry": {"x": [0, 1, 0, 1], "y": [0, 0, 1, 1],
                                                    "z": [-1, -1, -2, -2]}}),
     "environment.seabed.bathymetry"),
    ("seabed with z and bathymetry",
     _sea(seabed={"z": -5.0, "bathymetry": "grid.csv"}), "environment.seabed.z"),
    ("seabed with neither z nor bathymetry", _sea(seabed={"stiffness": 1e6}),
     "environment.seabed.z"),
    ("slope with bathymetry",
     _sea(seabed={"bathymetry": {"x": [0, 1], "y": [0, 0], "z": [0, 0]}, "slope_deg": 3.0}),
     "environment.seabed.slope_deg"),
    ("scattered bathymetry",
     _sea(seabed={"bathymetry": {"x": [0, 1, 0], "y": [0, 0, 1], "z": [-5, -5, -5]}}),
     "environment.seabed.bathymetry"),
    ("bathymetry file missing", _sea(seabed={"bathymetry": "nowhere.csv"}),
     "environment.seabed.bathymetry"),
    ("bathymetry without a z column",
     _sea(seabed={"bathymetry": {"x": [0, 1, 0, 1], "y": [0, 0, 1, 1]}}),
     "environment.seabed.bathymetry"),
    ("slope of 90 degrees", _sea(seabed={"z": -5.0, "slope_deg": 90.0}),
     "environment.seabed.slope_deg"),
    ("zero seabed stiffness", _sea(seabed={"z": -5.0, "stiffness": 0.0}),
     "environment.seabed.stiffness"),
    ("negative seabed damping", _sea(seabed={"z": -5.0, "damping": -1.0}),
     "environment.seabed.damping"),
    ("negative axial friction", _sea(seabed={"z": -5.0, "friction": {"axial": -0.1}}),
     "environment.seabed.friction.axial"),
    ("unknown friction key", _sea(seabed={"z": -5.0, "friction": {"static": 0.3}}),
     "environment.seabed.friction.static"),
    ("negative wave height", _sea(water_level=0.0, waves={**AIRY, "height": -1.0}),
     "environment.waves.height"),
    ("zero wave period", _sea(water_level=0.0, waves={**AIRY, "period": 0.0}),
     "environment.waves.period"),
    ("airy without a height", _sea(water_level=0.0, waves={"type": "airy", "period": 8.0}),
     "environment.waves.height"),
    ("negative hs", _sea(water_level=0.0, waves={**JONSWAP, "hs": -4.0}),
     "environment.waves.hs"),
    ("zero tp", _sea(water_level=0.0, waves={**JONSWAP, "tp": 0.0}), "environment.waves.tp"),
    ("jonswap without tp", _sea(water_level=0.0, waves={"type": "jonswap", "hs": 4.0}),
     "environment.waves.tp"),
    ("gamma below 1", _sea(water_level=0.0, waves={**JONSWAP, "gamma": 0.5}),
     "environment.waves.gamma"),
    ("gamma for pierson_moskowitz",
     _sea(water_level=0.0, waves={**JONSWAP, "type": "pierson_moskowitz", "gamma": 2.0}),
     "environment.waves.gamma"),
    ("height for a spectrum", _sea(water_level=0.0, waves={**JONSWAP, "height": 2.0}),
     "environment.waves.height"),
    ("hs for airy waves", _sea(water_level=0.0, waves={**AIRY, "hs": 2.0}),
     "environment.waves.hs"),
    ("zero components", _sea(water_level=0.0, waves={**JONSWAP, "components": 0}),
     "environment.waves.components"),
    ("reversed frequency range",
     _sea(water_level=0.0, waves={**JONSWAP, "frequency_range": [0.5, 0.05]}),
     "environment.waves.frequency_range"),
    ("component table without a table",
     _sea(water_level=0.0, waves={"type": "components", "components": 20}),
     "environment.waves.components"),
    ("component table with a negative frequency",
     _sea(water_level=0.0, waves={"type": "components", "components": {
         "frequency": [0.1, -0.2], "amplitude": [1.0, 0.5]}}),
     "environment.waves.components.frequency"),
    ("component table of unequal columns",
     _sea(water_level=0.0, waves={"type": "components", "components": {
         "frequency": [0.1, 0.2], "amplitude": [1.0]}}),
     "environment.waves.components.amplitude"),
    ("unknown stretching", _sea(water_level=0.0, waves={**AIRY, "stretching": "magic"}),
     "environment.waves.stretching"),
    ("zero wave depth", _sea(water_level=0.0, waves={**AIRY, "depth": 0.0}),
     "environment.waves.depth"),
    ("negative wave grid tolerance",
     _sea(water_level=0.0, waves={**AIRY, "grid": {"tolerance": -0.1}}),
     "environment.waves.grid.tolerance"),
    ("reversed wave grid range",
     _sea(water_level=0.0, waves={**AIRY, "grid": {"x": [10.0, 0.0]}}),
     "environment.waves.grid.x"),
    ("waves without a water level", _sea(waves=dict(AIRY)), "environment.waves"),
    ("wind without a water level", _sea(wind=[5.0, 0.0, 0.0]), "environment.wind"),
    ("air density without a water level", _sea(air_density=1.2),
     "environment.air_density"),
    ("negative air density", _sea(water_level=0.0, air_density=-1.0),
     "environment.air_density"),
    ("water level in a vacuum",
     _sections(environment={"fluid_density": 0.0, "water_level": 0.0}),
     "environment.fluid_density"),
    ("sea with gravity along +z", _sea(water_level=0.0, gravity=[0.0, 0.0, 9.81]),
     "environment.gravity"),
    ("current table with decreasing z",
     _sea(current={"z": [0.0, -10.0], "x": [1.0, 0.0]}), "environment.current.z"),
    ("current table of unequal columns",
     _sea(current={"z": [-10.0, 0.0], "x": [1.0]}), "environment.current.x"),
    ("current table with components and speed",
     _sea(current={"z": [-10.0, 0.0], "x": [1.0, 1.0], "speed": [1.0, 1.0]}),
     "environment.current.speed"),
    ("current table with a negative speed",
     _sea(current={"z": [-10.0, 0.0], "speed": [1.0, -1.0]}), "environment.current.speed"),
    ("current table with NaN", _sea(current={"z": [-10.0, 0.0], "x": [1.0, NAN]}),
     "environment.current.x"),
    ("current power law without a base", _sea(water_level=0.0,
                                              current={"type": "power_law", "speed": 1.0}),
     "environment.current.base_z"),
    ("power law reference below its base",
     _sea(water_level=0.0, wind={"type": "power_law", "speed": 10.0, "reference_z": -1.0}),
     "environment.wind.reference_z"),
    ("negative power-law exponent",
     _sea(water_level=0.0, wind={"type": "power_law", "speed": 10.0, "exponent": -0.1}),
     "environment.wind.exponent"),
    ("unknown power-law key",
     _sea(water_level=0.0, wind={"type": "power_law", "speed": 10.0, "height": 3.0}),
     "environment.wind.height"),
    ("wind of 2 components", _sea(water_level=0.0, wind=[5.0, 0.0]), "environment.wind"),
    ("planar model with waves across its plane",
     _both(_set("model.type", "ancf2d"), _set("tether.EI", 1.0),
           _sea(water_level=0.0, waves={**AIRY, "direction_deg": 90.0})),
     "environment.waves.direction_deg"),
    ("planar model with a current profile across its plane",
     _both(_set("model.type", "ancf2d"), _set("tether.EI", 1.0),
           _sea(current={"z": [-10.0, 0.0], "x": [0.0, 1.0], "y": [0.0, 0.5]})),
     "environment.current"),
]


@pytest.mark.parametrize(
    ("mutate", "key"), [pytest.param(m, k, id=i) for i, m, k in BAD_SEA]
)
def test_bad_sea_names_key(small_case, mutate, key):
    case = small_case()
    mutate(case)
    _rejects(case, key)


def test_sea_keys_fill_defaults(small_case, tmp_path):
    """A full sea loads; the bathymetry CSV (relative to the case file) becomes a grid."""
    (tmp_path / "bed.csv").write_text("x,y,z\n0,0,-30\n10,0,-32\n0,5,-31\n10,5,-33\n")
    case = small_case()
    case["environment"] = {
        "fluid_density": 1025.0, "water_level": 0.0,
        "current": {"z": [-30.0, 0.0], "speed": [0.0, 1.0], "direction_deg": [90.0, 90.0]},
        "wind": {"type": "power_law", "speed": 10.0},
        "waves": dict(JONSWAP),
        "seabed": {"bathymetry": "bed.csv", "friction": {"axial": 0.3}}}
    env = load_case(case, base_dir=tmp_path).environment
    assert env.air == 1.225 and env.uniform_current is None
    assert env.flow_law("wind") == (0.12, 0.0, 10.0)
    assert env.waves.n_components == 200 and env.waves.jonswap_gamma == 3.3
    assert env.waves.stretching == "wheeler"
    x, y, z = env.seabed.grid
    np.testing.assert_array_equal(x, [0.0, 10.0])
    np.testing.assert_array_equal(z, [[-30.0, -31.0], [-32.0, -33.0]])
    assert env.seabed.stiffness == 3.0e6 and env.seabed.damping == 3.0e5
    assert env.seabed.friction.lateral == 0.0
    assert env.wave_depth == math.inf
    flat = small_case()
    flat["environment"] = {"fluid_density": 1025.0, "water_level": 2.0,
                           "seabed": {"z": -48.0}, "waves": dict(AIRY)}
    assert load_case(flat).environment.wave_depth == 50.0
    assert load_case(small_case()).environment.uniform_current == (0.0, 0.0, 0.0)


def test_wave_grid_that_misses_the_line_is_rejected(small_case):
    """A user's wave grid range must cover the line's initial nodes (the small case hangs
    from the origin down z over its length)."""
    case = small_case()
    case["environment"] = {"fluid_density": 1025.0, "water_level": 0.0,
                           "waves": {**AIRY, "grid": {"z": [-0.1, 1.0]}}}
    msg = _rejects(case, "environment.waves.grid.z")
    assert "node" in msg
    case["environment"]["waves"]["grid"] = {"z": [-1000.0, 1.0], "x": [-5.0, 5.0]}
    load_case(case)
