"""The engine's shortcuts in building a decision's options decide exactly what the long way
does: whole games of random legal choices play out identically with each shortcut turned
off (the decisions, every option and every event)."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from server.cards import demo_deck_names
from server.cards.model import CardDef, TargetReq
from server.engine import Game, casting, game, targeting
from server.engine.events import Event
from server.engine.targeting import different_targets_possible, target_candidates
from tests.engine.helpers import demo_trace


def _pair(seed: int) -> tuple[str, ...]:
    """The demo decks of game ``seed``: two players, and three in every fourth game (where
    passes in succession take two players to move priority on, 117.3d)."""
    decks = sorted(demo_deck_names())
    seats = 3 if seed % 4 == 3 else 2
    return tuple(decks[(seed * (2 * k + 1) + k) % len(decks)] for k in range(seats))


@pytest.fixture(scope="module", params=range(4))
def seed(request: pytest.FixtureRequest) -> int:
    """Game ``seed`` (module-scoped, so each game's tests run one after another and share
    :func:`shortcuts_on`)."""
    param: int = request.param
    return param


@pytest.fixture(scope="module")
def shortcuts_on(seed: int) -> Iterator[tuple[list[object], int]]:
    """Game ``seed`` as the engine plays it, every shortcut on, and how many passes moved
    priority on at once (117.3d's shortcut): played once for the four tests below, which
    each played it again before its long way."""
    moved_on = 0
    real = game._pass_priority

    def counting(played: Game, seat: int, events: list[Event]) -> bool:
        nonlocal moved_on
        done = real(played, seat, events)
        moved_on += done
        return done

    game._pass_priority = counting  # type: ignore[assignment]
    try:
        short = list(demo_trace(seed, _pair(seed), 3000))
    finally:
        game._pass_priority = real
    yield short, moved_on


def test_117_3d_a_pass_moving_priority_on_decides_as_advancing_the_game_would(
        seed: int, shortcuts_on: tuple[list[object], int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules 117.3d, 704.3: after a pass that isn't the last in succession, the next
    player's priority decision follows at once -- the same one the full checks give."""
    short, moved_on = shortcuts_on
    assert moved_on > 50  # the shortcut was taken, often
    real = game._pass_priority

    def the_long_way(played: Game, seat: int, events: list[Event]) -> bool:
        real(played, seat, events)
        return False  # so the game advances through every check

    monkeypatch.setattr(game, "_pass_priority", the_long_way)
    assert list(demo_trace(seed, _pair(seed), 3000)) == short


def test_601_2g_a_card_ruled_out_by_its_mana_value_could_not_have_been_cast(
        seed: int, shortcuts_on: tuple[list[object], int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules 601.2f-h: with nothing to lower a cost or to add mana for some spells only, a
    card costing more than all the mana its player could have isn't offered -- as the full
    castability test finds."""
    short, _moved_on = shortcuts_on
    monkeypatch.setattr(casting, "most_for_any_spell", lambda played, seat, pool: None)
    assert list(demo_trace(seed, _pair(seed), 3000)) == short


def _every_candidate(played: Game, reqs: tuple[TargetReq, ...], controller: int,
                     source_id: str | None = None, *, source: CardDef | None = None,
                     other_than: str | None = None) -> bool:
    """Rules 601.2c, 115.1, 115.3: the long way -- every candidate of every requirement
    listed, then whether different ones can be chosen where "another" says so."""
    lists = [target_candidates(played, req, controller, source_id, source=source,
                               other_than=other_than) for req in reqs]
    if not all(req.up_to or len(found) >= req.count
               for req, found in zip(reqs, lists, strict=True)):
        return False
    return different_targets_possible(played, reqs, [], controller, source_id, source=source,
                                      other_than=other_than)


def test_115_1_targets_available_stops_at_enough_candidates_and_finds_the_same(
        seed: int, shortcuts_on: tuple[list[object], int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    short, _moved_on = shortcuts_on
    users = [m for name, m in sys.modules.items() if name.startswith("server.engine")
             and getattr(m, "targets_available", None) is targeting.targets_available]
    assert casting in users
    for module in users:
        monkeypatch.setattr(module, "targets_available", _every_candidate)
    assert list(demo_trace(seed, _pair(seed), 3000)) == short



def test_603_3_a_step_beginning_with_only_triggers_goes_on_without_checking_again(
        seed: int, shortcuts_on: tuple[list[object], int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules 603.2-603.3, 703.4: a step whose beginning has no turn-based action changes at
    most the triggered abilities waiting, so the engine goes on to the step's own actions
    without repeating its checks -- as repeating them finds."""
    short, _moved_on = shortcuts_on
    monkeypatch.setattr(game, "_QUIET_BEGINNINGS", frozenset())
    assert list(demo_trace(seed, _pair(seed), 3000)) == short
