"""Prevention effects of resolved spells and abilities (rule 615): records of the replacement
registry (``game.replacements``), consulted as the damage would be dealt, ended in the
cleanup step (514.2)."""

from __future__ import annotations

from server.cards.model import Controller, ObjectFilter
from server.engine import Step, Zone, replacements
from server.engine import game as game_module
from server.engine.effects import deal_damage_at_once
from server.engine.replacements import CombatDamagePrevented, DamageFromPrevented, register
from server.engine.zone_rules import spell_became_permanent
from server.engine.zones import move
from tests.engine.helpers import demo_game, put

OGRES = ObjectFilter(card_types=("Creature",), subtypes=("Ogre",), controller=Controller.YOU)


def test_fog_rule_615_1_prevents_all_combat_damage_this_turn_not_other_damage() -> None:
    game = demo_game()
    ogre = put(game, 0, "Onakke Ogre", Zone.BATTLEFIELD)
    corpse = put(game, 1, "Walking Corpse", Zone.BATTLEFIELD)
    register(game, CombatDamagePrevented(game.turn, 0))
    life = game.player(1).life
    deal_damage_at_once(game, [(ogre, ("player", 1), 3)], [], combat=True)
    deal_damage_at_once(game, [(ogre, ("object", corpse.id), 3)], [], combat=True)
    deal_damage_at_once(game, [(corpse, ("object", ogre.id), 2)], [], combat=True)
    assert (game.player(1).life, corpse.damage, ogre.damage) == (life, 0, 0)
    deal_damage_at_once(game, [(ogre, ("player", 1), 3)], [])  # not combat damage (510.2)
    assert game.player(1).life == life - 3


def test_combat_damage_to_filter_rule_615_1_only_to_what_it_describes() -> None:
    game = demo_game()
    ogre = put(game, 0, "Onakke Ogre", Zone.BATTLEFIELD)
    theirs = put(game, 1, "Onakke Ogre", Zone.BATTLEFIELD)
    corpse = put(game, 1, "Walking Corpse", Zone.BATTLEFIELD)
    register(game, CombatDamagePrevented(game.turn, 0, OGRES))  # "to Ogres you control"
    life = game.player(0).life
    deal_damage_at_once(game, [(corpse, ("object", ogre.id), 2)], [], combat=True)
    deal_damage_at_once(game, [(ogre, ("object", theirs.id), 3)], [], combat=True)
    deal_damage_at_once(game, [(corpse, ("player", 0), 2)], [], combat=True)
    assert (ogre.damage, theirs.damage, game.player(0).life) == (0, 3, life - 2)
    deal_damage_at_once(game, [(corpse, ("object", ogre.id), 1)], [])  # noncombat damage isn't
    assert ogre.damage == 1


def test_damage_from_source_rule_615_1_prevented_and_follows_the_permanent_400_7c() -> None:
    game = demo_game()
    shock = put(game, 0, "Shock", Zone.BATTLEFIELD)  # as a source only
    ogre = put(game, 0, "Onakke Ogre", Zone.BATTLEFIELD)
    corpse = put(game, 1, "Walking Corpse", Zone.BATTLEFIELD)
    register(game, DamageFromPrevented(ogre.id, game.turn))
    life = game.player(1).life
    deal_damage_at_once(game, [(ogre, ("player", 1), 3)], [], combat=True)
    deal_damage_at_once(game, [(ogre, ("object", corpse.id), 3)], [])
    assert (game.player(1).life, corpse.damage) == (life, 0)
    deal_damage_at_once(game, [(shock, ("player", 1), 2)], [])  # another source
    assert game.player(1).life == life - 2
    # Rule 400.7c: a permanent spell's prevention goes on with the permanent it becomes.
    spell = put(game, 1, "Walking Corpse", Zone.STACK)
    register(game, DamageFromPrevented(spell.id, game.turn))
    permanent = move(game, spell.id, Zone.BATTLEFIELD, [])
    spell_became_permanent(game, spell.id)
    deal_damage_at_once(game, [(permanent, ("object", ogre.id), 2)], [])
    assert ogre.damage == 0


def test_prevention_rule_514_2_ends_in_cleanup_and_not_other_replacements() -> None:
    game = demo_game()
    ogre = put(game, 0, "Onakke Ogre", Zone.BATTLEFIELD)
    spell = put(game, 0, "Shock", Zone.STACK)
    register(game, CombatDamagePrevented(game.turn, 0))
    register(game, CombatDamagePrevented(game.turn, 0, OGRES))
    register(game, DamageFromPrevented(ogre.id, game.turn))
    register(game, replacements.FlashbackExile(spell.id))
    assert replacements.prevented(game, ogre, None, combat=False)
    game.step = Step.CLEANUP
    game_module._cleanup_end_effects(game)
    assert game.replacements == [replacements.FlashbackExile(spell.id)]
    assert not replacements.prevented(game, ogre, ogre, combat=True)


def test_prevention_rule_500_1_of_an_earlier_turn_no_longer_applies() -> None:
    game = demo_game()
    ogre = put(game, 0, "Onakke Ogre", Zone.BATTLEFIELD)
    register(game, CombatDamagePrevented(game.turn, 0))
    register(game, DamageFromPrevented(ogre.id, game.turn))
    game.turn += 1  # (a turn whose cleanup step didn't end them)
    assert not replacements.prevented(game, ogre, None, combat=True)
    replacements.new_turn(game)
    assert game.replacements == []
