"""What the terminal says to a player about a real game, its lines built from the deltas a
room sends (server.view.pipeline: the engine, projected for one seat): why a player lost
(rules 104.3a, 704.5a -- plain words, "you" for the viewer, no rule number), the mulligans
(103.5: who kept, a card put on the bottom), a pump resolving (Titanic Growth: +4/+4), and
{T} in an ability's text (107.5). Found by a new player's review."""

from __future__ import annotations

from collections.abc import Callable

from client_sdk.board import Board, frame_text, stack_text
from client_sdk.describe import event_text, lost_text, reason_words, result_text
from client_sdk.mirror import Mirror
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.engine import Game, PlayerSetup, Zone, apply, new_game
from server.engine.actions import (
    Action,
    CastSpell,
    ChooseStartingPlayer,
    ChooseTarget,
    Concede,
    KeepHand,
    PassPriority,
    PayAutomatically,
    PutOnBottom,
    TakeMulligan,
)
from server.engine.state import DecisionKind, Step
from server.view.pipeline import ViewPipeline
from tests.engine.helpers import SEED, demo_game, pass_until, put, refresh, vanilla_deck

ANN, BOB = 0, 1


class Watched:
    """A game as one seat's terminal board follows it: every action's delta absorbed."""

    def __init__(self, game: Game, seat: int) -> None:
        self.game = game
        self.pipeline = ViewPipeline(game, [seat])
        snapshot = mpb.ServerMessage.FromString(self.pipeline.streams[seat].snapshot("r1"))
        mirror = Mirror()
        mirror.load_snapshot(snapshot.snapshot)
        self.board = Board(mirror, seat=seat, watching=False,
                           room=mpb.RoomInfo(room_id="r1"))
        self.board.absorb(snapshot, now=0.0)

    def act(self, seat: int, action: Action) -> None:
        events = apply(self.game, seat, action)
        for _viewer, _prev, data in self.pipeline.advance(self.game, action, events):
            msg = mpb.ServerMessage.FromString(data)
            self.board.mirror.apply_delta(msg.delta)
            self.board.absorb(msg, now=1.0)

    def answer(self, pick: Callable[[Action], bool]) -> None:
        pending = self.game.pending
        assert pending is not None
        self.act(pending.seat, next(o for o in pending.options if pick(o)))

    @property
    def lines(self) -> list[str]:
        return [text + (f" (x{n})" if n > 1 else "") for text, n in self.board.events]


def _started() -> Game:
    """A new game between Ann and Bob, its starting player not yet chosen (rule 103.1)."""
    return new_game(SEED, [PlayerSetup("Ann", vanilla_deck("naya")),
                           PlayerSetup("Bob", vanilla_deck("grixis"))])


def test_104_3a_704_5a_a_loss_is_said_in_plain_words_with_you_for_the_viewer() -> None:
    """"You lost the game (Ann#7914 conceded (104.3a))", "lost: has 0 or less life
    (704.5a)": rule numbers and the player's own name in third person. The engine's reasons
    are plain words naming the player; the terminal says "you" for its own player."""
    game = demo_game()
    watched = Watched(game, ANN)
    game.players[BOB].life = 0  # rule 704.5a, at the next check of state-based actions
    refresh(game)
    assert game.result is not None and game.result.reason == "Bob has 0 or less life"
    conceding = _started()
    apply(conceding, ANN, Concede())
    assert conceding.result is not None and conceding.result.reason == "Ann conceded"

    board = watched.board
    lost = pb.GameEvent(player_lost=pb.PlayerLostEvent(seat=ANN, reason="Ann conceded"))
    assert event_text(board, lost) == "you lost: you conceded"
    lost = pb.GameEvent(player_lost=pb.PlayerLostEvent(seat=BOB, reason="Bob has 0 or less life"))
    assert event_text(board, lost) == "Bob lost: Bob has 0 or less life"
    assert lost_text(board, ANN, "Ann has 0 or less life") == "you lost: you have 0 or less life"
    assert lost_text(board, BOB, "Bob lost the game to Door to Nothingness") == \
        "Bob lost the game to Door to Nothingness"  # (104.3e: the reason says it whole)
    assert lost_text(board, BOB, "") == "Bob lost the game"
    # An older server's reasons: its rule numbers are not read to the player.
    assert reason_words(board, "Ann conceded (104.3a)") == "you conceded"
    assert reason_words(board, "Ann ran out of time, which concedes (104.3a)") == \
        "you ran out of time, which concedes"
    assert result_text(board, [BOB], "Ann has 0 or less life (704.5a)") == \
        "Bob won (you have 0 or less life)"
    assert result_text(board, [ANN], "Bob conceded") == "you won (Bob conceded)"
    assert result_text(board, [], "draw: Ann has 0 or less life") == \
        "The game is a draw (you have 0 or less life)"
    # A name that merely begins like the viewer's is not theirs; a spectator has no "you".
    assert reason_words(board, "Annie conceded") == "Annie conceded"
    board.seat = -1
    assert lost_text(board, ANN, "Ann conceded") == "Ann lost: Ann conceded"


def test_the_end_of_a_real_game_reads_you_lost_you_conceded() -> None:
    game = demo_game()
    watched = Watched(game, ANN)
    watched.act(ANN, Concede())
    assert watched.lines[-2:] == ["you lost: you conceded", "Bob won (you conceded)"]
    assert watched.board.result_line() == "Game over: Bob won (you conceded)"
    shown = " ".join(frame_text(watched.board, now=2.0).split())
    assert "You lost: you conceded" in shown


def test_103_5_the_mulligans_say_who_kept_and_a_card_put_on_the_bottom() -> None:
    """A card put on the bottom after a mulligan read "put a card from your hand into your
    library", and nobody's keeping was logged (the protocol says who took a mulligan, not
    who kept: the end of each round of declarations tells)."""
    game = _started()
    watched = Watched(game, ANN)
    bob = Watched(game, BOB)  # (its own pipeline: the same actions, Bob's view)

    def act(seat: int, action: Action) -> None:
        events = apply(game, seat, action)
        for w in (watched, bob):
            for _viewer, _prev, data in w.pipeline.advance(game, action, events):
                msg = mpb.ServerMessage.FromString(data)
                w.board.mirror.apply_delta(msg.delta)
                w.board.absorb(msg, now=1.0)

    pending = game.pending
    assert pending is not None and pending.kind is DecisionKind.CHOOSE_STARTING_PLAYER
    act(pending.seat, ChooseStartingPlayer(ANN))
    act(ANN, KeepHand())
    act(BOB, TakeMulligan())
    pending = game.pending
    assert pending is not None and pending.kind is DecisionKind.BOTTOM_CARD
    bottom = next(o for o in pending.options if isinstance(o, PutOnBottom))
    act(BOB, bottom)
    act(BOB, KeepHand())
    assert game.step is not None and game.turn == 1
    lines = watched.lines
    start = lines.index("you kept 7 cards")
    assert lines[start:] == [
        "you kept 7 cards", "Bob took a mulligan",
        "Bob put a card from their hand into their library (x7)", "Bob drew a card (x7)",
        "Bob put a card on the bottom of their library", "Bob kept 6 cards",
        "-- Turn 1: your turn --"], lines
    assert "you put a card on the bottom of your library" in bob.lines
    assert "you kept 6 cards" in bob.lines and "Ann kept 7 cards" in bob.lines


def titanic_growth_resolved() -> Watched:
    """The active player's Titanic Growth cast on their Walking Corpse in their first main
    phase, paid and resolved, watched from their seat."""
    game = demo_game()
    pass_until(game, Step.PRECOMBAT_MAIN, turn=1)
    me = game.active
    corpse = put(game, me, "Walking Corpse", Zone.BATTLEFIELD)
    growth = put(game, me, "Titanic Growth", Zone.HAND)
    for _ in range(2):
        put(game, me, "Forest", Zone.BATTLEFIELD)
    refresh(game)
    watched = Watched(game, me)
    watched.answer(lambda o: o == CastSpell(growth.id))
    watched.answer(lambda o: isinstance(o, ChooseTarget) and o.object_id == corpse.id)
    watched.answer(lambda o: isinstance(o, PayAutomatically))
    watched.answer(lambda o: isinstance(o, PassPriority))
    watched.answer(lambda o: isinstance(o, PassPriority))
    return watched


def test_titanic_growth_resolving_says_plus_4_plus_4_and_tap_is_a_word() -> None:
    """Titanic Growth resolving had no line (its +4/+4 is no event: the creature's power
    and toughness change in the view); "{T}" stood raw in the log and on the stack."""
    watched = titanic_growth_resolved()
    me = watched.board.seat
    assert "your Walking Corpse is now 6/6 (was 2/2)" in watched.lines, watched.lines
    shown = " ".join(frame_text(watched.board, now=2.0).split())
    assert "Your Walking Corpse is now 6/6 (was 2/2)" in shown

    board = watched.board
    ability = pb.GameObject(id="a1", name="Prodigal Sorcerer", is_ability=True, controller=me,
                            ability_text="{T}: Prodigal Sorcerer deals 1 damage to any target.")
    assert stack_text(board, ability).startswith(
        'Prodigal Sorcerer\'s ability "Tap: Prodigal Sorcerer deals 1 damage')
    activated = pb.GameEvent(ability=pb.AbilityEvent(
        controller=me, name="Prodigal Sorcerer", text="{T}: Prodigal Sorcerer deals 1 damage."))
    assert event_text(board, activated) == \
        "you activated Prodigal Sorcerer (Tap: Prodigal Sorcerer deals 1 damage.)"
    prowess = pb.GameEvent(ability=pb.AbilityEvent(
        controller=me, name="Stormwing Entity", triggered=True,
        text="Prowess (Whenever you cast a noncreature spell, this creature gets +1/+1 until "
             "end of turn.)"))
    assert event_text(board, prowess) == "your Stormwing Entity triggered (Prowess)"
