"""Names a security review (round 14, finding 4) found accepted though they pass for another:
the computer players' name "Computer" (registered, or as a guest's), a guest name in
Latin and Cyrillic letters beside the all-Latin one, a name that shows as a blank (U+2800),
and a registered name with a digit of another script where the ASCII one was refused as
a look-alike ('Ann\\u0661e' beside 'Annie', where 'Ann1e' was refused)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.accounts import (
    COMPUTER,
    AccountError,
    Accounts,
    check_new_credentials,
    guest_base,
    reserved_name,
)
from server.app import Limits
from server.rooms.computer import COMPUTER_NAME, computer_name
from tests.rooms.test_account_hardening import open_socket
from tests.rooms.test_app_memory import running_app

PASSWORD = "long enough"


def _register_beside(registered: str, name: str) -> AccountError | None:
    """Register ``registered``, then try ``name`` as another guest: the refusal, if any."""
    accounts = Accounts()
    first, _token, _ops = accounts.create_guest("first")
    accounts.register(first, check_new_credentials(registered, PASSWORD), "hash")
    second, _token, _ops = accounts.create_guest("second")
    try:
        accounts.check_register(second, check_new_credentials(name, PASSWORD))
    except AccountError as exc:
        return exc
    return None


def _refusal(check: object, name: str) -> AccountError:
    with pytest.raises(AccountError) as refused:
        if check is guest_base:
            guest_base(name)
        else:
            check_new_credentials(name, PASSWORD)
    assert refused.value.code == mpb.ERROR_CODE_INVALID_ARGUMENT
    return refused.value


# ---- the computer players' name


def test_the_reserved_name_is_the_computer_players_name() -> None:
    assert COMPUTER == COMPUTER_NAME
    assert all(reserved_name(computer_name(i, 3)) for i in range(3))


@pytest.mark.parametrize("check", [guest_base, check_new_credentials])
@pytest.mark.parametrize("name", [
    "Computer", "computer", "COMPUTER", "Computer 2", "Computer_12", "Computer-3",
    "C0MPUTER",  # a zero for the O, in capitals
    "ComputeR",
    "Computer \u0662",  # an Arabic-Indic two
    "\uff23omputer",  # a fullwidth C (NFKC: Latin)
])
def test_the_computer_players_name_and_its_look_alikes_are_refused(
    check: object, name: str
) -> None:
    """A person named "Computer" passed for the server's player in a room's players."""
    refused = _refusal(check, name)
    assert "name of the server's computer players" in refused.message
    assert "choose another" in refused.message


def test_a_guest_named_computer_in_cyrillic_letters_is_refused_too() -> None:
    # (mixing Cyrillic and Latin letters is refused first, said so)
    assert "mixes Cyrillic and Latin" in _refusal(guest_base, "C\u043emputer").message
    assert reserved_name("C\u043emputer")


@pytest.mark.parametrize("name", [
    "Computers", "The Computer", "Comp", "Computer Ann", "Compute r", "Komputer",
])
def test_names_that_only_contain_or_resemble_computer_are_taken(name: str) -> None:
    assert not reserved_name(name)
    assert guest_base(name) == name
    assert check_new_credentials(name, PASSWORD) == name


# ---- blank-looking characters


@pytest.mark.parametrize("check", [guest_base, check_new_credentials])
@pytest.mark.parametrize(("name", "shown"), [
    ("\u2800", "U+2800 BRAILLE PATTERN BLANK"),
    ("\u2800\u2800\u2800", "U+2800 BRAILLE PATTERN BLANK"),
    ("Ann\u2800Lee", "U+2800 BRAILLE PATTERN BLANK"),
    ("\U0001d159\U0001d159\U0001d159", "U+1D159 MUSICAL SYMBOL NULL NOTEHEAD"),
])
def test_a_name_with_a_character_that_shows_as_a_blank_is_refused(
    check: object, name: str, shown: str
) -> None:
    """U+2800 is printable and shown as nothing by no rule (not Default_Ignorable), so a
    guest "\\u2800" was "\\u2800#6269": a name that reads as none."""
    refused = _refusal(check, name)
    assert "show as a blank" in refused.message and shown in refused.message


# ---- guests: mixed scripts, and names alike


@pytest.mark.parametrize("name", ["\u0410nn", "B\u0585b", "\u03a1AX"])
def test_a_guest_name_mixing_look_alike_scripts_is_refused(name: str) -> None:
    """'Ann' with a Cyrillic A was a guest '\\u0410nn#NNNN' beside Latin 'Ann#NNNN'; registered
    names refused it already (the same rule, said the same way)."""
    assert "letters, which can look alike" in _refusal(guest_base, name).message


@pytest.mark.parametrize("name", [
    "\u0410\u043d\u043d\u0430", "Hayk \u0540\u0561\u0575\u056f", "Taro \u5c71\u7530",
    "Ann \U0001f600", "Ann 2",
])
def test_guest_names_in_one_script_a_word_are_accepted(name: str) -> None:
    assert guest_base(name) == name


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The suffixes create_guest draws, in order: the list's (set by the test), then 7."""
    draws: list[int] = []

    def randbelow(_below: int) -> int:
        return draws.pop(0) if draws else 7

    monkeypatch.setattr("server.accounts.secrets.randbelow", randbelow)
    yield draws


def test_no_two_guests_have_names_alike(drawn: list[int]) -> None:
    """Guest names were unique only case-folded: Cyrillic '\\u0410\\u043f\\u043f#0042' was given
    beside 'Ann#0042' (and 'Bob\\u0661#0042', an Arabic-Indic one, beside 'Bobl#0042')."""
    accounts = Accounts()
    drawn[:] = [42, 42]
    ann, _token, _ops = accounts.create_guest("Ann")
    assert ann.name == "Ann#0042"
    cyrillic, _token, _ops = accounts.create_guest("\u0410\u043f\u043f")  # Cyrillic 'Ann'
    assert cyrillic.name == "\u0410\u043f\u043f#0007"  # another suffix drawn
    drawn[:] = [42, 42]
    bob, _token, _ops = accounts.create_guest("Bobl")
    assert bob.name == "Bobl#0042"
    arabic, _token, _ops = accounts.create_guest("Bob\u0661")
    assert arabic.name == "Bob\u0661#0007"


def test_a_guest_name_forgotten_or_registered_away_is_free_again(drawn: list[int]) -> None:
    accounts = Accounts()
    drawn[:] = [42, 42, 42]
    ann, _token, _ops = accounts.create_guest("Ann")
    accounts.forget(ann)
    again, _token, _ops = accounts.create_guest("ANN")
    assert again.name == "ANN#0042"
    back = accounts.keep(again)
    accounts.register(again, "Annabel", "hash")
    other, _token, _ops = accounts.create_guest("ann")
    assert other.name == "ann#0042"  # 'ANN#0042' is 'Annabel' now
    accounts.forget(other)
    back()  # (the store couldn't take the registration: the guest is back, looks too)
    assert again.name == "ANN#0042"
    drawn[:] = [42]
    last, _token, _ops = accounts.create_guest("\u0410\u043f\u043f")  # Cyrillic 'Ann'
    assert last.name == "\u0410\u043f\u043f#0007"


def test_a_stored_session_without_an_account_keeps_its_name_unchecked() -> None:
    """(Sessions stored before accounts get a guest account at start: its name is taken as
    it was, never refused.)"""
    accounts = Accounts()
    account, _token, _ops = accounts.create_guest("Computer#0427", checked=False)
    assert account.name.startswith("Computer0427#")
    with pytest.raises(AccountError):
        accounts.create_guest("Computer")


# ---- digits of every script


@pytest.mark.parametrize(("registered", "lookalike"), [
    ("Annie", "Ann\u0661e"),  # Arabic-Indic one, as 'Ann1e' (a 1 reads as l)
    ("Annie", "Ann\u06f1e"),  # Extended Arabic-Indic one
    ("Annie", "Ann\u0967e"),  # Devanagari one (read as the number, as a 1 is)
    ("Ann0e", "Ann\u0660e"),  # Arabic-Indic zero, as 'Ann0e'
    ("Bob123", "Bob\u0661\u0662\u0663"),
    ("Bob123", "Bob\u09e7\u09e8\u09e9"),  # Bengali
])
def test_a_name_with_digits_of_another_script_reads_as_with_ascii_ones(
    registered: str, lookalike: str
) -> None:
    refused = _register_beside(registered, lookalike)
    assert refused is not None, f"{lookalike!r} was accepted beside {registered!r}"
    assert refused.code == mpb.ERROR_CODE_NAME_TAKEN
    assert f"looks like the registered name {registered!r}" in refused.message


@pytest.mark.parametrize(("registered", "name"), [
    ("Annie", "Ann\u0660e"),  # a zero reads as O, not as i (as 'Ann0e' beside 'Annie')
    ("Annie", "Ann0e"),
    ("Bob123", "Bob\u0661\u0662\u0664"),
])
def test_digits_of_another_script_that_read_otherwise_are_taken(
    registered: str, name: str
) -> None:
    assert _register_beside(registered, name) is None


def test_a_bengali_four_reads_as_it_looks() -> None:
    """Unicode's confusables come first: a Bengali four looks like an 8, not a 4."""
    assert _register_beside("Bob8", "Bob\u09ea") is not None
    assert _register_beside("Bob4", "Bob\u09ea") is None


# ---- over the protocol


async def test_hello_and_register_refuse_the_names_said_why_and_take_no_guest(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """A refused guest name takes none of the address's new guests (one allowed here)."""
    async with running_app(tmp_path, Limits(guest_burst=1, guests_per_minute=0.001)) as app:
        sock = await open_socket(app)
        for name, why in (("Computer", "computer players"), ("\u2800", "blank"),
                          ("\u0410nn", "mixes Cyrillic and Latin")):
            refused = await sock.request(hello=mpb.Hello(protocol_version=1,
                                                         display_name=name))
            assert refused.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT, refused
            assert why in refused.error.message
        welcome = await sock.request(hello=mpb.Hello(protocol_version=1, display_name="Eve"))
        assert welcome.welcome.account.name.startswith("Eve#")
        for name, why in (("Computer", "computer players"), ("Ann\u2800e", "blank")):
            refused = await sock.request(register=mpb.Register(name=name, password=PASSWORD))
            assert refused.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT, refused
            assert why in refused.error.message
        done = await sock.request(register=mpb.Register(name="Computers", password=PASSWORD))
        assert done.welcome.account.name == "Computers"
