"""Types shared by the services, selectors and permissions.

``User`` is who acts, as every service and selector receives it: ``request.user`` of a page or of
the API, signed in (the site's user model, ``django.contrib.auth.models.User``: no AUTH_USER_MODEL
is set) or not (``AnonymousUser``). ``AuthUser`` is the model itself, what a foreign key to the
user holds: ``signed_in`` and ``signed_in_or_none`` go from one to the other.
"""

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as AuthUser

User: TypeAlias = AuthUser | AnonymousUser


def signed_in(user: User) -> AuthUser:
    """``user``, who must be signed in: for the writes that record who did them (a foreign key to
    the user) and the reads of a user's own things. Those are reached only by signed-in users: the
    pages and the API check the user's role or pair first (an anonymous user holds neither), or
    require a login."""
    assert isinstance(user, AuthUser), "only a signed-in user gets here"
    return user


def signed_in_or_none(user: User) -> AuthUser | None:
    """``user`` if signed in, else None: for a write that records who did it when there is someone."""
    return user if isinstance(user, AuthUser) else None


__all__ = ["AuthUser", "User", "signed_in", "signed_in_or_none"]
