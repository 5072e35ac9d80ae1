//! One search spread over two replicas: asked of A, its pieces run on B too, its progress names
//! both, and its answer is the optimum. A server without `--cluster` shows nothing of it.

use npuzzle::proto::{self, solve_stream_request, solve_stream_response::Event};

use crate::harness::{
    Nats, QUICK_BOARD, QUICK_MOVES, Replica, SPREAD_BOARD, SPREAD_MOVES, board, checked_moves, client, one_at_a_time,
    options, solve, two_replicas,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_asked_of_one_replica_runs_on_both_and_answers_the_optimum() {
    let _one = one_at_a_time().await;
    let Some(nats) = Nats::start() else { return };
    let (a, b) = two_replicas(&nats);
    let streamed = proto::SolveStreamRequest {
        puzzle: Some(solve_stream_request::Puzzle::Board(board(&SPREAD_BOARD))),
        options: Some(options()),
        progress_interval_ms: 20,
    };
    let mut events = client(&a).await.solve_stream(streamed).await.expect("the stream starts").into_inner();
    let (mut replicas, mut solution) = (0, None);
    while let Some(message) = events.message().await.expect("the stream goes on") {
        match message.event {
            Some(Event::Progress(progress)) => replicas = replicas.max(progress.replicas),
            Some(Event::Solution(found)) => solution = Some(found),
            _ => {}
        }
    }
    assert_eq!(checked_moves(&solution.expect("a solution")), SPREAD_MOVES);
    assert_eq!(replicas, 2, "the progress named both replicas at work");
    let published = a.metric("npuzzle_cluster_pieces_published_total", &[]);
    let for_a = b.metric("npuzzle_cluster_remote_nodes_total", &[]);
    let done_by_b = b.metric("npuzzle_cluster_pieces_total", &[("outcome", "done")]);
    println!("A published {published} pieces; B ran {done_by_b} of them, {for_a} nodes");
    assert!(published > 0.0, "A published no piece");
    assert!(for_a > 0.0 && done_by_b > 0.0, "B searched nothing for A");
    assert_eq!(a.metric("npuzzle_cluster_remote_nodes_total", &[]), 0.0, "A searched for no one else");
    assert_eq!(b.metric("npuzzle_cluster_pieces_published_total", &[]), 0.0, "B coordinated nothing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_cluster_a_server_touches_no_nats_and_answers_alone() {
    let _one = one_at_a_time().await;
    let alone = Replica::with_flags(&[], &[]);
    assert_eq!(solve(&alone, &QUICK_BOARD).await.expect("an answer"), QUICK_MOVES);
    let text = alone.scrape();
    assert!(!text.contains("npuzzle_cluster_"), "cluster metrics without --cluster:\n{text}");
    assert!(!alone.log().contains("cluster"), "{}", alone.log());
}
