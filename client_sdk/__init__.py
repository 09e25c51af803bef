"""Manawire Python SDK: a trio client that mirrors its view of a game, and bots.

Depends on the protocol package only -- never on the server.
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
