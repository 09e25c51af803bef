/**
 * The game log of the browser client ({@link App}'s layer above appstate.ts): the lines a
 * delta adds (its events, and what only the view tells: a resolving spell's tapping and new
 * sizes, "didn't block", keeps, combat damage steps, turns), counted when alike, and kept
 * for a reload of the same game (sessionStorage).
 */
import { Role } from "./gen/protocol/v1/messages_pb";
import {
  CombatDamageStep, DecisionKind, type Delta, type GameHeader, GamePhase, Step, ZoneKind,
} from "./gen/protocol/v1/game_pb";
import {
  eventLines, possessive, logSentence, resolutionEnd, strengthChange, seatName,
} from "./describe";
import { saved } from "./storage";
import { AppState, LOG_LINES } from "./appstate";

/** A delta's line for the log; `told`: as the game's events and markers are, which a
 * snapshot's recent events repeat (how a resync finds where the log left off). */
interface LogLine { text: string; told: boolean }

export abstract class AppLog extends AppState {
  /** Whose view the log shows ("account|role|seat|tier"), or "" (not in a room). */
  protected logViewer(): string {
    if (this.room === null || this.account === null) return "";
    const { role, seat, tier } = this.room;
    return `${this.account.accountId}|${role}|${role === Role.PLAYER ? seat : -1}|${tier}`;
  }

  /** The game whose log this tab shows ("room:game"), or "" (none, or a replay). */
  protected logGame(): string {
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
  protected keepLog(): void {
    const game = this.logGame(), viewer = this.logViewer();
    if (game === "" || viewer === "") return;
    if (this.mirror.gameOver) { saved.setGameLog(null); return; }
    saved.setGameLog({ game, viewer, lines: this.log, dropped: this.logDropped,
      lastTold: this.lastTold }, LOG_LINES);
  }

  /** Add a log line, its first letter a capital ("You drew a card": lines said "you drew a
   * card", a new player's review); the same line again right after it is counted ("… (×7)"). */
  protected addLog(said: string): void {
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

  /** Log a game event's line (the last one is remembered: a snapshot's recent events after
   * it are what was missed). */
  protected tell(line: string): void {
    this.lastTold = line;
    this.addLog(line);
  }

  /** "— Turn 9: your turn —" once a delta began a new turn (then remembered), else null: the
   * log said no turn (the terminal does), and a run of alike lines was counted across turns --
   * "Eve drew a card (×8)", the opening hand and turn 2's draw. The marker also ends the run. */
  protected turnMarker(): string | null {
    const { turn, activeSeat, phase } = this.mirror.header;
    if (turn === this.turnTold || turn === 0 || phase !== GamePhase.PLAYING || this.mirror.gameOver) return null;
    this.turnTold = turn;
    this.turnBeganAt = Date.now();
    const whose = activeSeat === this.viewer ? "your" : `${this.player(activeSeat)}'s`;
    return `— Turn ${turn}: ${whose} turn —`;
  }

  /** Apply a delta to the mirror, keeping what the board showed before it; its log lines,
   * `told` those of its events (null: it didn't apply, and a snapshot is asked for). */
  protected applyDelta(delta: Delta): LogLine[] | null {
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

  /** The mulligans as the view shows them now: who plays first, each player's mulligans
   * taken and cards in hand (rules 103.1, 103.5); as the terminal says them. */
  protected mulligansSoFar(): string[] {
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