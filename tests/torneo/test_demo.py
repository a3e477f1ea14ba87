"""The demo the run command loads: realistic, and safe to load twice."""

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils import timezone

from scoring.models import ClockEvent, DelayWarning, MatchClock
from torneo.demo.build import DEMO_SLUG, RUNNING_SLUG
from torneo.models import Match, Pair, Round, Tournament, TournamentRole

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _own_var_dir(settings, tmp_path):
    """Each test's demo writes its files (the logins, the tarjetas' links kept between runs) under a
    directory of its own: the test workers run the demo at once, each in its own database, and a
    shared var/demo-tarjetas.json read by one and written by another gave a link of the other's
    database (a link issued anew on the second run: a flake seen on CI)."""
    settings.VAR_DIR = tmp_path


def test_demo_builds_once_with_users_for_every_role(capsys):
    call_command("demo")
    first = capsys.readouterr().out
    call_command("demo")
    second = capsys.readouterr().out
    assert Tournament.objects.filter(slug__in=[DEMO_SLUG, RUNNING_SLUG]).count() == 2
    open_t = Tournament.objects.get(slug=DEMO_SLUG)
    assert Pair.objects.filter(tournament=open_t, status="confirmed").count() >= 48
    assert Pair.objects.filter(tournament=open_t).count() == 59  # not duplicated by the second run
    roles = set(TournamentRole.objects.filter(tournament=open_t).values_list("role", flat=True))
    assert roles == {"organizer", "control", "juez"}
    logins = json.loads((Path(settings.VAR_DIR) / "demo-logins.json").read_text())
    for username, password in logins.items():
        assert username in first and password in first and password in second


def test_the_running_demo_has_drawn_rounds_and_results():
    call_command("demo")
    running = Tournament.objects.get(slug=RUNNING_SLUG)
    rounds = list(running.rounds.order_by("number"))
    assert [r.status for r in rounds] == [Round.Status.PUBLISHED] * 3
    assert not Match.objects.filter(round__in=rounds[:2], outcome="pending").exists()
    assert Match.objects.filter(round=rounds[2], outcome="pending").exists()
    assert all(r.draws.get().witness.username == "juez" for r in rounds)


def test_the_running_demos_current_round_has_running_clocks():
    call_command("demo")
    current = Tournament.objects.get(slug=RUNNING_SLUG).rounds.order_by("number").last()
    clocks = MatchClock.objects.filter(match__round=current)
    assert clocks.count() == current.matches.exclude(pair_b=None).count()  # every table's clock started
    running = clocks.filter(started_at__isnull=False, finished_at__isnull=True)
    assert running.exists() and set(running.values_list("phase", flat=True)) == {"ajustes"}  # minute 52 (AMM 6.4)
    # The tables whose acta is in are over; the late pair's juego (6.1.b) and the warning (6.3) are there.
    assert not running.exclude(match__outcome=Match.Outcome.PENDING).exists()
    assert ClockEvent.objects.filter(clock__match__round=current, key="6.1.b:B:1").count() == 1
    assert DelayWarning.objects.filter(clock__match__round=current).count() == 1


def test_the_running_demo_has_incidents_and_a_sanction_that_cost_a_juego_amm_5_4():
    from referees.models import Incident, Sanction
    from scoring.selectors.clocks import match_clock

    call_command("demo")
    tournament = Tournament.objects.get(slug=RUNNING_SLUG)
    lost = Sanction.objects.get(tournament=tournament, step=Sanction.Step.JUEGO, status="in_force")
    assert Sanction.objects.filter(pair=lost.pair, step=Sanction.Step.APERCIBIMIENTO).count() == 1
    assert lost.juego is not None
    state = match_clock(lost.match, timezone.now()).state
    side = "A" if lost.pair_id == lost.match.pair_a_id else "B"
    assert state is not None and state.score["B" if side == "A" else "A"] == 1
    assert Incident.objects.filter(tournament=tournament, status="open").count() == 1


def test_the_running_demo_has_a_suplente_on_the_rounds_page_amm_5_8():
    from django.test import Client

    from referees.models import Substitution

    call_command("demo")
    tournament = Tournament.objects.get(slug=RUNNING_SLUG)
    sub = Substitution.objects.get(tournament=tournament)
    page = Client().get(f"/torneos/{tournament.slug}/rondas/{sub.match.round.number}/").content.decode()
    assert f"Koldo Etxeberria Lasa juega por {sub.replaced.full_name}" in page


def test_the_running_demo_prints_two_tarjetas_of_a_table_in_play_and_its_notices_reach_them(
    capsys, django_capture_on_commit_callbacks, settings, tmp_path
):
    """issue 33: the demo's notices — the two tarjetas of a table still playing, printed (the same
    links on a second run); the first pair's address gets the table's notices as e-mails."""
    from django.core import mail
    from django.test import Client

    from torneo.celery import app as celery_app
    from torneo.models import EmailSubscription
    from torneo.notices import notify_call_answered

    call_command("demo")
    first = capsys.readouterr().out
    call_command("demo")
    assert [line for line in first.splitlines() if "tarjeta" in line] == [
        line for line in capsys.readouterr().out.splitlines() if "tarjeta" in line
    ]
    links = [line.split(": ", 1)[1] for line in first.splitlines() if line.strip().startswith("tarjeta")]
    assert len(links) == 2
    phone = Client()
    opened = phone.get(links[0])
    assert opened.status_code == 303
    page = phone.get(opened["Location"]).content.decode()
    assert "Recibir avisos en este dispositivo" in page and "Recibir los avisos por correo" in page
    sub = EmailSubscription.objects.get()
    assert sub.consented_at is not None and sub.email.endswith("@demo.invalid")
    match = Match.objects.get(
        round__tournament__slug=RUNNING_SLUG, outcome=Match.Outcome.PENDING, pair_a=sub.pair
    )
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        with django_capture_on_commit_callbacks(execute=True):
            notify_call_answered(match=match, incident_id=999)
    finally:
        celery_app.conf.task_always_eager = eager
    [sent] = mail.outbox
    assert sent.to == [sub.email] and sent.subject == f"Mesa {match.table_number}: el juez va hacia la mesa"
