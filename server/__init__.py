"""Manawire server: the rules engine, per-viewer views, rooms, storage and transport."""

__version__ = "0.1.0"
