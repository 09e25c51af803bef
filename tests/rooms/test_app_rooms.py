"""The app over trio memory streams (autojump clock): seat security against the exploit
sequences of issue 12, resume with tokens, room limits and lifecycle."""

from __future__ import annotations

import gc
import random
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import trio
import trio.testing

from client_sdk.mirror import Mirror
from protocol.v1 import messages_pb2 as mpb
from server.app import App, Limits
from server.rooms import lobby as lobby_module
from server.rooms import recovery
from server.rooms.admission import AT_ONCE
from server.rooms.commands import Command, Leave
from server.rooms.room import Room, RoomConfig
from server.sessions import CLOSE_REPLACED
from server.store.records import CreateGame, StoreOp
from server.view import project
from server.view.encode import encode_view
from tests.rooms.test_app_memory import MemorySocket, running_app


class Peer:
    """A client over a memory socket that keeps every message and a mirror of its view."""

    def __init__(self, app: App, name: str, address: str = "") -> None:
        self.app = app
        self.name = name
        self.sock = MemorySocket(address=address) if address else MemorySocket()
        self.got: list[mpb.ServerMessage] = []
        self.mirror = Mirror()
        self.rid = 100
        self.token = ""
        app.lobby.nursery.start_soon(app.handle_connection, self.sock)

    async def send(self, **body: object) -> int:
        self.rid += 1
        await self.sock.to_server.send(mpb.ClientMessage(
            request_id=self.rid, **body).SerializeToString())  # type: ignore[arg-type]
        return self.rid

    def pump(self) -> list[mpb.ServerMessage]:
        """Everything received since the last pump (folded into the mirror)."""
        new = []
        while True:
            try:
                data = self.sock.from_server.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel):
                break
            msg = mpb.ServerMessage.FromString(data)
            if msg.HasField("snapshot"):
                self.mirror.load_snapshot(msg.snapshot)
            elif msg.HasField("delta"):
                self.mirror.apply_delta(msg.delta)
            elif msg.HasField("welcome"):
                self.token = msg.welcome.resume_token
            elif msg.HasField("resumed"):
                self.token = msg.resumed.welcome.resume_token
            new.append(msg)
        self.got.extend(new)
        return new

    async def call(self, **body: object) -> mpb.ServerMessage:
        rid = await self.send(**body)
        await trio.testing.wait_all_tasks_blocked()
        for msg in self.pump():
            if msg.request_id == rid:
                return msg
        raise AssertionError(f"no reply to {body}")

    async def hello(self) -> None:
        reply = await self.call(hello=mpb.Hello(protocol_version=1, display_name=self.name))
        assert reply.HasField("welcome") and self.token

    async def create(self, seats: int = 2) -> str:
        reply = await self.call(create_room=mpb.CreateRoom(name="t", seats=seats))
        return reply.room_created.room.room_id

    async def join(self, room_id: str, *, spectator: bool = False) -> mpb.ServerMessage:
        role = mpb.ROLE_SPECTATOR if spectator else mpb.ROLE_PLAYER
        return await self.call(join_room=mpb.JoinRoom(room_id=room_id, role=role))


async def _table(app: App, players: int) -> tuple[list[Peer], str]:
    peers = [Peer(app, f"p{i}") for i in range(players)]
    for p in peers:
        await p.hello()
    room_id = await peers[0].create(players)
    for seat, p in enumerate(peers):
        assert (await p.join(room_id)).joined.seat == seat
    return peers, room_id


async def _play(app: App, room_id: str, peers: list[Peer], rng: random.Random, actions: int,
                *, until_seat: int | None = None) -> int:
    """Answer the room's pending decisions through the peers (at random)."""
    room = app.lobby.rooms[room_id]
    done = 0
    for _ in range(actions):
        await trio.testing.wait_all_tasks_blocked()
        for p in peers:
            p.pump()
        game = room.game
        assert game is not None
        if game.result is not None or game.pending is None:
            break
        if game.pending.seat == until_seat:
            break
        member = room.seats[game.pending.seat]
        assert member is not None
        peer = next(p for p in peers if room.member_of(p_conn(app, p)) is member)
        await peer.send(act=mpb.Act(prompt_id=game.pending.prompt_id,
                                    option_index=rng.randrange(len(game.pending.options))))
        done += 1
    await trio.testing.wait_all_tasks_blocked()
    for p in peers:
        p.pump()
    return done


def p_conn(app: App, peer: Peer) -> int:
    """The connection id the app gave ``peer``'s socket (-1: none now)."""
    for conn_id, conn in app.conns.items():
        if conn.record is not None and conn.record.name.partition("#")[0] == peer.name:
            return conn_id
    return -1


def _foreign_views(peer: Peer, seats: dict[str, int]) -> list[str]:
    """Messages that show ``peer`` a view or decision other than its seat's in that room
    (``seats``: room id -> the seat it held there)."""
    bad = []
    for msg in peer.got:
        if msg.HasField("snapshot"):
            room, viewer = msg.snapshot.room_id, msg.snapshot.view.viewer
            if seats.get(room) != viewer:
                bad.append(f"snapshot of room {room} for viewer {viewer}")
        if msg.HasField("decision"):
            room, seat = msg.decision.room_id, msg.decision.seat
            if seats.get(room) != seat:
                bad.append(f"decision of room {room} for seat {seat}")
    return bad


async def test_a_refused_join_routes_nothing_act_and_snapshot_are_refused(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        _peers, room_id = await _table(app, 2)
        outsider = Peer(app, "eve")
        await outsider.hello()
        reply = await outsider.join(room_id)
        assert reply.error.code == mpb.ERROR_CODE_ROOM_FULL
        game = app.lobby.rooms[room_id].game
        assert game is not None and game.pending is not None
        for _ in range(2):
            reply = await outsider.call(act=mpb.Act(prompt_id=game.pending.prompt_id))
            assert reply.error.code == mpb.ERROR_CODE_NOT_READY
            reply = await outsider.call(request_snapshot=mpb.RequestSnapshot())
            assert reply.error.code == mpb.ERROR_CODE_NOT_READY
            reply = await outsider.call(concede=mpb.ConcedeGame())
            assert reply.error.code == mpb.ERROR_CODE_NOT_READY
        assert game.action_count == 0 and game.result is None
        kinds = {m.WhichOneof("body") for m in outsider.got}
        assert kinds <= {"welcome", "error"}


async def test_leave_join_elsewhere_and_come_back_never_gives_another_seat(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """The issue-12 sequence: a player concedes with LeaveRoom, takes seat t in a room of its
    own, leaves it and asks to join the first game again (3-player game)."""
    async with running_app(tmp_path) as app:
        peers, room_id = await _table(app, 3)
        rng = random.Random(3)
        await _play(app, room_id, peers, rng, 20)
        quitter = peers[0]
        await quitter.send(leave_room=mpb.LeaveRoom())  # concedes; no reply on success
        await trio.testing.wait_all_tasks_blocked()
        assert app.lobby.rooms[room_id].game is not None
        assert not [m for m in quitter.pump() if m.HasField("error")]
        # Its own room, where it takes seat 2 (after two helpers) ...
        own = await quitter.create(3)
        helpers = [Peer(app, f"h{i}") for i in range(2)]
        for h in helpers:
            await h.hello()
            await h.join(own)
        assert (await quitter.join(own)).joined.seat == 2
        await quitter.send(leave_room=mpb.LeaveRoom())
        # ... then back to the first game.
        reply = await quitter.join(room_id)
        assert reply.HasField("error")
        room = app.lobby.rooms[room_id]
        game = room.game
        assert game is not None
        start = len(quitter.got)
        for _ in range(5):
            if game.result is not None or game.pending is None:
                break
            reply = await quitter.call(act=mpb.Act(prompt_id=game.pending.prompt_id))
            assert reply.error.code == mpb.ERROR_CODE_NOT_READY
            reply = await quitter.call(request_snapshot=mpb.RequestSnapshot())
            assert reply.error.code == mpb.ERROR_CODE_NOT_READY
            await _play(app, room_id, peers[1:], rng, 3)
        assert game.action_count > 20  # the others played on meanwhile
        assert all(m.WhichOneof("body") == "error" for m in quitter.got[start:])
        # Its only views were its own seats' (0 in the first game, 2 in its own room).
        assert _foreign_views(quitter, {room_id: 0, own: 2}) == []


async def test_two_pipelined_joins_put_a_connection_in_one_room_only(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        host = Peer(app, "host")
        await host.hello()
        x, y = await host.create(), await host.create()
        p = Peer(app, "p")
        await p.hello()
        # Both joins in one go, before the first is answered.
        first = await p.send(join_room=mpb.JoinRoom(room_id=x, role=mpb.ROLE_PLAYER))
        second = await p.send(join_room=mpb.JoinRoom(room_id=y, role=mpb.ROLE_PLAYER))
        await trio.testing.wait_all_tasks_blocked()
        replies = {m.request_id: m for m in p.pump()}
        assert replies[first].HasField("joined")
        assert replies[second].error.code == mpb.ERROR_CODE_INVALID_ARGUMENT
        conn = p_conn(app, p)
        rooms = [r for r in app.lobby.rooms.values() if r.member_of(conn) is not None]
        assert [r.room_id for r in rooms] == [x]


async def test_resume_reclaims_the_seat_with_only_the_missed_deltas_and_tokens_rotate(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        peers, room_id = await _table(app, 2)
        rng = random.Random(8)
        await _play(app, room_id, peers, rng, 40)
        await _play(app, room_id, peers, rng, 200, until_seat=0)  # Bob waits: he drops
        bob = peers[1]
        last, token = bob.mirror.state_id, bob.token
        await bob.sock.to_server.aclose()  # the connection drops
        await trio.testing.wait_all_tasks_blocked()
        told = [m.presence for m in peers[0].pump() if m.HasField("presence")]
        assert told and not told[-1].seats[1].connected
        room = app.lobby.rooms[room_id]
        before = room.classes[1].stream.state_id
        played = await _play(app, room_id, peers[:1], rng, 300, until_seat=1)
        missed = room.classes[1].stream.state_id - before
        assert played > 0 and missed > 0
        # Bob comes back on a new connection with his token.
        again = Peer(app, "p1")
        again.mirror = bob.mirror
        reply = await again.call(resume=mpb.Resume(protocol_version=1, resume_token=token,
                                                   last_state_id=last))
        assert reply.resumed.deltas == missed and not reply.resumed.snapshot
        assert reply.resumed.joined.seat == 1 and reply.resumed.welcome.resume_token != token
        assert sum(m.HasField("delta") for m in again.got) == missed
        game = room.game
        assert game is not None
        assert again.mirror.view() == encode_view(project(game, 1))
        told = [m.presence for m in peers[0].pump() if m.HasField("presence")]
        assert told and told[-1].seats[1].connected
        # A second connection with the new token replaces the first; once the new token has
        # been used, the old one is void (until then it still works: a crash between
        # rotating and delivering a token must not strand the client).
        third = Peer(app, "p1")
        reply = await third.call(resume=mpb.Resume(protocol_version=1,
                                                   resume_token=again.token,
                                                   last_state_id=again.mirror.state_id))
        assert reply.resumed.deltas == 0 and reply.resumed.joined.seat == 1
        await trio.testing.wait_all_tasks_blocked()
        assert again.sock.closed is not None and again.sock.closed[0] == CLOSE_REPLACED
        stale = Peer(app, "x")
        reply = await stale.call(resume=mpb.Resume(protocol_version=1, resume_token=token))
        assert reply.error.code == mpb.ERROR_CODE_RESUME_FAILED
        # The token never appears in what other members receive.
        for p in [peers[0]]:
            assert all(third.token.encode() not in m.SerializeToString() for m in p.got)


@pytest.mark.parametrize(("away", "lost_after"), [(0.0, 1800), (300.0, 300)])
async def test_a_disconnected_players_clock_keeps_running(
    tmp_path: Path, autojump_clock: trio.testing.MockClock, away: float, lost_after: int
) -> None:
    """The deciding player's clock runs while they are gone: they lose when it runs out
    (104.3a) -- or, with --away-seconds, once they have been gone that long."""
    limits = Limits(room=RoomConfig(away_seconds=away))
    async with running_app(tmp_path, limits) as app:
        peers, room_id = await _table(app, 2)
        room = app.lobby.rooms[room_id]
        game = room.game
        assert game is not None and game.pending is not None
        seat = game.pending.seat
        await peers[seat].sock.to_server.aclose()
        await trio.sleep(lost_after - 1)
        assert game.result is None
        await trio.sleep(2)
        await trio.testing.wait_all_tasks_blocked()
        assert game.result is not None and game.result.winners == (1 - seat,)
        assert ("ran out of time" if not away else "stayed disconnected") in game.result.reason


async def test_one_connection_creating_rooms_hits_its_limit_while_others_play(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    limits = Limits(max_rooms_per_account=3, max_rooms=50)
    async with running_app(tmp_path, limits) as app:
        spammer = Peer(app, "spam")
        await spammer.hello()
        created = 0
        refusal = None
        for _ in range(100):
            reply = await spammer.call(create_room=mpb.CreateRoom(name="spam"))
            if reply.HasField("error"):
                refusal = reply.error
                break
            created += 1
        assert created == 3 and refusal is not None
        assert refusal.code == mpb.ERROR_CODE_LIMIT_REACHED and "at most 3" in refusal.message
        # Someone else still creates a room and plays in it.
        peers, room_id = await _table(app, 2)
        assert await _play(app, room_id, peers, random.Random(1), 30) == 30
        # Unstarted empty rooms expire, which frees the spammer's allowance.
        await trio.sleep(RoomConfig().idle_seconds + 1)
        await trio.testing.wait_all_tasks_blocked()
        assert room_id in app.lobby.rooms and len(app.lobby.rooms) == 1
        reply = await spammer.call(create_room=mpb.CreateRoom(name="again"))
        assert reply.HasField("room_created")


async def test_create_room_with_join_checks_the_deck_first_and_creates_no_room_for_a_bad_one(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """A client created a room, then joined it with its deck: a deck that couldn't be played
    left an empty room counted against the creator's open rooms (a player who got a card
    name wrong four times could create no room for ten minutes). ``CreateRoom.join`` checks
    the deck before the room is made, then seats the creator (RoomCreated, then Joined,
    with the request's id)."""
    async with running_app(tmp_path, Limits(max_rooms_per_account=2)) as app:
        ann = Peer(app, "ann")
        await ann.hello()
        for _ in range(5):
            await trio.sleep(60)  # (the address's deck-check budget refills meanwhile)
            reply = await ann.call(create_room=mpb.CreateRoom(
                name="t", join=True, deck="4 Shok\n56 Mountain"))
            assert reply.error.code == mpb.ERROR_CODE_INVALID_DECK
            assert any("did you mean 'Shock'" in d for d in reply.error.details)
        assert not app.lobby.rooms
        await trio.sleep(60)
        rid = await ann.send(create_room=mpb.CreateRoom(
            name="t", join=True, deck="4 Shock\n56 Mountain", private=True))
        await trio.testing.wait_all_tasks_blocked()
        answers = [m for m in ann.pump() if m.request_id == rid]
        assert [m.WhichOneof("body") for m in answers][:2] == ["room_created", "joined"]
        room_id = answers[0].room_created.room.room_id
        assert answers[1].joined.seat == 0 and answers[1].joined.room.room_id == room_id
        assert list(app.lobby.rooms) == [room_id]
        # The other player joins with the invite code the creator was given; the game starts.
        bob = Peer(app, "bob")
        await bob.hello()
        joined = await bob.call(join_room=mpb.JoinRoom(
            room_id=room_id, role=mpb.ROLE_PLAYER,
            invite_code=answers[0].room_created.invite_code))
        assert joined.joined.seat == 1 and app.lobby.rooms[room_id].game is not None
        # A deck without join is a mistake, said so; so is a create while seated.
        reply = await bob.call(create_room=mpb.CreateRoom(name="x", deck="60 Mountain"))
        assert reply.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT and "join" in \
            reply.error.message
        reply = await ann.call(create_room=mpb.CreateRoom(name="x", join=True))
        assert reply.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT
        assert len(app.lobby.rooms) == 1


async def test_create_room_with_join_refuses_a_room_whose_seats_are_all_reserved_for_others(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """``CreateRoom{join, reserved: [bob, carl], seats: 2}`` from a third account made the
    room, then couldn't seat its creator (ROOM_FULL): four such requests left four empty
    rooms counted against the creator's open rooms for ten minutes. It is refused before any
    room is made."""
    async with running_app(tmp_path) as app:
        names = []
        for name in ("bob", "carl"):
            peer = Peer(app, name)
            await peer.hello()
            names += [m.welcome.account.name for m in peer.got if m.HasField("welcome")]
        ann = Peer(app, "ann")
        await ann.hello()
        for _ in range(5):
            reply = await ann.call(create_room=mpb.CreateRoom(
                name="t", join=True, seats=2, reserved=names))
            assert reply.error.code == mpb.ERROR_CODE_INVALID_ARGUMENT
            assert f"reserved for others ({', '.join(names)})" in reply.error.message
        assert not app.lobby.rooms
        # Reserving one of them leaves a seat for the creator.
        rid = await ann.send(create_room=mpb.CreateRoom(
            name="t", join=True, seats=2, reserved=names[:1]))
        await trio.testing.wait_all_tasks_blocked()
        answers = [m for m in ann.pump() if m.request_id == rid]
        assert [m.WhichOneof("body") for m in answers][:2] == ["room_created", "joined"]


async def test_the_server_wide_room_cap_answers_with_a_clear_error(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path, Limits(max_rooms=2)) as app:
        a, b = Peer(app, "a"), Peer(app, "b")
        await a.hello()
        await b.hello()
        await a.create()
        await b.create()
        reply = await b.call(create_room=mpb.CreateRoom(name="third"))
        assert reply.error.code == mpb.ERROR_CODE_LIMIT_REACHED
        assert "maximum of 2 rooms" in reply.error.message


async def test_a_full_server_closes_its_oldest_finished_room_for_a_new_one(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """Rooms whose games were over, lingering for their last views, counted against the
    server's room cap: two guests creating and conceding games kept every new game out (a
    security tester filled a 60-room cap in 21.6 s). Now the oldest finished room closes."""
    async with running_app(tmp_path, Limits(max_rooms=2)) as app:
        first, first_id = await _table(app, 2)
        await first[0].send(concede=mpb.ConcedeGame())
        await trio.sleep(5)
        second, second_id = await _table(app, 2)
        await second[0].send(concede=mpb.ConcedeGame())
        await trio.testing.wait_all_tasks_blocked()
        assert app.lobby.rooms[first_id].finished and app.lobby.rooms[second_id].finished
        new = Peer(app, "new")
        await new.hello()
        reply = await new.call(create_room=mpb.CreateRoom(name="next"))
        assert reply.HasField("room_created"), reply
        await trio.testing.wait_all_tasks_blocked()
        assert set(app.lobby.rooms) == {second_id, reply.room_created.room.room_id}
        closed = [m.room_closed for p in first for m in p.pump() if m.HasField("room_closed")]
        assert closed and "needed room for new games" in closed[0].reason
        # The next one closes the other finished room; then only live rooms are left (one
        # waiting for players, one playing) and none of them is closed: the cap holds.
        _third, third_id = await _table(app, 2)
        await trio.testing.wait_all_tasks_blocked()
        assert set(app.lobby.rooms) == {reply.room_created.room.room_id, third_id}
        refused = await new.call(create_room=mpb.CreateRoom(name="another"))
        assert refused.error.code == mpb.ERROR_CODE_LIMIT_REACHED, refused
        assert "maximum of 2 rooms" in refused.error.message


async def test_a_finished_game_leaves_the_lobby_and_memory_after_lingering(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        peers, room_id = await _table(app, 2)
        await peers[0].send(concede=mpb.ConcedeGame())
        await trio.testing.wait_all_tasks_blocked()
        assert app.lobby.rooms[room_id].finished
        gone = weakref.ref(app.lobby.rooms[room_id])
        await trio.sleep(RoomConfig().linger_seconds + 1)
        await trio.testing.wait_all_tasks_blocked()
        assert room_id not in app.lobby.rooms
        gc.collect()
        assert gone() is None  # the room and its game left memory
        for p in peers:
            assert any(m.HasField("room_closed") for m in p.pump())
        # Resuming into it now gives the session back without a room.
        late = Peer(app, "p1")
        reply = await late.call(resume=mpb.Resume(protocol_version=1,
                                                  resume_token=peers[1].token))
        assert reply.HasField("resumed") and not reply.resumed.HasField("joined")


async def test_resuming_while_still_connected_keeps_an_unstarted_rooms_seat(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        ann = Peer(app, "ann")
        await ann.hello()
        room_id = await ann.create(2)
        assert (await ann.join(room_id)).joined.seat == 0
        again = Peer(app, "ann")
        reply = await again.call(resume=mpb.Resume(protocol_version=1, resume_token=ann.token))
        assert reply.resumed.joined.seat == 0
        await trio.testing.wait_all_tasks_blocked()
        room = app.lobby.rooms[room_id]
        seat = room.seats[0]
        assert seat is not None and seat.conn == p_conn(app, again)
        assert ann.sock.closed is not None and ann.sock.closed[0] == CLOSE_REPLACED


async def test_a_connection_dropped_while_its_join_is_answered_leaves_no_ghost_member(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path, Limits(outbox_size=3)) as app:
        ann, bob = Peer(app, "ann"), Peer(app, "bob")
        await ann.hello()
        await bob.hello()
        room_id = await ann.create(3)
        await ann.join(room_id)
        await bob.join(room_id)
        cid = MemorySocket(out_buffer=0)  # never reads: its outbox overflows on joining
        app.lobby.nursery.start_soon(app.handle_connection, cid)
        await cid.to_server.send(mpb.ClientMessage(request_id=1, hello=mpb.Hello(
            protocol_version=1, display_name="cid")).SerializeToString())
        await cid.to_server.send(mpb.ClientMessage(request_id=2, join_room=mpb.JoinRoom(
            room_id=room_id, role=mpb.ROLE_PLAYER)).SerializeToString())
        await trio.sleep(30)
        await trio.testing.wait_all_tasks_blocked()
        assert cid.closed is not None and cid.closed[0] == 1013
        room = app.lobby.rooms[room_id]
        assert room.game is not None  # Cid's join filled the room
        seat = room.seats[2]
        assert seat is not None and seat.conn is None  # known disconnected, not a ghost
        told = [m.presence for m in ann.pump() if m.HasField("presence")]
        assert told and not told[-1].seats[2].connected


async def test_a_flood_of_commands_never_loses_a_disconnect(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    async with running_app(tmp_path) as app:
        peers, room_id = await _table(app, 2)
        room = app.lobby.rooms[room_id]
        watchers = [Peer(app, f"w{i}") for i in range(6)]
        for w in watchers:
            await w.hello()
            await w.join(room_id, spectator=True)
        assert len(room.spectators) == 6
        flood = mpb.ClientMessage(act=mpb.Act(prompt_id=1)).SerializeToString()
        for w in watchers:
            for _ in range(95):  # the memory socket's buffer holds 100
                w.sock.to_server.send_nowait(flood)
            await w.sock.to_server.aclose()
        await trio.sleep(5)
        await trio.testing.wait_all_tasks_blocked()
        assert room.spectators == {} and room.info().spectators == 0
        assert not peers[0].sock.closed


async def test_a_crowd_of_spectators_joining_at_once_takes_turns_with_other_rooms(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """A crowd following a game into its room asks all at once: every spectator gets in,
    their joins taking turns (server.rooms.admission), and a spectator of another room who
    asked just after the crowd isn't queued behind all of it."""
    async with running_app(tmp_path) as app:
        _, room_id = await _table(app, 2)
        _, other_id = await _table(app, 2)
        crowd = [Peer(app, f"w{i}") for i in range(5 * AT_ONCE)]
        elsewhere = Peer(app, "x")
        for w in [*crowd, elsewhere]:
            await w.hello()
        settle = app._settle
        order: list[str] = []

        async def counted(conn: Any, host: Any, command: Any) -> Any:
            order.append(host.room_id)
            return await settle(conn, host, command)

        app._settle = counted  # type: ignore[method-assign]
        asked = []
        for w, room in [*((w, room_id) for w in crowd), (elsewhere, other_id)]:
            w.rid += 1  # all at once: nothing runs between them
            asked.append(w.rid)
            w.sock.to_server.send_nowait(mpb.ClientMessage(
                request_id=w.rid, join_room=mpb.JoinRoom(
                    room_id=room, role=mpb.ROLE_SPECTATOR)).SerializeToString())
        await trio.testing.wait_all_tasks_blocked()
        assert len(order) == len(crowd) + 1
        assert order.index(other_id) <= AT_ONCE  # its room's turn came early
        for w, rid in zip([*crowd, elsewhere], asked, strict=True):
            assert any(m.request_id == rid and m.HasField("joined") for m in w.pump())
        assert len(app.lobby.rooms[room_id].spectators) == len(crowd)
        assert len(app.lobby.rooms[other_id].spectators) == 1
        assert app.watch_gate.waiting == 0


async def test_spectators_resuming_their_places_take_turns_at_the_gate_players_never_wait(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """A spectator coming back to its place (a crowd resuming after a restart, or after its
    relay dropped) waits for its turn as a joining spectator does (server.rooms.admission),
    and gets its place back; a player resuming its seat never waits."""
    async with running_app(tmp_path) as app:
        peers, room_id = await _table(app, 2)
        watchers = [Peer(app, f"w{i}") for i in range(3)]
        for w in watchers:
            await w.hello()
            assert (await w.join(room_id, spectator=True)).HasField("joined")
        admit = app.watch_gate.admit
        turns: list[str] = []

        async def counted(room_id: str) -> None:
            turns.append(room_id)
            await admit(room_id)

        app.watch_gate.admit = counted  # type: ignore[method-assign]
        back = [*watchers, peers[1]]
        for p in back:
            p.pump()
            await p.sock.to_server.aclose()
        await trio.testing.wait_all_tasks_blocked()
        for n, p in enumerate(back):
            again = Peer(app, p.name)
            reply = await again.call(resume=mpb.Resume(
                protocol_version=1, resume_token=p.token, last_state_id=p.mirror.state_id))
            joined = reply.resumed.joined
            assert joined.room.room_id == room_id
            if n < len(watchers):
                assert joined.role == mpb.ROLE_SPECTATOR
                assert turns == [room_id] * (n + 1)  # it took its turn
            else:
                assert joined.role == mpb.ROLE_PLAYER and joined.seat == 1
        assert turns == [room_id] * len(watchers)  # the player didn't wait
        assert len(app.lobby.rooms[room_id].spectators) == len(watchers)


async def test_a_spectators_leave_isnt_waited_for_and_a_late_one_never_stops_its_next_watch(
    tmp_path: Path,
) -> None:
    """A spectator's LeaveRoom is handed to its room without waiting for it (one round trip
    less for an audience following a game into its next room). Even when the room it left
    handles that leave only after the next room took it in, the spectator keeps getting the
    next room's feed, and the first room forgets it."""
    async with running_app(tmp_path) as app:
        players, room_id = await _table(app, 2)
        others = [Peer(app, f"q{i}") for i in range(2)]  # (named apart: see p_conn)
        for p in others:
            await p.hello()
        other_id = await others[0].create(2)
        for p in others:
            assert (await p.join(other_id)).HasField("joined")
        w = Peer(app, "w")
        await w.hello()
        assert (await w.join(room_id, spectator=True)).HasField("joined")
        first = app.lobby.hosts[room_id]
        held: list[Command] = []
        notify = first.notify
        first.notify = held.append  # type: ignore[method-assign,assignment]
        await w.send(leave_room=mpb.LeaveRoom())
        joined = await w.join(other_id, spectator=True)
        assert joined.HasField("joined") and joined.joined.room.room_id == other_id
        assert [type(c) for c in held] == [Leave]  # room 1 hasn't handled it yet
        assert len(app.lobby.rooms[room_id].spectators) == 1
        for command in held:
            notify(command)
        await trio.testing.wait_all_tasks_blocked()
        assert app.lobby.rooms[room_id].spectators == {}
        w.pump()
        before = w.mirror.state_id
        await _play(app, other_id, others, random.Random(3), 5)
        await _play(app, room_id, players, random.Random(4), 5)
        await trio.sleep(1)  # (the spectator feeds' flush)
        news = w.pump()
        assert any(m.HasField("delta") for m in news) and w.mirror.state_id > before
        (member,) = app.lobby.rooms[other_id].spectators.values()
        assert member.conn is not None
        assert app.relay.fanout.watches[member.conn].feed.key == (other_id, 0)


async def test_a_spectators_place_is_stored_unwaited_and_a_restart_brings_it_back(
    tmp_path: Path,
) -> None:
    """A spectator's room is written to its session's row without waiting for the commit
    (StoreWriter.write_place) as it joins and leaves; after a restart, resuming the session
    puts it back as a spectator of that room (docs/operating.md, "Restarts and crashes")."""
    async with running_app(tmp_path) as app:
        _, room_id = await _table(app, 2)
        _, other_id = await _table(app, 2)
        w = Peer(app, "w")
        await w.hello()
        (session_id,) = [m.welcome.session_id for m in w.got if m.HasField("welcome")]

        def place() -> str | None:
            (row,) = [r for r in app.store.sessions() if r.session_id == session_id]
            return row.room_id

        assert (await w.join(room_id, spectator=True)).HasField("joined")
        assert place() == room_id
        await w.send(leave_room=mpb.LeaveRoom())
        await trio.testing.wait_all_tasks_blocked()
        assert place() is None
        assert (await w.join(other_id, spectator=True)).HasField("joined")
        assert place() == other_id
        token = w.token
        app.shutdown()
    async with running_app(tmp_path) as app:
        assert app.recover() == 2
        back = Peer(app, "w")
        reply = await back.call(resume=mpb.Resume(protocol_version=1, resume_token=token))
        joined = reply.resumed.joined
        assert joined.room.room_id == other_id and joined.role == mpb.ROLE_SPECTATOR


async def test_a_spectator_moving_on_while_its_old_room_starts_keeps_its_new_rooms_stream(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """Room A's game started as its spectator left it for room B: A handed its watch on
    only after its store write, and it replaced B's; then A's leave took that one away and
    the spectator was sent nothing more, with no close and no error (an attacker's probe:
    9 of 48 moves). A room's watch holds only for a connection still in (or entering) it."""
    from tests.rooms.test_accounts import _connect, _create, _join

    async with running_app(tmp_path) as app:
        ann, _w = await _connect(app, "ann")
        bob, _w = await _connect(app, "bob")
        cy, _w = await _connect(app, "cy")
        dee, _w = await _connect(app, "dee")
        watcher, _w = await _connect(app, "sam")
        room_a = (await _create(ann)).room.room_id
        room_b = (await _create(cy)).room.room_id
        await _join(cy, room_b)
        await _join(dee, room_b)  # B's game is on
        await _join(ann, room_a)
        await _join(watcher, room_a, spectator=True)  # waiting for A's start
        [sam] = [c for c in app.conns.values() if c.record is not None
                 and c.record.name.startswith("sam#")]
        gate = trio.Event()
        write = app.lobby.writer.write

        async def slow(ops: Sequence[StoreOp]) -> None:
            if any(isinstance(op, CreateGame) and op.room_id == room_a for op in ops):
                await gate.wait()  # A's start takes a while to store
            await write(ops)

        app.lobby.writer.write = slow  # type: ignore[method-assign]
        await bob.to_server.send(mpb.ClientMessage(request_id=1, join_room=mpb.JoinRoom(
            room_id=room_a, role=mpb.ROLE_PLAYER)).SerializeToString())
        await trio.sleep(1)  # A's game starts; its write waits
        await watcher.to_server.send(mpb.ClientMessage(
            leave_room=mpb.LeaveRoom()).SerializeToString())
        assert (await _join(watcher, room_b, spectator=True)).joined.room.room_id == room_b
        await trio.sleep(1)
        gate.set()
        await trio.sleep(1)
        watch = app.relay.fanout.watches.get(sam.conn_id)
        assert watch is not None and watch.feed.key[0] == room_b


async def test_a_resume_racing_the_join_that_starts_the_game_gets_the_seat_back(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    """A session resumed on a new connection while its old connection's join -- the one
    that started the game -- was being answered: the resume was told it had no place, and
    its seat sat disconnected with its clock running (an attacker's probe: 3 of 30). The
    resume waits for that answer, and comes back in the seat."""
    from tests.rooms.test_accounts import _connect, _create, _join

    async with running_app(tmp_path) as app:
        ann, _w = await _connect(app, "ann")
        bob, welcome = await _connect(app, "bob")
        room_id = (await _create(ann)).room.room_id
        await _join(ann, room_id)
        gate = trio.Event()
        write = app.lobby.writer.write

        async def slow(ops: Sequence[StoreOp]) -> None:
            if any(isinstance(op, CreateGame) for op in ops):
                await gate.wait()  # the game's start takes a while to store
            await write(ops)

        app.lobby.writer.write = slow  # type: ignore[method-assign]
        await bob.to_server.send(mpb.ClientMessage(request_id=1, join_room=mpb.JoinRoom(
            room_id=room_id, role=mpb.ROLE_PLAYER)).SerializeToString())
        await trio.sleep(1)  # the room took Bob's seat and started; its write waits
        again = MemorySocket()
        app.lobby.nursery.start_soon(app.handle_connection, again)
        await again.to_server.send(mpb.ClientMessage(request_id=1, resume=mpb.Resume(
            protocol_version=1, resume_token=welcome.welcome.resume_token)
        ).SerializeToString())
        await trio.sleep(1)
        gate.set()
        with trio.fail_after(10):
            while not (reply := mpb.ServerMessage.FromString(
                    await again.from_server.receive())).HasField("resumed"):
                pass
        assert reply.resumed.joined.room.room_id == room_id
        assert reply.resumed.joined.seat == 1


async def test_reloading_the_games_after_a_restart_charges_no_clock(
    tmp_path: Path, autojump_clock: trio.testing.MockClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restart reloads every game before the server listens (18 s for 45 games in a bot
    author's run, 109 s for 1,129 in ours): each game's clocks, sideboarding and away
    seats ran from when the reloading began, so the deciding player found 14 s gone from
    a clock stored at 600 s, before anyone could connect (docs/operating.md: clocks come back "as
    they stood after the last action"). Each room's time starts once all are reloaded."""
    async with running_app(tmp_path) as app:
        _, room_id = await _table(app, 2)
        game = app.lobby.rooms[room_id].game
        assert game is not None and game.pending is not None
        deciding = game.pending.seat
        app.shutdown()
    real = recovery.recover

    def slow(*args: Any, **kwargs: Any) -> Room:
        room = real(*args, **kwargs)
        autojump_clock.jump(30)  # a big game's log takes a while to play again
        return room

    monkeypatch.setattr(lobby_module, "recover", slow)
    async with running_app(tmp_path) as app:
        assert app.recover() == 1
        room = app.lobby.rooms[room_id]
        stored = room.remaining[deciding]
        now = trio.current_time()
        shown = mpb.ServerMessage.FromString(room.clocks(now)).clocks.seats[deciding]
        assert shown.running and shown.remaining_ms == round(stored * 1000)
        member = room.seats[deciding]
        assert member is not None and member.away_since == now
