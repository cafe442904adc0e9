//! Puts the services together and serves them until told to stop.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use pitchmate_proto::v1 as pb;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::TcpListenerStream;
use tonic::transport::Server;

use crate::api::{MatchApi, ServerApi, VariantApi};
use crate::config::Settings;
use crate::games::GameRegistry;
use crate::hosting::stream::WatchLimits;
use crate::hosting::{ActorLimits, MatchRegistry};

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot create the data directory {path}: {source}")]
    DataDir {
        path: String,
        source: std::io::Error,
    },
    #[error("reflection descriptors: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    #[error("transport: {0}")]
    Transport(#[from] tonic::transport::Error),
}

/// Serves `MatchService`, `VariantService`, `ServerService`, `grpc.health.v1` and server reflection (v1 and
/// v1alpha) on `listener` until `shutdown` completes; then stops accepting, closes event streams
/// and lets in-flight calls finish.
pub async fn serve(
    settings: &Settings,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    std::fs::create_dir_all(&settings.data_dir).map_err(|source| ServeError::DataDir {
        path: settings.data_dir.display().to_string(),
        source,
    })?;
    let registry = Arc::new(MatchRegistry::new(
        GameRegistry::standard(),
        ActorLimits {
            commands: settings.limits.match_commands,
            live_capacity: settings.stream.live_capacity,
        },
    ));
    let (stopping_sender, stopping) = watch::channel(false);
    let match_api = pb::match_service_server::MatchServiceServer::new(MatchApi::new(
        Arc::clone(&registry),
        WatchLimits {
            buffer: settings.stream.watcher_buffer,
            heartbeat: Duration::from_secs(settings.stream.heartbeat_secs),
        },
        stopping,
    ));
    let variant_api =
        pb::variant_service_server::VariantServiceServer::new(VariantApi::new(registry));
    let server_api = pb::server_service_server::ServerServiceServer::new(ServerApi::new());

    let (health, health_service) = tonic_health::server::health_reporter();
    health
        .set_service_status("", tonic_health::ServingStatus::Serving)
        .await;
    health
        .set_serving::<pb::match_service_server::MatchServiceServer<MatchApi>>()
        .await;
    health
        .set_serving::<pb::variant_service_server::VariantServiceServer<VariantApi>>()
        .await;
    health
        .set_serving::<pb::server_service_server::ServerServiceServer<ServerApi>>()
        .await;

    let reflection_v1 = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    let reflection_v1alpha = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1alpha()?;

    let address = listener.local_addr().ok();
    tracing::info!(?address, data_dir = %settings.data_dir.display(), "serving");
    let shutdown = async move {
        shutdown.await;
        tracing::info!("shutting down: closing streams, finishing in-flight calls");
        // Streams would otherwise keep the server waiting for matches that may never end.
        stopping_sender.send_replace(true);
    };
    // Small request/response messages must not wait for Nagle's algorithm.
    let incoming = TcpListenerStream::new(listener).map(|accepted| {
        accepted.inspect(|stream| {
            if let Err(error) = stream.set_nodelay(true) {
                tracing::warn!(%error, "cannot disable Nagle's algorithm on a connection");
            }
        })
    });
    Server::builder()
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(match_api)
        .add_service(variant_api)
        .add_service(server_api)
        .serve_with_incoming_shutdown(incoming, shutdown)
        .await?;
    tracing::info!("stopped");
    Ok(())
}
