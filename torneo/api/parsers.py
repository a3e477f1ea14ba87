"""The API's JSON parser: a body that is not JSON, or JSON nested deeper than any request of this
API needs, is a 400 with a Spanish message (ParseError), never a 500.

Python's json module recurses once per level of nesting: a few thousand ``[`` raise RecursionError,
which DRF's own parser does not catch. And JSON that parses a little below the interpreter's limit
would still hit it later (``json.dumps`` in a JSONField, the renderer) deeper in the stack. So the
nesting is bounded here, at ``MAX_DEPTH`` levels: the deepest legitimate body, a recorded hand
(``{"record": {"claimed": {"lances": {"grande": {"A": 1}}}}}``), has 5.
"""

import codecs
import json
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError
from rest_framework.utils.json import strict_constant

MAX_DEPTH = 32


def too_deep_message() -> str:
    return _("El JSON tiene demasiados niveles anidados (máximo %(n)d).") % {"n": MAX_DEPTH}


def nesting_exceeds(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether decoded JSON nests more than `limit` objects/arrays (without recursing itself)."""
    if not isinstance(value, dict | list):
        return False
    stack: list[tuple[dict[str, Any] | list[Any], int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


class JSONParser(parsers.JSONParser):
    """DRF's JSONParser with Spanish errors, RecursionError caught and the nesting bounded."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: dict[str, Any] | None = None) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.getreader(encoding)(stream)
            data = json.load(text, parse_constant=strict_constant if self.strict else None)
        except RecursionError:
            raise ParseError(too_deep_message()) from None
        except json.JSONDecodeError as exc:
            raise ParseError(
                _("El cuerpo de la petición no es JSON válido (línea %(line)d, columna %(column)d).")
                % {"line": exc.lineno, "column": exc.colno}
            ) from None
        except UnicodeDecodeError:
            raise ParseError(
                _("El cuerpo de la petición no es JSON válido: no está codificado en %(encoding)s.")
                % {"encoding": encoding}
            ) from None
        except ValueError:  # NaN/Infinity (strict), an integer of more than 4300 digits…
            raise ParseError(_("El cuerpo de la petición no es JSON válido.")) from None
        if nesting_exceeds(data):
            raise ParseError(too_deep_message())
        return data
