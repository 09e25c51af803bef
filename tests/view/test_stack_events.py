"""What goes on the stack is told in the events, so a log -- a spectator's, a replay's -- says
why things happen: a spell's targets (601.2c) with its ``spell_cast``, and an ``ability``
event for each activated ability activated (602.2i) and triggered ability put on the stack
(603.3), with its source, text and targets -- each as the viewer may know it."""

from __future__ import annotations

import random

from client_sdk.describe import event_text
from client_sdk.mirror import Mirror
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.cards import demo_deck, demo_deck_names
from server.engine import PlayerSetup, apply, new_game
from server.view import SPECTATOR
from server.view.pipeline import ViewPipeline


class _Names:
    """The describers' names, read from a spectator's mirror."""

    def __init__(self, mirror: Mirror) -> None:
        self.mirror = mirror

    @property
    def viewer(self) -> int:
        return SPECTATOR

    def object(self, object_id: str) -> pb.GameObject | None:
        return self.mirror.objects.get(object_id)

    def player(self, seat: int) -> str:
        return self.mirror.players[seat].name

    def mentions(self, word: str) -> bool:
        return False


def _wire_targets(targets: tuple[tuple[str, int | str], ...], seen: set[str]
                  ) -> list[pb.Target]:
    return [pb.Target(player=int(ref)) if kind == "player" else pb.Target(object_id=str(ref))
            for kind, ref in targets if kind == "player" or str(ref) in seen]


def test_601_2c_602_2i_603_3_spells_and_abilities_on_the_stack_are_told_with_their_targets(
) -> None:
    told = {"spell_targets": 0, "activated": 0, "triggered": 0, "ability_targets": 0}
    lines: list[str] = []
    for g in range(3):
        rng = random.Random(g)
        decks = demo_deck_names()
        game = new_game(bytes([g + 40]) * 16, [PlayerSetup(f"p{i}", demo_deck(rng.choice(decks)))
                                               for i in range(2)])
        views = ViewPipeline(game)
        mirrors = {v: Mirror() for v in views.streams}
        for v, stream in views.streams.items():
            mirrors[v].load_snapshot(mpb.ServerMessage.FromString(stream.snapshot("r")).snapshot)
        for _ in range(1500):
            if game.result is not None:
                break
            d = game.pending
            assert d is not None
            action = rng.choice(d.options)
            before = {v: set(stream.objects) for v, stream in views.streams.items()}
            events = apply(game, d.seat, action)
            for viewer, _prev, data in views.advance(game, action, events):
                delta = mpb.ServerMessage.FromString(data).delta
                mirror = mirrors[viewer]
                mirror.apply_delta(delta)
                seen = set(views.streams[viewer].objects)
                for event in delta.events:
                    kind = event.WhichOneof("kind")
                    if kind == "spell_cast" and event.spell_cast.object_id:
                        spell = game.objects[event.spell_cast.object_id]
                        assert list(event.spell_cast.targets) == _wire_targets(
                            spell.targets, seen | before[viewer])
                        told["spell_targets"] += bool(event.spell_cast.targets)
                    elif kind == "ability":
                        a = event.ability
                        obj = game.objects[a.object_id]  # on the stack, seen by all (400.2)
                        assert obj.ability is not None and a.object_id in seen
                        assert a.triggered == (obj.ability.kind.value == "triggered")
                        assert a.controller == obj.controller and a.name == obj.card.name
                        assert a.source_id in ("", obj.ability.source_id)
                        # (a source sacrificed to pay for it was seen before the action)
                        assert (a.source_id != "") == (obj.ability.source_id in
                                                       seen | before[viewer])
                        assert a.text and list(a.targets) == _wire_targets(
                            obj.targets, seen | before[viewer])
                        told["triggered" if a.triggered else "activated"] += 1
                        told["ability_targets"] += bool(a.targets)
                        if viewer == SPECTATOR:
                            line = event_text(_Names(mirror), event)
                            assert line and a.name in line
                            lines.append(line)
    assert min(told.values()) > 0, told
    assert any(" triggered (" in line for line in lines)
    assert any(" activated " in line for line in lines)
    assert any(" targeting " in line for line in lines)
