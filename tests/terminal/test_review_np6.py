"""What a new player's review of the terminal found (np6), each fixed the way a player
expects:

1. a cost the pool pays exactly after the player tapped a source for it is paid, not asked
   again ("your mana pool covers it -- choose the mana to spend", one way to pay);
2. Cancel (taking a cast back) is on ``c``, never a number a land had a moment before;
3. same-named creatures of two players say whose they are, in the log and the options;
4. a pump wearing off at the cleanup reads as such, not as a -4/-4 effect;
5. notices go when they stop being true;
6. leaving a match says its final score;
7. your own card returns "to your hand" (tests/terminal/test_board.py).
"""

from __future__ import annotations

from typing import cast

import trio
import trio.testing

from client_sdk.board import Board, frame_text
from client_sdk.describe import event_text, option_text, pool_pays_exactly, shown_options
from client_sdk.mirror import Mirror
from client_sdk.stops import FULL
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from protocol.viewhash import view_hash
from server.engine.actions import (
    FinishAttackers,
    FinishBlockers,
    PassPriority,
)
from tests.terminal.test_player_text import titanic_growth_resolved
from tests.terminal.test_session_receive import NoKeys, _priority, _received

PASS = pb.Action(pass_priority=pb.PassPriority())
AUTO = pb.Action(pay_automatically=pb.PayAutomatically())
CANCEL = pb.Action(cancel_cast=pb.CancelCast())
DECLINE = pb.Action(decline=pb.Decline())
TAP_FOREST = pb.Action(activate_mana_ability=pb.ActivateManaAbility(object_id="f1", mana="G"))
TAP_HOLLOW = pb.Action(activate_mana_ability=pb.ActivateManaAbility(object_id="g1", mana="B"))


def _pay(prompt_id: int, *options: pb.Action, state_id: int = 0) -> mpb.ServerMessage:
    return mpb.ServerMessage(decision=pb.Decision(
        prompt_id=prompt_id, seat=0, kind=pb.DECISION_KIND_PAY_MANA, options=options,
        state_id=state_id, prompt="Giant Growth: Pay {G}"))


def _pays(mana: str) -> pb.Action:
    return pb.Action(pay_mana=pb.PayMana(mana=mana))


async def test_a_cost_the_pool_pays_exactly_after_a_tap_for_it_is_paid_without_asking(
        autojump_clock: trio.testing.MockClock) -> None:
    """Tapped a Forest by hand for a {G} cost, the player was asked again "your mana pool
    covers it -- choose the mana to spend": 1. Pay automatically, 2. Tap ..., 3. Pay {G},
    4. Cancel. Once the pool pays it exactly in one way, it is paid (as the web client)."""
    client, board, session = await _received([_pay(4, AUTO, TAP_FOREST, TAP_HOLLOW, CANCEL)])
    await session._command("2")  # tap the Forest
    assert client.acted == [(4, 1)]
    board.mirror.players[0].mana_pool.green = 1
    client.messages.append(_pay(5, AUTO, TAP_HOLLOW, _pays("G"), CANCEL,
                                state_id=board.mirror.state_id))
    with trio.move_on_after(1):
        await session._receive(None, trio.CancelScope())
    assert client.acted == [(4, 1), (5, 2)]  # paid by itself


async def test_the_pool_is_not_spent_for_the_player_unless_all_of_it_was_tapped_for_this(
        autojump_clock: trio.testing.MockClock) -> None:
    """Never mana that was in the pool before the tap, never a cost the player may decline
    (an "unless" cost), never without a tap for it, never two ways to pay."""
    async def asked(before: int, tap: bool, *options: pb.Action) -> list[tuple[int, int]]:
        client, board, session = await _received([_pay(4, AUTO, TAP_FOREST, CANCEL)])
        board.mirror.players[0].mana_pool.black = before
        await session._command("2" if tap else "1")
        board.mirror.players[0].mana_pool.green = 1
        client.my_decision = None
        client.messages.append(_pay(5, *options))
        with trio.move_on_after(1):
            await session._receive(None, trio.CancelScope())
        return client.acted

    # ({B} floating before the Forest was tapped: paying {B}{G} spends it.)
    assert await asked(1, True, AUTO, _pays("BG"), CANCEL) == [(4, 1)]
    assert await asked(0, True, AUTO, _pays("G"), DECLINE) == [(4, 1)]
    assert await asked(0, False, AUTO, _pays("G"), CANCEL) == [(4, 0)]
    assert await asked(0, True, AUTO, _pays("G"), _pays("G"), CANCEL) == [(4, 1)]
    assert await asked(0, True, AUTO, _pays("G"), CANCEL) == [(4, 1), (5, 1)]
    pool = pb.ManaPool(green=1)
    paying = pb.Decision(kind=pb.DECISION_KIND_PAY_MANA, options=[AUTO, _pays("G")])
    assert pool_pays_exactly(paying, pool) == 1
    assert pool_pays_exactly(paying, pb.ManaPool(green=2)) is None


async def test_taps_one_after_another_for_one_cost_then_the_pool_pays_it(
        autojump_clock: trio.testing.MockClock) -> None:
    client, board, session = await _received([_pay(4, AUTO, TAP_FOREST, TAP_HOLLOW, CANCEL)])
    await session._command("2")
    board.mirror.players[0].mana_pool.green = 1
    client.messages.append(_pay(5, AUTO, TAP_HOLLOW, CANCEL))  # {1}{G}: one more to add
    with trio.move_on_after(1):
        await session._receive(None, trio.CancelScope())
    await session._command("2")
    board.mirror.players[0].mana_pool.black = 1
    client.messages.append(_pay(6, AUTO, _pays("BG"), CANCEL))
    with trio.move_on_after(1):
        await session._receive(None, trio.CancelScope())
    assert client.acted == [(4, 1), (5, 1), (6, 1)]


async def test_cancel_is_c_and_never_takes_the_number_a_land_had(
        autojump_clock: trio.testing.MockClock) -> None:
    """``2 Tap Mountain · 3 Tap Forest · 4 Cancel``: the player typed 2, then 3 for the
    Forest -- but the list had become ``2 Tap Forest · 3 Cancel``: the cast was taken back
    with {R} floating. Cancel is ``c``, shown as such and in the keys' line; the numbers
    are the options to pay with only."""
    client, board, session = await _received([_pay(4, AUTO, TAP_FOREST, TAP_HOLLOW, CANCEL)])
    assert [(n, i) for n, i, _label in board.numbered_options] == [(1, 0), (2, 1), (3, 2)]
    screen = " ".join(frame_text(board, now=0.0).split())
    assert "c. Cancel: take it back (nothing is paid)" in screen
    assert "c: cancel (take the cast back)" in screen
    assert "4. Cancel" not in screen
    await session._command("2")
    client.messages.append(_pay(5, AUTO, TAP_HOLLOW, CANCEL))
    with trio.move_on_after(1):
        await session._receive(None, trio.CancelScope())
    cast(NoKeys, session.keyboard).line_mark = (5, 0.0)
    await session._command("3")  # (meant for the land the list had as 3)
    assert client.acted == [(4, 1)]
    assert board.notice == "Type a number from 1 to 2, c to cancel or q to quit (not '3')."
    await session._command("c")
    assert client.acted == [(4, 1), (5, 2)]


async def test_choosing_x_cancel_is_no_x_value(autojump_clock: trio.testing.MockClock) -> None:
    """Choosing X each option's number is X's value: Cancel is ``c``, never 0 with X = 0."""
    xs = [pb.Action(choose_x=pb.ChooseX(value=v)) for v in range(3)]
    _client, board, _session = await _received([mpb.ServerMessage(decision=pb.Decision(
        prompt_id=4, seat=0, kind=pb.DECISION_KIND_CHOOSE_X, options=[*xs, CANCEL]))])
    assert [(n, i) for n, i, _label in board.numbered_options] == [(0, 0), (1, 1), (2, 2)]


def _twins() -> Board:
    """Ann (the viewer) and Bob each have a Llanowar Visionary; Bob's attacks."""
    objects = [
        pb.GameObject(id="v1", name="Llanowar Visionary", card_types=["Creature"], owner=0,
                      controller=0, power=2, toughness=2,
                      zone=pb.ZoneRef(kind=pb.ZONE_KIND_BATTLEFIELD, owner=-1)),
        pb.GameObject(id="v2", name="Llanowar Visionary", card_types=["Creature"], owner=1,
                      controller=1, power=2, toughness=2, tapped=True, attacking=0,
                      zone=pb.ZoneRef(kind=pb.ZONE_KIND_BATTLEFIELD, owner=-1)),
        pb.GameObject(id="b1", name="Grizzly Bears", card_types=["Creature"], owner=1,
                      controller=1, power=2, toughness=2,
                      zone=pb.ZoneRef(kind=pb.ZONE_KIND_BATTLEFIELD, owner=-1)),
    ]
    view = pb.View(viewer=0, header=pb.GameHeader(turn=3, active_seat=1),
                   players=[pb.Player(seat=0, name="Ann"), pb.Player(seat=1, name="Bob")],
                   objects=objects, zones=[pb.ZoneContents(
                       zone=pb.ZoneRef(kind=pb.ZONE_KIND_BATTLEFIELD, owner=-1),
                       object_ids=[o.id for o in objects])])
    mirror = Mirror()
    mirror.load_snapshot(pb.Snapshot(room_id="r1", state_id=5, view=view,
                                     view_hash=view_hash(view)))
    board = Board(mirror, seat=0, room=mpb.RoomInfo(room_id="r1"))
    board.absorb(mpb.ServerMessage(snapshot=pb.Snapshot(view=view)), now=0.0)
    return board


def test_same_named_creatures_of_two_players_say_whose_they_are() -> None:
    """"Llanowar Visionary blocks Llanowar Visionary", "Llanowar Visionary dealt 2 damage to
    Llanowar Visionary", "Block Llanowar Visionary with Llanowar Visionary": whose is
    which? Said when both players have one of that name (as the web client)."""
    board = _twins()
    blocks = pb.GameEvent(blockers_declared=pb.BlockersDeclaredEvent(
        blocks=[pb.BlockPair(blocker_id="v1", attacker_id="v2")]))
    assert event_text(board, blocks) == \
        "Blocks: Llanowar Visionary (yours) blocks Llanowar Visionary (Bob's)"
    damage = pb.GameEvent(damage=pb.DamageEvent(source_id="v2", amount=2, object_id="v1"))
    assert event_text(board, damage) == \
        "Llanowar Visionary (Bob's) dealt 2 damage to Llanowar Visionary (yours)"
    block = pb.Action(declare_blocker=pb.DeclareBlocker(object_id="v1", attacker_id="v2"))
    assert option_text(board, block) == \
        "Block Llanowar Visionary (Bob's) with Llanowar Visionary (yours)"
    assert shown_options(board, [block], board.mirror.objects.values())[0][1] == \
        "Block Llanowar Visionary (Bob's) with Llanowar Visionary (yours)"
    # A name only one player has: as it was.
    bears = pb.GameEvent(damage=pb.DamageEvent(source_id="b1", amount=2, player=0))
    assert event_text(board, bears) == "Grizzly Bears dealt 2 damage to you"


def test_a_pump_wearing_off_at_the_cleanup_is_said_as_such() -> None:
    """At the cleanup the terminal said "your Walking Corpse is now 2/2 (-4/-4)": read as a
    -4/-4 effect. Titanic Growth's +4/+4 ending (514.2) says it ended."""
    watched = titanic_growth_resolved()
    game = watched.game
    assert "your Walking Corpse is now 6/6 (was 2/2)" in watched.lines
    for _ in range(100):
        if game.turn != 1:
            break
        pending = game.pending
        assert pending is not None
        choice = next((o for o in pending.options if o in (
            PassPriority(), FinishAttackers(), FinishBlockers())), pending.options[0])
        watched.act(pending.seat, choice)
    assert "your Walking Corpse is 2/2 again (the +4/+4 ended)" in watched.lines, watched.lines
    assert not any("(-4/-4)" in line for line in watched.lines)


async def test_pp_notices_go_when_they_stop_being_true(
        autojump_clock: trio.testing.MockClock) -> None:
    """"The turn is over: pp no longer passes for you." stayed through the next turn's
    decisions, and "You pass priority until the turn ends..." through the sideboarding."""
    client, board, session = await _received([_priority(4, PASS)])
    session.stops = FULL  # (every priority asked: what pp does is seen)
    await session._command("pp")
    assert board.notice.startswith("You pass priority until the turn ends")
    board.mirror.header.turn += 1

    async def receive(*messages: mpb.ServerMessage) -> None:
        client.messages.extend(messages)
        with trio.move_on_after(1):
            await session._receive(None, trio.CancelScope())

    await receive(_priority(5, PASS))
    assert board.notice == "The turn is over: pp no longer passes for you."
    await receive(_priority(6, PASS))
    assert board.notice == ""  # (said with decision 5; 6 is another)
    await session._command("pp")
    assert board.notice.startswith("You pass priority until the turn ends")
    board.mirror.header.result.winners.append(1)  # the game ends: sideboarding
    session._sync()
    assert board.notice == ""


async def test_leaving_a_match_says_its_final_score(
        autojump_clock: trio.testing.MockClock) -> None:
    """After ``q q`` in a match: only "You left the match: you conceded it." The game being
    played is the opponent's (104.3a), and the match's score says so."""
    client, _board, session = await _received([_priority(4, PASS)])
    client.match = mpb.MatchState(best_of=3, game_number=3, wins=[1, 1],
                                  phase=mpb.MATCH_PHASE_PLAYING)
    client.room_id = None  # type: ignore[assignment]  # (nothing to send)
    assert await session._command("q") is None
    outcome = await session._command("q")
    assert outcome is not None
    assert outcome.line == ("You left the match: you conceded it. Final score: you 1 "
                            "\N{EN DASH} Bob 2.")
