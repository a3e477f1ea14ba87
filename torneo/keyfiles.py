"""A site key kept in a file of its own under var/ (the folder 0700, the file 0600): made once,
atomically — written to a temporary file and linked into place, so that two processes starting at
once keep the same key — and never rewritten, since a new key would break what the old one signed
(push subscriptions, signed records)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path


def kept_pem(directory: Path, name: str, make: Callable[[], bytes]) -> bytes:
    """The PEM at ``directory/name``, made with ``make()`` the first time."""
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    if directory.stat().st_mode & 0o077:
        directory.chmod(0o700)
    path = directory / name
    if not path.exists():
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".key-")  # mode 0600
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(make())
                out.flush()
                os.fsync(out.fileno())
            with contextlib.suppress(FileExistsError):  # another process made it first: keep theirs
                os.link(tmp, path)
        finally:
            os.unlink(tmp)
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)
    return path.read_bytes()
