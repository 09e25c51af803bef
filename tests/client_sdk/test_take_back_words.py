"""A cast taken back (733.1) is logged as that -- "you took back Scorching Dragonfire" --
where the log saw the casting begin and no ``spell_cast`` event since (``casts``, kept by
:func:`client_sdk.describe.event_lines`, a :class:`~client_sdk.board.Board`'s over its
deltas); it read "your Scorching Dragonfire returned to your hand from the stack", like a
bounce (a new player's review, round 12). As web/test/takeback.test.ts."""

from __future__ import annotations

from client_sdk.describe import event_lines
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from tests.terminal.test_board import ANN, _board

NAME = "Scorching Dragonfire"


class _Names:
    viewer = 0

    def object(self, object_id: str) -> pb.GameObject | None:
        return None

    def player(self, seat: int) -> str:
        return ["Ann", "Bob"][seat]

    def mentions(self, word: str) -> bool:
        return False


def _begun(oid: str, owner: int = 0) -> pb.GameEvent:
    return pb.GameEvent(zone_change=pb.ZoneChangeEvent(
        owner=owner, from_zone=pb.ZONE_KIND_HAND, to_zone=pb.ZONE_KIND_STACK,
        old_id=f"h-{oid}", new_id=oid, name=NAME))


def _cast(oid: str, controller: int = 0) -> pb.GameEvent:
    return pb.GameEvent(spell_cast=pb.SpellCastEvent(object_id=oid, controller=controller,
                                                     name=NAME))


def _back(oid: str, owner: int = 0) -> pb.GameEvent:
    return pb.GameEvent(zone_change=pb.ZoneChangeEvent(
        owner=owner, from_zone=pb.ZONE_KIND_STACK, to_zone=pb.ZONE_KIND_HAND,
        old_id=oid, new_id=f"h2-{oid}", name=NAME))


def test_733_1_a_spell_put_back_in_its_owners_hand_before_it_was_cast_was_taken_back() -> None:
    names, casts = _Names(), dict[str, bool]()
    assert event_lines(names, [_begun("s1")], mulligans=False, casts=casts) == [None]
    assert event_lines(names, [_back("s1")], mulligans=False, casts=casts) == \
        [f"you took back {NAME}"]
    event_lines(names, [_begun("s2", 1)], mulligans=False, casts=casts)
    assert event_lines(names, [_back("s2", 1)], mulligans=False, casts=casts) == \
        [f"Bob took back {NAME}"]
    assert casts == {}  # (a spell off the stack is forgotten: 400.7)


def test_a_spell_that_was_cast_or_whose_casting_wasnt_seen_returned() -> None:
    names, casts = _Names(), dict[str, bool]()
    returned = f"your {NAME} returned to your hand from the stack"
    event_lines(names, [_begun("s1"), _cast("s1")], mulligans=False, casts=casts)
    assert event_lines(names, [_back("s1")], mulligans=False, casts=casts) == [returned]
    assert event_lines(names, [_back("s9")], mulligans=False, casts=casts) == [returned]
    assert event_lines(names, [_begun("s3"), _back("s3")], mulligans=False) == [None, returned]
    # A countered spell's move to the graveyard is still said by its "countered" line only.
    event_lines(names, [_begun("s4"), _cast("s4")], mulligans=False, casts=casts)
    countered = pb.GameEvent(countered=pb.CounteredEvent(object_id="s4", controller=0,
                                                         name=NAME))
    to_graveyard = pb.GameEvent(zone_change=pb.ZoneChangeEvent(
        owner=0, from_zone=pb.ZONE_KIND_STACK, to_zone=pb.ZONE_KIND_GRAVEYARD, old_id="s4",
        name=NAME))
    assert event_lines(names, [countered, to_graveyard], mulligans=False, casts=casts) == \
        [f"Your {NAME} was countered", None]
    assert casts == {}


def test_a_board_keeps_what_it_saw_begun_from_one_delta_to_the_next() -> None:
    """The terminal's log: the casting begun in one delta, taken back in a later one."""
    board = _board(ANN)
    for number, events in enumerate(([_begun("s7")], [_back("s7")]), start=6):
        board.absorb(mpb.ServerMessage(delta=pb.Delta(prev_state_id=number - 1,
                                                      state_id=number, events=events)),
                     now=float(number))
    assert f"you took back {NAME}" in [line for line, _count in board.events]
