"""``manawire cards --vocabulary`` (issue 13): which vocabulary terms the cards use, and
which serve exactly one card -- counted from the loaded definitions, tokens included."""

from __future__ import annotations

import pytest

from server.cards import card, card_pool
from server.cards.amounts import AMOUNT_KINDS, Permanents, Whose
from server.cards.model import Condition, TargetKind, TriggerEvent, Verb
from server.cards.verbs import CreateToken
from server.cards.vocabulary import (
    FILTER_PREDICATES,
    VOCABULARIES,
    filter_usage,
    term_name,
    terms_of,
    usage,
    vocabulary_name,
)
from server.cli import main


def test_terms_of_a_card_are_read_from_its_behaviour() -> None:
    shock = terms_of(card("Shock"))
    assert Verb.DEAL_DAMAGE in shock and TargetKind.PLAYER_OR_PERMANENT in shock
    assert Verb.DRAW not in shock
    visionary = terms_of(card("Llanowar Visionary"))
    assert {Verb.DRAW, TriggerEvent.ZONE_CHANGE} <= visionary
    assert Verb.DEAL_DAMAGE not in visionary


def test_a_token_makers_terms_include_its_token() -> None:
    # Rule 111.1: the token's characteristics and abilities come from the effect creating
    # it. Pursued Whale's Pirate tokens have "This creature can't block." (a static).
    whale = card("Pursued Whale")
    token = next(e.token for a in whale.triggers for e in a.effects if isinstance(e, CreateToken))
    assert token is not None and token.statics
    assert terms_of(token) and terms_of(token) <= terms_of(whale)


def test_usage_counts_the_cards_of_each_term() -> None:
    pool = {n: card(n) for n in ("Shock", "Volcanic Geyser", "Llanowar Visionary")}
    verbs = next(v for v in usage(pool) if v.kind is Verb)
    assert verbs.users[Verb.DEAL_DAMAGE] == ("Shock", "Volcanic Geyser")
    assert verbs.users[Verb.DRAW] == ("Llanowar Visionary",)
    assert Verb.DRAW in verbs.single_use and Verb.DEAL_DAMAGE not in verbs.single_use
    assert Verb.MILL in verbs.unused


def test_filter_predicates_are_counted_wherever_a_filter_is() -> None:
    """One description everywhere (issue 13): a target's, an "each"'s and a static's filter
    predicates are counted alike."""
    pool = {n: card(n) for n in ("Feat of Resistance", "Pack Leader", "Bolt Hound", "Shock")}
    used = filter_usage(pool)
    assert used["card_types"] == ("Bolt Hound", "Feat of Resistance", "Pack Leader", "Shock")
    assert used["subtypes"] == ("Pack Leader",)
    assert used["other"] == ("Bolt Hound", "Pack Leader")
    assert "min_power" not in used and set(used) <= set(FILTER_PREDICATES)


def test_cli_prints_a_line_per_vocabulary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "--vocabulary"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{len(card_pool())} supported cards"
    heads = [ln for ln in lines[1:] if not ln.startswith("  ")]
    assert [h.split(":", 1)[0] for h in heads] == [
        *(vocabulary_name(v) for v in VOCABULARIES), "ObjectFilter"]
    verbs = next(v for v in usage(card_pool()) if v.kind is Verb)
    assert heads[0] == (f"Verb: {len(Verb)} terms, {len(verbs.users)} used, "
                        f"{len(verbs.single_use)} by exactly one card")


def test_amount_kinds_are_a_vocabulary() -> None:
    # Turret Ogre's condition counts permanents (rule 603.4: an intervening "if"); the kinds
    # of amount are counted like the enums, by their data names.
    ogre = terms_of(card("Turret Ogre"))
    assert Permanents in ogre and Whose.YOU in ogre and Condition.YOU_DID not in ogre
    amounts = next(v for v in usage(card_pool()) if v.name == "Amount")
    assert Permanents in amounts.users and len(amounts.members) == len(AMOUNT_KINDS)
    assert term_name(Permanents) == "permanents" and term_name(Whose.YOU) == "you"
