"""Sans-I/O session tests: bytes in, typed requests or typed errors out."""

from __future__ import annotations

import pytest

from protocol.v1 import messages_pb2 as mpb
from server.rooms.session import Act, CreateRoom, Hello, JoinRoom, Session, SessionError


def _msg(**body: object) -> bytes:
    return mpb.ClientMessage(request_id=7, **body).SerializeToString()  # type: ignore[arg-type]


def _hello(name: str = "Ann", version: int = 1) -> bytes:
    return _msg(hello=mpb.Hello(protocol_version=version, display_name=name))


def _code(session: Session, data: bytes | str) -> int:
    with pytest.raises(SessionError) as info:
        session.receive(data)
    return info.value.code


def test_hello_first_then_requests() -> None:
    s = Session()
    assert _code(s, _msg(list_rooms=mpb.ListRooms())) == mpb.ERROR_CODE_NOT_READY
    assert s.receive(_hello()) == (7, Hello("Ann"))
    assert s.receive(_msg(create_room=mpb.CreateRoom(name="x"))) == (7, CreateRoom("x", 2))
    assert s.receive(_msg(join_room=mpb.JoinRoom(room_id="r", role=mpb.ROLE_SPECTATOR))) == (
        7, JoinRoom("r", True, ""))
    assert s.receive(_msg(act=mpb.Act(prompt_id=3, option_index=1))) == (7, Act(3, 1, 0))


@pytest.mark.parametrize("data", [b"\xff\xff\xff", "text frame", b""])
def test_bad_bytes_become_bad_message_errors(data: bytes | str) -> None:
    assert _code(Session(), data) == mpb.ERROR_CODE_BAD_MESSAGE


def test_wrong_protocol_version_and_bad_names_are_refused() -> None:
    assert _code(Session(), _hello(version=2)) == mpb.ERROR_CODE_UNSUPPORTED_VERSION
    assert _code(Session(), _hello(name="")) == mpb.ERROR_CODE_INVALID_ARGUMENT
    assert _code(Session(), _hello(name="x" * 33)) == mpb.ERROR_CODE_INVALID_ARGUMENT
    s = Session()
    s.receive(_hello())
    assert _code(s, _hello()) == mpb.ERROR_CODE_INVALID_ARGUMENT
    assert _code(s, _msg(create_room=mpb.CreateRoom(seats=9))) == mpb.ERROR_CODE_INVALID_ARGUMENT
    assert _code(s, _msg(create_room=mpb.CreateRoom(seats=1))) == mpb.ERROR_CODE_INVALID_ARGUMENT
    assert _code(s, _msg(join_room=mpb.JoinRoom(room_id="r"))) == mpb.ERROR_CODE_INVALID_ARGUMENT
