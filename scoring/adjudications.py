"""The juegos of a partida that nobody won at the table: given by the juez (a sanction, AMM 5.4.2)
or by a rule (a pair late, 6.1.b). They are facts of the partida in their own right, and every
place that decides its result reads them here, from one place: the acta the mesa types cannot
contradict them (`scoring.services.results.clean_result`), and a juego given by sanction that
decides the partida counts at once (5.1 «inapelables»; 6.1.b «no pueden ser perdonadas»).

Where they live: with a clock, on the clock (`ClockJuego.article` for a sanction's juego, the
tick's ``6.1.b:<side>:<n>`` events for lateness); without one, in the app that gave them (the
referees' sanctions), which registers a source in its ``AppConfig.ready`` so that scoring reads
them without importing it (as ``scoring.acta`` does for the acta's notes)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from django.utils.translation import gettext as _

from scoring.models import ClockEvent, ClockJuego
from torneo.models import Match


@dataclasses.dataclass(frozen=True)
class Adjudged:
    """A juego given to ``side`` (the pair "A" or "B" of the table) by ``article``, in words."""

    side: str
    article: str
    label: str


Source = Callable[[Sequence[Match]], dict[int, list[Adjudged]]]
_SOURCES: list[Source] = []


def register(source: Source) -> None:
    """Add a source of adjudicated juegos (idempotent)."""
    if source not in _SOURCES:
        _SOURCES.append(source)


def _on_the_clock(matches: Sequence[Match]) -> dict[int, list[Adjudged]]:
    ids = [m.pk for m in matches]
    found: dict[int, list[Adjudged]] = {}
    juegos = (
        ClockJuego.objects.filter(clock__match_id__in=ids)
        .exclude(article="")
        .values_list("clock__match_id", "winner", "article")
    )
    for match_id, winner, article in juegos.order_by("number"):
        found.setdefault(match_id, []).append(
            Adjudged(winner, article, _("juego dado por el juez (AMM %(a)s)") % {"a": article})
        )
    lost: dict[tuple[int, str], int] = {}
    events = ClockEvent.objects.filter(clock__match_id__in=ids, article="6.1.b").values_list("clock__match_id", "key")
    for match_id, key in events:
        parts = key.split(":")
        if len(parts) == 3 and parts[2].isdigit() and parts[1] in ("A", "B"):
            lost[(match_id, parts[1])] = max(lost.get((match_id, parts[1]), 0), int(parts[2]))
    for (match_id, late), n in sorted(lost.items()):
        for _n in range(n):
            found.setdefault(match_id, []).append(
                Adjudged("B" if late == "A" else "A", "6.1.b", _("juego perdido por retraso (AMM 6.1.b)"))
            )
    return found


def adjudicated_by_match(matches: Sequence[Match]) -> dict[int, list[Adjudged]]:
    """Every adjudicated juego of each of ``matches``, by match id: the clock's and the registered
    sources'."""
    found: dict[int, list[Adjudged]] = {m.pk: [] for m in matches}
    for source in (_on_the_clock, *_SOURCES):
        for match_id, juegos in source(matches).items():
            found[match_id].extend(juegos)
    return found


def adjudicated(match: Match) -> list[Adjudged]:
    """The adjudicated juegos of one partida."""
    return adjudicated_by_match([match])[match.pk]


def won_by(juegos: Sequence[Adjudged], side: str) -> list[Adjudged]:
    return [j for j in juegos if j.side == side]
