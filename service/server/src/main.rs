//! `pitchmate`: runs the game server until SIGINT or SIGTERM.

use std::process::ExitCode;

use clap::Parser;
use pitchmate_server::config::{Cli, Settings};
use pitchmate_server::{serve, telemetry};

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
    if let Err(error) = telemetry::init(&settings.log) {
        eprintln!("pitchmate: {error}");
        return ExitCode::from(2);
    }
    let listener = match tokio::net::TcpListener::bind(settings.listen).await {
        Ok(listener) => listener,
        Err(error) => {
            tracing::error!(listen = %settings.listen, %error, "cannot listen");
            return ExitCode::FAILURE;
        }
    };
    match serve(&settings, listener, shutdown_signal()).await {
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
