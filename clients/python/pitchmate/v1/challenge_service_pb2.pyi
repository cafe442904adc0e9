import datetime

from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from pitchmate.v1 import common_pb2 as _common_pb2
from pitchmate.v1 import match_service_pb2 as _match_service_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SeatPreference(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_PREFERENCE_UNSPECIFIED: _ClassVar[SeatPreference]
    SEAT_PREFERENCE_FIRST: _ClassVar[SeatPreference]
    SEAT_PREFERENCE_SECOND: _ClassVar[SeatPreference]

class SpeedClass(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SPEED_CLASS_UNSPECIFIED: _ClassVar[SpeedClass]
    SPEED_CLASS_BULLET: _ClassVar[SpeedClass]
    SPEED_CLASS_BLITZ: _ClassVar[SpeedClass]
    SPEED_CLASS_RAPID: _ClassVar[SpeedClass]
    SPEED_CLASS_CLASSICAL: _ClassVar[SpeedClass]
    SPEED_CLASS_UNTIMED: _ClassVar[SpeedClass]

class ChallengeStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHALLENGE_STATUS_UNSPECIFIED: _ClassVar[ChallengeStatus]
    CHALLENGE_STATUS_OPEN: _ClassVar[ChallengeStatus]
    CHALLENGE_STATUS_ACCEPTED: _ClassVar[ChallengeStatus]
    CHALLENGE_STATUS_DECLINED: _ClassVar[ChallengeStatus]
    CHALLENGE_STATUS_CANCELLED: _ClassVar[ChallengeStatus]
    CHALLENGE_STATUS_EXPIRED: _ClassVar[ChallengeStatus]

class DeclineReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECLINE_REASON_UNSPECIFIED: _ClassVar[DeclineReason]
    DECLINE_REASON_GENERIC: _ClassVar[DeclineReason]
    DECLINE_REASON_LATER: _ClassVar[DeclineReason]
    DECLINE_REASON_VARIANT: _ClassVar[DeclineReason]
    DECLINE_REASON_TIME_CONTROL: _ClassVar[DeclineReason]
    DECLINE_REASON_RATED_ONLY: _ClassVar[DeclineReason]
    DECLINE_REASON_CASUAL_ONLY: _ClassVar[DeclineReason]
    DECLINE_REASON_RATING: _ClassVar[DeclineReason]
SEAT_PREFERENCE_UNSPECIFIED: SeatPreference
SEAT_PREFERENCE_FIRST: SeatPreference
SEAT_PREFERENCE_SECOND: SeatPreference
SPEED_CLASS_UNSPECIFIED: SpeedClass
SPEED_CLASS_BULLET: SpeedClass
SPEED_CLASS_BLITZ: SpeedClass
SPEED_CLASS_RAPID: SpeedClass
SPEED_CLASS_CLASSICAL: SpeedClass
SPEED_CLASS_UNTIMED: SpeedClass
CHALLENGE_STATUS_UNSPECIFIED: ChallengeStatus
CHALLENGE_STATUS_OPEN: ChallengeStatus
CHALLENGE_STATUS_ACCEPTED: ChallengeStatus
CHALLENGE_STATUS_DECLINED: ChallengeStatus
CHALLENGE_STATUS_CANCELLED: ChallengeStatus
CHALLENGE_STATUS_EXPIRED: ChallengeStatus
DECLINE_REASON_UNSPECIFIED: DeclineReason
DECLINE_REASON_GENERIC: DeclineReason
DECLINE_REASON_LATER: DeclineReason
DECLINE_REASON_VARIANT: DeclineReason
DECLINE_REASON_TIME_CONTROL: DeclineReason
DECLINE_REASON_RATED_ONLY: DeclineReason
DECLINE_REASON_CASUAL_ONLY: DeclineReason
DECLINE_REASON_RATING: DeclineReason

class MatchTerms(_message.Message):
    __slots__ = ("variant_id", "options", "time_control", "rated", "seat", "rematch_of", "speed", "pool")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _common_pb2.OptionValue
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_common_pb2.OptionValue, _Mapping]] = ...) -> None: ...
    VARIANT_ID_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REMATCH_OF_FIELD_NUMBER: _ClassVar[int]
    SPEED_FIELD_NUMBER: _ClassVar[int]
    POOL_FIELD_NUMBER: _ClassVar[int]
    variant_id: str
    options: _containers.MessageMap[str, _common_pb2.OptionValue]
    time_control: _match_service_pb2.TimeControl
    rated: bool
    seat: SeatPreference
    rematch_of: str
    speed: SpeedClass
    pool: str
    def __init__(self, variant_id: _Optional[str] = ..., options: _Optional[_Mapping[str, _common_pb2.OptionValue]] = ..., time_control: _Optional[_Union[_match_service_pb2.TimeControl, _Mapping]] = ..., rated: _Optional[bool] = ..., seat: _Optional[_Union[SeatPreference, str]] = ..., rematch_of: _Optional[str] = ..., speed: _Optional[_Union[SpeedClass, str]] = ..., pool: _Optional[str] = ...) -> None: ...

class Challenge(_message.Message):
    __slots__ = ("challenge_id", "challenger_id", "challenger_name", "target_id", "target_name", "terms", "create_time", "expire_time", "status", "responder_id", "decline_reason", "match_id")
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    CHALLENGER_ID_FIELD_NUMBER: _ClassVar[int]
    CHALLENGER_NAME_FIELD_NUMBER: _ClassVar[int]
    TARGET_ID_FIELD_NUMBER: _ClassVar[int]
    TARGET_NAME_FIELD_NUMBER: _ClassVar[int]
    TERMS_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RESPONDER_ID_FIELD_NUMBER: _ClassVar[int]
    DECLINE_REASON_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    challenger_id: str
    challenger_name: str
    target_id: str
    target_name: str
    terms: MatchTerms
    create_time: _timestamp_pb2.Timestamp
    expire_time: _timestamp_pb2.Timestamp
    status: ChallengeStatus
    responder_id: str
    decline_reason: DeclineReason
    match_id: str
    def __init__(self, challenge_id: _Optional[str] = ..., challenger_id: _Optional[str] = ..., challenger_name: _Optional[str] = ..., target_id: _Optional[str] = ..., target_name: _Optional[str] = ..., terms: _Optional[_Union[MatchTerms, _Mapping]] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., status: _Optional[_Union[ChallengeStatus, str]] = ..., responder_id: _Optional[str] = ..., decline_reason: _Optional[_Union[DeclineReason, str]] = ..., match_id: _Optional[str] = ...) -> None: ...

class CreateChallengeRequest(_message.Message):
    __slots__ = ("target", "terms", "expires_in")
    TARGET_FIELD_NUMBER: _ClassVar[int]
    TERMS_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    target: str
    terms: MatchTerms
    expires_in: _duration_pb2.Duration
    def __init__(self, target: _Optional[str] = ..., terms: _Optional[_Union[MatchTerms, _Mapping]] = ..., expires_in: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class CreateChallengeResponse(_message.Message):
    __slots__ = ("challenge",)
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    def __init__(self, challenge: _Optional[_Union[Challenge, _Mapping]] = ...) -> None: ...

class AcceptChallengeRequest(_message.Message):
    __slots__ = ("challenge_id",)
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    def __init__(self, challenge_id: _Optional[str] = ...) -> None: ...

class AcceptChallengeResponse(_message.Message):
    __slots__ = ("challenge",)
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    def __init__(self, challenge: _Optional[_Union[Challenge, _Mapping]] = ...) -> None: ...

class DeclineChallengeRequest(_message.Message):
    __slots__ = ("challenge_id", "reason")
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    reason: DeclineReason
    def __init__(self, challenge_id: _Optional[str] = ..., reason: _Optional[_Union[DeclineReason, str]] = ...) -> None: ...

class DeclineChallengeResponse(_message.Message):
    __slots__ = ("challenge",)
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    def __init__(self, challenge: _Optional[_Union[Challenge, _Mapping]] = ...) -> None: ...

class CancelChallengeRequest(_message.Message):
    __slots__ = ("challenge_id",)
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    def __init__(self, challenge_id: _Optional[str] = ...) -> None: ...

class CancelChallengeResponse(_message.Message):
    __slots__ = ("challenge",)
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    def __init__(self, challenge: _Optional[_Union[Challenge, _Mapping]] = ...) -> None: ...

class GetChallengeRequest(_message.Message):
    __slots__ = ("challenge_id",)
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    def __init__(self, challenge_id: _Optional[str] = ...) -> None: ...

class GetChallengeResponse(_message.Message):
    __slots__ = ("challenge",)
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    def __init__(self, challenge: _Optional[_Union[Challenge, _Mapping]] = ...) -> None: ...

class ListChallengesRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListChallengesResponse(_message.Message):
    __slots__ = ("challenges", "next_page_token")
    CHALLENGES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    challenges: _containers.RepeatedCompositeFieldContainer[Challenge]
    next_page_token: str
    def __init__(self, challenges: _Optional[_Iterable[_Union[Challenge, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class AcceptancePolicy(_message.Message):
    __slots__ = ("variants", "rated_only", "casual_only", "speeds", "min_rating", "max_rating")
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    RATED_ONLY_FIELD_NUMBER: _ClassVar[int]
    CASUAL_ONLY_FIELD_NUMBER: _ClassVar[int]
    SPEEDS_FIELD_NUMBER: _ClassVar[int]
    MIN_RATING_FIELD_NUMBER: _ClassVar[int]
    MAX_RATING_FIELD_NUMBER: _ClassVar[int]
    variants: _containers.RepeatedScalarFieldContainer[str]
    rated_only: bool
    casual_only: bool
    speeds: _containers.RepeatedScalarFieldContainer[SpeedClass]
    min_rating: float
    max_rating: float
    def __init__(self, variants: _Optional[_Iterable[str]] = ..., rated_only: _Optional[bool] = ..., casual_only: _Optional[bool] = ..., speeds: _Optional[_Iterable[_Union[SpeedClass, str]]] = ..., min_rating: _Optional[float] = ..., max_rating: _Optional[float] = ...) -> None: ...

class SetAcceptancePolicyRequest(_message.Message):
    __slots__ = ("bot_id", "policy")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    POLICY_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    policy: AcceptancePolicy
    def __init__(self, bot_id: _Optional[str] = ..., policy: _Optional[_Union[AcceptancePolicy, _Mapping]] = ...) -> None: ...

class SetAcceptancePolicyResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetAcceptancePolicyRequest(_message.Message):
    __slots__ = ("bot_id",)
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    def __init__(self, bot_id: _Optional[str] = ...) -> None: ...

class GetAcceptancePolicyResponse(_message.Message):
    __slots__ = ("policy",)
    POLICY_FIELD_NUMBER: _ClassVar[int]
    policy: AcceptancePolicy
    def __init__(self, policy: _Optional[_Union[AcceptancePolicy, _Mapping]] = ...) -> None: ...

class GetQuotaRequest(_message.Message):
    __slots__ = ("bot_id",)
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    def __init__(self, bot_id: _Optional[str] = ...) -> None: ...

class GetQuotaResponse(_message.Message):
    __slots__ = ("live", "max_concurrent", "today", "daily_cap", "day_resets_at")
    LIVE_FIELD_NUMBER: _ClassVar[int]
    MAX_CONCURRENT_FIELD_NUMBER: _ClassVar[int]
    TODAY_FIELD_NUMBER: _ClassVar[int]
    DAILY_CAP_FIELD_NUMBER: _ClassVar[int]
    DAY_RESETS_AT_FIELD_NUMBER: _ClassVar[int]
    live: int
    max_concurrent: int
    today: int
    daily_cap: int
    day_resets_at: _timestamp_pb2.Timestamp
    def __init__(self, live: _Optional[int] = ..., max_concurrent: _Optional[int] = ..., today: _Optional[int] = ..., daily_cap: _Optional[int] = ..., day_resets_at: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
