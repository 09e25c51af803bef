"""The ``manawire`` command line: ``serve``, ``bots``, ``sim``, ``scenario``,
``bench-protocol``."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

import trio


async def run_server(host: str, port: int, data_dir: Path) -> None:
    """Start the store, the app and the WebSocket listener; run until cancelled."""
    from server.app import App
    from server.store import Store
    from server.transport.ws import serve_app

    store = Store(data_dir / "manawire.sqlite3")
    try:
        async with trio.open_nursery() as nursery:
            app = App(store, nursery)
            server = await nursery.start(serve_app, app, host, port)
            sockets = [lst.socket.getsockname() for lst in server.listeners
                       if isinstance(lst, trio.SocketListener)]
            where = ", ".join(f"{a[0]}:{a[1]}" for a in sockets)
            print(f"manawire listening on ws://{where} (data in {data_dir})", flush=True)
    finally:
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
    bots = sub.add_parser("bots", help="play full games between random bots on a server")
    bots.add_argument("--url", default="ws://127.0.0.1:8765", help="server WebSocket URL")
    bots.add_argument("--games", type=int, default=1, help="number of games (default 1)")
    bots.add_argument("--players", type=int, default=2, help="players per game, 2-8 (default 2)")
    bots.add_argument("--seed", type=int, default=None, help="seed for the bots' choices")
    bots.add_argument("--timeout", type=float, default=300.0,
                      help="seconds allowed for each game (default 300)")
    sim = sub.add_parser("sim", help="play random games in-process and report engine speed")
    sim.add_argument("--games", type=int, default=200, help="number of games (default 200)")
    sim.add_argument("--players", type=int, default=2, help="players per game, 2-8 (default 2)")
    sim.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    sim.add_argument("--deck", action="append", default=None,
                     help="demo deck to draw from (repeatable; default: all demo decks)")
    bench = sub.add_parser("bench-protocol",
                           help="measure delta and snapshot sizes and delta build time")
    bench.add_argument("--games", type=int, default=5, help="number of games (default 5)")
    bench.add_argument("--players", type=int, default=2, help="players per game, 2-8 (default 2)")
    bench.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    scenario = sub.add_parser("scenario", help="run rules scenario files")
    scenario.add_argument("paths", nargs="+", type=Path, help="scenario files or directories")
    args = parser.parse_args(argv)
    if args.command == "sim":
        return _sim(parser, args)
    if args.command == "scenario":
        return _scenario(args.paths)
    if args.command == "bench-protocol":
        if args.games < 1 or not 2 <= args.players <= 8:
            parser.error("--games must be at least 1 and --players between 2 and 8")
        from server.bench import bench_protocol

        print(bench_protocol(args.games, args.seed, args.players).to_json(), flush=True)
        return 0
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    if args.command == "serve":
        try:
            trio.run(run_server, args.host, args.port, args.data_dir)
        except KeyboardInterrupt:
            return 0
        return 0
    from client_sdk.bots import run_bot_games

    if args.games < 1:
        parser.error("--games must be at least 1")
    if not 2 <= args.players <= 8:
        parser.error("--players must be between 2 and 8")
    summary = trio.run(run_bot_games, args.url, args.games, args.players, args.seed,
                       args.timeout)
    print(summary.to_json(), flush=True)
    return 0 if summary.completed == summary.games else 1


def _sim(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from server.cards import demo_deck_names
    from server.sim import simulate

    if args.games < 1:
        parser.error("--games must be at least 1")
    if not 2 <= args.players <= 8:
        parser.error("--players must be between 2 and 8")
    unknown = sorted(set(args.deck or []) - set(demo_deck_names()))
    if unknown:
        parser.error(f"--deck: unknown deck(s) {unknown}; choose from {demo_deck_names()}")
    report = simulate(args.games, args.seed, args.players, args.deck)
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
