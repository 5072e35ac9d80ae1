//! The boards of a batch, read whole before anything is solved so that a bad line stops the
//! batch before its first call: JSONL (`{"id": ..., "tiles": [...]}` or `{"id": ...,
//! "text": "..."}`), TSV like `benchmarks/` (id, an optional known length, the tiles), or a
//! directory of puzzle files (`*.txt`) in the spec's format. Every error names the file, the line and,
//! where it can, the column, as the client does for one puzzle.

use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::Value;
use thiserror::Error;

use crate::board::{Board, BoardError};
use crate::text::{self, Position};

/// One board of a batch.
#[derive(Debug, Clone)]
pub struct Item {
    /// The id the output line carries: the input's, or the puzzle file's name.
    pub id: String,
    /// The board to solve.
    pub board: Board,
    /// The optimal length the input gives, to check the answer against.
    pub known: Option<i32>,
}

/// Why the input is not a batch of boards.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum InputError {
    /// The file or directory cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// What was read.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// A line (or a puzzle file) is not a board.
    #[error("{}: {}{message}", path.display(), at.map(|at| format!("{at}: ")).unwrap_or_default())]
    Bad {
        /// The file.
        path: PathBuf,
        /// Where in it, when known.
        at: Option<Position>,
        /// What is wrong.
        message: String,
    },
    /// The input holds no board.
    #[error("{}: no boards", path.display())]
    Empty {
        /// The file or directory.
        path: PathBuf,
    },
}

/// Reads the boards of `path`: a directory's puzzle files (its `*.txt`, each id the file's
/// name), else a JSONL file (its first line
/// that is not blank or a `#` comment starts with `{`), else TSV.
pub fn read_input(path: &Path) -> Result<Vec<Item>, InputError> {
    let items = if path.is_dir() { read_directory(path)? } else { read_lines(path)? };
    if items.is_empty() {
        return Err(InputError::Empty { path: path.to_owned() });
    }
    Ok(items)
}

/// An error at `line` (1-based) of `path`, at `column` when known.
fn bad(path: &Path, line: usize, column: Option<usize>, message: impl Into<String>) -> InputError {
    let message = message.into();
    match column {
        Some(column) => InputError::Bad { path: path.to_owned(), at: Some(Position { line, column }), message },
        None => InputError::Bad { path: path.to_owned(), at: None, message: format!("line {line}: {message}") },
    }
}

fn read_directory(dir: &Path) -> Result<Vec<Item>, InputError> {
    let read_error = |source| InputError::Read { path: dir.to_owned(), source };
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).map_err(read_error)? {
        let entry = entry.map_err(read_error)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".txt") && !name.starts_with('.') && entry.path().is_file() {
            files.push((name, entry.path()));
        }
    }
    files.sort();
    files
        .into_iter()
        .map(|(id, path)| {
            let text = fs::read_to_string(&path).map_err(|source| InputError::Read { path: path.clone(), source })?;
            let board = text::parse_board(&text).map_err(|error| InputError::Bad {
                path: path.clone(),
                at: None,
                message: error.to_string(),
            })?;
            Ok(Item { id, board, known: None })
        })
        .collect()
}

fn read_lines(path: &Path) -> Result<Vec<Item>, InputError> {
    let text = fs::read_to_string(path).map_err(|source| InputError::Read { path: path.to_owned(), source })?;
    let mut rows =
        (1..).zip(text.lines()).filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#')).peekable();
    let jsonl = rows.peek().is_some_and(|(_, line)| line.trim_start().starts_with('{'));
    let mut first_line: HashMap<String, usize> = HashMap::new();
    let mut items = Vec::new();
    for (number, line) in rows {
        let item = if jsonl { json_item(path, number, line)? } else { tsv_item(path, number, line)? };
        if let Some(first) = first_line.insert(item.id.clone(), number) {
            return Err(bad(path, number, None, format!("id {:?} is already on line {first}", item.id)));
        }
        items.push(item);
    }
    Ok(items)
}

/// One JSONL line: an object with `id` (a string or a number) and `tiles` (N*N numbers, flat or
/// in rows) or `text` (the spec's format), and optionally `known` (the optimal length).
fn json_item(path: &Path, number: usize, line: &str) -> Result<Item, InputError> {
    let value: Value = serde_json::from_str(line).map_err(|error| {
        // serde_json ends its message with the position, which the error already has.
        let message = error.to_string();
        let message = message.rsplit_once(" at line ").map_or(message.as_str(), |(message, _)| message);
        bad(path, number, Some(error.column()), format!("not JSON: {message}"))
    })?;
    let Value::Object(object) = value else {
        return Err(bad(path, number, Some(1), "expected an object {\"id\": ..., \"tiles\": [...]}"));
    };
    let id = match object.get("id") {
        Some(Value::String(id)) if !id.is_empty() => id.clone(),
        Some(Value::Number(id)) => id.to_string(),
        Some(_) => return Err(bad(path, number, None, "\"id\" is not a non-empty string or a number")),
        None => return Err(bad(path, number, None, "no \"id\"")),
    };
    let board = match (object.get("tiles"), object.get("text")) {
        (Some(tiles), None) => json_tiles(tiles).map_err(|message| bad(path, number, None, message))?,
        (None, Some(Value::String(text))) => {
            text::parse_board(text).map_err(|error| bad(path, number, None, format!("\"text\": {error}")))?
        }
        (None, Some(_)) => return Err(bad(path, number, None, "\"text\" is not a string")),
        (Some(_), Some(_)) => return Err(bad(path, number, None, "both \"tiles\" and \"text\": give one")),
        (None, None) => return Err(bad(path, number, None, "no \"tiles\" or \"text\"")),
    };
    let known = match object.get("known") {
        None | Some(Value::Null) => None,
        Some(known) => Some(
            known
                .as_i64()
                .and_then(|known| i32::try_from(known).ok())
                .ok_or_else(|| bad(path, number, None, "\"known\" is not a whole number of moves"))?,
        ),
    };
    Ok(Item { id, board, known })
}

/// `tiles` as a board: N*N whole numbers, flat or as N rows of N.
fn json_tiles(tiles: &Value) -> Result<Board, String> {
    let Value::Array(cells) = tiles else { return Err("\"tiles\" is not an array".into()) };
    let flat: Vec<&Value> = if cells.iter().all(Value::is_array) {
        cells.iter().filter_map(Value::as_array).flatten().collect()
    } else {
        cells.iter().collect()
    };
    let tiles = flat
        .iter()
        .enumerate()
        .map(|(index, tile)| {
            tile.as_u64()
                .and_then(|tile| u16::try_from(tile).ok())
                .ok_or_else(|| format!("\"tiles\"[{index}] is {tile}, not a tile number"))
        })
        .collect::<Result<Vec<u16>, String>>()?;
    let board = Board::new(side(tiles.len()).ok_or_else(|| not_square(tiles.len()))?, &tiles);
    board.map_err(|error| format!("\"tiles\": {error}"))
}

/// N when `cells` is N*N with N at least 2.
fn side(cells: usize) -> Option<usize> {
    let side = cells.isqrt();
    (side >= 2 && side * side == cells).then_some(side)
}

fn not_square(cells: usize) -> String {
    format!("{cells} tiles is not a board: an N×N board has N*N tiles (9, 16, 25...)")
}

/// One TSV row, as in `benchmarks/`: id, then an optional known length, then the tiles
/// row-major, separated by spaces.
fn tsv_item(path: &Path, number: usize, line: &str) -> Result<Item, InputError> {
    let fields: Vec<(usize, &str)> = split_at_columns(line, '\t').collect();
    let ((_, id), known, (tiles_column, tiles)) = match fields.as_slice() {
        [id, tiles] => (*id, None, *tiles),
        [id, known, tiles] => (*id, Some(*known), *tiles),
        _ => {
            return Err(bad(
                path,
                number,
                None,
                format!("{} tab-separated fields: expected id, an optional known length, and the tiles", fields.len()),
            ));
        }
    };
    if id.trim().is_empty() {
        return Err(bad(path, number, Some(1), "the id is empty"));
    }
    let known = known
        .map(|(column, known)| {
            known
                .trim()
                .parse::<i32>()
                .map_err(|_| bad(path, number, Some(column), format!("{known:?} is not a length")))
        })
        .transpose()?;
    let tokens: Vec<(usize, &str)> = split_at_columns(tiles, ' ').filter(|(_, token)| !token.is_empty()).collect();
    let column_of = |index: usize| tokens.get(index).map_or(tiles_column, |(column, _)| tiles_column + column - 1);
    let tiles = tokens
        .iter()
        .enumerate()
        .map(|(index, (_, token))| {
            token
                .parse::<u16>()
                .map_err(|_| bad(path, number, Some(column_of(index)), format!("tile {token:?} is not a whole number")))
        })
        .collect::<Result<Vec<u16>, InputError>>()?;
    let dimension = side(tiles.len()).ok_or_else(|| bad(path, number, Some(tiles_column), not_square(tiles.len())))?;
    let board = Board::new(dimension, &tiles).map_err(|error| {
        let column = match &error {
            BoardError::TileOutOfRange { position, .. } => column_of(*position),
            BoardError::DuplicateTile { second, .. } => column_of(*second),
            _ => tiles_column,
        };
        bad(path, number, Some(column), error.to_string())
    })?;
    Ok(Item { id: id.trim().to_owned(), board, known })
}

/// The pieces of `line` split at `separator`, each with the 1-based column (in characters)
/// where it starts.
fn split_at_columns(line: &str, separator: char) -> impl Iterator<Item = (usize, &str)> {
    let mut column = 1;
    line.split(separator).map(move |field| {
        let start = column;
        column += field.chars().count() + 1;
        (start, field)
    })
}
