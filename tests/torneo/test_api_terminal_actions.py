"""The table in the players' hands by API (issue 32): what a pair's phone does on the pages, an app
does through /api/v1/ too — the pair confirms its presence with the venue's code
(``POST tournaments/<slug>/self-check-in/``) and the juez answers a table's call «voy»
(``POST tournaments/<slug>/incidents/<id>/answer/``). Same services, same limits, same refusals as
the pages (tests/torneo/test_self_check_in.py, tests/referees/test_table_calls.py)."""

import datetime
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from referees.models import Incident
from tests.factories import UserFactory
from tests.scoring.test_hands_services import Table, table
from torneo.models import Pair, Round
from torneo.services import self_check_in as checkin
from torneo.services.terminals import terminal_issue

pytestmark = pytest.mark.django_db


def api(user: Any = None) -> APIClient:
    """A client signed in with the user's token, the way an app logs in; anonymous without one."""
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def unplayed() -> tuple[Table, Any]:
    """A tournament whose first round is not drawn yet (self check-in is open: it has no jornada),
    with the account of its pair A's terminal."""
    t = table()
    Round.objects.filter(tournament=t.tournament).delete()
    Pair.objects.filter(tournament=t.tournament).update(checked_in_at=None)
    terminal = terminal_issue(pair=t.match.pair_a, by=t.control).terminal
    return t, terminal.user


def check_in_url(t: Table) -> str:
    return f"/api/v1/tournaments/{t.tournament.slug}/self-check-in/"


def checked_in(pair: Pair) -> bool:
    pair.refresh_from_db()
    return pair.checked_in_at is not None


# --- self check-in --------------------------------------------------------------------------------


def test_a_pairs_terminal_checks_in_with_the_venues_code():
    t, phone = unplayed()
    code = checkin.venue_code(t.tournament)
    answer = api(phone).post(check_in_url(t), {"codigo": code.lower()}, format="json")  # as typed
    assert answer.status_code == 200, answer.json()
    assert answer["Cache-Control"] == "no-store"
    pair = t.match.pair_a
    assert checked_in(pair) and not checked_in(t.match.pair_b)
    assert set(answer.json()) == {"pair", "checked_in_at"} and answer.json()["pair"] == pair.number
    assert datetime.datetime.fromisoformat(answer.json()["checked_in_at"]) == pair.checked_in_at
    again = api(phone).post(check_in_url(t), {"codigo": code}, format="json")  # idempotent: the first time stays
    assert again.status_code == 200 and again.json() == answer.json()


def test_a_player_of_the_pair_checks_in_from_their_own_account_too():
    t, _phone = unplayed()
    answer = api(t.player_b).post(check_in_url(t), {"codigo": checkin.venue_code(t.tournament)}, format="json")
    assert answer.status_code == 200 and answer.json()["pair"] == t.match.pair_b.number
    assert checked_in(t.match.pair_b) and not checked_in(t.match.pair_a)


def test_a_wrong_or_missing_code_is_a_400_in_spanish_and_nothing_is_written():
    t, phone = unplayed()
    client = api(phone)
    wrong = client.post(check_in_url(t), {"codigo": "AAAAAA"}, format="json")
    assert wrong.status_code == 400
    assert wrong.json()["code"] == "code" and "Ese no es el código de la sala" in wrong.json()["detail"]
    missing = client.post(check_in_url(t), {}, format="json")
    assert missing.status_code == 400 and list(missing.json()) == ["codigo"]
    assert "código que muestra la pantalla de la sala" in missing.json()["codigo"][0]
    too_long = client.post(check_in_url(t), {"codigo": "A" * 40}, format="json")
    assert too_long.status_code == 400 and list(too_long.json()) == ["codigo"]
    assert not checked_in(t.match.pair_a)


def test_closed_once_round_one_is_drawn():
    t, phone = unplayed()
    Round.objects.create(tournament=t.tournament, number=1, kind=Round.Kind.DRAW, status=Round.Status.PUBLISHED)
    late = api(phone).post(check_in_url(t), {"codigo": checkin.venue_code(t.tournament)}, format="json")
    assert late.status_code == 400 and late.json()["code"] == "closed"
    assert "mesa de control" in late.json()["detail"]
    assert not checked_in(t.match.pair_a)


def test_the_eleventh_wrong_code_in_the_hour_is_a_429_like_on_the_page():
    t, phone = unplayed()
    client = api(phone)
    for _ in range(10):
        assert client.post(check_in_url(t), {"codigo": "AAAAAA"}, format="json").status_code == 400
    refused = client.post(check_in_url(t), {"codigo": checkin.venue_code(t.tournament)}, format="json")
    assert refused.status_code == 429  # the right code too: a locked-out phone learns nothing
    assert int(refused["Retry-After"]) > 0
    assert refused.json()["detail"].startswith("Demasiados códigos equivocados.")
    assert not checked_in(t.match.pair_a)
    # The window is the account's, shared with the page (torneo.views.terminals.SelfCheckInThrottle).
    page = APIClient()
    page.force_login(phone)
    assert page.post(f"/torneos/{t.tournament.slug}/presente/", {"codigo": "AAAAAA"}).status_code == 429
    # Another pair's phone is not locked out.
    other = api(t.player_b).post(check_in_url(t), {"codigo": checkin.venue_code(t.tournament)}, format="json")
    assert other.status_code == 200


def test_a_refusal_that_is_not_a_wrong_code_does_not_count():
    t, phone = unplayed()
    Round.objects.create(tournament=t.tournament, number=1, kind=Round.Kind.DRAW, status=Round.Status.PUBLISHED)
    client = api(phone)
    for _ in range(12):
        assert client.post(check_in_url(t), {"codigo": "AAAAAA"}, format="json").status_code == 400  # closed


def test_anonymous_and_strangers_are_refused():
    t, _phone = unplayed()
    code = checkin.venue_code(t.tournament)
    assert api().post(check_in_url(t), {"codigo": code}, format="json").status_code in (401, 403)
    stranger = api(UserFactory()).post(check_in_url(t), {"codigo": code}, format="json")
    assert stranger.status_code == 403 and stranger.json()["code"] == "forbidden"
    assert "Solo las parejas del torneo" in stranger.json()["detail"]
    staff = api(t.control).post(check_in_url(t), {"codigo": code}, format="json")  # the mesa has its own tap
    assert staff.status_code == 403
    missing = api(t.juez).post("/api/v1/tournaments/no-existe/self-check-in/", {"codigo": code}, format="json")
    assert missing.status_code == 404
    assert not Pair.objects.filter(tournament=t.tournament, checked_in_at__isnull=False).exists()


# --- «voy»: the juez answers a table's call -------------------------------------------------------


def call_from_the_table(t: Table) -> Incident:
    """The pair's terminal calls the juez from the table, by API (AMM 5.3)."""
    phone = terminal_issue(pair=t.match.pair_a, by=t.control).terminal.user
    sent = api(phone).post(
        f"/api/v1/tournaments/{t.tournament.slug}/incidents/",
        {"match": t.match.pk, "pair": "B", "article": "5.10", "description": "Hablan durante el lance"},
        format="json",
    )
    assert sent.status_code == 201, sent.json()
    call = Incident.objects.get(pk=sent.json()["id"])
    assert call.source == Incident.Source.PLAYER and call.answered_at is None
    return call


def answer_url(t: Table, call: Incident) -> str:
    return f"/api/v1/tournaments/{t.tournament.slug}/incidents/{call.pk}/answer/"


def test_the_juez_answers_a_call_voy():
    t = table()
    t.juez.first_name, t.juez.last_name = "Rosa", "Juez Ejemplo"
    t.juez.save()
    call = call_from_the_table(t)
    answer = api(t.juez).post(answer_url(t, call))
    assert answer.status_code == 200, answer.json()
    assert answer["Cache-Control"] == "no-store"
    call.refresh_from_db()
    assert call.answered_by == t.juez and call.answered_at is not None and call.answered_at >= call.reported_at
    shown = answer.json()
    assert shown["id"] == call.pk and shown["answered_at"] is not None
    assert shown["answered_by"] == "Rosa Juez Ejemplo"
    assert t.juez.get_username() not in str(shown["answered_by"])
    # The log shows it too; a second juez learns that somebody is going, and nothing changes.
    rows = api(t.organizer).get(f"/api/v1/tournaments/{t.tournament.slug}/incidents/").json()
    assert [row["answered_by"] for row in rows] == ["Rosa Juez Ejemplo"]
    again = api(t.organizer).post(answer_url(t, call))
    assert again.status_code == 400 and again.json()["code"] == "answered"
    assert "Ya va un juez a la mesa" in again.json()["detail"]
    call.refresh_from_db()
    assert call.answered_by == t.juez


def test_a_juez_without_a_name_is_the_tournaments_juez_never_a_username():
    t = table()
    call = call_from_the_table(t)
    shown = api(t.juez).post(answer_url(t, call)).json()
    assert shown["answered_by"] == "juez del torneo"
    unanswered = call_from_the_table(t)
    rows = {row["id"]: row for row in api(t.juez).get(f"/api/v1/tournaments/{t.tournament.slug}/incidents/").json()}
    assert rows[unanswered.pk]["answered_by"] is None and rows[unanswered.pk]["answered_at"] is None


def test_the_table_the_players_and_the_mesa_do_not_answer():
    t = table()
    call = call_from_the_table(t)
    phone = terminal_issue(pair=t.match.pair_a, by=t.control).terminal.user
    for who in (phone, t.player_a, t.player_b, t.control, UserFactory()):
        assert api(who).post(answer_url(t, call)).status_code == 403, who
    assert api().post(answer_url(t, call)).status_code in (401, 403)
    call.refresh_from_db()
    assert call.answered_by is None and call.answered_at is None


def test_a_call_of_another_tournament_or_a_closed_one_is_not_answered():
    t, other = table(), table()
    theirs = call_from_the_table(other)
    assert api(t.juez).post(answer_url(t, theirs)).status_code == 404
    for missing in ("999999", "abc", "0"):
        url = f"/api/v1/tournaments/{t.tournament.slug}/incidents/{missing}/answer/"
        assert api(t.juez).post(url).status_code == 404
    theirs.refresh_from_db()
    assert theirs.answered_at is None
    ours = call_from_the_table(t)
    Incident.objects.filter(pk=ours.pk).update(status=Incident.Status.DISMISSED)
    closed = api(t.juez).post(answer_url(t, ours))
    assert closed.status_code == 400 and closed.json()["code"] == "closed"


# --- the schema -----------------------------------------------------------------------------------


def test_the_schema_documents_both_actions():
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = schema["paths"]
    check_in = paths["/api/v1/tournaments/{slug}/self-check-in/"]["post"]
    assert "application/json" in check_in["requestBody"]["content"]
    assert {"200", "400", "403", "404", "429"} <= set(check_in["responses"])
    answer = paths["/api/v1/tournaments/{tournament_slug}/incidents/{id}/answer/"]["post"]
    assert {"200", "400", "403", "404"} <= set(answer["responses"])
    components = schema["components"]["schemas"]
    assert set(components["SelfCheckInRequest"]["required"]) == {"codigo"}
    assert {"pair", "checked_in_at"} <= set(components["SelfCheckInResult"]["properties"])
    assert {"answered_by", "answered_at"} <= set(components["Incident"]["properties"])
