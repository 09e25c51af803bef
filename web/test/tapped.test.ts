/** "Became tapped" is said of a permanent a resolving spell or ability tapped (Frost Breath),
 * not of a player's lands tapped to pay: Miscast's "unless its controller pays {3}" paid
 * automatically taps them in the delta in which Miscast leaves the stack (the log said "your
 * Mountain became tapped (×3)"), as the terminal's board (client_sdk/board.py). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { DecisionKind, GamePhase, Step, ViewSchema, ZoneKind, type View } from "../src/gen/protocol/v1/game_pb";
import { viewHash } from "../src/viewhash";
import { installFakeSocket, seatedIn, signedIn } from "./fakes";

const BATTLEFIELD = { kind: ZoneKind.BATTLEFIELD, owner: -1 };
const STACK = { kind: ZoneKind.STACK, owner: -1 };

/** Ann's Shock on the stack, Bob's Miscast above it; the pending decision `kind` is Ann's. */
function view(kind: DecisionKind): View {
  const mountains = ["m1", "m2", "m3"].map((id) => ({ id, zone: BATTLEFIELD, owner: 0, controller: 0,
    name: "Mountain", supertypes: ["Basic"], cardTypes: ["Land"] }));
  return create(ViewSchema, {
    viewer: 0,
    header: { turn: 3, activeSeat: 0, step: Step.PRECOMBAT_MAIN, prioritySeat: 0,
      phase: GamePhase.PLAYING, pending: { seat: 0, kind, promptId: 9n } },
    players: [{ seat: 0, name: "Ann#0001", life: 20, libraryCount: 50, handCount: 3 },
      { seat: 1, name: "Bob#0002", life: 20, libraryCount: 50, handCount: 5 }],
    objects: [...mountains,
      { id: "g1", zone: BATTLEFIELD, owner: 1, controller: 1, name: "Grizzly Bears", cardTypes: ["Creature"] },
      { id: "s1", zone: STACK, owner: 0, controller: 0, name: "Shock", cardTypes: ["Instant"] },
      { id: "x1", zone: STACK, owner: 1, controller: 1, name: "Miscast", cardTypes: ["Instant"] }],
    zones: [{ zone: BATTLEFIELD, objectIds: ["m1", "m2", "m3", "g1"] },
      { zone: STACK, objectIds: ["s1", "x1"] }],
  });
}

/** Miscast resolves: it leaves the stack, Ann's three Mountains (and, with `bears`, Bob's
 * Grizzly Bears) tapped in the same delta. The log's lines. */
function resolve(kind: DecisionKind, bears = false): string[] {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn("t1");
    const v = view(kind);
    seatedIn(ws, v);
    app.log.length = 0;
    v.objects = v.objects.filter((o) => o.id !== "x1");
    v.zones[1]!.objectIds = ["s1"];
    const tapped = v.objects.filter((o) => o.controller === 0 && o.zone?.kind === ZoneKind.BATTLEFIELD
      || (bears && o.id === "g1"));
    for (const o of tapped) o.tapped = true;
    v.header!.pending = { ...v.header!.pending!, seat: 0, kind: DecisionKind.PRIORITY, promptId: 10n };
    ws.deliver({ body: { case: "delta", value: { prevStateId: 5n, stateId: 6n, ops: [
      { op: { case: "removeObject", value: "x1" } }, { op: { case: "setZone", value: v.zones[1]! } },
      ...tapped.map((o) => ({ op: { case: "updateObject" as const, value: o } })),
      { op: { case: "setHeader", value: v.header! } }],
    viewHash: viewHash(v), events: [] } } });
    assert.equal(app.mirror.stateId, 6n);
    return app.log;
  } finally { restore(); }
}

test("Miscast's {3} paid: no 'your Mountain became tapped (×3)' in the delta answering the payment", () => {
  assert.deepEqual(resolve(DecisionKind.PAY_MANA), []);
  // Another player's permanent the same delta tapped is still said.
  assert.deepEqual(resolve(DecisionKind.PAY_MANA, true), ["Bob#0002's Grizzly Bears became tapped"]);
  // Not a payment (a resolving spell tapped them): said, as before.
  assert.deepEqual(resolve(DecisionKind.PRIORITY), ["Your Mountain became tapped (×3)"]);
});
