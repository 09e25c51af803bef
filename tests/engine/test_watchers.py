"""Watchers (the turn facts kept from the event stream), registered replacement effects and
the variants' hooks."""

from __future__ import annotations

from server.cards import card
from server.cards.model import ReplacementKind
from server.engine import (
    PlayerSetup,
    Step,
    Zone,
    new_game,
    planar,
    replacements,
    variants,
    watchers,
)
from server.engine import game as game_module
from server.engine.ante import state as ante_state
from server.engine.events import (
    CardDrawn,
    DamageDealt,
    Event,
    LifeGained,
    SpellCast,
    ZoneChanged,
)
from server.engine.replacements import (
    ExileIfDies,
    ExileInstead,
    FlashbackExile,
    Modified,
    modifies,
    register,
)
from server.engine.state import GameResult
from server.engine.zones import draw, move
from tests.engine.helpers import SEED, demo_game, keep_all, put, vanilla_deck

OGRE = card("Onakke Ogre")
SHOCK = card("Shock")


def _died(controller: int, *, token: bool = False, creature: bool = True,
          to: Zone = Zone.GRAVEYARD) -> ZoneChanged:
    return ZoneChanged("old", "new", controller, Zone.BATTLEFIELD, to, controller, OGRE,
                       creature=creature, token=token)


def test_creatures_died_rule_700_4_counts_creatures_to_graveyard_by_controller() -> None:
    w = watchers.Watchers()
    for event in (_died(0), _died(1, token=True), _died(1, creature=False),
                  _died(0, to=Zone.EXILE)):
        w.observe(event)
    assert (w.creatures_died.total, w.creatures_died.nontoken) == (2, 1)
    assert (w.creatures_died.of(0), w.creatures_died.of(1)) == (1, 1)
    assert w.permanents_to_hand.of(0) == 0


def test_descended_rule_700_11_permanent_cards_not_tokens_nor_instants() -> None:
    w = watchers.Watchers()
    w.observe(ZoneChanged("a", "b", 0, Zone.HAND, Zone.GRAVEYARD, 0, OGRE))
    w.observe(ZoneChanged("c", "d", 0, Zone.STACK, Zone.GRAVEYARD, 0, SHOCK))
    w.observe(_died(1, token=True))
    w.observe(ZoneChanged("e", "f", 1, Zone.BATTLEFIELD, Zone.HAND, 1, OGRE))
    assert (w.descended.of(0), w.descended.of(1)) == (1, 0)
    assert w.permanents_to_hand.of(1) == 1  # rule 400.3


def test_player_facts_rules_119_3_120_3a_601_2i() -> None:
    w = watchers.Watchers()
    events: list[Event] = [LifeGained(0, 3), LifeGained(0, 1), DamageDealt("s", 1, None, 2),
                           DamageDealt("s", 1, None, 5, combat=True),
                           DamageDealt("s", None, "x", 4), SpellCast("x", 1, SHOCK),
                           CardDrawn(1, 1)]
    for event in events:
        w.observe(event)
    assert (w.life_gained.of(0), w.life_gained.of(1)) == (4, 0)
    assert w.noncombat_damage.by_seat == {1: 2}  # combat damage isn't counted (510.2)
    assert w.spells_cast.of(1) == [SHOCK] and w.spells_cast.of(0) == []
    assert w.cards_drawn.of(1) == 1


def test_once_each_turn_rule_603_2h_and_mana_spent_rule_700_14() -> None:
    w = watchers.Watchers()
    assert w.once_each_turn.use("src:0") and not w.once_each_turn.use("src:0")
    assert w.once_each_turn.use("src:1")
    assert w.mana_spent.spend(0, 2) == (0, 2)
    assert w.mana_spent.spend(0, 3) == (2, 5)


def test_engine_emits_to_watchers_and_a_new_turn_resets_them_rule_500_1() -> None:
    game = demo_game()
    seat = game.active
    ogre = put(game, seat, "Onakke Ogre", Zone.BATTLEFIELD)
    events: list[Event] = []
    drawn = game.watchers.cards_drawn.of(seat)
    move(game, ogre.id, Zone.GRAVEYARD, events)
    draw(game, seat, events)
    draw(game, seat, events)
    assert game.watchers.creatures_died.of(seat) == 1
    assert game.watchers.descended.of(seat) == 1
    # Rule 121.1: each draw event says which card of the turn it was.
    assert [e.number for e in events if isinstance(e, CardDrawn)] == [drawn + 1, drawn + 2]
    game.step = Step.CLEANUP
    game_module._next_turn(game)
    assert game.watchers == watchers.Watchers()


def test_exile_instead_rule_614_1a_applies_to_that_spell_this_turn_only() -> None:
    game = demo_game()
    spell = put(game, 0, "Shock", Zone.STACK)
    register(game, ExileInstead(spell.id, game.turn))
    register(game, ExileInstead(spell.id, game.turn))  # one effect, registered once
    assert len(game.replacements) == 1
    assert replacements.zone_change(game, spell, Zone.HAND) is Zone.HAND
    assert replacements.zone_change(game, spell, Zone.GRAVEYARD) is Zone.EXILE
    game.turn += 1
    assert replacements.zone_change(game, spell, Zone.GRAVEYARD) is Zone.GRAVEYARD
    replacements.new_turn(game)
    assert game.replacements == []


def test_flashback_rule_702_34a_exiles_a_spell_leaving_the_stack_to_anywhere() -> None:
    game = demo_game()
    spell = put(game, 0, "Shock", Zone.STACK)
    register(game, FlashbackExile(spell.id))
    new = move(game, spell.id, Zone.HAND, [])
    assert new.zone is Zone.EXILE
    assert game.replacements == []  # used up with the object it applied to (400.7)


def test_exile_if_dies_rule_614_1a_ends_in_cleanup_rule_514_2() -> None:
    game = demo_game()
    ogre = put(game, 0, "Onakke Ogre", Zone.BATTLEFIELD)
    register(game, ExileIfDies(ogre.id))
    spell = put(game, 0, "Shock", Zone.STACK)
    register(game, FlashbackExile(spell.id))
    assert replacements.exiles_if_dies(game, ogre.id)
    replacements.end_of_turn(game)
    assert not replacements.exiles_if_dies(game, ogre.id)
    assert game.replacements == [FlashbackExile(spell.id)]  # not a "this turn" effect


def test_every_static_replacement_kind_modifies_one_event_rule_614_1() -> None:
    assert {modifies(kind) for kind in ReplacementKind} == set(Modified)


def test_madness_rule_702_35a_discards_to_exile_instead_from_a_hand_face_up() -> None:
    game = demo_game()
    shock = put(game, 0, "Shock", Zone.HAND)
    temper = put(game, 0, "Fiery Temper", Zone.HAND)
    assert replacements.discarded_to(shock) is Zone.GRAVEYARD
    assert replacements.discarded_to(temper) is Zone.EXILE
    temper.face_down = True
    assert replacements.discarded_to(temper) is Zone.GRAVEYARD


def test_no_variant_record_means_no_variant_rules_901_407() -> None:
    game = demo_game()
    assert game.variants == []
    assert planar.controller(game) == -1 and planar.deck_size(game, 0) == 0
    game.step = Step.PRECOMBAT_MAIN
    assert variants.special_actions(game, game.active) == []  # no planar die (901.9)


def test_ante_record_settles_at_game_over_rule_407_2() -> None:
    game = new_game(SEED, [PlayerSetup("a", vanilla_deck("naya")),
                           PlayerSetup("b", vanilla_deck("grixis"))], ante=True)
    keep_all(game)
    record = ante_state(game)
    assert record is not None and len(game.ante) == 2  # each player anted one card
    owners = sorted(game.objects[i].owner for i in game.ante)
    game.result = GameResult((1,), "test")
    variants.game_over(game)
    variants.game_over(game)  # settled once
    assert record.settled and sorted(old for _, old, _ in record.result) == owners
    assert {new for _, _, new in record.result} == {1}
    assert all(game.objects[i].owner == 1 for i in game.ante)
