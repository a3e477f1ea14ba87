"""Tests of the juez's record (AMM chapter V). Shared helpers live here."""

from typing import Any

from rest_framework.test import APIClient

from torneo.models import Pair, Player


def link(user: Any, pair: Pair) -> Any:
    """Make ``user`` the first player of ``pair`` (the player role)."""
    Player.objects.filter(pk=pair.ordered_members()[0].player_id).update(user=user)
    return user


def client_for(user: Any = None) -> APIClient:
    """An API client signed in as ``user`` (anonymous when None)."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client
