"""Batched frames (Hello.batched, ServerBatch): the framing on its own, the app's writer over
memory channels, and the SDK's splitting of a frame back into its messages."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing

from client_sdk.client import ProtocolError, read_batch
from protocol.v1 import messages_pb2 as mpb
from server.transport.batch import MAX_BATCH_BYTES, MAX_BATCH_MESSAGES, Batcher, batch_entry
from tests.rooms.test_app_memory import MemorySocket, running_app


def _msg(request_id: int, **body: object) -> bytes:
    return mpb.ServerMessage(request_id=request_id, **body).SerializeToString()  # type: ignore[arg-type]


def split_batch(frame: bytes) -> list[bytes]:
    """A batch frame's messages as bytes, read the way the SDK reads them."""
    return [m.SerializeToString() for m in read_batch(frame)]


WELCOME = _msg(1, welcome=mpb.Welcome(session_id="s", batched=True))


def _queue(*items: bytes) -> trio.MemoryReceiveChannel[bytes]:
    send, receive = trio.open_memory_channel[bytes](len(items) + 1)
    for item in items:
        send.send_nowait(item)
    return receive


def test_a_batch_is_the_concatenation_of_its_messages_and_decodes_as_servermessages() -> None:
    messages = [_msg(n, room_closed=mpb.RoomClosed(room_id=f"r{n}", reason="x" * n))
                for n in (1, 200, 20_000)]  # lengths of 1, 2 and 3 varint bytes
    frame = b"".join(batch_entry(m) for m in messages)
    assert [m.SerializeToString() for m in mpb.ServerBatch.FromString(frame).messages] \
        == messages
    assert split_batch(frame) == messages


@pytest.mark.parametrize("frame", [b"", b"\x08\x01", b"\x0a", b"\x0a\x05abc",
                                   b"\x0a\xff\xff"])
def test_the_sdk_refuses_a_broken_batch_frame(frame: bytes) -> None:
    with pytest.raises(ProtocolError):
        read_batch(frame)


def test_messages_go_plain_until_the_confirming_welcome_then_in_one_batch() -> None:
    error = _msg(1, error=mpb.Error(code=mpb.ERROR_CODE_UNAUTHENTICATED))
    later = [_msg(0, room_closed=mpb.RoomClosed(room_id=str(n))) for n in range(3)]
    batcher = Batcher()
    receive = _queue(WELCOME, *later)
    assert batcher.frames(error, receive, requested=True) == [error]
    assert not batcher.batching
    frames = batcher.frames(receive.receive_nowait(), receive, requested=True)
    assert frames == [WELCOME, b"".join(batch_entry(m) for m in later)]
    assert batcher.batching


def test_a_client_that_did_not_ask_gets_one_message_per_frame() -> None:
    plain_welcome = _msg(1, welcome=mpb.Welcome(session_id="s"))
    later = [_msg(0, room_closed=mpb.RoomClosed(room_id=str(n))) for n in range(3)]
    batcher = Batcher()
    receive = _queue(*later)
    # One message per wake-up: the rest stays queued (the outbox bound counts it).
    assert batcher.frames(plain_welcome, receive, requested=True) == [plain_welcome]
    assert [batcher.frames(receive.receive_nowait(), receive, requested=True)
            for _ in later] == [[m] for m in later]
    assert not batcher.batching
    # Not asked: nothing is even looked at, a Welcome saying batched included.
    receive = _queue(*later)
    assert Batcher().frames(WELCOME, receive, requested=False) == [WELCOME]
    assert receive.receive_nowait() == later[0]


def test_a_batch_stays_under_its_byte_and_message_bounds_and_loses_nothing() -> None:
    big = _msg(0, room_closed=mpb.RoomClosed(reason="x" * (MAX_BATCH_BYTES // 3)))
    small = _msg(0, room_closed=mpb.RoomClosed(room_id="s"))
    batcher = Batcher()
    batcher.batching = True
    frames = batcher.frames(big, _queue(big, big, small), requested=True)
    assert len(frames) == 2 and all(len(f) <= MAX_BATCH_BYTES for f in frames)
    assert [m for f in frames for m in split_batch(f)] == [big, big, big, small]
    many = [_msg(n) for n in range(MAX_BATCH_MESSAGES + 5)]
    receive = _queue(*many[1:])
    first = [m for f in batcher.frames(many[0], receive, requested=True)
             for m in split_batch(f)]
    assert len(first) == MAX_BATCH_MESSAGES  # one wake-up takes a bounded number
    rest = [m for f in batcher.frames(receive.receive_nowait(), receive, requested=True)
            for m in split_batch(f)]
    assert first + rest == many


async def _frames_until_quiet(sock: MemorySocket) -> list[bytes]:
    await trio.testing.wait_all_tasks_blocked()
    frames = []
    while True:
        try:
            frames.append(sock.from_server.receive_nowait())
        except trio.WouldBlock:
            return frames


async def test_one_action_reaches_a_batched_player_as_one_frame_and_a_plain_one_as_several(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """The delta, the decision and the clocks of an action travel in one ServerBatch for a
    client that asked (Hello.batched); a client that didn't gets a frame per message, as
    protocol v1 always did."""
    async with running_app(tmp_path) as app:
        a, b = MemorySocket(), MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, a)
        app.lobby.nursery.start_soon(app.handle_connection, b)
        welcome = await a.request(hello=mpb.Hello(protocol_version=1, display_name="Ann",
                                                  batched=True))
        assert welcome.welcome.batched
        assert not (await b.request(hello=mpb.Hello(protocol_version=1,
                                                    display_name="Bob"))).welcome.batched
        room = (await b.request(create_room=mpb.CreateRoom(name="t"))).room_created.room
        await b.request(join_room=mpb.JoinRoom(room_id=room.room_id, role=mpb.ROLE_PLAYER))
        await _frames_until_quiet(b)
        await a.to_server.send(mpb.ClientMessage(request_id=2, join_room=mpb.JoinRoom(
            room_id=room.room_id, role=mpb.ROLE_PLAYER)).SerializeToString())
        joined = [split_batch(f) for f in await _frames_until_quiet(a)]
        kinds = [mpb.ServerMessage.FromString(m).WhichOneof("body") for f in joined for m in f]
        assert kinds[:2] == ["joined", "snapshot"]
        await _frames_until_quiet(b)
        game = app.lobby.rooms[room.room_id].game
        assert game is not None and game.pending is not None
        for _ in range(6):  # a few actions, whoever decides
            pending = game.pending
            assert pending is not None
            sock = b if pending.seat == 0 else a  # Bob joined first
            await sock.to_server.send(mpb.ClientMessage(request_id=9, act=mpb.Act(
                prompt_id=pending.prompt_id)).SerializeToString())
            a_frames, b_frames = await _frames_until_quiet(a), await _frames_until_quiet(b)
            assert len(a_frames) == 1  # everything for Ann at once
            a_kinds = [mpb.ServerMessage.FromString(m).WhichOneof("body")
                       for m in split_batch(a_frames[0])]
            b_kinds = [mpb.ServerMessage.FromString(m).WhichOneof("body") for m in b_frames]
            assert a_kinds[0] == b_kinds[0] == "delta"
            assert ("decision" in a_kinds) == (game.pending.seat == 1)
            assert ("decision" in b_kinds) == (game.pending.seat == 0)
