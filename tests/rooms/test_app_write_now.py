"""A room's messages written from the room's own task (``_Connection.write_now``), over
memory sockets that can also send at once (:class:`server.sending.ImmediateSocket`).

While a player's writer waits with nothing queued, the messages one room step has for that
player -- an action's delta, the decision that follows and the clocks -- leave as one
``ServerBatch`` frame from the room task itself, not a scheduler round later from the
writer. A frame the socket took only in part is finished by the writer before anything
else; a socket that can't send at once gets everything through its writer, in order.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import trio
import trio.lowlevel
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.app import App
from server.sending import ImmediateSocket, SendNow
from tests.rooms.test_app_memory import MemorySocket, running_app


class ImmediateMemorySocket(MemorySocket):
    """A memory socket whose ``send_now`` does what ``answer`` says: SENT delivers the
    frame, STARTED holds it back until ``flush`` (as a kernel taking part of it would),
    NOT_NOW does nothing."""

    def __init__(self) -> None:
        super().__init__()
        self.answer = SendNow.SENT
        #: (how each delivered frame left: "now" or "writer", the task that sent it).
        self.how: list[tuple[str, str]] = []
        self.held: bytes | None = None
        self.sent_while_held = 0

    def send_now(self, data: bytes) -> SendNow:
        answer = self.answer
        if answer is SendNow.NOT_NOW:
            return answer
        assert self.held is None  # the app never writes past a frame left unsent
        if answer is SendNow.STARTED:
            self.held = data
        else:
            self._deliver(data, "now")
        return answer

    async def flush(self) -> None:
        if self.held is not None:
            data, self.held = self.held, None
            self._deliver(data, "flush")
        await trio.lowlevel.checkpoint()

    async def send(self, data: bytes) -> None:
        if self.held is not None:
            self.sent_while_held += 1
        self._deliver(data, "writer")
        await trio.lowlevel.checkpoint()

    def _deliver(self, data: bytes, how: str) -> None:
        self._outgoing.send_nowait(data)
        self.how.append((how, trio.lowlevel.current_task().name))


def _messages(frame: bytes) -> list[mpb.ServerMessage]:
    """The messages of a ServerBatch frame."""
    return list(mpb.ServerBatch.FromString(frame).messages)


async def _seated_pair(app: App) -> tuple[ImmediateMemorySocket, ImmediateMemorySocket]:
    """Two batching players seated in one room, whose game has started; everything sent
    to them so far read."""
    socks = ImmediateMemorySocket(), ImmediateMemorySocket()
    assert all(isinstance(sock, ImmediateSocket) for sock in socks)
    for n, sock in enumerate(socks):
        app.lobby.nursery.start_soon(app.handle_connection, sock)
        await sock.to_server.send(mpb.ClientMessage(request_id=1, hello=mpb.Hello(
            protocol_version=1, display_name=f"P{n}", batched=True)).SerializeToString())
        welcome = mpb.ServerMessage.FromString(await sock.from_server.receive())
        assert welcome.welcome.batched
    await socks[0].to_server.send(mpb.ClientMessage(
        request_id=2, create_room=mpb.CreateRoom(name="t")).SerializeToString())
    room_id = ""
    while not room_id:
        for msg in _messages(await socks[0].from_server.receive()):
            room_id = msg.room_created.room.room_id or room_id
    for sock in socks:
        await sock.to_server.send(mpb.ClientMessage(request_id=3, join_room=mpb.JoinRoom(
            room_id=room_id, role=mpb.ROLE_PLAYER)).SerializeToString())
    await trio.testing.wait_all_tasks_blocked()
    for sock in socks:
        _drain(sock)
        sock.how.clear()
    return socks


def _drain(sock: ImmediateMemorySocket) -> list[mpb.ServerMessage]:
    out: list[mpb.ServerMessage] = []
    while True:
        try:
            frame = sock.from_server.receive_nowait()
        except trio.WouldBlock:
            return out
        out.extend(_messages(frame))


def _decision_of(app: App) -> tuple[int, int]:
    """The seat that must decide now and the pending prompt's id."""
    (host,) = app.lobby.hosts.values()
    game = host.room.game
    assert game is not None and game.pending is not None
    return game.pending.seat, game.pending.prompt_id


async def _act(app: App, socks: tuple[ImmediateMemorySocket, ...]) -> None:
    seat, prompt_id = _decision_of(app)
    await socks[seat].to_server.send(mpb.ClientMessage(request_id=9, act=mpb.Act(
        prompt_id=prompt_id, option_index=0)).SerializeToString())
    await trio.testing.wait_all_tasks_blocked()


async def test_an_actions_messages_leave_from_the_room_task_in_one_frame_per_player(
        tmp_path: Path) -> None:
    async with running_app(tmp_path) as app:
        socks = await _seated_pair(app)
        for _ in range(5):
            await _act(app, socks)
            for sock in socks:
                assert sock.how, "each player is told of every action"
                assert all(how == "now" and task.startswith("room-")
                           for how, task in sock.how), sock.how
                assert len(sock.how) == 1  # one frame: the delta and what follows it
                kinds = [m.WhichOneof("body") for m in _drain(sock)]
                assert kinds[0] == "delta"
                sock.how.clear()


async def test_the_rest_of_a_frame_written_in_part_leaves_before_anything_after_it(
        tmp_path: Path) -> None:
    async with running_app(tmp_path) as app:
        socks = await _seated_pair(app)
        for sock in socks:
            sock.answer = SendNow.STARTED  # the kernel takes part of the next frame
        await _act(app, socks)
        for sock in socks:
            sock.answer = SendNow.SENT
        for _ in range(3):
            await _act(app, socks)
        for sock in socks:
            assert sock.held is None and sock.sent_while_held == 0
            assert sock.how[0][0] == "flush"  # by the writer, before any later frame
            assert all(how == "now" for how, _task in sock.how[1:])
            deltas = [m.delta for m in _drain(sock) if m.HasField("delta")]
            assert len(deltas) == 4  # every action's, in order
            assert all(b.prev_state_id == a.state_id for a, b in itertools.pairwise(deltas))


async def test_a_socket_that_cannot_send_at_once_gets_everything_from_its_writer(
        tmp_path: Path) -> None:
    async with running_app(tmp_path) as app:
        socks = await _seated_pair(app)
        for sock in socks:
            sock.answer = SendNow.NOT_NOW
        for _ in range(5):
            await _act(app, socks)
        for sock in socks:
            assert sock.how and all(how == "writer" for how, _task in sock.how)
            deltas = [m.delta for m in _drain(sock) if m.HasField("delta")]
            assert len(deltas) >= 5
            assert all(b.prev_state_id == a.state_id for a, b in itertools.pairwise(deltas))


async def test_messages_already_queued_are_never_overtaken(tmp_path: Path) -> None:
    """A player's writer with messages queued (here: it can't send at once) isn't idle:
    the next room step's messages queue behind them rather than being written first."""
    async with running_app(tmp_path) as app:
        socks = await _seated_pair(app)
        acting, _ = _decision_of(app)
        other = socks[1 - acting]
        other_conn = next(c for c in app.conns.values() if c.sock is other)
        other.answer = SendNow.NOT_NOW
        # Queue a message for the other player without letting its writer run.
        other_conn.reply(mpb.ServerMessage(request_id=77).SerializeToString())
        assert not other_conn.writer_idle
        other.answer = SendNow.SENT
        await _act(app, socks)
        msgs = _drain(other)
        assert msgs[0].request_id == 77
        assert any(m.HasField("delta") for m in msgs[1:])


class UnyieldingSocket(ImmediateMemorySocket):
    """Its ``send`` never reaches a checkpoint, as a WebSocket's doesn't when the kernel
    takes the frame at once."""

    async def send(self, data: bytes) -> None:
        self._deliver(data, "writer")


async def test_a_writer_with_a_deep_outbox_lets_other_tasks_run_between_frames(
        tmp_path: Path) -> None:
    """Invariant 7's other side: one client's long queue never holds the event loop."""
    async with running_app(tmp_path) as app:
        sock = UnyieldingSocket()
        app.lobby.nursery.start_soon(app.handle_connection, sock)
        await sock.to_server.send(mpb.ClientMessage(request_id=1, hello=mpb.Hello(
            protocol_version=1, display_name="plain")).SerializeToString())
        assert mpb.ServerMessage.FromString(await sock.from_server.receive()).welcome
        await trio.testing.wait_all_tasks_blocked()
        (conn,) = app.conns.values()
        sock.how.clear()
        count = 50
        seen: list[int] = []

        async def watch() -> None:
            for _ in range(10 * count):
                seen.append(len(sock.how))
                if len(sock.how) >= count:
                    return
                await trio.lowlevel.checkpoint()

        for n in range(count):  # one frame each: the client didn't ask for batches
            conn.reply(mpb.ServerMessage(request_id=100 + n).SerializeToString())
        async with trio.open_nursery() as nursery:
            nursery.start_soon(watch)
        assert len(sock.how) == count
        assert len(set(seen)) > count // 2  # the watcher ran between the frames
