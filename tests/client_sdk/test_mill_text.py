"""The log says a mill as a player would (rule 701.17a; 2009's rules had no such keyword
action): "Bob milled 4 cards: Mountain, Mountain, Swamp, Wishcoin Crab", one line -- it
read "Bob's Mountain moved from their library to their graveyard (x2)", a line a card.
Cards put from a library into a graveyard beside a card picked from it (the rest of what
was looked at: Waker of Waves, Fact or Fiction) or found in it (a search) weren't milled,
and are said so."""

from __future__ import annotations

from client_sdk.describe import events_text
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.engine import Game, Zone, apply
from server.engine.actions import Action, CastSpell, PassPriority, PayAutomatically
from server.engine.state import Step
from tests.engine.helpers import demo_game, pass_until, put, refresh
from tests.terminal.test_player_text import Watched

LIBRARY, GRAVEYARD, HAND = pb.ZONE_KIND_LIBRARY, pb.ZONE_KIND_GRAVEYARD, pb.ZONE_KIND_HAND


class _Names:
    """The describers' names for seat 0 (Ann) watching Bob, seat 1."""

    viewer = 0
    spectator = False

    def player(self, seat: int) -> str:
        return ("Ann", "Bob")[seat]

    def object(self, object_id: str) -> pb.GameObject | None:
        return None

    def mentions(self, word: str) -> bool:
        return False

    def in_view(self) -> list[pb.GameObject]:
        return []


def _moved(owner: int, name: str, to: pb.ZoneKind = GRAVEYARD) -> pb.GameEvent:
    return pb.GameEvent(zone_change=pb.ZoneChangeEvent(owner=owner, from_zone=LIBRARY,
                                                       to_zone=to, name=name))


def _both(game: Game, watchers: list[Watched], seat: int, action: Action) -> None:
    events = apply(game, seat, action)
    for w in watchers:
        for _viewer, _prev, data in w.pipeline.advance(game, action, events):
            msg = mpb.ServerMessage.FromString(data)
            w.board.mirror.apply_delta(msg.delta)
            w.board.absorb(msg, now=1.0)


def test_rule_701_17a_a_mill_is_one_line_naming_the_cards_for_both_players() -> None:
    game = demo_game()
    pass_until(game, Step.PRECOMBAT_MAIN, turn=1)
    assert game.pending is not None
    me = game.pending.seat
    for _ in range(4):
        put(game, me, "Swamp", Zone.BATTLEFIELD)
    grub = put(game, me, "Carrion Grub", Zone.HAND)  # "When ... enters, mill four cards."
    refresh(game)
    watchers = [Watched(game, me), Watched(game, 1 - me)]
    assert game.pending is not None
    _both(game, watchers, me, next(o for o in game.pending.options
                                   if isinstance(o, CastSpell) and o.object_id == grub.id))
    for _ in range(20):
        pending = game.pending
        if pending is None or game.player(me).graveyard:
            break
        _both(game, watchers, pending.seat, next(
            (o for o in pending.options if isinstance(o, PayAutomatically)),
            PassPriority()))
    milled = [game.objects[oid].card.name for oid in game.player(me).graveyard]
    assert len(milled) == 4
    name = game.player(me).name
    for w, who in zip(watchers, ("you", name), strict=True):
        said = [line for line in w.lines if "milled" in line or "library" in line]
        assert len(said) == 1, w.lines
        assert said[0].startswith(f"{who} milled 4 cards: ")
        assert sorted(said[0].split(": ", 1)[1].split(", ")) == sorted(milled)


def test_rule_701_17a_one_card_milled_and_a_draw_beside_it() -> None:
    draw = [pb.GameEvent(card_drawn=pb.CardDrawnEvent(seat=1)), _moved(1, "", HAND)]
    assert events_text(_Names(), [*draw, _moved(1, "Plains")], mulligans=False) == [
        "Bob drew a card", "Bob milled Plains"]
    assert events_text(_Names(), [_moved(0, "Plains"), _moved(0, "Shock"), _moved(1, "Opt")],
                       mulligans=False) == ["you milled 2 cards: Plains, Shock",
                                            "Bob milled Opt"]


def test_the_rest_of_cards_looked_at_or_searched_is_not_milled() -> None:
    picked = [_moved(1, "", HAND), _moved(1, "Shock"), _moved(1, "Plains")]
    assert events_text(_Names(), picked, mulligans=False) == [
        "Bob put 2 cards from their library into their graveyard: Shock, Plains"]
    searched = [pb.GameEvent(library_searched=pb.LibrarySearchedEvent(seat=0, owner=0,
                                                                      found=1)),
                _moved(0, "Grim Tutor")]
    assert events_text(_Names(), searched, mulligans=False)[1] == \
        "you put Grim Tutor from your library into your graveyard"
