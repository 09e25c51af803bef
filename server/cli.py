"""The ``manawire`` command line: ``serve``, ``bots``, ``account``, ``deck``, ``sim``,
``scenario``, ``bench-protocol``, ``bench-store``, ``bench-server``, ``replay``, ``play``,
``watch``, ``cards``, ``sealed``, ``backup``, ``check-games``."""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sqlite3
import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import trio

from server.serve_options import add_serve_options, environment_error, finite, serve_limits

if TYPE_CHECKING:
    from server.addresses import TrustedProxies
    from server.app import App, Limits
    from server.relay.host import RelayOptions
    from server.store import Store
    from server.store.sqlite import Durability


class ServeStartError(Exception):
    """``manawire serve`` could not start: its data directory is another server's, or not a
    directory, or its address can't be listened on (the command exits with this message)."""


def lock_data_dir(data_dir: Path) -> int:
    """Make ``data_dir`` if needed and lock it for this process (an exclusive ``flock`` on
    ``DATA_DIR/manawire.lock``, released when the returned descriptor is closed or the
    process ends, even by SIGKILL): two servers on one store would each write the same
    games' actions and abort them. Raises :class:`ServeStartError`."""
    import fcntl

    try:
        data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)  # (store.files: nobody else
        # may put a file in it)
        fd = os.open(data_dir / "manawire.lock", os.O_RDWR | os.O_CREAT, 0o600)
    except (FileExistsError, NotADirectoryError):
        raise ServeStartError(f"--data-dir {data_dir} is not a directory") from None
    except OSError as exc:
        raise ServeStartError(f"--data-dir {data_dir}: {exc.strerror or exc}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise ServeStartError(
            f"--data-dir {data_dir} is in use by another manawire serve (it holds "
            f"{data_dir / 'manawire.lock'}): stop that server first, or give this one "
            f"another --data-dir") from None
    except OSError as exc:  # (a file system without locks)
        os.close(fd)
        raise ServeStartError(f"--data-dir {data_dir}: can't lock it: "
                              f"{exc.strerror or exc}") from None
    return fd


async def run_server(host: str, port: int, data_dir: Path, *, limits: Limits | None = None,
                     durability: Durability = "process", grace: float = 10.0,
                     gc_threshold: int | None = None, gc_young_seconds: float = 0.0,
                     gc_full_seconds: float = 600.0, status_seconds: float = 0.0,
                     relays: RelayOptions | None = None,
                     metrics: tuple[str, int] | None = None,
                     trusted_proxies: TrustedProxies | None = None,
                     proxy_connections: int | None = None) -> None:
    """Start the store, reload unfinished games, serve WebSockets until SIGTERM or SIGINT,
    then stop gracefully: freeze the rooms, close every client with 1012 (service restart),
    commit the store and return within about ``grace`` seconds.

    ``gc_threshold``: tune the garbage collector for serving (:mod:`server.gctune`: what
    start-up made -- modules, the card pool -- is frozen, young collections happen every
    ``gc_threshold`` allocations);
    None leaves it as Python sets it. ``gc_young_seconds``: also collect the young generation
    on that clock, and everything every ``gc_full_seconds`` instead of when Python would
    (:func:`server.gctune.collect_on_a_clock`; 0: only Python's own triggers). Either way
    every collection is timed and the figures are printed as a ``gc {...}`` line when the
    server stops.

    ``relays``: start that many relay processes (:mod:`server.relay`), each a WebSocket
    front on its own port that serves its clients' spectator streams off this process.
    ``status_seconds``: log a status line that often (:mod:`server.status`; 0: never).
    ``metrics``: (host, port) to answer Prometheus scrapes on (:mod:`server.metrics`).
    ``trusted_proxies``: reverse proxies whose ``X-Forwarded-For`` names the client
    (:class:`server.addresses.TrustedProxies`), each holding at most ``proxy_connections``
    TCP connections (None: :data:`server.transport.ws.PROXY_CONNECTIONS`)."""
    from server import gctune
    from server.app import CLOSE_SERVICE_RESTART, App
    from server.relay.host import FeedRouter, RelayLink, start_relays
    from server.transport.ws import PROXY_CONNECTIONS, AddressListener, serve_app

    monitor = gctune.GcMonitor()
    if gc_threshold is not None:
        from server.cards import card_pool

        card_pool()  # loaded now, to be frozen with the modules
        # Before the reloaded games exist: a finished room's garbage must stay collectable.
        gctune.freeze_startup()
        gctune.set_threshold(gc_threshold)

    log = logging.getLogger("manawire")
    from server import build

    log.info("manawire %s starting (data in %s)", build.describe(), data_dir)
    log.info("%s", raise_open_files_limit())
    from server.store.files import STORE_NAME

    lock = lock_data_dir(data_dir)
    try:
        store = open_store(data_dir / STORE_NAME, durability)
    except BaseException:
        os.close(lock)
        raise
    app: App | None = None
    links: list[RelayLink] = []
    served = stopping = False  # (it listened; a signal stops it)
    try:
        with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
            async with trio.open_nursery() as nursery:
                app = App(store, nursery, limits)
                router = FeedRouter(app.relay, app.socket_of)
                app.lobby.relay = router  # before any room exists (recover makes some)
                try:
                    failed_before = store.failed_recoveries()
                    restored = app.recover()
                    failed = store.failed_recoveries() - failed_before
                except sqlite3.DatabaseError as exc:
                    raise ServeStartError(_unusable(store.path, exc)) from None
                lingering = sum(host.room.finished for host in app.lobby.hosts.values())
                monitor.start()
                if status_seconds > 0:
                    nursery.start_soon(app.activity.report, status_seconds, app.gauges)
                if gc_young_seconds > 0:
                    nursery.start_soon(gctune.collect_on_a_clock, gc_young_seconds,
                                       gc_full_seconds)
                if relays is not None and relays.count:  # (before the server's port opens:
                    # a relay that can't listen stops the server before it takes any client)
                    links = await start_relays(relays, router, app.handle_connection,
                                               nursery, app.refusals)
                metrics_url = ""
                if metrics is not None:
                    from server.metrics import registry_for
                    from server.transport.metrics import METRICS_PATH, serve_metrics

                    registry = registry_for(app, lambda: links, monitor)
                    metrics_host, metrics_port = metrics
                    try:
                        scraped = await nursery.start(partial(
                            serve_metrics, registry, metrics_host, metrics_port,
                            trouble=app.writer.writes.describe,
                            build=f"manawire {build.describe()}"))
                    except OSError as exc:
                        raise ServeStartError(f"can't listen for metrics on {metrics_host}:"
                                              f"{metrics_port}: {exc.strerror or exc}"
                                              ) from None
                    bound = scraped.listeners[0].socket.getsockname()
                    metrics_url = f"http://{_host_port(str(bound[0]), bound[1])}{METRICS_PATH}"
                try:
                    server = await nursery.start(partial(
                        serve_app, app, host, port, trusted_proxies=trusted_proxies,
                        proxy_connections=PROXY_CONNECTIONS if proxy_connections is None
                        else proxy_connections))
                except OSError as exc:  # (the port is taken, the address isn't this host's)
                    raise ServeStartError(f"can't listen on {host}:{port}: "
                                          f"{exc.strerror or exc}") from None
                sockets = [lst.socket.getsockname() for lst in server.listeners
                           if isinstance(lst, (trio.SocketListener, AddressListener))]
                where = ", ".join(f"ws://{_host_port(str(a[0]), a[1])}" for a in sockets)
                print(f"manawire listening on {where} (data in {data_dir}; "
                      f"{_restored(restored, lingering, failed)}); open "
                      f"{_browser_url(sockets)} to play",
                      flush=True)
                if relays is not None and links:
                    urls = ", ".join(f"ws://{_host_port(relays.host, r.port)}" for r in links)
                    print(f"manawire relays listening on {urls} (spectators: connect "
                          f"there)", flush=True)
                if metrics_url:
                    print(f"manawire metrics on {metrics_url}", flush=True)
                if trusted_proxies:
                    print(f"manawire takes clients' addresses from X-Forwarded-For on "
                          f"requests from {', '.join(map(str, trusted_proxies.ranges))}",
                          flush=True)
                served = True
                async for signum in signals:
                    log.info("%s: stopping (games are kept and go on after a restart)",
                             signal.Signals(signum).name)
                    stopping = True
                    break
                app.shutdown()  # (a relay's clients' 1012 goes over its link first)
                for relay in links:
                    relay.stop()
                with trio.move_on_after(grace):
                    await server.aclose(code=CLOSE_SERVICE_RESTART, reason="server restarting")
                    for relay in links:  # each closes its clients and exits
                        await relay.stopped.wait()
                nursery.cancel_scope.cancel()
    finally:
        try:
            for relay in links:
                relay.kill()
            monitor.stop()
            if app is not None:
                app.close()
            store.close()
        finally:
            os.close(lock)
        if stopping and app is not None:
            _say_stopped(log, app)
        if served:  # (a failed start has no figures worth a line)
            print(monitor.line(), flush=True)


def _say_stopped(log: logging.Logger, app: App) -> None:
    """The log's last line of a stop a signal asked for: whether the store took the last
    writes."""
    writes = app.writer.writes
    if writes.down:
        log.warning("stopped: the store's last write failed (%s); every game is kept as "
                    "last stored", writes.reason)
    else:
        log.info("stopped: every write is committed to the store; games go on after a "
                 "restart")


def raise_open_files_limit() -> str:
    """Raise this process's soft limit of open files (``RLIMIT_NOFILE``) to its hard limit
    -- every connection is one, and a low ``ulimit -n`` (often 1,024) made accepts fail --
    and say what it is now."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        except (OSError, ValueError) as exc:
            return (f"open files limit (nofile): {soft:,}; raising it to {wanted:,} failed "
                    f"({exc}): each connection takes one")
        return (f"open files limit (nofile): {wanted:,} (raised from {soft:,}"
                f"{', the hard limit' if wanted == hard else ''})")
    return f"open files limit (nofile): {_limit(soft)} (the hard limit: {_limit(hard)})"


def _limit(value: int) -> str:
    import resource

    return "unlimited" if value == resource.RLIM_INFINITY else f"{value:,}"


def open_store(path: Path, durability: Durability) -> Store:
    """The store at ``path``, made if new -- readable by this user only: it holds every
    game's secret seed (which orders the libraries) and the password hashes. Raises
    :class:`ServeStartError` if the file can't be written or isn't a usable database."""
    from server.store import Store

    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise ServeStartError(f"{path} can't be read and written by this user (its owner "
                              f"runs the server, or give this user access)")
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))  # (SQLite's log files
        # take the database file's permissions)
    _restrict(path)  # before opening: a -wal or -shm SQLite makes copies the file's mode
    try:
        store = Store(path, durability)
    except sqlite3.DatabaseError as exc:
        raise ServeStartError(_unusable(path, exc)) from None
    try:
        _restrict(path)  # (one left over from before, now that it exists)
    except ServeStartError:
        store.close()
        raise
    return store


def _restrict(path: Path) -> None:
    """Make the store's files 0600 where they allow more, saying so once (in the log), or
    raise :class:`ServeStartError` saying why it can't -- or why the store can't be trusted
    (:func:`server.store.files.check_store_place`)."""
    from server.store.files import StorePermissionError, check_store_place, restrict_store_files

    try:
        check_store_place(path)
        changed = restrict_store_files(path)
    except StorePermissionError as exc:
        raise ServeStartError(str(exc)) from None
    if changed:
        logging.getLogger("manawire").warning(
            "made the store's files readable by this user only (mode 0600: they hold the "
            "secret seeds of games in progress and the password hashes): %s",
            ", ".join(f"{file} (was {mode:04o})" for file, mode in changed))


def _port_clash(listeners: list[tuple[str, str, int]]) -> str:
    """Two of serve's own listeners (each its option, host and port) given one port on one
    address ("" if none are): said up front, not as the second one's "Address already in
    use". Port 0 (any free port) never clashes; a wildcard host is every address."""
    wildcard = ("", "0.0.0.0", "::")
    for n, (flag, host, port) in enumerate(listeners):
        for other, other_host, other_port in listeners[:n]:
            if port and port == other_port and (
                    host == other_host or host in wildcard or other_host in wildcard):
                return (f"{flag} is {port}, as is {other}: each of the server's listeners "
                        f"needs a port of its own")
    return ""


def _unusable(path: Path, exc: sqlite3.DatabaseError) -> str:
    from server.store.health import cant_write

    if cant_write(exc):  # (the file is fine: its disk is full, or read-only)
        return (f"{path} can't be written: {exc} (is its disk full, or its file system "
                f"read-only? Nothing stored is lost: make room and start again)")
    return (f"{path} is not a usable store: {exc} (a damaged or foreign file: restore it "
            f"from a backup, or move it away to start with an empty store)")


def _restored(rooms: int, lingering: int, failed: int) -> str:
    """What a start reloaded: ``N games restored (M in play, K finished and lingering; F
    could not be recovered)`` -- N counts the finished rooms that still linger too."""
    return (f"{rooms} game{'' if rooms == 1 else 's'} restored ({rooms - lingering} in play, "
            f"{lingering} finished and lingering; {failed} could not be recovered)")


def _browser_url(sockets: list[tuple[Any, ...]]) -> str:
    """The web client's URL on the first listening address (the same port serves it over
    plain HTTP); a wildcard address (all interfaces) is given as loopback."""
    if not sockets:
        return "http://127.0.0.1/"
    host, port = str(sockets[0][0]), sockets[0][1]
    host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    return f"http://{_host_port(host, port)}/"


def _host_port(host: str, port: int) -> str:
    """``host:port`` for a URL (an IPv6 address in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``manawire`` command."""
    try:
        return _main(argv)
    except* BrokenPipeError:
        # Whoever read the output stopped (``manawire replay ... | head``): stop quietly, as
        # command-line tools do -- also when a task of a trio nursery wrote, and the error
        # comes in an exception group. Standard output now goes nowhere, so the
        # interpreter's last flush can't fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return 1


class _Version(argparse.Action):
    """``--version``: ``manawire 0.1.0 (commit 75de63e9a6b9)`` (:mod:`server.build`: git
    is asked only now, not by every command)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from server import build

        print(f"manawire {build.describe()}", flush=True)
        parser.exit()


def _command_of(argv: list[str]) -> str:
    """The command ``argv`` names: its first word that isn't an option ("" if none; the
    only option before it, ``--version``, takes no value)."""
    return next((word for word in argv if not word.startswith("-")), "")


def _main(argv: list[str] | None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    parser = argparse.ArgumentParser(prog="manawire", description="Manawire game server")
    parser.add_argument("--version", action=_Version, nargs=0, default=argparse.SUPPRESS,
                        help="print the version and the commit it was built from, and exit")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the game server")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 = any)")
    serve.add_argument("--data-dir", type=Path, default=Path("var"),
                       help="directory of the embedded store (default ./var)")
    if _command_of(argv) == "serve":
        # Their defaults are the server's (server.app's Limits: importing it takes ~0.6 s
        # of CPU): built only for serve, so that play, watch, bots, account ... start at
        # once. (No other command reads them; `serve --help` lists them.)
        add_serve_options(serve)
    bots = sub.add_parser("bots", help="play full games between random bots on a server")
    bots.add_argument("--url", default="ws://127.0.0.1:8765", help="server WebSocket URL")
    bots.add_argument("--games", type=int, default=1, help="number of games (default 1)")
    bots.add_argument("--players", type=int, default=2, help="players per game, 2-8 (default 2)")
    bots.add_argument("--seed", type=int, default=None, help="seed for the bots' choices")
    bots.add_argument("--deck", action="append", default=None,
                      help="demo deck name or deck list file for the next seat (repeatable: "
                           "seat 0, 1, ...; default: the server's choice)")
    bots.add_argument("--join", metavar="ROOM_ID", default=None,
                      help="don't create rooms: one bot takes a seat in this room and plays "
                           "its game")
    bots.add_argument("--invite", default="", help="the room's invite code (with --join)")
    bots.add_argument("--token", default=None,
                      help="account token of the bot with --join (default: $MANAWIRE_TOKEN, "
                           "else a new guest)")
    bots.add_argument("--best-of", type=int, default=1, choices=(1, 3, 5),
                      help="each game is a match of this many games at most (3 or 5: two "
                           "players, rule 100.6a; the bots keep their decks between games)")
    bots.add_argument("--quick-match", action="store_true",
                      help="seat the bots of each game through quick match, not a room")
    bots.add_argument("--all-pairings", action="store_true",
                      help="play --games games at every table of demo decks (for 2 players: "
                           "every pairing, mirrors included)")
    bots.add_argument("--format", choices=["constructed", "limited"], default="constructed",
                      help="the rooms' (or quick match's) deck rules: limited for 40-card "
                           "decks such as `manawire sealed --playable` prints (default "
                           "constructed)")
    bots.add_argument("--timeout", type=finite, default=None,
                      help="seconds allowed for each game (default 300; with --join 86400: "
                           "a game with people in it takes as long as its clocks allow)")
    bots.add_argument("--policy", choices=["uniform", "eager"], default="uniform",
                      help="how the bots pick options: uniformly at random (default; games "
                           "of ~1,800 actions), or eagerly playing lands, casting spells and "
                           "attacking (a few hundred)")
    sim = sub.add_parser("sim", help="play random games in-process and report engine speed")
    sim.add_argument("--games", type=int, default=200, help="number of games (default 200)")
    sim.add_argument("--players", type=int, default=2, help="players per game, 2-8 (default 2)")
    sim.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    sim.add_argument("--deck", action="append", default=None, metavar="NAME|FILE",
                     help="a demo deck name or a deck list file (any supported format): once, "
                          "every seat plays it; --players times, seat i plays the i-th; with "
                          "--all-pairings, the pool of decks (default: decks drawn at random "
                          "from all demo decks)")
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
    sim.add_argument("--profile", metavar="FILE", type=Path, default=None,
                     help="run under cProfile: write the stats to FILE (pstats format) and "
                          "print the top 15 functions by cumulative time to stderr")
    bengine = sub.add_parser("bench-engine",
                             help="the rules engine's games/s against phase-python's, same deck")
    bengine.add_argument("--deck", type=Path, default=None, metavar="FILE",
                         help="a plain deck list both seats play (default: the issue-17 M21 "
                              "list, server/cards/data/bench/m21-simple.txt)")
    bengine.add_argument("--games", type=int, default=100,
                         help="games per run (default 100)")
    bengine.add_argument("--phase-games", type=int, default=20,
                         help="games per run of phase, which is much slower (default 20)")
    bengine.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    bengine.add_argument("--runs", type=int, default=3,
                         help="runs of each engine, interleaved (default 3)")
    bengine.add_argument("--cpu", type=int, default=None,
                         help="the CPU every run is pinned to (default: the last usable one; "
                              "-1: unpinned)")
    bengine.add_argument("--phase-python", metavar="PYTHON", default=None,
                         help="an interpreter with phase-python installed: run phase too and "
                              "print the ratio (make bench-engine makes .venv-phase)")
    bengine.add_argument("--root", type=Path, action="append", default=[], metavar="DIR",
                         help="another Manawire checkout to measure too, interleaved")
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
    account = sub.add_parser("account", help="create a guest or registered account (or sign "
                             "in, or revoke tokens) and print its token")
    account.add_argument("--url", default="ws://127.0.0.1:8765", help="server WebSocket URL")
    account.add_argument("--name", default="player", help="a new guest's display name")
    account.add_argument("--register", metavar="NAME", default=None,
                         help="register the new guest under this unique name (password from "
                              "$MANAWIRE_PASSWORD or a prompt)")
    account.add_argument("--login", metavar="NAME", default=None,
                         help="sign in to a registered account (password as for --register) "
                              "and print a new token")
    account.add_argument("--token", default=None,
                         help="act on the account holding this token (default: "
                              "$MANAWIRE_TOKEN, else a new guest; the variable keeps it "
                              "out of the process list)")
    account.add_argument("--revoke", action="store_true",
                         help="void every token of the account; print the new one")
    from server.decks.cli import register as register_deck

    register_deck(sub)
    from server.benchload import register as register_bench_server

    register_bench_server(sub)
    from client_sdk.cli import register as register_terminal

    register_terminal(sub)  # play, watch
    from server.replay_cli import register as register_replay

    register_replay(sub)
    from server.backup import register as register_backup

    register_backup(sub)
    from server.check_games import register as register_check_games

    register_check_games(sub)
    from server.cards.cli import register as register_cards

    register_cards(sub)  # cards, sealed
    scenario = sub.add_parser("scenario", help="run rules scenario files")
    scenario.add_argument("paths", nargs="+", type=Path, help="scenario files or directories")
    args = parser.parse_args(argv)
    # The checks below are the command's: its usage, not the list of commands, with them.
    parser = sub.choices.get(args.command, parser)
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
    if args.command == "replay":
        return int(args.replay_main(args))
    if args.command == "backup":
        return int(args.backup_main(args))
    if args.command == "check-games":
        return int(args.check_games_main(args))
    if args.command in ("cards", "sealed"):
        return int(args.cards_main(args))
    if args.command == "bench-engine":
        return _bench_engine(parser, args)
    if args.command == "bench-server":
        return int(args.bench_server_main(args))
    if args.command in ("play", "watch"):  # a terminal screen: no log lines on it
        return int(args.terminal_main(args))
    from server import logs

    level = None
    if args.command == "serve":
        try:
            level = args.log_level or logs.configured_level()
        except ValueError as exc:
            environment_error(parser, f"{exc} (or give --log-level)")
        os.environ[logs.LEVEL_VARIABLE] = level  # (its relays, started with this
        # environment, log from the same level)
    logs.configure(level=level)
    if args.command == "account":
        return _account(parser, args)
    if args.command == "deck":
        return int(args.deck_main(args))
    if args.command == "serve":
        if args.gc_young_seconds < 0 or args.gc_full_seconds <= 0:
            parser.error("--gc-young-seconds must not be negative (0: off), "
                         "--gc-full-seconds must be positive")
        if args.status_seconds < 0:
            parser.error("--status-seconds must not be negative (0: no status lines)")
        if args.gc_threshold == 0 or args.gc_threshold < -1:
            parser.error("--gc-threshold must be at least 1 (or -1: Python's own collector)")
        from server.addresses import TrustedProxies
        from server.relay.host import RelayOptions, RelayStartError

        limits = serve_limits(parser, args)
        if not 0 <= args.port <= 65535 or not 0 <= args.relay_port <= 65535 or \
                (args.metrics_port is not None and not 0 <= args.metrics_port <= 65535):
            parser.error("--port, --relay-port and --metrics-port are 0-65535 (0: any free "
                         "port)")
        if args.relay_port and args.relays > 0 and args.relay_port + args.relays - 1 > 65535:
            parser.error(f"--relays {args.relays} from --relay-port {args.relay_port} go past "
                         f"port 65535 (relay n listens on --relay-port + n)")
        if args.relays < 0 or args.relay_port < 0 or not 0 <= args.relay_nice <= 19:
            parser.error("--relays and --relay-port must not be negative, --relay-nice 0-19")
        listeners = [("--port", args.host, args.port)]
        if args.metrics_port:
            listeners.append(("--metrics-port", args.metrics_host, args.metrics_port))
        if args.relay_port:
            listeners += [(f"relay {n}'s port (--relay-port + {n})" if n else "--relay-port",
                           args.relay_host or args.host, args.relay_port + n)
                          for n in range(args.relays)]
        clash = _port_clash(listeners)
        if clash:
            parser.error(clash)
        relays = RelayOptions(
            args.relays, args.relay_host or args.host, args.relay_port,
            flush_seconds=limits.spectator_flush_seconds,
            feed_messages=limits.spectator_feed_messages, nice=args.relay_nice,
            max_connections_per_address=limits.max_connections_per_address,
            max_http_requests_per_address=limits.max_http_requests_per_address,
            idle=args.relay_idle, trusted_proxies=tuple(args.trusted_proxy),
            proxy_connections=args.max_proxy_connections, outbox=limits.outbox_size,
            outbox_bytes=limits.outbox_bytes,
            send_timeout=limits.send_timeout, messages_per_second=limits.messages_per_second,
            message_burst=limits.message_burst, rate_strikes=limits.rate_strikes)
        failed: list[BaseException] = []
        try:
            trio.run(partial(run_server, args.host, args.port, args.data_dir,
                             limits=limits, durability=args.durability,
                             grace=args.grace,
                             gc_threshold=None if args.gc_threshold < 0 else args.gc_threshold,
                             gc_young_seconds=args.gc_young_seconds,
                             gc_full_seconds=args.gc_full_seconds,
                             status_seconds=args.status_seconds, relays=relays,
                             metrics=None if args.metrics_port is None
                             else (args.metrics_host, args.metrics_port),
                             trusted_proxies=TrustedProxies(args.trusted_proxy),
                             proxy_connections=args.max_proxy_connections))
        except* (RelayStartError, ServeStartError) as group:
            failed.extend(group.exceptions)
        if failed:
            print(f"manawire serve: {failed[0]}", file=sys.stderr)
            return 1
        return 0
    from client_sdk.bots import run_bot_games
    from client_sdk.policy import Policy

    if args.games < 1:
        parser.error("--games must be at least 1")
    if not 2 <= args.players <= 8:
        parser.error("--players must be between 2 and 8")
    if args.timeout is None:
        args.timeout = 86_400.0 if args.join is not None else 300.0
    if not args.timeout > 0:
        parser.error("--timeout must be a positive number of seconds")
    if not args.url.startswith(("ws://", "wss://")):
        parser.error(f"--url {args.url}: not a WebSocket URL (ws://HOST:PORT)")
    from client_sdk.cli import tls_problem

    problem = tls_problem(args.url)  # (trio's TLS layer would hide it: BrokenResourceError)
    if problem is not None:
        print(f"manawire bots: can't connect to {args.url} over TLS: {problem}",
              file=sys.stderr)
        return 1
    from server.cards import demo_deck_names

    names = demo_deck_names()
    decks = [_deck_arg(parser, d, names) for d in args.deck or []]
    if args.deck and len(args.deck) > args.players:
        parser.error("--deck: give at most one deck per seat")
    if args.best_of > 1 and (args.players != 2 or args.quick_match or args.join):
        parser.error("--best-of 3 or 5 is a match between two bots in a room they create "
                     "(not with --players other than 2, --quick-match or --join)")
    if args.join is not None:
        from client_sdk.bots import SeatedElsewhereError, join_and_play
        from client_sdk.cli import token_arg
        from client_sdk.client import ConnectionLostError, ServerError

        try:
            actions = trio.run(partial(join_and_play, args.url, args.join,
                                       invite_code=args.invite, deck=decks[0] if decks else "",
                                       token=token_arg(args.token), seed=args.seed,
                                       game_seconds=args.timeout,
                                       policy=Policy(args.policy)))
        except (ServerError, SeatedElsewhereError, ConnectionLostError) as exc:
            print(f"manawire bots: {exc}", file=sys.stderr)
            return 1
        except trio.TooSlowError:
            print(f"manawire bots: the game did not end within --timeout {args.timeout:g} s; "
                  f"the bot left it", file=sys.stderr)
            return 1
        print(json.dumps({"room_id": args.join, "actions": actions}), flush=True)
        return 0
    if args.all_pairings:
        from server.sim import tables

        chosen: list[tuple[str, ...]] = tables(args.players, decks or names)
    else:
        chosen = [tuple(decks)]
    from protocol.v1 import messages_pb2 as mpb

    deck_format = mpb.DECK_FORMAT_LIMITED if args.format == "limited" \
        else mpb.DECK_FORMAT_CONSTRUCTED
    summary = trio.run(partial(run_bot_games, args.url, args.games, args.players, args.seed,
                               args.timeout, tables=chosen, quick_match=args.quick_match,
                               best_of=args.best_of, deck_format=deck_format,
                               policy=Policy(args.policy)))
    print(summary.to_json(), flush=True)
    return 0 if summary.completed == summary.games else 1


def _deck_arg(parser: argparse.ArgumentParser, value: str, names: list[str]) -> str:
    """A ``--deck`` value: a demo deck name as is, or the text of a deck list file."""
    if value in names:
        return value
    path = Path(value)
    if not path.is_file():
        parser.error(f"--deck: {value!r} is neither a demo deck ({', '.join(names)}) nor a "
                     "file")
    return path.read_text(encoding="utf-8-sig")


def _bench_engine(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from server.benchengine import BENCH_DECK, bench_engine

    if args.games < 1 or args.runs < 1 or args.phase_games < 1:
        parser.error("--games, --phase-games and --runs must be at least 1")
    deck: Path = args.deck or BENCH_DECK
    if not deck.is_file():
        parser.error(f"--deck {deck}: no such file")
    for root in args.root:
        if not (root / "server" / "engine").is_dir():
            parser.error(f"--root {root}: not a Manawire checkout (no server/engine)")
    cpus = sorted(os.sched_getaffinity(0))
    cpu = cpus[-1] if args.cpu is None else args.cpu
    if cpu != -1 and cpu not in cpus:
        parser.error(f"--cpu {cpu}: not one of this machine's usable CPUs {cpus}")
    try:
        return bench_engine(deck, args.games, args.seed, runs=args.runs, cpu=cpu,
                            phase_python=args.phase_python, roots=args.root,
                            phase_games=args.phase_games)
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
        print(f"manawire bench-engine: {exc}", file=sys.stderr)
        return 1


def _account(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    import getpass
    import os

    from client_sdk.cli import run_command
    from client_sdk.client import Client

    def password() -> str:
        try:
            return os.environ.get("MANAWIRE_PASSWORD") or getpass.getpass("password: ")
        except EOFError:  # (no terminal to ask on, and the input is empty)
            parser.error("no password: set MANAWIRE_PASSWORD, or run this in a terminal "
                         "to be asked for it")

    from client_sdk.cli import token_arg

    token = "" if args.login else token_arg(args.token)
    if args.login and (args.token or args.register):
        parser.error("--login doesn't go with --token or --register")
    login = (args.login, password()) if args.login else None
    secret = password() if args.register else ""

    async def run() -> int:
        async with Client.connect(args.url, args.name, token=token, login=login,
                                  reconnect=False) as client:
            if args.register:
                await client.register(args.register, secret)
            if args.revoke:
                await client.revoke_tokens()
            print(json.dumps({
                "account_id": client.account.account_id, "name": client.account.name,
                "registered": client.account.registered, "token": client.account_token}),
                flush=True)
        return 0

    return run_command("account", run, args.url)


def _sim(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from server.cards import demo_deck_names
    from server.decks import DeckFormat, DeckListError, resolve
    from server.sim import DeckSpec, SimDeck, SimOptions, SimReport, simulate, simulate_tables

    def deck(value: str) -> DeckSpec:
        """A ``--deck`` value: a demo deck name as is, or the deck of a deck list file --
        read as ``bots --deck`` reads it (:func:`_deck_arg`) and resolved as a room resolves
        a deck (:func:`server.decks.resolve`), checked as a limited deck (rule 100.2b: at
        least 40 cards, any number of copies, every card known and supported), labelled
        with its path."""
        if value in names:
            return value
        try:
            text = _deck_arg(parser, value, names)
        except (OSError, UnicodeDecodeError) as exc:
            parser.error(f"--deck {value}: can't read the file: {exc}")
        try:
            resolved = resolve(text, DeckFormat.LIMITED)
        except DeckListError as exc:
            problems = "\n".join(f"  {line}" for line in str(exc).splitlines())
            parser.error(f"--deck {value}: the deck list can't be played:\n{problems}")
        return SimDeck(str(Path(value).resolve()), resolved.main, resolved.sideboard)

    if args.games < 1:
        parser.error("--games must be at least 1")
    if not 2 <= args.players <= 8:
        parser.error("--players must be between 2 and 8")
    if args.check_views and args.no_encode:
        parser.error("--check-views needs the views: drop --no-encode")
    if not 0.0 <= args.concede_rate <= 1.0:
        parser.error("--concede-rate must be between 0 and 1")
    if args.profile is not None and not args.profile.parent.is_dir():
        parser.error(f"--profile: no directory {str(args.profile.parent)!r} to write "
                     f"{str(args.profile)!r} in")
    names = demo_deck_names()
    decks = [deck(value) for value in args.deck or []]
    seat_decks: list[DeckSpec] | None = None
    if decks and not args.all_pairings:
        if len(decks) == 1:
            seat_decks = decks * args.players
        elif len(decks) == args.players:
            seat_decks = decks
        else:
            parser.error(f"--deck given {len(decks)} times for {args.players} players: give "
                         f"it once (every seat plays it), {args.players} times (seat i plays "
                         "the i-th) or add --all-pairings (a pool of decks)")
    options = SimOptions(encode=not args.no_encode, check_views=args.check_views,
                         concede_rate=args.concede_rate)

    def run() -> SimReport:
        if args.all_pairings:
            return simulate_tables(args.games, args.seed, args.players, decks or None,
                                   options=options)
        return simulate(args.games, args.seed, args.players, seat_decks=seat_decks,
                        options=options)

    if args.profile is None:
        report = run()
    else:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        report = profiler.runcall(run)
        profiler.dump_stats(args.profile)
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(15)
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
