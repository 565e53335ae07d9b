"""tetherdyn: dynamics of tethers, cables and umbilicals.

>>> import tetherdyn
>>> case = tetherdyn.load_case("examples/hanging_chain.yaml")
>>> ds = tetherdyn.simulate(case)          # an xarray.Dataset

The names below are imported on first use (PEP 562): ``import tetherdyn`` loads neither
numba nor pydantic nor numpy (issue 22: a light import); ``tetherdyn.load_case`` loads the
case module (pydantic, numba for the trajectories), ``tetherdyn.simulate`` the models.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING

from ._version import __version__

if TYPE_CHECKING:  # for type checkers and IDEs: the same names, imported eagerly
    from .case import Case, CaseError, CaseWarning, load_case
    from .cosim import Simulator
    from .integrate import SimulationError
    from .results import load_results, save_results
    from .simulate import simulate
    from .system_cosim import SystemSimulator

#: public name -> the submodule that defines it
_LAZY = {
    "Case": "case", "CaseError": "case", "CaseWarning": "case", "load_case": "case",
    "SimulationError": "integrate", "load_results": "results", "save_results": "results",
    "simulate": "simulate", "Simulator": "cosim", "SystemSimulator": "system_cosim",
}


#: public names that are also a submodule's name: importing the submodule binds it on the
#: package (the import system's setattr on the parent), which must not hide the function
_SHADOWED = frozenset({"simulate"})


class _Package(types.ModuleType):
    """The package's module type: keeps ``tetherdyn.simulate`` the function when the
    submodule ``tetherdyn.simulate`` is imported (``from .simulate import run_case``)."""

    def __setattr__(self, name: str, value) -> None:
        if name in _SHADOWED and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str):
    """A public name (``_LAZY``) from its submodule, imported on first use and kept."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tetherdyn' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "Case", "CaseError", "CaseWarning", "SimulationError", "load_case", "load_results",
    "save_results", "simulate", "Simulator", "SystemSimulator", "__version__",
]
