"""Objects chosen as an effect is performed (rules 608.2c-d): "untap up to four lands", "tap
any number of untapped creatures you control", "return an instant or sorcery card from your
graveyard to your hand" -- not targets (115.10), so they are chosen during resolution, one at
a time, and the controller may stop whenever they like ("up to"). The choice reuses
``CHOOSE_CARD``: a :class:`ChooseCard` per object, :class:`Decline` to stop.

Only the controller sees the decision, and it offers only objects in public zones or in the
controller's own hand (:mod:`server.view` refuses any other), so it reveals nothing.
"""

from __future__ import annotations

from server.cards.model import Effect
from server.engine.actions import Action, ChooseCard, Decline
from server.engine.state import Choice, DecisionKind, Game

#: Marks a :class:`Choice` of this module (a ``CHOOSE_CARD`` shared with others).
TAG = "chosen"


def start(game: Game, seat: int, pool: list[str], count: int, effect: Effect) -> None:
    """``seat`` chooses up to ``count`` of ``pool`` for ``effect``."""
    game.choices.insert(0, Choice(DecisionKind.CHOOSE_CARD, seat, list(pool), count=count,
                                  effect=effect, optional=True, group=[TAG]))


def owns(choice: Choice) -> bool:
    """Whether this module posed the choice."""
    return choice.kind is DecisionKind.CHOOSE_CARD and choice.group[:1] == [TAG]


def options(choice: Choice) -> tuple[Action, ...]:
    """The next object to choose, or stop (an "up to" choice may stop at any number)."""
    picks = choice.pool if choice.count > 0 else []
    return (*(ChooseCard(oid) for oid in picks), Decline())


def answer(game: Game, choice: Choice, action: Action) -> bool:
    """Record a pick; True (and the choice removed) once the choosing is over."""
    if isinstance(action, ChooseCard):
        choice.picked.append(action.object_id)
        choice.pool.remove(action.object_id)
        choice.count -= 1
        if choice.count > 0 and choice.pool:
            return False
    game.choices.remove(choice)
    return True
