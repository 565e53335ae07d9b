"""A three-line spread mooring in MoorPy (pip moorpy==1.3.0; NREL, Hall): the restoring force
of the lines on a body held at surge offsets.

MoorPy's own usage (its README's "System" example): ``System(depth)``, a line type, a
coupled body (type -1) with the fairlead points attached to it, anchors as fixed points
(type 1), ``addLine`` from anchor to fairlead, ``initialize``; then per offset
``body.setPosition([x, 0, 0, 0, 0, 0])``, ``solveEquilibrium()`` and
``body.getForces(lines_only=True)``. MoorPy's lines are quasi-static elastic catenaries with
seabed contact (``Catenary.catenary``, frictionless with ``cb = 0``): the closed form, no
discretisation. The geometry is passed in (validation/moorpy_spread.py's SPREAD) so both
codes read the same numbers.
"""

from __future__ import annotations

import numpy as np

__all__ = ["moorpy_available", "moorpy_version", "spread_points", "moorpy_restoring",
           "moorpy_body_stiffness"]


def moorpy_available() -> bool:
    """True if the ``moorpy`` package can be imported."""
    try:
        import moorpy  # noqa: F401
    except Exception:
        return False
    return True


def moorpy_version() -> str:
    from importlib.metadata import version

    return version("moorpy")


def spread_points(spread: dict) -> list[tuple[list[float], list[float]]]:
    """Each line's anchor and fairlead [m], in ``spread``'s heading order: the anchor on
    the seabed at ``anchor_radius``, the fairlead at ``fairlead_radius`` and
    ``fairlead_z`` about the body's reference point at the origin (the layout both codes
    are given: validation/moorpy_spread.py's and system_body_decay.py's cases, and
    MoorPy's system here)."""
    s = spread
    out = []
    for head in np.radians(s["headings_deg"]):
        c, sn = float(np.cos(head)), float(np.sin(head))
        out.append(([s["anchor_radius"] * c, s["anchor_radius"] * sn, -s["depth"]],
                    [s["fairlead_radius"] * c, s["fairlead_radius"] * sn, s["fairlead_z"]]))
    return out


def _moorpy_spread(spread: dict, pose):
    """MoorPy's system of the spread mooring (module docstring) and its coupled body at
    ``pose`` (MoorPy's ``r6``), the fairleads attached at their positions about the body's
    reference point, initialised: (system, body)."""
    import moorpy as mp

    s = spread
    ms = mp.System(depth=s["depth"], rho=s["rho"], g=s["g"])
    ln = s["line"]
    ms.setLineType(name="line", lineType=dict(d_vol=ln["d_vol"], m=ln["m"], EA=ln["EA"],
                                              material="chain"))
    body = ms.addBody(-1, np.asarray(pose, dtype=float))
    for k, (anchor, fair) in enumerate(spread_points(s)):
        ms.addPoint(1, anchor)
        ms.addPoint(1, fair)
        body.attachPoint(2 * k + 2, fair)
        ms.addLine(s["length"], "line", pointA=2 * k + 1, pointB=2 * k + 2)
    ms.initialize()
    return ms, body


def moorpy_restoring(spread: dict, offsets) -> dict:
    """MoorPy's line forces on the body at each surge offset [m].

    ``spread``: depth, rho, g, line (d_vol, m, EA), length, anchor_radius, fairlead_radius,
    fairlead_z, headings_deg. Returns ``force`` (n_offsets, 3) [N] (the lines' net force on
    the body), ``fairlead_tension`` (n_offsets, n_lines) [N] and ``grounded`` (n_offsets,
    n_lines) [m] (MoorPy's LBot)."""
    ms, body = _moorpy_spread(spread, np.zeros(6))
    force, tension, grounded = [], [], []
    for x in offsets:
        body.setPosition([float(x), 0, 0, 0, 0, 0])
        ms.solveEquilibrium()
        force.append(np.asarray(body.getForces(lines_only=True)[:3], dtype=float))
        tension.append([float(line.TB) for line in ms.lineList])
        grounded.append([float(line.LBot) for line in ms.lineList])
    return {"force": np.array(force), "fairlead_tension": np.array(tension),
            "grounded": np.array(grounded)}


def moorpy_body_stiffness(spread: dict, pose, *, dx: float = 0.01, dth: float = 1e-3
                          ) -> dict:
    """MoorPy's 6x6 stiffness of the lines on a coupled body at ``pose`` (x, y, z [m],
    roll, pitch, yaw [rad]; MoorPy's ``r6``), the fairleads attached to it at their
    positions in ``spread`` relative to the body: ``getCoupledStiffness(lines_only=True)``
    (central differences of the lines' load, each line's catenary re-solved, steps ``dx``
    [m] and ``dth`` [rad]; MoorPy's defaults are 0.1 and 0.1) and the analytic
    ``getCoupledStiffnessA(lines_only=True)``. Rows force [N], moment about the body's
    reference point [N m]; columns displacement [m], rotation [rad]."""
    ms, _ = _moorpy_spread(spread, pose)
    ms.solveEquilibrium()
    K = np.asarray(ms.getCoupledStiffness(dx=dx, dth=dth, lines_only=True), dtype=float)
    KA = np.asarray(ms.getCoupledStiffnessA(lines_only=True), dtype=float)
    return {"K": K, "K_analytic": KA}
