"""Case -> Model -> integrate -> Results: the one way through the code."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .case import Case, load_case
from .integrate import integrate
from .models import build_model
from .results import ResultsTable, results_table
from .start import initial_state

if TYPE_CHECKING:
    import xarray as xr

__all__ = ["simulate", "run_case"]


def run_case(case: Case | dict | str | Path, *, progress: bool | None = None) -> ResultsTable:
    """Run one simulation and return its results as a :class:`ResultsTable` (plain arrays:
    no xarray imported; ``.to_dataset()`` and ``.write(path)`` make the Dataset or the file).

    The run starts from :func:`tetherdyn.start.initial_state` (``initial.shape:
    equilibrium``: the static equilibrium, named in the results' attributes).
    """
    case = load_case(case)
    model = build_model(case)
    start = initial_state(model)
    s = case.solver
    run = integrate(model, case.method, s.dt, s.duration, s.output_interval, rtol=s.rtol,
                    atol=s.atol, max_steps=s.max_steps, progress=progress, y0=start.y,
                    data=start.data(model))
    table = results_table(case, model, run)
    table.attrs.update(start.attrs)
    return table


def simulate(case: Case | dict | str | Path, *, progress: bool | None = None) -> xr.Dataset:
    """Run one simulation and return its results Dataset (shared/spec/results-format.md).

    ``case`` may be a validated Case, a dict of the case-file shape or a YAML path.
    A progress bar is shown on a terminal (``progress=None``), or as forced.
    """
    return run_case(case, progress=progress).to_dataset()
