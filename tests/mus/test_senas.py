"""Señas (AMM v6.4 chapter VII): the 7.6 table on real hands, the refusals and their articles."""

from __future__ import annotations

import pytest

from scoring.mus import MULTISETS, Hand, Lance, RecordFormatError, RuleSet, get_rules, parse_hand
from scoring.mus.cards import Card, Suit
from scoring.mus.senas import SENAS, SenaVerdict, allowed_senas, check_sena, read_sena, run_sena

AMM = get_rules("amm")
NAVARRA = get_rules("navarra")  # cuatro reyes: a tres is a tres


def verdict(
    hand: str,
    sena: str,
    rules: RuleSet = AMM,
    *,
    moment: str | None = None,
    first_hand_before_cut: bool = False,
    during_deal: bool = False,
) -> SenaVerdict:
    return check_sena(
        parse_hand(hand),
        sena,
        rules,
        moment=moment,
        first_hand_before_cut=first_hand_before_cut,
        during_deal=during_deal,
    )


# Every cell of the 7.6 table that a hand can reach (duples never add up to an odd total, so
# duples with 31 or 29 cannot happen; medias de reyes always make juego; medias de ases and
# dos ases never reach 29; other medias never make 29 or 30).
TABLE = [
    # hand, pares in words, total, allowed señas
    ("12o 12c 11e 11b", "duples de reyes y caballos", 40, ["duples", "juego"]),
    ("12o 12c 12e 12b", "duples de cuatro reyes", 40, ["duples", "juego"]),
    ("10o 10c 5e 5b", "duples de sotas y cincos", 30, ["duples", "treinta"]),
    ("12o 12c 1e 1b", "duples de reyes y ases", 22, ["duples"]),
    ("4o 4c 4e 4b", "duples de cuatro cuatros", 16, ["duples"]),
    ("12o 12c 12e 1b", "medias de reyes", 31, ["medias de reyes", "medias", "treinta y una"]),
    ("12o 12c 3e 4b", "medias de reyes", 34, ["medias de reyes", "medias", "juego"]),
    ("1o 1c 2e 5b", "medias de ases", 8, ["medias de ases"]),
    ("7o 7c 7e 10b", "medias de sietes", 31, ["medias", "treinta y una"]),
    ("11o 11c 11e 4b", "medias de caballos", 34, ["medias", "juego"]),
    ("4o 4c 4e 5b", "medias de cuatros", 17, ["medias"]),
    ("12o 12c 10e 1b", "pareja de reyes", 31, ["dos reyes", "treinta y una"]),
    ("3o 12c 5e 6b", "pareja de reyes", 31, ["dos reyes", "treinta y una"]),
    ("12o 12c 11e 5b", "pareja de reyes", 35, ["dos reyes", "juego"]),
    ("12o 12c 4e 6b", "pareja de reyes", 30, ["dos reyes", "treinta"]),
    ("12o 12c 4e 5b", "pareja de reyes", 29, ["dos reyes", "veintinueve"]),
    ("12o 12c 1e 4b", "pareja de reyes", 25, ["dos reyes"]),
    ("1o 1c 11e 12b", "pareja de ases", 22, ["dos ases"]),
    ("2o 1c 4e 5b", "pareja de ases", 11, ["dos ases"]),
    ("10o 10c 4e 7b", "pareja de sotas", 31, ["treinta y una"]),
    ("7o 7c 10e 11b", "pareja de sietes", 34, ["juego"]),
    ("10o 10c 4e 6b", "pareja de sotas", 30, ["treinta"]),
    ("10o 10c 4e 5b", "pareja de sotas", 29, ["veintinueve"]),
    ("7o 7c 4e 5b", "pareja de sietes", 23, ["ciego"]),
    ("12o 11c 10e 1b", None, 31, ["treinta y una"]),
    ("12o 11c 10e 4b", None, 34, ["juego"]),
    ("12o 11c 6e 4b", None, 30, ["treinta"]),
    ("12o 11c 5e 4b", None, 29, ["veintinueve"]),
    ("7o 5c 4e 1b", None, 17, ["ciego"]),
]


@pytest.mark.parametrize(("hand", "pares", "total", "expected"), TABLE)
def test_table_cell_allows_exactly_its_senas_amm_7_6(
    hand: str, pares: str | None, total: int, expected: list[str]
) -> None:
    assert allowed_senas(parse_hand(hand)) == tuple(expected)
    output = run_sena({"hand": hand, "sena": expected[0]})
    assert output["hand"] == {"pares": pares, "total": total}
    for sena in SENAS:
        result = verdict(hand, sena)
        assert result.allowed is (sena in expected), sena
        assert result.allowed_senas == tuple(expected)
        if result.allowed:
            assert result.article == "7.6"


@pytest.mark.parametrize(
    ("hand", "sena"),
    [
        ("12o 12c 1e 1b", "dos reyes"),  # 7.6's own example: duples de reyes y ases
        ("12o 12c 1e 1b", "dos ases"),
        ("12o 12c 7e 7b", "dos reyes"),
        ("12o 12c 12e 1b", "dos reyes"),  # medias de reyes
        ("1o 1c 1e 5b", "dos ases"),  # medias de ases
        ("12o 12c 12e 12b", "dos reyes"),  # four reyes: only duples
        ("12o 12c 12e 12b", "medias de reyes"),
        ("12o 12c 12e 12b", "medias"),
        ("7o 7c 7e 7b", "medias"),
        ("1o 1c 2e 2b", "medias de ases"),  # four ases under 8 reyes
    ],
)
def test_partial_sena_is_refused_amm_7_6(hand: str, sena: str) -> None:
    result = verdict(hand, sena)
    assert (result.allowed, result.article) == (False, "7.6")
    assert "parcial" in result.explanation


def test_partial_sena_dos_reyes_with_duples_is_refused_amm_7_6() -> None:
    result = verdict("12o 12c 1e 1b", "dos reyes")
    assert result == SenaVerdict(
        sena="dos reyes",
        allowed=False,
        article="7.6",
        allowed_senas=("duples",),
        explanation=(
            "AMM 7.6: la mano (duples de reyes y ases; 22 de punto) no puede pasar la seña «dos reyes» "
            "porque sería una seña parcial de duples de reyes y ases: la tabla solo le admite «duples»."
        ),
        lance=Lance.PARES,
    )


def test_juego_with_31_is_refused_amm_7_1() -> None:
    result = verdict("12o 11c 10e 1b", "juego")
    assert (result.allowed, result.article, result.allowed_senas) == (False, "7.1", ("treinta y una",))
    assert "no vale para la treinta y una" in result.explanation


@pytest.mark.parametrize(
    ("hand", "sena"),
    [
        ("12o 11c 6e 6b", "treinta y una"),  # 32
        ("12o 11c 5e 4b", "treinta"),  # 29
        ("7o 5c 4e 1b", "veintinueve"),  # 17
        ("12o 11c 10e 4b", "dos reyes"),  # sin pares
        ("1o 1c 1e 5b", "medias"),  # medias de ases have their own seña
        ("7o 7c 7e 10b", "medias de reyes"),  # medias de sietes
        ("12o 12c 11e 11b", "medias"),  # duples without medias: wrong, not partial
    ],
)
def test_sena_that_does_not_match_the_jugada_is_refused_amm_7_1(hand: str, sena: str) -> None:
    result = verdict(hand, sena)
    assert (result.allowed, result.article) == (False, "7.1")


def test_ciego_allowed_with_no_other_sena_amm_7_6() -> None:
    result = verdict("7o 7c 4e 5b", "ciego")
    assert (result.allowed, result.article, result.allowed_senas) == (True, "7.6", ("ciego",))


@pytest.mark.parametrize("hand", ["1o 1c 4e 5b", "12o 11c 10e 1b", "12o 12c 1e 1b", "10o 10c 4e 5b"])
def test_ciego_refused_with_a_sena_amm_7_1(hand: str) -> None:
    result = verdict(hand, "ciego")
    assert (result.allowed, result.article) == (False, "7.1")
    assert "incompatible" in result.explanation


def test_treses_are_reyes_and_doses_ases_under_amm_amm_7_6() -> None:
    assert verdict("3o 12c 5e 6b", "dos reyes").allowed
    assert verdict("12o 12c 3e 4b", "medias de reyes").allowed
    assert verdict("2o 1c 4e 5b", "dos ases").allowed


def test_treses_are_not_reyes_with_cuatro_reyes_amm_7_1() -> None:
    result = verdict("3o 12c 5e 6b", "dos reyes", NAVARRA)  # 3 + 10 + 5 + 6, sin pares
    assert (result.allowed, result.article, result.allowed_senas) == (False, "7.1", ("ciego",))
    assert verdict("3o 3c 5e 6b", "dos reyes", NAVARRA).article == "7.1"  # pareja de treses
    assert allowed_senas(parse_hand("3o 3c 5e 6b"), NAVARRA) == ("ciego",)


def test_medias_de_reyes_after_grande_is_refused_amm_7_1() -> None:
    result = verdict("12o 12c 3e 4b", "medias de reyes", moment="tras_grande")
    assert (result.allowed, result.article) == (False, "7.1")
    assert result.allowed_senas == ("medias", "juego")
    assert result.lance is Lance.GRANDE


@pytest.mark.parametrize("moment", [None, "antes_de_grande", "tras_grande"])
def test_medias_with_medias_de_reyes_at_any_moment_amm_7_6(moment: str | None) -> None:
    result = verdict("12o 12c 12e 1b", "medias", moment=moment)
    assert (result.allowed, result.article) == (True, "7.6")


@pytest.mark.parametrize("moment", [None, "antes_de_grande"])
def test_medias_de_reyes_before_grande_or_unknown_moment_amm_7_6(moment: str | None) -> None:
    result = verdict("12o 12c 12e 1b", "medias de reyes", moment=moment)
    assert (result.allowed, result.article) == (True, "7.6")
    assert result.allowed_senas == ("medias de reyes", "medias", "treinta y una")


@pytest.mark.parametrize("moment", [None, "antes_de_grande", "tras_grande"])
def test_medias_with_other_medias_at_any_moment_amm_7_6(moment: str | None) -> None:
    assert verdict("4o 4c 4e 5b", "medias", moment=moment).allowed


@pytest.mark.parametrize("sena", ["duples", "dos reyes", "ciego", "juego"])
def test_no_senas_in_first_hand_before_the_cut_amm_7_2(sena: str) -> None:
    result = verdict("12o 12c 11e 11b", sena, first_hand_before_cut=True)
    assert (result.allowed, result.article) == (False, "7.2")
    assert result.allowed_senas == ("duples", "juego")
    assert result.explanation.startswith("AMM 7.2:")


@pytest.mark.parametrize("sena", ["duples", "ciego"])
def test_no_senas_during_the_deal_amm_7_3(sena: str) -> None:
    result = verdict("12o 12c 1e 1b", sena, during_deal=True)
    assert (result.allowed, result.article) == (False, "7.3")
    assert "2.2.d" in result.explanation


def test_lance_each_sena_speaks_of() -> None:
    lances = {sena: verdict("12o 12c 1e 1b", sena).lance for sena in SENAS}
    assert lances == {
        "dos reyes": Lance.PARES,
        "dos ases": Lance.PARES,
        "medias de reyes": Lance.GRANDE,
        "medias": Lance.PARES,
        "medias de ases": Lance.PARES,
        "duples": Lance.PARES,
        "juego": Lance.JUEGO,
        "treinta y una": Lance.JUEGO,
        "treinta": Lance.PUNTO,
        "veintinueve": Lance.PUNTO,
        "ciego": Lance.PARES,
    }


def test_explanation_names_article_jugada_and_total_amm_7_6() -> None:
    result = verdict("12o 12c 10e 1b", "dos reyes")
    assert result.explanation == (
        "AMM 7.6: la mano (pareja de reyes; 31 de juego) puede pasar la seña «dos reyes» porque la tabla "
        "le admite «dos reyes» y «treinta y una»."
    )


def test_read_sena_accepts_any_case_and_spacing() -> None:
    assert read_sena("  Treinta   Y una ") == "treinta y una"
    assert check_sena(parse_hand("12o 11c 10e 1b"), "TREINTA Y UNA").sena == "treinta y una"


@pytest.mark.parametrize("value", ["tres reyes", "", 3, None, ["juego"]])
def test_unknown_sena_name_is_an_error(value: object) -> None:
    with pytest.raises(RecordFormatError) as caught:
        read_sena(value)
    assert caught.value.field == "sena"
    assert "seña desconocida" in caught.value.detail
    assert "dos reyes, dos ases" in caught.value.detail


def test_check_sena_rejects_unknown_sena_and_moment() -> None:
    hand = parse_hand("12o 12c 1e 1b")
    with pytest.raises(RecordFormatError, match="seña desconocida «reyes»"):
        check_sena(hand, "reyes")
    with pytest.raises(RecordFormatError) as caught:
        check_sena(hand, "duples", moment="durante_grande")
    assert caught.value.field == "moment"


def test_run_sena_output() -> None:
    output = run_sena({"hand": "12o 12c 1e 1b", "sena": "dos reyes", "rules": "amm"})
    assert list(output) == ["allowed", "article", "allowed_senas", "explanation", "hand"]
    assert output["allowed"] is False
    assert output["article"] == "7.6"
    assert output["allowed_senas"] == ["duples"]
    assert output["hand"] == {"pares": "duples de reyes y ases", "total": 22}
    assert output["explanation"] == verdict("12o 12c 1e 1b", "dos reyes").explanation


def test_run_sena_options() -> None:
    line = {"hand": "12o 12c 12e 1b", "sena": "medias de reyes", "moment": "tras_grande"}
    assert run_sena(line)["article"] == "7.1"
    assert run_sena({**line, "moment": None})["allowed"] is True
    assert run_sena({**line, "first_hand_before_cut": True})["article"] == "7.2"
    assert run_sena({**line, "during_deal": True})["article"] == "7.3"
    assert run_sena({"hand": "7o 5c 4e 1b", "sena": "ciego"})["hand"] == {"pares": None, "total": 17}


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ("12o 12c 1e 1b", ""),
        ({"sena": "duples"}, "hand"),
        ({"hand": "12o 12c 1e 1b"}, "sena"),
        ({"hand": "12o 12c 1e", "sena": "duples"}, "hand"),
        ({"hand": "12o 12o 1e 1b", "sena": "duples"}, "hand"),
        ({"hand": "8o 12c 1e 1b", "sena": "duples"}, "hand"),
        ({"hand": "12o 12c 1e 1b 5b", "sena": "duples"}, "hand"),
        ({"hand": ["12o", "12c", "1e", "1b"], "sena": "duples"}, "hand"),
        ({"hand": "12o 12c 2e 2b", "sena": "duples", "rules": "la_rioja"}, "hand"),  # 36 cards, no doses
        ({"hand": "12o 12c 1e 1b", "sena": "guiño"}, "sena"),
        ({"hand": "12o 12c 1e 1b", "sena": "duples", "rules": "amm_v7"}, "rules"),
        ({"hand": "12o 12c 1e 1b", "sena": "duples", "moment": "antes"}, "moment"),
        ({"hand": "12o 12c 1e 1b", "sena": "duples", "during_deal": "sí"}, "during_deal"),
        ({"hand": "12o 12c 1e 1b", "sena": "duples", "first_hand_before_cut": 1}, "first_hand_before_cut"),
        ({"hand": "12o 12c 1e 1b", "sena": "duples", "seat": 0}, "seat"),
    ],
)
def test_run_sena_bad_input_names_the_field(line: object, field: str) -> None:
    with pytest.raises(RecordFormatError) as caught:
        run_sena(line)
    assert caught.value.field == field
    assert caught.value.detail


def hand_of(numbers: tuple[int, ...]) -> Hand:
    """A hand with these numbers, each repeated number in another suit."""
    cards: list[Card] = []
    for number in numbers:
        cards.append(Card(number, Suit(sum(card.number == number for card in cards))))
    return Hand(tuple(cards))


@pytest.mark.parametrize("rules", [AMM, NAVARRA], ids=["8_reyes", "4_reyes"])
def test_every_hand_allowed_senas_agree_with_check_sena_amm_7_6(rules: RuleSet) -> None:
    for numbers in MULTISETS:
        hand = hand_of(numbers)
        allowed = allowed_senas(hand, rules)
        assert allowed, hand
        assert list(allowed) == sorted(allowed, key=SENAS.index)
        assert ("ciego" in allowed) is (allowed == ("ciego",)), hand
        if "treinta y una" in allowed:
            assert "juego" not in allowed, hand
        for sena in SENAS:
            result = check_sena(hand, sena, rules)
            assert result.allowed is (sena in allowed), (hand, sena)
            assert result.article == "7.6" if result.allowed else result.article in ("7.1", "7.6")
            assert result.allowed_senas == allowed


def test_table_above_covers_every_reachable_cell_amm_7_6() -> None:
    reached = {allowed_senas(hand_of(numbers)) for numbers in MULTISETS}
    assert reached == {tuple(expected) for *_, expected in TABLE}
