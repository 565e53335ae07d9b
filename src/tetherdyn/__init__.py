"""tetherdyn: dynamics of tethers, cables and umbilicals.

>>> import tetherdyn
>>> case = tetherdyn.load_case("examples/hanging_chain.yaml")
>>> ds = tetherdyn.simulate(case)          # an xarray.Dataset
"""

from ._version import __version__
from .case import Case, CaseError, CaseWarning, load_case
from .integrate import SimulationError
from .results import load_results, save_results
from .simulate import simulate


def __getattr__(name: str):
    """``tetherdyn.Simulator`` (the step API, cosim.py) and ``tetherdyn.SystemSimulator``
    (a system's, system_cosim.py) imported on first use: a run or a batch never needs them
    (issue 22: light start-up)."""
    if name == "Simulator":
        from .cosim import Simulator

        return Simulator
    if name == "SystemSimulator":
        from .system_cosim import SystemSimulator

        return SystemSimulator
    raise AttributeError(f"module 'tetherdyn' has no attribute {name!r}")


__all__ = [
    "Case", "CaseError", "CaseWarning", "SimulationError", "load_case", "load_results",
    "save_results", "simulate", "Simulator", "SystemSimulator", "__version__",
]
