"""The room as a sans-I/O state machine: commands and a time in, sends, store writes and the
next wake-up out. No trio, no SQLite, no sockets (architecture invariant 6)."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import dataclass, field, replace

import pytest

from client_sdk.mirror import Mirror
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.decks import DeckFormat, resolve
from server.engine import Game
from server.engine.actions import Action, Concede, ConcedeReason
from server.engine.events import Event
from server.rooms import room as room_module
from server.rooms.commands import (
    Act,
    ConcedeGame,
    Disconnect,
    Join,
    Leave,
    Output,
    Reattach,
    ShowDelayed,
    Snapshot,
    StartWatching,
    StopWatching,
    Tick,
)
from server.rooms.fanout import Fanout
from server.rooms.recovery import recover
from server.rooms.room import Room, RoomConfig, demo_deck_for_seat
from server.store.records import (
    AppendAction,
    CreateGame,
    FinishGame,
    GameRecord,
    RoomSettings,
    SeatLeft,
    SpectatorTier,
    TierKind,
)
from server.view import SPECTATOR, project
from server.view.encode import encode_view
from server.view.stream import event_object_ids

WELCOME = mpb.Welcome(protocol_version=1, session_id="s", resume_token="t").SerializeToString()


@dataclass
class Driver:
    """Feeds a room commands at a controlled time and keeps what each connection got."""

    room: Room
    now: float = 0.0
    got: dict[int, list[mpb.ServerMessage]] = field(default_factory=dict)
    log: list[object] = field(default_factory=list)
    rid: int = 0
    fanout: Fanout = field(default_factory=Fanout)

    def do(self, command: object) -> Output:
        """Handle ``command``; what it sends -- directly, and through the spectator feeds
        (as the relay would, every message at once) -- is kept per connection. Then, as the
        room's host does when nothing else comes, a Tick while the room's wake-up time is
        due, and ShowDelayed while its delayed tiers have actions due (a few each; the
        host's budget for them is left out); the output returned is the command's, with the
        last times and everything logged."""
        out = self._handle(command)
        for _ in range(100_000):
            if out.closed or min(out.wake_at, out.delayed_at) > self.now:
                return out
            more = self._handle(Tick() if out.wake_at <= self.now else ShowDelayed())
            out.log.extend(more.log)
            out.released.extend(more.released)
            out.wake_at, out.delayed_at, out.closed = more.wake_at, more.delayed_at, more.closed
        raise AssertionError("the room asked to be woken at once, forever")

    def _handle(self, command: object) -> Output:
        if isinstance(command, Disconnect):  # the app drops a closed connection's watch
            self.fanout.drop(command.conn)
        out = self.room.handle(command, self.now)  # type: ignore[arg-type]
        self.log.extend(out.log)
        for conn, data in out.sends:
            self.got.setdefault(conn, []).append(mpb.ServerMessage.FromString(data))
        self.fanout.apply(self.room.room_id, out.feed)
        for watch in self.fanout.due():
            for data in self.fanout.take(watch.conn, batched=False):
                self.got.setdefault(watch.conn, []).append(mpb.ServerMessage.FromString(data))
        return out

    def take(self, conn: int) -> list[mpb.ServerMessage]:
        return self.got.pop(conn, [])

    def join(self, conn: int, *, spectator: bool = False, deck: str = "",
             session: str = "") -> Output:
        self.rid += 1
        return self.do(Join(conn, self.rid, session or f"s{conn}", f"p{conn}", spectator,
                            resolve(deck, DeckFormat.CONSTRUCTED) if deck else None,
                            f"a{conn}"))

    def act(self, conn: int, option: int = 0) -> Output:
        game = self.room.game
        assert game is not None and game.pending is not None
        return self.do(Act(conn, 0, game.pending.prompt_id, option, 0))


def kinds(msgs: list[mpb.ServerMessage]) -> list[str]:
    return [str(m.WhichOneof("body")) for m in msgs]


def errors(msgs: list[mpb.ServerMessage]) -> list[int]:
    return [m.error.code for m in msgs if m.HasField("error")]


def two_player_room(config: RoomConfig | None = None) -> Driver:
    d = Driver(Room("r1", "test", 2, 0.0, config))
    assert d.join(1, deck="naya-pets").accepted
    out = d.join(2, deck="golgari-grind")
    assert out.accepted
    assert [type(op) for op in out.log] == [CreateGame]
    return d


def seat_conn(d: Driver, seat: int) -> int:
    member = d.room.seats[seat]
    assert member is not None and member.conn is not None
    return member.conn


def play(d: Driver, rng: random.Random, actions: int, skip: int | None = None) -> int:
    """Answer pending decisions at random; stop early when ``skip``'s seat must decide or the
    game ends. Returns the actions played."""
    done = 0
    for _ in range(actions):
        game = d.room.game
        assert game is not None
        if game.result is not None or game.pending is None:
            break
        seat = game.pending.seat
        if seat == skip:
            break
        d.act(seat_conn(d, seat), rng.randrange(len(game.pending.options)))
        done += 1
    return done


def test_a_room_imports_neither_trio_nor_a_database_nor_websockets() -> None:
    code = ("import sys, server.rooms.room, server.rooms.commands; "
            "print(sorted(m for m in ('trio', 'sqlite3', 'websockets') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_rule_103_the_game_starts_when_every_seat_is_taken_and_is_logged_before_sent() -> None:
    d = two_player_room()
    game = d.room.game
    assert game is not None and game.pending is not None
    for conn, seat in ((1, 0), (2, 1)):
        got = d.take(conn)
        assert got[0].joined.seat == seat
        assert "snapshot" in kinds(got) and "clocks" in kinds(got) and "presence" in kinds(got)
        assert ("decision" in kinds(got)) == (game.pending.seat == seat)


def test_rule_103_spectators_there_before_the_start_each_get_their_tiers_snapshot_built_once(
) -> None:
    """An audience in the room before the game starts is sent the public snapshot, clocks
    and presence with the start: the same messages for each, built once for all."""
    d = Driver(Room("r1", "test", 2, 0.0))
    assert d.join(1, deck="naya-pets").accepted
    for conn in (10, 11, 12):
        assert d.join(conn, spectator=True).accepted
    out = d.join(2, deck="golgari-grind")
    firsts = [op.first for op in out.feed if isinstance(op, StartWatching)]
    assert len(firsts) == 3 and firsts[0] == firsts[1] == firsts[2]
    assert all(a is b for a, b in zip(firsts[0], firsts[1], strict=True))
    for conn in (10, 11, 12):
        got = d.take(conn)
        assert kinds(got)[1:] == ["snapshot", "clocks", "presence"]  # after its Joined
    mirror = Mirror()
    mirror.load_snapshot(got[1].snapshot)
    game = d.room.game
    assert game is not None
    assert mirror.view() == encode_view(project(game, SPECTATOR))


def test_the_clocks_message_is_built_again_only_when_what_it_shows_changes() -> None:
    """Every join sends the clocks: at the same shown time the same bytes are reused."""
    d = two_player_room(RoomConfig(clock_seconds=60))
    first = d.room.clocks(1.0)
    assert d.room.clocks(1.0) is first and d.room.clocks(1.0004) is first
    later = mpb.ServerMessage.FromString(d.room.clocks(2.0))
    shown = {c.seat: c.remaining_ms for c in later.clocks.seats}
    game = d.room.game
    assert game is not None and game.pending is not None
    assert shown[game.pending.seat] == 58_000 and shown[1 - game.pending.seat] == 60_000
    assert mpb.ServerMessage.FromString(first).clocks.seats[game.pending.seat].remaining_ms \
        == 59_000


def test_a_refused_join_leaves_the_connection_outside_the_room() -> None:
    d = two_player_room()
    out = d.join(3)
    assert not out.accepted and errors(d.take(3)) == [mpb.ERROR_CODE_ROOM_FULL]
    assert d.room.member_of(3) is None
    game = d.room.game
    assert game is not None and game.pending is not None
    # Neither an action nor a snapshot is accepted from it, for any seat.
    out = d.do(Act(3, 7, game.pending.prompt_id, 0, 0))
    assert not out.log and errors(d.take(3)) == [mpb.ERROR_CODE_NOT_READY]
    d.do(Snapshot(3, 8))
    assert kinds(d.take(3)) == ["error"]
    d.do(ConcedeGame(3, 9))
    assert kinds(d.take(3)) == ["error"] and game.result is None


def test_rule_103_2_a_player_is_told_which_deck_it_plays_a_demo_deck_dealt_or_its_own() -> None:
    d = Driver(Room("r1", "test", 3, 0.0))
    d.join(1)  # no deck: the server deals one
    d.join(2, deck="rakdos-aggro")
    d.join(3, deck="Name Burn\n4 Shock\n56 Mountain")
    dealt, named, own = (d.take(c)[0].joined for c in (1, 2, 3))
    assert (dealt.deck_name, dealt.demo_deck) == (demo_deck_for_seat(0), True)
    assert (named.deck_name, named.demo_deck) == ("rakdos-aggro", True)
    assert (own.deck_name, own.demo_deck) == ("Burn", False)
    # With the deck as stored: what sideboarding starts from (an uploaded XML file's too).
    assert own.deck == resolve("Name Burn\n4 Shock\n56 Mountain", DeckFormat.CONSTRUCTED).text
    assert dealt.deck == resolve(demo_deck_for_seat(0), DeckFormat.CONSTRUCTED).text
    # A list that only takes a demo deck's name is not that demo deck.
    d2 = Driver(Room("r2", "test", 2, 0.0))
    d2.join(1, deck="Name rakdos-aggro\n4 Shock\n56 Mountain")
    assert not d2.take(1)[0].joined.demo_deck
    d2.join(2, spectator=True)
    watcher = d2.take(2)[0].joined
    assert (watcher.deck_name, watcher.demo_deck, watcher.deck) == ("", False, "")
    # Taking the seat back says it again.
    d.do(Disconnect(1))
    assert d.do(Reattach(9, 4, "s1", "p1", 0, "a1", WELCOME)).accepted
    back = d.take(9)[0].resumed.joined
    assert (back.deck_name, back.demo_deck) == (demo_deck_for_seat(0), True)


def test_invariant_2_only_the_deciding_seat_may_act_and_only_on_the_current_prompt() -> None:
    d = two_player_room()
    game = d.room.game
    assert game is not None and game.pending is not None
    deciding = seat_conn(d, game.pending.seat)
    other = seat_conn(d, 1 - game.pending.seat)
    d.take(deciding), d.take(other)
    d.act(other)
    assert errors(d.take(other)) == [mpb.ERROR_CODE_NOT_YOUR_DECISION]
    d.do(Act(deciding, 1, game.pending.prompt_id + 5, 0, 0))
    [stale] = d.take(deciding)
    assert stale.error.code == mpb.ERROR_CODE_STALE_PROMPT
    assert stale.error.message.startswith(f"prompt {game.pending.prompt_id + 5} is not current")
    # The current prompt against a state the seat's view has left: the state is named, not
    # the prompt (it said "prompt 5 is not current (now 5, ...)").
    state = d.room.classes[game.pending.seat].stream.state_id
    d.do(Act(deciding, 1, game.pending.prompt_id, 0, state + 1))
    [stale] = d.take(deciding)
    assert stale.error.code == mpb.ERROR_CODE_STALE_PROMPT
    assert stale.error.message == (f"expected_state_id {state + 1} is not your view's state "
                                   f"(now {state}; prompt {game.pending.prompt_id} is current)")
    d.do(Act(deciding, 1, game.pending.prompt_id, 99, 0))
    assert errors(d.take(deciding)) == [mpb.ERROR_CODE_INVALID_ARGUMENT]
    before = game.action_count
    out = d.act(deciding)
    assert game.action_count == before + 1
    assert [type(op) for op in out.log] == [AppendAction]
    assert "delta" in kinds(d.take(other))


def test_a_session_holding_a_seat_cannot_join_again_as_a_spectator() -> None:
    d = two_player_room()
    d.do(Disconnect(2))
    out = d.join(5, spectator=True, session="s2")
    assert not out.accepted
    assert errors(d.take(5)) == [mpb.ERROR_CODE_INVALID_ARGUMENT]


def test_resume_sends_only_the_missed_deltas_and_the_mirror_equals_the_projection() -> None:
    d = two_player_room()
    rng = random.Random(5)
    mirrors = {1: Mirror(), 2: Mirror()}

    def feed(conn: int, got: list[mpb.ServerMessage] | None = None) -> None:
        for m in d.take(conn) if got is None else got:
            if m.HasField("snapshot"):
                mirrors[conn].load_snapshot(m.snapshot)
            elif m.HasField("delta"):
                mirrors[conn].apply_delta(m.delta)

    play(d, rng, 30)
    play(d, rng, 100, skip=0)  # until seat 0 decides: seat 1 drops while it waits
    feed(1)
    feed(2)
    d.do(Disconnect(2))
    presence = [m.presence for m in d.take(1) if m.HasField("presence")]
    assert presence and not presence[-1].seats[1].connected and presence[-1].seats[0].connected
    last = mirrors[2].state_id
    before = d.room.classes[1].stream.state_id
    played = play(d, rng, 200, skip=1)
    feed(1)
    missed = d.room.classes[1].stream.state_id - before
    assert played > 0 and missed > 0
    out = d.do(Reattach(9, 4, "s2", "p2", last, "a2", WELCOME))
    assert out.accepted and d.room.member_of(9) is d.room.seats[1]
    got = d.take(9)
    assert got[0].resumed.deltas == missed and not got[0].resumed.snapshot
    assert got[0].resumed.joined.seat == 1
    assert kinds(got).count("delta") == missed and "snapshot" not in kinds(got)
    mirrors[9] = mirrors.pop(2)
    feed(9, got)
    game = d.room.game
    assert game is not None
    assert mirrors[9].view() == encode_view(project(game, 1))
    # The opponent is told the seat is back; the old connection id holds nothing now.
    assert [m.presence.seats[1].connected for m in d.take(1) if m.HasField("presence")] == [True]
    assert d.room.member_of(2) is None


def test_a_resume_beyond_the_kept_history_gets_a_snapshot() -> None:
    d = two_player_room(RoomConfig(history=2))
    play(d, random.Random(2), 100)
    assert d.room.classes[1].stream.state_id > 4  # more deltas than the history keeps
    d.take(2)
    out = d.do(Reattach(9, 4, "s2", "p2", 1, "a2", WELCOME))
    assert out.released == [2]  # the newer connection replaces the older one
    got = d.take(9)
    assert got[0].resumed.snapshot and got[0].resumed.deltas == 0
    assert "snapshot" in kinds(got)


def test_a_snapshot_repeats_the_last_events_its_viewer_was_sent_and_no_other() -> None:
    """A player back from scratch (a new terminal: no state to resume from) gets a snapshot
    whose ``recent_events`` are the last events of the deltas their seat was sent -- never
    the other seat's (a card the opponent drew stays unnamed) -- and so does a spectator;
    led by how the game began (who plays first, the mulligans: 103.1, 103.5) if those last
    events are later, as that seat was sent them."""
    d = two_player_room()
    assert d.join(3, spectator=True).accepted
    for conn in (1, 2, 3):
        snapshot = [m.snapshot for m in d.take(conn) if m.HasField("snapshot")]
        assert snapshot and not snapshot[-1].recent_events  # nothing happened before the start
    play(d, random.Random(8), 60)
    deltas = {conn: [list(m.delta.events) for m in d.take(conn) if m.HasField("delta")]
              for conn in (1, 2, 3)}
    sent: dict[int, list[pb.GameEvent]] = {}
    for conn, events_of in deltas.items():  # whole deltas, the last 20 events at most
        kept: list[pb.GameEvent] = []
        for events in reversed([e for e in events_of if e]):
            if kept and len(kept) + len(events) > 20:
                break
            kept[:0] = events
        kept = kept[-20:]
        opening = [e for events in events_of for e in events
                   if e.WhichOneof("kind") in ("starting_player_chosen", "mulligan_taken")
                   and e not in kept]
        assert opening  # (who plays first, at least: long before the last events)
        sent[conn] = [*opening, *kept]
    assert all(sum(map(len, events)) > 20 for events in deltas.values())
    d.do(Disconnect(2))
    d.do(Reattach(9, 4, "s2", "p2", 0, "a2", WELCOME))  # state 0: from scratch
    d.rid += 1
    d.do(Snapshot(3, d.rid))  # a spectator's resync
    d.do(Snapshot(1, d.rid))
    for conn, was in ((9, 2), (3, 3), (1, 1)):
        got = [m.snapshot for m in d.take(conn) if m.HasField("snapshot")]
        assert len(got) == 1 and list(got[0].recent_events) == sent[was]
    assert sent[1] != sent[2]  # each its own (a draw: a card, or which one)


def test_400_7_a_snapshots_recent_events_name_what_has_left_the_view_since() -> None:
    """A reloaded page told "a card you can't see blocks Trufflesnout": the blocker had died
    since, its id gone from the view, and a client starting from a snapshot had never seen
    it (found playing as a new user). The snapshot names such objects (``recent_objects``:
    id, name, owner, controller, card types -- so a client says a creature "died", not
    "moved from the battlefield", a new player's round), each one its viewer was sent
    before -- never another, nor a card hidden again in its zone."""
    d = two_player_room()
    assert d.join(3, spectator=True).accepted
    rng, named, creatures = random.Random(5), 0, 0
    # What each was sent, by id: its name and card types.
    seen: dict[int, dict[str, tuple[str, list[str]]]] = {1: {}, 3: {}}
    # Cards hidden again but still in their zone (a look ended, 701.20a): not named.
    concealed: dict[int, set[str]] = {1: set(), 3: set()}
    for _ in range(150):
        if not play(d, rng, 20):
            break
        d.rid += 1
        for conn in (1, 3):
            d.do(Snapshot(conn, d.rid))
            for m in d.take(conn):
                if m.HasField("delta"):
                    for op in m.delta.ops:
                        kind = op.WhichOneof("op")
                        if kind in ("create_object", "update_object", "reveal_object"):
                            obj = getattr(op, kind)
                            seen[conn][obj.id] = (obj.name, list(obj.card_types))
                            concealed[conn].discard(obj.id)
                        elif kind == "conceal_object":
                            concealed[conn].add(op.conceal_object)
                if not m.HasField("snapshot"):
                    continue
                snap = m.snapshot
                in_view = {o.id for o in snap.view.objects}
                named_ids = {o.id for o in snap.recent_objects}
                gone = {i for e in snap.recent_events
                        for i in event_object_ids(e.SerializeToString())
                        if i in seen[conn] and i not in in_view and i not in concealed[conn]}
                assert named_ids == gone, (conn, named_ids, gone)
                for o in snap.recent_objects:
                    # As it was last sent, and only then.
                    assert (o.name, list(o.card_types)) == seen[conn][o.id]
                    creatures += "Creature" in o.card_types
                named += len(snap.recent_objects)
                seen[conn].update({o.id: (o.name, list(o.card_types))
                                   for o in snap.view.objects})
    assert named > 0 and creatures > 0


def test_rule_104_3a_a_player_whose_clock_runs_out_concedes_when_the_room_wakes() -> None:
    d = two_player_room(RoomConfig(clock_seconds=60))
    game = d.room.game
    assert game is not None and game.pending is not None
    deciding = game.pending.seat
    out = d.do(Tick())
    assert out.wake_at == 60.0
    d.now = 59.0
    assert not d.do(Tick()).log and game.result is None
    d.now = 60.5
    out = d.do(Tick())
    assert game.result is not None and deciding not in game.result.winners
    assert [type(op) for op in out.log] == [AppendAction, FinishGame]
    append, finish = out.log
    assert isinstance(append, AppendAction) and isinstance(finish, FinishGame)
    assert append.action == Concede(ConcedeReason.OUT_OF_TIME)  # recorded, and replayed, so
    name = game.players[deciding].name
    assert finish.reason == f"{name} ran out of time, which concedes the game"
    assert d.room.remaining[deciding] == 0.0


def test_rule_104_3a_a_player_away_too_long_while_the_game_waits_on_them_concedes() -> None:
    """An opponent who closed the tab left the other waiting out their whole clock, up to
    30 minutes (found playing as a new user). A player disconnected while the game waits on
    their decision concedes after ``away_seconds`` (the others play on); one back in time,
    or away only while others decide, doesn't."""
    d = two_player_room(RoomConfig(away_seconds=100))
    game = d.room.game
    assert game is not None and game.pending is not None
    deciding = game.pending.seat
    other = 1 - deciding
    d.now = 10.0
    assert d.do(Disconnect(seat_conn(d, other))).wake_at == 1800.0  # (not the one decided)
    d.do(Disconnect(seat_conn(d, deciding)))
    d.now = 60.0
    d.do(Reattach(11, 1, f"s{deciding + 1}", f"p{deciding + 1}", 0, f"a{deciding + 1}",
                  WELCOME))  # back in time
    d.now = 70.0
    out = d.do(Disconnect(11))
    assert out.wake_at == 170.0 and game.result is None
    d.now = 169.0
    assert not d.do(Tick()).log and game.result is None
    d.now = 170.0
    out = d.do(Tick())
    assert game.result is not None and game.result.winners == (other,)
    append, finish = out.log[:2]
    assert isinstance(append, AppendAction) and isinstance(finish, FinishGame)
    assert append.action == Concede(ConcedeReason.ABSENT)
    name = game.players[deciding].name
    assert finish.reason == f"{name} stayed disconnected too long, which concedes the game"


@pytest.mark.parametrize("leave", ["leave", "concede"])
def test_rule_104_3a_a_player_leaving_the_running_game_concedes_and_reads_so(
        leave: str) -> None:
    d = two_player_room()
    game = d.room.game
    assert game is not None
    out = d.do(Leave(1, 2) if leave == "leave" else ConcedeGame(1, 2))
    append, finish = out.log[-2:]
    assert isinstance(append, AppendAction) and isinstance(finish, FinishGame)
    name = game.players[append.seat].name
    if leave == "leave":
        assert append.action == Concede(ConcedeReason.LEFT)
        assert finish.reason == f"{name} left the game, which concedes it"
    else:
        assert append.action == Concede()
        assert finish.reason == f"{name} conceded"


def test_a_finished_room_lingers_then_closes_and_releases_its_members() -> None:
    d = two_player_room(RoomConfig(linger_seconds=30))
    game = d.room.game
    assert game is not None and game.pending is not None
    d.now = 5.0
    d.do(ConcedeGame(1, 3))
    assert game.result is not None
    d.take(1), d.take(2)
    assert d.do(Tick()).wake_at == 35.0
    d.now = 35.0
    out = d.do(Tick())
    assert out.closed and sorted(out.released) == [1, 2]
    assert "room_closed" in kinds(d.take(1))
    assert d.join(3).closed


def test_an_unstarted_room_nobody_is_in_expires() -> None:
    d = Driver(Room("r", "t", 2, 0.0, RoomConfig(idle_seconds=100)))
    assert d.do(Tick()).wake_at == 100.0
    d.now = 50
    d.join(1)
    assert d.do(Tick()).wake_at == float("inf")
    d.now = 60
    d.do(Leave(1, 2))
    d.now = 159
    assert not d.do(Tick()).closed
    d.now = 160
    assert d.do(Tick()).closed


def test_an_unstarted_room_its_creator_leaves_last_closes_at_once() -> None:
    """Leaving one's unstarted rooms didn't free them: each waited --idle-room-seconds,
    counting against the creator's limit of open rooms ("play or leave them first"). A
    room left last by its creator closes now; a stranger joining and leaving an empty room
    leaves it waiting (no one else closes a room)."""
    d = Driver(Room("r", "t", 3, 0.0, RoomConfig(idle_seconds=100),
                    settings=RoomSettings(creator="a2")))
    d.join(1)
    d.join(2)
    d.now = 10
    assert not d.do(Leave(2, 3)).closed  # the creator leaves, someone else is still in
    d.do(Leave(1, 4))  # the stranger leaves last: the room waits
    assert not d.do(Tick()).closed
    d.join(2)
    out = d.do(Leave(2, 6))
    assert out.closed
    assert d.room.closed


def test_a_dropped_connection_frees_its_seat_in_an_unstarted_room() -> None:
    d = Driver(Room("r", "t", 2, 0.0))
    d.join(1)
    d.do(Disconnect(1))
    assert d.room.seats == [None, None]
    out = d.do(Reattach(4, 1, "s1", "p1", 0, "a1", WELCOME))
    assert not out.accepted
    got = d.take(4)
    assert got[0].HasField("resumed") and not got[0].resumed.HasField("joined")


def test_a_waiting_rooms_players_and_live_spectators_see_each_seat_taken_and_freed() -> None:
    """Who is seated, pushed (RoomUpdate) whenever a seat of an unstarted room is taken or
    freed -- a join, a leave, a drop -- to its players and live spectators, never to a
    delayed tier's (nothing live); the game's start says the rest."""
    tier = SpectatorTier(TierKind.PUBLIC, delay_seconds=60, accounts=(("a11", "p11"),))
    d = Driver(Room("r", "t", 3, 0.0, settings=RoomSettings(tiers=(tier,))))

    def seated(conn: int) -> list[list[str]]:
        return [list(m.room_update.room.players) for m in d.take(conn)
                if m.HasField("room_update")]

    d.join(1)
    assert seated(1) == []  # its Joined says it
    assert d.join(10, spectator=True).accepted
    d.rid += 1
    assert d.do(Join(11, d.rid, "s11", "p11", True, None, "a11", tier=1)).accepted
    d.join(2)
    assert seated(1) == [["p1", "p2"]] and seated(2) == []
    assert seated(10) == [["p1", "p2"]]
    d.do(Leave(2, 99))
    assert seated(1) == [["p1"]] and seated(10) == [["p1"]] and seated(2) == []
    d.join(3)
    d.do(Disconnect(3))
    assert seated(1) == [["p1", "p3"], ["p1"]]
    assert seated(11) == []  # the delayed tier's spectator
    d.join(4)
    d.join(5)  # the last seat: the game starts instead
    assert d.room.game is not None
    assert seated(1) == [["p1", "p4"]] and seated(5) == []


def test_spectators_beyond_the_rooms_limit_get_a_clear_error() -> None:
    d = two_player_room(RoomConfig(max_spectators=1))
    assert d.join(10, spectator=True).accepted
    assert "snapshot" in kinds(d.take(10))
    assert not d.join(11, spectator=True).accepted
    got = d.take(11)
    assert errors(got) == [mpb.ERROR_CODE_LIMIT_REACHED] and "at most 1" in got[0].error.message


def test_invariant_3_a_recovered_room_rebuilds_every_stream_and_its_history_exactly() -> None:
    d = two_player_room()
    rng = random.Random(11)
    play(d, rng, 150)
    game = d.room.game
    assert game is not None
    create = d.log[0]
    assert isinstance(create, CreateGame)
    actions = [op for op in d.log if isinstance(op, AppendAction)]
    record = GameRecord("r1", "test", create.seed, [tuple(p) for p in create.players],  # type: ignore[misc]
                        [(a.seat, a.action) for a in actions], None, 1800.0,
                        actions[-1].clocks, accounts=create.accounts, settings=create.settings)
    again = recover(record, 1000.0)
    assert again.game is not None and again.game.action_count == game.action_count
    for seat, cls in d.room.classes.items():
        copy = again.classes[seat]
        assert copy.stream.state_id == cls.stream.state_id
        assert list(copy.history) == list(cls.history)
    assert again.remaining == d.room.remaining
    assert all(m is not None and m.conn is None for m in again.seats)
    # Replaying the log from the seed is the same game (and the spectator view agrees).
    assert encode_view(project(again.game, SPECTATOR)) == encode_view(project(game, SPECTATOR))


@pytest.mark.parametrize("lost_first", [False, True])
def test_104_3a_a_player_who_left_can_neither_come_back_nor_watch_after_a_restart(
        lost_first: bool) -> None:
    """Who had left a running game (conceding it) was kept only in memory: after a restart
    the recovered room let that account take its seat back and see the game live again --
    then, known from the log's Concede, still one who had lost before leaving (no Concede
    then: it had lost already). Leaving is stored (SeatLeft)."""
    d = Driver(Room("r1", "test", 3, 0.0))
    for conn, deck in ((1, "naya-pets"), (2, "golgari-grind"), (3, "naya-pets")):
        assert d.join(conn, deck=deck).accepted
    if lost_first:
        d.do(ConcedeGame(3, 8))  # seat 2 has lost; the others play on, it stays seated
    d.do(Leave(3, 9))  # the game goes on between the other two
    create = d.log[0]
    assert isinstance(create, CreateGame)
    actions = [op for op in d.log if isinstance(op, AppendAction)]
    left = [op for op in d.log if isinstance(op, SeatLeft)]
    assert left == [SeatLeft("r1", 2)]
    record = GameRecord("r1", "test", create.seed, [tuple(p) for p in create.players],  # type: ignore[misc]
                        [(a.seat, a.action) for a in actions], None, 1800.0,
                        actions[-1].clocks, accounts=create.accounts, settings=create.settings,
                        left=tuple(op.seat for op in left))
    again = Driver(recover(record, 1000.0))
    assert again.room.game is not None and again.room.game.result is None
    for conn, spectator in ((7, False), (8, True)):
        out = again.do(Join(conn, 1, f"new{conn}", "p3", spectator, None, "a3"))
        assert not out.accepted
        got = again.take(conn)
        assert errors(got) == [mpb.ERROR_CODE_INVALID_ARGUMENT]
        assert "you left this game" in got[0].error.message


def test_a_dropped_spectators_watch_is_stopped_by_the_room() -> None:
    """A watch a join started after its connection had closed (the app had dropped that
    connection's watches already) went on: the room now ends it with the spectator."""
    d = two_player_room()
    assert d.join(10, spectator=True).accepted
    out = d.do(Disconnect(10))
    assert StopWatching(10, False) in out.feed


def test_a_finished_rooms_last_board_may_still_be_watched_while_it_lingers() -> None:
    """Live spectators of a finished game lost their places in a restart (a room with
    delayed tiers can't tell which tier a lost place had) and, joining again, were told
    GAME_OVER: thrown out of the last board before the room closed. A spectator may join
    while the room lingers; a player may not."""
    d = two_player_room(RoomConfig(linger_seconds=30))
    d.do(ConcedeGame(1, 2))
    assert d.room.finished
    assert d.join(10, spectator=True).accepted
    got = d.take(10)
    assert kinds(got)[:2] == ["joined", "snapshot"]
    assert got[1].snapshot.view.header.HasField("result")
    assert not d.join(11).accepted
    assert errors(d.take(11)) == [mpb.ERROR_CODE_GAME_OVER]


def test_resume_tokens_never_appear_in_a_commands_repr_which_failure_logs_show() -> None:
    from server.rooms.session import Resume

    secret = "tok-" + "x" * 40
    welcome = mpb.Welcome(resume_token=secret).SerializeToString()
    assert secret not in repr(Reattach(1, 2, "s", "n", 3, "", welcome))
    assert secret not in repr(Resume(secret, 3))


def test_an_accounts_disconnected_seat_is_given_back_to_its_join_and_never_to_another() -> None:
    """A connection that took the account's session over as the room accepted the older
    connection's join finds the seat held and disconnected: its JoinRoom gets it back (the
    account's place), with a snapshot; another account's join never does."""
    d = two_player_room()
    d.do(Disconnect(1))
    d.take(2)
    out = d.do(Join(7, 9, "s-other", "p1", False, None, "a1"))
    assert out.accepted and d.room.member_of(7) is d.room.seats[0]
    got = d.take(7)
    assert kinds(got)[:2] == ["joined", "snapshot"] and got[0].joined.seat == 0
    assert kinds(d.take(2)) == ["presence"]
    d.do(Disconnect(7))
    out = d.do(Join(8, 10, "s-eve", "eve", False, None, "a-eve"))
    assert not out.accepted and errors(d.take(8)) == [mpb.ERROR_CODE_ROOM_FULL]


def test_an_engine_that_leaves_no_option_fails_the_room_instead_of_hanging_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A decision without options (an engine bug: 601.2h's payment once had none) would leave
    the game waiting for a clock to run out; the room raises instead, so the pump fails it
    alone (its members told, the game aborted with the cause) and nothing is logged for it."""
    d = two_player_room()
    game = d.room.game
    assert game is not None and game.pending is not None
    real_apply = room_module.apply  # type: ignore[attr-defined]

    def stuck(game: Game, seat: int, action: Action) -> list[Event]:
        events = real_apply(game, seat, action)
        assert game.pending is not None
        game.pending = replace(game.pending, options=())
        return events

    monkeypatch.setattr(room_module, "apply", stuck)
    deciding = seat_conn(d, game.pending.seat)
    with pytest.raises(RuntimeError, match="left no decision to make after action 1"):
        d.act(deciding)


def test_a_creators_refused_seat_in_the_room_made_for_it_closes_that_room() -> None:
    """CreateRoom.join whose creator can't be seated (its connection taken over by another
    of the account's as the room was made): the empty room waited --idle-room-seconds,
    counted against the creator's rooms. A Join marked ``creating`` that is refused closes
    the room, if nobody else is in it; any other refused join leaves a room as it was."""
    settings = RoomSettings(reserved=(("a8", "p8"), ("a9", "p9")))
    d = Driver(Room("r1", "test", 2, 0.0, settings=settings))
    d.rid += 1
    out = d.do(Join(1, d.rid, "s1", "p1", False, None, "a1"))
    assert not out.accepted and not out.closed and not d.room.closed
    d.rid += 1
    out = d.do(Join(1, d.rid, "s1", "p1", False, None, "a1", creating=True))
    assert not out.accepted and out.closed and d.room.closed
    assert errors(d.take(1)) == [mpb.ERROR_CODE_ROOM_FULL, mpb.ERROR_CODE_ROOM_FULL]
    # With someone in it, the room stays.
    d = Driver(Room("r2", "test", 2, 0.0, settings=settings))
    d.rid += 1
    assert d.do(Join(8, d.rid, "s8", "p8", False, None, "a8")).accepted
    d.rid += 1
    out = d.do(Join(1, d.rid, "s1", "p1", False, None, "a1", creating=True))
    assert not out.accepted and not out.closed and not d.room.closed
