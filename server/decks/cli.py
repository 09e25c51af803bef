"""``manawire deck``: check or convert a deck file offline.

- ``manawire deck check FILE [--format constructed|limited]``: reads the file in the
  detected format, checks it against the format's rules (100.2a/100.4a constructed,
  100.2b/100.4b limited, 407.3 ante) and prints the detected format, the card counts and
  ``OK`` -- or every problem, exiting with 1 -- then any note on the list (``note: line 1
  names Shock's M20 printing: this server plays its M21 printing ...``).
- ``manawire deck convert FILE --to text|arena|mtgo|cockatrice|forge``: prints the deck in
  another format (construction rules are not checked; a file that cannot be read prints
  its problems and exits with 1).

A file that cannot be opened or is not UTF-8 exits with 2. :func:`register` adds the
command to the ``manawire`` parser; :func:`main` runs it alone.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from server.decks.builder import Parsed
from server.decks.export import export
from server.decks.model import DeckFormat, FileFormat
from server.decks.names import pool_note
from server.decks.parse import read
from server.decks.validate import parsed_problems

_NAMES = {FileFormat.TEXT: "plain text", FileFormat.ARENA: "MTG Arena / Moxfield",
          FileFormat.MTGO: "MTGO .dek", FileFormat.COCKATRICE: "Cockatrice .cod",
          FileFormat.FORGE: "Forge .dck"}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``deck check`` and ``deck convert`` to a parser's subcommands; the parsed
    arguments' ``deck_main`` runs the command (``args.deck_main(args)`` -> exit code)."""
    deck = subparsers.add_parser("deck", help="check or convert a deck file offline",
                                 description="Check or convert a deck file offline.")
    sub = deck.add_subparsers(dest="deck_command", required=True)
    check = sub.add_parser("check", help="check a deck file against a format's rules")
    check.add_argument("file", type=Path)
    check.add_argument("--format", choices=[f.value for f in DeckFormat],
                       default=DeckFormat.CONSTRUCTED.value,
                       help="the deck format (rule 100.2; default: constructed)")
    convert = sub.add_parser("convert", help="print a deck file in another format")
    convert.add_argument("file", type=Path)
    convert.add_argument("--to", required=True, choices=[f.value for f in FileFormat],
                         help="the format to write")
    deck.set_defaults(deck_main=run)


def _read(path: Path, err: TextIO) -> Parsed | None:
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        print(f"manawire deck: cannot read {path}: {exc.strerror or exc}", file=err)
        return None
    except UnicodeDecodeError as exc:
        print(f"manawire deck: {path} is not UTF-8 text (byte {exc.start})", file=err)
        return None
    return read(text, filename=path.name)


def run(args: argparse.Namespace, out: TextIO | None = None,
        err: TextIO | None = None) -> int:
    """Run a parsed ``deck`` command; the exit code: 0, 1 (problems) or 2 (unreadable)."""
    out = out or sys.stdout
    err = err or sys.stderr
    parsed = _read(args.file, err)
    if parsed is None:
        return 2
    deck = parsed.deck
    if args.deck_command == "convert":
        if parsed.problems:
            print("\n".join(parsed.problems), file=err)
            return 1
        out.write(export(deck, FileFormat(args.to)))
        return 0
    fmt = DeckFormat(args.format)
    problems = parsed_problems(parsed, fmt)
    main = deck.main_count + parsed.unknown_main
    side = deck.sideboard_count + parsed.unknown_sideboard
    named = f" {deck.name!r}" if deck.name else ""
    print(f"{args.file}: {_NAMES[deck.source]} deck{named}, {fmt.value}", file=out)
    print(f"main deck: {main} cards, sideboard: {side} cards", file=out)
    print("\n".join(problems) if problems else "OK", file=out)
    if note := pool_note(problems):
        print(f"({note})", file=out)
    for note in parsed.notes:  # (a list that may be played anyway: said, not refused)
        print(f"note: {note}", file=out)
    return 1 if problems else 0


def main(argv: Sequence[str] | None = None) -> int:
    """``manawire deck ...`` on its own (``argv`` starts with ``deck``)."""
    parser = argparse.ArgumentParser(prog="manawire")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code: int = args.deck_main(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
