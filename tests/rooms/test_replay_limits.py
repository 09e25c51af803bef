"""What a replay start costs, and who gets the server's replays when they are all taken
(a security tester's notes): a game's log is played and checked once, not at every start;
each client address's replays take at most their share of the replays' time; and a full
server ends the replay whose client has been quiet longest (two minutes at least) to make
room for a new one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server import replay as replay_module
from server.app import App, Limits
from server.replay_desk import ADDRESS_BURST, ADDRESS_SHARE, QUIET_SECONDS
from server.rooms.replaying import ReplayBudget
from server.store import Store
from tests.rooms.test_app_memory import MemorySocket, _hello, running_app
from tests.rooms.test_replay_app import _client, _control, _replay, _until, store_game
from tests.rooms.test_replay_other_rules import TAMPERED, _store


async def _client_at(app: App, name: str, address: str) -> MemorySocket:
    sock = MemorySocket(address=address)
    app.lobby.nursery.start_soon(app.handle_connection, sock)
    await sock.request(**_hello(name))
    return sock


def _inline_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stored games read on the event loop: the autojump clock takes a worker thread's work
    for idle time and jumps ahead (past the two minutes these tests count)."""
    async def inline(sync: Callable[..., object], *args: object, **_kw: object) -> object:
        return sync(*args)

    monkeypatch.setattr(trio.to_thread, "run_sync", inline)


def _count_applied(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the actions replays play (one entry each)."""
    applied: list[int] = []
    real = replay_module._apply

    def counting(*args: object) -> object:
        applied.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(replay_module, "_apply", counting)
    return applied


async def test_a_games_log_is_checked_once_not_at_every_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every ReplayRequest played the game's whole log before its first ReplayStatus (a
    34,000-action game: seconds a start, and four connections starting and stopping kept a
    stranger's start waiting 50 s): what the check found is kept per game."""
    async with running_app(tmp_path) as app:
        eve, _ = await _client(app, "Eve")
        actions = store_game(app.store, "g", ("a", "b"))
        applied = _count_applied(monkeypatch)
        for start in range(5):
            status = await eve.request(**_replay(room_id="g", public=True, paused=True,
                                                 start_turn=2))
            assert status.replay_status.turns >= 2 and status.replay_status.action > 0
            await _until(eve, "snapshot")
            assert (await eve.request(**_control(seek_turn=1))).HasField("replay_status")
            assert (await eve.request(**_control(stop=True))).replay_ended.stopped
            if start == 0:
                checked = len(applied)
                assert checked >= actions  # the first start plays it all
        # The later starts played only what their seeks needed: less than the log each.
        assert (len(applied) - checked) / 4 < actions


async def test_a_refusal_is_kept_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _store(tmp_path / "db.sqlite3")
    async with running_app(tmp_path) as app:
        eve, _ = await _client(app, "Eve")
        loads: list[str] = []
        real_load = app.store.load_game

        def load_game(room_id: str, *, actions: bool = True) -> object:
            if actions:
                loads.append(room_id)
            return real_load(room_id, actions=actions)

        monkeypatch.setattr(app.store, "load_game", load_game)
        applied = _count_applied(monkeypatch)
        for _ in range(3):
            for room_id, (_sql, said) in TAMPERED.items():
                reply = await eve.request(**_replay(room_id=room_id, public=True))
                assert reply.error.code == mpb.ERROR_CODE_GAME_OVER, (room_id, reply)
                assert said in reply.error.message
        assert sorted(loads) == sorted(TAMPERED)  # each log read once
        first = len(applied)
        reply = await eve.request(**_replay(room_id="otherwise", public=True))
        assert reply.error.code == mpb.ERROR_CODE_GAME_OVER
        assert len(applied) == first  # and not played again


async def test_one_address_replays_within_its_share_then_is_told_when_to_try_again(
        tmp_path: Path, autojump_clock: trio.testing.MockClock,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A start's work (reading and checking the log, the starting point) is charged to its
    client address; an address over its share is refused, RATE_LIMITED, with when to try
    again -- another address is not."""
    _inline_threads(monkeypatch)
    async with running_app(tmp_path) as app:
        desk = app.replay_desk
        eve = await _client_at(app, "Eve", "10.0.0.1")
        dee = await _client_at(app, "Dee", "10.0.0.2")
        store_game(app.store, "g", ("a", "b"))
        assert (await eve.request(**_replay(room_id="g", public=True, paused=True))
                ).HasField("replay_status")
        assert (await eve.request(**_control(stop=True))).replay_ended.stopped
        spent = desk._address("10.0.0.1")
        assert spent.spent > 0  # the start was charged to Eve's address
        spent.charge(ADDRESS_BURST + 3.0)  # (as if it had checked a few very long logs)
        refused = await eve.request(**_replay(room_id="g", public=True, paused=True))
        assert refused.error.code == mpb.ERROR_CODE_RATE_LIMITED, refused
        wait = float(refused.error.message.rsplit("again in ", 1)[1].split(" s")[0])
        assert 3.0 / ADDRESS_SHARE * 0.9 <= wait <= 3.0 / ADDRESS_SHARE * 1.1 + 1
        assert (await dee.request(**_replay(room_id="g", public=True, paused=True))
                ).HasField("replay_status")
        await trio.sleep(wait + 0.5)
        assert (await eve.request(**_replay(room_id="g", public=True, paused=True))
                ).HasField("replay_status")


class WorkClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_an_address_over_its_share_waits_outside_the_others_turns(
        autojump_clock: trio.testing.MockClock) -> None:
    """Two addresses' replays working as fast as they can: the one that spent its share
    waits, the other's go on at the replays' whole share."""
    work = WorkClock()
    budget = ReplayBudget(share=0.25, burst=0.01, work_clock=work)
    greedy = budget.address_budget(0.05, 0.01)
    other = budget.address_budget(0.2, 0.01)
    done = {"greedy": 0, "other": 0}

    async def replay(name: str, mine: object) -> None:
        while True:
            async with budget.turn(mine):  # type: ignore[arg-type]
                work.now += 0.002
            done[name] += 1

    async with trio.open_nursery() as nursery:
        for _ in range(4):
            nursery.start_soon(replay, "greedy", greedy)
        nursery.start_soon(replay, "other", other)
        await trio.sleep(100)
        nursery.cancel_scope.cancel()
    # Over 100 s: the greedy address ~5 s of work (2,500 slices) for its 4 replays, the other
    # address ~20 s (10,000): without the address's budget they took turns, 4 to 1.
    assert done["greedy"] * 0.002 == pytest.approx(0.05 * 100, rel=0.05)
    assert done["other"] * 0.002 == pytest.approx(0.2 * 100, rel=0.05)


async def test_a_full_server_ends_the_quietest_replay_for_a_new_one(
        tmp_path: Path, autojump_clock: trio.testing.MockClock,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """50 addresses x 4 slow replays held all the server's replays indefinitely (playing at
    0.01 actions a second never idles out; a paused one was kept by a control every 9
    minutes): with every replay taken, a new one ends the one whose client has been quiet
    longest, if for two minutes at least -- its client told why."""
    _inline_threads(monkeypatch)
    limits = replace(Limits(), max_replays=2)
    async with running_app(tmp_path, limits) as app:
        socks = [await _client_at(app, f"C{n}", f"10.0.1.{n}") for n in range(4)]
        store_game(app.store, "g", ("a", "b"))
        first, second, late, later = socks
        assert (await first.request(**_replay(room_id="g", public=True, speed=0.01))
                ).HasField("replay_status")
        await trio.sleep(10)
        assert (await second.request(**_replay(room_id="g", public=True, speed=0.01))
                ).HasField("replay_status")
        # Full, and nobody quiet long enough: refused.
        refused = await late.request(**_replay(room_id="g", public=True, paused=True))
        assert refused.error.code == mpb.ERROR_CODE_LIMIT_REACHED
        await trio.sleep(QUIET_SECONDS - 40)
        await first.request(**_control(speed=0.02))  # the first one's client steers it
        await trio.sleep(30)  # the second: quiet QUIET_SECONDS - 10 s, the first 30 s
        refused = await late.request(**_replay(room_id="g", public=True, paused=True))
        assert refused.error.code == mpb.ERROR_CODE_LIMIT_REACHED
        await trio.sleep(10)
        started = await late.request(**_replay(room_id="g", public=True, paused=True))
        assert started.HasField("replay_status"), started
        told = await _until(second, "error")
        assert told.request_id == 0 and told.error.code == mpb.ERROR_CODE_LIMIT_REACHED
        assert "to make room" in told.error.message
        ended = await _until(second, "replay_ended")
        assert ended.replay_ended.stopped and ended.request_id == 0
        assert app.replay_desk.running == 2
        # The ended one's connection is back in the lobby: it may ask again (and is refused:
        # nobody else has been quiet two minutes).
        refused = await second.request(**_replay(room_id="g", public=True, paused=True))
        assert refused.error.code == mpb.ERROR_CODE_LIMIT_REACHED
        refused = await later.request(**_replay(room_id="g", public=True, paused=True))
        assert refused.error.code == mpb.ERROR_CODE_LIMIT_REACHED
        assert app.replay_desk.running == 2 and len(app.replay_desk.by_address) == 2


def test_the_kept_checks_are_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the checks found is kept within CHECKED_BYTES, the least recently used
    forgotten."""
    from server import replay_desk
    from server.replay import ReplayError
    monkeypatch.setattr(replay_desk, "CHECKED_BYTES", 10_000)
    store = Store(tmp_path / "db.sqlite3")
    try:
        desk = replay_desk.ReplayDesk(store, max_replays=4, outbox_size=10)
        for n in range(100):
            desk._check_found(f"g{n}", list(range(200)))  # ~900 bytes each
            desk._check_found("refused", ReplayError(mpb.ERROR_CODE_GAME_OVER, "no"))
        assert desk._checked_bytes <= 10_000
        assert "refused" in desk._checked and "g99" in desk._checked
        assert "g0" not in desk._checked and len(desk._checked) < 15
        assert desk._checked_bytes == sum(replay_desk._checked_bytes(v)
                                          for v in desk._checked.values())
    finally:
        store.close()
