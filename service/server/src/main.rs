//! `pitchmate`: runs the game server until SIGINT or SIGTERM.

use std::process::ExitCode;

use clap::Parser;
use pitchmate_server::config::{Cli, Command, Settings};
use pitchmate_server::server::{
    ServerBuilder, create_operator_key, export_store, import_store, recompute_ratings,
};
use pitchmate_server::telemetry;

// Answers and events are many small buffers built and dropped per call; under load glibc's
// allocator spent about a third of the server's CPU on them (see docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    let settings = match Settings::load(&cli) {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("pitchmate: bad settings: {error}");
            return ExitCode::from(2);
        }
    };
    if let Some(Command::OperatorKey { label }) = cli.command {
        return match create_operator_key(&settings, label).await {
            Ok(issued) => {
                println!("{}", issued.secret);
                eprintln!(
                    "pitchmate: operator key `{}` made; it is shown only this once. Send it as \
                     `authorization: Bearer <key>`.",
                    issued.key.key_id
                );
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("pitchmate: cannot make an operator key: {error}");
                ExitCode::FAILURE
            }
        };
    }
    if let Some(Command::RecomputeRatings) = cli.command {
        return match recompute_ratings(&settings).await {
            Ok(report) => {
                println!(
                    "{} rated matches in {} pools; {} live ratings; {} differ",
                    report.matches,
                    report.pools,
                    report.ratings,
                    report.differences.len()
                );
                for (pool, bot, live, recomputed) in &report.differences {
                    println!("{pool} {bot}: live {live:?}, recomputed {recomputed:?}");
                }
                if report.differences.is_empty() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::FAILURE
                }
            }
            Err(error) => {
                eprintln!("pitchmate: cannot recompute ratings: {error}");
                ExitCode::from(2)
            }
        };
    }
    if let Some(Command::Export { out }) = &cli.command {
        return match export_store(&settings, out.as_deref()).await {
            Ok(counts) => {
                let to = out.as_ref().map_or("standard output".to_owned(), |path| {
                    path.display().to_string()
                });
                eprintln!(
                    "pitchmate: exported {} rows to {to} ({counts})",
                    counts.total()
                );
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("pitchmate: cannot export: {error}");
                ExitCode::from(2)
            }
        };
    }
    if let Some(Command::Import { input }) = &cli.command {
        return match import_store(&settings, input.as_deref()).await {
            Ok(counts) => {
                eprintln!(
                    "pitchmate: imported {} rows ({counts}); run `pitchmate recompute-ratings` \
                     on the new store to check its ratings",
                    counts.total()
                );
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("pitchmate: cannot import: {error}");
                ExitCode::from(2)
            }
        };
    }
    if let Err(error) = telemetry::init(&settings.log) {
        eprintln!("pitchmate: {error}");
        return ExitCode::from(2);
    }
    #[cfg(unix)]
    open_file_limit::raise(settings.connections.max_connections);
    let listener = match tokio::net::TcpListener::bind(settings.listen).await {
        Ok(listener) => listener,
        Err(error) => {
            tracing::error!(listen = %settings.listen, %error, "cannot listen");
            return ExitCode::FAILURE;
        }
    };
    let mut server = ServerBuilder::new(settings.clone());
    if let Some(address) = settings.metrics.listen {
        match tokio::net::TcpListener::bind(address).await {
            Ok(listener) => server = server.metrics(listener),
            Err(error) => {
                tracing::error!(listen = %address, %error, "cannot listen for metrics (setting `metrics.listen`)");
                return ExitCode::FAILURE;
            }
        }
    }
    match server.serve(listener, shutdown_signal()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "server failed");
            ExitCode::FAILURE
        }
    }
}

/// Resolves on the first SIGINT (Ctrl-C) or SIGTERM.
async fn shutdown_signal() {
    let interrupt = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(%error, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::error!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}

/// Every connection holds a file descriptor. Many systems start processes with a soft limit of
/// 1,024 open files, far below `connections.max_connections`: then the server would run out of
/// descriptors (and refuse connections) long before its own cap. The soft limit may be raised to
/// the hard one without privileges, as servers commonly do at start; if even that is too low,
/// the operator is told.
#[cfg(unix)]
mod open_file_limit {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};

    /// Descriptors besides connections: the store, the listener, logs, the runtime.
    const SPARE: u64 = 64;

    pub fn raise(max_connections: u32) {
        let wanted = u64::from(max_connections) + SPARE;
        let limit = getrlimit(Resource::Nofile);
        let Some(current) = limit.current else {
            return;
        };
        if current >= wanted {
            return;
        }
        let raised = limit.maximum.map_or(wanted, |hard| hard.min(wanted));
        if raised > current {
            let new = Rlimit {
                current: Some(raised),
                maximum: limit.maximum,
            };
            if let Err(error) = setrlimit(Resource::Nofile, new) {
                tracing::warn!(%error, current, "cannot raise the open-file limit");
            }
        }
        let now = getrlimit(Resource::Nofile).current.unwrap_or(u64::MAX);
        if now < wanted {
            tracing::warn!(
                open_files = now,
                max_connections,
                "the open-file limit is below connections.max_connections: raise it (ulimit -n) \
                 or lower the setting, or connections will be refused for want of descriptors"
            );
        } else {
            tracing::info!(from = current, to = now, "raised the open-file limit");
        }
    }
}
