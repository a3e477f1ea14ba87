"""Recorded hands through the services: a whole juego recorded hand by hand from hand-checked
deals, the running tantos, juegos closing at the target and on an accepted órdago, the match
result following from the juegos, false declarations (AMM 4.1a) as findings, the table's count
standing where it differs from the engine's (AMM 3.14), typing mistakes refused with nothing
written (a betting sequence no play can have among them, while an envite without the jugada is a
fact of play stored with its finding)."""

import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from scoring import mus
from scoring.models import RecordedGame, RecordedHand, ResultSubmission
from scoring.services.hands import hand_delete, hand_edit, hand_record
from scoring.services.hands import writes as hand_writes
from scoring.services.results import result_submit
from tests.factories import TournamentFactory, UserFactory, grant, make_pair, player_data
from torneo.errors import Conflict, NotAllowed
from torneo.models import Match, Player, Round, Tournament

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]

# Hand-checked deals (seats 0 mano, 1, 2 mano's partner, 3 postre; 8 reyes: a 3 is a rey, a 2 an as).
# S1 en paso: grande A +1 (seat 0: rey rey), chica B +1 (seat 3: as as 5 6 — the 2 is an as),
# pares B +3 (seat 1: duples de caballos y cuatros), punto B +1 (seat 1: 28). A 1, B 5.
S1 = ["12o 12c 1e 5b", "11o 11c 4e 4b", "3c 7o 7c 1b", "10o 6e 5c 2c"]
# S2 en paso: grande A +1 (seat 0: rey caballo sota), chica B +1 (seat 3: as as as 7), pares A +3
# (seat 2: duples de seises y cincos beat seat 3's medias de ases), juego A +3 (seats 0 and 1 both
# 31: the tie goes to mano). A 7, B 1.
S2 = ["12o 11o 10o 1c", "12c 11c 7c 4c", "5o 5c 6e 6b", "1o 1e 2b 7b"]
# S3: only pair A holds pares (seat 0 pareja de reyes, seat 2 pareja de sietes); nobody has juego.
# En paso: grande A +1, chica B +1 (seat 3), pares A +2, punto B +1 (seat 1: 30). A 3, B 2.
S3 = ["12o 12c 1e 5b", "11o 10c 4e 6b", "3c 7o 7c 1b", "10o 6e 5c 2c"]


@dataclass
class Table:
    tournament: Tournament
    match: Match
    organizer: Any
    juez: Any
    control: Any
    player_a: Any  # plays in match.pair_a
    player_b: Any  # plays in match.pair_b


def table(*, number: int = 1, **fields: Any) -> Table:
    """A published round with one match at table 4: pair_a and pair_b, each with a player user."""
    fields.setdefault("status", Tournament.Status.RUNNING)
    t = TournamentFactory(**fields)
    organizer = grant(UserFactory(), t, "organizer")
    juez = grant(UserFactory(), t, "juez")
    control = grant(UserFactory(), t, "control")
    a = make_pair(t, players=[player_data(201), player_data(202)])
    b = make_pair(t, players=[player_data(203), player_data(204)])
    users = []
    for pair in (a, b):
        user = UserFactory()
        Player.objects.filter(pk=pair.ordered_members()[0].player_id).update(user=user)
        users.append(user)
    r = Round.objects.create(
        tournament=t, number=number, kind=Round.Kind.DRAW, status=Round.Status.PUBLISHED, published_at=timezone.now()
    )
    m = Match.objects.create(round=r, table_number=4, pair_a=a, pair_b=b)
    return Table(t, m, organizer, juez, control, users[0], users[1])


def rec(hands: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"hands": list(S1 if hands is None else hands)}
    data.update(extra)
    return data


def tantos(game: RecordedGame) -> tuple[int, int]:
    game.refresh_from_db()
    return game.tantos_a, game.tantos_b


def codes(hand: RecordedHand) -> list[str]:
    return [f["code"] for f in hand.all_findings]


def test_a_whole_juego_hand_by_hand_keeps_the_running_tantos_and_closes_at_40_amm_1_7_a():
    t = table()
    by = t.juez
    # Hand 1: pair_a is mano (A). S1 en paso: A 1, B 5 -> pair_a 1, pair_b 5.
    h1 = hand_record(match=t.match, by=by, record=rec(), mano="a")
    assert (h1.hand.number, h1.game.number, h1.hand.mano_side) == (1, 1, "a")
    assert h1.hand.valid and h1.hand.counted and h1.hand.findings == []
    assert (h1.hand.score_a, h1.hand.score_b) == (1, 5) and tantos(h1.game) == (1, 5)
    # Hand 2: mano alternates (AMM 2.8): pair_b is A. The score before is prefilled in its frame
    # (A 5, B 1). Grande envido 10 accepted, won by seat 0 (rey rey): A +10, then B +1 +3 +1.
    h2 = hand_record(match=t.match, by=by, record=rec(lances={"grande": ["A:envido 10", "B:quiero"]}))
    assert h2.hand.mano_side == "b"
    assert h2.hand.record["score"] == {"A": 5, "B": 1}
    assert (h2.hand.score_a, h2.hand.score_b) == (6, 15)
    # Hand 3: pair_a mano again; S2 en paso: A +7, B +1 -> pair_a 13, pair_b 16.
    h3 = hand_record(match=t.match, by=by, record=rec(S2, claimed={"score": {"A": 13, "B": 16}}))
    assert h3.hand.mano_side == "a" and h3.hand.findings == []
    assert tantos(h3.game) == (13, 16)
    # Hand 4: pair_b mano (A 16, B 13). S2 with a juego envido of 20 accepted: A +1 grande (17),
    # B +1 chica (14), A +3 pares (20), A +20 juego: 40, the juego is over; the juego's 3 tantos of
    # A's 31 come after the target and are not counted (DESIGN: the first pair to reach 40 wins).
    h4 = hand_record(
        match=t.match,
        by=by,
        record=rec(S2, lances={"juego": ["A:envido 20", "B:quiero"]}, claimed={"score": {"A": 40, "B": 14}}),
    )
    assert h4.hand.findings == [] and h4.hand.counted
    game = h4.game
    game.refresh_from_db()
    assert (game.tantos_a, game.tantos_b, game.winner, game.won_by_ordago) == (14, 40, "b", False)
    assert h4.result is None  # one juego of three: nothing to submit yet
    assert Match.objects.get(pk=t.match.pk).outcome == Match.Outcome.PENDING
    # The next hand opens juego 2, mano still alternating: pair_a.
    h5 = hand_record(match=t.match, by=by, record=rec())
    assert (h5.game.number, h5.hand.number, h5.hand.mano_side) == (2, 1, "a")
    assert h5.game.first_mano == "a" and tantos(h5.game) == (1, 5)


def test_juegos_close_on_an_accepted_ordago_and_the_match_result_follows_amm_1_7_a():
    t = table()
    by = t.control
    # Juego 1: pair_a mano; pares órdago of B accepted; seat 1's duples win: B (pair_b) wins.
    g1 = hand_record(match=t.match, by=by, record=rec(lances={"pares": ["B:ordago", "A:quiero"]}), mano="a")
    g1.game.refresh_from_db()
    assert (g1.game.winner, g1.game.won_by_ordago, g1.game.tantos_a, g1.game.tantos_b) == ("b", True, 0, 0)
    # Juego 2: mano passes to pair_b (A). Grande órdago of A accepted; seat 0's reyes win: pair_b.
    g2 = hand_record(match=t.match, by=by, record=rec(lances={"grande": ["A:ordago", "B:quiero"]}))
    assert (g2.game.number, g2.hand.mano_side) == (2, "b")
    assert g2.game.winner == "b" and g2.result is None
    # Juego 3: pair_a mano; pares órdago of B again: pair_b's third juego decides the match 0-3.
    g3 = hand_record(match=t.match, by=by, record=rec(lances={"pares": ["B:ordago", "A:quiero"]}))
    assert g3.game.number == 3 and g3.game.winner == "b"
    assert g3.result is not None and g3.result.level == "success"
    sub = g3.result.submission
    assert sub.source == ResultSubmission.Source.HANDS and sub.status == ResultSubmission.Status.CONFIRMED
    match = Match.objects.get(pk=t.match.pk)
    assert (match.outcome, match.games_a, match.games_b, match.winner_id) == ("played", 0, 3, match.pair_b_id)
    assert sub.tantos == [[0, 0], [0, 0], [0, 0]]
    # The match is decided: no fourth juego.
    with pytest.raises(ValidationError) as excinfo:
        hand_record(match=t.match, by=by, record=rec())
    assert "La partida ya está decidida (0-3)" in excinfo.value.message_dict["game"][0]


def _win_three_juegos(t: Table, by: Any) -> list[Any]:
    out = [hand_record(match=t.match, by=by, record=rec(lances={"pares": ["B:ordago", "A:quiero"]}), mano="a")]
    out.append(hand_record(match=t.match, by=by, record=rec(lances={"grande": ["A:ordago", "B:quiero"]})))
    out.append(hand_record(match=t.match, by=by, record=rec(lances={"pares": ["B:ordago", "A:quiero"]})))
    return out


def test_with_double_check_the_result_awaits_the_losing_pair_amm_3_16():
    t = table(results_double_check=True)
    last = _win_three_juegos(t, t.player_b)[-1]
    assert last.result.level == "info" and "pareja perdedora" in last.result.message
    sub = last.result.submission
    assert sub.status == ResultSubmission.Status.PROPOSED and sub.submitted_by == t.player_b
    assert Match.objects.get(pk=t.match.pk).outcome == Match.Outcome.PENDING
    # Recording more (a correction that changes nothing) does not confirm it behind anyone's back.
    hand = RecordedHand.objects.get(game__number=1, is_current=True)
    again = hand_edit(hand=hand, by=t.juez, record=rec(lances={"pares": ["B:ordago", "A:quiero"]}))
    assert again.result.submission == sub
    sub.refresh_from_db()
    assert sub.status == ResultSubmission.Status.PROPOSED


def test_a_locked_round_is_reported_not_crashed_amm_3_18():
    t = table()
    Round.objects.create(
        tournament=t.tournament,
        number=2,
        kind=Round.Kind.DRAW,
        status=Round.Status.PUBLISHED,
        published_at=timezone.now(),
    )
    last = _win_three_juegos(t, t.juez)[-1]
    assert last.result.level == "error"
    assert "AMM 3.18" in last.result.message and "0-3" in last.result.message
    assert RecordedHand.objects.filter(is_current=True).count() == 3  # the hands stay saved
    assert Match.objects.get(pk=t.match.pk).outcome == Match.Outcome.PENDING
    # And the players may no longer record hands of that match.
    with pytest.raises(NotAllowed) as excinfo:
        hand_record(match=t.match, by=t.player_a, record=rec())
    assert "AMM 3.18" in str(excinfo.value)


def test_a_result_entered_by_the_mesa_is_not_overwritten_by_the_hands():
    t = table()
    result_submit(match=t.match, by=t.control, games_a=3, games_b=1)
    last = _win_three_juegos(t, t.juez)[-1]
    assert last.result.level == "warning"
    assert "ya tiene resultado (3-1)" in last.result.message and "0-3" in last.result.message
    match = Match.objects.get(pk=t.match.pk)
    assert (match.games_a, match.games_b) == (3, 1)


def test_a_false_declaration_is_a_finding_by_seat_and_lance_and_stops_the_count_amm_4_1a():
    t = table()
    hand_record(match=t.match, by=t.juez, record=rec(), mano="a")
    # Seat 2 (mano's partner) holds a pareja de sietes (3c 7o 7c 1b) and says «pares no».
    declarations = [{"pares": True, "juego": False}, {"pares": True, "juego": False}]
    declarations += [{"pares": False, "juego": False}, {"pares": False, "juego": False}]
    saved = hand_record(match=t.match, by=t.juez, record=rec(declarations=declarations))
    hand = saved.hand
    assert hand.pk and not hand.valid and not hand.counted
    false = [f for f in hand.findings if f["code"] == "declaracion_falsa"]
    assert len(false) == 1
    assert false[0]["article"] == "AMM 4.1a" and false[0]["seat"] == 2 and false[0]["lance"] == "pares"
    assert false[0]["message"] == "El asiento 2 (compañero del mano) declaró «pares no» y lleva pareja de sietes."
    assert "tanteo_no_comprobado" in codes(hand)  # AMM 4.2: the jueces apply the effects
    game = saved.game
    game.refresh_from_db()
    assert game.stopped_at == 2 and tantos(game) == (1, 5)  # only hand 1 counts
    # The next hand is kept but does not count either, until hand 2 is corrected.
    h3 = hand_record(match=t.match, by=t.juez, record=rec())
    assert h3.hand.valid and not h3.hand.counted
    assert tantos(h3.game) == (1, 5)
    # The table agrees seat 2 had pares: the correction is a new version; everything counts.
    declarations[2] = {"pares": True, "juego": False}
    fixed = hand_edit(hand=hand, by=t.juez, record=rec(declarations=declarations))
    assert fixed.hand.version == 2 and fixed.hand.replaces_id == hand.pk and fixed.hand.counted
    hand.refresh_from_db()
    assert not hand.is_current and hand.findings == saved.hand.findings  # the old record is kept
    # Hand 2 (pair_b mano, A 5 – B 1) en paso: A +1, B +5 -> pair_b 6, pair_a 6. Hand 3 was
    # recorded when the running tantos were 1-5, so its score before is wrong now (AMM 1.5): it
    # stops the count until it is corrected too.
    h3.hand.refresh_from_db()
    assert "marcador_previo_incorrecto" in codes(h3.hand) and not h3.hand.counted
    assert tantos(fixed.game) == (6, 6)
    h3_fixed = hand_edit(hand=h3.hand, by=t.juez, record=rec(score={"A": 6, "B": 6}))
    assert h3_fixed.hand.counted and tantos(h3_fixed.game) == (7, 11)


def table_aviso(hand: RecordedHand) -> dict[str, Any]:
    [aviso] = [f for f in hand.findings if f["code"] == "tanteo_de_la_mesa"]
    return aviso


def test_3_14_claimed_tanteo_stands_and_the_running_count_continues_from_it():
    """AMM 3.14: «Una vez apuntados los tantos y metidas las cartas en baraja, no podrá hacerse
    ninguna reclamación de tanteo.» The tantos the table wrote stand where the engine counts
    otherwise: the hand is saved and counts at the table's tantos, the juego goes on from them,
    and the difference is an aviso for the juez with both counts (before: an error that stopped
    the juego's count)."""
    t = table()
    # S1 en paso, pair_a mano: the engine counts grande A 1 – B 0, A 1 – B 5 after the hand; the
    # table wrote grande A 2 – B 0 and A 2 – B 5.
    claimed = {"lances": {"grande": {"A": 2, "B": 0}, "chica": {"A": 0, "B": 1}}, "score": {"A": 2, "B": 5}}
    saved = hand_record(match=t.match, by=t.juez, record=rec(claimed=claimed), mano="a")
    hand = saved.hand
    assert hand.pk and hand.valid and hand.counted and hand.errors == []
    assert (hand.score_a, hand.score_b) == (2, 5) and tantos(saved.game) == (2, 5)
    assert saved.game.stopped_at is None
    aviso = table_aviso(hand)
    assert [f["code"] for f in hand.findings] == ["tanteo_de_la_mesa"]  # no tanteo_incorrecto error left
    assert (aviso["severity"], aviso["article"]) == ("aviso", "AMM 3.14")
    assert aviso["table"] == {"A": 2, "B": 5} and aviso["engine"] == {"A": 1, "B": 5}
    assert aviso["message"] == (
        "El tanteo anotado por la mesa no coincide con el del motor. Mesa: A 2 – B 5 tras la mano (grande A 2 – "
        "B 0). Motor: A 1 – B 5 tras la mano (grande A 1 – B 0). Cuenta el de la mesa: una vez apuntados los "
        "tantos no se admite reclamación de tanteo (AMM 3.14); queda como aviso para el juez."
    )
    # The next hand starts from the table's count: pair_b mano, A 5 – B 2 in its frame; S1 en paso
    # gives A 6 – B 7, pair_a 7 – pair_b 6. No finding about the score before.
    second = hand_record(match=t.match, by=t.juez, record=rec())
    assert second.hand.record["score"] == {"A": 5, "B": 2}
    assert second.hand.counted and codes(second.hand) == [] and tantos(second.game) == (7, 6)
    # Tantos written by lance only, without the score after: the table's for the lances it wrote,
    # the engine's for the others, in the order of the count (AMM 3.13). S2 en paso, pair_a mano
    # (A 7 – B 6): grande A +1, chica B +1, pares A +3 (the table wrote 2), juego A +3: A 13 – B 7.
    third = hand_record(match=t.match, by=t.juez, record=rec(S2, claimed={"lances": {"pares": {"A": 2, "B": 0}}}))
    assert third.hand.counted and (third.hand.score_a, third.hand.score_b) == (13, 7)
    aviso = table_aviso(third.hand)
    assert aviso["table"] == {"A": 13, "B": 7} and aviso["engine"] == {"A": 14, "B": 7}
    expected = "Mesa: A 13 – B 7 tras la mano (pares A 2 – B 0). Motor: A 14 – B 7 tras la mano (pares A 3 – B 0)."
    assert expected in aviso["message"]


def test_3_14_the_next_hand_must_start_from_the_tables_count_amm_1_5():
    """AMM 3.14 (the table's count stands) with AMM 1.5: a hand that starts from the engine's count
    instead of the table's does not follow on, and stops the count until it is corrected."""
    t = table()
    hand_record(match=t.match, by=t.juez, record=rec(claimed={"score": {"A": 2, "B": 5}}), mano="a")
    # The engine's count after hand 1 is pair_a 1 – pair_b 5 (A 5 – B 1 for pair_b mano); the table's 2 – 5.
    saved = hand_record(match=t.match, by=t.juez, record=rec(score={"A": 5, "B": 1}))
    finding = next(f for f in saved.hand.sequence_findings if f["code"] == "marcador_previo_incorrecto")
    assert finding["severity"] == "error" and finding["article"] == "AMM 1.5"
    assert finding["message"] == (
        "La mano n.º 2 empieza con A 5 – B 1 y debería empezar con A 5 – B 2 (A es la pareja mano de esta mano)."
    )
    assert not saved.hand.counted and saved.game.stopped_at == 2 and tantos(saved.game) == (2, 5)
    fixed = hand_edit(hand=saved.hand, by=t.juez, record=rec(score={"A": 5, "B": 2}))
    assert fixed.hand.counted and tantos(fixed.game) == (7, 6)


def test_3_14_the_tables_count_closes_the_juego_and_the_result_follows_it():
    """AMM 3.14: the table's count stands, who won the juego included; the match result proposed
    from the hands (AMM 3.16) follows the table's count, not the engine's."""
    t = table(games_to_win=1)
    # Without cards, pair_a mano: pair_a 35 – pair_b 30 as the table wrote it (AMM 3.4.c).
    hand_record(match=t.match, by=t.juez, record={"hands": [], "claimed": {"score": {"A": 35, "B": 30}}}, mano="a")
    # pair_b mano (A 30 – B 35): S1 en paso, the engine gives B (pair_a) chica, pares and punto: pair_a
    # reaches 40 and wins. The table wrote A 40 – B 36: pair_b reached 40 first.
    saved = hand_record(match=t.match, by=t.juez, record=rec(claimed={"score": {"A": 40, "B": 36}}))
    aviso = table_aviso(saved.hand)
    assert aviso["table"] == {"A": 40, "B": 36} and aviso["engine"] == {"A": 31, "B": 40}
    assert "; gana el juego la pareja A" in aviso["message"] and "; gana el juego la pareja B" in aviso["message"]
    game = saved.game
    game.refresh_from_db()
    assert (game.winner, game.tantos_a, game.tantos_b, game.won_by_ordago) == ("b", 36, 40, False)
    assert saved.result is not None and saved.result.level == "success"
    match = Match.objects.get(pk=t.match.pk)
    assert (match.games_a, match.games_b, match.tantos_a, match.tantos_b) == (0, 1, 36, 40)
    assert saved.result.submission.tantos == [[36, 40]]


def test_3_14_the_tables_count_says_whether_the_juego_is_over_and_who_won_the_ordago():
    """AMM 3.14: the table's count stands, also when it says the juego goes on where the engine's
    count ends it, or gives an accepted órdago (AMM 1.7.a) to the other pair."""
    t = table()
    # pair_a mano, S1: grande envido 40 accepted, seat 0's reyes: the engine ends the juego at A 40.
    # The table wrote A 30 – B 0: the juego goes on and the next hand is still juego 1.
    record = rec(lances={"grande": ["A:envido 40", "B:quiero"]}, claimed={"score": {"A": 30, "B": 0}})
    saved = hand_record(match=t.match, by=t.juez, record=record, mano="a")
    assert saved.hand.counted and table_aviso(saved.hand)["engine"] == {"A": 40, "B": 0}
    message = table_aviso(saved.hand)["message"]
    assert "; el juego sigue. Motor: A 40 – B 0 tras la mano; gana el juego la pareja A." in message
    saved.game.refresh_from_db()
    assert (saved.game.winner, saved.game.tantos_a, saved.game.tantos_b) == ("", 30, 0)
    # pair_b mano (A 0 – B 30), S1: pares órdago accepted, seat 1's duples win it for B (pair_a); the
    # table wrote that A (pair_b) won it.
    record = rec(lances={"pares": ["B:ordago", "A:quiero"]}, claimed={"game_winner": "A"})
    second = hand_record(match=t.match, by=t.juez, record=record)
    assert second.hand.game_id == saved.game.pk and second.hand.counted
    second.game.refresh_from_db()
    assert (second.game.winner, second.game.won_by_ordago) == ("b", True)
    assert (second.game.tantos_a, second.game.tantos_b) == (30, 0)


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ({"score": {"A": 2, "B": 0}, "claimed": {"score": {"A": 1, "B": 5}}}, "marcador_incorrecto"),
        ({"claimed": {"score": {"A": 40, "B": 40}}}, "marcador_incorrecto"),
        ({"claimed": {"score": {"A": 40, "B": 5}, "game_winner": "B"}}, "ganador_incorrecto"),
        ({"claimed": {"score": {"A": 3, "B": 5}, "game_winner": "A"}}, "ganador_incorrecto"),
        ({"claimed": {"lances": {"grande": {"A": 200, "B": 0}}}}, "tanteo_incorrecto"),
    ],
    ids=["tantos_lost", "both_at_the_target", "winner_against_the_score", "winner_without_tantos", "beyond_a_hand"],
)
def test_3_14_what_cannot_be_a_count_stays_an_error_amm_3_13(extra, code):
    """AMM 3.14 lets the table's count stand, but what the table wrote must be a juego's count
    (AMM 3.13, 1.7.a): tantos lost, more than a hand can give, both pairs at the tantos per juego,
    a winner that contradicts its own score. Then the engine's comparison stays an error and the
    count stops, as before."""
    t = table()
    saved = hand_record(match=t.match, by=t.juez, record=rec(**extra), mano="a")
    assert saved.hand.pk and not saved.hand.valid and not saved.hand.counted
    assert code in [f["code"] for f in saved.hand.errors]
    assert "tanteo_de_la_mesa" not in codes(saved.hand)
    assert saved.game.stopped_at == 1 and tantos(saved.game) == (0, 0)


@pytest.mark.parametrize(
    ("hands", "field", "message"),
    [
        (
            ["12o 8c 7e 1b", *S1[1:]],
            "hands[0]",
            "Asiento 0 (mano): «8c» no es una carta: se escribe el número (1–7, 10, 11, 12) y el palo (o, c, e, b), "
            "p. ej. «12o».",
        ),
        (
            [S1[0], "11o 11c 4e 12o", *S1[2:]],
            "hands[1]",
            "Asiento 1: la carta 12o está repetida (también en el asiento 0 (mano)).",
        ),
        ([*S1[:3], "10o 6e 5c"], "hands[3]", "Asiento 3 (postre): la mano «10o 6e 5c» tiene 3 cartas; deben ser 4."),
        ([S1[0], "", "", ""], "hands", "Escribe las cartas de los cuatro jugadores, o de ninguno."),
    ],
    ids=["bad_card", "repeated_card", "wrong_count", "some_hands_only"],
)
def test_typing_mistakes_in_the_cards_are_refused_in_spanish_and_nothing_is_written_amm_1_2(hands, field, message):
    t = table()
    with pytest.raises(ValidationError) as excinfo:
        hand_record(match=t.match, by=t.juez, record=rec(hands), mano="a")
    assert excinfo.value.message_dict[field] == [message]
    assert not RecordedHand.objects.exists() and not RecordedGame.objects.exists()


@pytest.mark.parametrize(
    ("record", "field"),
    [
        ({"hands": S1, "lances": {"grande": ["A:envido dos"]}}, "lances.grande[0]"),
        ({"hands": S1, "lances": {"mus": []}}, "lances.mus"),
        ({"hands": S1, "declaraciones": []}, "declaraciones"),
        ({"hands": S1, "declarations": [{"pares": "si"}, None, None, None]}, "declarations[0].pares"),
        ({"hands": S1, "rules": "navarra"}, "rules"),
        ({"hands": []}, "claimed.score"),
        ("12o 12c 1e 5b", "record"),
    ],
    ids=["bet", "lance", "unknown_key", "declaration", "other_rules", "no_cards_no_score", "not_an_object"],
)
def test_a_record_out_of_format_is_refused_by_field_and_nothing_is_written(record, field):
    t = table()
    with pytest.raises(ValidationError) as excinfo:
        hand_record(match=t.match, by=t.juez, record=record, mano="a")
    assert field in excinfo.value.message_dict
    assert not RecordedHand.objects.exists()


# Sequences of envites no play can have, whatever the cards (S1: both pairs hold pares, nobody juego).
MALFORMED_SEQUENCES = [
    pytest.param(
        {"grande": ["A:paso", "B:quiero"]},
        "lances.grande[1]",
        "En grande, la pareja B dice «quiero» sin que haya envite.",
        id="respuesta_sin_envite",
    ),
    pytest.param(
        {"chica": ["A:envido", "A:envido 4"]},
        "lances.chica[1]",
        "En chica, la pareja A sube su propio envite: antes debe responder la pareja B.",
        id="envite_propio",
    ),
    pytest.param(
        {"grande": ["A:envido", "B:quiero", "A:envido 2"]},
        "lances.grande[2]",
        "En grande, «A:envido 2» llega después de «B:quiero», que ya cerró el lance.",
        id="lance_cerrado_after_the_answer",
    ),
    pytest.param(
        {"chica": ["A:paso", "B:paso", "A:paso", "B:paso", "A:envido"]},
        "lances.chica[4]",
        "En chica, «A:envido» llega cuando ya han pasado los cuatro jugadores: el lance quedó cerrado en paso.",
        id="lance_cerrado_after_four_passes",
    ),
    pytest.param(
        {"pares": ["A:ordago", "B:envido 5", "A:quiero"]},
        "lances.pares[1]",
        "En pares, la pareja B envida después de un órdago: solo cabe «quiero» o «no quiero».",
        id="envite_tras_ordago",
    ),
    pytest.param(
        {"punto": ["A:paso", "B:envido"]},
        "lances.punto",
        "En punto, el envite de la pareja B se quedó sin respuesta.",
        id="envite_sin_respuesta",
    ),
    pytest.param(
        {"grande": ["A:envido 1", "B:quiero"]},
        "lances.grande[0]",
        "En grande, la pareja A envida 1: un envite es de 2 tantos o más (AMM 3.6).",
        id="envite_menor_de_dos",
    ),
]


@pytest.mark.parametrize(("lances", "field", "message"), MALFORMED_SEQUENCES)
def test_a_betting_sequence_no_play_can_have_is_refused_by_its_action_and_nothing_is_written_amm_3_9(
    lances, field, message
):
    """Typing mistakes of the sequence (rule 1): refused with the reason, keyed by the action at
    fault, with or without cards, and nothing is written — not stored «con errores»."""
    t = table()
    with pytest.raises(ValidationError) as excinfo:
        hand_record(match=t.match, by=t.juez, record=rec(lances=lances), mano="a")
    assert excinfo.value.message_dict == {field: [message]}
    without_cards = {"hands": [], "lances": lances, "claimed": {"score": {"A": 3, "B": 3}}}
    with pytest.raises(ValidationError) as excinfo:
        hand_record(match=t.match, by=t.juez, record=without_cards, mano="a")
    assert excinfo.value.message_dict == {field: [message]}
    assert not RecordedHand.objects.exists() and not RecordedGame.objects.exists()
    # A correction with the same mistake is refused too: the version it would replace stays.
    hand = hand_record(match=t.match, by=t.juez, record=rec(), mano="a").hand
    with pytest.raises(ValidationError):
        hand_edit(hand=hand, by=t.juez, record=rec(lances=lances))
    assert list(RecordedHand.objects.values_list("version", "is_current")) == [(1, True)]


def test_every_lance_with_a_mistake_is_reported_at_once_amm_3_9():
    t = table()
    lances = {"grande": ["B:no quiero"], "chica": ["A:envido"], "pares": ["B:envido", "A:quiero"]}
    with pytest.raises(ValidationError) as excinfo:
        hand_record(match=t.match, by=t.juez, record=rec(lances=lances), mano="a")
    assert sorted(excinfo.value.message_dict) == ["lances.chica", "lances.grande[0]"]


def test_an_envite_without_the_jugada_is_a_fact_of_play_stored_with_its_finding_amm_3_8():
    """AMM 3.8: envidar a pares or juego is declaring that one holds them; a pair that envida
    without them made a false declaration, whose effects and sanctions are the juez's. The hand is
    stored as played, with the finding, and stops the count (rule 2); so is an envite where only
    the bettor's pair holds the jugada (the other pair spoke as if it held it)."""
    t = table()
    saved = hand_record(match=t.match, by=t.juez, record=rec(S3, lances={"pares": ["B:envido", "A:quiero"]}), mano="a")
    [finding] = saved.hand.findings
    assert (finding["code"], finding["article"], finding["severity"], finding["lance"], finding["pair"]) == (
        "envite_sin_jugada",
        "AMM 3.8",
        "error",
        "pares",
        "B",
    )
    assert not saved.hand.valid and not saved.hand.counted and saved.game.stopped_at == 1
    hand = hand_edit(hand=saved.hand, by=t.juez, record=rec(S3, lances={"pares": ["A:envido", "B:no quiero"]})).hand
    assert [(f["code"], f["article"]) for f in hand.findings] == [
        ("envite_sin_contrario", "seed 000 (anuncio de las jugadas)")
    ]
    assert hand.version == 2 and not hand.counted


def test_the_first_hand_needs_the_mano_pair_and_mano_alternates_amm_2_8():
    t = table()
    with pytest.raises(ValidationError) as excinfo:
        hand_record(match=t.match, by=t.juez, record=rec())
    assert excinfo.value.message_dict["mano"] == ["Indica qué pareja es mano en la primera mano del juego."]
    first = hand_record(match=t.match, by=t.juez, record=rec(), mano="b")
    # pair_b mano: its A 1, B 5 is pair_b 1, pair_a 5 in the match's frame.
    assert (first.hand.score_a, first.hand.score_b) == (5, 1)
    second = hand_record(match=t.match, by=t.juez, record=rec())
    assert second.hand.mano_side == "a" and second.hand.record["score"] == {"A": 5, "B": 1}
    # The same pair mano twice running is told (AMM 2.8), not refused.
    third = hand_record(match=t.match, by=t.juez, record=rec(), mano="a")
    assert "mano_dos_veces" in codes(third.hand) and third.hand.counted


def test_a_score_before_that_is_not_the_running_tantos_stops_the_count_amm_1_5():
    t = table()
    hand_record(match=t.match, by=t.juez, record=rec(), mano="a")
    saved = hand_record(match=t.match, by=t.juez, record=rec(score={"A": 0, "B": 0}))
    finding = next(f for f in saved.hand.sequence_findings if f["code"] == "marcador_previo_incorrecto")
    assert finding["article"] == "AMM 1.5"
    assert "debería empezar con A 5 – B 1" in finding["message"]
    assert saved.hand.valid and not saved.hand.counted and saved.game.stopped_at == 2


def test_a_hand_after_the_end_of_the_juego_is_an_error_amm_1_7_a():
    t = table()
    first = hand_record(match=t.match, by=t.juez, record=rec(), mano="a").hand
    second = hand_record(match=t.match, by=t.juez, record=rec()).hand
    # A correction of hand 1: grande envido 40 accepted, seat 0's reyes: pair_a wins the juego there.
    hand_edit(hand=first, by=t.juez, record=rec(lances={"grande": ["A:envido 40", "B:quiero"]}))
    second.refresh_from_db()
    finding = next(f for f in second.sequence_findings if f["code"] == "mano_tras_fin_de_juego")
    assert (finding["severity"], finding["article"]) == ("error", "AMM 1.7.a")
    pair = t.match.pair_a  # the winner named as the pages name it, never «A» of the match
    assert finding["message"] == (
        f"La mano n.º 2 se jugó después de que la pareja {pair.number} · {pair.display_name} ganara el juego "
        "(mano n.º 1)."
    )
    assert not second.counted
    game = RecordedGame.objects.get()
    assert (game.winner, game.tantos_a, game.tantos_b, game.stopped_at) == ("a", 40, 0, None)


def test_a_hand_without_cards_counts_at_the_claimed_score_with_a_notice_amm_3_4_c():
    t = table()
    saved = hand_record(
        match=t.match, by=t.juez, record={"hands": [], "claimed": {"score": {"A": 3, "B": 9}}}, mano="a"
    )
    assert not saved.hand.has_cards and saved.hand.record["hands"] == []
    assert [f["code"] for f in saved.hand.findings] == ["sin_cartas"] and saved.hand.counted
    assert tantos(saved.game) == (3, 9)
    # A claimed score lower than before is an error; an órdago without its winner too.
    down = hand_record(
        match=t.match, by=t.juez, record={"hands": ["", "", "", ""], "claimed": {"score": {"A": 0, "B": 0}}}
    )
    assert "marcador_incorrecto" in codes(down.hand) and not down.hand.counted
    hand_delete(hand=down.hand, by=t.juez)
    ordago = hand_record(
        match=t.match,
        by=t.juez,
        record={"hands": [], "lances": {"grande": ["A:ordago", "B:quiero"]}, "claimed": {"score": {"A": 9, "B": 3}}},
    )
    assert "ordago_sin_ganador" in codes(ordago.hand)
    won = hand_edit(
        hand=ordago.hand,
        by=t.juez,
        record={
            "hands": [],
            "lances": {"grande": ["A:ordago", "B:quiero"]},
            "claimed": {"score": {"A": 9, "B": 3}, "game_winner": "A"},
        },
    )
    won.game.refresh_from_db()
    assert won.game.winner == "b" and won.game.won_by_ordago  # A of a pair_b-mano hand is pair_b


def test_the_tournaments_tantos_per_juego_are_the_target_amm_1_7_a():
    t = table(points_per_game=25)
    hand_record(match=t.match, by=t.juez, record=rec(), mano="a")  # pair_a 1, pair_b 5
    # pair_b mano (A 5 – B 1): grande envido 20 accepted: A 25 at once, the juego is over.
    saved = hand_record(match=t.match, by=t.juez, record=rec(lances={"grande": ["A:envido 20", "B:quiero"]}))
    saved.game.refresh_from_db()
    assert (saved.game.target, saved.game.winner, saved.game.tantos_b) == (25, "b", 25)


def test_edit_and_delete_keep_every_version_and_stale_edits_conflict():
    t = table()
    first = hand_record(match=t.match, by=t.juez, record=rec(), mano="a").hand
    edited = hand_edit(hand=first, by=t.juez, record=rec(S2), expected_version=1).hand
    assert (edited.number, edited.version, edited.is_current) == (1, 2, True)
    assert (edited.score_a, edited.score_b) == (7, 1)
    with pytest.raises(Conflict):
        hand_edit(hand=first, by=t.juez, record=rec())  # an old version
    with pytest.raises(Conflict):
        hand_edit(hand=edited, by=t.juez, record=rec(), expected_version=1)
    gone = hand_delete(hand=edited, by=t.juez)
    assert gone.hand.is_deleted and not gone.hand.is_current
    assert tantos(gone.game) == (0, 0)
    assert RecordedHand.objects.filter(game=gone.game).count() == 2  # nothing is erased
    again = hand_record(match=t.match, by=t.juez, record=rec())
    assert (again.hand.number, again.hand.version, again.hand.replaces_id) == (1, 3, edited.pk)


def test_players_record_their_own_match_only_and_never_change_a_jueces_hand():
    t = table()
    other = table()
    with pytest.raises(NotAllowed):
        hand_record(match=other.match, by=t.player_a, record=rec(), mano="a")
    mine = hand_record(match=t.match, by=t.player_a, record=rec(), mano="a").hand
    assert mine.recorded_as == RecordedHand.RecordedAs.PLAYER
    assert hand_edit(hand=mine, by=t.player_b, record=rec(S2)).hand.version == 2  # the other pair too
    judged = hand_record(match=t.match, by=t.juez, record=rec()).hand
    with pytest.raises(NotAllowed) as excinfo:
        hand_edit(hand=judged, by=t.player_a, record=rec())
    assert str(excinfo.value) == "Esta mano la anotó la organización o un juez: solo ellos pueden cambiarla."
    with pytest.raises(NotAllowed):
        hand_delete(hand=judged, by=t.player_b)


def test_the_stored_record_is_the_engines_format_and_checks_the_same_from_the_command_line():
    t = table()
    declarations = [{"pares": True}, {"pares": True}, {"pares": False}, {"pares": False}]
    hand = hand_record(match=t.match, by=t.juez, record=rec(declarations=declarations), mano="a").hand
    assert mus.record_to_json(mus.parse_record(hand.record)) == hand.record
    out = subprocess.run(
        [sys.executable, "-m", "scoring.mus", "validate"],
        input=json.dumps(hand.record),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    line = json.loads(out.stdout)
    assert line["id"] == hand.record["id"] and "mano 1" in line["id"]
    assert line["findings"] == hand.findings


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_phones_recording_the_same_table_at_once_get_consecutive_hands(on_postgres, monkeypatch):
    from tests.torneo.test_concurrency import run_together

    t = table()
    hand_record(match=t.match, by=t.juez, record=rec(), mano="a")
    original = hand_writes._game_for_new_hand

    def slow(*args: Any, **kwargs: Any) -> RecordedGame:
        game = original(*args, **kwargs)
        time.sleep(0.3)  # widen the race: both would read hand 1 as the last one without the lock
        return game

    monkeypatch.setattr(hand_writes, "_game_for_new_hand", slow)
    results = run_together(
        lambda: hand_record(match=t.match, by=t.player_a, record=rec(S2)),
        lambda: hand_record(match=t.match, by=t.player_b, record=rec(S2)),
    )
    assert all(not isinstance(r, Exception) for r in results), results
    assert sorted(r.hand.number for r in results) == [2, 3]
    assert sorted(r.hand.mano_side for r in results) == ["a", "b"]  # mano kept alternating


def test_a_pending_result_of_the_mesa_is_not_superseded_by_the_hands():
    t = table(results_double_check=True)
    proposed = result_submit(match=t.match, by=t.control, games_a=3, games_b=2)
    last = _win_three_juegos(t, t.juez)[-1]
    assert last.result.level == "warning"
    assert "pendiente de confirmar (3-2, Mesa de control)" in last.result.message
    proposed.refresh_from_db()
    assert proposed.status == ResultSubmission.Status.PROPOSED


def test_hands_and_versions_are_bounded_with_a_clear_error(monkeypatch):
    """A phone posting without end gets a Spanish error keyed by field, never an overflow (500)."""
    t = table()
    monkeypatch.setattr(hand_writes, "MAX_HANDS_PER_GAME", 2)
    monkeypatch.setattr(hand_writes, "MAX_VERSIONS_PER_HAND", 2)
    first = hand_record(match=t.match, by=t.player_a, record=rec(), mano="a").hand
    hand_record(match=t.match, by=t.player_a, record=rec(S2))
    with pytest.raises(ValidationError) as exc:
        hand_record(match=t.match, by=t.player_a, record=rec())
    assert "ya tiene 2 manos" in exc.value.message_dict["game"][0]
    second = hand_edit(hand=first, by=t.player_a, record=rec()).hand
    with pytest.raises(ValidationError) as exc:
        hand_edit(hand=second, by=t.player_a, record=rec())
    assert "ya tiene 2 versiones" in exc.value.message_dict["record"][0]
    assert RecordedHand.objects.filter(game__match=t.match).count() == 3
