"""A room's chess clocks: each seat's time bank for the game, the one clock that runs (the
deciding player's), and the ``Clocks`` message members see. Sans-I/O like the room that
owns it (:class:`server.rooms.room.Room`): every method takes the current time."""

from __future__ import annotations

from dataclasses import dataclass

from protocol.v1 import messages_pb2 as mpb


@dataclass(slots=True)
class ChessClocks:
    """Each seat's remaining seconds, and which clock runs since when."""

    remaining: list[float]
    #: The seat whose clock runs, and since when (None: none runs).
    running: tuple[int, float] | None = None
    #: The last ``Clocks`` message built, and what it showed.
    _cache: tuple[tuple[tuple[int, bool], ...], bytes] | None = None

    @classmethod
    def fresh(cls, seats: int, seconds: float) -> ChessClocks:
        """Every seat with a full bank, no clock running (a new game's)."""
        return cls([seconds] * seats)

    @property
    def running_seat(self) -> int | None:
        """The seat whose clock runs (None: none)."""
        return self.running[0] if self.running is not None else None

    def charge(self, now: float) -> None:
        """Charge the time spent to the player who was deciding; no clock runs now."""
        if self.running is not None:
            seat, since = self.running
            self.remaining[seat] = max(0.0, self.remaining[seat] - (now - since))
            self.running = None

    def start(self, seat: int | None, now: float) -> None:
        """Charge the clock that ran, then run ``seat``'s (None: none, the game is over)."""
        self.charge(now)
        if seat is not None:
            self.running = (seat, now)

    def runs_out_at(self) -> float | None:
        """When the running clock reaches zero (None: none runs)."""
        if self.running is None:
            return None
        seat, since = self.running
        return since + self.remaining[seat]

    def ran_out(self, now: float) -> int | None:
        """The seat whose clock ran out by ``now`` (stopped, at zero), or None."""
        out_at = self.runs_out_at()
        if out_at is None or now < out_at:
            return None
        seat = self.running_seat
        assert seat is not None
        self.charge(now)
        self.remaining[seat] = 0.0
        return seat

    def message(self, now: float) -> bytes:
        """The ``Clocks`` message at time ``now`` (serialized ServerMessage; built again
        only when a clock shows another millisecond or another clock runs)."""
        running = self.running
        shown = []
        for seat, bank in enumerate(self.remaining):
            ticking = running is not None and running[0] == seat
            left = max(0.0, bank - (now - running[1])) if running is not None and ticking \
                else bank
            shown.append((round(left * 1000), ticking))
        key = tuple(shown)
        cached = self._cache
        if cached is not None and cached[0] == key:
            return cached[1]
        data = mpb.ServerMessage(clocks=mpb.Clocks(seats=[
            mpb.ClockState(seat=seat, remaining_ms=ms, running=ticking)
            for seat, (ms, ticking) in enumerate(shown)])).SerializeToString()
        self._cache = (key, data)
        return data
