/**
 * Signing in and the lobby of the browser client ({@link App}'s layer above applog.ts):
 * Hello, Resume and their Welcome, invites and replay links the page was opened with, a
 * copied tab, creating, joining and leaving rooms, quick match, the deck box, a created
 * room's invite links, and the socket's life (reconnecting with backoff).
 */
import {
  type RoomInfo, type ServerMessage, DeckFormat, MatchPhase, Role, Spectate, TierKind,
} from "./gen/protocol/v1/messages_pb";
import { CLOSE_REPLACED, PROTOCOL_VERSION } from "./connection";
import { deckPrecheck } from "./deck";
import { assertNever, tierText } from "./describe";
import { inviteLink, parseInvite, watchCode, type Invite } from "./links";
import { saved } from "./storage";
import {
  BACKOFF_FIRST, BACKOFF_FACTOR, BACKOFF_MAX, RECONNECT_FOR, type RequestKind, type Greeting,
} from "./appstate";
import { AppLog } from "./applog";

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

export abstract class AppLobby extends AppLog {
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

  protected greet(): void {
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

  protected welcomed(w: NonNullable<Extract<ServerMessage["body"], { case: "welcome" }>["value"]>,
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

  /** A game against the computer (protocol/README.md, "Computer players"): a private room of
   * two seats, the second a computer player the server runs, this player seated in the first
   * with `deck` in the same request -- so the game starts at once. `bestOf` 3 or 5: a match. */
  playComputer(deck: string, bestOf: number, format: "constructed" | "limited"): void {
    if ([...this.requests.values()].includes("create-join")) return; // (one room, not two)
    this.createPlays = true;
    if (!this.checkDeck(deck)) return;
    this.lastDeck = deck;
    this.keepDeckText(deck);
    this.request("create-join", { case: "createRoom", value: {
      name: `${this.account?.name ?? "You"} vs the computer`, seats: 2, private: true,
      format: formatOf(format), bestOf, join: true, deck, computers: 1 } });
  }

  /** Whether `seat` is a computer player the server runs: as the room says
   * (RoomInfo.computers), never by its name -- a person may be named "Computer". */
  isComputer(seat: number): boolean {
    return this.room?.info.computers.includes(seat) ?? false;
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

  leaveRoom(): void {
    if (this.replay !== null) { this.closeReplay(); return; }
    saved.setGameLog(null);
    // Leaving a game one still plays concedes it (rule 104.3a; a match too, between games):
    // say so, as the terminal does.
    const seat = this.room !== null && this.room.role === Role.PLAYER ? this.room.seat : -1;
    const me = seat >= 0 ? this.mirror.players.get(seat) : undefined;
    const conceded = this.mirror.ready && !this.mirror.gameOver && me !== undefined && !me.hasLost;
    // A match not over -- a game in play, or between games -- is conceded whole: said of the
    // match, as the terminal says it ("You left the game" read as if the match went on).
    const m = this.match;
    const matchConceded = seat >= 0 && m !== null && m.bestOf > 1 && m.phase !== MatchPhase.OVER;
    this.request("leave", { case: "leaveRoom", value: {} });
    this.clearRoom();
    this.notice = matchConceded ? "You left the match: you conceded it."
      : conceded ? "You left the game: you conceded." : "You left the room.";
    this.listRooms();
    this.changed();
  }

  concede(): void {
    this.request("concede", { case: "concede", value: {} });
  }

  /** A deck file the player uploaded was read into the deck box (`problem` null), or
   * couldn't be ({@link readDeckFile}'s words): either way the last refusal was of the text
   * sent before, not of this file, so it goes -- "The deck was refused: see its problems
   * below." stood over "... is not UTF-8 text." though nothing was sent (a new player's
   * review). The file's problem is the only one shown. */
  deckFileRead(problem: string | null): void {
    if (this.deckRefusal !== "" && this.error === this.deckRefusal) this.error = "";
    this.deckRefusal = "";
    this.deckProblems = problem === null ? [] : [{ line: 0, message: problem }];
    this.changed();
  }

  protected checkDeck(deck: string): boolean {
    const problem = deckPrecheck(deck);
    this.deckProblems = problem ? [{ line: 0, message: problem }] : [];
    if (problem) this.changed();
    return problem === null;
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

  /** Links to the room this client created: for players, live spectators, and each delayed
   * tier. The watch links carry the room's audience code, never the players' invite code
   * (with which the audience could take a seat: new-user round HIGH). */
  createdLinks(): { label: string; link: string }[] {
    const c = this.created;
    if (!c) return [];
    const { roomId } = c.room;
    const code = watchCode(c.code, c.audience ?? "");
    return [...this.playersLink(c.room, c.link, c.audience ?? ""),
      ...c.room.tiers.map((t, i) => ({ label: `Delayed: ${tierText(t, c.room.players)}`,
        link: inviteLink(this.pageUrl, { role: "watch" as const, roomId, code, tier: i + 1 }) }))];
  }

  /** The players' link to `room` (`link`, a join link) and the live spectators' (a watch link
   * with the room's `audience` code): the players' alone if the room takes no spectators;
   * the spectators' alone when every seat but the creator's is a computer's
   * (RoomInfo.computers) -- nobody else can play. A room known without an audience code (made
   * before rooms had one) has one link for both, its invite code's, as it had. */
  private playersLink(room: RoomInfo, link: string, audience: string): { label: string; link: string }[] {
    const watchable = room.spectate !== Spectate.NONE;
    const invite = parseInvite(link.slice(link.indexOf("#")));
    const watch = watchable && invite ? [{ label: "Live spectators", link: inviteLink(this.pageUrl,
      { role: "watch", roomId: invite.roomId, code: watchCode(invite.code, audience) }) }] : [];
    if (room.seats - room.computers.length <= 1) return watch;
    if (!audience) return [{ label: watchable ? "Players (and live spectators)" : "Players", link }];
    return [{ label: "Players", link }, ...watch];
  }

  /** The invite links of the room this page is in, if this tab created it: players' (and
   * live spectators') and spectators' -- after the game started too, when a friend who comes
   * late can still watch (the server keeps only the code's hash: the page is the only place
   * it is). */
  roomInviteLinks(): { label: string; link: string }[] {
    const room = this.room;
    if (room === null || this.replay !== null) return [];
    if (this.created?.room.roomId === room.info.roomId) return this.createdLinks();
    const account = this.account?.accountId ?? "";
    const link = saved.invite(account, room.info.roomId);
    return link ? this.playersLink(room.info, link, saved.audience(account, room.info.roomId)) : [];
  }

  // ---- the socket's life
  protected closed(code: number, reason: string): void {
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
}

function formatOf(format: "constructed" | "limited"): DeckFormat {
  return format === "limited" ? DeckFormat.LIMITED : DeckFormat.CONSTRUCTED;
}