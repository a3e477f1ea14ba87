"""What the players (and the jueces) are told on their phones, as Web Push notifications (issue 33).

Each pair's accounts are its players' own accounts and its tarjeta's terminal account
(torneo.PairTerminal); a notification goes to every device on which one of them turned
notifications on (torneo.PushSubscription). The events:

- a round is published: each pair its table and rivals («Ronda 3: mesa 17 · contra Pareja 48»),
  or its exenta;
- a pair reported its table's result: the rival pair, that it awaits their confirmation (AMM 3.16:
  the losing pair's signature);
- the clock: when AMM 6.4's adjustments start for a table (ten minutes before the maximum) and
  five minutes before 6.2's maximum — both pairs of that table;
- a table called the juez: the jueces of the tournament; a juez answered «voy»: that table.

The pairs' confirmed e-mail addresses get the same (torneo/services/email_notices.py), the
jueces' calls excepted. Each notice is sent once (``Notice``, a unique key per event and pair: a
repeated tick or a task run twice sends nothing new). Sent when the transaction that made the
event commits (torneo.push.send), the pushes in Spanish, the site's language (a notification is
not rendered in a request), the e-mails in the language their address was given in. What a payload
carries: the tournament, the round, the table, the pair numbers and names — nothing else of
anyone's (torneo/push/send.py)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import translation

from torneo.models import (
    EmailSubscription,
    Match,
    Notice,
    Pair,
    PairMember,
    PairTerminal,
    Round,
    Tournament,
    TournamentRole,
)
from torneo.notice_texts import render
from torneo.push.send import push_send_each
from torneo.services.email_notices import email_notices_send


def pair_accounts(pair_ids: Iterable[int | None]) -> dict[int, set[int]]:
    """The accounts of each pair: its players' own accounts and its tarjeta's terminal account."""
    ids = [pk for pk in pair_ids if pk is not None]
    accounts: dict[int, set[int]] = defaultdict(set)
    members = PairMember.objects.filter(pair_id__in=ids, player__user__isnull=False)
    for pair_id, user_id in members.values_list("pair_id", "player__user_id"):
        accounts[pair_id].add(user_id)
    for pair_id, user_id in PairTerminal.objects.filter(pair_id__in=ids).values_list("pair_id", "user_id"):
        accounts[pair_id].add(user_id)
    return accounts


def pairs_told(pair_ids: Iterable[int | None]) -> dict[int, set[int]]:
    """The pairs with someone to tell: their accounts (maybe none, when only an e-mail address
    asked for the notices: torneo/services/email_notices.py)."""
    ids = [pk for pk in pair_ids if pk is not None]
    told = pair_accounts(ids)
    emailed = EmailSubscription.objects.filter(pair_id__in=ids, consented_at__isnull=False)
    for pair_id in emailed.values_list("pair_id", flat=True):
        told.setdefault(pair_id, set())
    return told


def _pair_url(tournament: Tournament, number: int) -> str:
    return reverse("scoring:pair_page", args=[tournament.slug, number])


def _once(keys: list[str]) -> set[str]:
    """The keys not sent before, now recorded as sent (a concurrent sender records them first:
    then they are not ours to send)."""
    if not keys:
        return set()
    known = set(Notice.objects.filter(key__in=keys).values_list("key", flat=True))
    fresh = [key for key in keys if key not in known]
    try:
        with transaction.atomic():
            Notice.objects.bulk_create([Notice(key=key) for key in fresh])
    except IntegrityError:
        mine = set()
        for key in fresh:
            try:
                with transaction.atomic():
                    Notice.objects.create(key=key)
            except IntegrityError:
                continue
            mine.add(key)
        return mine
    return set(fresh)


Message = tuple[str, Iterable[int], dict[str, Any], int | None]
"""(key, accounts, notice, pair): the notice as torneo/notice_texts.py renders it, its pair for the
e-mails (None: no e-mail)."""


def _send(messages: Sequence[Message]) -> int:
    """Send each message not sent before: a push to the accounts' devices (in the site's language),
    an e-mail to the pair's confirmed addresses (in theirs); returns the pushes queued."""
    fresh = _once([key for key, _users, _notice, _pair in messages])
    sent = [m for m in messages if m[0] in fresh]
    email_notices_send(messages=[(pair, notice) for _key, _users, notice, pair in sent if pair is not None])
    with translation.override(settings.LANGUAGE_CODE):
        pushes = [(users, render(notice)) for _key, users, notice, _pair in sent if users]
    return push_send_each(messages=pushes)


def notify_round_published(*, round: Round) -> int:
    """Each pair of a round just published: its table and rivals, or its exenta."""
    tournament = round.tournament
    matches = list(Match.objects.filter(round=round).select_related("pair_a", "pair_b"))
    told = pairs_told([p for m in matches for p in (m.pair_a_id, m.pair_b_id) if p is not None])
    messages: list[Message] = []
    for match in matches:
        for own, rival in ((match.pair_a, match.pair_b), (match.pair_b, match.pair_a)):
            if own is None or own.pk not in told:
                continue
            notice = {
                "kind": "exenta" if rival is None else "ronda",
                "tournament": tournament.name,
                "round": round.number,
                "table": match.table_number,
                "rival": None if rival is None else [rival.number, rival.name],
                "url": _pair_url(tournament, own.number),
                "tag": f"ronda-{tournament.pk}-{round.number}",
            }
            messages.append((f"ronda:{round.pk}:{own.pk}", told[own.pk], notice, own.pk))
    return _send(messages)


def notify_result_to_confirm(
    *, match: Match, reported_by: Pair, submission_id: int, games_a: int | None, games_b: int | None
) -> int:
    """The rival of the pair that reported its table's result (``games_a``, ``games_b``: the
    partida's sides): it awaits their confirmation."""
    rival = match.pair_b if reported_by.pk == match.pair_a_id else match.pair_a
    if rival is None:
        return 0
    theirs, mine = (games_a, games_b) if rival.pk == match.pair_b_id else (games_b, games_a)
    notice = {
        "kind": "confirmar",
        "table": match.table_number,
        "reporter": [reported_by.number, reported_by.name],
        "theirs": theirs,
        "mine": mine,
        "url": _pair_url(match.round.tournament, rival.number),
        "tag": f"confirmar-{match.pk}",
    }
    told = pairs_told([rival.pk])
    if rival.pk not in told:
        return 0
    return _send([(f"confirmar:{submission_id}", told[rival.pk], notice, rival.pk)])


CLOCK_EVENTS = ("6.4", "6.2-5")


def notify_clocks(*, events: Iterable[tuple[Match, str]]) -> int:
    """Both pairs of each table: AMM 6.4's adjustments start (``"6.4"``), or five minutes to 6.2's
    maximum (``"6.2-5"``). Called by every clock tick for the tables in their last five minutes:
    what was sent is not sent again, and only pairs with someone to tell are looked at."""
    events = list(events)
    told = pairs_told([p for match, _event in events for p in (match.pair_a_id, match.pair_b_id) if p])
    wanted = [
        (match, event, pair_id)
        for match, event in events
        for pair_id in (match.pair_a_id, match.pair_b_id)
        if pair_id is not None and pair_id in told
    ]
    if not wanted:
        return 0
    numbers = dict(Pair.objects.filter(pk__in={pair_id for _m, _e, pair_id in wanted}).values_list("pk", "number"))
    messages: list[Message] = []
    for match, event, pair_id in wanted:
        assert event in CLOCK_EVENTS
        notice = {
            "kind": event,
            "table": match.table_number,
            "url": _pair_url(match.round.tournament, numbers[pair_id]),
            "tag": f"reloj-{match.pk}",
        }
        messages.append((f"reloj:{match.pk}:{event}:{pair_id}", told[pair_id], notice, pair_id))
    return _send(messages)


def notify_call(*, tournament: Tournament, match: Match | None, incident_id: int, reason: str) -> int:
    """The jueces of the tournament: a table called them (``reason``: the article's title, as the
    reglamento names it, translated when rendered)."""
    jueces = TournamentRole.objects.filter(tournament=tournament, role=TournamentRole.Role.JUEZ)
    users = [user_id for user_id in jueces.values_list("user_id", flat=True) if user_id is not None]
    notice = {
        "kind": "aviso",
        "table": match.table_number if match is not None else None,
        "reason": reason,
        "url": reverse("referees:juez_desk", args=[tournament.slug]),
        "tag": f"aviso-{incident_id}",
    }
    return _send([(f"aviso:{incident_id}", users, notice, None)])


def notify_call_answered(*, match: Match, incident_id: int) -> int:
    """The table that called: a juez is on the way."""
    tournament = match.round.tournament
    told = pairs_told([match.pair_a_id, match.pair_b_id])
    messages: list[Message] = []
    for pair in (match.pair_a, match.pair_b):
        if pair is not None and pair.pk in told:
            notice = {
                "kind": "voy",
                "table": match.table_number,
                "url": _pair_url(tournament, pair.number),
                "tag": f"aviso-{incident_id}",
            }
            messages.append((f"voy:{incident_id}:{pair.pk}", told[pair.pk], notice, pair.pk))
    return _send(messages)
