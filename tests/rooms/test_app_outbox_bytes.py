"""What one connection's outbox may hold, in bytes as well as in messages (attacker round
14: clients that asked for the room list 19 times a second and never read were each held
a fresh copy of a 568 KB list per request -- 64 of them took the server from 194 MB to
1 GB -- until the send timeout dropped them). Over trio memory channels, autojump clock."""

from __future__ import annotations

import random
from collections import deque
from pathlib import Path

import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.app import CLOSE_TOO_SLOW, Limits, _Connection
from server.ratelimit import MessageLimiter
from server.rooms.session import Session
from server.sending import BIG_MESSAGE, OutboxBytes
from tests.rooms.test_app_memory import MemorySocket, running_app

FLOOD = 50


def _list_rooms(rid: int) -> bytes:
    return mpb.ClientMessage(request_id=rid, list_rooms=mpb.ListRooms()).SerializeToString()


async def _drain(sock: MemorySocket) -> list[bytes]:
    """Every frame the server has for ``sock`` (it waits for none longer than a second)."""
    frames: list[bytes] = []
    while True:
        with trio.move_on_after(1):
            frames.append(await sock.from_server.receive())
            continue
        return frames


async def test_a_client_that_asks_for_the_room_list_and_never_reads_is_held_two_at_most(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """A ``ListRooms`` while the last list sent to the client is still in its outbox is
    answered ``RATE_LIMITED`` (under its own request id): the server holds one list being
    sent and one queued, whatever the client asks -- and everyone else is answered."""
    async with running_app(tmp_path, Limits(send_timeout=60.0)) as app:
        for _ in range(300):  # a busy lobby: long names of four-byte characters
            app.lobby.create("\U0001F600" * 64, 8)
        listing = len(app.lobby.listing_message())
        assert listing > 80_000
        slow = MemorySocket(out_buffer=0)  # each frame waits until the test takes it
        app.lobby.nursery.start_soon(app.handle_connection, slow)
        assert (await slow.request(hello=mpb.Hello(protocol_version=1,
                                                   display_name="Slow"))).HasField("welcome")
        rids = range(10, 10 + FLOOD)
        for rid in rids:  # within the message rate's burst: every one is handled
            await slow.to_server.send(_list_rooms(rid))
        await trio.sleep(5)  # it reads nothing meanwhile
        assert slow.closed is None
        # What the server held for it is what it sends once the client reads again.
        frames = await _drain(slow)
        held = sum(len(frame) for frame in frames)
        assert held < 2 * listing + FLOOD * 200, (held, listing)
        answers = [mpb.ServerMessage.FromString(frame) for frame in frames]
        assert sorted(m.request_id for m in answers) == list(rids)  # each one, once
        lists = [m.request_id for m in answers if m.HasField("room_list")]
        assert lists == [10, 11]
        for m in answers:
            if not m.HasField("room_list"):
                assert m.error.code == mpb.ERROR_CODE_RATE_LIMITED
                assert m.error.message == ("the room list you asked for before hasn't been "
                                           "sent to you yet: ask again once it has arrived")
        # Read, it is answered again; so is anyone else.
        assert len((await slow.request(list_rooms=mpb.ListRooms())).room_list.rooms) == 300
        fine = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, fine)
        await fine.request(hello=mpb.Hello(protocol_version=1, display_name="Fine"))
        assert len((await fine.request(list_rooms=mpb.ListRooms())).room_list.rooms) == 300


def _connection(max_bytes: int) -> tuple[_Connection, trio.MemoryReceiveChannel[bytes]]:
    send, receive = trio.open_memory_channel[bytes](1024)
    return _Connection(1, Session(), send, MessageLimiter(20.0, 60, 200),
                       outbox=OutboxBytes(max_bytes)), receive


async def test_the_outbox_holds_big_messages_up_to_its_bytes_then_the_client_is_dropped(
) -> None:
    conn, receive = _connection(100_000)
    big = b"x" * 30_000
    for _ in range(3):
        assert conn.reply(big)
    assert conn.reply(b"small" * 100)  # (under BIG_MESSAGE: bounded by the count)
    receive.receive_nowait()  # the writer takes one: its bytes are free again
    assert conn.reply(big)
    assert conn.close_code == 0
    assert not conn.reply(big)  # 120,000 bytes: over
    assert (conn.close_code, conn.close_reason) == (
        CLOSE_TOO_SLOW, "client too slow: outbox over 0.0953674 MiB")
    # One message bigger than the limit alone is queued.
    alone, _ = _connection(100_000)
    assert alone.reply(b"x" * 300_000)
    assert alone.close_code == 0
    assert not alone.reply(b"x" * BIG_MESSAGE)


async def test_the_outbox_bytes_counted_are_those_of_the_big_messages_still_in_it() -> None:
    rng = random.Random(14)
    conn, receive = _connection(1 << 40)
    queued: deque[bytes] = deque()
    for _ in range(5000):
        if queued and rng.random() < 0.45:
            assert receive.receive_nowait() is queued.popleft()
        elif len(queued) < 1024:
            data = bytes(rng.choice((10, 500, BIG_MESSAGE - 1, BIG_MESSAGE, 5000, 70_000)))
            assert conn.reply(data)
            queued.append(data)
        conn.outbox.taken(len(queued))
        assert conn.outbox.total == sum(len(m) for m in queued if len(m) >= BIG_MESSAGE)
        assert conn.outbox.big_messages == sum(1 for m in queued if len(m) >= BIG_MESSAGE)
