"""The terminal board's rendering, from fixed views and decisions (no terminal, no server):
zones, life and counts, the stack, numbered options with mana in braces, events naming
objects that left the view, and a spectator's screen with no hidden card."""

from __future__ import annotations

from client_sdk.board import Board, frame_text, permanent_text
from client_sdk.describe import (
    distinct_labels,
    event_text,
    mana_symbol_words,
    option_text,
    option_whose,
)
from client_sdk.mirror import Mirror
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb
from protocol.viewhash import view_hash

ANN, BOB, SPECTATOR = 0, 1, -1


def _obj(oid: str, name: str, kind: int, owner: int, **fields: object) -> pb.GameObject:
    return pb.GameObject(id=oid, name=name, zone=pb.ZoneRef(kind=kind, owner=owner),  # type: ignore[arg-type]
                         owner=owner, controller=owner, **fields)  # type: ignore[arg-type]


BATTLEFIELD, HAND, STACK, GRAVEYARD, EXILE = (
    pb.ZONE_KIND_BATTLEFIELD, pb.ZONE_KIND_HAND, pb.ZONE_KIND_STACK, pb.ZONE_KIND_GRAVEYARD,
    pb.ZONE_KIND_EXILE)


def _view(viewer: int) -> pb.View:
    """Turn 3, Bob's declare attackers step: Bob's Shock targets Ann on the stack."""
    objects = [
        _obj("f1", "Forest", BATTLEFIELD, ANN, card_types=["Land"], tapped=True),
        _obj("e1", "Llanowar Elves", BATTLEFIELD, ANN, card_types=["Creature"], power=1,
             toughness=1, summoning_sick=True, mana_cost="{G}"),
        _obj("g1", "Goblin Guide", BATTLEFIELD, BOB, card_types=["Creature"], power=2,
             toughness=2, attacking=ANN, tapped=True),
        _obj("s1", "Shock", STACK, BOB, mana_cost="{R}", targets=[pb.Target(player=ANN)]),
        _obj("b1", "Lightning Bolt", GRAVEYARD, BOB, mana_cost="{R}"),
        _obj("x1", "Colossal Dreadmaw", EXILE, ANN, mana_cost="{4}{G}{G}"),
        _obj("x2", "Scavenging Ooze", EXILE, BOB, mana_cost="{1}{G}"),
    ]
    zones = {(BATTLEFIELD, -1): ["f1", "e1", "g1"], (STACK, -1): ["s1"],
             (GRAVEYARD, BOB): ["b1"], (EXILE, -1): ["x1", "x2"]}
    if viewer == ANN:  # only Ann sees her hand
        objects.append(_obj("h1", "Grizzly Bears", HAND, ANN, mana_cost="{1}{G}",
                            card_types=["Creature"]))
        objects.append(_obj("h2", "Forest", HAND, ANN, card_types=["Land"]))
        zones[(HAND, ANN)] = ["h1", "h2"]
    header = pb.GameHeader(turn=3, active_seat=BOB, step=pb.STEP_DECLARE_ATTACKERS,
                           priority_seat=ANN, phase=pb.GAME_PHASE_PLAYING,
                           pending=pb.PendingInfo(seat=ANN, kind=pb.DECISION_KIND_PRIORITY,
                                                  prompt_id=7))
    players = [
        pb.Player(seat=ANN, name="Ann", life=20, library_count=50, hand_count=2,
                  mana_pool=pb.ManaPool(green=1)),
        pb.Player(seat=BOB, name="Bob", life=17, library_count=48, hand_count=4, poison=2),
    ]
    objects.sort(key=lambda o: o.id)
    return pb.View(viewer=viewer, header=header, players=players, objects=objects,
                   zones=[pb.ZoneContents(zone=pb.ZoneRef(kind=k, owner=o),
                                          object_ids=ids)
                          for (k, o), ids in sorted(zones.items())])


def _board(viewer: int) -> Board:
    mirror = Mirror()
    view = _view(viewer)
    mirror.load_snapshot(pb.Snapshot(room_id="r1", state_id=5, view=view,
                                     view_hash=view_hash(view)))
    board = Board(mirror, seat=viewer, watching=viewer == SPECTATOR,
                  room=mpb.RoomInfo(room_id="r1", name="friday"), account="Ann#0001")
    board.absorb(mpb.ServerMessage(snapshot=pb.Snapshot(view=view)), now=0.0)
    board.absorb(mpb.ServerMessage(clocks=mpb.Clocks(seats=[
        mpb.ClockState(seat=ANN, remaining_ms=1_500_000, running=True),
        mpb.ClockState(seat=BOB, remaining_ms=61_000)])), now=100.0)
    board.absorb(mpb.ServerMessage(presence=mpb.Presence(seats=[
        mpb.SeatPresence(seat=ANN, connected=True),
        mpb.SeatPresence(seat=BOB, connected=False)])), now=100.0)
    return board


DECISION = pb.Decision(prompt_id=7, seat=ANN, kind=pb.DECISION_KIND_PRIORITY, prompt="Act or pass.",
                       options=[
                           pb.Action(pass_priority=pb.PassPriority()),
                           pb.Action(cast_spell=pb.CastSpell(object_id="h1")),
                           pb.Action(play_land=pb.PlayLand(object_id="h2")),
                           pb.Action(activate_mana_ability=pb.ActivateManaAbility(
                               object_id="e1", mana="G")),
                           pb.Action(activate_mana_ability=pb.ActivateManaAbility(
                               object_id="e1", mana="G")),
                       ])


def test_302_6_summoning_sick_is_said_in_its_controllers_turn_only_and_never_with_haste(
        ) -> None:
    """As the web client's badge: an opponent's creature said "summoning sick" in your turn
    read as "can't block", and a haste creature's sickness stops nothing (new player,
    round 9)."""
    board = _board(ANN)
    elves = next(o for o in board.mirror.objects.values() if o.name == "Llanowar Elves")
    assert elves.summoning_sick and elves.controller == ANN
    assert "summoning sick" not in permanent_text(board, elves)  # Bob's turn
    board.mirror.header.active_seat = ANN
    assert permanent_text(board, elves) == "Llanowar Elves 1/1 (summoning sick)"
    elves.keywords.append("Haste")
    assert "summoning sick" not in permanent_text(board, elves)


def test_a_players_screen_shows_zones_life_stack_clocks_and_numbered_options() -> None:
    board = _board(ANN)
    board.decision = DECISION
    text = frame_text(board, now=110.0)
    assert "room r1 (friday)" in text and "you are Ann#0001" in text and "connected" in text
    assert "Turn 3 · Bob's turn · Declare attackers · priority: you" in text
    # Life, poison, counts, mana pool, clocks (Ann's running since 10 s), presence.
    assert "You (Ann) seat 1  life 20  hand 2  library 50  mana {G}  clock 24:50 (running)" \
        in text
    assert "Bob seat 2  life 17  poison 2  hand 4  library 48  clock 1:01  disconnected" in text
    # Zones: permanents with their state, the hand with mana costs, graveyards, the stack.
    assert "Goblin Guide 2/2 (tapped, attacking you)" in text
    # (Ann's Elves are summoning sick, but it is Bob's turn: they may block, 302.6.)
    assert "battlefield: Llanowar Elves 1/1\n" in text and "Forest (tapped)" in text
    assert "hand:" in text and "Grizzly Bears {1}{G} · Forest" in text
    assert "graveyard (1): Lightning Bolt" in text
    assert "1. Shock (Bob) -> you" in text
    # The decision: numbered options in words, mana in braces, same words told apart.
    assert "Your decision #7: priority" in text and "Act or pass." in text
    for line in ("1. Pass priority  [p]", "2. Cast Grizzly Bears {1}{G}", "3. Play Forest",
                 "4. Tap Llanowar Elves for {G} (1 of 2)",
                 "5. Tap Llanowar Elves for {G} (2 of 2)"):
        assert line in text, line
    assert "p: pass priority" in text and "q: quit (concedes the game)" in text
    assert text.rstrip().endswith(">")


def test_108_3_exile_is_shared_so_each_exiled_card_says_whose_it_is() -> None:
    """The exile line listed the cards alone: in a game of several players nobody could tell
    whose a card was (it goes back to its owner, 108.3, 610.3)."""
    assert "exile: Colossal Dreadmaw {4}{G}{G} (you) · Scavenging Ooze {1}{G} (Bob)" \
        in frame_text(_board(ANN), now=110.0)
    assert "exile: Colossal Dreadmaw {4}{G}{G} (Ann) · Scavenging Ooze {1}{G} (Bob)" \
        in frame_text(_board(SPECTATOR), now=110.0)
    # Under a rule of its own: under the stack's it read as on the stack (a new user).
    lines = frame_text(_board(ANN), now=110.0).splitlines()
    at = next(i for i, line in enumerate(lines) if "exile:" in line)
    assert lines[at - 1].startswith("Exile ─")


def test_events_name_objects_that_left_the_view_in_the_same_delta() -> None:
    board = _board(ANN)
    # Shock resolves: it leaves the stack (and the view) in the delta that tells its damage.
    view = _view(ANN)
    for z in view.zones:
        if z.zone.kind == STACK:
            del z.object_ids[:]
    kept = [o for o in view.objects if o.id != "s1"]
    del view.objects[:]
    view.objects.extend(kept)
    view.players[ANN].life = 18
    delta = pb.Delta(prev_state_id=5, state_id=6, view_hash=view_hash(view), ops=[
        pb.DeltaOp(remove_object="s1"),
        pb.DeltaOp(set_zone=pb.ZoneContents(zone=pb.ZoneRef(kind=STACK, owner=-1))),
        pb.DeltaOp(set_player=view.players[ANN]),
    ], events=[
        pb.GameEvent(damage=pb.DamageEvent(source_id="s1", player=ANN, amount=2)),
        pb.GameEvent(zone_change=pb.ZoneChangeEvent(owner=BOB, from_zone=STACK,
                                                    to_zone=GRAVEYARD, old_id="s1",
                                                    name="Shock")),
        pb.GameEvent(card_drawn=pb.CardDrawnEvent(seat=BOB)),
        pb.GameEvent(card_drawn=pb.CardDrawnEvent(seat=BOB)),
    ])
    board.mirror.apply_delta(delta)
    board.absorb(mpb.ServerMessage(delta=delta), now=1.0)
    text = frame_text(board, now=1.0)
    assert "Shock dealt 2 damage to you" in text
    assert "Bob's Shock moved from the stack to their graveyard" in text
    assert "Bob drew a card (x2)" in text
    assert "Stack: empty" in text and "life 18" in text


def test_a_spectators_screen_shows_no_hidden_card_and_no_decision() -> None:
    board = _board(SPECTATOR)
    text = frame_text(board, now=0.0)
    assert "watching" in text and "Grizzly Bears" not in text
    assert "hand:" not in text and "Ann seat 1  life 20  hand 2" in text
    assert "Your decision" not in text and "Waiting: Ann is deciding (priority)" in text
    assert "Watching (read-only). q: stop watching" in text
    # The public zones are all there.
    assert "Goblin Guide 2/2 (tapped, attacking Ann)" in text and "Shock (Bob) -> Ann" in text


def test_a_tier_that_sees_every_hand_labels_them_hand_not_revealed() -> None:
    """On the every-hand tier each hand read "hand (revealed)", as if a card had been
    revealed in the game (found by a caster): it is a plain "hand", as the web's "Hand (2)"."""
    view = _view(ANN)
    view.viewer = -3  # (the every-hand tier's view: Ann's hand listed)
    mirror = Mirror()
    mirror.load_snapshot(pb.Snapshot(room_id="r1", state_id=5, view=view,
                                     view_hash=view_hash(view)))
    board = Board(mirror, watching=True, tier=1, room=mpb.RoomInfo(room_id="r1", tiers=[
        mpb.SpectatorTier(kind=mpb.TIER_KIND_OMNISCIENT, delay_seconds=60, invite=True)]))
    text = frame_text(board, now=0.0)
    assert "watching every hand, 60 s behind" in text
    assert "hand:" in text and "Grizzly Bears {1}{G} · Forest" in text, text
    assert "revealed" not in text


def test_game_over_and_a_dropped_connection_are_said_in_words() -> None:
    board = _board(ANN)
    board.connected = False
    assert "connection lost: reconnecting..." in frame_text(board, now=0.0)
    board.connected, board.resumes = True, 2
    assert "connected (resumed 2 times)" in frame_text(board, now=0.0)
    header = pb.GameHeader()
    header.CopyFrom(board.mirror.header)
    header.ClearField("pending")
    header.result.winners.append(BOB)
    header.result.reason = "Ann has 0 or less life"
    board.mirror.header = header
    assert board.result_line() == "Game over: Bob won (you have 0 or less life)"
    text = frame_text(board, now=0.0)
    assert "Game over: Bob won" in text and "Your decision" not in text


def test_option_and_mana_wording() -> None:
    board = _board(ANN)
    attack = pb.Action(declare_attacker=pb.DeclareAttacker(object_id="e1", defender=BOB))
    assert option_text(board, attack) == "Attack Bob with Llanowar Elves"
    block = pb.Action(declare_blocker=pb.DeclareBlocker(object_id="e1", attacker_id="g1"))
    assert option_text(board, block) == "Block Goblin Guide with Llanowar Elves"
    assert option_text(board, pb.Action(pay_mana=pb.PayMana(mana="RRB"))) == "Pay {R}{R}{B}"
    # Rules 605.1a, 601.2h: an ability whose cost is mana says how it is paid (Prismite's {2}).
    convert = pb.ActivateManaAbility(object_id="e1", mana="W", paid_with="RG")
    assert option_text(board, pb.Action(activate_mana_ability=convert)) == \
        "Pay {R}{G} to Llanowar Elves for {W}"
    assert option_text(board, pb.Action(choose_color=pb.ChooseColor(color="R"))) == "Red"
    # Rule 616.1: which replacement applies -- a dying creature's, or what prevents damage to
    # the player (a Nine Lives named, a resolved spell's effect, protection).
    def replacement(object_id: str, what: str) -> str:
        return option_text(board, pb.Action(choose_replacement=pb.ChooseReplacement(
            object_id=object_id, replacement=what)))

    assert replacement("e1", "exile") == "Llanowar Elves: exile instead"
    assert replacement("e1", "prevent") == "Prevent it with Llanowar Elves"
    assert replacement("", "prevent") == "Prevent it with a resolved spell's effect"
    assert replacement("e1", "protection") == "Prevent it: protection (Llanowar Elves)"
    # Rules 602.1, 700.2: an ability or a mode reads as printed (an older server: its index).
    ability = pb.ActivateAbility(object_id=block.declare_blocker.object_id, ability=1)
    assert option_text(board, pb.Action(activate_ability=ability)) == \
        "Activate Llanowar Elves's ability 2"
    ability.text = "{T}: Add {G}."
    assert option_text(board, pb.Action(activate_ability=ability)) == \
        "Activate Llanowar Elves: {T}: Add {G}."
    mode = pb.ChooseMode(mode=1)
    assert option_text(board, pb.Action(choose_mode=mode)) == "Mode 2"
    mode.text = "Destroy target enchantment."
    assert option_text(board, pb.Action(choose_mode=mode)) == "Mode 2: Destroy target enchantment."
    assert option_text(board, pb.Action(choose_name=pb.ChooseName(name="Lifelink"))) == \
        "Lifelink"
    assert option_text(board, pb.Action(choose_target=pb.ChooseTarget(
        target=pb.Target(object_id="gone")))) == "Target a card you can't see"
    assert option_text(board, pb.Action()) == \
        "An option this client doesn't understand (empty)"
    assert [mana_symbol_words(s) for s in ("{R}", "{2}", "{W/U}", "{T}")] == \
        ["red mana", "2 generic mana", "white or blue mana", "tap"]


def test_a_match_shows_the_score_and_between_games_the_sideboarding() -> None:
    # Rules 100.6a and 100.4: "Game 2 of 3 · 1-0", then the deck choice between games.
    board = _board(ANN)
    playing = mpb.MatchState(best_of=3, game_number=2, wins=[1, 0],
                             phase=mpb.MATCH_PHASE_PLAYING, winner=-1)
    board.absorb(mpb.ServerMessage(match_state=playing), now=100.0)
    screen = frame_text(board, 100.0)
    assert "Game 2 of 3 · you 1 \N{EN DASH} Bob 0" in screen and "best of 3" in screen
    assert "-- Game 2 of 3 (you 1 \N{EN DASH} Bob 0) --" in screen
    # Leaving a match concedes all of it; one game can be conceded on its own.
    assert "concede: this game · q: quit (concedes the match)" in " ".join(screen.split())
    board.mirror.header.result.CopyFrom(pb.GameResult(winners=[BOB], reason="conceded"))
    between = mpb.MatchState(best_of=3, game_number=3, wins=[1, 1],
                             phase=mpb.MATCH_PHASE_SIDEBOARDING, sideboard_remaining_ms=90_000,
                             ready=[False, True], winner=-1)
    board.absorb(mpb.ServerMessage(match_state=between), now=100.0)
    board.sideboard_needed = True
    screen = frame_text(board, 130.0)
    # Between games the header says which game is over (it said "Game 3 of 3" over game
    # 2's last board, as if game 3 were over: found by a caster).
    assert ("Game 2 of 3 over: Bob won (conceded) · you 1 \N{EN DASH} Bob 1 · sideboarding "
            "for game 3") in screen
    assert "Game 3 of 3" not in screen
    assert "Between games: your deck for game 3 (1:00 left)" in screen
    assert "k. Keep my deck" in screen and "d. Paste a sideboarded deck list" in screen
    assert "Your deck now" not in screen  # (not known yet)
    # The deck the server stored (Joined.deck, DeckAccepted.deck): shown, to type it again
    # with its changes (the terminal showed no list: a new user had to find their file).
    board.absorb(mpb.ServerMessage(request_id=4, deck_accepted=mpb.DeckAccepted(
        game_number=3, kept=True, main_count=60, sideboard_count=4,
        deck="Name Burn\n4 Shock\n56 Mountain\n\nSideboard\n4 Plains\n")), now=130.0)
    # One card a line, as a deck list to paste back (joined with " · " on one line, it was
    # refused pasted: "unknown or unsupported card 'Shock · 3 Scorching Dragonfire'").
    screen = frame_text(board, 130.0)
    shown = screen[screen.index("Your deck now"):screen.index("k. Keep my deck")]
    assert shown.splitlines()[1:-1] == ["Name Burn", "4 Shock", "56 Mountain", "",
                                      "Sideboard", "4 Plains"], shown
    board.pasting = ["4 Shock"]
    assert "Pasting a deck list: 1 line(s) so far" in frame_text(board, 130.0)
    watching = _board(SPECTATOR)
    watching.absorb(mpb.ServerMessage(match_state=between), now=0.0)
    watching.mirror.header.result.CopyFrom(pb.GameResult(winners=[BOB], reason="conceded"))
    screen = frame_text(watching, 0.0)
    assert "Sideboarding for game 3 (1:30 left): waiting for Ann" in screen
    assert "Keep my deck" not in screen
    # A delayed tier gets no live time (0) and, after a restart, nobody ready for a while:
    # it read "(0:00 left): waiting for Ann, Bob" all through (found by a caster). Its
    # screen says neither -- only who has chosen a deck, never false.
    tier = _board(SPECTATOR)
    tier.absorb(mpb.ServerMessage(joined=mpb.Joined(role=mpb.ROLE_SPECTATOR, seat=-1, tier=1,
                                                    room=tier.room)), now=0.0)
    delayed = mpb.MatchState(best_of=3, game_number=3, wins=[1, 1],
                             phase=mpb.MATCH_PHASE_SIDEBOARDING, ready=[False, False],
                             winner=-1)
    tier.absorb(mpb.ServerMessage(match_state=delayed), now=0.0)
    tier.mirror.header.result.CopyFrom(pb.GameResult(winners=[BOB], reason="conceded"))
    screen = frame_text(tier, 30.0)
    assert "Sideboarding for game 3\n" in screen and "left" not in screen, screen
    assert "waiting for" not in screen
    delayed.ready[:] = [False, True]
    tier.absorb(mpb.ServerMessage(match_state=delayed), now=0.0)
    assert "Sideboarding for game 3 (deck chosen: Bob)" in frame_text(tier, 30.0)
    third = mpb.MatchState(best_of=3, game_number=3, wins=[1, 1],
                           phase=mpb.MATCH_PHASE_PLAYING, winner=-1)
    board.absorb(mpb.ServerMessage(match_state=third), now=150.0)  # game 3 starts
    assert list(board.events) == [("-- Game 3 of 3 (you 1 \N{EN DASH} Bob 1) --", 1)]
    over = mpb.MatchState(best_of=3, game_number=3, wins=[2, 1], phase=mpb.MATCH_PHASE_OVER,
                          winner=ANN, reason="Ann won 2 of 3 games")
    board.absorb(mpb.ServerMessage(match_state=over), now=140.0)
    assert board.match_line() == ("Match over: you won the match, you 2 \N{EN DASH} Bob 1 "
                                  "(you won 2 of 3 games)")


def test_a_board_started_from_a_snapshot_shows_its_recent_events_under_the_game_line() -> None:
    """Back in a game in a new terminal (``play --token``): the snapshot's recent events fill
    the empty event list; the match's game line goes above them, not in their place."""
    view = _view(ANN)
    mirror = Mirror()
    mirror.load_snapshot(pb.Snapshot(room_id="r1", state_id=5, view=view,
                                     view_hash=view_hash(view)))
    board = Board(mirror, seat=ANN, watching=False, room=mpb.RoomInfo(room_id="r1"))
    recent = [pb.GameEvent(card_drawn=pb.CardDrawnEvent(seat=BOB)),
              pb.GameEvent(damage=pb.DamageEvent(source_id="b1", amount=3, player=ANN))]
    board.absorb(mpb.ServerMessage(snapshot=pb.Snapshot(view=view, recent_events=recent)),
                 now=0.0)
    lines = [text for text, _n in board.events]
    assert len(lines) == 2 and "Bob" in lines[0] and "Lightning Bolt" in lines[1], lines
    playing = mpb.MatchState(best_of=3, game_number=2, wins=[1, 0],
                             phase=mpb.MATCH_PHASE_PLAYING, winner=-1)
    board.absorb(mpb.ServerMessage(match_state=playing), now=0.0)
    assert [text for text, _n in board.events] == [
        "-- Game 2 of 3 (you 1 \N{EN DASH} Bob 0) --", *lines]
    # A resync mid-game adds nothing the list has already told.
    board.absorb(mpb.ServerMessage(snapshot=pb.Snapshot(view=view, recent_events=recent)),
                 now=1.0)
    assert len(board.events) == 3
    # After a drop too long for the missed deltas (a watcher stopped for a minute): the
    # board jumped to the end and the log stayed turns behind, saying nothing. It says so
    # now, then the snapshot's last events.
    later = [pb.GameEvent(player_lost=pb.PlayerLostEvent(seat=BOB, reason="Bob conceded"))]
    board.absorb(mpb.ServerMessage(snapshot=pb.Snapshot(view=view, recent_events=later)),
                 now=2.0)
    assert [text for text, _n in board.events][3:] == [
        "-- caught up: events were missed; the last ones --", "Bob lost: Bob conceded"]
    # A resync after that, with one event more: only that one.
    more = [*later, pb.GameEvent(card_drawn=pb.CardDrawnEvent(seat=ANN))]
    board.absorb(mpb.ServerMessage(snapshot=pb.Snapshot(view=view, recent_events=more)),
                 now=3.0)
    assert [text for text, _n in board.events][5:] == ["you drew a card"]
    # The next game of a match (its turn is back to 1): its events, no "missed" line.
    view.header.turn = 1
    board.mirror.load_snapshot(pb.Snapshot(room_id="r1", state_id=1, view=view,
                                           view_hash=view_hash(view)))
    first = [pb.GameEvent(card_drawn=pb.CardDrawnEvent(seat=BOB))]
    board.absorb(mpb.ServerMessage(snapshot=pb.Snapshot(view=view, recent_events=first)),
                 now=4.0)
    assert [text for text, _n in board.events][6:] == ["Bob drew a card"]


def test_a_deck_kept_for_the_next_game_is_no_longer_said_once_the_match_is_over() -> None:
    board = _board(ANN)
    board.absorb(mpb.ServerMessage(deck_accepted=mpb.DeckAccepted(game_number=3, kept=True)),
                 now=0.0)
    assert board.notice == "You keep your deck for game 3."
    over = mpb.MatchState(best_of=3, game_number=2, wins=[2, 0], phase=mpb.MATCH_PHASE_OVER,
                          winner=ANN, reason="Ann won 2 of 2 games")
    board.absorb(mpb.ServerMessage(match_state=over), now=0.0)
    assert board.notice == "" and "Match over" in board.events[-1][0]


def test_111_4_a_token_whose_name_says_token_isnt_a_token_token() -> None:
    from client_sdk.describe import event_text

    def told(name: str) -> str | None:
        return event_text(_board(ANN), pb.GameEvent(token_created=pb.TokenCreatedEvent(
            controller=ANN, name=name)))

    assert told("Treasure Token") == "you created a Treasure Token"  # not "... Token token"
    assert told("Knight") == "you created a Knight token"
    assert told("Angel Token") == "you created an Angel Token"  # not "a Angel"
    assert told("") == "you created a token"


def test_701_23_a_search_says_whose_library_from_the_viewers_side() -> None:
    from client_sdk.describe import event_text

    def told(viewer: int, seat: int, owner: int) -> str | None:
        event = pb.GameEvent(library_searched=pb.LibrarySearchedEvent(seat=seat, owner=owner,
                                                                     found=1))
        return event_text(_board(viewer), event)

    assert told(ANN, ANN, ANN) == "you searched your library and found a card"
    assert told(ANN, BOB, BOB) == "Bob searched their library and found a card"
    assert told(ANN, BOB, ANN) == "Bob searched your library and found a card"
    assert told(BOB, BOB, ANN) == "you searched Ann's library and found a card"
    assert told(SPECTATOR, ANN, BOB) == "Ann searched Bob's library and found a card"
    # The count in words (it read "found 1"): nothing, a card, 2 cards.
    for found, words in ((0, "nothing"), (2, "2 cards")):
        event = pb.GameEvent(library_searched=pb.LibrarySearchedEvent(seat=BOB, owner=BOB,
                                                                     found=found))
        assert event_text(_board(ANN), event) == f"Bob searched their library and found {words}"


def test_700_13_700_14_crimes_and_expending_are_logged_only_when_a_card_in_view_cares() -> None:
    """True of nearly every game (a Shock at the opponent is a crime): a line each time was
    noise to players of sets without such cards."""
    from client_sdk.describe import event_text

    board = _board(ANN)
    crime = pb.GameEvent(crime=pb.CrimeEvent(seat=BOB))
    expend = pb.GameEvent(expend=pb.ExpendEvent(seat=ANN, amount=4))
    assert event_text(board, crime) is None and event_text(board, expend) is None
    board.mirror.objects["h1"].rules_text = "Whenever you commit a crime, draw a card."
    assert event_text(board, crime) == "Bob committed a crime"
    assert event_text(board, expend) is None
    board.mirror.objects["h1"].rules_text = "Whenever you expend 4, you gain 1 life."
    assert event_text(board, expend) == "you expended 4"


def test_a_loss_of_ones_own_says_you_and_loyalty_is_a_number() -> None:
    """A 4-player game's loser read "Kilo#4596 lost the game" (but "You won"); a
    planeswalker with 1 loyalty read "(loyalty)" -- rule 306.5b: its loyalty is a number."""
    from client_sdk.describe import event_text

    board = _board(ANN)
    lost = pb.GameEvent(player_lost=pb.PlayerLostEvent(seat=ANN, reason="Ann conceded"))
    assert event_text(board, lost) == "you lost: you conceded"
    lost = pb.GameEvent(player_lost=pb.PlayerLostEvent(seat=BOB, reason="Bob conceded"))
    assert event_text(board, lost) == "Bob lost: Bob conceded"
    walker = pb.GameObject(id="p1", name="Liliana, Death Mage", card_types=["Planeswalker"],
                           counters=[pb.Counter(kind="loyalty", count=1)])
    assert permanent_text(board, walker) == "Liliana, Death Mage (loyalty 1)"
    walker.counters[0].count = 3
    walker.counters.add(kind="+1/+1", count=2)
    assert permanent_text(board, walker) == "Liliana, Death Mage (loyalty 3, +1/+1 x2)"

def test_an_answer_that_crossed_a_change_is_told_plainly() -> None:
    """Another player conceding sends the decision again under a new number: an answer on
    its way read "The server says: prompt 201 is not current (now 202, state 202)"."""
    board = _board(ANN)
    board.absorb(mpb.ServerMessage(error=mpb.Error(
        code=mpb.ERROR_CODE_STALE_PROMPT, message="prompt 201 is not current")), now=0.0)
    assert board.notice == "The decision changed as you answered: answer it again."
    board.absorb(mpb.ServerMessage(error=mpb.Error(
        code=mpb.ERROR_CODE_ILLEGAL_ACTION, message="no such option")), now=0.0)
    assert board.notice == "The server says: no such option"

def test_a_player_who_lost_while_the_others_play_on_is_not_offered_to_concede() -> None:
    """Rule 800.4a: in a game of three or more the others play on; the loser's help line
    still said "q: quit (concedes the game)"."""
    board = _board(ANN)
    assert "q: quit (concedes the game)" in frame_text(board, now=0.0)
    board.mirror.players[ANN].has_lost = True
    text = frame_text(board, now=0.0)
    assert "You have lost: the others play on. q: leave" in text
    assert "concedes" not in text

def test_508_1_the_attack_says_what_each_attacker_attacks() -> None:
    """In a 4-player game "Attacking: A, B, C" didn't say whom; only the board did, and
    only during combat."""
    from client_sdk.describe import event_text

    board = _board(ANN)  # Goblin Guide attacks Ann; Llanowar Elves (Ann's) attacks nobody
    declared = pb.GameEvent(attackers_declared=pb.AttackersDeclaredEvent(
        attacker_ids=["g1"]))
    assert event_text(board, declared) == "Attacking you: Goblin Guide"
    board.mirror.objects["e1"].attacking = BOB
    declared.attackers_declared.attacker_ids.append("e1")
    assert event_text(board, declared) == \
        "Attacking you: Goblin Guide; Attacking Bob: Llanowar Elves"
    assert event_text(board, pb.GameEvent(attackers_declared=pb.AttackersDeclaredEvent())) \
        == "No attackers"
    # The event says it itself (a board loaded after combat, where nothing attacks any
    # more, said only "Attacking: ...").
    board.mirror.objects["e1"].ClearField("attacking")
    board.mirror.objects["g1"].ClearField("attacking")
    told = pb.GameEvent(attackers_declared=pb.AttackersDeclaredEvent(
        attacker_ids=["g1", "e1"], defenders=[ANN, BOB], planeswalker_ids=["", ""]))
    assert event_text(board, told) == \
        "Attacking you: Goblin Guide; Attacking Bob: Llanowar Elves"


def test_a_refused_deck_is_said_once_and_every_problem_logged_once() -> None:
    """The notice listed the first three problems and the log every one: a new user read
    each problem twice."""
    board = _board(ANN)
    board.deck_request = 9
    problems = [f"problem {n}" for n in range(1, 8)]
    board.absorb(mpb.ServerMessage(request_id=9, error=mpb.Error(
        code=mpb.ERROR_CODE_INVALID_DECK, message="7 problem(s)", details=problems)), now=0.0)
    assert board.notice == "Deck refused: 7 problem(s) -- the problems are in the log above"
    assert [text for text, _n in board.events][-7:] == [f"Deck problem: {p}" for p in problems]


def test_a_list_refused_between_games_is_not_told_which_cards_the_server_supports() -> None:
    """A sideboarded list pasted wrong ("Shock · 3 Scorching Dragonfire" on one line) was
    refused with the note that the server supports M21's cards, which was not the problem:
    between games the list is the registered deck and sideboard (100.4)."""
    board = _board(ANN)
    board.deck_request, board.sideboard_needed = 9, True
    board.absorb(mpb.ServerMessage(request_id=9, error=mpb.Error(
        code=mpb.ERROR_CODE_INVALID_DECK,
        message="the deck can't be played in constructed: 1 problem(s) (this server supports "
                "the cards of Core Set 2021 (M21) and a few others)",
        details=["line 1: unknown or unsupported card 'Shock · 3 Scorching Dragonfire'"])),
        now=0.0)
    assert board.notice == (
        "Deck refused: the deck can't be played in constructed: 1 problem(s) -- the problems "
        "are in the log above; a list pasted between games is your registered deck and "
        "sideboard: the lines under 'Your deck now', changed")



def test_a_waiting_room_shows_who_is_seated_as_seats_are_taken_and_freed() -> None:
    board = Board(Mirror(), seat=ANN, watching=False, account="Ann#0001",
                  room=mpb.RoomInfo(room_id="r1", seats=3, players=["Ann#0001"]))
    assert "Seated (1 of 3): Ann#0001" in frame_text(board, now=0.0)
    board.absorb(mpb.ServerMessage(room_update=mpb.RoomUpdate(room=mpb.RoomInfo(
        room_id="r1", seats=3, players=["Ann#0001", "Bob#0002"]))), now=1.0)
    assert "Seated (2 of 3): Ann#0001, Bob#0002" in frame_text(board, now=1.0)
    board.absorb(mpb.ServerMessage(room_update=mpb.RoomUpdate(room=mpb.RoomInfo(
        room_id="other", seats=2, players=["Cy"]))), now=2.0)  # not this room: ignored
    assert "Seated (2 of 3)" in frame_text(board, now=2.0)


def test_rule_103_2_a_waiting_player_is_told_which_deck_it_plays() -> None:
    board = Board(Mirror(), watching=False, account="Ann#0001")
    room = mpb.RoomInfo(room_id="r1", seats=2, players=["Ann#0001"])
    board.absorb(mpb.ServerMessage(joined=mpb.Joined(
        room=room, role=mpb.ROLE_PLAYER, seat=0, deck_name="azorius-fliers", demo_deck=True)),
        now=0.0)
    assert board.seat == 0 and "You play the demo deck azorius-fliers." in frame_text(
        board, now=0.0)
    board.joined(mpb.Joined(room=room, role=mpb.ROLE_PLAYER, seat=0, deck_name="Burn"))
    assert "You play your deck Burn." in frame_text(board, now=0.0)


def test_a_printing_of_another_set_is_noted_once_though_joined_is_said_again() -> None:
    """The server plays ``4 Shock (M20) 999`` as its own Shock and says so in
    Joined.deck_notes (DeckAccepted.notes between games): the log says it once -- a resume's
    Joined says it again."""
    note = ("line 1 names Shock's M20 printing: this server plays its M21 printing, the "
            "same card (a printing never changes the game)")
    board = Board(Mirror(), watching=False, account="Ann#0001")
    joined = mpb.Joined(room=mpb.RoomInfo(room_id="r1", seats=2, players=["Ann#0001"]),
                        role=mpb.ROLE_PLAYER, seat=0, deck_name="Burn", deck_notes=[note])
    for now in (0.0, 1.0):  # (joined, then resumed)
        board.absorb(mpb.ServerMessage(joined=joined), now=now)
    assert [e for e, _n in board.events if e.startswith("Deck note")] == [f"Deck note: {note}"]
    assert "Deck note: line 1 names Shock's M20 printing" in frame_text(board, now=1.0)
    other = note.replace("line 1", "line 3")
    board.absorb(mpb.ServerMessage(request_id=4, deck_accepted=mpb.DeckAccepted(
        game_number=2, main_count=60, notes=[other])), now=2.0)
    assert board.events[-1] == (f"Deck note: {other}", 1)


def test_a_delayed_tiers_spectator_sees_which_view_and_how_far_behind() -> None:
    tiers = [mpb.SpectatorTier(kind=mpb.TIER_KIND_PUBLIC, delay_seconds=20),
             mpb.SpectatorTier(kind=mpb.TIER_KIND_PLAYER, seat=1, delay_seconds=15,
                               delay_turns=2)]
    room = mpb.RoomInfo(room_id="r1", seats=2, players=["Ann", "Bob"], tiers=tiers)
    board = Board(Mirror(), watching=True, room=room, tier=2)
    assert "watching Bob's view, 15 s and 2 turns behind" in frame_text(board, now=0.0)
    board.tier = 1
    assert "watching the public view, 20 s behind" in frame_text(board, now=0.0)
    board.tier = 0
    assert "· watching ·" in frame_text(board, now=0.0)
    assert "hidden cards" not in frame_text(board, now=0.0)  # (a spectator isn't told)


def test_a_rooms_players_are_told_which_tiers_show_their_hands_and_to_whom() -> None:
    """The room's creator chooses who watches an every-hand tier: a player's second account
    could be among them. The players are told, on the board, how late and to whom."""
    tiers = [mpb.SpectatorTier(kind=mpb.TIER_KIND_PUBLIC, delay_seconds=20, invite=True),
             mpb.SpectatorTier(kind=mpb.TIER_KIND_OMNISCIENT, delay_seconds=120,
                               accounts=["Cas#0003"], invite=True)]
    room = mpb.RoomInfo(room_id="r1", seats=2, players=["Ann#0001"], tiers=tiers)
    board = Board(Mirror(), seat=ANN, watching=False, account="Ann#0001", room=room)
    shown = " ".join(frame_text(board, now=0.0).split())  # (one line, however wrapped)
    assert ("This room shows hidden cards to watchers the host chose: every hand, 120 s "
            "behind (to Cas#0003, anyone with the invite code).") in shown
    del room.tiers[1]
    assert "hidden cards" not in frame_text(board, now=0.0)


class _Names:
    viewer = ANN

    def __init__(self, *objects: pb.GameObject) -> None:
        self.objects = {o.id: o for o in objects}

    def object(self, object_id: str) -> pb.GameObject | None:
        return self.objects.get(object_id)

    def player(self, seat: int) -> str:
        return ("Ann", "Bob")[seat]

    def mentions(self, word: str) -> bool:
        return False


def test_two_targets_of_one_name_say_whose_each_is() -> None:
    """"Target Burlfist Oak (1 of 2)" and "(2 of 2)": a terminal player, who can't click the
    card, couldn't tell their own creature from their opponent's (found playing as a new
    user). Such options say whose the object is; the same words of one player's objects
    are still counted."""
    names = _Names(_obj("o0", "Burlfist Oak", BATTLEFIELD, ANN),
                   _obj("o1", "Burlfist Oak", BATTLEFIELD, BOB),
                   _obj("i0", "Island", BATTLEFIELD, ANN), _obj("i1", "Island", BATTLEFIELD, ANN))
    options = [pb.Action(choose_target=pb.ChooseTarget(target=pb.Target(object_id=i)))
               for i in ("o0", "o1", "i0", "i1")] + [
        pb.Action(choose_target=pb.ChooseTarget(target=pb.Target(player=BOB)))]
    assert distinct_labels([option_text(names, o) for o in options],
                           [option_whose(names, o) for o in options]) == [
        "Target Burlfist Oak (yours)", "Target Burlfist Oak (Bob's)",
        "Target Island (1 of 2)", "Target Island (2 of 2)", "Target Bob"]


def test_400_7_a_snapshots_recent_events_name_what_has_left_the_view_since() -> None:
    """Back in a new terminal, the log said "a card you can't see blocks Trufflesnout": the
    blocker had died since. The snapshot names what its events name and has left the view,
    with its card types: a creature that left for the graveyard "died" (rule 700.4), where
    the log said "moved from the battlefield" (a new player's round)."""
    board = _board(ANN)
    view = _view(ANN)
    board.mirror.load_snapshot(pb.Snapshot(room_id="r1", state_id=6, view=view,
                                           view_hash=view_hash(view)))
    board.absorb(mpb.ServerMessage(snapshot=pb.Snapshot(
        view=view, recent_events=[
            pb.GameEvent(blockers_declared=pb.BlockersDeclaredEvent(
                blocks=[pb.BlockPair(blocker_id="dead", attacker_id="g1")])),
            pb.GameEvent(zone_change=pb.ZoneChangeEvent(
                owner=ANN, from_zone=BATTLEFIELD, to_zone=GRAVEYARD, old_id="dead",
                new_id="", name="Sabertooth Mauler"))],
        recent_objects=[pb.GameObject(id="dead", name="Sabertooth Mauler", owner=ANN,
                                      controller=ANN, card_types=["Creature"])])), now=1.0)
    told = [text for text, _n in board.events]
    assert any("Sabertooth Mauler" in t and "Goblin Guide" in t for t in told), told
    assert not any("can't see" in t for t in told), told
    assert told[-1] == "your Sabertooth Mauler died", told


def test_the_log_says_played_died_and_cast_not_moved_from_zone_to_zone() -> None:
    """The log read "Mountain (Alice's) moved from hand to battlefield" for a land played,
    and "moved from hand to stack" before "Alice cast ..." (found playing as a new user).
    A land played (305.1), a creature that dies (700.4) and a card cast (601.2a, said by
    the cast itself) are said so, and a discard, a permanent entering, exile and a return
    to hand; other moves as before."""
    board = _board(ANN)

    def told(**fields: object) -> str | None:
        return event_text(board, pb.GameEvent(zone_change=pb.ZoneChangeEvent(**fields)))  # type: ignore[arg-type]

    assert told(owner=ANN, from_zone=HAND, to_zone=BATTLEFIELD, old_id="h2", new_id="f1",
                name="Forest") == "you played Forest"
    assert told(owner=BOB, from_zone=BATTLEFIELD, to_zone=GRAVEYARD, old_id="g1",
                name="Goblin Guide") == "Bob's Goblin Guide died"
    assert told(owner=ANN, from_zone=HAND, to_zone=STACK, old_id="h1", new_id="s9",
                name="Grizzly Bears") is None
    assert told(owner=ANN, from_zone=BATTLEFIELD, to_zone=GRAVEYARD, old_id="f1",
                name="Forest") == "your Forest moved from the battlefield to your graveyard"
    # A discard (701.9a), a permanent spell resolving (608.3), exile, a bounce.
    assert told(owner=BOB, from_zone=HAND, to_zone=GRAVEYARD, new_id="g7",
                name="Ghostly Pilferer") == "Bob discarded Ghostly Pilferer"
    assert told(owner=ANN, from_zone=STACK, to_zone=BATTLEFIELD, old_id="s9", new_id="b9",
                name="Grizzly Bears") == "your Grizzly Bears entered the battlefield"
    assert told(owner=BOB, from_zone=GRAVEYARD, to_zone=EXILE, old_id="g7", new_id="e7",
                name="Ghostly Pilferer") == "Bob's Ghostly Pilferer was exiled from their graveyard"
    assert told(owner=BOB, from_zone=BATTLEFIELD, to_zone=EXILE, old_id="g1", new_id="e8",
                name="Goblin Guide") == "Bob's Goblin Guide was exiled from the battlefield"
    assert told(owner=BOB, from_zone=BATTLEFIELD, to_zone=HAND, old_id="g1",
                name="Goblin Guide") == "Bob's Goblin Guide returned to its owner's hand"
    # From exile, not "from the exile" (a new player's round).
    assert told(owner=ANN, from_zone=EXILE, to_zone=HAND, old_id="e7", new_id="h9",
                name="Ghostly Pilferer") == "your Ghostly Pilferer moved from exile to your hand"
    # A cast taken back (cancel_cast, 733.1) read "Your Shock moved from stack to hand";
    # then "your Shock returned to its owner's hand": the viewer's own hand is "your hand".
    assert told(owner=ANN, from_zone=STACK, to_zone=HAND, old_id="s1", new_id="h9",
                name="Shock") == "your Shock returned to your hand from the stack"
    assert told(owner=ANN, from_zone=BATTLEFIELD, to_zone=HAND, old_id="f1",
                name="Forest") == "your Forest returned to your hand"


def test_119_3_life_gained_or_lost_reads_as_such() -> None:
    board = _board(ANN)

    def told(seat: int, amount: int) -> str | None:
        return event_text(board, pb.GameEvent(life_changed=pb.LifeChangedEvent(
            seat=seat, amount=amount)))

    assert told(BOB, 4) == "Bob gained 4 life"
    assert told(ANN, -3) == "you lost 3 life"


def test_the_same_card_twice_in_hand_is_one_option_to_play_or_cast() -> None:
    """"Play Forest (1 of 4)" ... "(4 of 4)" and "Cast Volcanic Geyser (1 of 4)" pushed the
    useful options off the screen (found by a new user). Same-named cards in hand are one
    option (the first); a tapped Forest and an untapped one stay apart."""
    board = _board(ANN)
    mirror = board.mirror
    for obj in (_obj("h3", "Forest", HAND, ANN, card_types=["Land"]),
                _obj("h4", "Grizzly Bears", HAND, ANN, mana_cost="{1}{G}",
                     card_types=["Creature"]),
                _obj("f2", "Forest", BATTLEFIELD, ANN, card_types=["Land"])):
        mirror.objects[obj.id] = obj
    mirror.zones[(HAND, ANN)] = ["h1", "h2", "h3", "h4"]
    mirror.zones[(BATTLEFIELD, -1)] = [*mirror.zones[(BATTLEFIELD, -1)], "f2"]
    options = [pb.Action(pass_priority=pb.PassPriority()),
               pb.Action(play_land=pb.PlayLand(object_id="h2")),
               pb.Action(cast_spell=pb.CastSpell(object_id="h1")),
               pb.Action(play_land=pb.PlayLand(object_id="h3")),
               pb.Action(cast_spell=pb.CastSpell(object_id="h4")),
               pb.Action(activate_mana_ability=pb.ActivateManaAbility(object_id="f1")),
               pb.Action(activate_mana_ability=pb.ActivateManaAbility(object_id="f2"))]
    board.decision = pb.Decision(prompt_id=7, seat=ANN, kind=pb.DECISION_KIND_PRIORITY,
                                 options=options)
    shown = board.shown_options
    assert [i for i, _label in shown] == [0, 1, 2, 5, 6]
    labels = [label for _i, label in shown]
    assert labels[1].startswith("Play Forest") and "of" not in labels[1]
    assert labels[3:] == ["Tap Forest for mana (tapped)", "Tap Forest for mana"]
    text = frame_text(board, now=100.0)
    assert "  4. " + labels[3] in text and "  6. " not in text


def test_alike_permanents_and_cards_to_put_away_are_one_option() -> None:
    """"Tap Forest for {G} (1 of 2)" / "(2 of 2)" for two untapped Forests, "Put Forest on
    the bottom (1 of 2)" / "(2 of 2)" choosing a mulligan's card: the player can't tell them
    apart, so they are one option (answered with the first). What the player can see tells
    objects apart: tapped, a counter, an Aura on it, the target of a spell, another
    controller, a creature's summoning sickness (a land's is nothing, rule 302.6)."""
    board = _board(ANN)
    mirror = board.mirror
    forest: dict[str, object] = {"card_types": ["Land"], "supertypes": ["Basic"]}
    elves: dict[str, object] = {"card_types": ["Creature"], "power": 1, "toughness": 1}
    for obj in (_obj("f2", "Forest", BATTLEFIELD, ANN, **forest),
                _obj("f3", "Forest", BATTLEFIELD, ANN, summoning_sick=True, **forest),
                _obj("f4", "Forest", BATTLEFIELD, ANN, counters=[pb.Counter(kind="lore",
                                                                             count=1)], **forest),
                _obj("f5", "Forest", BATTLEFIELD, ANN, **forest),
                _obj("a5", "Utopia Sprawl", BATTLEFIELD, ANN, attached_to="f5"),
                _obj("f6", "Forest", BATTLEFIELD, BOB, **forest),
                _obj("e2", "Llanowar Elves", BATTLEFIELD, ANN, **elves),
                _obj("e3", "Llanowar Elves", BATTLEFIELD, ANN, **elves),
                _obj("e4", "Llanowar Elves", BATTLEFIELD, ANN, **elves),
                _obj("s2", "Shock", STACK, BOB, targets=[pb.Target(object_id="e4")]),
                _obj("h3", "Forest", HAND, ANN, card_types=["Land"])):
        mirror.objects[obj.id] = obj
    mirror.zones[(HAND, ANN)] = ["h1", "h2", "h3"]

    def tap(object_id: str) -> pb.Action:
        return pb.Action(activate_mana_ability=pb.ActivateManaAbility(object_id=object_id,
                                                                      mana="G"))

    tapping = ["f1", "f2", "f3", "f4", "f5", "f6", "e1", "e2", "e3", "e4"]
    board.decision = pb.Decision(prompt_id=7, seat=ANN, kind=pb.DECISION_KIND_PRIORITY, options=[
        pb.Action(pass_priority=pb.PassPriority()), *(tap(i) for i in tapping)])
    shown = board.shown_options
    # f1 tapped; f2 and f3 alike (f3 played this turn); f4 with a counter; f5 enchanted; f6
    # Bob's; e1 summoning sick; e2 and e3 alike; e4 targeted by Shock.
    assert [i for i, _label in shown] == [0, 1, 2, 4, 5, 6, 7, 8, 10]
    assert shown[1][1] == "Tap Forest for {G} (yours) (tapped)"
    assert shown[2][1] == "Tap Forest for {G} (yours) (1 of 2)"
    assert shown[3][1] == "Tap Forest for {G} (yours) (lore)"
    assert shown[7][1] == "Tap Llanowar Elves for {G} (2 of 3)"

    # A mulligan's card to put on the bottom (103.5), a card to discard: two Forests, one.
    for kind, action, words in (
            (pb.DECISION_KIND_BOTTOM_CARD, "put_on_bottom", "Put {} on the bottom"),
            (pb.DECISION_KIND_DISCARD, "discard", "Discard {}")):
        board.decision = pb.Decision(prompt_id=8, seat=ANN, kind=kind, options=[
            pb.Action(**{action: {"object_id": i}}) for i in ("h2", "h1", "h3")])
        assert board.shown_options == [(0, words.format("Forest")),
                                       (1, words.format("Grizzly Bears"))]
        text = frame_text(board, now=100.0)
        assert f"  2. {words.format('Grizzly Bears')}" in text and "  3. " not in text, text
        assert board.answering(1) == 0 and board.answering(2) == 1
    # Two Mountains milled at once, their order in the graveyard chosen (404.3): one.
    for oid in ("y1", "y2"):
        mirror.objects[oid] = _obj(oid, "Mountain", GRAVEYARD, ANN, card_types=["Land"])
    board.decision = pb.Decision(prompt_id=9, seat=ANN, kind=pb.DECISION_KIND_ORDER_GRAVEYARD,
                                 options=[pb.Action(choose_order=pb.ChooseOrder(object_id=oid))
                                          for oid in ("y1", "y2")])
    assert board.shown_options == [(0, "Next: Mountain")]


def test_alike_creatures_to_attack_or_block_with_are_one_option() -> None:
    """Five untapped vanilla Grizzly Bears listed "Attack Bob with Grizzly Bears" five times
    (and each attacker's blocks once per alike blocker). Declarations of creatures the
    player can't tell apart (the same notion as two untapped Forests: :func:`object_look`)
    at the same player, or blocking the same attacker, are one option that says how many
    are alike; choosing it declares one of them (the first). A creature with a counter, or
    one a spell targets, stays apart; so do the attackers a creature may block."""
    board = _board(ANN)
    mirror = board.mirror
    bears: dict[str, object] = {"card_types": ["Creature"], "power": 2, "toughness": 2,
                                "mana_cost": "{1}{G}"}
    for oid in ("gb1", "gb2", "gb3", "gb4", "gb5"):
        mirror.objects[oid] = _obj(oid, "Grizzly Bears", BATTLEFIELD, ANN, **bears)
    mirror.objects["gb6"] = _obj("gb6", "Grizzly Bears", BATTLEFIELD, ANN, counters=[
        pb.Counter(kind="+1/+1", count=1)], **bears)
    mirror.objects["gb7"] = _obj("gb7", "Grizzly Bears", BATTLEFIELD, ANN, **bears)
    mirror.objects["s2"] = _obj("s2", "Shock", STACK, BOB, targets=[pb.Target(object_id="gb7")])

    def attack(oid: str, seat: int = BOB) -> pb.Action:
        return pb.Action(declare_attacker=pb.DeclareAttacker(object_id=oid, defender=seat))

    ids = ["gb1", "gb2", "gb3", "gb4", "gb5", "gb6", "gb7"]
    board.decision = pb.Decision(prompt_id=8, seat=ANN, kind=pb.DECISION_KIND_DECLARE_ATTACKERS,
                                 options=[*(attack(i) for i in ids),
                                          pb.Action(finish_attackers=pb.FinishAttackers())])
    assert board.shown_options == [
        (0, "Attack Bob with Grizzly Bears (one of 5 alike)"),
        (5, "Attack Bob with Grizzly Bears (+1/+1)"),  # the +1/+1 counter, said
        (6, "Attack Bob with Grizzly Bears"),  # Shock's target
        (7, "Done: confirm attackers")]
    text = frame_text(board, now=100.0)
    assert "  1. Attack Bob with Grizzly Bears (one of 5 alike)" in text, text
    assert "  4. Done: confirm attackers" in text and "  5. " not in text, text
    assert board.answering(1) == 0 and board.answering(2) == 5
    # One declared, four are left: the option stays, one fewer alike.
    board.decision = pb.Decision(prompt_id=9, seat=ANN, kind=pb.DECISION_KIND_DECLARE_ATTACKERS,
                                 options=[*(attack(i) for i in ids[1:5]),
                                          pb.Action(finish_attackers=pb.FinishAttackers())])
    assert board.shown_options[0] == (0, "Attack Bob with Grizzly Bears (one of 4 alike)")
    # The last of them: no "alike" at all.
    board.decision = pb.Decision(prompt_id=10, seat=ANN,
                                 kind=pb.DECISION_KIND_DECLARE_ATTACKERS, options=[attack("gb5")])
    assert board.shown_options == [(0, "Attack Bob with Grizzly Bears")]

    # Blocking: Bob's Goblin Guide (g1) and Raging Goblin attack; each is blocked by one of
    # the alike Grizzly Bears, the two attackers apart.
    mirror.objects["g3"] = _obj("g3", "Raging Goblin", BATTLEFIELD, BOB, card_types=[
        "Creature"], power=1, toughness=1, attacking=ANN, tapped=True)

    def block(oid: str, attacker: str) -> pb.Action:
        return pb.Action(declare_blocker=pb.DeclareBlocker(object_id=oid, attacker_id=attacker))

    board.decision = pb.Decision(prompt_id=11, seat=ANN, kind=pb.DECISION_KIND_DECLARE_BLOCKERS,
                                 options=[*(block(i, a) for i in ("gb1", "gb2", "gb3", "gb6")
                                            for a in ("g1", "g3")),
                                          pb.Action(finish_blockers=pb.FinishBlockers())])
    assert board.shown_options == [
        (0, "Block Goblin Guide with Grizzly Bears (one of 3 alike)"),
        (1, "Block Raging Goblin with Grizzly Bears (one of 3 alike)"),
        (6, "Block Goblin Guide with Grizzly Bears (+1/+1)"),
        (7, "Block Raging Goblin with Grizzly Bears (+1/+1)"),
        (8, "Done: confirm blockers")]
    # Two attackers of one name that look different (a 2/2, a 1/1) are two options.
    mirror.objects["g3"].name = "Goblin Guide"
    labels = [label for _i, label in board.shown_options]
    assert labels[:2] == ["Block Goblin Guide with Grizzly Bears (one of 3 alike) (1 of 2)",
                          "Block Goblin Guide with Grizzly Bears (one of 3 alike) (2 of 2)"]
    assert [i for i, _label in board.shown_options] == [0, 1, 6, 7, 8]

    # Found playing: three alike Walking Corpses attacking, blocked with two Walking Corpses
    # and two summoning sick ones listed six options, each "Block Walking Corpse with
    # Walking Corpse (one of 2 alike) (k of 6)". Attackers the player can't tell apart are
    # one; a blocker's summoning sickness is nothing (302.6: it only stops attacks and {T}).
    corpse: dict[str, object] = {"card_types": ["Creature"], "power": 2, "toughness": 2}
    for oid in ("w1", "w2", "w3"):
        mirror.objects[oid] = _obj(oid, "Walking Corpse", BATTLEFIELD, BOB, attacking=ANN,
                                   tapped=True, **corpse)
    for oid, sick in (("c1", False), ("c2", False), ("c3", True), ("c4", True)):
        mirror.objects[oid] = _obj(oid, "Walking Corpse", BATTLEFIELD, ANN, summoning_sick=sick,
                                   **corpse)
    blocks = [block(c, w) for c in ("c1", "c2", "c3", "c4") for w in ("w1", "w2", "w3")]
    board.decision = pb.Decision(prompt_id=13, seat=ANN, kind=pb.DECISION_KIND_DECLARE_BLOCKERS,
                                 options=[*blocks, pb.Action(finish_blockers=pb.FinishBlockers())])
    assert board.shown_options == [
        (0, "Block Walking Corpse (Bob's) with Walking Corpse (yours) (one of 4 alike)"),
        (12, "Done: confirm blockers")]
    # c1 blocks w1: w1 is blocked (a second blocker may join it, 509.1a), the others not.
    mirror.objects["c1"].blocking.append("w1")
    board.decision = pb.Decision(prompt_id=14, seat=ANN, kind=pb.DECISION_KIND_DECLARE_BLOCKERS,
                                 options=[*blocks[3:],
                                          pb.Action(finish_blockers=pb.FinishBlockers())])
    assert board.shown_options == [
        (0, "Block Walking Corpse (Bob's, already blocked) with Walking Corpse (yours) "
            "(one of 3 alike)"),
        (1, "Block Walking Corpse (Bob's) with Walking Corpse (yours) (one of 3 alike)"),
        (9, "Done: confirm blockers")]
    # Found playing: Niambi, with an Aura on it (shown on its own), blocking one of two alike
    # Thieves' Guild Enforcers read "(1 of 2)", "(2 of 2)": one option still.
    mirror.objects["c5"] = _obj("c5", "Niambi, Esteemed Speaker", BATTLEFIELD, ANN,
                                card_types=["Creature"], power=3, toughness=2)
    mirror.objects["r5"] = _obj("r5", "Rousing Read", BATTLEFIELD, ANN, attached_to="c5")
    board.decision = pb.Decision(prompt_id=15, seat=ANN, kind=pb.DECISION_KIND_DECLARE_BLOCKERS,
                                 options=[block("c5", "w2"), block("c5", "w3")])
    assert board.shown_options == [
        (0, "Block Walking Corpse (Bob's) with Niambi, Esteemed Speaker")]
    # The board says which attacker is blocked (it read "attacking you" x3 alike).
    assert permanent_text(board, mirror.objects["w1"]) == \
        "Walking Corpse 2/2 (tapped, attacking you, blocked by Walking Corpse)"
    assert permanent_text(board, mirror.objects["w2"]) == \
        "Walking Corpse 2/2 (tapped, attacking you)"
    # Attacking two planeswalkers of one name: never one option.
    for oid in ("p1", "p2"):
        mirror.objects[oid] = _obj(oid, "Jace Beleren", BATTLEFIELD, BOB,
                                   card_types=["Planeswalker"])
    board.decision = pb.Decision(prompt_id=12, seat=ANN, kind=pb.DECISION_KIND_DECLARE_ATTACKERS,
                                 options=[pb.Action(declare_attacker=pb.DeclareAttacker(
                                     object_id=b, defender=BOB, planeswalker_id=p))
                                     for b in ("gb1", "gb2") for p in ("p1", "p2")])
    assert [i for i, _label in board.shown_options] == [0, 1]
    assert [label for _i, label in board.shown_options] == [
        "Attack Jace Beleren with Grizzly Bears (one of 2 alike) (1 of 2)",
        "Attack Jace Beleren with Grizzly Bears (one of 2 alike) (2 of 2)"]


def test_601_2c_a_targets_options_list_the_opponents_first() -> None:
    """Shock's "any target" listed the players by seat: for the first seat "1. Target you",
    and a player typing 1 to hit the opponent shocked themself. Opponents first, then their
    permanents, then you, then yours (each as the server ordered them); the numbers follow."""
    board = _board(ANN)
    board.mirror.objects["g2"] = _obj("g2", "Goblin Guide", BATTLEFIELD, BOB,
                                      card_types=["Creature"], power=2, toughness=2)

    def target(**kind: object) -> pb.Action:
        return pb.Action(choose_target=pb.ChooseTarget(target=pb.Target(**kind)))  # type: ignore[arg-type]

    board.decision = pb.Decision(prompt_id=9, seat=ANN, kind=pb.DECISION_KIND_CHOOSE_TARGET,
                                 prompt="Shock: Choose a target.", options=[
                                     target(player=ANN), target(player=BOB),
                                     target(object_id="e1"), target(object_id="g1"),
                                     target(object_id="g2"),
                                     pb.Action(finish_targets=pb.FinishTargets())])
    text = frame_text(board, now=100.0)
    numbered = [(n, label) for n, _i, label in board.numbered_options]
    # (each object whose, always: np13)
    assert numbered == [(1, "Target Bob"), (2, "Target Goblin Guide (Bob's) (tapped)"),
                        (3, "Target Goblin Guide (Bob's)"), (4, "Target you"),
                        (5, "Target Llanowar Elves (yours)"), (6, "No more targets")], text
    assert "  1. Target Bob" in text and "  4. Target you" in text
    assert [board.answering(n) for n in range(1, 7)] == [1, 3, 4, 0, 2, 5]


def test_103_who_chose_to_play_first_and_each_mulligan_read_so() -> None:
    """Nothing said who chose to play first, and a mulligan read 'a card (Bob's) moved
    from hand to library (x7)' (a new user)."""
    board = _board(ANN)

    def told(**fields: object) -> str | None:
        return event_text(board, pb.GameEvent(**fields))  # type: ignore[arg-type]

    chosen = pb.StartingPlayerChosenEvent
    assert told(starting_player_chosen=chosen(chooser=BOB, starting=BOB)) == \
        "Bob chose to play first"
    assert told(starting_player_chosen=chosen(chooser=BOB, starting=ANN)) == \
        "Bob chose you to play first"
    assert told(mulligan_taken=pb.MulliganTakenEvent(seat=ANN, number=1)) == \
        "you took a mulligan"
    assert told(mulligan_taken=pb.MulliganTakenEvent(seat=BOB, number=2)) == \
        "Bob took a mulligan (2nd)"


def test_103_5_a_mulligans_cards_back_into_the_library_are_one_line_not_seven() -> None:
    """Taking a mulligan logged seven lines "Your Concordia Pegasus moved from hand to
    library" (one per card of the hand shuffled away) and the card put on the bottom a
    line of its own; for the opponent "Bob's card moved from hand to library (x7)" (found
    playing as a new user). A card put from a hand into a library says who put it, without
    its name, so a whole hand counts up on one line (103.5)."""
    board = _board(ANN)
    LIBRARY = pb.ZONE_KIND_LIBRARY
    for n, name in enumerate(["Plains", "Shock", "Forest"]):
        board.add_event(str(event_text(board, pb.GameEvent(zone_change=pb.ZoneChangeEvent(
            owner=ANN, from_zone=HAND, to_zone=LIBRARY, old_id=f"h{n}", name=name)))))
    for n in range(2):
        board.add_event(str(event_text(board, pb.GameEvent(zone_change=pb.ZoneChangeEvent(
            owner=BOB, from_zone=HAND, to_zone=LIBRARY, old_id=f"b{n}")))))
    text = frame_text(board, now=100.0)
    assert "You put a card from your hand into your library (x3)" in text
    assert "Bob put a card from their hand into their library (x2)" in text
    assert text.count("into your library") == 1 and "moved from" not in text


def test_keywords_granted_by_an_effect_show_on_the_board() -> None:
    """Rousing Read on Niambi, Esteemed Speaker gives it flying: the board read "Niambi,
    Esteemed Speaker 3/2 (attacking Bob)" -- nothing in the terminal said it flies (the web
    client's card shows a keyword its text doesn't say). Keywords in its own text aren't
    repeated (?N reads them)."""
    board = _board(ANN)
    niambi = _obj("n1", "Niambi, Esteemed Speaker", BATTLEFIELD, ANN, card_types=["Creature"],
                  power=3, toughness=2, attacking=BOB, keywords=["Flash", "Flying"],
                  rules_text="Flash\nWhen Niambi, Esteemed Speaker enters the battlefield, ...")
    assert permanent_text(board, niambi) == \
        "Niambi, Esteemed Speaker 3/2 (flying, attacking Bob)"
    pegasus = _obj("p1", "Concordia Pegasus", BATTLEFIELD, ANN, card_types=["Creature"],
                   power=1, toughness=3, keywords=["Flying"], rules_text="Flying")
    assert permanent_text(board, pegasus) == "Concordia Pegasus 1/3"


def test_options_alike_in_words_but_not_in_strength_say_power_and_toughness() -> None:
    """Found playing: blocking Barrin, Tolarian Archmage with Walking Corpses that were 2/2,
    2/4 and 0/2 read "Block Barrin, Tolarian Archmage with Walking Corpse (1 of 4)" ...
    "(4 of 4)": the board showed which was the 2/4, the options didn't. The same words
    naming creatures of different power and toughness say them."""
    board = _board(ANN)
    mirror = board.mirror
    mirror.objects["ba"] = _obj("ba", "Barrin, Tolarian Archmage", BATTLEFIELD, BOB,
                                card_types=["Creature"], power=2, toughness=2, attacking=ANN,
                                tapped=True)
    for oid, power, toughness, sick in (("c1", 2, 2, False), ("c2", 2, 4, False),
                                        ("c3", 0, 2, False), ("c4", 2, 2, True)):
        mirror.objects[oid] = _obj(oid, "Walking Corpse", BATTLEFIELD, ANN,
                                   card_types=["Creature"], power=power, toughness=toughness,
                                   summoning_sick=sick)
    board.decision = pb.Decision(prompt_id=8, seat=ANN, kind=pb.DECISION_KIND_DECLARE_BLOCKERS,
                                 options=[pb.Action(declare_blocker=pb.DeclareBlocker(
                                     object_id=c, attacker_id="ba"))
                                     for c in ("c1", "c2", "c3", "c4")])
    assert board.shown_options == [
        (0, "Block Barrin, Tolarian Archmage with Walking Corpse (2/2) (one of 2 alike)"),
        (1, "Block Barrin, Tolarian Archmage with Walking Corpse (2/4)"),
        (2, "Block Barrin, Tolarian Archmage with Walking Corpse (0/2)")]
    # Whose tells apart first; the same strength still numbers them.
    mirror.objects["c3"].power = 2
    mirror.objects["c3"].toughness = 4
    mirror.objects["r3"] = _obj("r3", "Rousing Read", BATTLEFIELD, ANN, attached_to="c3")
    # (on its own: an Aura on it)
    assert [label for _i, label in board.shown_options] == [
        "Block Barrin, Tolarian Archmage with Walking Corpse (2/2) (one of 2 alike)",
        "Block Barrin, Tolarian Archmage with Walking Corpse (2/4) (1 of 2)",
        "Block Barrin, Tolarian Archmage with Walking Corpse (2/4) (2 of 2)"]


def test_510_1c_dividing_damage_among_alike_blockers_in_another_order_is_one_option() -> None:
    """Colossal Dreadmaw blocked by two alike Grizzly Bears listed "deals 1 to Grizzly
    Bears, 3 to Grizzly Bears" and "deals 3 to Grizzly Bears, 1 to Grizzly Bears": the
    player can't tell which Bears is which, so they are one option (the first, a valid
    division). What the player can see keeps them apart: damage marked, tapped, a counter,
    a spell's target -- and the words say which Bears gets what, by power and toughness,
    tapped or not, or damage marked."""
    board = _board(ANN)
    mirror = board.mirror
    mirror.objects["d1"] = _obj("d1", "Colossal Dreadmaw", BATTLEFIELD, ANN,
                                card_types=["Creature"], power=4, toughness=6, attacking=BOB,
                                tapped=True)
    bears: dict[str, object] = {"card_types": ["Creature"], "power": 2, "toughness": 2,
                                "blocking": ["d1"]}
    for oid in ("b1", "b2", "b3"):
        mirror.objects[oid] = _obj(oid, "Grizzly Bears", BATTLEFIELD, BOB, **bears)
    mirror.objects["b2"].summoning_sick = True  # (nothing to a blocker, 302.6)

    def divide(*amounts: tuple[str, int]) -> pb.Action:
        return pb.Action(assign_combat_damage=pb.AssignCombatDamage(
            attacker_id="d1", assignments=[pb.DamageAssignment(object_id=o, amount=n)
                                           for o, n in amounts]))

    def decide(blockers: tuple[str, ...]) -> list[tuple[int, str]]:
        splits = [(a, 4 - a) for a in range(5)] if len(blockers) == 2 else \
            [(a, b, 4 - a - b) for a in range(5) for b in range(5 - a)]
        board.decision = pb.Decision(prompt_id=20, seat=ANN,
                                     kind=pb.DECISION_KIND_ASSIGN_COMBAT_DAMAGE, options=[
                                         divide(*zip(blockers, split, strict=True))
                                         for split in splits])
        return board.shown_options

    assert decide(("b1", "b2")) == [
        (0, "Colossal Dreadmaw deals 0 to Grizzly Bears, 4 to Grizzly Bears"),
        (1, "Colossal Dreadmaw deals 1 to Grizzly Bears, 3 to Grizzly Bears"),
        (2, "Colossal Dreadmaw deals 2 to Grizzly Bears, 2 to Grizzly Bears")]
    text = frame_text(board, now=100.0)
    assert "  3. Colossal Dreadmaw deals 2 to Grizzly Bears, 2 to Grizzly Bears" in text
    assert "  4. " not in text and board.answering(3) == 2
    # Three alike: every way to divide 4 among three, each multiset once (15 -> 4).
    assert [i for i, _label in decide(("b1", "b2", "b3"))] == [0, 1, 2, 6]
    # With a trampler's excess to the player, the player stays apart ("" is no blocker).
    board.decision = pb.Decision(prompt_id=21, seat=ANN,
                                 kind=pb.DECISION_KIND_ASSIGN_COMBAT_DAMAGE, options=[
                                     divide(("b1", 2), ("b2", 2), ("", 0)),
                                     divide(("b1", 2), ("b2", 0), ("", 2)),
                                     divide(("b1", 0), ("b2", 2), ("", 2))])
    assert [i for i, _label in board.shown_options] == [0, 1]
    # What the player can see keeps them apart: each, in turn, on one of the two.
    for change, said in (("damage", "1 to Grizzly Bears (no damage), 3 to Grizzly Bears "
                                    "(1 damage)"),
                         ("tapped", "1 to Grizzly Bears (untapped), 3 to Grizzly Bears "
                                    "(tapped)"),
                         ("counter", "1 to Grizzly Bears (2/2), 3 to Grizzly Bears (3/3)"),
                         ("target", "1 to Grizzly Bears, 3 to Grizzly Bears")):
        b2 = mirror.objects["b2"]
        b2.CopyFrom(_obj("b2", "Grizzly Bears", BATTLEFIELD, BOB, **bears))
        mirror.objects.pop("s2", None)
        if change == "damage":
            b2.damage = 1
        elif change == "tapped":
            b2.tapped = True
        elif change == "counter":
            b2.counters.add(kind="+1/+1", count=1)
            b2.power = b2.toughness = 3
        else:
            mirror.objects["s2"] = _obj("s2", "Shock", STACK, ANN,
                                        targets=[pb.Target(object_id="b2")])
        shown = decide(("b1", "b2"))
        assert [i for i, _label in shown] == [0, 1, 2, 3, 4], change
        assert shown[1][1] == f"Colossal Dreadmaw deals {said}", change
    # ... and alike again when both are so.
    mirror.objects.pop("s2")
    for oid in ("b1", "b2"):
        mirror.objects[oid].damage = 1
        mirror.objects[oid].tapped = True
    assert [i for i, _label in decide(("b1", "b2"))] == [0, 1, 2]


def test_alike_tapped_creatures_to_target_are_one_option_apart_from_untapped_ones() -> None:
    """Shock's targets: three untapped alike Grizzly Bears of Bob's were one option, but
    two tapped ones were "Target Grizzly Bears (1 of 3)" ... "(3 of 3)" with the untapped
    one -- which was tapped, the words didn't say. Alike tapped ones are one option too,
    apart from the untapped ones and said tapped; a counter, damage (said too), an Aura keep
    apart."""
    board = _board(ANN)
    mirror = board.mirror
    bears: dict[str, object] = {"card_types": ["Creature"], "power": 2, "toughness": 2}
    for oid, tapped in (("u1", False), ("u2", False), ("t1", True), ("t2", True),
                        ("t3", True)):
        mirror.objects[oid] = _obj(oid, "Grizzly Bears", BATTLEFIELD, BOB, tapped=tapped,
                                   **bears)
    mirror.objects["t3"].counters.add(kind="+1/+1", count=1)
    mirror.objects["t3"].power = mirror.objects["t3"].toughness = 3

    def targets(*ids: str) -> list[tuple[int, str]]:
        board.decision = pb.Decision(prompt_id=30, seat=ANN,
                                     kind=pb.DECISION_KIND_CHOOSE_TARGET, options=[
                                         pb.Action(choose_target=pb.ChooseTarget(
                                             target=pb.Target(object_id=i))) for i in ids])
        return board.shown_options

    assert targets("t1", "u1", "t2", "u2", "t3") == [
        (0, "Target Grizzly Bears (Bob's) (2/2) (tapped)"),
        (1, "Target Grizzly Bears (Bob's) (2/2)"), (4, "Target Grizzly Bears (Bob's) (3/3)")]
    text = frame_text(board, now=100.0)
    assert "  1. Target Grizzly Bears (Bob's) (2/2) (tapped)" in text and "  4. " not in text
    assert board.answering(2) == 1
    # Two tapped ones with the same counter are alike; one with damage is not.
    mirror.objects["t1"].counters.add(kind="+1/+1", count=1)
    mirror.objects["t1"].power = mirror.objects["t1"].toughness = 3
    assert [i for i, _label in targets("t1", "t3", "t2")] == [0, 2]
    mirror.objects["t1"].damage = 1
    assert targets("t1", "t3") == [(0, "Target Grizzly Bears (Bob's) (1 damage, +1/+1)"),
                                   (1, "Target Grizzly Bears (Bob's) (+1/+1)")]
    # An Aura on one keeps it on its own.
    mirror.objects["a1"] = _obj("a1", "Pacifism", BATTLEFIELD, ANN, attached_to="u2")
    assert [i for i, _label in targets("u1", "u2")] == [0, 1]


def test_603_3b_ordering_triggers_names_each_by_its_source() -> None:
    """Two Heartfire Immolators' prowess triggers to order (603.3b): the options named
    "a card you can't see" -- a waiting trigger is no object of the view, but the view's
    header lists it (WaitingTrigger): each is named for its source, and says whose."""
    board = _board(ANN)
    board.mirror.header.triggers.extend([
        pb.WaitingTrigger(id="t1", controller=ANN, source_name="Heartfire Immolator",
                          text="Prowess"),
        pb.WaitingTrigger(id="t2", controller=ANN, source_name="Heartfire Immolator",
                          text="Prowess")])
    board.decision = pb.Decision(prompt_id=9, seat=ANN, kind=pb.DECISION_KIND_ORDER_TRIGGERS,
                                 options=[pb.Action(choose_order=pb.ChooseOrder(object_id=t))
                                          for t in ("t1", "t2")])
    labels = [label for _i, label in board.shown_options]
    assert labels and all("can't see" not in label for label in labels), labels
    assert all(label.startswith("Next: Heartfire Immolator's trigger")
               for label in labels), labels
