"""The engines' random numbers, defined here bit for bit so that a stored match
replays identically on any Python version or implementation.

`random.Random` is not such a definition: its seeding of strings, its
`shuffle` and its `randrange` are CPython details that may change between
versions.  This module uses only integer arithmetic and SHA-256:

* **SplitMix64** (Steele, Lea and Flood 2014; the reference C code is
  https://prng.di.unimi.it/splitmix64.c): a 64-bit state advanced by a fixed
  odd constant, each output a bijective mix of the new state.
* **Keys**: a stream is seeded from a text key (for example
  "condottiere:<seed>:<n>"), its first state being the first 8 bytes of the
  key's SHA-256, big-endian.  Any seed, however large or negative, has a key.
* **randrange(n)**: an integer in [0, n) without modulo bias: 64-bit outputs
  at or above the largest multiple of n are drawn again.
* **shuffle**: Fisher-Yates from the last position down, position i swapped
  with randrange(i + 1).

tests/engines/test_rng.py pins known answers (the reference outputs for
pinned seeds, and shuffles for pinned keys).
"""

from __future__ import annotations

import hashlib

MASK = (1 << 64) - 1
SPAN = 1 << 64
GOLDEN = 0x9E3779B97F4A7C15


def splitmix64(state: int) -> tuple[int, int]:
    """One step: (next state, 64-bit output)."""
    state = (state + GOLDEN) & MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """(next state, an integer in [0, n)): outputs at or above the largest
    multiple of n are drawn again, so each value is equally likely."""
    limit = SPAN - SPAN % n
    state, x = splitmix64(state)
    while x >= limit:
        state, x = splitmix64(state)
    return state, x % n


def key_state(key: str) -> int:
    """The first state of the stream named `key`."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")


class SplitMix64:
    """A short-lived stream; the state that outlives it belongs in the game state."""

    def __init__(self, state: int) -> None:
        self.state = state & MASK

    @classmethod
    def from_key(cls, key: str) -> SplitMix64:
        return cls(key_state(key))

    def next64(self) -> int:
        self.state, out = splitmix64(self.state)
        return out

    def randrange(self, n: int) -> int:
        """An integer in [0, n), each equally likely (same call as random.Random.randrange(n))."""
        if not 0 < n <= SPAN:
            raise ValueError(f"randrange needs 0 < n <= 2**64, not {n}")
        self.state, out = below(self.state, n)
        return out

    def shuffle(self, items: list) -> None:
        """Shuffle in place (Fisher-Yates: position i swapped with a draw below i + 1)."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            state, j = below(state, i + 1)
            items[i], items[j] = items[j], items[i]
        self.state = state
