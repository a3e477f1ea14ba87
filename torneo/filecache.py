"""The embedded default's shared cache: Django's file cache, without a directory listing per write.

Django's FileBasedCache lists its whole directory at every `set` (and `add`) to see whether it
must drop entries past MAX_ENTRIES (`_cull`). At a 1,146-pair event the pages cache holds
thousands of files (a page per pair, each signed-in phone's frame, render locks), and one listing of
8,000 files costs ~8 ms of CPU: a pair's page rendered after a result wrote four or five entries,
so it spent more time listing files than rendering (benchmarks/load.py --mode players, pair page
p50 75 ms). Here the listing runs at most every CULL_EVERY_SECONDS per process: the bound is
still kept, overshot at most by the writes of those seconds (MAX_ENTRIES is set far from reach:
torneo/settings.py). Redis (CACHE_URL) has no such cost.
"""

import time
from typing import Any

from django.core.cache.backends.filebased import FileBasedCache

CULL_EVERY_SECONDS = 10.0


class FileCache(FileBasedCache):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._culled_at = -CULL_EVERY_SECONDS

    def _cull(self) -> None:
        now = time.monotonic()
        if now - self._culled_at < CULL_EVERY_SECONDS:
            return
        self._culled_at = now
        super()._cull()
