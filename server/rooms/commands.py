"""What a room is asked to do (:data:`Command`) and what it answers (:class:`Output`): the
interface of the sans-I/O :class:`~server.rooms.room.Room`. Plain records, no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field

from server.decks import Deck
from server.store.records import StoreOp

#: An opaque connection identifier, given by the caller (the app numbers its connections).
ConnId = int

INF = float("inf")


# ---- commands (what a room is asked to do)
@dataclass(frozen=True, slots=True)
class Join:
    """Take a seat (``spectator`` False, with ``deck``, already checked against the room's
    format; None: a demo deck) or watch (``tier``). ``account_id`` is the server's record of who the
    connection is; ``invite_code`` is what the client presented."""

    conn: ConnId
    rid: int
    session_id: str
    name: str
    spectator: bool
    deck: Deck | None = None
    account_id: str = ""
    invite_code: str = field(default="", repr=False)
    #: A spectator's tier: 0 the live public view, n the room's n-th delayed tier.
    tier: int = 0
    #: The creator's seat in the room just created for it (``CreateRoom.join``): refused,
    #: the room -- empty, made for nobody else -- closes at once.
    creating: bool = False
    #: A rematch's seating (server.rematch): ``invite_code`` is the server's, not the
    #: client's, so the player knows the code only if it knew the old room's -- this.
    rematch_knows_code: bool | None = None


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the room; a seated player of a running game concedes (104.3a)."""

    conn: ConnId
    rid: int


@dataclass(frozen=True, slots=True)
class Act:
    """Answer the pending decision with the option at ``option_index``."""

    conn: ConnId
    rid: int
    prompt_id: int
    option_index: int
    expected_state_id: int


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Send this connection a full snapshot of its view (a resync)."""

    conn: ConnId
    rid: int


@dataclass(frozen=True, slots=True)
class ConcedeGame:
    """The connection's player concedes (104.3a)."""

    conn: ConnId
    rid: int


@dataclass(frozen=True, slots=True)
class ExplainCard:
    """The connection's player asks why the card ``object_id`` can't be cast now."""

    conn: ConnId
    rid: int
    object_id: str


@dataclass(frozen=True, slots=True)
class SubmitDeck:
    """Between games of a match: the connection's player keeps its current deck (``deck``
    None) or plays ``deck`` next (already read and checked against the room's format; the
    room checks it against the registered deck and sideboard, rule 100.4). ``problems``:
    the format's rules the deck breaks (it is refused then, with every problem the room
    finds too)."""

    conn: ConnId
    rid: int
    deck: Deck | None = None
    problems: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class OfferRematch:
    """Once the room's game (of a match, the match) is over, the connection's player offers
    the others a rematch (``offer``) or withdraws its offer."""

    conn: ConnId
    rid: int
    offer: bool = True


@dataclass(frozen=True, slots=True)
class RematchMade:
    """Every player offered a rematch (:attr:`Output.rematch`) and the app made its room
    ``room_id`` (``audience_code``: its new audience code, for the spectators; the players
    are told its invite code by the app): the players are released to be seated there,
    everyone is told where it is. ``room_id`` empty: it couldn't be made
    (``failed``: why); there will be no rematch of this room (its players were let go)."""

    room_id: str
    audience_code: str = field(default="", repr=False)
    failed: str = ""


@dataclass(frozen=True, slots=True)
class RematchSeat:
    """A player of a rematch, as its old room had it: to be seated in the new room (on the
    connection its session has then)."""

    session_id: str
    name: str
    account_id: str
    #: The deck and sideboard it registered for the old room (rule 100.4: sideboarding
    #: between a match's games rearranges them; the rematch starts from the registration).
    deck: Deck | None
    #: It knew the old room's invite code (created the room, or joined with the code): only
    #: then is it told the new one.
    knows_code: bool = False


@dataclass(frozen=True, slots=True)
class RematchPlan:
    """What a rematch's room is made from: the old room's name, seats, clocks and settings,
    and its players in seat order (the new room seats each in the same seat)."""

    room_id: str
    name: str
    seats: int
    clock_seconds: int
    players: tuple[RematchSeat, ...]


@dataclass(frozen=True, slots=True)
class Disconnect:
    """The connection closed. Its seat stays its player's; its clock keeps running."""

    conn: ConnId


@dataclass(frozen=True, slots=True)
class Reattach:
    """A resuming connection takes over its session's place here (``welcome``: the
    session's new Welcome, with the rotated token, to put in the ``Resumed`` reply)."""

    conn: ConnId
    rid: int
    session_id: str
    name: str
    last_state_id: int
    account_id: str
    #: Carries the new resume token: never in a repr (log lines show commands).
    welcome: bytes = field(repr=False)


@dataclass(frozen=True, slots=True)
class Tick:
    """Nothing arrived before the wake-up time: run the clocks and timers."""


@dataclass(frozen=True, slots=True)
class ShowDelayed:
    """Play a few of the delayed spectator tiers' due actions (:meth:`Room._release`): work
    the room's host gives it when nothing else waits and the tiers' share of the event
    loop allows (:class:`server.rooms.budget.Turns`)."""


@dataclass(frozen=True, slots=True)
class Evict:
    """The server hosts as many rooms as it may and another is being created: a room whose
    game (or match) is over closes now instead of lingering (``--linger-seconds``; its
    delayed tiers' spectators, if still watching, are told why)."""


@dataclass(frozen=True, slots=True)
class Shutdown:
    """The server is stopping: no more output to anyone (the game goes on after restart)."""


Command = (Join | Leave | Act | Snapshot | ConcedeGame | SubmitDeck | Disconnect | Reattach
           | Tick | ShowDelayed | Evict | Shutdown | ExplainCard | OfferRematch | RematchMade)


# ---- spectator feed operations (what a room asks of the relay)
@dataclass(frozen=True, slots=True)
class Publish:
    """A message for every spectator of a view class, published once: ``tier`` 0 is the live
    public view, n the room's n-th delayed tier (``data``: a serialized ServerMessage)."""

    tier: int
    data: bytes


@dataclass(frozen=True, slots=True)
class StartWatching:
    """``conn`` follows ``tier``'s messages from here on, after ``first`` -- what it alone
    needs to catch up (a snapshot, the deltas it missed). Replaces any watch it had."""

    conn: ConnId
    tier: int
    first: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class StopWatching:
    """``conn`` stops following its tier: at once, or (``drain``) after what was published
    so far. Only the room's own: a spectator that has moved on to another room's feed
    meanwhile (its leave isn't waited for) keeps that one."""

    conn: ConnId
    drain: bool


FeedOp = Publish | StartWatching | StopWatching


@dataclass(frozen=True, slots=True)
class QueryFault:
    """A read-only question of a member's (``ExplainCard``) raised while being answered.
    It changed nothing, so the room goes on: the pump logs ``error`` under a new incident
    id and answers ``conn``'s request ``rid`` with ``ERROR_CODE_INTERNAL`` naming it."""

    conn: ConnId
    rid: int
    what: str  # what couldn't be done, in a player's words ("explain this card")
    error: Exception


@dataclass(slots=True)
class Output:
    """What one :meth:`Room.handle` call asks its pump to do, in this order: write ``log``
    (durably), then deliver ``sends`` in order, then hand ``feed`` to the spectator relay."""

    sends: list[tuple[ConnId, bytes]] = field(default_factory=list)
    log: list[StoreOp] = field(default_factory=list)
    #: When to call :meth:`Room.handle` with :class:`Tick` if nothing comes first.
    wake_at: float = INF
    #: When the delayed tiers have an action due, to give the room :class:`ShowDelayed`
    #: then (or later, when nothing else waits and their budget allows).
    delayed_at: float = INF
    #: Whether the command's connection is now a member here (Join, Reattach).
    accepted: bool = False
    #: A spectator's Join refused because the room holds ``max_spectators`` (the operator's
    #: refusals count it: an audience turned away was invisible).
    spectators_full: bool = False
    #: The room is over: remove it from the lobby and memory; these connections left it.
    closed: bool = False
    released: list[ConnId] = field(default_factory=list)
    #: What the spectator relay (:mod:`server.rooms.fanout`) is to do, in order, after
    #: ``sends``: publish a message to a view class's spectators, start or stop a watch.
    feed: list[FeedOp] = field(default_factory=list)
    #: Read-only questions that raised (nothing changed; the room goes on): told to their
    #: askers and logged by the pump after ``sends``.
    faults: list[QueryFault] = field(default_factory=list)
    #: A player this room let go to its rematch resumed (Reattach): it is in no room now,
    #: and the app seats it in the rematch's room (server.rematch).
    rematch_seat: bool = False
    #: Every player has offered a rematch: the app makes its room and answers with
    #: :class:`RematchMade` (the room takes no offer meanwhile).
    rematch: RematchPlan | None = None
