"""A terminal session at the end of a game (a match): the players' rematch
(protocol/README.md, "Rematch") -- a player offers one (``r``), is told who else does and is
placed in its room; a spectator is told the players started one and follows it there (``w``)
-- and the last line said when the session ends with the game."""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import suppress

from client_sdk import saved as saved_accounts
from client_sdk.board import Board
from client_sdk.client import ConnectionLostError, no_rematch
from client_sdk.terminal_state import SessionState
from protocol.v1 import messages_pb2 as mpb


class RematchFlow(SessionState):
    """The rematch part of a session (:class:`client_sdk.terminal.Session`)."""

    # ---- the rematch (protocol/README.md, "Rematch")
    def _at_end(self) -> bool:
        """Whether the game (match) is over and this player stays for a rematch: one can
        still be had (nobody left, the room is open)."""
        client = self.client
        if not (self.rematch and self.player and client.finished):
            return False
        offers = self._offers()
        if offers is not None and offers.cancelled:
            return False
        if client.room_id is None:
            # In no room: the room closed, or this player's connection closed as the last
            # offer came and it resumed outside the old room -- the server then seats it
            # in the rematch's room (its own offer stands), waited for a while.
            seat = self.board.seat
            mine = self._offer_sent or (offers is not None and 0 <= seat < len(
                offers.offered) and offers.offered[seat])
            return mine and not self._seat_waited and getattr(client, "closed", None) is None
        return True

    def _end_line(self) -> str:
        """The last line once the session ends with the game: how it ended, and why no
        rematch if one was waited for."""
        line = self.board.result_line()
        offers = self._offers() if self.rematch and self.player else None
        if offers is not None and offers.cancelled:
            line += f" No rematch: {offers.cancelled}."
        elif self._seat_waited:
            line += " No rematch: the server seated you in no new game."
        offers = self.client.rematch if not self.player else None
        started = self._started_here() if not self.player else None
        if offers is not None and offers.cancelled and offers.room_id in (
                "", self.board.room.room_id):
            line += f" No rematch: {offers.cancelled}."
        elif started is not None and not started.new_room_id:
            line += " The players started a rematch, in a private room."
        return line.strip()

    def _names(self, seats: Iterable[int]) -> str:
        """The players of these seats, named (``Bob``, ``Bob and Cy``)."""
        board = self.board
        names = [board.player(s) if s in board.mirror.players else
                 (board.room.players[s] if s < len(board.room.players) else f"seat {s + 1}")
                 for s in seats]
        return " and ".join(names) if len(names) < 3 else \
            ", ".join(names[:-1]) + " and " + names[-1]

    def _offers(self) -> mpb.RematchOffers | None:
        """Who offers a rematch now: the client's, else the last one said to this board's
        room (:meth:`_rematch_news`)."""
        offers = self.client.rematch
        return offers if offers is not None else self._last_offers

    def _rematch_words(self) -> str:
        """What the screen says at the game's end about the rematch, from who offers."""
        offers = self._offers()
        seat = self.board.seat
        offered = list(offers.offered) if offers is not None else []
        others = [s for s in range(len(offered)) if s != seat]
        asking = [s for s in others if s < len(offered) and offered[s]]
        waiting = [s for s in others if not (s < len(offered) and offered[s])]
        mine = seat is not None and 0 <= seat < len(offered) and offered[seat]
        if mine:
            return (f"You offered a rematch: waiting for {self._names(waiting)} "
                    f"(r takes it back, q leaves).")
        if asking:
            return (f"{self._names(asking)} {'wants' if len(asking) == 1 else 'want'} a "
                    f"rematch: r accepts, q leaves.")
        what = "match" if getattr(self.client, "best_of", 1) > 1 else "game"
        return f"The {what} is over: r offers a rematch, q leaves."

    async def _offer_rematch(self) -> None:
        """``r`` at the game's end: offer a rematch, or take the offer back."""
        offers = self._offers()
        seat = self.board.seat
        mine = offers is not None and seat is not None and \
            0 <= seat < len(offers.offered) and offers.offered[seat]
        try:
            self._rematch_rid = await self.client.send_rematch(not mine)
        except ConnectionLostError:
            self.board.notice = "Not connected: try again once the connection is back."
            return
        self._offer_sent = not mine
        self.board.notice = "Taking the rematch offer back..." if mine else \
            "Offering a rematch..."

    def _rematch_news(self, msg: mpb.ServerMessage) -> None:
        """Who offers a rematch changed, the rematch started, or the offer was refused."""
        board = self.board
        body = msg.WhichOneof("body")
        why = no_rematch(msg)
        if why is not None:  # every player offered, but the server couldn't make it
            board.notice = f"No rematch: {why}."
            board.add_event(f"No rematch: {why}.")
            self._last_offers = mpb.RematchOffers(room_id=board.room.room_id,
                                                  offered=self._offered, cancelled=why)
        elif body == "error":
            board.notice = \
                f"No rematch: {msg.error.message.removeprefix('no rematch: ')}"
        elif body == "rematch_started":
            board.notice = "Rematch! The new game starts..."
            board.add_event("-- Rematch: every player offered; a new game starts --")
        else:
            offers = msg.rematch_offers
            if offers.room_id not in ("", board.room.room_id):
                return  # (an old room's, after this player moved on)
            self._last_offers = offers
            if offers.cancelled:
                board.notice = f"No rematch: {offers.cancelled}."
                board.add_event(f"No rematch: {offers.cancelled}.")
                return
            before = self._offered
            self._offered = list(offers.offered)
            # A resume between (a restart forgets every offer) is no one's withdrawal.
            resumed = self.client.resumes != self._offers_resumes
            self._offers_resumes = self.client.resumes
            gone: list[int] = []
            for s, offered in enumerate(offers.offered):  # (each change once in the log)
                was = s < len(before) and before[s]
                if s == board.seat or offered == was:
                    continue
                if offered:
                    board.add_event(f"{self._names([s])} wants a rematch.")
                else:
                    gone.append(s)
            words = self._rematch_words()
            if gone:
                who = self._names(gone)
                said = (f"{who}'s rematch offer no longer stands (the connection was resumed)"
                        if resumed else f"{who} withdrew the rematch offer")
                if len(gone) > 1:
                    said = (f"The rematch offers of {who} no longer stand (the connection was "
                            f"resumed)" if resumed else f"{who} withdrew their rematch offers")
                board.add_event(f"{said}.")
                words = f"{said}. {words}"
            board.notice = words

    def _rematch_board(self, joined: mpb.Joined, *, back: bool = False) -> Board:
        """A new board for the rematch's room this player was just placed in (its invite
        code, if the rematch said it, kept as ``play`` keeps a created room's)."""
        old = self.board
        board = Board(self.client.mirror, url=old.url, account=old.account)
        board.stops = old.stops
        board.joined(joined)
        started = getattr(self.client, "rematch_started", None)
        room_id = joined.room.room_id
        if started is not None and started.new_room_id == room_id and started.invite_code:
            board.invite_code = started.invite_code
            board.audience_code = started.audience_code  # (the audience's watch links)
            if joined.room.private:
                with suppress(OSError, ValueError, TypeError):
                    saved_accounts.save_invite(old.url, room_id, started.invite_code,
                                               started.audience_code)
        board.add_event(f"-- Back in room {room_id} --" if back
                        else f"-- Rematch in room {room_id} --")
        self.board = board
        self._end_said, self._offered, self._last_offers = False, [], None
        self._offer_sent = False
        self._passing, self._any_order = None, False
        self._turn = (-1, 0.0)
        return board

    # ---- a spectator and the players' rematch (protocol/README.md, "Rematch")
    def _started_here(self) -> mpb.RematchStarted | None:
        """The rematch the players of the watched room started, as the server told this
        spectator (None: none yet)."""
        started: mpb.RematchStarted | None = getattr(self.client, "rematch_started", None)
        if started is None or started.old_room_id != self.board.room.room_id:
            return None
        return started

    def _watching_on(self) -> bool:
        """Whether a spectator whose game (match) is over stays: the players may still
        start a rematch, or have started one it may watch (``w``), or ``w`` was typed and
        the rematch's room is being joined. Not when the input ended (nobody can type
        ``w``), the rematch was cancelled, the room closed, or the rematch is in a private
        room (no room id is told)."""
        client = self.client
        if self.player or not self.follows:
            return False
        if self._follow_rid:
            return True
        if not client.finished or self._keys_gone or client.room_id is None:
            return False
        offers = client.rematch
        if offers is not None and offers.cancelled:
            return False
        started = self._started_here()
        return started is None or bool(started.new_room_id)

    def _watch_words(self) -> str:
        """What a spectator's screen says at the end about the players' rematch."""
        if self._started_here() is not None:
            return "The players started a rematch: w watches it, q stops watching."
        offers = self.client.rematch
        asking = [s for s, offered in enumerate(offers.offered) if offered] \
            if offers is not None else []
        what = "match" if getattr(self.client, "best_of", 1) > 1 else "game"
        if self.board.room.private:
            # A private room's spectators learn only that a rematch started, never where:
            # nothing to promise (it said "w watches it", then couldn't).
            wants = f"{self._names(asking)} {'wants' if len(asking) == 1 else 'want'} a " \
                f"rematch (in a private room, which can't be watched from here)" if asking \
                else f"The {what} is over"
            return f"{wants}; q stops watching."
        if asking:
            return (f"{self._names(asking)} {'wants' if len(asking) == 1 else 'want'} a "
                    f"rematch: once every player offers, w watches it; q stops watching.")
        return (f"The {what} is over: if the players start a rematch, w watches it; q "
                f"stops watching.")

    def _watch_news(self, msg: mpb.ServerMessage) -> None:
        """A spectator is told who offers a rematch, or that the players started one."""
        board = self.board
        if msg.WhichOneof("body") == "rematch_started":
            started = msg.rematch_started
            if started.old_room_id != board.room.room_id:
                return
            board.add_event("The players started a rematch: w watches it."
                            if started.new_room_id else
                            "The players started a rematch, in a private room.")
            board.notice = self._watch_words() if started.new_room_id else ""
            return
        offers = msg.rematch_offers
        if msg.WhichOneof("body") != "rematch_offers" or \
                offers.room_id not in ("", board.room.room_id):
            return
        if offers.cancelled:
            board.add_event(f"No rematch: {offers.cancelled}.")
            board.notice = f"No rematch: {offers.cancelled}."
            return
        before, self._offered = self._offered, list(offers.offered)
        for s, offered in enumerate(offers.offered):  # (each change once in the log)
            was = s < len(before) and before[s]
            if offered != was:
                board.add_event(f"{self._names([s])} wants a rematch." if offered else
                                f"{self._names([s])} withdrew the rematch offer.")
        board.notice = self._watch_words()

    async def _watch_rematch(self) -> None:
        """``w``, watching: leave the finished room for the rematch the players started,
        as a spectator of the same tier (the Joined, or the refusal, comes to the receiving
        task)."""
        board, client = self.board, self.client
        started = self._started_here()
        if self._follow_rid:
            board.notice = "Joining the rematch's room..."
            return
        if started is None or not started.new_room_id or not self._watching_on():
            board.notice = ("The players started their rematch in a private room: it can't "
                            "be watched from here." if started is not None else
                            "No rematch to watch: w watches the players' rematch once they "
                            "start one; q stops watching.")
            return
        try:
            await client.leave_room()
            self._follow_rid = await client.send_join(
                started.new_room_id, spectator=True,
                invite_code=started.audience_code or started.invite_code, tier=board.tier)
        except ConnectionLostError:
            board.notice = "Not connected: try again once the connection is back."
            return
        board.notice = f"Joining the rematch in room {started.new_room_id}..."

    def _watch_board(self, joined: mpb.Joined) -> Board:
        """A new board for the rematch's room this spectator joined (``w``)."""
        old = self.board
        board = Board(self.client.mirror, seat=-1, watching=True, room=joined.room,
                      url=old.url, account=old.account, tier=joined.tier)
        board.joined(joined)
        board.add_event(f"-- Watching the rematch in room {joined.room.room_id} --")
        self.board = board
        self._end_said, self._offered, self._follow_rid = False, [], 0
        self._turn = (-1, 0.0)
        return board
