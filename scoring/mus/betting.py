"""Betting: a lance's envites as pair-level actions, their legality, and how the lance ends.

A lance is written as the pairs' actions in order: ``A:envido 2``, ``B:envido 4`` (a raise adds
4), ``A:no quiero``. Passes may be written or left out; written, they follow the turns (AMM 3.8):
before any envite a pass is one player's turn, A, B, A, B from mano, and after four the lance is
closed; after an envite a pass is the answering pair's decline, like «no quiero». The outcome is
one of paso, deje (an envite declined: the bettor scores at once), querido (the stake is counted
at the end) or órdago (accepted: the hand and the juego end). :func:`resolve_lance` says it in
full, with the quotes.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Sequence
from typing import Final

from .core import Lance, Pair
from .errors import IllegalBetError, InvalidBetError
from .rules import AMM, RuleSet


class Action(enum.Enum):
    """What a pair says in a lance."""

    ENVIDO = "envido"
    ORDAGO = "ordago"
    QUIERO = "quiero"
    NO_QUIERO = "no quiero"
    PASO = "paso"


@dataclasses.dataclass(frozen=True, slots=True)
class Bet:
    """One pair-level action. ``amount`` is the number said with an envido (``None``: none said,
    which counts as 2, AMM 3.6); as a raise it is added to the standing envite."""

    pair: Pair
    action: Action
    amount: int | None = None

    def __post_init__(self) -> None:
        if self.amount is not None and self.action is not Action.ENVIDO:
            raise InvalidBetError(f"solo un envido lleva número, no «{self.action.value}»")

    def __str__(self) -> str:
        text = f"{self.pair.name}:{self.action.value}"
        return text if self.amount is None else f"{text} {self.amount}"

    @classmethod
    def parse(cls, text: str) -> Bet:
        """Read ``"A:envido 2"``, ``"B:envido"``, ``"A:ordago"``, ``"B:quiero"``, ``"A:no quiero"``
        or ``"B:paso"`` (accents and capitals tolerated); raises :class:`InvalidBetError`."""
        cached = _PARSED.get(text)
        if cached is not None:
            return cached
        match = _BET.fullmatch(text.strip().lower().replace("ó", "o"))
        if match is None:
            raise InvalidBetError(
                f"«{text}» no es una apuesta: se esperaba p. ej. «A:envido 2», «B:envido», "
                "«A:ordago», «B:quiero», «A:no quiero» o «B:paso»"
            )
        pair = Pair.A if match["pair"] == "a" else Pair.B
        action = Action(" ".join(match["action"].split()))
        amount = int(match["amount"]) if match["amount"] is not None else None
        bet = cls(pair, action, amount)
        if len(_PARSED) < 4096:  # recorded hands repeat the same few texts: keep them parsed
            _PARSED[text] = bet
        return bet


_BET: Final = re.compile(
    r"(?P<pair>[ab])\s*:\s*(?P<action>envido|ordago|quiero|no\s+quiero|paso)(?:(?<=envido)\s+(?P<amount>\d{1,9}))?"
)


_PARSED: dict[str, Bet] = {}


def parse_bets(texts: Sequence[str]) -> tuple[Bet, ...]:
    """Read a lance's actions."""
    return tuple(Bet.parse(text) for text in texts)


class Outcome(enum.Enum):
    """How a lance's betting ended."""

    PASO = "paso"
    """Nobody bet (or nobody could: pares / juego held by one pair or none)."""
    DEJE = "deje"
    """An envite or órdago was declined: ``pair`` scores ``amount`` at once."""
    QUERIDO = "querido"
    """An envite was accepted: the lance winner scores ``amount`` at the count."""
    ORDAGO = "ordago"
    """An órdago was accepted: the hand stops and the lance winner wins the juego."""


@dataclasses.dataclass(frozen=True, slots=True)
class LanceBetting:
    """The result of one lance's betting.

    ``pair`` is, for a deje, the pair whose envite was declined (it scores the deje and, con
    deje, its jugada at the count); for querido and órdago, the pair that made the last envite.
    ``amount`` is the deje's tantos, or the accepted stake; 0 otherwise.
    ``ordago_annulled`` marks an órdago accepted with jugada mínima and scored as declined
    (AMM 3.12.a).
    """

    lance: Lance
    outcome: Outcome
    pair: Pair | None
    amount: int
    bets: tuple[Bet, ...]
    ordago_annulled: bool = False


_EN_PASO: Final = {lance: LanceBetting(lance, Outcome.PASO, None, 0, ()) for lance in Lance}
"""A lance where nothing was said (values are immutable: one per lance serves every hand)."""

_new: Final = object.__new__
_set_lance, _set_outcome, _set_pair, _set_amount, _set_bets, _set_annulled = (
    getattr(LanceBetting, field.name).__set__ for field in dataclasses.fields(LanceBetting)
)


def _betting(
    lance: Lance, outcome: Outcome, pair: Pair | None, amount: int, bets: tuple[Bet, ...], annulled: bool = False
) -> LanceBetting:
    """``LanceBetting(...)`` with its slots set directly, not one ``object.__setattr__`` each as the
    frozen dataclass's ``__init__`` does: a tournament's validation resolves lances by the ten
    thousand (evaluation.py builds a Showdown the same way)."""
    result: LanceBetting = _new(LanceBetting)
    _set_lance(result, lance)
    _set_outcome(result, outcome)
    _set_pair(result, pair)
    _set_amount(result, amount)
    _set_bets(result, bets)
    _set_annulled(result, annulled)
    return result


def _illegal(message: str, code: str, article: str, lance: Lance, index: int | None) -> IllegalBetError:
    return IllegalBetError(message, code=code, article=article, lance=lance, index=index)


_SEQUENCE: Final = "seed 000 (anuncio de las jugadas)"
"""Where AMM says nothing: seed 000 «Anuncio de las jugadas» (mano speaks first, then each player
«por turno riguroso de juego … si pasa, si acepta el envite o si lo aumenta»)."""
_ORDAGO: Final = "seed 000 (órdago)"
"""Seed 000 «Órdago»: «se apuestan todas las piedras o amarrakos de una sola vez»; AMM says nothing."""
_TURNS: Final = 4
"""Before any envite the four seats speak once each, mano first: A, B, A, B (AMM 3.8)."""


def resolve_lance(
    lance: Lance,
    bets: Sequence[Bet],
    rules: RuleSet = AMM,
    *,
    holders: tuple[bool, bool] = (True, True),
    jugada_minima: bool = False,
) -> LanceBetting:
    """Check a lance's actions and say how it ended; raises :class:`IllegalBetError`.

    ``holders`` says whether pair A and pair B hold the lance (pares / juego; declared or
    real, as the caller decides). ``jugada_minima`` says whether pair B's only jugada in the
    lance is a jugada mínima (AMM 3.12).

    Who may speak when (AMM 3.8 «TURNOS DE ENVITE»; seed 000 «Anuncio de las jugadas»: «El
    jugador "mano" es el primero que en cada jugada manifiesta si desea pasar, envidar…, y cada
    uno de los demás jugadores, por turno riguroso de juego, deberá manifestar si pasa, si acepta
    el envite o si lo aumenta»):

    - Before any envite, each action takes its pair's next turn in the order mano (A), asiento 1
      (B), asiento 2 (A), postre (B); a pass left out is a turn skipped. So ``A:paso, B:paso,
      A:envido`` is mano's partner envidando, and ``B:envido`` alone has mano's pass left out.
      When the four turns are gone, everybody has passed and the lance is closed en paso: seed
      000, a player who passed enters again only «al llegarle su segundo turno de hablar,
      aceptando o aumentando los envites anteriores», and there are none (``lance_cerrado``).
    - After an envite, each action is the answering pair's word (AMM 3.9: what the record notes is
      the pair's, «habla por los dos»): ``quiero``, a raise or órdago, or a decline, written
      ``no quiero`` or ``paso``. A pass after an envite is a decline: seed 000, «si un jugador
      pasase después de haber envidado algún jugador anterior a él, queda definitivamente
      eliminado de esa jugada»; seed 001, «Si no se va a responder al envite se dice "no quiero" o
      "no envido"». The answer closes the lance.
    """
    if not bets:
        return _EN_PASO[lance]
    stake = 0  # what the lance winner takes if the standing envite is accepted
    before = 0  # the stake before the last raise: what a declined raise gives (0: first envite)
    bettor: Pair | None = None  # the pair whose envite stands
    ordago = False
    answer: Bet | None = None
    turn = 0  # before any envite, the next turn: 0 mano … 3 postre; 4: all four have passed
    name = lance.key
    for index, bet in enumerate(bets):
        pair = bet.pair
        action = bet.action
        if answer is not None:
            raise _illegal(
                f"en {name}, «{bet}» llega después de «{answer}», que ya cerró el lance",
                "lance_cerrado",
                "AMM 3.9",
                lance,
                index,
            )
        if bettor is None:
            if (turn & 1) != pair:
                turn += 1  # the other pair's turn, its pass left out
            if turn >= _TURNS:
                # AMM 3.8; seed 000: after four passes nobody may open the lance again.
                raise _illegal(
                    f"en {name}, «{bet}» llega cuando ya han pasado los cuatro jugadores: el lance "
                    "quedó cerrado en paso",
                    "lance_cerrado",
                    "AMM 3.8",
                    lance,
                    index,
                )
            turn += 1
            if action is Action.PASO:
                continue
            if action is Action.QUIERO or action is Action.NO_QUIERO:
                raise _illegal(
                    f"en {name}, la pareja {pair.name} dice «{action.value}» sin que haya envite",
                    "respuesta_sin_envite",
                    _SEQUENCE,
                    lance,
                    index,
                )
        elif pair is bettor:
            if action is Action.ENVIDO or action is Action.ORDAGO:
                # AMM 3.10: a pair's two voices make one envite, and «la pareja contraria» answers.
                raise _illegal(
                    f"en {name}, la pareja {pair.name} sube su propio envite: antes debe responder "
                    f"la pareja {pair.other.name}",
                    "envite_propio",
                    "AMM 3.10",
                    lance,
                    index,
                )
            # AMM 3.7.d: the pair facing the envite decides «querer, no querer o revocar».
            raise _illegal(
                f"en {name}, la pareja {pair.name} "
                + ("pasa ante" if action is Action.PASO else "responde a")
                + f" su propio envite: le toca responder a la pareja {pair.other.name}",
                "envite_propio",
                "AMM 3.7.d",
                lance,
                index,
            )
        elif action is not Action.ENVIDO and action is not Action.ORDAGO:
            answer = bet  # quiero, or a decline: «no quiero» or a pass (seed 000, seed 001)
            continue
        # An envite, a raise or an órdago.
        if not holders[pair]:
            raise _illegal(
                f"en {name}, la pareja {pair.name} envida sin llevar {name} (AMM 3.8: envidar a "
                f"{name} es declarar que se lleva)",
                "envite_sin_jugada",
                "AMM 3.8",
                lance,
                index,
            )
        if not holders[pair.other]:
            raise _illegal(
                f"en {name} solo lleva la pareja {pair.name}: no hay envites, se apunta su jugada en paso",
                "envite_sin_contrario",
                _SEQUENCE,
                lance,
                index,
            )
        if ordago:
            raise _illegal(
                f"en {name}, la pareja {pair.name} envida después de un órdago: solo cabe «quiero» o «no quiero»",
                "envite_tras_ordago",
                _ORDAGO,
                lance,
                index,
            )
        if action is Action.ORDAGO:
            ordago = True
            before = stake
        else:
            amount = 2 if bet.amount is None else bet.amount  # AMM 3.6: no number said = 2
            if amount < 2:
                raise _illegal(
                    f"en {name}, la pareja {pair.name} envida {amount}: un envite es de 2 tantos o más (AMM 3.6)",
                    "envite_menor_de_dos",
                    "AMM 3.6",
                    lance,
                    index,
                )
            if rules.envite_cap is not None and amount > rules.envite_cap:
                amount = 2  # Asturias (seed 000): an envite above 40 counts as an envido
            # AMM 3.6: however large, an envite is an envite, never an órdago.
            before = stake
            stake += amount
        bettor = pair
    if bettor is not None and answer is None:
        # AMM 3.7: «hasta 1 minuto para aceptar o revocar un envite»; 3.7.b: past it, «se entenderá
        # que declinan», which the record then says with «no quiero».
        raise _illegal(
            f"en {name}, el envite de la pareja {bettor.name} se quedó sin respuesta",
            "envite_sin_respuesta",
            "AMM 3.7",
            lance,
            None,
        )
    bets = tuple(bets)
    if bettor is None or answer is None:
        return _betting(lance, Outcome.PASO, None, 0, bets)
    # Declined: a first envite gives the bettor 1, a raise the total before it (seed 002 art. 8
    # and art. 17; seed 000 «deje»); a declined órdago is a declined envite.
    deje = before if before else 1
    if answer.action is not Action.QUIERO:  # «no quiero», or a pass after the envite
        return _betting(lance, Outcome.DEJE, bettor, deje, bets)
    if ordago:
        if jugada_minima and answer.pair is Pair.B and rules.ordago_jugada_minima_annulled:
            # AMM 3.12 / 3.12.a: jugada mínima may accept anything but an órdago; accepted, it is
            # annulled and the other pair scores it «como no querido».
            return _betting(lance, Outcome.DEJE, bettor, deje, bets, annulled=True)
        return _betting(lance, Outcome.ORDAGO, bettor, 0, bets)
    return _betting(lance, Outcome.QUERIDO, bettor, stake, bets)
