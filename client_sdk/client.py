"""A trio client for the Manawire protocol over WebSockets, which resumes by itself.

When the connection drops (the network, the server restarting with close code 1012, the
server closing a client that fell behind with 1013), the client reconnects with exponential
backoff and sends ``Resume{resume_token, last_state_id}``: the server hands its place back
and sends only the deltas it missed (or a snapshot), then the pending decision again. An
``Act`` sent just before a drop may or may not have reached the server; either way the
decision that is current after the resume is sent again, so a bot simply answers it.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import cast

import trio
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.trio.client import ClientConnection, connect

from client_sdk.mirror import Mirror, MirrorDesyncError
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb

PROTOCOL_VERSION = 1
#: Close codes after which the client does not come back by itself.
CLOSE_REPLACED = 4001  # another connection resumed this session
#: Reconnection backoff: first delay, factor, longest delay, and the time to give up after.
BACKOFF_FIRST, BACKOFF_FACTOR, BACKOFF_MAX, RECONNECT_FOR = 0.05, 2.0, 2.0, 120.0

log = logging.getLogger("manawire.client")


class ServerError(Exception):
    """The server answered a request with an Error."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(f"{mpb.ErrorCode.Name(cast(mpb.ErrorCode, code))}: {message}")
        self.code = code
        self.message = message


class ConnectionLostError(Exception):
    """The connection dropped and could not be resumed (or a request's reply was lost in
    a drop: the request may or may not have been performed)."""


class Client:
    """One session: lobby requests, a mirror of the joined game and its pending decision.

    Use :func:`Client.connect`; then call :meth:`next_message` (or iterate
    :meth:`messages`) to process what the server pushes.
    """

    def __init__(self, url: str, name: str, nursery: trio.Nursery, *,
                 reconnect: bool = True) -> None:
        self.url = url
        self.name = name
        self.reconnect = reconnect
        self._nursery = nursery
        self._ws: ClientConnection | None = None
        self._next_request = 0
        self.mirror = Mirror()
        self.decision: pb.Decision | None = None
        self.seat: int | None = None
        self.room_id: str | None = None
        self.session_id = ""
        #: The secret that resumes this session (rotated by the server on every resume).
        self.resume_token = ""
        self.errors: list[mpb.Error] = []
        #: The players' decision clocks, by seat (pushed when the deciding seat changes).
        self.clocks: dict[int, mpb.ClockState] = {}
        #: Whether each seat's player is connected (pushed when it changes).
        self.presence: dict[int, bool] = {}
        self.deltas = 0
        self.resyncs = 0
        #: Resumes done, and the deltas the server re-sent in them.
        self.resumes = 0
        self.missed_deltas = 0
        self.resume_snapshots = 0
        self._epoch = 0
        #: The epoch of a request waiting for its reply (None: none).
        self._requesting: int | None = None
        #: Called with every raw message received (tracing, leak checks).
        self.on_raw: Callable[[bytes], None] | None = None

    @classmethod
    @asynccontextmanager
    async def connect(cls, url: str, name: str, *, reconnect: bool = True
                      ) -> AsyncIterator[Client]:
        """Connect to ``url`` and say hello as ``name``; with ``reconnect`` (the default)
        the client resumes by itself after a drop."""
        async with trio.open_nursery() as nursery:
            client = cls(url, name, nursery, reconnect=reconnect)
            try:
                client._ws = await client._open()
                reply = await client.request(mpb.ClientMessage(hello=mpb.Hello(
                    protocol_version=PROTOCOL_VERSION, display_name=name)))
                client.session_id = reply.welcome.session_id
                client.resume_token = reply.welcome.resume_token
                yield client
            finally:
                client.reconnect = False
                await client.aclose()
                nursery.cancel_scope.cancel()

    async def _open(self) -> ClientConnection:
        opener = connect(self.url, compression=None, max_size=16 * 1024 * 1024,
                         open_timeout=10)
        return await opener.connect(self._nursery)

    async def aclose(self) -> None:
        """Close the connection (no reconnecting afterwards)."""
        self.reconnect = False
        ws, self._ws = self._ws, None
        if ws is not None:
            with trio.move_on_after(2):
                await ws.aclose()

    async def drop(self) -> None:
        """Close the connection as a network failure would (for tests): the client then
        resumes on its next receive or send."""
        ws = self._ws
        if ws is not None:
            with trio.move_on_after(2):
                await ws.aclose(code=1001, reason="client drop")

    # ---- reconnecting
    def _resumable(self, exc: ConnectionClosed) -> bool:
        code = exc.rcvd.code if exc.rcvd is not None else None
        return self.reconnect and bool(self.resume_token) and code != CLOSE_REPLACED

    async def _resume(self) -> None:
        """Reconnect with backoff and resume the session; :class:`ConnectionLostError` if
        the server refuses the token or doesn't come back within :data:`RECONNECT_FOR`."""
        self._epoch += 1
        self.decision = None  # the decision current after the resume is sent again
        old, self._ws = self._ws, None
        if old is not None:
            with trio.move_on_after(1):
                await old.aclose()
        delay = BACKOFF_FIRST
        deadline = trio.current_time() + RECONNECT_FOR
        while True:
            try:
                ws = await self._open()
                msg = mpb.ClientMessage(resume=mpb.Resume(
                    protocol_version=PROTOCOL_VERSION, resume_token=self.resume_token,
                    last_state_id=self.mirror.state_id))
                await ws.send(msg.SerializeToString())
                data = await ws.recv()
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed) as exc:
                if trio.current_time() + delay > deadline:
                    raise ConnectionLostError(f"could not resume: {exc!r}") from exc
                await trio.sleep(delay)
                delay = min(delay * BACKOFF_FACTOR, BACKOFF_MAX)
                continue
            reply = mpb.ServerMessage.FromString(data if isinstance(data, bytes)
                                                 else data.encode())
            if reply.HasField("error"):
                if reply.error.code == mpb.ERROR_CODE_RESUME_FAILED and self.room_id is None:
                    # A session with no place is forgotten once its connection drops:
                    # nothing was lost, so start a new one.
                    await ws.send(mpb.ClientMessage(hello=mpb.Hello(
                        protocol_version=PROTOCOL_VERSION,
                        display_name=self.name)).SerializeToString())
                    welcome = mpb.ServerMessage.FromString(await ws.recv()).welcome  # type: ignore[arg-type]
                    self.resume_token, self.session_id = welcome.resume_token, welcome.session_id
                    self._ws = ws
                    return
                await ws.aclose()
                raise ConnectionLostError(f"resume refused: {reply.error.message}")
            resumed = reply.resumed
            self.resume_token = resumed.welcome.resume_token
            self.session_id = resumed.welcome.session_id
            self.resumes += 1
            self.missed_deltas += resumed.deltas
            self.resume_snapshots += int(resumed.snapshot)
            if resumed.HasField("joined"):
                self.seat = resumed.joined.seat
                self.room_id = resumed.joined.room.room_id
            else:  # the room is gone (its game ended and it closed, or it failed)
                self.room_id = None
            self._ws = ws
            return

    async def _send(self, msg: mpb.ClientMessage) -> None:
        ws = self._ws
        if ws is None:
            raise ConnectionLostError("not connected")
        try:
            await ws.send(msg.SerializeToString())
        except ConnectionClosed as exc:
            if not self._resumable(exc):
                raise
            await self._resume()  # the message is lost; the current decision comes again

    async def request(self, msg: mpb.ClientMessage) -> mpb.ServerMessage:
        """Send a request and process messages until its reply; raise ServerError on Error,
        :class:`ConnectionLostError` if the connection dropped before the reply came."""
        self._next_request += 1
        msg.request_id = self._next_request
        epoch = self._epoch
        self._requesting = epoch
        try:
            await self._send(msg)
            while True:
                if self._epoch != epoch:
                    raise ConnectionLostError("the connection dropped before the reply")
                reply = await self.next_message()
                if reply.request_id == msg.request_id and self._epoch == epoch:
                    if reply.HasField("error"):
                        raise ServerError(reply.error.code, reply.error.message)
                    return reply
        finally:
            self._requesting = None

    async def next_message(self) -> mpb.ServerMessage:
        """Receive one message and fold it into the mirror and the pending decision
        (resuming first if the connection dropped)."""
        while True:
            ws = self._ws
            if ws is None:
                raise ConnectionLostError("not connected")
            try:
                data = await ws.recv()
                break
            except ConnectionClosed as exc:
                if not self._resumable(exc):
                    raise
                await self._resume()
                if self._requesting is not None:  # its reply is lost: don't wait for it
                    raise ConnectionLostError("the connection dropped before the reply") \
                        from exc
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
        elif body == "presence":
            self.presence = {p.seat: p.connected for p in msg.presence.seats}
        elif body == "joined":
            self.seat = msg.joined.seat
            self.room_id = msg.joined.room.room_id
        elif body == "room_closed":
            self.room_id = None
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

    async def create_room(self, name: str, seats: int = 2, clock_seconds: int = 0
                          ) -> mpb.RoomInfo:
        """Create a room; returns its info (join it to take a seat)."""
        reply = await self.request(mpb.ClientMessage(create_room=mpb.CreateRoom(
            name=name, seats=seats, clock_seconds=clock_seconds)))
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
