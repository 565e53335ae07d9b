"""What a formulation supports: the declaration a case is checked against.

Every formulation class carries one :class:`Supports` as its class attribute ``supports``
(placed right after its class docstring). ``tetherdyn.case`` checks a case by generic loops
over the declaration of the case's ``model.type`` (loaded through the registry of
models/__init__.py, so only that formulation's module is imported); no model type name
appears in case.py. This module imports nothing from the package.

Fields of :class:`Supports` (what ``case.py`` does with each):

- ``methods``: the values of ``solver.method`` the formulation runs (``rk4``, ``rk45``,
  ``generalized_alpha``: the last needs the second-order surface of models/base.py); the
  first is the default when a case names none. Another method: an error on
  ``solver.method``.
- ``drag_laws``: the values of ``tether.drag_law`` it implements (``cross_flow``,
  ``loading_functions``, ``projected_area``, ``isotropic``); the first is the default.
  Another law: an error on ``tether.drag_law``.
- ``tether_keys``: the ``tether`` keys it uses whatever the options. A case that gives
  another tether key with a value other than 0 / false gets a ``CaseWarning`` ("not used by
  model …; ignored").
- ``required``: ``tether`` keys that must be given (optional in the schema, e.g. ``EA``);
  missing: an error "required (must be > 0)".
- ``bending``: whether the formulation has bending stiffness: ``False`` never, ``True``
  always, or the name of a boolean entry of ``options`` that switches it on (e.g.
  ``"bending"``). With bending on, ``tether.EI > 0`` is required and ``bending_keys`` join
  the used tether keys.
- ``bending_keys``: the ``tether`` keys used only with bending on (``EI``,
  ``bending_damping``).
- ``options``: the model-specific keys of the ``model`` section, name -> :class:`Option`
  (value kind, default, meaning with units, tether keys it excludes). Any other key of
  ``model`` (besides ``type`` and ``elements``) is an error on ``model.<key>``.
- ``start_types`` / ``end_types``: the end types (``fixed``, ``prescribed``, ``free``) the
  start / end may have; ``ends_note``: why some are missing (said in the message). A winch
  end is governed by ``winch`` alone.
- ``clamp``: a held end may be clamped (``start.clamp`` / ``end.clamp``): needs bending on.
- ``moment``: a free end takes an applied ``moment`` (a follower couple): needs bending on.
- ``torsion``: a twist degree of freedom: an end ``torque``, a held ``roll_deg`` (and a
  ``roll_deg`` trajectory column), ``tether.GJ``; torques then need the other end to hold
  its roll (seed 004 §4.5.1).
- ``planar``: everything lives in the x-z plane: every given vector must have y = 0.
- ``winch``: an end may be a winch (the end element grows and shrinks, seed 004 §6.1.1);
  ``winch_note``: why not, where it cannot (said in the message).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = ["Option", "Supports", "METHODS", "DRAG_LAWS", "END_TYPES", "COMMON_TETHER_KEYS"]

#: every integration method, drag law and (non-winch) end type of the case format
METHODS = ("rk4", "rk45", "generalized_alpha")
DRAG_LAWS = ("cross_flow", "loading_functions", "projected_area", "isotropic")
END_TYPES = ("fixed", "prescribed", "free")

#: tether keys every formulation uses: geometry, mass, displaced volume, drag coefficients
COMMON_TETHER_KEYS = frozenset({
    "length", "diameter", "mass_per_length", "mass", "density", "area", "displaced_area",
    "drag_law", "cd_normal", "cd_tangential",
})


@dataclass(frozen=True)
class Option:
    """One model-specific key of the ``model`` section.

    ``kind``: ``bool`` (must be true or false), ``float`` (a finite number >= 0) or
    ``str`` (one of ``choices``); ``default``: its value when absent (None: not given);
    ``meaning``: what it does, with units; ``excludes``: ``tether`` keys that may not be
    given together with it (when it is given, i.e. not None); ``choices``: the values a
    ``str`` option takes.
    """

    kind: type
    default: Any
    meaning: str
    excludes: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Supports:
    """What one formulation supports (the fields are described in the module docstring)."""

    methods: tuple[str, ...]
    drag_laws: tuple[str, ...]
    tether_keys: frozenset[str]
    required: tuple[str, ...] = ()
    bending: bool | str = False
    bending_keys: frozenset[str] = frozenset({"EI", "bending_damping"})
    options: Mapping[str, Option] = field(default_factory=dict)
    start_types: tuple[str, ...] = END_TYPES
    end_types: tuple[str, ...] = END_TYPES
    ends_note: str = ""
    clamp: bool = False
    moment: bool = False
    torsion: bool = False
    planar: bool = False
    winch: bool = False
    winch_note: str = ""

    def __post_init__(self) -> None:
        # read-only: one declaration is shared by every case of the model type
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))
        object.__setattr__(self, "tether_keys", frozenset(self.tether_keys))
        bad = [m for m in self.methods if m not in METHODS]
        bad += [d for d in self.drag_laws if d not in DRAG_LAWS]
        bad += [e for e in self.start_types + self.end_types if e not in END_TYPES]
        if bad or not self.methods or not self.drag_laws:
            raise ValueError(f"Supports: unknown or missing methods / drag laws / end types "
                             f"{bad}")
        if isinstance(self.bending, str) and (
                self.bending not in self.options or self.options[self.bending].kind is not bool):
            raise ValueError(f"Supports.bending: {self.bending!r} is not a boolean option")
        for name, opt in self.options.items():
            if opt.kind not in (bool, float, str):
                raise ValueError(f"Supports.options[{name!r}]: kind must be bool, float or str")
            if (opt.kind is str) != bool(opt.choices) or (
                    opt.kind is str and opt.default not in opt.choices):
                raise ValueError(f"Supports.options[{name!r}]: a str option needs choices "
                                 "that hold its default (and only a str option has choices)")

    def bending_on(self, option: Callable[[str], Any]) -> bool:
        """Whether bending is on; ``option(key)``: the model section's value of an option
        (its default when absent)."""
        if isinstance(self.bending, bool):
            return self.bending
        return option(self.bending) is True

    def used_tether_keys(self, bending_on: bool) -> frozenset[str]:
        """The tether keys the formulation uses with bending on or off."""
        return self.tether_keys | (self.bending_keys if bending_on else frozenset())
