"""Expectations (``expect`` and ``check`` steps): zones, players, stack, views."""

from __future__ import annotations

from typing import Any

from server.engine import (
    DecisionKind,
    GameObject,
    Zone,
)
from server.engine.events import CardsRevealed
from server.scenarios import variants
from server.scenarios.loading import Scenario, ScenarioError, ScenarioFailure
from server.scenarios.position import (
    Run,
    as_kind,
    as_list,
    as_seat,
    as_step,
    check_keys,
)
from server.view import SPECTATOR, project

_EXPECT_KEYS = {"turn", "step", "active", "priority", "pending", "result", "players", "stack",
                "exile", "command", "views", "phase", "starting_player",
                "planechase", "ante", "ante_result", "start_rejected"}
_PLAYER_KEYS = {"life", "poison", "hand", "hand_count", "library", "library_count", "graveyard",
                "graveyard_count", "battlefield", "lost", "lands_played", "mulligans",
                "mana_pool", "sideboard"}
_OBJECT_KEYS = {"card", "tapped", "power", "toughness", "counters", "damage", "attached_to",
                "controller", "owner", "sick", "is", "is_not", "face_down", "label", "loyalty",
                "newer_than",
                "targets", "ability", "mode", "x", "keywords", "lacks", "subtypes", "token",
                "stickers"}


def check_expectations(run: Run, spec: Any, prefix: str = "") -> None:
    game = run.game
    if not isinstance(spec, dict):
        raise run.error(f"{prefix}expectations are a mapping")
    check_keys(run, f"{prefix}expect", spec, _EXPECT_KEYS)

    def check(what: str, actual: Any, wanted: Any) -> None:
        if actual != wanted:
            raise run.fail(f"{prefix}{what} is {actual!r}, expected {wanted!r} "
                           f"(pending: {run.pending_text()})")

    if "start_rejected" in spec:
        raise run.fail(f"{prefix}the game started; expected the start to be rejected "
                       f"({spec['start_rejected']!r})")
    if "turn" in spec:
        check("turn", game.turn, spec["turn"])
    if "step" in spec:
        check("step", game.step, as_step(run, spec["step"]))
    if "active" in spec:
        check("active player", game.active, spec["active"])
    if "starting_player" in spec:
        check("starting player", game.starting_player, spec["starting_player"])
    if "phase" in spec:
        check("phase", game.phase.value, spec["phase"])
    if "priority" in spec:
        d = game.pending
        holder = d.seat if d is not None and d.kind is DecisionKind.PRIORITY else None
        check("priority", holder, spec["priority"])
    if "pending" in spec:
        _expect_pending(run, spec["pending"], check)
    if "result" in spec:
        _expect_result(run, spec["result"], check)
    players = spec.get("players", {})
    items = players.items() if isinstance(players, dict) else enumerate(players)
    for seat, pspec in items:
        _expect_player(run, as_seat(run, game, seat), pspec or {}, check, prefix)
    if "stack" in spec:
        _match_objects(run, "stack", list(game.stack), spec["stack"], prefix, ordered=True)
    for key, ids in (("exile", game.exile), ("command", game.command)):
        if key in spec:
            _match_objects(run, key, list(ids), spec[key], prefix)
    if "ante" in spec:  # rules 400.1, 407: the ante zone
        _match_objects(run, "ante", list(game.ante), spec["ante"], prefix)
    if "ante_result" in spec:  # rule 407.2
        variants.expect_ante_result(run, spec["ante_result"], prefix)
    if "planechase" in spec:  # rule 901
        variants.expect_planechase(run, spec["planechase"], prefix)
    for viewer, vspec in (spec.get("views") or {}).items():
        _expect_view(run, viewer, vspec or {}, prefix)


def check_start_rejected(scenario: Scenario, reason: str) -> None:
    """The engine refused to start the game (rule 103 with e.g. 407.3 or 901.3): the
    scenario's ``expect`` must be exactly ``{start_rejected: TEXT}``, TEXT in the engine's
    reason (a rule number), and it has no script -- there is no game."""
    expect = scenario.data.get("expect")
    if scenario.data.get("script") or not isinstance(expect, dict) \
            or set(expect) != {"start_rejected"}:
        raise ScenarioError(f"{scenario.where}: a rejected start has no game: give no script "
                            "and only 'start_rejected' in 'expect'")
    wanted = str(expect["start_rejected"])
    if wanted not in reason:
        raise ScenarioFailure(f"{scenario.where}: the start was rejected for {reason!r}, "
                              f"which lacks {wanted!r}")


def _expect_pending(run: Run, spec: Any, check: Any) -> None:
    d = run.game.pending
    if spec is None or spec == "none":
        check("pending decision", None if d is None else d.kind.name.lower(), None)
        return
    if not isinstance(spec, dict):
        raise run.error("pending is a mapping {seat, kind} or none")
    if d is None:
        raise run.fail(f"no decision is pending, expected {spec!r}")
    if "seat" in spec:
        check("pending seat", d.seat, spec["seat"])
    if "kind" in spec:
        check("pending kind", d.kind, as_kind(run, spec["kind"]))


def _expect_result(run: Run, spec: Any, check: Any) -> None:
    result = run.game.result
    if spec is None or spec == "none":
        check("result", result, None)
    elif spec == "draw":
        check("winners", None if result is None else result.winners, ())
    elif isinstance(spec, dict):
        if result is None:
            raise run.fail(f"the game is not over, expected {spec!r}")
        if "winners" in spec:
            check("winners", list(result.winners), list(spec["winners"]))
        if "reason_contains" in spec and str(spec["reason_contains"]) not in result.reason:
            raise run.fail(f"result reason {result.reason!r} lacks {spec['reason_contains']!r}")
    else:
        raise run.error("result is none, draw, or {winners: [...], reason_contains: ...}")


def _expect_player(run: Run, seat: int, spec: Any, check: Any, prefix: str) -> None:
    game = run.game
    if not isinstance(spec, dict):
        raise run.error(f"{prefix}players[{seat}] is a mapping")
    check_keys(run, f"players[{seat}]", spec, _PLAYER_KEYS)
    p = game.player(seat)
    simple = {"life": p.life, "poison": p.poison, "hand_count": len(p.hand),
              "graveyard_count": len(p.graveyard),
              "library_count": len(p.library), "lost": p.has_lost,
              "lands_played": p.lands_played, "mulligans": p.mulligans}
    for key, actual in simple.items():
        if key in spec:
            check(f"player {seat} {key}", actual, spec[key])
    if "mana_pool" in spec:
        pool = "".join(s * n for s, n in zip("WUBRGC", p.all_mana(), strict=True))
        check(f"player {seat} mana pool", pool, str(spec["mana_pool"] or ""))
    if "hand" in spec:
        names = sorted(run.name_of(i) for i in p.hand)
        check(f"player {seat} hand", names, sorted(str(n) for n in spec["hand"] or []))
    if "sideboard" in spec:
        check(f"player {seat} sideboard", sorted(c.name for c in p.sideboard),
              sorted(spec["sideboard"] or []))
    if "library" in spec:
        _match_objects(run, f"player {seat} library", list(reversed(p.library)),
                       spec["library"], prefix, ordered=True)
    if "graveyard" in spec:
        _match_objects(run, f"player {seat} graveyard", list(p.graveyard), spec["graveyard"],
                       prefix, ordered=True)
    if "battlefield" in spec:
        mine = [i for i in game.battlefield if game.objects[i].controller == seat]
        _match_objects(run, f"player {seat} battlefield", mine, spec["battlefield"], prefix)


def _object_matches(run: Run, obj: GameObject, spec: dict[str, Any]) -> str | None:
    """None if ``obj`` matches ``spec``, else the first difference."""
    game = run.game
    if obj.ability is not None:
        name_ok = "ability" in spec and spec["ability"] and obj.card.name == spec["card"]
        if not name_ok:
            return "is an ability" if obj.card.name == spec["card"] else "name"
    elif spec.get("ability"):
        return "is not an ability"
    elif obj.card.name != spec["card"]:
        return "name"
    # Rule 302.6: not under its controller's control since their most recent turn began
    # (what matters for a creature's {T} abilities and attacks; any permanent may be so).
    summoning_sick = obj.controlled_since >= game.last_turn_of.get(obj.controller, 0)
    actual: dict[str, Any] = {
        "tapped": obj.tapped, "power": obj.power, "toughness": obj.toughness,
        "damage": obj.damage, "controller": obj.controller, "owner": obj.owner,
        "sick": summoning_sick, "face_down": obj.face_down, "loyalty": obj.loyalty,
        "mode": obj.modes[0] if len(obj.modes) == 1 else list(obj.modes), "x": obj.x_value,
        "counters": {k: n for k, n in obj.counters.items() if n},
    }
    for key, value in actual.items():
        if key in spec and spec[key] != value:
            return f"{key} is {value!r}, not {spec[key]!r}"
    for keyword in spec.get("keywords", []) or []:
        if not obj.has(str(keyword)):
            return f"lacks {keyword}"
    for keyword in spec.get("lacks", []) or []:
        if obj.has(str(keyword)):
            return f"has {keyword}"
    for subtype in spec.get("subtypes", []) or []:
        if subtype not in obj.subtypes:
            return f"is not a {subtype}"
    if "stickers" in spec:
        # Rule 123: the stickers on it, oldest timestamp first (613.7k), by what they show.
        texts = [s.text for s in obj.stickers]
        if texts != [str(t) for t in as_list(run, spec["stickers"] or [], "stickers")]:
            return f"stickers are {texts!r}"
    if "token" in spec and obj.is_token != spec["token"]:
        return f"token is {obj.is_token}"
    if "attached_to" in spec:
        host = obj.attached_to
        wanted = spec["attached_to"]
        if (wanted is None) != (host is None) or (host is not None and not run.refers(host,
                                                                                     wanted)):
            return f"attached_to is {run.name_of(host) if host else None!r}"
    if "is" in spec and run.labels.get(str(spec["is"])) != obj.id:
        return f"is not the object labelled {spec['is']!r} (rule 400.7: a new object?)"
    if "is_not" in spec and run.labels.get(str(spec["is_not"])) == obj.id:
        return f"is still the object labelled {spec['is_not']!r}"
    if "newer_than" in spec:
        # Rule 613.7: a later timestamp than the labelled object's (e.g. 701.3c).
        other = run.game.objects.get(run.labels.get(str(spec["newer_than"]), ""))
        if other is None or obj.timestamp <= other.timestamp:
            return f"its timestamp is not later than {spec['newer_than']!r}'s"
    if "targets" in spec:
        names = [run.name_of(str(v)) if k == "object" else f"player {v}"
                 for k, v in obj.targets]
        wanted_targets = [str(t) if not isinstance(t, int) else f"player {t}"
                          for t in spec["targets"]]
        if names != wanted_targets:
            return f"targets are {names!r}"
    return None


def _match_objects(run: Run, what: str, ids: list[str], specs: Any, prefix: str,
                   *, ordered: bool = False) -> None:
    """Each spec matches a distinct object; no object is left over. ``ordered``: in order."""
    specs = [{"card": s} if isinstance(s, str) else s for s in as_list(run, specs or [], what)]
    for spec in specs:
        if not isinstance(spec, dict) or "card" not in spec:
            raise run.error(f"{prefix}{what}: {spec!r} is a card name or a mapping with 'card'")
        check_keys(run, f"{what} entry", spec, _OBJECT_KEYS)
    actual = [run.name_of(i) for i in ids]
    if len(specs) != len(ids):
        raise run.fail(f"{prefix}{what} is {actual}, expected {[s['card'] for s in specs]}")
    chosen: list[str] = []
    deepest = [0]

    def assign(n: int) -> bool:
        """Match specs to distinct objects in order, backtracking; a spec's ``label`` is
        visible to the specs after it."""
        if n == len(specs):
            return True
        deepest[0] = max(deepest[0], n)
        label = str(specs[n]["label"]) if "label" in specs[n] else None
        for oid in [ids[n]] if ordered else ids:
            if oid in chosen or _object_matches(run, run.game.objects[oid], specs[n]):
                continue
            chosen.append(oid)
            previous = run.labels.get(label) if label else None
            if label:
                run.labels[label] = oid
            if assign(n + 1):
                return True
            chosen.pop()
            if label:
                if previous is None:
                    del run.labels[label]
                else:
                    run.labels[label] = previous
        return False

    if not assign(0):
        spec = specs[deepest[0]]
        reasons = [f"{run.name_of(oid)}: {why}" for oid in ids
                   if (why := _object_matches(run, run.game.objects[oid], spec))]
        raise run.fail(f"{prefix}{what}: nothing matches {spec!r} among {actual} "
                       f"({'; '.join(reasons)})")



def _expect_view(run: Run, viewer: Any, spec: Any, prefix: str) -> None:
    game = run.game
    seat = SPECTATOR if viewer == "spectator" else as_seat(run, game, viewer)
    if not isinstance(spec, dict):
        raise run.error(f"{prefix}views[{viewer}] is a mapping")
    check_keys(run, f"views[{viewer}]", spec, {"visible", "hidden", "hand_count",
                                                 "library_count", "face_down", "looking_at",
                                                 "revealed"})
    view = project(game, seat)
    if "looking_at" in spec:
        # Cards in libraries and other players' hands this viewer sees now (701.20).
        own_hand = (Zone.HAND, seat)
        seen = sorted(o.name for o in view.objects.values()
                      if o.zone is Zone.LIBRARY or (o.zone is Zone.HAND
                                                    and (o.zone, o.zone_owner) != own_hand))
        wanted = sorted(str(n) for n in as_list(run, spec["looking_at"] or [], "looking_at"))
        if seen != wanted:
            raise run.fail(f"{prefix}viewer {viewer} looks at {seen}, expected {wanted}")
    if "revealed" in spec:
        # Cards the last script step revealed to (or let look at) this viewer (701.20a).
        shown = sorted(c.name for e in run.last_events if isinstance(e, CardsRevealed)
                       and seat in e.seats for c in e.cards)
        wanted = sorted(str(n) for n in as_list(run, spec["revealed"] or [], "revealed"))
        if shown != wanted:
            raise run.fail(f"{prefix}the last step revealed {shown} to viewer {viewer}, "
                           f"expected {wanted}")
    names = [o.name for o in view.objects.values()]
    for name in spec.get("visible", []) or []:
        if name not in names:
            raise run.fail(f"{prefix}viewer {viewer} should see {name!r} but sees {names}")
    for name in spec.get("hidden", []) or []:
        if name in names:
            raise run.fail(f"{prefix}viewer {viewer} sees {name!r}, which is hidden from it")
    for key, attr in (("hand_count", "hand_count"), ("library_count", "library_count")):
        for s, n in (spec.get(key) or {}).items():
            actual = getattr(view.players[int(s)], attr)
            if actual != n:
                raise run.fail(f"{prefix}viewer {viewer} sees {key} {actual} for seat {s}, "
                               f"expected {n}")
    if "face_down" in spec:
        count = sum(1 for o in view.objects.values() if o.face_down)
        if count != spec["face_down"]:
            raise run.fail(f"{prefix}viewer {viewer} sees {count} face-down objects, "
                           f"expected {spec['face_down']}")
