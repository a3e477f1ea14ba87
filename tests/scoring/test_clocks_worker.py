"""The match clocks' beat task with a REAL Celery worker and beat (as tests/torneo/test_celery_worker.py:
a subprocess on the server-less file-system broker, its own VAR_DIR, against the test database),
ticking every second (CLOCK_TICK_SECONDS=1). A round's clocks started 21 minutes ago with pairs
missing (AMM 6.1.b): the worker is killed with SIGKILL — no shutdown, its tick possibly half done —
as soon as the first penalties are written, while one table's penalty is not yet due (its clock
paused at 19.95 minutes); started again, it applies what is left. Every penalty exists exactly
once, and exactly the ones the pure rules (torneo.clock.state) make due."""

from __future__ import annotations

import contextlib
import datetime
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from django.db.models import Count
from django.utils import timezone

from scoring.models import ClockEvent, MatchClock, ResultSubmission
from scoring.services import clocks as svc
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from tests.torneo.test_celery_worker import database_url
from torneo.clock import AMM, PRESETS, Partida, state
from torneo.clock.partida import Side
from torneo.models import Match, Tournament

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]
STARTUP = 20.0  # seconds a worker may take to start and write what is due


def start_worker(
    var_dir: Path, log: Path, *, schedule: Path | None = None, **extra_env: str
) -> subprocess.Popen[bytes]:
    """``celery worker --beat`` in its own process group (beat is a child process: one killpg
    takes both), its own broker and beat schedule under ``var_dir`` (the schedule elsewhere with
    ``schedule``), ticking every second; ``extra_env``: more environment for the worker."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "VAR_DIR": str(var_dir),
        "CLOCK_TICK_SECONDS": "1",
        **extra_env,
    }
    with log.open("ab") as out:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "torneo.celery",
                "worker",
                "--beat",
                "--pool=solo",
                "--loglevel=INFO",
                "--schedule",
                str(schedule or var_dir / "beat-schedule"),
                "--pidfile=",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def kill(worker: subprocess.Popen[bytes]) -> None:
    """SIGKILL to the worker's whole process group (worker and embedded beat): no clean shutdown."""
    with contextlib.suppress(ProcessLookupError):  # the group is gone already
        os.killpg(worker.pid, signal.SIGKILL)
    worker.wait(timeout=10)


def wait_for(done: Callable[[], bool], worker: subprocess.Popen[bytes], log: Path, what: str) -> None:
    deadline = time.monotonic() + STARTUP
    while not done():
        assert worker.poll() is None, f"the worker stopped:\n{log.read_text(errors='replace')[-3000:]}"
        assert time.monotonic() < deadline, (
            f"{what}: not within {STARTUP:.0f} s\n{log.read_text(errors='replace')[-3000:]}"
        )
        time.sleep(0.1)


def keys_by_match(matches: list[Match]) -> dict[int, set[str]]:
    """The event keys written for each match (by its pk)."""
    out: dict[int, set[str]] = {m.pk: set() for m in matches}
    for match_id, key in ClockEvent.objects.values_list("clock__match_id", "key"):
        out[match_id].add(key)
    return out


def due(tournament: Tournament, missing: dict[Side, float | None], minute: float) -> set[str]:
    """The keys the pure rules make due for a partida with these absences at this minute."""
    facts = Partida(
        minute=minute,
        games_to_win=tournament.games_to_win,
        points_per_game=tournament.points_per_game,
        missing=missing,
        rules=PRESETS.get(tournament.clock_rules, AMM),
    )
    return {key for key, _article, _data in svc.due_events(state(facts))}


def test_a_worker_killed_mid_way_and_restarted_applies_every_penalty_exactly_once_amm_6_1_b(tmp_path: Path) -> None:
    sim = new_tournament(10, seed=61, format=Tournament.Format.CEROS, max_losses=2)
    tournament = sim.tournament
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(username="juez-relojes"), tournament, "juez")
    matches = playing(round_)
    assert len(matches) == 5
    gone, arrives, both, paused, on_time = matches
    start = timezone.now() - datetime.timedelta(minutes=21)

    def at(minutes: float) -> datetime.datetime:
        return start + datetime.timedelta(minutes=minutes)

    assert svc.clocks_start_round(round=round_, by=juez, at=start) == 5
    svc.clock_absence(match=gone, by=juez, pair="A", at=at(0.5))  # never arrives
    svc.clock_absence(match=arrives, by=juez, pair="B", at=at(0.5))
    svc.clock_absence(match=arrives, by=juez, pair="B", arrived=True, at=at(12))  # complete at minute 12
    for side in ("A", "B"):
        svc.clock_absence(match=both, by=juez, pair=side, at=at(0.5))  # neither pair ever complete
    svc.clock_absence(match=paused, by=juez, pair="A", at=at(0.5))
    svc.clock_pause(match=paused, by=juez, reason="Jugador indispuesto", at=at(19.95))  # 3 s before minute 20

    # What the pure rules make due: before the kill (the paused table stopped at 19.95) and at the end.
    first = {
        gone.pk: due(tournament, {"A": None}, 21),
        arrives.pk: due(tournament, {"B": 12}, 21),
        both.pk: due(tournament, {"A": None, "B": None}, 21),
        paused.pk: due(tournament, {"A": None}, 19.95),
        on_time.pk: due(tournament, {}, 21),
    }
    final = {**first, paused.pk: due(tournament, {"A": None}, 20.5)}
    partida_a = {"6.1.b:A:1", "6.1.b:A:2", "6.1.b:A:partida", "fase:terminada"}
    assert final == {
        gone.pk: partida_a,
        arrives.pk: {"6.1.b:B:1"},  # complete at 12: the juego of minute 15 is not lost
        both.pk: partida_a | {"6.1.b:B:1", "6.1.b:B:2", "6.1.b:B:partida"},
        paused.pk: partida_a,
        on_time.pk: set(),
    }
    assert first[paused.pk] == {"6.1.b:A:1", "6.1.b:A:2"}
    assert not ClockEvent.objects.exists()

    log = tmp_path / "worker.log"
    worker = start_worker(tmp_path, log)
    try:
        wait_for(ClockEvent.objects.exists, worker, log, "the first tick's penalties")
        kill(worker)  # at once: mid-way, possibly inside the next tick's transaction
        seen = keys_by_match(matches)
        # Some, not all: the paused table's partida is not due yet; what was written is all due.
        assert seen == first, seen
        assert seen != final

        svc.clock_resume(match=paused, by=juez)  # its clock runs on from 19.95: minute 20 in 3 s
        worker = start_worker(tmp_path, log)  # the same broker and beat schedule, left as the kill left them
        wait_for(lambda: keys_by_match(matches) == final, worker, log, "every penalty due")
        time.sleep(2.5)  # two more ticks: nothing is written again
        assert worker.poll() is None, log.read_text(errors="replace")[-3000:]
    finally:
        kill(worker)

    assert keys_by_match(matches) == final
    counts = Counter(
        {
            (row["clock_id"], row["key"]): row["n"]
            for row in ClockEvent.objects.values("clock_id", "key").annotate(n=Count("pk"))
        }
    )
    assert sum(counts.values()) == ClockEvent.objects.count() == sum(len(keys) for keys in final.values()) == 16
    assert set(counts.values()) == {1}  # each (clock, key) exactly once
    clocks = {c.match_id: c for c in MatchClock.objects.all()}
    for match in (gone, both, paused):
        assert clocks[match.pk].phase == "terminada" and clocks[match.pk].finished_at is not None
    for match in (arrives, on_time):
        assert clocks[match.pk].phase == "normal" and clocks[match.pk].finished_at is None
    # What each ended clock decided is proposed as the result, exactly once (AMM 6.1.b, 3.16).
    proposals = Counter(
        ResultSubmission.objects.filter(source=ResultSubmission.Source.CLOCK).values_list("match_id", "outcome")
    )
    assert proposals == {(gone.pk, "walkover"): 1, (both.pk, "double_loss"): 1, (paused.pk, "walkover"): 1}
