"""``client_sdk.policy``: how SDK bots (and the browser tests' clicking player) pick an
option -- uniformly, or eagerly by the options' kinds -- and ``manawire bots --policy``."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from client_sdk import bots
from client_sdk.policy import NEVER, Policy, eager_choice, pick, snake_case
from protocol.v1 import game_pb2 as pb
from server.cli import main

#: Every ``Action`` kind, as the protocol names it (the ``kind`` oneof's cases).
KINDS = [f.name for f in pb.Action.DESCRIPTOR.oneofs_by_name["kind"].fields]


def test_snake_case_turns_the_web_clients_kind_back_into_the_protocols() -> None:
    # The web client's data-kind is the JSON (lowerCamelCase) name of the oneof case.
    camel = {f.name: f.json_name for f in pb.Action.DESCRIPTOR.oneofs_by_name["kind"].fields}
    assert all(snake_case(json_name) == name for name, json_name in camel.items())
    assert snake_case("castSpell") == "cast_spell" and snake_case("accept") == "accept"


def test_eager_keeps_its_hand_and_never_concedes_when_it_can_do_anything_else() -> None:
    rng = random.Random(1)
    assert eager_choice(rng, ["take_mulligan", "keep_hand", "concede"]) == 1
    for _ in range(200):
        assert eager_choice(rng, ["concede", "choose_card", "choose_card"]) in (1, 2)
    # With nothing else left it concedes rather than get stuck.
    assert eager_choice(rng, ["concede"]) == 0


def test_eager_mostly_plays_a_land_casts_and_attacks_at_priority() -> None:
    rng = random.Random(2)
    priority = ["pass_priority", "play_land", "cast_spell", "activate_mana_ability"]
    picks = Counter(priority[eager_choice(rng, priority)] for _ in range(1_000))
    assert picks["play_land"] > 900 and picks["activate_mana_ability"] == 0
    no_land = ["pass_priority", "cast_spell", "activate_mana_ability"]
    picks = Counter(no_land[eager_choice(rng, no_land)] for _ in range(1_000))
    assert picks["cast_spell"] > 850 and picks["pass_priority"] > 50
    attack = ["declare_attacker", "declare_attacker", "finish_attackers"]
    picks = Counter(attack[eager_choice(rng, attack)] for _ in range(1_000))
    assert picks["declare_attacker"] > 850 and picks["finish_attackers"] > 50


def action(kind: str) -> pb.Action:
    """An ``Action`` of this kind (a KeyError if the protocol has no such kind)."""
    message = pb.Action.DESCRIPTOR.fields_by_name[kind].message_type
    assert message is not None
    return pb.Action(**{kind: getattr(pb, message.name)()})


def test_pick_reads_each_options_kind_from_the_protocol_message() -> None:
    # The kinds the eager policy prefers are the protocol's own (a rename fails here).
    rng = random.Random(3)
    assert set(KINDS) >= NEVER
    for preferred, other in [("keep_hand", "take_mulligan"), ("play_land", "pass_priority"),
                             ("declare_attacker", "finish_attackers"),
                             ("finish_blockers", "declare_blocker"),
                             ("pay_mana", "activate_mana_ability")]:
        options = [action(other), action(preferred)]
        assert Counter(pick(Policy.EAGER, rng, options) for _ in range(200))[1] > 150, preferred
    options = [action("pass_priority"), action("play_land")]
    assert set(Counter(pick(Policy.UNIFORM, rng, options) for _ in range(100))) == {0, 1}


def test_bots_command_passes_its_policy_to_the_bots(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    seen: list[Any] = []

    async def fake_games(*args: Any, **kwargs: Any) -> bots.Summary:
        seen.append(kwargs["policy"])
        return bots.Summary(games=1, completed=1)

    monkeypatch.setattr(bots, "run_bot_games", fake_games)
    assert main(["bots", "--policy", "eager"]) == 0
    assert main(["bots"]) == 0
    assert seen == [Policy.EAGER, Policy.UNIFORM]
    with pytest.raises(SystemExit) as exc:
        main(["bots", "--policy", "clever"])
    assert exc.value.code == 2
    assert "invalid choice: 'clever'" in capsys.readouterr().err


def test_neither_policy_takes_a_cast_back_while_anything_else_is_offered() -> None:
    """``cancel_cast`` (733.1) is offered at every step of a cast: a bot taking it would
    go round casting and cancelling. Alone, it is taken (there is nothing else)."""
    rng = random.Random(3)
    options = [pb.Action(choose_target=pb.ChooseTarget(target=pb.Target(player=1))),
               pb.Action(choose_target=pb.ChooseTarget(target=pb.Target(player=0))),
               pb.Action(cancel_cast=pb.CancelCast())]
    for policy in Policy:
        assert {pick(policy, rng, options) for _ in range(200)} <= {0, 1}
        assert pick(policy, rng, options[2:]) == 0
