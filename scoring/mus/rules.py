"""Rule sets: every option the reglamentos disagree on, made explicit, and the named presets.

A :class:`RuleSet` is an immutable value; the presets cite the text each option comes from.
Build a variant with ``dataclasses.replace(AMM, name="amm_30", target=30)``.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Final

from .cards import CABALLO, DECK_WITHOUT_DOSES, FULL_DECK, REY, SOTA, Card, Suit
from .core import Lance
from .errors import InvalidRuleSetError, UnknownRuleSetError


class Real31(enum.Enum):
    """Which hands, if any, are the «31 real», the 31 that beats every juego (seed 000, «La real»).

    The real is always three sietes and one card worth 10; the variants differ in that card and
    in suits. AMM 1.7.b does not admit it (``OFF``).
    """

    OFF = "no"
    ANY_FIGURE = "figura"
    """Three sietes and a sota, caballo or rey, not a tres (seed 000, «cualquier figura real»)."""
    FIGURE_OR_THREE = "figura_o_tres"
    """Three sietes and any figure or a tres (seed 000, Cataluña)."""
    SOTA = "sota"
    """Three sietes and a sota of any suit (seed 000, Cantabria and Asturias)."""
    CABALLO = "caballo"
    """Three sietes and a caballo (seed 000, «solo con la figura del caballo»)."""
    DISTINCT_SUITS = "palos_distintos"
    """Three sietes and a figure, the four cards of four suits (seed 000, «de distinto palo»)."""
    SOTA_DE_OROS = "sota_de_oros"
    """Three sietes of any suit and the sota de oros (seed 000, «la mayormente aceptada»)."""
    SOTA_DE_OROS_DISTINCT_SUITS = "sota_de_oros_palos_distintos"
    """The sota de oros and the three sietes of the other suits (seed 000, last variant)."""

    @property
    def needs_suits(self) -> bool:
        """Whether suits decide (then the evaluator checks them for the few candidate hands)."""
        return self in _SUIT_VARIANTS

    def admits_numbers(self, numbers: tuple[int, ...]) -> bool:
        """Whether four numbers can make the real under this variant (suits aside).

        The caller also checks the total is 31 (a tres is worth 3 under 4 reyes).
        """
        if self is Real31.OFF:
            return False
        ordered = sorted(numbers)
        sietes = [number for number in ordered if number == 7]
        others = [number for number in ordered if number != 7]
        return len(sietes) == 3 and len(others) == 1 and others[0] in _REAL_FOURTH[self]

    def admits(self, cards: tuple[Card, ...]) -> bool:
        """Whether these four cards are a real under this variant (suits included)."""
        if not self.admits_numbers(tuple(card.number for card in cards)):
            return False
        fourth = next(card for card in cards if card.number != 7)
        siete_suits = {card.suit for card in cards if card.number == 7}
        if self is Real31.DISTINCT_SUITS:
            return fourth.suit not in siete_suits
        if self is Real31.SOTA_DE_OROS:
            return fourth.suit is Suit.OROS
        if self is Real31.SOTA_DE_OROS_DISTINCT_SUITS:
            return fourth.suit is Suit.OROS and Suit.OROS not in siete_suits
        return True


_SUIT_VARIANTS: Final = frozenset(
    {Real31.DISTINCT_SUITS, Real31.SOTA_DE_OROS, Real31.SOTA_DE_OROS_DISTINCT_SUITS}
)
_REAL_FOURTH: Final[dict[Real31, frozenset[int]]] = {
    Real31.OFF: frozenset(),
    Real31.ANY_FIGURE: frozenset({SOTA, CABALLO, REY}),
    Real31.FIGURE_OR_THREE: frozenset({SOTA, CABALLO, REY, 3}),
    Real31.SOTA: frozenset({SOTA}),
    Real31.CABALLO: frozenset({CABALLO}),
    Real31.DISTINCT_SUITS: frozenset({SOTA, CABALLO, REY}),
    Real31.SOTA_DE_OROS: frozenset({SOTA}),
    Real31.SOTA_DE_OROS_DISTINCT_SUITS: frozenset({SOTA}),
}


@dataclasses.dataclass(frozen=True)
class RuleSet:
    """The options that change how a hand is evaluated, bet and counted.

    Options that only concern play at the table (señas, mus visto, lying) are not here: the
    engine only needs what changes who wins and how many tantos.
    """

    name: str
    title: str
    source: str
    reyes: int = 8
    """8: treses are reyes and doses are ases, in rank and value (AMM 1.2); 4: they keep theirs."""
    real_31: Real31 = Real31.OFF
    """The 31 real variant (AMM 1.7.b: none)."""
    deje_pares: bool = True
    """Con deje (AMM 1.7.c): a pair whose envite is declined also scores its pares at the count."""
    deje_juego: bool = True
    """Con deje in juego (AMM 1.7.c)."""
    deje_punto: bool = True
    """Con deje in punto (AMM 1.7.c): the pair whose envite is declined scores the punto."""
    target: int = 40
    """Tantos that win a juego (AMM 1.7.a: 40)."""
    envite_cap: int | None = None
    """None: an envite may be any number (AMM 3.6). N: an envite above N counts as 2 (Asturias)."""
    ordago_jugada_minima_annulled: bool = True
    """AMM 3.12.a: an órdago accepted with jugada mínima is annulled and scored as declined."""
    with_doses: bool = True
    """False for La Rioja's 36-card deck (seed 000)."""
    articles: tuple[tuple[str, str], ...] = ()
    """The rule set's own article for a finding, as ``(key, article)`` pairs over the keys of
    :data:`AMM_ARTICLES`, where its reglamento has one; :meth:`article` falls back to the AMM's."""

    _mus_table: ClassVar[Any] = None
    """The evaluator's lookup table, set on the instance on first use (evaluation.py)."""

    def __post_init__(self) -> None:
        if self.reyes not in (4, 8):
            raise InvalidRuleSetError(f"«reyes» debe ser 8 o 4, no {self.reyes!r}")
        if self.target < 1:
            raise InvalidRuleSetError(f"el objetivo del juego debe ser al menos 1 tanto, no {self.target!r}")
        if self.envite_cap is not None and self.envite_cap < 2:
            raise InvalidRuleSetError(f"el tope de envite debe ser al menos 2, no {self.envite_cap!r}")
        unknown = [key for key, _article in self.articles if key not in AMM_ARTICLES]
        if unknown:
            raise InvalidRuleSetError(f"artículo para una clave desconocida {unknown[0]!r}")

    @property
    def deck(self) -> frozenset[Card]:
        """The cards dealt under these rules."""
        return FULL_DECK if self.with_doses else DECK_WITHOUT_DOSES

    def article(self, key: str) -> str:
        """The article a finding cites under these rules: this reglamento's own, else the AMM's
        (``key`` is one of :data:`AMM_ARTICLES`)."""
        for name, article in self.articles:
            if name == key:
                return article
        return AMM_ARTICLES[key]

    def con_deje(self, lance: Lance) -> bool:
        """Whether ``lance`` (pares, juego or punto) is played con deje (AMM 1.7.c)."""
        if lance is Lance.PARES:
            return self.deje_pares
        if lance is Lance.JUEGO:
            return self.deje_juego
        return lance is Lance.PUNTO and self.deje_punto


AMM_ARTICLES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "declaracion_pares_si": "AMM 4.1a",  # «pares sí» without pares
        "declaracion_pares_no": "AMM 4.1a",  # «pares no» holding pares
        "declaracion_juego_si": "AMM 4.1a",  # «juego sí» without juego
        "declaracion_juego_no": "AMM 4.1a",  # «juego no» holding juego
        "efectos_del_error": "AMM 4.2",  # what a false declaration does to the count
        "recuento": "AMM 3.13",  # the count, grande, chica, pares, juego or punto
        "objetivo": "AMM 1.7.a",  # juegos to 40: the first pair to the target wins the juego
        "numero_de_cartas": "AMM 2.7",  # cards de más o de menos
    }
)
"""The article a finding cites by default, by key; a :class:`RuleSet` may name its own
(``RuleSet.articles``)."""

AMM: Final = RuleSet(
    name="amm",
    title="AMM v6.4 (Asociación Madrileña de Mus)",
    source=(
        "seed 004, reglamento AMM v6.4: 1.2 ocho reyes y ocho ases; 1.7.a juegos a 40 tantos; "
        "1.7.b no vale la 31 real; 1.7.c con deje en pares, juego y punto; 3.6 envites de "
        "cualquier número; 3.12.a órdago aceptado con jugada mínima, anulado"
    ),
)

FOURNIER: Final = RuleSet(
    name="fournier",
    title="Fournier",
    source=(
        "seed 000 and seed 003, reglas Fournier: ocho reyes y ocho ases; 40 piedras; la real "
        "«no tiene validez universal» (no); con deje: «se llevará también el valor de su "
        "jugada… aunque sus cartas fueran peores» (pares, juego) y «cobrará otra de punto al "
        "final» (punto); no rule on jugada mínima"
    ),
    ordago_jugada_minima_annulled=False,
)

EHMT: Final = RuleSet(
    name="ehmt",
    title="Euskal Herriko Mus Txapelketa",
    source=(
        "seed 002, EHMT 2009: art. 1 partidas a 8 hamarreko (40 tantos), which seed 000 "
        "(Guipúzcoa) ties to ocho reyes; art. 8 a declined envite gives its pair «tanto bat» (the "
        "deje); art. 16, the count, sin deje in pares: «i. Pasoan joan bada, parerik onenak dituen "
        "bikotearen pareak kontatuko dira… ii. Apusturik izan bada, aurrekoaz gain apustuan "
        "jarritako tantoak ere jasoko dira» (with any envite, accepted or not, the bet's tantos on "
        "top of i: the pares of the pair with the best pares); sin deje in juego: «Pareetan "
        "bezala… Bikote irabazleak bakarrik kontatuko ditu tantoak» (as in pares; only the "
        "winning pair counts); con deje in punto: «ii. Apustua egin eta utzi bada, egin duenak "
        "jasoko du tantoa» (an envite declined: its bettor takes the punto's tanto); errors in "
        "the declarations: arts. 12–14; no real (seed 000, Euskadi)"
    ),
    deje_pares=False,
    deje_juego=False,
    ordago_jugada_minima_annulled=False,
    articles=(
        # Seed 002 art. 12: «Pareak izanda, ohar gabean, ez dituela esan duen jokalaririk balego»
        # (holding pares, said he had none); 13: «Jokorik izan gabe… baduela esan» (said juego
        # without it); 14: «Jokoa izanda… ez duela esan» (held juego, said no). A false «pares sí»
        # has no EHMT article: it keeps AMM 4.1a.
        ("declaracion_pares_no", "EHMT art. 12"),
        ("declaracion_juego_si", "EHMT art. 13"),
        ("declaracion_juego_no", "EHMT art. 14"),
        ("efectos_del_error", "EHMT arts. 12–14"),
        # Art. 16: «Kontaketa, lehenik handira, ondoren txikira, paretara eta jokora edo puntura».
        ("recuento", "EHMT art. 16"),
        # Art. 1: «8 hamarrekotara izango diren 3 partida».
        ("objetivo", "EHMT art. 1"),
        # Art. 3: «Lauk arta banatuko zaizkio jokalariei bakoitzari» (four cards to each player).
        ("numero_de_cartas", "EHMT art. 3"),
    ),
)

_REGIONAL = "seed 000, «Reglamentos regionales»"
_FOURNIER_REST = "; other options as Fournier"

REGIONAL: Final[tuple[RuleSet, ...]] = (
    RuleSet(
        name="aragon",
        title="Aragón (AAAMUS)",
        source=f"{_REGIONAL}, Aragón: ocho reyes, no vale la real{_FOURNIER_REST}",
        ordago_jugada_minima_annulled=False,
    ),
    RuleSet(
        name="asturias",
        title="Federación Asturiana de Mus",
        source=(
            f"{_REGIONAL}, Asturias: ocho reyes; la 31 real es tres sietes y una sota; un envite "
            f"de más de 40 tantos equivale a un envido de dos{_FOURNIER_REST}"
        ),
        real_31=Real31.SOTA,
        envite_cap=40,
        ordago_jugada_minima_annulled=False,
    ),
    RuleSet(
        name="cantabria",
        title="Cantabria",
        source=(
            f"{_REGIONAL}, Cantabria: ocho reyes, juegos a 40, la real es tres sietes y sota de "
            f"cualquier palo{_FOURNIER_REST}"
        ),
        real_31=Real31.SOTA,
        ordago_jugada_minima_annulled=False,
    ),
    RuleSet(
        name="castilla_la_mancha",
        title="Federación Castellano Manchega de Mus",
        source=f"{_REGIONAL}, Castilla-La Mancha: no scoring difference listed{_FOURNIER_REST}",
        ordago_jugada_minima_annulled=False,
    ),
    RuleSet(
        name="cataluna",
        title="Cataluña",
        source=(
            f"{_REGIONAL}, Cataluña: ocho reyes; vale la 31 real con cualquier figura y/o tres; "
            "no se juega con deje (ni en pares ni en juego); punto keeps Fournier's deje"
        ),
        real_31=Real31.FIGURE_OR_THREE,
        deje_pares=False,
        deje_juego=False,
        ordago_jugada_minima_annulled=False,
    ),
    RuleSet(
        name="madrid",
        title="Madrid (AMM)",
        source=(
            f"{_REGIONAL}, Madrid: the AMM itself (con deje en pares, juego y punto; no es válida "
            "la real); options as the amm preset (seed 004)"
        ),
    ),
    RuleSet(
        name="galicia",
        title="Federación Gallega de Mus",
        source=(
            f"{_REGIONAL}, Galicia: no se acepta la real; la jugada mínima puede aceptar "
            f"cualquier envite (no órdago exception stated){_FOURNIER_REST}"
        ),
        ordago_jugada_minima_annulled=False,
    ),
    RuleSet(
        name="la_rioja",
        title="La Rioja",
        source=(
            f"{_REGIONAL}, La Rioja: cuatro reyes, juegos a 25 piedras, 36 cartas sin doses{_FOURNIER_REST}"
        ),
        reyes=4,
        target=25,
        with_doses=False,
        ordago_jugada_minima_annulled=False,
    ),
    RuleSet(
        name="navarra",
        title="Navarra",
        source=f"{_REGIONAL}, Navarra: 40 piedras, cuatro reyes, no vale la 31 real{_FOURNIER_REST}",
        reyes=4,
        ordago_jugada_minima_annulled=False,
    ),
    RuleSet(
        name="alava_bizkaia",
        title="Álava y Vizcaya",
        source=(
            f"{_REGIONAL}, Euskadi (Álava y Vizcaya): ocho reyes, 40 piedras, no vale la real{_FOURNIER_REST}"
        ),
        ordago_jugada_minima_annulled=False,
    ),
    RuleSet(
        name="gipuzkoa",
        title="Guipúzcoa (cuatro reyes)",
        source=(
            f"{_REGIONAL}, Euskadi (Guipúzcoa): cuatro reyes, juegos a seis amarrakos (30), no "
            f"vale la real{_FOURNIER_REST}"
        ),
        reyes=4,
        target=30,
        ordago_jugada_minima_annulled=False,
    ),
    RuleSet(
        name="gipuzkoa_8_reyes",
        title="Guipúzcoa (ocho reyes)",
        source=(
            f"{_REGIONAL}, Euskadi (Guipúzcoa): «ocho amarrakos en la modalidad de ocho reyes», "
            f"no vale la real{_FOURNIER_REST}"
        ),
        ordago_jugada_minima_annulled=False,
    ),
)

RULE_SETS: Final[Mapping[str, RuleSet]] = MappingProxyType(
    {rules.name: rules for rules in (AMM, FOURNIER, EHMT, *REGIONAL)}
)
"""Every preset by name; ``amm`` is the default."""

DEFAULT_RULES: Final = AMM


def get_rules(name: str | None = None) -> RuleSet:
    """The preset called ``name`` (``amm`` when ``None``); raises :class:`UnknownRuleSetError`."""
    if name is None:
        return DEFAULT_RULES
    try:
        return RULE_SETS[name]
    except KeyError:
        known = ", ".join(RULE_SETS)
        raise UnknownRuleSetError(f"reglamento desconocido {name!r}; los conocidos son: {known}") from None
