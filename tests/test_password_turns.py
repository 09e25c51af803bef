"""The turns of password checks (server.password_turns.TurnQueue), sans I/O: who runs, who
waits, who is refused -- the standing of each address given by a table the test sets."""

from __future__ import annotations

import random

import pytest

from server.password_turns import Turn, TurnQueue, TurnState


def _queue(workers: int = 2, most_waiting: int = 3) -> tuple[TurnQueue, dict[str, float]]:
    standing: dict[str, float] = {}
    return TurnQueue(workers, most_waiting, lambda a: standing.get(a, 10.0)), standing


def test_two_run_at_once_one_per_address_the_rest_wait_in_turn() -> None:
    queue, _standing = _queue(most_waiting=10)
    a1, none = queue.arrive("a")
    a2, _ = queue.arrive("a")
    b1, _ = queue.arrive("b")
    c1, _ = queue.arrive("c")
    assert none == []
    assert (a1.state, a2.state, b1.state, c1.state) == (
        TurnState.RUNNING, TurnState.WAITING, TurnState.RUNNING, TurnState.WAITING)
    assert (queue.running, queue.waiting) == (2, 2)
    # a's second check waits for a's first, however early it came: c's runs first.
    assert queue.finish(b1) == [c1]
    assert queue.finish(c1) == []  # (a is running: its next waits for it)
    assert queue.finish(a1) == [a2]
    assert queue.finish(a2) == []
    assert queue.addresses() == set()
    assert (a1.state, a2.state, b1.state, c1.state) == (TurnState.DONE,) * 4


def test_the_address_that_used_fewest_checks_lately_goes_first() -> None:
    """Sixty flood addresses used their burst; a real user's has checks left: its turn is
    next, before all the flood's that came earlier."""
    queue, standing = _queue(workers=1, most_waiting=100)
    first, _ = queue.arrive("flood0")
    for n in range(1, 60):
        standing[f"flood{n}"] = 2.0
        queue.arrive(f"flood{n}")
    standing["flood0"] = 2.0
    user, _ = queue.arrive("user")  # (standing 10)
    assert user.state is TurnState.WAITING
    assert queue.finish(first) == [user]
    # Whole tokens compared, then in arrival order.
    standing.update({"flood7": 2.9, "flood3": 2.1})
    nxt = queue.finish(user)
    assert [t.address for t in nxt] == ["flood1"]


def test_past_the_bound_the_newcomer_is_refused_unless_it_outranks_one_waiting() -> None:
    queue, standing = _queue(workers=1, most_waiting=3)
    standing.update({"x": 1.0, "y": 1.0, "z": 1.0})
    running, _ = queue.arrive("x")
    waiting = [queue.arrive(a)[0] for a in ("x", "y", "z")]
    assert queue.waiting == 3 and all(t.state is TurnState.WAITING for t in waiting)
    # As used as those waiting: refused at once.
    standing["w"] = 1.5
    late, pushed = queue.arrive("w")
    assert late.state is TurnState.REFUSED and late.refused and pushed == []
    # Fresher: it takes the place of the latest of the most used address's.
    standing["y"] = 0.0
    fresh, pushed = queue.arrive("fresh")
    assert fresh.state is TurnState.WAITING
    assert pushed == [waiting[1]] and waiting[1].refused
    assert queue.waiting == 3
    assert queue.finish(waiting[1]) == []  # (refused: nothing to do)
    assert queue.finish(running) == [fresh]


def test_a_waiting_turn_whose_client_left_is_dropped() -> None:
    queue, _standing = _queue(workers=1)
    running, _ = queue.arrive("a")
    left, _ = queue.arrive("b")
    stays, _ = queue.arrive("c")
    assert queue.finish(left) == [] and left.state is TurnState.DONE
    assert queue.waiting == 1
    assert queue.finish(running) == [stays]
    assert queue.finish(stays) == []
    assert queue.addresses() == set()


def test_none_may_wait() -> None:
    queue, _standing = _queue(workers=1, most_waiting=0)
    running, _ = queue.arrive("a")
    refused, _ = queue.arrive("b")
    assert running.state is TurnState.RUNNING and refused.refused


@pytest.mark.parametrize(("workers", "most_waiting"), [(0, 1), (1, -1)])
def test_a_queue_needs_a_worker(workers: int, most_waiting: int) -> None:
    with pytest.raises(ValueError, match="a queue of turns needs a worker"):
        TurnQueue(workers, most_waiting, lambda _a: 0.0)


@pytest.mark.parametrize("seed", range(20))
def test_random_arrivals_and_ends_keep_every_rule(seed: int) -> None:
    """Whatever arrives and ends: at most ``workers`` run, one per address; at most
    ``most_waiting`` wait; no worker is idle while an address not running waits; each turn
    started is of a highest-standing waiting address; every turn ends refused or done."""
    rng = random.Random(seed)
    workers, most = rng.randint(1, 3), rng.randint(0, 6)
    queue, standing = _queue(workers, most)
    addresses = [f"a{n}" for n in range(rng.randint(1, 8))]
    turns: list[Turn] = []
    live: list[Turn] = []
    for _ in range(400):
        for address in addresses:
            standing[address] = rng.choice([0.0, 0.5, 3.0, 3.7, 9.0])
        waiting_before = {t.address for t in live if t.state is TurnState.WAITING}
        if not live or rng.random() < 0.55:
            turn, changed = queue.arrive(rng.choice(addresses))
            turns.append(turn)
            if not turn.refused:
                live.append(turn)
        else:
            turn = rng.choice(live)
            changed = queue.finish(turn)
            assert turn.state is TurnState.DONE
        for other in changed:
            assert other.state in (TurnState.RUNNING, TurnState.REFUSED)
            if other.state is TurnState.RUNNING:
                best = max(int(standing[a]) for a in waiting_before
                           if a not in {t.address for t in live
                                        if t.state is TurnState.RUNNING and t is not other})
                assert int(standing[other.address]) == best
        live = [t for t in live if t.state in (TurnState.RUNNING, TurnState.WAITING)]
        running = [t.address for t in live if t.state is TurnState.RUNNING]
        waiting = [t.address for t in live if t.state is TurnState.WAITING]
        assert len(running) == len(set(running)) == queue.running <= workers
        assert len(waiting) == queue.waiting <= most
        if len(running) < workers:
            assert set(waiting) <= set(running)
    for turn in list(live):
        queue.finish(turn)
    assert queue.addresses() == set()
    assert all(t.state in (TurnState.DONE, TurnState.REFUSED) for t in turns)
