/** A cast taken back (733.1) is logged as that -- "You took back Scorching Dragonfire" --
 * where the client knows the spell was never cast ({@link Names.castSpell}); it read "Your
 * Scorching Dragonfire returned to your hand from the stack", like a bounce (a new player's
 * review, round 12). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { GameEventSchema, ZoneKind } from "../src/gen/protocol/v1/game_pb";
import { eventText, type Names } from "../src/describe";

const cast = new Map<string, boolean>([["s1", false], ["s2", true]]);
const names: Names = {
  viewer: 0,
  object: () => undefined,
  player: (seat) => ["Ann", "Bob"][seat] ?? `Seat ${seat + 1}`,
  mentions: () => false,
  castSpell: (id) => cast.get(id),
};

const back = (oldId: string, owner = 0, from = ZoneKind.STACK) => eventText(names, create(GameEventSchema, {
  kind: { case: "zoneChange", value: { owner, fromZone: from, toZone: ZoneKind.HAND, oldId, newId: "h",
    name: "Scorching Dragonfire" } } }));

test("a spell put back in its owner's hand before it was cast was taken back", () => {
  assert.equal(back("s1"), "you took back Scorching Dragonfire");
  assert.equal(back("s1", 1), "Bob took back Scorching Dragonfire");
});

test("a spell that was cast, one not seen begun, or a permanent: returned, as before", () => {
  assert.equal(back("s2"), "your Scorching Dragonfire returned to your hand from the stack");
  assert.equal(back("s3"), "your Scorching Dragonfire returned to your hand from the stack");
  assert.equal(back("s1", 0, ZoneKind.BATTLEFIELD), "your Scorching Dragonfire returned to your hand");
  const { castSpell: _unknown, ...without } = names;
  assert.equal(eventText(without, create(GameEventSchema, { kind: { case: "zoneChange", value: {
    owner: 0, fromZone: ZoneKind.STACK, toZone: ZoneKind.HAND, oldId: "s1", name: "Shock" } } })),
  "your Shock returned to your hand from the stack");
});
