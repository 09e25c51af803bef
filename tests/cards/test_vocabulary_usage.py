"""``manawire cards --vocabulary`` (issue 13): which vocabulary terms the cards use, and
which serve exactly one card -- counted from the loaded definitions, tokens included."""

from __future__ import annotations

import pytest

from server.cards import card, card_pool
from server.cards.model import TargetKind, TriggerEvent, Verb
from server.cards.vocabulary import VOCABULARIES, terms_of, usage
from server.cli import main


def test_terms_of_a_card_are_read_from_its_behaviour() -> None:
    shock = terms_of(card("Shock"))
    assert Verb.DEAL_DAMAGE in shock and TargetKind.ANY in shock
    assert Verb.DRAW not in shock
    visionary = terms_of(card("Llanowar Visionary"))
    assert {Verb.DRAW, TriggerEvent.ZONE_CHANGE} <= visionary
    assert Verb.DEAL_DAMAGE not in visionary


def test_a_token_makers_terms_include_its_token() -> None:
    # Rule 111.1: the token's characteristics and abilities come from the effect creating
    # it. Pursued Whale's Pirate tokens have "This creature can't block." (a static).
    whale = card("Pursued Whale")
    token = next(e.token for a in whale.triggers for e in a.effects if e.token is not None)
    assert token is not None and token.statics
    assert terms_of(token) and terms_of(token) <= terms_of(whale)


def test_usage_counts_the_cards_of_each_term() -> None:
    pool = {n: card(n) for n in ("Shock", "Volcanic Geyser", "Llanowar Visionary")}
    verbs = next(v for v in usage(pool) if v.kind is Verb)
    assert verbs.users[Verb.DEAL_DAMAGE] == ("Shock", "Volcanic Geyser")
    assert verbs.users[Verb.DRAW] == ("Llanowar Visionary",)
    assert Verb.DRAW in verbs.single_use and Verb.DEAL_DAMAGE not in verbs.single_use
    assert Verb.MILL in verbs.unused


def test_cli_prints_a_line_per_vocabulary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "--vocabulary"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{len(card_pool())} supported cards"
    heads = [ln for ln in lines[1:] if not ln.startswith("  ")]
    assert [h.split(":", 1)[0] for h in heads] == [v.__name__ for v in VOCABULARIES]
    verbs = next(v for v in usage(card_pool()) if v.kind is Verb)
    assert heads[0] == (f"Verb: {len(Verb)} terms, {len(verbs.users)} used, "
                        f"{len(verbs.single_use)} by exactly one card")
