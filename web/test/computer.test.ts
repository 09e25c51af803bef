/** Playing against the computer (protocol/README.md, "Computer players"): the lobby's request
 * (CreateRoom with computers 1, join, the player's deck, private), its refusals said as they
 * come, the computer's seat told by RoomInfo.computers and never by its name, and the
 * computer's rematch offer, made at once at the game's end, read as such. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { DecisionKind, GamePhase, GameResultSchema, Step, ViewSchema, type View } from "../src/gen/protocol/v1/game_pb";
import { DeckFormat, ErrorCode, Role } from "../src/gen/protocol/v1/messages_pb";
import { viewHash } from "../src/viewhash";
import { installFakeSocket, signedIn } from "./fakes";

const DECK = "20 Mountain\n20 Forest\n20 Island";

function view(over = false, names = ["Ann#0001", "Computer"]): View {
  const v = create(ViewSchema, {
    viewer: 0,
    header: { turn: 1, activeSeat: 0, step: Step.PRECOMBAT_MAIN, prioritySeat: 0,
      phase: GamePhase.PLAYING, pending: { seat: 0, kind: DecisionKind.PRIORITY, promptId: 3n } },
    players: names.map((name, seat) => ({ seat, name, life: 20, libraryCount: 53, handCount: 7 })),
  });
  if (over) {
    v.header!.pending = undefined;
    v.header!.result = create(GameResultSchema, { winners: [0], reason: "Computer has 0 or less life" });
  }
  return v;
}

test("Play against the computer sends CreateRoom{seats 2, private, join, deck, computers 1}", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    app.playComputer(DECK, 3, "constructed");
    const sent = ws.last("createRoom");
    assert.equal(sent.seats, 2);
    assert.equal(sent.computers, 1);
    assert.equal(sent.private, true);
    assert.equal(sent.join, true);
    assert.equal(sent.deck, DECK);
    assert.equal(sent.bestOf, 3);
    assert.equal(sent.format, DeckFormat.CONSTRUCTED);
    assert.equal(sent.name, "Ann#0001 vs the computer");
    // A second click while the first is answered sends nothing more (one room, not two).
    const count = ws.sent.length;
    app.playComputer(DECK, 3, "constructed");
    assert.equal(ws.sent.length, count);
    // RoomCreated (the room before the player's seat: only the computer), Joined, Snapshot:
    // the game is on at once.
    ws.deliver({ requestId: sent.requestId, body: { case: "roomCreated", value: { inviteCode: "C0DE",
      room: { roomId: "vc", name: sent.name, seats: 2, private: true, players: ["Computer"],
        computers: [1] } } } });
    ws.deliver({ requestId: sent.requestId, body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "vc", name: sent.name, seats: 2, private: true, started: true,
        players: ["Ann#0001", "Computer"], computers: [1] } } } });
    const v = view();
    ws.deliver({ body: { case: "snapshot", value: { roomId: "vc", stateId: 1n, view: v, viewHash: viewHash(v) } } });
    assert.equal(app.room?.info.roomId, "vc");
    assert.equal(app.mirror.ready, true);
    assert.equal(app.isComputer(1), true);
    assert.equal(app.isComputer(0), false);
    // Nobody else can be seated: the invite link is one to watch, not to a seat.
    assert.deepEqual(app.roomInviteLinks(), [{ label: "Live spectators",
      link: `${app["pageUrl"].replace(/#.*$/, "")}#watch=vc&code=C0DE` }]);
    assert.equal(app.error, "");
    // Answered: another game may be asked for later.
    assert.equal([...app["requests"].values()].includes("create-join"), false);
  } finally { restore(); }
});

test("the computer's seat is told by RoomInfo.computers, never by the name 'Computer'", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    // A person named Computer, and no computer in the room.
    ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "r", name: "friends", seats: 2, started: true, players: ["Ann#0001", "Computer"] } } } });
    assert.equal(app.isComputer(1), false);
    // A computer with another name would be told all the same.
    ws.deliver({ body: { case: "roomUpdate", value: { room: { roomId: "r", name: "friends", seats: 2,
      started: true, players: ["Ann#0001", "Computer"], computers: [1] } } } });
    assert.equal(app.isComputer(1), true);
  } finally { restore(); }
});

test("a refused request for a game against the computer is said in the server's words", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    app.playComputer(DECK, 1, "constructed");
    const sent = ws.last("createRoom");
    const words = "a room of 2 seats has at most 1 computer player: one seat is yours";
    ws.deliver({ requestId: sent.requestId, body: { case: "error", value: {
      code: ErrorCode.INVALID_ARGUMENT, message: words } } });
    assert.equal(app.error, words);
    assert.equal(app.room, null);
    // A deck refused: every problem listed, no room (as Create room's).
    app.playComputer("4 Nonsense Card", 1, "constructed");
    ws.deliver({ requestId: ws.last("createRoom").requestId, body: { case: "error", value: {
      code: ErrorCode.INVALID_DECK, message: "1 problem", details: ["line 1: unknown card 'Nonsense Card'"] } } });
    assert.equal(app.error, "The deck was refused: see its problems below.");
    assert.equal(app.deckProblems.length, 1);
    // An unknown card: the server's note on which cards it plays is said too.
    app.playComputer("4 Fire Prophecy", 1, "constructed");
    ws.deliver({ requestId: ws.last("createRoom").requestId, body: { case: "error", value: {
      code: ErrorCode.INVALID_DECK, message: "the deck can't be played in constructed: 1 problem(s) "
        + "(this server supports the cards of Core Set 2021 (M21) and a few others)",
      details: ["line 1: unknown or unsupported card 'Fire Prophecy'"] } } });
    assert.equal(app.error, "The deck was refused: see its problems below. This server supports the "
      + "cards of Core Set 2021 (M21) and a few others.");
    assert.equal(app.room, null);
    // One too long for the server is said before anything is sent.
    const count = ws.sent.length;
    app.playComputer("1 Forest\n".repeat(20_000), 1, "constructed");
    assert.equal(ws.sent.length, count);
    assert.match(app.deckProblems[0]?.message ?? "", /bytes/);
  } finally { restore(); }
});

test("at the game's end the computer's rematch offer reads 'Computer wants a rematch.'", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "vc", name: "vs", seats: 2, private: true, started: true,
        players: ["Ann#0001", "Computer"], computers: [1] } } } });
    const v = view(true);
    ws.deliver({ body: { case: "snapshot", value: { roomId: "vc", stateId: 9n, view: v, viewHash: viewHash(v) } } });
    ws.deliver({ body: { case: "rematchOffers", value: { roomId: "vc", offered: [false, true] } } });
    assert.equal(app.rematchWords, "Computer wants a rematch.");
    assert.equal(app.log.at(-1), "Computer wants a rematch.");
    assert.equal(app.canRematch, true);
    // The player's offer alone starts it.
    app.offerRematch();
    assert.deepEqual(ws.last("offerRematch").offer, true);
  } finally { restore(); }
});
