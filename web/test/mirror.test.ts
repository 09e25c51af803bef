// The mirror (src/mirror.ts) on real server traffic: every delta a view class was sent by the
// server's pipeline must apply and check (protocol/README.md, "Views, state ids and hashes").
//
// Fixtures: written by `python -m tools.webfixtures` (committed in test/fixtures;
// MANAWIRE_WEB_FIXTURES=DIR reads a fresh copy instead, as
// tests/web/test_fixtures_current.py does).

import assert from "node:assert/strict";
import { test } from "node:test";
import { clone, create, equals, fromBinary, toBinary } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import {
  DeltaOpSchema,
  DeltaSchema,
  GameObjectSchema,
  PlayerSchema,
  SnapshotSchema,
  ViewSchema,
  ZoneKind,
} from "../src/gen/protocol/v1/game_pb";
import type { Delta, Snapshot } from "../src/gen/protocol/v1/game_pb";
import { ServerMessageSchema } from "../src/gen/protocol/v1/messages_pb";
import { Mirror, MirrorDesyncError, zoneKey } from "../src/mirror";
import { viewHash } from "../src/viewhash";
import { b64, hex, traffic, type Traffic } from "./traffic";

// ---- fixtures

/** A view class's traffic, decoded as the client decodes what the server sends. */
interface Game {
  viewer: number;
  snapshot: Snapshot;
  deltas: Delta[];
  resyncAfter: number;
  resync: Snapshot;
  final: Snapshot;
}

function snapshotOf(message: string, readUnknownFields = true): Snapshot {
  const body = fromBinary(ServerMessageSchema, b64(message), { readUnknownFields }).body;
  assert.equal(body.case, "snapshot");
  return body.value;
}

function deltaOf(message: string, readUnknownFields = true): Delta {
  const body = fromBinary(ServerMessageSchema, b64(message), { readUnknownFields }).body;
  assert.equal(body.case, "delta");
  return body.value;
}

function load(t: Traffic): Game {
  return {
    viewer: t.viewer,
    snapshot: snapshotOf(t.snapshot),
    deltas: t.deltas.map((d) => deltaOf(d)),
    resyncAfter: t.resync.after,
    resync: snapshotOf(t.resync.snapshot),
    final: snapshotOf(t.final),
  };
}

const games = traffic.map(load);

function game(viewer: number): Game {
  const g = games.find((x) => x.viewer === viewer);
  assert.ok(g !== undefined, `no fixture for viewer ${viewer}`);
  return g;
}

/** A mirror loaded with the game's first snapshot and `n` deltas. */
function mirrorAt(g: Game, n: number): Mirror {
  const m = new Mirror();
  m.loadSnapshot(g.snapshot);
  for (const d of g.deltas.slice(0, n)) m.applyDelta(d);
  return m;
}

/** The mirror's view as bytes: canonical order, so equal views give equal bytes. */
function canonical(view: ReturnType<Mirror["view"]>): string {
  return hex(toBinary(ViewSchema, view, { writeUnknownFields: false }));
}

/** A snapshot's view as a mirror holds it (canonical order). */
function canonicalOf(s: Snapshot): string {
  const m = new Mirror();
  m.loadSnapshot(s);
  return canonical(m.view());
}

// ---- real traffic

test("the fixtures hold every view class, hidden information and events", () => {
  assert.deepEqual(games.map((g) => g.viewer).sort((a, b) => a - b), [-1, 0, 1]);
  const ops = new Map<string, number>();
  const events = new Map<string, number>();
  for (const g of games) {
    assert.ok(g.deltas.length >= 100, `viewer ${g.viewer}: ${g.deltas.length} deltas`);
    for (const d of g.deltas) {
      for (const op of d.ops) ops.set(`${op.op.case}`, (ops.get(`${op.op.case}`) ?? 0) + 1);
      for (const e of d.events) {
        events.set(`${e.kind.case}`, (events.get(`${e.kind.case}`) ?? 0) + 1);
      }
    }
  }
  for (const kind of ["createObject", "updateObject", "removeObject", "setZone", "setPlayer",
    "setHeader", "revealObject", "concealObject"]) {
    assert.ok((ops.get(kind) ?? 0) > 0, `no ${kind} op in the fixtures`);
  }
  for (const kind of ["zoneChange", "cardDrawn", "cardsRevealed", "gameEnded"]) {
    assert.ok((events.get(kind) ?? 0) > 0, `no ${kind} event in the fixtures`);
  }
});

test("every delta of every view class applies and checks; the incremental hash is right", () => {
  for (const g of games) {
    const m = new Mirror();
    assert.ok(!m.ready);
    m.loadSnapshot(g.snapshot);
    assert.ok(m.ready);
    assert.equal(m.viewer, g.viewer);
    assert.equal(m.stateId, g.snapshot.stateId);
    assert.ok(!m.gameOver);
    for (const [i, d] of g.deltas.entries()) {
      m.applyDelta(d); // throws MirrorDesyncError on any disagreement with the server
      assert.equal(m.stateId, d.stateId);
      // The hash kept element by element is the hash of the whole view from scratch.
      assert.equal(hex(viewHash(m.view())), hex(d.viewHash), `viewer ${g.viewer} delta ${i}`);
      if (i + 1 === g.resyncAfter) {
        assert.equal(m.stateId, g.resync.stateId);
        assert.equal(canonical(m.view()), canonicalOf(g.resync));
      }
    }
    // The end: what a client joining now would be sent.
    assert.ok(m.gameOver);
    assert.equal(m.stateId, g.final.stateId);
    assert.equal(hex(m.hash()), hex(g.final.viewHash));
    assert.equal(canonical(m.view()), canonicalOf(g.final));
  }
});

test("view() is in canonical order and zone() lists a zone's objects in order", () => {
  const g = game(0);
  const m = mirrorAt(g, g.resyncAfter);
  const view = m.view();
  const seats = view.players.map((p) => p.seat);
  assert.deepEqual(seats, [...seats].sort((a, b) => a - b));
  const ids = view.objects.map((o) => o.id);
  assert.deepEqual(ids, [...ids].sort());
  const zones = view.zones.map((z) => [z.zone?.kind ?? 0, z.zone?.owner ?? 0]);
  assert.deepEqual(zones, [...zones].sort((a, b) =>
    (a[0] ?? 0) - (b[0] ?? 0) || (a[1] ?? 0) - (b[1] ?? 0)));
  // Seat 0's hand: its own zone, listed, every object visible.
  const hand = m.zones.get(zoneKey(ZoneKind.HAND, 0));
  assert.ok(hand !== undefined && hand.length > 0);
  assert.deepEqual(m.zone(ZoneKind.HAND, 0).map((o) => o.id), hand);
  for (const o of m.zone(ZoneKind.HAND, 0)) assert.equal(o.zone?.kind, ZoneKind.HAND);
  // The opponent's hand is never listed (protocol/README.md).
  assert.equal(m.zones.get(zoneKey(ZoneKind.HAND, 1)), undefined);
  assert.deepEqual(m.zone(ZoneKind.HAND, 1), []);
  assert.deepEqual(m.zone(ZoneKind.BATTLEFIELD).map((o) => o.id),
    m.zones.get(zoneKey(ZoneKind.BATTLEFIELD, -1)) ?? []);
});

// ---- deltas that don't fit

/** The index of the first delta (after `from`) with an op of `kind`. */
function firstWith(g: Game, kind: string, from = 0): number {
  const i = g.deltas.findIndex((d, n) => n >= from && d.ops.some((op) => op.op.case === kind));
  assert.ok(i >= 0, `viewer ${g.viewer}: no ${kind} op`);
  return i;
}

/** Assert that `d` is refused and leaves the mirror as it was, and that the genuine next
 * delta still applies after it. */
function assertRefused(m: Mirror, d: Delta, genuine: Delta, why: string): void {
  const before = { stateId: m.stateId, hash: hex(m.hash()), view: canonical(m.view()) };
  assert.throws(() => m.applyDelta(d), MirrorDesyncError, why);
  assert.deepEqual({ stateId: m.stateId, hash: hex(m.hash()), view: canonical(m.view()) },
    before, `${why}: the mirror changed`);
  assert.ok(m.ready);
  m.applyDelta(genuine);
}

test("a tampered delta raises MirrorDesyncError and changes nothing", () => {
  for (const g of games) {
    // A changed field: a player's life, in a delta that sets a player.
    let i = firstWith(g, "setPlayer", 5);
    let m = mirrorAt(g, i);
    const genuine = g.deltas[i];
    assert.ok(genuine !== undefined);
    const lifeChanged = clone(DeltaSchema, genuine);
    const op = lifeChanged.ops.find((o) => o.op.case === "setPlayer");
    assert.ok(op !== undefined && op.op.case === "setPlayer");
    op.op.value.life += 1;
    assertRefused(m, lifeChanged, genuine, "changed field");

    // A changed object (a create/update op's name).
    i = firstWith(g, "updateObject", i + 1);
    m = mirrorAt(g, i);
    const objectChanged = clone(DeltaSchema, g.deltas[i] as Delta);
    const upd = objectChanged.ops.find((o) => o.op.case === "updateObject");
    assert.ok(upd !== undefined && upd.op.case === "updateObject");
    upd.op.value.tapped = !upd.op.value.tapped;
    assertRefused(m, objectChanged, g.deltas[i] as Delta, "changed object");

    // A wrong prev_state_id, a gap (a delta missed), a replayed delta.
    i = g.resyncAfter;
    m = mirrorAt(g, i);
    const next = g.deltas[i] as Delta;
    const wrongPrev = clone(DeltaSchema, next);
    wrongPrev.prevStateId += 1n;
    assertRefused(m, wrongPrev, next, "wrong prev_state_id");
    // (now at state i + 1)
    assertRefused(m, g.deltas[i + 2] as Delta, g.deltas[i + 1] as Delta, "a delta missed");
    assertRefused(m, g.deltas[i + 1] as Delta, g.deltas[i + 2] as Delta, "a delta replayed");

    // A dropped op (the first of a delta with several), or a dropped zone order.
    i = g.deltas.findIndex((d, n) => n > 2 && d.ops.length >= 3);
    m = mirrorAt(g, i);
    for (const drop of [0, (g.deltas[i] as Delta).ops.length - 1]) {
      const dropped = clone(DeltaSchema, g.deltas[i] as Delta);
      dropped.ops.splice(drop, 1);
      assertRefused(mirrorAt(g, i), dropped, g.deltas[i] as Delta, `op ${drop} dropped`);
    }
    // Ops applied out of order: a set_zone before the objects it lists were created.
    i = g.deltas.findIndex((d) => d.ops.some((o) => o.op.case === "createObject")
      && d.ops.some((o) => o.op.case === "removeObject"));
    if (i >= 0) {
      const swapped = clone(DeltaSchema, g.deltas[i] as Delta);
      swapped.ops.reverse();
      m = mirrorAt(g, i);
      const same = canonical(m.view());
      try {
        m.applyDelta(swapped); // reversing may happen to give the same view
      } catch (e) {
        assert.ok(e instanceof MirrorDesyncError);
        assert.equal(canonical(m.view()), same);
      }
    }

    // A wrong view hash.
    i = 3;
    m = mirrorAt(g, i);
    const badHash = clone(DeltaSchema, g.deltas[i] as Delta);
    badHash.viewHash = new Uint8Array(badHash.viewHash.map((b, n) => (n === 0 ? b ^ 1 : b)));
    assertRefused(m, badHash, g.deltas[i] as Delta, "wrong view hash");
  }
});

test("an op the client doesn't know raises MirrorDesyncError (and changes nothing)", () => {
  const g = game(1);
  const i = g.deltas.findIndex((d) => d.ops.length >= 2);
  const m = mirrorAt(g, i);
  const genuine = g.deltas[i] as Delta;
  // A newer server's op: oneof member 1000 of DeltaOp, unknown to this client.
  const newOp = new BinaryWriter().tag(1000, WireType.LengthDelimited).bytes(new Uint8Array([8, 1]))
    .finish();
  for (const readUnknownFields of [true, false]) {
    const withNewOp = clone(DeltaSchema, genuine);
    withNewOp.ops.push(fromBinary(DeltaOpSchema, newOp, { readUnknownFields }));
    assert.equal(withNewOp.ops[withNewOp.ops.length - 1]?.op.case, undefined);
    const before = canonical(m.view());
    assert.throws(() => m.applyDelta(withNewOp),
      (e: unknown) => e instanceof MirrorDesyncError && /unknown delta op/.test(e.message));
    assert.equal(canonical(m.view()), before);
  }
  m.applyDelta(genuine);
});

// ---- fields a newer server adds (protocol/README.md, "Versioning")

/** `bytes` (a message) with a varint field 1000 appended: a field this client doesn't know. */
function withField1000(bytes: Uint8Array): Uint8Array {
  const extra = new BinaryWriter().tag(1000, WireType.Varint).uint32(42).finish();
  const out = new Uint8Array(bytes.length + extra.length);
  out.set(bytes);
  out.set(extra, bytes.length);
  return out;
}

/** A newer server's delta: every element it carries (and the delta itself) has a field
 * numbered 1000, which this client decodes as an unknown field. */
function newerDelta(d: Delta): Uint8Array {
  const ops = d.ops.map((op) => {
    const o = clone(DeltaOpSchema, op);
    switch (o.op.case) {
      case "createObject":
      case "updateObject":
      case "revealObject":
        o.op.value = fromBinary(GameObjectSchema,
          withField1000(toBinary(GameObjectSchema, o.op.value)));
        if (o.op.value.zone !== undefined) {
          o.op.value.zone.$unknown = [{ no: 1000, wireType: WireType.Varint,
            data: new Uint8Array([1]) }];
        }
        break;
      case "setPlayer":
        o.op.value = fromBinary(PlayerSchema, withField1000(toBinary(PlayerSchema, o.op.value)));
        break;
      case "setHeader":
      case "setZone":
        o.op.value.$unknown = [{ no: 1001, wireType: WireType.Varint,
          data: new Uint8Array([5]) }];
        break;
      default:
        break;
    }
    return o;
  });
  const delta = clone(DeltaSchema, d);
  delta.ops = ops;
  return withField1000(toBinary(DeltaSchema, delta));
}

test("unknown fields numbered 1000 and above don't change the hash; the mirror drops them",
  () => {
    for (const g of games) {
      for (const readUnknownFields of [true, false]) {
        const m = new Mirror();
        // The snapshot too: every object and the header with a field 1000.
        const view = clone(ViewSchema, g.snapshot.view ?? create(ViewSchema));
        for (const o of view.objects) {
          o.$unknown = [{ no: 1000, wireType: WireType.Varint, data: new Uint8Array([3]) }];
        }
        if (view.header !== undefined) {
          view.header.$unknown = [{ no: 1000, wireType: WireType.Varint,
            data: new Uint8Array([3]) }];
        }
        const snapshot = create(SnapshotSchema, { ...g.snapshot, view });
        m.loadSnapshot(fromBinary(SnapshotSchema, toBinary(SnapshotSchema, snapshot),
          { readUnknownFields }));
        let grown = 0;
        for (const d of g.deltas) {
          const wire = newerDelta(d);
          if (wire.length > toBinary(DeltaSchema, d).length + 3) grown++;
          const decoded = fromBinary(DeltaSchema, wire, { readUnknownFields });
          m.applyDelta(decoded);
        }
        assert.ok(grown > g.deltas.length / 2);
        assert.equal(hex(m.hash()), hex(g.final.viewHash));
        // Nothing the mirror keeps holds an unknown field.
        const held = [m.header, ...m.players.values(), ...m.objects.values()];
        assert.ok(held.every((x) => x.$unknown === undefined || x.$unknown.length === 0));
        assert.ok([...m.objects.values()].every((o) => o.zone?.$unknown === undefined));
        assert.ok(equals(ViewSchema, m.view(), mirrorAt(g, g.deltas.length).view()));
      }
    }
  });

// ---- resync

test("after a desync a snapshot reload brings the mirror back", () => {
  for (const g of games) {
    const k = g.resyncAfter;
    const m = mirrorAt(g, k - 1);
    // The delta to state k is lost: the next one is a gap.
    assert.throws(() => m.applyDelta(g.deltas[k] as Delta), MirrorDesyncError);
    // Also a corrupt one: a hash mismatch.
    const corrupt = clone(DeltaSchema, g.deltas[k - 1] as Delta);
    corrupt.viewHash = new Uint8Array(32);
    assert.throws(() => m.applyDelta(corrupt), MirrorDesyncError);
    // RequestSnapshot's answer: the state after k deltas; the rest of the game applies to it.
    m.loadSnapshot(g.resync);
    assert.ok(m.ready);
    assert.equal(m.stateId, g.resync.stateId);
    for (const d of g.deltas.slice(k)) m.applyDelta(d);
    assert.equal(hex(m.hash()), hex(g.final.viewHash));
    assert.ok(m.gameOver);
    // A snapshot replaces everything, even the view of another viewer.
    const other = games.find((x) => x.viewer !== g.viewer);
    assert.ok(other !== undefined);
    m.loadSnapshot(other.snapshot);
    assert.equal(m.viewer, other.viewer);
    assert.equal(canonical(m.view()), canonicalOf(other.snapshot));
    assert.ok(!m.gameOver);
  }
});

test("a snapshot whose hash doesn't check leaves the mirror not ready", () => {
  const g = game(-1);
  const m = mirrorAt(g, 10);
  const bad = clone(SnapshotSchema, g.resync);
  bad.viewHash = new Uint8Array(32);
  assert.throws(() => m.loadSnapshot(bad), MirrorDesyncError);
  assert.ok(!m.ready);
  // No delta applies to it (each names a state: never 0) until a good snapshot arrives.
  assert.throws(() => m.applyDelta(g.deltas[g.resyncAfter] as Delta), MirrorDesyncError);
  m.loadSnapshot(g.resync);
  m.applyDelta(g.deltas[g.resyncAfter] as Delta);
  assert.ok(m.ready);
});
