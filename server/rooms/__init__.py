"""Rooms: the lobby, single-writer game rooms and the sans-I/O client session."""
