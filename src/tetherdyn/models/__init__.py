"""Formulations: one module per model type, each behind the surface of models/base.py."""

from __future__ import annotations

import importlib

from ..case import Case
from .base import Formulation

#: model type (case key ``model.type``) -> "module:class" of its formulation (imported on
#: first use, so a run compiles only the kernels of the model it needs)
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
    return getattr(importlib.import_module(f"{__name__}.{module}"), cls)


def build_model(case: Case) -> Formulation:
    """The formulation a validated case asks for, its constants frozen (base.py: Model and
    data)."""
    model = formulation_class(case.model.type)(case)
    model.freeze()
    return model


__all__ = ["Formulation", "REGISTRY", "build_model", "formulation_class"]
