/**
 * Replays of finished games (protocol/README.md, "Replays"): what the web client needs to
 * open one -- the `#replay=` link, a room id or link pasted, the games of a match -- and the
 * replay's own state: where it is ("action k of n, turn t"), the controls waiting for their
 * answer, and the game's log by state id.
 *
 * A replay's Snapshot and Deltas are the messages a live view of the same class gets, so the
 * App feeds them to its mirror and the board draws them as it draws a game. The server's
 * replay snapshots carry no `recent_events`, so the log is built here: the replay is opened
 * playing as fast as possible from the game's start, every Delta's events told in words and
 * kept by state id ({@link Timeline}), then it seeks to where the viewer asked to start.
 * From then on the log shown at any point is the lines of every delta up to the mirror's
 * state id -- whether the point was reached by seeking (a Snapshot) or playing (Deltas):
 * seeking to a point gives the same state id as playing to it.
 */
import type { ClientBody } from "./connection";
import { ErrorCode, type ReplayStatus } from "./gen/protocol/v1/messages_pb";

/** Which game to replay, as which view class, from where. */
export interface ReplayTarget {
  /** The game's id: its room id, `ROOM_ID.n` for game n >= 2 of a match. */
  roomId: string;
  /** The seat's view (only its player may), {@link EVERY_CARD} (the game's players only),
   * or undefined: the public (spectators') view. */
  seat?: number | undefined;
  /** The room's invite code (a public replay of a room watched by invitation). */
  code: string;
  /** Where to start: after this many actions, or at the beginning of this turn. */
  action?: number | undefined;
  turn?: number | undefined;
  /** What the page that opened it knew of the room: its games (1: a single game; unset:
   * unknown) and how many of them are finished -- so the viewer offers the games there are,
   * and never "Game 2? →" for a single game (it answered "no such game"). */
  bestOf?: number | undefined;
  games?: number | undefined;
}

/** `ReplayTarget.seat` for the omniscient view: every card in every zone. */
export const EVERY_CARD = -2;
/** `ReplayTarget.seat` for the every-hand view (the every-hand spectator tier's): every hand
 * and look, no library -- the players', and that tier's audience once it has shown the game. */
export const EVERY_HAND = -3;
/** The speeds offered, in actions per second. */
export const SPEEDS = [1, 2, 5, 10, 25] as const;
export const DEFAULT_SPEED = 5;

/** `#replay=ROOM_ID[&seat=N|&view=all|&view=hands][&code=INVITE][&action=K|&turn=T][&of=B&games=G]` (the fragment,
 * with or without "#"), or null. `seat` is the protocol's seat number (0: the first). */
export function parseReplayLink(hash: string): ReplayTarget | null {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const roomId = params.get("replay")?.trim();
  if (!roomId) return null;
  const target: ReplayTarget = { roomId, code: params.get("code")?.trim() ?? "" };
  const seat = wholeNumber(params.get("seat"));
  if (params.get("view") === "all") target.seat = EVERY_CARD;
  else if (params.get("view") === "hands") target.seat = EVERY_HAND;
  else if (seat !== undefined) target.seat = seat;
  const action = wholeNumber(params.get("action"));
  const turn = wholeNumber(params.get("turn"));
  if (action !== undefined) target.action = action;
  else if (turn !== undefined) target.turn = turn;
  // What the page that made the link knew of the room's games (a private room's are listed
  // nowhere): `of` its best-of, `games` how many are finished.
  const bestOf = wholeNumber(params.get("of"));
  const games = wholeNumber(params.get("games"));
  if (bestOf !== undefined && bestOf > 0) target.bestOf = bestOf;
  if (games !== undefined && games > 0) target.games = games;
  return target;
}

/** The link that opens `target` in this client (`base`: the page's address). */
export function replayLink(base: string, target: ReplayTarget): string {
  const params = new URLSearchParams();
  params.set("replay", target.roomId);
  if (target.seat === EVERY_CARD) params.set("view", "all");
  else if (target.seat === EVERY_HAND) params.set("view", "hands");
  else if (target.seat !== undefined) params.set("seat", String(target.seat));
  if (target.code) params.set("code", target.code);
  if (target.action !== undefined) params.set("action", String(target.action));
  else if (target.turn !== undefined) params.set("turn", String(target.turn));
  if (target.bestOf !== undefined) params.set("of", String(target.bestOf));
  if (target.games !== undefined) params.set("games", String(target.games));
  return `${base.replace(/#.*$/, "")}#${params.toString()}`;
}

/** What was pasted into the replay form: a room (game) id, or any link of this client that
 * names a room (`#replay=`, `#watch=`, `#join=`, with its code); null if empty. */
export function parseReplayInput(text: string): ReplayTarget | null {
  const given = text.trim();
  if (!given) return null;
  const hash = given.includes("#") ? given.slice(given.indexOf("#") + 1) : "";
  if (hash) {
    const replay = parseReplayLink(hash);
    if (replay) return replay;
    const params = new URLSearchParams(hash);
    const roomId = (params.get("watch") ?? params.get("join") ?? "").trim();
    if (roomId) return { roomId, code: params.get("code")?.trim() ?? "" };
  }
  return { roomId: given, code: "" };
}

/** The link in this page's address, which is then taken out of it (a reload doesn't open
 * the replay again, and an invite code isn't left on screen). */
export function takeReplayLink(): ReplayTarget | null {
  const target = parseReplayLink(location.hash);
  if (target) history.replaceState(history.state, "", `${location.pathname}${location.search}`);
  return target;
}

/** A game id's match room and game number: `abc.2` is game 2 of room `abc`. */
export function splitGameId(gameId: string): { room: string; game: number } {
  const m = /^(.*)\.(\d+)$/.exec(gameId);
  const n = m ? Number(m[2]) : 1;
  return m && n >= 2 ? { room: m[1] ?? gameId, game: n } : { room: gameId, game: 1 };
}

/** The stored id of game `game` (1-based) of room `room`. */
export function gameId(room: string, game: number): string {
  return game <= 1 ? room : `${room}.${game}`;
}

/** The games of a room that can be replayed: a finished single game; of a match, every
 * game finished so far (all of them once the match is over). */
export function finishedGames(room: { roomId: string; bestOf: number; gameNumber: number;
  started: boolean; finished: boolean }): string[] {
  if (room.bestOf <= 1) return room.finished ? [room.roomId] : [];
  if (!room.started) return [];
  const last = room.finished ? room.gameNumber : room.gameNumber - 1;
  return Array.from({ length: Math.max(0, last) }, (_, i) => gameId(room.roomId, i + 1));
}

/** The games the replay viewer offers to switch to, for game id `current`: each finished
 * game of the match when known (a listed room, or `target.games` from the page that opened
 * it); else the one before and, if the match may have more, "Game n+1? →". A single game
 * (`bestOf` 1), a match known to have no other game finished, or a first game of a room not
 * known to be a match, offers none. */
export function replayGames(target: ReplayTarget, listed: { roomId: string; bestOf: number;
  gameNumber: number; started: boolean; finished: boolean } | undefined): { id: string; label: string }[] {
  const { room, game } = splitGameId(target.roomId);
  const bestOf = listed?.bestOf ?? target.bestOf;
  if (bestOf === 1) return [];
  const known = listed !== undefined ? finishedGames(listed)
    : target.games !== undefined ? Array.from({ length: target.games }, (_, i) => gameId(room, i + 1)) : [];
  if (known.length > 1) return known.map((id) => ({ id, label: `Game ${splitGameId(id).game}` }));
  // Known to have no other game to replay (a match that ended in its first game -- it
  // offered "Game 2? →" -- or whose next game isn't over): none to switch to.
  if (listed !== undefined || target.games !== undefined) return [];
  if (bestOf === undefined && game === 1) return [];
  const more = bestOf === undefined || game < bestOf;
  return [...(game > 1 ? [{ id: gameId(room, game - 1), label: `← Game ${game - 1}` }] : []),
    { id: target.roomId, label: `Game ${game}` },
    ...(more ? [{ id: gameId(room, game + 1), label: `Game ${game + 1}? →` }] : [])];
}

/** A refused replay in words: the server's reason, and what it means for the viewer. */
export function replayErrorText(code: ErrorCode, message: string, roomId: string): string {
  const what = `Can't replay “${roomId}”`;
  const said = message ? `: ${message}` : "";
  switch (code) {
    case ErrorCode.ROOM_NOT_FOUND: return `${what}: no such game${message ? ` (${message})` : ""}.`;
    case ErrorCode.NOT_READY: // (the server's words may say to watch it live already)
      return `${what}: the game hasn't finished yet${said}.${/\blive\b/i.test(message) ? "" : " Watch it live instead."}`;
    case ErrorCode.FORBIDDEN: return `${what}: you may not replay it as that view${said}.`;
    case ErrorCode.LIMIT_REACHED: return `${what}: too many replays at once${said}.`;
    case ErrorCode.GAME_OVER: return `${what}: the game was aborted and can't be replayed${said}.`;
    case ErrorCode.INVALID_ARGUMENT: return `${what}${said}.`;
    default: return `${what}${said || ` (${ErrorCode[code] ?? code})`}.`;
  }
}

/** One delta's words: its state id, its event lines, the players it says lost (and why). */
interface Told { state: bigint; lines: string[]; losses: [number, string][] }

/** The game's log by state id, built from its deltas in order (every delta from the game's
 * start: a gap -- a delta from another state than the last -- stops it: what follows is not
 * known). */
export class Timeline {
  private entries: Told[] = [];
  /** The state id the entries start after (the game's first snapshot's). */
  first = 0n;
  /** The state id the log is known up to. */
  last = 0n;
  /** Whether every delta of the game has been told (the replay reached the game's end). */
  complete = false;

  start(state: bigint): void {
    this.entries = [];
    this.first = this.last = state;
    this.complete = false;
  }

  /** A delta from `prev` to `state` told `lines`; false (and nothing kept) if it isn't the
   * next one. */
  record(prev: bigint, state: bigint, lines: string[], losses: [number, string][] = []): boolean {
    if (this.first === 0n || prev !== this.last || this.complete) return false;
    this.entries.push({ state, lines, losses });
    this.last = state;
    return true;
  }

  /** Whether the log is known at `state`. */
  knows(state: bigint): boolean {
    return this.first !== 0n && state >= this.first && state <= this.last;
  }

  /** The log's lines up to state `state` (all of them it knows, if it is past them). */
  linesUpTo(state: bigint): string[] {
    return this.upTo(state).flatMap((e) => e.lines);
  }

  /** The lines the delta to `state` told (null: not known). */
  linesAt(state: bigint): string[] | null {
    return this.entries.find((e) => e.state === state)?.lines ?? null;
  }

  /** The players who had lost by state `state`, and why. */
  lossesUpTo(state: bigint): Map<number, string> {
    return new Map(this.upTo(state).flatMap((e) => e.losses));
  }

  /** How many deltas are known. */
  get size(): number { return this.entries.length; }

  private upTo(state: bigint): Told[] {
    let n = 0;
    while (n < this.entries.length && (this.entries[n]?.state ?? state + 1n) <= state) n++;
    return this.entries.slice(0, n);
  }
}

type Command = NonNullable<Extract<ClientBody, { case: "replayControl" }>["value"]>["command"];

/** One replay's state and its controls. The App sends what {@link send} is given and feeds
 * the answers back (`status`, `ended`, `delta`, `refused`). Controls are sent one at a time
 * (a seek at a time: steps pressed faster than the server answers go to the last one). */
export class Replay {
  target: ReplayTarget;
  viewer: number;
  action = 0;
  actions = 0;
  turn = 0;
  turns = 0;
  playing = false;
  /** The chosen speed (actions per second) for "Play". */
  speed = DEFAULT_SPEED;
  /** The log is being read (the game played through once, as fast as possible). */
  loading = true;
  /** The log has been read and the replay is on its way to its starting point. */
  private settling = false;
  /** The last refusal of a control, in words ("" none). */
  error = "";
  readonly timeline = new Timeline();
  /** The state id at {@link action} when the server last said it (a delta's action is
   * counted from it while playing). */
  private anchor = { action: 0, state: 0n };
  /** Whether each action of the game gave this view class a delta (state ids then count
   * actions exactly). */
  private dense = false;
  private waiting = 0;
  private queued: Command[] = [];
  /** Where a seek asked but not sent yet will go (steps add to it). */
  private aim: number | null = null;
  /** Where the seek sent and not answered yet goes (steps count from it). */
  private goingTo: number | null = null;
  /** A step pressed while playing: taken once the pause's answer says where it stopped. */
  private stepAfterPause = 0;

  constructor(target: ReplayTarget, private readonly send: (command: Command) => void) {
    this.target = target;
    this.viewer = target.seat ?? -1;
  }

  /** The ReplayRequest that opens it: from the game's start, as fast as possible (the log is
   * read first; {@link startAt} goes where the target says once it has been). */
  request(): Extract<ClientBody, { case: "replay" }>["value"] {
    const t = this.target;
    const perspective = t.seat === undefined ? { case: "public" as const, value: true }
      : t.seat === EVERY_CARD ? { case: "omniscient" as const, value: true }
        : t.seat === EVERY_HAND ? { case: "everyHand" as const, value: true }
          : { case: "seat" as const, value: t.seat };
    return { roomId: t.roomId, perspective, inviteCode: t.code,
      start: { case: "startAction", value: 0n }, speed: 0, paused: false };
  }

  /** "Action 12 of 462 · turn 3 of 16". */
  get position(): string {
    if (!this.ready) return `Reading the game: ${this.action} of ${this.actions} actions…`;
    return `Action ${this.action} of ${this.actions} · turn ${this.turn} of ${this.turns}`;
  }

  get atStart(): boolean { return this.action <= 0; }
  get atEnd(): boolean { return this.action >= this.actions; }
  /** Whether controls are answered now (not while the log is read). */
  get ready(): boolean { return !this.loading && !this.settling; }

  // ---- answers
  /** A ReplayStatus (the opening's, or a control's answer). */
  status(s: ReplayStatus, answersControl: boolean): void {
    this.viewer = s.viewer;
    this.action = Number(s.action);
    this.actions = Number(s.actions);
    this.turn = s.turn;
    this.turns = s.turns;
    this.playing = s.playing;
    this.anchor = { action: this.action, state: s.stateId };
    if (answersControl) {
      this.settling = false;
      this.answered();
    }
  }

  /** A Delta reached state `state` (`turn`: the view's turn after it). */
  delta(state: bigint, turn: number): void {
    if (this.loading || this.dense) {
      this.action = Math.min(this.actions, this.anchor.action + Number(state - this.anchor.state));
    }
    if (this.loading) return;
    this.turn = turn;
  }

  /** ReplayEnded{stopped: false}: the game's end was reached (the log is then whole). */
  ended(action: number, state: bigint): void {
    this.action = action;
    this.playing = false;
    if (this.loading) {
      this.loading = false;
      this.timeline.complete = true;
      this.dense = state - this.timeline.first === BigInt(action);
      this.settling = true;
      this.startAt();
    }
  }

  /** A control was refused. */
  refused(message: string): void {
    this.error = message;
    this.answered();
  }

  // ---- controls
  /** Go to the target's starting point (after the log is read; a refusal said before it
   * -- of another view or game, which this one replaced -- stays said). */
  private startAt(): void {
    const t = this.target;
    const error = this.error;
    this.error = "";
    if (t.turn !== undefined && t.turn > 0) this.command({ case: "seekTurn", value: Math.min(t.turn, this.turns) });
    else this.seek(Math.min(t.action ?? 0, this.actions));
    this.error = error;
  }

  /** Go to just after `action` actions. */
  seek(action: number): void {
    if (this.loading) return;
    const to = Math.max(0, Math.min(this.actions, action));
    this.error = "";
    if (this.waiting > 0) { // sent once what was asked before is answered
      if (this.aim === null) this.queued.push({ case: "seekAction", value: 0n });
      this.aim = to;
      return;
    }
    this.aim = null;
    this.command({ case: "seekAction", value: BigInt(to) });
  }

  /** Step `by` actions (1 forward, -1 back); while playing, from where the pause stops. */
  step(by: number): void {
    if (this.loading) return;
    if (this.playing) {
      this.stepAfterPause += by;
      this.pause();
      return;
    }
    this.seek((this.aim ?? this.goingTo ?? this.action) + by);
  }

  seekTurn(turn: number): void {
    if (this.loading) return;
    this.error = "";
    this.aim = null;
    this.command({ case: "seekTurn", value: Math.max(0, Math.min(this.turns, Math.floor(turn))) });
  }

  play(): void {
    if (this.loading || this.playing) return;
    this.error = "";
    if (this.atEnd) this.seek(0);
    this.command({ case: "speed", value: this.speed });
    this.command({ case: "play", value: true });
    this.playing = true; // (said at once: the button turns to Pause)
  }

  pause(): void {
    if (this.loading) return;
    this.command({ case: "pause", value: true });
    this.playing = false;
  }

  setSpeed(speed: number): void {
    this.speed = speed;
    if (this.playing) this.command({ case: "speed", value: speed });
  }

  private command(command: Command): void {
    if (this.waiting > 0) {
      this.queued.push(command);
      return;
    }
    this.waiting++;
    this.sending(command);
  }

  private sending(command: Command): void {
    this.goingTo = command?.case === "seekAction" ? Number(command.value) : null;
    this.send(command);
  }

  /** A control was answered: send the next one waiting. */
  private answered(): void {
    this.waiting = Math.max(0, this.waiting - 1);
    this.goingTo = null;
    if (this.stepAfterPause !== 0 && !this.playing && this.waiting === 0 && this.queued.length === 0) {
      const by = this.stepAfterPause;
      this.stepAfterPause = 0;
      this.seek(this.action + by);
      return;
    }
    const next = this.queued.shift();
    if (next === undefined) return;
    if (next.case === "seekAction" && this.aim !== null) {
      next.value = BigInt(this.aim);
      this.aim = null;
    }
    this.waiting++;
    this.sending(next);
  }
}

function wholeNumber(text: string | null): number | undefined {
  if (text === null || !/^\d+$/.test(text.trim())) return undefined;
  return Number(text.trim());
}
