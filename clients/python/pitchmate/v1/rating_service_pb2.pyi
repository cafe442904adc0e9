import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from pitchmate.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Rating(_message.Message):
    __slots__ = ("rating", "deviation", "volatility", "games", "last_rated_time", "provisional")
    RATING_FIELD_NUMBER: _ClassVar[int]
    DEVIATION_FIELD_NUMBER: _ClassVar[int]
    VOLATILITY_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    LAST_RATED_TIME_FIELD_NUMBER: _ClassVar[int]
    PROVISIONAL_FIELD_NUMBER: _ClassVar[int]
    rating: float
    deviation: float
    volatility: float
    games: int
    last_rated_time: _timestamp_pb2.Timestamp
    provisional: bool
    def __init__(self, rating: _Optional[float] = ..., deviation: _Optional[float] = ..., volatility: _Optional[float] = ..., games: _Optional[int] = ..., last_rated_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., provisional: _Optional[bool] = ...) -> None: ...

class PoolRating(_message.Message):
    __slots__ = ("pool", "rating")
    POOL_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    pool: str
    rating: Rating
    def __init__(self, pool: _Optional[str] = ..., rating: _Optional[_Union[Rating, _Mapping]] = ...) -> None: ...

class GetRatingsRequest(_message.Message):
    __slots__ = ("bot_id",)
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    def __init__(self, bot_id: _Optional[str] = ...) -> None: ...

class GetRatingsResponse(_message.Message):
    __slots__ = ("ratings",)
    RATINGS_FIELD_NUMBER: _ClassVar[int]
    ratings: _containers.RepeatedCompositeFieldContainer[PoolRating]
    def __init__(self, ratings: _Optional[_Iterable[_Union[PoolRating, _Mapping]]] = ...) -> None: ...

class GetLeaderboardRequest(_message.Message):
    __slots__ = ("pool", "page_size", "page_token")
    POOL_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    pool: str
    page_size: int
    page_token: str
    def __init__(self, pool: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class LeaderboardEntry(_message.Message):
    __slots__ = ("rank", "bot_id", "bot_name", "rating")
    RANK_FIELD_NUMBER: _ClassVar[int]
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    rank: int
    bot_id: str
    bot_name: str
    rating: Rating
    def __init__(self, rank: _Optional[int] = ..., bot_id: _Optional[str] = ..., bot_name: _Optional[str] = ..., rating: _Optional[_Union[Rating, _Mapping]] = ...) -> None: ...

class GetLeaderboardResponse(_message.Message):
    __slots__ = ("entries", "next_page_token", "total_size")
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOTAL_SIZE_FIELD_NUMBER: _ClassVar[int]
    entries: _containers.RepeatedCompositeFieldContainer[LeaderboardEntry]
    next_page_token: str
    total_size: int
    def __init__(self, entries: _Optional[_Iterable[_Union[LeaderboardEntry, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., total_size: _Optional[int] = ...) -> None: ...

class RatingChange(_message.Message):
    __slots__ = ("match_id", "pool", "bot_id", "opponent_id", "outcome", "before", "after", "time")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    POOL_FIELD_NUMBER: _ClassVar[int]
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_ID_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    BEFORE_FIELD_NUMBER: _ClassVar[int]
    AFTER_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    pool: str
    bot_id: str
    opponent_id: str
    outcome: _common_pb2.MatchOutcome
    before: Rating
    after: Rating
    time: _timestamp_pb2.Timestamp
    def __init__(self, match_id: _Optional[str] = ..., pool: _Optional[str] = ..., bot_id: _Optional[str] = ..., opponent_id: _Optional[str] = ..., outcome: _Optional[_Union[_common_pb2.MatchOutcome, str]] = ..., before: _Optional[_Union[Rating, _Mapping]] = ..., after: _Optional[_Union[Rating, _Mapping]] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListRatingChangesRequest(_message.Message):
    __slots__ = ("bot_id", "page_size", "page_token")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    page_size: int
    page_token: str
    def __init__(self, bot_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListRatingChangesResponse(_message.Message):
    __slots__ = ("changes", "next_page_token")
    CHANGES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    changes: _containers.RepeatedCompositeFieldContainer[RatingChange]
    next_page_token: str
    def __init__(self, changes: _Optional[_Iterable[_Union[RatingChange, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...
