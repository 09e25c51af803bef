"""Objects chosen as an effect is performed (rules 608.2c-d): "untap up to four lands", "tap
any number of untapped creatures you control", "return an instant or sorcery card from your
graveyard to your hand" -- not targets (115.10), so they are chosen during resolution, one at
a time, and the controller may stop whenever they like ("up to"). The choice reuses
``CHOOSE_CARD``: a :class:`ChooseCard` per object, :class:`Decline` to stop.

"Choose a color" (rule 105.4) is the ``CHOOSE_COLOR`` decision: one :class:`ChooseColor` per
color; the resolution remembers it for "the color of your choice" / "the chosen color".

Only the controller sees the decision, and it offers only objects in public zones or in the
controller's own hand (:mod:`server.view` refuses any other), so it reveals nothing.
"""

from __future__ import annotations

from server.cards.verbs import Effect
from server.engine.actions import Action, ChooseCard, ChooseColor, ChooseName, Decline
from server.engine.state import Choice, DecisionKind, Game
from server.engine.zones import AS_ENTERS

#: The colors (rule 105.1), as mana letters (105.2 order: white, blue, black, red, green).
COLORS = ("W", "U", "B", "R", "G")

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


def start_color(game: Game, seat: int) -> None:
    """``seat`` chooses a color as the effect is performed (rules 105.4, 608.2d)."""
    game.choices.insert(0, Choice(DecisionKind.CHOOSE_COLOR, seat))


def color_options() -> tuple[Action, ...]:
    """One option per color (105.4: colorless isn't a color)."""
    return tuple(ChooseColor(c) for c in COLORS)


def answer_color(game: Game, choice: Choice, action: Action) -> None:
    """Remember the color for the rest of the resolution (608.2c)."""
    game.choices.remove(choice)
    if isinstance(action, ChooseColor) and game.resolving is not None:
        game.resolving.color = action.color


def start_name(game: Game, seat: int, names: tuple[str, ...]) -> None:
    """``seat`` chooses one of ``names`` as the effect is performed (608.2d): "your choice of
    deathtouch or lifelink"."""
    game.choices.insert(0, Choice(DecisionKind.CHOOSE_NAME, seat, list(names)))


def name_options(choice: Choice) -> tuple[Action, ...]:
    """One option per name offered."""
    return tuple(ChooseName(n) for n in choice.pool)


def answer_name(game: Game, choice: Choice, action: Action) -> None:
    """Remember the name for the rest of the resolution (608.2c)."""
    game.choices.remove(choice)
    if not isinstance(action, ChooseName):
        return
    if choice.group[:1] == [AS_ENTERS]:  # a permanent naming a card as it enters (614.12a)
        named = game.objects.get(choice.group[1])
        if named is not None:
            named.chosen_name = action.name
    elif game.resolving is not None:
        game.resolving.name = action.name
