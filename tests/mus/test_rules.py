"""Rule sets: the presets and what each option is, with its source."""

from __future__ import annotations

import dataclasses

import pytest

from scoring.mus import (
    AMM,
    AMM_ARTICLES,
    EHMT,
    FOURNIER,
    RULE_SETS,
    Hand,
    InvalidRuleSetError,
    Real31,
    RuleSet,
    UnknownRuleSetError,
    get_rules,
)


def test_amm_is_the_default_rule_set() -> None:
    assert get_rules() is AMM
    assert get_rules("amm") is AMM


def test_amm_options_follow_the_reglamento_amm_1_2_1_7_3_6_3_12() -> None:
    assert AMM.reyes == 8  # 1.2 ocho reyes y ocho ases
    assert AMM.target == 40  # 1.7.a juegos a 40 tantos
    assert AMM.real_31 is Real31.OFF  # 1.7.b no vale la 31 real
    assert (AMM.deje_pares, AMM.deje_juego, AMM.deje_punto) == (True, True, True)  # 1.7.c
    assert AMM.envite_cap is None  # 3.6 envites de cualquier número
    assert AMM.ordago_jugada_minima_annulled  # 3.12.a
    assert AMM.with_doses


def test_ehmt_plays_pares_and_juego_sin_deje_and_punto_con_deje_seed_002_art_16() -> None:
    """Seed 002 (EHMT) art. 16, the count. Pares: «i. Pasoan joan bada, parerik onenak dituen
    bikotearen pareak kontatuko dira… ii. Apusturik izan bada, aurrekoaz gain apustuan jarritako
    tantoak ere jasoko dira» (with any envite, the bet's tantos on top of i, the pares of the pair
    with the best pares). Juego: «Pareetan bezala… Bikote irabazleak bakarrik kontatuko ditu
    tantoak» (as in pares; only the winning pair counts). Punto: «ii. Apustua egin eta utzi bada,
    egin duenak jasoko du tantoa» (declined: the bettor takes the tanto)."""
    assert "aurrekoaz gain" in EHMT.source and "egin duenak jasoko du tantoa" in EHMT.source
    assert (EHMT.deje_pares, EHMT.deje_juego, EHMT.deje_punto) == (False, False, True)
    assert EHMT.target == 40  # art. 1: 8 hamarreko
    assert EHMT.reyes == 8


def test_fournier_plays_con_deje_without_the_real_seed_000_003() -> None:
    assert (FOURNIER.deje_pares, FOURNIER.deje_juego, FOURNIER.deje_punto) == (True, True, True)
    assert FOURNIER.real_31 is Real31.OFF
    assert not FOURNIER.ordago_jugada_minima_annulled


@pytest.mark.parametrize(
    ("name", "reyes", "target", "real", "deje_pares", "cap", "doses"),
    [
        ("aragon", 8, 40, Real31.OFF, True, None, True),
        ("asturias", 8, 40, Real31.SOTA, True, 40, True),
        ("cantabria", 8, 40, Real31.SOTA, True, None, True),
        ("castilla_la_mancha", 8, 40, Real31.OFF, True, None, True),
        ("cataluna", 8, 40, Real31.FIGURE_OR_THREE, False, None, True),
        ("madrid", 8, 40, Real31.OFF, True, None, True),
        ("galicia", 8, 40, Real31.OFF, True, None, True),
        ("la_rioja", 4, 25, Real31.OFF, True, None, False),
        ("navarra", 4, 40, Real31.OFF, True, None, True),
        ("alava_bizkaia", 8, 40, Real31.OFF, True, None, True),
        ("gipuzkoa", 4, 30, Real31.OFF, True, None, True),
        ("gipuzkoa_8_reyes", 8, 40, Real31.OFF, True, None, True),
    ],
)
def test_regional_presets_follow_seed_000(
    name: str, reyes: int, target: int, real: Real31, deje_pares: bool, cap: int | None, doses: bool
) -> None:
    rules = get_rules(name)
    assert (
        rules.reyes,
        rules.target,
        rules.real_31,
        rules.deje_pares,
        rules.envite_cap,
        rules.with_doses,
    ) == (
        reyes,
        target,
        real,
        deje_pares,
        cap,
        doses,
    )


def test_every_preset_cites_its_source_and_is_listed_under_its_name() -> None:
    assert {"amm", "fournier", "ehmt"} <= set(RULE_SETS)
    for name, rules in RULE_SETS.items():
        assert rules.name == name
        assert "seed 00" in rules.source
        assert rules.title


def test_an_unknown_rule_set_is_an_error_naming_the_known_ones() -> None:
    with pytest.raises(UnknownRuleSetError, match=r"reglamento desconocido 'amn'.*amm, fournier, ehmt"):
        get_rules("amn")


def test_ehmt_names_its_own_articles_and_the_amm_the_rest_seed_002() -> None:
    """Seed 002 (EHMT) arts. 12–14 are its own rules for false declarations (12 «Pareak izanda… ez
    dituela esan», 13 «Jokorik izan gabe… baduela esan», 14 «Jokoa izanda… ez duela esan»), art. 16
    its count and art. 1 its juegos; a false «pares sí» has none, and keeps AMM 4.1a."""
    assert [EHMT.article(key) for key in AMM_ARTICLES] == [
        "AMM 4.1a",
        "EHMT art. 12",
        "EHMT art. 13",
        "EHMT art. 14",
        "EHMT arts. 12–14",
        "EHMT art. 16",
        "EHMT art. 1",
        "EHMT art. 3",
    ]
    assert all(AMM.article(key) == article for key, article in AMM_ARTICLES.items())
    assert FOURNIER.article("recuento") == "AMM 3.13"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"reyes": 6}, "8 o 4"),
        ({"target": 0}, "al menos 1 tanto"),
        ({"envite_cap": 1}, "tope de envite"),
        ({"articles": (("recuento_final", "X 1"),)}, "clave desconocida 'recuento_final'"),
    ],
)
def test_invalid_options_are_rejected(changes: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidRuleSetError, match=message):
        dataclasses.replace(AMM, **changes)


def test_rule_sets_are_immutable_and_variants_are_built_with_replace() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        AMM.target = 30  # type: ignore[misc]
    short = dataclasses.replace(AMM, name="amm_30", target=30)
    assert isinstance(short, RuleSet) and short.target == 30 and AMM.target == 40


@pytest.mark.parametrize(
    ("variant", "real", "not_real"),
    [
        (
            Real31.ANY_FIGURE,
            ["7o 7c 7e 10b", "7o 7c 7e 11b", "7o 7c 7e 12b"],
            ["7o 7c 7e 3b", "7o 7c 6e 11b"],
        ),
        (Real31.FIGURE_OR_THREE, ["7o 7c 7e 3b", "7o 7c 7e 12b"], ["7o 7c 7e 6b"]),
        (Real31.SOTA, ["7o 7c 7e 10b", "7c 7e 7b 10o"], ["7o 7c 7e 11b", "7o 7c 7e 12b"]),
        (Real31.CABALLO, ["7o 7c 7e 11b"], ["7o 7c 7e 10b"]),
        (Real31.DISTINCT_SUITS, ["7o 7c 7e 10b", "7c 7e 7b 12o"], ["7o 7c 7e 10o", "7c 7e 7b 11b"]),
        (Real31.SOTA_DE_OROS, ["7c 7e 7b 10o", "7o 7c 7e 10o"], ["7o 7c 7e 10b"]),
        (Real31.SOTA_DE_OROS_DISTINCT_SUITS, ["7c 7e 7b 10o"], ["7o 7c 7e 10o", "7o 7c 7e 10b"]),
        (Real31.OFF, [], ["7c 7e 7b 10o"]),
    ],
)
def test_31_real_variants_seed_000(variant: Real31, real: list[str], not_real: list[str]) -> None:
    for text in real:
        assert variant.admits(Hand.parse(text).cards), text
    for text in not_real:
        assert not variant.admits(Hand.parse(text).cards), text
    assert variant.needs_suits == (
        variant in (Real31.DISTINCT_SUITS, Real31.SOTA_DE_OROS, Real31.SOTA_DE_OROS_DISTINCT_SUITS)
    )
