"""Paying automatically (``PayAutomatically``, :mod:`server.engine.autopay`; rules 601.2g-h,
118.12a, a shortcut 732.2a) in random games of every demo deck: wherever it is offered, it
completes the payment as one action, and it is exactly the options it stands for.

Behaviour on set positions (which lands it taps): tests/scenarios/autopay.yaml.
"""

from __future__ import annotations

import random

import pytest

from server.cards import demo_deck, demo_deck_names
from server.engine import Game, PlayerSetup, apply, new_game
from server.engine.actions import PassPriority, PayAutomatically
from server.engine.autopay import next_payment
from server.engine.state import DecisionKind
from server.view import project
from server.view.encode import encode_decision
from tests.engine.helpers import copy_game


def _state(game: Game) -> tuple[object, ...]:
    """What a payment changes: the objects (zone, tapped), pools, life, the stack, the
    pending decision."""
    pending = game.pending
    return (sorted((o.id, o.zone.name, o.tapped) for o in game.objects.values()),
            [(p.mana_pool, p.life) for p in game.players], list(game.stack),
            None if pending is None else (pending.seat, pending.kind, pending.options))


#: Decks of a game: drawn at random, and the demo deck with Prismite, a source that turns
#: mana into other mana (the position where a bot's game stalled on it is the last scenario
#: of tests/scenarios/autopay.yaml: random play rarely reaches one).
TABLES: tuple[tuple[str, str] | None, ...] = (None, None, ("gainland-mosaic", "simic-draw"))


def test_601_2h_pay_automatically_completes_every_payment_it_is_offered_for() -> None:
    rng = random.Random(1)
    names = demo_deck_names()
    tried = 0
    for game_seed, table in enumerate(TABLES):  # a few games, each to its end
        decks = table or (rng.choice(names), rng.choice(names))
        game = new_game(bytes([game_seed]) * 16,
                        [PlayerSetup(f"p{i}", demo_deck(deck)) for i, deck in enumerate(decks)])
        for _ in range(3000):
            if game.result is not None:
                break
            if _try_paying(game):
                tried += 1
                if rng.random() < 0.5:  # play on from the automatic payment half the time
                    d = game.pending
                    assert d is not None
                    apply(game, d.seat, PayAutomatically())
                    continue
            d = game.pending
            assert d is not None
            acting = [a for a in d.options if not isinstance(a, PassPriority | PayAutomatically)]
            apply(game, d.seat,
                  rng.choice(acting) if acting and rng.random() < 0.8 else rng.choice(d.options))
    assert tried > 20, tried  # it really paid


def _try_paying(game: Game) -> bool:
    """If paying automatically is offered, check it on copies of ``game``; whether it was."""
    d = game.pending
    assert d is not None
    if PayAutomatically() not in d.options:
        return False
    assert d.kind is DecisionKind.PAY_MANA
    paying = game.casting.object_id if game.casting is not None else None
    auto, manual = copy_game(game), copy_game(game)
    count = auto.action_count
    apply(auto, d.seat, PayAutomatically())
    assert auto.action_count == count + 1  # one action in the log
    after = auto.pending
    # Paid: the spell or ability was cast (601.2i), or the "unless" choice answered.
    assert after is None or after.kind is not DecisionKind.PAY_MANA \
        or (auto.casting is not None and auto.casting.object_id != paying), after
    # The same as taking, one by one, the options it stands for.
    for _ in range(64):
        step = next_payment(manual, d.seat)
        if step is None:
            break
        assert manual.pending is not None and step in manual.pending.options
        apply(manual, d.seat, step)
    assert _state(manual) == _state(auto)
    if after is not None:
        encode_decision(after, project(auto, after.seat), "r", 1)
    return True


def test_a_payment_that_can_take_no_step_asks_again_under_a_new_prompt(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Paying automatically that took no step changed nothing: the decision stayed under
    its prompt, and a client waiting for the next one waited for ever (a bot's game)."""
    from server.engine import autopay

    rng = random.Random(3)
    game = new_game(bytes(16), [PlayerSetup(f"p{i}", demo_deck("rakdos-aggro"))
                                for i in range(2)])
    for _ in range(3000):
        d = game.pending
        assert d is not None and game.result is None
        if PayAutomatically() in d.options:
            break
        acting = [a for a in d.options if not isinstance(a, PassPriority | PayAutomatically)]
        apply(game, d.seat, rng.choice(acting) if acting else d.options[0])
    d = game.pending
    assert d is not None and PayAutomatically() in d.options
    monkeypatch.setattr(autopay, "next_payment", lambda _game, _seat: None)
    count = game.action_count
    apply(game, d.seat, PayAutomatically())
    again = game.pending
    assert again is not None and again.prompt_id > d.prompt_id
    assert again.options == d.options and game.action_count == count + 1
