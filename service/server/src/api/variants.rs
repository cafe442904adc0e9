//! `pitchmate.v1.VariantService`.

use std::sync::Arc;

use pitchmate_proto::v1 as pb;
use tonic::{Request, Response, Status};

use super::{edge, paging};
use crate::games::variant_to_proto;
use crate::hosting::MatchRegistry;

const SCOPE: &str = "variants";

pub struct VariantApi {
    registry: Arc<MatchRegistry>,
}

impl VariantApi {
    pub fn new(registry: Arc<MatchRegistry>) -> Self {
        Self { registry }
    }
}

#[tonic::async_trait]
impl pb::variant_service_server::VariantService for VariantApi {
    #[tracing::instrument(name = "rpc", skip_all, fields(method = "ListVariants"))]
    async fn list_variants(
        &self,
        request: Request<pb::ListVariantsRequest>,
    ) -> Result<Response<pb::ListVariantsResponse>, Status> {
        edge(async move {
            let request = request.into_inner();
            let size = paging::page_size(request.page_size)?;
            let start = paging::decode(SCOPE, &request.page_token)?.unwrap_or(0);
            let start = usize::try_from(start).unwrap_or(usize::MAX);
            let games = self.registry.games();
            let total = games.variants().len();
            let variants: Vec<pb::Variant> = games
                .variants()
                .skip(start)
                .take(size)
                .map(variant_to_proto)
                .collect();
            let end = start.saturating_add(variants.len());
            let next_page_token = if end < total {
                paging::encode(SCOPE, end as u64)
            } else {
                String::new()
            };
            Ok(Response::new(pb::ListVariantsResponse {
                variants,
                next_page_token,
            }))
        })
        .await
    }
}
