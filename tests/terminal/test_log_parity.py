"""The terminal's game log says what the web client's does (web/src/app.ts, a new player's
review): a declaration of no blockers ("Bob didn't block", rule 509.1), a permanent a
resolving spell tapped ("... became tapped", 701.26a -- not the lands tapped for mana, nor an
attack's tapping), and the two combat damage steps of a combat with a first or double
striker (510.4) -- which step, the view's header says (GameHeader.combat_damage_step); and
a player who left said plainly (104.3a). Worked out, as the web client does, from a real
game's deltas (server.view.pipeline: the engine, projected for one seat)."""

from __future__ import annotations

from collections.abc import Callable

from client_sdk.describe import (
    FIRST_STRIKE_DAMAGE_TEXT,
    NO_BLOCKERS_TEXT,
    REGULAR_DAMAGE_TEXT,
    lost_text,
    result_text,
)
from protocol.v1 import game_pb2 as pb
from server.engine import Game, Zone
from server.engine.actions import (
    Action,
    CastSpell,
    ChooseTarget,
    DeclareAttacker,
    DeclareBlocker,
    FinishAttackers,
    FinishBlockers,
    PassPriority,
    PayAutomatically,
)
from server.engine.state import DecisionKind, GameObject, Step
from tests.engine.helpers import demo_game, pass_until, put, refresh
from tests.terminal.test_player_text import Watched


def _main_phase() -> Game:
    """A started game in its first turn's precombat main phase."""
    game = demo_game()
    pass_until(game, Step.PRECOMBAT_MAIN, turn=1)
    return game


def _fight(game: Game, watched: Watched, attacker: GameObject, blocker: GameObject | None,
           *, before_blockers: Callable[[], None] | None = None) -> None:
    """``attacker`` attacks; ``blocker`` (if any) blocks it, else no block is declared; every
    player passes until the turn is over. ``before_blockers``: run as the defending player
    is asked to declare blockers (the terminal answering for its player)."""
    for _ in range(200):
        pending = game.pending
        if pending is None or game.turn != 1:
            return
        if pending.kind is DecisionKind.DECLARE_BLOCKERS and before_blockers is not None:
            before_blockers()
            before_blockers = None
        pick: Action | None = next((o for o in pending.options if (
            isinstance(o, DeclareAttacker) and o.object_id == attacker.id) or (
            isinstance(o, DeclareBlocker) and blocker is not None
            and o.object_id == blocker.id)), None)
        if pick is None:
            pick = next(c for c in (FinishAttackers(), FinishBlockers(), PassPriority())
                        if c in pending.options)
        watched.act(pending.seat, pick)


def test_509_1_no_block_declared_is_said_to_both_players() -> None:
    """A declaration of blockers answered with none said nothing (the game tells blocks, and
    nothing when there are none): "Bob didn't block" in the attacker's log, "you didn't
    block" in the defender's -- after the attack, before the damage. An attack's tapping
    (508.1f) is no "became tapped", and a combat without a first striker no damage steps."""
    for viewer_attacks in (True, False):
        game = _main_phase()
        me = game.active
        corpse = put(game, me, "Walking Corpse", Zone.BATTLEFIELD)
        put(game, 1 - me, "Walking Corpse", Zone.BATTLEFIELD)  # (could block: doesn't)
        refresh(game)
        watched = Watched(game, me if viewer_attacks else 1 - me)
        _fight(game, watched, corpse, None)
        lines = watched.lines
        said = f"{game.players[1 - me].name} didn't block" if viewer_attacks \
            else "you didn't block"
        assert said in lines, lines
        at = lines.index(said)
        assert lines[at - 1].startswith("Attacking "), lines
        assert "dealt 2 damage to" in lines[at + 1], lines
        assert not any("became tapped" in line for line in lines), lines
        assert FIRST_STRIKE_DAMAGE_TEXT not in lines and REGULAR_DAMAGE_TEXT not in lines


def test_509_1_a_block_declared_is_no_didnt_block() -> None:
    """A block declared is told ("Blocks: ..."), and no "didn't block" besides."""
    game = _main_phase()
    me = game.active
    corpse = put(game, me, "Walking Corpse", Zone.BATTLEFIELD)
    theirs = put(game, 1 - me, "Walking Corpse", Zone.BATTLEFIELD)
    refresh(game)
    watched = Watched(game, me)
    _fight(game, watched, corpse, theirs)
    assert any(line.startswith("Blocks: ") for line in watched.lines), watched.lines
    assert not any("didn't block" in line for line in watched.lines), watched.lines


def test_509_1a_none_can_block_is_said_once() -> None:
    """The terminal answers a declaration of blockers none of its player's creatures can
    make itself, logging :data:`NO_BLOCKERS_TEXT` (client_sdk.terminal): no "you didn't
    block" after it -- as the web client says it once."""
    game = _main_phase()
    me = game.active
    corpse = put(game, me, "Walking Corpse", Zone.BATTLEFIELD)
    refresh(game)
    watched = Watched(game, 1 - me)  # (no creature to block with)

    def terminal_answers() -> None:
        assert watched.board.mirror.header.pending.kind == pb.DECISION_KIND_DECLARE_BLOCKERS
        watched.board.add_event(NO_BLOCKERS_TEXT)

    _fight(game, watched, corpse, None, before_blockers=terminal_answers)
    assert NO_BLOCKERS_TEXT in watched.lines, watched.lines
    assert "you didn't block" not in watched.lines, watched.lines


def test_frost_breath_tapping_is_said_and_lands_tapped_for_mana_are_not() -> None:
    """Frost Breath resolving tapped two creatures and the log said nothing: "your Walking
    Corpse became tapped", "Bob's Walking Corpse became tapped" (608.2, 701.26a) -- but not
    the Islands tapped to pay for it (the web client's rule: only in a delta in which
    something left the stack)."""
    game = _main_phase()
    me = game.active
    mine = put(game, me, "Walking Corpse", Zone.BATTLEFIELD)
    theirs = put(game, 1 - me, "Walking Corpse", Zone.BATTLEFIELD)
    frost = put(game, me, "Frost Breath", Zone.HAND)
    for _ in range(3):
        put(game, me, "Island", Zone.BATTLEFIELD)
    refresh(game)
    watched = Watched(game, 1 - me)
    watched.answer(lambda o: o == CastSpell(frost.id))
    watched.answer(lambda o: isinstance(o, ChooseTarget) and o.object_id == theirs.id)
    watched.answer(lambda o: isinstance(o, ChooseTarget) and o.object_id == mine.id)
    watched.answer(lambda o: isinstance(o, PayAutomatically))
    assert not any("became tapped" in line for line in watched.lines), watched.lines
    watched.answer(lambda o: isinstance(o, PassPriority))
    watched.answer(lambda o: isinstance(o, PassPriority))
    caster = game.players[me].name
    lines = watched.lines
    # Before Frost Breath goes to the graveyard, the last step of its resolving (608.2n).
    assert sorted(lines[-3:-1]) == [f"{caster}'s Walking Corpse became tapped",
                                    "your Walking Corpse became tapped"], lines
    assert lines[-1] == f"{caster}'s Frost Breath moved from the stack to their graveyard"
    assert not any("Island" in line for line in lines), lines


def test_510_4_a_first_strikers_combat_marks_its_two_damage_steps() -> None:
    """A double striker blocked: its first-strike damage and then the regular damage (its
    own and the blocker's) ran together in the log. The view's header says which combat
    damage step it is (GameHeader.combat_damage_step): each step is marked before its
    damage."""
    game = _main_phase()
    me = game.active
    striker = put(game, me, "Siege Striker", Zone.BATTLEFIELD)
    corpse = put(game, 1 - me, "Walking Corpse", Zone.BATTLEFIELD)
    refresh(game)
    watched = Watched(game, me)
    _fight(game, watched, striker, corpse)
    lines = watched.lines
    assert FIRST_STRIKE_DAMAGE_TEXT in lines and REGULAR_DAMAGE_TEXT in lines, lines
    first, regular = lines.index(FIRST_STRIKE_DAMAGE_TEXT), lines.index(REGULAR_DAMAGE_TEXT)
    assert lines[first + 1:regular] == ["Siege Striker dealt 1 damage to Walking Corpse"]
    assert lines[regular + 1:regular + 3] == [
        "Siege Striker dealt 1 damage to Walking Corpse",
        "Walking Corpse dealt 2 damage to Siege Striker"], lines
    assert lines.count(FIRST_STRIKE_DAMAGE_TEXT) == 1 and lines.count(REGULAR_DAMAGE_TEXT) == 1


def test_510_4_a_board_begun_between_the_two_damage_steps_marks_the_regular_one() -> None:
    """A terminal back (a snapshot) after the first-strike damage: the header says the
    regular step, and the next damage is marked as the regular step's, not the first-strike
    one."""
    game = _main_phase()
    me = game.active
    striker = put(game, me, "Siege Striker", Zone.BATTLEFIELD)
    corpse = put(game, 1 - me, "Walking Corpse", Zone.BATTLEFIELD)
    refresh(game)
    early = Watched(game, me)
    for _ in range(100):  # until the first-strike damage is dealt
        if game.step is Step.COMBAT_DAMAGE:
            break
        pending = game.pending
        assert pending is not None
        pick = next((o for o in pending.options if (
            isinstance(o, DeclareAttacker) and o.object_id == striker.id) or (
            isinstance(o, DeclareBlocker) and o.object_id == corpse.id)), None)
        early.act(pending.seat, pick or next(
            c for c in (FinishAttackers(), FinishBlockers(), PassPriority())
            if c in pending.options))
    assert FIRST_STRIKE_DAMAGE_TEXT in early.lines, early.lines
    watched = Watched(game, me)
    _fight(game, watched, striker, corpse)
    assert FIRST_STRIKE_DAMAGE_TEXT not in watched.lines, watched.lines
    assert REGULAR_DAMAGE_TEXT in watched.lines, watched.lines


def test_104_3a_leaving_is_said_plainly_in_a_loss_and_a_result() -> None:
    """The server's words for leaving, put after "lost:" or in brackets, read awkwardly
    ("(Bob left the match (and conceded it))"): said as the web client says them."""
    game = _main_phase()
    watched = Watched(game, 0)
    bob = game.players[1].name
    board = watched.board
    assert lost_text(board, 1, f"{bob} left the game, which concedes it") == \
        f"{bob} lost: {bob} conceded by leaving the game"
    me = game.players[0].name
    assert lost_text(board, 0, f"{me} left the game, which concedes it") == \
        "you lost: you conceded by leaving the game"
    assert result_text(board, [0], f"{bob} left the match (and conceded it)") == \
        f"you won ({bob} conceded the match by leaving it)"


def test_118_12a_an_unless_cost_paid_automatically_taps_no_line() -> None:
    """Miscast resolving asks the Shock's controller to pay {3}; paid automatically, the
    lands are tapped in the delta in which Miscast leaves the stack: they were tapped for
    mana, not by Miscast -- "your Mountain became tapped (x3)" was noise."""
    game = _main_phase()
    me = game.active
    shock = put(game, me, "Shock", Zone.HAND)
    for _ in range(4):
        put(game, me, "Mountain", Zone.BATTLEFIELD)
    miscast = put(game, 1 - me, "Miscast", Zone.HAND)
    for _ in range(2):
        put(game, 1 - me, "Island", Zone.BATTLEFIELD)
    refresh(game)
    watched = Watched(game, me)
    watched.answer(lambda o: o == CastSpell(shock.id))
    watched.answer(lambda o: isinstance(o, ChooseTarget))
    watched.answer(lambda o: isinstance(o, PayAutomatically))
    watched.answer(lambda o: isinstance(o, PassPriority))
    watched.answer(lambda o: o == CastSpell(miscast.id))
    watched.answer(lambda o: isinstance(o, ChooseTarget))
    watched.answer(lambda o: isinstance(o, PayAutomatically))
    watched.answer(lambda o: isinstance(o, PassPriority))
    watched.answer(lambda o: isinstance(o, PassPriority))
    pending = game.pending
    assert pending is not None and pending.kind is DecisionKind.PAY_MANA and pending.seat == me
    watched.answer(lambda o: isinstance(o, PayAutomatically))
    assert any("Miscast moved from the stack" in line for line in watched.lines), watched.lines
    assert not any("became tapped" in line for line in watched.lines), watched.lines
