"""Accounts: who a connection is, from server-side records only.

A first ``Hello`` without credentials creates a *guest* account, named by the client's
display name plus a distinguishing ``#1234`` suffix, and issues it a long-lived secret
token. A guest can :meth:`Accounts.register` a unique name and a password (hashed with
Argon2id by ``argon2-cffi``) and later sign in with them, from any device. Tokens are 32
random bytes (URL-safe text); the server keeps only their SHA-256 (a token has 256 bits of
entropy, so a fast hash suffices; passwords, which don't, get Argon2id), looks them up by
hash and confirms with :func:`hmac.compare_digest`. :meth:`Accounts.revoke` voids every
token of an account.

This module does no I/O: each change returns the store records (:data:`StoreOp`) to write,
and the caller writes them before it answers. Password hashing is slow on purpose: callers
run :func:`hash_password` and :func:`verify_password` on a worker thread, never on the event
loop that serves rooms.
"""

from __future__ import annotations

import hmac
import re
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from protocol.v1 import messages_pb2 as mpb
from server.store.records import (
    AccountRow,
    DropAccount,
    DropTokens,
    PutAccount,
    PutToken,
    SeenAccount,
    StoreOp,
    secret_hash,
)

MIN_PASSWORD, MAX_PASSWORD = 8, 256
MIN_NAME, MAX_NAME = 3, 24
#: Registered names: letters (any script), digits, spaces and ``_ - .``; never ``#``, which
#: marks guests.
_NAME = re.compile(r"^[\w .\-]+$")
#: Tokens are 43 URL-safe characters; anything much longer is refused unread.
MAX_TOKEN = 128
#: An account used again is noted as seen (a store write) at most this often, in seconds.
SEEN_EVERY = 3600.0

_hasher = PasswordHasher()
#: Verified against when the name is unknown, so a wrong name costs as long as a wrong
#: password and timing tells nobody which names exist.
_DUMMY_HASH = _hasher.hash(secrets.token_urlsafe(16))


class AccountError(Exception):
    """A refused account change; ``code`` is the protocol error code to answer with."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def name_key(name: str) -> str:
    """The form under which names are unique: NFKC, case-folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def hash_password(password: str) -> str:
    """Argon2id hash of ``password`` (slow: call on a worker thread)."""
    return _hasher.hash(password)


def verify_password(stored: str, password: str) -> bool:
    """Whether ``password`` matches ``stored`` ("" when the account is unknown: then a
    dummy hash is checked, so the answer takes as long). Slow: call on a worker thread."""
    try:
        return _hasher.verify(stored or _DUMMY_HASH, password) and bool(stored)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


#: Scripts whose letters look alike: a registered name may not mix two of them ('Ann'
#: spelt with a Cyrillic A, U+0410, would pass for 'Ann').
_LOOKALIKE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK"})


def mixed_scripts(name: str) -> list[str]:
    """The lookalike scripts (Latin, Cyrillic, Greek) whose letters a name mixes, sorted
    (empty: it mixes none). A letter's script is the first word of its Unicode name after
    NFKC; letters of other scripts (Han, kana, Hangul, Arabic...) mix freely."""
    scripts: set[str] = set()
    for ch in unicodedata.normalize("NFKC", name):
        if ch.isalpha():
            script = unicodedata.name(ch, "?").split()[0]
            if script in _LOOKALIKE_SCRIPTS:
                scripts.add(script)
    return sorted(scripts) if len(scripts) > 1 else []


#: Cyrillic and Greek letters (case-folded) and the Latin letters they look like, in
#: either case: "PAX" written in Cyrillic or in Greek capitals reads as the Latin "PAX".
_LOOKS_LATIN = str.maketrans({
    "\u0430": "a", "\u0432": "b", "\u0435": "e", "\u0451": "e", "\u0437": "3", "\u0456": "i",
    "\u0457": "i", "\u0458": "j", "\u043a": "k", "\u043c": "m", "\u043d": "h", "\u043e": "o",
    "\u043f": "n", "\u0440": "p", "\u0441": "c", "\u0442": "t", "\u0443": "y", "\u0445": "x",
    "\u0455": "s", "\u04bb": "h", "\u0501": "d", "\u04cf": "l", "\u051b": "q", "\u051d": "w",
    "\u044c": "b", "\u03b1": "a", "\u03b2": "b", "\u03b3": "y", "\u03b5": "e", "\u03b6": "z",
    "\u03b7": "h", "\u03b9": "i", "\u03ba": "k", "\u03bc": "m", "\u03bd": "n", "\u03bf": "o",
    "\u03c1": "p", "\u03c4": "t", "\u03c5": "y", "\u03c7": "x", "\u03f2": "c", "\u03f3": "j",
})


def look_key(name: str) -> str:
    """What a name looks like: its :func:`name_key` with Cyrillic and Greek letters that
    look Latin read as those Latin letters (Unicode TR 39's "whole-script confusables":
    a name all in Cyrillic can still pass for a Latin one). Two registered names may not
    look alike."""
    return name_key(name).translate(_LOOKS_LATIN)


def check_new_credentials(name: str, password: str) -> str:
    """Validate a name and password to register; returns the cleaned name."""
    clean = " ".join(name.split())
    if not MIN_NAME <= len(clean) <= MAX_NAME or not _NAME.match(clean):
        raise AccountError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                           f"a name has {MIN_NAME}-{MAX_NAME} letters, digits, spaces, '_', "
                           "'-' or '.'")
    mixed = mixed_scripts(clean)
    if mixed:
        raise AccountError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                           f"this name mixes {' and '.join(s.title() for s in mixed)} "
                           f"letters, which can look alike (so one name could pass for "
                           f"another): use the letters of one of them")
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                           f"a password has {MIN_PASSWORD}-{MAX_PASSWORD} characters")
    return clean


def typeable_secret(nbytes: int) -> str:
    """A random URL-safe secret of ``nbytes`` random bytes that never starts with "-".

    Account tokens and invite codes are typed on command lines (``--token T``, ``--invite
    CODE``), where a value starting with "-" is read as an option: one code in 64 did, and
    the commands ``manawire play`` prints for its room failed with "expected one argument".
    Leaving out that first character costs 0.02 bits of the secret's 256 or 128."""
    while True:
        secret = secrets.token_urlsafe(nbytes)
        if not secret.startswith("-"):
            return secret


@dataclass(eq=False, slots=True)
class Account:
    """An account the server knows. ``tokens`` are the hashes of its valid tokens."""

    account_id: str
    name: str
    registered: bool = False
    password_hash: str = field(default="", repr=False)
    tokens: set[bytes] = field(default_factory=set, repr=False)
    #: Live rooms this account created (the per-account room limit).
    created_rooms: set[str] = field(default_factory=set)
    #: When it was last used (a Hello or Resume; ``time.time()``), or else created.
    last_seen: float = 0.0

    def row(self) -> PutAccount:
        return PutAccount(self.account_id, self.name, name_key(self.name), self.registered,
                          self.password_hash)


class Accounts:
    """Every account, in memory (loaded from the store at start-up), by id, token and name.
    ``clock`` tells the time accounts are created and used at (``time.time``)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.by_id: dict[str, Account] = {}
        #: How many of them are registered (the rest are guests).
        self.registered_count = 0
        self._by_token: dict[bytes, Account] = {}
        self._by_name: dict[str, Account] = {}
        #: Registered accounts by what their names look like (:func:`look_key`).
        self._by_look: dict[str, Account] = {}

    def load(self, rows: list[AccountRow], tokens: list[tuple[bytes, str]]) -> None:
        """Take the stored accounts and token hashes."""
        for row in rows:
            account = Account(row.account_id, row.name, row.registered, row.password_hash,
                              last_seen=row.last_seen)
            self.by_id[account.account_id] = account
            self._by_name[name_key(account.name)] = account
            if account.registered:  # (names registered before the rule: the first kept)
                self._by_look.setdefault(look_key(account.name), account)
                self.registered_count += 1
        for digest, account_id in tokens:
            found = self.by_id.get(account_id)
            if found is not None:
                found.tokens.add(digest)
                self._by_token[digest] = found

    # ---- lookups
    def by_token(self, token: str) -> Account | None:
        """The account holding ``token`` (None: unknown, forged or revoked)."""
        if not token or len(token) > MAX_TOKEN:
            return None
        digest = secret_hash(token)
        account = self._by_token.get(digest)
        if account is None:
            return None
        # The dict found it by hash; confirm in constant time.
        return account if any(hmac.compare_digest(digest, t) for t in account.tokens) \
            else None

    def by_name(self, name: str) -> Account | None:
        """The account with this name (registered names and guests' suffixed names)."""
        return self._by_name.get(name_key(name))

    # ---- changes (each returns the records to write before answering)
    def create_guest(self, display_name: str) -> tuple[Account, str, list[StoreOp]]:
        """A new guest account ``display_name#NNNN`` (unique) and its first token."""
        base = display_name.replace("#", "").strip() or "guest"
        for digits in (4, 4, 4, 6, 6, 8):
            name = f"{base}#{secrets.randbelow(10 ** digits):0{digits}d}"
            if name_key(name) not in self._by_name:
                break
        else:  # pragma: no cover - 10^8 names taken
            name = f"{base}#{secrets.token_hex(8)}"
        account = Account(secrets.token_hex(8), name, last_seen=self.clock())
        self.by_id[account.account_id] = account
        self._by_name[name_key(name)] = account
        token, ops = self.issue_token(account)
        return account, token, [account.row(), *ops]

    def issue_token(self, account: Account) -> tuple[str, list[StoreOp]]:
        """A new secret token for ``account`` (its other tokens stay valid)."""
        token = typeable_secret(32)
        digest = secret_hash(token)
        account.tokens.add(digest)
        self._by_token[digest] = account
        return token, [PutToken(digest, account.account_id)]

    def revoke(self, account: Account) -> tuple[str, list[StoreOp]]:
        """Void every token of ``account`` and issue one new token."""
        for digest in account.tokens:
            self._by_token.pop(digest, None)
        account.tokens.clear()
        token, ops = self.issue_token(account)
        return token, [DropTokens(account.account_id), *ops]

    def seen(self, account: Account) -> list[StoreOp]:
        """``account`` is used now (a Hello or Resume): the record to write, if it was last
        noted more than :data:`SEEN_EVERY` seconds ago."""
        now = self.clock()
        if now - account.last_seen < SEEN_EVERY:
            return []
        account.last_seen = now
        return [SeenAccount(account.account_id, now)]

    def unused_guests(self, before: float) -> list[Account]:
        """Guest accounts last used (or created) before time ``before``."""
        return [a for a in self.by_id.values() if not a.registered and a.last_seen < before]

    def forget(self, account: Account) -> list[StoreOp]:
        """Forget guest ``account`` and its tokens (its name is free again)."""
        assert not account.registered, "only guest accounts are forgotten"
        del self.by_id[account.account_id]
        if self._by_name.get(name_key(account.name)) is account:
            del self._by_name[name_key(account.name)]
        for digest in account.tokens:
            if self._by_token.get(digest) is account:
                del self._by_token[digest]
        account.tokens.clear()
        return [DropAccount(account.account_id)]

    def check_register(self, account: Account, name: str) -> None:
        """Raise :class:`AccountError` unless guest ``account`` may take ``name``."""
        if account.registered:
            raise AccountError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                               f"this account is already registered as {account.name!r}")
        holder = self._by_name.get(name_key(name))
        if holder is not None and holder is not account:
            raise AccountError(mpb.ERROR_CODE_NAME_TAKEN, f"the name {name!r} is taken")
        alike = self._by_look.get(look_key(name))
        if alike is not None and alike is not account:
            raise AccountError(mpb.ERROR_CODE_NAME_TAKEN,
                               f"the name {name!r} looks like the registered name "
                               f"{alike.name!r} (letters of another script that look the "
                               f"same): choose another")

    def register(self, account: Account, name: str, password_hash: str) -> list[StoreOp]:
        """Give guest ``account`` the registered ``name`` (unique) and a password (checked
        again here: another registration may have taken it meanwhile)."""
        self.check_register(account, name)
        key = name_key(name)
        del self._by_name[name_key(account.name)]
        account.name, account.registered, account.password_hash = name, True, password_hash
        self.registered_count += 1
        self._by_name[key] = account
        self._by_look[look_key(name)] = account
        return [account.row()]
