"""The sources a finding cites, named for people. The engine and the site cite articles the way
the code does — ``AMM 3.8``, ``EHMT art. 12``, ``seed 000 (anuncio de las jugadas)`` — and the
JSON of the API keeps them so; the pages show «Reglamento AMM, art. 3.8», «Reglamento EHMT,
art. 12», «Reglas generales del mus (anuncio de las jugadas)». The seeds are the source texts the
project is built from (``seeds/README.md`` beside the project names them): 000 the article «El
mus» (Fournier's rules and the regional reglamentos), 001 the rules of the site «Juegos de Mesa»,
002 the Euskal Herriko Mus Txapelketa's reglamento, 003 Fournier's rules, 004 the AMM's
reglamento v6.4. Pure: no database, nothing about the other modules of the package.
"""

from __future__ import annotations

import re
from typing import Final

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

SEED_NAMES: Final[dict[str, Promise]] = {
    "000": gettext_lazy("Reglas generales del mus"),
    "001": gettext_lazy("Reglas del mus de «Juegos de Mesa»"),
    "002": gettext_lazy("Reglamento EHMT"),
    "003": gettext_lazy("Reglas Fournier"),
    "004": gettext_lazy("Reglamento AMM"),
}
"""Each seed's name on the pages, by its number."""

_REGLAMENTOS: Final[dict[str, Promise]] = {
    "AMM": gettext_lazy("Reglamento AMM"),
    "EHMT": gettext_lazy("Reglamento EHMT"),
}
_CITATION: Final = re.compile(r"(?:seed (?P<seed>\d{3})|(?P<body>AMM|EHMT))(?![\w.])\s*(?P<rest>.*)", re.DOTALL)
_NUMBER: Final = re.compile(r"\d+(?:\.\w+)*")  # 3.8, 3.4.c, 4.1a, 12
_SEPARATOR: Final = re.compile(r"\s*(?:,|/|\by\b)\s*")


def _numbers(text: str) -> list[str] | None:
    parts = [part for part in _SEPARATOR.split(text) if part]
    return parts if parts and all(_NUMBER.fullmatch(part) for part in parts) else None


def _enumeration(parts: list[str]) -> str:
    if len(parts) == 1:
        return parts[0]
    return _("%(first)s y %(last)s") % {"first": ", ".join(parts[:-1]), "last": parts[-1]}


def article_label(article: str) -> str:
    """The article a finding cites, as a person reads it: ``AMM 3.8`` → «Reglamento AMM, art.
    3.8»; ``AMM 3.4.c, 3.16`` → «Reglamento AMM, arts. 3.4.c y 3.16»; ``EHMT arts. 12–14`` →
    «Reglamento EHMT, arts. 12–14»; ``seed 000 (órdago)`` → «Reglas generales del mus
    (órdago)»; ``seed 002 art. 11`` → «Reglamento EHMT, art. 11». Anything else as it is."""
    match = _CITATION.fullmatch(article.strip())
    if match is None:
        return article
    source = SEED_NAMES.get(match["seed"]) if match["seed"] else _REGLAMENTOS[match["body"]]
    if source is None:  # a seed the project does not have
        return article
    name, rest = str(source), match["rest"].strip()
    if not rest:
        return name
    if rest.startswith(("art.", "arts.")):
        return f"{name}, {rest}"
    if rest.startswith(","):
        return f"{name}{rest}"
    numbers = _numbers(rest)
    if numbers is not None:
        if len(numbers) == 1:
            return _("%(source)s, art. %(n)s") % {"source": name, "n": numbers[0]}
        return _("%(source)s, arts. %(n)s") % {"source": name, "n": _enumeration(numbers)}
    return f"{name} {rest}"
