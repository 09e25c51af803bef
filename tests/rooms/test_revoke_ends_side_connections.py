"""RevokeTokens ends every connection that authenticated with a revoked token (a security
tester's round 7, H2): a replays-only side connection opened with a stolen token
(Hello{account_token, replays_only}) outlived the victim's RevokeTokens -- it isn't the
account's session, so nothing closed it -- and went on replaying, every card shown, the
games the victim played after revoking."""

from __future__ import annotations

from pathlib import Path

import trio
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.app import App
from server.sessions import CLOSE_REVOKED
from tests.rooms.test_app_memory import MemorySocket, running_app
from tests.rooms.test_replay_app import _replay, store_game


async def _connect(app: App, **hello: object) -> tuple[MemorySocket, mpb.ServerMessage]:
    sock = MemorySocket()
    app.lobby.nursery.start_soon(app.handle_connection, sock)
    reply = await sock.request(hello=mpb.Hello(protocol_version=1, **hello))  # type: ignore[arg-type]
    return sock, reply


async def test_revoking_closes_the_accounts_replays_only_connections(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path) as app:
        victim, welcome = await _connect(app, display_name="Vic")
        stolen = welcome.welcome.account_token
        account = welcome.welcome.account.account_id
        store_game(app.store, "g", (account, "other"))
        thief, hello = await _connect(app, account_token=stolen, replays_only=True)
        idle_thief, _ = await _connect(app, account_token=stolen, replays_only=True)
        assert hello.HasField("welcome")
        # One of them is replaying (every card: the account played the game).
        status = await thief.request(**_replay(room_id="g", omniscient=True, speed=1.0))
        assert status.HasField("replay_status"), status
        stranger, _ = await _connect(app, display_name="Sam")
        stranger_side, _ = await _connect(
            app, account_token=(await _connect(app, display_name="Tom"))[1].welcome.account_token,
            replays_only=True)

        revoked = await victim.request(revoke_tokens=mpb.RevokeTokens())
        assert revoked.welcome.account_token and revoked.welcome.account_token != stolen
        await trio.testing.wait_all_tasks_blocked()
        for sock in (thief, idle_thief):
            assert sock.closed is not None and sock.closed[0] == CLOSE_REVOKED, sock.closed
            assert "revoked" in sock.closed[1]
        # The revoking connection, and other accounts' connections, go on.
        for sock in (victim, stranger, stranger_side):
            assert sock.closed is None
        assert (await victim.request(list_rooms=mpb.ListRooms())).HasField("room_list")
        assert not app.session_desk._sides.get(account)
        # The stolen token opens nothing any more.
        _sock, again = await _connect(app, account_token=stolen, replays_only=True)
        assert again.error.code == mpb.ERROR_CODE_UNAUTHENTICATED
        # A side connection opened with the new token is the account's again.
        _sock, fresh = await _connect(app, account_token=revoked.welcome.account_token,
                                      replays_only=True)
        assert fresh.HasField("welcome")


async def test_a_side_connection_that_ends_by_itself_is_forgotten(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    async with running_app(tmp_path) as app:
        _victim, welcome = await _connect(app, display_name="Vic")
        account = welcome.welcome.account.account_id
        side, _ = await _connect(app, account_token=welcome.welcome.account_token,
                                 replays_only=True)
        assert len(app.session_desk._sides[account]) == 1
        await side.to_server.aclose()  # the client goes away
        await trio.testing.wait_all_tasks_blocked()
        assert account not in app.session_desk._sides


async def test_a_hello_waiting_for_the_session_while_it_revokes_is_refused(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """A Hello with the old token that found the session just before the revoke waited for
    its lock (RevokeTokens holds it while it writes): it takes nothing over afterwards."""
    async with running_app(tmp_path) as app:
        victim, welcome = await _connect(app, display_name="Vic")
        stolen = welcome.welcome.account_token
        desk = app.session_desk
        record = desk._by_account[welcome.welcome.account.account_id]
        thief = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, thief)
        async with record.lock:  # (as RevokeTokens does while the store writes)
            await thief.to_server.send(mpb.ClientMessage(request_id=1, hello=mpb.Hello(
                protocol_version=1, account_token=stolen)).SerializeToString())
            await trio.testing.wait_all_tasks_blocked()
            desk.accounts.revoke(record.account)  # the tokens are void from here
        reply = mpb.ServerMessage.FromString(await thief.from_server.receive())
        assert reply.error.code == mpb.ERROR_CODE_UNAUTHENTICATED, reply
        assert record.conn is not None and victim.closed is None  # still the victim's
