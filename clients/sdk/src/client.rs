use std::collections::HashMap;

use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Request;
use tonic::metadata::MetadataValue;
use tonic::transport::{Channel, Endpoint};

use crate::bot::Choice;
use crate::error::ClientError;
use crate::pb;
use crate::pb::bot_service_client::BotServiceClient;
use crate::pb::challenge_service_client::ChallengeServiceClient;
use crate::pb::inbox_service_client::InboxServiceClient;
use crate::pb::match_service_client::MatchServiceClient;
use crate::pb::queue_service_client::QueueServiceClient;
use crate::pb::rating_service_client::RatingServiceClient;
use crate::pb::tournament_service_client::TournamentServiceClient;
use crate::pb::variant_service_client::VariantServiceClient;
use crate::verify::Verified;

/// A match's event stream as the server sends it.
pub type EventStream = tonic::Streaming<pb::StreamMatchEventsResponse>;

/// The server's lifecycle feed, as `StreamLifecycle` sends it.
pub type LifecycleStream = tonic::Streaming<pb::StreamLifecycleResponse>;
/// A bot's inbox.
pub type InboxStream = tonic::Streaming<pb::WatchInboxResponse>;

/// Requests queued for a `Play` stream before the connection takes them.
const PLAY_QUEUE: usize = 4;

/// A seat's open `Play` stream: actions go out with [`PlayStream::act`]; events, prompts,
/// heartbeats and each action's outcome come in with [`PlayStream::message`].
#[derive(Debug)]
pub struct PlayStream {
    match_id: String,
    requests: mpsc::Sender<pb::PlayRequest>,
    responses: tonic::Streaming<pb::PlayResponse>,
}

impl PlayStream {
    /// Sends an action for the seat, having seen `expected_version`. Its outcome arrives as
    /// an `acted` message after the events it caused; sending the same `client_action_id` again
    /// never acts twice.
    pub async fn act(
        &self,
        expected_version: u64,
        client_action_id: &str,
        choice: Choice,
    ) -> Result<(), ClientError> {
        let choice = match choice {
            Choice::Index(index) => pb::play_action::Choice::Index(index),
            Choice::Notation(text) => pb::play_action::Choice::Notation(text),
            Choice::Action(action) => pb::play_action::Choice::Action(action),
        };
        let request = pb::PlayRequest {
            kind: Some(pb::play_request::Kind::Act(pb::PlayAction {
                expected_version,
                client_action_id: client_action_id.to_owned(),
                choice: Some(choice),
            })),
        };
        // The call is over when the connection no longer takes requests.
        self.requests
            .send(request)
            .await
            .map_err(|_| ClientError::StreamEnded(self.match_id.clone()))
    }

    /// The next message, or `None` once the server has ended the stream.
    pub async fn message(&mut self) -> Result<Option<pb::PlayResponse>, ClientError> {
        Ok(self.responses.message().await?)
    }
}

/// A connection to a Pitchmate server. Cheap to clone; clones share the connection.
#[derive(Clone, Debug)]
pub struct Client {
    channel: Channel,
}

/// The parameters of a match to create.
#[derive(Clone, Debug, Default)]
pub struct NewMatch {
    pub variant_id: String,
    pub options: HashMap<String, pb::OptionValue>,
    pub seed: Option<u64>,
    pub start_position: String,
    /// `None`: no clock.
    pub time_control: Option<pb::TimeControl>,
    /// `None`: a timeout forfeits.
    pub timeout_policy: Option<pb::TimeoutPolicy>,
    /// How long an opponent must be disconnected before victory may be claimed; `None`: the
    /// server's default (60 seconds).
    pub abandon_after: Option<prost_types::Duration>,
}

impl NewMatch {
    /// A match of `variant_id` with every option at its default.
    pub fn variant(variant_id: impl Into<String>) -> Self {
        Self {
            variant_id: variant_id.into(),
            ..Self::default()
        }
    }

    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    pub fn int_option(mut self, name: impl Into<String>, value: i64) -> Self {
        let value = pb::OptionValue {
            kind: Some(pb::option_value::Kind::IntValue(value)),
        };
        self.options.insert(name.into(), value);
        self
    }

    pub fn bool_option(mut self, name: impl Into<String>, value: bool) -> Self {
        let value = pb::OptionValue {
            kind: Some(pb::option_value::Kind::BoolValue(value)),
        };
        self.options.insert(name.into(), value);
        self
    }

    pub fn text_option(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        let value = pb::OptionValue {
            kind: Some(pb::option_value::Kind::StringValue(value.into())),
        };
        self.options.insert(name.into(), value);
        self
    }

    pub fn start_position(mut self, position: impl Into<String>) -> Self {
        self.start_position = position.into();
        self
    }

    /// An option as a command line gives it, `NAME=VALUE`: a number is an integer,
    /// `true`/`false` a flag, anything else text. The error says what is wrong with it.
    pub fn option_assignment(self, assignment: &str) -> Result<Self, String> {
        let (name, value) = assignment
            .split_once('=')
            .ok_or_else(|| format!("option {assignment:?} is not NAME=VALUE"))?;
        Ok(match (value.parse::<i64>(), value.parse::<bool>()) {
            (Ok(int), _) => self.int_option(name, int),
            (_, Ok(flag)) => self.bool_option(name, flag),
            _ => self.text_option(name, value),
        })
    }
}

/// A seat taken in a match, with the secret that acting as it needs: the seat token JoinMatch
/// returned, or the API key of the bot that took it.
#[derive(Clone, Debug)]
pub struct SeatHandle {
    pub match_id: String,
    pub seat: String,
    pub token: String,
}

impl SeatHandle {
    /// Wraps `message` in a request carrying this seat's `authorization: Bearer` header.
    pub fn authorize<T>(&self, message: T) -> Result<Request<T>, ClientError> {
        authorized(message, &self.token)
    }
}

/// `message` in a request carrying `secret` (a seat token or an API key) as
/// `authorization: Bearer`.
pub fn authorized<T>(message: T, secret: &str) -> Result<Request<T>, ClientError> {
    let mut request = Request::new(message);
    let value: MetadataValue<_> = format!("Bearer {secret}")
        .parse()
        .map_err(|_| ClientError::InvalidToken)?;
    request.metadata_mut().insert("authorization", value);
    Ok(request)
}

impl Client {
    /// Connects to `url`, e.g. `http://127.0.0.1:50051`.
    pub async fn connect(url: impl Into<String>) -> Result<Self, ClientError> {
        let url = url.into();
        let endpoint =
            Endpoint::from_shared(url.clone()).map_err(|source| ClientError::Connect {
                url: url.clone(),
                source,
            })?;
        let channel = endpoint
            .connect()
            .await
            .map_err(|source| ClientError::Connect { url, source })?;
        Ok(Self { channel })
    }

    /// The generated MatchService client, for calls this SDK does not wrap.
    pub fn matches(&self) -> MatchServiceClient<Channel> {
        MatchServiceClient::new(self.channel.clone())
    }

    /// The generated BotService client: bots and their API keys.
    pub fn bots(&self) -> BotServiceClient<Channel> {
        BotServiceClient::new(self.channel.clone())
    }

    /// The generated InboxService client.
    pub fn inboxes(&self) -> InboxServiceClient<Channel> {
        InboxServiceClient::new(self.channel.clone())
    }

    /// The generated ChallengeService client: challenges, acceptance policies and quotas.
    pub fn challenges(&self) -> ChallengeServiceClient<Channel> {
        ChallengeServiceClient::new(self.channel.clone())
    }

    /// The generated QueueService client: the matchmaking queue.
    pub fn queue(&self) -> QueueServiceClient<Channel> {
        QueueServiceClient::new(self.channel.clone())
    }

    /// The generated RatingService client: ratings, leaderboards and rating histories.
    pub fn ratings(&self) -> RatingServiceClient<Channel> {
        RatingServiceClient::new(self.channel.clone())
    }

    /// The generated TournamentService client: round robins, Swiss events and ladders.
    pub fn tournaments(&self) -> TournamentServiceClient<Channel> {
        TournamentServiceClient::new(self.channel.clone())
    }

    /// Registers a bot; the answer holds its first API key (`secret`), shown only here.
    pub async fn register_bot(
        &self,
        name: &str,
        owner: &str,
    ) -> Result<pb::CreateBotResponse, ClientError> {
        let request = pb::CreateBotRequest {
            name: name.to_owned(),
            owner: owner.to_owned(),
            ..Default::default()
        };
        Ok(self.bots().create_bot(request).await?.into_inner())
    }

    /// Takes `seat` (the first free one when `None`) for the bot whose API key (scope PLAY) is
    /// `api_key`. The handle acts with the key; the seat plays under the bot's name.
    pub async fn join_as_bot(
        &self,
        match_id: &str,
        seat: Option<&str>,
        api_key: &str,
    ) -> Result<SeatHandle, ClientError> {
        let message = pb::JoinMatchRequest {
            match_id: match_id.to_owned(),
            seat: seat.unwrap_or_default().to_owned(),
            player_name: String::new(),
        };
        let request = authorized(message, api_key)?;
        let joined = self.matches().join_match(request).await?.into_inner();
        Ok(SeatHandle {
            match_id: match_id.to_owned(),
            seat: joined.seat,
            token: api_key.to_owned(),
        })
    }

    /// The inbox of the bot whose API key is `api_key`, after `after_seq`, then live items.
    /// Resume after a disconnect with the last seq read.
    pub async fn watch_inbox(
        &self,
        api_key: &str,
        after_seq: u64,
    ) -> Result<InboxStream, ClientError> {
        let request = authorized(pb::WatchInboxRequest { after_seq }, api_key)?;
        Ok(self.inboxes().watch_inbox(request).await?.into_inner())
    }

    /// The generated VariantService client.
    pub fn variants(&self) -> VariantServiceClient<Channel> {
        VariantServiceClient::new(self.channel.clone())
    }

    /// Every variant the server hosts, following pagination to the end.
    pub async fn list_variants(&self) -> Result<Vec<pb::Variant>, ClientError> {
        let mut variants = Vec::new();
        let mut page_token = String::new();
        loop {
            let page = self
                .variants()
                .list_variants(pb::ListVariantsRequest {
                    page_size: 0,
                    page_token,
                })
                .await?
                .into_inner();
            variants.extend(page.variants);
            if page.next_page_token.is_empty() {
                return Ok(variants);
            }
            page_token = page.next_page_token;
        }
    }

    pub async fn create_match(&self, new: NewMatch) -> Result<pb::Match, ClientError> {
        let request = pb::CreateMatchRequest {
            variant_id: new.variant_id,
            options: new.options,
            seed: new.seed,
            start_position: new.start_position,
            time_control: new.time_control,
            timeout_policy: new.timeout_policy,
            abandon_after: new.abandon_after,
        };
        let created = self.matches().create_match(request).await?.into_inner();
        Ok(created.r#match.unwrap_or_default())
    }

    /// Takes `seat`, or the first free seat when `None`.
    pub async fn join(
        &self,
        match_id: &str,
        seat: Option<&str>,
        player_name: &str,
    ) -> Result<SeatHandle, ClientError> {
        let request = pb::JoinMatchRequest {
            match_id: match_id.to_owned(),
            seat: seat.unwrap_or_default().to_owned(),
            player_name: player_name.to_owned(),
        };
        let joined = self.matches().join_match(request).await?.into_inner();
        Ok(SeatHandle {
            match_id: match_id.to_owned(),
            seat: joined.seat,
            token: joined.seat_token,
        })
    }

    /// The match and the view of `seat`, or the spectator's view when `None`.
    pub async fn get_match(
        &self,
        match_id: &str,
        seat: Option<&SeatHandle>,
    ) -> Result<pb::GetMatchResponse, ClientError> {
        let message = pb::GetMatchRequest {
            match_id: match_id.to_owned(),
        };
        let request = match seat {
            Some(seat) => seat.authorize(message)?,
            None => Request::new(message),
        };
        Ok(self.matches().get_match(request).await?.into_inner())
    }

    /// The seat's legal actions, each typed and in notation, with the view.
    pub async fn legal_actions(
        &self,
        seat: &SeatHandle,
    ) -> Result<pb::GetLegalActionsResponse, ClientError> {
        self.legal_actions_in(seat, pb::ActionDetail::Unspecified)
            .await
    }

    /// The seat's legal actions spelled out as `detail` says, with the view.
    pub async fn legal_actions_in(
        &self,
        seat: &SeatHandle,
        detail: pb::ActionDetail,
    ) -> Result<pb::GetLegalActionsResponse, ClientError> {
        let request = seat.authorize(pb::GetLegalActionsRequest {
            match_id: seat.match_id.clone(),
            detail: detail.into(),
        })?;
        Ok(self
            .matches()
            .get_legal_actions(request)
            .await?
            .into_inner())
    }

    /// Submits `choice` as `seat`, having seen `expected_version`. Retrying with the same
    /// `client_action_id` never acts twice.
    pub async fn submit(
        &self,
        seat: &SeatHandle,
        expected_version: u64,
        client_action_id: &str,
        choice: Choice,
    ) -> Result<pb::SubmitActionResponse, ClientError> {
        let choice = match choice {
            Choice::Index(index) => pb::submit_action_request::Choice::Index(index),
            Choice::Notation(text) => pb::submit_action_request::Choice::Notation(text),
            Choice::Action(action) => pb::submit_action_request::Choice::Action(action),
        };
        let request = seat.authorize(pb::SubmitActionRequest {
            match_id: seat.match_id.clone(),
            expected_version,
            client_action_id: client_action_id.to_owned(),
            choice: Some(choice),
        })?;
        Ok(self.matches().submit_action(request).await?.into_inner())
    }

    pub async fn resign(&self, seat: &SeatHandle) -> Result<pb::Match, ClientError> {
        let request = seat.authorize(pb::ResignRequest {
            match_id: seat.match_id.clone(),
        })?;
        Ok(self
            .matches()
            .resign(request)
            .await?
            .into_inner()
            .r#match
            .unwrap_or_default())
    }

    /// Offers the opponent a draw; it stands until the opponent accepts it or plays.
    pub async fn offer_draw(&self, seat: &SeatHandle) -> Result<pb::Match, ClientError> {
        let request = seat.authorize(pb::OfferDrawRequest {
            match_id: seat.match_id.clone(),
        })?;
        Ok(self
            .matches()
            .offer_draw(request)
            .await?
            .into_inner()
            .r#match
            .unwrap_or_default())
    }

    /// Accepts the opponent's standing draw offer.
    pub async fn accept_draw(&self, seat: &SeatHandle) -> Result<pb::Match, ClientError> {
        let request = seat.authorize(pb::AcceptDrawRequest {
            match_id: seat.match_id.clone(),
        })?;
        Ok(self
            .matches()
            .accept_draw(request)
            .await?
            .into_inner()
            .r#match
            .unwrap_or_default())
    }

    /// Ends the match without a result; only before anyone has played an action.
    pub async fn abort(&self, seat: &SeatHandle) -> Result<pb::Match, ClientError> {
        let request = seat.authorize(pb::AbortMatchRequest {
            match_id: seat.match_id.clone(),
        })?;
        Ok(self
            .matches()
            .abort_match(request)
            .await?
            .into_inner()
            .r#match
            .unwrap_or_default())
    }

    /// Wins because the opponent has been disconnected for the match's `abandon_after`.
    pub async fn claim_victory(&self, seat: &SeatHandle) -> Result<pb::Match, ClientError> {
        let request = seat.authorize(pb::ClaimVictoryRequest {
            match_id: seat.match_id.clone(),
        })?;
        Ok(self
            .matches()
            .claim_victory(request)
            .await?
            .into_inner()
            .r#match
            .unwrap_or_default())
    }

    /// What replays the match: its header and events. Until the match is over, as a spectator
    /// sees it; once it is over, the whole history and the revealed seed, ready for
    /// [`crate::verify_replay`].
    pub async fn replay(&self, match_id: &str) -> Result<pb::GetReplayResponse, ClientError> {
        let request = pb::GetReplayRequest {
            match_id: match_id.to_owned(),
        };
        Ok(self.matches().get_replay(request).await?.into_inner())
    }

    /// Checks a finished match: its revealed seed against the commitment it published when it
    /// was created, and every event against the rules engine re-playing it with that seed.
    pub async fn verify_match(&self, match_id: &str) -> Result<Verified, ClientError> {
        Ok(crate::verify_replay(&self.replay(match_id).await?)?)
    }

    /// The match's events after `after_seq`, then live ones, as `seat` (or a spectator) sees
    /// them.
    pub async fn watch(
        &self,
        match_id: &str,
        after_seq: u64,
        seat: Option<&SeatHandle>,
    ) -> Result<EventStream, ClientError> {
        self.stream_events(match_id, after_seq, seat, None).await
    }

    /// The seat's events after `after_seq`, then live ones, with a `your_turn` prompt carrying
    /// the legal actions, spelled out as `detail` says, whenever the seat is to act.
    pub async fn watch_with_prompts(
        &self,
        seat: &SeatHandle,
        after_seq: u64,
        detail: pb::ActionDetail,
    ) -> Result<EventStream, ClientError> {
        self.stream_events(&seat.match_id, after_seq, Some(seat), Some(detail))
            .await
    }

    /// Every match's lifecycle entries (created, seat taken, started, ended) after
    /// `after_position`, then live ones, of `variant_id` and naming `player_name` (each empty
    /// for all). Resume after a disconnect with the last position read.
    pub async fn lifecycle(
        &self,
        after_position: u64,
        variant_id: &str,
        player_name: &str,
    ) -> Result<LifecycleStream, ClientError> {
        let request = pb::StreamLifecycleRequest {
            after_position,
            variant_id: variant_id.to_owned(),
            player_name: player_name.to_owned(),
        };
        Ok(self.matches().stream_lifecycle(request).await?.into_inner())
    }

    /// With `prompt_detail`, the stream prompts the seat.
    async fn stream_events(
        &self,
        match_id: &str,
        after_seq: u64,
        seat: Option<&SeatHandle>,
        prompt_detail: Option<pb::ActionDetail>,
    ) -> Result<EventStream, ClientError> {
        let message = pb::StreamMatchEventsRequest {
            match_id: match_id.to_owned(),
            after_seq,
            include_legal_actions: prompt_detail.is_some(),
            prompt_detail: prompt_detail.unwrap_or_default().into(),
        };
        let request = match seat {
            Some(seat) => seat.authorize(message)?,
            None => Request::new(message),
        };
        Ok(self
            .matches()
            .stream_match_events(request)
            .await?
            .into_inner())
    }

    /// Opens `Play` for `seat`: its events after `after_seq` and a prompt listing its legal
    /// actions as `detail` says whenever it is to act, and its actions the other way.
    pub async fn open_play(
        &self,
        seat: &SeatHandle,
        after_seq: u64,
        detail: pb::ActionDetail,
    ) -> Result<PlayStream, ClientError> {
        let (requests, queued) = mpsc::channel(PLAY_QUEUE);
        let open = pb::PlayRequest {
            kind: Some(pb::play_request::Kind::Open(pb::PlayOpen {
                match_id: seat.match_id.clone(),
                after_seq,
                prompt_detail: detail.into(),
            })),
        };
        // The server answers only once it has read `open`.
        requests
            .send(open)
            .await
            .map_err(|_| ClientError::StreamEnded(seat.match_id.clone()))?;
        let request = seat.authorize(ReceiverStream::new(queued))?;
        let responses = self.matches().play(request).await?.into_inner();
        Ok(PlayStream {
            match_id: seat.match_id.clone(),
            requests,
            responses,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn option(new: &NewMatch, name: &str) -> Option<pb::option_value::Kind> {
        new.options.get(name).and_then(|value| value.kind.clone())
    }

    #[test]
    fn option_assignments_read_numbers_flags_and_text() {
        let new = NewMatch::variant("gridiron")
            .option_assignment("possessions_per_half=2")
            .and_then(|new| new.option_assignment("golden_goal=true"))
            .and_then(|new| new.option_assignment("style=open=wide"))
            .unwrap();
        use pb::option_value::Kind;
        assert_eq!(
            option(&new, "possessions_per_half"),
            Some(Kind::IntValue(2))
        );
        assert_eq!(option(&new, "golden_goal"), Some(Kind::BoolValue(true)));
        assert_eq!(
            option(&new, "style"),
            Some(Kind::StringValue("open=wide".into()))
        );
        let refused = NewMatch::variant("gridiron")
            .option_assignment("possessions")
            .unwrap_err();
        assert!(refused.contains("NAME=VALUE"), "{refused}");
    }
}
