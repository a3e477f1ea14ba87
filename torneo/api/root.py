"""API v1 root (``/api/v1/``): every endpoint of the API, read from the URLconf itself so that the
list never lags behind it. Tournament-scoped endpoints are shown as URL templates
(``…/tournaments/{tournament_slug}/pairs/``); the browsable page for a browser, JSON for
``Accept: application/json``."""

from __future__ import annotations

import re
from typing import Any

from django.urls import URLPattern, URLResolver, reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

ROOT_NAME = "api_root"
_HIDDEN_METHODS = {"head", "options", "trace"}
_REGEX_GROUP = re.compile(r"\(\?P<(\w+)>[^)]*\)")
_ROUTE_PARAM = re.compile(r"<(?:\w+:)?(\w+)>")
# The tournaments' own routes name their slug «slug» (their lookup field): the same thing.
_ALIASES = {"{slug}": "{tournament_slug}"}


def url_template(pattern: str) -> str:
    """A route or regex of the URLconf as a URL template: ``^tournaments/(?P<tournament_slug>[-\\w]+)/pairs/$``
    and ``tournaments/<slug:tournament_slug>/players/`` give ``tournaments/{tournament_slug}/…``."""
    text = _REGEX_GROUP.sub(r"{\1}", pattern)
    text = _ROUTE_PARAM.sub(r"{\1}", text)
    for name, alias in _ALIASES.items():
        text = text.replace(name, alias)
    return text.replace("^", "").replace("$", "").replace("\\", "")


def _methods(callback: Any) -> list[str]:
    actions = getattr(callback, "actions", None)  # a ViewSet's route: {"get": "list", "post": "create"}
    if actions:
        return sorted(m.upper() for m in actions if m not in _HIDDEN_METHODS)
    view = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
    if view is None:
        return ["GET"]
    return sorted(
        m.upper() for m in getattr(view, "http_method_names", ()) if m not in _HIDDEN_METHODS and hasattr(view, m)
    )


def api_endpoints(patterns: list[URLPattern | URLResolver] | None = None, prefix: str = "") -> list[dict[str, Any]]:
    """Every named endpoint under /api/v1/ (included URLconfs too): name, path template, methods."""
    if patterns is None:
        from torneo.api import urls  # the URLconf imports this module: read it when asked

        patterns = list(urls.urlpatterns)
    found: list[dict[str, Any]] = []
    for entry in patterns:
        if isinstance(entry, URLResolver):
            found += api_endpoints(list(entry.url_patterns), prefix + url_template(str(entry.pattern)))
        elif entry.name and entry.name != ROOT_NAME:
            found.append(
                {
                    "name": entry.name,
                    "path": prefix + url_template(str(entry.pattern)),
                    "methods": _methods(entry.callback),
                }
            )
    return found


class ApiRootView(APIView):
    """The API's endpoints. Tournament-scoped ones are URL templates: put a tournament's slug (as in
    its page's address, /torneos/<slug>/) in ``{tournament_slug}``. Writes need a token
    (``POST auth/token/``) or a session; the OpenAPI schema is at ``schema/``, its pages at ``docs/``
    and ``redoc/``."""

    permission_classes = [AllowAny]

    @extend_schema(responses=OpenApiTypes.OBJECT, summary="Lista de endpoints de la API v1")
    def get(self, request: Request) -> Response:
        base = request.build_absolute_uri(reverse(ROOT_NAME))
        endpoints = api_endpoints()
        return Response(
            {
                "description": _(
                    "API v1 de los torneos de mus. Sustituye {tournament_slug} por la dirección del torneo "
                    "(la de su página, /torneos/<dirección>/). Para escribir hace falta un token "
                    "(POST auth/token/) o una sesión iniciada."
                ),
                "tournaments": base + "tournaments/",
                "docs": base + "docs/",
                "schema": base + "schema/",
                "endpoints": {e["name"]: {"url": base + e["path"], "methods": e["methods"]} for e in endpoints},
            }
        )


__all__ = ["ApiRootView", "api_endpoints", "url_template"]
