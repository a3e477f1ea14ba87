"""Reading and checking one recorded hand, on its own: the frames (the engine's pair A is the
hand's mano, the site's is the match's pair A), the juego's rules, the typing mistakes refused
before anything is written (rule 1 of the package docstring: the engine's format, the deal, tantos
no hand can have) and the hand's own findings that are stored with it (rule 2). No database
writes and nothing about the other hands of the juego: the count and the writes build on it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from scoring import mus
from scoring.models import RecordedGame, RecordedHand

Side = RecordedGame.Side
_DEAL_CODES = frozenset({"carta_invalida", "carta_fuera_de_baraja", "carta_repetida", "numero_de_cartas"})


def other(side: str) -> str:
    return Side.B if side == Side.A else Side.A


def to_match_frame(score: mus.Score, mano_side: str) -> tuple[int, int]:
    """A score whose A is the mano pair of a hand, as (match pair_a, match pair_b)."""
    return (score.a, score.b) if mano_side == Side.A else (score.b, score.a)


def to_hand_frame(a: int, b: int, mano_side: str) -> mus.Score:
    """(match pair_a, pair_b) tantos as the engine's score of a hand where `mano_side` is mano (A)."""
    return mus.Score(a, b) if mano_side == Side.A else mus.Score(b, a)


def rules_for(game: RecordedGame) -> mus.RuleSet:
    """The juego's rules: the tournament's preset, its target replaced by the tantos per juego."""
    rules = mus.get_rules(game.rule_set)
    return rules if rules.target == game.target else dataclasses.replace(rules, target=game.target)


def engine_record(hand: RecordedHand, game: RecordedGame) -> mus.RecordedHand:
    """The stored record, read back by the engine with the juego's rules."""
    record = mus.parse_record(hand.record)
    return dataclasses.replace(record, rules=rules_for(game))


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


# The bounds of a record's tantos. AMM 3.6 lets an envite be any number, and the engine counts it
# as said; but a stake of the tantos per juego already wins the juego, because the count stops at
# the first event that takes a pair to the target (scoring.mus.tanteo.score_hand). So the envites
# of one lance may add up to MAX_LANCE_STAKE (100, two and a half juegos to 40): only a typing slip
# (an extra zero) is refused. One event of the count is then at most MAX_LANCE_STAKE tantos (an
# accepted stake, or a deje, which is smaller; a jugada is at most 6, duples in both hands), so a
# pair has at most target - 1 + MAX_LANCE_STAKE tantos after a hand: 139 in a juego to 40. That
# bounds the claimed score too, keeps the juego's tantos within the results' 0-200 per juego, and
# far from what the database stores (RecordedHand.score_a and RecordedGame.tantos_a are smallints).
MAX_LANCE_STAKE = 100


def max_score_after(target: int) -> int:
    """The most tantos a pair can have after one hand of a juego to `target` (see above)."""
    return target - 1 + MAX_LANCE_STAKE


def _check_tantos(record: mus.RecordedHand, target: int) -> None:
    """Refuse tantos no hand can have: a score before the hand outside 0..target-1 (a juego ends
    when a pair reaches the target; one decided by the juez at fewer tantos, AMM 6.4, still starts
    below it), a lance's envites above MAX_LANCE_STAKE, a claimed score after the hand below 0 or
    above max_score_after. A claimed score lower than the score before stays a finding (AMM 3.13)."""
    score = record.score
    if not (0 <= score.a < target and 0 <= score.b < target):
        raise ValidationError(
            {
                "score": _(
                    "Antes de una mano cada pareja tiene de 0 a %(max)d tantos (el juego es a %(t)d): "
                    "A %(a)d – B %(b)d no puede ser."
                )
                % {"max": target - 1, "t": target, "a": score.a, "b": score.b}
            }
        )
    cap = record.rules.envite_cap
    for lance, bets in record.bets.items():
        stake = 0
        for index, bet in enumerate(bets):
            if bet.action is not mus.Action.ENVIDO:
                continue
            amount = 2 if bet.amount is None else bet.amount
            stake += 2 if cap is not None and amount > cap else amount  # as the engine counts it
            if stake > MAX_LANCE_STAKE:
                raise ValidationError(
                    {
                        f"lances.{lance.key}[{index}]": _(
                            "Los envites de %(l)s suman %(n)d tantos: como mucho %(max)d (con %(t)d ya se "
                            "gana el juego)."
                        )
                        % {"l": lance.key, "n": stake, "max": MAX_LANCE_STAKE, "t": target}
                    }
                )
    claimed = record.claimed.score if record.claimed is not None else None
    highest = max_score_after(target)
    if claimed is not None and not (0 <= claimed.a <= highest and 0 <= claimed.b <= highest):
        raise ValidationError(
            {
                "claimed.score": _(
                    "Tras una mano cada pareja tiene de 0 a %(max)d tantos (el juego es a %(t)d): "
                    "A %(a)d – B %(b)d no puede ser."
                )
                % {"max": highest, "t": target, "a": claimed.a, "b": claimed.b}
            }
        )


def clean_record(
    data: object, *, rule_set: str, target: int, score: mus.Score, record_id: str
) -> tuple[mus.RecordedHand, dict[str, Any], bool]:
    """Read a recorded hand typed by a table (the engine's JSON format) and refuse typing mistakes
    (rule 1 of the package docstring): ValidationError keyed by the engine's field. Returns the engine's record, its
    JSON as stored, and whether it has the cards. `score` is used when the record has none. Tantos
    no hand can have are typing mistakes too (`_check_tantos`), keyed «score», «claimed.score» or
    the lance's envite."""
    if not isinstance(data, Mapping):
        raise ValidationError({"record": _("Se esperaba una mano anotada: un objeto con «hands», «lances»…")})
    data = dict(data)
    given_rules = data.get("rules")
    if given_rules not in (None, rule_set):
        raise ValidationError(
            {"rules": _("El torneo se juega con el reglamento «%(r)s»; no se puede anotar con otro.") % {"r": rule_set}}
        )
    data["rules"] = rule_set
    data["id"] = record_id
    if data.get("score") is None:
        data["score"] = {"A": score.a, "B": score.b}
    hands = data.get("hands")
    if hands is None:
        hands = data["hands"] = []
    has_cards = True
    if isinstance(hands, list) and all(isinstance(h, str) for h in hands):
        blank = [not h.strip() for h in hands]
        if all(blank):
            data["hands"], has_cards = [], False
        elif any(blank) or len(hands) != 4:
            raise ValidationError({"hands": _("Escribe las cartas de los cuatro jugadores, o de ninguno.")})
        else:
            data["hands"] = [" ".join(h.split()) for h in hands]
    try:
        record = mus.parse_record(data)
    except mus.RecordFormatError as error:
        raise ValidationError({error.field or "record": _sentence(error.detail)}) from None
    except mus.MusError as error:  # a rule set the engine does not know
        raise ValidationError({"rules": _sentence(str(error))}) from None
    rules = mus.get_rules(rule_set)
    if rules.target != target:
        rules = dataclasses.replace(rules, target=target)
    record = dataclasses.replace(record, rules=rules)
    _check_tantos(record, target)
    if has_cards:
        _hands, problems = mus.check_deal(record.hands, rules.deck)
        if problems:
            errors: dict[str, list[str]] = {}
            for seat, problem in problems:
                key = "hands" if seat is None else f"hands[{seat}]"
                errors.setdefault(key, []).append(_sentence(str(problem)))
            raise ValidationError(errors)
    elif record.claimed is None or record.claimed.score is None:
        raise ValidationError(
            {"claimed.score": _("Sin cartas la mano no se puede contar: anota el marcador tras la mano.")}
        )
    return record, mus.record_to_json(record), has_cards


def ordago_accepted(record: mus.RecordedHand) -> mus.Lance | None:
    for lance, bets in record.bets.items():
        actions = [bet.action for bet in bets]
        if mus.Action.ORDAGO in actions and actions[-1] is mus.Action.QUIERO:
            return lance
    return None


def hand_findings(record: mus.RecordedHand, has_cards: bool) -> list[dict[str, Any]]:
    """The hand's own findings, as JSON (scoring.mus.finding_to_json)."""
    if has_cards:
        return [mus.finding_to_json(f) for f in mus.check_record(record).findings]
    findings = [
        {
            "code": "sin_cartas",
            "article": "AMM 3.4.c",
            "severity": "aviso",
            "message": _(
                "No se anotaron las cartas (que se enseñan al terminar cada mano, AMM 3.4.c): el tanteo "
                "anotado por la mesa no se puede comprobar y cuenta tal cual."
            ),
        }
    ]
    claimed = record.claimed.score if record.claimed is not None else None
    if claimed is not None and (claimed.a < record.score.a or claimed.b < record.score.b):
        findings.append(
            {
                "code": "marcador_incorrecto",
                "article": "AMM 3.13",
                "severity": "error",
                "message": _(
                    "Tras la mano se anotó A %(ca)d – B %(cb)d, menos tantos que antes de ella (A %(a)d – B %(b)d)."
                )
                % {"ca": claimed.a, "cb": claimed.b, "a": record.score.a, "b": record.score.b},
            }
        )
    lance = ordago_accepted(record)
    if lance is not None and (record.claimed is None or record.claimed.game_winner is None):
        findings.append(
            {
                "code": "ordago_sin_ganador",
                "article": "AMM 1.7.a",
                "severity": "error",
                "lance": lance.key,
                "message": _("Hubo un órdago aceptado a %(l)s: sin cartas, anota qué pareja ganó el juego.")
                % {"l": lance.key},
            }
        )
    return findings


def has_error(findings: list[dict[str, Any]]) -> bool:
    return any(f.get("severity") == "error" for f in findings)
