/** A duplicated tab told from a reload (web/src/tabs.ts): "Duplicate tab" copies the tab's
 * sessionStorage, the resume token with it, and the copy resumed -- taking the first tab's
 * seat over (4001) as a reload would. Now the copy finds the first tab alive, says Hello for
 * replays only, and asks before it takes the seat. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { App } from "../src/app";
import { TabGuard, type TabChannel } from "../src/tabs";
import { FakeSocket, installFakeSocket } from "./fakes";

/** BroadcastChannel's stand-in: a message reaches every other open channel, later. */
class Hub {
  private readonly open = new Set<TabChannel>();
  channel(): TabChannel {
    const hub = this;
    const ch: TabChannel = {
      onmessage: null,
      postMessage(message: unknown) {
        for (const other of hub.open) {
          if (other !== ch) setTimeout(() => { if (hub.open.has(other)) other.onmessage?.({ data: message }); }, 1);
        }
      },
      close() { hub.open.delete(ch); },
    };
    this.open.add(ch);
    return ch;
  }
}

/** A tab's sessionStorage (a Map), or a copy of one (a duplicated tab's). */
function storage(from?: Map<string, string>): Storage & { map: Map<string, string> } {
  const map = new Map(from ?? []);
  return { map, getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => { map.set(k, v); },
    removeItem: (k: string) => { map.delete(k); } } as unknown as Storage & { map: Map<string, string> };
}

test("a reload finds no tab holding its id; a duplicate finds the first tab and takes an id of its own", async () => {
  const hub = new Hub();
  const first = storage();
  const page = new TabGuard(hub.channel(), first);
  const id = page.tabId;
  assert.equal(first.map.get("manawire.tabId"), id);
  // Duplicated: the copy's storage holds the same id, and the first tab answers for it.
  const copied = storage(first.map);
  const copy = new TabGuard(hub.channel(), copied);
  assert.equal(copy.tabId, id);
  assert.equal(await copy.copyOfAnother(200), true);
  assert.notEqual(copy.tabId, id);
  assert.equal(copied.map.get("manawire.tabId"), copy.tabId);
  assert.equal(first.map.get("manawire.tabId"), id, "the first tab's untouched");
  // Each now answers for its own id only: a reload of either finds nobody else.
  page.close();
  const reloaded = new TabGuard(hub.channel(), first);
  assert.equal(reloaded.tabId, id);
  assert.equal(await reloaded.copyOfAnother(50), false);
  assert.equal(reloaded.tabId, id, "a reload keeps its id");
  const copyReloaded = new TabGuard(hub.channel(), storage(copied.map));
  copy.close();
  assert.equal(await copyReloaded.copyOfAnother(50), false);
  // No BroadcastChannel: as before, never a copy.
  assert.equal(await new TabGuard(null, storage(first.map)).copyOfAnother(50), false);
  reloaded.close();
  copyReloaded.close();
});

/** The globals a page's App reads its tokens from: the browser's (localStorage, shared by
 * the tabs) and this tab's (sessionStorage). */
function installStorage(session: Storage): { local: Map<string, string>; restore: () => void } {
  const local = storage(new Map([["manawire.accountToken", "t1"]]));
  const g = globalThis as { localStorage?: unknown; sessionStorage?: unknown };
  g.localStorage = local;
  g.sessionStorage = session;
  return { local: local.map, restore: () => { delete g.localStorage; delete g.sessionStorage; } };
}

test("a duplicated tab says Hello for replays only, never resumes the first tab's session, and asks before taking the seat", async () => {
  const restore = installFakeSocket();
  const hub = new Hub();
  const first = storage(new Map([["manawire.resumeToken", "r1"]]));
  const original = new TabGuard(hub.channel(), first); // the first tab, open and seated
  const copied = storage(first.map);
  const { restore: unstore } = installStorage(copied);
  try {
    const app = new App("ws://server/", "http://server/", null, new TabGuard(hub.channel(), copied));
    app.start();
    assert.equal(FakeSocket.all.length, 0, "nothing sent before the first tab could answer");
    await new Promise((r) => setTimeout(r, 50));
    const ws = FakeSocket.all.at(-1)!;
    ws.open();
    const hello = ws.last("hello");
    assert.equal(hello.accountToken, "t1");
    assert.equal(hello.replaysOnly, true);
    assert.ok(!ws.sent.some((m) => m.body.case === "resume"), "the copied resume token is never used");
    assert.equal(copied.map.get("manawire.resumeToken"), undefined);
    assert.equal(first.map.get("manawire.resumeToken"), "r1", "the first tab's own is untouched");
    assert.equal(app.copiedTab, true);
    assert.match(app.notice, /copy of another tab that holds your seat/);
    ws.deliver({ requestId: hello.requestId, body: { case: "welcome", value: {
      account: { accountId: "a", name: "Ann#0001" } } } });
    assert.equal(app.side, true);
    assert.match(app.notice, /copy of another tab/);
    // The player chooses to play here: an ordinary Hello, which takes the session over.
    app.takeSeatHere();
    const here = FakeSocket.all.at(-1)!;
    assert.notEqual(here, ws);
    here.open();
    assert.equal(here.last("hello").replaysOnly, false);
    assert.equal(app.copiedTab, false);
    assert.equal(app.side, false);
  } finally { restore(); unstore(); original.close(); }
});

test("a reloaded tab resumes its session once no other tab claims it", async () => {
  const restore = installFakeSocket();
  const hub = new Hub();
  const session = storage(new Map([["manawire.resumeToken", "r1"], ["manawire.tabId", "abc"]]));
  const other = new TabGuard(hub.channel(), storage(new Map([["manawire.tabId", "xyz"]]))); // another tab
  const { restore: unstore } = installStorage(session);
  try {
    const app = new App("ws://server/", "http://server/", null, new TabGuard(hub.channel(), session));
    app.start();
    await new Promise((r) => setTimeout(r, 400));
    const ws = FakeSocket.all.at(-1)!;
    ws.open();
    assert.equal(ws.last("resume").resumeToken, "r1");
    assert.equal(app.copiedTab, false);
  } finally { restore(); unstore(); other.close(); }
});
