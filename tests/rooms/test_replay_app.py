"""Replays over the protocol (memory sockets, autojump clock): who may replay what, refusals
of unfinished games, and the client's control of a replay -- play, pause, seek, speed, stop,
ReplayEnded -- with the replay session outside every room."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.app import App
from server.cards import demo_deck_names
from server.decks import DeckFormat, resolve
from server.engine import PlayerSetup, apply, new_game
from server.engine.actions import Concede
from server.replay import EVERY_HAND, OMNISCIENT, PUBLIC, Replay, replay_problem
from server.rooms.replaying import IDLE_SECONDS
from server.store import Store
from server.store.records import (
    AppendAction,
    CreateGame,
    FinishGame,
    GameRecord,
    RoomSettings,
    Spectate,
    SpectatorTier,
    TierKind,
    secret_hash,
)
from tests.rooms.test_app_memory import MemorySocket, _hello, running_app

ACTIONS = 60  # then seat 1 concedes


def store_game(store: Store, room_id: str, accounts: tuple[str, str], *, finish: bool = True,
               settings: RoomSettings | None = None, seed: int = 5) -> int:
    """Play a two-player game of random choices (seat 1 concedes after :data:`ACTIONS`)
    and store it as a room would; returns its number of actions."""
    decks = demo_deck_names()[:2]
    fmt = DeckFormat.CONSTRUCTED
    setups = [PlayerSetup(f"P{i}", resolve(d, fmt).main, resolve(d, fmt).sideboard)
              for i, d in enumerate(decks)]
    game_seed = bytes([seed]) * 32
    game = new_game(game_seed, setups)
    rng = random.Random(seed)
    ops: list[object] = [CreateGame(room_id, "stored", game_seed,
                                    tuple((f"P{i}", d, f"s{i}") for i, d in enumerate(decks)),
                                    1800.0, accounts, settings or RoomSettings())]
    while game.result is None and game.action_count < ACTIONS:
        pending = game.pending
        assert pending is not None
        action = rng.choice(pending.options)
        apply(game, pending.seat, action)
        ops.append(AppendAction(room_id, game.action_count, pending.seat, action, (1.0, 1.0)))
    if finish:
        if game.result is None:
            apply(game, 1, Concede())
            ops.append(AppendAction(room_id, game.action_count, 1, Concede(), (1.0, 1.0)))
        assert game.result is not None
        ops.append(FinishGame(room_id, game.result.winners, game.result.reason))
    store.apply(ops)  # type: ignore[arg-type]
    return game.action_count


async def _client(app: App, name: str) -> tuple[MemorySocket, str]:
    sock = MemorySocket()
    app.lobby.nursery.start_soon(app.handle_connection, sock)
    welcome = await sock.request(**_hello(name))
    return sock, welcome.welcome.account.account_id


async def _until(sock: MemorySocket, body: str) -> mpb.ServerMessage:
    for _ in range(10_000):
        msg = mpb.ServerMessage.FromString(await sock.from_server.receive())
        if msg.WhichOneof("body") == body:
            return msg
    raise AssertionError(f"no {body}")


def _replay(**fields: object) -> dict[str, object]:
    return {"replay": mpb.ReplayRequest(**fields)}  # type: ignore[arg-type]


def _control(**fields: object) -> dict[str, object]:
    return {"replay_control": mpb.ReplayControl(**fields)}  # type: ignore[arg-type]


async def test_who_may_replay_what(tmp_path: Path) -> None:
    async with running_app(tmp_path) as app:
        ann, ann_id = await _client(app, "Ann")
        bob, bob_id = await _client(app, "Bob")
        eve, eve_id = await _client(app, "Eve")
        store_game(app.store, "open", (ann_id, bob_id))
        invite = RoomSettings(private=True, invite_hash=secret_hash("code"),
                              spectate=Spectate.INVITE)
        store_game(app.store, "invite", (ann_id, bob_id), settings=invite)
        store_game(app.store, "closed", (ann_id, bob_id),
                   settings=RoomSettings(spectate=Spectate.NONE))
        store_game(app.store, "unfinished", (ann_id, bob_id), finish=False)

        async def refused(sock: MemorySocket, code: int, **fields: object) -> str:
            reply = await sock.request(**_replay(**fields))
            assert reply.error.code == code, reply
            return reply.error.message

        # A stranger: the public view where the room allowed watching; no seat, no omniscient.
        await refused(eve, mpb.ERROR_CODE_FORBIDDEN, room_id="open", seat=0)
        # A seat the game doesn't have: a stranger isn't told how many seats it has.
        assert "seats 0 to" not in await refused(eve, mpb.ERROR_CODE_FORBIDDEN,
                                                 room_id="open", seat=5)
        assert "seats 0 to 1, not 5" in await refused(ann, mpb.ERROR_CODE_INVALID_ARGUMENT,
                                                      room_id="invite", seat=5)
        await refused(eve, mpb.ERROR_CODE_FORBIDDEN, room_id="open", omniscient=True)
        # A private room's games are no games to a stranger without its code: the words an
        # id nothing has gets (trying ids told which private rooms exist, and how set).
        for fields in ({"public": True}, {"public": True, "invite_code": "wrong"},
                       {"omniscient": True}, {"seat": 0}, {"seat": 5}):
            hidden = await refused(eve, mpb.ERROR_CODE_ROOM_NOT_FOUND, room_id="invite",
                                   **fields)
            made_up = await refused(eve, mpb.ERROR_CODE_ROOM_NOT_FOUND, room_id="nobody",
                                    **fields)
            assert hidden == made_up.replace("'nobody'", "'invite'"), fields
        # Nor a later game of it (a match's game 2, stored or not).
        later = await refused(eve, mpb.ERROR_CODE_ROOM_NOT_FOUND, room_id="invite.2",
                              public=True)
        assert later == (await refused(eve, mpb.ERROR_CODE_ROOM_NOT_FOUND, room_id="nobody.2",
                                       public=True)).replace("'nobody.2'", "'invite.2'")
        await refused(eve, mpb.ERROR_CODE_FORBIDDEN, room_id="closed", public=True)
        assert "not finished" in await refused(eve, mpb.ERROR_CODE_NOT_READY,
                                               room_id="unfinished", public=True)
        await refused(eve, mpb.ERROR_CODE_ROOM_NOT_FOUND, room_id="nope", public=True)
        await refused(eve, mpb.ERROR_CODE_INVALID_ARGUMENT, room_id="open")
        for fields in ({"room_id": "open", "public": True},
                       {"room_id": "invite", "public": True, "invite_code": "code"}):
            started = await eve.request(**_replay(paused=True, **fields))
            assert started.replay_status.viewer == PUBLIC
            await _until(eve, "snapshot")
            ended = await eve.request(**_control(stop=True))
            assert ended.replay_ended.stopped
        # A player: their own seat, not the other one; omniscient; the public view.
        await refused(ann, mpb.ERROR_CODE_FORBIDDEN, room_id="open", seat=1)
        await refused(ann, mpb.ERROR_CODE_NOT_READY, room_id="unfinished", omniscient=True)
        mine: list[tuple[MemorySocket, dict[str, object]]] = [
            (ann, {"seat": 0}), (bob, {"seat": 1}), (bob, {"omniscient": True}),
            (ann, {"public": True})]
        for sock, fields in mine:
            started = await sock.request(**_replay(room_id="closed", paused=True, **fields))
            assert started.replay_status.actions > 0
            snapshot = (await _until(sock, "snapshot")).snapshot
            assert snapshot.state_id == 1 and snapshot.room_id == "closed"
            await sock.request(**_control(stop=True))
        # The audience of a room's every-hand tier (Eve, named in it): every hand (viewer
        # -3), no library; not every card.
        hands = RoomSettings(spectate=Spectate.NONE, tiers=(SpectatorTier(
            TierKind.OMNISCIENT, delay_seconds=0.0, accounts=((eve_id, "Eve"),)),))
        store_game(app.store, "hands", (ann_id, bob_id), settings=hands)
        await refused(eve, mpb.ERROR_CODE_FORBIDDEN, room_id="hands", omniscient=True)
        await refused(eve, mpb.ERROR_CODE_FORBIDDEN, room_id="closed", every_hand=True)
        started = await eve.request(**_replay(room_id="hands", every_hand=True, paused=True))
        assert started.replay_status.viewer == EVERY_HAND
        view = (await _until(eve, "snapshot")).snapshot.view
        kinds = {z.zone.kind for z in view.zones}
        assert view.viewer == EVERY_HAND and pb.ZONE_KIND_HAND in kinds
        assert pb.ZONE_KIND_LIBRARY not in kinds
        await eve.request(**_control(stop=True))
        # One replay per connection, and none while in a room.
        await ann.request(**_replay(room_id="open", seat=0, paused=True))
        again = await ann.request(**_replay(room_id="open", seat=0))
        assert again.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT
        joined = await ann.request(join_room=mpb.JoinRoom(room_id="x", role=mpb.ROLE_PLAYER))
        assert joined.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT
        await ann.request(**_control(stop=True))
        none = await ann.request(**_control(play=True))
        assert none.error.code == mpb.ERROR_CODE_NOT_READY


async def test_a_refusal_reads_no_action_log_and_tells_a_stranger_nothing_of_a_games_progress(
        tmp_path: Path) -> None:
    """A stranger's replay requests were answered only after the game's whole action log
    was read (half a second for a long game, on the store's lock: repeated refusals stalled
    every room), and said whether a closed room's game, or a later game of its match, had
    been played yet (a delayed tier's viewers learned the result early)."""
    async with running_app(tmp_path) as app:
        ann, ann_id = await _client(app, "Ann")
        _bob, bob_id = await _client(app, "Bob")
        eve, _eve_id = await _client(app, "Eve")
        closed = RoomSettings(spectate=Spectate.NONE)
        store_game(app.store, "m", (ann_id, bob_id), settings=closed, finish=False)
        store_game(app.store, "done", (ann_id, bob_id))
        store_game(app.store, "m.2", (ann_id, bob_id), settings=closed, finish=False)
        reads: list[str] = []
        headers: list[str] = []
        load = app.store.load_game

        def counted(room_id: str, *, actions: bool = True) -> GameRecord:
            (reads if actions else headers).append(room_id)
            return load(room_id, actions=actions)

        app.store.load_game = counted  # type: ignore[method-assign]

        async def code(sock: MemorySocket, **fields: object) -> int:
            return (await sock.request(**_replay(**fields))).error.code

        for room_id in ("m", "m.2", "m.3"):  # running, and not played yet: all the same
            headers.clear()
            assert await code(eve, room_id=room_id, public=True) == mpb.ERROR_CODE_FORBIDDEN
            # ... and the same reads (game 2 stored, game 3 not: the time tells nothing).
            assert len(headers) == (1 if room_id == "m" else 2), (room_id, headers)
        assert await code(eve, room_id="done", omniscient=True) == mpb.ERROR_CODE_FORBIDDEN
        # The game's players may know how far it has come.
        assert await code(ann, room_id="m", omniscient=True) == mpb.ERROR_CODE_NOT_READY
        assert await code(ann, room_id="m.3", omniscient=True) == \
            mpb.ERROR_CODE_ROOM_NOT_FOUND
        assert reads == []
        # A finished game's log is read once, however often its replay starts again.
        for _ in range(3):
            started = await ann.request(**_replay(room_id="done", seat=0, paused=True))
            assert started.replay_status.actions > 0
            await ann.request(**_control(stop=True))
        assert reads == ["done"]


def test_the_permission_check_is_one_function() -> None:
    record = GameRecord("g", "n", b"s" * 32, [("A", "", ""), ("B", "", "")], [],
                        {"winners": [0]}, accounts=("a", "b"),
                        settings=RoomSettings(spectate=Spectate.NONE))
    assert replay_problem(record, "a", OMNISCIENT) is None
    assert replay_problem(record, "a", 0) is None
    assert replay_problem(record, "b", 0) is not None
    assert replay_problem(record, "", 0) is not None  # no account: nobody's seat
    assert replay_problem(record, "c", PUBLIC) is not None
    assert replay_problem(record, "c", 5) is not None


def test_a_delayed_tiers_audience_replays_its_class_once_the_tier_has_shown_the_whole_game(
) -> None:
    """A caster watching a room through its delayed tiers (spectate NONE, the usual
    tournament set-up) couldn't review the game afterwards: the public replay was the
    players' only, and an every-hand replay didn't exist. Now a tier's audience -- named in
    it, or with the invite code if it takes it -- replays the class it watched (public, a
    seat, every hand: viewer -3), once the tier has shown the whole game: before, the
    answer is the same whether or not the game has ended."""
    tiers = (SpectatorTier(TierKind.PUBLIC, delay_seconds=30, invite=True),
             SpectatorTier(TierKind.OMNISCIENT, delay_seconds=120, accounts=(("k", "Kay"),)),
             SpectatorTier(TierKind.PLAYER, seat=1, delay_seconds=60, accounts=(("c", "Coach"),)))
    settings = RoomSettings(spectate=Spectate.NONE, invite_hash=secret_hash("code"),
                            tiers=tiers)
    players = [("A", "", ""), ("B", "", "")]
    playing = GameRecord("g", "n", b"s" * 32, players, [], None, accounts=("a", "b"),
                         settings=settings)
    ended = replace(playing, result={"winners": [0]}, finished=1000.0)

    def code(record: GameRecord, account: str, viewer: int, invite: str = "",
             now: float = 5000.0) -> int | None:
        problem = replay_problem(record, account, viewer, invite, now)
        return None if problem is None else problem.code

    forbidden, not_yet = mpb.ERROR_CODE_FORBIDDEN, mpb.ERROR_CODE_NOT_READY
    # The public tier's audience (the invite code): its public replay, 30 s after the end.
    assert code(ended, "x", PUBLIC, "code") is None
    assert code(ended, "x", PUBLIC, "code", now=1029.0) == not_yet
    assert code(playing, "x", PUBLIC, "code") == not_yet  # (the same: nothing told)
    early = replay_problem(ended, "x", PUBLIC, "code", 1029.0)
    unfinished = replay_problem(playing, "x", PUBLIC, "code", 5000.0)
    assert early is not None and unfinished is not None and early.message == unfinished.message
    assert code(ended, "x", PUBLIC, "wrong") == forbidden
    assert code(ended, "x", PUBLIC) == forbidden
    # The every-hand tier's named account: every hand, 120 s after the end; the players too.
    assert code(ended, "k", EVERY_HAND) is None
    assert code(ended, "k", EVERY_HAND, now=1119.0) == not_yet
    assert code(ended, "a", EVERY_HAND) is None
    assert code(ended, "x", EVERY_HAND, "code") == forbidden  # (that tier takes no code)
    assert code(ended, "k", OMNISCIENT) == forbidden  # (libraries: the players' only)
    assert code(ended, "k", PUBLIC) == forbidden  # (not the public tier's audience)
    # The seat tier's coach: seat 1's view, not seat 0's.
    assert code(ended, "c", 1) is None
    assert code(ended, "c", 0) == forbidden
    assert code(ended, "c", 1, now=1059.0) == not_yet


async def test_play_pause_seek_speed_and_the_end(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path) as app:
        ann, ann_id = await _client(app, "Ann")
        _bob, bob_id = await _client(app, "Bob")
        actions = store_game(app.store, "g", (ann_id, bob_id))
        expected = Replay(app.store.load_game("g"), 0)
        frames = {0: (expected.state_id, expected.view_hash)}
        for frame in expected.frames():
            frames[frame.action] = (frame.state_id, frame.view_hash)
        # Start paused at action 10: status, then a snapshot of that point.
        status = (await ann.request(**_replay(room_id="g", seat=0, start_action=10,
                                              paused=True, speed=10))).replay_status
        assert (status.action, status.actions, status.playing) == (10, actions, False)
        snap = (await _until(ann, "snapshot")).snapshot
        assert (snap.state_id, snap.view_hash) == frames[10] == (status.state_id,
                                                                 snap.view_hash)
        # Paused: nothing comes.
        with trio.move_on_after(5) as idle:
            await ann.from_server.receive()
        assert idle.cancelled_caught
        # Play at 10 actions a second: deltas paced by the clock.
        began = trio.current_time()
        playing = await ann.request(**_control(play=True))
        assert playing.replay_status.playing
        delta = (await _until(ann, "delta")).delta
        assert delta.prev_state_id == snap.state_id
        assert trio.current_time() - began >= 0.09
        # Pause; seek back to a turn and forward to an action: snapshots there.
        paused = await ann.request(**_control(pause=True))
        assert not paused.replay_status.playing
        turn = expected.turns
        seek = (await ann.request(**_control(seek_turn=turn))).replay_status
        assert seek.turn == turn and seek.action == expected.turn_start(turn)
        snap = (await _until(ann, "snapshot")).snapshot
        assert (snap.state_id, snap.view_hash) == frames[seek.action]
        seek = (await ann.request(**_control(seek_action=actions // 2))).replay_status
        snap = (await _until(ann, "snapshot")).snapshot
        assert (snap.state_id, snap.view_hash) == frames[actions // 2]
        bad = await ann.request(**_control(seek_action=actions + 1))
        assert bad.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT
        bad = await ann.request(**_control(seek_turn=turn + 1))
        assert bad.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT
        fast = await ann.request(**_control(speed=0))
        assert fast.replay_status.speed == 0
        # RequestSnapshot in a replay: the replay's view now.
        again = await ann.request(request_snapshot=mpb.RequestSnapshot())
        assert (again.snapshot.state_id, again.snapshot.view_hash) == frames[actions // 2]
        # Play to the end as fast as possible: the deltas chain up to the last state.
        await ann.request(**_control(play=True))
        last = snap.state_id
        while True:
            msg = mpb.ServerMessage.FromString(await ann.from_server.receive())
            if msg.HasField("delta"):
                assert msg.delta.prev_state_id == last
                last = msg.delta.state_id
            elif msg.HasField("replay_ended"):
                assert not msg.replay_ended.stopped
                assert msg.replay_ended.action == actions
                break
        assert (last, msg.replay_ended.action) == (frames[actions][0], actions)
        # Still open at the end: seek back, then stop -- back in the lobby.
        await ann.request(**_control(seek_action=0))
        snap = (await _until(ann, "snapshot")).snapshot
        assert snap.state_id == 1
        stopped = await ann.request(**_control(stop=True))
        assert stopped.replay_ended.stopped
        listed = await ann.request(list_rooms=mpb.ListRooms())
        assert listed.HasField("room_list")
        assert app.replay_desk.running == 0


@pytest.mark.parametrize("speed", [-1.0, 1e9, float("nan"), 5e-324, 1e-300, 0.009])
async def test_bad_speeds_are_refused(tmp_path: Path, speed: float) -> None:
    async with running_app(tmp_path) as app:
        ann, _ann_id = await _client(app, "Ann")
        reply = await ann.request(**_replay(room_id="g", public=True, speed=speed))
        assert reply.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT


async def test_a_replay_never_stalls_a_room(tmp_path: Path) -> None:
    """A fast replay of a long game takes its turns with a room's game: the room's players
    act while it plays (one action per tick, seeks in slices)."""
    async with running_app(tmp_path) as app:
        ann, ann_id = await _client(app, "Ann")
        _bob, bob_id = await _client(app, "Bob")
        store_game(app.store, "g", (ann_id, bob_id))
        await ann.request(**_replay(room_id="g", seat=0, speed=0))
        # Meanwhile another client's lobby requests are answered while the replay plays.
        cid, _ = await _client(app, "Cid")
        for _ in range(5):
            assert (await cid.request(list_rooms=mpb.ListRooms())).HasField("room_list")
        await _until(ann, "replay_ended")


async def test_one_client_address_runs_at_most_four_replays_at_once(tmp_path: Path) -> None:
    """Sixty replays from one address played as fast as possible held other rooms' games
    up for seconds: an address runs at most ``Limits.max_replays_per_address`` at once (the
    server's are shared out by :class:`server.rooms.replaying.ReplayBudget`)."""
    async with running_app(tmp_path) as app:
        limit = app.limits.max_replays_per_address
        clients = [await _client(app, f"C{n}") for n in range(limit + 1)]
        store_game(app.store, "g", (clients[0][1], clients[1][1]))
        for sock, _ in clients[:limit]:
            assert (await sock.request(**_replay(room_id="g", public=True, paused=True))
                    ).HasField("replay_status")
        extra = clients[limit][0]
        refused = await extra.request(**_replay(room_id="g", public=True))
        assert refused.error.code == mpb.ERROR_CODE_LIMIT_REACHED
        assert f"at most {limit} replays" in refused.error.message
        other = MemorySocket(address="elsewhere")  # another address is not held up by them
        app.lobby.nursery.start_soon(app.handle_connection, other)
        await other.request(**_hello("Dee"))
        assert (await other.request(**_replay(room_id="g", public=True, paused=True))
                ).HasField("replay_status")
        stopped = await clients[0][0].request(**_control(stop=True))
        assert stopped.replay_ended.stopped
        assert (await extra.request(**_replay(room_id="g", public=True, paused=True))
                ).HasField("replay_status")
        assert app.replay_desk.by_address == {"memory": limit, "elsewhere": 1}


async def test_a_replay_left_paused_ends_by_itself_and_frees_its_place(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """A paused replay held its place among the server's replays, and its address's, for
    ever (a security tester's note): left paused IDLE_SECONDS, it ends, said so."""
    async with running_app(tmp_path) as app:
        ann, ann_id = await _client(app, "Ann")
        _bob, bob_id = await _client(app, "Bob")
        store_game(app.store, "g", (ann_id, bob_id))
        await ann.request(**_replay(room_id="g", seat=0, paused=True))
        await _until(ann, "snapshot")
        await trio.sleep(IDLE_SECONDS - 10)
        await ann.request(**_control(speed=2))  # a control (still paused): it waits afresh
        await trio.sleep(IDLE_SECONDS - 10)
        assert app.replay_desk.running == 1
        await trio.sleep(20)
        ended = await _until(ann, "replay_ended")
        assert ended.replay_ended.stopped and ended.request_id == 0
        assert app.replay_desk.running == 0 and not app.replay_desk.by_address
