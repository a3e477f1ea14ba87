"""torneo.filecache: Django's file cache without a directory listing at every write, the bound kept."""

from pathlib import Path

import pytest

from torneo import filecache
from torneo.filecache import FileCache


@pytest.fixture
def clock(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(filecache.time, "monotonic", lambda: now[0])
    return now


def test_the_cache_lists_its_files_at_most_every_few_seconds_and_keeps_its_bound(tmp_path: Path, clock, monkeypatch):
    cache = FileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 10, "CULL_FREQUENCY": 2}})
    listings = []
    listing = FileCache._list_cache_files
    monkeypatch.setattr(FileCache, "_list_cache_files", lambda self: listings.append(1) or listing(self))
    for n in range(30):  # within one interval: one listing, whatever the number of writes
        cache.set(f"k{n}", n)
    assert len(listings) == 1
    assert all(cache.get(f"k{n}") == n for n in range(30))  # overshot by the interval's writes only
    clock[0] += filecache.CULL_EVERY_SECONDS
    cache.set("next", 1)  # the next write past the interval counts and drops a half (CULL_FREQUENCY)
    assert len(listings) == 2
    assert len(list(tmp_path.glob("*.djcache"))) == 30 - 30 // 2 + 1
    assert cache.get("next") == 1


def test_a_shared_read_hands_out_the_kept_value_while_the_file_holds_the_same_bytes(tmp_path: Path, monkeypatch):
    """`get_shared` (the tournament's state and its pairs' versions, read by every live.json):
    unpickled once per version of the file, never stale — a rewrite of the same size, an expiry, a
    deletion are all seen at the next read."""
    cache = FileCache(str(tmp_path), {})
    cache.set("estado", {1: 10, 2: 20})
    first = cache.get_shared("estado")
    assert first == {1: 10, 2: 20} and cache.get_shared("estado") is first  # not unpickled again
    cache.set("estado", {1: 11, 2: 20})  # the same size on disk, written at once
    assert cache.get_shared("estado") == {1: 11, 2: 20}
    assert cache.get_shared("nada", "ninguno") == "ninguno"
    cache.set("breve", "x", timeout=60)
    assert cache.get_shared("breve") == "x"
    later = filecache.time.time() + 61
    monkeypatch.setattr(filecache.time, "time", lambda: later)
    assert cache.get_shared("breve", "caducado") == "caducado"
    assert not cache.has_key("breve")  # deleted, as Django's get does
    cache.delete("estado")
    assert cache.get_shared("estado") is None
