"""The prompt to divide an attacker's combat damage (rule 510.1c) says the player or
planeswalker it attacks may get some when the attacker has trample (702.19b-c): it said
"among its blockers" while the options gave damage to the player too (a new player's
finding, round 8)."""

from __future__ import annotations

from server.cards import demo_deck
from server.engine import Decision, PlayerSetup, new_game
from server.engine.actions import AssignCombatDamage
from server.engine.state import DecisionKind
from server.view.encode import decision_for


def _prompt(*divisions: tuple[tuple[str, int], ...]) -> str:
    game = new_game(bytes(16), [PlayerSetup(f"p{i}", demo_deck("naya-pets"))
                                for i in range(2)])
    decision = Decision(7, 0, DecisionKind.ASSIGN_COMBAT_DAMAGE,
                        tuple(AssignCombatDamage("a1", d) for d in divisions))
    return decision_for(decision, 0, {"a1", "b1", "b2"}, (), room_id="r",
                        state_id=1, game=game).prompt


def test_702_19c_a_tramplers_division_names_the_attacked_player_or_planeswalker() -> None:
    assert _prompt((("b1", 2), ("", 4)), (("b1", 6),)) == (
        "Divide this attacker's combat damage among its blockers and, as it has trample, "
        "the player or planeswalker it attacks.")


def test_510_1c_a_division_among_blockers_only_keeps_the_general_words() -> None:
    assert _prompt((("b1", 2), ("b2", 1)), (("b1", 1), ("b2", 2))) == \
        "Divide this attacker's combat damage among its blockers."
