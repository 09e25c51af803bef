"""A cheap password hasher for tests of what the server does with passwords.

The server hashes passwords with Argon2id at argon2-cffi's default cost (:mod:`server.accounts`):
about 0.15 s of CPU a hash or a check, on purpose. Tests of sign-ins, registrations and their
limits make dozens of checks and test what the server does with their answers, not the cost:
:func:`cheap_passwords` swaps in Argon2id at its least cost (microseconds), the same hashes in
form and the same answers. ``seconds`` makes each hash and check take that long on the worker
thread without using the CPU, for a test of how checks wait for each other.
``tests/rooms/test_accounts.py`` checks the server's own hasher and its cost.
"""

from __future__ import annotations

import time
from typing import Literal

import pytest
from argon2 import PasswordHasher

from server import accounts


class _Sleeping(PasswordHasher):
    """Argon2id at its least cost, each hash and check taking ``seconds`` (asleep)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1)
        self.seconds = seconds

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        time.sleep(self.seconds)
        return super().hash(password, salt=salt)

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        time.sleep(self.seconds)
        return super().verify(hash, password)


def cheap_passwords(monkeypatch: pytest.MonkeyPatch, seconds: float = 0.0) -> None:
    """Hash and check passwords (and the unknown names' dummy hash) at Argon2id's least
    cost for the rest of the test."""
    hasher = _Sleeping(seconds)
    dummy = hasher.hash("not a password")
    monkeypatch.setattr(accounts, "_hasher", hasher)
    monkeypatch.setattr(accounts, "_dummy_hash", lambda: dummy)
