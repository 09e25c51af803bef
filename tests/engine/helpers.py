"""Helpers for engine tests: start games and set up positions directly."""

from __future__ import annotations

import copy
import io
import json
import pickle
import random
from collections.abc import Iterator
from typing import Any, TypeVar

from server.cards import CardDef, card, demo_deck, load_pool, parse_decklist
from server.cards.verbs import Effect, EffectBase
from server.engine import (
    DecisionKind,
    Game,
    GameObject,
    PlayerSetup,
    Step,
    Zone,
    apply,
    new_game,
)
from server.engine import game as game_module
from server.engine.actions import ChooseStartingPlayer, KeepHand, PassPriority
from server.engine.zones import create_object

_V = TypeVar("_V", bound=EffectBase)


def narrow(cls: type[_V], effect: Effect) -> _V:
    """The effect as the class of its verb: a test knows which verb a card's data says (a
    wrong one fails here)."""
    assert isinstance(effect, cls), f"expected {cls.__name__}, got {effect!r}"
    return effect


SEED = b"manawire-test-seed-0123456789abcdef"

#: Two fixed vanilla decks (the walking-skeleton demo decks, kept here when the demo decks were
#: rebuilt from the whole set): the engine tests' games and positions depend on their exact
#: contents and shuffles, not on the shipped demo decks.
VANILLA_DECKS = {
    "naya": "4 Staunch Shieldmate\n4 Onakke Ogre\n4 Garruk's Gorehorn\n4 Shock\n"
            "4 Volcanic Geyser\n16 Mountain\n12 Plains\n12 Forest\n",
    "grixis": "4 Walking Corpse\n4 Wishcoin Crab\n4 Onakke Ogre\n4 Shock\n"
              "4 Volcanic Geyser\n16 Mountain\n12 Swamp\n12 Island\n",
}


def load_one(raw: dict[str, Any], behaviour: dict[str, Any], *,
             check_claims: bool = False) -> dict[str, CardDef]:
    """Load a pool of one card: its MTGJSON entry ``raw`` and its ``behaviour`` (keyed by
    its name). The vocabulary tests' made-up cards have placeholder Oracle text, so the
    paragraph claims aren't checked unless asked."""
    return load_pool(json.dumps({"data": {"cards": [raw]}}),
                     json.dumps({raw["name"]: behaviour}), check_claims=check_claims)


def vanilla_deck(name: str) -> list[CardDef]:
    """One of :data:`VANILLA_DECKS` (60 cards, rule 100.2a)."""
    return parse_decklist(VANILLA_DECKS[name])


def demo_game(seed: bytes = SEED) -> Game:
    """A new game between the two vanilla decks, started: the player chosen to choose (rule 103.1)
    takes the first turn and everyone keeps their hand (rule 103.5)."""
    game = new_game(seed, [PlayerSetup("Ann", vanilla_deck("naya")),
                           PlayerSetup("Bob", vanilla_deck("grixis"))])
    keep_all(game)
    return game


class _CardsKept(pickle.Pickler):
    """Pickles a game with each card definition (frozen) kept aside, as it is."""

    def __init__(self, file: io.BytesIO) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.cards: list[CardDef] = []

    def persistent_id(self, obj: Any) -> int | None:
        if type(obj) is CardDef:
            self.cards.append(obj)
            return len(self.cards) - 1
        return None


class _CardsBack(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, cards: list[CardDef]) -> None:
        super().__init__(file)
        self.cards = cards

    def persistent_load(self, pid: Any) -> CardDef:
        assert isinstance(pid, int)
        return self.cards[pid]


def copy_game(game: Game) -> Game:
    """A deep copy of ``game`` to play on apart (what :func:`copy.deepcopy` gives), 4-5 times
    faster: pickled and unpickled, each card definition (frozen) shared with the original.
    Falls back to :func:`copy.deepcopy` for a game holding something pickle can't copy."""
    file = io.BytesIO()
    pickler = _CardsKept(file)
    try:
        pickler.dump(game)
    except (pickle.PicklingError, AttributeError, TypeError):
        return copy.deepcopy(game)
    file.seek(0)
    copied: Game = _CardsBack(file, pickler.cards).load()
    return copied


def keep_all(game: Game) -> None:
    """Answer the start-of-game decisions: the chooser plays first; every hand is kept."""
    d = game.pending
    assert d is not None and d.kind is DecisionKind.CHOOSE_STARTING_PLAYER
    apply(game, d.seat, ChooseStartingPlayer(d.seat))
    while (d := game.pending) is not None and d.kind is DecisionKind.MULLIGAN:
        apply(game, d.seat, KeepHand())


def put(game: Game, seat: int, name: str, zone: Zone, *, sick: bool = False) -> GameObject:
    """Create a card in a zone (``sick``: came under control this turn, rule 302.6)."""
    obj = create_object(game, card(name), seat, zone)
    obj.controlled_since = game.turn if sick else game.turn - 1
    return obj


def refresh(game: Game) -> None:
    """Recompute the pending decision after a test changed the state by hand."""
    game_module._advance(game, [])


def pass_until(game: Game, step: Step, turn: int | None = None, limit: int = 500) -> None:
    """Pass priority (and finish any declarations empty) until the given step and turn."""
    from server.engine.actions import FinishAttackers, FinishBlockers

    for _ in range(limit):
        if game.step is step and (turn is None or game.turn == turn) and \
                game.pending is not None and game.pending.options[0] == PassPriority():
            return
        d = game.pending
        assert d is not None
        for choice in (PassPriority(), FinishAttackers(), FinishBlockers()):
            if choice in d.options:
                apply(game, d.seat, choice)
                break
        else:
            if d.kind.name != "DISCARD":
                raise AssertionError(f"cannot pass through decision {d.kind.name}")
            apply(game, d.seat, d.options[0])
    raise AssertionError(f"did not reach {step.name}")


def random_playout(game: Game, rng: random.Random, limit: int = 20_000) -> int:
    """Play random legal options until the game ends; return the number of actions."""
    for n in range(limit):
        if game.result is not None:
            return n
        d = game.pending
        assert d is not None and d.options, "a live game always has a decision with options"
        apply(game, d.seat, rng.choice(d.options))
    raise AssertionError("game did not finish")


def demo_trace(seed: int, decks: tuple[str, ...], actions: int) -> Iterator[object]:
    """A game of random legal choices between demo decks, as everything it showed: every
    decision, the events of every action (at most ``actions``) and the result -- to compare
    two ways of playing the same game."""
    rng = random.Random(seed)
    game = new_game(seed.to_bytes(16, "big"),
                    [PlayerSetup(f"p{i}", demo_deck(name)) for i, name in enumerate(decks)])
    for _ in range(actions):
        decision = game.pending
        if game.result is not None or decision is None:
            break
        yield decision
        yield apply(game, decision.seat, rng.choice(decision.options))
    yield game.result
