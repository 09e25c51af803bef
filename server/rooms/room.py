"""A game room: one trio task owns one game (architecture invariant 6, single writer).

Connections talk to the room only through its bounded inbox. The room sends to each member
with ``send_nowait`` into that member's own bounded outbox, so a slow client can never stall
the room: a member whose outbox is full is disconnected instead (invariant 7).

Every message about the game is built per view class (each seat, and spectators) from that
class's projection, encoded once and sent to every member of the class (invariant 4).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

import trio

from protocol.v1 import messages_pb2 as mpb
from server.cards import DeckError, demo_deck, demo_deck_names
from server.engine import Game, IllegalActionError, PlayerSetup, apply, new_game
from server.engine.actions import Action, Concede
from server.engine.events import Event
from server.rooms import session as req
from server.rooms.session import error_bytes
from server.store import Store
from server.view import SPECTATOR
from server.view.encode import (
    encode_decision,
)
from server.view.stream import ViewStream
from server.view.track import GameTracker

INBOX_SIZE = 256


@dataclass(eq=False)
class Member:
    """A connection's presence in a room. ``outbox`` is the connection's bounded queue."""

    session_id: str
    name: str
    outbox: trio.MemorySendChannel[bytes]
    kick: Callable[[str], None]
    seat: int = SPECTATOR
    deck: str = ""

    def send(self, data: bytes) -> None:
        """Queue bytes for this member; disconnect it if it has fallen too far behind."""
        try:
            self.outbox.send_nowait(data)
        except trio.WouldBlock:
            self.kick("client too slow: outbox full")
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            pass  # the connection is already gone; it will resync with a snapshot


@dataclass
class Command:
    """A request for the room, with the member it came from."""

    member: Member
    request_id: int
    request: req.JoinRoom | req.LeaveRoom | req.Act | req.RequestSnapshot | req.ConcedeGame


@dataclass
class ViewClass:
    """One view class: its stream of numbered views and the members receiving it."""

    stream: ViewStream
    members: list[Member] = field(default_factory=list)


class Room:
    """One game: seats, spectators, the engine state and each view class's numbered state."""

    def __init__(self, room_id: str, name: str, seats: int, store: Store,
                 clock_seconds: float = 1800.0) -> None:
        self.room_id = room_id
        #: Chess clocks: each seat's remaining time bank; the seat whose clock runs, since when.
        self.clock_seconds = clock_seconds
        self.remaining = [float(clock_seconds)] * seats
        self._running: tuple[int, float] | None = None
        self.name = name
        self.seats: list[Member | None] = [None] * seats
        self.spectators: list[Member] = []
        self.store = store
        self.game: Game | None = None
        self.classes: dict[int, ViewClass] = {}
        #: What changed after each action, found once for every view class.
        self.tracker = GameTracker()
        self._send, self._receive = trio.open_memory_channel[Command](INBOX_SIZE)

    # ---- outside the room task: read-only or channel sends
    def info(self) -> mpb.RoomInfo:
        """The lobby's summary of this room."""
        return mpb.RoomInfo(
            room_id=self.room_id, name=self.name, seats=len(self.seats),
            players=[m.name for m in self.seats if m is not None],
            spectators=len(self.spectators), started=self.game is not None,
            finished=self.game is not None and self.game.result is not None,
            clock_seconds=round(self.clock_seconds),
        )

    def has_member(self, member: Member) -> bool:
        """Whether ``member`` holds a seat or watches here."""
        return member in self.seats or member in self.spectators

    async def submit(self, command: Command) -> None:
        """Hand a command to the room task (waits if the inbox is full)."""
        await self._send.send(command)

    async def run(self) -> None:
        """The room task: the only code that changes this room's game. It also watches the
        running clock: a player whose time bank runs out concedes (no client can stall a
        room by not deciding)."""
        async with self._receive:
            while True:
                with trio.move_on_at(self._deadline()) as waiting:
                    try:
                        command = await self._receive.receive()
                    except trio.EndOfChannel:
                        return
                if waiting.cancelled_caught:
                    self._time_out()
                    continue
                self.handle(command)

    # ---- clocks
    def _deadline(self) -> float:
        if self._running is None:
            return float("inf")
        seat, since = self._running
        return since + self.remaining[seat]

    def _time_out(self) -> None:
        """The deciding player's clock ran out: they concede (rule 104.3a)."""
        if self._running is None or self.game is None or self.game.result is not None:
            return
        seat = self._running[0]
        self._stop_clock()
        self.remaining[seat] = 0.0
        self._apply(seat, Concede())

    def _stop_clock(self) -> None:
        if self._running is not None:
            seat, since = self._running
            self.remaining[seat] = max(0.0, self.remaining[seat] - (trio.current_time() - since))
            self._running = None

    def _run_clock(self) -> None:
        """Charge the time spent to the player who was deciding; start the clock of the
        player who must decide now (none once the game is over); tell everyone."""
        game = self.game
        before = self._running[0] if self._running is not None else None
        self._stop_clock()
        if game is not None and game.result is None and game.pending is not None:
            self._running = (game.pending.seat, trio.current_time())
        now = self._running[0] if self._running is not None else None
        if now != before:
            clocks = self.clocks()
            for cls in self.classes.values():
                for m in list(cls.members):
                    m.send(clocks)

    def clocks(self) -> bytes:
        """The ``Clocks`` message now (serialized ServerMessage)."""
        running = self._running
        out = []
        for seat, bank in enumerate(self.remaining):
            ticking = running is not None and running[0] == seat
            left = max(0.0, bank - (trio.current_time() - running[1])) \
                if running is not None and ticking else bank
            out.append(mpb.ClockState(seat=seat, remaining_ms=round(left * 1000),
                                      running=ticking))
        return mpb.ServerMessage(clocks=mpb.Clocks(seats=out)).SerializeToString()

    # ---- inside the room task
    def handle(self, command: Command) -> None:
        """Process one command synchronously."""
        member, rid, request = command.member, command.request_id, command.request
        if isinstance(request, req.JoinRoom):
            self._join(member, rid, request)
        elif isinstance(request, req.LeaveRoom):
            self._leave(member, rid)
        elif isinstance(request, req.Act):
            self._act(member, rid, request)
        elif isinstance(request, req.RequestSnapshot):
            self._snapshot_to(member, rid)
        elif isinstance(request, req.ConcedeGame):
            self._concede(member, rid)

    def _error(self, member: Member, rid: int, code: int, message: str) -> None:
        member.send(error_bytes(code, message, rid))

    def _join(self, member: Member, rid: int, request: req.JoinRoom) -> None:
        if member in self.spectators or member in self.seats:
            self._error(member, rid, mpb.ERROR_CODE_INVALID_ARGUMENT, "already in this room")
            return
        if request.spectator:
            member.seat = SPECTATOR
            self.spectators.append(member)
        else:
            names = demo_deck_names()
            deck = request.deck or names[len([s for s in self.seats if s]) % len(names)]
            if deck not in demo_deck_names():
                self._error(member, rid, mpb.ERROR_CODE_INVALID_ARGUMENT,
                            f"unknown deck {deck!r}; choose one of {demo_deck_names()}")
                return
            free = [i for i, m in enumerate(self.seats) if m is None]
            if self.game is not None or not free:
                self._error(member, rid, mpb.ERROR_CODE_ROOM_FULL, "no free seat in this room")
                return
            member.seat = free[0]
            member.deck = deck
            self.seats[member.seat] = member
        role = mpb.ROLE_SPECTATOR if request.spectator else mpb.ROLE_PLAYER
        member.send(mpb.ServerMessage(request_id=rid, joined=mpb.Joined(
            room=self.info(), role=role, seat=member.seat)).SerializeToString())
        if self.game is None and all(self.seats):
            self._start()
        elif self.game is not None:
            self.classes[member.seat].members.append(member)
            self._snapshot_to(member, 0)

    def _leave(self, member: Member, rid: int) -> None:
        """Leave the room. A seated player who leaves a running game concedes (104.3a)."""
        if member in self.spectators:
            self.spectators.remove(member)
        elif member in self.seats:
            if self.game is None:
                self.seats[member.seat] = None
            elif self.game.result is None:
                self._apply(member.seat, Concede())
        else:
            self._error(member, rid, mpb.ERROR_CODE_NOT_READY, "not in this room")
            return
        for cls in self.classes.values():
            if member in cls.members:
                cls.members.remove(member)

    def disconnected(self, member: Member) -> None:
        """A member's connection closed: stop sending to it (its seat is kept)."""
        if member in self.spectators:
            self.spectators.remove(member)
        for cls in self.classes.values():
            if member in cls.members:
                cls.members.remove(member)

    def _start(self) -> None:
        """All seats are full: start the game with a fresh secret seed (rule 103)."""
        seed = secrets.token_bytes(32)
        seated = cast(list[Member], self.seats)
        try:
            setups = [PlayerSetup(m.name, demo_deck(m.deck)) for m in seated]
        except DeckError as exc:  # pragma: no cover - decks are validated on join
            for m in seated:
                self._error(m, 0, mpb.ERROR_CODE_INTERNAL, str(exc))
            return
        self.game = new_game(seed, setups)
        self.store.create_game(self.room_id, self.name, seed, [(m.name, m.deck) for m in seated])
        self.tracker = GameTracker()
        step = self.tracker.step(self.game).number
        for seat in [*range(len(self.seats)), SPECTATOR]:
            members = [self.seats[seat]] if seat != SPECTATOR else list(self.spectators)
            self.classes[seat] = ViewClass(ViewStream.start(self.game, seat, step),
                                           members=[m for m in members if m is not None])
        for cls in self.classes.values():
            for m in cls.members:
                self._snapshot_to(m, 0)
        self._run_clock()

    def _snapshot_to(self, member: Member, rid: int) -> None:
        if self.game is None:
            self._error(member, rid, mpb.ERROR_CODE_NOT_READY, "the game has not started")
            return
        cls = self.classes[member.seat]
        member.send(cls.stream.snapshot(self.room_id, rid))
        if self._running is not None:
            member.send(self.clocks())
        self._decision_to(member, cls)

    def _decision_to(self, member: Member, cls: ViewClass) -> None:
        game = self.game
        if game is None or game.pending is None or game.pending.seat != member.seat:
            return
        decision = encode_decision(game.pending, cls.stream.view, self.room_id,
                                   cls.stream.state_id)
        member.send(mpb.ServerMessage(decision=decision).SerializeToString())

    def _act(self, member: Member, rid: int, request: req.Act) -> None:
        game = self.game
        if game is None:
            self._error(member, rid, mpb.ERROR_CODE_NOT_READY, "the game has not started")
            return
        if game.result is not None:
            self._error(member, rid, mpb.ERROR_CODE_GAME_OVER, "the game is over")
            return
        pending = game.pending
        if member not in self.seats or pending is None or pending.seat != member.seat:
            self._error(member, rid, mpb.ERROR_CODE_NOT_YOUR_DECISION,
                        "no decision is pending for you")
            return
        state_id = self.classes[member.seat].stream.state_id
        if request.prompt_id != pending.prompt_id or (
            request.expected_state_id and request.expected_state_id != state_id
        ):
            self._error(member, rid, mpb.ERROR_CODE_STALE_PROMPT,
                        f"prompt {request.prompt_id} is not current (now {pending.prompt_id}, "
                        f"state {state_id})")
            return
        if request.option_index >= len(pending.options):
            self._error(member, rid, mpb.ERROR_CODE_INVALID_ARGUMENT,
                        f"option_index must be below {len(pending.options)}")
            return
        self._apply(member.seat, pending.options[request.option_index], member, rid)

    def _concede(self, member: Member, rid: int) -> None:
        if self.game is None or member not in self.seats:
            self._error(member, rid, mpb.ERROR_CODE_NOT_READY, "you are not playing a game here")
        elif self.game.result is not None:
            self._error(member, rid, mpb.ERROR_CODE_GAME_OVER, "the game is over")
        else:
            self._apply(member.seat, Concede(), member, rid)

    def _apply(self, seat: int, action: Action, member: Member | None = None,
               rid: int = 0) -> None:
        game = self.game
        assert game is not None
        try:
            events = apply(game, seat, action)
        except IllegalActionError as exc:
            if member is not None:
                self._error(member, rid, mpb.ERROR_CODE_ILLEGAL_ACTION, str(exc))
            return
        # Invariant 6: the action is durably logged before any delta about it leaves.
        self.store.append_action(self.room_id, game.action_count, seat, action)
        if game.result is not None:
            self.store.finish_game(self.room_id, game.result.winners, game.result.reason)
        self._broadcast(events, action)

    def _broadcast(self, events: list[Event], action: Action) -> None:
        """Find what changed once, then send each view class one encoded delta (with the
        action's events as that class may know them) for all its members."""
        game = self.game
        assert game is not None
        changes = self.tracker.step(game, action)
        for cls in self.classes.values():
            data = cls.stream.advance(game, changes, events)
            if data is None:
                continue
            for m in list(cls.members):
                m.send(data)
                self._decision_to(m, cls)
        self._run_clock()
