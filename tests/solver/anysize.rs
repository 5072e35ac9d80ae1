//! Every board gets an answer: FAST and BOUNDED solutions of random boards of every size from
//! 2 to 32 and some of 64 and 128, each replayed move by move to the goal; lower bounds never
//! above the moves, `optimal` exactly when proven; BOUNDED within its weight of known optima;
//! the 3×3 table against A*; and the options that contradict each other refused.

use crate::support::{Rng, random_board, random_walk};
use npuzzle::solver::search::distance_table;
use npuzzle::solver::{NoProgress, Optimality, SearchError, Solution, Stop};
use npuzzle::{Algorithm, Board, Direction, Heuristic, Options, solve};

fn run(board: &Board, optimality: Optimality, weight: Option<f64>) -> Result<Solution, SearchError> {
    let options = Options { optimality, weight, ..Options::default() };
    solve(board, &options, &mut NoProgress, &Stop::new())
}

/// Replays the blank's moves on the raw tiles, independently of the solver, and checks the
/// claims the solution makes about itself.
fn assert_replays(board: &Board, solution: &Solution) {
    let n = board.dimension();
    let mut tiles = board.tiles().to_vec();
    let mut blank = board.blank_index();
    let letters = solution.blank_moves();
    assert_eq!(letters.len() as i32, solution.moves(), "one letter a move");
    for (index, letter) in letters.chars().enumerate() {
        let (row, col) = (blank / n, blank % n);
        let to = match letter {
            'U' if row > 0 => blank - n,
            'D' if row + 1 < n => blank + n,
            'L' if col > 0 => blank - 1,
            'R' if col + 1 < n => blank + 1,
            _ => panic!("move {index} ({letter}) leaves the {n}x{n} board"),
        };
        tiles.swap(blank, to);
        blank = to;
    }
    assert_eq!(tiles, Board::goal(n).expect("a goal").tiles(), "{n}x{n}: the moves end at the goal");
    assert!(solution.lower_bound() as i32 <= solution.moves(), "{n}x{n}: lower bound above the moves");
    assert!(solution.lower_bound() >= board.manhattan().min(solution.moves() as u32));
    assert_eq!(solution.is_optimal(), solution.lower_bound() as i32 == solution.moves());
    assert_eq!(solution.directions().len() as i32, solution.moves());
    if let Some(boards) = solution.boards() {
        assert_eq!(boards.len() as i32, solution.moves() + 1);
        assert!(boards.iter().eq(solution.replay().collect::<Vec<_>>().iter()));
    }
}

#[test]
fn fast_answers_every_size_from_2_to_32() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    for n in 2..=32 {
        for _ in 0..2 {
            let board = random_board(n, &mut rng);
            let solution = run(&board, Optimality::Fast, None).expect("FAST answers");
            assert_replays(&board, &solution);
        }
    }
}

#[test]
fn fast_answers_64_and_128_within_about_three_times_manhattan() {
    let mut rng = Rng::new(7);
    for n in [64, 128] {
        let board = random_board(n, &mut rng);
        let solution = run(&board, Optimality::Fast, None).expect("FAST answers");
        assert_replays(&board, &solution);
        assert!(solution.boards().is_none(), "{n}x{n}: millions of moves are not listed as boards");
        let ratio = f64::from(solution.moves()) / f64::from(board.manhattan());
        // Measured about 2.94 (128) and 2.98 (64); routes that ignore the other tiles give 3.8.
        assert!(ratio <= 3.1, "{n}x{n}: {} moves is {ratio:.2} x Manhattan", solution.moves());
    }
}

#[test]
fn fast_on_the_goal_and_on_small_boards_is_optimal() {
    for n in 2..=8 {
        let solution = run(&Board::goal(n).expect("a goal"), Optimality::Fast, None).expect("FAST answers");
        assert_eq!((solution.moves(), solution.is_optimal()), (0, true), "{n}x{n}");
    }
    let hardest = Board::new(3, &[8, 6, 7, 2, 5, 4, 3, 0, 1]).expect("a board");
    let solution = run(&hardest, Optimality::Fast, None).expect("FAST answers");
    assert_eq!((solution.moves(), solution.is_optimal()), (31, true));
}

#[test]
fn bounded_answers_stay_within_the_weight_of_known_optima() {
    // Korf's instances 2 and 8 (55 and 50 moves) and the hardest 8-puzzle (31).
    let known: [(usize, &[u16], i32); 3] = [
        (4, &[10, 5, 1, 0, 15, 9, 13, 14, 2, 8, 4, 7, 6, 12, 11, 3], 55),
        (4, &[9, 6, 15, 2, 11, 7, 3, 10, 14, 12, 0, 8, 13, 1, 5, 4], 50),
        (3, &[8, 6, 7, 2, 5, 4, 3, 0, 1], 31),
    ];
    for (n, tiles, optimal) in known {
        let board = Board::new(n, tiles).expect("a board");
        for weight in [1.2, 2.0] {
            let solution = run(&board, Optimality::Bounded, Some(weight)).expect("BOUNDED answers");
            assert_replays(&board, &solution);
            assert!(f64::from(solution.moves()) <= weight * f64::from(optimal), "{tiles:?} at {weight}");
            assert!(solution.lower_bound() as i32 <= optimal, "{tiles:?}: the bound is not proven");
        }
    }
}

#[test]
fn bounded_answers_every_size_from_2_to_32() {
    let mut rng = Rng::new(42);
    for n in 2..=32 {
        // 40 random slides from the goal: the minimum is at most 40 (at most 31 on 3×3).
        let board = if n <= 3 { random_board(n, &mut rng) } else { random_walk(n, 40, &mut rng) };
        let solution = run(&board, Optimality::Bounded, Some(1.5)).expect("BOUNDED answers");
        assert_replays(&board, &solution);
        assert!(solution.moves() <= 60, "{n}x{n}: {} moves, more than 1.5 x 40", solution.moves());
        assert!(solution.lower_bound() <= 40, "{n}x{n}: the bound {} is not proven", solution.lower_bound());
    }
}

#[test]
fn the_eight_puzzle_table_agrees_with_a_star() {
    let mut rng = Rng::new(3);
    let astar = Options { algorithm: Algorithm::AStar, heuristic: Heuristic::Manhattan, ..Options::default() };
    for _ in 0..300 {
        let board = random_board(3, &mut rng);
        let expected = solve(&board, &astar, &mut NoProgress, &Stop::new()).expect("A* solves").moves();
        let table = solve(&board, &Options::default(), &mut NoProgress, &Stop::new()).expect("the table answers");
        assert_eq!(table.moves(), expected, "{board:?}");
        assert!(table.is_optimal());
        assert_eq!(distance_table::distance(board.tiles()).map(i32::from), Some(expected));
        assert_replays(&board, &table);
    }
    assert_eq!(distance_table::distance(Board::goal(3).expect("a goal").twin().tiles()), None);
}

#[test]
fn contradicting_options_are_refused() {
    let board = Board::goal(4).expect("a goal");
    let cases = [
        Options { optimality: Optimality::Bounded, ..Options::default() },
        Options { optimality: Optimality::Bounded, weight: Some(1.0), ..Options::default() },
        Options { optimality: Optimality::Bounded, weight: Some(f64::NAN), ..Options::default() },
        Options { optimality: Optimality::Bounded, weight: Some(f64::INFINITY), ..Options::default() },
        Options { optimality: Optimality::Fast, weight: Some(1.5), ..Options::default() },
        Options { weight: Some(1.5), ..Options::default() },
        Options { optimality: Optimality::Fast, algorithm: Algorithm::IdaStar, ..Options::default() },
        Options {
            optimality: Optimality::Bounded,
            weight: Some(1.5),
            algorithm: Algorithm::AStar,
            ..Options::default()
        },
    ];
    for options in cases {
        let refused = solve(&board, &options, &mut NoProgress, &Stop::new());
        assert!(matches!(refused, Err(SearchError::InvalidOptions { .. })), "{options:?}: {refused:?}");
    }
}

#[test]
fn blank_moves_are_the_opposite_of_the_tile_moves() {
    let board = Board::new(2, &[1, 2, 0, 3]).expect("a board");
    let solution = solve(&board, &Options::default(), &mut NoProgress, &Stop::new()).expect("solves");
    assert_eq!(solution.directions(), &[Direction::Left]);
    assert_eq!(solution.blank_moves(), "R");
}

/// A server on 127.0.0.1:0 without pattern databases, and a client that accepts big answers.
async fn serve() -> npuzzle::proto::solver_service_client::SolverServiceClient<tonic::transport::Channel> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind 127.0.0.1:0");
    let address = listener.local_addr().expect("the bound address");
    let server = npuzzle::server::Server::new(npuzzle::server::Config::default());
    tokio::spawn(server.serve(listener, std::future::pending()));
    let channel = tonic::transport::Channel::from_shared(format!("http://{address}"))
        .expect("a valid URI")
        .connect()
        .await
        .expect("the server is up");
    npuzzle::proto::solver_service_client::SolverServiceClient::new(channel).max_decoding_message_size(256 << 20)
}

fn request(board: &Board, optimality: npuzzle::proto::Optimality, weight: f64) -> npuzzle::proto::SolveRequest {
    npuzzle::proto::SolveRequest {
        puzzle: Some(npuzzle::proto::solve_request::Puzzle::Board(board.into())),
        options: Some(npuzzle::proto::SolveOptions { optimality: optimality.into(), weight, ..Default::default() }),
    }
}

#[tokio::test]
async fn the_wire_carries_what_is_proven_and_refuses_contradictions() {
    use npuzzle::proto::Optimality as Wire;
    let mut client = serve().await;
    let mut rng = Rng::new(11);
    let big = random_board(64, &mut rng);
    let answer = client.solve(request(&big, Wire::Fast, 0.0)).await.expect("FAST answers").into_inner();
    let solution = answer.solution.expect("a solution");
    assert_eq!(solution.blank_moves.len() as i32, solution.moves);
    assert!(solution.boards.is_empty() && solution.steps.is_empty(), "a 64x64 answer lists no boards");
    assert!(!solution.optimal && solution.lower_bound >= big.manhattan());

    let hardest = Board::new(3, &[8, 6, 7, 2, 5, 4, 3, 0, 1]).expect("a board");
    let answer = client.solve(request(&hardest, Wire::Unspecified, 0.0)).await.expect("answers").into_inner();
    let solution = answer.solution.expect("a solution");
    assert_eq!((solution.moves, solution.optimal, solution.lower_bound), (31, true, 31));
    assert_eq!(solution.boards.len(), 32);
    assert_eq!(solution.blank_moves.len(), 31);

    for (optimality, weight) in
        [(Wire::Bounded, 0.0), (Wire::Bounded, 1.0), (Wire::Bounded, f64::NAN), (Wire::Fast, 2.0)]
    {
        let status = client.solve(request(&hardest, optimality, weight)).await.expect_err("refused");
        assert_eq!(status.code(), tonic::Code::InvalidArgument, "{optimality:?} {weight}: {status:?}");
    }
    let status = client.solve(request(&hardest, Wire::Minimum, 1.5)).await.expect_err("refused");
    assert!(status.message().contains("only for optimality BOUNDED"), "{status:?}");
}

#[test]
fn the_client_prints_a_128x128_answer_as_moves() {
    use std::io::Write;
    let mut rng = Rng::new(5);
    let board = random_board(128, &mut rng);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_npuzzle-client"))
        .args(["--optimality", "fast", "--no-pattern-db"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the client starts");
    let text: String = format!("128\n{}\n", board.tiles().iter().map(u16::to_string).collect::<Vec<_>>().join(" "));
    child.stdin.take().expect("stdin").write_all(text.as_bytes()).expect("the board is written");
    let output = child.wait_with_output().expect("the client ends");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    let mut lines = stdout.lines();
    let header = lines.next().expect("a header");
    assert!(header.starts_with("Number of moves = ") && header.contains("not proven minimal"), "{header}");
    let moves: usize = header["Number of moves = ".len()..].split(' ').next().and_then(|k| k.parse().ok()).expect("K");
    let letters = lines.next().expect("the moves");
    assert_eq!(letters.len(), moves);
    assert!(letters.bytes().all(|letter| b"UDLR".contains(&letter)));
    assert!(String::from_utf8_lossy(&output.stderr).contains("too many to print as boards"));
}

#[test]
fn the_text_of_an_answer_says_what_is_proven() {
    let mut rng = Rng::new(9);
    let board = random_board(5, &mut rng);
    let solution = run(&board, Optimality::Fast, None).expect("FAST answers");
    let text = npuzzle::text::format_solution(&solution);
    let header = format!(
        "Number of moves = {} (not proven minimal; the minimum is at least {})\n",
        solution.moves(),
        solution.lower_bound()
    );
    assert!(text.starts_with(&header), "{}", text.lines().next().unwrap_or_default());
    assert_eq!(text.matches("\n5\n").count(), solution.moves() as usize + 1, "one board a move, and the first");
}
