"""Load-time validation of the vocabulary added for the fourteenth M21 batch: planeswalkers and
their support cards -- "whenever you activate a loyalty ability of a [filter] planeswalker"
(rules 606.4, 602.2i)."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError, card
from server.cards.model import (
    Controller,
    Count,
    CountCondition,
    DamageKind,
    Recipient,
    TargetKind,
    TriggerEvent,
    TriggerStep,
    TriggerSubject,
    Verb,
    Who,
)
from tests.engine.helpers import load_one


def _load(behaviour: dict[str, Any], *, kind: str = "Creature") -> None:
    raw: dict[str, Any] = {"name": "T", "types": [kind], "manaCost": "{2}{B}",
                           "text": "Something.", "power": "1", "toughness": "1"}
    if kind == "Planeswalker":
        raw.update(loyalty="3", power=None, toughness=None)
    load_one(raw, behaviour)


_DAMAGE = [{"verb": "deal_damage", "amount": 1, "who": "each_opponent"}]


@pytest.mark.parametrize(("behaviour", "message"), [
    # "a loyalty ability of a Chandra planeswalker": the planeswalker is described
    ({"triggers": [{"when": "loyalty_activated", "effects": _DAMAGE}]}, "'filter'"),
    ({"triggers": [{"when": "loyalty_activate", "filter": {"subtypes": ["Chandra"]},
                    "effects": _DAMAGE}]}, "unknown value 'loyalty_activate'"),
    ({"triggers": [{"when": "loyalty_activated", "filter": {"subtype": ["Chandra"]},
                    "effects": _DAMAGE}]}, "unknown field"),
    ({"triggers": [{"when": "loyalty_activated", "filter": {"subtypes": ["chandra"]},
                    "effects": _DAMAGE}]}, "capitalised subtypes"),
    # "for each creature card in their graveyard": the player the effect affects
    ({"effects": [{"verb": "deal_damage", "target": "any",
                   "count": "creature_cards_in_their_graveyard"}]},
     "counts the player the effect affects"),
    ({"effects": [{"verb": "lose_life", "target": "opponent",
                   "count": "creature_cards_in_their_graveyards"}]}, "unknown value"),
    # "if an opponent controls more creatures than you": a filter of each player's own
    ({"effects": [{"verb": "draw", "condition": {"count": "opponent_has_more",
                                                 "at_least": 1}}]}, "'filter'"),
    ({"effects": [{"verb": "draw", "condition": {
        "count": "opponent_has_more", "at_least": 1,
        "filter": {"types": ["Creature"], "controller": "opponent"}}}]},
     "the filter's controller is 'you'"),
    ({"effects": [{"verb": "draw", "count": "opponent_has_more",
                   "filter": {"types": ["Creature"], "controller": "any"}}]},
     "the filter's controller is 'you'"),
    # "Each opponent who can't [discard]": after a discard, a player verb
    ({"effects": [{"verb": "lose_life", "amount": 3, "who": "each_opponent_who_couldnt"}]},
     "follows a discard"),
    ({"effects": [{"verb": "discard", "who": "each_player"},
                  {"verb": "destroy", "who": "each_opponent_who_couldnt"}]},
     "names players"),
    ({"effects": [{"verb": "discard", "who": "each_player"},
                  {"verb": "lose_life", "who": "each_opponent_who_cant"}]}, "unknown value"),
    # "It gains haste." (no duration, 611.2a): a flag of modify_pt only
    ({"effects": [{"verb": "modify_pt", "target": "creature", "gains": ["Haste"],
                   "lasting": "yes"}]}, "lasting: expected true or false"),
    ({"effects": [{"verb": "tap", "target": "creature", "lasting": True}]}, "unknown field"),
    # "target creature card from a graveyard"
    ({"effects": [{"verb": "return_to_battlefield",
                   "target": "creature_card_in_any_graveyard"}]}, "unknown value"),
    ({"effects": [{"verb": "modify_pt", "target": "creature", "power": -1,
                   "count": "cards_in_your_graveyards"}]}, "unknown value"),
    # "target creature or planeswalker that player controls": a triggered ability's target
    ({"effects": [{"verb": "deal_damage", "amount": 2, "target": {
        "kind": "creature_or_planeswalker", "that_player_controls": True}}]},
     "is for a triggered ability's target"),
    ({"abilities": [{"cost": "{1}", "effects": [{"verb": "destroy", "target": {
        "kind": "creature", "that_player_controls": True}}]}]},
     "is for a triggered ability's target"),
    ({"triggers": [{"when": "dealt_damage", "effects": [{"verb": "destroy", "target": {
        "kind": "creature", "that_player_controls": "yes"}}]}]},
     "that_player_controls: expected true or false"),
    ({"triggers": [{"when": "dealt_damage", "effects": [{"verb": "destroy", "target": {
        "kind": "creature", "that_player_control": True}}]}]}, "unknown field"),
    ({"cost_reduction": {"count": "noncombat_damage_to_opponent_this_turn"},
      "triggers": [{"when": "dealt_damage", "effects": [{"verb": "draw"}]}]},
     "unknown value"),
    # "Reveal the top card. If it's a creature card, put it into your hand. Otherwise, ..."
    ({"effects": [{"verb": "reveal_top", "find": "creature"}]}, "reveal_top puts a card"),
    ({"effects": [{"verb": "reveal_top", "destination": "hand"}]}, "reveal_top puts a card"),
    ({"effects": [{"verb": "reveal_top", "find": "creature", "destination": "hand",
                   "otherwise": "graveyard"}]}, "reveal_top puts a card"),
    ({"effects": [{"verb": "reveal_top", "find": "creature", "destination": "battlefield"}]},
     "reveal_top puts a card"),
    ({"effects": [{"verb": "draw", "otherwise": "library_bottom"}]}, "unknown field"),
    # "Target creature you control deals damage ...": the next effect's subject
    ({"effects": [{"verb": "target"}]}, "'target' needs the 'target'"),
    ({"effects": [{"verb": "target", "target": "creature"}]}, "subject of the next effect"),
    ({"effects": [{"verb": "target", "target": "creature"},
                  {"verb": "deal_damage", "amount": 2, "target": "creature"}]},
     "subject of the next effect"),
    ({"effects": [{"verb": "target", "target": "creature", "amount": 2},
                  {"verb": "destroy", "who": "that"}]}, "unknown field"),
    # "... assign its combat damage as though it weren't blocked"
    ({"effects": [{"verb": "restrict_this_turn", "who": "each_creature_you_control",
                   "restrictions": ["assign_as_unblocked"]}]}, "restrictions: expected"),
    ({"effects": [{"verb": "restrict_this_turn", "who": "each_opponent",
                   "restrictions": ["assigns_as_unblocked"]}]},
     "restrict_this_turn applies to"),
    # "a Liliana planeswalker you control": chosen as performed, described by a filter
    ({"effects": [{"verb": "put_counters", "counter": "loyalty", "who": "chosen_one"}]},
     "'filter' is given exactly"),
    ({"effects": [{"verb": "draw", "who": "chosen_one",
                   "filter": {"types": ["Planeswalker"]}}]},
     "'chosen_one' .* is for"),
    ({"effects": [{"verb": "put_counters", "counter": "loyalty", "who": "chosen_one",
                   "count": "party", "filter": {"types": ["Planeswalker"]}}]},
     "without a 'count'"),
    ({"triggers": [{"when": "step", "step": "end_step", "whose": "any",
                    "effects": [{"verb": "draw"}]}]}, "unknown value 'end_step'"),
    ({"triggers": [{"when": "step", "step": "end", "whose": "each",
                    "effects": [{"verb": "draw"}]}]}, "unknown value 'each'"),
    # "exile the top three cards ... you may play cards exiled this way"; "Add six {R}"
    ({"effects": [{"verb": "exile_top", "amount": 3, "may_play": "yes"}]},
     "may_play: expected true or false"),
    ({"effects": [{"verb": "draw", "may_play": True}]}, "unknown field"),
    ({"effects": [{"verb": "search", "zones": ["library"], "find": "creature",
                   "destination": "hand", "may_play": True}]},
     "'may_play' is for cards the search exiles"),
    ({"effects": [{"verb": "search", "zones": ["library"], "find": "instant_or_sorcry",
                   "destination": "exile"}]}, "unknown quality"),
    ({"effects": [{"verb": "add_mana", "amount": 6}]}, "add_mana needs mana letters"),
    ({"effects": [{"verb": "add_mana", "amount": 6, "colors": ["R"]}]},
     "add_mana says its 'mana'"),
    ({"effects": [{"verb": "add_mana", "amount": 6, "mana": "R", "who": "each_player"}]},
     "unknown field"),
    # "Each creature target opponent controls phases out": a player target
    ({"effects": [{"verb": "phase_out", "who": "each_creature_target_controls"}]},
     "'target' is required exactly"),
    ({"effects": [{"verb": "phase_out", "who": "each_creature_target_controls",
                   "target": "creature"}]}, "targets a player or an opponent"),
    ({"effects": [{"verb": "phase_out", "target": "creature", "hold": 1}]},
     "hold: expected true or false"),
    ({"effects": [{"verb": "draw", "hold": True}]}, "unknown field"),
    ({"effects": [{"verb": "extra_turns", "amount": 2, "who": "each_opponent"}]},
     "unknown field"),
    # "activate loyalty abilities of [this] ... any time you could cast an instant"
    ({"abilities": [{"cost": "{1}", "any_time": True, "effects": [{"verb": "draw"}]}]},
     "only a loyalty ability"),
    ({"abilities": [{"cost": "", "loyalty": 1, "any_time": "yes",
                     "effects": [{"verb": "draw"}]}]}, "any_time: expected true or false"),
    # "Look at the top N ... You may reveal a creature card or Garruk planeswalker card"
    ({"effects": [{"verb": "look_at_top", "amount": 3}]}, "look_at_top needs 'take'"),
    ({"effects": [{"verb": "look_at_top", "amount": 3, "take": {"types": ["Creature"]}}]},
     "take: expected a list"),
    ({"effects": [{"verb": "look_at_top", "amount": 3, "take": [{"types": ["Creature"]}],
                   "destination": "graveyard"}]}, "unknown field"),
    ({"effects": [{"verb": "look_at_top", "amount": 3, "take": [{"type": ["Creature"]}]}]},
     "unknown field"),
    ({"triggers": [{"when": "deals_damage", "damage": "combat",
                    "recipient": "player_or_walker", "effects": [{"verb": "draw"}]}]},
     "unknown value 'player_or_walker'"),
    # "[-X]: Exile each permanent with mana value X or less that's one or more colors"
    ({"abilities": [{"cost": "", "loyalty": "-Y", "effects": [{"verb": "draw"}]}]},
     "loyalty: expected an integer"),
    ({"effects": [{"verb": "exile", "who": "each_permanent"}]}, "'filter' is given exactly"),
    ({"effects": [{"verb": "draw", "who": "each_permanent", "filter": {}}]},
     "'each_permanent' names permanents"),
    ({"effects": [{"verb": "exile", "who": "each_permanent",
                   "filter": {"colored": "yes"}}]}, "colored: expected true or false"),
    ({"effects": [{"verb": "exile", "who": "each_permanent",
                   "filter": {"max_mana_value": "Y"}}]}, "max_mana_value: expected"),
    ({"effects": [{"verb": "search", "zones": ["hand"], "find": "permanents",
                   "destination": "battlefield"}]}, "unknown quality"),
    # "You may cast target red instant or sorcery card from your graveyard"
    ({"effects": [{"verb": "cast_card", "target": "instant_or_sorcery_card_in_your_graveyard"}]},
     "cast_card .* needs"),
    ({"effects": [{"verb": "cast_card", "optional": True, "target": "creature"}]},
     "cast_card .* needs"),
    ({"effects": [{"verb": "cast_card", "optional": True, "exile_instead": "yes",
                   "target": "card_in_your_graveyard"}]},
     "exile_instead: expected true or false"),
    ({"effects": [{"verb": "cast_card", "optional": True, "target": {
        "kind": "card_in_your_graveyard", "colors": ["Red"]}}]}, "expected letters of WUBRG"),
    ({"effects": [{"verb": "free_casts_this_turn", "amount": 1}]}, "unknown field"),
])
def test_rejected(behaviour: dict[str, Any], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(behaviour)


def test_keral_keep_disciples_is_data() -> None:
    (trigger,) = card("Keral Keep Disciples").triggers
    assert trigger.event is TriggerEvent.LOYALTY_ACTIVATED
    assert trigger.filter is not None and trigger.filter.subtypes == ("Chandra",)
    assert trigger.effects[0].verb is Verb.DEAL_DAMAGE


def test_liliana_death_mage_and_garruk_unleashed_are_data() -> None:
    drain = card("Liliana, Death Mage").abilities[2].effects[0]
    assert (drain.verb, drain.count, drain.amount) == (
        Verb.LOSE_LIFE, Count.CREATURE_CARDS_IN_THEIR_GRAVEYARD, 2)
    counter = card("Garruk, Unleashed").abilities[1].effects[1]
    assert isinstance(counter.condition, CountCondition)
    assert counter.condition.count is Count.OPPONENT_HAS_MORE


def test_liliana_waker_of_the_dead_is_data() -> None:
    plus, minus, ultimate = card("Liliana, Waker of the Dead").abilities
    assert plus.effects[1].who is Who.EACH_OPPONENT_WHO_COULDNT
    assert minus.effects[0].count is Count.CARDS_IN_YOUR_GRAVEYARD
    assert ultimate.effects[0].emblem is not None
    put, haste = ultimate.effects[0].emblem.triggers[0].effects
    assert put.target is not None and put.target.kind is TargetKind.CREATURE_CARD_IN_A_GRAVEYARD
    assert (haste.who, haste.lasting) == (Who.FOUND, True)


def test_chandras_incinerator_is_data() -> None:
    incinerator = card("Chandra's Incinerator")
    assert incinerator.cost_reduction is not None
    assert incinerator.cost_reduction.count is Count.NONCOMBAT_DAMAGE_TO_OPPONENTS_THIS_TURN
    (trigger,) = incinerator.triggers
    (effect,) = trigger.effects
    assert effect.target is not None and effect.target.that_player_controls
    assert effect.amount_is_event


def test_garruk_savage_herald_is_data() -> None:
    reveal, fight, ultimate = card("Garruk, Savage Herald").abilities
    (top,) = reveal.effects
    assert (top.verb, top.find, top.destination, top.otherwise) == (
        Verb.REVEAL_TOP, "creature", "hand", "library_bottom")
    subject, damage = fight.effects
    assert (subject.verb, damage.by) == (Verb.TARGET, Who.THAT)
    assert ultimate.effects[0].restrictions == ("assigns_as_unblocked",)


def test_lilianas_scrounger_is_data() -> None:
    (trigger,) = card("Liliana's Scrounger").triggers
    assert (trigger.event, trigger.step, trigger.whose) == (
        TriggerEvent.STEP, TriggerStep.END, Controller.ANY)  # "each end step" (513.1a)
    (effect,) = trigger.effects
    assert (effect.who, effect.optional, effect.counter) == (Who.CHOSEN_ONE, True, "loyalty")


def test_chandra_heart_of_fire_is_data() -> None:
    plus, _, ultimate = card("Chandra, Heart of Fire").abilities
    discard, exile = plus.effects
    assert discard.whole_hand and (exile.verb, exile.amount, exile.may_play) == (
        Verb.EXILE_TOP, 3, True)
    search, mana = ultimate.effects
    assert (search.find, search.colors, search.may_play) == ("instant_or_sorcery", ("R",), True)
    assert (mana.verb, mana.amount, mana.mana) == (Verb.ADD_MANA, 6, "R")


def test_teferis_are_data() -> None:
    voyager = card("Teferi, Timeless Voyager").abilities[2].effects[0]
    assert (voyager.verb, voyager.who, voyager.hold) == (
        Verb.PHASE_OUT, Who.EACH_CREATURE_TARGET_CONTROLS, True)
    master = card("Teferi, Master of Time").abilities
    assert all(a.any_time for a in master)
    assert (master[2].effects[0].verb, master[2].effects[0].amount) == (Verb.EXTRA_TURNS, 2)


def test_garruks_harbinger_is_data() -> None:
    (trigger,) = card("Garruk's Harbinger").triggers
    assert (trigger.event, trigger.subject, trigger.damage, trigger.recipient) == (
        TriggerEvent.DEALS_DAMAGE, TriggerSubject.THIS, DamageKind.COMBAT,
        Recipient.PLAYER_OR_PLANESWALKER)
    (look,) = trigger.effects
    assert (look.verb, look.amount_is_event, look.reveal) == (Verb.LOOK_AT_TOP, True, True)
    assert [f.subtypes for f in look.take] == [(), ("Garruk",)]


def test_ugin_is_data() -> None:
    _, minus, ultimate = card("Ugin, the Spirit Dragon").abilities
    assert (minus.loyalty, minus.loyalty_x) == (0, True)
    (exile,) = minus.effects
    assert exile.who is Who.EACH_PERMANENT and exile.filter is not None
    assert (exile.filter.colored, exile.filter.max_mana_value_x) == (True, True)
    assert ultimate.effects[2].find == "permanent"


def test_chandra_flames_catalyst_is_data() -> None:
    _, cast, ultimate = card("Chandra, Flame's Catalyst").abilities
    (effect,) = cast.effects
    assert (effect.verb, effect.optional, effect.exile_instead) == (Verb.CAST_CARD, True, True)
    assert effect.target is not None and effect.target.colors == ("R",)
    assert ultimate.effects[2].verb is Verb.FREE_CASTS_THIS_TURN
