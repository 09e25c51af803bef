/** A cast taken back (733.1) is logged as that -- "You took back Scorching Dragonfire" --
 * where the log saw the casting begin and no SpellCastEvent since ({@link Names.casts}, kept
 * by eventLines); it read "Your Scorching Dragonfire returned to your hand from the stack",
 * like a bounce (a new player's review, round 12). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { type GameEvent, GameEventSchema, ZoneKind } from "../src/gen/protocol/v1/game_pb";
import { eventLines, type Names } from "../src/describe";

function names(casts?: Map<string, boolean>): Names {
  return {
    viewer: 0,
    object: () => undefined,
    player: (seat) => ["Ann", "Bob"][seat] ?? `Seat ${seat + 1}`,
    mentions: () => false,
    ...(casts ? { casts } : {}),
  };
}
const ev = (kind: MessageInitShape<typeof GameEventSchema>["kind"]): GameEvent => create(GameEventSchema, { kind });
const NAME = "Scorching Dragonfire";
const begun = (id: string, owner = 0) => ev({ case: "zoneChange", value: {
  owner, fromZone: ZoneKind.HAND, toZone: ZoneKind.STACK, oldId: `h-${id}`, newId: id, name: NAME } });
const cast = (id: string, controller = 0) => ev({ case: "spellCast", value: { objectId: id, controller, name: NAME } });
const back = (id: string, owner = 0) => ev({ case: "zoneChange", value: {
  owner, fromZone: ZoneKind.STACK, toZone: ZoneKind.HAND, oldId: id, newId: `h2-${id}`, name: NAME } });

test("a spell put back in its owner's hand before it was cast was taken back", () => {
  const casts = new Map<string, boolean>();
  assert.deepEqual(eventLines(names(casts), [begun("s1")], false), [null]);
  assert.deepEqual(eventLines(names(casts), [back("s1")], false), ["you took back Scorching Dragonfire"]);
  assert.deepEqual(eventLines(names(casts), [begun("s2", 1)], false), [null]);
  assert.deepEqual(eventLines(names(casts), [back("s2", 1)], false), ["Bob took back Scorching Dragonfire"]);
  assert.equal(casts.size, 0, "a spell off the stack is forgotten");
});

test("a spell that was cast, or one whose casting the log didn't see begin, returned", () => {
  const casts = new Map<string, boolean>();
  eventLines(names(casts), [begun("s1"), cast("s1")], false);
  assert.deepEqual(eventLines(names(casts), [back("s1")], false),
    ["your Scorching Dragonfire returned to your hand from the stack"]);
  assert.deepEqual(eventLines(names(casts), [back("s9")], false),
    ["your Scorching Dragonfire returned to your hand from the stack"]);
  assert.deepEqual(eventLines(names(), [begun("s3"), back("s3")], false),
    [null, "your Scorching Dragonfire returned to your hand from the stack"]);
  // A countered spell's move to the graveyard is still said by its "countered" line only.
  eventLines(names(casts), [begun("s4"), cast("s4")], false);
  const countered = ev({ case: "countered", value: { objectId: "s4", controller: 0, name: NAME } });
  const toGraveyard = ev({ case: "zoneChange", value: {
    owner: 0, fromZone: ZoneKind.STACK, toZone: ZoneKind.GRAVEYARD, oldId: "s4", name: NAME } });
  assert.deepEqual(eventLines(names(casts), [countered, toGraveyard], false),
    ["Your Scorching Dragonfire was countered", null]);
  assert.equal(casts.size, 0);
});
