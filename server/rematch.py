"""The rematch desk: once every player of a room whose game (of a match, the match) is over
has offered a rematch (``OfferRematch``; the room keeps the offers and releases its players:
:attr:`server.rooms.commands.Output.rematch`), a new room with the same settings is made and
every player is seated in it, in the seat they had, with the deck and sideboard they
registered for the old room -- through the same join a ``JoinRoom`` makes, as a quick match
seats its players (:mod:`server.quickmatch`). See protocol/README.md, "Rematch".

The new room is an ordinary room: stored once its game starts, as any other. Its seats are
reserved for its players (a stranger can't take one; a player whose connection closed just
then joins it by its id, without the code) and it has a new invite code, told to its
players only (RematchStarted). A crash before the new game starts leaves it unstored: the
players resume in the old room, whose game is over, and may offer again; after it, their
sessions resume in the new game (:meth:`server.app.App.recover` gives a session the room
where it holds a seat in a game in play) -- nobody is ever seated in two games in play.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, TypeAlias

from protocol.v1 import messages_pb2 as mpb
from server.accounts import typeable_secret
from server.rooms import commands as cmd
from server.rooms.commands import ConnId
from server.rooms.lobby import Lobby, LobbyFullError
from server.rooms.pump import RoomHost
from server.rooms.session import error_bytes
from server.store.records import StoreOp, secret_hash
from server.store.writer import StoreClosedError, StoreUnwritableError, StoreWriter

log = logging.getLogger("manawire.lobby")

if TYPE_CHECKING:
    from server.app import _Connection
    #: Hand a join to a room and record its answer (None: the room is gone).
    Settle: TypeAlias = Callable[[_Connection, RoomHost, cmd.Join],
                                 Awaitable[cmd.Output | None]]


class RematchDesk:
    """Makes a rematch's room and seats its players (see the module)."""

    def __init__(self, lobby: Lobby, writer: StoreWriter, conns: Mapping[ConnId, _Connection],
                 *, settle: Settle, idle: Callable[[_Connection], bool],
                 refusal: Callable[[Iterable[str]], str],
                 made_for: Callable[[str, Iterable[str], str], None]) -> None:
        """``idle``: whether a connection is in no room, queue or replay (a player who went
        elsewhere meanwhile gets no rematch); ``refusal``: why no room may be made for
        players at these addresses ("": it may -- the per-address room limit); ``made_for``:
        a room made counts against its players' addresses and for the old room's creator
        (room id, addresses, creator's account id), as the old one did."""
        self.lobby = lobby
        self.writer = writer
        self.conns = conns
        self._settle = settle
        self._idle = idle
        self._refusal = refusal
        self._made_for = made_for

    def _no_rematch(self, old: RoomHost, plan: cmd.RematchPlan, why: str) -> None:
        """The rematch can't be made: its players (let go by the old room) and the old
        room's spectators are told why."""
        old.notify(cmd.RematchMade("", failed=why))
        for seat in plan.players:
            conn = self._player(seat)
            if conn is not None:
                conn.reply(error_bytes(mpb.ERROR_CODE_LIMIT_REACHED, f"no rematch: {why}"))

    def _player(self, seat: cmd.RematchSeat) -> _Connection | None:
        """The connection of a rematch's player, if it is still that session's."""
        conn = self.conns.get(seat.conn)
        if conn is None or conn.record is None or conn.record.session_id != seat.session_id:
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
            self._no_rematch(old, plan, refused)
            return
        code = typeable_secret(16)
        reserved = tuple((p.account_id, p.name) for p in plan.players)
        settings = dataclasses.replace(
            room.settings, invite_hash=secret_hash(code),
            reserved=reserved if all(a for a, _n in reserved) else ())
        try:
            # (not in the old room's place: its spectators are still to be told where the
            # rematch is)
            host = self.lobby.create(plan.name, plan.seats, plan.clock_seconds, settings,
                                     keep=plan.room_id)
        except LobbyFullError as exc:
            self._no_rematch(old, plan, str(exc))
            return
        self._made_for(host.room_id, addresses, settings.creator)
        log.info("room %s: a rematch of room %s for %s", host.room_id, plan.room_id,
                 ", ".join(repr(p.name) for p in plan.players))
        old.notify(cmd.RematchMade(host.room_id, code))
        for seat, conn in players:
            if conn is not None:  # (the code only to who knew the old one)
                conn.reply(mpb.ServerMessage(rematch_started=mpb.RematchStarted(
                    old_room_id=plan.room_id, new_room_id=host.room_id,
                    invite_code=code if seat.knows_code else "",
                )).SerializeToString())
        rows: list[StoreOp] = []
        for seat, conn in players:  # in seat order (each takes its reserved seat)
            if conn is None or conn.record is None or not self._idle(conn):
                continue  # (gone, or elsewhere already: its seat waits, reserved)
            record = conn.record
            out = await self._settle(conn, host, cmd.Join(
                conn.conn_id, 0, record.session_id, record.name, False, seat.deck,
                record.account.account_id, code, rematch_knows_code=seat.knows_code))
            if out is not None and out.accepted:
                conn.spectating = False
                rows.append(record.row())
        # (A store that can't be written -- logged once -- loses the places, not the seats:
        # a restart then finds each session by its seat, see App.recover.)
        if rows:
            with contextlib.suppress(StoreClosedError, StoreUnwritableError):
                await self.writer.write(rows)
