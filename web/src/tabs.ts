/**
 * Telling a duplicated tab from a reloaded one. A browser's "Duplicate tab" copies the tab's
 * sessionStorage, the resume token with it (storage.ts): the copy resumed the session and
 * took the first tab's seat over (4001: "taken over by another tab"), as a reload does --
 * the page alone can't tell the two apart. Each tab has an id in sessionStorage (copied too),
 * and every page answers on a BroadcastChannel when asked whether it holds its id. A page
 * loading with a resume token asks first: a reload finds nobody (the page it replaces is
 * gone), a duplicate finds the original alive -- and takes a new id, leaves the copied token
 * alone and says Hello for replays only (app.ts), asking the player before it takes the
 * seat over. BroadcastChannel, not Web Locks: a server served over plain HTTP (another
 * machine on the LAN) is no secure context, where `navigator.locks` is missing.
 */

/** A message channel shared by this origin's pages (BroadcastChannel, or a test's fake). */
export interface TabChannel {
  postMessage(message: unknown): void;
  onmessage: ((ev: { data: unknown }) => void) | null;
  close(): void;
}

/** How long a page waits for the tab it may be a copy of to answer, in milliseconds: an open
 * page answers in a few (a background tab's messages are not throttled as its timers are). */
export const ASK_MS = 300;

const CHANNEL = "manawire.tabs";
const TAB_ID = "manawire.tabId";

interface Ask { ask: string }
interface Here { here: string }

/** A BroadcastChannel as a {@link TabChannel}. */
function broadcast(name: string): TabChannel {
  const bc = new BroadcastChannel(name);
  const channel: TabChannel = { postMessage: (m) => bc.postMessage(m), onmessage: null, close: () => bc.close() };
  bc.onmessage = (ev) => channel.onmessage?.({ data: ev.data });
  return channel;
}

function newId(): string {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** This tab's id (kept in sessionStorage), answering other pages that ask for it. */
export class TabGuard {
  private id: string;

  constructor(private readonly channel: TabChannel | null, private readonly store: Storage | undefined) {
    let id = "";
    try { id = store?.getItem(TAB_ID) ?? ""; } catch { /* storage disabled */ }
    this.id = id || this.renew();
    if (channel) {
      channel.onmessage = (ev) => {
        const m = ev.data as Partial<Ask> | null;
        if (m && typeof m.ask === "string" && m.ask === this.id) channel.postMessage({ here: this.id } satisfies Here);
      };
    }
  }

  /** The guard of this page: a BroadcastChannel, closed as the page goes away (a reload's
   * new page mustn't hear the old one answer). */
  static forPage(): TabGuard {
    const channel = typeof BroadcastChannel === "undefined" ? null : broadcast(CHANNEL);
    const store = typeof sessionStorage === "undefined" ? undefined : sessionStorage;
    const guard = new TabGuard(channel, store);
    if (channel && typeof addEventListener === "function") {
      addEventListener("pagehide", (ev) => { if (!(ev as PageTransitionEvent).persisted) guard.close(); });
    }
    return guard;
  }

  get tabId(): string { return this.id; }

  /** Whether another open page holds this tab's id -- this page is a copy of it (a
   * duplicated tab) -- asked on the channel, waiting `ms` for an answer. If so this tab
   * takes an id of its own. False at once without a channel (as before: a reload). */
  copyOfAnother(ms = ASK_MS): Promise<boolean> {
    const channel = this.channel;
    if (channel === null) return Promise.resolve(false);
    const asked = this.id;
    return new Promise((resolve) => {
      let done = false;
      const answer = channel.onmessage;
      const finish = (copy: boolean) => {
        if (done) return;
        done = true;
        channel.onmessage = answer;
        clearTimeout(timer);
        if (copy) this.renew();
        resolve(copy);
      };
      channel.onmessage = (ev) => {
        const m = ev.data as Partial<Here> | null;
        if (m && m.here === asked) finish(true);
        else answer?.(ev);
      };
      const timer = setTimeout(() => finish(false), ms);
      channel.postMessage({ ask: asked } satisfies Ask);
    });
  }

  /** Stop answering (the page is going away). */
  close(): void {
    if (this.channel) {
      this.channel.onmessage = null;
      this.channel.close();
    }
  }

  private renew(): string {
    this.id = newId();
    try { this.store?.setItem(TAB_ID, this.id); } catch { /* storage disabled */ }
    return this.id;
  }
}
