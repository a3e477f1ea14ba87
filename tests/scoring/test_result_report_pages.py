"""Reporting and confirming at the table, through the pages (issue 32, item 2): two phones of two
pairs, each opened with its tarjeta's link; one reports, the other confirms, and the result counts
without the mesa."""

import pytest
from django.test import Client

from scoring.models import ResultSubmission
from tests.scoring.test_hands_services import table
from torneo.models import Match
from torneo.services.terminals import terminal_issue, terminal_url

pytestmark = pytest.mark.django_db


def phone_of(t, pair) -> Client:
    from django.conf import settings

    phone = Client()
    issued = terminal_issue(pair=pair, by=t.control)
    assert phone.get(terminal_url(t.tournament, issued.token).removeprefix(settings.SITE_URL)).status_code == 303
    return phone


def test_one_pair_reports_the_other_confirms_on_its_phone_and_it_counts():
    t = table()
    slug, match = t.tournament.slug, t.match
    phone_a, phone_b = phone_of(t, match.pair_a), phone_of(t, match.pair_b)
    page_a = phone_a.get(f"/torneos/{slug}/parejas/{match.pair_a.number}/ficha/").content.decode()
    report_url = f"/torneos/{slug}/partidas/{match.pk}/anotar/"
    assert report_url in page_a
    form = phone_a.get(report_url)
    assert form.status_code == 200 and f"Juegos de la pareja {match.pair_a.number}" in form.content.decode()
    sent = phone_a.post(report_url, {"games_a": "3", "games_b": "1", "tantos": ""}, follow=True)
    assert sent.redirect_chain[-1][0].endswith(f"/parejas/{match.pair_a.number}/ficha/")
    body_a = sent.content.decode()
    assert "falta que lo confirme la otra pareja" in body_a and "pendiente de la otra pareja" in body_a
    sub = ResultSubmission.objects.get(match=match)
    page_b = phone_b.get(f"/torneos/{slug}/parejas/{match.pair_b.number}/ficha/").content.decode()
    assert "Resultado pendiente de vuestra confirmación" in page_b
    confirm_url = f"/torneos/{slug}/resultados/acta/{sub.pk}/confirmar/"
    assert confirm_url in page_b
    assert phone_a.post(confirm_url).status_code == 403  # never its own report
    assert phone_b.post(confirm_url).status_code == 302
    match = Match.objects.get(pk=match.pk)
    assert match.outcome == Match.Outcome.PLAYED and (match.games_a, match.games_b) == (3, 1)


def test_an_impossible_report_is_a_spanish_error_on_its_field_and_writes_nothing():
    t = table()
    phone = phone_of(t, t.match.pair_b)
    response = phone.post(
        f"/torneos/{t.tournament.slug}/partidas/{t.match.pk}/anotar/", {"games_a": "3", "games_b": "3"}
    )
    assert response.status_code == 400 and 'role="alert"' in response.content.decode()
    assert not ResultSubmission.objects.exists()


def test_only_the_tables_pairs_open_the_report_page():
    t = table()
    other = table(number=2)
    url = f"/torneos/{t.tournament.slug}/partidas/{t.match.pk}/anotar/"
    stranger = phone_of(other, other.match.pair_a)
    assert stranger.get(url).status_code in (403, 404)
    juez = Client()
    juez.force_login(t.juez)
    assert juez.get(url).status_code == 403
    assert Client().get(url).status_code == 302  # anonymous: the login page
    assert not ResultSubmission.objects.exists()


def test_the_api_reports_and_the_other_pair_confirms_through_it():
    """Issue 32, item 7: the same through the API (DRF, in the schema), with the terminals' sessions."""
    t = table()
    slug, match = t.tournament.slug, t.match
    phone_a, phone_b = phone_of(t, match.pair_a), phone_of(t, match.pair_b)
    api = f"/api/v1/tournaments/{slug}/submissions"
    body = {"match": match.pk, "games_a": 0, "games_b": 3}
    created = phone_a.post(f"{api}/report/", body, content_type="application/json")
    assert created.status_code == 201 and created.json()["status"] == "proposed"
    assert [s["id"] for s in phone_a.get(f"{api}/").json()] == []  # never its own to sign
    listed = phone_b.get(f"{api}/").json()
    assert [s["id"] for s in listed] == [created.json()["id"]]
    confirmed = phone_b.post(f"{api}/{created.json()['id']}/confirm/", content_type="application/json")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
    assert Match.objects.get(pk=match.pk).winner_id == match.pair_b_id


def test_the_api_refuses_a_bad_report_in_spanish_on_its_field_and_strangers():
    t = table()
    other = table(number=2)
    phone = phone_of(t, t.match.pair_a)
    api = f"/api/v1/tournaments/{t.tournament.slug}/submissions/report/"
    bad = phone.post(api, {"match": t.match.pk, "games_a": 3, "games_b": 3}, content_type="application/json")
    assert bad.status_code == 400 and ("games_a" in bad.json() or "games_b" in bad.json()), bad.json()
    elsewhere = phone.post(api, {"match": other.match.pk, "games_a": 3, "games_b": 0}, content_type="application/json")
    assert elsewhere.status_code in (403, 404)
    anonymous = Client().post(api, {"match": t.match.pk, "games_a": 3, "games_b": 0}, content_type="application/json")
    assert anonymous.status_code in (401, 403)
    assert not ResultSubmission.objects.exists()


def test_the_players_read_who_entered_an_acta_by_name_never_by_username():
    """Security round two, item 3, on the submissions API: the table's pairs read the mesa's or the
    other pair's entry by name; the staff still read usernames."""
    t = table()
    t.control.first_name, t.control.last_name = "Marta", "Mesa"
    t.control.save()
    from scoring.services.results import result_submit

    t.tournament.results_double_check = True
    t.tournament.save()
    result_submit(match=t.match, by=t.control, games_a=0, games_b=3)
    phone = phone_of(t, t.match.pair_a)  # the losing pair signs
    listed = phone.get(f"/api/v1/tournaments/{t.tournament.slug}/submissions/").json()
    assert [s["submitted_by"] for s in listed] == ["Marta Mesa"]
    assert t.control.get_username() not in str(listed)
    staff = Client()
    staff.force_login(t.organizer)
    assert staff.get(f"/api/v1/tournaments/{t.tournament.slug}/submissions/").json()[0]["submitted_by"] == (
        t.control.get_username()
    )


def test_the_mesa_reads_a_phones_report_as_its_pair_never_as_the_phones_account():
    """The desk names who entered an acta by username (the mesa tells its own by it); a pair's
    phone has a random username nobody reads: the desk says «Pareja N · móvil»."""
    t = table()
    slug, match = t.tournament.slug, t.match
    phone = phone_of(t, match.pair_a)
    sent = phone.post(f"/torneos/{slug}/partidas/{match.pk}/anotar/", {"games_a": "3", "games_b": "1"})
    assert sent.status_code == 302
    mesa = Client()
    mesa.force_login(t.control)
    named = f"Pareja {match.pair_a.number} · móvil"
    pending = mesa.get(f"/api/v1/tournaments/{slug}/results/pending/?round={match.round.number}").json()
    assert [row["by"] for row in pending["awaiting"]] == [named]
    lookup = mesa.get(
        f"/api/v1/tournaments/{slug}/results/lookup/?round={match.round.number}&table={match.table_number}"
    )
    assert lookup.json()["proposed"]["by"] == named, lookup.json()
    for page in (f"/torneos/{slug}/gestion/resultados/partida/{match.pk}/", f"/torneos/{slug}/gestion/resultados/"):
        body = mesa.get(page).content.decode()
        assert "terminal-" not in body, page
    history = mesa.get(f"/torneos/{slug}/gestion/resultados/partida/{match.pk}/").content.decode()
    assert named in history
