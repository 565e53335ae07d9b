"""Shared fixtures: tiny, fast cases (4 lumped-mass elements, a fraction of a second)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from tetherdyn.case import set_key

#: a 1 m, 4-element chain [SI]: element 0.25 m / 0.0125 kg, spring EA/L_e = 2000 N/m, so the
#: highest axial frequency is 2*sqrt(2000/0.0125) = 800 rad/s and the RK4 limit 3.5 ms.
SMALL_CASE: dict[str, Any] = {
    "name": "small test chain",
    "tether": {"length": 1.0, "diameter": 1.0e-3, "mass_per_length": 0.05, "EA": 500.0},
    "model": {"type": "lumped_mass", "elements": 4},
    "initial": {"angle_from_gravity_deg": 10.0},
    "solver": {"method": "rk4", "dt": 1.0e-3, "duration": 0.2, "output_interval": 0.01},
}


def make_small_case(changes: dict[str, Any] | None = None, **sections: Any) -> dict:
    """A deep copy of :data:`SMALL_CASE` with dotted-key ``changes`` and whole ``sections``
    replaced (``make_small_case({"tether.EA": 100.0}, end={...})``)."""
    case = copy.deepcopy(SMALL_CASE)
    for key, value in sections.items():
        case[key] = copy.deepcopy(value)
    for path, value in (changes or {}).items():
        set_key(case, path, value)
    return case


# ---- how the files are shared between pytest-xdist's workers --------------------------------
# Most of a cold suite's time is numba compiling (each kernel once per worker process that
# needs it before another has written it to the disk cache). With `--dist loadfile` each
# file runs whole on one worker; the scheduler below keeps that, except that the files of a
# family sharing large kernels form one unit, so one worker compiles them once: the system's
# rhs (models/system_bodies.py, ~130 s of CPU cold) is wanted by every test_system*.py file.
# Units start in the order below (the costliest cold first, so the other worker's queue
# evens out the end), then the rest in file order. (xdist's own `loadgroup` marks do not
# reach the node ids under pytest 9.)
FAMILIES = {"system": ("test_system",)}
FIRST = ("system", "test_generalized_alpha", "test_moordyn_input", "test_rod_chain",
         "test_winch", "test_statics", "test_statics_rov", "test_sea_rows", "test_waves")


def unit_of(nodeid: str) -> str:
    """The scheduling unit of a test: its file's family, else its file."""
    path = nodeid.split("::", 1)[0]
    stem = Path(path).stem
    for family, prefixes in FAMILIES.items():
        if stem.startswith(prefixes):
            return family
    return path


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class FamilyScheduling(LoadScopeScheduling):
        """loadfile, with the families above as single units, in collection order."""

        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid)

    config.option.loadscopereorder = False  # the order of pytest_collection_modifyitems
    return FamilyScheduling(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not hasattr(config, "workerinput"):  # only xdist's workers schedule by this order
        return
    rank = {name: i for i, name in enumerate(FIRST)}

    def key(item: pytest.Item) -> int:
        unit = unit_of(item.nodeid)
        return rank.get(unit if unit in FAMILIES else Path(unit).stem, len(rank))

    # stable: a file's tests keep their order, and every worker collects the same list
    items.sort(key=key)


@pytest.fixture(scope="session")
def small_case() -> Callable[..., dict]:
    """The :func:`make_small_case` factory."""
    return make_small_case


@pytest.fixture(scope="session")
def dask_client():
    """One 2-worker LocalCluster (``tetherdyn.batch.get_client``) for the session: the batch,
    identification and optimisation tests share it instead of each starting its own
    (a start and close cost ~18 s on 2 loaded cores, plus each new worker loading the
    formulations' compiled code again)."""
    from tetherdyn.batch import close_client, get_client

    client = get_client(workers=2)
    yield client
    close_client(client)


@pytest.fixture
def write_case(tmp_path: Path) -> Callable[..., Path]:
    """Write a case dict as YAML: ``write_case(case, "name.yaml", folder=None) -> Path``."""

    def _write(case: dict, name: str = "case.yaml", folder: Path | None = None) -> Path:
        folder = tmp_path if folder is None else folder
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        path.write_text(yaml.safe_dump(case, sort_keys=False))
        return path

    return _write


def dense_from_band(Mb: np.ndarray) -> np.ndarray:
    """The symmetric matrix of lower band storage ``Mb[k, j] = M[j + k, j]`` (the
    second-order surface's ``mass`` layout, models/base.py)."""
    band, n = Mb.shape[0] - 1, Mb.shape[1]
    M = np.zeros((n, n))
    for k in range(band + 1):
        for j in range(n - k):
            M[j + k, j] = M[j, j + k] = Mb[k, j]
    return M


def second_order_surface(model, t: float, y: np.ndarray) -> tuple[np.ndarray, ...]:
    """A formulation's first-order rates and second-order surface at state y, time t
    (models/base.py): (dydt, F, dense M, held accelerations (NaN where free), held mask)."""
    nq = model.n_q
    dydt = np.zeros(2 * nq)
    model.rhs(t, y, dydt, model.data)
    F = np.zeros(nq)
    Mb = np.zeros((model.band + 1, nq))
    a = np.full(nq, np.nan)
    model.force(t, y, F, model.data)
    model.mass(t, y, Mb, model.data)
    model.held_acc(t, y, a, model.data)
    return dydt, F, dense_from_band(Mb), a, model.held.astype(bool)
