"""Fuzzing the API from its OpenAPI schema (issue 18, item 5): schemathesis generates requests for
every operation of ``/api/v1/schema/`` — valid ones and ones that break the schema (wrong types,
missing fields, strings where ids go) — and sends them through the site's own WSGI application, as
an anonymous visitor and as the tournament's organizer (a token, the way the API's clients log in).
No request may end in a server error (5xx), whatever its parameters, its body or who sends it.

Path parameters are drawn three times in four from the objects that exist (the tournament's slug, its
matches, pairs, rounds, results, hands…) so the requests reach the code behind the 404, and else
as the schema allows (ids that do not exist, slugs of other shapes). Every request runs
inside the test's transaction: what a POST writes, the next request sees.

The list of operations is read from the schema at collection; an operation the schema gains is
fuzzed without touching this file."""

from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode

from scoring.models import RecordedHand, ResultSubmission
from scoring.services import clocks as clock_services
from scoring.services.results import result_submit
from tests.scoring import playing, publish_next_round
from tests.torneo.simulation import new_tournament
from torneo.models import Tournament

pytestmark = pytest.mark.django_db

RAW_SCHEMA: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
OPERATIONS = sorted(
    f"{method.upper()} {path}"
    for path, item in RAW_SCHEMA["paths"].items()
    for method in item
    if method in {"get", "post", "put", "patch", "delete"}
)
# Requests per operation and role: 60 operations × 2 roles × 25 = 3,000 requests, about 40 s on
# two cores.
EXAMPLES = 25


def _schema() -> Any:
    schema = schemathesis.openapi.from_dict(RAW_SCHEMA)
    schema.app = get_wsgi_application()
    return schema


SCHEMA = _schema()


@pytest.fixture(autouse=True)
def _one_connection() -> Any:
    """The site's WSGI application closes the database connection after each request; here every
    request must run inside the test's transaction (as Django's test client does)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def event() -> dict[str, Any]:
    """A 7-pair tournament with round 1 published and its clocks started, and another tournament:
    the values each path parameter may take when it names something that exists."""
    sim = new_tournament(7, seed=41, format=Tournament.Format.CEROS, max_losses=2)
    round_ = publish_next_round(sim)
    matches = playing(round_)
    clock_services.clocks_start_round(round=round_, by=sim.juez)
    result_submit(match=matches[0], by=sim.organizer, games_a=3, games_b=1)
    other = new_tournament(2, seed=42)
    t = sim.tournament
    ids = [
        *ResultSubmission.objects.filter(match__round__tournament=t).values_list("pk", flat=True),
        *RecordedHand.objects.filter(game__match__round__tournament=t).values_list("pk", flat=True),
        *(m.pk for m in matches),
        1,
    ]
    return {
        "token": Token.objects.create(user=sim.organizer).key,
        "values": {
            "slug": [t.slug, other.tournament.slug],
            "tournament_slug": [t.slug, other.tournament.slug],
            "match_id": [m.pk for m in matches] + [round_.matches.get(pair_b=None).pk],
            "number": [1, 2, 7],
            "hand_id": list(RecordedHand.objects.values_list("pk", flat=True)) or [1],
            "id": ids,
        },
    }


def _real_path_parameters(operation: Any, values: dict[str, list[Any]]) -> st.SearchStrategy[dict[str, Any]]:
    names = [p.name for p in operation.path_parameters]
    return st.fixed_dictionaries({name: st.sampled_from(values.get(name, [1])) for name in names})


@pytest.mark.parametrize("role", ["anonymous", "organizer"])
@pytest.mark.parametrize("label", OPERATIONS)
def test_no_request_to_the_api_is_a_server_error(label: str, role: str, event: dict[str, Any]) -> None:
    method, path = label.split(" ", 1)
    operation = SCHEMA[path][method]
    headers = {"Authorization": f"Token {event['token']}"} if role == "organizer" else {}

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        mode = data.draw(st.sampled_from([GenerationMode.POSITIVE, GenerationMode.NEGATIVE]), label="mode")
        real = data.draw(st.integers(0, 3), label="real objects") > 0  # three times in four
        if real and operation.path_parameters:
            path_parameters = data.draw(_real_path_parameters(operation, event["values"]))
            case = data.draw(operation.as_strategy(mode, path_parameters=path_parameters))
        else:
            case = data.draw(operation.as_strategy(mode))
        response = case.call(headers=headers)
        assert response.status_code < 500, (
            f"{case.method} {case.formatted_path} ({role}) → {response.status_code}\n"
            f"query={case.query} body={case.body!r}\n{response.text[:2000]}"
        )

    check()


def test_every_operation_of_the_schema_is_fuzzed() -> None:
    """The list is the schema's, not a copy: the API's 60 operations and their methods."""
    assert len(OPERATIONS) >= 60
    assert "POST /api/v1/tournaments/{tournament_slug}/results/" in OPERATIONS
    assert "GET /api/v1/tournaments/{tournament_slug}/clocks/{match_id}/" in OPERATIONS
