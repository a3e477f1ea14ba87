"""Issue 32, item 3 — juegos tapped at the table by the players (AMM 3.16: each juego is marked in
the acta as it ends, and the losing pair signs). A player's tap for the rivals concedes the juego
and counts at once; a tap for their own pair is a claim (JuegoClaim) that counts only when the
rivals confirm it, at the time it was claimed; the mesa's or the juez's tap decides any claim.
The pair's phone (its terminal) is a player of the pair for all of this."""

import pytest
from django.db import IntegrityError, transaction

from scoring.models import ClockJuego, JuegoClaim
from scoring.selectors.clocks import match_clock
from scoring.services import clocks as svc
from tests.factories import UserFactory
from tests.scoring.test_clocks_api import at, start_all, tables  # noqa: F401 (the fixture)
from torneo.errors import TournamentError
from torneo.services.terminals import terminal_issue

pytestmark = pytest.mark.django_db


def score(match) -> dict:
    return match_clock(match, at(59)).as_dict(at(59))["score"]


def test_a_players_own_juego_waits_for_the_rivals_and_counts_when_they_confirm_it_amm_3_16(tables):  # noqa: F811
    t = tables
    start_all(t)
    match = t.matches[0]
    player, rival = t.users["player"], t.users["rival"]  # pair A, pair B
    claim = svc.clock_juego(match=match, by=player, winner="A", at=at(14))
    assert isinstance(claim, JuegoClaim) and not ClockJuego.objects.exists()
    assert score(match) == {"A": 0, "B": 0}
    data = match_clock(match, at(15)).as_dict(at(15))
    assert data["claim"] == {"winner": "A", "pair": match.pair_a.number, "claimed_at": at(14).isoformat()}
    juego = svc.clock_juego(match=match, by=rival, winner="A", at=at(16))
    assert isinstance(juego, ClockJuego) and juego.ended_at == at(14) and juego.by == rival  # ended when claimed
    claim.refresh_from_db()
    assert (claim.outcome, claim.resolved_by, claim.juego) == (JuegoClaim.Outcome.CONFIRMED, rival, juego)
    assert score(match) == {"A": 1, "B": 0}
    assert match_clock(match, at(17)).as_dict(at(17))["claim"] is None


def test_the_losers_tap_counts_at_once_amm_3_16(tables):  # noqa: F811
    t = tables
    start_all(t)
    match = t.matches[0]
    juego = svc.clock_juego(match=match, by=t.users["player"], winner="B", at=at(20))
    assert isinstance(juego, ClockJuego) and juego.ended_at == at(20)
    assert score(match) == {"A": 0, "B": 1} and not JuegoClaim.objects.exists()


def test_a_claim_is_not_repeated_and_two_pairs_claiming_the_same_juego_call_the_juez(tables):  # noqa: F811
    t = tables
    start_all(t)
    match = t.matches[0]
    svc.clock_juego(match=match, by=t.users["player"], winner="A", at=at(10))
    with pytest.raises(TournamentError, match="falta que lo confirme la otra pareja") as again:
        svc.clock_juego(match=match, by=t.users["player"], winner="A", at=at(11))
    assert again.value.code == "claimed"
    with pytest.raises(TournamentError, match=f"La pareja {match.pair_a.number} dice que este juego") as both:
        svc.clock_juego(match=match, by=t.users["rival"], winner="B", at=at(11))
    assert both.value.code == "disputed" and "avisad al juez" in str(both.value)
    assert JuegoClaim.objects.count() == 1 and not ClockJuego.objects.exists()


@pytest.mark.parametrize(("staff", "winner", "outcome"), [("mesa", "A", "confirmed"), ("juez", "B", "overruled")])
def test_the_mesa_or_the_juez_decides_a_claim_with_their_tap(tables, staff, winner, outcome):  # noqa: F811
    t = tables
    start_all(t)
    match = t.matches[0]
    claim = svc.clock_juego(match=match, by=t.users["player"], winner="A", at=at(30))
    juego = svc.clock_juego(match=match, by=t.users[staff], winner=winner, at=at(33))
    claim.refresh_from_db()
    assert claim.outcome == outcome and claim.resolved_by == t.users[staff]
    assert juego.winner == winner and juego.ended_at == (at(30) if outcome == "confirmed" else at(33))


def test_the_claiming_pair_withdraws_its_claim_or_gives_the_juego_away(tables):  # noqa: F811
    t = tables
    start_all(t)
    match = t.matches[0]
    player, rival = t.users["player"], t.users["rival"]
    claim = svc.clock_juego(match=match, by=player, winner="A", at=at(5))
    for other in (rival, t.users["mesa"]):  # the rivals' undo, and the staff's, are of counted juegos only
        with pytest.raises(TournamentError, match="No hay ningún juego que deshacer"):
            svc.clock_juego_undo(match=match, by=other)
    assert JuegoClaim.objects.get().outcome == JuegoClaim.Outcome.PENDING
    assert svc.clock_juego_undo(match=match, by=player) == claim
    claim.refresh_from_db()
    assert claim.outcome == JuegoClaim.Outcome.WITHDRAWN and not ClockJuego.objects.exists()
    # Claimed again, then the same pair concedes it: the claim is withdrawn and B's juego counts.
    again = svc.clock_juego(match=match, by=player, winner="A", at=at(6))
    svc.clock_juego(match=match, by=player, winner="B", at=at(7))
    again.refresh_from_db()
    assert again.outcome == JuegoClaim.Outcome.WITHDRAWN and score(match) == {"A": 0, "B": 1}


def test_a_player_undoes_only_against_their_own_pair(tables):  # noqa: F811
    t = tables
    start_all(t)
    match = t.matches[0]
    player, rival = t.users["player"], t.users["rival"]
    svc.clock_juego(match=match, by=player, winner="B", at=at(10))  # A concedes
    with pytest.raises(TournamentError) as refused:
        svc.clock_juego_undo(match=match, by=player)
    assert refused.value.code == "not_yours" and ClockJuego.objects.count() == 1
    assert svc.clock_juego_undo(match=match, by=rival) is None  # B gives its own juego back
    assert not ClockJuego.objects.exists()


def test_the_pairs_phone_claims_and_confirms_like_its_players(tables):  # noqa: F811
    t = tables
    start_all(t)
    match = t.matches[0]
    phone_a = terminal_issue(pair=match.pair_a, by=t.users["mesa"]).terminal.user
    phone_b = terminal_issue(pair=match.pair_b, by=t.users["mesa"]).terminal.user
    assert svc.table_side(phone_a, match) == "A" and svc.table_side(phone_b, match) == "B"
    assert svc.table_side(t.users["mesa"], match) is None and svc.table_side(UserFactory(), match) is None
    claim = svc.clock_juego(match=match, by=phone_b, winner="B", at=at(12))
    assert isinstance(claim, JuegoClaim)
    svc.clock_juego(match=match, by=phone_a, winner="B", at=at(13))
    claim.refresh_from_db()
    assert claim.outcome == JuegoClaim.Outcome.CONFIRMED and score(match) == {"A": 0, "B": 1}


def test_a_second_phone_confirming_a_juego_already_confirmed_does_not_give_another_amm_3_16(tables):  # noqa: F811
    """Issue 32, item 3, at human speed: pair B has two phones on the table's page. The first
    confirms A's claim; the second, not yet refreshed, taps the same «Confirmar: juego para A» for
    juego 1: refused in Spanish («stale»), the score still 1-0 — never a second juego conceded. The
    same for a form sent twice, a player's own claim sent twice, and through the page's form."""
    from django.test import Client

    t = tables
    start_all(t)
    match = t.matches[0]
    phone_a = terminal_issue(pair=match.pair_a, by=t.users["mesa"]).terminal.user
    svc.clock_juego(match=match, by=phone_a, winner="A", at=at(14), number=1)
    svc.clock_juego(match=match, by=t.users["rival"], winner="A", at=at(15), number=1)  # B's first phone
    with pytest.raises(TournamentError, match="Este toque era para el juego 1, pero ya va 1 juego") as late:
        svc.clock_juego(match=match, by=t.users["rival"], winner="A", at=at(16), number=1)  # B's second phone
    assert late.value.code == "stale" and score(match) == {"A": 1, "B": 0}
    svc.clock_juego(match=match, by=phone_a, winner="A", at=at(20), number=2)  # A claims juego 2
    with pytest.raises(TournamentError) as twice:
        svc.clock_juego(match=match, by=phone_a, winner="B", at=at(21), number=3)  # a number from nowhere
    assert twice.value.code == "stale" and JuegoClaim.objects.filter(resolved_at__isnull=True).count() == 1
    # The page's form carries the juego it shows; the same form sent twice counts once.
    rival = Client()
    rival.force_login(t.users["rival"])
    url = f"/torneos/{match.round.tournament.slug}/relojes/mesa/{match.pk}/"
    page = rival.get(url).content.decode()
    assert 'name="number" value="2"' in page
    for _ in range(2):
        rival.post(url, {"action": "juego", "winner": "A", "number": 2})
    assert score(match) == {"A": 2, "B": 0}
    assert "Este toque era para el juego 2" in rival.get(url).content.decode()
    api = f"/api/v1/tournaments/{match.round.tournament.slug}/clocks/{match.pk}/juego/"
    stale = rival.post(api, {"winner": "A", "number": 2}, content_type="application/json")
    assert stale.status_code == 400 and "stale" in stale.content.decode() and score(match) == {"A": 2, "B": 0}
    for wrong in ("x", 0, 1000):  # not a juego number: a Spanish message on the field, nothing written
        bad = rival.post(api, {"winner": "A", "number": wrong}, content_type="application/json")
        assert bad.status_code == 400 and "number" in bad.json(), bad.content
    word = rival.post(api, {"winner": "A", "number": "x"}, content_type="application/json")
    assert "El número de juego no es válido." in word.content.decode()
    assert score(match) == {"A": 2, "B": 0}


def test_no_claim_while_paused_or_once_the_partida_is_decided_amm_3_15(tables):  # noqa: F811
    t = tables
    start_all(t)
    match = t.matches[0]
    juez = t.users["juez"]
    svc.clock_pause(match=match, by=juez, reason="Incidencia", at=at(8))
    with pytest.raises(TournamentError, match=r"AMM 3\.15"):
        svc.clock_juego(match=match, by=t.users["player"], winner="A", at=at(9))
    svc.clock_resume(match=match, by=juez, at=at(10))
    for minute in (11, 12, 13):
        svc.clock_juego(match=match, by=juez, winner="B", at=at(minute))
    with pytest.raises(TournamentError) as decided:
        svc.clock_juego(match=match, by=t.users["player"], winner="A", at=at(14))
    assert decided.value.code == "decided" and not JuegoClaim.objects.exists()


def test_at_most_one_claim_waits_per_clock_in_the_database(tables):  # noqa: F811
    t = tables
    start_all(t)
    match = t.matches[0]
    claim = svc.clock_juego(match=match, by=t.users["player"], winner="A", at=at(5))
    with pytest.raises(IntegrityError), transaction.atomic():
        JuegoClaim.objects.create(clock=claim.clock, winner="B", claimed_at=at(6))
