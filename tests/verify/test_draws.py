"""The verifier's own recomputation of the draw's random choice (verify/draws.py, written from
docs/draws.md) against the site's generator (torneo.draws): the same random stream, the same exact
draws up to 22 pairs whatever the history, exentas, groups and ids, the same liguillas; and a draw
exchanged for another one just as good (no rematch, the exenta where 5.6 allows) is caught, which
the property checks (5.6, 5.7) alone cannot do (AMM 5.5)."""

import copy
import random

import pytest

from torneo.draws import make_draw
from torneo.draws.halves import halves_draw
from torneo.draws.liguilla import allocate_liguillas, pots_by_strength
from torneo.draws.rng import DrawRandom
from verify.checks import check_draw
from verify.draws import EXACT_VERTICES, Stream, exact_draw, halves, liguillas


def test_the_random_stream_is_the_documented_one() -> None:
    for seed in ("", "a", "ñ/1", "5b207b773c44a8fa"):
        site, mine = DrawRandom(seed), Stream(seed)
        for n in (1, 2, 3, 6, 7, 1000, 2**64 - 1, 2**64 + 13, 3**90):
            assert site.below(n) == mine.below(n), (seed, n)


def problems(count: int) -> list[tuple[dict[str, object], str]]:
    """Random draws' inputs as the record writes them: histories with repeated meetings, exentas
    had, groups keyed by text (JSON), integer or text ids."""
    rng = random.Random(35)
    out = []
    for k in range(count):
        n = rng.randint(2, EXACT_VERTICES)
        ids: list[object] = list(rng.sample(range(1, 80), n)) if k % 3 else [f"p{i}" for i in range(n)]
        history = [rng.sample(ids, 2) for _ in range(rng.randint(0, 3 * n))]
        byes = [p for p in ids if rng.random() < 0.3]
        request: dict[str, object] = {"label": "", "pairs": ids, "history": history, "byes": byes}
        if k % 2:
            request["group"] = {str(p): rng.randint(0, 2) for p in ids if rng.random() < 0.8}
        out.append((request, f"semilla-{k}"))
    return out


@pytest.mark.parametrize(("request_", "seed"), problems(60))
def test_every_draw_up_to_22_pairs_is_recomputed_exactly_as_the_site_draws_it_amm_5_5(
    request_: dict[str, object], seed: str
) -> None:
    ids = request_["pairs"]
    group = request_.get("group")
    if group is not None:
        by_text = {str(p): p for p in ids}  # type: ignore[attr-defined]
        group = {by_text[key]: label for key, label in group.items()}  # type: ignore[attr-defined]
    site = make_draw(ids, history=request_["history"], byes=request_["byes"], group=group, seed=seed)  # type: ignore[arg-type]
    assert site.method == "exact"
    again = exact_draw(request_, seed)
    assert again is not None
    matches, bye = again
    assert {frozenset(m) for m in matches} == {frozenset(m) for m in site.matches} and bye == site.bye


def test_larger_draws_are_left_to_the_property_checks() -> None:
    assert exact_draw({"pairs": list(range(1, 24)), "history": [], "byes": []}, "s") is None
    assert exact_draw({"pairs": list(range(1, 23)), "history": [], "byes": []}, "s") is not None


def test_the_liguillas_are_dealt_as_the_site_deals_them_amm_5_5() -> None:
    for n, g in ((8, 2), (13, 3), (30, 6), (7, 3)):
        pairs = list(range(1, n + 1))
        site = allocate_liguillas(pairs, group_count=g, seed=f"s{n}")
        assert liguillas(pairs, g, f"s{n}") == [list(group) for group in site]


def test_liguillas_seeded_by_pots_are_dealt_as_the_site_deals_them_amm_5_5() -> None:
    for n, g in ((8, 2), (13, 3), (30, 6)):
        pairs = list(range(1, n + 1))
        pots = pots_by_strength({p: float((p * 7) % 5) for p in pairs}, g)
        site = allocate_liguillas(pairs, group_count=g, seed=f"b{n}", pots=pots)
        assert liguillas(pairs, g, f"b{n}", pots) == [list(group) for group in site]


def test_a_swiss_first_round_by_halves_is_dealt_as_the_site_deals_it_amm_5_5() -> None:
    for n in (6, 9, 20):
        pairs = list(range(1, n + 1))
        top = pairs[: n // 2]
        site = halves_draw(pairs, top=top, seed=f"h{n}")
        matches, bye = halves({"pairs": pairs, "top": top}, f"h{n}")
        assert {frozenset(m) for m in matches} == {frozenset(m) for m in site.matches} and bye == site.bye


def _draw(request: dict[str, object], seed: str) -> dict[str, object]:
    """A published draw as the record holds it (commitment and seed checks aside)."""
    from verify.checks import commitment, derive_seed

    secret = "secreto"
    public = seed
    result = make_draw(
        request["pairs"], history=request["history"], byes=request["byes"], seed=derive_seed(secret, public)
    )  # type: ignore[arg-type]
    return {
        "estado": "published",
        "compromiso": commitment(secret),
        "secreto": secret,
        "valor_publico": public,
        "semilla": derive_seed(secret, public),
        "entrada": [request],
        "salida": {"": result.as_json()},
    }


def test_another_draw_just_as_good_is_caught_only_by_the_recomputed_choice_amm_5_5() -> None:
    request: dict[str, object] = {"label": "", "pairs": list(range(1, 10)), "history": [[1, 2], [3, 4]], "byes": [5]}
    draw = _draw(request, "444")
    assert all(f.ok for f in check_draw(3, draw))
    assert any("exactamente el que da la semilla" in f.what for f in check_draw(3, draw))
    altered = copy.deepcopy(draw)
    result = altered["salida"][""]  # type: ignore[index]
    (a, b), (c, d) = result["matches"][:2]
    # Exchange two rivals: still no rematch unless it makes one (then try the other way).
    for new in (([a, c], [b, d]), ([a, d], [b, c])):
        if not any(set(m) in ({1, 2}, {3, 4}) for m in new):
            result["matches"][:2] = [list(new[0]), list(new[1])]
            break
    findings = check_draw(3, altered)
    failed = [f for f in findings if not f.ok]
    assert [f.article for f in failed] == ["5.5"]
    assert "NO es el que da la semilla" in failed[0].what
    assert {f.article for f in findings if f.article in ("5.6", "5.7")} and all(
        f.ok for f in findings if f.article in ("5.6", "5.7")
    )
