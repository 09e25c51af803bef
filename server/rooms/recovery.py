"""Bringing a room back after a restart (architecture, "Surviving faults"): an unfinished
game's room rebuilt from its stored record -- the game replayed from its seed and action
log (invariant 3), every view class's stream and recent deltas as they were sent, the
clocks, the seats (all disconnected until their players resume), a match's score and
sideboarding, and the delayed spectator tiers, each going on where it was.

This is the room's own restoring code (it sets the room's private state as the room itself
would), kept apart from :mod:`server.rooms.room` so that the state machine reads on its own.
"""

from __future__ import annotations

from itertools import pairwise

from server.decks import resolve
from server.engine import PlayerSetup, apply
from server.engine.actions import Concede, ConcedeReason
from server.rooms.room import Member, Room, RoomConfig
from server.rooms.tiers import DelayedClass
from server.store.records import GameRecord


def recover(record: GameRecord, now: float, config: RoomConfig | None = None, *,
            wall_now: float | None = None) -> Room:
    """Rebuild an unfinished game's room from its stored record: the game from its seed
    and action log (deterministic, invariant 3), every view class's stream and recent
    deltas exactly as they were sent, its clocks, and its seats, all disconnected until
    their players resume. The latest game of a match comes with its
    :class:`MatchRecord` (``record.match``): the score, the games played, the decks
    registered and sideboarded; between games the sideboarding starts over (its time
    too, and who had answered stays answered). The delayed tiers start over (see
    :func:`_rewind_tiers`; ``wall_now``: ``time.time()`` now, None: unknown)."""
    match = record.match
    room_id = match.room_id if match is not None else record.room_id
    room = Room(room_id, record.name, len(record.players), now, config,
                clock_seconds=record.clock_seconds, settings=record.settings)
    accounts = record.accounts or ("",) * len(record.players)
    for seat, ((name, deck, session_id), account) in enumerate(
            zip(record.players, accounts, strict=True)):
        played = resolve(deck, room.format)
        room.seats[seat] = Member(session_id, name, seat, played, account_id=account,
                                  registered=played, away_since=now,
                                  knows_code=bool(account)
                                  and account in record.settings.code_holders)
    room.game_number = record.game_number
    room._state_base = record.state_base
    room._create_game(record.seed, chooser=record.chooser,
                      first_state_id=record.state_base)
    game = room.game
    assert game is not None
    if match is not None:
        room.game_ids = list(match.games)
        room.wins, room.draws = list(match.wins), match.draws
        room.choosers, room.results = list(match.choosers), list(match.results)
        for seat, member in enumerate(room.seats):
            assert member is not None
            member.registered = resolve(match.registered[seat], room.format)
            member.deck = resolve(match.decks[seat], room.format)
    else:
        room.game_ids = [record.room_id]
        room.choosers = [game.pending.seat if game.pending is not None else 0]
    if room.best_of > 1:  # the tiers start over from this game's start, its score then
        for delayed in room.delayed:
            delayed.match = room.past_match_state(room.game_number, ended=False)
        _rewind_tiers(room, [*record.earlier, record], now, wall_now)
    for (seat, action), at in zip(record.actions,
                                  _played_at(record, now, wall_now), strict=True):
        events = apply(game, seat, action)
        room._advance_streams(game, action, events)
        if isinstance(action, Concede) and action.reason is ConcedeReason.LEFT:
            # It left the game (and conceded): it can't come back nor watch, restart
            # or not (games stored before SeatLeft know it from this only).
            member = room.seats[seat]
            assert member is not None
            member.left = True
        # The delayed tiers start over from the game's start, each action held from
        # when it was stored (never before it was played): a tier goes on where it
        # was, never earlier. (An action whose time isn't known is held from now.)
        room._hold(seat, action, at)
    for seat in record.left:  # who left the running game (SeatLeft)
        member = room.seats[seat]
        if member is not None:
            member.left = True
    if record.clocks is not None:
        room.timers.remaining = [float(c) for c in record.clocks]
    room._idle_since = None
    if game.result is None:
        room._start_clock(now)
    elif match is None:  # a single game: the room lingers
        room._score(game)
        room._finished_at = now
    elif match.winner is not None:
        room.match_winner, room.match_reason = match.winner, match.reason
        room._finished_at = now
    else:  # between games
        room.ready = list(match.ready) or [False] * len(room.seats)
        room._sideboard_until = now + room.config.sideboard_seconds
    if room.best_of > 1 and game.result is not None:  # told how it ended once shown
        for delayed in room.delayed:
            delayed.hold_message(room.match_state(now, live=False), now, game.turn)
    if room.finished:
        room._rematch_off = _no_rematch(room, record.left_after_end)
        room.computers_offer()  # (as they did when it ended)
    return room


def _no_rematch(room: Room, after_end: tuple[int, ...]) -> str:
    """Why a finished room can have no rematch, as the room said it before the restart
    ("" none): a player left the game (said as it ended: the first such seat), or else the
    room after it ended (the first to leave: ``after_end``, in the order they left)."""
    seats = [m for m in room.seats if m is not None]
    during = next((m for m in seats if m.left and m.seat not in after_end), None)
    if during is not None:
        return f"{during.name} left the game"
    after = next((m for seat in after_end for m in seats if m.seat == seat), None)
    return f"{after.name} left the room" if after is not None else ""


def rematched(old: Room, new_room_id: str, at: float) -> None:
    """After a restart: ``old``'s players started a rematch, room ``new_room_id``, whose
    game was stored (its room reloaded too) at ``at`` on the room's clock. The old room
    says so again as it did (protocol/README.md, "Rematch"): its spectators -- those
    resuming or joining it, and each delayed tier once its view has shown the game's end
    (never before ``at``) -- get ``RematchStarted``; no offer is taken any more. The new
    room's audience code isn't stored (only its hash): none is told after a restart."""
    if not old.finished or old._rematch_agreed:
        return
    old.rematch_offers = [True] * len(old.seats)
    old._rematch_agreed = True
    old.rematch_room, old._rematch_audience = new_room_id, ""
    game = old.game
    if game is not None and old.delayed:
        held = old._rematch_started()
        for delayed in old.delayed:
            delayed.hold_notice(held, at, game.turn)


def _rewind_tiers(room: Room, games: list[GameRecord], now: float, wall_now: float | None
                  ) -> None:
    """After a restart, a delayed tier starts over from the start of the current game
    of the match (``games``: its games so far, in order, the current one last) -- or,
    if it may not have shown an earlier game in full, from that game's start: the first
    game whose next one started less than the tier's delay before ``wall_now`` (None:
    any), whose record :meth:`Store.unfinished_games` loaded. (Then the tier may not
    have reached that next game's start: it may still have been showing the end of
    that game, or the sideboarding after it.) It replays the games after it, their
    actions and the match's announcements held from when they were stored (from
    ``now`` if that isn't known) like the current game's: never shown earlier than
    they would have been. (Started at the current game, the tier showed the
    earlier game's result and the new game's start at once -- a seat's tier its hand
    -- and never the earlier game's end.)"""
    for n, tier in enumerate(room.settings.tiers):
        start = next((k for k, following in enumerate(games[1:])
                      if wall_now is None or following.created is None
                      or following.created + tier.delay_seconds > wall_now), None)
        if start is None:
            continue
        first = games[start]
        delayed = DelayedClass(tier, first.seed, _record_setups(room, first),
                               room.config.history, chooser=first.chooser,
                               first_state_id=first.state_base, room_id=room.room_id)
        delayed.match = room.past_match_state(first.game_number, ended=False)
        for played, following in pairwise(games[start:]):
            times = _played_at(played, now, wall_now)
            for (seat, action), at in zip(played.actions, times, strict=True):
                delayed.hold(seat, action, at, 0)  # (a game over: only seconds count)
            # (the game ended with its last action; the next began when it was created)
            ended = times[-1] if times else now
            began = max(ended, on_clock(following.created, now, wall_now))
            delayed.hold_message(room.past_match_state(played.game_number, ended=True),
                                 ended, 0)
            delayed.hold_game(following.seed, _record_setups(room, following), began,
                              chooser=following.chooser,
                              first_state_id=following.state_base)
            delayed.hold_message(
                room.past_match_state(following.game_number, ended=False), began, 0)
        room.delayed[n] = delayed

def _record_setups(room: Room, record: GameRecord) -> list[PlayerSetup]:
    """The players of a stored game, with the decks they played in it."""
    setups = []
    for name, text, _session in record.players:
        deck = resolve(text, room.format)
        setups.append(PlayerSetup(name, deck.main, deck.sideboard))
    return setups


def on_clock(wall: float | None, now: float, wall_now: float | None) -> float:
    """The wall-clock time ``wall`` (``time.time()``) on the room's clock, where ``now`` is
    ``wall_now``; ``now`` if either isn't known, and never later than now."""
    if not wall or wall_now is None:
        return now
    return min(now, now - (wall_now - wall))


def _played_at(record: GameRecord, now: float, wall_now: float | None) -> list[float]:
    """When each of a stored game's actions was played, on the room's clock: when it was
    stored, which is never before (:func:`on_clock`; ``now`` for one stored before
    actions had times)."""
    times = record.action_times
    if len(times) != len(record.actions):
        return [now] * len(record.actions)
    return [on_clock(at, now, wall_now) for at in times]
