"""What the user of a terminal session types: a line read (:meth:`Commands._input`) and done
(:meth:`Commands._command`) -- an option's number, ``p``/``pp`` to pass, the help, the stops,
``?`` and ``why`` about cards, ``invite``, between a match's games keeping or pasting a deck
(sideboarding), ``r``/``w`` at the end, ``concede`` and ``q``."""

from __future__ import annotations

from contextlib import suppress

import trio

from client_sdk.board import NAMES_LISTED, WHY_NOTICE, Board, name_problem
from client_sdk.client import ConnectionLostError
from client_sdk.describe import card_words, named_option, option_object_id
from client_sdk.invites import invite_text, invite_words
from client_sdk.stops import AUTO, FULL, mode_words
from client_sdk.terminal_receive import FRAME_SECONDS, PP_NOTICE, Receiving
from client_sdk.terminal_state import Outcome
from protocol.v1 import game_pb2 as pb
from protocol.v1 import messages_pb2 as mpb

#: Seconds a line typed for a decision gone as Enter came waits for a decision to answer.
REASK_SECONDS = 1.0
#: ``pp`` begun less than this long after a new turn began is not taken: the player
#: can't have seen that turn (the client passes a whole opponent's turn by itself in a
#: blink, when they have nothing to answer: ``pp`` typed a second after playing a land
#: passed the player's next turn, never seen).
PP_GUARD_SECONDS = 1.5


def _question(decision: pb.Decision) -> bytes:
    """What a decision asks, without its number and state: equal for the same question."""
    asked = pb.Decision()
    asked.CopyFrom(decision)
    asked.ClearField("prompt_id")
    asked.ClearField("state_id")
    return asked.SerializeToString(deterministic=True)



def joined_invite_words(board: Board) -> str:
    """What ``invite`` says to a player who joined a private room with its invite code
    (:attr:`Board.joined_code`): that code, and how another player joins with it -- not a
    watch line: the code also takes a seat, so an audience needs the room's watch code,
    which only its creator was told."""
    room, code = board.room, board.joined_code
    seats_open = not room.started and not board.mirror.ready and \
        len(room.players) < room.seats
    text = invite_text(board.url, room.room_id, code, False, seats_open=True)
    joins = [line for line in text.splitlines()[1:3] if "--room" in line or "join=" in line]
    return "\n".join([
        f"Room {room.room_id} is private: you joined it with invite code {code}, which "
        f"takes a seat: give it only to players.",
        *(joins if seats_open else []),
        "  An audience watches with the room's watch code (it never takes a seat): ask the "
        "room's creator for it."])


class Commands(Receiving):
    """The typing part of a session (:class:`client_sdk.terminal.Session`)."""

    async def _input(self, scope: trio.CancelScope) -> None:
        while True:
            line = await self.keyboard.read_line(self.changed)
            if line is None:  # the input ended: nobody can answer any more
                if not self.player:
                    # A spectator goes on watching, to the game's end (nobody can type w).
                    self._keys_gone = True
                    if self.client.finished and not self._watching_on():
                        self._end(Outcome(self._end_line(), 0), scope)
                    return
                if self._seated_in_play():
                    # A closed terminal window, a dropped ssh session: nobody chose to quit,
                    # so nothing is conceded -- the seat is kept while the player's clock
                    # runs, and the same command takes it back (it conceded the game).
                    self._end(Outcome(self.stopped("Your input ended"), 0), scope)
                    return
                line = "q"
                self._confirm_quit = True
            outcome = await self._command(line)
            self.changed()
            if outcome is not None:
                self._end(outcome, scope)
                return

    async def _command(self, text: str) -> Outcome | None:
        """Do what the user typed (a line as typed: a pasted deck list keeps its case);
        an outcome if the session is over."""
        board = self.board
        self._sync()
        if board.pasting is not None:  # a deck list is being pasted: every line is its
            return await self._paste(text)
        board.notice = ""
        if text.strip().lower() in ("q", "quit", "exit"):
            return await self._quit()
        self._confirm_quit = False
        text = text.strip().lower()
        if text != "concede":
            self._confirm_concede = False
        if text == "":
            return None
        if not self.player:
            if text in ("w", "watch"):
                await self._watch_rematch()
            else:
                board.notice = ("You are watching: w watches the players' rematch once they "
                                "start one, q stops watching." if self.follows else
                                "You are watching: q stops watching.")
            return None
        if text == "concede":
            await self._concede()
            return None
        if text in ("h", "?", "help"):
            board.notice = ("Type the number of an option and Enter; p passes priority, pp "
                            "until the turn ends or something new is on the stack; stops "
                            "says where the client passes priority for you, full turns full "
                            "control (stop at every step) on or off; ?N reads the card option "
                            "N names, ?NAME a card you can see (?shock); why says why the "
                            "cards in your hand can't be cast now (why NAME: that one); "
                            "invite shows the "
                            "room's invite code and how others join (its seat link) or watch "
                            "(its watch link); c takes back a "
                            "spell being cast (cancel); q quits"
                            + ("; once the game is over, r offers a rematch." if self.rematch
                               else "."))
            return None
        if text in ("stops", "stop"):
            board.notice = mode_words(self.stops)
            return None
        if text in ("full", "full control"):
            self._set_stops(AUTO if self.stops == FULL else FULL)
            return None
        if text == "invite":
            board.notice = invite_words(board)
            if board.joined_code and not board.invite_code and board.room.private:
                board.notice = joined_invite_words(board)  # (not "ask its creator")
            return None
        if text.startswith("?"):
            board.notice = self._card_text(text[1:].strip())
            return None
        if text == "why" or text.startswith("why "):
            await self._why(text[3:].strip())
            return None
        if self._at_end():
            if text in ("r", "rematch"):
                await self._offer_rematch()
            else:
                board.notice = self._rematch_words()
            return None
        if board.sideboard_needed:
            if text in ("k", "keep"):
                await self._send_deck(keep=True)
            elif text in ("d", "deck", "paste"):
                board.pasting = []
            else:
                board.notice = ("Between games: k keeps your deck, d pastes a deck list, q "
                                "quits (and concedes the match).")
            return None
        decision = board.decision
        mark = self.keyboard.line_mark
        if decision is None and mark is not None and mark[0] is not None:
            # Typed for a decision on the screen, gone as Enter came: most often it comes
            # again at once (the opponent kept, the connection was resumed). Said "Nothing
            # to answer now.", the line was dropped with no word left: that notice went
            # as the decision came back (a new player's review).
            decision = await self._decision_soon()
            board = self.board
        if decision is None:
            board.notice = "Nothing to answer now."
            return None
        if mark is not None and mark[0] != decision.prompt_id and \
                not self._same_question(mark[0], decision):
            # Typed for another decision (options are numbered anew for each one).
            board.notice = "The decision changed as you typed: nothing was sent. Answer this one."
            return None
        turn = board.mirror.header.turn
        if mark is not None and text in ("pp", "pass turn") and \
                mark[1] - self._turn[1] < PP_GUARD_SECONDS and self._pp_refused != turn:
            # (Once: the notice names the turn, so a pp typed after it is meant for it --
            # "type pp again" was refused again within the turn's first 1.5 s.)
            self._pp_refused = turn
            board.notice = (f"Turn {turn} ({board.possessive(board.mirror.header.active_seat)}"
                            f" turn) began as you typed pp: nothing was passed. Type pp again "
                            f"to pass turn {turn}.")
            return None
        if text in ("pp", "pass turn"):
            index = board.option_index("pass_priority")
            if index is None:
                board.notice = "Passing priority is not an option now: choose a number."
                return None
            self._passing = (board.mirror.header.turn, self._stack())
            board.notice = PP_NOTICE
        elif text in ("p", "pass"):
            index = board.option_index("pass_priority")
            if index is None:
                board.notice = "Passing priority is not an option now: choose a number."
                return None
        elif text in ("a", "any", "any order") and \
                decision.kind == pb.DECISION_KIND_ORDER_GRAVEYARD:
            index = 0  # (404.3: the order as listed, this card and the ones after it)
            self._any_order = True
        elif text in ("c", "cancel") and (found := board.option_index("cancel_cast")) is not None:
            index = found  # (733.1: on a letter, never a number a land had a moment ago)
        elif decision.kind == pb.DECISION_KIND_CHOOSE_NAME and (
                not text.isdigit() or len(decision.options) > NAMES_LISTED):
            # A name is typed (rule 201.3: Necromentia's card name, one of hundreds): the
            # name in any case, or its first letters (of one name only).
            found, _fits = named_option(decision, text)
            if found is None:
                board.notice = name_problem(decision, text)
                return None
            index = found
        elif text.isdigit() and (found := board.answering(int(text))) is not None:
            index = found
        else:
            passing = ", p to pass priority" if board.option_index("pass_priority") is not None \
                else ""
            cancel = ", c to cancel" if board.option_index("cancel_cast") is not None else ""
            numbers = [n for n, _i, _label in board.numbered_options]
            choose = f"a number from {min(numbers)} to {max(numbers)}" if numbers else \
                "an answer"
            board.notice = f"Type {choose}{passing}{cancel} or q to quit (not {text!r})."
            return None
        await self._answer(index)
        return None

    async def _decision_soon(self) -> pb.Decision | None:
        """The decision pending within :data:`REASK_SECONDS` (None: none came)."""
        with trio.move_on_after(REASK_SECONDS):
            while True:
                self._sync()
                if self.board.decision is not None:
                    return self.board.decision
                await trio.sleep(FRAME_SECONDS)
        return None

    def _same_question(self, prompt_id: int | None, decision: pb.Decision) -> bool:
        """Whether the decision drawn under ``prompt_id`` asked what ``decision`` asks:
        the same kind, words and options (numbered alike) under a new number -- asked
        again after a resume, or after another player's answer changed nothing of it."""
        drawn = self._seen.get(prompt_id) if prompt_id is not None else None
        return drawn is not None and _question(drawn) == _question(decision)

    def _set_stops(self, mode: str) -> None:
        """Change where the client stops for priority, for this game and the next ones
        (saved for the next runs when it can be)."""
        self.stops = mode
        self.board.stops = mode
        said = mode_words(mode)
        if self.save_stops is not None:
            try:
                self.save_stops(mode)
            except (OSError, ValueError, TypeError) as exc:
                said += f" (Kept for this run only: it could not be saved: {exc}.)"
        self.board.notice = said

    async def _why(self, query: str) -> None:
        """``why``: ask the server why each card in your hand you can't cast now can't be
        (``why NAME``: the card whose name starts so) -- the answers come as lines under
        the decision (ExplainCard, the board's ``why_requests``)."""
        board, seat = self.board, self.client.seat
        hand = board.mirror.zone(pb.ZONE_KIND_HAND, seat) if seat is not None else []
        offered = {option_object_id(o) for o in board.decision.options} \
            if board.decision is not None else set()
        if query:
            cards = [o for o in hand if o.name.lower().startswith(query)][:1]
            if not cards:
                board.notice = f"No card in your hand is named {query!r}."
                return
        else:
            # Each name once (copies of a card are alike, 400.7), lands left out (played).
            cards = list({o.name: o for o in reversed(hand) if o.id not in offered
                          and "Land" not in o.card_types}.values())[::-1]
            if not cards:
                board.notice = ("Every spell in your hand can be cast now." if hand else
                                "Your hand is empty.")
                return
        board.notice = WHY_NOTICE
        for obj in cards:
            rid = await self.client.send_explain_card(obj.id)
            board.why_requests[rid] = obj.name

    def _card_text(self, query: str) -> str:
        """The card a ``?`` line asks about: option N's (``?3``), or the first card in view
        whose name starts with the words typed (``?burl``), in words."""
        board = self.board
        obj: pb.GameObject | None = None
        if query.isdigit():
            decision = board.decision
            index = board.answering(int(query))
            if decision is None or index is None:
                return f"No option {query} to read."
            object_id = option_object_id(decision.options[index])
            obj = board.object(object_id) if object_id else None
            if obj is None:
                return f"Option {query} names no card."
        else:
            obj = next((o for o in board.mirror.objects.values()
                        if o.name.lower().startswith(query)), None)
            if obj is None:
                return f"No card you can see is named {query!r}."
        return card_words(obj)

    async def _paste(self, line: str) -> Outcome | None:
        """A line of the deck list being pasted: ``.`` sends it, ``cancel`` stops."""
        board = self.board
        assert board.pasting is not None
        if line.strip().lower() == "cancel":
            board.pasting = None
            board.notice = "Not pasting any more: k keeps your deck, d pastes a list."
        elif line.strip() == ".":
            text = "\n".join(board.pasting)
            board.pasting = None
            if not text.strip():
                board.notice = "That list was empty: k keeps your deck, d pastes a list."
            else:
                await self._send_deck(deck=text + "\n")
        else:
            board.pasting.append(line)
        return None

    async def _send_deck(self, *, keep: bool = False, deck: str = "") -> None:
        board, client = self.board, self.client
        try:
            board.deck_request = await client.send_deck(keep=keep, deck=deck)
        except ConnectionLostError:
            board.notice = "Not connected: answer again once the connection is back."
            return
        board.notice = "Sent: waiting for the server's answer..."

    def _seated_in_play(self) -> bool:
        """Whether this player holds a seat in a game (or match) still being played:
        quitting concedes it."""
        match = self.client.match
        in_match = match is not None and match.phase != mpb.MATCH_PHASE_OVER
        return self.player and (self.board.game_running or in_match) and not self._seat_lost()

    async def _quit(self) -> Outcome | None:
        board, client = self.board, self.client
        if self._at_end():  # the game (match) is over: leaving offers no rematch any more
            with suppress(ConnectionLostError):
                await client.leave_room()
            return Outcome(board.result_line() or "You left.", 0)
        match = client.match
        in_match = self.player and match is not None and \
            match.phase != mpb.MATCH_PHASE_OVER
        seated = self._seated_in_play()
        if seated and not self._confirm_quit:
            self._confirm_quit = True
            board.notice = ("Quitting now concedes the " + ("game and the match" if in_match
                                                            else "game")
                            + ": q and Enter again to quit, anything else to stay.")
            return None
        score = self._final_score() if seated and in_match else ""
        if client.room_id is not None:
            with suppress(ConnectionLostError):
                await client.leave_room()
        if seated and in_match:
            return Outcome(f"You left the match: you conceded it. {score}".rstrip(), 0)
        if seated:
            return Outcome("You left the game: you conceded.", 0)
        if not self.player and self.client.finished and board.result_line():
            return Outcome(f"{self._end_line()} Stopped watching.", 0)
        return Outcome("You left." if self.player else "Stopped watching.", 0)

    async def _concede(self) -> None:
        """``concede``: this game only (rule 104.3a) -- in a match, the next game follows (``q``
        leaves the match, conceding it). Asked twice, like ``q``."""
        board = self.board
        if not board.game_running or self._seat_lost():
            board.notice = "No game of yours is being played: nothing to concede."
            return
        if not self._confirm_concede:
            self._confirm_concede = True
            board.notice = ("Concede this game" + (" (the match goes on)" if self.client.match
                                                   is not None else "")
                            + "? concede and Enter again to concede, anything else to play on.")
            return
        self._confirm_concede = False
        try:
            await self.client.concede()
        except ConnectionLostError:
            board.notice = "Not connected: concede again once the connection is back."
            return
        board.notice = "You conceded this game."

    def _final_score(self) -> str:
        """The match's score once this player has left it (conceding it): a game of two
        players being played is the opponent's (104.3a) -- the server scores it so, and
        tells nobody gone."""
        board, match = self.board, self.client.match
        if match is None:
            return ""
        final = mpb.MatchState()
        final.CopyFrom(match)
        seats = [s for s in board.mirror.players if s != board.seat]
        if board.game_running and len(seats) == 1 and 0 <= seats[0] < len(final.wins):
            final.wins[seats[0]] += 1
        kept, board.match = board.match, final
        try:
            return f"Final score: {board.score_text()}."
        finally:
            board.match = kept

    def _seat_lost(self) -> bool:
        me = self.board.mirror.players.get(self.board.seat)
        return me is not None and me.has_lost
