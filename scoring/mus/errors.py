"""The engine's exceptions: ``ValueError`` subclasses named for what is wrong.

Every message is in Spanish and names the card, seat, lance or field at fault, because these
messages reach players and jueces through the command line and the site.
"""

from __future__ import annotations

from .core import Lance


class MusError(ValueError):
    """Base class: anything the engine rejects as input."""


class InvalidCardError(MusError):
    """Text that is not a card of the Spanish deck (``8o``, ``12x``, ``rey``)."""


class CardNotInDeckError(InvalidCardError):
    """A real card that the rule set's deck leaves out (the doses in La Rioja's 36 cards)."""


class RepeatedCardError(MusError):
    """The same card twice, in one hand or across the deal (AMM 1.2: each card exists once)."""


class CardCountError(MusError):
    """A hand without exactly four cards, or a deal without exactly four hands."""


class UnknownRuleSetError(MusError):
    """A rule-set name that is not one of the presets."""


class InvalidRuleSetError(MusError):
    """Options that make no rule set (5 reyes, a target of 0 tantos…)."""


class InvalidBetError(MusError):
    """Text that is not a bet (``A:envido dos``, ``C:quiero``)."""


class IllegalBetError(MusError):
    """A readable bet that the betting rules do not allow where it stands.

    ``code`` and ``article`` let validation turn it into a finding; ``index`` is the position
    of the offending action in its lance (``None`` when the fault is the lance as a whole).
    """

    def __init__(
        self,
        message: str,
        *,
        code: str,
        article: str,
        lance: Lance | None = None,
        index: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.article = article
        self.lance = lance
        self.index = index


class InvalidScoreError(MusError):
    """A score before a hand that cannot be (negative, or the juego already over)."""


class RecordFormatError(MusError):
    """A recorded hand whose JSON does not follow the documented format; ``field`` says where."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.detail = message
