//! The spec's text format from arbitrary bytes: parsing never panics, and a board it accepts
//! prints back to text that parses to the same board.

#![no_main]

use libfuzzer_sys::fuzz_target;
use npuzzle::text::parse_board;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(board) = parse_board(text) {
        let printed = board.to_string();
        let again = parse_board(&printed).expect("a printed board parses");
        assert_eq!(again, board, "the printed board parses to another board");
    }
});
