/** The deck-paste flow (web/src/deck.ts, and the App sending a pasted deck and showing a
 * refused deck's problems by line: protocol/README.md, JoinRoom.deck). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { deckPrecheck, deckProblems, MAX_DECK_BYTES, namedAfterFile, readDeckFile } from "../src/deck";
import { App } from "../src/app";
import { ErrorCode, Role } from "../src/gen/protocol/v1/messages_pb";
import { FakeSocket, installFakeSocket } from "./fakes";

test("problems are read by line, whole-deck problems first", () => {
  const problems = deckProblems([
    "line 7: unknown or unsupported card 'Ugin, the Spirit Dragon'",
    "a constructed deck has at least 60 cards in its main deck, got 52",
    "line 2: a count must be a whole number",
    "line 7: more than four copies",
  ]);
  assert.deepEqual(problems, [
    { line: 0, message: "a constructed deck has at least 60 cards in its main deck, got 52" },
    { line: 2, message: "a count must be a whole number" },
    { line: 7, message: "unknown or unsupported card 'Ugin, the Spirit Dragon'" },
    { line: 7, message: "more than four copies" },
  ]);
});

test("a deck over the server's 32 KiB is refused before sending", () => {
  assert.equal(deckPrecheck("4 Shock\n"), null);
  assert.match(deckPrecheck("x".repeat(MAX_DECK_BYTES + 1)) ?? "", /at most 32768/);
  // bytes, not characters: 'é' is two bytes in UTF-8
  assert.notEqual(deckPrecheck("é".repeat(MAX_DECK_BYTES / 2 + 1)), null);
});

test("an uploaded file must be UTF-8 text within the limit", async () => {
  const text = "4 Shock\n20 Mountain\n";
  assert.equal(await readDeckFile(new Blob([text])), text);
  await assert.rejects(readDeckFile(new Blob([new Uint8Array([0xff, 0xfe, 0x00])])), /isn't text/);
  await assert.rejects(readDeckFile(new Blob(["x".repeat(MAX_DECK_BYTES + 1)])), /at most/);
});

test("a pasted deck goes with JoinRoom as it is; a refused one shows its lines", () => {
  const restore = installFakeSocket();
  try {
    const app = new App("ws://server/", "http://server/", null);
    app.signInGuest("Ann");
    const ws = FakeSocket.all[0]!;
    ws.open();
    const hello = ws.last("hello");
    assert.equal(hello.displayName, "Ann");
    assert.equal(hello.protocolVersion, 1);
    ws.deliver({ requestId: hello.requestId, body: { case: "welcome", value: {
      protocolVersion: 1, sessionId: "s", resumeToken: "r1", accountToken: "t1",
      account: { accountId: "a", name: "Ann#0001" } } } });
    assert.equal(app.account?.name, "Ann#0001");
    assert.equal(app.status, "connected");

    const deck = "4 Shock\n4 Ugin, the Spirit Dragon\n52 Mountain\n";
    app.join("room-1", Role.PLAYER, deck, "code-1");
    const join = ws.last("joinRoom");
    assert.equal(join.deck, deck);
    assert.equal(join.roomId, "room-1");
    assert.equal(join.inviteCode, "code-1");
    assert.equal(join.role, Role.PLAYER);

    ws.deliver({ requestId: join.requestId, body: { case: "error", value: {
      code: ErrorCode.INVALID_DECK, message: "the deck was refused",
      details: ["line 2: unknown or unsupported card 'Ugin, the Spirit Dragon'"] } } });
    assert.deepEqual(app.deckProblems,
      [{ line: 2, message: "unknown or unsupported card 'Ugin, the Spirit Dragon'" }]);
    assert.equal(app.room === null, true, "a refused join leaves the client in the lobby");
    assert.match(app.error, /refused/);

    // Fixed and sent again: accepted, the problems are gone.
    app.join("room-1", Role.PLAYER, "4 Shock\n56 Mountain\n", "code-1");
    const again = ws.last("joinRoom");
    ws.deliver({ requestId: again.requestId, body: { case: "joined", value: {
      role: Role.PLAYER, seat: 1, room: { roomId: "room-1", name: "friday", seats: 2 } } } });
    assert.deepEqual(app.deckProblems, []);
    assert.equal(app.room?.seat, 1);
    assert.equal(app.error, "");
  } finally {
    restore();
  }
});

test("a spectator's join sends no deck", () => {
  const restore = installFakeSocket();
  try {
    const app = new App("ws://server/", "http://server/", null);
    app.signInGuest("Cy");
    const ws = FakeSocket.all[0]!;
    ws.open();
    ws.deliver({ requestId: ws.last("hello").requestId, body: { case: "welcome", value: {
      resumeToken: "r", account: { accountId: "c", name: "Cy#0002" } } } });
    app.join("room-1", Role.SPECTATOR, "4 Shock", "");
    assert.equal(ws.last("joinRoom").deck, "");
    assert.equal(ws.last("joinRoom").role, Role.SPECTATOR);
  } finally {
    restore();
  }
});

test("an uploaded plain-text or Arena list with no name is named after its file, as the command line does", async () => {
  const arena = "Deck\n4 Shock (M21) 159\n20 Mountain\n";
  assert.equal(await readDeckFile(new File([arena], "mydeck.txt")), `Name: mydeck\n${arena}`);
  assert.equal(namedAfterFile("4 Shock\n", "C:\\decks\\red burn.txt"), "Name: red burn\n4 Shock\n");
  // Its own name kept; XML and Forge files carry theirs; no file name, nothing added.
  assert.equal(namedAfterFile("Name: Burn\n4 Shock\n", "x.txt"), "Name: Burn\n4 Shock\n");
  const xml = '<?xml version="1.0"?><cockatrice_deck/>';
  assert.equal(namedAfterFile(xml, "a.cod"), xml);
  assert.equal(namedAfterFile("[metadata]\nName=Burn\n[Main]\n4 Shock\n", "a.dck").startsWith("[metadata]"), true);
  assert.equal(namedAfterFile("4 Shock\n", ""), "4 Shock\n");
});
