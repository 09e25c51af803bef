"""How the card pool uses the behaviour vocabulary (issue 13).

The vocabulary is the closed enums of :mod:`server.cards.model` (verbs, conditions, trigger
events, counts, player sets, ...). For each, :func:`usage` finds which members the cards use
and which cards use each, by walking every card's loaded definition (its abilities, effects,
filters, tokens and emblems). A term that serves exactly one card is a phrase rather than a
concept: ``manawire cards --vocabulary`` prints how many there are of each kind, to watch the
vocabulary grow by concept.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import Enum

from server.cards.model import (
    Affects,
    CardDef,
    Condition,
    Controller,
    CostKind,
    Count,
    DamageKind,
    Recipient,
    ReplacementKind,
    Rounding,
    StickerKind,
    TargetKind,
    TriggerEvent,
    TriggerStep,
    TriggerSubject,
    Verb,
    Who,
)

#: The vocabularies counted, in the order they are printed.
VOCABULARIES: tuple[type[Enum], ...] = (
    Verb, Condition, TriggerEvent, TriggerSubject, TriggerStep, Count, Who, TargetKind,
    Affects, ReplacementKind, CostKind, Recipient, DamageKind, Controller, StickerKind, Rounding)


def _terms(value: object, seen: set[int]) -> Iterator[Enum]:
    """Every vocabulary term reachable from ``value`` (dataclasses, containers, enums)."""
    if isinstance(value, Enum):
        if type(value) in VOCABULARIES:
            yield value
        return
    if isinstance(value, (str, int, float, bytes, type(None))):
        return
    if id(value) in seen:
        return
    seen.add(id(value))
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


def terms_of(card: CardDef) -> frozenset[Enum]:
    """The vocabulary terms a card's definition uses (its tokens' and emblems' included)."""
    return frozenset(_terms(card, set()))


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """One vocabulary's use by a card pool."""

    kind: type[Enum]
    #: Each used member, with the names of the cards that use it (sorted).
    users: dict[Enum, tuple[str, ...]]

    @property
    def single_use(self) -> tuple[Enum, ...]:
        """The members exactly one card uses."""
        return tuple(m for m, names in self.users.items() if len(names) == 1)

    @property
    def unused(self) -> tuple[Enum, ...]:
        return tuple(m for m in self.kind if m not in self.users)


def usage(pool: Mapping[str, CardDef]) -> tuple[Vocabulary, ...]:
    """How the cards of ``pool`` use each vocabulary of :data:`VOCABULARIES`."""
    users: dict[Enum, list[str]] = {}
    for name in sorted(pool):
        for term in terms_of(pool[name]):
            users.setdefault(term, []).append(name)
    return tuple(
        Vocabulary(kind, {m: tuple(users[m]) for m in kind if m in users})
        for kind in VOCABULARIES)
