"""Script steps: each answers the pending decision, strictly."""

from __future__ import annotations

from typing import Any

from server.engine import (
    DecisionKind,
    IllegalActionError,
    apply,
)
from server.engine.actions import (
    Accept,
    Action,
    ActivateAbility,
    ActivateManaAbility,
    AssignCombatDamage,
    CancelCast,
    CastSpell,
    ChooseCard,
    ChooseColor,
    ChooseExilePile,
    ChooseMode,
    ChooseName,
    ChooseOrder,
    ChooseOutsideCard,
    ChoosePile,
    ChoosePlayer,
    ChooseReplacement,
    ChooseStartingPlayer,
    ChooseTarget,
    ChooseX,
    Concede,
    DeclareAttacker,
    DeclareBlocker,
    Decline,
    Discard,
    FinishAttackers,
    FinishBlockers,
    FinishModes,
    FinishTargets,
    KeepHand,
    KeepLegend,
    PassPriority,
    PayAutomatically,
    PayMana,
    PlaceCard,
    PlayLand,
    PutOnBottom,
    ResetAttackers,
    ResetBlockers,
    RollPlanarDie,
    Sacrifice,
    TakeMulligan,
)
from server.scenarios.expect import check_expectations
from server.scenarios.position import (
    Run,
    as_kind,
    as_list,
    as_seat,
    as_step,
    check_keys,
)

#: ``pass_until`` gives up after this many decisions.
MAX_PASSES = 2000

_ACTION_KEYS = {
    "pass", "play", "cast", "activate", "mode", "x", "target", "target_player",
    "finish_targets", "tap", "pay", "attack", "finish_attacks", "block", "finish_blocks",
    "assign", "discard", "choose_starting_player", "keep", "mulligan", "bottom", "order",
    "keep_legend", "sacrifice", "reset_blocks", "reset_attacks", "pay_auto", "cancel_cast",
    "decline",
    "replacement",
    "scry_top",
    "scry_bottom", "choose_card", "choose_player", "pile", "finish_modes", "accept",
    "roll_planar_die", "wish", "exile_pile", "choose_color", "choose_name",
}
_STEP_KEYS = _ACTION_KEYS | {"seat", "ability", "defender", "attacker", "pass_until", "check",
                             "expect_options", "concede", "damage", "times", "planeswalker",
                             "mana", "paid_with", "reset_blocks", "sacrifice"}


def _matcher(run: Run, step: dict[str, Any]) -> Any:
    """A predicate over actions for a script step naming one action."""
    keys = [k for k in step if k in _ACTION_KEYS]
    if len(keys) != 1:
        raise run.error(f"step {step!r} must name exactly one action of {sorted(_ACTION_KEYS)}")
    key = keys[0]
    value = step[key]
    r = run.refers
    if key == "pay" and isinstance(value, str):
        # Rule 601.2h: exactly this mana, in any letter order.
        wanted = "".join(sorted(value, key="WUBRGC".find))
        # (a payment asked in steps, past MAX_OPTIONS ways: the step on the way to it)
        return lambda a: isinstance(a, PayMana) and (
            a.mana == wanted if not a.types else
            all(a.mana.count(t) == wanted.count(t) for t in "WUBRGC"[:a.types]))
    simple: dict[str, type[Action]] = {
        "pass": PassPriority, "finish_targets": FinishTargets, "pay": PayMana,
        "finish_attacks": FinishAttackers, "finish_blocks": FinishBlockers, "keep": KeepHand,
        "mulligan": TakeMulligan, "reset_blocks": ResetBlockers, "reset_attacks": ResetAttackers,
        "pay_auto": PayAutomatically, "cancel_cast": CancelCast,
        "decline": Decline,
        "finish_modes": FinishModes, "accept": Accept,
    }
    by_object: dict[str, type[Action]] = {
        "play": PlayLand, "cast": CastSpell, "tap": ActivateManaAbility, "discard": Discard,
        "bottom": PutOnBottom, "order": ChooseOrder, "keep_legend": KeepLegend,
        "sacrifice": Sacrifice,
    }
    if key in simple:
        cls = simple[key]
        return lambda a: isinstance(a, cls)
    if key == "tap" and ("mana" in step or "paid_with" in step):
        return lambda a: isinstance(a, ActivateManaAbility) and r(a.object_id, value) and \
            a.mana == step.get("mana", a.mana) and \
            a.paid_with == step.get("paid_with", a.paid_with)
    if key in by_object:
        cls = by_object[key]
        return lambda a: isinstance(a, cls) and r(getattr(a, "object_id", None), value)
    if key == "activate":
        index = step.get("ability", 0)
        return lambda a: isinstance(a, ActivateAbility) and r(a.object_id, value) and \
            a.ability == index
    if key in ("scry_top", "scry_bottom"):
        bottom = key == "scry_bottom"
        return lambda a: isinstance(a, PlaceCard) and r(a.object_id, value) and \
            a.bottom == bottom
    if key == "choose_card":
        return lambda a: isinstance(a, ChooseCard) and r(a.object_id, value)
    if key == "choose_player":
        return lambda a: isinstance(a, ChoosePlayer) and a.seat == value
    if key == "pile":
        return lambda a: isinstance(a, ChoosePile) and a.pile == value
    if key == "choose_color":  # rule 105.4: a color letter
        return lambda a: isinstance(a, ChooseColor) and a.color == value
    if key == "choose_name":  # rule 608.2d: one of the names offered
        return lambda a: isinstance(a, ChooseName) and a.name == value
    if key == "wish":  # rule 400.11b: a card from outside the game, by name
        return lambda a: isinstance(a, ChooseOutsideCard) and a.name == value
    if key == "exile_pile":  # rule 406.4: the face-down pile holding that card
        return lambda a: isinstance(a, ChooseExilePile) and any(r(i, value)
                                                                for i in a.object_ids)
    if key == "roll_planar_die":  # rules 901.9, 116.2i: `true`, or the mana paid ("C")
        mana = "" if value is True else "".join(sorted(str(value), key="WUBRGC".find))
        return lambda a: isinstance(a, RollPlanarDie) and (value is True or a.mana == mana)
    if key == "mode":
        return lambda a: isinstance(a, ChooseMode) and a.mode == value
    if key == "replacement":
        # Rule 616.1: the effect by its kind ("exile") or by the permanent whose it is.
        return lambda a: isinstance(a, ChooseReplacement) and (
            a.replacement == value or (bool(a.object_id) and r(a.object_id, value)))
    if key == "x":
        return lambda a: isinstance(a, ChooseX) and a.value == value
    if key == "target":
        return lambda a: isinstance(a, ChooseTarget) and a.object_id is not None and \
            r(a.object_id, value)
    if key == "target_player":
        return lambda a: isinstance(a, ChooseTarget) and a.player == value
    if key == "choose_starting_player":
        return lambda a: isinstance(a, ChooseStartingPlayer) and a.seat == value
    if key == "attack":
        defender = step.get("defender")
        walker = step.get("planeswalker")
        return lambda a: isinstance(a, DeclareAttacker) and r(a.object_id, value) and \
            (defender is None or a.defender == defender) and \
            (r(a.planeswalker_id, walker) if walker is not None else not a.planeswalker_id)
    if key == "block":
        attacker = step.get("attacker")
        return lambda a: isinstance(a, DeclareBlocker) and r(a.object_id, value) and \
            (attacker is None or r(a.attacker_id, attacker))
    # assign: {attacker: X, damage: [[blocker, n], ...]}
    spec = value if isinstance(value, dict) else {}
    pairs = spec.get("damage", [])

    def assign(a: Action) -> bool:
        if not isinstance(a, AssignCombatDamage) or not r(a.attacker_id, spec.get("attacker")):
            return False
        # "player" names what a trampler attacks (the engine's "" recipient, 702.19b); a
        # division asked in steps (past MAX_OPTIONS ways): the step on the way to it.
        size = len(a.assignments)
        return (size == len(pairs) or (a.partial and size < len(pairs))) and all(
            (r(oid, want[0]) or (oid == "" and want[0] == "player")) and n == want[1]
            for (oid, n), want in zip(a.assignments, pairs, strict=False))

    return assign


def do_step(run: Run, step: dict[str, Any], index: int) -> None:
    game = run.game
    where = f"step {index + 1} {step!r}"
    unknown = sorted(set(step) - _STEP_KEYS)
    if unknown:
        raise run.error(f"{where}: unknown key(s) {unknown}")
    if "check" in step:
        check_expectations(run, step["check"], f"{where}: ")
        return
    if "expect_options" in step:
        _expect_options(run, step["expect_options"], where)
        return
    if "concede" in step:
        apply(game, as_seat(run, game, step["concede"]), Concede())
        return
    if "pass_until" in step:
        _pass_until(run, step["pass_until"], where)
        return
    if "pass" in step and step["pass"] is not True and "times" in step:
        raise run.error(f"{where}: use either 'pass: N' or 'times: N', not both")
    count = step["pass"] if "pass" in step and step["pass"] is not True else \
        step.get("times", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise run.error(f"{where}: 'pass: N' and 'times: N' take a positive number")
    match = _matcher(run, step)
    for _ in range(count):
        # (a payment or division asked in steps, MAX_OPTIONS: a step per mana type or
        # recipient, until the whole answer is taken)
        for _part in range(_MOST_STEPS):
            d = game.pending
            if d is None:
                raise run.fail(f"{where}: nothing is pending ({run.pending_text()})")
            if "seat" in step and d.seat != step["seat"]:
                raise run.fail(f"{where}: expected a decision for seat {step['seat']}, "
                               f"pending is {run.pending_text()}")
            chosen = next((a for a in d.options if match(a)), None)
            if chosen is None:
                raise run.fail(f"{where}: not a legal option; pending is "
                               f"{run.pending_text()}")
            try:
                run.last_events = apply(game, d.seat, chosen)
            except IllegalActionError as exc:  # pragma: no cover - options are legal
                raise run.fail(f"{where}: {exc}") from None
            after = game.pending
            if not ((isinstance(chosen, PayMana) and chosen.types) or
                    (isinstance(chosen, AssignCombatDamage) and chosen.partial)) or \
                    after is None or after.kind is not d.kind:
                break  # (the last step may leave one way, taken without asking)


#: The most steps one answer asked in steps takes: a division among this many recipients.
_MOST_STEPS = 64


def _pass_until(run: Run, spec: Any, where: str) -> None:
    """Pass priority (and declare no attackers or blockers) until the given step/turn.

    Any other decision met on the way fails the scenario: strict mode.
    """
    if not isinstance(spec, dict):
        raise run.error(f"{where}: pass_until is a mapping with 'step' (and 'turn')")
    step = as_step(run, spec.get("step"))
    turn = spec.get("turn")
    game = run.game
    for _ in range(MAX_PASSES):
        d = game.pending
        if d is None:
            raise run.fail(f"{where}: the game ended first ({game.result})")
        if game.step is step and (turn is None or game.turn == turn) and \
                d.kind is DecisionKind.PRIORITY:
            return
        quiet = {DecisionKind.PRIORITY: PassPriority(),
                 DecisionKind.DECLARE_ATTACKERS: FinishAttackers(),
                 DecisionKind.DECLARE_BLOCKERS: FinishBlockers()}.get(d.kind)
        if quiet is None or quiet not in d.options:
            raise run.fail(f"{where}: a decision the script did not answer: "
                           f"{run.pending_text()}")
        apply(game, d.seat, quiet)
    raise run.fail(f"{where}: did not reach {step.name.lower()}")


def _expect_options(run: Run, spec: Any, where: str) -> None:
    if not isinstance(spec, dict):
        raise run.error(f"{where}: expect_options is a mapping")
    check_keys(run, "expect_options", spec, {"seat", "kind", "include", "exclude", "count"})
    d = run.game.pending
    if d is None:
        raise run.fail(f"{where}: nothing is pending")
    if "seat" in spec and d.seat != spec["seat"]:
        raise run.fail(f"{where}: pending is {run.pending_text()}, not seat {spec['seat']}")
    if "kind" in spec and d.kind is not as_kind(run, spec["kind"]):
        raise run.fail(f"{where}: pending is {run.pending_text()}, not {spec['kind']}")
    # ``count``: the choices of the decision -- not the take-back every cast or activation
    # begun by its caster offers besides (CancelCast: ``include``/``exclude`` see it).
    choices = sum(1 for a in d.options if not isinstance(a, CancelCast))
    if "count" in spec and choices != spec["count"]:
        raise run.fail(f"{where}: {choices} options, not {spec['count']}: "
                       f"{run.pending_text()}")
    for item in as_list(run, spec.get("include", []), "include"):
        if not any(_matcher(run, item)(a) for a in d.options):
            raise run.fail(f"{where}: {item!r} is not offered; pending is {run.pending_text()}")
    for item in as_list(run, spec.get("exclude", []), "exclude"):
        if any(_matcher(run, item)(a) for a in d.options):
            raise run.fail(f"{where}: {item!r} is offered but must not be; "
                           f"pending is {run.pending_text()}")
