"""Retrograde analysis: counts, values equal to exact search, impartial theory, cycles, scores."""

import pickle
import random
from functools import reduce
from operator import xor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from layered_games import TakeOneTwoFive, WithoutKeys

from zerosum.game import Restorable, Vectorized
from zerosum.games.connect4 import ConnectFour
from zerosum.games.tictactoe import TicTacToe
from zerosum.search import alphabeta
from zerosum.search.engine import Engine
from zerosum.solve import Progress, retrograde, solve

TICTACTOE = TicTacToe()


def reachable(game, start):
    """Every position reachable from `start`, by key (an independent enumeration)."""
    seen, stack = {}, [start]
    while stack:
        state = stack.pop()
        key = game.key(state)
        if key not in seen:
            seen[key] = state
            if not game.is_terminal(state):
                stack.extend(game.result(state, move) for move in game.legal_moves(state))
    return seen


def random_position(game, rng, low, high):
    """The position after `low` to `high` random moves from the start (fewer if the game ends)."""
    state = game.initial_state()
    for _ in range(rng.randint(low, high)):
        if game.is_terminal(state):
            break
        state = game.result(state, rng.choice(game.legal_moves(state)))
    return state


@pytest.fixture(scope="module")
def connect4_table():
    return solve(ConnectFour(4, 4), workers=1)


def test_tictactoe_has_5478_positions_958_terminal(tictactoe_table):
    counts = tictactoe_table.counts
    assert (counts.positions, counts.terminal) == (5478, 958)
    assert counts.wins + counts.draws + counts.losses == 5478
    assert (counts.wins, counts.draws, counts.losses) == (2836, 1068, 1574)


def test_tictactoe_layers_count_stones_and_the_last_is_all_terminal(tictactoe_table):
    layers = tictactoe_table.layers
    assert [layers[n].positions for n in range(10)] == [
        1,
        9,
        72,
        252,
        756,
        1260,
        1520,
        1140,
        390,
        78,
    ]
    assert layers[9].terminal == 78 and layers[5].terminal == 120


def test_tictactoe_empty_board_is_a_draw_in_9_plies_every_square_holding_it(tictactoe_table):
    entry = tictactoe_table.probe(TICTACTOE.initial_state())
    assert (entry.value, entry.distance) == (0, 9)
    assert entry.best_moves == tuple(range(9))


def test_tictactoe_every_position_equals_alphabeta_value_and_distance(tictactoe_table):
    positions = reachable(TICTACTOE, TICTACTOE.initial_state())
    assert len(positions) == len(tictactoe_table)
    for state in positions.values():
        exact = alphabeta(TICTACTOE, state, distance=True)
        entry = tictactoe_table.probe(state)
        assert entry.value == exact.value, TICTACTOE.format_state(state)
        if exact.value != 0:
            assert entry.distance == exact.plies, TICTACTOE.format_state(state)
        if entry.best_moves:
            assert exact.best_move in entry.best_moves or exact.value == 0


def test_tictactoe_best_moves_keep_the_value_and_the_distance(tictactoe_table):
    state = TICTACTOE.parse_state("XX.OO....")  # X to move wins at once on square 2
    entry = tictactoe_table.probe(state)
    assert (entry.value, entry.distance, entry.best_moves) == (1, 1, (2,))
    state = TICTACTOE.parse_state("X...O...X")  # O must not take a corner
    entry = tictactoe_table.probe(state)
    assert entry.value == 0 and set(entry.best_moves) == {1, 3, 5, 7}


def test_finished_game_is_a_loss_at_distance_0_without_moves(tictactoe_table):
    entry = tictactoe_table.probe(TICTACTOE.parse_state("XXXOO...."))
    assert (entry.value, entry.distance, entry.best_moves) == (-1, 0, ())


def test_position_outside_the_table_is_a_value_error(tictactoe_table):
    start = TICTACTOE.parse_state("XO.......")
    small = solve(TICTACTOE, [start], workers=1)
    assert start in small and TICTACTOE.initial_state() not in small
    with pytest.raises(ValueError, match="not in the table"):
        small.probe(TICTACTOE.initial_state())
    assert small.probe(start).value == tictactoe_table.probe(start).value


def test_connect4_4x4_has_161029_positions_and_the_empty_board_is_a_draw(connect4_table):
    assert connect4_table.counts.positions == 161_029
    assert connect4_table.probe(ConnectFour(4, 4).initial_state()).value == 0


def test_connect4_4x4_random_positions_equal_alphabeta(connect4_table):
    game, rng = ConnectFour(4, 4), random.Random(8)
    for _ in range(60):
        state = random_position(game, rng, 4, 12)
        exact = alphabeta(game, state, distance=True)
        entry = connect4_table.probe(state)
        assert entry.value == exact.value
        if exact.value != 0:
            assert entry.distance == exact.plies


class Unlayered:
    """A game seen without its layers, so that the counting propagation solves it."""

    def __init__(self, game):
        self.game = game

    def __getattr__(self, name):
        if name == "layer":
            raise AttributeError(name)
        return getattr(self.game, name)

    def initial_state(self):
        return self.game.initial_state()

    def to_move(self, state):
        return self.game.to_move(state)

    def legal_moves(self, state):
        return self.game.legal_moves(state)

    def result(self, state, move):
        return self.game.result(state, move)

    def is_terminal(self, state):
        return self.game.is_terminal(state)

    def utility(self, state, player):
        return self.game.utility(state, player)

    def key(self, state):
        return self.game.key(state)


def test_counting_propagation_equals_layer_by_layer_on_tictactoe(tictactoe_table):
    flat = solve(Unlayered(TICTACTOE))
    assert not flat.layered and flat.counts == tictactoe_table.counts
    for state in reachable(TICTACTOE, TICTACTOE.initial_state()).values():
        assert flat.probe(state) == tictactoe_table.probe(state)


def test_two_worker_processes_build_the_same_table_file(tictactoe_table, monkeypatch, tmp_path):
    monkeypatch.setattr(retrograde, "MIN_CHUNK", 100)  # several tasks a layer: the pool runs
    table = solve(TICTACTOE, workers=2)
    for ours, theirs in zip(table.sections, tictactoe_table.sections, strict=True):
        assert ours == theirs
    table.save(tmp_path / "two.tb")
    tictactoe_table.save(tmp_path / "one.tb")
    assert (tmp_path / "two.tb").read_bytes() == (tmp_path / "one.tb").read_bytes()


def test_layers_valued_in_chunks_of_7_positions_give_the_same_table(tictactoe_table, monkeypatch):
    monkeypatch.setattr(retrograde, "MAX_CHUNK", 7)
    assert solve(TICTACTOE, workers=1).sections == tictactoe_table.sections


def test_two_workers_solve_a_layer_where_both_sides_move_like_one(monkeypatch):
    monkeypatch.setattr(retrograde, "MIN_CHUNK", 2)  # layers of 4 to 16 nodes split in tasks
    game = TwiceInARow(list(range(-3, 4)) + list(range(3, -6, -1)))
    assert solve(game, workers=2).sections == solve(game, workers=1).sections


def test_connect4_board_too_wide_for_64_bit_keys_is_not_rebuilt():
    with pytest.raises(ValueError, match="9x7 board has keys wider than 64 bits"):
        ConnectFour(9, 7).from_keys(np.array([0], np.uint64))


class RestorableOnly:
    """Connect Four without its array rules (`Vectorized`): rebuilt from keys, but expanded one
    position at a time."""

    def __init__(self, width, height):
        self.game = ConnectFour(width, height)

    def __getattr__(self, name):
        if name in ("game", "expand_keys", "layers"):
            raise AttributeError(name)
        return getattr(self.game, name)


@pytest.mark.parametrize(
    ("make", "workers", "carry"),
    [
        (lambda: ConnectFour(4, 3), 1, retrograde.VECTORS),
        (lambda: ConnectFour(4, 3), 2, retrograde.VECTORS),
        (lambda: RestorableOnly(4, 3), 1, retrograde.STATES),
        (lambda: RestorableOnly(4, 3), 2, retrograde.KEYS),
        (lambda: TwiceInARow([0] * 16), 1, retrograde.STATES),
        (lambda: TwiceInARow([0] * 16), 2, retrograde.PICKLED),
    ],
)
def test_positions_travel_as_keys_or_states_as_the_game_and_the_workers_allow(make, workers, carry):
    assert retrograde._carry(make(), workers) == carry


@pytest.mark.parametrize("game", [ConnectFour(4, 3), RestorableOnly(4, 3)], ids=["arrays", "keys"])
def test_a_restorable_game_sends_its_positions_to_the_next_tasks_as_keys(game):
    start = game.initial_state()
    carry = retrograde._carry(game, 2)
    payloads = retrograde._split({game.key(start): start}, 1, carry)
    *_, following = retrograde.expand(game, 0, payloads, retrograde.Parts({}, 3), carry)
    assert list(following) == [1] and len(following[1]) == 3  # the next layer, in three tasks
    sent = [payload for payload in following[1] if payload is not None]
    assert all(payload.dtype == np.uint64 for payload in sent)
    children = {game.key(game.result(start, move)) for move in game.legal_moves(start)}
    assert sorted(np.concatenate(sent).tolist()) == sorted(children)


def test_another_layered_game_sends_its_positions_pickled():
    game = TwiceInARow([0] * 16)
    carry = retrograde._carry(game, 2)
    payloads = retrograde._split({1: 1}, 1, carry)
    *_, following = retrograde.expand(game, 0, payloads, retrograde.Parts({}, 2), carry)
    sent = [pickle.loads(payload) for payload in following[1] if payload is not None]
    assert sorted(key for payload in sent for key in payload) == [2, 3]


def test_one_or_two_workers_with_or_without_array_rules_build_the_same_table(monkeypatch):
    monkeypatch.setattr(retrograde, "MIN_CHUNK", 50)  # several tasks a layer: the pool runs
    tables = [solve(game, workers=workers) for game in (ConnectFour(4, 3), RestorableOnly(4, 3))
              for workers in (1, 2)]  # fmt: skip
    assert all(table.sections == tables[0].sections for table in tables)


def test_a_vectorized_game_is_built_in_one_process_unless_told(monkeypatch):
    asked, real = [], retrograde.mapper
    monkeypatch.setattr(
        retrograde, "mapper", lambda workers, scheduler: asked.append(workers) or real(1, None)
    )
    for game, workers in ((ConnectFour(3, 3), None), (RestorableOnly(3, 3), None),
                          (ConnectFour(3, 3), 2)):  # fmt: skip
        solve(game, workers=workers)
    assert asked == [1, None, 2]  # None: every core


def scalar_rules(game, states):
    """What `expand_keys` must give, from the game's own rules one position at a time."""
    movers, counts, utilities, children = [], [], [], []
    for state in states:
        mover, over = game.to_move(state), game.is_terminal(state)
        moves = () if over else game.legal_moves(state)
        movers.append(mover)
        counts.append(len(moves))
        utilities.append(game.utility(state, mover) if over else 0)
        children += [game.key(game.result(state, move)) for move in moves]
    return movers, counts, utilities, children


def assert_key_rules_match(game, states):
    """The game's rules on arrays of keys give what its rules give one state at a time: the
    states rebuilt, the expansion, the layers."""
    assert isinstance(game, Restorable) and isinstance(game, Vectorized)
    keys = np.array([game.key(state) for state in states], np.uint64)
    assert game.from_keys(keys) == states  # a won Connect Four too: its `won` flag is rebuilt
    assert [column.tolist() for column in game.expand_keys(keys)] == list(
        scalar_rules(game, states)
    )
    assert game.layers(keys).tolist() == [game.layer(state) for state in states]


def test_tictactoe_rules_on_keys_match_its_rules_on_every_position():
    assert_key_rules_match(
        TICTACTOE, list(reachable(TICTACTOE, TICTACTOE.initial_state()).values())
    )


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 9), st.integers(1, 6), st.integers(2, 5), st.randoms(use_true_random=False))
def test_connect4_rules_on_keys_match_its_rules(width, height, connect, rng):
    game = ConnectFour(width, height, connect)
    assert_key_rules_match(game, [random_position(game, rng, 0, game.cells) for _ in range(30)])


def test_progress_reports_both_phases_and_every_position():
    reports = []
    solve(TICTACTOE, workers=1, progress=reports.append)
    assert all(isinstance(report, Progress) for report in reports)
    for phase in ("enumerate", "propagate"):
        done = [r.positions for r in reports if r.phase == phase]
        assert done[-1] == 5478 and done == sorted(done)
    assert reports[-1].memory > 0


class Nim:
    """Normal-play Nim: take any number from one heap; who cannot move loses."""

    def __init__(self, heaps):
        self.heaps = tuple(heaps)

    def initial_state(self):
        return (self.heaps, 0)

    def to_move(self, state):
        return state[1]

    def legal_moves(self, state):
        return [(i, n) for i, heap in enumerate(state[0]) for n in range(1, heap + 1)]

    def result(self, state, move):
        heaps, player = state
        i, n = move
        return (heaps[:i] + (heaps[i] - n,) + heaps[i + 1 :], 1 - player)

    def is_terminal(self, state):
        return not any(state[0])

    def utility(self, state, player):
        return -1 if player == state[1] else 1

    def key(self, state):
        heaps, player = state
        return reduce(lambda acc, heap: acc * 16 + heap, heaps, 0) * 2 + player


class Subtraction(Nim):
    """Take 1 to `most` counters from one pile; who cannot move loses."""

    def __init__(self, pile, most):
        super().__init__([pile])
        self.pile, self.most = pile, most

    def legal_moves(self, state):
        return [(0, n) for n in range(1, min(self.most, state[0][0]) + 1)]


def test_nim_losses_for_the_mover_are_boutons_zero_xor_positions():
    game = Nim([3, 5, 7])
    table = solve(game)
    positions = reachable(game, game.initial_state())
    assert len(table) == len(positions) == 376
    for heaps, player in positions.values():
        entry = table.probe((heaps, player))
        assert (entry.value < 0) == (reduce(xor, heaps) == 0), heaps


def test_nim_358_winning_moves_are_the_ones_leaving_zero_xor():
    game = Nim([3, 5, 8])
    entry = solve(game).probe(game.initial_state())
    assert entry.value == 1
    winning = {
        (i, n)
        for i, n in game.legal_moves(game.initial_state())
        if reduce(xor, game.result(game.initial_state(), (i, n))[0]) == 0
    }
    assert winning == {(2, 2)}
    assert set(entry.best_moves) <= winning


def test_subtraction_game_losses_are_the_multiples_of_most_plus_one():
    game = Subtraction(30, 3)
    table = solve(game, [((30,), 0), ((30,), 1)])
    for pile in range(31):
        entry = table.probe(((pile,), 0))
        assert (entry.value < 0) == (pile % 4 == 0), pile
        if entry.value < 0:
            assert entry.distance == 2 * (pile // 4)


class Token:
    """A token on a directed graph: the mover slides it along an edge; who cannot move loses.

    Cycles in the graph make endless play possible: those positions are draws.
    """

    def __init__(self, edges, start):
        self.edges, self.start = edges, start

    def initial_state(self):
        return (self.start, 0)

    def to_move(self, state):
        return state[1]

    def legal_moves(self, state):
        return self.edges[state[0]]

    def result(self, state, move):
        return (move, 1 - state[1])

    def is_terminal(self, state):
        return not self.edges[state[0]]

    def utility(self, state, player):
        return -1 if player == state[1] else 1

    def key(self, state):
        return state[0] * 2 + state[1]


def fixed_point_values(edges):
    """Win (+1), loss (-1) or draw (0) of every vertex for the mover, by repeated sweeps."""
    value = {}
    changed = True
    while changed:
        changed = False
        for vertex, targets in enumerate(edges):
            if vertex in value:
                continue
            if any(value.get(t) == -1 for t in targets):
                value[vertex], changed = 1, True
            elif all(value.get(t) == 1 for t in targets):
                value[vertex], changed = -1, True
    return [value.get(vertex, 0) for vertex in range(len(edges))]


def test_token_game_with_a_cycle_gives_wins_losses_and_endless_draws():
    #  0 <-> 1 -> 2 (dead end);  3 <-> 4 (a cycle with no way out)
    game = Token([[1], [0, 2], [], [4], [3]], 0)
    table = solve(game, [(v, 0) for v in range(5)])
    outcomes = [(e.value, e.distance) for e in (table.probe((v, 0)) for v in range(5))]
    assert outcomes == [(-1, 2), (1, 1), (-1, 0), (0, None), (0, None)]
    assert table.probe((3, 0)).best_moves == (4,)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 9).flatmap(
        lambda n: st.lists(st.lists(st.integers(0, n - 1), max_size=3), min_size=n, max_size=n)
    )
)
def test_token_game_values_equal_the_fixed_point_on_random_graphs(edges):
    game = Token(edges, 0)
    table = solve(game, [(v, 0) for v in range(len(edges))])
    expected = fixed_point_values(edges)
    assert [table.probe((v, 0)).value for v in range(len(edges))] == expected


class Scored:
    """Leaves of a complete binary tree of depth 4 carry scores for player 0 (from -3 to 3)."""

    def __init__(self, scores):
        self.scores = scores

    def initial_state(self):
        return 1

    def to_move(self, state):
        return state.bit_length() % 2 ^ 1

    def legal_moves(self, state):
        return (0, 1)

    def result(self, state, move):
        return state * 2 + move

    def is_terminal(self, state):
        return state >= 16

    def utility(self, state, player):
        score = self.scores[state - 16]
        return score if player == 0 else -score

    def key(self, state):
        return state


class LayeredScored(Scored):
    """The same tree, solved layer by layer (a layer is a depth)."""

    def layer(self, state):
        return state.bit_length() - 1


class TwiceInARow(LayeredScored):
    """The same layered tree where the side to move follows the node's number, not its depth,
    so that a player may move twice in a row and both sides move within one layer."""

    def to_move(self, state):
        return state % 3 % 2


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-3, 3), min_size=16, max_size=16),
    st.sampled_from([Scored, LayeredScored, TwiceInARow]),
)
def test_scored_game_values_and_distances_equal_alphabeta(scores, kind):
    game = kind(scores)
    table = solve(game, workers=1)
    for state in range(1, 32):
        exact = alphabeta(game, state, distance=True)
        entry = table.probe(state)
        assert entry.value == exact.value
        if exact.value != 0:
            assert entry.distance == exact.plies


class ScoredToken(Token):
    """The token game where a win is worth 2."""

    def utility(self, state, player):
        return 2 * super().utility(state, player)


def test_game_with_cycles_and_scores_is_refused():
    game = ScoredToken([[1], [0], [1, 3], []], 2)  # 0 <-> 1 is a cycle, 3 a dead end
    with pytest.raises(ValueError, match="cycles and scores"):
        solve(game)


def test_unkeyed_game_is_refused():
    class Bare:
        def initial_state(self):
            return 0

    with pytest.raises(ValueError, match="Keyed"):
        solve(Bare())


def test_keys_must_be_unsigned_64_bit_integers():
    game = Token([[1], []], 0)
    game.key = lambda state: (state[0], state[1])
    with pytest.raises(ValueError, match="integer keys"):
        solve(game)


class Skipping(ConnectFour):
    """Connect Four whose layer counts every stone twice: each move adds two."""

    def layer(self, state):
        return state[2] * 2

    def layers(self, keys):
        return super().layers(keys) * 2


class SkippingScored(LayeredScored):
    """The scored tree whose layer is the node's number: a move doubles it, and more."""

    def layer(self, state):
        return state


class Standing(ConnectFour):
    """Connect Four whose layer is the stones of the first player: the second's moves stay."""

    def layer(self, state):
        return (state[2] + 1) // 2

    def layers(self, keys):
        return (super().layers(keys) + 1) // 2


class Falling(LayeredScored):
    """The scored tree whose layer goes down a move."""

    def layer(self, state):
        return -super().layer(state)


@pytest.mark.parametrize(
    ("game", "plain"),
    [(Skipping(3, 3), ConnectFour(3, 3)), (SkippingScored([1, -2] * 8), Scored([1, -2] * 8))],
    ids=["arrays", "one"],
)
def test_a_move_may_skip_layers_the_table_holds_the_same_values(game, plain):
    skipping, flat = solve(game, workers=1), solve(plain, workers=1)
    assert len(skipping) == len(flat)
    for state in reachable(plain, plain.initial_state()).values():
        assert skipping.lookup(state) == flat.lookup(state)


@pytest.mark.parametrize(
    ("game", "refusal"),
    [
        (Standing(3, 2), "from layer 1 reaches layer 1"),
        (Falling([0] * 16), "from layer 0 reaches layer -1"),
    ],
    ids=["arrays", "one"],
)
def test_a_move_that_stays_in_its_layer_or_goes_back_is_refused(game, refusal):
    with pytest.raises(ValueError, match=f"a move {refusal}: .* must go to a later layer"):
        solve(game, workers=1)


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("make", [TakeOneTwoFive, WithoutKeys], ids=["keys", "pickled"])
def test_take_one_two_or_five_is_solved_by_its_layers_of_stones_taken(make, workers, monkeypatch):
    monkeypatch.setattr(retrograde, "MIN_CHUNK", 8)  # several tasks a layer on two workers
    game = make(6, heaps=3)  # a move takes 1, 2 or 5 stones: the layer grows by as many
    table = solve(game, workers=workers)
    positions = reachable(game, game.initial_state())
    assert len(table) == len(positions) and len(table.sections) == 19  # 0 to 18 stones taken
    flat = solve(Unlayered(game))
    for state in positions.values():
        assert table.lookup(state) == flat.lookup(state)
    # 6 = 0 (mod 3): each heap's Grundy value is its stones mod 3, and 0 ^ 0 ^ 0 loses
    assert table.lookup(game.initial_state())[0] == -1


@pytest.mark.parametrize("make", [TakeOneTwoFive, WithoutKeys], ids=["keys", "pickled"])
def test_take_one_two_or_five_by_layers_has_the_values_and_distances_of_alphabeta(make):
    game = make(5, heaps=2)
    table = solve(game, workers=1)
    for state in reachable(game, game.initial_state()).values():
        exact, entry = alphabeta(game, state, distance=True), table.probe(state)
        assert entry.value == exact.value and entry.distance == exact.plies


def test_a_position_in_the_tablebase_is_looked_up_never_searched(tictactoe_table):
    engine = Engine(TICTACTOE, tablebase=tictactoe_table)
    result = engine.search(TICTACTOE.initial_state())
    assert (result.value, result.exact) == (0, True)
    assert engine.tablebase_hits == 9  # the nine replies, each read from the table
    assert result.stats.nodes == 10
    lost = TICTACTOE.parse_state("XO..X....")  # O to move loses, slowest in four plies by 8
    found = Engine(TICTACTOE, tablebase=tictactoe_table).search(lost)
    assert (found.value, found.plies, found.best_move) == (-1, 4, 8)


def test_the_engine_with_a_tablebase_agrees_with_alphabeta_on_connect_four_4x4(connect4_table):
    game, rng = ConnectFour(4, 4), random.Random(7)
    for _ in range(15):
        state = random_position(game, rng, 4, 9)
        if game.is_terminal(state):
            continue
        looked_up = Engine(game, tablebase=connect4_table).search(state)
        searched = alphabeta(game, state, distance=True)
        assert (looked_up.value, looked_up.plies) == (searched.value, searched.plies)
