"""End to end over real loopback WebSockets: RandomBots (two, and three for a free-for-all game)
and a spectator play a full game.

Checks architecture invariants 4 and 8 on the wire: every delta leaves each mirror equal to the
server's projection for that viewer (hash-checked, no resync needed), and no message to any
viewer contains the id of an object that was ever in a zone hidden from it, or the seed.
"""

from __future__ import annotations

import random
import socket
import sys
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
import trio

from client_sdk import Client
from client_sdk.bots import RandomBot, run_bot_games
from client_sdk.policy import Policy
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.app import App
from server.decks import DeckFormat, resolve
from server.engine import PlayerSetup, new_game
from server.store import Store
from server.transport.ws import serve_app
from server.view import SPECTATOR, project
from server.view.encode import encode_view
from tests.e2e.leaks import replay_secrets
from tests.e2e.test_spectator_resume_e2e import serving

ROOT = Path(__file__).resolve().parents[2]


def _objects_in(msg: mpb.ServerMessage) -> list[pb.GameObject]:
    body = msg.WhichOneof("body")
    if body == "snapshot":
        return list(msg.snapshot.view.objects)
    if body == "delta":
        return [getattr(op, op.WhichOneof("op")) for op in msg.delta.ops
                if op.WhichOneof("op") in ("create_object", "update_object")]
    return []


# Two uniform bots explore every kind of option; three eager ones (client_sdk.policy) play a
# free-for-all game of spells and attacks in a few hundred actions.
@pytest.mark.parametrize(("players", "policy"), [(2, Policy.UNIFORM), (3, Policy.EAGER)])
async def test_random_bots_and_a_spectator_complete_a_game_without_leaks(
    tmp_path: Path, players: int, policy: Policy,
) -> None:
    store = Store(tmp_path / "manawire.sqlite3")
    names = ["Ann", "Bob", "Cid"][:players]
    with trio.fail_after(240):
        async with trio.open_nursery() as nursery, AsyncExitStack() as stack:
            app = App(store, nursery)
            server = await nursery.start(serve_app, app, "127.0.0.1", 0)
            port = server.listeners[0].socket.getsockname()[1]
            url = f"ws://127.0.0.1:{port}"
            raw: dict[int, list[bytes]] = {seat: [] for seat in [*range(players), SPECTATOR]}
            seated = [await stack.enter_async_context(Client.connect(url, n)) for n in names]
            eve = await stack.enter_async_context(Client.connect(url, "Eve"))
            clients = [*enumerate(seated), (SPECTATOR, eve)]
            for viewer, client in clients:
                client.on_raw = raw[viewer].append
            room = await seated[0].create_room("e2e", seats=players)
            assert (await eve.join(room.room_id, spectator=True)).seat == SPECTATOR
            for seat, client in enumerate(seated):
                assert (await client.join(room.room_id)).seat == seat
            bots = [RandomBot(c, random.Random(seat + 1), policy) for seat, c in enumerate(seated)]

            async def watch() -> None:
                while not eve.mirror.game_over:
                    await eve.next_message()

            async with trio.open_nursery() as play:
                for bot in bots:
                    play.start_soon(bot.play)
                play.start_soon(watch)

            game = app.lobby.rooms[room.room_id].game
            assert game is not None and game.result is not None
            for viewer, client in clients:
                assert client.resyncs == 0 and client.errors == []
                assert client.deltas > 10
                assert client.mirror.view() == encode_view(project(game, viewer))
            nursery.cancel_scope.cancel()

    # Replay the logged game: per viewer, every id that was in a hidden zone and never shown
    # to it (a revealed or searched card is shown while it is, by design).
    record = store.load_game(room.room_id)
    setups = [PlayerSetup(name, resolve(deck, DeckFormat.CONSTRUCTED).main)
              for name, deck, _session in record.players]
    replayed = new_game(record.seed, setups)
    secrets = replay_secrets(replayed, record.actions, raw)
    assert replayed.result == game.result  # deterministic replay from the store
    checked = 0
    for viewer, messages in raw.items():
        assert messages
        # (an id is in one of the messages if and only if it is in them joined by a byte no
        # id has: one search per id instead of one per id and message)
        joined = b"\x00".join(messages)
        for oid in secrets.never_shown[viewer]:
            assert b"\x00" not in oid.encode()
            assert oid.encode() not in joined, f"hidden id {oid} leaked to viewer {viewer}"
        for data in messages:
            assert record.seed not in data
            for obj in _objects_in(mpb.ServerMessage.FromString(data)):
                hidden_zone = obj.zone.kind == pb.ZONE_KIND_LIBRARY or (
                    obj.zone.kind == pb.ZONE_KIND_HAND and obj.owner != viewer)
                assert not hidden_zone or obj.id in secrets.shown[viewer], obj
                checked += 1
    assert checked > 100
    store.close()


async def test_quick_match_bots_against_no_server_say_why_not_exceptiongroup(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The bots of a quick-match game play at once, in a nursery: a server that isn't there
    printed 'failed: ExceptionGroup: Exceptions from Trio nursery (2 sub-exceptions)'.
    The errors inside are said, each different one once."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]  # (nothing listens: bound, never listening)
        summary = await run_bot_games(f"ws://127.0.0.1:{port}", 1, 2, quick_match=True,
                                      game_seconds=1.5)  # (tried again till then)
    assert (summary.completed, summary.errors) == (0, 1)
    line = capsys.readouterr().out.strip().splitlines()[0]
    assert line == (f"game 0 (default decks) failed: OSError: all attempts to connect to "
                    f"127.0.0.1:{port} failed"), line


async def test_a_bot_joining_a_game_that_outlasts_its_timeout_says_so_plainly(
        tmp_path: Path) -> None:
    """``bots --join`` gave up after 300 s of a game with people in it, with a raw
    TooSlowError traceback; its default is a day now, and running out says so."""
    async with serving(tmp_path / "db.sqlite3") as (_app, port):
        url = f"ws://127.0.0.1:{port}"
        async with Client.connect(url, "host") as host:
            room = await host.create_room("waiting", seats=3)  # (never starts: 2 of 3)
            done = await trio.run_process(
                [sys.executable, "-m", "server.cli", "bots", "--url", url, "--join",
                 room.room_id, "--timeout", "1"],
                capture_stdout=True, capture_stderr=True, check=False, cwd=ROOT)
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert err.strip() == ("manawire bots: the game did not end within --timeout 1 s; "
                           "the bot left it"), err


async def test_a_bot_account_joins_again_after_a_finished_game_and_is_never_cut_off(
        tmp_path: Path) -> None:
    """``bots --join`` with a token whose last game was over but still lingered was refused
    "already in a room" (the hello had resumed the account into that room). And a second
    ``bots --join`` (or ``watch``) with the token of a bot in play took its session over:
    the playing bot was cut off (4001) and its seat left to its clock. It is refused
    instead (ACCOUNT_IN_USE), the bot playing on."""
    from client_sdk.bots import join_and_play
    from client_sdk.client import ServerError
    from client_sdk.terminal import watch

    played: list[int] = []

    async def bot_plays(url: str, room_id: str, token: str) -> None:
        played.append(await join_and_play(url, room_id, token=token, seed=1,
                                          game_seconds=60))

    with trio.fail_after(120):
        async with serving(tmp_path / "db.sqlite3") as (_app, port):
            url = f"ws://127.0.0.1:{port}"
            async with Client.connect(url, "Ann") as ann, Client.connect(url, "Bot") as bot:
                token = bot.account_token
                first = await ann.create_room("first")
                await ann.join(first.room_id)
                await bot.join(first.room_id)
                await ann.concede()
                for _ in range(10_000):
                    if bot.mirror.game_over:
                        break
                    await bot.next_message()
            async with Client.connect(url, "Ann") as ann:
                second = await ann.create_room("second")
                await ann.join(second.room_id)
                async with trio.open_nursery() as nursery:
                    # Its session lingers in the finished room: it leaves it and joins.
                    nursery.start_soon(bot_plays, url, second.room_id, token)
                    for _ in range(10_000):
                        if ann.mirror.state_id > 0:
                            break
                        await ann.next_message()
                    assert ann.mirror.players[1].name.startswith("Bot")
                    third = await ann.create_room("third")
                    with pytest.raises(ServerError) as refused:
                        await join_and_play(url, third.room_id, token=token)
                    assert refused.value.code == mpb.ERROR_CODE_ACCOUNT_IN_USE
                    assert second.room_id in refused.value.message
                    with pytest.raises(ServerError) as refused:
                        await watch(url, second.room_id, token=token)
                    assert refused.value.code == mpb.ERROR_CODE_ACCOUNT_IN_USE
                    await ann.concede()  # the bot, never cut off, sees its game to the end
                assert len(played) == 1  # (its game ended; no ConnectionEndedError)


async def test_bot_games_that_cant_reach_a_restarting_server_wait_for_it(
        tmp_path: Path) -> None:
    """``manawire bots --games N`` across a restart: the games after the one in play found
    the server gone ("all attempts to connect failed") and failed at once. They wait for it
    now, trying again with backoff."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            summaries = []

            async def bots() -> None:
                summaries.append(await run_bot_games(f"ws://127.0.0.1:{port}", 2, 2, seed=5,
                                                     game_seconds=60, policy=Policy.EAGER))

            nursery.start_soon(bots)
            await trio.sleep(1.0)  # the server isn't there yet: the first game waits
            async with serving(tmp_path / "db.sqlite3", port):
                for _ in range(1200):
                    if summaries:
                        break
                    await trio.sleep(0.1)
    assert summaries and (summaries[0].completed, summaries[0].errors) == (2, 0)
