"""End to end over real loopback WebSockets with the SDK: accounts and tokens, deck files
submitted with a join, quick match to the end of a game, and a private room."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio

from client_sdk import Client
from client_sdk.bots import RandomBot
from client_sdk.client import ConnectionLostError, ServerError
from protocol.v1 import messages_pb2 as mpb
from server.app import App
from server.store import Store
from server.transport.ws import serve_app

DECKS = Path(__file__).resolve().parent.parent / "decks" / "files"


@asynccontextmanager
async def serving(tmp_path: Path) -> AsyncIterator[tuple[App, str]]:
    store = Store(tmp_path / "manawire.sqlite3")
    try:
        async with trio.open_nursery() as nursery:
            app = App(store, nursery)
            server = await nursery.start(serve_app, app, "127.0.0.1", 0)
            port = server.listeners[0].socket.getsockname()[1]
            yield app, f"ws://127.0.0.1:{port}"
            nursery.cancel_scope.cancel()
    finally:
        app.close()
        store.close()


async def _play(client: Client, seed: int) -> int:
    bot = RandomBot(client, random.Random(seed))
    await bot.play()
    return bot.actions


async def test_two_sdk_clients_quick_match_with_deck_files_and_play_to_the_end(
    tmp_path: Path,
) -> None:
    arena = (DECKS / "gruul-arena.txt").read_text()
    mtgo = (DECKS / "gruul.dek").read_text()
    with trio.fail_after(120):
        async with serving(tmp_path) as (app, url), \
                Client.connect(url, "ann") as ann, Client.connect(url, "bob") as bob:
            joined: dict[str, mpb.Joined] = {}
            async with trio.open_nursery() as nursery:
                async def queue(client: Client, deck: str) -> None:
                    joined[client.name] = await client.quick_match(seats=2, deck=deck)

                nursery.start_soon(queue, ann, arena)
                nursery.start_soon(queue, bob, mtgo)
            assert sorted(j.seat for j in joined.values()) == [0, 1]
            room_id = ann.room_id
            assert room_id is not None and room_id == bob.room_id
            async with trio.open_nursery() as nursery:
                nursery.start_soon(_play, ann, 1)
                nursery.start_soon(_play, bob, 2)
            assert ann.mirror.game_over and bob.mirror.game_over
            assert not ann.errors and not bob.errors
            record = app.store.load_game(room_id)
            assert record.result is not None
            # Each seat played the deck it sent (stored as its canonical list).
            assert all("Chandra's Magmutt" in deck for _n, deck, _s in record.players)


async def test_a_token_brings_the_same_account_back_and_a_bad_deck_names_its_line(
    tmp_path: Path,
) -> None:
    with trio.fail_after(60):
        async with serving(tmp_path) as (_app, url):
            async with Client.connect(url, "ann") as first:
                token, account = first.account_token, first.account
                assert token and account.name.startswith("ann#")
                room = await first.create_room("private", private=True)
                code = first.invite_codes[room.room_id]
                with pytest.raises(ServerError) as refused:
                    await first.join(room.room_id, deck="4 Shock\n2 Black Lotus\n")
                assert refused.value.code == mpb.ERROR_CODE_INVALID_DECK
                assert any("line 2" in d and "Black Lotus" in d
                           for d in refused.value.details)
            async with Client.connect(url, token=token) as again:
                assert again.account.account_id == account.account_id
                async with Client.connect(url, "eve") as eve:
                    rooms = await eve.list_rooms()
                    assert room.room_id not in [r.room_id for r in rooms]
                    with pytest.raises(ServerError) as forbidden:
                        await eve.join(room.room_id)
                    assert forbidden.value.code == mpb.ERROR_CODE_ROOM_NOT_FOUND  # (as none)
                    assert (await eve.join(room.room_id, invite_code=code)).seat == 0
            with pytest.raises(ServerError) as bad:
                async with Client.connect(url, token="forged-" + token[7:]):
                    pass
            assert bad.value.code == mpb.ERROR_CODE_UNAUTHENTICATED


async def test_back_in_a_room_whose_game_is_over_a_client_leaves_it_and_starts_afresh(
    tmp_path: Path,
) -> None:
    """``play --token`` within a finished room's linger time once showed that game's end
    again and exited: the resumed session is in the room still. ``leave_room(wait=True)``
    leaves it and forgets it, so what the room sent on the resume isn't taken for the next
    room's."""
    with trio.fail_after(60):
        async with serving(tmp_path) as (_app, url):
            async with Client.connect(url, "ann") as ann, Client.connect(url, "bob") as bob:
                token = ann.account_token
                room = await ann.create_room("over")
                await ann.join(room.room_id)
                await bob.join(room.room_id)
                await ann.concede()
                while not ann.mirror.game_over:
                    await ann.next_message()
            async with Client.connect(url, token=token) as again:
                assert again.room is not None and again.room.finished
                assert again.room_id == room.room_id
                await again.leave_room(wait=True)
                assert again.room_id is None and again.room is None and again.match is None
                assert not again.mirror.ready and again.decision is None
                await again.list_rooms()  # nothing the old room sent is left to read
                assert again.room_id is None and not again.mirror.ready
                fresh = await again.create_room("fresh")
                assert (await again.join(fresh.room_id)).seat == 0
                assert again.room_id == fresh.room_id


async def test_a_private_room_made_with_the_sdk_defaults_is_watched_only_with_its_code(
    tmp_path: Path,
) -> None:
    with trio.fail_after(60):
        async with serving(tmp_path) as (_app, url), Client.connect(url, "ann") as ann, \
                Client.connect(url, "eve") as eve:
            room = await ann.create_room("private", private=True)
            assert room.spectate == mpb.SPECTATE_INVITE
            with pytest.raises(ServerError) as refused:
                await eve.join(room.room_id, spectator=True)
            assert refused.value.code == mpb.ERROR_CODE_ROOM_NOT_FOUND  # (as if none)
            code = ann.invite_codes[room.room_id]
            assert (await eve.join(room.room_id, spectator=True, invite_code=code)).seat == -1


async def test_a_dropped_client_whose_account_went_on_elsewhere_takes_that_seat_back_batched(
    tmp_path: Path,
) -> None:
    """Ann drops while in no room (her session is forgotten); the same account signs in on
    another device and takes a seat. Ann's client reconnects: its Resume fails, its Hello is
    answered with Resumed (one session per account) -- the seat comes with it, and the
    batched frames that follow are read as batches."""
    with trio.fail_after(60):
        async with serving(tmp_path) as (_app, url), Client.connect(url, "ann") as ann:
            assert ann.batching
            await ann.drop()
            async with Client.connect(url, token=ann.account_token, reconnect=False) as other:
                room = await other.create_room("t")
                joined = await other.join(room.room_id)
                async with Client.connect(url, "bob") as bob:
                    await bob.join(room.room_id)
                    with pytest.raises(ConnectionLostError):  # sent on the dead connection
                        await ann.request(mpb.ClientMessage(list_rooms=mpb.ListRooms()))
                    assert ann.resumes == 0  # a Hello took the session over, not a Resume
                    assert ann.room_id == room.room_id and ann.seat == joined.seat
                    assert ann.room is not None and ann.room.name == "t"  # (a screen's title)
                    assert ann.batching
                    while ann.mirror.state_id == 0:  # the game state reaches Ann
                        await ann.next_message()


async def test_bots_play_a_sealed_deck_in_a_limited_room_and_a_constructed_room_refuses_it(
    tmp_path: Path,
) -> None:
    """``manawire bots --format limited``: a 40-card deck from six M21 boosters (``manawire
    sealed --playable``) is a legal limited deck (100.2b) but not a constructed one (100.2a),
    so only a limited room or queue seats it."""
    from client_sdk.bots import run_bot_games
    from client_sdk.policy import Policy
    from server.cards.sealed import open_pool, playable_deck
    from server.cards.sets import load_set

    names = [c.name for b in open_pool(load_set("M21"), "7") for c in b.cards]
    main, _side = playable_deck(names)
    assert len(main) == 40
    deck = "\n".join(f"1 {name}" for name in main)
    with trio.fail_after(240):
        async with serving(tmp_path) as (_app, url):
            limited = await run_bot_games(url, 1, 2, seed=3, tables=[(deck, deck)],
                                          deck_format=mpb.DECK_FORMAT_LIMITED)
            # (eager bots, whose games are shorter, through the quick-match path)
            queued = await run_bot_games(url, 1, 2, seed=4, tables=[(deck, deck)],
                                         quick_match=True, policy=Policy.EAGER,
                                         deck_format=mpb.DECK_FORMAT_LIMITED)
            constructed = await run_bot_games(url, 1, 2, seed=5, tables=[(deck, deck)])
    assert (limited.completed, limited.errors) == (1, 0) and limited.actions > 0
    assert (queued.completed, queued.errors) == (1, 0) and queued.actions > 0
    assert (constructed.completed, constructed.errors) == (0, 1)
