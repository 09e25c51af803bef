"""The game's own random number generator (architecture invariant 3).

A keyed BLAKE2b stream in counter mode: cryptographically strong (nothing a client sees, such
as random object ids, lets it predict shuffles), deterministic from the seed (replaying the
action log rebuilds every state bit for bit) and independent of ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import hashlib
from typing import TypeVar

T = TypeVar("T")

_BLOCK = 64


class GameRng:
    """Deterministic, unpredictable randomness for one game."""

    __slots__ = ("_buffer", "_counter", "_key", "_used")

    def __init__(self, seed: bytes) -> None:
        if len(seed) < 16:
            raise ValueError("a game seed must be at least 16 bytes")
        self._key = hashlib.blake2b(seed, digest_size=64, person=b"manawire-rng-v1").digest()
        self._counter = 0
        self._buffer = b""
        self._used = 0  # bytes of the buffer already taken

    def _take(self, n: int) -> bytes:
        """The stream's next ``n`` bytes."""
        used = self._used
        if len(self._buffer) - used < n:
            rest = self._buffer[used:]
            while len(rest) < n:
                rest += hashlib.blake2b(
                    self._counter.to_bytes(16, "little"), key=self._key, digest_size=_BLOCK
                ).digest()
                self._counter += 1
            self._buffer, used = rest, 0
        self._used = used + n
        return self._buffer[used:used + n]

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling (no modulo bias)."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        bits = n.bit_length()
        nbytes = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self._take(nbytes), "little") & mask
            if value < n:
                return value

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates shuffle in place: every order equally likely (rule 103.3, 701.24)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def token(self) -> str:
        """A fresh 64-bit random identifier as 16 hex digits."""
        return self._take(8).hex()
