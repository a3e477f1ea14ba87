"""What a partida's acta says besides its result and its clock: the notes the apps above scoring
add (referees: the juez's sanctions, AMM 5.4.1 «anotará en el acta el apercibimiento», and the
suplentes, 5.8; scoring's own rulings on hands, chapter IV). They register a source in their
``AppConfig.ready``, so scoring shows them without importing them.

A source reads the notes of many partidas at once (a round's actas: one query per source, not per
table) and answers them by match id; ``notes`` asks for one partida the same way."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from torneo.models import Match

NoteSource = Callable[[Sequence[Match]], dict[int, list[str]]]
_SOURCES: list[NoteSource] = []


def register(source: NoteSource) -> None:
    """Add a source of acta notes (idempotent: a second registration of the same one is ignored)."""
    if source not in _SOURCES:
        _SOURCES.append(source)


def notes_by_match(matches: Sequence[Match]) -> dict[int, list[str]]:
    """Every registered source's notes for each of ``matches``, by match id, in registration order."""
    found: dict[int, list[str]] = {match.pk: [] for match in matches}
    for source in _SOURCES:
        for match_id, lines in source(matches).items():
            found[match_id].extend(lines)
    return found


def notes(match: Match) -> list[str]:
    """The notes of one partida."""
    return notes_by_match([match])[match.pk]
