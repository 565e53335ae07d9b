"""Formulations: one module per model type, each behind the surface of models/base.py.

Adding a formulation is one new module here (its class carries a ``supports`` declaration,
models/supports.py) plus one line in :data:`REGISTRY`.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING

from .base import Formulation
from .supports import Supports

if TYPE_CHECKING:
    from ..case import Case

#: model type (case key ``model.type``) -> "module:class" of its formulation (imported on
#: first use, so a run compiles only the kernels of the model it needs, and checking a case
#: imports only its own formulation); a module path with a dot is absolute
REGISTRY: dict[str, str] = {
    "lumped_mass": "lumped_mass:LumpedMass",
    "rigid_links": "rigid_links:RigidLinks",
    "rod_chain": "rod_chain:RodChain",
    "ancf2d": "ancf2d:Ancf2d",
    "higher_order": "higher_order:HigherOrder",
}


def formulation_class(model_type: str) -> type[Formulation]:
    """The formulation class of a model type."""
    module, cls = REGISTRY[model_type].split(":")
    name = module if "." in module else f"{__name__}.{module}"
    return getattr(importlib.import_module(name), cls)


@cache
def _supports(entry: str) -> Supports:
    module, cls = entry.split(":")
    name = module if "." in module else f"{__name__}.{module}"
    declared = getattr(getattr(importlib.import_module(name), cls), "supports", None)
    if not isinstance(declared, Supports):
        raise TypeError(f"formulation {entry}: its class declares no `supports = Supports(...)`")
    return declared


def supports_of(model_type: str) -> Supports:
    """The declaration of what a model type supports (imports only its module)."""
    return _supports(REGISTRY[model_type])


def build_model(case: Case) -> Formulation:
    """The formulation a validated case asks for, its constants frozen (base.py: Model and
    data)."""
    model = formulation_class(case.model.type)(case)
    model.freeze()
    return model


__all__ = ["Formulation", "REGISTRY", "Supports", "build_model", "formulation_class",
           "supports_of"]
