"""The time the terminal takes to pass priority by itself tells nothing of the hand.

Found by an attacker: the "nothing to do but pass" shortcut answered at once whenever a
priority offered nothing to cast or activate -- at the stops, in full control too -- and
the opponent and spectators see each answer's timing (the clocks, to the millisecond): a
pass within milliseconds at an opponent's end step meant "nothing castable in that hand",
guessed right 173 times of 173. Now, under the usual stops, such a priority at a stop is
passed after a human-like wait (uniform 1-3 s, drawn afresh, cancelled if the decision
changes); where the stops pass (what everyone sees says so) it is passed at once, whatever
the hand; under full control the player is asked."""

from __future__ import annotations

from typing import cast

import trio
import trio.testing

from client_sdk.board import Board
from client_sdk.client import Client
from client_sdk.mirror import Mirror
from client_sdk.stops import AUTO, FULL, HUMAN_PASS_SECONDS
from client_sdk.terminal import Keyboard, Screen, Session
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from tests.terminal.test_session_receive import NoKeys, StubClient
from tests.terminal.test_stops import ANN, PASS, SHOCK, _mirror

#: How long the tests wait for an answer that never comes (the player is asked).
ASKED = 30.0


class TimedClient(StubClient):
    """Decisions come as a server sends them: each once the last one is answered (a number
    in the list: a pause of that many seconds, after which the next comes anyway -- a
    decision replaced). Records when each decision came and when it was answered."""

    def __init__(self, messages: list[mpb.ServerMessage | float]) -> None:
        super().__init__(cast(list[mpb.ServerMessage | BaseException], messages))
        self.came: dict[int, float] = {}
        self.answered: dict[int, float] = {}
        self._acted = trio.Event()

    async def next_message(self) -> mpb.ServerMessage:
        pending = cast(list[object], self.messages)
        if pending and isinstance(pending[0], float):
            await trio.sleep(cast(float, pending.pop(0)))
        elif self.my_decision is not None and pending:
            await self._acted.wait()
        msg = await super().next_message()
        if msg.HasField("decision"):
            self.came[msg.decision.prompt_id] = trio.current_time()
        return msg

    async def act(self, index: int) -> None:
        assert self.my_decision is not None
        self.answered[self.my_decision.prompt_id] = trio.current_time()
        await super().act(index)
        self._acted.set()
        self._acted = trio.Event()

    def waited(self, prompt_id: int) -> float | None:
        """Seconds between the decision's coming and its answer (None: not answered)."""
        if prompt_id not in self.answered:
            return None
        return self.answered[prompt_id] - self.came[prompt_id]


def _priority(prompt_id: int, *options: pb.Action) -> mpb.ServerMessage:
    return mpb.ServerMessage(decision=pb.Decision(
        prompt_id=prompt_id, seat=ANN, kind=pb.DECISION_KIND_PRIORITY, options=options))


async def _session(step: int, messages: list[mpb.ServerMessage | float], *,
                   stops: str = AUTO, delays: list[float] | None = None,
                   mirror: Mirror | None = None) -> tuple[TimedClient, Session]:
    """Ann (Shock in hand) gets ``messages`` in that step of Bob's turn, until nothing
    happens for :data:`ASKED` seconds."""
    mirror = mirror or _mirror()
    mirror.header.step = step  # type: ignore[assignment]
    client = TimedClient(messages)
    board = Board(mirror, seat=ANN, room=mpb.RoomInfo(room_id="r1"))
    session = Session(cast(Client, client), board, cast(Screen, None),
                      cast(Keyboard, NoKeys()), player=True)
    session.stops = stops
    if delays is not None:
        session.pass_delay = iter(delays).__next__
    with trio.move_on_after(ASKED):
        await session._receive(None, trio.CancelScope())
    return client, session


async def test_at_a_stop_nothing_castable_is_passed_after_a_human_wait_not_at_once(
        autojump_clock: trio.testing.MockClock) -> None:
    # Bob's end step: a stop (the moment to cast an instant before Ann's turn).
    client, session = await _session(pb.STEP_END, [_priority(1, PASS), _priority(2, PASS)],
                                     delays=[1.25, 2.5])
    assert client.acted == [(1, 0), (2, 0)]
    assert not session.board.events  # nothing said: passing is what happens all the time
    assert client.waited(1) == 1.25 and client.waited(2) == 2.5  # (each drawn afresh)
    # Shock castable: the player is asked (what the table sees is a wait, either way).
    client, _s = await _session(pb.STEP_END, [_priority(1, PASS, SHOCK)],
                                delays=[1.25])
    assert client.acted == []


async def test_where_the_stops_pass_it_is_at_once_whatever_the_hand(
        autojump_clock: trio.testing.MockClock) -> None:
    for options in ((PASS,), (PASS, SHOCK)):
        client, _s = await _session(pb.STEP_UPKEEP, [_priority(1, *options)],
                                    delays=[2.0])
        assert client.acted == [(1, 0)] and client.waited(1) == 0.0


async def test_the_wait_is_uniform_between_one_and_three_seconds_and_drawn_each_time() -> None:
    session = Session(cast(Client, StubClient([])), Board(_mirror(), seat=ANN),
                      cast(Screen, None), cast(Keyboard, NoKeys()), player=True)
    waits = [session.pass_delay() for _ in range(200)]
    assert HUMAN_PASS_SECONDS == (1.0, 3.0)
    assert all(1.0 <= w <= 3.0 for w in waits)
    assert min(waits) < 1.5 and max(waits) > 2.5 and len(set(waits)) == len(waits)


async def test_full_control_asks_even_with_nothing_but_passing_to_do(
        autojump_clock: trio.testing.MockClock) -> None:
    for step in (pb.STEP_UPKEEP, pb.STEP_END):
        client, _s = await _session(step, [_priority(1, PASS)], stops=FULL,
                                    delays=[1.0])
        assert client.acted == []


async def test_the_wait_ends_with_no_pass_when_the_decision_changes(
        autojump_clock: trio.testing.MockClock) -> None:
    """Decision 1 is replaced 0.5 s in (before its 2 s wait is over): it is never passed;
    decision 2 is, after its own wait."""
    client, _s = await _session(
        pb.STEP_END, [_priority(1, PASS), 0.5, _priority(2, PASS)], delays=[2.0, 1.5])
    assert client.acted == [(2, 0)] and client.waited(2) == 1.5


async def test_never_passed_with_mana_in_the_pool(
        autojump_clock: trio.testing.MockClock) -> None:
    mirror = _mirror()
    mirror.players[ANN].mana_pool.red = 1
    client, _s = await _session(pb.STEP_END, [_priority(1, PASS)], delays=[1.0],
                                mirror=mirror)
    assert client.acted == []


async def test_a_player_answering_during_the_wait_is_not_passed_for_again(
        autojump_clock: trio.testing.MockClock) -> None:
    mirror = _mirror()
    mirror.header.step = pb.STEP_END
    client = TimedClient([_priority(1, PASS)])
    board = Board(mirror, seat=ANN, room=mpb.RoomInfo(room_id="r1"))
    session = Session(cast(Client, client), board, cast(Screen, None),
                      cast(Keyboard, NoKeys()), player=True)
    session.pass_delay = lambda: 2.0
    async with trio.open_nursery() as nursery:
        nursery.start_soon(session._receive, None, nursery.cancel_scope)
        await trio.sleep(1.0)
        await session._command("p")  # (the player passes first)
        await trio.sleep(ASKED)
        nursery.cancel_scope.cancel()
    assert client.acted == [(1, 0)] and client.waited(1) == 1.0
