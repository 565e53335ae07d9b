"""MoorDyn 2.7.2 with a seabed and waves: the deck and wave file a sea row hands to MoorDyn.

One line from an anchor (a Fixed point on the seabed) to a fairlead (a Fixed point) in
water of depth ``WtrDpth`` (MoorDyn's surface is z = 0, its flat seabed z = -WtrDpth),
contact by ``kBot`` / ``cBot`` (MoorDyn docs, "Seabed": a vertical spring and damper per
unit of the node's length and diameter) and, when asked, MoorDyn's seabed friction
(``FrictionCoefficient``; a saturated viscous law, ``FricDamp``, no stick phase).

Waves: ``WaveKin 7`` (MoorDyn docs, "Water Kinematics": *summing component waves*) reads
``wave_frequencies.txt`` next to the deck: one line per component, the circular frequency
[rad/s], the real and imaginary parts of its complex amplitude and its direction [rad];
the first line must be the frequency 0. MoorDyn's elevation is ``sum |c| sin(omega t -
k.x + arg c)`` with ``k`` from its own dispersion solve at ``WtrDpth`` and Wheeler
stretching below the crest (MoorDyn 2.7 ``SpectrumKin``). Our components (tetherdyn.waves:
``eta = sum A cos(k.x - omega t + phi)``) map to ``c = A exp(i (pi/2 - phi))``: the same
sea, written by :func:`wave_frequencies_text` from the very table our case builds.

The run (:func:`run_moordyn_sea`) imposes the initial nodes through MoorDyn's state file as
:mod:`validation.peers.moordyn_deck` does (``Init_NoIC``); it does not go through
``run_moordyn_deck``, whose deck parser (the importer's) refuses wave options it cannot map.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import numpy as np

__all__ = ["sea_deck_text", "wave_frequencies_text", "run_moordyn_sea"]


def _g(x: float) -> str:
    return f"{float(x):.17g}"


def wave_frequencies_text(table: np.ndarray, *, amp: int, omega: int, phase: int, kx: int,
                          ky: int) -> str:
    """MoorDyn's ``wave_frequencies.txt`` for a component table of tetherdyn.waves.

    ``table`` (C, NWC) with the column indices ``amp`` [m], ``omega`` [rad/s], ``phase``
    [rad] and ``kx``, ``ky`` [rad/m] (the direction). Our ``A cos(k.x - omega t + phi)``
    equals MoorDyn's ``|c| sin(omega t - k.x + arg c)`` with ``arg c = pi/2 - phi``.
    """
    rows = ["0.0 0.0 0.0 0.0"]  # MoorDyn requires the zero frequency first
    order = np.argsort(table[:, omega], kind="stable")
    for r in table[order]:
        arg = 0.5 * math.pi - r[phase]
        beta = math.atan2(r[ky], r[kx])
        rows.append(" ".join(_g(v) for v in (r[omega], r[amp] * math.cos(arg),
                                             r[amp] * math.sin(arg), beta)))
    return "\n".join(rows) + "\n"


def sea_deck_text(*, n_elements: int, length: float, mass_per_length: float, diameter: float,
                  EA: float, BA: float, cd_normal: float, cd_tangential: float,
                  ca_normal: float, ca_tangential: float, anchor, fairlead, water_depth: float,
                  kbot: float, cbot: float, dt: float, gravity: float, water_density: float,
                  waves: bool, friction: float = 0.0) -> str:
    """MoorDyn v2 input file: one line from Fixed point 1 (anchor) to Fixed point 2
    (fairlead), RK4 at ``dtM = dt``, ``WaveKin 7`` when ``waves`` else 0. SI units."""
    a, f = (np.asarray(p, dtype=float) for p in (anchor, fairlead))
    rows = [
        "--------------------- MoorDyn Input File ------------------------------------",
        "tetherdyn sea row: one line from an anchor on the seabed to a fixed fairlead",
        "---------------------- LINE TYPES -------------------------------------------",
        "TypeName  Diam  Mass/m  EA  BA/-zeta  EI  Cd  Ca  CdAx  CaAx",
        "(name)  (m)  (kg/m)  (N)  (N-s/-)  (N-m^2)  (-)  (-)  (-)  (-)",
        " ".join(["line", _g(diameter), _g(mass_per_length), _g(EA), _g(BA), "0",
                  _g(cd_normal), _g(ca_normal), _g(cd_tangential), _g(ca_tangential)]),
        "---------------------- POINTS -----------------------------------------------",
        "ID  Attachment  X  Y  Z  Mass  Volume  CdA  Ca",
        "(#)  (word/ID)  (m)  (m)  (m)  (kg)  (m^3)  (m^2)  (-)",
        f"1 Fixed {_g(a[0])} {_g(a[1])} {_g(a[2])} 0 0 0 0",
        f"2 Fixed {_g(f[0])} {_g(f[1])} {_g(f[2])} 0 0 0 0",
        "---------------------- LINES ------------------------------------------------",
        "ID  LineType  AttachA  AttachB  UnstrLen  NumSegs  LineOutputs",
        "(#)  (name)  (ID)  (ID)  (m)  (-)  (-)",
        f"1 line 1 2 {_g(length)} {int(n_elements)} -",
        "---------------------- OPTIONS ----------------------------------------------",
        "0 writeLog",
        f"{_g(dt)} dtM",
        "RK4 tScheme",
        f"{_g(gravity)} g",
        f"{_g(water_density)} WtrDnsty",
        f"{_g(water_depth)} WtrDpth",
        f"{_g(kbot)} kBot",
        f"{_g(cbot)} cBot",
        f"{_g(friction)} FrictionCoefficient",
        "0 TmaxIC",
        f"{7 if waves else 0} WaveKin",
        "0 Currents",
        "1 disableOutput",
        "1 disableOutTime",
        "------------------------- need this line -----------------------------------",
        "",
    ]
    return "\n".join(rows)


def run_moordyn_sea(deck_text: str, wave_text: str | None, *, initial_nodes: np.ndarray,
                    duration: float, output_interval: float, dt: float,
                    quiet: bool = True) -> dict:
    """Write the deck (and ``wave_frequencies.txt``) in a temporary folder and run it with
    ``Init_NoIC`` from ``initial_nodes`` (N+1, 3) [m] (both ends Fixed, at the first and
    last node; inner nodes imposed through the state file as in moordyn_deck.py), stepping
    ``dt`` = the deck's dtM [s]. Returns ``time`` (n_out,) [s], ``positions`` (n_out, N+1,
    3) [m], ``start_force`` / ``end_force`` (n_out, 3) [N]: MoorDyn's net force on the end
    nodes (the line's force on anchor and fairlead; NaN at t = 0, not yet evaluated)."""
    import moordyn as md

    from . import output_grid
    from .moordyn import _moordyn_version, _node_positions, _quiet_fd
    from .moordyn_deck import _impose

    n_steps, stride, n_out = output_grid(duration, dt, output_interval)
    nodes = np.asarray(initial_nodes, dtype=float)
    n = nodes.shape[0] - 1
    system = None
    with tempfile.TemporaryDirectory(prefix="moordyn_sea_") as tmp:
        wdir = Path(tmp)
        (wdir / "sea.dat").write_text(deck_text)
        if wave_text is not None:
            (wdir / "wave_frequencies.txt").write_text(wave_text)
        try:
            with _quiet_fd(quiet):
                system = md.Create(str(wdir / "sea.dat"))
                err = md.Init_NoIC(system, [], [])
            if err != 0:
                raise RuntimeError(f"moordyn.Init_NoIC failed with code {err}")
            line = md.GetLine(system, 1)
            if md.GetLineN(line) != n:
                raise RuntimeError("MoorDyn line has an unexpected number of segments")
            held = _node_positions(md, line, n + 1)
            if not (np.allclose(held[0], nodes[0], atol=1e-9)
                    and np.allclose(held[n], nodes[n], atol=1e-9)):
                raise ValueError("initial_nodes: the end nodes must be at the Fixed points")
            impose_err = _impose(md, system, line, n, {}, nodes, wdir, quiet)
            positions = np.empty((n_out, n + 1, 3))
            f0 = np.full((n_out, 3), np.nan)
            f1 = np.full((n_out, 3), np.nan)
            positions[0] = nodes
            with _quiet_fd(quiet):
                for j in range(1, n_out):
                    md.Step(system, [], [], (j - 1) * stride * dt, stride * dt)
                    positions[j] = _node_positions(md, line, n + 1)
                    f0[j] = md.GetLineNodeForce(line, 0)
                    f1[j] = md.GetLineNodeForce(line, n)
        finally:
            if system is not None:
                with _quiet_fd(quiet):
                    md.Close(system)
    return {"time": np.arange(n_out) * (stride * dt), "positions": positions,
            "start_force": f0, "end_force": f1, "steps": n_steps,
            "initial_node_error_m": impose_err, "moordyn_version": _moordyn_version()}
