"""``GET /salud/``: 200 when the database answers, the broker accepts a connection and beat ticked
lately; 503 with what failed otherwise; the details for the site's staff only (anonymous visitors
read ok / not ok); without secrets; checked at most every two seconds per process however often it
is asked."""

import datetime
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

import torneo.views.health
from torneo.models import WorkerHeartbeat
from torneo.services import system
from torneo.services.system import heartbeat_record

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torneo.views.health, "_last", None)


def get() -> Any:
    """As the site's staff, who read every check."""
    client = Client()
    client.force_login(User.objects.get_or_create(username="sistemas", defaults={"is_staff": True})[0])
    return client.get("/salud/")


def test_anonymous_visitors_read_only_ok_never_the_database_or_the_broker() -> None:
    """Security round two: the vendor of the database and the broker's class are for the staff."""
    heartbeat_record(name="beat")
    anonymous = Client().get("/salud/")
    assert anonymous.status_code == 200 and anonymous.json() == {"ok": True}
    body = anonymous.content.decode()
    assert "database" not in body and "broker" not in body and "sqlite" not in body and "postgresql" not in body
    player = User.objects.create_user("jugador")
    signed_in = Client()
    signed_in.force_login(player)
    assert signed_in.get("/salud/").json() == {"ok": True}  # an account, but not the site's staff
    staff = User.objects.create_user("monitor", is_staff=True)
    token = Token.objects.create(user=staff)
    detailed = Client().get("/salud/", HTTP_AUTHORIZATION=f"Token {token.key}").json()
    assert detailed["ok"] is True and detailed["database"]["ok"] and detailed["broker"]["ok"]
    assert Client().get("/salud/", HTTP_AUTHORIZATION="Token falso").json() == {"ok": True}
    WorkerHeartbeat.objects.all().delete()
    torneo.views.health._last = None
    down = Client().get("/salud/")
    assert down.status_code == 503 and down.json() == {"ok": False}


def test_healthy_when_the_database_the_broker_and_beat_answer() -> None:
    heartbeat_record(name="beat")
    response = get()
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    data = response.json()
    assert data["ok"] is True
    assert data["database"]["ok"] and data["broker"]["ok"] and data["beat"]["ok"]
    assert 0 <= data["beat"]["last_tick_seconds_ago"] < 5


def test_beat_never_ticked_or_stopped_is_a_503() -> None:
    response = get()
    assert response.status_code == 503
    assert response.json()["beat"] == {"ok": False, "last_tick_seconds_ago": None, "stale_after_seconds": 30.0}
    heartbeat_record(name="beat")
    WorkerHeartbeat.objects.update(beat_at=timezone.now() - datetime.timedelta(minutes=5))
    torneo.views.health._last = None
    data = get().json()
    assert data["ok"] is False and data["beat"]["ok"] is False and data["beat"]["last_tick_seconds_ago"] >= 300


def test_a_broker_that_refuses_is_a_503_naming_the_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    heartbeat_record(name="beat")

    def down() -> str:
        raise ConnectionRefusedError("redis:6379")

    monkeypatch.setattr(system, "_broker", down)
    response = get()
    assert response.status_code == 503
    assert response.json()["broker"]["ok"] is False and response.json()["broker"]["detail"] == "ConnectionRefusedError"
    assert response.json()["database"]["ok"] is True


def test_the_answer_carries_no_secret_and_is_checked_at_most_every_two_seconds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    heartbeat_record(name="beat")
    calls = []
    real = system.health
    monkeypatch.setattr(torneo.views.health, "health", lambda: calls.append(1) or real())
    bodies = [get().content.decode() for _ in range(20)]
    assert len(calls) == 1  # twenty requests, one check
    assert settings.SECRET_KEY not in bodies[0] and "://" not in bodies[0] and "password" not in bodies[0].lower()
