"""Load-time validation of the vocabulary added for the twelfth M21 batch: an amount as half
of a count, rounded up or down (rule 107.1a), and counts of the player an effect affects --
"their library" (401.1), "their life" (119.1)."""

from __future__ import annotations

from typing import Any

import pytest

from server.cards import CardDataError, card
from server.cards.amounts import Cards, CardZone, Life, Scaled, Whose
from server.cards.model import ReplacementKind, Rounding, Verb
from server.cards.verbs import Draw, LoseLife, RevealUntil
from server.engine.counting import evaluate
from tests.engine.helpers import demo_game, load_one, narrow


def _load(behaviour: dict[str, Any]) -> None:
    kind = "Enchantment" if "replacements" in behaviour else "Sorcery"
    raw: dict[str, Any] = {"name": "T", "types": [kind], "manaCost": "{2}{B}",
                           "text": "Something."}
    load_one(raw, behaviour)


def _effects(*effects: dict[str, Any]) -> dict[str, Any]:
    return {"effects": list(effects)}


_THEIR_LIBRARY = {"kind": "cards", "zone": "library", "whose": "their"}


@pytest.mark.parametrize(("behaviour", "message"), [
    # the rounding must be said (107.1a) and spelt right
    (_effects({"verb": "draw", "amount": {"kind": "scaled", "amount": _THEIR_LIBRARY,
                                         "half": "upward"}}), "unknown value 'upward'"),
    (_effects({"verb": "draw", "amount": {"kind": "scaled", "amount": _THEIR_LIBRARY,
                                         "half": True}}),
     "unknown value"),
    (_effects({"verb": "draw", "amount": {"kind": "cards", "zone": "libary"}}),
     "unknown value 'libary'"),
    (_effects({"verb": "draw", "amount": {"kind": "scaled", "amount": _THEIR_LIBRARY,
                                         "halve": "up"}}),
     "takes no \\['halve'\\]"),
    # a verb with no amount has nothing to halve
    (_effects({"verb": "destroy", "target": "creature", "amount": 2}),
     "unknown field\\(s\\) \\['amount'\\]: destroy takes"),
    # "their library/life" counts the affected player: only verbs that affect players
    (_effects({"verb": "deal_damage", "target": "any", "amount": {"kind": "life",
                                                                   "whose": "their"}}),
     "counts the player the effect affects"),
    (_effects({"verb": "create_token", "amount": _THEIR_LIBRARY,
               "token": {"types": ["Creature"], "power": 1, "toughness": 1}}),
     "counts the player the effect affects"),
    # "reveal cards until they reveal a [quality] card": a quality and a destination
    (_effects({"verb": "reveal_until", "find": "creature"}), "reveal_until needs a 'find'"),
    (_effects({"verb": "reveal_until", "destination": "battlefield"}),
     "reveal_until needs a 'find'"),
    (_effects({"verb": "reveal_until", "find": "creature", "destination": "graveyard"}),
     "reveal_until needs a 'find'"),
    (_effects({"verb": "reveal_until", "find": "creatur", "destination": "hand"}),
     "unknown quality 'creatur'"),
    (_effects({"verb": "reveal_until", "find": "creature", "destination": "hand",
               "amount": 2}), "unknown field"),
    # "draw [1 + extra] cards instead": the controller's own draws, no filter
    ({"replacements": [{"kind": "extra_draws", "extra": 1, "filter": {}}]},
     "which takes none"),
    ({"replacements": [{"kind": "extra_draws"}]}, r"takes \['extra'\]"),
    ({"replacements": [{"kind": "extra_draws", "extra": 0}]}, "extra: at least 1"),
    ({"replacements": [{"kind": "extra_draws", "extra": 1, "factor": 2}]},
     r"takes \['extra'\]"),
    ({"replacements": [{"kind": "extra_draw", "extra": 1}]}, "unknown value 'extra_draw'"),
    ({"replacements": [{"kind": "extra_counters", "counter": "+1/+1", "extra": 1}]},
     "needs a 'filter'"),
])
def test_rejected(behaviour: dict[str, Any], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        _load(behaviour)


def test_peer_into_the_abyss_is_data() -> None:
    peer = card("Peer into the Abyss")
    draw, lose = narrow(Draw, peer.effects[0]), narrow(LoseLife, peer.effects[1])
    assert (draw.verb, draw.amount) == (Verb.DRAW, Scaled(
        Cards(CardZone.LIBRARY, Whose.THEIR), half=Rounding.UP))
    assert (lose.verb, lose.amount) == (Verb.LOSE_LIFE, Scaled(Life(Whose.THEIR),
                                                               half=Rounding.UP))


def test_teferis_ageless_insight_is_data() -> None:
    (rep,) = card("Teferi's Ageless Insight").replacements
    assert (rep.kind, rep.extra) == (ReplacementKind.EXTRA_DRAWS, 1)


def test_transmogrify_is_data() -> None:
    exile, reveal = card("Transmogrify").effects[0], narrow(RevealUntil,
                                                             card("Transmogrify").effects[1])
    assert (exile.verb, reveal.verb, reveal.find, reveal.destination) == (
        Verb.EXILE, Verb.REVEAL_UNTIL, "creature", "battlefield")


def test_107_1a_halving_rounds_as_told_and_107_1b_never_below_zero() -> None:
    game = demo_game()
    seat = game.active

    def halved(n: int, half: Rounding | None) -> int:
        game.player(seat).life = n
        return evaluate(game, Scaled(Life(), half=half), seat, "")
    assert [halved(n, Rounding.UP) for n in (0, 1, 4, 5, -3)] == [0, 1, 2, 3, 0]
    assert [halved(n, Rounding.DOWN) for n in (0, 1, 4, 5, -3)] == [0, 0, 2, 2, 0]
    assert halved(5, None) == 5
