"""What the players' and the jueces' phones are told (issue 33, item 3; torneo/notices.py), end to
end: the event through its service, the push encrypted by the site (RFC 8291) to a push push_service
on this machine, decrypted there with the subscription's keys. Each notice is sent once."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import pytest

from referees.services.incidents import incident_answer, incident_report
from scoring.selectors.clocks import match_clock
from scoring.services import clocks as clock_services
from scoring.services.results import result_report
from tests.factories import UserFactory, grant
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from tests.torneo.test_push import (
    Browser,
    Receiver,
    _own_keys,  # noqa: F401 (autouse: each test's own VAPID key, Celery eager)
    subscribe,
)
from torneo.models import Notice, Pair, PairTerminal, Player, Tournament
from torneo.services.terminals import terminal_issue

pytestmark = pytest.mark.django_db
T0 = datetime.datetime(2026, 12, 12, 10, 0, tzinfo=datetime.UTC)


@pytest.fixture
def push_service() -> Iterator[Receiver]:
    """A push service on this machine that records what it receives."""
    service = Receiver()
    yield service
    service.close()


def phone_of(sim: Any, pair: Pair, push_service: Receiver) -> tuple[Any, Browser]:
    """The pair's tarjeta opened on a phone that turned notifications on: its account and browser."""
    terminal_issue(pair=pair, by=sim.organizer)
    account = PairTerminal.objects.get(pair=pair).user
    browser = Browser(f"{push_service.origin}/pareja-{pair.number}")
    assert subscribe(account, browser, tournament=sim.tournament.slug).status_code == 201
    return account, browser


def received(push_service: Receiver, browser: Browser) -> list[dict[str, Any]]:
    path = browser.endpoint.removeprefix(push_service.origin)
    return [browser.decrypt(r["body"]) for r in push_service.to(path)]


def test_each_pair_is_told_its_table_and_rivals_when_the_round_is_published_once(
    push_service, django_capture_on_commit_callbacks
):
    sim = new_tournament(7, seed=3)  # an odd number: one exenta
    pairs = list(sim.tournament.pairs.order_by("number"))
    phones = {pair.number: phone_of(sim, pair, push_service)[1] for pair in pairs[:4] + pairs[-1:]}
    with django_capture_on_commit_callbacks(execute=True):
        round_ = publish_next_round(sim)
    for match in round_.matches.select_related("pair_a", "pair_b"):
        for own, rival in ((match.pair_a, match.pair_b), (match.pair_b, match.pair_a)):
            if own is None or own.number not in phones:
                continue
            [push] = received(push_service, phones[own.number])
            assert push["url"] == f"/torneos/{sim.tournament.slug}/parejas/{own.number}/ficha/"
            assert push["tag"] == f"ronda-{sim.tournament.pk}-{round_.number}"
            if rival is None:
                assert push["title"].endswith(f"Ronda {round_.number}: exenta")
            else:
                assert push["title"].endswith(f"Ronda {round_.number}: mesa {match.table_number}")
                assert push["body"].startswith(f"Contra Pareja {rival.number}")
    # Nothing personal: no player's name, document, phone or e-mail in any payload.
    everything = " ".join(str(p) for b in phones.values() for p in received(push_service, b))
    players = Player.objects.filter(memberships__tournament=sim.tournament)
    assert players.exists()
    for player in players:
        assert player.last_name not in everything and player.first_name not in everything
    # The same round again (a task run twice): nothing new.
    from torneo.notices import notify_round_published

    sent = len(push_service.requests)
    with django_capture_on_commit_callbacks(execute=True):
        assert notify_round_published(round=round_) == 0
    assert len(push_service.requests) == sent


def test_the_rival_pair_is_asked_to_confirm_a_reported_result_amm_3_16(
    push_service, django_capture_on_commit_callbacks
):
    sim = new_tournament(8, seed=11)
    round_ = publish_next_round(sim)
    match = playing(round_)[0]
    reporter, reporter_phone = phone_of(sim, match.pair_a, push_service)
    _rival, rival_phone = phone_of(sim, match.pair_b, push_service)
    with django_capture_on_commit_callbacks(execute=True):
        result_report(match=match, by=reporter, games_a=3, games_b=1)
    [push] = received(push_service, rival_phone)
    assert push["title"] == f"Mesa {match.table_number}: confirmad el resultado"
    assert push["body"].startswith(f"Pareja {match.pair_a.number}") and " 3-1." in push["body"]
    assert push["url"] == f"/torneos/{sim.tournament.slug}/parejas/{match.pair_b.number}/ficha/"
    assert received(push_service, reporter_phone) == []  # a pair never confirms its own report


def test_the_rivals_are_asked_after_the_report_commits_and_not_for_a_report_signed_meanwhile_amm_3_16(
    push_service, django_capture_on_commit_callbacks
):
    """The notice leaves the report's transaction (it held the tournament's row for every table's
    result): it is queued when the report commits, and a report signed (or replaced) before the
    worker takes it is not asked about any more."""
    from scoring.services.results import result_confirm

    sim = new_tournament(8, seed=12)
    round_ = publish_next_round(sim)
    first, second = playing(round_)[:2]
    reporters = {}
    phones = {}
    for match in (first, second):
        reporters[match.pk], _phone = phone_of(sim, match.pair_a, push_service)
        rival, phones[match.pk] = phone_of(sim, match.pair_b, push_service)
        if match is first:
            signer = rival
    with django_capture_on_commit_callbacks(execute=False) as queued:
        signed = result_report(match=first, by=reporters[first.pk], games_a=3, games_b=1)
    assert received(push_service, phones[first.pk]) == []  # nothing sent inside the report
    result_confirm(submission=signed, by=signer)  # the rivals signed before the worker took it
    for callback in queued:
        callback()
    assert received(push_service, phones[first.pk]) == []
    with django_capture_on_commit_callbacks(execute=True):
        result_report(match=second, by=reporters[second.pk], games_a=3, games_b=2)
    [push] = received(push_service, phones[second.pk])
    assert push["title"] == f"Mesa {second.table_number}: confirmad el resultado"


def test_the_tables_phones_hear_when_6_4_starts_and_five_minutes_before_the_maximum_amm_6_2_and_6_4(
    push_service, django_capture_on_commit_callbacks
):
    sim = new_tournament(6, seed=37, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    juez = grant(UserFactory(), sim.tournament, "juez")
    clock_services.clocks_start_round(round=round_, by=juez, at=T0)
    match = playing(round_)[0]
    phones = [phone_of(sim, pair, push_service)[1] for pair in (match.pair_a, match.pair_b)]
    state = match_clock(match, T0).state
    assert state is not None
    maximum = state.max_minutes
    for minutes in (maximum - 12, maximum - 9.5, maximum - 9, maximum - 4.5, maximum - 4, maximum - 3):
        with django_capture_on_commit_callbacks(execute=True):
            clock_services.clocks_tick(now=T0 + datetime.timedelta(minutes=minutes))
    for phone in phones:
        titles = [p["title"] for p in received(push_service, phone)]
        table = match.table_number
        assert titles == [f"Mesa {table}: quedan 10 minutos", f"Mesa {table}: quedan 5 minutos"]
    assert Notice.objects.filter(key__startswith=f"reloj:{match.pk}:").count() == 4


def test_a_call_reaches_the_jueces_phones_and_their_voy_the_tables(push_service, django_capture_on_commit_callbacks):
    sim = new_tournament(8, seed=5)
    round_ = publish_next_round(sim)
    match = playing(round_)[0]
    juez = grant(UserFactory(), sim.tournament, "juez")
    juez_phone = Browser(f"{push_service.origin}/juez")
    assert subscribe(juez, juez_phone).status_code == 201
    caller, caller_phone = phone_of(sim, match.pair_a, push_service)
    _other, other_phone = phone_of(sim, match.pair_b, push_service)
    with django_capture_on_commit_callbacks(execute=True):
        incident = incident_report(
            tournament=sim.tournament, by=caller, article="6.3", match=match, description="Hablan en el lance"
        )
    [call] = received(push_service, juez_phone)
    assert call["title"] == f"Llaman al juez: mesa {match.table_number}"
    assert call["url"] == f"/torneos/{sim.tournament.slug}/gestion/juez/" and "Hablan" not in call["body"]
    with django_capture_on_commit_callbacks(execute=True):
        incident_answer(incident=incident, by=juez)
    for phone in (caller_phone, other_phone):
        [answer] = received(push_service, phone)
        assert answer["title"] == f"Mesa {match.table_number}: el juez va hacia la mesa"
    assert len(received(push_service, juez_phone)) == 1
