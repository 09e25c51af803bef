"""The terminal session's receiving task, with a stub client standing in for the server: a
declaration of blockers that has no choice in it (rule 509.1a: none of its player's creatures
can block) is answered at once, and said; so is priority with nothing to do but pass (117.3),
silently; any other decision waits for the player. A
connection the client may not resume (the session taken over elsewhere, 4001) ends the
session with a sentence, not a traceback."""

from __future__ import annotations

from typing import cast

import trio
import trio.testing

from client_sdk.board import Board, frame_text
from client_sdk.client import Client, ConnectionEndedError
from client_sdk.describe import NO_BLOCKERS_TEXT, alike_order, nothing_can_block, only_pass
from client_sdk.mirror import Mirror
from client_sdk.terminal import Keyboard, Screen, Session
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from protocol.viewhash import view_hash

NO_BLOCKS = pb.Action(finish_blockers=pb.FinishBlockers())
A_BLOCK = pb.Action(declare_blocker=pb.DeclareBlocker(object_id="b1", attacker_id="a1"))


class NoKeys:
    typed = ""
    marker = None
    #: The line's mark (terminal.Mark), as the session reads it: None, as for lines read
    #: whole, unless a test sets one.
    line_mark: tuple[int | None, float] | None = None


class StubClient:
    """What the session's receiving task reads of a client, fed from a list of messages."""

    room_id = "r1"
    connected = True
    resumes = 0
    must_sideboard = False
    finished = False

    def __init__(self, messages: list[mpb.ServerMessage | BaseException]) -> None:
        self.messages = messages
        self.my_decision: pb.Decision | None = None
        self.acted: list[tuple[int, int]] = []

    async def next_message(self) -> mpb.ServerMessage:
        if not self.messages:
            await trio.sleep_forever()
        msg = self.messages.pop(0)
        if isinstance(msg, BaseException):
            raise msg
        if msg.HasField("decision"):
            self.my_decision = msg.decision
        return msg

    match: mpb.MatchState | None = None
    conceded = 0

    async def concede(self) -> None:
        self.conceded += 1
        await trio.lowlevel.checkpoint()

    async def act(self, index: int) -> None:
        assert self.my_decision is not None
        self.acted.append((self.my_decision.prompt_id, index))
        self.my_decision = None
        await trio.lowlevel.checkpoint()


def _blockers(prompt_id: int, *options: pb.Action) -> mpb.ServerMessage:
    return mpb.ServerMessage(decision=pb.Decision(
        prompt_id=prompt_id, seat=0, kind=pb.DECISION_KIND_DECLARE_BLOCKERS, options=options))


#: Permanents of seat 0: a basic land, a gain land, a Treasure (its mana ability sacrifices
#: it, which can trigger Havoc Jester: a play).
LANDS = [
    pb.GameObject(id="f1", name="Forest", supertypes=["Basic"], card_types=["Land"],
                  owner=0, controller=0),
    pb.GameObject(id="g1", name="Jungle Hollow", card_types=["Land"], owner=0, controller=0,
                  rules_text="Jungle Hollow enters the battlefield tapped.\nWhen Jungle Hollow "
                             "enters the battlefield, you gain 1 life.\n{T}: Add {B} or {G}."),
    pb.GameObject(id="t1", name="Treasure", card_types=["Artifact"], owner=0, controller=0,
                  rules_text="{T}, Sacrifice this artifact: Add one mana of any color."),
    pb.GameObject(id="v1", name="Llanowar Visionary", card_types=["Creature"], owner=0,
                  controller=0, rules_text="When Llanowar Visionary enters the battlefield, "
                                           "draw a card.\n{T}: Add {G}."),
    pb.GameObject(id="o1", name="Vanilla", card_types=["Creature"], owner=0, controller=0),
]


async def _received(messages: list[mpb.ServerMessage | BaseException],
                    graveyard: list[pb.GameObject] | None = None,
                    triggers: list[pb.WaitingTrigger] | None = None,
                    ) -> tuple[StubClient, Board, Session]:
    zones = [pb.ZoneContents(zone=pb.ZoneRef(kind=pb.ZONE_KIND_BATTLEFIELD, owner=-1),
                             object_ids=[o.id for o in LANDS])]
    if graveyard:
        zones.append(pb.ZoneContents(zone=pb.ZoneRef(kind=pb.ZONE_KIND_GRAVEYARD, owner=0),
                                     object_ids=[o.id for o in graveyard]))
    objects: list[pb.GameObject] = sorted([*LANDS, *(graveyard or [])], key=lambda o: o.id)
    view = pb.View(viewer=0, header=pb.GameHeader(turn=3, active_seat=1, triggers=triggers),
                   players=[pb.Player(seat=0, name="Ann"), pb.Player(seat=1, name="Bob")],
                   objects=objects, zones=zones)
    mirror = Mirror()
    mirror.load_snapshot(pb.Snapshot(room_id="r1", state_id=5, view=view,
                                     view_hash=view_hash(view)))
    board = Board(mirror, seat=0, watching=False, room=mpb.RoomInfo(room_id="r1"))
    client = StubClient(messages)
    session = Session(cast(Client, client), board, cast(Screen, None),
                      cast(Keyboard, NoKeys()), player=True)
    with trio.move_on_after(1):
        await session._receive(None, trio.CancelScope())
    return client, board, session


def test_509_1a_only_a_lone_no_blockers_option_is_no_choice() -> None:
    assert nothing_can_block(_blockers(1, NO_BLOCKS).decision)
    assert not nothing_can_block(_blockers(1, A_BLOCK, NO_BLOCKS).decision)
    assert not nothing_can_block(pb.Decision(kind=pb.DECISION_KIND_DECLARE_ATTACKERS,
                                             options=[pb.Action(
                                                 finish_attackers=pb.FinishAttackers())]))


async def test_509_1a_the_terminal_declares_no_blockers_when_nothing_can_block(
        autojump_clock: trio.testing.MockClock) -> None:
    client, board, _session = await _received([_blockers(8, NO_BLOCKS)])
    assert client.acted == [(8, 0)]
    assert [text for text, _n in board.events] == [NO_BLOCKERS_TEXT]
    assert board.decision is None


def _priority(prompt_id: int, *options: pb.Action) -> mpb.ServerMessage:
    return mpb.ServerMessage(decision=pb.Decision(
        prompt_id=prompt_id, seat=0, kind=pb.DECISION_KIND_PRIORITY, options=options))


PASS = pb.Action(pass_priority=pb.PassPriority())
TAP = pb.Action(activate_mana_ability=pb.ActivateManaAbility(object_id="f1", mana="G"))
TAP_GAIN = pb.Action(activate_mana_ability=pb.ActivateManaAbility(object_id="g1", mana="B"))
TREASURE = pb.Action(activate_mana_ability=pb.ActivateManaAbility(object_id="t1", mana="R"))
CAST = pb.Action(cast_spell=pb.CastSpell(object_id="s1"))
ELF = pb.Action(activate_mana_ability=pb.ActivateManaAbility(object_id="v1", mana="G"))


async def test_117_3_priority_with_nothing_to_do_but_pass_is_passed_and_any_other_waits(
        autojump_clock: trio.testing.MockClock) -> None:
    """Nothing to cast or activate: passed, even with lands to tap (mana nothing could spend
    empties at the step's end, 106.4: a player with untapped lands was asked at every
    step). A spell to cast, or mana with a side effect (a Treasure sacrificed can trigger
    Havoc Jester): the player decides."""
    objects = {o.id: o for o in LANDS}
    assert only_pass(_priority(1, PASS).decision, objects)
    assert only_pass(_priority(1, PASS, TAP, TAP_GAIN).decision, objects)
    assert not only_pass(_priority(1, PASS, TAP, CAST).decision, objects)
    assert not only_pass(_priority(1, PASS, TAP, TREASURE).decision, objects)
    assert not only_pass(_priority(1, PASS, TAP).decision, {})  # a source it can't see
    # A creature with a plain mana ability stopped a new user at every step.
    assert only_pass(_priority(1, PASS, TAP, ELF).decision, objects)
    granted = pb.Action(activate_mana_ability=pb.ActivateManaAbility(object_id="o1"))
    assert not only_pass(_priority(1, PASS, granted).decision, objects)  # (text says no)
    # (Passed by the session at a stop after a human-like wait, where the stops pass at
    # once, and under full control not at all: tests/terminal/test_pass_timing.py.)
    client, board, _session = await _received([_priority(6, PASS, TREASURE)])
    assert client.acted == []
    assert board.decision is not None and board.decision.prompt_id == 6


def _graveyard_card(oid: str, name: str) -> pb.GameObject:
    return pb.GameObject(id=oid, name=name, card_types=["Creature"], owner=0, controller=0,
                         zone=pb.ZoneRef(kind=pb.ZONE_KIND_GRAVEYARD, owner=0))


def _order(prompt_id: int, *ids: str, prompt: str = "") -> mpb.ServerMessage:
    """An ORDER_GRAVEYARD decision among the cards ``ids`` (rule 404.3)."""
    return mpb.ServerMessage(decision=pb.Decision(
        prompt_id=prompt_id, seat=0, kind=pb.DECISION_KIND_ORDER_GRAVEYARD, prompt=prompt,
        options=[pb.Action(choose_order=pb.ChooseOrder(object_id=i)) for i in ids]))


def _order_said(prompt_id: int, *ids: str) -> mpb.ServerMessage:
    """:func:`_order` with the server's words."""
    return _order(prompt_id, *ids, prompt="Choose the next card to put into your graveyard "
                                          "(first is lowest).")


async def test_404_3_the_order_of_alike_cards_put_into_the_graveyard_is_no_choice(
        autojump_clock: trio.testing.MockClock) -> None:
    """Milled by Thieves' Guild Enforcer, a new user was asked to press 1 for "Next: Walking
    Corpse", its one option (two alike Walking Corpses): answered at once. Cards that differ
    still ask."""
    cards = [_graveyard_card("y1", "Walking Corpse"), _graveyard_card("y2", "Walking Corpse"),
             _graveyard_card("y3", "Swamp")]
    client, board, _session = await _received([_order(4, "y1", "y2"), _order(5, "y1", "y3")],
                                              graveyard=cards)
    assert client.acted == [(4, 0)]
    assert not board.events  # (the cards' moves say what happened)
    assert board.decision is not None and board.decision.prompt_id == 5
    assert alike_order(board, _order(1, "y2", "y1").decision, cards)
    assert not alike_order(board, _order(1, "y3", "y1").decision, cards)
    # A choice of another kind with one option shown is still asked (a discard, say).
    assert not alike_order(board, pb.Decision(kind=pb.DECISION_KIND_DISCARD, options=[
        pb.Action(discard=pb.Discard(object_id=i)) for i in ("y1", "y2")]), cards)


def _order_triggers(prompt_id: int, *ids: str) -> mpb.ServerMessage:
    """An ORDER_TRIGGERS decision among the waiting triggers ``ids`` (rule 603.3b)."""
    return mpb.ServerMessage(decision=pb.Decision(
        prompt_id=prompt_id, seat=0, kind=pb.DECISION_KIND_ORDER_TRIGGERS,
        prompt="Choose the next triggered ability to put on the stack.",
        options=[pb.Action(choose_order=pb.ChooseOrder(object_id=i)) for i in ids]))


HOUND = "Whenever Bolt Hound attacks, other creatures you control get +1/+0 until end of turn."


async def test_603_3b_the_order_of_alike_triggers_is_no_choice(
        autojump_clock: trio.testing.MockClock) -> None:
    """Attacking with two Bolt Hounds, a new player (round 12) was asked to press 1 for
    "Next: Bolt Hound's trigger", its one option: the two triggers read the same, from
    sources of the same name, and their order changes nothing. Answered at once; triggers
    that differ still ask."""
    triggers = [pb.WaitingTrigger(id="w1", controller=0, source_name="Bolt Hound", text=HOUND),
                pb.WaitingTrigger(id="w2", controller=0, source_name="Bolt Hound", text=HOUND),
                pb.WaitingTrigger(id="w3", controller=0, source_name="Goblin Arsonist",
                                  text="When Goblin Arsonist dies, you may have it deal 1 "
                                       "damage to any target.")]
    client, board, _session = await _received(
        [_order_triggers(4, "w1", "w2"), _order_triggers(5, "w1", "w3")], triggers=triggers)
    assert client.acted == [(4, 0)]
    assert board.decision is not None and board.decision.prompt_id == 5
    assert alike_order(board, _order_triggers(1, "w2", "w1").decision, [])
    assert not alike_order(board, _order_triggers(1, "w3", "w1").decision, [])


async def test_a_declaration_of_blockers_with_a_choice_waits_for_the_player(
        autojump_clock: trio.testing.MockClock) -> None:
    client, board, _session = await _received([_blockers(9, A_BLOCK, NO_BLOCKS)])
    assert client.acted == []
    assert board.decision is not None and board.decision.prompt_id == 9


async def test_a_session_taken_over_elsewhere_ends_with_a_sentence(
        autojump_clock: trio.testing.MockClock) -> None:
    replaced = ConnectionEndedError(4001, "replaced by a newer connection")
    _client, _board, session = await _received([replaced])
    outcome = session._outcome
    assert outcome is not None and outcome.code == 1
    assert outcome.line.startswith("This session was taken over by a newer connection")
    gone = ConnectionEndedError(1011, "internal error")
    _client, _board, session = await _received([gone])
    assert session._outcome is not None
    assert session._outcome.line == "The server closed the connection (1011: internal error)."


async def test_a_player_reads_a_cards_text_by_its_option_or_its_name(
        autojump_clock: trio.testing.MockClock) -> None:
    """The terminal showed cards by name and cost only: a player couldn't read what a card
    does (found playing as a new user). ``?N`` reads the card option N names, ``?NAME`` the
    first card in view whose name starts so."""
    sacrifice = pb.Action(activate_mana_ability=pb.ActivateManaAbility(object_id="t1",
                                                                        mana="G"))
    _client, board, session = await _received([_priority(4, pb.Action(
        pass_priority=pb.PassPriority()), sacrifice)])
    assert board.decision is not None
    assert await session._command("?2") is None
    assert board.notice == ("Treasure · Artifact: {T}, Sacrifice this artifact: Add one mana "
                            "of any color.")
    hollow = ("Jungle Hollow · Land: Jungle Hollow enters the battlefield tapped. When Jungle "
              "Hollow enters the battlefield, you gain 1 life. {T}: Add {B} or {G}.")
    assert await session._command("?jungle") is None
    assert board.notice == hollow
    await session._command("?1")
    assert board.notice == "Option 1 names no card."
    await session._command("?9")
    assert board.notice == "No option 9 to read."
    await session._command("?ugin")
    assert board.notice == "No card you can see is named 'ugin'."
    assert _client.acted == []  # reading answers nothing


async def test_pp_passes_priority_until_the_turn_ends_or_something_new_is_on_the_stack(
        autojump_clock: trio.testing.MockClock) -> None:
    """Holding an instant, a player pressed p through every step of both turns: 14 presses
    for a pair of empty turns (found playing as a new user). ``pp`` passes by itself for
    the rest of the turn -- until something new is on the stack, which the player may want
    to answer -- and never answers another kind of decision."""
    sacrifice = pb.Action(activate_mana_ability=pb.ActivateManaAbility(object_id="t1",
                                                                        mana="G"))
    passing = pb.Action(pass_priority=pb.PassPriority())
    client, board, session = await _received([_priority(4, passing, sacrifice)])
    await session._command("pp")
    assert client.acted == [(4, 0)]

    async def receive(*messages: mpb.ServerMessage) -> None:
        client.messages.extend(messages)
        with trio.move_on_after(1):
            await session._receive(None, trio.CancelScope())

    await receive(_priority(5, sacrifice, passing), _blockers(6, A_BLOCK, NO_BLOCKS))
    assert client.acted == [(4, 0), (5, 1)]  # passed by itself; the blockers are asked
    assert board.decision is not None and board.decision.prompt_id == 6
    board.mirror.zones[(pb.ZONE_KIND_STACK, -1)] = ["s9"]  # Bob casts something
    await receive(_priority(7, passing, sacrifice))
    assert client.acted == [(4, 0), (5, 1)]
    assert board.notice == "Something new is on the stack: you stopped passing. Your decision."
    await session._command("pp")  # (with that spell on the stack) -- then the turn ends
    board.mirror.header.turn += 1
    await receive(_priority(8, passing, sacrifice))
    assert client.acted == [(4, 0), (5, 1), (7, 0)]
    assert board.notice == "The turn is over: pp no longer passes for you."


async def test_a_line_typed_for_another_decision_or_pp_as_a_turn_began_sends_nothing(
        autojump_clock: trio.testing.MockClock) -> None:
    """``pp`` typed a second after playing a land passed the player's next turn: the client
    had passed the opponent's turn by itself meanwhile, and the pass went to a decision the
    player never saw (found by a new user). Options are numbered anew for every decision,
    so a number typed for one never answers the next either."""
    client, board, session = await _received([_priority(4, PASS, CAST)])
    keys = cast(NoKeys, session.keyboard)
    began = session._turn[1]  # when the turn on the screen began (turn 3: received then)
    assert session._turn[0] == 3
    keys.line_mark = (3, began + 5)  # typed while decision 3 was shown
    await session._command("2")
    assert client.acted == [] and board.notice.startswith("The decision changed as you typed")
    keys.line_mark = (4, began + 0.5)  # pp at once as the turn began
    await session._command("pp")
    assert client.acted == []
    assert board.notice.startswith("Turn 3 (Bob's turn) began as you typed pp")
    keys.line_mark = (4, began + 0.5)  # a number, for the decision shown: taken
    await session._command("1")
    assert client.acted == [(4, 0)]
    client.my_decision = _priority(5, PASS, CAST).decision
    keys.line_mark = (5, began + 2)
    await session._command("pp")
    assert client.acted == [(4, 0), (5, 0)]


async def test_a_number_answers_the_option_shown_with_it_when_hand_cards_are_one_option(
        autojump_clock: trio.testing.MockClock) -> None:
    hand = [pb.GameObject(id=f"h{i}", name="Forest", card_types=["Land"], owner=0,
                          controller=0) for i in range(3)]
    play = [pb.Action(play_land=pb.PlayLand(object_id=o.id)) for o in hand]
    client, board, session = await _received([_priority(4, PASS, *play, CAST)])
    for obj in hand:
        board.mirror.objects[obj.id] = obj
    board.mirror.zones[(pb.ZONE_KIND_HAND, 0)] = [o.id for o in hand]
    assert [i for i, _label in board.shown_options] == [0, 1, 4]
    await session._command("3")  # the third shown: the cast, option 4
    assert client.acted == [(4, 4)]


async def test_107_3_choosing_x_the_number_typed_is_xs_value(
        autojump_clock: trio.testing.MockClock) -> None:
    """The options read "1. X = 0", "2. X = 1" ...: a new user typing the X they wanted got
    one less. Choosing X, each option's number is its value."""
    xs = [pb.Action(choose_x=pb.ChooseX(value=v)) for v in range(4)]
    client, board, session = await _received([mpb.ServerMessage(decision=pb.Decision(
        prompt_id=4, seat=0, kind=pb.DECISION_KIND_CHOOSE_X, options=xs))])
    assert [(n, i) for n, i, _label in board.numbered_options] == [(0, 0), (1, 1), (2, 2),
                                                                   (3, 3)]
    await session._command("4")
    assert client.acted == [] and "from 0 to 3" in board.notice
    await session._command("2")
    assert client.acted == [(4, 2)]


async def test_104_3a_concede_gives_up_this_game_only_once_asked_twice(
        autojump_clock: trio.testing.MockClock) -> None:
    """In a match, q leaves (conceding the match); a new user found no way to concede one
    game and play the next, as the web client can."""
    client, board, session = await _received([_priority(4, PASS, CAST)])
    client.match = mpb.MatchState(best_of=3)
    await session._command("concede")
    assert client.conceded == 0 and "the match goes on" in board.notice
    await session._command("1")  # anything else: play on (and it answered the decision)
    await session._command("concede")
    await session._command("concede")
    assert client.conceded == 1 and board.notice == "You conceded this game."


async def test_nothing_to_answer_goes_once_a_decision_is_shown_and_the_keys_say_name(
        autojump_clock: trio.testing.MockClock) -> None:
    """A number typed while nothing was asked left "Nothing to answer now." on the screen
    under the next decision; and the keys' line didn't say ``?NAME`` (how to read a card in
    the hand). Found by a new player."""
    client, board, session = await _received([])
    await session._command("1")
    assert board.notice == "Nothing to answer now."
    client.messages.append(_priority(4, PASS, CAST))
    with trio.move_on_after(1):
        await session._receive(None, trio.CancelScope())
    assert board.decision is not None and board.notice == ""
    assert "?N or ?NAME: read a card" in " ".join(frame_text(board, now=0.0).split())


async def test_404_3_the_graveyard_order_says_why_it_is_asked_and_a_takes_any_order(
        autojump_clock: trio.testing.MockClock) -> None:
    """Two creatures died in one combat and a new player was asked "Choose the next card to
    put into your graveyard (first is lowest)", without knowing why. The screen says why
    (404.3) and that it seldom matters; ``a`` takes the cards in the order listed -- that
    order's next picks too -- and the numbers still choose."""
    cards = [_graveyard_card("y1", "Walking Corpse"), _graveyard_card("y2", "Grizzly Bears"),
             _graveyard_card("y3", "Swamp")]
    client, board, session = await _received([_order_said(4, "y1", "y2", "y3")], graveyard=cards)
    screen = " ".join(frame_text(board, now=0.0).split())
    assert "you may choose their order: it matters only to a card that cares " \
        "about the order of a graveyard" in screen
    assert "a. Any order: as listed" in screen and "a: any order" in screen
    assert "1. Next: Walking Corpse" in screen and client.acted == []

    async def receive(*messages: mpb.ServerMessage) -> None:
        client.messages.extend(messages)
        with trio.move_on_after(1):
            await session._receive(None, trio.CancelScope())

    await session._command("a")
    assert client.acted == [(4, 0)]
    await receive(_order_said(5, "y2", "y3"), _priority(6, PASS, CAST))
    assert client.acted == [(4, 0), (5, 0)]  # (the rest of that order: by itself)
    assert board.decision is not None and board.decision.prompt_id == 6
    await session._command("1")
    await receive(_order_said(7, "y2", "y3"))  # another order later: asked again
    assert client.acted == [(4, 0), (5, 0), (6, 0)]
    await session._command("2")  # (a number still chooses)
    assert client.acted == [(4, 0), (5, 0), (6, 0), (7, 1)]


async def test_pp_typed_again_after_the_turn_began_notice_is_taken(
        autojump_clock: trio.testing.MockClock) -> None:
    """The client passed the opponent's turn by itself in a blink and the player's ``pp``
    came within 1.5 s of the new turn: refused, "Type pp again to pass this turn" -- and
    the pp typed again at once, still within those 1.5 s, was refused again with the same
    words. The notice names the turn, and whose it is; a pp typed after it is taken."""
    client, board, session = await _received([_priority(4, PASS, CAST)])
    keys = cast(NoKeys, session.keyboard)
    began = session._turn[1]
    keys.line_mark = (4, began + 0.3)
    await session._command("pp")
    assert client.acted == []
    assert board.notice == ("Turn 3 (Bob's turn) began as you typed pp: nothing was passed. "
                            "Type pp again to pass turn 3.")
    keys.line_mark = (4, began + 0.9)  # typed again at once, as the notice says
    await session._command("pp")
    assert client.acted == [(4, 0)]
    assert board.notice.startswith("You pass priority until the turn ends")
