"""Accounts, tokens, private rooms, reserved seats and who may watch (app over memory
sockets, autojump clock). Roles and seats come from server-side records only."""

from __future__ import annotations

import itertools
import logging
import secrets
from collections.abc import Sequence
from pathlib import Path

import pytest
import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.app import App, Limits
from server.decks import DeckFormat
from server.store.records import StoreOp
from tests.rooms.passwords import cheap_passwords
from tests.rooms.test_app_memory import MemorySocket, running_app


@pytest.fixture(autouse=True)
def _cheap_passwords(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.function is not test_passwords_are_hashed_with_argon2id_at_its_default_cost:
        cheap_passwords(monkeypatch)


def test_passwords_are_hashed_with_argon2id_at_its_default_cost() -> None:
    """The server's own hasher (the other tests here swap in a cheap one,
    :mod:`tests.rooms.passwords`): Argon2id at argon2-cffi's default cost, the unknown
    names' dummy hash alike; the right password is accepted, a wrong one or an unknown name
    refused."""
    from argon2 import PasswordHasher, Type, extract_parameters

    from server.accounts import _dummy_hash, hash_password, verify_password

    default = PasswordHasher()
    hashed = hash_password("correct horse")
    for h in (hashed, _dummy_hash()):
        p = extract_parameters(h)
        assert (p.type, p.time_cost, p.memory_cost, p.parallelism) == \
            (Type.ID, default.time_cost, default.memory_cost, default.parallelism)
    assert verify_password(hashed, "correct horse")
    assert not verify_password(hashed, "wrong horse")
    assert not verify_password("", "correct horse")  # an unknown name


def _hello(name: str = "", token: str = "", login: tuple[str, str] | None = None
           ) -> dict[str, object]:
    hello = mpb.Hello(protocol_version=1, display_name=name, account_token=token)
    if login is not None:
        hello.login.name, hello.login.password = login
    return {"hello": hello}


async def _connect(app: App, name: str = "", token: str = "",
                   login: tuple[str, str] | None = None) -> tuple[MemorySocket, mpb.ServerMessage]:
    sock = MemorySocket()
    app.lobby.nursery.start_soon(app.handle_connection, sock)
    return sock, await sock.request(**_hello(name, token, login))


async def _create(sock: MemorySocket, **fields: object) -> mpb.RoomCreated:
    reply = await sock.request(create_room=mpb.CreateRoom(name="t", **fields))  # type: ignore[arg-type]
    assert reply.HasField("room_created"), reply
    return reply.room_created


async def _join(sock: MemorySocket, room_id: str, *, spectator: bool = False,
                code: str = "") -> mpb.ServerMessage:
    role = mpb.ROLE_SPECTATOR if spectator else mpb.ROLE_PLAYER
    return await sock.request(join_room=mpb.JoinRoom(room_id=room_id, role=role,
                                                     invite_code=code))


async def test_a_first_hello_creates_a_guest_with_a_suffix_and_a_token_that_comes_back(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        _a, first = await _connect(app, "bob")
        _b, second = await _connect(app, "bob")
        one, two = first.welcome, second.welcome
        assert one.account.name.startswith("bob#") and two.account.name.startswith("bob#")
        assert one.account.name != two.account.name  # two guests never share a name
        assert not one.account.registered and len(one.account_token) >= 40
        # The token names the same account on a later connection; no new token is shown.
        _c, again = await _connect(app, token=one.account_token)
        assert again.welcome.account.account_id == one.account.account_id
        assert again.welcome.account_token == ""


async def test_a_wrong_forged_or_revoked_token_is_refused(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        sock, welcome = await _connect(app, "ann")
        old = welcome.welcome.account_token
        for bad in ("nope", old[:-1] + ("A" if old[-1] != "A" else "B"), "x" * 500):
            _s, reply = await _connect(app, token=bad)
            assert reply.error.code == mpb.ERROR_CODE_UNAUTHENTICATED, bad
        revoked = await sock.request(revoke_tokens=mpb.RevokeTokens())
        new = revoked.welcome.account_token
        assert new and new != old
        _s, reply = await _connect(app, token=old)
        assert reply.error.code == mpb.ERROR_CODE_UNAUTHENTICATED
        _s, reply = await _connect(app, token=new)
        assert reply.HasField("welcome")
        # A refused Hello leaves the connection able to say Hello again.
        retry, refused = await _connect(app, token="forged")
        assert refused.error.code == mpb.ERROR_CODE_UNAUTHENTICATED
        assert (await retry.request(**_hello("carl"))).HasField("welcome")


async def test_register_then_log_in_elsewhere_and_names_are_unique(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        sock, _w = await _connect(app, "ann")
        reply = await sock.request(register=mpb.Register(name="Ann", password="correct horse"))
        assert reply.welcome.account.name == "Ann" and reply.welcome.account.registered
        other, _w = await _connect(app, "ann")
        taken = await other.request(register=mpb.Register(name="ANN", password="battery st"))
        assert taken.error.code == mpb.ERROR_CODE_NAME_TAKEN
        short = await other.request(register=mpb.Register(name="Zed", password="short"))
        assert short.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT
        hashed = await other.request(register=mpb.Register(name="a#1", password="long enough"))
        assert hashed.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT  # '#' marks guests
        # A Cyrillic A (U+0410) in a Latin name would pass for 'Ann' (Unicode TR 39 mixed scripts).
        lookalike = await other.request(register=mpb.Register(name="\u0410nn",
                                                               password="long enough"))
        assert lookalike.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT
        assert "mixes Cyrillic and Latin letters" in lookalike.error.message
        _s, wrong = await _connect(app, login=("Ann", "wrong horse"))
        assert wrong.error.code == mpb.ERROR_CODE_UNAUTHENTICATED
        _s, unknown = await _connect(app, login=("Nobody", "correct horse"))
        assert unknown.error.code == mpb.ERROR_CODE_UNAUTHENTICATED
        assert unknown.error.message == wrong.error.message  # no hint which names exist
        _s, ok = await _connect(app, login=("ann", "correct horse"))
        body = ok.WhichOneof("body")
        welcome = ok.welcome if body == "welcome" else ok.resumed.welcome
        assert welcome.account.name == "Ann" and welcome.account_token


async def test_accounts_and_tokens_survive_a_restart_and_are_stored_only_hashed(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        sock, welcome = await _connect(app, "ann")
        token = welcome.welcome.account_token
        await sock.request(register=mpb.Register(name="Ann", password="correct horse"))
    raw = (tmp_path / "db.sqlite3").read_bytes()
    assert token.encode() not in raw and b"correct horse" not in raw
    async with running_app(tmp_path) as app:
        _s, again = await _connect(app, token=token)
        assert again.welcome.account.name == "Ann"
        _s, login = await _connect(app, login=("Ann", "correct horse"))
        assert not login.HasField("error")


async def _ann_and_bob_play(app: App) -> tuple[MemorySocket, str, str]:
    """Ann (whose account token is returned) and Bob take seats 0 and 1 of Ann's room."""
    ann, welcome = await _connect(app, "ann")
    bob, _w = await _connect(app, "bob")
    room = (await _create(ann)).room
    assert (await _join(ann, room.room_id)).joined.seat == 0
    assert (await _join(bob, room.room_id)).joined.seat == 1
    return ann, welcome.welcome.account_token, room.room_id


async def test_a_second_hello_of_an_account_takes_its_session_and_seat_over(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        ann, token, _room = await _ann_and_bob_play(app)
        # Ann's new device: the same account gets its seat back, the old one is closed.
        _ann2, reply = await _connect(app, token=token)
        assert reply.resumed.joined.seat == 0 and reply.resumed.snapshot
        await trio.testing.wait_all_tasks_blocked()
        assert ann.closed is not None and ann.closed[0] == 4001


async def test_a_replays_only_hello_beside_a_seated_session_takes_nothing_over(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """A replay link opened in a second browser tab (Hello.replays_only) took the first
    tab's session over, seat and all (4001). It now gets a session of its own, with no
    resume token, that may list rooms and replay but neither join, create, queue nor
    register; the seated connection plays on. An account with no session gets an ordinary
    one."""
    async with running_app(tmp_path) as app:
        ann, token, room_id = await _ann_and_bob_play(app)
        side = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, side)
        reply = await side.request(hello=mpb.Hello(protocol_version=1, account_token=token,
                                                   replays_only=True))
        assert reply.HasField("welcome"), reply
        assert reply.welcome.resume_token == "" and reply.welcome.account.name.startswith("ann#")
        assert room_id in [r.room_id for r in
                           (await side.request(list_rooms=mpb.ListRooms())).room_list.rooms]
        for body in ({"join_room": mpb.JoinRoom(room_id=room_id, role=mpb.ROLE_SPECTATOR)},
                     {"create_room": mpb.CreateRoom(name="t")},
                     {"quick_match": mpb.QuickMatch()},
                     {"register": mpb.Register(name="annie", password="a long password")}):
            refused = await side.request(**body)
            assert refused.error.code == mpb.ERROR_CODE_ACCOUNT_IN_USE, (body, refused)
        await trio.testing.wait_all_tasks_blocked()
        assert ann.closed is None and side.closed is None
        assert (await ann.request(request_snapshot=mpb.RequestSnapshot())).HasField("snapshot")
        # Cy has no session (her connection closed outside any room): an ordinary one.
        cy, welcome = await _connect(app, "cy")
        await cy.to_server.aclose()
        await trio.sleep(1)
        cy2 = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, cy2)
        again = await cy2.request(hello=mpb.Hello(
            protocol_version=1, account_token=welcome.welcome.account_token, replays_only=True))
        assert again.welcome.resume_token != ""
        assert (await cy2.request(create_room=mpb.CreateRoom(name="c"))).HasField(
            "room_created")


async def test_a_private_room_is_unlisted_and_joined_only_with_its_code(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        host, _w = await _connect(app, "host")
        stranger, _w = await _connect(app, "eve")
        created = await _create(host, private=True)
        room_id, code = created.room.room_id, created.invite_code
        assert created.room.private and len(code) >= 20
        listing = await stranger.request(list_rooms=mpb.ListRooms())
        assert room_id not in [r.room_id for r in listing.room_list.rooms]
        for guess in ("", "wrong", code[:-1]):  # as a room that doesn't exist
            reply = await _join(stranger, room_id, code=guess)
            assert reply.error.code == mpb.ERROR_CODE_ROOM_NOT_FOUND, guess
            assert reply.error.message == f"no room {room_id!r} (a private room takes its " \
                "invite code)"
        assert (await _join(stranger, room_id, code=code)).joined.seat == 0


async def test_account_tokens_and_invite_codes_never_start_with_a_dash(
    tmp_path: Path, autojump_clock: trio.testing.MockClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """They are typed on command lines (``manawire watch URL ROOM --invite CODE``, ``--token
    T``), where argparse reads a value starting with "-" as an option: one in 64 did."""
    draws = itertools.count(1)

    def token_urlsafe(nbytes: int) -> str:  # every other secret drawn starts with "-"
        n = next(draws)
        return f"-draw{n:039d}" if n % 2 else f"draw{n:039d}"

    monkeypatch.setattr(secrets, "token_urlsafe", token_urlsafe)
    async with running_app(tmp_path) as app:
        _first, welcome = await _connect(app, "host")
        token = welcome.welcome.account_token
        assert token.startswith("draw")
        host, back = await _connect(app, token=token)  # (and the token works)
        assert back.welcome.account.account_id == welcome.welcome.account.account_id
        created = await _create(host, private=True)
        code = created.invite_code
        assert code.startswith("draw")
        assert (await _join(host, created.room.room_id, code=code)).joined.seat == 0


async def test_a_second_account_cannot_take_a_reserved_seat(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        bob, welcome = await _connect(app, "bob")
        bob_name = welcome.welcome.account.name
        host, _w = await _connect(app, "host")
        eve, _w = await _connect(app, "eve")
        mallory, _w = await _connect(app, "mallory")
        created = await _create(host, reserved=[bob_name])
        room_id = created.room.room_id
        assert list(created.room.reserved) == [bob_name]
        # The one open seat goes to the first comer; Bob's stays Bob's.
        assert (await _join(eve, room_id)).joined.seat == 1
        refused = await _join(mallory, room_id, code=created.invite_code)
        assert refused.error.code == mpb.ERROR_CODE_ROOM_FULL
        assert bob_name in refused.error.message
        assert (await _join(bob, room_id)).joined.seat == 0
        unknown = await host.request(create_room=mpb.CreateRoom(name="x", reserved=["ghost"]))
        assert unknown.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT


async def test_a_player_never_watches_their_own_game_and_a_spectator_cannot_act(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        _ann, token, room_id = await _ann_and_bob_play(app)
        # Ann's second device (the same account) asks to watch: it gets her seat, never
        # the spectator view.
        second, reply = await _connect(app, token=token)
        assert reply.resumed.joined.role == mpb.ROLE_PLAYER
        watch = await _join(second, room_id, spectator=True)
        assert watch.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT  # already in the room
        # A spectator can't act, concede or take a seat.
        carl, _w = await _connect(app, "carl")
        assert (await _join(carl, room_id, spectator=True)).joined.role == \
            mpb.ROLE_SPECTATOR
        game = app.lobby.rooms[room_id].game
        assert game is not None and game.pending is not None
        act = await carl.request(act=mpb.Act(prompt_id=game.pending.prompt_id))
        assert act.error.code == mpb.ERROR_CODE_NOT_YOUR_DECISION
        concede = await carl.request(concede=mpb.ConcedeGame())
        assert concede.error.code == mpb.ERROR_CODE_NOT_YOUR_DECISION
        assert game.action_count == 0


async def test_a_reserved_player_cannot_watch_and_spectating_follows_the_room_setting(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        bob, welcome = await _connect(app, "bob")
        host, _w = await _connect(app, "host")
        eve, _w = await _connect(app, "eve")
        reserved = await _create(host, reserved=[welcome.welcome.account.name])
        spy = await _join(bob, reserved.room.room_id, spectator=True)
        assert spy.error.code == mpb.ERROR_CODE_FORBIDDEN
        closed = await _create(host, spectate=mpb.SPECTATE_NONE)
        refused = await _join(eve, closed.room.room_id, spectator=True)
        assert refused.error.code == mpb.ERROR_CODE_FORBIDDEN
        invite = await _create(host, spectate=mpb.SPECTATE_INVITE)
        no_code = await _join(eve, invite.room.room_id, spectator=True)
        assert no_code.error.code == mpb.ERROR_CODE_FORBIDDEN
        ok = await _join(eve, invite.room.room_id, spectator=True, code=invite.invite_code)
        assert ok.joined.role == mpb.ROLE_SPECTATOR


async def test_rooms_per_account_count_the_account_not_the_connection(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path, Limits(max_rooms_per_account=2)) as app:
        first, welcome = await _connect(app, "ann")
        token = welcome.welcome.account_token
        await _create(first)
        await _create(first)
        again, _w = await _connect(app, token=token)
        reply = await again.request(create_room=mpb.CreateRoom(name="third"))
        assert reply.error.code == mpb.ERROR_CODE_LIMIT_REACHED


# ---- quick match
async def _queue(sock: MemorySocket, **fields: object) -> mpb.ServerMessage:
    return await sock.request(quick_match=mpb.QuickMatch(**fields))  # type: ignore[arg-type]


async def _next(sock: MemorySocket, body: str) -> mpb.ServerMessage:
    with trio.fail_after(30):
        while True:
            msg = mpb.ServerMessage.FromString(await sock.from_server.receive())
            if msg.HasField(body):
                return msg


async def test_quick_match_seats_players_of_the_same_format_and_table_size(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        ann, _w = await _connect(app, "ann")
        bob, _w = await _connect(app, "bob")
        lim, _w = await _connect(app, "lim")
        first = await _queue(ann, seats=2)
        assert first.match_queue.queued and first.match_queue.waiting == 1
        # Another format waits in its own queue.
        other = await _queue(lim, seats=2, format=mpb.DECK_FORMAT_LIMITED)
        assert other.match_queue.waiting == 1
        assert (await _queue(bob, seats=2)).match_queue.queued
        seats = sorted([(await _next(s, "joined")).joined.seat for s in (ann, bob)])
        assert seats == [0, 1]
        rooms = list(app.lobby.rooms.values())
        assert len(rooms) == 1 and rooms[0].game is not None
        assert app.match_desk.queues.waiting((DeckFormat.LIMITED, 2)) == 1
        # Queued twice, or queued while in a room, is refused.
        again = await _queue(lim, seats=2, format=mpb.DECK_FORMAT_LIMITED)
        assert again.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT
        busy = await _queue(ann, seats=2)
        assert busy.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT


async def test_cancel_or_a_dropped_connection_leaves_the_queue_and_bad_decks_never_enter(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        ann, _w = await _connect(app, "ann")
        bob, _w = await _connect(app, "bob")
        carl, _w = await _connect(app, "carl")
        key = (DeckFormat.CONSTRUCTED, 2)
        await _queue(ann, seats=2)
        cancelled = await ann.request(cancel_quick_match=mpb.CancelQuickMatch())
        assert not cancelled.match_queue.queued and app.match_desk.queues.waiting(key) == 0
        not_queued = await ann.request(cancel_quick_match=mpb.CancelQuickMatch())
        assert not_queued.error.code == mpb.ERROR_CODE_NOT_READY
        await _queue(bob, seats=2)
        await bob.to_server.aclose()  # Bob's connection drops
        await trio.testing.wait_all_tasks_blocked()
        assert app.match_desk.queues.waiting(key) == 0
        bad = await _queue(carl, seats=2, deck="4 Shock\n")
        assert bad.error.code == mpb.ERROR_CODE_INVALID_DECK
        assert any("at least 60 cards in its main deck" in d for d in bad.error.details)
        assert app.match_desk.queues.waiting(key) == 0 and not app.lobby.rooms


# ---- abuse limits
async def test_a_flood_of_1000_messages_is_rate_limited_then_closed_while_a_game_goes_on(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    limits = Limits(messages_per_second=20, message_burst=60, rate_strikes=200)
    async with running_app(tmp_path, limits) as app:
        ann, _w = await _connect(app, "ann")
        bob, _w = await _connect(app, "bob")
        room = (await _create(ann)).room
        await _join(ann, room.room_id)
        await _join(bob, room.room_id)
        game = app.lobby.rooms[room.room_id].game
        assert game is not None
        # 1,000 messages at once: all arrive before the server reads the first.
        flood = MemorySocket(out_buffer=2000, in_buffer=1001)
        hello = mpb.ClientMessage(hello=mpb.Hello(protocol_version=1, display_name="flood"))
        flood.to_server.send_nowait(hello.SerializeToString())
        ping = mpb.ClientMessage(list_rooms=mpb.ListRooms()).SerializeToString()
        for _ in range(1000):
            flood.to_server.send_nowait(ping)
        app.lobby.nursery.start_soon(app.handle_connection, flood)
        # The game in the other room is played on.
        before = game.action_count
        seat_of = {_conn_of(app, "ann"): ann, _conn_of(app, "bob"): bob}
        host = app.lobby.rooms[room.room_id]
        for _ in range(40):
            await trio.testing.wait_all_tasks_blocked()
            pending = game.pending
            if pending is None or game.result is not None:
                break
            sock = next(s for c, s in seat_of.items()
                        if host.member_of(c) is host.seats[pending.seat])
            await sock.to_server.send(mpb.ClientMessage(act=mpb.Act(
                prompt_id=pending.prompt_id)).SerializeToString())
        await trio.testing.wait_all_tasks_blocked()
        assert game.action_count - before >= 20 or game.result is not None
        bodies = []
        while True:
            try:
                msg = mpb.ServerMessage.FromString(flood.from_server.receive_nowait())
            except (trio.WouldBlock, trio.EndOfChannel):
                break
            bodies.append(msg.error.code if msg.HasField("error") else msg.WhichOneof("body"))
        # The burst (the Hello took one token) is served, then refusals, then the close.
        burst = limits.message_burst
        assert bodies[:burst] == ["welcome"] + ["room_list"] * (burst - 1)
        # (Replies still queued when the connection closes may be cut off with it.)
        refused = bodies[burst:]
        assert 0 < len(refused) <= limits.rate_strikes - 1
        assert set(refused) == {mpb.ERROR_CODE_RATE_LIMITED}
        assert flood.closed is not None and flood.closed[0] == 1008


def _conn_of(app: App, prefix: str) -> int:
    for conn_id, conn in app.conns.items():
        if conn.record is not None and conn.record.name.startswith(prefix + "#"):
            return conn_id
    return -1


async def test_password_guessing_is_throttled_per_name_and_forgiven_after_the_window(
    tmp_path: Path,
) -> None:
    # On the real clock: an autojump clock jumps far ahead while a password is verified on
    # a worker thread (all tasks look blocked).
    limits = Limits(login_failures=3, login_window=3.0)
    async with running_app(tmp_path, limits) as app:
        sock, _w = await _connect(app, "ann")
        await sock.request(register=mpb.Register(name="Ann", password="correct horse"))
        for _ in range(3):
            _s, wrong = await _connect(app, login=("Ann", "wrong horse"))
            assert wrong.error.message == "unknown name or wrong password"
        # Now even the right password is refused unchecked, for this name only.
        _s, locked = await _connect(app, login=("ann", "correct horse"))
        assert locked.error.code == mpb.ERROR_CODE_UNAUTHENTICATED
        assert "too many failed sign-ins" in locked.error.message
        bob, _w = await _connect(app, "bob")
        await bob.request(register=mpb.Register(name="Bob", password="battery staple"))
        _s, other = await _connect(app, login=("Bob", "battery staple"))
        assert not other.HasField("error")
        await trio.sleep(3.1)
        _s, later = await _connect(app, login=("Ann", "correct horse"))
        assert not later.HasField("error")


async def test_password_checks_are_rate_limited_per_address_and_taken_in_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A flood of sign-ins with made-up names (each a full password check, so nobody learns
    which names exist) from one address made every other sign-in wait 6-11 s. One address
    gets a burst of checks, then so many a minute, and runs one check at a time, so another
    address's sign-in never waits behind its queue. (Real clock: the checks run on worker
    threads; each takes 0.1 s here, asleep, as a real one takes its time.)"""
    cheap_passwords(monkeypatch, seconds=0.1)
    limits = Limits(password_check_burst=8, password_checks_per_minute=1)
    async with running_app(tmp_path, limits) as app:
        ann = MemorySocket(address="198.51.100.1")
        app.lobby.nursery.start_soon(app.handle_connection, ann)
        await ann.request(**_hello("ann"))
        assert (await ann.request(register=mpb.Register(name="Ann", password="correct horse"))
                ).HasField("welcome")
        answered: list[str] = []

        async def sign_in(address: str, name: str, password: str) -> None:
            sock = MemorySocket(address=address)
            app.lobby.nursery.start_soon(app.handle_connection, sock)
            reply = await sock.request(**_hello(login=(name, password)))
            answered.append(f"{address}:{reply.WhichOneof('body')}")

        async with trio.open_nursery() as nursery:
            for n in range(8):  # the flooding address's whole burst at once
                nursery.start_soon(sign_in, "203.0.113.66", f"nobody{n}", "guess")
            await trio.sleep(0.05)
            nursery.start_soon(sign_in, "198.51.100.1", "Ann", "correct horse")
        assert answered.count("203.0.113.66:error") == 8
        # Ann's check ran beside the flood's, one of theirs at a time: not after all 8.
        assert answered.index("198.51.100.1:welcome") < 4, answered
        flood = MemorySocket(address="203.0.113.66")
        app.lobby.nursery.start_soon(app.handle_connection, flood)
        refused = await flood.request(**_hello(login=("nobody9", "guess")))
        assert refused.error.code == mpb.ERROR_CODE_RATE_LIMITED
        assert "sign-ins and registrations from your address" in refused.error.message
        guest = await flood.request(**_hello("guest"))  # no password: not limited by it
        assert guest.HasField("welcome")
        refused = await flood.request(register=mpb.Register(name="Flo", password="x" * 12))
        assert refused.error.code == mpb.ERROR_CODE_RATE_LIMITED
        assert not app.session_desk._hashing_by_address  # no lock kept once idle


async def test_tokens_passwords_and_invite_codes_never_reach_the_log(
    tmp_path: Path, autojump_clock: trio.testing.MockClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    async with running_app(tmp_path) as app:
        ann, welcome = await _connect(app, "ann")
        token = welcome.welcome.account_token
        await ann.request(register=mpb.Register(name="Ann", password="correct horse"))
        _s, login = await _connect(app, login=("Ann", "correct horse"))
        new_token = (login.resumed.welcome if login.HasField("resumed")
                     else login.welcome).account_token
        host, _w = await _connect(app, "host")
        created = await _create(host, private=True)
        await _join(host, created.room.room_id, code=created.invite_code)
        await _connect(app, token=token + "x")  # a refused token
        secrets = [token, new_token, "correct horse", created.invite_code]
        logged = caplog.text + "".join(repr(r.args) for r in caplog.records)
        assert all(s and s not in logged for s in secrets)


async def test_a_quick_match_room_a_player_dropped_out_of_is_filled_by_the_next_in_queue(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        bob, _w = await _connect(app, "bob")
        carl, _w = await _connect(app, "carl")
        key = (DeckFormat.CONSTRUCTED, 2)
        # The state a drop while being seated leaves: a quick-match room, unstarted, one
        # player seated, a seat free (made here directly; the race is not repeatable).
        host = app.lobby.create("quick match (constructed)", 2)
        app.match_desk._rooms[key] = {host.room_id}
        assert (await _join(bob, host.room_id)).joined.seat == 0
        queued = await _queue(carl, seats=2)
        assert queued.match_queue.queued
        assert (await _next(carl, "joined")).joined.seat == 1
        assert host.room.game is not None  # the game started: nobody is left waiting
        assert app.match_desk.queues.waiting(key) == 0


async def test_free_guest_accounts_cant_fill_the_room_cap_from_one_address(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """Guests cost nothing, so rooms per account alone would let one client hold the
    server's whole room cap: rooms waiting for players are also counted per address."""
    async with running_app(tmp_path, Limits(max_waiting_rooms_per_address=5)) as app:
        made = refused = 0
        for i in range(4):  # four guests, four rooms each allowed per account
            sock, _w = await _connect(app, f"spam{i}")
            for _ in range(4):
                reply = await sock.request(create_room=mpb.CreateRoom(name="spam"))
                made += reply.HasField("room_created")
                refused += reply.error.code == mpb.ERROR_CODE_LIMIT_REACHED
        assert (made, refused) == (5, 11)
        other = MemorySocket(address="198.51.100.7")
        app.lobby.nursery.start_soon(app.handle_connection, other)
        await other.request(**_hello("fair"))
        assert (await _create(other)).room.room_id  # another address isn't affected
        # A room whose game started no longer counts.
        first = next(iter(app.lobby.rooms))
        a, _w = await _connect(app, "a")
        b, _w = await _connect(app, "b")
        await _join(a, first)
        await _join(b, first)
        again, _w = await _connect(app, "again")
        assert (await _create(again)).room.room_id


async def test_abandoned_started_games_cant_fill_the_room_cap_from_one_address(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """A started game whose players all left stays open until the deciding player's clock
    runs out (up to a day a game): one address filled a server's whole room cap that way,
    two fresh guests a room. Open rooms, started or not, are counted per address too.

    The clocks here are ten minutes: how long they are changes nothing counted, and the
    longest (a day) made the test sleep through some 43,000 of the store's health probes."""
    limits = Limits(max_rooms_per_address=3, max_waiting_rooms_per_address=16)
    clock = 600
    async with running_app(tmp_path, limits) as app:
        for n in range(3):  # each game started, then both players gone
            a, _w = await _connect(app, f"a{n}")
            b, _w = await _connect(app, f"b{n}")
            room_id = (await _create(a, clock_seconds=clock)).room.room_id
            await _join(a, room_id)
            await _join(b, room_id)
            for sock in (a, b):
                await sock.to_server.aclose()
        await trio.sleep(1)
        assert len(app.lobby.rooms) == 3 and all(r.game for r in app.lobby.rooms.values())
        c, _w = await _connect(app, "c")
        refused = await c.request(create_room=mpb.CreateRoom(name="one more"))
        assert refused.error.code == mpb.ERROR_CODE_LIMIT_REACHED
        assert "3 open rooms, started or not" in refused.error.message
        other = MemorySocket(address="198.51.100.8")
        app.lobby.nursery.start_soon(app.handle_connection, other)
        await other.request(**_hello("fair"))
        assert (await _create(other)).room.room_id  # another address isn't affected
        # A room that closes counts no more: its deciding player's clock runs out.
        await trio.sleep(clock + app.limits.room.linger_seconds + 60)
        assert (await _create(c)).room.room_id


async def test_a_finished_game_lingering_counts_for_no_room_limit(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """A room whose game is over lingers (--linger-seconds) for its last views: counted,
    it refused the next game of a player (or of everyone behind one address, a reverse
    proxy's) who had just finished theirs -- 'manawire bots --games 50' twice failed from
    game 12 on. It counts neither for its creator's account nor for the address."""
    limits = Limits(max_rooms_per_account=2, max_rooms_per_address=2,
                    max_waiting_rooms_per_address=16)
    async with running_app(tmp_path, limits) as app:
        ann, _w = await _connect(app, "ann")
        bob, _w = await _connect(app, "bob")
        for n in range(3):
            room_id = (await _create(ann)).room.room_id
            await _join(ann, room_id)
            await _join(bob, room_id)
            await bob.to_server.send(mpb.ClientMessage(
                concede=mpb.ConcedeGame()).SerializeToString())  # rule 104.3a
            await trio.sleep(1)
            room = app.lobby.rooms[room_id]
            assert room.finished and not room.closed, n  # lingering
            for sock in (ann, bob):
                await sock.to_server.send(mpb.ClientMessage(
                    leave_room=mpb.LeaveRoom()).SerializeToString())
            await trio.sleep(1)
        assert len(app.lobby.rooms) == 3  # all three still there, lingering
        # Two unfinished rooms are still the most one account may hold.
        await _create(ann)
        await _create(ann)
        refused = await ann.request(create_room=mpb.CreateRoom(name="one more"))
        assert refused.error.code == mpb.ERROR_CODE_LIMIT_REACHED

async def test_new_guests_per_address_are_rate_limited_and_tokens_still_work(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """Every credential-less Hello stores an account: one address gets a burst of new
    guests, then so many a minute; a client with its token is never refused."""
    async with running_app(tmp_path, Limits(guest_burst=3, guests_per_minute=6)) as app:
        welcomes = [(await _connect(app, f"g{i}"))[1] for i in range(3)]
        assert all(w.HasField("welcome") for w in welcomes)
        _s, refused = await _connect(app, "g3")
        assert refused.error.code == mpb.ERROR_CODE_RATE_LIMITED
        assert "account token" in refused.error.message
        _s, back = await _connect(app, token=welcomes[0].welcome.account_token)
        assert back.HasField("welcome")
        other = MemorySocket(address="203.0.113.9")
        app.lobby.nursery.start_soon(app.handle_connection, other)
        assert (await other.request(**_hello("elsewhere"))).HasField("welcome")
        await trio.sleep(10)  # one more a minute / 6 = every 10 s
        assert (await _connect(app, "g4"))[1].HasField("welcome")


@pytest.mark.parametrize(("name", "mixed"), [
    ("Ann", []), ("Анна", []), ("María", []), ("\uff21\uff4e\uff4e", []),  # full width
    ("山田たろう", []), ("Taro 山田", []), ("Kim 김", []), ("Ann ابن", []), ("佐々木", []),
    ("Sasaki 佐々木", []), ("Hayk Հայկ", []), ("Ωμέγα", []),
    ("\u0410nn", ["CYRILLIC", "LATIN"]), ("\u0391lpha", ["GREEK", "LATIN"]),
    ("Ωмега", ["CYRILLIC", "GREEK"]), ("Ann ابن Ω", ["GREEK", "LATIN"]),
])
def test_a_registered_name_mixes_no_lookalike_scripts(name: str, mixed: list[str]) -> None:
    from server.accounts import mixed_scripts

    assert mixed_scripts(name) == mixed


def test_a_name_all_in_another_script_that_looks_like_a_registered_one_is_taken() -> None:
    """ "PAX 210" in Latin, in Cyrillic and in Greek capitals registered as three
    accounts that read the same: a name mixing scripts was refused, a whole-script
    lookalike wasn't (Unicode TR 39's whole-script confusables). Names registered before,
    reloaded from the store, count too."""
    from server.accounts import AccountError, Accounts, look_key
    from server.store.records import AccountRow

    assert look_key("PAX 210") == look_key("\u0420\u0410\u0425 210") == \
        look_key("\u03a1\u0391\u03a7 210")
    assert look_key("Анна") != look_key("Ann") and look_key("Ωμέγα") != look_key("Omega")
    accounts = Accounts()
    accounts.load([AccountRow("a1", "PAX 210", True, "hash")], [])
    guest, _token, _ops = accounts.create_guest("eve")
    for lookalike in ("\u0420\u0410\u0425 210", "\u03a1\u0391\u03a7 210"):
        with pytest.raises(AccountError, match="looks like the registered name 'PAX 210'"):
            accounts.check_register(guest, lookalike)
    with pytest.raises(AccountError, match="is taken"):
        accounts.check_register(guest, "pax 210")
    accounts.register(guest, "Мама", "hash")  # no registered name reads like it
    other, _token, _ops = accounts.create_guest("mallory")
    with pytest.raises(AccountError, match="looks like the registered name 'Мама'"):
        accounts.check_register(other, "MAMA")  # Latin capitals: read alike


async def test_a_no_takeover_hello_that_waited_behind_a_resume_is_refused(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """A Hello asking not to take the session over (``manawire watch --token``, ``bots
    --join``) checked for a connection holding it before waiting its turn: behind a
    resume of that session on another connection it then took the session over and
    closed the resumed connection (4001), which the SDK never reconnects from. It is
    refused (ACCOUNT_IN_USE) once it is its turn and the session is connected again."""
    async with running_app(tmp_path) as app:
        first, welcome = await _connect(app, "ann")
        account_token = welcome.welcome.account_token
        resume_token = welcome.welcome.resume_token
        bob, _w = await _connect(app, "bob")
        room = (await _create(first)).room
        await _join(first, room.room_id)
        await _join(bob, room.room_id)  # the game starts: Ann's seat outlasts a drop
        await first.to_server.aclose()  # Ann's connection drops
        await trio.sleep(1)
        gate = trio.Event()
        write = app.session_desk.writer.write

        async def slow(ops: Sequence[StoreOp]) -> None:
            await gate.wait()  # the resume's write takes a while
            await write(ops)

        app.session_desk.writer.write = slow  # type: ignore[method-assign]
        resuming = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, resuming)
        await resuming.to_server.send(mpb.ClientMessage(request_id=1, resume=mpb.Resume(
            protocol_version=1, resume_token=resume_token)).SerializeToString())
        await trio.sleep(1)  # it holds the session's turn, waiting for its write
        watcher = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, watcher)
        await watcher.to_server.send(mpb.ClientMessage(request_id=1, hello=mpb.Hello(
            protocol_version=1, account_token=account_token,
            no_takeover=True)).SerializeToString())
        await trio.sleep(1)
        gate.set()
        resumed = mpb.ServerMessage.FromString(await resuming.from_server.receive())
        refused = mpb.ServerMessage.FromString(await watcher.from_server.receive())
        assert resumed.resumed.joined.seat == 0
        assert refused.error.code == mpb.ERROR_CODE_ACCOUNT_IN_USE
        await trio.sleep(1)
        assert resuming.closed is None


async def test_a_quick_match_table_is_seated_whole_though_its_last_player_leaves_meanwhile(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """The table was seated from the task of the connection that completed it: that
    connection closing mid-seating stopped it, and the players after, already out of the
    queue, were never seated nor answered -- stuck "queued" until they reconnected."""
    async with running_app(tmp_path) as app:
        ann, _w = await _connect(app, "ann")
        bob, _w = await _connect(app, "bob")
        cy, _w = await _connect(app, "cy")
        for sock in (ann, bob):
            assert (await _queue(sock, seats=3)).match_queue.queued
        gate = trio.Event()
        write = app.match_desk.writer.write

        async def slow(ops: Sequence[StoreOp]) -> None:
            await gate.wait()  # each seat's row takes a while to write
            await write(ops)

        app.match_desk.writer.write = slow  # type: ignore[method-assign]
        await cy.to_server.send(mpb.ClientMessage(request_id=1, quick_match=mpb.QuickMatch(
            seats=3)).SerializeToString())
        await trio.sleep(1)  # seating: ann's row is being written
        # Meanwhile cy's connection is closed (as when another connection takes its
        # session over).
        [cys] = [c for c in app.conns.values() if c.record is not None
                 and c.record.name.startswith("cy#")]
        cys.close(1000, "replaced")
        await trio.sleep(1)
        gate.set()
        for sock in (ann, bob):
            assert (await _next(sock, "joined")).joined.room.seats == 3
