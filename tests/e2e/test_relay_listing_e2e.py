"""Room lists asked for on a relay port by clients that never read, over real loopback
WebSockets and a relay process (``manawire serve --relays``): they are answered as on the
server's port -- one big list at a time, the rest ``RATE_LIMITED`` -- and the relay, its
link and its other clients carry on.

The attack (round 16, HIGH): 64 connections to a relay port, each asking for a ~184 KB room
list 55 times and never reading, broke the server's link to the relay within 2 s (64 MiB
unsent): every client of the relay was closed (1012), and again after each restart. Here 4
connections ask 40 times each for a ~540 KB list: without the rule, each one's lists pile
up in the relay (21 MB each) until the relay drops it for its outbox's bytes (1013).
"""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path

import trio
from websockets.trio.client import ClientConnection, connect

from protocol.v1 import messages_pb2 as mpb
from server.app import App
from server.relay.host import FeedRouter, RelayOptions, start_relays
from server.store import Store

NOT_SENT_YET = ("the room list you asked for before hasn't been sent to you yet: ask again "
                "once it has arrived")
FLOODERS, ASKS = 4, 40


def _message(rid: int, **body: object) -> bytes:
    return mpb.ClientMessage(request_id=rid, **body).SerializeToString()  # type: ignore[arg-type]


async def _answer(ws: ClientConnection) -> mpb.ServerMessage:
    data = await ws.recv()
    assert isinstance(data, bytes)
    return mpb.ServerMessage.FromString(data)


async def _hello(ws: ClientConnection, name: str) -> None:
    await ws.send(_message(1, hello=mpb.Hello(protocol_version=1, display_name=name)))
    assert (await _answer(ws)).HasField("welcome")


async def test_room_lists_asked_for_on_a_relay_port_and_never_read_are_sent_one_at_a_time(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "manawire.sqlite3")
    # (no send timeout while the test holds its flooders unread)
    options = RelayOptions(1, nice=0, send_timeout=120.0)
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            app = App(store, nursery)
            router = FeedRouter(app.relay, app.socket_of)
            app.lobby.relay = router
            (relay,) = await start_relays(options, router, app.handle_connection, nursery,
                                          app.refusals)
            try:
                for _ in range(2000):  # a busy lobby: long names of four-byte characters
                    app.lobby.create("\U0001F600" * 64, 8)
                size = len(app.lobby.listing_message())
                assert size > 500_000
                there = f"ws://127.0.0.1:{relay.port}"
                async with AsyncExitStack() as stack:
                    bystander = await stack.enter_async_context(connect(
                        there, compression=None, max_size=None))
                    await _hello(bystander, "Bystander")
                    flooders = []
                    for n in range(FLOODERS):
                        ws = await stack.enter_async_context(connect(
                            there, compression=None, max_size=None, max_queue=1,
                            ping_interval=None))  # (it reads no pongs)
                        flooders.append(ws)
                        await _hello(ws, f"Flooder {n}")
                    for ws in flooders:  # each asks ASKS times, reading nothing
                        for rid in range(10, 10 + ASKS):
                            await ws.send(_message(rid, list_rooms=mpb.ListRooms()))
                    # Until the server has answered what reached it (the relay reads no
                    # more of a client while a send to it waits: websockets' reader takes
                    # the lock its writer holds -- the flooder stalls its own requests)...
                    seen: list[int] = []
                    for _ in range(600):
                        await trio.sleep(0.1)
                        seen.append(sum(sock.sent for sock in relay.sockets.values()))
                        done = seen[-1] >= 1 + FLOODERS * (1 + ASKS)
                        still = len(seen) >= 10 and seen[-1] == seen[-10] >= 1 + FLOODERS * 10
                        if done or still:
                            break
                    # ...a client that reads is answered meanwhile, a list each time.
                    for rid in range(2, 5):
                        await bystander.send(_message(rid, list_rooms=mpb.ListRooms()))
                        listing = await _answer(bystander)
                        assert (listing.request_id, len(listing.room_list.rooms)) == (
                            rid, 2000)
                    # Each flooder is answered every time, without being closed: a few
                    # lists (those the relay's writer could take, the kernel holding the
                    # sent ones), and RATE_LIMITED in the server's port's words.
                    for ws in flooders:
                        answers = [await _answer(ws) for _ in range(ASKS)]
                        assert [m.request_id for m in answers] == list(range(10, 10 + ASKS))
                        lists = [m for m in answers if m.HasField("room_list")]
                        assert 1 <= len(lists) < ASKS // 2, len(lists)
                        for m in answers:
                            if not m.HasField("room_list"):
                                assert (m.error.code, m.error.message) == (
                                    mpb.ERROR_CODE_RATE_LIMITED, NOT_SENT_YET)
                        # Read, it is sent a list again.
                        await ws.send(_message(99, list_rooms=mpb.ListRooms()))
                        assert (await _answer(ws)).HasField("room_list")
                        await ws.aclose()
                        assert ws.close_code == 1000
                # The relay never went down, nor its link.
                assert relay.restarts == 0 and relay.up and not relay.out.closed
                assert app.refusals.totals["slow"] == 0
            finally:
                relay.stop()
                relay.kill()
            nursery.cancel_scope.cancel()
