import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from pitchmate.v1 import challenge_service_pb2 as _challenge_service_pb2
from pitchmate.v1 import tournament_service_pb2 as _tournament_service_pb2
from pitchmate.v1 import common_pb2 as _common_pb2
from pitchmate.v1 import rating_service_pb2 as _rating_service_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class WatchInboxRequest(_message.Message):
    __slots__ = ("after_seq",)
    AFTER_SEQ_FIELD_NUMBER: _ClassVar[int]
    after_seq: int
    def __init__(self, after_seq: _Optional[int] = ...) -> None: ...

class WatchInboxResponse(_message.Message):
    __slots__ = ("item", "heartbeat")
    ITEM_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_FIELD_NUMBER: _ClassVar[int]
    item: InboxItem
    heartbeat: InboxHeartbeat
    def __init__(self, item: _Optional[_Union[InboxItem, _Mapping]] = ..., heartbeat: _Optional[_Union[InboxHeartbeat, _Mapping]] = ...) -> None: ...

class InboxItem(_message.Message):
    __slots__ = ("seq", "time", "match_finished", "challenge_received", "challenge_resolved", "match_assigned", "quota_changed", "round_paired", "tournament_finished")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    MATCH_FINISHED_FIELD_NUMBER: _ClassVar[int]
    CHALLENGE_RECEIVED_FIELD_NUMBER: _ClassVar[int]
    CHALLENGE_RESOLVED_FIELD_NUMBER: _ClassVar[int]
    MATCH_ASSIGNED_FIELD_NUMBER: _ClassVar[int]
    QUOTA_CHANGED_FIELD_NUMBER: _ClassVar[int]
    ROUND_PAIRED_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_FINISHED_FIELD_NUMBER: _ClassVar[int]
    seq: int
    time: _timestamp_pb2.Timestamp
    match_finished: InboxMatchFinished
    challenge_received: _challenge_service_pb2.Challenge
    challenge_resolved: _challenge_service_pb2.Challenge
    match_assigned: InboxMatchAssigned
    quota_changed: InboxQuotaChanged
    round_paired: InboxRoundPaired
    tournament_finished: InboxTournamentFinished
    def __init__(self, seq: _Optional[int] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., match_finished: _Optional[_Union[InboxMatchFinished, _Mapping]] = ..., challenge_received: _Optional[_Union[_challenge_service_pb2.Challenge, _Mapping]] = ..., challenge_resolved: _Optional[_Union[_challenge_service_pb2.Challenge, _Mapping]] = ..., match_assigned: _Optional[_Union[InboxMatchAssigned, _Mapping]] = ..., quota_changed: _Optional[_Union[InboxQuotaChanged, _Mapping]] = ..., round_paired: _Optional[_Union[InboxRoundPaired, _Mapping]] = ..., tournament_finished: _Optional[_Union[InboxTournamentFinished, _Mapping]] = ...) -> None: ...

class InboxRoundPaired(_message.Message):
    __slots__ = ("tournament_id", "round", "match_ids", "opponent_id", "bye")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    MATCH_IDS_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_ID_FIELD_NUMBER: _ClassVar[int]
    BYE_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    round: int
    match_ids: _containers.RepeatedScalarFieldContainer[str]
    opponent_id: str
    bye: bool
    def __init__(self, tournament_id: _Optional[str] = ..., round: _Optional[int] = ..., match_ids: _Optional[_Iterable[str]] = ..., opponent_id: _Optional[str] = ..., bye: _Optional[bool] = ...) -> None: ...

class InboxTournamentFinished(_message.Message):
    __slots__ = ("tournament_id", "status", "end_reason", "rank", "points")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    status: _tournament_service_pb2.TournamentStatus
    end_reason: str
    rank: int
    points: float
    def __init__(self, tournament_id: _Optional[str] = ..., status: _Optional[_Union[_tournament_service_pb2.TournamentStatus, str]] = ..., end_reason: _Optional[str] = ..., rank: _Optional[int] = ..., points: _Optional[float] = ...) -> None: ...

class InboxQuotaChanged(_message.Message):
    __slots__ = ("max_concurrent", "daily_cap")
    MAX_CONCURRENT_FIELD_NUMBER: _ClassVar[int]
    DAILY_CAP_FIELD_NUMBER: _ClassVar[int]
    max_concurrent: int
    daily_cap: int
    def __init__(self, max_concurrent: _Optional[int] = ..., daily_cap: _Optional[int] = ...) -> None: ...

class InboxMatchAssigned(_message.Message):
    __slots__ = ("match_id", "variant_id", "seat", "opponent_id", "opponent_name", "rated", "pool", "show_up_by", "tournament_id", "round")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    VARIANT_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_ID_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_NAME_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    POOL_FIELD_NUMBER: _ClassVar[int]
    SHOW_UP_BY_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    variant_id: str
    seat: str
    opponent_id: str
    opponent_name: str
    rated: bool
    pool: str
    show_up_by: _timestamp_pb2.Timestamp
    tournament_id: str
    round: int
    def __init__(self, match_id: _Optional[str] = ..., variant_id: _Optional[str] = ..., seat: _Optional[str] = ..., opponent_id: _Optional[str] = ..., opponent_name: _Optional[str] = ..., rated: _Optional[bool] = ..., pool: _Optional[str] = ..., show_up_by: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., tournament_id: _Optional[str] = ..., round: _Optional[int] = ...) -> None: ...

class InboxMatchFinished(_message.Message):
    __slots__ = ("match_id", "variant_id", "seat", "outcome", "result", "rating_change")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    VARIANT_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    RATING_CHANGE_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    variant_id: str
    seat: str
    outcome: _common_pb2.MatchOutcome
    result: _common_pb2.MatchResult
    rating_change: _rating_service_pb2.RatingChange
    def __init__(self, match_id: _Optional[str] = ..., variant_id: _Optional[str] = ..., seat: _Optional[str] = ..., outcome: _Optional[_Union[_common_pb2.MatchOutcome, str]] = ..., result: _Optional[_Union[_common_pb2.MatchResult, _Mapping]] = ..., rating_change: _Optional[_Union[_rating_service_pb2.RatingChange, _Mapping]] = ...) -> None: ...

class InboxHeartbeat(_message.Message):
    __slots__ = ("seq",)
    SEQ_FIELD_NUMBER: _ClassVar[int]
    seq: int
    def __init__(self, seq: _Optional[int] = ...) -> None: ...

class GetInboxRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetInboxResponse(_message.Message):
    __slots__ = ("oldest_seq", "newest_seq", "live_matches")
    OLDEST_SEQ_FIELD_NUMBER: _ClassVar[int]
    NEWEST_SEQ_FIELD_NUMBER: _ClassVar[int]
    LIVE_MATCHES_FIELD_NUMBER: _ClassVar[int]
    oldest_seq: int
    newest_seq: int
    live_matches: _containers.RepeatedCompositeFieldContainer[BotMatch]
    def __init__(self, oldest_seq: _Optional[int] = ..., newest_seq: _Optional[int] = ..., live_matches: _Optional[_Iterable[_Union[BotMatch, _Mapping]]] = ...) -> None: ...

class BotMatch(_message.Message):
    __slots__ = ("match_id", "variant_id", "seat", "join_time")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    VARIANT_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    JOIN_TIME_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    variant_id: str
    seat: str
    join_time: _timestamp_pb2.Timestamp
    def __init__(self, match_id: _Optional[str] = ..., variant_id: _Optional[str] = ..., seat: _Optional[str] = ..., join_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
