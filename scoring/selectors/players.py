"""Reads for the players' view: find yourself by name, and the pair page (current table, opponent
and times, the table's clock, every past match, results awaiting the pair's confirmation).

Every function here runs a fixed number of queries whatever the tournament's size: the pair page
of a 1,000-pair tournament costs what the page of a 16-pair one does.
"""

from __future__ import annotations

import dataclasses

from django.db.models import Count, Q, prefetch_related_objects
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import RecordedHand, ResultSubmission
from scoring.selectors.clocks import ClockInfo, latest_round_times, match_clock, rounds_newest_first
from scoring.selectors.standings import ceros_rules
from scoring.standings import MatchRecord, survival
from torneo import clock
from torneo.models import Match, Pair, PairMember, PairTerminal, Round, Tournament
from torneo.selectors.registrations import members_prefetch, pairs_of

MAX_FOUND = 30


def find_pairs(tournament: Tournament, q: str) -> list[Pair]:
    """Find yourself: the pairs with a player whose name has every word of `q` (accents and case
    ignored). Nothing for an empty search: the page asks for a name first."""
    if not q.strip():
        return []
    statuses = [Pair.Status.CONFIRMED, Pair.Status.WAITLISTED, Pair.Status.WITHDRAWN, Pair.Status.EXPELLED]
    return list(pairs_of(tournament, q=q, statuses=statuses)[:MAX_FOUND])


# --- the pair page ---------------------------------------------------------------------------


@dataclasses.dataclass
class MatchLine:
    """One of the pair's matches, seen from the pair."""

    match: Match
    side: str  # "a" or "b": the pair's side at the table
    opponent: Pair | None
    hand_count: int = 0

    @property
    def round(self) -> Round:
        return self.match.round

    @property
    def is_bye(self) -> bool:
        return self.match.is_bye

    @property
    def games_for(self) -> int | None:
        return self.match.games_a if self.side == "a" else self.match.games_b

    @property
    def games_against(self) -> int | None:
        return self.match.games_b if self.side == "a" else self.match.games_a

    @property
    def tantos(self) -> tuple[int | None, int | None]:
        m = self.match
        return (m.tantos_a, m.tantos_b) if self.side == "a" else (m.tantos_b, m.tantos_a)

    @property
    def result_label(self) -> str:
        """The result as the pair reads it: «Ganada 3-1», «Perdida 1-3», «Exenta»…"""
        m = self.match
        games = f" {self.games_for}-{self.games_against}" if self.games_for is not None else ""
        if m.outcome == Match.Outcome.PENDING:
            return _("Pendiente")
        if m.outcome == Match.Outcome.BYE:
            return _("Exenta: pasa de ronda")
        if m.outcome == Match.Outcome.DOUBLE_LOSS:
            return _("Perdida por ambas parejas") + games
        how = "" if m.outcome == Match.Outcome.PLAYED else f" ({m.get_outcome_display().lower()})"
        return (_("Ganada") if self.won else _("Perdida")) + games + how

    def record(self) -> MatchRecord:
        """The match as the standings read it (pairs by number)."""
        m = self.match
        a, b = m.pair_a, m.pair_b
        winner = a.number if m.winner_id == a.pk else (b.number if b is not None and m.winner_id == b.pk else None)
        return MatchRecord(
            a=a.number,
            b=b.number if b is not None else None,
            outcome=m.outcome,
            winner=winner,
            games_a=m.games_a,
            games_b=m.games_b,
            round_number=m.round.number,
            pool=m.pool,
        )

    @property
    def won(self) -> bool | None:
        """True won (an exenta is a pass, AMM 5.6), False lost (both lose a double loss), None pending."""
        m = self.match
        if m.outcome == Match.Outcome.PENDING:
            return None
        if m.outcome == Match.Outcome.BYE:
            return True
        if m.outcome == Match.Outcome.DOUBLE_LOSS:
            return False
        pair_id = m.pair_a_id if self.side == "a" else m.pair_b_id
        return m.winner_id == pair_id


@dataclasses.dataclass
class CurrentRound:
    """The tournament's latest round as the pair sees it."""

    round: Round | None
    line: MatchLine | None
    times: clock.RoundTimes | None = None
    clock: ClockInfo | None = None
    """The match's clock now (AMM chapter VI), for a table being played; None for an exenta."""

    @property
    def waiting_for_draw(self) -> bool:
        return self.round is None or not self.round.is_published


@dataclasses.dataclass
class PairPage:
    pair: Pair
    current: CurrentRound
    past: list[MatchLine]  # newest first, the current round's match excluded
    wins: int
    losses: int
    byes: int
    out: bool | None  # None: the format does not eliminate by losses
    pending: list[ResultSubmission]  # results awaiting the confirmation of this pair (the loser, or a report's rival)
    reported: list[ResultSubmission] = dataclasses.field(default_factory=list)  # its own reports, awaiting the rival

    @property
    def members(self) -> list[PairMember]:
        return self.pair.ordered_members()


def pair_with_players(tournament: Tournament, number: int) -> Pair | None:
    qs = Pair.objects.filter(tournament=tournament, number=number).prefetch_related(members_prefetch())
    return qs.first()


def _lines(pair: Pair, tournament: Tournament) -> list[MatchLine]:
    """The pair's matches, newest first: three plain queries (the matches, the opponents' players,
    the hands recorded), the pair itself and the tournament as the caller read them. One query with
    both pairs' players prefetched and the hands counted in a GROUP BY over every column of the
    match cost more to build than to run: the pair's phones read this page after each change."""
    matches = list(
        Match.objects.filter(Q(pair_a=pair) | Q(pair_b=pair), round__status=Round.Status.PUBLISHED)
        .select_related("round", "pair_a", "pair_b")
        .order_by("-round__number")
    )
    hands = (
        RecordedHand.objects.filter(game__match__in=[m.pk for m in matches], is_current=True)
        .order_by()
        .values_list("game__match_id")
        .annotate(n=Count("pk"))
    )
    counts = dict(hands) if matches else {}
    lines = []
    for m in matches:
        side = "a" if m.pair_a_id == pair.pk else "b"
        if side == "a":
            m.pair_a = pair
        else:
            m.pair_b = pair
        m.round.tournament = tournament
        lines.append(MatchLine(m, side, m.pair_b if side == "a" else m.pair_a, counts.get(m.pk, 0)))
    prefetch_related_objects([line.opponent for line in lines if line.opponent is not None], members_prefetch())
    return lines


def pair_page(tournament: Tournament, pair: Pair) -> PairPage:
    """Everything the pair page shows, in a fixed number of queries."""
    lines = _lines(pair, tournament)
    rounds = rounds_newest_first(tournament)
    latest = rounds[0] if rounds else None
    current_line = next((line for line in lines if latest is not None and line.round.pk == latest.pk), None)
    current = CurrentRound(latest, current_line, latest_round_times(rounds, tournament) if rounds else None)
    if current_line is not None and not current_line.is_bye:
        current.clock = match_clock(current_line.match, timezone.now())
    past = [line for line in lines if line is not current_line]
    decided = [line for line in lines if line.won is not None]
    losses = sum(1 for line in decided if line.won is False)
    byes = sum(1 for line in decided if line.is_bye)
    wins = sum(1 for line in decided if line.won and not line.is_bye)
    out: bool | None = None
    if pair.is_out:
        out = True
    elif tournament.format in (Tournament.Format.CEROS, Tournament.Format.REPESCA):
        # The standings' own survival rule (repesca pools, one loss in the rondas finales): a
        # pair's elimination depends only on its own matches, which the page has already read.
        records = [line.record() for line in decided]
        state = survival([pair.number], records, ceros_rules(tournament))[pair.number]
        out = not state.alive
    match_ids = [line.match.pk for line in lines]
    proposed = list(
        ResultSubmission.objects.filter(match_id__in=match_ids, status=ResultSubmission.Status.PROPOSED).order_by(
            "-submitted_at"
        )
    )
    # A pair's own report (issue 32) waits for the other pair, whoever wins; any other proposal
    # waits for the losing pair (AMM 3.16).
    reports = [s for s in proposed if s.source == ResultSubmission.Source.PLAYER and s.submitted_by_id]
    ours = member_pairs_of_users({s.submitted_by_id for s in reports if s.submitted_by_id}, pair)
    reported = [s for s in reports if s.submitted_by_id in ours]
    pending = [s for s in proposed if s not in reported and (s in reports or s.winner_id != pair.pk)]
    by_match = {line.match.pk: line for line in lines}
    for sub in [*pending, *reported]:
        sub.line = line = by_match[sub.match_id]  # the template shows it from the pair's side
        sub.match = line.match  # its round, and both pairs with their players, as read above
        if sub.winner_id is not None:
            sub.winner = pair if sub.winner_id == pair.pk else line.opponent
    return PairPage(pair, current, past, wins, losses, byes, out, pending, reported)


def match_for_clock(tournament: Tournament, match_id: int) -> Match | None:
    """A partida of the tournament with what its clock's card reads (the pair page's clock slot)."""
    return (
        Match.objects.filter(pk=match_id, round__tournament=tournament)
        .select_related("round__tournament", "round__session", "pair_a", "pair_b")
        .first()
    )


def member_pairs_of_users(user_ids: set[int], pair: Pair) -> set[int]:
    """Which of ``user_ids`` play in ``pair`` (a player's account or the pair's terminal): one
    query, none when there is nobody to ask about."""
    if not user_ids:
        return set()
    players = (
        PairMember.objects.filter(pair=pair, player__user_id__in=user_ids).order_by().values_list("player__user_id")
    )
    terminal = PairTerminal.objects.filter(pair=pair, user_id__in=user_ids).order_by().values_list("user_id")
    return {pk for (pk,) in players.union(terminal)}
