"""Typed errors raised by the engine."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is not legal now. The game is left exactly as it was."""


class GameOverError(IllegalActionError):
    """An action sent to a game that has already ended (rule 104)."""
