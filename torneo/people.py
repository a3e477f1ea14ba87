"""How a person who acted (a juez, the mesa, a player) is named where other people read it.

Never by username: a username is half of a login, and the login limits are per username
(torneo/ratelimit.py: a stranger who knows one can slow its owner down on other browsers). Nor
by e-mail address. The full name when the account has one; else a neutral label saying what the
person was (the tournament's juez…). A player's account without a name is named as the player
it is linked to (whose name the tournament's pages show anyway)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

NAMELESS = _("una cuenta sin nombre")
JUEZ = _("juez del torneo")


def public_name(user: Any, *, fallback: Any = NAMELESS, as_player: bool = False) -> str:
    """The account's full name (spaces tidied, never an e-mail address), else — ``as_player``, where
    players act (recorded hands), one query — the name of the player it is linked to (the latest),
    else ``fallback``; "" for nobody."""
    if user is None:
        return ""
    full = " ".join(str(getattr(user, "get_full_name", lambda: "")() or "").split())
    if not full and as_player and getattr(user, "pk", None) is not None:
        from torneo.models import Player

        player = Player.objects.filter(user_id=user.pk).order_by("-pk").only("first_name", "last_name").first()
        full = " ".join(f"{player.first_name} {player.last_name}".split()) if player else ""
    if "@" in full:
        full = full.split("@", 1)[0].strip()
    return full or str(fallback)


TERMINAL_USERNAME_PREFIX = "terminal-"  # a pair's phones' account (torneo/services/terminals.py)


def desk_name(user: Any) -> str:
    """Who entered an acta, as the staff's desks read it: the username (the mesa tells its own
    entries apart by it), save a pair's phone, named as its pair («Pareja 12 · móvil»): that
    account's username is a random key nobody reads. "" for nobody."""
    if user is None:
        return ""
    username = str(user.get_username())
    if username.startswith(TERMINAL_USERNAME_PREFIX):
        return str(_("%(name)s · móvil")) % {"name": public_name(user)}
    return username
