"""A flood on a relay port over real loopback WebSockets (``manawire serve --relays``): the
flooders are closed as the server's port closes them, and the relay's other clients carry
on; a relay whose link overflows exits and is started again, its clients told to resume.

The attack (round 9, HIGH): a few connections sent 64 KiB frames to a relay port as fast as
they could; the relay forwarded them all onto its link, whose writer passed its bound,
marked itself closed and dropped every later record silently -- the relay kept accepting
clients and never answered one again, still counted up, never restarted. The relay's link
bound is scaled down here (``RelayOptions.link_buffer``) so a few MiB show it.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import trio
from websockets.exceptions import ConnectionClosed
from websockets.trio.client import ClientConnection, connect

from client_sdk import Client
from client_sdk.bots import RandomBot
from protocol.v1 import messages_pb2 as mpb
from server.app import App, Limits
from server.relay import link
from server.relay.host import FeedRouter, RelayLink, RelayOptions, start_relays
from server.store import Store
from server.transport.ws import serve_app

#: A ListRooms padded to the largest frame a port takes (64 KiB) with an unknown field.
_BIG = (mpb.ClientMessage(request_id=1, list_rooms=mpb.ListRooms()).SerializeToString()
        + b"\x92\x0f\xf0\xff\x03" + b"a" * 65536)[:65531]


async def _request(ws: ClientConnection, message: mpb.ClientMessage) -> mpb.ServerMessage:
    """Send ``message``; the answer with its request id."""
    request_id = message.request_id
    await ws.send(message.SerializeToString())
    while True:
        data = await ws.recv()
        assert isinstance(data, bytes)
        answer = mpb.ServerMessage.FromString(data)
        if answer.request_id == request_id:
            return answer


async def _hello(ws: ClientConnection, name: str) -> None:
    welcome = await _request(ws, mpb.ClientMessage(
        request_id=1, hello=mpb.Hello(protocol_version=1, display_name=name)))
    assert welcome.WhichOneof("body") == "welcome", welcome


async def _app_and_relay(nursery: trio.Nursery, store: Store, options: RelayOptions
                         ) -> tuple[App, RelayLink]:
    app = App(store, nursery)
    router = FeedRouter(app.relay, app.socket_of)
    app.lobby.relay = router
    (relay,) = await start_relays(options, router, app.handle_connection, nursery,
                                  app.refusals)
    return app, relay


async def test_a_flood_on_a_relay_port_closes_the_flooders_and_its_other_clients_carry_on(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "manawire.sqlite3")
    options = RelayOptions(1, nice=0, link_buffer=256 * 1024, rate_strikes=40)
    flooders, flooded = 6, [0]
    closes: list[tuple[int | None, str | None]] = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            app, relay = await _app_and_relay(nursery, store, options)
            there = f"ws://127.0.0.1:{relay.port}"
            try:
                async with connect(there, compression=None) as bystander:
                    await _hello(bystander, "Bystander")

                    async def flood() -> None:
                        with trio.fail_after(20):
                            await _flood()

                    async def _flood() -> None:
                        async with connect(there, compression=None, max_size=None) as ws:
                            try:
                                for _ in range(400):  # (a bound: closed long before)
                                    await ws.send(_BIG)
                                    flooded[0] += 1
                                while True:
                                    await ws.recv()
                            except ConnectionClosed:
                                pass
                            closes.append((ws.close_code, ws.close_reason))

                    answered: list[float] = []

                    async def keep_asking() -> None:
                        for n in range(2, 1000):
                            began = trio.current_time()
                            with trio.fail_after(5):  # (it got none at all)
                                listing = await _request(bystander, mpb.ClientMessage(
                                    request_id=n, list_rooms=mpb.ListRooms()))
                            assert listing.WhichOneof("body") == "room_list", listing
                            answered.append(trio.current_time() - began)
                            if len(closes) == flooders:
                                return
                            await trio.sleep(0.02)

                    async with trio.open_nursery() as attack:
                        for _ in range(flooders):
                            attack.start_soon(flood)
                        attack.start_soon(keep_asking)
                    assert flooded[0] >= flooders * 60  # (MiBs: past the link's bound)
                    # Each flooder was closed as the server's port closes one, and said why.
                    assert closes == [(1008, "too many messages: closed for flooding")
                                      ] * flooders
                    assert len(answered) >= 2
                    # The relay never went down, and a newcomer is answered through it.
                    assert relay.restarts == 0 and relay.up and not relay.out.closed
                    async with connect(there, compression=None) as newcomer:
                        await _hello(newcomer, "Newcomer")
                        # A text frame: BAD_MESSAGE, as on the server's port.
                        await newcomer.send("hello")
                        answer = await newcomer.recv()
                        assert isinstance(answer, bytes)
                        error = mpb.ServerMessage.FromString(answer)
                        assert error.error.code == mpb.ERROR_CODE_BAD_MESSAGE
                        # The flooders are counted out: the bystander and the newcomer are
                        # the server's only connections.
                        for _ in range(250):
                            if len(app.conns) == 2:
                                break
                            await trio.sleep(0.02)
                        assert len(app.conns) == 2
                    # The operator hears of them, as of the server's port's flooders.
                    assert app.refusals.totals["flood"] == flooders
            finally:
                relay.stop()
                relay.kill()
            nursery.cancel_scope.cancel()


async def test_a_relay_whose_link_overflows_exits_tells_its_clients_and_is_started_again(
    tmp_path: Path,
) -> None:
    """Nothing a relay's client sends can fill the link now; a link that still overflows
    (here: a bound smaller than one record) is the relay's end -- it closes its clients
    (1012, resume) and exits, and the server counts them out and starts it again."""
    store = Store(tmp_path / "manawire.sqlite3")
    # A client's OPEN record is 18 bytes: the first client overflows this link.
    options = RelayOptions(1, nice=0, link_buffer=16)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            app, relay = await _app_and_relay(nursery, store, options)
            there = f"ws://127.0.0.1:{relay.port}"
            relay.options = dataclasses.replace(options, link_buffer=link.MAX_RECORD)
            try:
                async with connect(there, compression=None) as ws:
                    try:
                        with trio.fail_after(10):
                            await ws.recv()
                    except ConnectionClosed:
                        pass
                    assert (ws.close_code, ws.close_reason) == (
                        1012, "relay restarting; resume when it is back")
                for _ in range(400):
                    if relay.restarts:
                        break
                    await trio.sleep(0.05)
                assert relay.restarts == 1
                with trio.fail_after(10):
                    await relay.listening.wait()
                async with connect(there, compression=None) as again:
                    await _hello(again, "Again")
                    assert len(app.conns) == 1  # (the first client was counted out)
            finally:
                relay.stop()
                relay.kill()
            nursery.cancel_scope.cancel()


async def test_a_player_on_a_relay_port_plays_as_fast_as_the_game_goes_under_a_low_rate(
    tmp_path: Path,
) -> None:
    """docs/limits.md "Message rate": an action the room applied gives its token back -- at the
    relay too (the server tells it, link.REFUND), or a player on a relay port would be
    refused where one on the server's port is not. Here 2 messages a second, bursts of 5,
    on both ports: two bots play 120 actions in a second or two, neither is refused."""
    store = Store(tmp_path / "manawire.sqlite3")
    limits = Limits(messages_per_second=2.0, message_burst=5)
    options = RelayOptions(1, nice=0, messages_per_second=2.0, message_burst=5)
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            app = App(store, nursery, limits)
            router = FeedRouter(app.relay, app.socket_of)
            app.lobby.relay = router
            server = await nursery.start(serve_app, app, "127.0.0.1", 0)
            here = f"ws://127.0.0.1:{server.listeners[0].socket.getsockname()[1]}"
            (relay,) = await start_relays(options, router, app.handle_connection, nursery)
            there = f"ws://127.0.0.1:{relay.port}"
            try:
                async with Client.connect(here, "Ann") as ann, \
                        Client.connect(there, "Bob") as bob:
                    room = await ann.create_room("fast")
                    assert (await ann.join(room.room_id)).seat == 0
                    assert (await bob.join(room.room_id)).seat == 1
                    bots = [RandomBot(c, random.Random(seat + 7))
                            for seat, c in enumerate((ann, bob))]
                    async with trio.open_nursery() as play:
                        for bot in bots:
                            play.start_soon(bot.play)
                        for _ in range(3000):
                            if bots[0].actions + bots[1].actions >= 120 or ann.finished:
                                break
                            await trio.sleep(0.01)
                        play.cancel_scope.cancel()
                    assert bots[1].actions >= 20  # (far past 5 + 2 a second unrefunded)
                    assert (ann.rate_limited, bob.rate_limited) == (0, 0)
                    assert ann.errors == bob.errors == []
                    for client in (ann, bob):
                        client.reconnect = False
            finally:
                relay.stop()
                relay.kill()
            nursery.cancel_scope.cancel()
