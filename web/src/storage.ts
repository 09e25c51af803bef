/**
 * What the browser keeps between page loads. The account token (long-lived, the account's
 * secret) is kept in localStorage, so the same browser is the same account; the resume
 * token (rotated on every Welcome/Resumed) in sessionStorage, per tab, so reloading a tab
 * resumes exactly that tab's seat (protocol/README.md, "Dropping and resuming"). Neither is
 * ever put in a URL or logged.
 */

const ACCOUNT_TOKEN = "manawire.accountToken";
const RESUME_TOKEN = "manawire.resumeToken";
const DISPLAY_NAME = "manawire.displayName";
const STOPS = "manawire.stops";
/** The room ids whose invite links this browser created, with the links (per tab), each
 * under the account that created it ("account room"). */
const INVITES = "manawire.invites";
/** The deck list last used to take a seat (per browser), with the account it is whose: put
 * back in the deck box for that account only. */
const DECK = "manawire.deck";
/** The game log this tab showed, kept across a reload of the same game (per tab). */
const GAME_LOG = "manawire.gameLog";

/** A game's log as this tab showed it: only what this viewer already saw. */
export interface KeptLog {
  /** Room id and game number ("room:2"): kept lines are put back only in that game. */
  game: string;
  /** Whose view it is -- the account, and its role, seat and tier in the room
   * ("account|role|seat|tier"): put back only for that same view. A duplicated tab (its
   * sessionStorage copied) signed in as another account, or the account watching where it
   * played, showed the lines of a view it never had (a player's own draws and looks). */
  viewer: string;
  lines: string[];
  /** Lines dropped before `lines[0]` (the log's numbering). */
  dropped: number;
  /** The last event line told (where a snapshot's recent events continue from). */
  lastTold: string;
}

function get(store: Storage | undefined, key: string): string {
  try { return store?.getItem(key) ?? ""; } catch { return ""; }
}

function put(store: Storage | undefined, key: string, value: string): void {
  try {
    if (value) store?.setItem(key, value); else store?.removeItem(key);
  } catch { /* storage disabled: the session lasts as long as the page */ }
}

const local = (): Storage | undefined => (typeof localStorage === "undefined" ? undefined : localStorage);
const session = (): Storage | undefined => (typeof sessionStorage === "undefined" ? undefined : sessionStorage);

export const saved = {
  get accountToken(): string { return get(local(), ACCOUNT_TOKEN); },
  set accountToken(v: string) { put(local(), ACCOUNT_TOKEN, v); },
  get resumeToken(): string { return get(session(), RESUME_TOKEN); },
  set resumeToken(v: string) { put(session(), RESUME_TOKEN, v); },
  get displayName(): string { return get(local(), DISPLAY_NAME); },
  set displayName(v: string) { put(local(), DISPLAY_NAME, v); },
  /** When the client stops for priority (stops.ts): "auto" (default) or "all". */
  get stops(): string { return get(local(), STOPS); },
  set stops(v: string) { put(local(), STOPS, v); },
  /** The invite link of a room this tab created ("" if none): the server keeps only the
   * code's hash, so the creator's page is the only place to find it again. */
  invite(account: string, roomId: string): string {
    if (!account) return "";
    try {
      const link = (JSON.parse(get(session(), INVITES) || "{}") as Record<string, unknown>)[`${account} ${roomId}`];
      return typeof link === "string" ? link : "";
    } catch { return ""; }
  },
  /** The audience code of a room this tab created ("" if none kept: a room made before rooms
   * had one), which its watch links carry. */
  audience(account: string, roomId: string): string {
    if (!account) return "";
    try {
      const code = (JSON.parse(get(session(), INVITES) || "{}") as Record<string, unknown>)[`${account} ${roomId} audience`];
      return typeof code === "string" ? code : "";
    } catch { return ""; }
  },
  setInvite(account: string, roomId: string, link: string, audience = ""): void {
    if (!account) return;
    let all: Record<string, string> = {};
    try { all = JSON.parse(get(session(), INVITES) || "{}") as Record<string, string>; } catch { /* a new map */ }
    all[`${account} ${roomId}`] = link;
    if (audience) all[`${account} ${roomId} audience`] = audience;
    const keys = Object.keys(all); // the last few rooms only
    for (const k of keys.slice(0, Math.max(0, keys.length - 40))) delete all[k];
    put(session(), INVITES, JSON.stringify(all));
  },
  /** The deck list `account` last used to take a seat ("" if none, or another account's). */
  deck(account: string): string {
    if (!account) return "";
    try {
      const kept = JSON.parse(get(local(), DECK) || "null") as { account?: unknown; text?: unknown } | null;
      return kept !== null && kept.account === account && typeof kept.text === "string" ? kept.text : "";
    } catch { return ""; } // (a bare list, kept before lists had an account: nobody's)
  },
  setDeck(account: string, text: string): void {
    put(local(), DECK, account && text ? JSON.stringify({ account, text }) : "");
  },
  /** Sign out: forget what this browser keeps for the account -- its deck list, its display
   * name (`name`, a guest's "Ann#1234": the "Ann" kept, if that), and this tab's kept log
   * and invite links -- so the next one to sign in here sees none of it. The stops setting
   * (no secret) stays. */
  forgetAccount(name: string): void {
    put(local(), DECK, "");
    const display = get(local(), DISPLAY_NAME);
    if (display && (name === display || name.startsWith(`${display}#`))) put(local(), DISPLAY_NAME, "");
    put(session(), GAME_LOG, "");
    put(session(), INVITES, "");
  },
  /** This tab's kept log of `game` as `viewer` saw it, or null (none, another game's or
   * view's, or unreadable). */
  gameLog(game: string, viewer: string): KeptLog | null {
    try {
      const kept = JSON.parse(get(session(), GAME_LOG) || "null") as KeptLog | null;
      if (kept === null || !game || !viewer || kept.game !== game || kept.viewer !== viewer
          || !Array.isArray(kept.lines)) return null;
      return { game, viewer, lines: kept.lines.filter((l) => typeof l === "string"),
        dropped: Number(kept.dropped) || 0, lastTold: String(kept.lastTold ?? "") };
    } catch { return null; }
  },
  /** Keep this tab's log (the last `max` lines), or forget it (null). */
  setGameLog(kept: KeptLog | null, max = 2000): void {
    if (kept === null) { put(session(), GAME_LOG, ""); return; }
    const cut = Math.max(0, kept.lines.length - max);
    put(session(), GAME_LOG, JSON.stringify({ ...kept, lines: kept.lines.slice(cut),
      dropped: kept.dropped + cut }));
  },
};
