"""API error responses: always a clear message, never a 500 for the user's own mistakes."""

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.core.exceptions import ValidationError as DjangoValidationError
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from torneo.api.parsers import too_deep_message
from torneo.errors import TournamentError

logger = logging.getLogger(__name__)


class RequestTooLarge(exceptions.APIException):
    """A body above settings.DATA_UPLOAD_MAX_MEMORY_SIZE (files of a multipart upload aside)."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Turn service-layer errors into 400/409 responses with their Spanish messages, and bad
    bodies that Django or Python refuse (too large, too many fields, nested too deep) into JSON
    400/413 instead of Django's HTML 400 or a 500."""
    if isinstance(exc, DjangoValidationError):
        detail: Any = exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        exc = exceptions.ValidationError(detail=detail)
    elif isinstance(exc, TournamentError):
        return Response({"detail": str(exc), "code": exc.code}, status=exc.http_status)
    elif isinstance(exc, RequestDataTooBig):
        exc = RequestTooLarge(
            _("La petición es demasiado grande: el máximo son %(size)s.")
            % {"size": filesizeformat(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)}
        )
    elif isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        exc = exceptions.ParseError(_("La petición tiene demasiados campos o archivos."))
    elif isinstance(exc, RecursionError):
        # JSON nested too deep that reached a parser other than torneo.api.parsers.JSONParser: a
        # JSON string in a form field (serializers.JSONField), a view with its own parsers.
        logger.warning("RecursionError en %s: respondido con un 400", getattr(context.get("request"), "path", "?"))
        exc = exceptions.ParseError(too_deep_message())
    return drf_exception_handler(exc, context)


__all__ = ["RequestTooLarge", "exception_handler", "status"]
