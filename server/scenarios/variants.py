"""Scenario support for the optional variants: Planechase (rule 901) and playing for ante
(rule 407) -- their ``setup`` keys and expectations (documented in tests/scenarios/README.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from server.cards import CardDataError, CardDef, plane
from server.engine import Game, Zone, planar
from server.engine.ante import state as ante_state
from server.engine.zones import create_object

if TYPE_CHECKING:
    from server.scenarios.position import Run


def plane_card(run: Run, name: Any) -> CardDef:
    """A plane card by exact name (rule 311)."""
    try:
        return plane(str(name))
    except CardDataError as exc:
        raise run.error(str(exc)) from None


def setup_planechase(run: Run, game: Game, spec: Any) -> None:
    """``setup.planechase``: ``planar_decks`` (one list per seat, TOP FIRST), ``face_up``
    (a plane name or ``{card, owner, label, counters}``; default: none, and the starting
    player turns their top card face up as the game settles, 901.5) and ``controller`` (the
    planar controller, default the active player, 901.6)."""
    from server.scenarios.position import as_int, as_list, as_seat, check_keys

    if not isinstance(spec, dict):
        raise run.error("setup.planechase is a mapping")
    check_keys(run, "setup.planechase", spec, {"planar_decks", "face_up", "controller"})
    record = planar.Planechase()
    game.variants.append(record)
    decks = as_list(run, spec.get("planar_decks", []), "planechase.planar_decks")
    if len(decks) > len(game.players):
        raise run.error("planechase.planar_decks: one list per player at most")
    for seat, names in enumerate(decks):
        cards = [plane_card(run, n) for n in as_list(run, names or [], "planar deck")]
        if len({c.name for c in cards}) != len(cards):
            raise run.error(f"planar deck {seat}: each card must have a different name "
                            "(rule 901.3)")
        record.decks[seat] = list(reversed(cards))  # the top card last
    planar.set_planar_controller(game, as_seat(run, game, spec.get("controller", game.active)))
    if "face_up" in spec:
        face = spec["face_up"]
        if isinstance(face, str):
            face = {"card": face}
        if not isinstance(face, dict) or "card" not in face:
            raise run.error("planechase.face_up: a plane name or a mapping with 'card'")
        check_keys(run, "planechase.face_up", face, {"card", "owner", "label", "counters"})
        owner = as_seat(run, game, face.get("owner", game.active))
        obj = create_object(game, plane_card(run, face["card"]), owner, Zone.COMMAND)
        obj.controller = obj.base_controller = record.controller
        for kind, n in dict(face.get("counters") or {}).items():
            obj.counters[str(kind)] = as_int(run, n, f"counters[{kind}]")
        if "label" in face:
            run.labels[str(face["label"])] = obj.id
        record.started = True


def _record(game: Game) -> planar.Planechase:
    record = planar.state(game)
    if record is None:
        return planar.Planechase()  # not a Planechase game: no planar decks, no rolls
    return record


def expect_planechase(run: Run, spec: Any, prefix: str) -> None:
    """``planechase`` expectations: ``face_up`` (plane names, any order), ``owner`` (of the
    single face-up plane), ``controller`` (the planar controller), ``deck_counts``
    ({seat: n}), ``decks`` ({seat: [names, TOP FIRST]}), ``rolls`` (the faces rolled so far,
    in order: planeswalk, chaos, blank), ``counters`` (of the single face-up plane)."""
    from server.scenarios.position import as_list, as_seat, check_keys

    game = run.game
    if not isinstance(spec, dict):
        raise run.error(f"{prefix}planechase expectations are a mapping")
    check_keys(run, "planechase", spec, {"face_up", "owner", "controller", "deck_counts",
                                         "decks", "rolls", "counters", "is", "is_not"})
    planes = planar.face_up(game)

    def check(what: str, actual: Any, wanted: Any) -> None:
        if actual != wanted:
            raise run.fail(f"{prefix}planechase {what} is {actual!r}, expected {wanted!r} "
                           f"(pending: {run.pending_text()})")

    if "face_up" in spec:
        check("face-up planes", sorted(p.card.name for p in planes),
              sorted(str(n) for n in as_list(run, spec["face_up"] or [], "face_up")))
    single = planes[0] if len(planes) == 1 else None
    for key in ("owner", "counters", "is", "is_not"):
        if key in spec and single is None:
            raise run.fail(f"{prefix}planechase {key}: {len(planes)} face-up planes, not one")
    if single is not None:
        if "owner" in spec:
            check("owner", single.owner, spec["owner"])
        if "counters" in spec:
            check("counters", {k: n for k, n in single.counters.items() if n},
                  dict(spec["counters"] or {}))
        if "is" in spec:
            check("identity (rule 901.7a)", run.labels.get(str(spec["is"])) == single.id, True)
        if "is_not" in spec:
            check("identity (rule 901.7a: a new object)",
                  run.labels.get(str(spec["is_not"])) == single.id, False)
    if "controller" in spec:
        check("planar controller", planar.controller(game), spec["controller"])
        for p in planes:
            check(f"controller of {p.card.name}", p.controller, spec["controller"])
    for seat, n in (spec.get("deck_counts") or {}).items():
        check(f"planar deck size of seat {seat}",
              planar.deck_size(game, as_seat(run, game, seat)), n)
    for seat, names in (spec.get("decks") or {}).items():
        check(f"planar deck of seat {seat}",
              [c.name for c in reversed(_record(game).deck(as_seat(run, game, seat)))],
              [str(n) for n in as_list(run, names or [], "decks")])
    if "rolls" in spec:
        check("rolls", [face for _, _, face in _record(game).rolls],
              [str(f) for f in as_list(run, spec["rolls"] or [], "rolls")])


def expect_ante_result(run: Run, spec: Any, prefix: str) -> None:
    """``ante_result``: the ownership changes at the end of the game (rule 407.2), as
    ``[card name, previous owner, new owner]`` triples, any order."""
    from server.scenarios.position import as_list

    record = ante_state(run.game)
    actual = sorted([name, old, new] for name, old, new in (record.result if record else []))
    wanted = sorted([str(t[0]), int(t[1]), int(t[2])]
                    for t in as_list(run, spec or [], "ante_result"))
    if actual != wanted:
        raise run.fail(f"{prefix}ante_result is {actual!r}, expected {wanted!r}")
