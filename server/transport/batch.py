"""Batched frames: the messages ready for one connection sent as one ``ServerBatch`` frame.

A client that sets ``Hello.batched`` (or ``Resume.batched``) is confirmed by
``Welcome.batched``; from the frame after that Welcome (or Resumed) on, every frame is a
``ServerBatch`` holding, in order, the messages the server had ready for the connection when
it woke to write. One action's delta, the decision that follows it and the clocks then reach
a player as one frame and one send, not three.

No message is decoded or re-encoded to batch it: a ``ServerBatch``'s encoding is each
message's bytes behind the tag and length of field 1 (a repeated embedded message), so
batches are concatenations of bytes the room already encoded once per view class.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import trio

from protocol.v1 import messages_pb2 as mpb

#: Field 1 of ServerBatch (``messages``), wire type 2 (length-delimited).
_MESSAGES_TAG = b"\x0a"
#: A batch grows to at most this many bytes (a larger message goes alone in its own batch),
#: well under the 1 MiB a websockets client accepts by default.
MAX_BATCH_BYTES = 256 * 1024
#: At most this many queued messages are taken per wake-up (so one wake-up is bounded).
MAX_BATCH_MESSAGES = 256
#: Queued for a spectator's writer by the relay: "take what your feed has for you" (see
#: :mod:`server.rooms.fanout`). Told apart by identity, never by value: no message is it.
FEED_WAKE = bytes(bytearray(b"feed"))
#: Queued for a writer after a frame was written from another task in part: "send the rest
#: first" (``ImmediateSocket.flush``). Told apart by identity, like :data:`FEED_WAKE`;
#: always the first item its writer takes (it is queued only to an idle writer).
FLUSH = bytes(bytearray(b"flush"))


def _varint(n: int) -> bytes:
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def batch_entry(data: bytes) -> bytes:
    """``data`` (a serialized ServerMessage) as one entry of a serialized ServerBatch."""
    return _MESSAGES_TAG + _varint(len(data)) + data


def confirms_batching(data: bytes) -> bool:
    """Whether ``data`` is a Welcome, or a Resumed, that says batched frames follow."""
    msg = mpb.ServerMessage.FromString(data)
    body = msg.WhichOneof("body")
    if body == "welcome":
        return msg.welcome.batched
    if body == "resumed":
        return msg.resumed.welcome.batched
    return False


class Batcher:
    """One connection's framing: plain frames until the confirming Welcome, then batches."""

    __slots__ = ("batching",)

    def __init__(self) -> None:
        self.batching = False

    def batch(self, messages: Sequence[bytes]) -> bytes | None:
        """``messages`` as one ServerBatch frame (None: they don't fit in one, or this
        connection isn't batching yet)."""
        if not self.batching:
            return None
        frame = b"".join([batch_entry(data) for data in messages])
        return frame if len(frame) <= MAX_BATCH_BYTES or len(messages) == 1 else None

    def frames(self, first: bytes, receive: trio.MemoryReceiveChannel[bytes],
               requested: bool, feed: Callable[[bool], list[bytes]] | None = None
               ) -> list[bytes]:
        """The frames to send now, in order: ``first`` and -- once batching -- whatever
        else is already queued in ``receive`` (without waiting; a plain connection sends
        one message per wake-up, so its outbox bound stays exact). ``requested``: the
        client asked for batching (only then is a message looked at to find the confirming
        Welcome). A :data:`FEED_WAKE` in the queue stands for the frames ``feed(batching)``
        returns (a spectator's feed: already framed), in its place."""
        out: list[bytes] = []
        parts: list[bytes] = []
        size = 0
        data = first
        for taken in range(1, MAX_BATCH_MESSAGES + 1):
            if data is FEED_WAKE:
                if parts:
                    out.append(b"".join(parts))
                    parts, size = [], 0
                if feed is not None:
                    out.extend(feed(self.batching))
                if not self.batching:
                    break
            elif self.batching:
                entry = batch_entry(data)
                if parts and size + len(entry) > MAX_BATCH_BYTES:
                    out.append(b"".join(parts))
                    parts, size = [], 0
                parts.append(entry)
                size += len(entry)
            else:
                out.append(data)
                if not (requested and confirms_batching(data)):
                    break  # one message per frame: take no more than it (the outbox bound)
                self.batching = True
            if taken == MAX_BATCH_MESSAGES:
                break  # the rest waits for the next wake-up
            try:
                data = receive.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel):
                break
        if parts:
            out.append(b"".join(parts))
        return out
