"""A game room as a sans-I/O state machine (architecture invariant 6).

Like websockets' ``Protocol``, a :class:`Room` does no I/O at all: :meth:`Room.handle` takes
one :data:`Command` and the current time and returns an :class:`Output` -- what to send to
which connection, what to write to the store, and when to wake the room next. The thin trio
pump in :mod:`server.rooms.pump` performs it: it writes the store records (durably) *before*
sending anything, so an action is logged before any delta about it leaves.

The room owns its members. Which seat a connection holds is the room's own record
(:class:`Member`, fixed when the room accepted the join) and is found by connection id,
never from a field another room or the client can change. A connection is a member of at
most one room; :attr:`Output.accepted` tells the caller whether a join or a resume made it
one of this room's members, so a refused join leaves the connection where it was.

Every message about the game is built per view class (each seat, and spectators) from that
class's projection, encoded once (invariant 4). A seat's messages go to its player's
connection (:attr:`Output.sends`); a spectator class's are published once
(:class:`~server.rooms.commands.Publish`) and the relay serves them to every spectator
watching that class, off the game path (:mod:`server.rooms.fanout`): a room's work per
action doesn't grow with its spectators. Each class keeps its last
:attr:`RoomConfig.history` deltas so a resuming client receives only what it missed.

A room may host a match of several games of the same players (best of 3 or 5, rule 100.6a;
the rules themselves are in :mod:`server.rooms.match`). Seats and spectators -- the live
public view's and the delayed tiers' -- stay members across its games: when a game ends the
players sideboard (rule 100.4) until each has answered or :attr:`RoomConfig.sideboard_seconds`
have passed, then the next game starts and every member gets its snapshot. Each game is
stored as a game of its own (:func:`~server.store.records.game_id`), and the match in a
:class:`~server.store.records.MatchRecord`. State ids never repeat within a room: each game's
view classes start past every id of the game before (:func:`next_state_base`), so a client's
numbering and resume stay valid (a resume into an earlier game's state gets a snapshot).
"""

from __future__ import annotations

import hmac
import random
import re
import secrets
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import assert_never

from protocol.v1 import messages_pb2 as mpb
from server.cards import demo_deck_names
from server.decks import Deck, DeckFormat, resolve
from server.engine import Game, IllegalActionError, PlayerSetup, apply, new_game
from server.engine.actions import Action, ActionLimitDraw, Concede, ConcedeReason
from server.engine.casting import why_not_castable
from server.engine.events import Event
from server.rooms.clocks import ChessClocks
from server.rooms.commands import (
    INF,
    Act,
    Command,
    ConcedeGame,
    ConnId,
    Disconnect,
    Evict,
    ExplainCard,
    Join,
    Leave,
    OfferRematch,
    Output,
    Publish,
    QueryFault,
    Reattach,
    RematchMade,
    RematchPlan,
    RematchSeat,
    ShowDelayed,
    Shutdown,
    Snapshot,
    StartWatching,
    StopWatching,
    SubmitDeck,
    Tick,
)
from server.rooms.computer import (
    aimed_targets,
    choose,
    computer_id,
    computer_name,
    second_legends,
    think_seconds,
)
from server.rooms.match import decide, next_chooser, sideboard_problems
from server.rooms.session import MAX_ROOM_NAME, error_bytes
from server.rooms.tiers import DelayedClass, release_in_turn
from server.store.records import (
    AppendAction,
    CreateGame,
    FinishGame,
    MatchRecord,
    PutMatch,
    RoomSettings,
    SeatLeft,
    Spectate,
    SpectatorTier,
    TierKind,
    game_id,
    next_state_base,
    secret_hash,
)
from server.view import SPECTATOR
from server.view.pipeline import ViewPipeline
from server.view.stream import ViewStream, opening_events, recent_events
from server.view.wire import with_request_id

#: Held actions the delayed tiers play, in all, per :class:`ShowDelayed` (see
#: :meth:`Room._release`); more that are due wait for the next.
RELEASE_AT_ONCE = 4

#: Why a join as a player is refused (the same words whether or not the game is over).
_NOT_INVITED = "that is not this room's invite code"
_PRIVATE = "this room is private: join with its invite code"
_NO_SEAT = "no free seat in this room"
#: Why a join as a player presenting the room's audience code is refused (the code an
#: audience's watch links carry: it opens what the invite code opens to spectators, never a
#: seat).
AUDIENCE_ONLY = "this link lets you watch, not play: ask the host for a seat link"


def no_room(room_id: str) -> str:
    """The answer to a join naming no room, and to a stranger's join of a private room
    without its invite code: the same words and code, so that nobody learns a private room's
    id exists by trying codes (:meth:`Room.hidden_from`). It names the id the client sent,
    as they typed it."""
    return f"no room {room_id!r} (a private room takes its invite code)"


@dataclass(frozen=True, slots=True)
class RoomConfig:
    """Per-room limits and timings (documented in docs/limits.md, "Limits")."""

    #: Each player's time bank, seconds, when the creator doesn't say.
    clock_seconds: float = 1800.0
    #: Spectators one room admits.
    max_spectators: int = 200
    #: Deltas each view class keeps for resuming clients.
    history: int = 512
    #: Seconds a finished game's room stays (for the last looks, then resume fails).
    linger_seconds: float = 120.0
    #: Seconds an unstarted room with no members lives.
    idle_seconds: float = 600.0
    #: Seconds the players of a match have to sideboard between games (rule 100.4); who
    #: hasn't answered by then keeps their deck.
    sideboard_seconds: float = 180.0
    #: Seconds a player may stay disconnected from a running game that waits on their
    #: decision before they concede (104.3a; 0: never -- only their clock runs).
    away_seconds: float = 300.0
    #: Actions one game may take: the game that reaches it ends as a draw
    #: (:class:`~server.engine.actions.ActionLimitDraw`; 0: no limit). Two random bots'
    #: game is 1,162 actions on average, at most 3,359 in 300 (docs/limits.md, "Limits").
    max_game_actions: int = 20_000
    #: A computer player's (CreateRoom.computers) time over each decision, on average:
    #: drawn uniformly from 0.5 to 1.5 times this (server.rooms.computer).
    computer_seconds: float = 0.8


#: The share of ``max_game_actions`` at which a game's players are warned, once.
ACTION_WARNING_SHARE = 0.9


def action_warning_at(limit: int) -> int:
    """The action count at which a game's players are warned of the limit ``limit``."""
    return max(1, int(limit * ACTION_WARNING_SHARE))


@dataclass(eq=False, slots=True)
class Member:
    """A place in this room: a seat or a spectator's place, held by one session. ``seat``
    never changes; ``conn`` is the connection holding the place now (None: disconnected)."""

    session_id: str
    name: str
    seat: int
    #: A player's deck (None for spectators).
    deck: Deck | None = None
    conn: ConnId | None = None
    #: The player left the running game with LeaveRoom (and conceded).
    left: bool = False
    #: Whose place it is (the server's account record).
    account_id: str = ""
    #: A spectator's tier: 0 the live public view, n the room's n-th delayed tier.
    tier: int = 0
    #: A player's deck and sideboard as registered when it joined: what sideboarding
    #: between the games of a match may rearrange (rule 100.4). ``deck`` is the current one.
    registered: Deck | None = None
    #: When the seat's player last dropped from the running game (or the room was rebuilt
    #: after a restart); read only while ``conn`` is None.
    away_since: float = 0.0
    #: The player knows the room's invite code: it created the room or joined with the
    #: code. Only such a player is told a rematch room's code (a player who joined a public
    #: room, or took a reserved seat, without it mustn't get one: the code opens the
    #: invite-only spectator tiers, every hand among them). Kept across a restart: stored
    #: with each game (``RoomSettings.code_holders``).
    knows_code: bool = False


#: A room of people only never draws from it (its computers' generator, :attr:`Room._rng`).
_NO_COMPUTERS = random.Random(0)

@dataclass(slots=True)
class ViewClass:
    """One view class: its stream of numbered views and its recent deltas."""

    stream: ViewStream
    #: (prev_state_id, state_id, serialized Delta message) of the last deltas.
    history: deque[tuple[int, int, bytes]]
    #: (state_id, serialized event) of the events of its deltas that told how the game
    #: began (:func:`~server.view.stream.opening_events`): a snapshot's recent events
    #: begin with them, however long ago that was.
    opening: list[tuple[int, bytes]] = field(default_factory=list)


class Room:
    """One game: seats, spectators, the engine state, clocks and each view class's stream."""

    def __init__(self, room_id: str, name: str, seats: int, now: float,
                 config: RoomConfig | None = None, *, clock_seconds: float = 0.0,
                 settings: RoomSettings | None = None) -> None:
        self.room_id = room_id
        self.name = name
        self.config = config or RoomConfig()
        self.settings = settings or RoomSettings()
        self.format = DeckFormat(self.settings.format)
        self.clock_seconds = float(clock_seconds or self.config.clock_seconds)
        #: Chess clocks: each seat's time bank for the game, the deciding player's running.
        self.timers = ChessClocks.fresh(seats, self.clock_seconds)
        self.seats: list[Member | None] = [None] * seats
        self.spectators: dict[str, Member] = {}
        self._by_conn: dict[ConnId, Member] = {}
        self.game: Game | None = None
        #: Every view class's stream (the pipeline's) and its recent deltas.
        self.views: ViewPipeline | None = None
        self.classes: dict[int, ViewClass] = {}
        #: When the room became empty while unstarted / when its game ended.
        self._idle_since: float | None = now
        self._finished_at: float | None = None
        self.closed = False
        #: Sessions whose seat was freed when they dropped before the start: they resume
        #: outside the room, never as spectators.
        self._freed: set[str] = set()
        #: The delayed spectator tiers' classes (tier n is ``delayed[n - 1]``), once started.
        self.delayed: list[DelayedClass] = []
        #: The tier of each spectator whose connection dropped (to resume it in that one).
        self._dropped_tiers: dict[str, int] = {}
        # ---- the match (server.rooms.match): a single game is a match of one
        self.best_of = self.settings.best_of if self.settings.best_of > 1 else 1
        if self.best_of > 1 and seats != 2:
            raise ValueError("a match of several games is for two players (rule 100.6a)")
        #: The game being played, or just played (1-based; 0: not started).
        self.game_number = 0
        self.wins = [0] * seats
        self.draws = 0
        #: Each game's id, the seat that chose its starting player (103.1), and each
        #: finished game's (winner seat or -1, reason).
        self.game_ids: list[str] = []
        self.choosers: list[int] = []
        self.results: list[tuple[int, str]] = []
        #: Between games: who has answered the sideboarding, and until when they may.
        self.ready = [False] * seats
        self._sideboard_until: float | None = None
        #: Once the match is over: the seat that won it (-1: a draw), and why.
        self.match_winner: int | None = None
        self.match_reason = ""
        #: The current game's first state id (state ids keep growing across games).
        self._state_base = 1
        #: The last Presence message built, and which seats were connected for it.
        self._presence_cache: tuple[tuple[bool, ...], bytes] | None = None
        #: This game's players were warned that it nears ``max_game_actions``.
        self._limit_warned = False
        # ---- the rematch (protocol/README.md, "Rematch"), once the game (match) is over
        #: Which seats' players offer a rematch.
        self.rematch_offers = [False] * seats
        #: Why no rematch can be had any more ("" while one can): a player left.
        self._rematch_off = ""
        #: Every player offered: the players were released to be seated in the rematch's
        #: room (the app makes it).
        self._rematch_agreed = False
        #: The rematch's room, once made, and its audience code (for the live spectators of
        #: a room they watch with a code; the players are told its invite code by the app).
        self.rematch_room = ""
        self._rematch_audience = ""
        # ---- computer players (server.rooms.computer), in the last seats
        #: Draws their thinking times and choices: its own, never the game's (invariant 3).
        #: Made only for a room with computers (a generator's state is ~2.5 KB: a thousand
        #: rooms of people carried 2.5 MB of them for nothing).
        self._rng = random.Random(secrets.randbits(64)) if self.settings.computers \
            else _NO_COMPUTERS
        #: (prompt id, when) the computer whose decision is pending answers it.
        self._computer_due: tuple[int, float] | None = None
        computers = self.settings.computers
        for index, seat in enumerate(computers):
            deck = resolve(demo_deck_for_seat(len(computers) + 1 + index), self.format)
            self.seats[seat] = Member(computer_id(seat), computer_name(index, len(computers)),
                                      seat, deck, account_id=computer_id(seat),
                                      registered=deck)

    def is_computer(self, seat: int) -> bool:
        """Whether a computer player the server runs holds ``seat``."""
        return seat in self.settings.computers

    # ---- read-only queries (safe from any task)
    def info(self, tier: int = 0) -> mpb.RoomInfo:
        """The summary of this room for a member of spectator ``tier`` (0: live): a delayed
        tier's shows the match -- which game, its score, whether it is over -- as far as
        that tier has shown it, never a result it hasn't (protocol/README.md, "Spectator
        tiers")."""
        game_number, wins, draws, finished = self._shown_match(tier)
        return mpb.RoomInfo(
            room_id=self.room_id, name=self.name, seats=len(self.seats),
            players=[m.name for m in self.seats if m is not None],
            spectators=len(self.spectators), started=self.game is not None,
            finished=finished, clock_seconds=round(self.clock_seconds),
            private=self.settings.private, spectate=SPECTATE_WIRE[self.settings.spectate],
            format=FORMAT_WIRE[self.format],
            reserved=[name for _account, name in self.settings.reserved],
            tiers=[tier_wire(t) for t in self.settings.tiers], best_of=self.best_of,
            game_number=game_number, wins=wins if self.best_of > 1 else [],
            draws=draws if self.best_of > 1 else 0, computers=self.settings.computers,
        )

    @property
    def delayed_only(self) -> bool:
        """Whether its game may be watched only through delayed tiers (no live public view):
        the lobby's list then shows it as the most delayed tier has (:meth:`listed_info`)."""
        return self.settings.spectate is not Spectate.ALLOWED and bool(self.delayed)

    def listed_info(self) -> mpb.RoomInfo:
        """This room in the lobby's list, which anyone may read: if its game may be watched
        only through delayed tiers (no live spectators), as the most delayed tier has
        shown it -- the list must not tell their spectators a result early."""
        if not self.delayed_only:
            return self.info()
        slowest = max(range(len(self.delayed)), key=lambda n: (
            self.delayed[n].tier.delay_seconds, self.delayed[n].tier.delay_turns))
        return self.info(slowest + 1)

    def _shown_match(self, tier: int) -> tuple[int, list[int], int, bool]:
        """(game number, wins, draws, whether it is over) of the match -- a single game is a
        match of one -- live (``tier`` 0) or as delayed tier ``tier`` has shown it."""
        if not tier or not self.delayed:
            # Between two games of a match, the next one (as MatchState says, and
            # RoomInfo.game_number promises: "the game being played or next").
            return self.game_number + self.sideboarding, list(self.wins), self.draws, \
                self.finished
        delayed = self.delayed[tier - 1]
        if delayed.match is not None:  # the last match announcement it passed on
            state = mpb.ServerMessage.FromString(delayed.match).match_state
            over = state.phase == mpb.MATCH_PHASE_OVER
            number = state.game_number if state.phase == mpb.MATCH_PHASE_SIDEBOARDING \
                else delayed.shown_game
            return number, list(state.wins), state.draws, over
        single_over = self.best_of == 1 and delayed.game.result is not None
        return delayed.shown_game, [0] * len(self.seats), 0, single_over

    @property
    def finished(self) -> bool:
        """Whether the room's game -- of a match, the match -- has ended."""
        return self.match_winner is not None

    @property
    def finished_at(self) -> float | None:
        """When the room's game (of a match, the match) ended (None: it hasn't)."""
        return self._finished_at if self.finished else None

    def tier_showing(self, tier: int, game_number: int) -> bool:
        """Whether delayed spectator tier ``tier`` (its index in the room's settings) still
        has something of game ``game_number`` of the match to show (a busy server lets its
        tiers fall behind their delay: its audience's replay waits for it)."""
        return 0 <= tier < len(self.delayed) and self.delayed[tier].holds_game(game_number)

    @property
    def still_shown(self) -> bool:
        """Whether a delayed spectator tier still has actions of it to show."""
        return any(delayed.held for delayed in self.delayed)

    @property
    def game_id(self) -> str:
        """The stored id of the current (or last) game."""
        return game_id(self.room_id, self.game_number)

    @property
    def sideboarding(self) -> bool:
        """Whether the room is between the games of its match."""
        return self._sideboard_until is not None

    def match_state(self, now: float, *, live: bool = True) -> bytes:
        """The ``MatchState`` message (serialized ServerMessage) at ``now``; not ``live``:
        for a delayed tier, without the sideboarding time left."""
        if self.match_winner is not None:
            phase = mpb.MATCH_PHASE_OVER
        elif self._sideboard_until is not None:
            phase = mpb.MATCH_PHASE_SIDEBOARDING
        else:
            phase = mpb.MATCH_PHASE_PLAYING
        left = 0 if self._sideboard_until is None or not live else \
            max(0, round((self._sideboard_until - now) * 1000))
        return self._match_message(self.game_number, len(self.results), phase, left,
                                   self.ready)

    def past_match_state(self, game_number: int, *, ended: bool) -> bytes:
        """The ``MatchState`` a delayed tier is shown for an earlier moment of the match:
        when game ``game_number`` started, or (``ended``) when it had just ended and the
        match went on -- the sideboarding for the next game, nobody ready yet. (A tier
        rebuilt after a restart starts at such a moment, and replays the ones after it.)"""
        phase = mpb.MATCH_PHASE_SIDEBOARDING if ended else mpb.MATCH_PHASE_PLAYING
        return self._match_message(game_number, game_number - (not ended), phase, 0,
                                   [False] * len(self.seats))

    def _match_message(self, game_number: int, done: int, phase: mpb.MatchPhase,
                       left_ms: int, ready: list[bool]) -> bytes:
        """``MatchState`` during game ``game_number`` (or the sideboarding after it) with the
        first ``done`` results of the match counted."""
        results = self.results[:done]
        wins = [sum(1 for w, _r in results if w == seat) for seat in range(len(self.seats))]
        over = phase == mpb.MATCH_PHASE_OVER
        sideboarding = phase == mpb.MATCH_PHASE_SIDEBOARDING
        return mpb.ServerMessage(match_state=mpb.MatchState(
            room_id=self.room_id, best_of=self.best_of,
            game_number=game_number + sideboarding, wins=wins,
            draws=sum(1 for w, _r in results if w < 0), phase=phase,
            sideboard_remaining_ms=left_ms, ready=ready if sideboarding else [],
            winner=self.match_winner if over and self.match_winner is not None else -1,
            reason=self.match_reason if over else "",
            game_id=game_id(self.room_id, game_number),
            games=[mpb.MatchGame(game_id=self.game_ids[n], winner=winner, reason=reason,
                                 chooser=self.choosers[n])
                   for n, (winner, reason) in enumerate(results)],
        )).SerializeToString()

    def match_record(self) -> MatchRecord:
        """The match as the store keeps it."""
        seated = [m for m in self.seats if m is not None]
        return MatchRecord(
            self.room_id, self.best_of,
            tuple(m.registered.text if m.registered else "" for m in seated),
            tuple(m.deck.text if m.deck else "" for m in seated), tuple(self.game_ids),
            tuple(self.wins), self.draws, tuple(self.choosers), tuple(self.results),
            tuple(self.ready), self.match_winner, self.match_reason)

    def member_of(self, conn: ConnId) -> Member | None:
        """The place ``conn`` holds here, if any."""
        return self._by_conn.get(conn)

    def connections(self) -> list[ConnId]:
        """Every connection holding a place here now."""
        return list(self._by_conn)

    def members(self) -> Iterator[Member]:
        """Every seated player and spectator."""
        yield from (m for m in self.seats if m is not None)
        yield from self.spectators.values()

    def _people(self) -> Iterator[Member]:
        """Every member but the computer players: who a room waits for."""
        return (m for m in self.members() if m.seat == SPECTATOR or not self.is_computer(m.seat))

    # ---- the one entry point
    def handle(self, command: Command, now: float) -> Output:
        """Process one command at time ``now`` (seconds, monotonic) and say what to do."""
        out = Output()
        if self.closed:
            out.closed = True
            return out
        if isinstance(command, Act):
            self._act(out, command, now)
        elif isinstance(command, Join):
            self._join(out, command, now)
            if command.creating and not out.accepted and self.game is None and \
                    not any(self._people()):
                # CreateRoom.join whose creator couldn't be seated (its connection taken
                # over meanwhile): the room would wait --idle-room-seconds, empty, counted
                # against the creator's rooms.
                self._close(out, "its creator could not take a seat in it")
        elif isinstance(command, Leave):
            self._leave(out, command, now)
        elif isinstance(command, Snapshot):
            member = self._by_conn.get(command.conn)
            if member is None:
                out.sends.append((command.conn, error_bytes(
                    mpb.ERROR_CODE_NOT_READY, "not in this room", command.rid)))
            else:
                self._snapshot_to(out, member, command.rid, now)
        elif isinstance(command, ConcedeGame):
            self._concede(out, command, now)
        elif isinstance(command, ExplainCard):
            self._explain(out, command)
        elif isinstance(command, SubmitDeck):
            self._submit_deck(out, command, now)
        elif isinstance(command, OfferRematch):
            self._offer_rematch(out, command)
        elif isinstance(command, RematchMade):
            self._rematch_made(out, command, now)
        elif isinstance(command, Disconnect):
            self._disconnect(out, command.conn, now)
        elif isinstance(command, Reattach):
            self._reattach(out, command, now)
        elif isinstance(command, Tick):
            self._tick(out, now)
        elif isinstance(command, ShowDelayed):
            self._release(out, now)
        elif isinstance(command, Evict):
            # A full server's lobby closes, for a new room, a finished room (it never starts
            # again) or one whose game hasn't started with nobody in it (a join handed to
            # this task before the Evict came first, and keeps the room open).
            if self.finished:
                self._close(out, "the server needed room for new games: the game is over")
            elif self.game is None and next(self._people(), None) is None:
                self._close(out, "the server needed room for new games: nobody was in it")
        elif isinstance(command, Shutdown):
            self.closed = True
            out.closed = True
            out.released = list(self._by_conn)
            return out
        else:
            assert_never(command)
        self._plan_computer(now)
        out.wake_at = self._wake_at()
        out.delayed_at = self._delayed_at()
        return out

    # ---- membership
    def _send(self, out: Output, member: Member, data: bytes) -> None:
        if member.conn is not None:
            out.sends.append((member.conn, data))

    @staticmethod
    def _send_to(out: Output, conn: ConnId, data: bytes) -> None:
        out.sends.append((conn, data))

    def _everyone(self, out: Output, data: bytes) -> None:
        """Send ``data`` (live news: clocks, presence) to every player and publish it to the
        live public spectators; the delayed tiers' spectators are told nothing live."""
        for m in self.seats:
            if m is not None:
                self._send(out, m, data)
        out.feed.append(Publish(0, data))

    def _seats_changed(self, out: Output, joiner: Member | None = None) -> None:
        """A seat of this unstarted room was taken (by ``joiner``, whose Joined says as much)
        or freed: tell its other players and live spectators who is seated now (RoomUpdate;
        a delayed tier's are told nothing live). Before the start no spectator follows a
        feed yet (:meth:`_start` starts them), so each is sent it directly."""
        assert self.game is None
        data = mpb.ServerMessage(room_update=mpb.RoomUpdate(room=self.info())
                                 ).SerializeToString()
        for m in self.members():
            if not m.tier and m is not joiner:
                self._send(out, m, data)

    def _to_member(self, out: Output, member: Member, messages: list[bytes]) -> None:
        """Send one member the messages of its view class it alone needs now (a snapshot,
        missed deltas): a player directly; a spectator as the start of its watch of its
        tier's feed, which it follows from then on (:mod:`server.rooms.fanout`)."""
        if member.conn is None:
            return
        if member.seat == SPECTATOR:
            out.feed.append(StartWatching(member.conn, member.tier, tuple(messages)))
        else:
            out.sends.extend((member.conn, data) for data in messages)

    def _join(self, out: Output, cmd: Join, now: float) -> None:
        def refuse(code: int, message: str) -> None:
            out.sends.append((cmd.conn, error_bytes(code, message, cmd.rid)))

        if cmd.conn in self._by_conn:
            refuse(mpb.ERROR_CODE_INVALID_ARGUMENT, "already in this room")
            return
        if self.hidden_from(cmd.session_id, cmd.account_id, cmd.invite_code, cmd.spectator,
                            cmd.tier):
            refuse(mpb.ERROR_CODE_ROOM_NOT_FOUND, no_room(self.room_id))
            return
        self._freed.discard(cmd.session_id)
        if self.finished and not cmd.spectator:
            # (Spectators may still come while it lingers: the last board, live, or a
            # delayed tier that plays on -- one whose place a restart lost watches again.)
            # Told only to whoever may join it as a player, and while no delayed tier is
            # still showing the game, a full room's answer: the lobby's list doesn't say the
            # game is over before its tiers do either (listed_info).
            stranger = self._seat_of_session(cmd.session_id) is None and \
                self._seat_of_account(cmd.account_id) is None
            shut_out = self._shut_out(cmd) if stranger else ""
            if shut_out:
                refuse(mpb.ERROR_CODE_FORBIDDEN, shut_out)
            elif stranger and self.still_shown:
                refuse(mpb.ERROR_CODE_ROOM_FULL, _NO_SEAT)
            else:
                refuse(mpb.ERROR_CODE_GAME_OVER, "the game in this room is over")
            return
        seated = self._seat_of_session(cmd.session_id) or self._seat_of_account(cmd.account_id)
        if seated is not None and not seated.left and seated.conn is None and \
                not cmd.spectator and self.game is not None:
            # The account's own seat, disconnected (a connection that took the session
            # over just as this room accepted its older one): it is this player's again.
            seated.conn, seated.session_id = cmd.conn, cmd.session_id
            self._by_conn[cmd.conn] = seated
            out.accepted = True
            self._send(out, seated, mpb.ServerMessage(
                request_id=cmd.rid, joined=self._joined(seated)).SerializeToString())
            self._snapshot_to(out, seated, 0, now)
            self._everyone(out, self._presence())
            return
        if seated is not None:
            refuse(mpb.ERROR_CODE_INVALID_ARGUMENT,
                   "you left this game (and conceded): you can't come back or watch it"
                   if seated.left else
                   "your account holds a seat here: resume it, don't join again")
            return
        if cmd.spectator:
            if not 0 <= cmd.tier <= len(self.settings.tiers):
                refuse(mpb.ERROR_CODE_INVALID_ARGUMENT,
                       f"this room offers spectator tiers 0 to {len(self.settings.tiers)}")
                return
            problem = self._may_watch(cmd)
            if problem:
                refuse(mpb.ERROR_CODE_FORBIDDEN, problem)
                return
            if len(self.spectators) >= self.config.max_spectators:
                refuse(mpb.ERROR_CODE_LIMIT_REACHED,
                       f"this room admits at most {self.config.max_spectators} spectators")
                out.spectators_full = True
                return
            member = Member(cmd.session_id, cmd.name, SPECTATOR, conn=cmd.conn,
                            account_id=cmd.account_id, tier=cmd.tier)
            self.spectators[cmd.session_id] = member
        else:
            reserved = self._reserved_seat(cmd.account_id)
            shut_out = self._shut_out(cmd)
            if shut_out:
                refuse(mpb.ERROR_CODE_FORBIDDEN, shut_out)
                return
            if reserved is not None:
                free = [reserved] if self.seats[reserved] is None else []
            else:
                held = len(self.settings.reserved)
                free = [i for i, m in enumerate(self.seats) if m is None and i >= held]
            if self.game is not None or not free:
                some_free = any(m is None for m in self.seats)
                refuse(mpb.ERROR_CODE_ROOM_FULL,
                       "the free seats of this room are reserved for "
                       + ", ".join(n for _a, n in self.settings.reserved)
                       if some_free and self.game is None else _NO_SEAT)
                return
            deck = cmd.deck or resolve(self._demo_for_next(), self.format)
            member = Member(cmd.session_id, cmd.name, free[0], deck, cmd.conn,
                            account_id=cmd.account_id, registered=deck,
                            knows_code=self._knows_code(cmd))
            self.seats[member.seat] = member
        self._by_conn[cmd.conn] = member
        self._idle_since = None
        out.accepted = True
        self._send(out, member, mpb.ServerMessage(
            request_id=cmd.rid, joined=self._joined(member)).SerializeToString())
        if self.game is None and all(self.seats):
            self._start(out, now)
        elif self.game is not None:
            self._snapshot_to(out, member, 0, now)
        elif not cmd.spectator:
            self._seats_changed(out, member)

    def seated(self, session_id: str) -> bool:
        """Whether ``session_id`` holds a seat here (read by a resuming connection: a
        spectator's return waits for its turn, a player's never)."""
        return self._seat_of_session(session_id) is not None

    def _seat_of_session(self, session_id: str) -> Member | None:
        for m in self.seats:
            if m is not None and m.session_id == session_id:
                return m
        return None

    def _seat_of_account(self, account_id: str) -> Member | None:
        if not account_id:
            return None
        for m in self.seats:
            if m is not None and m.account_id == account_id:
                return m
        return None

    def _reserved_seat(self, account_id: str) -> int | None:
        for seat, (reserved, _name) in enumerate(self.settings.reserved):
            if account_id and account_id == reserved:
                return seat
        return None

    def hidden_from(self, session_id: str, account_id: str, invite_code: str,
                    spectator: bool = False, tier: int = 0) -> bool:
        """Whether this room must look like no room at all to this join (answered
        ``ROOM_NOT_FOUND`` and :func:`no_room`, as a join naming no room): a private room,
        joined by someone it doesn't know -- no seat of theirs, reserved or taken, no
        tier naming their account -- without its invite code, and not as a live spectator
        of a room anyone may watch live. A read-only query: the app asks it before it reads
        the deck, so the refusal comes as fast as a missing room's (the room asks again)."""
        if not self.settings.private or self._seat_of_session(session_id) is not None or \
                self._seat_of_account(account_id) is not None or \
                self._reserved_seat(account_id) is not None or self._code_matches(invite_code) \
                or self._audience_matches(invite_code):
            return False
        if spectator:
            if not tier:
                return self.settings.spectate is not Spectate.ALLOWED
            if 0 < tier <= len(self.settings.tiers):
                named = self.settings.tiers[tier - 1].accounts
                return not (account_id and any(account_id == a for a, _n in named))
        return True

    def _shut_out(self, cmd: Join) -> str:
        """Why ``cmd`` may not take a seat in this room ("" if it may): it presented the
        room's audience code (which never opens a seat, in any room), or the room is private,
        no seat is reserved for its account and it didn't present the invite code."""
        if self._audience_matches(cmd.invite_code):
            return AUDIENCE_ONLY
        if not self.settings.private or self._reserved_seat(cmd.account_id) is not None \
                or self._invited(cmd):
            return ""
        return _NOT_INVITED if cmd.invite_code else _PRIVATE

    def _knows_code(self, cmd: Join) -> bool:
        """Whether a player taking a seat knows the room's invite code: it created the room
        or presented the code itself (a rematch's seating says whether it knew the old
        room's: the code it presents is the server's)."""
        if cmd.rematch_knows_code is not None:
            return cmd.rematch_knows_code
        return self._invited(cmd) or bool(
            cmd.account_id and cmd.account_id == self.settings.creator)

    def _invited(self, cmd: Join) -> bool:
        """Whether the client presented this room's invite code (constant time)."""
        return self._code_matches(cmd.invite_code)

    def _code_matches(self, invite_code: str) -> bool:
        """Whether ``invite_code`` is this room's invite code (constant time)."""
        presented = secret_hash(invite_code)
        return bool(invite_code) and bool(self.settings.invite_hash) and \
            hmac.compare_digest(presented, self.settings.invite_hash)

    def _audience_matches(self, code: str) -> bool:
        """Whether ``code`` is this room's audience code (constant time; a room stored
        before rooms had one has none)."""
        presented = secret_hash(code)
        return bool(code) and bool(self.settings.audience_hash) and \
            hmac.compare_digest(presented, self.settings.audience_hash)

    def _may_see(self, cmd: Join) -> bool:
        """Whether a spectator presented a code that lets it watch: the room's invite code
        or its audience code."""
        return self._invited(cmd) or self._audience_matches(cmd.invite_code)

    def _may_watch(self, cmd: Join) -> str:
        """Why ``cmd`` may not watch this room ("" if it may) in its tier. A player of the
        game -- a seat's account or a reserved seat's -- never watches it, in any tier.
        A delayed tier admits the accounts it names and, if it says so, the invite code (or
        the audience code)."""
        if self._reserved_seat(cmd.account_id) is not None:
            return "a seat of this game is reserved for you: you can't watch it"
        if cmd.tier:
            tier = self.settings.tiers[cmd.tier - 1]
            if cmd.account_id and any(cmd.account_id == a for a, _n in tier.accounts):
                return ""
            if tier.invite and self._may_see(cmd):
                return ""
            return (f"spectator tier {cmd.tier} is only for the accounts it names"
                    + (" or with the room's invite code" if tier.invite else ""))
        spectate = self.settings.spectate
        if spectate is Spectate.ALLOWED:
            return ""
        if spectate is Spectate.NONE:
            tiers = len(self.settings.tiers)
            return ("this room allows no live spectators: watch one of its delayed "
                    f"spectator tiers (1{f' to {tiers}' if tiers > 1 else ''})" if tiers
                    else "this room allows no spectators")
        if spectate is Spectate.INVITE:
            return "" if self._may_see(cmd) else (
                "that is not this room's invite code" if cmd.invite_code
                else "watching this room needs its invite code")
        assert_never(spectate)

    def _joined(self, member: Member) -> mpb.Joined:
        """What a member is told as it takes (or takes back) its place: the room, its role,
        seat and tier, and a player's deck (its name; whether it is a demo deck; its text)."""
        if member.seat == SPECTATOR:
            return mpb.Joined(room=self.info(member.tier), role=mpb.ROLE_SPECTATOR,
                              seat=member.seat, tier=member.tier)
        deck = member.deck
        return mpb.Joined(room=self.info(), role=mpb.ROLE_PLAYER, seat=member.seat,
                          deck_name=deck.name if deck is not None else "",
                          demo_deck=deck is not None and is_demo(deck, self.format),
                          deck=deck.text if deck is not None else "",
                          deck_notes=deck.notes if deck is not None else ())

    def _demo_for_next(self) -> str:
        return demo_deck_for_seat(sum(1 for s in self.seats if s))

    def _leave(self, out: Output, cmd: Leave, now: float) -> None:
        member = self._by_conn.pop(cmd.conn, None)
        if member is None:
            out.sends.append((cmd.conn, error_bytes(
                mpb.ERROR_CODE_NOT_READY, "not in this room", cmd.rid)))
            return
        member.conn = None
        out.released.append(cmd.conn)
        if member.seat == SPECTATOR:
            del self.spectators[member.session_id]
            out.feed.append(StopWatching(cmd.conn, False))
        elif self.game is None:
            self.seats[member.seat] = None
            self._seats_changed(out)
        else:
            member.left = True
            # Kept for a restart -- a leave after the game (match) ended too: the player
            # has left, not merely gone away, and no rematch can be had.
            out.log.append(SeatLeft(self.game_id, member.seat, after_end=self.finished))
            if self.game.result is None:
                # Conceding the game; in a match, leaving concedes the match too (decided
                # as the game ends).
                self._apply(out, member.seat, Concede(ConcedeReason.LEFT), now)
            elif self.sideboarding:  # between games: leaving concedes the match
                self._end_match(out, now)
            elif self.finished and not self._rematch_agreed and not self._rematch_off:
                self._rematch_off = f"{member.name} left the room"  # no rematch without them
                self.rematch_offers = [False] * len(self.seats)
                self._rematch_news(out)
        if self.game is None and not any(self._people()):
            if member.account_id and member.account_id == self.settings.creator:
                # Its creator left it, last (a dropped member keeps a place: it may
                # resume): nobody to wait for. It stayed --idle-room-seconds, counting
                # against the creator's rooms ("play or leave them first"). (Anyone else
                # leaving an empty room leaves it waiting: no stranger closes a room.)
                self._close(out, "its creator left before the game started")
            else:
                self._idle_since = now

    def _disconnect(self, out: Output, conn: ConnId, now: float) -> None:
        member = self._by_conn.pop(conn, None)
        if member is None:
            return
        member.conn = None
        if member.seat == SPECTATOR:
            del self.spectators[member.session_id]
            # Its watch ends too (the app drops a closed connection's own watch, but one
            # its join started after the connection closed would go on).
            out.feed.append(StopWatching(conn, False))
            # Its tier, to give back when it resumes (bounded: the oldest are forgotten).
            if len(self._dropped_tiers) >= 4 * self.config.max_spectators:
                del self._dropped_tiers[next(iter(self._dropped_tiers))]
            self._dropped_tiers[member.session_id] = member.tier
        elif self.game is None:  # an unstarted room: the seat is free for someone else
            self.seats[member.seat] = None
            self._freed.add(member.session_id)
            self._seats_changed(out)
            if not any(self._people()):
                self._idle_since = now
        else:
            member.away_since = now
            self._everyone(out, self._presence())
            if self.rematch_offers[member.seat] and not self._rematch_agreed:
                # A player who drops withdraws its offer (it offers again once back): the
                # rematch seats connected players only.
                self.rematch_offers[member.seat] = False
                self._rematch_news(out)

    def _reattach(self, out: Output, cmd: Reattach, now: float) -> None:
        member = self._seat_of_session(cmd.session_id) or self.spectators.get(cmd.session_id)
        full = len(self.spectators) >= self.config.max_spectators
        if member is not None and member.left:
            member = None  # it conceded and left: it resumes outside the room
        if member is not None and member.seat != SPECTATOR and self._rematch_agreed:
            # Every player offered, and this room let them go to the rematch's: a player
            # whose connection closed meanwhile resumes outside it, and the app seats it in
            # the rematch's room (Output.rematch_seat) -- not here, in a game that is over.
            self._resumed_outside(out, cmd)
            out.rematch_seat = True
            return
        # A dropped spectator gets its tier back. A place this room doesn't know (lost in a
        # restart, or forgotten) comes back as the live tier's only in a room anyone may
        # watch live and that has no delayed tier; else it resumes outside the room (its
        # client joins again, with its tier and code): which tier it had, and with which
        # code, is unknown -- a delayed tier's spectator must not come back live, nor a
        # stranger into an invite-only room.
        kept = self._dropped_tiers.get(cmd.session_id)
        tier = member.tier if member is not None else (kept or 0)
        if member is None and (self.game is None or full or cmd.session_id in self._freed
                               or (kept is None and (
                                   self.settings.spectate is not Spectate.ALLOWED
                                   or bool(self.settings.tiers)))
                               or self._seat_of_session(cmd.session_id) is not None
                               or self._seat_of_account(cmd.account_id) is not None
                               or self._reserved_seat(cmd.account_id) is not None
                               or (not tier and self.settings.spectate is Spectate.NONE)):
            # The seat of an unstarted room was freed when the connection dropped, or a
            # spectator's place can't be given back: the session resumes outside the room.
            self._resumed_outside(out, cmd)
            if full and self.game is not None:
                out.spectators_full = True
                self._send_to(out, cmd.conn, error_bytes(
                    mpb.ERROR_CODE_LIMIT_REACHED,
                    f"this room admits at most {self.config.max_spectators} spectators; "
                    f"your place in it was lost"))
            return
        if member is None:  # a spectator's place (dropped, or lost in a restart): watch again
            member = Member(cmd.session_id, cmd.name, SPECTATOR, account_id=cmd.account_id,
                            tier=tier)
            self.spectators[cmd.session_id] = member
            self._dropped_tiers.pop(cmd.session_id, None)
        if member.conn is not None:
            self._by_conn.pop(member.conn, None)
            out.released.append(member.conn)
            out.feed.append(StopWatching(member.conn, False))
        member.conn = cmd.conn
        self._by_conn[cmd.conn] = member
        self._idle_since = None
        out.accepted = True
        joined = self._joined(member)
        welcome = mpb.Welcome.FromString(cmd.welcome)
        cls = self._view_class(member)
        missed = self._missed(cls, cmd.last_state_id) if cls is not None else []
        snapshot = cls is not None and missed is None
        self._send(out, member, mpb.ServerMessage(request_id=cmd.rid, resumed=mpb.Resumed(
            welcome=welcome, joined=joined, deltas=len(missed or ()),
            snapshot=snapshot)).SerializeToString())
        if cls is None:
            return
        if missed is None:
            self._snapshot_to(out, member, 0, now)
        else:
            missed += [*self._match_messages(cls, now),
                       *self._rematch_messages(cls, member.seat)]
            if not member.tier:
                missed += [self.clocks(now), *self._limit_notices(),
                           *self._decision(member.seat)]
            self._to_member(out, member, missed)
        self._everyone(out, self._presence())
        if member.seat != SPECTATOR and self.finished:
            # (who offers now: none after a restart, whatever the client last knew)
            self._send(out, member, self._rematch_offers_message(0))

    def _resumed_outside(self, out: Output, cmd: Reattach) -> None:
        """Answer a resume with ``Resumed`` naming no room: the session is in none now."""
        self._send_to(out, cmd.conn, mpb.ServerMessage(request_id=cmd.rid, resumed=mpb.Resumed(
            welcome=mpb.Welcome.FromString(cmd.welcome))).SerializeToString())

    def _view_class(self, member: Member) -> ViewClass | DelayedClass | None:
        """The view class ``member`` receives (None: the game has not started)."""
        if member.tier:
            return self.delayed[member.tier - 1] if self.delayed else None
        return self.classes.get(member.seat)

    @staticmethod
    def _missed(view_class: ViewClass | DelayedClass, last: int) -> list[bytes] | None:
        """The deltas after state ``last`` (empty: up to date), or None if not all are kept."""
        if last == view_class.stream.state_id:
            return []
        if last <= 0 or last > view_class.stream.state_id:
            return None
        found: list[bytes] = []
        for prev, _state, data in view_class.history:
            if found or prev == last:
                found.append(data)
        return found or None

    # ---- game start and snapshots
    def _setups(self) -> list[PlayerSetup]:
        setups = []
        for m in self.seats:
            assert m is not None and m.deck is not None, "every seat has a deck"
            setups.append(PlayerSetup(m.name, m.deck.main, m.deck.sideboard))
        return setups

    def _create_game(self, seed: bytes, *, chooser: int | None = None,
                     first_state_id: int = 1, next_game_at: float | None = None) -> None:
        """The game from ``seed`` and the seats' decks, and its view classes. The first
        game (or the one a restart rebuilds) makes the delayed tiers; the next game of a
        match (``next_game_at``: when it started) is held in theirs until it is due."""
        setups = self._setups()
        game = new_game(seed, setups, chooser=chooser)
        self.game = game
        self.views = ViewPipeline(game, first_state_id=first_state_id)
        self.classes = {seat: ViewClass(stream, deque(maxlen=self.config.history))
                        for seat, stream in self.views.streams.items()}
        if next_game_at is None:
            self.delayed = [DelayedClass(tier, seed, setups, self.config.history,
                                         chooser=chooser, first_state_id=first_state_id,
                                         room_id=self.room_id)
                            for tier in self.settings.tiers]
        else:
            for delayed in self.delayed:
                delayed.hold_game(seed, setups, next_game_at, chooser=chooser,
                                  first_state_id=first_state_id)

    def _log_game(self, out: Output, seed: bytes, chooser: int | None) -> None:
        """Store the game just created (and the match, if several games)."""
        seated = [m for m in self.seats if m is not None]
        match = self.best_of > 1
        # Who knows the invite code, for a restart (a rematch's code goes to them alone).
        settings = replace(self.settings, code_holders=tuple(
            m.account_id for m in seated if m.knows_code and m.account_id))
        out.log.append(CreateGame(self.game_id, self.name, seed,
                                  tuple((m.name, m.deck.text if m.deck else "", m.session_id)
                                        for m in seated),
                                  self.clock_seconds, tuple(m.account_id for m in seated),
                                  settings, self.room_id if match else "",
                                  self.game_number, chooser, self._state_base))
        if match:
            out.log.append(PutMatch(self.match_record()))

    def _start(self, out: Output, now: float) -> None:
        """All seats are taken: start the game with a fresh secret seed (rule 103)."""
        seed = secrets.token_bytes(32)
        self.game_number = 1
        self._create_game(seed)
        assert self.game is not None and self.game.pending is not None
        self.game_ids = [self.game_id]
        self.choosers = [self.game.pending.seat]  # rule 103.1: a random player chooses
        self._log_game(out, seed, None)
        self._start_clock(now)
        if self.best_of > 1:
            for delayed in self.delayed:
                delayed.match = self.match_state(now, live=False)
        # Each spectator tier's snapshot messages are the same for all its spectators (an
        # audience that joined before the start): built once, not once per spectator.
        shared: dict[int, list[bytes]] = {}
        for m in self.members():
            cls = self._view_class(m) if m.seat == SPECTATOR else None
            if cls is None:
                self._snapshot_to(out, m, 0, now)
                continue
            messages = shared.get(m.tier)
            if messages is None:
                messages = shared[m.tier] = self._snapshot_messages(cls, SPECTATOR, m.tier,
                                                                    0, now)
            self._to_member(out, m, messages)

    def _snapshot_to(self, out: Output, member: Member, rid: int, now: float) -> None:
        cls = self._view_class(member)
        if cls is None:
            self._send(out, member, error_bytes(
                mpb.ERROR_CODE_NOT_READY, "the game has not started", rid))
            return
        self._to_member(out, member, self._snapshot_messages(cls, member.seat, member.tier,
                                                             rid, now))

    def _snapshot_messages(self, cls: ViewClass | DelayedClass, seat: int, tier: int,
                           rid: int, now: float) -> list[bytes]:
        """A view class's snapshot (with the last events its deltas carried) and what goes
        with it: the match's state, and -- live classes only; a delayed tier gets its state
        only -- the clocks, presence and decision."""
        messages = [cls.stream.snapshot(self.room_id, rid,
                                        recent_events(cls.history, cls.opening)),
                    *self._match_messages(cls, now), *self._rematch_messages(cls, seat)]
        if not tier:
            messages += [self.clocks(now), self._presence(), *self._limit_notices(),
                         *self._decision(seat)]
        return messages

    def _match_messages(self, cls: ViewClass | DelayedClass, now: float) -> list[bytes]:
        """The match's state, for a member of a match room: live, or as its delayed tier
        has shown it so far (none in a single-game room)."""
        if self.best_of <= 1:
            return []
        if isinstance(cls, DelayedClass):
            return [cls.match] if cls.match is not None else []
        return [self.match_state(now)]

    def _rematch_messages(self, cls: ViewClass | DelayedClass, seat: int) -> list[bytes]:
        """Where the rematch is, for a spectator who joins (or comes back) after it was
        told: live, or as its delayed tier passed it on (rev8: a late one never learnt)."""
        if seat != SPECTATOR:
            return []
        if isinstance(cls, DelayedClass):
            return [cls.notice] if cls.notice is not None else []
        return [self._rematch_started(live=True)] if self.rematch_room else []

    def _presence(self) -> bytes:
        """Which seats are connected (built again only when that changed: every
        spectator's join sends it)."""
        connected = tuple(m is not None and (m.conn is not None or self.is_computer(m.seat))
                          for m in self.seats)
        cached = self._presence_cache
        if cached is not None and cached[0] == connected:
            return cached[1]
        data = mpb.ServerMessage(presence=mpb.Presence(seats=[
            mpb.SeatPresence(seat=seat, connected=up) for seat, up in enumerate(connected)])
        ).SerializeToString()
        self._presence_cache = (connected, data)
        return data

    def _decision(self, seat: int) -> list[bytes]:
        """The pending decision as ``seat`` (or the spectators) may see it, if any."""
        if self.game is not None and self.views is not None:
            data = self.views.decision(self.game, seat, self.room_id)
            if data is not None:
                return [data]
        return []

    # ---- playing
    def _seated(self, out: Output, conn: ConnId, rid: int) -> Member | None:
        member = self._by_conn.get(conn)
        if member is None or member.seat == SPECTATOR:
            out.sends.append((conn, error_bytes(
                mpb.ERROR_CODE_NOT_YOUR_DECISION if member is not None
                else mpb.ERROR_CODE_NOT_READY,
                "you hold no seat in this room", rid)))
            return None
        return member

    def _act(self, out: Output, cmd: Act, now: float) -> None:
        member = self._seated(out, cmd.conn, cmd.rid)
        if member is None:
            return
        game = self.game

        def refuse(code: int, message: str) -> None:
            out.sends.append((cmd.conn, error_bytes(code, message, cmd.rid)))

        if game is None:
            refuse(mpb.ERROR_CODE_NOT_READY, "the game has not started")
            return
        if game.result is not None:
            refuse(mpb.ERROR_CODE_GAME_OVER, self._over_message())
            return
        pending = game.pending
        if game.players[member.seat].has_lost:
            refuse(mpb.ERROR_CODE_NOT_YOUR_DECISION,
                   "you have lost and left this game; it goes on without you")  # (800.4a)
            return
        if pending is not None and pending.seat != member.seat \
                and cmd.prompt_id == pending.prompt_id:
            refuse(mpb.ERROR_CODE_NOT_YOUR_DECISION,
                   f"prompt {pending.prompt_id} is another player's decision")
            return
        state_id = self.classes[member.seat].stream.state_id
        if pending is None or cmd.prompt_id != pending.prompt_id:
            now_prompt = f"now {pending.prompt_id}" if pending is not None else "none pending"
            refuse(mpb.ERROR_CODE_STALE_PROMPT,
                   f"prompt {cmd.prompt_id} is not current ({now_prompt}, state {state_id})")
            return
        if cmd.expected_state_id and cmd.expected_state_id != state_id:
            refuse(mpb.ERROR_CODE_STALE_PROMPT,
                   f"expected_state_id {cmd.expected_state_id} is not your view's state "
                   f"(now {state_id}; prompt {pending.prompt_id} is current)")
            return
        if cmd.option_index >= len(pending.options):
            refuse(mpb.ERROR_CODE_INVALID_ARGUMENT,
                   f"option_index must be below {len(pending.options)}")
            return
        self._apply(out, member.seat, pending.options[cmd.option_index], now, conn=cmd.conn,
                    rid=cmd.rid)

    def _seated_in_game(self, out: Output, conn: ConnId, rid: int) -> Member | None:
        """The seated member of ``conn`` once the game has started (None: it was told
        why not)."""
        member = self._seated(out, conn, rid)
        if member is not None and self.game is None:
            out.sends.append((conn, error_bytes(
                mpb.ERROR_CODE_NOT_READY, "the game has not started", rid)))
            return None
        return member

    def _concede(self, out: Output, cmd: ConcedeGame, now: float) -> None:
        member = self._seated_in_game(out, cmd.conn, cmd.rid)
        if member is None or self.game is None:
            return
        if self.game.result is not None:
            out.sends.append((cmd.conn, error_bytes(
                mpb.ERROR_CODE_GAME_OVER, self._over_message(), cmd.rid)))
        else:
            # Accepted: the Delta that shows it to the conceding player carries its request
            # id (protocol/README.md, "Which requests get no reply"), so a client knows its
            # concession was taken -- it was answered by nothing of its own.
            self._apply(out, member.seat, Concede(), now, conn=cmd.conn, rid=cmd.rid,
                        answer=True)

    def _explain(self, out: Output, cmd: ExplainCard) -> None:
        """Why the asking player can't cast a card now (a pure engine query: the game is
        unchanged, nothing is logged) -- from what that player may know. A query that
        raises changed nothing either: only the asker is told (a :class:`QueryFault`), and
        the game goes on rather than end for a question."""
        member = self._seated_in_game(out, cmd.conn, cmd.rid)
        if member is None or self.game is None:
            return
        try:
            reason = why_not_castable(self.game, member.seat, cmd.object_id)
        except Exception as exc:
            out.faults.append(QueryFault(cmd.conn, cmd.rid, "explain this card", exc))
            return
        out.sends.append((cmd.conn, mpb.ServerMessage(
            request_id=cmd.rid, card_explanation=mpb.CardExplanation(
                object_id=cmd.object_id, castable=not reason, reason=reason),
        ).SerializeToString()))

    def _apply(self, out: Output, seat: int, action: Action, now: float, *,
               conn: ConnId | None = None, rid: int = 0, answer: bool = False) -> None:
        """Apply ``action`` of ``seat``'s player (from ``conn``: told of a refusal, under
        ``rid``); ``answer``: the Delta sent to ``conn`` answers request ``rid``."""
        game = self.game
        assert game is not None
        try:
            events = apply(game, seat, action)
        except IllegalActionError as exc:
            if conn is not None:
                out.sends.append((conn, error_bytes(mpb.ERROR_CODE_ILLEGAL_ACTION, str(exc),
                                                    rid)))
            return
        pending = game.pending
        if game.result is None and (pending is None or not pending.options):
            # Nobody could ever act again: the room fails (ends alone, the game aborted with
            # this in its record) rather than wait for a clock to run out.
            raise RuntimeError(f"the engine left no decision to make after action "
                               f"{game.action_count} ({action!r}): {pending!r}")
        self.timers.charge(now)
        # Invariant 6: the pump writes these before it sends anything below.
        out.log.append(AppendAction(self.game_id, game.action_count, seat, action,
                                    tuple(self.timers.remaining)))
        ended = game.result is not None
        if game.result is not None:
            out.log.append(FinishGame(self.game_id, game.result.winners, game.result.reason))
            self._game_over(out, now)
        self._hold(seat, action, now)
        # A game this action brings to the server's limit of actions ends at once, a draw
        # (below, _action_limit): the decision the engine has pending is never sent -- a bot
        # answering it at once got "the game is over" (or, in a match, "sideboard for the
        # next game") and counted the game as failed.
        decide = not self._over_limit()
        for seat_class, data in self._advance_streams(game, action, events):
            if seat_class == SPECTATOR:  # once for every live public spectator
                out.feed.append(Publish(0, data))
                if decide:
                    out.feed.extend(Publish(0, d) for d in self._decision(SPECTATOR))
                continue
            m = self.seats[seat_class]
            if m is not None and m.conn is not None:
                out.sends.append((m.conn, with_request_id(rid, data)
                                  if answer and rid and m.conn == conn else data))
                if decide:
                    out.sends.extend((m.conn, d) for d in self._decision(seat_class))
        self._start_clock(now)
        # The clocks go out whenever one runs after an action, and once more when the game
        # ends, every clock stopped where it was (one that ran out shows 0: a client counts
        # a running clock down itself, and would otherwise go back to the last it was told).
        if self.timers.running_seat is not None or ended:
            self._everyone(out, self.clocks(now))
        if ended:
            self._announce(out, now)
            self._rematch_gone(out)
        else:
            self._action_limit(out, now)
            self._computers_alone(out, now)

    def _computers_alone(self, out: Output, now: float) -> None:
        """Every person of a running game has lost or left it (a free-for-all's computers
        would play on for nobody): the computers concede, one after another, until it
        ends (104.3a; the last one standing wins, 104.2a)."""
        game = self.game
        if game is None or game.result is not None or not self.settings.computers or any(
                not game.players[seat].has_lost
                for seat in range(len(self.seats)) if not self.is_computer(seat)):
            return
        for seat in self.settings.computers:
            if game.result is None and not game.players[seat].has_lost:
                self._apply(out, seat, Concede(ConcedeReason.NO_PERSON_LEFT), now)

    def _over_limit(self) -> bool:
        """Whether the running game has reached ``max_game_actions`` (an operator may have
        lowered it since: a reloaded game can be past it)."""
        game, limit = self.game, self.config.max_game_actions
        return bool(limit) and game is not None and game.result is None and \
            game.action_count >= limit

    def _action_limit(self, out: Output, now: float) -> None:
        """After an action (or at a reloaded room's first wake-up): a game that reached the
        server's ``max_game_actions`` ends as a draw -- an engine action, logged like any,
        so the stored log replays the end (a restart, replays, check-games) whatever the
        limit is then; one that reached :func:`action_warning_at` warns its players and
        spectators, once: a ``Notice`` (``NOTICE_CODE_ACTION_LIMIT_NEAR``; no error, it asks
        nothing), the live ones now and each delayed tier's when its view reaches this action
        (the count of actions is no secret of anyone's view, but no news ahead of the feed)."""
        game, limit = self.game, self.config.max_game_actions
        if not limit or game is None or game.result is not None:
            return
        if game.action_count >= limit:
            assert game.pending is not None  # (_apply fails a game left without one)
            self._apply(out, game.pending.seat, ActionLimitDraw(limit), now)
            if game.result is None:  # refused: the room fails (ends alone), never spins
                raise RuntimeError(f"the engine refused the draw at the limit of {limit} "
                                   f"actions, after action {game.action_count}")
        elif not self._limit_warned and game.action_count >= action_warning_at(limit):
            self._limit_warned = True
            notice = self._limit_notices()[0]
            self._everyone(out, notice)
            for delayed in self.delayed:
                delayed.hold_message(notice, now, game.turn)

    def _limit_notices(self) -> list[bytes]:
        """The action-limit ``Notice`` of a running game past :func:`action_warning_at`, as
        it reads now (none before): told once to those in the room then, and again to each
        player or live spectator who joins or comes back later -- a player who reconnected
        past that point, or a spectator who came in late, saw the draw with no warning."""
        game, limit = self.game, self.config.max_game_actions
        if not limit or game is None or game.result is not None or \
                game.action_count < action_warning_at(limit):
            return []
        return [mpb.ServerMessage(notice=mpb.Notice(
            code=mpb.NOTICE_CODE_ACTION_LIMIT_NEAR,
            message=f"this game has taken {game.action_count:,} actions: at the server's "
                    f"limit of {limit:,} it ends as a draw")).SerializeToString()]

    def _advance_streams(self, game: Game, action: Action, events: list[Event]
                         ) -> list[tuple[int, bytes]]:
        """Each view class's delta after ``action`` (kept in its history)."""
        assert self.views is not None
        sent = []
        for seat, prev, data in self.views.advance(game, action, events):
            cls = self.classes[seat]
            cls.history.append((prev, cls.stream.state_id, data))
            cls.opening.extend((cls.stream.state_id, e) for e in opening_events(events, data))
            sent.append((seat, data))
        return sent

    def _hold(self, seat: int, action: Action, now: float) -> None:
        """The live game applied ``action``: each delayed tier holds it until it is due."""
        game = self.game
        assert game is not None
        for delayed in self.delayed:
            delayed.hold(seat, action, now, game.turn)

    def _release(self, out: Output, now: float) -> None:
        """Send a few of the delayed tiers' deltas that are due at ``now`` to their
        spectators (:func:`~server.rooms.tiers.release_in_turn`).

        Each tier plays the live game's actions again, so a room with four tiers showing
        every hand does the work of five games. They were played after every command, all
        that were due at once: one room of eight players and four such tiers kept the event
        loop busy, and other games' actions waited up to 2 s. Now the room's host gives the
        room this work (:class:`ShowDelayed`) only when nothing else waits for it, a few
        actions at a time, within a share of the event loop all rooms' tiers have together
        (:meth:`server.rooms.pump.RoomHost.run`). A busy server shows such tiers later
        than their delay says; nobody else waits for them."""
        game = self.game
        if game is not None:
            out.feed.extend(Publish(n, data) for n, data in release_in_turn(
                self.delayed, now, game.turn, game.result is not None, RELEASE_AT_ONCE))

    # ---- the rematch (protocol/README.md, "Rematch")
    def _offer_rematch(self, out: Output, cmd: OfferRematch) -> None:
        """A player offers a rematch, or withdraws its offer, once the game (of a match, the
        match) is over. When every seat's player, each connected, has offered, the players
        are released here to be seated in the rematch's room (:attr:`Output.rematch`)."""
        member = self._seated(out, cmd.conn, cmd.rid)
        if member is None:
            return

        def refuse(code: int, message: str) -> None:
            out.sends.append((cmd.conn, error_bytes(code, message, cmd.rid)))

        if not self.finished:
            what = "match" if self.best_of > 1 else "game"
            refuse(mpb.ERROR_CODE_NOT_READY,
                   f"the {what} isn't over yet: a rematch can be offered once it has ended")
            return
        if self._rematch_agreed:
            refuse(mpb.ERROR_CODE_INVALID_ARGUMENT, "the rematch has started already")
            return
        if self._rematch_off:
            refuse(mpb.ERROR_CODE_INVALID_ARGUMENT, f"no rematch: {self._rematch_off}")
            return
        self.rematch_offers[member.seat] = cmd.offer
        players = [m for m in self.seats if m is not None]
        if len(players) == len(self.seats) and all(
                self.rematch_offers[m.seat] and (m.conn is not None or self.is_computer(m.seat))
                for m in players):
            self._rematch_news(out, cmd.conn, cmd.rid)
            # (the computers aren't seated by the app: the new room, made with the same
            # settings, seats its own in the same seats)
            out.rematch = RematchPlan(
                self.room_id, rematch_name(self.name), len(self.seats), round(self.clock_seconds),
                tuple(RematchSeat(m.session_id, m.name, m.account_id, m.registered,
                                  m.knows_code) for m in players
                      if not self.is_computer(m.seat)))
            self._rematch_agreed = True
            for m in players:  # released here: the app seats them in the new room
                if m.conn is not None:
                    self._by_conn.pop(m.conn, None)
                    out.released.append(m.conn)
                    m.conn = None
            return
        self._rematch_news(out, cmd.conn, cmd.rid)

    def _rematch_gone(self, out: Output) -> None:
        """The game (match) just ended: if a player left it, no rematch can be had -- its
        players and live spectators are told at once (offering is refused)."""
        if not self.finished or self._rematch_off:
            return
        gone = next((m.name for m in self.seats if m is not None and m.left), None)
        if gone is not None:
            self._rematch_off = f"{gone} left the game"
            self.rematch_offers = [False] * len(self.seats)
            self._rematch_news(out)
        elif self.computers_offer():
            self._rematch_news(out)

    def computers_offer(self) -> bool:
        """Once the game (match) is over, the computer players offer a rematch at once: the
        people's offers alone start it. Whether any did (a room after a restart too)."""
        if not self.settings.computers or not self.finished or self._rematch_off or \
                self._rematch_agreed:
            return False
        for seat in self.settings.computers:
            self.rematch_offers[seat] = True
        return True

    def _rematch_made(self, out: Output, cmd: RematchMade, now: float) -> None:
        """The rematch's room was made (or couldn't be): tell the spectators where it is --
        the live ones now, a delayed tier's once its view has shown the game's end."""
        if not self._rematch_agreed:
            return
        if not cmd.room_id:  # (its players were told why, and are in no room now)
            self._rematch_off = cmd.failed or "the rematch couldn't be made"
            self.rematch_offers = [False] * len(self.seats)
            out.feed.append(Publish(0, self._rematch_offers_message(0)))  # (spectators)
            return
        self.rematch_room, self._rematch_audience = cmd.room_id, cmd.audience_code
        live = self._rematch_started(live=True)
        out.feed.append(Publish(0, live))
        game = self.game
        if game is not None and self.delayed:
            held = self._rematch_started()
            for delayed in self.delayed:
                delayed.hold_notice(held, now, game.turn)

    def _rematch_started(self, *, live: bool = False) -> bytes:
        """``RematchStarted`` for the spectators (its players are told by the app, which
        seats them): a private room's learn only that a rematch started; the new audience
        code -- never the invite code: it opens a seat -- only for live spectators of a room
        they could watch only with a code."""
        private = self.settings.private
        code = live and not private and self.settings.spectate is Spectate.INVITE
        return mpb.ServerMessage(rematch_started=mpb.RematchStarted(
            old_room_id=self.room_id, new_room_id="" if private else self.rematch_room,
            audience_code=self._rematch_audience if code else "")).SerializeToString()

    def _rematch_offers_message(self, rid: int) -> bytes:
        return mpb.ServerMessage(request_id=rid, rematch_offers=mpb.RematchOffers(
            room_id=self.room_id, offered=self.rematch_offers, cancelled=self._rematch_off,
        )).SerializeToString()

    def _rematch_news(self, out: Output, conn: ConnId | None = None, rid: int = 0) -> None:
        """Tell the players and live spectators who offers a rematch (``conn``, the asker:
        as the answer to its request ``rid``)."""
        pushed = self._rematch_offers_message(0)
        for m in self.seats:
            if m is not None and m.conn is not None:
                self._send(out, m, self._rematch_offers_message(rid)
                           if m.conn == conn and rid else pushed)
        out.feed.append(Publish(0, pushed))

    # ---- the match (server.rooms.match)
    def _over_message(self) -> str:
        if self.best_of <= 1:
            return "the game is over"
        if self.match_winner is not None:
            return "the match is over"
        return (f"game {self.game_number} of the match is over: sideboard for game "
                f"{self.game_number + 1} (SubmitDeck) -- LeaveRoom concedes the match")

    def _score(self, game: Game) -> None:
        """``game`` just ended: count it, and decide the match if it is over (100.6a)."""
        result = game.result
        assert result is not None
        winner = result.winners[0] if len(result.winners) == 1 else -1
        self.results.append((winner, result.reason))
        if winner >= 0:
            self.wins[winner] += 1
        else:
            self.draws += 1
        self._decide()

    def _decide(self) -> None:
        names = [m.name if m is not None else "" for m in self.seats]
        left = [m.seat for m in self.seats if m is not None and m.left]
        decided = decide(self.best_of, self.wins, self.results, names, left)
        if decided is not None:
            self.match_winner, self.match_reason = decided
            self._sideboard_until = None

    def _game_over(self, out: Output, now: float) -> None:
        """The current game just ended (its FinishGame is logged): score it; the match is
        over (the room lingers) or the players sideboard for the next game."""
        game = self.game
        assert game is not None
        self._score(game)
        if self.match_winner is not None:
            self._finished_at = now
        else:  # (a computer keeps its deck at once)
            self.ready = [self.is_computer(seat) for seat in range(len(self.seats))]
            self._sideboard_until = now + self.config.sideboard_seconds
        if self.best_of > 1:
            out.log.append(PutMatch(self.match_record()))

    def _end_match(self, out: Output, now: float) -> None:
        """A player left between games: that concedes the match."""
        self._decide()
        self._finished_at = now
        out.log.append(PutMatch(self.match_record()))
        self._announce(out, now)
        self._rematch_gone(out)

    def _announce(self, out: Output, now: float) -> None:
        """Tell every member the match's state: the live ones now, each delayed tier's
        when its view gets there."""
        if self.best_of <= 1:
            return
        self._everyone(out, self.match_state(now))
        game = self.game
        assert game is not None
        held = self.match_state(now, live=False)
        for delayed in self.delayed:
            delayed.hold_message(held, now, game.turn)

    def _submit_deck(self, out: Output, cmd: SubmitDeck, now: float) -> None:
        """A player's deck for the next game of the match: kept, or sideboarded within
        its registered deck and sideboard (rules 100.4, 103.2a). A refused deck changes
        nothing."""
        member = self._seated(out, cmd.conn, cmd.rid)
        if member is None:
            return

        def refuse(code: int, message: str, details: list[str] | None = None) -> None:
            out.sends.append((cmd.conn, error_bytes(code, message, cmd.rid,
                                                    details=details or ())))

        if self.best_of <= 1:
            refuse(mpb.ERROR_CODE_NOT_READY,
                   "this room plays a single game: there is no sideboarding")
            return
        if self.match_winner is not None:
            refuse(mpb.ERROR_CODE_GAME_OVER, "the match is over")
            return
        if not self.sideboarding:
            refuse(mpb.ERROR_CODE_NOT_READY,
                   "sideboarding is between the games of the match; "
                   + ("it has not started" if self.game is None
                      else f"game {self.game_number} is being played"))
            return
        assert member.registered is not None and member.deck is not None
        if cmd.deck is not None:
            # The format's problems (the main deck's size among them), then the registered
            # deck and sideboard's: every one told at once.
            problems = [*cmd.problems, *sideboard_problems(
                member.registered, cmd.deck, self.format, size=not cmd.problems)]
            if problems:
                refuse(mpb.ERROR_CODE_INVALID_DECK,
                       f"that deck can't be played in game {self.game_number + 1}: "
                       f"{len(problems)} problem(s); your deck is unchanged", problems[:100])
                return
            member.deck = cmd.deck
        deck = member.deck
        answered_before = self.ready[member.seat]
        self.ready[member.seat] = True
        out.log.append(PutMatch(self.match_record()))
        accepted = mpb.DeckAccepted(
            game_number=self.game_number + 1, kept=cmd.deck is None,
            main_count=len(deck.main), sideboard_count=len(deck.sideboard), deck=deck.text,
            notes=cmd.deck.notes if cmd.deck is not None else ())
        self._send(out, member, mpb.ServerMessage(
            request_id=cmd.rid, deck_accepted=accepted).SerializeToString())
        if all(self.ready):
            self._next_game(out, now)
        elif not answered_before:
            # Who has answered is public (the others wait on it); a second answer changes
            # nothing the others see, so they are told nothing: how often a player changed
            # their mind, and when, stays theirs.
            self._announce(out, now)

    def _next_game(self, out: Output, now: float) -> None:
        """Sideboarding is over (everyone answered, or its time ran out: whoever didn't
        keeps their deck): the next game of the match starts, each seat with its current
        deck, its starting player chosen by the loser of the last game (rule 103.1)."""
        last = self.game
        assert last is not None
        chooser = next_chooser(self.results[-1][0], self.choosers[-1], len(self.seats))
        self._state_base = next_state_base(self._state_base, last.action_count)
        self.game_number += 1
        self._limit_warned = False
        self._sideboard_until = None
        self.ready = [False] * len(self.seats)
        self.timers = ChessClocks.fresh(len(self.seats), self.clock_seconds)  # per game
        seed = secrets.token_bytes(32)
        self._create_game(seed, chooser=chooser, first_state_id=self._state_base,
                          next_game_at=now)
        self.game_ids.append(self.game_id)
        self.choosers.append(chooser)
        self._log_game(out, seed, chooser)
        self._start_clock(now)
        held = self.match_state(now, live=False)
        for delayed in self.delayed:
            delayed.hold_message(held, now, 0)
        for m in self.seats:
            if m is not None:
                self._snapshot_to(out, m, 0, now)
        # The live spectators watch on: the new game's snapshot is published to them once.
        out.feed.extend(Publish(0, data) for data in self._snapshot_messages(
            self.classes[SPECTATOR], SPECTATOR, 0, 0, now))

    # ---- clocks and timers
    def restart_timers(self, now: float) -> None:
        """A reloaded room's time starts at ``now``, when the server serves again (it may
        have taken many seconds to reload every room, while nobody could connect): the
        running decision clock runs from its bank as stored, the sideboarding has its full
        time, a finished game's room lingers, and each seat is away, from ``now``."""
        if self.timers.running is not None:
            self.timers.running = (self.timers.running[0], now)
        if self._sideboard_until is not None:
            self._sideboard_until = now + self.config.sideboard_seconds
        if self._finished_at is not None:
            self._finished_at = now
        for member in self.seats:
            if member is not None and member.conn is None:
                member.away_since = now

    def _start_clock(self, now: float) -> None:
        """Start the clock of whoever must decide now (none once the game is over)."""
        game = self.game
        self.timers.start(game.pending.seat if game is not None and game.result is None
                          and game.pending is not None else None, now)

    @property
    def remaining(self) -> list[float]:
        """Each seat's time bank left, in seconds (charged up to the last command)."""
        return self.timers.remaining

    def clocks(self, now: float) -> bytes:
        """The ``Clocks`` message at time ``now`` (serialized ServerMessage)."""
        return self.timers.message(now)

    def _wake_at(self) -> float:
        if self._over_limit():
            return -INF  # (at once: see _tick)
        times = [INF]
        runs_out = self.timers.runs_out_at()
        if runs_out is not None:
            times.append(runs_out)
        close_at = self._close_at()
        if close_at is not None:
            times.append(close_at)
        if self._idle_since is not None and self.game is None:
            times.append(self._idle_since + self.config.idle_seconds)
        if self._sideboard_until is not None:
            times.append(self._sideboard_until)
        away = self._away()
        if away is not None:
            times.append(away.away_since + self.config.away_seconds)
        if self._computer_due is not None:
            times.append(self._computer_due[1])
        return min(times)

    def _plan_computer(self, now: float) -> None:
        """After each command: if the pending decision is a computer player's and it hasn't
        a time to answer it yet, it thinks for :func:`~server.rooms.computer.think_seconds`
        from ``now`` (one wake-up of the room: no task of its own)."""
        game = self.game
        pending = game.pending if game is not None else None
        if self.closed or game is None or game.result is not None or pending is None or \
                not self.is_computer(pending.seat) or self._over_limit():
            self._computer_due = None
        elif self._computer_due is None or self._computer_due[0] != pending.prompt_id:
            self._computer_due = (pending.prompt_id, now + think_seconds(
                self._rng, self.config.computer_seconds))

    def _computer_acts(self, out: Output, now: float) -> None:
        """A computer player's time to answer its pending decision has come: it picks among
        the decision's legal options (:func:`~server.rooms.computer.choose`) and the option
        is applied as a player's ``Act`` is -- logged before any delta leaves."""
        game, due = self.game, self._computer_due
        if game is None or due is None or now < due[1] or game.result is not None:
            return
        pending = game.pending
        self._computer_due = None
        if pending is None or pending.prompt_id != due[0] or not self.is_computer(pending.seat):
            return
        option = pending.options[choose(self._rng, pending.seat, pending.options,
                                        aimed_targets(game, pending.seat),
                                        second_legends(game, pending.seat))]
        self._apply(out, pending.seat, option, now)

    def _away(self) -> Member | None:
        """The seat the running game waits on, if its player is disconnected (and
        ``away_seconds`` isn't 0): it concedes once it has been away that long."""
        game = self.game
        if not self.config.away_seconds or game is None or game.result is not None \
                or game.pending is None:
            return None
        member = self.seats[game.pending.seat]
        return member if member is not None and member.conn is None and \
            not self.is_computer(member.seat) else None

    def _delayed_at(self) -> float:
        """When a delayed tier's next held action is due (INF: none, or only a turn of the
        live game can release it)."""
        game = self.game
        if game is None or self.closed:
            return INF
        over = game.result is not None
        return min((d.wake_at(game.turn, over) for d in self.delayed), default=INF)

    def _close_at(self) -> float | None:
        """When a finished game's room closes: it lingers, after its delayed tiers' delay
        (None: the game isn't over, or a tier hasn't shown everything yet -- a busy server
        plays their actions later than due: the room closes once they are all shown, and
        then the close is due at once if its time has passed)."""
        if self._finished_at is None or any(delayed.held for delayed in self.delayed):
            return None
        delay = max((t.delay_seconds for t in self.settings.tiers), default=0.0)
        return self._finished_at + delay + self.config.linger_seconds

    def _tick(self, out: Output, now: float) -> None:
        if self._over_limit():  # reloaded past a limit lowered since: a draw, logged
            self._action_limit(out, now)
        seat = self.timers.ran_out(now)
        if seat is not None:  # the deciding player's clock ran out: they concede (104.3a)
            self._apply(out, seat, Concede(ConcedeReason.OUT_OF_TIME), now)
        away = self._away()
        if away is not None and now >= away.away_since + self.config.away_seconds:
            # Gone too long while the game waits on them: they concede (104.3a) and the
            # others play on, instead of waiting out the rest of their clock.
            self._apply(out, away.seat, Concede(ConcedeReason.ABSENT), now)
        self._computer_acts(out, now)
        if self._sideboard_until is not None and now >= self._sideboard_until:
            self._next_game(out, now)  # whoever didn't answer keeps their deck
        close_at = self._close_at()
        if close_at is not None and now >= close_at:
            self._close(out, "the game is over")
        elif self._idle_since is not None and self.game is None and \
                now >= self._idle_since + self.config.idle_seconds:
            self._close(out, "nobody joined this room in time")

    def _close(self, out: Output, reason: str) -> None:
        """The room leaves the lobby and memory; its members are told why."""
        closed = mpb.ServerMessage(room_closed=mpb.RoomClosed(
            room_id=self.room_id, reason=reason)).SerializeToString()
        if self.game is None:  # nobody watches a feed yet
            for m in self.members():
                self._send(out, m, closed)
        else:
            for seat in self.seats:
                if seat is not None:
                    self._send(out, seat, closed)
            # Each spectator gets it after the rest of its tier's feed, then stops watching.
            out.feed.extend(Publish(tier, closed)
                            for tier in range(len(self.settings.tiers) + 1))
            out.feed.extend(StopWatching(m.conn, True) for m in self.spectators.values()
                            if m.conn is not None)
        out.released.extend(self._by_conn)
        self._by_conn.clear()
        self.closed = True
        out.closed = True


SPECTATE_WIRE = {Spectate.ALLOWED: mpb.SPECTATE_ALLOWED, Spectate.NONE: mpb.SPECTATE_NONE,
                  Spectate.INVITE: mpb.SPECTATE_INVITE}
FORMAT_WIRE = {DeckFormat.CONSTRUCTED: mpb.DECK_FORMAT_CONSTRUCTED,
                DeckFormat.LIMITED: mpb.DECK_FORMAT_LIMITED}


TIER_KIND_WIRE = {TierKind.PUBLIC: mpb.TIER_KIND_PUBLIC,
                  TierKind.OMNISCIENT: mpb.TIER_KIND_OMNISCIENT,
                  TierKind.PLAYER: mpb.TIER_KIND_PLAYER}


#: " (rematch)", " (rematch 2)" ... at a name's end (ASCII digits, at most 6: a longer
#: number is the name's own).
_REMATCH_SUFFIX = re.compile(r" \(rematch(?: ([2-9]|[1-9][0-9]{1,5}))?\)$")


def rematch_name(name: str) -> str:
    """A rematch's room name: ``friday (rematch)``, then ``friday (rematch 2)``, ... -- the
    lobby listed a room and its rematches, finished, under one name. At most
    :data:`MAX_ROOM_NAME` characters (the original's end cut to fit)."""
    found = _REMATCH_SUFFIX.search(name)
    base, n = (name[:found.start()], int(found.group(1) or 1) + 1) if found else (name, 1)
    suffix = " (rematch)" if n == 1 else f" (rematch {n})"
    return base[:MAX_ROOM_NAME - len(suffix)].rstrip() + suffix


def is_demo(deck: Deck, fmt: DeckFormat) -> bool:
    """Whether ``deck`` is the demo deck of its name (not a list that only took the name)."""
    return deck.name in demo_deck_names() and deck.text == _demo_text(deck.name, fmt)


@lru_cache(maxsize=64)
def _demo_text(name: str, fmt: DeckFormat) -> str:
    return resolve(name, fmt).text


def demo_deck_for_seat(seated: int) -> str:
    """The demo deck a player who names no deck is dealt when ``seated`` players already
    have seats: the demo decks in name order, one after another (``manawire bench-server``
    plays its engine baseline on the same pairing)."""
    names = demo_deck_names()
    return names[seated % len(names)]


def tier_wire(tier: SpectatorTier) -> mpb.SpectatorTier:
    """A delayed tier as ``RoomInfo`` lists it."""
    return mpb.SpectatorTier(
        kind=TIER_KIND_WIRE[tier.kind], seat=max(tier.seat, 0),
        delay_seconds=round(tier.delay_seconds), delay_turns=tier.delay_turns,
        accounts=[name for _a, name in tier.accounts], invite=tier.invite)
