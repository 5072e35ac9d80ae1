//! The progress bar of a batch on stderr: boards done, failures, the rate and the time left,
//! drawn only when stderr is a terminal, so a log or a pipe gets the summary alone.

use std::io::{self, IsTerminal};

use indicatif::{ProgressBar, ProgressStyle};

/// A bar over a batch's boards, or nothing when stderr is not a terminal.
#[derive(Debug)]
pub struct Bar(Option<ProgressBar>);

impl Bar {
    /// A bar for `boards` boards.
    pub fn new(boards: usize) -> Bar {
        if !io::stderr().is_terminal() {
            return Bar(None);
        }
        let bar = ProgressBar::new(boards as u64);
        let template = "{wide_bar} {human_pos}/{human_len} boards, {msg}, {per_sec}, ETA {eta}";
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        bar.set_message("0 failed");
        Bar(Some(bar))
    }

    /// One more board done; `failed` have failed so far.
    pub fn advance(&self, failed: usize) {
        if let Some(bar) = &self.0 {
            bar.inc(1);
            if failed > 0 {
                bar.set_message(format!("{failed} failed"));
            }
        }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
