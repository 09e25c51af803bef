/** A rematch at a game's (match's) end (protocol/README.md, "Rematch"): the server's
 * RematchOffers and RematchStarted are handled (the dispatch is exhaustive), the game-over
 * panel's button offers and takes back, the opponent's offer is said and logged once, a
 * cancelled rematch is said, and RematchStarted then Joined seat the player in the new room. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { DecisionKind, GamePhase, GameResultSchema, Step, ViewSchema, type View } from "../src/gen/protocol/v1/game_pb";
import { ErrorCode, MatchPhase, Role } from "../src/gen/protocol/v1/messages_pb";
import { viewHash } from "../src/viewhash";
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

/** Ann (seat 0) at a finished game against Bob, signed in and seated in room "r". */
function finished() {
  const out = signedIn("t1");
  seatedIn(out.ws, view(true));
  return out;
}

/** Signed in and watching room "r" ("friday"), its game over. */
function watchingFinished() {
  const out = signedIn("t1");
  const v = view(true);
  v.viewer = -1;
  out.ws.deliver({ body: { case: "joined", value: { role: Role.SPECTATOR, seat: -1,
    room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
  out.ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: v, viewHash: viewHash(v) } } });
  return out;
}

test("the Rematch button offers, then takes the offer back; it waits for each answer", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = finished();
    assert.equal(app.canRematch, true);
    assert.equal(app.rematchOffered, false);
    assert.equal(app.rematchWords, "");
    app.offerRematch();
    const sent = ws.last("offerRematch");
    assert.equal(sent.offer, true);
    assert.equal(app.rematchSent, true);
    app.offerRematch(); // (a second click before the answer sends nothing)
    assert.equal(ws.sent.filter((m) => m.body.case === "offerRematch").length, 1);
    ws.deliver({ requestId: sent.requestId, body: { case: "rematchOffers", value: {
      roomId: "r", offered: [true, false] } } });
    assert.equal(app.rematchSent, false);
    assert.equal(app.rematchOffered, true);
    assert.equal(app.rematchWords, "You offered a rematch: waiting for Bob#0002.");
    app.offerRematch();
    const back = ws.last("offerRematch");
    assert.equal(back.offer, false);
    ws.deliver({ requestId: back.requestId, body: { case: "rematchOffers", value: {
      roomId: "r", offered: [false, false] } } });
    assert.equal(app.rematchOffered, false);
    assert.equal(app.log.filter((l) => /rematch/i.test(l)).length, 0); // (her own: not logged)
  } finally { restore(); }
});

test("no Rematch before the game is over, between a match's games, or for a spectator", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn("t1");
    seatedIn(ws, view(false));
    assert.equal(app.canRematch, false);
    app.offerRematch();
    assert.equal(ws.sent.some((m) => m.body.case === "offerRematch"), false);
    const v = view(true);
    ws.deliver({ body: { case: "matchState", value: { roomId: "r", bestOf: 3, gameNumber: 1,
      phase: MatchPhase.SIDEBOARDING, wins: [1, 0] } } });
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 6n, view: v, viewHash: viewHash(v) } } });
    assert.equal(app.mirror.gameOver, true);
    assert.equal(app.canRematch, false); // (the match goes on)
    ws.deliver({ body: { case: "matchState", value: { roomId: "r", bestOf: 3, gameNumber: 2,
      phase: MatchPhase.OVER, wins: [2, 0] } } });
    assert.equal(app.canRematch, true); // (the match is over)
  } finally { restore(); }
  const restore2 = installFakeSocket();
  try {
    const { app, ws } = watchingFinished();
    assert.equal(app.mirror.gameOver, true);
    assert.equal(app.canRematch, false);
    ws.deliver({ body: { case: "rematchOffers", value: { roomId: "r", offered: [true, false] } } });
    assert.equal(app.rematchWords, "Ann#0001 wants a rematch.");
    assert.equal(app.log.at(-1), "Ann#0001 wants a rematch.");
  } finally { restore2(); }
});

test("the opponent's offer is said and logged once; a cancelled rematch is said and the button goes", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = finished();
    ws.deliver({ body: { case: "rematchOffers", value: { roomId: "r", offered: [false, true] } } });
    assert.equal(app.rematchWords, "Bob#0002 wants a rematch.");
    assert.equal(app.log.at(-1), "Bob#0002 wants a rematch.");
    // Ann's offer answered: Bob's flag is still up, and not logged again.
    app.offerRematch();
    ws.deliver({ requestId: ws.last("offerRematch").requestId, body: { case: "rematchOffers", value: {
      roomId: "r", offered: [true, true] } } });
    assert.equal(app.log.filter((l) => l.includes("wants a rematch")).length, 1);
    // Bob takes it back and offers again: said in the panel, not logged again.
    ws.deliver({ body: { case: "rematchOffers", value: { roomId: "r", offered: [true, false] } } });
    assert.equal(app.rematchWords, "You offered a rematch: waiting for Bob#0002.");
    ws.deliver({ body: { case: "rematchOffers", value: { roomId: "r", offered: [true, true] } } });
    assert.equal(app.log.filter((l) => l.includes("wants a rematch")).length, 1);
    ws.deliver({ body: { case: "rematchOffers", value: { roomId: "r", offered: [false, false],
      cancelled: "Bob#0002 left the room" } } });
    assert.equal(app.canRematch, false);
    assert.equal(app.rematchWords, "No rematch: Bob#0002 left the room.");
    assert.equal(app.notice, "No rematch: Bob#0002 left the room.");
    assert.equal(app.log.at(-1), "No rematch: Bob#0002 left the room.");
    ws.deliver({ body: { case: "rematchOffers", value: { roomId: "r", offered: [false, false],
      cancelled: "Bob#0002 left the room" } } });
    assert.equal(app.log.filter((l) => l.startsWith("No rematch")).length, 1);
  } finally { restore(); }
});

test("a refused offer is said beside the button", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = finished();
    app.offerRematch();
    ws.deliver({ requestId: ws.last("offerRematch").requestId, body: { case: "error", value: {
      code: ErrorCode.INVALID_ARGUMENT, message: "no rematch: Bob#0002 left the game" } } });
    assert.equal(app.rematchSent, false);
    assert.equal(app.rematchWords, "No rematch: Bob#0002 left the game.");
    assert.equal(app.error, "");
  } finally { restore(); }
});

test("RematchStarted then Joined seat the player in the new room: a new board and log, the new invite link", () => {
  const restore = installFakeSocket();
  const store = new Map<string, string>();
  const g = globalThis as { sessionStorage?: unknown };
  const before = g.sessionStorage;
  g.sessionStorage = { getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => { store.set(k, v); }, removeItem: (k: string) => { store.delete(k); } };
  try {
    const { app, ws } = finished();
    app.offerRematch();
    ws.deliver({ body: { case: "rematchOffers", value: { roomId: "r", offered: [false, true] } } });
    ws.deliver({ requestId: ws.last("offerRematch").requestId, body: { case: "rematchOffers", value: {
      roomId: "r", offered: [true, true] } } });
    ws.deliver({ body: { case: "rematchStarted", value: { oldRoomId: "r", newRoomId: "r2", inviteCode: "NEWCODE" } } });
    assert.equal(app.canRematch, false);
    assert.equal(app.rematchWords, "Rematch! The new game starts…");
    ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0, deckName: "Red",
      room: { roomId: "r2", name: "friday", seats: 2, private: true, players: ["Ann#0001", "Bob#0002"] } } } });
    assert.equal(app.room?.info.roomId, "r2");
    assert.equal(app.mirror.ready, false); // (a new board: the old game's is gone)
    assert.equal(app.rematch, null);
    assert.equal(app.notice, "Rematch! The new game starts…");
    const links = app.roomInviteLinks();
    assert.equal(links.length, 1);
    assert.match(links[0]!.link, /#join=r2&code=NEWCODE$/);
    const v = view(false);
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r2", stateId: 1n, view: v, viewHash: viewHash(v) } } });
    assert.equal(app.mirror.gameOver, false);
    assert.equal(app.log[0], "— Rematch of “friday”: a new game —");
    assert.equal(app.log.some((l) => l.includes("caught up")), false);
    assert.equal(app.notice, "");
    assert.equal(app.canRematch, false);
  } finally { g.sessionStorage = before; restore(); }
});

test("a spectator is told where the rematch is: watched with its code; a private room's only that it started", () => {
  for (const newRoomId of ["r2", ""]) {
    const restore = installFakeSocket();
    try {
      const { app, ws } = watchingFinished();
      ws.deliver({ body: { case: "rematchStarted", value: { oldRoomId: "r", newRoomId,
        inviteCode: newRoomId ? "C2" : "" } } });
      if (newRoomId) {
        assert.equal(app.rematchWords, "The players started a rematch.");
        assert.equal(app.log.at(-1), "The players started a rematch: you can watch it.");
        assert.match(app.rematchWatchLink, /#watch=r2&code=C2$/);
        app.watchRematch();
        const sent = ws.sent.slice(-2);
        assert.equal(sent[0]!.body.case, "leaveRoom");
        const join = ws.last("joinRoom");
        assert.deepEqual([join.roomId, join.role, join.inviteCode], ["r2", Role.SPECTATOR, "C2"]);
        assert.equal(app.room, null);
      } else {
        assert.equal(app.rematchWords, "The players started a rematch (in a private room).");
        assert.equal(app.rematchWatchLink, "");
        app.watchRematch();
        assert.equal(ws.sent.some((m) => m.body.case === "joinRoom"), false);
      }
    } finally { restore(); }
  }
});

test("an offer on its way when the connection drops frees the button again", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = finished();
    app.offerRematch();
    assert.equal(app.rematchSent, true);
    ws.drop();
    assert.equal(app.rematchSent, false);
  } finally { restore(); }
});
