//! Where the drawings go: the terminal, cleared before each redraw, or a plain stream of
//! frames when the output is a file or a pipe.

use std::io::{IsTerminal, Write};

/// How output is shown.
#[derive(Clone, Copy, Debug)]
pub struct Output {
    /// ANSI colours in drawings.
    pub colour: bool,
    /// Clear the terminal before each frame, so it is redrawn in place.
    pub redraw_in_place: bool,
}

impl Output {
    /// Colours unless `no_colour`, `NO_COLOR` is set (https://no-color.org) or stdout is not a
    /// terminal; frames redrawn in place only on a terminal.
    pub fn detect(no_colour: bool) -> Self {
        let terminal = std::io::stdout().is_terminal();
        let no_color_env = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Self {
            colour: terminal && !no_colour && !no_color_env,
            redraw_in_place: terminal,
        }
    }

    /// Shows one whole frame.
    pub fn frame(&self, text: &str) {
        let mut out = std::io::stdout().lock();
        // Clear the screen and put the cursor top left; elsewhere frames follow each other.
        let clear = if self.redraw_in_place {
            "\x1b[2J\x1b[H"
        } else {
            "\n"
        };
        let _ = write!(out, "{clear}{text}");
        let _ = out.flush();
    }
}
