"""Formulations: one module per model type, each behind the surface of models/base.py."""

from __future__ import annotations

from ..case import Case
from .base import Formulation
from .lumped_mass import LumpedMass

#: model type (case key ``model.type``) -> formulation class
REGISTRY: dict[str, type[Formulation]] = {"lumped_mass": LumpedMass}


def build_model(case: Case) -> Formulation:
    """The formulation a validated case asks for."""
    return REGISTRY[case.model.type](case)


__all__ = ["Formulation", "LumpedMass", "REGISTRY", "build_model"]
