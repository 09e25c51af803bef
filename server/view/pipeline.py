"""A served game's view classes, without any I/O: what a room does on start, after every
action and whenever a seat must decide. One :class:`~server.view.track.GameTracker` finds
what changed once per action; one :class:`~server.view.stream.ViewStream` per seat and one
for spectators turns that into the class's numbered delta (invariant 4: encoded once per view
class). Used by the room (:mod:`server.rooms.room`) and by ``manawire sim``, so a simulation
encodes exactly what a served game would."""

from __future__ import annotations

from collections.abc import Sequence

from protocol.v1 import messages_pb2 as mpb
from server.engine import Game
from server.engine.actions import Action
from server.engine.events import Event
from server.view.encode import decision_for
from server.view.project import SPECTATOR
from server.view.stream import ViewStream
from server.view.track import GameTracker


class ViewPipeline:
    """Every view class's stream of one game."""

    def __init__(self, game: Game, viewers: Sequence[int] | None = None, *,
                 first_state_id: int = 1) -> None:
        """``viewers``: the view classes to stream (default: every seat and spectators,
        as a room does; a replay streams one). ``first_state_id``: every class's state id
        at the start (a later game of a match goes on from the ids of the earlier ones)."""
        self.tracker = GameTracker()
        step = self.tracker.step(game).number
        classes = [*range(len(game.players)), SPECTATOR] if viewers is None else viewers
        self.streams = {seat: ViewStream.start(game, seat, step) for seat in classes}
        for stream in self.streams.values():
            stream.state_id = first_state_id

    def advance(self, game: Game, action: Action, events: list[Event]
                ) -> list[tuple[int, int, bytes]]:
        """After ``action``: ``(view class, previous state id, serialized Delta)`` for each
        class whose view changed (or that may learn of one of its ``events``)."""
        changes = self.tracker.step(game, action)
        sent = []
        for seat, stream in self.streams.items():
            prev = stream.state_id
            data = stream.advance(game, changes, events)
            if data is not None:
                sent.append((seat, prev, data))
        return sent

    def decision(self, game: Game, seat: int, room_id: str) -> bytes | None:
        """The pending decision as a serialized ``ServerMessage`` if it is ``seat``'s,
        encoded against that seat's current view (its options name only what it sees)."""
        pending = game.pending
        if pending is None or pending.seat != seat or seat == SPECTATOR:
            return None
        stream = self.streams[seat]
        # Checked against the stream's objects and waiting triggers (the whole view isn't
        # needed: its players are never named by an option).
        message = decision_for(pending, seat, stream.objects, stream.header.triggers,
                               room_id=room_id, state_id=stream.state_id, game=game)
        return mpb.ServerMessage(decision=message).SerializeToString()
