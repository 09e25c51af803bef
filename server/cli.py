"""The ``manawire`` command line: ``serve``, ``bots``, ``sim``, ``scenario``,
``bench-protocol``."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import trio

if TYPE_CHECKING:
    from server.app import Limits
    from server.store.sqlite import Durability


async def run_server(host: str, port: int, data_dir: Path, *, limits: Limits | None = None,
                     durability: Durability = "process", grace: float = 10.0) -> None:
    """Start the store, reload unfinished games, serve WebSockets until SIGTERM or SIGINT,
    then stop gracefully: freeze the rooms, close every client with 1012 (service restart),
    commit the store and return within about ``grace`` seconds."""
    from server.app import CLOSE_SERVICE_RESTART, App
    from server.store import Store
    from server.transport.ws import serve_app

    log = logging.getLogger("manawire")
    store = Store(data_dir / "manawire.sqlite3", durability)
    app: App | None = None
    try:
        with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
            async with trio.open_nursery() as nursery:
                app = App(store, nursery, limits)
                restored = app.recover()
                server = await nursery.start(serve_app, app, host, port)
                sockets = [lst.socket.getsockname() for lst in server.listeners
                           if isinstance(lst, trio.SocketListener)]
                where = ", ".join(f"{a[0]}:{a[1]}" for a in sockets)
                print(f"manawire listening on ws://{where} (data in {data_dir}; "
                      f"{restored} games restored)", flush=True)
                async for signum in signals:
                    log.info("%s: stopping (games are kept and go on after a restart)",
                             signal.Signals(signum).name)
                    break
                app.shutdown()
                with trio.move_on_after(grace):
                    await server.aclose(code=CLOSE_SERVICE_RESTART, reason="server restarting")
                nursery.cancel_scope.cancel()
    finally:
        if app is not None:
            app.close()
        store.close()


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``manawire`` command."""
    parser = argparse.ArgumentParser(prog="manawire", description="Manawire game server")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the game server")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 = any)")
    serve.add_argument("--data-dir", type=Path, default=Path("var"),
                       help="directory of the embedded store (default ./var)")
    _limit_options(serve)
    bots = sub.add_parser("bots", help="play full games between random bots on a server")
    bots.add_argument("--url", default="ws://127.0.0.1:8765", help="server WebSocket URL")
    bots.add_argument("--games", type=int, default=1, help="number of games (default 1)")
    bots.add_argument("--players", type=int, default=2, help="players per game, 2-8 (default 2)")
    bots.add_argument("--seed", type=int, default=None, help="seed for the bots' choices")
    bots.add_argument("--deck", action="append", default=None,
                      help="demo deck for the next seat (repeatable: seat 0, 1, ...; default: "
                           "the server's choice)")
    bots.add_argument("--all-pairings", action="store_true",
                      help="play --games games at every table of demo decks (for 2 players: "
                           "every pairing, mirrors included)")
    bots.add_argument("--timeout", type=float, default=300.0,
                      help="seconds allowed for each game (default 300)")
    sim = sub.add_parser("sim", help="play random games in-process and report engine speed")
    sim.add_argument("--games", type=int, default=200, help="number of games (default 200)")
    sim.add_argument("--players", type=int, default=2, help="players per game, 2-8 (default 2)")
    sim.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    sim.add_argument("--deck", action="append", default=None,
                     help="demo deck to draw from (repeatable; default: all demo decks)")
    sim.add_argument("--seat-deck", action="append", default=None,
                     help="the deck of each seat in order (repeatable, one per player): "
                          "fixes the decks instead of drawing them")
    sim.add_argument("--all-pairings", action="store_true",
                     help="play --games games at every table of --players decks (each "
                          "multiset of the demo decks, or of --deck; for 2 players every "
                          "pairing, mirrors included)")
    sim.add_argument("--no-encode", action="store_true",
                     help="pure engine: don't stream views or encode decisions (throughput)")
    sim.add_argument("--check-views", action="store_true",
                     help="also compare every stream with a full projection after every "
                          "action (slow)")
    sim.add_argument("--concede-rate", type=float, default=0.0,
                     help="chance before each action that a random player concedes "
                          "(default 0)")
    bench = sub.add_parser("bench-protocol",
                           help="measure delta and snapshot sizes and delta build time")
    bench.add_argument("--games", type=int, default=5, help="number of games (default 5)")
    bench.add_argument("--players", type=int, default=2, help="players per game, 2-8 (default 2)")
    bench.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    bstore = sub.add_parser("bench-store",
                            help="measure what logging an action costs the event loop")
    bstore.add_argument("--rooms", type=int, default=20, help="concurrent rooms (default 20)")
    bstore.add_argument("--actions", type=int, default=200,
                        help="actions each room logs per run (default 200)")
    bstore.add_argument("--runs", type=int, default=5,
                        help="runs of each path, interleaved (default 5)")
    bstore.add_argument("--durability", choices=["process", "power"], default="process",
                        help="the store's durability setting (as for serve)")
    scenario = sub.add_parser("scenario", help="run rules scenario files")
    scenario.add_argument("paths", nargs="+", type=Path, help="scenario files or directories")
    args = parser.parse_args(argv)
    if args.command == "sim":
        return _sim(parser, args)
    if args.command == "scenario":
        return _scenario(args.paths)
    if args.command == "bench-store":
        if min(args.rooms, args.actions, args.runs) < 1:
            parser.error("--rooms, --actions and --runs must be at least 1")
        from server.bench_store import bench_store

        for line in bench_store(args.rooms, args.actions, args.runs, args.durability):
            print(line, flush=True)
        return 0
    if args.command == "bench-protocol":
        if args.games < 1 or not 2 <= args.players <= 8:
            parser.error("--games must be at least 1 and --players between 2 and 8")
        from server.bench import bench_protocol

        print(bench_protocol(args.games, args.seed, args.players).to_json(), flush=True)
        return 0
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    logging.getLogger("websockets").setLevel(logging.WARNING)  # not a line per connection
    if args.command == "serve":
        trio.run(partial(run_server, args.host, args.port, args.data_dir,
                         limits=_limits(parser, args), durability=args.durability,
                         grace=args.grace))
        return 0
    from client_sdk.bots import run_bot_games

    if args.games < 1:
        parser.error("--games must be at least 1")
    if not 2 <= args.players <= 8:
        parser.error("--players must be between 2 and 8")
    from server.cards import demo_deck_names

    names = demo_deck_names()
    unknown = sorted(set(args.deck or []) - set(names))
    if unknown:
        parser.error(f"--deck: unknown deck(s) {unknown}; choose from {names}")
    if args.deck and len(args.deck) > args.players:
        parser.error("--deck: give at most one deck per seat")
    if args.all_pairings:
        from server.sim import tables

        chosen: list[tuple[str, ...]] = tables(args.players, args.deck or names)
    else:
        chosen = [tuple(args.deck or ())]
    summary = trio.run(partial(run_bot_games, args.url, args.games, args.players, args.seed,
                               args.timeout, tables=chosen))
    print(summary.to_json(), flush=True)
    return 0 if summary.completed == summary.games else 1


def _limit_options(serve: argparse.ArgumentParser) -> None:
    from server.app import Limits

    d = Limits()
    r = d.room
    add = serve.add_argument
    add("--durability", choices=["process", "power"], default="process",
        help="what a committed action survives: a crash of the server process (default) or "
             "also a power loss (an fsync per commit)")
    add("--grace", type=float, default=10.0,
        help="seconds SIGTERM/SIGINT waits for clients to close (default 10)")
    add("--max-rooms", type=int, default=d.max_rooms,
        help=f"rooms on this server (default {d.max_rooms})")
    add("--max-rooms-per-session", type=int, default=d.max_rooms_per_session,
        help=f"open rooms one session may have created (default {d.max_rooms_per_session})")
    add("--max-spectators", type=int, default=r.max_spectators,
        help=f"spectators per room (default {r.max_spectators})")
    add("--clock-seconds", type=float, default=r.clock_seconds,
        help=f"each player's time bank when a room doesn't say (default {r.clock_seconds:g})")
    add("--history", type=int, default=r.history,
        help=f"deltas each view class keeps for resuming clients (default {r.history})")
    add("--linger-seconds", type=float, default=r.linger_seconds,
        help=f"how long a finished game's room stays (default {r.linger_seconds:g})")
    add("--idle-room-seconds", type=float, default=r.idle_seconds,
        help=f"how long an unstarted room with nobody in it stays (default {r.idle_seconds:g})")
    add("--outbox", type=int, default=d.outbox_size,
        help=f"messages queued for one client before it is dropped (default {d.outbox_size})")
    add("--send-timeout", type=float, default=d.send_timeout,
        help=f"seconds one send may take before the client is dropped "
             f"(default {d.send_timeout:g})")


def _limits(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Limits:
    from server.app import Limits
    from server.rooms.room import RoomConfig

    positive = ("max_rooms", "max_rooms_per_session", "history", "outbox")
    for name in positive:
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    for name in ("max_spectators", "linger_seconds", "idle_room_seconds", "grace"):
        if getattr(args, name) < 0:
            parser.error(f"--{name.replace('_', '-')} must not be negative")
    if args.clock_seconds <= 0 or args.send_timeout <= 0:
        parser.error("--clock-seconds and --send-timeout must be positive")
    room = RoomConfig(clock_seconds=args.clock_seconds, max_spectators=args.max_spectators,
                      history=args.history, linger_seconds=args.linger_seconds,
                      idle_seconds=args.idle_room_seconds)
    return Limits(outbox_size=args.outbox, send_timeout=args.send_timeout,
                  max_rooms=args.max_rooms, max_rooms_per_session=args.max_rooms_per_session,
                  room=room)


def _sim(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from server.cards import demo_deck_names
    from server.sim import SimOptions, simulate, simulate_tables

    if args.games < 1:
        parser.error("--games must be at least 1")
    if not 2 <= args.players <= 8:
        parser.error("--players must be between 2 and 8")
    unknown = sorted(set(args.deck or []) - set(demo_deck_names())
                     | set(args.seat_deck or []) - set(demo_deck_names()))
    if unknown:
        parser.error(f"unknown deck(s) {unknown}; choose from {demo_deck_names()}")
    if args.seat_deck is not None and len(args.seat_deck) != args.players:
        parser.error(f"--seat-deck given {len(args.seat_deck)} times for {args.players} "
                     "players")
    if args.seat_deck is not None and args.all_pairings:
        parser.error("--seat-deck and --all-pairings don't go together")
    if args.check_views and args.no_encode:
        parser.error("--check-views needs the views: drop --no-encode")
    if not 0.0 <= args.concede_rate <= 1.0:
        parser.error("--concede-rate must be between 0 and 1")
    options = SimOptions(encode=not args.no_encode, check_views=args.check_views,
                         concede_rate=args.concede_rate)
    if args.all_pairings:
        report = simulate_tables(args.games, args.seed, args.players, args.deck,
                                 options=options)
    else:
        report = simulate(args.games, args.seed, args.players, args.deck,
                          seat_decks=args.seat_deck, options=options)
    print(report.to_json(), flush=True)
    for failure in report.failures[:5]:
        print(failure, file=sys.stderr)
    return 0 if report.completed == report.games else 1


def _scenario(paths: list[Path]) -> int:
    from server.scenarios import ScenarioError, run_all

    try:
        passed, failures = run_all(paths)
    except ScenarioError as exc:  # a file that can't be loaded at all
        passed, failures = 0, [str(exc)]
    for failure in failures:
        print(f"FAIL {failure}")
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
