"""CRC-32 (gzip's) of two pieces joined, from the CRC and length of each: zlib's
``crc32_combine``, which Python's zlib module does not expose.

A large public page body is kept deflated only (torneo.pagecache, `Body`): each signed-in phone's
page is the gzip of its own frame, stored, around that deflated body, and the gzip trailer needs
the CRC of the whole. With the body's CRC kept beside it, the whole's is combined in microseconds,
without inflating 900 KB of a 573-table round at each request. The arithmetic is zlib's
(crc32.c, `multmodp` and `x2nmodp`): a CRC is a polynomial over GF(2), and appending ``n`` bytes
multiplies the first piece's by x^(8n) modulo the CRC's polynomial.
"""

from functools import lru_cache

_POLY = 0xEDB88320  # gzip's CRC-32 polynomial, bits reversed as zlib keeps it


def _multmodp(a: int, b: int) -> int:
    """a(x) * b(x) modulo the polynomial (reflected, as zlib's)."""
    m, product = 1 << 31, 0
    while True:
        if a & m:
            product ^= b
            if not a & (m - 1):
                return product
        m >>= 1
        b = (b >> 1) ^ _POLY if b & 1 else b >> 1


def _powers() -> tuple[int, ...]:
    """x^(2^k) modulo the polynomial, for k in 0..31."""
    power, table = 1 << 30, []  # x^1
    for _ in range(32):
        table.append(power)
        power = _multmodp(power, power)
    return tuple(table)


_X2N = _powers()


@lru_cache(maxsize=1024)
def _shift(length: int) -> int:
    """x^(8 * length) modulo the polynomial: what appending ``length`` bytes multiplies a CRC by
    (kept per length: a kept body's is asked for at each request)."""
    power, n, k = 1 << 31, length, 3  # x^0; 2^3 bits a byte
    while n:
        if n & 1:
            power = _multmodp(_X2N[k & 31], power)
        n >>= 1
        k += 1
    return power


def combine(first: int, second: int, second_length: int) -> int:
    """The CRC-32 of ``a + b`` from ``first`` = crc32(a), ``second`` = crc32(b) and len(b)."""
    return _multmodp(_shift(second_length), first) ^ second
