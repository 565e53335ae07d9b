"""tetherdyn: dynamics of tethers, cables and umbilicals.

>>> import tetherdyn
>>> case = tetherdyn.load_case("examples/hanging_chain.yaml")
>>> ds = tetherdyn.simulate(case)          # an xarray.Dataset
"""

from ._version import __version__
from .case import Case, CaseError, CaseWarning, load_case
from .cosim import Simulator
from .integrate import SimulationError
from .results import load_results, save_results
from .simulate import simulate

__all__ = [
    "Case", "CaseError", "CaseWarning", "SimulationError", "load_case", "load_results",
    "save_results", "simulate", "Simulator", "__version__",
]
