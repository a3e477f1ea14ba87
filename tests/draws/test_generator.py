"""The draw generator without a database: priorities, optimality, determinism, bad input."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.draws.reference import optimal_draws
from torneo.draws import DrawFatalError, DrawUserError, make_draw
from torneo.draws.bound import analyse
from torneo.draws.construct import construct_optimal
from torneo.draws.generator import check_pairing, solve
from torneo.draws.optimal import optimal_draw
from torneo.draws.problem import Pairing, build_problem, score
from torneo.draws.rng import DrawRandom
from torneo.draws.sampler import sample_optimal

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def draw_inputs(draw: st.DrawFn, min_n: int = 2, max_n: int = 10) -> dict:
    n = draw(st.integers(min_n, max_n))
    ids = [f"p{i}" for i in range(n)]
    pair = st.tuples(st.sampled_from(ids), st.sampled_from(ids)).filter(lambda t: t[0] != t[1])
    return {
        "pairs": ids,
        "history": draw(st.lists(pair, max_size=3 * n)),
        "byes": draw(st.lists(st.sampled_from(ids), max_size=n)),
        "group": draw(st.dictionaries(st.sampled_from(ids), st.integers(0, 2))),
        "seed": draw(st.text(max_size=6)),
    }


def problem_of(data: dict):
    return build_problem(
        data["pairs"], history=data["history"], byes=data["byes"], group=data["group"], seed=data["seed"]
    )


# --- optimality against the brute-force reference -------------------------------------------------


@SETTINGS
@given(draw_inputs())
def test_draw_is_optimal_against_brute_force(data):
    problem = problem_of(data)
    pairing, _method = solve(problem)
    best, _all = optimal_draws(problem)
    assert score(problem, pairing) == best


@SETTINGS
@given(draw_inputs(min_n=4))
def test_matching_fallback_is_optimal_against_brute_force(data):
    problem = problem_of(data)
    pairing = optimal_draw(problem, DrawRandom(data["seed"]))
    check_pairing(problem, pairing)
    assert score(problem, pairing) == optimal_draws(problem)[0]


@SETTINGS
@given(draw_inputs(min_n=4))
def test_sparse_matching_with_certificate_is_optimal(data):
    # Forced on small draws: sparse candidate graph, then the dual certificate on all pairs.
    problem = problem_of(data)
    pairing = optimal_draw(problem, DrawRandom(data["seed"]), full_limit=0)
    check_pairing(problem, pairing)
    assert score(problem, pairing) == optimal_draws(problem)[0]


def test_sparse_matching_agrees_with_the_full_graph_on_medium_draws():
    rng = random.Random(7)
    for n in (30, 45, 60):
        ids = list(range(n))
        history = [[rng.randrange(n), rng.randrange(n)] for _ in range(6 * n)]
        history = [h for h in history if h[0] != h[1]]
        group = {p: rng.randrange(5) for p in ids if rng.random() < 0.8}
        byes = [rng.randrange(n) for _ in range(n)]
        problem = build_problem(ids, history=history, byes=byes, group=group, seed=str(n))
        full = optimal_draw(problem, DrawRandom("a"))
        sparse = optimal_draw(problem, DrawRandom("b"), full_limit=0)
        assert score(problem, sparse) == score(problem, full)


@SETTINGS
@given(draw_inputs(min_n=3))
def test_sampler_and_construction_only_return_draws_that_meet_the_bound(data):
    problem = problem_of(data)
    structure = analyse(problem)
    best, _all = optimal_draws(problem)
    assert structure.bound <= best, "the lower bound must never exceed the optimum"
    sampled = None
    if structure.parity_structure:
        sampled = sample_optimal(problem, structure, DrawRandom(data["seed"]), budget=20_000)
    built = construct_optimal(problem, structure, DrawRandom(data["seed"]), moves=2_000)
    for found in (sampled, built):
        if found is not None:
            check_pairing(problem, found)
            assert score(problem, found) == best == structure.bound
    if best != structure.bound:
        assert sampled is None
        assert built is None


@settings(max_examples=40, deadline=None, derandomize=True)
@given(draw_inputs(min_n=23, max_n=40))
def test_medium_draws_match_the_exact_matching(data):
    # Above the exact method's size: sampler, construction or sparse matching, against the full
    # blossom algorithm on the complete graph.
    problem = problem_of(data)
    pairing, method = solve(problem)
    assert method in ("uniform", "bound", "matching")
    reference = optimal_draw(problem, DrawRandom("reference"), full_limit=10**6)
    assert score(problem, pairing) == score(problem, reference)


def test_top_score_group_of_two_that_already_met():
    # Swiss: two pairs level on points who already met must both float, and two pairs of another
    # group come out to meet them: two cross-group matches, proven by the bound's ``max def``.
    ids = list(range(40))
    group = {p: (0 if p < 2 else 1) for p in ids}
    draw = make_draw(ids, history=[(0, 1)], group=group, seed="suizo")
    assert (draw.rematches, draw.cross_group, draw.method) == (0, 2, "bound")


# --- AMM 5.6: exentas ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "grouped", "rounds"),
    [(9, False, 21), (13, False, 29), (41, False, 85), (41, True, 85), (157, True, 40)],
)
def test_no_second_exenta_while_others_have_none_amm_5_6(n, grouped, rounds):
    ids = [f"p{i}" for i in range(n)]
    byes: list[str] = []
    history: list[list[str]] = []
    rng = random.Random(n)
    for round_number in range(rounds):
        group = {p: rng.randrange(3) for p in ids} if grouped else None
        draw = make_draw(ids, history=history, byes=byes, group=group, seed=f"ronda {round_number}")
        assert draw.bye is not None
        counts = {p: byes.count(p) for p in ids}
        assert counts[draw.bye] == min(counts.values())  # AMM 5.6
        byes.append(draw.bye)
        history.extend([list(m) for m in draw.matches])
        after = [byes.count(p) for p in ids]
        assert max(after) - min(after) <= 1
        if round_number > 3 * n // 2:
            history = history[-n * 3 :]  # keep the draw from running out of fresh opponents


def test_exenta_goes_to_the_only_pair_without_one_amm_5_6():
    ids = [f"p{i}" for i in range(31)]
    byes = [p for p in ids if p != "p17"]
    for seed in ("a", "b", "c"):
        assert make_draw(ids, byes=byes, seed=seed).bye == "p17"


def test_exenta_counts_several_exentas_per_pair_amm_5_6():
    ids = ["a", "b", "c"]
    draw = make_draw(ids, byes=["a", "a", "b", "c", "c"], seed="x")
    assert draw.bye == "b"


# --- AMM 5.7: rematches --------------------------------------------------------------------------


def _only_one_rematch_free_draw(n: int, seed: int):
    ids = list(range(n))
    order = ids[:]
    random.Random(seed).shuffle(order)
    odd = n % 2
    unique = {frozenset(order[i : i + 2]) for i in range(0, n - odd, 2)}
    history = [[a, b] for a in ids for b in ids if a < b and frozenset((a, b)) not in unique]
    byes = [p for p in ids if p != order[-1]] if odd else []
    return ids, history, byes, unique, (order[-1] if odd else None)


@pytest.mark.parametrize("n", [8, 11, 20, 41, 150])
def test_no_rematch_when_a_rematch_free_draw_exists_only_in_a_narrow_way_amm_5_7(n):
    ids, history, byes, unique, bye = _only_one_rematch_free_draw(n, seed=n)
    draw = make_draw(ids, history=history, byes=byes, seed="estrecho")
    assert draw.rematches == 0
    assert {frozenset(m) for m in draw.matches} == unique
    assert draw.bye == bye


def test_rematch_free_draw_found_when_many_pairs_met_many_times_amm_5_7():
    # 60 pairs, 25 previous rounds: far too many for a random draw to avoid rematches by luck.
    ids = list(range(60))
    history: list[list[int]] = []
    for round_number in range(25):
        draw = make_draw(ids, history=history, seed=f"r{round_number}")
        assert draw.rematches == 0
        history.extend([list(m) for m in draw.matches])


def test_fewest_rematches_when_every_option_is_a_rematch_amm_5_7():
    ids = list(range(12))
    history = [[a, b] for a in ids for b in ids if a < b]
    draw = make_draw(ids, history=history, seed="todos")
    assert draw.rematches == 6  # unavoidable, and reported


def test_fewest_rematches_when_some_are_unavoidable_amm_5_7():
    # 21 pairs all met each other; 9 fresh pairs can take 9 of them, 12 must replay: 6 rematches.
    clique = list(range(21))
    fresh = list(range(21, 30))
    history = [[a, b] for a in clique for b in clique if a < b]
    draw = make_draw(clique + fresh, history=history, seed="inevitable")
    assert draw.rematches == 6
    assert all(any(p in fresh for p in m) for m in draw.matches if not set(m) <= set(clique))
    small = make_draw([0, 1, 2, 3, 4, 5], history=[[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3], [4, 5]], seed="s")
    assert small.rematches == 1


def test_rematch_avoidance_comes_before_the_group_preference():
    # a and b share a group but already met: they are split even if it costs two cross-group matches.
    draw = make_draw(["a", "b", "c", "d"], history=[["a", "b"]], group={"a": 0, "b": 0, "c": 1, "d": 1}, seed="x")
    assert draw.rematches == 0
    assert draw.cross_group == 2


def test_exenta_rule_comes_before_rematch_avoidance_amm_5_6():
    # Only "c" has had no exenta; it gets it even though that forces a rematch between a and b.
    draw = make_draw(["a", "b", "c"], history=[["a", "b"]], byes=["a", "b"], seed="x")
    assert draw.bye == "c"
    assert draw.rematches == 1


# --- the group preference ------------------------------------------------------------------------


def test_as_many_same_group_matches_as_possible():
    ids = [f"p{i}" for i in range(40)]
    group = {p: i % 5 for i, p in enumerate(ids)}  # five groups of eight
    draw = make_draw(ids, group=group, seed="grupos")
    assert draw.cross_group == 0
    assert draw.same_group == 20
    group["p0"] = 4  # now two odd groups: exactly one cross-group match
    draw = make_draw(ids, group=group, seed="grupos")
    assert draw.cross_group == 1


def test_pairs_without_group_never_count_as_same_group():
    draw = make_draw(["a", "b", "c", "d"], group={"a": 1, "b": 1}, seed="x")
    assert draw.same_group == 1
    assert draw.cross_group == 1


# --- determinism and canonical form --------------------------------------------------------------


def test_same_input_and_seed_give_the_same_draw():
    ids = [f"p{i}" for i in range(101)]
    first = make_draw(ids, seed="semilla")
    assert make_draw(ids, seed="semilla") == first
    assert make_draw(ids, seed="otra") != first


@pytest.mark.parametrize("n", [9, 30, 301])
def test_listing_order_does_not_matter(n):
    rng = random.Random(n)
    ids = [f"p{i}" for i in range(n)]
    history = [[rng.choice(ids), rng.choice(ids)] for _ in range(2 * n)]
    history = [h for h in history if h[0] != h[1]]
    byes = [rng.choice(ids) for _ in range(n // 2)]
    group = {p: rng.randrange(4) for p in ids}
    base = make_draw(ids, history=history, byes=byes, group=group, seed="orden")
    for _ in range(3):
        rng.shuffle(ids)
        rng.shuffle(history)
        rng.shuffle(byes)
        flipped = [[b, a] if rng.random() < 0.5 else [a, b] for a, b in history]
        shuffled_group = dict(sorted(group.items(), key=lambda _: rng.random()))
        again = make_draw(tuple(ids), history=flipped, byes=byes, group=shuffled_group, seed="orden")
        assert again == base


def test_integer_ids_and_repeated_history_entries():
    draw = make_draw([3, 1, 2, 10], history=[(1, 2), (2, 1), (1, 2)], seed="x")
    assert draw.rematches == 0
    assert all(isinstance(p, int) for m in draw.matches for p in m)
    assert draw.matches == tuple(sorted(draw.matches))


def test_history_of_pairs_not_in_the_draw_is_ignored():
    draw = make_draw(["a", "b"], history=[["a", "zz"], ["yy", "zz"]], seed="x")
    assert draw.matches == (("a", "b"),)


def test_methods_by_size():
    assert make_draw(list(range(10)), seed="x").method == "exact"
    big = make_draw(list(range(100)), seed="x")
    assert big.method == "uniform"
    assert big.uniform


# --- errors: the user's and ours -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"pairs": ["a", "b", "a"]}, "«a» aparece dos veces"),
        ({"pairs": ["a"]}, "al menos dos parejas"),
        ({"pairs": []}, "al menos dos parejas"),
        ({"pairs": "ab"}, "lista de identificadores"),
        ({"pairs": ["a", 1.5]}, "1.5"),
        ({"pairs": ["a", True]}, "True"),
        ({"pairs": ["a", " "]}, "vacío"),
        ({"pairs": ["a", "b"], "byes": ["c"]}, "«c»"),
        ({"pairs": ["a", "b"], "group": {"c": 1}}, "«c»"),
        ({"pairs": ["a", "b"], "group": {"a": 1.5}}, "grupo de «a»"),
        ({"pairs": ["a", "b"], "group": ["a"]}, "«group»"),
        ({"pairs": ["a", "b"], "history": [["a", "a"]]}, "consigo misma"),
        ({"pairs": ["a", "b"], "history": [["a", "b", "c"]]}, "dos parejas"),
        ({"pairs": ["a", "b"], "history": ["ab"]}, "dos parejas"),
        ({"pairs": ["a", "b"], "seed": 5}, "semilla"),
    ],
)
def test_bad_input_is_a_user_error_naming_the_value(kwargs, fragment):
    kwargs = {"seed": "x", **kwargs}
    pairs = kwargs.pop("pairs")
    with pytest.raises(DrawUserError) as error:
        make_draw(pairs, **kwargs)
    assert fragment in str(error.value)
    assert not isinstance(error.value, DrawFatalError)


def test_broken_results_are_fatal_errors_not_user_errors():
    problem = build_problem(["a", "b", "c"], byes=["a"], seed="x")
    with pytest.raises(DrawFatalError):
        check_pairing(problem, Pairing.of([(0, 1)], None))  # c missing
    with pytest.raises(DrawFatalError):
        check_pairing(problem, Pairing.of([(1, 2)], 0))  # AMM 5.6: a already had an exenta
    with pytest.raises(DrawFatalError):
        check_pairing(problem, Pairing.of([(0, 1), (1, 2)], None))
    assert not issubclass(DrawFatalError, DrawUserError)
