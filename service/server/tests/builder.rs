//! The server assembled by its builder: an embedder adds a gRPC service of its own, built on
//! the hosted matches and the store, and a layer around every call, without touching `serve`.

mod common;

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};

use common::test_settings;
use pitchmate_proto::v1 as pb;
use pitchmate_server::{HttpService, ServerBuilder};
use tokio::net::TcpListener;
use tonic::codegen::http::{Request, Response};
use tonic::server::NamedService;
use tonic::{Code, Status};

/// An added service: answers every call with the store's newest lifecycle position, as an
/// error so that it needs no message type of its own.
#[derive(Clone)]
struct Position(pitchmate_server::store::Store);

impl NamedService for Position {
    const NAME: &'static str = "pitchmate.test.Position";
}

impl tower::Service<Request<tonic::body::Body>> for Position {
    type Response = Response<tonic::body::Body>;
    type Error = Infallible;
    type Future = std::future::Ready<Result<Self::Response, Infallible>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, _: Request<tonic::body::Body>) -> Self::Future {
        let position = self.0.last_position();
        let status = Status::new(Code::FailedPrecondition, format!("position {position}"));
        std::future::ready(Ok(status.into_http()))
    }
}

/// A layer: counts the calls that pass through it.
#[derive(Clone)]
struct Counting {
    inner: HttpService,
    calls: Arc<AtomicUsize>,
}

impl tower::Service<Request<hyper::body::Incoming>> for Counting {
    type Response = Response<tonic::body::Body>;
    type Error = Infallible;
    type Future = <HttpService as tower::Service<Request<hyper::body::Incoming>>>::Future;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<hyper::body::Incoming>) -> Self::Future {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.inner.call(request)
    }
}

#[tokio::test]
async fn an_embedder_adds_a_service_and_a_layer() {
    let settings = test_settings();
    let data_dir = settings.data_dir.clone();
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&calls);
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(
        ServerBuilder::new(settings)
            .add_services(|routes, hosted| {
                routes.add_service(Position(hosted.store.clone()));
            })
            .layer(move |inner| {
                HttpService::new(Counting {
                    inner,
                    calls: counted,
                })
            })
            .serve(listener, async {
                let _ = stopped.await;
            }),
    );
    let channel = tonic::transport::Endpoint::from_shared(format!("http://{address}"))
        .unwrap()
        .connect()
        .await
        .unwrap();
    // The server's own services still answer, through the layer.
    let mut matches = pb::match_service_client::MatchServiceClient::new(channel.clone());
    matches
        .create_match(pb::CreateMatchRequest {
            variant_id: "kings-goal".into(),
            ..Default::default()
        })
        .await
        .expect("the server's own service");
    // The added one answers at its own path, from the store it was given.
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready().await.unwrap();
    let answer = grpc
        .unary::<(), (), _>(
            tonic::Request::new(()),
            tonic::codegen::http::uri::PathAndQuery::from_static("/pitchmate.test.Position/Get"),
            tonic_prost::ProstCodec::default(),
        )
        .await
        .expect_err("answers with a status");
    assert_eq!(answer.code(), Code::FailedPrecondition);
    assert_eq!(
        answer.message(),
        "position 1",
        "the creation's lifecycle entry"
    );
    assert_eq!(
        calls.load(Ordering::Relaxed),
        2,
        "both calls went through the layer"
    );
    let _ = stop.send(());
    server.await.unwrap().expect("the server stops cleanly");
    std::fs::remove_dir_all(data_dir).unwrap();
}
