"""Validation of recorded hands: every way a record contradicts the cards or the reglamento.

A finding has a code, the article it rests on, a message in Spanish, and the seat, lance or
pair at fault. False declarations (AMM 4.1a) are reported by seat and lance; their effects
(AMM 4.2) are the jueces' to apply, so a hand with one is not counted here. Where the record's
rule set has its own article for a finding (the EHMT's arts. 1, 3, 12–14 and 16), the finding
cites it (``RuleSet.article``); the others cite the AMM.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from typing import Final

from .betting import Action, LanceBetting, Outcome, resolve_lance
from .cards import check_deal
from .core import PAIRS, SEAT_NAMES, Lance, Pair, Score, Seat
from .errors import (
    CardCountError,
    CardNotInDeckError,
    IllegalBetError,
    InvalidCardError,
    MusError,
    RepeatedCardError,
)
from .evaluation import Showdown, jugada_minima, showdown
from .jsonio import JSON
from .record import Declaration, RecordedHand
from .rules import RuleSet
from .tanteo import TanteoResult, check_score, score_hand


class Severity(enum.Enum):
    """``error``: the record is wrong or impossible. ``aviso``: something the jueces should know."""

    ERROR = "error"
    AVISO = "aviso"


@dataclasses.dataclass(frozen=True, slots=True)
class Finding:
    """One thing validation found. ``hand`` is the hand's index (from 0) in a juego replay."""

    code: str
    article: str
    message: str
    severity: Severity = Severity.ERROR
    seat: Seat | None = None
    lance: Lance | None = None
    pair: Pair | None = None
    hand: int | None = None


@dataclasses.dataclass(frozen=True)
class RecordCheck:
    """A record's findings, and its tanteo when it could be computed."""

    record: RecordedHand
    findings: tuple[Finding, ...]
    tanteo: TanteoResult | None

    @property
    def valid(self) -> bool:
        """No finding of severity error."""
        return all(finding.severity is not Severity.ERROR for finding in self.findings)


def finding_to_json(finding: Finding) -> dict[str, JSON]:
    """A finding as JSON: code, article, severity, message, and seat / lance / pair / hand when set."""
    data: dict[str, JSON] = {
        "code": finding.code,
        "article": finding.article,
        "severity": finding.severity.value,
        "message": finding.message,
    }
    if finding.seat is not None:
        data["seat"] = finding.seat
    if finding.lance is not None:
        data["lance"] = finding.lance.key
    if finding.pair is not None:
        data["pair"] = finding.pair.name
    if finding.hand is not None:
        data["hand"] = finding.hand
    return data


_DEAL_CODES: Final[list[tuple[type[MusError], str, str | None]]] = [
    (CardNotInDeckError, "carta_fuera_de_baraja", "seed 000 (La Rioja: 36 cartas, sin doses)"),
    (InvalidCardError, "carta_invalida", "AMM 1.2"),
    (RepeatedCardError, "carta_repetida", "AMM 1.2"),
    (CardCountError, "numero_de_cartas", None),  # the rule set's (AMM 2.7; EHMT art. 3)
]


def validate(record: RecordedHand) -> list[Finding]:
    """Every finding about one recorded hand (an empty list: the record is right)."""
    return list(check_record(record).findings)


def check_record(record: RecordedHand) -> RecordCheck:
    """Validate one recorded hand and count it when its cards, declarations and bets allow."""
    findings: list[Finding] = []
    rules = record.rules
    hands, problems = check_deal(record.hands, rules.deck)
    for seat, error in problems:
        code, cited = next((c, a) for kind, c, a in _DEAL_CODES if isinstance(error, kind))
        article = rules.article("numero_de_cartas") if cited is None else cited
        if seat is None:
            code, article = "numero_de_manos", "seed 000 (cuatro jugadores, cuatro cartas cada uno)"
        findings.append(Finding(code, article, _sentence(str(error)), seat=seat))
    if hands is None:
        return _record_check(record, findings, None)

    score_ok = True
    try:
        check_score(record.score, rules)
    except MusError as error:
        score_ok = False
        findings.append(
            Finding("marcador_imposible", rules.article("objetivo"), _sentence(f"marcador previo: {error}"))
        )

    result = showdown(hands, rules)
    false_declarations = _check_declarations(result, record.declarations, rules)
    findings.extend(false_declarations)
    played = _check_bets(result, record, findings)

    tanteo: TanteoResult | None = None
    if false_declarations:
        effects = rules.article("efectos_del_error")
        findings.append(
            Finding(
                "tanteo_no_comprobado",
                effects,
                "Hay declaraciones falsas: el tanteo correcto depende de los efectos del error "
                f"({effects}), que aplica el juez, y no se compara con el anotado.",
                severity=Severity.AVISO,
            )
        )
    elif played is not None and score_ok:
        tanteo = score_hand(result, played, record.score, rules)
        findings.extend(_compare_claimed(record, tanteo))
    return _record_check(record, findings, tanteo)


_new_object: Final = object.__new__


def _record_check(record: RecordedHand, findings: list[Finding], tanteo: TanteoResult | None) -> RecordCheck:
    # RecordCheck(...), its fields set at once rather than by the frozen dataclass's __init__:
    # a tournament's validation checks records by the ten thousand.
    check: RecordCheck = _new_object(RecordCheck)
    check.__dict__.update(record=record, findings=tuple(findings), tanteo=tanteo)
    return check


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _check_declarations(
    result: Showdown, declarations: Sequence[Declaration] | None, rules: RuleSet
) -> list[Finding]:
    # AMM 4.1a: a declaración obligatoria (llevar o no pares / juego) that is not true is an
    # error; 4.1b: the lance con error is the lance whose declaration it is. The EHMT has its own
    # articles for three of the four cases (seed 002 arts. 12–14): ``rules.article`` names them.
    findings: list[Finding] = []
    if declarations is None:
        return findings
    for seat, (declaration, facts) in enumerate(zip(declarations, result.players, strict=True)):
        name = SEAT_NAMES[seat]
        if declaration.pares is not None and declaration.pares != (facts.pares is not None):
            held = "no lleva pares" if facts.pares_name is None else f"lleva {facts.pares_name}"
            said = "sí" if declaration.pares else "no"
            findings.append(
                Finding(
                    "declaracion_falsa",
                    rules.article("declaracion_pares_si" if declaration.pares else "declaracion_pares_no"),
                    f"El {name} declaró «pares {said}» y {held}.",
                    seat=seat,
                    lance=Lance.PARES,
                    pair=Pair.of(seat),
                )
            )
        if declaration.juego is not None and declaration.juego != (facts.juego is not None):
            said = "sí" if declaration.juego else "no"
            held = f"tiene {facts.total}" + (" (juego)" if facts.juego is not None else " (sin juego)")
            findings.append(
                Finding(
                    "declaracion_falsa",
                    rules.article("declaracion_juego_si" if declaration.juego else "declaracion_juego_no"),
                    f"El {name} declaró «juego {said}» y {held}.",
                    seat=seat,
                    lance=Lance.JUEGO,
                    pair=Pair.of(seat),
                )
            )
    return findings


def _declared_holders(result: Showdown, record: RecordedHand) -> tuple[tuple[bool, bool], tuple[bool, bool]]:
    """Who holds pares and who holds juego as the table knew it (pair A, pair B): the
    declarations, or the cards where none."""
    if record.declarations is None:
        return result.holders(Lance.PARES), result.holders(Lance.JUEGO)
    pares = [False, False]
    juego = [False, False]
    for seat, (declaration, facts) in enumerate(zip(record.declarations, result.players, strict=True)):
        said = declaration.pares
        if said if said is not None else facts.pares is not None:
            pares[seat & 1] = True
        said = declaration.juego
        if said if said is not None else facts.juego is not None:
            juego[seat & 1] = True
    return (pares[0], pares[1]), (juego[0], juego[1])


def _check_bets(result: Showdown, record: RecordedHand, findings: list[Finding]) -> list[LanceBetting] | None:
    """Check every lance's betting as the table played it; the lances' results if all was legal."""
    rules = record.rules
    pares_declared, juego_declared = _declared_holders(result, record)
    fourth = Lance.JUEGO if juego_declared[0] or juego_declared[1] else Lance.PUNTO
    wrong = Lance.PUNTO if fourth is Lance.JUEGO else Lance.JUEGO
    ok = True
    wrong_bets = record.bets.get(wrong)
    if wrong_bets and any(bet.action is not Action.PASO for bet in wrong_bets):
        ok = False
        reason = (
            "nadie declaró juego: el cuarto lance es el punto"
            if fourth is Lance.PUNTO
            else ("hay juego declarado: el cuarto lance es el juego, no el punto")
        )
        findings.append(
            Finding(
                "lance_equivocado",
                "seed 000 (juego y punto)",
                f"Hay envites a {wrong.key}, pero {reason}.",
                lance=wrong,
            )
        )
    ordago: Lance | None = None
    played: list[LanceBetting] = []
    for lance in (Lance.GRANDE, Lance.CHICA, Lance.PARES, fourth):
        bets = record.bets.get(lance, ())
        if ordago is not None:
            if any(bet.action is not Action.PASO for bet in bets):
                ok = False
                findings.append(
                    Finding(
                        "lance_tras_ordago",
                        "seed 000 (órdago)",
                        f"Hay envites a {lance.key} después del órdago aceptado a {ordago.key}, que "
                        "terminó la mano y el juego.",
                        lance=lance,
                    )
                )
            continue
        if lance is Lance.JUEGO:
            holders = juego_declared
        elif lance is Lance.PARES:
            holders = pares_declared
        else:
            holders = (True, True)
        try:
            outcome = resolve_lance(
                lance, bets, rules, holders=holders, jugada_minima=bool(bets) and jugada_minima(result, lance)
            )
        except IllegalBetError as error:
            ok = False
            pair = bets[error.index].pair if error.index is not None and error.index < len(bets) else None
            findings.append(
                Finding(error.code, error.article, _sentence(error.message), lance=lance, pair=pair)
            )
            continue
        played.append(outcome)
        if outcome.outcome is Outcome.ORDAGO:
            ordago = lance
        if outcome.ordago_annulled:
            findings.append(_ordago_note(outcome))
    return played if ok else None


def _ordago_note(outcome: LanceBetting) -> Finding:
    assert outcome.pair is not None
    return Finding(
        "ordago_anulado",
        "AMM 3.12.a",
        f"La pareja B aceptó el órdago a {outcome.lance.key} con jugada mínima: el órdago queda "
        f"anulado y la pareja {outcome.pair.name} se lo apunta como no querido ({outcome.amount}).",
        severity=Severity.AVISO,
        lance=outcome.lance,
        pair=Pair.B,
    )


def _format_score(score: Score) -> str:
    return f"A {score.a} – B {score.b}"


def _compare_claimed(record: RecordedHand, tanteo: TanteoResult) -> list[Finding]:
    findings: list[Finding] = []
    claimed = record.claimed
    recuento = record.rules.article("recuento")
    if claimed is None:
        return findings
    points = {lance: [0, 0] for lance in claimed.lances}
    for event in tanteo.events:
        if event.lance in points:
            points[event.lance][event.pair] += event.points
    for lance, said in sorted(claimed.lances.items()):
        right = points[lance]
        if said[0] == right[0] and said[1] == right[1]:
            continue
        for pair in PAIRS:
            if said[pair] != right[pair]:
                findings.append(
                    Finding(
                        "tanteo_incorrecto",
                        recuento,
                        f"En {lance.key}, la pareja {pair.name} anotó {said[pair]} tantos y le "
                        f"corresponden {right[pair]}.",
                        lance=lance,
                        pair=pair,
                    )
                )
    if claimed.score is not None and claimed.score != tanteo.score:
        findings.append(
            Finding(
                "marcador_incorrecto",
                recuento,
                f"Tras la mano se anotó {_format_score(claimed.score)} y el marcador correcto es "
                f"{_format_score(tanteo.score)}.",
            )
        )
    if claimed.states_game_winner and claimed.game_winner != tanteo.game_winner:

        def name(pair: Pair | None) -> str:
            return "ninguna pareja" if pair is None else f"la pareja {pair.name}"

        findings.append(
            Finding(
                "ganador_incorrecto",
                record.rules.article("objetivo"),
                f"Se anotó que {name(claimed.game_winner)} ganó el juego y lo ganó "
                f"{name(tanteo.game_winner)}.",
                pair=tanteo.game_winner,
            )
        )
    return findings


@dataclasses.dataclass(frozen=True)
class GameReplay:
    """A juego's hands played in order: running score, winner and all findings.

    Scores and the winner are given in the frame of the first hand: pair A is the pair that
    was mano in the first hand. ``scores[k]`` is the score after hand ``k`` (``None`` when that
    hand could not be counted and the table claimed no score).
    """

    checks: tuple[RecordCheck, ...]
    scores: tuple[Score | None, ...]
    winner: Pair | None
    findings: tuple[Finding, ...]

    @property
    def valid(self) -> bool:
        return all(finding.severity is not Severity.ERROR for finding in self.findings)


def replay_game(records: Sequence[RecordedHand], mano_pairs: Sequence[Pair] | None = None) -> GameReplay:
    """Play one juego's recorded hands in order and check that they follow on.

    Each record's pairs are relative to its own mano; ``mano_pairs[k]`` says which pair of the
    first hand was mano in hand ``k``. By default mano alternates between the pairs (the deal
    passes to the right). The score before each hand must be the score after the previous one,
    and no hand may follow the end of the juego.

    The same pair mano in two hands running is an ``aviso`` ``mano_repetida`` on the second
    (AMM 2.8: «Si una pareja fuera mano dos veces seguidas se anulará la jugada salvo que se haya
    cerrado el lance de Grande, en cuyo caso se seguirá ya normalmente»). Not an error: a hand
    that was recorded was played past grande, and then 2.8 itself says play goes on normally;
    only the jueces know whether someone noticed before grande closed, so they are told, and
    the hand counts.
    """
    if mano_pairs is None:
        mano_pairs = [Pair.A if index % 2 == 0 else Pair.B for index in range(len(records))]
    if len(mano_pairs) != len(records):
        raise ValueError("hace falta una pareja mano por cada mano del juego")
    checks: list[RecordCheck] = []
    scores: list[Score | None] = []
    findings: list[Finding] = []
    previous: Score | None = None  # in the first hand's frame
    winner: Pair | None = None
    for index, (record, mano) in enumerate(zip(records, mano_pairs, strict=True)):

        def to_game(score: Score, mano: Pair = mano) -> Score:
            return score if mano is Pair.A else score.swapped()

        number = index + 1
        if winner is not None:
            findings.append(
                Finding(
                    "mano_tras_fin_de_juego",
                    record.rules.article("objetivo"),
                    f"La mano n.º {number} se jugó después de que la pareja {winner.name} de la "
                    "primera mano ganara el juego.",
                    hand=index,
                )
            )
        if index and mano == mano_pairs[index - 1]:
            findings.append(_mano_repetida(index, mano))
        if previous is not None and to_game(record.score) != previous:
            expected = to_game(previous)  # swapping is its own inverse
            findings.append(
                Finding(
                    "marcador_previo_incorrecto",
                    "AMM 1.5",
                    f"La mano n.º {number} empieza con {_format_score(record.score)} y debería empezar "
                    f"con {_format_score(expected)} (A es la pareja mano de esta mano).",
                    hand=index,
                )
            )
        check = check_record(record)
        checks.append(check)
        findings.extend(dataclasses.replace(finding, hand=index) for finding in check.findings)
        after: Score | None = None
        if check.tanteo is not None:
            after = to_game(check.tanteo.score)
            if winner is None and check.tanteo.game_winner is not None:
                game_winner = check.tanteo.game_winner
                winner = game_winner if mano is Pair.A else game_winner.other
        elif record.claimed is not None and record.claimed.score is not None:
            after = to_game(record.claimed.score)
        scores.append(after)
        previous = after
    return GameReplay(tuple(checks), tuple(scores), winner, tuple(findings))


def _mano_repetida(index: int, mano: Pair) -> Finding:
    # AMM 2.8 (MANO 2 VECES): annulled only if noticed before grande closed, which the jueces know.
    return Finding(
        "mano_repetida",
        "AMM 2.8",
        f"La misma pareja (la {mano.name} de la primera mano) es mano en las manos n.º {index} y {index + 1} "
        "seguidas. AMM 2.8: «Si una pareja fuera mano dos veces seguidas se anulará la jugada salvo que se "
        f"haya cerrado el lance de Grande»: si se advirtió antes de cerrarse la grande, la mano n.º {index + 1} "
        "se anula; si no, vale.",
        severity=Severity.AVISO,
        hand=index,
    )
