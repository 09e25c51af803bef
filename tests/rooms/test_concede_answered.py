"""A concession is answered (protocol/README.md, "Which requests get no reply"): the
conceding player's Delta that shows it carries the ConcedeGame's request id, so a client
knows it was taken (rule 104.3a: a player may concede at any time)."""

from __future__ import annotations

from protocol.v1 import messages_pb2 as mpb
from server.rooms.commands import ConcedeGame
from server.rooms.room import Room
from tests.rooms.test_room_machine import Driver, kinds, seat_conn, two_player_room


def test_rule_104_3a_the_conceders_delta_carries_the_concede_request_id() -> None:
    d = two_player_room()
    ann, bob = seat_conn(d, 0), seat_conn(d, 1)
    d.take(ann), d.take(bob)
    d.do(ConcedeGame(ann, 41))
    game = d.room.game
    assert game is not None and game.result is not None
    mine, theirs = d.take(ann), d.take(bob)
    answers = [m for m in mine if m.request_id == 41]
    assert kinds(answers) == ["delta"], kinds(mine)
    assert answers[0].delta.state_id  # the Delta itself, as it would be without the id
    # Nobody else's message answers it; every other message is pushed (request id 0).
    assert [m.request_id for m in theirs] == [0] * len(theirs) and "delta" in kinds(theirs)
    assert all(m.request_id == 0 for m in mine if m is not answers[0])


def test_rule_104_3a_a_concession_in_three_seats_is_answered_and_the_game_goes_on() -> None:
    d = Driver(Room("r1", "test", 3, 0.0))
    for conn in (1, 2, 3):
        assert d.join(conn).accepted
    for conn in (1, 2, 3):
        d.take(conn)
    d.do(ConcedeGame(2, 8))
    game = d.room.game
    assert game is not None and game.result is None
    answers = [m for m in d.take(2) if m.request_id == 8]
    assert kinds(answers) == ["delta"]
    for conn in (1, 3):
        assert all(m.request_id == 0 for m in d.take(conn))


def test_a_refused_concession_is_still_an_error_under_its_request_id() -> None:
    d = two_player_room()
    ann = seat_conn(d, 0)
    d.do(ConcedeGame(ann, 5))
    d.take(ann)
    d.do(ConcedeGame(ann, 6))  # the game is over
    got = d.take(ann)
    assert [(m.request_id, m.error.code) for m in got] == [(6, mpb.ERROR_CODE_GAME_OVER)]
