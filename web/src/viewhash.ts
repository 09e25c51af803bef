// The view hash of protocol v1 (protocol/README.md, "Views, state ids and hashes"): a port of
// protocol/viewhash.py, the reference.
//
// A view is a set of elements: its header, each player, each object and each zone's contents.
// Each element's digest is the SHA-256 of a one-byte tag ("h", "p", "o", "z") followed by the
// element message serialized deterministically, read as a 256-bit big-endian integer. The
// view hash is the SHA-256 of "manawire.view.v1", the viewer seat as a signed 32-bit
// big-endian integer, and the sum of all element digests modulo 2^256 as 32 big-endian bytes.
//
// Serialization: protobuf-es `toBinary` writes the fields of a message in field-number order
// (it sorts them; protobuf's deterministic serialization does the same), proto3 scalars only
// when not zero, `optional` fields and submessages whenever set, repeated scalars packed -- the
// bytes of Python's `SerializeToString(deterministic=True)` for every hashed message (no map
// field is hashed: see "Versioning"). test/viewhash.test.ts checks this against the server.
//
// Fields numbered 1000 and above, at any depth of an element, are not hashed ("Versioning"):
// an element is serialized with them cleared. Unknown fields (what a newer server added) are
// never serialized for a digest. SHA-256 is @noble/hashes': synchronous, and available on
// plain-http origins where crypto.subtle is not.

import { clone, create, toBinary } from "@bufbuild/protobuf";
import type { DescField, DescMessage, Message, MessageShape } from "@bufbuild/protobuf";
import { reflect } from "@bufbuild/protobuf/reflect";
import { sha256 } from "@noble/hashes/sha2.js";
import {
  GameHeaderSchema,
  GameObjectSchema,
  PlayerSchema,
  ZoneContentsSchema,
} from "./gen/protocol/v1/game_pb";
import type { View } from "./gen/protocol/v1/game_pb";

/** The one-byte tag of each kind of element: header, player, object, zone contents. */
export type Tag = "h" | "p" | "o" | "z";
export const HEADER: Tag = "h";
export const PLAYER: Tag = "p";
export const OBJECT: Tag = "o";
export const ZONE: Tag = "z";

/** The first field number the view hash leaves out (hash revision 1 is every field below). */
export const UNHASHED_FROM = 1000;

const MASK64 = (1n << 64n) - 1n;
const PREFIX = new TextEncoder().encode("manawire.view.v1");
const NO_UNKNOWN = { writeUnknownFields: false } as const;

/** An element's digest from its deterministic serialization (no field numbered 1000 or above:
 * see `hashed`), as a 256-bit integer. */
export function bytesDigest(tag: Tag, serialized: Uint8Array): bigint {
  const h = sha256.create();
  h.update(new Uint8Array([tag.charCodeAt(0)]));
  h.update(serialized);
  return toBigint(h.digest());
}

/** The serialization an element's digest is computed over: `message` with every field
 * numbered 1000 or above cleared (at any depth) and without unknown fields. */
export function hashedBytes<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>
): Uint8Array {
  return toBinary(schema, hashed(schema, message), NO_UNKNOWN);
}

/** One element's digest (of `message` with its fields numbered 1000 and above cleared; its
 * unknown fields, if any, are left out). */
export function elementDigest<Desc extends DescMessage>(
  tag: Tag, schema: Desc, message: MessageShape<Desc>,
): bigint {
  return bytesDigest(tag, hashedBytes(schema, message));
}

/** The view hash from the viewer (a seat, -1 for spectators) and the sum of element
 * digests (reduced modulo 2^256 here). */
export function combine(viewer: number, total: bigint): Uint8Array {
  if (!Number.isInteger(viewer) || viewer < -0x80000000 || viewer > 0x7fffffff) {
    throw new RangeError(`viewer ${viewer} is not an int32`);
  }
  const tail = new Uint8Array(4 + 32);
  const view = new DataView(tail.buffer);
  view.setInt32(0, viewer, false);
  tail.set(fromBigint(total), 4);
  const h = sha256.create();
  h.update(PREFIX);
  h.update(tail);
  return h.digest();
}

/** The hash of a whole view, from scratch (the order of its repeated fields doesn't matter;
 * unknown fields are left out, so a view decoded with or without them hashes the same). */
export function viewHash(view: View): Uint8Array {
  let total = elementDigest(HEADER, GameHeaderSchema, view.header ?? defaultHeader());
  for (const p of view.players) total += elementDigest(PLAYER, PlayerSchema, p);
  for (const o of view.objects) total += elementDigest(OBJECT, GameObjectSchema, o);
  for (const z of view.zones) total += elementDigest(ZONE, ZoneContentsSchema, z);
  return combine(view.viewer, total);
}

/** The key of each element in a `ViewDigest` (the Python reference's tuples, as strings). */
export const headerKey = "h";
export function playerKey(seat: number): string {
  return `p:${seat}`;
}
export function objectKey(id: string): string {
  return `o:${id}`;
}
export function zoneElementKey(kind: number, owner: number): string {
  return `z:${kind}:${owner}`;
}

/** A view's element digests and their sum, updated element by element (apply an op: replace
 * or drop the element's digest). */
export class ViewDigest {
  /** Each element's digest, by key (`headerKey`, `playerKey`, `objectKey`, `zoneElementKey`). */
  readonly parts = new Map<string, bigint>();
  /** The sum of `parts` modulo 2^256. */
  total = 0n;

  /** Set (add or replace) the element named `key`. */
  put<Desc extends DescMessage>(key: string, tag: Tag, schema: Desc, message: MessageShape<Desc>
  ): void {
    this.set(key, elementDigest(tag, schema, message));
  }

  /** Set the element named `key` to an already computed digest. */
  set(key: string, digest: bigint): void {
    this.total = BigInt.asUintN(256, this.total + digest - (this.parts.get(key) ?? 0n));
    this.parts.set(key, digest);
  }

  /** Remove the element named `key` (if present). */
  drop(key: string): void {
    const old = this.parts.get(key);
    if (old !== undefined) {
      this.total = BigInt.asUintN(256, this.total - old);
      this.parts.delete(key);
    }
  }

  /** Start over from a whole view (a repeated element -- same seat, id or zone -- counts
   * once: the last one, as in a mirror). */
  load(view: View): void {
    this.parts.clear();
    this.total = 0n;
    this.put(headerKey, HEADER, GameHeaderSchema, view.header ?? defaultHeader());
    for (const p of view.players) this.put(playerKey(p.seat), PLAYER, PlayerSchema, p);
    for (const o of view.objects) this.put(objectKey(o.id), OBJECT, GameObjectSchema, o);
    for (const z of view.zones) {
      this.put(zoneElementKey(z.zone?.kind ?? 0, z.zone?.owner ?? 0), ZONE, ZoneContentsSchema, z);
    }
  }

  /** The view hash now. */
  hash(viewer: number): Uint8Array {
    return combine(viewer, this.total);
  }
}

// ---- unknown fields

/** Remove the unknown fields of `message` and of every message in it, in place (what a
 * runtime that discards unknown fields while decoding would have built). Returns `message`. */
export function discardUnknownFields<Desc extends DescMessage>(
  schema: Desc, message: MessageShape<Desc>,
): MessageShape<Desc> {
  discard(schema, message);
  return message;
}

function discard(desc: DescMessage, message: Message): void {
  if (message.$unknown !== undefined) delete message.$unknown;
  for (const field of desc.fields) {
    if (field.fieldKind === "message") {
      const value = local(message, field);
      if (isMessage(value)) discard(field.message, value);
    } else if (field.fieldKind === "list" && field.listKind === "message") {
      for (const item of local(message, field) as unknown[]) {
        if (isMessage(item)) discard(field.message, item);
      }
    } else if (field.fieldKind === "map" && field.mapKind === "message") {
      for (const item of Object.values(local(message, field) as Record<string, unknown>)) {
        if (isMessage(item)) discard(field.message, item);
      }
    }
  }
}

/** A field's value as protobuf-es stores it (a oneof member: its value if selected). */
function local(message: Message, field: DescField): unknown {
  const fields = message as unknown as Record<string, unknown>;
  if (field.oneof !== undefined) {
    const oneof = fields[field.oneof.localName] as { case?: string; value?: unknown };
    return oneof.case === field.localName ? oneof.value : undefined;
  }
  return fields[field.localName];
}

/** Whether `value` is a message (well-known wrapper types are stored unwrapped: not one). */
function isMessage(value: unknown): value is Message {
  return typeof value === "object" && value !== null && "$typeName" in value;
}

// ---- fields numbered 1000 and above

/** Where a message type's unhashed fields are: its own, and below it the fields numbered
 * under 1000 whose message type has some. */
interface Plan {
  own: DescField[];
  nested: DescField[];
}

/** Per message type: its plan, or null if no field at any depth is numbered 1000 or above. */
const plans = new WeakMap<DescMessage, Plan | null>();

/** `message` as the view hash sees it: `message` itself if its type has no field numbered
 * 1000 or above at any depth, else a copy with all of them cleared (a set submessage stays
 * set, even if clearing empties it). Unknown fields are left as they are: `hashedBytes`
 * never writes them. */
export function hashed<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>
): MessageShape<Desc> {
  const plan = planOf(schema);
  if (plan === null) return message;
  const copy = clone(schema, message);
  clearUnhashed(schema, copy, plan);
  return copy;
}

/** Whether no field of `schema`, at any depth, is numbered 1000 or above (every field of its
 * serialization is hashed). */
export function fullyHashed(schema: DescMessage): boolean {
  return planOf(schema) === null;
}

/** The message type a field holds, if any (a map: its values'). */
function messageOf(field: DescField): DescMessage | undefined {
  switch (field.fieldKind) {
    case "message":
      return field.message;
    case "list":
      return field.listKind === "message" ? field.message : undefined;
    case "map":
      return field.mapKind === "message" ? field.message : undefined;
    default:
      return undefined;
  }
}

function planOf(desc: DescMessage): Plan | null {
  const known = plans.get(desc);
  if (known !== undefined) return known;
  // Every message type reachable through hashed fields, then which of them reach an
  // unhashed field (a fixpoint: message types may be recursive).
  const reachable: DescMessage[] = [];
  const todo = [desc];
  for (let d = todo.pop(); d !== undefined; d = todo.pop()) {
    if (reachable.includes(d) || plans.has(d)) continue;
    reachable.push(d);
    for (const f of d.fields) {
      const sub = messageOf(f);
      if (sub !== undefined && f.number < UNHASHED_FROM) todo.push(sub);
    }
  }
  const reaches = new Map<DescMessage, boolean>(
    reachable.map((d) => [d, d.fields.some((f) => f.number >= UNHASHED_FROM)]));
  const reachesUnhashed = (d: DescMessage): boolean => reaches.get(d) ?? plans.get(d) != null;
  const below = (d: DescMessage): DescField[] => d.fields.filter((f) => {
    const sub = messageOf(f);
    return sub !== undefined && f.number < UNHASHED_FROM && reachesUnhashed(sub);
  });
  for (let changed = true; changed;) {
    changed = false;
    for (const d of reachable) {
      if (!reaches.get(d) && below(d).length > 0) {
        reaches.set(d, true);
        changed = true;
      }
    }
  }
  for (const d of reachable) {
    plans.set(d, reaches.get(d)
      ? { own: d.fields.filter((f) => f.number >= UNHASHED_FROM), nested: below(d) }
      : null);
  }
  return plans.get(desc) ?? null;
}

function clearUnhashed(desc: DescMessage, message: Message, plan: Plan): void {
  const r = reflect(desc, message, false);
  for (const field of plan.own) r.clear(field);
  for (const field of plan.nested) {
    const sub = messageOf(field);
    const subplan = sub === undefined ? null : plans.get(sub) ?? null;
    if (sub === undefined || subplan === null) continue;
    const value = local(message, field);
    if (field.fieldKind === "message") {
      if (isMessage(value)) clearUnhashed(sub, value, subplan);
    } else {
      const items = field.fieldKind === "list"
        ? value as unknown[]
        : Object.values(value as Record<string, unknown>);
      for (const item of items) {
        if (isMessage(item)) clearUnhashed(sub, item, subplan);
      }
    }
  }
}

// ---- helpers

/** What a view without a header hashes as (protobuf's default instance). */
function defaultHeader(): MessageShape<typeof GameHeaderSchema> {
  return create(GameHeaderSchema);
}

function toBigint(bytes: Uint8Array): bigint {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let n = 0n;
  for (let i = 0; i < 32; i += 8) n = (n << 64n) | view.getBigUint64(i, false);
  return n;
}

function fromBigint(n: bigint): Uint8Array {
  let rest = BigInt.asUintN(256, n);
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  for (let i = 24; i >= 0; i -= 8) {
    view.setBigUint64(i, rest & MASK64, false);
    rest >>= 64n;
  }
  return out;
}
