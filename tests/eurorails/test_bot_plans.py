"""The greedy bot steered plan by plan (the ``plans`` agent's interface), and the bot's
plans when its train is full."""

from __future__ import annotations

import random

from tests.eurorails.helpers import lay, place, set_turn, standard

import motherlode
from motherlode.agents import create
from motherlode.games.eurorails.bot import GreedyAgent
from motherlode.games.eurorails.game import BUILD, EurorailsGame, EurorailsState


def midgame(seed: int = 1, decisions: int = 300) -> EurorailsState:
    """A position after ``decisions`` greedy decisions of a 2-player game."""
    game = EurorailsGame.from_config(players=2)
    s = motherlode.deal(game, seed=seed)
    assert isinstance(s, EurorailsState)
    bots = [GreedyAgent(game, seed=q) for q in range(2)]
    rng = random.Random(seed)
    done = 0
    while done < decisions:
        if s.is_chance_node():
            s.apply_action(s.sample_chance(rng))
            continue
        s.apply_action(bots[s.current_player()].act(s))
        done += 1
    while s.is_chance_node():
        s.apply_action(s.sample_chance(rng))
    return s


def test_plans_are_the_bots_deliveries_its_favourite_first() -> None:
    s = midgame()
    p = s.current_player()
    bot = GreedyAgent(s.game)
    offered = bot.plans(s, 4)
    assert 2 <= len(offered) <= 4
    assert len(set(offered)) == len(offered)
    assert offered[0] == bot._commit  # what it would carry out on its own
    for seat, card, load, city in offered:
        assert seat == p and card in s.hands[p]
        assert any(d.load == load and d.city == city for d in s.game.demands[card])
    assert bot.plans(s, 1) == offered[:1]


def test_a_followed_plan_is_carried_out_and_not_offered_again_until_the_hand_changes() -> None:
    s = midgame()
    bot = GreedyAgent(s.game)
    second = bot.plans(s, 4)[1]
    bot.follow(s, second)
    action = bot.act(s)
    assert action in s.legal_actions()
    assert bot._commit == second  # the plan it now carries out
    assert bot.plans(s, 4) == []  # nothing to choose: the hand is the one it chose from
    fresh = GreedyAgent(s.game)  # as in a simulation: told the plan, never asked for plans
    fresh.follow(s, second)
    assert fresh.plans(s, 4) == []
    changed = s.clone()
    p = s.current_player()
    other = next(c for c in range(1, 147) if c not in changed.hands[p] and c in changed.draw)
    changed.hands[p][0] = other  # as if a demand were met and a card drawn
    assert bot.plans(changed, 4) != []


def test_a_full_train_plans_only_deliveries_of_its_loads() -> None:
    """A plan that needs a load picked up is not made while the train has no room:
    the bot would sit at the supply city, unable to pick up, with its loads aboard."""
    s = midgame()
    p = s.current_player()
    wanted = [d.load for c in s.hands[p] for d in s.game.demands[c]]
    s.loads[p] = [wanted[0], wanted[3]]  # two loads its cards ask for: a full Freight
    assert len(s.loads[p]) == s.game.board.train_capacity[s.train[p]]
    offered = GreedyAgent(s.game).plans(s, 9)
    assert offered
    assert all(load in s.loads[p] for _, _, load, _ in offered)
    s.loads[p] = [wanted[0]]
    assert any(load not in s.loads[p] for _, _, load, _ in GreedyAgent(s.game).plans(s, 9))


def test_the_plans_agent_plays_legal_moves_and_searches_at_decision_points() -> None:
    s = midgame(decisions=200)
    agent = create("plans:iterations=6,depth=2", s.game, seed=3)
    p = s.current_player()
    searched = 0
    for _ in range(40):
        while s.is_chance_node():
            s.apply_action(s.chance_outcomes()[0][0])
        if s.current_player() != p:
            s.apply_action(GreedyAgent(s.game).act(s))
            continue
        action = agent.act(s)
        assert action in s.legal_actions()
        if agent.last_search:  # type: ignore[attr-defined]
            searched += 1
            k = len(agent.last_search["plans"])  # type: ignore[attr-defined]
            # rounds of every plan under the same chance, until 6 simulations are done
            assert agent.last_search["iterations"] == k * -(-6 // k)  # type: ignore[attr-defined]
            agent.last_search = {}  # type: ignore[attr-defined]
        s.apply_action(action)
    assert searched >= 1


def test_the_bot_asks_for_building_actions_edge_by_edge_as_the_engine_lists_them() -> None:
    """The bot never builds the whole list of building actions; its one-edge test must
    accept exactly the edges ``legal_actions()`` lists, in every building phase of a game."""
    game = EurorailsGame.from_config(players=2)
    s = motherlode.deal(game, seed=3)
    assert isinstance(s, EurorailsState)
    bots = [GreedyAgent(game, seed=q) for q in range(2)]
    rng = random.Random(3)
    checked = 0
    while not s.is_terminal() and checked < 60:
        if s.is_chance_node():
            s.apply_action(s.sample_chance(rng))
            continue
        if s.phase == BUILD and not s.pending:
            p = s.turn_player()
            listed = {a for a in s.legal_actions() if a < game.U0}
            asked = {a for a in range(game.U0) if GreedyAgent._can_build(s, p, a)}
            assert asked == listed
            checked += 1
        s.apply_action(bots[s.current_player()].act(s))
    assert checked == 60


def _dead_end(s: EurorailsState, start: int, length: int) -> list[int]:
    """A straight line of ``length`` clear mileposts out of milepost ``start``, no city on
    it or next to its end."""
    b = s.game.board
    for d in range(6):
        line = [start]
        while len(line) <= length:
            x = b.nb[line[-1] * 6 + d]
            if x < 0 or b.eid[line[-1] * 6 + d] < 0 or b.city_of[x] >= 0 or b.terrain[x] != 0:
                break
            line.append(x)
        end = line[-1]
        near = [b.nb[end * 6 + k] for k in range(6)]
        if len(line) > length and all(y < 0 or b.city_of[y] < 0 for y in near):
            return line
    raise AssertionError("no straight clear line there")


def test_a_train_that_cannot_reverse_builds_toward_the_nearest_city() -> None:
    """At the end of its own dead-end track, not in a city, a train may not reverse (rules
    2): the bot builds on from where it stands toward a city, not a spur to turn on."""
    s = standard(2)
    b = s.game.board
    paris = b.city_index("Paris")
    out = next(m for m in b.city_posts[paris][1:] if _can_line(s, m))
    line = _dead_end(s, out, 3)
    lay(s, 0, line)
    place(s, 0, line[-1], line[-2])
    set_turn(s, 0, BUILD)
    s.cash[0] = 200
    bot = GreedyAgent(s.game)
    assert bot.stuck(s, 0)
    first = bot.act(s)
    assert first // 6 == line[-1] and b.nb[first] != line[-2]  # on, from where it stands
    for _ in range(40):
        if not bot.stuck(s, 0):
            break
        action = bot.act(s)
        assert action != s.game.END_BUILD, "it gave up with the train still stuck"
        s.apply_action(action)
    assert not bot.stuck(s, 0)  # a city is now reachable without reversing
    at_end = [d for d in range(6) if s.edge_owner[b.eid[line[-1] * 6 + d]] == 0]
    assert len(at_end) == 2  # one line on from the dead end, no spurs beside it


def _can_line(s: EurorailsState, m: int) -> bool:
    try:
        _dead_end(s, m, 3)
    except AssertionError:
        return False
    return True
