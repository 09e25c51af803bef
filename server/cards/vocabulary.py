"""How the card pool uses the behaviour vocabulary (issue 13).

The vocabulary is the closed enums of :mod:`server.cards.model` and
:mod:`server.cards.amounts` (verbs, conditions, trigger events, counts, player sets, ...) and
the kinds of amount (one record type each, :data:`server.cards.amounts.AMOUNT_KINDS`). For
each, :func:`usage` finds which members the cards use and which cards use each, by walking
every card's loaded definition (its abilities, effects, filters, tokens and emblems). A term
that serves exactly one card is a phrase rather than a concept: ``manawire cards
--vocabulary`` prints how many there are of each kind, to watch the vocabulary grow by
concept.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import Enum

from server.cards.amounts import (
    AMOUNT_KINDS,
    CardZone,
    Measure,
    Of,
    ResolutionFact,
    Trait,
    TurnFactKind,
    Whose,
)
from server.cards.model import (
    Affects,
    CardDef,
    Condition,
    Controller,
    CostKind,
    DamageKind,
    ObjectFilter,
    ObjectRef,
    Players,
    Recipient,
    ReplacementKind,
    Rounding,
    StickerKind,
    TargetKind,
    TriggerEvent,
    TriggerStep,
    TriggerSubject,
    Verb,
)
from server.cards.verbs import EffectBase

#: A vocabulary term: an enum member, or a record type (a kind of amount).
Term = Enum | type

#: The kinds of amount (rule 107.1): a vocabulary of record types rather than an enum.
AMOUNT_TYPES: tuple[type, ...] = tuple(AMOUNT_KINDS.values())

#: The vocabularies counted, in the order they are printed.
VOCABULARIES: tuple[type[Enum] | tuple[type, ...], ...] = (
    Verb, Condition, AMOUNT_TYPES, Whose, CardZone, Measure, Of, Trait, TurnFactKind,
    ResolutionFact, TriggerEvent, TriggerSubject, TriggerStep, Players, ObjectRef, TargetKind,
    Affects, ReplacementKind, CostKind, Recipient, DamageKind, Controller, StickerKind, Rounding)


def vocabulary_name(kind: type[Enum] | tuple[type, ...]) -> str:
    """How a vocabulary is named when printed: its enum's name, "Amount" for the kinds."""
    return "Amount" if isinstance(kind, tuple) else kind.__name__


def term_name(term: Term) -> str:
    """How a term is spelt in card data: an enum member's value, an amount kind's ``KIND``."""
    if isinstance(term, Enum):
        return str(term.value)
    return next(kind for kind, cls in AMOUNT_KINDS.items() if cls is term)


def _terms(value: object, seen: set[int]) -> Iterator[Term]:
    """Every vocabulary term reachable from ``value`` (dataclasses, containers, enums)."""
    if isinstance(value, Enum):
        if type(value) in VOCABULARIES:
            yield value
        return
    if type(value) in AMOUNT_TYPES:
        yield type(value)
    if isinstance(value, (str, int, float, bytes, type(None))):
        return
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, EffectBase):
        yield value.verb  # a class variable: the effect's class is its verb
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _terms(getattr(value, field.name), seen)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _terms(key, seen)
            yield from _terms(item, seen)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from _terms(item, seen)


def terms_of(card: CardDef) -> frozenset[Term]:
    """The vocabulary terms a card's definition uses (its tokens' and emblems' included)."""
    return frozenset(_terms(card, set()))


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """One vocabulary's use by a card pool."""

    kind: type[Enum] | tuple[type, ...]
    #: Each used member, with the names of the cards that use it (sorted).
    users: dict[Term, tuple[str, ...]]

    @property
    def name(self) -> str:
        return vocabulary_name(self.kind)

    @property
    def members(self) -> tuple[Term, ...]:
        return tuple(self.kind)

    @property
    def single_use(self) -> tuple[Term, ...]:
        """The members exactly one card uses."""
        return tuple(m for m, names in self.users.items() if len(names) == 1)

    @property
    def unused(self) -> tuple[Term, ...]:
        return tuple(m for m in self.members if m not in self.users)


def _filters(value: object, seen: set[int]) -> Iterator[ObjectFilter]:
    """Every :class:`ObjectFilter` reachable from ``value`` (as :func:`_terms` walks)."""
    if isinstance(value, ObjectFilter):
        yield value
    if isinstance(value, (str, int, float, bytes, type(None), Enum)) or id(value) in seen:
        return
    seen.add(id(value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _filters(getattr(value, field.name), seen)
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _filters(item, seen)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from _filters(item, seen)


#: The predicates of an object filter: its fields but ``controller`` (every filter has one;
#: its values are the :class:`Controller` vocabulary).
FILTER_PREDICATES = tuple(f.name for f in dataclasses.fields(ObjectFilter)
                          if f.name != "controller")


def filter_usage(pool: Mapping[str, CardDef]) -> dict[str, tuple[str, ...]]:
    """Which cards state each filter predicate (:data:`FILTER_PREDICATES`) in any of their
    filters -- targets, "each", counts, conditions, triggers, statics, costs: the one
    description's use. Predicates no card states are left out."""
    default = ObjectFilter()
    users: dict[str, list[str]] = {}
    for name in sorted(pool):
        stated = {p for spec in _filters(pool[name], set()) for p in FILTER_PREDICATES
                  if getattr(spec, p) != getattr(default, p)}
        for predicate in stated:
            users.setdefault(predicate, []).append(name)
    return {p: tuple(users[p]) for p in FILTER_PREDICATES if p in users}


def usage(pool: Mapping[str, CardDef]) -> tuple[Vocabulary, ...]:
    """How the cards of ``pool`` use each vocabulary of :data:`VOCABULARIES`."""
    users: dict[Term, list[str]] = {}
    for name in sorted(pool):
        for term in terms_of(pool[name]):
            users.setdefault(term, []).append(name)
    return tuple(
        Vocabulary(kind, {m: tuple(users[m]) for m in tuple(kind) if m in users})
        for kind in VOCABULARIES)
