"""Oracle text as the card loader reads it: paragraphs, reminder text, keyword lines, and the
claim check (issue 13) -- every paragraph of a card's Oracle text is claimed by what
implements it, else the card doesn't load.

Reminder text (207.2) and keyword lines claim themselves; each triggered, activated, static
or replacement ability and each spell cost change names its paragraph in its own ``text``; a
card-level field names its paragraph(s) in ``claims`` (``{"effects": "Draw a card."}``),
unless it is a flag whose canonical phrase is the paragraph ("[This] enters tapped.",
"{T}: Add {G}.").
"""

from __future__ import annotations

import re
from typing import Any

from server.cards.errors import CardDataError
from server.cards.mana import COLORS

#: Reminder text (rule 207.2): italic parenthetical text, no rules of its own.
REMINDER = re.compile(r"\s*\([^()]*\)")
#: Keyword actions (rule 701) MTGJSON lists among a card's keywords; the card's behaviour
#: data performs them with the matching verb (so their lines aren't keyword lines).
KEYWORD_ACTIONS = ("Scry", "Fateseal", "Clash", "Regenerate", "Mill", "Exchange", "Fight")

#: Behaviour lists whose items name the paragraph they implement in their ``text``.
_TEXT_ITEMS = ("triggers", "abilities", "statics", "replacements", "spell_costs")
#: Fields that only qualify another field (the modes, the Aura's "enchant", the mana
#: ability) or a keyword line (Madness {cost}, Hexproof from, Protection from): they may
#: claim a paragraph of their own but needn't.
_QUALIFYING_FIELDS = ("choose", "enchant", "enchant_tapped", "enchant_you_control",
                      "mana_for_each", "mana_cost", "mana_only_for", "madness",
                      "hexproof_from", "protection", "claims")


def keyword_line(paragraph: str, keywords: list[str] | tuple[str, ...]) -> bool:
    """Whether a paragraph is only keyword abilities the card lists ("Flying, vigilance",
    "Enchant creature", "Equip {2}", "Protection from red"), reminder text removed."""
    parts = [p.strip() for p in re.split(r"[,;]", paragraph) if p.strip()]
    lowered = [k.casefold() for k in keywords]
    return bool(parts) and all(
        any(p.casefold() == k or p.casefold().startswith(k + " ") for k in lowered)
        for p in parts)


def oracle_paragraphs(text: str) -> list[str]:
    """The paragraphs of Oracle text: its lines, a mode bullet ("• ...", rule 700.2) joined
    to the paragraph that introduces it ("Choose one --")."""
    paragraphs: list[str] = []
    for line in text.split("\n") if text else ():
        if line.startswith("\u2022") and paragraphs:
            paragraphs[-1] += "\n" + line
        else:
            paragraphs.append(line)
    return paragraphs


def bare(paragraph: str) -> str:
    """A paragraph without its reminder text (207.2)."""
    return REMINDER.sub("", paragraph).strip()


def _canonical_mana(mana: str) -> str:
    """The printed mana ability a ``mana`` entry is: "{T}: Add {B} or {R}." (rule 106.1)."""
    options = mana.split("|")
    if sorted(options) == sorted(COLORS):
        return "{T}: Add one mana of any color."
    return "{T}: Add " + " or ".join("".join(f"{{{c}}}" for c in o) for o in options) + "."


def check_claims(where: str, name: str, text: str, keywords: tuple[str, ...],
                  spec: dict[str, Any]) -> None:
    """Every Oracle paragraph is claimed, and every claim names one of its paragraphs."""
    paragraphs = oracle_paragraphs(text)
    heads = [p.split("\n", 1)[0] for p in paragraphs]
    claimed = [False] * len(paragraphs)

    def find(claim: str) -> int | None:
        for i, (paragraph, head) in enumerate(zip(paragraphs, heads, strict=True)):
            if claim in (paragraph, head) or (claim and claim in (bare(paragraph),
                                                                   bare(head))):
                return i
        return None

    def claim(label: str, value: Any, modes: int = 0) -> None:
        if not isinstance(value, str) or not value:
            raise CardDataError(f"{where}: {label}: expected the Oracle paragraph it "
                                "implements")
        found = find(value)
        if found is None:
            raise CardDataError(f"{where}: {label}: {value!r} is not a paragraph of its "
                                "Oracle text")
        claimed[found] = True
        # "Choose one --" and its bullets (700.2): one mode for each bullet.
        bullets = paragraphs[found].count("\n\u2022")
        if modes and bullets and modes != bullets:
            raise CardDataError(f"{where}: {label}: {value!r} has {bullets} modes, the "
                                f"behaviour {modes}")

    abilities = [k for k in keywords if k not in KEYWORD_ACTIONS]
    for i, paragraph in enumerate(paragraphs):
        stripped = bare(paragraph)
        claimed[i] = not stripped or keyword_line(stripped, abilities)
    for field in _TEXT_ITEMS:
        for i, item in enumerate(spec.get(field, [])):
            claim(f"{field}[{i}].text", item.get("text"), len(item.get("modes") or ()))
    claims = spec.get("claims", {})
    if not isinstance(claims, dict) or (spec.get("claims") is not None and not claims):
        raise CardDataError(f"{where}: claims: expected an object {{field: paragraph(s)}}")
    stray = sorted(set(claims) - set(spec) | set(claims) & {"claims"})
    if stray:
        raise CardDataError(f"{where}: claims: {stray} name(s) no behaviour field of the card")
    for field, value in claims.items():
        for i, one in enumerate(value if isinstance(value, list) else [value]):
            claim(f"claims.{field}" + (f"[{i}]" if isinstance(value, list) else ""), one,
                  len(spec["modes"]) if field == "modes" else 0)
    # Flags claim their canonical phrase: "[This] enters tapped." (either Oracle wording),
    # and each plain mana ability its "{T}: Add ..." paragraph.
    canonical: dict[str, list[int | None]] = {}
    if spec.get("enters_tapped"):
        found = [find(f"{name} enters the battlefield tapped."), find(f"{name} enters tapped.")]
        canonical["enters_tapped"] = [next((f for f in found if f is not None), None)]
    if "mana" in spec and not {"mana_cost", "mana_for_each", "mana_only_for"} & set(spec):
        canonical["mana"] = [find(_canonical_mana(str(m))) for m in spec["mana"]]
    for field, value in spec.items():
        if field in claims or field in _TEXT_ITEMS or field in _QUALIFYING_FIELDS \
                or value in (False, 0, [], {}):
            continue
        found = canonical.get(field, [None])
        if None in found:
            raise CardDataError(f"{where}: {field}: name the Oracle paragraph(s) it "
                                f"implements in 'claims' ({{{field!r}: paragraph}})")
        for f in found:
            if f is not None:
                claimed[f] = True
    # Rule 407.3: the rules (server.engine.ante) read an ante card's own paragraph.
    ante = find(f"Remove {name} from your deck before playing if you're not playing for ante.")
    if ante is not None:
        claimed[ante] = True
    for paragraph, done in zip(paragraphs, claimed, strict=True):
        if not done:
            raise CardDataError(f"{where}: Oracle paragraph {paragraph!r} is claimed by no "
                                "behaviour item, keyword, flag or reminder text")
