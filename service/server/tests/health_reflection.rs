//! Standard gRPC health checking and server reflection (v1 and v1alpha) answer.

mod common;

use common::*;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_reflection::pb::{v1, v1alpha};

#[tokio::test]
async fn health_reports_serving_for_the_server_and_each_service() {
    let server = start().await;
    let mut health = HealthClient::new(server.channel().await);
    for service in [
        "",
        "pitchmate.v1.MatchService",
        "pitchmate.v1.VariantService",
        "pitchmate.v1.ServerService",
        // For liveness probes: SERVING while the process answers, whatever the store does.
        "liveness",
    ] {
        let response = health
            .check(HealthCheckRequest {
                service: service.to_owned(),
            })
            .await
            .unwrap()
            .into_inner();
        assert_eq!(
            response.status,
            ServingStatus::Serving as i32,
            "{service:?}"
        );
    }
    let unknown = health
        .check(HealthCheckRequest {
            service: "nope.Service".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(unknown.code(), tonic::Code::NotFound);
    server.stop().await;
}

#[tokio::test]
async fn reflection_v1_lists_every_service_and_describes_them() {
    use v1::server_reflection_client::ServerReflectionClient;
    use v1::server_reflection_request::MessageRequest;
    use v1::server_reflection_response::MessageResponse;

    let server = start().await;
    let mut client = ServerReflectionClient::new(server.channel().await);
    let requests = [
        MessageRequest::ListServices(String::new()),
        MessageRequest::FileContainingSymbol("pitchmate.v1.MatchService".into()),
        MessageRequest::FileContainingSymbol("grpc.health.v1.Health".into()),
    ]
    .map(|message| v1::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(message),
    });
    let mut responses = client
        .server_reflection_info(tokio_stream::iter(requests))
        .await
        .unwrap()
        .into_inner();

    let Some(MessageResponse::ListServicesResponse(list)) =
        responses.message().await.unwrap().unwrap().message_response
    else {
        panic!("expected the service list");
    };
    let mut names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
    names.sort();
    for expected in [
        "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection",
        "pitchmate.v1.MatchService",
        "pitchmate.v1.ServerService",
        "pitchmate.v1.VariantService",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} missing from {names:?}"
        );
    }
    for _ in 0..2 {
        let response = responses.message().await.unwrap().unwrap().message_response;
        let Some(MessageResponse::FileDescriptorResponse(files)) = response else {
            panic!("expected descriptors, got {response:?}");
        };
        assert!(!files.file_descriptor_proto.is_empty());
    }
    server.stop().await;
}

#[tokio::test]
async fn reflection_v1alpha_answers_too() {
    use v1alpha::server_reflection_client::ServerReflectionClient;
    use v1alpha::server_reflection_request::MessageRequest;
    use v1alpha::server_reflection_response::MessageResponse;

    let server = start().await;
    let mut client = ServerReflectionClient::new(server.channel().await);
    let request = v1alpha::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut responses = client
        .server_reflection_info(tokio_stream::iter([request]))
        .await
        .unwrap()
        .into_inner();
    let Some(MessageResponse::ListServicesResponse(list)) =
        responses.message().await.unwrap().unwrap().message_response
    else {
        panic!("expected the service list");
    };
    assert!(
        list.service
            .iter()
            .any(|s| s.name == "pitchmate.v1.MatchService")
    );
    server.stop().await;
}
