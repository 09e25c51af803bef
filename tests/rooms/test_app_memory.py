"""Session-level tests of the app over trio memory channels (no network, autojump clock)."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.app import App, Limits
from server.rooms.lobby import LISTING_SECONDS
from server.sending import SocketClosed
from server.store import Store
from server.store.writer import StoreWriter


class MemorySocket:
    """A :class:`server.sending.Socket` over memory channels."""

    def __init__(self, out_buffer: int = 1000, in_buffer: int = 100,
                 address: str = "memory") -> None:
        self.address = address
        self.to_server, self._incoming = trio.open_memory_channel[bytes](in_buffer)
        self._outgoing, self.from_server = trio.open_memory_channel[bytes](out_buffer)
        self.closed: tuple[int, str] | None = None

    async def recv(self) -> bytes | str:
        try:
            return await self._incoming.receive()
        except (trio.EndOfChannel, trio.ClosedResourceError):
            raise SocketClosed from None

    async def send(self, data: bytes) -> None:
        await self._outgoing.send(data)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)

    async def request(self, **body: object) -> mpb.ServerMessage:
        await self.to_server.send(mpb.ClientMessage(request_id=1, **body).SerializeToString())  # type: ignore[arg-type]
        while True:
            msg = mpb.ServerMessage.FromString(await self.from_server.receive())
            if msg.request_id == 1:
                return msg


@asynccontextmanager
async def running_app(tmp_path: Path, limits: Limits | None = None, *,
                      paced_joins: bool = False) -> AsyncIterator[App]:
    """An App on a fresh store, cancelled and closed on exit. Spectators' joins are not
    paced by the event loop's load (that depends on the machine's speed, and these tests
    read the answers as soon as every task waits) unless ``paced_joins``."""
    if not paced_joins:
        limits = replace(limits or Limits(), spectator_join_interval=0.0)
    store = Store(tmp_path / "db.sqlite3")
    try:
        async with trio.open_nursery() as nursery:
            # Writes inline: the autojump clock would take a writer thread's work for idle
            # time and jump ahead (the threaded writer is tested on its own and end to end).
            yield App(store, nursery, limits, writer=StoreWriter(store, inline=True))
            nursery.cancel_scope.cancel()
    finally:
        store.close()


def _hello(name: str) -> dict[str, object]:
    return {"hello": mpb.Hello(protocol_version=1, display_name=name)}


async def _two_players(app: App, clock_seconds: int = 0
                       ) -> tuple[MemorySocket, MemorySocket, str]:
    """Ann and Bob say hello; Ann creates a room; both take a seat."""
    a, b = MemorySocket(), MemorySocket()
    app.lobby.nursery.start_soon(app.handle_connection, a)
    app.lobby.nursery.start_soon(app.handle_connection, b)
    await a.request(**_hello("Ann"))
    await b.request(**_hello("Bob"))
    created = await a.request(create_room=mpb.CreateRoom(name="t", clock_seconds=clock_seconds))
    room = created.room_created.room
    for seat, sock in enumerate((a, b)):
        joined = await sock.request(join_room=mpb.JoinRoom(room_id=room.room_id,
                                                           role=mpb.ROLE_PLAYER))
        assert joined.joined.seat == seat
    return a, b, room.room_id


async def test_invariant_7_a_client_that_stops_reading_is_disconnected_not_waited_for(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path, Limits(outbox_size=4, send_timeout=5.0)) as app:
        nursery = app.lobby.nursery
        slow = MemorySocket(out_buffer=0)  # nobody ever reads what the server sends
        nursery.start_soon(app.handle_connection, slow)
        for _ in range(10):
            await slow.to_server.send(mpb.ClientMessage(
                list_rooms=mpb.ListRooms()).SerializeToString())
        await trio.sleep(30)
        assert slow.closed is not None and slow.closed[0] == 1013
        assert app.refusals.totals["slow"] == 1  # (the operator's log and metrics say so)
        # The server still serves others.
        fine = MemorySocket()
        nursery.start_soon(app.handle_connection, fine)
        assert (await fine.request(**_hello("Ann"))).HasField("welcome")


async def test_invariant_7_a_send_not_taken_in_send_timeout_drops_the_client_not_a_quiet_one(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """A frame the client doesn't take within ``send_timeout`` (its receive window full)
    closes it with 1013, though its outbox never filled; a connection with nothing to be
    sent stays open however long it is quiet (the deadline runs only during a send)."""
    async with running_app(tmp_path, Limits(outbox_size=64, send_timeout=5.0)) as app:
        nursery = app.lobby.nursery
        quiet = MemorySocket()
        nursery.start_soon(app.handle_connection, quiet)
        assert (await quiet.request(**_hello("Quiet"))).HasField("welcome")
        stuck = MemorySocket(out_buffer=0)  # takes nothing: its first frame never leaves
        nursery.start_soon(app.handle_connection, stuck)
        await stuck.to_server.send(mpb.ClientMessage(
            request_id=1, **_hello("Stuck")).SerializeToString())  # type: ignore[arg-type]
        await trio.sleep(4.9)
        assert stuck.closed is None
        await trio.sleep(0.2)
        assert stuck.closed == (1013, "client too slow: send timed out")
        await trio.sleep(60)
        assert quiet.closed is None
        assert app.refusals.totals["slow"] == 1
        assert (await quiet.request(list_rooms=mpb.ListRooms())).HasField("room_list")


async def test_invariant_7_each_stuck_send_is_dropped_at_its_own_deadline_while_others_flow(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """One watchdog keeps every connection's send deadline: two clients whose first frame
    never leaves, 2 s apart, are each dropped ``send_timeout`` after their own send began,
    while a client whose sends keep completing (one every half second) is never dropped."""
    async with running_app(tmp_path, Limits(outbox_size=64, send_timeout=5.0)) as app:
        nursery = app.lobby.nursery
        busy = MemorySocket()
        nursery.start_soon(app.handle_connection, busy)
        assert (await busy.request(**_hello("Busy"))).HasField("welcome")
        start = trio.current_time()
        stuck: list[MemorySocket] = []
        for n in range(2):
            sock = MemorySocket(out_buffer=0)
            nursery.start_soon(app.handle_connection, sock)
            await sock.to_server.send(mpb.ClientMessage(
                request_id=1, **_hello(f"Stuck{n}")).SerializeToString())  # type: ignore[arg-type]
            stuck.append(sock)
            for _ in range(4):
                assert (await busy.request(list_rooms=mpb.ListRooms())).HasField("room_list")
                await trio.sleep(0.5)
        # Stuck0's send began at ~0 s, Stuck1's at ~2 s (4 x 0.5 s of requests apart).
        await trio.sleep_until(start + 4.9)
        assert [s.closed for s in stuck] == [None, None]
        await trio.sleep_until(start + 5.1)
        assert stuck[0].closed == (1013, "client too slow: send timed out")
        assert stuck[1].closed is None
        await trio.sleep_until(start + 6.9)
        assert stuck[1].closed is None
        await trio.sleep_until(start + 7.1)
        assert stuck[1].closed == (1013, "client too slow: send timed out")
        for _ in range(40):  # 20 s more of completing sends: never dropped
            assert (await busy.request(list_rooms=mpb.ListRooms())).HasField("room_list")
            await trio.sleep(0.5)
        assert busy.closed is None


async def test_only_the_deciding_seat_may_act_and_stale_prompts_are_refused(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        a, b, room_id = await _two_players(app)
        game = app.lobby.rooms[room_id].game
        await trio.testing.wait_all_tasks_blocked()
        assert game is not None and game.pending is not None
        waiting = a if game.pending.seat == 1 else b
        deciding = b if waiting is a else a
        reply = await waiting.request(act=mpb.Act(prompt_id=game.pending.prompt_id))
        assert reply.error.code == mpb.ERROR_CODE_NOT_YOUR_DECISION
        reply = await deciding.request(act=mpb.Act(prompt_id=game.pending.prompt_id + 5))
        assert reply.error.code == mpb.ERROR_CODE_STALE_PROMPT
        reply = await deciding.request(act=mpb.Act(prompt_id=game.pending.prompt_id,
                                                   option_index=999))
        assert reply.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT
        assert game.action_count == 0
        # An answer sent twice, the decision having passed to the other player meanwhile:
        # its prompt is over (it said "no decision is pending for you").
        seat = 0 if deciding is a else 1
        for _ in range(50):  # its answers until the other player decides
            answered = game.pending.prompt_id
            await deciding.to_server.send(mpb.ClientMessage(
                act=mpb.Act(prompt_id=answered)).SerializeToString())  # (no reply: deltas)
            await trio.testing.wait_all_tasks_blocked()
            if game.pending.seat != seat:
                break
        assert game.pending.seat != seat
        reply = await deciding.request(act=mpb.Act(prompt_id=answered))
        assert reply.error.code == mpb.ERROR_CODE_STALE_PROMPT, reply
        reply = await a.request(join_room=mpb.JoinRoom(room_id="nope", role=mpb.ROLE_PLAYER))
        assert reply.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT  # already in a room


async def test_lobby_lists_rooms_and_unknown_rooms_are_errors(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        nursery = app.lobby.nursery
        a = MemorySocket()
        nursery.start_soon(app.handle_connection, a)
        await a.request(**_hello("Ann"))
        await a.request(create_room=mpb.CreateRoom(name="one"))
        rooms = (await a.request(list_rooms=mpb.ListRooms())).room_list.rooms
        assert [(r.name, r.seats, r.started) for r in rooms] == [("one", 2, False)]
        reply = await a.request(join_room=mpb.JoinRoom(room_id="nope", role=mpb.ROLE_PLAYER))
        assert reply.error.code == mpb.ERROR_CODE_ROOM_NOT_FOUND
        reply = await a.request(join_room=mpb.JoinRoom(room_id=rooms[0].room_id,
                                                       role=mpb.ROLE_PLAYER, deck="nonsense"))
        assert reply.error.code == mpb.ERROR_CODE_INVALID_DECK
        assert "naya-pets" in reply.error.message  # a one-word deck: the demo decks listed
        reply = await a.request(act=mpb.Act(prompt_id=1))
        assert reply.error.code == mpb.ERROR_CODE_NOT_READY


async def test_the_room_list_is_built_at_most_once_a_second_or_when_a_room_opens_or_closes(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """``ListRooms`` walks every room: asked 20 times a second by each of many connections,
    building it each time took the event loop from the games. It is answered from the last
    list built until a room opens or closes, or for LISTING_SECONDS (a room's players show
    that late at most)."""
    async with running_app(tmp_path) as app:
        built = 0
        listing = app.lobby.listing

        def counted() -> mpb.RoomList:
            nonlocal built
            built += 1
            return listing()

        app.lobby.listing = counted  # type: ignore[method-assign]
        a, b, room_id = await _two_players(app)
        first = await a.request(list_rooms=mpb.ListRooms())
        assert built == 1 and [r.room_id for r in first.room_list.rooms] == [room_id]
        for _ in range(50):
            again = await b.request(list_rooms=mpb.ListRooms())
            assert again.room_list == first.room_list and again.request_id == 1
        assert built == 1
        await trio.sleep(LISTING_SECONDS)  # old enough: built again, with the room started
        (room,) = (await a.request(list_rooms=mpb.ListRooms())).room_list.rooms
        assert built == 2 and room.started and len(room.players) == 2
        await a.request(create_room=mpb.CreateRoom(name="two"))  # a new room: at once
        rooms = (await a.request(list_rooms=mpb.ListRooms())).room_list.rooms
        assert built == 3 and [r.name for r in rooms] == ["t", "two"]


async def test_a_player_whose_clock_runs_out_concedes_so_no_client_stalls_the_room(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        a, _b, room_id = await _two_players(app, clock_seconds=60)
        assert app.lobby.rooms[room_id].info().clock_seconds == 60
        room = app.lobby.rooms[room_id]
        game = room.game
        await trio.testing.wait_all_tasks_blocked()
        assert game is not None and game.pending is not None
        deciding = game.pending.seat
        clocks = mpb.ServerMessage.FromString(room.clocks(trio.current_time())).clocks.seats
        assert [c.running for c in clocks] == [s == deciding for s in range(2)]
        await trio.sleep(59)  # one second left: nothing happens yet
        assert game.result is None
        await trio.sleep(2)
        await trio.testing.wait_all_tasks_blocked()
        assert game.result is not None and deciding not in game.result.winners
        assert room.remaining[deciding] == 0.0 and room.remaining[1 - deciding] == 60.0
        # The players are told the clocks as the game ended: stopped, the loser's at 0 (a
        # client counts a running clock down itself and would otherwise show its last).
        told = []
        while True:
            try:
                told.append(mpb.ServerMessage.FromString(a.from_server.receive_nowait()))
            except trio.WouldBlock:
                break
        last = [m.clocks for m in told if m.HasField("clocks")][-1]
        assert [(c.remaining_ms, c.running) for c in last.seats] == \
            [(0 if s == deciding else 60_000, False) for s in range(2)]


async def test_clock_seconds_beyond_a_day_is_refused(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        a = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, a)
        await a.request(**_hello("Ann"))
        reply = await a.request(create_room=mpb.CreateRoom(name="x", clock_seconds=10**6))
        assert reply.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT


async def test_a_store_that_cannot_forget_a_session_leaves_the_server_running(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
        ) -> None:
    """A full disk: deleting a forgotten session's row raised in the task beside every room
    and connection, and the whole server stopped with the traceback. The row stays (the
    next start prunes it); the store's condition is logged once (not a warning for each
    row); the server goes on."""
    async with running_app(tmp_path) as app:
        def full(ops: object) -> None:
            raise sqlite3.OperationalError("database or disk is full")

        monkeypatch.setattr(app.writer.store, "apply", full)
        with caplog.at_level(logging.WARNING, logger="manawire"):
            await app.session_desk._drop_session("gone")
            await app.session_desk._drop_session("gone too")
        assert [r.getMessage().partition(" (")[0] for r in caplog.records] == \
            ["store: writes fail: database or disk is full"]
        monkeypatch.undo()
        a = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, a)
        assert (await a.request(**_hello("Ann"))).HasField("welcome")


async def test_a_game_whose_stored_records_cant_be_read_is_aborted_and_the_others_served(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """One action row a newer build wrote (a field this one doesn't know) stopped the whole
    server from starting, with a traceback: now that game alone is aborted, as a game whose
    replay fails is."""
    from server.engine.actions import PassPriority
    from server.store.records import AppendAction, CreateGame

    def game(room: str) -> CreateGame:
        return CreateGame(room, "t", room.encode() * 8, (("Ann", "naya-pets", "s1"),
                                                         ("Bob", "golgari-grind", "s2")), 60.0)

    store = Store(tmp_path / "db.sqlite3")
    store.apply([game("good"), game("bad"), AppendAction("bad", 1, 0, PassPriority(), ())])
    store.close()
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        db.execute("""UPDATE actions SET action = '{"type": "PassPriority", "new": 1}' """
                   "WHERE room_id = 'bad'")
    db.close()
    caplog.set_level(logging.ERROR, logger="manawire")
    async with running_app(tmp_path) as app:
        assert app.recover() == 1
        assert list(app.lobby.hosts) == ["good"]
        assert [r.room_id for r in app.store.unfinished_games()] == ["good"]
    assert "could not recover room bad" in caplog.text and "unknown field" in caplog.text
