"""The card loader's error (kept apart so that every module of the loader can raise it)."""

from __future__ import annotations


class CardDataError(ValueError):
    """Card data that cannot be turned into a valid definition."""
