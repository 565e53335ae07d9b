"""Exudyn (PyPI ``exudyn``, optional) as a peer for the seed-003 rubber strip: the same
planar ANCF cable in Exudyn's ``ObjectANCFCable2D``.

The model (seed 003 Table 1; ``validation.seed003.strip_case`` is tetherdyn's side):

* **Elements.** ``elements`` ANCF cable elements of length L/n between ``NodePoint2DSlope1``
  nodes (x, y, x', y'), straight at 45° above the horizontal, at rest. Exudyn's plane is
  x–y with gravity −y; tetherdyn's is x–z with gravity −z: y here is z there.
* **Material.** ``axialStiffness`` EA, ``bendingStiffness`` EI, ``massPerLength`` ρ_t a;
  internal damping as tetherdyn's reading of seed 003 eqs. (12)–(16): ``axialDamping`` C =
  D a on the axial strain rate and ``bendingDamping`` C_b = D I on the curvature rate.
  Exudyn integrates the axial terms with 5 and the bending terms with 3 Gauss points,
  tetherdyn both with 4 (``tetherdyn.models.ancf2d.GAUSS_POINTS``).
* **Pinned start.** Node 0's position held by two ``CoordinateConstraint``s; slope free.
* **Gravity and buoyancy.** ``LoadMassProportional`` on every element (a uniform load per
  length, the consistent load of seed 003 eq. (11)) of g (ρ_t − ρ_air)/ρ_t.
* **Air drag** (``drag=True``): seed 003 eqs. (17)–(23) as tetherdyn reads them
  (``tetherdyn.models.ancf2d``, docs/ancf2d.md): per element, with the mean nodal velocity
  u and the chord's projections, Q_x = −½ ρ C_D b |Δy| |u_x| u_x and Q_y = −½ ρ C_D b |Δx|
  |u_y| u_y, spread uniformly over the element. Exudyn has no such load; it is added to the
  element's ``LoadMassProportional`` (uniform per length, so the same consistent generalized
  force as tetherdyn's) from a pre-step user function, i.e. from the state at the start of
  each step and held over the step (first order in dt: at dt = 0.1 ms the lag moves the tip
  by < 0.1 mm, see the peer row).
* **Integrator.** Exudyn's generalized-α (``spectralRadius`` 0.8) with its Newton solver and
  the sparse linear solver. Exudyn's explicit RK44 is not used: it follows a path that
  departs from its own generalized-α and from tetherdyn by ~30 mm at 1.2 s
  (benchmarks/results_ancf2d.md; cause not found).

``benchmarks/bench_ancf2d.py`` times this same model.
"""

from __future__ import annotations

import math
import time

import numpy as np

INSTALL = "pip install exudyn==1.13.6"


def exudyn_available() -> bool:
    """Whether the optional peer ``exudyn`` can be imported."""
    try:
        import exudyn  # noqa: F401
    except ImportError:
        return False
    return True


def exudyn_version() -> str:
    import exudyn

    return str(exudyn.__version__)


def run_strip(elements: int, duration: float, dt: float, *, length: float, width: float,
              area: float, density: float, EA: float, EI: float, gravity: float,
              release_deg: float, damping: float = 0.0, cd: float = 0.0,
              air_density: float = 0.0, output_interval: float = 0.01,
              solver: str = "generalized_alpha", spectral_radius: float = 0.8):
    """The strip in Exudyn; returns a results Dataset shaped like tetherdyn's (``time``,
    ``arc_length`` [m], ``position`` and ``slope`` (time, node, 3) in tetherdyn's x–z
    frame, y = 0) with ``attrs['wall_time_s']`` the wall time of ``SolveDynamic`` [s].

    Units: lengths [m], ``area`` a [m²], ``density`` ρ_t [kg/m³], EA [N], EI [N m²],
    ``gravity`` g [m/s²] (acting −z), ``damping`` D [N s/m²] (C = D a, C_b = D EI/E with
    I from EI and E = EA/a), ``cd`` the drag coefficient, ``air_density`` [kg/m³],
    ``dt`` and ``output_interval`` [s]. ``solver``: ``generalized_alpha`` or ``rk4``.
    """
    import exudyn as exu
    import xarray as xr
    from exudyn.itemInterface import (
        CoordinateConstraint,
        LoadMassProportional,
        MarkerBodyMass,
        MarkerNodeCoordinate,
        NodePoint2DSlope1,
        NodePointGround,
        ObjectANCFCable2D,
        SensorNode,
    )

    from validation.peers import output_grid

    n_steps, stride, n_out = output_grid(duration, dt, output_interval)
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    le = length / elements
    c, s = math.cos(math.radians(release_deg)), math.sin(math.radians(release_deg))
    nodes = [mbs.AddNode(NodePoint2DSlope1(referenceCoordinates=[i * le * c, i * le * s, c, s]))
             for i in range(elements + 1)]
    inertia = EI * area / EA  # I = EI / E
    m_elem = density * area * le  # [kg]
    # gravity with buoyancy as an acceleration of the element's mass: seed 003 eq. (11)
    g_net = gravity * (density - air_density) / density
    loads = []
    for i in range(elements):
        obj = mbs.AddObject(ObjectANCFCable2D(
            length=le, massPerLength=density * area, bendingStiffness=EI, axialStiffness=EA,
            bendingDamping=damping * inertia, axialDamping=damping * area,
            nodeNumbers=[nodes[i], nodes[i + 1]]))
        marker = mbs.AddMarker(MarkerBodyMass(bodyNumber=obj))
        loads.append(mbs.AddLoad(LoadMassProportional(markerNumber=marker,
                                                      loadVector=[0.0, -g_net, 0.0])))
    ground = mbs.AddNode(NodePointGround(referenceCoordinates=[0.0, 0.0, 0.0]))
    mg = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=ground, coordinate=0))
    for k in (0, 1):  # pinned: position held, slope free
        mk = mbs.AddMarker(MarkerNodeCoordinate(nodeNumber=nodes[0], coordinate=k))
        mbs.AddObject(CoordinateConstraint(markerNumbers=[mg, mk]))
    sensors = [mbs.AddSensor(SensorNode(nodeNumber=nd, storeInternal=True,
                                        outputVariableType=exu.OutputVariableType.Coordinates))
               for nd in nodes]
    if cd > 0.0 and air_density > 0.0:
        half_rho_cd_b = 0.5 * air_density * cd * width
        n_q = 4 * (elements + 1)

        def drag_pre_step(mbs, t):
            # seed 003 eqs. (17)-(23) from the state at the start of the step
            q = (mbs.systemData.GetODE2Coordinates()[:n_q]
                 + mbs.systemData.GetODE2Coordinates(
                     configuration=exu.ConfigurationType.Reference)[:n_q]).reshape(-1, 4)
            v = mbs.systemData.GetODE2Coordinates_t()[:n_q].reshape(-1, 4)
            ux = 0.5 * (v[:-1, 0] + v[1:, 0])  # eq. (20)
            uy = 0.5 * (v[:-1, 1] + v[1:, 1])  # eq. (21)
            qx = -half_rho_cd_b * np.abs(np.diff(q[:, 1])) * np.abs(ux) * ux  # eqs. (18), (23)
            qy = -half_rho_cd_b * np.abs(np.diff(q[:, 0])) * np.abs(uy) * uy  # eqs. (19), (22)
            for i, load in enumerate(loads):
                mbs.SetLoadParameter(load, "loadVector",
                                     [qx[i] / m_elem, qy[i] / m_elem - g_net, 0.0])
            return True

        mbs.SetPreStepUserFunction(drag_pre_step)
    mbs.Assemble()
    ss = exu.SimulationSettings()
    ss.timeIntegration.numberOfSteps = n_steps
    ss.timeIntegration.endTime = duration
    ss.timeIntegration.verboseMode = 0
    ss.solution.file.write = False
    ss.solution.sensors.writePeriod = output_interval
    ss.linearSolver.solverType = exu.LinearSolverType.EigenSparse
    ss.show.statistics = False
    ss.show.computationTime = False
    if solver == "generalized_alpha":
        ss.timeIntegration.generalizedAlpha.spectralRadius = spectral_radius
        kind = exu.DynamicSolverType.GeneralizedAlpha
    elif solver == "rk4":
        kind = exu.DynamicSolverType.RK44
    else:
        raise ValueError(f"solver must be 'generalized_alpha' or 'rk4', not {solver!r}")
    t0 = time.perf_counter()
    mbs.SolveDynamic(ss, solverType=kind)
    wall = time.perf_counter() - t0
    ref = np.array([[i * le * c, i * le * s, c, s] for i in range(elements + 1)])
    data = [np.asarray(mbs.GetSensorStoredData(k)) for k in sensors]
    k_out = min(d.shape[0] for d in data)
    times = data[0][:k_out, 0]
    coords = np.stack([d[:k_out, 1:5] for d in data], axis=1) + ref[None]  # (time, node, 4)
    pos = np.zeros((k_out, elements + 1, 3))
    slope = np.zeros_like(pos)
    pos[:, :, 0], pos[:, :, 2] = coords[:, :, 0], coords[:, :, 1]
    slope[:, :, 0], slope[:, :, 2] = coords[:, :, 2], coords[:, :, 3]
    if k_out != n_out:
        raise RuntimeError(f"Exudyn stored {k_out} sensor outputs, expected {n_out}")
    return xr.Dataset(
        {"position": (("time", "node", "xyz"), pos), "slope": (("time", "node", "xyz"), slope)},
        coords={"time": times, "node": np.arange(elements + 1),
                "arc_length": ("node", np.arange(elements + 1) * le)},
        attrs={"wall_time_s": wall, "peer": f"Exudyn {exudyn_version()}"},
    )
