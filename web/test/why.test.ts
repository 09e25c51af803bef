/** Why a card in hand can't be cast (ExplainCard, protocol/README.md "Why a card can't be
 * cast"): a new player hovered Titanic Growth and read only its rules text. The page asks
 * once a card and state of the game, and keeps the answer to show. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { DecisionKind, GamePhase, Step, ViewSchema, ZoneKind, type View } from "../src/gen/protocol/v1/game_pb";
import { ErrorCode } from "../src/gen/protocol/v1/messages_pb";
import { installFakeSocket, seatedIn, signedIn } from "./fakes";

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
    const { app, ws } = signedIn("t1");
    seatedIn(ws, view());
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

test("an answer to the same card's question of an earlier state is not kept for the new one", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn("t1");
    seatedIn(ws, view(), 5n);
    app.explainCard("g1");
    const first = ws.last("explainCard").requestId;
    seatedIn(ws, view(), 6n); // the game moved on before the answer came
    app.explainCard("g1");
    const second = ws.last("explainCard").requestId;
    assert.notEqual(first, second);
    ws.deliver({ requestId: first, body: { case: "cardExplanation",
      value: { objectId: "g1", castable: false, reason: "Not enough mana: the old state's." } } });
    assert.equal(app.explained.get("g1"), "", "the old answer is not this state's");
    ws.deliver({ requestId: second, body: { case: "cardExplanation",
      value: { objectId: "g1", castable: true, reason: "" } } });
    assert.equal(app.explained.get("g1"), "It can be cast now.");
    // A refusal marks only the card it was about.
    app.explainCard("g2");
    ws.deliver({ requestId: ws.last("explainCard").requestId, body: { case: "error",
      value: { code: ErrorCode.RATE_LIMITED, message: "too many messages" } } });
    assert.equal(app.explained.get("g2"), "The server says: too many messages");
    assert.equal(app.explained.get("g1"), "It can be cast now.");
  } finally {
    restore();
  }
});
