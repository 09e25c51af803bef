"""Replays of finished games, without any I/O (the replay core).

A stored game (:class:`~server.store.records.GameRecord`: seed, players, decks, action log)
is rebuilt with the engine (deterministic, invariant 3) and run through the same view
pipeline its room ran, so a replay for one view class -- a seat, the spectators (the public
view) or the omniscient class (:data:`~server.view.project.OMNISCIENT`) -- is the very
``Snapshot`` and ``Delta`` messages that class received live: the same state ids, the same
view hashes, byte for byte (a room's live streams start at state id 1 when the game starts,
and an action that changes nothing a class may know gives that class no delta and no state
id).

:class:`Replay` is a cursor over one game for one view class: :meth:`Replay.step` plays the
next action, :meth:`Replay.seek` jumps to after N actions (forward by playing on, backward by
starting over), :meth:`Replay.seek_turn` to the start of a turn; :meth:`Replay.snapshot` is
the view there. The ``*_steps`` generators do the same work in small pieces, so an event
loop can bound the work it does between checkpoints (:mod:`server.rooms.replaying`): each
engine call (creating the game, one action) is a piece of its own, and the view's work comes
after it in pieces of at most :data:`~server.view.omniscient.OBJECTS_PER_YIELD` objects --
the omniscient class's too, whose stream
(:class:`~server.view.omniscient.TrackedOmniscientStream`) costs what an action changed, not
the game's every card.

:func:`replay_problem` says who may replay what (protocol/README.md, "Replays").

A game is replayed by the rules of the build that replays it. A build whose rules changed
since the game was played (docs/operating.md, "Upgrades") may play its log otherwise -- an action
not legal any more, or the same actions to another end -- so :meth:`Replay.index_steps`,
which every replay runs first, plays the whole log and checks it ends as the game did: a
replay that would show a game that never happened is refused (:class:`ReplayError`, the
action or result that differs named) rather than shown.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from protocol.v1 import messages_pb2 as mpb
from protocol.viewhash import ViewDigest
from server.cards import DeckError
from server.decks import Deck, DeckFormat, resolve
from server.engine import Game, IllegalActionError, PlayerSetup, apply, new_game
from server.engine.actions import Action
from server.engine.events import Event
from server.store.records import GameRecord, Spectate, TierKind, secret_hash
from server.view.omniscient import TrackedOmniscientStream, run_steps
from server.view.pipeline import ViewPipeline
from server.view.project import EVERY_HAND, OMNISCIENT, SPECTATOR, View

#: The public perspective: the spectators' view class.
PUBLIC = SPECTATOR

__all__ = ["EVERY_HAND", "OMNISCIENT", "PUBLIC", "Frame", "Replay", "ReplayError", "replay_problem",
           "viewer_name"]


class ReplayError(Exception):
    """A replay that can't be made or a seek that can't be done, with a protocol error
    code."""

    def __init__(self, code: int, message: str, why: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        #: The reason alone, without the game it is about (``message`` if not given).
        self.why = why or message


def _other_rules(record: GameRecord, what: str) -> ReplayError:
    """The refusal of a game whose log this build's rules play otherwise than the build that
    played it (``what``: how)."""
    return ReplayError(mpb.ERROR_CODE_GAME_OVER,
                       f"game {record.room_id} was played by a build whose rules differ from "
                       f"this one's: {what}, so this build can't replay it (the build that "
                       f"played it can)", why=what)


def _apply(record: GameRecord, game: Game, n: int, seat: int, action: Action) -> list[Event]:
    """Play the ``n``-th action of ``record``'s log (1-based) on ``game``; ReplayError if this
    build's rules don't allow it there (:func:`_other_rules`)."""
    try:
        return apply(game, seat, action)
    except IllegalActionError:  # (GameOverError too: the game ended sooner here)
        raise _other_rules(record, f"its action {n} ({type(action).__name__} by seat {seat}) "
                                   f"is not legal at that point under this build's "
                                   f"rules") from None


class _Stream(Protocol):
    """What a replay needs of a view class's stream (ViewStream,
    TrackedOmniscientStream)."""

    state_id: int
    digest: ViewDigest

    @property
    def view(self) -> View: ...

    def snapshot(self, room_id: str, request_id: int = 0) -> bytes: ...


def viewer_name(viewer: int) -> str:
    """A view class in words: ``seat 0``, ``public``, ``omniscient``."""
    if viewer == PUBLIC:
        return "public"
    if viewer == OMNISCIENT:
        return "omniscient"
    if viewer == EVERY_HAND:
        return "every hand"
    return f"seat {viewer}"


def replayable(record: GameRecord) -> ReplayError | None:
    """Why a stored game can't be replayed (None: it can): only finished games can."""
    if record.aborted is not None:
        return ReplayError(mpb.ERROR_CODE_GAME_OVER,
                           f"game {record.room_id} was aborted by a server fault: it can't "
                           f"be replayed")
    if record.result is None:
        return ReplayError(mpb.ERROR_CODE_NOT_READY,
                           f"game {record.room_id} has not finished: only finished games can "
                           f"be replayed (watch it live instead)")
    return None


def replay_problem(record: GameRecord, account_id: str, viewer: int,
                   invite_code: str = "", now: float = 0.0, *,
                   showing: Showing | None = None,
                   match_open: bool = False) -> ReplayError | None:
    """Why ``account_id`` may not replay ``record`` as ``viewer`` (None: it may): who may
    (:func:`access_problem`), asked first -- so that someone who may not learns nothing of
    how far the game has come (a delayed tier's viewers would learn it had ended) -- then
    whether it can be replayed (:func:`replayable`: only once it finished). ``now``: the
    wall clock (``time.time()``), for a delayed tier's audience (and ``showing``, whether a
    tier of the game's room, live, still has actions of it to show); ``match_open``: the
    game is one of a match still being played (:func:`access_problem`)."""
    return access_problem(record, account_id, viewer, invite_code, now, showing=showing,
                          match_open=match_open) or replayable(record)


def hidden_from(record: GameRecord, account_id: str, viewer: int, invite_code: str) -> bool:
    """Whether a private room's game must look like no stored game at all to this request
    (answered as a made-up id is), as a join of the live room does (``Room.hidden_from``):
    a private room, asked by an account it doesn't know -- no seat of theirs, taken or
    reserved, no spectator tier naming them -- without its invite code, and not for the
    public view of a room anyone could watch live. Else a stranger trying ids would learn
    which private rooms exist, and how they were set (a review of the joins' fix)."""
    settings = record.settings
    if not settings.private or _invited(record, invite_code):
        return False
    if viewer == PUBLIC and settings.spectate is Spectate.ALLOWED:
        return False
    if not account_id:
        return True
    known = {*(record.accounts or ()), *(a for a, _n in settings.reserved),
             *(a for tier in settings.tiers for a, _n in tier.accounts)}
    return account_id not in known


def _invited(record: GameRecord, invite_code: str) -> bool:
    """Whether ``invite_code`` is the room's invite code or its audience code (constant
    time): a replay is watching, which either opens (a room stored before rooms had an
    audience code takes the invite code alone)."""
    if not invite_code:
        return False
    presented = secret_hash(invite_code)
    settings = record.settings
    return any([bool(settings.invite_hash)
                and hmac.compare_digest(presented, settings.invite_hash),
                bool(settings.audience_hash)
                and hmac.compare_digest(presented, settings.audience_hash)])


def _admitting(record: GameRecord, account_id: str, viewer: int, invite_code: str
               ) -> list[tuple[int, float]]:
    """The room's delayed spectator tiers that show ``viewer``'s view class to
    ``account_id`` (protocol/README.md, "Spectator tiers": one that names the account, or
    admits the invite code given): each one's index in the room's settings and its delay."""
    kinds = {PUBLIC: TierKind.PUBLIC, EVERY_HAND: TierKind.OMNISCIENT}
    return [(n, tier.delay_seconds) for n, tier in enumerate(record.settings.tiers)
            if tier.kind is kinds.get(viewer, TierKind.PLAYER)
            and (tier.kind is not TierKind.PLAYER or tier.seat == viewer)
            and ((account_id and any(a == account_id for a, _n in tier.accounts))
                 or (tier.invite and _invited(record, invite_code)))]


#: Whether tier ``n`` (its index in the room's settings) of the game's room, live, still has
#: actions of the game to show (None, or always False: the room is gone).
Showing = Callable[[int], bool]


def _tier_shown(record: GameRecord, admitting: list[tuple[int, float]], now: float,
                showing: Showing | None) -> ReplayError | None:
    """Whether one of the ``admitting`` tiers has shown the whole game by ``now``: its end
    plus the tier's delay has passed -- and, its room still live, the tier has shown the
    game's last action (a busy server lets its tiers fall behind their delay: ``showing``):
    a replay must tell the tier's audience nothing the tier hadn't yet, so until then the
    answer is the same whether or not the game has ended."""
    finished = record.finished
    if finished is not None and any(now >= finished + delay
                                    and (showing is None or not showing(n))
                                    for n, delay in admitting):
        return None
    least = min(delay for _n, delay in admitting)
    return ReplayError(mpb.ERROR_CODE_NOT_READY,
                       f"its replay as the delayed tier's audience saw it opens once the tier "
                       f"has shown the whole game: {least:g} s after it ends")


def access_problem(record: GameRecord, account_id: str, viewer: int,
                   invite_code: str = "", now: float = 0.0, *,
                   showing: Showing | None = None,
                   match_open: bool = False) -> ReplayError | None:
    """Why ``account_id`` may not replay ``record`` as ``viewer``, however far it has come
    (None: it may, once it is finished). Needs only the game's record, not its actions.

    - public (:data:`PUBLIC`): anyone who could have watched the room (its spectate setting:
      allowed, or invite with the code), and the game's players;
    - a seat: only the account that held that seat;
    - every hand (:data:`EVERY_HAND`): the game's players;
    - omniscient (:data:`OMNISCIENT`): only the game's players;
    - and public, a seat or every hand: the audience of a delayed tier of the room showing
      that class (named in it, or with the invite code if it takes it), once the tier has
      shown the whole game (:func:`_admitting`, :func:`_tier_shown`; ``showing``: whether
      a tier of the room, live, still has actions of the game to show).

    While the game's match is still being played (``match_open``: a game of a best-of-3 or
    best-of-5 whose match has not ended, the next game to come), its players may replay
    only what they saw live -- their own seat's view and the public view: every hand, the
    omniscient view and the other seat's view are refused (NOT_READY) until the match is
    over, or a player would read the other's deck (library and sideboard plan) between
    games. Everyone else is held to what their spectator tier showed them live anyway.

    The one place these rules live.
    """
    problem = _access_problem(record, account_id, viewer, invite_code, now, showing=showing)
    if problem is not None or not match_open or viewer == PUBLIC:
        return problem
    accounts = record.accounts
    if not account_id or account_id not in accounts or \
            (0 <= viewer < len(accounts) and accounts[viewer] == account_id):
        return None  # (not a player: held to the tier that admitted it; or their own seat)
    return ReplayError(mpb.ERROR_CODE_NOT_READY,
                       f"game {record.room_id} is a game of a match still being played: until "
                       f"the match is over its players may replay only what they saw live "
                       f"(their own seat's view, or the public view); every hand and every "
                       f"card open once the match is over",
                       why="its match is still being played")


def _access_problem(record: GameRecord, account_id: str, viewer: int, invite_code: str,
                    now: float, *, showing: Showing | None) -> ReplayError | None:
    """:func:`access_problem` of a single game (or a match that is over)."""
    players = len(record.players)
    accounts = record.accounts or ("",) * players
    player = bool(account_id) and account_id in accounts
    if viewer == PUBLIC:
        if player:
            return None
        spectate = record.settings.spectate
        if spectate is Spectate.ALLOWED:
            return None
        if spectate is Spectate.INVITE and _invited(record, invite_code):
            return None
        admitting = _admitting(record, account_id, viewer, invite_code)
        if admitting:
            return _tier_shown(record, admitting, now, showing)
        return ReplayError(mpb.ERROR_CODE_FORBIDDEN,
                           "this room allowed no spectators: its public replay is its players'"
                           if spectate is Spectate.NONE else
                           "watching this room needed its invite code: give it to replay it")
    if viewer == OMNISCIENT:
        if player:
            return None
        return ReplayError(mpb.ERROR_CODE_FORBIDDEN,
                           "only the game's players may replay it with every card shown")
    if viewer == EVERY_HAND:
        if player:
            return None
        admitting = _admitting(record, account_id, viewer, invite_code)
        return _tier_shown(record, admitting, now, showing) if admitting else ReplayError(
            mpb.ERROR_CODE_FORBIDDEN, "only the game's players, and the audience of its "
                                      "every-hand spectator tier, may replay it with every hand")
    if not 0 <= viewer < players:
        # Only the game's players are told how many seats it has: to anyone else a seat the
        # game doesn't have is refused as one they didn't hold.
        return ReplayError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                           f"the game has seats 0 to {players - 1}, not {viewer}") \
            if player else _seat_forbidden(viewer)
    if account_id and accounts[viewer] == account_id:
        return None
    admitting = _admitting(record, account_id, viewer, invite_code)
    return _tier_shown(record, admitting, now, showing) if admitting \
        else _seat_forbidden(viewer)


def _seat_forbidden(viewer: int) -> ReplayError:
    return ReplayError(mpb.ERROR_CODE_FORBIDDEN,
                       f"only the account that held seat {viewer} (and the audience of a "
                       f"spectator tier showing that seat) may replay that seat's view")


@dataclass(frozen=True, slots=True)
class Frame:
    """One action of a replay as the view class saw it."""

    #: The action's number (1-based: the actions played so far, this one included).
    action: int
    #: Who took it and what kind of action it was (e.g. ``PassPriority``).
    seat: int
    kind: str
    #: The turn after it, and the class's state id and view hash after it.
    turn: int
    state_id: int
    view_hash: bytes
    #: The serialized ``ServerMessage{delta}`` the class received (None: none, nothing it may
    #: know changed).
    message: bytes | None


class Replay:
    """A cursor over one finished game for one view class (seat, :data:`PUBLIC` or
    :data:`OMNISCIENT`). Starts at the game's start (``position`` 0, state id 1) -- built at
    once, or with ``start=False`` by the first :meth:`seek_steps` (or :meth:`start_steps`),
    in pieces."""

    game: Game

    def __init__(self, record: GameRecord, viewer: int, *, start: bool = True,
                 checked: Sequence[int] | None = None) -> None:
        players = len(record.players)
        if viewer not in (PUBLIC, OMNISCIENT, EVERY_HAND) and not 0 <= viewer < players:
            raise ReplayError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                              f"the game has seats 0 to {players - 1}, not {viewer}")
        self.record = record
        self.viewer = viewer
        fmt = DeckFormat(record.settings.format)
        self._setups = []
        decks: dict[str, Deck] = {}  # (seats playing one list: read once)
        for name, deck_text, _session in record.players:
            deck = decks.get(deck_text)
            if deck is None:
                try:
                    deck = decks[deck_text] = resolve(deck_text, fmt)
                except DeckError as exc:
                    raise _other_rules(record, f"{name}'s deck is not one this build "
                                               f"knows ({exc})") from None
            self._setups.append(PlayerSetup(name, deck.main, deck.sideboard))
        #: The first position (actions played) of each turn; filled by :meth:`index_steps`
        #: (or given: ``checked``, what :meth:`index_steps` found of this game before -- its
        #: log is then not played and checked again).
        self._turn_starts: Sequence[int] | None = checked
        self.position = 0
        #: Whether the game and the class's view are there, consistent with ``position``
        #: (False before :meth:`start_steps`, and after a piece of work was abandoned).
        self._ready = False
        self._pipeline: ViewPipeline | None = None
        self._omniscient: TrackedOmniscientStream | None = None
        if start:
            run_steps(self.start_steps())

    def start_steps(self) -> Generator[None, None, None]:
        """Go to the game's start: the game made again from its seed (one piece: the
        engine's), then the class's view of it (the omniscient class's in pieces)."""
        self._ready = False
        game = new_game(self.record.seed, self._setups, chooser=self.record.chooser)
        yield
        base = self.record.state_base  # a later game of a match: its ids go on
        pipeline: ViewPipeline | None = None
        omniscient: TrackedOmniscientStream | None = None
        if self.viewer == OMNISCIENT:
            omniscient = TrackedOmniscientStream()
            yield from omniscient.start_steps(game)
            omniscient.state_id = base
        else:
            pipeline = ViewPipeline(game, [self.viewer], first_state_id=base)
        self.game, self.position = game, 0
        self._pipeline, self._omniscient = pipeline, omniscient
        self._ready = True
        yield

    # ---- where it is
    @property
    def stream(self) -> _Stream:
        """The view class's stream now."""
        if self._omniscient is not None:
            return self._omniscient
        assert self._pipeline is not None
        return self._pipeline.streams[self.viewer]

    @property
    def room_id(self) -> str:
        return self.record.room_id

    @property
    def actions(self) -> int:
        """How many actions the game has."""
        return len(self.record.actions)

    @property
    def at_end(self) -> bool:
        return self.position >= self.actions

    @property
    def state_id(self) -> int:
        return self.stream.state_id

    @property
    def view_hash(self) -> bytes:
        return self.stream.digest.hash(self.viewer)

    @property
    def turn(self) -> int:
        return self.game.turn

    @property
    def view(self) -> View:
        """The class's current view (read it, don't keep it)."""
        return self.stream.view

    def snapshot(self, request_id: int = 0) -> bytes:
        """A ``Snapshot`` of the current position (serialized ServerMessage), exactly as
        the room would have sent it to this class then."""
        return self.stream.snapshot(self.room_id, request_id)

    # ---- moving
    def step(self) -> Frame:
        """Play the next action (ReplayError at the end)."""
        return run_steps(self.step_steps())

    def step_steps(self) -> Generator[None, None, Frame]:
        """Play the next action: the engine's work (one piece), then the class's view of
        it (the omniscient class's in pieces); the frame. ReplayError at the end."""
        if self.at_end:
            raise ReplayError(mpb.ERROR_CODE_GAME_OVER, "the replay is at the game's end")
        if not self._ready:  # an earlier piece of work was abandoned half way
            yield from self.seek_steps(self.position)
        seat, action = self.record.actions[self.position]
        game = self.game
        self._ready = False  # until the view has caught up with the game
        events = _apply(self.record, game, self.position + 1, seat, action)
        yield
        message: bytes | None
        if self._omniscient is not None:
            message = yield from self._omniscient.advance_steps(game, action, events)
        else:
            assert self._pipeline is not None
            sent = self._pipeline.advance(game, action, events)
            message = sent[0][2] if sent else None
        self.position += 1
        self._ready = True
        return Frame(self.position, seat, type(action).__name__, game.turn, self.state_id,
                     self.view_hash, message)

    def seek_steps(self, position: int) -> Generator[None, None, None]:
        """Go to just after ``position`` actions, in pieces (backward: from the start
        again)."""
        if not 0 <= position <= self.actions:
            raise ReplayError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                              f"the game has {self.actions} actions: seek to 0-{self.actions}, "
                              f"not {position}")
        if not self._ready or position < self.position:
            yield from self.start_steps()
        while self.position < position:
            yield from self.step_steps()

    def seek(self, position: int) -> None:
        """Go to just after ``position`` actions."""
        run_steps(self.seek_steps(position))

    def snapshot_steps(self, request_id: int = 0) -> Generator[None, None, bytes]:
        """:meth:`snapshot`, in pieces (the omniscient class's view is every card)."""
        if self._omniscient is not None:
            return (yield from self._omniscient.snapshot_steps(self.room_id, request_id))
        return self.stream.snapshot(self.room_id, request_id)

    def check(self) -> None:
        """Play the whole log (:meth:`index_steps`): ReplayError if this build's rules play
        it otherwise than the build that played it."""
        run_steps(self.index_steps())

    def index_steps(self) -> Generator[None, None, None]:
        """Find where each turn starts (the engine alone, one action per iteration), and
        check that this build's rules play the log as the game was played: each action legal,
        the game over at its end, with its winners (of a game still in play: each action
        legal); ReplayError otherwise. Done before anything of a replay is shown -- once per
        game: a :class:`Replay` given what it found (``checked``) skips it."""
        if self._turn_starts is not None:
            return
        game = new_game(self.record.seed, self._setups, chooser=self.record.chooser)
        yield
        starts = [0] * (game.turn + 1)
        for n, (seat, action) in enumerate(self.record.actions, start=1):
            _apply(self.record, game, n, seat, action)
            while len(starts) <= game.turn:
                starts.append(n)
            yield
        if self.record.result is None:  # a game in play (manawire check-games): its log so far
            self._turn_starts = starts
            return
        winners = self.record.result.get("winners")
        if game.result is None:
            raise _other_rules(self.record, f"its {self.actions} actions don't finish it under "
                                            f"this build's rules")
        if not isinstance(winners, list) or sorted(int(w) for w in winners) != \
                sorted(game.result.winners):
            raise _other_rules(self.record, f"its {self.actions} actions end it otherwise under "
                                            f"this build's rules ({game.result.reason})")
        self._turn_starts = starts

    @property
    def checked(self) -> Sequence[int] | None:
        """Where each turn starts, once :meth:`index_steps` has checked the log (None: not
        yet): give it to another :class:`Replay` of this game (``checked``) to spare it the
        pass."""
        return self._turn_starts

    @property
    def turns(self) -> int:
        """The game's last turn (:meth:`index_steps` first)."""
        if self._turn_starts is None:
            run_steps(self.index_steps())
        assert self._turn_starts is not None
        return len(self._turn_starts) - 1

    def turn_start(self, turn: int) -> int:
        """The position at which ``turn`` begins: after the action that began it (0 for the
        turns before the first action's)."""
        last = self.turns
        assert self._turn_starts is not None
        if not 0 <= turn <= last:
            raise ReplayError(mpb.ERROR_CODE_INVALID_ARGUMENT,
                              f"the game's turns are 0-{last}, not {turn}")
        return self._turn_starts[turn]

    def seek_turn(self, turn: int) -> None:
        """Go to the start of ``turn``."""
        self.seek(self.turn_start(turn))

    def frames(self) -> Iterator[Frame]:
        """Play every remaining action."""
        while not self.at_end:
            yield self.step()
