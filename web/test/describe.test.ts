/** Plain words for options and events (web/src/describe.ts). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import {
  ActionSchema, CounterSchema, DecisionKind, DecisionSchema, GameEventSchema, ManaPoolSchema, GameHeaderSchema, GameObjectSchema, GamePhase, type Action,
  type GameObject, TargetSchema, ZoneKind,
} from "../src/gen/protocol/v1/game_pb";
import {
  clipped, clockText, distinctLabels, eventLines, eventText, poolPaysExactly, manaSymbolWords, manaSymbols, optionObjects, optionSeats,
  hiddenTiersText, lostWords, matchText, reasonWords, resultReason, resultWords, sentence, optionText, optionWhose, ordinal, plainManaSource, shownOptions, tierText,
  targetPurpose, targetText, tokenWords, turnBeingPlayed, type Names, logSentence, possessive, problemSentence, resultText, resolutionEnd, strengthChange,
} from "../src/describe";
import { SpectatorTierSchema, TierKind } from "../src/gen/protocol/v1/messages_pb";

const objects = new Map<string, GameObject>([
  ["i1", create(GameObjectSchema, { id: "i1", name: "Island", zone: { kind: ZoneKind.BATTLEFIELD, owner: -1 } })],
  ["b1", create(GameObjectSchema, { id: "b1", name: "Grizzly Bears" })],
  ["w1", create(GameObjectSchema, { id: "w1", name: "Wall of Wood" })],
  ["fd", create(GameObjectSchema, { id: "fd", faceDown: true })],
  ["o0", create(GameObjectSchema, { id: "o0", name: "Burlfist Oak", controller: 0 })],
  ["o1", create(GameObjectSchema, { id: "o1", name: "Burlfist Oak", controller: 1 })],
]);
const names: Names = {
  viewer: 0,
  object: (id) => objects.get(id),
  player: (seat) => ["Ann", "Bob"][seat] ?? `Seat ${seat + 1}`,
  mentions: (word) => [...objects.values()].some((o) => o.rulesText.toLowerCase().includes(word)),
};
const act = (kind: MessageInitShape<typeof ActionSchema>["kind"]): Action => create(ActionSchema, { kind });

test("options read as what they do, naming cards and players", () => {
  assert.equal(optionText(names, act({ case: "passPriority", value: {} })), "Pass priority");
  assert.equal(optionText(names, act({ case: "activateManaAbility", value: { objectId: "i1", mana: "U" } })),
    "Tap Island for {U}");
  // Rules 605.1a, 601.2h: an ability whose cost is mana says how it is paid (Prismite's {2}).
  assert.equal(optionText(names, act({ case: "activateManaAbility", value: { objectId: "i1", mana: "W", paidWith: "RG" } })),
    "Pay {R}{G} to Island for {W}");
  assert.equal(optionText(names, act({ case: "payMana", value: { mana: "RRB" } })), "Pay {R}{R}{B}");
  assert.equal(optionText(names, act({ case: "chooseColor", value: { color: "R" } })), "Red");
  // Rule 616.1: which replacement applies -- a dying creature's, or what prevents damage to the
  // player (a Nine Lives named, a resolved spell's effect, protection).
  const replacement = (objectId: string, what: string) =>
    optionText(names, act({ case: "chooseReplacement", value: { objectId, replacement: what } }));
  assert.equal(replacement("w1", "exile"), "Wall of Wood: exile instead");
  assert.equal(replacement("w1", "prevent"), "Prevent it with Wall of Wood");
  assert.equal(replacement("", "prevent"), "Prevent it with a resolved spell's effect");
  assert.equal(replacement("w1", "protection"), "Prevent it: protection (Wall of Wood)");
  // Rules 602.1, 700.2: an ability or a mode reads as printed (an older server: its index).
  assert.equal(optionText(names, act({ case: "activateAbility", value: { objectId: "w1", ability: 1, text: "{2}: Draw a card." } })),
    "Activate Wall of Wood: {2}: Draw a card.");
  assert.equal(optionText(names, act({ case: "activateAbility", value: { objectId: "w1", ability: 1 } })),
    "Activate Wall of Wood's ability 2");
  assert.equal(optionText(names, act({ case: "chooseMode", value: { mode: 1, text: "Destroy target enchantment." } })),
    "Mode 2: Destroy target enchantment.");
  assert.equal(optionText(names, act({ case: "chooseMode", value: { mode: 1 } })), "Mode 2");
  assert.equal(optionText(names, act({ case: "chooseName", value: { name: "Lifelink" } })), "Lifelink");
  assert.equal(optionText(names, act({ case: "declareAttacker", value: { objectId: "b1", defender: 1 } })),
    "Attack Bob with Grizzly Bears");
  assert.equal(optionText(names, act({ case: "declareBlocker", value: { objectId: "w1", attackerId: "b1" } })),
    "Block Grizzly Bears with Wall of Wood");
  assert.equal(optionText(names, act({ case: "chooseTarget", value: { target: { kind: { case: "player", value: 0 } } } })),
    "Target you");
  assert.equal(optionText(names, act({ case: "assignCombatDamage", value: { attackerId: "b1",
    assignments: [{ objectId: "w1", amount: 2 }, { objectId: "", amount: 1 }] } })),
  "Grizzly Bears deals 2 to Wall of Wood, 1 to the player or planeswalker it attacks");
  assert.equal(optionText(names, act({ case: "chooseCard", value: { objectId: "fd" } })),
    "Choose a face-down card");
  assert.equal(optionText(names, act({ case: "chooseCard", value: { objectId: "gone" } })),
    "Choose a card you can't see");
  assert.equal(optionText(names, create(ActionSchema, {})), "An option this client doesn't understand");
});

test("options name the cards and players a click picks them by", () => {
  // A block names both creatures: the blocker, then the attacker (clicking either selects it).
  assert.deepEqual(optionObjects(act({ case: "declareBlocker", value: { objectId: "w1", attackerId: "b1" } })), ["w1", "b1"]);
  assert.deepEqual(optionObjects(act({ case: "passPriority", value: {} })), []);
  assert.deepEqual(optionSeats(act({ case: "chooseTarget", value: { target: { kind: { case: "player", value: 1 } } } })), [1]);
  assert.deepEqual(optionSeats(act({ case: "chooseTarget", value: { target: { kind: { case: "objectId", value: "b1" } } } })), []);
});

test("the same words twice are told apart", () => {
  assert.deepEqual(distinctLabels(["Tap Island for mana", "Pass priority", "Tap Island for mana"]),
    ["Tap Island for mana (1 of 2)", "Pass priority", "Tap Island for mana (2 of 2)"]);
});

test("two targets of one name say whose each is (a terminal player can't click the card)", () => {
  const target = (id: string) => act({ case: "chooseTarget", value: { target: { kind: { case: "objectId", value: id } } } });
  const options = [target("o0"), target("o1"), act({ case: "passPriority", value: {} })];
  assert.deepEqual(distinctLabels(options.map((o) => optionText(names, o)), options.map((o) => optionWhose(names, o))),
    ["Target Burlfist Oak (yours)", "Target Burlfist Oak (Bob's)", "Pass priority"]);
  // Both yours: counted as before.
  assert.deepEqual(distinctLabels(["Target Island", "Target Island"], ["yours", "yours"]),
    ["Target Island (1 of 2)", "Target Island (2 of 2)"]);
});

test("alike options -- the same words naming objects the player can't tell apart -- are shown once", () => {
  const hand = (id: string, name: string, owner = 0) => create(GameObjectSchema, { id, name, owner,
    controller: owner, zone: { kind: ZoneKind.HAND, owner } });
  const field = (id: string, name: string, change: (o: GameObject) => void = () => {}) => {
    const o = create(GameObjectSchema, { id, name, controller: 0, cardTypes: ["Land"],
      zone: { kind: ZoneKind.BATTLEFIELD, owner: -1 } });
    change(o);
    return o;
  };
  const seen = new Map<string, GameObject>([
    ["f1", hand("f1", "Forest")], ["f2", hand("f2", "Forest")], ["f3", hand("f3", "Forest")],
    ["g1", hand("g1", "Volcanic Geyser")], ["g2", hand("g2", "Volcanic Geyser")],
    ["s1", hand("s1", "Shock")], ["x1", hand("x1", "Shock", 1)],
    // Two untapped Mountains (one played this turn: a land's summoning sickness is nothing,
    // 302.6); one tapped, one with a counter, one an Aura is on, one a spell targets.
    ["m1", field("m1", "Mountain")], ["m2", field("m2", "Mountain", (o) => { o.summoningSick = true; })],
    ["m3", field("m3", "Mountain", (o) => { o.tapped = true; })],
    ["m4", field("m4", "Mountain", (o) => { o.counters = [create(CounterSchema, { kind: "lore", count: 1 })]; })],
    ["m5", field("m5", "Mountain")], ["m6", field("m6", "Mountain")],
    ["a5", create(GameObjectSchema, { id: "a5", name: "Utopia Sprawl", attachedTo: "m5" })],
    ["k6", create(GameObjectSchema, { id: "k6", name: "Shock", targets: [{ kind: { case: "objectId", value: "m6" } }] })],
    ["y1", create(GameObjectSchema, { id: "y1", name: "Volcanic Geyser", owner: 0,
      zone: { kind: ZoneKind.GRAVEYARD, owner: 0 } })],
  ]);
  const view: Names = { ...names, object: (id) => seen.get(id) };
  const land = (id: string) => act({ case: "playLand", value: { objectId: id } });
  const cast = (id: string) => act({ case: "castSpell", value: { objectId: id } });
  const tap = (id: string) => act({ case: "activateManaAbility", value: { objectId: id } });
  const options = [act({ case: "passPriority", value: {} }), land("f1"), land("f2"), cast("g1"),
    land("f3"), cast("g2"), cast("s1"), tap("m1"), tap("m2"), cast("y1"), cast("x1"),
    act({ case: "discard", value: { objectId: "f1" } }), act({ case: "discard", value: { objectId: "f2" } }),
    tap("m3"), tap("m4"), tap("m5"), tap("m6"), tap("m1")];
  const shown = shownOptions(view, options, seen.values());
  assert.deepEqual(shown.map((s) => [s.label, s.index, s.indices]), [
    ["Pass priority", 0, [0]],
    ["Play Forest", 1, [1, 2, 4]],
    ["Cast Volcanic Geyser (1 of 2)", 3, [3, 5]], // (the one in the graveyard differs)
    ["Cast Shock (yours)", 6, [6]],
    ["Tap Mountain for mana (1 of 4)", 7, [7, 8]],
    ["Cast Volcanic Geyser (2 of 2)", 9, [9]],
    ["Cast Shock (Bob's)", 10, [10]], // another player's hand (a card they may cast from it)
    ["Discard Forest", 11, [11, 12]],
    // What the player sees tells these apart: tapped, a counter (both said), an Aura, a
    // spell's target.
    ["Tap Mountain for mana (tapped)", 13, [13]],
    ["Tap Mountain for mana (lore)", 14, [14]],
    ["Tap Mountain for mana (2 of 4)", 15, [15]],
    ["Tap Mountain for mana (3 of 4)", 16, [16]],
    // (One object's options twice in the same words are no one option.)
    ["Tap Mountain for mana (4 of 4)", 17, [17]],
  ]);
  // A spectator has no decision: nothing is merged.
  assert.equal(shownOptions({ ...view, viewer: -1 }, options).length, options.length);
  // Two Mountains milled at once, their order in the graveyard chosen (404.3): one option.
  const milled = (id: string) => create(GameObjectSchema, { id, name: "Mountain", cardTypes: ["Land"],
    zone: { kind: ZoneKind.GRAVEYARD, owner: 0 } });
  seen.set("y2", milled("y2"));
  seen.set("y3", milled("y3"));
  assert.deepEqual(shownOptions(view, ["y2", "y3"].map((objectId) =>
    act({ case: "chooseOrder", value: { objectId } }))).map((s) => [s.label, s.indices]), [["Next: Mountain", [0, 1]]]);
});

test("alike creatures to attack or block with are one option, saying how many are alike", () => {
  // Five untapped vanilla Grizzly Bears listed "Attack Bob with Grizzly Bears" five times.
  const bears = (id: string, change: (o: GameObject) => void = () => {}) => {
    const o = create(GameObjectSchema, { id, name: "Grizzly Bears", owner: 0, controller: 0,
      cardTypes: ["Creature"], power: 2, toughness: 2, manaCost: "{1}{G}",
      zone: { kind: ZoneKind.BATTLEFIELD, owner: -1 } });
    change(o);
    return o;
  };
  const goblin = (id: string, name: string) => create(GameObjectSchema, { id, name, owner: 1,
    controller: 1, cardTypes: ["Creature"], tapped: true, attacking: 0,
    zone: { kind: ZoneKind.BATTLEFIELD, owner: -1 } });
  const seen = new Map<string, GameObject>([
    ...["gb1", "gb2", "gb3", "gb4", "gb5"].map((id) => [id, bears(id)] as const),
    ["gb6", bears("gb6", (o) => { o.counters = [create(CounterSchema, { kind: "+1/+1", count: 1 })]; })],
    ["gb7", bears("gb7")],
    ["k7", create(GameObjectSchema, { id: "k7", name: "Shock", targets: [{ kind: { case: "objectId", value: "gb7" } }] })],
    ["g1", goblin("g1", "Goblin Guide")], ["g2", goblin("g2", "Raging Goblin")],
  ]);
  const view: Names = { ...names, object: (id) => seen.get(id) };
  const attack = (objectId: string) => act({ case: "declareAttacker", value: { objectId, defender: 1 } });
  const ids = ["gb1", "gb2", "gb3", "gb4", "gb5", "gb6", "gb7"];
  const show = (options: Action[]) => shownOptions(view, options, seen.values())
    .map((s) => [s.label, s.index, s.indices]);
  assert.deepEqual(show([...ids.map(attack), act({ case: "finishAttackers", value: {} })]), [
    ["Attack Bob with Grizzly Bears (one of 5 alike)", 0, [0, 1, 2, 3, 4]],
    ["Attack Bob with Grizzly Bears (+1/+1)", 5, [5]], // the +1/+1 counter, said
    ["Attack Bob with Grizzly Bears", 6, [6]], // Shock's target
    ["Done: confirm attackers", 7, [7]],
  ]);
  // The last alike one: no "alike".
  assert.deepEqual(show([attack("gb5")]), [["Attack Bob with Grizzly Bears", 0, [0]]]);
  // Blocking: alike blockers of the same attacker are one; the attackers stay apart.
  const block = (objectId: string, attackerId: string) =>
    act({ case: "declareBlocker", value: { objectId, attackerId } });
  const blocks = ["gb1", "gb2", "gb3", "gb6"].flatMap((b) => ["g1", "g2"].map((a) => block(b, a)));
  assert.deepEqual(show([...blocks, act({ case: "finishBlockers", value: {} })]), [
    ["Block Goblin Guide with Grizzly Bears (one of 3 alike)", 0, [0, 2, 4]],
    ["Block Raging Goblin with Grizzly Bears (one of 3 alike)", 1, [1, 3, 5]],
    ["Block Goblin Guide with Grizzly Bears (+1/+1)", 6, [6]],
    ["Block Raging Goblin with Grizzly Bears (+1/+1)", 7, [7]],
    ["Done: confirm blockers", 8, [8]],
  ]);
  // Two attackers that look the same (neither blocked yet): one.
  seen.set("g2", goblin("g2", "Goblin Guide"));
  assert.deepEqual(show(blocks), [
    ["Block Goblin Guide with Grizzly Bears (one of 3 alike)", 0, [0, 1, 2, 3, 4, 5]],
    // (the Bears with a counter are shown on their own, but blocking either alike Goblin
    // Guide is one option: found playing, Niambi with an Aura on it blocking one of two alike
    // Thieves' Guild Enforcers read "(1 of 2)", "(2 of 2)")
    ["Block Goblin Guide with Grizzly Bears (+1/+1)", 6, [6, 7]]]);
  // ... but one of another power than the other: two.
  seen.get("g2")!.power = 1;
  assert.deepEqual(show(blocks).slice(0, 2).map(([label]) => label), [
    "Block Goblin Guide with Grizzly Bears (one of 3 alike) (1 of 2)",
    "Block Goblin Guide with Grizzly Bears (one of 3 alike) (2 of 2)"]);
  // Found playing: three alike Walking Corpses attacking, two Walking Corpses and two
  // summoning sick ones to block with: six options, each "Block Walking Corpse with Walking
  // Corpse (one of 2 alike) (k of 6)". Attackers the player can't tell apart are one; a
  // blocker's summoning sickness is nothing (302.6: it stops only attacks and {T}).
  const corpse = (id: string, controller: number, change: (o: GameObject) => void) => {
    const o = create(GameObjectSchema, { id, name: "Walking Corpse", owner: controller, controller,
      cardTypes: ["Creature"], power: 2, toughness: 2, zone: { kind: ZoneKind.BATTLEFIELD, owner: -1 } });
    change(o);
    return o;
  };
  for (const w of ["w1", "w2", "w3"]) seen.set(w, corpse(w, 1, (o) => { o.attacking = 0; o.tapped = true; }));
  for (const c of ["c1", "c2", "c3", "c4"]) {
    seen.set(c, corpse(c, 0, (o) => { o.summoningSick = c === "c3" || c === "c4"; }));
  }
  const corpseBlocks = ["c1", "c2", "c3", "c4"].flatMap((c) => ["w1", "w2", "w3"].map((w) => block(c, w)));
  assert.deepEqual(show([...corpseBlocks, act({ case: "finishBlockers", value: {} })]).map(([label, index]) => [label, index]), [
    ["Block Walking Corpse with Walking Corpse (one of 4 alike)", 0],
    ["Done: confirm blockers", 12],
  ]);
  // c1 blocks w1: w1 is blocked (a second blocker may join it, 509.1a), the others not.
  seen.get("c1")!.blocking = ["w1"];
  assert.deepEqual(show(corpseBlocks.slice(3)).map(([label, index]) => [label, index]), [
    ["Block Walking Corpse (already blocked) with Walking Corpse (one of 3 alike)", 0],
    ["Block Walking Corpse with Walking Corpse (one of 3 alike)", 1],
  ]);
  // Attacking two planeswalkers of one name: never one option.
  const walker = (id: string) => create(GameObjectSchema, { id, name: "Jace Beleren", owner: 1,
    controller: 1, cardTypes: ["Planeswalker"], zone: { kind: ZoneKind.BATTLEFIELD, owner: -1 } });
  seen.set("p1", walker("p1"));
  seen.set("p2", walker("p2"));
  const atWalker = (objectId: string, planeswalkerId: string) =>
    act({ case: "declareAttacker", value: { objectId, defender: 1, planeswalkerId } });
  assert.deepEqual(show([atWalker("gb1", "p1"), atWalker("gb1", "p2"), atWalker("gb2", "p1"),
    atWalker("gb2", "p2")]).map(([, , indices]) => indices), [[0, 2], [1, 3]]);
});

test("options alike in words but not in power and toughness say them", () => {
  // Found playing: blocking Barrin, Tolarian Archmage with Walking Corpses that were 2/2, 2/4
  // and 0/2 read "Block Barrin, Tolarian Archmage with Walking Corpse (1 of 4)" ... "(4 of 4)".
  const corpse = (id: string, power: number, toughness: number, sick = false) => create(GameObjectSchema, {
    id, name: "Walking Corpse", owner: 0, controller: 0, cardTypes: ["Creature"], power, toughness,
    summoningSick: sick, zone: { kind: ZoneKind.BATTLEFIELD, owner: -1 } });
  const seen = new Map<string, GameObject>([
    ["ba", create(GameObjectSchema, { id: "ba", name: "Barrin, Tolarian Archmage", owner: 1, controller: 1,
      cardTypes: ["Creature"], power: 2, toughness: 2, attacking: 0, tapped: true,
      zone: { kind: ZoneKind.BATTLEFIELD, owner: -1 } })],
    ["c1", corpse("c1", 2, 2)], ["c2", corpse("c2", 2, 4)], ["c3", corpse("c3", 0, 2)],
    ["c4", corpse("c4", 2, 2, true)],
  ]);
  const view: Names = { ...names, object: (id) => seen.get(id) };
  const options = ["c1", "c2", "c3", "c4"].map((objectId) =>
    act({ case: "declareBlocker", value: { objectId, attackerId: "ba" } }));
  assert.deepEqual(shownOptions(view, options, seen.values()).map((s) => [s.label, s.index]), [
    ["Block Barrin, Tolarian Archmage with Walking Corpse (2/2) (one of 2 alike)", 0],
    ["Block Barrin, Tolarian Archmage with Walking Corpse (2/4)", 1],
    ["Block Barrin, Tolarian Archmage with Walking Corpse (0/2)", 2],
  ]);
  // The same strength still numbers them.
  seen.set("c3", corpse("c3", 2, 4));
  // (on its own: an Aura on it)
  seen.set("r3", create(GameObjectSchema, { id: "r3", name: "Rousing Read", attachedTo: "c3" }));
  assert.deepEqual(shownOptions(view, options, seen.values()).map((s) => s.label), [
    "Block Barrin, Tolarian Archmage with Walking Corpse (2/2) (one of 2 alike)",
    "Block Barrin, Tolarian Archmage with Walking Corpse (2/4) (1 of 2)",
    "Block Barrin, Tolarian Archmage with Walking Corpse (2/4) (2 of 2)",
  ]);
});

test("510.1c: the same division of damage among alike blockers in another order is one option", () => {
  // Colossal Dreadmaw blocked by two alike Grizzly Bears listed "deals 1 to Grizzly Bears, 3
  // to Grizzly Bears" and "deals 3 to Grizzly Bears, 1 to Grizzly Bears": the player can't
  // tell which Bears is which. What the player sees keeps them apart: damage, tapped, a
  // counter, a spell's target.
  const bears = (id: string) => create(GameObjectSchema, { id, name: "Grizzly Bears", owner: 1, controller: 1,
    cardTypes: ["Creature"], power: 2, toughness: 2, blocking: ["d1"], zone: { kind: ZoneKind.BATTLEFIELD, owner: -1 } });
  const seen = new Map<string, GameObject>([
    ["d1", create(GameObjectSchema, { id: "d1", name: "Colossal Dreadmaw", owner: 0, controller: 0,
      cardTypes: ["Creature"], power: 4, toughness: 6, attacking: 1, tapped: true,
      zone: { kind: ZoneKind.BATTLEFIELD, owner: -1 } })],
    ["b1", bears("b1")], ["b2", bears("b2")], ["b3", bears("b3")],
  ]);
  seen.get("b2")!.summoningSick = true; // (nothing to a blocker, 302.6)
  const view: Names = { ...names, object: (id) => seen.get(id) };
  const divide = (...amounts: [string, number][]) => act({ case: "assignCombatDamage", value: {
    attackerId: "d1", assignments: amounts.map(([objectId, amount]) => ({ objectId, amount })) } });
  const two = [0, 1, 2, 3, 4].map((a) => divide(["b1", a], ["b2", 4 - a]));
  const show = (options: Action[]) => shownOptions(view, options, seen.values());
  assert.deepEqual(show(two).map((s) => [s.label, s.index, s.indices]), [
    ["Colossal Dreadmaw deals 0 to Grizzly Bears, 4 to Grizzly Bears", 0, [0, 4]],
    ["Colossal Dreadmaw deals 1 to Grizzly Bears, 3 to Grizzly Bears", 1, [1, 3]],
    ["Colossal Dreadmaw deals 2 to Grizzly Bears, 2 to Grizzly Bears", 2, [2]],
  ]);
  // Three alike: every way to divide 4 among three, each multiset once (15 -> 4).
  const three = [0, 1, 2, 3, 4].flatMap((a) => [0, 1, 2, 3, 4].filter((b) => a + b <= 4)
    .map((b) => divide(["b1", a], ["b2", b], ["b3", 4 - a - b])));
  assert.deepEqual(show(three).map((s) => s.index), [0, 1, 2, 6]);
  // A trampler's excess to the player ("" is no blocker) stays apart.
  assert.deepEqual(show([divide(["b1", 2], ["b2", 2], ["", 0]), divide(["b1", 2], ["b2", 0], ["", 2]),
    divide(["b1", 0], ["b2", 2], ["", 2])]).map((s) => s.indices), [[0], [1, 2]]);
  // What the player can see keeps them apart, each in turn on one of the two -- and the words
  // say which Bears gets what.
  const changes: [string, (o: GameObject) => void, string][] = [
    ["damage", (o) => { o.damage = 1; }, "1 to Grizzly Bears (no damage), 3 to Grizzly Bears (1 damage)"],
    ["tapped", (o) => { o.tapped = true; }, "1 to Grizzly Bears (untapped), 3 to Grizzly Bears (tapped)"],
    ["counter", (o) => { Object.assign(o, { power: 3, toughness: 3, counters: [create(CounterSchema, { kind: "+1/+1", count: 1 })] }); },
      "1 to Grizzly Bears (2/2), 3 to Grizzly Bears (3/3)"],
    ["target", () => { seen.set("s2", create(GameObjectSchema, { id: "s2", name: "Shock",
      targets: [{ kind: { case: "objectId", value: "b2" } }] })); }, "1 to Grizzly Bears, 3 to Grizzly Bears"],
  ];
  for (const [what, change, said] of changes) {
    seen.set("b2", bears("b2"));
    seen.delete("s2");
    change(seen.get("b2")!);
    const shown = show(two);
    assert.equal(shown.length, 5, what);
    assert.equal(shown[1]?.label, `Colossal Dreadmaw deals ${said}`, what);
  }
  // ... and alike again when both are so.
  seen.delete("s2");
  for (const id of ["b1", "b2"]) Object.assign(seen.get(id)!, { damage: 1, tapped: true });
  assert.deepEqual(show(two).map((s) => s.index), [0, 1, 2]);
  // A spectator has no decision: nothing is merged.
  assert.equal(shownOptions({ ...view, viewer: -1 }, two, seen.values()).length, 5);
});

test("alike tapped creatures to target are one option, apart from untapped ones and said tapped", () => {
  // Two tapped alike Grizzly Bears were "Target Grizzly Bears (1 of 3)" ... "(3 of 3)" with an
  // untapped one: which was tapped, the words didn't say.
  const bears = (id: string, tapped: boolean) => create(GameObjectSchema, { id, name: "Grizzly Bears", owner: 1,
    controller: 1, cardTypes: ["Creature"], power: 2, toughness: 2, tapped, zone: { kind: ZoneKind.BATTLEFIELD, owner: -1 } });
  const seen = new Map<string, GameObject>([
    ["u1", bears("u1", false)], ["u2", bears("u2", false)], ["t1", bears("t1", true)], ["t2", bears("t2", true)],
    ["t3", bears("t3", true)],
  ]);
  Object.assign(seen.get("t3")!, { power: 3, toughness: 3, counters: [create(CounterSchema, { kind: "+1/+1", count: 1 })] });
  const view: Names = { ...names, object: (id) => seen.get(id) };
  const targets = (...ids: string[]) => shownOptions(view, ids.map((value) =>
    act({ case: "chooseTarget", value: { target: { kind: { case: "objectId", value } } } })), seen.values());
  assert.deepEqual(targets("t1", "u1", "t2", "u2", "t3").map((s) => [s.label, s.indices]), [
    ["Target Grizzly Bears (Bob's) (2/2) (tapped)", [0, 2]], ["Target Grizzly Bears (Bob's) (2/2)", [1, 3]],
    ["Target Grizzly Bears (Bob's) (3/3)", [4]],
  ]);
  // Two tapped ones with the same counter are alike; one with damage is not.
  Object.assign(seen.get("t1")!, { power: 3, toughness: 3, counters: [create(CounterSchema, { kind: "+1/+1", count: 1 })] });
  assert.deepEqual(targets("t1", "t3", "t2").map((s) => s.indices), [[0, 1], [2]]);
  seen.get("t1")!.damage = 1;
  assert.deepEqual(targets("t1", "t3").map((s) => [s.label, s.indices]), [
    ["Target Grizzly Bears (Bob's) (1 damage, +1/+1)", [0]], ["Target Grizzly Bears (Bob's) (+1/+1)", [1]]]);
  // An Aura on one keeps it on its own.
  seen.set("a1", create(GameObjectSchema, { id: "a1", name: "Pacifism", attachedTo: "u2" }));
  assert.deepEqual(targets("u1", "u2").map((s) => s.indices), [[0], [1]]);
});

test("601.2c: a target's options list the opponents first, then theirs, then you, then yours", () => {
  // By seat, seat 1's "Target you" was key 1: a player pressing 1 to hit the opponent
  // shocked themself.
  const target = (kind: { case: "player"; value: number } | { case: "objectId"; value: string }) =>
    act({ case: "chooseTarget", value: { target: { kind } } });
  const options = [target({ case: "player", value: 0 }), target({ case: "player", value: 1 }),
    act({ case: "finishTargets", value: {} }), target({ case: "objectId", value: "o0" }),
    target({ case: "objectId", value: "o1" })];
  assert.deepEqual(shownOptions(names, options).map((s) => [s.label, s.index]), [
    ["Target Bob", 1], ["Target Burlfist Oak (Bob's)", 4],
    ["No more targets", 2], // (in its place among the targets)
    ["Target you", 0], ["Target Burlfist Oak (yours)", 3]]);
  // Seen from Bob's seat, the server's order already is.
  assert.deepEqual(shownOptions({ ...names, viewer: 1 }, options).map((s) => s.index), [0, 3, 2, 1, 4]);
});

test("mana symbols have words", () => {
  assert.deepEqual(manaSymbols("{2}{W/U}{R}"), ["{2}", "{W/U}", "{R}"]);
  assert.equal(manaSymbolWords("{2}"), "2 generic mana");
  assert.equal(manaSymbolWords("{W/U}"), "white or blue mana");
  assert.equal(manaSymbolWords("{T}"), "tap");
});

test("delayed spectator tiers read as what they show and how far behind", () => {
  const tier = (init: MessageInitShape<typeof SpectatorTierSchema>) => create(SpectatorTierSchema, init);
  assert.equal(tierText(tier({ kind: TierKind.OMNISCIENT, delaySeconds: 120 }), []), "every hand, 120 s behind");
  assert.equal(tierText(tier({ kind: TierKind.PLAYER, seat: 1, delayTurns: 2 }), ["Ann", "Bob"]),
    "Bob's view, 2 turns behind");
  assert.equal(tierText(tier({ kind: TierKind.PUBLIC, delaySeconds: 30, delayTurns: 1 }), []),
    "the public view, 30 s and 1 turn behind");
  assert.equal(tierText(tier({ kind: 99 as TierKind, delaySeconds: 5 }), []), "a delayed view, 5 s behind");
});

test("a room's players are told which tiers show hidden cards, and to whom", () => {
  const tier = (init: MessageInitShape<typeof SpectatorTierSchema>) => create(SpectatorTierSchema, init);
  const tiers = [tier({ kind: TierKind.PUBLIC, delaySeconds: 30, invite: true }),
    tier({ kind: TierKind.OMNISCIENT, delaySeconds: 120, accounts: ["Caster#0001"], invite: true }),
    tier({ kind: TierKind.PLAYER, seat: 0, delaySeconds: 60, accounts: ["Coach"] })];
  assert.equal(hiddenTiersText(tiers, ["Ann", "Bob"]), "This room shows hidden cards to watchers "
    + "the host chose: every hand, 120 s behind (to Caster#0001, anyone with the invite code); "
    + "Ann's view, 60 s behind (to Coach).");
  assert.equal(hiddenTiersText(tiers.slice(0, 1), []), "");
});

test("a land played, a creature that died and a card cast read so (305.1, 700.4, 601.2a)", () => {
  const moved = (init: Record<string, unknown>) => eventText(names,
    create(GameEventSchema, { kind: { case: "zoneChange", value: init } }));
  objects.set("f9", create(GameObjectSchema, { id: "f9", name: "Forest", cardTypes: ["Land"], controller: 0 }));
  objects.set("c9", create(GameObjectSchema, { id: "c9", name: "Grizzly Bears", cardTypes: ["Creature"], controller: 1 }));
  assert.equal(moved({ owner: 0, fromZone: ZoneKind.HAND, toZone: ZoneKind.BATTLEFIELD, oldId: "h", newId: "f9",
    name: "Forest" }), "you played Forest");
  assert.equal(moved({ owner: 1, fromZone: ZoneKind.BATTLEFIELD, toZone: ZoneKind.GRAVEYARD, oldId: "c9",
    name: "Grizzly Bears" }), "Bob's Grizzly Bears died");
  assert.equal(moved({ owner: 0, fromZone: ZoneKind.HAND, toZone: ZoneKind.STACK, oldId: "h", newId: "s",
    name: "Shock" }), null);
  assert.equal(moved({ owner: 0, fromZone: ZoneKind.BATTLEFIELD, toZone: ZoneKind.GRAVEYARD, oldId: "f9",
    name: "Forest" }), "your Forest moved from the battlefield to your graveyard");
  // A discard (701.9a), a permanent spell resolving (608.3), exile, a bounce.
  assert.equal(moved({ owner: 1, fromZone: ZoneKind.HAND, toZone: ZoneKind.GRAVEYARD, newId: "g7",
    name: "Ghostly Pilferer" }), "Bob discarded Ghostly Pilferer");
  assert.equal(moved({ owner: 1, fromZone: ZoneKind.STACK, toZone: ZoneKind.BATTLEFIELD, oldId: "s", newId: "c9",
    name: "Grizzly Bears" }), "Bob's Grizzly Bears entered the battlefield");
  assert.equal(moved({ owner: 1, fromZone: ZoneKind.GRAVEYARD, toZone: ZoneKind.EXILE, oldId: "g7", newId: "e7",
    name: "Ghostly Pilferer" }), "Bob's Ghostly Pilferer was exiled from Bob's graveyard");
  // 406.3: "from the battlefield" (it read "was exiled from battlefield").
  assert.equal(moved({ owner: 1, fromZone: ZoneKind.BATTLEFIELD, toZone: ZoneKind.EXILE, oldId: "c9", newId: "e8",
    name: "Grizzly Bears" }), "Bob's Grizzly Bears was exiled from the battlefield");
  assert.equal(moved({ owner: 1, fromZone: ZoneKind.BATTLEFIELD, toZone: ZoneKind.HAND, oldId: "c9",
    name: "Grizzly Bears" }), "Bob's Grizzly Bears returned to its owner's hand");
  // From exile, not "from the exile" (a new player's round).
  assert.equal(moved({ owner: 1, fromZone: ZoneKind.EXILE, toZone: ZoneKind.HAND, oldId: "e7", newId: "h9",
    name: "Ghostly Pilferer" }), "Bob's Ghostly Pilferer moved from exile to Bob's hand");
  // A cast taken back (cancelCast, 733.1): not "moved from stack to hand".
  assert.equal(moved({ owner: 0, fromZone: ZoneKind.STACK, toZone: ZoneKind.HAND, oldId: "s", newId: "h2",
    name: "Shock" }), "your Shock returned to your hand from the stack");
  // A mulligan's hand shuffled away, a card put on the bottom (103.5): no name, whoever's it
  // is (a mulligan is one line, counted: "(×7)"), as the terminal says it.
  assert.equal(moved({ owner: 0, fromZone: ZoneKind.HAND, toZone: ZoneKind.LIBRARY, oldId: "h", newId: "l",
    name: "Forest" }), "you put a card from your hand into your library");
  assert.equal(moved({ owner: 1, fromZone: ZoneKind.HAND, toZone: ZoneKind.LIBRARY, oldId: "h" }),
    "Bob put a card from their hand into their library");
  objects.delete("f9");
  objects.delete("c9");
});

test("601.2c, 602.2i, 603.3: a spell's targets and abilities put on the stack are told", () => {
  const told = (kind: MessageInitShape<typeof GameEventSchema>["kind"]) => eventText(names,
    create(GameEventSchema, { kind }));
  assert.equal(told({ case: "spellCast", value: { objectId: "s", controller: 1, name: "Shock",
    targets: [{ kind: { case: "player", value: 0 } }] } }), "Bob cast Shock targeting you");
  assert.equal(told({ case: "spellCast", value: { objectId: "s", controller: 0, name: "Frost Breath",
    targets: [{ kind: { case: "objectId", value: "b1" } }, { kind: { case: "objectId", value: "w1" } }] } }),
  "you cast Frost Breath targeting Grizzly Bears and Wall of Wood");
  assert.equal(told({ case: "ability", value: { objectId: "a", controller: 1, sourceId: "p",
    name: "Ghostly Pilferer", text: "Discard a card: Ghostly Pilferer can't be blocked this turn." } }),
  "Bob activated Ghostly Pilferer (Discard a card: Ghostly Pilferer can't be blocked this turn.)");
  assert.equal(told({ case: "ability", value: { objectId: "a", controller: 1, name: "Heartfire Immolator",
    text: "{R}, Sacrifice Heartfire Immolator: It deals damage equal to its power to target creature or planeswalker.",
    targets: [{ kind: { case: "objectId", value: "b1" } }] } }),
  "Bob activated Heartfire Immolator ({R}, Sacrifice Heartfire Immolator: It deals damage equal...) targeting Grizzly Bears");
  assert.equal(told({ case: "ability", value: { objectId: "a", controller: 0, name: "Pitchburn Devils",
    text: "When Pitchburn Devils dies, it deals 3 damage to any target.", triggered: true,
    targets: [{ kind: { case: "player", value: 1 } }] } }),
  "your Pitchburn Devils triggered (When Pitchburn Devils dies, it deals 3 damage to any target.) targeting Bob");
});

test("119.3: life gained or lost reads as such", () => {
  const life = (seat: number, amount: number) => eventText(names,
    create(GameEventSchema, { kind: { case: "lifeChanged", value: { seat, amount } } }));
  assert.equal(life(1, 4), "Bob gained 4 life");
  assert.equal(life(0, -3), "you lost 3 life");
});

test("701.23: a search says whose library from the viewer's side", () => {
  const told = (viewer: number, seat: number, owner: number) => eventText({ ...names, viewer },
    create(GameEventSchema, { kind: { case: "librarySearched", value: { seat, owner, found: 1 } } }));
  assert.equal(told(0, 0, 0), "you searched your library and found a card");
  assert.equal(told(0, 1, 1), "Bob searched their library and found a card");
  assert.equal(told(0, 1, 0), "Bob searched your library and found a card");
  assert.equal(told(1, 1, 0), "you searched Ann's library and found a card");
  assert.equal(told(-1, 0, 1), "Ann searched Bob's library and found a card");
});

test("a loss of one's own says you (a 4-player game's loser read their own name)", () => {
  const lost = (seat: number, reason: string) => eventText(names,
    create(GameEventSchema, { kind: { case: "playerLost", value: { seat, reason } } }));
  assert.equal(lost(0, "Ann conceded"), "you lost the game (you conceded)");
  assert.equal(lost(1, "Bob conceded"), "Bob lost the game (Bob conceded)");
});

test("rules 104.3a, 704.5a: a reason reads in the viewer's words, without an older server's rule numbers", () => {
  // It read "you lost the game (Ann#0001 conceded)": the viewer's own name, third person.
  const lost = (seat: number, reason: string) => eventText(names,
    create(GameEventSchema, { kind: { case: "playerLost", value: { seat, reason } } }));
  assert.equal(lost(0, "Ann has 0 or less life"), "you lost the game (you have 0 or less life)");
  assert.equal(lost(0, "Ann ran out of time, which concedes the game"),
    "you lost the game (you ran out of time, which concedes the game)");
  assert.equal(lost(1, "Bob has 0 or less life"), "Bob lost the game (Bob has 0 or less life)");
  // 104.3e: the reason says it whole; no reason: only that they lost.
  assert.equal(lost(1, "Bob lost the game to Door to Nothingness"), "Bob lost the game to Door to Nothingness");
  assert.equal(lost(0, "Ann lost the game to Door to Nothingness"), "you lost the game to Door to Nothingness");
  assert.equal(lost(1, ""), "Bob lost the game");
  // An older server's reasons: the rule numbers are not read to the player.
  assert.equal(lost(0, "Ann conceded (104.3a)"), "you lost the game (you conceded)");
  assert.equal(reasonWords(names, "Ann has 0 or less life (rule 704.5a)"), "you have 0 or less life");
  assert.equal(reasonWords(names, "Ann's library was empty (704.5b)"), "your library was empty");
  assert.equal(reasonWords(names, "Ann was dealt 21 combat damage by Cy's commander (704.5v)"),
    "you were dealt 21 combat damage by Cy's commander");
  // A name that merely begins like the viewer's is not theirs; a spectator has no "you".
  assert.equal(reasonWords(names, "Annie conceded"), "Annie conceded");
  assert.equal(reasonWords({ ...names, viewer: -1 }, "Ann conceded"), "Ann conceded");
  // The game's end: won (why), or a draw whose reason's "draw: " the sentence says already.
  const ended = (winners: number[], reason: string) => eventText(names,
    create(GameEventSchema, { kind: { case: "gameEnded", value: { winners, reason } } }));
  assert.equal(ended([1], "Ann conceded"), "Bob won (you conceded)");
  assert.equal(ended([0], "Bob conceded (104.3a)"), "you won (Bob conceded)");
  assert.equal(ended([], "draw: Ann has 0 or less life"), "The game is a draw (you have 0 or less life)");
  assert.equal(ended([], ""), "The game is a draw");
  assert.equal(sentence(resultReason(names, [], "draw: Bob has 0 or less life (704.5a)")),
    "Bob has 0 or less life");
  // Each player's result (the game-over panel, a lost player's badge).
  const result = (seat: number, why: string) =>
    resultWords(names, { seat, outcome: "lost", why: reasonWords(names, why) });
  assert.equal(result(0, "Ann conceded"), "you lost: you conceded");
  assert.equal(result(1, "Bob lost the game to Door to Nothingness"), "Bob lost the game to Door to Nothingness");
  assert.equal(lostWords("Bob", "Bob lost the game to Door to Nothingness"), "lost the game to Door to Nothingness");
  assert.equal(lostWords("you", "you conceded"), "lost: you conceded");
  assert.equal(lostWords("you", ""), "lost");
});

test("a room's time bank reads in minutes, or seconds under a minute", () => {
  assert.deepEqual([5, 59, 60, 1800, 86400].map(clockText), ["5 s", "59 s", "1 min", "30 min", "1440 min"]);
});

test("rules 700.13, 700.14: crimes and expending are told only when a card in view cares", () => {
  const crime = create(GameEventSchema, { kind: { case: "crime", value: { seat: 1 } } });
  const expend = create(GameEventSchema, { kind: { case: "expend", value: { seat: 0, amount: 4 } } });
  assert.equal(eventText(names, crime), null);
  assert.equal(eventText(names, expend), null);
  const caring: Names = { ...names, mentions: (word) => word === "crime" };
  assert.equal(eventText(caring, crime), "Bob committed a crime");
  assert.equal(eventText(caring, expend), null);
  assert.equal(eventText({ ...names, mentions: () => true }, expend), "you expended 4");
});

test("rule 508.1: the attack says what each attacker attacks", () => {
  const attackers = new Map<string, GameObject>([
    ["a1", create(GameObjectSchema, { id: "a1", name: "Grizzly Bears", attacking: 0 })],
    ["a2", create(GameObjectSchema, { id: "a2", name: "Wall of Wood", attacking: 1 })],
    ["a3", create(GameObjectSchema, { id: "a3", name: "Goblin", attacking: 1, attackingPlaneswalker: "w1" })],
    ["w1", create(GameObjectSchema, { id: "w1", name: "Liliana" })]]);
  const seen: Names = { ...names, object: (id) => attackers.get(id) };
  const declared = (attackerIds: string[]) => eventText(seen,
    create(GameEventSchema, { kind: { case: "attackersDeclared", value: { attackerIds } } }));
  assert.equal(declared(["a1", "a2", "a3"]),
    "Attacking you: Grizzly Bears; Attacking Bob: Wall of Wood; Attacking Liliana: Goblin");
  assert.equal(declared([]), "No attackers");
  // The event says it itself: a page loaded after combat (nothing attacks any more) said
  // only "Attacking: ...".
  const after: Names = { ...names, object: (id) => id === "w1" ? attackers.get(id)
    : create(GameObjectSchema, { id, name: attackers.get(id)?.name ?? "" }) };
  assert.equal(eventText(after, create(GameEventSchema, { kind: { case: "attackersDeclared", value: {
    attackerIds: ["a1", "a2", "a3"], defenders: [0, 1, 1], planeswalkerIds: ["", "", "w1"] } } })),
  "Attacking you: Grizzly Bears; Attacking Bob: Wall of Wood; Attacking Liliana: Goblin");
});

test("rule 111.4: a token whose name says Token isn't a 'Token token'", () => {
  assert.equal(tokenWords("Treasure Token"), "a Treasure Token");
  assert.equal(tokenWords("Knight"), "a Knight token");
  assert.equal(tokenWords(""), "a token");
  assert.equal(tokenWords("Angel Token"), "an Angel Token");
  assert.equal(tokenWords("Elf Warrior"), "an Elf Warrior token");
});

test("a creature with a plain mana ability is a plain mana source; a Treasure is not", () => {
  const source = (init: Record<string, unknown>) => create(GameObjectSchema, init);
  assert.ok(plainManaSource(source({ name: "Forest", cardTypes: ["Land"], supertypes: ["Basic"] })));
  assert.ok(plainManaSource(source({ name: "Llanowar Visionary", cardTypes: ["Creature"],
    rulesText: "When Llanowar Visionary enters the battlefield, draw a card.\n{T}: Add {G}." })));
  assert.ok(!plainManaSource(source({ name: "Treasure", cardTypes: ["Artifact"],
    rulesText: "{T}, Sacrifice this artifact: Add one mana of any color." })));
  assert.ok(!plainManaSource(source({ name: "Vanilla", cardTypes: ["Creature"] })));
  assert.ok(!plainManaSource(undefined));
});

test("a match's waiting page says what it is; a single game's says nothing more", () => {
  assert.equal(matchText(1), "");
  assert.equal(matchText(3), "A best-of-3 match: the first to win 2 games wins it; between "
    + "games each player may sideboard.");
  assert.match(matchText(5), /first to win 3 games/);
});

test("whose turn it is means something only while a turn is played", () => {
  const header = (fields: MessageInitShape<typeof GameHeaderSchema>) => create(GameHeaderSchema, fields);
  // Game 2 of a match: its first player being chosen, the active seat still game 1's.
  assert.equal(turnBeingPlayed(header({ phase: GamePhase.CHOOSE_STARTING_PLAYER, activeSeat: 1 })), false);
  assert.equal(turnBeingPlayed(header({ phase: GamePhase.MULLIGANS, turn: 0 })), false);
  assert.equal(turnBeingPlayed(header({ phase: GamePhase.PLAYING, turn: 1 })), true);
  assert.equal(turnBeingPlayed(header({ phase: GamePhase.PLAYING, turn: 7,
    result: { winners: [0], reason: "conceded" } })), false);
  assert.equal(turnBeingPlayed(undefined), false);
});

test("who chose to play first and each mulligan read so (103.1, 103.5)", () => {
  const told = (kind: MessageInitShape<typeof GameEventSchema>["kind"]) =>
    eventText(names, create(GameEventSchema, { kind }));
  assert.equal(told({ case: "startingPlayerChosen", value: { chooser: 1, starting: 1 } }),
    "Bob chose to play first");
  assert.equal(told({ case: "startingPlayerChosen", value: { chooser: 1, starting: 0 } }),
    "Bob chose you to play first");
  assert.equal(told({ case: "mulliganTaken", value: { seat: 1, number: 2 } }),
    "Bob took a mulligan (2nd)");
  assert.equal(told({ case: "mulliganTaken", value: { seat: 0, number: 1 } }), "you took a mulligan");
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal),
    ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]);
});

test("the log and the stack say whose a creature is when another player has one of the same name", () => {
  const mag = (id: string, controller: number) => create(GameObjectSchema, { id, name: "Chandra's Magmutt",
    controller, zone: { kind: ZoneKind.BATTLEFIELD, owner: -1 }, cardTypes: ["Creature"] });
  const seen = new Map([["m0", mag("m0", 0)], ["m1", mag("m1", 1)], ["b1", create(GameObjectSchema,
    { id: "b1", name: "Grizzly Bears", controller: 1, zone: { kind: ZoneKind.BATTLEFIELD, owner: -1 } })]]);
  const view: Names = { ...names, object: (id) => seen.get(id), objects: () => seen.values() };
  const ev = (kind: MessageInitShape<typeof GameEventSchema>["kind"]) => eventText(view, create(GameEventSchema, { kind }));
  assert.equal(ev({ case: "damage", value: { sourceId: "m1", recipient: { case: "objectId", value: "m0" }, amount: 2 } }),
    "Chandra's Magmutt (Bob's) dealt 2 damage to Chandra's Magmutt (yours)");
  assert.equal(ev({ case: "blockersDeclared", value: { blocks: [{ blockerId: "m0", attackerId: "m1" }] } }),
    "Blocks: Chandra's Magmutt (yours) blocks Chandra's Magmutt (Bob's)");
  // No other of its name: just the name.
  assert.equal(ev({ case: "damage", value: { sourceId: "b1", recipient: { case: "player", value: 0 }, amount: 2 } }),
    "Grizzly Bears dealt 2 damage to you");
  assert.equal(targetText(view, create(TargetSchema, { kind: { case: "objectId", value: "m1" } }), true),
    "Chandra's Magmutt (Bob's)");
});

test("103.5: during the mulligans a card put on the bottom says so; a mulligan's hand shuffled away doesn't", () => {
  const ev = (kind: MessageInitShape<typeof GameEventSchema>["kind"]) => create(GameEventSchema, { kind });
  const back = ev({ case: "zoneChange", value: { owner: 1, fromZone: ZoneKind.HAND, toZone: ZoneKind.LIBRARY } });
  const mine = ev({ case: "zoneChange", value: { owner: 0, fromZone: ZoneKind.HAND, toZone: ZoneKind.LIBRARY } });
  // A mulligan (its hand shuffled into the library, a new one drawn), then a card put on the bottom.
  assert.deepEqual(eventLines(names, [ev({ case: "mulliganTaken", value: { seat: 1, number: 1 } }), back, back,
    ev({ case: "cardDrawn", value: { seat: 1 } }), back], true), [
    "Bob took a mulligan", "Bob put a card from their hand into their library",
    "Bob put a card from their hand into their library", "Bob drew a card",
    "Bob put a card on the bottom of their library"]);
  // A delta of its own (PutOnBottom): it read "You put a card from your hand into your library".
  assert.deepEqual(eventLines(names, [mine], true), ["you put a card on the bottom of your library"]);
  // In the game ("put two cards from your hand on top"): where is not said.
  assert.deepEqual(eventLines(names, [mine], false), ["you put a card from your hand into your library"]);
});

test("an ability's text in the log: a keyword without its reminder text, {T} said Tap", () => {
  // It read "(Prowess (Whenever you cast a noncreature spell, this crea...)".
  assert.equal(clipped("Prowess (Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn.)"),
    "Prowess");
  assert.equal(clipped("{T}: Prodigal Pyromancer deals 1 damage to any target."),
    "Tap: Prodigal Pyromancer deals 1 damage to any target.");
  assert.equal(eventText(names, create(GameEventSchema, { kind: { case: "ability", value: {
    controller: 0, name: "Monastery Swiftspear", triggered: true,
    text: "Prowess (Whenever you cast a noncreature spell, this creature gets +1/+1 until end of turn.)" } } })),
  "your Monastery Swiftspear triggered (Prowess)");
});

test("601.2h: a cost the pool pays exactly, in one way only, is paid without asking which mana", () => {
  const pay = (...options: MessageInitShape<typeof ActionSchema>["kind"][]) => create(DecisionSchema, {
    kind: DecisionKind.PAY_MANA, options: options.map((kind) => ({ kind })) });
  const pool = (init: MessageInitShape<typeof ManaPoolSchema>) => create(ManaPoolSchema, init);
  const tap = { case: "activateManaAbility" as const, value: { objectId: "i1", mana: "U" } };
  const auto = { case: "payAutomatically" as const, value: {} };
  // A Mountain tapped for a {R} cost: "Pay {R}" is the only way, and spends the whole pool.
  assert.equal(poolPaysExactly(pay(auto, tap, { case: "payMana", value: { mana: "R" } }), pool({ red: 1 })), 2);
  assert.equal(poolPaysExactly(pay({ case: "payMana", value: { mana: "RG" } }), pool({ red: 1, green: 1 })), 0);
  // More mana than the cost, two ways to pay, nothing in the pool: the player chooses.
  assert.equal(poolPaysExactly(pay({ case: "payMana", value: { mana: "R" } }), pool({ red: 2 })), -1);
  assert.equal(poolPaysExactly(pay({ case: "payMana", value: { mana: "RG" } }, { case: "payMana", value: { mana: "RR" } }),
    pool({ red: 2, green: 1 })), -1);
  assert.equal(poolPaysExactly(pay(auto, tap), pool({})), -1);
  // An "unless" cost may be declined (118.12a): paying is a choice.
  assert.equal(poolPaysExactly(pay({ case: "payMana", value: { mana: "R" } }, { case: "decline", value: {} }),
    pool({ red: 1 })), -1);
  // Not a payment.
  assert.equal(poolPaysExactly(create(DecisionSchema, { kind: DecisionKind.PRIORITY,
    options: [{ kind: { case: "payMana", value: { mana: "R" } } }] }), pool({ red: 1 })), -1);
});

test("the viewer's own cards moving say 'your', as the damage lines say '(yours)'", () => {
  const moved = (init: Record<string, unknown>, who: Names = names) => eventText(who,
    create(GameEventSchema, { kind: { case: "zoneChange", value: init } }));
  const entered = { owner: 0, fromZone: ZoneKind.STACK, toZone: ZoneKind.BATTLEFIELD, oldId: "s",
    newId: "lv", name: "Llanowar Visionary" };
  // It read "Llanowar Visionary (Ann's) entered the battlefield" in Ann's own log.
  assert.equal(moved(entered), "your Llanowar Visionary entered the battlefield");
  assert.equal(moved(entered, { ...names, viewer: -1 }), "Ann's Llanowar Visionary entered the battlefield");
  assert.equal(moved({ owner: 0, fromZone: ZoneKind.BATTLEFIELD, toZone: ZoneKind.EXILE, oldId: "lv",
    newId: "e", name: "Llanowar Visionary" }), "your Llanowar Visionary was exiled from the battlefield");
  assert.equal(moved({ owner: 0, fromZone: ZoneKind.BATTLEFIELD, toZone: ZoneKind.HAND, oldId: "lv",
    name: "Llanowar Visionary" }), "your Llanowar Visionary returned to your hand");
  assert.equal(possessive(names, 0), "your");
  assert.equal(possessive(names, 1), "Bob's");
});

test("a creature's power and toughness changed, in words: now, or back again once a pump ends", () => {
  const at = (power: number, toughness: number, controller = 0, zone = ZoneKind.BATTLEFIELD) =>
    create(GameObjectSchema, { id: "p", name: "Pridemalkin", controller, cardTypes: ["Creature"],
      power, toughness, zone: { kind: zone, owner: -1 } });
  assert.equal(strengthChange(names, at(3, 2), at(7, 6)), "your Pridemalkin is now 7/6 (was 3/2)");
  assert.equal(strengthChange(names, at(3, 2, 1), at(4, 3, 1)), "Bob's Pridemalkin is now 4/3 (was 3/2)");
  assert.equal(strengthChange(names, at(7, 6), at(3, 2), true), "your Pridemalkin is 3/2 again (the +4/+4 ended)");
  assert.equal(strengthChange(names, at(3, 2), at(2, 2)), "your Pridemalkin is now 2/2 (was 3/2)");
  assert.equal(strengthChange(names, at(3, 2), at(3, 2)), null);
  assert.equal(strengthChange(names, undefined, at(3, 2)), null);
  assert.equal(strengthChange(names, at(3, 2, 0, ZoneKind.STACK), at(7, 6)), null);
});

test("608.2n: a resolving spell's effects end where it leaves the stack, the delta's last such move", () => {
  const moved = (fromZone: ZoneKind, toZone: ZoneKind) => create(GameEventSchema,
    { kind: { case: "zoneChange", value: { owner: 0, fromZone, toZone, name: "X" } } });
  const drew = create(GameEventSchema, { kind: { case: "cardDrawn", value: { seat: 0 } } });
  const { STACK, GRAVEYARD, EXILE, BATTLEFIELD, HAND } = ZoneKind;
  // A counterspell's target leaves first (701.6a), the counterspell itself last.
  assert.equal(resolutionEnd([moved(STACK, GRAVEYARD), drew, moved(STACK, GRAVEYARD), moved(BATTLEFIELD, GRAVEYARD)]), 2);
  assert.equal(resolutionEnd([moved(STACK, EXILE)]), 0);
  // A permanent spell entering is its resolving (608.3); a cast taken back resolves nothing (733.1).
  assert.equal(resolutionEnd([moved(STACK, BATTLEFIELD), drew]), -1);
  assert.equal(resolutionEnd([moved(STACK, HAND)]), -1);
  assert.equal(resolutionEnd([]), -1);
});

test("a log line begins with a capital, a player's name as written", () => {
  assert.equal(logSentence("you drew a card", ["Ann", "bob"]), "You drew a card");
  assert.equal(logSentence("your Pridemalkin is now 7/6 (+4/+4)", ["Ann", "bob"]), "Your Pridemalkin is now 7/6 (+4/+4)");
  assert.equal(logSentence("bob cast Shock", ["Ann", "bob"]), "bob cast Shock");
  assert.equal(logSentence("bob's Grizzly Bears died", ["Ann", "bob"]), "bob's Grizzly Bears died");
  assert.equal(logSentence("— Turn 2: your turn —", []), "— Turn 2: your turn —");
});

test("leaving a game or a match is said without brackets in brackets", () => {
  // The server's words: "Bob left the match (and conceded it)", "Bob left the game, which
  // concedes it"; the match line read "(Bob left the match (and conceded it))".
  assert.equal(reasonWords(names, "Bob left the match (and conceded it)"), "Bob conceded the match by leaving it");
  assert.equal(reasonWords(names, "Ann left the match (and conceded it)"), "you conceded the match by leaving it");
  assert.equal(reasonWords(names, "Bob left the game, which concedes it"), "Bob conceded by leaving the game");
  assert.equal(resultText(names, [0], "Bob left the game, which concedes it"), "you won (Bob conceded by leaving the game)");
  assert.equal(lostWords("Bob", reasonWords(names, "Bob left the game, which concedes it")), "lost: Bob conceded by leaving the game");
});

test("a deck problem naming no line reads as a sentence", () => {
  // It read "Deck at most 4 copies of 'Heartfire Immolator' in a constructed deck ..., got 7".
  assert.equal(problemSentence("at most 4 copies of 'Heartfire Immolator' in a constructed deck and its "
    + "sideboard together, other than basic lands, got 7"), "At most 4 copies of 'Heartfire Immolator' may be "
    + "in a constructed deck and its sideboard together, other than basic lands: yours has 7.");
  assert.equal(problemSentence("a constructed deck has at least 60 cards in its main deck, got 52"),
    "A constructed deck has at least 60 cards in its main deck: yours has 52.");
  assert.equal(problemSentence("a constructed deck has at least 60 cards in its main deck, got 52 -- a limited "
    + "room takes a deck of 40 or more"),
    "A constructed deck has at least 60 cards in its main deck: yours has 52. A limited room takes a deck of 40 or more.");
  assert.equal(problemSentence("'Sure Strike': 3 of the 4 registered missing -- the main deck and sideboard "
    + "together must be exactly the registered cards"), "'Sure Strike': 3 of the 4 registered missing -- the "
    + "main deck and sideboard together must be exactly the registered cards.");
  assert.equal(problemSentence("The deck list is 9 bytes; the server accepts at most 8."),
    "The deck list is 9 bytes; the server accepts at most 8.");
});

test("701.6a: a countered spell is said countered, by what and for want of which payment", () => {
  const ev = (kind: MessageInitShape<typeof GameEventSchema>["kind"]) => create(GameEventSchema, { kind });
  const shock = { objectId: "s1", controller: 0, name: "Shock", byId: "m1", byName: "Miscast", unlessCost: "{3}" };
  const moved = ev({ case: "zoneChange", value: { owner: 0, fromZone: ZoneKind.STACK, toZone: ZoneKind.GRAVEYARD, oldId: "s1", newId: "g1", name: "Shock" } });
  // It read only "your Shock moved from the stack to your graveyard" (a new player's finding).
  assert.deepEqual(eventLines(names, [ev({ case: "countered", value: shock }), moved], false),
    ["Your Shock was countered by Miscast (you couldn't pay {3})", null]);
  assert.equal(eventText(names, ev({ case: "countered", value: { ...shock, declined: true } })),
    "Your Shock was countered by Miscast (you declined to pay {3})");
  assert.equal(eventText(names, ev({ case: "countered", value: { ...shock, controller: 1, unlessCost: "" } })),
    "Bob's Shock was countered by Miscast");
  assert.equal(eventText(names, ev({ case: "countered", value: { objectId: "a1", controller: 1, name: "Pitchburn Devils", ability: true } })),
    "Bob's Pitchburn Devils's ability was countered");
});

test("a trampler's damage past its blockers names whom it goes to (702.19b)", () => {
  const attacker = (attacking: number | undefined, attackingPlaneswalker = "") =>
    create(GameObjectSchema, { id: "t1", name: "Kinetic Augur", controller: attacking === 0 ? 1 : 0,
      attacking, attackingPlaneswalker });
  const pw = create(GameObjectSchema, { id: "pw", name: "Basri Ket", controller: 1 });
  const with_ = (a: GameObject): Names => ({ ...names,
    object: (id) => (id === "t1" ? a : id === "pw" ? pw : objects.get(id)) });
  const assign = act({ case: "assignCombatDamage", value: { attackerId: "t1",
    assignments: [{ objectId: "w1", amount: 1 }, { objectId: "", amount: 5 }] } });
  assert.equal(optionText(with_(attacker(1)), assign), "Kinetic Augur deals 1 to Wall of Wood, 5 to Bob");
  assert.equal(optionText(with_(attacker(0)), assign), "Kinetic Augur deals 1 to Wall of Wood, 5 to you");
  assert.equal(optionText(with_(attacker(1, "pw")), assign), "Kinetic Augur deals 1 to Wall of Wood, 5 to Basri Ket");
  // (The view not saying: as before.)
  assert.equal(optionText(with_(attacker(undefined)), assign),
    "Kinetic Augur deals 1 to Wall of Wood, 5 to the player or planeswalker it attacks");
});

test("601.2h, 510.1c: a step of a payment or a division asked in steps reads as one, never as the whole", () => {
  const names: Names = { viewer: 0, object: (id) => id === "a1" ? create(GameObjectSchema, { id, name: "Craw Wurm" })
    : id === "b1" ? create(GameObjectSchema, { id, name: "Walking Corpse" }) : undefined,
  player: () => "Bob", mentions: () => false };
  const label = (kind: MessageInitShape<typeof ActionSchema>["kind"]) => optionText(names, create(ActionSchema, { kind }));
  assert.equal(label({ case: "payMana", value: { mana: "RRR", types: 4 } }), "Spend {R}{R}{R} (then choose the rest)");
  assert.equal(label({ case: "payMana", value: { mana: "W", types: 2 } }), "Spend no {U} (then choose the rest)");
  assert.equal(label({ case: "payMana", value: { mana: "RRR", types: 0 } }), "Pay {R}{R}{R}");
  assert.equal(label({ case: "assignCombatDamage", value: { attackerId: "a1", partial: true,
    assignments: [{ objectId: "b1", amount: 3 }] } }), "Craw Wurm deals 3 to Walking Corpse (then the rest)");
  assert.equal(label({ case: "assignCombatDamage", value: { attackerId: "a1",
    assignments: [{ objectId: "b1", amount: 3 }] } }), "Craw Wurm deals 3 to Walking Corpse");
  // A step of a payment is never paid for the player as the pool's one exact payment.
  const step = create(DecisionSchema, { kind: DecisionKind.PAY_MANA, options: [
    { kind: { case: "payMana", value: { mana: "RRR", types: 4 } } }] });
  assert.equal(poolPaysExactly(step, create(ManaPoolSchema, { red: 3 })), -1);
});

test("601.2c: each target says whose it is and what it will get (np13), as the terminal says it", () => {
  // Rookie Mistake's two prompts said only "Choose a target -- target creature" and "-- another
  // target creature"; Eliminate's one option didn't say it was the player's own creature.
  const rookie = "Until end of turn, target creature gets +0/+2 and another target creature gets -2/-0.";
  const obj = (id: string, name: string, seat: number, kind: ZoneKind, rulesText = "") => create(GameObjectSchema, {
    id, name, owner: seat, controller: seat, rulesText, zone: { kind, owner: -1 } });
  const shown = (spell: string, text: string, prompt: string, ids: string[]) => {
    const seen = new Map<string, GameObject>([
      ["p1", obj("p1", "Prismite", 1, ZoneKind.BATTLEFIELD)], ["w1", obj("w1", "Wall of Runes", 0, ZoneKind.BATTLEFIELD)],
      ["s1", obj("s1", spell, 0, ZoneKind.STACK, text)]]);
    const options = ids.map((value) => act({ case: "chooseTarget", value: { target: { kind: { case: "objectId", value } } } }));
    const view: Names = { ...names, object: (id) => seen.get(id), objects: () => seen.values(),
      decision: create(DecisionSchema, { kind: DecisionKind.CHOOSE_TARGET, prompt, options }) };
    return shownOptions(view, options, seen.values()).map((s) => s.label);
  };
  assert.deepEqual(shown("Rookie Mistake", rookie, "Rookie Mistake: Choose a target -- target creature.", ["w1", "p1"]),
    ["Target Prismite (Bob's): gets +0/+2", "Target Wall of Runes (yours): gets +0/+2"]);
  assert.deepEqual(shown("Rookie Mistake", rookie, "Rookie Mistake: Choose a target -- another target creature.", ["p1"]),
    ["Target Prismite (Bob's): gets -2/-0"]);
  assert.deepEqual(shown("Eliminate", "Destroy target creature or planeswalker with mana value 3 or less.",
    "Eliminate: Choose a target -- target creature or planeswalker with mana value 3 or less.", ["w1"]),
  ["Target Wall of Runes (yours): destroy it"]);
  assert.deepEqual(shown("Necromentia", "Search target opponent's graveyard.",
    "Necromentia: Choose a target -- target creature.", ["p1"]), ["Target Prismite (Bob's)"]);
  // With no decision (a spectator's view): whose only.
  assert.equal(targetPurpose(names, ""), "");
});

test("701.17a: a mill is one line naming the cards, not a line a card; the rest of what was looked at is told apart", () => {
  const ev = (kind: MessageInitShape<typeof GameEventSchema>["kind"]) => create(GameEventSchema, { kind });
  const milled = (owner: number, name: string) =>
    ev({ case: "zoneChange", value: { owner, fromZone: ZoneKind.LIBRARY, toZone: ZoneKind.GRAVEYARD, name } });
  // It read "Bob's Mountain moved from their library to their graveyard", a line a card.
  assert.deepEqual(eventLines(names, [milled(1, "Mountain"), milled(1, "Mountain"), milled(1, "Swamp")], false),
    ["Bob milled 3 cards: Mountain, Mountain, Swamp", null, null]);
  assert.deepEqual(eventLines(names, [milled(0, "Plains")], false), ["you milled Plains"]);
  // Each player's run its own line.
  assert.deepEqual(eventLines(names, [milled(0, "Plains"), milled(1, "Shock"), milled(1, "Forest")], false),
    ["you milled Plains", "Bob milled 2 cards: Shock, Forest", null]);
  // Beside a card picked from the library (more put into a hand than drawn), the rest wasn't milled.
  const picked = ev({ case: "zoneChange", value: { owner: 1, fromZone: ZoneKind.LIBRARY, toZone: ZoneKind.HAND } });
  assert.deepEqual(eventLines(names, [picked, milled(1, "Shock"), milled(1, "Forest")], false),
    [null, "Bob put 2 cards from their library into their graveyard: Shock, Forest", null]);
  assert.deepEqual(eventLines(names, [picked, milled(0, "Shock")], false),
    [null, "you put Shock from your library into your graveyard"]);
  // A draw beside it: the card into the hand was the draw, the mill a mill.
  assert.deepEqual(eventLines(names, [ev({ case: "cardDrawn", value: { seat: 1 } }), picked, milled(1, "Shock")], false),
    ["Bob drew a card", null, "Bob milled Shock"]);
});
