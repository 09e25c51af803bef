/**
 * A match and a game's end in the browser client ({@link App}'s layer above applobby.ts):
 * a match's score and sideboarding between its games (protocol/README.md, "Matches"), each
 * player's result and conceding, and the rematch (protocol/README.md, "Rematch") -- what the
 * game-over panel shows and does.
 */
import {
  type MatchState, type RematchOffers, type RoomInfo, MatchPhase, Role,
} from "./gen/protocol/v1/messages_pb";
import { reasonWords, type PlayerResult } from "./describe";
import { inviteLink, watchCode } from "./links";
import { saved } from "./storage";
import type { RequestKind } from "./appstate";
import { AppLobby } from "./applobby";

/** What a player's page says once every player offered a rematch, until its game starts. */
export const REMATCH_STARTS = "Rematch! The new game starts…";

export abstract class AppMatch extends AppLobby {
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
    this.join(r.newRoomId, Role.SPECTATOR, "", watchCode(r.inviteCode, r.audienceCode), room.tier);
    this.changed();
  }

  /** The link to watch the rematch (a spectator's, when the server said where it is), or "". */
  get rematchWatchLink(): string {
    const r = this.rematchStarted, room = this.room;
    if (r === null || room === null || !r.newRoomId || room.role === Role.PLAYER) return "";
    return inviteLink(this.pageUrl, { role: "watch", roomId: r.newRoomId,
      code: watchCode(r.inviteCode, r.audienceCode),
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
  protected rematchOffers(r: RematchOffers, kind: RequestKind | undefined): void {
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
   * invite link kept (a private room's is found nowhere else) with its audience code (the
   * watch links'), a creator's links moved to it, and its log begun with a word of the
   * rematch. */
  protected rematchJoined(room: RoomInfo, code: string, audience: string, wasCreator: boolean,
    oldName: string): void {
    if (code) {
      const link = inviteLink(this.pageUrl, { role: "join", roomId: room.roomId, code });
      saved.setInvite(this.account?.accountId ?? "", room.roomId, link, audience);
      if (wasCreator) this.created = { room, code, link, plays: true, audience };
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

  // ---- results and conceding
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
}
