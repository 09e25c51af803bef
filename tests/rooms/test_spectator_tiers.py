"""Spectator tiers (protocol/README.md, "Spectator tiers"): the delayed tiers' leak tests on
the sans-I/O room with a controlled clock, their permissions, resuming, persistence and the
app's CreateRoom -> JoinRoom tier -> delayed delivery over memory sockets."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
import trio
import trio.testing

from client_sdk.mirror import Mirror
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.app import App
from server.decks import DeckFormat, resolve
from server.engine import PlayerSetup, Zone, apply, new_game
from server.engine.events import StartingPlayerChosen
from server.replay import replay_problem
from server.rooms import lobby as lobby_module
from server.rooms.commands import (
    Act,
    ConcedeGame,
    Disconnect,
    Join,
    Leave,
    Reattach,
    ShowDelayed,
    Snapshot,
    Tick,
)
from server.rooms.recovery import recover
from server.rooms.room import RELEASE_AT_ONCE, Room, RoomConfig
from server.store import Store
from server.store.records import (
    AppendAction,
    CreateGame,
    GameRecord,
    RoomSettings,
    Spectate,
    SpectatorTier,
    TierKind,
    secret_hash,
)
from server.view import SPECTATOR
from server.view.pipeline import ViewPipeline
from server.view.project import EVERY_HAND
from server.view.stream import opening_events, recent_events
from tests.rooms.test_app_memory import MemorySocket, _hello, running_app
from tests.rooms.test_room_machine import WELCOME, Driver, errors, kinds, seat_conn

WATCHER = "aw"  # the account allowed the delayed tiers
INVITE = "the-code"


def tier_room(*tiers: SpectatorTier, spectate: Spectate = Spectate.ALLOWED,
              reserved: tuple[tuple[str, str], ...] = ()) -> Driver:
    settings = RoomSettings(spectate=spectate, invite_hash=secret_hash(INVITE),
                            reserved=reserved, tiers=tiers)
    return Driver(Room("r1", "tiers", 2, 0.0, RoomConfig(history=10_000), settings=settings))


def watch(d: Driver, conn: int, tier: int, account: str = WATCHER, code: str = "") -> None:
    d.rid += 1
    d.do(Join(conn, d.rid, f"s{conn}", f"w{conn}", True, None, account, code, tier))


def start(d: Driver) -> None:
    for conn, deck in ((1, "naya-pets"), (2, "golgari-grind")):
        d.rid += 1
        assert d.do(Join(conn, d.rid, f"s{conn}", f"p{conn}", False,
                         resolve(deck, DeckFormat.CONSTRUCTED), f"a{conn}")).accepted


def played_and_stored(d: Driver, rng: random.Random, actions: int, tmp_path: Path
                      ) -> GameRecord:
    """Play ``actions`` random live actions a second apart, store the game's log as the
    server would, and read its record back (what a restart recovers)."""
    for n in range(actions):
        d.now = float(n)
        step(d, rng)
    store = Store(tmp_path / "db.sqlite3")
    store.apply([op for op in d.log if isinstance(op, (CreateGame, AppendAction))])
    (record,) = store.unfinished_games()
    store.close()
    return record


def step(d: Driver, rng: random.Random) -> bool:
    """One random live action (False: the game is over)."""
    game = d.room.game
    assert game is not None
    if game.result is not None or game.pending is None:
        return False
    d.act(seat_conn(d, game.pending.seat), rng.randrange(len(game.pending.options)))
    return True


def reference(d: Driver, kind: TierKind, seat: int = 0) -> list[bytes | None]:
    """The undelayed stream of the class: what it would have sent after each action logged so
    far (a fresh game from the logged seed and actions), as the delayed tier must send it."""
    create = next(op for op in d.log if isinstance(op, CreateGame))
    setups = [PlayerSetup(name, resolve(deck, DeckFormat.CONSTRUCTED).main)
              for name, deck, _s in create.players]
    game = new_game(create.seed, setups)
    pipeline = ViewPipeline(game, [EVERY_HAND if kind is TierKind.OMNISCIENT else seat])
    out: list[bytes | None] = []
    for op in d.log:
        if isinstance(op, AppendAction):
            events = apply(game, op.seat, op.action)
            sent = pipeline.advance(game, op.action, events)
            out.append(sent[0][2] if sent else None)
    return out


def test_a_delayed_omniscient_spectator_gets_nothing_before_its_release_then_exactly_the_stream(
) -> None:
    d = tier_room(SpectatorTier(TierKind.OMNISCIENT, delay_seconds=30,
                                accounts=((WATCHER, "w"),)))
    watch(d, 9, 1)
    assert kinds(d.take(9)) == ["joined"]
    start(d)
    first = d.take(9)
    assert kinds(first) == ["snapshot"]  # the game's start: no card is in a hand yet
    assert first[0].snapshot.state_id == 1 and first[0].snapshot.view.viewer == EVERY_HAND
    assert all(z.zone.kind != pb.ZONE_KIND_LIBRARY for z in first[0].snapshot.view.zones)
    rng = random.Random(5)
    played: list[float] = []  # when each action was played
    for n in range(120):
        d.now = n * 0.1
        if not step(d, rng):
            break
        played.append(d.now)
        assert d.take(9) == []  # everything is younger than 30 s
    expected = reference(d, TierKind.OMNISCIENT)
    assert len(expected) == len(played) > 50
    mirror = Mirror()
    mirror.load_snapshot(first[0].snapshot)
    d.now = played[0] + 29.99
    out = d.do(Tick())
    assert d.take(9) == []
    for k, at in enumerate(played):
        # The room says exactly when the next action is due, not earlier.
        assert out.delayed_at == at + 30
        d.now = at + 30
        out = d.do(Tick())
        got = d.take(9)
        want = [data for data in expected[:k + 1] if data is not None]
        # Only the actions played at least 30 s ago, exactly as the undelayed class.
        assert [m.SerializeToString() for m in got] == want[len(want) - len(got):]
        for m in got:
            mirror.apply_delta(m.delta)  # checks each state id and view hash
        assert mirror.state_id == 1 + len(want)
    assert mirror.state_id == d.room.delayed[0].stream.state_id
    # Its view has every hand, never a library's order.
    view = d.room.delayed[0].stream.view
    assert any(k[0] is Zone.HAND for k in view.zones)
    assert all(k[0] is not Zone.LIBRARY for k in view.zones)


def test_a_delayed_spectators_snapshot_repeats_only_events_its_tier_has_released() -> None:
    d = tier_room(SpectatorTier(TierKind.OMNISCIENT, delay_seconds=30,
                                accounts=((WATCHER, "w"),)))
    watch(d, 9, 1)
    start(d)
    d.take(9)
    rng = random.Random(6)
    played = []
    for n in range(120):
        d.now = n * 0.1
        if not step(d, rng):
            break
        played.append(d.now)
    assert len(played) > 60
    d.now = played[40] + 30  # the first 41 actions are due, the rest held
    d.do(Tick())
    deltas = [m for m in d.take(9) if m.HasField("delta")]
    assert sum(len(m.delta.events) for m in deltas) > 20
    d.rid += 1
    d.do(Snapshot(9, d.rid))
    snapshot = [m.snapshot for m in d.take(9) if m.HasField("snapshot")]
    # The released deltas' last events, as the snapshot of any view class cuts them
    # (whole deltas: tests/view/test_wire.py), after how the game began (103.1, 103.5).
    history = [(m.delta.prev_state_id, m.delta.state_id, m.SerializeToString())
               for m in deltas]
    opening = [(state, e) for _prev, state, data in history
               for e in opening_events([StartingPlayerChosen(0, 0)], data)]
    assert opening
    released = [pb.GameEvent.FromString(e) for e in recent_events(history, opening)]
    assert len(snapshot) == 1 and list(snapshot[0].recent_events) == released


def test_due_actions_are_played_a_few_at_a_time_only_when_the_host_says() -> None:
    """Four tiers showing every hand play every live action four more times; they were
    played after every command, all that were due at once, and kept the event loop busy
    (another game's actions waited up to 2 s). Now only ShowDelayed plays them -- the host
    gives it when nothing else waits, within the tiers' budget -- at most RELEASE_AT_ONCE
    at a time, the tiers in turn; everything is shown in the end."""
    tiers = tuple(SpectatorTier(TierKind.OMNISCIENT, delay_seconds=1, invite=True)
                  for _ in range(4))
    d = tier_room(*tiers)
    start(d)
    rng = random.Random(7)
    played = 0
    while played < 40 and step(d, rng):  # all at the same moment: all due together
        played += 1
    assert all(t.held == played for t in d.room.delayed)
    d.now = 5.0
    room, ticks = d.room, 0
    assert room.handle(Tick(), d.now).delayed_at <= d.now  # a Tick plays none of them
    assert all(t.held == played for t in room.delayed)
    while any(t.held for t in room.delayed):
        before = [t.held for t in room.delayed]
        out = room.handle(ShowDelayed(), d.now)
        ticks += 1
        shown = [b - t.held for b, t in zip(before, room.delayed, strict=True)]
        assert sum(shown) <= RELEASE_AT_ONCE and max(shown) - min(shown) <= 1, shown
        assert out.delayed_at <= d.now or not any(t.held for t in room.delayed)
        assert out.wake_at > d.now  # nothing else to do
        assert ticks <= 4 * played
    assert ticks >= 4 * played // RELEASE_AT_ONCE
    assert [t.stream.state_id for t in room.delayed] == [room.delayed[0].stream.state_id] * 4


def _played_straight(d: Driver, actions: int) -> None:
    """``actions`` random actions played straight on the room (the Driver would show each
    due action of its tiers at once), then seat 0 concedes."""
    room = d.room
    rng = random.Random(5)
    for _ in range(actions):
        game = room.game
        assert game is not None and game.pending is not None
        room.handle(Act(seat_conn(d, game.pending.seat), 0, game.pending.prompt_id,
                        rng.randrange(len(game.pending.options)),
                        room.classes[game.pending.seat].stream.state_id), d.now)
    room.handle(ConcedeGame(seat_conn(d, 0), 0), d.now)


def test_a_finished_room_whose_tier_is_behind_shows_everything_then_closes() -> None:
    """A busy server leaves a tier behind its delay. The room's close time then came while
    the tier still held actions: the room asked for a Tick at once, forever, and never got
    to showing them (nor to any command). Its close waits for the tier now."""
    tier = SpectatorTier(TierKind.PUBLIC, delay_seconds=0.3, accounts=((WATCHER, "w"),))
    d = Driver(Room("r1", "tiers", 2, 0.0, RoomConfig(linger_seconds=0.0),
                    settings=RoomSettings(tiers=(tier,))))
    watch(d, 9, 1)
    start(d)
    room = d.room
    _played_straight(d, 30)
    assert room.delayed[0].held > 0
    d.now = 100.0  # long past the close time: the tier is behind
    out = d.do(Tick())
    assert out.closed and room.delayed[0].held == 0
    got = d.take(9)
    assert got[-1].HasField("room_closed")
    assert sum(m.HasField("delta") for m in got) >= 30  # every action shown, then the close


def test_a_turn_delay_holds_an_actions_deltas_until_the_game_is_that_many_turns_on() -> None:
    d = tier_room(SpectatorTier(TierKind.PLAYER, seat=0, delay_turns=1,
                                accounts=((WATCHER, "w"),)))
    start(d)
    watch(d, 9, 1)
    assert kinds(d.take(9)) == ["joined", "snapshot"]
    rng = random.Random(2)
    game = d.room.game
    assert game is not None
    for _ in range(3000):
        turn = game.turn
        if not step(d, rng) or game.turn >= 4:
            break
        got = d.take(9)
        if game.turn == turn:
            assert got == [], "released within the same turn"
    assert game.turn >= 3
    # Everything played before the current turn began is out; the seat's own live class
    # sent exactly these bytes.
    delayed = d.room.delayed[0]
    assert delayed.held > 0
    live = [data for _p, _s, data in d.room.classes[0].history]
    shown = [data for _p, _s, data in delayed.history]
    assert shown == live[:len(shown)] and len(shown) < len(live)
    assert reference(d, TierKind.PLAYER, 0)[:len(shown)] == shown


def test_a_delayed_spectator_is_never_sent_clocks_presence_or_a_live_snapshot() -> None:
    d = tier_room(SpectatorTier(TierKind.OMNISCIENT, delay_seconds=60, invite=True))
    start(d)
    watch(d, 9, 1, account="x", code=INVITE)
    assert kinds(d.take(9)) == ["joined", "snapshot"]
    rng = random.Random(3)
    for n in range(40):
        d.now = float(n)
        step(d, rng)
    d.do(Disconnect(seat_conn(d, 0)))  # presence and clocks go to the live members
    d.do(Snapshot(9, 77))  # a resync: the state at the release point, not the live one
    got = d.take(9)
    assert kinds(got) == ["snapshot"] and got[0].request_id == 77
    assert got[0].snapshot.state_id == 1
    # Resuming: the place comes back in its tier, with only what was released.
    d.do(Disconnect(9))
    d.now = 200.0
    d.do(Reattach(19, 5, "s9", "w9", 1, "x", WELCOME))
    got = d.take(19)
    assert got[0].resumed.joined.tier == 1
    assert all(m.HasField("delta") for m in got[1:]) and len(got) > 1
    assert got[-1].delta.state_id == d.room.delayed[0].stream.state_id


@pytest.mark.parametrize("spectate", [Spectate.INVITE, Spectate.ALLOWED])
def test_a_spectator_whose_place_a_restart_lost_is_never_put_in_the_live_tier_unasked(
        tmp_path: Path, spectate: Spectate) -> None:
    """After a restart a room knows none of its spectators' tiers. A delayed tier's
    spectator of an invite-only room resumed into the live tier -- the game as it is,
    without the code, the delay bypassed (in an open room, the delay bypassed). Now such a
    session resumes outside the room, and its client joins again with its tier and code."""
    d = tier_room(SpectatorTier(TierKind.PUBLIC, delay_seconds=3600,
                                accounts=(("carol", "Carol"),)), spectate=spectate)
    start(d)
    d.rid += 1
    d.do(Join(9, d.rid, "s9", "w9", True, None, "carol", "", 0))
    refused_live = errors(d.take(9))
    assert refused_live == ([mpb.ERROR_CODE_FORBIDDEN] if spectate is Spectate.INVITE else [])
    if spectate is Spectate.ALLOWED:
        d.do(Leave(9, d.rid))
    watch(d, 9, 1, account="carol")
    assert d.take(9)[0].joined.tier == 1
    record = played_and_stored(d, random.Random(4), 30, tmp_path)
    again = Driver(recover(record, d.now))
    again.do(Reattach(19, 1, "s9", "w9", 1, "carol", WELCOME))
    (resumed, *rest) = again.take(19)
    assert not resumed.resumed.HasField("joined") and rest == []
    # A spectator who dropped without a restart gets its own tier back, live or delayed.
    again.do(Disconnect(19))
    watch(again, 20, 1, account="carol")
    again.do(Disconnect(20))
    again.do(Reattach(21, 2, "s20", "w20", 1, "carol", WELCOME))
    assert again.take(21)[0].resumed.joined.tier == 1


def test_a_public_spectator_never_sees_a_hidden_card_beside_delayed_tiers() -> None:
    d = tier_room(SpectatorTier(TierKind.OMNISCIENT, delay_seconds=1, invite=True))
    watch(d, 8, 0, account="pub")
    watch(d, 9, 1, account="x", code=INVITE)
    start(d)
    rng = random.Random(11)
    mirror = Mirror()
    for n in range(600):
        d.now = float(n)
        for m in d.take(8):
            if m.HasField("snapshot"):
                mirror.load_snapshot(m.snapshot)
            elif m.HasField("delta"):
                mirror.apply_delta(m.delta)
        game = d.room.game
        assert game is not None
        public_looks = {i for lk in game.looks if -1 in lk.seats for i in lk.ids}
        for oid in mirror.objects:
            obj = game.objects.get(oid)
            if obj is not None and obj.zone in (Zone.HAND, Zone.LIBRARY):
                assert oid in public_looks, f"public spectator saw hidden {oid}"
        if not step(d, rng):
            break
    assert mirror.viewer == -1 and mirror.ready


def test_a_seated_players_account_gets_no_tier_and_a_stranger_learns_nothing() -> None:
    tier = SpectatorTier(TierKind.OMNISCIENT, delay_seconds=10,
                         accounts=(("a1", "p1"), (WATCHER, "w")), invite=True)
    d = tier_room(tier, reserved=(("a1", "p1"),))
    watch(d, 7, 1, account="a1", code=INVITE)  # reserved for seat 0: never watches
    assert errors(d.take(7)) == [mpb.ERROR_CODE_FORBIDDEN]
    start(d)
    for conn, account in ((5, "a1"), (6, "a2")):  # the seats' accounts, even with the code
        watch(d, conn, 1, account=account, code=INVITE)
        assert errors(d.take(conn)) == [mpb.ERROR_CODE_INVALID_ARGUMENT]
    d.do(Reattach(15, 3, "s1", "p1", 0, "a1", WELCOME))  # a seat's session resumes its seat
    assert d.take(15)[0].resumed.joined.seat == 0
    d.now = 500.0
    watch(d, 4, 1, account="stranger", code="wrong")
    got = d.take(4)
    assert len(got) == 1 and got[0].error.code == mpb.ERROR_CODE_FORBIDDEN
    assert "spectator tier 1" in got[0].error.message
    watch(d, 3, 2)
    assert errors(d.take(3)) == [mpb.ERROR_CODE_INVALID_ARGUMENT]
    assert not {4, 3} & set(d.room.connections())


def test_tier_settings_survive_a_store_reload(tmp_path: Path) -> None:
    tiers = (SpectatorTier(TierKind.OMNISCIENT, delay_seconds=30, delay_turns=2,
                           accounts=((WATCHER, "w"),), invite=True),
             SpectatorTier(TierKind.PLAYER, seat=1, delay_seconds=5))
    settings = RoomSettings(private=True, invite_hash=b"h" * 32, tiers=tiers)
    assert RoomSettings.from_json(settings.to_json()) == settings
    assert RoomSettings.from_json(RoomSettings().to_json().replace(', "tiers": []', "")) \
        == RoomSettings()
    deck = resolve("naya-pets", DeckFormat.CONSTRUCTED)
    store = Store(tmp_path / "db.sqlite3")
    store.apply([CreateGame("g", "t", b"s" * 32, (("A", deck.text, "s1"), ("B", deck.text, "s2")),
                            1800.0, ("a1", "a2"), settings)])
    store.close()
    store = Store(tmp_path / "db.sqlite3")
    (record,) = store.unfinished_games()
    store.close()
    assert record.settings.tiers == tiers
    room = recover(record, 0.0)
    assert [c.tier for c in room.delayed] == list(tiers)
    assert room.info().tiers[0].accounts == ["w"]


async def _ann_bob_and_wes(app: App) -> tuple[MemorySocket, MemorySocket, MemorySocket, str]:
    """Ann, Bob and Wes connected and welcomed; Wes's account name."""
    a, b, w = MemorySocket(), MemorySocket(), MemorySocket()
    name = ""
    for sock, who in ((a, "Ann"), (b, "Bob"), (w, "Wes")):
        app.lobby.nursery.start_soon(app.handle_connection, sock)
        name = (await sock.request(**_hello(who))).welcome.account.name
    return a, b, w, name


async def test_app_create_room_with_tiers_join_a_tier_and_get_delayed_deltas(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path) as app:
        a, b, w, name = await _ann_bob_and_wes(app)
        refused = await a.request(create_room=mpb.CreateRoom(name="t", tiers=[
            mpb.SpectatorTier(kind=mpb.TIER_KIND_OMNISCIENT, accounts=[name])]))
        assert refused.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT  # no delay
        # Every hand a second behind: a player's second account could watch its opponent's
        # hand nearly live (found by an attacker). A tier showing hidden cards is at least
        # Limits.hidden_tier_seconds behind.
        refused = await a.request(create_room=mpb.CreateRoom(name="t", tiers=[
            mpb.SpectatorTier(kind=mpb.TIER_KIND_OMNISCIENT, delay_seconds=59,
                              delay_turns=3, accounts=[name])]))
        assert refused.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT
        assert refused.error.message == (
            "delayed view 1: one that shows hidden cards (every hand, or a seat's view) must "
            "be at least 60 s behind, since whoever may watch it sees the players' hands "
            "(asked: 59 s)")
        assert not app.lobby.rooms
        created = await a.request(create_room=mpb.CreateRoom(name="t", tiers=[
            mpb.SpectatorTier(kind=mpb.TIER_KIND_OMNISCIENT, delay_seconds=60,
                              accounts=[name])]))
        room = created.room_created.room
        assert room.tiers[0].delay_seconds == 60 and list(room.tiers[0].accounts) == [name]
        joined = await w.request(join_room=mpb.JoinRoom(room_id=room.room_id,
                                                        role=mpb.ROLE_SPECTATOR, tier=1))
        assert joined.joined.tier == 1
        for seat, sock in enumerate((a, b)):
            got = await sock.request(join_room=mpb.JoinRoom(room_id=room.room_id,
                                                            role=mpb.ROLE_PLAYER))
            assert got.joined.seat == seat
        first = mpb.ServerMessage.FromString(await w.from_server.receive())
        assert first.snapshot.state_id == 1
        # Every room's tiers play their due actions within one share of the event loop.
        assert app.lobby.hosts[room.room_id].delayed_turns is app.lobby.delayed_turns
        # Whoever decides who starts acts; the players see it at once, Wes 60 s later.
        with trio.fail_after(600):
            game = app.lobby.hosts[room.room_id].room.game
            assert game is not None and game.pending is not None
            sock = (a, b)[game.pending.seat]
            await sock.to_server.send(mpb.ClientMessage(act=mpb.Act(
                prompt_id=game.pending.prompt_id, option_index=0)).SerializeToString())
            played = trio.current_time()
            msg = mpb.ServerMessage.FromString(await w.from_server.receive())
        assert msg.HasField("delta") and msg.delta.state_id == 2
        assert trio.current_time() >= played + 60
        assert game.action_count == 1


def test_a_room_with_only_delayed_tiers_tells_a_live_spectator_to_watch_one() -> None:
    """"this room allows no spectators" said a tier-only room, though its tiers admit
    whoever they name: the refusal now says where to watch."""
    public = SpectatorTier(TierKind.PUBLIC, delay_seconds=20, invite=True)
    d = tier_room(public, public, spectate=Spectate.NONE)
    watch(d, 10, 0, account="stranger", code=INVITE)
    got = d.take(10)
    assert errors(got) == [mpb.ERROR_CODE_FORBIDDEN]
    assert got[0].error.message == ("this room allows no live spectators: watch one of its "
                                    "delayed spectator tiers (1 to 2)")
    watch(d, 11, 2, account="stranger", code=INVITE)
    assert kinds(d.take(11)) == ["joined"]


def test_after_a_restart_a_tier_goes_on_where_it_was_never_earlier(tmp_path: Path) -> None:
    """A restart started every delayed tier over from the game's start, each action held
    its whole delay from the restart: an operator's audience saw the game's start again for
    the delay, then everything at once. Each action is now held from when it was stored
    (never before it was played): what was due is shown at once, the rest when due."""
    d = tier_room(SpectatorTier(TierKind.PUBLIC, delay_seconds=20, invite=True))
    start(d)
    record = played_and_stored(d, random.Random(7), 40, tmp_path)
    count = len(record.actions)
    assert len(record.action_times) == count and all(record.action_times)
    # Pretend the actions were played a second apart, the last 5 s before the restart.
    wall_now = 1_000_000.0
    record = replace(record, action_times=tuple(
        wall_now - 5.0 - (count - 1 - i) for i in range(count)))
    room = recover(record, 100.0, wall_now=wall_now)
    game = room.game
    assert game is not None
    tier = room.delayed[0]
    # Played 20 s or more before the restart: shown at once; the others as they come due,
    # a second apart, the last 15 s after the restart (an action's delta or none: one
    # that changes nothing this view shows moves no state on).
    due = sum(1 for at in record.action_times if at + 20.0 <= wall_now)
    assert 0 < due < count and tier.held == count
    tier.release(100.0, game.turn, False)
    assert tier.held == count - due and tier.game.action_count == due
    tier.release(114.99, game.turn, False)
    assert tier.held == 1  # the last, played 5 s before the restart: due 15 s after it
    tier.release(115.0, game.turn, False)
    assert tier.held == 0 and tier.game.action_count == count
    assert tier.stream.state_id == room.classes[SPECTATOR].stream.state_id


async def test_a_long_reload_never_brings_a_tiers_actions_forward(
        tmp_path: Path, autojump_clock: trio.testing.MockClock,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A restart places each stored action on the room's clock by the difference between
    the wall clock and the event loop's; the wall clock was read anew for each room while
    the event loop's was read once, so a room reloaded 30 s into the reloading had its
    tier's actions placed 30 s earlier -- shown 30 s before their delay was up (a delayed
    tier is there so its audience can't help a player). Both clocks are read together."""
    d = tier_room(SpectatorTier(TierKind.PUBLIC, delay_seconds=20, invite=True))
    start(d)
    record = played_and_stored(d, random.Random(7), 40, tmp_path)
    count = len(record.actions)
    wall = 1_000_000.0
    record = replace(record, action_times=tuple(  # the last stored 5 s before the restart
        wall - 5.0 - (count - 1 - i) for i in range(count)))

    class Wall:
        """The wall clock, 30 s on at each reading (a long reload)."""

        def __init__(self) -> None:
            self.now = wall

        def time(self) -> float:
            self.now += 30.0
            return self.now - 30.0

    monkeypatch.setattr(lobby_module, "time", Wall())
    async with running_app(tmp_path / "app") as app:
        others = [replace(record, room_id=f"r{n}") for n in range(2, 4)]
        assert app.lobby.recover([record, *others]) == 3
        now = trio.current_time()
        for room_id in ("r1", "r2", "r3"):
            room = app.lobby.rooms[room_id]
            assert room.game is not None
            tier = room.delayed[0]
            tier.release(now + 14.9, room.game.turn, False)
            assert tier.held == 1, room_id  # the last: due 15 s after the restart


@pytest.mark.parametrize("private", [True, False])
def test_a_player_join_doesnt_say_the_game_is_over_before_the_delayed_tier_does(
        private: bool) -> None:
    """A stranger's JoinRoom as a player was answered GAME_OVER the moment the live game
    ended -- before the invite check of a private room, and while its delayed tier was
    still showing the game (a match's result, early, to anyone). Now a private room's
    stranger is refused as before the end, and while a tier still holds actions the answer
    is a full room's; once it has shown everything, GAME_OVER."""
    settings = RoomSettings(private=private, spectate=Spectate.NONE,
                            invite_hash=secret_hash(INVITE),
                            reserved=(("a1", "p1"), ("a2", "p2")),
                            tiers=(SpectatorTier(TierKind.PUBLIC, delay_seconds=60,
                                                 accounts=((WATCHER, "w"),)),))
    d = Driver(Room("r1", "tiers", 2, 0.0, RoomConfig(history=10_000), settings=settings))
    start(d)
    d.now = 1.0
    assert d.do(ConcedeGame(seat_conn(d, 0), 0)).log
    assert d.room.finished and d.room.still_shown

    def join_as_player(conn: int, code: str) -> list[int]:
        d.rid += 1
        d.do(Join(conn, d.rid, f"s{conn}", f"x{conn}", False, None, f"x{conn}", code))
        return errors(d.take(conn))

    if private:  # (as if no such room: a stranger learns nothing of a private room)
        assert join_as_player(20, "") == [mpb.ERROR_CODE_ROOM_NOT_FOUND]
        assert join_as_player(21, "wrong") == [mpb.ERROR_CODE_ROOM_NOT_FOUND]
    assert join_as_player(22, INVITE) == [mpb.ERROR_CODE_ROOM_FULL]
    # The game's own players know the result already.
    assert join_as_player(seat_conn(d, 0), INVITE) == [mpb.ERROR_CODE_INVALID_ARGUMENT]
    d.now = 62.0
    d.do(Tick())
    assert not d.room.still_shown
    assert join_as_player(23, INVITE) == [mpb.ERROR_CODE_GAME_OVER]
    if private:
        assert join_as_player(24, "") == [mpb.ERROR_CODE_ROOM_NOT_FOUND]


def test_a_tiers_audience_replays_the_game_only_once_the_tier_has_shown_it_though_behind(
) -> None:
    """A busy server lets a tier fall behind its delay: its audience could replay the whole
    game -- its end included -- while the tier still showed its last seconds (an attacker
    saw the replay open 2.6 to 20 s early under load). While the room is live, the replay
    waits for the tier to have shown the game's last action."""
    tier = SpectatorTier(TierKind.PUBLIC, delay_seconds=0.3, accounts=((WATCHER, "w"),))
    d = Driver(Room("r1", "tiers", 2, 0.0, RoomConfig(linger_seconds=600.0),
                    settings=RoomSettings(spectate=Spectate.NONE, tiers=(tier,))))
    watch(d, 9, 1)
    start(d)
    room = d.room
    _played_straight(d, 30)
    record = GameRecord("r1", "tiers", b"s" * 32, [("A", "", ""), ("B", "", "")], [],
                        {"winners": [1]}, accounts=("a1", "a2"),
                        settings=RoomSettings(spectate=Spectate.NONE, tiers=(tier,)),
                        finished=d.now)

    def problem(now: float) -> int | None:
        found = replay_problem(record, WATCHER, SPECTATOR, "", now,
                               showing=lambda n: room.tier_showing(n, 1))
        return None if found is None else found.code

    assert room.delayed[0].held > 0 and room.tier_showing(0, 1) and room.tier_showing(0, 2)
    # Long past the end plus the delay, but the tier is behind: not yet, as before the end.
    assert problem(d.now + 100.0) == mpb.ERROR_CODE_NOT_READY
    assert replay_problem(record, WATCHER, SPECTATOR, "", d.now + 100.0) is None  # (gone)
    d.now += 100.0
    d.do(Tick())  # the tier shows everything it held
    assert room.delayed[0].held == 0 and not room.tier_showing(0, 1)
    assert problem(d.now) is None
    assert not room.tier_showing(5, 1)  # (no such tier)


async def test_the_replay_desk_asks_the_live_room_whether_its_tier_has_shown_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """(The wiring of the test above: the server's replay desk asks the game's room, while it
    is live, whether the audience's tier is still showing the game.)"""
    showing = True
    monkeypatch.setattr(Room, "tier_showing", lambda self, tier, game: showing)
    with trio.fail_after(60):
        async with running_app(tmp_path) as app:
            a, b, w, name = await _ann_bob_and_wes(app)
            created = await a.request(create_room=mpb.CreateRoom(
                name="t", spectate=mpb.SPECTATE_NONE, tiers=[mpb.SpectatorTier(
                    kind=mpb.TIER_KIND_PUBLIC, delay_seconds=1, accounts=[name])]))
            room_id = created.room_created.room.room_id
            for sock in (a, b):
                await sock.request(join_room=mpb.JoinRoom(room_id=room_id,
                                                          role=mpb.ROLE_PLAYER))
            await a.to_server.send(
                mpb.ClientMessage(concede=mpb.ConcedeGame()).SerializeToString())
            for _ in range(1000):  # (the end recorded)
                if app.store.load_game(room_id, actions=False).finished is not None:
                    break
                await trio.sleep(0.01)
            await trio.sleep(1.1)  # (past the end plus the tier's delay, on the wall clock)
            assert room_id in app.lobby.hosts  # (live: the room lingers)

            async def replay() -> int:
                got = await w.request(replay=mpb.ReplayRequest(room_id=room_id, public=True,
                                                               paused=True))
                return got.error.code if got.HasField("error") else -1

            assert await replay() == mpb.ERROR_CODE_NOT_READY
            showing = False
            assert await replay() == -1
