//! The server and its pattern databases: 4×4 boards are solved with linear conflict while the
//! databases are not there yet, with the databases once they are, and the Princeton 78-move
//! board solves through the service.

use crate::common;
use crate::support;

use crate::common::{board, config, solve_request, start};
use npuzzle::proto;
use npuzzle::server::Config;
use npuzzle::service::DatabaseSlot;
use npuzzle::service::Limits;
use tonic::Code;

/// Princeton's puzzle4x4-78.txt.
const PRINCETON_78: [u32; 16] = [0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
/// A 4×4 board 30 moves from the goal (puzzles/4x4-30.txt).
const FOUR_BY_FOUR_30: [u32; 16] = [0, 9, 2, 3, 5, 1, 7, 11, 6, 12, 14, 4, 13, 10, 8, 15];

async fn solve(server: &common::TestServer, tiles: &[u32], options: Option<proto::SolveOptions>) -> proto::Solution {
    let response = server.client().await.solve(solve_request(board(4, tiles), options)).await;
    response.expect("an answer").into_inner().solution.expect("a solution")
}

#[tokio::test]
async fn four_by_four_boards_use_the_databases_once_they_arrive() {
    let databases = DatabaseSlot::new();
    let server = start(Config { pattern_databases: vec![databases.clone()], ..config() }).await;

    let before = solve(&server, &FOUR_BY_FOUR_30, None).await;
    assert_eq!(before.moves, 30);
    let stats = before.stats.expect("stats");
    assert_eq!((stats.algorithm(), stats.heuristic()), (proto::Algorithm::Idastar, proto::Heuristic::LinearConflict));

    let asked = proto::SolveOptions { heuristic: proto::Heuristic::PatternDatabase.into(), ..Default::default() };
    let refused = server.client().await.solve(solve_request(board(4, &FOUR_BY_FOUR_30), Some(asked))).await;
    let status = refused.expect_err("no databases are loaded yet");
    assert_eq!(status.code(), Code::Unavailable, "a retry once the databases are loaded succeeds");
    assert!(status.message().contains("not loaded"), "{}", status.message());

    databases.fill(support::small_databases());
    let after = solve(&server, &FOUR_BY_FOUR_30, None).await;
    assert_eq!(after.moves, 30);
    assert_eq!(after.stats.expect("stats").heuristic(), proto::Heuristic::PatternDatabase);
}

#[tokio::test]
async fn the_princeton_78_move_board_solves_through_the_service() {
    let databases = DatabaseSlot::new();
    databases.fill(support::small_databases());
    let limits = Limits { max_expanded_nodes: Some(100_000_000), ..config().limits };
    let server = start(Config { pattern_databases: vec![databases], limits, ..config() }).await;
    let solution = solve(&server, &PRINCETON_78, None).await;
    assert_eq!(solution.moves, 78);
    assert_eq!(solution.boards.len(), 79);
    assert_eq!(solution.boards.first(), Some(&board(4, &PRINCETON_78)));
}
