"""Benchmark of a round's actas as one PDF (AMM 3.16): prints measured figures, asserts nothing.

Run from the repository root with ``.venv/bin/python benchmarks/actas.py`` (SQLite in a temporary
file, VAR_DIR in a temporary directory, both removed at the end) or with
``DATABASE_URL=postgres://… .venv/bin/python benchmarks/actas.py`` (a throwaway database
``test_bench_actas`` next to the given one). ``--quick`` measures a round of 64 tables instead of
512, for a fast check; ``--naive-sample N`` renders only N actas the naive way and extrapolates to
the whole round (the output says so). Nothing outside the throwaway database is touched.

What is measured, in the same run and on the same actas:

- collect: ``scoring.selectors.printables.round_actas_printable`` (the round's matches, pairs,
  players and clocks, each acta's notes and QR code), its time and its queries;
- optimized: the site's path, ``scoring.printing.pdf_of_sheets`` as the print job calls it (each
  acta's own text laid out in chunks of ``scoring.printing.CHUNK`` on the frame of lines, boxes and
  labels that all the actas share, laid out once), with the progress callbacks it makes (how many,
  when), the page count, which must equal the number of tables, and a check that its pages carry
  the same words as the naive documents;
- naive: one WeasyPrint document per acta, one after the other (``render_to_string`` of
  ``scoring/print/acta.html`` then ``scoring.printing.pdf_from_html``), as the single-acta view does.

Then the ratio naive / optimized for the rendering (the collection is the same for both and is
shown apart), against the goal: at least five times as fast as the naive way on a 2-core machine.
Each acta's QR code is made when it is printed, and each side makes its own. A first acta is
rendered both ways before anything is timed, so that neither side pays WeasyPrint's
import and first font loading, and the garbage is collected before each side.

Data are bulk-created (a running tournament, 2 × tables + 1 pairs of 2 players, round 1 published
with one match per table and one exenta, which has no acta, half of the clocks started), since the
draw services are not what is measured here.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import gc
import io
import itertools
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "torneo.settings")
TMP = tempfile.mkdtemp(prefix="bench-actas-")
os.environ.setdefault("VAR_DIR", TMP)  # the secret key, broker and static dirs the settings create

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402
from pypdf import PdfReader  # noqa: E402

from scoring.models import MatchClock  # noqa: E402
from scoring.printing import CHUNK, pdf_from_html, pdf_of_sheets  # noqa: E402
from scoring.selectors.printables import Printable, round_actas_printable  # noqa: E402
from torneo.identity import normalize_name  # noqa: E402
from torneo.models import Match, Pair, PairMember, Player, Round, Tournament  # noqa: E402

TABLES = 512
QUICK_TABLES = 64
BASE_URL = "https://mus.example/"
GOAL = 5.0
COLLECT_REPEAT = 3

FIRST_NAMES = (
    "Josu", "Miren", "Iñaki", "Ainhoa", "Koldo", "Begoña", "Xabier", "Arantxa", "Patxi", "Nerea",
    "Gorka", "Itziar", "Mikel", "Edurne", "Aitor", "Maite", "Jon", "Leire", "Unai", "Amaia",
    "José Luis", "María Jesús", "Fernando", "Pilar", "Ángel", "Rosario", "Jesús", "Carmen",
)  # fmt: skip
SURNAMES = (
    "Etxeberria", "Goikoetxea", "Zubizarreta", "Urrutia", "Agirre", "Larrañaga", "Olazábal",
    "Arrieta", "Iturriaga", "Mendizábal", "García", "Fernández", "Martínez", "López", "Sánchez",
    "Pérez", "Gómez", "Ruiz", "Díaz", "Muñoz", "Álvarez", "Jiménez", "Ibarra", "Echevarría",
)  # fmt: skip
PAIR_NAMES = ("Los del Txoko", "Peña Órdago", "Hamaika", "Las de Tolosa", "Duples y Treinta y una", "Sin Envite")


def build_round(tables: int, *, slug: str) -> tuple[Tournament, Round]:
    """A running Swiss tournament of 2 × ``tables`` + 1 pairs with round 1 published: one match
    per table (no results), the last pair exenta, the clocks of the odd tables started."""
    t = Tournament.objects.create(
        name="Campeonato de Mus de Euskal Herria",
        slug=slug,
        venue="Frontón Municipal, Tolosa",
        start_date=date(2027, 1, 1),
        end_date=date(2027, 1, 2),
        status=Tournament.Status.RUNNING,
        format=Tournament.Format.SWISS,
        swiss_rounds=5,
    )
    now = timezone.now()
    pairs = 2 * tables + 1
    people = []
    for i in range(2 * pairs):
        first = FIRST_NAMES[i % len(FIRST_NAMES)]
        last = f"{SURNAMES[i % len(SURNAMES)]} {SURNAMES[i // len(SURNAMES) % len(SURNAMES)]}"  # unique below 4,032
        people.append(
            Player(tournament=t, first_name=first, last_name=last, normalized_name=normalize_name(f"{first} {last}"))
        )
    people = Player.objects.bulk_create(people)
    made = Pair.objects.bulk_create(
        [
            Pair(
                tournament=t,
                number=n + 1,
                name=PAIR_NAMES[n % len(PAIR_NAMES)] if n % 5 == 0 else "",
                checked_in_at=now,
                status=Pair.Status.CONFIRMED,
            )
            for n in range(pairs)
        ]
    )
    PairMember.objects.bulk_create(
        [
            PairMember(
                pair=p,
                player=people[2 * i + k],
                tournament=t,
                position=k + 1,
                identity_key=f"name:{people[2 * i + k].normalized_name}",
            )
            for i, p in enumerate(made)
            for k in (0, 1)
        ]
    )
    round_ = Round.objects.create(
        tournament=t, number=1, kind=Round.Kind.DRAW, status=Round.Status.PUBLISHED, published_at=now
    )
    matches = Match.objects.bulk_create(
        [
            Match(round=round_, table_number=n + 1, slot=n, pair_a=made[2 * n], pair_b=made[2 * n + 1])
            for n in range(tables)
        ]
        + [Match(round=round_, table_number=None, slot=tables, pair_a=made[-1], outcome=Match.Outcome.BYE)]
    )
    MatchClock.objects.bulk_create(
        [
            MatchClock(match=m, started_at=now - datetime.timedelta(minutes=5 + n % 20))
            for n, m in enumerate(matches[:tables])
            if n % 2 == 0
        ]
    )
    return t, round_


def pdf_pages(pdf: bytes) -> int:
    """The page count read back from the PDF."""
    return len(PdfReader(io.BytesIO(pdf)).pages)


def sample(items: Sequence[Any], n: int) -> list[Any]:
    """``n`` items spread evenly over ``items`` (all of them when ``n`` covers them)."""
    if n >= len(items):
        return list(items)
    return [items[i * len(items) // n] for i in range(n)]


def size(nbytes: float) -> str:
    return f"{nbytes / 1e6:.1f} MB" if nbytes >= 1e6 else f"{nbytes / 1e3:.0f} kB"


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def collect(t: Tournament) -> tuple[Printable, int, float]:
    """The site's data collection: the printable, its queries and its median time."""
    with CaptureQueriesContext(connection) as captured:
        printable = round_actas_printable(t, 1, BASE_URL)
    times = []
    for _ in range(COLLECT_REPEAT):
        start = time.perf_counter()
        round_actas_printable(t, 1, BASE_URL)
        times.append(time.perf_counter() - start)
    return printable, len(captured), statistics.median(times)


def sheets(printable: Printable, items: Sequence[Any], **kwargs: Any) -> tuple[bytes, int]:
    """The site's own call (scoring.services.printing.printable_run): the frame laid out once."""
    return pdf_of_sheets(
        printable.template, items, context=printable.context, key=printable.key, frame=printable.frame, **kwargs
    )


def warm_up(printable: Printable) -> float:
    """One acta both ways, untimed for the comparison: WeasyPrint's import and first font loading."""
    start = time.perf_counter()
    sheets(printable, printable.items[:1])
    pdf_from_html(render_to_string("scoring/print/acta.html", {"acta": printable.items[0]}))
    return time.perf_counter() - start


def optimized(printable: Printable) -> tuple[float, bytes, int, list[tuple[int, float]], int]:
    """pdf_of_sheets over every acta: time, PDF, pages, the progress calls (done, seconds), queries."""
    calls: list[tuple[int, float]] = []
    gc.collect()  # neither side pays for the other's garbage
    with CaptureQueriesContext(connection) as captured:
        start = time.perf_counter()
        pdf, pages = sheets(
            printable, printable.items, progress=lambda done: calls.append((done, time.perf_counter() - start))
        )
        seconds = time.perf_counter() - start
    return seconds, pdf, pages, calls, len(captured)


def same_text(pdf: bytes, actas: Sequence[Any]) -> bool:
    """Whether the optimized PDF's pages say what the naive documents say (the words of each page
    as a multiset: the frame's text and the acta's own come in another order, nothing else)."""
    reader = PdfReader(io.BytesIO(pdf))
    for index in (0, len(actas) // 2, len(actas) - 1):
        single = PdfReader(
            io.BytesIO(pdf_from_html(render_to_string("scoring/print/acta.html", {"acta": actas[index]})))
        )
        words = [sorted((page.extract_text() or "").split()) for page in (reader.pages[index], single.pages[0])]
        if words[0] != words[1]:
            return False
    return True


def naive(actas: Sequence[Any]) -> tuple[float, int, int, list[float]]:
    """One document per acta, one after the other: time, total bytes, pages, each acta's time."""
    each: list[float] = []
    nbytes = pages = 0
    gc.collect()  # the optimized run's documents are cycles: freed here, not in the timing
    start = time.perf_counter()
    for acta in actas:
        begin = time.perf_counter()
        pdf = pdf_from_html(render_to_string("scoring/print/acta.html", {"acta": acta}))
        each.append(time.perf_counter() - begin)
        nbytes += len(pdf)
        pages += pdf_pages(pdf)
    return time.perf_counter() - start, nbytes, pages, each


def run(tables: int, naive_sample: int | None) -> None:
    start = time.perf_counter()
    t, _round = build_round(tables, slug=f"banco-actas-{tables}")
    matches = Match.objects.filter(round__tournament=t).count()
    print(
        f"data: {Pair.objects.filter(tournament=t).count():,} pairs, {Player.objects.filter(tournament=t).count():,}"
        f" players, round 1 published with {matches:,} matches ({tables:,} tables + 1 exenta),"
        f" {MatchClock.objects.filter(match__round__tournament=t).count():,} clocks started;"
        f" bulk-created in {time.perf_counter() - start:.1f} s"
    )

    printable, collect_queries, collect_s = collect(t)
    actas = len(printable.items)
    print(f"collect: round_actas_printable → {actas:,} actas (the exenta has none: {actas == tables})")
    print(f"warm-up: one acta both ways, {warm_up(printable):.2f} s (not counted)")
    print()

    print(f"== optimized: pdf_of_sheets, {actas:,} actas in chunks of {CHUNK}, one PDF ==")
    opt_s, opt_pdf, opt_pages, calls, render_queries = optimized(printable)
    read_back = pdf_pages(opt_pdf)
    print(
        f"  pages: {opt_pages:,} returned, {read_back:,} read back from the PDF;"
        f" equal to the {tables:,} tables: {opt_pages == read_back == tables}"
    )
    steps = ", ".join(f"{done} @ {seconds:.1f} s" for done, seconds in calls)
    moves = all(b[0] > a[0] and b[1] >= a[1] for a, b in itertools.pairwise(calls))
    last = calls[-1][1] if calls else 0.0
    print(f"  progress: {len(calls)} calls ({steps})")
    print(
        f"  progress always moves forward: {moves}; ends at {calls[-1][0] if calls else 0} of {actas};"
        f" the final write of the PDF after the last call: {opt_s - last:.1f} s ({100 * (opt_s - last) / opt_s:.0f}%)"
    )
    print(f"  queries while rendering: {render_queries}; peak RSS so far: {peak_rss_mb():.0f} MB")
    same = same_text(opt_pdf, printable.items)
    print(f"  the same acta both ways (its words, page by page, for 3 tables): {same}")
    print()

    n = actas if naive_sample is None else max(1, min(naive_sample, actas))
    extrapolated = n < actas
    print(f"== naive: scoring/print/acta.html + pdf_from_html, one document per acta, {n:,} of {actas:,} ==")
    # Fresh copies: each acta's QR code is made when it is printed (Acta.qr), and the optimized run
    # has made theirs; the naive way pays for its own, as the optimized way did.
    fresh = [dataclasses.replace(acta) for acta in sample(printable.items, n)]
    nai_s, nai_bytes, nai_pages, each = naive(fresh)
    scale = actas / n
    if extrapolated:
        print(
            f"  EXTRAPOLATED: {n:,} actas rendered (spread over the round) in {nai_s:.1f} s;"
            f" the figures below for {actas:,} actas are those × {scale:.2f}"
        )
    print(
        f"  per acta: median {1000 * statistics.median(each):.0f} ms, min {1000 * min(each):.0f} ms,"
        f" max {1000 * max(each):.0f} ms; pages {nai_pages:,} for {n:,} documents"
    )
    print()

    mark = "*" if extrapolated else ""
    rows = [
        ("collect (round_actas_printable)", actas, collect_s, "—", "—"),
        ("optimized (pdf_of_sheets)", actas, opt_s, f"{opt_pages:,}", size(len(opt_pdf))),
        (
            f"naive (pdf_from_html per acta){mark}",
            actas,
            nai_s * scale,
            f"{round(nai_pages * scale):,}",
            f"{size(nai_bytes * scale)} in {actas:,} files",
        ),
    ]
    print(f"{'method':<34} {'actas':>6} {'seconds':>9} {'ms/acta':>8} {'pages':>6}  PDF size")
    for name, count, seconds, pages, pdf_size in rows:
        print(f"{name:<34} {count:6,} {seconds:9.2f} {1000 * seconds / count:8.1f} {pages:>6}  {pdf_size}")
    if extrapolated:
        print(f"* extrapolated linearly from {n:,} actas rendered the naive way")
    print(f"collect: {collect_queries} queries, time the median of {COLLECT_REPEAT} runs; the same for both methods")
    print()

    ratio = nai_s * scale / opt_s
    with_collect = (nai_s * scale + collect_s) / (opt_s + collect_s)
    verdict = "met" if ratio >= GOAL else "NOT met"
    print(f"ratio naive / optimized (rendering): {ratio:.1f}×{' (naive extrapolated)' if extrapolated else ''}")
    print(f"ratio with the collection added to both sides: {with_collect:.1f}×")
    print(f"goal: at least {GOAL:.0f}× as fast as the naive way: {verdict}")
    print(f"machine: {os.cpu_count()} CPUs (os.cpu_count()); peak RSS: {peak_rss_mb():.0f} MB")


def main() -> None:
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # the figures as they come
    settings_dict = connection.settings_dict
    old_name = settings_dict["NAME"]
    created = False
    try:
        parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
        parser.add_argument("--quick", action="store_true", help=f"a round of {QUICK_TABLES} tables, not {TABLES}")
        parser.add_argument(
            "--naive-sample",
            type=int,
            metavar="N",
            default=None,
            help="render only N actas the naive way and extrapolate (default: all of them)",
        )
        args = parser.parse_args()
        if settings_dict["ENGINE"].endswith("sqlite3"):
            settings_dict.setdefault("TEST", {})["NAME"] = os.path.join(TMP, "bench.sqlite3")
        else:
            settings_dict.setdefault("TEST", {})["NAME"] = "test_bench_actas"
        connection.creation.create_test_db(verbosity=0, autoclobber=True)
        created = True
        print(f"database: {connection.vendor} ({connection.settings_dict['NAME']})")
        run(QUICK_TABLES if args.quick else TABLES, args.naive_sample)
    finally:
        if created:
            connection.creation.destroy_test_db(old_name, verbosity=0)
        shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    main()
