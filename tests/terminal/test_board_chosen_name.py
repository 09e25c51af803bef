"""The terminal board shows a permanent's chosen card name (rule 614.12a: Runed Halo's),
public information every viewer is sent in ``GameObject.chosen_name``."""

from __future__ import annotations

from client_sdk.board import Board, permanent_text
from protocol.v1 import game_pb2 as pb


def test_a_permanent_shows_the_card_name_chosen_as_it_entered() -> None:
    halo = pb.GameObject(id="r1", name="Runed Halo", card_types=["Enchantment"],
                         zone=pb.ZoneRef(kind=pb.ZONE_KIND_BATTLEFIELD, owner=-1),
                         chosen_name="Shock")
    board = Board(seat=0)
    assert permanent_text(board, halo) == "Runed Halo (named Shock)"
    halo.chosen_name = ""
    assert permanent_text(board, halo) == "Runed Halo"
