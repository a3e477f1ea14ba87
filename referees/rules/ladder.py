"""The sanction ladder of AMM 5.4, pure: from a pair's sanctions in force, the step the juez is
offered next, and whether the step chosen needs a reason (5.4.a).

AMM 5.4: «Todas las normas de este reglamento que sean susceptibles de penalización y que no esté
expresamente determinada deberán seguir el siguiente protocolo: 1.- Se personará un juez en la mesa
que anotará en el acta el apercibimiento si procede. 2.- Si hubiera reiteraciones se procederá a la
pérdida del juego. 3.- Las sucesivas infracciones podrán conllevar la pérdida de la partida o
expulsión del torneo.» 5.4.a: «Los jueces podrán saltarse algunos de los pasos anteriores en función
de la gravedad del caso, especialmente cuando sea patente la intencionalidad del infractor.»

Decisions where the text is silent:

- **Only the protocol's steps count**: 5.4 governs the norms whose penalty «no esté expresamente
  determinada». A sanction under an article with its own penalty (6.1.b lateness, 3.17, 6.6,
  3.16.b…) is not a step: it is shown to the juez (``apart``) and never raises the next step.
- **What counts** (``scope``, the tournament's option): the apercibimiento is written «en el acta»
  — the partida's — so by default the ladder counts the pair's sanctions **in the same partida**
  ("partida"); the pair's sanctions in earlier partidas are shown to the juez (``elsewhere``), who
  may skip steps for them (5.4.a, with a reason). A tournament that wants the ladder to run over
  the whole tournament sets the scope "torneo".
- **Outside any partida** (5.10 «en el lugar del evento»), there is no acta to count: the pair's
  infractions at the venue escalate over the whole tournament (5.4.2 «Si hubiera reiteraciones»),
  whatever the scope; its sanctions in partidas are shown apart (``elsewhere``).
- **Any infraction** under the protocol counts towards the next step, not only a repetition of the
  same article: «reiteraciones» and «sucesivas infracciones» speak of the pair's conduct.
- **The next step** is one above the highest in force: a juez who, with a reason, gave a second
  apercibimiento leaves the next one at the loss of a juego. From the third step on the juez chooses
  between the loss of the partida and the expulsion (both are offered).
- **A reason** is needed for any step other than the ones offered: above them it is 5.4.a
  (gravity, intent); below them it is the juez's own criterion (5.1). Either way it stays on record.
- Articles with their own penalty (``own``) do not use the ladder: no step is proposed. 3.16.b
  (results agreed or manipulated) is the expulsion itself.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from typing import Final, Literal

Scope = Literal["partida", "torneo"]
SCOPES: Final[tuple[Scope, ...]] = ("partida", "torneo")
Penalty = Literal["ladder", "own", "expulsion"]


class Step(enum.IntEnum):
    """The steps of AMM 5.4, in order."""

    APERCIBIMIENTO = 1
    """5.4.1: a warning, written on the acta."""
    JUEGO = 2
    """5.4.2: on repetition, the loss of a juego."""
    PARTIDA = 3
    """5.4.3: the loss of the partida ..."""
    EXPULSION = 4
    """5.4.3: ... or the expulsion from the tournament (5.10: «descalificación»)."""


class LadderError(ValueError):
    """A choice the ladder refuses; ``code`` says which, for the site's translated message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclasses.dataclass(frozen=True)
class Past:
    """A sanction in force: its step and the partida it was given in (None: outside a partida)."""

    step: Step
    match: int | None
    article: str = ""
    penalty: Penalty = "ladder"
    """The article's penalty: only "ladder" sanctions are steps of the protocol (5.4)."""


@dataclasses.dataclass(frozen=True)
class Proposal:
    """What the ladder offers for a new infraction."""

    step: Step
    """The step proposed (the lowest of ``options``)."""
    options: tuple[Step, ...]
    """The steps the juez may give without a reason."""
    counted: tuple[Past, ...]
    """The sanctions the proposal counted (the scope's)."""
    elsewhere: tuple[Past, ...]
    """The pair's other sanctions in force, outside the scope: for the juez to weigh (5.4.a)."""
    scope: Scope
    article: str = "5.4"
    apart: tuple[Past, ...] = ()
    """The pair's sanctions under articles with their own penalty: not steps of 5.4's protocol."""


def propose(
    record: Sequence[Past],
    *,
    match: int | None,
    penalty: Penalty = "ladder",
    scope: Scope = "partida",
) -> Proposal | None:
    """The step AMM 5.4 offers for a pair's new infraction in partida ``match``, from ``record``,
    the pair's sanctions in force. None when the article sets its own penalty (``own``)."""
    if scope not in SCOPES:
        raise LadderError("scope", f"alcance de la escala desconocido: {scope!r} (partida o torneo)")
    if penalty == "own":
        return None
    steps = tuple(p for p in record if p.penalty == "ladder")
    apart = tuple(p for p in record if p.penalty != "ladder")
    counted = tuple(p for p in steps if scope == "torneo" or p.match == match)
    elsewhere = tuple(p for p in steps if p not in counted)
    if penalty == "expulsion":
        # 3.16.b: «será motivo de descalificación y expulsión del torneo».
        return Proposal(Step.EXPULSION, (Step.EXPULSION,), counted, elsewhere, scope, article="3.16.b", apart=apart)
    highest = max((p.step for p in counted), default=0)
    if highest >= Step.JUEGO:
        options: tuple[Step, ...] = (Step.PARTIDA, Step.EXPULSION)
    else:
        options = (Step(highest + 1),)
    return Proposal(options[0], options, counted, elsewhere, scope, apart=apart)


def check_choice(proposal: Proposal, step: Step, reason: str) -> None:
    """Whether the juez may give ``step``: one of the offered steps always; another one only with
    a reason (5.4.a above the offered ones, the juez's criterion below). LadderError otherwise."""
    if step in proposal.options or reason.strip():
        return
    if step > max(proposal.options):
        raise LadderError(
            "skip_needs_reason",
            f"saltarse pasos de la escala (de {proposal.step.name.lower()} a {step.name.lower()}) exige un motivo "
            "(AMM 5.4.a)",
        )
    raise LadderError(
        "lower_needs_reason",
        f"dar {step.name.lower()} cuando la escala propone {proposal.step.name.lower()} exige un motivo (AMM 5.4)",
    )
