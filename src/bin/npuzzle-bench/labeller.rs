//! The other solver's cost per board, read from `<name>-labeller.tsv` beside a benchmark file,
//! so a sample's times can be set beside that solver's on the same boards.
//!
//! Rows are `id<TAB>optimal<TAB>nodes_generated<TAB>seconds`; `#` lines are comments.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// Where the labeller file of `benchmark` sits: `deepcubea-24.tsv` has
/// `deepcubea-24-labeller.tsv`.
pub fn path_beside(benchmark: &Path) -> Option<PathBuf> {
    let stem = benchmark.file_stem()?.to_str()?;
    let extension = benchmark.extension().and_then(|extension| extension.to_str()).unwrap_or("tsv");
    Some(benchmark.with_file_name(format!("{stem}-labeller.{extension}")))
}

/// The seconds per id of the labeller file at `path`.
pub fn read(path: &Path) -> Result<HashMap<String, f64>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let rows = text.lines().enumerate().filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'));
    rows.map(|(index, line)| parse_row(line).with_context(|| format!("{}:{}", path.display(), index + 1))).collect()
}

fn parse_row(line: &str) -> Result<(String, f64)> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [id, _optimal, _nodes, seconds] = fields[..] else {
        bail!("expected four tab-separated fields: id, optimal moves, nodes generated, seconds");
    };
    let seconds: f64 = seconds.trim().parse().with_context(|| format!("seconds {seconds:?}"))?;
    if !seconds.is_finite() || seconds < 0.0 {
        bail!("seconds {seconds} is not a duration");
    }
    Ok((id.to_owned(), seconds))
}
