//! `--mode connections`: what connections cost the server, and what hostile ones cost a normal
//! client.
//!
//! 1. With `--server-pid`: the server's resident memory before and after `--connections`
//!    connections that each completed the HTTP/2 handshake and made one `Ping`, left open and
//!    idle: the memory per idle connection; then, with those still open, after as many silent
//!    sockets (connected, sending nothing): the memory per silent socket.
//! 2. The round trip of a normal client's `Ping`, one call at a time: without hostile
//!    connections, then while `--connections` silent sockets are open, then again after they
//!    are closed. The report gives the ratio of the second to the first, and of the third to
//!    the first, to show how much the figure drifts by itself.
//!
//! A silent socket is closed by the server after its handshake timeout (10 s by default); the
//! report says how many were still open when the measurement under them ended, so a run that
//! outlasted the timeout is visible as such, and with `--hold-secs` how many are still open
//! that much later.

use std::time::{Duration, Instant};

use pitchmate_proto::v1 as pb;
use pitchmate_proto::v1::server_service_client::ServerServiceClient;
use tokio::net::TcpStream;
use tokio::task::JoinSet;
use tonic::transport::{Channel, Endpoint};

use super::{Args, CALL_TIMEOUT, ping_sequential, resident_kib};

/// Connections opened at once; more would only queue in the server's accept backlog.
const OPENERS: usize = 32;

/// Time for the server to take in connections that the kernel has already completed, before
/// memory is read or round trips measured.
const SETTLE: Duration = Duration::from_millis(500);

pub async fn run(args: &Args) -> Result<bool, String> {
    let count = args.connections as usize;
    println!(
        "server {}, {count} connections, {} sequential pings per phase",
        args.server, args.pings
    );
    let endpoint = Endpoint::from_shared(args.server.clone())
        .map_err(|e| format!("bad server URL {:?}: {e}", args.server))?
        .tcp_nodelay(true)
        .timeout(CALL_TIMEOUT);
    let address = endpoint
        .uri()
        .authority()
        .map(|a| a.as_str().to_owned())
        .ok_or_else(|| format!("the server URL {} names no host", args.server))?;

    match args.server_pid {
        Some(pid) => {
            // Both kinds are held together: memory freed by one kind would otherwise be reused
            // by the other and hide it.
            let before = resident_kib(pid)?;
            let idle = open_idle(&endpoint, count).await?;
            tokio::time::sleep(SETTLE).await;
            let with_idle = resident_kib(pid)?;
            println!(
                "server memory: {before} KiB resident before, {with_idle} KiB with {count} idle \
                 connections (handshake and one Ping each): {:.1} KiB per idle connection",
                per(with_idle, before, count)
            );
            let silent = open_silent(&address, count).await?;
            tokio::time::sleep(SETTLE).await;
            let with_silent = resident_kib(pid)?;
            println!(
                "server memory: {with_silent} KiB with {count} silent sockets as well: {:.1} KiB \
                 per silent socket",
                per(with_silent, with_idle, count)
            );
            drop((idle, silent));
            // Give the server time to see them close before the round trips are measured.
            tokio::time::sleep(SETTLE).await;
        }
        None => println!("memory per connection: skipped (needs --server-pid)"),
    }

    let normal = endpoint
        .connect()
        .await
        .map_err(|e| format!("cannot connect to {}: {e}", args.server))?;
    // One call first, so the connection is warm in every phase alike.
    ping_sequential(normal.clone(), 100).await?;
    let without = ping_sequential(normal.clone(), args.pings).await?;
    without.print("ping, no hostile connections");

    let mut silent = open_silent(&address, count).await?;
    tokio::time::sleep(SETTLE).await;
    let measuring = Instant::now();
    let with = ping_sequential(normal.clone(), args.pings).await?;
    let under_hostile = measuring.elapsed() + SETTLE;
    let open = still_open(&mut silent);
    with.print(&format!("ping, {count} silent sockets open"));
    println!(
        "{open} of {count} silent sockets still open when that phase ended ({:.1} s after \
         they connected)",
        under_hostile.as_secs_f64()
    );
    if args.hold_secs > 0 {
        tokio::time::sleep(Duration::from_secs(args.hold_secs)).await;
        println!(
            "{} of {count} silent sockets still open about {:.1} s after they connected",
            still_open(&mut silent),
            (under_hostile + Duration::from_secs(args.hold_secs)).as_secs_f64()
        );
    }
    drop(silent);
    tokio::time::sleep(SETTLE).await;
    let after = ping_sequential(normal, args.pings).await?;
    after.print("ping, after they closed");
    super::print_ratios("silent sockets / none", &with, &without);
    super::print_ratios("after / none (drift)", &after, &without);
    Ok(true)
}

fn per(after_kib: u64, before_kib: u64, count: usize) -> f64 {
    after_kib.saturating_sub(before_kib) as f64 / count as f64
}

/// `count` connections, each with one Ping answered.
async fn open_idle(endpoint: &Endpoint, count: usize) -> Result<Vec<Channel>, String> {
    let mut openers = JoinSet::new();
    for opener in 0..OPENERS {
        let endpoint = endpoint.clone();
        let share = (opener..count).step_by(OPENERS).count();
        openers.spawn(async move {
            let mut channels = Vec::with_capacity(share);
            for _ in 0..share {
                let channel = endpoint.connect().await.map_err(|e| e.to_string())?;
                ServerServiceClient::new(channel.clone())
                    .ping(pb::PingRequest {})
                    .await
                    .map_err(|e| e.to_string())?;
                channels.push(channel);
            }
            Ok::<_, String>(channels)
        });
    }
    let mut channels = Vec::with_capacity(count);
    while let Some(joined) = openers.join_next().await {
        let opened = joined
            .map_err(|e| format!("connection task: {e}"))?
            .map_err(|e| format!("opening idle connections failed: {e}"))?;
        channels.extend(opened);
    }
    Ok(channels)
}

/// `count` TCP connections to `address` that send nothing.
async fn open_silent(address: &str, count: usize) -> Result<Vec<TcpStream>, String> {
    let mut sockets = Vec::with_capacity(count);
    for _ in 0..count {
        sockets.push(
            TcpStream::connect(address)
                .await
                .map_err(|e| format!("cannot open a silent socket to {address}: {e}"))?,
        );
    }
    Ok(sockets)
}

/// How many of `sockets` the server has not closed. What the server sent (an HTTP/2 server may
/// send its SETTINGS before the client says anything) is read and dropped on the way.
fn still_open(sockets: &mut [TcpStream]) -> usize {
    let mut sink = [0u8; 1024];
    sockets
        .iter_mut()
        .filter(|socket| {
            loop {
                match socket.try_read(&mut sink) {
                    Ok(0) => break false,
                    Ok(_) => continue,
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break true,
                    Err(_) => break false,
                }
            }
        })
        .count()
}
