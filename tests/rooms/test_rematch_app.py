"""The rematch through the app over memory streams (autojump clock; protocol/README.md,
"Rematch"): both players offer, and both are seated in a new room with the old room's
settings, in their seats, with the decks they registered; the spectators are told where it
is (a private room's: only that it started); the new invite code goes to the players only.
And a crash between the agreement and the seating: nobody is seated in two games, and the
players go on."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.app import App
from server.decks import DeckFormat, resolve
from server.rematch import RematchDesk
from server.rooms import commands as cmd
from server.rooms.pump import RoomHost
from server.store.records import PutSession, Spectate
from tests.rooms.test_app_memory import running_app
from tests.rooms.test_app_rooms import Peer
from tests.rooms.test_matches import REGISTERED


def _of(peer: Peer, body: str) -> list[mpb.ServerMessage]:
    return [m for m in peer.got if m.WhichOneof("body") == body]


async def _settle() -> None:
    """Let every task run and the spectators' feed flush (0.1 s)."""
    await trio.sleep(1)


async def _both_offer(ann: Peer, bob: Peer, watcher: Peer) -> mpb.RematchStarted:
    """Ann and Bob offer a rematch of their finished game; the ``RematchStarted`` the
    old room's spectator ``watcher`` is told (exactly one)."""
    await ann.send(offer_rematch=mpb.OfferRematch(offer=True))
    await bob.send(offer_rematch=mpb.OfferRematch(offer=True))
    await _settle()
    watcher.pump()
    (started,) = [m.rematch_started for m in _of(watcher, "rematch_started")]
    return started


async def _tiered_rematch(app: App, spectate: int = mpb.SPECTATE_UNSPECIFIED
                          ) -> tuple[Peer, str, str, str]:
    """Ann and Bob play in a public room watched live as ``spectate`` says and through a
    public tier 120 s behind (open with the room's invite code); Ann concedes and both
    offer a rematch. Returns a third guest (Cy, not in the room), the old room's id and
    invite code, and the rematch's room id."""
    ann, bob, cy = Peer(app, "Ann"), Peer(app, "Bob"), Peer(app, "Cy")
    for p in (ann, bob, cy):
        await p.hello()
    created = await ann.call(create_room=mpb.CreateRoom(
        name="t", clock_seconds=900, join=True, spectate=spectate,  # type: ignore[arg-type]
        tiers=[mpb.SpectatorTier(kind=mpb.TIER_KIND_PUBLIC, delay_seconds=120,
                                 invite=True)]))
    assert created.HasField("room_created"), created
    room_id, code = created.room_created.room.room_id, created.room_created.invite_code
    await _settle()
    joined = await bob.call(join_room=mpb.JoinRoom(room_id=room_id, role=mpb.ROLE_PLAYER))
    assert joined.HasField("joined"), joined
    await _settle()
    await ann.send(concede=mpb.ConcedeGame())
    await _settle()
    await ann.send(offer_rematch=mpb.OfferRematch(offer=True))
    await bob.send(offer_rematch=mpb.OfferRematch(offer=True))
    await _settle()
    ann.pump()
    (new_id,) = {m.rematch_started.new_room_id for m in _of(ann, "rematch_started")}
    return cy, room_id, code, new_id


async def _finished_game(app: App, *, private: bool, spectate: int = mpb.SPECTATE_ALLOWED
                         ) -> tuple[Peer, Peer, Peer, str, str]:
    """Ann creates a room (with her deck list) and Bob joins it (a demo deck); Cy watches;
    Ann concedes. Returns the three, the room id and its invite code."""
    ann, bob, cy = Peer(app, "Ann"), Peer(app, "Bob"), Peer(app, "Cy")
    for p in (ann, bob, cy):
        await p.hello()
    created = await ann.call(create_room=mpb.CreateRoom(
        name="friends", clock_seconds=900, private=private, spectate=spectate,  # type: ignore[arg-type]
        join=True, deck=REGISTERED))
    room_id, code = created.room_created.room.room_id, created.room_created.invite_code
    await _settle()
    reply = await bob.call(join_room=mpb.JoinRoom(room_id=room_id, role=mpb.ROLE_PLAYER,
                                                  invite_code=code, deck="golgari-grind"))
    assert reply.joined.seat == 1
    reply = await cy.call(join_room=mpb.JoinRoom(room_id=room_id, role=mpb.ROLE_SPECTATOR,
                                                 invite_code=code))
    assert reply.HasField("joined"), reply
    await ann.send(concede=mpb.ConcedeGame())
    await _settle()
    assert app.lobby.rooms[room_id].finished
    for p in (ann, bob, cy):
        p.pump()
        p.got.clear()
    return ann, bob, cy, room_id, code


async def test_rule_103_1_both_offer_and_both_are_seated_in_the_rematch_with_their_decks(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """Same seats; the new game's starting player is chosen by its own procedure (103.1);
    each deck is the one registered for the old room (100.4); the private room's new code
    goes to its players only."""
    async with running_app(tmp_path) as app:
        ann, bob, cy, room_id, code = await _finished_game(app, private=True)
        reply = await ann.call(offer_rematch=mpb.OfferRematch(offer=True))
        assert list(reply.rematch_offers.offered) == [True, False]
        await _settle()
        told = [m for m in bob.pump() if m.HasField("rematch_offers")]
        assert [list(m.rematch_offers.offered) for m in told] == [[True, False]]
        assert [list(m.rematch_offers.offered) for m in cy.pump()
                if m.HasField("rematch_offers")] == [[True, False]]
        await bob.send(offer_rematch=mpb.OfferRematch(offer=True))
        await _settle()
        for p in (ann, bob, cy):
            p.pump()
        started = [m.rematch_started for m in _of(ann, "rematch_started")]
        assert len(started) == 1 and started[0].old_room_id == room_id
        new_id, new_code = started[0].new_room_id, started[0].invite_code
        assert new_id and new_id != room_id and new_code and new_code != code
        assert [(m.rematch_started.new_room_id, m.rematch_started.invite_code)
                for m in _of(bob, "rematch_started")] == [(new_id, new_code)]
        # A private room's spectators learn only that a rematch started.
        assert [(m.rematch_started.old_room_id, m.rematch_started.new_room_id,
                 m.rematch_started.invite_code) for m in _of(cy, "rematch_started")] == [
            (room_id, "", "")]
        for p, seat, deck in ((ann, 0, resolve(REGISTERED, DeckFormat.CONSTRUCTED).text),
                              (bob, 1, resolve("golgari-grind", DeckFormat.CONSTRUCTED).text)):
            joined = [m for m in _of(p, "joined") if m.joined.room.room_id == new_id]
            assert len(joined) == 1 and joined[0].request_id == 0
            assert joined[0].joined.seat == seat and joined[0].joined.deck == deck
            # RematchStarted came first, then the new room's Joined and its game.
            kinds = [m.WhichOneof("body") for m in p.got]
            assert kinds.index("rematch_started") < kinds.index("joined")
            assert any(m.snapshot.room_id == new_id for m in _of(p, "snapshot"))
        new = app.lobby.rooms[new_id]
        old = app.lobby.rooms[room_id]
        assert new.game is not None and not new.finished  # started: both seated
        # (Named for the original: the lobby listed both, finished, under one name.)
        assert (new.name, new.clock_seconds, new.best_of, new.format) == \
            (f"{old.name} (rematch)", old.clock_seconds, old.best_of, old.format)
        assert new.settings.private and new.settings.spectate is Spectate.ALLOWED
        assert new.settings.tiers == old.settings.tiers
        assert [name for _a, name in new.settings.reserved] == [
            m.name for m in old.seats if m is not None]
        # Each session's place is the new room (stored: a restart resumes it there).
        places = {row.name: row.room_id for row in app.store.sessions()}
        assert [places[m.name] for m in new.seats if m is not None] == [new_id, new_id]
        # The old room's players were released: they are in no room there.
        assert not any(m is not None and m.conn is not None for m in old.seats)


async def test_a_public_rooms_spectators_are_told_where_the_rematch_is_and_may_watch_it(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        ann, bob, cy, room_id, _code = await _finished_game(app, private=False)
        started = await _both_offer(ann, bob, cy)
        assert started.old_room_id == room_id and started.new_room_id
        assert not started.invite_code  # (the code goes to the players only)
        await cy.send(leave_room=mpb.LeaveRoom())
        reply = await cy.call(join_room=mpb.JoinRoom(room_id=started.new_room_id,
                                                     role=mpb.ROLE_SPECTATOR))
        assert reply.joined.room.room_id == started.new_room_id
        assert reply.joined.role == mpb.ROLE_SPECTATOR


async def test_refusals_through_the_app_not_in_a_room_and_before_the_game_is_over(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        ann = Peer(app, "Ann")
        await ann.hello()
        reply = await ann.call(offer_rematch=mpb.OfferRematch(offer=True))
        assert reply.error.code == mpb.ERROR_CODE_NOT_READY
        assert reply.error.message == \
            "not in a room: offer a rematch in the room whose game just ended"
        await ann.call(create_room=mpb.CreateRoom(name="x", join=True))
        reply = await ann.call(offer_rematch=mpb.OfferRematch(offer=True))
        assert reply.error.code == mpb.ERROR_CODE_NOT_READY
        assert "isn't over yet" in reply.error.message


async def test_a_crash_between_agreement_and_seating_seats_nobody_twice_and_play_goes_on(
    tmp_path: Path, autojump_clock: trio.testing.MockClock, monkeypatch: object
) -> None:
    """The server dies as both have offered, before the new room is made: after the
    restart both resume into the old room (its game over) and may offer again; a rematch
    then seats them in one new game."""
    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch)

    async def crash(self: RematchDesk, old: RoomHost, plan: cmd.RematchPlan) -> None:
        app.shutdown()  # (killed here: nothing of the rematch was made)

    async with running_app(tmp_path) as app:
        ann, bob, _cy, room_id, _code = await _finished_game(app, private=False)
        with monkeypatch.context() as patched:
            patched.setattr(RematchDesk, "start", crash)
            await ann.send(offer_rematch=mpb.OfferRematch(offer=True))
            await bob.send(offer_rematch=mpb.OfferRematch(offer=True))
            await _settle()
        ann.pump(), bob.pump()
        tokens = [ann.token, bob.token]
    async with running_app(tmp_path) as app:
        app.recover()
        assert room_id in app.lobby.rooms and app.lobby.rooms[room_id].finished
        back = [Peer(app, "Ann"), Peer(app, "Bob")]
        for peer, token in zip(back, tokens, strict=True):
            reply = await peer.call(resume=mpb.Resume(protocol_version=1, resume_token=token))
            assert reply.resumed.joined.room.room_id == room_id
        await back[0].send(offer_rematch=mpb.OfferRematch(offer=True))
        await back[1].send(offer_rematch=mpb.OfferRematch(offer=True))
        await _settle()
        for peer in back:
            peer.pump()
        new_ids = {m.rematch_started.new_room_id for p in back
                   for m in _of(p, "rematch_started")}
        assert len(new_ids) == 1
        (new_id,) = new_ids
        live = [r for r in app.lobby.rooms.values() if r.game is not None and not r.finished]
        assert [r.room_id for r in live] == [new_id]


async def test_a_crash_after_the_rematch_game_started_resumes_its_players_into_it(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """The new game is stored as it starts; the players' places are written just after. A
    crash between the two left their stored places in the old room: after the restart
    each resumes where it holds a seat, the new game (and never in the old room)."""
    async with running_app(tmp_path) as app:
        ann, bob, _cy, room_id, _code = await _finished_game(app, private=False)
        await ann.send(offer_rematch=mpb.OfferRematch(offer=True))
        await bob.send(offer_rematch=mpb.OfferRematch(offer=True))
        await _settle()
        ann.pump(), bob.pump()
        (new_id,) = {m.rematch_started.new_room_id for m in _of(ann, "rematch_started")}
        # As if the places' write was lost in the crash: the old room's, as before.
        rows = [r for r in app.store.sessions() if r.room_id == new_id]
        assert len(rows) == 2
        app.store.apply([PutSession(r.session_id, r.token_hash, r.name, room_id, r.prev_hash,
                                    r.account_id) for r in rows])
        tokens = [ann.token, bob.token]
        app.shutdown()
    async with running_app(tmp_path) as app:
        app.recover()
        for name, token in zip(("Ann", "Bob"), tokens, strict=True):
            peer = Peer(app, name)
            reply = await peer.call(resume=mpb.Resume(protocol_version=1, resume_token=token))
            assert reply.resumed.joined.room.room_id == new_id
            assert reply.resumed.joined.role == mpb.ROLE_PLAYER


async def test_the_new_code_goes_only_to_players_who_knew_the_old_one_rematch_after_rematch(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """atk8 HIGH: a player who joined a public room without its code was told the rematch's
    code, which opens the invite-only spectator tiers (every hand among them) to a second
    account of theirs. Only the creator (RoomCreated) and those who joined with the code
    know it; the others are seated all the same (their seats are reserved) -- and in the
    rematch of the rematch too (the server's own code for seating them teaches them
    nothing)."""
    async with running_app(tmp_path) as app:
        ann, bob = Peer(app, "Ann"), Peer(app, "Bob")
        for p in (ann, bob):
            await p.hello()
        created = await ann.call(create_room=mpb.CreateRoom(
            name="open", clock_seconds=900, private=False, join=True, deck=REGISTERED))
        room_id = created.room_created.room.room_id
        await _settle()
        reply = await bob.call(join_room=mpb.JoinRoom(room_id=room_id, role=mpb.ROLE_PLAYER,
                                                      deck="golgari-grind"))  # (no code)
        assert reply.joined.seat == 1
        for _round in range(2):
            await ann.send(concede=mpb.ConcedeGame())
            await _settle()
            for p in (ann, bob):
                p.pump()
                p.got.clear()
            await ann.send(offer_rematch=mpb.OfferRematch(offer=True))
            await bob.send(offer_rematch=mpb.OfferRematch(offer=True))
            await _settle()
            for p in (ann, bob):
                p.pump()
            (to_ann,) = [m.rematch_started for m in _of(ann, "rematch_started")]
            (to_bob,) = [m.rematch_started for m in _of(bob, "rematch_started")]
            new_id = to_ann.new_room_id
            assert to_ann.old_room_id == room_id and to_bob.new_room_id == new_id
            assert to_ann.invite_code and not to_bob.invite_code
            assert to_ann.audience_code and not to_bob.audience_code
            assert to_ann.audience_code != to_ann.invite_code
            new = app.lobby.rooms[new_id]
            assert new.game is not None  # both seated: Bob by his reserved seat
            assert [m.name.split("#")[0] for m in new.seats if m is not None] == ["Ann", "Bob"]
            room_id = new_id


async def _drop_as_released(app: App, ann: Peer, bob: Peer, *, back_before: bool
                            ) -> list[Peer]:
    """Ann's connection closes just as the room lets the players go to the rematch, before
    the rematch's room is made; with ``back_before`` she resumes (a new connection) before
    it is made too. Returns the Peer she resumed on, if she did."""
    real = app.rematch_desk.start
    again: list[Peer] = []

    async def dropped_first(old: RoomHost, plan: cmd.RematchPlan) -> None:
        token = ann.token
        await ann.sock.to_server.aclose()
        await trio.testing.wait_all_tasks_blocked()
        if back_before:
            peer = Peer(app, "Ann")
            reply = await peer.call(resume=mpb.Resume(protocol_version=1, resume_token=token))
            assert reply.HasField("resumed") and not reply.resumed.HasField("joined"), reply
            again.append(peer)
        await real(old, plan)

    app.rematch_desk.start = dropped_first  # type: ignore[method-assign]
    for p in (ann, bob):
        await p.send(offer_rematch=mpb.OfferRematch(offer=True))
        await _settle()
    return again


def _seated_in(app: App, room_id: str) -> list[str]:
    return [m.name.split("#")[0] for m in app.lobby.rooms[room_id].seats if m is not None]


async def test_a_player_dropped_as_the_rematch_was_made_resumes_into_it(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """rev8 MEDIUM: Ann's connection closed after the old room let the players go but before
    she was seated: her seat in the rematch waited, reserved, and her resume put her back in
    the old room (its game over) with a RematchStarted and no seat -- both players waited
    for good. Now she resumes outside the old room and is seated in the rematch's room at
    once (RematchStarted, then Joined), and the new game starts."""
    async with running_app(tmp_path) as app:
        ann, bob, _cy, room_id, _code = await _finished_game(app, private=True)
        assert await _drop_as_released(app, ann, bob, back_before=False) == []
        (new_id,) = [r for r in app.lobby.rooms if r != room_id]
        assert _seated_in(app, new_id) == ["Bob"]  # Ann's seat waits, reserved
        assert app.lobby.rooms[new_id].game is None
        again = Peer(app, "Ann")
        reply = await again.call(resume=mpb.Resume(protocol_version=1, resume_token=ann.token))
        assert reply.HasField("resumed") and not reply.resumed.HasField("joined"), reply
        await _settle()
        again.pump()
        kinds = [m.WhichOneof("body") for m in again.got]
        assert kinds.index("rematch_started") < kinds.index("joined") < kinds.index("snapshot")
        (started,) = [m.rematch_started for m in _of(again, "rematch_started")]
        assert (started.old_room_id, started.new_room_id) == (room_id, new_id)
        assert started.invite_code  # (she created the old room: she knew its code)
        assert _seated_in(app, new_id) == ["Ann", "Bob"]
        assert app.lobby.rooms[new_id].game is not None


async def test_a_player_back_before_the_rematch_was_made_is_seated_in_it(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """rev8 MEDIUM, case B: Ann dropped and resumed before the rematch's room was made: the
    rematch seats her on the connection she has now, not the one she offered on."""
    async with running_app(tmp_path) as app:
        ann, bob, _cy, room_id, _code = await _finished_game(app, private=True)
        (again,) = await _drop_as_released(app, ann, bob, back_before=True)
        (new_id,) = [r for r in app.lobby.rooms if r != room_id]
        assert _seated_in(app, new_id) == ["Ann", "Bob"]
        assert app.lobby.rooms[new_id].game is not None
        again.pump()
        assert [m.joined.room.room_id for m in _of(again, "joined")] == [new_id]
