/**
 * Replays in the browser client ({@link App}'s layer above appplay.ts; protocol/README.md,
 * "Replays"; replay.ts steps and times them): opening one (from the lobby, a link, a finished
 * game's panel, or another game or view of the one shown), its messages, and closing it.
 */
import { type ServerMessage, ErrorCode, Role, RoomInfoSchema } from "./gen/protocol/v1/messages_pb";
import { create } from "@bufbuild/protobuf";
import { parseInvite } from "./links";
import { gameId, Replay, replayErrorText, replayLink, splitGameId, type ReplayTarget } from "./replay";
import { saved } from "./storage";
import type { RequestKind } from "./appstate";
import { AppPlay } from "./appplay";

export abstract class AppReplays extends AppPlay {
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

  /** The link that replays a finished game of the room shown (its game-over panel's
   * Replay, opened in a new tab): with the invite code this page has for it (a private
   * room's) and what it knows of the room's games. The room isn't left: replaying left it,
   * which ended the rematch the opponent had offered (a new player's finding) -- a replay
   * in another tab takes nothing from this one's seat. "": not one of its games. */
  finishedReplayLink(id: string): string {
    const room = this.room;
    if (room === null || !this.finishedGameIds.includes(id)) return "";
    const roomId = room.info.roomId;
    const code = this.created?.room.roomId === roomId ? this.created.code
      : this.lastJoin.roomId === roomId ? this.lastJoin.code
        : parseInvite(saved.invite(this.account?.accountId ?? "", roomId).replace(/^[^#]*/, ""))?.code ?? "";
    return replayLink(this.pageUrl, { roomId: id, code, bestOf: this.match?.bestOf ?? (room.info.bestOf || 1),
      games: this.finishedGameIds.length });
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
  protected openWantedReplay(): void {
    const wanted = this.replayWanted;
    if (wanted === null || this.status !== "connected" || this.room !== null || this.replay !== null) return;
    this.replayWanted = null;
    this.startReplay(wanted, null);
  }

  /** A message while a replay is shown; whether it was the replay's. */
  protected replayMessage(msg: ServerMessage, kind: RequestKind | undefined): boolean {
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
          // Every game of a match says which (game 1 said nothing), of how many when known.
          const bestOf = listed?.bestOf ?? replay.target.bestOf ?? 0;
          if (bestOf > 1) this.addLog(`— Game ${game} of ${bestOf} —`);
          else if (game > 1) this.addLog(`— Game ${game} of the match —`);
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
}
