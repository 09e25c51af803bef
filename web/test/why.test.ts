/** Why a card in hand can't be cast (ExplainCard, protocol/README.md "Why a card can't be
 * cast"): a new player hovered Titanic Growth and read only its rules text. The page asks
 * once a card and state of the game, and keeps the answer to show. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { App } from "../src/app";
import { DecisionKind, GamePhase, Step, ViewSchema, ZoneKind, type View } from "../src/gen/protocol/v1/game_pb";
import { ErrorCode, Role } from "../src/gen/protocol/v1/messages_pb";
import { viewHash } from "../src/viewhash";
import { installFakeSocket, FakeSocket } from "./fakes";

function view(): View {
  return create(ViewSchema, {
    viewer: 0,
    header: { turn: 3, activeSeat: 0, step: Step.PRECOMBAT_MAIN, prioritySeat: 0,
      phase: GamePhase.PLAYING, pending: { seat: 0, kind: DecisionKind.PRIORITY, promptId: 9n } },
    players: [{ seat: 0, name: "Ann#0001", life: 20, libraryCount: 53, handCount: 2 },
      { seat: 1, name: "Bob#0002", life: 20, libraryCount: 53, handCount: 7 }],
    objects: [
      { id: "g1", name: "Titanic Growth", owner: 0, controller: 0, zone: { kind: ZoneKind.HAND, owner: 0 } },
      { id: "g2", name: "Shock", owner: 0, controller: 0, zone: { kind: ZoneKind.HAND, owner: 0 } },
    ],
    zones: [{ zone: { kind: ZoneKind.HAND, owner: 0 }, objectIds: ["g1", "g2"] }],
  });
}

test("np7: a card that can't be cast is explained on asking, once per card and state", () => {
  const restore = installFakeSocket();
  try {
    const app = new App("ws://server/", "http://server/", null);
    app.signInGuest("Ann");
    const ws = FakeSocket.all.at(-1)!;
    ws.open();
    ws.deliver({ requestId: ws.last("hello").requestId, body: { case: "welcome", value: {
      resumeToken: "r1", accountToken: "t1", account: { accountId: "a", name: "Ann#0001" } } } });
    const v = view();
    ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: v, viewHash: viewHash(v) } } });
    app.explainCard("g1");
    app.explainCard("g1"); // (asked once)
    const asked = ws.last("explainCard");
    assert.equal(asked.objectId, "g1");
    assert.equal(ws.sent.filter((m) => m.body.case === "explainCard").length, 1);
    assert.equal(app.explained.get("g1"), "");
    const reason = "No legal target: it needs target creature.";
    ws.deliver({ requestId: ws.last("explainCard").requestId, body: { case: "cardExplanation",
      value: { objectId: "g1", castable: false, reason } } });
    assert.equal(app.explained.get("g1"), reason);
    assert.equal(app.error, "");
    // A refused question says so on the card, not as the page's error.
    app.explainCard("g2");
    ws.deliver({ requestId: ws.last("explainCard").requestId, body: { case: "error",
      value: { code: ErrorCode.RATE_LIMITED, message: "too many messages" } } });
    assert.equal(app.explained.get("g2"), "The server says: too many messages");
    assert.equal(app.error, "");
  } finally {
    restore();
  }
});
