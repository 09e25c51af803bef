import { test } from "node:test";
import assert from "node:assert/strict";
import { inviteLink, parseInvite } from "../src/links";

test("an invite link carries the room and code in the fragment and reads back", () => {
  const link = inviteLink("http://127.0.0.1:8765/", { role: "join", roomId: "3fa9", code: "Qw7-_x" });
  assert.equal(link, "http://127.0.0.1:8765/#join=3fa9&code=Qw7-_x");
  assert.deepEqual(parseInvite(new URL(link).hash), { role: "join", roomId: "3fa9", code: "Qw7-_x" });
  assert.deepEqual(parseInvite("#watch=r1"), { role: "watch", roomId: "r1", code: "" });
  assert.equal(parseInvite(""), null);
  assert.equal(parseInvite("#something=else"), null);
  // A base that already has a fragment is replaced, not appended to.
  assert.equal(inviteLink("http://h/#old", { role: "watch", roomId: "r", code: "" }), "http://h/#watch=r");
});
