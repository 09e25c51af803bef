"""The replay acceptance test, end to end over real loopback WebSockets: RandomBots and a
spectator play a full game, each client recording the (state id, view hash) of every
Snapshot and Delta it received; then the finished game is replayed -- over the protocol by
each seat's own account and by the spectator, and by the replay core for every perspective --
and must reproduce exactly what the live clients had, action by action. Seeking to the middle
(an action, a turn) gives the view playing to it gives."""

from __future__ import annotations

import random
from contextlib import AsyncExitStack
from pathlib import Path

import trio

from client_sdk import Client
from client_sdk.bots import RandomBot
from client_sdk.policy import Policy
from protocol.v1 import messages_pb2 as mpb
from server.app import App
from server.replay import OMNISCIENT, PUBLIC, Replay
from server.store import Store
from server.transport.ws import serve_app
from server.view import SPECTATOR

Seen = list[tuple[int, bytes]]


def _record(into: Seen, data: bytes) -> None:
    msg = mpb.ServerMessage.FromString(data)
    if msg.HasField("snapshot"):
        into.append((msg.snapshot.state_id, msg.snapshot.view_hash))
    elif msg.HasField("delta"):
        into.append((msg.delta.state_id, msg.delta.view_hash))


async def _replay_over_protocol(client: Client, room_id: str, **perspective: object
                                ) -> tuple[Seen, mpb.ReplayStatus]:
    """Replay the whole game as fast as possible; what the client received."""
    got: Seen = []
    client.on_raw = lambda data: _record(got, data)
    reply = await client.request(mpb.ClientMessage(replay=mpb.ReplayRequest(
        room_id=room_id, **perspective)))  # type: ignore[arg-type]
    status = reply.replay_status
    for _ in range(100_000):
        msg = await client.next_message()
        if msg.HasField("replay_ended"):
            break
    client.on_raw = None
    return got, status


async def test_a_replay_reproduces_every_view_hash_the_live_clients_had(tmp_path: Path) -> None:
    store = Store(tmp_path / "manawire.sqlite3")
    with trio.fail_after(300):
        async with trio.open_nursery() as nursery, AsyncExitStack() as stack:
            app = App(store, nursery)
            server = await nursery.start(serve_app, app, "127.0.0.1", 0)
            port = server.listeners[0].socket.getsockname()[1]
            url = f"ws://127.0.0.1:{port}"
            live: dict[int, Seen] = {viewer: [] for viewer in (0, 1, SPECTATOR)}
            seated = [await stack.enter_async_context(Client.connect(url, n))
                      for n in ("Ann", "Bob")]
            eve = await stack.enter_async_context(Client.connect(url, "Eve"))
            clients = [(0, seated[0]), (1, seated[1]), (SPECTATOR, eve)]
            for viewer, client in clients:
                client.on_raw = lambda data, v=viewer: _record(live[v], data)
            room = await seated[0].create_room("replayed", seats=2)
            await eve.join(room.room_id, spectator=True)
            for client in seated:
                await client.join(room.room_id)
            bots = [RandomBot(c, random.Random(seat + 7), Policy.EAGER)
                    for seat, c in enumerate(seated)]

            async def watch() -> None:
                while not eve.mirror.game_over:
                    await eve.next_message()

            async with trio.open_nursery() as play:
                for bot in bots:
                    play.start_soon(bot.play)
                play.start_soon(watch)
            for viewer, client in clients:
                assert client.resyncs == 0 and client.errors == []
                assert len(live[viewer]) > 10
                assert live[viewer][0][0] == 1  # the snapshot at the game's start
            # Replay by the replay core, every perspective.
            record = store.load_game(room.room_id)
            assert record.result is not None
            for viewer in (0, 1, PUBLIC):
                replay = Replay(record, viewer)
                got = [(replay.state_id, replay.view_hash)] + [
                    (f.state_id, f.view_hash) for f in replay.frames() if f.message]
                assert got == live[viewer], viewer
            # Over the protocol: each seat by its own account, public by the spectator.
            for _viewer, client in clients:  # LeaveRoom has no reply: a ListRooms after it
                await client._send(mpb.ClientMessage(leave_room=mpb.LeaveRoom()))
                await client.list_rooms()
            for viewer, client in clients:
                perspective: dict[str, object] = {"public": True} if viewer == SPECTATOR \
                    else {"seat": viewer}
                got, status = await _replay_over_protocol(client, room.room_id, **perspective)
                assert status.actions == len(record.actions) and status.action == 0
                assert got == live[viewer], viewer
                assert client.resyncs == 0
                await client.request(mpb.ClientMessage(replay_control=mpb.ReplayControl(
                    stop=True)))
            # Seeking to the middle gives the view playing to it gives (b).
            half = len(record.actions) // 2
            for viewer in (0, PUBLIC, OMNISCIENT):
                played = Replay(record, viewer)
                hashes = {0: played.view_hash}
                for frame in played.frames():
                    hashes[frame.action] = frame.view_hash
                seeker = Replay(record, viewer)
                seeker.seek(len(record.actions))
                seeker.seek(half)  # backward: from the start again
                assert seeker.view_hash == hashes[half]
                snapshot = mpb.ServerMessage.FromString(seeker.snapshot()).snapshot
                assert snapshot.view_hash == hashes[half]
                turn = seeker.turn
                seeker.seek_turn(turn)
                assert seeker.view_hash == hashes[seeker.turn_start(turn)]
            # And over the protocol: Ann seeks her own replay to the middle.
            ann = seated[0]
            await ann.request(mpb.ClientMessage(replay=mpb.ReplayRequest(
                room_id=room.room_id, seat=0, paused=True)))
            reply = await ann.request(mpb.ClientMessage(replay_control=mpb.ReplayControl(
                seek_action=half)))
            assert reply.replay_status.action == half
            for _ in range(100):
                msg = await ann.next_message()
                if msg.HasField("snapshot"):
                    break
            played = Replay(record, 0)
            played.seek(half)
            assert (msg.snapshot.state_id, msg.snapshot.view_hash) == (played.state_id,
                                                                       played.view_hash)
            assert (msg.snapshot.state_id, msg.snapshot.view_hash) in live[0]
            nursery.cancel_scope.cancel()
    store.close()
