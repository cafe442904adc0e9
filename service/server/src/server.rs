//! Puts the services together and serves them until told to stop.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use pitchmate_proto::v1 as pb;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tonic::service::RoutesBuilder;

use crate::api::{ActionRateLimiter, MatchApi, MessageSize, ServerApi, VariantApi};
use crate::config::Settings;
use crate::games::GameRegistry;
use crate::hosting::stream::SpectatorSlots;
use crate::hosting::{ActorLimits, MatchRegistry};
use crate::store::{Store, StoreError};
use crate::transport;

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot create the data directory {path}: {source}")]
    DataDir {
        path: String,
        source: std::io::Error,
    },
    #[error("store: {0}")]
    Store(#[from] StoreError),
    #[error("reflection descriptors: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
}

/// Opens the store, rebuilds every unfinished match from it, and serves `MatchService`,
/// `VariantService`, `ServerService`, `grpc.health.v1` and server reflection (v1 and v1alpha) on `listener` until
/// `shutdown` completes, under the `connections` limits. Then it drains: stops accepting,
/// closes event streams, sends every connection GOAWAY and lets in-flight calls finish (each
/// already durable when answered) until `connections.shutdown_timeout_secs`, cuts what is left
/// and closes the store.
pub async fn serve(
    settings: &Settings,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    std::fs::create_dir_all(&settings.data_dir).map_err(|source| ServeError::DataDir {
        path: settings.data_dir.display().to_string(),
        source,
    })?;
    let store = Store::open(&settings.store.url, &settings.data_dir).await?;
    let registry = Arc::new(
        MatchRegistry::open(
            GameRegistry::standard(),
            ActorLimits {
                commands: settings.limits.match_commands,
                live_capacity: settings.stream.live_capacity,
            },
            store.clone(),
        )
        .await?,
    );
    let (stopping_sender, stopping) = watch::channel(false);
    let limits = &settings.limits;
    let match_api = pb::match_service_server::MatchServiceServer::new(MatchApi::new(
        Arc::clone(&registry),
        Duration::from_secs(settings.stream.heartbeat_secs),
        SpectatorSlots::new(limits.watchers_per_match),
        ActionRateLimiter::new(limits.actions_per_second, limits.action_burst),
        stopping,
    ))
    .max_decoding_message_size(limits.max_request_bytes)
    .max_encoding_message_size(limits.max_response_bytes);
    let variant_api =
        pb::variant_service_server::VariantServiceServer::new(VariantApi::new(registry))
            .max_decoding_message_size(limits.max_request_bytes)
            .max_encoding_message_size(limits.max_response_bytes);
    let server_api = pb::server_service_server::ServerServiceServer::new(ServerApi::new())
        .max_decoding_message_size(limits.max_request_bytes)
        .max_encoding_message_size(limits.max_response_bytes);

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
    let mut routes = RoutesBuilder::default();
    routes
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(match_api)
        .add_service(variant_api)
        .add_service(server_api);
    let service = MessageSize::new(routes.routes().prepare());
    transport::serve(
        listener,
        service,
        transport::Limits::from(&settings.connections),
        shutdown,
    )
    .await;
    store.close().await?;
    tracing::info!("stopped: every accepted action is stored");
    Ok(())
}
