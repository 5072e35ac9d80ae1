"""A Python client of npuzzle, generated from proto/npuzzle.proto with grpcio-tools.

It shows that the wire contract works from another language: Solve with a structured board
and with text, SolveStream's order of events, and INVALID_ARGUMENT for a malformed puzzle.
Run it through run.sh, which generates the stubs into gen/ and starts the server; by hand:

    python test_polyglot.py HOST:PORT
"""

import os
import sys

import grpc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen"))

import npuzzle_pb2  # noqa: E402  (generated into gen/ by run.sh)
import npuzzle_pb2_grpc  # noqa: E402

PUZZLE04 = npuzzle_pb2.Board(dimension=3, tiles=[0, 1, 3, 4, 2, 5, 7, 8, 6])
GOAL = [1, 2, 3, 4, 5, 6, 7, 8, 0]
CALL_TIMEOUT_SECONDS = 30


def check_puzzle04_solution(solution):
    assert solution.solvable, solution
    assert solution.moves == 4, solution.moves
    assert len(solution.boards) == 5, len(solution.boards)
    assert list(solution.boards[0].tiles) == list(PUZZLE04.tiles)
    assert list(solution.boards[-1].tiles) == GOAL
    first = solution.steps[0]
    assert (first.tile, first.direction) == (1, npuzzle_pb2.DIRECTION_LEFT), first


def solve_with_a_board(stub):
    response = stub.Solve(npuzzle_pb2.SolveRequest(board=PUZZLE04), timeout=CALL_TIMEOUT_SECONDS)
    check_puzzle04_solution(response.solution)


def solve_with_text_and_options(stub):
    request = npuzzle_pb2.SolveRequest(
        text="3\n 0  1  3\n 4  2  5\n 7  8  6\n",
        options=npuzzle_pb2.SolveOptions(
            algorithm=npuzzle_pb2.ALGORITHM_ASTAR, heuristic=npuzzle_pb2.HEURISTIC_MANHATTAN
        ),
    )
    solution = stub.Solve(request, timeout=CALL_TIMEOUT_SECONDS).solution
    check_puzzle04_solution(solution)
    assert solution.stats.algorithm == npuzzle_pb2.ALGORITHM_ASTAR, solution.stats


def unsolvable_is_an_answer(stub):
    request = npuzzle_pb2.SolveRequest(text="3  1 2 3  4 5 6  8 7 0")
    solution = stub.Solve(request, timeout=CALL_TIMEOUT_SECONDS).solution
    assert not solution.solvable and solution.moves == -1 and not solution.boards, solution


def solve_stream_sends_progress_then_one_solution(stub):
    request = npuzzle_pb2.SolveStreamRequest(board=PUZZLE04, progress_interval_ms=20)
    events = [event.WhichOneof("event") for event in stub.SolveStream(request, timeout=CALL_TIMEOUT_SECONDS)]
    assert events[0] == "progress", events
    assert events[-1] == "solution" and events.count("solution") == 1, events
    final = list(stub.SolveStream(request, timeout=CALL_TIMEOUT_SECONDS))[-1]
    check_puzzle04_solution(final.solution)


def duplicate_tile_is_invalid_argument(stub):
    bad = npuzzle_pb2.Board(dimension=3, tiles=[0, 1, 3, 4, 2, 5, 7, 8, 8])
    try:
        stub.Solve(npuzzle_pb2.SolveRequest(board=bad), timeout=CALL_TIMEOUT_SECONDS)
    except grpc.RpcError as error:
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.code()
        assert "appears twice" in error.details(), error.details()
    else:
        raise AssertionError("a duplicate tile was accepted")


CHECKS = [
    solve_with_a_board,
    solve_with_text_and_options,
    unsolvable_is_an_answer,
    solve_stream_sends_progress_then_one_solution,
    duplicate_tile_is_invalid_argument,
]


def main():
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} HOST:PORT")
    with grpc.insecure_channel(sys.argv[1]) as channel:
        grpc.channel_ready_future(channel).result(timeout=CALL_TIMEOUT_SECONDS)
        stub = npuzzle_pb2_grpc.SolverServiceStub(channel)
        failed = 0
        for check in CHECKS:
            try:
                check(stub)
                print(f"ok      {check.__name__}")
            except Exception as error:  # report every check, then fail once
                failed += 1
                print(f"FAILED  {check.__name__}: {error!r}")
    print(f"polyglot: {len(CHECKS) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
