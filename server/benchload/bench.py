"""``manawire bench-server``: the orchestrating process (see the package docstring).

For each run, each ``--rooms`` R (in the order given, runs interleaved: 1,10,50,1,10,50,...)
and each server target (interleaved too), it starts a **fresh** server with a fresh data
directory (so no run inherits another's rooms, accounts or memory), runs the game driver
against it in its own process, stops the server, then measures the echo baseline at the rate
that run achieved, and prints one JSON line. The last line is the summary: medians across
runs for each target and R.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from server.benchload.procs import (
    Helper,
    ServerProcess,
    Target,
    children,
    default_cpus,
    free_port,
    median,
    pin,
    raise_nofile,
    run_helper,
    serve_flags,
    wait_listening,
)

#: Seconds a helper may take beyond its setup time, warmup and window.
HELPER_MARGIN = 60.0
#: Figures the summary takes medians of.
SUMMARY_KEYS = ("actions_per_s", "p50_ms", "p99_ms", "p999_ms", "server_cpu_pct",
                "server_rss_kb", "driver_cpu_pct", "bytes_per_action",
                "messages_per_action", "frames_per_action", "server_gc_longest_ms",
                "echo_p50_ms", "echo_p99_ms", "p99_ratio", "engine_actions_per_s",
                "served_vs_engine", "echo_max_round_trips_per_s",
                "echo_max_round_trips_per_cpu_s", "ceiling_vs_engine")
FANOUT_SUMMARY_KEYS = ("actions_per_s", "p50_ms", "p99_ms", "p999_ms", "server_cpu_pct",
                       "driver_cpu_pct", "watchers_cpu_pct", "watched_actions_per_s",
                       "spectator_frames_per_s", "p99_vs_0", "actions_vs_0")
JOIN_SUMMARY_KEYS = ("server_us_per_join", "joins_per_s", "server_cpu_pct",
                     "watchers_cpu_pct")
IDLE_SUMMARY_KEYS = ("kb_per_connection", "kb_per_silent_connection", "kb_per_hello",
                     "kb_per_connection_from_fresh", "rss_after_kb", "open_s")


def _counts(value: str, least: int, what: str) -> list[int]:
    try:
        counts = [int(v) for v in value.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of numbers: {value!r}") from None
    if not counts or min(counts) < least:
        raise argparse.ArgumentTypeError(f"give {what} of at least {least}")
    return counts


def _rooms(value: str) -> list[int]:
    return _counts(value, 1, "room counts, e.g. 1,10,50,")


def _spectators(value: str) -> list[int]:
    return _counts(value, 0, "spectator counts, e.g. 0,100,500,1000,")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``bench-server`` to a parser's subcommands; the parsed arguments'
    ``bench_server_main`` runs it (``args.bench_server_main(args)`` -> exit code)."""
    server_cpu, driver_cpu = default_cpus()
    p = subparsers.add_parser(
        "bench-server", help="load-benchmark a real server over loopback WebSockets",
        description="Start the server as a subprocess and drive rooms of two bots against "
                    "it from another process; print figures as JSON lines.")
    p.add_argument("--rooms", type=_rooms, default=[1, 10, 50],
                   help="room counts to measure in turn, e.g. 1,10,50 (default)")
    p.add_argument("--seconds", type=float, default=10.0,
                   help="length of each measuring window (default 10)")
    p.add_argument("--warmup", type=float, default=None,
                   help="seconds played before each window, not measured (default 2; "
                        "paced: 2 s or two periods, whichever is longer)")
    p.add_argument("--pace", type=float, default=0.0,
                   help="actions per second per room (paced mode); 0: closed loop, every "
                        "decision answered at once (default)")
    p.add_argument("--head-start", type=int, default=0, metavar="H",
                   help="paced: each table first answers a random number (0 to H) of its "
                        "first game's decisions at once, unmeasured, before the warmup, so "
                        "the window samples games at every stage of their first H actions "
                        "rather than only their first few -- the mulligans (default 0)")
    p.add_argument("--runs", type=int, default=1,
                   help="repeat every configuration this many times, interleaved; the "
                        "summary gives medians (default 1)")
    p.add_argument("--seed", type=int, default=1, help="seed of the bots' choices")
    p.add_argument("--deck", default="", help="demo deck name for every player (default: "
                                              "the server's choice)")
    p.add_argument("--best-of", type=int, default=1, choices=(1, 3, 5),
                   help="each room hosts a match of at most this many games between the "
                        "same players, who keep their decks between games; its seats and "
                        "spectators stay attached for the whole match (default 1: a "
                        "single game per room)")
    p.add_argument("--no-batch", action="store_true",
                   help="don't ask for batched frames (Hello.batched)")
    p.add_argument("--no-echo", action="store_true", help="skip the echo baseline")
    p.add_argument("--no-engine", action="store_true",
                   help="closed loop: skip the engine baseline (the engine alone on the "
                        "served games' decks, once per run)")
    p.add_argument("--echo-max", action="store_true",
                   help="closed loop: also the most round trips a second the bare echo "
                        "server makes on the server's CPU (closed loop over as many "
                        "connections; and per second of its CPU), and from it and the "
                        "engine baseline "
                        "ceiling_vs_engine: the served_vs_engine of a server whose only "
                        "costs were the engine and the bare library's frames")
    p.add_argument("--spectators", type=_spectators, default=None, metavar="LIST",
                   help="instead: fan-out. For each count N (e.g. 0,100,500,1000), room X "
                        "is watched by N spectators and the other --rooms rooms (default "
                        "1: room Y) are measured, so the figures show what watchers of one "
                        "game cost another; a summary ratio p99_vs_0 compares each N with "
                        "N=0 of the same run")
    p.add_argument("--relays", type=int, default=1, metavar="N",
                   help="fan-out: the server's --relays (default 1); the spectators connect "
                        "to the first relay's port (0: to the server's own port)")
    p.add_argument("--relay-cpu", type=int, default=driver_cpu,
                   help=f"fan-out: CPU the relay processes are pinned to; -1: as the server "
                        f"(default {driver_cpu}, the driver's)")
    p.add_argument("--idle-spectators", action="store_true",
                   help="fan-out: run the relays (serve --relay-idle) and the spectators' "
                        "process under SCHED_IDLE, so they only use CPU time the server and "
                        "the driver don't want")
    p.add_argument("--watch-cpu", type=int, default=driver_cpu,
                   help=f"fan-out: CPU the spectators' process is pinned to; -1: unpinned "
                        f"(default {driver_cpu}, the driver's)")
    p.add_argument("--join-cost", action="store_true",
                   help="with --spectators: instead of measuring a room Y, measure what the "
                        "spectators' moves cost the server: two rooms whose games wait, the "
                        "N spectators moving from one to the other every --period seconds "
                        "(LeaveRoom + JoinRoom each); server_us_per_join is the server's CPU "
                        "per move")
    p.add_argument("--period", type=float, default=1.0,
                   help="--join-cost: seconds between the audience's moves (default 1)")
    p.add_argument("--idle", type=int, default=0, metavar="N",
                   help="instead: open N idle connections (each says Hello) and report the "
                        "server's RSS per connection")
    p.add_argument("--settle", type=float, default=3.0,
                   help="--idle: seconds to let the server settle before reading RSS "
                        "(default 3)")
    p.add_argument("--linger", type=float, default=0.0,
                   help="the server's --linger-seconds: how long a finished room stays "
                        "(default 0: closed at once, so the room count stays R)")
    p.add_argument("--server-cpu", type=int, default=server_cpu,
                   help=f"CPU the server (and the echo server) is pinned to; -1: unpinned "
                        f"(default {server_cpu})")
    p.add_argument("--driver-cpu", type=int, default=driver_cpu,
                   help=f"CPU the load driver is pinned to; -1: unpinned "
                        f"(default {driver_cpu})")
    p.add_argument("--server-root", type=Path, action="append", default=[], metavar="DIR",
                   help="also benchmark `python -m server.cli serve` of this checkout (e.g. "
                        "a git worktree of an earlier commit), interleaved (repeatable)")
    p.add_argument("--server-cmd", action="append", default=[], metavar="CMD",
                   help="also benchmark this command (it must exec the server itself; "
                        "--host, --port, --data-dir and the limits are appended; "
                        "repeatable)")
    p.add_argument("--no-current", action="store_true",
                   help="don't benchmark this checkout's server (only --server-root/-cmd)")
    p.add_argument("--setup-timeout", type=float, default=0.0,
                   help="seconds allowed to connect and seat everyone (default: 30 + 0.03 "
                        "per connection)")
    p.set_defaults(bench_server_main=run)


def main(argv: list[str] | None = None) -> int:
    """``python -m server.benchload bench-server ...``: the command without the ``manawire``
    entry point."""
    parser = argparse.ArgumentParser(prog="manawire")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["bench-server", *(sys.argv[1:] if argv is None else argv)])
    return run(args)


def run(args: argparse.Namespace) -> int:
    """Run ``bench-server``; 1 if any measurement failed (figures are never asserted)."""
    if args.warmup is None:
        args.warmup = max(2.0, 2.0 / args.pace) if args.pace > 0 else 2.0
    if args.runs < 1 or args.seconds <= 0 or args.warmup < 0 or args.pace < 0 \
            or args.idle < 0 or args.linger < 0 or args.head_start < 0:
        print("manawire bench-server: --runs must be >= 1, --seconds > 0 and --warmup, "
              "--pace, --idle, --linger and --head-start >= 0", file=sys.stderr)
        return 2
    if args.head_start and args.pace <= 0:
        print("manawire bench-server: --head-start needs --pace (closed-loop tables play "
              "every stage of their games already)", file=sys.stderr)
        return 2
    raise_nofile()
    targets = [] if args.no_current else [Target.current()]
    targets += [Target.root(root) for root in args.server_root]
    targets += [Target.command(cmd) for cmd in args.server_cmd]
    if not targets:
        print("manawire bench-server: nothing to benchmark (--no-current alone)",
              file=sys.stderr)
        return 2
    for target in targets[0 if args.no_current else 1:]:
        target.learn_options()  # an older checkout may lack some limit options
    lines: list[dict[str, Any]] = []
    if args.spectators is not None and args.idle:
        print("manawire bench-server: --spectators and --idle don't go together",
              file=sys.stderr)
        return 2
    if args.join_cost and (not args.spectators or min(args.spectators) < 1
                           or args.period <= 0):
        print("manawire bench-server: --join-cost needs --spectators of at least 1 (e.g. "
              "--spectators 1000) and --period > 0", file=sys.stderr)
        return 2
    sizes = [args.idle] if args.idle else args.spectators or args.rooms
    closed = not (args.idle or args.spectators is not None or args.pace > 0)
    for run_index in range(1, args.runs + 1):
        engine = _engine(args) if closed and not args.no_engine else {}
        for size in sizes:
            for target in targets:
                line = (_idle(args, target, size) if args.idle
                        else _join_cost(args, target, size) if args.join_cost
                        else _fanout(args, target, size) if args.spectators is not None
                        else _games(args, target, size))
                line = {"run": run_index, **line, **_against_engine(line, engine)}
                print(json.dumps(line), flush=True)
                lines.append(line)
    print(json.dumps(_summary(args, lines)), flush=True)
    return 1 if any("error" in line for line in lines) else 0


def _setup_timeout(args: argparse.Namespace, connections: int, rooms: int = 0) -> float:
    # (a head start plays about rooms * H / 2 actions closed loop: 5 ms each allowed)
    return float(args.setup_timeout or 30.0 + 0.03 * connections
                 + 0.0025 * rooms * args.head_start)


def _server(args: argparse.Namespace, target: Target, connections: int,
            rooms: int, spectators: int = 0, *, extra: Sequence[tuple[str, str]] = ()
            ) -> ServerProcess:
    flags = [(name, value)
             for name, value in [*serve_flags(connections, rooms, args.linger, spectators),
                                 *extra]
             if target.known is None or name in target.known]

    def argv(port: int, tmp: Path) -> list[str]:
        out = [*target.argv, "--host", "127.0.0.1", "--port", str(port),
               "--data-dir", str(tmp / "data")]
        for name, value in flags:
            out += [name, value] if value else [name]  # "": a switch (--relay-idle)
        return out

    return ServerProcess(argv, cpu=args.server_cpu, cwd=target.cwd, env=target.environ())


def _games(args: argparse.Namespace, target: Target, rooms: int) -> dict[str, Any]:
    mode = "paced" if args.pace > 0 else "closed"
    head: dict[str, Any] = {"mode": mode, "target": target.label, "rooms": rooms,
                            "pace": args.pace if args.pace > 0 else None,
                            "seconds": args.seconds, "warmup": args.warmup,
                            "best_of": args.best_of, "head_start": args.head_start}
    setup = _setup_timeout(args, 2 * rooms, rooms)
    timeout = setup + args.warmup + args.seconds + HELPER_MARGIN
    try:
        with _server(args, target, 2 * rooms, rooms) as server:
            result = run_helper("driver", {
                "url": server.url, "rooms": rooms, "seconds": args.seconds,
                "warmup": args.warmup, "server_pid": server.pid, "pace": args.pace,
                "batch": not args.no_batch, "seed": args.seed, "deck": args.deck,
                "best_of": args.best_of, "head_start": args.head_start,
                "setup_timeout": setup},
                cpu=args.driver_cpu, timeout=timeout)
            if "error" in result:
                result["server_log"] = server.log_tail(800)
    except (RuntimeError, OSError) as exc:
        return {**head, "error": str(exc)}
    line = {**head, **result, **_gc_fields(server)}
    if "error" in result:
        return line
    size = round(float(result["mean_frame_bytes"]))
    if args.echo_max and mode == "closed":
        most = _echo(args, connections=2 * rooms, rate=0.0, size=size)
        rate, cpu = most.get("echo_rate"), most.get("echo_server_cpu_pct")
        line["echo_max_round_trips_per_s"] = rate
        line["echo_max_server_cpu_pct"] = cpu
        if isinstance(rate, int | float) and isinstance(cpu, int | float) and cpu > 0:
            # (per second of the echo server's CPU: its driver may not keep it quite busy)
            line["echo_max_round_trips_per_cpu_s"] = round(rate / (cpu / 100), 1)
        if "echo_error" in most:
            line["echo_max_error"] = most["echo_error"]
    if args.no_echo:
        return line
    rate = float(result["actions_per_s"])
    if rate <= 0:
        return {**line, "echo_error": "no actions to match"}
    echo = _echo(args, connections=2 * rooms, rate=rate, size=size)
    line.update(echo)
    echo_p99, p99 = echo.get("echo_p99_ms"), line.get("p99_ms")
    if isinstance(echo_p99, float) and echo_p99 > 0 and isinstance(p99, float):
        line["p99_ratio"] = round(p99 / echo_p99, 2)
    return line


def _fanout(args: argparse.Namespace, target: Target, spectators: int) -> dict[str, Any]:
    """Room X watched by ``spectators``, the other rooms measured (no echo baseline)."""
    measured = args.rooms[0] if len(args.rooms) == 1 else 1
    rooms = 1 + measured
    head: dict[str, Any] = {"mode": "fanout", "target": target.label, "spectators": spectators,
                            "rooms": rooms, "pace": args.pace if args.pace > 0 else None,
                            "seconds": args.seconds, "warmup": args.warmup,
                            "best_of": args.best_of, "head_start": args.head_start}
    connections = 2 * rooms + spectators
    setup = _setup_timeout(args, connections, rooms)
    timeout = 2 * setup + args.warmup + args.seconds + HELPER_MARGIN
    head["relays"] = _relays(args, target)
    try:
        with _watched_server(args, target, connections, rooms, spectators) as (server, url), \
                tempfile.TemporaryDirectory(prefix="manawire-fanout-") as tmp:
            files = {"room_file": str(Path(tmp) / "room"),
                     "ready_file": str(Path(tmp) / "ready")}
            watchers = None
            if spectators:  # in a process of their own, beside the driver's CPU
                watchers = Helper("watch-driver", {
                    "url": url, "spectators": spectators, "seconds": args.seconds,
                    "warmup": args.warmup, "server_pid": server.pid,
                    "batch": not args.no_batch, "setup_timeout": setup,
                    "idle": args.idle_spectators, **files},
                    cpu=args.watch_cpu)
            with watchers or contextlib.nullcontext():
                result = run_helper("driver", {
                    "url": server.url, "rooms": rooms, "seconds": args.seconds,
                    "warmup": args.warmup, "server_pid": server.pid, "pace": args.pace,
                    "batch": not args.no_batch, "seed": args.seed, "deck": args.deck,
                    "best_of": args.best_of, "head_start": args.head_start,
                    "setup_timeout": setup, "watched": True,
                    **(files if spectators else {})}, cpu=args.driver_cpu, timeout=timeout)
                if watchers is not None:
                    watched = watchers.result(HELPER_MARGIN)
                    result.update(watched if "error" not in watched
                                  else {"error": f"watchers: {watched['error']}"})
                else:  # the same fields, for the line with no spectators
                    result.update({"spectators_joined": 0, "spectator_frames_per_s": 0.0,
                                   "spectator_bytes_per_s": 0.0, "spectator_joins": 0,
                                   "spectator_late_joins": 0,
                                   "spectator_errors": {}, "spectator_failures": {}})
            if "error" in result:
                result["server_log"] = server.log_tail(800)
    except (RuntimeError, OSError) as exc:
        return {**head, "error": str(exc)}
    return {**head, **result, **_gc_fields(server)}


def _gc_fields(server: ServerProcess) -> dict[str, Any]:
    """The server's collector figures for its whole run (setup and warmup included), as
    ``server_gc`` and ``server_gc_longest_ms`` (none if it printed none)."""
    gc = server.gc_figures()
    return {} if gc is None else {"server_gc": gc, "server_gc_longest_ms": gc.get("longest_ms")}


def _relays(args: argparse.Namespace, target: Target) -> int:
    """The relay processes a fan-out run's server starts (0: an older server without)."""
    return args.relays if args.relays and (target.known is None
                                           or "--relays" in target.known) else 0


@contextlib.contextmanager
def _watched_server(args: argparse.Namespace, target: Target, connections: int, rooms: int,
                    spectators: int) -> Iterator[tuple[ServerProcess, str]]:
    """A fan-out run's server (with its relays, pinned to ``--relay-cpu``) and the URL its
    spectators connect to (the first relay's port; the server's own without relays)."""
    relayed = bool(_relays(args, target))
    relay_port = free_port() if relayed else 0
    extra = [("--relays", str(args.relays)), ("--relay-port", str(relay_port))] \
        if relayed else []
    if relayed and args.idle_spectators and (target.known is None
                                             or "--relay-idle" in target.known):
        extra.append(("--relay-idle", ""))
    with _server(args, target, connections, rooms, spectators + 8, extra=extra) as server:
        url = server.url
        if relayed:  # the spectators' port; the relays run on their own CPU
            wait_listening(relay_port, server.pid)
            for child in children(server.pid):
                pin(child, args.relay_cpu)
            url = f"ws://127.0.0.1:{relay_port}"
        yield server, url


def _join_cost(args: argparse.Namespace, target: Target, spectators: int) -> dict[str, Any]:
    """Two rooms whose games wait, ``spectators`` moving between them: the server's CPU per
    move (:mod:`server.benchload.joincost`)."""
    head: dict[str, Any] = {"mode": "join-cost", "target": target.label,
                            "spectators": spectators, "period": args.period,
                            "seconds": args.seconds, "warmup": args.warmup,
                            "relays": _relays(args, target)}
    setup = _setup_timeout(args, spectators + 4)
    timeout = 2 * setup + args.warmup + args.seconds + HELPER_MARGIN
    try:
        with _watched_server(args, target, spectators + 4, 2, spectators) as (server, url), \
                tempfile.TemporaryDirectory(prefix="manawire-joins-") as tmp:
            files = {"room_file": str(Path(tmp) / "room"),
                     "ready_file": str(Path(tmp) / "ready")}
            with Helper("watch-driver", {
                    "url": url, "spectators": spectators, "seconds": args.seconds,
                    "warmup": args.warmup, "server_pid": server.pid,
                    "batch": not args.no_batch, "setup_timeout": setup,
                    "idle": args.idle_spectators, **files}, cpu=args.watch_cpu) as watchers:
                tables = run_helper("tables-driver", {
                    "url": server.url, "period": args.period, "seconds": args.seconds,
                    "warmup": args.warmup, "setup_timeout": setup, **files},
                    cpu=args.driver_cpu, timeout=timeout)
                watched = watchers.result(HELPER_MARGIN)
            if "error" in tables or "error" in watched:
                return {**head, "error": f"tables: {tables.get('error')}; watchers: "
                                         f"{watched.get('error')}",
                        "server_log": server.log_tail(800)}
    except (RuntimeError, OSError) as exc:
        return {**head, "error": str(exc)}
    joins = int(watched["spectator_window_joins"])
    secs = float(watched["spectator_window_s"])
    cpu_pct = float(watched["spectator_window_server_cpu_pct"])
    line = {**head, **tables, **watched, "joins": joins,
            "joins_per_s": round(joins / secs, 1), "server_cpu_pct": cpu_pct,
            "server_us_per_join": round(1e4 * cpu_pct * secs / joins, 1) if joins else None}
    if not joins:
        line["error"] = "no spectator moved in the window"
    return line


def _echo(args: argparse.Namespace, *, connections: int, rate: float, size: int
          ) -> dict[str, Any]:
    def argv(port: int, _tmp: Path) -> list[str]:
        return [sys.executable, "-m", "server.benchload", "echo-server", f"--port={port}"]

    setup = _setup_timeout(args, connections)
    try:
        with ServerProcess(argv, cpu=args.server_cpu) as echo:
            result = run_helper("echo-driver", {
                "url": echo.url, "connections": connections, "rate": rate, "size": size,
                "seconds": args.seconds, "warmup": args.warmup, "server_pid": echo.pid,
                "seed": args.seed, "setup_timeout": setup}, cpu=args.driver_cpu,
                timeout=setup + args.warmup + args.seconds + HELPER_MARGIN)
    except (RuntimeError, OSError) as exc:
        return {"echo_error": str(exc)}
    if "error" in result:
        return {"echo_error": result["error"]}
    return result


def _engine(args: argparse.Namespace) -> dict[str, Any]:
    """The engine baseline (:func:`server.benchload.baselines.run_engine`) on the server's
    CPU, with the decks of the served games: ``--deck`` on both seats, or the demo decks a
    room deals to players who name none."""
    from server.rooms.room import demo_deck_for_seat

    decks = [args.deck] * 2 if args.deck else [demo_deck_for_seat(0), demo_deck_for_seat(1)]
    result = run_helper("engine", {"decks": decks, "seconds": args.seconds,
                                   "warmup": args.warmup, "seed": args.seed},
                        cpu=args.server_cpu,
                        timeout=2 * (args.warmup + args.seconds) + HELPER_MARGIN)
    return {"engine_error": result["error"]} if "error" in result else result


def _against_engine(line: dict[str, Any], engine: dict[str, Any]) -> dict[str, Any]:
    """The run's engine figures for a closed-loop line, with ``served_vs_engine``: the
    served actions/s over the engine's (issue 17's goal 1: at least 0.5)."""
    if not engine:
        return {}
    served, alone = line.get("actions_per_s"), engine.get("engine_actions_per_s")
    if not (isinstance(served, int | float) and isinstance(alone, int | float) and alone > 0):
        return engine
    out = {**engine, "served_vs_engine": round(served / alone, 3)}
    most, frames = line.get("echo_max_round_trips_per_cpu_s"), line.get("frames_per_action")
    if isinstance(most, int | float) and most > 0 and isinstance(frames, int | float):
        # An action costs at least the engine's time plus its frames' at the bare
        # library's cost (a round trip is two frames): the act read, and frames_per_action
        # written.
        floor = 1.0 / alone + (1.0 + frames) / (2.0 * most)
        out["ceiling_vs_engine"] = round(1.0 / floor / alone, 3)
    return out


def _idle(args: argparse.Namespace, target: Target, connections: int) -> dict[str, Any]:
    head: dict[str, Any] = {"mode": "idle", "target": target.label}
    setup = _setup_timeout(args, connections)
    try:
        with _server(args, target, connections + 100, 1) as server:
            result = run_helper("idle-driver", {
                "url": server.url, "connections": connections, "server_pid": server.pid,
                "settle": args.settle, "batch": not args.no_batch, "setup_timeout": setup},
                cpu=args.driver_cpu, timeout=2 * setup + 3 * args.settle + HELPER_MARGIN)
    except (RuntimeError, OSError) as exc:
        return {**head, "connections": connections, "error": str(exc)}
    return {**head, **result}


def _relative_to_zero(lines: list[dict[str, Any]]) -> None:
    """Fan-out: each line's p99 and actions/s as a ratio of the same run's (and target's)
    line with no spectators."""
    base = {(ln["run"], ln["target"]): ln for ln in lines
            if ln.get("spectators") == 0 and "error" not in ln}
    for line in lines:
        zero = base.get((line["run"], line["target"]))
        if zero is None or "error" in line:
            continue
        for key, out in (("p99_ms", "p99_vs_0"), ("actions_per_s", "actions_vs_0")):
            mine, theirs = line.get(key), zero.get(key)
            if isinstance(mine, int | float) and isinstance(theirs, int | float) and theirs:
                line[out] = round(mine / theirs, 3)


def _summary(args: argparse.Namespace, lines: list[dict[str, Any]]) -> dict[str, Any]:
    fanout = args.spectators is not None
    if fanout and not args.join_cost:
        _relative_to_zero(lines)
    keys = IDLE_SUMMARY_KEYS if args.idle else JOIN_SUMMARY_KEYS if args.join_cost \
        else FANOUT_SUMMARY_KEYS if fanout else SUMMARY_KEYS
    size_key = "connections" if args.idle else "spectators" if fanout else "rooms"
    def group(ln: dict[str, Any]) -> tuple[str, int]:
        return ln["target"], int(ln[size_key])

    results: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for line in lines:
        results.setdefault(group(line), []).append(line)
    rows = []
    for (target, size), group_lines in results.items():
        ok = [ln for ln in group_lines if "error" not in ln]
        row: dict[str, Any] = {"target": target, size_key: size,
                               "runs": len(group_lines), "failed_runs": len(group_lines)
                               - len(ok)}
        for key in keys:
            values = [float(ln[key]) for ln in ok if isinstance(ln.get(key), int | float)]
            value = median(values)
            row[f"median_{key}"] = None if value is None else round(value, 3)
        rows.append(row)
    mode = "idle" if args.idle else "join-cost" if args.join_cost else "fanout" if fanout \
        else "paced" if args.pace > 0 else "closed"
    if args.idle:
        return {"summary": True, "mode": mode, "runs": args.runs, "results": rows}
    return {"summary": True, "mode": mode, "runs": args.runs, "seconds": args.seconds,
            "pace": args.pace if args.pace > 0 else None, "results": rows}
