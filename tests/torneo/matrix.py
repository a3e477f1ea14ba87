"""The permission-matrix machinery: a case per page or endpoint, checked for one role."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.test import Client
from rest_framework.test import APIClient

from tests.world import World


@dataclass(frozen=True)
class Case:
    name: str
    method: str
    url: Callable[[World], str]
    allowed: set[str]
    data: Callable[[World], Any] = lambda w: {}
    api: bool = False
    fmt: str = "json"


def client_for(world: World, role: str, api: bool) -> Client | APIClient:
    client: Client | APIClient = APIClient() if api else Client()
    if role != "anonymous":
        client.force_login(world.users[role])
    return client


def was_allowed(case: Case, response: Any) -> bool:
    """A 409 is a refusal too: the request was understood and nothing was done (a pair confirming its
    acta once it is in disagreement reads why, not a bare 403)."""
    assert response.status_code < 500, response.content[:500]
    if case.api:
        return response.status_code not in (401, 403, 404, 409)
    if response.status_code in (403, 404, 409):
        return False
    return not (response.status_code == 302 and response["Location"].startswith("/cuenta/entrar/"))


def check_case(world: World, case: Case, role: str) -> Any:
    """Do the request as `role`; assert it is allowed exactly when the matrix says so."""
    client = client_for(world, role, case.api)
    kwargs: dict[str, Any] = {}
    data = case.data(world)
    if case.method != "get" and case.api:
        kwargs["format"] = "json" if case.fmt == "json" else "multipart"
    response = getattr(client, case.method)(case.url(world), data, **kwargs)
    allowed = was_allowed(case, response)
    assert allowed == (role in case.allowed), f"{case.name} as {role}: {response.status_code}"
    if allowed and case.method != "get":
        assert response.status_code in (200, 201, 204, 302), (
            case.name,
            role,
            response.status_code,
            response.content[:300],
        )
    return response
