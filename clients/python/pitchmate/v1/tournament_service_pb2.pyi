import datetime

from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from pitchmate.v1 import challenge_service_pb2 as _challenge_service_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TournamentKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TOURNAMENT_KIND_UNSPECIFIED: _ClassVar[TournamentKind]
    TOURNAMENT_KIND_ROUND_ROBIN: _ClassVar[TournamentKind]
    TOURNAMENT_KIND_DOUBLE_ROUND_ROBIN: _ClassVar[TournamentKind]
    TOURNAMENT_KIND_SWISS: _ClassVar[TournamentKind]
    TOURNAMENT_KIND_LADDER: _ClassVar[TournamentKind]

class TieBreak(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TIE_BREAK_UNSPECIFIED: _ClassVar[TieBreak]
    TIE_BREAK_BUCHHOLZ: _ClassVar[TieBreak]
    TIE_BREAK_BUCHHOLZ_CUT1: _ClassVar[TieBreak]
    TIE_BREAK_SONNEBORN_BERGER: _ClassVar[TieBreak]
    TIE_BREAK_DIRECT_ENCOUNTER: _ClassVar[TieBreak]
    TIE_BREAK_WINS: _ClassVar[TieBreak]

class TournamentStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TOURNAMENT_STATUS_UNSPECIFIED: _ClassVar[TournamentStatus]
    TOURNAMENT_STATUS_OPEN: _ClassVar[TournamentStatus]
    TOURNAMENT_STATUS_RUNNING: _ClassVar[TournamentStatus]
    TOURNAMENT_STATUS_FINISHED: _ClassVar[TournamentStatus]
    TOURNAMENT_STATUS_CANCELLED: _ClassVar[TournamentStatus]

class EntryStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ENTRY_STATUS_UNSPECIFIED: _ClassVar[EntryStatus]
    ENTRY_STATUS_ACTIVE: _ClassVar[EntryStatus]
    ENTRY_STATUS_PAUSED: _ClassVar[EntryStatus]
    ENTRY_STATUS_WITHDRAWN: _ClassVar[EntryStatus]

class GameOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_OUTCOME_UNSPECIFIED: _ClassVar[GameOutcome]
    GAME_OUTCOME_PENDING: _ClassVar[GameOutcome]
    GAME_OUTCOME_FIRST_WON: _ClassVar[GameOutcome]
    GAME_OUTCOME_SECOND_WON: _ClassVar[GameOutcome]
    GAME_OUTCOME_DRAW: _ClassVar[GameOutcome]
    GAME_OUTCOME_NEITHER_CAME: _ClassVar[GameOutcome]
TOURNAMENT_KIND_UNSPECIFIED: TournamentKind
TOURNAMENT_KIND_ROUND_ROBIN: TournamentKind
TOURNAMENT_KIND_DOUBLE_ROUND_ROBIN: TournamentKind
TOURNAMENT_KIND_SWISS: TournamentKind
TOURNAMENT_KIND_LADDER: TournamentKind
TIE_BREAK_UNSPECIFIED: TieBreak
TIE_BREAK_BUCHHOLZ: TieBreak
TIE_BREAK_BUCHHOLZ_CUT1: TieBreak
TIE_BREAK_SONNEBORN_BERGER: TieBreak
TIE_BREAK_DIRECT_ENCOUNTER: TieBreak
TIE_BREAK_WINS: TieBreak
TOURNAMENT_STATUS_UNSPECIFIED: TournamentStatus
TOURNAMENT_STATUS_OPEN: TournamentStatus
TOURNAMENT_STATUS_RUNNING: TournamentStatus
TOURNAMENT_STATUS_FINISHED: TournamentStatus
TOURNAMENT_STATUS_CANCELLED: TournamentStatus
ENTRY_STATUS_UNSPECIFIED: EntryStatus
ENTRY_STATUS_ACTIVE: EntryStatus
ENTRY_STATUS_PAUSED: EntryStatus
ENTRY_STATUS_WITHDRAWN: EntryStatus
GAME_OUTCOME_UNSPECIFIED: GameOutcome
GAME_OUTCOME_PENDING: GameOutcome
GAME_OUTCOME_FIRST_WON: GameOutcome
GAME_OUTCOME_SECOND_WON: GameOutcome
GAME_OUTCOME_DRAW: GameOutcome
GAME_OUTCOME_NEITHER_CAME: GameOutcome

class EntryConditions(_message.Message):
    __slots__ = ("min_rating", "max_rating", "min_rated_games", "operator_entries_only", "max_entries")
    MIN_RATING_FIELD_NUMBER: _ClassVar[int]
    MAX_RATING_FIELD_NUMBER: _ClassVar[int]
    MIN_RATED_GAMES_FIELD_NUMBER: _ClassVar[int]
    OPERATOR_ENTRIES_ONLY_FIELD_NUMBER: _ClassVar[int]
    MAX_ENTRIES_FIELD_NUMBER: _ClassVar[int]
    min_rating: int
    max_rating: int
    min_rated_games: int
    operator_entries_only: bool
    max_entries: int
    def __init__(self, min_rating: _Optional[int] = ..., max_rating: _Optional[int] = ..., min_rated_games: _Optional[int] = ..., operator_entries_only: _Optional[bool] = ..., max_entries: _Optional[int] = ...) -> None: ...

class ForbiddenPair(_message.Message):
    __slots__ = ("first_bot_id", "second_bot_id")
    FIRST_BOT_ID_FIELD_NUMBER: _ClassVar[int]
    SECOND_BOT_ID_FIELD_NUMBER: _ClassVar[int]
    first_bot_id: str
    second_bot_id: str
    def __init__(self, first_bot_id: _Optional[str] = ..., second_bot_id: _Optional[str] = ...) -> None: ...

class TournamentSpec(_message.Message):
    __slots__ = ("name", "kind", "terms", "rounds", "start_time", "round_interval", "seed", "tie_breaks", "conditions", "forbidden_pairs", "ladder_games_per_bot", "end_time", "paired_games")
    NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TERMS_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    START_TIME_FIELD_NUMBER: _ClassVar[int]
    ROUND_INTERVAL_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TIE_BREAKS_FIELD_NUMBER: _ClassVar[int]
    CONDITIONS_FIELD_NUMBER: _ClassVar[int]
    FORBIDDEN_PAIRS_FIELD_NUMBER: _ClassVar[int]
    LADDER_GAMES_PER_BOT_FIELD_NUMBER: _ClassVar[int]
    END_TIME_FIELD_NUMBER: _ClassVar[int]
    PAIRED_GAMES_FIELD_NUMBER: _ClassVar[int]
    name: str
    kind: TournamentKind
    terms: _challenge_service_pb2.MatchTerms
    rounds: int
    start_time: _timestamp_pb2.Timestamp
    round_interval: _duration_pb2.Duration
    seed: int
    tie_breaks: _containers.RepeatedScalarFieldContainer[TieBreak]
    conditions: EntryConditions
    forbidden_pairs: _containers.RepeatedCompositeFieldContainer[ForbiddenPair]
    ladder_games_per_bot: int
    end_time: _timestamp_pb2.Timestamp
    paired_games: bool
    def __init__(self, name: _Optional[str] = ..., kind: _Optional[_Union[TournamentKind, str]] = ..., terms: _Optional[_Union[_challenge_service_pb2.MatchTerms, _Mapping]] = ..., rounds: _Optional[int] = ..., start_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., round_interval: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., seed: _Optional[int] = ..., tie_breaks: _Optional[_Iterable[_Union[TieBreak, str]]] = ..., conditions: _Optional[_Union[EntryConditions, _Mapping]] = ..., forbidden_pairs: _Optional[_Iterable[_Union[ForbiddenPair, _Mapping]]] = ..., ladder_games_per_bot: _Optional[int] = ..., end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., paired_games: _Optional[bool] = ...) -> None: ...

class Tournament(_message.Message):
    __slots__ = ("tournament_id", "spec", "status", "create_time", "rounds_paired", "rounds_planned", "entries", "finish_time", "end_reason")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    SPEC_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_PAIRED_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_PLANNED_FIELD_NUMBER: _ClassVar[int]
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    FINISH_TIME_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    spec: TournamentSpec
    status: TournamentStatus
    create_time: _timestamp_pb2.Timestamp
    rounds_paired: int
    rounds_planned: int
    entries: int
    finish_time: _timestamp_pb2.Timestamp
    end_reason: str
    def __init__(self, tournament_id: _Optional[str] = ..., spec: _Optional[_Union[TournamentSpec, _Mapping]] = ..., status: _Optional[_Union[TournamentStatus, str]] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., rounds_paired: _Optional[int] = ..., rounds_planned: _Optional[int] = ..., entries: _Optional[int] = ..., finish_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., end_reason: _Optional[str] = ...) -> None: ...

class Entry(_message.Message):
    __slots__ = ("bot_id", "bot_name", "rating", "status", "first_round", "enter_time")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    FIRST_ROUND_FIELD_NUMBER: _ClassVar[int]
    ENTER_TIME_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    bot_name: str
    rating: int
    status: EntryStatus
    first_round: int
    enter_time: _timestamp_pb2.Timestamp
    def __init__(self, bot_id: _Optional[str] = ..., bot_name: _Optional[str] = ..., rating: _Optional[int] = ..., status: _Optional[_Union[EntryStatus, str]] = ..., first_round: _Optional[int] = ..., enter_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class TournamentGame(_message.Message):
    __slots__ = ("match_id", "first_bot_id", "second_bot_id", "outcome")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    FIRST_BOT_ID_FIELD_NUMBER: _ClassVar[int]
    SECOND_BOT_ID_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    first_bot_id: str
    second_bot_id: str
    outcome: GameOutcome
    def __init__(self, match_id: _Optional[str] = ..., first_bot_id: _Optional[str] = ..., second_bot_id: _Optional[str] = ..., outcome: _Optional[_Union[GameOutcome, str]] = ...) -> None: ...

class CostPart(_message.Message):
    __slots__ = ("name", "value")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    name: str
    value: int
    def __init__(self, name: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...

class Pairing(_message.Message):
    __slots__ = ("board", "game", "cost", "cost_parts", "seat_reason", "return_game")
    BOARD_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    COST_PARTS_FIELD_NUMBER: _ClassVar[int]
    SEAT_REASON_FIELD_NUMBER: _ClassVar[int]
    RETURN_GAME_FIELD_NUMBER: _ClassVar[int]
    board: int
    game: TournamentGame
    cost: int
    cost_parts: _containers.RepeatedCompositeFieldContainer[CostPart]
    seat_reason: str
    return_game: TournamentGame
    def __init__(self, board: _Optional[int] = ..., game: _Optional[_Union[TournamentGame, _Mapping]] = ..., cost: _Optional[int] = ..., cost_parts: _Optional[_Iterable[_Union[CostPart, _Mapping]]] = ..., seat_reason: _Optional[str] = ..., return_game: _Optional[_Union[TournamentGame, _Mapping]] = ...) -> None: ...

class ScoreGroup(_message.Message):
    __slots__ = ("points", "bot_ids")
    POINTS_FIELD_NUMBER: _ClassVar[int]
    BOT_IDS_FIELD_NUMBER: _ClassVar[int]
    points: float
    bot_ids: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, points: _Optional[float] = ..., bot_ids: _Optional[_Iterable[str]] = ...) -> None: ...

class TournamentRound(_message.Message):
    __slots__ = ("number", "pair_time", "deadline", "pairings", "bye_bot_id", "bye_reason", "field", "score_groups", "total_cost")
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    PAIR_TIME_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    PAIRINGS_FIELD_NUMBER: _ClassVar[int]
    BYE_BOT_ID_FIELD_NUMBER: _ClassVar[int]
    BYE_REASON_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    SCORE_GROUPS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_COST_FIELD_NUMBER: _ClassVar[int]
    number: int
    pair_time: _timestamp_pb2.Timestamp
    deadline: _timestamp_pb2.Timestamp
    pairings: _containers.RepeatedCompositeFieldContainer[Pairing]
    bye_bot_id: str
    bye_reason: str
    field: _containers.RepeatedScalarFieldContainer[str]
    score_groups: _containers.RepeatedCompositeFieldContainer[ScoreGroup]
    total_cost: int
    def __init__(self, number: _Optional[int] = ..., pair_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., pairings: _Optional[_Iterable[_Union[Pairing, _Mapping]]] = ..., bye_bot_id: _Optional[str] = ..., bye_reason: _Optional[str] = ..., field: _Optional[_Iterable[str]] = ..., score_groups: _Optional[_Iterable[_Union[ScoreGroup, _Mapping]]] = ..., total_cost: _Optional[int] = ...) -> None: ...

class TieBreakValue(_message.Message):
    __slots__ = ("tie_break", "value")
    TIE_BREAK_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    tie_break: TieBreak
    value: float
    def __init__(self, tie_break: _Optional[_Union[TieBreak, str]] = ..., value: _Optional[float] = ...) -> None: ...

class Standing(_message.Message):
    __slots__ = ("rank", "bot_id", "bot_name", "points", "played", "wins", "draws", "losses", "byes", "tie_breaks", "status")
    RANK_FIELD_NUMBER: _ClassVar[int]
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    LOSSES_FIELD_NUMBER: _ClassVar[int]
    BYES_FIELD_NUMBER: _ClassVar[int]
    TIE_BREAKS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    rank: int
    bot_id: str
    bot_name: str
    points: float
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    tie_breaks: _containers.RepeatedCompositeFieldContainer[TieBreakValue]
    status: EntryStatus
    def __init__(self, rank: _Optional[int] = ..., bot_id: _Optional[str] = ..., bot_name: _Optional[str] = ..., points: _Optional[float] = ..., played: _Optional[int] = ..., wins: _Optional[int] = ..., draws: _Optional[int] = ..., losses: _Optional[int] = ..., byes: _Optional[int] = ..., tie_breaks: _Optional[_Iterable[_Union[TieBreakValue, _Mapping]]] = ..., status: _Optional[_Union[EntryStatus, str]] = ...) -> None: ...

class CreateTournamentRequest(_message.Message):
    __slots__ = ("spec",)
    SPEC_FIELD_NUMBER: _ClassVar[int]
    spec: TournamentSpec
    def __init__(self, spec: _Optional[_Union[TournamentSpec, _Mapping]] = ...) -> None: ...

class CreateTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class GetTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class GetTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class ListTournamentsRequest(_message.Message):
    __slots__ = ("status", "page_size", "page_token")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    status: TournamentStatus
    page_size: int
    page_token: str
    def __init__(self, status: _Optional[_Union[TournamentStatus, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListTournamentsResponse(_message.Message):
    __slots__ = ("tournaments", "next_page_token")
    TOURNAMENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournaments: _containers.RepeatedCompositeFieldContainer[Tournament]
    next_page_token: str
    def __init__(self, tournaments: _Optional[_Iterable[_Union[Tournament, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class EnterTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "bot")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    bot: str
    def __init__(self, tournament_id: _Optional[str] = ..., bot: _Optional[str] = ...) -> None: ...

class EnterTournamentResponse(_message.Message):
    __slots__ = ("entry",)
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    entry: Entry
    def __init__(self, entry: _Optional[_Union[Entry, _Mapping]] = ...) -> None: ...

class SetEntryStatusRequest(_message.Message):
    __slots__ = ("tournament_id", "bot", "status")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    bot: str
    status: EntryStatus
    def __init__(self, tournament_id: _Optional[str] = ..., bot: _Optional[str] = ..., status: _Optional[_Union[EntryStatus, str]] = ...) -> None: ...

class SetEntryStatusResponse(_message.Message):
    __slots__ = ("entry",)
    ENTRY_FIELD_NUMBER: _ClassVar[int]
    entry: Entry
    def __init__(self, entry: _Optional[_Union[Entry, _Mapping]] = ...) -> None: ...

class StartTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class StartTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class CancelTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class CancelTournamentResponse(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class ListEntriesRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class ListEntriesResponse(_message.Message):
    __slots__ = ("entries",)
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    entries: _containers.RepeatedCompositeFieldContainer[Entry]
    def __init__(self, entries: _Optional[_Iterable[_Union[Entry, _Mapping]]] = ...) -> None: ...

class GetStandingsRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class GetStandingsResponse(_message.Message):
    __slots__ = ("standings",)
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    standings: _containers.RepeatedCompositeFieldContainer[Standing]
    def __init__(self, standings: _Optional[_Iterable[_Union[Standing, _Mapping]]] = ...) -> None: ...

class ListRoundsRequest(_message.Message):
    __slots__ = ("tournament_id", "from_round", "page_size")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_ROUND_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    from_round: int
    page_size: int
    def __init__(self, tournament_id: _Optional[str] = ..., from_round: _Optional[int] = ..., page_size: _Optional[int] = ...) -> None: ...

class ListRoundsResponse(_message.Message):
    __slots__ = ("rounds",)
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    rounds: _containers.RepeatedCompositeFieldContainer[TournamentRound]
    def __init__(self, rounds: _Optional[_Iterable[_Union[TournamentRound, _Mapping]]] = ...) -> None: ...

class WatchTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "after_seq")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_SEQ_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    after_seq: int
    def __init__(self, tournament_id: _Optional[str] = ..., after_seq: _Optional[int] = ...) -> None: ...

class WatchTournamentResponse(_message.Message):
    __slots__ = ("seq", "time", "created", "entry_changed", "round_paired", "game_finished", "finished")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    ENTRY_CHANGED_FIELD_NUMBER: _ClassVar[int]
    ROUND_PAIRED_FIELD_NUMBER: _ClassVar[int]
    GAME_FINISHED_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    seq: int
    time: _timestamp_pb2.Timestamp
    created: Tournament
    entry_changed: Entry
    round_paired: TournamentRound
    game_finished: TournamentGameFinished
    finished: Tournament
    def __init__(self, seq: _Optional[int] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., created: _Optional[_Union[Tournament, _Mapping]] = ..., entry_changed: _Optional[_Union[Entry, _Mapping]] = ..., round_paired: _Optional[_Union[TournamentRound, _Mapping]] = ..., game_finished: _Optional[_Union[TournamentGameFinished, _Mapping]] = ..., finished: _Optional[_Union[Tournament, _Mapping]] = ...) -> None: ...

class TournamentGameFinished(_message.Message):
    __slots__ = ("round", "game")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    round: int
    game: TournamentGame
    def __init__(self, round: _Optional[int] = ..., game: _Optional[_Union[TournamentGame, _Mapping]] = ...) -> None: ...

class ExportTournamentRequest(_message.Message):
    __slots__ = ("tournament_id",)
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    def __init__(self, tournament_id: _Optional[str] = ...) -> None: ...

class ExportTournamentResponse(_message.Message):
    __slots__ = ("document",)
    DOCUMENT_FIELD_NUMBER: _ClassVar[int]
    document: str
    def __init__(self, document: _Optional[str] = ...) -> None: ...

class VerifyTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "document")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    DOCUMENT_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    document: str
    def __init__(self, tournament_id: _Optional[str] = ..., document: _Optional[str] = ...) -> None: ...

class Discrepancy(_message.Message):
    __slots__ = ("round", "expected", "recorded")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_FIELD_NUMBER: _ClassVar[int]
    RECORDED_FIELD_NUMBER: _ClassVar[int]
    round: int
    expected: str
    recorded: str
    def __init__(self, round: _Optional[int] = ..., expected: _Optional[str] = ..., recorded: _Optional[str] = ...) -> None: ...

class VerifyTournamentResponse(_message.Message):
    __slots__ = ("rounds_checked", "discrepancies")
    ROUNDS_CHECKED_FIELD_NUMBER: _ClassVar[int]
    DISCREPANCIES_FIELD_NUMBER: _ClassVar[int]
    rounds_checked: int
    discrepancies: _containers.RepeatedCompositeFieldContainer[Discrepancy]
    def __init__(self, rounds_checked: _Optional[int] = ..., discrepancies: _Optional[_Iterable[_Union[Discrepancy, _Mapping]]] = ...) -> None: ...
