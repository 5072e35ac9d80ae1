"""The Python package against known optima: the 3×3 sample puzzles, 20 of Korf's 100, an
unsolvable board, bad boards, a time-limited 5×5 anytime answer with its bound, solve_many on
several threads, and Ctrl-C stopping a search."""

import _thread
import pathlib
import threading

import numpy as np
import pytest

import npuzzle

ROOT = pathlib.Path(__file__).resolve().parents[2]


def manifest(dimension):
    """(file name, optimal moves) of the sample puzzles of side `dimension`."""
    rows = (line.split("\t") for line in (ROOT / "puzzles" / "manifest.tsv").read_text().splitlines())
    return [(name, int(moves)) for name, side, moves in (row for row in rows if len(row) == 3 and row[1].isdigit())
            if int(side) == dimension]


def korf(count):
    """The first `count` of Korf's 100: (id, optimal moves, tiles)."""
    rows = [line.split("\t") for line in (ROOT / "benchmarks" / "korf100.tsv").read_text().splitlines()
            if line and not line.startswith("#")]
    return [(ident, int(moves), [int(t) for t in tiles.split()]) for ident, moves, tiles in rows[:count]]


def replays_to_goal(tiles, path):
    """Whether the blank's moves `path` take `tiles` to the goal, every move legal."""
    n = int(len(tiles) ** 0.5)
    tiles = list(tiles)
    blank = tiles.index(0)
    for step in path:
        row, col = divmod(blank, n)
        target = {"U": blank - n if row > 0 else None, "D": blank + n if row < n - 1 else None,
                  "L": blank - 1 if col > 0 else None, "R": blank + 1 if col < n - 1 else None}[step]
        if target is None:
            return False
        tiles[blank], tiles[target] = tiles[target], tiles[blank]
        blank = target
    return tiles == list(range(1, n * n)) + [0]


@pytest.mark.parametrize("name,optimal", manifest(3))
def test_every_3x3_sample_puzzle_gets_its_optimum(name, optimal):
    board = npuzzle.Board.parse((ROOT / "puzzles" / name).read_text())
    solution = npuzzle.solve(board)
    assert solution.moves == optimal
    if optimal < 0:
        assert not solution.solvable and solution.path is None and not board.is_solvable()
        return
    assert solution.optimal and solution.lower_bound == optimal
    assert len(solution.path) == optimal and replays_to_goal(board.tiles, solution.path)


def test_twenty_korf_instances_get_their_published_optima_one_by_one_and_all_at_once():
    instances = korf(20)
    for ident, optimal, tiles in instances[:5]:
        solution = npuzzle.solve(tiles)
        assert (solution.moves, solution.optimal) == (optimal, True), f"Korf instance {ident}"
        assert replays_to_goal(tiles, solution.path)
    boards = np.array([tiles for _, _, tiles in instances])
    labels = npuzzle.solve_many(boards, threads=2, paths=True)
    assert labels.moves.tolist() == [optimal for _, optimal, _ in instances]
    assert labels.optimal.all() and (labels.lower_bound == labels.moves).all()
    assert all(replays_to_goal(tiles, path) for tiles, path in zip(boards.tolist(), labels.paths))
    assert labels.errors == [None] * 20


def test_an_unsolvable_board_is_an_answer_not_an_error():
    solution = npuzzle.solve([1, 2, 3, 4, 5, 6, 8, 7, 0])
    assert (solution.moves, solution.solvable, solution.path, solution.lower_bound) == (-1, False, None, 0)
    labels = npuzzle.solve_many(np.array([[1, 2, 3, 4, 5, 6, 8, 7, 0], [1, 2, 3, 4, 5, 6, 7, 0, 8]]))
    assert labels.moves.tolist() == [-1, 1] and labels.solvable.tolist() == [False, True]


@pytest.mark.parametrize("tiles,message", [
    ([1, 2, 3, 4, 5, 6, 7, 8, 8], "tile 8 appears twice"),
    ([1, 2, 3, 4, 5, 6, 7, 9, 0], "out of range"),
    ([1, 2, 0], "3 tiles is not a board"),
    ("3 1 2", "whole numbers"),
])
def test_a_bad_board_raises_value_error_with_the_librarys_message(tiles, message):
    with pytest.raises(ValueError, match=message):
        npuzzle.solve(tiles)


def test_bad_options_raise_value_error():
    with pytest.raises(ValueError, match="unknown optimality"):
        npuzzle.solve([1, 2, 3, 4, 5, 6, 7, 0, 8], optimality="best")
    with pytest.raises(ValueError, match="needs a weight"):
        npuzzle.solve([1, 2, 3, 4, 5, 6, 7, 0, 8], optimality="bounded")
    with pytest.raises(ValueError, match="board 1: tile 8 appears twice"):
        npuzzle.solve_many(np.array([[1, 2, 3, 4, 5, 6, 7, 0, 8], [1, 2, 3, 4, 5, 6, 7, 8, 8]]))


def test_a_time_limited_5x5_anytime_answer_has_its_proven_bound():
    board = npuzzle.random_board(5, seed=3)
    with pytest.warns(UserWarning, match="5×5 pattern databases"):
        solution = npuzzle.solve(board, optimality="anytime", time_limit=2)
    assert solution.solvable and len(solution.path) == solution.moves
    assert replays_to_goal(board.tiles, solution.path)
    assert board.manhattan() <= solution.lower_bound <= solution.moves
    assert solution.optimal == (solution.lower_bound == solution.moves)


def test_a_minimum_5x5_solve_without_its_tables_says_what_they_cost_and_refuses():
    with pytest.raises(npuzzle.TablesMissing, match="build_tables=True"):
        npuzzle.solve(npuzzle.random_board(5, seed=4))


def test_solve_many_on_threads_matches_one_by_one():
    boards = np.array([npuzzle.random_board(3, seed).tiles for seed in range(200)])
    together = npuzzle.solve_many(boards, threads=3)
    alone = [npuzzle.solve(tiles).moves for tiles in boards[:20]]
    assert together.moves[:20].tolist() == alone
    assert together.optimal.all() and together.moves.dtype == np.int32 and together.paths is None
    assert (together.moves >= np.array([npuzzle.Board(tiles).manhattan() for tiles in boards])).all()


def test_boards_know_their_distances_neighbours_and_solvability():
    board = npuzzle.Board([[1, 2, 3], [4, 0, 6], [7, 5, 8]])
    assert (board.dimension, board.manhattan(), board.hamming(), board.is_solvable()) == (3, 2, 2, True)
    assert len(board.neighbors()) == 4 and npuzzle.Board.goal(3) not in board.neighbors()
    assert npuzzle.random_board(4, 9) == npuzzle.random_board(4, 9)
    assert npuzzle.random_board(4, 9).is_solvable()


def test_ctrl_c_stops_a_search_with_keyboard_interrupt():
    threading.Timer(0.5, _thread.interrupt_main).start()
    with pytest.raises(KeyboardInterrupt):
        npuzzle.solve(npuzzle.random_board(5, seed=5), optimality="anytime", time_limit=120)


def test_a_spent_time_limit_raises_search_error_with_the_librarys_message():
    with pytest.raises(npuzzle.SearchError, match="search time limit of 1us reached"):
        npuzzle.solve(korf(1)[0][2], time_limit=1e-6)
    labels = npuzzle.solve_many(np.array([korf(1)[0][2]]), time_limit=1e-6)
    assert labels.moves.tolist() == [-1] and labels.solvable.tolist() == [True]
    assert "time limit" in labels.errors[0]
