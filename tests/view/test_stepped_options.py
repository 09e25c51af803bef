"""A decision asked in steps (past ``MAX_OPTIONS`` ways: a payment, 601.2h; a division of
combat damage, 510.1c) on the wire: each step option says it is one (``PayMana.types``,
``AssignCombatDamage.partial``), the prompt says the choice goes a step at a time, and the
terminal client reads a step as one ("(then choose the rest)")."""

from __future__ import annotations

from client_sdk.describe import option_text
from protocol.v1 import game_pb2 as pb
from server.cards.mana import MANA_TYPES
from server.view.encode import decision_for
from tests.engine.test_bounded_options import _blocked, _geyser


class _Names:
    viewer = 0

    def object(self, object_id: str) -> pb.GameObject | None:
        return pb.GameObject(id=object_id, name="Walking Corpse")

    def player(self, seat: int) -> str:
        return f"P{seat}"

    def mentions(self, word: str) -> bool:
        return False


def test_601_2h_payment_steps_on_the_wire_and_in_words() -> None:
    game, seat = _geyser("".join(t * 12 for t in MANA_TYPES))
    pending = game.pending
    assert pending is not None
    msg = decision_for(pending, seat, set(game.objects), (), room_id="r", state_id=1,
                       game=game)
    pays = [o.pay_mana for o in msg.options if o.WhichOneof("kind") == "pay_mana"]
    assert len(pays) == 13 and all(p.types == 1 for p in pays)  # 0..12 white
    assert "one type at a time" in msg.prompt
    words = {option_text(_Names(), o) for o in msg.options
             if o.WhichOneof("kind") == "pay_mana"}
    assert "Spend {W}{W}{W} (then choose the rest)" in words
    assert "Spend no {W} (then choose the rest)" in words
    assert len(msg.SerializeToString()) < 2_000


def test_510_1c_division_steps_on_the_wire_and_in_words() -> None:
    game, attacker, _ = _blocked(20, 8)
    pending = game.pending
    assert pending is not None
    msg = decision_for(pending, attacker.controller, set(game.objects), (), room_id="r",
                       state_id=1, game=game)
    assert len(msg.options) == 21
    assert all(o.assign_combat_damage.partial for o in msg.options)
    assert "one creature at a time" in msg.prompt
    text = option_text(_Names(), msg.options[3])
    assert text.endswith("deals 3 to Walking Corpse (then the rest)"), text
