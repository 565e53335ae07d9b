"""MoorDyn v2 input files as tetherdyn cases (``lumped_mass``), one case per line.

MoorDyn (Hall & Goupee 2015; MoorDyn-C 2.7.2 is the reference here) describes a mooring
system in a plain-text file split into sections by header lines that contain ``---`` and a
key phrase.  This module reads the sections a single line needs -- LINE TYPES,
POINTS, LINES, OPTIONS -- and turns every line into a case dict for our lumped-mass model,
which is MoorDyn's own discretisation (seed 004 §2.2: N segments, half of each segment's
mass, buoyancy and added mass lumped on its two nodes, a tension-only Voigt element).

The mapping, its limits and the check against MoorDyn itself are documented in
``docs/moordyn_input.md``.  Every input we cannot represent raises :class:`CaseError` whose
message names the file line, the section, the row and the problem.

Public functions: :func:`parse_moordyn_file` (the deck as data), :func:`read_moordyn_file`
(one case dict per line) and :func:`moordyn_to_case` (the validated case of one line).
"""

from __future__ import annotations

import copy
import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .boundary import load_trajectory
from .case import CaseError, CaseWarning, load_case

__all__ = [
    "MoorDynDeck",
    "parse_moordyn_file",
    "read_moordyn_file",
    "moordyn_to_case",
    "moordyn_to_system",
    "equilibrium_nodes",
    "MOORDYN_GRAVITY",
    "MOORDYN_WATER_DENSITY",
]

#: MoorDyn-C 2.7.2 defaults when OPTIONS omits g / rho (checked against the library)
MOORDYN_GRAVITY = 9.80665
MOORDYN_WATER_DENSITY = 1025.0

# section key -> header phrases MoorDyn-C 2.7.2 recognises (substring of the upper-cased
# header line, as its findStartOfSection does); the order resolves overlaps
_SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("LINE TYPES", ("LINE DICTIONARY", "LINE TYPES")),
    ("ROD TYPES", ("ROD DICTIONARY", "ROD TYPES")),
    ("BODIES", ("BODIES", "BODY LIST", "BODY PROPERTIES")),
    ("POINTS", ("POINTS", "POINT LIST", "POINT PROPERTIES", "CONNECTION PROPERTIES",
                "NODE PROPERTIES")),
    ("RODS", ("RODS", "ROD LIST", "ROD PROPERTIES")),
    ("LINES", ("LINES", "LINE LIST", "LINE PROPERTIES")),
    ("FAILURE", ("FAILURE",)),
    ("CONTROL", ("CONTROL",)),
    ("EXTERNAL LOADS", ("EXTERNAL LOADS",)),
    ("OPTIONS", ("OPTIONS",)),
    ("OUTPUTS", ("OUTPUT",)),
)
#: sections whose first data row follows the header directly (no label and unit rows)
_UNTABULATED = ("OPTIONS", "OUTPUTS")
#: sections tetherdyn cannot represent: accepted only when they hold no rows
_UNSUPPORTED = {
    "ROD TYPES": "rods are not supported (tetherdyn simulates one flexible line)",
    "RODS": "rods are not supported (tetherdyn simulates one flexible line)",
    "FAILURE": "line failures are not supported",
    "CONTROL": "line length control is not supported",
    "EXTERNAL LOADS": "external loads sections are not supported (MoorDyn-F only)",
}
_COMMENT_CHARS = "!#%"

# point attachment words (MoorDyn-C 2.7.2 readers, case-insensitive)
_FIXED = ("FIXED", "ANCHOR", "FIX")
_COUPLED = ("COUPLED", "VESSEL", "VES", "CPLD", "FAIRLEAD")
_FREE = ("FREE", "CONNECT", "CON", "POINT")

# options: handled, ignored without effect on the dynamics, and refused
_IGNORED_OPTIONS = {
    "writeLog", "disableOutput", "disableOutTime", "WriteUnits", "dtIC", "ICdt",
    "TmaxIC", "ICTmax", "CdScaleIC", "ICDfac", "threshIC", "ICthresh", "ICgenDynamic",
    "UnifyCurrentGrid", "Echo",
}
#: MoorDyn-C 2.7.2 defaults of the seabed options (MoorDyn docs, inputs: Options)
MOORDYN_KBOT = 3.0e6  # [Pa/m]
MOORDYN_CBOT = 3.0e5  # [Pa s/m]
#: the MoorDyn-C input files WaveKin / Currents read from the deck's folder (MoorDyn docs,
#: water kinematics)
WAVE_FREQUENCIES_FILE = "wave_frequencies.txt"
CURRENT_PROFILE_FILE = "current_profile.txt"
# WaveKin / Currents modes we cannot map, and why (MoorDyn docs, water kinematics)
_WAVEKIN_REFUSED = {
    1: "externally driven wave kinematics (set through MoorDyn's API at run time)",
    2: "an FFT wave grid (MoorDyn interpolates its spectrum and the grid linearly); give "
       "the same wave_frequencies.txt with WaveKin 7 (component summing), which tetherdyn "
       "maps exactly",
    3: "a wave grid from a measured elevation time series (wave_elevation.txt)",
}
_CURRENTS_REFUSED = {
    2: "a dynamic (time-varying) current profile",
    5: "a 4D current grid",
}


@dataclass
class _Row:
    lineno: int  # 1-based line number in the file
    index: int  # 1-based data row number within its section
    fields: list[str]


@dataclass
class _Section:
    key: str
    lineno: int  # header line
    label: list[str] = field(default_factory=list)  # column-name row (tables)
    rows: list[_Row] = field(default_factory=list)


@dataclass(frozen=True)
class LineType:
    """One LINE TYPES row (SI units as MoorDyn: d [m], w [kg/m], EA [N], BA [N s] or -zeta)."""

    name: str
    d: float
    w: float
    EA: float
    BA: float
    EI: float
    Cd: float
    Ca: float
    CdAx: float
    CaAx: float
    lineno: int
    index: int


@dataclass(frozen=True)
class Point:
    """One POINTS row; ``kind`` is 'fixed', 'coupled', 'free' or 'body' (on body ``body``,
    ``r`` then in its axes from its reference point); F is the optional force [N]."""

    id: int
    kind: str
    word: str
    r: tuple[float, float, float]
    M: float
    V: float
    CdA: float
    Ca: float
    F: tuple[float, float, float]
    lineno: int
    index: int
    body: int = 0


@dataclass(frozen=True)
class MDBody:
    """One BODIES row (MoorDyn-C 2.7.2's readBody): ``kind`` 'fixed', 'coupled' or 'free';
    r6 = X0 Y0 Z0 [m], r0 p0 y0 [deg]; CG [m], I (diagonal) [kg m^2]; CdA (6: translational,
    rotational, as MoorDyn fills them from 1 or 2 values; 3 or 6 values as written) and Ca
    (3, translational)."""

    id: int
    kind: str
    r6: tuple[float, ...]
    M: float
    CG: tuple[float, float, float]
    I: tuple[float, float, float]  # noqa: E741
    V: float
    CdA: tuple[float, ...]
    Ca: tuple[float, float, float]
    lineno: int
    index: int


@dataclass(frozen=True)
class Line:
    """One LINES row: a line of ``line_type`` from point ``a`` (end A) to point ``b``."""

    id: int
    line_type: str
    a: int
    b: int
    length: float  # UnstrLen as written (negative: a factor on the A-B distance)
    n_segments: int
    lineno: int
    index: int


@dataclass
class MoorDynDeck:
    """A parsed MoorDyn v2 input file (only what tetherdyn uses, with file positions)."""

    path: Path
    line_types: dict[str, LineType]
    points: dict[int, Point]
    lines: list[Line]
    options: dict[str, tuple[str, int]]  # name -> (value text, file line)
    warnings: list[str] = field(default_factory=list)
    bodies: dict[int, MDBody] = field(default_factory=dict)

    def option(self, names: tuple[str, ...], default: float | None) -> float | None:
        """A numeric option under any of its names (MoorDyn's last occurrence wins)."""
        found = None
        for name in names:
            if name in self.options:
                found = self.options[name]
        if found is None:
            return default
        text, lineno = found
        try:
            return float(text)
        except ValueError:
            raise CaseError(self._where(lineno, "OPTIONS",
                            f"option {names[0]}: {text!r} is not a number")) from None

    @property
    def gravity(self) -> float:
        """MoorDyn's g [m/s^2] (acts along -z)."""
        return float(self.option(("g", "gravity"), MOORDYN_GRAVITY))

    @property
    def water_density(self) -> float:
        """MoorDyn's water density [kg/m^3]."""
        return float(self.option(("WtrDnsty", "rho", "Rho", "rhoW"), MOORDYN_WATER_DENSITY))

    @property
    def seabed_z(self) -> float:
        """Seabed height [m]: -WtrDpth, lowered to the deepest point as MoorDyn-C does."""
        depth = float(self.option(("WtrDpth",), 0.0))
        lowest = min((p.r[2] for p in self.points.values()), default=0.0)
        return min(-depth, lowest)

    @property
    def seabed_stiffness(self) -> float:
        """MoorDyn's kBot [Pa/m]: contact pressure per unit penetration."""
        return float(self.option(("kBot", "kb"), MOORDYN_KBOT))

    @property
    def seabed_damping(self) -> float:
        """MoorDyn's cBot [Pa s/m]."""
        return float(self.option(("cBot", "cb"), MOORDYN_CBOT))

    @property
    def friction(self) -> tuple[float, float]:
        """Seabed friction coefficients (axial, lateral): MoorDyn-C's FrictionCoefficient
        for both, or MoorDyn-F's MU_KA / MU_KT where given."""
        mu = float(self.option(("FrictionCoefficient",), 0.0))
        return (float(self.option(("MU_KA",), mu)), float(self.option(("MU_KT",), mu)))

    def _where(self, lineno: int, section: str, msg: str) -> str:
        return f"{self.path.name}:{lineno}: {section}: {msg}"


# --------------------------------------------------------------------------------------
# Reading the file
# --------------------------------------------------------------------------------------


def _strip_comment(text: str) -> str:
    cut = min((i for i in (text.find(c) for c in _COMMENT_CHARS) if i >= 0), default=-1)
    return text if cut < 0 else text[:cut]


def _section_key(header: str) -> str | None:
    up = header.upper()
    for key, phrases in _SECTIONS:
        if any(p in up for p in phrases):
            return key
    return None


def _split_sections(path: Path, text: str) -> tuple[dict[str, _Section], list[str]]:
    lines = text.splitlines()
    sections: dict[str, _Section] = {}
    notes: list[str] = []
    current: _Section | None = None
    skip = 0  # label/unit rows still to skip after a table header
    unknown_first = True
    for k, raw in enumerate(lines, start=1):
        if "---" in raw:
            key = _section_key(raw)
            if key is None:
                # the file's title banner, "need this line" or a section MoorDyn ignores
                title = raw.strip("-= \t")
                if not unknown_first and title and "NEED THIS LINE" not in title.upper():
                    notes.append(f"{path.name}:{k}: section '{title}' is not read (ignored)")
                unknown_first = False
                current = None
                continue
            unknown_first = False
            if key in sections:
                raise CaseError(f"{path.name}:{k}: {key}: the section appears twice "
                                f"(first at line {sections[key].lineno})")
            current = _Section(key, k)
            sections[key] = current
            skip = 0 if key in _UNTABULATED else 2
            continue
        if current is None:
            continue
        if skip:
            if skip == 2:
                current.label = raw.split()
            skip -= 1
            continue
        fields = _strip_comment(raw).split()
        if not fields:
            continue
        if current.key == "OUTPUTS" and fields[0].upper() == "END":
            current = None
            continue
        current.rows.append(_Row(k, len(current.rows) + 1, fields))
    return sections, notes


def _number(deck_path: Path, row: _Row, section: str, column: str, text: str) -> float:
    if "|" in text:
        raise CaseError(
            f"{deck_path.name}:{row.lineno}: {section} row {row.index}: {column} = {text!r}: "
            "bar-separated (nonlinear / viscoelastic) values are not supported"
        )
    try:
        value = float(text)
    except ValueError:
        raise CaseError(
            f"{deck_path.name}:{row.lineno}: {section} row {row.index}: {column} = {text!r} is "
            "not a number (lookup-table files are not supported)"
        ) from None
    if not math.isfinite(value):
        raise CaseError(f"{deck_path.name}:{row.lineno}: {section} row {row.index}: "
                        f"{column} must be finite")
    return value


def _integer(deck_path: Path, row: _Row, section: str, column: str, text: str) -> int:
    value = _number(deck_path, row, section, column, text)
    if not value.is_integer():
        raise CaseError(f"{deck_path.name}:{row.lineno}: {section} row {row.index}: "
                        f"{column} = {text!r} must be an integer")
    return int(value)


def _point_ref(text: str) -> tuple[str, str]:
    """Split an attachment word like 'P3', 'Point3', 'R1A', 'Body2' into (letters, digits)."""
    letters = ""
    i = 0
    while i < len(text) and text[i].isalpha():
        letters += text[i]
        i += 1
    digits = ""
    while i < len(text) and text[i].isdigit():
        digits += text[i]
        i += 1
    return letters.upper(), digits + text[i:].upper()


def parse_moordyn_file(path: str | Path) -> MoorDynDeck:
    """Read a MoorDyn v2 input file into a :class:`MoorDynDeck` (no mapping yet).

    Raises CaseError, naming ``file:line``, the section and the row, for anything this
    module cannot represent (rods, bodies, failures, nonlinear line properties, v1 layouts,
    rows with missing columns, unknown line types or points).
    """
    path = Path(path)
    if not path.is_file():
        raise CaseError(f"MoorDyn input file not found: {path}")
    sections, notes = _split_sections(path, path.read_text(errors="replace"))
    name = path.name

    def err(section: str, row: _Row, msg: str) -> CaseError:
        return CaseError(f"{name}:{row.lineno}: {section} row {row.index}: {msg}")

    for key, why in _UNSUPPORTED.items():
        sec = sections.get(key)
        if sec is not None and sec.rows:
            raise err(key, sec.rows[0], why)
    for key in ("LINE TYPES", "POINTS", "LINES"):
        if key not in sections or not sections[key].rows:
            raise CaseError(f"{name}: {key}: the section is missing or empty "
                            "(MoorDyn v2 input needs LINE TYPES, POINTS and LINES)")

    # LINE TYPES: TypeName Diam Mass/m EA BA/-zeta EI Cd Ca CdAx CaAx [Cl dF cF]
    line_types: dict[str, LineType] = {}
    viv: dict[str, tuple[_Row, str]] = {}
    for row in sections["LINE TYPES"].rows:
        f = row.fields
        if len(f) < 10:
            hint = (" (this looks like the MoorDyn v1 layout Name Diam MassDen EA BA Can Cat Cdn "
                    "Cdt; MoorDyn v2 needs TypeName Diam Mass/m EA BA/-zeta EI Cd Ca CdAx CaAx)"
                    if len(f) == 9 else
                    " (TypeName Diam Mass/m EA BA/-zeta EI Cd Ca CdAx CaAx)")
            raise err("LINE TYPES", row, f"10 columns needed, got {len(f)}{hint}")
        cols = ("Diam", "Mass/m", "EA", "BA/-zeta", "EI", "Cd", "Ca", "CdAx", "CaAx")
        vals = {c: _number(path, row, "LINE TYPES", c, f[1 + j]) for j, c in enumerate(cols)}
        if len(f) > 10 and _number(path, row, "LINE TYPES", "Cl", f[10]) != 0.0:
            viv[f[0]] = (row, f[10])  # refused below if a line of this type has inner nodes
        for c in ("Diam", "Mass/m", "EA"):
            if vals[c] <= 0:
                raise err("LINE TYPES", row, f"{c} = {f[cols.index(c) + 1]} must be > 0")
        for c in ("EI", "Cd", "Ca", "CdAx", "CaAx"):
            if vals[c] < 0:
                raise err("LINE TYPES", row, f"{c} = {f[cols.index(c) + 1]} must be >= 0")
        if f[0] in line_types:
            raise err("LINE TYPES", row, f"line type '{f[0]}' is defined twice")
        line_types[f[0]] = LineType(
            f[0], vals["Diam"], vals["Mass/m"], vals["EA"], vals["BA/-zeta"], vals["EI"],
            vals["Cd"], vals["Ca"], vals["CdAx"], vals["CaAx"], row.lineno, row.index)

    bodies = _parse_bodies(path, sections.get("BODIES"), err)

    # POINTS: ID Attachment X Y Z Mass Volume CdA Ca  (or ... Mass Volume FX FY FZ CdA Ca)
    points: dict[int, Point] = {}
    for row in sections["POINTS"].rows:
        f = row.fields
        pid = _row_id(path, row, "POINTS", POINT_COLUMNS, err, " (MoorDyn attaches lines by row)")
        r = tuple(_number(path, row, "POINTS", c, f[2 + j]) for j, c in enumerate("XYZ"))
        M = _number(path, row, "POINTS", "Mass", f[5])
        V = _number(path, row, "POINTS", "Volume", f[6])
        if len(f) >= 12:  # older layout with a steady force FX FY FZ [N]
            F = tuple(_number(path, row, "POINTS", c, f[7 + j])
                      for j, c in enumerate(("FX", "FY", "FZ")))
            CdA = _number(path, row, "POINTS", "CdA", f[10])
            Ca = _number(path, row, "POINTS", "Ca", f[11])
        else:
            F = (0.0, 0.0, 0.0)
            CdA = _number(path, row, "POINTS", "CdA", f[7])
            Ca = _number(path, row, "POINTS", "Ca", f[8])
        _non_negative(row, "POINTS", err, (("Mass", M), ("Volume", V), ("CdA", CdA),
                                           ("Ca", Ca)))
        word, digits = _point_ref(f[1])
        on_body = 0
        if word in _FIXED:
            kind = "fixed"
        elif word in _COUPLED:
            kind = "coupled"
        elif word in _FREE:
            kind = "free"
        elif word in ("BODY", "B") and digits.isdigit():
            kind, on_body = "body", int(digits)
            if on_body not in bodies:
                raise err("POINTS", row, f"attachment '{f[1]}': there is no body {on_body} "
                          f"(BODIES has {len(bodies)})")
            if M != 0.0 or V != 0.0 or CdA != 0.0 or Ca != 0.0 or len(f) >= 12:
                raise err("POINTS", row, f"attachment '{f[1]}': a point on a body with its "
                          "own Mass, Volume, CdA, Ca or force is not supported (give them to "
                          "the body)")
        elif word == "TURBINE":
            raise err("POINTS", row, f"attachment '{f[1]}': turbines are not supported")
        else:
            raise err("POINTS", row, f"attachment '{f[1]}' is not one of Fixed/Anchor, "
                      "Coupled/Vessel, Free/Connect")
        points[pid] = Point(pid, kind, f[1], r, M, V, CdA, Ca, F, row.lineno, row.index,
                            on_body)

    # LINES: ID LineType AttachA AttachB UnstrLen NumSegs LineOutputs
    lines: list[Line] = []
    label = [c.upper() for c in sections["LINES"].label]
    v1_layout = len(label) >= 6 and label[2] == "UNSTRLEN"
    for row in sections["LINES"].rows:
        f = row.fields
        if v1_layout:
            raise err("LINES", row, "MoorDyn v1 column order (Line LineType UnstrLen NumSegs "
                      "NodeAnch NodeFair Flags); MoorDyn v2 reads ID LineType AttachA AttachB "
                      "UnstrLen NumSegs LineOutputs")
        lid = _row_id(path, row, "LINES", LINE_COLUMNS, err)
        if f[1] not in line_types:
            raise err("LINES", row, f"unknown line type '{f[1]}' (LINE TYPES defines "
                      f"{', '.join(sorted(line_types))})")
        ends = []
        for col, word in (("AttachA", f[2]), ("AttachB", f[3])):
            letters, rest = _point_ref(word)
            if letters in ("R", "ROD"):
                raise err("LINES", row, f"{col} = {word}: lines attached to rods are not "
                          "supported")
            if letters not in ("", "P", "POINT", "C", "CON") or not rest.isdigit():
                raise err("LINES", row, f"{col} = {word} is not a point ID")
            pid = int(rest)
            if pid not in points:
                raise err("LINES", row, f"{col} = {word}: there is no point {pid} "
                          f"(POINTS has {len(points)})")
            ends.append(pid)
        if ends[0] == ends[1]:
            raise err("LINES", row, f"AttachA and AttachB are the same point {ends[0]}")
        length = _number(path, row, "LINES", "UnstrLen", f[4])
        if length == 0:
            raise err("LINES", row, "UnstrLen must not be 0")
        nseg = _integer(path, row, "LINES", "NumSegs", f[5])
        if nseg < 1:
            raise err("LINES", row, f"NumSegs = {f[5]} must be >= 1")
        lines.append(Line(lid, f[1], ends[0], ends[1], length, nseg, row.lineno, row.index))
    # MoorDyn's VIV lift acts on a line's inner nodes only (Line.cpp, Lf: i != 0 && i != N)
    viv_notes = []
    for type_name, (row, cl) in viv.items():
        inner = [ln.id for ln in lines if ln.line_type == type_name and ln.n_segments > 1]
        if inner:
            raise err("LINE TYPES", row, f"Cl = {cl}: vortex-induced vibration (VIV) lift is "
                      f"not supported (set Cl to 0; line {inner[0]} of this type has inner "
                      "nodes)")
        viv_notes.append(f"{name}:{row.lineno}: LINE TYPES row {row.index}: Cl = {cl}: not "
                         "used: MoorDyn's VIV lift acts on inner nodes only, and every line "
                         f"of type '{type_name}' has one segment")

    # OPTIONS: "value name" rows
    options: dict[str, tuple[str, int]] = {}
    for row in sections.get("OPTIONS", _Section("OPTIONS", 0)).rows:
        if len(row.fields) < 2:
            raise err("OPTIONS", row, f"expected 'value name', got {' '.join(row.fields)!r}")
        options[row.fields[1]] = (row.fields[0], row.lineno)

    deck = MoorDynDeck(path, line_types, points, lines, options, notes, bodies)
    deck.warnings.extend(viv_notes)
    outputs = sections.get("OUTPUTS")
    if outputs is not None and outputs.rows:
        chans = " ".join(" ".join(r.fields) for r in outputs.rows)
        deck.warnings.append(
            f"{name}:{outputs.lineno}: OUTPUTS: output channels ({chans}) are not read; "
            "tetherdyn's results hold every node's position and velocity, the element "
            "tensions and both end forces"
        )
    _check_options(deck)
    return deck


#: the columns of a POINTS, LINES and BODIES row (MoorDyn v2; POINTS may add FX FY FZ)
POINT_COLUMNS = ("ID", "Attachment", "X", "Y", "Z", "Mass", "Volume", "CdA", "Ca")
LINE_COLUMNS = ("ID", "LineType", "AttachA", "AttachB", "UnstrLen", "NumSegs", "LineOutputs")
BODY_COLUMNS = ("ID", "Attachment", "X0", "Y0", "Z0", "r0", "p0", "y0", "Mass", "CG*", "I*",
                "Volume", "CdA*", "Ca*")


def _row_id(path: Path, row: _Row, section: str, columns: tuple[str, ...], err,
            note: str = "") -> int:
    """A POINTS, LINES or BODIES row's ID, after checking it has ``columns`` and that IDs
    run 1, 2, 3, ... by row (MoorDyn numbers objects by row)."""
    f = row.fields
    if len(f) < len(columns):
        raise err(section, row, f"{len(columns)} columns needed ({' '.join(columns)}), got "
                  f"{len(f)}")
    rid = _integer(path, row, section, "ID", f[0])
    if rid != row.index:
        kind = {"POINTS": "point", "LINES": "line", "BODIES": "body"}[section]
        raise err(section, row, f"ID {f[0]}: {kind} IDs must run 1, 2, 3, ... in order{note}, "
                  f"expected {row.index}")
    return rid


def _non_negative(row: _Row, section: str, err, values) -> None:
    """Refuse a negative value among ``values`` ((column, value) pairs) of a row."""
    for c, v in values:
        if v < 0:
            raise err(section, row, f"{c} = {v:g} must be >= 0")


def _parse_bodies(path: Path, sec: _Section | None, err) -> dict[int, MDBody]:
    """BODIES: ID Attachment X0 Y0 Z0 r0 p0 y0 Mass CG* I* Volume CdA* Ca* (MoorDyn-C
    2.7.2's readBody: CG one value is z, I one value all three, CdA one value all six and
    two values translational | rotational, Ca one value all three)."""
    bodies: dict[int, MDBody] = {}
    for row in (sec.rows if sec is not None else []):
        f = row.fields
        bid = _row_id(path, row, "BODIES", BODY_COLUMNS, err)
        word, _ = _point_ref(f[1])
        if word in _FIXED:
            kind = "fixed"
        elif word in ("VESSEL", "VES", "COUPLED", "CPLD"):
            kind = "coupled"
        elif word in ("VESSELPINNED", "VESPIN", "CPLDPIN", "COUPLEDPINNED"):
            raise err("BODIES", row, f"attachment '{f[1]}': pinned bodies (coupled "
                      "translation, free rotation) are not supported")
        else:
            kind = "free"  # MoorDyn: anything else is free
        cols = ("X0", "Y0", "Z0", "r0", "p0", "y0")
        r6 = tuple(_number(path, row, "BODIES", c, f[2 + j]) for j, c in enumerate(cols))
        M = _number(path, row, "BODIES", "Mass", f[8])
        V = _number(path, row, "BODIES", "Volume", f[11])

        def split(k: int, col: str, sizes: tuple[int, ...], f=f, row=row) -> list[float]:
            parts = f[k].split("|")
            if len(parts) not in sizes:
                raise err("BODIES", row, f"{col} = {f[k]}: {' or '.join(map(str, sizes))} "
                          "numbers separated by |")
            return [_number(path, row, "BODIES", col, x) for x in parts]

        cg = split(9, "CG*", (1, 3))
        CG = (0.0, 0.0, cg[0]) if len(cg) == 1 else tuple(cg)
        inertia = split(10, "I*", (1, 3))
        Ib = tuple(inertia * 3) if len(inertia) == 1 else tuple(inertia)
        cda = split(12, "CdA*", (1, 2, 3, 6))
        if len(cda) == 1:
            CdA = tuple(cda * 6)
        elif len(cda) == 2:
            CdA = (cda[0],) * 3 + (cda[1],) * 3
        elif len(cda) == 3:
            CdA = tuple(cda * 2)
        else:
            CdA = tuple(cda)
        ca = split(13, "Ca*", (1, 3))
        Ca = tuple(ca * 3) if len(ca) == 1 else tuple(ca)
        _non_negative(row, "BODIES", err, (("Mass", M), ("Volume", V), *(("I*", x) for x in Ib),
                                           *(("CdA*", x) for x in CdA),
                                           *(("Ca*", x) for x in Ca)))
        bodies[bid] = MDBody(bid, kind, r6, M, CG, Ib, V, CdA, Ca, row.lineno, row.index)
    return bodies


def _check_options(deck: MoorDynDeck) -> None:
    """Refuse options that change the physics in a way we cannot represent."""
    name = deck.path.name
    known = {"dtM", "DT", "tScheme", "g", "gravity", "WtrDnsty", "rho", "Rho", "rhoW",
             "WtrDpth", "WaveKin", "Currents", "SeafloorFile", "dtOut", "CFL", "kBot", "kb",
             "cBot", "cb", "FrictionCoefficient", "FricDamp", "StatDynFricScale", "MU_KA",
             "MU_KT", "MC", "CV", "dtWave", "waveKin_rampT"}
    for opt, (text, lineno) in deck.options.items():
        where = f"{name}:{lineno}: OPTIONS: {opt} = {text}"
        if opt == "WaveKin":
            mode = deck.option((opt,), 0.0)
            if mode != 0.0 and mode != 7.0:
                what = _WAVEKIN_REFUSED.get(int(mode), "not a MoorDyn-C wave mode")
                raise CaseError(f"{where}: {what} is not supported (tetherdyn maps WaveKin 0, "
                                f"no waves, and 7, the components of {WAVE_FREQUENCIES_FILE})")
        elif opt == "Currents":
            mode = deck.option((opt,), 0.0)
            if mode != 0.0 and mode != 1.0:
                what = _CURRENTS_REFUSED.get(int(mode), "not a MoorDyn-C current mode")
                raise CaseError(f"{where}: {what} is not supported (tetherdyn maps Currents "
                                f"0, none, and 1, the steady profile of "
                                f"{CURRENT_PROFILE_FILE})")
        elif opt == "WaterKin":
            raise CaseError(f"{where}: MoorDyn-F's water kinematics file is not read (give "
                            "MoorDyn-C's WaveKin 7 / Currents 1 inputs)")
        elif opt == "tScheme" and text.upper() != "RK4":
            deck.warnings.append(f"{where}: tetherdyn integrates with rk4 (MoorDyn would use "
                                 f"{text})")
        elif opt == "CFL" and ("dtM" in deck.options or "DT" in deck.options):
            deck.warnings.append(f"{where}: ignored; the step is dtM (MoorDyn-C would take "
                                 "the smaller of dtM and the CFL step)")
        elif opt in ("FricDamp", "CV") and deck.friction != (0.0, 0.0):
            # MoorDyn Line.cpp: friction = min(CV |v| mu N, mu N), a saturated viscous law
            deck.warnings.append(
                f"{where}: not used: MoorDyn's seabed friction is saturated viscous (it "
                "ramps up with the sliding speed, slope FricDamp, so a line at rest on a "
                "slope creeps); tetherdyn's is Coulomb with a stick phase (seabed.friction)")
        elif opt in ("StatDynFricScale", "MC") and deck.option((opt,), 1.0) != 1.0:
            deck.warnings.append(
                f"{where}: not used: tetherdyn's Coulomb friction has one coefficient for "
                "sticking and sliding (the dynamic one, FrictionCoefficient / MU_KA / MU_KT)")
        elif opt == "waveKin_rampT" and deck.option((opt,), 0.0) != 0.0 and (
                deck.option(("WaveKin",), 0.0) != 0.0):
            deck.warnings.append(f"{where}: not used: tetherdyn's waves run at full height "
                                 "from t = 0 (MoorDyn ramps them up over this time)")
        elif opt not in known and opt not in _IGNORED_OPTIONS:
            deck.warnings.append(f"{where}: unknown option, ignored")
    for opt in ("g", "gravity", "WtrDnsty", "rho", "Rho", "rhoW", "WtrDpth", "dtM", "DT",
                "dtOut", "kBot", "kb", "cBot", "cb", "FrictionCoefficient", "MU_KA", "MU_KT"):
        if opt in deck.options:
            v = deck.option((opt,), None)
            lineno = deck.options[opt][1]
            if v is not None and (v < 0 or (v == 0 and opt in ("dtM", "DT"))):
                raise CaseError(f"{name}:{lineno}: OPTIONS: {opt} = {v:g} must be "
                                f"{'> 0' if opt in ('dtM', 'DT') else '>= 0'}")


# --------------------------------------------------------------------------------------
# Water kinematics and bathymetry input files (MoorDyn docs: water kinematics, seafloor)
# --------------------------------------------------------------------------------------


def _data_rows(path: Path, skip: int = 0) -> list[tuple[int, list[str]]]:
    """(1-based line number, fields) of the non-blank rows after ``skip`` header lines."""
    rows = []
    for k, raw in enumerate(path.read_text(errors="replace").splitlines(), start=1):
        if k <= skip:
            continue
        fields = _strip_comment(raw).replace(",", " ").split()
        if fields:
            rows.append((k, fields))
    return rows


def _floats(path: Path, lineno: int, fields: list[str], what: str) -> list[float]:
    try:
        values = [float(f) for f in fields]
    except ValueError:
        raise CaseError(f"{path.name}:{lineno}: {what}: {' '.join(fields)!r} are not "
                        "numbers") from None
    if not all(math.isfinite(v) for v in values):
        raise CaseError(f"{path.name}:{lineno}: {what}: values must be finite")
    return values


def _input_file(deck: MoorDynDeck, file_name: str, option: str) -> Path:
    path = deck.path.parent / file_name
    if not path.is_file():
        text, lineno = deck.options[option]
        raise CaseError(f"{deck.path.name}:{lineno}: OPTIONS: {option} = {text} needs the "
                        f"file {file_name} next to the deck (not found: {path})")
    return path


def read_current_profile(path: str | Path) -> dict[str, list[float]]:
    """MoorDyn-C's steady current profile (``Currents 1``) as a case ``current`` table.

    The file: three header lines, then rows ``z ux uy uz`` [m, m/s] (MoorDyn docs, water
    kinematics, Currents = 1: linear between the rows, the nearest row beyond them -- our
    profile's rule too). Returns ``{z: [...], x: [...], y: [...]}`` with z increasing.
    A vertical component tetherdyn's profile does not carry is refused.
    """
    path = Path(path)
    rows = _data_rows(path, skip=3)
    if not rows:
        raise CaseError(f"{path.name}: no profile rows after the three header lines")
    table = []
    for lineno, fields in rows:
        if len(fields) not in (2, 3, 4):
            raise CaseError(f"{path.name}:{lineno}: current profile: expected 'z ux uy uz', "
                            f"got {len(fields)} columns")
        v = _floats(path, lineno, fields, "current profile") + [0.0] * (4 - len(fields))
        if v[3] != 0.0:
            raise CaseError(f"{path.name}:{lineno}: current profile: uz = {v[3]:g}: a "
                            "vertical current is not supported (tetherdyn's profile is "
                            "horizontal)")
        table.append(v)
    table.sort(key=lambda r: r[0])
    zs = [r[0] for r in table]
    if any(b <= a for a, b in zip(zs, zs[1:], strict=False)):
        raise CaseError(f"{path.name}: current profile: two rows at the same z")
    return {"z": zs, "x": [r[1] for r in table], "y": [r[2] for r in table]}


def read_wave_frequencies(path: str | Path) -> dict[str, list[float]]:
    """MoorDyn-C's wave components (``WaveKin 7``) as a case ``waves.components`` table.

    Rows ``omega re im [beta]``: angular frequency [rad/s], the complex amplitude [m] and
    the direction [rad]. MoorDyn sums ``|A| sin(omega t - k (x cos(beta) + y sin(beta)) +
    arg A)`` (MoorDyn-C SpectrumKin); our components are ``a cos(k.x - omega t + phase)``,
    so ``a = |A|``, ``phase = 90 deg - arg A``, ``frequency = omega / 2 pi`` [Hz],
    ``direction_deg = beta``. A row at omega = 0 carries no motion; with a non-zero
    imaginary part it would lift the mean level and is refused.
    """
    path = Path(path)
    rows = _data_rows(path)
    freq, amp, phase, direction = [], [], [], []
    for lineno, fields in rows:
        if len(fields) not in (3, 4):
            raise CaseError(f"{path.name}:{lineno}: wave components: expected 'omega re im "
                            f"[beta]', got {len(fields)} columns")
        v = _floats(path, lineno, fields, "wave components")
        omega, re, im = v[:3]
        beta = v[3] if len(v) == 4 else 0.0
        if omega < 0:
            raise CaseError(f"{path.name}:{lineno}: wave components: omega = {omega:g} "
                            "must be >= 0")
        if abs(beta) > 2 * math.pi:
            raise CaseError(f"{path.name}:{lineno}: wave components: beta = {beta:g} must "
                            "be in radians, within +-2 pi")
        if omega == 0.0:
            if im != 0.0:
                raise CaseError(f"{path.name}:{lineno}: wave components: omega = 0 with an "
                                f"imaginary part {im:g} lifts the mean water level (not "
                                "supported)")
            continue
        a = math.hypot(re, im)
        if a == 0.0:
            continue
        freq.append(omega / (2 * math.pi))
        amp.append(a)
        phase.append(90.0 - math.degrees(math.atan2(im, re)))
        direction.append(math.degrees(beta))
    if not freq:
        raise CaseError(f"{path.name}: no wave component with a non-zero amplitude")
    return {"frequency": freq, "amplitude": amp, "phase_deg": phase,
            "direction_deg": direction}


def read_seafloor_file(path: str | Path) -> dict[str, list[float]]:
    """MoorDyn-C's bathymetry file (``SeafloorFile``) as columns x, y, z [m].

    Line 1 ``nx ny``, line 2 the x ticks, line 3 the y ticks, then rows ``x y z`` on the
    grid (MoorDyn docs, seafloor file; MoorDyn-C Seafloor.cpp reads the third column as the
    seabed's z, negative below the surface). Every grid point must be given once.
    """
    path = Path(path)
    rows = _data_rows(path)
    if len(rows) < 4:
        raise CaseError(f"{path.name}: a seafloor file needs 'nx ny', the x ticks, the y "
                        "ticks and at least one 'x y z' row")
    (l0, f0), (l1, f1), (l2, f2) = rows[:3]
    n = _floats(path, l0, f0, "grid size")
    if len(n) != 2 or not all(v.is_integer() and v >= 2 for v in n):
        raise CaseError(f"{path.name}:{l0}: grid size: expected 'nx ny', integers >= 2")
    nx, ny = int(n[0]), int(n[1])
    xs = _floats(path, l1, f1, "x ticks")
    ys = _floats(path, l2, f2, "y ticks")
    for ticks, count, lineno, axis in ((xs, nx, l1, "x"), (ys, ny, l2, "y")):
        if len(ticks) != count:
            raise CaseError(f"{path.name}:{lineno}: {axis} ticks: {count} values expected, "
                            f"got {len(ticks)}")
        if any(b <= a for a, b in zip(ticks, ticks[1:], strict=False)):
            raise CaseError(f"{path.name}:{lineno}: {axis} ticks must increase")
    z = np.full((nx, ny), np.nan)
    for lineno, fields in rows[3:]:
        v = _floats(path, lineno, fields, "seafloor row")
        if len(v) != 3:
            raise CaseError(f"{path.name}:{lineno}: seafloor row: expected 'x y z'")
        if v[0] not in xs or v[1] not in ys:
            raise CaseError(f"{path.name}:{lineno}: seafloor row: ({v[0]:g}, {v[1]:g}) is not "
                            "a grid point")
        z[xs.index(v[0]), ys.index(v[1])] = v[2]
    if np.isnan(z).any():
        i, j = np.argwhere(np.isnan(z))[0]
        raise CaseError(f"{path.name}: seafloor: no row for the grid point ({xs[i]:g}, "
                        f"{ys[j]:g})")
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    return {"x": gx.ravel().tolist(), "y": gy.ravel().tolist(), "z": z.ravel().tolist()}


# --------------------------------------------------------------------------------------
# Static equilibrium of the lumped line (initial shape)
# --------------------------------------------------------------------------------------


def equilibrium_nodes(
    start: np.ndarray | None,
    end: np.ndarray | None,
    *,
    length: float,
    n_elements: int,
    mass_per_length: float,
    displaced_area: float,
    EA: float,
    fluid_density: float,
    gravity: np.ndarray,
    free_mass: float = 0.0,
    free_force: np.ndarray | None = None,
) -> np.ndarray:
    """Static equilibrium node positions [m] (N+1, 3) of the lumped-mass line in still fluid.

    Exactly one of ``start``/``end`` may be None (a free end carrying ``free_mass`` [kg]
    and ``free_force`` [N]); both given means both ends are held there.  Node loads are
    those of our ``lumped_mass`` model (and of MoorDyn): half of each adjacent element's
    weight minus buoyancy, ``(m_i - rho V_i) g``, seed 004 eqs. (2.13), (2.16).
    Tension-only elements of stretched length ``L_u (1 + T/EA)`` (seed 004 eq. 2.10).

    A free end: every element lines up with the resultant of the loads beyond it
    (the exact equilibrium of the chain of point loads).  Two held ends: the tension of the
    first element is found by Newton iteration (scipy ``root``) so that the chain closes on
    the other end, starting from Irvine's continuous elastic catenary
    (:func:`tetherdyn.analytic.elastic_catenary`).  Raises ValueError when there is no
    such equilibrium (a free end with no net load, a fold, no convergence).
    """
    from scipy import optimize

    from .analytic import elastic_catenary

    N = int(n_elements)
    Lu = length / N
    g = np.asarray(gravity, dtype=float)
    node_w = np.full(N + 1, (mass_per_length - fluid_density * displaced_area) * Lu)
    node_w[[0, -1]] *= 0.5
    loads = node_w[:, None] * g[None, :]  # (N+1, 3) net weight of the lumped line [N]

    if start is None or end is None:
        held = np.asarray(start if end is None else end, dtype=float)
        order = np.arange(N + 1) if end is None else np.arange(N, -1, -1)
        f_free = free_mass * g + (np.zeros(3) if free_force is None else free_force)
        ld = loads[order].copy()
        ld[-1] += f_free
        # resultant of the loads beyond each element, from the held end outwards
        beyond = np.cumsum(ld[::-1], axis=0)[::-1][1:]  # element k carries nodes k+1..N
        pos = np.empty((N + 1, 3))
        pos[0] = held
        prev = None
        for k in range(N):
            P = beyond[k]
            T = float(np.linalg.norm(P))
            if T <= 1e-12 * max(1.0, float(np.abs(ld).sum())):
                raise ValueError(f"no hanging equilibrium: element {k + 1} from the held end "
                                 "carries no load")
            u = P / T
            if prev is not None and float(u @ prev) < 0.0:
                raise ValueError("no hanging equilibrium: the line would fold back on itself "
                                 "(buoyant and heavy parts pull in opposite directions)")
            prev = u
            pos[k + 1] = pos[k] + Lu * (1.0 + T / EA) * u
        return pos[np.argsort(order)]

    a = np.asarray(start, dtype=float)
    b = np.asarray(end, dtype=float)
    gn = float(np.linalg.norm(g))
    down = g / gn if gn > 0 else np.array([0.0, 0.0, -1.0])
    chord = b - a
    rise = -float(chord @ down)
    horiz = chord + rise * down
    span = float(np.linalg.norm(horiz))
    if N == 1:
        return np.vstack([a, b])
    wet = (mass_per_length - fluid_density * displaced_area) * gn  # [N/m], signed
    if span < 1e-9 * length or wet == 0.0:
        raise ValueError("no catenary: the ends are on one vertical or the line has no net "
                         "weight (use initial='straight')")
    e_h = horiz / span
    up = -down if wet > 0 else down  # a buoyant line is a catenary upside down
    h = rise if wet > 0 else -rise
    cat = elastic_catenary(span, h, length, abs(wet), EA, n_points=N + 1)
    # tension vector of the first element, pointing along it: its vertical part is the
    # catenary's V(s) = w s - V_A (V_A: the support's upward reaction)
    guess = cat.H * e_h - cat.V_A * up

    def chain(t0: np.ndarray) -> np.ndarray:
        pos = np.empty((N + 1, 3))
        pos[0] = a
        t = t0.copy()
        for k in range(N):
            T = float(np.linalg.norm(t))
            pos[k + 1] = pos[k] + Lu * (1.0 + T / EA) * t / T
            t = t - loads[k + 1]  # node k+1 balance: T_{k+1} = T_k - F_{k+1} (eq. 2.16)
        return pos

    scale = abs(wet) * length
    sol = optimize.root(lambda x: (chain(x * scale)[-1] - b) / length, guess / scale,
                        method="hybr", options={"xtol": 1e-14})
    pos = chain(sol.x * scale)
    if not np.all(np.isfinite(pos)) or np.abs(pos[-1] - b).max() > 1e-9 * length:
        raise ValueError("the lumped catenary did not converge (use initial='straight')")
    pos[-1] = b
    return pos


# --------------------------------------------------------------------------------------
# Mapping to cases
# --------------------------------------------------------------------------------------


def _end_dict(point: Point, motion: Any, interpolation: str, rho: float, g: float,
              position: np.ndarray) -> dict:
    if point.kind == "fixed":
        return {"type": "fixed", "position": [float(x) for x in position]}
    if point.kind == "coupled":
        if motion is None:
            return {"type": "fixed", "position": [float(x) for x in position]}
        return {"type": "prescribed", "trajectory": motion, "interpolation": interpolation}
    # free point: buoyancy and the point's added mass (rho V Ca, isotropic) -> mass + force
    added = rho * point.V * point.Ca
    lift = rho * point.V * g + added * g  # upward: buoyancy, and cancels the added mass' weight
    out: dict[str, Any] = {"type": "free", "mass": point.M + added}
    force = [point.F[0], point.F[1], point.F[2] + lift]
    if any(force):
        out["force"] = [float(x) for x in force]
    if point.CdA > 0:
        out["drag_area"] = point.CdA
    return out


def _motion_spec(spec: Any) -> Any:
    """A trajectory given by the caller: absolute CSV path or an inline table."""
    if isinstance(spec, str | Path):
        return str(Path(spec).resolve())
    if isinstance(spec, dict):
        try:
            return {str(k): [float(x) for x in v] for k, v in spec.items()}
        except (TypeError, ValueError):
            pass
    raise CaseError("motions: each value must be a CSV path or a table {t: [...], x: [...], "
                    "y: [...], z: [...]}")


def _default_output_interval(dt: float, target: float = 0.01) -> float:
    return dt * max(1, round(target / dt))


def _time_steps(deck, name: str, dt: float | None,
                output_interval: float | None) -> tuple[float, float]:
    """The run's step [s] (``dt``, else the deck's dtM) and output interval [s] (the one
    given, else the deck's dtOut where it is a whole number of steps, else a default)."""
    step = dt if dt is not None else deck.option(("dtM", "DT"), None)
    if step is None:
        raise CaseError(f"{name}: OPTIONS: dtM is missing (MoorDyn-C would derive the step "
                        "from CFL); give dtM or pass dt")
    if output_interval is None:
        dt_out = deck.option(("dtOut",), 0.0) or 0.0
        ratio = dt_out / step
        if dt_out > 0 and abs(ratio - round(ratio)) < 1e-9 * max(1.0, ratio):
            output_interval = dt_out
        else:
            output_interval = _default_output_interval(step)
    return step, output_interval


def _line_case(deck: MoorDynDeck, line: Line, *, duration: float | None, dt: float | None,
               output_interval: float | None, initial: str, motions: dict[int, Any],
               interpolation: str) -> dict:
    name = deck.path.name
    where = f"{name}:{line.lineno}: LINES row {line.index}"
    lt = deck.line_types[line.line_type]
    pa, pb = deck.points[line.a], deck.points[line.b]
    for p in (pa, pb):
        if p.kind == "body":
            raise CaseError(f"{where}: point {p.id} is on body {p.body}: a deck with bodies "
                            "runs as a system (moordyn_to_system; `tetherdyn run` without "
                            "--line)")
    rho = deck.water_density
    g = deck.gravity
    gvec = np.array([0.0, 0.0, -g])
    area = math.pi * lt.d**2 / 4.0

    # held ends at t = 0: a coupled point with a motion starts where its motion starts
    pos0: dict[int, np.ndarray] = {}
    for p in (pa, pb):
        r = np.array(p.r, dtype=float)
        if p.kind == "coupled" and p.id in motions:
            try:
                traj = load_trajectory(motions[p.id], interpolation)
            except ValueError as exc:
                raise CaseError(f"motions[{p.id}]: {exc}") from None
            r = traj.evaluate(0.0)[0]
        pos0[p.id] = r

    length = line.length
    if length < 0:  # MoorDyn: a factor on the initial distance between the ends
        length = -length * float(np.linalg.norm(pos0[pb.id] - pos0[pa.id]))
    N = line.n_segments
    if lt.BA < 0:  # -zeta: fraction of critical damping of one segment (MoorDyn Line.cpp)
        axial_damping = -lt.BA * (length / N) * math.sqrt(lt.EA * lt.w)
    else:
        axial_damping = lt.BA

    held = {p.id: p.kind != "free" for p in (pa, pb)}
    start_r = pos0[pa.id] if held[pa.id] else None
    end_r = pos0[pb.id] if held[pb.id] else None
    free = pb if held[pa.id] else pa
    tmax_ic = deck.option(("TmaxIC", "ICTmax"), 120.0)
    if initial == "auto":
        # MoorDyn with TmaxIC = 0 starts unrelaxed from the positions in the file (its
        # catenary between held ends ~ our equilibrium); otherwise from its equilibrium
        initial = "straight" if tmax_ic == 0 and not all(held.values()) else "equilibrium"
        if initial == "straight":
            gap = float(np.linalg.norm(pos0[pb.id] - pos0[pa.id]))
            if abs(gap - length) > 1e-6 * length:
                warnings.warn(
                    f"{where}: TmaxIC = 0: MoorDyn would start from its catenary between the "
                    f"points, {gap:.6g} m apart; tetherdyn starts from the straight line of "
                    f"length {length:.6g} m towards the free point", CaseWarning, stacklevel=4)
    elif initial == "equilibrium" and tmax_ic == 0 and not all(held.values()):
        warnings.warn(f"{where}: TmaxIC = 0: MoorDyn would start unrelaxed from the points' "
                      "positions; tetherdyn starts from the static equilibrium",
                      CaseWarning, stacklevel=4)
    if initial == "equilibrium":
        if not held[pa.id] and not held[pb.id]:
            raise CaseError(f"{where}: both ends are free points: a free-floating line has no "
                            "static equilibrium (use initial='straight')")
        added = rho * free.V * free.Ca
        f_free = np.array(free.F) + np.array([0.0, 0.0, rho * free.V * g + added * g])
        try:
            nodes = equilibrium_nodes(
                start_r, end_r, length=length, n_elements=N, mass_per_length=lt.w,
                displaced_area=area, EA=lt.EA, fluid_density=rho, gravity=gvec,
                free_mass=free.M + added, free_force=f_free)
        except ValueError as exc:
            raise CaseError(f"{where}: initial equilibrium: {exc}") from None
    elif initial == "straight":
        if start_r is not None and end_r is not None:
            frac = np.linspace(0.0, 1.0, N + 1)[:, None]
            nodes = start_r + frac * (end_r - start_r)
        else:
            a, b = pos0[pa.id], pos0[pb.id]
            d = b - a
            dist = float(np.linalg.norm(d))
            if dist == 0.0:
                raise CaseError(f"{where}: points {pa.id} and {pb.id} coincide: no direction "
                                "for a straight start")
            s = np.linspace(0.0, length, N + 1)[:, None]
            u = d / dist
            nodes = (a + s * u) if start_r is not None or end_r is None else (b - s[::-1] * u)
    else:
        raise CaseError(f"initial: must be 'auto', 'equilibrium' or 'straight', not "
                        f"{initial!r}")

    environment = _environment(deck, g, rho)

    step, output_interval = _time_steps(deck, name, dt, output_interval)

    start = _end_dict(pa, motions.get(pa.id), interpolation, rho, g, pos0[pa.id])
    end = _end_dict(pb, motions.get(pb.id), interpolation, rho, g, pos0[pb.id])
    case: dict[str, Any] = {
        "name": f"{name} line {line.id} (MoorDyn {pa.word} point {pa.id} -> {pb.word} "
                f"point {pb.id})",
        "tether": {
            "length": float(length),
            "diameter": lt.d,
            "mass_per_length": lt.w,
            "EA": lt.EA,
            "axial_damping": float(axial_damping),
            "drag_law": "cross_flow",
            "cd_normal": lt.Cd,
            "cd_tangential": lt.CdAx,
            "ca_normal": lt.Ca,
            "ca_tangential": lt.CaAx,
        },
        "model": {"type": "lumped_mass", "elements": N},
        "environment": environment,
        "start": start,
        "end": end,
        "initial": {"shape": "points", "points": [[float(x) for x in p] for p in nodes]},
        "solver": {"method": "rk4", "dt": float(step), "output_interval": float(output_interval)},
    }
    if lt.EI > 0:  # MoorDyn's bending stiffness -> our discrete bending (docs/lumped_mass.md)
        case["tether"]["EI"] = lt.EI
        case["model"]["bending"] = True
    if duration is not None:
        case["solver"]["duration"] = float(duration)
    bed = environment["seabed"]
    low = float(nodes[:, 2].min())
    if "z" in bed and low < bed["z"] - 1e-9 * length:
        if initial != "equilibrium":
            k = int(np.argmin(nodes[:, 2]))
            raise CaseError(f"{where}: node {k} starts at z = {nodes[k, 2]:.4g} m, below the "
                            f"seabed z = {bed['z']:.4g} m (OPTIONS WtrDpth, or the deepest "
                            "point): a straight start through the seabed")
        case["initial"]["points"] = _grounded_equilibrium(case, nodes, bed["z"], where)
    elif initial == "equilibrium" and (lt.EI > 0 or float(nodes[:, 2].max()) > 0.0):
        # the lumped catenary has no bending and buoyancy everywhere: refine it
        case["initial"]["points"] = _grounded_equilibrium(case, nodes, None, where)
    return case


def _environment(deck: MoorDynDeck, g: float, rho: float) -> dict[str, Any]:
    """The case's environment section: MoorDyn's sea (docs/moordyn_input.md, the sea)."""
    env: dict[str, Any] = {
        "gravity": [0.0, 0.0, -g],
        "fluid_density": rho,
        "current": [0.0, 0.0, 0.0],
        # MoorDyn: calm surface at z = 0 and nothing above it (no air loads)
        "water_level": 0.0,
        "air_density": 0.0,
    }
    seabed: dict[str, Any] = {}
    if "SeafloorFile" in deck.options:
        text, _ = deck.options["SeafloorFile"]
        path = deck.path.parent / text
        if not path.is_file():
            raise CaseError(f"{deck.path.name}:{deck.options['SeafloorFile'][1]}: OPTIONS: "
                            f"SeafloorFile = {text}: file not found ({path})")
        seabed["bathymetry"] = read_seafloor_file(path)
    else:
        seabed["z"] = deck.seabed_z
    # MoorDyn docs (theory, seabed contact): kBot, cBot per unit penetration and line area
    seabed["stiffness"] = deck.seabed_stiffness
    seabed["damping"] = deck.seabed_damping
    axial, lateral = deck.friction
    if axial or lateral:
        seabed["friction"] = {"axial": axial, "lateral": lateral}
    env["seabed"] = seabed
    if deck.option(("Currents",), 0.0) == 1.0:
        env["current"] = read_current_profile(
            _input_file(deck, CURRENT_PROFILE_FILE, "Currents"))
    if deck.option(("WaveKin",), 0.0) == 7.0:
        depth = float(deck.option(("WtrDpth",), 0.0))
        env["waves"] = {
            "type": "components",
            "components": read_wave_frequencies(
                _input_file(deck, WAVE_FREQUENCIES_FILE, "WaveKin")),
            "stretching": "wheeler",  # MoorDyn-C SpectrumKin stretches z over the depth
        }
        if depth > 0:  # MoorDyn's dispersion uses WtrDpth (not the lowered seabed)
            env["waves"]["depth"] = depth
    return env


def grounded_catenary(anchor: np.ndarray, fairlead: np.ndarray, *, length: float,
                      n_elements: int, wet_weight: float, EA: float) -> np.ndarray | None:
    """Node positions [m] (N+1, 3) of the elastic catenary with a grounded part on a flat
    frictionless seabed through ``anchor`` (on the bed) up to ``fairlead``, nodes at equal
    unstretched arc lengths: Jonkman (2007, NREL/TP-500-41958) eqs. (4-3a)-(4-4b) with
    C_B = 0 -- grounded length L_B = L - V_F / w, horizontal tension H all along.
    ``wet_weight`` w [N/m] > 0. None when the line is too short to touch the bed (a
    suspended catenary) or so long that it would lie folded."""
    from scipy import optimize

    a = np.asarray(anchor, dtype=float)
    b = np.asarray(fairlead, dtype=float)
    chord = b - a
    X = float(np.hypot(chord[0], chord[1]))
    Z = float(chord[2])
    L, w = float(length), float(wet_weight)
    if X <= 0.0 or Z <= 0.0 or w <= 0.0 or L <= Z or L >= X + Z:
        return None

    def ends(p: np.ndarray) -> np.ndarray:
        H, V = np.exp(p)  # positive by construction
        lb = L - V / w
        x = lb + H / w * np.arcsinh(V / H) + H * L / EA
        z = H / w * (np.sqrt(1.0 + (V / H) ** 2) - 1.0) + V * V / (2.0 * EA * w)
        return np.array([(x - X) / L, (z - Z) / L])

    # start: the inextensible solution, H = w c with L - sqrt(Z (Z + 2c)) + c asinh(...) = X
    def miss(c: float) -> float:
        ls = math.sqrt(Z * (Z + 2.0 * c))
        return (L - ls) + c * math.asinh(ls / c) - X

    try:
        c = optimize.brentq(miss, 1e-9 * L, 1e9 * L)
    except ValueError:
        return None
    v0 = w * math.sqrt(Z * (Z + 2.0 * c))
    sol = optimize.root(ends, np.log([w * c, v0]), method="hybr", options={"xtol": 1e-14})
    H, V = np.exp(sol.x)
    lb = L - V / w
    if lb <= 0.0 or not np.abs(ends(sol.x)).max() <= 1e-10:
        return None
    s = np.linspace(0.0, L, int(n_elements) + 1)
    sus = np.maximum(s - lb, 0.0)
    x = np.minimum(s, lb) + H / w * np.arcsinh(w * sus / H) + H * s / EA
    z = H / w * (np.sqrt(1.0 + (w * sus / H) ** 2) - 1.0) + w * sus**2 / (2.0 * EA)
    e = np.array([chord[0], chord[1], 0.0]) / X
    return a[None, :] + x[:, None] * e[None, :] + z[:, None] * np.array([0.0, 0.0, 1.0])


def _grounded_equilibrium(case: dict, guess: np.ndarray, bed_z: float | None,
                          where: str) -> list[list[float]]:
    """The initial shape of a line that reaches the seabed, or that bends or leaves the
    water. A line whose lower end lies on a flat seabed starts on the grounded elastic
    catenary (closed form, :func:`grounded_catenary`; its grounded nodes sunk by the contact
    penetration w / (kBot d) that carries the wet weight): Newton on the lumped line with
    contact does not converge from it (measured: residual 659 N after 40 iterations on a
    50-element chain), so the closed form is the start, O(1/N^2) from the lumped
    equilibrium. Otherwise the static equilibrium of the mapped case itself
    (statics.equilibrium: bending and the dry part above the surface included) from the
    lumped catenary pushed up onto the seabed where it dips below."""
    from .statics import equilibrium

    q0 = np.array(guess, dtype=float)
    closed = None
    env, t = case["environment"], case["tether"]
    if bed_z is not None:
        ends = (q0[0], q0[-1]) if q0[0, 2] <= q0[-1, 2] else (q0[-1], q0[0])
        rho = float(env["fluid_density"])
        g = -float(env["gravity"][2])
        w = (t["mass_per_length"] - rho * math.pi * t["diameter"] ** 2 / 4.0) * g
        if abs(ends[0][2] - bed_z) <= 1e-6 * t["length"] and w > 0:
            closed = grounded_catenary(ends[0], ends[1], length=t["length"],
                                       n_elements=case["model"]["elements"], wet_weight=w,
                                       EA=t["EA"])
        if closed is not None:
            sink = w / (env["seabed"]["stiffness"] * t["diameter"])
            closed[1:-1, 2] -= np.where(closed[1:-1, 2] <= bed_z + 1e-9, sink, 0.0)
            if q0[0, 2] > q0[-1, 2]:
                closed = closed[::-1].copy()
            return [[float(x) for x in p] for p in closed]
        else:
            q0[:, 2] = np.maximum(q0[:, 2], bed_z)
    trial = copy.deepcopy(case)
    trial["initial"]["points"] = q0.tolist()
    trial["solver"].setdefault("duration", 1.0)
    try:
        eq = equilibrium(load_case(trial), load_steps=1, max_iter=40)
    except (ValueError, CaseError) as exc:
        raise CaseError(f"{where}: initial equilibrium: {exc}") from None
    if eq.converged:
        return [[float(x) for x in p] for p in eq.positions]
    raise CaseError(f"{where}: initial equilibrium: Newton did not converge (residual "
                    f"{eq.residual:.3g} N; use initial='straight')")


def read_moordyn_file(
    path: str | Path,
    *,
    duration: float | None = None,
    dt: float | None = None,
    output_interval: float | None = None,
    initial: str = "auto",
    motions: dict[int, Any] | None = None,
    interpolation: str = "cubic",
    lines: list[int] | None = None,
) -> list[dict]:
    """One tetherdyn case dict (``lumped_mass``) per line of a MoorDyn v2 input file.

    Parameters
    ----------
    path : the MoorDyn input file.
    duration : simulated time [s]; MoorDyn input files have none, so without it the
        dicts lack ``solver.duration`` (``load_case`` then names the missing key).
    dt : time step [s]; default OPTIONS ``dtM``.
    output_interval : sampling interval [s]; default OPTIONS ``dtOut`` when it is a
        multiple of the step, else the multiple of the step nearest to 0.01 s.
    initial : ``'equilibrium'``: the static equilibrium of the lumped line in still water
        with its held ends at their t = 0 positions -- what MoorDyn's initial-condition
        solve converges to; ``'straight'``: the straight line between two held ends, or
        from the held end towards the free point's position in the file (from point A
        towards point B when both are free), elements unstretched; ``'auto'``
        (default): as MoorDyn -- ``'straight'`` for a line with a free end when OPTIONS
        sets ``TmaxIC 0`` (no initial-condition solve: the free point starts where the
        file puts it), ``'equilibrium'`` otherwise.
    motions : ``{point ID: trajectory}`` for Coupled/Vessel points, a CSV path or a table
        ``{t: [...], x: [...], y: [...], z: [...]}`` (case-format prescribed end).  A
        coupled point without a motion is held fixed at its position in the file.
    interpolation : of the motions, ``'cubic'`` or ``'linear'``.
    lines : map only these line IDs (default all); problems of other lines are not raised.

    Raises CaseError (naming file line, section and row) for what cannot be represented;
    notes on ignored input are issued as CaseWarning.
    """
    deck = parse_moordyn_file(path)
    for note in deck.warnings:
        warnings.warn(note, CaseWarning, stacklevel=2)
    motions = dict(motions or {})
    for pid in motions:
        if pid not in deck.points or deck.points[pid].kind != "coupled":
            kind = deck.points[pid].kind if pid in deck.points else "missing"
            raise CaseError(f"motions[{pid}]: only Coupled/Vessel points take a motion "
                            f"(point {pid} is {kind})")
        motions[pid] = _motion_spec(motions[pid])
    chosen = deck.lines
    if lines is not None:
        known = {ln.id for ln in deck.lines}
        missing = [i for i in lines if i not in known]
        if missing:
            raise CaseError(f"{deck.path.name}: LINES: there is no line {missing[0]} (the file "
                            f"has {len(deck.lines)})")
        chosen = [ln for ln in deck.lines if ln.id in lines]
    # a free point shared by two lines is a multi-line junction
    users: dict[int, list[int]] = {}
    for ln in deck.lines:
        for pid in (ln.a, ln.b):
            users.setdefault(pid, []).append(ln.id)
    for ln in chosen:
        for pid in (ln.a, ln.b):
            if deck.points[pid].kind == "free" and len(users[pid]) > 1:
                others = ", ".join(str(i) for i in users[pid])
                raise CaseError(f"{deck.path.name}:{ln.lineno}: LINES row {ln.index}: free "
                                f"point {pid} joins lines {others}: a multi-line junction is "
                                "not supported (tetherdyn simulates single lines)")
    return [
        _line_case(deck, ln, duration=duration, dt=dt, output_interval=output_interval,
                   initial=initial, motions=motions, interpolation=interpolation)
        for ln in chosen
    ]


def moordyn_to_case(
    path: str | Path,
    duration: float | None = None,
    output_interval: float | None = None,
    *,
    line: int | None = None,
    dt: float | None = None,
    initial: str = "auto",
    motions: dict[int, Any] | None = None,
    interpolation: str = "cubic",
) -> dict:
    """The validated tetherdyn case dict of one line of a MoorDyn v2 input file.

    ``duration`` [s] is required (MoorDyn-C input files set no simulation time; the CLI
    takes ``--duration``).  ``line`` picks the line ID when the file has several.  Other
    arguments as :func:`read_moordyn_file`.  The dict passes :func:`tetherdyn.case.load_case`
    (``yaml.safe_dump`` writes it as a case file).
    """
    if duration is None:
        raise CaseError("solver.duration: a MoorDyn input file sets no simulation time; "
                        "give the duration (CLI: --duration)")
    if line is None:
        n_lines = len(parse_moordyn_file(path).lines)
        if n_lines > 1:
            raise CaseError(f"{Path(path).name}: LINES: the file has {n_lines} lines; pick "
                            "one by its ID, or run the whole deck as a system "
                            "(moordyn_to_system; the CLI does without --line)")
        line = 1
    (case,) = read_moordyn_file(path, duration=duration, dt=dt, output_interval=output_interval,
                                initial=initial, motions=motions, interpolation=interpolation,
                                lines=[line])
    load_case(case)  # validate: raises CaseError naming the key path
    return case


def _line_axial_damping(lt: LineType, length: float, n: int) -> float:
    """MoorDyn's BA [N s], or from -zeta: the fraction of critical damping of one segment
    (MoorDyn Line.cpp), as :func:`_line_case` maps it."""
    if lt.BA < 0:
        return -lt.BA * (length / n) * math.sqrt(lt.EA * lt.w)
    return lt.BA


def moordyn_to_system(
    path: str | Path,
    duration: float | None = None,
    output_interval: float | None = None,
    *,
    dt: float | None = None,
    motions: dict[int, Any] | None = None,
    interpolation: str = "cubic",
    initial_nodes: dict[int, np.ndarray] | None = None,
    initial_points: dict[int, np.ndarray] | None = None,
    initial: str = "auto",
) -> dict:
    """The system case dict (docs/systems.md) of a whole MoorDyn v2 deck: every line
    (``lines/1``, ``lines/2``, … by ID), every point (``points/1``, … : Fixed/Anchor
    fixed; Coupled/Vessel coupled with ``motions[id]``, else held fixed where the file puts
    it; Free with its Mass, Volume, CdA and Ca), the deck's sea and step as
    :func:`moordyn_to_case` maps them for one line (docs/moordyn_input.md).

    Bodies (``bodies/1``, …): Free and Fixed as the file gives them, a Coupled body held
    where the file puts it; a point on a body (``Body1``) is where the lines on it attach
    (its X, Y, Z in the body's axes; a point on a body with its own mass, volume, drag
    or added mass is refused). Rods and pinned bodies are refused.

    ``initial_nodes``: ``{line ID: (N+1, 3) node positions [m]}`` at t = 0, end A to end B
    (e.g. MoorDyn's own start); other lines start straight between their points;
    ``initial_points``: ``{free point ID: position [m]}`` at t = 0 instead of the file's
    (e.g. after MoorDyn's initial-condition solve).

    ``initial``: ``'equilibrium'``: the system's static equilibrium at t = 0 (``initial:
    {shape: equilibrium}``, system_statics.py; the nodes and points above, else the
    straight lines, are its guess) -- where MoorDyn's initial-condition solve heads;
    ``'lines'``: the lines as laid above, at rest; ``'auto'`` (default): as MoorDyn --
    ``'equilibrium'`` when OPTIONS TmaxIC (default 120 s) is not 0 and ``initial_nodes``
    does not give every line, else ``'lines'``. Where the statics would refuse the deck
    (a coupled point whose motion moves at t = 0) ``'auto'`` lays the lines and a
    CaseWarning says why. Rods are refused by the parser (CaseError naming the section and
    row), as are point forces.
    """
    if duration is None:
        raise CaseError("solver.duration: a MoorDyn input file sets no simulation time; "
                        "give the duration (CLI: --duration)")
    deck = parse_moordyn_file(path)
    for note in deck.warnings:
        warnings.warn(note, CaseWarning, stacklevel=2)
    name = deck.path.name
    rho, g = deck.water_density, deck.gravity
    motions = {k: _motion_spec(v) for k, v in (motions or {}).items()}
    initial_nodes = dict(initial_nodes or {})
    for pid in motions:
        if pid not in deck.points or deck.points[pid].kind != "coupled":
            raise CaseError(f"motions[{pid}]: only Coupled/Vessel points take a motion")
    points: dict[str, dict] = {}
    pos0: dict[int, np.ndarray] = {}
    from .rigid_body import quaternion_from_rpy  # (numba: not at import)
    from .system_case import attachment_position

    bodies = _system_bodies(deck, rho)
    for p in deck.points.values():
        where = f"{name}:{p.lineno}: POINTS row {p.index}"
        if p.kind == "body":  # a line end on the body, where the point is on it
            b = deck.bodies[p.body]
            state = np.zeros(13)
            state[:3] = b.r6[:3]
            state[3:7] = quaternion_from_rpy(*np.radians(b.r6[3:]))
            pos0[p.id] = attachment_position(state, np.array(p.r, dtype=float))
            continue
        pos0[p.id] = np.array(p.r, dtype=float)
        if p.kind == "free" and p.id in (initial_points or {}):
            pos0[p.id] = np.asarray(initial_points[p.id], dtype=float)
        if p.kind == "coupled" and p.id in motions:
            try:
                traj = load_trajectory(motions[p.id], interpolation)
            except ValueError as exc:
                raise CaseError(f"motions[{p.id}]: {exc}") from None
            pos0[p.id] = traj.evaluate(0.0)[0]
            points[str(p.id)] = {"type": "coupled", "trajectory": motions[p.id],
                                 "interpolation": interpolation}
        elif p.kind in ("fixed", "coupled"):
            points[str(p.id)] = {"type": "fixed", "position": [float(x) for x in p.r]}
        else:
            if any(p.F):
                raise CaseError(f"{where}: a force on a free point is not supported in a "
                                "system yet")
            points[str(p.id)] = {"type": "free", "position": [float(x) for x in pos0[p.id]],
                                 "mass": p.M, "volume": p.V, "drag_area": p.CdA, "ca": p.Ca}
    line_types: dict[str, dict] = {}
    for lt in deck.line_types.values():
        line_types[lt.name] = {
            "diameter": lt.d, "mass_per_length": lt.w, "EA": lt.EA, "drag_law": "cross_flow",
            "cd_normal": lt.Cd, "cd_tangential": lt.CdAx, "ca_normal": lt.Ca,
            "ca_tangential": lt.CaAx}
        if lt.EI > 0:  # MoorDyn's bending stiffness -> our discrete bending
            line_types[lt.name]["EI"] = lt.EI
    lines: dict[str, dict] = {}
    for ln in deck.lines:
        lt = deck.line_types[ln.line_type]
        length = ln.length
        if length < 0:  # MoorDyn: a factor on the initial distance between the ends
            length = -length * float(np.linalg.norm(pos0[ln.b] - pos0[ln.a]))
        spec: dict[str, Any] = {
            "line_type": lt.name, "length": float(length),
            "tether": {"axial_damping": float(_line_axial_damping(lt, length,
                                                                  ln.n_segments))},
            "model": {"type": "lumped_mass", "elements": ln.n_segments},
            "start": _system_end(deck.points[ln.a]), "end": _system_end(deck.points[ln.b])}
        if lt.EI > 0:
            spec["model"]["bending"] = True
        if ln.id in initial_nodes:
            spec["initial"] = {"points": np.asarray(initial_nodes[ln.id], dtype=float).tolist()}
        lines[str(ln.id)] = spec
    step, output_interval = _time_steps(deck, name, dt, output_interval)
    out = {
        "name": f"{name} (MoorDyn deck: {len(lines)} lines, {len(points)} points"
                + (f", {len(bodies)} bodies)" if bodies else ")"),
        "line_types": line_types,
        "lines": lines,
        "points": points,
        "environment": _environment(deck, g, rho),
        "solver": {"method": "rk4", "dt": float(step), "duration": float(duration),
                   "output_interval": float(output_interval)},
    }
    if bodies:
        out["bodies"] = bodies
    if _system_initial(deck, initial, len(initial_nodes) < len(lines), motions,
                       interpolation, "waves" in out["environment"]) == "equilibrium":
        out["initial"] = {"shape": "equilibrium"}
    return out


def _system_initial(deck: MoorDynDeck, initial: str, unlaid: bool, motions: dict[int, Any],
                    interpolation: str, waves: bool) -> str:
    """``moordyn_to_system``'s start, "equilibrium" or "lines" (its docstring), with the
    CaseWarnings where it departs from MoorDyn's.

    MoorDyn-C 2.7 (MoorDyn2.cpp ``Init``) runs an initial-condition solve unless TmaxIC
    = 0: by default (ICgenDynamic 0) a pseudo-time relaxation (Time.cpp
    ``StationaryScheme``: velocities zeroed every step, positions moved along the
    accelerations, the step boosted while the summed |acceleration| falls) that stops
    once that sum falls below threshIC of its first value, or changes by less than
    threshIC over dtIC, or at TmaxIC; with ICgenDynamic 1, dynamic relaxation with the
    drag scaled by CdScaleIC until every fairlead tension stays within threshIC over
    dtIC. Coupled points and bodies are held at their t = 0 poses, waves are off (enabled
    after it). Both end near the static equilibrium that system_statics solves by
    Newton to 1e-6 of the system's weight.
    """
    if initial not in ("auto", "equilibrium", "lines"):
        raise CaseError(f"initial: must be 'auto', 'equilibrium' or 'lines', not {initial!r}")
    name = deck.path.name
    tmax_ic = deck.option(("TmaxIC", "ICTmax"), 120.0)
    if initial == "lines" or (initial == "auto" and (tmax_ic == 0.0 or not unlaid)):
        return "lines"
    if initial == "equilibrium" and tmax_ic == 0.0:
        warnings.warn(f"{name}: OPTIONS: TmaxIC = 0: MoorDyn would start unrelaxed from the "
                      "lines as laid; tetherdyn starts from the static equilibrium",
                      CaseWarning, stacklevel=3)
    for pid, motion in motions.items():  # system_statics refuses a moving coupled point
        v = load_trajectory(motion, interpolation).evaluate(0.0)[1]
        speed = float(np.linalg.norm(v))
        if speed > 0.0 and initial == "auto":
            warnings.warn(
                f"{name}: OPTIONS: TmaxIC = {tmax_ic:g}: coupled point {pid} moves at t = 0 "
                f"({speed:.3g} m/s): tetherdyn's system statics has no equilibrium of a "
                "moving system, so the lines start as laid (straight between their points, "
                "or initial_nodes) where MoorDyn would start from its initial-condition "
                "solve with the point held where its motion starts; start the motion at "
                "rest for an equilibrium start",
                CaseWarning, stacklevel=3)
            return "lines"
    if waves:
        warnings.warn(f"{name}: OPTIONS: WaveKin: MoorDyn's initial-condition solve runs in "
                      "calm water (its waves start after it); tetherdyn's statics holds the "
                      "lines in the waves' flow at t = 0", CaseWarning, stacklevel=3)
    return "equilibrium"


def _system_end(p: Point) -> dict:
    """A system line end on MoorDyn point p: the point, or the body it is on and where."""
    if p.kind == "body":
        return {"body": str(p.body), "at": [float(x) for x in p.r]}
    return {"point": str(p.id)}


def _system_bodies(deck: MoorDynDeck, rho: float) -> dict[str, dict]:
    """The system's bodies (docs/bodies.md keys) of the deck's BODIES rows: a Coupled body
    held where the file puts it (no motion is given to it here), Ca per translational axis
    as added_mass = Ca rho V, CdA's translational and rotational parts. Three or six CdA
    values are taken as written (MoorDyn 2.7.2's reader drops the first: docs/bodies.md)."""
    out: dict[str, dict] = {}
    for b in deck.bodies.values():
        spec: dict[str, Any] = {
            "type": "fixed" if b.kind == "coupled" else b.kind,
            "position": list(b.r6[:3]), "orientation_deg": list(b.r6[3:]),
            "mass": b.M, "inertia": list(b.I), "center_of_gravity": list(b.CG),
            "volume": b.V, "drag_area": list(b.CdA[:3]),
            "rotational_drag_area": list(b.CdA[3:]),
            "added_mass": [c * rho * b.V for c in b.Ca] + [0.0, 0.0, 0.0]}
        if b.kind != "free":
            for key in ("velocity", "angular_velocity"):
                spec.pop(key, None)
        out[str(b.id)] = spec
    return out
