"""The mulligan's bottom-card prompt counts the cards (rule 103.5): "(1 of 2)", "(2 of 2)" --
a new player putting cards on the bottom after a second mulligan couldn't tell how many
were left to choose."""

from __future__ import annotations

from server.cards import demo_deck
from server.engine import PlayerSetup, apply, new_game
from server.engine.actions import Action, KeepHand, PutOnBottom, TakeMulligan
from server.engine.state import DecisionKind
from tests.view.test_prompts import _prompt


def test_103_5_the_bottom_card_prompt_counts_the_cards_to_put_on_the_bottom() -> None:
    game = new_game(bytes(16), [PlayerSetup(f"p{i}", demo_deck("golgari-grind"))
                                for i in range(2)])
    prompts: list[str] = []
    mulligans = 0
    for _ in range(200):
        decision = game.pending
        assert decision is not None
        if decision.kind is DecisionKind.PRIORITY:
            break
        options = decision.options
        pick: Action
        if decision.kind is DecisionKind.MULLIGAN:
            # Seat 0 takes two mulligans, then keeps; seat 1 keeps.
            take = decision.seat == 0 and mulligans < 2
            mulligans += take
            pick = next(a for a in options if isinstance(a, TakeMulligan if take else KeepHand))
        elif decision.kind is DecisionKind.BOTTOM_CARD:
            prompts.append(_prompt(game))
            pick = next(a for a in options if isinstance(a, PutOnBottom))
        else:
            pick = options[0]
        apply(game, decision.seat, pick)
    assert mulligans == 2
    # (Rule 103.5, 2026: the cards go on the bottom after each mulligan -- one after the
    # first, two for the new hand after the second.)
    assert prompts == [
        "Put a card from your hand on the bottom of your library.",
        "Put a card from your hand on the bottom of your library (1 of 2).",
        "Put a card from your hand on the bottom of your library (2 of 2).",
    ], prompts
