/** What a browser keeps for an account (web/src/storage.ts) is shown to that account only,
 * and goes when it signs out: the kept game log (this tab's, put back after a reload only in
 * the same account's same view), the invite links this tab created, the deck list last
 * played with and the guest's display name. A shared browser's duplicated tab, signed out
 * and in as another account, showed the first one's log (its own draws and looks), and the
 * next account's deck box held the last one's list. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { App } from "../src/app";
import { GamePhase, Step, ViewSchema, type View } from "../src/gen/protocol/v1/game_pb";
import { MatchPhase, Role } from "../src/gen/protocol/v1/messages_pb";
import { viewHash } from "../src/viewhash";
import { FakeSocket, installFakeSocket } from "./fakes";

class MapStorage {
  constructor(readonly map = new Map<string, string>()) {}
  getItem(k: string): string | null { return this.map.get(k) ?? null; }
  setItem(k: string, v: string): void { this.map.set(k, v); }
  removeItem(k: string): void { this.map.delete(k); }
}

/** The browser's localStorage and this tab's sessionStorage (a duplicated tab: a copy). */
function browser(): { local: MapStorage; tab: (session?: MapStorage) => MapStorage; restore: () => void } {
  const g = globalThis as { localStorage?: unknown; sessionStorage?: unknown };
  const local = new MapStorage();
  g.localStorage = local;
  return { local,
    tab: (session = new MapStorage()) => { g.sessionStorage = session; return session; },
    restore: () => { delete g.localStorage; delete g.sessionStorage; } };
}

function view(viewer: number): View {
  return create(ViewSchema, {
    viewer,
    header: { turn: 1, activeSeat: 0, step: Step.PRECOMBAT_MAIN, phase: GamePhase.PLAYING },
    players: [{ seat: 0, name: "Ann#0001", life: 20, libraryCount: 53, handCount: 7 },
      { seat: 1, name: "Bob#0002", life: 20, libraryCount: 53, handCount: 7 }],
  });
}

const drew = (seat: number) => ({ kind: { case: "cardDrawn" as const, value: { seat } } });

/** A page signed in as `name` (account `id`) in room r: seat `seat`, or watching (-1). */
function page(id: string, name: string, seat: number): { app: App; ws: FakeSocket } {
  const app = new App("ws://server/", "http://server/", null);
  app.signInGuest(name.replace(/#.*/, ""));
  const ws = FakeSocket.all.at(-1)!;
  ws.open();
  ws.deliver({ requestId: ws.last("hello").requestId, body: { case: "welcome", value: {
    resumeToken: `r-${id}`, accountToken: `t-${id}`, account: { accountId: id, name } } } });
  ws.deliver({ body: { case: "joined", value: { role: seat < 0 ? Role.SPECTATOR : Role.PLAYER,
    seat, room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
  const v = view(seat);
  ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: v,
    viewHash: viewHash(v), recentEvents: [drew(0)] } } });
  return { app, ws };
}

/** What the page keeps as it goes (its pagehide). */
const keep = (app: App) => (app as unknown as { keepLog(): void }).keepLog();

test("a kept game log comes back to the same account in the same seat only, never to another account or view", () => {
  const restore = installFakeSocket();
  const b = browser();
  try {
    const tab1 = b.tab();
    const ann = page("a", "Ann#0001", 0).app;
    ann.log.push("You look at: Shock"); // (a line only Ann's view had)
    keep(ann);
    assert.ok(tab1.map.has("manawire.gameLog"));
    // A reload of tab 1: Ann, seat 0 again -- her log, then the mark.
    const again = page("a", "Ann#0001", 0).app;
    assert.deepEqual(again.log.slice(0, 3), ["You drew a card", "You look at: Shock", "(reconnected)"]);
    // A duplicate of tab 1 (its sessionStorage copied) signed in as Carol, watching room r:
    // the spectators' lines only, none of Ann's.
    b.tab(new MapStorage(new Map(tab1.map)));
    const carol = page("c", "Carol#0003", -1).app;
    assert.deepEqual(carol.log, ["Ann#0001 drew a card"]);
    // Ann herself watching where she played (another view): not her player's log either.
    b.tab(new MapStorage(new Map(tab1.map)));
    assert.deepEqual(page("a", "Ann#0001", -1).app.log, ["Ann#0001 drew a card"]);
    // Nor in another seat of it.
    b.tab(new MapStorage(new Map(tab1.map)));
    assert.deepEqual(page("a", "Ann#0001", 1).app.log, ["Ann#0001 drew a card"]);
  } finally { restore(); b.restore(); }
});

test("signing out forgets the kept log, the tab's invite links, the deck list and the guest's name", () => {
  const restore = installFakeSocket();
  const b = browser();
  try {
    const tab = b.tab();
    const app = new App("ws://server/", "http://server/", null);
    app.signInGuest("Ann");
    const ws = FakeSocket.all.at(-1)!;
    ws.open();
    ws.deliver({ requestId: ws.last("hello").requestId, body: { case: "welcome", value: {
      resumeToken: "r1", accountToken: "t1", account: { accountId: "a", name: "Ann#0001" } } } });
    const deck = "# Ann's sideboard plan\n20 Mountain\n20 Forest\n";
    app.createRoom({ name: "friday", seats: 2, clockMinutes: 30, private: true, spectate: "",
      format: "constructed", tier: null }, deck);
    const id = ws.last("createRoom").requestId;
    ws.deliver({ requestId: id, body: { case: "roomCreated", value: { inviteCode: "sesame",
      room: { roomId: "r", name: "friday", seats: 2 } } } });
    ws.deliver({ requestId: id, body: { case: "joined", value: { role: Role.PLAYER, seat: 0,
      room: { roomId: "r", name: "friday", seats: 2, started: true } } } });
    const v = view(0);
    ws.deliver({ body: { case: "snapshot", value: { roomId: "r", stateId: 5n, view: v,
      viewHash: viewHash(v), recentEvents: [drew(0)] } } });
    keep(app);
    assert.equal(app.keptDeck, deck);
    assert.ok(tab.map.has("manawire.invites") && tab.map.has("manawire.gameLog"));
    assert.equal(b.local.getItem("manawire.displayName"), "Ann");
    // Back in the lobby (leaving forgets the log; a duplicated tab has its copy still).
    const kept = tab.getItem("manawire.gameLog") ?? "";
    app.leaveRoom();
    tab.setItem("manawire.gameLog", kept);
    app.signOut();
    assert.equal(app.status, "signed-out");
    assert.deepEqual([...tab.map.keys()].filter((k) => k !== "manawire.resumeToken"), []);
    assert.equal(b.local.getItem("manawire.deck"), null);
    assert.equal(b.local.getItem("manawire.displayName"), null);
    assert.equal(b.local.getItem("manawire.accountToken"), null);
  } finally { restore(); b.restore(); }
});

test("a deck list and an invite link kept by one account are never another's", () => {
  const restore = installFakeSocket();
  const b = browser();
  try {
    const tab = b.tab();
    // Ann's list and invite link, kept by her tab (another tab of this browser, still
    // signed in, may keep them after a sign-out here).
    b.local.setItem("manawire.deck", JSON.stringify({ account: "a", text: "4 Shock\n" }));
    tab.setItem("manawire.invites", JSON.stringify({ "a r": "http://server/#join=r&code=sesame" }));
    const carol = page("c", "Carol#0003", 1).app;
    assert.equal(carol.keptDeck, "");
    assert.deepEqual(carol.roomInviteLinks(), []);
    const ann = page("a", "Ann#0001", 0).app;
    assert.equal(ann.keptDeck, "4 Shock\n");
    assert.deepEqual(ann.roomInviteLinks().map((l) => l.link), ["http://server/#join=r&code=sesame"]);
    // A list kept before lists had an account (a bare list) is nobody's.
    b.local.setItem("manawire.deck", "4 Shock\n");
    assert.equal(ann.keptDeck, "");
  } finally { restore(); b.restore(); }
});

test("a match's game line is not said twice after a reload (the kept log has it; the match's state comes after the snapshot)", () => {
  const restore = installFakeSocket();
  const b = browser();
  try {
    b.tab();
    const match = { roomId: "r", bestOf: 3, gameNumber: 1, phase: MatchPhase.PLAYING, wins: [0, 0] };
    const first = page("a", "Ann#0001", 0);
    first.ws.deliver({ body: { case: "matchState", value: match } });
    assert.match(first.app.log[0]!, /^— Game 1 of 3 /);
    keep(first.app);
    const again = page("a", "Ann#0001", 0);
    again.ws.deliver({ body: { case: "matchState", value: match } });
    assert.equal(again.app.log.filter((l) => l.startsWith("— Game 1 of 3")).length, 1);
    assert.equal(again.app.log.at(-1), "(reconnected)");
  } finally { restore(); b.restore(); }
});
