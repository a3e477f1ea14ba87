"""The limits of a suplente (AMM 5.8), pure: the facts of one substitution in, the articles it
breaks out. The site gathers the facts (who is registered, who already substituted for whom, the
round, the pair) and says each refusal in Spanish; a juez may authorise it anyway for force
majeure («salvo casos de fuerza mayor»), with a reason that stays on record.

AMM 5.8: «Si uno de los integrantes de una pareja no pudiese asistir a las partidas o tuviera que
ausentarse por causa justificada, se podrá autorizar su sustitución por otra persona.»

- 5.8.a «Una vez que un suplente comience una partida deberá terminarla»: once the partida has
  begun with the suplente, the suplente is not withdrawn nor replaced in it.
- 5.8.b «No podrá ejercer de suplente un jugador ya inscrito en el torneo aunque estuviera ya
  eliminado»: nobody registered in any pair of the tournament, whatever its state (the identity
  rule of the registrations: the document, else the normalised name).
- 5.8.c «Un jugador que haya hecho de suplente, no podrá volver a ser suplente de otra pareja
  diferente»: the same person again for the same pair is fine.
- 5.8.d «No se admiten suplencias en las rondas finales del torneo.»
- 5.8.e «En el caso de que se admitan tríos … los 3 jugadores se consideran titulares»: a trío
  plays with two of its three, so its third player is not a suplente (no substitution is recorded
  for it). Reading: an outsider replaces a trío member only when two of its three cannot play —
  then the trío is a pair with one player missing, as 5.8 means.
- 5.8 «Si **uno** de los integrantes…»: one suplente per pair and partida; a second one (both
  players replaced) only for force majeure, with its reason.
"""

from __future__ import annotations

import dataclasses
from typing import Final


@dataclasses.dataclass(frozen=True)
class Facts:
    """One substitution asked for."""

    pair: int
    registered: bool
    """5.8.b: the person is registered in the tournament (any pair, any state)."""
    earlier_pairs: frozenset[int] = frozenset()
    """5.8.c: the pairs the person was already a suplente for in this tournament."""
    final_round: bool = False
    """5.8.d: the partida is in the rondas finales."""
    trio: bool = False
    """5.8.e: the pair is a trío."""
    trio_missing: int = 1
    """5.8.e: how many of the trío's three cannot play (the replaced player included)."""
    other_places: int = 0
    """5.8: the pair's other players already replaced in this partida."""
    suplente_started: bool = False
    """5.8.a: the partida has begun with another suplente in this place (changing it) — or, when
    withdrawing a suplente, with this one."""


@dataclasses.dataclass(frozen=True)
class Refusal:
    article: str
    code: str


REGISTERED: Final = Refusal("5.8.b", "registered")
OTHER_PAIR: Final = Refusal("5.8.c", "other_pair")
FINAL_ROUND: Final = Refusal("5.8.d", "final_round")
TRIO: Final = Refusal("5.8.e", "trio")
ONE_PER_PAIR: Final = Refusal("5.8", "one_per_pair")
STARTED: Final = Refusal("5.8.a", "started")


def refusals(f: Facts) -> tuple[Refusal, ...]:
    """Every limit of AMM 5.8 the substitution breaks, in the reglamento's order (empty: allowed)."""
    found: list[Refusal] = []
    if f.other_places:
        found.append(ONE_PER_PAIR)
    if f.suplente_started:
        found.append(STARTED)
    if f.registered:
        found.append(REGISTERED)
    if f.earlier_pairs - {f.pair}:
        found.append(OTHER_PAIR)
    if f.final_round:
        found.append(FINAL_ROUND)
    if f.trio and f.trio_missing < 2:
        found.append(TRIO)
    return tuple(found)
