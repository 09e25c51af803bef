/** A server's Notice (protocol/README.md, "Notices") is shown as a notice -- the banner and
 * a log line -- never as an error, and leaves the pending decision as it was; a game the
 * server's limit of actions ended reads as a draw, said once. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { resultReason, resultText, sentence, type Names } from "../src/describe";
import { DecisionKind, GamePhase, Step, ViewSchema, type View } from "../src/gen/protocol/v1/game_pb";
import { NoticeCode } from "../src/gen/protocol/v1/messages_pb";
import { installFakeSocket, seatedIn, signedIn } from "./fakes";

const WARNING = "this game has taken 270 actions: at the server's limit of 300 it ends as a draw";

function view(): View {
  return create(ViewSchema, {
    viewer: 0,
    header: { turn: 1, activeSeat: 0, step: Step.PRECOMBAT_MAIN, prioritySeat: 0,
      phase: GamePhase.PLAYING, pending: { seat: 0, kind: DecisionKind.PRIORITY, promptId: 9n } },
    players: [{ seat: 0, name: "Ann#0001", life: 20, libraryCount: 53, handCount: 0 },
      { seat: 1, name: "Bob#0002", life: 20, libraryCount: 53, handCount: 7 }],
  });
}

test("a notice is a banner and a log line, not an error, and the decision stays to answer", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn("t1");
    seatedIn(ws, view());
    ws.deliver({ body: { case: "decision", value: { roomId: "r", promptId: 9n, seat: 0,
      kind: DecisionKind.PRIORITY, stateId: 5n, options: [{ kind: { case: "passPriority", value: {} } }] } } });
    ws.deliver({ body: { case: "notice", value: { code: NoticeCode.ACTION_LIMIT_NEAR, message: WARNING } } });
    assert.equal(app.notice, `Server notice: ${WARNING}`);
    assert.equal(app.error, "");
    assert.equal(app.log.at(-1), `Server notice: ${WARNING}`);
    assert.equal(app.options.length, 1); // (the decision is still there, and answered once)
    app.act(0);
    assert.equal(ws.last("act").promptId, 9n);
  } finally {
    restore();
  }
});

test("a game drawn at the server's limit of actions says 'a draw' once", () => {
  const names: Names = { viewer: 0, object: () => undefined, player: (s) => ["Ann", "Bob"][s]!,
    mentions: () => false };
  const reason = "the game reached the server's limit of 300 actions: a draw";
  assert.equal(resultText(names, [], reason),
    "The game is a draw (the game reached the server's limit of 300 actions)");
  assert.equal(sentence(resultReason(names, [], reason)),
    "The game reached the server's limit of 300 actions");
  // (a win whose reason ends so is left as it is)
  assert.equal(resultReason(names, [1], "x: a draw"), "x: a draw");
});
