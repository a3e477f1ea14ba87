"""torneo/crc32.py: the CRC-32 of two pieces joined, from each one's CRC and length (pure)."""

import random
import zlib

from torneo import crc32


def test_the_combined_crc_is_the_crc_of_the_pieces_joined():
    rng = random.Random(32)
    for first_length, second_length in [(0, 0), (0, 5), (7, 0), (1, 1), (300, 4096), (9, 1_011_402)]:
        first, second = rng.randbytes(first_length), rng.randbytes(second_length)
        combined = crc32.combine(zlib.crc32(first), zlib.crc32(second), len(second))
        assert combined == zlib.crc32(first + second)


def test_a_changed_byte_of_either_piece_changes_the_combined_crc():
    first, second = b"<html><form>secreto</form>", "<tr><td>Pareja ñ</td></tr>".encode() * 40
    whole = crc32.combine(zlib.crc32(first), zlib.crc32(second), len(second))
    changed = b"x" + second[1:]
    assert crc32.combine(zlib.crc32(first), zlib.crc32(changed), len(changed)) != whole
    assert crc32.combine(zlib.crc32(first[:-1] + b"!"), zlib.crc32(second), len(second)) != whole
