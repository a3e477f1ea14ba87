"""Reads of the juez's record: the incidents of a tournament (the juez's desk, the organizer's log),
a pair's sanctions (the pair page), a partida's (the acta's notes).

Who sees what (AMM 5.3, 5.4): the staff of the tournament see everything, descriptions included;
the public sees the sanctions that change results (a juego, the partida, the expulsion), never a
description; a pair's own players also see its apercibimientos."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterable, Sequence

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from referees.models import Incident, Sanction, Substitution
from referees.rules.catalogue import CLOCK_APPLIED, Article, catalogue_for
from scoring.adjudications import Adjudged
from scoring.models import MatchClock
from torneo.models import Match, Pair, Tournament, TournamentRole
from torneo.tableranges import parse_tables
from torneo.typing import AuthUser, User

PUBLIC_STEPS = (Sanction.Step.JUEGO, Sanction.Step.PARTIDA, Sanction.Step.EXPULSION)
"""The sanctions that change results: public (AMM 5.4.2, 5.4.3)."""


def articles(tournament: Tournament) -> tuple[Article, ...]:
    """The catalogue an incident cites, for the tournament's rule set."""
    return catalogue_for(tournament.rule_set)


def article_title(tournament: Tournament, code: str) -> str:
    """The article's title, translated; the code alone when the catalogue has no such article."""
    entry = next((a for a in articles(tournament) if a.code == code), None)
    return _(entry.title) if entry else code


@dataclasses.dataclass(frozen=True)
class IncidentFilter:
    """The organizer's log filters (all optional)."""

    status: str = ""
    article: str = ""
    round: int | None = None
    pair: int | None = None  # the pair's number
    since: datetime.datetime | None = None


def incidents(tournament: Tournament, filters: IncidentFilter | None = None) -> QuerySet[Incident]:
    """The tournament's incidents, newest first, with what the lists show (no query per row)."""
    f = filters or IncidentFilter()
    rows = Incident.objects.filter(tournament=tournament).select_related(
        "match__round", "pair", "player", "reported_by", "closed_by", "answered_by"
    )
    if f.status:
        rows = rows.filter(status=f.status)
    if f.article:
        rows = rows.filter(article=f.article)
    if f.round is not None:
        rows = rows.filter(match__round__number=f.round)
    if f.pair is not None:
        rows = rows.filter(pair__number=f.pair)
    if f.since is not None:
        rows = rows.filter(reported_at__gte=f.since)
    return rows.prefetch_related("sanctions").order_by("-reported_at", "-pk")


def sanctions(tournament: Tournament, *, public: bool = False) -> QuerySet[Sanction]:
    """Every version of the tournament's sanctions (public: only those in force that change results)."""
    rows = Sanction.objects.filter(tournament=tournament).select_related("pair", "match__round", "given_by")
    if public:
        rows = rows.filter(status=Sanction.Status.IN_FORCE, step__in=PUBLIC_STEPS)
    return rows.order_by("number", "version")


def pair_sanctions(pair: Pair, *, with_warnings: bool) -> list[Sanction]:
    """The pair's sanctions in force, oldest first; apercibimientos only ``with_warnings`` (the
    pair's own players, the staff)."""
    rows = Sanction.objects.filter(pair=pair, status=Sanction.Status.IN_FORCE).select_related("match__round")
    if not with_warnings:
        rows = rows.filter(step__in=PUBLIC_STEPS)
    return list(rows.order_by("given_at", "pk"))


def sanction_line(sanction: Sanction) -> str:
    """One sanction in words, as the acta writes it: «Juez: pérdida de un juego a la pareja 12 (AMM 6.3).»"""
    return _("Juez: %(s)s a la pareja %(p)s (AMM %(a)s).") % {
        "s": sanction.get_step_display().lower(),
        "p": sanction.pair.number,
        "a": sanction.article,
    }


def match_notes(matches: Sequence[Match]) -> dict[int, list[str]]:
    """The sanctions in force given in each partida, by match id, for its acta and the result desk
    (scoring.acta's source): one query."""
    rows = Sanction.objects.filter(match__in=[m.pk for m in matches], status=Sanction.Status.IN_FORCE)
    found: dict[int, list[str]] = {}
    for sanction in rows.select_related("pair").order_by("given_at", "pk"):
        if sanction.match_id is not None:
            found.setdefault(sanction.match_id, []).append(sanction_line(sanction))
    return found


def adjudicated_juegos(matches: Sequence[Match]) -> dict[int, list[Adjudged]]:
    """The juegos given by the juez's sanctions in force that are not on a clock (no clock ran):
    the other pair's, by match id (scoring.adjudications' source, AMM 5.4.2). One query."""
    rows = Sanction.objects.filter(
        match__in=[m.pk for m in matches], status=Sanction.Status.IN_FORCE, step=Sanction.Step.JUEGO, juego__isnull=True
    ).select_related("match")
    found: dict[int, list[Adjudged]] = {}
    given = list(rows.order_by("given_at", "pk"))
    # 6.1.b is the clock's when one ran: its juegos are the clock's events, never counted twice.
    clocked = set(
        MatchClock.objects.filter(
            match_id__in={s.match_id for s in given if s.article in CLOCK_APPLIED}, started_at__isnull=False
        ).values_list("match_id", flat=True)
    )
    for sanction in given:
        match = sanction.match
        if match is None or sanction.pair_id not in (match.pair_a_id, match.pair_b_id):
            continue
        if sanction.article in CLOCK_APPLIED and match.pk in clocked:
            continue
        side = "B" if sanction.pair_id == match.pair_a_id else "A"
        found.setdefault(match.pk, []).append(
            Adjudged(side, sanction.article, _("sanción nº %(n)d, AMM 5.4.2") % {"n": sanction.number})
        )
    return found


def open_counts(tournament: Tournament, matches: Iterable[Match]) -> dict[int, int]:
    """Open incidents by match id, for the juez's tables sorted by urgency: one query."""
    ids = [m.pk for m in matches]
    counts: dict[int, int] = {}
    rows = Incident.objects.filter(tournament=tournament, match_id__in=ids, status=Incident.Status.OPEN).values_list(
        "match_id", flat=True
    )
    for match_id in rows:
        if match_id is not None:
            counts[match_id] = counts.get(match_id, 0) + 1
    return counts


def substitutions(match: Match) -> list[Substitution]:
    """The suplentes authorised for a partida (AMM 5.8), by table side."""
    rows = Substitution.objects.filter(match=match, status=Substitution.Status.ACTIVE).select_related(
        "pair", "replaced"
    )
    return list(rows.order_by("pk"))


def substitution_notes(matches: Sequence[Match]) -> dict[int, list[str]]:
    """The suplentes of each partida as its acta writes them (AMM 5.8), by match id: one query."""
    rows = Substitution.objects.filter(match__in=[m.pk for m in matches], status=Substitution.Status.ACTIVE)
    found: dict[int, list[str]] = {}
    for s in rows.select_related("pair", "replaced").order_by("pk"):
        found.setdefault(s.match_id, []).append(
            _("Suplente: %(s)s juega por %(r)s (pareja %(p)s, AMM 5.8).")
            % {"s": s.name, "r": s.replaced.full_name, "p": s.pair.number}
            + (" " + _("Fuerza mayor: %(m)s") % {"m": s.reason} if s.force_majeure else "")
        )
    return found


def pair_substitutions(pair: Pair) -> list[Substitution]:
    """The pair's suplentes authorised, by round (the pair page)."""
    rows = Substitution.objects.filter(pair=pair, status=Substitution.Status.ACTIVE).select_related(
        "match__round", "replaced"
    )
    return list(rows.order_by("match__round__number", "pk"))


def round_substitutions(tournament: Tournament, number: int) -> list[Substitution]:
    """The suplentes authorised in a round, by table (its public page): one query."""
    rows = Substitution.objects.filter(
        tournament=tournament, match__round__number=number, status=Substitution.Status.ACTIVE
    ).select_related("match", "pair", "replaced")
    return list(rows.order_by("match__table_number", "pk"))


def juez_zone(user: User, tournament: Tournament) -> tuple[tuple[int, int], ...]:
    """The tables of the user's juez role in the tournament (torneo.tableranges), none if no zone."""
    if not isinstance(user, AuthUser):
        return ()
    text = (
        TournamentRole.objects.filter(tournament=tournament, user=user, role=TournamentRole.Role.JUEZ)
        .values_list("tables", flat=True)
        .first()
    )
    try:
        return parse_tables(text or "")
    except ValueError:
        return ()
