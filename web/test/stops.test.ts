/** When the client stops for priority (stops.ts): the default passes the steps that don't
 * matter with an empty stack, stops for the stack, the player's main phases, a combat they
 * are in and the opponent's end step; "all" stops everywhere; only plain priority passes. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { type MessageInitShape } from "@bufbuild/protobuf";
import {
  DecisionKind, DecisionSchema, GameHeaderSchema, GameObjectSchema, ManaPoolSchema, Step, ZoneKind,
  type GameObject,
} from "../src/gen/protocol/v1/game_pb";
import { autoPassIndex, stopText } from "../src/stops";

const ME = 0, BOB = 1;

function priority(extra = true) {
  return create(DecisionSchema, { seat: ME, kind: DecisionKind.PRIORITY, promptId: 1n, options: [
    ...(extra ? [{ kind: { case: "castSpell" as const, value: { objectId: "shock" } } }] : []),
    { kind: { case: "passPriority", value: {} } }] });
}

function header(step: Step, active: number) {
  return create(GameHeaderSchema, { turn: 3, activeSeat: active, step, prioritySeat: ME });
}

function obj(id: string, zone: ZoneKind, controller: number, more: Omit<MessageInitShape<typeof GameObjectSchema>, "$typeName"> = {}): GameObject {
  return create(GameObjectSchema, { id, zone: { kind: zone, owner: -1 }, owner: controller,
    controller, name: id, ...more });
}

const hand = [obj("shock", ZoneKind.HAND, ME, { cardTypes: ["Instant"] })];

test("the default passes upkeep, draw, combat's beginning and end, and the opponent's main phases", () => {
  for (const step of [Step.UPKEEP, Step.DRAW, Step.PRECOMBAT_MAIN, Step.BEGINNING_OF_COMBAT,
    Step.DECLARE_ATTACKERS, Step.COMBAT_DAMAGE, Step.END_OF_COMBAT, Step.POSTCOMBAT_MAIN]) {
    assert.equal(autoPassIndex("auto", priority(), ME, header(step, BOB), hand), 1, Step[step]);
  }
  for (const step of [Step.UPKEEP, Step.DRAW, Step.BEGINNING_OF_COMBAT, Step.END_OF_COMBAT, Step.END]) {
    assert.equal(autoPassIndex("auto", priority(), ME, header(step, ME), hand), 1, `own ${Step[step]}`);
  }
});

test("the default stops in your main phases and at the opponent's end step", () => {
  assert.equal(autoPassIndex("auto", priority(), ME, header(Step.PRECOMBAT_MAIN, ME), hand), -1);
  assert.equal(autoPassIndex("auto", priority(), ME, header(Step.POSTCOMBAT_MAIN, ME), hand), -1);
  assert.equal(autoPassIndex("auto", priority(), ME, header(Step.END, BOB), hand), -1);
});

test("the default stops whenever something is on the stack", () => {
  const spell = obj("bolt", ZoneKind.STACK, BOB, { cardTypes: ["Instant"] });
  for (const step of [Step.UPKEEP, Step.DRAW, Step.PRECOMBAT_MAIN, Step.END_OF_COMBAT, Step.END]) {
    assert.equal(autoPassIndex("auto", priority(), ME, header(step, BOB), [...hand, spell]), -1, Step[step]);
    assert.equal(autoPassIndex("auto", priority(), ME, header(step, ME), [...hand, spell]), -1, Step[step]);
  }
});

test("the default stops in the declare attackers and blockers steps when you attack or are attacked", () => {
  const bears = obj("bears", ZoneKind.BATTLEFIELD, BOB, { attacking: ME });
  const mine = obj("ogre", ZoneKind.BATTLEFIELD, ME, { attacking: BOB });
  for (const step of [Step.DECLARE_ATTACKERS, Step.DECLARE_BLOCKERS]) {
    assert.equal(autoPassIndex("auto", priority(), ME, header(step, BOB), [...hand, bears]), -1);
    assert.equal(autoPassIndex("auto", priority(), ME, header(step, ME), [...hand, mine]), -1);
    // nobody attacks: nothing to stop for
    assert.equal(autoPassIndex("auto", priority(), ME, header(step, BOB), hand), 1);
  }
  // A planeswalker of yours attacked is you attacked; another player attacked (three players) isn't.
  const walker = obj("chandra", ZoneKind.BATTLEFIELD, ME, { cardTypes: ["Planeswalker"] });
  const atWalker = obj("bears", ZoneKind.BATTLEFIELD, BOB, { attackingPlaneswalker: "chandra" });
  assert.equal(autoPassIndex("auto", priority(), ME, header(Step.DECLARE_BLOCKERS, BOB),
    [walker, atWalker]), -1);
  const atCarl = obj("bears", ZoneKind.BATTLEFIELD, BOB, { attacking: 2 });
  assert.equal(autoPassIndex("auto", priority(), ME, header(Step.DECLARE_BLOCKERS, BOB), [atCarl]), 1);
});

test("stopping at every step passes nothing", () => {
  for (const step of [Step.UPKEEP, Step.DRAW, Step.BEGINNING_OF_COMBAT, Step.END_OF_COMBAT]) {
    assert.equal(autoPassIndex("all", priority(), ME, header(step, BOB), hand), -1);
  }
  assert.match(stopText("all"), /every step/);
  assert.match(stopText("auto"), /stack/);
});

test("only a plain priority of the viewer's with PassPriority among its options is passed", () => {
  const up = header(Step.UPKEEP, BOB);
  const blockers = create(DecisionSchema, { seat: ME, kind: DecisionKind.DECLARE_BLOCKERS, options: [
    { kind: { case: "finishBlockers", value: {} } }] });
  assert.equal(autoPassIndex("auto", blockers, ME, up, hand), -1);
  const target = create(DecisionSchema, { seat: ME, kind: DecisionKind.CHOOSE_TARGET, options: [
    { kind: { case: "passPriority", value: {} } }] });
  assert.equal(autoPassIndex("auto", target, ME, up, hand), -1);
  const noPass = create(DecisionSchema, { seat: ME, kind: DecisionKind.PRIORITY, options: [
    { kind: { case: "castSpell", value: { objectId: "shock" } } }] });
  assert.equal(autoPassIndex("auto", noPass, ME, up, hand), -1);
  const others = create(DecisionSchema, { seat: BOB, kind: DecisionKind.PRIORITY, options: [
    { kind: { case: "passPriority", value: {} } }] });
  assert.equal(autoPassIndex("auto", others, ME, up, hand), -1);
  // a step unknown: asked
  assert.equal(autoPassIndex("auto", priority(), ME, header(Step.UNSPECIFIED, BOB), hand), -1);
});

test("mana in the player's pool stops: passing would let it empty", () => {
  const pool = create(ManaPoolSchema, { red: 1 });
  assert.equal(autoPassIndex("auto", priority(), ME, header(Step.UPKEEP, BOB), hand, pool), -1);
  assert.equal(autoPassIndex("auto", priority(), ME, header(Step.UPKEEP, BOB), hand,
    create(ManaPoolSchema, {})), 1);
});
