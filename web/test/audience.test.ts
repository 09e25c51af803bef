/** The audience's links (new-user round HIGH): a watch link carried the players' invite code,
 * so anyone in a stream's audience could take a seat. The room's watch links -- live and each
 * delayed tier's -- now carry its audience code (RoomCreated.audience_code), the seat link the
 * invite code; a room known without an audience code keeps its one link, as before. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Role, Spectate, TierKind } from "../src/gen/protocol/v1/messages_pb";
import { parseInvite, watchCode } from "../src/links";
import { installFakeSocket, signedIn } from "./fakes";

const TIER = { kind: TierKind.OMNISCIENT, delaySeconds: 60, invite: true };

test("the created room's watch links carry the audience code, its seat link the invite code", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    app.createRoom({ name: "stream", seats: 2, clockMinutes: 30, private: true, spectate: "invite",
      format: "constructed", tier: null, play: false }, "");
    const create = ws.last("createRoom");
    ws.deliver({ requestId: create.requestId, body: { case: "roomCreated", value: {
      room: { roomId: "r1", name: "stream", seats: 2, private: true, spectate: Spectate.INVITE,
        tiers: [TIER] }, inviteCode: "SEAT", audienceCode: "WATCH" } } });
    const links = app.createdLinks().map(({ label, link }) => ({ label, invite: parseInvite(link.slice(link.indexOf("#"))) }));
    assert.deepEqual(links.map((l) => [l.label, l.invite?.role, l.invite?.code]), [
      ["Players", "join", "SEAT"],
      ["Live spectators", "watch", "WATCH"],
      ["Delayed: every hand, 60 s behind", "watch", "WATCH"]]);
    assert.equal(links[2]!.invite?.tier, 1);
  } finally { restore(); }
});

test("a rematch's spectator watches it with the audience code it was told", () => {
  assert.equal(watchCode("", "WATCH"), "WATCH");
  assert.equal(watchCode("SEAT", ""), "SEAT"); // (a room made before audience codes)
  assert.equal(watchCode("SEAT", "WATCH"), "WATCH");
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    app.join("r1", Role.SPECTATOR, "", "WATCH");
    ws.deliver({ requestId: ws.last("joinRoom").requestId, body: { case: "joined", value: {
      role: Role.SPECTATOR, seat: -1, room: { roomId: "r1", name: "stream", seats: 2 } } } });
    ws.deliver({ body: { case: "rematchStarted", value: { oldRoomId: "r1", newRoomId: "r2",
      audienceCode: "WATCH2" } } });
    assert.match(app.rematchWatchLink, /#watch=r2&code=WATCH2$/);
  } finally { restore(); }
});
