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
  moves on; ``(1,)`` = [0.0] when the kinematics are summed directly).
- ``sea_par``: the scalars this module reads are at the indices :data:`WATER_LEVEL`,
  :data:`WAVE_DEPTH`, :data:`STRETCH` (0, 1, 2): defined here, imported by ``sea.py``, which
  puts its own scalars from :data:`N_WAVE_PAR` on. ``par[WAVE_DEPTH]`` is ``inf`` in deep water.
  :func:`fill_wave_par` writes them.

All lengths in m, times in s, angles in rad inside the arrays (degrees only in case keys).
"""

from __future__ import annotations

import math
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
    return table


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


def no_waves() -> tuple[np.ndarray, np.ndarray]:
    """The (sea_waves, sea_grid) of a case without waves: (0, NWC) and (1,)."""
    return np.zeros((0, NWC)), np.zeros(1)


def build_waves(waves, g: float, depth: float | None, water_level: float | None,
                extent=None) -> tuple[np.ndarray, np.ndarray]:
    """(sea_waves, sea_grid) for a case's ``environment.waves`` section (None: no waves).

    g: gravity magnitude [m/s^2]; depth: the flat seabed's depth below the water level [m]
    or None (the section's own ``depth`` key wins; neither: deep water); water_level: z of
    the calm surface [m] (required with waves); extent: the line's initial node positions
    (n, 3) [m] (or a (2, 3) box), which the precomputed grid must cover.
    """
    if waves is None:
        return no_waves()
    if water_level is None:
        raise ValueError("environment.waves: needs environment.water_level (the calm surface)")
    g = _positive(g, "environment.gravity (magnitude)")
    stretch_code(waves)
    table = wave_table(waves, g, dispersion_depth(waves, depth))
    return table, np.zeros(1)


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
def wave_kinematics(waves, grid, par, t, x, y, z, out):
    """Wave kinematics at the point (x, y, z) [m] at time t [s]: out[0] eta [m] above the calm
    level, out[1:4] orbital velocity [m/s], out[4:7] orbital acceleration [m/s^2]; 0 above the
    surface, below it with the stretching rule par[STRETCH]. No current. ``grid``: the
    precomputed kinematics (updated when t leaves its time slices) or [0.0] (direct sums)."""
    for i in range(7):
        out[i] = 0.0
    if waves.shape[0] == 0:
        return
    eta = eta_direct(waves, x, y, t)
    out[0] = eta
    zs = stretched_height(par, z - par[WATER_LEVEL], eta)
    if math.isnan(zs):
        return
    field_direct(waves, x, y, zs, t, par[STRETCH] == EXTRAPOLATED, out, 1, False)
