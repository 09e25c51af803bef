/** An uploaded deck file that can't be read (a PNG) after a refused deck: said as a file that
 * couldn't be read -- its name as written, nothing sent, the deck box's text the one used --
 * and not as a refusal (a new player's review: "The deck was refused: see its problems
 * below." over "Mydeck.png is not UTF-8 text."). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { App } from "../src/app";
import { readDeckFile } from "../src/deck";
import { problemSentence } from "../src/describe";
import { ErrorCode } from "../src/gen/protocol/v1/messages_pb";
import { installFakeSocket, signedIn } from "./fakes";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0xff]);

async function unreadable(file: File): Promise<string> {
  try {
    await readDeckFile(file);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("the file was read");
}

test("an unreadable file is said as that, its name as written, the box's text the one used", async () => {
  const message = await unreadable(new File([PNG], "mydeck.png"));
  const shown = problemSentence(message); // as the lobby shows a problem naming no line
  assert.match(shown, /^The file “mydeck\.png” couldn't be read as a deck list: it isn't text/);
  assert.match(shown, /Nothing was sent: the deck box is unchanged, and its text is the deck used\.$/);
  assert.doesNotMatch(shown, /Mydeck|refused/);
  const big = await unreadable(new File(["x".repeat(40 * 1024)], "huge.txt"));
  assert.match(problemSentence(big), /^The file “huge\.txt” couldn't be read as a deck list: it is 40960 bytes/);
});

test("after a refused deck, an unreadable upload shows no refusal -- only the file's problem", async () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn("t1");
    app.playComputer("4 Shock\n41 Mountain\n", 1, "constructed");
    ws.deliver({ requestId: ws.last("createRoom").requestId, body: { case: "error", value: {
      code: ErrorCode.INVALID_DECK, message: "the deck was refused",
      details: ["a constructed deck has at least 60 cards in its main deck, got 45"] } } });
    assert.equal(app.error, "The deck was refused: see its problems below.");

    const message = await unreadable(new File([PNG], "mydeck.png"));
    app.deckFileRead(message);
    assert.equal(app.error, "", "nothing was sent: no refusal stands");
    assert.deepEqual(app.deckProblems, [{ line: 0, message }]);
    // A file read into the box: no problem stands either.
    app.deckFileRead(null);
    assert.deepEqual(app.deckProblems, []);
    assert.equal(app.error, "");
  } finally {
    restore();
  }
});

test("an error other than the refusal stays when a file is uploaded", () => {
  const app = new App("ws://server/", "http://server/", null);
  app.error = "Could not reach the server.";
  app.deckFileRead("The file “x.png” couldn't be read as a deck list.");
  assert.equal(app.error, "Could not reach the server.");
});
