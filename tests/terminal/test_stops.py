"""Where the terminal client stops for priority (:mod:`client_sdk.stops`): a new player
holding Shock with an untapped Mountain passed ~9 times in each of the opponent's turns,
with nothing on the stack, their clock running at each; ``pp`` lasted one turn. By default
(as Arena's) the client passes by itself where a player seldom acts and stops where they
might: anything on the stack, their own main phases, a combat they are in, an opponent's end
step. ``full`` turns full control on (every step), ``stops`` says the setting, which lasts
across turns and games and is saved for the next runs."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest
import trio
import trio.testing

from client_sdk import saved
from client_sdk.board import Board, frame_text
from client_sdk.client import Client
from client_sdk.mirror import Mirror
from client_sdk.stops import AUTO, FULL, auto_passes
from client_sdk.terminal import STOPS_SETTING, Keyboard, Screen, Session
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from protocol.viewhash import view_hash
from tests.terminal.test_session_receive import NoKeys, StubClient

PASS = pb.Action(pass_priority=pb.PassPriority())
SHOCK = pb.Action(cast_spell=pb.CastSpell(object_id="h1"))
NO_BLOCKS = pb.Action(finish_blockers=pb.FinishBlockers())
BLOCK = pb.Action(declare_blocker=pb.DeclareBlocker(object_id="c1", attacker_id="b1"))
ANN, BOB = 0, 1

#: An opponent's turn, step by step, as the priority decisions come to Ann.
TURN = (pb.STEP_UPKEEP, pb.STEP_DRAW, pb.STEP_PRECOMBAT_MAIN, pb.STEP_BEGINNING_OF_COMBAT,
        pb.STEP_DECLARE_ATTACKERS, pb.STEP_END_OF_COMBAT, pb.STEP_POSTCOMBAT_MAIN,
        pb.STEP_END)


def _priority(*options: pb.Action) -> pb.Decision:
    return pb.Decision(prompt_id=1, seat=ANN, kind=pb.DECISION_KIND_PRIORITY, options=options)


def _attacker(attacking: int, walker: str = "") -> pb.GameObject:
    obj = pb.GameObject(id="b1", name="Grizzly Bears", card_types=["Creature"], owner=BOB,
                        controller=BOB, attacking=attacking)
    if walker:
        obj.attacking_planeswalker = walker
    return obj


def test_the_decision_function_passes_where_a_player_seldom_acts() -> None:
    def passes(step: int, active: int = BOB, *, stack: tuple[str, ...] = (),
               objects: tuple[pb.GameObject, ...] = (), mode: str = AUTO,
               decision: pb.Decision | None = None) -> bool:
        header = pb.GameHeader(turn=4, active_seat=active, step=step)  # type: ignore[arg-type]
        return auto_passes(mode, decision or _priority(PASS, SHOCK), header, ANN, stack=stack,
                           objects=objects)

    # The opponent's turn: passed in upkeep, draw, main phases, combat's beginning and
    # end; the end step stops (the moment for an instant).
    assert [passes(s) for s in TURN] == [True, True, True, True, True, True, True, False]
    # Your own turn: your main phases and end step... the main phases stop, the end passes.
    assert [passes(s, ANN) for s in TURN] == [True, True, False, True, True, True, False,
                                               True]
    # Anything on the stack stops, in any step.
    assert not any(passes(s, stack=("s9",)) for s in TURN)
    assert not passes(pb.STEP_UPKEEP, ANN, stack=("mine",))
    # A combat you are in stops: attacked, your planeswalker attacked, or you attack.
    for step in (pb.STEP_DECLARE_ATTACKERS, pb.STEP_DECLARE_BLOCKERS):
        assert not passes(step, objects=(_attacker(ANN),))
        walker = pb.GameObject(id="w1", name="Chandra", controller=ANN, owner=ANN)
        assert not passes(step, objects=(walker, _attacker(ANN, "w1")))
        mine = pb.GameObject(id="m1", name="Bear", controller=ANN, owner=ANN, attacking=BOB)
        assert not passes(step, ANN, objects=(mine,))
        assert passes(step, objects=(_attacker(2),))  # (Bob attacks Cid: not Ann's combat)
        assert passes(step)  # nobody attacks
    assert passes(pb.STEP_COMBAT_DAMAGE, objects=(_attacker(ANN),))
    # Full control: never. A decision that isn't plain priority with a pass: never.
    assert not any(passes(s, mode=FULL) for s in TURN)
    assert not passes(pb.STEP_UPKEEP, decision=_priority(SHOCK))
    assert not passes(pb.STEP_UPKEEP, decision=pb.Decision(
        kind=pb.DECISION_KIND_DECLARE_BLOCKERS, options=[NO_BLOCKS]))
    assert not passes(pb.STEP_UPKEEP, decision=pb.Decision(
        kind=pb.DECISION_KIND_CHOOSE_TARGET, options=[PASS]))
    # Mana in the player's pool (made for something): never passed away (106.4).
    header = pb.GameHeader(turn=4, active_seat=BOB, step=pb.STEP_UPKEEP)
    assert not auto_passes(AUTO, _priority(PASS, SHOCK), header, ANN, stack=(), objects=(),
                           pool=pb.ManaPool(red=1))
    assert auto_passes(AUTO, _priority(PASS, SHOCK), header, ANN, stack=(), objects=(),
                       pool=pb.ManaPool())


class TurnClient(StubClient):
    """A stub client whose decisions each come in a step of Bob's turn (the header's step
    and the battlefield are set as each decision arrives, as a delta would)."""

    def __init__(self, mirror: Mirror,
                 steps: list[tuple[int, pb.Decision, list[pb.GameObject]]]) -> None:
        messages: list[mpb.ServerMessage | BaseException] = []
        for n, (_step, decision, _objects) in enumerate(steps):
            decision.prompt_id = 10 + n
            messages.append(mpb.ServerMessage(decision=decision))
        super().__init__(messages)
        self.mirror, self.steps = mirror, list(steps)

    async def next_message(self) -> mpb.ServerMessage:
        if self.messages and self.steps:
            step, _decision, objects = self.steps.pop(0)
            self.mirror.header.step = step  # type: ignore[assignment]
            for obj in objects:
                self.mirror.objects[obj.id] = obj
        return await super().next_message()


def _session(mirror: Mirror, client: StubClient) -> tuple[Board, Session]:
    board = Board(mirror, seat=ANN, room=mpb.RoomInfo(room_id="r1"))
    session = Session(cast(Client, client), board, cast(Screen, None),
                      cast(Keyboard, NoKeys()), player=True)
    return board, session


def _mirror() -> Mirror:
    shock = pb.GameObject(id="h1", name="Shock", card_types=["Instant"], owner=ANN,
                          controller=ANN, mana_cost="{R}")
    view = pb.View(viewer=ANN, header=pb.GameHeader(turn=4, active_seat=BOB),
                   players=[pb.Player(seat=ANN, name="Ann"), pb.Player(seat=BOB, name="Bob")],
                   objects=[shock], zones=[pb.ZoneContents(
                       zone=pb.ZoneRef(kind=pb.ZONE_KIND_HAND, owner=ANN), object_ids=["h1"])])
    mirror = Mirror()
    mirror.load_snapshot(pb.Snapshot(room_id="r1", state_id=5, view=view,
                                     view_hash=view_hash(view)))
    return mirror


async def _stops_in_bobs_turn(mode: str, *, attacked: bool = False) -> tuple[int, StubClient]:
    """Play Bob's turn through a session holding Shock; the stops (decisions the client
    didn't pass by itself)."""
    mirror = _mirror()
    steps: list[tuple[int, pb.Decision, list[pb.GameObject]]] = []
    for step in TURN:
        attackers = [_attacker(ANN)] if attacked and step == pb.STEP_DECLARE_ATTACKERS else []
        steps.append((step, _priority(PASS, SHOCK), attackers))
        if attackers:
            steps.append((pb.STEP_DECLARE_BLOCKERS, pb.Decision(
                seat=ANN, kind=pb.DECISION_KIND_DECLARE_BLOCKERS, options=[BLOCK, NO_BLOCKS]),
                []))
            steps.append((pb.STEP_DECLARE_BLOCKERS, _priority(PASS, SHOCK), []))
            steps.append((pb.STEP_COMBAT_DAMAGE, _priority(PASS, SHOCK), []))
    client = TurnClient(mirror, steps)
    _board, session = _session(mirror, client)
    session.stops = mode
    with trio.move_on_after(1):
        await session._receive(None, trio.CancelScope())
    return len(steps) - len(client.acted), client


async def test_holding_an_instant_through_an_opponents_turn_stops_at_its_end_step_only(
        autojump_clock: trio.testing.MockClock) -> None:
    stops, client = await _stops_in_bobs_turn(AUTO)
    assert stops == 1  # the end step (there were 8 priorities)
    assert all(index == 0 for _prompt, index in client.acted)  # (each time: pass)
    stops, _client = await _stops_in_bobs_turn(FULL)
    assert stops == len(TURN)
    # Attacked: the declare attackers step, the blockers to declare and the declare
    # blockers step stop too (the damage step passes).
    stops, client = await _stops_in_bobs_turn(AUTO, attacked=True)
    assert stops == 4
    assert 15 not in [prompt for prompt, _index in client.acted]  # (the blockers: asked)


async def test_full_toggles_full_control_for_the_next_games_and_stops_says_the_setting(
        autojump_clock: trio.testing.MockClock, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(saved.STATE_ENV, str(tmp_path))
    mirror = _mirror()
    client = StubClient([])
    board, session = _session(mirror, client)
    session.save_stops = lambda mode: saved.save_setting(STOPS_SETTING, mode)
    session._sync()
    assert "full: stop at every step" in frame_text(board, now=0.0)
    await session._command("stops")
    assert board.notice.startswith("Usual stops: with nothing on the stack the client passes")
    await session._command("full")
    assert session.stops == FULL and board.notice.startswith("Full control:")
    assert saved.load_setting(STOPS_SETTING, AUTO) == FULL  # (the next run starts so)
    assert (tmp_path / saved.SETTINGS_FILE).stat().st_mode & 0o777 == 0o600
    session._sync()
    assert "full: back to the usual stops" in frame_text(board, now=0.0)
    await session._command("full")
    assert session.stops == AUTO and saved.load_setting(STOPS_SETTING, FULL) == AUTO
    # Unsaved (a file that can't be written): kept for this run, and said.
    (tmp_path / saved.SETTINGS_FILE).write_text("[]", encoding="utf-8")
    await session._command("full")
    assert session.stops == FULL and "Kept for this run only" in board.notice
