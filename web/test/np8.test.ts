/** A new player's findings (round 8) in the browser client: a hand card's "why can't I cast
 * this" answer is shown only for the state it was asked in, and never once the game is over
 * (it showed turn 1's "Not enough mana" on the game-over board); in a match, Concede's
 * question says it concedes this game; a rematch the server couldn't make ("no rematch: ...",
 * request id 0) puts the page back in the lobby with the reason. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { DecisionKind, GamePhase, GameResultSchema, Step, ViewSchema, ZoneKind, type View } from "../src/gen/protocol/v1/game_pb";
import { ErrorCode, MatchPhase, MatchStateSchema } from "../src/gen/protocol/v1/messages_pb";
import { deltaStepper, installFakeSocket, seatedIn, signedIn, type FakeSocket } from "./fakes";

const NOT_ENOUGH = "Not enough mana: it needs {R}, and you could make at most 0.";

function view(): View {
  return create(ViewSchema, {
    viewer: 0,
    header: { turn: 1, activeSeat: 0, step: Step.PRECOMBAT_MAIN, prioritySeat: 0,
      phase: GamePhase.PLAYING, pending: { seat: 0, kind: DecisionKind.PRIORITY, promptId: 9n } },
    players: [{ seat: 0, name: "Ann#0001", life: 20, libraryCount: 53, handCount: 1 },
      { seat: 1, name: "Bob#0002", life: 20, libraryCount: 53, handCount: 7 }],
    objects: [
      { id: "g2", name: "Shock", owner: 0, controller: 0, zone: { kind: ZoneKind.HAND, owner: 0 } },
    ],
    zones: [{ zone: { kind: ZoneKind.HAND, owner: 0 }, objectIds: ["g2"] }],
  });
}

/** The header changed by a delta from state `from` to `from + 1`. */
/** The view's header sent as the delta after state `from`. */
function moveOn(ws: FakeSocket, v: View, from: bigint): void {
  deltaStepper(ws, v, from)(() => {});
}

/** The game in `v` is over: `winner` won, the other conceded. */
function over(v: View, winner: number): void {
  v.header!.pending = undefined;
  v.header!.result = create(GameResultSchema, { winners: [winner],
    reason: `${v.players[1 - winner]!.name} conceded` });
}

test("np8 L2: a hand card's answer is shown only in the state it was asked in, and not at the game's end", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn("t1");
    const v = view();
    seatedIn(ws, v, 5n);
    app.explainCard("g2");
    ws.deliver({ requestId: ws.last("explainCard").requestId, body: { case: "cardExplanation",
      value: { objectId: "g2", castable: false, reason: NOT_ENOUGH } } });
    assert.equal(app.whyNot("g2"), NOT_ENOUGH);
    // The game moves on (a Mountain played): turn 1's answer is not shown for the new state.
    v.header!.pending = { ...v.header!.pending!, promptId: 10n };
    moveOn(ws, v, 5n);
    assert.equal(app.mirror.stateId, 6n);
    assert.equal(app.whyNot("g2"), undefined);
    // Conceded: the game-over board shows no answer, and asks none.
    over(v, 1);
    moveOn(ws, v, 6n);
    assert.equal(app.mirror.gameOver, true);
    const asked = ws.sent.length;
    app.explainCard("g2");
    assert.equal(ws.sent.length, asked, "nothing asked once the game is over");
    assert.equal(app.whyNot("g2"), undefined);
  } finally {
    restore();
  }
});

test("np8 L2: an answer asked at the game-over state's id is not shown, nor one of the last game in the next", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn("t1");
    const v = view();
    seatedIn(ws, v, 5n);
    app.explainCard("g2");
    const rid = ws.last("explainCard").requestId;
    // The game ends while the answer is on its way: the answer (landing) shows nothing.
    over(v, 1);
    moveOn(ws, v, 5n);
    ws.deliver({ requestId: rid, body: { case: "cardExplanation",
      value: { objectId: "g2", castable: false, reason: NOT_ENOUGH } } });
    assert.equal(app.whyNot("g2"), undefined);
    // A match's next game, whose state ids start again (same object id, same state id):
    // asked afresh.
    const next = view();
    seatedIn(ws, next, 5n);
    assert.equal(app.whyNot("g2"), undefined);
    app.explainCard("g2");
    assert.equal(ws.last("explainCard").objectId, "g2");
    assert.equal(app.whyNot("g2"), "");
  } finally {
    restore();
  }
});

const matchState = (fields: Parameters<typeof create<typeof MatchStateSchema>>[1]) =>
  ({ body: { case: "matchState" as const, value: create(MatchStateSchema, fields) } });

test("np8 L7c: in a match, Concede asks about this game (which one; whether the match goes on)", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn("t1");
    seatedIn(ws, view(), 5n);
    assert.equal(app.concedeQuestion, "Really concede?", "a single game: short");
    ws.deliver(matchState({ roomId: "r", bestOf: 3, gameNumber: 2, wins: [1, 0],
      phase: MatchPhase.PLAYING, winner: -1 }));
    assert.equal(app.concedeQuestion, "Concede this game? (game 2 of 3; the match goes on)");
    ws.deliver(matchState({ roomId: "r", bestOf: 3, gameNumber: 2, wins: [0, 1],
      phase: MatchPhase.PLAYING, winner: -1 }));
    assert.equal(app.concedeQuestion, "Concede this game? (game 2 of 3; that ends the match)");
    ws.deliver(matchState({ roomId: "r", bestOf: 3, gameNumber: 3, wins: [1, 1],
      phase: MatchPhase.PLAYING, winner: -1 }));
    assert.equal(app.concedeQuestion, "Concede this game? (game 3 of 3; that ends the match)");
  } finally {
    restore();
  }
});

test("np8: 'no rematch: <why>' (request id 0) after the old room let the players go: back in the lobby, the reason said", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn("t1");
    const v = view();
    over(v, 0);
    seatedIn(ws, v, 5n);
    app.offerRematch();
    ws.deliver({ body: { case: "rematchOffers", value: { roomId: "r", offered: [true, true] } } });
    ws.deliver({ body: { case: "error", value: { code: ErrorCode.LIMIT_REACHED,
      message: "no rematch: the server has too many rooms" } } });
    assert.equal(app.room, null);
    assert.equal(app.notice, "No rematch: the server has too many rooms.");
    assert.equal(app.error, "");
    assert.equal(ws.sent.at(-1)?.body.case, "listRooms", "the lobby's rooms are asked for");
    assert.equal(app.whyNot("g2"), undefined);
  } finally {
    restore();
  }
});
