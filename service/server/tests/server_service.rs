//! `ServerService`: Ping answers, and GetServerInfo tells the release and how long it has served.

mod common;

use std::time::SystemTime;

use common::*;
use pb::server_service_client::ServerServiceClient;
use pitchmate_proto::v1 as pb;

#[tokio::test]
async fn ping_answers_repeatedly_on_one_connection() {
    let server = start().await;
    let mut client = ServerServiceClient::new(server.channel().await);
    for _ in 0..3 {
        let response = client.ping(pb::PingRequest {}).await.unwrap().into_inner();
        assert_eq!(response, pb::PingResponse {});
    }
    server.stop().await;
}

#[tokio::test]
async fn server_info_tells_the_release_and_a_growing_uptime_since_a_past_start() {
    let server = start().await;
    let mut client = ServerServiceClient::new(server.channel().await);
    let first = client
        .get_server_info(pb::GetServerInfoRequest {})
        .await
        .unwrap()
        .into_inner();
    let second = client
        .get_server_info(pb::GetServerInfoRequest {})
        .await
        .unwrap()
        .into_inner();
    assert_eq!(first.version, env!("CARGO_PKG_VERSION"));

    let start_time = SystemTime::try_from(first.start_time.expect("start time")).unwrap();
    assert!(start_time <= SystemTime::now());
    assert_eq!(first.start_time, second.start_time, "one start per process");

    let uptime = |info: &pb::GetServerInfoResponse| {
        let uptime = info.uptime.expect("uptime");
        assert!(uptime.seconds >= 0 && (0..1_000_000_000).contains(&uptime.nanos));
        (uptime.seconds, uptime.nanos)
    };
    assert!(uptime(&first) <= uptime(&second));
    server.stop().await;
}
