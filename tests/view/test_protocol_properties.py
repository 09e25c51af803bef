"""Property tests: protocol v1 never tells a viewer what the rules hide (architecture
invariant 4) and its deltas are exact.

Random games with decks full of hidden-information effects -- scry (701.22a), search with
shuffle (701.23, 701.24), reveal and hand disruption (701.20, 701.9b), fateseal (701.29a),
clash (701.30), piles (700.3), random discard, face-down exile (406.3) -- played through the
real pipeline: a shared :class:`GameTracker`, one :class:`ViewStream` per view class (each
seat, spectators), events included, decisions encoded for the seat that must decide. Every
outgoing message is decoded and checked. ``--soak`` (``make soak``, ``tests/soak.py``) runs
more examples and more whole games.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from client_sdk.mirror import Mirror
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from server.cards import card
from server.engine import Game, PlayerSetup, Zone, apply, new_game
from server.engine.actions import PassPriority
from server.engine.events import CardsRevealed
from server.view import SPECTATOR, project
from server.view.encode import ObjectCache, encode_decision, encode_view, view_hash
from server.view.events import project_events
from server.view.project import EVERY_HAND
from server.view.stream import ViewStream
from server.view.track import (
    NOT_PROJECTED,
    PROJECTED,
    PROJECTED_FIXED,
    PROJECTED_MUTABLE,
    GameTracker,
)
from tests.soak import depth
from tests.view.helpers import hidden_from

EXAMPLES = depth(50, soak=1000)
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
#: Whole 3-player demo games of the stream-equals-projection test (different seeds each).
WHOLE_GAMES = depth(1, soak=6)

#: Blue-black decks of hidden-information cards (test-only cards for face-down exile).
SECRETS = {
    "Opt": 3, "Grim Tutor": 2, "Duress": 3, "Mind Rot": 2, "Hymn to Tourach": 2,
    "Spin into Myth": 1, "Paperfin Rascal": 3, "Fact or Fiction": 2, "Wall of Runes": 3,
    "Test Sealed Vault": 2, "Test Hidden Cache": 2, "Masked Blackguard": 2,
    "Island": 9, "Swamp": 9,
}


def secrets_game(seed: bytes, players: int = 2) -> Game:
    deck = [card(name, include_test_cards=True) for name, n in SECRETS.items()
            for _ in range(n)]
    return new_game(seed, [PlayerSetup(f"p{i}", list(deck)) for i in range(players)])


def choose(rng: random.Random, game: Game) -> tuple[int, object]:
    """A random legal action, preferring to act rather than pass (so the cards get used)."""
    d = game.pending
    assert d is not None
    acting = [a for a in d.options if not isinstance(a, PassPriority)]
    if acting and rng.random() < 0.85:
        return d.seat, rng.choice(acting)
    return d.seat, rng.choice(d.options)


def _ids_in(message: mpb.ServerMessage) -> list[str]:
    """Every object id a decoded server message names (objects, removals, zones, events,
    decision options)."""
    out: list[str] = []
    if message.HasField("delta"):
        for op in message.delta.ops:
            kind = op.WhichOneof("op")
            if kind in ("create_object", "update_object", "reveal_object"):
                obj = getattr(op, kind)
                out += [obj.id, obj.attached_to, *obj.blocking,
                        *(t.object_id for t in obj.targets)]
            elif kind in ("remove_object", "conceal_object"):
                out.append(getattr(op, kind))
            elif kind == "set_zone":
                out += list(op.set_zone.object_ids)
        for event in message.delta.events:
            inner = getattr(event, event.WhichOneof("kind") or "")
            for name in ("old_id", "new_id", "object_id", "source_id"):
                if hasattr(inner, name):
                    out.append(getattr(inner, name))
            out += list(getattr(inner, "attacker_ids", []))
            for card_ in getattr(inner, "cards", []):
                out.append(card_.object_id)
    if message.HasField("decision"):
        for option in message.decision.options:
            inner = getattr(option, option.WhichOneof("kind") or "")
            for name in ("object_id", "attacker_id", "planeswalker_id"):
                if hasattr(inner, name):
                    out.append(getattr(inner, name))
    return [i for i in out if i]


class Run:
    """One game through the pipeline: every message each viewer receives is checked."""

    def __init__(self, game: Game) -> None:
        self.game = game
        # Every seat, the spectators and the delayed omniscient tier's class (every hand).
        self.viewers = [*range(len(game.players)), SPECTATOR, EVERY_HAND]
        self.tracker = GameTracker()
        step = self.tracker.step(game).number
        self.streams = {v: ViewStream.start(game, v, step) for v in self.viewers}
        self.mirrors: dict[int, Mirror] = {}
        #: Each viewer's encodings of its full projections' objects, an unchanged object's
        #: kept (the reference's own, not the streams'): objects were built again each step.
        self.encodings = {v: ObjectCache() for v in self.viewers}
        self.messages = 0
        self.ids_checked = 0
        #: Ids each viewer has been shown so far (in its view, or by a reveal or a look).
        self.shown: dict[int, set[str]] = {v: set(s.objects) for v, s in self.streams.items()}
        for v, stream in self.streams.items():
            mirror = Mirror()
            mirror.load_snapshot(mpb.ServerMessage.FromString(stream.snapshot("r")).snapshot)
            self.mirrors[v] = mirror

    def step(self, seat: int, action: object) -> dict[int, list[bytes]]:
        game = self.game
        before = {v: hidden_from(game, v) for v in self.viewers}
        seen_before = {v: set(self.streams[v].objects) for v in self.viewers}
        events = apply(game, seat, action)  # type: ignore[arg-type]
        for event in events:
            if isinstance(event, CardsRevealed):
                for v in event.seats:
                    self.shown.setdefault(v, set()).update(event.object_ids)
        changes = self.tracker.step(game, action)
        sent: dict[int, list[bytes]] = {}
        for v in self.viewers:
            stream = self.streams[v]
            data = stream.advance(game, changes, events)
            out = [data] if data is not None else []
            if game.pending is not None and game.pending.seat == v:
                decision = encode_decision(game.pending, stream.view, "r", stream.state_id)
                out.append(mpb.ServerMessage(decision=decision).SerializeToString())
            sent[v] = out
            self.shown[v].update(stream.objects)
            after = hidden_from(game, v)
            never_seen = (before[v] | after) - seen_before[v] - set(stream.objects)
            self._check(v, out, never_seen)
        return sent

    def _check(self, viewer: int, out: list[bytes], never_seen: set[str]) -> None:
        stream = self.streams[viewer]
        for data in out:
            self.messages += 1
            message = mpb.ServerMessage.FromString(data)
            named = _ids_in(message)
            self.ids_checked += len(named)
            leaked = never_seen.intersection(named)
            assert not leaked, f"viewer {viewer} was told hidden ids {leaked}"
            for oid in never_seen:  # not even as bytes in some other field
                assert oid.encode() not in data, f"hidden id {oid} in bytes for {viewer}"
            if message.HasField("delta"):
                self.mirrors[viewer].apply_delta(message.delta)
        full = project(self.game, viewer)
        assert (stream.header, stream.players, stream.objects, stream.zones) == \
            (full.header, full.players, full.objects, full.zones)
        assert self.mirrors[viewer].view() == encode_view(full, self.encodings[viewer])


LEAK_TOTALS = {"messages": 0, "ids": 0, "violations": 0}


@SETTINGS
@given(seed=st.binary(min_size=16, max_size=24), choices=st.integers(0, 2**32 - 1),
       steps=st.integers(20, 90), players=st.sampled_from([2, 2, 3]))
def test_exact_deltas_leak_checker_and_ids_never_tracked_400_2_400_7_701_20(
        seed: bytes, choices: int, steps: int, players: int) -> None:
    """Three properties checked on the same random games of 2 or 3 players (they were three
    tests drawing games the same way, each playing its own: one game now serves all three,
    every check kept).

    Deltas are exact for every view class: after every message the client mirror agrees
    with a full projection and with the view hash (Mirror raises otherwise), and so does the
    stream (:meth:`Run.step` checks each); at the end, the mirror's view hash is the
    stream's.

    The leak checker (400.2, 701.20): every message of every viewer is decoded; no object id
    it names is one the viewer has never been allowed to see, and no such id occurs anywhere
    in its bytes. Neither the game seed nor the random generator's key ever leaves
    (architecture invariant 3).

    Ids can't be tracked through a shuffle or a hidden zone change (rule 400.7, architecture
    invariant 5): a card that leaves a viewer's sight through a hidden zone (or a shuffle)
    comes back under an id that viewer never saw, and no id ever names two different
    objects."""
    game = secrets_game(seed, players)
    run = Run(game)
    rng = random.Random(choices)
    secret = [seed, seed.hex().encode(), game.rng._key, game.rng._key.hex().encode()]
    ever: dict[int, set[str]] = {v: set(run.streams[v].objects) for v in run.viewers}
    lost: dict[int, set[str]] = {v: set() for v in run.viewers}
    retired: set[str] = set()
    for _ in range(steps):
        if game.result is not None:
            break
        before = set(game.objects)
        for out in run.step(*choose(rng, game)).values():
            for data in out:
                assert not any(s in data for s in secret), "seed or RNG key in a message"
        library = [i for p in game.players for i in p.library]
        for v in run.viewers:
            snapshot = run.streams[v].snapshot("r")
            hidden = hidden_from(game, v)
            assert not any(i.encode() in snapshot for i in library if i in hidden)
        now_ids = set(game.objects)
        assert not (now_ids - before) & retired, "an id was issued to a second object"
        retired |= before - now_ids
        for v in run.viewers:
            now = set(run.streams[v].objects)
            assert not (lost[v] & now), "an id a viewer lost sight of came back"
            lost[v] |= ever[v] - now - now_ids
            ever[v] |= now
    for v in run.viewers:
        assert run.mirrors[v].view() == encode_view(project(game, v))
        assert view_hash(run.mirrors[v].view()) == run.streams[v].digest.hash(v)
    LEAK_TOTALS["messages"] += run.messages
    LEAK_TOTALS["ids"] += run.ids_checked
    print(f"leak check: {run.messages} messages, {run.ids_checked} ids checked, 0 violations")


@SETTINGS
@given(seed=st.binary(min_size=16, max_size=24), choices=st.integers(0, 2**32 - 1),
       steps=st.integers(0, 60), permutation=st.randoms(use_true_random=False))
def test_non_interference_permuting_hidden_identities_changes_no_byte_a_viewer_gets(
        seed: bytes, choices: int, steps: int, permutation: random.Random) -> None:
    """Two games identical except that the cards hidden from seat 0 (the other player's hand
    and both libraries) have their identities permuted: seat 0's snapshot and every
    following delta and decision it receives are byte for byte the same, as long as those
    cards stay hidden from it and the same actions are taken."""
    a = secrets_game(seed)
    rng = random.Random(choices)
    for _ in range(steps):
        if a.result is not None:
            return
        seat, action = choose(rng, a)
        apply(a, seat, action)  # type: ignore[arg-type]
    b = secrets_game(seed)
    rng = random.Random(choices)
    for _ in range(steps):
        seat, action = choose(rng, b)
        apply(b, seat, action)  # type: ignore[arg-type]
    hidden = sorted(hidden_from(b, 0))
    shuffled = [b.objects[i].card for i in hidden]
    permutation.shuffle(shuffled)
    for oid, new_card in zip(hidden, shuffled, strict=True):
        b.objects[oid] = replace(b.objects[oid], card=new_card)
    runs = (Run(a), Run(b))
    assert runs[0].streams[0].snapshot("r") == runs[1].streams[0].snapshot("r")
    for _ in range(20):
        d = a.pending
        if d is None or a.result is not None:
            break
        options_a = [o for o in d.options if o in (b.pending.options if b.pending else ())]
        if not options_a:
            break
        action = rng.choice(options_a)
        sent_a, sent_b = runs[0].step(d.seat, action), runs[1].step(d.seat, action)
        if set(hidden) & (runs[0].shown[0] | runs[1].shown[0]) or \
                set(hidden) - hidden_from(b, 0) or set(hidden) - hidden_from(a, 0):
            break  # a permuted card was shown to seat 0 or moved: the games may now differ
        assert sent_a[0] == sent_b[0]


def test_signature_fields_cover_every_game_object_field() -> None:
    """The tracker must know every field: each is either projected (and in the signature)
    or declared unprojected, so a new field can't silently be missed by the streams."""
    from dataclasses import fields

    from server.engine import GameObject
    names = {f.name for f in fields(GameObject)}
    listed = [*PROJECTED, *PROJECTED_FIXED, *PROJECTED_MUTABLE, *NOT_PROJECTED]
    assert names == set(listed) and len(listed) == len(names)


def test_fixed_fields_never_change_on_an_object_already_in_the_game_400_7(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The tracker doesn't read :data:`PROJECTED_FIXED`: whole games (demo decks, and the
    hidden-information decks with tokens, copies and face-down exile) never assign one of
    them on an object once it is in the game, except to the value it already has."""
    from server.cards import demo_deck, demo_deck_names
    from server.engine import GameObject

    games: list[Game] = []
    writes: list[str] = []

    def watch(obj: GameObject, name: str, value: object) -> None:
        if name in PROJECTED_FIXED and any(g.objects.get(obj.id) is obj for g in games) \
                and getattr(obj, name) != value:
            writes.append(f"{obj.card.name}.{name}")
        object.__setattr__(obj, name, value)

    monkeypatch.setattr(GameObject, "__setattr__", watch)
    actions = 0
    for g in range(4):
        rng = random.Random(g)
        game = new_game(g.to_bytes(16, "big"), [
            PlayerSetup(f"p{i}", demo_deck(rng.choice(demo_deck_names()))) for i in range(2)]) \
            if g % 2 else secrets_game(g.to_bytes(16, "big"), 3)
        games[:] = [game]
        for _ in range(3000):
            if game.result is not None:
                break
            seat, action = choose(rng, game)
            apply(game, seat, action)  # type: ignore[arg-type]
            actions += 1
    assert not writes
    assert actions > 1000


def test_zone_change_events_link_ids_only_when_visible_in_both_places_400_7() -> None:
    """A card drawn by the opponent: seat 0 learns only that a card moved from a library to a
    hand; the drawing player learns the new id but not the library id (it never saw it)."""
    game = secrets_game(b"events-0123456789abcdef")
    run = Run(game)
    rng = random.Random(3)
    drawn = 0
    for _ in range(300):
        if game.result is not None or drawn >= 3:
            break
        sent = run.step(*choose(rng, game))
        for v, out in sent.items():
            for data in out:
                message = mpb.ServerMessage.FromString(data)
                for event in message.delta.events if message.HasField("delta") else []:
                    if event.WhichOneof("kind") != "zone_change":
                        continue
                    change = event.zone_change
                    if change.from_zone == pb.ZONE_KIND_LIBRARY and \
                            change.to_zone == pb.ZONE_KIND_HAND:
                        drawn += 1
                        assert change.old_id == ""  # never seen in the library
                        sees_hand = v in (change.owner, EVERY_HAND)
                        assert (change.new_id != "") == sees_hand
                        assert (change.name != "") == sees_hand
    assert drawn
    assert all(o.zone is not Zone.LIBRARY for o in project(game, SPECTATOR).objects.values())


def test_streams_equal_a_full_projection_after_every_action_of_whole_demo_games() -> None:
    """Whole 3-player games with the demo decks (long games, paused resolutions, priority
    passes that only move priority): after every action each stream equals a full
    projection, its view hash equals the hash of the full view, and the delta's events are
    exactly the action's events projected between the full views before and after it (rule
    400.7: old and new ids linked only where the viewer saw both)."""
    from server.cards import demo_deck, demo_deck_names

    checked_events = 0
    for g in range(WHOLE_GAMES):
        rng = random.Random(g)
        decks = demo_deck_names()
        game = new_game(g.to_bytes(16, "big"),
                        [PlayerSetup(f"p{i}", demo_deck(rng.choice(decks))) for i in range(3)])
        tracker = GameTracker()
        step = tracker.step(game).number
        streams = [ViewStream.start(game, v, step) for v in (0, 1, 2, SPECTATOR, EVERY_HAND)]
        for _ in range(3000):
            if game.result is not None:
                break
            d = game.pending
            assert d is not None
            action = rng.choice(d.options)
            before = {s.viewer: dict(s.objects) for s in streams}
            events = apply(game, d.seat, action)
            changes = tracker.step(game, action)
            for stream in streams:
                data = stream.advance(game, changes, events)
                full = project(game, stream.viewer)
                assert (stream.header, stream.players, stream.objects, stream.zones) == \
                    (full.header, full.players, full.objects, full.zones)
                assert stream.digest.hash(stream.viewer) == view_hash(encode_view(full))
                told = list(mpb.ServerMessage.FromString(data).delta.events) if data else []
                assert told == project_events(events, stream.viewer, before[stream.viewer],
                                              full.objects)
                checked_events += len(told)
    assert checked_events > 1000


def test_a_shuffled_library_is_all_new_ids_701_24a() -> None:
    """Architecture invariant 5: after a shuffle no card of the library keeps its id, so no
    viewer (not even one that looked at the library before, 701.23a) can follow a card."""
    from server.engine.zones import shuffle_library

    game = secrets_game(b"shuffle-ids-0123456789ab")
    before = list(game.player(0).library)
    shuffle_library(game, 0)
    after = game.player(0).library
    assert len(after) == len(before) and not set(before) & set(after)
    assert sorted(game.objects[i].card.name for i in after) == \
        sorted(c for c, n in SECRETS.items() for _ in range(n))



def test_508_1_the_attack_event_says_what_each_attacker_attacks() -> None:
    """The event carries whom each attacker attacks (a page loaded after combat had only
    the objects to ask, which no longer attack by then)."""
    from collections.abc import Mapping
    from typing import cast

    from server.engine.events import AttackersDeclared
    from server.view.project import ObjectView

    # (only which ids the viewer sees matters here)
    shown = cast(Mapping[str, ObjectView], dict.fromkeys(("a1", "a2", "w1")))
    [told] = project_events([AttackersDeclared(("a1", "hidden", "a2"), (1, 1, 2),
                                               ("", "", "w1"))], 0, shown, shown)
    declared = told.attackers_declared
    assert list(declared.attacker_ids) == ["a1", "a2"]
    assert list(declared.defenders) == [1, 2]
    assert list(declared.planeswalker_ids) == ["", "w1"]


def test_119_3_life_gained_or_lost_is_an_event_unless_damage_says_it() -> None:
    """Life went from 18 to 22 with no line in the log: the engine's life gain and loss
    weren't projected (found playing as a new user). They are now -- except the loss that
    damage to a player is (120.3a), which its damage event already says."""
    from server.engine.events import DamageDealt, LifeGained, LifeLost

    told = project_events([LifeGained(1, 4), DamageDealt("s1", 0, None, 2, False),
                           LifeLost(0, 2), LifeLost(1, 3)], 0, {}, {})
    assert [e.WhichOneof("kind") for e in told] == ["life_changed", "damage", "life_changed"]
    assert [(e.life_changed.seat, e.life_changed.amount) for e in told
            if e.HasField("life_changed")] == [(1, 4), (1, -3)]


def test_601_2g_a_payment_says_the_cost_and_how_much_mana_is_still_to_add() -> None:
    """A new user saw the same words at every payment ("Pay the cost: activate mana
    abilities, then choose the mana to spend ..."), never what was left to pay."""
    from pathlib import Path

    from server.engine import apply
    from server.engine.actions import ActivateManaAbility, CastSpell, ChooseTarget, ChooseX
    from server.scenarios.loading import Scenario
    from server.scenarios.position import Run
    from server.view.encode import decision_for

    data = {"name": "Shock paid", "rules": ["601.2g"],
            "setup": {"players": [{"hand": ["Volcanic Geyser"],
                                   "battlefield": ["Mountain", "Mountain", "Forest"]}, {}]}}
    game = Run(Scenario("Shock paid", ("601.2g",), Path(__file__), 0, data)).game

    def prompt() -> str:
        pending = game.pending
        assert pending is not None
        return decision_for(pending, 0, set(game.objects), (), room_id="r", state_id=1,
                            game=game).prompt

    geyser = next(o.id for o in game.objects.values() if o.card.name == "Volcanic Geyser")
    apply(game, 0, CastSpell(geyser))
    apply(game, 0, ChooseX(1))
    apply(game, 0, ChooseTarget(player=1))
    assert prompt() == ("Volcanic Geyser: Pay {1}{R}{R}: 3 more mana to add -- tap a source "
                        "for it, or pay automatically.")
    mountains = [o.id for o in game.objects.values() if o.card.name == "Mountain"]
    apply(game, 0, ActivateManaAbility(mountains[0], ""))
    assert "2 more mana to add" in prompt()
    for source in (mountains[1], next(o.id for o in game.objects.values()
                                      if o.card.name == "Forest")):
        apply(game, 0, ActivateManaAbility(source, ""))
    assert prompt() == ("Volcanic Geyser: Pay {1}{R}{R}: your mana pool covers it -- choose "
                        "the mana to spend.")


def test_601_2_a_decision_while_casting_says_what_is_being_cast() -> None:
    """"Choose a target." didn't say for what (a player with several spells and abilities
    in flight had to guess); it names the spell or ability now, which is on the stack."""
    from pathlib import Path

    from server.engine import apply
    from server.engine.actions import CastSpell
    from server.scenarios.loading import Scenario
    from server.scenarios.position import Run
    from server.view.encode import decision_for

    data = {"name": "Shock being cast", "rules": ["601.2c"],
            "setup": {"players": [{"mana_pool": "R", "hand": ["Shock"]}, {}]}}
    game = Run(Scenario("Shock being cast", ("601.2c",), Path(__file__), 0, data)).game
    pending = game.pending
    assert pending is not None
    shown = set(game.objects)
    assert decision_for(pending, 0, shown, (), room_id="r", state_id=1,
                        game=game).prompt == "You have priority: act or pass."
    shock = next(o.id for o in game.objects.values() if o.card.name == "Shock")
    apply(game, 0, CastSpell(shock))
    pending = game.pending
    assert pending is not None
    assert decision_for(pending, 0, set(game.objects), (), room_id="r", state_id=2,
                        game=game).prompt == "Shock: Choose a target -- any target."


def test_103_1_103_5_the_starting_players_choice_and_each_mulligan_are_told_to_everyone() -> None:
    """Nobody was told who chose to play first, nor that a player took a mulligan (a new
    user read 'a card moved from hand to library (x7)')."""
    from server.cards import demo_deck
    from server.engine import PlayerSetup, apply, new_game
    from server.engine.actions import ChooseStartingPlayer, KeepHand, TakeMulligan
    from server.view import SPECTATOR
    from server.view.events import project_events

    game = new_game(b"\x05" * 16, [PlayerSetup(n, demo_deck("naya-pets")) for n in "AB"])
    pending = game.pending
    assert pending is not None and pending.kind.name == "CHOOSE_STARTING_PLAYER"
    chooser = pending.seat
    told = apply(game, chooser, ChooseStartingPlayer(1 - chooser))
    told += apply(game, 1 - chooser, TakeMulligan())  # the starting player declares first
    told += apply(game, chooser, KeepHand())
    for viewer in (0, 1, SPECTATOR):
        events = project_events(told, viewer, {}, {})
        chosen = [e.starting_player_chosen for e in events
                  if e.HasField("starting_player_chosen")]
        assert [(c.chooser, c.starting) for c in chosen] == [(chooser, 1 - chooser)]
        assert [(e.mulligan_taken.seat, e.mulligan_taken.number) for e in events
                if e.HasField("mulligan_taken")] == [(1 - chooser, 1)]
