"""Permissions to cast or play cards (rules 601.2, 305.1, 118.9, 702.34, 702.35): one
registry of records (``game.permissions``), one question (:func:`permissions.permit`), ended
in the cleanup step (514.2) or as the next turn begins (500.1)."""

from __future__ import annotations

from server.engine import Step, Zone, casting, permissions, zone_rules
from server.engine import game as game_module
from server.engine.actions import CastSpell, PlayLand
from server.engine.game import priority_options
from server.engine.permissions import (
    CastFor,
    CastFromHandFree,
    CastLinked,
    Cost,
    FlashbackGranted,
    PlayFromExile,
    Used,
    grant,
)
from server.engine.zones import move
from tests.engine.helpers import demo_game, pass_until, put


def test_play_from_exile_rules_400_7h_601_2a_305_1_this_turn_or_until_another() -> None:
    game = demo_game()
    pass_until(game, Step.PRECOMBAT_MAIN, turn=1)
    seat = game.active
    land = put(game, seat, "Mountain", Zone.EXILE)
    ogre = put(game, seat, "Onakke Ogre", Zone.EXILE)
    for _ in range(3):
        put(game, seat, "Mountain", Zone.BATTLEFIELD)
    assert PlayLand(land.id) not in priority_options(game, seat)
    permissions.grant_play(game, seat, land.id, turn=game.turn)
    permissions.grant_play(game, seat, ogre.id, source="src", turn=None)
    found = permissions.permit(game, seat, land)
    assert found is not None and found.cost is Cost.MANA_COST  # 601.2f: its costs
    assert permissions.permit(game, 1 - seat, land) is None  # only ``seat`` may
    options = priority_options(game, seat)
    assert PlayLand(land.id) in options and CastSpell(ogre.id) in options  # 305.1, 601.2
    permissions.revoke_exile_plays(game, "src")  # "until you exile another card with [this]"
    assert permissions.permit(game, seat, ogre) is None
    moved = move(game, land.id, Zone.GRAVEYARD, [])  # 400.7: a new object
    assert permissions.permit(game, seat, moved) is None
    assert zone_rules.playable_from_exile(game, seat) == []


def test_play_from_exile_rule_514_2_this_turn_ends_in_cleanup_until_another_does_not() -> None:
    game = demo_game()
    a = put(game, 0, "Mountain", Zone.EXILE)
    b = put(game, 0, "Mountain", Zone.EXILE)
    permissions.grant_play(game, 0, a.id, turn=game.turn)
    permissions.grant_play(game, 0, b.id, source="src", turn=None)
    game.step = Step.CLEANUP
    game_module._cleanup_end_effects(game)
    assert game.permissions == [PlayFromExile(0, b.id, "src", None)]
    game.turn += 1
    permissions.new_turn(game)
    assert zone_rules.playable_from_exile(game, 0) == [b.id]


def test_cast_linked_rules_406_6_118_9_free_and_used_up_by_one_spell() -> None:
    game = demo_game()
    source = put(game, 0, "Onakke Ogre", Zone.BATTLEFIELD)
    ogre = put(game, 0, "Onakke Ogre", Zone.EXILE)
    shock = put(game, 0, "Shock", Zone.EXILE)
    ogre.exiled_with = shock.exiled_with = source.id
    grant(game, CastLinked(game.turn, 0, source.id, "Creature"))
    grant(game, CastLinked(game.turn, 0, source.id, "Creature"))  # twice: two spells
    assert zone_rules.castable_linked(game, 0) == [ogre.id]  # a creature spell only
    assert permissions.free(game, 0, ogre.id) and not permissions.free(game, 0, shock.id)
    assert not permissions.free(game, 1, ogre.id)
    assert casting.spell_cost(game, ogre.card, 0, 0, ogre.id).mana_value == 0  # 118.9
    assert permissions.cast_with(game, 0, ogre) is Cost.WITHOUT_PAYING
    assert permissions.cast_with(game, 0, ogre) is Cost.WITHOUT_PAYING
    assert permissions.cast_with(game, 0, ogre) is Cost.MANA_COST  # both used up
    assert game.permissions == []


def test_granted_flashback_rule_702_34a_for_instants_and_sorceries_until_end_of_turn() -> None:
    game = demo_game()
    shock = put(game, 0, "Shock", Zone.GRAVEYARD)
    ogre = put(game, 0, "Onakke Ogre", Zone.GRAVEYARD)
    zone_rules.grant_flashback(game, 0)
    assert game.permissions == [FlashbackGranted(game.turn, shock.id)]
    assert zone_rules.flashback_cards(game, 0) == [shock.id]
    assert permissions.permit(game, 1, shock) is None  # the owner casts it (702.34a)
    found = permissions.permit(game, 0, shock)
    assert found is not None and found.cost is Cost.MANA_COST  # "equal to its mana cost"
    assert permissions.permit(game, 0, ogre) is None
    spell = move(game, shock.id, Zone.STACK, [])
    assert permissions.flashback_cast(game, spell)  # 400.7g: it goes on with the spell
    game.step = Step.CLEANUP
    game_module._cleanup_end_effects(game)  # rule 514.2
    assert game.permissions == []


def test_cast_from_hand_free_rule_118_9_costs_nothing_and_x_is_0() -> None:
    game = demo_game()
    pass_until(game, Step.PRECOMBAT_MAIN, turn=1)
    seat = game.active
    geyser = put(game, seat, "Volcanic Geyser", Zone.HAND)  # {X}{R}{R}
    for oid in list(game.battlefield):
        if game.objects[oid].controller == seat:
            move(game, oid, Zone.GRAVEYARD, [])
    assert not casting.can_cast_now(game, seat, geyser)  # no mana
    grant(game, CastFromHandFree(game.turn, seat))
    assert casting.can_cast_now(game, seat, geyser)
    assert not permissions.any_for(game, seat)  # from the hand, not from elsewhere
    assert permissions.cast_with(game, seat, geyser) is Cost.WITHOUT_PAYING
    assert game.permissions == [CastFromHandFree(game.turn, seat)]  # not used up
    game.turn += 1
    permissions.new_turn(game)  # rule 500.1
    assert not casting.can_cast_now(game, seat, geyser)


def test_cast_for_rules_601_2b_702_35b_alternative_cost_of_the_spell_on_the_stack() -> None:
    game = demo_game()
    temper = put(game, 0, "Fiery Temper", Zone.STACK)
    shock = put(game, 0, "Shock", Zone.STACK)
    permissions.cast_for(game, temper.id, Cost.MADNESS)
    permissions.cast_for(game, shock.id, Cost.WITHOUT_PAYING)
    assert permissions.cast_for_madness(game, temper.id)
    assert not permissions.cast_for_madness(game, shock.id)
    assert permissions.free(game, 0, shock.id) and not permissions.free(game, 0, temper.id)
    assert casting.total_cost(game, shock).mana_value == 0  # 118.9
    assert casting.total_cost(game, temper).mana_value == 1  # madness {R} (702.35b)
    move(game, temper.id, Zone.GRAVEYARD, [])
    other = put(game, 0, "Shock", Zone.STACK)
    permissions.cast_for(game, other.id, Cost.WITHOUT_PAYING)  # the gone spell's is dropped
    assert game.permissions == [CastFor(shock.id, Cost.WITHOUT_PAYING),
                                CastFor(other.id, Cost.WITHOUT_PAYING)]


def test_once_each_turn_permission_used_until_the_turn_ends_rule_500_1() -> None:
    game = demo_game()
    permissions.use(game, "kess")
    assert permissions.used(game, "kess") and not permissions.used(game, "other")
    game.step = Step.CLEANUP
    game_module._cleanup_end_effects(game)  # still used this turn
    assert game.permissions == [Used(game.turn, "kess")]
    game.turn += 1
    permissions.new_turn(game)
    assert not permissions.used(game, "kess") and game.permissions == []
