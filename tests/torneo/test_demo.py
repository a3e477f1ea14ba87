"""The demo the run command loads: realistic, and safe to load twice."""

import json
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from torneo.demo.build import DEMO_SLUG, RUNNING_SLUG
from torneo.models import Match, Pair, Round, Tournament, TournamentRole

pytestmark = pytest.mark.django_db


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
