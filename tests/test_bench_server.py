"""``manawire bench-server``: a tiny real run (server, driver and echo baseline as
subprocesses on 127.0.0.1) checked for sane figures, and the driver's frame handling --
batched (``ServerBatch``) and plain -- on hand-made frames."""

from __future__ import annotations

import argparse
import gc
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, cast

import pytest
import trio
import trio.testing
from websockets.trio.client import ClientConnection

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.benchload import bench, procs
from server.benchload.baselines import EngineConfig, run_engine
from server.benchload.driver import (
    STALL_SECONDS,
    Conn,
    GameConfig,
    GameDriver,
    Table,
    Window,
    decode_frame,
    freeze_setup,
)
from server.benchload.procs import CpuMeter, ServerProcess, Target, cpu_ns, port_owner
from server.rooms.room import demo_deck_for_seat
from server.rooms.session import error_bytes
from server.sim import SimOptions, play_game

ROOT = Path(__file__).resolve().parents[1]


def _bench(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    # Its own process group: on a timeout the whole group goes (server, driver, echo).
    # ``env``: more environment for it and the servers it starts.
    return subprocess.Popen([sys.executable, "-m", "server.benchload", "bench-server", *args],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True,
                            env={**os.environ, **env} if env else None)


def _lines(proc: subprocess.Popen[str]) -> list[dict[str, Any]]:
    try:
        out, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raise AssertionError(f"bench-server did not finish: {err[-2000:]}") from None
    assert proc.returncode == 0, err[-2000:] + out[-2000:]
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def _told(line: dict[str, Any]) -> dict[str, Any]:
    """What a run's errors were (pytest cuts a whole line's repr short)."""
    return {k: line.get(k) for k in ("errors", "error_examples", "failures", "leave_noops",
                                     "connections", "games_started", "games_completed")}

def test_tiny_benchmark_prints_sane_figures() -> None:
    # (windows of half a second: every field is there after a few dozen actions; the
    # figures' values are not what is checked)
    games = _bench("--rooms", "1,2", "--seconds", "0.5", "--warmup", "0.1")
    idle = _bench("--idle", "20", "--settle", "0.2")
    lines, idle_lines = _lines(games), _lines(idle)
    *runs, summary = lines
    assert [line["rooms"] for line in runs] == [1, 2]
    for line in runs:
        assert line["mode"] == "closed" and line["target"] == "current"
        assert "error" not in line and "echo_error" not in line, line
        assert line["actions"] > 0 and line["actions_per_s"] > 0
        assert 0 < line["p50_ms"] <= line["p99_ms"] <= line["p999_ms"]
        assert line["server_cpu_pct"] >= 0 and line["driver_cpu_pct"] >= 0
        assert line["server_rss_kb"] > 0
        assert line["bytes_per_action"] > 0 and line["frames_per_action"] > 0
        assert line["messages_per_action"] >= line["frames_per_action"]
        assert line["errors"] == {} and line["failures"] == {}, _told(line)
        assert line["connections"] == 2 * line["rooms"]
        assert line["echo_rate"] > 0 and 0 < line["echo_p50_ms"] <= line["echo_p99_ms"]
        assert line["p99_ratio"] > 0
        assert line["driver_gc_ms"] >= 0 and line["echo_driver_gc_ms"] >= 0
        assert line["driver_gc_longest_ms"] <= line["driver_gc_ms"] + 0.01
        # the run's engine baseline: the served games' pairing (the demo decks dealt to
        # the first two seats), once per run
        assert "engine_error" not in line, line
        assert line["engine_decks"] == f"{demo_deck_for_seat(0)}+{demo_deck_for_seat(1)}"
        assert line["engine_games"] >= 1 and line["engine_actions_per_s"] > 0
        assert line["served_vs_engine"] == round(
            line["actions_per_s"] / line["engine_actions_per_s"], 3)
    assert runs[0]["engine_actions"] == runs[1]["engine_actions"]  # one baseline per run
    assert summary["summary"] is True and summary["mode"] == "closed"
    assert [row["rooms"] for row in summary["results"]] == [1, 2]
    assert all(row["median_actions_per_s"] > 0 and row["median_served_vs_engine"] > 0
               for row in summary["results"])
    (idle_line, idle_summary) = idle_lines
    assert idle_line["mode"] == "idle" and idle_line["welcomed"] == 20
    assert idle_line["rss_after_kb"] > 0 and isinstance(idle_line["kb_per_connection"], float)
    assert idle_summary["results"][0]["connections"] == 20


def test_echo_max_gives_the_bare_librarys_most_round_trips_and_goal_1s_ceiling() -> None:
    """Issue 17's goal 1 (served >= 0.5x the engine) against what the I/O library alone
    allows: ``--echo-max`` runs the echo server closed loop, and ``ceiling_vs_engine`` is
    the ratio of a server costing only the engine and the bare frames of an action."""
    # (A second's window: in half a second after 0.2 s of warm-up, one room on a loaded
    # machine once played no action at all, and the figures per action were None.)
    *runs, summary = _lines(_bench("--rooms", "1", "--seconds", "1", "--warmup", "0.5",
                                   "--no-echo", "--echo-max"))
    (line,) = runs
    assert line["actions"] > 0, _told(line)
    assert "echo_p99_ms" not in line  # (--no-echo: no paced echo)
    assert line["echo_max_round_trips_per_s"] > 0 and line["echo_max_server_cpu_pct"] > 0
    most, engine = line["echo_max_round_trips_per_cpu_s"], line["engine_actions_per_s"]
    assert most == round(line["echo_max_round_trips_per_s"]
                         / (line["echo_max_server_cpu_pct"] / 100), 1)
    floor = 1 / engine + (1 + line["frames_per_action"]) / (2 * most)
    assert line["ceiling_vs_engine"] == round(1 / floor / engine, 3)
    assert 0 < line["served_vs_engine"] < line["ceiling_vs_engine"] < 1
    assert summary["results"][0]["median_ceiling_vs_engine"] == line["ceiling_vs_engine"]


def _busy(cpu_s: float) -> None:
    start = time.thread_time()
    while time.thread_time() - start < cpu_s:  # (bounded: cpu_s of this thread's CPU)
        pass


def test_a_cpu_meter_counts_every_thread_to_the_nanosecond() -> None:
    """The servers' CPU% (``server_cpu_pct``, ``echo_max_server_cpu_pct``) comes from
    nanoseconds: in clock ticks (10 ms) the echo server's half-second window read 0% on a
    loaded machine, and the test above failed. A thread's time counts too, after it ended
    (the store's writer is a thread)."""
    meter = CpuMeter(os.getpid())
    assert meter.ns >= 0, "the kernel gives a process's CPU time in nanoseconds"
    before = time.process_time()
    worker = threading.Thread(target=_busy, args=(0.004,))
    worker.start()
    worker.join()
    _busy(0.003)
    spent = cpu_ns(os.getpid()) - meter.ns
    assert 7_000_000 <= spent <= 1e9 * (time.process_time() - before) + 1_000_000, spent
    assert meter.percent() > 0
    assert cpu_ns(2**22 + 1) == -1  # (above any pid Linux gives: gone)


def test_the_engine_baseline_plays_whole_sim_games_from_its_seed() -> None:
    """The engine baseline counts the actions of the very games ``manawire sim --no-encode``
    plays from the same seeds, on the decks it is given (no warmup: the first game is
    measured; a window of 0 s still plays that one game to its end)."""
    decks = ["rakdos-aggro", "simic-draw"]
    result = run_engine(EngineConfig(decks=decks, seconds=0.0, warmup=0.0, seed=7))
    assert result["engine_games"] == 1 and result["engine_decks"] == "rakdos-aggro+simic-draw"
    assert result["engine_actions"] == play_game(7, decks, SimOptions(encode=False)).actions
    assert cast(float, result["engine_actions_per_s"]) > 0


def test_fanout_measures_another_room_beside_a_watched_one() -> None:
    """``--spectators``: room X watched by N spectators, room Y measured; the summary
    compares each N with N = 0 of the same run (figures only sanity-checked)."""
    lines = _lines(_bench("--spectators", "0,4", "--seconds", "0.5", "--warmup", "0.1"))
    *runs, summary = lines
    assert [line["spectators"] for line in runs] == [0, 4]
    for line in runs:
        assert line["mode"] == "fanout" and "error" not in line, line
        assert line["rooms"] == 2 and line["connections"] == 4
        assert line["actions"] > 0 and 0 < line["p50_ms"] <= line["p99_ms"]
        assert line["watched_actions_per_s"] > 0
        assert line["errors"] == {} and line["failures"] == {}, _told(line)
    zero, four = runs
    assert zero["spectator_frames_per_s"] == 0 and zero["spectator_joins"] == 0
    # The spectators, in a process of their own, watched through the server's relay port.
    assert four["relays"] == 1 and four["spectators_joined"] == 4
    assert four["spectator_frames_per_s"] > 0 and four["spectator_joins"] >= 4
    assert four["spectator_errors"] == {} and four["spectator_failures"] == {}, four
    assert summary["mode"] == "fanout"
    rows = {row["spectators"]: row for row in summary["results"]}
    assert rows[0]["median_p99_vs_0"] == 1.0 and rows[4]["median_p99_vs_0"] > 0


def test_join_cost_moves_the_audience_between_two_waiting_games_and_divides_the_cpu(
) -> None:
    """``--join-cost``: N spectators (through the relay) move between two rooms whose games
    wait, every --period seconds; the line divides the server's CPU in the spectators'
    window by the joins they made in it."""
    lines = _lines(_bench("--spectators", "6", "--join-cost", "--period", "0.125",
                          "--seconds", "1", "--warmup", "0.25"))
    line, summary = lines
    assert line["mode"] == "join-cost" and "error" not in line, line
    assert line["relays"] == 1 and line["spectators_joined"] == 6
    assert line["spectator_errors"] == {} and line["spectator_failures"] == {}, line
    assert line["spectator_late_joins"] == 0  # (both rooms stay open)
    # Every move of the window is one join per spectator: about 1 s / 0.125 s of them.
    assert line["moves"] >= 8 and 6 * 4 <= line["joins"] <= 6 * 12, line
    assert line["joins"] == line["spectator_window_joins"]
    assert line["server_us_per_join"] == round(
        1e4 * line["server_cpu_pct"] * line["spectator_window_s"] / line["joins"], 1)
    assert summary["mode"] == "join-cost"
    assert summary["results"][0]["median_server_us_per_join"] == line["server_us_per_join"]


def test_join_cost_needs_spectators(capsys: pytest.CaptureFixture[str]) -> None:
    # (in this process: a usage error needs no interpreter of its own)
    assert bench.main(["--join-cost"]) == 2
    assert "--join-cost needs --spectators" in capsys.readouterr().err


def test_best_of_three_rooms_host_a_match_with_its_spectators_attached() -> None:
    """``--best-of 3``: each room hosts a match; the players keep their decks between its
    games, and the spectators stay in the room for all of them (no join per game)."""
    # Games of at most 80 actions (a draw at the server's limit, which a match counts as a
    # game): random bots' games take ~1,200, and under a loaded test run's share of a slow
    # machine's core none ended within the window. Room X's second game starts after 80
    # actions: 18 a second over the window and its warmup (games of 300 in 12 s needed 24).
    lines = _lines(_bench("--spectators", "2", "--seconds", "4", "--warmup", "0.5",
                          "--best-of", "3", env={"MANAWIRE_MAX_GAME_ACTIONS": "80"}))
    line, summary = lines
    assert line["best_of"] == 3 and "error" not in line, line
    assert line["errors"] == {} and line["failures"] == {}, _told(line)
    assert line["spectator_errors"] == {}, line
    # Some room of X's hosted a second game after its first (a single-game room never does;
    # a table that didn't go on to the next game after one would not either), and the
    # spectators joined once per room, not per game.
    rooms = line["watched_rooms"]
    assert line["watched_games"] >= 1 and line["watched_games_started"] > rooms, line
    assert line["spectator_joins"] <= 2 * rooms, line
    assert summary["results"][0]["median_actions_per_s"] > 0


def test_a_paced_head_start_is_played_at_once_and_unmeasured() -> None:
    """``--pace A --head-start H``: each table first answers up to H decisions at once,
    before the warmup; those are not timed or counted, the paced ones are."""
    lines = _lines(_bench("--rooms", "3", "--pace", "4", "--head-start", "60",
                          "--seconds", "1", "--warmup", "0.25", "--no-echo"))
    line, _summary = lines
    assert line["head_start"] == 60 and "error" not in line, line
    assert "engine_actions_per_s" not in line  # the engine baseline is closed loop's
    assert line["errors"] == {} and line["failures"] == {}, _told(line)
    assert 0 < line["head_start_actions"] <= 3 * 60, line
    # Paced after the head start: about A actions per second per room were measured.
    assert 0 < line["acts_sent"] <= 3 * 4 * 1 + 3, line


def test_the_setup_is_frozen_and_the_drivers_own_collections_are_timed() -> None:
    """A driver's full collection over its thousands of connections would be timed as the
    server's latency: what the setup made is frozen and the collector is off from the
    warmup until the window closes, and the window reports any collection in it."""
    held = [[i] for i in range(1000)]  # what a driver holds after its setup
    try:
        freeze_setup()
        assert gc.get_freeze_count() >= len(held) and not gc.isenabled()
        window = Window(os.getpid())
        gc.collect(0)
        figures = window.close()
        assert gc.isenabled()
        assert window.gc.generations[0].collections == 1  # timed: the one made in it
    finally:
        gc.unfreeze()
        gc.enable()
    assert figures["driver_gc_ms"] >= 0
    # Both rounded to the same hundredth: the longest of one collection is never more.
    assert 0 <= figures["driver_gc_longest_ms"] <= figures["driver_gc_ms"]


def test_servers_bind_only_loopback() -> None:
    parser = argparse.ArgumentParser()
    bench.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["bench-server"])
    server = bench._server(args, Target.current(), 10, 5)
    try:
        argv = server.make_argv(8000, server.tmp)
        assert argv[argv.index("--host") + 1] == "127.0.0.1"
        assert int(argv[argv.index("--max-connections-per-address") + 1]) >= 10
    finally:
        server.stop()  # never started: just removes its directory
    assert not server.tmp.exists()


def _echo_argv(port: int, _tmp: Path) -> list[str]:
    return [sys.executable, "-m", "server.benchload", "echo-server", f"--port={port}"]


def test_a_server_whose_free_port_another_process_took_first_starts_on_another(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A port free a moment ago may be another process's by the time the server binds it
    (the suite starts servers in parallel): the bench must never drive that process."""
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        ports = iter([taken])
        real = procs.free_port
        monkeypatch.setattr(procs, "free_port", lambda: next(ports, None) or real())
        assert port_owner(taken, [os.getpid()]) is True
        with ServerProcess(_echo_argv, cpu=0) as echo:
            assert echo.port != taken
            assert port_owner(taken, [echo.pid]) is False
            assert port_owner(echo.port, [echo.pid]) is True
            assert f"--port={echo.port}" in echo.argv
        monkeypatch.setattr(procs, "free_port", lambda: taken)
        server = ServerProcess(_echo_argv, cpu=0)
        with pytest.raises(RuntimeError, match=f"another process took each port .*{taken}"):
            server.start()
        server.stop()
        assert server.proc is None and not server.tmp.exists()


def _delta(prev: int, state: int, *, over: bool = False) -> mpb.ServerMessage:
    delta = pb.Delta(prev_state_id=prev, state_id=state)
    if over:
        delta.ops.add().set_header.result.reason = "conceded"
    return mpb.ServerMessage(delta=delta)


def _decision(prompt: int, state: int, options: int) -> mpb.ServerMessage:
    decision = pb.Decision(prompt_id=prompt, state_id=state)
    for _ in range(options):
        decision.options.add().pass_priority.SetInParent()
    return mpb.ServerMessage(decision=decision)


def test_decode_frame_batched_and_plain() -> None:
    batch = mpb.ServerBatch(messages=[_delta(4, 5), _decision(7, 5, 2),
                                      mpb.ServerMessage(clocks=mpb.Clocks())])
    msgs = decode_frame(batch.SerializeToString(), batched=True)
    assert [m.WhichOneof("body") for m in msgs] == ["delta", "decision", "clocks"]
    assert msgs[0].delta.state_id == 5 and msgs[1].decision.prompt_id == 7
    plain = decode_frame(_delta(4, 5).SerializeToString(), batched=False)
    assert len(plain) == 1 and plain[0].delta.state_id == 5
    assert list(decode_frame(mpb.ServerBatch().SerializeToString(), batched=True)) == []


class FakeWebSocket:
    """Serves given frames to ``recv``, then waits forever; records what is sent."""

    def __init__(self, frames: list[bytes]) -> None:
        self.frames = frames
        self.sent: list[mpb.ClientMessage] = []

    async def recv(self, decode: bool = False) -> bytes:
        await trio.lowlevel.checkpoint()
        if not self.frames:
            await trio.sleep_forever()
        return self.frames.pop(0)

    async def send(self, data: bytes) -> None:
        self.sent.append(mpb.ClientMessage.FromString(data))


async def _read(frames: list[bytes], batched: bool, *, timed: bool = True, idle: float = 0.0,
                behind: bool = False, **config: Any) -> tuple[Conn, Table, FakeWebSocket, bool]:
    """Let a connection's reader process ``frames`` (``timed``: after a timed Act at state
    4; ``idle``: seconds since the table's game last moved; ``behind``: the connection's
    latest snapshot was of the table's previous game); also whether the game was over
    then (a closed connection ends the game's wait too)."""
    async with trio.open_nursery() as nursery:
        driver = GameDriver(GameConfig(url="ws://127.0.0.1:1", rooms=1, seconds=1,
                                       warmup=0, server_pid=0, **config), nursery)
        driver.stats.measuring = True
        table = Table(0, driver)
        ws = FakeWebSocket(frames)
        conn = Conn(cast(ClientConnection, ws), batched, table)
        table.game = 2
        conn.game = 1 if behind else 2
        if timed:
            conn.act_at, conn.act_state = time.perf_counter() - 0.002, 4
        table.progress = time.perf_counter() - idle
        nursery.start_soon(conn.read)
        await trio.testing.wait_all_tasks_blocked()
        over = table.over.is_set()
        assert not conn.closed
        nursery.cancel_scope.cancel()
    return conn, table, ws, over


async def test_batched_frame_completes_the_act_and_answers_the_decision() -> None:
    frame = mpb.ServerBatch(messages=[_delta(4, 5), _decision(7, 5, 3)]).SerializeToString()
    conn, table, ws, over = await _read([frame], batched=True)
    stats = table.driver.stats
    assert stats.actions == 1 and len(stats.latencies) == 1 and stats.latencies[0] >= 0.002
    assert (stats.frames, stats.messages, stats.payload_bytes) == (1, 2, len(frame))
    assert conn.state_id == 5 and not over
    (act,) = ws.sent  # closed loop: answered at once, at the state the decision is for
    assert act.act.prompt_id == 7 and act.act.expected_state_id == 5
    assert 0 <= act.act.option_index < 3
    assert conn.act_state == 5 and conn.act_at > 0  # waiting for its own delta now


async def test_a_head_starts_untimed_actions_count_as_progress_not_a_stall() -> None:
    """A paced table's head start (untimed acts, answered at once) can take longer than
    STALL_SECONDS on a server busy with 1,000 tables' head starts: its deltas are the
    game's progress, or the table is dropped as stalled though its game moves."""
    frame = mpb.ServerBatch(messages=[_delta(4, 5), _decision(7, 5, 3)]).SerializeToString()
    _, table, ws, _ = await _read([frame], batched=True, timed=False, idle=STALL_SECONDS,
                                  pace=0.5, head_start=10)
    assert time.perf_counter() - table.progress < STALL_SECONDS / 2
    assert table.driver.stats.actions == 0 and table.driver.stats.head_start_actions == 1
    assert len(ws.sent) == 1  # answered at once, untimed (seeded: a head start of several)


async def test_plain_frames_and_game_over() -> None:
    frames = [_delta(3, 4).SerializeToString(),  # not newer than the Act's state: no action
              _delta(4, 5, over=True).SerializeToString()]
    conn, table, ws, over = await _read(frames, batched=False)
    stats = table.driver.stats
    assert stats.actions == 1 and stats.frames == stats.messages == 2
    assert over and ws.sent == [] and conn.state_id == 5
    assert stats.errors == {}


async def test_errors_are_counted_by_code_with_the_first_text_of_each() -> None:
    """A refused Act (request id 0) is counted and its text kept: a failing run says what
    the server refused."""
    frames = [error_bytes(mpb.ERROR_CODE_ROOM_NOT_FOUND, "the room closed"),
              error_bytes(mpb.ERROR_CODE_ROOM_NOT_FOUND, "no room 'x'"),
              error_bytes(mpb.ERROR_CODE_NOT_READY, "x" * 300)]
    conn, table, _, _ = await _read(frames, batched=False)
    stats = table.driver.stats
    assert stats.errors == {"ERROR_CODE_ROOM_NOT_FOUND": 2, "ERROR_CODE_NOT_READY": 1}
    assert stats.error_examples == {"ERROR_CODE_ROOM_NOT_FOUND": "the room closed",
                                    "ERROR_CODE_NOT_READY": "x" * 200}
    assert conn.act_at == 0.0  # the refused Act is not timed


async def test_a_late_end_of_the_previous_game_neither_ends_the_next_nor_is_answered() -> None:
    """One connection's reader may be behind the other's: the game's last delta, read
    after the table had moved to its next game, ended that game as it began -- the table
    left it, and its players' actions were refused ('the room closed', 'join a room
    first': CI failed twice on them). What a connection reads counts for the game of its
    latest snapshot only."""
    def frames() -> list[bytes]:
        return [mpb.ServerBatch(messages=[_delta(4, 5, over=True), _decision(7, 5, 3)])
                .SerializeToString()]

    _conn, table, ws, over = await _read(frames(), batched=True, behind=True)
    assert not over and ws.sent == [] and table.driver.stats.errors == {}
    _conn, table, ws, over = await _read(frames(), batched=True)  # (the current game's)
    assert over
