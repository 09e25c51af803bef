"""A terminal session's receiving and drawing: what the server sends kept on the board
(placed in a rematch's room on the way), the board drawn as it changes, and the decisions the
client answers by itself -- no blocker to declare (509.1a), a cost the tapped mana pays
exactly (601.2h), a priority the stops or ``pp`` pass (117.3) -- and how it answers one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio

from client_sdk.board import WHY_NOTICE, WHY_STALE, Board
from client_sdk.client import (
    CLOSE_REPLACED,
    ConnectionEndedError,
    ConnectionLostError,
    _lone,
    no_rematch,
)
from client_sdk.describe import (
    NO_BLOCKERS_TEXT,
    alike_order,
    nothing_can_block,
    only_pass,
    pool_pays_exactly,
)
from client_sdk.stops import AUTO, auto_passes, pass_option, pool_empty
from client_sdk.terminal_rematch import RematchFlow
from client_sdk.terminal_state import Outcome
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb

#: Seconds between two frames at most (a burst of deltas is drawn once).
FRAME_SECONDS = 0.03
#: Seconds between redraws when nothing happens (the running clock ticks).
TICK_SECONDS = 1.0
#: Decisions drawn kept by prompt id (what a line typed as they showed answered).
SEEN_KEPT = 8
#: Notices about there being no decision, stale once a decision is shown.
_NO_DECISION_NOTICES = ("Nothing to answer now.",)
#: The notice of ``pp`` taken: stale once the passing is over (the turn, the game ended).
PP_NOTICE = ("You pass priority until the turn ends or something new is on the stack "
             "(decisions other than priority still ask).")
#: Why ``pp`` stopped passing: said with the decision it stopped at, stale at the next one.
_PP_STOPPED_NOTICES = (
    "The turn is over: pp no longer passes for you.",
    "Something new is on the stack: you stopped passing. Your decision.")

#: How long a player resumed outside any room, its rematch offer standing (its connection
#: closed as the last offer came), waits for the server to seat it in the rematch's room
#: (protocol/README.md, "Rematch": RematchStarted, then Joined) before the session ends.
REMATCH_SEAT_SECONDS = 30.0


def closed_text(exc: ConnectionEndedError) -> str:
    """Why the server closed a connection the client doesn't resume, in words."""
    code, reason = exc.code, exc.reason
    if code == CLOSE_REPLACED:
        return ("This session was taken over by a newer connection of this account (another "
                "`play --token`, a browser tab, or `manawire account`): this terminal stops.")
    if code is None:
        return "The connection dropped (reconnecting is off)."
    return f"The server closed the connection ({code}{': ' + reason if reason else ''})."


def _pool_total(board: Board) -> int:
    """How much mana is in the viewer's pool."""
    me = board.mirror.players.get(board.seat)
    if me is None:
        return 0
    p = me.mana_pool
    return p.white + p.blue + p.black + p.red + p.green + p.colorless



class Receiving(RematchFlow):
    """The receiving and drawing part of a session (:class:`client_sdk.terminal.Session`)."""

    def _sync(self) -> None:
        client, board = self.client, self.board
        board.decision = client.my_decision if self.player else None
        board.sideboard_needed = self.player and client.must_sideboard
        if not board.sideboard_needed:
            board.pasting = None
        board.connected = client.connected
        board.resumes = client.resumes
        board.typed = self.keyboard.typed
        board.stops = self.stops
        board.rematch_offerable = self._at_end()  # ("r: rematch" among the keys)
        offers = self._offers() if board.rematch_offerable else None
        board.rematch_offered = offers is not None and \
            0 <= board.seat < len(offers.offered) and offers.offered[board.seat]
        board.rematch_watchable = self._started_here() is not None and self._watching_on()
        if board.why_state is not None and board.why_state != board.mirror.state_id:
            # The answers were given at a state the game has left (asked as the turn began,
            # they said "It isn't your main phase" under the main phase's decision).
            board.why_state = None
            if board.notice.startswith(WHY_NOTICE) and board.notice != WHY_STALE:
                board.notice = WHY_STALE
        if board.decision is not None and board.notice in _NO_DECISION_NOTICES:
            board.notice = ""  # (a new decision came: "Nothing to answer now." is stale)
        if not board.game_running:
            self._passing = None  # (the game is over: a pp of its last turn ends with it)
        passing = self._passing
        if board.notice == PP_NOTICE and (
                passing is None or passing[0] != board.mirror.header.turn):
            board.notice = ""  # (it passes no more: between games, a new turn)
        if board.notice in _PP_STOPPED_NOTICES and (
                not board.game_running or (board.decision is not None
                                           and board.decision.prompt_id != self._stopped_at)):
            board.notice = ""  # (said with the decision it stopped at: the next one is on)
        if self._end_said and not board.notice and self._at_end():
            # At the end the screen always says what r and q do: a line typed (Enter alone,
            # say) or a notice gone with the match's end took the words off, and only
            # "q: leave" was left (a new player's review).
            board.notice = self._rematch_words()
        if self._end_said and not board.notice and self._watching_on():
            board.notice = self._watch_words()

    async def _receive(self, setup: Callable[[], Awaitable[None]] | None,
                       scope: trio.CancelScope) -> None:
        """Process what the server sends until the session ends (``scope`` cancelled), and
        answer the decisions the client answers by itself."""
        try:
            async with trio.open_nursery() as waits:
                self._waits = waits
                try:
                    await self._receive_all(setup, scope)
                finally:
                    self._waits = None
                    waits.cancel_scope.cancel()
        except BaseExceptionGroup as group:  # (what the receiving raised, as it was raised)
            lone = _lone(group)
            if lone is None:
                raise
            raise lone from None

    async def _receive_all(self, setup: Callable[[], Awaitable[None]] | None,
                           scope: trio.CancelScope) -> None:
        client, board = self.client, self.board
        if setup is not None:
            await setup()
            self.changed()
        while True:
            if client.finished and not self._at_end() and not self._watching_on():
                # The game, or the match of several games, is over (and no rematch waited
                # for, or none can be had any more: an opponent left, the room closed).
                self._sync()
                line = self._end_line()
                if self.player and self.rematch and client.room_id is None and \
                        getattr(client, "closed", None) is not None and \
                        line == board.result_line():
                    # The room closed (it lingers a while after the end): the last board
                    # says how the game ended -- the line repeated it, with nothing of why
                    # the session ended -- and an offer's words on it ("r accepts") no
                    # longer hold.
                    line = "The room closed: a rematch can no longer be had."
                    board.notice = ""
                self._end(Outcome(line, 0), scope)
                return
            if client.room_id is None and not self._at_end() and not self._watching_on():
                why = board.notice or "The room closed before the game ended."
                self._end(Outcome(why, 1), scope)
                return
            if client.finished and not self._end_said:
                self._end_said = True
                board.notice = self._rematch_words() if self.player else self._watch_words()
            try:
                # Resumed outside any room with its rematch offer standing: the server seats
                # this player in the rematch's room (else says there is none) -- waited for.
                with trio.move_on_after(REMATCH_SEAT_SECONDS if client.room_id is None
                                        else float("inf")) as seat_wait:
                    msg = await client.next_message()
                if seat_wait.cancelled_caught:
                    self._seat_waited = True
                    board.notice = "No rematch: the server seated you in no new game."
                    board.add_event("No rematch: the server seated you in no new game.")
                    continue
            except ConnectionEndedError as exc:  # one the client may not resume
                self._end(Outcome(closed_text(exc), 1), scope)
                return
            except ConnectionLostError as exc:
                self._end(Outcome(f"The connection was lost and could not be resumed: {exc}",
                                  1), scope)
                return
            body = msg.WhichOneof("body")
            if body == "joined" and self.player and \
                    msg.joined.room.room_id != board.room.room_id:
                board = self._rematch_board(msg.joined)  # (placed in the rematch's room)
            elif body == "joined" and not self.player and self._follow_rid and \
                    msg.joined.room.room_id != board.room.room_id:
                board = self._watch_board(msg.joined)  # (``w``: watching the rematch)
            elif body == "error" and self._follow_rid and msg.request_id == self._follow_rid:
                # (It left the old room for this one: nothing more to watch.)
                self._end(Outcome(f"Could not watch the rematch: {msg.error.message}", 1),
                          scope)
                return
            elif self.rematch and self.player and client.room is not None and \
                    client.room_id not in (None, board.room.room_id):
                # Resumed into another room than the board's: back in the old room after a
                # restart lost a rematch that hadn't started (its game never stored).
                board = self._rematch_board(mpb.Joined(
                    room=client.room, role=mpb.ROLE_PLAYER, seat=client.seat or 0,
                    deck=client.deck_text), back=True)
            board.absorb(msg, trio.current_time())
            if body in ("rematch_offers", "rematch_started") or (
                    body == "error" and msg.request_id and
                    msg.request_id == self._rematch_rid) or (
                    self.rematch and self.player and no_rematch(msg) is not None):
                if self.player:
                    self._rematch_news(msg)
                else:
                    self._watch_news(msg)
            if board.mirror.header.turn != self._turn[0]:
                self._turn = (board.mirror.header.turn, trio.current_time())
            self._sync()
            decision = board.decision
            waiting = self._pass_wait
            if waiting is not None and (decision is None or decision.prompt_id != waiting[0]):
                waiting[1].cancel()  # (the decision changed: that pass is not to be made)
                self._pass_wait = None
            if decision is not None and nothing_can_block(decision):
                await self._answer(0, auto=True, logged=NO_BLOCKERS_TEXT)
            elif decision is not None and (index := self._pays_exactly(decision)) is not None:
                await self._answer(index, auto=True)  # (601.2h: one way to pay, all tapped)
            elif decision is not None and (index := self._passing_on()) is not None:
                # (where the stops pass -- what everyone sees says so -- or ``pp``: at once)
                await self._answer(index, auto=True)
            elif decision is not None and self._passes_later(decision):
                if self._pass_wait is None:
                    self._pass_after(decision.prompt_id, self.pass_delay())
            elif decision is not None and alike_order(board, decision,
                                                      board.mirror.objects.values()):
                await self._answer(0, auto=True)  # (the cards' moves say it)
            elif decision is not None and self._any_order and \
                    decision.kind == pb.DECISION_KIND_ORDER_GRAVEYARD:
                await self._answer(0, auto=True)  # (``a``: the rest of that order as listed)
            if decision is not None and decision.kind != pb.DECISION_KIND_ORDER_GRAVEYARD:
                self._any_order = False  # (that order is done: the next one asks again)
            self.changed()

    async def _render(self) -> None:
        while True:
            self._sync()
            self.screen.draw(self.board, trio.current_time())
            decision = self.board.decision
            self._drawn = decision.prompt_id if decision is not None else None
            if decision is not None and decision.prompt_id not in self._seen:
                self._seen[decision.prompt_id] = decision
                while len(self._seen) > SEEN_KEPT:
                    del self._seen[next(iter(self._seen))]
            await trio.sleep(FRAME_SECONDS)
            with trio.move_on_after(TICK_SECONDS):
                await self._dirty.wait()
            self._dirty = trio.Event()

    def _passing_on(self) -> int | None:
        """The pass option of a priority decision the client passes by itself (None: ask
        the player). While passing for the rest of the turn (``pp``): any priority of that
        turn whose stack has nothing new on it -- a new turn, or something new on the
        stack (an opponent's spell to answer, perhaps), ends the passing, and the player is
        told. Otherwise as the lasting setting :attr:`stops` says
        (:func:`client_sdk.stops.auto_passes`). Only a priority decision with
        ``PassPriority`` among its options is ever passed."""
        passing, board = self._passing, self.board
        decision = board.decision
        if decision is None:
            return None
        if passing is not None:
            turn, stack = passing
            if board.mirror.header.turn != turn:
                self._passing = None
                board.notice = _PP_STOPPED_NOTICES[0]
                self._stopped_at = decision.prompt_id
            elif self._stack() - stack:
                self._passing = None
                board.notice = _PP_STOPPED_NOTICES[1]
                self._stopped_at = decision.prompt_id
                return None
            else:
                # (blockers, a target...: the player's; passing goes on after)
                return pass_option(decision)
        me = board.mirror.players.get(board.seat)
        if auto_passes(self.stops, decision, board.mirror.header, board.seat,
                       stack=self._stack(), objects=board.mirror.objects.values(),
                       pool=None if me is None else me.mana_pool):
            return pass_option(decision)
        return None

    def _pays_exactly(self, decision: pb.Decision) -> int | None:
        """The option paying a cost by itself (None: ask the player): once sources tapped
        for this payment (601.2g) have put in the pool all it holds -- none of it was there
        before -- and the pool pays the cost exactly in one way only
        (:func:`client_sdk.describe.pool_pays_exactly`: never a cost the player may
        decline), for the view shown. Asked again "your mana pool covers it -- choose the
        mana to spend", its one way to pay "Pay {R}" (a new player's review); as the web
        client."""
        board = self.board
        if self._tapped_from != 0 or (decision.state_id and
                                      decision.state_id != board.mirror.state_id):
            return None
        me = board.mirror.players.get(board.seat)
        return pool_pays_exactly(decision, None if me is None else me.mana_pool)

    def _passes_later(self, decision: pb.Decision) -> bool:
        """Whether the client passes ``decision`` by itself after a human-like wait: a
        priority at a stop (:meth:`_passing_on` asks the player) with nothing to cast or
        activate (117.3), under the usual stops and with no mana in the player's pool.
        Passed at once, its timing told the opponents and spectators whether the hand
        held anything castable (the clocks show it to the millisecond); under full control
        the player is always asked."""
        board = self.board
        me = board.mirror.players.get(board.seat)
        return (self.stops == AUTO and only_pass(decision, board.mirror.objects)
                and pool_empty(None if me is None else me.mana_pool))

    def _pass_after(self, prompt_id: int, seconds: float) -> None:
        """Pass the decision ``prompt_id`` after ``seconds``, unless it has changed by then
        (answered by the player, say: the wait is cancelled)."""
        waits = self._waits
        if waits is None:
            return
        scope = trio.CancelScope()
        self._pass_wait = (prompt_id, scope)

        async def wait_and_pass() -> None:
            with scope:
                await trio.sleep(seconds)
                self._sync()
                decision = self.board.decision
                if decision is not None and decision.prompt_id == prompt_id and \
                        (index := pass_option(decision)) is not None:
                    await self._answer(index, auto=True)
                    self.changed()
            if self._pass_wait is not None and self._pass_wait[1] is scope:
                self._pass_wait = None

        waits.start_soon(wait_and_pass)

    async def _answer(self, index: int, *, auto: bool = False, logged: str = "") -> None:
        """Answer the pending decision with its option ``index`` (and log ``logged``).
        ``auto``: the answer is the client's own, to a decision with no choice in it (one
        not sent is sent again when the server repeats the decision after a resume)."""
        board = self.board
        decision = board.decision
        tapped = decision is not None and decision.kind == pb.DECISION_KIND_PAY_MANA and \
            0 <= index < len(decision.options) and \
            decision.options[index].WhichOneof("kind") == "activate_mana_ability"
        try:
            await self.client.act(index)
        except RuntimeError:  # no decision: a drop cleared it, or it was answered for you
            if not auto:
                board.notice = ("Nothing to answer now." if self.client.connected else
                                "Not connected: answer again once the connection is back.")
            return
        except ConnectionLostError:
            if not auto:
                board.notice = "Not connected: answer again once the connection is back."
            return
        if logged:
            board.add_event(logged)
        if not tapped:
            self._tapped_from = None
        elif self._tapped_from is None:  # (the first source tapped for this payment)
            self._tapped_from = _pool_total(board)
        self.answers += 1
        board.decision = None
