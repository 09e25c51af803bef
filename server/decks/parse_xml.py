"""XML deck files: MTGO ``.dek`` and Cockatrice ``.cod``.

A deck file is untrusted input: it is parsed only with :mod:`defusedxml.ElementTree`, with
document type declarations refused outright (deck files have none; entity definitions in
one could expand without bound, "billion laughs") and no external references. Every problem
names the line of the element's start tag.

MTGO (as MTGO writes it)::

    <Deck xmlns:xsd="..." xmlns:xsi="...">
      <NetDeckID>0</NetDeckID>
      <PreconstructedDeckID>0</PreconstructedDeckID>
      <Cards CatID="80078" Quantity="4" Sideboard="false" Name="Shock" Annotation="0" />
    </Deck>

``CatID`` (MTGO's catalogue id of the printing) is kept; ``0`` means unknown. A ``.dek``
file has no deck name and no set code or collector number.

Cockatrice::

    <cockatrice_deck version="1">
      <deckname>Burn</deckname>
      <zone name="main">
        <card number="4" name="Shock" setShortName="M21" collectorNumber="159"/>
      </zone>
      <zone name="side">...</zone>
    </cockatrice_deck>

The ``tokens`` zone lists tokens the deck makes, which are not cards of the deck (rule
111.1): it is skipped, like ``comments``, ``bannerCard``, ``tags`` and ``sideboard_plan``.
"""

from __future__ import annotations

from xml.etree.ElementTree import Element, ParseError, TreeBuilder

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import XMLParser

from server.decks.builder import Builder, Parsed
from server.decks.model import DeckList, FileFormat, quoted

_ROOTS = "the root element <Deck> (MTGO .dek) or <cockatrice_deck> (Cockatrice .cod)"
_MTGO_IGNORED = ("NetDeckID", "PreconstructedDeckID")
_COCKATRICE_IGNORED = ("deckname", "comments", "lastLoadedTimestamp", "bannerCard", "tags",
                       "sideboard_plan")


class _LineTarget:
    """A tree builder that notes the line of each element's start tag."""

    def __init__(self) -> None:
        self.builder = TreeBuilder()
        self.lines: dict[Element, int] = {}
        self.parser: XMLParser | None = None
        self.root: Element | None = None

    def start(self, tag: str, attrs: dict[str, str]) -> Element:
        element = self.builder.start(tag, attrs)
        if self.parser is not None:
            self.lines[element] = self.parser.parser.CurrentLineNumber
        return element

    def end(self, tag: str) -> Element:
        return self.builder.end(tag)

    def data(self, data: str) -> None:
        self.builder.data(data)

    def close(self) -> Element:
        self.root = self.builder.close()
        return self.root


def _tree(text: str) -> tuple[Element, dict[Element, int]] | str:
    """The root element and each element's line, or the problem with the document."""
    target = _LineTarget()
    parser = XMLParser(target=target, forbid_dtd=True, forbid_entities=True,
                       forbid_external=True)
    target.parser = parser
    try:
        parser.feed(text)
        parser.close()
    except DefusedXmlException:
        line = parser.parser.CurrentLineNumber
        return (f"line {line}: a document type declaration or entity is refused (deck "
                "files have none, and entities can expand without bound)")
    except ParseError as exc:
        line, column = exc.position
        reason = str(exc).split(": line ", 1)[0]
        return f"line {line}, column {column + 1}: the XML is not well-formed: {reason}"
    assert target.root is not None, "a well-formed document has a root element"
    return target.root, target.lines


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _where(lines: dict[Element, int], element: Element, index: int) -> str:
    line = lines.get(element)
    return f"line {line}" if line else f"element {index}"


def _failed(source: FileFormat, problem: str) -> Parsed:
    return Parsed(DeckList("", (), (), source), [problem])


def parse_xml(text: str, source: FileFormat) -> Parsed:
    """Read an MTGO (``source`` MTGO) or Cockatrice deck file."""
    tree = _tree(text)
    if isinstance(tree, str):
        return _failed(source, tree)
    root, lines = tree
    expected = "Deck" if source is FileFormat.MTGO else "cockatrice_deck"
    if _local(root.tag) != expected:
        return _failed(source, f"{_where(lines, root, 1)}: expected {_ROOTS}, got "
                               f"<{_local(root.tag)[:40]}>")
    b = Builder(source)
    if source is FileFormat.MTGO:
        _mtgo(b, root, lines)
    else:
        _cockatrice(b, root, lines)
    return b.result()


def _mtgo(b: Builder, root: Element, lines: dict[Element, int]) -> None:
    for index, element in enumerate(root, 1):
        where, tag = _where(lines, element, index), _local(element.tag)
        if tag in _MTGO_IGNORED:
            continue
        if tag != "Cards":
            b.problem(f"{where}: unexpected element <{tag[:40]}> in an MTGO deck "
                      "(expected <Cards>)")
            continue
        side = element.get("Sideboard", "false").strip().casefold()
        if side not in ("true", "false"):
            b.problem(f"{where}: Sideboard is 'true' or 'false', got {quoted(side)}")
            continue
        count = b.count(where, element.get("Quantity", ""))
        cat_id = element.get("CatID", "").strip()
        b.add(where, count, element.get("Name", ""), sideboard=side == "true",
              mtgo_id="" if cat_id == "0" else cat_id)


def _cockatrice(b: Builder, root: Element, lines: dict[Element, int]) -> None:
    for index, element in enumerate(root, 1):
        where, tag = _where(lines, element, index), _local(element.tag)
        if tag == "deckname":
            b.set_name(where, element.text or "")
            continue
        if tag in _COCKATRICE_IGNORED:
            continue
        if tag != "zone":
            b.problem(f"{where}: unexpected element <{tag[:40]}> in a Cockatrice deck")
            continue
        zone = element.get("name", "")
        if zone == "tokens":
            continue
        if zone not in ("main", "side"):
            b.problem(f"{where}: unknown zone {quoted(zone)} (expected 'main' or 'side')")
            continue
        for inner, card in enumerate(element, 1):
            at = _where(lines, card, inner)
            if _local(card.tag) != "card":
                b.problem(f"{at}: unexpected element <{_local(card.tag)[:40]}> in a zone "
                          "(expected <card>)")
                continue
            b.add(at, b.count(at, card.get("number", "")), card.get("name", ""),
                  sideboard=zone == "side", set_code=card.get("setShortName", ""),
                  number=card.get("collectorNumber", ""))
