"""The ``manawire`` command line: ``serve``, ``bots``."""

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
    bots.add_argument("--players", type=int, default=2, help="players per game (2)")
    bots.add_argument("--seed", type=int, default=None, help="seed for the bots' choices")
    bots.add_argument("--timeout", type=float, default=300.0,
                      help="seconds allowed for each game (default 300)")
    args = parser.parse_args(argv)
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
    if args.players != 2:
        parser.error("--players: this server version hosts two-player games only")
    summary = trio.run(run_bot_games, args.url, args.games, args.players, args.seed,
                       args.timeout)
    print(summary.to_json(), flush=True)
    return 0 if summary.completed == summary.games else 1


if __name__ == "__main__":
    sys.exit(main())
