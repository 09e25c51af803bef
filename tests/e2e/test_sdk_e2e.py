"""The Python SDK over real loopback WebSockets, as a bot author uses it: a replay after
leaving the room (``leave_room(wait=True)``, then :meth:`Client.replay`), a receive
cancelled by the caller's timeout while the client was resuming, a message too large for
the protocol, a session taken over by another connection, and a keepalive timeout's log."""

from __future__ import annotations

import functools
import logging
from pathlib import Path

import pytest
import trio
from websockets.http11 import Request
from websockets.server import ServerProtocol
from websockets.trio.client import connect

from client_sdk import Client
from client_sdk import client as client_module
from client_sdk.client import (
    CLOSE_REPLACED,
    ConnectionEndedError,
    ConnectionLostError,
    ServerError,
)
from protocol.v1 import messages_pb2 as mpb
from server.cards import card_pool
from tests.e2e.test_spectator_resume_e2e import serving


async def test_a_replay_after_leaving_the_room_and_waiting_fills_the_mirror(
        tmp_path: Path) -> None:
    """``leave_room(wait=True)`` ignores what the left room still sends until the client is
    placed in another room. A replay of that very game places it in none: its Snapshot and
    889 Deltas were all dropped and the mirror stayed empty. Its ``ReplayStatus`` now ends
    the ignoring (the left room's messages in flight came before it)."""
    with trio.fail_after(60):
        async with serving(tmp_path / "db.sqlite3") as (_app, port), \
                trio.open_nursery() as nursery:
            url = f"ws://127.0.0.1:{port}"
            async with Client.connect(url, "Ann") as ann, Client.connect(url, "Bob") as bob:
                room = await ann.create_room("replayed")
                await ann.join(room.room_id)
                await bob.join(room.room_id)
                while bob.mirror.state_id == 0:
                    await bob.next_message()
                await bob.concede()  # rule 104.3a: the game is over
                while not ann.mirror.game_over:
                    await ann.next_message()
                await ann.leave_room(wait=True)
                assert ann.mirror.state_id == 0
                status = await ann.replay(room.room_id, seat=0)
                assert status.actions > 0
                for _ in range(100_000):
                    if (await ann.next_message()).HasField("replay_ended"):
                        break
                assert ann.mirror.game_over and ann.mirror.viewer == 0
                assert ann.mirror.state_id > 1
                nursery.cancel_scope.cancel()


async def _server(path: Path, port: int, stop: trio.Event,
                  task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
    """Serve the store at ``path`` on ``port`` (0: a free one) until ``stop``; then stop
    as a restart does (1012 to every client)."""
    async with serving(path, port) as (_app, bound):
        task_status.started(bound)
        await stop.wait()


async def test_a_receive_cancelled_while_the_client_resumes_resumes_on_the_next_call(
        tmp_path: Path) -> None:
    """A bot read with a timeout (``move_on_after`` around :meth:`Client.next_message`)
    while the server restarted: the timeout cancelled the resume's backoff, and every later
    call raised "not connected" for good. The next receive or send now takes the resume up
    again."""
    path = tmp_path / "db.sqlite3"
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            stopped = trio.Event()
            port = await nursery.start(_server, path, 0, stopped)
            async with Client.connect(f"ws://127.0.0.1:{port}", "Ann") as ann:
                room = await ann.create_room("waiting")
                await ann.join(room.room_id)
                stopped.set()
                # Read with a timeout until the client has seen the server go (under load
                # its stop can take longer than one timeout): once down, the timeout cancels
                # the resume's backoff -- the case this test is about.
                for _ in range(40):
                    with trio.move_on_after(0.5):
                        for _ in range(1000):
                            await ann.next_message()
                    if not ann.connected:
                        break
                assert not ann.connected
                again = trio.Event()
                await nursery.start(_server, path, port, again)
                rooms = await ann.list_rooms()  # resumed first
                assert ann.connected and ann.session_id
                assert room.room_id not in {r.room_id for r in rooms}  # (not started: gone)
                again.set()


async def test_a_message_over_the_protocols_limit_is_refused_before_it_is_sent(
        tmp_path: Path) -> None:
    """An 80 KB deck list: the server closes the connection on a message over 64 KiB
    (1009), and the client said only "the connection dropped before the reply". It is
    refused now, unsent, and the connection stays."""
    with trio.fail_after(30):
        async with serving(tmp_path / "db.sqlite3") as (_app, port), \
                Client.connect(f"ws://127.0.0.1:{port}", "Ann") as ann:
            room = await ann.create_room("big")
            huge = "".join(f"1 Mountain // copy {n:06d}\n" for n in range(3000))
            with pytest.raises(ValueError, match="over the protocol's 64 KiB limit"):
                await ann.join(room.room_id, deck=huge)
            assert room.room_id in {r.room_id for r in await ann.list_rooms()}
            assert ann.connected and ann.resumes == 0


async def test_a_session_taken_over_elsewhere_ends_the_client_with_the_sdks_own_error(
        tmp_path: Path) -> None:
    """The account's token used by another connection takes the session over; the server
    closes the first with 4001. Its bot got websockets' ``ConnectionClosedError`` out of
    ``next_message``, which none of the SDK's errors catch: it is now a
    :class:`ConnectionEndedError` (a :class:`ConnectionLostError`) saying why."""
    with trio.fail_after(30):
        async with serving(tmp_path / "db.sqlite3") as (_app, port):
            url = f"ws://127.0.0.1:{port}"
            async with Client.connect(url, "Ann") as ann:
                room = await ann.create_room("mine")
                await ann.join(room.room_id)
                async with Client.connect(url, token=ann.account_token) as again:
                    assert again.room_id == room.room_id  # the place came along
                    with pytest.raises(ConnectionEndedError) as ended:
                        for _ in range(1000):
                            await ann.next_message()
                    assert isinstance(ended.value, ConnectionLostError)
                    assert ended.value.code == CLOSE_REPLACED
                    assert "another connection resumed this session (4001" in str(ended.value)
                    with pytest.raises(ConnectionLostError):
                        await ann.list_rooms()  # (not resumed: the session is elsewhere)


async def test_a_refused_answer_leaves_the_decision_current_and_a_bad_index_is_not_sent(
        tmp_path: Path) -> None:
    """A bot whose answer the server refused (an Act carries no request id: the error comes
    with id 0) had its decision cleared by ``act`` and none came again: it waited until its
    clock ran out and lost. The decision is current again after the refusal; an option
    the decision doesn't have isn't sent at all."""
    with trio.fail_after(60):
        async with serving(tmp_path / "db.sqlite3") as (_app, port), \
                Client.connect(f"ws://127.0.0.1:{port}", "Ann") as ann, \
                Client.connect(f"ws://127.0.0.1:{port}", "Bob") as bob:
            room = await ann.create_room("refused")
            await ann.join(room.room_id)
            await bob.join(room.room_id)
            async with trio.open_nursery() as nursery:
                async def read(client: Client) -> None:
                    while client.my_decision is None:
                        await client.next_message()
                    nursery.cancel_scope.cancel()  # the first decision, whoever's it is
                nursery.start_soon(read, ann)
                nursery.start_soon(read, bob)
            me = ann if ann.my_decision is not None else bob
            decision = me.my_decision
            assert decision is not None
            with pytest.raises(IndexError):
                await me.act(len(decision.options))
            # What act() does, with an answer the server refuses: made from another state.
            me.decision, me._answered = None, decision
            await me._send(mpb.ClientMessage(act=mpb.Act(
                prompt_id=decision.prompt_id, option_index=0,
                expected_state_id=me.mirror.state_id + 1000)))
            for _ in range(1000):
                if me.errors:
                    break
                await me.next_message()
            assert me.errors[-1].code == mpb.ERROR_CODE_STALE_PROMPT
            assert me.my_decision is not None
            assert me.my_decision.prompt_id == decision.prompt_id
            await me.act(0)  # answered now
            for _ in range(1000):
                if me.mirror.header.pending.prompt_id != decision.prompt_id:
                    break
                await me.next_message()
            assert me.mirror.header.pending.prompt_id != decision.prompt_id


async def test_a_waiting_rooms_client_sees_each_seat_taken_and_freed(tmp_path: Path) -> None:
    """``Client.room`` was the room as it was at the join: a host waiting for players
    couldn't tell who had joined. RoomUpdate keeps it current until the game starts."""
    with trio.fail_after(60):
        async with serving(tmp_path / "db.sqlite3") as (_app, port):
            url = f"ws://127.0.0.1:{port}"
            async with Client.connect(url, "Ann") as ann, Client.connect(url, "Bob") as bob:
                room = await ann.create_room("three", seats=3)
                await ann.join(room.room_id)
                await bob.join(room.room_id)

                async def seated() -> list[str]:
                    while not (await ann.next_message()).HasField("room_update"):
                        pass
                    assert ann.room is not None
                    return [name.split("#")[0] for name in ann.room.players]

                assert await seated() == ["Ann", "Bob"]
                await bob.leave_room()
                assert await seated() == ["Ann"]


async def _deaf_server(task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
    """A WebSocket server on a free loopback port that accepts the handshake and then never
    reads again: no pong ever answers the client's keepalive pings."""

    async def deaf(stream: trio.SocketStream) -> None:
        protocol = ServerProtocol()
        for _ in range(100):  # the request may arrive in pieces
            protocol.receive_data(await stream.receive_some())
            if requests := protocol.events_received():
                break
        else:
            return
        request = requests[0]
        assert isinstance(request, Request)
        protocol.send_response(protocol.accept(request))
        for chunk in protocol.data_to_send():
            await stream.send_all(chunk)
        await trio.sleep_forever()

    listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
    task_status.started(listeners[0].socket.getsockname()[1])
    await trio.serve_listeners(deaf, listeners)


async def test_a_keepalive_timeout_is_one_info_line_not_an_error_with_a_traceback(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A keepalive ping left unanswered (a server or network gone quiet; the client's own
    program not reading) closes the connection, which the client resumes like any drop;
    websockets logged it as an ERROR with a traceback, printed over a bot author's output.
    It is one INFO line now."""
    monkeypatch.setattr(client_module, "connect",
                        functools.partial(connect, ping_interval=0.2, ping_timeout=0.2,
                                          close_timeout=0.2))
    caplog.set_level(logging.DEBUG, logger="manawire.client.websocket")
    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            port = await nursery.start(_deaf_server)
            with pytest.raises(ConnectionLostError):
                async with Client.connect(f"ws://127.0.0.1:{port}", "Ann", reconnect=False):
                    pass  # (the Hello is never answered)
            nursery.cancel_scope.cancel()
    records = [r for r in caplog.records if r.name == "manawire.client.websocket"]
    assert [(r.levelname, r.getMessage()) for r in records if r.levelno >= logging.INFO] \
        == [("INFO", "keepalive ping failed: sent 1011 (internal error) keepalive ping "
                     "timeout; no close frame received")]
    assert all(r.levelno < logging.WARNING and r.exc_info is None for r in records)


async def test_create_and_join_refuses_a_bad_deck_without_a_room_and_seats_the_creator(
        tmp_path: Path) -> None:
    """``Client.create_and_join`` (``CreateRoom.join``): a deck that can't be played is
    refused before any room is made (a create followed by a refused join left an empty
    room counted against the creator); a good one gives the room and the creator's seat,
    and the other player joins a private room with the code the creator was given."""
    card_pool()  # loaded before serving, as `manawire serve` does (the checks are timed)
    with trio.fail_after(60):
        async with serving(tmp_path / "db.sqlite3") as (app, port), \
                Client.connect(f"ws://127.0.0.1:{port}", "Ann") as ann, \
                Client.connect(f"ws://127.0.0.1:{port}", "Bob") as bob:
            with pytest.raises(ServerError) as refused:
                await ann.create_and_join("mine", deck="30 Mountain")
            assert refused.value.code == mpb.ERROR_CODE_INVALID_DECK
            assert "60" in refused.value.details[0]
            assert not app.lobby.rooms and ann.room_id is None
            mirror = ann.mirror  # what a board draws (`manawire play`'s holds it)
            room, joined = await ann.create_and_join("mine", deck="4 Shock\n56 Mountain",
                                                     private=True)
            assert joined.seat == 0 and ann.room_id == room.room_id
            await bob.join(room.room_id, invite_code=ann.invite_codes[room.room_id])
            for _ in range(500):  # the game starts once both seats are taken
                if app.lobby.rooms[room.room_id].game is not None:
                    break
                await trio.sleep(0.01)
            assert app.lobby.rooms[room.room_id].game is not None
            for _ in range(100):  # the game's snapshot fills the mirror the board holds
                if mirror.ready:
                    break
                await ann.next_message()
            assert ann.mirror is mirror and mirror.ready


async def test_a_client_joining_its_next_room_forgets_the_last_games_end(
        tmp_path: Path) -> None:
    """A bot author's loop (``while not client.finished``) ended at once in a second room
    on the same connection: ``join`` kept the last game's mirror, whose ``game_over`` stood
    until the new game's Snapshot came, once every seat was taken (found by a bot author).
    Placed in another room, the client now starts afresh: mirror, decision, clocks."""
    with trio.fail_after(60):
        async with serving(tmp_path / "db.sqlite3") as (_app, port), \
                Client.connect(f"ws://127.0.0.1:{port}", "Ann") as ann, \
                Client.connect(f"ws://127.0.0.1:{port}", "Bob") as bob:
            room = await ann.create_room("first")
            await ann.join(room.room_id)
            await bob.join(room.room_id)
            await bob.concede()
            for _ in range(200):
                if ann.finished:
                    break
                await ann.next_message()
            assert ann.finished and ann.mirror.game_over
            await ann.leave_room()
            second = await ann.create_room("second")
            joined = await ann.join(second.room_id)
            assert joined.room.room_id == second.room_id == ann.room_id
            assert not ann.finished and not ann.mirror.game_over
            assert ann.mirror.state_id == 0 and ann.my_decision is None and not ann.clocks
            # Leaving in no room (a closed room's, say) sends nothing: no NOT_READY error.
            await bob.leave_room()
            await bob.leave_room(wait=True)
            await bob.list_rooms()
            assert not bob.errors


async def test_a_client_that_must_not_take_over_still_doesnt_when_it_starts_over(
        tmp_path: Path) -> None:
    """``connect(take_over=False)`` promises never to close another connection of the
    account; but after a drop whose resume was refused (a session with no place is
    forgotten), the SDK started over with a Hello that took over the account's other
    connection and its seat (found reading the SDK by a bot author). It now keeps its
    word: that Hello is refused (ACCOUNT_IN_USE) and the other connection plays on."""
    with trio.fail_after(60):
        async with serving(tmp_path / "db.sqlite3") as (_app, port):
            url = f"ws://127.0.0.1:{port}"
            async with Client.connect(url, "Ann") as ann:
                token = ann.account_token
            async with Client.connect(url, token=token, take_over=False,
                                      reconnect_for=5) as quiet:
                await quiet.drop()  # in no room: its session is forgotten
                async with Client.connect(url, token=token) as seated:
                    room = await seated.create_room("mine")
                    await seated.join(room.room_id)
                    with pytest.raises(ConnectionLostError, match="refused"):
                        await quiet.list_rooms()
                    assert seated.room_id == room.room_id
                    assert (await seated.list_rooms()) is not None  # still connected
