"""What makes a player's kept page frames be rendered again at once (torneo/pagecache.py, `Frame`).

A signed-in phone's public pages are its own frame (its name on «Salir», «Tu pareja», no staff
links) around the body everyone shares; the frame is kept and used again without a query. What it
shows of the user changes only when one of these rows does: the account (its name, the password
that signs its sessions in, superuser), its staff roles in a tournament, the players linked to it
(and so its pairs), a pair's terminal. Each such change, saved or deleted through the ORM (the
admin's and every service's), forgets the user's frames at once (`pagecache.frames_forget`), now
and again when the change commits (a frame rendered in between read the rows before it). A
change these signals do not see (a bulk ``update()``) still shows within FRAME_SECONDS, when the
frame is checked again (`pagecache._checked_again`). Before this, that check every minute was the
only way, and it cost one in six of a phone's page reads three queries: the p95 of the public pages
while the pairs report (benchmarks/load.py --mode players).
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save

from torneo.models import PairMember, PairTerminal, Player, TournamentRole
from torneo.pagecache import frames_forget

_LOGIN_ONLY = frozenset({"last_login"})  # a sign-in saves the account: nothing a frame shows


def forget(user_id: int | None) -> None:
    """The user's frames are not used again: from now, and from when this change commits."""
    if user_id is None:
        return
    frames_forget(user_id=user_id)
    transaction.on_commit(lambda: frames_forget(user_id=user_id))


def _account_saved(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    if update_fields is not None and frozenset(update_fields) <= _LOGIN_ONLY:
        return
    forget(instance.pk)


def _account_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    forget(instance.pk)


def _by_user(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A staff role or a pair's terminal: its user's frames."""
    forget(instance.user_id)


def _player_linking(sender: Any, instance: Player, raw: bool = False, **kwargs: Any) -> None:
    """Before a player is saved: the account it was linked to (its frames show the pair too)."""
    if raw or instance.pk is None:
        return
    before = Player.objects.filter(pk=instance.pk).values_list("user_id", flat=True).first()
    if before != instance.user_id:
        forget(before)
        instance._frames_linked = True  # type: ignore[attr-defined]


def _player_saved(sender: Any, instance: Player, created: bool = False, **kwargs: Any) -> None:
    if created or getattr(instance, "_frames_linked", False):
        forget(instance.user_id)
        instance._frames_linked = False  # type: ignore[attr-defined]


def _player_deleted(sender: Any, instance: Player, **kwargs: Any) -> None:
    forget(instance.user_id)


def _member(sender: Any, instance: PairMember, **kwargs: Any) -> None:
    """A player joined or left a pair: the frames of the account linked to that player."""
    player = instance._state.fields_cache.get("player")  # the registration's own object: no query
    if player is not None:
        forget(player.user_id)
    else:
        forget(Player.objects.filter(pk=instance.player_id).values_list("user_id", flat=True).first())


def connect() -> None:
    """Called once, from torneo.apps.TorneoConfig.ready."""
    user = get_user_model()
    post_save.connect(_account_saved, sender=user, dispatch_uid="frames.account_saved")
    post_delete.connect(_account_deleted, sender=user, dispatch_uid="frames.account_deleted")
    for model in (TournamentRole, PairTerminal):
        post_save.connect(_by_user, sender=model, dispatch_uid=f"frames.saved.{model.__name__}")
        post_delete.connect(_by_user, sender=model, dispatch_uid=f"frames.deleted.{model.__name__}")
    pre_save.connect(_player_linking, sender=Player, dispatch_uid="frames.player_linking")
    post_save.connect(_player_saved, sender=Player, dispatch_uid="frames.player_saved")
    post_delete.connect(_player_deleted, sender=Player, dispatch_uid="frames.player_deleted")
    post_save.connect(_member, sender=PairMember, dispatch_uid="frames.member_saved")
    post_delete.connect(_member, sender=PairMember, dispatch_uid="frames.member_deleted")
