from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ResultReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RESULT_REASON_UNSPECIFIED: _ClassVar[ResultReason]
    RESULT_REASON_RULES: _ClassVar[ResultReason]
    RESULT_REASON_RESIGNATION: _ClassVar[ResultReason]
    RESULT_REASON_TIMEOUT: _ClassVar[ResultReason]
    RESULT_REASON_DRAW_AGREED: _ClassVar[ResultReason]
    RESULT_REASON_ABORTED: _ClassVar[ResultReason]
    RESULT_REASON_ABANDONED: _ClassVar[ResultReason]
    RESULT_REASON_EXPIRED: _ClassVar[ResultReason]
    RESULT_REASON_NO_SHOW: _ClassVar[ResultReason]

class ChanceGenerator(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHANCE_GENERATOR_UNSPECIFIED: _ClassVar[ChanceGenerator]
    CHANCE_GENERATOR_CHACHA20: _ClassVar[ChanceGenerator]
    CHANCE_GENERATOR_SPLITMIX64: _ClassVar[ChanceGenerator]

class SeedSource(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEED_SOURCE_UNSPECIFIED: _ClassVar[SeedSource]
    SEED_SOURCE_SERVER: _ClassVar[SeedSource]
    SEED_SOURCE_CLIENT: _ClassVar[SeedSource]

class MatchOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_OUTCOME_UNSPECIFIED: _ClassVar[MatchOutcome]
    MATCH_OUTCOME_WON: _ClassVar[MatchOutcome]
    MATCH_OUTCOME_LOST: _ClassVar[MatchOutcome]
    MATCH_OUTCOME_DRAWN: _ClassVar[MatchOutcome]
    MATCH_OUTCOME_ABORTED: _ClassVar[MatchOutcome]
RESULT_REASON_UNSPECIFIED: ResultReason
RESULT_REASON_RULES: ResultReason
RESULT_REASON_RESIGNATION: ResultReason
RESULT_REASON_TIMEOUT: ResultReason
RESULT_REASON_DRAW_AGREED: ResultReason
RESULT_REASON_ABORTED: ResultReason
RESULT_REASON_ABANDONED: ResultReason
RESULT_REASON_EXPIRED: ResultReason
RESULT_REASON_NO_SHOW: ResultReason
CHANCE_GENERATOR_UNSPECIFIED: ChanceGenerator
CHANCE_GENERATOR_CHACHA20: ChanceGenerator
CHANCE_GENERATOR_SPLITMIX64: ChanceGenerator
SEED_SOURCE_UNSPECIFIED: SeedSource
SEED_SOURCE_SERVER: SeedSource
SEED_SOURCE_CLIENT: SeedSource
MATCH_OUTCOME_UNSPECIFIED: MatchOutcome
MATCH_OUTCOME_WON: MatchOutcome
MATCH_OUTCOME_LOST: MatchOutcome
MATCH_OUTCOME_DRAWN: MatchOutcome
MATCH_OUTCOME_ABORTED: MatchOutcome

class Square(_message.Message):
    __slots__ = ("file", "rank", "name")
    FILE_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    file: int
    rank: int
    name: str
    def __init__(self, file: _Optional[int] = ..., rank: _Optional[int] = ..., name: _Optional[str] = ...) -> None: ...

class OptionValue(_message.Message):
    __slots__ = ("int_value", "bool_value", "string_value")
    INT_VALUE_FIELD_NUMBER: _ClassVar[int]
    BOOL_VALUE_FIELD_NUMBER: _ClassVar[int]
    STRING_VALUE_FIELD_NUMBER: _ClassVar[int]
    int_value: int
    bool_value: bool
    string_value: str
    def __init__(self, int_value: _Optional[int] = ..., bool_value: _Optional[bool] = ..., string_value: _Optional[str] = ...) -> None: ...

class TurnInfo(_message.Message):
    __slots__ = ("phase", "to_act", "number", "actions_left", "may_end_turn")
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_LEFT_FIELD_NUMBER: _ClassVar[int]
    MAY_END_TURN_FIELD_NUMBER: _ClassVar[int]
    phase: str
    to_act: _containers.RepeatedScalarFieldContainer[str]
    number: int
    actions_left: int
    may_end_turn: bool
    def __init__(self, phase: _Optional[str] = ..., to_act: _Optional[_Iterable[str]] = ..., number: _Optional[int] = ..., actions_left: _Optional[int] = ..., may_end_turn: _Optional[bool] = ...) -> None: ...

class SeatScore(_message.Message):
    __slots__ = ("seat", "score")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    seat: str
    score: int
    def __init__(self, seat: _Optional[str] = ..., score: _Optional[int] = ...) -> None: ...

class MatchResult(_message.Message):
    __slots__ = ("winner", "scores", "reason", "detail")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    winner: str
    scores: _containers.RepeatedCompositeFieldContainer[SeatScore]
    reason: ResultReason
    detail: str
    def __init__(self, winner: _Optional[str] = ..., scores: _Optional[_Iterable[_Union[SeatScore, _Mapping]]] = ..., reason: _Optional[_Union[ResultReason, str]] = ..., detail: _Optional[str] = ...) -> None: ...

class Chance(_message.Message):
    __slots__ = ("generator", "seed_source", "commitment", "seed", "salt")
    GENERATOR_FIELD_NUMBER: _ClassVar[int]
    SEED_SOURCE_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SALT_FIELD_NUMBER: _ClassVar[int]
    generator: ChanceGenerator
    seed_source: SeedSource
    commitment: bytes
    seed: bytes
    salt: bytes
    def __init__(self, generator: _Optional[_Union[ChanceGenerator, str]] = ..., seed_source: _Optional[_Union[SeedSource, str]] = ..., commitment: _Optional[bytes] = ..., seed: _Optional[bytes] = ..., salt: _Optional[bytes] = ...) -> None: ...
