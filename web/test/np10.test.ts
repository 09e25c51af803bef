/** A new player's findings (round 10): Cancel never numbered (a late key took a cast back;
 * the terminal's `c`), leaving a match said of the match, a rematch's log begun with the
 * rematch, and every game of a match's replay labelled. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import {
  DecisionKind, GamePhase, GameResultSchema, Step, ViewSchema, type View,
} from "../src/gen/protocol/v1/game_pb";
import { MatchPhase, MatchStateSchema, ReplayStatusSchema, Role } from "../src/gen/protocol/v1/messages_pb";
import { viewHash } from "../src/viewhash";
import { installFakeSocket, signedIn, type FakeSocket } from "./fakes";

function view(over = false, viewer = 0): View {
  const v = create(ViewSchema, {
    viewer,
    header: { turn: 2, activeSeat: 0, step: Step.PRECOMBAT_MAIN, prioritySeat: 0,
      phase: GamePhase.PLAYING, pending: { seat: 0, kind: DecisionKind.PRIORITY, promptId: 3n } },
    players: [{ seat: 0, name: "Ann#0001", life: 20, libraryCount: 50, handCount: 3 },
      { seat: 1, name: "Bob#0002", life: 20, libraryCount: 50, handCount: 7 }],
  });
  if (over) {
    v.header!.pending = undefined;
    v.header!.result = create(GameResultSchema, { winners: [0], reason: "Bob#0002 conceded" });
  }
  return v;
}

function snapshot(ws: FakeSocket, roomId: string, v: View, stateId = 5n): void {
  ws.deliver({ body: { case: "snapshot", value: { roomId, stateId, view: v, viewHash: viewHash(v) } } });
}

function joined(ws: FakeSocket, roomId: string, bestOf = 1, name = "friends"): void {
  ws.deliver({ body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
    room: { roomId, name, seats: 2, started: true, bestOf } } } });
}

const matchState = (fields: Parameters<typeof create<typeof MatchStateSchema>>[1]) =>
  ({ body: { case: "matchState" as const, value: create(MatchStateSchema, fields) } });

test("Cancel (601.2i) is never numbered: the keys skip it, C and Escape take the cast back", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    joined(ws, "r");
    snapshot(ws, "r", view());
    // Paying for a spell: two options and Cancel, which had key 3.
    ws.deliver({ body: { case: "decision", value: { roomId: "r", promptId: 4n, seat: 0,
      kind: DecisionKind.PAY_MANA, stateId: 5n, options: [
        { kind: { case: "payAutomatically", value: {} } },
        { kind: { case: "cancelCast", value: {} } },
        { kind: { case: "activateManaAbility", value: { objectId: "l1", mana: "R" } } }] } } });
    const keys = app.shownOptions.map((s) => [s.index, s.key]);
    assert.deepEqual(keys, [[0, 1], [1, null], [2, 2]]);
    const acts = () => ws.sent.filter((m) => m.body.case === "act").length;
    assert.equal(app.actKey(3), false, "no key 3: it was Cancel's");
    assert.equal(acts(), 0);
    // C takes it back, a selection or not (Escape clears a selection first).
    app.select({ kind: "object", id: "l1" });
    assert.equal(app.cancelCast(), true);
    assert.deepEqual([ws.last("act").promptId, ws.last("act").optionIndex], [4n, 1]);
    assert.equal(app.cancelCast(), false, "sent: not again");
  } finally { restore(); }
});

test("leaving a match in play or between games says the match was conceded (104.3a)", () => {
  for (const phase of [MatchPhase.PLAYING, MatchPhase.SIDEBOARDING]) {
    const restore = installFakeSocket();
    try {
      const { app, ws } = signedIn();
      joined(ws, "m", 3);
      snapshot(ws, "m", view(phase === MatchPhase.SIDEBOARDING));
      ws.deliver(matchState({ roomId: "m", bestOf: 3, gameNumber: phase === MatchPhase.PLAYING ? 1 : 2,
        wins: [phase === MatchPhase.PLAYING ? 0 : 1, 0], phase, winner: -1 }));
      app.leaveRoom();
      assert.equal(app.notice, "You left the match: you conceded it.");
    } finally { restore(); }
  }
  // A single game: the game; a match over: nothing conceded.
  let restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    joined(ws, "g");
    snapshot(ws, "g", view());
    app.leaveRoom();
    assert.equal(app.notice, "You left the game: you conceded.");
  } finally { restore(); }
  restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    joined(ws, "m", 3);
    snapshot(ws, "m", view(true));
    ws.deliver(matchState({ roomId: "m", bestOf: 3, gameNumber: 2, wins: [2, 0],
      phase: MatchPhase.OVER, winner: 0 }));
    app.leaveRoom();
    assert.equal(app.notice, "You left the room.");
  } finally { restore(); }
});

test("a rematch of a match: its log starts with the rematch, then game 1's line", () => {
  const restore = installFakeSocket();
  try {
    const { app, ws } = signedIn();
    joined(ws, "m", 3);
    snapshot(ws, "m", view(true));
    ws.deliver(matchState({ roomId: "m", bestOf: 3, gameNumber: 2, wins: [2, 0],
      phase: MatchPhase.OVER, winner: 0 }));
    ws.deliver({ body: { case: "rematchStarted", value: { oldRoomId: "m", newRoomId: "m2", inviteCode: "" } } });
    joined(ws, "m2", 3);
    // The snapshot first, then the match's state (as the server sends them).
    snapshot(ws, "m2", view(), 1n);
    ws.deliver(matchState({ roomId: "m2", bestOf: 3, gameNumber: 1, wins: [0, 0],
      phase: MatchPhase.PLAYING, winner: -1 }));
    assert.equal(app.log[0], "— Rematch of “friends”: a new game —");
    assert.match(app.log[1] ?? "", /^— Game 1 of 3 /);
  } finally { restore(); }
});

function replayStatus(roomId: string) {
  return create(ReplayStatusSchema, { roomId, viewer: -1, action: 0n, actions: 10n, turn: 1,
    turns: 3, stateId: 1n, speed: 5 });
}

test("a replay of each game of a match is labelled: Game 1 of 3, Game 2 of 3", () => {
  for (const [id, line] of [["m", "— Game 1 of 3 —"], ["m.2", "— Game 2 of 3 —"]] as const) {
    const restore = installFakeSocket();
    try {
      const { app, ws } = signedIn();
      ws.deliver({ body: { case: "roomList", value: { rooms: [{ roomId: "m", name: "bo3", seats: 2,
        started: true, finished: true, bestOf: 3, gameNumber: 2, wins: [2, 0] }] } } });
      app.openReplay({ roomId: id, code: "" });
      ws.deliver({ requestId: ws.last("replay").requestId, body: { case: "replayStatus",
        value: replayStatus(id) } });
      assert.deepEqual(app.log, [line]);
    } finally { restore(); }
  }
  // Not known to be a match (a pasted link): game 2 still says it is one; game 1 nothing.
  for (const [id, log] of [["x", []], ["x.2", ["— Game 2 of the match —"]]] as const) {
    const restore = installFakeSocket();
    try {
      const { app, ws } = signedIn();
      app.openReplay({ roomId: id, code: "" });
      ws.deliver({ requestId: ws.last("replay").requestId, body: { case: "replayStatus",
        value: replayStatus(id) } });
      assert.deepEqual(app.log, log);
    } finally { restore(); }
  }
});
