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
    """``tetherdyn.Simulator`` (the step API, cosim.py) imported on first use: a run or a
    batch never needs it (issue 22: light start-up)."""
    if name == "Simulator":
        from .cosim import Simulator

        return Simulator
    raise AttributeError(f"module 'tetherdyn' has no attribute {name!r}")


__all__ = [
    "Case", "CaseError", "CaseWarning", "SimulationError", "load_case", "load_results",
    "save_results", "simulate", "Simulator", "__version__",
]
