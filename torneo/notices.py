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

Each notice is sent once (``Notice``, a unique key per event and pair: a repeated tick or a task run
twice sends nothing new). Sent when the transaction that made the event commits (torneo.push.send),
in Spanish, the site's language (a notification is not rendered in a request). What a payload
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
from django.utils.translation import gettext as _

from torneo.models import Match, Notice, Pair, PairMember, PairTerminal, Round, Tournament, TournamentRole
from torneo.push.send import push_send_each


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


def _label(pair: Pair | None) -> str:
    if pair is None:
        return "—"
    label = _("Pareja %(n)s") % {"n": pair.number}
    return f"{label} ({pair.name})" if pair.name else label


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


def _send(messages: Sequence[tuple[str, Iterable[int], dict[str, Any]]]) -> int:
    """Send each (key, accounts, payload) not sent before; returns the pushes queued."""
    fresh = _once([key for key, _users, _payload in messages])
    return push_send_each(messages=[(users, payload) for key, users, payload in messages if key in fresh])


def notify_round_published(*, round: Round) -> int:
    """Each pair of a round just published: its table and rivals, or its exenta."""
    tournament = round.tournament
    matches = list(Match.objects.filter(round=round).select_related("pair_a", "pair_b"))
    accounts = pair_accounts([p for m in matches for p in (m.pair_a_id, m.pair_b_id) if p is not None])
    messages = []
    with translation.override(settings.LANGUAGE_CODE):
        for match in matches:
            for own, rival in ((match.pair_a, match.pair_b), (match.pair_b, match.pair_a)):
                if own is None or not accounts.get(own.pk):
                    continue
                if rival is None:
                    title = _("%(t)s · Ronda %(r)s: exenta") % {"t": tournament.name, "r": round.number}
                    body = _("Tu pareja queda exenta en esta ronda.")
                else:
                    title = _("%(t)s · Ronda %(r)s: mesa %(m)s") % {
                        "t": tournament.name,
                        "r": round.number,
                        "m": match.table_number or "—",
                    }
                    body = _("Contra %(rival)s") % {"rival": _label(rival)}
                payload = {
                    "title": title,
                    "body": body,
                    "url": _pair_url(tournament, own.number),
                    "tag": f"ronda-{tournament.pk}-{round.number}",
                }
                messages.append((f"ronda:{round.pk}:{own.pk}", accounts[own.pk], payload))
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
    tournament = match.round.tournament
    with translation.override(settings.LANGUAGE_CODE):
        payload = {
            "title": _("Mesa %(m)s: confirmad el resultado") % {"m": match.table_number or "—"},
            "body": _("%(pair)s ha anotado %(theirs)s-%(mine)s. Confirmadlo en vuestra página o avisad al juez.")
            % {"pair": _label(reported_by), "theirs": _games(theirs), "mine": _games(mine)},
            "url": _pair_url(tournament, rival.number),
            "tag": f"confirmar-{match.pk}",
        }
    return _send([(f"confirmar:{submission_id}", pair_accounts([rival.pk]).get(rival.pk, ()), payload)])


def _games(games: int | None) -> str:
    return "—" if games is None else str(games)


CLOCK_EVENTS = ("6.4", "6.2-5")


def notify_clocks(*, events: Iterable[tuple[Match, str]]) -> int:
    """Both pairs of each table: AMM 6.4's adjustments start (``"6.4"``), or five minutes to 6.2's
    maximum (``"6.2-5"``). Called by every clock tick for the tables in their last five minutes:
    what was sent is not sent again, and only pairs with an account are looked at."""
    events = list(events)
    accounts = pair_accounts([p for match, _event in events for p in (match.pair_a_id, match.pair_b_id) if p])
    wanted = [
        (match, event, pair_id)
        for match, event in events
        for pair_id in (match.pair_a_id, match.pair_b_id)
        if pair_id is not None and accounts.get(pair_id)
    ]
    fresh = _once([f"reloj:{match.pk}:{event}:{pair_id}" for match, event, pair_id in wanted])
    wanted = [w for w in wanted if f"reloj:{w[0].pk}:{w[1]}:{w[2]}" in fresh]
    numbers = dict(Pair.objects.filter(pk__in={pair_id for _m, _e, pair_id in wanted}).values_list("pk", "number"))
    messages = []
    with translation.override(settings.LANGUAGE_CODE):
        for match, event, pair_id in wanted:
            table = match.table_number or "—"
            if event == "6.4":
                title = _("Mesa %(m)s: quedan 10 minutos") % {"m": table}
                body = _("Empiezan los ajustes de terminación (AMM 6.4).")
            else:
                title = _("Mesa %(m)s: quedan 5 minutos") % {"m": table}
                body = _("A los 5 minutos se alcanza el tiempo máximo de la partida (AMM 6.2).")
            url = _pair_url(match.round.tournament, numbers[pair_id])
            messages.append((accounts[pair_id], {"title": title, "body": body, "url": url, "tag": f"reloj-{match.pk}"}))
    return push_send_each(messages=messages)


def notify_call(*, tournament: Tournament, match: Match | None, incident_id: int, reason: str) -> int:
    """The jueces of the tournament: a table called them."""
    jueces = TournamentRole.objects.filter(tournament=tournament, role=TournamentRole.Role.JUEZ)
    with translation.override(settings.LANGUAGE_CODE):
        table = match.table_number if match is not None and match.table_number else "—"
        payload = {
            "title": _("Llaman al juez: mesa %(m)s") % {"m": table},
            "body": reason,
            "url": reverse("referees:juez_desk", args=[tournament.slug]),
            "tag": f"aviso-{incident_id}",
        }
    users = [user_id for user_id in jueces.values_list("user_id", flat=True) if user_id is not None]
    return _send([(f"aviso:{incident_id}", users, payload)])


def notify_call_answered(*, match: Match, incident_id: int) -> int:
    """The table that called: a juez is on the way."""
    tournament = match.round.tournament
    accounts = pair_accounts([match.pair_a_id, match.pair_b_id])
    messages = []
    with translation.override(settings.LANGUAGE_CODE):
        for pair in (match.pair_a, match.pair_b):
            if pair is not None and accounts.get(pair.pk):
                payload = {
                    "title": _("Mesa %(m)s: el juez va hacia la mesa") % {"m": match.table_number or "—"},
                    "body": _("Un juez ha atendido vuestro aviso."),
                    "url": _pair_url(tournament, pair.number),
                    "tag": f"aviso-{incident_id}",
                }
                messages.append((f"voy:{incident_id}:{pair.pk}", accounts[pair.pk], payload))
    return _send(messages)
