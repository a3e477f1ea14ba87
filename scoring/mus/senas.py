"""Señas, the signals between partners: chapter VII of the AMM reglamento v6.4 (seed 004).

Which señas a hand may pass is the 7.6 table. Its rows are the hand's pares (duples, medias de
reyes, medias de ases, other medias, dos reyes, dos ases, other pares, no pares), its columns
the hand's total (31, juego, 30, 29, less), and every cell says the same thing: the seña of the
hand's *whole* pares jugada (none for other pares or no pares) plus the seña of its juego or
punto (none below 29). From 7.1 and 7.6 follow the refusals:

* «ciego» only when the hand has no other seña (7.1: «seña incompatible si se tiene una jugada
  con seña establecida»);
* «juego» never for 31, which has «treinta y una» (7.1: «no vale para la treinta y una»);
* no partial señas (7.6): with duples de reyes y ases neither «dos reyes» nor «dos ases»,
  with medias de reyes not «dos reyes», with four reyes only «duples».

Ranks follow the rule set: with 8 reyes (AMM 1.2) a tres is a rey and a dos an as, so
``12 12 3 x`` holds medias de reyes; with 4 reyes they keep their own rank.

Reading of «medias». 7.1 gives «Medias de Reyes» (closed lips moved to one side *before* the
grande lance ends) and «Medias» (the same gesture *after* it). So «medias de reyes» is allowed
only with medias de reyes, and «medias» with medias de reyes or any other medias but not with
medias de ases, which have their own seña («sacar la lengua hacia un lado»). The moment is
optional: ``tras_grande`` refuses «medias de reyes» (after grande the gesture means «medias»,
7.1); ``antes_de_grande`` still allows «medias» for other medias, since 7.1 only times the
medias de reyes; not given, nothing is refused for the moment.

7.2 (no señas in the partida's first hand until the mus is cut) and 7.3 / 2.2.d (no señas
during the deal) refuse any seña, whatever the hand.
"""

from __future__ import annotations

import dataclasses
from typing import Final

from .cards import REY, Hand, parse_hand
from .core import Lance
from .errors import MusError, RecordFormatError
from .evaluation import PlayerFacts, evaluate
from .jsonio import JSON, _describe, expect_bool, expect_object, read_rules
from .rules import AMM, RuleSet

SENAS: Final[tuple[str, ...]] = (
    "dos reyes",
    "dos ases",
    "medias de reyes",
    "medias",
    "medias de ases",
    "duples",
    "juego",
    "treinta y una",
    "treinta",
    "veintinueve",
    "ciego",
)
"""The señas of 7.1, in its order (which is also the order of every list of señas here)."""

ANTES_DE_GRANDE: Final = "antes_de_grande"
TRAS_GRANDE: Final = "tras_grande"
MOMENTS: Final[tuple[str, ...]] = (ANTES_DE_GRANDE, TRAS_GRANDE)

_AS: Final = 1
# The pares seña of a pareja and of medias, by rank (any other rank: none, and «medias»).
_PAREJA_SENAS: Final[dict[int, tuple[str, ...]]] = {REY: ("dos reyes",), _AS: ("dos ases",)}
_MEDIAS_SENAS: Final[dict[int, tuple[str, ...]]] = {REY: ("medias de reyes", "medias"), _AS: ("medias de ases",)}

_LANCES: Final[dict[str, Lance]] = {
    "dos reyes": Lance.PARES,
    "dos ases": Lance.PARES,
    # 7.1: passed «antes de terminar el lance de Grande», so it speaks during grande.
    "medias de reyes": Lance.GRANDE,
    "medias": Lance.PARES,
    "medias de ases": Lance.PARES,
    "duples": Lance.PARES,
    "juego": Lance.JUEGO,
    "treinta y una": Lance.JUEGO,
    "treinta": Lance.PUNTO,
    "veintinueve": Lance.PUNTO,
    "ciego": Lance.PARES,
}

_RUN_KEYS: Final = (
    "hand",
    "sena",
    "rules",
    "moment",
    "first_hand_before_cut",
    "during_deal",
    "asking",
    "rival_asks",
)


@dataclasses.dataclass(frozen=True, slots=True)
class SenaVerdict:
    """Whether one seña may be passed with one hand, and the article that says so."""

    sena: str
    allowed: bool
    article: str
    """«7.1», «7.2», «7.3» or «7.6» (AMM reglamento v6.4)."""
    allowed_senas: tuple[str, ...]
    """The hand's cell of the 7.6 table, in :data:`SENAS` order, less «medias de reyes» when
    the moment is ``tras_grande`` (so every seña listed here is allowed at that moment)."""
    explanation: str
    """One Spanish sentence: the article, the hand's jugada and why."""
    lance: Lance
    """The lance the seña speaks of (GRANDE for «medias de reyes», passed before grande ends)."""


def _rank_counts(hand: Hand, rules: RuleSet) -> dict[int, int]:
    """How many cards of each rank, with treses as reyes and doses as ases under 8 reyes."""
    counts: dict[int, int] = {}
    for number in hand.numbers:
        if rules.reyes == 8:
            number = {3: REY, 2: _AS}.get(number, number)
        counts[number] = counts.get(number, 0) + 1
    return counts


def _pares_senas(counts: dict[int, int]) -> tuple[str, ...]:
    """The row of the 7.6 table: the seña(s) of the hand's whole pares jugada."""
    sizes = sorted(counts.values(), reverse=True)
    if sizes[0] == 4 or sizes[:2] == [2, 2]:
        return ("duples",)  # four equal cards included (they are duples, evaluation.py)
    for rank, count in counts.items():
        if count == 3:
            return _MEDIAS_SENAS.get(rank, ("medias",))
        if count == 2:
            return _PAREJA_SENAS.get(rank, ())
    return ()


def _contained_senas(counts: dict[int, int]) -> set[str]:
    """Every pares seña naming a part of the hand's cards: a seña here that the table does not
    allow is a partial seña (7.6), not merely a wrong one (7.1)."""
    contained: set[str] = set()
    for rank, count in counts.items():
        if count >= 2:
            contained.update(_PAREJA_SENAS.get(rank, ()))
        if count >= 3:
            contained.update(_MEDIAS_SENAS.get(rank, ("medias",)))
    return contained


def _total_sena(total: int) -> str | None:
    """The column of the 7.6 table: the juego or punto seña of the total, if any."""
    if total == 31:
        return "treinta y una"  # not «juego», 7.1
    if total >= 32:
        return "juego"
    return {30: "treinta", 29: "veintinueve"}.get(total)


def _cell(counts: dict[int, int], total: int) -> tuple[str, ...]:
    senas = _pares_senas(counts)
    column = _total_sena(total)
    if column is not None:
        senas = (*senas, column)
    return senas or ("ciego",)  # ciego only with no seña at all, 7.1


def allowed_senas(hand: Hand, rules: RuleSet = AMM) -> tuple[str, ...]:
    """The señas ``hand`` may pass under the 7.6 table, in :data:`SENAS` order."""
    return _cell(_rank_counts(hand, rules), evaluate(hand, rules).total)


def read_sena(value: object, field: str = "sena") -> str:
    """The canonical name of a seña of 7.1, read in any case and spacing."""
    if isinstance(value, str):
        name = " ".join(value.split()).lower()
        if name in SENAS:
            return name
    shown = f"«{value}»" if isinstance(value, str) else _describe(value)
    raise RecordFormatError(field, f"seña desconocida {shown}: las señas de 7.1 son: {', '.join(SENAS)}")


def _read_moment(value: object, field: str = "moment") -> str | None:
    if value is None:
        return None
    if isinstance(value, str) and value in MOMENTS:
        return value
    raise RecordFormatError(field, f"se esperaba «{ANTES_DE_GRANDE}», «{TRAS_GRANDE}» o null, no {_describe(value)}")


def _lista(senas: tuple[str, ...]) -> str:
    quoted = [f"«{sena}»" for sena in senas]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} y {quoted[-1]}"


def _jugada(facts: PlayerFacts) -> str:
    kind = "juego" if facts.total >= 31 else "punto"
    return f"la mano ({facts.pares_name or 'sin pares'}; {facts.total} de {kind})"


def check_sena(
    hand: Hand,
    sena: str,
    rules: RuleSet = AMM,
    *,
    moment: str | None = None,
    first_hand_before_cut: bool = False,
    during_deal: bool = False,
    asking: bool = False,
    rival_asks: bool = False,
) -> SenaVerdict:
    """Whether ``hand`` may pass ``sena`` (chapter VII), and the article that decides it.

    ``moment`` is ``"antes_de_grande"``, ``"tras_grande"`` or ``None`` (unknown). ``asking``: the
    seña was made to ask the partner's jugada, which 7.5 forbids whatever the hand. ``rival_asks``:
    a rival asks whether the seña he thinks he saw is true; the verdict is the same, but 7.4 says
    the player need not answer, so the article is 7.4. Raises :class:`RecordFormatError` for an
    unknown seña or moment.
    """
    name = read_sena(sena)
    moment = _read_moment(moment)
    facts = evaluate(hand, rules)
    counts = _rank_counts(hand, rules)
    cell = _cell(counts, facts.total)
    allowed = tuple(s for s in cell if not (moment == TRAS_GRANDE and s == "medias de reyes"))
    lista = _lista(allowed)
    ok = name in allowed and not (first_hand_before_cut or during_deal or asking)
    if asking:
        article, why = "7.5", "está prohibido hacer señas con objeto de preguntar jugada"
    elif first_hand_before_cut:
        article, why = "7.2", "en la primera mano de la partida no se pueden pasar señas hasta cortar el mus"
    elif during_deal:
        article, why = "7.3", "no se pueden pasar señas durante los repartos (también 2.2.d)"
    elif ok:
        article, why = "7.6", f"la tabla le admite {lista}"
    elif name in cell:  # «medias de reyes» tras grande
        article, why = "7.1", "tras el lance de grande ese gesto ya no es «medias de reyes» sino «medias»"
    elif name == "ciego":
        article, why = "7.1", f"«ciego» es incompatible con una jugada con seña establecida ({lista})"
    elif name in _contained_senas(counts):
        article, why = "7.6", f"sería una seña parcial de {facts.pares_name}: la tabla solo le admite {lista}"
    elif name == "juego" and facts.total == 31:
        article, why = "7.1", f"«juego» no vale para la treinta y una: la tabla le admite {lista}"
    else:
        article, why = "7.1", f"esa seña no corresponde a su jugada: la tabla solo le admite {lista}"
    verb = "puede" if ok else "no puede"
    explanation = f"AMM {article}: {_jugada(facts)} {verb} pasar la seña «{name}» porque {why}."
    if rival_asks:
        article = "7.4"
        explanation += (
            " AMM 7.4: si un contrario pregunta por la veracidad de una seña que cree haber visto, no hay "
            "obligación de contestar."
        )
    return SenaVerdict(name, ok, article, allowed, explanation, _LANCES[name])


def _read_hand(value: object, rules: RuleSet, field: str = "hand") -> Hand:
    if not isinstance(value, str):
        raise RecordFormatError(field, f"se esperaba una mano como «12o 11c 7e 1b», no {_describe(value)}")
    try:
        hand = parse_hand(value)
    except MusError as error:
        raise RecordFormatError(field, str(error)) from None
    for card in hand:
        if card not in rules.deck:
            raise RecordFormatError(field, f"la carta {card} no está en la baraja de este reglamento")
    return hand


def run_sena(line: JSON) -> dict[str, JSON]:
    """The ``python -m scoring.mus sena`` command for one decoded JSON line.

    In: ``{"hand": "12o 12c 1e 1b", "sena": "dos reyes", "rules": "amm"}``, optionally
    ``"moment"``, ``"first_hand_before_cut"`` and ``"during_deal"``. Out: ``allowed``,
    ``article``, ``allowed_senas``, ``explanation`` and ``hand`` (its ``pares`` in words or
    null, and its ``total``). Bad input raises :class:`RecordFormatError` naming the field.
    """
    data = expect_object(line, "")
    for key in data:
        if key not in _RUN_KEYS:
            raise RecordFormatError(key, f"clave desconocida; las claves son: {', '.join(_RUN_KEYS)}")
    if "hand" not in data:
        raise RecordFormatError("hand", "falta: la mano de quien pasa la seña, p. ej. «12o 12c 1e 1b»")
    if "sena" not in data:
        raise RecordFormatError("sena", f"falta: una de las señas de 7.1 ({', '.join(SENAS)})")
    rules = read_rules(data.get("rules"))
    hand = _read_hand(data["hand"], rules)
    verdict = check_sena(
        hand,
        read_sena(data["sena"]),
        rules,
        moment=_read_moment(data.get("moment")),
        first_hand_before_cut=expect_bool(data.get("first_hand_before_cut", False), "first_hand_before_cut"),
        during_deal=expect_bool(data.get("during_deal", False), "during_deal"),
        asking=expect_bool(data.get("asking", False), "asking"),
        rival_asks=expect_bool(data.get("rival_asks", False), "rival_asks"),
    )
    facts = evaluate(hand, rules)
    answer: dict[str, JSON] = {
        "allowed": verdict.allowed,
        "article": verdict.article,
        "allowed_senas": list(verdict.allowed_senas),
        "explanation": verdict.explanation,
        "hand": {"pares": facts.pares_name, "total": facts.total},
    }
    if verdict.article == "7.4":
        answer["must_answer"] = False
    return answer
