/**
 * The client's state and its protocol logic (protocol/README.md, "Flow of a game"): sign in
 * (Hello) or resume (Resume), the lobby, one room, the mirrored view of its game, the
 * pending decision, clocks and presence, and a match's score and sideboarding between games
 * (protocol/README.md, "Matches"). Rendering is ui.ts's: it reads this state and calls
 * the methods below; `onChange` tells it to render again.
 */
import {
  type Account, type MatchQueue, type MatchState, type RematchOffers, type RematchStarted,
  type RoomInfo, type ServerMessage,
  DeckFormat, ErrorCode, MatchPhase, Role, RoomInfoSchema, Spectate, TierKind,
} from "./gen/protocol/v1/messages_pb";
import { create } from "@bufbuild/protobuf";
import {
  type Action, CombatDamageStep, type Decision, DecisionKind, type Delta, type GameEvent,
  type GameHeader, type GameObject, GamePhase, Step, ZoneKind,
} from "./gen/protocol/v1/game_pb";
import { CLOSE_REPLACED, Connection, PROTOCOL_VERSION, type ClientBody } from "./connection";
import { type DeckProblem, deckPrecheck, deckProblems } from "./deck";
import {
  alikeOrder, assertNever, eventLines, NO_BLOCKERS_TEXT, possessive, nothingCanBlock, objectName, onlyPass, optionObjects,
  logSentence, noticeText, poolPaysExactly, reasonWords, resolutionEnd, strengthChange,
  optionSeats, seatName, shownOptions, tierText, type Names, type PlayerResult, type ShownOption,
} from "./describe";
import { inviteLink, parseInvite, type Invite } from "./links";
import { Mirror, MirrorDesyncError } from "./mirror";
import { gameId, Replay, replayErrorText, splitGameId, type ReplayTarget } from "./replay";
import { saved } from "./storage";
import { autoPassIndex, STOP_SETTINGS, type StopSetting } from "./stops";
import type { TabGuard } from "./tabs";

export type Status = "signed-out" | "connecting" | "connected" | "reconnecting" | "offline" | "replaced";

/** Reconnection backoff (ms): first delay, factor, longest delay; give up after this long. */
const BACKOFF_FIRST = 250, BACKOFF_FACTOR = 2, BACKOFF_MAX = 5000, RECONNECT_FOR = 120_000;
/** Event-log lines kept: a whole long game (the oldest go past this, numbering kept). */
export const LOG_LINES = 2000;
/** "Pass until end of turn" asked less than this long after a turn began is held back once
 * (as the terminal's pp, client_sdk/terminal.py PP_GUARD_SECONDS). */
const PASS_TURN_GUARD_MS = 1500;
/** A priority the stops ask the player about but with nothing to do but pass (117.3) is
 * passed after a human-like wait, uniform in [MIN, MAX] ms and drawn afresh each time: passed
 * at once, its timing (Clocks, to the millisecond) told the opponent and spectators whether
 * the hand held anything castable (an attacker guessed it 173 times out of 173). As the
 * terminal's (client_sdk/terminal.py). */
export const PASS_DELAY_MIN_MS = 1000, PASS_DELAY_MAX_MS = 3000;
/** Milliseconds between two snapshot requests. */
const SNAPSHOT_SPACING = 1000;
/** The most events a snapshot repeats from before it (protocol/README.md, `recent_events`:
 * at most 20): that many, and the first ones may be the tail of a run cut short. */
const RECENT_EVENTS = 20;
/** Objects remembered after they left the view, to name them in events. */
const SEEN_OBJECTS = 2000;

/** What a player's page says once every player offered a rematch, until its game starts. */
const REMATCH_STARTS = "Rematch! The new game starts…";

/** A delta's line for the log; `told`: as the game's events and markers are, which a
 * snapshot's recent events repeat (how a resync finds where the log left off). */
interface LogLine { text: string; told: boolean }

export interface ClockView { remainingMs: number; running: boolean; at: number }

export interface RoomSettingsInput {
  name: string;
  seats: number;
  clockMinutes: number;
  private: boolean;
  spectate: "" | "allowed" | "invite" | "none";
  format: "constructed" | "limited";
  /** A delayed spectator tier to offer (protocol/README.md, "Spectator tiers"), or none. */
  tier: { kind: "public" | "omniscient"; delaySeconds: number; accounts: string[];
    invite: boolean } | null;
  /** 1: a single game; 3 or 5: a match of the two players (rule 100.6a). Default 1. */
  bestOf?: number;
  /** Whether the creator takes a seat (default); false: it hosts a game for others (a
   * caster's broadcast) and is free to watch it, delayed tiers too. */
  play?: boolean;
}

/** What a request was, to know what its Error is about. */
type RequestKind = "hello" | "resume" | "register" | "list" | "create" | "create-join" | "join" | "rewatch"
  | "quick" | "cancel-quick" | "leave" | "act" | "snapshot" | "concede" | "deck"
  | "replay" | "replay-control" | "replay-stop" | "explain" | "rematch";
/** The requests whose answer (not an error) clears the error shown: the player's own. */
const CLEARS_ERROR: ReadonlySet<RequestKind> = new Set<RequestKind>(
  ["hello", "register", "create", "create-join", "join", "rewatch", "quick", "cancel-quick", "deck"]);

/** How to say hello on the next open socket. */
type Greeting =
  | { kind: "guest"; name: string }
  | { kind: "login"; name: string; password: string }
  | { kind: "token" }
  | { kind: "resume" };

export class App implements Names {
  status: Status = "signed-out";
  /** Signed out because the server couldn't be reached (not: never signed in, signed out). */
  unreachable = false;
  account: Account | null = null;
  rooms: RoomInfo[] = [];
  /** The room this client created last, with its invite link (only the creator has it), and
   * whether the creator took a seat in it (else it hosts it for others). Forgotten once the
   * room closes, or once a creator who played in it is no longer in it (left, or the room
   * lost after a server restart): its link sent to a friend said "no room". */
  created: { room: RoomInfo; code: string; link: string; plays: boolean } | null = null;
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
  private readonly rematchLogged = new Set<number>();
  /** The line the rematch's new log begins with, once its snapshot comes. */
  private rematchLine = "";
  /** The game number this player's deck answer was accepted for; whether one is on its way. */
  private deckFor = 0;
  deckSent = false;
  log: string[] = [];
  /** Lines dropped from the start of the log past {@link LOG_LINES}: `log[0]` is line
   * `logDropped + 1` of the game's log. */
  logDropped = 0;
  /** Counts changes to the log (a view of it is built again only when it changed). */
  logChanges = 0;
  /** The objects in view before the last delta (see {@link objects}). */
  private before: GameObject[] = [];
  /** What the last delta applied changed of creatures' power and toughness, in words. */
  /** The turn the log last said began (a marker line), or the snapshot's. */
  private turnTold = 0;
  /** Seats whose keep-or-mulligan declaration of the round going on was answered (103.5). */
  private readonly declared = new Set<number>();
  /** The last game event's line logged (from a delta or a snapshot). */
  private lastTold = "";
  /** The blockers' declaration the client answered itself, none being able to block. */
  private noBlockersSaid = -1n;
  /** The pending write of the kept game log (keepLogSoon). */
  private keepTimer: ReturnType<typeof setTimeout> | null = null;
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
  private doneWarned: bigint | null = null;
  /** A card or player the viewer clicked, whose options are shown first. */
  selected: { kind: "object"; id: string } | { kind: "player"; seat: number } | null = null;
  /** The invite this page was opened with, or the room just created (pre-fills the join
   * form); `inviteChanged` counts changes. */
  invite: Invite | null;
  inviteChanged = 0;
  /** The notice {@link noteInvite} gave (renewed as the visitor signs in). */
  private inviteNoticed = "";
  /** The finished game being replayed (protocol/README.md, "Replays"; replay.ts), shown on
   * the board as a spectator's game is (`room` then names it), or null. */
  replay: Replay | null = null;
  /** A replay to open once signed in (the page was opened with a `#replay=` link). */
  replayWanted: ReplayTarget | null = null;
  /** Another replay to open once the one shown has stopped (another game of the match, or
   * another view), and the one to open again if that is refused. */
  private replayNext: { target: ReplayTarget; fallback: ReplayTarget | null } | null = null;
  /** Why the server is about to end the replay shown (its Error with request id 0, before
   * ReplayEnded: a full server made room for another viewer's). */
  private replayEndWhy = "";
  /** The replay to open again if the one being opened is refused. */
  private replayFallback: ReplayTarget | null = null;

  /** The player's last answer tapped a mana source while paying a cost (601.2g). */
  private tappedToPay = false;
  /** When this client stops for priority (stops.ts), kept across games and page loads. */
  stops: StopSetting = STOP_SETTINGS.includes(saved.stops as StopSetting) ? saved.stops as StopSetting : "auto";
  /** Priority decisions passed for the player by {@link stops} (counted for tests). */
  autoPassed = 0;
  /** The last prompt passed so (its panel isn't shown while the answer is on its way). */
  autoPassedPrompt: bigint | null = null;
  /** The pass waiting {@link PASS_DELAY_MIN_MS}-{@link PASS_DELAY_MAX_MS} ms at a stop where
   * there is nothing to do but pass (its prompt, shown as the decision meanwhile), or null.
   * An answer of the player's, another decision or a change of the stops cancels it. */
  private delayedPass: { promptId: bigint; timer: ReturnType<typeof setTimeout> } | null = null;
  /** "Pass until end of turn" (the terminal's `pp`, client_sdk/terminal.py): the turn it lasts
   * for and the stack's objects when it was asked -- anything new on the stack (an
   * opponent's spell to answer, a trigger) stops it, as do the turn's end, mana in the pool
   * and any decision other than priority. Null: not passing. */
  passing: { turn: number; stack: ReadonlySet<string> } | null = null;
  /** Why passing until end of turn stopped (shown with the decision), or "". */
  passingNote = "";
  /** The decision {@link passingNote} is said with (null: the next one): a later one
   * doesn't repeat it. */
  private passingNoteFor: bigint | null = null;
  /** When the log last said a turn began (Date.now()), and the turn whose "Pass until end
   * of turn" was held back once as it had just begun ({@link passTurn}). */
  private turnBeganAt = 0;
  private passHeldFor = 0;
  /** "Any order" answered the order of cards put into the graveyard at once (404.3): the
   * rest of that order is taken as listed, by itself (as the terminal's `a`). */
  private anyOrder = false;

  onChange: () => void = () => {};

  private readonly conn: Connection;
  private greeting: Greeting = { kind: "token" };
  /** What the last Hello/Resume on this socket was (to read its refusal right). */
  private greeted: Greeting["kind"] | null = null;
  /** When a snapshot was last asked for (repeated requests are spaced out). */
  private snapshotAskedAt = 0;
  private readonly requests = new Map<bigint, RequestKind>();
  private snapshotAsked = false;
  /** Why the viewer can't cast a card of their hand now (ExplainCard, protocol/README.md
   * "Why a card can't be cast"), by object id: "" while the answer is awaited. Asked once
   * a card for a state of the game ({@link explainedAt}): a new state asks anew. */
  readonly explained = new Map<string, string>();
  private explainedAt = -1n;
  /** The questions of this state not answered yet: request id -> card (an answer to an
   * earlier state's question, or to another card's, is told apart by its request id). */
  private readonly explaining = new Map<bigint, string>();
  private reconnectDelay = BACKOFF_FIRST;
  private reconnectSince = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  /** Why each player who lost did (PlayerLostEvent.reason), by seat. */
  private readonly lossReasons = new Map<number, string>();
  /** Objects the viewer has seen, by id, for naming them after they left the view. */
  private readonly seen = new Map<string, GameObject>();
  /** The deck used for the current join (kept to show refused lines). */
  lastDeck = "";
  /** This player's deck as the server stored it (DeckAccepted.deck: plain text, the main
   * deck, then "Sideboard" and the sideboard), once a sideboarding answer was accepted. */
  storedDeck = "";
  /** Whether the room being created is joined as a player (in the same request). */
  private createPlays = true;
  /** The room and invite code of the latest join (to watch again after a resume). */
  private lastJoin = { roomId: "", code: "" };
  /** This session's latest resume token (also in sessionStorage, for a reload). */
  private resumeToken = saved.resumeToken;
  /** The account's token (also in localStorage, so this browser stays the account). */
  private accountToken = saved.accountToken;
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
  constructor(private readonly wsUrl: string, private readonly pageUrl: string, invite: Invite | null,
              private readonly tabs: TabGuard | null = null) {
    this.invite = invite;
    // A reload keeps this tab's game log (sessionStorage): written at the latest as the page goes.
    if (typeof window !== "undefined") window.addEventListener("pagehide", () => this.keepLog());
    this.conn = new Connection(wsUrl, {
      open: () => this.greet(),
      message: (msg) => this.handle(msg),
      closed: (code, reason) => this.closed(code, reason),
    });
  }

  /** Say what to do with the invite this page was opened with: sign in first (the sign-in
   * form is what a new visitor sees), then join (or watch) with the form it filled in. */
  noteInvite(): void {
    const inv = this.invite;
    if (!inv) return;
    const first = this.account === null ? "sign in, or play as a guest, first; then " : "";
    if (this.room !== null && this.room.info.roomId !== inv.roomId) {
      // Still in a game that goes on: the join form (filled in) is in the lobby.
      this.notice = `You were invited to ${inv.role === "watch" ? "watch " : ""}another game: `
        + "leave this room first; the lobby's join form is filled in with the invite.";
      this.inviteNoticed = this.notice;
      return;
    }
    this.notice = inv.role === "watch"
      ? `You were invited to watch a game: ${first}press “Watch” under “Join by room id”.`
      : `You were invited to a game: ${first}choose your deck and press “Join as player”.`;
    this.inviteNoticed = this.notice;
  }

  /** An invite link opened while the page is open (its URL fragment changed): shown in the
   * lobby's join form. A finished game's board (or a replay) is left for the lobby at once --
   * the link said "choose your deck and press 'Join as player'" over the old board, with no
   * deck box or join button (a new player's review); a game still going on stays, the
   * notice saying to leave it first. */
  openInvite(invite: Invite): void {
    this.invite = invite;
    this.inviteChanged++;
    if (this.replay !== null) this.closeReplay();
    else if (this.room !== null && this.room.info.roomId !== invite.roomId && this.finishedHere) this.leaveRoom();
    this.noteInvite();
    this.changed();
  }

  /** Whether the room's game (a match: the whole match) is over for this page. */
  get finishedHere(): boolean {
    const m = this.match;
    return this.mirror.ready && this.mirror.gameOver && (m === null || m.phase === MatchPhase.OVER);
  }

  /** Say why a `#replay=` link shows the sign-in form first: a replay is opened for an
   * account (it showed the sign-in form with no word about the replay). */
  noteReplay(): void {
    // (With a saved sign-in the page signs in by itself and opens it.)
    if (this.replayWanted === null || this.account !== null || this.accountToken || this.resumeToken) return;
    this.notice = `You opened a replay of game “${this.replayWanted.roomId}”: sign in, or play as `
      + "a guest, first -- the server opens replays for an account (a seat's view is its "
      + "player's only); the replay opens once you are in.";
  }

  /** Start: resume this tab's session, or sign in with the stored account token. A resume
   * token waits for the tab guard's word first: a duplicated tab's is the other tab's, which
   * a resume would take over (4001 there) -- the copy says Hello for replays only. */
  start(): void {
    if (this.resumeToken && this.tabs !== null) {
      this.status = "connecting";
      this.changed();
      void this.tabs.copyOfAnother().then((copy) => {
        if (copy) this.copied();
        else this.connect({ kind: "resume" });
      });
    } else if (this.resumeToken) this.connect({ kind: "resume" });
    else if (this.accountToken) this.connect({ kind: "token" });
    else this.changed();
  }

  /** This tab is a copy of one still open (its resume token is that tab's): never resumed
   * here. With the account's token it says Hello for replays only, beside the other tab's
   * session; the player may take the seat over ({@link takeSeatHere}). */
  private copied(): void {
    this.setResumeToken("");
    this.copiedTab = true;
    this.side = true;
    this.notice = "This tab is a copy of another tab that holds your seat: it shows the lobby "
      + "and replays only, and the other tab plays on. To play here instead, press “Play here” "
      + "(the other tab stops).";
    if (this.accountToken) this.connect({ kind: "token" });
    else this.changed();
  }

  /** A copied tab's player chose to play here: an ordinary Hello takes the account's
   * session over (the other tab is told so, 4001) -- its seat with it. */
  takeSeatHere(): void {
    if (!this.copiedTab) return;
    this.copiedTab = false;
    this.side = false;
    this.replayWanted = null;
    this.notice = "";
    this.conn.drop();
    this.clearRoom();
    this.connect({ kind: "token" });
  }

  // ---- Names (describe.ts)
  get viewer(): number { return this.room?.seat ?? -1; }
  /** An object of the view, or one the viewer saw earlier (an event may name an object the
   * same delta removed: a creature that died in combat). */
  object(id: string) { return this.mirror.objects.get(id) ?? this.seen.get(id); }
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

  // ---- signing in
  signInGuest(name: string): void {
    saved.displayName = name;
    this.connect({ kind: "guest", name });
  }

  signIn(name: string, password: string): void {
    this.connect({ kind: "login", name, password });
  }

  register(name: string, password: string): void {
    this.request("register", { case: "register", value: { name, password } });
  }

  /** Forget this browser's account (its token stays valid elsewhere until revoked). Offered
   * in the lobby only: a seated player leaves the room first. */
  signOut(): void {
    // What this browser kept for the account goes with it (a shared browser's next account
    // was shown its deck list, its invite links and -- in a duplicated tab -- its game log).
    saved.forgetAccount(this.account?.name ?? "");
    if (this.invite !== null) this.inviteChanged++; // (the join form it filled in is emptied)
    this.setAccountToken("");
    this.setResumeToken("");
    this.side = false;
    this.copiedTab = false;
    this.conn.drop();
    this.clearRoom();
    this.account = null;
    this.created = null;
    this.invite = null;
    this.rooms = [];
    this.notice = "";
    this.error = "";
    this.deckProblems = [];
    this.status = "signed-out";
    this.changed();
  }

  private connect(greeting: Greeting): void {
    this.greeting = greeting;
    this.error = "";
    this.unreachable = false;
    this.status = "connecting";
    this.conn.open();
    this.changed();
  }

  private greet(): void {
    const g = this.greeting;
    this.greeted = g.kind;
    // A resync asked for on an earlier socket is answered on no other: start over below.
    const resyncing = this.snapshotAsked;
    this.snapshotAsked = false;
    switch (g.kind) {
      case "resume":
        // Missed deltas only if the mirror is whole; else (0) the server sends a snapshot.
        this.request("resume", { case: "resume", value: {
          protocolVersion: PROTOCOL_VERSION, resumeToken: this.resumeToken,
          lastStateId: this.mirror.ready && !resyncing ? this.mirror.stateId : 0n,
          batched: true } });
        return;
      case "token":
        // A tab with no session of its own that only wants a replay takes nothing over: if
        // the account has a session (another tab seated in a game), it gets one of its own.
        this.request("hello", { case: "hello", value: {
          protocolVersion: PROTOCOL_VERSION, accountToken: this.accountToken, batched: true,
          replaysOnly: this.side || (this.replayWanted !== null && !this.resumeToken) } });
        return;
      case "guest":
        this.request("hello", { case: "hello", value: {
          protocolVersion: PROTOCOL_VERSION, displayName: g.name, batched: true } });
        return;
      case "login":
        this.request("hello", { case: "hello", value: {
          protocolVersion: PROTOCOL_VERSION, login: { name: g.name, password: g.password },
          batched: true } });
        // The password is not kept for reconnecting: a resume uses the resume token.
        this.greeting = { kind: "token" };
        return;
      default: assertNever(g);
    }
  }

  // ---- lobby
  listRooms(): void {
    if (this.status === "connected") this.request("list", { case: "listRooms", value: {} });
  }

  /** Create a room -- and, unless `input.play` is false (a host's), take a seat in it with
   * `deck` in the same request (CreateRoom.join): the server checks the deck before it makes
   * the room, so a refused deck creates none. (A room created, then joined with a deck
   * refused, stayed empty and counted against the player's 4 open rooms.) */
  createRoom(input: RoomSettingsInput, deck: string): void {
    this.createPlays = input.play ?? true;
    if (this.createPlays && !this.checkDeck(deck)) return;
    this.lastDeck = deck;
    if (this.createPlays) this.keepDeckText(deck);
    const spectate = { "": Spectate.UNSPECIFIED, allowed: Spectate.ALLOWED,
      invite: Spectate.INVITE, none: Spectate.NONE }[input.spectate];
    this.request(this.createPlays ? "create-join" : "create", { case: "createRoom", value: {
      name: input.name, seats: input.seats, clockSeconds: Math.round(input.clockMinutes * 60),
      private: input.private, spectate, format: formatOf(input.format),
      bestOf: input.bestOf ?? 1, join: this.createPlays, deck: this.createPlays ? deck : "",
      tiers: input.tier ? [{
        kind: input.tier.kind === "omniscient" ? TierKind.OMNISCIENT : TierKind.PUBLIC,
        delaySeconds: input.tier.delaySeconds, accounts: input.tier.accounts,
        invite: input.tier.invite }] : [] } });
  }

  /** Join as a player (with a deck) or watch (`tier` 0: live; n: the room's n-th tier). */
  join(roomId: string, role: Role, deck: string, code: string, tier = 0): void {
    // A second click while the first join is answered would only be refused ("already in
    // a room"), an error that then stood over the whole game.
    if ([...this.requests.values()].includes("join")) return;
    if (role === Role.PLAYER && !this.checkDeck(deck)) return;
    this.lastDeck = deck;
    if (role === Role.PLAYER) this.keepDeckText(deck);
    this.lastJoin = { roomId: roomId.trim(), code: code.trim() };
    this.request("join", { case: "joinRoom", value: {
      roomId: roomId.trim(), role, deck: role === Role.PLAYER ? deck : "", inviteCode: code.trim(),
      tier: role === Role.SPECTATOR ? tier : 0 } });
  }

  quickMatch(format: "constructed" | "limited", seats: number, deck: string): void {
    if (!this.checkDeck(deck)) return;
    this.lastDeck = deck;
    this.keepDeckText(deck);
    this.request("quick", { case: "quickMatch", value: { format: formatOf(format), seats, deck } });
  }

  cancelQuickMatch(): void {
    this.request("cancel-quick", { case: "cancelQuickMatch", value: {} });
  }

  /** The deck list a seat was asked with, kept (localStorage) to fill the deck box after a
   * reload or in a new tab: a pasted deck was forgotten, and an empty box then dealt a demo
   * deck (a new player's review). An empty box (a demo deck) keeps the last list. */
  private keepDeckText(deck: string): void {
    if (deck.trim() && this.account) saved.setDeck(this.account.accountId, deck);
  }

  /** The deck list this account last took a seat with (this browser's), or "". */
  get keptDeck(): string { return saved.deck(this.account?.accountId ?? ""); }

  /** Whose view the log shows ("account|role|seat|tier"), or "" (not in a room). */
  private logViewer(): string {
    if (this.room === null || this.account === null) return "";
    const { role, seat, tier } = this.room;
    return `${this.account.accountId}|${role}|${role === Role.PLAYER ? seat : -1}|${tier}`;
  }

  /** The game whose log this tab shows ("room:game"), or "" (none, or a replay). */
  private logGame(): string {
    if (this.room === null || this.replay !== null || !this.mirror.ready) return "";
    // (RoomInfo.game_number was 0 in the Joined of the waiting room and 1 after a reload.)
    const game = Math.max(1, this.match?.gameNumber ?? 0, this.room.info.gameNumber);
    return `${this.room.info.roomId}:${game}`;
  }

  /** Keep this tab's game log soon (sessionStorage; at most every quarter second). */
  private keepLogSoon(): void {
    if (this.keepTimer !== null || typeof sessionStorage === "undefined") return;
    this.keepTimer = setTimeout(() => { this.keepTimer = null; this.keepLog(); }, 250);
  }

  /** Keep the game log now, so a reload of the same game shows it again: only the lines this
   * tab showed (the last {@link LOG_LINES}); forgotten once the game is over. */
  private keepLog(): void {
    const game = this.logGame(), viewer = this.logViewer();
    if (game === "" || viewer === "") return;
    if (this.mirror.gameOver) { saved.setGameLog(null); return; }
    saved.setGameLog({ game, viewer, lines: this.log, dropped: this.logDropped,
      lastTold: this.lastTold }, LOG_LINES);
  }

  leaveRoom(): void {
    if (this.replay !== null) { this.closeReplay(); return; }
    saved.setGameLog(null);
    // Leaving a game one still plays concedes it (rule 104.3a; a match too, between games):
    // say so, as the terminal does.
    const seat = this.room !== null && this.room.role === Role.PLAYER ? this.room.seat : -1;
    const me = seat >= 0 ? this.mirror.players.get(seat) : undefined;
    const conceded = this.mirror.ready && !this.mirror.gameOver && me !== undefined && !me.hasLost;
    this.request("leave", { case: "leaveRoom", value: {} });
    this.clearRoom();
    this.notice = conceded ? "You left the game: you conceded." : "You left the room.";
    this.listRooms();
    this.changed();
  }

  concede(): void {
    this.request("concede", { case: "concede", value: {} });
  }

  // ---- the rematch (protocol/README.md, "Rematch")
  /** Whether this player offers a rematch now (as the server last said). */
  get rematchOffered(): boolean {
    const r = this.rematch, room = this.room;
    return r !== null && room !== null && room.role === Role.PLAYER && (r.offered[room.seat] ?? false);
  }

  /** The other players who offer a rematch now (seats). */
  get rematchAsking(): number[] {
    const r = this.rematch, room = this.room;
    if (r === null || room === null) return [];
    return r.offered.flatMap((o, s) => o && !(room.role === Role.PLAYER && s === room.seat) ? [s] : []);
  }

  /** Whether the game-over panel offers "Rematch" (or "Take back"): a player whose game (a
   * match: the match) is over, in a room where a rematch can still be had. */
  get canRematch(): boolean {
    return this.room?.role === Role.PLAYER && this.replay === null && this.finishedHere
      && !(this.rematch?.cancelled) && this.rematchStarted === null;
  }

  /** What the game-over panel says of the rematch ("" nothing): who offers, who is waited
   * for, why none can be had. */
  get rematchWords(): string {
    const r = this.rematch, room = this.room;
    if (room === null || !this.finishedHere) return "";
    if (this.rematchStarted !== null) {
      return room.role === Role.PLAYER ? REMATCH_STARTS
        : this.rematchStarted.newRoomId ? "The players started a rematch."
          : "The players started a rematch (in a private room).";
    }
    if (r?.cancelled) return `No rematch: ${r.cancelled}.`;
    if (this.rematchRefused) return this.rematchRefused;
    const asking = this.rematchAsking;
    if (room.role === Role.PLAYER && this.rematchOffered) {
      const waiting = this.mirror.ready ? [...this.mirror.players.keys()].sort((a, b) => a - b)
        .filter((s) => s !== room.seat && !asking.includes(s)) : [];
      return waiting.length ? `You offered a rematch: waiting for ${this.seatNames(waiting)}.`
        : "You offered a rematch.";
    }
    if (asking.length) return `${this.seatNames(asking)} ${asking.length === 1 ? "wants" : "want"} a rematch.`;
    return "";
  }

  /** Offer a rematch, or take the offer back (the button's second click). */
  offerRematch(): void {
    if (!this.canRematch || this.rematchSent) return;
    const offer = !this.rematchOffered;
    if (this.request("rematch", { case: "offerRematch", value: { offer } }) === null) return;
    this.rematchSent = true;
    this.rematchRefused = "";
    this.changed();
  }

  /** A spectator goes to watch the rematch the players started (leaving this room). */
  watchRematch(): void {
    const r = this.rematchStarted, room = this.room;
    if (r === null || room === null || !r.newRoomId || room.role === Role.PLAYER) return;
    saved.setGameLog(null);
    this.request("leave", { case: "leaveRoom", value: {} });
    this.clearRoom();
    this.join(r.newRoomId, Role.SPECTATOR, "", r.inviteCode, room.tier);
    this.changed();
  }

  /** The link to watch the rematch (a spectator's, when the server said where it is), or "". */
  get rematchWatchLink(): string {
    const r = this.rematchStarted, room = this.room;
    if (r === null || room === null || !r.newRoomId || room.role === Role.PLAYER) return "";
    return inviteLink(this.pageUrl, { role: "watch", roomId: r.newRoomId, code: r.inviteCode,
      tier: room.tier || undefined });
  }

  /** Players named ("Bob", "Bob and Cy", "Bob, Cy and Dee"). */
  private seatNames(seats: number[]): string {
    const names = seats.map((s) => this.mirror.players.get(s)?.name
      ?? this.room?.info.players[s] ?? `seat ${s + 1}`);
    return names.length < 3 ? names.join(" and ") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  }

  /** Who offers a rematch changed (or none can be had): another player's offer logged once,
   * a cancelled rematch said. */
  private rematchOffers(r: RematchOffers, kind: RequestKind | undefined): void {
    if (kind === "rematch") this.rematchSent = false;
    const room = this.room;
    if (room === null || room.info.roomId !== r.roomId) return;
    const before = this.rematch;
    this.rematch = r;
    this.rematchRefused = "";
    if (r.cancelled) {
      if (!before?.cancelled) {
        this.addLog(`No rematch: ${r.cancelled}.`);
        if (room.role === Role.PLAYER) this.notice = `No rematch: ${r.cancelled}.`;
      }
      return;
    }
    r.offered.forEach((offered, s) => {
      if (offered && !(room.role === Role.PLAYER && s === room.seat) && !this.rematchLogged.has(s)) {
        this.rematchLogged.add(s);
        this.addLog(`${this.seatNames([s])} wants a rematch.`);
      }
    });
  }

  /** This player was seated in the rematch's room (its Joined after RematchStarted): its
   * invite link kept (a private room's is found nowhere else), a creator's links moved to it,
   * and its log begun with a word of the rematch. */
  private rematchJoined(room: RoomInfo, code: string, wasCreator: boolean, oldName: string): void {
    if (code) {
      const link = inviteLink(this.pageUrl, { role: "join", roomId: room.roomId, code });
      saved.setInvite(this.account?.accountId ?? "", room.roomId, link);
      if (wasCreator) this.created = { room, code, link, plays: true };
    }
    this.rematchLine = `— Rematch${oldName ? ` of “${oldName}”` : ""}: a new game —`;
  }

  // ---- matches (protocol/README.md, "Matches")
  /** Between games: play the next game with the current deck. */
  keepDeck(): void {
    this.deckSent = true;
    this.request("deck", { case: "submitDeck", value: { choice: { case: "keep", value: true } } });
    this.changed();
  }

  /** Between games: play the next game with this list -- exactly the registered cards, main
   * deck and sideboard together (rule 100.4); refused, every problem is listed. */
  submitDeck(deck: string): void {
    if (!deck.trim()) {
      this.deckProblems = [{ line: 0, message: "Paste your deck list, or keep your deck." }];
      this.changed();
      return;
    }
    if (!this.checkDeck(deck)) return;
    this.lastDeck = deck;
    this.deckSent = true;
    this.request("deck", { case: "submitDeck", value: { choice: { case: "deck", value: deck } } });
    this.changed();
  }

  /** Whether the match waits for this player's deck for the next game. */
  get mustSideboard(): boolean {
    const m = this.match;
    const seat = this.viewer;
    return m !== null && m.phase === MatchPhase.SIDEBOARDING && seat >= 0
      && this.room?.role === Role.PLAYER && !m.ready[seat] && this.deckFor !== m.gameNumber;
  }

  /** What the sideboarding box starts with between games: the deck as the server stored it
   * (plain text, main deck then "Sideboard"), else the list the player gave if it was plain
   * text -- never an uploaded XML file (an MTGO .dek, a Cockatrice .cod: swapping cards meant
   * editing XML), which this client can't turn into a list -- and a hint when it starts empty.
   * (The server says it in Joined.deck, and after each SubmitDeck in DeckAccepted.deck.) */
  sideboardDraft(): { text: string; hint: string } {
    if (this.storedDeck) return { text: this.storedDeck, hint: "" };
    const given = this.lastDeck;
    const whole = "paste your whole deck list here: the main deck, then a line “Sideboard”, "
      + "then the sideboard (the cards you registered, each where you want it)";
    if (/^\s*</.test(given)) {
      return { text: "", hint: "Your deck was an XML file (MTGO .dek or Cockatrice .cod), which "
        + `this page can't show as a list: to change it, ${whole}. Or keep your deck.` };
    }
    if (given.trim()) return { text: given, hint: "" };
    return { text: "", hint: `To change your deck, ${whole}. Or keep your deck.` };
  }

  /** "Game 2 of 3 · 1–0" (draws added); between games "Game 1 of 3 over · 1–0 · sideboarding
   * for game 2" (over game 1's last board "Game 2 of 3" read as game 2 over: found by a
   * caster); how the match ended; or "" (not a match). */
  get matchLine(): string {
    const m = this.match;
    if (m === null) return "";
    if (m.phase === MatchPhase.OVER) {
      const who = m.winner < 0 ? "a draw"
        : m.winner === this.viewer ? "you won the match" : `${this.player(m.winner)} won the match`;
      const why = reasonWords(this, m.reason);
      return `Match over: ${who}, ${this.namedScore(m)}${why ? ` (${why})` : ""}`;
    }
    if (m.phase === MatchPhase.SIDEBOARDING) {
      return `Game ${m.gameNumber - 1} of ${m.bestOf} over · ${this.namedScore(m)} · `
        + `sideboarding for game ${m.gameNumber}`;
    }
    return `Game ${m.gameNumber} of ${m.bestOf} · ${this.namedScore(m)}`;
  }

  /** Between games, what a member not choosing a deck is told: live, whom the match waits
   * for (`clock`: the time left follows); on a delayed tier no time (its MatchState has none,
   * protocol/README.md "Matches") and only who has chosen a deck -- after a restart a tier
   * shows nobody ready for a while, so "waiting for" could be false. (A tier read "Waiting
   * for Bob, Alice to choose a deck (0:00 left)" all through: found by a caster.) */
  sideboardWait(): { text: string; clock: boolean } {
    const m = this.match;
    if (m === null) return { text: "", clock: false };
    const names = (ready: boolean) => m.ready.map((r, seat) => r === ready ? this.player(seat) : "")
      .filter(Boolean);
    if ((this.room?.tier ?? 0) > 0) {
      const chosen = names(true);
      return { text: `Sideboarding for game ${m.gameNumber}`
        + (chosen.length ? ` (deck chosen: ${chosen.join(", ")})` : ""), clock: false };
    }
    const waiting = names(false);
    return { text: waiting.length ? `Waiting for ${waiting.join(", ")} to choose a deck`
      : "Starting the next game", clock: true };
  }

  /** Whether the lobby's button for listed room `r`'s delayed tier `n` can watch it: this
   * account is one it names, or this client has the room's invite code (it created the
   * room) and the tier lets the code in -- else what it takes ("invite": the code, typed in
   * the join form; "accounts": being one it names, so no button). (A button for everyone
   * answered "only for the accounts it names or with the room's invite code": a caster.) */
  tierAccess(r: RoomInfo, n: number): { code: string } | "invite" | "accounts" {
    const tier = r.tiers[n - 1];
    const me = this.account?.name.toLowerCase() ?? "";
    const code = this.created?.room.roomId === r.roomId ? this.created.code : "";
    if (tier && me && tier.accounts.some((a) => a.toLowerCase() === me)) return { code };
    if (tier?.invite) return code ? { code } : "invite";
    return "accounts";
  }

  /** "you 0 – Bob 1": whose wins are whose (draws added). */
  namedScore(m: MatchState): string {
    const wins = m.wins.map((w, seat) => `${seat === this.viewer ? "you" : this.player(seat)} ${w}`);
    return wins.join(" – ") + (m.draws ? `, ${m.draws} drawn` : "");
  }

  /** Milliseconds left to sideboard now. */
  sideboardLeft(now: number): number {
    const m = this.match;
    if (m === null || m.phase !== MatchPhase.SIDEBOARDING) return 0;
    return Math.max(0, Number(m.sideboardRemainingMs) - (now - this.matchAt));
  }

  private checkDeck(deck: string): boolean {
    const problem = deckPrecheck(deck);
    this.deckProblems = problem ? [{ line: 0, message: problem }] : [];
    if (problem) this.changed();
    return problem === null;
  }

  // ---- the game
  /** The options of the pending decision (this viewer's: others' are never sent to it). */
  get options(): Action[] {
    return this.decision?.options ?? [];
  }

  /** Whether an option names the card or player the viewer selected. */
  related(option: Action): boolean {
    const sel = this.selected;
    return sel === null ? false
      : sel.kind === "object" ? optionObjects(option).includes(sel.id) : optionSeats(option).includes(sel.seat);
  }

  /** The options as the decision panel shows them, in its order: alike ones once (four Forests
   * in the hand to play, two untapped Forests to tap: describe.shownOptions), those of the selected card or
   * player first; each with the key that picks it (`key`, null: none) -- 1-9, the Nth
   * shown, but choosing X, X's value 0-9 ("X = 3" is key 3: with key 1 on "X = 0" a new
   * player pressing the X they wanted got one less; the terminal numbers them so too). */
  get shownOptions(): (ShownOption & { related: boolean; key: number | null })[] {
    const options = this.options;
    // Alike options of the card selected on the board answer that card's own: one of five
    // alike Grizzly Bears clicked, then its "Attack Bob with Grizzly Bears", declares that one.
    const shown = shownOptions(this, options, this.mirror.objects.values()).map((s) => {
      const mine = s.indices.find((i) => options[i] !== undefined && this.related(options[i]));
      return { ...s, index: mine ?? s.index, related: mine !== undefined };
    });
    const ordered = [...shown.filter((s) => s.related), ...shown.filter((s) => !s.related)];
    const choosingX = this.decision?.kind === DecisionKind.CHOOSE_X;
    return ordered.map((s, n) => {
      const k = options[s.index]?.kind;
      const key = !choosingX ? (n < 9 ? n + 1 : null)
        : k?.case === "chooseX" && k.value.value <= 9 ? k.value.value : null;
      return { ...s, key };
    });
  }

  /** Choose the option shown with key `key` (0-9), as pressing it does; whether one was. */
  actKey(key: number): boolean {
    const shown = this.shownOptions.find((s) => s.key === key);
    if (shown !== undefined) this.act(shown.index);
    return shown !== undefined;
  }

  /** Escape: clears the selection; with nothing selected, takes back the spell or ability
   * being cast (its `cancelCast` option, offered last while casting from the hand or
   * activating, 601.2i). Whether it did either. */
  escape(): boolean {
    if (this.selected !== null) {
      this.select(null);
      return true;
    }
    const cancel = this.options.findIndex((o) => o.kind.case === "cancelCast");
    if (cancel < 0 || this.sentPrompt === this.decision?.promptId) return false;
    this.act(cancel);
    return true;
  }

  /** Whether the pending decision may be taken back with Escape ({@link escape}). */
  get cancellable(): boolean {
    return this.options.some((o) => o.kind.case === "cancelCast");
  }

  act(index: number): void {
    const d = this.decision;
    if (!d || this.sentPrompt === d.promptId || index < 0 || index >= d.options.length) return;
    // "Done" with a creature selected for a block that was never completed: say so once
    // (pressing Done again confirms the blocks without it) instead of confirming silently.
    const unpaired = this.unpairedBlock();
    if (d.options[index]?.kind.case === "finishBlockers" && unpaired && this.doneWarned !== d.promptId) {
      this.doneWarned = d.promptId;
      this.decisionNote = unpaired;
      this.changed();
      return;
    }
    this.sentPrompt = d.promptId;
    this.selected = null;
    this.decisionNote = "";
    this.passingNote = "";
    // A source tapped while paying a cost (601.2g): once the pool pays it exactly, in one way
    // only, it is paid without asking again which mana to spend (a new player's review).
    const chosen = d.options[index]?.kind.case;
    this.tappedToPay = d.kind === DecisionKind.PAY_MANA && chosen === "activateManaAbility";
    this.cancelDelayedPass(); // (answered)
    this.request("act", { case: "act", value: {
      promptId: d.promptId, optionIndex: index, expectedStateId: d.stateId } });
    this.changed();
  }

  /** "Pass until end of turn" (key T; the terminal's `pp`): pass this priority, and every
   * priority of this turn after it by itself, until something new is on the stack, the turn
   * ends, there is mana in the pool or a decision other than priority comes. */
  passTurn(): void {
    const d = this.decision;
    if (d === null || d.kind !== DecisionKind.PRIORITY || this.sentPrompt === d.promptId
        || this.room?.role !== Role.PLAYER) return;
    const pass = d.options.findIndex((o) => o.kind.case === "passPriority");
    if (pass < 0) return;
    // A turn that began as the key was pressed can't have been seen (an opponent's turn is
    // passed by the stops in a blink): held back once, as the terminal's pp is.
    const turn = this.mirror.header.turn;
    if (Date.now() - this.turnBeganAt < PASS_TURN_GUARD_MS && this.passHeldFor !== turn) {
      this.passHeldFor = turn;
      this.passingNoteFor = d.promptId;
      this.passingNote = `Turn ${turn} began as you asked to pass until end of turn: nothing was `
        + "passed. Ask again to pass this turn.";
      this.changed();
      return;
    }
    this.passing = { turn: this.mirror.header.turn,
      stack: new Set(this.mirror.zone(ZoneKind.STACK).map((o) => o.id)) };
    this.act(pass);
  }

  /** Stop passing until end of turn (the passing panel's button). */
  stopPassing(): void {
    if (this.passing === null) return;
    this.passing = null;
    this.passingNote = "";
    this.changed();
  }

  /** The turn is over (or the game): passing until end of turn ends. */
  private passingTurnEnded(): void {
    const p = this.passing;
    if (p !== null && (this.mirror.header.turn !== p.turn || this.mirror.gameOver)) {
      this.passing = null;
      this.passingNote = "The turn is over: priority is no longer passed until its end.";
      this.passingNoteFor = null; // (said with the next decision)
    }
  }

  /** Pass decision `d` for "Pass until end of turn", if it lasts; whether it was passed.
   * Anything that ends it says why ({@link passingNote}). */
  private passTurnOn(d: Decision): boolean {
    this.passingTurnEnded();
    const p = this.passing;
    if (p === null) return false;
    const pool = this.mirror.players.get(this.viewer)?.manaPool;
    const mana = pool ? pool.white + pool.blue + pool.black + pool.red + pool.green + pool.colorless : 0;
    const pass = d.options.findIndex((o) => o.kind.case === "passPriority");
    const stop = d.kind !== DecisionKind.PRIORITY || pass < 0
      ? "Passing until end of turn stopped: this decision is yours."
      : this.mirror.zone(ZoneKind.STACK).some((o) => !p.stack.has(o.id))
        ? "Something new is on the stack: you stopped passing until end of turn. Your decision."
        : mana > 0 ? "You have mana in your pool: you stopped passing until end of turn." : "";
    if (stop) {
      this.passing = null;
      this.passingNote = stop;
      this.passingNoteFor = d.promptId;
      return false;
    }
    if (this.replay !== null || this.sentPrompt === d.promptId || d.stateId !== this.mirror.stateId) return false;
    this.autoPassed++;
    this.autoPassedPrompt = d.promptId;
    this.act(pass);
    return true;
  }

  /** "Any order" (404.3): the order of cards put into the graveyard at once is taken as
   * offered -- this card and, by itself, the ones after it. */
  answerAnyOrder(): void {
    const d = this.decision;
    if (d === null || d.kind !== DecisionKind.ORDER_GRAVEYARD || this.sentPrompt === d.promptId) return;
    this.anyOrder = true;
    this.act(0);
  }

  /** Change when this client stops for priority (kept in localStorage); the pending
   * decision is passed at once if the new setting passes it. */
  setStops(setting: StopSetting): void {
    this.stops = setting;
    saved.stops = setting;
    this.autoPass();
    this.changed();
  }

  /** Pass the pending priority if {@link stops} says so (stops.ts): only a plain priority
   * decision of this player's, with PassPriority among its options, of the view shown --
   * at once where the stops pass (which they decide from public information only: the
   * step, the stack, whose turn, the mana pool). Where they ask the player ("auto") and
   * there is nothing to do but pass (117.3), with no mana in the pool, it is passed after a
   * random human-like wait ({@link PASS_DELAY_MIN_MS}-{@link PASS_DELAY_MAX_MS} ms), so that
   * the answer's timing no longer tells whether the hand holds anything castable. With full
   * control ("all") the player is always asked. */
  private autoPass(): void {
    this.cancelDelayedPass();
    const d = this.decision;
    if (d === null || this.replay !== null || this.room?.role !== Role.PLAYER || this.sentPrompt === d.promptId
        || d.stateId !== this.mirror.stateId) return;
    const pool = this.mirror.players.get(this.viewer)?.manaPool;
    const i = autoPassIndex(this.stops, d, this.viewer, this.mirror.header, this.mirror.objects.values(), pool);
    if (i >= 0) {
      this.autoPassed++;
      this.autoPassedPrompt = d.promptId;
      this.act(i);
      return;
    }
    const mana = pool ? pool.white + pool.blue + pool.black + pool.red + pool.green + pool.colorless : 0;
    const pass = d.options.findIndex((o) => o.kind.case === "passPriority");
    if (this.stops !== "auto" || mana > 0 || pass < 0 || !onlyPass(d, this.mirror.objects)) return;
    const promptId = d.promptId;
    const wait = PASS_DELAY_MIN_MS + Math.random() * (PASS_DELAY_MAX_MS - PASS_DELAY_MIN_MS);
    const timer = setTimeout(() => {
      if (this.delayedPass?.timer !== timer) return;
      this.delayedPass = null;
      const now = this.decision;
      if (now === null || now.promptId !== promptId || this.sentPrompt === promptId || this.replay !== null
          || this.room?.role !== Role.PLAYER || this.stops !== "auto" || now.stateId !== this.mirror.stateId
          || !this.conn.isOpen) return;
      this.autoPassed++;
      this.autoPassedPrompt = promptId;
      this.act(pass);
    }, wait);
    this.delayedPass = { promptId, timer };
  }

  /** The prompt that is to be passed after a wait ({@link autoPass}), or null. */
  get passingSoon(): bigint | null {
    return this.delayedPass?.promptId ?? null;
  }

  private cancelDelayedPass(): void {
    if (this.delayedPass === null) return;
    clearTimeout(this.delayedPass.timer);
    this.delayedPass = null;
  }

  select(target: App["selected"]): void {
    this.selected = target;
    this.decisionNote = "";
    this.changed();
  }

  /** A card clicked on the board. Declaring blockers (rule 509.1a), a blocker and an
   * attacker clicked one after the other (either first) pick the block of that blocker on
   * that attacker; otherwise a card with exactly one option picks it (an attacker is only
   * selected: which creature blocks it is the player's next click), and any other card is
   * selected (its options are shown first). */
  /** Ask the server why the card `id` (in the viewer's hand) can't be cast now -- once per
   * card and state of the game; the answer lands in {@link explained}. */
  explainCard(id: string): void {
    if (!this.canExplain) return;
    if (this.explainedAt !== this.mirror.stateId) this.forgetExplained(this.mirror.stateId);
    if (this.explained.has(id)) return;
    const rid = this.request("explain", { case: "explainCard", value: { objectId: id } });
    if (rid === null) return; // (not sent: asked again on the next hover)
    this.explained.set(id, "");
    this.explaining.set(rid, id);
  }

  /** Whether a card of the viewer's hand may be asked about: a player's live game going on
   * (not over, nor between a match's games). */
  private get canExplain(): boolean {
    return this.room !== null && this.viewer >= 0 && this.replay === null && this.mirror.ready
      && !this.mirror.gameOver;
  }

  /** The answer to show now for card `id` ("" while awaited): only one asked in the state of
   * the game shown, and none once the game is over -- the kept answers are of the state they
   * were asked in (at a game's end, a hand card said "Not enough mana" of turn 1: np8). */
  whyNot(id: string): string | undefined {
    if (!this.canExplain || this.explainedAt !== this.mirror.stateId) return undefined;
    return this.explained.get(id);
  }

  /** Forget every answer and question (a new state `at`, a new snapshot -- the next game's
   * state ids may be the last game's -- or the room left). */
  private forgetExplained(at = -1n): void {
    this.explained.clear();
    this.explaining.clear();
    this.explainedAt = at;
  }

  clickObject(id: string): void {
    const options = this.options;
    const sel = this.selected;
    const blocks = (o: Action) => o.kind.case === "declareBlocker" ? o.kind.value : null;
    if (sel?.kind === "object" && sel.id !== id) {
      const pair = options.findIndex((o) => {
        const b = blocks(o);
        return b !== null && ((b.objectId === sel.id && b.attackerId === id)
          || (b.objectId === id && b.attackerId === sel.id));
      });
      if (pair >= 0) {
        this.act(pair);
        return;
      }
      // A blocker and an attacker with no block between them (flying, menace ...).
      const [was, now] = [this.blockRole(sel.id), this.blockRole(id)];
      if (was && now && was !== now) {
        const [blocker, attacker] = was === "blocker" ? [sel.id, id] : [id, sel.id];
        this.select({ kind: "object", id });
        this.decisionNote = `${objectName(this, blocker)} can't block ${objectName(this, attacker)}.`;
        this.changed();
        return;
      }
    }
    const indices = options.map((o, i) => ({ o, i }))
      .filter(({ o }) => optionObjects(o).includes(id)).map(({ i }) => i);
    const attackerOnly = indices.every((i) => blocks(options[i]!)?.attackerId === id);
    if (indices.length === 1 && indices[0] !== undefined && !attackerOnly) this.act(indices[0]);
    else this.select({ kind: "object", id });
  }

  /** What a creature is in the pending declaration of blockers (rule 509.1a): a "blocker"
   * (one of the viewer's with a block to declare), an "attacker" it may block, or "". */
  blockRole(id: string): "blocker" | "attacker" | "" {
    const blocks = this.options.flatMap((o) => o.kind.case === "declareBlocker" ? [o.kind.value] : []);
    return blocks.some((b) => b.objectId === id) ? "blocker"
      : blocks.some((b) => b.attackerId === id) ? "attacker" : "";
  }

  /** The selected creature's block left unfinished (it has blocks to declare and none was
   * picked), in words, or "". */
  private unpairedBlock(): string {
    const sel = this.selected;
    if (sel?.kind !== "object") return "";
    const role = this.blockRole(sel.id);
    const name = objectName(this, sel.id);
    if (role === "blocker") {
      return `${name} is selected but blocks nothing yet: click the attacking creature it `
        + "should block (or press “Done” again to confirm your blocks without it).";
    }
    if (role === "attacker") {
      return `${name} (attacking) is selected but nothing blocks it yet: click the creature `
        + "of yours that should block it (or press “Done” again to confirm your blocks).";
    }
    return "";
  }

  /** Links to the room this client created: for players, and for each delayed tier. */
  createdLinks(): { label: string; link: string }[] {
    const c = this.created;
    if (!c) return [];
    const { roomId } = c.room;
    return [{ label: "Players (and live spectators)", link: c.link },
      ...c.room.tiers.map((t, i) => ({ label: `Delayed: ${tierText(t, c.room.players)}`,
        link: inviteLink(this.pageUrl, { role: "watch" as const, roomId, code: c.code, tier: i + 1 }) }))];
  }

  /** The invite links of the room this page is in, if this tab created it: players' (and
   * live spectators') and spectators' -- after the game started too, when a friend who comes
   * late can still watch (the server keeps only the code's hash: the page is the only place
   * it is). */
  roomInviteLinks(): { label: string; link: string }[] {
    const room = this.room;
    if (room === null || this.replay !== null) return [];
    if (this.created?.room.roomId === room.info.roomId) return this.createdLinks();
    const link = saved.invite(this.account?.accountId ?? "", room.info.roomId);
    return link ? [{ label: "Players (and live spectators)", link }] : [];
  }

  /** Whether the viewer plays in the game and has lost it (in a game of three or more that
   * goes on without them, rule 800.4a: they have nothing more to do in it). */
  get viewerLost(): boolean {
    return this.room?.role === Role.PLAYER && this.mirror.ready
      && (this.mirror.players.get(this.viewer)?.hasLost ?? false);
  }

  /** Whether the viewer may concede: a player of a game going on who hasn't lost. */
  /** Concede's question (its button's second click): in a match, that it concedes this game
   * (which game; whether the match goes on after it) -- it read "Really concede?" alone. */
  get concedeQuestion(): string {
    const m = this.match;
    if (m === null || m.bestOf <= 1 || m.phase !== MatchPhase.PLAYING) return "Really concede?";
    const need = Math.floor((m.bestOf + 1) / 2); // (rule 100.6a)
    const others = m.wins.filter((_, seat) => seat !== this.viewer);
    // (A match plays at most twice its games, after draws: server/rooms/match.py.)
    const ends = others.some((w) => w + 1 >= need) || m.gameNumber >= 2 * m.bestOf;
    return `Concede this game? (game ${m.gameNumber} of ${m.bestOf}; `
      + `${ends ? "that ends the match" : "the match goes on"})`;
  }

  get canConcede(): boolean {
    return this.room?.role === Role.PLAYER && this.mirror.ready && !this.mirror.gameOver
      && !this.viewerLost;
  }

  /** Why a player lost, as the server said it (PlayerLostEvent.reason: "Bob#0002 has 0 or
   * less life"), or "" if this page never heard (the result's reason names the last player
   * to lose; a draw's begins "draw: "). In the viewer's words: {@link reasonWords}. */
  lossReason(seat: number): string {
    const told = this.lossReasons.get(seat);
    if (told !== undefined) return told;
    const name = this.mirror.players.get(seat)?.name;
    const last = (this.mirror.header.result?.reason ?? "").replace(/^draw: /, "");
    return name && last.startsWith(`${name} `) ? last : "";
  }

  /** Each player's result, in seat order: won, lost (and why, in the viewer's words: "you
   * have 0 or less life", "Bob#0002 conceded"), drew, or still playing. */
  playerResults(): PlayerResult[] {
    const result = this.mirror.header.result;
    return [...this.mirror.players.values()].sort((a, b) => a.seat - b.seat).map((p) => {
      const outcome: PlayerResult["outcome"] = result?.winners.includes(p.seat) ? "won"
        : p.hasLost ? "lost" : result === undefined ? "playing"
          : result.winners.length === 0 ? "drew" : "lost";
      return { seat: p.seat, outcome, why: outcome === "lost" ? reasonWords(this, this.lossReason(p.seat)) : "" };
    });
  }

  /** What a disconnected player's absence means, for everyone else in a game that goes on
   * (protocol/README.md, "Dropping and resuming", "Clocks"): one sentence per such player. */
  presenceNotes(): string[] {
    if (!this.mirror.ready || this.mirror.gameOver) return [];
    const pending = this.mirror.header.pending;
    const notes: string[] = [];
    for (const [seat, connected] of this.presence) {
      const p = this.mirror.players.get(seat);
      if (connected || seat === this.viewer || p === undefined || p.hasLost) continue;
      const now = pending?.seat === seat ? " (it is their decision now: their clock is running)" : "";
      notes.push(`${this.player(seat)} is disconnected: their seat is kept, and their clock runs `
        + `while it is their decision${now}; if it runs out, or they stay away too long while `
        + "the game waits on them, they lose the game. " // (rule 104.3a)
        + "They play on where they were when they come back.");
    }
    return notes;
  }

  /** Remaining time on a seat's clock now (ms). */
  clockNow(seat: number, now: number): number | null {
    const c = this.clocks.get(seat);
    if (!c) return null;
    return Math.max(0, c.running ? c.remainingMs - (now - c.at) : c.remainingMs);
  }

  // ---- replays (protocol/README.md, "Replays"; replay.ts)
  /** Replay a finished game: from the lobby, or (another game or view) from a replay. */
  openReplay(target: ReplayTarget): void {
    if (this.status !== "connected") {
      this.error = "Not connected to the server.";
    } else if (this.replay !== null) {
      // The one shown stops first (a connection plays one replay at a time); if the new one
      // is refused, this one opens again where it was.
      const r = this.replay;
      this.replayNext = { target, fallback: { ...r.target, action: r.action, turn: undefined } };
      this.request("replay-stop", { case: "replayControl", value: { command: { case: "stop", value: true } } });
    } else if (this.room !== null || this.queue !== null) {
      this.error = "Leave the room (or the quick-match queue) first: replays are opened from the lobby.";
    } else {
      this.startReplay(target, null);
    }
    this.changed();
  }

  /** The finished games of the room whose game-over panel is shown (a match's each game;
   * a single game: its one), for its Replay buttons: game ids, or none while the room's
   * game (or match) goes on. */
  get finishedGameIds(): string[] {
    const room = this.room;
    if (room === null || this.replay !== null || !this.finishedHere) return [];
    const games = this.match === null ? 1 : Math.max(1, this.match.gameNumber);
    return Array.from({ length: games }, (_, i) => gameId(room.info.roomId, i + 1));
  }

  /** Replay a finished game of the room shown (its game-over panel's Replay): the room is
   * left for the replay, with the invite code this page has for it (a private room's). */
  replayFinished(id: string): void {
    const room = this.room;
    if (room === null || !this.finishedGameIds.includes(id)) return;
    const roomId = room.info.roomId;
    const code = this.created?.room.roomId === roomId ? this.created.code
      : this.lastJoin.roomId === roomId ? this.lastJoin.code
        : parseInvite(saved.invite(this.account?.accountId ?? "", roomId).replace(/^[^#]*/, ""))?.code ?? "";
    const target: ReplayTarget = { roomId: id, code, bestOf: this.match?.bestOf ?? (room.info.bestOf || 1),
      games: this.finishedGameIds.length };
    this.leaveRoom();
    this.notice = "";
    this.startReplay(target, null);
    this.changed();
  }

  /** Stop the replay and go back to the lobby. */
  closeReplay(): void {
    if (this.replay === null) return;
    this.request("replay-stop", { case: "replayControl", value: { command: { case: "stop", value: true } } });
    this.replay = null;
    this.replayNext = null;
    this.clearRoom();
    this.notice = "";
    this.listRooms();
    this.changed();
  }

  private startReplay(target: ReplayTarget, fallback: ReplayTarget | null): void {
    const replay = new Replay(target, (command) => {
      this.request("replay-control", { case: "replayControl", value: { command } });
      this.changed();
    });
    this.replay = replay;
    this.replayFallback = fallback;
    this.request("replay", { case: "replay", value: replay.request() });
  }

  /** The `#replay=` link this page was opened with, once signed in (in no room). */
  private openWantedReplay(): void {
    const wanted = this.replayWanted;
    if (wanted === null || this.status !== "connected" || this.room !== null || this.replay !== null) return;
    this.replayWanted = null;
    this.startReplay(wanted, null);
  }

  /** A message while a replay is shown; whether it was the replay's. */
  private replayMessage(msg: ServerMessage, kind: RequestKind | undefined): boolean {
    const replay = this.replay;
    if (replay === null) return false;
    const body = msg.body;
    switch (body.case) {
      case "replayStatus": {
        if (kind === "replay") { // opened: shown as a spectator's game is
          const { room, game } = splitGameId(body.value.roomId);
          const listed = this.rooms.find((r) => r.roomId === room);
          this.clearRoom();
          this.room = { info: listed ?? create(RoomInfoSchema, { roomId: room, name: room }),
            role: Role.SPECTATOR, seat: body.value.viewer, tier: 0 };
          this.notice = "";
          this.error = "";
          replay.status(body.value, false);
          if (game > 1) this.addLog(`— Game ${game} of the match —`);
        } else replay.status(body.value, kind === "replay-control");
        return true;
      }
      case "snapshot": {
        if (this.room === null) return true;
        this.snapshotAsked = false;
        try {
          this.mirror.loadSnapshot(body.value);
          this.declared.clear(); // (a round's declarations seen before it are not known)
        } catch (err) {
          this.desync(err);
          return true;
        }
        this.remember();
        this.turnTold = this.mirror.header.turn;
        const state = body.value.stateId;
        const timeline = replay.timeline;
        if (replay.loading && timeline.first === 0n) timeline.start(state);
        else if (timeline.knows(state) || timeline.complete) {
          // The log up to this point: every delta's lines to its state id.
          const head = this.log[0]?.startsWith("— Game ") ? [this.log[0]] : [];
          this.log = [];
          this.logDropped = 0;
          for (const line of [...head, ...timeline.linesUpTo(state)]) this.addLog(line);
          this.logChanges++;
          this.lossReasons.clear();
          for (const [seat, why] of timeline.lossesUpTo(state)) this.lossReasons.set(seat, why);
        }
        if (!replay.loading) replay.delta(state, this.mirror.header.turn);
        return true;
      }
      case "delta": {
        if (this.room === null || !this.mirror.ready || this.snapshotAsked) return true;
        const applied = this.applyDelta(body.value);
        if (applied === null) return true;
        const lines = applied.map((line) => line.text);
        const d = body.value;
        const told = replay.timeline.linesAt(d.stateId);
        const losses: [number, string][] = [];
        for (const event of d.events) {
          this.noteLoss(event);
          if (event.kind.case === "playerLost") losses.push([event.kind.value.seat, event.kind.value.reason]);
        }
        const marker = this.turnMarker();
        if (marker) lines.push(marker);
        if (replay.loading) replay.timeline.record(d.prevStateId, d.stateId, lines, losses);
        for (const line of told ?? lines) this.addLog(line);
        replay.delta(d.stateId, this.mirror.header.turn);
        return true;
      }
      case "replayEnded": {
        const e = body.value;
        if (!e.stopped) {
          replay.ended(Number(e.action), this.mirror.stateId);
          return true;
        }
        const next = this.replayNext;
        this.replayNext = null;
        if (next !== null) { // another game or view of it
          this.startReplay(next.target, next.fallback);
        } else if (kind !== "replay-stop") { // ended by the server (request id 0)
          this.replay = null;
          this.clearRoom();
          // Why, if the server said (a full server ended the quietest replay for another's);
          // else it was left 10 minutes without a control.
          this.notice = this.replayEndWhy
            ? `The replay was closed by the server: ${this.replayEndWhy}`
            : "The replay was closed by the server after 10 minutes without a control.";
          this.listRooms();
        }
        this.replayEndWhy = "";
        return true;
      }
      case "error": {
        const { code, message } = body.value;
        if (kind === "replay") { // refused: back to the lobby, or to the replay it replaced
          const text = replayErrorText(code, message, replay.target.roomId);
          const fallback = this.replayFallback;
          this.replay = null;
          this.clearRoom();
          if (fallback !== null) {
            this.startReplay(fallback, null);
            if (this.replay !== null) (this.replay as Replay).error = text;
          } else this.error = text;
          return true;
        }
        if (kind === "replay-control") {
          replay.refused(message || ErrorCode[code] || "refused");
          return true;
        }
        if (kind === undefined && code === ErrorCode.LIMIT_REACHED) {
          this.replayEndWhy = message; // (its ReplayEnded follows: said then)
          return true;
        }
        return false;
      }
      case "welcome": case "resumed": {
        if (kind !== "hello" && kind !== "resume") return false;
        // A new connection (the replay belonged to the one that dropped): open it again
        // where it was.
        const w = body.case === "welcome" ? body.value : body.value.welcome;
        if (w) this.welcomed(w, kind);
        const here = { ...replay.target, action: replay.action, turn: undefined };
        this.replay = null;
        this.clearRoom();
        this.startReplay(here, null);
        return true;
      }
      default: return false;
    }
  }

  // ---- messages
  /** Send a request; its id (null: not connected, and the page says so). */
  private request(kind: RequestKind, body: ClientBody): bigint | null {
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

  private handle(msg: ServerMessage): void {
    const kind = msg.requestId ? this.requests.get(msg.requestId) : undefined;
    // (A request answered by several messages keeps its kind for the later ones: a queue's
    // Joined; a created room's Joined, which follows its RoomCreated.)
    const more = msg.body.case === "matchQueue" || (msg.body.case === "roomCreated" && kind === "create-join");
    if (msg.requestId && !more) this.requests.delete(msg.requestId);
    const body = msg.body;
    // A request of the player's answered, not refused: an earlier error no longer stands
    // (a name refused, then registered, still showed the refusal beside "Signed in").
    if (kind !== undefined && CLEARS_ERROR.has(kind) && body.case !== "error") this.error = "";
    if (this.replay !== null && this.replayMessage(msg, kind)) {
      this.changed();
      return;
    }
    switch (body.case) {
      case "welcome":
        this.welcomed(body.value, kind);
        if (kind === "register" && body.value.account) {
          this.notice = `Registered as ${body.value.account.name}: sign in with this name and `
            + "your password, here or anywhere.";
        }
        if (this.room === null) this.listRooms();
        break;
      case "resumed": {
        const r = body.value;
        if (r.welcome) this.welcomed(r.welcome, kind);
        const watched = this.room?.role === Role.SPECTATOR ? this.room : null;
        // Resumed watching a room this spectator had left for the one it joined last (the
        // crash lost the move): leave it, then watch the latest again, as below.
        const earlier = watched !== null && r.joined?.room !== undefined
          && r.joined.role === Role.SPECTATOR && r.joined.room.roomId !== watched.info.roomId;
        if (earlier) this.request("leave", { case: "leaveRoom", value: {} });
        if (r.joined?.room && !earlier && this.room !== null && this.room.info.roomId !== r.joined.room.roomId) {
          // Resumed into another room than the board's: the rematch's (the drop came as it
          // started), or back in the old one. The board starts afresh.
          const started = this.rematchStarted, oldName = this.room.info.name;
          this.clearRoom();
          if (started?.newRoomId === r.joined.room.roomId) {
            this.rematchJoined(r.joined.room, started.inviteCode, false, oldName);
          }
        }
        if (r.joined?.room && !earlier) {
          this.room = { info: r.joined.room, role: r.joined.role, seat: r.joined.seat,
            tier: r.joined.tier };
          if (r.joined.role === Role.PLAYER && r.joined.deck) this.storedDeck = r.joined.deck;
          this.notice = ""; // (an invitation to this room, say: it is taken up)
          if (r.snapshot) this.snapshotAsked = true; // a Snapshot follows
          // Placed in a started game with no view of it (the room had closed -- a full disk
          // stops one until it comes back -- so the view was forgotten and the resume said
          // state 0), and no Snapshot coming: only missed deltas, which apply to no view,
          // would follow (an SDK client froze so). Ask for one rather than wait forever
          // (not on a delayed tier, whose first snapshot may not be due yet).
          else if (!this.mirror.ready && r.joined.room.started && r.joined.tier === 0) this.askSnapshot();
        } else if (watched !== null) {
          // A spectator's place is stored without waiting for the commit, so a server crash
          // just after its join loses it; it holds nothing else: watch the room again.
          const { info: { roomId }, tier } = watched;
          const code = this.lastJoin.roomId === roomId ? this.lastJoin.code : "";
          this.clearRoom();
          this.request("rewatch", { case: "joinRoom", value: {
            roomId, role: Role.SPECTATOR, deck: "", inviteCode: code, tier } });
        } else {
          if (this.room) {
            this.notice = "You are no longer in the room: it closed, or its game hadn't "
              + "started and your seat was freed.";
          }
          this.clearRoom();
          this.listRooms();
        }
        break;
      }
      case "roomList": this.rooms = body.value.rooms; break;
      case "roomCreated": {
        const { room, inviteCode } = body.value;
        if (room) {
          this.created = { room, code: inviteCode, plays: this.createPlays,
            link: inviteLink(this.pageUrl, { role: "join", roomId: room.roomId, code: inviteCode }) };
          // Kept for this tab (the server keeps only the code's hash): shown in the room's
          // panel for as long as the room lasts, a reload too.
          if (inviteCode) saved.setInvite(this.account?.accountId ?? "", room.roomId, this.created.link);
          // The join form holds this room (a host watches it from there).
          this.invite = { role: "join", roomId: room.roomId, code: inviteCode };
          this.inviteChanged++;
          // The creator's Joined follows (CreateRoom.join) -- unless they host the room
          // for others: then its links are theirs to hand out.
          if (kind === "create") {
            this.notice = `Room “${room.name}” created; you have no seat in it. Send the `
              + "players its invite link (and the watchers theirs); watch it from the room list "
              + "or the join form.";
          }
        }
        break;
      }
      case "joined": {
        const j = body.value;
        const started = this.rematchStarted, oldRoom = this.room?.info;
        const oldCreated = this.created !== null && this.created.room.roomId === oldRoom?.roomId;
        this.clearRoom();
        if (j.room) this.room = { info: j.room, role: j.role, seat: j.seat, tier: j.tier };
        const rematch = started !== null && j.room !== undefined && j.role === Role.PLAYER
          && started.newRoomId === j.room.roomId;
        if (rematch && j.room) this.rematchJoined(j.room, started.inviteCode, oldCreated, oldRoom?.name ?? "");
        // Which deck the seat was taken (or taken back) with: the server says.
        if (j.role === Role.PLAYER) {
          const dealt = (kind === "join" || kind === "create-join" || kind === "quick")
            && this.lastDeck.trim() === "";
          this.deckWords = deckWords(j.deckName, j.demoDeck, dealt);
          // The deck as the server stores it: what the sideboarding box starts with (an
          // uploaded MTGO .dek's XML is never shown there).
          this.storedDeck = j.deck;
        }
        this.deckProblems = [];
        // What the server noted of the list it read, though it plays (another set's printing).
        this.notice = j.role === Role.PLAYER && j.deckNotes.length
          ? `Note on your deck: ${j.deckNotes.join("; ")}.`
          : rematch ? REMATCH_STARTS : "";
        this.error = "";
        break;
      }
      case "matchQueue": this.queue = body.value.queued ? body.value : null; break;
      case "roomUpdate": {
        // A seat of the waiting room taken or freed: who is seated now.
        const info = body.value.room;
        if (info && this.room && this.room.info.roomId === info.roomId) this.room.info = info;
        break;
      }
      case "roomClosed":
        if (this.created?.room.roomId === body.value.roomId) this.forgetCreated();
        if (this.room && this.room.info.roomId === body.value.roomId) {
          saved.setGameLog(null);
          this.clearRoom();
          this.notice = `The room closed: ${body.value.reason}`;
          this.listRooms();
        }
        break;
      case "snapshot": {
        if (this.room === null) break; // sent before the server read our LeaveRoom
        this.snapshotAsked = false;
        let loaded = true;
        const turnBefore = this.mirror.ready ? this.mirror.header.turn : 0;
        try {
          this.mirror.loadSnapshot(body.value);
          this.declared.clear(); // (a round's declarations seen before it are not known)
          this.forgetExplained();
        } catch (err) {
          loaded = false;
          this.desync(err);
        }
        if (loaded) {
          this.turnTold = this.mirror.header.turn;
          // Afresh (a reloaded page): what just happened. Later (a resume after too long a
          // drop for the missed deltas, a resync): the events between are gone -- say so,
          // then the last ones; a resync adds only what came after the last line told.
          this.remember();
          // What those events name that has left the view since (a creature that died).
          for (const o of body.value.recentObjects) if (!this.seen.has(o.id)) this.seen.set(o.id, o);
          // Why players lost: kept for those who still have (a match's next game: nobody).
          for (const seat of this.lossReasons.keys()) {
            if (!this.mirror.players.get(seat)?.hasLost) this.lossReasons.delete(seat);
          }
          for (const e of body.value.recentEvents) this.noteLoss(e);
          const recent = body.value.recentEvents;
          let told = eventLines(this, recent, this.mirror.header.phase === GamePhase.MULLIGANS)
            .filter((l) => l !== null);
          let cut = recent.length >= RECENT_EVENTS;
          // (a turn before the one last seen: the next game of a match, not a gap)
          const nextGame = this.mirror.header.turn < turnBefore;
          // A reloaded page in the same game: the log this tab showed before, then on.
          const kept = this.log.length === 0 && !nextGame ? saved.gameLog(this.logGame(), this.logViewer()) : null;
          if (kept !== null && kept.lines.length > 0) {
            this.log = kept.lines;
            this.logDropped = kept.dropped;
            this.lastTold = kept.lastTold;
            this.addLog("(reconnected)");
          }
          const fresh = this.log.length === 0 || nextGame;
          if (!fresh && told.length > 0) {
            const at = told.lastIndexOf(this.lastTold);
            if (at >= 0) {
              told = told.slice(at + 1);
              cut = false; // (told from a line already shown: nothing cut)
            } else this.addLog("— caught up: events were missed; the last ones —");
          } else if (fresh && this.mirror.header.phase === GamePhase.MULLIGANS) {
            // Starting afresh during the mulligans (a spectator joining, a reloaded page):
            // the last events began mid-mulligan ("Ann put a card from their hand into their
            // library (×4)" of seven, a hand drawn with no mulligan before it). The
            // mulligans as they stand instead, as the terminal does.
            for (const line of this.mulligansSoFar()) this.addLog(line);
            this.lastTold = told.at(-1) ?? this.lastTold;
            told = [];
          }
          if (cut) {
            // The server's last events are cut at a count, maybe inside a run of alike
            // lines: its first run may be only the tail of one ("drew a card (×3)" of seven)
            // -- left out, not told with a count that isn't true.
            const run = told.findIndex((line) => line !== told[0]);
            told = told.slice(run < 0 ? told.length : run);
          }
          for (const line of told) this.tell(line);
          if (this.rematchLine) { // (before the game's first events)
            this.log.unshift(this.rematchLine);
            this.logChanges++;
            this.rematchLine = "";
            if (this.notice === REMATCH_STARTS) this.notice = ""; // (it has: the board says)
          }
        }
        this.passingTurnEnded();
        this.dropStaleDecision();
        break;
      }
      case "delta": {
        if (this.room === null) break;
        // No view to apply it to and no snapshot on its way (a Joined into a started game
        // is followed by its Snapshot; this one never came): ask for one.
        if (!this.mirror.ready && !this.snapshotAsked) this.askSnapshot();
        if (!this.mirror.ready || this.snapshotAsked) break; // a snapshot is on its way
        const lines = this.applyDelta(body.value);
        if (lines === null) break;
        for (const event of body.value.events) this.noteLoss(event);
        // (Lines not told: no snapshot's recent events repeat them, to find where the log
        // left off.)
        for (const line of lines) {
          if (line.told) this.tell(line.text);
          else this.addLog(line.text);
        }
        const marker = this.turnMarker();
        if (marker) this.addLog(marker);
        this.passingTurnEnded();
        this.dropStaleDecision();
        break;
      }
      case "decision": {
        const d = body.value;
        if (this.room !== null && d.seat === this.viewer) {
          this.decision = d;
          this.decisionNote = "";
          // A new decision, or the same one sent again after a resume (the answer sent just
          // before the drop may have been lost): it can be answered.
          this.sentPrompt = null;
          if (d.kind !== DecisionKind.ORDER_GRAVEYARD) this.anyOrder = false; // (that order is done)
          if (this.passingNoteFor !== null && this.passingNoteFor !== d.promptId) this.passingNote = "";
          const paying = poolPaysExactly(d, this.mirror.players.get(this.viewer)?.manaPool);
          this.cancelDelayedPass(); // (a new decision: the wait was for the one before)
          if (nothingCanBlock(d)) { // no choice in it (rule 509.1a): answered at once
            this.addLog(NO_BLOCKERS_TEXT);
            this.noBlockersSaid = d.promptId;
            this.act(0);
          } else if (alikeOrder(this, d, this.mirror.objects.values())) { // (404.3)
            this.act(0);
          } else if (this.anyOrder && d.kind === DecisionKind.ORDER_GRAVEYARD) { // (as listed)
            this.act(0);
          } else if (paying >= 0 && this.tappedToPay && d.stateId === this.mirror.stateId) { // (601.2h: one way)
            this.act(paying);
          } else if (!this.passTurnOn(d)) this.autoPass();
          if (this.passingNote && this.passingNoteFor === null) this.passingNoteFor = d.promptId;
        }
        break;
      }
      case "clocks": {
        if (this.room === null) break;
        const at = Date.now();
        this.clocks = new Map(body.value.seats.map((c) => [c.seat,
          { remainingMs: Number(c.remainingMs), running: c.running, at }]));
        break;
      }
      case "presence":
        if (this.room === null) break;
        this.presence = new Map(body.value.seats.map((p) => [p.seat, p.connected]));
        break;
      case "matchState": {
        if (this.room === null) break;
        const before = this.match;
        const m = body.value;
        this.match = m;
        this.matchAt = Date.now();
        if (m.phase === MatchPhase.PLAYING && (before === null
            || before.phase !== MatchPhase.PLAYING || before.gameNumber !== m.gameNumber)) {
          const line = `— Game ${m.gameNumber} of ${m.bestOf} (${this.namedScore(m)}) —`;
          // The first word of the match this page hears comes after the game's snapshot:
          // its recent events are this game's, and stay under the line.
          if (before === null && this.log.length > 0) {
            // (Not again over a reloaded page's kept log, which has it already.)
            if (!this.log.includes(line) && !this.log.includes(logSentence(line, this.playerNames()))) {
              this.log.unshift(line);
              this.logChanges++;
            }
          } else this.addLog(line);
          this.deckSent = false;
          // "Deck accepted for game 2" said what the sideboarding did: now it is played (the
          // sideboarding's MatchState already carries the next game's number).
          if (before !== null) this.notice = "";
        } else if (m.phase === MatchPhase.OVER && before?.phase !== MatchPhase.OVER) {
          this.addLog(this.matchLine);
        }
        break;
      }
      case "deckAccepted": {
        const a = body.value;
        if (a.deck) this.storedDeck = a.deck;
        this.deckFor = a.gameNumber;
        this.deckSent = false;
        this.deckProblems = [];
        this.error = "";
        this.notice = a.kept ? `You keep your deck for game ${a.gameNumber}.`
          : `Deck accepted for game ${a.gameNumber}: ${a.mainCount} cards, `
            + `${a.sideboardCount} in the sideboard.`
            + (a.notes.length ? ` Note: ${a.notes.join("; ")}.` : "");
        break;
      }
      case "cardExplanation": { // (an answer to an earlier state's question says nothing now)
        const e = body.value;
        if (this.explaining.get(msg.requestId) === e.objectId) {
          this.explaining.delete(msg.requestId);
          this.explained.set(e.objectId, e.castable ? "It can be cast now." : e.reason);
        }
        break;
      }
      case "error":
        if (kind === "rematch") { // (the panel says it, beside its button)
          this.rematchSent = false;
          this.rematchRefused = `No rematch: ${body.value.message.replace(/^no rematch: /i, "")}.`;
          break;
        }
        if (kind === undefined && body.value.code === ErrorCode.LIMIT_REACHED
            && /^no rematch: /i.test(body.value.message) && this.room !== null && this.finishedHere) {
          // Every player offered but the server couldn't make the rematch's room: the players
          // were let go from the old room (protocol/README.md, "Rematch").
          this.clearRoom();
          this.notice = `No rematch: ${body.value.message.replace(/^no rematch: /i, "")}.`;
          this.listRooms();
          break;
        }
        if (kind === "explain") { // a question refused (its card can't be told): asked no more
          const asked = this.explaining.get(msg.requestId);
          if (asked !== undefined) {
            this.explaining.delete(msg.requestId);
            this.explained.set(asked, `The server says: ${body.value.message}`);
          }
          break;
        }
        this.failed(kind, body.value.code, body.value.message, body.value.details,
          body.value.incidentId); break;
      case "notice": {
        // The server tells, and asks nothing (protocol/README.md, "Notices"): a line in the
        // game's log and the banner -- no error; the decision stays as it was.
        const text = noticeText(body.value.message);
        this.notice = text;
        if (this.room !== null) this.addLog(text);
        break;
      }
      case "rematchOffers": this.rematchOffers(body.value, kind); break;
      case "rematchStarted": {
        const r = body.value;
        if (this.room === null || this.room.info.roomId !== r.oldRoomId) break;
        this.rematchStarted = r;
        this.rematchSent = false;
        if (this.room.role === Role.PLAYER) {
          this.notice = REMATCH_STARTS; // (its Joined follows)
          this.addLog("— Rematch: every player offered; a new game starts —");
        } else {
          const line = r.newRoomId ? "The players started a rematch: you can watch it."
            : "The players started a rematch (in a private room).";
          this.notice = line;
          this.addLog(line);
        }
        break;
      }
      case "replayStatus": case "replayEnded": break; // of a replay closed already
      case undefined: break; // a message this client doesn't understand (a newer server)
      default: assertNever(body);
    }
    if (body.case === "welcome" || body.case === "resumed") this.openWantedReplay();
    this.changed();
  }

  private welcomed(w: NonNullable<Extract<ServerMessage["body"], { case: "welcome" }>["value"]>,
                   kind: RequestKind | undefined): void {
    if (w.accountToken) this.setAccountToken(w.accountToken);
    if (w.resumeToken) this.setResumeToken(w.resumeToken);
    if (kind === "hello") {
      // A Welcome to a Hello with no resume token: the session for replays only it asked for.
      const side = !w.resumeToken && this.greeted === "token";
      if (side && !this.side) {
        this.notice = "Your account is playing in another tab or device: this tab shows replays "
          + "only (joining a game here is refused; reload the page without the replay link to "
          + "play here instead).";
      }
      this.side = side;
      // A copied tab whose other tab's session is gone (closed long enough): an ordinary one.
      if (!side && this.copiedTab) {
        this.copiedTab = false;
        this.notice = "";
      }
    }
    const signingIn = this.account === null;
    if (w.account) this.account = w.account;
    this.status = "connected";
    if (signingIn && this.notice !== "" && this.notice === this.inviteNoticed) this.noteInvite();
    this.reconnectDelay = BACKOFF_FIRST;
    this.reconnectSince = 0;
    this.greeting = { kind: "resume" };
  }

  private failed(kind: RequestKind | undefined, code: ErrorCode, message: string,
                 details: string[], incident: string): void {
    if (kind !== undefined && CLEARS_ERROR.has(kind)) this.notice = ""; // ("You left the
    // room." beside a deck refused afterwards read as the refusal's outcome)
    switch (code) {
      case ErrorCode.RESUME_FAILED:
        // The session is gone (or the token is void): say Hello with the account token.
        this.setResumeToken("");
        this.clearRoom();
        if (this.accountToken) {
          this.greeting = { kind: "token" };
          this.greet();
        } else {
          this.conn.drop();
          this.status = "signed-out";
        }
        return;
      case ErrorCode.UNAUTHENTICATED:
        if (kind === "hello") {
          this.conn.drop();
          this.status = "signed-out";
          if (this.greeted === "token") { // the stored token was refused (revoked)
            this.setAccountToken("");
            this.error = "Your saved sign-in is no longer valid: sign in again.";
          } else this.error = message; // a wrong name or password: the stored token stays
          this.account = null;
          return;
        }
        break;
      case ErrorCode.INVALID_ARGUMENT:
      case ErrorCode.LIMIT_REACHED:
        if (kind === "hello") { // a name refused, or too many new guests: not signed in
          this.conn.drop();
          this.status = "signed-out";
          this.account = null;
          this.error = message;
          return;
        }
        break;
      case ErrorCode.STALE_PROMPT:
        // Our answer crossed a newer state: the next Decision will come.
        if (kind === "act") { this.sentPrompt = null; return; }
        break;
      case ErrorCode.INVALID_DECK:
        this.deckProblems = deckProblems(details.length ? details : [message]);
        if (kind === "deck") {
          this.deckSent = false;
          this.error = `Your deck was refused (${message}): see its problems below.`;
          return;
        }
        // (Refused with CreateRoom.join, no room was created: fix it, create again.)
        this.error = "The deck was refused: see its problems below.";
        this.deckRefusal = this.error;
        return;
      case ErrorCode.RATE_LIMITED:
        if (kind === "act") this.sentPrompt = null;
        break;
      case ErrorCode.INTERNAL:
        this.error = `The server had an internal error (incident ${incident}): ${message}`;
        return;
      default:
        if (kind === "act") this.sentPrompt = null;
        break;
    }
    if (kind === "deck") this.deckSent = false;
    if (kind === "quick") this.queue = null; // refused, or dropped from the queue
    if (kind === "snapshot") { // asked again, a little later
      this.snapshotAsked = false;
      this.askSnapshot();
    }
    if (kind === "list") return; // a refused refresh isn't worth a message
    if (kind === "rewatch") { // watching again after a resume: the room is gone
      this.notice = `You are no longer watching the room: ${message}`;
      this.listRooms();
      return;
    }
    this.error = message || ErrorCode[code] || "The server refused the request.";
  }

  /** Apply a delta to the mirror, keeping what the board showed before it; its log lines,
   * `told` those of its events (null: it didn't apply, and a snapshot is asked for). */
  private applyDelta(delta: Delta): LogLine[] | null {
    this.remember();
    this.before = [...this.mirror.objects.values()];
    const { phase, pending } = this.mirror.header;
    const damageStepBefore = damageStepOf(this.mirror.header);
    const asked = pending === undefined ? null
      : { seat: pending.seat, kind: pending.kind, promptId: pending.promptId };
    try {
      this.mirror.applyDelta(delta);
    } catch (err) {
      this.desync(err);
      return null;
    }
    const mulligans = phase === GamePhase.MULLIGANS;
    const lines = mulligans ? this.keptLines(delta, asked) : [];
    const damageStep = combatDamageMarker(damageStepBefore, damageStepOf(this.mirror.header));
    if (damageStep) lines.push(damageStep);
    // What a resolving spell did that only the view tells (Frost Breath's tapping, a pump's
    // new size): before the line of the spell leaving the stack, the last step of its
    // resolving (608.2n); else after the events. Not told (a snapshot's recent events never
    // hold them), nor is "didn't block", said after the events.
    const end = resolutionEnd(delta.events);
    let effects = [...this.tappedByResolving(delta, asked), ...this.strengthChanges(delta)];
    const said: LogLine[] = lines.map((text) => ({ text, told: true }));
    eventLines(this, delta.events, mulligans).forEach((line, index) => {
      if (index === end) {
        said.push(...effects.map((text) => ({ text, told: false })));
        effects = [];
      }
      if (line) said.push({ text: line, told: true });
    });
    const noBlock = this.noBlockLine(delta, asked);
    if (noBlock) said.push({ text: noBlock, told: false });
    said.push(...effects.map((text) => ({ text, told: false })));
    return said;
  }

  /** "Bob didn't block", "You didn't block": a declaration of blockers (509.1) seen answered
   * -- the pending DECLARE_BLOCKERS decision `asked` before this delta gone, not for another
   * blocker of the same player's -- with no block in it (the game tells blocks,
   * BlockersDeclaredEvent, and nothing when there are none: a new player's review). Not when
   * the client already said none of the viewer's creatures can block. "" otherwise. */
  private noBlockLine(delta: Delta, asked: { seat: number; kind: DecisionKind; promptId: bigint } | null): string {
    if (asked === null || asked.kind !== DecisionKind.DECLARE_BLOCKERS) return "";
    const now = this.mirror.header.pending;
    if (now?.promptId === asked.promptId || (now?.seat === asked.seat && now.kind === DecisionKind.DECLARE_BLOCKERS)) return "";
    if (this.mirror.gameOver || this.mirror.players.get(asked.seat)?.hasLost) return "";
    if (delta.events.some((e) => e.kind.case === "blockersDeclared")) return "";
    if (asked.seat === this.viewer && this.noBlockersSaid === asked.promptId) return "";
    return `${seatName(this, asked.seat)} didn't block`;
  }

  /** Permanents a resolving spell or ability tapped (Frost Breath), in words: "Bob's Grizzly
   * Bears became tapped" -- the game tells no event of it, and the log said nothing (a new
   * player's review). Only in a delta where something left the stack (a spell or ability
   * resolved), so an attack's or a cost's tapping isn't said. Nor a player's permanents in a
   * delta answering their payment (`asked`, a PAY_MANA decision): Miscast's "unless its
   * controller pays {3}" paid automatically taps the lands in the delta in which Miscast
   * leaves the stack ("your Mountain became tapped (×3)"); as the terminal's board. */
  private tappedByResolving(delta: Delta, asked: { seat: number; kind: DecisionKind } | null): string[] {
    const paying = asked !== null && asked.kind === DecisionKind.PAY_MANA ? asked.seat : null;
    const before = new Map(this.before.map((o) => [o.id, o]));
    const resolved = this.before.some((o) => o.zone?.kind === ZoneKind.STACK
      && this.mirror.objects.get(o.id)?.zone?.kind !== ZoneKind.STACK);
    if (!resolved) return [];
    const said: string[] = [];
    for (const op of delta.ops) {
      if (op.op.case !== "updateObject") continue;
      const was = before.get(op.op.value.id), now = this.mirror.objects.get(op.op.value.id);
      if (was === undefined || now === undefined || was.tapped || !now.tapped
          || was.zone?.kind !== ZoneKind.BATTLEFIELD || now.zone?.kind !== ZoneKind.BATTLEFIELD
          || now.controller === paying) continue;
      said.push(`${possessive(this, now.controller)} ${now.name || "permanent"} became tapped`);
    }
    return said;
  }

  /** Creatures whose power or toughness the delta changed, in words ({@link strengthChange}):
   * "your Pridemalkin is now 7/6 (was 3/2)"; at the cleanup (514.2), or in a delta that went
   * on into the next turn, "... is 3/2 again (the +4/+4 ended)". Said before the resolving
   * spell's move to its graveyard (608.2n, {@link resolutionEnd}), as the terminal does. */
  private strengthChanges(delta: Delta): string[] {
    const before = new Map(this.before.map((o) => [o.id, o]));
    const { step, turn } = this.mirror.header;
    const ended = step === Step.CLEANUP || (this.turnTold > 0 && turn !== this.turnTold);
    const said: string[] = [];
    for (const op of delta.ops) {
      if (op.op.case !== "updateObject") continue;
      const id = op.op.value.id;
      const line = strengthChange(this, before.get(id), this.mirror.objects.get(id), ended);
      if (line !== null) said.push(line);
    }
    return said;
  }

  /** Who kept their hand, once a round of keep-or-mulligan declarations is over (103.5):
   * the game tells the mulligans taken (MulliganTakenEvent) but no keep, which nobody saw
   * (a new player's review). A declaration seen answered (the pending MULLIGAN decision
   * `asked` before this delta gone) is a keep unless the round's end -- mulligans taken, or
   * the first turn begun -- says that player took a mulligan. In the terminal's words: "Bob
   * kept 6 cards", "you kept 7 cards". */
  private keptLines(delta: Delta, asked: { seat: number; kind: DecisionKind; promptId: bigint } | null): string[] {
    const now = this.mirror.header.pending;
    if (asked !== null && asked.kind === DecisionKind.MULLIGAN && now?.promptId !== asked.promptId) {
      this.declared.add(asked.seat);
    }
    const took = new Set(delta.events.flatMap((e) => e.kind.case === "mulliganTaken" ? [e.kind.value.seat] : []));
    if (took.size === 0 && this.mirror.header.phase === GamePhase.MULLIGANS) return [];
    const lines: string[] = [];
    for (const seat of [...this.declared].sort((a, b) => a - b)) {
      if (took.has(seat)) continue;
      const cards = this.mirror.players.get(seat)?.handCount ?? 0;
      lines.push(`${seatName(this, seat)} kept ${cards === 1 ? "1 card" : `${cards} cards`}`);
    }
    this.declared.clear();
    return lines;
  }

  private desync(err: unknown): void {
    if (!(err instanceof MirrorDesyncError)) throw err;
    console.warn("view out of sync, asking for a snapshot:", err.message);
    this.askSnapshot();
  }

  /** Ask for a snapshot (protocol/README.md, "Views, state ids and hashes"): once at a time,
   * at most one a second; deltas are ignored until it comes. */
  private askSnapshot(): void {
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

  /** The mulligans as the view shows them now: who plays first, each player's mulligans
   * taken and cards in hand (rules 103.1, 103.5); as the terminal says them. */
  private mulligansSoFar(): string[] {
    const { startingSeat } = this.mirror.header;
    const lines = ["— The mulligans so far —"]; // (rule 103.5)
    if (this.mirror.players.has(startingSeat)) {
      lines.push(`${seatName(this, startingSeat)} ${startingSeat === this.viewer ? "play" : "plays"} first`);
    }
    for (const p of [...this.mirror.players.values()].sort((a, b) => a.seat - b.seat)) {
      const taken = p.mulligans === 0 ? "no mulligan" : p.mulligans === 1 ? "1 mulligan" : `${p.mulligans} mulligans`;
      const cards = p.handCount === 1 ? "1 card" : `${p.handCount} cards`;
      lines.push(`${seatName(this, p.seat)} ${p.seat === this.viewer ? "have" : "has"} taken ${taken}: `
        + `${cards} in hand`);
    }
    return lines;
  }

  /** A player's loss: why, to say it (the board shows only that they lost). */
  private noteLoss(event: GameEvent): void {
    if (event.kind.case === "playerLost") this.lossReasons.set(event.kind.value.seat, event.kind.value.reason);
  }

  /** A decision whose prompt is no longer the pending one is over. */
  private dropStaleDecision(): void {
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

  /** Out of the room (left it, or it is gone): a room this client created and played in is
   * forgotten with it ({@link created}). */
  private clearRoom(): void {
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
    this.before = [];
    this.snapshotAsked = false;
    this.turnTold = 0;
    this.declared.clear();
    this.passing = null;
    this.passingNote = "";
    this.anyOrder = false;
    this.tappedToPay = false;
  }

  private forgetCreated(): void {
    // The join form filled in with it (for a deck refused at creation) is emptied too.
    if (this.invite !== null && this.invite.roomId === this.created?.room.roomId) {
      this.invite = null;
      this.inviteChanged++;
    }
    this.created = null;
  }

  // ---- the socket's life
  private closed(code: number, reason: string): void {
    // Requests of the dropped connection get no answer now (a join in flight mustn't keep
    // the next one from being sent).
    this.requests.clear();
    // (An offer of a rematch on its way is answered by no one: the button is free again --
    // and a dropped player's offer is withdrawn; the server says who offers once resumed.)
    this.rematchSent = false;
    if (code === CLOSE_REPLACED) {
      this.status = "replaced";
      this.error = "This session was taken over by another tab or device.";
      this.changed();
      return;
    }
    if (this.account === null) { // never got in: nothing to resume
      this.status = "signed-out";
      this.unreachable = !this.error; // (a refusal the server gave reached it)
      if (!this.error) this.error = `Could not reach the server${reason ? `: ${reason}` : ""}.`;
      this.changed();
      return;
    }
    const now = Date.now();
    if (this.reconnectSince === 0) this.reconnectSince = now;
    if (now - this.reconnectSince > RECONNECT_FOR) {
      this.status = "offline";
      this.changed();
      return;
    }
    this.status = "reconnecting";
    this.changed();
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(BACKOFF_MAX, delay * BACKOFF_FACTOR);
    if (this.reconnectTimer !== null) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.greeting = this.resumeToken ? { kind: "resume" } : { kind: "token" };
      this.conn.open();
    }, delay);
  }

  /** Try again now (after giving up, or at the player's request). */
  reconnect(): void {
    this.reconnectSince = 0;
    this.reconnectDelay = BACKOFF_FIRST;
    this.connect(this.resumeToken ? { kind: "resume" } : { kind: "token" });
  }

  /** Keep the names of the objects now in view (bounded: the oldest are forgotten). */
  private remember(): void {
    for (const [id, obj] of this.mirror.objects) {
      this.seen.delete(id);
      this.seen.set(id, obj);
    }
    for (const id of this.seen.keys()) {
      if (this.seen.size <= SEEN_OBJECTS) break;
      this.seen.delete(id);
    }
  }

  /** Log a game event's line (the last one is remembered: a snapshot's recent events after
   * it are what was missed). */
  private tell(line: string): void {
    this.lastTold = line;
    this.addLog(line);
  }

  /** "— Turn 9: your turn —" once a delta began a new turn (then remembered), else null: the
   * log said no turn (the terminal does), and a run of alike lines was counted across turns --
   * "Eve drew a card (×8)", the opening hand and turn 2's draw. The marker also ends the run. */
  private turnMarker(): string | null {
    const { turn, activeSeat, phase } = this.mirror.header;
    if (turn === this.turnTold || turn === 0 || phase !== GamePhase.PLAYING || this.mirror.gameOver) return null;
    this.turnTold = turn;
    this.turnBeganAt = Date.now();
    const whose = activeSeat === this.viewer ? "your" : `${this.player(activeSeat)}'s`;
    return `— Turn ${turn}: ${whose} turn —`;
  }

  /** Add a log line, its first letter a capital ("You drew a card": lines said "you drew a
   * card", a new player's review); the same line again right after it is counted ("… (×7)"). */
  private addLog(said: string): void {
    const line = logSentence(said, this.playerNames());
    const last = this.log.at(-1);
    const m = last === undefined ? null : /^(.*) \(×(\d+)\)$/.exec(last);
    const [base, count] = m ? [m[1], Number(m[2])] : [last, 1];
    if (base === line) this.log[this.log.length - 1] = `${line} (×${count + 1})`;
    else this.log.push(line);
    if (this.log.length > LOG_LINES) {
      const dropped = this.log.length - LOG_LINES;
      this.log.splice(0, dropped);
      this.logDropped += dropped;
    }
    this.logChanges++;
    this.keepLogSoon();
  }

  private setAccountToken(token: string): void {
    this.accountToken = token;
    saved.accountToken = token;
  }

  private setResumeToken(token: string): void {
    this.resumeToken = token;
    saved.resumeToken = token;
  }

  private changed(): void {
    this.onChange();
  }
}

/** The deck a seated player plays, in words (Joined.deck_name and demo_deck): a demo deck --
 * ``dealt``: the one the server chose, the deck box being empty -- or the player's own list. */
export function deckWords(name: string, demo: boolean, dealt: boolean): string {
  if (demo) return `the demo deck “${name}”${dealt ? ", chosen by the server (your deck box was empty)" : ""}`;
  return name ? `your deck “${name}”` : "your deck";
}

function formatOf(format: "constructed" | "limited"): DeckFormat {
  return format === "limited" ? DeckFormat.LIMITED : DeckFormat.CONSTRUCTED;
}

/** Which combat damage step a header is in (510.4: GameHeader.combatDamageStep, set by the
 * server in a combat damage step); UNSPECIFIED in any other step. */
export function damageStepOf(header: GameHeader): CombatDamageStep {
  return header.step === Step.COMBAT_DAMAGE ? header.combatDamageStep : CombatDamageStep.UNSPECIFIED;
}

/** A combat with a first or double striker has two combat damage steps (510.4), marked in the
 * log as the view enters each: "— First-strike combat damage —", then "— Regular combat damage
 * —" (before the step's damage, if any: first-strike damage may all be prevented). The server
 * says which step it is; a combat's only step is not marked. "" when the delta entered none. */
export function combatDamageMarker(before: CombatDamageStep, now: CombatDamageStep): string {
  if (now === before) return "";
  if (now === CombatDamageStep.FIRST_STRIKE) return "— First-strike combat damage —";
  if (now === CombatDamageStep.REGULAR) return "— Regular combat damage —";
  return "";
}
