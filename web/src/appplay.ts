/**
 * Playing in the browser client ({@link App}'s layer above appmatch.ts): the pending
 * decision's options as shown and keyed, answering them (clicks on the board, blocks, keys),
 * the passes made for the player (stops.ts, "Pass until end of turn", the human-like wait
 * at a stop with nothing but passing to do), why a card can't be cast, clocks and presence.
 */
import { Role } from "./gen/protocol/v1/messages_pb";
import { type Action, type Decision, DecisionKind, ZoneKind } from "./gen/protocol/v1/game_pb";
import {
  objectName, onlyPass, optionObjects, optionSeats, shownOptions, type ShownOption,
} from "./describe";
import { saved } from "./storage";
import { autoPassIndex, type StopSetting } from "./stops";
import type { AppState } from "./appstate";
import { AppMatch } from "./appmatch";

/** "Pass until end of turn" asked less than this long after a turn began is held back once
 * (as the terminal's pp, client_sdk/terminal_commands.py PP_GUARD_SECONDS). */
const PASS_TURN_GUARD_MS = 1500;
/** A priority the stops ask the player about but with nothing to do but pass (117.3) is
 * passed after a human-like wait, uniform in [MIN, MAX] ms and drawn afresh each time: passed
 * at once, its timing (Clocks, to the millisecond) told the opponent and spectators whether
 * the hand held anything castable (an attacker guessed it 173 times out of 173). As the
 * terminal's (client_sdk/terminal_receive.py). */
export const PASS_DELAY_MIN_MS = 1000, PASS_DELAY_MAX_MS = 3000;

export abstract class AppPlay extends AppMatch {
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
    // Cancel (taking a cast back) has no number, as in the terminal (its `c`): numbered, a
    // key pressed as the list changed could take a cast back. Its key is C (or Escape).
    let n = 0;
    return ordered.map((s) => {
      const k = options[s.index]?.kind;
      if (k?.case === "cancelCast") return { ...s, key: null };
      n++;
      const key = !choosingX ? (n <= 9 ? n : null)
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
    return this.cancelCast();
  }

  /** Key C (the terminal's `c`): take back the spell or ability being cast (601.2i), the
   * selection or not; whether it did. */
  cancelCast(): boolean {
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
  protected passingTurnEnded(): void {
    const p = this.passing;
    if (p !== null && (this.mirror.header.turn !== p.turn || this.mirror.gameOver)) {
      this.passing = null;
      this.passingNote = "The turn is over: priority is no longer passed until its end.";
      this.passingNoteFor = null; // (said with the next decision)
    }
  }

  /** Pass decision `d` for "Pass until end of turn", if it lasts; whether it was passed.
   * Anything that ends it says why ({@link passingNote}). */
  protected passTurnOn(d: Decision): boolean {
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
  protected autoPass(): void {
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

  select(target: AppState["selected"]): void {
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

  // ---- presence and clocks
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
}
