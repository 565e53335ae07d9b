"""tetherdyn: dynamics of tethers, cables and umbilicals.

>>> import tetherdyn
>>> case = tetherdyn.load_case("examples/hanging_chain.yaml")
>>> ds = tetherdyn.simulate(case)          # an xarray.Dataset
"""

__version__ = "0.1.0"

from .case import Case, CaseError, CaseWarning, load_case  # noqa: E402
from .cosim import Simulator  # noqa: E402
from .integrate import SimulationError  # noqa: E402
from .results import load_results, save_results  # noqa: E402
from .simulate import simulate  # noqa: E402

__all__ = [
    "Case", "CaseError", "CaseWarning", "SimulationError", "load_case", "load_results",
    "save_results", "simulate", "Simulator", "__version__",
]
