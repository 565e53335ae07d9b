"""The case file: schema, validation and loading (contract: shared/spec/case-format.md).

A case is validated completely before anything runs. Every problem is reported as a
:class:`CaseError` whose message names the key path (``tether.EA: must be > 0 ...``).
All values are SI; angles only in keys that end in ``_deg``.
"""

from __future__ import annotations

import copy
import math
import re
import warnings
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    PrivateAttr,
    Tag,
    ValidationError,
    field_validator,
    model_validator,
)

from .boundary import Trajectory, _read_csv, fixed_point, load_trajectory
from .models import REGISTRY, supports_of
from .models.supports import Option, Supports

__all__ = ["Case", "CaseError", "CaseWarning", "load_case", "set_key", "model_options"]


def model_options(model_type: str) -> dict[str, Option]:
    """The model-specific keys of ``model`` for a model type (its declaration's options;
    none for a type the registry does not know)."""
    return dict(supports_of(model_type).options) if model_type in REGISTRY else {}


class _Loader(yaml.SafeLoader):
    """YAML 1.2 numbers: PyYAML (YAML 1.1) reads ``2.0e7`` or ``1e-3`` as strings."""


_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
                |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
                |\.[0-9_]+(?:[eE][-+]?[0-9]+)?
                |[-+]?\.(?:inf|Inf|INF)
                |\.(?:nan|NaN|NAN))$""", re.X),
    list("-+0123456789."),
)


class CaseError(ValueError):
    """A case that cannot run; the message names every offending key path."""


class CaseWarning(UserWarning):
    """A case key that is valid but has no effect for the chosen model."""


def _finite(v: Any) -> Any:
    if isinstance(v, bool):
        return v
    if isinstance(v, int | float) and not math.isfinite(v):
        raise ValueError("must be a finite number")
    return v


Finite = Annotated[float, BeforeValidator(_finite)]


def _vec3(v: Any) -> Any:
    if not isinstance(v, list | tuple | np.ndarray) or len(v) != 3:
        raise ValueError("must be a list of 3 numbers")
    out = []
    for x in v:
        if isinstance(x, bool) or not isinstance(x, int | float | np.floating | np.integer):
            raise ValueError("must be a list of 3 numbers")
        if not math.isfinite(float(x)):
            raise ValueError("must contain finite numbers only")
        out.append(float(x))
    return tuple(out)


Vec3 = Annotated[tuple[float, float, float], BeforeValidator(_vec3)]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Tether(_Section):
    """Tether properties [SI]."""

    length: Finite = Field(gt=0)
    diameter: Finite = Field(gt=0)
    mass_per_length: Finite | None = Field(default=None, gt=0)
    mass: Finite | None = Field(default=None, gt=0)
    density: Finite | None = Field(default=None, gt=0)
    area: Finite | None = Field(default=None, gt=0)
    displaced_area: Finite | None = Field(default=None, ge=0)
    EA: Finite | None = Field(default=None, gt=0)
    EI: Finite = Field(default=0.0, ge=0)
    GJ: Finite = Field(default=0.0, ge=0)
    axial_damping: Finite = Field(default=0.0, ge=0)
    bending_damping: Finite = Field(default=0.0, ge=0)
    drag_law: Literal["cross_flow", "loading_functions", "projected_area", "isotropic"] | None = (
        None
    )
    cd_normal: Finite = Field(default=1.2, ge=0)
    cd_tangential: Finite = Field(default=0.0, ge=0)
    ca_normal: Finite = Field(default=1.0, ge=0)
    ca_tangential: Finite = Field(default=0.0, ge=0)
    compression: bool = False

    @model_validator(mode="after")
    def _one_mass(self) -> Tether:
        given = [k for k in ("mass_per_length", "mass", "density") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(
                "give exactly one of mass_per_length, mass, density"
                + (f" (got {', '.join(given)})" if given else "")
            )
        return self

    @property
    def material_area(self) -> float:
        """Material cross-section [m^2] (default pi d^2 / 4)."""
        return self.area if self.area is not None else math.pi * self.diameter**2 / 4

    @property
    def displaced(self) -> float:
        """Displaced volume per metre [m^2] for buoyancy and added mass."""
        if self.displaced_area is not None:
            return self.displaced_area
        return math.pi * self.diameter**2 / 4

    @property
    def linear_mass(self) -> float:
        """Mass per unstretched length [kg/m]."""
        if self.mass_per_length is not None:
            return self.mass_per_length
        if self.mass is not None:
            return self.mass / self.length
        return self.density * self.material_area  # type: ignore[operator]


class ModelSection(BaseModel):
    """``model``: the formulation and its discretisation; model-specific keys are extras."""

    model_config = ConfigDict(extra="allow", frozen=True, strict=True)

    type: str  # a key of the formulation registry (models/__init__.py), checked later
    elements: int = Field(ge=1, le=100_000)

    @field_validator("elements", mode="before")
    @classmethod
    def _int(cls, v: Any) -> Any:
        if isinstance(v, bool) or (isinstance(v, float) and not v.is_integer()):
            raise ValueError("must be an integer")
        return v

    def option(self, key: str) -> Any:
        """A model-specific key's value (its default when absent)."""
        extra = self.model_extra or {}
        declared = model_options(self.type).get(key)
        return extra.get(key, declared.default if declared is not None else None)


# -- the environment and the sea (issue 17; shared/spec/case-format.md, environment) --------


def _table_or_law(v: Any) -> str:
    """Which form a current / wind value takes: a vector, a table or a power law (the tags
    are union tags that key paths leave out, see _is_tag)."""
    if isinstance(v, dict):
        return "dict[power_law]" if v.get("type") == "power_law" else "dict"
    return "list"


class FlowTable(_Section):
    """A current or wind varying with height: rows z [m] (increasing), with the velocity as
    components ``x``, ``y`` [m/s] or as ``speed`` [m/s] and ``direction_deg`` (towards which
    it flows, from +x towards +y); linear between rows, constant beyond them."""

    type: Literal["table"] = "table"
    z: list[Finite]
    x: list[Finite] | None = None
    y: list[Finite] | None = None
    speed: list[Finite] | None = None
    direction_deg: list[Finite] | None = None

    @model_validator(mode="after")
    def _columns(self) -> FlowTable:
        n = len(self.z)
        if n < 1:
            raise ValueError("z: give at least one row")
        if any(b <= a for a, b in zip(self.z, self.z[1:], strict=False)):
            raise ValueError("z: must be strictly increasing")
        comps = self.x is not None or self.y is not None
        polar = self.speed is not None or self.direction_deg is not None
        if comps and polar:
            raise ValueError("speed: give the components x, y or speed and direction_deg, "
                             "not both")
        if not comps and not polar:
            raise ValueError("x: give the components x, y (or speed and direction_deg)")
        if polar and self.speed is None:
            raise ValueError("speed: required with direction_deg")
        for key in ("x", "y", "speed", "direction_deg"):
            col = getattr(self, key)
            if col is not None and len(col) != n:
                raise ValueError(f"{key}: {len(col)} values for {n} heights z")
        if self.speed is not None and min(self.speed) < 0:
            raise ValueError("speed: must be >= 0 (direction_deg gives the way it flows)")
        return self

    def rows(self) -> np.ndarray:
        """(K, 4) rows [z, ux, uy, uz] [m, m/s]."""
        n = len(self.z)
        out = np.zeros((n, 4))
        out[:, 0] = self.z
        if self.speed is not None:
            ang = np.radians(self.direction_deg or [0.0] * n)
            out[:, 1] = np.asarray(self.speed) * np.cos(ang)
            out[:, 2] = np.asarray(self.speed) * np.sin(ang)
        else:
            out[:, 1] = self.x or [0.0] * n
            out[:, 2] = self.y or [0.0] * n
        return out


class PowerLaw(_Section):
    """u(z) = speed ((z − base_z) / (reference_z − base_z))^exponent above base_z, 0 below,
    horizontal, towards ``direction_deg`` (DNV-RP-C205 §2.3.2 wind, §4.1.4 current).

    Defaults: a current's base_z is the flat seabed and its reference_z the water level
    (``speed`` at the surface, exponent 1/7); the wind's base_z is the water level and its
    reference_z 10 m above it (U10, exponent 0.12)."""

    type: Literal["power_law"]
    speed: Finite = Field(ge=0)
    direction_deg: Finite = 0.0
    exponent: Finite | None = Field(default=None, gt=0)
    reference_z: Finite | None = None
    base_z: Finite | None = None


Flow = Annotated[
    Annotated[Vec3, Tag("list")] | Annotated[FlowTable, Tag("dict")]
    | Annotated[PowerLaw, Tag("dict[power_law]")],
    Discriminator(_table_or_law),
]


class ComponentTable(_Section):
    """A user's wave components: frequency [Hz], amplitude [m], phase_deg and
    direction_deg (one value each, equal lengths)."""

    frequency: list[Finite]
    amplitude: list[Finite]
    phase_deg: list[Finite] | None = None
    direction_deg: list[Finite] | None = None

    @model_validator(mode="after")
    def _columns(self) -> ComponentTable:
        n = len(self.frequency)
        if n < 1:
            raise ValueError("frequency: give at least one component")
        if min(self.frequency) <= 0:
            raise ValueError("frequency: must be > 0 [Hz]")
        if min(self.amplitude, default=0.0) < 0:
            raise ValueError("amplitude: must be >= 0 [m]")
        for key in ("amplitude", "phase_deg", "direction_deg"):
            col = getattr(self, key)
            if col is not None and len(col) != n:
                raise ValueError(f"{key}: {len(col)} values for {n} frequencies")
        return self


def _pair(v: Any) -> Any:
    """A [low, high] list as a tuple (strict sections take no list for a tuple)."""
    if isinstance(v, list | tuple) and len(v) == 2:
        return tuple(v)
    if v is not None:
        raise ValueError("must be a list of 2 numbers")
    return v


Pair = Annotated[tuple[Finite, Finite], BeforeValidator(_pair)]


class WaveGrid(_Section):
    """Where and how finely waves.py precomputes the kinematics (docs/waves.md)."""

    tolerance: Finite | None = Field(default=None, gt=0)  # relative interpolation error
    spacing: Finite | Pair | None = None  # [m], or [horizontal, vertical]
    dt: Finite | None = Field(default=None, gt=0)  # time-slice interval [s]
    margin: Finite | None = Field(default=None, ge=0)  # around the line's initial extent [m]
    x: Pair | None = None  # [min, max] [m]
    y: Pair | None = None
    z: Pair | None = None

    @model_validator(mode="after")
    def _ranges(self) -> WaveGrid:
        sp = self.spacing
        if sp is not None and min(sp if isinstance(sp, tuple) else (sp,)) <= 0:
            raise ValueError("spacing: must be > 0 [m]")
        for key in ("x", "y", "z"):
            r = getattr(self, key)
            if r is not None and not r[0] < r[1]:
                raise ValueError(f"{key}: need [min, max] with min < max [m]")
        return self


_AIRY_KEYS = ("height", "period", "phase_deg")
_SPECTRUM_KEYS = ("hs", "tp", "seed", "frequency_range")
_SPECTRA = ("jonswap", "pierson_moskowitz")


class Waves(_Section):
    """Waves on the water level: regular Airy, a JONSWAP / Pierson–Moskowitz spectrum or a
    table of components (waves.py). Kinematics below the surface only."""

    type: Literal["airy", "jonswap", "pierson_moskowitz", "components"]
    height: Finite | None = Field(default=None, gt=0)  # airy: crest to trough [m]
    period: Finite | None = Field(default=None, gt=0)  # airy [s]
    direction_deg: Finite = 0.0  # propagation, from +x towards +y
    phase_deg: Finite | None = None  # airy: eta = H/2 cos(k.x - w t + phase)
    hs: Finite | None = Field(default=None, gt=0)  # spectra: significant height [m]
    tp: Finite | None = Field(default=None, gt=0)  # spectra: peak period [s]
    gamma: Finite | None = Field(default=None, ge=1)  # jonswap peak enhancement (3.3)
    seed: int | None = Field(default=None, ge=0)  # spectra: random phases (1)
    components: Annotated[
        Annotated[Annotated[int, Field(ge=1, le=100_000)], Tag("int")]
        | Annotated[ComponentTable, Tag("dict")],
        Discriminator(lambda v: "dict" if isinstance(v, dict) else "int"),
    ] | None = None
    frequency_range: Pair | None = None  # spectra [f_min, f_max] [Hz]
    depth: Finite | None = Field(default=None, gt=0)  # for the dispersion relation [m]
    stretching: Literal["wheeler", "vertical", "extrapolated", "none"] = "wheeler"
    # precomputed kinematics (waves.py): automatic when absent, "none": summed directly
    grid: Annotated[
        Annotated[WaveGrid, Tag("dict")] | Annotated[Literal["none"], Tag("str")],
        Discriminator(lambda v: "dict" if isinstance(v, dict) else "str"),
    ] | None = None

    @field_validator("seed", mode="before")
    @classmethod
    def _int_seed(cls, v: Any) -> Any:
        if isinstance(v, bool) or (isinstance(v, float) and not v.is_integer()):
            raise ValueError("must be an integer")
        return v

    @model_validator(mode="after")
    def _by_type(self) -> Waves:
        given = self.model_fields_set
        kind = self.type
        if kind == "airy":
            for key in ("height", "period"):
                if getattr(self, key) is None:
                    raise ValueError(f"{key}: required for airy waves")
            for key in (*_SPECTRUM_KEYS, "gamma", "components"):
                if key in given:
                    raise ValueError(f"{key}: only for a spectrum or a components table, not "
                                     "airy waves")
        elif kind in _SPECTRA:
            for key in ("hs", "tp"):
                if getattr(self, key) is None:
                    raise ValueError(f"{key}: required for {kind} waves")
            for key in _AIRY_KEYS:
                if key in given:
                    raise ValueError(f"{key}: only for airy waves, not {kind}")
            if kind != "jonswap" and "gamma" in given:
                raise ValueError("gamma: only for jonswap waves (pierson_moskowitz is "
                                 "gamma = 1)")
            if isinstance(self.components, ComponentTable):
                raise ValueError("components: a table only with type: components (a "
                                 "spectrum takes a number of components)")
            if self.frequency_range is not None:
                lo, hi = self.frequency_range
                if not 0.0 < lo < hi:
                    raise ValueError("frequency_range: need 0 < f_min < f_max [Hz]")
        else:
            if not isinstance(self.components, ComponentTable):
                raise ValueError("components: required for type components: a table "
                                 "{frequency, amplitude, phase_deg, direction_deg}")
            for key in (*_AIRY_KEYS, *_SPECTRUM_KEYS, "gamma"):
                if key in given:
                    raise ValueError(f"{key}: not used with type components (the table "
                                     "gives every component)")
        return self

    @property
    def jonswap_gamma(self) -> float:
        """The JONSWAP peak enhancement (3.3 by default; 1 for Pierson–Moskowitz)."""
        if self.type == "pierson_moskowitz":
            return 1.0
        return 3.3 if self.gamma is None else self.gamma

    @property
    def n_components(self) -> int:
        """The number of wave components (1 for airy, 200 by default for a spectrum)."""
        if self.type == "airy":
            return 1
        if isinstance(self.components, ComponentTable):
            return len(self.components.frequency)
        return 200 if self.components is None else self.components


class Friction(_Section):
    """Coulomb coefficients along the line (its tangent on the bed) and across it."""

    axial: Finite = Field(default=0.0, ge=0)
    lateral: Finite = Field(default=0.0, ge=0)


class Seabed(_Section):
    """The seabed: a plane (height ``z`` at x = y = 0, optionally sloped) or a bathymetry
    grid (CSV path or inline table with columns x, y, z on a regular x–y grid)."""

    z: Finite | None = None  # [m]
    slope_deg: Finite = Field(default=0.0, ge=0, lt=90)  # the plane's angle with horizontal
    slope_direction_deg: Finite = 0.0  # horizontal direction in which the plane rises
    bathymetry: str | dict[str, list[Finite]] | None = None
    stiffness: Finite = Field(default=3.0e6, gt=0)  # kBot [Pa/m]
    damping: Finite = Field(default=3.0e5, ge=0)  # cBot [Pa s/m]
    friction: Friction = Friction()
    #: the bathymetry as (x [nx], y [ny], z [nx, ny]), loaded by load_case
    _grid: tuple[np.ndarray, np.ndarray, np.ndarray] | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _one_shape(self) -> Seabed:
        if (self.z is None) == (self.bathymetry is None):
            raise ValueError("z: give the flat seabed's z or a bathymetry grid (one of them)")
        if self.bathymetry is not None:
            for key in ("slope_deg", "slope_direction_deg"):
                if key in self.model_fields_set:
                    raise ValueError(f"{key}: only for a plane seabed (z), not with "
                                     "bathymetry")
        return self

    @property
    def grid(self) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """(x [m] (nx,), y [m] (ny,), z [m] (nx, ny)) of a bathymetry seabed, else None."""
        return self._grid

    @property
    def gradient(self) -> tuple[float, float]:
        """(dz/dx, dz/dy) of a plane seabed."""
        t = math.tan(math.radians(self.slope_deg))
        a = math.radians(self.slope_direction_deg)
        return t * math.cos(a), t * math.sin(a)

    @property
    def flat(self) -> bool:
        """True for a horizontal plane."""
        return self.z is not None and self.slope_deg == 0.0


class Environment(_Section):
    """Gravity, the fluid, and the sea (water level, air, wind, current, waves, seabed)."""

    gravity: Vec3 = (0.0, 0.0, -9.81)
    fluid_density: Finite = Field(default=0.0, ge=0)
    current: Flow = (0.0, 0.0, 0.0)
    water_level: Finite | None = None
    air_density: Finite | None = Field(default=None, ge=0)
    wind: Flow | None = None
    waves: Waves | None = None
    seabed: Seabed | None = None

    @property
    def uniform_current(self) -> tuple[float, float, float] | None:
        """The current as one vector [m/s] when uniform, else None (a table or a power
        law: the formulations read it from sea.sea_arrays)."""
        return self.current if isinstance(self.current, tuple) else None

    @property
    def air(self) -> float:
        """Air density above the water level [kg/m^3] (default 1.225)."""
        return 1.225 if self.air_density is None else self.air_density

    @property
    def has_sea(self) -> bool:
        """True when the case has a sea in the results' sense: a water level, waves or a
        seabed (surface_elevation, grounded and seabed_force are written)."""
        return (self.water_level is not None or self.waves is not None
                or self.seabed is not None)

    @property
    def wave_depth(self) -> float:
        """Water depth for the wave dispersion [m]: waves.depth, else the flat seabed's
        depth below the water level, else inf (deep water)."""
        if self.waves is not None and self.waves.depth is not None:
            return self.waves.depth
        if self.seabed is not None and self.seabed.flat and self.water_level is not None:
            return self.water_level - self.seabed.z
        return math.inf

    def flow_law(self, which: str) -> tuple[float, float, float] | None:
        """A power law's (exponent, base_z, reference_z) with the defaults filled in (see
        :class:`PowerLaw`), None when ``which`` ("current" or "wind") is not a power law.
        Raises ValueError "key: problem" when a default cannot be found."""
        law = getattr(self, which)
        if not isinstance(law, PowerLaw):
            return None
        wl = self.water_level
        if which == "current":
            exponent = 1.0 / 7.0 if law.exponent is None else law.exponent
            bed = self.seabed.z if self.seabed is not None and self.seabed.flat else None
            base = law.base_z if law.base_z is not None else bed
            ref = law.reference_z if law.reference_z is not None else wl
            if base is None:
                raise ValueError("base_z: required (no flat seabed to take it from)")
            if ref is None:
                raise ValueError("reference_z: required (no water_level to take it from)")
        else:
            exponent = 0.12 if law.exponent is None else law.exponent
            base = law.base_z if law.base_z is not None else wl
            if base is None:
                raise ValueError("base_z: required (no water_level to take it from)")
            ref = law.reference_z if law.reference_z is not None else base + 10.0
        if ref <= base:
            raise ValueError(f"reference_z: must be above base_z ({ref:g} <= {base:g})")
        return exponent, base, ref


class TensionControl(_Section):
    """A winch that pays out when the tension at the winch exceeds its target, and reels in
    when it falls below: commanded speed sat(kp e + ki ∫e dt, max_speed) with e = T − target,
    followed by the drum at rate (v_cmd − v) / response_time, at most max_acceleration."""

    target: Finite = Field(gt=0)  # [N] tension at the winch
    kp: Finite = Field(ge=0)  # [m/s per N]
    ki: Finite = Field(default=0.0, ge=0)  # [m/s^2 per N]
    max_speed: Finite = Field(gt=0)  # [m/s]
    max_acceleration: Finite = Field(gt=0)  # [m/s^2]
    response_time: Finite = Field(default=0.1, gt=0)  # [s]


#: a payout table: a CSV path or an inline {t: [...], speed|length: [...]}
PayoutTable = str | dict[str, list[float]]


class Payout(_Section):
    """How a winch end pays out (positive) or reels in (negative) tether."""

    # exactly one of: payout speed [m/s] (a constant or a table t, speed: piecewise linear,
    # integrated exactly), deployed length [m] (a table t, length: cubic spline by default),
    # or a tension controller
    speed: Finite | PayoutTable | None = None
    length: PayoutTable | None = None
    interpolation: Literal["cubic", "linear"] | None = None
    tension_control: TensionControl | None = None
    initial_speed: Finite = 0.0  # [m/s] tension control: the drum's speed at t = 0
    # deployed length limits [m]: the controller stops at them; a schedule must stay inside
    min_length: Finite | None = Field(default=None, gt=0)
    max_length: Finite | None = Field(default=None, gt=0)
    # the element next to the winch is merged below element_band[0] and split above
    # element_band[1] times the element length (tether.length / model.elements)
    element_band: tuple[Finite, Finite] = (0.5, 1.6)

    @model_validator(mode="after")
    def _one_schedule(self) -> Payout:
        given = [k for k in ("speed", "length", "tension_control") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of speed, length, tension_control"
                             + (f" (got {', '.join(given)})" if given else ""))
        if self.interpolation is not None and self.length is None and not isinstance(
                self.speed, str | dict):
            raise ValueError("interpolation: only for a speed or length table")
        if self.interpolation == "cubic" and self.speed is not None:
            raise ValueError("interpolation: a speed table is piecewise linear (integrated "
                             "exactly): use 'linear' or leave it out")
        if "initial_speed" in self.model_fields_set and self.tension_control is None:
            raise ValueError("initial_speed: only with tension_control (a schedule gives the "
                             "speed itself)")
        if self.tension_control is not None and self.max_length is None:
            raise ValueError("max_length: required with tension_control (the tether on the "
                             "drum)")
        lo, hi = self.element_band
        if not (0.0 < lo < 1.0 < hi and hi - lo > 1.0):
            raise ValueError("element_band: need 0 < merge < 1 < split and split - merge > 1 "
                             "(so that a split or merge lands inside the band)")
        if (self.min_length is not None and self.max_length is not None
                and self.min_length >= self.max_length):
            raise ValueError("min_length: must be below max_length")
        return self


class End(_Section):
    """One end of the tether (``start`` at s = 0 or ``end`` at s = length)."""

    type: Literal["fixed", "prescribed", "free", "winch"] = "free"
    position: Vec3 | None = None
    clamp: Vec3 | None = None
    mass: Finite = Field(default=0.0, ge=0)
    force: Vec3 = (0.0, 0.0, 0.0)
    force_ramp_time: Finite | None = Field(default=None, gt=0)
    drag_area: Finite = Field(default=0.0, ge=0)
    trajectory: str | dict[str, list[float]] | None = None
    # cubic for position tables, linear for velocity tables (t, vx, vy, vz)
    interpolation: Literal["cubic", "linear"] | None = None
    # models with bending: a bending moment [N m] (inertial axes) at a free end, applied as
    # a follower force couple on the last element (seed 004 §3.3)
    moment: Vec3 | None = None
    # models with torsion: a torque [N m] about the outward tangent (follower), or the roll angle
    # [deg] at which a fixed end holds the cross section (a prescribed end: the trajectory's
    # roll_deg column)
    torque: Finite | None = None
    roll_deg: Finite | None = None
    # a towed body at a free end (seed 004 §2.3.2 depressor): displaced volume [m^3]
    # (buoyancy -rho V g) and added-mass coefficient (added mass ca rho V, isotropic: 0.5
    # for a sphere); with `mass` and `drag_area` (Cd x frontal area)
    volume: Finite = Field(default=0.0, ge=0)
    ca: Finite = Field(default=0.5, ge=0)
    # a winch (at `position`, or moving on a `trajectory`) that pays tether out or reels it in
    payout: Payout | None = None

    def body_masses(self, fluid_density: float) -> tuple[float, float]:
        """(inertial mass [kg], weight mass [kg]) of a free end's point body: mass plus the
        added mass ca rho V, and mass minus the displaced rho V (net weight / g)."""
        if self.type != "free":
            return 0.0, 0.0
        rv = fluid_density * self.volume
        return self.mass + self.ca * rv, self.mass - rv

    @model_validator(mode="after")
    def _by_type(self) -> End:
        if self.type == "prescribed" and self.trajectory is None:
            raise ValueError("trajectory: required for a prescribed end")
        if self.type not in ("prescribed", "winch") and self.trajectory is not None:
            raise ValueError("trajectory: only a prescribed end (or a winch on a moving "
                             "vessel) takes a trajectory")
        if self.type == "winch" and self.payout is None:
            raise ValueError("payout: required for a winch (speed, length or "
                             "tension_control)")
        if self.type != "winch" and self.payout is not None:
            raise ValueError("payout: only a winch end pays out")
        if self.type != "free":
            for key in ("mass", "volume", "drag_area", "force_ramp_time"):
                val = getattr(self, key)
                if val not in (None, 0.0):
                    raise ValueError(f"{key}: only a free end carries a payload or load")
            if "ca" in self.model_fields_set:
                raise ValueError("ca: only a free end carries a body (and its added mass)")
            if any(self.force):
                raise ValueError("force: only a free end takes an applied force")
            if self.moment is not None:
                raise ValueError("moment: only a free end takes an applied moment")
        elif "ca" in self.model_fields_set and self.volume == 0.0:
            raise ValueError("ca: the added mass is ca rho volume: give volume > 0 too")
        if self.roll_deg is not None and self.type != "fixed":
            raise ValueError("roll_deg: only a fixed end holds a roll angle (a prescribed end "
                             "takes a roll_deg column in its trajectory)")
        if self.roll_deg is not None and self.torque is not None:
            raise ValueError("torque: give torque or roll_deg, not both (a held roll takes "
                             "whatever torque it must)")
        if self.clamp is not None:
            n = math.sqrt(sum(c * c for c in self.clamp))
            if n == 0:
                raise ValueError("clamp: must be a non-zero direction")
        return self


class Initial(_Section):
    """``initial``: the shape and motion at t = 0 (shared/spec/case-format.md).

    ``straight`` and ``points`` lay the line as given; ``equilibrium`` is the static
    equilibrium of the case at t = 0, found by the program (statics.py): ``points`` may be
    given as its guess, ``direction`` / ``angle_from_gravity_deg`` as the guess's hint.
    The equilibrium sets the velocities itself (at rest; a steady tow: the tow's), so
    ``velocity`` and ``angular_velocity`` are not taken with it (docs/statics.md)."""

    shape: Literal["straight", "points", "equilibrium"] = "straight"
    direction: Vec3 | None = None
    angle_from_gravity_deg: Finite | None = None
    points: list[Vec3] | None = None
    velocity: Vec3 = (0.0, 0.0, 0.0)
    angular_velocity: Vec3 = (0.0, 0.0, 0.0)

    @model_validator(mode="after")
    def _shape(self) -> Initial:
        if self.shape == "points" and (self.points is None or len(self.points) < 2):
            raise ValueError("points: shape 'points' needs at least 2 points")
        if self.shape == "equilibrium" and self.points is not None and len(self.points) < 2:
            raise ValueError("points: a guess for shape 'equilibrium' needs at least 2 points")
        if self.shape == "straight" and self.points is not None:
            raise ValueError("points: only with shape 'points' (or as the guess of shape "
                             "'equilibrium')")
        if self.points is not None:
            for key in ("direction", "angle_from_gravity_deg"):
                if getattr(self, key) is not None:
                    raise ValueError(f"{key}: not used with given points")
        if self.direction is not None and self.angle_from_gravity_deg is not None:
            raise ValueError("direction: give direction or angle_from_gravity_deg, not both")
        if self.direction is not None and not any(self.direction):
            raise ValueError("direction: must be a non-zero vector")
        if self.shape == "equilibrium":
            # the equilibrium's velocities are its own: at rest, or a steady tow's
            for key in ("velocity", "angular_velocity"):
                if any(getattr(self, key)):
                    raise ValueError(f"{key}: not with shape 'equilibrium' (a static "
                                     "equilibrium starts at rest; a towed case's steady "
                                     "state takes the tow's velocity itself)")
        return self


class Solver(_Section):
    method: Literal["rk4", "rk45", "generalized_alpha"] | None = None
    dt: Finite = Field(gt=0)
    duration: Finite = Field(gt=0)
    output_interval: Finite = Field(default=0.01, gt=0)
    rtol: Finite = Field(default=1e-6, gt=0)
    atol: Finite = Field(default=1e-9, gt=0)
    max_steps: int = Field(default=50_000_000, ge=1)
    rho_inf: Finite = Field(default=0.8, ge=0, le=1)
    # generalized_alpha: the four parameters explicitly instead of rho_inf (all or none)
    alpha_m: Finite | None = None
    alpha_f: Finite | None = None
    beta: Finite | None = Field(default=None, gt=0)
    gamma: Finite | None = Field(default=None, gt=0)
    adaptive: bool = False  # generalized_alpha: step-size control on rtol / atol

    @model_validator(mode="after")
    def _alpha(self) -> Solver:
        given = [k for k in ("alpha_m", "alpha_f", "beta", "gamma") if getattr(self, k) is not None]
        if given and len(given) != 4:
            missing = sorted({"alpha_m", "alpha_f", "beta", "gamma"} - set(given))
            raise ValueError(f"{missing[0]}: give all four of alpha_m, alpha_f, beta, gamma "
                             "(or none, and rho_inf)")
        return self


class _CaseModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str | None = None
    tether: Tether
    model: ModelSection
    environment: Environment = Environment()
    start: End = End(type="fixed", position=(0.0, 0.0, 0.0))
    end: End = End()
    initial: Initial = Initial()
    solver: Solver


class Case:
    """A validated, typed case. Build with :func:`load_case`.

    Attributes mirror the YAML sections (``case.tether.EA``, ``case.solver.dt``, ...);
    ``case.start_trajectory`` / ``case.end_trajectory`` hold prescribed motions.
    """

    def __init__(self, data: _CaseModel, raw: dict, base_dir: Path) -> None:
        self._data = data
        self.raw = raw
        self.base_dir = base_dir
        self.start_trajectory: Trajectory | None = None
        self.end_trajectory: Trajectory | None = None
        #: a winch's deployed length ℓ(t) as a motion whose x is ℓ (None: no winch, or
        #: tension control), and its (least ℓ, time, largest ℓ, time) over the run
        self.payout_schedule: Trajectory | None = None
        self.payout_range: tuple[float, float, float, float] | None = None

    def __getattr__(self, item: str) -> Any:
        if item.startswith("_"):
            raise AttributeError(item)
        return getattr(self._data, item)

    @property
    def supports(self) -> Supports:
        """What the case's formulation supports (models/supports.py)."""
        return supports_of(self.model.type)

    @property
    def method(self) -> str:
        """The integration method (the model's default when the case names none)."""
        return self.solver.method or self.supports.methods[0]

    @property
    def drag_law(self) -> str:
        """The drag law (the model's default when the case names none)."""
        return self.tether.drag_law or self.supports.drag_laws[0]

    @property
    def start_position(self) -> np.ndarray:
        return np.array(self.start.position or (0.0, 0.0, 0.0))

    @property
    def winch_side(self) -> str | None:
        """``"start"`` or ``"end"`` when that end is a winch, else None."""
        for which in ("start", "end"):
            if getattr(self, which).type == "winch":
                return which
        return None

    def end_motion(self, which: str) -> Trajectory | None:
        """Motion of a held end (``"start"`` or ``"end"``), None for a free end."""
        end = getattr(self, which)
        if end.type == "prescribed" or (end.type == "winch" and end.trajectory is not None):
            return getattr(self, f"{which}_trajectory")
        if end.type in ("fixed", "winch"):
            return fixed_point(end.position or (0.0, 0.0, 0.0))
        return None

    def end_state(self, which: str, t: float) -> tuple[np.ndarray, np.ndarray] | None:
        """Position [m] and velocity [m/s] of a held end at time t, None for a free end."""
        motion = self.end_motion(which)
        if motion is None:
            return None
        pos, vel, _ = motion.evaluate(t)
        return pos, vel

    def to_yaml(self) -> str:
        """The case as YAML text (as given, defaults not expanded)."""
        return yaml_text(self.raw)

    def to_dict(self) -> dict:
        return copy.deepcopy(self.raw)

    def with_changes(self, changes: dict[str, Any]) -> Case:
        """A new validated case with dotted keys replaced, e.g. ``{"model.elements": 64}``."""
        raw = copy.deepcopy(self.raw)
        for path, value in changes.items():
            set_key(raw, path, value)
        return load_case(raw, base_dir=self.base_dir)


def set_key(case: dict, path: str, value: Any) -> dict:
    """Set a dotted key path (``tether.EA``) in a case dict, creating sections; returns it."""
    node = case
    parts = path.split(".")
    for p in parts[:-1]:
        node = node.setdefault(p, {})
    node[parts[-1]] = value
    return case


_UNION_TAGS = ("float", "int", "bool", "str", "dict", "tuple", "list")


def _is_tag(p: object) -> bool:
    """pydantic's union/validator tags inside a location (not case keys)."""
    return isinstance(p, str) and (
        p in _UNION_TAGS
        or p.startswith(("function-", "constrained", "literal", "tuple[", "dict[", "list["))
    )


def _loc(loc: tuple) -> str:
    """A dotted key path such as ``initial.points[2]``."""
    out = ""
    for p in loc:
        if _is_tag(p):
            continue
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


def _format_validation_error(err: ValidationError) -> str:
    msgs: list[str] = []
    seen: set[str] = set()
    errors = err.errors()
    # a union (e.g. trajectory: file path | table) reports every branch; when one branch
    # failed deeper inside the value, the shallow "not a string" of the other is noise
    deep = {_loc(e["loc"]) for e in errors}
    errors = [e for e in errors if not (
        e["type"] == "string_type" and any(
            d.startswith(_loc(e["loc"]) + ".") for d in deep))]
    for e in errors:
        path = _loc(e["loc"])
        msg = e["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
            # model validators report "subkey: problem"
            if ": " in msg and msg.split(": ", 1)[0].replace("_", "").isalnum():
                sub, msg = msg.split(": ", 1)
                path = f"{path}.{sub}" if path else sub
        if e["type"] == "extra_forbidden":
            msg = "unknown key"
        elif e["type"] == "missing":
            msg = "required key is missing"
        elif e["type"] == "greater_than":
            msg = f"must be > {e['ctx']['gt']:g}"
        elif e["type"] == "greater_than_equal":
            msg = f"must be >= {e['ctx']['ge']:g}"
        elif e["type"] == "less_than":
            msg = f"must be < {e['ctx']['lt']:g}"
        elif e["type"] == "less_than_equal":
            msg = f"must be <= {e['ctx']['le']:g}"
        elif e["type"] == "literal_error":
            msg = f"must be one of {e['ctx']['expected']}"
        line = f"{path}: {msg}" if path else msg
        if line not in seen:
            seen.add(line)
            msgs.append(line)
    return "\n".join(msgs)


def yaml_text(raw: dict) -> str:
    """``raw`` as YAML text, keys in their order: ``yaml.safe_dump``'s text, written by
    libyaml's emitter where PyYAML has it (the same text, ~4× faster than the Python
    emitter: every results file holds its case's text)."""
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return yaml.dump(raw, Dumper=dumper, sort_keys=False)


def load_case(source: str | Path | dict | Case, *, base_dir: str | Path | None = None) -> Case:
    """Load and validate a case from a YAML file path, YAML text or a dict.

    Raises :class:`CaseError` naming each offending key path. Relative file paths in the
    case are resolved against the case file's folder (or ``base_dir``).
    """
    if isinstance(source, Case):
        return source
    raw, folder = read_case_source(source, base_dir,
                                   "sections (tether, model, ...)")
    try:
        data = _CaseModel.model_validate(raw)
    except ValidationError as exc:
        raise CaseError(_format_validation_error(exc)) from None
    case = Case(data, raw, folder.resolve())
    _check_semantics(case)
    return case


def is_system(raw: Any) -> bool:
    """Whether a case mapping describes a system (it has ``lines``, ``points`` or
    ``bodies``; system_case.py)."""
    return isinstance(raw, dict) and any(k in raw for k in ("lines", "points", "bodies"))


def read_case_source(source: str | Path | dict, base_dir: str | Path | None,
                     sections: str = "sections") -> tuple[dict, Path]:
    """The raw mapping of a case given as a file path, YAML text or a dict, and the folder
    its relative file paths resolve against (``base_dir``, else the file's folder, else the
    working directory). ``sections`` names what the mapping holds, for the error."""
    if isinstance(source, dict):
        return _plain(source), Path(base_dir) if base_dir is not None else Path.cwd()
    path = Path(source)
    if isinstance(source, str) and "\n" in source:
        text, folder = source, Path(base_dir) if base_dir else Path.cwd()
    else:
        if not path.is_file():
            raise CaseError(f"case file not found: {path}")
        text, folder = path.read_text(), Path(base_dir) if base_dir else path.parent
    try:
        raw = yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise CaseError(f"case file is not valid YAML: {exc}") from None
    if not isinstance(raw, dict):
        raise CaseError(f"case file must be a YAML mapping of {sections}")
    return raw, folder


def _plain(obj: Any) -> Any:
    """A deep copy with numpy scalars and arrays turned into plain Python (YAML-safe)."""
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_plain(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return _plain(obj.tolist())
    if isinstance(obj, np.generic):
        return obj.item()
    return obj


def _planar_errors(case: Case) -> list[str]:
    """A planar model lives in the x-z plane: every given vector must have y = 0."""
    errors = []
    vectors = [("environment.gravity", case.environment.gravity),
               ("initial.velocity", case.initial.velocity)]
    for which in ("start", "end"):
        end = getattr(case, which)
        for key in ("position", "force", "clamp"):
            if getattr(end, key) is not None:
                vectors.append((f"{which}.{key}", getattr(end, key)))
    if case.initial.direction is not None:
        vectors.append(("initial.direction", case.initial.direction))
    for i, p in enumerate(case.initial.points or []):
        vectors.append((f"initial.points[{i}]", p))
    for key, v in vectors:
        if v[1] != 0.0:
            errors.append(f"{key}: model {case.model.type} is planar (x-z): the y component "
                          "must be 0")
    errors += _planar_sea_errors(case)
    w = case.initial.angular_velocity
    if w[0] != 0.0 or w[2] != 0.0:
        errors.append(f"initial.angular_velocity: model {case.model.type} is planar (x-z): "
                      "only a rotation about y")
    for which in ("start", "end"):
        traj = getattr(case, f"{which}_trajectory")
        if traj is not None and np.any(traj.coeffs[:, 1, :] != 0.0):
            errors.append(f"{which}.trajectory: model {case.model.type} is planar (x-z): the "
                          "y column must be 0")
    return errors


def _twist_errors(case: Case) -> list[str]:
    """Torsion needs one end that holds the roll when the other takes a torque (seed 004
    §4.5.1: with no rotational inertia a boundary torque must be reacted at the other end)."""
    errors = []
    held = {}
    for which in ("start", "end"):
        end = getattr(case, which)
        traj = getattr(case, f"{which}_trajectory", None)
        held[which] = end.roll_deg is not None or (
            end.type == "prescribed" and traj is not None and traj.roll is not None)
    if case.start.torque is not None and case.end.torque is not None:
        errors.append("end.torque: give a torque at one end only; the other end must hold "
                      "its roll (roll_deg) and react it")
    for which, other in (("start", "end"), ("end", "start")):
        torque = getattr(case, which).torque
        if torque and case.tether.GJ <= 0:
            errors.append(f"{which}.torque: needs tether.GJ > 0 (with GJ = 0 the tether "
                          "carries no torque)")
        if torque and not held[other] and case.tether.GJ > 0:
            errors.append(f"{which}.torque: needs the {other} end to hold its roll "
                          f"({other}.roll_deg, or a roll_deg trajectory column): no twist "
                          "state balances an unreacted torque (seed 004 §4.5.1)")
    return errors


def _winch_errors(case: Case, decl: Supports) -> list[str]:
    """A winch end: a model that can grow its end element, one winch, a schedule that
    keeps at least one element deployed (seed 004 §6.1.1; docs/winch.md)."""
    from .winch import load_payout, schedule_range

    side = case.winch_side
    if side is None:
        return []
    errors = []
    mtype = case.model.type
    if case.start.type == "winch" and case.end.type == "winch":
        return ["end.type: one winch per tether (the start end is a winch already)"]
    if not decl.winch:
        why = f" ({decl.winch_note})" if decl.winch_note else ""
        return [f"{side}.type: a winch needs a model whose end element can grow and shrink; "
                f"{mtype} cannot{why}"]
    end = getattr(case, side)
    p = end.payout
    L = case.tether.length
    L_nom = L / case.model.elements
    key = f"{side}.payout"
    if decl.torsion:
        for which in ("start", "end"):
            e = getattr(case, which)
            traj = getattr(case, f"{which}_trajectory")
            if e.torque is not None or e.roll_deg is not None or (
                    traj is not None and traj.roll is not None):
                errors.append(f"{which}: a {mtype} tether on a winch carries no twist "
                              "(torque / held roll): the twist of the material on the drum is "
                              "not modelled; leave torque and roll out")
                break
    lmin = p.min_length if p.min_length is not None else L_nom
    if p.max_length is not None and p.max_length < L:
        errors.append(f"{key}.max_length: {p.max_length:g} m is below the deployed length at "
                      f"the start, tether.length = {L:g} m")
    if lmin > L:
        errors.append(f"{key}.min_length: {lmin:g} m is above the deployed length at the "
                      f"start, tether.length = {L:g} m")
    if p.tension_control is not None:
        return errors
    which = "length" if p.length is not None else "speed"
    try:
        motion = load_payout(p, L, case.solver.duration, case.base_dir)
    except ValueError as exc:
        return errors + [f"{key}.{which}: {exc}"]
    case.payout_schedule = motion
    case.payout_range = schedule_range(motion, case.solver.duration)
    lo, t_lo, hi, t_hi = case.payout_range
    if lo < lmin * (1 - 1e-9):
        errors.append(f"{key}.{which}: the deployed length falls to {lo:.6g} m at t = "
                      f"{t_lo:.6g} s, below the least allowed {lmin:.6g} m "
                      f"({'min_length' if p.min_length is not None else 'one element'})")
    if p.max_length is not None and hi > p.max_length * (1 + 1e-9):
        errors.append(f"{key}.{which}: the deployed length reaches {hi:.6g} m at t = "
                      f"{t_hi:.6g} s, beyond max_length = {p.max_length:g} m")
    return errors


def _model_key_errors(case: Case, decl: Supports) -> list[str]:
    """The model section's own keys against the declared options (models/supports.py)."""
    errors = []
    mtype = case.model.type
    for key, val in (case.model.model_extra or {}).items():
        opt = decl.options.get(key)
        if opt is None:
            # on this error path only: which other formulation declares the key
            owners = [m for m in REGISTRY if m != mtype and key in model_options(m)]
            hint = f" (it belongs to model {owners[0]})" if owners else ""
            errors.append(f"model.{key}: unknown key for model {mtype}{hint}")
            continue
        if opt.kind is bool and not isinstance(val, bool):
            errors.append(f"model.{key}: must be true or false")
        if opt.kind is float and (isinstance(val, bool) or not isinstance(val, int | float)
                                  or not math.isfinite(val) or val < 0):
            errors.append(f"model.{key}: must be a finite number >= 0")
        if opt.kind is str and val not in opt.choices:
            errors.append(f"model.{key}: must be one of {', '.join(opt.choices)} (got {val!r})")
        if val is not None:
            for tkey in opt.excludes:
                if tkey in case.raw.get("tether", {}):
                    errors.append(f"tether.{tkey}: give model.{key} or tether.{tkey}, "
                                  "not both")
    return errors


def _supported_errors(case: Case, decl: Supports, bending: bool) -> list[str]:
    """Required tether keys, drag law, method and end types against the declaration."""
    errors = []
    mtype = case.model.type
    t = case.tether
    for key in decl.required:
        if getattr(t, key) is None:
            errors.append(f"tether.{key}: required (must be > 0) for model {mtype}")
    if bending and t.EI <= 0:
        need = (f"model.{decl.bending}: true" if isinstance(decl.bending, str)
                else f"model {mtype}")
        errors.append(f"tether.EI: required (must be > 0) for {need}")
    if case.drag_law not in decl.drag_laws:
        errors.append(
            f"tether.drag_law: '{case.drag_law}' is not supported by model {mtype} "
            f"(supported: {', '.join(decl.drag_laws)})"
        )
    if case.method not in decl.methods:
        errors.append(
            f"solver.method: '{case.method}' is not available for model {mtype} "
            f"(available: {', '.join(decl.methods)})"
        )
    for which, types in (("start", decl.start_types), ("end", decl.end_types)):
        kind = getattr(case, which).type
        if kind != "winch" and kind not in types:  # a winch end: decl.winch (_winch_errors)
            note = f" ({decl.ends_note})" if decl.ends_note else ""
            errors.append(f"{which}.type: model {mtype} supports only a "
                          f"{' or '.join(types)} {which}, not a {kind} one{note}")
    return errors


def _end_load_errors(case: Case, decl: Supports, bending: bool) -> list[str]:
    """Clamps, end moments, torques and held rolls against the declaration."""
    errors = []
    mtype = case.model.type
    switch = f"model.{decl.bending}: true" if isinstance(decl.bending, str) else ""
    for which in ("start", "end"):
        end = getattr(case, which)
        if end.clamp is not None and not (decl.clamp and bending):
            why = (f"only with {switch}" if decl.clamp and switch else
                   "has none" if not decl.bending else "clamps no end")
            errors.append(f"{which}.clamp: needs a model with bending stiffness that clamps "
                          f"its ends ({mtype} {why})")
        if end.clamp is not None and end.type == "free":
            errors.append(f"{which}.clamp: only a fixed or prescribed end can be clamped")
        if end.moment is not None and not (decl.moment and bending):
            why = (f"only with {switch}" if decl.moment and switch else "takes none")
            errors.append(f"{which}.moment: needs a model with bending stiffness that takes "
                          f"an end moment ({mtype} {why})")
        for key in ("torque", "roll_deg"):
            if getattr(end, key) is not None and not decl.torsion:
                errors.append(f"{which}.{key}: needs a model with torsion ({mtype} has none)")
    return errors


def _sea_errors(case: Case) -> list[str]:
    """Cross-checks of the sea keys (issue 17) and the loading of a bathymetry grid."""
    from .sea import bathymetry_grid

    env = case.environment
    errors: list[str] = []
    raw = case.raw.get("environment", {}) or {}
    wl = env.water_level
    sea = wl is not None or env.waves is not None or env.seabed is not None
    g = env.gravity
    # zero gravity keeps z up (MoorDyn's g = 0 decks); waves need g for their dispersion
    if sea and (g[0] != 0.0 or g[1] != 0.0 or g[2] > 0.0
                or (g[2] == 0.0 and env.waves is not None)):
        errors.append("environment.gravity: the sea (water_level, waves, seabed) needs "
                      "gravity along -z (z up; zero gravity only without waves)")
    if wl is None:
        for key in ("air_density", "wind", "waves"):
            if key in raw:
                errors.append(f"environment.{key}: needs environment.water_level (the calm "
                              "surface: water below, air above); for a tether in air alone "
                              "give fluid_density (1.225) and current")
    elif env.fluid_density <= 0.0:
        errors.append("environment.fluid_density: must be > 0 with a water_level (the "
                      "water's density below the surface)")
    for which in ("current", "wind"):
        try:
            env.flow_law(which)
        except ValueError as exc:
            errors.append(f"environment.{which}.{exc}")
    bed = env.seabed
    if bed is not None and bed.bathymetry is not None:
        spec = bed.bathymetry
        try:
            cols = (_read_csv(case.base_dir / spec) if isinstance(spec, str)
                    else {k: list(v) for k, v in spec.items()})
            missing = [c for c in ("x", "y", "z") if c not in cols]
            if missing:
                raise ValueError(f"column {missing[0]} missing (need x, y, z)")
            extra = sorted(set(cols) - {"x", "y", "z"})
            if extra:
                raise ValueError(f"unknown column {extra[0]} (need x, y, z)")
            bed._grid = bathymetry_grid(cols["x"], cols["y"], cols["z"])
        except ValueError as exc:
            errors.append(f"environment.seabed.bathymetry: {exc}")
    if bed is not None and wl is not None:
        if bed.z is not None and bed.z > wl:
            errors.append(f"environment.seabed.z: {bed.z:g} m is above environment."
                          f"water_level ({wl:g} m)")
        elif bed.grid is not None and float(bed.grid[2].min()) > wl:
            errors.append(f"environment.seabed.bathymetry: every point ({bed.grid[2].min():g} "
                          f"m and up) is above environment.water_level ({wl:g} m)")
    if env.waves is not None and wl is not None and env.waves.depth is None:
        if bed is not None and bed.flat and wl - bed.z <= 0.0:
            errors.append("environment.waves.depth: the flat seabed is at the water level "
                          "(no depth for the dispersion relation)")
    return errors


def _points_end_errors(case: Case) -> list[str]:
    """Given points must start and end where held ends are at t = 0 (the ends rule,
    initial.py): a point off a held end would be moved onto it, stretching the element
    next to it by the gap (EA x gap / element length: a jolt at t = 0)."""
    from .initial import end_gaps

    gaps = end_gaps(case)
    errors = []
    for which, (index, gap, point, held) in gaps.items():
        if gap > 0.0:
            errors.append(
                f"initial.points[{index}]: ({point[0]:g}, {point[1]:g}, {point[2]:g}) is "
                f"{gap:.6g} m from where the {which} end is held at t = 0 ({held[0]:g}, "
                f"{held[1]:g}, {held[2]:g}): a held end's point must be where that end is at "
                "t = 0 (docs/statics.md, the ends rule)")
    return errors


def _wave_grid_errors(case: Case) -> list[str]:
    """A wave grid range (environment.waves.grid.x / y / z) must cover the line's initial
    nodes (waves.py precomputes the kinematics there)."""
    from .initial import initial_nodes

    w = case.environment.waves
    grid = w.grid if w is not None else None
    if not isinstance(grid, WaveGrid) or all(getattr(grid, k) is None for k in "xyz"):
        return []
    arc = np.linspace(0.0, case.tether.length, case.model.elements + 1)
    try:
        pos = initial_nodes(case, arc)[0]
    except ValueError:
        return []  # the initial shape's own error is reported elsewhere
    errors = []
    for axis, key in enumerate("xyz"):
        r = getattr(grid, key)
        if r is None:
            continue
        out = (pos[:, axis] < r[0]) | (pos[:, axis] > r[1])
        if out.any():
            i = int(np.argmax(out))
            errors.append(f"environment.waves.grid.{key}: [{r[0]:g}, {r[1]:g}] does not cover "
                          f"the line's initial position (node {i} at {key} = "
                          f"{pos[i, axis]:g} m)")
    return errors


def _planar_sea_errors(case: Case) -> list[str]:
    """A planar model lives in the x-z plane: the sea's directions must stay in it."""
    env = case.environment
    errors = []
    mtype = case.model.type

    def along_x(deg: float) -> bool:
        return math.isclose(math.sin(math.radians(deg)), 0.0, abs_tol=1e-12)

    for which in ("current", "wind"):
        flow = getattr(env, which)
        bad = False
        if isinstance(flow, tuple):
            bad = flow[1] != 0.0
        elif isinstance(flow, FlowTable):
            bad = bool(flow.y and any(flow.y)) or any(
                not along_x(a) for a in (flow.direction_deg or []))
        elif isinstance(flow, PowerLaw):
            bad = not along_x(flow.direction_deg)
        if bad:
            errors.append(f"environment.{which}: model {mtype} is planar (x-z): the y "
                          "component must be 0")
    w = env.waves
    if w is not None:
        dirs = [w.direction_deg]
        if isinstance(w.components, ComponentTable):
            dirs += list(w.components.direction_deg or [])
        if any(not along_x(a) for a in dirs):
            errors.append(f"environment.waves.direction_deg: model {mtype} is planar (x-z): "
                          "waves must run along x (0 or 180)")
    bed = env.seabed
    if bed is not None and bed.z is not None and bed.slope_deg != 0.0 and not along_x(
            bed.slope_direction_deg):
        errors.append(f"environment.seabed.slope_direction_deg: model {mtype} is planar "
                      "(x-z): the slope must rise along x (0 or 180)")
    return errors


def _check_semantics(case: Case) -> None:
    """Cross-section rules the schema alone cannot express; the model-specific ones by
    generic loops over the declaration of the case's formulation (models/supports.py)."""
    errors: list[str] = []
    mtype = case.model.type
    t = case.tether
    if mtype not in REGISTRY:
        raise CaseError(f"model.type: '{mtype}' is not a model of this version "
                        f"(available: {', '.join(REGISTRY)})")
    decl = case.supports
    bending = decl.bending_on(case.model.option)
    errors += _model_key_errors(case, decl)
    errors += _supported_errors(case, decl, bending)
    if case.method != "generalized_alpha":
        for key in ("alpha_m", "alpha_f", "beta", "gamma", "adaptive"):
            if key in case.raw.get("solver", {}):
                errors.append(f"solver.{key}: only used by the method generalized_alpha")
    elif case.solver.alpha_m is not None and "rho_inf" in case.raw.get("solver", {}):
        errors.append("solver.rho_inf: give rho_inf or the four parameters, not both")
    s = case.solver
    if s.output_interval > s.duration:
        errors.append("solver.output_interval: must not exceed solver.duration")
    fixed_step = case.method == "rk4" or (case.method == "generalized_alpha"
                                          and not s.adaptive)
    if fixed_step:
        ratio = s.output_interval / s.dt
        if abs(ratio - round(ratio)) > 1e-9 * max(1.0, ratio) or round(ratio) < 1:
            errors.append(
                f"solver.output_interval: must be an integer multiple of solver.dt "
                f"({s.output_interval} / {s.dt} = {ratio:.6g}) for the fixed-step method "
                f"{case.method}"
            )
    if s.dt > s.duration:
        errors.append("solver.dt: must not exceed solver.duration")
    # ends
    kinematic = {"fixed", "prescribed", "winch"}
    if case.end.type == "fixed" and case.end.position is None:
        errors.append("end.position: required for a fixed end")
    if case.end.type == "winch" and case.end.position is None and case.end.trajectory is None:
        errors.append("end.position: required for a winch at the end end (or a trajectory)")
    if case.end.type == "free" and case.end.position is not None:
        errors.append("end.position: a free end's position comes from the initial shape")
    errors += _end_load_errors(case, decl, bending)
    for which in ("start", "end"):
        end = getattr(case, which)
        if end.type == "prescribed" or (end.type == "winch" and end.trajectory is not None):
            try:
                traj = load_trajectory(end.trajectory, end.interpolation, case.base_dir,
                                       origin=end.position)
            except ValueError as exc:
                errors.append(f"{which}.trajectory: {exc}")
            else:
                setattr(case, f"{which}_trajectory", traj)
    errors += _winch_errors(case, decl)
    errors += _sea_errors(case)
    if decl.torsion:
        errors += _twist_errors(case)
    if decl.planar:
        errors += _planar_errors(case)
    both_kinematic = case.start.type in kinematic and case.end.type in kinematic
    ini = case.initial
    for key in ("direction", "angle_from_gravity_deg"):
        if ini.points is None and both_kinematic and getattr(ini, key) is not None:
            errors.append(
                f"initial.{key}: omit it when both ends are fixed or prescribed "
                "(the straight line between them is used)"
            )
    if not errors:
        errors += _points_end_errors(case)
    if not errors:
        errors += _wave_grid_errors(case)
    if ini.points is None and both_kinematic and not errors:
        a, b = case.end_state("start", 0.0)[0], case.end_state("end", 0.0)[0]
        if np.linalg.norm(b - a) > t.length * (1 + 10.0):
            errors.append("initial: the ends are more than 11 tether lengths apart")
        if np.linalg.norm(b - a) == 0.0 and ini.shape == "straight":
            # (an equilibrium hangs from the one point: its solver lays the guess)
            errors.append("initial: both ends start at the same point; give initial.points")
    if errors:
        raise CaseError("\n".join(errors))
    # a non-circular section (area given, e.g. a flat strip whose `diameter` is its width)
    # with buoyancy and added mass still taken from the circle of that diameter
    tr = case.raw.get("tether", {})
    if ("area" in tr and "displaced_area" not in tr and case.environment.fluid_density > 0
            and not math.isclose(t.area, t.displaced, rel_tol=0.05)):
        warnings.warn(
            f"tether.displaced_area: not given, so buoyancy and added mass use the circle of "
            f"the diameter ({t.displaced:.4g} m^2) although tether.area is {t.area:.4g} m^2; "
            "give displaced_area for a non-circular section", CaseWarning, stacklevel=3)
    # unused tether properties: a warning that names them
    used = decl.used_tether_keys(bending)
    given = set(case.raw.get("tether", {}).keys())
    for key in sorted(given - used):
        val = case.raw["tether"][key]
        if val not in (None, 0, 0.0, False):
            warnings.warn(
                f"tether.{key}: not used by model {mtype}; ignored", CaseWarning, stacklevel=3
            )

