/** Rule 510.4: a combat with a first or double striker has two combat damage steps, and the
 * log marks each as the view enters it -- from the step the server names
 * (GameHeader.combatDamageStep), not from counting damage and reading keywords, which was
 * wrong when the first-strike damage was all prevented or the first striker had left. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import {
  CombatDamageStep, DecisionKind, GameEventSchema, GamePhase, PendingInfoSchema, Step, ViewSchema, ZoneKind, type View,
} from "../src/gen/protocol/v1/game_pb";
import { combatDamageMarker, damageStepOf } from "../src/app";
import { viewHash } from "../src/viewhash";
import { installFakeSocket, seatedIn, signedIn } from "./fakes";

const BATTLEFIELD = { kind: ZoneKind.BATTLEFIELD, owner: -1 };

/** Ann's Knight (first strike, `knight`) and Bear attack Bob; blockers were declared. */
function view(knight: boolean): View {
  return create(ViewSchema, {
    viewer: 0,
    header: { turn: 3, activeSeat: 0, step: Step.DECLARE_BLOCKERS, prioritySeat: 0,
      phase: GamePhase.PLAYING, pending: { seat: 0, kind: DecisionKind.PRIORITY, promptId: 9n } },
    players: [{ seat: 0, name: "Ann#0001", life: 20, libraryCount: 50, handCount: 3 },
      { seat: 1, name: "Bob#0002", life: 20, libraryCount: 50, handCount: 5 }],
    objects: [
      { id: "k1", zone: BATTLEFIELD, owner: 0, controller: 0, name: "Knight", cardTypes: ["Creature"],
        power: 2, toughness: 2, attacking: 1, keywords: knight ? ["First strike"] : [] },
      { id: "b1", zone: BATTLEFIELD, owner: 0, controller: 0, name: "Bear", cardTypes: ["Creature"],
        power: 2, toughness: 2, attacking: 1 }],
    zones: [{ zone: BATTLEFIELD, objectIds: ["k1", "b1"] }],
  });
}

/** The log's lines as the view goes through `steps` (each: the combat damage step the header
 * names, and which attackers deal their 2 damage to Bob as it begins). */
function play(knight: boolean, steps: [CombatDamageStep, string[]][]): string[] {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn("t1");
    const v = view(knight);
    seatedIn(ws, v);
    app.log.length = 0;
    let state = 5n;
    let prompt = 10n;
    for (const [damageStep, hitting] of steps) {
      v.header!.step = Step.COMBAT_DAMAGE;
      v.header!.combatDamageStep = damageStep;
      v.header!.pending = create(PendingInfoSchema, { seat: 0, kind: DecisionKind.PRIORITY, promptId: prompt++ });
      v.players[1]!.life -= 2 * hitting.length;
      const events = hitting.map((sourceId) => create(GameEventSchema, { kind: { case: "damage", value: { sourceId, recipient: { case: "player", value: 1 }, amount: 2 } } }));
      ws.deliver({ body: { case: "delta", value: { prevStateId: state, stateId: state + 1n, ops: [
        { op: { case: "setHeader", value: v.header! } }, { op: { case: "setPlayer", value: v.players[1]! } }],
      viewHash: viewHash(v), events } } });
      state++;
      assert.equal(app.mirror.stateId, state);
    }
    return app.log;
  } finally { restore(); }
}

test("510.4: the two combat damage steps are marked as the server names them", () => {
  assert.deepEqual(play(true, [[CombatDamageStep.FIRST_STRIKE, ["k1"]], [CombatDamageStep.REGULAR, ["b1"]]]), [
    "— First-strike combat damage —", "Knight dealt 2 damage to Bob#0002",
    "— Regular combat damage —", "Bear dealt 2 damage to Bob#0002"]);
});

test("510.4: first-strike damage all prevented -- both steps are still marked, the regular one before its damage", () => {
  // Counting damage batches called the Bear's the first-strike step's.
  assert.deepEqual(play(true, [[CombatDamageStep.FIRST_STRIKE, []], [CombatDamageStep.REGULAR, ["b1"]]]), [
    "— First-strike combat damage —", "— Regular combat damage —", "Bear dealt 2 damage to Bob#0002"]);
});

test("510.4: a combat's only combat damage step is not marked, whatever the keywords say", () => {
  // The first striker left (or lost first strike) before the step began: one step, the
  // server says ONLY; reading the keywords had marked it.
  assert.deepEqual(play(true, [[CombatDamageStep.ONLY, ["b1"]]]), ["Bear dealt 2 damage to Bob#0002"]);
  assert.deepEqual(play(false, [[CombatDamageStep.ONLY, ["k1", "b1"]]]),
    ["Knight dealt 2 damage to Bob#0002", "Bear dealt 2 damage to Bob#0002"]);
});

test("510.4: a marker is said once, as the view enters the step; not in other steps", () => {
  assert.equal(combatDamageMarker(CombatDamageStep.FIRST_STRIKE, CombatDamageStep.FIRST_STRIKE), "");
  assert.equal(combatDamageMarker(CombatDamageStep.UNSPECIFIED, CombatDamageStep.REGULAR),
    "— Regular combat damage —");
  assert.equal(combatDamageMarker(CombatDamageStep.REGULAR, CombatDamageStep.UNSPECIFIED), "");
  // An older server names no combat damage step: no marker (no guessing).
  assert.equal(combatDamageMarker(CombatDamageStep.UNSPECIFIED, CombatDamageStep.UNSPECIFIED), "");
  const header = view(true).header!;
  header.combatDamageStep = CombatDamageStep.FIRST_STRIKE;  // a stale value outside the step
  assert.equal(damageStepOf(header), CombatDamageStep.UNSPECIFIED);
  header.step = Step.COMBAT_DAMAGE;
  assert.equal(damageStepOf(header), CombatDamageStep.FIRST_STRIKE);
});
