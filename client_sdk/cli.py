"""The ``manawire play`` and ``manawire watch`` subcommands (the terminal client).

:func:`register` adds them to the ``manawire`` parser; the parsed arguments'
``terminal_main`` runs the command and returns its exit code. The terminal client itself
(:mod:`client_sdk.terminal`, which needs `rich`) is imported only when one of them runs.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path

TOKEN_ENV = "MANAWIRE_TOKEN"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``play`` and ``watch`` to a parser's subcommands."""
    play = subparsers.add_parser(
        "play", help="play a game in the terminal",
        description="Play a game in the terminal: answer each decision by typing the number "
                    "of an option (p passes priority, q quits and concedes). By default "
                    "creates a private room and prints its id and invite code for a friend.")
    play.add_argument("url", help="server WebSocket URL, e.g. ws://127.0.0.1:8765")
    play.add_argument("--name", default="player", help="a new guest's display name")
    play.add_argument("--token", default=None,
                      help=f"play as the account holding this token (default: "
                           f"${TOKEN_ENV}, else the account saved for this server on this "
                           "machine, else a new guest, saved); its game in progress, if "
                           "any, is resumed")
    play.add_argument("--new-guest", action="store_true",
                      help="play as a new guest account, neither using nor saving the one "
                           "saved for this server")
    play.add_argument("--deck", default="", metavar="NAME|FILE",
                      help="a demo deck name or a deck list file (any supported format; "
                           "default: a demo deck)")
    how = play.add_mutually_exclusive_group()
    how.add_argument("--room", metavar="ROOM_ID", default="",
                     help="take a seat in this room (with --invite if it is private)")
    how.add_argument("--quick-match", action="store_true",
                     help="queue for a game with whoever else is queued")
    how.add_argument("--create", action="store_true",
                     help="create a room and wait for players (the default)")
    play.add_argument("--invite", default="", metavar="CODE",
                      help="the room's invite code (the host's seat link or command; a watch "
                           "link's code only watches)")
    play.add_argument("--bot", action="store_true",
                      help="the server's computer players take the other seats of the room "
                           "created (a game against the computer)")
    play.add_argument("--players", type=int, default=2,
                      help="seats of the room created or the quick match, 2-8 (default 2)")
    play.add_argument("--public", action="store_true",
                      help="the room created is listed, and joined without an invite code")
    play.add_argument("--clock", type=int, default=0, metavar="SECONDS",
                      help="each player's time bank in the room created (default: the "
                           "server's, 1800)")
    play.add_argument("--format", choices=["constructed", "limited"], default="constructed",
                      help="deck format of the room created or the quick match")
    play.add_argument("--best-of", type=int, choices=(1, 3, 5), default=1,
                      help="the room created hosts a match of this many games at most (3 or "
                           "5: two players, rule 100.6a); between games keep your deck (k) "
                           "or paste a sideboarded list (d)")
    play.set_defaults(terminal_main=_play)
    watch = subparsers.add_parser(
        "watch", help="watch a game in the terminal",
        description="Watch a game in the terminal as a spectator, until it ends.")
    watch.add_argument("url", help="server WebSocket URL, e.g. ws://127.0.0.1:8765")
    watch.add_argument("room", metavar="ROOM_ID", help="the room to watch")
    watch.add_argument("--invite", default="", metavar="CODE",
                       help="the room's watch code (its audience code, from the host's watch "
                            "link or command; the players' invite code works too): a private "
                            "room's spectators need it")
    watch.add_argument("--tier", type=int, default=0, metavar="N",
                       help="watch the room's delayed spectator tier N (1, 2, ... as the room "
                            "lists them; default 0: the live public view)")
    watch.add_argument("--name", default="spectator", help="a new guest's display name")
    watch.add_argument("--token", default=None,
                       help=f"watch as the account holding this token (default: ${TOKEN_ENV}, "
                            "else a new guest)")
    watch.set_defaults(terminal_main=_watch)


def token_arg(value: str | None) -> str:
    """A ``--token`` option's value: as given, else ``$MANAWIRE_TOKEN`` (a token in the
    environment stays out of the process list), else none."""
    return os.environ.get(TOKEN_ENV, "") if value is None else value


def _deck(value: str) -> str:
    """A ``--deck`` value: a file's text, or a demo deck name as is (the server says if
    there is no such deck)."""
    if not value:
        return ""
    path = Path(value)
    if path.is_file():
        return path.read_bytes().decode("utf-8-sig")
    if os.sep in value or path.suffix:
        raise ValueError(f"--deck: no such file: {value}")
    return value


def screen_logs() -> None:
    """A full-screen client: log records of the libraries under it -- websockets' "unexpected
    internal error" with a traceback, on a connection dropped while the client was stopped
    -- printed over the screen (Python's last-resort handler). They go nowhere now: the
    screen says what happened to the connection."""
    import logging

    logging.getLogger().addHandler(logging.NullHandler())


def _play(args: argparse.Namespace) -> int:
    from client_sdk.terminal import PlayOptions, play
    from protocol.v1 import messages_pb2 as mpb

    screen_logs()

    if not 2 <= args.players <= 8:
        return _usage("play", "--players must be between 2 and 8")
    if args.bot and (args.room or args.quick_match):
        return _usage("play", "--bot fills a room you create: not with --room or "
                              "--quick-match")
    if args.new_guest and token_arg(args.token):
        return _usage("play", f"--new-guest plays as no account's token: not with --token "
                              f"or ${TOKEN_ENV}")
    if args.invite and not args.room:
        return _usage("play", "--invite goes with --room")
    if args.clock < 0:
        return _usage("play", "--clock must not be negative")
    if args.best_of > 1 and (args.players != 2 or args.room or args.quick_match):
        return _usage("play", "--best-of 3 or 5 is a match of two players in a room you "
                              "create: not with --players other than 2, --room or "
                              "--quick-match")
    try:
        deck = _deck(args.deck)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return _usage("play", f"can't read the deck: {exc}")
    fmt = mpb.DECK_FORMAT_LIMITED if args.format == "limited" else mpb.DECK_FORMAT_CONSTRUCTED
    options = PlayOptions(
        url=args.url, name=args.name, token=token_arg(args.token), deck=deck,
        room_id=args.room, invite_code=args.invite, quick_match=args.quick_match,
        bots=args.players - 1 if args.bot else 0, seats=args.players, public=args.public,
        clock_seconds=args.clock, deck_format=fmt, best_of=args.best_of,
        remember=not args.new_guest)
    return run_command("play", partial(play, options), args.url)


def _watch(args: argparse.Namespace) -> int:
    from client_sdk.terminal import watch

    screen_logs()

    if args.tier < 0:
        return _usage("watch", "--tier is 0 (the live view) or a delayed tier's number")
    return run_command("watch", partial(watch, args.url, args.room, invite_code=args.invite,
                                        name=args.name, token=token_arg(args.token),
                                        tier=args.tier), args.url)


def _usage(command: str, message: str) -> int:
    print(f"manawire {command}: {message}", file=sys.stderr)
    return 2


#: Certificate verification errors (OpenSSL's ``X509_V_ERR_*``) that mean the server's
#: certificate is for another name.
_HOSTNAME_MISMATCH = frozenset({62, 64})  # HOSTNAME_MISMATCH, IP_ADDRESS_MISMATCH
#: ... that mean no trusted CA signed it: self-signed, or a private CA not trusted here.
_UNTRUSTED = frozenset({2, 18, 19, 20, 21})
#: What a TLS client reads from a port that doesn't speak TLS (a plain HTTP answer, or
#: the connection closed at the handshake), in OpenSSL's reasons.
_NOT_TLS = ("WRONG_VERSION_NUMBER", "RECORD_LAYER_FAILURE", "UNEXPECTED_EOF_WHILE_READING",
            "HTTP_REQUEST", "PACKET_LENGTH_TOO_LONG", "UNKNOWN_PROTOCOL")


def _trusting_advice() -> str:
    """How to trust a private CA: set ``SSL_CERT_FILE`` -- or, set already, what is wrong
    with the file it names (an operator's nonexistent file was told to set it)."""
    import os
    import ssl

    named = os.environ.get("SSL_CERT_FILE", "")
    if not named:
        return "to trust that CA, set SSL_CERT_FILE=/path/to/ca.pem"
    if not os.path.isfile(named):
        return (f"SSL_CERT_FILE is set to {named}, which is not a file: give the path of the "
                f"CA's certificate (PEM)")
    try:
        ssl.create_default_context(cafile=named)
    except (ssl.SSLError, OSError, ValueError) as exc:
        return (f"SSL_CERT_FILE is set to {named}, which holds no certificate this client "
                f"can read ({exc}): give the CA's certificate (PEM)")
    return (f"SSL_CERT_FILE is set to {named}, but no certificate in it vouches for the "
            f"server's: give the certificate of the CA that signed the server's (or, "
            f"self-signed, the server's own)")


def tls_problem(url: str, timeout: float = 10.0) -> str | None:
    """What goes wrong in a TLS handshake with the host of ``url`` (a ``wss://`` URL), as
    the SDK makes it (Python's default context: the system's CAs, or ``SSL_CERT_FILE``'s):
    the certificate not trusted, for another name, or a port that doesn't speak TLS. None:
    not a ``wss://`` URL, the handshake succeeds, or the host can't be reached at all (said
    elsewhere). trio's TLS layer hides the cause behind a bare ``BrokenResourceError``, so
    it is asked again here, with the standard library."""
    import socket
    import ssl
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port or 443
    except ValueError:
        return None
    if parts.scheme != "wss" or not host:
        return None
    context = ssl.create_default_context()
    try:
        with socket.create_connection((host, port), timeout=timeout) as raw, \
                context.wrap_socket(raw, server_hostname=host):
            return None
    except ssl.SSLCertVerificationError as exc:
        why = exc.verify_message or exc.reason or str(exc)
        if exc.verify_code in _HOSTNAME_MISMATCH:
            return (f"the server's certificate is not for {host} (hostname mismatch: {why}); "
                    f"use the name the certificate was issued for")
        if exc.verify_code in _UNTRUSTED:
            return (f"the server's certificate is not trusted ({why}): a self-signed one, or "
                    f"one of a private CA -- {_trusting_advice()}")
        return f"the server's certificate was refused: {why}"
    except ssl.SSLError as exc:
        if any(reason in str(exc) for reason in _NOT_TLS) or \
                (exc.reason or "") in _NOT_TLS:
            return (f"{host}:{port} doesn't speak TLS (a plain ws:// port? then the URL is "
                    f"ws://{parts.netloc}{parts.path})")
        return f"the TLS handshake failed: {exc.reason or exc}"
    except (ConnectionResetError, BrokenPipeError):
        return (f"{host}:{port} closed the connection at the TLS handshake (not a TLS port, "
                f"or one that refuses this client)")
    except OSError:
        return None  # (not reachable: the command says so itself)


def _tls_failure(exc: BaseException) -> bool:
    """Whether ``exc`` (or every exception of its group) is what a failed TLS handshake
    raises: an ``ssl.SSLError``, or trio's ``BrokenResourceError`` that wraps one."""
    import ssl

    import trio

    if isinstance(exc, BaseExceptionGroup):
        return all(_tls_failure(inner) for inner in exc.exceptions)
    return isinstance(exc, (ssl.SSLError, trio.BrokenResourceError))


def split_note(message: str) -> tuple[str, str]:
    """A message and its closing note in brackets, apart: ``"2 problem(s) (this server
    supports ... (M21) ...)"`` -> ``("2 problem(s)", "(this server supports ... (M21)
    ...)")``; ``(message, "")`` if it ends with no such note -- a bracket that closes a
    word, "1 problem(s)", is none."""
    if not message.endswith(")"):
        return message, ""
    depth = 0
    for at in range(len(message) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(message[at], 0)
        if depth == 0:
            head = message[:at].rstrip()
            return (head, message[at:]) if head and head != message[:at] else (message, "")
    return message, ""


def run_command(command: str, main: Callable[[], Awaitable[int]], url: str = "") -> int:
    """Run a client command (``play``, ``watch``, ``account``) under trio; every error a
    user can meet is one clear message on stderr and exit code 1 (130 for Ctrl-C).
    ``url``: the server's, named in a TLS failure's message."""
    import trio
    from websockets.exceptions import InvalidHandshake, InvalidURI

    from client_sdk.client import ConnectionLostError, ProtocolError, ServerError

    try:
        try:
            code: int = trio.run(main)
        except BaseException as exc:
            if not _tls_failure(exc):
                raise
            problem = tls_problem(url) if url else None
            if problem is None:
                problem = f"the connection broke during the TLS handshake ({exc!r})" \
                    if url.startswith("wss://") else f"the connection broke ({exc!r})"
            print(f"manawire {command}: can't connect to {url or 'the server'}"
                  f"{' over TLS' if url.startswith('wss://') else ''}: {problem}",
                  file=sys.stderr)
            return 1
    except ServerError as exc:
        # A closing note in brackets (a refused deck's "(this server supports the cards of
        # Core Set 2021 (M21) and a few others)") goes on a line of its own, after the
        # problems: at the end of a long first line, a terminal wrapped it before its ")".
        message, note = split_note(exc.message) if exc.details else (exc.message, "")
        print(f"manawire {command}: {message}", file=sys.stderr)
        for detail in exc.details:
            print(f"  {detail}", file=sys.stderr)
        if note:
            print(note, file=sys.stderr)
        return 1
    except InvalidURI as exc:
        scheme, _colon, rest = exc.uri.partition("://")
        hint = f" (the server's WebSocket URL is ws{scheme[4:]}://{rest})" \
            if scheme in ("http", "https") and rest else ""
        print(f"manawire {command}: not a WebSocket URL: {exc.uri}{hint}", file=sys.stderr)
        return 2
    except (OSError, InvalidHandshake, TimeoutError) as exc:
        print(f"manawire {command}: can't connect to the server: {exc}", file=sys.stderr)
        return 1
    except (ConnectionLostError, ProtocolError) as exc:
        print(f"manawire {command}: the connection was lost: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"manawire {command}: interrupted", file=sys.stderr)
        return 130
    return code
