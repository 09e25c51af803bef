"""End to end over real loopback WebSockets with a relay process (``manawire serve --relays``):
spectators are served their view stream off the game server's process.

A game is played by RandomBots -- one connected to the server, one through the relay -- and
watched by a spectator on each port. The relay's spectator gets exactly the messages the
server's own spectator gets (the same view class, encoded once), every mirror stays equal to
the server's projection (hash-checked, no resync), and the view stream crossed the link
once, not once per watcher. Then the relay process is killed: the game goes on, and its
clients' places are released by the server.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import random
import socket
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
import trio
from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.trio.client import ClientConnection, connect
from websockets.uri import parse_uri

from client_sdk import Client, ConnectionEndedError
from client_sdk.bots import RandomBot
from protocol.v1 import messages_pb2 as mpb
from server.app import App
from server.relay import link
from server.relay.host import (
    FeedRouter,
    RelayLink,
    RelayOptions,
    RelayStartError,
    start_relays,
)
from server.store import Store
from server.transport.ws import TCP_MARGIN, serve_app
from server.view import SPECTATOR, project
from server.view.encode import encode_view
from tests.e2e.test_replay_e2e import _replay_over_protocol


async def relay_gone(app: App, session_id: str) -> None:
    """Until the server has no connection of the session any more."""
    while True:
        if all(c.record is None or c.record.session_id != session_id
               for c in app.conns.values()):
            return
        await trio.sleep(0.05)


@contextlib.asynccontextmanager
async def _serving_with_relay(store: Store, options: RelayOptions
                              ) -> AsyncIterator[tuple[App, str, RelayLink]]:
    """An app serving on a free loopback port (its URL) and one relay process with
    ``options``, whose refusals the app counts; the relay is stopped after."""
    async with trio.open_nursery() as nursery:
        app = App(store, nursery)
        router = FeedRouter(app.relay, app.socket_of)
        app.lobby.relay = router
        server = await nursery.start(serve_app, app, "127.0.0.1", 0)
        here = f"ws://127.0.0.1:{server.listeners[0].socket.getsockname()[1]}"
        (relay,) = await start_relays(options, router, app.handle_connection, nursery,
                                      app.refusals)
        try:
            yield app, here, relay
        finally:
            relay.stop()
            relay.kill()
            nursery.cancel_scope.cancel()


async def test_a_relay_serves_spectators_the_same_stream_off_the_server_and_its_death_ends_no_game(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "manawire.sqlite3")
    with trio.fail_after(180):
        async with _serving_with_relay(store, RelayOptions(1, nice=0)) as (app, here, relay), \
                AsyncExitStack() as stack:
            there = f"ws://127.0.0.1:{relay.port}"
            sent: list[tuple[int, bytes]] = []
            send = relay.out.send

            def spy(kind: int, body: bytes) -> None:
                sent.append((kind, body))
                send(kind, body)

            relay.out.send = spy  # type: ignore[method-assign]
            ann = await stack.enter_async_context(Client.connect(here, "Ann"))
            bob = await stack.enter_async_context(Client.connect(there, "Bob"))
            eve = await stack.enter_async_context(Client.connect(here, "Eve"))
            fay = await stack.enter_async_context(Client.connect(there, "Fay"))
            raw: dict[str, list[bytes]] = {"eve": [], "fay": []}
            eve.on_raw, fay.on_raw = raw["eve"].append, raw["fay"].append
            room = await ann.create_room("relayed")
            for spectator in (eve, fay):
                assert (await spectator.join(room.room_id, spectator=True)).seat == SPECTATOR
            assert (await ann.join(room.room_id)).seat == 0
            assert (await bob.join(room.room_id)).seat == 1
            bots = [RandomBot(c, random.Random(seat + 1))
                    for seat, c in enumerate((ann, bob))]

            async def watch(client: Client) -> None:
                while not client.mirror.game_over:
                    await client.next_message()

            async with trio.open_nursery() as play:
                for bot in bots:
                    play.start_soon(bot.play)
                play.start_soon(watch, eve)
                play.start_soon(watch, fay)

            game = app.lobby.rooms[room.room_id].game
            assert game is not None and game.result is not None
            for viewer, client in ((0, ann), (1, bob), (SPECTATOR, eve), (SPECTATOR, fay)):
                assert client.resyncs == 0 and client.errors == []
                assert client.deltas > 10
                assert client.mirror.view() == encode_view(project(game, viewer))

            def stream(messages: list[bytes]) -> list[bytes]:
                return [m for m in messages if mpb.ServerMessage.FromString(m)
                        .WhichOneof("body") in ("snapshot", "delta", "clocks")]

            assert stream(raw["fay"]) == stream(raw["eve"])
            # The spectators' stream crossed the link once: one PUBLISH per message
            # (Bob's deltas are his alone: DIRECT), however many watch it there.
            published = [body for kind, body in sent if kind == link.PUBLISH]
            assert len(published) >= fay.deltas

            # A replay through the relay, as fast as the link takes it, is the live
            # spectators' stream again (state ids and view hashes).
            await fay.leave_room()
            got, _status = await _replay_over_protocol(fay, room.room_id, public=True)
            live = [(m.delta.state_id, m.delta.view_hash) for m in map(
                mpb.ServerMessage.FromString, raw["eve"]) if m.HasField("delta")]
            assert [s for s in got[1:] if s in set(live)] == live

            # The relay dies: no game ends, and the server releases its clients' places.
            assert relay.process is not None
            relay.process.kill()
            with trio.fail_after(10):
                await relay_gone(app, bob.session_id)
            assert eve.session_id in app.lobby.rooms[room.room_id].spectators
            for client in (bob, fay):
                client.reconnect = False


async def _closed_with(url: str, messages: list[bytes]) -> int | None:
    """Connect, send ``messages`` as fast as possible, read until closed: the close code."""
    async with connect(url, compression=None, open_timeout=10) as ws:
        with contextlib.suppress(ConnectionClosed):
            for data in messages:
                await ws.send(data)
            while True:
                await ws.recv()
        return ws.close_code


async def test_a_flooder_on_a_relay_is_closed_alone_a_dead_relay_comes_back_and_stop_says_1012(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path / "manawire.sqlite3")
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            app = App(store, nursery)
            router = FeedRouter(app.relay, app.socket_of)
            app.lobby.relay = router
            (relay,) = await start_relays(RelayOptions(1, nice=0), router,
                                          app.handle_connection, nursery)
            there = f"ws://127.0.0.1:{relay.port}"
            try:
                # 1,000 tiny messages without a Hello: that client is closed for flooding
                # (1008); the server and the relay go on.
                assert await _closed_with(there, [b"\x00"] * 1000) == 1008
                async with Client.connect(there, "Ann") as ann:
                    assert ann.session_id
                # The relay process dies: it is started again on the same port.
                assert relay.process is not None
                relay.process.kill()
                for _ in range(400):
                    if relay.restarts:
                        break
                    await trio.sleep(0.05)
                await relay.listening.wait()
                async with Client.connect(there, "Bob", reconnect=False) as bob:
                    assert bob.session_id
                    # Stopping the server: the relay's clients get 1012 and it exits.
                    relay.stop()
                    with pytest.raises(ConnectionEndedError) as closed:
                        while True:
                            await bob.next_message()
                    assert closed.value.code == 1012
                await relay.stopped.wait()
                assert relay.process.poll() is not None
            finally:
                relay.stop()
                relay.kill()
            nursery.cancel_scope.cancel()


async def test_a_relay_whose_port_is_taken_stops_the_start_with_a_clear_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    """The log says the relay exited before it listened -- not that it is started again,
    which the failed start never did (an operator's review)."""
    caplog.set_level(logging.WARNING, logger="manawire.relay")
    store = Store(tmp_path / "manawire.sqlite3")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with trio.fail_after(30):
            async with trio.open_nursery() as nursery:
                app = App(store, nursery)
                router = FeedRouter(app.relay, app.socket_of)
                with pytest.raises(RelayStartError, match=f"port {port} \\(is it in use"):
                    await start_relays(RelayOptions(1, port=port, nice=0), router,
                                       app.handle_connection, nursery)
                await router.links[0].stopped.wait()  # (its supervisor ended at once)
                for relay in router.links:
                    relay.stop()
                    relay.kill()
                nursery.cancel_scope.cancel()
    said = [r.getMessage() for r in caplog.records if r.name == "manawire.relay"]
    assert f"relay 0 (port {port}) exited before it listened (is its port taken?)" in said
    assert not [line for line in said if "starting it again" in line]
    assert router.links[0].restarts == 0


@contextlib.asynccontextmanager
async def _relays(store: Store, options: RelayOptions) -> AsyncIterator[list[RelayLink]]:
    """An app without a listener and ``options``' relay processes, stopped after."""
    async with trio.open_nursery() as nursery:
        app = App(store, nursery)
        router = FeedRouter(app.relay, app.socket_of)
        links = await start_relays(options, router, app.handle_connection, nursery)
        try:
            yield links
        finally:
            for relay in router.links:
                relay.stop()
                relay.kill()
            nursery.cancel_scope.cancel()


async def test_an_idle_relay_runs_under_sched_idle_and_a_nice_one_at_its_niceness(
    tmp_path: Path,
) -> None:
    """``serve --relay-idle``: the relay takes only CPU time nothing else wants (SCHED_IDLE);
    without it, ``--relay-nice`` sets its niceness (spectators yield the CPU to games)."""
    store = Store(tmp_path / "manawire.sqlite3")
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    with trio.fail_after(60):
        async with _relays(store, RelayOptions(2, nice=7, idle=True)) as (idle, other):
            for relay in (idle, other):
                assert relay.process is not None
                assert os.sched_getscheduler(relay.process.pid) == os.SCHED_IDLE
                assert os.getpriority(os.PRIO_PROCESS, relay.process.pid) == ours + 7
        async with _relays(store, RelayOptions(1, nice=3)) as (plain,):
            assert plain.process is not None
            assert os.sched_getscheduler(plain.process.pid) == os.SCHED_OTHER
            assert os.getpriority(os.PRIO_PROCESS, plain.process.pid) == ours + 3


async def _deaf_spectator(port: int, room_id: str) -> trio.SocketStream:
    """A spectator of ``room_id`` through the WebSocket port ``port`` that never reads after
    its handshake, with a small receive buffer: whoever sends to it soon can't."""
    sock = trio.socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    await sock.connect(("127.0.0.1", port))
    stream = trio.SocketStream(sock)
    protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/"))
    protocol.send_request(protocol.connect())
    for data in protocol.data_to_send():
        await stream.send_all(data)
    for _ in range(100):  # the handshake's answer may come in pieces
        protocol.receive_data(await stream.receive_some())
        if protocol.events_received():
            break
    for message in (mpb.ClientMessage(request_id=1, hello=mpb.Hello(
                        protocol_version=1, display_name="Deaf")),
                    mpb.ClientMessage(request_id=2, join_room=mpb.JoinRoom(
                        room_id=room_id, role=mpb.ROLE_SPECTATOR))):
        protocol.send_binary(message.SerializeToString())
    for data in protocol.data_to_send():
        await stream.send_all(data)
    return stream


async def test_a_relays_own_refusals_count_in_the_servers_log_line_and_metrics(
    tmp_path: Path,
) -> None:
    """A relay process refuses connections over its per-address cap itself, and closes
    (1013) its own watchers that fall behind their feed. Neither reached the server's
    "limits" log line or ``manawire_refusals_total``: an operator running ``--relays``
    saw no trace of either. The relay now tells the server over its link."""
    store = Store(tmp_path / "manawire.sqlite3")
    options = RelayOptions(1, nice=0, feed_messages=8, max_connections_per_address=1)
    with trio.fail_after(120):
        async with _serving_with_relay(store, options) as (app, here, relay), \
                AsyncExitStack() as stack:
            ann = await stack.enter_async_context(Client.connect(here, "Ann"))
            bob = await stack.enter_async_context(Client.connect(here, "Bob"))
            room = await ann.create_room("watched")
            deaf = await _deaf_spectator(relay.port, room.room_id)
            stack.push_async_callback(deaf.aclose)
            with pytest.raises(InvalidStatus, match="503"):  # the address's 2nd
                async with connect(f"ws://127.0.0.1:{relay.port}", open_timeout=10):
                    pass
            for _ in range(200):
                if app.lobby.rooms[room.room_id].spectators:
                    break
                await trio.sleep(0.05)
            assert app.lobby.rooms[room.room_id].spectators  # (the deaf one)
            await ann.join(room.room_id)
            await bob.join(room.room_id)
            async with trio.open_nursery() as play:
                for seat, client in enumerate((ann, bob)):
                    play.start_soon(RandomBot(client, random.Random(seat + 1)).play)
            for _ in range(200):
                if app.refusals.totals["slow"]:
                    break
                await trio.sleep(0.05)
            assert app.refusals.totals == {"connection": 1, "slow": 1}
            line = app.refusals.take(60.0)
            assert line is not None
            assert "1 connection refused over the per-address cap (127.0.0.1: 1" in line
            assert "1 client closed for falling behind what it was sent (1013) " \
                   "(127.0.0.1: 1" in line


@contextlib.asynccontextmanager
async def _forwarded(port: int, nursery: trio.Nursery, forwarded_for: str
                     ) -> AsyncIterator[ClientConnection]:
    """A WebSocket to a relay whose handshake says ``X-Forwarded-For: forwarded_for``."""
    opener = connect(f"ws://127.0.0.1:{port}", compression=None, open_timeout=10,
                     additional_headers=[("X-Forwarded-For", forwarded_for)])
    ws = await opener.connect(nursery)
    try:
        yield ws
    finally:
        with trio.move_on_after(2):
            await ws.aclose()


async def test_a_relay_counts_clients_behind_a_trusted_proxy_by_x_forwarded_for(
    tmp_path: Path,
) -> None:
    """``--trusted-proxy`` reached the server's port only: behind the proxy every client of
    a relay port had the proxy's address, so the per-address cap let one spectator of the
    whole site in. A relay started with the option counts each forwarded client, and the
    server knows the client's address; without it the header changes nothing."""
    store = Store(tmp_path / "manawire.sqlite3")
    trusted = RelayOptions(1, nice=0, max_connections_per_address=1,
                           trusted_proxies=(ipaddress.ip_network("127.0.0.1/32"),))
    with trio.fail_after(120):
        async with _serving_with_relay(store, trusted) as (app, _here, relay), \
                trio.open_nursery() as nursery:
            async with _forwarded(relay.port, nursery, "203.0.113.9"):
                with pytest.raises(InvalidStatus, match="503"):  # that client's 2nd
                    async with _forwarded(relay.port, nursery, "203.0.113.9"):
                        pass
                async with _forwarded(relay.port, nursery, "198.51.100.7") as other:
                    await other.send(mpb.ClientMessage(request_id=1, hello=mpb.Hello(
                        protocol_version=1, display_name="Ann")).SerializeToString())
                    reply = mpb.ServerMessage.FromString(await other.recv())  # type: ignore[arg-type]
                    assert reply.HasField("welcome")
                    assert "198.51.100.7" in {c.address for c in app.conns.values()}
            nursery.cancel_scope.cancel()
    store.close()
    store = Store(tmp_path / "untrusting.sqlite3")
    with trio.fail_after(120):
        async with _serving_with_relay(store, RelayOptions(1, nice=0,
                                                           max_connections_per_address=1)
                                       ) as (_app, _here, relay), \
                trio.open_nursery() as nursery:
            async with _forwarded(relay.port, nursery, "203.0.113.9"):
                with pytest.raises(InvalidStatus, match="503"):  # the header is ignored
                    async with _forwarded(relay.port, nursery, "198.51.100.7"):
                        pass
            nursery.cancel_scope.cancel()
    store.close()


async def test_a_relay_refuses_tcp_connections_over_the_address_cap_as_it_accepts_them(
    tmp_path: Path,
) -> None:
    """A relay port counted connections only once their handshake request was read: one
    client opening TCP connections and sending nothing held as many as it liked. As on the
    server's port, past the WebSocket and HTTP caps (+16) an address's next connection is
    answered 503 at once."""
    store = Store(tmp_path / "manawire.sqlite3")
    options = RelayOptions(1, nice=0, max_connections_per_address=1,
                           max_http_requests_per_address=1)
    held: list[trio.SocketStream] = []
    with trio.fail_after(120):
        async with _serving_with_relay(store, options) as (app, _here, relay):
            try:
                for _ in range(1 + 1 + TCP_MARGIN):
                    held.append(await trio.open_tcp_stream("127.0.0.1", relay.port))
                extra = await trio.open_tcp_stream("127.0.0.1", relay.port)
                held.append(extra)
                answer = b""
                while not answer.endswith(b"\n") or b"\r\n\r\n" not in answer:
                    chunk = await extra.receive_some(4096)
                    if not chunk:
                        break
                    answer += chunk
                assert answer.startswith(b"HTTP/1.1 503")
                for _ in range(200):  # the relay tells the server over its link
                    if app.refusals.totals["connection"]:
                        break
                    await trio.sleep(0.05)
                assert app.refusals.totals["connection"] == 1
            finally:
                for stream in held:
                    await trio.aclose_forcefully(stream)
    store.close()
