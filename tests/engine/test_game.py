"""Engine unit tests for the walking skeleton; names cite the rules they check."""

from __future__ import annotations

import random

import pytest

from server.cards import DeckError, card, demo_deck, parse_decklist
from server.engine import (
    DecisionKind,
    Game,
    GameObject,
    GameOverError,
    IllegalActionError,
    PlayerSetup,
    Step,
    Zone,
    apply,
    legal_actions,
    new_game,
    replay,
)
from server.engine.actions import (
    ActivateManaAbility,
    AssignCombatDamage,
    CastSpell,
    ChooseStartingPlayer,
    ChooseTarget,
    ChooseX,
    Concede,
    ConcedeReason,
    DeclareAttacker,
    DeclareBlocker,
    Discard,
    FinishAttackers,
    FinishBlockers,
    PassPriority,
    PayMana,
    PlayLand,
    action_from_json,
    action_to_json,
)
from server.engine.mana import potential_pool
from server.view import project
from tests.engine.helpers import demo_game, pass_until, put, refresh, vanilla_deck


def test_103_start_twenty_life_shuffled_sixty_card_libraries_and_seven_card_hands() -> None:
    game = demo_game()
    for p in game.players:
        assert p.life == 20  # 103.4
        assert len(p.hand) == 7  # 103.5
        assert len(p.library) == 53
    assert game.turn == 1 and game.active == game.starting_player
    assert game.step is Step.UPKEEP  # untap has no priority (502.4)
    assert game.pending is not None and game.pending.kind is DecisionKind.PRIORITY


def test_103_3_shuffles_depend_on_the_seed() -> None:
    a = [demo_game(bytes([i]) * 32) for i in range(4)]
    hands = {tuple(g.objects[i].card.name for i in g.players[0].hand) for g in a}
    assert len(hands) > 1


def test_103_8a_starting_player_skips_first_draw_but_not_later_ones() -> None:
    game = demo_game()
    first = game.active
    pass_until(game, Step.PRECOMBAT_MAIN, turn=1)
    assert len(game.player(first).hand) == 7
    pass_until(game, Step.PRECOMBAT_MAIN, turn=2)
    assert len(game.player(1 - first).hand) == 8  # 504.1


def test_305_2_one_land_per_turn_as_a_special_action() -> None:
    game = demo_game()
    pass_until(game, Step.PRECOMBAT_MAIN, turn=1)
    seat = game.active
    land = put(game, seat, "Mountain", Zone.HAND)
    refresh(game)
    lands = [a for a in legal_actions(game, seat) if isinstance(a, PlayLand)]
    assert PlayLand(land.id) in lands
    apply(game, seat, PlayLand(land.id))
    assert game.priority == seat  # 117.3c: special action keeps priority
    assert not any(isinstance(a, PlayLand) for a in legal_actions(game, seat))


def test_illegal_action_raises_typed_error_and_changes_nothing() -> None:
    game = demo_game()
    before = project(game, 0), project(game, 1), game.action_count
    other = 1 - game.pending.seat if game.pending else 0
    with pytest.raises(IllegalActionError):
        apply(game, other, PassPriority())
    with pytest.raises(IllegalActionError):
        apply(game, game.active, PlayLand("no-such-card"))
    assert (project(game, 0), project(game, 1), game.action_count) == before


def _cast_with_mana(game: Game, seat: int, spell_id: str, *, x: int | None = None,
                    target: ChooseTarget | None = None) -> None:
    apply(game, seat, CastSpell(spell_id))
    if x is not None:
        apply(game, seat, ChooseX(x))
    if target is not None:
        apply(game, seat, target)
    _tap_and_pay(game, seat)


def _tap_and_pay(game: Game, seat: int) -> None:
    """Activate mana abilities until the cost can be paid (601.2g), then pay (601.2h)."""
    while not (pay := [a for a in legal_actions(game, seat) if isinstance(a, PayMana)]):
        apply(game, seat, next(a for a in legal_actions(game, seat)
                               if isinstance(a, ActivateManaAbility)))
    apply(game, seat, pay[0])


def _main_with(game: Game, lands: int, *cards: str) -> tuple[int, list[GameObject]]:
    pass_until(game, Step.PRECOMBAT_MAIN, turn=1)
    seat = game.active
    for _ in range(lands):
        put(game, seat, "Mountain", Zone.BATTLEFIELD)
    objs = [put(game, seat, name, Zone.HAND) for name in cards]
    refresh(game)
    return seat, objs


def test_601_shock_any_target_kills_creature_704_5g_and_new_ids_400_7() -> None:
    game = demo_game()
    seat, (shock,) = _main_with(game, 1, "Shock")
    ogre = put(game, 1 - seat, "Walking Corpse", Zone.BATTLEFIELD)
    refresh(game)
    _cast_with_mana(game, seat, shock.id, target=ChooseTarget(object_id=ogre.id))
    assert shock.id not in game.objects  # moved to the stack as a new object (400.7)
    assert len(game.stack) == 1 and game.priority == seat  # 117.3c
    apply(game, seat, PassPriority())
    apply(game, 1 - seat, PassPriority())  # 405.5: all passed -> resolve
    assert ogre.id not in game.objects
    graveyard = [game.objects[i].card.name for i in game.player(1 - seat).graveyard]
    assert graveyard == ["Walking Corpse"]
    assert [game.objects[i].card.name for i in game.player(seat).graveyard] == ["Shock"]


def test_120_3a_shock_to_a_player_is_life_loss() -> None:
    game = demo_game()
    seat, (shock,) = _main_with(game, 1, "Shock")
    _cast_with_mana(game, seat, shock.id, target=ChooseTarget(player=1 - seat))
    apply(game, seat, PassPriority())
    apply(game, 1 - seat, PassPriority())
    assert game.player(1 - seat).life == 18


def test_608_2b_spell_whose_only_target_is_gone_does_not_resolve() -> None:
    game = demo_game()
    seat, (shock, shock2) = _main_with(game, 2, "Shock", "Shock")
    crab = put(game, 1 - seat, "Walking Corpse", Zone.BATTLEFIELD)
    refresh(game)
    _cast_with_mana(game, seat, shock.id, target=ChooseTarget(object_id=crab.id))
    _cast_with_mana(game, seat, shock2.id, target=ChooseTarget(object_id=crab.id))
    for _ in range(2):  # both resolve in turn; the second finds its target gone
        apply(game, seat, PassPriority())
        apply(game, 1 - seat, PassPriority())
    assert game.stack == []
    assert len(game.player(seat).graveyard) == 2
    assert game.player(1 - seat).life == 20


def test_107_3_volcanic_geyser_x_options_are_exactly_the_payable_values() -> None:
    game = demo_game()
    seat, (geyser,) = _main_with(game, 5, "Volcanic Geyser")
    pool = potential_pool(game, seat)
    apply(game, seat, CastSpell(geyser.id))
    assert game.pending is not None and game.pending.kind is DecisionKind.CHOOSE_X
    xs = [a.value for a in game.pending.options if isinstance(a, ChooseX)]
    assert xs == list(range(sum(pool.fixed) - 2 + 1))
    apply(game, seat, ChooseX(3))
    apply(game, seat, ChooseTarget(player=1 - seat))
    _tap_and_pay(game, seat)
    apply(game, seat, PassPriority())
    apply(game, 1 - seat, PassPriority())
    assert game.player(1 - seat).life == 17


def test_302_1_creature_spells_only_at_sorcery_speed() -> None:
    game = demo_game()
    seat, (ogre,) = _main_with(game, 3, "Onakke Ogre")
    assert CastSpell(ogre.id) in legal_actions(game, seat)
    apply(game, seat, PassPriority())
    assert game.priority == 1 - seat
    assert CastSpell(ogre.id) not in legal_actions(game, seat)


def _to_attack(game: Game) -> int:
    pass_until(game, Step.BEGINNING_OF_COMBAT, turn=3)
    return game.active


def test_510_1a_unblocked_attacker_damages_defending_player_and_508_1f_taps() -> None:
    game = demo_game()
    pass_until(game, Step.UPKEEP, turn=2)
    seat = 1 - game.active  # the player whose turn 3 will be
    ogre = put(game, seat, "Onakke Ogre", Zone.BATTLEFIELD)
    _to_attack(game)
    apply(game, seat, PassPriority())
    apply(game, 1 - seat, PassPriority())
    assert game.step is Step.DECLARE_ATTACKERS
    ogre_id = next(i for i in game.battlefield if game.objects[i].card.name == "Onakke Ogre")
    assert ogre_id == ogre.id
    apply(game, seat, DeclareAttacker(ogre.id, 1 - seat))
    apply(game, seat, FinishAttackers())
    assert game.objects[ogre.id].tapped
    life = game.player(1 - seat).life
    pass_until(game, Step.COMBAT_DAMAGE)
    assert game.player(1 - seat).life == life - 4


def test_302_6_summoning_sick_creature_cannot_attack() -> None:
    game = demo_game()
    pass_until(game, Step.BEGINNING_OF_COMBAT, turn=1)
    put(game, game.active, "Onakke Ogre", Zone.BATTLEFIELD, sick=True)
    refresh(game)
    apply(game, game.active, PassPriority())
    apply(game, 1 - game.active, PassPriority())
    assert game.step is Step.DECLARE_ATTACKERS
    assert game.pending is not None and game.pending.kind is DecisionKind.PRIORITY  # 508.8


def test_510_1c_attacker_divides_damage_among_two_blockers() -> None:
    game = demo_game()
    pass_until(game, Step.UPKEEP, turn=2)
    seat = 1 - game.active
    gorehorn = put(game, seat, "Garruk's Gorehorn", Zone.BATTLEFIELD)
    b1 = put(game, 1 - seat, "Walking Corpse", Zone.BATTLEFIELD)
    b2 = put(game, 1 - seat, "Wishcoin Crab", Zone.BATTLEFIELD)
    _to_attack(game)
    apply(game, seat, PassPriority())
    apply(game, 1 - seat, PassPriority())
    apply(game, seat, DeclareAttacker(gorehorn.id, 1 - seat))
    apply(game, seat, FinishAttackers())
    apply(game, seat, PassPriority())
    apply(game, 1 - seat, PassPriority())
    assert game.pending is not None and game.pending.kind is DecisionKind.DECLARE_BLOCKERS
    apply(game, 1 - seat, DeclareBlocker(b1.id, gorehorn.id))
    apply(game, 1 - seat, DeclareBlocker(b2.id, gorehorn.id))
    apply(game, 1 - seat, FinishBlockers())
    apply(game, seat, PassPriority())
    apply(game, 1 - seat, PassPriority())
    d = game.pending
    assert d is not None and d.kind is DecisionKind.ASSIGN_COMBAT_DAMAGE and d.seat == seat
    assert len(d.options) == 8  # 7 damage between two blockers: 0..7
    apply(game, seat, AssignCombatDamage(gorehorn.id, ((b1.id, 2), (b2.id, 5))))
    names = sorted(game.objects[i].card.name for i in game.player(1 - seat).graveyard
                   if game.objects[i].is_creature)
    assert names == ["Walking Corpse", "Wishcoin Crab"]
    assert b1.id not in game.objects and b2.id not in game.objects
    assert gorehorn.id not in game.objects  # 3 toughness, took 2 + 2 damage (510.1d)


def test_514_1_cleanup_discards_down_to_seven() -> None:
    game = demo_game()
    pass_until(game, Step.END, turn=1)
    seat = game.active
    for _ in range(3):
        put(game, seat, "Shock", Zone.HAND)
    refresh(game)
    apply(game, seat, PassPriority())
    apply(game, 1 - seat, PassPriority())
    d = game.pending
    assert d is not None and d.kind is DecisionKind.DISCARD and d.seat == seat
    for _ in range(3):
        assert game.pending is not None
        first = game.pending.options[0]
        assert isinstance(first, Discard)
        apply(game, seat, first)
    # Rule 404.3: the three cards reached the graveyard together; their owner orders them.
    while (d := game.pending) is not None and d.kind is DecisionKind.ORDER_GRAVEYARD:
        apply(game, seat, d.options[0])
    assert len(game.player(seat).hand) == 7 and game.turn == 2


def test_704_5b_drawing_from_an_empty_library_loses() -> None:
    game = demo_game()
    pass_until(game, Step.UPKEEP, turn=1)
    loser = 1 - game.active
    for oid in list(game.player(loser).library):
        del game.objects[oid]
    game.player(loser).library.clear()
    steps = 0
    while game.result is None and steps < 100:
        d = game.pending
        assert d is not None
        apply(game, d.seat, PassPriority() if PassPriority() in d.options else d.options[-1])
        steps += 1
    assert game.result is not None and game.result.winners == (1 - loser,)
    assert game.result.reason.endswith(" tried to draw from an empty library")
    with pytest.raises(GameOverError):
        apply(game, 0, PassPriority())


def test_104_3a_concede_at_any_time_ends_a_two_player_game() -> None:
    game = demo_game()
    waiting = 1 - game.pending.seat if game.pending else 0
    apply(game, waiting, Concede())
    assert game.result is not None and game.result.winners == (1 - waiting,)
    assert game.pending is None


@pytest.mark.parametrize("seed", range(20))
def test_random_games_finish_with_a_winner_and_replay_bit_for_bit(seed: int) -> None:
    game_seed = bytes([seed]) * 32
    game = new_game(game_seed, _setups())
    log = []
    rng = random.Random(seed)
    while game.result is None:
        d = game.pending
        assert d is not None and d.options
        action = rng.choice(d.options)
        log.append((d.seat, action_from_json(action_to_json(action))))
        apply(game, d.seat, action)
        assert len(log) < 20_000
    assert game.result.reason
    again = replay(game_seed, _setups(), log)
    for seat in (0, 1, -1):
        assert project(again, seat) == project(game, seat)


def test_104_3a_a_concessions_reason_is_recorded_and_an_old_record_reads_as_chosen() -> None:
    for reason in ConcedeReason:
        assert action_from_json(action_to_json(Concede(reason))) == Concede(reason)
    assert action_from_json({"type": "Concede"}) == Concede(ConcedeReason.CHOSE)
    with pytest.raises(ValueError, match="tired"):
        action_from_json({"type": "Concede", "reason": "tired"})


def _setups() -> list[PlayerSetup]:
    return [PlayerSetup("Ann", vanilla_deck("naya")),
            PlayerSetup("Bob", vanilla_deck("grixis"))]


def test_100_2a_decklists_are_validated() -> None:
    assert len(demo_deck("naya-pets")) == 60
    with pytest.raises(DeckError, match="at least 60"):
        parse_decklist("4 Shock\n20 Mountain")
    with pytest.raises(DeckError, match="four copies"):
        parse_decklist("5 Shock\n55 Mountain")
    with pytest.raises(DeckError, match="unknown card"):
        parse_decklist("4 Shokc\n56 Mountain")
    assert card("Forest").mana_abilities == ("G",)  # 305.6
    assert card("Forest").type_line == "Basic Land — Forest"  # 205.1


def test_an_option_sent_with_the_wrong_types_is_performed_as_the_engines_own_option() -> None:
    # 1.0 == 1 in Python: the engine must not let the caller's float into the game state.
    game = new_game(b"typed-seed-0123456789", _setups())
    d = game.pending
    assert d is not None and d.kind is DecisionKind.CHOOSE_STARTING_PLAYER
    apply(game, d.seat, ChooseStartingPlayer(float(d.seat)))  # type: ignore[arg-type]
    assert type(game.active) is int and game.active == d.seat
    assert type(game.starting_player) is int


def test_every_coded_effect_named_by_card_data_is_implemented_and_vice_versa() -> None:
    from server.cards.model import CODED_EFFECTS
    from server.engine.coded import CODED

    assert set(CODED) == set(CODED_EFFECTS)


def test_103_1_a_later_game_of_a_match_names_who_chooses_the_starting_player() -> None:
    # Rule 103.1: in a match of several games the loser of the previous game (or, after a
    # draw, the previous chooser) chooses who takes the first turn: new_game(chooser=...).
    seed = b"match-seed-0123456789"
    drawn = new_game(seed, _setups()).pending
    assert drawn is not None and drawn.kind is DecisionKind.CHOOSE_STARTING_PLAYER
    for chooser in (0, 1):
        game = new_game(seed, _setups(), chooser=chooser)
        d = game.pending
        assert d is not None and d.kind is DecisionKind.CHOOSE_STARTING_PLAYER
        assert d.seat == chooser
        # the random stream is the same whoever chooses: the same libraries after the choice
        apply(game, chooser, ChooseStartingPlayer(chooser))
        other = new_game(seed, _setups(), chooser=1 - chooser)
        apply(other, 1 - chooser, ChooseStartingPlayer(chooser))
        assert [[o.card.name for o in (game.objects[i] for i in p.library)]
                for p in game.players] == \
            [[o.card.name for o in (other.objects[i] for i in p.library)]
             for p in other.players]
    with pytest.raises(ValueError, match="chooser"):
        new_game(seed, _setups(), chooser=2)
