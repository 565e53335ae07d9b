"""Every registered formulation declares what it supports (models/supports.py), and the
declaration agrees with what its class implements."""

from __future__ import annotations

import pytest

from tetherdyn.models import REGISTRY, formulation_class, supports_of
from tetherdyn.models.supports import Option, Supports


@pytest.mark.parametrize("model_type", sorted(REGISTRY))
def test_declaration_matches_the_class(model_type):
    cls = formulation_class(model_type)
    decl = supports_of(model_type)
    assert isinstance(decl, Supports) and cls.supports is decl
    # generalized_alpha needs the second-order surface (models/base.py)
    assert ("generalized_alpha" in decl.methods) == (cls.force is not None), model_type
    assert "drag_law" in decl.tether_keys  # every formulation takes a drag law


def test_declaration_rejects_what_the_case_format_lacks():
    with pytest.raises(ValueError, match="unknown"):
        Supports(methods=("euler",), drag_laws=("cross_flow",), tether_keys=frozenset())
    with pytest.raises(ValueError, match="bending"):
        Supports(methods=("rk4",), drag_laws=("cross_flow",), tether_keys=frozenset(),
                 bending="stiff", options={"stiff": Option(float, 0.0, "not a switch")})
