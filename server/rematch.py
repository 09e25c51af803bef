"""The rematch desk: once every player of a room whose game (of a match, the match) is over
has offered a rematch (``OfferRematch``; the room keeps the offers and releases its players:
:attr:`server.rooms.commands.Output.rematch`), a new room with the same settings is made and
every player is seated in it, in the seat they had, with the deck and sideboard they
registered for the old room -- through the same join a ``JoinRoom`` makes, as a quick match
seats its players (:mod:`server.quickmatch`). See protocol/README.md, "Rematch".

The new room is an ordinary room: stored once its game starts, as any other. Its seats are
reserved for its players (a stranger can't take one; a player whose connection closed
between the last offer and its seating resumes outside the old room and is seated then:
:meth:`RematchDesk.resumed`) and it has a new invite code and a new audience code, told only
to the players who knew the old invite code (RematchStarted; the old room's live spectators
who needed a code get the new audience code alone). A crash before the new game starts
leaves it unstored: the players resume in the old room, whose game is over, and may offer
again; after it, their sessions resume in the new game (:meth:`server.app.App.recover` gives
a session the room where it holds a seat in a game in play) -- nobody is ever seated in two
games in play.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from protocol.v1 import messages_pb2 as mpb
from server.accounts import typeable_secret
from server.rooms import commands as cmd
from server.rooms.lobby import Lobby, LobbyFullError
from server.rooms.pump import RoomHost
from server.rooms.session import error_bytes
from server.store.records import StoreOp, secret_hash
from server.store.writer import StoreClosedError, StoreUnwritableError, StoreWriter

log = logging.getLogger("manawire.lobby")

if TYPE_CHECKING:
    from server.app import _Connection
    from server.quickmatch import Settle  # (a join handed to a room, its answer recorded)
    from server.sessions import _SessionRecord


class RematchDesk:
    """Makes a rematch's room and seats its players (see the module)."""

    def __init__(self, lobby: Lobby, writer: StoreWriter,
                 session_conn: Callable[[str], _Connection | None],
                 *, settle: Settle, idle: Callable[[_Connection], bool],
                 refusal: Callable[[Iterable[str]], tuple[int, str] | None],
                 made_for: Callable[[str, Iterable[str], str], None],
                 rooms_made: Callable[[Iterable[str]], None]) -> None:
        """``idle``: whether a connection is in no room, queue or replay (a player who went
        elsewhere meanwhile gets no rematch); ``refusal``: why no room may be made for
        players at these addresses, and its error code (None: it may -- the per-address
        room limit, the address's rate of rooms made); ``made_for``: a room made counts
        against its players' addresses and for the old room's creator (room id, addresses,
        creator's account id), as the old one did; ``rooms_made``: a room was made for
        these addresses (each one's rate: taken only once it is)."""
        self.lobby = lobby
        self.writer = writer
        #: A session's connection now (its player may have resumed on a new one since it
        #: offered).
        self._session_conn = session_conn
        #: The rematches' players not seated yet, by session id: the rematch's room once
        #: made ("" before), and the seat. A player whose connection closed as the room
        #: was made resumes outside the old room (Output.rematch_seat) and is seated then.
        self._unseated: dict[str, _Unseated] = {}
        #: Sessions being seated now (not twice at once).
        self._seating: set[str] = set()
        self._settle = settle
        self._idle = idle
        self._refusal = refusal
        self._made_for = made_for
        self._rooms_made = rooms_made

    def _no_rematch(self, old: RoomHost, plan: cmd.RematchPlan, why: str) -> None:
        """The rematch can't be made: its players (let go by the old room) and the old
        room's spectators are told why. (Always ``LIMIT_REACHED`` "no rematch: ...", request
        id 0, whatever refused it -- a rate too: that is how every client knows its players
        are in no room any more; a ``RATE_LIMITED`` pushed with id 0 says a message was
        dropped, to send again.)"""
        old.notify(cmd.RematchMade("", failed=why))
        for seat in plan.players:
            conn = self._player(seat)
            if conn is not None:
                conn.reply(error_bytes(mpb.ERROR_CODE_LIMIT_REACHED, f"no rematch: {why}"))

    def _player(self, seat: cmd.RematchSeat) -> _Connection | None:
        """The connection a rematch's player has now (None: none, or one closing)."""
        conn = self._session_conn(seat.session_id)
        if conn is None or conn.close_code or conn.record is None \
                or conn.record.session_id != seat.session_id:
            return None
        return conn

    async def start(self, old: RoomHost, plan: cmd.RematchPlan) -> None:
        """Every player of ``old``'s room offered a rematch: make its room, tell the
        players and the old room (its spectators) where it is, and seat each player."""
        room = old.room
        players = [(seat, self._player(seat)) for seat in plan.players]
        # A player who went to another game as the last offer came (its old room let it
        # go) gets no rematch, nor do the others: they'd wait alone in a room for nobody.
        elsewhere = [seat.name for seat, conn in players
                     if conn is not None and not self._idle(conn)]
        if elsewhere:
            self._no_rematch(old, plan, f"{' and '.join(elsewhere)} went to another game")
            return
        addresses = [conn.address for _seat, conn in players if conn is not None]
        if refused := self._refusal(addresses):
            _code, why = refused
            self._no_rematch(old, plan, why)
            return
        code, audience = typeable_secret(16), typeable_secret(16)
        reserved = tuple((p.account_id, p.name) for p in plan.players)
        settings = dataclasses.replace(
            room.settings, invite_hash=secret_hash(code), audience_hash=secret_hash(audience),
            reserved=reserved if all(a for a, _n in reserved) else (),
            rematch_of=plan.room_id)  # (after a restart, the old room says where it is)
        try:
            # (not in the old room's place: its spectators are still to be told where the
            # rematch is)
            host = self.lobby.create(plan.name, plan.seats, plan.clock_seconds, settings,
                                     keep=plan.room_id)
        except LobbyFullError as exc:
            self._no_rematch(old, plan, str(exc))
            return
        self._rooms_made(addresses)
        # (for the old room's creator's count only if it plays: a host who made a room
        # for others without a seat didn't ask for this one)
        playing = {seat.account_id for seat in plan.players}
        self._made_for(host.room_id, addresses,
                       settings.creator if settings.creator in playing else "")
        log.info("room %s: a rematch of room %s for %s", host.room_id, plan.room_id,
                 ", ".join(repr(p.name) for p in plan.players))
        old.notify(cmd.RematchMade(host.room_id, audience))
        for seat in plan.players:
            self._unseated[seat.session_id] = _Unseated(plan.room_id, host.room_id, seat, code,
                                                        audience)
        rows: list[StoreOp] = []
        for seat in plan.players:  # in seat order (each takes its reserved seat)
            # (its connection now: it may have resumed since it offered -- or be gone, its
            # seat then waits, reserved, until it resumes: resumed() below)
            record = await self._seat(host, seat.session_id)
            if record is not None:
                rows.append(record.row())
        # (A store that can't be written -- logged once -- loses the places, not the seats:
        # a restart then finds each session by its seat, see App.recover.)
        if rows:
            with contextlib.suppress(StoreClosedError, StoreUnwritableError):
                await self.writer.write(rows)

    async def _seat(self, host: RoomHost, session_id: str) -> _SessionRecord | None:
        """Tell a rematch's player where it is (``RematchStarted``: the new codes only if it
        knew the old invite code) and seat it there, with the deck it registered -- if its
        connection is in no room, queue or replay (the record of a player seated)."""
        waiting = self._unseated.get(session_id)
        if waiting is None or session_id in self._seating:
            return None
        seat, code, audience = waiting.seat, waiting.code, waiting.audience
        conn = self._player(seat)
        if conn is None or conn.record is None or not self._idle(conn) or \
                host.room.closed or host.room.game is not None:
            return None
        record = conn.record
        self._seating.add(session_id)
        try:
            conn.reply(mpb.ServerMessage(rematch_started=mpb.RematchStarted(
                old_room_id=waiting.old_room_id, new_room_id=waiting.room_id,
                invite_code=code if seat.knows_code else "",
                audience_code=audience if seat.knows_code else "")).SerializeToString())
            out = await self._settle(conn, host, cmd.Join(
                conn.conn_id, 0, record.session_id, record.name, False, seat.deck,
                record.account.account_id, code, rematch_knows_code=seat.knows_code))
        finally:
            self._seating.discard(session_id)
        if out is None or not out.accepted:
            return None
        self._unseated.pop(session_id, None)
        conn.spectating = False
        return record

    async def resumed(self, conn: _Connection) -> None:
        """A rematch's player resumed outside its old room, which had let it go to the
        rematch (:attr:`~server.rooms.commands.Output.rematch_seat`): seat it in the
        rematch's room, if made -- else the rematch seats it as it is made."""
        record = conn.record
        waiting = self._unseated.get(record.session_id) if record is not None else None
        if waiting is None or not waiting.room_id:
            return
        host = self.lobby.hosts.get(waiting.room_id)
        if host is None:
            self._unseated.pop(waiting.seat.session_id, None)
            return
        seated = await self._seat(host, waiting.seat.session_id)
        if seated is not None:
            with contextlib.suppress(StoreClosedError, StoreUnwritableError):
                await self.writer.write([seated.row()])

    def room_closed(self, room_id: str) -> None:
        """A rematch's room closed: its players not seated yet never will be."""
        for session_id, waiting in list(self._unseated.items()):
            if waiting.room_id == room_id:
                del self._unseated[session_id]


@dataclasses.dataclass(frozen=True, slots=True)
class _Unseated:
    """A rematch's player not seated yet: the old room, the rematch's (once made), its seat
    and the new invite and audience codes."""

    old_room_id: str
    room_id: str
    seat: cmd.RematchSeat
    code: str = dataclasses.field(repr=False)
    audience: str = dataclasses.field(default="", repr=False)
