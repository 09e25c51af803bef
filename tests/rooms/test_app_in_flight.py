"""A player's game command in flight (``_Connection.in_flight`` in ``server/app.py``).

The connection's task hands an ``Act`` (a snapshot request, a concession) to its room and
goes back to reading at once; the room task settles the command (the played action's
rate-limit refund, or "the room closed"). The connection's next message is handled only
after the room has handled the command, so a connection still has at most one command in a
room's inbox and its answers go out in the order of its requests.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import trio
import trio.lowlevel
import trio.testing

from protocol.v1 import messages_pb2 as mpb
from server.app import App, Limits
from server.rooms.commands import Command, Output
from tests.rooms.test_app_memory import running_app
from tests.rooms.test_app_write_now import _decision_of, _drain, _seated_pair


class HandlerSteps(trio.abc.Instrument):
    """Counts the steps of the connections' own tasks (``App.handle_connection``)."""

    def __init__(self) -> None:
        self.steps = 0

    def before_task_step(self, task: trio.lowlevel.Task) -> None:
        if task.name.endswith("handle_connection"):
            self.steps += 1


def _act_message(app: App, request_id: int = 9) -> tuple[int, bytes]:
    seat, prompt_id = _decision_of(app)
    return seat, mpb.ClientMessage(request_id=request_id, act=mpb.Act(
        prompt_id=prompt_id, option_index=0)).SerializeToString()


async def test_an_action_takes_one_step_of_its_connections_task(tmp_path: Path) -> None:
    """The connection's task reads the Act, hands it to the room and waits for the next
    message, all in one step: it isn't woken again when the room has handled it."""
    async with running_app(tmp_path) as app:
        socks = await _seated_pair(app)
        counter = HandlerSteps()
        trio.lowlevel.add_instrument(counter)
        try:
            for n in range(1, 6):
                seat, act = _act_message(app)
                await socks[seat].to_server.send(act)
                await trio.testing.wait_all_tasks_blocked()
                assert counter.steps == n
                assert any(m.HasField("delta") for m in _drain(socks[seat]))
                _drain(socks[1 - seat])
        finally:
            trio.lowlevel.remove_instrument(counter)


async def test_a_request_sent_right_behind_an_action_is_answered_after_it(
        tmp_path: Path) -> None:
    """An Act and a ListRooms arrive together: the room list waits for the room to handle
    the action, so the action's delta comes first."""
    async with running_app(tmp_path) as app:
        socks = await _seated_pair(app)
        seat, act = _act_message(app)
        await socks[seat].to_server.send(act)
        await socks[seat].to_server.send(mpb.ClientMessage(
            request_id=10, list_rooms=mpb.ListRooms()).SerializeToString())
        await trio.testing.wait_all_tasks_blocked()
        kinds = [m.WhichOneof("body") for m in _drain(socks[seat])]
        assert "delta" in kinds and "room_list" in kinds
        assert kinds.index("delta") < kinds.index("room_list"), kinds


async def test_played_actions_are_refunded_by_the_room_and_never_rate_limited(
        tmp_path: Path, autojump_clock: trio.testing.MockClock) -> None:
    """At one message a second (bursts of 3), a player still plays 12 actions in a row --
    the room refunds each one it applied -- while their other requests are limited."""
    limits = replace(Limits(), messages_per_second=1.0, message_burst=3)
    async with running_app(tmp_path, limits) as app:
        socks = await _seated_pair(app)
        await trio.sleep(10)  # (the buckets fill up again after the setup's requests)
        for _n in range(12):
            seat, act = _act_message(app)
            await socks[seat].to_server.send(act)
            await trio.testing.wait_all_tasks_blocked()
            got = _drain(socks[seat])
            assert any(m.HasField("delta") for m in got), (_n, got)
            assert not any(m.HasField("error") for m in got), got
            _drain(socks[1 - seat])
        seat, _act = _act_message(app)
        for rid in range(20, 26):
            await socks[seat].to_server.send(mpb.ClientMessage(
                request_id=rid, list_rooms=mpb.ListRooms()).SerializeToString())
        await trio.testing.wait_all_tasks_blocked()
        refused = [m for m in _drain(socks[seat]) if m.HasField("error")]
        assert refused and all(m.error.code == mpb.ERROR_CODE_RATE_LIMITED for m in refused)


async def test_an_action_its_room_fails_on_is_answered_room_closed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The room fails handling the Act (fault isolation): its members are told, the Act is
    answered "the room closed" under its request id, and the connection, out of the room,
    serves on."""
    async with running_app(tmp_path) as app:
        socks = await _seated_pair(app)
        seat, act = _act_message(app, request_id=41)
        (host,) = app.lobby.hosts.values()

        def failing(command: Command, now: float) -> Output:
            raise RuntimeError("injected room fault")

        monkeypatch.setattr(host.room, "handle", failing)
        await socks[seat].to_server.send(act)
        await trio.testing.wait_all_tasks_blocked()
        got = _drain(socks[seat])
        assert [m.error.code for m in got if m.request_id == 0 and m.HasField("error")] == [
            mpb.ERROR_CODE_INTERNAL]
        answers = [m for m in got if m.request_id == 41]
        assert [(m.error.code, m.error.message) for m in answers] == [
            (mpb.ERROR_CODE_ROOM_NOT_FOUND, "the room closed")]
        assert got.index(answers[0]) > [m.WhichOneof("body") for m in got].index(
            "room_closed")  # after the room's own notice
        await socks[seat].to_server.send(mpb.ClientMessage(
            request_id=42, list_rooms=mpb.ListRooms()).SerializeToString())
        await trio.testing.wait_all_tasks_blocked()
        assert [m.WhichOneof("body") for m in _drain(socks[seat])
                if m.request_id == 42] == ["room_list"]
