"""The catalogue of the reglamento's articles (referees.rules.catalogue): pure, no database."""

import ast
import dataclasses
import re
import typing
from pathlib import Path

import pytest

from referees.rules import catalogue, ladder
from referees.rules.catalogue import AMM_V6_4, CATALOGUES, Article, article, catalogue_for, gettext_noop
from tests.syntax import parse_file

REGLAMENTO = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "004_155e2165bf0c0dba.txt"
CODES = [a.code for a in AMM_V6_4]
SPANISH_WORDS = set(re.findall(r"\w+", "el la los las de del en se no y un una que con por para al es está"))
ENGLISH_WORDS = set(re.findall(r"\w+", "the and of is must with by its may not"))


def numeric_key(code: str) -> tuple[tuple[int, int | str], ...]:
    """'3.20.c' -> ((0, 3), (0, 20), (1, 'c')); '1.1a' -> ((0, 1), (0, 1), (1, 'a')): numbers before letters."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.findall(r"\d+|[a-z]+", code))


def heading(code: str) -> re.Pattern[str]:
    """The line of the reglamento that opens article ``code`` ('- 2.3.a** -', '**4.1a - ERROR', '- 1.1.- PUESTOS')."""
    return re.compile(r"^[\s\-#*]*" + re.escape(code) + r"(?![0-9a-z]|\.[0-9a-z])[^\n]*", re.MULTILINE)


@pytest.fixture
def reglamento() -> str:
    if not REGLAMENTO.exists():
        pytest.skip(f"no está el texto del reglamento AMM v6.4 en {REGLAMENTO}: no se puede cotejar")
    return REGLAMENTO.read_text(encoding="utf-8")


def test_codes_are_unique_and_ordered_as_in_the_document():
    codes = [a.code for a in AMM_V6_4]
    assert len(codes) == len(set(codes))
    assert codes == sorted(codes, key=numeric_key)
    assert numeric_key("5.8.d") < numeric_key("5.10") and numeric_key("1.1") < numeric_key("1.1a") < numeric_key("1.3")


def test_every_code_opens_an_article_of_the_reglamento_in_order(reglamento):
    positions = {}
    for code in CODES:
        found = heading(code).search(reglamento)
        assert found is not None, f"{code} no abre ningún artículo del reglamento"
        positions[code] = found.start()
    assert [positions[code] for code in CODES] == sorted(positions.values())


def test_titles_quote_the_reglamento(reglamento):
    for entry in AMM_V6_4:
        own = heading(entry.code).search(reglamento)
        parent = heading(re.sub(r"\.?[a-z]$", "", entry.code)).search(reglamento)
        lines = " ".join(match.group(0).upper() for match in (own, parent) if match)
        assert entry.title.split(" (")[0].upper() in lines, f"{entry.code}: {entry.title!r}"
        assert entry.title != entry.title.upper(), f"{entry.code}: el título va en mayúsculas normales"


def test_titles_and_summaries_are_short_spanish_sentences():
    for entry in AMM_V6_4:
        assert entry.title.strip() and entry.title[0].isupper() and not entry.title.endswith("."), entry.code
        words = set(re.findall(r"[a-záéíóúñü]+", entry.summary.lower()))
        assert entry.summary[0].isupper() and entry.summary.endswith("."), entry.code
        assert len(entry.summary) <= 110, entry.code
        assert words & SPANISH_WORDS and not words & ENGLISH_WORDS, entry.code
        assert not set(entry.title.lower().split()) & ENGLISH_WORDS, entry.code


def test_titles_and_summaries_are_marked_for_translation():
    tree = parse_file(catalogue.__file__)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "Article"]
    assert len(calls) == len(AMM_V6_4)

    def marked(node: ast.expr) -> bool:
        return (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", None) == "gettext_noop"
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        )

    for call in calls:
        summary = next(k.value for k in call.keywords if k.arg == "summary")
        assert marked(call.args[1]) and marked(summary), ast.unparse(call.args[0])
    assert gettext_noop("Postura") == "Postura"


def test_meterse_en_baraja_brings_the_generic_warning_amm_3_20_c():
    assert article("3.20.c").penalty == "ladder"
    assert article("3.20").penalty == "own"  # the error in every lance, when the cards cannot be taken out


def test_showing_cards_again_and_again_brings_the_generic_sanction_amm_3_4_d():
    assert article("3.4.d").penalty == "ladder"
    assert article("3.4.a").penalty == "own"  # showing them to an órdago accepts it


def test_agreed_or_manipulated_results_mean_the_expulsion_amm_3_16_b():
    assert article("3.16.b").penalty == "expulsion"
    assert [a.code for a in AMM_V6_4 if a.penalty == "expulsion"] == ["3.16.b"]


def test_deliberate_delays_follow_the_ladder_and_are_delays_amm_6_3():
    assert (article("6.3").penalty, article("6.3").delay) == ("ladder", True)


def test_a_missing_player_loses_juegos_by_the_articles_own_penalty_amm_6_1_b():
    assert article("6.1.b").penalty == "own"


def test_lateness_sanctions_are_sanctions_for_delays_amm_6_1_c():
    assert article("6.1.b").delay


def test_repeated_delays_are_the_juezs_own_penalty_amm_6_6():
    assert (article("6.6").penalty, article("6.6").delay) == ("own", True)


def test_behaviour_follows_the_ladder_up_to_the_disqualification_amm_5_10():
    assert article("5.10").penalty == "ladder"


def test_abuse_of_the_reglamento_follows_the_ladder_amm_5_2():
    assert article("5.2").penalty == "ladder"


def test_the_mus_dialogue_must_not_drag_on_amm_2_3_d():
    assert (article("2.3.d").penalty, article("2.3.d").delay) == ("ladder", True)


def test_accepting_or_raising_envites_must_not_drag_on_amm_3_7_c():
    assert (article("3.7.c").penalty, article("3.7.c").delay) == ("ladder", True)


def test_interrupting_the_other_pairs_deliberation_causes_the_delay_amm_3_7_d():
    assert (article("3.7.d").penalty, article("3.7.d").delay) == ("ladder", True)


def test_exceeding_the_envite_minute_is_declining_not_a_delay_sanction_amm_3_7_b():
    assert (article("3.7.b").penalty, article("3.7.b").delay) == ("own", False)


def test_only_the_delay_articles_count_as_delays():
    assert {a.code for a in AMM_V6_4 if a.delay} == {"2.3.d", "3.7.c", "3.7.d", "6.1.b", "6.3", "6.6"}


def test_an_intentional_error_brings_the_generic_procedure_amm_4_1a():
    assert article("4.1a").penalty == "ladder"


def test_the_effects_of_errors_are_their_own_penalty_amm_4_2():
    chapter_iv = [a for a in AMM_V6_4 if a.code.startswith(("4.2", "4.4"))]
    assert len(chapter_iv) == 12 and {a.penalty for a in chapter_iv} == {"own"}


def test_forbidden_signals_follow_the_ladder_amm_7_5():
    assert {article(code).penalty for code in ("2.2.d", "7.1", "7.2", "7.3", "7.5")} == {"ladder"}


def test_partial_signals_are_errors_amm_7_6():
    assert article("7.6").penalty == "own"


def test_organisational_articles_are_left_out():
    for code in ("1.2", "1.4", "3.1", "5.1", "5.4", "5.5", "5.6", "5.7", "5.9", "5.11", "6.2"):
        with pytest.raises(ValueError, match="no está en el catálogo"):
            article(code)


def test_an_unknown_code_is_a_spanish_error_naming_it():
    with pytest.raises(ValueError, match=r"el artículo '9\.99' no está en el catálogo del reglamento"):
        article("9.99")


def test_the_other_rule_sets_use_the_amm_catalogue():
    assert catalogue_for("fournier") is AMM_V6_4
    assert catalogue_for("amm") is AMM_V6_4 and CATALOGUES == {"amm": AMM_V6_4}
    assert article("6.3", "fournier") is article("6.3")


def test_articles_are_frozen_and_agree_with_the_ladder_on_penalties():
    with pytest.raises(dataclasses.FrozenInstanceError):
        article("6.3").delay = False  # type: ignore[misc]
    assert typing.get_args(catalogue.Penalty) == typing.get_args(ladder.Penalty)
    assert Article("1.1", "Puestos en la mesa", "ladder") == Article("1.1", "Puestos en la mesa", "ladder", False, "")
