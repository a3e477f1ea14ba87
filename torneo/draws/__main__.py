"""``python -m torneo.draws``: one JSON object in, one draw out (the fixed contract of DESIGN.md).

Input (stdin)::

    {"seed": "text", "pairs": ["p1", ...], "history": [["p1", "p7"], ...], "byes": ["p3"],
     "group": {"p1": 0, "p2": 1}}

Output (stdout, one line)::

    {"matches": [["p1", "p9"], ...], "bye": "p4" or null, "rematches": 0, ...}

Extensions (optional; nothing of the contract changes):

* input ``secret`` + ``public``: the seed is ``derive_seed(secret, public)`` (``seed`` may then be
  left out; if given it must match); input ``commitment``: checked against the secret (AMM 5.5);
* input ``expect``: ``{"matches": [...], "bye": ...}``, a published draw to check; the output gets
  ``"verified": true|false`` and the exit status is 3 when it does not match;
* output ``same_group``, ``cross_group``, ``method``, ``uniform``, ``version``, and ``seed`` when it
  was derived.

Bad input prints ``{"error": "<Spanish message>"}`` and exits with 1; an internal failure (a bug)
exits with 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from torneo.draws.errors import DrawFatalError, DrawUserError
from torneo.draws.generator import DrawResult, make_draw
from torneo.draws.halves import halves_draw
from torneo.draws.verify import check_commitment, derive_seed

KNOWN_KEYS = frozenset({"seed", "pairs", "history", "byes", "group", "top", "secret", "public", "commitment", "expect"})
EXIT_OK, EXIT_USER, EXIT_FATAL, EXIT_MISMATCH = 0, 1, 2, 3

USAGE = """Uso: python -m torneo.draws < sorteo.json

Lee un objeto JSON {"seed", "pairs", "history", "byes", "group"} y escribe el sorteo
{"matches", "bye", "rematches", ...}. Claves opcionales: "secret" y "public" (la semilla se
deriva de ambos), "commitment" (se comprueba con el secreto) y "expect" (un sorteo publicado que
se comprueba: "verified"). Véase docs/draws.md.
"""


def _seed_of(data: dict[str, Any]) -> tuple[str, bool]:
    """The seed to use, and whether it was derived from ``secret`` and ``public``."""
    has_secret = "secret" in data or "public" in data
    if has_secret:
        if "secret" not in data or "public" not in data:
            raise DrawUserError("Para derivar la semilla hacen falta a la vez «secret» y «public».")
        derived = derive_seed(data["secret"], data["public"])
        if "commitment" in data:
            if not isinstance(data["commitment"], str):
                raise DrawUserError("«commitment» debe ser un texto (hexadecimal).")
            if not check_commitment(data["secret"], data["commitment"]):
                raise DrawUserError("El secreto no corresponde al compromiso («commitment») publicado.")
        if "seed" in data and data["seed"] != derived:
            raise DrawUserError("La semilla («seed») no corresponde al secreto y al valor público.")
        return derived, True
    if "commitment" in data:
        raise DrawUserError("Para comprobar «commitment» hace falta el «secret».")
    if "seed" not in data:
        raise DrawUserError("Falta la semilla («seed»).")
    seed = data["seed"]
    if not isinstance(seed, str):
        raise DrawUserError("La semilla («seed») debe ser un texto.")
    return seed, False


def _group_keys(group: dict[str, Any], pairs: Any) -> dict[Any, Any]:
    """JSON object keys are always text: ``{"7": 0}`` names the pair 7 when the ids are integers
    (a text id "7", if there is one, takes precedence)."""
    ids: set[Any] = set()
    if isinstance(pairs, list):
        ids = {p for p in pairs if isinstance(p, int | str) and not isinstance(p, bool)}
    out: dict[Any, Any] = {}
    for key, label in group.items():
        if key not in ids and key.lstrip("-").isdigit() and int(key) in ids:
            out[int(key)] = label
        else:
            out[key] = label
    return out


def _matches_expected(draw: DrawResult, expected: Any) -> bool:
    if not isinstance(expected, dict) or "matches" not in expected:
        raise DrawUserError('«expect» debe ser un objeto {"matches": [...], "bye": ...}.')
    raw = expected["matches"]
    if not isinstance(raw, list) or not all(isinstance(m, list) and len(m) == 2 for m in raw):
        raise DrawUserError("«expect.matches» debe ser una lista de partidas [pareja, pareja].")
    published = {frozenset((json.dumps(a), json.dumps(b))) for a, b in raw}
    ours = {frozenset((json.dumps(a), json.dumps(b))) for a, b in draw.matches}
    return published == ours and len(raw) == len(draw.matches) and expected.get("bye") == draw.bye


def run(text: str) -> tuple[dict[str, Any], int]:
    """The output object and exit status for one input text."""
    try:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DrawUserError(f"La entrada no es JSON válido: {exc.msg} (línea {exc.lineno}).") from exc
        if not isinstance(data, dict):
            raise DrawUserError("La entrada debe ser un objeto JSON.")
        unknown = sorted(set(data) - KNOWN_KEYS)
        if unknown:
            raise DrawUserError(f"Clave desconocida en la entrada: «{unknown[0]}».")
        if "pairs" not in data:
            raise DrawUserError("Falta la lista de parejas («pairs»).")
        seed, derived = _seed_of(data)
        group = data.get("group")
        if group is not None and not isinstance(group, dict):
            raise DrawUserError("«group» debe ser un objeto {pareja: grupo}.")
        history = data.get("history")
        byes = data.get("byes")
        top = data.get("top")
        if top is not None:
            # A Swiss's first round seeded by rating (torneo.draws.halves): the stronger half drawn
            # against the others.
            if not isinstance(top, list):
                raise DrawUserError("«top» debe ser la lista de parejas de la mitad fuerte.")
            draw = halves_draw(data["pairs"], top=top, history=[] if history is None else history, seed=seed)
        else:
            draw = make_draw(
                data["pairs"],
                history=[] if history is None else history,
                byes=[] if byes is None else byes,
                group=None if group is None else _group_keys(group, data["pairs"]),
                seed=seed,
            )
        out = draw.as_json()
        if derived:
            out["seed"] = seed
        status = EXIT_OK
        if "expect" in data:
            out["verified"] = _matches_expected(draw, data["expect"])
            status = EXIT_OK if out["verified"] else EXIT_MISMATCH
        return out, status
    except DrawUserError as exc:
        return {"error": str(exc)}, EXIT_USER
    except DrawFatalError as exc:
        return {"error": f"Error interno del sorteo (avise a la organización): {exc}"}, EXIT_FATAL


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    out_stream = stdout or sys.stdout
    if args:
        if args[0] in ("-h", "--help"):
            out_stream.write(USAGE)
            return EXIT_OK
        error = {"error": f"Argumento desconocido: «{args[0]}»."}
        out_stream.write(json.dumps(error, ensure_ascii=False) + "\n")
        return EXIT_USER
    text = (stdin or sys.stdin).read()
    out, status = run(text)
    out_stream.write(json.dumps(out, ensure_ascii=False) + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
