"""What a partida's acta says besides its result and its clock: the notes the apps above scoring
add (referees: the juez's sanctions, AMM 5.4.1 «anotará en el acta el apercibimiento»). They
register a source in their ``AppConfig.ready``, so scoring shows them without importing them."""

from __future__ import annotations

from collections.abc import Callable

from torneo.models import Match

NoteSource = Callable[[Match], list[str]]
_SOURCES: list[NoteSource] = []


def register(source: NoteSource) -> None:
    """Add a source of acta notes (idempotent: a second registration of the same one is ignored)."""
    if source not in _SOURCES:
        _SOURCES.append(source)


def notes(match: Match) -> list[str]:
    """Every registered source's notes for ``match``, in registration order."""
    return [note for source in _SOURCES for note in source(match)]
