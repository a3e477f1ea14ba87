"""Concurrent writes on PostgreSQL: registrations from the public form and the mesa de control at
the same moment must never both take the last place or put one person in two pairs."""

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from tests.factories import TournamentFactory, player_data
from torneo.models import Pair
from torneo.services import registrations
from torneo.services.registrations import pair_register

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_together(*jobs: Callable[[], Any]) -> list[Any]:
    """Start the jobs in threads at the same instant; return each result or raised exception."""
    barrier = threading.Barrier(len(jobs))
    results: list[Any] = [None] * len(jobs)

    def runner(index: int, job: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = job()
        except Exception as exc:
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=runner, args=(i, job)) for i, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return results


@pytest.fixture
def slow_book(monkeypatch: pytest.MonkeyPatch) -> None:
    """Widen the race: every registration waits after reading the tournament's state, as a busy
    server might. Without the tournament row lock both writers would then decide on stale data."""
    original = registrations.RegistrationBook.__init__

    def slow_init(self: Any, tournament: Any) -> None:
        original(self, tournament)
        time.sleep(0.3)

    monkeypatch.setattr(registrations.RegistrationBook, "__init__", slow_init)


def test_two_pairs_racing_for_the_last_place(on_postgres: None, slow_book: None) -> None:
    t = TournamentFactory(max_pairs=1)
    results = run_together(
        lambda: pair_register(tournament=t, players=[player_data(1), player_data(2)]),
        lambda: pair_register(tournament=t, players=[player_data(3), player_data(4)]),
    )
    assert all(isinstance(r, Pair) for r in results), results
    assert sorted(r.status for r in results) == ["confirmed", "waitlisted"]
    assert Pair.objects.filter(tournament=t).count() == 2  # nothing lost


def test_one_person_entered_twice_at_once(on_postgres: None, slow_book: None) -> None:
    t = TournamentFactory()
    results = run_together(
        lambda: pair_register(tournament=t, players=[player_data(1), player_data(2)]),
        lambda: pair_register(tournament=t, players=[player_data(1), player_data(3)]),
    )
    assert sum(isinstance(r, Pair) for r in results) == 1
    errors = [r for r in results if isinstance(r, ValidationError)]
    assert len(errors) == 1 and "ya está inscrito" in str(errors[0])
    assert Pair.objects.filter(tournament=t).count() == 1


def test_many_simultaneous_registrations_get_distinct_numbers(on_postgres: None) -> None:
    t = TournamentFactory(max_pairs=5)
    results = run_together(
        *[
            (lambda n=n: pair_register(tournament=t, players=[player_data(2 * n + 10), player_data(2 * n + 11)]))
            for n in range(8)
        ]
    )
    assert all(isinstance(r, Pair) for r in results), results
    assert sorted(r.number for r in results) == list(range(1, 9))
    assert Pair.objects.filter(tournament=t, status="confirmed").count() == 5
