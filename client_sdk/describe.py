"""Plain words for what the protocol sends: decision options, events, steps, zones, mana.

The same wording as the browser client's ``web/src/describe.ts``. Objects are named from a
:class:`Names` lookup that remembers every object seen, because an event may name an object
that left the view in the same delta (rule 400.7 gives a moved card a new id).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Container, Iterable, Mapping, Sequence
from typing import Protocol

from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb


class Names(Protocol):
    """What the describers need to know about the current view."""

    @property
    def viewer(self) -> int:
        """The viewer's seat (-1 for a spectator)."""

    def object(self, object_id: str) -> pb.GameObject | None:
        """The object with this id as last seen (None: never seen)."""

    def player(self, seat: int) -> str:
        """A seat's player name."""

    def mentions(self, word: str) -> bool:
        """Whether the text of a card in the view has ``word`` (lower case) in it."""


def seat_name(names: Names, seat: int) -> str:
    """``you`` for the viewer's own seat, else the player's name."""
    return "you" if seat == names.viewer else names.player(seat)


def waiting_trigger(triggers: Iterable[pb.WaitingTrigger], trigger_id: str
                    ) -> pb.GameObject | None:
    """The triggered ability ``trigger_id`` among ``triggers`` (the view's, waiting to be put
    on the stack, 603.3) as an object a describer can name: "Heartfire Immolator's trigger",
    its controller's, its text its rules text. None: no such trigger."""
    for t in triggers:
        if t.id == trigger_id:
            return pb.GameObject(id=t.id, name=f"{t.source_name}'s trigger",
                                 controller=t.controller, rules_text=t.text)
    return None


def object_name(names: Names, object_id: str) -> str:
    """An object's name as the viewer knows it."""
    if object_id == "":
        return "the player or planeswalker it attacks"
    obj = names.object(object_id)
    if obj is None:
        return "a card you can't see"
    if obj.face_down and not obj.name:
        return "a face-down card"
    return obj.name or "a card"


def attacked_name(names: Names, attacker_id: str) -> str:
    """Whom an attacking creature attacks, by name (rules 506.3, 506.4): the planeswalker, or
    the player ("you"); what a trampler's excess damage is assigned to (702.19c) -- "5 to
    Bob", not "5 to the player or planeswalker it attacks" (a new player's review). That
    phrase only when the viewer can't see the attacker."""
    attacker = names.object(attacker_id)
    if attacker is not None and attacker.attacking_planeswalker:
        return whose_name(names, attacker.attacking_planeswalker)
    if attacker is not None and attacker.HasField("attacking"):
        return seat_name(names, attacker.attacking)
    return object_name(names, "")


def whose_name(names: Names, object_id: str) -> str:
    """An object's name, and whose it is when another player controls an object of the
    same name on the battlefield or the stack: ``Llanowar Visionary (yours)``,
    ``Llanowar Visionary (Bob's)`` -- "Llanowar Visionary blocks Llanowar Visionary" and
    "Block Llanowar Visionary with Llanowar Visionary" said nothing (a new player's review);
    as the web client's ``whoseName``. ``names`` without the objects in view
    (``in_view``): the name alone."""
    name = object_name(names, object_id)
    whose = _whose_apart(names, object_id)
    return f"{name} ({whose})" if whose else name


def _whose_apart(names: Names, object_id: str) -> str:
    """``yours`` or ``Bob's`` for an object another player has one of the same name of
    (:func:`whose_name`), else ""."""
    obj = names.object(object_id) if object_id else None
    in_view = getattr(names, "in_view", None)
    if obj is None or not obj.name or in_view is None:
        return ""
    for other in in_view():
        if other.id != object_id and other.name == obj.name and \
                other.controller != obj.controller and \
                other.zone.kind in (pb.ZONE_KIND_BATTLEFIELD, pb.ZONE_KIND_STACK):
            return "yours" if obj.controller == names.viewer else \
                f"{names.player(obj.controller)}'s"
    return ""


def target_text(names: Names, target: pb.Target) -> str:
    """What a target names: a player or an object (whose, when that tells it apart:
    :func:`whose_name`)."""
    kind = target.WhichOneof("kind")
    if kind == "player":
        return seat_name(names, target.player)
    if kind == "object_id":
        return whose_name(names, target.object_id)
    return "nothing"


_MANA_WORDS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green",
               "C": "colorless", "X": "X", "S": "snow", "E": "energy", "P": "Phyrexian"}
_SYMBOL = re.compile(r"\{[^}]+\}")


def mana_symbols(cost: str) -> list[str]:
    """The symbols of a mana cost: ``"{2}{R}{R}"`` -> ``["{2}", "{R}", "{R}"]``."""
    return _SYMBOL.findall(cost)


def mana_symbol_words(symbol: str) -> str:
    """A mana symbol in words: ``{R}`` -> ``red mana``, ``{2}`` -> ``2 generic mana``,
    ``{W/U}`` -> ``white or blue mana``, ``{T}`` -> ``tap``."""
    inner = symbol.strip("{}")
    if inner.isdigit():
        return f"{inner} generic mana"
    if inner == "T":
        return "tap"
    if inner == "Q":
        return "untap"
    return " or ".join(_MANA_WORDS.get(p, p) for p in inner.split("/")) + " mana"


def letters_to_symbols(letters: str) -> str:
    """Mana named in WUBRGC letters (PayMana, RollPlanarDie) as symbols: ``"RRB"`` ->
    ``"{R}{R}{B}"``."""
    return "".join(f"{{{letter}}}" for letter in letters)


def pool_symbols(pool: pb.ManaPool) -> str:
    """A mana pool as symbols in WUBRGC order (empty: nothing)."""
    counts = (("W", pool.white), ("U", pool.blue), ("B", pool.black), ("R", pool.red),
              ("G", pool.green), ("C", pool.colorless))
    return "".join(f"{{{letter}}}" * n for letter, n in counts)


def option_text(names: Names, action: pb.Action) -> str:
    """One option of a decision in plain words."""
    kind = action.WhichOneof("kind")
    fixed = _FIXED_OPTIONS.get(kind or "")
    if fixed is not None:
        return fixed
    a = action
    if kind == "play_land":
        return f"Play {object_name(names, a.play_land.object_id)}"
    if kind == "cast_spell":
        obj = names.object(a.cast_spell.object_id)
        cost = f" {obj.mana_cost}" if obj is not None and obj.mana_cost else ""
        return f"Cast {object_name(names, a.cast_spell.object_id)}{cost}"
    if kind == "choose_x":
        return f"X = {a.choose_x.value}"
    if kind == "choose_target":
        return f"Target {target_text(names, a.choose_target.target)}"
    if kind == "activate_mana_ability":
        m = a.activate_mana_ability
        what = f" for {letters_to_symbols(m.mana)}" if m.mana else " for mana"
        if m.paid_with:  # an ability whose cost is mana (605.1a): no {T}
            return f"Pay {letters_to_symbols(m.paid_with)} to {object_name(names, m.object_id)}" \
                   f"{what}"
        return f"Tap {object_name(names, m.object_id)}{what}"
    if kind == "pay_mana":
        pay = a.pay_mana
        if pay.types:  # one step of a payment asked a mana type at a time (601.2h)
            letter = "WUBRGC"[min(pay.types, 6) - 1]
            spent = letters_to_symbols(letter * pay.mana.count(letter))
            return f"Spend {spent or 'no ' + letters_to_symbols(letter)} (then choose the rest)"
        return f"Pay {letters_to_symbols(pay.mana) or 'nothing'}"
    if kind == "declare_attacker":
        d = a.declare_attacker
        at = whose_name(names, d.planeswalker_id) if d.planeswalker_id else \
            seat_name(names, d.defender)
        return f"Attack {at} with {whose_name(names, d.object_id)}"
    if kind == "declare_blocker":
        b = a.declare_blocker
        return f"Block {whose_name(names, b.attacker_id)} with {whose_name(names, b.object_id)}"
    if kind == "assign_combat_damage":
        c = a.assign_combat_damage
        hints = _recipient_hints(names, [d.object_id for d in c.assignments])
        parts = ", ".join(f"{d.amount} to "
                          + (whose_name(names, d.object_id) if d.object_id
                             else attacked_name(names, c.attacker_id))
                          + (f" ({hints[d.object_id]})" if d.object_id in hints else "")
                          for d in c.assignments)
        # (a partial one: the first recipients' amounts; the rest is divided next, 510.1c)
        more = " (then the rest)" if c.partial else ""
        return f"{whose_name(names, c.attacker_id)} deals {parts or 'no damage'}{more}"
    if kind == "choose_starting_player":
        seat = a.choose_starting_player.seat
        return "I play first" if seat == names.viewer else f"{names.player(seat)} plays first"
    if kind == "choose_mode":  # rule 700.2: the mode as printed, if the server said it
        mode = a.choose_mode
        return f"Mode {mode.mode + 1}: {mode.text}" if mode.text else f"Mode {mode.mode + 1}"
    if kind == "activate_ability":  # rule 602.1
        ab = a.activate_ability
        if ab.text:
            return f"Activate {object_name(names, ab.object_id)}: {ab.text}"
        return f"Activate {object_name(names, ab.object_id)}'s ability {ab.ability + 1}"
    if kind == "choose_replacement":  # rule 616.1
        r = a.choose_replacement
        if r.replacement == "prevent":  # damage to the player: which effect prevents it
            return f"Prevent it with {object_name(names, r.object_id)}" if r.object_id \
                else "Prevent it with a resolved spell's effect"
        if r.replacement == "protection":
            return f"Prevent it: protection ({object_name(names, r.object_id)})"
        return f"{object_name(names, r.object_id)}: {r.replacement} instead"
    if kind == "place_card":
        p = a.place_card
        return f"{object_name(names, p.object_id)} on the {'bottom' if p.bottom else 'top'}"
    if kind == "choose_player":
        return f"Choose {seat_name(names, a.choose_player.seat)}"
    if kind == "choose_pile":
        return f"Take pile {a.choose_pile.pile + 1}"
    if kind == "choose_color":  # rule 105.4
        return COLOR_NAMES.get(a.choose_color.color, a.choose_color.color)
    if kind == "choose_name":  # rule 608.2d
        return a.choose_name.name
    if kind == "roll_planar_die":
        paid = letters_to_symbols(a.roll_planar_die.mana) or "nothing"
        return f"Roll the planar die (pay {paid})"
    if kind == "choose_outside_card":
        return f"Bring in {a.choose_outside_card.name} from your sideboard"
    if kind == "choose_exile_pile":
        return f"A random card of {len(a.choose_exile_pile.object_ids)} face-down cards"
    if kind in _OBJECT_VERBS:
        return f"{_OBJECT_VERBS[kind]} {object_name(names, getattr(a, kind).object_id)}" + \
            (" on the bottom" if kind == "put_on_bottom" else "")
    return f"An option this client doesn't understand ({kind or 'empty'})"


def _recipient_hints(names: Names, ids: Sequence[str]) -> dict[str, str]:
    """What tells apart the recipients of a division of combat damage (510.1c) that have one
    name, by id: the first of their power and toughness, tapped or not, and damage marked
    that differs among them -- "1 to Grizzly Bears (1 damage), 3 to Grizzly Bears (no
    damage)" (it read "1 to Grizzly Bears, 3 to Grizzly Bears" and "3 ..., 1 ...": which Bears
    got which?). None for recipients alike in all three (alike blockers: one option,
    :func:`shown_options`)."""
    same: dict[str, list[pb.GameObject]] = {}
    for object_id in ids:
        obj = names.object(object_id) if object_id else None
        if obj is not None:
            same.setdefault(object_name(names, object_id), []).append(obj)
    hints: dict[str, str] = {}
    for objs in same.values():
        if len(objs) < 2:
            continue
        for words in ([f"{o.power}/{o.toughness}" if o.HasField("power") and
                       o.HasField("toughness") else "" for o in objs],
                      ["tapped" if o.tapped else "untapped" for o in objs],
                      [f"{o.damage} damage" if o.damage else "no damage" for o in objs]):
            if len(set(words)) > 1:
                hints.update((o.id, w) for o, w in zip(objs, words, strict=True) if w)
                break
    return hints


#: The colors (rule 105.1) by their mana letters.
COLOR_NAMES = {"W": "White", "U": "Blue", "B": "Black", "R": "Red", "G": "Green"}

#: Options that need no names.
_FIXED_OPTIONS = {
    "pass_priority": "Pass priority", "finish_attackers": "Done: confirm attackers",
    "finish_blockers": "Done: confirm blockers", "concede": "Concede",
    "keep_hand": "Keep this hand", "take_mulligan": "Take a mulligan",
    "finish_targets": "No more targets", "reset_blockers": "Start blocks over",
    "reset_attackers": "Start attacks over", "pay_automatically": "Pay automatically",
    "cancel_cast": "Cancel: take it back (nothing is paid)",
    "decline": "Decline / done", "finish_modes": "No more modes", "accept": "Yes",
}
#: Options naming one object: the verb before its name.
_OBJECT_VERBS = {
    "discard": "Discard", "put_on_bottom": "Put", "choose_order": "Next:",
    "keep_legend": "Keep", "sacrifice": "Sacrifice", "choose_card": "Choose",
}


def option_object_id(action: pb.Action) -> str:
    """The object an option names first ("" if none): what it casts, plays, activates,
    targets, declares..."""
    case = action.WhichOneof("kind")
    if case is None:
        return ""
    value = getattr(action, case)
    if case == "choose_target":
        return value.target.object_id if value.target.WhichOneof("kind") == "object_id" \
            else ""
    return str(getattr(value, "object_id", ""))


def option_whose(names: Names, action: pb.Action) -> str:
    """Whose the object an option names is, from the viewer's side -- ``yours``, ``Bob's``
    -- ("" if it names none the viewer can see)."""
    object_id = option_object_id(action)
    obj = names.object(object_id) if object_id else None
    if obj is None:
        return ""
    return "yours" if obj.controller == names.viewer else f"{names.player(obj.controller)}'s"


def card_words(obj: pb.GameObject) -> str:
    """A card as a player reads it: name, mana cost, types, power/toughness and its text."""
    kinds = " ".join([*obj.supertypes, *obj.card_types])
    if obj.subtypes:
        kinds += " -- " + " ".join(obj.subtypes)
    parts = [obj.name or "a face-down card", obj.mana_cost, kinds]
    if obj.HasField("power") and obj.HasField("toughness"):
        parts.append(f"{obj.power}/{obj.toughness}")
    text = " ".join(obj.rules_text.split())
    return " · ".join(p for p in parts if p) + (f": {text}" if text else "")


def distinct_labels(labels: Iterable[str], whose: Iterable[str] = ()) -> list[str]:
    """Labels made distinct: the same words twice get whose the objects are when that tells
    them apart (``Target Burlfist Oak (yours)``, ``... (Bob's)``: ``whose``, one per label,
    :func:`option_whose`), else ``(1 of 2)``... (two Islands to tap)."""
    return _numbered(_told_apart(list(labels), list(whose)))


def _told_apart(labels: list[str], *tiers: list[str]) -> list[str]:
    """Labels with the words of each tier of hints, one per label, added (``Target Burlfist
    Oak (yours)``) where the same label's hints differ: whose the objects are, then their
    power and toughness, then whether they are tapped, then their damage and counters."""
    for hints in tiers:
        if not hints:
            continue
        groups: dict[str, set[str]] = {}
        for label, hint in zip(labels, hints, strict=True):
            groups.setdefault(label, set()).add(hint)
        labels = [f"{label} ({hint})" if hint and len(groups[label]) > 1 else label
                  for label, hint in zip(labels, hints, strict=True)]
    return labels


def _numbered(labels: list[str]) -> list[str]:
    """The same label twice or more: ``(1 of 2)``, ``(2 of 2)``."""
    total = Counter(labels)
    seen: Counter[str] = Counter()
    out = []
    for label in labels:
        if total[label] == 1:
            out.append(label)
            continue
        seen[label] += 1
        out.append(f"{label} ({seen[label]} of {total[label]})")
    return out


def option_strength(names: Names, action: pb.Action) -> str:
    """The power and toughness of the creature an option names (``2/4``; "" for none): what
    tells apart two Walking Corpses to block with when one got +0/+2 (the board shows it,
    the options read "(1 of 4)" ... "(4 of 4)")."""
    object_id = option_object_id(action)
    obj = names.object(object_id) if object_id else None
    if obj is None or "Creature" not in obj.card_types or not obj.HasField("power") or \
            not obj.HasField("toughness"):
        return ""
    return f"{obj.power}/{obj.toughness}"


def option_tapped(names: Names, action: pb.Action) -> str:
    """``tapped`` for an option naming a tapped permanent ("" otherwise): what tells apart
    two Grizzly Bears to target, one tapped (alike tapped ones are one option, apart from
    the untapped ones)."""
    object_id = option_object_id(action)
    obj = names.object(object_id) if object_id else None
    return "tapped" if obj is not None and obj.tapped else ""


def option_marks(names: Names, action: pb.Action) -> str:
    """The damage marked on the permanent an option names and its counters, as the board says
    them (``1 damage, +1/+1 x2``; "" for none): what tells apart two Grizzly Bears to target
    of one strength, one damaged (alike ones are one option)."""
    object_id = option_object_id(action)
    obj = names.object(object_id) if object_id else None
    if obj is None:
        return ""
    marks = [f"{obj.damage} damage"] if obj.damage else []
    # (a planeswalker's loyalty is a number, 306.5b: "loyalty 1", as on the board)
    marks.extend(f"loyalty {c.count}" if c.kind == "loyalty" else
                 f"{c.kind} x{c.count}" if c.count != 1 else c.kind for c in obj.counters)
    return ", ".join(marks)


#: Options that name one object and nothing the words don't say: alike when their words are
#: and their objects look the same (:func:`object_look`).
_ONE_OBJECT_KINDS = frozenset({
    "play_land", "cast_spell", "activate_mana_ability", "activate_ability", "discard",
    "put_on_bottom", "sacrifice", "choose_card", "choose_target", "keep_legend",
    "choose_replacement", "place_card", "choose_order",
})

#: Combat declarations (508.1a, 509.1a): alike when their creatures look the same
#: (:func:`object_look`) and they attack the same player or planeswalker, or block the same
#: attacker (:func:`_partner`): five untapped Grizzly Bears are one "Attack Bob with Grizzly
#: Bears (one of 5 alike)", declared one at a time.
_COMBAT_KINDS = frozenset({"declare_attacker", "declare_blocker"})


def _ident(action: pb.Action) -> tuple[str, str]:
    """The objects an option names, exactly: its object, and whom its creature attacks or
    which attacker it blocks (a division of combat damage: its attacker, and how much each
    recipient gets)."""
    kind = action.WhichOneof("kind")
    if kind == "assign_combat_damage":
        c = action.assign_combat_damage
        return c.attacker_id, ",".join(f"{d.object_id}={d.amount}" for d in c.assignments) \
            + ("..." if c.partial else "")
    other = f"{action.declare_attacker.defender}/{action.declare_attacker.planeswalker_id}" \
        if kind == "declare_attacker" else action.declare_blocker.attacker_id \
        if kind == "declare_blocker" else ""
    return option_object_id(action), other


def _division(names: Names, action: pb.Action, referenced: Container[str]) -> str:
    """A division of an attacker's combat damage (510.1c) as the player tells it from
    another: how much each recipient gets, the recipients the player can't tell apart
    (:func:`object_look`: two untapped Grizzly Bears blocking it, no damage, nothing on
    them) by their look, the others exactly -- so "1 to Grizzly Bears, 3 to Grizzly
    Bears" and "3 to Grizzly Bears, 1 to Grizzly Bears" are one division when the two
    Bears are alike, two when one has damage marked or a counter (a blocker's summoning
    sickness is nothing: gone by its controller's next turn, 302.6). "" for other
    options."""
    if action.WhichOneof("kind") != "assign_combat_damage":
        return ""
    c = action.assign_combat_damage
    parts = []
    for d in c.assignments:
        look = object_look(names.object(d.object_id), referenced, sickness=False) \
            if d.object_id else None
        who = f"look:{look.hex()}" if look is not None else f"id:{d.object_id}"
        parts.append(f"{who}={d.amount}")
    return f"{c.attacker_id}:" + ",".join(sorted(parts)) + ("..." if c.partial else "")


def _partner(names: Names, action: pb.Action, referenced: Container[str]) -> str:
    """What an option names besides its object, for the options that name two: whom a
    creature attacks, exactly (two planeswalkers of one name read alike but aren't one); the
    attacker a creature blocks -- exactly, or for an attacker the player can't tell apart
    from others (:func:`object_look` of all but its attack: three alike Walking Corpses
    attacking you, none blocked yet), how it looks and what it attacks ("" for other
    options)."""
    kind = action.WhichOneof("kind")
    if kind == "declare_attacker":
        d = action.declare_attacker
        return f"{d.defender}/{d.planeswalker_id}"
    if kind != "declare_blocker":
        return ""
    attacker_id = action.declare_blocker.attacker_id
    obj = names.object(attacker_id)
    if obj is None or attacker_id in referenced:  # (blocked already, targeted ...)
        return attacker_id
    plain = pb.GameObject()
    plain.CopyFrom(obj)
    for field in ("attacking", "attacking_planeswalker", "tapped"):  # (said below)
        plain.ClearField(field)
    look = object_look(plain, referenced)
    if look is None:
        return attacker_id
    return f"{obj.attacking}/{obj.attacking_planeswalker}/{obj.tapped}/{look.hex()}"


def referenced_ids(objects: Iterable[pb.GameObject]) -> set[str]:
    """Ids of the objects another object points at -- what is attached to them, blocks
    them, attacks them, targets them: what tells a permanent apart from another of its name
    (the Grizzly Bears enchanted by Pacifism, the one Shock targets)."""
    ids: set[str] = set()
    for obj in objects:
        if obj.attached_to:
            ids.add(obj.attached_to)
        if obj.attacking_planeswalker:
            ids.add(obj.attacking_planeswalker)
        ids.update(obj.blocking)
        ids.update(t.object_id for t in obj.targets if t.WhichOneof("kind") == "object_id")
    return ids


def object_look(obj: pb.GameObject | None, referenced: Container[str] = (), *,
                sickness: bool = True) -> bytes | None:
    """All the viewer can see of an object but its id, to tell whether another looks the
    same (then the player can't tell them apart: two Forests in a hand, two untapped Forests
    on the battlefield, two tapped ones, two Grizzly Bears blocking the same attacker); None
    for an object to be shown on its own -- attached to another, or pointed at
    (:func:`referenced_ids`: an Aura on it, a spell's target, a blocker on it), or face
    down. Everything else it shows is in its look: a tapped Forest is never alike an
    untapped one, nor a creature with a counter, damage or another controller one without.
    Summoning sickness is a creature's only (302.6): a land played this turn looks the same
    as another; and it restricts only attacking and {T} abilities (302.6): ``sickness``
    False, creatures to block with look the same with it or without (a blocker's sickness
    is gone by its controller's next turn anyway)."""
    if obj is None or not obj.id or obj.face_down or obj.attached_to or obj.id in referenced:
        return None
    look = pb.GameObject()
    look.CopyFrom(obj)
    look.ClearField("id")
    if not sickness or "Creature" not in obj.card_types:
        look.ClearField("summoning_sick")
    return look.SerializeToString(deterministic=True)


def _target_rank(names: Names, action: pb.Action) -> int | None:
    """Where a target goes in the order shown (:func:`shown_order`): 0 an opponent, 1 an
    object of an opponent's (or unseen), 2 the viewer, 3 an object of the viewer's; None
    for an option that is no target."""
    if action.WhichOneof("kind") != "choose_target":
        return None
    target = action.choose_target.target
    kind = target.WhichOneof("kind")
    if kind == "player":
        return 2 if target.player == names.viewer else 0
    if kind == "object_id":
        obj = names.object(target.object_id)
        return 3 if obj is not None and obj.controller == names.viewer else 1
    return None


def shown_order(names: Names, options: Sequence[pb.Action]) -> list[int]:
    """The options' indices in the order shown: the targets of a choice (Shock's "any
    target") the opponents' first -- opponents, then their permanents (and other objects),
    then you, then yours -- each group in the server's order, in the places the targets
    take among the other options. The server lists players by seat: for seat 1 "Target you"
    was option 1, and a player pressing 1 to hit the opponent shocked themself."""
    order = list(range(len(options)))
    if names.viewer < 0:
        return order
    ranks = [_target_rank(names, o) for o in options]
    slots = [i for i, rank in enumerate(ranks) if rank is not None]
    for slot, i in zip(slots, sorted(slots, key=lambda i: ranks[i] or 0), strict=True):
        order[slot] = i
    return order


#: Where a clause of rules text begins or ends, for :func:`target_purpose`.
_CLAUSE_STARTS = (". ", ", ", " and ", "\n", "; ", ": ")
_CLAUSE_END = re.compile(r"[.,;\n]| and ")


def _pending_prompt(names: Names) -> str:
    """The prompt of the decision the view's player is asked (``names.decision``, as a
    :class:`~client_sdk.board.Board` keeps it; "" without one)."""
    decision = getattr(names, "decision", None)
    return decision.prompt if isinstance(decision, pb.Decision) else ""


def _source_text(names: Names, source: str) -> str:
    """The rules text of the object a prompt names first ("Rookie Mistake: ...", "Teferi's
    Tutelage's ability: ..."): the viewer's spell on the stack of that name, else a
    permanent of the viewer's, else any object in view of that name ("" if none)."""
    name = source.removesuffix("'s ability")
    in_view = getattr(names, "in_view", None)
    if not name or in_view is None:
        return ""
    found = [o for o in in_view() if o.name == name]
    found.sort(key=lambda o: (o.zone.kind != pb.ZONE_KIND_STACK, o.controller != names.viewer))
    return found[0].rules_text if found else ""


def target_purpose(names: Names, prompt: str) -> str:
    """What the target being chosen will get, from the text of the spell or ability asking
    (rule 601.2c: each "target" word its own target): the prompt's "-- target creature"
    found in Rookie Mistake's "Until end of turn, target creature gets +0/+2 and another
    target creature gets -2/-0" -- ``gets +0/+2``; for "another target creature" ``gets
    -2/-0``; Eliminate's ``destroy it``; "" when the text doesn't say it plainly. Both
    prompts said only "Choose a target -- target creature" (a new player's review). As
    ``web/src/describe.ts``'s ``targetPurpose``."""
    source, colon, asked = prompt.partition(": ")
    if not colon or " -- " not in asked:
        return ""
    phrase = asked.rsplit(" -- ", 1)[1].strip().rstrip(".").lower()
    text = _source_text(names, source)
    low = text.lower()
    for found in re.finditer(rf"(?<![a-z]){re.escape(phrase)}(?![a-z])", low):
        start, end = found.start(), found.end()
        if not phrase.startswith(("another ", "other ")) and \
                low[:start].endswith(("another ", "other ")):
            continue  # ("target creature" in "another target creature": the other target)
        stop = _CLAUSE_END.search(text, end)
        after = text[end:stop.start() if stop else len(text)]
        if after and not after.startswith(" "):
            return ""  # ("target opponent's graveyard": no clause of its own)
        if after.strip():
            return after.strip()
        begin = max((low.rfind(mark, 0, start) + len(mark) for mark in _CLAUSE_STARTS
                     if low.rfind(mark, 0, start) >= 0), default=0)
        before = text[begin:start].strip()
        if not before:
            return ""
        name = source.removesuffix("'s ability")
        said = f"{before} it"
        return said if name and said.startswith(name) else said[:1].lower() + said[1:]
    return ""


def shown_options(names: Names, options: Sequence[pb.Action],
                  objects: Iterable[pb.GameObject] = ()) -> list[tuple[list[int], str]]:
    """A decision's options as the player is shown them, in order (:func:`shown_order`):
    each with the indices of the options it stands for and its words (told apart,
    :func:`distinct_labels`). Options the player can't tell apart are shown once -- the same
    words naming objects that look the same (:func:`object_look`: four Forests in a hand to
    play, two untapped Forests to tap for mana, two to put on the bottom, five untapped
    Grizzly Bears to attack the same player with or to block the same attacker, which say
    ``(one of 5 alike)``): choosing it answers the first. ``objects``: every object in view
    (what points at one tells it apart)."""
    objects = list(objects)
    referenced = referenced_ids(objects)
    blocked = {i for obj in objects for i in obj.blocking}
    texts = [option_text(names, o) for o in options]
    for i, o in enumerate(options):
        if o.WhichOneof("kind") == "choose_target" and option_object_id(o) and \
                (whose := option_whose(names, o)):
            # Whose each target is, always (Eliminate's one option "Target Obsessive
            # Stitcher" was the player's own creature: a new player's review).
            texts[i] = f"Target {object_name(names, option_object_id(o))} ({whose})"
    for i, o in enumerate(options):  # (a second blocker for it: 509.1a allows it)
        if o.WhichOneof("kind") == "declare_blocker" and o.declare_blocker.attacker_id in blocked:
            attacker = o.declare_blocker.attacker_id
            hint = ", ".join(w for w in (_whose_apart(names, attacker), "already blocked") if w)
            texts[i] = f"Block {object_name(names, attacker)} ({hint}) with " \
                       f"{whose_name(names, o.declare_blocker.object_id)}"
    groups: list[list[int]] = []
    alike: dict[tuple[str, str, str, bytes, str], list[int]] = {}
    for i in shown_order(names, options):
        option, text = options[i], texts[i]
        kind = option.WhichOneof("kind") or ""
        object_id = option_object_id(option)
        look = object_look(names.object(object_id), referenced,
                           sickness=kind != "declare_blocker") \
            if (kind in _ONE_OBJECT_KINDS or kind in _COMBAT_KINDS) and object_id \
            and names.viewer >= 0 else None
        exact = ""
        if look is None and kind == "declare_blocker" and names.viewer >= 0:
            # A creature shown on its own (an Aura on it) blocking either of two alike
            # attackers: one option still.
            look, exact = b"", object_id
        if kind == "assign_combat_damage" and names.viewer >= 0:
            # The same amounts to alike blockers in another order: one division (its words
            # the first's).
            text, look = "", b""
        key = (kind, text, _partner(names, option, referenced) or
               _division(names, option, referenced), look, exact) \
            if look is not None else None
        group = alike.get(key) if key is not None else None
        # (One object's options twice, the same words: two abilities that read alike are
        # no one option. One creature blocking either of two alike attackers is.)
        if group is not None and all(_ident(options[j]) != _ident(option) for j in group):
            group.append(i)
            continue
        groups.append([i])
        if key is not None and group is None:
            alike[key] = groups[-1]
    firsts = [g[0] for g in groups]
    told = _told_apart([texts[i] for i in firsts],
                       [option_whose(names, options[i]) for i in firsts],
                       [option_strength(names, options[i]) for i in firsts],
                       [option_tapped(names, options[i]) for i in firsts],
                       [option_marks(names, options[i]) for i in firsts])
    # Creatures declared one at a time say how many are alike: the option stays for the next.
    creatures = [len({option_object_id(options[j]) for j in g}) for g in groups]
    words = [f"{text} (one of {n} alike)"
             if n > 1 and options[g[0]].WhichOneof("kind") in _COMBAT_KINDS else text
             for g, n, text in zip(groups, creatures, told, strict=True)]
    labels = _numbered(words)
    purpose = target_purpose(names, _pending_prompt(names)) if any(
        options[g[0]].WhichOneof("kind") == "choose_target" for g in groups) else ""
    if purpose:  # (what the target will get: "Target Prismite (Bob's): gets +0/+2")
        labels = [f"{label}: {purpose}"
                  if options[g[0]].WhichOneof("kind") == "choose_target" else label
                  for g, label in zip(groups, labels, strict=True)]
    return list(zip(groups, labels, strict=True))


_STEP_NAMES: Mapping[int, str] = {
    pb.STEP_UNTAP: "Untap step", pb.STEP_UPKEEP: "Upkeep", pb.STEP_DRAW: "Draw step",
    pb.STEP_PRECOMBAT_MAIN: "Precombat main phase",
    pb.STEP_BEGINNING_OF_COMBAT: "Beginning of combat",
    pb.STEP_DECLARE_ATTACKERS: "Declare attackers", pb.STEP_DECLARE_BLOCKERS: "Declare blockers",
    pb.STEP_COMBAT_DAMAGE: "Combat damage", pb.STEP_END_OF_COMBAT: "End of combat",
    pb.STEP_POSTCOMBAT_MAIN: "Postcombat main phase", pb.STEP_END: "End step",
    pb.STEP_CLEANUP: "Cleanup step",
}


def tier_text(tier: mpb.SpectatorTier, players: Iterable[str]) -> str:
    """A delayed spectator tier in words, e.g. ``every hand, 120 s behind``."""
    names = list(players)
    if tier.kind == mpb.TIER_KIND_OMNISCIENT:
        what = "every hand"
    elif tier.kind == mpb.TIER_KIND_PLAYER:
        whose = names[tier.seat] if tier.seat < len(names) else f"seat {tier.seat + 1}"
        what = f"{whose}'s view"
    elif tier.kind == mpb.TIER_KIND_PUBLIC:
        what = "the public view"
    else:  # unspecified, or a kind this client doesn't know (a newer server)
        what = "a delayed view"
    turns = tier.delay_turns
    delays = " and ".join(part for part in (
        f"{tier.delay_seconds} s" if tier.delay_seconds else "",
        f"{turns} turn{'s' if turns > 1 else ''}" if turns else "") if part)
    return f"{what}, {delays} behind" if delays else what


def hidden_tiers_text(tiers: Iterable[mpb.SpectatorTier], players: Iterable[str]) -> str:
    """What a room's players should know before they play: each delayed tier that shows
    hidden cards (every hand, a seat's view) and who may watch it -- the host chose them,
    and a player's second account could be among them ("" if none)."""
    names = list(players)
    shown = []
    for tier in tiers:
        if tier.kind == mpb.TIER_KIND_PUBLIC:
            continue
        who = [*tier.accounts, *(["anyone with the invite code"] if tier.invite else [])]
        shown.append(f"{tier_text(tier, names)} (to {', '.join(who) or 'nobody'})")
    if not shown:
        return ""
    return f"This room shows hidden cards to watchers the host chose: {'; '.join(shown)}."


def deck_words(joined: mpb.Joined) -> str:
    """The deck a seated player plays, in words ("" for a spectator): the demo deck of its
    name (the one the server dealt when none was given), or the player's own list."""
    if joined.role != mpb.ROLE_PLAYER:
        return ""
    if joined.demo_deck:
        return f"the demo deck {joined.deck_name}"
    return f"your deck {joined.deck_name}" if joined.deck_name else "your deck"


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ... ``11th``, ``12th``, ``21st``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def step_name(step: int) -> str:
    """A step of the turn (rules 500-514)."""
    return _STEP_NAMES.get(step, "")


_ZONE_NAMES: Mapping[int, str] = {
    pb.ZONE_KIND_UNSPECIFIED: "nowhere", pb.ZONE_KIND_LIBRARY: "library",
    pb.ZONE_KIND_HAND: "hand", pb.ZONE_KIND_BATTLEFIELD: "battlefield",
    pb.ZONE_KIND_GRAVEYARD: "graveyard", pb.ZONE_KIND_STACK: "stack",
    pb.ZONE_KIND_EXILE: "exile", pb.ZONE_KIND_COMMAND: "command zone",
    pb.ZONE_KIND_ANTE: "ante",
}


def zone_name(kind: int) -> str:
    """A zone (rule 400.1)."""
    return _ZONE_NAMES.get(kind, f"zone {kind}")


#: The zones all players share (rule 400.1): "the battlefield", not "Bob's battlefield".
_SHARED_ZONES = (pb.ZONE_KIND_BATTLEFIELD, pb.ZONE_KIND_STACK, pb.ZONE_KIND_EXILE,
                 pb.ZONE_KIND_COMMAND, pb.ZONE_KIND_ANTE)


def _where(names: Names, kind: int, owner: int) -> str:
    """A zone a card moved from or to, for a log line: ``the battlefield``, ``the stack``,
    ``your graveyard``, ``their hand`` -- the line names whose card it is first (it read
    "was exiled from battlefield"); as the browser client's ``fromWhere``."""
    if kind == pb.ZONE_KIND_EXILE:
        return "exile"  # "returned from exile" (it read "from the exile")
    if kind in _SHARED_ZONES:
        return f"the {zone_name(kind)}"
    return f"{'your' if owner == names.viewer else 'their'} {zone_name(kind)}"


#: Logged when a client answers a declaration of no blockers for its player (see
#: :func:`nothing_can_block`).
NO_BLOCKERS_TEXT = "you declared no blockers: none of your creatures can block"


def no_block_text(names: Names, seat: int) -> str:
    """That a defending player declared no blockers (rule 509.1): ``Bob didn't block``, ``you
    didn't block`` -- the game tells blocks (BlockersDeclaredEvent) and nothing when there are
    none, so a player read nothing of the other's choice (a new player's review); as the web
    client's ``noBlockLine``."""
    return f"{seat_name(names, seat)} didn't block"


def became_tapped_text(names: Names, obj: pb.GameObject) -> str:
    """A permanent a resolving spell or ability tapped (Frost Breath; rule 701.26a): ``Bob's
    Grizzly Bears became tapped`` -- no event tells it; as the web client's
    ``tappedByResolving``. (That it "doesn't untap during its controller's next untap step",
    rule 502.3, the view doesn't carry: not said.)"""
    whose = "your" if obj.controller == names.viewer else f"{names.player(obj.controller)}'s"
    return f"{whose} {obj.name or 'permanent'} became tapped"


#: The two combat damage steps of a combat with a first or double striker (rule 510.4),
#: marked in the log as the view enters each: the server names the step
#: (``GameHeader.combat_damage_step``).
FIRST_STRIKE_DAMAGE_TEXT = "-- First-strike combat damage --"
REGULAR_DAMAGE_TEXT = "-- Regular combat damage --"


def damage_step_of(header: pb.GameHeader) -> int:
    """Which combat damage step ``header`` is in (rule 510.4: ``combat_damage_step``, set by
    the server in a combat damage step); unspecified in any other step."""
    return header.combat_damage_step if header.step == pb.STEP_COMBAT_DAMAGE \
        else pb.COMBAT_DAMAGE_STEP_UNSPECIFIED


def combat_damage_marker(before: int, now: int) -> str:
    """The log's marker as the view enters a combat damage step (rule 510.4):
    :data:`FIRST_STRIKE_DAMAGE_TEXT`, :data:`REGULAR_DAMAGE_TEXT` -- before the step's damage,
    if any (first-strike damage may all be prevented). A combat's only step is not marked,
    nor anything from an older server, which names no step. "" when the view entered none;
    as the web client's ``combatDamageMarker``."""
    if now == before:
        return ""
    if now == pb.COMBAT_DAMAGE_STEP_FIRST_STRIKE:
        return FIRST_STRIKE_DAMAGE_TEXT
    if now == pb.COMBAT_DAMAGE_STEP_REGULAR:
        return REGULAR_DAMAGE_TEXT
    return ""


def nothing_can_block(decision: pb.Decision) -> bool:
    """Whether ``decision`` is a declaration of blockers (rule 509.1a) whose one option is to
    declare none: none of the player's creatures can block. It is no choice, so the terminal
    and the web client answer it at once for their player (the player's clock runs only for
    the round trip) instead of asking them to press a key."""
    return (decision.kind == pb.DECISION_KIND_DECLARE_BLOCKERS and len(decision.options) == 1
            and decision.options[0].WhichOneof("kind") == "finish_blockers")


def pool_pays_exactly(decision: pb.Decision, pool: pb.ManaPool | None) -> int | None:
    """A cost being paid (``PAY_MANA``, 601.2h) that the player's mana pool pays exactly --
    all of the pool, in one way only (a single ``PayMana`` option spending every mana in
    it): the index of that option, else None. Never for a payment the player may decline
    (an "unless" cost, 118.12a: paying it is a choice). As the web client's
    ``poolPaysExactly``: a player who tapped a Mountain for a {R} cost was asked again
    "your mana pool covers it -- choose the mana to spend" (a new player's review)."""
    if decision.kind != pb.DECISION_KIND_PAY_MANA or pool is None:
        return None
    kinds = [o.WhichOneof("kind") for o in decision.options]
    if "decline" in kinds:
        return None
    pays = [i for i, kind in enumerate(kinds) if kind == "pay_mana"]
    total = pool.white + pool.blue + pool.black + pool.red + pool.green + pool.colorless
    if len(pays) != 1 or total == 0 or decision.options[pays[0]].pay_mana.types or \
            len(decision.options[pays[0]].pay_mana.mana) != total:
        return None
    return pays[0]


#: A mana ability that does nothing but tap its permanent for mana ("{T}: Add {B} or {R}.",
#: "{T}: Add one mana of any color.").
_PLAIN_MANA = re.compile(r"\(?\{T\}: Add [^.]*\.\)?")


def plain_mana_source(obj: pb.GameObject | None) -> bool:
    """Whether tapping ``obj`` for mana does nothing else: a basic land (305.6), or a
    permanent -- a land, or a creature such as Llanowar Visionary -- whose every mana
    ability reads "{T}: Add ..." -- no sacrifice, no damage, no life, no other cost (a
    Treasure's sacrifice can trigger Havoc Jester: that is a play). (A creature tapped for
    mana nothing can spend only can't attack or block: never a play either.)"""
    if obj is None:
        return False
    if "Land" in obj.card_types and "Basic" in obj.supertypes:
        return True
    abilities = [line.strip() for line in obj.rules_text.splitlines() if ": Add " in line]
    return bool(abilities) and all(_PLAIN_MANA.fullmatch(line) for line in abilities)


def only_pass(decision: pb.Decision, objects: Mapping[str, pb.GameObject]) -> bool:
    """Whether ``decision`` is priority with nothing to do but pass it (rule 117.3): no
    spell to cast, no ability to activate -- at most lands to tap for mana that nothing
    could spend and that empties at the end of the step (106.4), or creatures to tap for it
    (:func:`plain_mana_source`). The terminal and the web
    client pass it for their player (a player who could cast or activate anything, or
    make mana with a side effect, still decides) -- at a stop, after a human-like wait
    (:data:`client_sdk.stops.HUMAN_PASS_SECONDS`: passed at once, its timing told the table
    the hand held nothing castable), and under full control not at all. With untapped lands
    it was asked at every step: 601 of 944 decisions in a browser game were passes."""
    if decision.kind != pb.DECISION_KIND_PRIORITY:
        return False
    passes = False
    for option in decision.options:
        kind = option.WhichOneof("kind")
        if kind == "pass_priority":
            passes = True
        elif kind != "activate_mana_ability" or not plain_mana_source(
                objects.get(option.activate_mana_ability.object_id)):
            return False
    return passes


def alike_order(names: Names, decision: pb.Decision,
                objects: Iterable[pb.GameObject]) -> bool:
    """Whether ``decision`` is the order of cards put into the player's graveyard at once
    (404.3), or of the player's triggered abilities put on the stack (603.3b), when those
    left all look the same (:func:`shown_options`: one option, "Next: Swamp" for two Swamps a
    Mind Rot discarded; "Next: Bolt Hound's trigger" for two Bolt Hounds' attack triggers,
    the same text of sources of the same name): no choice, so the terminal and the web
    client answer it at once for their player. (Milled by Thieves' Guild Enforcer, a new
    user was asked to press 1 for "Next: Walking Corpse", its only option; attacking with
    two Bolt Hounds, another for "Next: Bolt Hound's trigger".)"""
    return decision.kind in (pb.DECISION_KIND_ORDER_GRAVEYARD, pb.DECISION_KIND_ORDER_TRIGGERS) \
        and len(decision.options) > 0 \
        and len(shown_options(names, decision.options, objects)) == 1


#: Keyword abilities a "choose a keyword" effect offers (rule 702): a CHOOSE_NAME decision
#: offering none of them names cards.
_KEYWORDS = frozenset({
    "deathtouch", "defender", "double strike", "first strike", "flash", "flying", "haste",
    "hexproof", "indestructible", "lifelink", "menace", "protection", "reach", "shroud",
    "trample", "vigilance", "ward", "fear", "intimidate", "landwalk", "islandwalk",
    "swampwalk", "mountainwalk", "forestwalk", "plainswalk", "horsemanship", "shadow",
    "prowess", "infect", "wither", "banding", "flanking", "rampage", "bushido",
})

#: The server's words for a choice of a name (server/view/encode.py), said of any such choice.
_ANY_NAME = " (a keyword ability, or a card name)"


def names_cards(decision: pb.Decision) -> bool:
    """Whether ``decision`` is a choice of a card name (rule 201.3: Necromentia's "choose a
    card name"): a CHOOSE_NAME none of whose options is a keyword ability (702)."""
    return decision.kind == pb.DECISION_KIND_CHOOSE_NAME and bool(decision.options) and \
        not any(o.choose_name.name.lower() in _KEYWORDS for o in decision.options)


def decision_prompt(decision: pb.Decision) -> str:
    """What the decision asks, as the server says it -- but a choice of a card name
    (:func:`names_cards`) says so, not "(a keyword ability, or a card name)" (said of
    Necromentia's, which takes card names only: a new player's review)."""
    if names_cards(decision) and _ANY_NAME in decision.prompt:
        return decision.prompt.replace(_ANY_NAME, " (a card name)")
    return decision.prompt


def named_option(decision: pb.Decision, typed: str) -> tuple[int | None, list[str]]:
    """The option of a choice of a name (CHOOSE_NAME, 201.3) that ``typed`` names: the name
    itself, in any case, or the first letters of one name only -- (its index, [its name]);
    else (None, the names it begins, up to all: none, or several)."""
    want = " ".join(typed.split()).lower()
    names = [o.choose_name.name for o in decision.options]
    exact = [i for i, name in enumerate(names) if name.lower() == want]
    if exact:
        return exact[0], [names[exact[0]]]
    fits = [i for i, name in enumerate(names) if want and name.lower().startswith(want)]
    if len(fits) == 1:
        return fits[0], [names[fits[0]]]
    return None, [names[i] for i in fits]


def decision_name(kind: int) -> str:
    """A decision kind in words: ``DECISION_KIND_DECLARE_BLOCKERS`` -> ``declaring
    blockers``."""
    return _DECISION_NAMES.get(kind, "a decision")


_DECISION_NAMES: Mapping[int, str] = {
    pb.DECISION_KIND_PRIORITY: "priority",
    pb.DECISION_KIND_CHOOSE_X: "choosing X",
    pb.DECISION_KIND_CHOOSE_TARGET: "choosing a target",
    pb.DECISION_KIND_PAY_MANA: "paying mana",
    pb.DECISION_KIND_DECLARE_ATTACKERS: "declaring attackers",
    pb.DECISION_KIND_DECLARE_BLOCKERS: "declaring blockers",
    pb.DECISION_KIND_ASSIGN_COMBAT_DAMAGE: "assigning combat damage",
    pb.DECISION_KIND_DISCARD: "discarding",
    pb.DECISION_KIND_CHOOSE_STARTING_PLAYER: "choosing who plays first",
    pb.DECISION_KIND_MULLIGAN: "keep or mulligan",
    pb.DECISION_KIND_BOTTOM_CARD: "putting a card on the bottom",
    pb.DECISION_KIND_CHOOSE_MODE: "choosing a mode",
    pb.DECISION_KIND_ORDER_TRIGGERS: "ordering triggers",
    pb.DECISION_KIND_ORDER_GRAVEYARD: "ordering the graveyard",
    pb.DECISION_KIND_LEGEND_RULE: "the legend rule",
    pb.DECISION_KIND_SACRIFICE: "sacrificing",
    pb.DECISION_KIND_CHOOSE_COST: "choosing a cost",
    pb.DECISION_KIND_CHOOSE_REPLACEMENT: "choosing a replacement effect",
    pb.DECISION_KIND_CHOOSE_DEFENDER: "choosing what to attack",
    pb.DECISION_KIND_SCRY: "scrying",
    pb.DECISION_KIND_SEARCH: "searching",
    pb.DECISION_KIND_CHOOSE_PLAYER: "choosing a player",
    pb.DECISION_KIND_SEPARATE_PILES: "separating piles",
    pb.DECISION_KIND_CHOOSE_PILE: "choosing a pile",
    pb.DECISION_KIND_CHOOSE_CARD: "choosing a card",
    pb.DECISION_KIND_CLASH: "clashing",
    pb.DECISION_KIND_CHOOSE_PARTY: "choosing a party",
    pb.DECISION_KIND_MAY: 'a "you may" choice',
    pb.DECISION_KIND_CHOOSE_COLOR: "choosing a color",
    pb.DECISION_KIND_CHOOSE_NAME: "choosing an option",
    pb.DECISION_KIND_CHOOSE_OUTSIDE_CARD: "choosing a card from outside the game",
    pb.DECISION_KIND_CHOOSE_EXILED_CARD: "choosing an exiled card",
    pb.DECISION_KIND_CAST_MADNESS: "casting with madness",
}


def _recipient(names: Names, e: pb.DamageEvent) -> str:
    which = e.WhichOneof("recipient")
    if which == "player":
        return seat_name(names, e.player)
    if which == "object_id":
        return whose_name(names, e.object_id)
    return "nothing"


#: A rule number in parentheses, as an older server's reasons ended: ``(104.3a)``,
#: ``(rule 704.5a)``.
_RULE_CITED = re.compile(r"\s*\((?:rule |CR )?\d{3}(?:\.\d+[a-z]*)?\)")


#: The server's words for a player who left a match, and a game (server.rooms.match,
#: server.engine.game).
_LEFT_MATCH = re.compile(r"^(.+) left the match \(and conceded it\)$")
_LEFT_GAME = re.compile(r"^(.+) left the game, which concedes it$")


def reason_words(names: Names, reason: str) -> str:
    """A reason the server gave (a free string: ``Ann#0001 conceded``, ``Ann#0001 has 0 or
    less life``, rules 104.3a, 704.5a) as the viewer reads it: the viewer's own name that
    begins it said ``you`` (``you conceded``, ``you have 0 or less life``; ``Ann#0001's`` ->
    ``your``), and a rule number an older server put in it dropped -- player-facing words
    are plain English. The server's words for leaving, which a line puts after a colon or in
    brackets, said plainly (as the web client's ``reasonWords``): ``Bob left the game, which
    concedes it`` -> ``Bob conceded by leaving the game`` (rule 104.3a), ``Bob left the
    match (and conceded it)`` -> ``Bob conceded the match by leaving it``."""
    words = _RULE_CITED.sub("", reason).strip()
    words = _LEFT_MATCH.sub(r"\1 conceded the match by leaving it", words)
    words = _LEFT_GAME.sub(r"\1 conceded by leaving the game", words)
    me = names.player(names.viewer) if names.viewer >= 0 else ""
    if me and words.startswith(f"{me}'s "):
        return "your " + words[len(me) + 3:]
    if me and words.startswith(f"{me} "):
        rest = words[len(me) + 1:]
        if rest.startswith("has "):
            rest = "have " + rest[4:]
        elif rest.startswith("is "):
            rest = "are " + rest[3:]
        elif rest.startswith("was "):
            rest = "were " + rest[4:]
        return "you " + rest
    return words


def lost_text(names: Names, seat: int, reason: str) -> str:
    """That a player lost the game, and why (rule 104.3): ``you lost: you conceded``,
    ``Bob lost: Bob has 0 or less life``, ``Bob lost the game to Door to Nothingness``
    (104.3e: the reason says it whole), ``Bob lost the game`` (no reason given)."""
    who = seat_name(names, seat)
    why = reason_words(names, reason)
    if not why:
        return f"{who} lost the game"
    if why.startswith(f"{who} lost the game"):
        return why
    return f"{who} lost: {why}"


def result_text(names: Names, winners: Iterable[int], reason: str) -> str:
    """How a game ended: ``you won (Bob conceded)``, ``Bob won (you have 0 or less life)``
    or a draw (rule 104.4a: ``The game is a draw (...)``), the reason in the viewer's words
    (:func:`reason_words`)."""
    winners = list(winners)
    if not winners:
        # (the server's reason for a draw may say so: "draw: ...", "...: a draw")
        reason = reason.removeprefix("draw: ").removesuffix(": a draw")
    said = reason_words(names, reason)
    why = f" ({said})" if said else ""
    if not winners:
        return f"The game is a draw{why}"
    return f"{', '.join(seat_name(names, s) for s in winners)} won{why}"


def countered_text(names: Names, c: pb.CounteredEvent) -> str:
    """Rule 701.6a (2009: 701.5a): "Your Shock was countered by Miscast (you couldn't pay
    {3})" -- whose, by what, and the "unless ... pays" cost not paid (118.12a) or declined; as
    the web client's ``counteredLine``."""
    whose = "Your" if c.controller == names.viewer else f"{names.player(c.controller)}'s"
    what = f"{c.name or 'card'}'s ability" if c.ability else c.name or "spell"
    line = f"{whose} {what} was countered"
    if c.by_name:
        line += f" by {c.by_name}'s ability" if c.by_ability else f" by {c.by_name}"
    if c.unless_cost:
        who = seat_name(names, c.controller)
        line += f" ({who} declined to pay {c.unless_cost})" if c.declined else \
            f" ({who} couldn't pay {c.unless_cost})"
    return line


def _was_creature(names: Names, object_id: str) -> bool:
    """Whether the object was a creature as last seen (rule 700.4: a creature "dies")."""
    obj = names.object(object_id) if object_id else None
    return obj is not None and "Creature" in obj.card_types


def events_text(names: Names, events: Iterable[pb.GameEvent], *, mulligans: bool
                ) -> list[str]:
    """The lines of events that happened in this order (a delta's, a snapshot's recent
    ones), leaving out those not worth one (:func:`event_text`). ``mulligans``: they
    happened during the mulligans (rule 103.5), where a card going from a hand into its
    library is a mulligan's hand shuffled away -- after "took a mulligan", until that player
    draws the new hand -- or else a card put on the bottom, which read "put a card from
    your hand into your library" (a new player's review); as ``web/src/describe.ts``'s
    ``eventLines`` tells them apart."""
    return [text for text in event_lines(names, events, mulligans=mulligans) if text is not None]


def event_lines(names: Names, events: Iterable[pb.GameEvent], *, mulligans: bool,
                casts: dict[str, bool] | None = None) -> list[str | None]:
    """:func:`events_text`'s lines, one an event: None for one not worth a line. ``casts``:
    the spells on the stack whose casting the log saw begin (601.2a: a card put on the stack
    from a hand), by id -- True once cast (a ``spell_cast`` event named it, 601.2i), False
    while not -- kept here as the events are read, over the calls (a :class:`Board`'s). A
    spell leaving the stack for its owner's hand uncast is a cast taken back (733.1): "you
    took back Shock", not "your Shock returned to your hand from the stack", which read as
    a bounce (a new player's review, round 12); one whose casting the log didn't see begin
    is told as a return. As ``web/src/describe.ts``'s ``eventLines``."""
    shuffling: set[int] = set()
    countered: set[str] = set()
    lines: list[str | None] = []
    events = list(events)
    picked = _picked_from_libraries(events)
    for index, event in enumerate(events):
        kind = event.WhichOneof("kind")
        z = event.zone_change
        if casts is not None:
            if kind == "zone_change" and z.from_zone == pb.ZONE_KIND_HAND \
                    and z.to_zone == pb.ZONE_KIND_STACK and z.new_id:
                casts[z.new_id] = False  # 601.2a: casting begun
            elif kind == "spell_cast" and event.spell_cast.object_id in casts:
                casts[event.spell_cast.object_id] = True  # 601.2i
        leaves_stack = kind == "zone_change" and z.from_zone == pb.ZONE_KIND_STACK
        taken_back = casts is not None and leaves_stack and z.to_zone == pb.ZONE_KIND_HAND \
            and casts.get(z.old_id) is False
        if leaves_stack and casts is not None:
            casts.pop(z.old_id, None)  # a spell off the stack is a new object (400.7)
        if kind == "countered" and event.countered.object_id:
            countered.add(event.countered.object_id)
        elif kind == "zone_change" and z.old_id in countered:
            lines.append(None)  # the countered spell into its graveyard (701.6a): "countered"
            continue
        if kind == "mulligan_taken":
            shuffling.add(event.mulligan_taken.seat)
        elif kind == "card_drawn":
            shuffling.discard(event.card_drawn.seat)
        if taken_back:
            lines.append(f"{seat_name(names, z.owner)} took back {z.name or 'a card'}")
            continue
        if _library_to_graveyard(event):
            # Cards put from a library into its owner's graveyard together: one line
            # naming them all, on the run's first event ("Ann milled 2 cards: Plains,
            # Shock", 701.17a); none on the others.
            if index and _library_to_graveyard(events[index - 1]) and \
                    events[index - 1].zone_change.owner == z.owner:
                lines.append(None)
                continue
            run = [z]
            for later in events[index + 1:]:
                if not _library_to_graveyard(later) or later.zone_change.owner != z.owner:
                    break
                run.append(later.zone_change)
            lines.append(library_to_graveyard_text(names, run, milled=not picked))
            continue
        bottom = mulligans and kind == "zone_change" and z.from_zone == pb.ZONE_KIND_HAND \
            and z.to_zone == pb.ZONE_KIND_LIBRARY and z.owner not in shuffling
        lines.append(event_text(names, event, bottom=bottom))
    return lines


def _library_to_graveyard(event: pb.GameEvent) -> bool:
    return event.WhichOneof("kind") == "zone_change" and \
        event.zone_change.from_zone == pb.ZONE_KIND_LIBRARY and \
        event.zone_change.to_zone == pb.ZONE_KIND_GRAVEYARD


def _picked_from_libraries(events: Sequence[pb.GameEvent]) -> bool:
    """Whether ``events`` (a delta's) hold a card found or picked from a library -- a
    search (701.23), a card put into a hand from among those looked at or revealed (Waker
    of Waves, Fact or Fiction's piles) -- beside which cards put from a library into a
    graveyard aren't milled (701.17a) but the rest of what was looked at: more cards moved
    from a library to a hand than were drawn (121.1: each draw says itself)."""
    moved: dict[int, int] = {}
    for event in events:
        kind = event.WhichOneof("kind")
        if kind == "library_searched":
            return True
        if kind == "zone_change" and event.zone_change.from_zone == pb.ZONE_KIND_LIBRARY \
                and event.zone_change.to_zone == pb.ZONE_KIND_HAND:
            moved[event.zone_change.owner] = moved.get(event.zone_change.owner, 0) + 1
        elif kind == "card_drawn":
            moved[event.card_drawn.seat] = moved.get(event.card_drawn.seat, 0) - 1
    return any(n > 0 for n in moved.values())


def library_to_graveyard_text(names: Names, moved: Sequence[pb.ZoneChangeEvent], *,
                              milled: bool) -> str:
    """Cards of one player's library put into their graveyard together (a public zone:
    each is named), in one line: milled (rule 701.17a: "Ann milled Plains", "you milled 2
    cards: Plains, Shock") -- or, beside a card found or picked from that library
    (``milled`` False), the rest of what was looked at, put there ("Ann put Shock from
    their library into their graveyard")."""
    owner = moved[0].owner
    who = seat_name(names, owner)
    cards = [z.name or "a card" for z in moved]
    what = cards[0] if len(cards) == 1 else f"{len(cards)} cards"
    listed = f": {', '.join(cards)}" if len(cards) > 1 else ""
    if milled:
        return f"{who} milled {what}{listed}"
    their = "your" if owner == names.viewer else "their"
    return f"{who} put {what} from {their} library into {their} graveyard{listed}"


def resolution_end(events: Sequence[pb.GameEvent]) -> int:
    """Where a resolving spell's effects end among ``events`` (a delta's): the index of the
    spell put from the stack into its owner's graveyard (or exiled, or put into a library)
    -- the last step of its resolving, after its instructions are followed (rule 608.2n) --
    the last such move of the delta (a counterspell's target goes before it, 701.6a); -1
    if none. What the view alone tells of the effects (a pump's new power and toughness, a
    permanent tapped) is said before that line: "Titanic Growth moved ... to your graveyard"
    before "Grizzly Bears is now 6/6" read as if the spell had left first. As
    ``web/src/describe.ts``'s ``resolutionEnd``. (A permanent spell entering the battlefield
    is its resolving, 608.3: what changes with it follows it; a cast taken back returns to
    the hand, 733.1, resolving nothing.)"""
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        if event.WhichOneof("kind") == "zone_change" and \
                event.zone_change.from_zone == pb.ZONE_KIND_STACK and \
                event.zone_change.to_zone in (pb.ZONE_KIND_GRAVEYARD, pb.ZONE_KIND_EXILE,
                                              pb.ZONE_KIND_LIBRARY):
            return index
    return -1


def event_text(names: Names, event: pb.GameEvent, *, bottom: bool = False) -> str | None:
    """One event in plain words, or None for an event not worth a line. ``bottom``: a card
    from a hand into its library is one put on the bottom (:func:`events_text`)."""
    kind = event.WhichOneof("kind")
    if kind == "zone_change":
        z = event.zone_change
        if z.from_zone == pb.ZONE_KIND_UNSPECIFIED or (
                z.from_zone == pb.ZONE_KIND_LIBRARY and z.to_zone == pb.ZONE_KIND_HAND):
            return None  # a new object, or a draw (card_drawn says it)
        if z.from_zone == pb.ZONE_KIND_HAND and z.to_zone == pb.ZONE_KIND_STACK:
            return None  # cast (601.2a): spell_cast says it, with who cast it
        whose = "your" if z.owner == names.viewer else f"{names.player(z.owner)}'s"
        entered = names.object(z.new_id) if z.new_id else None
        if z.from_zone == pb.ZONE_KIND_HAND and z.to_zone == pb.ZONE_KIND_BATTLEFIELD \
                and entered is not None and "Land" in entered.card_types:
            return f"{seat_name(names, entered.controller)} played {z.name or 'a land'}"  # 305
        if z.from_zone == pb.ZONE_KIND_BATTLEFIELD and z.to_zone == pb.ZONE_KIND_GRAVEYARD \
                and z.name and _was_creature(names, z.old_id):
            return f"{whose} {z.name} died"  # rule 700.4
        if z.from_zone == pb.ZONE_KIND_HAND and z.to_zone == pb.ZONE_KIND_GRAVEYARD:
            return f"{seat_name(names, z.owner)} discarded {z.name or 'a card'}"  # 701.9a
        if z.from_zone == pb.ZONE_KIND_HAND and z.to_zone == pb.ZONE_KIND_LIBRARY:
            # A mulligan's hand shuffled away and the cards put on the bottom (103.5), a
            # "put ... from your hand on top": one line however many cards, for each player.
            their = "your" if z.owner == names.viewer else "their"
            if bottom:  # rule 103.5
                return f"{seat_name(names, z.owner)} put a card on the bottom of {their} library"
            return f"{seat_name(names, z.owner)} put a card from {their} hand into {their} library"
        if z.from_zone == pb.ZONE_KIND_LIBRARY and z.to_zone == pb.ZONE_KIND_GRAVEYARD:
            # (alone: milled or not, it can't tell -- :func:`event_lines` tells a delta's)
            return library_to_graveyard_text(names, [z], milled=False)
        what = f"{whose} {z.name or 'card'}"
        if z.to_zone == pb.ZONE_KIND_BATTLEFIELD:
            return f"{what} entered the battlefield"  # e.g. a permanent spell resolved (608.3)
        if z.to_zone == pb.ZONE_KIND_EXILE:
            return f"{what} was exiled from {_where(names, z.from_zone, z.owner)}"  # 406.3
        if z.to_zone == pb.ZONE_KIND_HAND and z.from_zone in (pb.ZONE_KIND_BATTLEFIELD,
                                                               pb.ZONE_KIND_STACK):
            # A bounce, or a spell returned -- or a cast taken back (cancel_cast, 733.1) whose
            # casting the log didn't see begin (:func:`event_lines` says those it saw).
            return f"{what} returned to " + (
                "your hand" if z.owner == names.viewer else "its owner's hand") + (
                " from the stack" if z.from_zone == pb.ZONE_KIND_STACK else "")
        return (f"{what} moved from {_where(names, z.from_zone, z.owner)} to "
                f"{_where(names, z.to_zone, z.owner)}")
    if kind == "damage":
        d = event.damage
        return (f"{whose_name(names, d.source_id)} dealt {d.amount} damage to "
                f"{_recipient(names, d)}")
    if kind == "player_lost":
        return lost_text(names, event.player_lost.seat, event.player_lost.reason)
    if kind == "spell_cast":  # 601.2i, with its targets (601.2c)
        return f"{seat_name(names, event.spell_cast.controller)} cast " \
               f"{event.spell_cast.name or 'a spell'}" + \
               _targeting(names, event.spell_cast.targets)
    if kind == "ability":  # 602.2i activated, 603.3 triggered: put on the stack
        a = event.ability
        said = f" ({_clipped(a.text)})" if a.text else ""
        if a.triggered:
            whose = "your" if a.controller == names.viewer else \
                f"{names.player(a.controller)}'s"
            return f"{whose} {a.name or 'card'} triggered{said}" + \
                _targeting(names, a.targets)
        return f"{seat_name(names, a.controller)} activated {a.name or 'a card'}{said}" + \
            _targeting(names, a.targets)
    if kind == "countered":
        return countered_text(names, event.countered)
    if kind == "card_drawn":
        return f"{seat_name(names, event.card_drawn.seat)} drew a card"
    if kind == "token_created":
        t = event.token_created
        return f"{seat_name(names, t.controller)} created {token_words(t.name)}"
    if kind == "attackers_declared":  # rule 508.1: each attacker and what it attacks
        declared = event.attackers_declared
        ids = declared.attacker_ids
        if not ids:
            return "No attackers"
        attacked: dict[str, list[str]] = {}
        told = len(declared.defenders) == len(ids)  # (an older server's: read the objects)
        for n, oid in enumerate(ids):
            obj = names.object(oid)
            if told:
                walker = declared.planeswalker_ids[n] if n < len(
                    declared.planeswalker_ids) else ""
                whom = object_name(names, walker) if walker else \
                    seat_name(names, declared.defenders[n])
            else:
                whom = "" if obj is None or not obj.HasField("attacking") else \
                    object_name(names, obj.attacking_planeswalker) \
                    if obj.attacking_planeswalker else seat_name(names, obj.attacking)
            attacked.setdefault(whom, []).append(whose_name(names, oid))
        return "; ".join((f"Attacking {whom}: " if whom else "Attacking: ") + ", ".join(group)
                         for whom, group in attacked.items())
    if kind == "blockers_declared":
        blocks = event.blockers_declared.blocks
        if not blocks:
            return "No blockers"
        return "Blocks: " + "; ".join(f"{whose_name(names, b.blocker_id)} blocks "
                                      f"{whose_name(names, b.attacker_id)}" for b in blocks)
    if kind == "cards_revealed":
        r = event.cards_revealed
        return f"{'Revealed' if r.to_everyone else 'You look at'}: " + \
            ", ".join(c.name for c in r.cards)
    if kind == "library_searched":
        s = event.library_searched
        whose = "your" if s.owner == names.viewer else "their" if s.owner == s.seat \
            else f"{names.player(s.owner)}'s"
        # (found cards are named only if revealed, 701.23e: their count, in words)
        found = "nothing" if s.found == 0 else "a card" if s.found == 1 else f"{s.found} cards"
        return f"{seat_name(names, s.seat)} searched {whose} library and found {found}"
    if kind == "clash":
        c = event.clash
        won = f"{seat_name(names, c.winner)} won" if c.HasField("winner") else "nobody won"
        return f"Clash: {won}"
    if kind == "life_changed":  # rule 119.3 (damage says itself, 120.3a)
        change = event.life_changed
        verb = "gained" if change.amount > 0 else "lost"
        return f"{seat_name(names, change.seat)} {verb} {abs(change.amount)} life"
    if kind == "life_exchanged":
        seats = " and ".join(seat_name(names, s) for s in event.life_exchanged.seats)
        return f"{seats} exchanged life totals"
    if kind == "starting_player_chosen":  # rule 103.1
        chosen = event.starting_player_chosen
        if chosen.chooser == chosen.starting:
            return f"{seat_name(names, chosen.chooser)} chose to play first"
        return (f"{seat_name(names, chosen.chooser)} chose {seat_name(names, chosen.starting)} "
                f"to play first")
    if kind == "mulligan_taken":  # rule 103.5
        taken = event.mulligan_taken
        return f"{seat_name(names, taken.seat)} took a mulligan" + (
            f" ({ordinal(taken.number)})" if taken.number > 1 else "")
    # Rules 700.13, 700.14: true of nearly every game, worth a line only when a card in view
    # cares ("whenever you commit a crime", "whenever you expend 4").
    if kind == "crime":
        return f"{seat_name(names, event.crime.seat)} committed a crime" \
            if names.mentions("crime") else None
    if kind == "expend":
        return f"{seat_name(names, event.expend.seat)} expended {event.expend.amount}" \
            if names.mentions("expend") else None
    if kind == "game_ended":
        return result_text(names, event.game_ended.winners, event.game_ended.reason)
    return None


def _targeting(names: Names, targets: Iterable[pb.Target]) -> str:
    """`` targeting Bob and Grizzly Bears`` (601.2c), or nothing."""
    said = [target_text(names, t) for t in targets]
    if not said:
        return ""
    return " targeting " + (said[0] if len(said) == 1
                            else ", ".join(said[:-1]) + " and " + said[-1])


#: The most of an ability's text a log line quotes.
ABILITY_WORDS = 60


#: Reminder text: words in parentheses (rule 207.2).
_REMINDER = re.compile(r"\s*\([^()]*\)")


def plain_symbols(text: str) -> str:
    """Rules text with the tap and untap symbols said in words (rule 107.5, 107.6):
    ``{T}: Add {G}.`` -> ``Tap: Add {G}.`` (mana symbols stay, as in mana costs)."""
    return text.replace("{T}", "Tap").replace("{Q}", "Untap")


def _clipped(text: str) -> str:
    """An ability's text for a log line: its first :data:`ABILITY_WORDS` characters, without
    reminder text (a keyword's alone: ``Prowess``, not ``Prowess (Whenever you cast a
    noncreature spell, this crea...`` cut short) and with {T} said ``Tap``; as the browser
    client's ``clipped``."""
    bare = _REMINDER.sub("", text).strip()
    text = plain_symbols(" ".join((bare or text).split()))
    return text if len(text) <= ABILITY_WORDS else text[:ABILITY_WORDS - 3].rstrip() + "..."


def token_words(name: str) -> str:
    """``a Knight token``; a token whose name says so already reads ``a Treasure Token``
    (rule 111.4: a token's name is its subtypes plus "Token", for many); ``an Angel token``
    before a vowel (it read "a Angel Token")."""
    if not name:
        return "a token"
    article = "an" if name[0].lower() in "aeiou" else "a"
    return f"{article} {name}" if name.lower().endswith(" token") else f"{article} {name} token"
