"""The session desk: accounts and sessions, from a connection's ``Hello`` or ``Resume`` to its
session's end (protocol/README.md).

Accounts (:mod:`server.accounts`). ``Hello`` names an account by its secret token, by a
registered name and password, or neither (a new guest account and its first token). Each
account has at most one session: a ``Hello`` for an account whose session is live takes that
session over (and its place in a room), as a ``Resume`` does.

Sessions. ``Hello`` starts a session and ``Welcome`` gives it a secret resume token; the
server keeps only the token's SHA-256 hash (in memory and in the store). ``Resume`` on a new
connection presents the token: the session, and its place in a room, move to the new
connection (an older connection still holding it is closed with :data:`CLOSE_REPLACED`), and
the token is replaced by a new one.

This desk keeps the sessions (by id, by token hash, by account), rotates their tokens, answers
``Hello``, ``Resume``, ``Register`` and ``RevokeTokens``, throttles password guessing and the
creation of guest accounts, and forgets sessions that hold nothing worth resuming. It is the
:class:`server.app.App`'s, which owns the connections and the rooms and hands in what a
take-over needs (the room-settling join, the spectators' turns and whether the server is
stopping) rather than the desk reaching back into it.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import secrets
import sqlite3
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias, TypeVar

import trio

import server
from protocol.v1 import messages_pb2 as mpb
from server.accounts import (
    Account,
    AccountError,
    Accounts,
    check_new_credentials,
    guest_base,
    hash_password,
    name_key,
    verify_password,
)
from server.addresses import ip_key
from server.password_turns import ChecksBusy, PasswordTurns
from server.ratelimit import AddressBuckets
from server.rooms import commands as cmd
from server.rooms import session as req
from server.rooms.lobby import Lobby
from server.rooms.pump import RoomHost
from server.rooms.session import PROTOCOL_VERSION, error_bytes
from server.store.records import DropSession, PutSession, SessionRow, StoreOp, secret_hash
from server.store.writer import StoreClosedError, StoreUnwritableError, StoreWriter

if TYPE_CHECKING:
    from server.app import Limits, _Connection
    from server.refusals import Refusals
    #: Hand a reattach to a room and record its answer (None: the room is gone).
    Settle: TypeAlias = Callable[[_Connection, RoomHost, cmd.Reattach],
                                 Awaitable[cmd.Output | None]]
    #: Wait for a spectator's turn to enter a room (server.rooms.admission.WatchGate).
    Admit: TypeAlias = Callable[[str], Awaitable[None]]

log = logging.getLogger("manawire")

CLOSE_REPLACED = 4001  # a newer connection resumed this session
#: The account's tokens were revoked (RevokeTokens) by its session's connection: every other
#: connection of the account -- its replays-only ones (Hello.replays_only) -- is closed.
CLOSE_REVOKED = 4002

#: Password guessing is counted per account name and *place* (:func:`place_of`: an IPv4
#: address, an IPv6 /64). One place gets ``Limits.login_failures`` failed sign-ins with a
#: name per ``login_window``; then that place is refused sign-ins with it, unchecked, until
#: the window has passed. All places together get this many times as many with one name:
#: then every place is refused it, except those the account was used from lately
#: (:data:`KNOWN_PLACES`). The trade-off: counted per name alone (as it was), five wrong
#: passwords from anywhere locked the owner out for everyone; counted per place alone, an
#: attacker with many addresses would guess without bound. Now locking the owner out takes
#: this many places guessing at once, and even then only sign-ins from places the account
#: was not used from are refused (the account token always works); the price is that many
#: places together may guess this many times faster than one.
NAME_FAILURES_FACTOR = 10
#: The places each registered account was last used from (a sign-in, registration, or a
#: Hello with its token), for :data:`KNOWN_PLACE_SECONDS`: the per-name bound never refuses
#: them (their own per-place bound still does). In memory only: a restart forgets them.
KNOWN_PLACES = 8
KNOWN_PLACE_SECONDS = 30 * 86_400.0

#: The token a client presented to resume keeps working after the resume (the answer carrying
#: the new one may never have arrived), but only until the new one is used, or until the
#: connection given the new one has held the session this long: WebSocket pings go out every
#: 20 s and a connection whose pong is 20 s late is closed, so one still open this long
#: after its ``Resumed`` was sent has received it (frames arrive in order). An old token
#: kept working as long as it was used again, each use voiding the newer one (security
#: round 14): now a connection that resumed with it and stays voids it. One that drops
#: sooner leaves it working -- however many times in a row: the client may not have the
#: newer token.
PREVIOUS_TOKEN_SECONDS = 120.0

#: Password checks run on this many worker threads at once (one per client address).
HASHING_WORKERS = 2
#: At most this many password checks wait for a worker -- about a second's worth: a check is
#: ~0.2 s, ~0.27 s of CPU (Argon2id's lanes run on threads of their own), so two cores check
#: ~8 a second -- past it one is refused at once (``RATE_LIMITED``): the waiting one, or the
#: newcomer, whose address used the most checks lately (:mod:`server.password_turns`).
#: Served in arrival order without a bound, sixty addresses guessing made-up names kept a
#: real user's sign-in waiting 4-10 s.
MOST_WAITING_CHECKS = 8

_K = TypeVar("_K")


def place_of(address: str) -> str:
    """Where a client signs in from, for counting password guesses: its IPv4 address, or
    the /64 network of its IPv6 address (one subscriber's usual share: counting each IPv6
    address alone would give one attacker 2^64 places), else the address as given -- a
    connection's address is counted so already (:func:`server.addresses.ip_key`)."""
    return ip_key(address)


@dataclass(eq=False, slots=True)
class _SessionRecord:
    """A session the server knows: who, its token's hash, its room and live connection."""

    session_id: str
    account: Account
    token_hash: bytes
    room_id: str | None = None
    conn: _Connection | None = None
    #: The hash of the token the client last presented: it stays valid until the newer
    #: token is used once, so a crash between rotating a token and delivering the new one
    #: never strands a client.
    prev_hash: bytes = b""
    #: Serializes resumes of this session.
    lock: trio.Lock = field(default_factory=trio.Lock)
    #: The connection given the current token while ``prev_hash`` is set, and when (trio
    #: time): once it has held the session for PREVIOUS_TOKEN_SECONDS, ``prev_hash`` is
    #: void (SessionDesk._void_previous, which runs while ``voiding``).
    given_to: _Connection | None = field(default=None, repr=False)
    given_at: float = 0.0
    voiding: bool = False
    #: Since when it has had neither a connection nor a room (see SessionDesk.sweep).
    idle_since: float = 0.0
    #: A session for replays only beside the account's own (Hello.replays_only): never
    #: stored, resumed or found by account, and it holds no place.
    side: bool = False

    @property
    def name(self) -> str:
        return self.account.name

    def row(self) -> PutSession:
        return PutSession(self.session_id, self.token_hash, self.name, self.room_id,
                          self.prev_hash, self.account.account_id)


def _forget_before(failures_by: dict[_K, deque[float]], cutoff: float) -> None:
    """Forget the keys of ``failures_by`` with no failure since ``cutoff``."""
    for key, failures in list(failures_by.items()):
        if not failures or failures[-1] < cutoff:
            del failures_by[key]


class SessionDesk:
    """The server's sessions and the account requests of its connections."""

    def __init__(self, limits: Limits, accounts: Accounts, lobby: Lobby, writer: StoreWriter,
                 *, settle: Settle, admit: Admit, stopping: Callable[[], bool],
                 rematch_resumed: Callable[[_Connection], Awaitable[None]] | None = None,
                 refusals: Refusals | None = None) -> None:
        self.limits = limits
        #: Where a refused new guest, sign-in or registration is noted for the operator's
        #: log (server.refusals).
        self.refusals = refusals
        self.accounts = accounts
        self.lobby = lobby
        self.writer = writer
        self._settle = settle
        self._admit = admit
        #: Whether the server is shutting down (App.stopping).
        self._stopping = stopping
        #: A rematch's player resumed outside the old room that let it go: seat it in the
        #: rematch's room (server.rematch).
        self._rematch_resumed = rematch_resumed
        #: Every session by id (the App records a settled join's room here).
        self.sessions: dict[str, _SessionRecord] = {}
        self._by_hash: dict[bytes, _SessionRecord] = {}
        #: Each account's one session.
        self._by_account: dict[str, _SessionRecord] = {}
        #: Each account's replays-only sessions (Hello.replays_only), while connected:
        #: RevokeTokens closes them (one opened with a stolen token kept replaying the
        #: account's games after it was revoked).
        self._sides: dict[str, set[_SessionRecord]] = {}
        #: New guest accounts per client address (a token bucket each).
        self._guests = AddressBuckets(limits.guests_per_minute / 60, limits.guest_burst)
        #: When the latest failed sign-ins with each name from each place happened, and
        #: with each name from anywhere (password guessing; see NAME_FAILURES_FACTOR).
        self._login_failures: dict[tuple[str, str], deque[float]] = {}
        self._name_failures: dict[str, deque[float]] = {}
        #: The places each registered name was used from lately, and when (KNOWN_PLACES).
        self._known_places: dict[str, dict[str, float]] = {}
        #: Password checks per client address (a token bucket each).
        self._checks = AddressBuckets(limits.password_checks_per_minute / 60,
                                      limits.password_check_burst)
        #: Password hashing runs on worker threads: two at once, one per client address, a
        #: few waiting, the address that used fewest checks lately first.
        self._hashing = PasswordTurns(HASHING_WORKERS, MOST_WAITING_CHECKS, self._standing)

    # ---- the table
    def recover(self, rows: Iterable[SessionRow], live: set[str]) -> list[StoreOp]:
        """Load the stored sessions (``rows``) that may resume, their places kept only in
        ``live`` rooms (call once, before serving). Returns the writes still owed (the guest
        accounts of sessions stored before accounts)."""
        late: list[StoreOp] = []
        for row in rows:
            account = self.accounts.by_id.get(row.account_id)
            if account is None:  # stored before accounts (or its account is gone)
                account, _token, ops = self.accounts.create_guest(row.name, checked=False)
                late.extend(ops)
            old = self._by_account.get(account.account_id)
            if old is not None:  # one session per account: keep the one in a room
                if old.room_id in live or row.room_id not in live:
                    continue
                self._forget(old)
            record = _SessionRecord(row.session_id, account, row.token_hash,
                                    row.room_id if row.room_id in live else None,
                                    prev_hash=row.prev_hash)
            self.sessions[row.session_id] = record
            self._by_account[account.account_id] = record
            for digest in (row.token_hash, row.prev_hash):
                if digest:
                    self._by_hash[digest] = record
        return late

    def room_closed(self, room_id: str) -> None:
        """The room closed: its sessions have no place any more (idle from now on)."""
        for record in list(self.sessions.values()):
            if record.room_id == room_id:
                record.room_id = None
                record.idle_since = trio.current_time()

    def forget_if_idle(self, record: _SessionRecord) -> None:
        """A session whose connection dropped while it held no place in a room holds nothing
        worth resuming: forget it (memory and store; resuming it then says RESUME_FAILED and
        the client says Hello again), so sessions don't pile up."""
        if record.side:  # (a side session is nowhere to forget: it ends here)
            self._side_ended(record)
            return
        if record.conn is not None or record.room_id is not None or self._stopping():
            return
        self._forget(record)

    async def sweep(self) -> None:
        """Forget, now and then, sessions whose room closed while they were away and who
        have not come back for :attr:`Limits.session_ttl <server.app.Limits.session_ttl>`
        seconds."""
        while True:
            await trio.sleep(self.limits.session_ttl / 4)
            now = trio.current_time()
            cutoff = now - self.limits.login_window
            _forget_before(self._login_failures, cutoff)
            _forget_before(self._name_failures, cutoff)
            for name, places in list(self._known_places.items()):
                for place, seen in list(places.items()):
                    if seen < now - KNOWN_PLACE_SECONDS:
                        del places[place]
                if not places:
                    del self._known_places[name]
            self._guests.forget_full(now)
            self._checks.forget_full(now)
            for record in list(self.sessions.values()):
                if record.conn is None and record.room_id is None and \
                        now - record.idle_since >= self.limits.session_ttl:
                    self._forget(record)
            await self._forget_unused_guests()

    async def _forget_unused_guests(self) -> None:
        """Forget the guests unused for ``--guest-days`` (:meth:`unused_guests`). A store
        that fails to delete them loses only that: the next start forgets them again."""
        ops = self.unused_guests()
        if not ops:
            return
        try:
            await self.writer.write(ops)
        except StoreClosedError:
            return  # shutting down: the next start forgets them
        except StoreUnwritableError:
            return  # (the store's condition is logged once; the next sweep tries again)
        except sqlite3.Error as exc:
            log.warning("store: unused guest accounts could not be deleted (%s); the next "
                        "start deletes them", exc)
            return
        log.info("forgot %d guest account%s unused for %g days", len(ops),
                 "" if len(ops) == 1 else "s", self.limits.guest_days)

    def _forget(self, record: _SessionRecord, *, drop_row: bool = True) -> None:
        self.sessions.pop(record.session_id, None)
        if self._by_account.get(record.account.account_id) is record:
            del self._by_account[record.account.account_id]
        for digest in (record.token_hash, record.prev_hash):
            if self._by_hash.get(digest) is record:
                del self._by_hash[digest]
        if drop_row:
            self.lobby.nursery.start_soon(self._drop_session, record.session_id)

    def unused_guests(self) -> list[StoreOp]:
        """Forget the guest accounts nobody has used for ``Limits.guest_days`` (a guest is
        free, and every account is held in memory: a public server's guests would pile up
        for ever) that hold nothing: no connection, no place in a room, no room they
        created, no seat, reserved seat or tier of a live room. Returns the records that
        delete them (with their tokens and sessions); their games keep their names."""
        if not self.limits.guest_days:
            return []
        before = self.accounts.clock() - self.limits.guest_days * 86_400
        unused = self.accounts.unused_guests(before)
        if not unused:
            return []
        held: set[str] = set()
        for room in self.lobby.rooms.values():
            held.update(m.account_id for m in room.members())
            settings = room.settings
            held.add(settings.creator)
            held.update(account for account, _name in settings.reserved)
            for tier in settings.tiers:
                held.update(account for account, _name in tier.accounts)
        ops: list[StoreOp] = []
        for account in unused:
            if account.created_rooms or account.account_id in held:
                continue
            record = self._by_account.get(account.account_id)
            if record is not None:
                if record.conn is not None or record.room_id is not None:
                    continue
                self._forget(record, drop_row=False)  # (DropAccount deletes its row)
            ops.extend(self.accounts.forget(account))
        return ops

    async def _drop_session(self, session_id: str) -> None:
        """Forget a session's stored row. It runs beside every room and connection: a store
        that fails to write (a full disk) loses the row's deletion, never the server (it
        stopped the server). A start prunes rows a day old in no live room."""
        try:
            await self.writer.write([DropSession(session_id)])
        except StoreClosedError:
            pass  # shutting down: recovery prunes it
        except StoreUnwritableError:
            pass  # (the store's condition is logged once; a start prunes the row)
        except sqlite3.Error as exc:
            log.warning("store: a session's row could not be deleted (%s); a start a day "
                        "later prunes it", exc)

    @staticmethod
    def _welcome(conn: _Connection, record: _SessionRecord, token: str,
                 account_token: str = "") -> mpb.Welcome:
        account = record.account
        return mpb.Welcome(protocol_version=PROTOCOL_VERSION, batched=conn.batch_requested,
                           server_version=server.__version__, session_id=record.session_id,
                           resume_token=token, account_token=account_token,
                           account=mpb.Account(account_id=account.account_id,
                                               name=account.name,
                                               registered=account.registered))

    def _new_token(self, record: _SessionRecord, presented: bytes = b"") -> str:
        """Give ``record`` a fresh resume token. Valid from now on: the new token, and the
        one the client just ``presented`` (until the new one is used once); every other is
        void."""
        token = secrets.token_urlsafe(32)
        for digest in (record.token_hash, record.prev_hash):
            if self._by_hash.get(digest) is record:
                del self._by_hash[digest]
        record.token_hash, record.prev_hash = secret_hash(token), presented
        self._by_hash[record.token_hash] = record
        if presented:
            self._by_hash[presented] = record
        return token

    # ---- accounts and sessions
    async def hello(self, conn: _Connection, rid: int, request: req.Hello) -> None:
        conn.batch_requested = request.batched
        ops: list[StoreOp] = []
        account_token = ""
        if request.login is not None:
            name, password = request.login
            key, place = name_key(name), place_of(conn.address)
            refusal = self._login_refusal(key, place)
            if refusal:
                if self.refusals is not None:
                    self.refusals.note("login", conn.address)
                conn.reply(error_bytes(mpb.ERROR_CODE_UNAUTHENTICATED, refusal, rid))
                return
            if not self._may_check_password(conn, rid):
                return
            account = self.accounts.by_name(name)
            stored = account.password_hash if account is not None and account.registered \
                else ""
            # Counted as a failure until it proves right, so attempts in flight together
            # can't all slip under the limit.
            attempt = self._login_failed(key, place)
            try:
                async with self._hashing.turn(conn.address):
                    ok = await trio.to_thread.run_sync(verify_password, stored, password)
            except ChecksBusy:  # (unchecked: no guess, no failure)
                self._not_failed(key, place, attempt)
                self._checks_busy(conn, rid)
                return
            if not ok or account is None:
                conn.reply(error_bytes(mpb.ERROR_CODE_UNAUTHENTICATED,
                                       "unknown name or wrong password", rid))
                return
            self._not_failed(key, place, attempt)
            self._used_from(account, place)
        elif request.token:
            found = self.accounts.by_token(request.token)
            if found is None:
                conn.reply(error_bytes(mpb.ERROR_CODE_UNAUTHENTICATED,
                                       "unknown or revoked account token: sign in again, or "
                                       "say Hello without one for a new guest account", rid))
                return
            account = found
            self._used_from(account, place_of(conn.address))
        else:
            try:  # (a refused name takes none of the address's new guests)
                guest_base(request.name)
            except AccountError as exc:
                conn.reply(error_bytes(exc.code, exc.message, rid))
                return
            now = trio.current_time()
            if not self._guests.bucket(conn.address, now).take(now):
                if self.refusals is not None:
                    self.refusals.note("guest", conn.address)
                conn.reply(error_bytes(
                    mpb.ERROR_CODE_RATE_LIMITED,
                    f"too many new guest accounts from your address (at most "
                    f"{self.limits.guests_per_minute:g} a minute): say Hello with your "
                    f"account token", rid))
                return
            account, account_token, ops = self.accounts.create_guest(request.name)
        existing = self._by_account.get(account.account_id)
        if existing is not None and existing.conn is not None and request.no_takeover:
            self._in_use(conn, rid, existing)
            return
        if request.login is not None:  # signed in: a new token (none for a refusal above)
            account_token, ops = self.accounts.issue_token(account)
        if existing is not None and request.replays_only:
            await self._side_session(conn, rid, account, account_token, ops)
            return
        if existing is not None:
            # One session per account: this connection takes it over (and its place).
            async with existing.lock:
                if request.token and self.accounts.by_token(request.token) is not account:
                    # (revoked while this Hello waited for the session: RevokeTokens holds
                    # its lock)
                    conn.reply(error_bytes(mpb.ERROR_CODE_UNAUTHENTICATED,
                                           "unknown or revoked account token: sign in again, "
                                           "or say Hello without one for a new guest account",
                                           rid))
                    return
                if self._by_account.get(account.account_id) is existing:
                    if existing.conn is not None and request.no_takeover:
                        # (resumed on another connection while this one waited its turn)
                        self._in_use(conn, rid, existing)
                        return
                    await self._take_over(conn, rid, existing, last_state_id=0,
                                          account_token=account_token, ops=ops, hello=True)
                    return
        record = _SessionRecord(secrets.token_hex(8), account, b"")
        token = self._new_token(record)
        self.sessions[record.session_id] = record
        self._by_account[account.account_id] = record
        conn.session.established(record.session_id, account.name)
        conn.record, record.conn = record, conn
        # The tokens survive a crash from now on.
        await self.writer.write([*ops, *self.accounts.seen(account), record.row()])
        conn.reply(mpb.ServerMessage(request_id=rid, welcome=self._welcome(
            conn, record, token, account_token)).SerializeToString())

    async def _side_session(self, conn: _Connection, rid: int, account: Account,
                            account_token: str, ops: list[StoreOp]) -> None:
        """A ``replays_only`` Hello of an account that has a session: a session of this
        connection's own, beside it -- taking nothing over (a second browser tab opening a
        replay link closed the tab seated in a game, 4001, and never showed the replay). It
        has no resume token and is never stored; :meth:`server.app.App._dispatch` lets it
        only list rooms and replay. The account's RevokeTokens closes it
        (:data:`CLOSE_REVOKED`)."""
        record = _SessionRecord(secrets.token_hex(8), account, b"", side=True)
        conn.session.established(record.session_id, account.name)
        conn.record, record.conn = record, conn
        # Known from now on: a revoke while its Welcome is being written closes it too.
        self._sides.setdefault(account.account_id, set()).add(record)
        writes = [*ops, *self.accounts.seen(account)]
        if writes:
            await self.writer.write(writes)
        conn.reply(mpb.ServerMessage(request_id=rid, welcome=self._welcome(
            conn, record, "", account_token)).SerializeToString())

    def _side_ended(self, record: _SessionRecord) -> None:
        """A replays-only session's connection ended (or was closed by a revoke)."""
        sides = self._sides.get(record.account.account_id)
        if sides is not None:
            sides.discard(record)
            if not sides:
                del self._sides[record.account.account_id]

    def _close_sides(self, account: Account) -> None:
        """Close every replays-only connection of ``account`` (its tokens were revoked):
        whoever opened one -- with a token stolen, say -- is out, its replay with it, and
        what it asks meanwhile is not answered."""
        for side in list(self._sides.pop(account.account_id, ())):
            conn, side.conn = side.conn, None
            if conn is not None:
                conn.record = None
                conn.close(CLOSE_REVOKED, "the account's tokens were revoked (RevokeTokens): "
                                          "sign in again")

    @staticmethod
    def _in_use(conn: _Connection, rid: int, existing: _SessionRecord) -> None:
        """Refuse a ``no_takeover`` Hello: the account's session is connected elsewhere."""
        where = f" (in room {existing.room_id})" if existing.room_id else ""
        conn.reply(error_bytes(
            mpb.ERROR_CODE_ACCOUNT_IN_USE,
            f"this account is connected elsewhere{where}, and this connection asked "
            f"not to take its session over (that would close the other)", rid))

    def _may_check_password(self, conn: _Connection, rid: int) -> bool:
        """Take one of the address's password checks, or refuse the request (RATE_LIMITED):
        an unknown name costs the same check as a known one, so nobody learns which exist,
        and a flood of made-up names from one address would otherwise keep everyone's
        sign-in waiting for seconds."""
        now = trio.current_time()
        if self._checks.bucket(conn.address, now).take(now):
            return True
        if self.refusals is not None:
            self.refusals.note("password", conn.address)
        conn.reply(error_bytes(
            mpb.ERROR_CODE_RATE_LIMITED,
            f"too many sign-ins and registrations from your address (at most "
            f"{self.limits.password_checks_per_minute:g} a minute): wait a little", rid))
        return False

    def _standing(self, address: str) -> float:
        """The password checks ``address`` has left: the fewer it used lately, the sooner
        its next check runs (:mod:`server.password_turns`)."""
        now = trio.current_time()
        return self._checks.bucket(address, now).tokens(now)

    @property
    def _hashing_by_address(self) -> set[str]:
        """The client addresses with a password check running or waiting (none once idle:
        nothing is kept of an address between its checks)."""
        return self._hashing.queue.addresses()

    def _checks_busy(self, conn: _Connection, rid: int) -> None:
        """Refuse a sign-in or registration whose password check found the queue of checks
        full (``RATE_LIMITED``): an answer at once rather than seconds of waiting."""
        if self.refusals is not None:
            self.refusals.note("password", conn.address)
        conn.reply(error_bytes(
            mpb.ERROR_CODE_RATE_LIMITED,
            "the server is checking too many passwords at once (many sign-ins from many "
            "addresses): try again in a few seconds, or say Hello with your account token",
            rid))

    def _recent_failures(self, failures_by: dict[_K, deque[float]], key: _K) -> int:
        """How many of ``failures_by[key]`` fell within the window (forgetting the rest)."""
        failures = failures_by.get(key)
        if failures is None:
            return 0
        cutoff = trio.current_time() - self.limits.login_window
        while failures and failures[0] < cutoff:
            failures.popleft()
        if not failures:
            del failures_by[key]
        return len(failures)

    def _login_refusal(self, key: str, place: str) -> str:
        """Why a sign-in with the name whose key is ``key`` from ``place`` is refused
        unchecked ("": it is checked). The same for a name nobody has, so the answer tells
        nobody which names exist."""
        window = f"{self.limits.login_window:.0f} s"
        if self._recent_failures(self._login_failures, (key, place)) >= \
                self.limits.login_failures:
            return f"too many failed sign-ins with this name from your address: wait {window}"
        if place not in self._known_places.get(key, {}) and \
                self._recent_failures(self._name_failures, key) >= \
                self.limits.login_failures * NAME_FAILURES_FACTOR:
            return (f"too many failed sign-ins with this name from many addresses: wait "
                    f"{window}, or say Hello with your account token")
        return ""

    def _login_failed(self, key: str, place: str) -> float:
        """Count a failed (or not yet verified) sign-in with the name whose key is ``key``
        from ``place``; returns its time."""
        now = trio.current_time()
        for failures, most in (
                (self._login_failures.setdefault((key, place), deque()),
                 self.limits.login_failures),
                (self._name_failures.setdefault(key, deque()),
                 self.limits.login_failures * NAME_FAILURES_FACTOR)):
            failures.append(now)
            if len(failures) > most:
                failures.popleft()
        return now

    def _not_failed(self, key: str, place: str, attempt: float) -> None:
        """The sign-in counted by :meth:`_login_failed` at ``attempt`` did not fail (it
        proved right, or was refused unchecked)."""
        for failures in (self._login_failures.get((key, place)),
                         self._name_failures.get(key)):
            with contextlib.suppress(ValueError):
                (failures or deque()).remove(attempt)

    def _used_from(self, account: Account, place: str) -> None:
        """Registered ``account`` was used from ``place`` (signed in, registered or said
        Hello with its token): the per-name bound doesn't refuse that place
        (:data:`KNOWN_PLACES`)."""
        if not account.registered:
            return
        places = self._known_places.setdefault(name_key(account.name), {})
        places.pop(place, None)
        places[place] = trio.current_time()
        if len(places) > KNOWN_PLACES:
            del places[next(iter(places))]  # the least lately used

    async def register(self, conn: _Connection, record: _SessionRecord, rid: int,
                       request: req.Register) -> None:
        account = record.account
        try:
            name = check_new_credentials(request.name, request.password)
            # A taken name is metered as a sign-in is: answered at once and unmetered, it
            # told which names exist, ~170 a second (security round 16).
            if not self._may_check_password(conn, rid):
                return
            self.accounts.check_register(account, name)  # before the slow hashing
            async with self._hashing.turn(conn.address):
                hashed = await trio.to_thread.run_sync(hash_password, request.password)
            back = self.accounts.keep(account)
            ops = self.accounts.register(account, name, hashed)  # checks the name again
        except AccountError as exc:
            conn.reply(error_bytes(exc.code, exc.message, rid))
            return
        except ChecksBusy:
            self._checks_busy(conn, rid)
            return
        self._used_from(account, place_of(conn.address))
        conn.session.established(record.session_id, account.name)
        try:
            await self.writer.write([*ops, record.row()])
        except StoreUnwritableError:  # (refused in words by the app: nothing was done)
            back()
            conn.session.established(record.session_id, account.name)
            raise
        conn.reply(mpb.ServerMessage(request_id=rid, welcome=self._welcome(
            conn, record, "")).SerializeToString())

    async def revoke(self, conn: _Connection, record: _SessionRecord, rid: int) -> None:
        async with record.lock:
            back = self.accounts.keep(record.account)
            resume = record.token_hash, record.prev_hash
            account_token, ops = self.accounts.revoke(record.account)
            token = self._new_token(record)  # the old resume tokens are void too
            try:
                await self.writer.write([*ops, record.row()])
            except StoreUnwritableError:  # (refused in words by the app: nothing was done)
                back()
                self._put_back_tokens(record, resume)
                raise
            # Every other connection of the account ends: its replays-only ones (the
            # session's own connection is this one: one session per account).
            self._close_sides(record.account)
        conn.reply(mpb.ServerMessage(request_id=rid, welcome=self._welcome(
            conn, record, token, account_token)).SerializeToString())

    def _put_back_tokens(self, record: _SessionRecord, resume: tuple[bytes, bytes]) -> None:
        """Make ``record``'s resume tokens what they were (``resume``: its token hash and
        previous one) after :meth:`_new_token` gave it one the store couldn't record."""
        for digest in (record.token_hash, record.prev_hash):
            if digest and self._by_hash.get(digest) is record:
                del self._by_hash[digest]
        record.token_hash, record.prev_hash = resume
        for digest in resume:
            if digest:
                self._by_hash[digest] = record

    def _find(self, token: str) -> _SessionRecord | None:
        digest = secret_hash(token)
        record = self._by_hash.get(digest)
        if record is None:
            return None
        current = hmac.compare_digest(record.token_hash, digest)
        previous = bool(record.prev_hash) and hmac.compare_digest(record.prev_hash, digest)
        return record if current or previous else None

    async def resume(self, conn: _Connection, rid: int, request: req.Resume) -> None:
        conn.batch_requested = request.batched
        record = self._find(request.token)
        if record is None:
            self._resume_failed(conn, rid)
            return
        # One resume of a session at a time: the connection that ends up holding the
        # session is the one holding its newest token.
        async with record.lock:
            if self._find(request.token) is not record:
                self._resume_failed(conn, rid)  # voided by the resume that went first
                return
            await self._take_over(conn, rid, record, request.last_state_id,
                                  presented=secret_hash(request.token))

    async def _void_previous(self, record: _SessionRecord) -> None:
        """Void the token ``record``'s client presented last (``prev_hash``) once the
        connection given the newer one has held the session for
        :data:`PREVIOUS_TOKEN_SECONDS` (it has received that token); keep it if that
        connection drops sooner. One such task per session at a time (``voiding``)."""
        while True:
            wait = record.given_at + PREVIOUS_TOKEN_SECONDS - trio.current_time()
            if wait > 0:
                await trio.sleep(wait)
                continue  # (given again meanwhile: wait for that one)
            async with record.lock:
                if record.given_at + PREVIOUS_TOKEN_SECONDS > trio.current_time():
                    continue
                held = record.prev_hash and record.given_to is not None and \
                    record.conn is record.given_to and \
                    self.sessions.get(record.session_id) is record
                record.voiding, record.given_to = False, None
                if not held:
                    return  # dropped sooner (the client may lack the newer token), or gone
                if self._by_hash.get(record.prev_hash) is record:
                    del self._by_hash[record.prev_hash]
                record.prev_hash = b""
                try:  # (under the lock: no newer row is written before this one)
                    await self.writer.write([record.row()])
                except StoreClosedError:
                    pass  # shutting down
                except StoreUnwritableError:
                    pass  # (logged once; the next write of the session's row takes it)
                except sqlite3.Error as exc:
                    log.warning("store: a session's row could not be written (%s); the "
                                "next write of it takes the change", exc)
                return

    @staticmethod
    def _resume_failed(conn: _Connection, rid: int) -> None:
        conn.reply(error_bytes(mpb.ERROR_CODE_RESUME_FAILED,
                               "unknown or expired resume token; say Hello to start a new "
                               "session", rid))

    async def _take_over(self, conn: _Connection, rid: int, record: _SessionRecord,
                         last_state_id: int, *, presented: bytes = b"",
                         account_token: str = "", ops: Sequence[StoreOp] = (),
                         hello: bool = False) -> None:
        """Move ``record`` (and its place in a room) to ``conn``. A Resume is answered with
        Resumed; a Hello with Resumed when the session was in a room that still exists (with
        ``joined`` if the place came back), else with Welcome."""
        older = record.conn
        if older is not None and older is not conn and older.settled is not None:
            # The older connection's join is being answered: the place it gets is the
            # session's, so wait for it (a resume racing the join that started a game was
            # told "no place" while its seat's clock ran). Bounded: SETTLE_SECONDS.
            await older.settled.wait()
        resume = record.token_hash, record.prev_hash
        token = self._new_token(record, presented)
        # The new one survives a crash.
        try:
            await self.writer.write([*ops, *self.accounts.seen(record.account), record.row()])
        except StoreUnwritableError:  # (refused in words by the app; the session stays
            self._put_back_tokens(record, resume)  # where it is, its tokens valid)
            raise
        # No await from closing the older connection to queueing the Reattach: the room
        # then sees the Reattach before the older connection's Disconnect.
        old = record.conn
        if old is not None and old is not conn:
            old.record = None
            old.close(CLOSE_REPLACED, "replaced by a newer connection of this account")
        conn.session.established(record.session_id, record.name)
        conn.record, record.conn = record, conn
        if record.prev_hash:  # (void once this connection has held it long enough)
            record.given_to, record.given_at = conn, trio.current_time()
            if not record.voiding:
                record.voiding = True
                self.lobby.nursery.start_soon(self._void_previous, record)
        welcome = self._welcome(conn, record, token, account_token)
        host = self.lobby.hosts.get(record.room_id) if record.room_id else None
        if host is not None:
            if not host.room.seated(record.session_id):
                # A spectator coming back takes turns with those joining: a crowd resuming
                # at once (after a restart, or a relay's clients after it dropped) must not
                # slow the games either. A player's seat never waits.
                await self._admit(host.room_id)
            out = await self._settle(conn, host, cmd.Reattach(
                conn.conn_id, rid, record.session_id, record.name, last_state_id,
                record.account.account_id, welcome.SerializeToString()))
            if out is not None and out.accepted:
                return
            if self._stopping():
                return  # a frozen room answers nothing; the client resumes after the restart
            if out is not None:
                if out.spectators_full and self.refusals is not None:
                    self.refusals.note("spectators", conn.address)
                record.room_id = None
                await self.writer.write([record.row()])
                if out.rematch_seat and self._rematch_resumed is not None:
                    await self._rematch_resumed(conn)
                return  # the room answered: Resumed without a place (seat freed ...)
        record.room_id = None
        reply = mpb.ServerMessage(request_id=rid, welcome=welcome) if hello else \
            mpb.ServerMessage(request_id=rid, resumed=mpb.Resumed(welcome=welcome))
        conn.reply(reply.SerializeToString())

