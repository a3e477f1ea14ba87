"""The embedded default's shared cache: Django's file cache, without a directory listing per write.

Django's FileBasedCache lists its whole directory at every `set` (and `add`) to see whether it
must drop entries past MAX_ENTRIES (`_cull`). At a 1,146-pair event the pages cache holds
thousands of files (a page per pair, each signed-in phone's frame, render locks), and one listing of
8,000 files costs ~8 ms of CPU: a pair's page rendered after a result wrote four or five entries,
so it spent more time listing files than rendering (benchmarks/load.py --mode players, pair page
p50 75 ms). Here the listing runs at most every CULL_EVERY_SECONDS per process: the bound is
still kept, overshot at most by the writes of those seconds (MAX_ENTRIES is set far from reach:
torneo/settings.py). Redis (CACHE_URL) has no such cost.

It also reads the few entries every request needs (`get_shared`: a tournament's public state and
its pairs' versions, torneo.pagecache) without unpickling them again while their file is unchanged.
"""

import io
import pickle
import time
import zlib
from typing import Any

from django.core.cache.backends.filebased import FileBasedCache

CULL_EVERY_SECONDS = 10.0
SHARED_KEPT = 64  # entries `get_shared` keeps unpickled per process; past it, it starts again


class FileCache(FileBasedCache):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._culled_at = -CULL_EVERY_SECONDS
        self._shared: dict[str, tuple[bytes, Any, Any]] = {}

    def get_shared(self, key: str, default: Any = None, version: int | None = None) -> Any:
        """`get`, for a value its callers only read and never change: while the entry's file holds
        the same bytes, the same object is handed out, not unzipped and unpickled again. Every
        phone's live.json reads its tournament's state and the versions of its 1,146 pairs: a
        read of the file and a comparison (~15 µs) instead of ~250 µs (benchmarks/load.py --mode
        players, 230 live.json a second). The bytes are compared, not the file's date or inode: a
        file rewritten within the same clock tick with the same size must not pass for the old one."""
        fname = self._key_to_file(key, version)
        try:
            with open(fname, "rb") as f:
                raw = f.read()
        except FileNotFoundError:
            return default
        kept = self._shared.get(fname)
        if kept is not None and kept[0] == raw:
            expiry, value = kept[1], kept[2]
        else:
            data = io.BytesIO(raw)
            try:
                expiry = pickle.load(data)
            except EOFError:
                return default  # an empty file: being written, or expired (Django's rule)
            value = pickle.loads(zlib.decompress(data.read()))
            if len(self._shared) >= SHARED_KEPT:
                self._shared.clear()
            self._shared[fname] = (raw, expiry, value)
        if expiry is not None and expiry < time.time():
            return self.get(key, default, version)  # expired: Django's own get deletes it
        return value

    def _cull(self) -> None:
        now = time.monotonic()
        if now - self._culled_at < CULL_EVERY_SECONDS:
            return
        self._culled_at = now
        super()._cull()
