"""The site's VAPID key pair (RFC 8292): every push is signed with its private half, and browsers
subscribe with its public half (the ``applicationServerKey``, ``public_key_b64url()``).

Given by the settings (``VAPID_PRIVATE_KEY``: a PEM or the 32-byte raw key in base64url;
``VAPID_PUBLIC_KEY``, optional, must be its public half), or else made on first use and kept at
``VAR_DIR/vapid/private_key.pem`` (the folder 0700, the file 0600, like the rest of var/). Changing
the key pair makes every subscription useless: browsers subscribed with the old public key, and
the push services refuse pushes signed with another one; so the file is made once, atomically (two
processes that start at once keep the same key), and never rewritten.

``subject()`` is the VAPID ``sub`` claim: ``VAPID_SUBJECT``, else mailto: DEFAULT_FROM_EMAIL when it
was set, else SITE_URL when https, else mailto: Django's default address."""

from __future__ import annotations

import base64
import functools
from pathlib import Path
from typing import TYPE_CHECKING

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from torneo.keyfiles import kept_pem

if TYPE_CHECKING:
    from py_vapid import Vapid02

KEY_FILE = "private_key.pem"
_DJANGO_DEFAULT_FROM = "webmaster@localhost"


def b64url(data: bytes) -> str:
    """Base64url without padding, as Web Push writes keys."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """The inverse of ``b64url``; padding optional. ValueError when it is not base64url."""
    text = text.strip()
    if not text or any(c not in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=" for c in text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))


def key_dir() -> Path:
    return Path(settings.VAR_DIR) / "vapid"


def _from_setting(value: str) -> ec.EllipticCurvePrivateKey:
    try:
        if "-----BEGIN" in value:
            key = serialization.load_pem_private_key(value.replace("\\n", "\n").encode(), password=None)
        else:
            raw = b64url_decode(value)
            if len(raw) == 32:
                key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
            else:
                key = serialization.load_der_private_key(raw, password=None)
    except ValueError as exc:
        raise ImproperlyConfigured("VAPID_PRIVATE_KEY no es una clave privada PEM ni base64url") from exc
    if not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, ec.SECP256R1):
        raise ImproperlyConfigured("VAPID_PRIVATE_KEY debe ser una clave EC P-256")
    return key


def _from_file(directory: Path) -> ec.EllipticCurvePrivateKey:
    """The key kept in ``directory``, made there the first time (torneo.keyfiles)."""

    def make() -> bytes:
        return ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )

    key = serialization.load_pem_private_key(kept_pem(directory, KEY_FILE, make), password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        raise ImproperlyConfigured(f"{directory / KEY_FILE} no es una clave EC P-256")
    return key


@functools.lru_cache(maxsize=8)
def _private_key(private_setting: str, public_setting: str, directory: str) -> ec.EllipticCurvePrivateKey:
    if private_setting:
        key = _from_setting(private_setting)
    elif public_setting:
        raise ImproperlyConfigured("VAPID_PUBLIC_KEY sin VAPID_PRIVATE_KEY: faltan las dos mitades del par")
    else:
        key = _from_file(Path(directory))
    if public_setting and b64url_decode(public_setting) != _public_bytes(key):
        raise ImproperlyConfigured("VAPID_PUBLIC_KEY no es la mitad pública de VAPID_PRIVATE_KEY")
    return key


def _public_bytes(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def private_key() -> ec.EllipticCurvePrivateKey:
    """The site's VAPID private key (made and kept under var/ the first time when not configured)."""
    return _private_key(settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY, str(key_dir()))


def public_key_b64url() -> str:
    """The public key as browsers take it (``applicationServerKey``): the uncompressed P-256 point,
    65 bytes, in base64url without padding."""
    return b64url(_public_bytes(private_key()))


def vapid() -> Vapid02:
    """py_vapid's signer holding the site's key (what ``pywebpush.webpush`` takes)."""
    from py_vapid import Vapid02

    return Vapid02(private_key=private_key())


def subject() -> str:
    if settings.VAPID_SUBJECT:
        return str(settings.VAPID_SUBJECT)
    sender = str(getattr(settings, "DEFAULT_FROM_EMAIL", "") or "")
    if sender and sender != _DJANGO_DEFAULT_FROM:
        return f"mailto:{sender}"
    if str(settings.SITE_URL).startswith("https://"):
        return str(settings.SITE_URL)
    return f"mailto:{sender or _DJANGO_DEFAULT_FROM}"
