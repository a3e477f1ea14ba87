"""``{{ user|public_name }}``: a person as other people read them, never by username (torneo.people)."""

from typing import Any

from django import template

from torneo.people import JUEZ
from torneo.people import desk_name as _desk_name
from torneo.people import public_name as _public_name

register = template.Library()


@register.filter
def public_name(user: Any, fallback: str = "") -> str:
    """The full name, else ``fallback`` (else «sin nombre»); "—" for nobody; a text (a
    ``default:`` such as the acta's source) as it is."""
    if user is None or user == "":
        return "—"
    if isinstance(user, str):
        return user
    return _public_name(user, fallback=fallback, as_player=True) if fallback else _public_name(user, as_player=True)


@register.filter
def juez_name(user: Any) -> str:
    """A juez as other people read them: the full name, else «juez del torneo»; "—" for nobody."""
    return "—" if user is None or user == "" else _public_name(user, fallback=JUEZ)


@register.filter
def desk_name(user: Any) -> str:
    """Who entered an acta on the staff's desks (torneo.people.desk_name); "" for nobody."""
    return "" if user is None or user == "" else _desk_name(user)
