"""End to end over real loopback WebSockets: two RandomBots play a best-of-3 match (rule
100.6a) to its end, keeping their decks between games, while a spectator of the live public
view and a spectator of a delayed public tier stay attached from before the first game to after
the last. Each spectator gets a snapshot of every game, never a hidden card, and the match's
result; every game is stored as its own replayable game, and the match record holds the score.
"""

from __future__ import annotations

import json
import random
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path

import pytest
import trio

from client_sdk import Client
from client_sdk.bots import RandomBot
from client_sdk.policy import Policy
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.app import App
from server.cli import main
from server.decks import DeckFormat, resolve
from server.engine import PlayerSetup, new_game
from server.replay import Replay
from server.store import GameRecord, Store
from server.transport.ws import serve_app
from server.view import SPECTATOR, project
from server.view.encode import encode_view
from tests.e2e.leaks import replay_secrets
from tests.e2e.test_bots_e2e import _objects_in


async def test_a_best_of_3_match_plays_through_with_spectators_attached_from_start_to_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    store = Store(tmp_path / "manawire.sqlite3")
    with trio.fail_after(240):
        async with trio.open_nursery() as nursery, AsyncExitStack() as stack:
            app = App(store, nursery)
            server = await nursery.start(serve_app, app, "127.0.0.1", 0)
            port = server.listeners[0].socket.getsockname()[1]
            url = f"ws://127.0.0.1:{port}"
            ann, bob = [await stack.enter_async_context(Client.connect(url, n))
                        for n in ("Ann", "Bob")]
            eve, dan = [await stack.enter_async_context(Client.connect(url, n))
                        for n in ("Eve", "Dan")]
            raw: dict[str, list[bytes]] = {"eve": [], "dan": []}
            eve.on_raw, dan.on_raw = raw["eve"].append, raw["dan"].append
            room = await ann.create_room("bo3", best_of=3, tiers=(mpb.SpectatorTier(
                kind=mpb.TIER_KIND_PUBLIC, delay_seconds=1, invite=True),))
            assert room.best_of == 3
            code = ann.invite_codes[room.room_id]
            # Both spectators are there before the first game starts.
            assert (await eve.join(room.room_id, spectator=True)).seat == SPECTATOR
            assert (await dan.join(room.room_id, spectator=True, invite_code=code,
                                   tier=1)).tier == 1
            await ann.join(room.room_id)
            await bob.join(room.room_id)
            bots = [RandomBot(c, random.Random(seat + 7), Policy.EAGER)
                    for seat, c in enumerate((ann, bob))]

            async def watch(client: Client) -> None:
                while not client.finished:
                    await client.next_message()

            async with trio.open_nursery() as play:
                for bot in bots:
                    play.start_soon(bot.play)
                play.start_soon(watch, eve)
                play.start_soon(watch, dan)

            live = app.lobby.rooms[room.room_id]
            assert live.finished and live.match_winner is not None
            games = len(live.game_ids)
            assert 2 <= games <= 6 and max(live.wins) == 2  # ceil(3/2) wins end it
            for client in (ann, bob, eve, dan):
                assert client.errors == [] and client.resyncs == 0
                assert client.match is not None
                assert client.match.phase == mpb.MATCH_PHASE_OVER
                assert client.match.winner == live.match_winner
                assert list(client.match.wins) == live.wins
                assert [g.game_id for g in client.match.games] == live.game_ids
            game = live.game
            assert game is not None
            for client in (eve, dan):  # the last game's end, as the server projects it
                assert client.mirror.view() == encode_view(project(game, SPECTATOR))
            # The delayed tier numbers its states as the live public class does.
            assert dan.mirror.state_id == eve.mirror.state_id
            nursery.cancel_scope.cancel()

    # Every game is stored as its own game, replayable, with the match record.
    match = store.load_match(room.room_id)
    assert match.games == tuple(live.game_ids) and match.best_of == 3
    assert match.winner == live.match_winner and list(match.wins) == live.wins
    assert live.game_ids[0] == room.room_id
    assert live.game_ids[1:] == [f"{room.room_id}.{n}" for n in range(2, games + 1)]
    snapshots: dict[str, list[int]] = {"eve": [], "dan": []}
    for who, messages in raw.items():
        for data in messages:
            msg = mpb.ServerMessage.FromString(data)
            if msg.HasField("snapshot"):
                snapshots[who].append(msg.snapshot.state_id)
    bases = []
    sent = _Sent.of(raw)
    for number, game_id in enumerate(live.game_ids, start=1):
        record = store.load_game(game_id)
        assert record.result is not None and record.match_id == room.room_id
        assert record.game_number == number
        bases.append(record.state_base)
        replay = Replay(record, -1)  # `manawire replay GAME_ID --as public` reads it so
        assert replay.state_id == record.state_base
        _assert_never_a_hidden_card(record, sent)
    # A snapshot of every game, to each spectator, in order, with state ids never reused.
    for who, ids in snapshots.items():
        assert [i for i in ids if i in bases] == bases, who
        assert ids == sorted(ids), who
    store.close()
    # `manawire replay GAME_ID` replays the last game with the ids the spectators had.
    assert main(["replay", live.game_ids[-1], "--as", "public", "--data-dir", str(tmp_path),
                 "--format", "json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["state_id"] == bases[-1]
    assert [ln["state_id"] for ln in lines if ln["state_id"]][-1] == eve.mirror.state_id


@dataclass(frozen=True)
class _Sent:
    """Every message the spectators were sent, read once for each game's check: the
    messages, all of them joined by a byte no object id has (an id is found in the joined
    bytes if and only if it is in one of the messages), and the objects they showed in a
    library or a hand."""

    messages: list[bytes]
    joined: bytes
    in_hidden_zones: list[pb.GameObject]

    @classmethod
    def of(cls, raw: dict[str, list[bytes]]) -> _Sent:
        messages = [data for datas in raw.values() for data in datas]
        return cls(messages, SEPARATOR.join(messages),
                   [obj for data in messages
                    for obj in _objects_in(mpb.ServerMessage.FromString(data))
                    if obj.zone.kind in (pb.ZONE_KIND_LIBRARY, pb.ZONE_KIND_HAND)])


#: Between the joined messages: no object id has it (ids are text).
SEPARATOR = b"\x00"


def _assert_never_a_hidden_card(record: GameRecord, sent: _Sent) -> None:
    """No spectator message carries the id of a card that was in a library or a hand in
    this game and never revealed (invariant 4), nor any object in a hidden zone but one
    revealed to all (701.20a), nor the seed."""
    setups = []
    for name, deck, _session in record.players:
        parsed = resolve(deck, DeckFormat.CONSTRUCTED)
        setups.append(PlayerSetup(name, parsed.main, parsed.sideboard))
    game = new_game(record.seed, setups, chooser=record.chooser)
    secrets = replay_secrets(game, record.actions, [SPECTATOR])
    assert game.result is not None
    hidden, shown = secrets.never_shown[SPECTATOR], secrets.shown[SPECTATOR]
    for data in sent.messages:
        assert record.seed not in data
    for oid in hidden:
        assert SEPARATOR not in oid.encode()
        assert oid.encode() not in sent.joined, f"hidden id {oid} leaked to a spectator"
    for obj in sent.in_hidden_zones:
        assert obj.id in shown, obj
