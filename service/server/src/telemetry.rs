//! Logging: `tracing` events as text or JSON lines on stderr, filtered RUST_LOG style.
//!
//! Spans: every RPC runs in an `rpc` span (method, match id) and every match actor in a `match`
//! span (match id, variant), so a log line can always be traced to the call and match it
//! belongs to.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

use crate::config::{LogFormat, LogSettings};

#[derive(Debug, thiserror::Error)]
pub enum TelemetryError {
    #[error("invalid log filter `{filter}`: {source}")]
    Filter {
        filter: String,
        source: tracing_subscriber::filter::ParseError,
    },
    #[error("a global logger is already installed")]
    AlreadyInstalled,
}

/// Installs the process-wide subscriber.
pub fn init(log: &LogSettings) -> Result<(), TelemetryError> {
    let filter = EnvFilter::try_new(&log.filter).map_err(|source| TelemetryError::Filter {
        filter: log.filter.clone(),
        source,
    })?;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // Colour codes only help a person at a terminal; in files and collectors they are noise.
        .with_ansi(std::io::stderr().is_terminal());
    let installed = match log.format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().with_current_span(true).try_init(),
    };
    installed.map_err(|_| TelemetryError::AlreadyInstalled)
}
