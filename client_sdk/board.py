"""What the terminal client shows, as pure functions of a :class:`Board`.

A :class:`Board` is the mirror's view of a game plus what the view doesn't hold: the names
of objects seen before (an event may name an object that left the view in the same delta),
the last events in plain words, clocks, presence, the connection and the line being typed.
:func:`render` turns it into `rich` renderables, :func:`frame_text` into plain text (the
unit tests read that); nothing here does I/O.
"""

from __future__ import annotations

import io
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from client_sdk.cli import split_note
from client_sdk.describe import (
    NO_BLOCKERS_TEXT,
    became_tapped_text,
    combat_damage_marker,
    damage_step_of,
    decision_name,
    decision_prompt,
    deck_words,
    event_lines,
    events_text,
    hidden_tiers_text,
    named_option,
    names_cards,
    no_block_text,
    object_name,
    plain_symbols,
    pool_symbols,
    reason_words,
    resolution_end,
    result_text,
    seat_name,
    shown_options,
    step_name,
    target_text,
    tier_text,
    waiting_trigger,
)
from client_sdk.mirror import Mirror
from client_sdk.stops import AUTO, FULL
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb

#: Events kept (the screen shows as many of the last ones as fit).
EVENTS_KEPT = 200
#: The notice while the answers to a ``why`` are awaited (each answer a line after it).
WHY_NOTICE = "Why not:"
#: Said instead of ``why`` answers given at a state the game has since left.
WHY_STALE = "Why not: the game moved on since you asked -- type why again."
#: How the notices of a deck kept or accepted for the next game of a match begin.
DECK_NOTICES = ("You keep your deck for game ", "Deck accepted for game ")
#: The most names of a choice of a name (CHOOSE_NAME) listed one a line: more (Necromentia's
#: 318 card names, a 339-line frame in a 60-row terminal) are typed, not listed.
NAMES_LISTED = 12
#: The most names a notice or the hint under such a choice lists.
NAMES_HINTED = 8
#: How the server's note on the cards it supports begins, after a deck refused for an
#: unknown card (left out of a refusal between games, where it doesn't apply).
POOL_NOTE_START = "(this server supports the cards of "
#: Why a player is asked the order of cards put into their graveyard at once: a new player
#: asked "Choose the next card to put into your graveyard" after two creatures died in one
#: combat couldn't tell why (found by a new player).
GRAVEYARD_ORDER_TEXT = (
    "These cards go to your graveyard at the same time, so you may choose their order: "
    "it matters only to a card that cares about the order of a graveyard, "
    "which is rare -- if unsure, type a: any order.")
#: The option taking a cast back (733.1), answered with ``c``.
CANCEL_TEXT = "Cancel: take it back (nothing is paid)"
#: Events shown at least and at most.
EVENTS_SHOWN = (3, 12)
#: The most events a snapshot repeats from before it (protocol/README.md: ``recent_events``,
#: "at most 20"): that many, and the first ones may be the tail of a run cut short.
RECENT_EVENTS = 20

#: The kinds of the events that tell how a game began (rules 103.1, 103.5), which a
#: snapshot's ``recent_events`` begin with however long ago that was (protocol/README.md).
OPENING_KINDS = ("starting_player_chosen", "mulligan_taken")


def opening_lead(events: Sequence[pb.GameEvent]) -> int:
    """How many of a snapshot's recent ``events`` tell how the game began: those it begins
    with, of :data:`OPENING_KINDS` -- never cut short (the last events after them may
    begin with the tail of a run, see :data:`RECENT_EVENTS`)."""
    return next((n for n, e in enumerate(events) if e.WhichOneof("kind") not in OPENING_KINDS),
                len(events))


_PHASES = {
    pb.GAME_PHASE_CHOOSE_STARTING_PLAYER: "Choosing who plays first",  # rule 103.1
    pb.GAME_PHASE_MULLIGANS: "Mulligans",  # rule 103.5
}


@dataclass
class Board:
    """A game as the terminal shows it to one viewer (a seat, or -1: a spectator)."""

    mirror: Mirror = field(default_factory=Mirror)
    #: The viewer's seat (known from Joined, before any snapshot); -1 for a spectator or a
    #: player not seated yet.
    seat: int = -1
    #: A spectator's board (read-only).
    watching: bool = False
    #: The delayed spectator tier watched (0: the live view).
    tier: int = 0
    #: The session is over (the last board, printed once): nobody is waited for.
    ended: bool = False
    #: The game (match) is over and this player may offer a rematch (``r``): not with
    #: bots, not watching, not once the rematch was cancelled.
    rematch_offerable: bool = False
    #: This player offers a rematch now: ``r`` takes the offer back (the keys line says so,
    #: as the notice does: "r: rematch" beside "r takes it back" read as two meanings).
    rematch_offered: bool = False
    #: Watching a game (match) that is over: the players started a rematch this spectator
    #: may watch (``w``).
    rematch_watchable: bool = False
    room: mpb.RoomInfo = field(default_factory=mpb.RoomInfo)
    #: The room's invite code (only its creator knows it), to tell a friend.
    invite_code: str = ""
    #: The room's audience code (only its creator knows it; "" for a room made before
    #: rooms had one), to tell an audience: it watches, never takes a seat.
    audience_code: str = ""
    #: The invite code this player joined the room with (``play --room ID --invite CODE``):
    #: ``invite`` says it -- it said the code was "known to its creator... ask them".
    joined_code: str = ""
    #: The URL of the server, to tell a friend how to join.
    url: str = ""
    account: str = ""
    #: The pending decision if it is the viewer's (None: nothing to answer).
    decision: pb.Decision | None = None
    #: The last events in words, each with how many times in a row it happened.
    events: deque[tuple[str, int]] = field(default_factory=lambda: deque(maxlen=EVENTS_KEPT))
    clocks: dict[int, mpb.ClockState] = field(default_factory=dict)
    #: When the clocks were received (the running one has run since).
    clocks_at: float = 0.0
    presence: dict[int, bool] = field(default_factory=dict)
    connected: bool = True
    resumes: int = 0
    #: A line for the user: a refused answer, a confirmation to give, an error.
    notice: str = ""
    #: The ``why`` questions (ExplainCard) not answered yet: request id -> the card's name.
    why_requests: dict[int, str] = field(default_factory=dict)
    #: The game state the ``why`` answers shown were given at (the mirror's as they came:
    #: the server answers at its state then), None if none is shown.
    why_state: int | None = None
    #: What the user has typed so far (drawn on the input line).
    typed: str = ""
    #: Before the game: what the screen says instead of a board.
    waiting: str = ""
    #: The deck this player plays, in words (describe.deck_words; "" if not known).
    deck: str = ""
    #: The deck as the server stores it (Joined.deck, DeckAccepted.deck): plain text.
    deck_text: str = ""
    #: A match of several games: its latest state (protocol/README.md, "Matches").
    match: mpb.MatchState | None = None
    #: Between games: the player's deck for the next game is awaited.
    sideboard_needed: bool = False
    #: The deck list being pasted, line by line (None: not pasting).
    pasting: list[str] | None = None
    #: The request id of the deck answer the player sent last (0: none).
    deck_request: int = 0
    #: When the match state was received (the sideboarding time has run since).
    match_at: float = 0.0
    #: Where the client stops for priority (:mod:`client_sdk.stops`), for the keys' line.
    stops: str = AUTO
    #: The number a player's side gives seat 0: 1, as players count (``manawire replay``
    #: gives 0, the protocol's number, which its ``--as`` takes).
    first_seat: int = 1
    _seen: dict[str, pb.GameObject] = field(default_factory=dict)
    #: The spells on the stack whose casting the log saw begin: True once cast
    #: (:func:`~client_sdk.describe.event_lines`: a cast taken back is told as that).
    _casts: dict[str, bool] = field(default_factory=dict)
    _turn: int = 0
    #: The game's phase as last seen (a delta ending the mulligans says who kept).
    _phase: int = pb.GAME_PHASE_UNSPECIFIED
    #: The last game event's line logged (from a delta or a snapshot).
    _last_told: str = ""
    #: The deck notes already logged (:meth:`deck_notes`).
    _notes_told: set[str] = field(default_factory=set)
    #: The objects in view as the last snapshot or delta left them: what the next delta
    #: changed (:meth:`_remember_view`).
    _before: dict[str, pb.GameObject] = field(default_factory=dict)
    #: The decision pending in the view as the last snapshot or delta left it (who was asked
    #: what; None: nobody).
    _asked: pb.PendingInfo | None = None
    #: The prompt id of the viewer's declaration of blockers the client answered itself,
    #: none of their creatures able to block (:data:`NO_BLOCKERS_TEXT` logged).
    _no_blockers_said: int = -1
    #: The combat damage step the view was in (rule 510.4; ``combat_damage_step``, unspecified
    #: outside one), for :func:`combat_damage_marker`.
    _damage_step: int = 0

    # ---- the describers' Names
    @property
    def viewer(self) -> int:
        return self.seat

    @property
    def spectator(self) -> bool:
        return self.watching

    def object(self, object_id: str) -> pb.GameObject | None:
        """The object in the view, else as last seen (it may have left the view), else a
        triggered ability waiting to be put on the stack (603.3), as an object named for its
        source -- what ordering triggers names (it read "a card you can't see", for the
        viewer's own creatures' triggers)."""
        found = self.mirror.objects.get(object_id) or self._seen.get(object_id)
        if found is None:
            found = waiting_trigger(self.mirror.header.triggers, object_id)
        return found

    def player(self, seat: int) -> str:
        p = self.mirror.players.get(seat)
        return p.name if p is not None and p.name else f"seat {seat + self.first_seat}"

    def mentions(self, word: str) -> bool:
        return any(word in obj.rules_text.lower() for obj in self.mirror.objects.values())

    def in_view(self) -> Iterable[pb.GameObject]:
        """The objects in view (:func:`~client_sdk.describe.whose_name`)."""
        return self.mirror.objects.values()

    # ---- folding in what the server sent
    def absorb(self, msg: mpb.ServerMessage, now: float) -> None:
        """Fold in a message the client has just processed (its mirror already holds it)."""
        body = msg.WhichOneof("body")
        if body == "snapshot":
            for obj in msg.snapshot.view.objects:
                self._seen[obj.id] = obj
            for obj in msg.snapshot.recent_objects:  # named by the events, gone since
                self._seen.setdefault(obj.id, obj)
            # (a turn before the one last seen: the next game of a match, not a gap)
            next_game = self.mirror.header.turn < self._turn
            self._turn = self.mirror.header.turn
            # Starting afresh (back in a new terminal): what just happened. Later (a resume
            # after too long a drop for the missed deltas, a resync): the events between
            # are gone -- say so, then the last ones (some may repeat lines above).
            self._phase = self.mirror.header.phase
            recent = msg.snapshot.recent_events
            # How the game began -- who plays first, the mulligans -- comes first, however
            # long ago (protocol/README.md: ``recent_events``): told whole, starting afresh
            # (a spectator joining late has them as the players do); the last events after.
            lead = opening_lead(recent)
            told = events_text(self, recent[lead:],
                               mulligans=self._phase == pb.GAME_PHASE_MULLIGANS)
            cut = len(recent) - lead >= RECENT_EVENTS
            fresh = not self.events or next_game
            opening = events_text(self, recent[:lead], mulligans=True) if fresh else []
            if told and not fresh:
                if self._last_told in told:  # (a resync: only what came after, if anything)
                    told = told[len(told) - told[::-1].index(self._last_told):]
                    cut = False  # (told from a line already shown: nothing cut)
                else:
                    self.add_event("-- caught up: events were missed; the last ones --")
            elif fresh and self.mirror.header.phase == pb.GAME_PHASE_MULLIGANS:
                # Starting afresh during the mulligans (a spectator joining, a player back
                # in a new terminal): the last events began mid-mulligan ("Ann put a card
                # from their hand into their library (x4)" of seven, a hand drawn without
                # the mulligan that shuffled the last one away). The hands as they are.
                for line in self._mulligans_so_far():
                    self.add_event(line)
                self._last_told = told[-1] if told else self._last_told
                told, opening = [], []
            if cut:
                # The server's last events are cut at a count, maybe inside a run of alike
                # lines: its first run may be only the tail of one ("drew a card (x3)" of
                # seven) -- left out, not told with a count that isn't true.
                run = next((n for n, text in enumerate(told) if text != told[0]), len(told))
                told = told[run:]
            for text in (*opening, *told):
                self._tell(text)
            self._remember_view()
        elif body == "delta":
            changed: list[str] = []
            # Until-end-of-turn effects end at the cleanup (514.2): in its step, or in a
            # delta that went on into the next turn.
            header = self.mirror.header
            ended = header.step == pb.STEP_CLEANUP or (
                bool(self._turn) and header.turn != self._turn)
            for op in msg.delta.ops:
                kind = op.WhichOneof("op")
                if kind in ("create_object", "update_object", "reveal_object"):
                    obj = getattr(op, kind)
                    if kind == "update_object" and (
                            said := strength_change(self, self._seen.get(obj.id), obj,
                                                    ended=ended)):
                        changed.append(said)
                    self._seen[obj.id] = obj
            mulligans = self._phase == pb.GAME_PHASE_MULLIGANS
            for text in self._kept(msg.delta.events) if mulligans else ():
                self.add_event(text)
            if marker := combat_damage_marker(self._damage_step,
                                              damage_step_of(self.mirror.header)):
                self.add_event(marker)
            # What a resolving spell did that only the view tells (Frost Breath's tapping, a
            # pump's new size) before the line of the spell leaving the stack, the last
            # step of its resolving (608.2n); else after the events. (Said, not told: no
            # snapshot's recent events hold them.)
            lines = event_lines(self, msg.delta.events, mulligans=mulligans,
                                casts=self._casts)
            end = resolution_end(msg.delta.events)
            effects = [*self._tapped_by_resolving(msg.delta), *changed]
            for index, event_line in enumerate(lines):
                if index == end:
                    for text in effects:
                        self.add_event(text)
                    effects = []
                if event_line is not None:
                    self._tell(event_line)
            if said := self._no_block_line(msg.delta):
                self.add_event(said)
            for text in effects:
                self.add_event(text)
            self._remember_view()
            self._phase = self.mirror.header.phase
            turn = self.mirror.header.turn
            if turn != self._turn and turn and not self.mirror.game_over:
                self._turn = turn
                active = self.mirror.header.active_seat
                self.add_event(f"-- Turn {turn}: {self.possessive(active)} turn --")
                if self.notice.startswith(DECK_NOTICES):
                    # (said between games, and through the mulligans: the game it was for
                    # is being played -- "You keep your deck for game 2." stayed on the
                    # screen through game 2)
                    self.notice = ""
        elif body == "clocks":
            self.clocks = {c.seat: c for c in msg.clocks.seats}
            self.clocks_at = now
        elif body == "presence":
            self.presence = {p.seat: p.connected for p in msg.presence.seats}
        elif body == "joined":
            self.joined(msg.joined)
        elif body == "room_update" and msg.room_update.room.room_id == self.room.room_id:
            self.room = msg.room_update.room
        elif body == "room_closed":
            self.notice = f"The room closed: {msg.room_closed.reason}"
        elif body == "match_state":
            before = self.match
            self.match, self.match_at = msg.match_state, now
            state = msg.match_state
            if state.phase == mpb.MATCH_PHASE_PLAYING and (
                    before is None or before.phase != mpb.MATCH_PHASE_PLAYING
                    or before.game_number != state.game_number):
                line = f"-- Game {state.game_number} of {state.best_of} ({self.score_text()}) --"
                if before is None and self.events:
                    # The first word of the match this client hears comes after the game's
                    # snapshot: its recent events are this game's, and stay under the line.
                    self.events.appendleft((line, 1))
                else:
                    self.events.clear()
                    self.add_event(line)
            elif state.phase == mpb.MATCH_PHASE_OVER and (
                    before is None or before.phase != mpb.MATCH_PHASE_OVER):
                self.add_event(self.match_line())
                if self.notice.startswith(DECK_NOTICES):  # no next game to keep a deck for
                    self.notice = ""
        elif body == "deck_accepted":
            accepted = msg.deck_accepted
            self.deck_text = accepted.deck or self.deck_text
            self.deck_notes(accepted.notes)
            self.notice = (f"You keep your deck for game {accepted.game_number}."
                           if accepted.kept else
                           f"Deck accepted for game {accepted.game_number}: "
                           f"{accepted.main_count} cards, {accepted.sideboard_count} in the "
                           f"sideboard.")
        elif body == "notice":
            # The server tells, and asks nothing (protocol/README.md, "Notices"): a line in
            # the log, and under the decision -- which stays as it was.
            said = notice_text(msg.notice)
            self.add_event(said)
            self.notice = said
        elif body == "card_explanation" and msg.request_id in self.why_requests:
            self._explained(self.why_requests.pop(msg.request_id), msg.card_explanation)
        elif body == "error" and msg.request_id in self.why_requests:
            name = self.why_requests.pop(msg.request_id)
            self._explained(name, None, f"the server says: {msg.error.message}")
        elif body == "error" and msg.request_id and msg.request_id == self.deck_request:
            details = list(msg.error.details)
            message = msg.error.message
            head, note = split_note(message)
            if note.startswith(POOL_NOTE_START):
                # (The cards the server supports are not the point between games: a
                # sideboarded list is made of the registered deck and sideboard, 100.4.)
                message = head
            # (Each problem once: in the log, where the screen has room for them all; the
            # notice and the log both listing them read as twice the problems.)
            self.notice = f"Deck refused: {message}" + (
                " -- the problems are in the log above" if details else "") + (
                "; a list pasted between games is your registered deck and sideboard: "
                "the lines under 'Your deck now', changed"  # (rule 100.4)
                if self.sideboard_needed else "")
            for problem in details:
                self.add_event(f"Deck problem: {problem}")
        elif body == "error" and msg.request_id == 0 and \
                msg.error.code == mpb.ERROR_CODE_STALE_PROMPT:
            # An answer that crossed a change (another player conceded, the decision came
            # again under a new number): not the server's wording, what to do.
            self.notice = "The decision changed as you answered: answer it again."
        elif body == "error" and msg.request_id == 0 and \
                msg.error.code != mpb.ERROR_CODE_RATE_LIMITED:
            self.notice = f"The server says: {msg.error.message}"

    def _explained(self, name: str, answer: mpb.CardExplanation | None,
                   said: str = "") -> None:
        """An answer to ``why`` (ExplainCard) under the decision: ``Titanic Growth: No legal
        target: it needs target creature (601.2c, 115.1).`` -- one line a card, the answers
        to one ``why`` together."""
        if answer is not None:
            said = "it can be cast now" if answer.castable else answer.reason
        self.why_state = self.mirror.state_id
        line = f"{name}: {said}"
        self.notice = f"{self.notice}\n{line}" if self.notice.startswith(WHY_NOTICE) \
            else line

    def _kept(self, events: Sequence[pb.GameEvent]) -> list[str]:
        """Who kept their hand, once a round of mulligan declarations is over (rule 103.5:
        each player declares in turn; those taking a mulligan do it together after): ``Bob
        kept 6 cards``. The protocol says who took a mulligan, never who kept: those of the
        round who didn't take one (``events``, a delta of the mulligans) kept, and the round
        was the players with the most mulligans so far -- who kept earlier took fewer. The
        mulligans are over when the first turn begins (the mirror holds the delta)."""
        takers = {e.mulligan_taken.seat: e.mulligan_taken.number for e in events
                  if e.WhichOneof("kind") == "mulligan_taken"}
        players = [p for p in self.mirror.players.values() if not p.has_lost]
        if takers:
            round_mulligans = min(takers.values()) - 1
        elif self.mirror.header.phase != pb.GAME_PHASE_MULLIGANS and players:
            round_mulligans = max(p.mulligans for p in players)
        else:
            return []  # (a declaration within the round, or a card on the bottom)
        lines = []
        for p in sorted(players, key=lambda p: p.seat):
            if p.seat not in takers and p.mulligans == round_mulligans:
                cards = "1 card" if p.hand_count == 1 else f"{p.hand_count} cards"
                lines.append(f"{seat_name(self, p.seat)} kept {cards}")
        return lines

    def _mulligans_so_far(self) -> list[str]:
        """The mulligans as the view shows them now: who plays first, each player's
        mulligans taken and cards in hand (rules 103.1, 103.5)."""
        header = self.mirror.header
        lines = ["-- The mulligans so far --"]
        if header.starting_seat in self.mirror.players:
            lines.append(f"{seat_name(self, header.starting_seat)} "
                         f"{'play' if header.starting_seat == self.seat else 'plays'} first")
        for seat in sorted(self.mirror.players):
            p = self.mirror.players[seat]
            who, has = seat_name(self, seat), "have" if seat == self.seat else "has"
            taken = "no mulligan" if not p.mulligans else \
                "1 mulligan" if p.mulligans == 1 else f"{p.mulligans} mulligans"
            cards = "1 card" if p.hand_count == 1 else f"{p.hand_count} cards"
            lines.append(f"{who} {has} taken {taken}: {cards} in hand")
        return lines

    def _remember_view(self) -> None:
        """Keep what the view holds now -- its objects, who is asked what -- for the next
        delta to be read against (the mirror holds it applied)."""
        self._before = dict(self.mirror.objects)
        header = self.mirror.header
        self._damage_step = damage_step_of(header)  # rule 510.4
        self._asked = pb.PendingInfo()
        self._asked.CopyFrom(header.pending)
        if not header.HasField("pending"):
            self._asked = None

    def _no_block_line(self, delta: pb.Delta) -> str:
        """``Bob didn't block``, ``you didn't block``: a declaration of blockers (rule 509.1)
        seen answered -- the view's pending DECLARE_BLOCKERS decision before this delta gone,
        and not for another blocker of the same player's -- with no block told in the delta.
        Not when the client said already that none of the viewer's creatures can block
        (:data:`NO_BLOCKERS_TEXT`). "" otherwise; as the web client's ``noBlockLine``."""
        asked, now = self._asked, self.mirror.header
        if asked is None or asked.kind != pb.DECISION_KIND_DECLARE_BLOCKERS:
            return ""
        if now.HasField("pending") and (
                now.pending.prompt_id == asked.prompt_id or (
                    now.pending.seat == asked.seat
                    and now.pending.kind == pb.DECISION_KIND_DECLARE_BLOCKERS)):
            return ""
        player = self.mirror.players.get(asked.seat)
        if self.mirror.game_over or (player is not None and player.has_lost):
            return ""
        if any(e.WhichOneof("kind") == "blockers_declared" for e in delta.events):
            return ""
        if asked.seat == self.seat and asked.prompt_id == self._no_blockers_said:
            return ""
        return no_block_text(self, asked.seat)

    def _tapped_by_resolving(self, delta: pb.Delta) -> list[str]:
        """Permanents a resolving spell or ability tapped (Frost Breath: rule 608.2, 701.26a):
        ``Bob's Grizzly Bears became tapped`` -- no event tells it. Only in a delta in which
        something left the stack (a spell or ability resolved), so that the lands tapped for
        mana, an attack's tapping (508.1f) or a cost's are not said; as the web client's
        ``tappedByResolving``. Nor a player's permanents in a delta answering their payment
        (PAY_MANA): Miscast's "unless its controller pays {3}" (118.12a) paid automatically
        resolves Miscast as it taps the lands ("your Mountain became tapped (x3)")."""
        objects = self.mirror.objects
        asked = self._asked
        paying = asked.seat if asked is not None and \
            asked.kind == pb.DECISION_KIND_PAY_MANA else None
        if not any(o.zone.kind == pb.ZONE_KIND_STACK and (
                objects.get(o.id) is None or objects[o.id].zone.kind != pb.ZONE_KIND_STACK)
                for o in self._before.values()):
            return []
        said = []
        for op in delta.ops:
            if op.WhichOneof("op") != "update_object":
                continue
            was, now = self._before.get(op.update_object.id), objects.get(op.update_object.id)
            if was is None or now is None or was.tapped or not now.tapped or \
                    was.zone.kind != pb.ZONE_KIND_BATTLEFIELD or \
                    now.zone.kind != pb.ZONE_KIND_BATTLEFIELD or now.controller == paying:
                continue
            said.append(became_tapped_text(self, now))
        return said

    def _tell(self, text: str) -> None:
        """Log a game event's line (the last one is remembered: a snapshot's recent events
        after it are what was missed)."""
        self._last_told = text
        self.add_event(text)

    def joined(self, joined: mpb.Joined) -> None:
        """The server put this viewer in the room: its seat, the room, a player's deck."""
        self.seat = joined.seat
        self.room = joined.room
        if joined.role == mpb.ROLE_SPECTATOR:
            self.tier = joined.tier
        self.deck = deck_words(joined) or self.deck
        self.deck_text = joined.deck or self.deck_text
        self.deck_notes(joined.deck_notes)

    def deck_notes(self, notes: Iterable[str]) -> None:
        """Log what the server noted of the list it read (Joined.deck_notes,
        DeckAccepted.notes: a printing of another set), each once: a resume's Joined says
        them again."""
        for note in notes:
            if note not in self._notes_told:
                self._notes_told.add(note)
                self.add_event(f"Deck note: {note}")

    def add_event(self, text: str) -> None:
        """Log an event; the same words again just count up (``you drew a card (x7)``).
        The terminal's own :data:`NO_BLOCKERS_TEXT`, logged as it answers the viewer's
        declaration of blockers pending in the view, is that declaration's line: no
        ``you didn't block`` after it (:meth:`_no_block_line`)."""
        asked = self._asked
        if text == NO_BLOCKERS_TEXT and asked is not None and asked.seat == self.seat and \
                asked.kind == pb.DECISION_KIND_DECLARE_BLOCKERS:
            self._no_blockers_said = asked.prompt_id
        if self.events and self.events[-1][0] == text:
            self.events[-1] = (text, self.events[-1][1] + 1)
        else:
            self.events.append((text, 1))

    def possessive(self, seat: int) -> str:
        """``your`` or ``Bob's``."""
        return "your" if seat == self.seat else f"{self.player(seat)}'s"

    def clock_left(self, seat: int, now: float) -> float | None:
        """Seconds left on a seat's clock now (None: not known)."""
        clock = self.clocks.get(seat)
        if clock is None:
            return None
        left = clock.remaining_ms / 1000
        if clock.running and self.game_running:
            left -= max(0.0, now - self.clocks_at)
        return max(0.0, left)

    @property
    def numbered_options(self) -> list[tuple[int, int, str]]:
        """The options as shown, each with the number that answers it: (number, option
        index, words). Counted from 1 -- but X's value when choosing X ("X = 3" is 3: with
        "1. X = 0" a new user typing the X they wanted got one less)."""
        decision = self.decision
        if decision is None:
            return []
        options = decision.options
        # (Cancel is answered with c, numbered never: :func:`_decision_block`.)
        shown = [(i, label) for i, label in self.shown_options
                 if options[i].WhichOneof("kind") != "cancel_cast"]
        if decision.kind == pb.DECISION_KIND_CHOOSE_X:
            return [(options[i].choose_x.value, i, label) for i, label in shown]
        return [(n, i, label) for n, (i, label) in enumerate(shown, 1)]

    def answering(self, number: int) -> int | None:
        """The index of the option the typed ``number`` answers (None: none)."""
        return next((i for n, i, _label in self.numbered_options if n == number), None)

    @property
    def shown_options(self) -> list[tuple[int, str]]:
        """The pending decision's options as the player sees them: (the option's index,
        its words). Options the player can't tell apart are one, the first of them
        (:func:`~client_sdk.describe.shown_options`: four Forests in the hand to play, two
        untapped Forests to tap, two to put on the bottom): "Play Forest (1 of 4)" ... "(4 of
        4)" pushed the rest of the list off the screen (found by a new user)."""
        if self.decision is None:
            return []
        return [(indices[0], label) for indices, label in shown_options(
            self, self.decision.options, self.mirror.objects.values())]

    def option_index(self, kind: str) -> int | None:
        """The index of the pending decision's first option of this kind (``pass_priority``)."""
        if self.decision is None:
            return None
        for i, option in enumerate(self.decision.options):
            if option.WhichOneof("kind") == kind:
                return i
        return None

    @property
    def game_running(self) -> bool:
        return self.mirror.ready and not self.mirror.game_over

    def result_line(self) -> str:
        """``Game over: you won (...)`` once there is a result, else empty; in a match
        of several games, which game it was and how the match stands or ended: ``Game 1 of
        3 over: Bob won (...) · you 0 - Bob 1 · sideboarding for game 2`` (the match's
        "Game 2 of 3" over game 1's last board read as game 2 over, found by a caster)."""
        if not self.mirror.game_over:
            return ""
        result = self.mirror.header.result
        said = result_text(self, result.winners, result.reason)
        match = self.match
        if match is None:
            return f"Game over: {said}"
        between = match.phase == mpb.MATCH_PHASE_SIDEBOARDING
        line = f"Game {match.game_number - between} of {match.best_of} over: {said}"
        if match.phase == mpb.MATCH_PHASE_OVER:
            return f"{line} · {self.match_line()}"
        line += f" · {self.score_text()}"
        return line + (f" · sideboarding for game {match.game_number}" if between else "")

    def score_text(self) -> str:
        """``you 1 - Bob 0`` (with an en dash; in seat order, each named: a bare ``1-0``
        didn't say whose wins were whose), with the draws if any."""
        match = self.match
        if match is None:
            return ""
        score = " \N{EN DASH} ".join(f"{seat_name(self, seat)} {w}"
                                      for seat, w in enumerate(match.wins))
        return score + (f", {match.draws} drawn" if match.draws else "")

    def match_line(self) -> str:
        """``Game 2 of 3 · 1-0``; between games ``Sideboarding for game 2 of 3 · 1-0``; or
        how the match ended (empty: not a match)."""
        match = self.match
        if match is None:
            return ""
        if match.phase == mpb.MATCH_PHASE_OVER:
            if match.winner < 0:
                who = "a draw"
            elif match.winner == self.seat:
                who = "you won the match"
            else:
                who = f"{self.player(match.winner)} won the match"
            return f"Match over: {who}, {self.score_text()} ({reason_words(self, match.reason)})"
        between = "Sideboarding for game" if match.phase == mpb.MATCH_PHASE_SIDEBOARDING \
            else "Game"
        return f"{between} {match.game_number} of {match.best_of} · {self.score_text()}"

    def sideboard_left(self, now: float) -> float:
        """Seconds left to sideboard now."""
        match = self.match
        if match is None or match.phase != mpb.MATCH_PHASE_SIDEBOARDING:
            return 0.0
        return max(0.0, match.sideboard_remaining_ms / 1000 - max(0.0, now - self.match_at))


# ---- rendering
def clock_text(seconds: float) -> str:
    """``28:41``, or ``1:02:03`` from an hour on."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def permanent_text(board: Board, obj: pb.GameObject) -> str:
    """A permanent with what matters about it now: ``Grizzly Bears 2/2 (tapped,
    attacking you)``."""
    if obj.face_down and not obj.name:
        return "a face-down permanent"
    words = obj.name or "a permanent"
    if obj.HasField("power") and obj.HasField("toughness"):
        words += f" {obj.power}/{obj.toughness}"
    flags: list[str] = []
    # Keywords it has now that its text doesn't say (granted by an effect, layer 6: Rousing
    # Read's flying read "Niambi, Esteemed Speaker 3/2"), as the web client's cards show them.
    text = obj.rules_text.lower()
    flags.extend(k.lower() for k in obj.keywords if k.lower() not in text)
    if obj.is_token:
        flags.append("token")
    if obj.tapped:
        flags.append("tapped")
    if obj.doesnt_untap:  # rule 502.3: a resolved effect's (Frost Breath)
        flags.append("doesn't untap next turn")
    if obj.damage:
        flags.append(f"{obj.damage} damage")
    # Summoning sickness (302.6) keeps a creature from attacking and from {T} abilities in
    # its controller's turn only -- never from blocking -- and not one with haste: said
    # then only, as the web client's badge is ("summoning sick" on an opponent's creature
    # in your turn read as "can't block"; new player, round 9).
    if obj.summoning_sick and "Creature" in obj.card_types \
            and obj.controller == board.mirror.header.active_seat \
            and not any(k.lower() == "haste" for k in obj.keywords):
        flags.append("summoning sick")
    if obj.HasField("attacking"):
        at = object_name(board, obj.attacking_planeswalker) if obj.attacking_planeswalker \
            else seat_name(board, obj.attacking)
        flags.append(f"attacking {at}")
        # Which attacker is blocked: three alike attackers, one blocked, read "(tapped,
        # attacking you) x3" -- a second blocker had no way to pick the blocked one.
        blockers = [o.id for o in board.mirror.objects.values() if obj.id in o.blocking]
        if blockers:
            flags.append("blocked by " + ", ".join(object_name(board, i) for i in blockers))
    if obj.blocking:
        flags.append("blocking " + ", ".join(object_name(board, i) for i in obj.blocking))
    # (a planeswalker's loyalty is a number, 306.5b: "loyalty 1", not "loyalty")
    flags.extend(f"loyalty {c.count}" if c.kind == "loyalty" else
                 f"{c.kind} x{c.count}" if c.count != 1 else c.kind for c in obj.counters)
    if obj.attached_to:
        flags.append(f"on {object_name(board, obj.attached_to)}")
    if obj.chosen_name:
        flags.append(f"named {obj.chosen_name}")  # rule 614.12a: the name chosen as it entered
    flags.extend(f"sticker {s.text}" for s in obj.stickers)
    return f"{words} ({', '.join(flags)})" if flags else words


def strength_change(board: Board, before: pb.GameObject | None, after: pb.GameObject, *,
                    ended: bool = False) -> str:
    """A creature's power or toughness changed on the battlefield, in words -- a pump
    resolving (Titanic Growth said nothing), an anthem, a counter: ``your Grizzly Bears is
    now 6/6 (was 2/2)``; "" if neither changed. What it was, not the difference: "Kinetic
    Augur is now 6/8 (+5/+4)" after Titanic Growth read as if Growth gave +5 (the +1 was
    Growth reaching the graveyard, which Augur counts), and the view doesn't say which
    effect did what; as the web client's ``strengthChange``. ``ended``: at the cleanup,
    where effects "until end of turn" end (514.2): ``your Grizzly Bears is 2/2 again (the
    +4/+4 ended)`` -- "is now 3/2 (-4/-4)" read as a -4/-4 effect (a new player's
    review)."""
    if before is None or after.zone.kind != pb.ZONE_KIND_BATTLEFIELD \
            or before.zone.kind != pb.ZONE_KIND_BATTLEFIELD:
        return ""
    if not all(o.HasField(f) for o in (before, after) for f in ("power", "toughness")):
        return ""
    power, toughness = after.power - before.power, after.toughness - before.toughness
    if not (power or toughness):
        return ""
    what = f"{board.possessive(after.controller)} {after.name or 'creature'}"
    if ended:
        return (f"{what} is {after.power}/{after.toughness} again (the "
                f"{-power:+d}/{-toughness:+d} ended)")
    return f"{what} is now {after.power}/{after.toughness} (was {before.power}/{before.toughness})"


def card_text(obj: pb.GameObject) -> str:
    """A card in a hand or a pile: its name and mana cost."""
    if obj.face_down and not obj.name:
        return "a face-down card"
    return f"{obj.name} {obj.mana_cost}" if obj.mana_cost else (obj.name or "a card")


def stack_text(board: Board, obj: pb.GameObject) -> str:
    """A spell or ability on the stack: what it is, whose, what it targets."""
    what = f"{obj.name}'s ability" if obj.is_ability else (obj.name or "a spell")
    if obj.is_ability and obj.ability_text:
        what += f" \"{plain_symbols(obj.ability_text)}\""
    words = f"{what} ({seat_name(board, obj.controller)})"
    if obj.HasField("x_value"):
        words += f", X={obj.x_value}"
    if obj.modes:
        words += ", mode " + ", ".join(str(m + 1) for m in obj.modes)
    if obj.targets:
        words += " -> " + ", ".join(target_text(board, t) for t in obj.targets)
    return words


def _grouped(items: Iterable[str]) -> str:
    """Items joined with `` · ``, runs of the same text as one ``text x3``."""
    out: list[str] = []
    last, count = "", 0
    for item in [*items, ""]:
        if item == last:
            count += 1
            continue
        if count:
            out.append(last if count == 1 else f"{last} x{count}")
        last, count = item, 1
    return " · ".join(out) or "-"


def _counted(items: Iterable[str]) -> str:
    """Items joined with `` · `` in the order first seen, the same text once with its count
    (``Thieves' Guild Enforcer {B} x2``): a hand's copies of a card, told as the
    battlefield's (:func:`_grouped`) -- they were listed one by one."""
    counts: dict[str, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return " · ".join(item if n == 1 else f"{item} x{n}" for item, n in counts.items()) or "-"


def _zone(board: Board, kind: int, owner: int) -> list[pb.GameObject]:
    return board.mirror.zone(kind, owner)


def _zones_grid(rows: list[tuple[str, str]]) -> Table:
    """Zone lines, their contents wrapped in a column of their own."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, style="dim")
    grid.add_column()
    for label, contents in rows:
        grid.add_row(f"  {label}:", contents)
    return grid


def _player_block(board: Board, player: pb.Player, now: float) -> list[RenderableType]:
    seat = player.seat
    you = seat == board.seat
    number = seat + board.first_seat
    name = f"You ({player.name})" if you else player.name or f"seat {number}"
    head = Text()
    head.append(name, style="bold green" if you else "bold")
    head.append(f" seat {number}", style="dim")
    head.append("  life ")
    head.append(str(player.life), style="bold red")
    if player.poison:
        head.append(f"  poison {player.poison}", style="magenta")
    head.append(f"  hand {player.hand_count}  library {player.library_count}")
    pool = pool_symbols(player.mana_pool)
    if pool:
        head.append(f"  mana {pool}", style="cyan")
    left = board.clock_left(seat, now)
    if left is not None:
        running = board.clocks[seat].running and board.game_running
        head.append(f"  clock {clock_text(left)}{' (running)' if running else ''}",
                    style="yellow" if running else "")
    if board.presence.get(seat) is False:
        head.append("  disconnected", style="bold red")
    if player.has_lost:
        head.append("  has lost", style="bold red")
    if board.mirror.header.active_seat == seat and board.mirror.header.turn:
        head.append("  <- turn", style="bold")
    rows: list[tuple[str, str]] = []
    permanents = [o for o in _zone(board, pb.ZONE_KIND_BATTLEFIELD, -1) if o.controller == seat]
    lands = [o for o in permanents if "Land" in o.card_types]
    others = [o for o in permanents if "Land" not in o.card_types]
    for label, objs in (("lands", lands), ("battlefield", others)):
        if objs or label == "battlefield":
            texts = sorted(permanent_text(board, o) for o in objs)
            rows.append((label, _grouped(texts)))
    hand = _zone(board, pb.ZONE_KIND_HAND, seat)
    if hand:
        # (A hand is listed only to its player and to a tier that sees every hand: nothing
        # was revealed in the game, as "hand (revealed)" said on such a tier.)
        rows.append(("hand", _counted(card_text(o) for o in hand)))
    library = sorted((o for o in _zone(board, pb.ZONE_KIND_LIBRARY, seat)),
                     key=lambda o: o.library_position)
    if library:
        rows.append(("library (seen, top first)", " · ".join(card_text(o) for o in library)))
    graveyard = _zone(board, pb.ZONE_KIND_GRAVEYARD, seat)
    if graveyard:
        rows.append((f"graveyard ({len(graveyard)})",
                     " · ".join(o.name or "a card" for o in graveyard)))
    return [head, _zones_grid(rows)]


def _turn_line(board: Board) -> Text:
    header = board.mirror.header
    line = Text()
    if board.mirror.game_over:
        line.append(board.result_line(), style="bold")
        return line
    if board.match is not None:
        line.append(board.match_line(), style="bold cyan")
        line.append(" · ")
    if header.phase in _PHASES:
        line.append(_PHASES[header.phase], style="bold")
    else:
        line.append(f"Turn {header.turn}", style="bold")
        line.append(f" · {board.possessive(header.active_seat)} turn")
        step = step_name(header.step)
        if step:
            line.append(f" · {step}")
    if header.HasField("priority_seat"):
        line.append(f" · priority: {seat_name(board, header.priority_seat)}")
    return line


def deck_lines(text: str) -> list[str]:
    """A stored deck list (Joined.deck, DeckAccepted.deck: ``Name``, the main deck, a blank
    line, ``Sideboard``, the sideboard) as lines to paste back as a deck list, one card a
    line: on one line joined with `` · `` it was refused pasted back ("unknown or
    unsupported card 'Shock · 3 Scorching Dragonfire'", found by a new player)."""
    lines = [line.strip() for line in text.strip().splitlines()]
    return [line for n, line in enumerate(lines) if line or (n and lines[n - 1])]


def _sideboard_block(board: Board, now: float | None) -> list[RenderableType]:
    """Between the games of a match: keep the deck, or paste a sideboarded list."""
    match = board.match
    out: list[RenderableType] = []
    if match is None or match.phase != mpb.MATCH_PHASE_SIDEBOARDING or board.ended:
        return out
    left = f" ({clock_text(board.sideboard_left(now))} left)" if now is not None else ""
    title = f"Between games: your deck for game {match.game_number}{left}"
    if board.spectator and board.tier:
        # A delayed tier is shown no live time (its MatchState's time left is 0) and who
        # has answered as of the moment it shows -- after a restart nobody for a while, so
        # "waiting for" could be false (protocol/README.md, "Spectator tiers"); who has
        # chosen a deck never is.
        chosen = [board.player(s) for s, ready in enumerate(match.ready) if ready]
        out.append(Text(f"Sideboarding for game {match.game_number}" + (
            f" (deck chosen: {', '.join(chosen)})" if chosen else ""), style="dim"))
        return out
    if board.spectator or not board.sideboard_needed:
        waiting = [board.player(s) for s, ready in enumerate(match.ready) if not ready]
        out.append(Text(f"Sideboarding for game {match.game_number}{left}: waiting for "
                        f"{', '.join(waiting) or 'the game to start'}", style="dim"))
        return out
    out.append(Rule(title, style="yellow", align="left"))
    if board.pasting is not None:
        out.append(Text(f"Pasting a deck list: {len(board.pasting)} line(s) so far. A line "
                        f"with a single . sends it; 'cancel' stops."))
        return out
    if board.deck_text:  # (to paste the list with its changes, the cards in view)
        out.append(Text("Your deck now (d, then these lines with your changes, then a "
                        "line with a single .):", style="dim"))
        out.extend(Text(line, style="dim") for line in deck_lines(board.deck_text))
    out.append(Text("  k. Keep my deck (as in the last game)"))
    out.append(Text("  d. Paste a sideboarded deck list: the cards you registered, main "
                    "deck and sideboard together"))  # rule 100.4
    out.append(Text("Whoever doesn't answer in time keeps their deck.", style="dim"))
    return out


def _decision_block(board: Board, now: float | None = None) -> list[RenderableType]:
    header = board.mirror.header
    out: list[RenderableType] = []
    if board.mirror.game_over or board.ended:
        return _sideboard_block(board, now)  # (the turn line says how a game ended)
    decision = board.decision
    if decision is not None and not board.spectator:
        title = f"Your decision #{decision.prompt_id}: {decision_name(decision.kind)}"
        out.append(Rule(title, style="yellow", align="left"))
        if decision.prompt:
            out.append(Text(decision_prompt(decision), style="italic"))
        if _typed_names(board):
            out.extend(_names_block(board))
            return out
        if decision.kind == pb.DECISION_KIND_ORDER_GRAVEYARD:
            out.append(Text(GRAVEYARD_ORDER_TEXT, style="dim"))
        for number, i, label in board.numbered_options:
            line = Text()
            line.append(f"{number:>3}. ", style="bold cyan")
            line.append(label)
            if decision.options[i].WhichOneof("kind") == "pass_priority":
                line.append("  [p]", style="dim")
            out.append(line)
        if decision.kind == pb.DECISION_KIND_ORDER_GRAVEYARD:
            out.append(Text.assemble(("  a. ", "bold cyan"), "Any order: as listed"))
        if board.option_index("cancel_cast") is not None:
            # (On a letter of its own, not numbered: the numbers change as lands are tapped,
            # and Cancel took the number a land had just had -- a cast taken back with {R}
            # floating, found by a new player.)
            out.append(Text.assemble(("  c. ", "bold cyan"), CANCEL_TEXT))
        return out
    if header.HasField("pending") and header.pending.seat == board.seat:
        out.append(Text("Waiting for the server...", style="dim"))
    elif header.HasField("pending"):
        who = seat_name(board, header.pending.seat)
        verb = "are" if who == "you" else "is"
        out.append(Text(f"Waiting: {who} {verb} deciding ({decision_name(header.pending.kind)})",
                        style="dim"))
    return out


def _typed_names(board: Board) -> bool:
    """Whether the pending decision is a choice of a name with more names than are listed
    (:data:`NAMES_LISTED`): typed, not chosen by a number."""
    decision = board.decision
    return decision is not None and decision.kind == pb.DECISION_KIND_CHOOSE_NAME and \
        len(decision.options) > NAMES_LISTED


def names_hint(names: Sequence[str]) -> str:
    """Up to :data:`NAMES_HINTED` of ``names``, and how many more."""
    shown = " · ".join(names[:NAMES_HINTED])
    more = len(names) - NAMES_HINTED
    return shown + (f" and {more} more" if more > 0 else "")


def name_problem(decision: pb.Decision, typed: str) -> str:
    """Why ``typed`` answers no choice of a name (:func:`~client_sdk.describe.named_option`):
    no name begins so, or several do (some of them said)."""
    _index, fits = named_option(decision, typed)
    if not fits:
        return f"No name offered begins with {typed!r}: type the name, or its first letters."
    return (f"{len(fits)} names begin with {typed!r}: {names_hint(fits)} -- type more of "
            f"the name.")


def _names_block(board: Board) -> list[RenderableType]:
    """A choice of one of many names (:func:`_typed_names`), in a few lines: how many, how
    to type one, and the names that begin with what is typed so far."""
    decision = board.decision
    assert decision is not None
    what = "card names" if names_cards(decision) else "names"
    out: list[RenderableType] = [Text(
        f"{len(decision.options)} {what} to choose from (too many to list): type the name, "
        f"or its first letters, and Enter -- e.g. "
        f"{decision.options[0].choose_name.name.lower()[:4]!r}.")]
    typed = " ".join(board.typed.split())
    if typed and not typed.isdigit() and not typed.startswith("?"):
        _index, fits = named_option(decision, typed)
        out.append(Text(f"Names beginning {typed!r}: {names_hint(fits)}" if fits else
                        f"No name offered begins with {typed!r}.", style="dim"))
    return out


def _help_line(board: Board) -> str:
    if board.spectator and board.rematch_watchable and not board.ended:
        return "Watching (read-only). w: watch the rematch · q: stop watching"
    if board.spectator:
        return "Watching (read-only). q: stop watching"
    if board.pasting is not None:
        return "paste the list, then a line with . to send it · cancel: stop pasting"
    if board.sideboard_needed:
        return "k: keep your deck · d: paste a deck list · q: quit (concedes the match)"
    if board.match is not None and board.match.phase == mpb.MATCH_PHASE_SIDEBOARDING:
        return "q: quit (concedes the match)"
    if board.rematch_offerable and not board.ended:  # (the game, or match, is over)
        if board.rematch_offered:
            return "r: take back your rematch offer · q: leave"
        return "r: rematch · q: leave"
    if board.mirror.game_over or not board.mirror.ready:
        return "q: leave"
    me = board.mirror.players.get(board.seat)
    if me is not None and me.has_lost:  # rule 800.4a: the others play on; nothing to concede
        return "You have lost: the others play on. q: leave"
    parts = ["a name (or its first letters) + Enter: answer" if _typed_names(board)
             else "number + Enter: answer"]
    if board.decision is not None and \
            board.decision.kind == pb.DECISION_KIND_ORDER_GRAVEYARD:
        parts.append("a: any order")
    if board.option_index("pass_priority") is not None:
        parts.append("p: pass priority · pp: pass this turn")
    if board.option_index("cancel_cast") is not None:
        parts.append("c: cancel (take the cast back)")
    # (A lasting setting: the client passes in the steps a player seldom acts in.)
    parts.append("full: back to the usual stops" if board.stops == FULL else
                 "full: stop at every step")
    parts.append("stops: where you are asked · ?N or ?NAME: read a card")
    if board.match is not None:
        parts.append("concede: this game · q: quit (concedes the match)")
    else:
        parts.append("q: quit (concedes the game)")
    return " · ".join(parts)


def connection_text(board: Board) -> Text:
    """``connected``, or that the client is reconnecting (the SDK resumes by itself)."""
    if not board.connected:
        return Text("connection lost: reconnecting...", style="bold red")
    if board.resumes:
        times = "once" if board.resumes == 1 else f"{board.resumes} times"
        return Text(f"connected (resumed {times})", style="green")
    return Text("connected", style="green")


def seated_text(room: mpb.RoomInfo) -> str:
    """Who has taken a seat of a room whose game hasn't started."""
    players = ", ".join(room.players) or "nobody yet"
    return f"Seated ({len(room.players)} of {room.seats}): {players}"


def render_top(board: Board, now: float, *, title_line: bool = True) -> list[RenderableType]:
    """The title (unless not ``title_line``), the players and their zones, the stack and
    exile."""
    title = Text()
    title.append("Manawire", style="bold magenta")
    if board.room.room_id:
        title.append(f" · room {board.room.room_id}")
        if board.room.name:
            title.append(f" ({board.room.name})")
    if board.match is not None:
        title.append(f" · best of {board.match.best_of}")
    if not board.spectator:
        title.append(f" · you are {board.account}")
    elif 0 < board.tier <= len(board.room.tiers):
        tier = board.room.tiers[board.tier - 1]
        title.append(f" · watching {tier_text(tier, board.room.players)}")
    else:
        title.append(" · watching")
    title.append(" · ")
    title.append_text(connection_text(board))
    out: list[RenderableType] = [title] if title_line else []
    if board.invite_code and board.room.private and not board.spectator and \
            board.mirror.ready:
        # The creator's to share for as long as the game lasts (before it, the waiting
        # screen says it): the bots of --bot take the seats at once, and the waiting screen
        # was gone before the code could be read.
        out.append(Text(f"Invite code {board.invite_code} · invite: how others join or watch",
                        style="dim"))
    hidden = "" if board.spectator else hidden_tiers_text(board.room.tiers, board.room.players)
    if hidden:
        out.append(Text(hidden, style="yellow"))
    if not board.mirror.ready:
        out.append(Text(board.waiting or "Waiting for the game to start...", style="bold"))
        if board.room.seats:
            out.append(Text(seated_text(board.room)))
        if board.deck:
            out.append(Text(f"You play {board.deck}."))
        return out
    out.append(_turn_line(board))
    seats = sorted(board.mirror.players)
    if board.seat in seats:  # opponents first, in turn order after you; you last
        i = seats.index(board.seat)
        seats = seats[i + 1:] + seats[:i] + [board.seat]
    stack = list(reversed(_zone(board, pb.ZONE_KIND_STACK, -1)))
    for n, seat in enumerate(seats):
        if n == len(seats) - 1:
            out.append(Rule("Stack (top first)" if stack else "Stack: empty", style="dim",
                            align="left"))
            out.extend(Text(f"  {i + 1}. {stack_text(board, o)}") for i, o in enumerate(stack))
            triggers = board.mirror.header.triggers
            if triggers:
                out.append(Text("  waiting to go on the stack: " + " · ".join(
                    f"{t.source_name} ({seat_name(board, t.controller)})" for t in triggers)))
            # Exile and ante are shared zones: each card says whose it is (its owner, 108.3;
            # in the command zone the emblem or plane's controller).
            shared = [(label, " · ".join(
                          f"{card_text(o)} "
                          f"({seat_name(board, o.controller if command else o.owner)})"
                          for o in _zone(board, kind, -1)))
                      for kind, label, command in ((pb.ZONE_KIND_EXILE, "exile", False),
                                                   (pb.ZONE_KIND_COMMAND, "command zone", True),
                                                   (pb.ZONE_KIND_ANTE, "ante", False))
                      if _zone(board, kind, -1)]
            if shared:  # (under a rule of their own: under the stack's they read as on it)
                out.append(Rule(", ".join(label for label, _cards in shared).capitalize(),
                                style="dim", align="left"))
                out.append(_zones_grid(shared))
        out.extend(_player_block(board, board.mirror.players[seat], now))
    return out


def notice_text(notice: mpb.Notice) -> str:
    """A server's notice in the words shown: ``Server notice: this game has taken 270
    actions: ...`` (not an error: nothing was refused)."""
    return f"Server notice: {notice.message}"


def render_events(board: Board, count: int) -> list[RenderableType]:
    """The last ``count`` events, oldest first."""
    shown = list(board.events)[-count:] if count > 0 else []
    out: list[RenderableType] = [Rule("Last events", style="dim", align="left")]
    out.extend(Text(f"  {_sentence(text)}" + (f" (x{n})" if n > 1 else ""))
               for text, n in shown)
    return out


def _sentence(text: str) -> str:
    """``you drew a card`` -> ``You drew a card`` (a player's name stays as it is)."""
    first = text.split(" ", 1)[0]
    return text[:1].upper() + text[1:] if first in ("you", "your", "a") else text


def render_bottom(board: Board, *, keys: bool = True, now: float | None = None
                  ) -> list[RenderableType]:
    """The decision (numbered options) or whom the game waits for -- between the games of
    a match, the sideboarding -- a notice, the keys."""
    out = _decision_block(board, now)
    if board.notice:
        out.append(Text(board.notice, style="bold magenta"))
    if keys:
        out.append(Text(_help_line(board), style="dim"))
    return out


def prompt_text(board: Board) -> Text:
    """The input line: what the user has typed."""
    line = Text("> ", style="bold")
    line.append(board.typed)
    return line


def render(board: Board, now: float, *, events: int = EVENTS_SHOWN[1], keys: bool = True
           ) -> Group:
    """The whole screen (without the input line) as one renderable; ``keys``: with the
    line telling which keys do what."""
    return Group(*render_top(board, now), *render_events(board, events),
                 *render_bottom(board, keys=keys, now=now))


def render_lines(console: Console, parts: Sequence[RenderableType]) -> list[str]:
    """``parts`` as the console would print them, one string per line (styles included
    if the console has colour)."""
    with console.capture() as capture:
        for part in parts:
            console.print(part)
    return capture.get().splitlines()


def frame_lines(console: Console, board: Board, now: float) -> list[str]:
    """One screen for ``console``'s size: as many of the last events as fit (at least
    three), the input line last."""
    top = render_lines(console, render_top(board, now))
    bottom = render_lines(console, render_bottom(board, now=now))
    room = console.size.height - len(top) - len(bottom) - 2  # the events' rule, the input
    low, high = EVENTS_SHOWN
    events = render_lines(console, render_events(board, max(low, min(high, room))))
    return [*top, *events, *bottom, *render_lines(console, [prompt_text(board)])]


def frame_text(board: Board, now: float, *, width: int = 100, height: int = 60) -> str:
    """The screen as plain text (no colour), for tests and logs."""
    console = Console(file=io.StringIO(), width=width, height=height, color_system=None,
                      force_terminal=False, highlight=False, emoji=False)
    return "\n".join(line.rstrip() for line in frame_lines(console, board, now))
