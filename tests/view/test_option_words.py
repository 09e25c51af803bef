"""An option that activates an ability or chooses a mode carries its text as the card prints
it (rules 602.1, 700.2), so a player reads "{2}, {T}, ...: Draw a card." rather than
"ability 2". The text is the deciding player's to read: the ability is of an object in their
view, the mode of the spell they are casting."""

from __future__ import annotations

from server.engine import apply
from server.engine.actions import (
    ActivateAbility,
    ActivateManaAbility,
    CastSpell,
    PassPriority,
    PayMana,
)
from server.engine.state import DecisionKind, Game, GameObject, Step, Zone
from server.view import project
from server.view.encode import encode_decision
from tests.engine.helpers import demo_game, pass_until, put, refresh


def _main_phase_with(name: str, zone: Zone, land: str, lands: int
                     ) -> tuple[Game, int, GameObject]:
    """A game in its active player's first main phase, who has ``name`` in ``zone`` and
    ``lands`` of ``land``."""
    game = demo_game()
    pass_until(game, Step.PRECOMBAT_MAIN)
    seat = game.active
    obj = put(game, seat, name, zone)
    for _ in range(lands):
        put(game, seat, land, Zone.BATTLEFIELD)
    return game, seat, obj


def test_rule_602_1_an_activated_abilitys_option_carries_its_printed_text() -> None:
    game, seat, tome = _main_phase_with("Mazemind Tome", Zone.BATTLEFIELD, "Mountain", 3)
    refresh(game)
    d = game.pending
    assert d is not None and d.seat == seat
    assert {a.ability for a in d.options if isinstance(a, ActivateAbility)
            and a.object_id == tome.id} == {0, 1}
    sent = encode_decision(d, project(game, seat), "r", 1, game)
    texts = {a.activate_ability.ability: a.activate_ability.text for a in sent.options
             if a.HasField("activate_ability") and a.activate_ability.object_id == tome.id}
    assert texts == {0: "{T}, Put a page counter on Mazemind Tome: Scry 1.",
                     1: "{2}, {T}, Put a page counter on Mazemind Tome: Draw a card."}
    # Without the game (a caller that has only the view) the options are still whole.
    bare = encode_decision(d, project(game, seat), "r", 1)
    assert all(not a.activate_ability.text for a in bare.options)


def test_rule_700_2_a_modal_spells_modes_carry_their_printed_text() -> None:
    game, seat, spell = _main_phase_with("Return to Nature", Zone.HAND, "Forest", 2)
    put(game, 1 - seat, "Short Sword", Zone.BATTLEFIELD)
    put(game, 1 - seat, "Glorious Anthem", Zone.BATTLEFIELD)
    put(game, 1 - seat, "Shock", Zone.GRAVEYARD)
    refresh(game)
    apply(game, seat, CastSpell(spell.id))
    d = game.pending
    assert d is not None and d.kind is DecisionKind.CHOOSE_MODE
    sent = encode_decision(d, project(game, seat), "r", 1, game)
    assert [(a.choose_mode.mode, a.choose_mode.text) for a in sent.options
            if a.HasField("choose_mode")] == [
        (0, "Destroy target artifact."), (1, "Destroy target enchantment."),
        (2, "Exile target card from a graveyard.")]


def test_rule_700_2_a_modal_triggers_modes_carry_the_bullets_its_card_prints() -> None:
    """Trufflesnout's trigger text stops at "choose one --"; its modes are the bullets
    printed below it on the card. Both clients showed "Mode 1" and "Mode 2"."""
    game, seat, snout = _main_phase_with("Trufflesnout", Zone.HAND, "Forest", 3)
    refresh(game)
    apply(game, seat, CastSpell(snout.id))
    for _ in range(50):  # pay, then pass until it resolves and its trigger asks for a mode
        d = game.pending
        assert d is not None
        if d.kind is DecisionKind.CHOOSE_MODE:
            break
        paying = [a for a in d.options if isinstance(a, (ActivateManaAbility, PayMana))]
        apply(game, d.seat, paying[0] if paying else PassPriority())
    assert d is not None and d.kind is DecisionKind.CHOOSE_MODE and d.seat == seat
    sent = encode_decision(d, project(game, seat), "r", 1, game)
    assert [(a.choose_mode.mode, a.choose_mode.text) for a in sent.options] == [
        (0, "Put a +1/+1 counter on Trufflesnout."), (1, "You gain 4 life.")]
