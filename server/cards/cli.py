"""``manawire cards`` (coverage of the bundled set files) and ``manawire sealed`` (a sealed
pool opened from a set's booster data, printed as a plain-text deck list).

- ``manawire cards [--set M21] [--missing]``: per set, the cards the engine supports out of
  the set's cards (by name); ``--missing`` lists the others grouped by what they need
  (:func:`server.cards.sets.needs`).
- ``manawire cards --vocabulary``: how the supported cards use the behaviour vocabulary
  (:mod:`server.cards.vocabulary`): per kind of term, how many exist, are used, and serve
  exactly one card (listed with that card).
- ``manawire sealed --set M21 --seed S [--boosters 6] [--playable]``: the pool as a deck
  list (``manawire deck check`` reads it); the cards the engine doesn't support yet are
  listed in comments. ``--playable``: a 40-card limited deck built from the pool's supported
  cards plus basic lands, the rest of the supported pool as its sideboard.

:func:`register` adds both to the ``manawire`` parser; the parsed arguments' ``cards_main``
runs the command.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable
from typing import TextIO

from server.cards import card_pool
from server.cards.sealed import BoosterDataError, open_pool, playable_deck
from server.cards.sets import coverage, load_set, set_codes
from server.cards.vocabulary import FILTER_PREDICATES, filter_usage, term_name, usage


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``cards`` and ``sealed``; ``args.cards_main(args)`` runs either (exit code)."""
    cards = subparsers.add_parser("cards", help="how many cards of each set the engine "
                                  "supports (and what the missing ones need)")
    cards.add_argument("--set", dest="set_code", default=None,
                       help=f"one set by code (bundled: {', '.join(set_codes())}; default: "
                            "every bundled set)")
    cards.add_argument("--missing", action="store_true",
                       help="list the unsupported cards, grouped by what they need")
    cards.add_argument("--vocabulary", action="store_true",
                       help="instead, how the supported cards use the behaviour vocabulary: "
                            "per kind of term, how many are used and how many serve one card")
    cards.set_defaults(cards_main=run_cards)
    sealed = subparsers.add_parser("sealed", help="open sealed boosters from a set's booster "
                                   "data and print the pool as a deck list")
    sealed.add_argument("--set", dest="set_code", required=True, help="set code, e.g. M21")
    sealed.add_argument("--seed", required=True, help="the seed: the same seed, the same pool")
    sealed.add_argument("--boosters", type=int, default=6, help="boosters to open (default 6)")
    sealed.add_argument("--playable", action="store_true",
                        help="print a 40-card limited deck built from the pool's supported "
                             "cards plus basic lands (the rest of the pool as sideboard)")
    sealed.set_defaults(cards_main=run_sealed)


def run_cards(args: argparse.Namespace, out: TextIO | None = None,
              err: TextIO | None = None) -> int:
    out = out or sys.stdout
    if args.vocabulary:
        return _print_vocabulary(out)
    try:
        codes = [args.set_code] if args.set_code else set_codes()
        sets = [load_set(c) for c in codes]
    except KeyError as exc:
        print(f"manawire cards: {exc.args[0]}", file=err or sys.stderr)
        return 2
    for s in sets:
        cov = coverage(s)
        share = 100 * len(cov.supported) / cov.total if cov.total else 100.0
        print(f"{cov.code} ({cov.name}): {len(cov.supported)} / {cov.total} supported "
              f"({share:.1f}%)", file=out)
        if args.missing:
            for need, names in cov.missing.items():
                print(f"  {need} ({len(names)}):", file=out)
                for name in names:
                    print(f"    {name}", file=out)
    return 0


def _print_vocabulary(out: TextIO) -> int:
    """``manawire cards --vocabulary``: one line per vocabulary, then its one-card terms."""
    pool = card_pool()
    print(f"{len(pool)} supported cards", file=out)
    for v in usage(pool):
        single = v.single_use
        print(f"{v.name}: {len(v.members)} terms, {len(v.users)} used, "
              f"{len(single)} by exactly one card", file=out)
        for term in single:
            print(f"  {term_name(term)}: {v.users[term][0]}", file=out)
    predicates = filter_usage(pool)
    single_predicates = [p for p, names in predicates.items() if len(names) == 1]
    print(f"ObjectFilter: {len(FILTER_PREDICATES)} predicates, {len(predicates)} used, "
          f"{len(single_predicates)} by exactly one card", file=out)
    for predicate in single_predicates:
        print(f"  {predicate}: {predicates[predicate][0]}", file=out)
    return 0


def _lines(names: Iterable[str]) -> list[str]:
    return [f"{n} {name}" for name, n in Counter(names).items()]


def run_sealed(args: argparse.Namespace, out: TextIO | None = None,
               err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    if args.boosters < 1:
        print("manawire sealed: --boosters must be at least 1", file=err)
        return 2
    try:
        set_file = load_set(args.set_code)
        boosters = open_pool(set_file, args.seed, args.boosters)
    except (KeyError, BoosterDataError) as exc:
        print(f"manawire sealed: {exc.args[0]}", file=err)
        return 2
    pool = card_pool()
    names = [c.name for b in boosters for c in b.cards]
    supported = [n for n in names if n in pool]
    missing = [n for n in names if n not in pool]
    kind = "deck" if args.playable else "pool"
    text = [f"Name {set_file.code} sealed {kind} (seed {args.seed})",
            f"# {len(boosters)} {set_file.code} boosters opened with seed {args.seed}: "
            f"{len(names)} cards, {len(supported)} playable here, {len(missing)} not "
            "supported yet (listed at the end as comments)"]
    layouts = set_file.booster["default"]["boosters"]
    for i, b in enumerate(boosters, 1):
        slots = ", ".join(f"{sheet} {n}" for sheet, n in b.contents.items())
        foils = [c.name for c in b.cards if c.foil]
        text.append(f"# booster {i}: layout {b.layout + 1} of {len(layouts)} ({slots})"
                    + (f"; foil: {', '.join(foils)}" if foils else ""))
    if args.playable:
        main, side = playable_deck(names)
        text.append(f"# a {len(main)}-card limited deck (rule 100.2b): "
                    f"{sum(1 for n in main if not pool[n].is_land)} spells from the pool, "
                    f"{sum(1 for n in main if pool[n].is_land)} lands (basic lands added)")
        text += _lines(main)
        if side:
            text += ["", "Sideboard", *_lines(side)]
    else:
        text += _lines(supported)
    if missing:
        text += ["", f"# Not supported yet ({len(missing)} cards; `manawire cards --set "
                 f"{set_file.code} --missing` says what each needs):",
                 *(f"# {line}" for line in _lines(missing))]
    out.write("\n".join(text) + "\n")
    return 0
