//! OPTIMALITY_ANYTIME over real gRPC: every board answered OK by its time limit, shorter
//! solutions streamed as `improved` before the one final `solution`, the lower bound never above
//! the known optimum, `optimal` only when proven, 3×3 and 4×4 (with tables) answers optimal, a
//! 64×64 answer shorter than FAST's, a board near its goal within twice its bound, and a
//! cancelled stream leaving no search.

use std::time::{Duration, Instant};

use crate::common::{self, HARD_4X4, HARDEST_3X3, STOP_WITHIN, board, config, start, stream_request};
use crate::support;
use npuzzle::board::Board;
use npuzzle::proto::{self, solve_stream_response::Event};
use npuzzle::random::{Rng, random_board, walked_board};
use npuzzle::server::Config;
use npuzzle::service::DatabaseSlot;

/// A 6×6 board from a random walk of 5,000 moves: no optimal search reaches it.
const RANDOM_6X6: [u32; 36] = [
    26, 31, 27, 14, 16, 29, 10, 23, 7, 17, 20, 12, 30, 3, 1, 24, 32, 9, 8, 6, 35, 21, 19, 22, 15, 28, 25, 11, 2, 34,
    13, 5, 33, 4, 18, 0,
];

/// puzzles/4x4-52.txt: 52 moves, proven on the small tables in well under a second.
const FOUR_BY_FOUR_52: [u32; 16] = [12, 10, 4, 11, 1, 8, 13, 7, 3, 14, 15, 9, 2, 0, 5, 6];

/// HARD_4X4's optimum.
const HARD_4X4_MOVES: i32 = 80;

/// How long after its time limit an answer may come: the search polls its clock every few
/// thousand nodes, then checks and converts the path.
const ANSWER_LATENESS: Duration = Duration::from_millis(700);

fn anytime(time_limit_ms: u32) -> Option<proto::SolveOptions> {
    Some(proto::SolveOptions {
        optimality: proto::Optimality::Anytime.into(),
        time_limit_ms,
        ..proto::SolveOptions::default()
    })
}

/// Streams `board` under ANYTIME and returns the improved solutions, the final one, and the
/// time it took.
async fn stream(
    server: &common::TestServer,
    board: proto::Board,
    time_limit_ms: u32,
) -> (Vec<proto::Solution>, proto::Solution, Duration) {
    let started = Instant::now();
    let request = stream_request(board, anytime(time_limit_ms), 10);
    let mut stream = server.client().await.solve_stream(request).await.expect("the stream starts").into_inner();
    let (mut improved, mut last) = (Vec::new(), None);
    loop {
        let message = match stream.message().await {
            Ok(Some(message)) => message,
            Ok(None) => break,
            Err(status) => panic!("no error status: running out of time is an answer, got {status:?}"),
        };
        match message.event.expect("an event") {
            Event::Improved(solution) => {
                assert!(last.is_none(), "an improved solution after the final one");
                improved.push(solution);
            }
            Event::Solution(solution) => {
                assert!(last.replace(solution).is_none(), "exactly one final solution");
            }
            Event::Progress(progress) => {
                assert!(last.is_none(), "progress after the final solution");
                assert!(progress.best_moves == 0 || progress.priority <= progress.best_moves, "{progress:?}");
            }
        }
    }
    (improved, last.expect("a final solution"), started.elapsed())
}

fn assert_shrinking(improved: &[proto::Solution], last: &proto::Solution) {
    assert!(!improved.is_empty(), "at least the first solution is streamed");
    assert!(improved.windows(2).all(|pair| pair[1].moves < pair[0].moves), "each improvement is shorter");
    assert!(improved.iter().all(|solution| solution.blank_moves.len() as i32 == solution.moves));
    assert!(last.moves <= improved[improved.len() - 1].moves);
    assert!(last.lower_bound as i32 <= last.moves);
    assert_eq!(last.optimal, last.lower_bound as i32 == last.moves);
}

#[tokio::test]
async fn a_hard_4x4_without_tables_is_answered_by_its_time_limit_with_a_true_bound() {
    let server = start(config()).await;
    let (improved, last, took) = stream(&server, board(4, &HARD_4X4), 300).await;
    assert_shrinking(&improved, &last);
    assert!(last.lower_bound as i32 <= HARD_4X4_MOVES && HARD_4X4_MOVES <= last.moves, "{last:?}");
    assert_eq!(last.optimal, last.moves == HARD_4X4_MOVES);
    assert!(took < Duration::from_millis(300) + ANSWER_LATENESS, "answered after {took:?}");
    println!("4x4: {} moves, bound {}, in {took:?}", last.moves, last.lower_bound);
}

#[tokio::test]
async fn a_6x6_is_answered_with_a_path_to_the_goal_and_a_bound() {
    let server = start(config()).await;
    let (improved, last, took) = stream(&server, board(6, &RANDOM_6X6), 400).await;
    assert_shrinking(&improved, &last);
    let goal: Vec<u32> = (1..36).chain([0]).collect();
    assert_eq!(last.boards.last().map(|board| &board.tiles), Some(&goal), "the path ends at the goal");
    assert!(!last.optimal && last.lower_bound > 0);
    assert!(took < Duration::from_millis(400) + ANSWER_LATENESS, "answered after {took:?}");
}

#[tokio::test]
async fn a_4x4_anytime_answer_with_tables_is_optimal() {
    let databases = DatabaseSlot::new();
    databases.fill(support::small_databases());
    let server = start(Config { pattern_databases: vec![databases], ..config() }).await;
    let (improved, last, took) = stream(&server, board(4, &FOUR_BY_FOUR_52), 20_000).await;
    println!("4x4 with tables: {} moves, bound {}, in {took:?}", last.moves, last.lower_bound);
    assert_shrinking(&improved, &last);
    assert_eq!((last.moves, last.lower_bound, last.optimal), (52, 52, true));
    assert!(took < Duration::from_secs(10), "the proof ends the search: {took:?}");
}

/// `board`'s tiles as the wire carries them, and FAST's answer to it from `server`.
async fn tiles_and_fast(server: &common::TestServer, board: &Board) -> (Vec<u32>, proto::Solution) {
    let tiles: Vec<u32> = board.tiles().iter().map(|&tile| u32::from(tile)).collect();
    let fast = proto::SolveOptions { optimality: proto::Optimality::Fast.into(), ..proto::SolveOptions::default() };
    let request = common::solve_request(self::board(board.dimension() as u32, &tiles), Some(fast));
    let fast =
        server.client().await.solve(request).await.expect("FAST answers").into_inner().solution.expect("a solution");
    (tiles, fast)
}

#[tokio::test]
async fn a_64x64_anytime_answer_is_shorter_than_fast() {
    let server = start(config()).await;
    let (tiles, fast) = tiles_and_fast(&server, &random_board(64, &mut Rng::new(64)).expect("a board")).await;
    let (improved, last, _) = stream(&server, board(64, &tiles), 1500).await;
    assert_shrinking(&improved, &last);
    assert!(last.moves < fast.moves, "anytime {} moves, FAST {}", last.moves, fast.moves);
    assert_eq!(last.blank_moves.len() as i32, last.moves);
    assert!(!last.optimal && last.lower_bound > 0);
    println!("64x64: FAST {} moves, anytime {} (bound {})", fast.moves, last.moves, last.lower_bound);
}

#[tokio::test]
async fn a_board_near_its_goal_is_answered_within_twice_its_bound_by_fast_and_anytime() {
    let server = start(config()).await;
    let (tiles, fast) = tiles_and_fast(&server, &walked_board(20, 200, &mut Rng::new(20)).expect("a board")).await;
    let (improved, last, _) = stream(&server, board(20, &tiles), 3000).await;
    assert_shrinking(&improved, &last);
    println!("20x20 near its goal: FAST {} moves, anytime {} (bound {})", fast.moves, last.moves, last.lower_bound);
    assert!(fast.moves <= 2 * fast.lower_bound as i32, "FAST {} moves, bound {}", fast.moves, fast.lower_bound);
    assert!(last.moves <= fast.moves, "anytime {} moves, FAST {}", last.moves, fast.moves);
}

#[tokio::test]
async fn a_3x3_anytime_answer_is_optimal() {
    let server = start(config()).await;
    let (_, last, _) = stream(&server, board(3, &HARDEST_3X3), 1000).await;
    assert_eq!((last.moves, last.lower_bound, last.optimal), (31, 31, true));
}

#[tokio::test]
async fn the_deadline_bounds_an_anytime_answer_without_a_time_limit() {
    let server = start(config()).await;
    let mut request = tonic::Request::new(common::solve_request(board(4, &HARD_4X4), anytime(0)));
    request.set_timeout(Duration::from_millis(600));
    let started = Instant::now();
    let answer = server.client().await.solve(request).await.expect("an answer before the deadline");
    let solution = answer.into_inner().solution.expect("a solution");
    assert!(started.elapsed() < Duration::from_millis(600), "{:?}", started.elapsed());
    assert!(solution.lower_bound as i32 <= HARD_4X4_MOVES && HARD_4X4_MOVES <= solution.moves);
}

#[tokio::test]
async fn a_cancelled_anytime_stream_leaves_no_search_running() {
    let server = start(config()).await;
    let request = stream_request(board(4, &HARD_4X4), anytime(60_000), 10);
    let mut stream = server.client().await.solve_stream(request).await.expect("starts").into_inner();
    stream.message().await.expect("a first message");
    tokio::time::sleep(Duration::from_millis(100)).await;
    drop(stream);
    let took = server.time_until_idle().await;
    assert!(took < STOP_WITHIN, "the search ran on for {took:?}");
}
