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
    s.established("s1", "Ann#0001")  # the app does this once the account is known
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
    # The refusal says why: a name with an invisible character shows as if it had none.
    for name, why in (("x" * 33, "it has 33"),
                      ("a\u200bb", "it has a control or invisible character"),
                      ("Ann\u3164", "it has a control or invisible character")):
        with pytest.raises(SessionError) as refused:
            Session().receive(_hello(name=name))
        assert refused.value.message == \
            f"a name (display_name) must be 1-32 printable characters ({why})"
    Session().receive(_hello(name="\u2764\ufe0f"))  # (an emoji's colour form: a name)
    s = Session()
    s.receive(_hello())
    s.established("s1", "Ann#0001")
    assert _code(s, _hello()) == mpb.ERROR_CODE_INVALID_ARGUMENT
    assert _code(s, _msg(create_room=mpb.CreateRoom(seats=9))) == mpb.ERROR_CODE_INVALID_ARGUMENT
    assert _code(s, _msg(create_room=mpb.CreateRoom(seats=1))) == mpb.ERROR_CODE_INVALID_ARGUMENT
    assert _code(s, _msg(join_room=mpb.JoinRoom(room_id="r"))) == mpb.ERROR_CODE_INVALID_ARGUMENT


def test_hello_credentials_are_exclusive_and_never_in_a_repr() -> None:
    s = Session()
    token = "t" * 43
    _rid, hello = s.receive(_msg(hello=mpb.Hello(protocol_version=1, account_token=token)))
    assert hello == Hello("", token=token) and token not in repr(hello)
    both = mpb.Hello(protocol_version=1, account_token=token, login=mpb.Login(name="a"))
    assert _code(Session(), _msg(hello=both)) == mpb.ERROR_CODE_INVALID_ARGUMENT
    long = mpb.Hello(protocol_version=1, account_token="x" * 200)
    assert _code(Session(), _msg(hello=long)) == mpb.ERROR_CODE_UNAUTHENTICATED
    secret = mpb.Hello(protocol_version=1, login=mpb.Login(name="Ann", password="hunter22"))
    _rid, login = Session().receive(_msg(hello=secret))
    assert isinstance(login, Hello) and login.login == ("Ann", "hunter22")
    assert "hunter22" not in repr(login)


def test_deck_lists_over_32_kib_are_refused_unread() -> None:
    s = Session()
    s.receive(_hello())
    s.established("s1", "Ann#0001")
    big = mpb.JoinRoom(room_id="r", role=mpb.ROLE_PLAYER, deck="4 Shock\n" * 5000)
    assert _code(s, _msg(join_room=big)) == mpb.ERROR_CODE_INVALID_DECK


def test_a_request_this_server_does_not_know_is_said_so_not_called_empty() -> None:
    """A body field this server's schema lacks (a newer client's request) was answered
    "empty ClientMessage", which a client author read as a bug of theirs (found by one)."""
    s = Session()
    s.receive(_hello())
    s.established("s1", "Ann#0001")
    # Field 99 of ClientMessage, length-delimited: an unknown request body.
    newer = mpb.ClientMessage(request_id=7).SerializeToString() + bytes([0x9A, 0x06, 0x00])
    with pytest.raises(SessionError) as refused:
        s.receive(newer)
    assert refused.value.code == mpb.ERROR_CODE_BAD_MESSAGE
    assert "doesn't know" in refused.value.message and refused.value.request_id == 7
    with pytest.raises(SessionError, match="empty ClientMessage"):
        s.receive(mpb.ClientMessage(request_id=8).SerializeToString())
