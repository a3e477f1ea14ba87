"""The site's Ed25519 key for the open records: each record is signed over its canonical JSON
(keys sorted, no spaces, UTF-8), and the public key is on the site's «Acerca de» page, so that a
copy of a record can be checked offline by anyone (``python -m verify``, docs/registro.md).

Given by the settings (``RECORD_SIGNING_KEY``: the 32-byte raw private key in base64url), or else
made on first use and kept at ``VAR_DIR/registro/ed25519.pem`` (the folder 0700, the file 0600),
made once, atomically, and never rewritten: a new key would not verify the records signed before.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from torneo.keyfiles import kept_pem
from torneo.push.keys import b64url, b64url_decode

KEY_FILE = "ed25519.pem"
ALGORITHM = "Ed25519"


def canonical(record: Any) -> bytes:
    """The bytes a signature covers: the JSON with its keys sorted, no spaces, UTF-8."""
    return json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


def _from_file(directory: Path) -> Ed25519PrivateKey:
    def make() -> bytes:
        return Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )

    key = serialization.load_pem_private_key(kept_pem(directory, KEY_FILE, make), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ImproperlyConfigured(f"{directory / KEY_FILE} no es una clave Ed25519")
    return key


@functools.lru_cache(maxsize=4)
def _private_key(setting: str, directory: str) -> Ed25519PrivateKey:
    if setting:
        try:
            return Ed25519PrivateKey.from_private_bytes(b64url_decode(setting))
        except ValueError as exc:
            raise ImproperlyConfigured(
                "RECORD_SIGNING_KEY debe ser una clave Ed25519 de 32 bytes en base64url"
            ) from exc
    return _from_file(Path(directory))


def private_key() -> Ed25519PrivateKey:
    return _private_key(getattr(settings, "RECORD_SIGNING_KEY", ""), str(Path(settings.VAR_DIR) / "registro"))


def public_key_b64url() -> str:
    """The public key as the «Acerca de» page and every signed record show it: 32 raw bytes, base64url."""
    raw = private_key().public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return b64url(raw)


def signed(record: dict[str, Any]) -> dict[str, Any]:
    """The record in its envelope: ``registro`` and ``firma`` (algorithm, public key, signature)."""
    signature = private_key().sign(canonical(record))
    return {
        "registro": record,
        "firma": {"algoritmo": ALGORITHM, "clave_publica": public_key_b64url(), "valor": b64url(signature)},
    }


def verify(envelope: dict[str, Any], public_key: str) -> bool:
    """Whether ``envelope``'s signature is the given public key's over its record."""
    try:
        key = Ed25519PublicKey.from_public_bytes(b64url_decode(public_key))
        key.verify(b64url_decode(envelope["firma"]["valor"]), canonical(envelope["registro"]))
    except (InvalidSignature, ValueError, KeyError, TypeError):
        return False
    return True
