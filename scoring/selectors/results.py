"""Reads for the results pages and the API: a round's results by table (the public list), the mesa
de control's entry state (tables missing an acta, those awaiting confirmation), what the mesa sees
after typing a table, a match's history of actas and the double check's confirmation queue (where
two actas that disagree are shown side by side, AMM 3.16). A fixed number of queries whatever the
number of pairs (torneo.snapshot's match and pair rows).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scoring import acta
from scoring.models import ResultSubmission
from scoring.selectors.clocks import clock_notes
from scoring.services.results import round_locked
from torneo.models import Match, Round, Tournament
from torneo.numbers import is_digits, parse_int
from torneo.people import desk_name
from torneo.snapshot import MATCH_FIELDS, MatchInfo, match_infos, pair_infos

# --- results of a round: the public list, the mesa's entry page ------------------------------------------


def round_matches(round_: Round) -> list[MatchInfo]:
    """A round's matches with their pairs: three queries (matches, then the pairs in them)."""
    rows = list(
        Match.objects.filter(round=round_).order_by("pool", "table_number", "slot", "pk").values_list(*MATCH_FIELDS)
    )
    ids = {r[5] for r in rows} | {r[6] for r in rows if r[6]}
    pairs = pair_infos(round_.tournament, ids)
    return match_infos(rows, pairs)


def published_rounds(tournament: Tournament) -> list[Round]:
    return list(tournament.rounds.filter(status=Round.Status.PUBLISHED).order_by("number"))


def current_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first()


def published_round(tournament: Tournament, number: object) -> Round | None:
    """The published round ``number`` (None if there is none), or the current round when no number
    is given (the pages' ``?ronda=`` and the API's ``round``). ValueError: not a round number."""
    if number in (None, ""):
        return current_round(tournament)
    if not (isinstance(number, int) or is_digits(str(number).removeprefix("-"))):
        raise ValueError(number)
    value = parse_int(number, low=1)
    if value is None:  # a number no round has, however large or negative (no database integer overflows)
        return None
    return tournament.rounds.filter(number=value, status=Round.Status.PUBLISHED).first()


AWAITING = (ResultSubmission.Status.PROPOSED, ResultSubmission.Status.DISPUTED)


def proposals(round_: Round) -> dict[int, ResultSubmission]:
    """The submissions awaiting confirmation in a round, by match (double check); of two actas in
    disagreement, the latest (its status says it: DISPUTED)."""
    subs = (
        ResultSubmission.objects.filter(match__round=round_, status__in=AWAITING)
        .select_related("submitted_by", "winner")
        .order_by("match", "version")
    )
    return {s.match_id: s for s in subs}


def refusals(missing: list[MatchInfo]) -> dict[int, str]:
    """Of the tables missing an acta, those whose last acta was a report the other side refused
    to sign (AMM 3.16: «Rechazar»), by match id: who refused it (desk_name). A report withdrawn by
    its own submitter is no refusal. One query, over those tables' versions only."""
    if not missing:
        return {}
    last: dict[int, ResultSubmission] = {}
    subs = (
        ResultSubmission.objects.filter(match_id__in=[m.id for m in missing])
        .select_related("rejected_by")
        .order_by("match_id", "-version")
    )
    for sub in subs:
        last.setdefault(sub.match_id, sub)
    return {
        match_id: desk_name(sub.rejected_by)
        for match_id, sub in last.items()
        if sub.status == ResultSubmission.Status.REJECTED
        and sub.rejected_by_id is not None
        and sub.rejected_by_id != sub.submitted_by_id
    }


@dataclass
class EntryState:
    """The mesa's view of a round: the tables still missing an acta (``refused``: those whose last
    report the other side refused to sign, with who refused it) and those awaiting confirmation."""

    round: Round
    matches: list[MatchInfo]
    missing: list[MatchInfo]
    awaiting: list[tuple[MatchInfo, ResultSubmission]]
    locked: bool
    refused: dict[int, str]

    @property
    def missing_rows(self) -> list[tuple[MatchInfo, str | None]]:
        """The tables missing an acta, each with who refused its last report (None: nobody)."""
        return [(m, self.refused.get(m.id)) for m in self.missing]

    @property
    def decided(self) -> int:
        return sum(1 for m in self.matches if m.decided)

    @property
    def unconfirmed(self) -> int:
        """Tables with an acta whose result does not count yet (awaiting the other signature, or
        two actas in disagreement): with none missing, what «every table has an acta» leaves open."""
        return len(self.matches) - self.decided - len(self.missing)

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.round.number,
            "locked": self.locked,
            "total": len(self.matches),
            "decided": self.decided,
            "missing": [
                {
                    "table": m.table,
                    "id": m.id,
                    "a": m.a.name,
                    "b": m.b.name if m.b else None,
                    # The other side refused to sign the last report (AMM 3.16): who; else null.
                    "refused_by": self.refused.get(m.id),
                }
                for m in self.missing
            ],
            "awaiting": [
                {
                    "table": m.table,
                    "id": m.id,
                    "submission": s.pk,
                    "score": submission_score(s),
                    "outcome": s.get_outcome_display(),
                    "by": desk_name(s.submitted_by) or s.get_source_display(),
                    # Two actas that disagree: the organizer or a juez decides (AMM 3.16).
                    "disagreement": s.status == ResultSubmission.Status.DISPUTED,
                }
                for m, s in self.awaiting
            ],
        }


def submission_score(sub: ResultSubmission) -> str:
    if sub.games_a is None or sub.games_b is None:
        return ""
    return f"{sub.games_a}–{sub.games_b}"


def entry_state(round_: Round) -> EntryState:
    matches = round_matches(round_)
    waiting = proposals(round_)
    missing = [m for m in matches if not m.decided and m.id not in waiting]
    awaiting = [(m, waiting[m.id]) for m in matches if m.id in waiting]
    return EntryState(round_, matches, missing, awaiting, round_locked(round_), refusals(missing))


def match_at_table(round_: Round, table: int) -> Match | None:
    return (
        Match.objects.filter(round=round_, table_number=table)
        .select_related("round__tournament", "pair_a", "pair_b")
        .first()
    )


def match_lookup(match: Match) -> dict[str, Any]:
    """What the mesa sees after typing a table: the pairs with their players, the result that
    stands, a proposal awaiting confirmation, the version to send back, whether it is locked."""
    pairs = pair_infos(match.round.tournament, [p for p in (match.pair_a_id, match.pair_b_id) if p])
    latest = match.submissions.select_related("submitted_by").first()
    # The acta the result on the match comes from: not the latest when a later one awaits its
    # confirmation (double check, a pair's report) or was refused.
    standing = (
        match.submissions.filter(status=ResultSubmission.Status.CONFIRMED).select_related("submitted_by").first()
        if match.outcome != Match.Outcome.PENDING
        else None
    )
    pending = match.submissions.filter(status=ResultSubmission.Status.PROPOSED).select_related("submitted_by").first()
    disputed = list(
        match.submissions.filter(status=ResultSubmission.Status.DISPUTED)
        .select_related("submitted_by")
        .order_by("version")
    )
    a = pairs[match.pair_a_id]
    b = pairs.get(match.pair_b_id) if match.pair_b_id else None
    return {
        "id": match.pk,
        "round": match.round.number,
        "table": match.table_number,
        "pool": match.pool,
        "pair_a": a.as_dict(),
        "pair_b": b.as_dict() if b else None,
        "outcome": match.outcome,
        "outcome_label": match.get_outcome_display(),
        "games_a": match.games_a,
        "games_b": match.games_b,
        "winner": None
        if match.winner_id is None
        else (a.number if match.winner_id == a.id else b.number if b else None),
        "version": latest.version if latest else 0,
        "latest_by": desk_name(latest.submitted_by) if latest else "",
        "standing_version": standing.version if standing else 0,
        "standing_by": desk_name(standing.submitted_by) if standing else "",
        "proposed": (
            {
                "id": pending.pk,
                "games_a": pending.games_a,
                "games_b": pending.games_b,
                "outcome": pending.outcome,
                "outcome_label": pending.get_outcome_display(),
                "by": desk_name(pending.submitted_by),
            }
            if pending
            else None
        ),
        # Two actas that disagree (double check, AMM 3.16), oldest first: nothing more is entered
        # until the organizer or a juez decides; empty when there is no disagreement.
        "disagreement": [
            {
                "id": d.pk,
                "version": d.version,
                "games_a": d.games_a,
                "games_b": d.games_b,
                "outcome": d.outcome,
                "outcome_label": d.get_outcome_display(),
                "by": desk_name(d.submitted_by),
            }
            for d in disputed
        ],
        # What the table's clock decided (AMM 6.1.b, 6.5.b): the acta must say the same.
        "clock_notes": clock_notes(match),
        "acta_notes": acta.notes(match),  # the juez's sanctions (AMM 5.4.1), from the apps above
        "locked": round_locked(match.round),
        # The next round's draw is committed but not yet made: a change here makes it stale.
        "next_prepared": Round.objects.filter(
            tournament_id=match.round.tournament_id, number=match.round.number + 1, status=Round.Status.PREPARED
        ).exists(),
        "is_bye": match.pair_b_id is None,
    }


def match_history(match: Match) -> list[ResultSubmission]:
    """Every version of a match's acta, newest first, with who entered and who confirmed it."""
    return list(match.submissions.select_related("submitted_by", "confirmed_by", "winner").order_by("-version"))


@dataclass
class QueueItem:
    """A line of the confirmation queue: one proposal, or the two actas of a match that disagree
    (oldest first), shown side by side."""

    match: Match
    submissions: list[ResultSubmission]
    # Of a disagreement: why the person looking may not decide it ("" if they may), set by the page
    # (scoring.services.results.resolve_refusal).
    refusal: str = ""

    @property
    def disagreement(self) -> bool:
        return self.submissions[0].status == ResultSubmission.Status.DISPUTED

    @property
    def sub(self) -> ResultSubmission:
        """The proposal (of a disagreement: the first version)."""
        return self.submissions[0]


def submissions_awaiting(tournament: Tournament) -> list[QueueItem]:
    """The confirmation queue: every proposal of the tournament, and every disagreement (its two
    actas together), oldest first."""
    subs = (
        ResultSubmission.objects.filter(match__round__tournament=tournament, status__in=AWAITING)
        .select_related("match__round", "match__pair_a", "match__pair_b", "submitted_by", "winner")
        .order_by("submitted_at", "pk")
    )
    items: dict[tuple[int, str], QueueItem] = {}
    for sub in subs:
        # A match has at most one proposal, or (instead) the two actas of a disagreement.
        key = (sub.match_id, sub.status)
        if key in items:
            items[key].submissions.append(sub)
        else:
            items[key] = QueueItem(sub.match, [sub])
    for item in items.values():
        item.submissions.sort(key=lambda s: s.version)
    return list(items.values())
