"""Seed 004 ch. 3–4 bending rows (validation/seed004_bending.py), reduced versions."""

import pytest

from validation import seed004_bending as sb


def test_three_node_bending_force_is_euler_bernoulli():
    # digest §4.7: centre −6EIδ/L³, ends +3EIδ/L³ (48EI/(2L)³ central stiffness) from both
    # models' force kernels; 1e-8 relative: the force is linear in δ up to (δ/L)² = 2.5e-9
    row = sb.check_three_node(full=False)
    for model in sb.MODELS:
        assert row.values["errors"][model] < sb.THREE_NODE_TOL
        assert row.values["extra"][model]["net"] < 1e-12  # internal forces sum to zero
    assert row.passed


@pytest.fixture(scope="module")
def cantilever():
    return sb.check_cantilever(full=False)


def test_sharf_closed_form_reproduces_table_3_2_and_its_misprint():
    # every printed tip to its printed digits (or 1 mm), except M = 24 N m: r_X = 22.479 m
    for M in sb.TABLE_3_2:
        assert sb.table_agrees(M) == (M != sb.TABLE_MISPRINT)
    x, z = sb.sharf_tip(sb.TABLE_MISPRINT)
    assert abs(x - 22.479) < 5e-4 and abs(z - 147.730) < 5e-4
    assert abs(sb.load_factor(400.0) - 1.602) < 1e-3


def test_couple_alone_matches_the_digest():
    # digest §5.1: the continuous beam under the same force couple gives δ_B = 0.0231,
    # 0.0058, 0.0015 at M = 400 N m for N = 6, 12, 24 (printed to 2 digits)
    for N, ref in ((6, 0.0231), (12, 0.0058), (24, 0.0015)):
        assert abs(sb.couple_only_delta(400.0, N) - ref) < 0.05 * ref


def test_lumped_mass_cantilever_meets_the_seed_bound(cantilever):
    v = cantilever.values
    # seed 004 §3.3: N = 24 below 1 % at every load factor up to 1.6 (a hard bound)
    assert v["lumped_max"] < sb.LUMPED_BOUND
    assert v["converged"] and v["monotone"] and v["table_ok"]
    assert v["out_of_plane"] < 1e-6
    # the same scheme as the digest's independent reproduction (§5.1.6): N = 24 within 2 %
    for r in v["results"]["lumped_mass 24"]:
        ref = sb.DIGEST_LINEAR_DELTA[r["M"]][3]
        assert abs(r["delta"] - ref) < 0.02 * ref + 2e-5
    # second-order convergence: N = 6 → 24 cuts δ_B by ≥ 10 (4² = 16 for second order)
    for a, b in zip(v["results"]["lumped_mass 6"], v["results"]["lumped_mass 24"],
                    strict=True):
        assert a["delta"] > 10.0 * b["delta"]


def test_higher_order_cantilever_beats_lumped_mass_at_large_load(cantilever):
    v = cantilever.values
    ho = {r["M"]: r["delta"] for r in v["results"]["higher_order 6"]}
    lm = {r["M"]: r["delta"] for r in v["results"]["lumped_mass 6"]}
    assert ho[400.0] < 0.75 * lm[400.0]
    # never below the floor of the couple itself (the continuous beam under it)
    assert v["higher_max"] > v["couple_floor"][sb.HIGHER_N]


@pytest.mark.xfail(reason="lumped_mass N = 12 gives δ_B = 0.030 at λ_B = 1.6, above the "
                          "seed's 0.02 (the digest's reproduction of its scheme: 0.0301)",
                   strict=False)
def test_lumped_mass_n12_cantilever_meets_the_seed_bound(cantilever):
    assert cantilever.values["lumped_max_12"] < sb.LUMPED_BOUND_12


def test_lumped_mass_n12_is_the_seed_scheme(cantilever):
    # N = 12 reproduces the digest's independent reproduction of the ch.-3 scheme (§5.1.6)
    for r in cantilever.values["results"]["lumped_mass 12"]:
        ref = sb.DIGEST_LINEAR_DELTA[r["M"]][2]
        assert abs(r["delta"] - ref) < 0.03 * ref + 2e-5


@pytest.mark.xfail(reason="higher_order N = 12 gives δ_B = 0.0195 at λ_B = 1.6, above the "
                          "seed's 0.006 (docs/seed004_bending.md)", strict=False)
def test_higher_order_cantilever_meets_the_seed_claim(cantilever):
    assert cantilever.values["higher_max"] <= sb.HIGHER_BOUND


@pytest.fixture(scope="module")
def energy_row():
    return sb.check_energy(full=False)


def test_bending_energy_and_conservativeness(energy_row):
    row = energy_row
    v = row.values
    # the whip without bending holds its energy to RK4's error: the drift is the bending's
    assert v["baseline"] < sb.BASELINE_TOL
    for model in sb.MODELS:
        # the energy error shrinks as the mesh refines (both bending models)
        e = v[model]["errors"]
        assert e[20] < e[10]
    # the verdict is the energy criterion itself, which a non-conservative force fails
    assert row.passed == all(v[model]["energy_held"] for model in sb.MODELS)


@pytest.mark.xfail(reason="neither discrete bending force is conservative (Jacobian 12-15 % "
                          "asymmetric): the undamped whip's energy wanders by 7e-3 (lumped) "
                          "and 1.8e-2 (higher_order) at N = 10, above 1e-4", strict=False)
def test_bending_models_conserve_energy_without_dissipation(energy_row):
    v = energy_row.values
    for model in sb.MODELS:
        assert max(v[model]["errors"].values()) < sb.ENERGY_TOL


def test_tip_load_cantilever_converges_to_the_elastica():
    # no couple: both models converge at second order to the inextensible elastica
    # (ratio 3–5 per halving of L_u) and the spline element is the more accurate one
    row = sb.check_tip_load(full=False)
    v = row.values
    assert v["converged"] and v["second_order"] and v["higher_better"]
    assert v["errors"]["lumped_mass 5 12"] < 2e-3
    assert v["errors"]["higher_order 5 12"] < 1e-3
    assert row.passed
