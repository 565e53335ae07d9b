"""Peer row: a three-line spread mooring's restoring force over surge offsets, tetherdyn's
system statics against MoorPy (issue 19: "within 1 %").

The mooring is the OC4-DeepCwind semisubmersible's (Robertson et al. 2014, NREL/TP-5000-
60601, Table 3-1; the system of MoorPy's own OC4 examples): 200 m water, three chains of
835.35 m (volume-equivalent diameter 0.0766 m, 113.35 kg/m, EA 753.6 MN) from anchors on a
radius of 837.6 m at 200 m depth to fairleads on a radius of 40.868 m at 14 m below the
still water line, at 180°, 60° and 300°; seawater 1025 kg/m³, g = 9.81 m/s², frictionless
seabed (MoorPy's cb = 0). The body is held at surge offsets x = 0 … 30 m (the windward
line lifts off the seabed entirely at about 15 m and is stretched taut beyond).

MoorPy (validation/peers/moorpy_spread.py): a coupled body with the fairleads attached,
``solveEquilibrium`` per offset, ``getForces(lines_only=True)``: analytic elastic catenaries
with seabed contact. tetherdyn: per offset a system case with the anchors and the
fairleads as fixed points at the offset positions, lumped_mass lines of N elements on a
flat seabed (its contact spring, kBot = 3 MPa/m: a grounded node sinks w/(kBot d) = 4.6 mm),
solved by system statics (``system_statics.solve_system``); the restoring force is the sum
of the lines' forces on the fairlead points. Criterion (the issue's): the surge restoring
force within 1 % of MoorPy's at every offset x > 0 (at x = 0 both are zero by symmetry:
reported as a force). N = 20, 40, 80 are shown, the row's verdict is at N = 40: the
error falls with N overall (the lumped chain is the midpoint rule of the catenary's slope,
docs/statics.md) but not monotonically at every offset, since where the touchdown falls
between two nodes, and the contact spring's sink, are errors of their own.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from . import Row, peer_not_installed, register, save_figure

#: the OC4-DeepCwind mooring (module docstring)
SPREAD = dict(depth=200.0, rho=1025.0, g=9.81,
              line=dict(d_vol=0.0766, m=113.35, EA=7.536e8),
              length=835.35, anchor_radius=837.6, fairlead_radius=40.868, fairlead_z=-14.0,
              headings_deg=[180.0, 60.0, 300.0])
TOL = 0.01  # of MoorPy's restoring force (issue 19)
N_ROW = 40  # the elements per line the verdict is taken at
FULL_N = (20, 40, 80)
FULL_OFFSETS = (0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0)
REDUCED_N = (20,)
REDUCED_OFFSETS = (10.0, 30.0)
INSTALL = "pip install moorpy==1.3.0"


def spread_case(offset: float, elements: int, spread: dict = SPREAD) -> dict:
    """Our system case of the spread mooring with the fairleads at surge ``offset`` [m]."""
    from validation.peers.moorpy_spread import spread_points

    s, ln = spread, spread["line"]
    points, lines = {}, {}
    for k, (anchor, fair) in enumerate(spread_points(s)):
        points[f"anchor{k + 1}"] = {"type": "fixed", "position": anchor}
        points[f"fairlead{k + 1}"] = {"type": "fixed",
                                      "position": [fair[0] + offset, fair[1], fair[2]]}
        lines[f"line{k + 1}"] = {
            "line_type": "chain", "length": s["length"],
            "model": {"type": "lumped_mass", "elements": elements},
            "start": {"point": f"anchor{k + 1}"}, "end": {"point": f"fairlead{k + 1}"}}
    return {
        "name": f"OC4 spread mooring at surge {offset:g} m",
        "line_types": {"chain": {"diameter": ln["d_vol"], "mass_per_length": ln["m"],
                                 "EA": ln["EA"]}},
        "lines": lines, "points": points,
        "environment": {"gravity": [0.0, 0.0, -s["g"]], "fluid_density": s["rho"],
                        "seabed": {"z": -s["depth"]}},
        "solver": {"method": "rk4", "dt": 1e-3, "duration": 1.0},
    }


def ours(offsets, elements: int) -> dict:
    """tetherdyn's net line force on the fairleads (n_offsets, 3) [N] and fairlead
    tensions (n_offsets, 3) [N] by system statics, with the largest residual [N]."""
    from tetherdyn.system_statics import solve_system

    force, tension, residual = [], [], 0.0
    for x in offsets:
        eq = solve_system(spread_case(x, elements))
        force.append(sum(eq.forces[f"fairlead{k + 1}"] for k in range(3)))
        tension.append([eq.lines[f"line{k + 1}"].end_tensions[1] for k in range(3)])
        residual = max(residual, eq.residual / eq.weight)
    return {"force": np.array(force), "fairlead_tension": np.array(tension),
            "residual": residual}


def compare(offsets, n_list) -> dict:
    """Both codes at each offset; per N the relative surge-force difference at x > 0."""
    from validation.peers.moorpy_spread import moorpy_restoring, moorpy_version

    mp = moorpy_restoring(SPREAD, offsets)
    off = np.asarray(offsets, dtype=float)
    moving = off > 0
    res = {"offsets": off, "moorpy": mp, "version": moorpy_version(), "ours": {}, "rel": {},
           "rel_tension": {}}
    for n in n_list:
        o = ours(offsets, n)
        res["ours"][n] = o
        res["rel"][n] = np.abs(o["force"][moving, 0] - mp["force"][moving, 0]) / np.abs(
            mp["force"][moving, 0])
        res["rel_tension"][n] = float(np.max(np.abs(o["fairlead_tension"]
                                                    - mp["fairlead_tension"])
                                             / mp["fairlead_tension"]))
    return res


def _figure(r: dict, figure_dir: Path) -> str:
    import matplotlib.figure

    fig = matplotlib.figure.Figure(figsize=(8.0, 3.2))
    ax, ax2 = fig.subplots(1, 2)
    x = r["offsets"]
    ax.plot(x, -r["moorpy"]["force"][:, 0] / 1e6, "k-", label=f"MoorPy {r['version']}")
    for n, o in r["ours"].items():
        ax.plot(x, -o["force"][:, 0] / 1e6, "o--", ms=3, label=f"tetherdyn N = {n}")
        ax2.semilogy(x[x > 0], 100 * r["rel"][n], "o-", ms=3, label=f"N = {n}")
    ax.set_xlabel("surge offset [m]")
    ax.set_ylabel("restoring force −F_x [MN]")
    ax.legend(fontsize=8)
    ax2.axhline(100 * TOL, color="k", ls=":", label="1 % (issue 19)")
    ax2.set_xlabel("surge offset [m]")
    ax2.set_ylabel("|tetherdyn − MoorPy| / MoorPy [%]")
    ax2.legend(fontsize=8)
    return save_figure(fig, figure_dir, "moorpy_spread_mooring.png")


@register("moorpy_spread_mooring", "peer", "Three-line spread mooring's restoring force over "
          "surge offsets: system statics vs MoorPy", reference="peer")
def check(full: bool = True, figure_dir: Path | None = None) -> Row:
    from validation.peers.moorpy_spread import moorpy_available

    name = "OC4 three-line spread mooring, restoring force over surge: tetherdyn vs MoorPy"
    expected = "surge restoring force within 1 % of MoorPy's at every offset (issue 19)"
    if not moorpy_available():
        return peer_not_installed(name, expected, "1 %", INSTALL)
    offsets = FULL_OFFSETS if full else REDUCED_OFFSETS
    n_list = FULL_N if full else REDUCED_N
    r = compare(offsets, n_list)
    n_row = N_ROW if N_ROW in n_list else n_list[-1]
    worst = float(np.max(r["rel"][n_row]))
    zero = float(np.abs(r["ours"][n_row]["force"][r["offsets"] == 0, 0]).max(initial=0.0))
    mp = r["moorpy"]["force"]
    figure = _figure(r, figure_dir) if figure_dir else None
    return Row(
        name=f"{name} {r['version']} ({offsets[0]:g}–{offsets[-1]:g} m, N = {n_row})",
        tier="peer",
        expected=expected,
        ours=(f"worst {worst * 100:.3g} % at N = {n_row} ("
              + ", ".join(f"N = {n}: {float(np.max(v)) * 100:.2g} %"
                          for n, v in r["rel"].items())
              + f"); fairlead tensions within {r['rel_tension'][n_row] * 100:.2g} %"),
        tolerance="1 % of MoorPy's force",
        passed=bool(worst < TOL),
        details=("OC4-DeepCwind mooring (Robertson et al. 2014): 3 × 835.35 m chain, d_vol = "
                 "0.0766 m, 113.35 kg/m, EA = 753.6 MN, anchors at r = 837.6 m, z = −200 m, "
                 "fairleads at r = 40.868 m, z = −14 m; frictionless seabed. MoorPy: analytic "
                 "elastic catenaries with seabed contact (coupled body, solveEquilibrium). "
                 "tetherdyn: fixed fairlead and anchor points, lumped_mass lines on a "
                 "contact-spring seabed, system statics. MoorPy's surge force −F_x [kN] at "
                 + ", ".join(f"{x:g} m: {-f / 1e3:.4g}" for x, f in zip(r["offsets"], mp[:, 0],
                                                                        strict=True))
                 + f"; ours at x = 0: {zero:.2g} N (symmetry). Largest static residual "
                 f"{r['ours'][n_row]['residual']:.2g} of the lines' weight."),
        figure=figure,
        values={"worst_rel": worst, "rel": {n: v.tolist() for n, v in r["rel"].items()},
                "offsets": list(offsets), "moorpy_force": mp.tolist()},
    )
