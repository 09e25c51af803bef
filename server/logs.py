"""The server's (and its relays') log: one line per record with its time and level, from the
level ``manawire serve --log-level`` says up (default INFO), and websockets' own records only
from warnings up -- without the ones an ordinary disconnect makes: websockets logs
"keepalive ping failed" with a traceback when a client stopped answering its pings and the
ping's timeout closed the connection as it should (a client stopped for a minute; a network
gone)."""

from __future__ import annotations

import argparse
import logging

from server.serve_options import from_environment

#: The levels ``--log-level`` takes.
LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING,
          "error": logging.ERROR}
#: The level when ``--log-level`` doesn't say; ``serve`` sets it to its own, so that the
#: relay processes it starts (which inherit its environment) log from the same level.
LEVEL_VARIABLE = "MANAWIRE_LOG_LEVEL"
DEFAULT_LEVEL = "info"


def level_name(text: str) -> str:
    """A ``--log-level`` value, lower-cased (argparse's ``type``; ``ArgumentTypeError`` for
    anything else)."""
    name = text.strip().lower()
    if name not in LEVELS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a log level: give one of "
                                         f"{', '.join(LEVELS)}")
    return name


def configured_level() -> str:
    """The level ``$MANAWIRE_LOG_LEVEL`` names (the default's if unset or empty); ValueError
    saying why if it names none."""
    return from_environment(LEVEL_VARIABLE, level_name, DEFAULT_LEVEL)


def configure(tag: str = "", level: str | None = None) -> None:
    """Log records of ``level`` (a :data:`LEVELS` name; None: ``$MANAWIRE_LOG_LEVEL``'s, else
    INFO) and up to stderr, each line ``time [tag ]LEVEL message``."""
    if level is None:
        try:
            level = configured_level()
        except ValueError:
            level = DEFAULT_LEVEL  # (serve refuses it before it starts anything)
    number = LEVELS[level]
    logging.basicConfig(level=number,
                        format=f"%(asctime)s {tag + ' ' if tag else ''}%(levelname)s %(message)s")
    # Not a line per connection, whatever the level.
    logging.getLogger("websockets").setLevel(max(number, logging.WARNING))
    for handler in logging.getLogger().handlers:
        handler.addFilter(ordinary_disconnects)


def ordinary_disconnects(record: logging.LogRecord) -> bool:
    """False for a record an ordinary disconnect makes (see the module); True otherwise."""
    if not record.name.startswith("websockets") or record.exc_info is None:
        return True
    exc = record.exc_info[1]
    return not (record.msg == "keepalive ping failed"
                and type(exc).__name__.startswith("ConnectionClosed"))
