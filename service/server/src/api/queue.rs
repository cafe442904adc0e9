//! `QueueService`: the matchmaking queue, kept by the leagues crate's `Queue`, on the wire.

use std::sync::Arc;

use pitchmate_proto::v1 as pb;
use tonic::{Request, Response, Status};

use super::challenges::{terms_from_proto, terms_to_proto};
use super::credentials::Credentials;
use super::{edge, paging};
use pitchmate_leagues::queue::{Queue, Ticket, TicketStatus};

pub struct QueueApi {
    credentials: Arc<Credentials>,
    queue: Arc<Queue>,
}

impl QueueApi {
    pub fn new(credentials: Arc<Credentials>, queue: Arc<Queue>) -> Self {
        Self { credentials, queue }
    }
}

#[tonic::async_trait]
impl pb::queue_service_server::QueueService for QueueApi {
    #[tracing::instrument(name = "rpc", skip_all, fields(method = "EnterQueue"))]
    async fn enter_queue(
        &self,
        request: Request<pb::EnterQueueRequest>,
    ) -> Result<Response<pb::EnterQueueResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let terms = terms_from_proto(request.into_inner().terms.unwrap_or_default())?;
            let ticket = self.queue.enter(&caller, terms).await?;
            Ok(Response::new(pb::EnterQueueResponse {
                ticket: Some(ticket_to_proto(&ticket)),
            }))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "LeaveQueue"))]
    async fn leave_queue(
        &self,
        request: Request<pb::LeaveQueueRequest>,
    ) -> Result<Response<pb::LeaveQueueResponse>, Status> {
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let ticket_id = request.into_inner().ticket_id;
            self.queue.leave(&caller, &ticket_id).await?;
            Ok(Response::new(pb::LeaveQueueResponse {}))
        })
        .await
    }

    #[tracing::instrument(name = "rpc", skip_all, fields(method = "ListTickets"))]
    async fn list_tickets(
        &self,
        request: Request<pb::ListTicketsRequest>,
    ) -> Result<Response<pb::ListTicketsResponse>, Status> {
        const SCOPE: &str = "tickets";
        edge(async move {
            let caller = self.credentials.caller_of(&request).await?;
            let request = request.into_inner();
            let size = paging::page_size(request.page_size)?;
            let offset: usize = paging::decode(SCOPE, &request.page_token)?.unwrap_or(0);
            let mut tickets = self.queue.tickets(&caller, request.waiting_only).await?;
            tickets.sort_by_key(|t| (t.status != TicketStatus::Waiting, t.entered));
            let (page, next_page_token) = paging::slice(SCOPE, &tickets, offset, size);
            Ok(Response::new(pb::ListTicketsResponse {
                tickets: page.iter().map(ticket_to_proto).collect(),
                next_page_token,
            }))
        })
        .await
    }
}

fn ticket_to_proto(ticket: &Ticket) -> pb::Ticket {
    pb::Ticket {
        ticket_id: ticket.ticket_id.clone(),
        pool: ticket.pool.clone(),
        terms: Some(terms_to_proto(&ticket.terms)),
        enter_time: Some(ticket.entered.into()),
        status: match ticket.status {
            TicketStatus::Waiting => pb::TicketStatus::Waiting,
            TicketStatus::Paired => pb::TicketStatus::Paired,
            TicketStatus::Left => pb::TicketStatus::Left,
        } as i32,
        match_id: ticket.match_id.clone().unwrap_or_default(),
    }
}
