/**
 * The client's state and its protocol logic (protocol/README.md, "Flow of a game"): sign in
 * (Hello) or resume (Resume), the lobby, one room, the mirrored view of its game, the
 * pending decision, clocks and presence, and a match's score and sideboarding between games
 * (protocol/README.md, "Matches"). Rendering is ui.ts's: it reads this state and calls
 * App's methods; `onChange` tells it to render again.
 *
 * {@link App} is built of layers, each a module extending the one below: appstate.ts (the
 * state and what every layer uses), applog.ts (the game log), applobby.ts (signing in, the
 * lobby, the socket's life), appmatch.ts (a match, results, the rematch), appplay.ts (the
 * decision and the passes made for the player), appreplay.ts (replays); here the server's
 * messages are handled, and what other modules import from "./app" is exported.
 */
import { type ServerMessage, ErrorCode, MatchPhase, Role } from "./gen/protocol/v1/messages_pb";
import { DecisionKind, GamePhase, type GameEvent } from "./gen/protocol/v1/game_pb";
import { deckProblems } from "./deck";
import {
  alikeOrder, assertNever, eventLines, NO_BLOCKERS_TEXT, nothingCanBlock, logSentence, noticeText,
  poolPaysExactly, sentence,
} from "./describe";
import { inviteLink } from "./links";
import { saved } from "./storage";
import type { RequestKind } from "./appstate";
import { REMATCH_STARTS } from "./appmatch";
import { AppReplays } from "./appreplay";

// What other modules import from "./app" (ui.ts, main.ts, the tests), wherever it is defined.
export type { ClockView, Status } from "./appstate";
export { LOG_LINES } from "./appstate";
export type { RoomSettingsInput } from "./applobby";
export { combatDamageMarker, damageStepOf } from "./applog";
export { PASS_DELAY_MAX_MS, PASS_DELAY_MIN_MS } from "./appplay";

/** The most events a snapshot repeats from before it (protocol/README.md, `recent_events`:
 * at most 20): that many, and the first ones may be the tail of a run cut short. */
const RECENT_EVENTS = 20;
/** How many of a snapshot's recent events tell how the game began (rules 103.1, 103.5):
 * those it begins with of these kinds, however long ago (protocol/README.md, `recent_events`)
 * -- never cut short: the last events after them may begin with the tail of a run. */
function openingLead(events: readonly GameEvent[]): number {
  const at = events.findIndex((e) => e.kind.case !== "startingPlayerChosen" && e.kind.case !== "mulliganTaken");
  return at < 0 ? events.length : at;
}

/** The requests whose answer (not an error) clears the error shown: the player's own. */
const CLEARS_ERROR: ReadonlySet<RequestKind> = new Set<RequestKind>(
  ["hello", "register", "create", "create-join", "join", "rewatch", "quick", "cancel-quick", "deck"]);

export class App extends AppReplays {
  protected handle(msg: ServerMessage): void {
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
            this.rematchJoined(r.joined.room, started.inviteCode, started.audienceCode, false, oldName);
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
        const { room, inviteCode, audienceCode } = body.value;
        if (room) {
          this.created = { room, code: inviteCode, plays: this.createPlays, audience: audienceCode,
            link: inviteLink(this.pageUrl, { role: "join", roomId: room.roomId, code: inviteCode }) };
          // Kept for this tab (the server keeps only the codes' hashes): shown in the room's
          // panel for as long as the room lasts, a reload too.
          if (inviteCode) {
            saved.setInvite(this.account?.accountId ?? "", room.roomId, this.created.link, audienceCode);
          }
          // The join form holds this room (a host watches it from there).
          this.invite = { role: "join", roomId: room.roomId, code: inviteCode };
          this.inviteChanged++;
          // The creator's Joined follows (CreateRoom.join) -- unless they host the room
          // for others: then its links are theirs to hand out.
          if (kind === "create") {
            // (A private room is in nobody's room list, its creator's neither: a new user
            // looked for it there.)
            const where = room.private
              ? "the join form (a private room isn't in the room list)"
              : "the room list or the join form";
            this.notice = `Room “${room.name}” created; you have no seat in it. Send the `
              + `players its invite link (and the watchers theirs); watch it from ${where}.`;
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
        if (rematch && j.room) {
          this.rematchJoined(j.room, started.inviteCode, started.audienceCode, oldCreated, oldRoom?.name ?? "");
        }
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
          // How the game began -- who plays first, the mulligans -- comes first, however long
          // ago (protocol/README.md: `recent_events`): told whole, starting afresh (a spectator
          // joining late has them as the players do); the last events after them.
          const lead = openingLead(recent);
          let told = eventLines(this, recent.slice(lead), this.mirror.header.phase === GamePhase.MULLIGANS)
            .filter((l) => l !== null);
          let cut = recent.length - lead >= RECENT_EVENTS;
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
          let opening = fresh ? eventLines(this, recent.slice(0, lead), true).filter((l) => l !== null) : [];
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
            opening = [];
          }
          if (cut) {
            // The server's last events are cut at a count, maybe inside a run of alike
            // lines: its first run may be only the tail of one ("drew a card (×3)" of seven)
            // -- left out, not told with a count that isn't true.
            const run = told.findIndex((line) => line !== told[0]);
            told = told.slice(run < 0 ? told.length : run);
          }
          for (const line of [...opening, ...told]) this.tell(line);
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
          } else if (alikeOrder(this, d, this.mirror.objects.values())) { // (404.3, 603.3b)
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
              // Under a rematch's first line (logged with the snapshot): the rematch is what
              // happened first, its match's game 1 then begins.
              this.log.splice(this.log[0]?.startsWith("— Rematch") ? 1 : 0, 0, line);
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
      case ErrorCode.INVALID_DECK: {
        this.deckProblems = deckProblems(details.length ? details : [message]);
        // The server's note on which cards it plays, with an unknown card among the problems
        // ("... (this server supports the cards of Core Set 2021 (M21) and a few others)"):
        // without it a new player couldn't tell how to fix the deck.
        const at = message.indexOf("(this server supports ");
        const pool = at < 0 ? "" : ` ${sentence(message.slice(at + 1).replace(/\)$/, ""))}.`;
        if (kind === "deck") {
          this.deckSent = false;
          this.error = `Your deck was refused (${at < 0 ? message : message.slice(0, at).trim()}): `
            + `see its problems below.${pool}`;
          return;
        }
        // (Refused with CreateRoom.join, no room was created: fix it, create again.)
        this.error = `The deck was refused: see its problems below.${pool}`;
        this.deckRefusal = this.error;
        return;
      }
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
}

/** The deck a seated player plays, in words (Joined.deck_name and demo_deck): a demo deck --
 * ``dealt``: the one the server chose, the deck box being empty -- or the player's own list. */
export function deckWords(name: string, demo: boolean, dealt: boolean): string {
  if (demo) return `the demo deck “${name}”${dealt ? ", chosen by the server (your deck box was empty)" : ""}`;
  return name ? `your deck “${name}”` : "your deck";
}