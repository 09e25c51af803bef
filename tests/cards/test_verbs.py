"""Effects as one frozen dataclass per verb (server/cards/verbs.py): the classes, the loader's
reading of them and the engine's performers must cover the closed verb vocabulary exactly."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from server.cards import (
    _EFFECT_FIELD_PARSERS,
    _EFFECT_TYPE_PARSERS,
    CardDataError,
    CardDef,
    _effect_hints,
    _effect_keys,
    _effect_value,
)
from server.cards.amounts import Amount, ObjectValue, Of, Trait, X
from server.cards.model import Players, Verb
from server.cards.verbs import (
    AMOUNTED,
    CLASS_OF_VERB,
    EFFECT_CLASSES,
    Affecting,
    CreateToken,
    DealDamage,
    Draw,
    EffectBase,
    Targeting,
)
from server.engine import effects
from tests.engine.helpers import load_one


def _load(behaviour: dict[str, Any]) -> CardDef:
    """A one-card pool's card "T" (a sorcery) with ``behaviour``."""
    raw = {"name": "T", "types": ["Sorcery"], "manaCost": "{2}{B}", "text": "Something."}
    return load_one(raw, behaviour)["T"]


def test_each_verb_has_exactly_one_class() -> None:
    """The verb -> class map is a bijection over Verb (rule 608.2c: one instruction, one verb)."""
    assert set(CLASS_OF_VERB) == set(Verb)
    assert len(set(CLASS_OF_VERB.values())) == len(Verb) == len(EFFECT_CLASSES)
    assert all(CLASS_OF_VERB[cls.verb] is cls for cls in EFFECT_CLASSES)


def test_107_1_amounted_names_exactly_the_classes_with_an_amount() -> None:
    with_amount = {cls for cls in EFFECT_CLASSES
                   if "amount" in {f.name for f in dataclasses.fields(cls)}}
    assert set(AMOUNTED) == with_amount and len(AMOUNTED) == 27


def test_effect_classes_are_frozen_slotted_and_keyword_only() -> None:
    for cls in EFFECT_CLASSES:
        params = getattr(cls, "__dataclass_params__", None)
        assert params is not None and params.frozen and "__slots__" in cls.__dict__, cls
        assert all(f.kw_only for f in dataclasses.fields(cls)), cls
        assert "verb" not in {f.name for f in dataclasses.fields(cls)}, cls  # a class variable


def test_each_class_has_exactly_one_performer() -> None:
    """Import-time check re-run: every class is performed by one registered function whose
    annotation accepts it; registering a second performer is refused."""
    effects._check_performers()
    assert set(effects._PERFORMERS) == set(EFFECT_CLASSES)
    with pytest.raises(TypeError, match="two performers"):
        effects.performs(Draw)(lambda act, effect: None)


def test_every_effect_field_has_a_parser() -> None:
    """The loader reads each data key of each class by the field's annotation (or name)."""
    for cls in EFFECT_CLASSES:
        hints = _effect_hints(cls)
        for name, field in _effect_keys(cls).items():
            parse = _EFFECT_FIELD_PARSERS.get(field.name) or _EFFECT_TYPE_PARSERS.get(
                hints[field.name])
            assert parse is not None, (cls.__name__, name)


def test_an_unknown_key_names_the_card_the_verb_and_the_keys_it_takes() -> None:
    with pytest.raises(CardDataError, match=r"card 'T'.*unknown field\(s\) \['counter'\]: draw "
                                            r"takes \['amount', .*'who'\]"):
        _load({"effects": [{"verb": "draw", "counter": "+1/+1"}]})


def test_a_missing_required_field_names_the_verb() -> None:
    with pytest.raises(CardDataError, match=r"card 'T'.*create_token needs a 'token'"):
        _load({"effects": [{"verb": "create_token"}]})


def test_a_value_is_read_by_its_annotation() -> None:
    with pytest.raises(CardDataError, match=r"effects\[0\]\.optional: expected true or false"):
        _load({"effects": [{"verb": "draw", "optional": "yes"}]})
    with pytest.raises(CardDataError, match=r"effects\[0\]\.who: unknown value 'everyone'"):
        _load({"effects": [{"verb": "draw", "who": "everyone"}]})
    assert _effect_value("w", "amount", Amount, "X") == X()  # X (rule 107.3)


def test_a_derived_field_is_not_a_data_key() -> None:
    """An "X/X" token sets token_x; the flag itself is no key."""
    assert "token_x" not in _effect_keys(CreateToken)
    with pytest.raises(CardDataError, match="unknown field"):
        _load({"effects": [{"verb": "create_token", "token": {"power": 1, "toughness": 1},
                               "token_x": True}]})


def test_120_3_damage_equal_to_power_is_an_amount() -> None:
    card = _load({"effects": [{"verb": "deal_damage", "target": "any", "amount": {
        "kind": "object", "of": "source", "trait": "power"}}]})
    (effect,) = card.effects
    assert isinstance(effect, DealDamage)
    assert effect.amount == ObjectValue(Of.SOURCE, Trait.POWER)


def test_who_and_target_belong_to_the_verbs_that_name_them() -> None:
    assert issubclass(DealDamage, Targeting) and issubclass(Targeting, Affecting)
    assert not any(f.name in ("who", "target")
                   for f in dataclasses.fields(CLASS_OF_VERB[Verb.END_TURN]))
    assert issubclass(CLASS_OF_VERB[Verb.END_TURN], EffectBase)
    with pytest.raises(CardDataError, match=r"unknown field\(s\) \['who'\]: end_turn takes"):
        _load({"effects": [{"verb": "end_turn", "who": Players.YOU.value}]})
