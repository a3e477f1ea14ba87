"""Who is the same person across tournaments (RGPD): two registrations are one person only when
both are linked to the same user account, or an organizer of both joined them with the person's
consent (circuits.models.PersonLink). The rankings (circuits.selectors) and the ratings
(circuits.ratings) both read people through ``people``, so they never disagree."""

from __future__ import annotations

from collections.abc import Iterable

from circuits.models import PersonLink
from torneo.models import Player


def people(player_ids: Iterable[int]) -> dict[int, str]:
    """Each registration's person key: «u:<account>» when it, or a registration joined to it, has
    an account; else «p:<the smallest registration id of its joined group>»."""
    ids = set(player_ids)
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a: int, b: int) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    links = list(PersonLink.objects.values_list("player_a_id", "player_b_id"))
    grown = True
    known = set(ids)
    while grown:  # a link may join a registration outside ``ids``: follow it
        grown = False
        for a, b in links:
            if (a in known) != (b in known):
                known |= {a, b}
                grown = True
    for a, b in links:
        if a in known and b in known:
            union(a, b)
    accounts = dict(Player.objects.filter(pk__in=known).values_list("pk", "user_id"))
    by_account: dict[int, int] = {}
    for pk, user_id in sorted(accounts.items()):
        find(pk)
        if user_id:
            if user_id in by_account:
                union(pk, by_account[user_id])
            by_account[user_id] = pk
    group_account: dict[int, int] = {}
    for pk, user_id in sorted(accounts.items()):
        if user_id:
            group_account.setdefault(find(pk), user_id)
    return {pk: (f"u:{group_account[find(pk)]}" if find(pk) in group_account else f"p:{find(pk)}") for pk in ids}
