"""CreateRoom's account-name lookups (a security review): reserving seats for [candidate,
a made-up name] told anyone which account names exist, 20 times a second (app over memory
sockets)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.create_desk import NAME_LOOKUP_BURST
from tests.rooms.test_account_hardening import open_socket, register_name
from tests.rooms.test_app_memory import running_app


def _create(reserved: list[str], tier_names: Sequence[str] = ()) -> dict[str, object]:
    tiers = [mpb.SpectatorTier(kind=mpb.TIER_KIND_PUBLIC, delay_seconds=5,
                               accounts=tier_names[i:i + 64])
             for i in range(0, len(tier_names), 64)]
    return {"create_room": mpb.CreateRoom(name="r", reserved=reserved, tiers=tiers)}


async def test_create_room_name_lookups_are_metered_per_address(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """Reserving seats for [candidate, a made-up name] answered 'no account is named' the
    one that didn't exist, 20 times a second: a quicker oracle of which names exist than
    sign-in, which tells nobody. Each name looked up now costs a token of the address's
    bucket (the most one request names at once, then the password checks' rate), taken
    before any lookup; past it: RATE_LIMITED, whichever names exist."""
    async with running_app(tmp_path) as app:
        await register_name(app, "198.51.100.1", "Ann", "correct horse")
        prober = await open_socket(app, "203.0.113.66")
        await prober.request(hello=mpb.Hello(protocol_version=1, display_name="p"))
        # The largest request the protocol allows is answered (here: its unknown name).
        names = [f"nobody{n}" for n in range(NAME_LOOKUP_BURST - 8)]
        big = await prober.request(**_create([], names))
        assert big.error.message == "tier 1: no account is named 'nobody0'"
        answers = []
        for candidate in ("Ann", "Bea", "Cid", "Dee", "Ann", "Bea"):
            reply = await prober.request(**_create([candidate, "Zz_no_such_name_zz"]))
            answers.append((reply.error.code, reply.error.message))
        assert answers[:4] == [
            (mpb.ERROR_CODE_INVALID_ARGUMENT, "no account is named 'Zz_no_such_name_zz'"),
            (mpb.ERROR_CODE_INVALID_ARGUMENT, "no account is named 'Bea'"),
            (mpb.ERROR_CODE_INVALID_ARGUMENT, "no account is named 'Cid'"),
            (mpb.ERROR_CODE_INVALID_ARGUMENT, "no account is named 'Dee'"),
        ]
        # The bucket is empty: refused alike whether the candidate exists or not.
        assert answers[4] == answers[5]
        code, message = answers[4]
        assert code == mpb.ERROR_CODE_RATE_LIMITED
        assert message.startswith("too many account names looked up from your address")
        assert app.refusals.totals["lookup"] == 2  # told to the operator (docs/limits.md, Limits)
        # Another address isn't held back; a room naming no account never is.
        other = await open_socket(app, "192.0.2.7")
        await other.request(hello=mpb.Hello(protocol_version=1, display_name="o"))
        assert (await other.request(**_create(["Ann"]))).HasField("room_created")
        assert (await prober.request(**_create([]))).HasField("room_created")
        # The bucket refills at the password checks' rate (30 a minute).
        await trio.sleep(4.1)
        assert (await prober.request(**_create(["Ann", "Zz_no_such_name_zz"]))
                ).error.code == mpb.ERROR_CODE_INVALID_ARGUMENT
