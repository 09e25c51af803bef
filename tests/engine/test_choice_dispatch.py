"""The options of a pending choice come from one exhaustive dispatch over DecisionKind
(rule 608.2d decisions, and the game's own: mulligans 103.5, the legend rule 704.5j, ...):
every kind posed as a Choice reaches the module that posed it; the kinds the game poses
through its state (priority 117, casting 601.2, combat 508-510) are never a Choice."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest

from server.engine import counting, game, looking, madness, unless, zone_rules
from server.engine.actions import Action
from server.engine.state import Choice, DecisionKind, Game
from tests.engine.helpers import demo_game

_MODULES: tuple[ModuleType, ...] = (looking, counting, zone_rules, madness, unless)
_NOT_CHOICES = {DecisionKind.PRIORITY, DecisionKind.CHOOSE_X, DecisionKind.CHOOSE_TARGET,
                DecisionKind.DECLARE_ATTACKERS, DecisionKind.DECLARE_BLOCKERS,
                DecisionKind.ASSIGN_COMBAT_DAMAGE, DecisionKind.CHOOSE_MODE,
                DecisionKind.CHOOSE_COST}


def _options(state: Game, kind: DecisionKind) -> tuple[Action, ...]:
    return game._choice_options(state, Choice(kind, state.active, []))


def test_608_2d_each_modules_kinds_reach_its_options(monkeypatch: pytest.MonkeyPatch) -> None:
    # The answer dispatch (_perform_choice) routes by each module's KINDS; the options
    # dispatch must send exactly those kinds to the same module.
    routed: dict[DecisionKind, str] = {}

    def recorder(name: str) -> Callable[[Game, Choice], tuple[Action, ...]]:
        def record(_game: Game, choice: Choice) -> tuple[Action, ...]:
            routed[choice.kind] = name
            return ()
        return record
    for module in _MODULES:
        monkeypatch.setattr(module, "options", recorder(module.__name__))
    state = demo_game()
    expected = {kind: module.__name__ for module in _MODULES for kind in module.KINDS}
    for kind in expected:
        _options(state, kind)
    assert routed == expected


def test_the_states_own_decisions_are_never_a_pending_choice() -> None:
    state = demo_game()
    for kind in _NOT_CHOICES:
        with pytest.raises(AssertionError, match="not a pending choice"):
            _options(state, kind)
