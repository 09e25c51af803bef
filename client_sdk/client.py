"""A trio client for the Manawire protocol over WebSockets."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import cast

from websockets.trio.client import ClientConnection, connect

from client_sdk.mirror import Mirror, MirrorDesyncError
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb

PROTOCOL_VERSION = 1


class ServerError(Exception):
    """The server answered a request with an Error."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(f"{mpb.ErrorCode.Name(cast(mpb.ErrorCode, code))}: {message}")
        self.code = code
        self.message = message


class Client:
    """One connection: lobby requests, a mirror of the joined game and its pending decision.

    Use :func:`Client.connect`; then call :meth:`next_message` (or iterate
    :meth:`messages`) to process what the server pushes.
    """

    def __init__(self, ws: ClientConnection) -> None:
        self._ws = ws
        self._next_request = 0
        self.mirror = Mirror()
        self.decision: pb.Decision | None = None
        self.seat: int | None = None
        self.room_id: str | None = None
        self.session_id = ""
        self.errors: list[mpb.Error] = []
        #: The players' decision clocks, by seat (pushed when the deciding seat changes).
        self.clocks: dict[int, mpb.ClockState] = {}
        self.deltas = 0
        self.resyncs = 0
        #: Called with every raw message received (tracing, leak checks).
        self.on_raw: Callable[[bytes], None] | None = None

    @classmethod
    @asynccontextmanager
    async def connect(cls, url: str, name: str) -> AsyncIterator[Client]:
        """Connect to ``url`` and say hello as ``name``."""
        async with connect(url, compression=None, max_size=16 * 1024 * 1024) as ws:
            client = cls(ws)
            reply = await client.request(mpb.ClientMessage(hello=mpb.Hello(
                protocol_version=PROTOCOL_VERSION, display_name=name)))
            client.session_id = reply.welcome.session_id
            yield client

    async def _send(self, msg: mpb.ClientMessage) -> None:
        await self._ws.send(msg.SerializeToString())

    async def request(self, msg: mpb.ClientMessage) -> mpb.ServerMessage:
        """Send a request and process messages until its reply; raise ServerError on Error."""
        self._next_request += 1
        msg.request_id = self._next_request
        await self._send(msg)
        while True:
            reply = await self.next_message()
            if reply.request_id == msg.request_id:
                if reply.HasField("error"):
                    raise ServerError(reply.error.code, reply.error.message)
                return reply

    async def next_message(self) -> mpb.ServerMessage:
        """Receive one message and fold it into the mirror and the pending decision."""
        data = await self._ws.recv()
        raw = data if isinstance(data, bytes) else data.encode()
        if self.on_raw is not None:
            self.on_raw(raw)
        msg = mpb.ServerMessage()
        msg.ParseFromString(raw)
        body = msg.WhichOneof("body")
        if body == "snapshot":
            self.mirror.load_snapshot(msg.snapshot)
            self.room_id = msg.snapshot.room_id
        elif body == "delta":
            try:
                self.mirror.apply_delta(msg.delta)
                self.deltas += 1
            except MirrorDesyncError:
                self.resyncs += 1
                await self._send(mpb.ClientMessage(request_snapshot=mpb.RequestSnapshot()))
        elif body == "decision":
            self.decision = msg.decision
        elif body == "clocks":
            self.clocks = {c.seat: c for c in msg.clocks.seats}
        elif body == "joined":
            self.seat = msg.joined.seat
            self.room_id = msg.joined.room.room_id
        elif body == "error" and msg.request_id == 0:
            self.errors.append(msg.error)
        return msg

    async def messages(self) -> AsyncIterator[mpb.ServerMessage]:
        """Process and yield pushed messages forever (until the connection closes)."""
        while True:
            yield await self.next_message()

    # ---- lobby
    async def list_rooms(self) -> list[mpb.RoomInfo]:
        """Every room on the server."""
        reply = await self.request(mpb.ClientMessage(list_rooms=mpb.ListRooms()))
        return list(reply.room_list.rooms)

    async def create_room(self, name: str, seats: int = 2) -> mpb.RoomInfo:
        """Create a room; returns its info (join it to take a seat)."""
        reply = await self.request(mpb.ClientMessage(
            create_room=mpb.CreateRoom(name=name, seats=seats)))
        return reply.room_list.rooms[0]

    async def join(self, room_id: str, *, spectator: bool = False, deck: str = "") -> mpb.Joined:
        """Join a room as a player (default) or spectator."""
        role = mpb.ROLE_SPECTATOR if spectator else mpb.ROLE_PLAYER
        reply = await self.request(mpb.ClientMessage(
            join_room=mpb.JoinRoom(room_id=room_id, role=role, deck=deck)))
        return reply.joined

    # ---- game
    @property
    def my_decision(self) -> pb.Decision | None:
        """The pending decision if it is this client's and still current, else None."""
        d = self.decision
        pending = self.mirror.header.pending
        if (d is None or self.mirror.game_over or not self.mirror.header.HasField("pending")
                or pending.prompt_id != d.prompt_id):
            return None
        return d

    async def act(self, option_index: int) -> None:
        """Answer the current decision with one of its options (fire and forget)."""
        d = self.my_decision
        if d is None:
            raise RuntimeError("no decision is pending for this client")
        self.decision = None
        await self._send(mpb.ClientMessage(act=mpb.Act(
            prompt_id=d.prompt_id, option_index=option_index,
            expected_state_id=self.mirror.state_id)))

    async def concede(self) -> None:
        """Concede the game (rule 104.3a)."""
        await self._send(mpb.ClientMessage(concede=mpb.ConcedeGame()))
