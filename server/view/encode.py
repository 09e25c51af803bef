"""Encode views, deltas and decisions as protocol v1 messages.

The only server module besides the transport's envelope handling that imports generated
protobuf code. Everything encoded here was produced by :func:`server.view.project`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container
from typing import cast

from protocol import viewhash
from protocol.v1 import game_pb2 as pb
from server.cards.wording import target_words
from server.engine import Decision
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
from server.engine.autopay import being_paid, shortfall
from server.engine.board import board
from server.engine.casting import cost_increasers, modes_of, stack_targets
from server.engine.looking import ALSO_LIBRARY
from server.engine.mana import spendable
from server.engine.start import cards_to_bottom
from server.engine.state import Choice, DecisionKind, Game, GamePhase, Step, Zone
from server.view import wire
from server.view.diff import DeltaOp
from server.view.project import (
    HeaderBase,
    HeaderView,
    ObjectView,
    PlayerView,
    TriggerView,
    View,
    ZoneKey,
)


class ProjectionError(RuntimeError):
    """Something was about to be sent that the viewer's projection does not contain."""


def _zone_ref(key: ZoneKey) -> pb.ZoneRef:
    return pb.ZoneRef(kind=cast(pb.ZoneKind, int(key[0])), owner=key[1])


def _target(target: tuple[str, int | str]) -> pb.Target:
    kind, ref = target
    return pb.Target(player=int(ref)) if kind == "player" else pb.Target(object_id=str(ref))


def encode_object(obj: ObjectView) -> pb.GameObject:
    """One visible object."""
    msg = pb.GameObject(
        id=obj.id, zone=_zone_ref((obj.zone, obj.zone_owner)), owner=obj.owner,
        controller=obj.controller, name=obj.name, mana_cost=obj.mana_cost,
        mana_value=obj.mana_value, supertypes=obj.supertypes, card_types=obj.card_types,
        subtypes=obj.subtypes, colors=obj.colors, rules_text=obj.rules_text,
        tapped=obj.tapped, damage=obj.damage, summoning_sick=obj.summoning_sick,
        blocking=obj.blocking, targets=[_target(t) for t in obj.targets],
    )
    if obj.power is not None:
        msg.power = obj.power
    if obj.toughness is not None:
        msg.toughness = obj.toughness
    if obj.attacking is not None:
        msg.attacking = obj.attacking
    if obj.x_value is not None:
        msg.x_value = obj.x_value
    if obj.counters:
        msg.counters.extend(pb.Counter(kind=k, count=n) for k, n in obj.counters)
    if obj.attached_to is not None:
        msg.attached_to = obj.attached_to
    if obj.face_down:
        msg.face_down = True
    if obj.is_ability:
        msg.is_ability = True
        msg.ability_text = obj.ability_text
    if obj.modes:
        msg.modes.extend(obj.modes)
    if obj.attacking_planeswalker:
        msg.attacking_planeswalker = obj.attacking_planeswalker
    if obj.keywords:
        msg.keywords.extend(obj.keywords)
    if obj.is_token:
        msg.is_token = True
    if obj.chosen_name:
        msg.chosen_name = obj.chosen_name
    if obj.doesnt_untap:
        msg.doesnt_untap = True  # rule 502.3
    if obj.library_position >= 0:
        msg.library_position = obj.library_position
    if obj.stickers:
        msg.stickers.extend(pb.Sticker(kind=k, text=t) for k, t in obj.stickers)
    return msg


def encode_player(player: PlayerView) -> pb.Player:
    """A player's public information."""
    w, u, b, r, g, c = player.mana_pool
    return pb.Player(
        seat=player.seat, name=player.name, life=player.life,
        library_count=player.library_count, hand_count=player.hand_count,
        mana_pool=pb.ManaPool(white=w, blue=u, black=b, red=r, green=g, colorless=c),
        lands_played_this_turn=player.lands_played, has_lost=player.has_lost,
        poison=player.poison, mulligans=player.mulligans, max_hand_size=player.max_hand_size,
        planar_deck_count=player.planar_deck_count,
    )


def encode_header(header: HeaderView) -> pb.GameHeader:
    """Turn-level state."""
    step = cast(pb.Step, int(header.step))
    msg = pb.GameHeader(
        turn=header.turn, active_seat=header.active, step=step,
        phase=_PHASES[header.phase], starting_seat=header.starting_seat,
        triggers=[pb.WaitingTrigger(id=t.id, controller=t.controller, source_name=t.source_name,
                                    text=t.text) for t in header.triggers],
    )
    if header.priority is not None:
        msg.priority_seat = header.priority
    if header.planar_controller >= 0:
        msg.planar_controller = header.planar_controller  # rule 901.6
    if header.pending is not None:
        seat, kind, prompt_id = header.pending
        msg.pending.CopyFrom(pb.PendingInfo(
            seat=seat, kind=cast(pb.DecisionKind, int(kind)), prompt_id=prompt_id))
    if header.result is not None:
        winners, reason = header.result
        msg.result.CopyFrom(pb.GameResult(winners=winners, reason=reason))
    if header.combat_damage_step:
        msg.combat_damage_step = cast(pb.CombatDamageStep, int(header.combat_damage_step))
    return msg


def encode_header_parts(base: HeaderBase, tails: dict[tuple[object, ...], bytes] | None = None
                        ) -> tuple[bytes, bytes]:
    """A header's serialized fields around priority and the pending decision
    (:func:`server.view.wire.header_parts`): the same fields as :func:`encode_header`, which
    tests check byte for byte after every action of whole games. ``tails``: tails already
    encoded, by the part of the base they come from (kept by the caller; it changes seldom:
    result, phase, starting seat, waiting triggers, planar controller). The combat damage
    step, a field not hashed (numbered 1000 or above), is in neither part: see
    :func:`server.view.wire.header_unhashed`."""
    turn, active, step, result, phase, starting, triggers, planar, _ = base
    if tails is not None:
        key = base[3:8]
        tail = tails.get(key)
        if tail is not None:
            return wire.header_head(turn, active, int(step)), tail
        if len(tails) >= _TAILS_KEPT:
            tails.clear()
        head, tails[key] = encode_header_parts(base)
        return head, tails[key]
    return wire.header_parts(
        turn=turn, active_seat=active, step=int(step),
        result=pb.GameResult(winners=result[0], reason=result[1]) if result else None,
        phase=_PHASES[phase], starting_seat=starting,
        triggers=[pb.WaitingTrigger(id=t.id, controller=t.controller,
                                    source_name=t.source_name, text=t.text)
                  for t in triggers],
        planar_controller=planar if planar >= 0 else None)


#: How many header tails a caller of :func:`encode_header_parts` keeps.
_TAILS_KEPT = 32

_PHASES = {
    GamePhase.CHOOSE_STARTING_PLAYER: pb.GAME_PHASE_CHOOSE_STARTING_PLAYER,
    GamePhase.MULLIGANS: pb.GAME_PHASE_MULLIGANS,
    GamePhase.PLAYING: pb.GAME_PHASE_PLAYING,
}


class ObjectCache:
    """Encoded objects of one viewer's recent views, reused while the object is unchanged.

    Building protobuf messages dominates encoding cost; an :class:`ObjectView` is an immutable
    value, so an equal one always encodes to the same message.
    """

    def __init__(self) -> None:
        self._items: dict[str, tuple[ObjectView, pb.GameObject]] = {}

    def encode(self, obj: ObjectView) -> pb.GameObject:
        """The encoding of ``obj``, built only if it changed since last time."""
        hit = self._items.get(obj.id)
        if hit is not None and hit[0] == obj:
            return hit[1]
        msg = encode_object(obj)
        self._items[obj.id] = (obj, msg)
        return msg

    def __len__(self) -> int:
        return len(self._items)

    def keep_only(self, view: View) -> None:
        """Forget objects that are no longer in ``view``."""
        self.keep_only_ids(view.objects)

    def keep_only_ids(self, objects: Container[str]) -> None:
        """Forget objects whose ids are not in ``objects``."""
        for oid in [i for i in self._items if i not in objects]:
            del self._items[oid]


def encode_view(view: View, cache: ObjectCache | None = None) -> pb.View:
    """A whole view in canonical order (objects by id, zones by kind then owner)."""
    encode = cache.encode if cache is not None else encode_object
    return pb.View(
        viewer=view.viewer,
        header=encode_header(view.header),
        players=[encode_player(p) for p in view.players],
        objects=[encode(view.objects[oid]) for oid in sorted(view.objects)],
        zones=[
            pb.ZoneContents(zone=_zone_ref(key), object_ids=ids)
            for key, ids in sorted(view.zones.items())
        ],
    )


def view_hash(message: pb.View) -> bytes:
    """The view hash of a whole view (protocol/README.md; :mod:`protocol.viewhash`)."""
    return viewhash.view_hash(message)


def zone_contents(key: ZoneKey, ids: tuple[str, ...]) -> pb.ZoneContents:
    """One zone's visible contents, in order."""
    return pb.ZoneContents(zone=_zone_ref(key), object_ids=ids)


def encode_ops(ops: list[DeltaOp],
               encode_obj: Callable[[ObjectView], pb.GameObject] = encode_object
               ) -> list[pb.DeltaOp]:
    """Delta operations as protocol messages (objects encoded by ``encode_obj``: e.g. an
    :class:`ObjectCache`'s ``encode``)."""
    out = []
    for op in ops:
        if op.kind == "create" and op.obj is not None:
            out.append(pb.DeltaOp(create_object=encode_obj(op.obj)))
        elif op.kind == "update" and op.obj is not None:
            out.append(pb.DeltaOp(update_object=encode_obj(op.obj)))
        elif op.kind == "remove" and op.object_id is not None:
            out.append(pb.DeltaOp(remove_object=op.object_id))
        elif op.kind == "zone" and op.zone is not None:
            out.append(pb.DeltaOp(set_zone=pb.ZoneContents(zone=_zone_ref(op.zone),
                                                           object_ids=op.zone_ids)))
        elif op.kind == "player" and op.player is not None:
            out.append(pb.DeltaOp(set_player=encode_player(op.player)))
        elif op.kind == "header" and op.header is not None:
            out.append(pb.DeltaOp(set_header=encode_header(op.header)))
        else:
            raise ValueError(f"malformed delta op {op!r}")
    return out


def encode_action(action: Action, game: Game | None = None) -> pb.Action:
    """One option of a decision (with ``game``, the game it is an option of: an ability's
    or a mode's text goes with it, see :func:`option_words`)."""
    if isinstance(action, PassPriority):
        return pb.Action(pass_priority=pb.PassPriority())
    if isinstance(action, PlayLand):
        return pb.Action(play_land=pb.PlayLand(object_id=action.object_id))
    if isinstance(action, CastSpell):
        return pb.Action(cast_spell=pb.CastSpell(object_id=action.object_id))
    if isinstance(action, ChooseX):
        return pb.Action(choose_x=pb.ChooseX(value=action.value))
    if isinstance(action, ChooseTarget):
        target = (pb.Target(player=action.player) if action.player is not None
                  else pb.Target(object_id=action.object_id or ""))
        return pb.Action(choose_target=pb.ChooseTarget(target=target))
    if isinstance(action, ActivateManaAbility):
        return pb.Action(activate_mana_ability=pb.ActivateManaAbility(
            object_id=action.object_id, mana=action.mana, paid_with=action.paid_with))
    if isinstance(action, PayMana):
        return pb.Action(pay_mana=pb.PayMana(mana=action.mana, types=action.types))
    if isinstance(action, DeclareAttacker):
        return pb.Action(declare_attacker=pb.DeclareAttacker(
            object_id=action.object_id, defender=action.defender,
            planeswalker_id=action.planeswalker_id))
    if isinstance(action, FinishAttackers):
        return pb.Action(finish_attackers=pb.FinishAttackers())
    if isinstance(action, DeclareBlocker):
        return pb.Action(declare_blocker=pb.DeclareBlocker(object_id=action.object_id,
                                                           attacker_id=action.attacker_id))
    if isinstance(action, FinishBlockers):
        return pb.Action(finish_blockers=pb.FinishBlockers())
    if isinstance(action, AssignCombatDamage):
        return pb.Action(assign_combat_damage=pb.AssignCombatDamage(
            attacker_id=action.attacker_id,
            assignments=[pb.DamageAssignment(object_id=o, amount=n)
                         for o, n in action.assignments],
            partial=action.partial,
        ))
    if isinstance(action, Discard):
        return pb.Action(discard=pb.Discard(object_id=action.object_id))
    if isinstance(action, Concede):
        return pb.Action(concede=pb.Concede())
    return _encode_choice(action, game)


def option_words(game: Game, action: ActivateAbility | ChooseMode) -> str:
    """What an option does, as its card prints it, so the player can read it rather than
    an index: an activated ability's text (rule 602.1: "[Cost]: [Effect.]") or a mode's
    (rule 700.2: the bullet it is, in printed order). "" if the game can't tell (the
    printed text doesn't list the modes one by one)."""
    if isinstance(action, ActivateAbility):
        source = game.objects.get(action.object_id)
        if source is None:
            return ""
        abilities = source.activated_abilities
        return abilities[action.ability].text if action.ability < len(abilities) else ""
    casting = game.casting
    obj = game.objects.get(casting.object_id) if casting is not None else None
    if obj is None:
        return ""
    ability = obj.ability_def
    count = len(modes_of(obj))
    # The ability's own text, else its card's (a trigger's text may stop at "choose one --",
    # its bullets printed on the card below it: Trufflesnout's).
    for text in ((obj.card.rules_text,) if ability is None
                 else (ability.text, obj.card.rules_text)):
        modes = [line.lstrip("\u2022+ ").strip() for line in text.splitlines()
                 if line.startswith(("\u2022", "+ "))]  # "\u2022 Mode." (700.2), "+ {1} -- Mode."
        if len(modes) == count:
            return modes[action.mode] if action.mode < count else ""
    return ""


def _encode_choice(action: Action, game: Game | None) -> pb.Action:
    """Options of the choices added with the full game flow (rules 103, 404.3, 603.3b, 704.5j)."""
    if isinstance(action, ChooseStartingPlayer):
        return pb.Action(choose_starting_player=pb.ChooseStartingPlayer(seat=action.seat))
    if isinstance(action, KeepHand):
        return pb.Action(keep_hand=pb.KeepHand())
    if isinstance(action, TakeMulligan):
        return pb.Action(take_mulligan=pb.TakeMulligan())
    if isinstance(action, PutOnBottom):
        return pb.Action(put_on_bottom=pb.PutOnBottom(object_id=action.object_id))
    if isinstance(action, ChooseMode):
        return pb.Action(choose_mode=pb.ChooseMode(
            mode=action.mode, text=option_words(game, action) if game is not None else ""))
    if isinstance(action, ActivateAbility):
        return pb.Action(activate_ability=pb.ActivateAbility(
            object_id=action.object_id, ability=action.ability,
            text=option_words(game, action) if game is not None else ""))
    if isinstance(action, FinishTargets):
        return pb.Action(finish_targets=pb.FinishTargets())
    if isinstance(action, ChooseOrder):
        return pb.Action(choose_order=pb.ChooseOrder(object_id=action.object_id))
    if isinstance(action, KeepLegend):
        return pb.Action(keep_legend=pb.KeepLegend(object_id=action.object_id))
    if isinstance(action, Sacrifice):
        return pb.Action(sacrifice=pb.Sacrifice(object_id=action.object_id))
    if isinstance(action, ResetBlockers):
        return pb.Action(reset_blockers=pb.ResetBlockers())
    if isinstance(action, ResetAttackers):
        return pb.Action(reset_attackers=pb.ResetAttackers())
    if isinstance(action, PayAutomatically):
        return pb.Action(pay_automatically=pb.PayAutomatically())
    if isinstance(action, CancelCast):
        return pb.Action(cancel_cast=pb.CancelCast())
    if isinstance(action, Decline):
        return pb.Action(decline=pb.Decline())
    if isinstance(action, ChooseReplacement):
        return pb.Action(choose_replacement=pb.ChooseReplacement(
            object_id=action.object_id, replacement=action.replacement))
    return _encode_looking(action)


def _encode_looking(action: Action) -> pb.Action:
    """Options of scry, fateseal, search, clash and piles (rules 701.22-701.30, 700.3)."""
    if isinstance(action, PlaceCard):
        return pb.Action(place_card=pb.PlaceCard(object_id=action.object_id,
                                                 bottom=action.bottom))
    if isinstance(action, ChooseCard):
        return pb.Action(choose_card=pb.ChooseCard(object_id=action.object_id))
    if isinstance(action, ChoosePlayer):
        return pb.Action(choose_player=pb.ChoosePlayer(seat=action.seat))
    if isinstance(action, ChoosePile):
        return pb.Action(choose_pile=pb.ChoosePile(pile=action.pile))
    if isinstance(action, ChooseColor):  # rule 105.4
        return pb.Action(choose_color=pb.ChooseColor(color=action.color))
    if isinstance(action, ChooseName):  # rule 608.2d
        return pb.Action(choose_name=pb.ChooseName(name=action.name))
    if isinstance(action, FinishModes):
        return pb.Action(finish_modes=pb.FinishModes())
    if isinstance(action, Accept):
        return pb.Action(accept=pb.Accept())
    if isinstance(action, RollPlanarDie):
        return pb.Action(roll_planar_die=pb.RollPlanarDie(mana=action.mana))  # rule 901.9
    if isinstance(action, ChooseOutsideCard):  # rule 400.11b
        return pb.Action(choose_outside_card=pb.ChooseOutsideCard(index=action.index,
                                                                  name=action.name))
    if isinstance(action, ChooseExilePile):  # rule 406.4
        return pb.Action(choose_exile_pile=pb.ChooseExilePile(
            object_ids=list(action.object_ids)))
    raise TypeError(f"unknown action {action!r}")


def _referenced_ids(action: Action) -> list[str]:
    if isinstance(action, AssignCombatDamage):
        return [action.attacker_id, *(o for o, _ in action.assignments if o)]
    if isinstance(action, ChooseExilePile):
        return list(action.object_ids)
    ids = [getattr(action, name, None) for name in ("object_id", "attacker_id",
                                                     "planeswalker_id")]
    return [i for i in ids if isinstance(i, str) and i]


_PROMPTS = {
    "PRIORITY": "You have priority: act or pass.",
    "CHOOSE_X": "Choose the value of X.",
    "CHOOSE_TARGET": "Choose a target.",
    "PAY_MANA": "Pay the cost: activate mana abilities, then choose the mana to spend (or "
                "decline to pay an 'unless ... pays' or 'you may pay' cost).",
    "DECLARE_ATTACKERS": "Declare attackers, then finish.",
    "DECLARE_BLOCKERS": "Declare blockers, then finish.",
    "ASSIGN_COMBAT_DAMAGE": "Divide this attacker's combat damage among its blockers.",
    "DISCARD": "Choose a card to discard (for 'up to N', decline to discard no more).",
    "CHOOSE_STARTING_PLAYER": "Choose who takes the first turn.",
    "MULLIGAN": "Keep this hand or take a mulligan.",
    "BOTTOM_CARD": "Put a card from your hand on the bottom of your library.",
    "CHOOSE_MODE": "Choose a mode.",
    "ORDER_TRIGGERS": "Choose the next triggered ability to put on the stack.",
    "ORDER_GRAVEYARD": "Choose the next card to put into your graveyard (first is lowest).",
    "LEGEND_RULE": "Choose the legendary permanent to keep.",
    "SACRIFICE": "Choose a permanent to sacrifice.",
    "CHOOSE_COST": "Choose what to sacrifice, discard or tap to pay the cost.",
    "CHOOSE_REPLACEMENT": "Choose which replacement effect applies.",
    "CHOOSE_DEFENDER": "Choose what this creature entering attacking attacks.",
    "SCRY": "Put each card you are looking at on the top or the bottom of the library.",
    "SEARCH": "Choose a card to find, or stop searching.",
    "CHOOSE_PLAYER": "Choose an opponent.",
    "SEPARATE_PILES": "Choose the cards of the first pile, then finish.",
    "CHOOSE_PILE": "Choose a pile.",
    "CHOOSE_CARD": "Choose a card from the revealed hand, or an object for the resolving "
                   "effect (decline to choose no more).",
    "CLASH": "Keep the revealed card on top of your library, or put it on the bottom.",
    "CHOOSE_PARTY": "Choose a creature for your party (one Cleric, Rogue, Warrior, Wizard).",
    "MAY": "Take the optional action (accept) or not (decline).",
    "CHOOSE_COLOR": "Choose a color.",
    "CHOOSE_NAME": "Choose one of the names offered (a keyword ability, or a card name).",
    "CHOOSE_OUTSIDE_CARD": "You may choose a card you own from outside the game to bring in.",
    "CHOOSE_EXILED_CARD": "Choose an exiled card, or a pile of face-down exiled cards.",
    "CAST_MADNESS": "Cast the exiled card for its madness cost, or put it into your graveyard.",
}


def encode_decision(decision: Decision, view: View, room_id: str, state_id: int,
                    game: Game | None = None) -> pb.Decision:
    """The pending decision for the viewer who must make it (``game``: the game it is
    pending in, for the texts of abilities and modes).

    Passes through the projection: every object an option names must be in the viewer's view,
    or :class:`ProjectionError` is raised and nothing is sent.
    """
    return decision_for(decision, view.viewer, view.objects, view.header.triggers,
                        room_id=room_id, state_id=state_id, game=game)


def decision_for(decision: Decision, viewer: int, objects: Container[str],
                 triggers: tuple[TriggerView, ...], *, room_id: str,
                 state_id: int, game: Game | None = None) -> pb.Decision:
    """:func:`encode_decision` from the parts of the view it checks against: the viewer,
    the ids of the objects in the view and the triggered abilities waiting in its header.
    An ability's or a mode's text (:func:`option_words`) is the deciding player's to read:
    the ability is of an object in their view, the mode of the spell they are casting."""
    if viewer != decision.seat:
        raise ProjectionError("a decision is only sent to the seat that must make it")
    waiting = {t.id for t in triggers}
    for action in decision.options:
        for oid in _referenced_ids(action):
            if oid not in objects and oid not in waiting:
                raise ProjectionError("decision option names an object hidden from the viewer")
    prompt = _PROMPTS[decision.kind.name]
    if game is not None:
        prompt = _prompt(game, decision, objects) or prompt
    asking = _asking(game, objects) if game is not None else ""
    return pb.Decision(
        room_id=room_id, prompt_id=decision.prompt_id, seat=decision.seat,
        kind=cast(pb.DecisionKind, int(decision.kind)),
        options=[encode_action(a, game) for a in decision.options],
        state_id=state_id, prompt=f"{asking}: {prompt}" if asking else prompt,
    )


def _prompt(game: Game, decision: Decision, objects: Container[str]) -> str:
    """A prompt that says what is asked, from what the pending choice knows -- the cost to
    pay, the optional action, the sort of target, the cards left to discard; "" to use the
    kind's general words. All of it is the deciding player's to know (the spell or ability
    is theirs, on the stack; the hand and its size are theirs)."""
    kind = decision.kind
    if kind is DecisionKind.PAY_MANA:
        return _paying(game, decision.seat, objects)
    if kind is DecisionKind.CHOOSE_TARGET:
        return _targeting(game)
    if kind is DecisionKind.ASSIGN_COMBAT_DAMAGE:
        return _dividing(decision)
    choice = game.choices[0] if game.casting is None and game.choices else None
    if choice is None or choice.kind is not kind or choice.seat != decision.seat:
        return ""
    if kind is DecisionKind.MAY:
        return _may(game, choice, objects)
    if kind is DecisionKind.DISCARD:
        return _discarding(game, choice)
    if kind is DecisionKind.BOTTOM_CARD:
        return _bottoming(game, choice)
    return ""


def _dividing(decision: Decision) -> str:
    """An ``ASSIGN_COMBAT_DAMAGE`` prompt (510.1c) for a trampler (702.19b-c), whose
    division may give the rest to the player or planeswalker it attacks (an option's
    assignment to ``""``): the kind's words named its blockers only, while the options
    offered damage to the player too (a new player's finding). A division asked one
    recipient at a time (too many ways to list) says so. "" otherwise."""
    if any(isinstance(option, AssignCombatDamage) and option.partial
           for option in decision.options):
        return ("Divide this attacker's combat damage one creature at a time: choose how much "
                "the next one gets; the rest is divided next.")
    if any(isinstance(option, AssignCombatDamage) and
           any(target == "" for target, _amount in option.assignments)
           for option in decision.options):
        return ("Divide this attacker's combat damage among its blockers and, as it has "
                "trample, the player or planeswalker it attacks.")
    return ""


def _bottoming(game: Game, choice: Choice) -> str:
    """A ``BOTTOM_CARD`` prompt (103.5): which of the cards to put on the bottom this is --
    "(1 of 2)" -- as a new player asked (the count is public: the mulligans taken)."""
    total = cards_to_bottom(game, choice.seat)
    done = total - choice.count
    if total < 2 or not 0 <= done < total:
        return ""  # (one card: the kind's general words say it)
    return (f"Put a card from your hand on the bottom of your library ({done + 1} of "
            f"{total}).")


def _targeting(game: Game) -> str:
    """A ``CHOOSE_TARGET`` prompt (601.2c): what sort of target this instance of the word
    "target" asks for, and how many ("Choose a target -- any target.")."""
    casting = game.casting
    obj = game.objects.get(casting.object_id) if casting is not None else None
    if casting is None or obj is None:
        return ""
    reqs = stack_targets(obj)
    if len(obj.target_groups) >= len(reqs):
        return ""
    req = reqs[len(obj.target_groups)]
    words = target_words(req)
    chosen = casting.chosen_in_group
    if req.up_to:
        return (f"Choose up to {req.count} target{'s' if req.count > 1 else ''} ({chosen} "
                f"chosen; finish to choose no more) -- {words}.")
    if req.count > 1:
        return f"Choose {req.count} targets ({chosen} chosen) -- {words}."
    return f"Choose a target -- {words}."


def _may(game: Game, choice: Choice, objects: Container[str]) -> str:
    """A ``MAY`` prompt (608.2d): the optional action, as the resolving spell or ability
    prints it ("You may draw a card.") -- else its verb -- and what accepting does."""
    if choice.group[:1] == [ALSO_LIBRARY]:
        return ("Search your library too? Accept to search your library and graveyard "
                "(then shuffle your library); decline to search only your graveyard.")
    effect = choice.effect
    source = game.objects.get(choice.pool[0]) if choice.pool else None
    if effect is None:
        return ""
    verb = effect.verb.value.replace("_", " ")
    text = ""
    if source is not None and source.id in objects:
        ability = source.ability_def
        text = ability.text if ability is not None else source.card.rules_text
    sentences = [m.group(1) for m in re.finditer(r"\b[Yy]ou may ([^.]*)\.", text)]
    said = [s for s in sentences if s.startswith(verb.split()[0])]
    action = said[0] if said else sentences[0] if len(sentences) == 1 else verb
    return f"You may {action}. Accept to do it, or decline."


def _discarding(game: Game, choice: Choice) -> str:
    """A ``DISCARD`` prompt (701.9b, 514.1): how many cards are still to be discarded."""
    left = choice.count
    cards = f"{left} more card{'s' if left != 1 else ''}"
    if choice.optional:
        return f"Choose a card to discard: up to {cards} (decline to discard no more)."
    if game.resolving is None and game.step is Step.CLEANUP:
        size = game.player(choice.seat).max_hand_size
        return (f"Discard down to your maximum hand size ({size}): choose a card, {cards} "
                "to discard.")
    return f"Choose a card to discard: {cards} to discard."


def _paying(game: Game, seat: int, objects: Container[str]) -> str:
    """A ``PAY_MANA`` decision's prompt: the cost, and how much more mana the player's pool
    needs for it (all the paying player's own to know: the cost of what they cast, their
    pool). A new user saw the same words at every payment, never what was left to pay.
    "Counter ... unless its controller pays" (118.12a) says what not paying does: "Pay {3} or
    Miscast counters your Shock" (both on the stack, public)."""
    cost, spell = being_paid(game)
    short = shortfall(spendable(game, seat, spell), cost)
    pay = f"Pay {str(cost) or '{0}'}" + (_increased(game, seat) if game.casting is not None
                                         else _unless(game, objects) or " or decline")
    if not short:
        pending = game.pending
        if pending is not None and any(isinstance(o, PayMana) and o.types
                                       for o in pending.options):
            # (too many ways to list: one mana type at a time, server.engine.mana)
            return (f"{pay}: your mana pool covers it -- choose the mana to spend, one "
                    f"type at a time.")
        return f"{pay}: your mana pool covers it -- choose the mana to spend."
    return (f"{pay}: {short} more mana to add -- tap a source for it, or pay "
            f"automatically.")


def _increased(game: Game, seat: int) -> str:
    """" (Vryn Wingmare makes it cost more)" (601.2f) while paying for a spell whose cost
    permanents on the battlefield (public) increase; "" for any other payment. A new player
    was asked "Pay {2}{G}" for Titanic Growth with no word of the Wingmare."""
    casting = game.casting
    obj = game.objects.get(casting.object_id) if casting is not None else None
    if obj is None or obj.is_ability or not board(game).cost_changers:
        return ""
    more = cost_increasers(game, seat, obj)
    if not more:
        return ""
    return f" ({', '.join(more)} make{'s' if len(more) == 1 else ''} it cost more)"


def _unless(game: Game, objects: Container[str]) -> str:
    """" or Miscast counters your Shock (decline to let it)" for an "unless ... pays" payment
    (118.12a, 701.6a), "" for any other."""
    choice = game.choices[0] if game.choices else None
    if choice is None or choice.may_pay or choice.kind is not DecisionKind.PAY_MANA \
            or not choice.pool:
        return ""
    target = game.objects.get(choice.pool[0])
    res = game.resolving
    by = game.objects.get(res.object_id) if res is not None else None
    if target is None or target.id not in objects:
        return ""
    what = f"{target.card.name}'s ability" if target.is_ability else target.card.name
    whose = "your" if target.controller == choice.seat else "the"
    if by is None or by.id not in objects:
        return f" or {whose} {what} is countered (decline to let it be)"
    counterer = f"{by.card.name}'s ability" if by.is_ability else by.card.name
    return f" or {counterer} counters {whose} {what} (decline to let it)"


def _asking(game: Game, objects: Container[str]) -> str:
    """The spell or ability a decision is part of -- being cast or activated (601.2), or
    resolving (608.2) -- by name, if the viewer sees it (on the stack: it does): "Shock",
    "Pitchburn Devils's ability". "" for any other decision."""
    ref = game.casting.object_id if game.casting is not None else \
        game.resolving.object_id if game.resolving is not None else None
    obj = game.objects.get(ref) if ref is not None and ref in objects else None
    if obj is None or obj.zone is not Zone.STACK:
        return ""
    return f"{obj.card.name}'s ability" if obj.is_ability else obj.card.name
