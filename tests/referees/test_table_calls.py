"""«Llamar al juez» from the table (issue 32, item 4): a pair's phone (its tarjeta's terminal)
calls; the juez's desk shows the call by age with «Voy»; the juez taps it and the table reads «el
juez va hacia la mesa»; the call and its answer stay in the incident with their times."""

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from referees.models import Incident
from tests.scoring.test_hands_services import table
from torneo.services.terminals import terminal_issue, terminal_url

pytestmark = pytest.mark.django_db


def test_a_table_calls_the_juez_answers_voy_and_the_table_sees_it():
    t = table()
    slug = t.tournament.slug
    phone = Client()
    issued = terminal_issue(pair=t.match.pair_a, by=t.control)
    phone.get(terminal_url(t.tournament, issued.token).removeprefix(settings.SITE_URL))
    call_url = f"/torneos/{slug}/partida/{t.match.pk}/avisar-al-juez/"
    sent = phone.post(call_url, {"pair": "B", "article": "otra", "description": "Hablan durante el lance"}, follow=True)
    assert sent.redirect_chain[-1][0] == call_url
    assert "esperando a que un juez lo atienda" in sent.content.decode()
    call = Incident.objects.get()
    assert call.source == Incident.Source.PLAYER and call.answered_at is None
    juez = Client()
    juez.force_login(t.juez)
    desk = juez.get(f"/torneos/{slug}/gestion/juez/").content.decode()
    answer_url = f"/torneos/{slug}/gestion/juez/incidencia/{call.pk}/voy/"
    assert answer_url in desk
    assert phone.post(answer_url).status_code == 403  # the table does not answer its own call
    assert juez.post(answer_url).status_code == 302
    call.refresh_from_db()
    assert call.answered_by == t.juez and call.answered_at >= call.reported_at
    table_page = phone.get(call_url).content.decode()
    assert "el juez va hacia la mesa" in table_page and t.juez.get_username() not in table_page
    # A second juez sees that somebody is going; nothing changes.
    other = Client()
    other.force_login(t.organizer)
    again = other.post(answer_url, follow=True)
    assert "Ya va un juez a la mesa" in again.content.decode()
    assert Incident.objects.get().answered_by == t.juez
    # The log's spreadsheet says who called (the pair's phone) and who answered, and when.
    sheet = juez.get(f"/torneos/{slug}/gestion/incidencias.csv").content.decode("utf-8-sig")
    header, row = sheet.splitlines()[:2]
    assert header.endswith("Dio parte,Atendida por («voy»),Atendida a las")
    answered_at = timezone.localtime(call.answered_at).strftime("%Y-%m-%d %H:%M")
    assert row.endswith(f"Pareja {t.match.pair_a.number} · móvil,{t.juez.get_username()},{answered_at}")


def test_the_call_offers_the_frequent_reasons_first():
    """Issue 32, item 4: error en una mano, retraso, conducta, otra — the words a table uses."""
    t = table()
    phone = Client()
    phone.force_login(t.player_a)
    url = f"/torneos/{t.tournament.slug}/partida/{t.match.pk}/avisar-al-juez/"
    page = phone.get(url).content.decode()
    first = page.index("Otra: descríbela abajo")
    assert (
        first
        < page.index("Error en una mano (AMM 4.1a)")
        < page.index("Retraso (AMM 6.3)")
        < page.index("Conducta (AMM 5.10)")
    )
    assert phone.post(url, {"pair": "B", "article": "5.10"}).status_code == 302
    assert Incident.objects.get().article == "5.10"


def test_the_api_gives_the_table_its_calls_and_the_answer_not_their_words():
    """Issue 32, items 4 and 7: a pair's app calls the juez (POST incidents/) and reads, from the
    API as from the page, whether a juez is on the way (GET incidents/table/?match=): by name,
    never the username, nor what was written (the staff's). Only the table's players and staff."""
    from tests.factories import UserFactory

    t = table()
    base = f"/api/v1/tournaments/{t.tournament.slug}/incidents"
    phone = Client()
    issued = terminal_issue(pair=t.match.pair_a, by=t.control)
    phone.get(terminal_url(t.tournament, issued.token).removeprefix(settings.SITE_URL))
    body = {"match": t.match.pk, "pair": "B", "article": "5.3", "description": "Hablan durante el lance"}
    assert phone.post(f"{base}/", body, content_type="application/json").status_code == 201
    waiting = phone.get(f"{base}/table/", {"match": t.match.pk})
    assert waiting.status_code == 200 and "no-store" in waiting["Cache-Control"]
    (call,) = waiting.json()
    assert (call["answered"], call["answered_by"], call["answered_at"]) == (False, None, None)
    assert "description" not in call and "article" not in call
    juez = Client()
    juez.force_login(t.juez)
    assert juez.post(f"{base}/{call['id']}/answer/").status_code == 200
    (answered,) = phone.get(f"{base}/table/", {"match": t.match.pk}).json()
    assert answered["answered"] is True and answered["answered_at"] is not None
    assert answered["answered_by"] and t.juez.get_username() not in str(answered)
    rival = Client()
    rival.force_login(t.player_b)
    assert [c["id"] for c in rival.get(f"{base}/table/", {"match": t.match.pk}).json()] == [call["id"]]
    stranger = Client()
    stranger.force_login(UserFactory())
    assert stranger.get(f"{base}/table/", {"match": t.match.pk}).status_code == 403
    assert Client().get(f"{base}/table/", {"match": t.match.pk}).status_code in (401, 403)
    missing = phone.get(f"{base}/table/")
    assert missing.status_code == 400 and "match" in missing.json()
    for wrong in ("abc", "-1", "99999999999"):
        bad = phone.get(f"{base}/table/", {"match": wrong})
        assert bad.status_code == 400 and "match" in bad.json(), (wrong, bad.content)
    unknown = phone.get(f"{base}/table/", {"match": 999_998})
    assert unknown.status_code == 400 and "No hay ninguna partida" in unknown.json()["match"][0]
