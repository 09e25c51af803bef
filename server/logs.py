"""The server's (and its relays') log: one line per record with its time and level, and
websockets' own records only from warnings up -- without the ones an ordinary disconnect
makes: websockets logs "keepalive ping failed" with a traceback when a client stopped
answering its pings and the ping's timeout closed the connection as it should (a client
stopped for a minute; a network gone)."""

from __future__ import annotations

import logging


def configure(tag: str = "") -> None:
    """Log INFO and up to stderr, each line ``time [tag ]LEVEL message``."""
    logging.basicConfig(level=logging.INFO,
                        format=f"%(asctime)s {tag + ' ' if tag else ''}%(levelname)s %(message)s")
    logging.getLogger("websockets").setLevel(logging.WARNING)  # not a line per connection
    for handler in logging.getLogger().handlers:
        handler.addFilter(ordinary_disconnects)


def ordinary_disconnects(record: logging.LogRecord) -> bool:
    """False for a record an ordinary disconnect makes (see the module); True otherwise."""
    if not record.name.startswith("websockets") or record.exc_info is None:
        return True
    exc = record.exc_info[1]
    return not (record.msg == "keepalive ping failed"
                and type(exc).__name__.startswith("ConnectionClosed"))
