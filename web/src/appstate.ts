/**
 * The browser client's state (app.ts's {@link App} is built of layers, each a module, this
 * one the first): everything the page knows -- account, lobby, room, the mirrored view,
 * decision, log, match, rematch, replay, connection -- as the fields of {@link AppState},
 * with what every layer above uses: the names of players and objects (describe.ts's Names),
 * sending a request, leaving a room's state behind, asking for a snapshot when the view is
 * out of step. The layers: applog.ts (the game log), applobby.ts (signing in, the lobby, the
 * socket's life), appmatch.ts (a match's score and sideboarding, results, the rematch),
 * appplay.ts (the decision, its options and the passes made for the player), appreplay.ts
 * (replays) and app.ts (the server's messages).
 */
import {
  type Account, type MatchQueue, type MatchState, type RematchOffers, type RematchStarted,
  type RoomInfo, type ServerMessage, type Role, MatchPhase,
} from "./gen/protocol/v1/messages_pb";
import type { Decision, GameEvent, GameObject } from "./gen/protocol/v1/game_pb";
import { Connection, type ClientBody } from "./connection";
import type { DeckProblem } from "./deck";
import { type Names, waitingTrigger } from "./describe";
import type { Invite } from "./links";
import { Mirror, MirrorDesyncError } from "./mirror";
import type { Replay, ReplayTarget } from "./replay";
import { saved } from "./storage";
import { STOP_SETTINGS, type StopSetting } from "./stops";
import type { TabGuard } from "./tabs";

export type Status = "signed-out" | "connecting" | "connected" | "reconnecting" | "offline" | "replaced";

/** Reconnection backoff (ms): first delay, factor, longest delay; give up after this long. */
export const BACKOFF_FIRST = 250, BACKOFF_FACTOR = 2, BACKOFF_MAX = 5000, RECONNECT_FOR = 120_000;
/** Event-log lines kept: a whole long game (the oldest go past this, numbering kept). */
export const LOG_LINES = 2000;
/** Milliseconds between two snapshot requests. */
const SNAPSHOT_SPACING = 1000;
/** Objects remembered after they left the view, to name them in events. */
const SEEN_OBJECTS = 2000;

export interface ClockView { remainingMs: number; running: boolean; at: number }

/** What a request was, to know what its Error is about. */
export type RequestKind = "hello" | "resume" | "register" | "list" | "create" | "create-join" | "join" | "rewatch"
  | "quick" | "cancel-quick" | "leave" | "act" | "snapshot" | "concede" | "deck"
  | "replay" | "replay-control" | "replay-stop" | "explain" | "rematch";

/** How to say hello on the next open socket. */
export type Greeting =
  | { kind: "guest"; name: string }
  | { kind: "login"; name: string; password: string }
  | { kind: "token" }
  | { kind: "resume" };

export abstract class AppState implements Names {
  status: Status = "signed-out";
  /** Signed out because the server couldn't be reached (not: never signed in, signed out). */
  unreachable = false;
  account: Account | null = null;
  rooms: RoomInfo[] = [];
  /** The room this client created last, with its invite link (only the creator has it), and
   * whether the creator took a seat in it (else it hosts it for others). Forgotten once the
   * room closes, or once a creator who played in it is no longer in it (left, or the room
   * lost after a server restart): its link sent to a friend said "no room". */
  created: { room: RoomInfo; code: string; link: string; plays: boolean;
    /** Its audience code: the watch links' ("" or absent: none known). */
    audience?: string } | null = null;
  room: { info: RoomInfo; role: Role; seat: number; tier: number } | null = null;
  queue: MatchQueue | null = null;
  mirror = new Mirror();
  decision: Decision | null = null;
  /** The prompt an Act was sent for (its buttons are disabled until something changes). */
  sentPrompt: bigint | null = null;
  clocks = new Map<number, ClockView>();
  presence = new Map<number, boolean>();
  /** A match of several games: its latest state, and when it came (Date.now()). */
  match: MatchState | null = null;
  matchAt = 0;
  /** Who offers a rematch of the room's finished game (match), as the server last said
   * (protocol/README.md, "Rematch"); `cancelled` not empty: none can be had. Null: no word. */
  rematch: RematchOffers | null = null;
  /** The rematch of the room this client is in started (where, if it may be told): a
   * player's Joined into it follows; a spectator may go and watch it. */
  rematchStarted: RematchStarted | null = null;
  /** This player's offer (or taking back) is on its way (its button waits for the answer). */
  rematchSent = false;
  /** Why this player's offer was refused ("" none). */
  rematchRefused = "";
  /** The players whose offer of a rematch the log said (once each: taking it back and
   * offering again, a toggle, is not said again). */
  protected readonly rematchLogged = new Set<number>();
  /** The line the rematch's new log begins with, once its snapshot comes. */
  protected rematchLine = "";
  /** The game number this player's deck answer was accepted for; whether one is on its way. */
  protected deckFor = 0;
  deckSent = false;
  log: string[] = [];
  /** Lines dropped from the start of the log past {@link LOG_LINES}: `log[0]` is line
   * `logDropped + 1` of the game's log. */
  logDropped = 0;
  /** Counts changes to the log (a view of it is built again only when it changed). */
  logChanges = 0;
  /** The objects in view before the last delta (see {@link objects}). */
  protected before: GameObject[] = [];
  /** What the last delta applied changed of creatures' power and toughness, in words. */
  /** The turn the log last said began (a marker line), or the snapshot's. */
  protected turnTold = 0;
  /** Seats whose keep-or-mulligan declaration of the round going on was answered (103.5). */
  protected readonly declared = new Set<number>();
  /** The last game event's line logged (from a delta or a snapshot). */
  protected lastTold = "";
  /** The blockers' declaration the client answered itself, none being able to block. */
  protected noBlockersSaid = -1n;
  /** The pending write of the kept game log (keepLogSoon). */
  protected keepTimer: ReturnType<typeof setTimeout> | null = null;
  error = "";
  notice = "";
  deckProblems: DeckProblem[] = [];
  /** The error that said the deck was refused (shown beside its problems), if it stands. */
  deckRefusal = "";
  /** The deck this player took the seat with, in words ("" before a seat is taken). */
  deckWords = "";
  /** A word about the pending decision from the last click (a block left unfinished). */
  decisionNote = "";
  /** The prompt whose "Done: confirm blockers" was held back once (a block unfinished). */
  protected doneWarned: bigint | null = null;
  /** A card or player the viewer clicked, whose options are shown first. */
  selected: { kind: "object"; id: string } | { kind: "player"; seat: number } | null = null;
  /** The invite this page was opened with, or the room just created (pre-fills the join
   * form); `inviteChanged` counts changes. */
  invite: Invite | null;
  inviteChanged = 0;
  /** The notice {@link noteInvite} gave (renewed as the visitor signs in). */
  protected inviteNoticed = "";
  /** The finished game being replayed (protocol/README.md, "Replays"; replay.ts), shown on
   * the board as a spectator's game is (`room` then names it), or null. */
  replay: Replay | null = null;
  /** A replay to open once signed in (the page was opened with a `#replay=` link). */
  replayWanted: ReplayTarget | null = null;
  /** Another replay to open once the one shown has stopped (another game of the match, or
   * another view), and the one to open again if that is refused. */
  protected replayNext: { target: ReplayTarget; fallback: ReplayTarget | null } | null = null;
  /** Why the server is about to end the replay shown (its Error with request id 0, before
   * ReplayEnded: a full server made room for another viewer's). */
  protected replayEndWhy = "";
  /** The replay to open again if the one being opened is refused. */
  protected replayFallback: ReplayTarget | null = null;

  /** The player's last answer tapped a mana source while paying a cost (601.2g). */
  protected tappedToPay = false;
  /** When this client stops for priority (stops.ts), kept across games and page loads. */
  stops: StopSetting = STOP_SETTINGS.includes(saved.stops as StopSetting) ? saved.stops as StopSetting : "auto";
  /** Priority decisions passed for the player by {@link stops} (counted for tests). */
  autoPassed = 0;
  /** The last prompt passed so (its panel isn't shown while the answer is on its way). */
  autoPassedPrompt: bigint | null = null;
  /** The pass waiting {@link PASS_DELAY_MIN_MS}-{@link PASS_DELAY_MAX_MS} ms at a stop where
   * there is nothing to do but pass (its prompt, shown as the decision meanwhile), or null.
   * An answer of the player's, another decision or a change of the stops cancels it. */
  protected delayedPass: { promptId: bigint; timer: ReturnType<typeof setTimeout> } | null = null;
  /** "Pass until end of turn" (the terminal's `pp`, client_sdk/terminal_commands.py): the
   * turn it lasts for and the stack's objects when it was asked -- anything new on the stack
   * (an opponent's spell to answer, a trigger) stops it, as do the turn's end, mana in the pool
   * and any decision other than priority. Null: not passing. */
  passing: { turn: number; stack: ReadonlySet<string> } | null = null;
  /** Why passing until end of turn stopped (shown with the decision), or "". */
  passingNote = "";
  /** The decision {@link passingNote} is said with (null: the next one): a later one
   * doesn't repeat it. */
  protected passingNoteFor: bigint | null = null;
  /** When the log last said a turn began (Date.now()), and the turn whose "Pass until end
   * of turn" was held back once as it had just begun ({@link passTurn}). */
  protected turnBeganAt = 0;
  protected passHeldFor = 0;
  /** "Any order" answered the order of cards put into the graveyard at once (404.3): the
   * rest of that order is taken as listed, by itself (as the terminal's `a`). */
  protected anyOrder = false;

  onChange: () => void = () => {};

  protected readonly conn: Connection;
  protected greeting: Greeting = { kind: "token" };
  /** What the last Hello/Resume on this socket was (to read its refusal right). */
  protected greeted: Greeting["kind"] | null = null;
  /** When a snapshot was last asked for (repeated requests are spaced out). */
  private snapshotAskedAt = 0;
  protected readonly requests = new Map<bigint, RequestKind>();
  protected snapshotAsked = false;
  /** Why the viewer can't cast a card of their hand now (ExplainCard, protocol/README.md
   * "Why a card can't be cast"), by object id: "" while the answer is awaited. Asked once
   * a card for a state of the game ({@link explainedAt}): a new state asks anew. */
  readonly explained = new Map<string, string>();
  protected explainedAt = -1n;
  /** The questions of this state not answered yet: request id -> card (an answer to an
   * earlier state's question, or to another card's, is told apart by its request id). */
  protected readonly explaining = new Map<bigint, string>();
  protected reconnectDelay = BACKOFF_FIRST;
  protected reconnectSince = 0;
  protected reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  /** Why each player who lost did (PlayerLostEvent.reason), by seat. */
  protected readonly lossReasons = new Map<number, string>();
  /** Objects the viewer has seen, by id, for naming them after they left the view. */
  protected readonly seen = new Map<string, GameObject>();
  /** Names.casts (describe.ts): the spells on the stack the log saw begin to be cast, true
   * once cast -- a cast taken back is logged "You took back Shock", not as a bounce. */
  readonly casts = new Map<string, boolean>();
  /** The deck used for the current join (kept to show refused lines). */
  lastDeck = "";
  /** This player's deck as the server stored it (DeckAccepted.deck: plain text, the main
   * deck, then "Sideboard" and the sideboard), once a sideboarding answer was accepted. */
  storedDeck = "";
  /** Whether the room being created is joined as a player (in the same request). */
  protected createPlays = true;
  /** The room and invite code of the latest join (to watch again after a resume). */
  protected lastJoin = { roomId: "", code: "" };
  /** This session's latest resume token (also in sessionStorage, for a reload). */
  protected resumeToken = saved.resumeToken;
  /** The account's token (also in localStorage, so this browser stays the account). */
  protected accountToken = saved.accountToken;
  /** This tab's session is one for replays only, beside the account's own held by another
   * tab or device (Hello.replays_only, protocol/README.md "One session per account"): a
   * `#replay=` link opened in a second tab took the first tab's seat over (4001) and never
   * showed the replay (a new player's review). */
  side = false;
  /** This tab is a copy of another that holds the account's seat (a duplicated tab: its
   * sessionStorage, the resume token with it, copied; tabs.ts): it said Hello for replays
   * only instead of taking the seat over, and asks first ({@link takeSeatHere}). */
  copiedTab = false;

  /** `tabs`: this page's {@link TabGuard} (main.ts), to tell a duplicated tab from a reload
   * before resuming; none: a resume token is resumed at once. */
  constructor(private readonly wsUrl: string, protected readonly pageUrl: string, invite: Invite | null,
              protected readonly tabs: TabGuard | null = null) {
    this.invite = invite;
    // A reload keeps this tab's game log (sessionStorage): written at the latest as the page goes.
    if (typeof window !== "undefined") window.addEventListener("pagehide", () => this.keepLog());
    this.conn = new Connection(wsUrl, {
      open: () => this.greet(),
      message: (msg) => this.handle(msg),
      closed: (code, reason) => this.closed(code, reason),
    });
  }

  /** Whether the room's game (a match: the whole match) is over for this page. */
  get finishedHere(): boolean {
    const m = this.match;
    return this.mirror.ready && this.mirror.gameOver && (m === null || m.phase === MatchPhase.OVER);
  }

  // ---- Names (describe.ts)
  get viewer(): number { return this.room?.seat ?? -1; }
  /** An object of the view, or one the viewer saw earlier (an event may name an object the
   * same delta removed: a creature that died in combat), or a triggered ability waiting to
   * be put on the stack (603.3: what ordering triggers names -- it read "a card you can't
   * see" for the viewer's own creatures' triggers). */
  object(id: string): GameObject | undefined {
    return this.mirror.objects.get(id) ?? this.seen.get(id)
      ?? waitingTrigger(this.mirror.header.triggers, id);
  }
  player(seat: number): string { return this.mirror.players.get(seat)?.name || `Seat ${seat + 1}`; }
  /** The players' names (a line they begin keeps them as written: {@link logSentence}). */
  playerNames(): string[] { return [...this.mirror.players.values()].map((p) => p.name); }
  /** The objects in view, and those the last delta took out of it (its events name them:
   * two creatures of one name that died in the combat whose damage is told). */
  objects(): Iterable<GameObject> {
    const now = this.mirror.objects;
    return [...now.values(), ...this.before.filter((o) => !now.has(o.id))];
  }
  mentions(word: string): boolean {
    for (const obj of this.mirror.objects.values()) if (obj.rulesText.toLowerCase().includes(word)) return true;
    return false;
  }

  // ---- what every layer uses: requests, the room's state left behind, the view kept whole
  /** Send a request; its id (null: not connected, and the page says so). */
  protected request(kind: RequestKind, body: ClientBody): bigint | null {
    if (!this.conn.isOpen) {
      this.error = "Not connected to the server.";
      this.changed();
      return null;
    }
    const id = this.conn.send(body);
    this.requests.set(id, kind);
    if (this.requests.size > 256) { // answers that never come (pushed replies) mustn't pile up
      const oldest = this.requests.keys().next().value;
      if (oldest !== undefined) this.requests.delete(oldest);
    }
    return id;
  }

  protected changed(): void {
    this.onChange();
  }

  protected setAccountToken(token: string): void {
    this.accountToken = token;
    saved.accountToken = token;
  }

  protected setResumeToken(token: string): void {
    this.resumeToken = token;
    saved.resumeToken = token;
  }

  /** Out of the room (left it, or it is gone): a room this client created and played in is
   * forgotten with it ({@link created}). */
  protected clearRoom(): void {
    const c = this.created;
    if (c !== null && c.plays && this.room?.info.roomId === c.room.roomId) this.forgetCreated();
    this.room = null;
    this.queue = null;
    this.cancelDelayedPass();
    this.decision = null;
    this.sentPrompt = null;
    this.selected = null;
    this.decisionNote = "";
    this.deckWords = "";
    this.mirror = new Mirror();
    this.forgetExplained();
    this.clocks.clear();
    this.presence.clear();
    this.match = null;
    this.rematch = null;
    this.rematchStarted = null;
    this.rematchSent = false;
    this.rematchRefused = "";
    this.rematchLine = "";
    this.rematchLogged.clear();
    this.deckFor = 0;
    this.deckSent = false;
    this.storedDeck = "";
    this.lossReasons.clear();
    this.log = [];
    this.logDropped = 0;
    this.logChanges++;
    this.seen.clear();
    this.casts.clear();
    this.before = [];
    this.snapshotAsked = false;
    this.turnTold = 0;
    this.declared.clear();
    this.passing = null;
    this.passingNote = "";
    this.anyOrder = false;
    this.tappedToPay = false;
  }

  protected forgetCreated(): void {
    // The join form filled in with it (for a deck refused at creation) is emptied too.
    if (this.invite !== null && this.invite.roomId === this.created?.room.roomId) {
      this.invite = null;
      this.inviteChanged++;
    }
    this.created = null;
  }

  protected cancelDelayedPass(): void {
    if (this.delayedPass === null) return;
    clearTimeout(this.delayedPass.timer);
    this.delayedPass = null;
  }

  /** Forget every answer and question (a new state `at`, a new snapshot -- the next game's
   * state ids may be the last game's -- or the room left). */
  protected forgetExplained(at = -1n): void {
    this.explained.clear();
    this.explaining.clear();
    this.explainedAt = at;
  }

  /** Keep the names of the objects now in view (bounded: the oldest are forgotten). */
  protected remember(): void {
    for (const [id, obj] of this.mirror.objects) {
      this.seen.delete(id);
      this.seen.set(id, obj);
    }
    for (const id of this.seen.keys()) {
      if (this.seen.size <= SEEN_OBJECTS) break;
      this.seen.delete(id);
    }
  }

  /** A player's loss: why, to say it (the board shows only that they lost). */
  protected noteLoss(event: GameEvent): void {
    if (event.kind.case === "playerLost") this.lossReasons.set(event.kind.value.seat, event.kind.value.reason);
  }

  protected desync(err: unknown): void {
    if (!(err instanceof MirrorDesyncError)) throw err;
    console.warn("view out of sync, asking for a snapshot:", err.message);
    this.askSnapshot();
  }

  /** Ask for a snapshot (protocol/README.md, "Views, state ids and hashes"): once at a time,
   * at most one a second; deltas are ignored until it comes. */
  protected askSnapshot(): void {
    if (this.snapshotAsked) return;
    this.snapshotAsked = true;
    const wait = Math.max(0, this.snapshotAskedAt + SNAPSHOT_SPACING - Date.now());
    const ask = () => {
      if (!this.snapshotAsked || this.room === null || !this.conn.isOpen) return;
      this.snapshotAskedAt = Date.now();
      this.request("snapshot", { case: "requestSnapshot", value: {} });
    };
    if (wait === 0) ask(); else setTimeout(ask, wait);
  }

  /** A decision whose prompt is no longer the pending one is over. */
  protected dropStaleDecision(): void {
    const pending = this.mirror.header.pending;
    if (this.decision && (!pending || pending.promptId !== this.decision.promptId
        || pending.seat !== this.viewer)) {
      this.cancelDelayedPass();
      this.decision = null;
      this.sentPrompt = null;
      this.decisionNote = "";
    }
    if (this.selected?.kind === "object" && !this.mirror.objects.has(this.selected.id)) {
      this.selected = null;
    }
  }

  // ---- done by the layers above (the constructor's connection, the page's going, leaving)
  protected abstract greet(): void;
  protected abstract handle(msg: ServerMessage): void;
  protected abstract closed(code: number, reason: string): void;
  protected abstract keepLog(): void;
  abstract closeReplay(): void;
}
