"""A trampler's division of combat damage names whom the excess goes to (rules 702.19c,
506.3-506.4): "5 to Bob" -- a new player read "5 to the player or planeswalker it
attacks" and had to work out who that was."""

from __future__ import annotations

from client_sdk.describe import option_text
from protocol.v1 import game_pb2 as pb
from tests.terminal.test_board import ANN, BATTLEFIELD, BOB, _Names, _obj


def _division(attacker: str, blocker_amount: int, rest: int) -> pb.Action:
    return pb.Action(assign_combat_damage=pb.AssignCombatDamage(
        attacker_id=attacker, assignments=[
            pb.DamageAssignment(object_id="b1", amount=blocker_amount),
            pb.DamageAssignment(object_id="", amount=rest)]))


def test_702_19c_trample_damage_past_the_blocker_goes_to_the_attacked_player_by_name() -> None:
    names = _Names(
        _obj("a1", "Colossal Dreadmaw", BATTLEFIELD, ANN, attacking=BOB),
        _obj("a2", "Colossal Dreadmaw", BATTLEFIELD, BOB, attacking=ANN),
        _obj("b1", "Grizzly Bears", BATTLEFIELD, BOB))
    assert option_text(names, _division("a1", 2, 4)) == \
        "Colossal Dreadmaw deals 2 to Grizzly Bears, 4 to Bob"
    # Attacking the viewer: "you".
    assert option_text(names, _division("a2", 2, 4)).endswith("4 to you")


def test_506_3_trample_damage_to_an_attacked_planeswalker_names_it() -> None:
    names = _Names(
        _obj("a1", "Colossal Dreadmaw", BATTLEFIELD, ANN, attacking=BOB,
             attacking_planeswalker="p1"),
        _obj("p1", "Basri Ket", BATTLEFIELD, BOB),
        _obj("b1", "Grizzly Bears", BATTLEFIELD, BOB))
    assert option_text(names, _division("a1", 2, 4)).endswith("4 to Basri Ket")


def test_an_attacker_the_viewer_cant_see_keeps_the_general_words() -> None:
    names = _Names(_obj("b1", "Grizzly Bears", BATTLEFIELD, BOB))
    assert option_text(names, _division("gone", 2, 4)).endswith(
        "4 to the player or planeswalker it attacks")
