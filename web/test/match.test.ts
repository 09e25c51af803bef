/** Matches in the App (protocol/README.md, "Matches"): CreateRoom.best_of, the score line
 * ("Game 2 of 3 · 1–0"), keeping or submitting a deck between games (rule 100.4) with the
 * server's answer or every problem, and the next game's snapshot starting over the board. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { App } from "../src/app";
import {
  DecisionKind, GamePhase, ViewSchema, type View,
} from "../src/gen/protocol/v1/game_pb";
import {
  ErrorCode, MatchPhase, Role, MatchStateSchema, RoomInfoSchema, TierKind,
} from "../src/gen/protocol/v1/messages_pb";
import { viewHash } from "../src/viewhash";
import { FakeSocket, installFakeSocket, signedIn } from "./fakes";

function view(over: boolean): View {
  return create(ViewSchema, {
    viewer: 0,
    header: over ? { turn: 5, phase: GamePhase.PLAYING, result: { winners: [1], reason: "conceded" } }
      : { turn: 0, phase: GamePhase.CHOOSE_STARTING_PLAYER,
        pending: { seat: 0, kind: DecisionKind.CHOOSE_STARTING_PLAYER, promptId: 1n } },
    players: [{ seat: 0, name: "Ann#0001", life: 20 }, { seat: 1, name: "Bob#0002", life: 20 }],
  });
}

function inMatch(): { app: App; ws: FakeSocket } {
  const { app, ws } = signedIn();
  ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
    room: { roomId: "r", name: "bo3", seats: 2, started: true, bestOf: 3 } } } });
  const v = view(true);
  ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 40n, view: v, viewHash: viewHash(v) } } });
  return { app, ws };
}

const state = (fields: Parameters<typeof create<typeof MatchStateSchema>>[1]) =>
  ({ body: { case: "matchState" as const, value: create(MatchStateSchema, fields) } });

test("the create-room form's best of goes into CreateRoom.best_of", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    app.createRoom({ name: "bo3", seats: 2, clockMinutes: 30, private: false, spectate: "",
      format: "constructed", tier: null, bestOf: 3 }, "");
    assert.equal(ws.last("createRoom").bestOf, 3);
    app.createRoom({ name: "one", seats: 2, clockMinutes: 30, private: false, spectate: "",
      format: "constructed", tier: null }, "");
    assert.equal(ws.last("createRoom").bestOf, 1);
  } finally { restore(); }
});

test("the score shows as Game 2 of 3 · you 0 – Bob 1, and between games the deck is kept once", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = inMatch();
    ws.deliver(state({ roomId: "r", bestOf: 3, gameNumber: 2, wins: [0, 1],
      phase: MatchPhase.SIDEBOARDING, sideboardRemainingMs: 180_000n, ready: [false, false],
      winner: -1 }));
    // Between games the bar says game 1 is over (it said "Game 2 of 3 · ..." over game 1's
    // last board, with "The game is over": game 2 read as over, found by a caster).
    assert.equal(app.matchLine, "Game 1 of 3 over · you 0 – Bob#0002 1 · sideboarding for game 2",
      "whose wins are whose");
    assert.ok(app.mustSideboard);
    assert.ok(app.sideboardLeft(app.matchAt + 1000) <= 179_000);
    app.keepDeck();
    const sent = ws.last("submitDeck");
    assert.deepEqual(sent.choice, { case: "keep", value: true });
    ws.deliver({ requestId: sent.requestId, body: { case: "deckAccepted", value: {
      gameNumber: 2, kept: true, mainCount: 60 } } });
    assert.equal(app.mustSideboard, false, "answered for game 2");
    assert.match(app.notice, /keep your deck for game 2/);
    ws.deliver(state({ roomId: "r", bestOf: 3, gameNumber: 2, wins: [0, 1],
      phase: MatchPhase.SIDEBOARDING, ready: [true, false], winner: -1 }));
    assert.equal(app.mustSideboard, false);
    // Game 2 starts: its snapshot replaces the board, the match says so, the log marks it.
    const v = view(false);
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 90n, view: v, viewHash: viewHash(v) } } });
    ws.deliver(state({ roomId: "r", bestOf: 3, gameNumber: 2, wins: [0, 1],
      phase: MatchPhase.PLAYING, winner: -1 }));
    assert.equal(app.mirror.stateId, 90n);
    assert.equal(app.mirror.gameOver, false);
    assert.equal(app.log.at(-1), "— Game 2 of 3 (you 0 – Bob#0002 1) —");
    assert.equal(app.notice, "", "the sideboarding's 'keep your deck' went as game 2 began");
    ws.deliver(state({ roomId: "r", bestOf: 3, gameNumber: 3, wins: [2, 1],
      phase: MatchPhase.OVER, winner: 0, reason: "Ann#0001 won 2 of 3 games" }));
    // The reason in the viewer's words, as the terminal says it (it read "Ann#0001 won" to Ann).
    assert.equal(app.matchLine, "Match over: you won the match, you 2 – Bob#0002 1 (you won 2 of 3 games)");
    assert.equal(app.log.at(-1), app.matchLine);
  } finally { restore(); }
});

test("a sideboarded list is submitted; a refusal lists every problem and can be answered again", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = inMatch();
    ws.deliver(state({ roomId: "r", bestOf: 3, gameNumber: 2, wins: [0, 1],
      phase: MatchPhase.SIDEBOARDING, ready: [false, false], winner: -1 }));
    const sentBefore = ws.sent.length;
    app.submitDeck("   ");
    assert.equal(ws.sent.length, sentBefore, "an empty list is not sent");
    assert.equal(app.deckProblems.length, 1);
    app.submitDeck("4 Shock\n56 Mountain\n\nSideboard\n4 Forest\n");
    const sent = ws.last("submitDeck");
    assert.equal(sent.choice.case, "deck");
    assert.ok(app.deckSent);
    ws.deliver({ requestId: sent.requestId, body: { case: "error", value: {
      code: ErrorCode.INVALID_DECK, message: "that deck can't be played in game 2: 2 problem(s)",
      details: ["'Forest': 4 in the deck and sideboard, but 0 registered -- between games you may "
        + "only exchange cards between your main deck and sideboard",
        "'Plains': 4 of the 4 registered missing -- the main deck and sideboard together must be "
        + "exactly the registered cards"] } } });
    assert.equal(app.deckSent, false);
    assert.equal(app.deckProblems.length, 2);
    assert.match(app.error, /Your deck was refused/);
    assert.ok(app.mustSideboard, "still to answer");
    app.keepDeck();
    ws.deliver({ requestId: ws.last("submitDeck").requestId, body: { case: "deckAccepted", value: {
      gameNumber: 2, kept: true } } });
    assert.equal(app.deckProblems.length, 0);
    assert.equal(app.mustSideboard, false);
  } finally { restore(); }
});

test("spectators never sideboard, and a single-game room has no score", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = inMatch();
    app.room = { ...app.room!, role: Role.SPECTATOR, seat: -1 };
    ws.deliver(state({ roomId: "r", bestOf: 3, gameNumber: 2, wins: [1, 0],
      phase: MatchPhase.SIDEBOARDING, ready: [false, false], winner: -1, draws: 1 }));
    assert.equal(app.mustSideboard, false);
    // A spectator is nobody's "you": each side by its player's name.
    assert.equal(app.namedScore(app.match!), "Ann#0001 1 – Bob#0002 0, 1 drawn");
    const single = new App("ws://server/", "http://server/", null);
    assert.equal(single.matchLine, "");
  } finally { restore(); }
});

test("a delayed tier between games shows no time left and never 'waiting for' (its MatchState has neither)", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = inMatch();
    app.room = { ...app.room!, role: Role.SPECTATOR, seat: -1, tier: 0 };
    const between = { roomId: "r", bestOf: 3, gameNumber: 2, wins: [1, 0],
      phase: MatchPhase.SIDEBOARDING, sideboardRemainingMs: 150_000n, ready: [false, true], winner: -1 };
    ws.deliver(state(between));
    assert.deepEqual(app.sideboardWait(), { text: "Waiting for Ann#0001 to choose a deck", clock: true });
    // A tier: no live time (0), and after a restart nobody ready for a while -- it read
    // "Waiting for Ann, Bob to choose a deck (0:00 left)." all through the sideboarding.
    app.room = { ...app.room!, tier: 1 };
    ws.deliver(state({ ...between, sideboardRemainingMs: 0n, ready: [false, false] }));
    assert.deepEqual(app.sideboardWait(), { text: "Sideboarding for game 2", clock: false });
    ws.deliver(state({ ...between, sideboardRemainingMs: 0n, ready: [false, true] }));
    assert.deepEqual(app.sideboardWait(), { text: "Sideboarding for game 2 (deck chosen: Bob#0002)",
      clock: false });
  } finally { restore(); }
});

test("the lobby's delayed-tier buttons: watched directly only by the accounts named or with the code this client has", () => {
  const restore = installFakeSocket();
  try {
    const { app } = signedIn(); // Ann#0001
    const tiers = [
      { kind: TierKind.PUBLIC, delaySeconds: 30, invite: true },
      { kind: TierKind.OMNISCIENT, delaySeconds: 60, invite: true, accounts: ["ann#0001"] },
      { kind: TierKind.OMNISCIENT, delaySeconds: 60, accounts: ["Cas#0003"] }];
    const room = create(RoomInfoSchema, { roomId: "r", players: ["Bob#0002", "Cy#0004"], tiers });
    // Everyone was offered every tier: "only for the accounts it names or with the room's
    // invite code" when clicked (found by a caster).
    assert.equal(app.tierAccess(room, 1), "invite", "the code is needed: the join form takes it");
    assert.deepEqual(app.tierAccess(room, 2), { code: "" }, "Ann is named (names match in any case)");
    assert.equal(app.tierAccess(room, 3), "accounts", "for Cas only: no button");
    app.created = { room, code: "C0DE", link: "", plays: false };
    assert.deepEqual(app.tierAccess(room, 1), { code: "C0DE" }, "the room's creator has the code");
    assert.equal(app.tierAccess(room, 3), "accounts");
  } finally { restore(); }
});

test("between games the box starts with a plain-text list: the server's, or the player's own; never XML", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = inMatch();
    ws.deliver(state({ roomId: "r", bestOf: 3, gameNumber: 2, wins: [0, 1],
      phase: MatchPhase.SIDEBOARDING, ready: [false, false], winner: -1 }));
    // An uploaded MTGO .dek: editing XML to swap cards was no way to sideboard.
    app.lastDeck = '\uFEFF<?xml version="1.0" encoding="utf-8"?>\n<Deck><Cards Quantity="4" '
      + 'Sideboard="false" Name="Shock" /></Deck>';
    const xml = app.sideboardDraft();
    assert.equal(xml.text, "");
    assert.match(xml.hint, /XML file/);
    assert.match(xml.hint, /the main deck, then a line “Sideboard”, then the sideboard/);
    // A pasted plain list is kept as it was.
    app.lastDeck = "4 Shock\n56 Mountain\n\nSideboard\n4 Plains\n";
    assert.deepEqual(app.sideboardDraft(), { text: app.lastDeck, hint: "" });
    // No list (a demo deck, or the page reloaded): empty, saying what to paste.
    app.lastDeck = "";
    assert.match(app.sideboardDraft().hint, /paste your whole deck list/);
    // Once the server said the deck as stored (DeckAccepted.deck), that is the list.
    app.lastDeck = '<?xml version="1.0"?><Deck></Deck>';
    app.keepDeck();
    const stored = "4 Shock\n56 Mountain\n\nSideboard\n4 Plains";
    ws.deliver({ requestId: ws.last("submitDeck").requestId, body: { case: "deckAccepted", value: {
      gameNumber: 2, kept: true, mainCount: 60, sideboardCount: 4, deck: stored } } });
    ws.deliver(state({ roomId: "r", bestOf: 3, gameNumber: 3, wins: [1, 1],
      phase: MatchPhase.SIDEBOARDING, ready: [false, false], winner: -1 }));
    assert.deepEqual(app.sideboardDraft(), { text: stored, hint: "" });
  } finally { restore(); }
});

test("the deck the server stored at the join (Joined.deck) is the box's list from the first sideboarding", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    app.lastDeck = '<?xml version="1.0"?><Deck></Deck>'; // uploaded as MTGO XML
    const stored = "4 Shock\n56 Mountain\n\nSideboard\n4 Plains";
    ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0, deck: stored,
      room: { roomId: "r", name: "bo3", seats: 2, started: true, bestOf: 3 } } } });
    ws.deliver(state({ roomId: "r", bestOf: 3, gameNumber: 2, wins: [0, 1],
      phase: MatchPhase.SIDEBOARDING, ready: [false, false], winner: -1 }));
    assert.deepEqual(app.sideboardDraft(), { text: stored, hint: "" });
  } finally { restore(); }
});
