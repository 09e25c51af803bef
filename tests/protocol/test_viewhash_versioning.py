"""The view hash survives protocol growth (protocol/README.md, "Versioning").

Fields added to a view element within v1 are numbered 1000 or above and are not hashed, so a
client built from an older v1 schema keeps verifying every hash. Tested with real schemas:
protoc (the pinned grpcio-tools, as tools/genproto.py runs it) generates, at test time, code
for a *newer* copy of protocol/v1/game.proto with fields added -- at the top of elements, in
submessages, a new message type, a new enum value -- in its own proto package (the default
descriptor pool refuses a second definition of ``manawire.v1.GameHeader``). A server built
from it sends real games with the new fields set; a client built from the current (older)
code decodes the bytes and checks every hash with :mod:`protocol.viewhash` and
:class:`client_sdk.mirror.Mirror`. The same fields numbered below 1000 break that client: the
rule is what makes it work.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.unknown_fields import UnknownFieldSet

from client_sdk.mirror import Mirror, MirrorDesyncError
from protocol import viewhash
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.cards import demo_deck, demo_deck_names
from server.engine import Game, PlayerSetup, apply, new_game
from server.engine.actions import PassPriority
from server.view import SPECTATOR, project
from server.view.encode import encode_view
from server.view.stream import ViewStream
from server.view.track import GameTracker

GAME_PROTO = Path(__file__).resolve().parents[2] / "protocol" / "v1" / "game.proto"

#: What the newer schemas add: (the text of game.proto it follows, the line, its number by
#: the rule -- 1000 and above -- and against it: a free number below 1000).
ADDITIONS = [
    ("message GameHeader {\n", "  string note = {};\n", 1000, 12),
    ("message PendingInfo {\n", "  string hint = {};\n", 1000, 4),    # nested in the header
    ("message GameObject {\n", "  uint32 glow = {};\n", 1001, 46),
    ("message ZoneRef {\n", "  uint32 shade = {};\n", 1000, 3),       # in objects and zones
    ("message Counter {\n", "  string source = {};\n", 1000, 3),      # repeated, nested
    ("message Player {\n", "  Badge badge = {};\n", 1002, 12),         # a new message type
    ("message Target {\n  oneof kind {\n", "    string emblem_id = {};\n", 1000, 3),  # oneof
    ("  STEP_CLEANUP = 12;\n", "  STEP_FUTURE = {};\n", 99, 99),       # a new enum value
]


def _newer_proto(package: str, unhashed: bool) -> str:
    text = GAME_PROTO.read_text()
    assert text.count("package manawire.v1;") == 1
    text = text.replace("package manawire.v1;", f"package manawire.{package};")
    for anchor, line, by_rule, against in ADDITIONS:
        assert text.count(anchor) == 1, anchor
        text = text.replace(anchor, anchor + line.format(by_rule if unhashed else against))
    return text + "\nmessage Badge { string text = 1; }\n"


_GENERATED: dict[str, ModuleType] = {}


def _generate(root: Path, package: str, unhashed: bool) -> ModuleType:
    """The Python code protoc generates for a newer game.proto, imported (once a process:
    the default descriptor pool keeps what it was given)."""
    if package in _GENERATED:
        return _GENERATED[package]
    from grpc_tools import protoc

    source = root / package / "game.proto"
    source.parent.mkdir(parents=True)
    source.write_text(_newer_proto(package, unhashed))
    code = protoc.main(["protoc", f"-I{root}", f"--python_out={root}",
                        f"{package}/game.proto"])
    assert code == 0, f"protoc failed ({code})"
    spec = importlib.util.spec_from_file_location(f"{package}.game_pb2",
                                                  root / package / "game_pb2.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _GENERATED[package] = module
    return module


@pytest.fixture(scope="module")
def newer(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """game.proto with fields added the way the rule says: numbered 1000 and above."""
    return _generate(tmp_path_factory.mktemp("proto"), "v1newer", unhashed=True)


@pytest.fixture(scope="module")
def below(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """game.proto with the same fields numbered below 1000 (against the rule)."""
    return _generate(tmp_path_factory.mktemp("proto"), "v1below", unhashed=False)


def test_the_newer_schemas_number_the_fields_as_intended(newer: ModuleType,
                                                         below: ModuleType) -> None:
    def number(module: ModuleType, message: str, name: str) -> int:
        return int(module.DESCRIPTOR.message_types_by_name[message].fields_by_name[name].number)

    assert number(newer, "GameObject", "glow") == 1001
    assert number(newer, "ZoneRef", "shade") == 1000
    assert number(below, "GameObject", "glow") == 46
    assert number(below, "GameHeader", "note") == 12
    # Besides the current schema's own fields added within v1 (numbered 1000 and above, e.g.
    # chosen_name), the below schema numbers every GameObject field below 1000.
    current = {f.name for f in pb.GameObject.DESCRIPTOR.fields if f.number >= 1000}
    assert all(f.number < 1000 for f in below.GameObject.DESCRIPTOR.fields
               if f.name not in current)


# ---- a server built from a newer schema


class _NewerServer:
    """One view class as a server built from a newer schema sends it: the current server's
    snapshot and deltas decoded with the newer code, the new fields set on every element,
    now and then an update that changes nothing but new fields, and the view hash kept over
    the newer messages by :mod:`protocol.viewhash` as the server keeps it (element by
    element: a snapshot's is checked against a whole view's)."""

    def __init__(self, schema: ModuleType) -> None:
        self.schema = schema
        self.viewer = 0
        self.header: Any = None
        self.players: dict[int, Any] = {}
        self.objects: dict[str, Any] = {}
        self.zones: dict[tuple[int, int], Any] = {}
        self.digest = viewhash.ViewDigest()
        self.glow_unhashed = schema.GameObject.DESCRIPTOR.fields_by_name[
            "glow"].number >= viewhash.UNHASHED_FROM
        self.n = 0  # messages sent: the new fields' values change with it
        self.new_only_updates = 0

    def view(self) -> Any:
        return self.schema.View(
            viewer=self.viewer, header=self.header,
            players=[self.players[s] for s in sorted(self.players)],
            objects=[self.objects[i] for i in sorted(self.objects)],
            zones=[self.zones[k] for k in sorted(self.zones)])

    def _header(self, h: Any) -> None:
        h.note = f"note {self.n}"
        if h.HasField("pending"):
            h.pending.hint = f"hint {self.n % 3}"
        self.header = h
        self.digest.put(("h",), viewhash.HEADER, h)

    def _object(self, o: Any) -> None:
        o.glow = 1 + self.n % 4
        o.zone.shade = o.zone.kind + 1
        for c in o.counters:
            c.source = "test"
        self.objects[o.id] = o
        self.digest.put(("o", o.id), viewhash.OBJECT, o)

    def _player(self, p: Any) -> None:
        p.badge.text = f"seat {p.seat}"
        self.players[p.seat] = p
        self.digest.put(("p", p.seat), viewhash.PLAYER, p)

    def _zone(self, z: Any) -> None:
        z.zone.shade = 7
        self.zones[(z.zone.kind, z.zone.owner)] = z
        self.digest.put(("z", z.zone.kind, z.zone.owner), viewhash.ZONE, z)

    def snapshot(self, data: bytes) -> tuple[bytes, bytes]:
        """The newer snapshot's bytes, and the hash the current server sent."""
        original = mpb.ServerMessage.FromString(data).snapshot
        snapshot = self.schema.Snapshot.FromString(original.SerializeToString())
        self.n += 1
        view = snapshot.view
        self.viewer = view.viewer
        self.players, self.objects, self.zones = {}, {}, {}
        self.digest = viewhash.ViewDigest()
        self._header(view.header)
        for p in view.players:
            self._player(p)
        for o in view.objects:
            self._object(o)
        for z in view.zones:
            self._zone(z)
        snapshot.view_hash = self.digest.hash(self.viewer)
        assert snapshot.view_hash == viewhash.view_hash(self.view())
        return snapshot.SerializeToString(), original.view_hash

    def delta(self, data: bytes) -> tuple[bytes, bytes]:
        """The newer delta's bytes, and the hash the current server sent."""
        original = mpb.ServerMessage.FromString(data).delta
        delta = self.schema.Delta.FromString(original.SerializeToString())
        self.n += 1
        for op in delta.ops:
            kind = op.WhichOneof("op")
            if kind in ("create_object", "update_object", "reveal_object"):
                self._object(getattr(op, kind))
            elif kind in ("remove_object", "conceal_object"):
                del self.objects[getattr(op, kind)]
                self.digest.drop(("o", getattr(op, kind)))
            elif kind == "set_zone":
                self._zone(op.set_zone)
            elif kind == "set_player":
                self._player(op.set_player)
            else:
                assert kind == "set_header"
                self._header(op.set_header)
        if self.objects and self.n % 3 == 0:
            # An update of new fields alone: nothing a client hashes changes.
            oid = sorted(self.objects)[self.n % len(self.objects)]
            op = delta.ops.add()
            op.update_object.CopyFrom(self.objects[oid])
            op.update_object.glow += 10
            self.objects[oid] = op.update_object
            total = self.digest.total
            self.digest.put(("o", oid), viewhash.OBJECT, op.update_object)
            assert (self.digest.total == total) == self.glow_unhashed
            self.new_only_updates += 1
        delta.view_hash = self.digest.hash(self.viewer)
        return delta.SerializeToString(), original.view_hash


def _naive_hash(view: pb.View) -> bytes:
    """The view hash as the README defined it before the rule: each element serialized as
    it is -- with the unknown fields protobuf kept, in most runtimes (C++, Java, Go, Python)."""
    parts = [(viewhash.HEADER, view.header), *((viewhash.PLAYER, p) for p in view.players),
             *((viewhash.OBJECT, o) for o in view.objects),
             *((viewhash.ZONE, z) for z in view.zones)]
    return viewhash.combine(view.viewer, sum(viewhash.bytes_digest(
        tag, m.SerializeToString(deterministic=True)) for tag, m in parts))


def _game(seed: int, rng: random.Random) -> Game:
    """A two-player game of demo decks drawn by ``rng``."""
    decks = demo_deck_names()
    return new_game(seed.to_bytes(16, "big"), [
        PlayerSetup(f"p{i}", demo_deck(rng.choice(decks))) for i in range(2)])


def _play(schema: ModuleType, seed: int, actions: int) -> dict[str, Any]:
    """A random game (up to ``actions`` actions) through the real pipeline, each view class
    sent by a newer server and received by a client built from the current code. Returns
    per view class the servers, the clients' mirrors and what was counted."""
    rng = random.Random(seed)
    game = _game(seed, rng)
    viewers = [0, 1, SPECTATOR]
    tracker = GameTracker()
    step = tracker.step(game).number
    streams = {v: ViewStream.start(game, v, step) for v in viewers}
    servers = {v: _NewerServer(schema) for v in viewers}
    mirrors = {v: Mirror() for v in viewers}
    seen: dict[str, int] = {"states": 0, "hash_kept": 0, "mirror_ok": 0, "desyncs": 0,
                            "whole_views": 0, "viewhash_ok": 0, "naive_differs": 0,
                            "unknown_elements": 0}

    def receive(v: int, data: bytes, original_hash: bytes, snapshot: bool) -> None:
        server, mirror = servers[v], mirrors[v]
        seen["states"] += 1
        sent_hash = server.digest.hash(server.viewer)
        seen["hash_kept"] += sent_hash == original_hash
        # The old client: every message decoded with the current (older) code.
        try:
            if snapshot:
                mirror.load_snapshot(pb.Snapshot.FromString(data))
            else:
                mirror.apply_delta(pb.Delta.FromString(data))
            seen["mirror_ok"] += 1
        except MirrorDesyncError:
            seen["desyncs"] += 1  # the mirror is at the new state all the same
        if not snapshot and seen["states"] % 8:
            return
        # The whole view decoded with the older code (now and then: it costs): view_hash
        # drops the fields it doesn't know (kept by protobuf as unknown fields) itself.
        seen["whole_views"] += 1
        sent = server.view()
        assert viewhash.view_hash(sent) == sent_hash
        old = pb.View.FromString(sent.SerializeToString())
        seen["viewhash_ok"] += viewhash.view_hash(old) == sent_hash
        seen["naive_differs"] += _naive_hash(old) != sent_hash
        seen["unknown_elements"] += sum(len(UnknownFieldSet(e)) > 0 for e in (
            old.header, *old.players, *old.objects, *old.zones))

    for v in viewers:
        receive(v, *servers[v].snapshot(streams[v].snapshot("r")), snapshot=True)
    for _ in range(actions):
        pending = game.pending
        if pending is None:
            break
        acting = [a for a in pending.options if not isinstance(a, PassPriority)]
        action = rng.choice(acting if acting and rng.random() < 0.85 else pending.options)
        events = apply(game, pending.seat, action)
        changes = tracker.step(game, action)
        for v in viewers:
            data = streams[v].advance(game, changes, events)
            if data is not None:
                receive(v, *servers[v].delta(data), snapshot=False)
    return {"game": game, "servers": servers, "mirrors": mirrors, "seen": seen}


def test_a_client_built_from_the_older_schema_verifies_every_hash_of_a_newer_server(
        newer: ModuleType) -> None:
    """A whole random game: every snapshot and delta a newer server sends, with fields
    numbered 1000 and above set in every element (and some deltas changing nothing else),
    verifies in a client decoding with the current code -- through Mirror and through
    protocol.viewhash -- and hashes as the current server's did."""
    run = _play(newer, seed=27, actions=5000)
    seen = run["seen"]
    assert run["game"].pending is None, "the game should be played to its end"
    assert seen["states"] > 1000
    assert seen["mirror_ok"] == seen["hash_kept"] == seen["states"]
    assert seen["desyncs"] == 0
    assert sum(s.new_only_updates for s in run["servers"].values()) > seen["states"] // 4
    assert seen["whole_views"] > seen["states"] // 10
    assert seen["viewhash_ok"] == seen["whole_views"]
    # The old client did receive fields it doesn't know, and hashing them as protobuf keeps
    # them (no rule for unknown fields) would have failed: unknown fields must be dropped.
    assert seen["unknown_elements"] >= 3 * seen["whole_views"]  # header, players, objects
    assert seen["naive_differs"] == seen["whole_views"]
    # What the old client holds is exactly what the current server would have sent.
    for v, mirror in run["mirrors"].items():
        assert mirror.view() == encode_view(project(run["game"], v))


def test_the_same_fields_numbered_below_1000_break_the_older_client(below: ModuleType) -> None:
    """Against the rule: the newer server hashes its new fields, which the old client never
    sees -- every single state fails, as the independent client's 8,685 of 8,738 did."""
    run = _play(below, seed=27, actions=150)
    seen = run["seen"]
    assert seen["states"] > 150 and seen["whole_views"] > 15
    assert seen["hash_kept"] == seen["mirror_ok"] == seen["viewhash_ok"] == 0
    assert seen["desyncs"] == seen["states"]


def test_new_enum_values_in_hashed_fields_stay_hashed(newer: ModuleType) -> None:
    """An enum value the old client doesn't know is kept as its number (proto3 enums are
    open) and hashed the same on both sides."""
    game = _game(3, random.Random(3))
    sent = newer.View.FromString(encode_view(project(game, 0)).SerializeToString())
    sent.header.step = newer.STEP_FUTURE
    old = pb.View.FromString(sent.SerializeToString())
    assert old.header.step == 99
    assert viewhash.view_hash(old) == viewhash.view_hash(sent) != viewhash.view_hash(
        pb.View.FromString(encode_view(project(game, 0)).SerializeToString()))


def test_hashed_clears_unhashed_fields_at_any_depth_without_touching_its_argument(
        newer: ModuleType) -> None:
    obj = newer.GameObject(id="o-1", name="Opt", zone=newer.ZoneRef(kind=3, owner=-1, shade=2),
                           glow=5, counters=[newer.Counter(kind="+1/+1", count=1, source="x")],
                           targets=[newer.Target(player=1), newer.Target(emblem_id="e")])
    plain = newer.GameObject(id="o-1", name="Opt", zone=newer.ZoneRef(kind=3, owner=-1),
                             counters=[newer.Counter(kind="+1/+1", count=1)],
                             targets=[newer.Target(player=1), newer.Target()])
    before = obj.SerializeToString(deterministic=True)
    assert viewhash.hashed(obj) == plain
    assert obj.SerializeToString(deterministic=True) == before  # a copy was cleared
    assert viewhash.hashed(plain) is plain  # nothing to clear: no copy
    assert viewhash.element_digest(viewhash.OBJECT, obj) == viewhash.element_digest(
        viewhash.OBJECT, pb.GameObject.FromString(plain.SerializeToString()))
    assert not viewhash.fully_hashed(newer.GameObject)
    assert not viewhash.fully_hashed(newer.ZoneContents)  # through ZoneRef.shade
    assert viewhash.fully_hashed(newer.ManaPool)
    # A message's own unhashed fields come last in its serialization (server.view.track
    # relies on it to digest hand-written bytes without them).
    player = newer.Player(seat=1, name="a", life=20, badge=newer.Badge(text="b"))
    assert player.SerializeToString(deterministic=True).startswith(
        viewhash.hashed(player).SerializeToString(deterministic=True))


def test_hashed_handles_recursive_messages_and_maps() -> None:
    """Message types the v1 elements don't use (a recursive type, a map of messages, a
    float)."""
    proto = descriptor_pb2.FileDescriptorProto(name="versioning_test.proto",
                                               package="versioning_test", syntax="proto3")
    f = descriptor_pb2.FieldDescriptorProto
    node = proto.message_type.add(name="Node")
    node.field.add(name="label", number=1, type=f.TYPE_STRING, label=f.LABEL_OPTIONAL)
    node.field.add(name="child", number=2, type=f.TYPE_MESSAGE, label=f.LABEL_OPTIONAL,
                   type_name=".versioning_test.Node")
    node.field.add(name="by_name", number=3, type=f.TYPE_MESSAGE, label=f.LABEL_REPEATED,
                   type_name=".versioning_test.Node.ByNameEntry")
    node.field.add(name="extra", number=1000, type=f.TYPE_UINT32, label=f.LABEL_OPTIONAL)
    node.field.add(name="weight", number=1001, type=f.TYPE_DOUBLE, label=f.LABEL_OPTIONAL)
    entry = node.nested_type.add(name="ByNameEntry")
    entry.options.map_entry = True
    entry.field.add(name="key", number=1, type=f.TYPE_STRING, label=f.LABEL_OPTIONAL)
    entry.field.add(name="value", number=2, type=f.TYPE_MESSAGE, label=f.LABEL_OPTIONAL,
                    type_name=".versioning_test.Node")
    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto)
    Node: Any = message_factory.GetMessageClass(
        pool.FindMessageTypeByName("versioning_test.Node"))
    tree = Node(label="a", extra=1)
    tree.child.extra = 2
    tree.child.child.label = "c"
    tree.child.child.extra = 3
    tree.by_name["x"].extra = 4
    tree.by_name["x"].label = "x"
    tree.by_name["y"].weight = -0.0
    expected = Node(label="a")
    expected.child.child.label = "c"
    expected.by_name["x"].label = "x"
    expected.by_name["y"].SetInParent()
    assert tree.by_name["y"].ByteSize() > 0
    assert viewhash.hashed(tree).SerializeToString(deterministic=True) == \
        expected.SerializeToString(deterministic=True)
    assert viewhash.hashed(expected) is expected
    leaf = Node(label="z", weight=-0.0)  # falsy, but written: only ListFields tells
    assert viewhash.hashed(leaf).SerializeToString() == Node(label="z").SerializeToString()


# ---- the guard: hash revision 1 is frozen

#: Hash revision 1: every field numbered below 1000 of the view elements and of every message
#: in them. A new field here changes every hash an older client computes: number it 1000 or
#: above (protocol/README.md, "Versioning"); a hashed field needs v2.
HASH_REVISION_1 = {
    "GameHeader": (1, 2, 3, 4, 5, 6, 7, 8, 9, 40),
    "Player": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 40),
    "GameObject": (1, 2, 3, 4, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 30, 31, 32, 33, 34,
                   35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 50, 55),
    "ZoneContents": (1, 2),
    "PendingInfo": (1, 2, 3),
    "GameResult": (1, 2),
    "WaitingTrigger": (1, 2, 3, 4),
    "ManaPool": (1, 2, 3, 4, 5, 6),
    "ZoneRef": (1, 2),
    "Target": (1, 2),
    "Counter": (1, 2),
    "Sticker": (1, 2),
}


def _hashed_fields(elements: list[Any]) -> dict[str, tuple[int, ...]]:
    """Per message type reachable from ``elements`` through hashed fields: their numbers."""
    found: dict[str, tuple[int, ...]] = {}
    todo = list(elements)
    while todo:
        d = todo.pop()
        if d.name in found:
            continue
        fields = [f for f in d.fields if f.number < viewhash.UNHASHED_FROM]
        found[d.name] = tuple(sorted(f.number for f in fields))
        todo += [f.message_type for f in fields if f.message_type is not None]
    return found


def test_no_field_below_1000_is_added_to_a_view_element() -> None:
    found = _hashed_fields([pb.GameHeader.DESCRIPTOR, pb.Player.DESCRIPTOR,
                            pb.GameObject.DESCRIPTOR, pb.ZoneContents.DESCRIPTOR])
    for name in sorted(set(found) | set(HASH_REVISION_1)):
        now, frozen = set(found.get(name, ())), set(HASH_REVISION_1.get(name, ()))
        assert not now - frozen, (
            f"{name} has new field(s) {sorted(now - frozen)} below 1000 in a view element: "
            "every client built from an older v1 schema would fail every hash. Number fields "
            "added within v1 1000 or above (protocol/README.md, 'Versioning'); a field the "
            "view hash must cover needs v2.")
        assert not frozen - now, (
            f"{name} lost field(s) {sorted(frozen - now)}: if removed (and reserved), drop "
            "them from HASH_REVISION_1 too; renumbering a field needs v2 "
            "(protocol/README.md, 'Versioning').")


def test_the_guard_sees_a_field_added_below_1000(newer: ModuleType,
                                                 below: ModuleType) -> None:
    def grown(module: ModuleType) -> dict[str, tuple[int, ...]]:
        return _hashed_fields([module.GameHeader.DESCRIPTOR, module.Player.DESCRIPTOR,
                               module.GameObject.DESCRIPTOR, module.ZoneContents.DESCRIPTOR])

    assert grown(newer) == HASH_REVISION_1  # fields 1000 and above: nothing to freeze
    assert grown(below) != HASH_REVISION_1
    assert grown(below)["GameObject"] == tuple(sorted((*HASH_REVISION_1["GameObject"], 46)))
