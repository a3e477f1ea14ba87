"""Pieces shared by the jueces' API: the pair of a body (its number, or «A»/«B» of the partida), the
partida of a body (an id of this tournament's played partidas) and who is staff here."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from torneo.models import Match, Pair, Tournament
from torneo.numbers import parse_int
from torneo.permissions import Action, access_match, can
from torneo.typing import User

NO_STORE = {"Cache-Control": "no-store"}
MAX_ID = 2**31 - 1
MAX_PAIR_DIGITS = 6

PAIR_MESSAGE = gettext_lazy("Indica la pareja: su número, o «A» o «B» con la partida (match).")
ARTICLE_MESSAGE = gettext_lazy("Indica el artículo del reglamento (article) tal como lo escribe el catálogo: «6.3».")
TEXT_KEYS = ("required", "null", "blank", "invalid", "max_length")


def messages(text: Any, keys: tuple[str, ...] = TEXT_KEYS) -> dict[str, Any]:
    """The same Spanish message for every way a field can be wrong."""
    return dict.fromkeys(keys, text)


def is_staff(user: User, tournament: Tournament) -> bool:
    """The tournament's staff for the juez's record: the organizer, the jueces, the mesa de control."""
    return can(user, tournament, Action.INCIDENTS_MANAGE) or can(user, tournament, Action.VIEW_PRIVATE)


@extend_schema_field(
    {
        "oneOf": [{"type": "string", "pattern": "^[AB]$"}, {"type": "integer", "minimum": 1}],
        "description": "La pareja: su número en el torneo, o «A» / «B» de la partida indicada en match.",
    }
)
class PairRefField(serializers.CharField):
    """A pair: its number in the tournament, or the side «A» / «B» of the partida given with it."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("error_messages", messages(PAIR_MESSAGE))
        kwargs.setdefault("max_length", 20)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data).strip().upper()
        if value in ("", "A", "B"):
            return value
        number = parse_int(value, low=1, high=10**MAX_PAIR_DIGITS - 1)
        if number is not None:
            return str(number)
        self.fail("invalid")
        raise AssertionError  # fail() raises


def id_field(what: Any, **kwargs: Any) -> serializers.IntegerField:
    """An optional id (of a partida, an incidencia, a player), within the database's range."""
    message = gettext_lazy("El id no es válido: un número entero.")
    return serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_ID,
        help_text=what,
        error_messages=messages(message, ("invalid", "min_value", "max_value", "max_string_length")),
        **kwargs,
    )


def body(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """The validated body (a body that is not an object: 400 before anything else)."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def resolve_match(
    user: User, tournament: Tournament, match_id: int | None, *, action: Action | None = None, players: bool = False
) -> Match | None:
    """A partida being played in this tournament (published, not an exenta); 400 on ``match`` else.
    ``action`` / ``players``: who may name it (torneo.permissions.access_match), 403 for the others."""
    if match_id is None:
        return None
    try:
        return access_match(user, tournament, match_id, action=action, players=players, playable=True)
    except Http404:
        raise serializers.ValidationError(
            {"match": [_("No hay ninguna partida %(n)s que se juegue en este torneo.") % {"n": match_id}]}
        ) from None


def resolve_pair(tournament: Tournament, ref: str | None, match: Match | None) -> Pair | None:
    """The pair of ``ref`` (PairRefField's value): «A» / «B» of ``match``, or a number."""
    if not ref:
        return None
    if ref in ("A", "B"):
        if match is None:
            raise serializers.ValidationError({"pair": [str(PAIR_MESSAGE)]})
        pair = match.pair_a if ref == "A" else match.pair_b
        if pair is None:  # an exenta never gets here (resolve_match), but keep the message
            raise serializers.ValidationError({"pair": [str(PAIR_MESSAGE)]})
        return pair
    found = Pair.objects.select_related("tournament").filter(tournament=tournament, number=int(ref)).first()
    if found is None:
        raise serializers.ValidationError({"pair": [_("No hay ninguna pareja %(n)s en este torneo.") % {"n": ref}]})
    return found
