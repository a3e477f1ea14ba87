"""A Swiss's first round seeded by rating (torneo.draws.halves): each pair of the stronger half
against one of the others, drawn with the public seed (AMM 5.5); with an odd number the pair left
over of the other half has the exenta (AMM 5.6: nobody has had one); the command takes ``top``."""

import json
from collections import Counter

import pytest

from torneo.draws.__main__ import run
from torneo.draws.errors import DrawUserError
from torneo.draws.halves import halves_draw


def test_the_stronger_half_meets_the_other_half_every_pairing_equally_likely_amm_5_5() -> None:
    top = [1, 2, 3]
    seen: Counter[tuple[tuple[int, int], ...]] = Counter()
    for k in range(600):
        draw = halves_draw([1, 2, 3, 4, 5, 6], top=top, seed=f"s{k}")
        assert all((a in top) != (b in top) for a, b in draw.matches) and draw.bye is None
        assert draw.method == "halves" and draw.uniform and draw.rematches == 0
        seen[draw.matches] += 1
    assert len(seen) == 6  # 3! ways to pair the halves, all drawn
    assert max(seen.values()) < 2 * min(seen.values())  # about 100 each


def test_an_odd_number_gives_the_exenta_to_a_pair_of_the_other_half_amm_5_6() -> None:
    byes = Counter(halves_draw(list(range(1, 8)), top=[1, 2, 3], seed=f"o{k}").bye for k in range(200))
    assert set(byes) == {4, 5, 6, 7}


def test_the_same_seed_gives_the_same_draw_whatever_the_order_given() -> None:
    one = halves_draw([1, 2, 3, 4, 5, 6, 7, 8], top=[8, 1, 3, 5], seed="x")
    two = halves_draw([8, 7, 6, 5, 4, 3, 2, 1], top=[1, 3, 5, 8], seed="x")
    assert one == two


def test_a_wrong_half_is_refused_in_spanish() -> None:
    with pytest.raises(DrawUserError, match="no está en el sorteo"):
        halves_draw([1, 2, 3, 4], top=[1, 9], seed="x")
    with pytest.raises(DrawUserError, match="son 2"):
        halves_draw([1, 2, 3, 4], top=[1], seed="x")


def test_the_command_draws_by_halves_with_top() -> None:
    out, status = run(json.dumps({"seed": "x", "pairs": [1, 2, 3, 4, 5], "top": [1, 2]}))
    assert status == 0 and out["method"] == "halves"
    draw = halves_draw([1, 2, 3, 4, 5], top=[1, 2], seed="x")
    assert out["matches"] == [list(m) for m in draw.matches] and out["bye"] == draw.bye
    out, status = run(json.dumps({"seed": "x", "pairs": [1, 2, 3, 4], "top": "1"}))
    assert status == 1 and "mitad fuerte" in out["error"]
