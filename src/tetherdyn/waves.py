"""Linear (Airy) waves: dispersion, component tables, stretching and the compiled kinematics.

The sea surface is a sum of linear wave components (DNV-RP-C205 §3.2, §3.5.4)::

    eta(x, y, t) = sum_c A_c cos(psi_c),   psi_c = kx_c x + ky_c y - omega_c t + phi_c

with omega_c^2 = g k_c tanh(k_c h) (finite depth h, deep water when h is None). Below the
surface each component carries the closed-form Airy velocity and acceleration (z measured
from the calm level, h the water depth)::

    u_h = A omega  C(z) cos(psi)      along the component's direction (cos th, sin th)
    u_z = A omega  S(z) sin(psi)
    a_h = A omega^2 C(z) sin(psi)     (local acceleration du/dt of linear theory)
    a_z = -A omega^2 S(z) cos(psi)
    C(z) = cosh(k (z + h)) / sinh(k h),  S(z) = sinh(k (z + h)) / sinh(k h)

evaluated as (e^{kz} +- e^{-k(z+2h)}) / (1 - e^{-2kh}), which has no overflow at any depth and
tends to e^{kz} in deep water. Above the surface velocity and acceleration are 0; between the
calm level and the crest the stretching rule (``par[STRETCH]``) decides (DNV-RP-C205 §3.2.3):

- ``wheeler`` (default): the profile is evaluated at z' = h (z - eta) / (h + eta)
  (z' = z - eta in deep water), so the crest gets the calm-level kinematics;
- ``vertical``: z' = min(z, 0), the calm-level value held up to the crest;
- ``extrapolated``: above z = 0, linear extrapolation u(0) + z du/dz(0);
- ``none``: kinematics only up to the calm level (0 above it).

Arrays (built by :func:`build_waves`; layout owned by this module, see ``docs/waves.md``):

- ``sea_waves`` (C, NWC): one row per component, columns :data:`AMP`, :data:`OMEGA`, :data:`K`,
  :data:`KX`, :data:`KY`, :data:`PHASE`, :data:`D_INV`, :data:`TWO_H`; (0, NWC) without waves.
- ``sea_grid``: precomputed kinematics (a flat float64 array, mutated by the kernel as the time
  moves on; ``(1,)`` = [0.0] when the kinematics are summed directly). A lattice along the
  waves (a), across them (b; one column for a unidirectional sea) and in levels above the
  calm surface, holding for the two time slices around t the elevation with its rate and
  the linear field (velocity, acceleration, jerk); linear in space, cubic Hermite in time.
  Slice j is filled at a grid point the first time a point needs it and depends only on j,
  so results do not depend on the order of the calls (rejected steps, restarts). Points
  outside the grid are summed directly. Spacing from ``grid.tolerance`` (docs/waves.md).
- ``sea_par``: the scalars this module reads are at the indices :data:`WATER_LEVEL`,
  :data:`WAVE_DEPTH`, :data:`STRETCH` (0, 1, 2): defined here, imported by ``sea.py``, which
  puts its own scalars from :data:`N_WAVE_PAR` on. ``par[WAVE_DEPTH]`` is ``inf`` in deep water.
  :func:`fill_wave_par` writes them.

All lengths in m, times in s, angles in rad inside the arrays (degrees only in case keys).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np

from ._jit import inline_kernel, kernel

# ---- sea_par indices read by this module (sea.py imports them and starts at N_WAVE_PAR) -------
WATER_LEVEL = 0  #: z of the calm surface [m]
WAVE_DEPTH = 1  #: water depth used by the dispersion relation [m]; inf: deep water
STRETCH = 2  #: stretching rule code (STRETCH_CODES)
N_WAVE_PAR = 3

# ---- stretching rules ---------------------------------------------------------------------------
WHEELER = 0
VERTICAL = 1
EXTRAPOLATED = 2
NO_STRETCH = 3
STRETCH_CODES = {"wheeler": WHEELER, "vertical": VERTICAL, "extrapolated": EXTRAPOLATED,
                 "none": NO_STRETCH}

# ---- columns of the component table sea_waves ---------------------------------------------------
AMP = 0  #: amplitude A [m]
OMEGA = 1  #: circular frequency omega [rad/s]
K = 2  #: wave number k [rad/m]
KX = 3  #: k cos(direction) [rad/m]
KY = 4  #: k sin(direction) [rad/m]
PHASE = 5  #: phase phi [rad]
D_INV = 6  #: 1 / (1 - exp(-2 k h)) [-] (1 in deep water)
TWO_H = 7  #: 2 h [m] (inf in deep water)
NWC = 8

# ---- the precomputed grid sea_grid: header slots ----------------------------------------------
G_FLAG = 0  #: 1.0: a grid follows; 0.0: direct sums
G_NA, G_NB, G_NZ = 1, 2, 3  #: points along the frame's a (wave direction), b (across), z axes
G_A0, G_DA, G_B0, G_DB, G_Z0, G_DZ = 4, 5, 6, 7, 8, 9  #: first point and spacing [m]
G_DT = 10  #: time-slice interval [s]; slice j is at t = j dt
G_COS, G_SIN = 11, 12  #: frame: a = x cos + y sin, b = -x sin + y cos
G_ETA, G_FIELD, G_DEPTH = 13, 14, 15  #: offsets of the blocks
G_IDA, G_IDB, G_IDZ, G_IDT = 16, 17, 18, 19  #: 1 / spacings, 1 / slice interval
G_FSLOT = 20  #: floats per grid point and slot in the field block: FIELD_SLOT or UNI_SLOT
#: offsets of the fills' blocks: per component cos, sin of psi at the point being filled;
#: (unidirectional grids, else -1) per column cos, sin of k a, and per slot the slice
#: stamp with cos, sin of (phase - omega t_j): psi's two parts, so fills need no trig
G_PSI, G_COLPH, G_TPH = 21, 22, 23
G_HEADER = 24
#: per horizontal point and slot: slice stamp, eta [m], d eta/dt [m/s]
ETA_SLOT = 3
#: per grid point and slot of a multidirectional sea: slice stamp, velocity (3),
#: acceleration (3), jerk (3)
FIELD_SLOT = 10
#: per grid point and slot of a unidirectional sea (nothing varies across it, and every
#: horizontal vector lies along its direction): slice stamp, then the horizontal (along
#: G_COS, G_SIN) and vertical velocity, acceleration and jerk u_h, u_z, a_h, a_z, j_h, j_z
UNI_SLOT = 7
GRID_KEYS = ("tolerance", "spacing", "dt", "margin", "x", "y", "z")
GRID_TOLERANCE = 1e-2  #: default relative interpolation error of the grid (velocity)
GRID_MAX_SIZE = 2**24  #: floats (128 MiB)
#: the automatic grid only from this many components on: below, direct sums cost less
#: (benchmarks/results_waves.md: 1 component 103 ns direct, 211 ns from the grid)
GRID_MIN_COMPONENTS = 4

WAVE_TYPES = ("airy", "jonswap", "pierson_moskowitz", "components")
#: default frequency range of the spectra, in multiples of the peak frequency 1/tp
FREQUENCY_RANGE_DEFAULT = (0.5, 5.0)


# ============================================================================ dispersion ===
def wave_number(omega, g: float, depth: float | None = None) -> np.ndarray:
    """Wave number k [rad/m] solving omega^2 = g k tanh(k h) (DNV-RP-C205 eq. 3.2.1.2).

    ``omega`` [rad/s] scalar or array (> 0), ``g`` [m/s^2] > 0, ``depth`` h [m] > 0 or None
    (deep water: k = omega^2 / g). Vectorised: Guo's (2002) explicit start, kh = y (1 -
    exp(-y^1.25))^-0.4 with y = omega^2 h / g (0.75 % error), then Newton on x tanh x = y to
    round-off (quadratic convergence; 8 iterations are far more than needed).
    """
    w = np.asarray(omega, dtype=float)
    if np.any(~np.isfinite(w)) or np.any(w <= 0.0):
        raise ValueError("wave_number: omega must be finite and > 0")
    if depth is None or not math.isfinite(depth):
        return w * w / g
    if depth <= 0.0:
        raise ValueError("wave_number: depth must be > 0")
    y = w * w * depth / g
    x = y * (1.0 - np.exp(-np.power(y, 1.25))) ** -0.4
    for _ in range(8):
        th = np.tanh(x)
        f = x * th - y
        x = x - f / (th + x * (1.0 - th * th))
    return x / depth


# ========================================================================= spectra ===
def pierson_moskowitz(omega, hs: float, tp: float) -> np.ndarray:
    """Pierson-Moskowitz spectrum S(omega) [m^2 s/rad] (DNV-RP-C205 eq. 3.5.5.1):
    5/16 Hs^2 wp^4 w^-5 exp(-5/4 (w/wp)^-4), wp = 2 pi / tp. hs [m], tp [s], omega [rad/s]."""
    w = np.asarray(omega, dtype=float)
    wp = 2.0 * math.pi / tp
    return 5.0 / 16.0 * hs**2 * wp**4 * w**-5 * np.exp(-1.25 * (w / wp) ** -4)


def jonswap(omega, hs: float, tp: float, gamma: float = 3.3) -> np.ndarray:
    """JONSWAP spectrum S(omega) [m^2 s/rad] (DNV-RP-C205 eq. 3.5.5.4-5): the PM spectrum times
    A_gamma gamma^exp(-0.5 ((w - wp) / (sigma wp))^2), A_gamma = 1 - 0.287 ln(gamma), sigma =
    0.07 for w <= wp, 0.09 above."""
    w = np.asarray(omega, dtype=float)
    wp = 2.0 * math.pi / tp
    sigma = np.where(w <= wp, 0.07, 0.09)
    peak = gamma ** np.exp(-0.5 * ((w - wp) / (sigma * wp)) ** 2)
    return (1.0 - 0.287 * math.log(gamma)) * pierson_moskowitz(w, hs, tp) * peak


# ================================================================== component tables ===
def _table(amplitude, omega, phase, direction, g: float, depth: float | None) -> np.ndarray:
    """The (C, NWC) component table from amplitudes [m], omega [rad/s], phases [rad] and
    propagation directions [rad]."""
    amplitude, omega, phase, direction = np.broadcast_arrays(
        *(np.atleast_1d(np.asarray(v, dtype=float)) for v in (amplitude, omega, phase,
                                                              direction)))
    k = wave_number(omega, g, depth)
    table = np.empty((omega.size, NWC))
    table[:, AMP] = amplitude
    table[:, OMEGA] = omega
    table[:, K] = k
    table[:, KX] = k * np.cos(direction)
    table[:, KY] = k * np.sin(direction)
    table[:, PHASE] = phase
    if depth is None or not math.isfinite(depth):
        table[:, D_INV] = 1.0
        table[:, TWO_H] = math.inf
    else:
        table[:, D_INV] = 1.0 / -np.expm1(-2.0 * k * depth)
        table[:, TWO_H] = 2.0 * depth
    return _frozen(table)


def airy_table(height: float, period: float, direction_deg: float = 0.0,
               phase_deg: float = 0.0, *, g: float = 9.81, depth: float | None = None
               ) -> np.ndarray:
    """One regular wave: eta = H/2 cos(k.x - omega t + phase). height H [m] (crest to trough),
    period [s], direction_deg: propagation direction from +x towards +y [deg]."""
    return _table(0.5 * height, 2.0 * math.pi / period, math.radians(phase_deg),
                  math.radians(direction_deg), g, depth)


def spectrum_table(spectrum: str, hs: float, tp: float, *, gamma: float = 3.3,
                   components: int = 200, seed: int = 1, direction_deg: float = 0.0,
                   frequency_range: Sequence[float] | None = None, g: float = 9.81,
                   depth: float | None = None) -> np.ndarray:
    """A realisation of a JONSWAP or Pierson-Moskowitz sea (random phases, deterministic
    amplitudes, DNV-RP-C205 §3.5.4): ``components`` equally spaced frequencies at the
    midpoints of ``frequency_range`` [Hz] (default 0.5 to 5 times 1/tp), A = sqrt(2 S(w) dw),
    phases uniform in [0, 2 pi) from numpy's default_rng(seed). hs [m], tp [s]."""
    lo, hi = (FREQUENCY_RANGE_DEFAULT[0] / tp, FREQUENCY_RANGE_DEFAULT[1] / tp) \
        if frequency_range is None else frequency_range
    dw = 2.0 * math.pi * (hi - lo) / components
    omega = 2.0 * math.pi * lo + dw * (np.arange(components) + 0.5)
    s = jonswap(omega, hs, tp, gamma) if spectrum == "jonswap" else \
        pierson_moskowitz(omega, hs, tp)
    phase = np.random.default_rng(seed).uniform(0.0, 2.0 * math.pi, components)
    return _table(np.sqrt(2.0 * s * dw), omega, phase, math.radians(direction_deg), g, depth)


def components_table(frequency, amplitude, phase_deg, direction_deg, *, g: float = 9.81,
                     depth: float | None = None) -> np.ndarray:
    """A user's component table: frequency [Hz], amplitude [m], phase_deg, direction_deg."""
    return _table(amplitude, 2.0 * math.pi * np.asarray(frequency, dtype=float),
                  np.radians(phase_deg), np.radians(direction_deg), g, depth)


# ============================================================================= builder ===
def _get(section, name: str, default=None):
    value = getattr(section, name, default)
    return default if value is None else value


def _positive(value, key: str) -> float:
    value = float(value)
    if not math.isfinite(value) or value <= 0.0:
        raise ValueError(f"{key}: must be a finite number > 0 (got {value})")
    return value


def wave_table(waves, g: float, depth: float | None) -> np.ndarray:
    """The component table of a case's ``environment.waves`` section (duck typed: attributes
    named as in case-format.md). ``g`` [m/s^2], ``depth`` [m] or None (deep water).
    Bad values raise ValueError naming the key."""
    kind = _get(waves, "type", "airy")
    if kind not in WAVE_TYPES:
        raise ValueError(f"environment.waves.type: must be one of {WAVE_TYPES}, not {kind!r}")
    direction = float(_get(waves, "direction_deg", 0.0))
    if kind == "airy":
        return airy_table(_positive(_get(waves, "height", math.nan), "environment.waves.height"),
                          _positive(_get(waves, "period", math.nan), "environment.waves.period"),
                          direction, float(_get(waves, "phase_deg", 0.0)), g=g, depth=depth)
    if kind == "components":
        table = getattr(waves, "components", None)
        if isinstance(table, dict):
            get = table.get
        else:
            def get(key, default=None):
                return getattr(table, key, default)
        freq = np.atleast_1d(np.asarray(get("frequency"), dtype=float))
        if freq.ndim != 1 or freq.size == 0:
            raise ValueError("environment.waves.components.frequency: a non-empty list [Hz]")
        cols = {}
        for key, default in (("amplitude", None), ("phase_deg", 0.0),
                             ("direction_deg", direction)):
            v = get(key, default)
            if v is None:
                raise ValueError(f"environment.waves.components.{key}: required")
            v = np.broadcast_to(np.asarray(v, dtype=float), freq.shape) \
                if np.ndim(v) == 0 else np.asarray(v, dtype=float)
            if v.shape != freq.shape:
                raise ValueError(f"environment.waves.components.{key}: needs {freq.size} "
                                 f"values, one per frequency")
            cols[key] = v
        for key, v in (("frequency", freq), ("amplitude", cols["amplitude"])):
            if np.any(~np.isfinite(v)) or np.any(v < 0.0) or (key == "frequency"
                                                              and np.any(v == 0.0)):
                raise ValueError(f"environment.waves.components.{key}: must be finite and "
                                 f"{'> 0' if key == 'frequency' else '>= 0'}")
        return components_table(freq, cols["amplitude"], cols["phase_deg"],
                                cols["direction_deg"], g=g, depth=depth)
    hs = _positive(_get(waves, "hs", math.nan), "environment.waves.hs")
    tp = _positive(_get(waves, "tp", math.nan), "environment.waves.tp")
    gamma = _positive(_get(waves, "gamma", 3.3), "environment.waves.gamma")
    n = _get(waves, "components", 200)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError("environment.waves.components: the number of frequencies, an "
                         "integer >= 1")
    fr = _get(waves, "frequency_range", None)
    if fr is not None:
        fr = tuple(float(f) for f in fr)
        if len(fr) != 2 or not (0.0 < fr[0] < fr[1] < math.inf):
            raise ValueError("environment.waves.frequency_range: [low, high] in Hz with "
                             "0 < low < high")
    return spectrum_table(kind, hs, tp, gamma=gamma, components=int(n),
                          seed=int(_get(waves, "seed", 1)), direction_deg=direction,
                          frequency_range=fr, g=g, depth=depth)


def dispersion_depth(waves, depth: float | None) -> float | None:
    """The depth [m] the dispersion uses: the section's ``depth`` key, else ``depth`` (the flat
    seabed's depth below the water level, given by the caller), else None (deep water)."""
    own = getattr(waves, "depth", None)
    if own is not None:
        return _positive(own, "environment.waves.depth")
    if depth is None or not math.isfinite(depth):
        return None
    return _positive(depth, "environment.waves.depth (from the seabed)")


def stretch_code(waves) -> int:
    """The code of the section's ``stretching`` key (default wheeler)."""
    name = _get(waves, "stretching", "wheeler")
    if name not in STRETCH_CODES:
        raise ValueError(f"environment.waves.stretching: must be one of "
                         f"{tuple(STRETCH_CODES)}, not {name!r}")
    return STRETCH_CODES[name]


def fill_wave_par(par: np.ndarray, waves, water_level: float, depth: float | None) -> None:
    """Write WATER_LEVEL, WAVE_DEPTH and STRETCH of ``par`` (sea_par) for the section
    ``waves`` (None: no waves; wheeler and deep water are written)."""
    par[WATER_LEVEL] = water_level
    d = dispersion_depth(waves, depth) if waves is not None else None
    par[WAVE_DEPTH] = math.inf if d is None else d
    par[STRETCH] = stretch_code(waves) if waves is not None else WHEELER


def wave_par(waves, water_level: float, depth: float | None) -> np.ndarray:
    """A read-only ``par`` of N_WAVE_PAR floats for the section ``waves`` (fill_wave_par):
    what a Python caller passes to wave_kinematics, with the flags of a model's frozen
    sea_par, so the kinematics compile once for both."""
    par = np.zeros(N_WAVE_PAR)
    fill_wave_par(par, waves, water_level, depth)
    return _frozen(par)


def _frozen(a: np.ndarray) -> np.ndarray:
    """``a`` made read-only: constant tables reach the kernels with one set of array flags
    wherever they come from (a model's frozen data, a Python helper, a test), so each
    kernel compiles once, not once per flag set."""
    a.flags.writeable = False
    return a


def no_waves() -> tuple[np.ndarray, np.ndarray]:
    """The (sea_waves, sea_grid) of a case without waves: (0, NWC) (read-only) and (1,)."""
    return _frozen(np.zeros((0, NWC))), np.zeros(1)


def _grid_options(waves) -> dict | None:
    """The section's ``grid`` key as a dict ({}: automatic; None: no grid, direct sums)."""
    grid = getattr(waves, "grid", None)
    if grid is None:
        return {}
    if grid is False or (isinstance(grid, str) and grid == "none"):
        return None
    if isinstance(grid, str):
        raise ValueError(f"environment.waves.grid: a mapping or 'none', not {grid!r}")
    if isinstance(grid, dict):
        opts = dict(grid)
    else:
        opts = {k: getattr(grid, k) for k in GRID_KEYS if getattr(grid, k, None) is not None}
    unknown = set(opts) - set(GRID_KEYS)
    if unknown:
        raise ValueError(f"environment.waves.grid.{sorted(unknown)[0]}: unknown key (allowed: "
                         f"{', '.join(GRID_KEYS)})")
    return {k: v for k, v in opts.items() if v is not None}


def _range(opts: dict, key: str) -> tuple[float, float] | None:
    r = opts.get(key)
    if r is None:
        return None
    r = tuple(float(v) for v in r)
    if len(r) != 2 or not all(map(math.isfinite, r)) or not r[0] < r[1]:
        raise ValueError(f"environment.waves.grid.{key}: [min, max] with min < max [m]")
    return r


def _weighted(table: np.ndarray, power: float, variable: np.ndarray) -> float:
    """(sum (w v^p)^2 / sum w^2)^(1/2p) with w = A omega (the velocity amplitudes): the
    spectrum-weighted value of ``variable`` that sets an RMS error growing as v^p."""
    w = table[:, AMP] * table[:, OMEGA]
    if not np.any(w > 0.0):
        return float(np.max(variable))
    return float(np.sqrt(np.sum((w * variable**power) ** 2) / np.sum(w * w)) ** (1.0 / power))


def grid_spacing(table: np.ndarray, tolerance: float) -> tuple[float, float]:
    """(spatial spacing [m], time-slice interval [s]) for a relative interpolation error
    ``tolerance`` (velocity-weighted RMS over the components): linear interpolation in
    space errs by at most (k D)^2 / 8 of a component's amplitude (in z too: the profile's
    second derivative is k^2 times it), cubic Hermite in time by (omega T)^4 / 384 (the
    textbook bounds max|f''| D^2 / 8 and max|f''''| T^4 / 384)."""
    k_eff = _weighted(table, 2.0, table[:, K])
    w_eff = _weighted(table, 4.0, table[:, OMEGA])
    return math.sqrt(8.0 * tolerance) / k_eff, (384.0 * tolerance) ** 0.25 / w_eff


def build_grid(table: np.ndarray, opts: dict, stretch: int, depth: float | None,
               water_level: float, extent) -> np.ndarray:
    """The precomputed-kinematics array ``sea_grid`` (layout: the G_* header, then the
    elevation, field and depth-factor blocks; docs/waves.md) over the region of the points
    ``extent`` (n, 3) [m] padded by the margin; its slices are filled by the kernel on use."""
    pts = np.atleast_2d(np.asarray(extent, dtype=float))
    if pts.ndim != 2 or pts.shape[1] != 3 or pts.shape[0] == 0 or not np.all(np.isfinite(pts)):
        raise ValueError("build_waves: extent must be finite points (n, 3) [m]")
    tol = _positive(opts.get("tolerance", GRID_TOLERANCE), "environment.waves.grid.tolerance")
    ds, dt = grid_spacing(table, tol)
    dh = dz = ds
    if "spacing" in opts:
        sp = opts["spacing"]
        sp = (sp, sp) if np.ndim(sp) == 0 else tuple(sp)
        if len(sp) != 2:
            raise ValueError("environment.waves.grid.spacing: [horizontal, vertical] [m]")
        dh = _positive(sp[0], "environment.waves.grid.spacing")
        dz = _positive(sp[1], "environment.waves.grid.spacing")
    if "dt" in opts:
        dt = _positive(opts["dt"], "environment.waves.grid.dt")
    user = {key: _range(opts, key) for key in ("x", "y", "z")}
    for axis, key in enumerate(("x", "y", "z")):
        r = user[key]
        if r is not None and (pts[:, axis].min() < r[0] or pts[:, axis].max() > r[1]):
            i = int(np.argmax((pts[:, axis] < r[0]) | (pts[:, axis] > r[1])))
            raise ValueError(f"environment.waves.grid.{key}: [{r[0]:g}, {r[1]:g}] does not "
                             f"cover the line's initial position (point {i} at "
                             f"{key} = {pts[i, axis]:g})")
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    hs = 4.0 * math.sqrt(0.5 * float(np.sum(table[:, AMP] ** 2)))
    crest = min(float(np.sum(table[:, AMP])), 1.5 * hs)
    margin = opts.get("margin")
    margin = 0.2 * float(np.max(hi - lo)) + hs if margin is None else float(margin)
    if not math.isfinite(margin) or margin < 0.0:
        raise ValueError("environment.waves.grid.margin: must be finite and >= 0 [m]")
    box_lo = [lo[i] - margin if user[k] is None else user[k][0] for i, k in enumerate("xyz")]
    box_hi = [hi[i] + margin if user[k] is None else user[k][1] for i, k in enumerate("xyz")]
    # frame: along the waves when they all run one way (nothing varies across them then)
    heading = np.arctan2(table[:, KY], table[:, KX])
    unidirectional = bool(np.all(np.abs(np.angle(np.exp(1j * (heading - heading[0]))))
                                 < 1e-12))
    th = float(heading[0]) if unidirectional else 0.0
    ct, st = math.cos(th), math.sin(th)
    corners = np.array([[x, y] for x in (box_lo[0], box_hi[0]) for y in (box_lo[1], box_hi[1])])
    a = corners @ np.array([ct, st])
    b = corners @ np.array([-st, ct])
    na = max(2, int(math.ceil((a.max() - a.min()) / dh)) + 1)
    nb = 1 if unidirectional else max(2, int(math.ceil((b.max() - b.min()) / dh)) + 1)
    # levels above the calm surface (z' = z - water_level), one of them exactly at 0
    # (the spacing shrinks so that the lowest level is the bed itself in finite depth: no
    # level below the bed, where the profile is clamped and would bend the interpolation)
    bottom = box_lo[2] - water_level
    if depth is not None:
        bottom = max(bottom, -depth)
    span = -bottom if bottom < 0.0 else dz
    below = max(1, int(math.ceil(span / dz - 1e-9)))
    dz = span / below
    top = min(box_hi[2] - water_level, crest) if stretch == EXTRAPOLATED else 0.0
    above = max(0, int(math.ceil(top / dz)))
    nz = below + above + 1
    z0 = -below * dz
    n = table.shape[0]
    fslot = UNI_SLOT if unidirectional else FIELD_SLOT
    tables = (na * n * 2 + 2 * (1 + 2 * n)) if unidirectional else 0
    size = na * nb * (ETA_SLOT * 2 + nz * fslot * 2) + nz * n * 2 + n * 2 + tables
    if size > GRID_MAX_SIZE and not opts:
        warnings.warn(f"environment.waves.grid: the automatic grid would take "
                      f"{size * 8 / 2**20:.0f} MiB over the line's region; the kinematics are "
                      f"summed directly instead (slower). Give grid.tolerance, grid.spacing "
                      f"or grid.x/y/z to use a grid.", stacklevel=3)
        return np.zeros(1)
    if size > GRID_MAX_SIZE:
        raise ValueError(f"environment.waves.grid: {size * 8 / 2**20:.0f} MiB of precomputed "
                         f"kinematics (spacing {dh:.3g} m x {dz:.3g} m over the line's region "
                         f"and margin): give a larger grid.tolerance or grid.spacing, a "
                         f"smaller grid.margin, or grid: none (direct sums)")
    grid = np.full(G_HEADER + size, math.nan)
    grid[:G_HEADER] = 0.0
    grid[G_FLAG] = 1.0
    grid[G_NA], grid[G_NB], grid[G_NZ] = na, nb, nz
    grid[G_A0], grid[G_DA] = a.min(), dh
    grid[G_B0], grid[G_DB] = (0.0, 1.0) if unidirectional else (b.min(), dh)
    grid[G_Z0], grid[G_DZ] = z0, dz
    grid[G_DT] = dt
    grid[G_COS], grid[G_SIN] = ct, st
    grid[G_IDA], grid[G_IDB], grid[G_IDZ], grid[G_IDT] = (1.0 / grid[G_DA], 1.0 / grid[G_DB],
                                                          1.0 / dz, 1.0 / dt)
    grid[G_ETA] = G_HEADER
    grid[G_FIELD] = G_HEADER + na * nb * ETA_SLOT * 2
    grid[G_FSLOT] = fslot
    grid[G_DEPTH] = grid[G_FIELD] + na * nb * nz * fslot * 2
    # depth factors C(z), S(z) per level and component (time independent), as field_direct
    z = z0 + dz * np.arange(nz)[:, None]
    k = table[None, :, K]
    zz = np.minimum(np.maximum(z, -0.5 * table[None, :, TWO_H]), 0.0)
    e1 = np.exp(k * zz)
    e2 = np.exp(-k * (zz + table[None, :, TWO_H]))
    cz = (e1 + e2) * table[None, :, D_INV]
    sz = (e1 - e2) * table[None, :, D_INV]
    up = z > 0.0  # extrapolated levels: C(0) + z k S(0), S(0) + z k C(0)
    cz, sz = np.where(up, cz + z * k * sz, cz), np.where(up, sz + z * k * cz, sz)
    off = int(grid[G_DEPTH])
    grid[off:off + nz * n * 2] = np.stack([cz, sz], axis=-1).reshape(-1)
    grid[G_PSI] = off + nz * n * 2
    grid[G_COLPH] = grid[G_TPH] = -1.0
    if unidirectional:  # cos, sin of k a at each column (its node on the a axis, b = 0)
        grid[G_COLPH] = grid[G_PSI] + n * 2
        grid[G_TPH] = grid[G_COLPH] + na * n * 2
        ka = (a.min() + dh * np.arange(na))[:, None] * table[None, :, K]
        off = int(grid[G_COLPH])
        grid[off:off + na * n * 2] = np.stack([np.cos(ka), np.sin(ka)], axis=-1).reshape(-1)
    return grid


def build_waves(waves, g: float, depth: float | None, water_level: float | None,
                extent=None) -> tuple[np.ndarray, np.ndarray]:
    """(sea_waves, sea_grid) for a case's ``environment.waves`` section (None: no waves).

    g: gravity magnitude [m/s^2]; depth: the flat seabed's depth below the water level [m]
    or None (the section's own ``depth`` key wins; neither: deep water); water_level: z of
    the calm surface [m] (required with waves); extent: the line's initial node positions
    (n, 3) [m] (or the two corners of a box), which the precomputed grid covers with a margin;
    None: no grid (direct sums). The section's ``grid`` key: docs/waves.md; without it the
    grid is used from GRID_MIN_COMPONENTS components on.
    """
    if waves is None:
        return no_waves()
    if water_level is None:
        raise ValueError("environment.waves: needs environment.water_level (the calm surface)")
    g = _positive(g, "environment.gravity (magnitude)")
    stretch = stretch_code(waves)
    d = dispersion_depth(waves, depth)
    table = wave_table(waves, g, d)
    opts = _grid_options(waves)
    if opts is None or extent is None or (not opts and table.shape[0] < GRID_MIN_COMPONENTS):
        return _frozen(table), np.zeros(1)
    grid = build_grid(table, opts, stretch, d, float(water_level), extent)
    return _frozen(table), grid


# ============================================================================ kernels ===
@kernel
def eta_direct(waves, x, y, t):
    """Surface elevation eta(x, y, t) [m] above the calm level, summed over the components."""
    eta = 0.0
    for c in range(waves.shape[0]):
        psi = waves[c, KX] * x + waves[c, KY] * y - waves[c, OMEGA] * t + waves[c, PHASE]
        eta += waves[c, AMP] * math.cos(psi)
    return eta


@kernel
def field_direct(waves, x, y, zs, t, extrapolate, dst, o, jerk):
    """Linear Airy field at the (stretched) height zs above the calm level [m], summed over
    the components: dst[o:o+3] velocity [m/s], dst[o+3:o+6] acceleration [m/s^2] and, when
    ``jerk``, dst[o+6:o+9] its time derivative [m/s^3]. zs > 0 with ``extrapolate``: linear
    extrapolation from z = 0 (DNV-RP-C205 §3.2.3.2); below the bed the bed's value."""
    for i in range(9 if jerk else 6):
        dst[o + i] = 0.0
    for c in range(waves.shape[0]):
        a = waves[c, AMP]
        w = waves[c, OMEGA]
        k = waves[c, K]
        two_h = waves[c, TWO_H]
        if extrapolate and zs > 0.0:
            e2 = math.exp(-k * two_h)
            c0 = (1.0 + e2) * waves[c, D_INV]
            s0 = (1.0 - e2) * waves[c, D_INV]
            cz = c0 + zs * k * s0
            sz = s0 + zs * k * c0
        else:
            z = zs if zs > -0.5 * two_h else -0.5 * two_h
            e1 = math.exp(k * z)
            e2 = math.exp(-k * (z + two_h))
            cz = (e1 + e2) * waves[c, D_INV]  # cosh(k(z+h))/sinh(kh), Airy closed form
            sz = (e1 - e2) * waves[c, D_INV]  # sinh(k(z+h))/sinh(kh)
        psi = waves[c, KX] * x + waves[c, KY] * y - w * t + waves[c, PHASE]
        cp = math.cos(psi)
        sp = math.sin(psi)
        hx = waves[c, KX] / k
        hy = waves[c, KY] / k
        uh = a * w * cz * cp
        ah = a * w * w * cz * sp
        dst[o] += uh * hx
        dst[o + 1] += uh * hy
        dst[o + 2] += a * w * sz * sp
        dst[o + 3] += ah * hx
        dst[o + 4] += ah * hy
        dst[o + 5] -= a * w * w * sz * cp
        if jerk:
            jh = -a * w * w * w * cz * cp
            dst[o + 6] += jh * hx
            dst[o + 7] += jh * hy
            dst[o + 8] -= a * w * w * w * sz * sp


# ------------------------------------------------------------------------ grid kernels ---
@kernel
def _phases(waves, grid, ia, ib, js):
    """Write cos psi, sin psi of every component at the horizontal grid point (ia, ib) at
    the slice time js T into the grid's G_PSI block: psi = k.x + (phase - omega t), by the
    angle-sum formulas from the column's and the slot's tables in a unidirectional grid,
    else summed and passed to cos, sin."""
    n = waves.shape[0]
    psi = int(grid[G_PSI])
    tj = js * grid[G_DT]
    if grid[G_COLPH] >= 0.0:
        tb = int(grid[G_TPH]) + (int(js) & 1) * (1 + 2 * n)
        if grid[tb] != js:
            for c in range(n):
                phase = waves[c, PHASE] - waves[c, OMEGA] * tj
                grid[tb + 1 + 2 * c] = math.cos(phase)
                grid[tb + 2 + 2 * c] = math.sin(phase)
            grid[tb] = js
        col = int(grid[G_COLPH]) + 2 * n * ia
        for c in range(n):
            ca = grid[col + 2 * c]
            sa = grid[col + 2 * c + 1]
            ct = grid[tb + 1 + 2 * c]
            st = grid[tb + 2 + 2 * c]
            grid[psi + 2 * c] = ca * ct - sa * st
            grid[psi + 2 * c + 1] = sa * ct + ca * st
        return
    x, y = _grid_node(grid, ia, ib)
    for c in range(n):
        p = waves[c, KX] * x + waves[c, KY] * y - waves[c, OMEGA] * tj + waves[c, PHASE]
        grid[psi + 2 * c] = math.cos(p)
        grid[psi + 2 * c + 1] = math.sin(p)


@kernel
def _fill_eta(waves, grid, base):
    """grid[base+1], grid[base+2] = eta [m], d eta/dt [m/s] from the G_PSI block (_phases)."""
    eta = 0.0
    deta = 0.0
    psi = int(grid[G_PSI])
    for c in range(waves.shape[0]):
        eta += waves[c, AMP] * grid[psi + 2 * c]
        deta += waves[c, AMP] * waves[c, OMEGA] * grid[psi + 2 * c + 1]
    grid[base + 1] = eta
    grid[base + 2] = deta


@kernel
def _fill_field(waves, grid, base, level):
    """The field slot at grid[base] (stamp excluded): velocity, acceleration and jerk on the
    grid level ``level`` from the level's depth factors and the G_PSI block (_phases), as
    field_direct; along the sea's direction (UNI_SLOT) when the grid is unidirectional,
    else in x, y, z (FIELD_SLOT)."""
    n = waves.shape[0]
    dep = int(grid[G_DEPTH]) + 2 * n * level
    psi = int(grid[G_PSI])
    uni = grid[G_FSLOT] == UNI_SLOT
    ux = uy = uz = ax = ay = az = jx = jy = jz = 0.0
    for c in range(n):
        a = waves[c, AMP]
        w = waves[c, OMEGA]
        k = waves[c, K]
        cp = grid[psi + 2 * c]
        sp = grid[psi + 2 * c + 1]
        cz = grid[dep + 2 * c]
        sz = grid[dep + 2 * c + 1]
        uh = a * w * cz * cp
        ah = a * w * w * cz * sp
        jh = -a * w * w * w * cz * cp
        if uni:
            ux += uh
            ax += ah
            jx += jh
        else:
            hx = waves[c, KX] / k
            hy = waves[c, KY] / k
            ux += uh * hx
            uy += uh * hy
            ax += ah * hx
            ay += ah * hy
            jx += jh * hx
            jy += jh * hy
        uz += a * w * sz * sp
        az -= a * w * w * sz * cp
        jz -= a * w * w * w * sz * sp
    if uni:
        grid[base + 1] = ux
        grid[base + 2] = uz
        grid[base + 3] = ax
        grid[base + 4] = az
        grid[base + 5] = jx
        grid[base + 6] = jz
    else:
        grid[base + 1] = ux
        grid[base + 2] = uy
        grid[base + 3] = uz
        grid[base + 4] = ax
        grid[base + 5] = ay
        grid[base + 6] = az
        grid[base + 7] = jx
        grid[base + 8] = jy
        grid[base + 9] = jz


@inline_kernel
def _grid_node(grid, ia, ib):
    """(x, y) [m] of the horizontal grid point (ia, ib)."""
    a = grid[G_A0] + ia * grid[G_DA]
    b = grid[G_B0] + ib * grid[G_DB]
    return a * grid[G_COS] - b * grid[G_SIN], a * grid[G_SIN] + b * grid[G_COS]


@kernel
def _fill_eta_cell(waves, grid, ia, ib, nbc, j):
    """Fill the eta slots of slices j and j + 1 that the cell (ia, ib) lacks."""
    nb = int(grid[G_NB])
    off = int(grid[G_ETA])
    for p in range(2):
        for q in range(nbc):
            point = (ia + p) * nb + ib + q
            for s in range(2):
                js = j + s
                base = off + (2 * point + (int(js) & 1)) * ETA_SLOT
                if grid[base] != js:
                    _phases(waves, grid, ia + p, ib + q, js)
                    _fill_eta(waves, grid, base)
                    grid[base] = js


@kernel
def _fill_field_cell(waves, grid, ia, ib, nbc, iz, j):
    """Fill the field slots of slices j and j + 1 that the cell (ia, ib, iz) lacks."""
    nb = int(grid[G_NB])
    nz = int(grid[G_NZ])
    off = int(grid[G_FIELD])
    fslot = int(grid[G_FSLOT])
    for p in range(2):
        for q in range(nbc):
            for s in range(2):
                js = j + s
                ready = True  # the phases once per column and slice, for both levels
                for r in range(2):
                    point = ((ia + p) * nb + ib + q) * nz + iz + r
                    base = off + (2 * point + (int(js) & 1)) * fslot
                    if grid[base] != js:
                        if ready:
                            _phases(waves, grid, ia + p, ib + q, js)
                            ready = False
                        _fill_field(waves, grid, base, iz + r)
                        grid[base] = js


# Helpers of the general (multidirectional) grid path and of the slow path; the
# unidirectional path is _uni_kinematics (inlined in wave_kinematics). None of them calls a compiled
# function with array arguments: such a call cost 25-60 ns per point here even in a branch
# never taken (measured against a trivial kernel), so the fills live in _fill_*_cell.
@inline_kernel
def _locate(grid, x, y):
    """(ia, wa, ib, wb, corners across) of the horizontal cell holding (x, y) [m]; ia = -1
    outside the grid."""
    ct = grid[G_COS]
    st = grid[G_SIN]
    fa = (x * ct + y * st - grid[G_A0]) * grid[G_IDA]
    ia = int(math.floor(fa))
    wa = fa - ia
    inside = (ia >= 0) & (ia < int(grid[G_NA]) - 1)
    nbc = 1
    ib = 0
    wb = 0.0
    if grid[G_NB] != 1.0:
        fb = (-x * st + y * ct - grid[G_B0]) * grid[G_IDB]
        ib = int(math.floor(fb))
        wb = fb - ib
        inside = inside & (ib >= 0) & (ib < int(grid[G_NB]) - 1)
        nbc = 2
    return (ia if inside else -1), wa, ib, wb, nbc


@inline_kernel
def _level(grid, zs):
    """(iz, wz) of the level interval holding zs [m] above the calm level; iz = -1 outside
    (the top level itself belongs to the interval below it)."""
    fz = (zs - grid[G_Z0]) * grid[G_IDZ]
    nz = int(grid[G_NZ])
    iz = int(math.floor(fz))
    top = (iz == nz - 1) & (fz == iz)
    iz = iz - 1 if top else iz
    inside = (iz >= 0) & (iz < nz - 1)
    return (iz if inside else -1), fz - iz


@inline_kernel
def _eta_ready(grid, ia, ib, nbc, j, slot):
    """True when the cell's eta slots hold slices j and j + 1."""
    nb = int(grid[G_NB])
    off = int(grid[G_ETA])
    ok = True
    for p in range(2):
        for q in range(nbc):
            point = off + 2 * ETA_SLOT * ((ia + p) * nb + ib + q)
            ok = ok & (grid[point + slot * ETA_SLOT] == j) \
                & (grid[point + (1 - slot) * ETA_SLOT] == j + 1.0)
    return ok


@inline_kernel
def _eta_value(grid, ia, wa, ib, wb, nbc, slot, h0, d0, h1, d1):
    """eta [m]: linear in space, cubic Hermite in time (eta with d eta/dt)."""
    nb = int(grid[G_NB])
    off = int(grid[G_ETA])
    eta = 0.0
    for p in range(2):
        for q in range(nbc):
            w = (1.0 - wa + p * (2.0 * wa - 1.0)) * (1.0 - wb + q * (2.0 * wb - 1.0))
            point = off + 2 * ETA_SLOT * ((ia + p) * nb + ib + q)
            b0 = point + slot * ETA_SLOT
            b1 = point + (1 - slot) * ETA_SLOT
            eta += w * (h0 * grid[b0 + 1] + d0 * grid[b0 + 2] + h1 * grid[b1 + 1]
                        + d1 * grid[b1 + 2])
    return eta


@inline_kernel
def _field_ready(grid, ia, ib, nbc, iz, j, slot):
    """True when the cell's field slots hold slices j and j + 1."""
    nb = int(grid[G_NB])
    nz = int(grid[G_NZ])
    off = int(grid[G_FIELD])
    ok = True
    for p in range(2):
        for q in range(nbc):
            for r in range(2):
                point = off + 2 * FIELD_SLOT * (((ia + p) * nb + ib + q) * nz + iz + r)
                ok = ok & (grid[point + slot * FIELD_SLOT] == j) \
                    & (grid[point + (1 - slot) * FIELD_SLOT] == j + 1.0)
    return ok


@inline_kernel
def _field_value(grid, ia, wa, ib, wb, nbc, iz, wz, slot, h0, d0, h1, d1, out, o):
    """Velocity and acceleration into out[o:o+6]: trilinear in space, cubic Hermite in time
    with the stored time derivatives (velocity with acceleration, acceleration with jerk)."""
    nb = int(grid[G_NB])
    nz = int(grid[G_NZ])
    off = int(grid[G_FIELD])
    s0 = slot * FIELD_SLOT
    s1 = (1 - slot) * FIELD_SLOT
    # local sums (the compiler cannot know that out and grid do not alias: registers)
    u0 = u1 = u2 = a0 = a1 = a2 = 0.0
    for p in range(2):
        for q in range(nbc):
            wh = (1.0 - wa + p * (2.0 * wa - 1.0)) * (1.0 - wb + q * (2.0 * wb - 1.0))
            for r in range(2):
                w = wh * (1.0 - wz + r * (2.0 * wz - 1.0))
                point = off + 2 * FIELD_SLOT * (((ia + p) * nb + ib + q) * nz + iz + r)
                b0 = point + s0
                b1 = point + s1
                v0 = w * h0
                e0 = w * d0
                v1 = w * h1
                e1 = w * d1
                u0 += v0 * grid[b0 + 1] + e0 * grid[b0 + 4] + v1 * grid[b1 + 1] \
                    + e1 * grid[b1 + 4]
                u1 += v0 * grid[b0 + 2] + e0 * grid[b0 + 5] + v1 * grid[b1 + 2] \
                    + e1 * grid[b1 + 5]
                u2 += v0 * grid[b0 + 3] + e0 * grid[b0 + 6] + v1 * grid[b1 + 3] \
                    + e1 * grid[b1 + 6]
                a0 += v0 * grid[b0 + 4] + e0 * grid[b0 + 7] + v1 * grid[b1 + 4] \
                    + e1 * grid[b1 + 7]
                a1 += v0 * grid[b0 + 5] + e0 * grid[b0 + 8] + v1 * grid[b1 + 5] \
                    + e1 * grid[b1 + 8]
                a2 += v0 * grid[b0 + 6] + e0 * grid[b0 + 9] + v1 * grid[b1 + 6] \
                    + e1 * grid[b1 + 9]
    out[o] = u0
    out[o + 1] = u1
    out[o + 2] = u2
    out[o + 3] = a0
    out[o + 4] = a1
    out[o + 5] = a2


@inline_kernel
def stretched_height(par, zc, eta):
    """The height [m] above the calm level where the linear profile is evaluated for a point
    zc [m] above the calm level under a surface at eta [m]; nan where the kinematics are 0
    (above eta; above the calm level with ``none``)."""
    if zc > eta:
        return math.nan
    mode = par[STRETCH]
    if mode == WHEELER:
        h = par[WAVE_DEPTH]
        if math.isinf(h):
            return zc - eta  # Wheeler in deep water, DNV-RP-C205 eq. 3.2.3.3 with d -> inf
        if h + eta <= 0.0:
            return -h
        return h * (zc - eta) / (h + eta)  # Wheeler, DNV-RP-C205 eq. 3.2.3.3
    if mode == VERTICAL:
        return zc if zc < 0.0 else 0.0
    if mode == NO_STRETCH and zc > 0.0:
        return math.nan
    return zc


@inline_kernel
def _grid_kinematics(grid, par, t, x, y, z, out):
    """wave_kinematics from the grid alone: False (out unspecified) when the point is
    outside it or a slot it needs is not filled yet."""
    ia, wa, ib, wb, nbc = _locate(grid, x, y)
    if ia < 0:
        return False
    j, slot, h0, d0, h1, d1 = wave_time(grid, t)
    if not _eta_ready(grid, ia, ib, nbc, j, slot):
        return False
    eta = _eta_value(grid, ia, wa, ib, wb, nbc, slot, h0, d0, h1, d1)
    zs = stretched_height(par, z - par[WATER_LEVEL], eta)
    if math.isnan(zs):
        for i in range(1, 7):
            out[i] = 0.0
        out[0] = eta
        return True
    iz, wz = _level(grid, zs)
    if iz < 0 or not _field_ready(grid, ia, ib, nbc, iz, j, slot):
        return False
    out[0] = eta
    _field_value(grid, ia, wa, ib, wb, nbc, iz, wz, slot, h0, d0, h1, d1, out, 1)
    return True


@inline_kernel
def wave_time(grid, t):
    """(j, slot, h0, d0, h1, d1) at time t [s]: the slice j below t (a float) with its slot
    and the cubic Hermite weights of f_j, T f'_j, f_j+1, T f'_j+1 on [j T, (j + 1) T] —
    the time part of every grid read, the same for all points of one evaluation (a loop
    over the nodes computes it once: :func:`wave_point`)."""
    sj = t * grid[G_IDT]
    j = np.floor(sj)
    tau = sj - j
    t2 = tau * tau
    t3 = t2 * tau
    slot = int(j - 2.0 * np.floor(0.5 * j))
    return (j, slot, 2.0 * t3 - 3.0 * t2 + 1.0, (t3 - 2.0 * t2 + tau) * grid[G_DT],
            3.0 * t2 - 2.0 * t3, (t3 - t2) * grid[G_DT])


@inline_kernel
def _uni_column(grid, x, y):
    """(inside, ia, wa) of a unidirectional grid at (x, y) [m]: the cell ia along the waves
    (0 when not inside) with the weight wa of its far side."""
    fa = (x * grid[G_COS] + y * grid[G_SIN] - grid[G_A0]) * grid[G_IDA]
    fla = np.floor(fa)
    wa = fa - fla
    ia = int(fla)
    inside = (ia >= 0) & (ia < int(grid[G_NA]) - 1)
    return inside, (ia if inside else 0), wa


@inline_kernel
def _uni_cell(grid, t, x, y):
    """(inside, ia, wa, j, slot, h0, d0, h1, d1): :func:`_uni_column` and :func:`wave_time`."""
    inside, ia, wa = _uni_column(grid, x, y)
    j, slot, h0, d0, h1, d1 = wave_time(grid, t)
    return inside, ia, wa, j, slot, h0, d0, h1, d1


@inline_kernel
def _uni_eta(grid, ia, wa, j, slot, h0, d0, h1, d1):
    """(eta [m], ready) in the cell of _uni_cell: linear along the waves, Hermite in time
    with d eta/dt; ready is False when a slot of slices j, j + 1 is not filled."""
    sa = slot * ETA_SLOT
    sb = (1 - slot) * ETA_SLOT
    e0 = int(grid[G_ETA]) + 2 * ETA_SLOT * ia
    e1 = e0 + 2 * ETA_SLOT
    ok = ((grid[e0 + sa] == j) & (grid[e0 + sb] == j + 1.0) & (grid[e1 + sa] == j)
          & (grid[e1 + sb] == j + 1.0))
    eta = ((1.0 - wa) * (h0 * grid[e0 + sa + 1] + d0 * grid[e0 + sa + 2]
                         + h1 * grid[e0 + sb + 1] + d1 * grid[e0 + sb + 2])
           + wa * (h0 * grid[e1 + sa + 1] + d0 * grid[e1 + sa + 2]
                   + h1 * grid[e1 + sb + 1] + d1 * grid[e1 + sb + 2]))
    return eta, ok


@inline_kernel
def _uni_point(grid, par, j, slot, h0, d0, h1, d1, x, y, z):
    """wave_kinematics from a unidirectional grid (G_NB == 1, UNI_SLOT layout) at the time
    weights of :func:`wave_time`, in registers and written out with selections (no early
    return): (status, ia, iz, zs, eta, ux, uy, uz, ax, ay, az). status 0: the answer is
    complete; 1 when the cell ia lacks the eta of slices j, j + 1; 2 when the cell (ia, iz)
    lacks their field; 3 when (x, y) is outside the grid; 4 when eta is right but the
    stretched height zs [m] is outside the grid's levels."""
    inside, ia, wa = _uni_column(grid, x, y)
    eta, ok = _uni_eta(grid, ia, wa, j, slot, h0, d0, h1, d1)
    ct = grid[G_COS]
    st = grid[G_SIN]
    # stretching (as stretched_height; the mode is the same at every call: predicted)
    zc = z - par[WATER_LEVEL]
    mode = par[STRETCH]
    wet = zc <= eta
    zs = zc
    if mode == WHEELER:
        h = par[WAVE_DEPTH]
        if math.isinf(h):
            zs = zc - eta  # Wheeler in deep water, DNV-RP-C205 eq. 3.2.3.3 with d -> inf
        else:
            zs = h * (zc - eta) / (h + eta) if h + eta > 0.0 else -h  # DNV-RP-C205 3.2.3.3
    elif mode == VERTICAL:
        zs = min(zc, 0.0)
    elif mode == NO_STRETCH:
        wet = wet & (zc <= 0.0)
    status = 0
    iz = 0
    uh = uz = ah = az = 0.0
    if wet:  # (eta-only calls, above any crest, skip the field)
        # the level interval (the top level belongs to the interval below it)
        nz = int(grid[G_NZ])
        fz = (zs - grid[G_Z0]) * grid[G_IDZ]
        flz = np.floor(fz)
        wz = fz - flz
        iz = int(flz)
        top = (iz == nz - 1) & (wz == 0.0)  # exactly on it
        wz = 1.0 if top else wz
        iz = iz - 1 if top else iz
        okz = (iz >= 0) & (iz < nz - 1)
        iz = iz if okz else 0
        # the cell's four points (a, z) = (0, 0), (0, 1), (1, 0), (1, 1), two slots each:
        # values at slices j, j + 1 with their time derivatives (velocity with
        # acceleration, acceleration with jerk), bilinear in space, Hermite in time
        s0 = slot * UNI_SLOT
        s1 = (1 - slot) * UNI_SLOT
        c00 = int(grid[G_FIELD]) + 2 * UNI_SLOT * (ia * nz + iz)
        okf = okz
        for corner in range(4):
            p = corner >> 1  # along a
            r = corner & 1  # along z
            c = c00 + 2 * UNI_SLOT * (p * nz + r)
            w = (wa if p == 1 else 1.0 - wa) * (wz if r == 1 else 1.0 - wz)
            b0 = c + s0
            b1 = c + s1
            okf = okf & (grid[b0] == j) & (grid[b1] == j + 1.0)
            v0 = w * h0
            g0 = w * d0
            v1 = w * h1
            g1 = w * d1
            uh += v0 * grid[b0 + 1] + g0 * grid[b0 + 3] + v1 * grid[b1 + 1] + g1 * grid[b1 + 3]
            uz += v0 * grid[b0 + 2] + g0 * grid[b0 + 4] + v1 * grid[b1 + 2] + g1 * grid[b1 + 4]
            ah += v0 * grid[b0 + 3] + g0 * grid[b0 + 5] + v1 * grid[b1 + 3] + g1 * grid[b1 + 5]
            az += v0 * grid[b0 + 4] + g0 * grid[b0 + 6] + v1 * grid[b1 + 4] + g1 * grid[b1 + 6]
        status = 0 if okf else (2 if okz else 4)
    status = status if ok else 1
    status = status if inside else 3
    return status, ia, iz, zs, eta, uh * ct, uh * st, uz, ah * ct, ah * st, az


@inline_kernel
def _uni_kinematics(grid, par, t, x, y, z, out):
    """:func:`_uni_point` at time t [s] into out[0:7] (eta, velocity, acceleration);
    returns (status, ia, iz, j, zs). The fast path and the slow path (after its fills)
    both answer through here: the same arithmetic, so results do not depend on which of
    them answered."""
    j, slot, h0, d0, h1, d1 = wave_time(grid, t)
    status, ia, iz, zs, out[0], out[1], out[2], out[3], out[4], out[5], out[6] = _uni_point(
        grid, par, j, slot, h0, d0, h1, d1, x, y, z)
    return status, ia, iz, j, zs


@kernel
def _kinematics_slow(waves, grid, par, t, x, y, z, out):
    """wave_kinematics where the unidirectional fast path cannot answer: the slots a point
    needs filled first, a multidirectional sea's grid, or direct sums outside the grid."""
    if waves.shape[0] == 0:
        for i in range(7):
            out[i] = 0.0
        return
    extrapolate = par[STRETCH] == EXTRAPOLATED
    zc = z - par[WATER_LEVEL]
    if grid[G_FLAG] == 1.0 and grid[G_NB] == 1.0:
        # one column across (nbc = 1, ib = 0) read from the grid: run-time ints, as the
        # multidirectional branch passes (literal 0, 1 compiled the fills a second time)
        nbc = int(grid[G_NB])
        ib = nbc - 1
        for _ in range(3):  # at most: fill eta, fill the field, answer
            status, ia, iz, j, zs = _uni_kinematics(grid, par, t, x, y, z, out)
            if status == 0:
                return
            if status == 1:
                _fill_eta_cell(waves, grid, ia, ib, nbc, j)
            elif status == 2:
                _fill_field_cell(waves, grid, ia, ib, nbc, iz, j)
            elif status == 4:  # eta from the grid, the field summed at zs
                field_direct(waves, x, y, zs, t, extrapolate, out, 1, False)
                return
            else:
                break
    elif grid[G_FLAG] == 1.0:
        if _grid_kinematics(grid, par, t, x, y, z, out):
            return
        for i in range(7):
            out[i] = 0.0
        ia, wa, ib, wb, nbc = _locate(grid, x, y)
        if ia >= 0:
            j, slot, h0, d0, h1, d1 = wave_time(grid, t)
            _fill_eta_cell(waves, grid, ia, ib, nbc, j)
            eta = _eta_value(grid, ia, wa, ib, wb, nbc, slot, h0, d0, h1, d1)
            out[0] = eta
            zs = stretched_height(par, zc, eta)
            if math.isnan(zs):
                return
            iz, wz = _level(grid, zs)
            if iz < 0:
                field_direct(waves, x, y, zs, t, extrapolate, out, 1, False)
                return
            _fill_field_cell(waves, grid, ia, ib, nbc, iz, j)
            _field_value(grid, ia, wa, ib, wb, nbc, iz, wz, slot, h0, d0, h1, d1, out, 1)
            return
    for i in range(7):
        out[i] = 0.0
    eta = eta_direct(waves, x, y, t)
    out[0] = eta
    zs = stretched_height(par, zc, eta)
    if math.isnan(zs):
        return
    field_direct(waves, x, y, zs, t, extrapolate, out, 1, False)


@inline_kernel
def wave_kinematics(waves, grid, par, t, x, y, z, out):
    """Wave kinematics at the point (x, y, z) [m] at time t [s]: out[0] eta [m] above the calm
    level, out[1:4] orbital velocity [m/s], out[4:7] orbital acceleration [m/s^2]; 0 above the
    surface, below it with the stretching rule par[STRETCH]. No current. ``grid``: the
    precomputed kinematics (slices filled as the time reaches them) or [0.0] (direct sums);
    points outside the grid get the direct sums."""
    # The unidirectional grid is read inline (_uni_kinematics); slots still to fill,
    # multidirectional seas and points outside the grid go to the slow path (one call).
    done = False
    if grid[G_FLAG] == 1.0 and grid[G_NB] == 1.0:
        done = _uni_kinematics(grid, par, t, x, y, z, out)[0] == 0
    if not done:
        _kinematics_slow(waves, grid, par, t, x, y, z, out)


@inline_kernel
def wave_elevation(waves, grid, par, t, x, y, work):
    """The wave elevation eta [m] above the calm level at (x, y) [m] at time t [s]: what
    wave_kinematics writes to out[0], without the field (``work``: 7 floats of scratch)."""
    eta = 0.0
    done = False
    if grid[G_FLAG] == 1.0 and grid[G_NB] == 1.0:
        inside, ia, wa, j, slot, h0, d0, h1, d1 = _uni_cell(grid, t, x, y)
        eta, ok = _uni_eta(grid, ia, wa, j, slot, h0, d0, h1, d1)
        done = inside & ok
    if not done:
        _kinematics_slow(waves, grid, par, t, x, y, math.inf, work)
        eta = work[0]
    return eta


@inline_kernel
def wave_point(waves, grid, par, t, j, slot, h0, d0, h1, d1, x, y, z, work):
    """:func:`wave_kinematics` in registers with the time weights of :func:`wave_time` at t
    hoisted out of a loop over points: (eta, ux, uy, uz, ax, ay, az) [m, m/s, m/s^2].
    The unidirectional grid inline; where it cannot answer, the slow path (called;
    ``work``: 7 floats of scratch)."""
    if grid[G_FLAG] == 1.0 and grid[G_NB] == 1.0:
        status, _, _, _, eta, ux, uy, uz, ax, ay, az = _uni_point(grid, par, j, slot, h0, d0,
                                                                  h1, d1, x, y, z)
        if status == 0:
            return eta, ux, uy, uz, ax, ay, az
    _kinematics_slow(waves, grid, par, t, x, y, z, work)
    return work[0], work[1], work[2], work[3], work[4], work[5], work[6]


@inline_kernel
def elevation_point(waves, grid, par, t, j, slot, h0, d0, h1, d1, x, y, work):
    """:func:`wave_elevation` with the time weights of :func:`wave_time` at t hoisted: the
    wave elevation eta [m] at (x, y) [m] (``work``: 7 floats of scratch)."""
    if grid[G_FLAG] == 1.0 and grid[G_NB] == 1.0:
        inside, ia, wa = _uni_column(grid, x, y)
        eta, ok = _uni_eta(grid, ia, wa, j, slot, h0, d0, h1, d1)
        if inside & ok:
            return eta
    _kinematics_slow(waves, grid, par, t, x, y, math.inf, work)
    return work[0]
