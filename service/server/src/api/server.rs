//! `pitchmate.v1.ServerService`: questions about the server process, never about a match.

use std::time::{Instant, SystemTime};

use pitchmate_proto::v1 as pb;
use tonic::{Request, Response, Status};

pub struct ServerApi {
    started: Instant,
    start_time: SystemTime,
}

impl ServerApi {
    /// A service reporting the server as started now.
    pub fn new() -> Self {
        Self {
            started: Instant::now(),
            start_time: SystemTime::now(),
        }
    }
}

impl Default for ServerApi {
    fn default() -> Self {
        Self::new()
    }
}

#[tonic::async_trait]
impl pb::server_service_server::ServerService for ServerApi {
    // Spanned like every RPC, so that as a benchmark floor it costs what any call costs
    // besides the work behind it.
    #[tracing::instrument(name = "rpc", skip_all, fields(method = "Ping"))]
    async fn ping(
        &self,
        _request: Request<pb::PingRequest>,
    ) -> Result<Response<pb::PingResponse>, Status> {
        Ok(Response::new(pb::PingResponse {}))
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "GetServerInfo"))]
    async fn get_server_info(
        &self,
        _request: Request<pb::GetServerInfoRequest>,
    ) -> Result<Response<pb::GetServerInfoResponse>, Status> {
        // The monotonic clock, so a wall-clock change cannot make the uptime negative.
        let elapsed = self.started.elapsed();
        let uptime = prost_types::Duration {
            seconds: i64::try_from(elapsed.as_secs()).unwrap_or(i64::MAX),
            nanos: i32::try_from(elapsed.subsec_nanos()).unwrap_or(0),
        };
        Ok(Response::new(pb::GetServerInfoResponse {
            version: env!("CARGO_PKG_VERSION").to_owned(),
            start_time: Some(self.start_time.into()),
            uptime: Some(uptime),
        }))
    }
}
