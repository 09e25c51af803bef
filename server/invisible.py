"""Characters shown as nothing (Unicode's Default_Ignorable_Code_Point): refused in a
registered name (:mod:`server.accounts`), taken out of display and room names
(:mod:`server.rooms.session`) -- 'Ann' followed by a Hangul filler read as 'Ann'."""

from __future__ import annotations

import unicodedata

#: Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt): characters shown as
#: nothing. Most are refused in names as not letters, but the Hangul fillers (U+115F,
#: U+1160, U+3164, U+FFA0) are letters: 'Ann' followed by one read as 'Ann'.
_INVISIBLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def _invisible(ch: str) -> bool:
    code = ord(ch)
    return any(low <= code <= high for low, high in _INVISIBLE)


def invisible_characters(text: str) -> list[str]:
    """The characters of ``text`` (else of its NFKC form) that are shown as nothing
    (Unicode's Default_Ignorable_Code_Point), each once, in order."""
    for form in (text, unicodedata.normalize("NFKC", text)):
        found = list(dict.fromkeys(ch for ch in form if _invisible(ch)))
        if found:
            return found
    return []


def without_invisible(text: str) -> str:
    """``text`` without the characters :func:`invisible_characters` finds."""
    return "".join(ch for ch in text if not _invisible(ch))


def hidden_in_name(text: str) -> list[str]:
    """The characters of ``text`` a name must not have: those shown as nothing, but for
    variation selectors (U+FE00-FE0F, U+E0100-E01EF), which pick how the character before
    them looks (an emoji's colour form, in "\u2764\ufe0f")."""
    return [ch for ch in invisible_characters(text)
            if not (0xFE00 <= ord(ch) <= 0xFE0F or 0xE0100 <= ord(ch) <= 0xE01EF)]
