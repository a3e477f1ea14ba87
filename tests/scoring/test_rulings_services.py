"""The juez's rulings on recorded hands (AMM chapter IV) through the services: the engine's answer
previewed without writing, confirmed with who and when, applied to the juego's running count (and
so to the match result), replaced, withdrawn, kept with the hand's version it judged, refused to
those who do not rule, and printed as a note on the acta."""

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from scoring import acta
from scoring.models import HandRuling, RecordedGame, RecordedHand
from scoring.selectors.rulings import hands_awaiting_ruling, ruling_notes
from scoring.services.hands import hand_edit, hand_record
from scoring.services.hands.rulings import hand_ruling_confirm, hand_ruling_preview, hand_ruling_withdraw
from tests.scoring.test_hands_services import Table, table
from torneo.errors import Conflict, NotAllowed

pytestmark = pytest.mark.django_db

# Hand-checked (tests/mus/data/chapter4_cases.jsonl, R01): asiento 1 declares «pares sí» without
# pares. En paso A 3 – B 1; ruled A 4 – B 1 (4.2.b, 4.2.c, 4.2.d annulled, 4.2.e in punto).
D1 = ["12o 12c 5e 4b", "11o 7c 6e 4c", "10o 7o 5c 1e", "1o 4e 6c 7e"]
LIE = [
    {"pares": True, "juego": False},
    {"pares": True, "juego": False},
    {"pares": False, "juego": False},
    {"pares": False, "juego": False},
]
TRUE = [{**d, "pares": i == 0} for i, d in enumerate(LIE)]
ARTICLES = ["4.1a", "4.2.b", "4.2.c", "4.2.d", "4.2.e"]


def lie(t: Table, **extra: Any) -> RecordedHand:
    record = {"hands": D1, "declarations": LIE, "lances": {"pares": ["B:envido 2", "A:quiero"]}, **extra}
    return hand_record(match=t.match, by=t.juez, record=record, mano="a").hand


def test_a_false_declaration_stops_the_count_until_a_juez_rules_amm_4_1a() -> None:
    t = table()
    hand = lie(t)
    assert not hand.valid and not hand.counted
    (awaiting,) = hands_awaiting_ruling([t.match])
    assert awaiting.hand == hand and awaiting.reason == "El asiento 1 declaró «pares sí» y no lleva pares."


def test_the_preview_is_the_engines_ruling_and_writes_nothing_amm_4_2() -> None:
    t = table()
    hand = lie(t)
    answer = hand_ruling_preview(hand=hand, facts={})
    assert answer["score"] == {"A": 4, "B": 1} and answer["articles"] == ARTICLES
    assert any(s.startswith("4.2.c") for s in answer["explanation"])
    assert not HandRuling.objects.exists()


def test_a_confirmed_ruling_is_stored_and_the_hand_counts_at_its_tantos_amm_4_2() -> None:
    t = table()
    hand = lie(t)
    saved = hand_ruling_confirm(hand=hand, by=t.juez, facts={}, expected_version=1)
    ruling = saved.ruling
    assert (ruling.ruled_by, ruling.articles, ruling.score_a, ruling.score_b) == (t.juez, ARTICLES, 4, 1)
    assert ruling.ruled_at is not None and ruling.is_current
    hand.refresh_from_db()
    assert hand.counted and (hand.score_a, hand.score_b) == (4, 1)
    game = RecordedGame.objects.get(pk=hand.game_id)
    assert (game.tantos_a, game.tantos_b, game.stopped_at) == (4, 1, None)
    assert hands_awaiting_ruling([t.match]) == []
    # The next hand follows from the ruled count (AMM 1.5): mano B now, so its score before is B 1 – A 4.
    nxt = hand_record(match=t.match, by=t.juez, record={"hands": D1, "declarations": TRUE}).hand
    assert nxt.record["score"] == {"A": 1, "B": 4} and nxt.counted


def test_the_facts_change_the_ruling_a_rectification_before_pares_amm_4_4_b() -> None:
    t = table()
    hand = lie(t, lances={})
    facts = {"rectifications": [{"seat": 1, "lance": "pares", "when": "antes"}]}
    ruling = hand_ruling_confirm(hand=hand, by=t.juez, facts=facts).ruling
    assert (ruling.score_a, ruling.score_b) == (3, 1)
    assert ruling.articles == ["4.1a", "4.3", "4.4.b"] and ruling.facts == facts


def test_bad_facts_are_refused_by_field_in_spanish_and_nothing_is_written_amm_4_3() -> None:
    t = table()
    hand = lie(t)
    with pytest.raises(ValidationError) as raised:
        hand_ruling_confirm(
            hand=hand, by=t.juez, facts={"rectifications": [{"seat": 3, "lance": "pares", "when": "antes"}]}
        )
    assert "ningún error anterior que rectificar" in str(raised.value.message_dict)
    with pytest.raises(ValidationError) as raised:
        hand_ruling_preview(hand=hand, facts={"rectifications": [{"seat": 9, "lance": "pares", "when": "antes"}]})
    assert "rectifications[0].seat" in raised.value.message_dict
    assert not HandRuling.objects.exists()
    hand.refresh_from_db()
    assert not hand.counted


def test_only_the_organizer_and_the_jueces_rule() -> None:
    t = table()
    hand = lie(t)
    for user in (t.control, t.player_a, t.player_b):
        with pytest.raises(NotAllowed):
            hand_ruling_confirm(hand=hand, by=user, facts={})
    hand_ruling_confirm(hand=hand, by=t.organizer, facts={})
    assert HandRuling.objects.count() == 1


def test_a_new_ruling_replaces_the_current_one_and_the_history_stays() -> None:
    t = table()
    hand = lie(t)
    first = hand_ruling_confirm(hand=hand, by=t.juez, facts={}).ruling
    second = hand_ruling_confirm(
        hand=hand, by=t.juez, facts={"rectifications": [{"seat": 1, "lance": "pares", "when": "despues"}]}
    ).ruling
    first.refresh_from_db()
    assert not first.is_current and second.is_current
    hand.refresh_from_db()
    assert (hand.score_a, hand.score_b) == (second.score_a, second.score_b) == (3, 1)


def test_withdrawing_puts_the_hand_back_as_the_engine_counts_it() -> None:
    t = table()
    hand = lie(t)
    ruling = hand_ruling_confirm(hand=hand, by=t.juez, facts={}).ruling
    hand_ruling_withdraw(ruling=ruling, by=t.juez)
    ruling.refresh_from_db()
    hand.refresh_from_db()
    assert not ruling.is_current and ruling.withdrawn_by == t.juez and not hand.counted
    with pytest.raises(Conflict):
        hand_ruling_withdraw(ruling=ruling, by=t.juez)


def test_a_corrected_hand_is_a_new_version_the_ruling_stays_with_the_old_one() -> None:
    t = table()
    hand = lie(t)
    hand_ruling_confirm(hand=hand, by=t.juez, facts={})
    new = hand_edit(hand=hand, by=t.juez, record={"hands": D1, "declarations": TRUE}).hand
    assert new.counted and (new.score_a, new.score_b) == (3, 1)  # en paso, no ruling needed
    with pytest.raises(Conflict):
        hand_ruling_confirm(hand=hand, by=t.juez, facts={})  # the old version
    with pytest.raises(Conflict):
        hand_ruling_confirm(hand=new, by=t.juez, facts={}, expected_version=1)
    assert HandRuling.objects.filter(hand=hand).count() == 1


def test_a_hand_without_cards_cannot_be_ruled() -> None:
    t = table()
    hand = hand_record(
        match=t.match, by=t.juez, record={"hands": [], "claimed": {"score": {"A": 3, "B": 1}}}, mano="a"
    ).hand
    with pytest.raises(ValidationError) as raised:
        hand_ruling_preview(hand=hand, facts={})
    assert "sin cartas" in str(raised.value.message_dict)


def test_the_acta_notes_the_rulings_in_force_amm_4_2() -> None:
    t = table()
    hand = lie(t)
    ruling = hand_ruling_confirm(hand=hand, by=t.juez, facts={}).ruling
    (note,) = ruling_notes([t.match])[t.match.pk]
    assert "juego 1, mano 1" in note and "4.1a, 4.2.b, 4.2.c, 4.2.d, 4.2.e" in note and "4-1" in note
    assert note in acta.notes(t.match)
    hand_ruling_withdraw(ruling=ruling, by=t.juez)
    assert ruling_notes([t.match]) == {}
