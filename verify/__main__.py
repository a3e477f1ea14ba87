"""``python -m verify registro.json [--clave CLAVE]``: see verify/__init__.py."""

from __future__ import annotations

import argparse
import json
import sys

from verify.checks import verify_record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m verify", description="Comprueba un registro abierto de torneo.")
    parser.add_argument("registro", help="el archivo JSON descargado (registro-<torneo>.json)")
    parser.add_argument("--clave", help="la clave pública del sitio (página «Acerca de»)")
    parser.add_argument("--todo", action="store_true", help="mostrar también lo que concuerda")
    parser.add_argument(
        "--generador",
        metavar="DIR",
        help="una copia del código del sitio (con torneo/draws): recalcula los sorteos grandes con su generador",
    )
    args = parser.parse_args(argv)
    try:
        with open(args.registro, encoding="utf-8") as source:
            envelope = json.load(source)
    except (OSError, ValueError) as exc:
        print(f"No se puede leer {args.registro}: {exc}", file=sys.stderr)
        return 2
    generator = None
    if args.generador:
        from verify.site_generator import load

        try:
            generator = load(args.generador)
        except (ValueError, ImportError) as exc:
            print(f"No se puede cargar el generador: {exc}", file=sys.stderr)
            return 2
    findings = verify_record(envelope, key=args.clave, generator=generator)
    if findings and findings[0].article == "formato" and not findings[0].ok:
        print(findings[0].what, file=sys.stderr)
        return 2
    wrong = [f for f in findings if not f.ok]
    for f in findings:
        if args.todo or not f.ok:
            print(f"{'✔' if f.ok else '✘'} [{f.article}] {f.what}")
    print(f"{len(findings) - len(wrong)} comprobaciones concuerdan, {len(wrong)} no.")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
