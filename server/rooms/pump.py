"""The thin trio pump around a sans-I/O :class:`~server.rooms.room.Room`.

One task per room (single writer, invariant 6) takes commands from its inbox, calls
:meth:`Room.handle`, writes the returned store records through the
:class:`~server.store.writer.StoreWriter` and waits until they are durable, and only then
delivers the returned messages. When no command comes, the room's next wake-up (a clock
running out, a finished room's linger time) comes as a Tick from the shared
:class:`~server.rooms.alarms.Alarms`.

Fault isolation: an unexpected exception while handling a command or writing its records
ends only this room. Its members get ``ERROR_CODE_INTERNAL`` with an incident id, the store
marks the game aborted with the traceback, the log names the room, the command and the
incident, and every other room and the listener keep running.
"""

from __future__ import annotations

import contextlib
import logging
import math
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import trio
import trio.lowlevel

from protocol.v1 import messages_pb2 as mpb
from server.incidents import new_incident
from server.rooms.alarms import Alarms
from server.rooms.budget import Turns, WorkBudget
from server.rooms.commands import (
    Act,
    Command,
    ConnId,
    FeedOp,
    Output,
    QueryFault,
    ShowDelayed,
    Shutdown,
    StartWatching,
    Tick,
)
from server.rooms.relay import FeedSink
from server.rooms.room import Room
from server.rooms.session import error_bytes
from server.store.records import AbortGame
from server.store.writer import StoreUnwritableError, StoreWriter

log = logging.getLogger("manawire.room")

#: Commands a room handles in a row when they are already queued, before it yields.
QUEUED_AT_ONCE = 4
#: The share of the event loop's time all rooms' delayed spectator tiers have together, and
#: the work (seconds) they may do at once after an idle while (a :class:`WorkBudget`).
DELAYED_SHARE = 0.25
DELAYED_BURST = 0.01


def new_delayed_turns() -> Turns:
    """The turns and budget every room's delayed tiers share (one per lobby)."""
    return Turns(WorkBudget(DELAYED_SHARE, DELAYED_BURST))


class RoomGoneError(Exception):
    """The room closed (or failed) before it could handle the command."""


@dataclass(eq=False, slots=True)
class Ticket:
    """A command's result, for callers that must know it (a join is accepted or not)."""

    output: Output | None = None
    #: Called by the room task with the output (None: the room closed or failed first)
    #: once the command is handled -- for a caller that doesn't wait (a player's action:
    #: the connection reads on meanwhile). It must not raise or wait.
    settle: Callable[[Output | None], None] | None = None
    #: The command was handled, or never will be.
    done: bool = False
    #: Set when done, made only for a caller that has to wait (most never do: a player's
    #: action is settled before their next message arrives).
    _event: trio.Event | None = None
    #: The room answered the command itself (under its request id) as it stopped: a caller
    #: told None sends no answer of its own (one error, not two).
    answered: bool = False

    def finish(self, output: Output | None) -> None:
        """The command was handled (``output``) or never will be (None); once only."""
        if self.done:
            return
        self.output, self.done = output, True
        if self._event is not None:
            self._event.set()
        # Called once, then let go: the connection holds its last ticket, and the callback
        # holds the connection -- a cycle that kept every connection a player closed (its
        # session, streams, socket...) until the next full collection.
        settle, self.settle = self.settle, None
        if settle is not None:
            settle(output)

    async def finished(self) -> None:
        """Return once the command was handled or never will be."""
        if not self.done:
            if self._event is None:
                self._event = trio.Event()
            await self._event.wait()

    async def wait(self) -> Output:
        """The room's output for the command; :class:`RoomGoneError` if it never ran."""
        await self.finished()
        if self.output is None:
            raise RoomGoneError("the room closed")
        return self.output


def describe(command: Command, room: Room) -> str:
    """A log line's account of a command (which action, for an Act)."""
    text = repr(command)
    game = room.game
    if isinstance(command, Act) and game is not None and game.pending is not None \
            and command.option_index < len(game.pending.options):
        text += (f" -> {game.pending.options[command.option_index]!r} "
                 f"at action {game.action_count + 1}")
    return text[:2000]


class RoomHost:
    """Runs one room: its inbox, its pump task and its store writes."""

    def __init__(self, room: Room, writer: StoreWriter, relay: FeedSink, *,
                 deliver: Callable[[Sequence[tuple[ConnId, bytes]]], None],
                 released: Callable[[RoomHost, list[ConnId]], None],
                 closed: Callable[[RoomHost], None], alarms: Alarms,
                 delayed_turns: Turns | None = None,
                 placed: Callable[[ConnId, str], bool] | None = None,
                 stopped: Callable[[RoomHost], None] | None = None,
                 stored: bool = False) -> None:
        """``closed``: the room is over (closed, failed); ``stopped``: it stopped because
        the store couldn't be written, its game stored as of its last stored action (None:
        it is over then too). ``stored``: something of the room is stored already (a room
        reloaded from the store)."""
        self.room = room
        #: Whether a connection is (being let) in this room now (None: always so).
        self._placed = placed
        self.writer = writer
        #: Serves the room's spectator feeds (what its outputs publish, watch, unwatch).
        self.relay = relay
        self._deliver = deliver
        self._released = released
        self._closed = closed
        self._stopped_unstored = stopped
        #: A write of the room's has been stored: its game can be reloaded from the store.
        self.stored = stored
        # Unbounded, yet bounded in practice: each connection has at most one command in
        # flight that it waits for (the app handles a connection's next message only once
        # its ticket is done), besides the notices nobody waits for: a spectator's leave
        # (after which it is outside this room; coming back is a join, waited for, queued
        # behind the leave) and a disconnect. So the inbox holds at most three commands per
        # connection, and a disconnect notice can always be queued (it is never lost).
        self._send, self._receive = trio.open_memory_channel[tuple[Command, Ticket | None]](
            math.inf)
        first = room.handle(Tick(), trio.current_time())
        self._wake_at, self._delayed_at = first.wake_at, first.delayed_at
        #: What that first Tick did, when it did something to store (a game reloaded past
        #: a --max-game-actions lowered since ends as a draw): stored and sent first thing
        #: by the room task (never dropped: the game's end must be in its log).
        self._first: Output | None = first if first.log else None
        #: The turns, and the event loop's time, every room's delayed tiers share (the
        #: lobby's).
        self.delayed_turns = delayed_turns or new_delayed_turns()
        self.alarms = alarms
        alarms.set(self, self._alarm())
        #: A command taken while the room's wake-up time came: handled after that Tick.
        self._held: tuple[Command, Ticket | None] | None = None
        self.failed: str | None = None
        self._stopped = False

    @property
    def room_id(self) -> str:
        """The room's id."""
        return self.room.room_id

    def submit(self, command: Command) -> Ticket:
        """Queue ``command``; :class:`RoomGoneError` if the room is gone. Await the ticket for
        the command's output (callers send one command per connection at a time)."""
        ticket = Ticket()
        try:
            self._send.send_nowait((command, ticket))
        except (trio.ClosedResourceError, trio.BrokenResourceError):
            raise RoomGoneError("the room closed") from None
        return ticket

    def notify(self, command: Command) -> None:
        """Queue a notice nobody waits for (a disconnect); nothing to do if the room is gone."""
        with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
            self._send.send_nowait((command, None))

    def _placed_only(self, feed: list[FeedOp]) -> list[FeedOp]:
        """``feed`` without the watches of connections no longer in this room: the room
        decided them before its store write, and the connection may have left for another
        room meanwhile, whose watch this one would replace."""
        placed = self._placed
        if placed is None:
            return feed
        for op in feed:  # (most outputs watch nothing: a loop, no generator, to see)
            if type(op) is StartWatching:
                break
        else:
            return feed
        room_id = self.room_id
        return [op for op in feed
                if not isinstance(op, StartWatching) or placed(op.conn, room_id)]

    async def run(self) -> None:
        """The room task: until the room closes, fails, or the server stops."""
        command: Command = Tick()
        ticket: Ticket | None = None
        try:
            first, self._first = self._first, None
            if first is not None:
                await self.writer.write(first.log)
                self.stored = True
                if first.sends:
                    self._deliver(first.sends)
                self.relay.apply(self.room_id, self._placed_only(first.feed))
                if first.released:
                    self._released(self, first.released)
            async with self._receive:
                queued = 0
                while True:
                    ticket = None
                    # Commands already waiting are taken without yielding, up to
                    # QUEUED_AT_ONCE in a row; then the room lets the other tasks run.
                    if queued >= QUEUED_AT_ONCE:
                        queued = 0
                        await trio.lowlevel.checkpoint()
                    # The room's wake-up time (a clock that ran out) goes before any command
                    # that came after it. A room waiting for a command is woken then by the
                    # alarms (a Tick): its wait has no deadline, so no cancel scope.
                    if trio.current_time() >= self._wake_at:
                        command = Tick()
                        queued += 1
                    elif self._held is not None:
                        (command, ticket), self._held = self._held, None
                        queued += 1
                    else:
                        waiting = False
                        try:
                            command, ticket = self._receive.receive_nowait()
                            queued += 1
                        except trio.WouldBlock:
                            waiting = True  # (the wait is outside the handler: no exception
                            # and traceback kept alive through it)
                        except trio.EndOfChannel:
                            return
                        turns = self.delayed_turns
                        if waiting and self._delayed_at <= trio.current_time() and \
                                turns.has_turn(self) and \
                                turns.budget.ready_at() <= trio.current_time():
                            # Nothing waits, and it is this room's turn: the delayed tiers'
                            # due actions, a few; then the next room's turn.
                            waiting, command, ticket = False, ShowDelayed(), None
                            queued = QUEUED_AT_ONCE  # (the other rooms run before more)
                        if waiting:
                            queued = 0
                            try:
                                command, ticket = await self._receive.receive()
                            except trio.EndOfChannel:
                                return
                            if trio.current_time() >= self._wake_at \
                                    and not isinstance(command, Tick):
                                self._held = (command, ticket)  # next, after the Tick
                                command, ticket = Tick(), None
                    if isinstance(command, ShowDelayed):
                        budget = self.delayed_turns.budget
                        began = budget.work_clock()
                        out = self.room.handle(command, trio.current_time())
                        budget.charge(budget.work_clock() - began)
                        self.delayed_turns.leave(self)  # (asks again below if more is due)
                    else:
                        out = self.room.handle(command, trio.current_time())
                    if out.log:  # (the write may not yield: the bound above still holds)
                        await self.writer.write(out.log)
                        self.stored = True
                    if out.sends:
                        self._deliver(out.sends)
                    if out.faults:
                        self._told_faults(out.faults)
                    self.relay.apply(self.room_id, self._placed_only(out.feed))
                    if out.released:
                        self._released(self, out.released)
                    if ticket is not None:
                        ticket.finish(out)
                    self._wake_at, self._delayed_at = out.wake_at, out.delayed_at
                    self.alarms.set(self, self._alarm())
                    command = Tick()
                    if out.closed:
                        if self._stopped:  # frozen for a restart: the room isn't over
                            self._drain()
                        else:
                            self._finish()
                        return
        except Exception as exc:
            await self._fail(command, ticket, exc)
        finally:
            self.alarms.forget(self)
            self.delayed_turns.leave(self)

    def _alarm(self) -> float:
        """When the alarms wake the room: its wake-up time, or sooner its delayed tiers'
        next action's -- once due, it waits for its turn (:class:`Turns`), and then for the
        budget."""
        turns = self.delayed_turns
        if self._delayed_at > trio.current_time():  # (INF: none)
            turns.leave(self)
            return min(self._wake_at, self._delayed_at)
        turns.ask(self)
        if turns.has_turn(self):
            return min(self._wake_at, turns.budget.ready_at())
        return self._wake_at

    def turn_came(self) -> None:
        """Its delayed tiers' turn came (:class:`~server.rooms.budget.Turns`): it wakes
        when the budget allows."""
        self.alarms.set(self, self._alarm())

    def wake(self) -> None:
        """The room's wake-up time has come (:class:`~server.rooms.alarms.Alarms`)."""
        self.notify(Tick())

    def stop(self) -> None:
        """The server is stopping: end the room task without output (the game is stored and
        goes on after a restart)."""
        self._stopped = True
        self.notify(Shutdown())  # handled by the room task, after what is queued before it
        self._send.close()

    def _finish(self) -> None:
        self._send.close()
        self._drain()
        self._closed(self)

    def _drain(self) -> None:
        """Answer every queued command: the room is gone."""
        if self._held is not None:
            (_command, ticket), self._held = self._held, None
            if ticket is not None:
                ticket.finish(None)
        while True:
            try:
                _command, ticket = self._receive.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                return
            if ticket is not None:
                ticket.finish(None)

    def _told_faults(self, faults: list[QueryFault]) -> None:
        """Read-only questions that raised: each logged under a new incident id and its
        asker told so; the room goes on (the question changed nothing)."""
        for fault in faults:
            incident = new_incident("query")
            log.error("room %s couldn't %s (incident %s); its game goes on", self.room_id,
                      fault.what, incident, exc_info=fault.error)
            self._deliver([(fault.conn, error_bytes(
                mpb.ERROR_CODE_INTERNAL,
                f"the server couldn't {fault.what} (incident {incident}); the game goes on",
                fault.rid, incident))])

    async def _fail(self, command: Command, ticket: Ticket | None, exc: Exception) -> None:
        if isinstance(exc, StoreUnwritableError):
            self._unstored(command, ticket, exc)
            return
        incident = new_incident("room")
        trace = "".join(traceback.format_exception(exc))
        self.failed = incident
        log.error("room %s failed (incident %s) handling %s", self.room_id, incident,
                  describe(command, self.room), exc_info=exc)
        conns = self.room.connections()
        self.room.closed = True
        self._send.close()
        self.relay.close_room(self.room_id)  # its spectators are told directly, below
        message = error_bytes(
            mpb.ERROR_CODE_INTERNAL,
            f"this room failed and was closed (incident {incident}); other games are "
            f"unaffected", 0, incident)
        closed = mpb.ServerMessage(room_closed=mpb.RoomClosed(
            room_id=self.room_id, reason=f"internal error, incident {incident}")
        ).SerializeToString()
        self._deliver([(conn, data) for conn in conns for data in (message, closed)])
        self._released(self, conns)
        if ticket is not None:  # the command it failed on is answered as never handled
            ticket.finish(None)
        self._drain()
        self._closed(self)
        if self.room.game is not None:
            # (A store that can't be written now records it once it can: until then, a
            # stop reloads the game at the next start as it was last stored.)
            await self.writer.write_when_possible(
                [AbortGame(self.room_id, f"incident {incident}\n{trace}")],
                f"room {self.room_id}'s failure (incident {incident})")

    def _unstored(self, command: Command, ticket: Ticket | None,
                  exc: StoreUnwritableError) -> None:
        """The room's last action couldn't be stored: the store can't be written (a full
        disk; logged once by the writer). Nothing about it left (invariant 6), so the room
        stops as a restart freezes it: its game stays stored as of its last stored action,
        not aborted, and comes back once the store can be written again (``stopped``:
        :meth:`Lobby.resume_stopped <server.rooms.lobby.Lobby.resume_stopped>`), or at the
        server's next start; its members are told so. (Held instead until the store could be
        written, its players' clocks would have run meanwhile.) A room of which nothing was
        stored yet (its game's start was the write refused) is gone. The member whose
        command it was handling (a move in flight) is told so under that command's request
        id, and nothing more (``Ticket.answered``: it got "the room closed" as well)."""
        self.failed = "unstored"
        back = self.stored
        if back:
            log.warning("room %s stopped: its last action couldn't be stored (%s); its game "
                        "is kept as last stored and comes back once the store can be "
                        "written", self.room_id, exc.reason)
        else:
            log.warning("room %s stopped: its game's start couldn't be stored (%s); nothing "
                        "of it is stored, so it is gone", self.room_id, exc.reason)
        conns = self.room.connections()
        self.room.closed = True
        self._send.close()
        self.relay.close_room(self.room_id)
        words = (
            f"the server can't save anything now ({exc.reason}), so this room stopped "
            f"before the last action took effect: its game, as last saved, comes back by "
            f"itself once the server can save again (its players still connected are "
            f"seated again)" if back else
            f"the server can't save anything now ({exc.reason}), so this room stopped "
            f"before its game started: nothing of it was saved")
        message = error_bytes(mpb.ERROR_CODE_INTERNAL, words, 0)
        asker, rid = getattr(command, "conn", None), getattr(command, "rid", 0)
        answered = ticket is not None and asker in conns
        answer = error_bytes(mpb.ERROR_CODE_INTERNAL, words, rid) if answered else message
        closed = mpb.ServerMessage(room_closed=mpb.RoomClosed(
            room_id=self.room_id,
            reason=f"the server can't save games now ({exc.reason}); the game comes back "
                   f"once it can" if back else
                   f"the server can't save games now ({exc.reason})")
        ).SerializeToString()
        self._deliver([(conn, data) for conn in conns
                       for data in (answer if answered and conn == asker else message, closed)])
        self._released(self, conns)
        if ticket is not None:
            ticket.answered = answered
            ticket.finish(None)
        self._drain()
        if back and self._stopped_unstored is not None:
            self._stopped_unstored(self)
        else:
            self._closed(self)
