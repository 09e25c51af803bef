"""Load-time validation of the vocabulary added for the fourteenth M21 batch: planeswalkers and
their support cards -- "whenever you activate a loyalty ability of a [filter] planeswalker"
(rules 606.4, 602.2i)."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError, card
from server.cards.amounts import (
    Cards,
    CardZone,
    Compare,
    Difference,
    EventAmount,
    Fixed,
    Permanents,
    Scaled,
    TurnFact,
    TurnFactKind,
    Whose,
)
from server.cards.model import (
    Controller,
    DamageKind,
    Each,
    ObjectFilter,
    ObjectRef,
    Players,
    Recipient,
    TargetKind,
    TriggerEvent,
    TriggerStep,
    TriggerSubject,
    Verb,
)
from server.cards.verbs import (
    AddMana,
    CastCard,
    CreateEmblem,
    DealDamage,
    Discard,
    Exile,
    ExileTop,
    ExtraTurns,
    LookAtTop,
    LoseLife,
    ModifyPT,
    PhaseOut,
    PutCounters,
    RestrictThisTurn,
    RevealTop,
    Search,
    by_of,
    who_of,
)
from tests.engine.helpers import load_one, narrow


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
    ({"effects": [{"verb": "deal_damage", "target": "any", "amount": {
        "kind": "cards", "zone": "graveyard", "whose": "their",
        "filter": {"types": ["Creature"]}}}]}, "counts the player the effect affects"),
    ({"effects": [{"verb": "lose_life", "target": "opponent", "amount": {
        "kind": "cards", "zone": "graveyards", "whose": "their"}}]}, "unknown value"),
    # "if an opponent controls more creatures than you": a filter of each player's own
    ({"effects": [{"verb": "draw", "condition": {"amount": {
        "kind": "permanents", "whose": "an_opponent"}, "at_least": 1}}]}, "'filter'"),
    ({"effects": [{"verb": "draw", "condition": {"amount": {
        "kind": "permanents", "whose": "an_opponent",
        "filter": {"types": ["Creature"], "controller": "opponent"}}, "at_least": 1}}]},
     "the filter's controller is 'you'"),
    ({"effects": [{"verb": "draw", "condition": {"amount": {
        "kind": "permanents", "whose": "opponents", "filter": {"types": ["Creature"]}},
        "at_least": 1}}]}, "from one player's point of view"),
    ({"effects": [{"verb": "draw", "condition": {"amount": {
        "kind": "difference", "amount": {"kind": "party"}}, "at_least": 1}}]},
     "needs 'minus'"),
    ({"effects": [{"verb": "draw", "amount": {"kind": "opponent_has_more",
                                              "filter": {"types": ["Creature"]}}}]},
     "unknown amount kind 'opponent_has_more'"),
    # "Each opponent who can't [discard]": after a discard, a player verb
    ({"effects": [{"verb": "lose_life", "amount": 3, "who": "each_opponent_who_couldnt"}]},
     "follows a discard"),
    ({"effects": [{"verb": "discard", "who": "each_player"},
                  {"verb": "destroy", "who": "each_opponent_who_couldnt"}]},
     "destroy acts on objects; 'each_opponent_who_couldnt' names a player set"),
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
                   "amount": {"kind": "cards", "zone": "your_graveyard"}}]}, "unknown value"),
    # "target creature or planeswalker that player controls": a triggered ability's target
    ({"effects": [{"verb": "deal_damage", "amount": 2, "target": {
        "kind": "permanent", "filter": {"controller": "that_player"}}}]},
     "is for a triggered ability's target"),
    ({"abilities": [{"cost": "{1}", "effects": [{"verb": "destroy", "target": {
        "kind": "permanent", "filter": {"controller": "that_player"}}}]}]},
     "is for a triggered ability's target"),
    ({"triggers": [{"when": "dealt_damage", "effects": [{"verb": "destroy", "target": {
        "kind": "permanent", "filter": {"controller": "that_players"}}}]}]},
     "controller: unknown value 'that_players'"),
    ({"triggers": [{"when": "dealt_damage", "effects": [{"verb": "destroy", "target": {
        "kind": "permanent", "that_player_controls": True}}]}]}, "unknown field"),
    ({"cost_reduction": {"amount": {"kind": "turn", "fact": "noncombat_damage_dealt",
                                    "whose": "opponents"}},
      "triggers": [{"when": "dealt_damage", "effects": [{"verb": "draw"}]}]},
     "unknown value 'noncombat_damage_dealt'"),
    # "Reveal the top card. If it's a creature card, put it into your hand. Otherwise, ..."
    ({"effects": [{"verb": "reveal_top", "find": "creature"}]}, "reveal_top puts a card"),
    ({"effects": [{"verb": "reveal_top", "destination": "hand"}]}, "reveal_top puts a card"),
    ({"effects": [{"verb": "reveal_top", "find": "creature", "destination": "hand",
                   "otherwise": "graveyard"}]}, "reveal_top puts a card"),
    ({"effects": [{"verb": "reveal_top", "find": "creature", "destination": "battlefield"}]},
     "reveal_top puts a card"),
    ({"effects": [{"verb": "draw", "otherwise": "library_bottom"}]}, "unknown field"),
    # "Target creature you control deals damage ...": the next effect's subject
    ({"effects": [{"verb": "target"}]}, "'target' is required exactly when who is 'target'"),
    ({"effects": [{"verb": "target", "target": "creature"}]}, "subject of the next effect"),
    ({"effects": [{"verb": "target", "target": "creature"},
                  {"verb": "deal_damage", "amount": 2, "target": "creature"}]},
     "subject of the next effect"),
    ({"effects": [{"verb": "target", "target": "creature", "amount": 2},
                  {"verb": "destroy", "who": "that"}]}, "unknown field"),
    # "... assign its combat damage as though it weren't blocked"
    ({"effects": [{"verb": "restrict_this_turn", "who": {"each": {"controller": "you"}},
                   "restrictions": ["assign_as_unblocked"]}]}, "restrictions: expected"),
    ({"effects": [{"verb": "restrict_this_turn", "who": "each_opponent",
                   "restrictions": ["assigns_as_unblocked"]}]},
     "restrict_this_turn acts on objects; 'each_opponent' names a player set"),
    # "a Liliana planeswalker you control": chosen as performed, described by a filter
    ({"effects": [{"verb": "put_counters", "counter": "loyalty", "who": "chosen_one"}]},
     "'filter' is given exactly"),
    ({"effects": [{"verb": "draw", "who": "chosen_one",
                   "filter": {"types": ["Planeswalker"]}}]},
     "draw acts on players; 'chosen_one' names an object"),
    ({"effects": [{"verb": "put_counters", "counter": "loyalty", "who": "chosen_one",
                   "amount": {"kind": "party"}, "filter": {"types": ["Planeswalker"]}}]},
     "with a fixed 'amount' if any"),
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
    ({"effects": [{"verb": "add_mana", "amount": 6}]}, "add_mana needs a 'mana'"),
    ({"effects": [{"verb": "add_mana", "amount": 6, "mana": "R", "colors": ["R"]}]},
     "unknown field\\(s\\) \\['colors'\\]: add_mana takes"),
    ({"effects": [{"verb": "add_mana", "amount": 6, "mana": "R", "who": "each_player"}]},
     "unknown field"),
    # "Each creature target opponent controls phases out": a player target
    ({"effects": [{"verb": "phase_out", "who": {"each": {}, "of": "target"}}]},
     "'target' is required exactly"),
    ({"effects": [{"verb": "phase_out", "who": {"each": {}, "of": "target"},
                   "target": "creature"}]}, "'of': 'target' targets a player"),
    ({"effects": [{"verb": "phase_out", "who": {"each": {}, "of": "that"}}]},
     "of: expected 'you', 'chooser' or 'target'"),
    ({"effects": [{"verb": "phase_out", "who": {"every": {}}}]}, "unknown field"),
    ({"effects": [{"verb": "phase_out", "who": {"of": "you"}}]}, "expected 'each'"),
    ({"effects": [{"verb": "scry", "who": {"each": {}}}]}, "'each' names permanents"),
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
    ({"effects": [{"verb": "exile", "who": "each_permanent"}]}, "unknown value"),
    ({"effects": [{"verb": "exile", "who": {"each": {}}, "filter": {}}]},
     "'filter' is given exactly"),
    ({"effects": [{"verb": "draw", "who": {"each": {}}}]}, "'each' names permanents"),
    ({"effects": [{"verb": "exile", "who": {"each": {"colored": "yes"}}}]},
     "colored: expected true or false"),
    ({"effects": [{"verb": "exile", "who": {"each": {"max_mana_value": "Y"}}}]},
     "max_mana_value: expected"),
    ({"effects": [{"verb": "search", "zones": ["hand"], "find": "permanents",
                   "destination": "battlefield"}]}, "unknown quality"),
    # "You may cast target red instant or sorcery card from your graveyard"
    ({"effects": [{"verb": "cast_card", "target": {
        "kind": "card_in_graveyard", "filter": {"controller": "you"}}}]},
     "cast_card .* needs"),
    ({"effects": [{"verb": "cast_card", "optional": True, "target": "creature"}]},
     "cast_card .* needs"),
    ({"effects": [{"verb": "cast_card", "optional": True, "exile_instead": "yes",
                   "target": {"kind": "card_in_graveyard", "filter": {"controller": "you"}}}]},
     "exile_instead: expected true or false"),
    ({"effects": [{"verb": "cast_card", "optional": True, "target": {
        "kind": "card_in_graveyard", "filter": {"controller": "you", "colors": ["Red"]}}}]},
     "expected letters of WUBRG"),
    ({"effects": [{"verb": "cast_card", "optional": True, "target": {
        "kind": "card_in_graveyard", "filter": {"controller": "any"}}}]}, "cast_card .* needs"),
    # rule 115.1: what a target's filter may say depends on its kind
    ({"effects": [{"verb": "counter", "target": {
        "kind": "spell", "filter": {"tapped": True}}}]},
     "a 'spell' target can't be \\['tapped'\\]"),
    ({"effects": [{"verb": "draw", "target": {
        "kind": "player", "filter": {"types": ["Creature"]}}}]}, "a 'player' target can't be"),
    ({"effects": [{"verb": "tap", "target": {
        "kind": "permanent", "filter": {"tapped": True, "untapped": True}}}]}, "contradict"),
    ({"effects": [{"verb": "tap", "target": "creatures"}]}, "unknown value 'creatures'"),
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
    drain = narrow(LoseLife, card("Liliana, Death Mage").abilities[2].effects[0])
    assert (drain.verb, drain.amount) == (Verb.LOSE_LIFE, Scaled(Cards(
        CardZone.GRAVEYARD, Whose.THEIR, ObjectFilter(card_types=("Creature",))), 2))
    counter = card("Garruk, Unleashed").abilities[1].effects[1]
    creatures = ObjectFilter(card_types=("Creature",))
    assert counter.condition == Compare(Difference(Permanents(creatures, whose=Whose.AN_OPPONENT),
                                                   Permanents(creatures)), at_least=1)


def test_liliana_waker_of_the_dead_is_data() -> None:
    plus, minus, ultimate = card("Liliana, Waker of the Dead").abilities
    assert who_of(plus.effects[1]) is Players.EACH_OPPONENT_WHO_COULDNT
    assert narrow(ModifyPT, minus.effects[0]).amount == Cards(CardZone.GRAVEYARD,
                                                              filter=ObjectFilter())
    emblem = narrow(CreateEmblem, ultimate.effects[0]).emblem
    put, haste_effect = emblem.triggers[0].effects
    haste = narrow(ModifyPT, haste_effect)
    put_target = put.target_req
    assert put_target is not None and put_target.kind is TargetKind.CARD_IN_GRAVEYARD
    assert put_target.filter == ObjectFilter(card_types=("Creature",), controller=Controller.ANY)
    assert (haste.who, haste.lasting) == (ObjectRef.FOUND, True)


def test_chandras_incinerator_is_data() -> None:
    incinerator = card("Chandra's Incinerator")
    assert incinerator.cost_reduction is not None
    assert incinerator.cost_reduction.amount == TurnFact(TurnFactKind.NONCOMBAT_DAMAGE_TAKEN,
                                                         Whose.OPPONENTS)
    (trigger,) = incinerator.triggers
    effect = narrow(DealDamage, trigger.effects[0])
    assert effect.target is not None
    assert effect.target.filter.controller is Controller.THAT_PLAYER
    assert effect.amount == EventAmount()


def test_garruk_savage_herald_is_data() -> None:
    reveal, fight, ultimate = card("Garruk, Savage Herald").abilities
    top = narrow(RevealTop, reveal.effects[0])
    assert (top.verb, top.find, top.destination, top.otherwise) == (
        Verb.REVEAL_TOP, "creature", "hand", "library_bottom")
    subject, damage = fight.effects
    assert (subject.verb, by_of(damage)) == (Verb.TARGET, ObjectRef.THAT)
    assert narrow(RestrictThisTurn, ultimate.effects[0]).restrictions == (
        "assigns_as_unblocked",)


def test_lilianas_scrounger_is_data() -> None:
    (trigger,) = card("Liliana's Scrounger").triggers
    assert (trigger.event, trigger.step, trigger.whose) == (
        TriggerEvent.STEP, TriggerStep.END, Controller.ANY)  # "each end step" (513.1a)
    effect = narrow(PutCounters, trigger.effects[0])
    assert (effect.who, effect.optional, effect.counter) == (ObjectRef.CHOSEN_ONE, True, "loyalty")


def test_chandra_heart_of_fire_is_data() -> None:
    plus, _, ultimate = card("Chandra, Heart of Fire").abilities
    discard, exile = narrow(Discard, plus.effects[0]), narrow(ExileTop, plus.effects[1])
    assert discard.whole_hand and (exile.verb, exile.amount, exile.may_play) == (
        Verb.EXILE_TOP, Fixed(3), True)
    search, mana = narrow(Search, ultimate.effects[0]), narrow(AddMana, ultimate.effects[1])
    assert search.filter is not None and (search.find, search.filter.colors, search.may_play) \
        == ("instant_or_sorcery", ("R",), True)
    assert (mana.verb, mana.amount, mana.mana) == (Verb.ADD_MANA, Fixed(6), "R")


def test_teferis_are_data() -> None:
    voyager = narrow(PhaseOut, card("Teferi, Timeless Voyager").abilities[2].effects[0])
    assert (voyager.verb, voyager.who, voyager.hold) == (Verb.PHASE_OUT, Each(ObjectFilter(
        card_types=("Creature",), controller=Controller.YOU), of=Players.TARGET), True)
    master = card("Teferi, Master of Time").abilities
    assert all(a.any_time for a in master)
    assert narrow(ExtraTurns, master[2].effects[0]).amount == Fixed(2)


def test_garruks_harbinger_is_data() -> None:
    (trigger,) = card("Garruk's Harbinger").triggers
    assert (trigger.event, trigger.subject, trigger.damage, trigger.recipient) == (
        TriggerEvent.DEALS_DAMAGE, TriggerSubject.THIS, DamageKind.COMBAT,
        Recipient.PLAYER_OR_PLANESWALKER)
    look = narrow(LookAtTop, trigger.effects[0])
    assert (look.verb, look.amount, look.reveal) == (Verb.LOOK_AT_TOP, EventAmount(), True)
    assert [f.subtypes for f in look.take] == [(), ("Garruk",)]


def test_ugin_is_data() -> None:
    _, minus, ultimate = card("Ugin, the Spirit Dragon").abilities
    assert (minus.loyalty, minus.loyalty_x) == (0, True)
    exile = narrow(Exile, minus.effects[0])
    assert isinstance(exile.who, Each) and exile.filter is None
    assert (exile.who.filter.colored, exile.who.filter.max_mana_value_x) == (True, True)
    assert narrow(Search, ultimate.effects[2]).find == "permanent"


def test_chandra_flames_catalyst_is_data() -> None:
    _, cast, ultimate = card("Chandra, Flame's Catalyst").abilities
    effect = narrow(CastCard, cast.effects[0])
    assert (effect.verb, effect.optional, effect.exile_instead) == (Verb.CAST_CARD, True, True)
    assert effect.target is not None and effect.target.filter.colors == ("R",)
    assert ultimate.effects[2].verb is Verb.FREE_CASTS_THIS_TURN
