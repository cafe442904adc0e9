//! The gRPC services. Thin: read and check the request, ask the registry or the match's actor,
//! shape the reply. Every RPC runs in an `rpc` span naming the method and match.

mod bots;
mod challenges;
mod credentials;
mod hosting_options;
mod inbox;
mod lifecycle;
mod matches;
mod message_size;
mod paging;
mod queue;
mod rate_limit;
mod ratings;
mod replay;
mod replay_view;
mod server;
pub mod stream;
mod summary;
mod tournaments;
mod variants;

pub use bots::BotApi;
pub use challenges::ChallengeApi;
pub use credentials::Credentials;
pub use inbox::InboxApi;
pub use matches::MatchApi;
pub use message_size::MessageSize;
pub use queue::QueueApi;
pub use rate_limit::{ActionRateLimiter, RateLimiter};
pub use ratings::RatingApi;
pub use server::ServerApi;
pub use tournaments::TournamentApi;
pub use variants::VariantApi;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::pin::Pin;

use pitchmate_proto::v1 as pb;
use tokio_stream::Stream;
use tonic::metadata::MetadataMap;

use crate::error::{ServiceError, to_status};

/// A server stream as a handler answers it: its items already in the edge's terms.
type EdgeStream<T> = Pin<Box<dyn Stream<Item = Result<T, tonic::Status>> + Send>>;

/// The bearer token of a call, `None` when it carries no `authorization` header.
/// A call answered at the edge: the handler speaks the hosting's errors, and each leaves as
/// the `Status` it maps to.
async fn edge<T>(
    answer: impl Future<Output = Result<T, ServiceError>>,
) -> Result<T, tonic::Status> {
    answer.await.map_err(to_status)
}

fn bearer_token(metadata: &MetadataMap) -> Result<Option<String>, ServiceError> {
    let Some(value) = metadata.get("authorization") else {
        return Ok(None);
    };
    let text = value.to_str().map_err(|_| {
        ServiceError::Unauthenticated("the authorization header is not readable text".to_owned())
    })?;
    match text.strip_prefix("Bearer ") {
        Some(token) if !token.trim().is_empty() => Ok(Some(token.trim().to_owned())),
        _ => Err(ServiceError::Unauthenticated(
            "the authorization header must be `Bearer <seat token>`".to_owned(),
        )),
    }
}

/// Who is calling, as far as per-client limits tell clients apart: the peer's IPv4 address, or
/// the /64 network of its IPv6 address (one host commonly holds a whole /64, so counting its
/// addresses apart would let it pass any limit). Calls whose peer is unknown share one key.
fn client_of<T>(request: &tonic::Request<T>) -> IpAddr {
    match request.remote_addr().map(|address| address.ip()) {
        Some(IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(
                u128::from(v6) & 0xffff_ffff_ffff_ffff_0000_0000_0000_0000,
            )),
        },
        Some(v4) => v4,
        None => IpAddr::V4(Ipv4Addr::UNSPECIFIED),
    }
}

/// The match id `field`, checked to be present.
fn match_id<'a>(field: &str, id: &'a str) -> Result<&'a str, ServiceError> {
    if id.is_empty() {
        return Err(ServiceError::InvalidArgument(format!(
            "`{field}` is missing; CreateMatch and ListMatches give match ids"
        ))
        .at(field));
    }
    Ok(id)
}

/// An `ActionDetail` field, refusing numbers the contract does not define (prost would read
/// them as unset and list everything without a word).
fn action_detail(field: &str, value: i32) -> Result<pb::ActionDetail, ServiceError> {
    pb::ActionDetail::try_from(value).map_err(|_| {
        ServiceError::InvalidArgument(format!(
            "`{field}` {value} is not an ActionDetail: 0 (typed and notation), 1 (notation) or \
             2 (typed)"
        ))
        .at(field)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metadata(value: &str) -> MetadataMap {
        let mut map = MetadataMap::new();
        map.insert("authorization", value.parse().unwrap());
        map
    }

    #[test]
    fn bearer_tokens_are_read_and_bad_headers_refused() {
        assert_eq!(bearer_token(&MetadataMap::new()).unwrap(), None);
        assert_eq!(
            bearer_token(&metadata("Bearer abc")).unwrap(),
            Some("abc".to_owned())
        );
        for bad in ["abc", "Basic abc", "Bearer ", "bearer abc"] {
            let error = bearer_token(&metadata(bad)).unwrap_err();
            assert_eq!(error.reason(), "UNAUTHENTICATED", "{bad}");
        }
    }

    #[test]
    fn clients_are_told_apart_by_ipv4_address_or_ipv6_network() {
        let from = |address: &str| {
            let mut request = tonic::Request::new(());
            request
                .extensions_mut()
                .insert(tonic::transport::server::TcpConnectInfo {
                    local_addr: None,
                    remote_addr: Some(address.parse().unwrap()),
                });
            client_of(&request)
        };
        assert_eq!(from("10.0.0.7:5000"), from("10.0.0.7:6000"));
        assert_ne!(from("10.0.0.7:5000"), from("10.0.0.8:5000"));
        assert_eq!(from("[2001:db8::1]:5000"), from("[2001:db8::ffff:2]:5000"));
        assert_ne!(from("[2001:db8::1]:5000"), from("[2001:db8:0:1::1]:5000"));
        assert_eq!(from("[::ffff:10.0.0.7]:1"), from("10.0.0.7:2"));
        assert_eq!(
            client_of(&tonic::Request::new(())),
            IpAddr::V4(Ipv4Addr::UNSPECIFIED)
        );
    }

    #[test]
    fn action_details_outside_the_contract_are_refused() {
        assert_eq!(
            action_detail("detail", 1).unwrap(),
            pb::ActionDetail::Notation
        );
        let error = action_detail("prompt_detail", 3).unwrap_err();
        assert_eq!(error.reason(), "INVALID_ARGUMENT");
        assert!(error.to_string().contains("`prompt_detail` 3"), "{error}");
    }
}
