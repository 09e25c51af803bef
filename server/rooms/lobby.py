"""The lobby: creating, listing and finding rooms."""

from __future__ import annotations

import secrets

import trio

from protocol.v1 import messages_pb2 as mpb
from server.rooms.room import Room
from server.store import Store

MAX_ROOMS = 10_000


class LobbyFullError(Exception):
    """The server hosts as many rooms as it may."""


#: Each player's time bank when a room doesn't say (30 minutes per player per game).
DEFAULT_CLOCK_SECONDS = 1800


class Lobby:
    """All rooms of this server. Each room's task runs in the lobby's nursery."""

    def __init__(self, store: Store, nursery: trio.Nursery) -> None:
        self.store = store
        self.nursery = nursery
        self.rooms: dict[str, Room] = {}

    def create(self, name: str, seats: int, clock_seconds: int = 0) -> Room:
        """Create a room and start its task."""
        if len(self.rooms) >= MAX_ROOMS:
            raise LobbyFullError("the server hosts the maximum number of rooms")
        room = Room(secrets.token_hex(6), name, seats, self.store,
                    clock_seconds or DEFAULT_CLOCK_SECONDS)
        self.rooms[room.room_id] = room
        self.nursery.start_soon(room.run, name=f"room-{room.room_id}")
        return room

    def listing(self) -> mpb.RoomList:
        """Every room, newest last."""
        return mpb.RoomList(rooms=[room.info() for room in self.rooms.values()])
