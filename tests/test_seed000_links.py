"""Seed 000 §5 with rigid links, and the rigid-link physics rows (reduced versions).

Tolerances are the issue's (period 0.3 %, energy 1e-6) or stated in the row's module.
"""

from __future__ import annotations

import numpy as np

from validation import rigid_links_physics, seed000_links


def test_hanging_chain_period_within_bessel() -> None:
    row = rigid_links_physics.check_period(full=False)
    assert row.passed, row.ours
    assert abs(row.values["errors"][16]) < 3e-3


def test_energy_conserved_without_damping() -> None:
    row = rigid_links_physics.check_energy(full=False)
    assert row.values["drift"] < 1e-6


def test_links_match_bead_pendulum_without_axial_ripple() -> None:
    row = seed000_links.check_bead(full=False)
    assert row.values["period_diff"] < 0.01
    assert row.values["hf_ratio"] > 10.0
    assert row.passed


def test_discretisation_converges_to_static_shape() -> None:
    row = seed000_links.check_discretisation(full=False)
    assert row.values["converging"]
    assert max(row.values["shape_error"].values()) < 1e-3
    # the discrete static shape approaches the continuum catenary like 1/N^2
    bias = row.values["shape_bias"]
    assert bias[32] < bias[8] / 8.0
    assert row.passed


def test_static_link_shape_tends_to_catenary() -> None:
    force = seed000_links.ramp_load()
    for n, tol in ((64, 1e-3), (256, 1e-4)):
        pts = seed000_links.static_link_shape(n, force)
        s = np.linspace(0.0, 10.0, n + 1)
        assert np.abs(pts - seed000_links.catenary_with_tip_force(s, force)).max() < tol


def test_link_model_allows_larger_steps_than_beads() -> None:
    row = seed000_links.check_time_step(full=False)
    # linearised estimates: 28 ms (links), 6 ms (beads, EA 80 N), 0.09 ms (EA 4e5 N)
    assert 0.02 < row.values["links"] < 0.04
    assert 0.004 < row.values["beads_80"] < 0.008
    assert row.values["ratio_steel"] > 100
    assert row.passed
