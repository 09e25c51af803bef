/**
 * Plain words for what the protocol sends: decision options, events, steps, mana symbols.
 * Every dispatch over a oneof is exhaustive (`assertNever`): a case this client doesn't
 * know (a newer server, protocol/README.md "Versioning") is shown as "not understood".
 */
import { clone, create, toBinary } from "@bufbuild/protobuf";
import {
  type Action, type CounteredEvent, type DamageEvent, type Decision, type GameEvent, type GameHeader, type GameObject,
  type ManaPool, type Target, type WaitingTrigger, type ZoneChangeEvent, DecisionKind, GameObjectSchema, GamePhase, Step,
  ZoneKind,
} from "./gen/protocol/v1/game_pb";
import { type SpectatorTier, TierKind } from "./gen/protocol/v1/messages_pb";

/** What the describers need to know about the current view. */
export interface Names {
  /** The viewer's seat (-1 for a spectator). */
  viewer: number;
  object(id: string): GameObject | undefined;
  player(seat: number): string;
  /** Whether the text of a card in the view has `word` (lower case) in it. */
  mentions(word: string): boolean;
  /** The objects in the view (to tell same-name objects apart by whose they are). */
  objects?(): Iterable<GameObject>;
  /** The spells on the stack whose casting the log saw begin (601.2a: a card put on the
   * stack from a hand), by id: true once cast (a SpellCastEvent named it, 601.2i), false
   * while not -- kept by {@link eventLines} as it reads the events in order. A spell leaving
   * the stack for its owner's hand uncast is a cast taken back (733.1), not a bounce
   * ({@link eventText}); one the log didn't see begin (before a reload) is told as a return. */
  casts?: Map<string, boolean>;
  /** The decision the view's player is asked, if any (its prompt says what a target is
   * for: {@link targetPurpose}). */
  decision?: Decision | null;
}

/** The triggered ability `id` among `triggers` (the view's, waiting to be put on the stack,
 * 603.3) as an object a describer can name: "Heartfire Immolator's trigger", its
 * controller's, its text its rules text; undefined if there is none. */
export function waitingTrigger(triggers: readonly WaitingTrigger[], id: string): GameObject | undefined {
  const t = triggers.find((x) => x.id === id);
  return t ? create(GameObjectSchema, { id: t.id, name: `${t.sourceName}'s trigger`,
    controller: t.controller, rulesText: t.text }) : undefined;
}

export function assertNever(value: never): never {
  throw new Error(`unhandled case: ${JSON.stringify(value)}`);
}

export function seatName(names: Names, seat: number): string {
  return seat === names.viewer ? "you" : names.player(seat);
}

/** "your", or "Bob's" (a spectator has no "your"). */
export function possessive(names: Names, seat: number): string {
  return seat === names.viewer ? "your" : `${names.player(seat)}'s`;
}

/** A creature's power or toughness changed on the battlefield, in words (as the terminal's
 * client_sdk.board.strength_change): a pump resolving, an anthem, a counter -- "your
 * Pridemalkin is now 7/6 (was 3/2)" (Titanic Growth said nothing in the log: a new player's
 * review). What it was, not the difference: "Kinetic Augur is now 6/8 (+5/+4)" after Titanic
 * Growth read as if Growth gave +5 (the +1 was Growth reaching the graveyard, which Augur
 * counts), and the view doesn't say which effect did what. `ended`: at the cleanup, where effects "until end of turn" end (514.2): "your
 * Pridemalkin is 3/2 again (the +4/+4 ended)", not "is now 3/2 (-4/-4)", which read as a
 * -4/-4 effect. null if neither changed, or it isn't a creature on the battlefield both times. */
export function strengthChange(names: Names, before: GameObject | undefined, after: GameObject | undefined,
  ended = false): string | null {
  if (before === undefined || after === undefined || before.zone?.kind !== ZoneKind.BATTLEFIELD
      || after.zone?.kind !== ZoneKind.BATTLEFIELD) return null;
  if (before.power === undefined || before.toughness === undefined || after.power === undefined
      || after.toughness === undefined) return null;
  const power = after.power - before.power;
  const toughness = after.toughness - before.toughness;
  if (power === 0 && toughness === 0) return null;
  const what = `${possessive(names, after.controller)} ${after.name || "creature"}`;
  const now = `${after.power}/${after.toughness}`;
  if (ended) return `${what} is ${now} again (the ${signed(-power)}/${signed(-toughness)} ended)`;
  return `${what} is now ${now} (was ${before.power}/${before.toughness})`;
}

/** "+4", "-1", "+0". */
function signed(n: number): string {
  return n < 0 ? String(n) : `+${n}`;
}

/** A problem the server found in a deck list that names no line (DeckProblem.message: words
 * to follow a label, "at most 4 copies of 'Heartfire Immolator' in a constructed deck and its
 * sideboard together, other than basic lands, got 7"), as a sentence of its own -- shown
 * after a bold "Deck" it read "Deck at most 4 copies of ..." (a new player's review): "At
 * most 4 copies of 'Heartfire Immolator' may be in a constructed deck and its sideboard
 * together, other than basic lands: yours has 7." */
export function problemSentence(message: string): string {
  let words = message.trim()
    .replace(/^at most (\d+) copies of (.+?) in (.+?), got (\d+)$/, "at most $1 copies of $2 may be in $3: yours has $4")
    .replace(/, got (\d+)$/, ": yours has $1")
    // "..., got 52 -- a limited room takes a deck of 40 or more": the hint a sentence of its own
    .replace(/, got (\d+) -- (.)(.*)$/, (_m, n: string, first: string, rest: string) =>
      `: yours has ${n}. ${first.toUpperCase()}${rest}`);
  if (!/[.!?]$/.test(words)) words += ".";
  return sentence(words);
}

/** What an attacker attacks, by name ("Bob#0002", "you", a planeswalker's name): the
 * assignment's "" recipient (702.19b) read "the player or planeswalker it attacks" (a new
 * player's review); that still if the view doesn't say. */
export function attackedName(names: Names, attackerId: string): string {
  const attacker = names.object(attackerId);
  if (attacker?.attackingPlaneswalker) return objectName(names, attacker.attackingPlaneswalker);
  if (attacker?.attacking !== undefined) return seatName(names, attacker.attacking);
  return objectName(names, "");
}

/** An object's name as the viewer knows it. */
export function objectName(names: Names, id: string): string {
  if (id === "") return "the player or planeswalker it attacks";
  const obj = names.object(id);
  if (!obj) return "a card you can't see";
  if (obj.faceDown && obj.name === "") return "a face-down card";
  return obj.name || "a card";
}

/** An object's name, and whose it is when an object of the same name of another player's
 * is in view ("Chandra's Magmutt (Bob#0002's)", "... (yours)"): the stack's targets, the
 * log's damage and blocks named two Magmutts alike (a new player's review). */
export function whoseName(names: Names, id: string): string {
  const name = objectName(names, id);
  const obj = names.object(id);
  if (obj === undefined || !obj.name || names.objects === undefined) return name;
  for (const o of names.objects()) {
    if (o.id !== id && o.name === obj.name && o.controller !== obj.controller
        && (o.zone?.kind === ZoneKind.BATTLEFIELD || o.zone?.kind === ZoneKind.STACK)) {
      return `${name} (${obj.controller === names.viewer ? "yours" : `${names.player(obj.controller)}'s`})`;
    }
  }
  return name;
}

export function targetText(names: Names, target: Target | undefined, whose = false): string {
  const kind = target?.kind;
  switch (kind?.case) {
    case "player": return seatName(names, kind.value);
    case "objectId": return whose ? whoseName(names, kind.value) : objectName(names, kind.value);
    case undefined: return "nothing";
    default: return assertNever(kind);
  }
}

const MANA_WORDS: Record<string, string> = {
  W: "white", U: "blue", B: "black", R: "red", G: "green", C: "colorless", X: "X", S: "snow",
  T: "tap", Q: "untap", E: "energy",
};

/** A mana symbol's text alternative, e.g. "{R}" -> "red mana", "{2}" -> "2 generic mana",
 * "{W/U}" -> "white or blue mana". */
export function manaSymbolWords(symbol: string): string {
  const inner = symbol.replace(/^\{|\}$/g, "");
  if (/^\d+$/.test(inner)) return `${inner} generic mana`;
  if (inner === "T") return "tap";
  if (inner === "Q") return "untap";
  const parts = inner.split("/").map((p) => MANA_WORDS[p] ?? (p === "P" ? "Phyrexian" : p));
  return `${parts.join(" or ")} mana`;
}

/** The symbols of a mana cost, e.g. "{2}{R}{R}" -> ["{2}", "{R}", "{R}"]. */
export function manaSymbols(cost: string): string[] {
  return cost.match(/\{[^}]+\}/g) ?? [];
}

/** Mana named in WUBRGC letters (PayMana, RollPlanarDie), as symbols: "RRB" -> "{R}{R}{B}". */
export function lettersToSymbols(letters: string): string {
  return [...letters].map((l) => `{${l}}`).join("");
}

/** The colors (rule 105.1) by their mana letters. */
export const COLOR_NAMES: Record<string, string> = {
  W: "White", U: "Blue", B: "Black", R: "Red", G: "Green",
};

/** What tells apart the recipients of a division of combat damage (510.1c) that have one name,
 * by id: the first of their power and toughness, tapped or not, and damage marked that differs
 * among them -- "1 to Grizzly Bears (1 damage), 3 to Grizzly Bears (no damage)" (it read "1 to
 * Grizzly Bears, 3 to Grizzly Bears" and "3 ..., 1 ...": which Bears got which?). None for
 * recipients alike in all three (alike blockers: one option, {@link shownOptions}). As
 * client_sdk.describe._recipient_hints. */
function recipientHints(names: Names, ids: readonly string[]): Map<string, string> {
  const same = new Map<string, GameObject[]>();
  for (const id of ids) {
    const obj = id ? names.object(id) : undefined;
    if (obj === undefined) continue;
    const name = objectName(names, id);
    same.set(name, [...(same.get(name) ?? []), obj]);
  }
  const hints = new Map<string, string>();
  for (const objs of same.values()) {
    if (objs.length < 2) continue;
    for (const words of [
      objs.map((o) => (o.power !== undefined && o.toughness !== undefined ? `${o.power}/${o.toughness}` : "")),
      objs.map((o) => (o.tapped ? "tapped" : "untapped")),
      objs.map((o) => (o.damage ? `${o.damage} damage` : "no damage")),
    ]) {
      if (new Set(words).size > 1) {
        objs.forEach((o, i) => { if (words[i]) hints.set(o.id, words[i] ?? ""); });
        break;
      }
    }
  }
  return hints;
}

export function optionText(names: Names, action: Action): string {
  const k = action.kind;
  switch (k.case) {
    case "passPriority": return "Pass priority";
    case "playLand": return `Play ${objectName(names, k.value.objectId)}`;
    case "castSpell": return `Cast ${objectName(names, k.value.objectId)}`;
    case "chooseX": return `X = ${k.value.value}`;
    case "chooseTarget": return `Target ${targetText(names, k.value.target)}`;
    case "activateManaAbility": {
      const what = k.value.mana ? ` for ${lettersToSymbols(k.value.mana)}` : " for mana";
      // An ability whose cost is mana (Prismite's {2}, 605.1a): no {T}; each way to pay
      // it is its own option.
      if (k.value.paidWith) {
        return `Pay ${lettersToSymbols(k.value.paidWith)} to ${objectName(names, k.value.objectId)}${what}`;
      }
      return `Tap ${objectName(names, k.value.objectId)}${what}`;
    }
    case "payMana": {
      // One step of a payment asked a mana type at a time (601.2h, past 64 ways): the
      // amount of the last of its `types` types is this step's choice.
      if (k.value.types > 0) {
        const letter = "WUBRGC"[Math.min(k.value.types, 6) - 1]!;
        const spent = lettersToSymbols(letter.repeat([...k.value.mana].filter((c) => c === letter).length));
        return `Spend ${spent || `no ${lettersToSymbols(letter)}`} (then choose the rest)`;
      }
      return `Pay ${lettersToSymbols(k.value.mana) || "nothing"}`;
    }
    case "declareAttacker": {
      const at = k.value.planeswalkerId
        ? objectName(names, k.value.planeswalkerId) : seatName(names, k.value.defender);
      return `Attack ${at} with ${objectName(names, k.value.objectId)}`;
    }
    case "finishAttackers": return "Done: confirm attackers";
    case "declareBlocker":
      return `Block ${objectName(names, k.value.attackerId)} with ${objectName(names, k.value.objectId)}`;
    case "finishBlockers": return "Done: confirm blockers";
    case "assignCombatDamage": {
      const hints = recipientHints(names, k.value.assignments.map((a) => a.objectId));
      const parts = k.value.assignments.map((a) => `${a.amount} to ${a.objectId === ""
        ? attackedName(names, k.value.attackerId) : objectName(names, a.objectId)}`
        + (hints.has(a.objectId) ? ` (${hints.get(a.objectId)})` : ""));
      // (A partial one, 510.1c past 64 ways: the first recipients' amounts; the rest next.)
      return `${objectName(names, k.value.attackerId)} deals ${parts.join(", ") || "no damage"}`
        + (k.value.partial ? " (then the rest)" : "");
    }
    case "discard": return `Discard ${objectName(names, k.value.objectId)}`;
    case "concede": return "Concede";
    case "chooseStartingPlayer":
      return k.value.seat === names.viewer ? "I play first" : `${names.player(k.value.seat)} plays first`;
    case "keepHand": return "Keep this hand";
    case "takeMulligan": return "Take a mulligan";
    case "putOnBottom": return `Put ${objectName(names, k.value.objectId)} on the bottom`;
    case "chooseMode": // rule 700.2: the mode as printed, if the server said it
      return k.value.text ? `Mode ${k.value.mode + 1}: ${k.value.text}` : `Mode ${k.value.mode + 1}`;
    case "activateAbility": // rule 602.1
      return k.value.text
        ? `Activate ${objectName(names, k.value.objectId)}: ${k.value.text}`
        : `Activate ${objectName(names, k.value.objectId)}'s ability ${k.value.ability + 1}`;
    case "finishTargets": return "No more targets";
    case "chooseOrder": return `Next: ${objectName(names, k.value.objectId)}`;
    case "keepLegend": return `Keep ${objectName(names, k.value.objectId)}`;
    case "sacrifice": return `Sacrifice ${objectName(names, k.value.objectId)}`;
    case "resetBlockers": return "Start blocks over";
    case "resetAttackers": return "Start attacks over";
    case "payAutomatically": return "Pay automatically";
    case "cancelCast": return "Cancel: take it back (nothing is paid)";
    case "decline": return "Decline / done";
    case "chooseReplacement": { // rule 616.1; damage to the player: which effect prevents it
      const { objectId, replacement } = k.value;
      if (replacement === "prevent") {
        return objectId ? `Prevent it with ${objectName(names, objectId)}` : "Prevent it with a resolved spell's effect";
      }
      if (replacement === "protection") return `Prevent it: protection (${objectName(names, objectId)})`;
      return `${objectName(names, objectId)}: ${replacement} instead`;
    }
    case "placeCard":
      return `${objectName(names, k.value.objectId)} on the ${k.value.bottom ? "bottom" : "top"}`;
    case "chooseCard": return `Choose ${objectName(names, k.value.objectId)}`;
    case "choosePlayer": return `Choose ${seatName(names, k.value.seat)}`;
    case "choosePile": return `Take pile ${k.value.pile + 1}`;
    case "chooseColor": return COLOR_NAMES[k.value.color] ?? k.value.color;
    case "chooseName": return k.value.name;
    case "finishModes": return "No more modes";
    case "accept": return "Yes";
    case "rollPlanarDie": return `Roll the planar die (pay ${lettersToSymbols(k.value.mana) || "nothing"})`;
    case "chooseOutsideCard": return `Bring in ${k.value.name} from your sideboard`;
    case "chooseExilePile": return `A random card of ${k.value.objectIds.length} face-down cards`;
    case undefined: return "An option this client doesn't understand";
    default: return assertNever(k);
  }
}

/** Whose the object an option names is, from the viewer's side -- "yours", "Bob's" -- (""
 * if it names none the viewer can see). */
export function optionWhose(names: Names, action: Action): string {
  const id = optionObjects(action)[0];
  const obj = id ? names.object(id) : undefined;
  if (!obj) return "";
  return obj.controller === names.viewer ? "yours" : `${names.player(obj.controller)}'s`;
}

/** Labels made distinct: the same words twice get whose the objects are when that tells
 * them apart ("Target Burlfist Oak (yours)", "... (Bob's)": `whose`, one per label,
 * {@link optionWhose}), else "(1 of 2)" ... (two Islands to tap). */
export function distinctLabels(given: string[], whose: string[] = []): string[] {
  return numbered(toldApart(given, whose));
}

/** Labels with the words of each tier of hints, one per label, added ("Target Burlfist Oak
 * (yours)") where the same label's hints differ: whose the objects are, then their power
 * and toughness, then whether they are tapped, then their damage and counters. As
 * client_sdk.describe._told_apart. */
function toldApart(given: string[], ...tiers: string[][]): string[] {
  let labels = given;
  for (const hints of tiers) {
    if (!hints.length) continue;
    const groups = new Map<string, Set<string>>();
    labels.forEach((l, i) => groups.set(l, (groups.get(l) ?? new Set()).add(hints[i] ?? "")));
    labels = labels.map((l, i) => hints[i] && (groups.get(l)?.size ?? 0) > 1 ? `${l} (${hints[i]})` : l);
  }
  return labels;
}

/** The same label twice or more: "(1 of 2)", "(2 of 2)". */
function numbered(labels: string[]): string[] {
  const total = new Map<string, number>();
  for (const l of labels) total.set(l, (total.get(l) ?? 0) + 1);
  const seen = new Map<string, number>();
  return labels.map((l) => {
    const n = total.get(l) ?? 1;
    if (n === 1) return l;
    const k = (seen.get(l) ?? 0) + 1;
    seen.set(l, k);
    return `${l} (${k} of ${n})`;
  });
}

/** The power and toughness of the creature an option names ("2/4"; "" for none): what tells
 * apart two Walking Corpses to block with when one got +0/+2 (the board shows it, the options
 * read "(1 of 4)" ... "(4 of 4)"). As client_sdk.describe.option_strength. */
export function optionStrength(names: Names, action: Action): string {
  const id = optionObjects(action)[0];
  const obj = id ? names.object(id) : undefined;
  if (obj === undefined || !obj.cardTypes.includes("Creature") || obj.power === undefined
    || obj.toughness === undefined) return "";
  return `${obj.power}/${obj.toughness}`;
}

/** "tapped" for an option naming a tapped permanent ("" otherwise): what tells apart two
 * Grizzly Bears to target, one tapped (alike tapped ones are one option, apart from the
 * untapped ones). As client_sdk.describe.option_tapped. */
export function optionTapped(names: Names, action: Action): string {
  const id = optionObjects(action)[0];
  return id && names.object(id)?.tapped ? "tapped" : "";
}

/** The damage marked on the permanent an option names and its counters ("1 damage, +1/+1 × 2";
 * "" for none): what tells apart two Grizzly Bears to target of one strength, one damaged
 * (alike ones are one option). As client_sdk.describe.option_marks. */
export function optionMarks(names: Names, action: Action): string {
  const id = optionObjects(action)[0];
  const obj = id ? names.object(id) : undefined;
  if (obj === undefined) return "";
  return [obj.damage ? `${obj.damage} damage` : "",
    // (a planeswalker's loyalty is a number, 306.5b: "loyalty 3")
    ...obj.counters.map((c) => (c.kind === "loyalty" ? `loyalty ${c.count}`
      : c.count === 1 ? c.kind : `${c.kind} × ${c.count}`))].filter(Boolean).join(", ");
}

/** An option as the decision panel shows it. Options the player can't tell apart -- the
 * same words naming objects that look the same ({@link objectLook}: four Forests in the hand
 * to play, two untapped Forests to tap for mana, two to put on the bottom, five untapped
 * Grizzly Bears to attack the same player with, "(one of 5 alike)") -- are shown
 * once: `index` is the first one's (what choosing it answers), `indices` are all of theirs. */
export interface ShownOption {
  index: number;
  indices: number[];
  label: string;
}

/** Options that name one object and nothing the words don't say: alike when their words
 * are and their objects look the same. */
const ONE_OBJECT_KINDS: ReadonlySet<Action["kind"]["case"]> = new Set<Action["kind"]["case"]>([
  "playLand", "castSpell", "activateManaAbility", "activateAbility", "discard", "putOnBottom",
  "sacrifice", "chooseCard", "chooseTarget", "keepLegend", "chooseReplacement", "placeCard",
  "chooseOrder",
]);

/** Combat declarations (508.1a, 509.1a): alike when their creatures look the same
 * ({@link objectLook}) and they attack the same player or planeswalker, or block the same
 * attacker ({@link partner}): five untapped Grizzly Bears are one "Attack Bob with Grizzly
 * Bears (one of 5 alike)", declared one at a time. */
const COMBAT_KINDS: ReadonlySet<Action["kind"]["case"]> = new Set<Action["kind"]["case"]>([
  "declareAttacker", "declareBlocker",
]);

/** The objects an option names, exactly: its object, and whom its creature attacks or which
 * attacker it blocks (a division of combat damage: its attacker, and how much each recipient
 * gets). As client_sdk.describe._ident. */
function ident(action: Action): string {
  const k = action.kind;
  if (k.case === "assignCombatDamage") {
    return `${k.value.attackerId}\n${k.value.assignments.map((d) => `${d.objectId}=${d.amount}`).join(",")}`
      + (k.value.partial ? "..." : "");
  }
  const other = k.case === "declareAttacker" ? `${k.value.defender}/${k.value.planeswalkerId}`
    : k.case === "declareBlocker" ? k.value.attackerId : "";
  return `${optionObjects(action)[0] ?? ""}\n${other}`;
}

/** What an option names besides its object, for the options that name two: whom a creature
 * attacks, exactly (two planeswalkers of one name read alike but aren't one); the attacker a
 * creature blocks -- exactly, or for an attacker the player can't tell apart from others
 * ({@link objectLook} of all but its attack: three alike Walking Corpses attacking you, none
 * blocked yet), how it looks and what it attacks ("" for other options). As
 * client_sdk.describe._partner. */
function partner(names: Names, action: Action, referenced: ReadonlySet<string>): string {
  const k = action.kind;
  if (k.case === "declareAttacker") return `${k.value.defender}/${k.value.planeswalkerId}`;
  if (k.case !== "declareBlocker") return "";
  const id = k.value.attackerId;
  const obj = names.object(id);
  if (obj === undefined || referenced.has(id)) return id; // (blocked already, targeted ...)
  const plain = clone(GameObjectSchema, obj);
  plain.attacking = undefined;
  plain.attackingPlaneswalker = "";
  plain.tapped = false; // (said below)
  const look = objectLook(plain, referenced);
  return look === null ? id : `${obj.attacking}/${obj.attackingPlaneswalker}/${obj.tapped}/${look}`;
}

/** A division of an attacker's combat damage (510.1c) as the player tells it from another:
 * how much each recipient gets, the recipients the player can't tell apart ({@link
 * objectLook}: two untapped Grizzly Bears blocking it, no damage, nothing on them) by their
 * look, the others exactly -- so "1 to Grizzly Bears, 3 to Grizzly Bears" and "3 to Grizzly
 * Bears, 1 to Grizzly Bears" are one division when the two Bears are alike, two when one has
 * damage marked or a counter (a blocker's summoning sickness is nothing: gone by its
 * controller's next turn, 302.6). "" for other options. As client_sdk.describe._division. */
function division(names: Names, action: Action, referenced: ReadonlySet<string>): string {
  const k = action.kind;
  if (k.case !== "assignCombatDamage") return "";
  const parts = k.value.assignments.map((d) => {
    const look = d.objectId ? objectLook(names.object(d.objectId), referenced, false) : null;
    return `${look !== null ? `look:${look}` : `id:${d.objectId}`}=${d.amount}`;
  });
  // (Sorted as Python sorts strings: by UTF-16 code unit here, the looks' digits and commas
  // are ASCII.)
  return `${k.value.attackerId}:${parts.sort().join(";")}${k.value.partial ? "..." : ""}`;
}

/** Ids of the objects another object points at -- what is attached to them, blocks them,
 * attacks them, targets them: what tells a permanent apart from another of its name (the
 * Grizzly Bears enchanted by Pacifism, the one Shock targets). */
export function referencedIds(objects: Iterable<GameObject>): Set<string> {
  const ids = new Set<string>();
  for (const o of objects) {
    if (o.attachedTo) ids.add(o.attachedTo);
    if (o.attackingPlaneswalker) ids.add(o.attackingPlaneswalker);
    for (const id of o.blocking) ids.add(id);
    for (const t of o.targets) if (t.kind.case === "objectId") ids.add(t.kind.value);
  }
  return ids;
}

/** All the viewer can see of an object but its id, to tell whether another looks the same
 * (then the player can't tell them apart: two untapped Forests, two tapped ones, two Grizzly
 * Bears blocking the same attacker); null for an object to be shown on its own -- attached
 * to another, pointed at ({@link referencedIds}: an Aura on it, a spell's target, a blocker
 * on it), or face down. Everything else it shows is in its look: a tapped Forest is never
 * alike an untapped one, nor a creature with a counter, damage or another controller one
 * without. Summoning sickness is a creature's only (302.6): a land played this turn
 * looks the same as another; and it restricts only attacking and {T} abilities (302.6):
 * `sickness` false, creatures to block with look the same with it or without (a blocker's
 * sickness is gone by its controller's next turn anyway). As client_sdk.describe.object_look. */
export function objectLook(obj: GameObject | undefined, referenced: ReadonlySet<string> = new Set(),
  sickness = true): string | null {
  if (obj === undefined || !obj.id || obj.faceDown || obj.attachedTo || referenced.has(obj.id)) {
    return null;
  }
  const look = clone(GameObjectSchema, obj);
  look.id = "";
  if (!sickness || !obj.cardTypes.includes("Creature")) look.summoningSick = false;
  return toBinary(GameObjectSchema, look).join(",");
}

/** Where a target goes in the order shown ({@link shownOrder}): 0 an opponent, 1 an object
 * of an opponent's (or unseen), 2 the viewer, 3 an object of the viewer's; null for an option
 * that is no target. */
function targetRank(names: Names, action: Action): number | null {
  const k = action.kind;
  if (k.case !== "chooseTarget") return null;
  const t = k.value.target?.kind;
  if (t?.case === "player") return t.value === names.viewer ? 2 : 0;
  if (t?.case === "objectId") return names.object(t.value)?.controller === names.viewer ? 3 : 1;
  return null;
}

/** The options' indices in the order shown: the targets of a choice (Shock's "any target")
 * the opponents' first -- opponents, then their permanents (and other objects), then you,
 * then yours -- each group in the server's order, in the places the targets take among the
 * other options. The server lists players by seat: for seat 1 "Target you" was key 1, and a
 * player pressing 1 to hit the opponent shocked themself. As client_sdk.describe.shown_order. */
export function shownOrder(names: Names, options: readonly Action[]): number[] {
  const order = options.map((_, i) => i);
  if (names.viewer < 0) return order;
  const ranks = options.map((o) => targetRank(names, o));
  const slots = order.filter((i) => ranks[i] !== null);
  const sorted = [...slots].sort((a, b) => (ranks[a] ?? 0) - (ranks[b] ?? 0) || a - b);
  slots.forEach((slot, n) => { order[slot] = sorted[n] ?? slot; });
  return order;
}

/** Where a clause of rules text begins, and ends, for {@link targetPurpose}. */
const CLAUSE_STARTS = [". ", ", ", " and ", "\n", "; ", ": "];
const CLAUSE_END = /[.,;\n]| and /;

/** The rules text of the object a prompt names first ("Rookie Mistake: ...", "Teferi's
 * Tutelage's ability: ..."): the viewer's spell on the stack of that name, else a permanent
 * of the viewer's, else any object in view of that name ("" if none). */
function sourceText(names: Names, source: string): string {
  const name = source.endsWith("'s ability") ? source.slice(0, -"'s ability".length) : source;
  if (!name || names.objects === undefined) return "";
  const rank = (o: GameObject) => (o.zone?.kind === ZoneKind.STACK ? 0 : 2) + (o.controller === names.viewer ? 0 : 1);
  const found = [...names.objects()].filter((o) => o.name === name).sort((a, b) => rank(a) - rank(b));
  return found[0]?.rulesText ?? "";
}

/** What the target being chosen will get, from the text of the spell or ability asking (rule
 * 601.2c: each "target" word its own target): the prompt's "-- target creature" found in
 * Rookie Mistake's "Until end of turn, target creature gets +0/+2 and another target creature
 * gets -2/-0" -- "gets +0/+2"; for "another target creature" "gets -2/-0"; Eliminate's
 * "destroy it"; "" when the text doesn't say it plainly. Both prompts said only "Choose a
 * target -- target creature" (a new player's review). As client_sdk.describe.target_purpose. */
export function targetPurpose(names: Names, prompt: string): string {
  const colon = prompt.indexOf(": ");
  if (colon < 0) return "";
  const source = prompt.slice(0, colon);
  const asked = prompt.slice(colon + 2);
  const dash = asked.lastIndexOf(" -- ");
  if (dash < 0) return "";
  const phrase = asked.slice(dash + 4).trim().replace(/\.+$/, "").toLowerCase();
  if (!phrase) return "";
  const text = sourceText(names, source);
  const low = text.toLowerCase();
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  for (const found of low.matchAll(new RegExp(`(?<![a-z])${escaped}(?![a-z])`, "g"))) {
    const start = found.index ?? 0;
    const end = start + found[0].length;
    const before = low.slice(0, start);
    if (!phrase.startsWith("another ") && !phrase.startsWith("other ")
        && (before.endsWith("another ") || before.endsWith("other "))) continue;
    const rest = text.slice(end);
    const stop = rest.search(CLAUSE_END);
    const after = stop < 0 ? rest : rest.slice(0, stop);
    if (after && !after.startsWith(" ")) return ""; // ("target opponent's graveyard")
    if (after.trim()) return after.trim();
    const begin = Math.max(0, ...CLAUSE_STARTS.map((m) => {
      const at = low.lastIndexOf(m, start - m.length);
      return at >= 0 && at + m.length <= start ? at + m.length : 0;
    }));
    const verb = text.slice(begin, start).trim();
    if (!verb) return "";
    const name = source.endsWith("'s ability") ? source.slice(0, -"'s ability".length) : source;
    const said = `${verb} it`;
    return name && said.startsWith(name) ? said : said.charAt(0).toLowerCase() + said.slice(1);
  }
  return "";
}

/** The options as shown, in their order ({@link shownOrder}), alike ones once
 * ({@link ShownOption}), labels told apart ({@link distinctLabels}); `objects`: every object
 * in view (what points at one tells it apart). As client_sdk.describe.shown_options. */
export function shownOptions(names: Names, options: readonly Action[],
  objects: Iterable<GameObject> = []): ShownOption[] {
  const seen = [...objects];
  const referenced = referencedIds(seen);
  const blocked = new Set(seen.flatMap((o) => o.blocking));
  // (A second blocker for an attacker blocked already: 509.1a allows it.)
  const texts = options.map((o) => o.kind.case === "declareBlocker" && blocked.has(o.kind.value.attackerId)
    ? `Block ${objectName(names, o.kind.value.attackerId)} (already blocked) with ${objectName(names, o.kind.value.objectId)}`
    // Whose each target is, always (Eliminate's one option "Target Obsessive Stitcher" was
    // the player's own creature: a new player's review).
    : o.kind.case === "chooseTarget" && o.kind.value.target?.kind.case === "objectId" && optionWhose(names, o)
      ? `Target ${objectName(names, o.kind.value.target.kind.value)} (${optionWhose(names, o)})`
      : optionText(names, o));
  const groups: number[][] = [];
  const alike = new Map<string, number[]>();
  for (const i of shownOrder(names, options)) {
    const o = options[i];
    if (o === undefined) continue;
    const id = optionObjects(o)[0] ?? "";
    let look = (ONE_OBJECT_KINDS.has(o.kind.case) || COMBAT_KINDS.has(o.kind.case)) && id
      && names.viewer >= 0 ? objectLook(names.object(id), referenced, o.kind.case !== "declareBlocker") : null;
    let exact = "";
    // A creature shown on its own (an Aura on it) blocking either of two alike attackers: one
    // option still.
    if (look === null && o.kind.case === "declareBlocker" && names.viewer >= 0) [look, exact] = ["", id];
    // The same amounts to alike blockers in another order: one division (its words the first's).
    const dividing = o.kind.case === "assignCombatDamage" && names.viewer >= 0;
    if (dividing) look = "";
    const key = look === null ? null
      : `${o.kind.case}\n${dividing ? "" : texts[i] ?? ""}\n${partner(names, o, referenced)}`
        + `${division(names, o, referenced)}\n${look}\n${exact}`;
    const group = key === null ? undefined : alike.get(key);
    // (One object's options twice, the same words: two abilities that read alike are no
    // one option. One creature blocking either of two alike attackers is.)
    if (group && group.every((j) => (options[j] ? ident(options[j]) : "") !== ident(o))) {
      group.push(i);
      continue;
    }
    const fresh = [i];
    groups.push(fresh);
    if (key !== null && !group) alike.set(key, fresh);
  }
  const firsts = groups.map((g) => g[0] ?? 0);
  const told = toldApart(firsts.map((i) => texts[i] ?? ""),
    firsts.map((i) => (options[i] ? optionWhose(names, options[i]) : "")),
    firsts.map((i) => (options[i] ? optionStrength(names, options[i]) : "")),
    firsts.map((i) => (options[i] ? optionTapped(names, options[i]) : "")),
    firsts.map((i) => (options[i] ? optionMarks(names, options[i]) : "")));
  // Creatures declared one at a time say how many are alike: the option stays for the next.
  const words = groups.map((g, n) => {
    const text = told[n] ?? "";
    const creatures = new Set(g.map((j) => (options[j] ? optionObjects(options[j])[0] : ""))).size;
    return creatures > 1 && COMBAT_KINDS.has(options[g[0] ?? 0]?.kind.case)
      ? `${text} (one of ${creatures} alike)` : text;
  });
  const targeting = (g: number[]) => options[g[0] ?? 0]?.kind.case === "chooseTarget";
  const purpose = groups.some(targeting) ? targetPurpose(names, names.decision?.prompt ?? "") : "";
  // (What the target will get: "Target Prismite (Bob's): gets +0/+2".)
  const labels = numbered(words).map((l, n) => (purpose && targeting(groups[n] ?? []) ? `${l}: ${purpose}` : l));
  return groups.map((indices, n) => ({ index: indices[0] ?? 0, indices, label: labels[n] ?? "" }));
}

/** A rule number an older server put in a reason ("Ann conceded (104.3a)", "(rule 704.5a)"). */
const RULE_CITED = /\s*\((?:rule |CR )?\d{3}(?:\.\d+[a-z]*)?\)/g;

/** A reason the server gave (a free string: "Ann#0001 conceded", "Ann#0001 has 0 or less
 * life", "Ann#0001 lost the game to Door to Nothingness"; rules 104.3a, 104.3e, 704.5a) as
 * the viewer reads it, as the terminal says it (client_sdk.describe.reason_words): the
 * viewer's own name that begins it said "you" ("you conceded", "you have 0 or less life";
 * "Ann#0001's" -> "your"), and a rule number an older server put in it dropped --
 * player-facing words are plain English. A spectator has no "you". */
export function reasonWords(names: Names, reason: string): string {
  // The server's words for leaving, which a log line or a result puts in brackets: "(Bob
  // left the match (and conceded it))" nested them, "Bob left the game, which concedes it"
  // read awkwardly (a new player's review). Said plainly instead.
  const words = reason.replace(RULE_CITED, "").trim()
    .replace(/^(.+) left the match \(and conceded it\)$/, "$1 conceded the match by leaving it")
    .replace(/^(.+) left the game, which concedes it$/, "$1 conceded by leaving the game");
  const me = names.viewer >= 0 ? names.player(names.viewer) : "";
  if (me && words.startsWith(`${me}'s `)) return `your ${words.slice(me.length + 3)}`;
  if (me && words.startsWith(`${me} `)) {
    let rest = words.slice(me.length + 1);
    for (const [third, second] of [["has ", "have "], ["is ", "are "], ["was ", "were "]] as const) {
      if (rest.startsWith(third)) { rest = second + rest.slice(third.length); break; }
    }
    return `you ${rest}`;
  }
  return words;
}

/** That a player lost the game, and why, for the log (rule 104.3): "you lost the game (you
 * conceded)", "Bob lost the game (Bob has 0 or less life)", "Bob lost the game to Door to
 * Nothingness" (104.3e: the reason says it whole), "Bob lost the game" (no reason given). */
export function lostText(names: Names, seat: number, reason: string): string {
  const who = seatName(names, seat);
  const why = reasonWords(names, reason);
  if (!why) return `${who} lost the game`;
  return why.startsWith(`${who} lost the game`) ? why : `${who} lost the game (${why})`;
}

/** How a game ended (rules 104.2a, 104.4a): "you won (Bob conceded)", "Bob won (you have 0
 * or less life)", or "The game is a draw (you have 0 or less life)" -- the server's reason
 * for a draw begins "draw: ", which the sentence says already. */
export function resultText(names: Names, winners: readonly number[], reason: string): string {
  const said = resultReason(names, winners, reason);
  const why = said ? ` (${said})` : "";
  return winners.length === 0 ? `The game is a draw${why}`
    : `${winners.map((s) => seatName(names, s)).join(", ")} won${why}`;
}

/** A game's result's reason in the viewer's words ({@link reasonWords}), a draw's without
 * its "draw: " or ": a draw" (the server's limit of actions: "the game reached the server's
 * limit of 20,000 actions: a draw"). */
export function resultReason(names: Names, winners: readonly number[], reason: string): string {
  return reasonWords(names, winners.length === 0
    ? reason.replace(/^draw: /, "").replace(/: a draw$/, "") : reason);
}

/** A server's notice (protocol/README.md, "Notices") in the words shown: not an error. */
export function noticeText(message: string): string {
  return `Server notice: ${message}`;
}

/** "you conceded" -> "You conceded": a reason said as a sentence of its own. */
export function sentence(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A log line as shown: its first letter a capital ("You drew a card", "Your Pridemalkin
 * is now 7/6 (+4/+4)"; lines began "you ...", a new player's review) -- but a player's name
 * that begins it stays as the player wrote it ("ann#0001 cast Shock"). */
export function logSentence(line: string, players: readonly string[]): string {
  if (players.some((name) => name !== "" && line.startsWith(name))) return line;
  return sentence(line);
}

/** A player's result in the game (App.playerResults). */
export interface PlayerResult {
  seat: number;
  outcome: "won" | "lost" | "drew" | "playing";
  /** Why they lost, in the viewer's words ({@link reasonWords}: "you have 0 or less life",
   * "Bob#0002 conceded"), or "". */
  why: string;
}

/** That the player `who` (as {@link seatName} says them) lost, and why: "lost: Bob
 * conceded", "lost the game to Door to Nothingness" (104.3e: the reason says it whole), or
 * "lost" (why unknown). */
export function lostWords(who: string, why: string): string {
  if (!why) return "lost";
  return why.startsWith(`${who} lost the game`) ? why.slice(who.length + 1) : `lost: ${why}`;
}

/** A player's result in words, named from the viewer's side: "you won", "Bob lost: Bob has
 * 0 or less life", "you lost: you conceded" (as the terminal's lost_text). */
export function resultWords(names: Names, result: PlayerResult): string {
  const who = seatName(names, result.seat);
  switch (result.outcome) {
    case "won": return `${who} won`;
    case "lost": return `${who} ${lostWords(who, result.why)}`;
    case "drew": return `${who}: a draw`;
    case "playing": return `${who}: still playing`;
    default: return assertNever(result.outcome);
  }
}

/** What a room plays, for its waiting page: "" for a single game; a match (rule 100.6a):
 * "A best-of-3 match: the first to win 2 games wins it; between games each player may
 * sideboard." */
export function matchText(bestOf: number): string {
  if (bestOf <= 1) return "";
  return `A best-of-${bestOf} match: the first to win ${Math.ceil(bestOf / 2)} games wins it; `
    + "between games each player may sideboard.";
}

/** Whether a turn is being played: the game is past choosing who starts and the mulligans,
 * and not over (before, "whose turn" means nothing yet: the next game of a match still has
 * the last one's active player). */
export function turnBeingPlayed(header: GameHeader | undefined): boolean {
  return header !== undefined && header.phase === GamePhase.PLAYING && header.turn > 0
    && header.result === undefined;
}

/** A room's time bank: minutes, or seconds under a minute. */
export function clockText(seconds: number): string {
  return seconds < 60 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}

/** A delayed spectator tier in words, e.g. "every hand, 120 s behind". */
export function tierText(tier: SpectatorTier, players: readonly string[]): string {
  let what: string;
  switch (tier.kind) {
    case TierKind.OMNISCIENT: what = "every hand"; break;
    case TierKind.PUBLIC: what = "the public view"; break;
    case TierKind.PLAYER: what = `${players[tier.seat] ?? `seat ${tier.seat + 1}`}'s view`; break;
    case TierKind.UNSPECIFIED: what = "a delayed view"; break;
    default: what = "a delayed view"; // a kind this client doesn't know (a newer server)
  }
  const delays = [tier.delaySeconds ? `${tier.delaySeconds} s` : "",
    tier.delayTurns ? `${tier.delayTurns} turn${tier.delayTurns > 1 ? "s" : ""}` : ""]
    .filter(Boolean).join(" and ");
  return delays ? `${what}, ${delays} behind` : what;
}

/** What a room's players should know before they play: each delayed tier that shows hidden
 * cards (every hand, a seat's view) and who may watch it -- the host chose them, and a
 * player's second account could be among them ("" if none). */
export function hiddenTiersText(tiers: readonly SpectatorTier[], players: readonly string[]): string {
  const shown = tiers.filter((t) => t.kind !== TierKind.PUBLIC).map((t) => {
    const who = [...t.accounts, ...(t.invite ? ["anyone with the invite code"] : [])];
    return `${tierText(t, players)} (to ${who.join(", ") || "nobody"})`;
  });
  return shown.length ? `This room shows hidden cards to watchers the host chose: ${shown.join("; ")}.`
    : "";
}

/** Ids of the objects an option names (clicking such a card picks the option, or selects
 * it): a block names its blocker first, then the attacker it blocks. */
export function optionObjects(action: Action): string[] {
  const k = action.kind;
  switch (k.case) {
    case "playLand": case "castSpell": case "activateManaAbility": case "discard":
    case "putOnBottom": case "activateAbility": case "chooseOrder": case "keepLegend":
    case "sacrifice": case "chooseReplacement": case "placeCard": case "chooseCard":
      return [k.value.objectId];
    case "declareAttacker": return [k.value.objectId];
    case "declareBlocker": return [k.value.objectId, k.value.attackerId];
    case "assignCombatDamage": return [k.value.attackerId];
    case "chooseTarget":
      return k.value.target?.kind.case === "objectId" ? [k.value.target.kind.value] : [];
    case "chooseExilePile": return [...k.value.objectIds];
    case "passPriority": case "chooseX": case "payMana": case "finishAttackers":
    case "finishBlockers": case "concede": case "chooseStartingPlayer": case "keepHand":
    case "takeMulligan": case "chooseMode": case "finishTargets": case "resetBlockers": case "resetAttackers":
    case "payAutomatically": case "cancelCast":
    case "decline": case "choosePlayer": case "choosePile": case "finishModes": case "accept":
    case "rollPlanarDie": case "chooseOutsideCard": case "chooseColor":
    case "chooseName": case undefined:
      return [];
    default: return assertNever(k);
  }
}

/** Seats of the players an option names (clicking the player picks it). */
export function optionSeats(action: Action): number[] {
  const k = action.kind;
  if (k.case === "chooseTarget" && k.value.target?.kind.case === "player") {
    return [k.value.target.kind.value];
  }
  if (k.case === "choosePlayer" || k.case === "chooseStartingPlayer") return [k.value.seat];
  return [];
}

const STEP_NAMES: Record<Step, string> = {
  [Step.UNSPECIFIED]: "",
  [Step.UNTAP]: "Untap step",
  [Step.UPKEEP]: "Upkeep",
  [Step.DRAW]: "Draw step",
  [Step.PRECOMBAT_MAIN]: "Precombat main phase",
  [Step.BEGINNING_OF_COMBAT]: "Beginning of combat",
  [Step.DECLARE_ATTACKERS]: "Declare attackers",
  [Step.DECLARE_BLOCKERS]: "Declare blockers",
  [Step.COMBAT_DAMAGE]: "Combat damage",
  [Step.END_OF_COMBAT]: "End of combat",
  [Step.POSTCOMBAT_MAIN]: "Postcombat main phase",
  [Step.END]: "End step",
  [Step.CLEANUP]: "Cleanup step",
};

export function stepName(step: Step): string {
  return STEP_NAMES[step] ?? `step ${step}`;
}

const ZONE_NAMES: Record<ZoneKind, string> = {
  [ZoneKind.UNSPECIFIED]: "nowhere",
  [ZoneKind.LIBRARY]: "library",
  [ZoneKind.HAND]: "hand",
  [ZoneKind.BATTLEFIELD]: "battlefield",
  [ZoneKind.GRAVEYARD]: "graveyard",
  [ZoneKind.STACK]: "stack",
  [ZoneKind.EXILE]: "exile",
  [ZoneKind.COMMAND]: "command zone",
  [ZoneKind.ANTE]: "ante",
};

export function zoneName(kind: ZoneKind): string {
  return ZONE_NAMES[kind] ?? `zone ${kind}`;
}

const DECISION_NAMES: Record<DecisionKind, string> = {
  [DecisionKind.UNSPECIFIED]: "a decision",
  [DecisionKind.PRIORITY]: "priority",
  [DecisionKind.CHOOSE_X]: "choosing X",
  [DecisionKind.CHOOSE_TARGET]: "choosing a target",
  [DecisionKind.PAY_MANA]: "paying mana",
  [DecisionKind.DECLARE_ATTACKERS]: "declaring attackers",
  [DecisionKind.DECLARE_BLOCKERS]: "declaring blockers",
  [DecisionKind.ASSIGN_COMBAT_DAMAGE]: "assigning combat damage",
  [DecisionKind.DISCARD]: "discarding",
  [DecisionKind.CHOOSE_STARTING_PLAYER]: "choosing who plays first",
  [DecisionKind.MULLIGAN]: "keep or mulligan",
  [DecisionKind.BOTTOM_CARD]: "putting a card on the bottom",
  [DecisionKind.CHOOSE_MODE]: "choosing a mode",
  [DecisionKind.ORDER_TRIGGERS]: "ordering triggers",
  [DecisionKind.ORDER_GRAVEYARD]: "ordering the graveyard",
  [DecisionKind.LEGEND_RULE]: "the legend rule",
  [DecisionKind.SACRIFICE]: "sacrificing",
  [DecisionKind.CHOOSE_COST]: "choosing a cost",
  [DecisionKind.CHOOSE_REPLACEMENT]: "choosing a replacement effect",
  [DecisionKind.CHOOSE_DEFENDER]: "choosing what to attack",
  [DecisionKind.SCRY]: "scrying",
  [DecisionKind.SEARCH]: "searching",
  [DecisionKind.CHOOSE_PLAYER]: "choosing a player",
  [DecisionKind.SEPARATE_PILES]: "separating piles",
  [DecisionKind.CHOOSE_PILE]: "choosing a pile",
  [DecisionKind.CHOOSE_CARD]: "choosing a card",
  [DecisionKind.CLASH]: "clashing",
  [DecisionKind.CHOOSE_PARTY]: "choosing a party",
  [DecisionKind.MAY]: "a \"you may\" choice",
  [DecisionKind.CHOOSE_COLOR]: "choosing a color",
  [DecisionKind.CHOOSE_NAME]: "choosing an option",
  [DecisionKind.CHOOSE_OUTSIDE_CARD]: "choosing a card from outside the game",
  [DecisionKind.CHOOSE_EXILED_CARD]: "choosing an exiled card",
  [DecisionKind.CAST_MADNESS]: "casting with madness",
};

/** Logged when the client answers a declaration of no blockers for its player. */
export const NO_BLOCKERS_TEXT = "you declared no blockers: none of your creatures can block";

/** A declaration of blockers (rule 509.1a) whose one option is to declare none: none of the
 * player's creatures can block. It is no choice, so the client answers it at once (the
 * player's clock runs only for the round trip) instead of asking for a click; as the
 * terminal does (client_sdk.describe.nothing_can_block). */
export function nothingCanBlock(decision: Decision): boolean {
  return decision.kind === DecisionKind.DECLARE_BLOCKERS && decision.options.length === 1
    && decision.options[0]!.kind.case === "finishBlockers";
}

/** A mana ability that does nothing but tap its permanent for mana ("{T}: Add {B} or {R}."). */
const PLAIN_MANA = /^\(?\{T\}: Add [^.]*\.\)?$/;

/** Whether tapping `obj` for mana does nothing else: a basic land (305.6), or a permanent --
 * a land, or a creature such as Llanowar Visionary -- whose every mana ability reads
 * "{T}: Add ..." -- no sacrifice, no damage, no life, no other cost (a Treasure's sacrifice
 * can trigger Havoc Jester: that is a play); as client_sdk.describe.plain_mana_source. */
export function plainManaSource(obj: GameObject | undefined): boolean {
  if (obj === undefined) return false;
  if (obj.cardTypes.includes("Land") && obj.supertypes.includes("Basic")) return true;
  const abilities = obj.rulesText.split("\n").filter((line) => line.includes(": Add "));
  return abilities.length > 0 && abilities.every((line) => PLAIN_MANA.test(line.trim()));
}

/** Priority with nothing to do but pass (rule 117.3): no spell to cast, no ability to
 * activate -- at most lands to tap for mana that nothing could spend and that empties at
 * the end of the step (106.4). The client passes at once (a player who could cast or
 * activate anything, or make mana with a side effect, still decides); as the terminal does
 * (client_sdk.describe.only_pass). */
export function onlyPass(decision: Decision, objects: ReadonlyMap<string, GameObject>): boolean {
  if (decision.kind !== DecisionKind.PRIORITY) return false;
  let passes = false;
  for (const option of decision.options) {
    const k = option.kind;
    if (k.case === "passPriority") passes = true;
    else if (k.case !== "activateManaAbility" || !plainManaSource(objects.get(k.value.objectId))) {
      return false;
    }
  }
  return passes;
}

/** Why a player is asked the order of cards put into their graveyard at once (404.3), and
 * that it seldom matters: the prompt alone ("Choose the next card to put into your graveyard
 * (first is lowest)") gave no reason (a new player's review). As the terminal says it
 * (client_sdk.board.GRAVEYARD_ORDER_TEXT). */
export const GRAVEYARD_ORDER_TEXT = "These cards go to your graveyard at the same time, so you "
  + "may choose their order: it matters only to a card that cares about the order "
  + "of a graveyard, which is rare -- if unsure, press “Any order”.";

/** A cost being paid (PAY_MANA, 601.2h) that the player's mana pool pays exactly -- all of
 * the pool, in one way only (a single PayMana option spending every mana in it): the index
 * of that option, else -1. Never for a payment the player may decline (an "unless" cost,
 * 118.12a: paying it is a choice). A player who tapped a Mountain for a {R} cost was asked
 * again "your mana pool covers it -- choose the mana to spend", its one option "Pay {R}"
 * (a new player's review). */
export function poolPaysExactly(decision: Decision, pool: ManaPool | undefined): number {
  if (decision.kind !== DecisionKind.PAY_MANA || pool === undefined) return -1;
  if (decision.options.some((o) => o.kind.case === "decline")) return -1;
  const pays = decision.options.flatMap((o, i) => o.kind.case === "payMana"
    ? [{ i, mana: o.kind.value.mana, step: o.kind.value.types > 0 }] : []);
  const total = pool.white + pool.blue + pool.black + pool.red + pool.green + pool.colorless;
  const only = pays.length === 1 ? pays[0]! : null;
  // (Never a step of a payment asked a mana type at a time: it pays nothing yet.)
  return only !== null && !only.step && total > 0 && only.mana.length === total ? only.i : -1;
}

/** Whether `decision` is the order of cards put into the player's graveyard at once (404.3),
 * or of the player's triggered abilities put on the stack (603.3b), when those left all look
 * the same ({@link shownOptions}: one option, "Next: Swamp" for two Swamps a Mind Rot
 * discarded; "Next: Bolt Hound's trigger" for two Bolt Hounds' attack triggers, the same
 * text of sources of the same name): no choice, answered at once for the player. (Milled by
 * Thieves' Guild Enforcer, a new user was asked to press 1 for "Next: Walking Corpse", its
 * only option; attacking with two Bolt Hounds, another for "Next: Bolt Hound's trigger".)
 * As client_sdk.describe.alike_order. */
export function alikeOrder(names: Names, decision: Decision, objects: Iterable<GameObject>): boolean {
  return (decision.kind === DecisionKind.ORDER_GRAVEYARD || decision.kind === DecisionKind.ORDER_TRIGGERS)
    && decision.options.length > 0 && shownOptions(names, decision.options, objects).length === 1;
}

export function decisionName(kind: DecisionKind): string {
  return DECISION_NAMES[kind] ?? "a decision";
}

function recipientText(names: Names, r: DamageEvent["recipient"]): string {
  switch (r.case) {
    case "player": return seatName(names, r.value);
    case "objectId": return whoseName(names, r.value);
    case undefined: return "nothing";
    default: return assertNever(r);
  }
}

/** The lines of events that happened in this order (a delta's; a snapshot's recent ones),
 * null for those that say nothing. `mulligans`: they happened during the mulligans (103.5),
 * where a card going from a hand into its library is either a mulligan's hand shuffled away
 * (after "took a mulligan", before that player draws the new hand) or, after it, a card put
 * on the bottom -- which read "put a card from your hand into your library" (a new player's
 * review). */
export function eventLines(names: Names, events: readonly GameEvent[], mulligans: boolean): (string | null)[] {
  const shuffling = new Set<number>();
  const countered = new Set<string>();
  const casts = names.casts;
  const picked = pickedFromLibraries(events);
  return events.map((event, index) => {
    const k = event.kind;
    if (casts !== undefined) {
      if (k.case === "zoneChange" && k.value.fromZone === ZoneKind.HAND && k.value.toZone === ZoneKind.STACK
          && k.value.newId) casts.set(k.value.newId, false); // 601.2a: casting begun
      else if (k.case === "spellCast" && casts.has(k.value.objectId)) casts.set(k.value.objectId, true); // 601.2i
    }
    if (k.case === "countered" && k.value.objectId) countered.add(k.value.objectId);
    if (k.case === "mulliganTaken") shuffling.add(k.value.seat);
    else if (k.case === "cardDrawn") shuffling.delete(k.value.seat);
    const bottom = mulligans && k.case === "zoneChange" && k.value.fromZone === ZoneKind.HAND
      && k.value.toZone === ZoneKind.LIBRARY && !shuffling.has(k.value.owner);
    const milled = libraryToGraveyard(event);
    if (milled !== null) {
      // Cards put from one library into its owner's graveyard together: one line naming them
      // all, on the run's first ("Bob milled 2 cards: Plains, Shock", 701.17a), as the
      // terminal says it (client_sdk.describe.library_to_graveyard_text).
      if (libraryToGraveyard(events[index - 1])?.owner === milled.owner) return null;
      const run = [milled];
      for (const later of events.slice(index + 1)) {
        const next = libraryToGraveyard(later);
        if (next === null || next.owner !== milled.owner) break;
        run.push(next);
      }
      return libraryToGraveyardLine(names, run, !picked);
    }
    // The countered spell put into its graveyard (701.6a): its "countered" line says it.
    const line = k.case === "zoneChange" && countered.has(k.value.oldId) ? null : eventText(names, event, bottom);
    // A spell off the stack is a new object (400.7): forgotten once said.
    if (k.case === "zoneChange" && k.value.fromZone === ZoneKind.STACK) casts?.delete(k.value.oldId);
    return line;
  });
}

/** The card an event puts from a library into its owner's graveyard, or null. */
function libraryToGraveyard(event: GameEvent | undefined): ZoneChangeEvent | null {
  const k = event?.kind;
  return k?.case === "zoneChange" && k.value.fromZone === ZoneKind.LIBRARY && k.value.toZone === ZoneKind.GRAVEYARD
    ? k.value : null;
}

/** Whether a delta's `events` hold a card found or picked from a library -- a search
 * (701.23), a card put into a hand from among those looked at or revealed (Waker of Waves,
 * Fact or Fiction's piles): beside it, cards put from a library into a graveyard weren't
 * milled (701.17a) but are the rest of what was looked at. (More cards from a library to a
 * hand than were drawn: each draw says itself, 121.1.) */
function pickedFromLibraries(events: readonly GameEvent[]): boolean {
  const moved = new Map<number, number>();
  for (const event of events) {
    const k = event.kind;
    if (k.case === "librarySearched") return true;
    if (k.case === "zoneChange" && k.value.fromZone === ZoneKind.LIBRARY && k.value.toZone === ZoneKind.HAND) {
      moved.set(k.value.owner, (moved.get(k.value.owner) ?? 0) + 1);
    } else if (k.case === "cardDrawn") moved.set(k.value.seat, (moved.get(k.value.seat) ?? 0) - 1);
  }
  return [...moved.values()].some((n) => n > 0);
}

/** Cards of one player's library put into their graveyard together (a public zone: each is
 * named), in one line: milled (701.17a: "Bob milled Plains", "you milled 2 cards: Plains,
 * Shock") -- or, beside a card found or picked from that library (`milled` false), the rest of
 * what was looked at ("Bob put Shock from their library into their graveyard"). */
export function libraryToGraveyardLine(names: Names, moved: readonly ZoneChangeEvent[], milled: boolean): string {
  const owner = moved[0]!.owner;
  const who = seatName(names, owner);
  const cards = moved.map((z) => z.name || "a card");
  const what = cards.length === 1 ? cards[0]! : `${cards.length} cards`;
  const listed = cards.length > 1 ? `: ${cards.join(", ")}` : "";
  if (milled) return `${who} milled ${what}${listed}`;
  const their = owner === names.viewer ? "your" : "their";
  return `${who} put ${what} from ${their} library into ${their} graveyard${listed}`;
}

/** Where a resolving spell's effects end among a delta's `events`: the index of the spell
 * put from the stack into its owner's graveyard (or exiled, or put into a library) -- the last
 * step of its resolving, after its instructions are followed (rule 608.2n) -- the delta's last
 * such move (a counterspell's target goes before it, 701.6a); -1 if none. What only the view
 * tells of the effects (a pump's new size, a permanent tapped) is said before that line:
 * "Titanic Growth moved ... to your graveyard" before "Pridemalkin is now 7/6" read as if the
 * spell had left first. A permanent spell entering the battlefield is its resolving (608.3),
 * and a cast taken back returns to the hand (733.1): neither counts. As the terminal's
 * client_sdk.describe.resolution_end. */
export function resolutionEnd(events: readonly GameEvent[]): number {
  for (let i = events.length - 1; i >= 0; i--) {
    const k = events[i]!.kind;
    if (k.case === "zoneChange" && k.value.fromZone === ZoneKind.STACK && (k.value.toZone === ZoneKind.GRAVEYARD
        || k.value.toZone === ZoneKind.EXILE || k.value.toZone === ZoneKind.LIBRARY)) return i;
  }
  return -1;
}

/** Where a card left from, for a log line: "the battlefield", "the stack", "your graveyard",
 * "Bob's hand" (it read "exiled from battlefield"). */
function fromWhere(names: Names, zone: ZoneKind, owner: number): string {
  switch (zone) {
    case ZoneKind.EXILE:
      return "exile"; // "from exile" (it read "from the exile")
    case ZoneKind.BATTLEFIELD: case ZoneKind.STACK: case ZoneKind.COMMAND: case ZoneKind.ANTE:
      return `the ${zoneName(zone)}`;
    default:
      return `${owner === names.viewer ? "your" : `${names.player(owner)}'s`} ${zoneName(zone)}`;
  }
}

/** Rule 701.6a (2009: 701.5a): "Your Shock was countered by Miscast (you couldn't pay {3})"
 * -- whose, by what, and the "unless ... pays" cost not paid (118.12a) or declined; as the
 * terminal says it (client_sdk.describe.countered_text). */
export function counteredLine(names: Names, c: CounteredEvent): string {
  const whose = c.controller === names.viewer ? "Your" : `${names.player(c.controller)}'s`;
  const what = c.ability ? `${c.name || "card"}'s ability` : c.name || "spell";
  let line = `${whose} ${what} was countered`;
  if (c.byName) line += c.byAbility ? ` by ${c.byName}'s ability` : ` by ${c.byName}`;
  if (c.unlessCost) {
    const who = seatName(names, c.controller);
    line += c.declined ? ` (${who} declined to pay ${c.unlessCost})` : ` (${who} couldn't pay ${c.unlessCost})`;
  }
  return line;
}

/** One event in plain words, or null for events that say nothing worth a log line.
 * `bottom`: a card from a hand into its library is one put on the bottom ({@link eventLines}). */
export function eventText(names: Names, event: GameEvent, bottom = false): string | null {
  const k = event.kind;
  switch (k.case) {
    case "zoneChange": {
      const e = k.value;
      const what = e.name || "a card";
      if (e.fromZone === ZoneKind.LIBRARY && e.toZone === ZoneKind.HAND) return null; // cardDrawn says it
      if (e.fromZone === ZoneKind.UNSPECIFIED) return null;
      if (e.fromZone === ZoneKind.HAND && e.toZone === ZoneKind.STACK) return null; // cast (601.2a): spellCast says it
      const entered = e.newId ? names.object(e.newId) : undefined;
      if (e.fromZone === ZoneKind.HAND && e.toZone === ZoneKind.BATTLEFIELD && entered?.cardTypes.includes("Land")) {
        return `${seatName(names, entered.controller)} played ${e.name || "a land"}`; // rule 305.1
      }
      // Whose, before the name as the terminal says it: "your Llanowar Visionary entered the
      // battlefield" ("Llanowar Visionary (Ann#4658's)" in Ann's own log, while damage lines
      // said "(yours)": a new player's review), "Bob's Grizzly Bears died".
      const owner = possessive(names, e.owner);
      const left = e.oldId ? names.object(e.oldId) : undefined;
      if (e.fromZone === ZoneKind.BATTLEFIELD && e.toZone === ZoneKind.GRAVEYARD && e.name
          && left?.cardTypes.includes("Creature")) {
        return `${owner} ${e.name} died`; // rule 700.4
      }
      if (e.fromZone === ZoneKind.HAND && e.toZone === ZoneKind.GRAVEYARD) {
        return `${seatName(names, e.owner)} discarded ${what}`; // rule 701.9a
      }
      if (e.fromZone === ZoneKind.HAND && e.toZone === ZoneKind.LIBRARY) {
        // A mulligan's hand shuffled away and the cards put on the bottom (103.5), a "put
        // ... from your hand on top": nameless, so a mulligan is one counted line ("(×7)"),
        // not seven named ones; as the terminal says it (client_sdk.describe.event_text).
        const their = e.owner === names.viewer ? "your" : "their";
        if (bottom) return `${seatName(names, e.owner)} put a card on the bottom of ${their} library`;
        return `${seatName(names, e.owner)} put a card from ${their} hand into ${their} library`;
      }
      const whose = `${owner} ${e.name || "card"}`;
      if (e.toZone === ZoneKind.BATTLEFIELD) return `${whose} entered the battlefield`; // e.g. 608.3
      if (e.toZone === ZoneKind.EXILE) return `${whose} was exiled from ${fromWhere(names, e.fromZone, e.owner)}`; // 406.3
      if (e.fromZone === ZoneKind.STACK && e.toZone === ZoneKind.HAND && e.oldId
          && names.casts?.get(e.oldId) === false) {
        // A cast taken back before it was cast (cancelCast, 733.1): "Your Scorching
        // Dragonfire returned to your hand from the stack" read as a bounce (a new player's
        // review).
        return `${seatName(names, e.owner)} took back ${what}`;
      }
      if (e.toZone === ZoneKind.HAND &&
          (e.fromZone === ZoneKind.BATTLEFIELD || e.fromZone === ZoneKind.STACK)) {
        // A bounce, or a spell returned -- or a cast taken back, where the client can't tell.
        const from = e.fromZone === ZoneKind.STACK ? " from the stack" : "";
        return `${whose} returned to ${e.owner === names.viewer ? "your" : "its owner's"} hand${from}`;
      }
      return `${whose} moved from ${fromWhere(names, e.fromZone, e.owner)} to ${fromWhere(names, e.toZone, e.owner)}`;
    }
    case "damage": {
      const e = k.value;
      return `${whoseName(names, e.sourceId)} dealt ${e.amount} damage to ${recipientText(names, e.recipient)}`;
    }
    case "playerLost": return lostText(names, k.value.seat, k.value.reason);
    case "spellCast": // 601.2i, with its targets (601.2c)
      return `${seatName(names, k.value.controller)} cast ${k.value.name || "a spell"}${targeting(names, k.value.targets)}`;
    case "ability": { // 602.2i activated, 603.3 triggered: put on the stack
      const a = k.value;
      const said = a.text ? ` (${clipped(a.text)})` : "";
      if (a.triggered) {
        const whose = a.controller === names.viewer ? "your" : `${names.player(a.controller)}'s`;
        return `${whose} ${a.name || "card"} triggered${said}${targeting(names, a.targets)}`;
      }
      return `${seatName(names, a.controller)} activated ${a.name || "a card"}${said}${targeting(names, a.targets)}`;
    }
    case "countered": return counteredLine(names, k.value);
    case "cardDrawn": return `${seatName(names, k.value.seat)} drew a card`;
    case "tokenCreated":
      return `${seatName(names, k.value.controller)} created ${tokenWords(k.value.name)}`;
    case "attackersDeclared": { // rule 508.1: each attacker and what it attacks
      const ids = k.value.attackerIds;
      if (ids.length === 0) return "No attackers";
      const attacked = new Map<string, string[]>();
      // What each attacks, as the event says (an older server's: read from the objects,
      // which no longer say it once combat is over -- a page loaded later lost it).
      const told = k.value.defenders.length === ids.length;
      ids.forEach((id, n) => {
        const obj = names.object(id);
        const walker = k.value.planeswalkerIds[n] ?? "";
        const whom = told ? (walker ? objectName(names, walker) : seatName(names, k.value.defenders[n] ?? -1))
          : obj?.attacking === undefined ? ""
          : obj.attackingPlaneswalker ? objectName(names, obj.attackingPlaneswalker)
            : seatName(names, obj.attacking);
        attacked.set(whom, [...(attacked.get(whom) ?? []), objectName(names, id)]);
      });
      return [...attacked].map(([whom, group]) =>
        `${whom ? `Attacking ${whom}` : "Attacking"}: ${group.join(", ")}`).join("; ");
    }
    case "blockersDeclared": {
      const blocks = k.value.blocks;
      return blocks.length === 0 ? "No blockers"
        : `Blocks: ${blocks.map((b) => `${whoseName(names, b.blockerId)} blocks ${whoseName(names, b.attackerId)}`).join("; ")}`;
    }
    case "cardsRevealed":
      return `${k.value.toEveryone ? "Revealed" : "You look at"}: ${k.value.cards.map((c) => c.name).join(", ")}`;
    case "librarySearched": {
      const { seat, owner, found } = k.value;
      const whose = owner === names.viewer ? "your" : owner === seat ? "their" : `${names.player(owner)}'s`;
      // (found cards are named only if revealed, 701.23e: their count, in words)
      const what = found === 0 ? "nothing" : found === 1 ? "a card" : `${found} cards`;
      return `${seatName(names, seat)} searched ${whose} library and found ${what}`;
    }
    case "clash": {
      const w = k.value.winner;
      return `Clash: ${w === undefined ? "nobody won" : `${seatName(names, w)} won`}`;
    }
    case "lifeChanged": { // rule 119.3 (damage says itself, 120.3a)
      const { seat, amount } = k.value;
      return `${seatName(names, seat)} ${amount > 0 ? "gained" : "lost"} ${Math.abs(amount)} life`;
    }
    case "lifeExchanged": return `${k.value.seats.map((s) => seatName(names, s)).join(" and ")} exchanged life totals`;
    case "startingPlayerChosen": { // rule 103.1
      const { chooser, starting } = k.value;
      return chooser === starting ? `${seatName(names, chooser)} chose to play first`
        : `${seatName(names, chooser)} chose ${seatName(names, starting)} to play first`;
    }
    case "mulliganTaken": { // rule 103.5
      const { seat, number } = k.value;
      return `${seatName(names, seat)} took a mulligan${number > 1 ? ` (${ordinal(number)})` : ""}`;
    }
    // Rules 700.13, 700.14: true of nearly every game, worth a line only when a card in view
    // cares ("whenever you commit a crime", "whenever you expend 4").
    case "crime":
      return names.mentions("crime") ? `${seatName(names, k.value.seat)} committed a crime` : null;
    case "expend":
      return names.mentions("expend") ? `${seatName(names, k.value.seat)} expended ${k.value.amount}` : null;
    case "gameEnded": return resultText(names, k.value.winners, k.value.reason);
    case undefined: return null;
    default: return assertNever(k);
  }
}

/** " targeting Bob and Grizzly Bears" (601.2c), or nothing (as client_sdk.describe). */
function targeting(names: Names, targets: readonly Target[]): string {
  const said = targets.map((t) => targetText(names, t, true));
  if (said.length === 0) return "";
  return ` targeting ${said.length === 1 ? said[0] : `${said.slice(0, -1).join(", ")} and ${said[said.length - 1]}`}`;
}

/** The most of an ability's text a log line quotes. */
const ABILITY_WORDS = 60;

/** An ability's text for a log line: its first ABILITY_WORDS characters, without reminder
 * text (a keyword's alone: "Prowess", not "Prowess (Whenever you cast a noncreature spell,
 * this crea..." cut short) and with {T} said "Tap" (the log is plain words). */
export function clipped(text: string): string {
  const bare = text.replace(/\s*\([^()]*\)/g, "").trim();
  const words = (bare || text).split(/\s+/).filter(Boolean).join(" ").replace(/\{T\}/g, "Tap")
    .replace(/\{Q\}/g, "Untap");
  return words.length <= ABILITY_WORDS ? words : `${words.slice(0, ABILITY_WORDS - 3).trimEnd()}...`;
}

/** "a Knight token"; a token whose name says so already reads "a Treasure Token" (111.4);
 * "an Angel Token" before a vowel (it read "a Angel Token"). */
export function tokenWords(name: string): string {
  if (!name) return "a token";
  const article = /^[aeiou]/i.test(name) ? "an" : "a";
  return / token$/i.test(name) ? `${article} ${name}` : `${article} ${name} token`;
}

/** `1st`, `2nd`, `3rd`, `4th` ... `11th`, `12th`, `21st` (as client_sdk.describe.ordinal). */
export function ordinal(n: number): string {
  const suffix = n % 100 >= 10 && n % 100 <= 20 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th";
  return `${n}${suffix}`;
}
