"""The terminal marks a combat's two combat damage steps (rule 510.4) from the step the server
names (``GameHeader.combat_damage_step``), and shows a permanent that doesn't untap during its
controller's next untap step (rule 502.3, Frost Breath: ``GameObject.doesnt_untap``) -- public
information the view carries now, so the board no longer guesses the one and can say the
other. Through real games' deltas (server.view.pipeline), as tests/terminal/test_log_parity.py."""

from __future__ import annotations

from collections.abc import Callable

from client_sdk.board import Board, permanent_text
from client_sdk.describe import (
    FIRST_STRIKE_DAMAGE_TEXT,
    REGULAR_DAMAGE_TEXT,
    combat_damage_marker,
    damage_step_of,
)
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.engine import Action, Zone, apply
from server.engine.actions import (
    CastSpell,
    ChooseTarget,
    DeclareAttacker,
    DeclareBlocker,
    FinishAttackers,
    FinishBlockers,
    PassPriority,
    PayAutomatically,
)
from server.engine.state import DecisionKind, Step
from server.engine.zones import move
from tests.engine.helpers import demo_game, pass_until, put, refresh
from tests.terminal.test_log_parity import _fight, _main_phase
from tests.terminal.test_player_text import Watched


def test_510_4_no_first_strike_damage_dealt_still_marks_both_steps_before_the_right_damage(
        ) -> None:
    """A double striker blocked, its blocker gone before damage: blocked, it deals none
    (510.1c) -- the other attacker's damage is the regular step's. Counting damage batches
    marked that damage "First-strike"."""
    game = _main_phase()
    me = game.active
    striker = put(game, me, "Siege Striker", Zone.BATTLEFIELD)
    mine = put(game, me, "Walking Corpse", Zone.BATTLEFIELD)
    theirs = put(game, 1 - me, "Walking Corpse", Zone.BATTLEFIELD)
    refresh(game)
    watched = Watched(game, me)
    for _ in range(100):
        pending = game.pending
        assert pending is not None
        if game.step is Step.DECLARE_BLOCKERS and pending.kind is DecisionKind.PRIORITY:
            move(game, theirs.id, Zone.GRAVEYARD, [])  # the blocker leaves
            refresh(game)
            break
        pick = next((o for o in pending.options if (
            isinstance(o, DeclareAttacker) and o.object_id in (striker.id, mine.id)) or (
            isinstance(o, DeclareBlocker) and o.object_id == theirs.id
            and o.attacker_id == striker.id)), None)
        watched.act(pending.seat, pick or next(
            c for c in (FinishAttackers(), FinishBlockers(), PassPriority())
            if c in pending.options))
    _fight(game, watched, striker, None)
    lines = watched.lines
    first, regular = lines.index(FIRST_STRIKE_DAMAGE_TEXT), lines.index(REGULAR_DAMAGE_TEXT)
    assert regular == first + 1, lines  # no first-strike damage
    assert lines[regular + 1].startswith("Walking Corpse dealt 2 damage to "), lines
    assert lines.count(FIRST_STRIKE_DAMAGE_TEXT) == lines.count(REGULAR_DAMAGE_TEXT) == 1


def test_510_4_a_combat_without_a_first_striker_is_not_marked() -> None:
    game = _main_phase()
    me = game.active
    mine = put(game, me, "Walking Corpse", Zone.BATTLEFIELD)
    refresh(game)
    watched = Watched(game, me)
    _fight(game, watched, mine, None)
    assert any("Walking Corpse dealt 2 damage" in line for line in watched.lines)
    assert FIRST_STRIKE_DAMAGE_TEXT not in watched.lines
    assert REGULAR_DAMAGE_TEXT not in watched.lines


def test_510_4_the_marker_comes_from_the_headers_step_alone() -> None:
    header = pb.GameHeader(step=pb.STEP_COMBAT_DAMAGE,
                           combat_damage_step=pb.COMBAT_DAMAGE_STEP_FIRST_STRIKE)
    assert damage_step_of(header) == pb.COMBAT_DAMAGE_STEP_FIRST_STRIKE
    assert combat_damage_marker(pb.COMBAT_DAMAGE_STEP_UNSPECIFIED,
                                damage_step_of(header)) == FIRST_STRIKE_DAMAGE_TEXT
    assert combat_damage_marker(pb.COMBAT_DAMAGE_STEP_FIRST_STRIKE,
                                pb.COMBAT_DAMAGE_STEP_REGULAR) == REGULAR_DAMAGE_TEXT
    assert combat_damage_marker(pb.COMBAT_DAMAGE_STEP_FIRST_STRIKE,
                                pb.COMBAT_DAMAGE_STEP_FIRST_STRIKE) == ""
    assert combat_damage_marker(pb.COMBAT_DAMAGE_STEP_UNSPECIFIED,
                                pb.COMBAT_DAMAGE_STEP_ONLY) == ""
    # An older server names no step: nothing is guessed.
    assert combat_damage_marker(pb.COMBAT_DAMAGE_STEP_UNSPECIFIED,
                                pb.COMBAT_DAMAGE_STEP_UNSPECIFIED) == ""
    header.step = pb.STEP_END_OF_COMBAT
    assert damage_step_of(header) == pb.COMBAT_DAMAGE_STEP_UNSPECIFIED


def test_502_3_a_permanent_that_doesnt_untap_says_so() -> None:
    corpse = pb.GameObject(id="c1", name="Walking Corpse", card_types=["Creature"],
                           zone=pb.ZoneRef(kind=pb.ZONE_KIND_BATTLEFIELD, owner=-1),
                           tapped=True, doesnt_untap=True)
    board = Board(seat=0)
    assert permanent_text(board, corpse) == "Walking Corpse (tapped, doesn't untap next turn)"
    corpse.doesnt_untap = False
    assert permanent_text(board, corpse) == "Walking Corpse (tapped)"


def test_502_3_frost_breath_shows_until_the_untap_step_it_skips() -> None:
    """Frost Breath taps two creatures that don't untap during their controller's next untap
    step: both boards say so from the delta it resolves in, and the words go as that untap
    step passes (the creatures stay tapped through it)."""
    game = demo_game()
    pass_until(game, Step.PRECOMBAT_MAIN, turn=1)
    me = game.active
    mine = put(game, me, "Walking Corpse", Zone.BATTLEFIELD)
    theirs = put(game, 1 - me, "Walking Corpse", Zone.BATTLEFIELD)
    frost = put(game, me, "Frost Breath", Zone.HAND)
    for _ in range(3):
        put(game, me, "Island", Zone.BATTLEFIELD)
    refresh(game)
    boards = {seat: Watched(game, seat) for seat in (me, 1 - me)}

    def answer(pick: Callable[[Action], bool]) -> None:
        """One action applied; both boards absorb its deltas (each seat's own pipeline)."""
        pending = game.pending
        assert pending is not None
        action = next(o for o in pending.options if pick(o))
        events = apply(game, pending.seat, action)
        for watched in boards.values():
            for _viewer, _prev, data in watched.pipeline.advance(game, action, events):
                msg = mpb.ServerMessage.FromString(data)
                watched.board.mirror.apply_delta(msg.delta)
                watched.board.absorb(msg, now=1.0)

    answer(lambda o: o == CastSpell(frost.id))
    answer(lambda o: isinstance(o, ChooseTarget) and o.object_id == theirs.id)
    answer(lambda o: isinstance(o, ChooseTarget) and o.object_id == mine.id)
    answer(lambda o: isinstance(o, PayAutomatically))
    answer(lambda o: isinstance(o, PassPriority))
    answer(lambda o: isinstance(o, PassPriority))
    assert game.objects[theirs.id].skip_next_untap
    for watched in boards.values():
        mirror = watched.board.mirror
        for oid in (mine.id, theirs.id):
            text = permanent_text(watched.board, mirror.objects[oid])
            assert "(tapped, doesn't untap next turn" in text, text
    # On to the other player's turn: their Corpse stays tapped through the untap step, and
    # no longer says it won't untap; mine still does (my next untap step is to come).
    for _ in range(200):
        if game.turn == 2 and game.step is not Step.UNTAP:
            break
        answer(lambda o: isinstance(o, PassPriority | FinishAttackers | FinishBlockers))
    assert game.turn == 2
    for watched in boards.values():
        mirror = watched.board.mirror
        text = permanent_text(watched.board, mirror.objects[theirs.id])
        assert "tapped" in text and "doesn't untap" not in text, text
        text = permanent_text(watched.board, mirror.objects[mine.id])
        assert "(tapped, doesn't untap next turn" in text, text
