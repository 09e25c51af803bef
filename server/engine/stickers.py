"""Stickers (rule 123): markers put on objects that change their characteristics.

- 123.1: a sticker is not an object, a counter or a token; its changes are not part of the
  object's copiable values (a token copy, 707.2, doesn't get them).
- 123.3: an effect has a player put a sticker on an object; 123.3b: only on an object that
  player owns -- otherwise that part of the effect does nothing. Sticker sheets (123.2,
  103.2d) are not modelled: the effect names the sticker it puts on, and each one put is a
  distinct sticker (123.3a).
- 123.5, 400.7m: stickers stay on an object that moves to a public zone and apply to the new
  object; an object moving to a hidden zone loses them (:func:`server.engine.zones.move`).
- 123.7: an ability sticker grants its ability (layer 6, 613.1f); 123.8: a power and
  toughness sticker sets a creature's power and toughness (layer 7b, 613.4b), the latest
  one winning (613.7k); 123.9: an art sticker is only a marker. See
  :mod:`server.engine.layers` and :class:`server.engine.state.GameObject`.
- 613.7k: a sticker gets a timestamp as it is put on, and a new one right after its
  object's whenever the object gets a new timestamp.

Name stickers (123.6) are not supported.
"""

from __future__ import annotations

from server.cards.model import StickerDef
from server.engine.board import invalidate
from server.engine.state import Game, GameObject, Sticker
from server.engine.zones import next_timestamp


def put_sticker(game: Game, seat: int, obj: GameObject, sticker: StickerDef) -> bool:
    """Rule 123.3: ``seat`` puts ``sticker`` on ``obj``. Rule 123.3b: not on an object
    ``seat`` doesn't own (nothing happens). Returns whether it was put on."""
    if obj.owner != seat or obj.is_ability:
        return False
    obj.stickers.append(Sticker(sticker, next_timestamp(game)))  # rule 613.7k
    invalidate(game)  # the layers apply to it now (the summary's ``at_start`` no longer holds)
    return True
