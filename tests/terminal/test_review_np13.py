"""A new player's review (np13) of ``manawire play``, in-process (a stub client standing in
for the server and the SDK):

- copies of a card in a hand are one entry with a count, as on the battlefield ("Thieves'
  Guild Enforcer {B} x2", not the card twice);
- "You keep your deck for game 2." said between games went once game 2 began;
- once this player has offered a rematch, the keys line says ``r`` takes it back (it said
  "r: rematch" beside "r takes it back");
- the room closing after the end ends the session with that said, the game's result not
  printed twice, the opponent's stale offer ("r accepts") not left on the last board.
"""

from __future__ import annotations

import trio
import trio.testing

from client_sdk.board import Board, frame_text
from client_sdk.mirror import Mirror
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from protocol.viewhash import view_hash
from tests.terminal.test_no_rematch import _over, _receive
from tests.terminal.test_review_np8 import _offers
from tests.terminal.test_session_receive import _received

HAND = pb.ZONE_KIND_HAND


def _hand_board(names: list[str]) -> Board:
    objects = [pb.GameObject(id=f"h{n}", name=name, mana_cost="{B}", owner=0, controller=0,
                             zone=pb.ZoneRef(kind=HAND, owner=0))
               for n, name in enumerate(names)]
    view = pb.View(viewer=0, header=pb.GameHeader(turn=2, active_seat=0,
                                                  phase=pb.GAME_PHASE_PLAYING),
                   players=[pb.Player(seat=0, name="Ann", hand_count=len(names)),
                            pb.Player(seat=1, name="Bob")],
                   objects=objects, zones=[pb.ZoneContents(
                       zone=pb.ZoneRef(kind=HAND, owner=0), object_ids=[o.id for o in objects])])
    mirror = Mirror()
    mirror.load_snapshot(pb.Snapshot(room_id="r1", state_id=5, view=view,
                                     view_hash=view_hash(view)))
    board = Board(mirror, seat=0, room=mpb.RoomInfo(room_id="r1"), account="Ann#0001")
    board.absorb(mpb.ServerMessage(snapshot=pb.Snapshot(view=view)), now=0.0)
    return board


def test_copies_of_a_card_in_the_hand_are_counted_as_on_the_battlefield() -> None:
    board = _hand_board(["Thieves' Guild Enforcer", "Swamp", "Thieves' Guild Enforcer"])
    text = frame_text(board, now=0.0, width=160)
    assert "hand:" in text
    assert "Thieves' Guild Enforcer {B} x2 · Swamp {B}" in text, text
    assert "Thieves' Guild Enforcer {B} · Thieves' Guild Enforcer {B}" not in text


def test_the_deck_kept_for_the_next_game_is_not_said_during_it() -> None:
    board = _hand_board(["Swamp"])
    board.absorb(mpb.ServerMessage(match_state=mpb.MatchState(
        best_of=3, game_number=2, wins=[1, 0], phase=mpb.MATCH_PHASE_SIDEBOARDING)), now=0.0)
    board.absorb(mpb.ServerMessage(deck_accepted=mpb.DeckAccepted(game_number=2, kept=True)),
                 now=0.0)
    assert board.notice == "You keep your deck for game 2."
    board.absorb(mpb.ServerMessage(match_state=mpb.MatchState(
        best_of=3, game_number=2, wins=[1, 0], phase=mpb.MATCH_PHASE_PLAYING)), now=1.0)
    assert board.notice == "You keep your deck for game 2."  # (through the mulligans)
    board.mirror.header.turn = 1  # (game 2's first turn begins)
    board.absorb(mpb.ServerMessage(delta=pb.Delta()), now=2.0)
    assert board.notice == ""
    assert "You keep your deck" not in frame_text(board, now=2.0)


def _keys(board: Board) -> str:
    return " ".join(frame_text(board, now=0.0).split())


async def test_the_keys_say_r_takes_back_an_offer_made(
        autojump_clock: trio.testing.MockClock) -> None:
    _client, session = await _over([_offers(True, False)])
    assert "(r takes it back, q leaves)" in session.board.notice
    keys = _keys(session.board)
    assert "r: take back your rematch offer · q: leave" in keys, keys
    assert "r: rematch ·" not in keys
    _client.messages.append(_offers(False, False))
    await _receive(session, 1)
    session._sync()
    assert "r: rematch · q: leave" in _keys(session.board)


async def test_the_room_closing_after_the_end_says_so_once(
        autojump_clock: trio.testing.MockClock) -> None:
    client, session = await _over([_offers(False, True)])
    session.board.mirror.header.result.CopyFrom(pb.GameResult(winners=[0], reason="Bob conceded"))
    assert session.board.notice == "Bob wants a rematch: r accepts, q leaves."
    assert session._outcome is None
    client.room_id = None  # type: ignore[assignment]  # (the SDK, told RoomClosed)
    client.closed = mpb.RoomClosed(room_id="r1", reason="the game is over")  # type: ignore[attr-defined]
    client.messages.append(mpb.ServerMessage(room_closed=client.closed))  # type: ignore[attr-defined]
    await _receive(session, 1)
    outcome = session._outcome
    assert outcome is not None and outcome.code == 0
    assert outcome.line == "The room closed: a rematch can no longer be had."
    result = session.board.result_line()
    assert result.startswith("Game 2 of 3 over: you won (Bob conceded)")
    last = frame_text(session.board, now=0.0, width=160) + "\n" + outcome.line
    assert last.count(result) == 1, last
    assert "r accepts" not in last


NAMES = ["Adherent of Hope", "Walking Corpse", "Wall of Runes", "Waker of Waves",
         *(f"Card {n:03}" for n in range(300))]
ANY_NAME = "Necromentia: Choose one of the names offered (a keyword ability, or a card name)."


def _naming(prompt_id: int, names: list[str]) -> mpb.ServerMessage:
    return mpb.ServerMessage(decision=pb.Decision(
        prompt_id=prompt_id, seat=0, kind=pb.DECISION_KIND_CHOOSE_NAME, prompt=ANY_NAME,
        options=[pb.Action(choose_name=pb.ChooseName(name=n)) for n in names]))


async def test_201_3_a_card_name_among_hundreds_is_typed_not_listed(
        autojump_clock: trio.testing.MockClock) -> None:
    """Necromentia's "choose a card name" listed 318 numbered names: a 339-line frame in a
    60-row terminal, the board and the prompt scrolled away, and no name could be typed."""
    client, board, session = await _received([_naming(9, NAMES)])
    assert board.decision is not None
    text = frame_text(board, now=0.0, width=100, height=60)
    assert len(text.splitlines()) <= 60, len(text.splitlines())
    assert "Card 150" not in text
    assert "304 card names to choose from (too many to list): type the name" in text
    assert "(a card name)" in text and "keyword ability" not in text
    assert "a name (or its first letters) + Enter: answer" in " ".join(text.split())
    board.typed = "wa"
    hint = " ".join(frame_text(board, now=0.0, width=160).split())
    assert "Names beginning 'wa': Walking Corpse · Wall of Runes · Waker of Waves" in hint
    await session._command("wa")  # (several names)
    assert board.notice == ("3 names begin with 'wa': Walking Corpse · Wall of Runes · Waker "
                            "of Waves -- type more of the name.")
    await session._command("zzz")
    assert board.notice.startswith("No name offered begins with 'zzz'")
    await session._command("3")  # (a number names nothing not shown)
    assert board.notice.startswith("No name offered begins with '3'")
    assert client.acted == []
    await session._command("WALKING")  # (a unique beginning, in any case)
    assert client.acted == [(9, 1)]


async def test_201_3_a_short_list_of_names_is_numbered_and_a_name_answers_it_too(
        autojump_clock: trio.testing.MockClock) -> None:
    client, board, session = await _received([_naming(3, ["Flying", "First strike"])])
    text = frame_text(board, now=0.0)
    assert "  1. Flying" in text and "  2. First strike" in text
    assert "(a keyword ability, or a card name)" in text  # (keywords: the words stand)
    await session._command("first strike")
    assert client.acted == [(3, 1)]
    client.messages.append(_naming(4, ["Flying", "First strike"]))
    with trio.move_on_after(1):
        await session._receive(None, trio.CancelScope())
    await session._command("1")
    assert client.acted == [(3, 1), (4, 0)]


ROOKIE = "Until end of turn, target creature gets +0/+2 and another target creature gets -2/-0."
BATTLEFIELD, STACK = pb.ZONE_KIND_BATTLEFIELD, pb.ZONE_KIND_STACK


def _targets_board(spell: str, text: str, prompt: str, ids: list[str]) -> Board:
    """Ann (seat 0) casts ``spell``: its targets' decision, ``prompt``, offers ``ids``."""
    def obj(oid: str, name: str, seat: int, zone: int, **fields: object) -> pb.GameObject:
        return pb.GameObject(id=oid, name=name, owner=seat, controller=seat,
                             zone=pb.ZoneRef(kind=zone, owner=-1), **fields)  # type: ignore[arg-type]
    objects = [obj("p1", "Prismite", 1, BATTLEFIELD, card_types=["Creature"], power=2,
                   toughness=1),
               obj("w1", "Wall of Runes", 0, BATTLEFIELD, card_types=["Creature"], power=0,
                   toughness=4),
               obj("s1", spell, 0, STACK, rules_text=text)]
    view = pb.View(viewer=0, header=pb.GameHeader(turn=4, active_seat=0,
                                                  phase=pb.GAME_PHASE_PLAYING),
                   players=[pb.Player(seat=0, name="Ann"), pb.Player(seat=1, name="Bob")],
                   objects=objects, zones=[
                       pb.ZoneContents(zone=pb.ZoneRef(kind=BATTLEFIELD, owner=-1),
                                       object_ids=["p1", "w1"]),
                       pb.ZoneContents(zone=pb.ZoneRef(kind=STACK, owner=-1),
                                       object_ids=["s1"])])
    mirror = Mirror()
    mirror.load_snapshot(pb.Snapshot(room_id="r1", state_id=5, view=view,
                                     view_hash=view_hash(view)))
    board = Board(mirror, seat=0, room=mpb.RoomInfo(room_id="r1"), account="Ann#0001")
    board.absorb(mpb.ServerMessage(snapshot=pb.Snapshot(view=view)), now=0.0)
    board.decision = pb.Decision(prompt_id=5, seat=0, kind=pb.DECISION_KIND_CHOOSE_TARGET,
                                 prompt=prompt, options=[
                                     pb.Action(choose_target=pb.ChooseTarget(
                                         target=pb.Target(object_id=i))) for i in ids])
    return board


def test_601_2c_each_target_says_whose_it_is_and_what_it_will_get() -> None:
    """Rookie Mistake's two prompts said only "Choose a target -- target creature" and "--
    another target creature": nothing said which gets +0/+2 and which -2/-0, nor whose each
    creature was (Eliminate's one option was the player's own creature)."""
    board = _targets_board("Rookie Mistake", ROOKIE,
                           "Rookie Mistake: Choose a target -- target creature.", ["w1", "p1"])
    assert [label for _i, label in board.shown_options] == [
        "Target Prismite (Bob's): gets +0/+2", "Target Wall of Runes (yours): gets +0/+2"]
    board = _targets_board("Rookie Mistake", ROOKIE,
                           "Rookie Mistake: Choose a target -- another target creature.",
                           ["p1"])
    assert [label for _i, label in board.shown_options] == [
        "Target Prismite (Bob's): gets -2/-0"]
    board = _targets_board(
        "Eliminate", "Destroy target creature or planeswalker with mana value 3 or less.",
        "Eliminate: Choose a target -- target creature or planeswalker with mana value 3 or "
        "less.", ["w1"])
    assert "  1. Target Wall of Runes (yours): destroy it" in frame_text(board, now=0.0)
    # Text that doesn't say it plainly: whose only.
    board = _targets_board("Necromentia", "Search target opponent's graveyard.",
                           "Necromentia: Choose a target -- target creature.", ["p1"])
    assert [label for _i, label in board.shown_options] == ["Target Prismite (Bob's)"]


async def test_invite_says_the_code_a_player_joined_a_private_room_with(
        autojump_clock: trio.testing.MockClock) -> None:
    """A player who joined with ``play --room ID --invite CODE`` was told the code "is known to
    its creator ... ask them for it": he had it."""
    _client, board, session = await _received([])
    board.room = mpb.RoomInfo(room_id="r1", private=True, seats=2, players=["Ann"])
    board.url = "ws://127.0.0.1:8765/"
    await session._command("invite")
    assert "ask them for it" in board.notice  # (joined some other way: the code unknown here)
    board.joined_code = "c0de"
    await session._command("invite")
    assert board.notice.startswith("Room r1 is private: you joined it with invite code c0de,")
    # Not a watch line with the seat code: handed to an audience, it would seat them.
    assert "manawire watch" not in board.notice and "#watch=" not in board.notice
    assert "ask the room's creator for it" in board.notice
