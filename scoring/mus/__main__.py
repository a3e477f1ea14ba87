"""Command line: ``python -m scoring.mus {ruling,sena,showdown,tanteo,validate}``, JSON lines in and out.

Each input line gives one output line; a bad line gives ``{"error": "…"}`` and the command
goes on with the next. Blank lines are skipped. The exit status is 1 when any line gave an
error, else 0. The ``showdown`` and ``tanteo`` formats are fixed by DESIGN.md; ``validate``'s is
documented in docs/engine.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from collections.abc import Callable, Iterable
from typing import TextIO

from .cards import parse_deal
from .core import Pair
from .errors import MusError, RecordFormatError
from .evaluation import showdown
from .jsonio import (
    JSON,
    expect_object,
    read_hands,
    read_lances,
    read_rules,
    read_score,
    score_to_json,
    showdown_to_json,
    tanteo_to_json,
)
from .record import parse_record
from .rulings_io import run_ruling
from .senas import run_sena
from .tanteo import tanteo
from .validation import check_record, finding_to_json, replay_game


def run_showdown(line: JSON) -> dict[str, JSON]:
    data = expect_object(line, "")
    if "hands" not in data:
        raise RecordFormatError("hands", "falta: las cuatro manos por asiento, 0 mano … 3 postre")
    rules = read_rules(data.get("rules"))
    hands = parse_deal(read_hands(data["hands"]), rules.deck)
    return showdown_to_json(showdown(hands, rules))


def run_tanteo(line: JSON) -> dict[str, JSON]:
    data = expect_object(line, "")
    if "hands" not in data:
        raise RecordFormatError("hands", "falta: las cuatro manos por asiento, 0 mano … 3 postre")
    rules = read_rules(data.get("rules"))
    hands = parse_deal(read_hands(data["hands"]), rules.deck)
    result = tanteo(hands, read_lances(data.get("lances")), read_score(data.get("score")), rules)
    return tanteo_to_json(result)


def run_validate(line: JSON) -> dict[str, JSON]:
    """One recorded hand, or ``{"juego": [hand, …], "mano_pairs": ["A", "B", …]}`` (optional)."""
    data = expect_object(line, "")
    if "juego" in data:
        records = data["juego"]
        if not isinstance(records, list) or not records:
            raise RecordFormatError("juego", "se esperaba la lista de manos del juego, en orden")
        parsed = []
        for index, record in enumerate(records):
            try:
                parsed.append(parse_record(record))
            except RecordFormatError as error:
                field = f"juego[{index}]" + (f".{error.field}" if error.field else "")
                raise RecordFormatError(field, error.detail) from None
        mano_pairs = None
        if data.get("mano_pairs") is not None:
            names = data["mano_pairs"]
            if (
                not isinstance(names, list)
                or any(name not in ("A", "B") for name in names)
                or len(names) != len(parsed)
            ):
                raise RecordFormatError("mano_pairs", "se esperaba una lista de «A»/«B», una por mano")
            mano_pairs = [Pair[name] for name in names]
        replay = replay_game(parsed, mano_pairs)
        return {
            "valid": replay.valid,
            "findings": [finding_to_json(finding) for finding in replay.findings],
            "scores": [None if score is None else score_to_json(score) for score in replay.scores],
            "game_winner": None if replay.winner is None else replay.winner.name,
        }
    check = check_record(parse_record(data))
    output: dict[str, JSON] = {}
    if check.record.id is not None:
        output["id"] = check.record.id
    output["valid"] = check.valid
    output["findings"] = [finding_to_json(finding) for finding in check.findings]
    output["tanteo"] = None if check.tanteo is None else tanteo_to_json(check.tanteo)
    return output


COMMANDS: dict[str, Callable[[JSON], dict[str, JSON]]] = {
    "ruling": run_ruling,
    "sena": run_sena,
    "showdown": run_showdown,
    "tanteo": run_tanteo,
    "validate": run_validate,
}


def process(command: Callable[[JSON], dict[str, JSON]], lines: Iterable[str], out: TextIO) -> bool:
    """Run ``command`` on every non-blank line; returns whether every line went through."""
    ok = True
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            result = command(json.loads(raw))
        except json.JSONDecodeError as error:
            ok = False
            result = {"error": f"línea {number}: JSON no válido ({error.msg}, columna {error.colno})"}
        except MusError as error:
            ok = False
            result = {"error": f"línea {number}: {error}"}
        except Exception as error:  # a bug must not stop a whole batch; say so and go on
            ok = False
            traceback.print_exc(file=sys.stderr)
            result = {"error": f"línea {number}: error interno del motor ({type(error).__name__}: {error})"}
        out.write(json.dumps(result, ensure_ascii=False) + "\n")
        out.flush()
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scoring.mus",
        description="Motor de mus: líneas JSON en la entrada estándar, una línea JSON de salida por línea.",
    )
    parser.add_argument(
        "command",
        choices=sorted(COMMANDS),
        help=(
            "showdown: ganador de cada lance; tanteo: tantos de una mano; validate: manos anotadas; "
            "ruling: fallo del juez por errores (cap. IV); sena: si una seña vale con una mano (cap. VII)"
        ),
    )
    args = parser.parse_args(argv)
    return 0 if process(COMMANDS[args.command], sys.stdin, sys.stdout) else 1


if __name__ == "__main__":
    sys.exit(main())
