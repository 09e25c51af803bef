"""Manawire Python SDK: a trio client that mirrors its view of a game, and bots.

Depends on the protocol package only -- never on the server.

Writing a bot or client with it: docs/sdk.md (a complete bot that plays the server's computer
player, every kind of decision and option, whose a target is, the board, the result, errors
and reconnecting); the full API is in :mod:`client_sdk.client`'s docstrings.
"""

from client_sdk.client import (
    Client,
    ConnectionEndedError,
    ConnectionLostError,
    ProtocolError,
    ServerError,
)
from client_sdk.mirror import Mirror, MirrorDesyncError

__all__ = ["Client", "ConnectionEndedError", "ConnectionLostError", "Mirror",
           "MirrorDesyncError", "ProtocolError", "ServerError"]
