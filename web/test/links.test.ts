import { test } from "node:test";
import assert from "node:assert/strict";
import { inviteLink, parseInvite } from "../src/links";

test("an invite link carries the room and code in the fragment and reads back", () => {
  const link = inviteLink("http://127.0.0.1:8765/", { role: "join", roomId: "3fa9", code: "Qw7-_x" });
  assert.equal(link, "http://127.0.0.1:8765/#join=3fa9&code=Qw7-_x");
  assert.deepEqual(parseInvite(new URL(link).hash), { role: "join", roomId: "3fa9", code: "Qw7-_x" });
  assert.deepEqual(parseInvite("#watch=r1"), { role: "watch", roomId: "r1", code: "" });
  // A delayed tier rides along for watchers (protocol/README.md, "Spectator tiers").
  const tiered = inviteLink("http://h/", { role: "watch", roomId: "r", code: "c", tier: 2 });
  assert.equal(tiered, "http://h/#watch=r&code=c&tier=2");
  assert.deepEqual(parseInvite(new URL(tiered).hash), { role: "watch", roomId: "r", code: "c", tier: 2 });
  assert.deepEqual(parseInvite("#watch=r&tier=x"), { role: "watch", roomId: "r", code: "" });
  assert.equal(parseInvite(""), null);
  assert.equal(parseInvite("#something=else"), null);
  // A base that already has a fragment is replaced, not appended to.
  assert.equal(inviteLink("http://h/#old", { role: "watch", roomId: "r", code: "" }), "http://h/#watch=r");
});
