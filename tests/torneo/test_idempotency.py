"""Issue 33, item 1: every API write honours ``Idempotency-Key`` (torneo/idempotency.py). A phone
that queued an acta offline, or lost an answer on the venue's Wi-Fi, sends it again with the same
key: it gets the first answer back and nothing is written twice; the same key for another request
is refused; a key is per account; a server error keeps nothing (and writes nothing), so the key can
be sent again."""

import datetime
import json
import time
import uuid
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

from scoring.models import ResultSubmission
from scoring.services import results as results_service
from tests.scoring.test_hands_services import table
from tests.scoring.test_result_report_pages import phone_of
from tests.torneo.test_concurrency import run_together
from torneo.idempotency import idempotency_purge
from torneo.models import IdempotentRequest

pytestmark = pytest.mark.django_db


def report(client: Client, slug: str, body: dict[str, Any], key: str | None = None, **extra: Any):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(
        f"/api/v1/tournaments/{slug}/submissions/report/",
        json.dumps(body),
        content_type="application/json",
        **headers,
        **extra,
    )


def test_the_same_key_twice_writes_once_and_answers_the_same():
    t = table()
    phone, key = phone_of(t, t.match.pair_a), str(uuid.uuid4())
    body = {"match": t.match.pk, "games_a": 3, "games_b": 1}
    first = report(phone, t.tournament.slug, body, key)
    again = report(phone, t.tournament.slug, body, key)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first
    assert ResultSubmission.objects.filter(match=t.match).count() == 1
    # Without a key the API is as before: a second report is a second version.
    assert report(phone, t.tournament.slug, body).status_code == 201
    assert ResultSubmission.objects.filter(match=t.match).count() == 2


def test_the_same_key_for_another_request_is_refused_in_spanish():
    t = table()
    phone, key = phone_of(t, t.match.pair_a), "clave-1"
    assert report(phone, t.tournament.slug, {"match": t.match.pk, "games_a": 3, "games_b": 1}, key).status_code == 201
    other = report(phone, t.tournament.slug, {"match": t.match.pk, "games_a": 3, "games_b": 2}, key)
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    assert "ya se usó para otra petición" in other.json()["detail"]
    assert ResultSubmission.objects.filter(match=t.match).count() == 1


def test_a_key_belongs_to_its_account():
    t = table()
    slug, key = t.tournament.slug, "misma-clave"
    phone_a, phone_b = phone_of(t, t.match.pair_a), phone_of(t, t.match.pair_b)
    body = {"match": t.match.pk, "games_a": 3, "games_b": 1}
    assert report(phone_a, slug, body, key).status_code == 201
    second = report(phone_b, slug, body, key)  # the other pair's own report: the same result counts at once
    assert second.status_code == 201 and "Idempotent-Replayed" not in second
    assert second.json()["status"] == "confirmed"  # its signature on the first: the same result counts


def test_a_refusal_is_kept_like_an_answer_and_a_bad_key_is_a_spanish_400():
    t = table()
    phone, slug = phone_of(t, t.match.pair_a), t.tournament.slug
    impossible = {"match": t.match.pk, "games_a": 3, "games_b": 3}
    first = report(phone, slug, impossible, "k-400")
    again = report(phone, slug, impossible, "k-400")
    assert first.status_code == again.status_code == 400 and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    for bad in ("", "x" * 101, "con espacio"):
        refused = report(phone, slug, {"match": t.match.pk, "games_a": 3, "games_b": 1}, bad)
        assert refused.status_code == 400 and "Idempotency-Key no es válida" in refused.json()["detail"], bad
    assert not ResultSubmission.objects.exists()


def test_a_server_error_keeps_nothing_writes_nothing_and_the_key_is_sent_again(monkeypatch):
    t = table()
    phone = phone_of(t, t.match.pair_a)
    phone.raise_request_exception = False
    original = results_service.result_report

    def half_way(**kwargs: Any):
        original(**kwargs)  # the acta is written…
        raise RuntimeError("el servidor se cae a mitad")  # …and the process fails before answering

    monkeypatch.setattr("scoring.api.results.result_report", half_way)
    body = {"match": t.match.pk, "games_a": 3, "games_b": 1}
    assert report(phone, t.tournament.slug, body, "k-500").status_code == 500
    assert not ResultSubmission.objects.exists() and not IdempotentRequest.objects.exists()
    monkeypatch.setattr("scoring.api.results.result_report", original)
    assert report(phone, t.tournament.slug, body, "k-500").status_code == 201
    assert ResultSubmission.objects.count() == 1


def test_a_key_being_answered_waits_and_one_whose_process_died_is_answered_again():
    t = table()
    phone, slug = phone_of(t, t.match.pair_a), t.tournament.slug
    body = {"match": t.match.pk, "games_a": 3, "games_b": 1}
    report(phone, slug, {"match": t.match.pk, "games_a": 3, "games_b": 0}, "k-409")  # learn the fingerprint
    row = IdempotentRequest.objects.get(key="k-409")
    IdempotentRequest.objects.filter(pk=row.pk).update(status=0)  # as if still being answered
    ResultSubmission.objects.all().delete()
    waiting = report(phone, slug, {"match": t.match.pk, "games_a": 3, "games_b": 0}, "k-409")
    assert waiting.status_code == 409 and waiting["Retry-After"] == "1"
    assert waiting.json()["code"] == "idempotency_in_flight" and not ResultSubmission.objects.exists()
    old = timezone.now() - datetime.timedelta(minutes=5)
    IdempotentRequest.objects.filter(pk=row.pk).update(created_at=old)
    answered = report(phone, slug, {"match": t.match.pk, "games_a": 3, "games_b": 0}, "k-409")
    assert answered.status_code == 201 and ResultSubmission.objects.count() == 1
    assert report(phone, slug, body, "k-other").status_code == 201


def test_a_token_is_an_account_too_and_reads_are_never_keyed():
    t = table()
    token = Token.objects.create(user=t.control)
    mesa = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    url = f"/api/v1/tournaments/{t.tournament.slug}/results/"
    body = json.dumps({"match": t.match.pk, "games_a": 3, "games_b": 1, "version": 0})
    first = mesa.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="mesa-1")
    again = mesa.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="mesa-1")
    assert first.status_code in (200, 201), first.json()
    assert again.status_code == first.status_code and again["Idempotent-Replayed"] == "true"
    assert ResultSubmission.objects.count() == 1
    assert "Idempotent-Replayed" not in mesa.get(url, HTTP_IDEMPOTENCY_KEY="mesa-1")
    # Anonymous: nothing to keep the key for; answered as without it.
    anonymous = Client().post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="mesa-1")
    assert anonymous.status_code in (401, 403) and IdempotentRequest.objects.count() == 1


def test_old_keys_are_forgotten():
    t = table()
    phone = phone_of(t, t.match.pair_a)
    report(phone, t.tournament.slug, {"match": t.match.pk, "games_a": 3, "games_b": 1}, "vieja")
    assert idempotency_purge(now=timezone.now() + datetime.timedelta(hours=23)) == 0
    assert idempotency_purge(now=timezone.now() + datetime.timedelta(hours=25)) == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_same_key_sent_twice_at_once_writes_once(on_postgres, monkeypatch):
    """Two sends of one queued acta racing each other (the page retried while the first was on its
    way): one writes; the other waits (409) or gets the same answer — never a second version."""
    t = table()
    phone_a = phone_of(t, t.match.pair_a)
    cookies = phone_a.cookies
    original = results_service.result_report

    def slow(**kwargs: Any):
        time.sleep(0.4)
        return original(**kwargs)

    monkeypatch.setattr("scoring.api.results.result_report", slow)

    def send() -> int:
        client = Client()
        client.cookies = cookies
        response = report(client, t.tournament.slug, {"match": t.match.pk, "games_a": 3, "games_b": 1}, "a-la-vez")
        return response.status_code

    statuses = sorted(run_together(send, send))
    assert statuses in ([201, 201], [201, 409]), statuses
    assert ResultSubmission.objects.filter(match=t.match).count() == 1
