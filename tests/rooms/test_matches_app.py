"""Matches through the app over memory streams (autojump clock): CreateRoom.best_of, the
sideboarding request and its answers, the match record in the store, and a restart between
games and during game 2 that recovers the score, the game and the sideboarded decks."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.app import App
from server.decks import DeckFormat, resolve
from server.store import Store
from server.store.writer import StoreWriter
from tests.rooms.test_app_memory import MemorySocket, _hello
from tests.rooms.test_matches import REGISTERED, SIDEBOARDED


async def _until(sock: MemorySocket, body: str) -> mpb.ServerMessage:
    """The next message of kind ``body`` (earlier ones are skipped)."""
    while True:
        msg = mpb.ServerMessage.FromString(await sock.from_server.receive())
        if msg.WhichOneof("body") == body:
            return msg


async def _match(app: App, deck: str = REGISTERED) -> tuple[MemorySocket, MemorySocket, str]:
    a, b = MemorySocket(), MemorySocket()
    for sock, name in ((a, "Ann"), (b, "Bob")):
        app.lobby.nursery.start_soon(app.handle_connection, sock)
        await sock.request(**_hello(name))
    created = await a.request(create_room=mpb.CreateRoom(name="bo3", best_of=3))
    room = created.room_created.room
    assert room.best_of == 3 and list(room.wins) == [0, 0] and room.game_number == 0
    await a.request(join_room=mpb.JoinRoom(room_id=room.room_id, role=mpb.ROLE_PLAYER,
                                           deck=deck))
    await b.request(join_room=mpb.JoinRoom(room_id=room.room_id, role=mpb.ROLE_PLAYER))
    return a, b, room.room_id


async def test_create_room_best_of_is_1_3_or_5_for_two_seats(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    store = Store(tmp_path / "db.sqlite3")
    async with trio.open_nursery() as nursery:
        app = App(store, nursery, writer=StoreWriter(store, inline=True))
        a = MemorySocket()
        nursery.start_soon(app.handle_connection, a)
        await a.request(**_hello("Ann"))
        for fields, words in (({"best_of": 2}, "best_of is 1 (or 0: a single game), 3 or 5"),
                              ({"best_of": 3, "seats": 4},
                               "for two players (a multiplayer match is one game)")):
            reply = await a.request(create_room=mpb.CreateRoom(name="x", **fields))  # type: ignore[arg-type]
            assert reply.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT
            assert words in reply.error.message
        one = await a.request(create_room=mpb.CreateRoom(name="x"))
        assert one.room_created.room.best_of == 1
        nursery.cancel_scope.cancel()
    store.close()


async def test_100_4_sideboarding_through_the_app_and_a_restart_recovers_the_match(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    store = Store(tmp_path / "db.sqlite3")
    async with trio.open_nursery() as nursery:
        app = App(store, nursery, writer=StoreWriter(store, inline=True))
        a, b, room_id = await _match(app)
        await _until(a, "snapshot")
        reply = await a.request(submit_deck=mpb.SubmitDeck(keep=True))
        assert reply.error.code == mpb.ERROR_CODE_NOT_READY  # game 1 is being played
        await a.to_server.send(mpb.ClientMessage(concede=mpb.ConcedeGame()).SerializeToString())
        state = (await _until(b, "match_state")).match_state
        while state.phase != mpb.MATCH_PHASE_SIDEBOARDING:
            state = (await _until(b, "match_state")).match_state
        assert list(state.wins) == [0, 1] and state.game_number == 2
        # A list the server can't read, then one that isn't the registered cards.
        reply = await a.request(submit_deck=mpb.SubmitDeck(deck="4 Nonexistent Card\n"))
        assert reply.error.code == mpb.ERROR_CODE_INVALID_DECK and reply.error.details
        reply = await a.request(submit_deck=mpb.SubmitDeck(
            deck=SIDEBOARDED.replace("4 Shock", "4 Llanowar Visionary")))
        assert reply.error.code == mpb.ERROR_CODE_INVALID_DECK
        assert any("exchange cards between your main deck and sideboard" in d
                   for d in reply.error.details)
        # A main deck too small *and* cards that aren't the registered ones: both told.
        reply = await a.request(submit_deck=mpb.SubmitDeck(
            deck=SIDEBOARDED.replace("18 Mountain", "17 Mountain").replace("4 Shock",
                                                                          "5 Shock")))
        assert reply.error.code == mpb.ERROR_CODE_INVALID_DECK
        details = list(reply.error.details)
        assert any("at least 60 cards" in d and "got 59" in d for d in details), details
        assert any("'Mountain'" in d and "registered missing" in d for d in details), details
        assert any("'Shock'" in d and "but 4 registered" in d for d in details), details
        assert sum("at least 60" in d for d in details) == 1, details
        reply = await a.request(submit_deck=mpb.SubmitDeck(deck=""))
        assert reply.error.code == mpb.ERROR_CODE_INVALID_DECK
        reply = await a.request(submit_deck=mpb.SubmitDeck(deck=SIDEBOARDED))
        assert reply.deck_accepted.game_number == 2 and reply.deck_accepted.main_count == 60
        match = store.load_match(room_id)
        assert match.wins == (0, 1) and match.ready == (True, False)
        assert match.decks[0] == resolve(SIDEBOARDED, DeckFormat.CONSTRUCTED).text
        app.shutdown()
        nursery.cancel_scope.cancel()

    # A restart between games: the score, the sideboarded deck and who answered come back.
    async with trio.open_nursery() as nursery:
        app = App(store, nursery, writer=StoreWriter(store, inline=True))
        assert app.recover() == 1
        room = app.lobby.rooms[room_id]
        assert room.sideboarding and room.game_number == 1 and room.wins == [0, 1]
        assert room.ready == [True, False]
        ann = room.seats[0]
        assert ann is not None and ann.deck is not None
        assert ann.deck.text == resolve(SIDEBOARDED, DeckFormat.CONSTRUCTED).text
        assert ann.registered is not None
        assert ann.registered.text == resolve(REGISTERED, DeckFormat.CONSTRUCTED).text
        await trio.sleep(room.config.sideboard_seconds + 1)  # Bob keeps his deck
        assert room.game_number == 2 and room.game is not None
        assert room.game.result is None
        record = store.load_game(f"{room_id}.2")
        assert record.players[0][1] == ann.deck.text and record.game_number == 2
        assert record.chooser == 0  # Ann lost game 1: she chooses (rule 103.1)
        app.shutdown()
        nursery.cancel_scope.cancel()

    # A restart during game 2: game 2 is rebuilt with the match around it.
    async with trio.open_nursery() as nursery:
        app = App(store, nursery, writer=StoreWriter(store, inline=True))
        assert app.recover() == 1
        room = app.lobby.rooms[room_id]
        assert room.game_number == 2 and room.game_id == f"{room_id}.2"
        assert room.wins == [0, 1] and not room.sideboarding and not room.finished
        assert room.game is not None and room.game.pending is not None
        assert room.game.pending.seat == 0  # the chooser of game 2, as stored
        assert room.classes[-1].stream.state_id == record.state_base > 1
        app.shutdown()
        nursery.cancel_scope.cancel()
    store.close()


async def test_a_printing_of_another_set_is_noted_to_its_player_on_joining_and_sideboarding(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """``4 Shock (M20) 999`` is played as the M21 Shock, and the player is told so: the note
    comes in Joined.deck_notes (and in DeckAccepted.notes between games), never to others."""
    store = Store(tmp_path / "db.sqlite3")
    note = ("line 4 names Shock's M20 printing: this server plays its M21 printing, the "
            "same card (a printing never changes the game)")
    async with trio.open_nursery() as nursery:
        app = App(store, nursery, writer=StoreWriter(store, inline=True))
        a, b = MemorySocket(), MemorySocket()
        for sock, name in ((a, "Ann"), (b, "Bob")):
            app.lobby.nursery.start_soon(app.handle_connection, sock)
            await sock.request(**_hello(name))
        room = (await a.request(create_room=mpb.CreateRoom(name="bo3", best_of=3))
                ).room_created.room
        joined = await a.request(join_room=mpb.JoinRoom(
            room_id=room.room_id, role=mpb.ROLE_PLAYER,
            deck=REGISTERED.replace("4 Shock", "4 Shock (M20) 999")))
        assert list(joined.joined.deck_notes) == [note], joined
        other = await b.request(join_room=mpb.JoinRoom(room_id=room.room_id,
                                                       role=mpb.ROLE_PLAYER))
        assert list(other.joined.deck_notes) == []
        await a.to_server.send(mpb.ClientMessage(concede=mpb.ConcedeGame()).SerializeToString())
        state = (await _until(a, "match_state")).match_state
        while state.phase != mpb.MATCH_PHASE_SIDEBOARDING:
            state = (await _until(a, "match_state")).match_state
        await trio.sleep(20)  # (the address's deck-check budget, spent by the join, refills)
        reply = await a.request(submit_deck=mpb.SubmitDeck(
            deck=SIDEBOARDED.replace("4 Onakke Ogre", "4 Onakke Ogre (M20) 999")))
        assert [n.split(":")[0] for n in reply.deck_accepted.notes] == [
            "line 2 names Onakke Ogre's M20 printing"], reply
        assert not (await a.request(submit_deck=mpb.SubmitDeck(keep=True))).deck_accepted.notes
        app.shutdown()
        nursery.cancel_scope.cancel()
    store.close()
