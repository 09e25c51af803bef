"""The committed protobuf code is exactly what the pinned generator produces."""

from __future__ import annotations

from protocol.v1 import game_pb2, messages_pb2
from tools import genproto


def test_generated_code_has_no_drift() -> None:
    assert genproto.proto_files(), "no .proto files found: the check would pass vacuously"
    assert genproto.check() == []


def test_envelopes_use_oneof_bodies_and_the_manawire_v1_package() -> None:
    assert messages_pb2.DESCRIPTOR.package == "manawire.v1"
    for msg in (messages_pb2.ClientMessage, messages_pb2.ServerMessage):
        assert [o.name for o in msg.DESCRIPTOR.oneofs] == ["body"]
    delta = game_pb2.Delta.DESCRIPTOR.fields_by_name
    assert {"prev_state_id", "state_id", "view_hash", "ops"} <= set(delta)
