"""A juez's tables (AMM 5.1: the organizer designates one or several jueces; in a big room each
walks a zone): «1-20, 41-50» as ranges of table numbers. Pure: parsed here, stored normalised on
the juez's role, read by the juez's desk to show their tables first."""

from __future__ import annotations

import re
from collections.abc import Sequence

MAX_TABLE = 9999
_PART = re.compile(r"^(\d{1,4})(?:\s*-\s*(\d{1,4}))?$")


def parse_tables(text: str) -> tuple[tuple[int, int], ...]:
    """«1-20, 41-50, 60» → ((1, 20), (41, 50), (60, 60)); empty text, no ranges. ValueError (in
    Spanish, naming the part) for anything else."""
    ranges: list[tuple[int, int]] = []
    for raw in re.split(r"[,;]", text or ""):
        part = raw.strip()
        if not part:
            continue
        found = _PART.match(part)
        if found is None:
            raise ValueError(f"«{part[:20]}» no es una mesa ni un intervalo de mesas (p. ej. 1-20, 41-50)")
        first = int(found.group(1))
        last = int(found.group(2) or first)
        if not 1 <= first <= last <= MAX_TABLE:
            raise ValueError(f"«{part}»: las mesas van de 1 a {MAX_TABLE}, la primera antes que la última")
        ranges.append((first, last))
    return tuple(sorted(set(ranges)))


def format_tables(ranges: Sequence[tuple[int, int]]) -> str:
    """The normalised text: «1-20, 41-50, 60»."""
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges)


def in_tables(table: int | None, ranges: Sequence[tuple[int, int]]) -> bool:
    """Whether ``table`` is in the ranges (no ranges: every table)."""
    if not ranges:
        return True
    return table is not None and any(a <= table <= b for a, b in ranges)
