"""CreateRoom, and the limits on who may create how many rooms: at most
``max_rooms_per_account`` live rooms an account created, ``max_waiting_rooms_per_address``
rooms still waiting for their players from one client address, and ``max_rooms_per_address``
open rooms, started or not, created from one address (guest accounts are free, so the
address bounds what one client can hold of the lobby: a started game whose players all
left stays open until its clocks run out, up to a day a game). A room whose game (or
match) is over, lingering for its last views, counts for neither. It is the
:class:`server.app.App`'s, which hands it each CreateRoom and tells it of rooms recovered
and closed.

The account names a CreateRoom gives (reserved seats, spectator tiers) are looked up, and
the answer says which one names no account: so each name looked up costs one token of the
client address's bucket, at the rate of its password checks (``--password-checks-per-minute``),
or anyone could learn which names exist at 20 messages a second, while sign-in is built to
tell nobody.

And rooms are MADE at a rate per client address (``room_burst`` at once, then
``rooms_per_minute``; a token bucket per address): the rooms created from it and the rooms
the server makes for players at it (a quick match's table, a rematch). A room whose game is
over counts for none of the limits above, and every game is stored for good: one client
conceding to the computer and rematching made ~6 rooms a second, for ever, and the store
grew ~0.5 GB a day. The buckets are kept in memory only: after a restart every address's
starts full again (a restart costs an abuser a minute of its ~burst, no more)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import trio

from protocol.v1 import messages_pb2 as mpb
from server.accounts import Account, Accounts, name_key, typeable_secret
from server.ratelimit import AddressBuckets
from server.rooms import session as req
from server.rooms.lobby import Lobby, LobbyFullError
from server.rooms.session import MAX_SEATS, MAX_TIER_ACCOUNTS, MAX_TIERS, error_bytes
from server.store.records import (
    RoomAddresses,
    RoomSettings,
    SpectatorTier,
    TierKind,
    secret_hash,
)

if TYPE_CHECKING:
    from server.app import Limits, _Connection
    from server.refusals import Refusals
    from server.rooms.pump import RoomHost
    from server.sessions import _SessionRecord

#: Account names one client address may look up at once (then so many a minute as its
#: password checks): the most one CreateRoom can give, so that every request the protocol
#: allows can be answered.
NAME_LOOKUP_BURST = MAX_SEATS + MAX_TIERS * MAX_TIER_ACCOUNTS


class CreateDesk:
    """Creates rooms for clients and keeps who created which (see the module)."""

    def __init__(self, limits: Limits, lobby: Lobby, accounts: Accounts,
                 refusals: Refusals | None = None) -> None:
        self.limits = limits
        #: Where a refused room is noted for the operator's log (server.refusals).
        self.refusals = refusals
        self.lobby = lobby
        self.accounts = accounts
        #: Unstarted rooms created from each client address (per-address room limit).
        self._waiting_rooms: dict[str, set[str]] = {}
        #: Open rooms created from each client address, started or not.
        self._open_rooms: dict[str, set[str]] = {}
        #: The addresses each room counts against (its creator's; a quick match's or a
        #: rematch's: its players').
        self._room_addresses: dict[str, set[str]] = {}
        #: Who created each live room (the per-account room limit).
        self._creators: dict[str, Account] = {}
        #: Account names looked up per client address (a token bucket each).
        self._lookups = AddressBuckets(limits.password_checks_per_minute / 60,
                                       NAME_LOOKUP_BURST)
        #: Rooms made for each client address (a token bucket each; see the module).
        self._made = AddressBuckets(limits.rooms_per_minute / 60, limits.room_burst)
        # The addresses a room counts against are stored with its game's start, and come
        # back with it after a restart (recovered).
        lobby.room_addresses = self.addresses_of

    def addresses_of(self, room_id: str) -> set[str]:
        """The client addresses ``room_id`` counts against (none: a room reloaded from a
        store that didn't keep them)."""
        return self._room_addresses.get(room_id, set())

    def recovered(self, room_id: str, creator_id: str) -> None:
        """A room reloaded after a restart (or back after a stop) counts for its creator
        again -- a rematch's only if its creator plays in it, as when it was made -- and
        against the client addresses it counted against, as stored
        (:attr:`Lobby.recovered_addresses <server.rooms.lobby.Lobby.recovered_addresses>`)."""
        addresses = self.lobby.recovered_addresses.pop(room_id, ())
        if addresses:
            self._count(room_id, addresses)
        host = self.lobby.hosts.get(room_id)
        if host is not None and host.room.settings.rematch_of and all(
                m is None or m.account_id != creator_id for m in host.room.seats):
            return
        self._created_by(room_id, creator_id)

    def _created_by(self, room_id: str, creator_id: str) -> None:
        """``room_id`` counts for the account ``creator_id`` (per-account room limit)."""
        creator = self.accounts.by_id.get(creator_id)
        if creator is not None:
            creator.created_rooms.add(room_id)
            self._creators[room_id] = creator

    def _count(self, room_id: str, addresses: Iterable[str]) -> None:
        """``room_id`` counts as an open room of each of ``addresses``."""
        counted = self._room_addresses.setdefault(room_id, set())
        for address in set(addresses):
            counted.add(address)
            self._open_rooms.setdefault(address, set()).add(room_id)

    def room_closed(self, room_id: str) -> None:
        """``room_id`` closed: it counts for nobody any more."""
        for address in self._room_addresses.pop(room_id, set()):
            for by_address in (self._waiting_rooms, self._open_rooms):
                rooms = by_address.get(address)
                if rooms is not None:
                    rooms.discard(room_id)
                    if not rooms:
                        del by_address[address]
        creator = self._creators.pop(room_id, None)
        if creator is not None:
            creator.created_rooms.discard(room_id)

    def open_rooms_refusal(self, addresses: Iterable[str], *, yours: bool = False) -> str:
        """Why the server may make no room for players at ``addresses`` (a quick match's
        table, a rematch): one of them holds ``max_rooms_per_address`` open rooms already
        ("": none does; ``yours``: said to the player at the one address). Rooms the
        server makes for players count against their addresses as a created room against
        its creator's: two guests of one address concede and rematch (or quick-match each
        other) and drop, over and over, and every such game stays open until its clocks run
        out -- the lobby filled, and nobody could play."""
        limit = self.limits.max_rooms_per_address
        if any(self._playing(self._open_rooms.get(a, set())) >= limit for a in set(addresses)):
            whose = "your" if yours else "a player's"
            return (f"{whose} address has {limit} open rooms, started or not; finish (or "
                    f"concede) their games first")
        return ""

    def rate_refusal(self, addresses: Iterable[str], *, yours: bool = False,
                     then: str = "try again in") -> str:
        """Why no room may be made for players at ``addresses`` now: one of them has made
        its ``room_burst`` rooms, and more than ``rooms_per_minute`` a minute since ("":
        none has -- nothing is taken: :meth:`rooms_made` takes once the room is made;
        ``yours``: said to the player at the one address; ``then``: the words before the
        wait -- a refused rematch can't be tried again, its players are released)."""
        now = trio.current_time()
        wait = 0.0
        for address in set(addresses):
            bucket = self._made.bucket(address, now)
            short = 1.0 - 1e-9 - bucket.tokens(now)  # (TokenBucket.take's slack)
            if short > 0:
                wait = max(wait, short / bucket.rate)
        if not wait:
            return ""
        whose = "your" if yours else "a player's"
        return (f"{whose} address made too many rooms lately (at most "
                f"{self.limits.rooms_per_minute:g} a minute): {then} "
                f"{max(1, math.ceil(wait))} s")

    def room_refusal(self, addresses: Iterable[str], *, yours: bool = False,
                     then: str = "try again in") -> tuple[int, str] | None:
        """Why the server may make no room for players at ``addresses`` (a quick match's
        table, a rematch), with its error code: an address's open rooms
        (:meth:`open_rooms_refusal`, ``LIMIT_REACHED``) or its rate of rooms made
        (:meth:`rate_refusal`, ``RATE_LIMITED``); None: it may. Takes nothing."""
        addresses = set(addresses)
        if refused := self.open_rooms_refusal(addresses, yours=yours):
            return mpb.ERROR_CODE_LIMIT_REACHED, refused
        if refused := self.rate_refusal(addresses, yours=yours, then=then):
            return mpb.ERROR_CODE_RATE_LIMITED, refused
        return None

    def rooms_made(self, addresses: Iterable[str]) -> None:
        """A room was made for players at ``addresses`` (checked by :meth:`rate_refusal`
        first, all of them): it takes one of each address's tokens, once however many of
        its players are there."""
        now = trio.current_time()
        for address in set(addresses):
            self._made.bucket(address, now).take(now)

    def made_for(self, room_id: str, addresses: Iterable[str], creator_id: str = "") -> None:
        """The server made ``room_id`` for players at ``addresses`` (a quick match, a
        rematch): it counts as an open room of each address, and (a rematch's) for the
        account that created the room it rematches."""
        self._count(room_id, addresses)
        if creator_id:
            self._created_by(room_id, creator_id)
        host = self.lobby.hosts.get(room_id)
        if host is not None and host.room.game is not None and not host.room.finished:
            # A quick match's last player is counted once seated, after its game's start
            # stored the others' addresses (Lobby.room_addresses): stored again, all.
            self.lobby.nursery.start_soon(
                self.lobby.writer.write_when_possible,
                [RoomAddresses(room_id, tuple(sorted(self._room_addresses[room_id])))],
                f"the client addresses room {room_id} counts against")

    def _refused(self, conn: _Connection) -> None:
        if self.refusals is not None:
            self.refusals.note("room", conn.address)

    def _playing(self, room_ids: set[str]) -> int:
        """How many of ``room_ids`` count against a limit: not those whose game (or match)
        is over -- they only linger a while for their last views (``--linger-seconds``),
        and a player who finished a game may start the next at once."""
        hosts = self.lobby.hosts
        return sum(1 for r in room_ids if (host := hosts.get(r)) is None
                   or not host.room.finished)

    def create(self, conn: _Connection, record: _SessionRecord, rid: int,
               request: req.CreateRoom) -> tuple[RoomHost, str] | None:
        """Answer ``request``: the room's info and invite code, or the limit or name
        that stops it; the room made and its invite code (None: refused, and told)."""
        account = record.account
        limit = self.limits.max_rooms_per_account
        if self._playing(account.created_rooms) >= limit:
            self._refused(conn)
            conn.reply(error_bytes(
                mpb.ERROR_CODE_LIMIT_REACHED,
                f"you may have at most {limit} open rooms you created; play or leave them "
                f"first (an unstarted room closes as you leave it if nobody else is in it, "
                f"or after {self.limits.room.idle_seconds:.0f} s with nobody in it)", rid))
            return None
        waiting = self._waiting_rooms.get(conn.address, set())
        for room_id in list(waiting):  # only rooms still waiting for their players count
            host = self.lobby.hosts.get(room_id)
            if host is None or host.room.game is not None:
                waiting.discard(room_id)
        per_address = self.limits.max_waiting_rooms_per_address
        if len(waiting) >= per_address:
            self._refused(conn)
            conn.reply(error_bytes(
                mpb.ERROR_CODE_LIMIT_REACHED,
                f"your address has {per_address} rooms waiting for players; fill or leave "
                f"them first", rid))
            return None
        opened = self._open_rooms.get(conn.address, set())
        if self._playing(opened) >= self.limits.max_rooms_per_address:
            self._refused(conn)
            conn.reply(error_bytes(
                mpb.ERROR_CODE_LIMIT_REACHED,
                f"your address has {self.limits.max_rooms_per_address} open rooms, started "
                f"or not; finish (or concede) their games first", rid))
            return None
        if refused := self.rate_refusal([conn.address], yours=True):
            self._refused(conn)
            conn.reply(error_bytes(mpb.ERROR_CODE_RATE_LIMITED, refused, rid))
            return None
        if not self._may_look_up(conn, rid, request):
            return None
        reserved: list[tuple[str, str]] = []
        for name in request.reserved:
            holder = self.accounts.by_name(name)
            if holder is None:
                conn.reply(error_bytes(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                       f"no account is named {name!r}", rid))
                return None
            if any(a == holder.account_id for a, _n in reserved):
                conn.reply(error_bytes(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                       f"{holder.name!r} is reserved a seat twice", rid))
                return None
            reserved.append((holder.account_id, holder.name))
        if request.join and len(reserved) >= request.seats and \
                all(a != account.account_id for a, _n in reserved):
            conn.reply(error_bytes(
                mpb.ERROR_CODE_INVALID_ARGUMENT,
                f"every seat of this room is reserved for others "
                f"({', '.join(n for _a, n in reserved)}): there is none for you to join; "
                f"reserve one for yourself or create it without join", rid))
            return None
        tiers = self._tiers(conn, rid, request.tiers)
        if tiers is None:
            return None
        invite, audience = typeable_secret(16), typeable_secret(16)
        settings = RoomSettings(request.private, secret_hash(invite),
                                request.spectate, request.format.value, tuple(reserved),
                                account.account_id, tiers, request.best_of,
                                computers=tuple(range(request.seats - request.computers,
                                                      request.seats)),
                                audience_hash=secret_hash(audience))
        try:
            host = self.lobby.create(request.name, request.seats, request.clock_seconds,
                                     settings)
        except LobbyFullError as exc:
            if self.refusals is not None:
                self.refusals.note("full", conn.address)
            conn.reply(error_bytes(mpb.ERROR_CODE_LIMIT_REACHED, str(exc), rid))
            return None
        self.rooms_made([conn.address])
        account.created_rooms.add(host.room_id)
        self._creators[host.room_id] = account
        self._waiting_rooms.setdefault(conn.address, set()).add(host.room_id)
        self._open_rooms.setdefault(conn.address, set()).add(host.room_id)
        self._room_addresses[host.room_id] = {conn.address}
        conn.reply(mpb.ServerMessage(request_id=rid, room_created=mpb.RoomCreated(
            room=host.room.info(), invite_code=invite,
            audience_code=audience)).SerializeToString())
        return host, invite

    def _may_look_up(self, conn: _Connection, rid: int, request: req.CreateRoom) -> bool:
        """Take a token of the address's bucket for each account name ``request`` gives
        (once each), all before looking any up, or refuse the request (RATE_LIMITED): what
        it costs, and whether it is refused, never depends on which names exist."""
        names = {name_key(n) for n in request.reserved}
        names.update(name_key(n) for tier in request.tiers for n in tier.accounts)
        if not names:
            return True
        now = trio.current_time()
        bucket = self._lookups.bucket(conn.address, now)
        if bucket.tokens(now) >= len(names) - 1e-9:  # (TokenBucket.take's slack)
            for _name in names:
                bucket.take(now)
            return True
        if self.refusals is not None:
            self.refusals.note("lookup", conn.address)
        conn.reply(error_bytes(
            mpb.ERROR_CODE_RATE_LIMITED,
            f"too many account names looked up from your address (reserved seats and "
            f"spectator tiers name accounts; at most {NAME_LOOKUP_BURST} at once, then "
            f"{self.limits.password_checks_per_minute:g} a minute): this room names "
            f"{len(names)}, wait a little", rid))
        return False

    def _tiers(self, conn: _Connection, rid: int, requested: Sequence[req.TierRequest]
               ) -> tuple[SpectatorTier, ...] | None:
        """The delayed spectator tiers asked for, their account names resolved (None: one
        names no account, and the client was told)."""
        tiers = []
        least = self.limits.hidden_tier_seconds
        for n, tier in enumerate(requested, start=1):
            if tier.kind is not TierKind.PUBLIC and tier.delay_seconds < least:
                conn.reply(error_bytes(
                    mpb.ERROR_CODE_INVALID_ARGUMENT,
                    f"delayed view {n}: one that shows hidden cards (every hand, or a "
                    f"seat's view) must be at least {least:g} s behind, since whoever may "
                    f"watch it sees the players' hands (asked: {tier.delay_seconds:g} s)",
                    rid))
                return None
            accounts: list[tuple[str, str]] = []
            for name in tier.accounts:
                holder = self.accounts.by_name(name)
                if holder is None:
                    conn.reply(error_bytes(mpb.ERROR_CODE_INVALID_ARGUMENT,
                                           f"tier {n}: no account is named {name!r}", rid))
                    return None
                if all(a != holder.account_id for a, _n in accounts):
                    accounts.append((holder.account_id, holder.name))
            tiers.append(SpectatorTier(tier.kind, tier.seat, float(tier.delay_seconds),
                                       tier.delay_turns, tuple(accounts), tier.invite))
        return tuple(tiers)
