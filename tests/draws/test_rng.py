"""The portable PRNG: fixed vectors (any implementation of the spec must give these), and its laws."""

import hashlib

import pytest

from tests.draws.reference import chi_square, chi_square_critical
from torneo.draws.errors import DrawFatalError
from torneo.draws.rng import DrawRandom


def test_first_words_follow_the_documented_construction():
    key = hashlib.sha256(b"torneo-mus/rng/v1\x00" + b"mus").digest()
    block0 = hashlib.sha256(key + (0).to_bytes(8, "big")).digest()
    block1 = hashlib.sha256(key + (1).to_bytes(8, "big")).digest()
    expected = [int.from_bytes(block0[i : i + 8], "big") for i in range(0, 32, 8)]
    expected.append(int.from_bytes(block1[:8], "big"))
    rng = DrawRandom("mus")
    assert [rng.next_u64() for _ in range(5)] == expected


def test_fixed_vectors():
    rng = DrawRandom("")
    assert [rng.next_u64() for _ in range(5)] == [
        6313260253194608873,
        2428942810812474508,
        18038419447452626187,
        13316785594283886681,
        5305817061158676506,
    ]
    rng = DrawRandom("mus")
    assert [rng.below(10) for _ in range(12)] == [2, 7, 8, 7, 1, 3, 9, 6, 4, 6, 4, 1]
    assert rng.draws == 12
    rng = DrawRandom("mus")
    assert rng.below(2**64 + 1) == 11162644921798031582  # two words joined
    assert rng.below(3**50) == 524425452407506663326638
    rng = DrawRandom("ñ")
    items = list(range(10))
    rng.shuffle(items)
    assert items == [5, 7, 1, 0, 8, 4, 3, 9, 6, 2]


def test_below_one_consumes_nothing():
    a, b = DrawRandom("x"), DrawRandom("x")
    assert a.below(1) == 0
    assert a.draws == 0
    assert a.below(1000) == b.below(1000)


def test_below_rejects_non_positive():
    with pytest.raises(DrawFatalError):
        DrawRandom("x").below(0)


def test_seed_must_be_text():
    with pytest.raises(DrawFatalError):
        DrawRandom(12)  # type: ignore[arg-type]


def test_below_is_uniform_on_a_non_power_of_two():
    rng = DrawRandom("uniformity")
    counts = [0] * 7
    for _ in range(7000):
        counts[rng.below(7)] += 1
    assert chi_square(counts) < chi_square_critical(6)


def test_weighted_index_follows_the_weights():
    rng = DrawRandom("weights")
    counts = [0, 0, 0]
    for _ in range(6000):
        counts[rng.weighted_index([1, 0, 2])] += 1
    assert counts[1] == 0
    assert 1800 < counts[0] < 2200
    with pytest.raises(DrawFatalError):
        rng.weighted_index([0, 0])
