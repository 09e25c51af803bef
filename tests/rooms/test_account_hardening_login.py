"""Password guessing (a security review): five wrong passwords from one address locked a
name out for everyone, its owner too. Failures now count per name and place, with a larger
bound per name that never refuses the places the account was used from (app over memory
sockets, real clock: password checks run on worker threads)."""

from __future__ import annotations

from pathlib import Path

import pytest

from protocol.v1 import messages_pb2 as mpb
from server.app import Limits
from server.sessions import NAME_FAILURES_FACTOR, place_of
from tests.rooms.passwords import cheap_passwords
from tests.rooms.test_account_hardening import open_socket, register_name, sign_in
from tests.rooms.test_app_memory import running_app


@pytest.fixture(autouse=True)
def _cheap_passwords(monkeypatch: pytest.MonkeyPatch) -> None:
    cheap_passwords(monkeypatch)  # (the server's own: tests/rooms/test_accounts.py)


def test_guesses_are_counted_per_ipv4_address_or_ipv6_64() -> None:
    assert place_of("203.0.113.5") == "203.0.113.5"
    assert place_of("2001:db8::1") == place_of("2001:db8::ffff:2") == "2001:db8::/64"
    assert place_of("2001:db8:0:1::1") == "2001:db8:0:1::/64"
    assert place_of("::ffff:203.0.113.5") == "203.0.113.5"
    assert place_of("memory") == "memory"


async def test_failed_sign_ins_from_one_address_never_lock_the_owner_out_elsewhere(
    tmp_path: Path,
) -> None:
    """Five wrong passwords from anywhere within a minute locked a name out for everyone,
    its owner with the right password too. Failures count per name and address (an IPv6
    /64): the guessing address is refused, the owner elsewhere signs in. (Real clock: the
    checks run on worker threads.)"""
    limits = Limits(login_failures=3, login_window=60.0)
    async with running_app(tmp_path, limits) as app:
        await register_name(app, "198.51.100.1", "Ann", "correct horse")
        for _ in range(3):
            wrong = await sign_in(app, "203.0.113.66", "Ann", "wrong horse")
            assert wrong.error.message == "unknown name or wrong password"
        owner = await sign_in(app, "192.0.2.7", "Ann", "correct horse")  # a new address
        assert owner.HasField("welcome"), owner
        locked = await sign_in(app, "203.0.113.66", "ann", "correct horse")
        assert locked.error.code == mpb.ERROR_CODE_UNAUTHENTICATED
        assert "too many failed sign-ins with this name from your address" in \
            locked.error.message
        # One IPv6 /64 is one place; another /64 is another.
        for _ in range(3):
            await sign_in(app, "2001:db8::1", "Ann", "wrong horse")
        same64 = await sign_in(app, "2001:db8::2", "Ann", "correct horse")
        assert "from your address" in same64.error.message
        other64 = await sign_in(app, "2001:db8:0:1::1", "Ann", "correct horse")
        assert other64.HasField("welcome"), other64


async def test_many_addresses_guessing_one_name_are_bounded_but_the_owner_gets_in(
    tmp_path: Path,
) -> None:
    """All addresses together get NAME_FAILURES_FACTOR times the per-address failures with
    one name; then new addresses are refused it unchecked (a made-up name alike, so the
    answer tells nobody which names exist), while an address the account was used from
    still signs in, and its token always works. (Real clock.)"""
    limits = Limits(login_failures=1, login_window=60.0)
    bound = limits.login_failures * NAME_FAILURES_FACTOR
    async with running_app(tmp_path, limits) as app:
        token = await register_name(app, "198.51.100.1", "Ann", "correct horse")
        for name in ("Ann", "Zz_no_such_name_zz"):
            for n in range(bound):
                wrong = await sign_in(app, f"203.0.113.{n + 1}", name, "wrong horse")
                assert wrong.error.message == "unknown name or wrong password", n
            refused = await sign_in(app, "192.0.2.7", name, "correct horse")
            assert refused.error.code == mpb.ERROR_CODE_UNAUTHENTICATED
            assert refused.error.message.startswith(
                "too many failed sign-ins with this name from many addresses")
            assert "account token" in refused.error.message
        known = await sign_in(app, "198.51.100.1", "Ann", "correct horse")
        assert known.HasField("welcome"), known
        with_token = await (await open_socket(app, "192.0.2.7")).request(
            hello=mpb.Hello(protocol_version=1, account_token=token))
        assert with_token.HasField("welcome")
        # ... and an address that came back with the token is known from then on.
        again = await sign_in(app, "192.0.2.7", "Ann", "correct horse")
        assert again.HasField("welcome"), again
