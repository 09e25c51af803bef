"""The e2e leak checks' notion of a secret (tests/e2e/leaks.py): a card revealed to all
(701.20a) is shown to spectators while it is, every other hidden card never is."""

from __future__ import annotations

import random

from server.cards import demo_deck
from server.engine import PlayerSetup, apply, new_game
from server.engine.actions import Action
from server.engine.events import CardsRevealed
from server.sim import random_option
from server.view import SPECTATOR
from tests.e2e.leaks import replay_secrets

SEED = b"leaks-helper-seed-0004"  # (a game that reveals a card to all)


def _setups() -> list[PlayerSetup]:
    return [PlayerSetup("a", demo_deck("gainland-mosaic")),
            PlayerSetup("b", demo_deck("golgari-grind"))]


def test_a_card_revealed_to_all_is_shown_and_the_rest_stay_secret_701_20a() -> None:
    game = new_game(SEED, _setups())
    rng = random.Random(0)
    log: list[tuple[int, Action]] = []
    revealed: set[str] = set()
    first_libraries = {i for p in game.players for i in p.library}
    while game.result is None and len(log) < 5_000:
        decision = game.pending
        assert decision is not None
        action = random_option(rng, decision.options)  # (never a cast taken back)
        log.append((decision.seat, action))
        for event in apply(game, decision.seat, action):
            if isinstance(event, CardsRevealed) and SPECTATOR in event.seats:
                revealed.update(event.object_ids)
    assert revealed, "the game should reveal a card to all (change the seed if not)"
    secrets = replay_secrets(new_game(SEED, _setups()), log, [0, 1, SPECTATOR])
    never, shown = secrets.never_shown[SPECTATOR], secrets.shown[SPECTATOR]
    assert revealed <= shown and not revealed & never
    # Every card of the opening libraries that was never revealed stays a secret.
    assert first_libraries - shown <= never
    # A player's own hand is never a secret to it; the other's hand is (unless revealed).
    hand = set(game.players[0].hand)
    assert hand and not hand & secrets.never_shown[0]
    assert hand - secrets.shown[1] <= secrets.never_shown[1]
