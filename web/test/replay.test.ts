/** The replay viewer's logic (replay.ts) and its flow through the App against a fake socket
 * (protocol/README.md, "Replays"): the log read once, then built by state id at every seek;
 * steps coalesced while a seek is answered; refusals in words. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { GamePhase, Step, ViewSchema, type View } from "../src/gen/protocol/v1/game_pb";
import { ErrorCode, ReplayStatusSchema } from "../src/gen/protocol/v1/messages_pb";
import {
  EVERY_CARD, EVERY_HAND, Replay, Timeline, finishedGames, gameId, parseReplayInput, parseReplayLink,
  replayErrorText, replayGames, replayLink, splitGameId,
} from "../src/replay";
import { App } from "../src/app";
import { viewHash } from "../src/viewhash";
import { FakeSocket, installFakeSocket, signedIn } from "./fakes";

test("a replay link names the game, the view and the starting point, and reads back", () => {
  const link = replayLink("http://h:1/#old", { roomId: "abc.2", seat: 1, code: "Qw7", action: 40 });
  assert.equal(link, "http://h:1/#replay=abc.2&seat=1&code=Qw7&action=40");
  assert.deepEqual(parseReplayLink(new URL(link).hash),
    { roomId: "abc.2", seat: 1, code: "Qw7", action: 40 });
  assert.deepEqual(parseReplayLink("#replay=r&view=all&turn=3"), { roomId: "r", seat: EVERY_CARD, code: "", turn: 3 });
  // Every hand (viewer -3): the players', and the every-hand tier's audience once it has shown it.
  assert.deepEqual(parseReplayLink("#replay=r&view=hands"), { roomId: "r", seat: EVERY_HAND, code: "" });
  assert.equal(replayLink("http://h/", { roomId: "r", seat: EVERY_HAND, code: "" }), "http://h/#replay=r&view=hands");
  assert.deepEqual(new Replay({ roomId: "r", seat: EVERY_HAND, code: "" }, () => undefined).request().perspective,
    { case: "everyHand", value: true });
  assert.deepEqual(parseReplayLink("replay=r&seat=x"), { roomId: "r", code: "" }); // a bad seat: public
  assert.equal(parseReplayLink("#watch=r"), null);
  assert.equal(parseReplayLink(""), null);
});

test("the replay form takes a room id or any of the client's links", () => {
  assert.deepEqual(parseReplayInput("  abc  "), { roomId: "abc", code: "" });
  assert.deepEqual(parseReplayInput("http://h/#replay=abc.3&seat=0"), { roomId: "abc.3", seat: 0, code: "" });
  assert.deepEqual(parseReplayInput("http://h/#watch=abc&code=c1&tier=2"), { roomId: "abc", code: "c1" });
  assert.deepEqual(parseReplayInput("#join=abc&code=c2"), { roomId: "abc", code: "c2" });
  assert.equal(parseReplayInput("   "), null);
});

test("the games of a match are ROOM_ID, ROOM_ID.2, ...: the finished ones are offered", () => {
  assert.deepEqual(splitGameId("abc.2"), { room: "abc", game: 2 });
  assert.deepEqual(splitGameId("abc"), { room: "abc", game: 1 });
  assert.deepEqual(splitGameId("abc.1"), { room: "abc.1", game: 1 }); // (no game ".1")
  assert.equal(gameId("abc", 1), "abc");
  assert.equal(gameId("abc", 3), "abc.3");
  const room = { roomId: "m", bestOf: 3, gameNumber: 3, started: true, finished: false };
  assert.deepEqual(finishedGames(room), ["m", "m.2"]); // game 3 is being played
  assert.deepEqual(finishedGames({ ...room, finished: true }), ["m", "m.2", "m.3"]);
  assert.deepEqual(finishedGames({ ...room, bestOf: 1, gameNumber: 1 }), []);
  assert.deepEqual(finishedGames({ ...room, bestOf: 1, gameNumber: 1, finished: true }), ["m"]);
  assert.deepEqual(finishedGames({ ...room, started: false, gameNumber: 0 }), []);
});

test("a refused replay is said in words, with the server's reason", () => {
  assert.match(replayErrorText(ErrorCode.NOT_READY, "the game is still being played", "r"),
    /hasn't finished yet.*Watch it live/);
  // The server's words say it already: not twice (a new player's review).
  const twice = replayErrorText(ErrorCode.NOT_READY,
    "only finished games can be replayed (watch it live instead)", "r");
  assert.equal(twice.match(/watch it live/gi)?.length, 1, twice);
  assert.match(replayErrorText(ErrorCode.ROOM_NOT_FOUND, "no stored game 'x'", "x"), /no such game \(no stored game 'x'\)/);
  assert.match(replayErrorText(ErrorCode.FORBIDDEN, "only its player", "r"), /may not replay.*only its player/);
  assert.match(replayErrorText(ErrorCode.LIMIT_REACHED, "stop one first", "r"), /too many replays.*stop one first/);
});

test("the timeline keeps each delta's lines by state id, and stops at a gap", () => {
  const t = new Timeline();
  t.start(1n);
  assert.ok(t.record(1n, 2n, ["a"]));
  assert.ok(t.record(2n, 3n, []));
  assert.ok(t.record(3n, 4n, ["b", "c"], [[1, "Bob has 0 or less life"]]));
  assert.equal(t.record(5n, 6n, ["gap"]), false);
  assert.deepEqual(t.linesUpTo(1n), []);
  assert.deepEqual(t.linesUpTo(3n), ["a"]);
  assert.deepEqual(t.linesUpTo(4n), ["a", "b", "c"]);
  assert.deepEqual(t.linesAt(4n), ["b", "c"]);
  assert.equal(t.linesAt(6n), null);
  assert.deepEqual([...t.lossesUpTo(3n)], []);
  assert.deepEqual([...t.lossesUpTo(4n)], [[1, "Bob has 0 or less life"]]);
  assert.ok(t.knows(4n) && !t.knows(5n));
});

function status(action: number, state: bigint, playing = false) {
  return create(ReplayStatusSchema, { roomId: "g", viewer: -1, action: BigInt(action), actions: 10n,
    turn: 1, turns: 3, stateId: state, playing, speed: 5 });
}

/** A Replay whose log has been read (it then sought to its start), and what it sent. */
function loaded(): { r: Replay; sent: { case?: string; value?: unknown }[] } {
  const sent: { case?: string; value?: unknown }[] = [];
  const r = new Replay({ roomId: "r", code: "" }, (c) => sent.push({ case: c?.case, value: c?.value }));
  r.status(status(0, 1n), false);
  r.timeline.start(1n);
  r.ended(10, 11n);
  assert.deepEqual(sent, [{ case: "seekAction", value: 0n }]);
  r.status(status(0, 1n), true);
  sent.length = 0;
  return { r, sent };
}

test("steps pressed faster than the server answers go to the last one, counted from the first", () => {
  const { r, sent } = loaded();
  r.step(1);
  r.step(1);
  r.step(1);
  assert.deepEqual(sent, [{ case: "seekAction", value: 1n }], "one seek at a time");
  r.status(status(1, 2n), true);
  assert.deepEqual(sent.at(-1), { case: "seekAction", value: 3n });
  r.status(status(3, 4n), true);
  assert.equal(sent.length, 2);
  assert.equal(r.position, "Action 3 of 10 · turn 1 of 3");
  r.step(-1);
  assert.deepEqual(sent.at(-1), { case: "seekAction", value: 2n });
});

test("a step while playing pauses, then steps from where the pause stopped", () => {
  const { r, sent } = loaded();
  r.play();
  assert.deepEqual(sent, [{ case: "speed", value: 5 }]);
  r.status(status(0, 1n, true), true);
  assert.deepEqual(sent.at(-1), { case: "play", value: true });
  r.status(status(0, 1n, true), true);
  r.delta(2n, 1);
  r.delta(3n, 1);
  assert.equal(r.action, 2, "each action gave a delta: state ids count them");
  r.step(1);
  assert.deepEqual(sent.at(-1), { case: "pause", value: true });
  r.status(status(4, 5n), true); // it played on to 4 before the pause arrived
  assert.deepEqual(sent.at(-1), { case: "seekAction", value: 5n });
});

test("play at the end starts again from the start", () => {
  const { r, sent } = loaded();
  r.seek(10);
  r.status(status(10, 11n), true);
  sent.length = 0;
  r.play();
  r.status(status(0, 1n), true);
  r.status(status(0, 1n), true);
  assert.deepEqual(sent.map((c) => c.case), ["seekAction", "speed", "play"]);
  assert.equal(sent[0]?.value, 0n);
});

// ---- through the App
function view(life: number): View {
  return create(ViewSchema, {
    viewer: -1,
    header: { turn: 1, activeSeat: 0, step: Step.PRECOMBAT_MAIN, phase: GamePhase.PLAYING },
    players: [{ seat: 0, name: "Ann#0001", life }, { seat: 1, name: "Bob#0002", life: 20 }],
  });
}

function lifeDelta(prev: bigint, life: number, amount: number) {
  const v = view(life);
  return { body: { case: "delta" as const, value: { prevStateId: prev, stateId: prev + 1n,
    ops: [{ op: { case: "setPlayer" as const, value: v.players[0]! } }], viewHash: viewHash(v),
    events: [{ kind: { case: "lifeChanged" as const, value: { seat: 0, amount } } }] } } };
}

function snapshot(state: bigint, life: number) {
  const v = view(life);
  return { body: { case: "snapshot" as const, value: { roomId: "g", stateId: state, view: v,
    viewHash: viewHash(v) } } };
}

test("a replay reads the game's log once, then shows the log up to each point it seeks to", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    app.openReplay({ roomId: "g", code: "" });
    const req = ws.last("replay");
    assert.equal(req.roomId, "g");
    assert.equal(req.perspective.case, "public");
    assert.equal(req.paused, false);
    assert.equal(req.speed, 0);
    ws.deliver({ requestId: req.requestId, body: { case: "replayStatus", value: status(0, 1n) } });
    assert.equal(app.room?.info.roomId, "g");
    assert.equal(app.room?.seat, -1);
    ws.deliver(snapshot(1n, 20));
    ws.deliver(lifeDelta(1n, 21, 1));
    ws.deliver(lifeDelta(2n, 23, 2));
    assert.equal(app.replay?.loading, true);
    ws.deliver({ body: { case: "replayEnded", value: { roomId: "g", action: 2n } } });
    // The log is whole: it goes to the start.
    const seek = ws.last("replayControl");
    assert.deepEqual(seek.command, { case: "seekAction", value: 0n });
    ws.deliver({ requestId: seek.requestId, body: { case: "replayStatus", value: { ...status(0, 1n), actions: 2n } } });
    ws.deliver(snapshot(1n, 20));
    assert.deepEqual(app.log, []);
    assert.equal(app.mirror.players.get(0)?.life, 20);
    assert.equal(app.replay?.position, "Action 0 of 2 · turn 1 of 3");
    // One step forward: the board and the log move with it.
    app.replay?.step(1);
    const step = ws.last("replayControl");
    assert.deepEqual(step.command, { case: "seekAction", value: 1n });
    ws.deliver({ requestId: step.requestId, body: { case: "replayStatus", value: { ...status(1, 2n), actions: 2n } } });
    ws.deliver(snapshot(2n, 21));
    assert.deepEqual(app.log, ["Ann#0001 gained 1 life"]);
    assert.equal(app.mirror.players.get(0)?.life, 21);
    // To the end, and back one.
    app.replay?.seek(2);
    let c = ws.last("replayControl");
    ws.deliver({ requestId: c.requestId, body: { case: "replayStatus", value: { ...status(2, 3n), actions: 2n } } });
    ws.deliver(snapshot(3n, 23));
    assert.deepEqual(app.log, ["Ann#0001 gained 1 life", "Ann#0001 gained 2 life"]);
    app.replay?.step(-1);
    c = ws.last("replayControl");
    assert.deepEqual(c.command, { case: "seekAction", value: 1n });
    ws.deliver({ requestId: c.requestId, body: { case: "replayStatus", value: { ...status(1, 2n), actions: 2n } } });
    ws.deliver(snapshot(2n, 21));
    assert.deepEqual(app.log, ["Ann#0001 gained 1 life"]);
    // Closing it stops it and goes back to the lobby.
    app.closeReplay();
    const stop = [...ws.sent].reverse().find((m) => m.body.case === "replayControl");
    assert.deepEqual(stop?.body.case === "replayControl" ? stop.body.value.command : null, { case: "stop", value: true });
    assert.equal(app.room, null);
    assert.equal(app.replay, null);
  } finally { restore(); }
});

test("a replay refused is said in the lobby; another game refused goes back to the one shown", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    app.openReplay({ roomId: "nope", code: "" });
    ws.deliver({ requestId: ws.last("replay").requestId, body: { case: "error", value: {
      code: ErrorCode.ROOM_NOT_FOUND, message: "no stored game 'nope'" } } });
    assert.equal(app.replay, null);
    assert.equal(app.room, null);
    assert.match(app.error, /Can't replay “nope”: no such game/);
    // One shown, then game 2 of it asked for: refused, the first opens again where it was.
    app.openReplay({ roomId: "g", code: "" });
    ws.deliver({ requestId: ws.last("replay").requestId, body: { case: "replayStatus", value: status(0, 1n) } });
    assert.equal(app.error, "");
    ws.deliver(snapshot(1n, 20));
    ws.deliver({ body: { case: "replayEnded", value: { roomId: "g", action: 10n } } });
    const seek = ws.last("replayControl");
    ws.deliver({ requestId: seek.requestId, body: { case: "replayStatus", value: status(0, 1n) } });
    app.openReplay({ roomId: "g.2", code: "" });
    const stop = ws.last("replayControl");
    assert.deepEqual(stop.command, { case: "stop", value: true });
    ws.deliver({ requestId: stop.requestId, body: { case: "replayEnded", value: { roomId: "g", stopped: true } } });
    const second = ws.last("replay");
    assert.equal(second.roomId, "g.2");
    ws.deliver({ requestId: second.requestId, body: { case: "error", value: {
      code: ErrorCode.ROOM_NOT_FOUND, message: "no stored game 'g.2'" } } });
    const again = ws.last("replay");
    assert.equal(again.roomId, "g");
    assert.match((app.replay as Replay | null)?.error ?? "", /Can't replay “g.2”/);
    // ... and it stays said once that one has read its log and gone back to where it was.
    ws.deliver({ requestId: again.requestId, body: { case: "replayStatus", value: status(0, 1n) } });
    ws.deliver(snapshot(1n, 20));
    ws.deliver({ body: { case: "replayEnded", value: { roomId: "g", action: 10n } } });
    assert.deepEqual(ws.last("replayControl").command, { case: "seekAction", value: 0n });
    assert.match((app.replay as Replay | null)?.error ?? "", /Can't replay “g.2”/);
  } finally { restore(); }
});

test("a replay the server ends for another viewer's says why, not '10 minutes without a control'", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    app.openReplay({ roomId: "g", code: "" });
    ws.deliver({ requestId: ws.last("replay").requestId, body: { case: "replayStatus", value: status(0, 1n) } });
    ws.deliver(snapshot(1n, 20));
    const why = "this server plays at most 200 replays at once, and yours had had no control for "
      + "the longest (2 min or more): it ended to let another viewer's start";
    ws.deliver({ body: { case: "error", value: { code: ErrorCode.LIMIT_REACHED, message: why } } });
    ws.deliver({ body: { case: "replayEnded", value: { roomId: "g", stopped: true } } });
    assert.equal(app.replay, null);
    assert.equal(app.notice, `The replay was closed by the server: ${why}`);
    assert.equal(app.error, "");
    // One left idle: the server says nothing first.
    app.openReplay({ roomId: "g", code: "" });
    ws.deliver({ requestId: ws.last("replay").requestId, body: { case: "replayStatus", value: status(0, 1n) } });
    ws.deliver(snapshot(1n, 20));
    ws.deliver({ body: { case: "replayEnded", value: { roomId: "g", stopped: true } } });
    assert.equal(app.notice, "The replay was closed by the server after 10 minutes without a control.");
  } finally { restore(); }
});

test("a #replay= link opens once signed in", () => {
  const restore = installFakeSocket();
  try {
    const app = new App("ws://server/", "http://server/", null);
    app.replayWanted = { roomId: "g", seat: 0, code: "" };
    app.signInGuest("Ann");
    const ws = FakeSocket.all.at(-1)!;
    ws.open();
    ws.deliver({ requestId: ws.last("hello").requestId, body: { case: "welcome", value: {
      resumeToken: "r1", account: { accountId: "a", name: "Ann#0001" } } } });
    const req = ws.sent.find((m) => m.body.case === "replay");
    assert.ok(req, "the replay is asked for");
    assert.deepEqual(req.body.case === "replay" ? req.body.value.perspective : null, { case: "seat", value: 0 });
    assert.equal(app.replayWanted, null);
  } finally { restore(); }
});

test("the replay viewer offers the games there are: none for a single game, never 'Game 2?' past the match", () => {
  const labels = (t: Parameters<typeof replayGames>[0], listed?: Parameters<typeof replayGames>[1]) =>
    replayGames(t, listed).map((g) => g.label);
  // A single game (known from the page that opened it, or listed): nothing to switch to.
  assert.deepEqual(labels({ roomId: "r", code: "", bestOf: 1 }), []);
  assert.deepEqual(labels({ roomId: "r", code: "" },
    { roomId: "r", bestOf: 1, gameNumber: 1, started: true, finished: true }), []);
  // Unknown room (a typed id): game 1 offers nothing; game 2 is a match's.
  assert.deepEqual(labels({ roomId: "r", code: "" }), []);
  assert.deepEqual(labels({ roomId: "r.2", code: "" }), ["← Game 1", "Game 2", "Game 3? →"]);
  // A match whose finished games the opener knew: each of them.
  assert.deepEqual(labels({ roomId: "r", code: "", bestOf: 3, games: 2 }), ["Game 1", "Game 2"]);
  // A best of 3's last game: no game after it.
  assert.deepEqual(labels({ roomId: "r.3", code: "", bestOf: 3 }), ["← Game 2", "Game 3"]);
  assert.deepEqual(labels({ roomId: "r", code: "", bestOf: 3 }), ["Game 1", "Game 2? →"]);
  // A best of 3 that ended in its first game (a player left the match): no "Game 2? →".
  assert.deepEqual(labels({ roomId: "r", code: "" },
    { roomId: "r", bestOf: 3, gameNumber: 1, started: true, finished: true }), []);
  assert.deepEqual(labels({ roomId: "r", code: "", bestOf: 3, games: 1 }), []);
});
