"""How others join or watch a room, in words: the commands (``manawire play --room``,
``manawire bots --join``, ``manawire watch``) and the web client's invite links -- said by
``manawire play`` as it creates a room, and by its ``invite`` command."""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit, urlunsplit

from client_sdk.board import Board


def web_link(url: str, role: str, room_id: str, code: str = "") -> str:
    """The web client's invite link to a room (web/README.md: ``#join=ROOM_ID&code=CODE``,
    ``#watch=`` to spectate), on the server the WebSocket URL names -- it serves the web
    client on the same port: ``ws://`` is ``http://``, ``wss://`` ``https://``. Empty for
    a URL that is neither."""
    parts = urlsplit(url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme.lower())
    if scheme is None or not parts.netloc:
        return ""
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    fragment = urlencode({role: room_id, **({"code": code} if code else {})})
    return urlunsplit((scheme, parts.netloc, path, "", fragment))


def invite_text(url: str, room_id: str, code: str, public: bool, *,
                seats_open: bool = True, audience: str = "") -> str:
    """How others join the room just created (``seats_open``: a seat is free), or watch it:
    in a terminal, and in a browser (the web client's invite links). The watch command and
    link carry the room's ``audience`` code -- it watches but takes no seat -- and the seat
    ones its invite ``code`` (a room made before rooms had an audience code: the invite
    code watches too)."""
    invite = f" --invite {code}" if code else ""
    shown = "" if public else code
    watching = audience or code
    watch = (f"  anyone watches with:  manawire watch {url} {room_id}"
             f"{'' if public or not watching else f' --invite {watching}'}")
    if link := web_link(url, "watch", room_id, "" if public else watching):
        watch += f"\n      or in a browser:  {link}"
    if audience and not public:
        watch += "\n      (the watch code lets its holder watch, never take a seat)"
    if not seats_open:
        return f"Room {room_id}, invite code {code}: every seat is taken.\n{watch}"
    join = f"  a friend joins with:  manawire play {url} --room {room_id}{invite}\n"
    if link := web_link(url, "join", room_id, shown):
        join += f"      or in a browser:  {link}\n"
    return (f"Room {room_id} created; invite code {code}. Waiting for players...\n{join}"
            f"  a bot joins with:     manawire bots --url {url} --join {room_id}{invite}\n"
            f"{watch}")


def invite_words(board: Board) -> str:
    """What ``invite`` says: the room's invite code and the commands that join it (while a
    seat is free) or watch it (with its audience code, if this terminal knows it)."""
    room = board.room
    if not room.room_id:
        return "You are in no room yet."
    seats_open = not room.started and not board.mirror.ready and \
        len(room.players) < room.seats
    if board.invite_code:
        return invite_text(board.url, room.room_id, board.invite_code, not room.private,
                           seats_open=seats_open, audience=board.audience_code)
    if not room.private:
        text = invite_text(board.url, room.room_id, "", True, seats_open=seats_open)
        return f"Room {room.room_id} is public: no invite code is needed.\n" + "".join(
            text.splitlines(keepends=True)[1:])
    return (f"Room {room.room_id} is private and was created elsewhere: its invite code is "
            f"known to its creator, who was shown it as the room was made (their terminal "
            f"keeps it: 'invite' there says it again) -- ask them for it.")
