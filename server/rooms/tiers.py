"""Delayed spectator tiers (protocol/README.md, "Spectator tiers"). No I/O, no clock.

A delayed tier is one view class -- a delayed public view, one seat's view, or the
:data:`~server.view.omniscient.EVERY_HAND` view (every hand and every look) -- shown a while
after the game. Its stream never holds the live state: it runs on a *replica* of the game
that lags behind the live one. Each live action is held with the time it was played and the
turn it ended in; once its delay has passed (the room's clock, passed in as ``now``) the
replica applies it and the class's stream computes its delta, encoded once for all the
tier's sockets (every kind through a :class:`~server.view.pipeline.ViewPipeline` of its one
class, as the live room's classes: the work per action is what the action changed). So the
class's view *is* the state at the release point: a joining or
resyncing spectator gets a snapshot of exactly that, and nothing the class could send --
snapshot, delta, event -- can come from a later state. The replica is deterministic from the
seed and actions (invariant 3), so its state ids, ops and hashes are the ones an undelayed
stream of the class would have had. Cost: one more engine ``apply`` and one more stream step
per action per tier.

A match of several games goes on in the same tier: the start of the next game is held like an
action (:meth:`DelayedClass.hold_game`), and once due the replica becomes that game and its
spectators get the new game's snapshot; the room's match announcements are held alongside
(:meth:`DelayedClass.hold_message`), so they arrive in step with the delayed view.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import assert_never

from server.engine import Game, PlayerSetup, apply, new_game
from server.engine.actions import Action
from server.rooms.commands import INF
from server.store.records import SpectatorTier, TierKind
from server.view.pipeline import ViewPipeline
from server.view.project import EVERY_HAND, SPECTATOR
from server.view.stream import ViewStream, opening_events


def _viewer(tier: SpectatorTier) -> int:
    """The view class ``tier`` shows."""
    match tier.kind:
        case TierKind.PUBLIC:
            return SPECTATOR
        case TierKind.OMNISCIENT:
            return EVERY_HAND
        case TierKind.PLAYER:
            return tier.seat
        case _:
            assert_never(tier.kind)


#: The seat of a held message that is no match announcement (:meth:`DelayedClass.hold_notice`).
_NOTICE = -2


@dataclass(frozen=True, slots=True)
class _NextGame:
    """The live room started the next game of its match."""

    seed: bytes
    setups: tuple[PlayerSetup, ...]
    chooser: int | None
    first_state_id: int


@dataclass(frozen=True, slots=True)
class _Held:
    seat: int
    #: An action of the live game, the start of its next game, or a message to pass on.
    action: Action | _NextGame | bytes
    #: When the live game applied it, and the live game's turn after it.
    at: float
    turn: int
    #: Which of the match's games it belongs to (1-based).
    game: int = 1


class DelayedClass:
    """One delayed tier's view class: a lagging replica of the game, the live actions it
    has not applied yet, its stream and its recent deltas (for resuming spectators)."""

    def __init__(self, tier: SpectatorTier, seed: bytes, setups: Sequence[PlayerSetup],
                 history: int, *, chooser: int | None = None, first_state_id: int = 1,
                 room_id: str = "") -> None:
        self.tier = tier
        self.room_id = room_id
        self._held: deque[_Held] = deque()
        #: (prev_state_id, state_id, serialized Delta message) of the last deltas.
        self.history: deque[tuple[int, int, bytes]] = deque(maxlen=history)
        #: (state_id, serialized event) of the events that told how the shown game began
        #: (:func:`~server.view.stream.opening_events`, as a live view class keeps them).
        self.opening: list[tuple[int, bytes]] = []
        #: The live game's number in its match, and the one this tier shows.
        self._live_game = self.shown_game = 1
        #: The last match announcement this tier passed on (sent after its snapshots).
        self.match: bytes | None = None
        #: The last notice it passed on -- where the rematch is -- (sent after its
        #: snapshots too: a spectator who joins later learns it as the others did).
        self.notice: bytes | None = None
        self._start(seed, setups, chooser, first_state_id)

    def _start(self, seed: bytes, setups: Sequence[PlayerSetup], chooser: int | None,
               first_state_id: int) -> None:
        """The replica becomes a new game, its stream starting at ``first_state_id``."""
        self.game: Game = new_game(seed, list(setups), chooser=chooser)
        self.history.clear()
        self.opening = []
        viewer = _viewer(self.tier)
        self._pipeline = ViewPipeline(self.game, [viewer], first_state_id=first_state_id)
        self.stream: ViewStream = self._pipeline.streams[viewer]

    @property
    def held(self) -> int:
        """Live actions not shown yet."""
        return len(self._held)

    def holds_game(self, game_number: int) -> bool:
        """Whether something of game ``game_number`` of the match (or of an earlier one) is
        still to be shown: its actions, its end's announcement."""
        return bool(self._held) and self._held[0].game <= game_number

    def hold(self, seat: int, action: Action, now: float, turn: int) -> None:
        """The live game applied ``action`` at ``now`` and is at ``turn`` after it."""
        self._held.append(_Held(seat, action, now, turn, self._live_game))

    def hold_game(self, seed: bytes, setups: Sequence[PlayerSetup], now: float, *,
                  chooser: int | None, first_state_id: int) -> None:
        """The live room started the next game of its match at ``now``: show it once due."""
        self._live_game += 1
        self._held.append(_Held(-1, _NextGame(seed, tuple(setups), chooser, first_state_id),
                                now, 0, self._live_game))

    def hold_message(self, data: bytes, now: float, turn: int) -> None:
        """A match announcement (serialized ServerMessage) made at ``now``: pass it on
        when the view has caught up with the moment it was made."""
        self._held.append(_Held(-1, data, now, turn, self._live_game))

    def hold_notice(self, data: bytes, now: float, turn: int) -> None:
        """A message (serialized ServerMessage) that isn't the match's state -- where the
        rematch is -- made at ``now``: passed on as :meth:`hold_message`'s."""
        self._held.append(_Held(_NOTICE, data, now, turn, self._live_game))

    def _due(self, held: _Held, live_turn: int, over: bool) -> float:
        """When ``held`` may be shown (INF: not before the live game's turn moves on).
        Once its game is over (the live one, or an earlier game of the match) no turn is
        left to wait for: the seconds still count."""
        if not over and held.game == self._live_game and \
                live_turn < held.turn + self.tier.delay_turns:
            return INF
        return held.at + self.tier.delay_seconds

    def wake_at(self, live_turn: int, over: bool) -> float:
        """When the next held action is due (INF: none, or only a turn can release it)."""
        return self._due(self._held[0], live_turn, over) if self._held else INF

    def release(self, now: float, live_turn: int, over: bool, limit: int | None = None
                ) -> list[bytes]:
        """Apply every held action that is due at ``now`` -- at most ``limit`` of them (None:
        all); the class's deltas, in order."""
        sent: list[bytes] = []
        for _ in range(len(self._held) if limit is None else min(limit, len(self._held))):
            held = self._held[0]
            if self._due(held, live_turn, over) > now:
                break
            self._held.popleft()
            if isinstance(held.action, bytes):
                if held.seat != _NOTICE:
                    self.match = held.action
                else:
                    self.notice = held.action
                sent.append(held.action)
                continue
            if isinstance(held.action, _NextGame):
                start = held.action
                self._start(start.seed, start.setups, start.chooser, start.first_state_id)
                self.shown_game = held.game
                sent.append(self.stream.snapshot(self.room_id))
                continue
            events = apply(self.game, held.seat, held.action)
            for _viewer, prev, data in self._pipeline.advance(self.game, held.action, events):
                self.history.append((prev, self.stream.state_id, data))
                self.opening.extend((self.stream.state_id, e)
                                    for e in opening_events(events, data))
                sent.append(data)
        return sent


def release_in_turn(tiers: Sequence[DelayedClass], now: float, live_turn: int, over: bool,
                    limit: int) -> list[tuple[int, bytes]]:
    """Play at most ``limit`` of the held actions due at ``now``, one per tier in turn
    (tier numbers from 1); each tier's deltas, as (tier, message), in order."""
    sent: list[tuple[int, bytes]] = []
    left = limit
    while left > 0:
        released = False
        for n, delayed in enumerate(tiers, start=1):
            if left > 0 and delayed.wake_at(live_turn, over) <= now:
                sent.extend((n, data) for data in delayed.release(now, live_turn, over, 1))
                released, left = True, left - 1
        if not released:
            break
    return sent
