// The view hash (src/viewhash.ts) against the Python reference (protocol/viewhash.py) and
// protocol/README.md ("Views, state ids and hashes", "Versioning").
//
// Fixtures: real server traffic and Python-serialized elements written by
// `python -m tools.webfixtures` (committed in test/fixtures; MANAWIRE_WEB_FIXTURES=DIR reads
// a fresh copy instead, as tests/web/test_fixtures_current.py does).

import assert from "node:assert/strict";
import { test } from "node:test";
import {
  ScalarType,
  clone,
  create,
  createFileRegistry,
  fromBinary,
  toBinary,
} from "@bufbuild/protobuf";
import type { DescField, DescMessage, MessageShape } from "@bufbuild/protobuf";
import { reflect } from "@bufbuild/protobuf/reflect";
import type { ReflectList } from "@bufbuild/protobuf/reflect";
import { BinaryReader, BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import {
  DescriptorProtoSchema,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FieldDescriptorProtoSchema,
  FileDescriptorProtoSchema,
} from "@bufbuild/protobuf/wkt";
import type { FileDescriptorProto } from "@bufbuild/protobuf/wkt";
import { sha256 } from "@noble/hashes/sha2.js";
import {
  CounterSchema,
  GameHeaderSchema,
  GameObjectSchema,
  GameResultSchema,
  ManaPoolSchema,
  PendingInfoSchema,
  PlayerSchema,
  StickerSchema,
  TargetSchema,
  ViewSchema,
  WaitingTriggerSchema,
  ZoneContentsSchema,
  ZoneRefSchema,
  file_protocol_v1_game,
} from "../src/gen/protocol/v1/game_pb";
import type { View } from "../src/gen/protocol/v1/game_pb";
import { ServerMessageSchema } from "../src/gen/protocol/v1/messages_pb";
import {
  ViewDigest,
  bytesDigest,
  combine,
  discardUnknownFields,
  elementDigest,
  fullyHashed,
  hashed,
  hashedBytes,
  objectKey,
  viewHash,
} from "../src/viewhash";
import type { Tag } from "../src/viewhash";
import { b64, hex, readFixture, traffic, type ElementFixture, type Traffic } from "./traffic";

// ---- fixtures

const synthetic = (readFixture("synthetic.json") as { elements: ElementFixture[] }).elements;

const bigHex = (n: bigint): string => n.toString(16).padStart(64, "0");

function snapshotOf(message: string): { stateId: bigint; view: View; viewHash: Uint8Array } {
  const body = fromBinary(ServerMessageSchema, b64(message)).body;
  assert.equal(body.case, "snapshot");
  const s = body.value;
  assert.ok(s.view !== undefined);
  return { stateId: s.stateId, view: s.view, viewHash: s.viewHash };
}

/** An element of the fixtures re-serialized and digested by this client. */
function reencode<D extends DescMessage>(tag: Tag, schema: D, bytes: Uint8Array,
  readUnknownFields = true): { bytes: Uint8Array; digest: bigint } {
  const message = fromBinary(schema, bytes, { readUnknownFields });
  return { bytes: hashedBytes(schema, message), digest: elementDigest(tag, schema, message) };
}

function reencodeElement(e: ElementFixture, readUnknownFields = true, extra?: Uint8Array
): { bytes: Uint8Array; digest: bigint } {
  const bytes = extra === undefined ? b64(e.message) : concat(b64(e.message), extra);
  switch (e.tag) {
    case "h":
      return reencode(e.tag, GameHeaderSchema, bytes, readUnknownFields);
    case "p":
      return reencode(e.tag, PlayerSchema, bytes, readUnknownFields);
    case "o":
      return reencode(e.tag, GameObjectSchema, bytes, readUnknownFields);
    case "z":
      return reencode(e.tag, ZoneContentsSchema, bytes, readUnknownFields);
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A field numbered 1000 (a varint): what a newer v1 server may add to any element. */
function unknownField1000(value = 7): Uint8Array {
  return new BinaryWriter().tag(1000, WireType.Varint).uint32(value).finish();
}

// ---- serialization and digests against Python

test("the fixtures hold every view class and enough elements", () => {
  assert.deepEqual(traffic.map((t) => t.viewer).sort((a, b) => a - b), [-1, 0, 1]);
  for (const t of traffic) {
    assert.ok(t.elements.length > 10, `viewer ${t.viewer}: ${t.elements.length} elements`);
    assert.deepEqual(new Set(t.elements.map((e) => e.tag)), new Set(["h", "p", "o", "z"]));
  }
  assert.ok(synthetic.length >= 12);
});

test("elements of real views serialize byte for byte as Python's and digest alike", () => {
  for (const t of traffic) {
    t.elements.forEach((e, i) => {
      const got = reencodeElement(e);
      assert.equal(hex(got.bytes), hex(b64(e.message)), `viewer ${t.viewer} element ${i}`);
      assert.equal(bigHex(got.digest), e.digest, `viewer ${t.viewer} element ${i}`);
    });
  }
});

test("every hashed field at edge values serializes as Python's (synthetic elements)", () => {
  synthetic.forEach((e, i) => {
    const got = reencodeElement(e);
    assert.equal(hex(got.bytes), hex(b64(e.message)), `synthetic element ${i} (${e.tag})`);
    assert.equal(bigHex(got.digest), e.digest, `synthetic element ${i} (${e.tag})`);
  });
});

test("viewHash of every snapshot equals the server's view_hash", () => {
  for (const t of traffic) {
    for (const message of [t.snapshot, t.resync.snapshot, t.final]) {
      const s = snapshotOf(message);
      assert.equal(s.view.viewer, t.viewer);
      assert.equal(hex(viewHash(s.view)), hex(s.viewHash), `viewer ${t.viewer} state ${s.stateId}`);
    }
  }
});

// ---- the definition (protocol/README.md)

test("combine follows the README: prefix, int32 viewer, sum mod 2^256", () => {
  // Known answers of protocol/viewhash.py's combine.
  assert.equal(hex(combine(-1, 0n)),
    "cead2f81a014cef291e4f3f73277a2aaca3ef6db47a61cdd037447837c9f27ab");
  assert.equal(hex(combine(3, (1n << 256n) + 5n)),
    "751d59e15868fcb14ff130680f3002cd6f7443450a948e40fbfd8bbe08beb93c");
  assert.equal(hex(combine(0, -1n)),
    "f13d2767d51aa6ef48e25de98c8b0a58b1192c5055dddf4a2da1992f150fd8c9");
  // And from the words of the README.
  const total = 0x1234n;
  const input = concat(new TextEncoder().encode("manawire.view.v1"),
    new Uint8Array([0xff, 0xff, 0xff, 0xfe]), new Uint8Array(30), new Uint8Array([0x12, 0x34]));
  assert.equal(hex(combine(-2, total)), hex(sha256(input)));
  assert.throws(() => combine(2 ** 31, 0n), RangeError);
  assert.throws(() => combine(0.5, 0n), RangeError);
});

test("an element digest is SHA-256(tag || bytes) read big-endian", () => {
  assert.equal(bytesDigest("o", new Uint8Array()),
    0x65c74c15a686187bb6bbf9958f494fc6b80068034a659a9ad44991b08c58f2d2n);
  const bytes = toBinary(CounterSchema, create(CounterSchema, { kind: "+1/+1", count: 2 }));
  const expected = BigInt(`0x${hex(sha256(concat(new Uint8Array([0x7a]), bytes)))}`);
  assert.equal(bytesDigest("z", bytes), expected);
  // The empty view of a spectator (protocol/viewhash.py's view_hash(View(viewer=-1))).
  assert.equal(hex(viewHash(create(ViewSchema, { viewer: -1 }))),
    "417113fafbe03003de1214a8bc20d50c4b4c50a83069f6ab9827c14416d55541");
});

test("the order of repeated fields doesn't matter; ViewDigest matches viewHash", () => {
  const t = traffic.find((x) => x.viewer === 0);
  assert.ok(t !== undefined);
  const view = snapshotOf(t.resync.snapshot).view;
  const shuffled = clone(ViewSchema, view);
  shuffled.objects.reverse();
  shuffled.zones.reverse();
  shuffled.players.reverse();
  assert.equal(hex(viewHash(shuffled)), hex(viewHash(view)));

  const digest = new ViewDigest();
  digest.load(view);
  assert.equal(hex(digest.hash(view.viewer)), hex(viewHash(view)));
  // Remove an object, then put it back: element by element.
  const obj = view.objects[0];
  assert.ok(obj !== undefined);
  digest.drop(objectKey(obj.id));
  const without = clone(ViewSchema, view);
  without.objects.splice(0, 1);
  assert.equal(hex(digest.hash(view.viewer)), hex(viewHash(without)));
  digest.drop(objectKey(obj.id)); // absent: nothing happens
  assert.equal(hex(digest.hash(view.viewer)), hex(viewHash(without)));
  digest.put(objectKey(obj.id), "o", GameObjectSchema, obj);
  assert.equal(hex(digest.hash(view.viewer)), hex(viewHash(view)));
  // Replacing an element subtracts its old digest.
  const tapped = clone(GameObjectSchema, obj);
  tapped.tapped = !tapped.tapped;
  digest.put(objectKey(obj.id), "o", GameObjectSchema, tapped);
  const changed = clone(ViewSchema, view);
  changed.objects[0] = tapped;
  assert.equal(hex(digest.hash(view.viewer)), hex(viewHash(changed)));
  assert.notEqual(hex(viewHash(changed)), hex(viewHash(view)));
  // The viewer is part of the hash.
  assert.notEqual(hex(digest.hash(view.viewer + 1)), hex(digest.hash(view.viewer)));
});

// ---- field order

/** A message of `desc` with every field set (lists: two items; a oneof: its last member). */
function populate(desc: DescMessage, depth = 0): MessageShape<DescMessage> {
  const message = create(desc);
  const r = reflect(desc, message);
  for (const f of desc.fields) {
    if (f.oneof !== undefined && f !== f.oneof.fields[f.oneof.fields.length - 1]) continue;
    if (f.fieldKind === "list") {
      const list = r.get(f) as ReflectList;
      for (let i = 0; i < 2; i++) {
        list.add(f.listKind === "message"
          ? reflect(f.message, populate(f.message, depth + 1))
          : f.listKind === "enum" ? 1 : scalarValue(f.scalar, i));
      }
    } else if (f.fieldKind === "message") {
      if (depth < 3) r.set(f, reflect(f.message, populate(f.message, depth + 1)));
    } else if (f.fieldKind === "enum") {
      r.set(f, 1);
    } else if (f.fieldKind === "scalar") {
      r.set(f, scalarValue(f.scalar, 0));
    }
  }
  return message;
}

function scalarValue(type: ScalarType, i: number): unknown {
  switch (type) {
    case ScalarType.STRING:
      return `s${i}`;
    case ScalarType.BOOL:
      return true;
    case ScalarType.BYTES:
      return new Uint8Array([i + 1]);
    case ScalarType.INT64: case ScalarType.UINT64: case ScalarType.SINT64:
    case ScalarType.FIXED64: case ScalarType.SFIXED64:
      return BigInt(i + 1);
    case ScalarType.INT32: case ScalarType.SINT32: case ScalarType.SFIXED32:
      return -1 - i;
    default:
      return i + 1;
  }
}

/** The field numbers of a serialization, checked to be in number order at every depth. */
function assertNumberOrder(desc: DescMessage, bytes: Uint8Array, where: string): number[] {
  const reader = new BinaryReader(bytes);
  const seen: number[] = [];
  while (reader.pos < reader.len) {
    const [no, wireType] = reader.tag();
    const last = seen[seen.length - 1];
    assert.ok(last === undefined || last <= no, `${where}: field ${no} after ${last}`);
    seen.push(no);
    const field: DescField | undefined = desc.fields.find((f) => f.number === no);
    const sub = field?.fieldKind === "message" || (field?.fieldKind === "list"
      && field.listKind === "message") ? field.message : undefined;
    if (sub !== undefined && wireType === WireType.LengthDelimited) {
      assertNumberOrder(sub, reader.bytes(), `${where}.${field?.name}`);
    } else {
      reader.skip(wireType);
    }
  }
  return seen;
}

const HASHED: DescMessage[] = [GameHeaderSchema, PlayerSchema, GameObjectSchema,
  ZoneContentsSchema, PendingInfoSchema, GameResultSchema, WaitingTriggerSchema, ManaPoolSchema,
  ZoneRefSchema, TargetSchema, CounterSchema, StickerSchema];

test("every hashed message serializes its fields in field-number order, at every depth", () => {
  for (const desc of HASHED) {
    const numbers = assertNumberOrder(desc, toBinary(desc, populate(desc)), desc.typeName);
    // Every field was written (a oneof: one member).
    const expected = desc.fields.filter((f) =>
      f.oneof === undefined || f === f.oneof.fields[f.oneof.fields.length - 1]).length;
    assert.equal(new Set(numbers).size, expected, desc.typeName);
    // The schema declares them in number order too (protobuf-es sorts anyway: see below).
    const declared = desc.fields.map((f) => f.number);
    assert.deepEqual(declared, [...declared].sort((a, b) => a - b), desc.typeName);
  }
});

// ---- schemas built at test time: fields declared out of order, fields numbered >= 1000

const { STRING: TYPE_STRING, UINT32: TYPE_UINT32, MESSAGE: TYPE_MESSAGE } =
  FieldDescriptorProto_Type;

function field(name: string, number: number, type: FieldDescriptorProto_Type,
  extra: { typeName?: string; oneofIndex?: number; repeated?: boolean } = {}) {
  return create(FieldDescriptorProtoSchema, {
    name, number, type, jsonName: name,
    label: extra.repeated ? FieldDescriptorProto_Label.REPEATED : FieldDescriptorProto_Label.OPTIONAL,
    ...(extra.typeName === undefined ? {} : { typeName: extra.typeName }),
    ...(extra.oneofIndex === undefined ? {} : { oneofIndex: extra.oneofIndex }),
  });
}

/** A copy of protocol/v1/game.proto in package manawire.newer, with `change` applied. */
function newerSchema(change: (file: FileDescriptorProto) => void) {
  const file = clone(FileDescriptorProtoSchema, file_protocol_v1_game.proto);
  file.name = "newer/game.proto";
  file.package = "manawire.newer";
  for (const m of file.messageType) {
    for (const f of m.field) f.typeName = f.typeName.replace(".manawire.v1.", ".manawire.newer.");
  }
  change(file);
  const registry = createFileRegistry(file, () => undefined);
  return (name: string): DescMessage => {
    const desc = registry.getMessage(`manawire.newer.${name}`);
    assert.ok(desc !== undefined, name);
    return desc;
  };
}

function messageProto(file: FileDescriptorProto, name: string) {
  const m = file.messageType.find((x) => x.name === name);
  assert.ok(m !== undefined, name);
  return m;
}

test("fields declared out of number order are still written in number order", () => {
  const schema = newerSchema((file) => {
    file.messageType.push(create(DescriptorProtoSchema, {
      name: "CounterReordered",
      field: [field("count", 2, TYPE_UINT32), field("kind", 1, TYPE_STRING)],
    }));
    const obj = messageProto(file, "GameObject");
    obj.field.reverse(); // every field of GameObject declared last to first
  });
  const reordered = schema("CounterReordered");
  assert.deepEqual(reordered.fields.map((f) => f.number), [2, 1]);
  const message = create(reordered);
  reflect(reordered, message).set(reordered.fields[0] as DescField, 5);
  reflect(reordered, message).set(reordered.fields[1] as DescField, "+1/+1");
  assert.equal(hex(toBinary(reordered, message)),
    hex(toBinary(CounterSchema, create(CounterSchema, { kind: "+1/+1", count: 5 }))));

  // A whole GameObject of a schema declared backwards: the bytes and digest of Python's.
  const backwards = schema("GameObject");
  // Its highest fields first: doesnt_untap (1011) and chosen_name (1010), added within v1.
  assert.deepEqual(backwards.fields.slice(0, 3).map((f) => f.number), [1011, 1010, 55]);
  for (const e of [...synthetic, ...traffic.flatMap((t) => t.elements)]) {
    if (e.tag !== "o") continue;
    const got = reencode("o", backwards, b64(e.message));
    assert.equal(hex(got.bytes), hex(b64(e.message)));
    assert.equal(bigHex(got.digest), e.digest);
  }
});

/** What the newer schema adds, as in tests/protocol/test_viewhash_versioning.py: fields
 * numbered 1000 and above at the top of elements, in nested and repeated submessages, a new
 * message type, a oneof member. */
function withUnhashedFields(file: FileDescriptorProto): void {
  messageProto(file, "GameHeader").field.push(field("note", 1000, TYPE_STRING));
  messageProto(file, "PendingInfo").field.push(field("hint", 1000, TYPE_STRING));
  messageProto(file, "GameObject").field.push(field("glow", 1001, TYPE_UINT32));
  messageProto(file, "ZoneRef").field.push(field("shade", 1000, TYPE_UINT32));
  messageProto(file, "Counter").field.push(field("source", 1000, TYPE_STRING));
  messageProto(file, "Player").field.push(
    field("badge", 1002, TYPE_MESSAGE, { typeName: ".manawire.newer.Badge" }));
  messageProto(file, "Target").field.push(field("emblem_id", 1000, TYPE_STRING, { oneofIndex: 0 }));
  file.messageType.push(create(DescriptorProtoSchema, {
    name: "Badge", field: [field("text", 1, TYPE_STRING)] }));
}

test("fields numbered 1000 and above are cleared at any depth before hashing", () => {
  const schema = newerSchema(withUnhashedFields);
  const [header, object, player, zones] =
    ["GameHeader", "GameObject", "Player", "ZoneContents"].map(schema) as
      [DescMessage, DescMessage, DescMessage, DescMessage];
  for (const [v1, newer] of [[GameHeaderSchema, header], [GameObjectSchema, object],
    [PlayerSchema, player], [ZoneContentsSchema, zones]] as const) {
    // v1's GameObject and GameHeader have fields added within v1 already (chosen_name and
    // doesnt_untap, 1010 and 1011; combat_damage_step, 1010).
    assert.equal(fullyHashed(v1), v1 !== GameObjectSchema && v1 !== GameHeaderSchema, v1.typeName);
    assert.ok(!fullyHashed(newer), newer.typeName);
  }
  assert.ok(fullyHashed(schema("Badge")));

  // Every synthetic element, decoded by the newer schema and given the new fields.
  let grown = 0;
  for (const e of synthetic) {
    const desc = { h: header, p: player, o: object, z: zones }[e.tag];
    const message = fromBinary(desc, b64(e.message));
    setUnhashed(desc, message);
    const bytes = toBinary(desc, message);
    if (bytes.length > b64(e.message).length) grown++;
    const before = hex(bytes);
    assert.equal(bigHex(elementDigest(e.tag, desc, message)), e.digest, e.tag);
    assert.equal(hex(hashedBytes(desc, message)), hex(b64(e.message)), e.tag);
    assert.equal(hex(toBinary(desc, message)), before, "hashed() leaves its argument alone");
    // A client built from the current schema gets them as unknown fields: the same digest.
    assert.equal(bigHex(reencodeElement({ ...e, message: btoa(String.fromCharCode(...bytes)) })
      .digest), e.digest);
  }
  // All but an empty ZoneContents (no ZoneRef to hold the new field) got some.
  assert.equal(grown, synthetic.length - 1);

  // A set submessage stays set even if clearing empties it (a ZoneRef with only `shade`).
  const zoneRef = schema("ZoneRef");
  const obj = create(object);
  const r = reflect(object, obj);
  const ref = reflect(zoneRef, create(zoneRef));
  ref.set(zoneRef.fields.find((f) => f.number === 1000) as DescField, 9);
  r.set(object.fields.find((f) => f.name === "zone") as DescField, ref);
  assert.equal(hex(hashedBytes(object, obj)), "1200");
  // A oneof member numbered 1000 or above is cleared: the Target stays, empty.
  const target = schema("Target");
  const emblem = create(target);
  reflect(target, emblem).set(target.fields.find((f) => f.number === 1000) as DescField, "e");
  const targeted = create(object);
  (reflect(object, targeted).get(object.fields.find((f) => f.name === "targets") as DescField) as
    ReflectList).add(reflect(target, emblem));
  assert.equal(hex(toBinary(object, targeted)), "a20204c23e0165"); // targets {1000: "e"}
  assert.equal(hex(hashedBytes(object, targeted)), "a20200");
  assert.equal(hashed(GameObjectSchema, create(GameObjectSchema)).$typeName,
    "manawire.v1.GameObject");
});

/** Set every field numbered 1000 or above of `message`, and of the submessages in it. */
function setUnhashed(desc: DescMessage, message: MessageShape<DescMessage>): void {
  const r = reflect(desc, message);
  for (const f of desc.fields) {
    if (f.number >= 1000) {
      // A new oneof member replaces the one set (then the hash changes, rightly).
      if (f.oneof !== undefined && r.oneofCase(f.oneof) !== undefined) continue;
      if (f.fieldKind === "message") r.set(f, reflect(f.message, populate(f.message)));
      else if (f.fieldKind === "scalar") r.set(f, scalarValue(f.scalar, 0));
      continue;
    }
    if (f.fieldKind === "message" && r.isSet(f)) {
      setUnhashed(f.message, (r.get(f) as { message: MessageShape<DescMessage> }).message);
    } else if (f.fieldKind === "list" && f.listKind === "message") {
      for (const item of r.get(f) as ReflectList<{ message: MessageShape<DescMessage> }>) {
        setUnhashed(f.message, item.message);
      }
    }
  }
}

// ---- unknown fields

test("unknown fields (a newer server's) are never hashed, whether kept or dropped", () => {
  const extra = unknownField1000();
  for (const e of [...synthetic, ...traffic.flatMap((t) => t.elements)]) {
    for (const readUnknownFields of [true, false]) {
      const got = reencodeElement(e, readUnknownFields, extra);
      assert.equal(bigHex(got.digest), e.digest);
      assert.equal(hex(got.bytes), hex(b64(e.message)));
    }
  }
  // Kept ones are really there (and written by a plain toBinary).
  const e = synthetic[0];
  assert.ok(e !== undefined && e.tag === "o");
  const kept = fromBinary(GameObjectSchema, concat(b64(e.message), extra));
  assert.equal(kept.$unknown?.[0]?.no, 1000);
  assert.equal(hex(toBinary(GameObjectSchema, kept)), hex(concat(b64(e.message), extra)));
});

test("unknown fields nested deep in a view are not hashed; discardUnknownFields drops them",
  () => {
    const t = traffic.find((x) => x.viewer === 1);
    assert.ok(t !== undefined);
    const original = snapshotOf(t.resync.snapshot);
    const view = clone(ViewSchema, original.view);
    const unknown = { no: 1000, wireType: WireType.Varint, data: new Uint8Array([7]) };
    view.$unknown = [unknown];
    assert.ok(view.header !== undefined && view.header.pending !== undefined);
    view.header.$unknown = [unknown];
    view.header.pending.$unknown = [unknown];
    for (const o of view.objects) {
      o.$unknown = [unknown];
      if (o.zone !== undefined) o.zone.$unknown = [unknown];
    }
    for (const p of view.players) {
      p.$unknown = [unknown];
      if (p.manaPool !== undefined) p.manaPool.$unknown = [unknown, unknown];
    }
    // What a newer server sends, decoded by this client with and without unknown fields.
    const wire = toBinary(ViewSchema, view);
    assert.ok(wire.length > toBinary(ViewSchema, original.view).length);
    for (const readUnknownFields of [true, false]) {
      const decoded = fromBinary(ViewSchema, wire, { readUnknownFields });
      assert.equal(hex(viewHash(decoded)), hex(original.viewHash));
      const digest = new ViewDigest();
      digest.load(decoded);
      assert.equal(hex(digest.hash(decoded.viewer)), hex(original.viewHash));
    }
    const kept = fromBinary(ViewSchema, wire);
    assert.ok(kept.objects.some((o) => o.zone?.$unknown !== undefined));
    discardUnknownFields(ViewSchema, kept);
    assert.equal(hex(toBinary(ViewSchema, kept)), hex(toBinary(ViewSchema, original.view)));
  });
