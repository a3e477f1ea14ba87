"""Rulings: what a recorded hand scores once chapter IV's errors and the juez's facts are applied.

The juez asks; the engine answers with the articles. From a recorded hand (the ``validate``
format) and the facts only the table knows — when an error was rectified (AMM 4.3, 4.4), which
declined envites the non-infractor pair claims (4.2.f), which señas were passed (chapter VII), a
player who put his cards into the deck (3.20), cards de más o de menos (2.7), the same pair mano
twice (2.8) — :func:`rule` computes every effect of 4.2 lance by lance and the hand's tanteo.

How a hand is ruled, lance by lance (grande, chica, pares, then juego or punto):

- An **error** (4.1a) is a false declaración de pares / juego, or a false seña; its *lance con
  error* (4.1b) is the lance it was made in. Each error has a window: the lances played with
  the wrong information (from its lance until it was rectified, 4.4.a–c).
- 4.2.a: the infractor's jugada in the lance con error is out of the lance (it neither wins nor
  scores for the partner). 4.2.b: the infractor pair loses that lance, unless the partner holds
  jugada máxima (4.1c) or obligada (4.1d) there and wins it en paso. 4.2.c: an error in pares
  also loses juego / punto, unless either partner holds máxima or obligada there.
- 4.2.d: in every lance of the window, envites and órdagos stand if the non-infractor pair wins
  them and the infractor pair holds a jugada in the lance; they are then counted at once, like a
  negada. Otherwise they are annulled (a negada already scored is given back) and the lance is
  counted en paso. 4.2.e: the non-infractor pair scores one more tanto, the negada adicional, in
  every such lance it wins, with four exceptions. 4.2.f: envites it declined because of the
  error, when the juez confirms them. 4.2.g: a lance where both pairs play with wrong
  information is counted en paso, every envite and negada annulled.

The readings where the text leaves room are in ``docs/reglamento.md`` («Lecturas»). Messages
are in Spanish: they are the command line's contract (``python -m scoring.mus ruling``).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from typing import Final

from .betting import Action, Bet, LanceBetting, Outcome, resolve_lance
from .cards import Hand, check_deal, parse_hand
from .core import SEAT_NAMES, SEATS, Lance, Pair, Score, Seat
from .errors import CardCountError, MusError
from .evaluation import PlayerFacts, evaluate, jugada_maxima_among
from .record import RecordedHand
from .rules import RuleSet
from .senas import check_sena
from .tanteo import EventKind, check_score


class When(enum.Enum):
    """When a rectification came, relative to its lance (AMM 4.4)."""

    ANTES = "antes"
    """Before the lance began; the declaración de pares / juego counts as before (4.4.b)."""
    DURANTE = "durante"
    """With the lance begun and not finished (4.4.c)."""
    DESPUES = "despues"
    """With the lance finished (4.4.a)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Rectification:
    """A seat rectifies its errors (AMM 4.3) ``when`` relative to ``lance``.

    ``rival_intervened``: the other pair had already spoken in the lance (4.4.c: «envidado,
    revocado, querido parcialmente o pasado el último que llevara o simplemente haber
    intercambiado opiniones»). ``infractor_intervened``: the infractor had envidado or revocado
    in the lance (4.4.c's exception for pares).
    """

    seat: Seat
    lance: Lance
    when: When
    rival_intervened: bool = False
    infractor_intervened: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class SenaPassed:
    """A seña a player passed (chapter VII); ``lance``: the lance it was passed in (4.1b)."""

    seat: Seat
    sena: str
    lance: Lance | None = None
    moment: str | None = None
    first_hand_before_cut: bool = False
    during_deal: bool = False
    asking: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class IntoDeck:
    """A player put his cards into the deck (AMM 3.20); ``recovered``: they were found and shown."""

    seat: Seat
    recovered: bool = True


@dataclasses.dataclass(frozen=True, slots=True)
class ShowedCards:
    """AMM 3.4.a: a player showed his cards in answer to an órdago of the other pair in ``lance``:
    the órdago is accepted, «excepto casos manifiestamente claros» (``clear``: the juez finds it
    manifestly clear that it was not an acceptance, 5.2 abuso de reglamento)."""

    seat: Seat
    lance: Lance
    clear: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class ShowedOut:
    """AMM 3.4.b «ESTAR FUERA»: a player showed his cards because his pair thought itself out with
    its jugada in ``lance``, the *evident* lance (the juez names it when the player does not).

    ``rival_bet``: the envite the other pair wants to make in the evident lance (its tantos; 0: an
    órdago), which the showing pair is taken to accept when the rivals hold the better jugada there;
    ``None``: they make none. ``continued``: the other pair, not having shown its cards, chose to
    go on, renouncing these penalties."""

    seat: Seat
    lance: Lance
    rival_bet: int | None = None
    continued: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class Simultaneous:
    """AMM 3.10: the two players of ``pair`` spoke at once in ``lance``, saying ``said`` (two
    declarations: «envido N», «ordago», «quiero», «no quiero»). ``plural``: a «queremos / no
    queremos» (3.10.b). ``chosen``: which of the two the other pair chose, when it is theirs to
    choose (two envites, 3.10; a plural answer, 3.10.b). The declaration that stands replaces the
    pair's last one recorded in the lance."""

    lance: Lance
    pair: Pair
    said: tuple[Bet, Bet]
    plural: bool = False
    chosen: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class WrongCards:
    """A player with cards de más o de menos (AMM 2.7), found before or after grande closed.

    ``admitted``: the player, of the pair that did not deal, admits he asked for the wrong
    number of cards, which lifts the penalty on postre, who dealt (2.7.b).
    """

    seat: Seat
    after_grande: bool
    admitted: bool = False


@dataclasses.dataclass(frozen=True)
class JuezFacts:
    """What the juez adds to a recorded hand. Every field is optional."""

    rectifications: tuple[Rectification, ...] = ()
    declined_by_error: Mapping[Lance, int | None] = dataclasses.field(default_factory=dict)
    """4.2.f, confirmed by the juez: lance → the envite's tantos (``None``: an órdago)."""
    senas: tuple[SenaPassed, ...] = ()
    into_deck: tuple[IntoDeck, ...] = ()
    wrong_cards: tuple[WrongCards, ...] = ()
    mano_repetida: bool | None = None
    """AMM 2.8: ``True`` noticed before grande closed, ``False`` after, ``None`` not the case."""
    rival_showed_cards: bool = False
    """AMM 3.12.b: after an órdago a pares accepted with jugada mínima, a rival showed his cards."""
    obligadas: frozenset[tuple[Seat, Lance]] = frozenset()
    """Jugadas obligadas (4.1d) the juez finds beyond the clear case the engine sees by itself."""
    showed_cards: tuple[ShowedCards, ...] = ()
    """AMM 3.4.a: cards shown in answer to an órdago."""
    showed_out: ShowedOut | None = None
    """AMM 3.4.b: cards shown by a pair that thought itself out."""
    simultaneous: tuple[Simultaneous, ...] = ()
    """AMM 3.10, 3.10.a, 3.10.b: two declarations of one pair at once."""
    lost_lances: tuple[tuple[Pair, int], ...] = ()
    """Lances (by slot) a pair loses whatever the cards (3.4.b when the appreciation was wrong).
    Set by :func:`rule` itself, not read from the juez's input."""


@dataclasses.dataclass(frozen=True, slots=True)
class RuleError:
    """One error (4.1a) or fault the ruling applies: who, in which lance, and when rectified."""

    seat: Seat
    lance: Lance
    article: str
    kind: str
    """``declaracion``, ``sena``, ``meterse_en_baraja``."""
    message: str
    rectification: Rectification | None = None

    @property
    def pair(self) -> Pair:
        return Pair.of(self.seat)


@dataclasses.dataclass(frozen=True, slots=True)
class RulingEvent:
    """``pair`` scores ``points`` in ``lance``; ``article`` when a ruling, not plain tanteo, gives it."""

    lance: Lance
    pair: Pair
    points: int
    kind: EventKind
    article: str | None = None


@dataclasses.dataclass(frozen=True)
class Ruling:
    """The ruling on one hand: errors, events in scoring order, and where they leave the juego."""

    errors: tuple[RuleError, ...]
    events: tuple[RulingEvent, ...]
    before: Score
    score: Score
    game_winner: Pair | None
    articles: tuple[str, ...]
    explanation: tuple[str, ...]
    sanctions: tuple[tuple[Seat, str], ...] = ()
    """Generic warnings (5.4) the ruling calls for, as (seat, article): 3.20.c."""


class RulingInputError(MusError):
    """Facts that contradict the hand (a rectification with no error to rectify…)."""


# ---------------------------------------------------------------------------------------------
# Lances as slots: 0 grande, 1 chica, 2 pares, 3 juego or punto.

_SLOTS: Final = (0, 1, 2, 3)
_PARES_SLOT: Final = 2
_FOURTH: Final = 3


def slot(lance: Lance) -> int:
    """A lance's place in the hand: juego and punto are both the fourth."""
    return _FOURTH if lance >= Lance.JUEGO else int(lance)


_SLOT_NAMES: Final = ("grande", "chica", "pares", "juego o punto")


def _sort_articles(articles: set[str]) -> tuple[str, ...]:
    def key(article: str) -> tuple[tuple[int, int], ...]:
        parts: list[tuple[int, int]] = []
        number = ""
        for char in article:
            if char.isdigit():
                number += char
                continue
            if number:
                parts.append((0, int(number)))
                number = ""
            if char.isalpha():
                parts.append((1, ord(char)))
        if number:
            parts.append((0, int(number)))
        return tuple(parts)

    return tuple(sorted(articles, key=key))


@dataclasses.dataclass
class _Window:
    """An error's reach: the lances played with its wrong information, and its 4.2.a–c effects."""

    error: RuleError
    informed: frozenset[int]
    annul: bool
    lose_own: bool
    lose_next: bool
    restart_void: bool = False
    """4.4.c: rectified in its own lance before the rival spoke, the partner holding nothing: the
    infractor pair's envites in that lance fall."""


def _window(error: RuleError, rectification: Rectification | None) -> _Window:
    own = slot(error.lance)
    everything = frozenset(s for s in _SLOTS if s >= own)
    if rectification is None:
        return _Window(error, everything, annul=True, lose_own=True, lose_next=own == _PARES_SLOT)
    at = slot(rectification.lance)
    when = rectification.when
    if when is When.DESPUES:
        at, when = at + 1, When.ANTES  # after a lance is before the next (4.4.a with 4.4.b)
        if at > _FOURTH:  # after the last lance: nothing is cancelled
            return _Window(error, everything, annul=True, lose_own=True, lose_next=own == _PARES_SLOT)
    if when is When.ANTES:
        if at <= own:  # 4.4.b: every effect in this lance and the following ones is cancelled
            return _Window(error, frozenset(), annul=False, lose_own=False, lose_next=False)
        return _Window(error, frozenset(s for s in everything if s < at), annul=True, lose_own=True, lose_next=False)
    # 4.4.c: rectified during lance ``at`` (which is ``own`` or a later one).
    informed = {s for s in everything if s < at}
    if rectification.rival_intervened:
        informed.add(at)
    lose_own = at > own or rectification.rival_intervened
    lose_next = own == _PARES_SLOT and (
        (at == _PARES_SLOT and rectification.infractor_intervened) or (at == _FOURTH and rectification.rival_intervened)
    )
    restart_void = at == own and not rectification.rival_intervened
    return _Window(
        error, frozenset(informed), annul=True, lose_own=lose_own, lose_next=lose_next, restart_void=restart_void
    )


class _Table:
    """The hand as the ruling sees it: each seat's facts (``None``: cards invalidated, 2.7.b)."""

    def __init__(self, facts: Sequence[PlayerFacts | None], rules: RuleSet) -> None:
        self.facts = tuple(facts)
        self.rules = rules

    def kind(self, index: int, out: frozenset[Seat]) -> Lance:
        if index < _FOURTH:
            return Lance(index)
        holds = any(f is not None and f.juego is not None for s, f in enumerate(self.facts) if s not in out)
        return Lance.JUEGO if holds else Lance.PUNTO

    def holds(self, seat: Seat, lance: Lance) -> bool:
        facts = self.facts[seat]
        return facts is not None and facts.holds(lance) and (lance is not Lance.PUNTO or facts.punto is not None)

    def winner(self, lance: Lance, out: frozenset[Seat]) -> Seat | None:
        """The seat that wins ``lance`` en paso with the seats in ``out`` left out (ties to mano)."""
        best: Seat | None = None
        best_key = 0
        for seat in SEATS:
            facts = self.facts[seat]
            if seat in out or facts is None:
                continue
            key = facts.keys[lance]
            if lance in (Lance.PARES, Lance.JUEGO, Lance.PUNTO) and key == 0:
                continue
            if best is None or key > best_key:
                best, best_key = seat, key
        return best

    def value(self, pair: Pair, lance: Lance, out: frozenset[Seat]) -> int:
        """What ``pair``'s jugadas score in pares or juego, its seats in ``out`` left out."""
        total = 0
        for seat in pair.seats:
            facts = self.facts[seat]
            if seat in out or facts is None:
                continue
            total += facts.pares_value if lance is Lance.PARES else facts.juego_value
        return total

    def paso_value(self, pair: Pair, lance: Lance, out: frozenset[Seat]) -> int:
        if lance in (Lance.PARES, Lance.JUEGO):
            return self.value(pair, lance, out)
        return 1

    def pair_holds(self, pair: Pair, lance: Lance) -> bool:
        """Whether either player of ``pair`` holds a jugada in ``lance`` by his cards (4.2.d, 4.2.e)."""
        return any(self.holds(seat, lance) for seat in pair.seats)

    def maxima(self, seat: Seat, lance: Lance, out: frozenset[Seat]) -> bool:
        """Jugada máxima (AMM 4.1c) among the seats still in the lance."""
        return jugada_maxima_among(self.facts, seat, lance, self.rules, out)


# ---------------------------------------------------------------------------------------------


@dataclasses.dataclass
class _Tally:
    """The events so far and the running score; stops counting when the juego is won."""

    target: int
    tantos: list[int]
    events: list[RulingEvent] = dataclasses.field(default_factory=list)
    winner: Pair | None = None

    def add(self, lance: Lance, pair: Pair, points: int, kind: EventKind, article: str | None = None) -> None:
        if self.winner is not None or points <= 0:
            return
        self.events.append(RulingEvent(lance, pair, points, kind, article))
        self.tantos[pair] += points
        if self.tantos[pair] >= self.target:
            self.winner = pair

    def ordago(self, lance: Lance, pair: Pair, article: str | None = None) -> None:
        if self.winner is None:
            self.winner = pair
            self.events.append(RulingEvent(lance, pair, 0, EventKind.ORDAGO, article))


class _Ruler:
    """One ruling being computed: collects articles and explanations as effects are applied."""

    def __init__(self, record: RecordedHand, facts: JuezFacts) -> None:
        self.record = record
        self.juez = facts
        self.rules = record.rules
        self.articles: set[str] = set()
        self.explanation: list[str] = []
        self.sanctions: list[tuple[Seat, str]] = []

    def say(self, article: str, sentence: str) -> None:
        self.articles.add(article)
        if sentence not in self.explanation:
            self.explanation.append(sentence)

    # -- the deal --------------------------------------------------------------------------

    def table(self) -> _Table:
        record, rules = self.record, self.rules
        invalid: set[Seat] = set()
        for wrong in self.juez.wrong_cards:
            name = SEAT_NAMES[wrong.seat]
            if not wrong.after_grande:
                self.say(
                    "2.7.a",
                    f"2.7.a: al {name} se le dieron o quitaron las cartas precisas antes de cerrarse la "
                    "grande, y la mano siguió normalmente con las cartas anotadas.",
                )
                continue
            invalid.add(wrong.seat)
            dealer_spared = wrong.admitted and Pair.of(wrong.seat) is Pair.A
            if wrong.seat != 3 and not dealer_spared:
                invalid.add(3)
            whose = (
                f"las del {name}"
                if wrong.seat == 3 or dealer_spared
                else f"las del {name} y las del postre, que las dio"
            )
            self.say(
                "2.7.b",
                f"2.7.b: cartas de más o de menos tras cerrarse la grande: quedan invalidadas {whose}, y los "
                "envites y quieros quedan supeditados a las cartas de sus compañeros.",
            )
            if dealer_spared and wrong.seat != 3:
                self.say(
                    "2.7.b",
                    f"2.7.b: el {name}, de la pareja contraria, admite que pidió mal las cartas: se retira la "
                    "penalización al postre.",
                )
        hands, problems = check_deal(record.hands, rules.deck)
        if hands is None:
            fatal = [
                error
                for seat, error in problems
                if not (isinstance(error, CardCountError) and seat is not None and seat in invalid)
            ]
            if fatal:
                raise RulingInputError("el reparto no es posible: " + "; ".join(str(error) for error in fatal))
        facts: list[PlayerFacts | None] = []
        for seat, text in enumerate(record.hands):
            if seat in invalid:
                facts.append(None)
                continue
            hand: Hand = hands[seat] if hands is not None else parse_hand(text)
            facts.append(evaluate(hand, rules))
        return _Table(facts, rules)

    # -- errors ----------------------------------------------------------------------------

    def errors(self, table: _Table) -> list[RuleError]:
        found: list[RuleError] = []
        declarations = self.record.declarations or ()
        for seat, declaration in enumerate(declarations):
            facts = table.facts[seat]
            if facts is None:
                continue
            name = SEAT_NAMES[seat]
            if declaration.pares is not None and declaration.pares != (facts.pares is not None):
                held = "no lleva pares" if facts.pares_name is None else f"lleva {facts.pares_name}"
                said = "sí" if declaration.pares else "no"
                found.append(
                    RuleError(seat, Lance.PARES, "4.1a", "declaracion", f"El {name} declaró «pares {said}» y {held}.")
                )
            if declaration.juego is not None and declaration.juego != (facts.juego is not None):
                said = "sí" if declaration.juego else "no"
                held = f"tiene {facts.total}" + (" (juego)" if facts.juego is not None else " (sin juego)")
                found.append(
                    RuleError(seat, Lance.JUEGO, "4.1a", "declaracion", f"El {name} declaró «juego {said}» y {held}.")
                )
        for passed in self.juez.senas:
            facts = table.facts[passed.seat]
            name = SEAT_NAMES[passed.seat]
            if facts is None:
                continue
            hand = parse_hand(self.record.hands[passed.seat])
            verdict = check_sena(
                hand,
                passed.sena,
                self.rules,
                moment=passed.moment,
                first_hand_before_cut=passed.first_hand_before_cut,
                during_deal=passed.during_deal,
                asking=passed.asking,
            )
            if verdict.allowed:
                self.say(verdict.article, f"Seña «{passed.sena}» del {name}: {verdict.explanation}")
                continue
            if verdict.article in ("7.2", "7.3", "7.5"):
                # Not a false seña: a seña out of time or asking, for the generic procedure of 5.4.
                self.say(verdict.article, f"Seña «{passed.sena}» del {name}: {verdict.explanation}")
                self.sanctions.append((passed.seat, verdict.article))
                continue
            self.articles.add(verdict.article)
            lance = passed.lance if passed.lance is not None else verdict.lance
            if slot(lance) != slot(verdict.lance):
                self.say(
                    "4.1b",
                    f"4.1b: la seña falsa del {name} se pasó durante el lance de {_SLOT_NAMES[slot(lance)]}: ese es el "
                    f"lance con error, aunque hable de {_SLOT_NAMES[slot(verdict.lance)]}.",
                )
            found.append(
                RuleError(
                    passed.seat,
                    lance,
                    "4.1a",
                    "sena",
                    f"El {name} pasó la seña «{passed.sena}», que no corresponde a su jugada "
                    f"({verdict.article}): {verdict.explanation}",
                )
            )
        for deck in self.juez.into_deck:
            if deck.recovered:
                continue
            for index in _SLOTS:
                found.append(
                    RuleError(
                        deck.seat,
                        Lance(index) if index < _FOURTH else Lance.JUEGO,
                        "3.20",
                        "meterse_en_baraja",
                        f"El {SEAT_NAMES[deck.seat]} metió sus cartas en la baraja y no pudieron sacarse: "
                        "error en todos los lances.",
                    )
                )
        return found

    def windows(self, errors: list[RuleError]) -> list[_Window]:
        rectified: dict[int, Rectification] = {}
        for rectification in self.juez.rectifications:
            mine = [
                index
                for index, error in enumerate(errors)
                if error.seat == rectification.seat
                and error.kind != "meterse_en_baraja"
                and slot(error.lance) <= slot(rectification.lance)
            ]
            if not mine:
                raise RulingInputError(
                    f"rectificación del {SEAT_NAMES[rectification.seat]} {_when_text(rectification)}: ese "
                    "jugador no tiene ningún error anterior que rectificar"
                )
            for index in mine:
                rectified.setdefault(index, rectification)
        windows: list[_Window] = []
        for index, error in enumerate(errors):
            found = rectified.get(index)
            if found is not None:
                error = dataclasses.replace(error, rectification=found)
                errors[index] = error
                self._explain_rectification(error, found)
            windows.append(_window(error, found))
        return windows

    def _explain_rectification(self, error: RuleError, rectification: Rectification) -> None:
        name = SEAT_NAMES[error.seat]
        own = _SLOT_NAMES[slot(error.lance)]
        self.say(
            "4.3",
            f"4.3: el {name} rectificó su error en {own} {_when_text(rectification)}, declarando la jugada correcta.",
        )
        at = slot(rectification.lance)
        when = rectification.when
        if when is When.DESPUES:
            self.say(
                "4.4.a",
                f"4.4.a: rectificado tras terminar el lance de {_SLOT_NAMES[at]}: se mantienen los efectos de 4.2 "
                "en ese lance y en los anteriores.",
            )
            if at < _FOURTH:
                self.say(
                    "4.4.b",
                    f"4.4.b: y como es antes de empezar el lance de {_SLOT_NAMES[at + 1]}, se cancelan los efectos "
                    "en ese lance y en los siguientes.",
                )
        elif when is When.ANTES:
            self.say(
                "4.4.b",
                f"4.4.b: rectificado antes de empezar el lance de {_SLOT_NAMES[at]} (la declaración cuenta como "
                "anterior al lance): se cancelan los efectos de 4.2 en ese lance y en los siguientes.",
            )
        else:
            same = at == slot(error.lance)
            parts = [
                f"4.4.c: rectificado con el lance de {_SLOT_NAMES[at]} ya empezado",
                "la jugada del infractor sigue anulada y no puede intervenir en el lance"
                if same
                else "la jugada del infractor no se anula en este lance",
                "la pareja infractora lo pierde porque la contraria ya había intervenido"
                if rectification.rival_intervened
                else "la contraria no había intervenido: el lance vale como se jugó",
            ]
            if slot(error.lance) == _PARES_SLOT and at == _PARES_SLOT and rectification.infractor_intervened:
                parts.append(
                    "el infractor había envidado o revocado en pares: se mantiene el efecto sobre el lance siguiente"
                )
            else:
                parts.append("el error ya no afecta a los lances siguientes")
            self.say("4.4.c", "; ".join(parts) + ".")


def _when_text(rectification: Rectification) -> str:
    lance = _SLOT_NAMES[slot(rectification.lance)]
    return {
        When.ANTES: f"antes del lance de {lance}",
        When.DURANTE: f"durante el lance de {lance}",
        When.DESPUES: f"después del lance de {lance}",
    }[rectification.when]


def _declared_holders(record: RecordedHand, table: _Table, lance: Lance) -> tuple[bool, bool]:
    """Who holds pares / juego as the table knew it: the declarations, else the cards."""
    held = [False, False]
    declarations = record.declarations
    for seat in SEATS:
        facts = table.facts[seat]
        said = None
        if declarations is not None:
            said = declarations[seat].pares if lance is Lance.PARES else declarations[seat].juego
        if said is None:
            said = facts is not None and facts.holds(lance)
        if said:
            held[seat & 1] = True
    return held[0], held[1]


def _jugada_minima(table: _Table, lance: Lance, out: frozenset[Seat]) -> bool:
    """AMM 3.12 with the seats in ``out`` left out: postre's 2 ases or 33, his partner not holding."""
    postre = None if 3 in out else table.facts[3]
    partner_holds = 1 not in out and table.holds(1, lance)
    if postre is None or partner_holds:
        return False
    if lance is Lance.PARES:
        return postre.keys[2] == 256
    if lance is Lance.JUEGO:
        return postre.juego == 33
    return False


def rule(record: RecordedHand, facts: JuezFacts | None = None) -> Ruling:
    """The ruling on one recorded hand with the juez's facts; raises :class:`MusError` for input
    that makes no hand (an impossible deal, illegal bets, a rectification with nothing to
    rectify)."""
    juez = facts or JuezFacts()
    if juez.showed_out is not None:
        return _rule_out(record, juez)
    ruler = _Ruler(record, juez)
    rules = record.rules
    check_score(record.score, rules)
    table = ruler.table()
    errors = ruler.errors(table)
    windows = ruler.windows(errors)
    before = record.score

    if juez.mano_repetida is not None:
        if juez.mano_repetida:
            ruler.say(
                "2.8",
                "2.8: la misma pareja fue mano dos veces seguidas y se advirtió antes de cerrarse la grande: se "
                "anula la mano, que no da tantos a nadie.",
            )
            return _ruling(ruler, errors, [], before, before, None)
        ruler.say(
            "2.8",
            "2.8: la misma pareja fue mano dos veces seguidas, pero se advirtió con la grande ya cerrada: la "
            "mano sigue normalmente.",
        )

    renounced: set[Seat] = set()
    for deck in juez.into_deck:
        name = SEAT_NAMES[deck.seat]
        renounced.add(deck.seat)
        ruler.say(
            "3.20.b",
            f"3.20.b: el {name} metió sus cartas en la baraja: renuncia a su jugada, que no le sirve para ganar "
            "ningún lance pendiente ni para apuntarse pares o juego si los gana su compañero.",
        )
        ruler.say(
            "3.20.a",
            "3.20.a: meterse en baraja no obliga al compañero a querer ni a no querer: lo que dijo vale.",
        )
        ruler.say("3.20.c", f"3.20.c: el {name} recibe además la amonestación genérica del art. 5.4.")
        ruler.sanctions.append((deck.seat, "3.20.c"))
        if not deck.recovered:
            ruler.say(
                "3.20",
                f"3.20: las cartas del {name} no pudieron sacarse de la baraja: se le aplican las sanciones de "
                "haber cometido error en todos los lances.",
            )

    for error in errors:
        if error.kind != "meterse_en_baraja":
            ruler.articles.add(error.article)
    tally = _Tally(rules.target, [before.a, before.b])
    count: list[tuple[Lance, Pair, int, EventKind, str | None]] = []
    fourth_declared = Lance.JUEGO if any(_declared_holders(record, table, Lance.JUEGO)) else Lance.PUNTO
    wrong_fourth = Lance.PUNTO if fourth_declared is Lance.JUEGO else Lance.JUEGO
    if any(bet.action.value != "paso" for bet in record.bets.get(wrong_fourth, ())):
        raise RulingInputError(
            f"hay envites a {wrong_fourth.key}, pero el cuarto lance que se jugó en la mesa es el {fourth_declared.key}"
        )

    ended = False  # an órdago that stands ended the hand
    forced_next: dict[Pair, str] = {}  # pair -> article that makes it lose the fourth lance (4.2.c, 3.12.b)
    for index in _SLOTS:
        out = frozenset(renounced | {w.error.seat for w in windows if w.annul and slot(w.error.lance) == index})
        lance = table.kind(index, out)
        played_as = Lance(index) if index < _FOURTH else fourth_declared
        if ended:
            break
        bets: tuple[Bet, ...] = _shown_against_ordago(
            ruler, played_as, tuple(record.bets.get(played_as, ())), juez.showed_cards
        )
        bets = _simultaneous(ruler, played_as, bets, juez.simultaneous)
        holders = (
            _declared_holders(record, table, played_as) if played_as in (Lance.PARES, Lance.JUEGO) else (True, True)
        )
        betting = resolve_lance(
            played_as,
            bets,
            rules,
            holders=holders,
            jugada_minima=bool(bets) and _jugada_minima(table, played_as, out),
        )
        if betting.ordago_annulled:
            ruler.say(
                "3.12.a",
                f"3.12.a: la pareja B aceptó el órdago a {played_as.key} con jugada mínima: el órdago queda anulado y "
                f"la pareja {betting.pair} se lo apunta como no querido ({betting.amount}).",
            )
            if index == _PARES_SLOT and juez.rival_showed_cards:
                forced_next.setdefault(Pair.B, "3.12.b")
        informing = [w for w in windows if index in w.informed]
        infractors = {w.error.pair for w in informing}
        natural = table.winner(lance, out)
        _explain_annulled(ruler, windows, index, lance, table)

        if len(infractors) == 2:
            # 4.2.g: both pairs played this lance with wrong information.
            ruler.say(
                "4.2.g",
                f"4.2.g: en {lance.key} hay infracción de las dos parejas: se anulan los envites y las negadas, y se "
                "apunta en paso la pareja con mejor jugada"
                + ("" if natural is None else f" (la {Pair.of(natural)})")
                + ", sin contar las jugadas anuladas de los infractores.",
            )
            if natural is not None:
                pair = Pair.of(natural)
                count.append((lance, pair, table.paso_value(pair, lance, out), EventKind.PASO, "4.2.g"))
            continue

        # 4.2.b, 4.2.c, 3.12.b: who loses this lance whatever the cards.
        at = Score(*tally.tantos)
        losers: dict[Pair, str] = {}
        for w in windows:
            pair = w.error.pair
            if w.lose_own and slot(w.error.lance) == index and pair not in losers:
                partner = w.error.seat ^ 2
                if not _saved(table, juez, ruler, [partner], lance, out, natural, at, betting, "4.2.b"):
                    losers[pair] = "4.2.b"
            if (
                w.lose_next
                and index == _FOURTH
                and pair not in losers
                and not _saved(table, juez, ruler, list(pair.seats), lance, out, natural, at, betting, "4.2.c")
            ):
                losers[pair] = "4.2.c"
        for pair, lost in juez.lost_lances:
            if lost == index and pair not in losers:
                losers[pair] = "3.4.b"
        if index == _FOURTH:
            for pair, article in forced_next.items():
                if pair not in losers and not _saved(
                    table, juez, ruler, list(pair.seats), lance, out, natural, at, betting, article
                ):
                    losers[pair] = article
        winner: Pair | None = None if natural is None else Pair.of(natural)
        if len(losers) == 1:
            loser, article = next(iter(losers.items()))
            winner = loser.other
            _explain_loss(ruler, lance, loser, article)

        if not informing:
            # 4.4.c: rectified in its own lance before the rival spoke, the lance is valid; but if
            # the partner holds nothing either, the infractor pair's envites fall.
            restarted = {w.error.pair for w in windows if w.restart_void and slot(w.error.lance) == index}
            if any(not any(table.holds(s, lance) for s in pair.seats if s not in out) for pair in restarted):
                if betting.outcome is not Outcome.PASO:
                    ruler.say(
                        "4.4.c",
                        f"4.4.c: el error se rectificó en el lance de {lance.key} antes de que interviniera la pareja "
                        "contraria, pero el compañero del infractor tampoco lleva: se anulan los envites de su pareja.",
                    )
                betting = resolve_lance(played_as, (), rules)
            if _plain(tally, count, table, betting, lance, winner, out, rules):
                ended = True
            continue

        # One infractor pair in this lance: 4.2.d, 4.2.e, 4.2.f.
        (infractor,) = infractors
        clean = infractor.other
        holds = table.pair_holds(infractor, lance) or any(
            w.error.kind == "meterse_en_baraja" and w.error.pair is infractor for w in informing
        )
        won_envite = False
        negada = False
        outcome = betting.outcome
        if outcome is Outcome.PASO:
            stands = False
        elif outcome is Outcome.DEJE:
            assert betting.pair is not None
            stands = betting.pair is clean and holds
            if stands:
                negada = True
                tally.add(lance, clean, betting.amount, EventKind.DEJE, "4.2.d")
        else:
            stands = winner is clean and holds
            if stands and outcome is Outcome.ORDAGO:
                ruler.say(
                    "4.2.d",
                    f"4.2.d: el órdago a {lance.key} vale: lo gana la pareja no infractora ({clean}) y la infractora "
                    "lleva jugada en el lance.",
                )
                tally.ordago(lance, clean, "4.2.d")
                ended = True
                break
            if stands:
                won_envite = True
                tally.add(lance, clean, betting.amount, EventKind.ENVITE, "4.2.d")
        if outcome is not Outcome.PASO:
            if stands:
                ruler.say(
                    "4.2.d",
                    f"4.2.d: en {lance.key}, lo envidado vale y se apunta en el momento del lance: lo gana la pareja "
                    f"no infractora ({clean}) y la infractora lleva jugada en el lance.",
                )
            else:
                reason = (
                    "la pareja infractora no lleva jugada en el lance"
                    if not holds
                    else "no lo gana la pareja no infractora"
                )
                ruler.say(
                    "4.2.d",
                    f"4.2.d: en {lance.key} se anulan los envites{' y el órdago' if outcome is Outcome.ORDAGO else ''} "
                    f"({reason}) y se devuelven las negadas apuntadas: el lance se cuenta en paso.",
                )
        claim = juez.declined_by_error.get(played_as, juez.declined_by_error.get(lance, -1))
        if claim != -1:
            if winner is clean:
                if claim is None:
                    ruler.say(
                        "4.2.f",
                        f"4.2.f: la pareja {clean} rechazó un órdago a {lance.key} por el error y gana el lance: se "
                        "le da el órdago y gana el juego.",
                    )
                    tally.ordago(lance, clean, "4.2.f")
                    ended = True
                    break
                won_envite = True
                tally.add(lance, clean, claim, EventKind.DEJE, "4.2.f")
                ruler.say(
                    "4.2.f",
                    f"4.2.f: la pareja {clean} rechazó por el error un envite de {claim} a {lance.key} y gana el "
                    "lance: se lo apunta, como confirma el juez.",
                )
            else:
                ruler.say(
                    "4.2.f",
                    f"4.2.f: la pareja {clean} reclama el envite rechazado a {lance.key}, pero no gana el lance: no "
                    "se lo apunta.",
                )
        # The count of this lance.
        if winner is not None:
            if stands:
                _count_standing(count, table, betting, lance, winner, out, rules)
            else:
                count.append((lance, winner, table.paso_value(winner, lance, out), EventKind.PASO, None))
        if winner is clean:
            extra = _negada_adicional(ruler, table, informing, index, lance, holds, negada, won_envite)
            if extra:
                count.append((lance, clean, 1, EventKind.DEJE, "4.2.e"))

    if tally.winner is None:
        for counted in count:
            tally.add(*counted)
    return _ruling(ruler, errors, tally.events, before, Score(*tally.tantos), tally.winner)


def _saved(
    table: _Table,
    juez: JuezFacts,
    ruler: _Ruler,
    seats: Sequence[Seat],
    lance: Lance,
    out: frozenset[Seat],
    natural: Seat | None,
    score: Score,
    betting: LanceBetting,
    article: str,
) -> bool:
    """The exception of 4.2.b / 4.2.c: one of ``seats`` holds jugada máxima (4.1c) or obligada
    (4.1d) in the lance and wins it en paso."""
    for seat in seats:
        if natural != seat or seat in out:
            continue
        name = SEAT_NAMES[seat]
        if table.maxima(seat, lance, out):
            ruler.articles.add(article)
            ruler.say(
                "4.1c",
                f"{article}: no se pierde el lance de {lance.key}: el {name} lleva jugada máxima (4.1c) y lo gana "
                "en paso.",
            )
            return True
        if (seat, lance) in juez.obligadas or _obligada(table, seat, score, betting):
            ruler.articles.add(article)
            ruler.say(
                "4.1d",
                f"{article}: no se pierde el lance de {lance.key}: el {name} lleva jugada obligada (4.1d), que gana el "
                "lance en paso.",
            )
            return True
    return False


def _rule_out(record: RecordedHand, juez: JuezFacts) -> Ruling:
    """AMM 3.4.b «ESTAR FUERA», read as the text lists it:

    - «Los lances anteriores al evidente que no se hayan jugado ni mencionado, se sobreentiende que
      renuncia la pareja que enseña y los contrarios se apuntan las negadas que procedan (en pares
      sólo si lleva alguno de cada pareja)»: each such lance is an envite of the rivals that the
      showing pair declined (its deje, 1 tanto; pares and juego keep their jugadas, con deje).
    - «En ningún caso se podrá dar por hecho un envite u órdago que no haya sido explícitamente
      mencionado», but «si al lance evidente los contrarios tuvieran una jugada mayor, el gesto de
      haber enseñado implica la aceptación del envite u órdago que quieran echar los contrarios»:
      the rivals' bet in the evident lance (``rival_bet``), accepted, only when they win it.
    - «En caso de ser errónea la apreciación de estar fuera, los lances posteriores al evidente no
      jugados ni mencionados los perderá la pareja que enseñó, de modo similar a 4.2.c»: when the
      hand so ruled does not give the showing pair the juego, it is ruled again with those lances
      lost by it.
    - «Si la pareja contraria no ha enseñado sus cartas podrá escoger que el juego continúe, en cuyo
      caso renuncia a que se apliquen las anteriores penalizaciones» (``continued``).

    The other facts of the hand (errors, señas…) are ruled with these, by :func:`rule`."""
    out = juez.showed_out
    assert out is not None
    plain = dataclasses.replace(juez, showed_out=None)
    showing = Pair.of(out.seat)
    rivals = showing.other
    name = SEAT_NAMES[out.seat]
    if out.continued:
        ruled = rule(record, plain)
        return _with(
            ruled,
            "3.4.b",
            f"3.4.b: el {name} enseñó por estar fuera; la pareja {rivals} eligió seguir jugando y renuncia a las "
            "penalizaciones: la mano se cuenta como se jugó.",
            played=True,
        )
    table = _Ruler(record, plain).table()
    evident = slot(out.lance)
    bets = dict(record.bets)
    said: list[str] = [
        f"3.4.b: el {name} enseñó sus cartas por estar fuera con {out.lance.key}, el lance evidente."
    ]
    for index in _SLOTS:
        lance = Lance(index) if index < _FOURTH else out.lance
        if index >= evident or bets.get(lance):
            continue
        if lance is Lance.PARES and not all(_declared_holders(record, table, Lance.PARES)):
            said.append(
                "3.4.b: en pares, no jugado, no llevan las dos parejas: no hay negada; se cuenta como siempre."
            )
            continue
        bets[lance] = (Bet(rivals, Action.ENVIDO), Bet(showing, Action.NO_QUIERO))
        said.append(
            f"3.4.b: la pareja {showing} renuncia a {lance.key}, no jugado ni mencionado: la pareja {rivals} se "
            "apunta la negada."
        )
    evident_lance = out.lance
    if out.rival_bet is not None and not bets.get(evident_lance):
        natural = table.winner(table.kind(evident, frozenset()), frozenset())
        if natural is not None and Pair.of(natural) is rivals:
            bet = Bet(rivals, Action.ORDAGO) if out.rival_bet == 0 else Bet(rivals, Action.ENVIDO, out.rival_bet)
            bets[evident_lance] = (bet, Bet(showing, Action.QUIERO))
            said.append(
                f"3.4.b: la pareja {rivals} tiene mejor jugada en {evident_lance.key}: el gesto de enseñar acepta "
                f"su {'órdago' if out.rival_bet == 0 else f'envite de {out.rival_bet}'}."
            )
        else:
            said.append(
                f"3.4.b: la pareja {rivals} no tiene mejor jugada en {evident_lance.key}: no se da por hecho ningún "
                "envite que no se haya mencionado."
            )
    played = dataclasses.replace(record, bets=bets)
    ruled = rule(played, plain)
    if ruled.game_winner is showing:
        return _with(ruled, "3.4.b", *said, f"3.4.b: la pareja {showing} sí estaba fuera: gana el juego.")
    later = tuple(
        (showing, index)
        for index in _SLOTS
        if index > evident and not record.bets.get(Lance(index) if index < _FOURTH else out.lance)
    )
    said.append(f"3.4.b: la pareja {showing} no estaba fuera: la apreciación era errónea.")
    ruled = rule(played, dataclasses.replace(plain, lost_lances=later))
    return _with(ruled, "3.4.b", *said)


NOTHING_TO_APPLY: Final = "Sin errores que aplicar: la mano se cuenta como se jugó."


def _with(ruled: Ruling, article: str, *sentences: str, played: bool = False) -> Ruling:
    """A ruling with the sentences of ``article`` first (``played``: the hand counts as it was
    played, so the plain ruling's sentence saying so stays)."""
    articles = set(ruled.articles) | {article}
    rest = (s for s in ruled.explanation if s not in sentences and (played or s != NOTHING_TO_APPLY))
    return dataclasses.replace(ruled, articles=_sort_articles(articles), explanation=(*sentences, *rest))


_ANSWERS: Final = (Action.QUIERO, Action.NO_QUIERO)


def _simultaneous(
    ruler: _Ruler, lance: Lance, bets: tuple[Bet, ...], facts: Sequence[Simultaneous]
) -> tuple[Bet, ...]:
    """AMM 3.10 «Si los dos componentes de una pareja envidan o revocan al mismo tiempo, distinto
    número de tantos (u órdago), la pareja contraria tiene la opción de elegir»; 3.10.a «si lo que
    sucede a la vez es un quiero/no quiero en singular, no eligen los contrarios sino que tendrá
    prioridad siempre el envite/órdago frente al quiero y el quiero frente al no quiero»; 3.10.b
    «Si lo que sucede a la vez es un queremos/no queremos, frente a un envite/órdago u otro
    quiero/no quiero en singular, eligen los contrarios». The declaration that stands replaces the
    pair's last one recorded in the lance."""
    for fact in facts:
        if fact.lance is not lance:
            continue
        first, second = fact.said
        if first.pair is not fact.pair or second.pair is not fact.pair:
            raise RulingInputError("simultaneous.said: las dos voces son de la misma pareja")
        answers = sum(bet.action in _ANSWERS for bet in fact.said)
        if answers and not fact.plural:
            rank = {Action.ENVIDO: 0, Action.ORDAGO: 0, Action.QUIERO: 1, Action.NO_QUIERO: 2, Action.PASO: 3}
            stands = min(fact.said, key=lambda bet: rank[bet.action])
            ruler.say(
                "3.10.a",
                f"3.10.a: en {lance.key}, la pareja {fact.pair} dijo a la vez «{first.action.value}» y "
                f"«{second.action.value}» en singular: vale «{stands.action.value}» (el envite o el órdago antes "
                "que el quiero, el quiero antes que el no quiero).",
            )
        else:
            if fact.chosen not in (0, 1):
                raise RulingInputError(
                    "simultaneous.chosen: eligen los contrarios (AMM 3.10, 3.10.b): indica cuál de las dos voces "
                    "eligieron (0 o 1)"
                )
            stands = fact.said[fact.chosen]
            article = "3.10.b" if fact.plural and answers else "3.10"
            ruler.say(
                article,
                f"{article}: en {lance.key}, la pareja {fact.pair} dijo a la vez dos cosas distintas: la pareja "
                f"{fact.pair.other} elige, y vale «{stands}».",
            )
        last = max((i for i, bet in enumerate(bets) if bet.pair is fact.pair), default=None)
        if last is None:
            raise RulingInputError(
                f"simultaneous: la pareja {fact.pair} no dijo nada en {lance.key} según la mano anotada"
            )
        bets = (*bets[:last], stands, *bets[last + 1 :])
    return bets


def _shown_against_ordago(
    ruler: _Ruler, lance: Lance, bets: tuple[Bet, ...], shown: Sequence[ShowedCards]
) -> tuple[Bet, ...]:
    """AMM 3.4.a «Si algún jugador enseñara sus cartas en respuesta a un órdago, se considerará que
    se acepta, excepto casos manifiestamente claros»: the other pair's órdago left unanswered in the
    lance is accepted by the pair of the player who showed; in a manifestly clear case (5.2) it is
    not (left unanswered, it is declined). An órdago already answered keeps its answer (what was
    said stands)."""
    for fact in shown:
        if fact.lance is not lance:
            continue
        name = SEAT_NAMES[fact.seat]
        pair = Pair.of(fact.seat)
        ordagos = [i for i, bet in enumerate(bets) if bet.action is Action.ORDAGO and bet.pair is not pair]
        if not ordagos:
            raise RulingInputError(
                f"showed_cards: el {name} enseñó las cartas en {lance.key}, pero allí no hay ningún órdago de la otra "
                "pareja (AMM 3.4.a)"
            )
        at = ordagos[-1]
        answered = bool(bets[at + 1 :])
        if fact.clear:
            ruler.say(
                "5.2",
                f"5.2: el {name} enseñó las cartas tras el órdago a {lance.key}, pero es un caso manifiestamente "
                "claro de que no lo aceptaba (abuso de reglamento si se reclamara): no se da por querido (AMM 3.4.a).",
            )
            if not answered:
                bets = (*bets[: at + 1], Bet(pair, Action.NO_QUIERO))
            continue
        if answered:
            ruler.say(
                "3.4.a",
                f"3.4.a: el {name} enseñó las cartas después de responder al órdago a {lance.key}: vale lo que "
                "se dijo.",
            )
            continue
        ruler.say(
            "3.4.a",
            f"3.4.a: el {name} enseñó sus cartas en respuesta al órdago a {lance.key}: se considera que la pareja "
            f"{pair} lo acepta.",
        )
        bets = (*bets[: at + 1], Bet(pair, Action.QUIERO))
    return bets


def _obligada(table: _Table, seat: Seat, score: Score, betting: LanceBetting) -> bool:
    """The clear case of 4.1d: the rivals reach the target with any negada, so the pair must take
    any envite; and the lance was accepted or went en paso."""
    if betting.outcome is Outcome.DEJE:
        return False
    rivals = Pair.of(seat).other
    return score[rivals] + 1 >= table.rules.target


def _explain_loss(ruler: _Ruler, lance: Lance, loser: Pair, article: str) -> None:
    if article == "4.2.b":
        ruler.say(
            "4.2.b",
            f"4.2.b: la pareja {loser} pierde el lance con error ({lance.key}): lo gana la pareja {loser.other}.",
        )
    elif article == "4.2.c":
        ruler.say(
            "4.2.c",
            f"4.2.c: por el error en pares, la pareja {loser} pierde también el lance de {lance.key}: lo gana la "
            f"pareja {loser.other}.",
        )
    elif article == "3.4.b":
        ruler.say(
            "3.4.b",
            f"3.4.b: la pareja {loser} enseñó por estar fuera y no lo estaba: pierde el lance de {lance.key}, no "
            f"jugado ni mencionado, que gana la pareja {loser.other} (como en 4.2.c).",
        )
    else:
        ruler.say(
            "3.12.b",
            f"3.12.b: la pareja {loser} aceptó el órdago a pares con jugada mínima y un contrario mostró sus cartas: "
            f"pierde también el lance de {lance.key}, como en 4.2.c.",
        )


def _explain_annulled(ruler: _Ruler, windows: list[_Window], index: int, lance: Lance, table: _Table) -> None:
    for w in windows:
        if (
            w.annul
            and slot(w.error.lance) == index
            and w.error.kind != "meterse_en_baraja"
            and (table.holds(w.error.seat, lance) or lance in (Lance.GRANDE, Lance.CHICA))
        ):
            ruler.say(
                "4.2.a",
                f"4.2.a: se anula la jugada del {SEAT_NAMES[w.error.seat]} en {lance.key}: no vale para ganar el "
                "lance ni para apuntarse si lo gana su compañero.",
            )


def _negada_adicional(
    ruler: _Ruler,
    table: _Table,
    informing: list[_Window],
    index: int,
    lance: Lance,
    holds: bool,
    negada: bool,
    won_envite: bool,
) -> bool:
    """4.2.e: one more tanto for the non-infractor pair in a lance it wins, with its exceptions."""
    infractor = informing[0].error.pair
    clean = infractor.other
    if negada:
        reason = "ya se apuntó la negada en su momento"
    elif won_envite:
        reason = "ganó envites que no se anulan"
    elif not holds:
        reason = "ningún jugador de la pareja infractora lleva jugada en el lance"
    else:
        reason = ""
        for w in informing:
            seat = w.error.seat
            if slot(w.error.lance) != index or not w.annul:
                continue
            alone = table.holds(seat, lance) and not table.holds(seat ^ 2, lance)
            if alone and table.maxima(seat, lance, frozenset()):
                reason = "solo lleva el infractor y su jugada máxima queda anulada por 4.2.a"
                break
    if reason:
        ruler.say("4.2.e", f"4.2.e: sin negada adicional en {lance.key} para la pareja {clean}: {reason}.")
        return False
    ruler.say(
        "4.2.e",
        f"4.2.e: la pareja {clean}, no infractora, gana el lance de {lance.key}, jugado con información errónea: "
        "se apunta un tanto de negada adicional.",
    )
    return True


def _plain(
    tally: _Tally,
    count: list[tuple[Lance, Pair, int, EventKind, str | None]],
    table: _Table,
    betting: LanceBetting,
    lance: Lance,
    winner: Pair | None,
    out: frozenset[Seat],
    rules: RuleSet,
) -> bool:
    """A lance outside every error's window, counted as the tanteo counts it (with ``winner``).
    Returns whether an accepted órdago ended the hand."""
    outcome = betting.outcome
    if outcome is Outcome.DEJE:
        assert betting.pair is not None
        tally.add(lance, betting.pair, betting.amount, EventKind.DEJE)
    if outcome is Outcome.ORDAGO:
        if winner is not None:
            tally.ordago(lance, winner)
        return True
    if winner is None:
        if outcome is Outcome.DEJE and lance is Lance.PUNTO and rules.deje_punto:
            count.append((lance, betting.pair or Pair.A, 1, EventKind.JUGADA, None))
        return False
    if outcome is Outcome.PASO:
        count.append((lance, winner, table.paso_value(winner, lance, out), EventKind.PASO, None))
    elif outcome is Outcome.QUERIDO:
        count.append((lance, winner, betting.amount, EventKind.ENVITE, None))
        _count_standing(count, table, betting, lance, winner, out, rules, stake=False)
    else:  # deje
        assert betting.pair is not None
        if lance is Lance.PUNTO:
            count.append((lance, betting.pair if rules.deje_punto else winner, 1, EventKind.JUGADA, None))
        elif lance in (Lance.PARES, Lance.JUEGO):
            scorer = betting.pair if rules.con_deje(lance) else winner
            count.append((lance, scorer, table.value(scorer, lance, out), EventKind.JUGADA, None))
    return False


def _count_standing(
    count: list[tuple[Lance, Pair, int, EventKind, str | None]],
    table: _Table,
    betting: LanceBetting,
    lance: Lance,
    winner: Pair,
    out: frozenset[Seat],
    rules: RuleSet,
    *,
    stake: bool = False,
) -> None:
    """The count of a lance whose envite stands: the jugada on top of the stake (already counted)."""
    if stake:
        count.append((lance, winner, betting.amount, EventKind.ENVITE, None))
    if lance is Lance.PUNTO:
        if betting.outcome is Outcome.DEJE and rules.deje_punto and betting.pair is not None:
            count.append((lance, betting.pair, 1, EventKind.JUGADA, None))
        else:
            count.append((lance, winner, 1, EventKind.JUGADA, None))
    elif lance in (Lance.PARES, Lance.JUEGO):
        scorer = winner
        if betting.outcome is Outcome.DEJE and rules.con_deje(lance) and betting.pair is not None:
            scorer = betting.pair
        count.append((lance, scorer, table.value(scorer, lance, out), EventKind.JUGADA, None))


def _ruling(
    ruler: _Ruler,
    errors: Sequence[RuleError],
    events: Sequence[RulingEvent],
    before: Score,
    score: Score,
    winner: Pair | None,
) -> Ruling:
    if not ruler.explanation:
        ruler.explanation.append(NOTHING_TO_APPLY)
    return Ruling(
        errors=tuple(errors),
        events=tuple(events),
        before=before,
        score=score,
        game_winner=winner,
        articles=_sort_articles(ruler.articles),
        explanation=tuple(ruler.explanation),
        sanctions=tuple(ruler.sanctions),
    )


__all__ = [
    "IntoDeck",
    "JuezFacts",
    "Rectification",
    "RuleError",
    "Ruling",
    "RulingEvent",
    "RulingInputError",
    "SenaPassed",
    "When",
    "WrongCards",
    "rule",
    "slot",
]
