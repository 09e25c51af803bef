"""``manawire serve``'s options for durability, the garbage collector and the server's
limits, and the :class:`~server.app.Limits` they make (split from :mod:`server.cli`). The
server's modules are imported only when the options are built or read, so other commands
start without them."""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn, TypeVar

if TYPE_CHECKING:
    from server.addresses import IPNetwork
    from server.app import Limits

_T = TypeVar("_T")


def finite(text: str) -> float:
    """A number option's value: a finite number (``nan`` and ``inf`` parse as floats, and
    reached the server as limits and times it could not use: every connection closed with
    1011, or the server stopped)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
    return value


#: The environment variable ``--max-game-actions`` defaults to (as ``--log-level``'s).
GAME_ACTIONS_VARIABLE = "MANAWIRE_MAX_GAME_ACTIONS"


def game_actions(text: str) -> int:
    """A ``--max-game-actions`` value: a whole number, 0 or more (0: no limit)."""
    try:
        value = int(text.strip().replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, got {text!r}")
    return value


def from_environment(variable: str, parse: Callable[[str], _T], default: _T) -> _T:
    """The setting environment variable ``variable`` gives, read as its option reads it
    (``parse``, an argparse type), or ``default`` if unset or empty; ValueError naming the
    variable and saying why if ``parse`` refuses it."""
    value = os.environ.get(variable, "")
    if not value.strip():
        return default
    try:
        return parse(value)
    except argparse.ArgumentTypeError as exc:
        raise ValueError(f"${variable}: {exc}") from None


def environment_error(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    """Exit 2 with ``message`` about an environment variable on one line: unlike an
    option's error, argparse's usage (forty lines for ``serve``) says nothing about it."""
    parser.exit(2, f"{parser.prog}: error: {message}\n")


def configured_game_actions(default: int) -> int:
    """``$MANAWIRE_MAX_GAME_ACTIONS``'s limit (``default`` if unset or empty); ValueError
    saying why if it is no such number."""
    return from_environment(GAME_ACTIONS_VARIABLE, game_actions, default)


def _proxy_range(text: str) -> IPNetwork:
    from server.addresses import proxy_range

    return proxy_range(text)


def add_serve_options(serve: argparse.ArgumentParser) -> None:
    """``manawire serve``'s durability, collector and limit options (docs/limits.md, "Limits")."""
    from server import gctune, logs
    from server.app import Limits
    from server.rooms.room import ACTION_WARNING_SHARE
    from server.status import STATUS_SECONDS
    from server.transport.ws import PROXY_CONNECTIONS

    d = Limits()
    r = d.room
    add = serve.add_argument
    add("--durability", choices=["process", "power"], default="process",
        help="what a committed action survives: a crash of the server process (default) or "
             "also a power loss (an fsync per commit)")
    add("--grace", type=finite, default=10.0,
        help="seconds SIGTERM/SIGINT waits for clients to close (default 10)")
    add("--gc-threshold", type=int, default=gctune.DEFAULT_THRESHOLD,
        help=f"garbage collection for serving: freeze what start-up made and collect the "
             f"young generation every N allocations (default {gctune.DEFAULT_THRESHOLD}; "
             f"-1: leave Python's thresholds as they are; with --gc-young-seconds 0, "
             f"Python's collector untouched)")
    add("--gc-young-seconds", type=finite, default=gctune.DEFAULT_YOUNG_SECONDS,
        help=f"also collect the young and middle generations every S seconds (their "
             f"survivors go to the old one), so no collection finds more than S seconds' "
             f"survivors; then everything is collected every --gc-full-seconds, not when "
             f"Python would "
             f"(default {gctune.DEFAULT_YOUNG_SECONDS:g}; 0: off, Python's own triggers)")
    add("--gc-full-seconds", type=finite, default=gctune.DEFAULT_FULL_SECONDS,
        help=f"with --gc-young-seconds: seconds between full collections, the only ones that "
             f"free cyclic garbage in the old generation (default "
             f"{gctune.DEFAULT_FULL_SECONDS:g})")
    add("--status-seconds", type=finite, default=STATUS_SECONDS,
        help=f"log a status line this often: connections, rooms and games in play, and the "
             f"connections opened and actions played since the last (default "
             f"{STATUS_SECONDS:g}; 0: never)")
    add("--log-level", type=logs.level_name, default=None, metavar="LEVEL",
        help=f"the least severe log records written: {', '.join(logs.LEVELS)} (default: "
             f"${logs.LEVEL_VARIABLE} if set, else {logs.DEFAULT_LEVEL}; the relays log "
             f"from the same)")
    add("--metrics-port", type=int, default=None, metavar="P",
        help="also answer Prometheus scrapes (GET /metrics) and liveness probes (GET "
             "/healthz) over plain HTTP on this port (default: off; 0: any free port)")
    add("--metrics-host", default="127.0.0.1",
        help="address the metrics port binds (default 127.0.0.1, whatever --host is: the "
             "figures are the operator's)")
    add("--max-rooms", type=int, default=d.max_rooms,
        help=f"rooms on this server (default {d.max_rooms})")
    add("--max-rooms-per-account", type=int, default=d.max_rooms_per_account,
        help=f"open rooms one account may have created (default {d.max_rooms_per_account})")
    add("--max-rooms-per-address", type=int, default=d.max_rooms_per_address,
        help=f"open rooms, started or not, created from one client address "
             f"(default {d.max_rooms_per_address})")
    add("--room-burst", type=int, default=d.room_burst,
        help=f"rooms one client address may have made at once -- created, or made by the "
             f"server for players there (a quick match, a rematch) (default {d.room_burst})")
    add("--rooms-per-minute", type=finite, default=d.rooms_per_minute,
        help=f"rooms made per minute per client address after the burst "
             f"(default {d.rooms_per_minute:g})")
    add("--max-waiting-rooms-per-address", type=int, default=d.max_waiting_rooms_per_address,
        help=f"rooms waiting for players that connections from one address may have created "
             f"(default {d.max_waiting_rooms_per_address})")
    add("--max-replays", type=int, default=d.max_replays,
        help=f"replays the server plays at once (default {d.max_replays})")
    add("--max-replays-per-address", type=int, default=d.max_replays_per_address,
        help=f"replays connections from one client address play at once "
             f"(default {d.max_replays_per_address})")
    add("--messages-per-second", type=finite, default=d.messages_per_second,
        help=f"client messages per second per connection (default {d.messages_per_second:g})")
    add("--message-burst", type=int, default=d.message_burst,
        help=f"messages a connection may send at once (default {d.message_burst})")
    add("--rate-strikes", type=int, default=d.rate_strikes,
        help=f"messages refused for rate before the connection is closed with 1008 "
             f"(default {d.rate_strikes})")
    add("--max-connections-per-address", type=int, default=d.max_connections_per_address,
        help=f"open connections per client address; past it the handshake gets HTTP 503 "
             f"(default {d.max_connections_per_address})")
    add("--max-http-requests-per-address", type=int, default=d.max_http_requests_per_address,
        help=f"plain HTTP requests (the web client's files) per client address in flight; "
             f"past it the request gets HTTP 503 (default {d.max_http_requests_per_address})")
    add("--trusted-proxy", action="append", default=[], metavar="CIDR", type=_proxy_range,
        help="a reverse proxy's address range (e.g. 127.0.0.1/32, ::1/128; repeatable) whose "
             "X-Forwarded-For header names the client: a request from it counts against the "
             "header's right-most address outside every trusted range, for every "
             "per-address limit and in the log; other peers' headers are ignored (default: "
             "none, every client is its TCP peer's address)")
    add("--max-proxy-connections", type=int, default=PROXY_CONNECTIONS, metavar="N",
        help=f"open TCP connections one trusted proxy may hold, all its clients together "
             f"(the accept-time cap, counted before the header is read; default "
             f"{PROXY_CONNECTIONS})")
    add("--guest-burst", type=int, default=d.guest_burst,
        help=f"new guest accounts one address may create at once (default {d.guest_burst})")
    add("--guests-per-minute", type=finite, default=d.guests_per_minute,
        help=f"new guest accounts per minute per address after the burst "
             f"(default {d.guests_per_minute:g})")
    add("--guest-days", type=finite, default=d.guest_days,
        help=f"days a guest account nobody uses is kept before it is forgotten, with its "
             f"tokens (default {d.guest_days:g}; 0: for ever)")
    add("--hidden-tier-seconds", type=finite, default=d.hidden_tier_seconds,
        help=f"seconds a delayed spectator tier showing hidden cards (every hand, a seat's "
             f"view) is behind at least (default {d.hidden_tier_seconds:g})")
    add("--login-failures", type=int, default=d.login_failures,
        help=f"failed sign-ins with one name per --login-window before more are refused "
             f"unchecked (default {d.login_failures})")
    add("--login-window", type=finite, default=d.login_window,
        help=f"seconds failed sign-ins are counted over (default {d.login_window:g})")
    add("--password-check-burst", type=int, default=d.password_check_burst,
        help=f"sign-ins with a password and registrations one address may ask for at once "
             f"(default {d.password_check_burst})")
    add("--password-checks-per-minute", type=finite, default=d.password_checks_per_minute,
        help=f"sign-ins with a password and registrations per minute per address after the "
             f"burst (default {d.password_checks_per_minute:g})")
    add("--max-spectators", type=int, default=r.max_spectators,
        help=f"spectators per room (default {r.max_spectators})")
    add("--spectator-flush-seconds", type=finite, default=d.spectator_flush_seconds,
        help=f"spectators get their view's news at most this often, as one frame "
             f"(default {d.spectator_flush_seconds:g}; players are never delayed)")
    add("--spectator-join-interval", type=finite, default=d.spectator_join_interval,
        help=f"seconds between spectators' joins let in while the event loop is busy with "
             f"games (default {d.spectator_join_interval:g}; 0: never paced)")
    add("--relays", type=int, default=0,
        help="relay processes to start (default 0): each listens on its own port and serves "
             "its clients' spectator streams off the game server's process; point "
             "spectators (or anyone) at a relay's port")
    add("--relay-port", type=int, default=0,
        help="the first relay's port, the next ones follow (default 0: any free port)")
    add("--relay-host", default="",
        help="address the relays bind (default: --host)")
    add("--relay-nice", type=int, default=10,
        help="niceness of the relay processes, 0-19: spectators yield the CPU to the games "
             "(default 10)")
    add("--relay-idle", action="store_true",
        help="run the relays under the SCHED_IDLE policy (Linux): they get only CPU time "
             "no other process wants, and the game server preempts them at once")
    add("--spectator-feed-messages", type=int, default=d.spectator_feed_messages,
        help=f"messages a spectator feed keeps for its slowest watcher; one further "
             f"behind is closed with 1013 and resumes (default {d.spectator_feed_messages})")
    add("--max-game-actions", type=game_actions, default=None, metavar="N",
        help=f"actions one game may take; a game that reaches it ends as a draw, its "
             f"players warned at {round(100 * ACTION_WARNING_SHARE)}%% of it (default: "
             f"${GAME_ACTIONS_VARIABLE} if set, else {r.max_game_actions}; 0: no limit)")
    add("--clock-seconds", type=finite, default=r.clock_seconds,
        help=f"each player's time bank when a room doesn't say (default {r.clock_seconds:g})")
    add("--history", type=int, default=r.history,
        help=f"deltas each view class keeps for resuming clients (default {r.history})")
    add("--linger-seconds", type=finite, default=r.linger_seconds,
        help=f"how long a finished game's room stays (default {r.linger_seconds:g})")
    add("--idle-room-seconds", type=finite, default=r.idle_seconds,
        help=f"how long an unstarted room with nobody in it stays (default {r.idle_seconds:g})")
    add("--sideboard-seconds", type=finite, default=r.sideboard_seconds,
        help=f"how long the players of a match have to sideboard between games; who hasn't "
             f"answered keeps their deck (default {r.sideboard_seconds:g})")
    add("--away-seconds", type=finite, default=r.away_seconds,
        help=f"how long a player may stay disconnected from a running game that waits on "
             f"their decision before they concede (default {r.away_seconds:g}; 0: never, "
             f"only their clock runs)")
    add("--computer-seconds", type=finite, default=r.computer_seconds,
        help=f"a computer player's time over each decision, on average (CreateRoom."
             f"computers; uniformly 0.5 to 1.5 times it; default {r.computer_seconds:g})")
    add("--outbox", type=int, default=d.outbox_size,
        help=f"messages queued for one client before it is dropped (default {d.outbox_size})")
    add("--outbox-bytes", type=int, default=d.outbox_bytes,
        help=f"bytes of messages of 1 KiB or more queued for one client before it is dropped "
             f"(default {d.outbox_bytes})")
    add("--send-timeout", type=finite, default=d.send_timeout,
        help=f"seconds one send may take before the client is dropped "
             f"(default {d.send_timeout:g})")
    add("--hello-seconds", type=finite, default=d.hello_seconds,
        help=f"seconds a new connection has to send its first Hello or Resume before it is "
             f"closed (default {d.hello_seconds:g})")


def serve_limits(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Limits:
    """The :class:`~server.app.Limits` the options say (``parser.error`` for a value out
    of range)."""
    from server.app import Limits
    from server.rooms.room import RoomConfig
    from server.rooms.session import MAX_DELAY_SECONDS

    positive = ("max_rooms", "max_rooms_per_account", "history", "outbox", "outbox_bytes",
                "message_burst",
                "rate_strikes", "max_connections_per_address", "max_http_requests_per_address",
                "login_failures", "max_waiting_rooms_per_address", "max_rooms_per_address",
                "max_replays", "max_replays_per_address", "guest_burst", "room_burst",
                "password_check_burst", "spectator_feed_messages", "max_proxy_connections")
    for name in positive:
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    for name in ("max_spectators", "linger_seconds", "idle_room_seconds", "grace", "away_seconds",
                 "spectator_flush_seconds", "sideboard_seconds",
                 "spectator_join_interval", "guest_days", "hidden_tier_seconds",
                 "computer_seconds"):
        if getattr(args, name) < 0:
            parser.error(f"--{name.replace('_', '-')} must not be negative")
    if args.hidden_tier_seconds > MAX_DELAY_SECONDS:
        parser.error(f"--hidden-tier-seconds is at most {MAX_DELAY_SECONDS} (a tier's "
                     f"longest delay)")
    # (--login-window 0 would count no failed sign-in: the lockout silently off)
    for name in ("clock_seconds", "send_timeout", "hello_seconds", "messages_per_second",
                 "guests_per_minute",
                 "password_checks_per_minute", "login_window", "rooms_per_minute"):
        if getattr(args, name) <= 0:
            parser.error(f"--{name.replace('_', '-')} must be positive")
    max_game_actions = args.max_game_actions
    if max_game_actions is None:
        try:
            max_game_actions = configured_game_actions(RoomConfig().max_game_actions)
        except ValueError as exc:
            environment_error(parser, f"{exc} (or give --max-game-actions)")
    room = RoomConfig(clock_seconds=args.clock_seconds, max_spectators=args.max_spectators,
                      history=args.history, linger_seconds=args.linger_seconds,
                      idle_seconds=args.idle_room_seconds,
                      sideboard_seconds=args.sideboard_seconds, away_seconds=args.away_seconds,
                      max_game_actions=max_game_actions,
                      computer_seconds=args.computer_seconds)
    return Limits(outbox_size=args.outbox, outbox_bytes=args.outbox_bytes,
                  send_timeout=args.send_timeout, hello_seconds=args.hello_seconds,
                  max_rooms=args.max_rooms, max_rooms_per_account=args.max_rooms_per_account,
                  max_waiting_rooms_per_address=args.max_waiting_rooms_per_address,
                  max_rooms_per_address=args.max_rooms_per_address,
                  room_burst=args.room_burst, rooms_per_minute=args.rooms_per_minute,
                  max_replays=args.max_replays,
                  max_replays_per_address=args.max_replays_per_address,
                  messages_per_second=args.messages_per_second,
                  message_burst=args.message_burst, rate_strikes=args.rate_strikes,
                  max_connections_per_address=args.max_connections_per_address,
                  max_http_requests_per_address=args.max_http_requests_per_address,
                  login_failures=args.login_failures, login_window=args.login_window,
                  guest_burst=args.guest_burst, guests_per_minute=args.guests_per_minute,
                  guest_days=args.guest_days, hidden_tier_seconds=args.hidden_tier_seconds,
                  password_check_burst=args.password_check_burst,
                  password_checks_per_minute=args.password_checks_per_minute,
                  spectator_flush_seconds=args.spectator_flush_seconds,
                  spectator_feed_messages=args.spectator_feed_messages,
                  spectator_join_interval=args.spectator_join_interval, room=room)
