"""Self check-in with the venue's code (issue 32, item 5): the projector shows a code that changes
every five minutes; a pair's phone (its terminal or a player's account) types or scans it and the
pair is present. A photo sent home stops working; guesses are limited; the mesa's one tap stays."""

import datetime

import pytest
import time_machine
from django.conf import settings
from django.test import Client
from django.utils import timezone

from tests.factories import UserFactory
from tests.scoring.test_hands_services import table
from torneo.errors import TournamentError
from torneo.models import Pair, Round
from torneo.services import self_check_in as checkin
from torneo.services.terminals import terminal_issue, terminal_url

pytestmark = pytest.mark.django_db
NOW = datetime.datetime(2026, 12, 12, 9, 2, tzinfo=datetime.UTC)


def unplayed():
    """A tournament whose first round is not drawn yet, with its pair A's phone."""
    t = table()
    Round.objects.filter(tournament=t.tournament).delete()
    Pair.objects.filter(tournament=t.tournament).update(checked_in_at=None)
    phone = Client()
    issued = terminal_issue(pair=t.match.pair_a, by=t.control)
    phone.get(terminal_url(t.tournament, issued.token).removeprefix(settings.SITE_URL))
    return t, phone


def test_the_code_changes_every_five_minutes_and_the_previous_one_still_works():
    t, _phone = unplayed()
    code = checkin.venue_code(t.tournament, at=NOW)
    assert len(code) == 6 and code == checkin.venue_code(t.tournament, at=NOW + datetime.timedelta(seconds=30))
    later = NOW + datetime.timedelta(minutes=5)
    assert checkin.venue_code(t.tournament, at=later) != code
    assert checkin.venue_code_valid(t.tournament, code.lower(), at=later)  # typed in lower case, just changed
    assert not checkin.venue_code_valid(t.tournament, code, at=NOW + datetime.timedelta(minutes=11))
    other, _ = unplayed()
    assert checkin.venue_code(other.tournament, at=NOW) != code  # each tournament its own


def test_a_pairs_phone_checks_in_with_the_code_on_the_screen():
    t, phone = unplayed()
    mesa = Client()
    mesa.force_login(t.control)
    screen = mesa.get(f"/torneos/{t.tournament.slug}/gestion/presencia/codigo/")
    code = checkin.venue_code(t.tournament)
    assert screen.status_code == 200 and code in screen.content.decode()
    url = f"/torneos/{t.tournament.slug}/presente/"
    assert code in phone.get(f"{url}?codigo={code}").content.decode()  # the QR fills it in
    done = phone.post(url, {"codigo": code})
    assert done.status_code == 302 and done["Location"].endswith(f"/parejas/{t.match.pair_a.number}/ficha/")
    t.match.pair_a.refresh_from_db()
    t.match.pair_b.refresh_from_db()
    assert t.match.pair_a.checked_in_at is not None and t.match.pair_b.checked_in_at is None


def test_a_photo_sent_home_stops_working_and_guesses_are_limited():
    t, phone = unplayed()
    url = f"/torneos/{t.tournament.slug}/presente/"
    old = checkin.venue_code(t.tournament, at=timezone.now() - datetime.timedelta(minutes=15))
    refused = phone.post(url, {"codigo": old})
    assert refused.status_code == 400 and "código de la sala" in refused.content.decode()
    for _ in range(9):
        phone.post(url, {"codigo": "AAAAAA"})
    assert phone.post(url, {"codigo": checkin.venue_code(t.tournament)}).status_code == 429
    t.match.pair_a.refresh_from_db()
    assert t.match.pair_a.checked_in_at is None


def test_closed_before_the_jornada_and_once_round_one_is_prepared_or_drawn():
    t, phone = unplayed()
    from torneo.models import Session

    Session.objects.create(tournament=t.tournament, name="Jornada", starts_at=NOW)
    url = f"/torneos/{t.tournament.slug}/presente/"
    with time_machine.travel(NOW - datetime.timedelta(hours=3), tick=False):
        early = phone.post(url, {"codigo": checkin.venue_code(t.tournament)})
        assert early.status_code == 400 and "se abre a las" in early.content.decode()
    # Round one prepared (its commitment names the pairs present, AMM 5.5): already closed, or the
    # pair checking in would make the draw's publication fail.
    first = Round.objects.create(
        tournament=t.tournament, number=1, kind=Round.Kind.DRAW, status=Round.Status.PREPARED
    )
    prepared = phone.post(url, {"codigo": checkin.venue_code(t.tournament)})
    assert prepared.status_code == 400 and "ya está preparado con las parejas presentes" in prepared.content.decode()
    Round.objects.filter(pk=first.pk).update(status=Round.Status.PUBLISHED)
    late = phone.post(url, {"codigo": checkin.venue_code(t.tournament)})
    assert late.status_code == 400 and "ya está sorteada" in late.content.decode()
    t.match.pair_a.refresh_from_db()
    assert t.match.pair_a.checked_in_at is None


def test_a_check_in_that_waited_for_the_draws_preparation_is_refused_under_its_lock(monkeypatch):
    """The mesa prepares round 1 (under the tournament row's lock) while a phone checks in: the
    phone's first look saw nothing prepared, and it waited for the lock. Once it has the lock it
    looks again, finds round 1 prepared, and is refused — not written after the commitment, which
    would make the draw's publication fail (AMM 5.5)."""
    t, _phone = unplayed()
    phone_account = t.match.pair_a.terminal.user
    Round.objects.create(tournament=t.tournament, number=1, kind=Round.Kind.DRAW, status=Round.Status.PREPARED)
    real = checkin.self_check_in_refusal
    looks: list[str | None] = []

    def before_the_preparation_then_real(tournament, *, at=None):
        looks.append(None if not looks else real(tournament, at=at))
        return looks[-1]

    monkeypatch.setattr(checkin, "self_check_in_refusal", before_the_preparation_then_real)
    with pytest.raises(TournamentError, match="ya está preparado") as refused:
        checkin.pair_self_check_in(tournament=t.tournament, by=phone_account, code=checkin.venue_code(t.tournament))
    assert refused.value.code == "closed" and len(looks) == 2
    t.match.pair_a.refresh_from_db()
    assert t.match.pair_a.checked_in_at is None


def test_only_the_tournaments_pairs_check_in_and_only_staff_see_the_screen():
    t, phone = unplayed()
    stranger = Client()
    stranger.force_login(UserFactory())
    code = checkin.venue_code(t.tournament)
    assert stranger.post(f"/torneos/{t.tournament.slug}/presente/", {"codigo": code}).status_code == 403
    assert phone.get(f"/torneos/{t.tournament.slug}/gestion/presencia/codigo/").status_code == 403
    juez = Client()
    juez.force_login(t.juez)
    assert juez.get(f"/torneos/{t.tournament.slug}/gestion/presencia/codigo/").status_code == 403
