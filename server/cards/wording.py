"""A target requirement in words (rules 115.1-115.4): the noun phrase after the word
"target" -- "any target", "target creature you control", "target opponent", "target
instant or sorcery spell", "target creature card from your graveyard" -- made from what the
engine checks (the :class:`~server.cards.model.TargetReq`), so a prompt says what a choice
will accept, not a guess from the printed text."""

from __future__ import annotations

from typing import assert_never

from server.cards.model import Controller, ObjectFilter, TargetKind, TargetReq

_COLORS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}  # rule 105.1
#: "Any target" (rule 115.4): a player, or a creature, planeswalker or battle.
_ANY = ("Creature", "Planeswalker", "Battle")


def target_words(req: TargetReq) -> str:
    """One target of ``req`` in words, from its controller's point of view: "any target",
    "another target creature you control", "target player or planeswalker"."""
    spec = req.filter
    target = "another target" if req.other_target or spec.other else "target"
    match req.kind:
        case TargetKind.PLAYER:
            return {Controller.YOU: "you", Controller.OPPONENT: "target opponent",
                    Controller.ANY: "target player",
                    Controller.THAT_PLAYER: "that player"}[spec.controller]
        case TargetKind.PLAYER_OR_PERMANENT:
            if spec.card_types == _ANY and _plain(spec):
                return "any target"
            return f"{target} player or {_object(spec, 'permanent')}"
        case TargetKind.PERMANENT:
            return f"{target} {_object(spec, 'permanent')}"
        case TargetKind.SPELL:
            return f"{target} {_object(spec, '', noun='spell')}"
        case TargetKind.SPELL_OR_PERMANENT:
            return f"{target} spell or {_object(spec, 'permanent')}"
        case TargetKind.CARD_IN_GRAVEYARD:
            whose = {Controller.YOU: "your graveyard", Controller.OPPONENT:
                     "an opponent's graveyard", Controller.ANY: "a graveyard",
                     Controller.THAT_PLAYER: "that player's graveyard"}[spec.controller]
            return f"{target} {_object(spec, '', noun='card', controlled=False)} from {whose}"
        case TargetKind.ABILITY:
            made = " that was activated this turn" if spec.activated_this_turn else ""
            return f"{target} activated or triggered ability{made}"
        case _:
            assert_never(req.kind)


def _plain(spec: ObjectFilter) -> bool:
    """Whether the filter states nothing but its card types and controller."""
    return spec == ObjectFilter(card_types=spec.card_types, controller=Controller.ANY)


def _or(words: list[str]) -> str:
    """"a", "a or b", "a, b, or c"."""
    if len(words) <= 2:
        return " or ".join(words)
    return ", ".join(words[:-1]) + ", or " + words[-1]


def _object(spec: ObjectFilter, default: str, *, noun: str = "",
            controlled: bool = True) -> str:
    """The filter as a noun phrase: adjectives, the types (else ``default``), ``noun``,
    then "you control" and the "with ..." qualities."""
    before = [
        *(["tapped"] if spec.tapped else []), *(["untapped"] if spec.untapped else []),
        *(["attacking"] if spec.attacking else []), *(["blocking"] if spec.blocking else []),
        *(["modified"] if spec.modified else []), *(["token"] if spec.token else []),
        *(["nontoken"] if spec.nontoken else []),
        *([_or([_COLORS.get(c, c) for c in spec.colors])] if spec.colors else []),
        *(["colored"] if spec.colored else []),
        *([_or([s.lower() for s in spec.supertypes])] if spec.supertypes else []),
        *([f"non{t.lower()}" for t in spec.not_types]),
        *([f"non-{t}" for t in spec.not_subtypes]),
    ]
    kinds = _or([t.lower() for t in spec.card_types])
    if spec.subtypes:
        kinds = f"{_or(list(spec.subtypes))} {kinds}".strip()
    head = " ".join(w for w in (*before, kinds or default, noun) if w)
    after = []
    if controlled and spec.controller is Controller.YOU:
        after.append("you control")
    elif controlled and spec.controller is Controller.OPPONENT:
        after.append("an opponent controls")
    elif controlled and spec.controller is Controller.THAT_PLAYER:
        after.append("that player controls")
    for word, low, high in (("power", spec.min_power, spec.max_power),
                            ("toughness", spec.min_toughness, spec.max_toughness),
                            ("mana value", spec.min_mana_value, spec.max_mana_value)):
        if low is not None:
            after.append(f"with {word} {low} or greater")
        if high is not None:
            after.append(f"with {word} {high} or less")
    if spec.max_mana_value_x:
        after.append("with mana value X or less")
    if spec.has:
        after.append(f"with {spec.has.lower()}")
    if spec.lacks:
        after.append(f"without {spec.lacks.lower()}")
    if spec.with_counter:
        after.append(f"with a {spec.with_counter} counter on it" if spec.min_counters <= 1
                     else f"with {spec.min_counters} or more {spec.with_counter} counters "
                          "on it")
    if spec.cast_from:
        after.append("cast from anywhere other than its owner's hand"
                     if spec.cast_from == "not_hand" else f"cast from a {spec.cast_from}")
    return " ".join([head, *after])
