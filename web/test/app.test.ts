/** The App's protocol logic against a fake socket: decisions and acts, resync on a bad
 * delta, batched frames, reconnecting with Resume (protocol/README.md, "Flow of a game",
 * "Dropping and resuming", "Batched frames"). */
import { mock, test } from "node:test";
import assert from "node:assert/strict";
import { create, toBinary } from "@bufbuild/protobuf";
import { App, PASS_DELAY_MAX_MS, PASS_DELAY_MIN_MS } from "../src/app";
import {
  DecisionKind, GameObjectSchema, GamePhase, GameResultSchema, ManaPoolSchema, Step, ViewSchema, ZoneContentsSchema, ZoneKind, type View,
} from "../src/gen/protocol/v1/game_pb";
import {
  ErrorCode, MatchPhase, Role, ServerBatchSchema, TierKind, type ServerMessage,
} from "../src/gen/protocol/v1/messages_pb";
import { resultWords, shownOptions } from "../src/describe";
import { viewHash } from "../src/viewhash";
import { parseReplayLink } from "../src/replay";
import { FakeSocket, deltaStepper, installFakeSocket, seatedIn, signedIn } from "./fakes";

function view(priority: number, promptId: bigint, life = 20): View {
  return create(ViewSchema, {
    viewer: 0,
    header: { turn: 1, activeSeat: 0, step: Step.PRECOMBAT_MAIN, prioritySeat: priority,
      phase: GamePhase.PLAYING, pending: { seat: priority, kind: DecisionKind.PRIORITY, promptId } },
    players: [{ seat: 0, name: "Ann#0001", life, libraryCount: 53, handCount: 1 },
      { seat: 1, name: "Bob#0002", life: 20, libraryCount: 53, handCount: 7 }],
    objects: [{ id: "c1", zone: { kind: ZoneKind.HAND, owner: 0 }, owner: 0, controller: 0,
      name: "Shock", manaCost: "{R}", cardTypes: ["Instant"] },
    { id: "l1", zone: { kind: ZoneKind.BATTLEFIELD, owner: -1 }, owner: 0, controller: 0,
      name: "Mountain", supertypes: ["Basic"], cardTypes: ["Land"] },
    { id: "t1", zone: { kind: ZoneKind.BATTLEFIELD, owner: -1 }, owner: 0, controller: 0,
      name: "Treasure", cardTypes: ["Artifact"],
      rulesText: "{T}, Sacrifice this artifact: Add one mana of any color." }],
    zones: [{ zone: { kind: ZoneKind.HAND, owner: 0 }, objectIds: ["c1"] },
      { zone: { kind: ZoneKind.BATTLEFIELD, owner: -1 }, objectIds: ["l1", "t1"] }],
  });
}

/** Signed in, seated at seat 0 of room r, with a snapshot at state 5 and the priority
 * decision 9 pending. */
function seated(batched = false): { app: App; ws: FakeSocket } {
  const app = new App("ws://server/", "http://server/", null);
  app.signInGuest("Ann");
  const ws = FakeSocket.all.at(-1)!;
  ws.open();
  ws.deliver({ requestId: ws.last("hello").requestId, body: { case: "welcome", value: {
    resumeToken: "r1", accountToken: "t1", batched, account: { accountId: "a", name: "Ann#0001" } } } });
  const v = view(0, 9n);
  const push = (msg: Parameters<FakeSocket["deliver"]>[0]) => batched ? deliverBatch(ws, [msg]) : ws.deliver(msg);
  push({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
    room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
  push({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: v, viewHash: viewHash(v) } } });
  push({ body: { case: "decision", value: { roomId: "r", promptId: 9n, seat: 0,
    kind: DecisionKind.PRIORITY, stateId: 5n, options: [{ kind: { case: "passPriority", value: {} } },
      { kind: { case: "castSpell", value: { objectId: "c1" } } }] } } });
  return { app, ws };
}

function deliverBatch(ws: FakeSocket, msgs: Parameters<FakeSocket["deliver"]>[0][]): void {
  const batch = create(ServerBatchSchema, { messages: msgs as ServerMessage[] });
  const bytes = toBinary(ServerBatchSchema, batch);
  ws.onmessage?.({ data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
}

test("a decision is answered once, with the prompt and the mirror's state id", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    assert.equal(app.mirror.stateId, 5n);
    assert.equal(app.options.length, 2);
    app.act(1);
    const act = ws.last("act");
    assert.equal(act.promptId, 9n);
    assert.equal(act.optionIndex, 1);
    assert.equal(act.expectedStateId, 5n);
    const sent = ws.sent.length;
    app.act(0); // a double click before the answer arrives sends nothing
    assert.equal(ws.sent.length, sent);
    // The action is applied: the next state moves priority to Bob; the decision is over.
    const next = view(1, 10n);
    ws.deliver({ body: { case: "delta", value: { prevStateId: 5n, stateId: 6n,
      ops: [{ op: { case: "setHeader", value: next.header! } }], viewHash: viewHash(next) } } });
    assert.equal(app.mirror.stateId, 6n);
    assert.equal(app.decision, null);
    assert.equal(app.options.length, 0);
  } finally { restore(); }
});

test("a stale-prompt refusal lets the player answer again", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    app.act(0);
    ws.deliver({ requestId: ws.last("act").requestId, body: { case: "error", value: {
      code: ErrorCode.STALE_PROMPT, message: "prompt 9 is not current" } } });
    assert.equal(app.sentPrompt, null);
    app.act(0);
    assert.equal(ws.last("act").promptId, 9n);
  } finally { restore(); }
});

test("a delta whose hash disagrees asks for a snapshot, once, and the snapshot repairs it", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    const next = view(1, 10n, 17);
    ws.deliver({ body: { case: "delta", value: { prevStateId: 5n, stateId: 6n,
      ops: [{ op: { case: "setHeader", value: next.header! } }], viewHash: viewHash(next) } } });
    ws.last("requestSnapshot");
    const sent = ws.sent.length;
    ws.deliver({ body: { case: "delta", value: { prevStateId: 6n, stateId: 7n, ops: [],
      viewHash: viewHash(next) } } });
    assert.equal(ws.sent.length, sent, "no second request while one is on its way");
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 7n, view: next,
      viewHash: viewHash(next) } } });
    assert.equal(app.mirror.stateId, 7n);
    assert.equal(app.mirror.players.get(0)?.life, 17);
  } finally { restore(); }
});

test("batched frames are read as ServerBatch once the Welcome confirms batching", () => {
  const restore = installFakeSocket();
  try {
    const { app } = seated(true);
    assert.equal(app.mirror.stateId, 5n);
    assert.equal(app.decision?.promptId, 9n);
  } finally { restore(); }
});

test("a dropped connection resumes with the latest resume token and state id", async () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    ws.drop(1006);
    assert.equal(app.status, "reconnecting");
    await new Promise((r) => setTimeout(r, 400));
    const again = FakeSocket.all.at(-1)!;
    assert.notEqual(again, ws, "a new socket was opened");
    again.open();
    const resume = again.last("resume");
    assert.equal(resume.resumeToken, "r1");
    assert.equal(resume.lastStateId, 5n);
    assert.equal(resume.batched, true);
    again.deliver({ requestId: resume.requestId, body: { case: "resumed", value: {
      welcome: { resumeToken: "r2", account: { accountId: "a", name: "Ann#0001" } },
      joined: { role: Role.PLAYER, seat: 0, room: { roomId: "r", seats: 2 } }, deltas: 0 } } });
    assert.equal(app.status, "connected");
    assert.equal(app.room?.seat, 0);
    assert.equal(app.mirror.stateId, 5n, "the mirror is kept: only missed deltas follow");
  } finally { restore(); }
});

test("a session taken over elsewhere (4001) does not reconnect", async () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    const count = FakeSocket.all.length;
    ws.drop(4001, "replaced");
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(app.status, "replaced");
    assert.equal(FakeSocket.all.length, count);
  } finally { restore(); }
});

test("events become log lines in plain words; repeats are counted", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    const v = view(0, 9n);
    const moved = { kind: { case: "zoneChange" as const, value: {
      owner: 1, fromZone: ZoneKind.HAND, toZone: ZoneKind.LIBRARY } } };
    ws.deliver({ body: { case: "delta", value: { prevStateId: 5n, stateId: 6n, ops: [],
      viewHash: viewHash(v), events: [moved, moved, moved,
        { kind: { case: "spellCast", value: { objectId: "x", controller: 1, name: "Shock" } } },
        { kind: { case: "cardDrawn", value: { seat: 0 } } }] } } });
    assert.deepEqual(app.log, [
      "Bob#0002 put a card from their hand into their library (×3)",
      "Bob#0002 cast Shock",
      "You drew a card",
    ]);
  } finally { restore(); }
});

test("a page starting from a snapshot logs its recent events, under the match's game line", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    const v = view(0, 9n);
    ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
    const recentEvents = [
      { kind: { case: "spellCast" as const, value: { objectId: "x", controller: 1, name: "Shock" } } },
      { kind: { case: "cardDrawn" as const, value: { seat: 0 } } }];
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: v,
      viewHash: viewHash(v), recentEvents } } });
    assert.deepEqual(app.log, ["Bob#0002 cast Shock", "You drew a card"]);
    ws.deliver({ body: { case: "matchState", value: { bestOf: 3, gameNumber: 2, wins: [1, 0],
      phase: MatchPhase.PLAYING, winner: -1 } } });
    assert.deepEqual(app.log, ["— Game 2 of 3 (you 1 – Bob#0002 0) —", "Bob#0002 cast Shock", "You drew a card"]);
    // A resync mid-game adds nothing the log has told already.
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: v,
      viewHash: viewHash(v), recentEvents } } });
    assert.equal(app.log.length, 3);
    // After a drop too long for the missed deltas: the board jumped ahead and the log said
    // nothing of what was missed. It says so now, then the snapshot's last events.
    const later = [{ kind: { case: "playerLost" as const, value: { seat: 1, reason: "Bob#0002 conceded" } } }];
    const turn5 = view(0, 9n);
    turn5.header!.turn = 5;
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: turn5,
      viewHash: viewHash(turn5), recentEvents: later } } });
    assert.deepEqual(app.log.slice(3), ["— caught up: events were missed; the last ones —",
      "Bob#0002 lost the game (Bob#0002 conceded)"]);
    // The next game of a match (its turn back to 1): its events, no "missed" line.
    const next = view(0, 9n);  // (turn 1)
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 1n, view: next,
      viewHash: viewHash(next), recentEvents: [{ kind: { case: "cardDrawn" as const, value: { seat: 0 } } }] } } });
    assert.deepEqual(app.log.slice(5), ["You drew a card"]);
  } finally { restore(); }
});

/** Ann (seat 0) has taken two mulligans (five cards left), Bob none; Bob plays first. */
function mulligansView(viewer: number, phase = GamePhase.MULLIGANS, turn = 0): View {
  return create(ViewSchema, {
    viewer,
    header: { turn, activeSeat: 1, startingSeat: 1, phase, step: turn ? Step.PRECOMBAT_MAIN : Step.UNTAP,
      pending: { seat: 0, kind: DecisionKind.MULLIGAN, promptId: 8n } },
    players: [{ seat: 0, name: "Ann#0001", life: 20, libraryCount: 55, handCount: 5, mulligans: 2 },
      { seat: 1, name: "Bob#0002", life: 20, libraryCount: 53, handCount: 7 }],
  });
}

/** A page that starts from a snapshot of `v` with these recent events (seat -1: watching). */
function startedFrom(seat: number, v: View, recentEvents: readonly object[]): { app: App; ws: FakeSocket } {
  const { app, ws } = signedIn();
  ws.deliver({ body: { case: "joined", value: { role: seat < 0 ? Role.SPECTATOR : Role.PLAYER, seat,
    room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
  ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 40n, view: v,
    viewHash: viewHash(v), recentEvents: recentEvents as never } } });
  return { app, ws };
}

const toLibrary = (seat: number) => ({ kind: { case: "zoneChange" as const, value: {
  owner: seat, fromZone: ZoneKind.HAND, toZone: ZoneKind.LIBRARY } } });
const drew = (seat: number) => ({ kind: { case: "cardDrawn" as const, value: { seat } } });
const times = <T>(n: number, x: T): T[] => Array.from({ length: n }, () => x);

test("103.1, 103.5: a late page logs who played first and the mulligans, which the snapshot puts first however long ago", () => {
  const restore = installFakeSocket();
  try {
    // Turn 6: the last 20 events are draws, and before them the game's opening events.
    const chose = { kind: { case: "startingPlayerChosen" as const, value: { chooser: 0, starting: 1 } } };
    const mulligan = { kind: { case: "mulliganTaken" as const, value: { seat: 0, number: 1 } } };
    const recent = [chose, mulligan, ...times(20, drew(1))];
    const { app } = startedFrom(-1, mulligansView(-1, GamePhase.PLAYING, 6), recent);
    // The opening whole; the draws counted from after it (cut: the first run may be a tail).
    assert.deepEqual(app.log, ["Ann#0001 chose Bob#0002 to play first", "Ann#0001 took a mulligan"]);
  } finally { restore(); }
});

test("103.5: a page started during the mulligans logs them as they stand, not the last events' fragments", () => {
  const restore = installFakeSocket();
  try {
    // A spectator joining as Ann takes her third mulligan: the server's last 20 events began
    // inside her second ("put a card ... (×4)" of seven, "drew a card (×7)", no mulligan).
    const recent = [...times(4, toLibrary(0)), ...times(7, drew(0)), ...times(2, toLibrary(0)),
      ...times(7, drew(1))];
    const { app, ws } = startedFrom(-1, mulligansView(-1), recent);
    assert.deepEqual(app.log, ["— The mulligans so far —", "Bob#0002 plays first",
      "Ann#0001 has taken 2 mulligans: 5 cards in hand", "Bob#0002 has taken no mulligan: 7 cards in hand"]);
    // What happens next is told as it happens.
    const v = mulligansView(-1);
    ws.deliver({ body: { case: "delta", value: { prevStateId: 40n, stateId: 41n, ops: [],
      viewHash: viewHash(v), events: [{ kind: { case: "mulliganTaken", value: { seat: 0, number: 3 } } }] } } });
    assert.equal(app.log.at(-1), "Ann#0001 took a mulligan (3rd)");
    // A resync adds no second summary to a log that saw them.
    const length = app.log.length;
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 41n, view: v,
      viewHash: viewHash(v), recentEvents: [] } } });
    assert.equal(app.log.length, length);
  } finally { restore(); }
});

test("103.5: a player back on a reloaded page during the mulligans reads them about themself", () => {
  const restore = installFakeSocket();
  try {
    const { app } = startedFrom(0, mulligansView(0), times(7, drew(0)));
    assert.deepEqual(app.log.slice(1), ["Bob#0002 plays first", "You have taken 2 mulligans: 5 cards in hand",
      "Bob#0002 has taken no mulligan: 7 cards in hand"]);
  } finally { restore(); }
});

test("a full window of last events leaves out its first run, which may be cut short", () => {
  const restore = installFakeSocket();
  try {
    // Joining on turn 1: the window began inside Bob's opening hand -- "drew a card (×3)" of
    // seven. That run is left out; the runs after it are whole.
    const recent = [...times(3, drew(1)), ...times(7, drew(0)), ...times(6, toLibrary(0)), ...times(4, drew(0))];
    assert.equal(recent.length, 20);
    const turn1 = mulligansView(-1, GamePhase.PLAYING, 1);
    assert.deepEqual(startedFrom(-1, turn1, recent).app.log, ["Ann#0001 drew a card (×7)",
      "Ann#0001 put a card from their hand into their library (×6)", "Ann#0001 drew a card (×4)"]);
    // Fewer than the most: nothing was cut, every line is told.
    assert.equal(startedFrom(-1, turn1, recent.slice(1)).app.log[0], "Bob#0002 drew a card (×2)");
  } finally { restore(); }
});

test("a snapshot's recent events name what has left the view since (rule 400.7)", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    const v = view(0, 9n);
    ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
    // Sabertooth Mauler blocked, then died: its id is in no zone of the view any more.
    const recentEvents = [{ kind: { case: "blockersDeclared" as const, value: {
      blocks: [{ blockerId: "dead", attackerId: "gone-too" }] } } }];
    const recentObjects = [{ id: "dead", name: "Sabertooth Mauler", owner: 0, controller: 0 },
      { id: "gone-too", name: "Trufflesnout", owner: 1, controller: 1 }];
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: v,
      viewHash: viewHash(v), recentEvents, recentObjects } } });
    assert.equal(app.log.length, 1);
    assert.match(app.log[0]!, /Sabertooth Mauler blocks Trufflesnout/);
  } finally { restore(); }
});

test("a declaration of blockers with no choice in it is answered at once (rule 509.1a)", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    app.act(0); // passes priority: decision 9 is answered
    ws.deliver({ body: { case: "decision", value: { roomId: "r", promptId: 10n, seat: 0,
      kind: DecisionKind.DECLARE_BLOCKERS, stateId: 5n,
      options: [{ kind: { case: "finishBlockers", value: {} } }] } } });
    const acts = ws.sent.flatMap((m) => m.body.case === "act"
      ? [[m.body.value.promptId, m.body.value.optionIndex]] : []);
    assert.deepEqual(acts, [[9n, 0], [10n, 0]]);
    assert.deepEqual(app.log, ["You declared no blockers: none of your creatures can block"]);
    // One with a block to choose waits for the player.
    ws.deliver({ body: { case: "decision", value: { roomId: "r", promptId: 11n, seat: 0,
      kind: DecisionKind.DECLARE_BLOCKERS, stateId: 5n,
      options: [{ kind: { case: "declareBlocker", value: { objectId: "c1", attackerId: "x" } } },
        { kind: { case: "finishBlockers", value: {} } }] } } });
    assert.equal(ws.sent.filter((m) => m.body.case === "act").length, 2);
    assert.equal(app.decision?.promptId, 11n);
  } finally { restore(); }
});

test("601.2c: choosing a target, key 1 is the opponent, not the viewer's own seat", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    ws.deliver({ body: { case: "decision", value: { roomId: "r", promptId: 10n, seat: 0,
      kind: DecisionKind.CHOOSE_TARGET, stateId: 5n, options: [
        { kind: { case: "chooseTarget", value: { target: { kind: { case: "player", value: 0 } } } } },
        { kind: { case: "chooseTarget", value: { target: { kind: { case: "player", value: 1 } } } } },
        { kind: { case: "chooseTarget", value: { target: { kind: { case: "objectId", value: "l1" } } } } }] } } });
    assert.deepEqual(app.shownOptions.map((s) => [s.key, s.label, s.index]), [
      [1, "Target Bob#0002", 1], [2, "Target you", 0], [3, "Target Mountain (yours)", 2]]); // (whose, always: np13)
    assert.equal(app.actKey(1), true);
    assert.equal(ws.last("act").optionIndex, 1);
  } finally { restore(); }
});

test("priority with nothing to do but pass (rule 117.3) is passed after a human-like wait; with more it waits", () => {
  const restore = installFakeSocket();
  mock.timers.enable({ apis: ["setTimeout"] });
  const random = mock.method(Math, "random", () => 0);
  try {
    const { app, ws } = seated(); // decision 9: pass, or cast Shock: the player decides
    assert.equal(ws.sent.filter((m) => m.body.case === "act").length, 0);
    app.act(0);
    const acts = () => ws.sent.flatMap((m) => m.body.case === "act" ? [m.body.value.promptId] : []);
    ws.deliver({ body: { case: "decision", value: { roomId: "r", promptId: 10n, seat: 0,
      kind: DecisionKind.PRIORITY, stateId: 5n,
      options: [{ kind: { case: "passPriority", value: {} } }] } } });
    assert.deepEqual(acts(), [9n], "not at once: its timing would tell the hand");
    assert.equal(app.passingSoon, 10n);
    mock.timers.tick(PASS_DELAY_MIN_MS);
    assert.deepEqual(acts(), [9n, 10n]);
    assert.equal(app.autoPassed, 1);
    // A land to tap and nothing to spend its mana on (it would empty at the step's end,
    // 106.4): passed too, after a wait drawn afresh (here the longest).
    random.mock.mockImplementation(() => 1);
    ws.deliver({ body: { case: "decision", value: { roomId: "r", promptId: 11n, seat: 0,
      kind: DecisionKind.PRIORITY, stateId: 5n,
      options: [{ kind: { case: "passPriority", value: {} } },
        { kind: { case: "activateManaAbility", value: { objectId: "l1", mana: "R" } } }] } } });
    mock.timers.tick(PASS_DELAY_MAX_MS - 1);
    assert.deepEqual(acts(), [9n, 10n]);
    mock.timers.tick(1);
    assert.deepEqual(acts(), [9n, 10n, 11n]);
    assert.equal(ws.last("act").optionIndex, 0);
    // A Treasure to sacrifice for mana (which can trigger Havoc Jester): the player decides.
    ws.deliver({ body: { case: "decision", value: { roomId: "r", promptId: 12n, seat: 0,
      kind: DecisionKind.PRIORITY, stateId: 5n,
      options: [{ kind: { case: "passPriority", value: {} } },
        { kind: { case: "activateManaAbility", value: { objectId: "l1", mana: "R" } } },
        { kind: { case: "activateManaAbility", value: { objectId: "t1", mana: "R" } } }] } } });
    mock.timers.tick(10_000);
    assert.deepEqual(acts(), [9n, 10n, 11n]);
    assert.equal(app.decision?.promptId, 12n);
    assert.equal(app.passingSoon, null);
    assert.deepEqual(app.log, []);
  } finally { mock.timers.reset(); mock.restoreAll(); restore(); }
});

test("an event names an object the same delta removed (it died)", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    const after = view(0, 9n);
    after.objects = after.objects.filter((o) => o.id !== "c1");
    after.zones[0]!.objectIds = [];
    ws.deliver({ body: { case: "delta", value: { prevStateId: 5n, stateId: 6n,
      ops: [{ op: { case: "removeObject", value: "c1" } },
        { op: { case: "setZone", value: after.zones[0]! } }],
      viewHash: viewHash(after),
      events: [{ kind: { case: "damage", value: { sourceId: "c1", recipient: { case: "player", value: 1 },
        amount: 2 } } }] } } });
    assert.equal(app.mirror.stateId, 6n);
    assert.deepEqual(app.log, ["Shock dealt 2 damage to Bob#0002"]);
  } finally { restore(); }
});

test("quick match: queued, then seated by a Joined carrying the QuickMatch's request id", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    app.quickMatch("limited", 2, "");
    const qm = ws.last("quickMatch");
    assert.equal(qm.seats, 2);
    ws.deliver({ requestId: qm.requestId, body: { case: "matchQueue", value: {
      queued: true, seats: 2, waiting: 1 } } });
    assert.equal(app.queue?.waiting, 1);
    ws.deliver({ requestId: qm.requestId, body: { case: "joined", value: {
      role: Role.PLAYER, seat: 1, room: { roomId: "q", name: "quick match (limited)", seats: 2 } } } });
    assert.equal(app.queue, null);
    assert.equal(app.room?.info.roomId, "q");
    assert.equal(app.room?.seat, 1);
  } finally { restore(); }
});

test("a room a full disk stopped, back after a restart: the resume asks from state 0 and the game's snapshot shows it again", async () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated(); // state 5, decision 9 pending
    const roomId = () => app.room?.info.roomId; // (read anew: no narrowing by the asserts)
    const decision = () => app.decision?.promptId;
    // The room stops (protocol/README.md, "A store that can't be written"): the error, then
    // RoomClosed -- back in the lobby, the old view forgotten.
    ws.deliver({ body: { case: "error", value: { code: ErrorCode.INTERNAL, message: "the server can't "
      + "save anything now (disk full), so this room stopped before the last action took effect" } } });
    ws.deliver({ body: { case: "roomClosed", value: { roomId: "r",
      reason: "the server can't save games now (disk full); the game comes back once it can" } } });
    assert.equal(roomId(), undefined);
    assert.equal(app.mirror.ready, false);
    assert.equal(decision(), undefined);
    // The server restarts: the resume says it has no view (0), so the server sends a snapshot.
    ws.drop(1012);
    await new Promise((r) => setTimeout(r, 400));
    const again = FakeSocket.all.at(-1)!;
    again.open();
    const resume = again.last("resume");
    assert.equal(resume.lastStateId, 0n, "no old view is claimed");
    // The store took the resume before the room was back: no place yet, the lobby.
    again.deliver({ requestId: resume.requestId, body: { case: "resumed", value: {
      welcome: { resumeToken: "r2", account: { accountId: "a", name: "Ann#0001" } } } } });
    assert.equal(roomId(), undefined);
    // The room is back (rebuilt at the same state id, the refused action never happened):
    // the server seats this connection (Joined, request id 0), then its snapshot.
    const back = view(0, 9n, 18);
    again.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
    assert.equal(roomId(), "r");
    assert.equal(app.mirror.ready, false, "no view until the snapshot");
    again.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: back,
      viewHash: viewHash(back) } } });
    again.deliver({ body: { case: "decision", value: { roomId: "r", promptId: 9n, seat: 0,
      kind: DecisionKind.PRIORITY, stateId: 5n, options: [{ kind: { case: "passPriority", value: {} } },
        { kind: { case: "castSpell", value: { objectId: "c1" } } }] } } });
    assert.equal(app.mirror.ready, true);
    assert.equal(app.mirror.stateId, 5n);
    assert.equal(app.mirror.players.get(0)?.life, 18, "the game as the server rebuilt it");
    assert.equal(decision(), 9n);
    app.act(1);
    assert.deepEqual([again.last("act").promptId, again.last("act").expectedStateId], [9n, 5n]);
    // Dropped again, with the room's view whole: only the missed deltas are asked for.
    again.drop(1006);
    await new Promise((r) => setTimeout(r, 400));
    const third = FakeSocket.all.at(-1)!;
    third.open();
    assert.equal(third.last("resume").lastStateId, 5n);
  } finally { restore(); }
});

test("resumed into a started room with no view and no snapshot coming, the client asks for one", async () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    ws.deliver({ body: { case: "roomClosed", value: { roomId: "r",
      reason: "the server can't save games now (disk full); the game comes back once it can" } } });
    ws.drop(1012);
    await new Promise((r) => setTimeout(r, 400));
    const again = FakeSocket.all.at(-1)!;
    again.open();
    const resume = again.last("resume");
    assert.equal(resume.lastStateId, 0n);
    // A server sending only "what was missed" (nothing) for a view the client doesn't have
    // (as the SDK's froze on): the client doesn't wait on deltas that never apply.
    again.deliver({ requestId: resume.requestId, body: { case: "resumed", value: {
      welcome: { resumeToken: "r2", account: { accountId: "a", name: "Ann#0001" } },
      joined: { role: Role.PLAYER, seat: 0, room: { roomId: "r", seats: 2, started: true } }, deltas: 0 } } });
    assert.equal(app.room?.info.roomId, "r");
    again.last("requestSnapshot");
    const v = view(0, 9n);
    again.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: v, viewHash: viewHash(v) } } });
    assert.equal(app.mirror.ready, true);
    // A delta with no view to apply it to (seated, and no snapshot came or was asked for)
    // asks for one too.
    const { app: app2, ws: ws2 } = signedIn();
    ws2.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "r", seats: 2, started: true } } } });
    assert.equal(ws2.sent.filter((m) => m.body.case === "requestSnapshot").length, 0,
      "a Joined into a started room is followed by its Snapshot: not asked");
    ws2.deliver({ body: { case: "delta", value: { prevStateId: 5n, stateId: 6n, ops: [],
      viewHash: new Uint8Array(32) } } });
    ws2.last("requestSnapshot");
    assert.equal(app2.mirror.ready, false);
  } finally { restore(); }
});

test("a resync pending when the connection drops is asked for again on the new one", async () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    ws.deliver({ body: { case: "delta", value: { prevStateId: 4n, stateId: 6n, ops: [],
      viewHash: new Uint8Array(32) } } });
    ws.last("requestSnapshot");
    ws.drop(1006);
    await new Promise((r) => setTimeout(r, 400));
    const again = FakeSocket.all.at(-1)!;
    again.open();
    const resume = again.last("resume");
    assert.equal(resume.lastStateId, 0n, "the mirror isn't trusted: a snapshot is asked for");
    again.deliver({ requestId: resume.requestId, body: { case: "resumed", value: {
      welcome: { resumeToken: "r2", account: { accountId: "a", name: "Ann#0001" } },
      joined: { role: Role.PLAYER, seat: 0, room: { roomId: "r", seats: 2 } }, snapshot: true } } });
    const v = view(1, 12n);
    again.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 9n, view: v, viewHash: viewHash(v) } } });
    assert.equal(app.mirror.stateId, 9n);
    const next = view(0, 13n);
    again.deliver({ body: { case: "delta", value: { prevStateId: 9n, stateId: 10n,
      ops: [{ op: { case: "setHeader", value: next.header! } }], viewHash: viewHash(next) } } });
    assert.equal(app.mirror.stateId, 10n, "deltas apply again");
  } finally { restore(); }
});

test("a refused snapshot request is asked again later, not forgotten", async () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    ws.deliver({ body: { case: "delta", value: { prevStateId: 4n, stateId: 6n, ops: [],
      viewHash: new Uint8Array(32) } } });
    const asked = ws.last("requestSnapshot");
    ws.deliver({ requestId: asked.requestId, body: { case: "error", value: {
      code: ErrorCode.RATE_LIMITED, message: "slow down" } } });
    const count = ws.sent.length;
    await new Promise((r) => setTimeout(r, 1200));
    assert.equal(ws.sent.length, count + 1);
    ws.last("requestSnapshot");
    assert.equal(app.mirror.stateId, 5n);
  } finally { restore(); }
});

test("a wrong password shows the server's words and keeps the stored account token", () => {
  const restore = installFakeSocket();
  try {
    const { app } = seated();
    app.leaveRoom();
    app.signIn("Ann", "wrong password");
    const ws = FakeSocket.all.at(-1)!;
    ws.open();
    const hello = ws.last("hello");
    assert.equal(hello.login?.name, "Ann");
    ws.deliver({ requestId: hello.requestId, body: { case: "error", value: {
      code: ErrorCode.UNAUTHENTICATED, message: "unknown name or wrong password" } } });
    assert.equal(app.error, "unknown name or wrong password");
    assert.equal(app.status, "signed-out");
    app.start(); // resumes the session, or else signs in with the token still stored
    const again = FakeSocket.all.at(-1)!;
    again.open();
    again.deliver({ requestId: again.last("resume").requestId, body: { case: "error", value: {
      code: ErrorCode.RESUME_FAILED, message: "unknown resume token" } } });
    assert.equal(again.last("hello").accountToken, "t1");
  } finally { restore(); }
});

test("a quick match refused after queueing (rooms full) leaves the queue", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    app.quickMatch("constructed", 2, "");
    const qm = ws.last("quickMatch");
    ws.deliver({ requestId: qm.requestId, body: { case: "matchQueue", value: { queued: true, seats: 2, waiting: 1 } } });
    ws.deliver({ requestId: qm.requestId, body: { case: "error", value: {
      code: ErrorCode.LIMIT_REACHED, message: "the server hosts its maximum of 2000 rooms" } } });
    assert.equal(app.queue, null);
    assert.match(app.error, /maximum/);
  } finally { restore(); }
});

test("an undecodable frame closes with a code a page may use, and the client resumes", async () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    const garbage = new Uint8Array([0xff, 0xff, 0xff, 0xff]);
    const original = console.error;
    console.error = () => {};
    try {
      ws.onmessage?.({ data: garbage.buffer });
    } finally { console.error = original; }
    assert.equal(ws.closedWith?.code, 4000);
    ws.drop(4000, "undecodable frame");
    await new Promise((r) => setTimeout(r, 400));
    FakeSocket.all.at(-1)!.open();
    FakeSocket.all.at(-1)!.last("resume");
    assert.equal(app.status, "reconnecting");
  } finally { restore(); }
});

test("a room created with a delayed tier asks for it; watching names the tier", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    app.createRoom({ name: "final", seats: 2, clockMinutes: 30, private: true, spectate: "",
      format: "constructed", tier: { kind: "omniscient", delaySeconds: 120,
        accounts: ["Caster#0001"], invite: true } }, "");
    const create = ws.last("createRoom");
    assert.equal(create.tiers.length, 1);
    assert.equal(create.tiers[0]?.kind, TierKind.OMNISCIENT);
    assert.equal(create.tiers[0]?.delaySeconds, 120);
    assert.deepEqual(create.tiers[0]?.accounts, ["Caster#0001"]);
    assert.equal(create.tiers[0]?.invite, true);
    app.join("r", Role.SPECTATOR, "4 Shock", "code", 1);
    const join = ws.last("joinRoom");
    assert.equal(join.tier, 1);
    assert.equal(join.deck, "");
    // A second click while the join is answered sends nothing (it would only be refused
    // "already in a room", an error that then stood over the whole game).
    const sent = ws.sent.length;
    app.join("r", Role.PLAYER, "", "code", 1);
    assert.equal(ws.sent.length, sent);
    ws.deliver({ requestId: join.requestId, body: { case: "error", value: {
      code: ErrorCode.FORBIDDEN, message: "no watching" } } });
    app.join("r", Role.PLAYER, "", "code", 1);
    assert.equal(ws.last("joinRoom").tier, 0, "a player has no tier");
    // A join whose connection dropped gets no answer: it doesn't hold the next one back.
    ws.drop();
    assert.equal([...(app as unknown as { requests: Map<bigint, string> }).requests.values()]
      .includes("join"), false);
  } finally { restore(); }
});

test("a spectator resumed in a room it had left leaves it and watches the latest again", async () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    for (const roomId of ["a", "b"]) {
      if (app.room) app.leaveRoom();
      app.join(roomId, Role.SPECTATOR, "", "", 0);
      ws.deliver({ requestId: ws.last("joinRoom").requestId, body: { case: "joined", value: {
        role: Role.SPECTATOR, seat: -1, tier: 0, room: { roomId, seats: 2, started: true } } } });
    }
    ws.drop(1006);
    await new Promise((r) => setTimeout(r, 400));
    const again = FakeSocket.all.at(-1)!;
    again.open();
    // The restarted server still had the session watching "a" (the move to "b" was lost).
    again.deliver({ requestId: again.last("resume").requestId, body: { case: "resumed", value: {
      welcome: { resumeToken: "r2", account: { accountId: "a", name: "Ann#0001" } },
      joined: { role: Role.SPECTATOR, seat: -1, tier: 0,
        room: { roomId: "a", seats: 2, started: true } }, snapshot: true } } });
    const rejoin = again.last("joinRoom");
    assert.deepEqual(again.sent.slice(-2).map((m) => m.body.case), ["leaveRoom", "joinRoom"]);
    assert.deepEqual([rejoin.roomId, rejoin.role], ["b", Role.SPECTATOR]);
    assert.equal(app.room?.info.roomId, undefined); // out of "a" until "b" answers
    again.deliver({ requestId: rejoin.requestId, body: { case: "joined", value: {
      role: Role.SPECTATOR, seat: -1, tier: 0, room: { roomId: "b", seats: 2, started: true } } } });
    assert.equal(app.room?.info.roomId, "b");
    assert.equal(app.notice, "");
    assert.equal(app.error, "");
  } finally { restore(); }
});

test("a spectator whose place a server crash lost watches the room again after resuming", async () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    app.join("r", Role.SPECTATOR, "", " CODE7 ", 1);
    const join = ws.last("joinRoom");
    ws.deliver({ requestId: join.requestId, body: { case: "joined", value: {
      role: Role.SPECTATOR, seat: -1, tier: 1, room: { roomId: "r", seats: 2, started: true } } } });
    ws.drop(1006);
    await new Promise((r) => setTimeout(r, 400));
    const again = FakeSocket.all.at(-1)!;
    again.open();
    const resume = again.last("resume");
    // The restarted server found the session in no room (its place wasn't committed yet).
    again.deliver({ requestId: resume.requestId, body: { case: "resumed", value: {
      welcome: { resumeToken: "r2", account: { accountId: "a", name: "Ann#0001" } } } } });
    const rejoin = again.last("joinRoom");
    assert.deepEqual([rejoin.roomId, rejoin.role, rejoin.inviteCode, rejoin.tier],
      ["r", Role.SPECTATOR, "CODE7", 1]);
    assert.equal(app.notice, "");
    again.deliver({ requestId: rejoin.requestId, body: { case: "joined", value: {
      role: Role.SPECTATOR, seat: -1, tier: 1, room: { roomId: "r", seats: 2, started: true } } } });
    assert.equal(app.room?.info.roomId, "r");
    assert.equal(app.room?.tier, 1);
    // Dropped again, and this time the room is gone: back in the lobby, told why.
    again.drop(1006);
    await new Promise((r) => setTimeout(r, 400));
    const third = FakeSocket.all.at(-1)!;
    third.open();
    third.deliver({ requestId: third.last("resume").requestId, body: { case: "resumed", value: {
      welcome: { resumeToken: "r3", account: { accountId: "a", name: "Ann#0001" } } } } });
    const last = third.last("joinRoom");
    third.deliver({ requestId: last.requestId, body: { case: "error", value: {
      code: ErrorCode.ROOM_NOT_FOUND, message: "no room 'r'" } } });
    assert.equal(app.room, null);
    assert.match(app.notice, /no longer watching the room: no room 'r'/);
    assert.equal(app.error, "");
    third.last("listRooms");
  } finally { restore(); }
});

test("an answered request clears the error before it; a refusal clears the notice before it", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    app.register("Ann", "a long enough password");
    const first = ws.last("register");
    ws.deliver({ requestId: first.requestId, body: { case: "error", value: {
      code: ErrorCode.INVALID_ARGUMENT, message: "a name has 3-24 letters" } } });
    assert.equal(app.error, "a name has 3-24 letters");
    app.register("Annabel", "a long enough password");
    const second = ws.last("register");
    ws.deliver({ requestId: second.requestId, body: { case: "welcome", value: {
      protocolVersion: 1, sessionId: "s1", account: { accountId: "a1", name: "Annabel",
        registered: true } } } });
    assert.equal(app.error, "", "the refusal no longer stands beside 'Signed in'");
    app.join("r9", Role.PLAYER, "", "");
    app.notice = "You left the room.";
    ws.deliver({ requestId: ws.last("joinRoom").requestId, body: { case: "error", value: {
      code: ErrorCode.ROOM_NOT_FOUND, message: "no room r9" } } });
    assert.equal(app.notice, "");
    assert.equal(app.error, "no room r9");
  } finally { restore(); }
});

test("a guest name the server refuses leaves the page signed out with the reason", () => {
  const restore = installFakeSocket();
  try {
    const app = new App("ws://server/", "http://server/", null);
    app.signInGuest("a\u200bb");
    const ws = FakeSocket.all.at(-1)!;
    ws.open();
    ws.deliver({ requestId: ws.last("hello").requestId, body: { case: "error", value: {
      code: ErrorCode.INVALID_ARGUMENT, message: "a name (display_name) must be 1-32 "
        + "printable characters (it has a control or invisible character)" } } });
    assert.equal(app.status, "signed-out", "not left 'connecting'");
    assert.match(app.error, /invisible character/);
  } finally { restore(); }
});

test("leaving a game one still plays says it conceded (rule 104.3a); after its end, only that one left", () => {
  const restore = installFakeSocket();
  try {
    const { app } = seated();
    app.leaveRoom();
    assert.equal(app.notice, "You left the game: you conceded.");
    const other = signedIn().app;
    other.leaveRoom();  // (in no game)
    assert.equal(other.notice, "You left the room.");
  } finally { restore(); }
});

test("a waiting room's info follows each seat taken or freed (RoomUpdate), its own room only", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "r", seats: 3, players: ["Ann#0001"] } } } });
    ws.deliver({ body: { case: "roomUpdate", value: {
      room: { roomId: "r", seats: 3, players: ["Ann#0001", "Bob#0002"] } } } });
    assert.deepEqual(app.room?.info.players, ["Ann#0001", "Bob#0002"]);
    assert.equal(app.room?.seat, 0);
    ws.deliver({ body: { case: "roomUpdate", value: {
      room: { roomId: "elsewhere", seats: 2, players: ["Cy#0003"] } } } });
    assert.deepEqual(app.room?.info.players, ["Ann#0001", "Bob#0002"]);
  } finally {
    restore();
  }
});

/** Seated, declaring blockers (prompt 20): Mauler (m1) may block either attacker, Wall (m2)
 * only the Drake (a1: the Bat a2 flies). Returns the acts sent so far. */
function declaringBlockers(): { app: App; ws: FakeSocket; acts: () => [bigint, number][] } {
  const { app, ws } = seated();
  app.act(0);
  const bf = { kind: ZoneKind.BATTLEFIELD, owner: -1 };
  const creature = (id: string, name: string, controller: number) => ({ id, zone: bf, owner: controller,
    controller, name, cardTypes: ["Creature"], power: 2, toughness: 2 });
  const v = create(ViewSchema, {
    viewer: 0,
    header: { turn: 2, activeSeat: 1, step: Step.DECLARE_BLOCKERS, phase: GamePhase.PLAYING,
      pending: { seat: 0, kind: DecisionKind.DECLARE_BLOCKERS, promptId: 20n } },
    players: [{ seat: 0, name: "Ann#0001", life: 20 }, { seat: 1, name: "Bob#0002", life: 20 }],
    objects: [creature("m1", "Sabertooth Mauler", 0), creature("m2", "Wall of Wood", 0),
      { ...creature("a1", "Drake", 1), attacking: 0 }, { ...creature("a2", "Bat", 1), attacking: 0 }],
    zones: [{ zone: bf, objectIds: ["m1", "m2", "a1", "a2"] }],
  });
  ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 6n, view: v, viewHash: viewHash(v) } } });
  ws.deliver({ body: { case: "decision", value: { roomId: "r", promptId: 20n, seat: 0,
    kind: DecisionKind.DECLARE_BLOCKERS, stateId: 6n, options: [
      { kind: { case: "declareBlocker", value: { objectId: "m1", attackerId: "a1" } } },
      { kind: { case: "declareBlocker", value: { objectId: "m1", attackerId: "a2" } } },
      { kind: { case: "declareBlocker", value: { objectId: "m2", attackerId: "a1" } } },
      { kind: { case: "finishBlockers", value: {} } }] } } });
  const acts = () => ws.sent.flatMap((m): [bigint, number][] => m.body.case === "act"
    && m.body.value.promptId === 20n ? [[m.body.value.promptId, m.body.value.optionIndex]] : []);
  return { app, ws, acts };
}

test("declaring blockers: the blocker then the attacker, or the attacker then a blocker, picks that block (509.1a)", () => {
  // The Mauler (m1) has two blocks: clicked first, it is selected, nothing sent; the
  // attacker a1 clicked first is only selected too, though the Wall has a single block.
  for (const [first, second, option] of [["m1", "a2", 1], ["a1", "m1", 0]] as const) {
    const restore = installFakeSocket();
    try {
      const { app, acts } = declaringBlockers();
      app.clickObject(first);
      assert.deepEqual(app.selected, { kind: "object", id: first });
      assert.deepEqual(acts(), []);
      app.clickObject(second);
      assert.deepEqual(acts(), [[20n, option]]);
    } finally { restore(); }
  }
});

test("declaring blockers: a pair that can't block says so; the Wall's one block is still one click", () => {
  const restore = installFakeSocket();
  try {
    const { app, acts } = declaringBlockers();
    app.clickObject("a2");
    app.clickObject("m2"); // the Wall can't block the flying Bat: not its other block instead
    assert.deepEqual(acts(), []);
    assert.equal(app.decisionNote, "Wall of Wood can't block Bat.");
    assert.deepEqual(app.selected, { kind: "object", id: "m2" });
    app.select(null);
    app.clickObject("m2");
    assert.deepEqual(acts(), [[20n, 2]]);
  } finally { restore(); }
});

test("declaring blockers: Done with a blocker selected but unassigned says so; again, it confirms", () => {
  const restore = installFakeSocket();
  try {
    const { app, acts } = declaringBlockers();
    app.clickObject("m1");
    app.act(3);
    assert.deepEqual(acts(), [], "not confirmed silently");
    assert.match(app.decisionNote, /^Sabertooth Mauler is selected but blocks nothing yet/);
    app.act(3);
    assert.deepEqual(acts(), [[20n, 3]]);
    assert.equal(app.decisionNote, "");
  } finally { restore(); }
});

test("creating a room to play in takes the seat in the same request: a refused deck creates no room", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    const settings = { name: "friday", seats: 2, clockMinutes: 30, private: false,
      spectate: "" as const, format: "constructed" as const, tier: null };
    // The deck is checked before the room is made (CreateRoom.join): refused, no room
    // stands empty against the player's 4 open rooms -- a second try creates the only one.
    app.createRoom(settings, "4 Black Lotus");
    const refused = ws.last("createRoom");
    assert.deepEqual([refused.join, refused.deck], [true, "4 Black Lotus"]);
    ws.deliver({ requestId: refused.requestId, body: { case: "error", value: {
      code: ErrorCode.INVALID_DECK, message: "deck refused",
      details: ["line 1: unknown or unsupported card 'Black Lotus'"] } } });
    assert.equal(app.error, "The deck was refused: see its problems below.");
    assert.deepEqual(app.deckProblems.map((p) => p.line), [1]);
    assert.equal(app.created, null);
    app.createRoom(settings, "");
    const create = ws.last("createRoom");
    assert.deepEqual([create.join, create.deck], [true, ""]);
    ws.deliver({ requestId: create.requestId, body: { case: "roomCreated", value: {
      room: { roomId: "r1", name: "friday", seats: 2 }, inviteCode: "c1" } } });
    ws.deliver({ requestId: create.requestId, body: { case: "joined", value: { role: Role.PLAYER,
      seat: 0, deckName: "azorius-fliers", demoDeck: true, room: { roomId: "r1", name: "friday", seats: 2 } } } });
    assert.equal(ws.sent.filter((m) => m.body.case === "joinRoom").length, 0, "no second request");
    assert.equal(app.room?.info.roomId, "r1");
    assert.equal(app.createdLinks().length, 1);
    assert.deepEqual([app.error, app.deckProblems], ["", []]);
    assert.match(app.deckWords, /demo deck “azorius-fliers”, chosen by the server/);
    // A host (no seat of their own) creates only.
    app.leaveRoom();
    app.createRoom({ ...settings, play: false }, "4 Black Lotus");
    const hosted = ws.last("createRoom");
    assert.deepEqual([hosted.join, hosted.deck], [false, ""]);
    ws.deliver({ requestId: hosted.requestId, body: { case: "roomCreated", value: {
      room: { roomId: "r2", name: "friday", seats: 2 }, inviteCode: "c2" } } });
    assert.equal(app.room, null);
    assert.match(app.notice, /you have no seat in it/);
    assert.match(app.notice, /watch it from the room list or the join form\.$/);
    // A private one isn't in the room list, the host's neither: the join form is where.
    app.createRoom({ ...settings, play: false }, "");
    const secret = ws.last("createRoom");
    ws.deliver({ requestId: secret.requestId, body: { case: "roomCreated", value: {
      room: { roomId: "r3", name: "friday", seats: 2, private: true }, inviteCode: "c3" } } });
    assert.match(app.notice, /watch it from the join form \(a private room isn't in the room list\)\.$/);
  } finally { restore(); }
});

test("a disconnected opponent's absence is said in a sentence: seat kept, clock, a loss (rule 104.3a, unsaid)", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    assert.deepEqual(app.presenceNotes(), []);
    ws.deliver({ body: { case: "presence", value: { seats: [{ seat: 0, connected: true },
      { seat: 1, connected: false }] } } });
    const [note, ...more] = app.presenceNotes();
    assert.deepEqual(more, []);
    assert.match(note ?? "", /^Bob#0002 is disconnected: their seat is kept, and their clock runs while it is their decision; if it runs out, or they stay away too long while the game waits on them, they lose the game\. They play/);
    ws.deliver({ body: { case: "presence", value: { seats: [{ seat: 0, connected: true },
      { seat: 1, connected: true }] } } });
    assert.deepEqual(app.presenceNotes(), []);
  } finally { restore(); }
});

test("an invite says to sign in first while signed out, then to join once signed in", () => {
  const restore = installFakeSocket();
  try {
    const app = new App("ws://server/", "http://server/", { role: "join", roomId: "r1", code: "c1" });
    app.noteInvite();
    assert.equal(app.notice, "You were invited to a game: sign in, or play as a guest, first; "
      + "then choose your deck and press “Join as player”.");
    app.signInGuest("Ann");
    const ws = FakeSocket.all.at(-1)!;
    ws.open();
    ws.deliver({ requestId: ws.last("hello").requestId, body: { case: "welcome", value: {
      resumeToken: "r1", account: { accountId: "a", name: "Ann#0001" } } } });
    assert.equal(app.notice, "You were invited to a game: choose your deck and press “Join as player”.");
  } finally { restore(); }
});

test("not signed in is not offline; a server that can't be reached is", () => {
  const restore = installFakeSocket();
  try {
    const app = new App("ws://server/", "http://server/", null);
    app.start();
    assert.equal(app.status, "signed-out");
    assert.equal(app.unreachable, false);
    app.signInGuest("Ann");
    FakeSocket.all.at(-1)!.drop(1006);
    assert.equal(app.status, "signed-out");
    assert.equal(app.unreachable, true);
    app.signInGuest("Ann"); // trying again: not known unreachable any more
    assert.equal(app.unreachable, false);
  } finally { restore(); }
});

test("registering says so: 'Registered as NAME'", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    app.register("Annabel", "a long enough password");
    ws.deliver({ requestId: ws.last("register").requestId, body: { case: "welcome", value: {
      protocolVersion: 1, sessionId: "s1", account: { accountId: "a", name: "Annabel", registered: true } } } });
    assert.match(app.notice, /^Registered as Annabel: /);
  } finally { restore(); }
});

test("a seat says which deck it plays, as the server's Joined names it", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    app.join("r1", Role.PLAYER, "  \n", "");
    ws.deliver({ requestId: ws.last("joinRoom").requestId, body: { case: "joined", value: {
      role: Role.PLAYER, seat: 0, room: { roomId: "r1", seats: 2 }, deckName: "azorius-fliers", demoDeck: true } } });
    assert.equal(app.deckWords,
      "the demo deck “azorius-fliers”, chosen by the server (your deck box was empty)");
    app.leaveRoom();
    assert.equal(app.deckWords, "");
    app.join("r2", Role.PLAYER, "rakdos-aggro", "");
    ws.deliver({ requestId: ws.last("joinRoom").requestId, body: { case: "joined", value: {
      role: Role.PLAYER, seat: 0, room: { roomId: "r2", seats: 2 }, deckName: "rakdos-aggro", demoDeck: true } } });
    assert.equal(app.deckWords, "the demo deck “rakdos-aggro”");
    app.leaveRoom();
    app.join("r3", Role.PLAYER, "Name Burn\n4 Shock\n56 Mountain", "");
    ws.deliver({ requestId: ws.last("joinRoom").requestId, body: { case: "joined", value: {
      role: Role.PLAYER, seat: 0, room: { roomId: "r3", seats: 2 }, deckName: "Burn" } } });
    assert.equal(app.deckWords, "your deck “Burn”");
    assert.equal(app.notice, "");
  } finally { restore(); }
});

test("a printing of another set is noted to the player as the server's Joined says it", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    const note = "line 1 names Shock's M20 printing: this server plays its M21 printing, "
      + "the same card (a printing never changes the game)";
    app.join("r1", Role.PLAYER, "4 Shock (M20) 999\n56 Mountain", "");
    ws.deliver({ requestId: ws.last("joinRoom").requestId, body: { case: "joined", value: {
      role: Role.PLAYER, seat: 0, room: { roomId: "r1", seats: 2 }, deckNotes: [note] } } });
    assert.equal(app.notice, `Note on your deck: ${note}.`);
  } finally { restore(); }
});

test("alike options are one (four Forests: one 'Play Forest'); key N picks the Nth shown", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    const v = view(0, 9n);
    for (const id of ["f1", "f2", "f3"]) {
      v.objects.push({ ...v.objects[1]!, id, name: "Forest", zone: { $typeName: "manawire.v1.ZoneRef",
        kind: ZoneKind.HAND, owner: 0 } });
      v.zones[0]!.objectIds.push(id);
    }
    ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: v, viewHash: viewHash(v) } } });
    const land = (id: string) => ({ kind: { case: "playLand" as const, value: { objectId: id } } });
    ws.deliver({ body: { case: "decision", value: { roomId: "r", promptId: 9n, seat: 0,
      kind: DecisionKind.PRIORITY, stateId: 5n, options: [{ kind: { case: "passPriority", value: {} } },
        land("f1"), land("f2"), land("f3"), { kind: { case: "castSpell", value: { objectId: "c1" } } },
        { kind: { case: "activateManaAbility", value: { objectId: "l1" } } }] } } });
    assert.deepEqual(app.shownOptions.map((s) => [s.label, s.index]),
      [["Pass priority", 0], ["Play Forest", 1], ["Cast Shock", 4], ["Tap Mountain for mana", 5]]);
    // The Mountain selected: its option first, and key 1 picks it.
    app.select({ kind: "object", id: "l1" });
    assert.deepEqual(app.shownOptions.map((s) => [s.index, s.related]),
      [[5, true], [0, false], [1, false], [4, false]]);
    app.select(null);
    assert.deepEqual(app.shownOptions.map((s) => s.key), [1, 2, 3, 4]);
    assert.equal(app.actKey(0), false); // (no option has key 0 here)
    assert.equal(app.actKey(3), true); // key 3: the third shown, "Cast Shock" -- option 4
    assert.equal(ws.last("act").optionIndex, 4);
  } finally { restore(); }
});

test("404.3: the order of alike cards put into the graveyard is no choice: answered at once", () => {
  // Milled by Thieves' Guild Enforcer, a new user was asked to click "Next: Walking Corpse",
  // its one option (two alike Walking Corpses). Cards that differ still ask.
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    const v = view(0, 9n);
    const grave = { $typeName: "manawire.v1.ZoneRef" as const, kind: ZoneKind.GRAVEYARD, owner: 0 };
    for (const [id, name] of [["y1", "Walking Corpse"], ["y2", "Walking Corpse"], ["y3", "Swamp"]] as const) {
      v.objects.push({ ...v.objects[0]!, id, name, manaCost: "", cardTypes: ["Creature"], zone: grave });
    }
    v.zones.push({ $typeName: "manawire.v1.ZoneContents", zone: grave, objectIds: ["y1", "y2", "y3"] });
    ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: v, viewHash: viewHash(v) } } });
    const order = (promptId: bigint, ...ids: string[]) => ({ body: { case: "decision" as const, value: {
      roomId: "r", promptId, seat: 0, kind: DecisionKind.ORDER_GRAVEYARD, stateId: 5n,
      options: ids.map((objectId) => ({ kind: { case: "chooseOrder" as const, value: { objectId } } })) } } });
    ws.deliver(order(10n, "y1", "y2"));
    const acts = () => ws.sent.flatMap((m) => m.body.case === "act"
      ? [[m.body.value.promptId, m.body.value.optionIndex]] : []);
    assert.deepEqual(acts(), [[10n, 0]]);
    assert.deepEqual(app.log, []); // (the cards' moves say what happened)
    ws.deliver(order(11n, "y1", "y3"));
    assert.deepEqual(acts(), [[10n, 0]]);
    assert.equal(app.decision?.promptId, 11n);
  } finally { restore(); }
});

test("603.3b: the order of alike triggers is no choice: answered at once", () => {
  // Attacking with two Bolt Hounds, a new player (round 12) was asked to click "Next: Bolt
  // Hound's trigger", its one option. Triggers that differ still ask.
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    const v = view(0, 9n);
    const hound = "Whenever Bolt Hound attacks, other creatures you control get +1/+0 until end of turn.";
    v.header!.triggers = [
      { $typeName: "manawire.v1.WaitingTrigger", id: "w1", controller: 0, sourceName: "Bolt Hound", text: hound },
      { $typeName: "manawire.v1.WaitingTrigger", id: "w2", controller: 0, sourceName: "Bolt Hound", text: hound },
      { $typeName: "manawire.v1.WaitingTrigger", id: "w3", controller: 0, sourceName: "Goblin Arsonist",
        text: "When Goblin Arsonist dies, you may have it deal 1 damage to any target." },
    ];
    ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: v, viewHash: viewHash(v) } } });
    const order = (promptId: bigint, ...ids: string[]) => ({ body: { case: "decision" as const, value: {
      roomId: "r", promptId, seat: 0, kind: DecisionKind.ORDER_TRIGGERS, stateId: 5n,
      options: ids.map((objectId) => ({ kind: { case: "chooseOrder" as const, value: { objectId } } })) } } });
    ws.deliver(order(10n, "w1", "w2"));
    const acts = () => ws.sent.flatMap((m) => m.body.case === "act"
      ? [[m.body.value.promptId, m.body.value.optionIndex]] : []);
    assert.deepEqual(acts(), [[10n, 0]]);
    ws.deliver(order(11n, "w1", "w3"));
    assert.deepEqual(acts(), [[10n, 0]]);
    assert.equal(app.decision?.promptId, 11n);
  } finally { restore(); }
});

test("Escape clears the selection, else takes back the cast (its Cancel option); nothing else", () => {
  // No key took a cast back: the Cancel option, last, was often past key 9.
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    assert.equal(app.cancellable, false);
    assert.equal(app.escape(), false); // priority: nothing to take back, nothing sent
    app.act(1); // cast Shock: paying its mana, Cancel offered last
    ws.deliver({ body: { case: "decision", value: { roomId: "r", promptId: 10n, seat: 0,
      kind: DecisionKind.PAY_MANA, stateId: 5n, options: [
        { kind: { case: "payAutomatically", value: {} } },
        { kind: { case: "activateManaAbility", value: { objectId: "l1", mana: "R" } } },
        { kind: { case: "activateManaAbility", value: { objectId: "t1", mana: "R" } } },
        { kind: { case: "activateManaAbility", value: { objectId: "t1", mana: "G" } } },
        { kind: { case: "cancelCast", value: {} } }] } } });
    assert.equal(app.cancellable, true);
    const acts = () => ws.sent.filter((m) => m.body.case === "act").length;
    app.select({ kind: "object", id: "t1" });
    assert.equal(app.escape(), true); // the selection first: nothing sent
    assert.equal(app.selected, null);
    assert.equal(acts(), 1);
    assert.equal(app.escape(), true);
    assert.equal(acts(), 2);
    assert.deepEqual([ws.last("act").promptId, ws.last("act").optionIndex], [10n, 4]);
    assert.equal(app.escape(), false); // (sent: not again)
    assert.equal(acts(), 2);
  } finally { restore(); }
});

test("alike options with the selected card among them answer that card's own option", () => {
  // Five alike Grizzly Bears are one "Attack ... (one of 5 alike)"; the player who clicked
  // the third one and then the option declared the first (another creature on the board).
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    const v = view(0, 9n);
    const ids = ["b1", "b2", "b3"];
    for (const id of ids) {
      v.objects.push({ ...v.objects[1]!, id, name: "Grizzly Bears", supertypes: [], cardTypes: ["Creature"],
        power: 2, toughness: 2 });
      v.zones[1]!.objectIds.push(id);
    }
    // (Each may attack Bob or his planeswalker, so a click on one selects it.)
    v.objects.push({ ...v.objects[1]!, id: "pw", name: "Jace Beleren", owner: 1, controller: 1,
      supertypes: [], cardTypes: ["Planeswalker"] });
    v.zones[1]!.objectIds.push("pw");
    ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: v, viewHash: viewHash(v) } } });
    const attack = (objectId: string, planeswalkerId = "") =>
      ({ kind: { case: "declareAttacker" as const, value: { objectId, defender: 1, planeswalkerId } } });
    ws.deliver({ body: { case: "decision", value: { roomId: "r", promptId: 9n, seat: 0,
      kind: DecisionKind.DECLARE_ATTACKERS, stateId: 5n, options: [
        ...ids.flatMap((id) => [attack(id), attack(id, "pw")]),
        { kind: { case: "finishAttackers", value: {} } }] } } });
    assert.deepEqual(app.shownOptions.map((s) => [s.label, s.index]), [
      ["Attack Bob#0002 with Grizzly Bears (one of 3 alike)", 0],
      ["Attack Jace Beleren with Grizzly Bears (one of 3 alike)", 1],
      ["Done: confirm attackers", 6]]);
    app.clickObject("b3");
    assert.deepEqual(app.selected, { kind: "object", id: "b3" });
    assert.deepEqual(app.shownOptions.map((s) => [s.index, s.related, s.key]),
      [[4, true, 1], [5, true, 2], [6, false, 3]]);
    assert.equal(app.actKey(1), true);
    assert.equal(ws.last("act").optionIndex, 4); // b3's, not b1's
  } finally { restore(); }
});

test("choosing X, an option's key is X's value (key 3 is X = 3, key 0 is X = 0)", () => {
  // Key 1 picked "X = 0", the first option: a new player pressing the X they wanted got
  // one less.
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    const v = view(0, 9n);
    ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: v, viewHash: viewHash(v) } } });
    const x = (value: number) => ({ kind: { case: "chooseX" as const, value: { value } } });
    ws.deliver({ body: { case: "decision", value: { roomId: "r", promptId: 9n, seat: 0,
      kind: DecisionKind.CHOOSE_X, stateId: 5n, options: Array.from({ length: 12 }, (_, n) => x(n)) } } });
    assert.deepEqual(app.shownOptions.map((s) => [s.label, s.key]).slice(0, 4),
      [["X = 0", 0], ["X = 1", 1], ["X = 2", 2], ["X = 3", 3]]);
    // X = 10 and 11 have no key (a click picks them).
    assert.deepEqual(app.shownOptions.slice(9).map((s) => s.key), [9, null, null]);
    assert.equal(app.actKey(3), true);
    assert.equal(ws.last("act").optionIndex, 3);
  } finally { restore(); }
});

test("the log keeps a whole long game (2000 lines), numbered on past the lines it drops", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    const v = view(0, 9n);
    let state = 5n;
    const events = (n: number, from: number) => Array.from({ length: n }, (_, i) =>
      ({ kind: { case: "lifeChanged" as const, value: { seat: 1, amount: -(from + i) } } }));
    const deliver = (n: number, from: number) => {
      ws.deliver({ body: { case: "delta", value: { prevStateId: state, stateId: state + 1n, ops: [],
        viewHash: viewHash(v), events: events(n, from) } } });
      state++;
    };
    deliver(300, 1);
    assert.equal(app.log.length, 300, "a game's first 300 lines all kept (200 were)");
    assert.equal(app.log[0], "Bob#0002 lost 1 life");
    assert.equal(app.logDropped, 0);
    deliver(2200, 301);
    assert.equal(app.log.length, 2000);
    assert.equal(app.logDropped, 500);
    assert.equal(app.log[0], "Bob#0002 lost 501 life", "line 501 of the game");
    assert.equal(app.log.at(-1), "Bob#0002 lost 2500 life");
  } finally { restore(); }
});

test("a created room's invite link goes once its creator is no longer in it; a host's stays", async () => {
  const restore = installFakeSocket();
  try {
    const settings = { name: "friday", seats: 2, clockMinutes: 30, private: true, spectate: "" as const,
      format: "constructed" as const, tier: null };
    const create = (app: App, ws: FakeSocket, roomId: string, play: boolean) => {
      app.createRoom({ ...settings, play }, "");
      ws.deliver({ requestId: ws.last("createRoom").requestId, body: { case: "roomCreated", value: {
        room: { roomId, name: "friday", seats: 2 }, inviteCode: "c" } } });
      if (play) {
        ws.deliver({ requestId: ws.last("createRoom").requestId, body: { case: "joined", value: {
          role: Role.PLAYER, seat: 0, room: { roomId, name: "friday", seats: 2 } } } });
      }
    };
    const { app, ws } = signedIn();
    // The server crashed and restarted: the unstarted room is gone, and with it its link.
    create(app, ws, "r1", true);
    assert.equal(app.createdLinks().length, 1);
    ws.drop(1006);
    await new Promise((r) => setTimeout(r, 400));
    const again = FakeSocket.all.at(-1)!;
    again.open();
    again.deliver({ requestId: again.last("resume").requestId, body: { case: "resumed", value: {
      welcome: { resumeToken: "r2", account: { accountId: "a", name: "Ann#0001" } } } } });
    assert.equal(app.room, null);
    assert.match(app.notice, /no longer in the room/);
    assert.deepEqual(app.createdLinks(), [], "no invite link to a room that is gone");
    assert.equal(app.invite, null, "nor the join form filled in with it");
    // Left: gone too.
    create(app, again, "r2", true);
    app.leaveRoom();
    assert.deepEqual(app.createdLinks(), []);
    // Closed (its waiting time ran out).
    create(app, again, "r3", true);
    again.deliver({ body: { case: "roomClosed", value: { roomId: "r3", reason: "expired" } } });
    assert.deepEqual(app.createdLinks(), []);
    // Hosted for others (no seat): its links are the host's to hand out, watched or not.
    create(app, again, "r4", false);
    app.join("r4", Role.SPECTATOR, "", "c");
    again.deliver({ requestId: again.last("joinRoom").requestId, body: { case: "joined", value: {
      role: Role.SPECTATOR, seat: -1, room: { roomId: "r4", name: "friday", seats: 2 } } } });
    app.leaveRoom();
    assert.equal(app.createdLinks().length, 1);
    again.deliver({ body: { case: "roomClosed", value: { roomId: "r4", reason: "finished" } } });
    assert.deepEqual(app.createdLinks(), [], "until the room closes");
  } finally { restore(); }
});

test("three players, one out at 0 life: they see that they lost and why, can't concede; the end says each result", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    const v = view(1, 9n);
    v.players.push(create(ViewSchema, { players: [{ seat: 2, name: "Cy#0003", life: 20 }] }).players[0]!);
    ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "r", name: "three", seats: 3, started: true } } } });
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: v, viewHash: viewHash(v) } } });
    assert.equal(app.canConcede, true);
    // Ann (the viewer) is knocked out; the game goes on for Bob and Cy (rule 800.4a).
    const out = v.players[0]!;
    out.life = 0;
    out.hasLost = true;
    ws.deliver({ body: { case: "delta", value: { prevStateId: 5n, stateId: 6n,
      ops: [{ op: { case: "setPlayer", value: out } }], viewHash: viewHash(v),
      events: [{ kind: { case: "playerLost", value: { seat: 0,
        reason: "Ann#0001 has 0 or less life" } } }] } } });
    assert.equal(app.mirror.gameOver, false);
    assert.equal(app.viewerLost, true);
    assert.equal(app.canConcede, false, "nothing left to concede");
    assert.equal(app.lossReason(0), "Ann#0001 has 0 or less life");
    // In the viewer's words, as the terminal says it (it read "you lost: has 0 or less life").
    assert.deepEqual(app.playerResults().map((r) => resultWords(app, r)),
      ["you lost: you have 0 or less life", "Bob#0002: still playing", "Cy#0003: still playing"]);
    // Cy concedes: Bob wins. Each player's result, not only the winner's and the last loser's.
    const cy = v.players[2]!;
    cy.hasLost = true;
    v.header!.pending = undefined;
    v.header!.result = create(ViewSchema, { header: { result: { winners: [1],
      reason: "Cy#0003 conceded" } } }).header!.result;
    ws.deliver({ body: { case: "delta", value: { prevStateId: 6n, stateId: 7n,
      ops: [{ op: { case: "setPlayer", value: cy } }, { op: { case: "setHeader", value: v.header! } }],
      viewHash: viewHash(v), events: [{ kind: { case: "playerLost", value: { seat: 2,
        reason: "Cy#0003 conceded" } } }] } } });
    assert.equal(app.mirror.gameOver, true);
    assert.deepEqual(app.playerResults().map((r) => resultWords(app, r)),
      ["you lost: you have 0 or less life", "Bob#0002 won", "Cy#0003 lost: Cy#0003 conceded"]);
    assert.ok(app.log.includes("You lost the game (you have 0 or less life)"), app.log.join("\n"));
    assert.ok(app.log.includes("Cy#0003 lost the game (Cy#0003 conceded)"), app.log.join("\n"));
    // A page loaded afterwards never heard Ann's loss: the result names the last one's.
    const later = signedIn();
    later.ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 1,
      room: { roomId: "r", name: "three", seats: 3, started: true } } } });
    const bobs = create(ViewSchema, { ...v, viewer: 1 });
    later.ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 7n, view: bobs,
      viewHash: viewHash(bobs) } } });
    assert.deepEqual(later.app.playerResults().map((r) => resultWords(later.app, r)),
      ["Ann#0001 lost", "you won", "Cy#0003 lost: Cy#0003 conceded"]);
  } finally { restore(); }
});

test("priority in the opponent's upkeep is passed for a player holding an instant, unless they stop at every step", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated(); // their own main phase: decision 9 waits
    assert.equal(app.stops, "auto");
    app.act(0);
    const upkeep = (state: bigint, promptId: bigint) => {
      const v = view(0, promptId);
      v.header!.step = Step.UPKEEP;
      v.header!.activeSeat = 1;
      ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: state, view: v, viewHash: viewHash(v) } } });
      ws.deliver({ body: { case: "decision", value: { roomId: "r", promptId, seat: 0,
        kind: DecisionKind.PRIORITY, stateId: state, options: [{ kind: { case: "passPriority", value: {} } },
          { kind: { case: "castSpell", value: { objectId: "c1" } } }] } } });
    };
    const acts = () => ws.sent.flatMap((m) => m.body.case === "act" ? [m.body.value.promptId] : []);
    upkeep(6n, 10n);
    assert.deepEqual(acts(), [9n, 10n]);
    assert.equal(ws.last("act").optionIndex, 0);
    assert.equal(app.autoPassed, 1);
    app.setStops("all");
    upkeep(7n, 11n);
    assert.deepEqual(acts(), [9n, 10n]);
    assert.equal(app.decision?.promptId, 11n);
    app.setStops("auto"); // passed at once
    assert.deepEqual(acts(), [9n, 10n, 11n]);
  } finally { restore(); }
});

test("an invite link opened on a finished game's board goes to the lobby's join form; in a game going on it says to leave first", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    app.openInvite({ role: "join", roomId: "r2", code: "c2" });
    assert.equal(app.room?.info.roomId, "r"); // a game going on stays
    assert.match(app.notice, /leave this room first/);
    assert.equal(app.invite?.roomId, "r2");
    const v = view(0, 9n);
    v.header!.pending = undefined;
    v.header!.result = create(GameResultSchema, { winners: [1], reason: "Ann#0001 conceded" });
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 6n, view: v, viewHash: viewHash(v) } } });
    assert.ok(app.mirror.gameOver);
    app.openInvite({ role: "join", roomId: "r3", code: "c3" });
    assert.equal(app.room, null);
    assert.ok(ws.sent.slice(-2).some((m) => m.body.case === "leaveRoom"));
    assert.equal(app.invite?.roomId, "r3");
    assert.match(app.notice, /choose your deck and press “Join as player”/);
  } finally { restore(); }
});

test("the room's creator keeps its invite link once the game started, after a reload too (this tab's sessionStorage)", () => {
  const restore = installFakeSocket();
  const store = new Map<string, string>();
  const g = globalThis as { sessionStorage?: unknown };
  g.sessionStorage = { getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => { store.set(k, v); }, removeItem: (k: string) => { store.delete(k); } };
  try {
    const app = new App("ws://server/", "http://server/", null);
    app.signInGuest("Ann");
    const ws = FakeSocket.all.at(-1)!;
    ws.open();
    ws.deliver({ requestId: ws.last("hello").requestId, body: { case: "welcome", value: {
      resumeToken: "r1", accountToken: "t1", account: { accountId: "a", name: "Ann#0001" } } } });
    app.createRoom({ name: "friday", seats: 2, clockMinutes: 30, private: true, spectate: "",
      format: "constructed", tier: null }, "");
    const id = ws.last("createRoom").requestId;
    ws.deliver({ requestId: id, body: { case: "roomCreated", value: { inviteCode: "sesame",
      room: { roomId: "r", name: "friday", seats: 2 } } } });
    ws.deliver({ requestId: id, body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
    assert.deepEqual(app.roomInviteLinks().map((l) => l.link), ["http://server/#join=r&code=sesame"]);
    // A reload: a new page, its session resumed in room r (no `created` any more).
    const again = new App("ws://server/", "http://server/", null);
    again.signInGuest("Ann");
    const ws2 = FakeSocket.all.at(-1)!;
    ws2.open();
    ws2.deliver({ requestId: ws2.last("hello").requestId, body: { case: "welcome", value: {
      resumeToken: "r2", accountToken: "t1", account: { accountId: "a", name: "Ann#0001" } } } });
    ws2.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
    assert.equal(again.created, null);
    assert.deepEqual(again.roomInviteLinks().map((l) => l.link), ["http://server/#join=r&code=sesame"]);
    ws2.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "other", name: "x", seats: 2, started: true } } } });
    assert.deepEqual(again.roomInviteLinks(), []);
  } finally { restore(); delete g.sessionStorage; }
});

test("the game-over panel's replay link keeps the room (for a rematch) and carries its code and games", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    assert.deepEqual(app.finishedGameIds, []); // the game goes on
    assert.equal(app.finishedReplayLink("r"), "");
    const v = view(0, 9n);
    v.header!.pending = undefined;
    v.header!.result = create(GameResultSchema, { winners: [1], reason: "Ann#0001 conceded" });
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 6n, view: v, viewHash: viewHash(v) } } });
    assert.deepEqual(app.finishedGameIds, ["r"]);
    const link = app.finishedReplayLink("r");
    // (Replaying left the room, which ended the rematch the opponent offered.)
    assert.equal(app.room?.info.roomId, "r");
    assert.ok(!ws.sent.some((m) => m.body.case === "leaveRoom"));
    const target = parseReplayLink(link.slice(link.indexOf("#")));
    assert.equal(target?.roomId, "r");
    assert.equal(target?.bestOf, 1); // a single game: no "Game 2?" in the viewer
    assert.equal(target?.games, 1);
  } finally { restore(); }
});

test("the log says when a turn begins, and never counts alike lines across it", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated(); // turn 1, Ann's
    app.act(0);
    const drew = { kind: { case: "cardDrawn" as const, value: { seat: 1 } } };
    let state = 5n;
    const step = (turn: number, active: number, events: (typeof drew)[]) => {
      const next = view(1, 20n + state);
      next.header!.turn = turn;
      next.header!.activeSeat = active;
      ws.deliver({ body: { case: "delta", value: { prevStateId: state, stateId: state + 1n, events,
        ops: [{ op: { case: "setHeader", value: next.header! } }], viewHash: viewHash(next) } } });
      state++;
    };
    step(1, 0, [drew, drew]);
    step(2, 1, []); // (the turn begins: its untap and upkeep; the draw is an action later)
    step(2, 1, [drew]);
    step(2, 1, [drew]);
    assert.deepEqual(app.log, ["Bob#0002 drew a card (×2)", "— Turn 2: Bob#0002's turn —",
      "Bob#0002 drew a card (×2)"]);
    step(3, 0, []);
    assert.equal(app.log.at(-1), "— Turn 3: your turn —");
  } finally { restore(); }
});

test("a replay link opened signed out says why the sign-in comes first", () => {
  const restore = installFakeSocket();
  try {
    const app = new App("ws://server/", "http://server/", null);
    app.replayWanted = { roomId: "abc.2", code: "" };
    app.noteReplay();
    assert.match(app.notice, /replay of game “abc\.2”: sign in, or play as a guest, first/);
  } finally { restore(); }
});

/** Seated as {@link seated}, then the view `edit` makes at `state` with decision `promptId`
 * of seat 0 (`kind`, its options: pass priority and cast Shock unless given). */
function decideAt(ws: FakeSocket, state: bigint, promptId: bigint, edit: (v: View) => void = () => {},
                  kind = DecisionKind.PRIORITY, options?: Parameters<FakeSocket["deliver"]>[0]["body"]): void {
  const v = view(0, promptId);
  v.header!.pending!.kind = kind;
  edit(v);
  ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: state, view: v, viewHash: viewHash(v) } } });
  ws.deliver(options !== undefined ? { body: options } : { body: { case: "decision", value: { roomId: "r", promptId,
    seat: 0, kind, stateId: state, options: [{ kind: { case: "passPriority", value: {} } },
      { kind: { case: "castSpell", value: { objectId: "c1" } } }] } } });
}

test("pass until end of turn (the terminal's pp): every priority of the turn, until something new is on the stack", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated(); // their own main phase: the usual stops ask
    const acts = () => ws.sent.flatMap((m) => m.body.case === "act" ? [m.body.value.promptId] : []);
    app.passTurn();
    assert.deepEqual(acts(), [9n]);
    assert.equal(ws.last("act").optionIndex, 0);
    assert.equal(app.passing?.turn, 1);
    decideAt(ws, 6n, 10n, (v) => { v.header!.step = Step.POSTCOMBAT_MAIN; });
    assert.deepEqual(acts(), [9n, 10n]); // (the usual stops would have asked here)
    // Bob's spell on the stack: it stops, and says why.
    decideAt(ws, 7n, 11n, (v) => {
      const stack = { $typeName: "manawire.v1.ZoneRef" as const, kind: ZoneKind.STACK, owner: -1 };
      v.objects.push({ ...v.objects[0]!, id: "s9", owner: 1, controller: 1, zone: stack });
      v.zones.push({ $typeName: "manawire.v1.ZoneContents", zone: stack, objectIds: ["s9"] });
    });
    assert.deepEqual(acts(), [9n, 10n]);
    assert.equal(app.passing, null);
    assert.match(app.passingNote, /new is on the stack/);
    // Mana in the pool: never passed (106.4).
    app.passTurn();
    decideAt(ws, 8n, 12n, (v) => { v.players[0]!.manaPool = create(ManaPoolSchema, { red: 1 }); });
    assert.deepEqual(acts(), [9n, 10n, 11n]);
    assert.equal(app.passing, null);
    assert.match(app.passingNote, /mana in your pool/);
    // Any decision other than priority is the player's, and ends it.
    app.passTurn();
    decideAt(ws, 9n, 13n, () => {}, DecisionKind.DECLARE_BLOCKERS, { case: "decision", value: { roomId: "r",
      promptId: 13n, seat: 0, kind: DecisionKind.DECLARE_BLOCKERS, stateId: 9n, options: [
        { kind: { case: "declareBlocker", value: { objectId: "l1", attackerId: "t1" } } },
        { kind: { case: "finishBlockers", value: {} } }] } });
    assert.deepEqual(acts(), [9n, 10n, 11n, 12n]);
    assert.equal(app.passing, null);
    app.passTurn(); // (not a priority: nothing)
    assert.deepEqual(acts(), [9n, 10n, 11n, 12n]);
    // The turn's end ends it.
    decideAt(ws, 10n, 14n);
    app.passTurn();
    decideAt(ws, 11n, 15n, (v) => { v.header!.turn = 2; });
    assert.deepEqual(acts(), [9n, 10n, 11n, 12n, 14n]);
    assert.equal(app.passing, null);
    assert.match(app.passingNote, /turn is over/);
    assert.equal(app.decision?.promptId, 15n);
    decideAt(ws, 12n, 16n); // the next decision doesn't say it again
    assert.equal(app.passingNote, "");
  } finally { restore(); }
});

/** Priority as `decideAt` gives it, with only PassPriority (and the Mountain to tap):
 * nothing to do but pass (117.3) -- the hand may hold Shock or nothing. */
function onlyPassAt(ws: FakeSocket, state: bigint, promptId: bigint, edit: (v: View) => void = () => {}): void {
  decideAt(ws, state, promptId, edit, DecisionKind.PRIORITY, { case: "decision", value: { roomId: "r", promptId,
    seat: 0, kind: DecisionKind.PRIORITY, stateId: state, options: [{ kind: { case: "passPriority", value: {} } },
      { kind: { case: "activateManaAbility", value: { objectId: "l1", mana: "R" } } }] } });
}

const emptyHand = (v: View): void => {
  v.objects = v.objects.filter((o) => o.id !== "c1");
  v.zones = v.zones.filter((z) => z.zone?.kind !== ZoneKind.HAND);
  v.players[0]!.handCount = 0;
};
const opponentsUpkeep = (v: View): void => { v.header!.step = Step.UPKEEP; v.header!.activeSeat = 1; };

test("answer timing: at a stop, nothing to do but pass waits 1-3 s whatever the hand; at no stop it is at once", () => {
  const restore = installFakeSocket();
  mock.timers.enable({ apis: ["setTimeout"] });
  const draws = [0.25, 0.75, 0.5, 0.5, 0.1];
  const random = mock.method(Math, "random", () => draws.shift() ?? 0.5);
  try {
    const { app, ws } = seated(); // their own main phase: the stops ask
    app.act(0);
    const acts = () => ws.sent.flatMap((m) => m.body.case === "act" ? [m.body.value.promptId] : []);
    // Shock in hand, no mana for it; then an empty hand: the same wait (from the draw alone).
    onlyPassAt(ws, 6n, 10n);
    mock.timers.tick(1499);
    assert.deepEqual(acts(), [9n]);
    mock.timers.tick(1);
    assert.deepEqual(acts(), [9n, 10n]);
    onlyPassAt(ws, 7n, 11n, emptyHand);
    mock.timers.tick(2499); // (drawn afresh: 0.75 -> 2.5 s)
    assert.deepEqual(acts(), [9n, 10n]);
    mock.timers.tick(1);
    assert.deepEqual(acts(), [9n, 10n, 11n]);
    assert.equal(random.mock.callCount(), 2);
    // The player answering first cancels it: one answer only.
    onlyPassAt(ws, 8n, 12n);
    mock.timers.tick(500);
    app.act(0);
    mock.timers.tick(5000);
    assert.deepEqual(acts(), [9n, 10n, 11n, 12n]);
    // So does another decision: the wait was for the one before.
    onlyPassAt(ws, 9n, 13n);
    decideAt(ws, 10n, 14n); // (Shock castable now: the player decides)
    mock.timers.tick(5000);
    assert.deepEqual(acts(), [9n, 10n, 11n, 12n]);
    assert.equal(app.decision?.promptId, 14n);
    app.act(0);
    // Mana in the pool: never passed (106.4), however long.
    onlyPassAt(ws, 11n, 15n, (v) => { v.players[0]!.manaPool = create(ManaPoolSchema, { red: 1 }); });
    assert.equal(app.passingSoon, null);
    mock.timers.tick(10_000);
    assert.deepEqual(acts(), [9n, 10n, 11n, 12n, 14n]);
    app.act(0);
    // The opponent's upkeep is no stop (public: step, stack, whose turn): passed at once,
    // Shock in hand or not, with nothing to do or with Shock castable.
    const before = random.mock.callCount();
    onlyPassAt(ws, 12n, 16n, opponentsUpkeep);
    onlyPassAt(ws, 13n, 17n, (v) => { opponentsUpkeep(v); emptyHand(v); });
    decideAt(ws, 14n, 18n, opponentsUpkeep);
    assert.deepEqual(acts(), [9n, 10n, 11n, 12n, 14n, 15n, 16n, 17n, 18n]);
    assert.equal(random.mock.callCount(), before, "no wait drawn");
    // A drop before the wait ends: nothing is sent on a closed socket (the resumed
    // connection gets the decision again, and waits again).
    onlyPassAt(ws, 15n, 19n);
    ws.drop(1006);
    mock.timers.tick(3000);
    assert.deepEqual(acts(), [9n, 10n, 11n, 12n, 14n, 15n, 16n, 17n, 18n]);
    assert.equal(app.error, "");
  } finally { mock.timers.reset(); mock.restoreAll(); restore(); }
});

test("answer timing: with full control ('Stop at every step') nothing is answered for the player", () => {
  const restore = installFakeSocket();
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { app, ws } = seated();
    app.act(0);
    const acts = () => ws.sent.flatMap((m) => m.body.case === "act" ? [m.body.value.promptId] : []);
    onlyPassAt(ws, 6n, 10n); // waiting to pass...
    assert.equal(app.passingSoon, 10n);
    app.setStops("all"); // ...until full control is asked for
    assert.equal(app.passingSoon, null);
    mock.timers.tick(10_000);
    assert.deepEqual(acts(), [9n]);
    app.act(0);
    onlyPassAt(ws, 7n, 11n, opponentsUpkeep); // no stop, nothing to do: asked too
    mock.timers.tick(10_000);
    assert.deepEqual(acts(), [9n, 10n]);
    assert.equal(app.decision?.promptId, 11n);
    app.act(0);
    onlyPassAt(ws, 8n, 12n, emptyHand);
    mock.timers.tick(10_000);
    assert.deepEqual(acts(), [9n, 10n, 11n]);
    assert.equal(app.decision?.promptId, 12n);
    app.setStops("auto"); // back to the stops: a stop, so after a wait
    assert.deepEqual(acts(), [9n, 10n, 11n]);
    mock.timers.tick(PASS_DELAY_MAX_MS);
    assert.deepEqual(acts(), [9n, 10n, 11n, 12n]);
  } finally { mock.timers.reset(); mock.restoreAll(); restore(); }
});

test("answer timing: passing until end of turn passes at once whatever the hand; what stops it then waits", () => {
  const restore = installFakeSocket();
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { app, ws } = seated();
    const acts = () => ws.sent.flatMap((m) => m.body.case === "act" ? [m.body.value.promptId] : []);
    app.passTurn();
    decideAt(ws, 6n, 10n, (v) => { v.header!.step = Step.POSTCOMBAT_MAIN; }); // Shock castable
    onlyPassAt(ws, 7n, 11n, (v) => { v.header!.step = Step.POSTCOMBAT_MAIN; }); // nothing to do
    onlyPassAt(ws, 8n, 12n, (v) => { v.header!.step = Step.POSTCOMBAT_MAIN; emptyHand(v); });
    assert.deepEqual(acts(), [9n, 10n, 11n, 12n]);
    // Bob's spell on the stack stops it whatever the hand: with nothing to do but pass, the
    // pass then waits as at any stop (not at once, which would tell the hand).
    const bobsSpell = (v: View): void => {
      const stack = { $typeName: "manawire.v1.ZoneRef" as const, kind: ZoneKind.STACK, owner: -1 };
      v.objects.push({ ...v.objects[0]!, id: "s9", owner: 1, controller: 1, zone: stack });
      v.zones.push({ $typeName: "manawire.v1.ZoneContents", zone: stack, objectIds: ["s9"] });
    };
    onlyPassAt(ws, 9n, 13n, bobsSpell);
    assert.equal(app.passing, null);
    assert.match(app.passingNote, /new is on the stack/);
    assert.deepEqual(acts(), [9n, 10n, 11n, 12n]);
    mock.timers.tick(PASS_DELAY_MAX_MS);
    assert.deepEqual(acts(), [9n, 10n, 11n, 12n, 13n]);
  } finally { mock.timers.reset(); mock.restoreAll(); restore(); }
});

test("404.3: 'Any order' answers the graveyard's order as offered, the rest of that order too", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    const order = (state: bigint, promptId: bigint, ...ids: string[]) => decideAt(ws, state, promptId,
      () => {}, DecisionKind.ORDER_GRAVEYARD, { case: "decision", value: { roomId: "r", promptId, seat: 0,
        kind: DecisionKind.ORDER_GRAVEYARD, stateId: state,
        options: ids.map((objectId) => ({ kind: { case: "chooseOrder" as const, value: { objectId } } })) } });
    const acts = () => ws.sent.flatMap((m) => m.body.case === "act"
      ? [[m.body.value.promptId, m.body.value.optionIndex]] : []);
    order(6n, 10n, "c1", "l1", "t1"); // three cards that differ: asked
    assert.deepEqual(acts(), []);
    app.answerAnyOrder();
    assert.deepEqual(acts(), [[10n, 0]]);
    order(7n, 11n, "l1", "t1"); // the rest of that order: as listed, by itself
    assert.deepEqual(acts(), [[10n, 0], [11n, 0]]);
    decideAt(ws, 8n, 12n); // another decision: that order is over
    order(9n, 13n, "c1", "t1");
    assert.deepEqual(acts(), [[10n, 0], [11n, 0]]);
    assert.equal(app.decision?.promptId, 13n);
  } finally { restore(); }
});

test("601.2h: a Mountain tapped for a {R} cost pays it, without asking again which mana to spend", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    const acts = () => ws.sent.flatMap((m) => m.body.case === "act"
      ? [[m.body.value.promptId, m.body.value.optionIndex]] : []);
    const paying = (state: bigint, promptId: bigint, red: number, ...mana: string[]) => decideAt(ws, state, promptId,
      (v) => { v.players[0]!.manaPool = create(ManaPoolSchema, { red }); }, DecisionKind.PAY_MANA,
      { case: "decision", value: { roomId: "r", promptId, seat: 0, kind: DecisionKind.PAY_MANA, stateId: state,
        options: [{ kind: { case: "payAutomatically", value: {} } },
          { kind: { case: "activateManaAbility", value: { objectId: "l1", mana: "R" } } },
          ...mana.map((m) => ({ kind: { case: "payMana" as const, value: { mana: m } } })),
          { kind: { case: "cancelCast", value: {} } }] } });
    paying(6n, 10n, 0);
    assert.deepEqual(acts(), []);
    app.act(1); // the player taps the Mountain: the pool now pays {R} exactly, in one way
    paying(7n, 11n, 1, "R");
    assert.deepEqual(acts(), [[10n, 1], [11n, 2]]);
    // Mana the player didn't tap for this payment (in the pool before it), or more than
    // the cost (another use for it?): asked.
    paying(8n, 12n, 1, "R");
    assert.equal(app.decision?.promptId, 12n);
    assert.equal(acts().length, 2);
    app.act(1);
    paying(9n, 13n, 2, "R");
    assert.equal(app.decision?.promptId, 13n);
    assert.equal(acts().length, 3);
  } finally { restore(); }
});

test("103.5: who kept is said once the round of mulligans is over ('Bob kept 6 cards', as the terminal); a card put on the bottom says so", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    const v = view(0, 9n);
    v.header!.turn = 0;
    v.header!.phase = GamePhase.MULLIGANS;
    v.header!.pending!.kind = DecisionKind.MULLIGAN;
    for (const p of v.players) p.handCount = 7;
    ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: v, viewHash: viewHash(v) } } });
    app.log.length = 0;
    const step = deltaStepper(ws, v, 5n, true);
    const moved = { kind: { case: "zoneChange", value: { owner: 1, fromZone: ZoneKind.HAND, toZone: ZoneKind.LIBRARY } } };
    const drew = { kind: { case: "cardDrawn", value: { seat: 1 } } };
    // Ann keeps, then Bob takes a mulligan: the round is over.
    step(() => { v.header!.pending = { ...v.header!.pending!, seat: 1, promptId: 10n }; });
    assert.deepEqual(app.log, []); // (Ann's answer isn't known yet: nothing said)
    step(() => { v.header!.pending = { ...v.header!.pending!, seat: 1, kind: DecisionKind.BOTTOM_CARD, promptId: 11n }; },
      [{ kind: { case: "mulliganTaken", value: { seat: 1, number: 1 } } }, moved, moved, drew, drew]);
    step(() => {
      v.header!.pending = { ...v.header!.pending!, seat: 1, kind: DecisionKind.MULLIGAN, promptId: 12n };
      v.players[1]!.handCount = 6;
    }, [moved]);
    // Bob keeps: the first turn begins.
    step(() => {
      v.header!.pending = { ...v.header!.pending!, seat: 0, kind: DecisionKind.PRIORITY, promptId: 13n };
      v.header!.phase = GamePhase.PLAYING;
      v.header!.turn = 1;
    });
    assert.deepEqual(app.log, [
      "You kept 7 cards",
      "Bob#0002 took a mulligan",
      "Bob#0002 put a card from their hand into their library (×2)",
      "Bob#0002 drew a card (×2)",
      "Bob#0002 put a card on the bottom of their library",
      "Bob#0002 kept 6 cards",
      "— Turn 1: your turn —",
    ]);
  } finally { restore(); }
});

test("a replay link opened in a second tab takes nothing over: Hello for replays only, the replay opened beside the seated tab", async () => {
  // It said Hello with the account token and took the first tab's seat over (4001), never
  // showing the replay (a new player's review).
  const restore = installFakeSocket();
  const local = new Map<string, string>([["manawire.accountToken", "t1"]]);
  const g = globalThis as { localStorage?: unknown };
  g.localStorage = { getItem: (k: string) => local.get(k) ?? null,
    setItem: (k: string, v: string) => { local.set(k, v); }, removeItem: (k: string) => { local.delete(k); } };
  try {
    const app = new App("ws://server/", "http://server/", null);
    app.replayWanted = { roomId: "g1", code: "" };
    app.start();
    const ws = FakeSocket.all.at(-1)!;
    ws.open();
    const hello = ws.last("hello");
    assert.equal(hello.accountToken, "t1");
    assert.equal(hello.replaysOnly, true);
    // The account has a session elsewhere: a Welcome with no resume token.
    ws.deliver({ requestId: hello.requestId, body: { case: "welcome", value: {
      account: { accountId: "a", name: "Ann#0001" } } } });
    assert.equal(app.side, true);
    assert.match(app.notice, /playing in another tab/);
    const replay = ws.sent.find((m) => m.body.case === "replay");
    assert.equal(replay?.body.case === "replay" && replay.body.value.roomId, "g1");
    // A dropped connection says Hello for replays only again (never Resume, never a take-over).
    ws.drop();
    await new Promise((r) => setTimeout(r, 400));
    const again = FakeSocket.all.at(-1)!;
    assert.notEqual(again, ws);
    again.open();
    assert.equal(again.last("hello").replaysOnly, true);
    // A page with no replay wanted says an ordinary Hello (it may take the session over).
    const other = new App("ws://server/", "http://server/", null);
    other.start();
    FakeSocket.all.at(-1)!.open();
    assert.equal(FakeSocket.all.at(-1)!.last("hello").replaysOnly, false);
  } finally { restore(); delete g.localStorage; }
});

test("pass until end of turn asked as a turn began is held back once (the turn can't have been seen); again, it passes", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = seated();
    const acts = () => ws.sent.flatMap((m) => m.body.case === "act" ? [m.body.value.promptId] : []);
    const next = view(0, 10n);
    next.header!.turn = 2;
    ws.deliver({ body: { case: "delta", value: { prevStateId: 5n, stateId: 6n,
      ops: [{ op: { case: "setHeader", value: next.header! } }], viewHash: viewHash(next) } } });
    ws.deliver({ body: { case: "decision", value: { roomId: "r", promptId: 10n, seat: 0,
      kind: DecisionKind.PRIORITY, stateId: 6n, options: [{ kind: { case: "passPriority", value: {} } },
        { kind: { case: "castSpell", value: { objectId: "c1" } } }] } } });
    app.passTurn();
    assert.deepEqual(acts(), []);
    assert.equal(app.passing, null);
    assert.match(app.passingNote, /Turn 2 began as you asked/);
    app.passTurn();
    assert.deepEqual(acts(), [10n]);
    assert.equal((app.passing as App["passing"])?.turn, 2);
  } finally { restore(); }
});

/** A view with Ann's Pridemalkin (3/2) on the battlefield, seen by `viewer` (-1: watching). */
function pridemalkinView(viewer: number): View {
  const v = view(0, 9n);
  v.viewer = viewer;
  v.objects.push(create(GameObjectSchema, { id: "p1", zone: { kind: ZoneKind.BATTLEFIELD, owner: -1 },
    owner: 0, controller: 0, name: "Pridemalkin", cardTypes: ["Creature"], power: 3, toughness: 2 }));
  v.zones[1]!.objectIds.push("p1");
  return v;
}

/** The delta from `v` at `state` that sets Pridemalkin to power/toughness (a step given: that
 * too), with `events`. */
function setStrength(ws: FakeSocket, v: View, state: bigint, power: number, toughness: number,
  step?: Step, events: readonly object[] = []): void {
  const p1 = v.objects.find((o) => o.id === "p1")!;
  p1.power = power;
  p1.toughness = toughness;
  const ops: object[] = [{ op: { case: "updateObject", value: p1 } }];
  if (step !== undefined) {
    v.header!.step = step;
    ops.push({ op: { case: "setHeader", value: v.header! } });
  }
  ws.deliver({ body: { case: "delta", value: { prevStateId: state, stateId: state + 1n,
    ops: ops as never, viewHash: viewHash(v), events: events as never } } });
}

test("a creature's power and toughness changing is logged: a pump, a counter, the pump ending at the cleanup", () => {
  const restore = installFakeSocket();
  try {
    for (const [seat, whose] of [[0, "Your"], [-1, "Ann#0001's"]] as const) {
      const v = pridemalkinView(seat);
      const { app, ws } = startedFrom(seat, v, []);
      // Titanic Growth resolves (+4/+4): before the line of Growth put into the graveyard, the
      // last step of its resolving (608.2n), as the terminal says it; a line after it stays after.
      const resolved = { kind: { case: "zoneChange" as const, value: { owner: 0, fromZone: ZoneKind.STACK,
        toZone: ZoneKind.GRAVEYARD, name: "Titanic Growth" } } };
      setStrength(ws, v, 40n, 7, 6, undefined, [resolved, drew(1)]);
      assert.deepEqual(app.log.slice(-3), [
        `${whose} Pridemalkin is now 7/6 (was 3/2)`,
        `${seat === 0 ? "Your" : "Ann#0001's"} Titanic Growth moved from the stack to ${seat === 0 ? "your" : "Ann#0001's"} graveyard`,
        "Bob#0002 drew a card"]);
      // A +1/+1 counter.
      setStrength(ws, v, 41n, 8, 7);
      assert.equal(app.log.at(-1), `${whose} Pridemalkin is now 8/7 (was 7/6)`);
      // The cleanup (514.2): the pump wears off -- back to its size, not "(-4/-4)".
      setStrength(ws, v, 42n, 4, 3, Step.CLEANUP);
      assert.equal(app.log.at(-1), `${whose} Pridemalkin is 4/3 again (the +4/+4 ended)`);
      assert.ok(!app.log.some((l) => l.includes("-4/-4")), app.log.join("\n"));
      // Nothing changed: nothing said.
      const lines = app.log.length;
      setStrength(ws, v, 43n, 4, 3);
      assert.equal(app.log.length, lines);
    }
  } finally { restore(); }
});

test("log lines begin with a capital: 'You drew a card', 'Your ...'; a player's name stays as written", () => {
  const restore = installFakeSocket();
  try {
    const v = view(0, 9n);
    v.players[1]!.name = "bob#0002";
    const { app } = startedFrom(0, v, [drew(0),
      { kind: { case: "spellCast" as const, value: { objectId: "x", controller: 1, name: "Shock" } } },
      { kind: { case: "lifeChanged" as const, value: { seat: 0, amount: -2 } } }]);
    assert.deepEqual(app.log, ["You drew a card", "bob#0002 cast Shock", "You lost 2 life"]);
  } finally { restore(); }
});

test("509.1: a declaration of blockers answered with no block is said ('Bob#0002 didn't block'); one with blocks, or another blocker of the same player's, isn't", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    const v = view(0, 9n);
    v.header!.turn = 3;
    v.header!.step = Step.DECLARE_BLOCKERS;
    v.header!.pending = { ...v.header!.pending!, seat: 1, kind: DecisionKind.DECLARE_BLOCKERS, promptId: 10n };
    seatedIn(ws, v);
    app.log.length = 0;
    const step = deltaStepper(ws, v);
    const pending = (seat: number, kind: DecisionKind, promptId: bigint) => () => {
      v.header!.pending = { ...v.header!.pending!, seat, kind, promptId };
    };
    // Bob declares one blocker (a new prompt of his declaration: nothing said), then is done.
    step(pending(1, DecisionKind.DECLARE_BLOCKERS, 11n));
    assert.equal(app.log.length, 0);
    step(pending(0, DecisionKind.PRIORITY, 12n),
      [{ kind: { case: "blockersDeclared", value: { blocks: [{ blockerId: "x", attackerId: "y" }] } } }]);
    assert.equal(app.log.some((l) => l.includes("didn't block")), false);
    // Next combat: Bob declares none.
    step(pending(1, DecisionKind.DECLARE_BLOCKERS, 13n));
    step(pending(0, DecisionKind.PRIORITY, 14n));
    assert.equal(app.log.at(-1), "Bob#0002 didn't block");
  } finally { restore(); }
});

test("a permanent a resolving spell tapped is said ('Your Mountain became tapped', Frost Breath); a tap with nothing resolving isn't", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    const v = view(0, 9n);
    v.objects[0]!.zone!.kind = ZoneKind.STACK;
    v.objects[0]!.zone!.owner = -1;
    v.zones[0] = create(ZoneContentsSchema, { zone: { kind: ZoneKind.STACK, owner: -1 }, objectIds: ["c1"] });
    seatedIn(ws, v);
    app.log.length = 0;
    // The spell resolves (leaves the stack) and the Mountain is tapped.
    v.objects = v.objects.filter((o) => o.id !== "c1");
    v.zones[0]!.objectIds = [];
    v.objects[0]!.tapped = true;
    ws.deliver({ body: { case: "delta", value: { prevStateId: 5n, stateId: 6n,
      ops: [{ op: { case: "removeObject", value: "c1" } }, { op: { case: "setZone", value: v.zones[0]! } },
        { op: { case: "updateObject", value: v.objects[0]! } }],
      viewHash: viewHash(v), events: [] } } });
    assert.equal(app.mirror.stateId, 6n);
    assert.deepEqual(app.log, ["Your Mountain became tapped"]);
    // The Treasure tapped with nothing resolving (a cost, an attack): not said.
    v.objects[1]!.tapped = true;
    ws.deliver({ body: { case: "delta", value: { prevStateId: 6n, stateId: 7n,
      ops: [{ op: { case: "updateObject", value: v.objects[1]! } }], viewHash: viewHash(v), events: [] } } });
    assert.equal(app.mirror.stateId, 7n);
    assert.deepEqual(app.log, ["Your Mountain became tapped"]);
  } finally { restore(); }
});

test("603.3b: ordering triggers names each by its source (it read \"a card you can't see\")", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    const v = view(0, 9n);
    // Two Heartfire Immolators' prowess triggers wait to be put on the stack: the header
    // lists them (WaitingTrigger); no object of the view has their ids.
    v.header!.triggers = ["w1", "w2"].map((id) => ({ $typeName: "manawire.v1.WaitingTrigger" as const,
      id, controller: 0, sourceName: "Heartfire Immolator", text: "Prowess" }));
    ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: v, viewHash: viewHash(v) } } });
    ws.deliver({ body: { case: "decision", value: { roomId: "r", promptId: 10n, seat: 0,
      kind: DecisionKind.ORDER_TRIGGERS, stateId: 5n,
      options: ["w1", "w2"].map((objectId) => ({ kind: { case: "chooseOrder" as const, value: { objectId } } })) } } });
    const labels = shownOptions(app, app.decision!.options).map((o) => o.label);
    assert.ok(labels.length > 0 && labels.every((l) => l.startsWith("Next: Heartfire Immolator's trigger")), String(labels));
  } finally { restore(); }
});
