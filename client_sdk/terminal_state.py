"""What a terminal session (:class:`client_sdk.terminal.Session`) holds: its client, board,
screen and keyboard, and the state of its passing, answering, rematch and watching, set up by
:class:`SessionState` -- the base of the session's parts, each a module: the end of a game
and the rematch (:mod:`client_sdk.terminal_rematch`), what comes from the server and the
answers the client makes by itself (:mod:`client_sdk.terminal_receive`), and what the user
types (:mod:`client_sdk.terminal_commands`) -- and how a session ended (:class:`Outcome`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import trio

from client_sdk.board import Board
from client_sdk.client import Client
from client_sdk.stops import AUTO, HUMAN_PASS_SECONDS
from client_sdk.terminal_io import Keyboard, Mark, Screen
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb


@dataclass
class Outcome:
    """How a session ended: the line to print and the exit code."""

    line: str
    code: int


class SessionState:
    """A session's state, shared by its parts (:class:`client_sdk.terminal.Session`)."""

    def __init__(self, client: Client, board: Board, screen: Screen, keyboard: Keyboard, *,
                 player: bool) -> None:
        self.client = client
        self.board = board
        self.screen = screen
        self.keyboard = keyboard
        self.player = player
        self.answers = 0
        self._dirty = trio.Event()
        self._confirm_quit = False
        self._confirm_concede = False
        self._outcome: Outcome | None = None
        #: What to say if the session stops otherwise: Ctrl-C ("Interrupted"), or the input
        #: ending while the player is seated in a game (the words it begins with).
        self.stopped: Callable[[str], str] = lambda why: f"{why}."
        #: Passing priority for the rest of a turn (``pp``): that turn and what was on the
        #: stack then (None: not passing).
        self._passing: tuple[int, frozenset[str]] | None = None
        #: Where the client stops for priority (:mod:`client_sdk.stops`): a lasting setting,
        #: kept across turns and games (and saved for the next runs by ``play``).
        self.stops = AUTO
        #: Save a changed :attr:`stops` for the next runs (``play``; a test's session doesn't).
        self.save_stops: Callable[[str], object] | None = None
        #: ``a`` answered the order of cards put into the graveyard at once: the rest of
        #: that order is taken as listed, by itself.
        self._any_order = False
        #: The turn on the screen and when it began (trio's clock).
        self._turn: tuple[int, float] = (-1, 0.0)
        #: The turn in which ``pp`` was last refused as typed when it began
        #: (:data:`PP_GUARD_SECONDS`): the next ``pp`` in it is taken.
        self._pp_refused = -1
        #: The prompt id of the decision last drawn (None: none), and the last decisions
        #: drawn by prompt id (what a line typed for one of them answered).
        self._drawn: int | None = None
        self._seen: dict[int, pb.Decision] = {}
        #: Tapping sources for mana while paying a cost (601.2g): the mana that was in the
        #: pool as the first of them was tapped (None: the last answer was no such tap).
        self._tapped_from: int | None = None
        #: The decision a notice of :data:`_PP_STOPPED_NOTICES` was said with.
        self._stopped_at: int | None = None
        #: The seconds to wait before passing by itself a priority at a stop with nothing
        #: but passing to do (:data:`client_sdk.stops.HUMAN_PASS_SECONDS`, drawn afresh).
        self.pass_delay: Callable[[], float] = partial(
            random.SystemRandom().uniform, *HUMAN_PASS_SECONDS)
        #: The decision being passed after that wait (its prompt id) and the wait's scope.
        self._pass_wait: tuple[int, trio.CancelScope] | None = None
        #: Where the receiving task starts that wait.
        self._waits: trio.Nursery | None = None
        #: At the game's (a match's: the match's) end, stay for a rematch (``r``) instead
        #: of ending there: ``play`` against people sets it; with bots, or watching, the
        #: session ends with the game (protocol/README.md, "Rematch").
        self.rematch = False
        #: The game's end was said (the rematch offered on the screen), and the request id
        #: of this player's last rematch offer (its refusal is said).
        self._end_said = False
        self._rematch_rid = 0
        #: Who offered a rematch as last told (a new offer is logged once).
        self._offered: list[bool] = []
        #: The last RematchOffers said to this board's room (the client keeps only its own
        #: room's), and the client's resumes as it came (an offer gone across a resume was
        #: forgotten by a restart, not withdrawn).
        self._last_offers: mpb.RematchOffers | None = None
        self._offers_resumes = client.resumes
        #: This player's last ``r`` offered a rematch (not took it back): its offer stands
        #: even if the server's answer was lost with the connection.
        self._offer_sent = False
        #: The wait for the rematch's seat of a player resumed outside any room ran out.
        self._seat_waited = False
        #: Watching: at the game's (a match's: the match's) end, stay for the players'
        #: rematch, which ``w`` then watches (``watch`` sets it; protocol/README.md,
        #: "Rematch": RematchStarted tells the spectators where it is).
        self.follows = False
        #: The input ended (nobody can type ``w``), and the request id of the rematch's
        #: JoinRoom sent by ``w`` (0: none pending).
        self._keys_gone = False
        self._follow_rid = 0
        keyboard.marker = self._marked

    def _marked(self) -> Mark:
        """What the screen shows now: the decision last drawn (the client may hold a newer
        one, not drawn yet: the player typed for the one they saw)."""
        return (self._drawn, trio.current_time())

    def changed(self) -> None:
        """Redraw soon."""
        self._dirty.set()

    def _end(self, outcome: Outcome, scope: trio.CancelScope) -> None:
        if self._outcome is None:
            self._outcome = outcome
        scope.cancel()

    def _stack(self) -> frozenset[str]:
        return frozenset(self.board.mirror.zones.get((pb.ZONE_KIND_STACK, -1), ()))
