"""The model of a system case (issue 19; docs/systems.md): which of the system models runs it.

A system of lumped-mass lines (with or without points and bodies) runs
models/system_bodies.BodySystem — one set of compiled kernels for every such system (a
second set for systems without bodies cost ~2 min of compilation per cold cache, measured,
for a few ns per step). A system with higher_order lines runs its subclass
models/system_higher.MixedSystem, whose kernels call that set's system_rhs and are
compiled only for such systems.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .system_bodies import BodySystem

if TYPE_CHECKING:
    from ..system_case import SystemCase

__all__ = ["build_system"]


def build_system(case: SystemCase) -> BodySystem:
    """The frozen system model (models/base.py) of a validated system case."""
    if any(c.model.type != "lumped_mass" for c in case.lines.values()):
        from .system_higher import MixedSystem

        model = MixedSystem(case)
    else:
        model = BodySystem(case)
    model.freeze()
    return model
