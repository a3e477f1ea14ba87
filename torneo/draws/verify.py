"""The verifiable public draw (AMM 5.5): commitment to a secret, seed from secret + public value.

Before the draw the site publishes ``commitment(secret)``; in the room the juez types in a public
value (a number called out, dice); the seed is ``derive_seed(secret, public_value)``; after
publication the secret is shown, and anyone can check the commitment and recompute the draw with
``python -m torneo.draws``. Neither side alone can choose the seed: the site committed to its secret
before the public value existed, and the room cannot know the secret.

Encodings (fixed, version 1):

* text is normalised to Unicode NFC and stripped of surrounding whitespace;
* ``commitment(secret) = hex(SHA-256(UTF-8("torneo-mus/compromiso/v1\\n" + secret)))``;
* ``derive_seed(secret, public) = hex(SHA-256(UTF-8("torneo-mus/semilla/v1\\n" + J)))`` where ``J`` is
  ``json.dumps([secret, public], ensure_ascii=True, separators=(",", ":"))``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import unicodedata

from torneo.draws.errors import DrawUserError

_COMMIT_DOMAIN = "torneo-mus/compromiso/v1\n"
_SEED_DOMAIN = "torneo-mus/semilla/v1\n"


def normalise_text(value: str) -> str:
    """NFC and stripped, so that what the juez types matches what anyone retypes."""
    return unicodedata.normalize("NFC", value).strip()


def new_secret() -> str:
    """A fresh 256-bit secret, as 64 hex characters (the site keeps it until publication)."""
    return secrets.token_hex(32)


def commitment(secret: str) -> str:
    """The hex SHA-256 commitment shown before the draw."""
    secret = _checked(secret, "el secreto")
    return hashlib.sha256((_COMMIT_DOMAIN + secret).encode("utf-8")).hexdigest()


def derive_seed(secret: str, public_value: str) -> str:
    """The draw seed (64 hex characters) from the site's secret and the room's public value."""
    secret = _checked(secret, "el secreto")
    public_value = _checked(public_value, "el valor público")
    payload = json.dumps([secret, public_value], ensure_ascii=True, separators=(",", ":"))
    return hashlib.sha256((_SEED_DOMAIN + payload).encode("utf-8")).hexdigest()


def check_commitment(secret: str, published_commitment: str) -> bool:
    """Whether the revealed secret matches the commitment published before the draw."""
    expected = commitment(secret)
    return hmac.compare_digest(expected, normalise_text(published_commitment).lower())


def _checked(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise DrawUserError(f"{what.capitalize()} debe ser un texto.")
    value = normalise_text(value)
    if not value:
        raise DrawUserError(f"{what.capitalize()} no puede estar vacío.")
    return value
