"""Bots that play through the protocol, and the ``manawire bots`` driver."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import trio
from websockets.exceptions import InvalidHandshake

from client_sdk.client import Client, ConnectionEndedError, ServerError, store_refused
from client_sdk.policy import Policy, pick
from protocol.v1 import messages_pb2 as mpb

#: Seconds the bots of ``manawire bots`` keep trying to resume after a drop: a server
#: restart reloads every game first (about 0.1 s each), which may take minutes.
BOT_RECONNECT_FOR = 600.0
#: Seconds before trying again a game that couldn't reach the server (or that it couldn't
#: save: a full disk), doubling up to the max.
UNREACHABLE_FIRST, UNREACHABLE_MAX = 0.25, 5.0
#: The close code of a Hello or Resume the server couldn't save (it says "try again later").
CLOSE_TRY_AGAIN = 1013

MAX_ACTIONS_PER_GAME = 100_000


class RoomClosedError(Exception):
    """The room closed (it failed, see the client's errors) before its game ended -- or,
    stopped by a server that couldn't save (``store``), it didn't come back in time."""

    def __init__(self, message: str, *, store: bool = False) -> None:
        super().__init__(message)
        #: The server closed it because it couldn't save (a full disk): a new game may
        #: work once it can.
        self.store = store


class RandomBot:
    """Picks among the legal options of each decision it is sent, at random: uniformly, or
    with :attr:`Policy.EAGER` playing lands, casting spells and attacking most of the time
    (:mod:`client_sdk.policy`), which ends a game in a few hundred actions."""

    def __init__(self, client: Client, rng: random.Random,
                 policy: Policy = Policy.UNIFORM, *, wait_back: float = BOT_RECONNECT_FOR
                 ) -> None:
        self.client = client
        self.rng = rng
        self.policy = policy
        self.actions = 0
        #: Seconds to wait for a room stopped by a server that couldn't save to come back.
        self.wait_back = wait_back
        #: Errors that answered this bot's actions sent as its room stopped ("the room
        #: closed", "join a room first"): nothing was lost, it decides again once it is back.
        self._stale: set[int] = set()

    def server_errors(self) -> list[str]:
        """The errors the server sent unasked that mean something went wrong -- not the
        word that it couldn't save for a while, nor the refusals of actions that reached
        the room as it stopped (it comes back by itself)."""
        return [e.message for e in self.client.errors
                if not store_refused(e) and id(e) not in self._stale]

    async def play(self) -> None:
        """Play until the game -- in a match of several games, the match -- is over
        (bounded by :data:`MAX_ACTIONS_PER_GAME`), keeping its deck between games; raise
        :class:`RoomClosedError` if the room closes first (it failed). A room the server
        stopped because it couldn't save (a full disk), which comes back by itself once it
        can, is waited for (up to :attr:`wait_back` seconds): the server seats the bot again
        and play goes on."""
        client = self.client
        while not client.finished:
            if client.room_id is None:
                closed = client.closed
                if client.comes_back:
                    seen = len(client.errors)
                    with trio.move_on_after(self.wait_back):
                        while client.room_id is None:
                            await client.next_message()
                    self._stale.update(id(e) for e in client.errors[seen:] if e.code in (
                        mpb.ERROR_CODE_ROOM_NOT_FOUND, mpb.ERROR_CODE_NOT_READY))
                    if client.room_id is not None:
                        continue
                reasons = [e.message for e in client.errors]
                raise RoomClosedError(
                    f"the room closed before the game ended: {reasons}",
                    store=closed is not None and
                    closed.reason.startswith("the server can't save"))
            if client.must_sideboard:
                try:
                    await client.keep_deck()
                except ServerError as exc:  # the next game started meanwhile (time ran out)
                    if exc.code != mpb.ERROR_CODE_NOT_READY:
                        raise
                continue
            decision = client.my_decision
            if decision is None:
                await client.next_message()
                continue
            if self.actions >= MAX_ACTIONS_PER_GAME:
                raise RuntimeError(f"game did not end within {MAX_ACTIONS_PER_GAME} actions")
            await client.act(pick(self.policy, self.rng, decision.options))
            self.actions += 1


@dataclass
class Summary:
    """What ``manawire bots`` reports."""

    games: int
    completed: int = 0
    errors: int = 0
    actions: int = 0
    seconds: float = 0.0

    def to_json(self) -> str:
        """One JSON line."""
        return json.dumps({"games": self.games, "completed": self.completed,
                           "errors": self.errors, "actions": self.actions,
                           "seconds": round(self.seconds, 3)})


async def play_bot_game(url: str, index: int, rng: random.Random, players: int = 2,
                        decks: Sequence[str] = (), *, quick_match: bool = False,
                        best_of: int = 1,
                        deck_format: mpb.DeckFormat = mpb.DECK_FORMAT_CONSTRUCTED,
                        policy: Policy = Policy.UNIFORM,
                        played: list[RandomBot] | None = None) -> int:
    """Create a room, seat ``players`` RandomBots picking options by ``policy`` (seat *i*
    with ``decks[i]`` if given, else the server's default) and play one full game -- or,
    ``best_of`` 3 or 5, a whole match, every bot keeping its deck between games; return its
    actions. With ``quick_match`` the bots queue for a game instead (they may meet other
    queued players). ``deck_format``: the room's (or queue's) deck rules -- limited for
    40-card sealed decks (100.2b). ``played``: the bots are added to it as they are
    seated (their actions count even if the game fails)."""
    def deck(seat: int) -> str:
        return decks[seat] if seat < len(decks) else ""

    bots: list[RandomBot] = [] if played is None else played
    if quick_match:
        return await _quick_match_game(url, index, rng, players, deck,
                                       deck_format=deck_format, policy=policy, bots=bots)
    async with Client.connect(url, f"bot-{index}-0", reconnect_for=BOT_RECONNECT_FOR) as host:
        room = await host.create_room(f"bots-{index}", seats=players, best_of=best_of,
                                      deck_format=deck_format)
        await host.join(room.room_id, deck=deck(0))
        first = len(bots)
        bots.append(RandomBot(host, random.Random(rng.getrandbits(64)), policy))
        async with trio.open_nursery() as nursery:
            for seat in range(1, players):
                joined = trio.Event()
                nursery.start_soon(partial(
                    _guest, url, f"bot-{index}-{seat}", room.room_id,
                    rng=random.Random(rng.getrandbits(64)), bots=bots, joined=joined,
                    deck=deck(seat), policy=policy))
                await joined.wait()
            await bots[first].play()
        if bots[first].server_errors():
            raise RuntimeError(f"server errors: {bots[first].server_errors()}")
        return sum(b.actions for b in bots[first:])


def _unreachable(exc: BaseException) -> bool:
    """Whether a game failed only because the server couldn't be reached (refused, or gone
    in the middle of a handshake) or couldn't save now (a full disk: it refuses a Hello, a
    Resume or a seat "try again later", closing with 1013; a room stopped before its game
    was saved is gone) -- the game is then tried again: every error of the bots playing at
    once is such."""
    if isinstance(exc, BaseExceptionGroup):
        return all(_unreachable(inner) for inner in exc.exceptions)
    if isinstance(exc, ServerError):
        return exc.try_again
    if isinstance(exc, ConnectionEndedError):
        return exc.code == CLOSE_TRY_AGAIN
    if isinstance(exc, RoomClosedError):
        return exc.store
    return isinstance(exc, (OSError, InvalidHandshake))


#: How the server says when to send a request refused for rate again ("... try again in 12
#: s": a room over its address's rate of rooms made; "send it again in 1.5 s": a deck list).
_AGAIN_IN = re.compile(r"again in (\d+(?:\.\d+)?) s\b")


def _rate_wait(exc: BaseException) -> float | None:
    """The seconds to wait before trying a game again that the server refused only for rate
    -- its room (or quick-match table) over the address's rate of rooms made, a deck list
    over its checking time -- as its answer says (the longest of the bots refused at once;
    None: refused for something else, or not saying when)."""
    if isinstance(exc, BaseExceptionGroup):
        waits = [_rate_wait(inner) for inner in exc.exceptions]
        known = [w for w in waits if w is not None]
        return max(known) if known and len(known) == len(waits) else None
    if not isinstance(exc, ServerError) or exc.code != mpb.ERROR_CODE_RATE_LIMITED:
        return None
    said = _AGAIN_IN.search(exc.message)
    return float(said.group(1)) if said is not None else None


def _why(exc: BaseException) -> str:
    """Why a game failed, in words: a refusal's message and problems; the errors of the
    bots playing at once (a nursery's group: each different one, once), not the group."""
    if isinstance(exc, BaseExceptionGroup):
        seen = dict.fromkeys(_why(inner) for inner in exc.exceptions)
        return "; ".join(seen)
    if isinstance(exc, ServerError):
        return exc.message + "".join(f"\n  {d}" for d in exc.details)
    return f"{type(exc).__name__}: {exc}"


async def _quick_match_game(url: str, index: int, rng: random.Random, players: int,
                            deck: Callable[[int], str], *, deck_format: mpb.DeckFormat,
                            policy: Policy, bots: list[RandomBot]) -> int:
    first = len(bots)

    async def one(seat: int, bot_rng: random.Random) -> None:
        async with Client.connect(url, f"bot-{index}-{seat}",
                                  reconnect_for=BOT_RECONNECT_FOR) as client:
            await client.quick_match(seats=players, deck=deck(seat), deck_format=deck_format)
            bot = RandomBot(client, bot_rng, policy)
            bots.append(bot)
            await bot.play()
            if bot.server_errors():
                raise RuntimeError(f"server errors: {bot.server_errors()}")

    async with trio.open_nursery() as nursery:
        for seat in range(players):
            nursery.start_soon(one, seat, random.Random(rng.getrandbits(64)))
    return sum(b.actions for b in bots[first:])


class SeatedElsewhereError(Exception):
    """The bot's account is seated in another game that isn't over."""


async def join_and_play(url: str, room_id: str, *, invite_code: str = "", deck: str = "",
                        token: str = "", seed: int | None = None,
                        game_seconds: float = 300.0, policy: Policy = Policy.UNIFORM) -> int:
    """One RandomBot, picking options by ``policy``, takes a seat in an existing room (with
    its invite code if private, as the account holding ``token`` or a new guest) and plays
    its game to the end; returns its actions. An account already seated in that room (a
    bot process started again) plays on from where it was; one whose session lingers in
    a finished game, or watches a room, leaves it first; one seated in another game in
    play is refused (:class:`SeatedElsewhereError`), and so is an account connected
    elsewhere (:class:`ServerError` ``ERROR_CODE_ACCOUNT_IN_USE``: that connection goes on
    undisturbed). It resumes after drops for up to
    :data:`BOT_RECONNECT_FOR` seconds (a restart with many games to reload takes a while)."""
    async with Client.connect(url, "bot", token=token, reconnect_for=BOT_RECONNECT_FOR,
                              take_over=False) as client:
        seated = client.seat is not None and client.seat >= 0
        if client.room_id is None:
            await client.join(room_id, deck=deck, invite_code=invite_code)
        elif not (seated and client.room_id == room_id):
            if seated and not (client.room is not None and client.room.finished):
                raise SeatedElsewhereError(
                    f"this account is playing in room {client.room_id}, whose game isn't "
                    f"over: finish it there (manawire bots --join {client.room_id} with "
                    f"this token plays it on), or use another account")
            await client.leave_room(wait=True)
            await client.join(room_id, deck=deck, invite_code=invite_code)
        bot = RandomBot(client, random.Random(seed), policy)
        with trio.fail_after(game_seconds):
            await bot.play()
        return bot.actions


async def _guest(url: str, name: str, room_id: str, *, rng: random.Random,
                 bots: list[RandomBot], joined: trio.Event, deck: str = "",
                 policy: Policy = Policy.UNIFORM) -> None:
    async with Client.connect(url, name, reconnect_for=BOT_RECONNECT_FOR) as client:
        await client.join(room_id, deck=deck)
        bot = RandomBot(client, rng, policy)
        bots.append(bot)
        joined.set()
        await bot.play()
        if bot.server_errors():
            raise RuntimeError(f"server errors: {bot.server_errors()}")


async def run_bot_games(url: str, games: int, players: int = 2, seed: int | None = None,
                        game_seconds: float = 300.0, *,
                        tables: Sequence[Sequence[str]] = ((),),
                        quick_match: bool = False, best_of: int = 1,
                        deck_format: mpb.DeckFormat = mpb.DECK_FORMAT_CONSTRUCTED,
                        policy: Policy = Policy.UNIFORM) -> Summary:
    """Play ``games`` games at each table (a deck per seat; ``()``: the server's default
    decks) one after another, the bots picking options by ``policy``; never raises for a
    failed game."""
    rng = random.Random(seed)
    summary = Summary(games * len(tables))
    start = time.perf_counter()
    index = 0
    for decks in tables:
        for _ in range(games):
            # A game that can't reach the server (it is restarting) or that the server
            # can't save now (a full disk) is tried again, with backoff, for as long as its
            # bots would try to resume one in play.
            retry_until = trio.current_time() + min(BOT_RECONNECT_FOR, game_seconds)
            delay = UNREACHABLE_FIRST
            while True:
                played: list[RandomBot] = []
                try:
                    with trio.fail_after(game_seconds):
                        await play_bot_game(
                            url, index, rng, players, decks, quick_match=quick_match,
                            best_of=best_of, deck_format=deck_format, policy=policy,
                            played=played)
                    summary.actions += sum(b.actions for b in played)
                    summary.completed += 1
                except Exception as exc:
                    # (the actions of a game that failed were played too)
                    summary.actions += sum(b.actions for b in played)
                    if _unreachable(exc) and trio.current_time() + delay < retry_until:
                        await trio.sleep(delay)
                        delay = min(delay * 2, UNREACHABLE_MAX)
                        continue
                    # (refused for rate -- many games from one address make rooms faster
                    # than the server's --rooms-per-minute: the wait it says, then again)
                    wait = _rate_wait(exc)
                    if wait is not None and trio.current_time() + wait < retry_until:
                        await trio.sleep(wait)
                        continue
                    summary.errors += 1
                    names = ", ".join(d if "\n" not in d else "a deck list" for d in decks)
                    print(f"game {index} ({names or 'default decks'}) failed: {_why(exc)}",
                          flush=True)
                break
            index += 1
    summary.seconds = time.perf_counter() - start
    return summary
