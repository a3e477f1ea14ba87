"""Issue 32, item 6: a pair's link is a key whoever holds the card has, so what a pair writes from
its phone — a result reported, confirmed or refused, a call to the juez — is rate-limited per
account and tournament (RATELIMIT_TABLE_WRITE, torneo/ratelimit.py::TableWriteThrottle), in
Spanish with Retry-After, through the pages and the API alike, with nothing written past the
limit. The tournament's staff (the mesa confirms hundreds of actas) are never limited by it."""

import pytest
from django.test import Client

from referees.models import Incident
from scoring.models import ResultSubmission
from tests.scoring.test_hands_services import table
from tests.scoring.test_result_report_pages import phone_of
from torneo.ratelimit import table_write_wait

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_an_hour(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "table_write": "3/hour"},
    }


def test_a_phone_looping_on_reports_is_refused_in_spanish_and_nothing_more_is_written(three_an_hour):
    t = table()
    slug, match = t.tournament.slug, t.match
    phone = phone_of(t, match.pair_a)
    api = f"/api/v1/tournaments/{slug}/submissions/report/"
    for games_b in (0, 1, 2):  # a report and two corrections: each one a new version
        sent = phone.post(api, {"match": match.pk, "games_a": 3, "games_b": games_b}, content_type="application/json")
        assert sent.status_code == 201, sent.json()
    refused = phone.post(api, {"match": match.pk, "games_a": 3, "games_b": 0}, content_type="application/json")
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "Demasiados envíos desde la mesa" in refused.json()["detail"]
    assert ResultSubmission.objects.filter(match=match).count() == 3
    # The pages share the window: the report page and the call to the juez answer the 429 page.
    page = phone.post(f"/torneos/{slug}/partidas/{match.pk}/anotar/", {"games_a": "3", "games_b": "1"})
    assert page.status_code == 429 and "Demasiados envíos desde la mesa" in page.content.decode()
    call = phone.post(
        f"/torneos/{slug}/partida/{match.pk}/avisar-al-juez/", {"pair": "B", "reason": "otra", "description": "x"}
    )
    assert call.status_code == 429 and not Incident.objects.exists()
    # Reading is never limited; the other pair's phone has its own window.
    assert phone.get(f"/torneos/{slug}/parejas/{match.pair_a.number}/ficha/").status_code == 200
    other = phone_of(t, match.pair_b)
    sub = ResultSubmission.objects.filter(match=match).order_by("-pk").first()
    confirmed = other.post(f"/api/v1/tournaments/{slug}/submissions/{sub.pk}/confirm/")
    assert confirmed.status_code == 200, confirmed.json()


def test_the_mesa_is_never_limited_by_the_tables_window(three_an_hour):
    t = table()
    mesa = Client()
    mesa.force_login(t.control)
    slug = t.tournament.slug
    phone = phone_of(t, t.match.pair_a)
    api = f"/api/v1/tournaments/{slug}/submissions"
    for games_b in (0, 1, 2, 0, 1):  # the pair reports, the mesa refuses it, five times over
        sent = phone.post(
            f"{api}/report/", {"match": t.match.pk, "games_a": 3, "games_b": games_b}, content_type="application/json"
        )
        if sent.status_code == 429:
            break
        refused = mesa.post(
            f"{api}/{sent.json()['id']}/reject/", {"reason": "No coincide"}, content_type="application/json"
        )
        assert refused.status_code == 200, refused.json()
    assert sent.status_code == 429  # the phone was cut at its fourth write
    for staff in (t.control, t.juez, t.organizer):  # the staff are never counted, however many writes
        assert all(table_write_wait(staff, t.tournament) is None for _ in range(10))
