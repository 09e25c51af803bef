"""What a relay process lets through of one client's messages (sans-I/O: the caller passes
the clock and does the sending).

A client of a relay port gets the limits of the server's own port (docs/limits.md, "Limits"),
applied by the relay *before* its messages cross the link, so that no client -- nor any
number of them -- can fill the link and starve the relay's other clients:

* **Size**: a frame over 64 KiB closes the connection (1009) -- websockets does that, with
  the same ``max_size`` on both ports.
* **Rate**: the same :class:`~server.ratelimit.MessageLimiter` (``--messages-per-second``,
  ``--message-burst``, ``--rate-strikes``). A message over the rate is answered by the relay
  with ``ERROR_CODE_RATE_LIMITED`` (its request id, the server's words) and dropped; the one
  that brings the strikes to the limit closes the connection (1008, "too many messages:
  closed for flooding"). An action the room applied gives its token back here too (the
  server says so over the link, :data:`server.relay.link.REFUND`), so playing as fast as a
  game goes is never limited on a relay port either.
* **Frames**: a text frame is answered ``ERROR_CODE_BAD_MESSAGE`` as the server's session
  answers it (:meth:`server.rooms.session.Session.receive`), and goes no further.
* **Inbox**: at most :data:`server.relay.link.WINDOW` forwarded messages the server hasn't
  taken yet (:data:`server.relay.link.CREDIT` gives them back); the client isn't read
  further meanwhile -- as the server's port reads a client's next message only once it is
  done with the last one.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.v1 import messages_pb2 as mpb
from server.ratelimit import CLOSE_POLICY_VIOLATION, MessageLimiter, Verdict
from server.relay import link
from server.rooms.session import error_bytes, request_id_of

#: The close reason of a client closed for flooding (the server's words).
FLOODING = "too many messages: closed for flooding"
#: What a text frame is answered (the server's session's words).
TEXT_FRAME = "messages must be binary protobuf ClientMessage frames"


@dataclass(frozen=True, slots=True)
class ClientLimits:
    """One client's message limits (``Limits``' of the same names)."""

    messages_per_second: float = 20.0
    message_burst: int = 60
    rate_strikes: int = 200


@dataclass(frozen=True, slots=True)
class Forward:
    """Send ``data`` to the server (once :meth:`Gate.may_forward`)."""

    data: bytes


@dataclass(frozen=True, slots=True)
class Answer:
    """Answer the client ``data`` (an Error) and forward nothing."""

    data: bytes


@dataclass(frozen=True, slots=True)
class Close:
    """Close the client with ``code`` and ``reason`` (noted as a ``flood`` refusal)."""

    code: int
    reason: str


class Gate:
    """One relayed client's limits and its window of messages on their way to the server."""

    __slots__ = ("limiter", "limits", "pending", "window")

    def __init__(self, limits: ClientLimits, window: int = link.WINDOW) -> None:
        self.limits = limits
        self.limiter = MessageLimiter(limits.messages_per_second, limits.message_burst,
                                      limits.rate_strikes)
        self.window = window
        #: Messages forwarded that the server hasn't said it took.
        self.pending = 0

    def check(self, data: bytes | str, now: float) -> Forward | Answer | Close:
        """What to do with a message the client sent at ``now``."""
        verdict = self.limiter.check(now)
        if verdict is Verdict.CLOSE:
            return Close(CLOSE_POLICY_VIOLATION, FLOODING)
        if verdict is Verdict.REFUSE:
            limits = self.limits
            return Answer(error_bytes(
                mpb.ERROR_CODE_RATE_LIMITED,
                f"more than {limits.messages_per_second:g} messages per second "
                f"(bursts of {limits.message_burst}): this one was dropped",
                request_id_of(data)))
        if isinstance(data, str):
            return Answer(error_bytes(mpb.ERROR_CODE_BAD_MESSAGE, TEXT_FRAME))
        return Forward(data)

    def may_forward(self) -> bool:
        """Whether another message may be forwarded now (else: read no more of the client
        until :meth:`credited`)."""
        return self.pending < self.window

    def forwarded(self) -> None:
        self.pending += 1

    def credited(self, count: int) -> None:
        """The server took ``count`` of the client's messages."""
        self.pending = max(0, self.pending - count)

    def refunded(self) -> None:
        """The server applied an action of the client: its token back."""
        self.limiter.refund()
