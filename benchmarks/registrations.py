"""Benchmarks for registrations: prints measured figures, asserts nothing.

Run with ``.venv/bin/python benchmarks/registrations.py`` (SQLite in a temporary file) or with
``DATABASE_URL=postgres://… .venv/bin/python benchmarks/registrations.py`` (a throwaway database
``test_bench_registrations`` next to the given one).

Section "csv": a CSV import of 500 rows and of 5,000 rows (pairs with documents), each into an
empty tournament, through ``registrations_import_csv`` — the service the page and the API call. The
ratio of the two times is the measure: 10× is linear; the old pairwise check of every player against
every registered one made it ~100× (5,000 rows took 288 s). The time the tournament row is locked is
the part after the pre-lock checks (``pairs_register_many``).

Section "abuse": a public registration carrying 3,000 players (the probe's 124 KB request), refused
before the tournament's lock, against an ordinary valid registration measured in the same run.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "torneo.settings")
if "DATABASE_URL" not in os.environ:
    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"

import django

django.setup()

from django.core.exceptions import ValidationError  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from torneo.models import Pair, Tournament  # noqa: E402
from torneo.services.registrations import PlayerData, pair_register  # noqa: E402
from torneo.services.registrations_csv import registrations_import_csv  # noqa: E402

_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def _dni(n: int) -> str:
    number = 10_000_000 + n
    return f"{number}{_LETTERS[number % 23]}"


def _csv(rows: int) -> bytes:
    lines = ["pareja;nombre_1;apellidos_1;documento_1;nombre_2;apellidos_2;documento_2"]
    for i in range(rows):
        a, b = 2 * i, 2 * i + 1
        lines.append(f"P{i};Nombre{a};Apellido{a} Segundo;{_dni(a)};Nombre{b};Apellido{b} Segundo;{_dni(b)}")
    return ("\n".join(lines) + "\n").encode()


def _tournament(name: str) -> Tournament:
    return Tournament.objects.create(
        name=name,
        slug=name.lower().replace(" ", "-"),
        start_date=date(2026, 12, 12),
        end_date=date(2026, 12, 12),
        status=Tournament.Status.REGISTRATION_OPEN,
    )


def _timed(fn) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        print(f"base de datos: {connection.vendor}")
        small, large = 500, 5_000
        t_small = _timed(lambda: registrations_import_csv(tournament=_tournament("CSV 500"), data=_csv(small)))
        t_large = _timed(lambda: registrations_import_csv(tournament=_tournament("CSV 5000"), data=_csv(large)))
        assert Pair.objects.filter(tournament__slug="csv-5000").count() == large
        print(f"csv: {small} filas {t_small:.2f} s; {large} filas {t_large:.2f} s")
        print(f"csv: ratio {t_large / t_small:.1f}x for 10x the rows (10x = linear; quadratic ~100x)")

        t = _tournament("Abuso")
        crowd = [PlayerData(f"N{i}", f"A{i}") for i in range(3_000)]

        def abusive() -> None:
            try:
                pair_register(tournament=t, players=crowd, source=Pair.Source.PUBLIC_FORM)
            except ValidationError:
                return
            raise AssertionError("3,000 players were accepted")

        t_abuse = min(_timed(abusive) for _ in range(5))
        counter = iter(range(10**6))

        def valid() -> None:
            n = next(counter)
            pair_register(
                tournament=t,
                players=[PlayerData(f"V{n}", "Uno"), PlayerData(f"V{n}", "Dos")],
                source=Pair.Source.PUBLIC_FORM,
            )

        t_valid = min(_timed(valid) for _ in range(5))
        print(
            f"abuse: 3,000-player registration refused in {t_abuse * 1000:.1f} ms, without the lock; "
            f"a valid registration {t_valid * 1000:.1f} ms: ratio {t_abuse / t_valid:.2f}x"
        )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
