"""Reading circuits (issue 35): the ranking of pairs and of players over the circuit's tournaments.

Each tournament gives points once its final classification is decided (``Classification.final``),
by its places as the tournament's classification page shows them; a classification in several
sections (a repesca's Grupo B) continues its places after the first section's last. An expelled
pair is not classified (AMM 3.16.b), so it scores nothing.

Identity (RGPD): a player is the same person in two tournaments only when both registrations are
linked to the same user account (torneo.models.Player.user: the person, or an organizer at their
request); otherwise each registration stands alone, whatever its name. A pair is the same pair
when its players are. The ranking shows what the tournaments' public pages show: names, never a
document, phone, e-mail or account.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Count, Max, QuerySet

from circuits.identity import people
from circuits.models import Circuit, CircuitTournament, PersonLink, PlayerRating
from circuits.ranking import EventPlaces, Placed, RankRow, Scored, qualifiers, ranking
from circuits.ratings import ratings_of
from scoring.selectors.standings import cached, classification
from torneo import pagecache
from torneo.models import Pair, PairMember, Player, Tournament, TournamentRole
from torneo.typing import User

PersonKey = str  # circuits.identity: «u:<account>» or «p:<registration>»
PairKey = frozenset[PersonKey]


@dataclass(frozen=True)
class EventInfo:
    tournament: Tournament
    decided: bool
    classified: int  # pairs classified (0 until decided)


@dataclass(frozen=True)
class Result:
    """One counted (or discarded) result: the tournament's place and the points it gave."""

    event: int  # index into CircuitRanking.events
    place: str  # «3» or «3–4»
    points: float


@dataclass
class Row:
    position: int
    shared: bool
    name: str
    detail: str  # a pair's players; a player's pairs' names
    points: float
    played: int
    counted: list[Result] = field(default_factory=list)
    discarded: list[Result] = field(default_factory=list)
    qualifies: bool = False
    rating: float | None = None  # a player's ordinal (circuits.rating), once rated
    key: str = ""  # a player's address on the circuit (person_slug): their own page

    @property
    def position_label(self) -> str:
        return f"{self.position}.º" if not self.shared else f"{self.position}.º="


@dataclass
class CircuitRanking:
    events: list[EventInfo]
    pairs: list[Row]
    players: list[Row]
    decided: int  # tournaments decided


def public_circuits() -> QuerySet[Circuit]:
    return Circuit.objects.order_by("-season", "name")


def circuit_tournaments(circuit: Circuit, *, public: bool = True) -> list[Tournament]:
    """The circuit's tournaments by date; the public sees none in draft."""
    entries = CircuitTournament.objects.filter(circuit=circuit).select_related("tournament")
    tournaments = [e.tournament for e in entries]
    if public:
        tournaments = [t for t in tournaments if t.status != Tournament.Status.DRAFT]
    return tournaments


def _stamp(circuit: Circuit, tournaments: list[Tournament]) -> str:
    latest = PlayerRating.objects.aggregate(at=Max("computed_at"))["at"]
    links = PersonLink.objects.aggregate(n=Count("pk"), last=Max("pk"))  # who is the same person
    parts = [str(circuit.pk), circuit.updated_at.isoformat(), str(latest), f"{links['n']}.{links['last']}"]
    parts += [f"{t.pk}:{pagecache.tournament_stamp(t)}" for t in tournaments]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()


def circuit_ranking(circuit: Circuit) -> CircuitRanking:
    """The circuit's ranking as it stands, computed once per change of the circuit or of any of
    its tournaments (torneo.pagecache)."""
    tournaments = circuit_tournaments(circuit)
    return pagecache.cached(
        f"circuits:ranking:{circuit.pk}", _stamp(circuit, tournaments), lambda: _build(circuit, tournaments)
    )


def _places(tournament: Tournament) -> tuple[bool, list[tuple[int, int, int]]]:
    """(decided, [(pair id, first place, last place)]) from the tournament's classification."""
    result = cached("classification", tournament, lambda: classification(tournament))
    if not result.final:
        return False, []
    out: list[tuple[int, int, int]] = []
    offset = 0
    for section in result.sections:
        last = offset
        for row in section.rows:
            out.append((row.pair.id, offset + row.position, offset + row.position_to))
            last = max(last, offset + row.position_to)
        offset = last
    return True, out


def _build(circuit: Circuit, tournaments: list[Tournament]) -> CircuitRanking:
    events: list[EventInfo] = []
    placed: list[tuple[int, list[tuple[int, int, int]]]] = []
    for index, tournament in enumerate(tournaments):
        decided, places = _places(tournament)
        events.append(EventInfo(tournament, decided, len(places)))
        if decided:
            placed.append((index, places))
    pair_ids = {pair for _index, places in placed for pair, _f, _l in places}
    members: dict[int, list[PairMember]] = defaultdict(list)
    for member in (
        PairMember.objects.filter(pair_id__in=pair_ids).select_related("player", "pair").order_by("pair_id", "position")
    ):
        members[member.pair_id].append(member)

    who = people(m.player_id for ms in members.values() for m in ms)

    def person(member: PairMember) -> PersonKey:
        return who[member.player_id]

    pair_key: dict[int, PairKey] = {pid: frozenset(person(m) for m in ms) for pid, ms in members.items()}
    # Names: the latest tournament's (the list is by date).
    pair_name: dict[PairKey, tuple[str, str]] = {}
    person_name: dict[PersonKey, str] = {}
    person_pairs: dict[PersonKey, list[str]] = defaultdict(list)
    for _index, places in placed:
        for pid, _f, _l in places:
            ms = members.get(pid, [])
            if not ms:
                continue
            pair = ms[0].pair
            pair_name[pair_key[pid]] = (pair.display_name, " / ".join(m.player.full_name for m in ms))
            for m in ms:
                person_name[person(m)] = m.player.full_name
                if pair.display_name not in person_pairs[person(m)]:
                    person_pairs[person(m)].append(pair.display_name)

    table = list(circuit.points_table)
    pair_events = [
        EventPlaces(index, [Placed(pair_key[pid], f, last) for pid, f, last in places if pid in pair_key])
        for index, places in placed
    ]
    person_events = [
        EventPlaces(
            index,
            [Placed(person(m), f, last) for pid, f, last in places for m in members.get(pid, [])],
        )
        for index, places in placed
    ]
    pair_rows = ranking(pair_events, table=table, best_of=circuit.best_of)
    person_rows = ranking(person_events, table=table, best_of=circuit.best_of)
    going = {id(r) for r in qualifiers(pair_rows, circuit.final_spots)} if circuit.final_spots else set()
    pairs = [_row(r, *pair_name[r.entity], qualifies=id(r) in going) for r in pair_rows]
    ratings = ratings_of([r.entity for r in person_rows])
    players = [_row(r, person_name[r.entity], ", ".join(person_pairs[r.entity])) for r in person_rows]
    for row, ranked in zip(players, person_rows, strict=True):
        rated = ratings.get(ranked.entity)
        row.rating = round(rated.ordinal, 1) if rated is not None else None
        row.key = person_slug(ranked.entity)
    return CircuitRanking(events, pairs, players, sum(1 for e in events if e.decided))


def person_slug(person: PersonKey) -> str:
    """A person's address in a circuit's pages: «u12» (an account), «p34» (a registration)."""
    return person.replace(":", "")


@dataclass
class PersonPage:
    """A player's page in a circuit: the name, the rating, and the row of the players' ranking
    (None until a tournament of theirs is decided)."""

    name: str
    rating: PlayerRating | None
    row: Row | None
    pairs: list[tuple[Tournament, str, int]]  # (tournament, pair's name, its number) in the circuit


def person_page(circuit: Circuit, slug: str) -> PersonPage | None:
    """The page of the person ``slug`` (person_slug) if they played in one of the circuit's public
    tournaments; None otherwise (nobody else's registrations are reachable through a circuit)."""
    if len(slug) < 2 or slug[0] not in "up" or not slug[1:].isdigit():
        return None
    key = f"{slug[0]}:{int(slug[1:])}"
    tournaments = circuit_tournaments(circuit)
    mine = _registrations(circuit, tournaments).get(key)
    if not mine:
        return None
    row = next((r for r in circuit_ranking(circuit).players if r.key == slug), None)
    by_pk = {t.pk: t for t in tournaments}
    return PersonPage(
        name=mine[-1][3],
        rating=ratings_of([key]).get(key),
        row=row,
        pairs=[(by_pk[tournament], pair_name, number) for tournament, pair_name, number, _name in mine],
    )


Registration = tuple[int, str, int, str]  # (tournament id, pair's name, pair's number, player's name)


def _registrations(circuit: Circuit, tournaments: list[Tournament]) -> dict[PersonKey, list[Registration]]:
    """Each person's registrations in the circuit's public tournaments, by date; computed once per
    change of the circuit or its tournaments (as the ranking), so a player's page costs no scan."""

    def build() -> dict[PersonKey, list[Registration]]:
        found = list(
            PairMember.objects.filter(pair__tournament__in=tournaments)
            .exclude(pair__status=Pair.Status.WAITLISTED)
            .select_related("player", "pair")
        )
        who = people(m.player_id for m in found)  # the one identity function: linked registrations included
        order = {t.pk: i for i, t in enumerate(tournaments)}
        index: dict[PersonKey, list[Registration]] = defaultdict(list)
        for m in sorted(found, key=lambda m: (order[m.pair.tournament_id], m.pair.number)):
            index[who[m.player_id]].append(
                (m.pair.tournament_id, m.pair.display_name, m.pair.number, m.player.full_name)
            )
        return dict(index)

    return pagecache.cached(f"circuits:people:{circuit.pk}", _stamp(circuit, tournaments), build)


def _result(s: Scored) -> Result:
    place = str(s.first) if s.first == s.last else f"{s.first}–{s.last}"
    return Result(int(s.event), place, _number(s.points))  # type: ignore[call-overload]


def _row(row: RankRow[PairKey] | RankRow[PersonKey], name: str, detail: str, *, qualifies: bool = False) -> Row:
    return Row(
        position=row.position,
        shared=row.shared,
        name=name,
        detail=detail,
        points=_number(row.points),
        played=row.played,
        counted=[_result(s) for s in row.counted],
        discarded=[_result(s) for s in row.discarded],
        qualifies=qualifies,
    )


def _number(value: Fraction) -> float:
    return round(float(value), 2)


def tournaments_to_add(user: User, circuit: Circuit) -> QuerySet[Tournament]:
    """The tournaments this user organizes (every one for a superuser) not yet in the circuit."""
    if not user.is_authenticated:
        return Tournament.objects.none()
    qs = Tournament.objects.all()
    if not user.is_superuser:
        qs = qs.filter(roles__user_id=user.pk, roles__role=TournamentRole.Role.ORGANIZER)
    return qs.exclude(circuit_entries__circuit=circuit).distinct().order_by("-start_date", "name")


def managed_circuits(user: User) -> QuerySet[Circuit]:
    if not user.is_authenticated:
        return Circuit.objects.none()
    if user.is_superuser:
        return Circuit.objects.all()
    return Circuit.objects.filter(managers=user.pk)


def linkable_players(user: User, circuit: Circuit) -> QuerySet[Player]:
    """The registrations of the circuit's tournaments this user organizes (all for a superuser)."""
    tournaments = CircuitTournament.objects.filter(circuit=circuit).values_list("tournament_id", flat=True)
    qs = Player.objects.filter(tournament_id__in=tournaments, memberships__isnull=False)
    if not user.is_authenticated:
        return Player.objects.none()
    if not user.is_superuser:
        qs = qs.filter(tournament__roles__user_id=user.pk, tournament__roles__role=TournamentRole.Role.ORGANIZER)
    return qs.select_related("tournament").distinct().order_by("last_name", "first_name", "tournament__start_date")
