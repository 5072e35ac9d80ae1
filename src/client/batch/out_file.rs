//! The output file of a batch, which is also its record of finished work: opened for append,
//! the ids already in it read first so a rerun skips them, and each new line written with one
//! write, so a killed batch leaves whole lines only. A torn last line (the machine crashed mid
//! write) is cut off when the file is opened, and its board is done again.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;

/// Why the output file cannot be used.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum OutFileError {
    /// Opening, reading, cutting or writing it failed.
    #[error("cannot {doing} {}: {source}", path.display())]
    Io {
        /// What was being done.
        doing: &'static str,
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// A whole line of it is not a line a batch writes.
    #[error("{}: line {line}: not a batch answer (a JSON object with an \"id\"): is it the right --out?", path.display())]
    Foreign {
        /// The file.
        path: PathBuf,
        /// The line, 1-based.
        line: usize,
    },
}

/// The output file, open for appending.
#[derive(Debug)]
pub struct OutFile {
    file: File,
    path: PathBuf,
}

/// What the output file already held when it was opened.
#[derive(Debug, Default)]
pub struct Earlier {
    /// The ids of its whole lines.
    pub ids: HashSet<String>,
    /// Whether a torn last line was cut off.
    pub torn: bool,
}

impl OutFile {
    /// Opens (or creates) `path` for appending, and reads the ids of the lines already in it;
    /// a last line without its newline is cut off first.
    pub fn open(path: &Path) -> Result<(OutFile, Earlier), OutFileError> {
        let io_error = |doing| move |source| OutFileError::Io { doing, path: path.to_owned(), source };
        let mut file = OpenOptions::new().read(true).append(true).create(true).open(path).map_err(io_error("open"))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io_error("read"))?;
        let whole = bytes.iter().rposition(|&byte| byte == b'\n').map_or(0, |last| last + 1);
        let torn = whole < bytes.len();
        if torn {
            file.set_len(whole as u64).map_err(io_error("cut the torn last line of"))?;
        }
        let mut ids = HashSet::new();
        for (index, line) in bytes[..whole].split(|&byte| byte == b'\n').enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let id = serde_json::from_slice::<serde_json::Value>(line)
                .ok()
                .and_then(|value| value.get("id").and_then(|id| id.as_str().map(str::to_owned)));
            let id = id.ok_or_else(|| OutFileError::Foreign { path: path.to_owned(), line: index + 1 })?;
            ids.insert(id);
        }
        Ok((OutFile { file, path: path.to_owned() }, Earlier { ids, torn }))
    }

    /// Appends `line` (which ends with its newline) in one write.
    pub fn write_line(&mut self, line: &str) -> Result<(), OutFileError> {
        self.file.write_all(line.as_bytes()).map_err(|source| OutFileError::Io {
            doing: "write to",
            path: self.path.clone(),
            source,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_torn_last_line_is_cut_off_and_its_id_left_to_do_again() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("out.jsonl");
        std::fs::write(&path, "{\"id\":\"a\",\"moves\":1}\n{\"id\":\"b\",\"mo").expect("write");
        let (mut out, earlier) = OutFile::open(&path).expect("open");
        assert!(earlier.torn);
        assert_eq!(earlier.ids, HashSet::from(["a".to_owned()]));
        out.write_line("{\"id\":\"b\",\"moves\":2}\n").expect("write");
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(text, "{\"id\":\"a\",\"moves\":1}\n{\"id\":\"b\",\"moves\":2}\n");
    }

    #[test]
    fn a_file_of_other_lines_is_refused_with_its_line() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("out.jsonl");
        std::fs::write(&path, "{\"id\":\"a\"}\nhello\n").expect("write");
        let error = OutFile::open(&path).expect_err("not a batch's output");
        assert!(
            error.to_string().ends_with(
                "out.jsonl: line 2: not a batch answer (a JSON object with an \"id\"): is it the right --out?"
            ),
            "{error}"
        );
    }
}
