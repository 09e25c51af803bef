"""Replays of games with huge decks never hold the event loop long (a security tester's
finding: 8 seats with 1,000-card decks made one piece of a replay's work -- its build, a
backward seek, one omniscient step -- 70-230 ms long, and every room on the server waited).

Checked by structure, not by time: every piece of a replay's work between two checkpoints --
building the game and the view, each action, seeks, snapshots; for a seat, the spectators
and the omniscient class -- projects at most a constant number of objects
(:data:`~server.view.omniscient.OBJECTS_PER_YIELD`) and calls the engine at most once,
whatever the size of the decks; and the frames are still byte for byte what the live
classes received (seats, public) or what the full projection's difference gave (omniscient).
"""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any, TypeVar

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.decks import DeckFormat, resolve
from server.engine import PlayerSetup, apply, new_game
from server.engine.actions import Action, Concede, PassPriority
from server.replay import OMNISCIENT, PUBLIC, Replay
from server.rooms import replaying
from server.store import Store
from server.store.records import AppendAction, CreateGame, FinishGame, GameRecord
from server.view.encode import encode_view, view_hash
from server.view.omniscient import OBJECTS_PER_YIELD, OmniscientStream
from server.view.pipeline import ViewPipeline
from tests.rooms.test_app_memory import MemorySocket, _hello, running_app

# (server.view re-exports a function named ``project``: the module itself, by its name)
project_module = importlib.import_module("server.view.project")
replay_module = importlib.import_module("server.replay")

T = TypeVar("T")
SEATS = 8
#: Cards per deck: a small deck, and the largest a deck list may have (MAX_DECK_CARDS).
SMALL, BIG = 60, 1000
VIEWERS = (0, 5, PUBLIC, OMNISCIENT)
#: Objects a seat's or the spectators' piece projects at most in these games: what one action
#: showed them (a hand drawn), never a library.
SEAT_OBJECTS = 16


def deck_text(size: int) -> str:
    """A legal constructed deck of ``size`` cards: Forests and three kinds of creature."""
    lands, lines = size - 12, []
    while lands > 0:
        lines.append(f"{min(250, lands)} Forest")
        lands -= min(250, lands)
    return "\n".join([*lines, "4 Trufflesnout", "4 Pridemalkin", "4 Sporeweb Weaver"])


@functools.cache
def played(size: int, actions: int = 240) -> tuple[GameRecord, dict[int, list[bytes]]]:
    """A finished game of :data:`SEATS` players with ``size``-card decks (random choices,
    mostly not passing; then all but the last concede), stored as a room stores it -- and
    what each live view class (seats, spectators) received: the start's snapshot, then its
    deltas."""
    text = deck_text(size)
    deck = resolve(text, DeckFormat.CONSTRUCTED)
    seed = bytes([size % 251]) * 32
    game = new_game(seed, [PlayerSetup(f"P{i}", deck.main, deck.sideboard)
                           for i in range(SEATS)])
    pipeline = ViewPipeline(game)  # every seat and the spectators, as a room
    live = {viewer: [stream.snapshot(f"big{size}")]
            for viewer, stream in pipeline.streams.items()}
    log: list[tuple[int, Action]] = []

    def act(seat: int, action: Action) -> None:
        events = apply(game, seat, action)
        log.append((seat, action))
        for viewer, _prev, data in pipeline.advance(game, action, events):
            live[viewer].append(data)

    rng = random.Random(size)
    while game.result is None and len(log) < actions:
        pending = game.pending
        assert pending is not None
        moves = [o for o in pending.options if not isinstance(o, PassPriority)]
        act(pending.seat, rng.choice(moves) if moves and rng.random() < 0.7
            else rng.choice(pending.options))
    for seat in range(SEATS - 1):
        if game.result is None and not game.players[seat].has_lost:
            act(seat, Concede())
    assert game.result is not None
    record = GameRecord(f"big{size}", "big", seed, [(f"P{i}", text, f"s{i}")
                                                    for i in range(SEATS)], log,
                        {"winners": list(game.result.winners)})
    return record, live


#: Actions of the big game whose omniscient deltas are checked against the full projection's
#: difference (each costs a projection of 8,000 objects): its start, mulligans and first
#: turns -- every library shuffled, seven cards drawn by each. The view hash after the
#: last action is checked against a full projection too.
CHECKED = {SMALL: 10_000, BIG: 40}


@functools.cache
def omniscient_frames(size: int) -> tuple[list[bytes], bytes]:
    """The omniscient class's snapshot and deltas up to action ``CHECKED[size]`` as the full
    projection's difference makes them (:class:`OmniscientStream`, which replays used
    before), and the view hash of the full projection at the game's end."""
    record, _live = played(size)
    replay = Replay(record, 0)  # (only for its decks)
    game = new_game(record.seed, replay._setups, chooser=record.chooser)
    stream = OmniscientStream.start(game)
    sent = [stream.snapshot(record.room_id)]
    for n, (seat, action) in enumerate(record.actions, start=1):
        events = apply(game, seat, action)
        if n > CHECKED[size]:
            continue
        data = stream.advance(game, None, events)
        if data is not None:
            sent.append(data)
    return sent, view_hash(encode_view(project_module.project(game, OMNISCIENT)))


@functools.cache
def half_way(size: int, viewer: int) -> tuple[bytes, bytes]:
    """A fresh replay of the game played for ``viewer``, sought forward to the middle: its
    snapshot, and its snapshot answering request 3 (made once a process for the two tests
    that compare with it)."""
    record, _live = played(size)
    there = Replay(record, viewer)
    there.seek(len(record.actions) // 2)
    return there.snapshot(), there.snapshot(3)


def check_frames(size: int, viewer: int, sent: list[bytes]) -> None:
    """``sent`` (the snapshot at the start, then every delta) is what the class received
    live (seats, spectators) or what the full projection's difference gives (omniscient)."""
    _record, live = played(size)
    if viewer != OMNISCIENT:
        assert sent == live[viewer]
        return
    want, last_hash = omniscient_frames(size)
    assert sent[:len(want)] == want
    assert len(sent) >= len(want)
    assert mpb.ServerMessage.FromString(sent[-1]).delta.view_hash == last_hash


class Pieces:
    """Counts, for each piece of work (:meth:`cut` ends one), the objects projected
    (:func:`server.view.project._object_view`: every view of an object is built there) and
    the engine calls made (``new_game``, ``apply``); keeps the most of each."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.objects = self.engine = 0
        self.most_objects = self.most_engine = 0
        self.pieces = 0
        real_view = project_module._object_view

        def view(*args: Any, **kwargs: Any) -> Any:
            self.objects += 1
            return real_view(*args, **kwargs)

        monkeypatch.setattr(project_module, "_object_view", view)
        for name in ("apply", "new_game"):
            monkeypatch.setattr(replay_module, name, self._engine(getattr(replay_module, name)))

    def _engine(self, call: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.engine += 1
            return call(*args, **kwargs)
        return counted

    def cut(self) -> None:
        self.most_objects = max(self.most_objects, self.objects)
        self.most_engine = max(self.most_engine, self.engine)
        self.objects = self.engine = 0
        self.pieces += 1

    def run(self, steps: Generator[None, None, T]) -> T:
        """Run a generator of work, each piece (up to a yield) counted on its own."""
        while True:
            self.cut()
            try:
                next(steps)
            except StopIteration as done:
                self.cut()
                result: T = done.value
                return result


def _bound(viewer: int) -> int:
    return OBJECTS_PER_YIELD if viewer == OMNISCIENT else SEAT_OBJECTS


@pytest.mark.parametrize("size", [SMALL, BIG])
@pytest.mark.parametrize("viewer", VIEWERS)
def test_every_piece_of_a_replay_projects_a_bounded_number_of_objects(
        monkeypatch: pytest.MonkeyPatch, size: int, viewer: int) -> None:
    """Build, play to the end, seek back to the middle, snapshot: each piece projects at most
    a few objects and calls the engine at most once, with 1,000-card decks as with 60 --
    and the frames are what the class received live."""
    record, _live = played(size)
    pieces = Pieces(monkeypatch)
    replay = Replay(record, viewer, start=False)
    pieces.run(replay.seek_steps(0))
    sent = [pieces.run(replay.snapshot_steps())]
    pieces.run(replay.index_steps())
    hashes = {0: replay.view_hash}
    while not replay.at_end:
        frame = pieces.run(replay.step_steps())
        hashes[frame.action] = frame.view_hash
        if frame.message is not None:
            sent.append(frame.message)
    half = replay.actions // 2
    pieces.run(replay.seek_steps(half))  # backward: the game made again, in pieces
    snapshot = pieces.run(replay.snapshot_steps())
    # (both at once: the old code had 2 engine calls and 8,000 objects in one piece)
    assert (pieces.most_engine, pieces.most_objects <= _bound(viewer)) == (1, True), \
        (pieces.most_engine, pieces.most_objects)
    check_frames(size, viewer, sent)
    assert replay.position == half and replay.view_hash == hashes[half]
    assert snapshot == half_way(size, viewer)[0]  # as a fresh replay played to there


def test_a_piece_of_work_left_half_done_is_done_again() -> None:
    """A step or a seek abandoned between two pieces (its task cancelled) leaves the replay
    to be rebuilt: the next step or seek still gives the frames the class received."""
    record, _live = played(SMALL)
    want, _hash = omniscient_frames(SMALL)
    replay = Replay(record, OMNISCIENT)
    steps = replay.step_steps()
    for _ in range(3):  # the engine has played the first action, the view is half done
        next(steps)
    steps.close()
    assert replay.position == 0
    frames = [replay.step() for _ in range(30)]
    assert [f.action for f in frames] == list(range(1, 31))
    deltas = [f.message for f in frames if f.message is not None]
    assert deltas == want[1:1 + len(deltas)]
    seek = replay.seek_steps(5)  # backward: the game and its view made again...
    for _ in range(4):
        next(seek)
    seek.close()  # ...but left half way
    replay.seek(30)
    fresh = Replay(record, OMNISCIENT)
    fresh.seek(30)
    assert replay.snapshot() == fresh.snapshot()
    assert replay.step() == fresh.step()


class _StepCounter(trio.abc.Instrument):
    """Ends a :class:`Pieces` piece at every task step: the run of one task between two
    checkpoints, during which the event loop does nothing else."""

    def __init__(self, pieces: Pieces) -> None:
        self.pieces = pieces

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        self.pieces.cut()

    def after_task_step(self, task: trio.lowlevel.Task) -> None:
        self.pieces.cut()


def _store(store: Store, record: GameRecord, accounts: tuple[str, ...]) -> None:
    """Store a played game as its room would have."""
    ops: list[object] = [CreateGame(record.room_id, record.name, record.seed,
                                    tuple(record.players), 1800.0, accounts)]
    ops += [AppendAction(record.room_id, n, seat, action, (1.0,) * SEATS)
            for n, (seat, action) in enumerate(record.actions, start=1)]
    winners = record.result["winners"] if record.result else []
    assert isinstance(winners, list)
    ops.append(FinishGame(record.room_id, tuple(winners), "conceded"))
    store.apply(ops)  # type: ignore[arg-type]


@pytest.mark.parametrize("viewer", [0, OMNISCIENT])
async def test_a_served_replay_of_huge_decks_checkpoints_between_bounded_pieces(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        autojump_clock: trio.testing.MockClock, viewer: int) -> None:
    """A whole replay of a game of 8 x 1,000-card decks over the protocol -- started, played
    as fast as possible to the end, sought back to the middle, a snapshot asked for, stopped
    -- and no step of any task of the server's event loop (the run of one task between two
    checkpoints, while every room waits) projects more than a few objects or calls the
    engine twice; the client gets the frames the class received live."""
    record, _live = played(BIG)
    if viewer == OMNISCIENT:
        omniscient_frames(BIG)  # (the expected frames, made before counting)
    half = len(record.actions) // 2
    monkeypatch.setattr(replaying, "SLICE_SECONDS", 0.0)  # a slice: one piece of work
    got: list[mpb.ServerMessage] = []
    raw: list[bytes] = []

    async def until(body: str, request_id: int = 0) -> None:
        while not (got and got[-1].WhichOneof("body") == body
                   and got[-1].request_id == request_id):
            raw.append(await ann.from_server.receive())
            got.append(mpb.ServerMessage.FromString(raw[-1]))

    async with running_app(tmp_path) as app:
        ann = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, ann)
        ann_id = (await ann.request(**_hello("Ann"))).welcome.account.account_id
        _store(app.store, record, (ann_id,) + ("",) * (SEATS - 1))
        pieces = Pieces(monkeypatch)
        counter = _StepCounter(pieces)
        trio.lowlevel.add_instrument(counter)
        try:
            perspective: dict[str, object] = {"omniscient": True} if viewer == OMNISCIENT \
                else {"seat": viewer}
            await ann.to_server.send(mpb.ClientMessage(request_id=1, replay=mpb.ReplayRequest(
                room_id=record.room_id, speed=0, **perspective)).SerializeToString())  # type: ignore[arg-type]
            await until("replay_ended")
            end = len(got)
            await ann.to_server.send(mpb.ClientMessage(request_id=2, replay_control=(
                mpb.ReplayControl(seek_action=half))).SerializeToString())
            await until("snapshot")
            await ann.to_server.send(mpb.ClientMessage(
                request_id=3, request_snapshot=mpb.RequestSnapshot()).SerializeToString())
            await until("snapshot", 3)
            await ann.to_server.send(mpb.ClientMessage(request_id=4, replay_control=(
                mpb.ReplayControl(stop=True))).SerializeToString())
            await until("replay_ended", 4)
        finally:
            trio.lowlevel.remove_instrument(counter)
    assert (pieces.most_engine, pieces.most_objects <= _bound(viewer)) == (1, True), \
        (pieces.most_engine, pieces.most_objects)
    assert [m.WhichOneof("body") for m in got[:2]] == ["replay_status", "snapshot"]
    check_frames(BIG, viewer, [data for data, m in zip(raw[:end], got, strict=False)
                               if m.WhichOneof("body") in ("snapshot", "delta")])
    there, asked = half_way(BIG, viewer)  # a fresh replay played to the middle
    assert raw[end:][-3] == there  # after the seek
    assert raw[end:][-2] == asked  # asked for
