"""Account hardening found by a security review (app over memory sockets): registered
names that read like registered ones -- invisible fillers, look-alike letters of other
scripts. The helpers here serve the other test_account_hardening_* modules too."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.accounts import (
    AccountError,
    Accounts,
    check_new_credentials,
    look_keys,
    mixed_scripts,
)
from server.app import App
from server.invisible import invisible_characters
from server.store.records import AccountRow
from tests.rooms.test_app_memory import MemorySocket, running_app


async def open_socket(app: App, address: str = "memory") -> MemorySocket:
    """A connection to ``app`` from ``address``."""
    sock = MemorySocket(address=address)
    app.lobby.nursery.start_soon(app.handle_connection, sock)
    return sock


async def sign_in(app: App, address: str, name: str, password: str) -> mpb.ServerMessage:
    """The answer to a Hello signing in with ``name`` and ``password`` from ``address``."""
    sock = await open_socket(app, address)
    return await sock.request(hello=mpb.Hello(protocol_version=1, login=mpb.Login(
        name=name, password=password)))


async def register_name(app: App, address: str, name: str, password: str) -> str:
    """Register ``name`` from ``address``; returns the account token."""
    sock = await open_socket(app, address)
    welcome = await sock.request(hello=mpb.Hello(protocol_version=1, display_name="x"))
    assert (await sock.request(register=mpb.Register(name=name, password=password))
            ).HasField("welcome")
    return welcome.welcome.account_token


def _register_beside(registered: str, name: str) -> AccountError | None:
    """Register ``registered``, then try ``name`` as another guest: the refusal, if any."""
    accounts = Accounts()
    first, _token, _ops = accounts.create_guest("first")
    accounts.register(first, check_new_credentials(registered, "long enough"), "hash")
    second, _token, _ops = accounts.create_guest("second")
    try:
        accounts.check_register(second, check_new_credentials(name, "long enough"))
    except AccountError as exc:
        return exc
    return None


@pytest.mark.parametrize(("registered", "lookalike", "why"), [
    ("Ann", "Ann\u3164", "shown as nothing"),  # Hangul filler
    ("Ann", "Ann\u115f", "shown as nothing"),  # Hangul choseong filler
    ("Ann", "An\uffa0n", "shown as nothing"),  # halfwidth Hangul filler
    ("Ann", "\ua4eenn", "mixes Latin and Lisu"),  # Lisu A
    ("Bob", "\u13f4ob", "mixes Cherokee and Latin"),  # Cherokee YV
    ("Bob", "B\u0585b", "mixes Armenian and Latin"),  # Armenian oh
    ("TOY", "\u0422\u041e\u04ae", "looks like the registered name 'TOY'"),  # Cyrillic
    ("toy", "\u0422\u041e\u04ae", "looks like the registered name 'toy'"),  # ... in capitals
    ("wow", "\u03c9\u03bf\u03c9", "looks like the registered name 'wow'"),  # Greek
    ("Vivi", "\u0474\u0456\u0475\u0456", "looks like the registered name 'Vivi'"),  # izhitsa
    ("Alice", "Al\u0131ce", "looks like the registered name 'Alice'"),  # dotless i
    ("Ian", "lan", "looks like the registered name 'Ian'"),  # a capital I reads as l
    ("Bob", "B0B", "looks like the registered name 'Bob'"),  # zero for O, in capitals
    ("Olga", "\u0555lga", "mixes Armenian and Latin"),
    # The controls the review found refused already.
    ("PAX", "\u0420\u0410\u0425", "looks like the registered name 'PAX'"),
    ("Ann", "\uff21nn", "is taken"),
])
def test_a_name_that_reads_like_a_registered_one_is_refused(
    registered: str, lookalike: str, why: str
) -> None:
    refused = _register_beside(registered, lookalike)
    assert refused is not None, f"{lookalike!r} was accepted beside {registered!r}"
    assert why in refused.message
    assert refused.code in (mpb.ERROR_CODE_NAME_TAKEN, mpb.ERROR_CODE_INVALID_ARGUMENT)


@pytest.mark.parametrize(("registered", "name"), [
    ("Anna", "\u0410\u043d\u043d\u0430"),  # Cyrillic 'Anna' looks like no Latin name
    ("Omega", "\u03a9\u03bc\u03ad\u03b3\u03b1"), ("Sasha", "\u0421\u0430\u0448\u0430"),
    ("Ian", "Lan"), ("Maria", "Mar\u00eda"), ("Tom", "Torn"),
    ("Ann", "Hayk \u0540\u0561\u0575\u056f"),
    ("Ann", "Taro \u5c71\u7530"), ("Ann", "\u5c71\u7530\u305f\u308d\u3046"),
    ("Ann", "Kim \uae40"), ("Ann", "Ann \u0627\u0628\u0646"), ("Ann", "Ann 2"),
])
def test_names_that_only_resemble_each_other_are_both_registered(
    registered: str, name: str
) -> None:
    assert _register_beside(registered, name) is None


def test_look_alikes_are_compared_like_with_like_and_loaded_names_count() -> None:
    """Written as typed, in capitals and in small letters: Cyrillic 'Mama' in capitals reads
    as 'MAMA', but 'Lan' never reads as 'Ian' (only 'lan' does). Names registered before
    (from the store) are compared too."""
    assert look_keys("\u041c\u0430\u043c\u0430") & look_keys("MAMA")
    assert not look_keys("Lan") & look_keys("Ian")
    assert look_keys("lan") & look_keys("Ian")
    assert mixed_scripts("B\u0585b") == ["ARMENIAN", "LATIN"]
    assert mixed_scripts("Hayk \u0540\u0561\u0575\u056f") == []  # a word each
    assert invisible_characters("Ann\u3164") == ["\u3164"]
    assert invisible_characters("Ann") == []
    accounts = Accounts()
    accounts.load([AccountRow("a1", "wow", True, "hash")], [])
    guest, _token, _ops = accounts.create_guest("eve")
    with pytest.raises(AccountError, match="looks like the registered name 'wow'"):
        accounts.check_register(guest, "\u03c9\u03bf\u03c9")


async def test_register_and_hello_refuse_fillers_and_register_refuses_look_alikes(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        ann = await open_socket(app)
        assert (await ann.request(hello=mpb.Hello(protocol_version=1, display_name="ann"))
                ).HasField("welcome")
        await ann.request(register=mpb.Register(name="Ann", password="correct horse"))
        eve = await open_socket(app)
        # A display name with a filler is refused, said so (server.rooms.session), as one
        # with any other character shown as nothing.
        refused = await eve.request(hello=mpb.Hello(protocol_version=1,
                                                    display_name="Ann\u3164"))
        assert refused.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT
        assert "invisible character" in refused.error.message
        welcome = await eve.request(hello=mpb.Hello(protocol_version=1, display_name="Eve"))
        assert welcome.welcome.account.name.startswith("Eve#")
        filler = await eve.request(register=mpb.Register(name="Ann\u3164",
                                                          password="correct horse"))
        assert filler.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT
        assert "U+3164 HANGUL FILLER" in filler.error.message
        wow = await open_socket(app)
        await wow.request(hello=mpb.Hello(protocol_version=1, display_name="w"))
        assert (await wow.request(register=mpb.Register(name="wow", password="x" * 10))
                ).HasField("welcome")
        greek = await eve.request(register=mpb.Register(name="\u03c9\u03bf\u03c9",
                                                         password="x" * 10))
        assert greek.error.code == mpb.ERROR_CODE_NAME_TAKEN
