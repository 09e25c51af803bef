"""A relay's limits on each client's messages (server/relay/gate.py), sans I/O: the server's
port's rate limit (docs/limits.md "Limits", "Message rate") applied before a message crosses the
link, the same answer to a text frame, and a window of messages the server hasn't taken."""

from __future__ import annotations

import pytest

from protocol.v1 import messages_pb2 as mpb
from server.ratelimit import MessageLimiter, Verdict
from server.relay import link
from server.relay.gate import Answer, ClientLimits, Close, Forward, Gate
from server.rooms.session import Session, SessionError


def _list_rooms(request_id: int) -> bytes:
    return mpb.ClientMessage(request_id=request_id, list_rooms=mpb.ListRooms()
                             ).SerializeToString()


def _error(action: Forward | Answer | Close) -> mpb.Error:
    assert isinstance(action, Answer), action
    message = mpb.ServerMessage.FromString(action.data)
    assert message.WhichOneof("body") == "error"
    return message.error


def test_a_flood_at_once_is_let_through_refused_and_closed_as_the_servers_port_does() -> None:
    """docs/limits.md "Message rate": 1,000 messages at once get 60 accepted, 199 refused, and the
    260th closes the connection (1008) -- the relay's verdicts are the server's limiter's,
    message for message, and only the accepted ones are forwarded."""
    gate = Gate(ClientLimits())
    server = MessageLimiter(20.0, 60, 200)
    kinds: list[str] = []
    for n in range(1, 1001):
        action = gate.check(_list_rooms(n), 5.0)
        verdict = server.check(5.0)
        expected = {Verdict.ALLOW: Forward, Verdict.REFUSE: Answer, Verdict.CLOSE: Close}
        assert isinstance(action, expected[verdict]), (n, action, verdict)
        kinds.append(type(action).__name__)
        if isinstance(action, Forward):
            assert action.data == _list_rooms(n)
        elif isinstance(action, Answer):
            error = _error(action)
            assert error.code == mpb.ERROR_CODE_RATE_LIMITED
            assert error.message == ("more than 20 messages per second (bursts of 60): this "
                                     "one was dropped")
            assert mpb.ServerMessage.FromString(action.data).request_id == n
        else:
            assert action == Close(1008, "too many messages: closed for flooding")
    assert kinds[:60] == ["Forward"] * 60 and kinds[60:259] == ["Answer"] * 199
    assert set(kinds[259:]) == {"Close"}


def test_the_relays_rate_is_the_servers_setting_and_a_quiet_client_gets_its_burst_back() -> None:
    gate = Gate(ClientLimits(messages_per_second=2.0, message_burst=3, rate_strikes=2))
    assert [type(gate.check(b"", 0.0)) for _ in range(4)] == [Forward] * 3 + [Answer]
    assert isinstance(gate.check(b"", 1.5), Forward)  # 3 tokens back after 1.5 s
    # A refusal is a strike; two standing strikes close it (--rate-strikes 2).
    gate = Gate(ClientLimits(messages_per_second=2.0, message_burst=1, rate_strikes=2))
    assert isinstance(gate.check(b"", 0.0), Forward)
    error = _error(gate.check(b"", 0.0))
    assert error.message == "more than 2 messages per second (bursts of 1): this one was dropped"
    assert isinstance(gate.check(b"", 0.0), Close)


def test_an_applied_action_gives_its_token_back_at_the_relay_too() -> None:
    """docs/limits.md "Message rate": an action the room applied gives its token back (the server
    tells the relay, link.REFUND), so playing as fast as the game goes is never limited on a
    relay port either."""
    gate = Gate(ClientLimits(message_burst=60))
    for _ in range(500):  # 500 actions at once, each applied before the next is sent
        assert isinstance(gate.check(b"act", 0.0), Forward)
        gate.refunded()
    unrefunded = Gate(ClientLimits(message_burst=60))
    verdicts = [type(unrefunded.check(b"act", 0.0)) for _ in range(61)]
    assert verdicts[-1] is Answer  # (without the refunds the 61st is refused)


def test_a_text_frame_is_answered_as_the_servers_port_answers_it_and_not_forwarded() -> None:
    with pytest.raises(SessionError) as raised:
        Session().receive("hello")
    error = _error(Gate(ClientLimits()).check("hello", 0.0))
    assert (error.code, error.message) == (raised.value.code, raised.value.message) == (
        mpb.ERROR_CODE_BAD_MESSAGE, "messages must be binary protobuf ClientMessage frames")
    # It takes a token, as on the server's port (the rate is checked first).
    gate = Gate(ClientLimits(message_burst=1))
    assert isinstance(gate.check("text", 0.0), Answer)
    assert _error(gate.check(_list_rooms(4), 0.0)).code == mpb.ERROR_CODE_RATE_LIMITED


def test_no_more_than_a_window_of_a_clients_messages_are_on_their_way_to_the_server() -> None:
    gate = Gate(ClientLimits())
    assert gate.window == link.WINDOW < 64  # (the server's inbox of a relayed client)
    for _ in range(link.WINDOW):
        assert gate.may_forward()
        gate.forwarded()
    assert not gate.may_forward()
    gate.credited(link.CREDIT_EVERY)
    assert gate.may_forward() and gate.pending == link.WINDOW - link.CREDIT_EVERY
    gate.credited(10 * link.WINDOW)  # (never below none)
    assert gate.pending == 0
