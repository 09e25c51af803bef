"""The terminal's log line for a countered spell (rule 701.6a; 2009: 701.5a): "Your Shock was
countered by Miscast (you couldn't pay {3})", in each viewer's words, instead of "Your Shock
moved from the stack to your graveyard" (a new player's finding)."""

from __future__ import annotations

from client_sdk.describe import events_text
from protocol.v1 import game_pb2 as pb


class _Names:
    def __init__(self, viewer: int) -> None:
        self.viewer = viewer

    def object(self, object_id: str) -> pb.GameObject | None:
        return None

    def player(self, seat: int) -> str:
        return ["Alice", "Bob"][seat] if seat >= 0 else "?"

    def mentions(self, word: str) -> bool:
        return False


def _lines(viewer: int, **fields: object) -> list[str]:
    countered = pb.CounteredEvent(object_id="s1", controller=0, name="Shock", by_id="m1",
                                  by_name="Miscast", **fields)  # type: ignore[arg-type]
    moved = pb.ZoneChangeEvent(owner=0, from_zone=pb.ZONE_KIND_STACK,
                               to_zone=pb.ZONE_KIND_GRAVEYARD, old_id="s1", new_id="g1",
                               name="Shock")
    return events_text(_Names(viewer), [pb.GameEvent(countered=countered),
                                        pb.GameEvent(zone_change=moved)], mulligans=False)


def test_701_6a_118_3_the_countered_spells_controller_reads_why() -> None:
    assert _lines(0, unless_cost="{3}") == [
        "Your Shock was countered by Miscast (you couldn't pay {3})"]
    assert _lines(0, unless_cost="{3}", declined=True) == [
        "Your Shock was countered by Miscast (you declined to pay {3})"]


def test_701_6a_the_opponent_and_spectators_read_it_in_their_words() -> None:
    assert _lines(1, unless_cost="{3}") == [
        "Alice's Shock was countered by Miscast (Alice couldn't pay {3})"]
    assert _lines(-1) == ["Alice's Shock was countered by Miscast"]


def test_701_6a_a_countered_ability_and_an_unseen_counterer() -> None:
    event = pb.CounteredEvent(object_id="a1", controller=1, name="Pitchburn Devils",
                              ability=True)
    assert events_text(_Names(0), [pb.GameEvent(countered=event)], mulligans=False) == [
        "Bob's Pitchburn Devils's ability was countered"]
