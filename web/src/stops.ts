/**
 * When the client stops for priority (a lasting setting, kept in localStorage: storage.ts).
 * A player holding an instant was asked at every step of the opponent's turn, their clock
 * running each time (a new player's review). "auto" (the default, as Arena does): with an
 * empty stack, priority is passed for the player in the upkeep, draw, beginning and end of
 * combat, combat damage and cleanup steps and their own end step, and in the opponent's main
 * phases (as the terminal's client_sdk/stops.py); it stops
 * whenever something is on the stack, in the player's own main phases, in the declare
 * attackers and blockers steps of a combat the player attacks or is attacked in, and at an
 * opponent's end step. "all": stop at every step (full control, the old behaviour).
 * Only a plain priority decision with PassPriority among its options is ever passed, and
 * never with mana in the player's pool. What is passed here is decided from public
 * information only (step, stack, whose turn, combat, mana pool), never from the hand: it is
 * passed at once. Where the stops ask but there is nothing to do but pass (117.3), app.ts
 * passes after a random 1-3 s wait (an instant answer there told the opponent, on the
 * clocks, that the hand held nothing castable); with "all" nothing is passed.
 */
import {
  type Decision, DecisionKind, type GameHeader, type GameObject, type ManaPool, Step, ZoneKind,
} from "./gen/protocol/v1/game_pb";

export type StopSetting = "auto" | "all";

export const STOP_SETTINGS: readonly StopSetting[] = ["auto", "all"];

/** What a setting does, in words (shown beside its toggle). */
export function stopText(setting: StopSetting): string {
  return setting === "all"
    ? "Stopping at every step where you get priority (full control)."
    : "Stopping only when something is on the stack, in your main phases, when you attack or "
      + "are attacked, and at your opponents' end step; other steps are passed for you.";
}

/** Whether the priority `decision` of seat `viewer` is passed for them under `setting`: the
 * index of its PassPriority option, or -1 (the player decides). `header` and `objects` are
 * the view the decision belongs to. */
export function autoPassIndex(setting: StopSetting, decision: Decision, viewer: number,
                              header: GameHeader, objects: Iterable<GameObject>,
                              pool?: ManaPool): number {
  if (setting !== "auto" || decision.kind !== DecisionKind.PRIORITY || decision.seat !== viewer) return -1;
  // Mana in the player's pool (made for something): passing would let it empty (106.4).
  if (pool && pool.white + pool.blue + pool.black + pool.red + pool.green + pool.colorless > 0) return -1;
  const pass = decision.options.findIndex((o) => o.kind.case === "passPriority");
  if (pass < 0) return -1;
  const mine = header.activeSeat === viewer;
  let stack = false, attacked = false, attacking = false;
  const planeswalkers = new Set<string>();
  const all = [...objects];
  for (const o of all) {
    if (o.zone?.kind === ZoneKind.BATTLEFIELD && o.controller === viewer
        && o.cardTypes.includes("Planeswalker")) planeswalkers.add(o.id);
  }
  for (const o of all) {
    if (o.zone?.kind === ZoneKind.STACK) stack = true;
    if (o.zone?.kind !== ZoneKind.BATTLEFIELD) continue;
    const attacks = o.attacking !== undefined || o.attackingPlaneswalker !== "";
    if (!attacks) continue;
    if (o.controller === viewer) attacking = true;
    if (o.attacking === viewer || planeswalkers.has(o.attackingPlaneswalker)) attacked = true;
  }
  if (stack) return -1;
  switch (header.step) {
    case Step.PRECOMBAT_MAIN: case Step.POSTCOMBAT_MAIN:
      return mine ? -1 : pass;
    case Step.DECLARE_ATTACKERS: case Step.DECLARE_BLOCKERS:
      return attacking || attacked ? -1 : pass;
    case Step.END:
      return mine ? pass : -1;
    case Step.UNTAP: case Step.UPKEEP: case Step.DRAW: case Step.BEGINNING_OF_COMBAT:
    case Step.COMBAT_DAMAGE: case Step.END_OF_COMBAT: case Step.CLEANUP:
      return pass;
    default: // (a step this client doesn't know: ask)
      return -1;
  }
}
