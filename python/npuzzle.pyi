"""Optimal sliding-tile puzzle solutions from npuzzle's search core."""

from pathlib import Path
from typing import Literal, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__version__: str

Optimality = Literal["minimum", "bounded", "fast", "anytime"]
Tiles = Union["Board", Sequence[int], Sequence[Sequence[int]], npt.NDArray[np.integer]]

class SearchError(RuntimeError):
    """A search that ended without an answer: a time, node or memory budget spent, or stopped."""

class TablesMissing(RuntimeError):
    """The pattern databases a board needs are not built, and building them was not allowed."""

class Board:
    """An N×N position: tiles row-major, 0 for the blank; the goal is 1..N*N-1 then the blank."""

    def __init__(self, tiles: Tiles) -> None: ...
    @staticmethod
    def parse(text: str) -> Board:
        """A board from the spec's text: N, then the N*N tiles."""
    @staticmethod
    def goal(n: int) -> Board: ...
    @property
    def dimension(self) -> int: ...
    @property
    def tiles(self) -> list[int]: ...
    def manhattan(self) -> int: ...
    def hamming(self) -> int: ...
    def is_goal(self) -> bool: ...
    def is_solvable(self) -> bool: ...
    def neighbors(self) -> list[Board]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Solution:
    """The answer for one board."""

    board: Board
    moves: int
    """The number of moves; -1 when the board is unsolvable."""
    optimal: bool
    lower_bound: int
    path: Optional[str]
    """The blank's moves, one letter each (U D L R); None when unsolvable."""
    nodes: int
    seconds: float
    stats: dict[str, object]
    @property
    def solvable(self) -> bool: ...

class Labels:
    """The answers of solve_many, each array in the boards' order."""

    moves: npt.NDArray[np.int32]
    optimal: npt.NDArray[np.bool_]
    lower_bound: npt.NDArray[np.uint32]
    solvable: npt.NDArray[np.bool_]
    nodes: npt.NDArray[np.uint64]
    seconds: npt.NDArray[np.float64]
    paths: Optional[list[Optional[str]]]
    errors: list[Optional[str]]

def random_board(n: int, seed: int = 0) -> Board:
    """A random solvable board of side n, the same for the same seed."""

def solve(
    tiles: Tiles,
    optimality: Optional[Optimality] = None,
    time_limit: Optional[float] = None,
    weight: Optional[float] = None,
    *,
    build_tables: bool = False,
) -> Solution:
    """Solves one board as optimality asks (proven minimum by default), the GIL released."""

def solve_many(
    boards: npt.NDArray[np.integer],
    optimality: Optional[Optimality] = None,
    time_limit: Optional[float] = None,
    weight: Optional[float] = None,
    *,
    threads: Optional[int] = None,
    paths: bool = False,
    build_tables: bool = False,
) -> Labels:
    """Solves each row of a (k, N*N) array on `threads` threads [default: one per core]."""

def cache_dir() -> Path:
    """The directory the pattern databases are read from and built into."""
