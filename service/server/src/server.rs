//! Puts the services together and serves them until told to stop.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use pitchmate_proto::v1 as pb;
use tokio::net::TcpListener;
use tokio::sync::{Notify, watch};
use tonic::server::NamedService;
use tonic::service::RoutesBuilder;
use tower::Layer;

use crate::api::{
    BotApi, ChallengeApi, Credentials, InboxApi, MatchApi, MessageSize, QueueApi, RatingApi,
    ServerApi, TournamentApi, VariantApi,
};
use crate::config::Settings;
use crate::forward::{Forward, ForwardSettings};
use crate::games::GameRegistry;
use crate::hosting::{ActorLimits, MatchRegistry};
use crate::store::transfer::{self, Counts, TransferError};
use crate::store::{Store, StoreError, StoreHealth};
use crate::transport;
use crate::web::WebBoard;
use pb::bot_service_server::BotServiceServer;
use pb::challenge_service_server::ChallengeServiceServer;
use pb::inbox_service_server::InboxServiceServer;
use pb::match_service_server::MatchServiceServer;
use pb::queue_service_server::QueueServiceServer;
use pb::rating_service_server::RatingServiceServer;
use pb::server_service_server::ServerServiceServer;
use pb::tournament_service_server::TournamentServiceServer;
use pb::variant_service_server::VariantServiceServer;
use pitchmate_leagues::challenges::Challenges;
use pitchmate_leagues::queue::Queue;
use pitchmate_leagues::rating::RatingConfig;
use pitchmate_leagues::scheduler::{Scheduler, SchedulerLease};
use pitchmate_leagues::tournaments::{Signal, Tournaments};
use pitchmate_leagues::{Accounts, BotDefaults, InboxBus, follower};

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
    #[error("{0}")]
    Accounts(#[from] pitchmate_leagues::LeagueError),
    #[error("{0}")]
    Tls(#[from] crate::tls::TlsError),
}

/// Serves the standard server (see [`ServerBuilder::serve`]) with `settings`.
pub async fn serve(
    settings: &Settings,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    ServerBuilder::new(settings.clone())
        .serve(listener, shutdown)
        .await
}

/// Every request as the transport hands it over, and the service that answers it.
pub type HttpService = tower::util::BoxCloneSyncService<
    tonic::codegen::http::Request<hyper::body::Incoming>,
    tonic::codegen::http::Response<tonic::body::Body>,
    Infallible,
>;

/// What a service added to the server may build on: the matches, the store (and through it
/// the lifecycle feed), and the signal that the server is stopping.
pub struct Hosted {
    pub registry: Arc<MatchRegistry>,
    /// The bots and their keys.
    pub accounts: Arc<Accounts>,
    pub store: Store,
    pub stopping: watch::Receiver<bool>,
}

type AddServices = Box<dyn FnOnce(&mut RoutesBuilder, &Hosted) + Send>;
type Wrap = Box<dyn FnOnce(HttpService) -> HttpService + Send>;

/// Assembles a server from its games, its store, its own services and whatever an embedder
/// adds (a league service, a metrics layer) without changing this file:
///
/// ```no_run
/// # async fn run(settings: pitchmate_server::Settings, listener: tokio::net::TcpListener) {
/// use pitchmate_server::server::ServerBuilder;
/// ServerBuilder::new(settings)
///     .add_services(|routes, hosted| {
///         // routes.add_service(MyLeagueServer::new(MyLeague::new(hosted.store.clone())));
///         let _ = (routes, hosted);
///     })
///     .layer(|service| service) // a tower layer around every call
///     .serve(listener, std::future::pending())
///     .await
///     .unwrap();
/// # }
/// ```
pub struct ServerBuilder {
    settings: Settings,
    games: GameRegistry,
    store: Option<Store>,
    add_services: Vec<AddServices>,
    layers: Vec<Wrap>,
    metrics: Option<TcpListener>,
}

impl ServerBuilder {
    /// The standard games, and the store `settings` name.
    pub fn new(settings: Settings) -> Self {
        Self {
            settings,
            games: GameRegistry::standard(),
            store: None,
            add_services: Vec::new(),
            layers: Vec::new(),
            metrics: None,
        }
    }

    /// Serves `GET /metrics` on this listener (see [`crate::metrics`]).
    pub fn metrics(mut self, listener: TcpListener) -> Self {
        self.metrics = Some(listener);
        self
    }

    /// Hosts these games instead of the standard five.
    pub fn games(mut self, games: GameRegistry) -> Self {
        self.games = games;
        self
    }

    /// Uses this store instead of opening the one the settings name.
    pub fn store(mut self, store: Store) -> Self {
        self.store = Some(store);
        self
    }

    /// Adds gRPC services beside the server's own, built once the matches are hosted.
    pub fn add_services(
        mut self,
        add: impl FnOnce(&mut RoutesBuilder, &Hosted) + Send + 'static,
    ) -> Self {
        self.add_services.push(Box::new(add));
        self
    }

    /// Wraps every call in `wrap` (a tower layer, boxed), outside the layers added before.
    pub fn layer(mut self, wrap: impl FnOnce(HttpService) -> HttpService + Send + 'static) -> Self {
        self.layers.push(Box::new(wrap));
        self
    }

    /// Opens the store, rebuilds every unfinished match from it, and serves `MatchService`,
    /// `VariantService`, `ServerService`, `grpc.health.v1`, server reflection (v1 and v1alpha)
    /// and the added services (over gRPC, and over grpc-web for browsers), and the web board's
    /// page on `GET /`, on `listener` until `shutdown` completes, under the
    /// `connections` limits. Then it drains: stops accepting, closes event streams, sends
    /// every connection GOAWAY and lets in-flight calls finish (each already durable when
    /// answered) until `connections.shutdown_timeout_secs`, cuts what is left and closes the
    /// store.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send,
    ) -> Result<(), ServeError> {
        let Self {
            settings,
            games,
            store,
            add_services,
            layers,
            metrics,
        } = self;
        let settings = &settings;
        // A bad certificate or key stops the server before anything else is opened.
        let tls = crate::tls::acceptor(&settings.tls)?;
        let store = match store {
            Some(store) => store,
            None => open_store(settings).await?,
        };
        serve_with(
            settings,
            games,
            store,
            Extras {
                add_services,
                layers,
                metrics,
                tls,
            },
            listener,
            shutdown,
        )
        .await
    }
}

/// Makes an operator key in the store `settings` name and returns it, to be shown once: the
/// `pitchmate operator-key` command. A server running on the same store accepts it the first
/// time it is presented.
pub async fn create_operator_key(
    settings: &Settings,
    label: String,
) -> Result<pitchmate_leagues::IssuedKey, ServeError> {
    let store = open_store(settings).await?;
    let defaults = BotDefaults {
        max_concurrent: settings.bots.max_concurrent,
        daily_cap: settings.bots.daily_cap,
    };
    let accounts = Accounts::open(store.clone(), defaults, Vec::new()).await?;
    let issued = accounts
        .create_operator_key(label, std::time::SystemTime::now())
        .await;
    store.close().await?;
    Ok(issued?)
}

/// Recomputes every rating from the stored results and compares them with the live ones: the
/// `pitchmate recompute-ratings` command.
pub async fn recompute_ratings(
    settings: &Settings,
) -> Result<pitchmate_leagues::rated::Recomputation, ServeError> {
    let store = open_store(settings).await?;
    let report = pitchmate_leagues::rated::recompute_all(&store, &RatingConfig::default()).await;
    store.close().await?;
    Ok(report?)
}

/// Writes everything the store holds to `out` (standard output without one): the `pitchmate
/// export` command. A file is written whole or removed, never left half written.
pub async fn export_store(
    settings: &Settings,
    out: Option<&std::path::Path>,
) -> Result<Counts, TransferError> {
    let (url, data_dir) = (&settings.store.url, &settings.data_dir);
    let Some(path) = out else {
        let (_, counts) = transfer::export(url, data_dir, std::io::stdout()).await?;
        return Ok(counts);
    };
    let file = std::fs::File::create(path)
        .map_err(|error| TransferError::Io(format!("cannot create {}: {error}", path.display())))?;
    let written = match transfer::export(url, data_dir, file).await {
        Ok((file, counts)) => file.sync_all().map(|()| counts).map_err(|error| {
            TransferError::Io(format!("cannot write {}: {error}", path.display()))
        }),
        Err(error) => Err(error),
    };
    if written.is_err() {
        let _ = std::fs::remove_file(path);
    }
    written
}

/// Writes an export read from `input` (standard input without one) into the store, which must
/// hold no rows: the `pitchmate import` command.
pub async fn import_store(
    settings: &Settings,
    input: Option<&std::path::Path>,
) -> Result<Counts, TransferError> {
    let (url, data_dir) = (&settings.store.url, &settings.data_dir);
    match input {
        None => transfer::import(url, data_dir, std::io::BufReader::new(std::io::stdin())).await,
        Some(path) => {
            let file = std::fs::File::open(path).map_err(|error| {
                TransferError::Io(format!("cannot open {}: {error}", path.display()))
            })?;
            transfer::import(url, data_dir, std::io::BufReader::new(file)).await
        }
    }
}

async fn open_store(settings: &Settings) -> Result<Store, ServeError> {
    std::fs::create_dir_all(&settings.data_dir).map_err(|source| ServeError::DataDir {
        path: settings.data_dir.display().to_string(),
        source,
    })?;
    Ok(Store::open(&settings.store.url, &settings.data_dir).await?)
}

/// What the builder adds to the standard server.
struct Extras {
    add_services: Vec<AddServices>,
    layers: Vec<Wrap>,
    metrics: Option<TcpListener>,
    tls: Option<tokio_rustls::TlsAcceptor>,
}

async fn serve_with(
    settings: &Settings,
    games: GameRegistry,
    store: Store,
    extras: Extras,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), ServeError> {
    let Extras {
        add_services,
        layers,
        metrics,
        tls,
    } = extras;
    // Installed before the matches come back, so nothing they do goes uncounted.
    let metrics = metrics.map(|listener| (listener, crate::metrics::recorder()));
    let limits = &settings.limits;
    let registry = MatchRegistry::open_in_cluster(
        games,
        ActorLimits {
            commands: limits.match_commands,
            live_capacity: settings.stream.live_capacity,
            expire_unstarted_after: (limits.expire_unstarted_secs > 0)
                .then(|| Duration::from_secs(limits.expire_unstarted_secs)),
            unload_idle_after: (limits.unload_idle_secs > 0)
                .then(|| Duration::from_secs(limits.unload_idle_secs)),
            // A watcher that has only just lagged behind the live feed finds what it missed in
            // memory; one further behind than the tail reads it from the store.
            event_tail: settings.stream.live_capacity,
        },
        store.clone(),
        limits.open_matches_per_client,
        settings.cluster.hosting(),
    )
    .await?;
    let inboxes = InboxBus::default();
    let accounts = Arc::new(
        Accounts::open(
            store.clone(),
            BotDefaults {
                max_concurrent: settings.bots.max_concurrent,
                daily_cap: settings.bots.daily_cap,
            },
            registry
                .games()
                .variants()
                .map(|v| v.id.to_owned())
                .collect(),
        )
        .await?
        .announcing_on(inboxes.clone()),
    );
    let credentials = Arc::new(Credentials::new(
        Arc::clone(&accounts),
        limits.auth_failures_per_second,
        limits.auth_failure_burst,
    ));
    let (stopping_sender, stopping) = watch::channel(false);
    let assigned = Arc::new(Notify::new());
    let ratings = RatingConfig::default();
    let challenges = Arc::new(Challenges::new(
        store.clone(),
        Arc::clone(&accounts),
        Arc::clone(&registry),
        inboxes.clone(),
        Arc::clone(&assigned),
        ratings.clone(),
    ));
    let queue = Arc::new(Queue::new(
        store.clone(),
        Arc::clone(&accounts),
        Arc::clone(&registry),
        ratings.clone(),
        Arc::clone(&assigned),
    ));
    let tournament_signal = Signal::default();
    let tournaments = Arc::new(Tournaments::new(
        store.clone(),
        Arc::clone(&accounts),
        Arc::clone(&registry),
        inboxes.clone(),
        ratings.clone(),
        tournament_signal.clone(),
        Arc::clone(&assigned),
    ));
    let scheduling = Arc::new(AtomicBool::new(false));
    // Waited for at the end, so its lease is released before the store closes.
    let scheduler = tokio::spawn(
        Scheduler {
            store: store.clone(),
            accounts: Arc::clone(&accounts),
            registry: Arc::clone(&registry),
            challenges: Arc::clone(&challenges),
            queue: Arc::clone(&queue),
            bus: inboxes.clone(),
            tournaments: Arc::clone(&tournaments),
            show_up: Duration::from_secs(settings.bots.show_up_secs),
            assigned,
            lease: registry.lease_holder().map(|holder| SchedulerLease {
                holder: holder.to_owned(),
                ttl: Duration::from_secs(settings.cluster.lease_ttl_secs),
            }),
            scheduling: Arc::clone(&scheduling),
        }
        .run(stopping.clone()),
    );
    let tournament_api = TournamentServiceServer::new(TournamentApi::new(
        Arc::clone(&credentials),
        Arc::clone(&accounts),
        tournaments,
        stopping.clone(),
    ))
    .max_decoding_message_size(limits.max_document_bytes.max(limits.max_request_bytes))
    .max_encoding_message_size(limits.max_response_bytes);
    let hosted = Hosted {
        registry: Arc::clone(&registry),
        accounts,
        store: store.clone(),
        stopping: stopping.clone(),
    };
    let match_api = pb::match_service_server::MatchServiceServer::new(MatchApi::new(
        Arc::clone(&registry),
        Duration::from_secs(settings.stream.heartbeat_secs),
        limits,
        Arc::clone(&credentials),
        stopping.clone(),
    ))
    .max_decoding_message_size(limits.max_request_bytes)
    .max_encoding_message_size(limits.max_response_bytes);
    let bot_api = BotServiceServer::new(BotApi::new(
        Arc::clone(&credentials),
        limits.creates_per_second,
        limits.create_burst,
    ))
    .max_decoding_message_size(limits.max_request_bytes)
    .max_encoding_message_size(limits.max_response_bytes);
    let challenge_api =
        ChallengeServiceServer::new(ChallengeApi::new(Arc::clone(&credentials), challenges))
            .max_decoding_message_size(limits.max_request_bytes)
            .max_encoding_message_size(limits.max_response_bytes);
    let queue_api = QueueServiceServer::new(QueueApi::new(Arc::clone(&credentials), queue))
        .max_decoding_message_size(limits.max_request_bytes)
        .max_encoding_message_size(limits.max_response_bytes);
    let rating_api = RatingServiceServer::new(RatingApi::new(
        Arc::clone(&credentials),
        store.clone(),
        ratings.clone(),
    ))
    .max_decoding_message_size(limits.max_request_bytes)
    .max_encoding_message_size(limits.max_response_bytes);
    let retention = Duration::from_secs(settings.bots.inbox_retention_days.saturating_mul(86_400));
    tokio::spawn(follower::run(
        store.clone(),
        inboxes.clone(),
        tournament_signal,
        retention,
        ratings,
        stopping.clone(),
    ));
    let inbox_api = InboxServiceServer::new(InboxApi::new(
        credentials,
        store.clone(),
        inboxes,
        Duration::from_secs(settings.stream.heartbeat_secs),
        stopping.clone(),
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
    let mut store_health = store.health();
    let (answering_sender, mut answering) = watch::channel(true);
    let (serving_sender, serving) = watch::channel(true);
    tokio::spawn(check_store(
        store.clone(),
        Duration::from_secs(settings.store.check_interval_secs),
        answering_sender,
        stopping.clone(),
    ));
    // The process answers: nothing else makes this one NOT_SERVING (see LIVENESS).
    health
        .set_service_status(LIVENESS, tonic_health::ServingStatus::Serving)
        .await;
    // Reported before serving, so the first check already has an answer.
    report_health(&health, &mut store_health, &mut answering, &serving_sender).await;
    tokio::spawn(async move {
        // Until the store is closed or the checks stop: the server is stopping.
        loop {
            tokio::select! {
                changed = store_health.changed() => if changed.is_err() { return },
                changed = answering.changed() => if changed.is_err() { return },
            }
            report_health(&health, &mut store_health, &mut answering, &serving_sender).await;
        }
    });

    let reflection_v1 = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    let reflection_v1alpha = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1alpha()?;

    if let Some((listener, handle)) = metrics {
        let exposition = crate::metrics::Exposition {
            handle,
            registry: Arc::clone(&hosted.registry),
            store: store.clone(),
            serving: serving.clone(),
            scheduling,
        };
        tokio::spawn(crate::metrics::serve(
            listener,
            exposition,
            stopping.clone(),
        ));
    }
    let address = listener.local_addr().ok();
    tracing::info!(?address, tls = tls.is_some(), data_dir = %settings.data_dir.display(), "serving");
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
        .add_service(bot_api)
        .add_service(inbox_api)
        .add_service(challenge_api)
        .add_service(queue_api)
        .add_service(rating_api)
        .add_service(tournament_api)
        .add_service(variant_api)
        .add_service(server_api);
    for add in add_services {
        add(&mut routes, &hosted);
    }
    // Browsers reach the same services over grpc-web, and get the web board's page by GET.
    // In cluster mode, a call for a match another replica owns is forwarded to it; the layer
    // sits inside grpc-web, so browsers' calls are forwarded as plain gRPC too.
    let forwarding = settings.cluster.hosting().map(|cluster| ForwardSettings {
        replica_id: cluster.replica_id,
        copy_limit: limits.max_request_bytes.max(limits.max_document_bytes) + COPY_SLACK,
        streams_per_connection: settings.connections.max_streams_per_connection as usize,
    });
    let grpc = tonic_web::GrpcWebLayer::new().layer(Forward::new(
        MessageSize::new(routes.routes().prepare()),
        forwarding,
    ));
    let mut service = HttpService::new(WebBoard::new(grpc));
    for wrap in layers {
        service = wrap(service);
    }
    transport::serve(
        listener,
        tls,
        service,
        transport::Limits::from(&settings.connections),
        shutdown,
    )
    .await;
    // In cluster mode the leases go last, each after its holder's last write: the
    // scheduler's after its last pass, then the matches' (see `MatchRegistry::hand_over`).
    if scheduler.await.is_err() {
        tracing::error!("the league scheduler failed; its lease lapses");
    }
    hosted.registry.hand_over().await;
    store.close().await?;
    tracing::info!("stopped: every accepted action is stored");
    Ok(())
}

/// Request bytes kept for a forwarded call beyond the largest message: the messages' 5-byte
/// prefixes, and a `Play` client's first actions sent right behind its `open`.
const COPY_SLACK: usize = 64 * 1024;

/// A name in grpc.health.v1 that says SERVING for as long as the server answers at all, whatever
/// the store does: for a liveness probe, which should restart a stuck process but not every
/// replica while the database is down (readiness follows the store: the service `""`).
pub const LIVENESS: &str = "liveness";

/// Asks the store every `interval` whether it answers (see [`Store::check`]), giving each check
/// as long again to answer, and tells `answering`. The store's writer notices a failure only
/// when a write fails or its connection drops; this notices a database that went away while
/// nothing was written, or that stopped answering without closing the connection.
async fn check_store(
    store: Store,
    interval: Duration,
    answering: watch::Sender<bool>,
    mut stopping: watch::Receiver<bool>,
) {
    loop {
        tokio::select! {
            () = tokio::time::sleep(interval) => {}
            _ = stopping.wait_for(|stopping| *stopping) => return,
        }
        let answered = match tokio::time::timeout(interval, store.check()).await {
            Ok(Ok(())) => true,
            Ok(Err(error)) => {
                tracing::warn!(%error, "the store does not answer its health check");
                false
            }
            Err(_) => {
                tracing::warn!(
                    timeout_secs = interval.as_secs(),
                    "the store did not answer its health check in time \
                     (setting `store.check_interval_secs`)"
                );
                false
            }
        };
        answering.send_if_modified(|now| std::mem::replace(now, answered) != answered);
    }
}

/// Puts the health service in step with the store: every service is SERVING while the store
/// writes and answers its checks, NOT_SERVING otherwise (writes then fail fast with
/// STORE_UNAVAILABLE), so a load balancer or orchestrator stops sending traffic until the store
/// is back.
async fn report_health(
    health: &tonic_health::server::HealthReporter,
    store: &mut watch::Receiver<StoreHealth>,
    answering: &mut watch::Receiver<bool>,
    serving: &watch::Sender<bool>,
) {
    let writable = matches!(&*store.borrow_and_update(), StoreHealth::Writable);
    let up = writable && *answering.borrow_and_update();
    serving.send_replace(up);
    let status = if up {
        tonic_health::ServingStatus::Serving
    } else {
        tonic_health::ServingStatus::NotServing
    };
    for service in [
        "",
        <MatchServiceServer<MatchApi> as NamedService>::NAME,
        <BotServiceServer<BotApi> as NamedService>::NAME,
        <InboxServiceServer<InboxApi> as NamedService>::NAME,
        <ChallengeServiceServer<ChallengeApi> as NamedService>::NAME,
        <QueueServiceServer<QueueApi> as NamedService>::NAME,
        <RatingServiceServer<RatingApi> as NamedService>::NAME,
        <TournamentServiceServer<TournamentApi> as NamedService>::NAME,
        <VariantServiceServer<VariantApi> as NamedService>::NAME,
        <ServerServiceServer<ServerApi> as NamedService>::NAME,
    ] {
        health.set_service_status(service, status).await;
    }
}
