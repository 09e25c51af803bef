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

import functools
import hmac
import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from protocol.v1 import messages_pb2 as mpb
from server.invisible import invisible_characters, without_invisible
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


@functools.cache
def _dummy_hash() -> str:
    """Verified against when the name is unknown, so a wrong name costs as long as a wrong
    password and timing tells nobody which names exist. Made at the first password check,
    not at import: a hash costs ~0.15 s of CPU, which every process importing this module
    paid -- each client command too, which never checks a password."""
    return _hasher.hash(secrets.token_urlsafe(16))


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
    dummy = _dummy_hash()  # (made at the first check, of a known name or not: alike)
    try:
        return _hasher.verify(stored or dummy, password) and bool(stored)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def _script(ch: str) -> str:
    """A letter's script: the first word of its Unicode name ('LATIN', 'CYRILLIC' ...)."""
    return unicodedata.name(ch, "?").split()[0]


#: Unicode's confusables (TR 39, confusables.txt, as packaged by confusable-homoglyphs
#: 3.3.1): each letter or digit a name may hold whose prototype is one ASCII letter or
#: digit, by that character ("A 0391 0410 ...": Greek and Cyrillic capital A look like
#: 'A'). Added: Greek omega (U+03C9) as 'w', Cyrillic pe (U+043F) as 'n'. Left out: what
#: reads as two letters ('m' as 'rn').
_LOOKALIKES = """
A 0391 0410 13AA 15C5 A4EE 102A0 16F40
a 0251 03B1 0430
B 0392 0412 13F4 15F7 A4D0 A7B4 10282 102A1 10301
b 0184 042C 13CF 1472 15AF
C 0421 13DF 2CA4 A4DA 102A2 10302 10415 1051C 118E9 118F2
c 0441 1D04 2CA5 ABAF 1043D
D 13A0 15DE 15EA A4D3
d 0501 13E7 146F A4D2
E 0395 0415 13AC 2D39 A4F0 10286 118A6 118AE
e 0435 04BD AB32
F 03DC 15B4 A4DD A798 10287 102A5 10525 118A2 118C2
f 0584 1E9D A799 AB35
G 050C 13C0 13F3 A4D6
g 018D 0261 0581 1D83
H 0397 041D 13BB 157C 2C8E A4E7 102CF
h 04BB 0570 13C2
i 0131 0269 026A 03B9 0456 04CF 13A5 A647 AB75 118C3
J 037F 0408 13AB 148D A4D9 A7B2
j 03F3 0458
K 039A 041A 13E6 16D5 2C94 A4D7 10518
L 13DE 14AA 2CD0 A4E1 1041B 10526 118A3 118B2 16F16
l 0031 0049 0196 01C0 0399 0406 04C0 06F1 16C1 2C92 2D4F A4F2 1028A 10309 10320 16F28
M 039C 03FA 041C 13B7 15F0 16D6 2C98 A4DF 102B0 10311
N 039D 2C9A A4E0 10513
n 043F 0578 057C
O 0030 039F 041E 0555 09E6 0B20 0B66 12D0 2C9E 2D54 3007 A4F3 10292 102AB 10404 104C2
O 10516 114D0 118B5 118E0
o 03BF 03C3 043E 0585 06F5 0966 0A66 0AE6 0BE6 0C66 0CE6 0D20 0D66 0E50 0ED0 101D 1040
o 10FF 1D0F 1D11 2C9F AB3D 1042C 104EA 118C8 118D7
P 03A1 0420 13E2 146D 2CA2 A4D1 10295
p 03C1 0440 2CA3
Q 2D55
q 051B 0563 0566
R 01A6 13A1 13D2 1587 A4E3 104B4 16F35
r 0433 1D26 2C85 AB47 AB48 AB81
S 0405 054F 13D5 13DA A4E2 10296 10420 16F3A
s 01BD 0455 A731 ABAA 10448 118C1
T 03A4 0422 13A2 2CA6 A4D4 10297 102B1 10315 118BC 16F0A
U 054D 1200 144C A4F4 104CE 118B8 16F42
u 028B 03C5 057D 1D1C A79F AB4E AB52 104F6 118D8
V 0474 06F7 13D9 142F 2D38 A4E6 A6DF 1051D 118A0 16F08
v 03BD 0475 1D20 ABA9 11706 118C0
W 051C 13B3 13D4 A4EA 118E6 118EF
w 026F 03C9 0461 051D 0561 1D21 AB83 1170A 1170E 1170F
X 03A7 0425 16B7 2CAC 2D5D A4EB A7B3 10290 102B4 10317 10322 10527 118EC
x 0445 1541 157D
Y 03A5 0423 04AE 13A9 13BD 2CA8 A4EC 102B2 118A4 16F43
y 0263 028F 03B3 0443 04AF 10E7 1D8C 1EFF AB5A 118DC
Z 0396 13C3 A4DC 102F5 118A9 118E5
z 1D22 AB93 118C4
2 01A7 03E8 14BF A644 A6EF A75A
3 01B7 021C 0417 04E0 2CCC A76A A7AB 118CA 16F3B
4 13CE 118AF
5 01BC 118BB
6 0431 13EE 2CD2 118D5
7 104D2 118C6
8 0222 0223 09EA 0A6A 1031A
9 09ED 0A67 0B68 0D6D 2CCA A76E 118AC 118CC 118D6
"""
_TO_LATIN: dict[int, str] = {
    int(code, 16): line.split()[0]
    for line in _LOOKALIKES.split("\n") if line
    for code in line.split()[1:]
}

#: Scripts whose letters look alike: a name never mixes two of Latin, Cyrillic and Greek
#: ('Ann' spelt with a Cyrillic A, U+0410, would pass for 'Ann').
_LOOKALIKE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK"})
#: Every script with letters that look like Latin ones (Armenian, Cherokee, Lisu ...): a
#: word never mixes two of them ('Bob' with an Armenian o, U+0585).
_LOOKALIKE_IN_WORD = frozenset(
    {_script(chr(code)) for code in _TO_LATIN if chr(code).isalpha()} | _LOOKALIKE_SCRIPTS)
#: A word: letters and digits between spaces, '_', '-' and '.'.
_WORD = re.compile(r"[^\W_]+")


def mixed_scripts(name: str) -> list[str]:
    """The scripts of look-alike letters a name mixes, sorted (empty: it mixes none): two of
    Latin, Cyrillic and Greek anywhere in it, or, within one word, two scripts that have
    letters looking like Latin ones (Armenian, Cherokee, Lisu, Coptic ...). A letter's
    script is the first word of its Unicode name after NFKC; letters of other scripts
    (Han, kana, Hangul, Arabic...) mix freely, and so do words: a name may write 'Hayk' in
    Latin letters and then in Armenian ones."""
    clean = unicodedata.normalize("NFKC", name)
    scripts = {script for ch in clean if ch.isalpha()
               and (script := _script(ch)) in _LOOKALIKE_SCRIPTS}
    if len(scripts) > 1:
        return sorted(scripts)
    for word in _WORD.findall(clean):
        scripts = {script for ch in word if ch.isalpha()
                   and (script := _script(ch)) in _LOOKALIKE_IN_WORD}
        if len(scripts) > 1:
            return sorted(scripts)
    return []


class _Fold(dict[int, str]):
    """:data:`_TO_LATIN`, and every other decimal digit, of any script, read as the ASCII
    digit of its value and then as that one is read ('1' as 'l'): 'Ann\u0661e', with an
    Arabic-Indic one, passed beside 'Annie' where 'Ann1e' was refused. (A character neither
    maps to is left as it is: :meth:`str.translate` takes a LookupError so.)"""

    def __missing__(self, code: int) -> str:
        value = unicodedata.decimal(chr(code), None)
        if value is None:
            raise KeyError(code)
        return _TO_LATIN.get(ord("0") + value, str(value))


_FOLD = _Fold(_TO_LATIN)


def look_key(name: str) -> str:
    """What a name looks like, as written (Unicode TR 39's skeleton): its NFKD form with
    spaces collapsed, each letter or digit that looks like an ASCII one read as that one
    (:data:`_LOOKALIKES`), so a name all in Cyrillic can still pass for a Latin one, and
    each other decimal digit as the ASCII digit of its value (:class:`_Fold`). Case is
    kept: 'I' reads as 'l', but 'Lan' doesn't look like 'Ian'."""
    clean = " ".join(unicodedata.normalize("NFKC", name).split())
    return unicodedata.normalize("NFKD", clean).translate(_FOLD)


def look_keys(name: str) -> frozenset[tuple[str, str]]:
    """What a name looks like as written, in capitals and in small letters (names differing
    only in case are the same name): two registered names may not share one, compared like
    with like ('TOY' in Cyrillic capitals looks like 'toy' in capitals, 'wow' in Greek
    omegas and omicron like 'wow')."""
    clean = " ".join(unicodedata.normalize("NFKC", name).split())
    return frozenset({("as written", look_key(clean)), ("capitals", look_key(clean.upper())),
                      ("small", look_key(clean.lower()))})


#: The name the server's computer players play under (server.rooms.computer.COMPUTER_NAME,
#: "Computer", "Computer 2" ...): no account, registered or guest, may be named so, or
#: like it (:func:`reserved_name`) -- a person named "Computer" passed for the server's
#: player in a room's list of players.
COMPUTER = "Computer"
#: What is left of a name after a number at its end ("Computer 2", "Computer_2").
_NUMBERED = re.compile(r"^(.*?)[\s_.\-]*\d+$")

#: Characters that show as a blank though they are neither spaces nor shown as nothing
#: (:mod:`server.invisible`): a name of U+2800 read as no name ("\u2800#6269").
_BLANK = frozenset({
    0x2800,  # BRAILLE PATTERN BLANK
    0x1D159,  # MUSICAL SYMBOL NULL NOTEHEAD
    0x16FE4,  # KHITAN SMALL SCRIPT FILLER
})


def blank_characters(name: str) -> list[str]:
    """The characters of ``name`` (else of its NFKC form) that show as a blank though they
    are no space (:data:`_BLANK`), each once, in order."""
    for form in (name, unicodedata.normalize("NFKC", name)):
        found = list(dict.fromkeys(ch for ch in form if ord(ch) in _BLANK))
        if found:
            return found
    return []


def reserved_name(name: str) -> bool:
    """Whether ``name`` is, or reads like, the computer players' name (:data:`COMPUTER`):
    'Computer', 'computer 2', 'C0MPUTER', 'Computer' with a Cyrillic o, 'Computer \u0662'
    (an Arabic-Indic two) ..."""
    clean = " ".join(unicodedata.normalize("NFKC", name).split())
    digits = "".join(str(d) if (d := unicodedata.decimal(ch, None)) is not None else ch
                     for ch in clean)
    numbered = _NUMBERED.match(digits)
    rest = numbered.group(1) if numbered else digits
    return any(key.casefold() == COMPUTER.casefold() for _form, key in look_keys(rest))


def _characters(chars: Iterable[str]) -> str:
    """Characters named for a refusal: "U+2800 BRAILLE PATTERN BLANK, ..."."""
    return ", ".join(f"U+{ord(ch):04X} {unicodedata.name(ch, 'unassigned')}" for ch in chars)


def _refuse_name(clean: str) -> None:
    """Refuse a name, registered or a guest's (:class:`AccountError`), that shows a blank
    where it has none, mixes look-alike scripts or reads like the computer players' name."""
    blank = blank_characters(clean)
    if blank:
        raise AccountError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                           f"a name has no characters that show as a blank "
                           f"({_characters(blank)}): "
                           f"use a space, between other characters")
    mixed = mixed_scripts(clean)
    if mixed:
        raise AccountError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                           f"this name mixes {' and '.join(s.title() for s in mixed)} "
                           f"letters, which can look alike (so one name could pass for "
                           f"another): use the letters of one of them")
    if reserved_name(clean):
        raise AccountError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                           f"{COMPUTER!r} (or a name that reads like it) is the name of the "
                           f"server's computer players: choose another")


def guest_base(display_name: str) -> str:
    """The name a new guest gets before its ``#1234`` suffix: ``display_name`` without
    '#' and the characters shown as nothing. :class:`AccountError` if it has a character
    that shows a blank, mixes look-alike scripts ('Ann' with a Cyrillic A beside 'Ann') or
    reads like the computer players' name -- as a registered name may not."""
    base = _guest_clean(display_name)
    _refuse_name(base)
    return base


def _guest_clean(display_name: str) -> str:
    """``display_name`` without '#', the characters shown as nothing and extra spaces
    (a name of Hangul fillers read as none): "guest" if nothing is left."""
    return " ".join(without_invisible(display_name).replace("#", "").split()) or "guest"


def check_new_credentials(name: str, password: str) -> str:
    """Validate a name and password to register; returns the cleaned name."""
    clean = " ".join(name.split())
    invisible = invisible_characters(clean)
    if invisible:
        raise AccountError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                           f"a name has no characters that are shown as nothing "
                           f"({_characters(invisible)}): "
                           f"it would read as the name without them")
    blank = blank_characters(clean)
    if not blank and (not MIN_NAME <= len(clean) <= MAX_NAME or not _NAME.match(clean)):
        raise AccountError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                           f"a name has {MIN_NAME}-{MAX_NAME} letters, digits, spaces, '_', "
                           "'-' or '.'")
    _refuse_name(clean)
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                           f"a password has {MIN_PASSWORD}-{MAX_PASSWORD} characters")
    return clean


def guest_look(name: str) -> str:
    """What a guest's name looks like, for telling guests apart: its :func:`look_key` in
    small letters, read again ('Ann#0427' with a Cyrillic A, which NFKC and case folding
    keep apart from the Latin one, reads as it). It errs towards alike: it only makes
    another suffix be drawn."""
    return look_key(look_key(name).casefold())


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
        #: Registered accounts by what their names look like (:func:`look_keys`).
        self._by_look: dict[tuple[str, str], Account] = {}
        #: Guests by what their names look like (:func:`guest_look`): no two alike.
        self._guest_looks: dict[str, Account] = {}

    def load(self, rows: list[AccountRow], tokens: list[tuple[bytes, str]]) -> None:
        """Take the stored accounts and token hashes."""
        for row in rows:
            account = Account(row.account_id, row.name, row.registered, row.password_hash,
                              last_seen=row.last_seen)
            self.by_id[account.account_id] = account
            self._by_name[name_key(account.name)] = account
            if account.registered:  # (names registered before the rule: the first kept)
                for key in look_keys(account.name):
                    self._by_look.setdefault(key, account)
                self.registered_count += 1
            else:
                self._guest_looks.setdefault(guest_look(account.name), account)
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
    def create_guest(self, display_name: str, *, checked: bool = True
                     ) -> tuple[Account, str, list[StoreOp]]:
        """A new guest account ``display_name#NNNN`` (unique, and looking like no other
        guest's name) and its first token. :class:`AccountError` if the name is refused
        (:func:`guest_base`); not ``checked``, a refused name is taken as it is (a session
        stored before accounts, from :meth:`server.sessions.SessionDesk.recover`)."""
        base = guest_base(display_name) if checked else _guest_clean(display_name)
        for digits in (4, 4, 4, 6, 6, 8):
            name = f"{base}#{secrets.randbelow(10 ** digits):0{digits}d}"
            if name_key(name) not in self._by_name and \
                    guest_look(name) not in self._guest_looks:
                break
        else:  # pragma: no cover - 10^8 names taken
            name = f"{base}#{secrets.token_hex(8)}"
        account = Account(secrets.token_hex(8), name, last_seen=self.clock())
        self.by_id[account.account_id] = account
        self._by_name[name_key(name)] = account
        self._guest_looks.setdefault(guest_look(name), account)
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
        self._drop_guest_look(account)
        for digest in account.tokens:
            if self._by_token.get(digest) is account:
                del self._by_token[digest]
        account.tokens.clear()
        return [DropAccount(account.account_id)]

    def _drop_guest_look(self, account: Account) -> None:
        """Guest ``account``'s name no longer keeps others from looking like it."""
        if self._guest_looks.get(guest_look(account.name)) is account:
            del self._guest_looks[guest_look(account.name)]

    def check_register(self, account: Account, name: str) -> None:
        """Raise :class:`AccountError` unless guest ``account`` may take ``name``."""
        if account.registered:
            raise AccountError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                               f"this account is already registered as {account.name!r}")
        holder = self._by_name.get(name_key(name))
        if holder is not None and holder is not account:
            raise AccountError(mpb.ERROR_CODE_NAME_TAKEN, f"the name {name!r} is taken")
        for key in sorted(look_keys(name)):
            alike = self._by_look.get(key)
            if alike is not None and alike is not account:
                raise AccountError(mpb.ERROR_CODE_NAME_TAKEN,
                                   f"the name {name!r} looks like the registered name "
                                   f"{alike.name!r} (letters that look the same, of another "
                                   f"script or not): choose another")

    def keep(self, account: Account) -> Callable[[], None]:
        """A way back to ``account`` as it is now -- its name, password and tokens -- for a
        change (:meth:`register`, :meth:`revoke`, :meth:`issue_token`) whose records the
        store then couldn't write: the client is told nothing was done, so nothing is."""
        name, registered, password_hash = account.name, account.registered, \
            account.password_hash
        tokens = set(account.tokens)

        def back() -> None:
            for digest in account.tokens - tokens:
                if self._by_token.get(digest) is account:
                    del self._by_token[digest]
            for digest in tokens:
                self._by_token[digest] = account
            account.tokens.clear()
            account.tokens.update(tokens)
            if account.registered and not registered:
                for look in look_keys(account.name):
                    if self._by_look.get(look) is account:
                        del self._by_look[look]
                self.registered_count -= 1
            if account.name != name:
                if self._by_name.get(name_key(account.name)) is account:
                    del self._by_name[name_key(account.name)]
                self._by_name[name_key(name)] = account
                if not registered:
                    self._guest_looks.setdefault(guest_look(name), account)
            account.name, account.registered, account.password_hash = name, registered, \
                password_hash

        return back

    def register(self, account: Account, name: str, password_hash: str) -> list[StoreOp]:
        """Give guest ``account`` the registered ``name`` (unique) and a password (checked
        again here: another registration may have taken it meanwhile)."""
        self.check_register(account, name)
        key = name_key(name)
        del self._by_name[name_key(account.name)]
        self._drop_guest_look(account)
        account.name, account.registered, account.password_hash = name, True, password_hash
        self.registered_count += 1
        self._by_name[key] = account
        for look in look_keys(name):
            self._by_look[look] = account
        return [account.row()]
