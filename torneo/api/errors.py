"""API error responses: always a clear message, never a 500 for the user's own mistakes."""

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from torneo.errors import TournamentError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Turn service-layer errors into 400/409 responses with their Spanish messages."""
    if isinstance(exc, DjangoValidationError):
        detail: Any = exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        exc = exceptions.ValidationError(detail=detail)
    elif isinstance(exc, TournamentError):
        return Response({"detail": str(exc), "code": exc.code}, status=exc.http_status)
    return drf_exception_handler(exc, context)


__all__ = ["exception_handler", "status"]
