"""``GET /salud/``: 200 when the database answers, the broker accepts a connection and beat ticked
lately; 503 with what failed otherwise; public and without secrets; checked at most every two
seconds per process however often it is asked."""

import datetime
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

import torneo.views.health
from torneo.models import WorkerHeartbeat
from torneo.services import system
from torneo.services.system import heartbeat_record

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torneo.views.health, "_last", None)


def get() -> Any:
    return Client().get("/salud/")


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
