"""Hostile clients over real loopback WebSockets: attacks the server must refuse.

Each client here is raw -- websockets' sans-I/O ``ClientProtocol`` over a trio TCP stream, no
client SDK -- so it can do what a well-behaved client never does: write several frames in one
TCP write, stop reading, send text or garbage, drop the TCP connection mid-request, reuse
resume tokens. Every test checks, besides the refusal itself, that nothing was accepted for a
seat the connection doesn't hold (the game's action count) and that no client received a
view of a seat other than its own (``View.viewer``, ``Decision.seat``); the full-game test
also replays the stored game and checks that no viewer received the id of a card it never
saw, the seed, or anybody else's resume token or session id.
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import trio
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.uri import parse_uri

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.app import App, Limits
from server.decks import DeckFormat, resolve
from server.engine import Game, PlayerSetup, apply, new_game
from server.rooms.room import RoomConfig
from server.sessions import CLOSE_REPLACED
from server.store import Store
from server.transport.ws import MAX_MESSAGE, serve_app
from server.view import SPECTATOR, project
from server.view.encode import encode_view

P, S = mpb.ROLE_PLAYER, mpb.ROLE_SPECTATOR


@dataclass
class Server:
    """An in-process server on a loopback port, and the clients opened against it."""

    app: App
    store: Store
    port: int
    nursery: trio.Nursery
    clients: list[Hostile] = field(default_factory=list)

    def game(self, room_id: str) -> Game:
        game = self.app.lobby.rooms[room_id].game
        assert game is not None
        return game


@asynccontextmanager
async def serving(tmp_path: Path, limits: Limits | None = None) -> AsyncIterator[Server]:
    """App + WebSocket listener on 127.0.0.1, port 0; closes clients, app and store after."""
    store = Store(tmp_path / "db.sqlite3")
    try:
        async with trio.open_nursery() as nursery:
            app = App(store, nursery, limits)
            listener = await nursery.start(serve_app, app, "127.0.0.1", 0)
            port = listener.listeners[0].socket.getsockname()[1]
            srv = Server(app, store, port, nursery)
            try:
                yield srv
            finally:
                for client in srv.clients:
                    await client.stream.aclose()
                nursery.cancel_scope.cancel()
        app.close()
    finally:
        store.close()


class Hostile:
    """A raw WebSocket client. ``write`` puts every frame it is given in one TCP write; a
    reader task keeps every message it receives until ``paused`` is set."""

    def __init__(self, stream: trio.SocketStream, proto: ClientProtocol, name: str) -> None:
        self.stream = stream
        self.proto = proto
        self.name = name
        self.rid = 0
        self.got: list[mpb.ServerMessage] = []
        self.raw: list[bytes] = []
        self.tokens: list[str] = []
        self.session_ids: list[str] = []
        self.seats: set[int] = set()  # every seat (or -1) a Joined/Resumed gave this client
        self.close_code: int | None = None
        self.paused = False  # a paused client reads nothing more (its buffers fill up)
        self.eof = trio.Event()
        self._changed = trio.Event()

    @classmethod
    async def open(cls, srv: Server, name: str, *, hello: bool = True) -> Hostile:
        stream = await trio.open_tcp_stream("127.0.0.1", srv.port)
        proto = ClientProtocol(parse_uri(f"ws://127.0.0.1:{srv.port}/"), max_size=None)
        proto.send_request(proto.connect())
        await stream.send_all(b"".join(proto.data_to_send()))
        while not proto.events_received():
            data = await stream.receive_some(65536)
            assert data, "the server closed during the handshake"
            proto.receive_data(data)
        assert proto.handshake_exc is None
        client = cls(stream, proto, name)
        srv.clients.append(client)
        srv.nursery.start_soon(client._reader)
        if hello:
            reply = await client.call(hello=mpb.Hello(protocol_version=1, display_name=name))
            assert reply.HasField("welcome")
        return client

    def msg(self, **body: Any) -> mpb.ClientMessage:
        self.rid += 1
        return mpb.ClientMessage(request_id=self.rid, **body)

    async def write(self, *frames: mpb.ClientMessage | bytes | str) -> None:
        for f in frames:
            if isinstance(f, str):
                self.proto.send_text(f.encode())
            else:
                self.proto.send_binary(f if isinstance(f, bytes) else f.SerializeToString())
        await self.stream.send_all(b"".join(self.proto.data_to_send()))

    async def _reader(self) -> None:
        try:
            while True:
                if self.paused:
                    await trio.sleep_forever()
                data = await self.stream.receive_some(65536)
                if not data:
                    return
                self.proto.receive_data(data)
                for event in self.proto.events_received():
                    assert isinstance(event, Frame)
                    if event.opcode is Opcode.BINARY:
                        self._keep(bytes(event.data))
                    elif event.opcode is Opcode.CLOSE:
                        rcvd = self.proto.close_rcvd
                        self.close_code = rcvd.code if rcvd is not None else -1
                        with contextlib.suppress(trio.BrokenResourceError,
                                                 trio.BusyResourceError,
                                                 trio.ClosedResourceError):
                            await self.stream.send_all(b"".join(self.proto.data_to_send()))
                        return
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return
        finally:
            self.eof.set()
            self._changed.set()

    def _keep(self, data: bytes) -> None:
        msg = mpb.ServerMessage.FromString(data)
        self.raw.append(data)
        self.got.append(msg)
        welcome = msg.resumed.welcome if msg.HasField("resumed") else msg.welcome
        if welcome.resume_token:
            self.tokens.append(welcome.resume_token)
            self.session_ids.append(welcome.session_id)
        if msg.HasField("joined"):
            self.seats.add(msg.joined.seat)
        if msg.HasField("resumed") and msg.resumed.HasField("joined"):
            self.seats.add(msg.resumed.joined.seat)
        self._changed.set()
        self._changed = trio.Event()

    @property
    def token(self) -> str:
        return self.tokens[-1]

    async def wait(self, pred: Callable[[mpb.ServerMessage], bool], start: int = 0,
                   seconds: float = 5.0) -> mpb.ServerMessage:
        with trio.fail_after(seconds):
            while True:
                for m in self.got[start:]:
                    if pred(m):
                        return m
                if self.eof.is_set():
                    raise AssertionError(f"{self.name}: connection ended")
                await self._changed.wait()

    async def reply(self, rid: int) -> mpb.ServerMessage:
        return await self.wait(lambda m: m.request_id == rid)

    async def call(self, **body: Any) -> mpb.ServerMessage:
        m = self.msg(**body)
        await self.write(m)
        return await self.reply(m.request_id)

    async def create(self, seats: int = 2) -> str:
        reply = await self.call(create_room=mpb.CreateRoom(name="h", seats=seats))
        return reply.room_created.room.room_id

    async def join(self, room_id: str, role: mpb.Role = P, deck: str = ""
                   ) -> mpb.ServerMessage:
        return await self.call(join_room=mpb.JoinRoom(room_id=room_id, role=role, deck=deck))

    async def resume(self, token: str, last_state_id: int = 0) -> mpb.ServerMessage:
        return await self.call(resume=mpb.Resume(protocol_version=1, resume_token=token,
                                                 last_state_id=last_state_id))

    async def barrier(self) -> int:
        """Round trip (ListRooms): everything the server sent before its answer is in."""
        await self.call(list_rooms=mpb.ListRooms())
        return len(self.got)

    def kinds(self, start: int = 0) -> list[str]:
        return [m.WhichOneof("body") or "" for m in self.got[start:]]

    def assert_own_views_only(self) -> None:
        """Every snapshot and decision this client got is of a seat it was given."""
        for m in self.got:
            if m.HasField("snapshot"):
                assert m.snapshot.view.viewer in self.seats, (self.name, m.snapshot.view.viewer)
            if m.HasField("decision"):
                assert m.decision.seat in self.seats - {SPECTATOR}, (self.name, m.decision.seat)

    async def abort(self) -> None:
        """Drop the TCP connection without a WebSocket close."""
        await self.stream.aclose()


async def eventually(cond: Callable[[], bool], seconds: float = 5.0) -> None:
    """Wait until ``cond()`` holds (polling the in-process server's state)."""
    for _ in range(int(seconds / 0.002)):
        if cond():
            return
        await trio.sleep(0.002)
    raise AssertionError("condition not reached")


def code(m: mpb.ServerMessage) -> int:
    assert m.HasField("error"), m
    return m.error.code


async def start_game(srv: Server, seats: int = 2) -> tuple[list[Hostile], str]:
    """Ann, Bob (and Cid) take the seats of a new room; returns once a decision is out."""
    players = [await Hostile.open(srv, n) for n in ["Ann", "Bob", "Cid"][:seats]]
    room = await players[0].create(seats)
    for seat, p in enumerate(players):
        assert (await p.join(room)).joined.seat == seat
    await decision(srv, players, room)
    return players, room


async def decision(srv: Server, holders: dict[int, Hostile] | list[Hostile], room: str
                   ) -> tuple[Hostile, pb.Decision]:
    """The deciding player's client and the Decision it received for the pending prompt."""
    pending = srv.game(room).pending
    assert pending is not None
    client = holders[pending.seat]
    prompt = pending.prompt_id
    m = await client.wait(lambda m: m.HasField("decision") and m.decision.prompt_id == prompt)
    return client, m.decision


async def answer(srv: Server, room: str, client: Hostile, d: pb.Decision, option: int = 0
                 ) -> None:
    """Answer ``d`` and wait until the room has applied it."""
    game = srv.game(room)
    await client.write(client.msg(act=mpb.Act(prompt_id=d.prompt_id, option_index=option,
                                              expected_state_id=d.state_id)))
    await eventually(lambda: game.result is not None or game.pending is None
                     or game.pending.prompt_id != d.prompt_id)


async def test_requests_for_a_seat_not_held_are_refused(tmp_path: Path) -> None:
    with trio.fail_after(15):
        async with serving(tmp_path) as srv:
            players, room = await start_game(srv)
            game = srv.game(room)
            decider, d = await decision(srv, players, room)
            before = game.action_count
            eve = await Hostile.open(srv, "Eve")

            def game_requests() -> list[mpb.ClientMessage]:
                return [eve.msg(act=mpb.Act(prompt_id=d.prompt_id, option_index=0,
                                            expected_state_id=d.state_id)),
                        eve.msg(request_snapshot=mpb.RequestSnapshot()),
                        eve.msg(concede=mpb.ConcedeGame()),
                        eve.msg(leave_room=mpb.LeaveRoom())]

            # A refused join (room full, unknown room) routes nothing: every game request
            # pipelined right behind it, in the same TCP write, is refused.
            frames = [eve.msg(join_room=mpb.JoinRoom(room_id=room, role=P)), *game_requests(),
                      eve.msg(join_room=mpb.JoinRoom(room_id="nope", role=S)),
                      *game_requests()]
            await eve.write(*frames)
            codes = [code(await eve.reply(f.request_id)) for f in frames]
            assert codes == [mpb.ERROR_CODE_ROOM_FULL, *[mpb.ERROR_CODE_NOT_READY] * 4,
                             mpb.ERROR_CODE_ROOM_NOT_FOUND, *[mpb.ERROR_CODE_NOT_READY] * 4]
            # As a spectator, and as the seat that is not deciding: the real prompt is
            # refused, and so is a spectator's concession.
            assert (await eve.join(room, S)).joined.seat == SPECTATOR
            other = players[1 - players.index(decider)]
            hostile: list[tuple[Hostile, dict[str, Any]]] = [
                (eve, {"act": mpb.Act(prompt_id=d.prompt_id)}),
                                 (eve, {"concede": mpb.ConcedeGame()}),
                (other, {"act": mpb.Act(prompt_id=d.prompt_id, expected_state_id=d.state_id)})]
            for client, body in hostile:
                assert code(await client.call(**body)) == mpb.ERROR_CODE_NOT_YOUR_DECISION
            assert game.action_count == before and game.result is None
            assert game.pending is not None and game.pending.prompt_id == d.prompt_id
            for c in (*players, eve):
                await c.barrier()
                c.assert_own_views_only()
            assert not any(m.HasField("decision") for m in eve.got)


async def test_a_player_who_left_gets_no_seat_and_no_view_back(tmp_path: Path) -> None:
    with trio.fail_after(15):
        async with serving(tmp_path) as srv:
            players, room = await start_game(srv, seats=3)
            ann = players[0]
            assert code(await ann.join(room, S)) == mpb.ERROR_CODE_INVALID_ARGUMENT
            await ann.write(ann.msg(leave_room=mpb.LeaveRoom()))  # concedes (104.3a)
            mark = await ann.barrier()
            mine = await ann.create()
            assert (await ann.join(mine)).joined.seat == 0
            await ann.write(ann.msg(leave_room=mpb.LeaveRoom()))
            for role in (P, S):
                assert code(await ann.join(room, role)) == mpb.ERROR_CODE_INVALID_ARGUMENT
            bodies: list[dict[str, Any]] = [{"act": mpb.Act(prompt_id=1)},
                                            {"request_snapshot": mpb.RequestSnapshot()},
                                            {"concede": mpb.ConcedeGame()}]
            for body in bodies:
                assert code(await ann.call(**body)) == mpb.ERROR_CODE_NOT_READY
            # Bob and Cid play on; Ann hears nothing of their game any more.
            game = srv.game(room)
            count = game.action_count
            for _ in range(3):
                client, d = await decision(srv, players, room)
                assert client is not ann
                await answer(srv, room, client, d)
            assert game.action_count == count + 3 and game.result is None
            await ann.barrier()
            assert not {"snapshot", "delta", "decision", "clocks", "presence"} & set(
                ann.kinds(mark))
            ann.assert_own_views_only()


async def test_pipelined_joins_and_leaves_in_one_write_land_in_one_room(
        tmp_path: Path) -> None:
    with trio.fail_after(15):
        # A burst of 150 under the message rate limit: this test is about room queues.
        async with serving(tmp_path, Limits(message_burst=500)) as srv:
            owner = await Hostile.open(srv, "Own")
            r1, r2 = await owner.create(3), await owner.create(3)
            busy = await Hostile.open(srv, "Busy")
            await busy.join(r1, S)
            flood = [busy.msg(act=mpb.Act(prompt_id=1)) for _ in range(150)]
            await busy.write(*flood)  # r1 has a queue of commands while the joins arrive
            pipe = await Hostile.open(srv, "Pipe", hello=False)
            frames = [pipe.msg(hello=mpb.Hello(protocol_version=1, display_name="Pipe")),
                      pipe.msg(join_room=mpb.JoinRoom(room_id=r1, role=P)),
                      pipe.msg(join_room=mpb.JoinRoom(room_id=r2, role=P)),
                      pipe.msg(leave_room=mpb.LeaveRoom()),
                      pipe.msg(join_room=mpb.JoinRoom(room_id=r2, role=P)),
                      pipe.msg(join_room=mpb.JoinRoom(room_id=r1, role=S)),
                      pipe.msg(leave_room=mpb.LeaveRoom()),
                      pipe.msg(join_room=mpb.JoinRoom(room_id=r1, role=S)),
                      pipe.msg(join_room=mpb.JoinRoom(room_id=r1, role=P)),
                      pipe.msg(join_room=mpb.JoinRoom(room_id=r2, role=S))]
            await pipe.write(*frames)
            answers = [(await pipe.reply(f.request_id)).WhichOneof("body")
                       for f in frames if not f.HasField("leave_room")]
            assert answers == ["welcome", "joined", "error", "joined", "error", "joined",
                               "error", "error"]
            await busy.reply(flood[-1].request_id)
            rooms = srv.app.lobby.rooms
            holding = [rid for rid, room in rooms.items()
                       if any(m.name.startswith("Pipe#") for m in room.members())]
            assert holding == [r1]
            assert [m.name.partition("#")[0] for m in rooms[r1].spectators.values()] == \
                ["Busy", "Pipe"]
            assert not any(rooms[r2].seats) and not any(rooms[r1].seats)


async def test_resume_tokens_cannot_be_guessed_reused_or_mixed_with_hello(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    with trio.fail_after(15):
        async with serving(tmp_path) as srv:
            (ann, bob), room = await start_game(srv)
            first = ann.token
            for junk in ["", "x" * 129, "x" * 128, "\x00", first[:-1], first + "A",
                         first.swapcase(), bob.session_ids[0]]:
                probe = await Hostile.open(srv, "probe", hello=False)
                assert code(await probe.resume(junk)) == mpb.ERROR_CODE_RESUME_FAILED
                # Still not ready: nothing but Hello or Resume is served.
                assert code(await probe.call(list_rooms=mpb.ListRooms())) == \
                    mpb.ERROR_CODE_NOT_READY
            # Resume only as a connection's first message.
            assert code(await bob.resume(first)) == mpb.ERROR_CODE_INVALID_ARGUMENT
            wrong = await Hostile.open(srv, "probe", hello=False)
            assert code(await wrong.call(resume=mpb.Resume(
                protocol_version=2, resume_token=first))) == mpb.ERROR_CODE_UNSUPPORTED_VERSION
            # The same token on two connections at once: the later replaces the earlier
            # (the presented token stays valid until the new one is used once).
            c1 = await Hostile.open(srv, "c1", hello=False)
            c2 = await Hostile.open(srv, "c2", hello=False)
            m1 = c1.msg(resume=mpb.Resume(protocol_version=1, resume_token=first))
            m2 = c2.msg(resume=mpb.Resume(protocol_version=1, resume_token=first))
            await c1.write(m1)
            await c2.write(m2)
            with trio.fail_after(3):
                async with trio.open_nursery() as race:
                    async def ended(c: Hostile) -> None:
                        await c.eof.wait()
                        race.cancel_scope.cancel()

                    race.start_soon(ended, c1)
                    race.start_soon(ended, c2)
            loser = c1 if c1.close_code is not None else c2
            assert loser.close_code == CLOSE_REPLACED
            holder = c2 if loser is c1 else c1
            assert (await holder.reply((m2 if holder is c2 else m1).request_id)).HasField(
                "resumed")
            # Using the newest token once voids every earlier one.
            winner = await Hostile.open(srv, "c3", hello=False)
            got = await winner.resume(holder.token)
            assert got.HasField("resumed"), (got, holder.name, holder.tokens, loser.tokens)
            resumed = got.resumed
            assert resumed.joined.seat == 0 and resumed.welcome.resume_token != first
            # Hello after Resume, and a second Resume, are refused.
            assert code(await winner.call(hello=mpb.Hello(
                protocol_version=1, display_name="x"))) == mpb.ERROR_CODE_INVALID_ARGUMENT
            assert code(await winner.resume(winner.token)) == mpb.ERROR_CODE_INVALID_ARGUMENT
            # The original connection was replaced (4001), and the rotated token is void.
            with trio.fail_after(3):
                await ann.eof.wait()
            assert ann.close_code == CLOSE_REPLACED
            stale = await Hostile.open(srv, "stale", hello=False)
            assert code(await stale.resume(first)) == mpb.ERROR_CODE_RESUME_FAILED
            snap = await winner.wait(lambda m: m.HasField("snapshot"))
            assert snap.snapshot.view.viewer == 0
            for c in (winner, bob):
                await c.barrier()
                c.assert_own_views_only()
            given = [t for c in (ann, bob, c1, c2, winner) for t in c.tokens]
            tokens = set(given)
            assert srv.game(room).action_count == 0
    assert len(tokens) == len(given) >= 4  # every token given out is new
    assert not any(t in caplog.text for t in tokens)  # never in a log line


async def test_resuming_a_live_seat_closes_the_old_connection_for_good(
        tmp_path: Path) -> None:
    with trio.fail_after(15):
        async with serving(tmp_path) as srv:
            players, room = await start_game(srv)
            decider, d = await decision(srv, players, room)
            seat = 1 - players.index(decider)  # resume the player who is not deciding
            old = players[seat]
            new = await Hostile.open(srv, "new", hello=False)
            reply = await new.resume(old.token, last_state_id=2**64 - 1)
            assert reply.resumed.joined.seat == seat and reply.resumed.snapshot
            with trio.fail_after(3):
                await old.eof.wait()
            assert old.close_code == CLOSE_REPLACED
            got_before = len(old.got)
            mark = len(new.got)
            await answer(srv, room, decider, d)
            await new.wait(lambda m: m.HasField("delta"), start=mark)
            assert len(old.got) == got_before
            snap = await new.wait(lambda m: m.HasField("snapshot"))
            assert snap.snapshot.view.viewer == seat
            new.assert_own_views_only()


async def test_resume_into_a_closed_room_and_an_abrupt_drop_mid_join(tmp_path: Path) -> None:
    limits = Limits(room=RoomConfig(linger_seconds=0.3))
    with trio.fail_after(15):
        async with serving(tmp_path, limits) as srv:
            (ann, bob), room = await start_game(srv)
            token = ann.token
            await ann.abort()
            await bob.write(bob.msg(concede=mpb.ConcedeGame()))
            await bob.wait(lambda m: m.HasField("room_closed"))
            back = await Hostile.open(srv, "back", hello=False)
            reply = await back.resume(token, last_state_id=5)
            assert reply.HasField("resumed") and not reply.resumed.HasField("joined")
            assert code(await back.call(act=mpb.Act(prompt_id=1))) == mpb.ERROR_CODE_NOT_READY
            assert code(await back.join(room)) == mpb.ERROR_CODE_ROOM_NOT_FOUND
            # Clients that drop their TCP connection right after sending a join leave no
            # seat behind (in a quiet room).
            owner = await Hostile.open(srv, "Own")
            r2 = await owner.create(3)
            for i in range(5):
                k = await Hostile.open(srv, f"K{i}")
                k.paused = True
                await k.write(k.msg(join_room=mpb.JoinRoom(room_id=r2, role=P)))
                await k.abort()
            await eventually(lambda: not any(
                (c.session.name or "").startswith("K") for c in srv.app.conns.values())
                and not any(srv.app.lobby.rooms[r2].seats))
            assert (await owner.join(r2)).joined.seat == 0


async def test_bad_frames_are_answered_and_oversize_closes_1009(tmp_path: Path) -> None:
    with trio.fail_after(15):
        async with serving(tmp_path) as srv:
            x = await Hostile.open(srv, "x", hello=False)
            await x.write("hello as text", b"\xff\xff\xff", b"", b"\x08\x05",
                          bytes(range(256)) * 20)
            ok = await x.call(hello=mpb.Hello(protocol_version=1, display_name="x"))
            assert ok.HasField("welcome")
            assert [code(m) for m in x.got[:-1]] == [mpb.ERROR_CODE_BAD_MESSAGE] * 5
            assert (await x.call(list_rooms=mpb.ListRooms())).HasField("room_list")
            await x.write(b"\x00" * (MAX_MESSAGE + 1))
            with trio.fail_after(3):
                await x.eof.wait()
            assert x.close_code == 1009
            assert (await Hostile.open(srv, "y")).tokens  # the server still serves


async def test_clients_that_never_read_stall_no_room(tmp_path: Path) -> None:
    limits = Limits(outbox_size=64, send_timeout=1.0)
    with trio.fail_after(20):
        async with serving(tmp_path, limits) as srv:
            players, room = await start_game(srv)
            # A spectator that stops reading, and a lobby client that stops reading and
            # floods requests (an over-long room id is refused without being echoed).
            deaf = await Hostile.open(srv, "Deaf")
            assert (await deaf.join(room, S)).joined.seat == SPECTATOR
            deaf.paused = True
            mute = await Hostile.open(srv, "Mute")
            mute.paused = True
            big = mpb.JoinRoom(room_id="r" * 60_000, role=P)  # refused: at most 64
            with contextlib.suppress(trio.BrokenResourceError):  # dropped while writing
                for _ in range(10):
                    await mute.write(*[mute.msg(join_room=big) for _ in range(40)])
            game = srv.game(room)
            rng = random.Random(7)
            with trio.fail_after(10):
                while game.action_count < 150 and game.result is None:
                    client, d = await decision(srv, players, room)
                    await answer(srv, room, client, d, rng.randrange(len(d.options)))
            assert game.action_count >= 150 or game.result is not None


async def test_room_limits_per_account_and_per_server(tmp_path: Path) -> None:
    limits = Limits(max_rooms=6, max_rooms_per_account=4)
    with trio.fail_after(15):
        async with serving(tmp_path, limits) as srv:
            a = await Hostile.open(srv, "A")
            answers = [await a.call(create_room=mpb.CreateRoom()) for _ in range(5)]
            assert [m.WhichOneof("body") for m in answers] == ["room_created"] * 4 + ["error"]
            assert code(answers[-1]) == mpb.ERROR_CODE_LIMIT_REACHED
            again = await Hostile.open(srv, "A2", hello=False)
            assert (await again.resume(a.token)).HasField("resumed")
            assert code(await again.call(create_room=mpb.CreateRoom())) == \
                mpb.ERROR_CODE_LIMIT_REACHED  # the limit is the account's, not the socket's
            b = await Hostile.open(srv, "B")
            answers = [await b.call(create_room=mpb.CreateRoom()) for _ in range(3)]
            assert [m.WhichOneof("body") for m in answers] == ["room_created"] * 2 + ["error"]
            assert "maximum of 6 rooms" in answers[-1].error.message
            assert len(srv.app.lobby.rooms) == 6


async def test_a_game_with_hostile_seats_and_spectator_leaks_nothing(tmp_path: Path) -> None:
    rng = random.Random(3)
    with trio.fail_after(20):
        # Eve tries three things every ten actions, faster than the message rate limit
        # (its own test) allows: lift it here.
        async with serving(tmp_path, Limits(message_burst=1000)) as srv:
            ann, bob, eve = [await Hostile.open(srv, n) for n in ("Ann", "Bob", "Eve")]
            room = await ann.create()
            await eve.join(room, S)
            await ann.join(room, deck="golgari-grind")
            await bob.join(room, deck="izzet-spells")
            game = srv.game(room)
            holders = {0: ann, 1: bob}
            everyone = [ann, bob, eve]
            rounds = refused = 0
            while game.action_count < 250 and game.result is None:
                client, d = await decision(srv, holders, room)
                other = holders[1 - d.seat]
                if game.action_count % 10 == 0:  # the other seat and the spectator try
                    rounds += 1
                    tries: list[tuple[Hostile, dict[str, Any]]] = [
                        (other, {"act": mpb.Act(prompt_id=d.prompt_id)}),
                        (eve, {"act": mpb.Act(prompt_id=d.prompt_id)}),
                        (eve, {"concede": mpb.ConcedeGame()}),
                        (eve, {"request_snapshot": mpb.RequestSnapshot()})]
                    for c, body in tries:
                        refused += (await c.call(**body)).HasField("error")
                    assert game.pending is not None and game.pending.prompt_id == d.prompt_id
                if game.action_count % 40 == 20:  # the other seat drops and resumes
                    fresh = await Hostile.open(srv, f"R{other.name}", hello=False)
                    last = rng.choice([0, 1, 2**64 - 1])
                    reply = await fresh.resume(other.token, last)
                    assert reply.resumed.joined.seat == 1 - d.seat
                    holders[1 - d.seat] = fresh
                    everyone.append(fresh)
                await answer(srv, room, client, d, rng.randrange(len(d.options)))
            for c in everyone:
                if not c.eof.is_set():
                    await c.barrier()
            assert rounds > 5 and refused == 3 * rounds
            record = srv.store.load_game(room)
    # Replay the stored game: per viewer, every id that was ever in a zone hidden from it
    # and never in its view.
    replayed = new_game(record.seed, [PlayerSetup(name, resolve(deck, DeckFormat.CONSTRUCTED).main)
                                      for name, deck, _session in record.players])
    viewers = [0, 1, SPECTATOR]
    hidden: dict[int, set[str]] = {v: set() for v in viewers}
    seen: dict[int, set[str]] = {v: set() for v in viewers}

    def collect() -> None:
        for pl in replayed.players:
            for v in viewers:
                hidden[v].update(pl.library)
                if v != pl.seat:
                    hidden[v].update(pl.hand)
        for v in viewers:
            seen[v].update(o.id for o in encode_view(project(replayed, v)).objects)

    collect()
    for seat, action in record.actions:
        apply(replayed, seat, action)
        collect()
    secret = {v: hidden[v] - seen[v] for v in viewers}
    assert all(len(ids) > 50 for ids in secret.values())
    for c in everyone:
        c.assert_own_views_only()
        foreign_tokens = {t for o in everyone for t in o.tokens} - set(c.tokens)
        foreign_sessions = {s for o in everyone for s in o.session_ids} - set(c.session_ids)
        for data in c.raw:
            assert record.seed not in data
            for token in foreign_tokens:
                assert token.encode() not in data
            for sid in foreign_sessions:
                assert sid.encode() not in data
            for v in c.seats:
                for oid in secret[v]:
                    assert oid.encode() not in data, f"{oid} leaked to {c.name} (viewer {v})"
