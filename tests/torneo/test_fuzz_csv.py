"""Fuzzing (hypothesis) of the registrations' CSV import: whatever bytes arrive — a real header with
odd rows, separators and quotes, other encodings, or noise — the import either registers every
pair or refuses the whole file with errors by row (``CsvImportError``); nothing else is raised and
nothing is half-written."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.factories import TournamentFactory
from tests.torneo.test_registrations_csv import HEADER
from torneo.models import Pair
from torneo.services.registrations_csv import CsvImportError, registrations_import_csv

# Run once, on PostgreSQL, like the other long property tests: hypothesis changes the recursion
# limit as it generates, and CPython 3.11's ast.parse can then fail later in the same process.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]

cell = st.one_of(
    st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=12),
    st.sampled_from(["Ana", "Pérez", "12345678Z", "X1234567L", "600 123 456", "a@b.es", "=1+1", '"', ";", ",", ""]),
)
row = st.tuples(st.lists(cell, max_size=15), st.sampled_from([";", ","])).map(lambda t: t[1].join(t[0]))
rows = st.lists(row, min_size=0, max_size=6)


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    header=st.sampled_from([HEADER, HEADER.replace(";", ","), "nombre;apellidos", ""]) | st.text(max_size=30),
    body=rows,
    encoding=st.sampled_from(["utf-8", "utf-8-sig", "latin-1", "utf-16"]),
    noise=st.binary(max_size=40),
)
def test_the_import_registers_everything_or_refuses_with_errors_by_row(
    header: str, body: list[str], encoding: str, noise: bytes
) -> None:
    tournament = TournamentFactory()
    text = "\n".join([header, *body]) + "\n"
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:
        data = text.encode("utf-8")
    for payload in (data, noise):
        before = Pair.objects.filter(tournament=tournament).count()
        refused: CsvImportError | None = None
        created = 0
        try:
            created = registrations_import_csv(tournament=tournament, data=payload).created
        except CsvImportError as error:
            refused = error
        after = Pair.objects.filter(tournament=tournament).count()
        if refused is not None:
            assert refused.errors and all(e.message for e in refused.errors)
        assert after == before + created  # all or nothing
