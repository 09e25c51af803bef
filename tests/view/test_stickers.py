"""Stickers (rule 123) in projections and on the wire (GameObject.stickers, field 55)."""

from __future__ import annotations

from server.cards import card
from server.cards.verbs import PutSticker
from server.engine import Game, Zone, blank_game, layers
from server.engine.stickers import put_sticker
from server.engine.zones import create_object, move
from server.view import SPECTATOR, apply_ops, diff, project
from server.view.encode import encode_object
from tests.engine.helpers import narrow


def _sticker_game() -> tuple[Game, str]:
    game = blank_game(b"stickers-in-views-seed", ["a", "b"])
    corpse = create_object(game, card("Walking Corpse"), 0, Zone.BATTLEFIELD)
    for name in ("Test Big Sticker", "Test Wing Sticker"):
        sticker = narrow(PutSticker, card(name, include_test_cards=True).effects[0]).sticker
        assert sticker is not None
        assert put_sticker(game, 0, corpse, sticker)
    layers.refresh(game)
    return game, corpse.id


def test_123_stickers_are_projected_and_encoded_in_timestamp_order() -> None:
    game, oid = _sticker_game()
    for viewer in (0, 1, SPECTATOR):
        view = project(game, viewer).objects[oid]
        assert view.stickers == (("power_toughness", "4/4"), ("ability", "Flying"))
        assert (view.power, view.toughness) == (4, 4)  # rule 123.8
        assert "Flying" in view.keywords  # rule 123.7
    msg = encode_object(project(game, 0).objects[oid])
    assert [(s.kind, s.text) for s in msg.stickers] == [("power_toughness", "4/4"),
                                                        ("ability", "Flying")]
    assert msg.DESCRIPTOR.fields_by_name["stickers"].number == 55


def test_400_7m_stickers_follow_a_card_to_a_public_zone_but_not_a_hidden_one() -> None:
    game, oid = _sticker_game()
    before = project(game, 1)
    dead = move(game, oid, Zone.GRAVEYARD, [])
    after = project(game, 1)
    assert apply_ops(before, diff(before, after)) == after
    seen = after.objects[dead.id]
    assert seen.stickers == (("power_toughness", "4/4"), ("ability", "Flying"))
    assert (seen.power, seen.toughness) == (4, 4)
    assert "Flying" in seen.keywords
    in_hand = move(game, dead.id, Zone.HAND, [])
    assert in_hand.stickers == []  # rule 123.5
    assert project(game, 0).objects[in_hand.id].stickers == ()
    assert not encode_object(project(game, 0).objects[in_hand.id]).stickers


def test_123_3b_no_sticker_on_an_object_the_player_does_not_own() -> None:
    game = blank_game(b"stickers-in-views-seed", ["a", "b"])
    theirs = create_object(game, card("Walking Corpse"), 1, Zone.BATTLEFIELD)
    big = card("Test Big Sticker", include_test_cards=True)
    sticker = narrow(PutSticker, big.effects[0]).sticker
    assert sticker is not None
    assert not put_sticker(game, 0, theirs, sticker)
    assert project(game, 0).objects[theirs.id].stickers == ()
