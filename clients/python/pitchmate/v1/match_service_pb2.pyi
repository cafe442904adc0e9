import datetime

from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from pitchmate.v1 import action_pb2 as _action_pb2
from pitchmate.v1 import board_pb2 as _board_pb2
from pitchmate.v1 import chessyball_pb2 as _chessyball_pb2
from pitchmate.v1 import common_pb2 as _common_pb2
from pitchmate.v1 import event_pb2 as _event_pb2
from pitchmate.v1 import gridiron_pb2 as _gridiron_pb2
from pitchmate.v1 import kings_goal_pb2 as _kings_goal_pb2
from pitchmate.v1 import soccer_chess_pb2 as _soccer_chess_pb2
from pitchmate.v1 import xfutebol_pb2 as _xfutebol_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TimeoutAction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TIMEOUT_ACTION_UNSPECIFIED: _ClassVar[TimeoutAction]
    TIMEOUT_ACTION_FORFEIT: _ClassVar[TimeoutAction]
    TIMEOUT_ACTION_PLAY_DEFAULT: _ClassVar[TimeoutAction]

class MatchStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_STATUS_UNSPECIFIED: _ClassVar[MatchStatus]
    MATCH_STATUS_WAITING: _ClassVar[MatchStatus]
    MATCH_STATUS_ACTIVE: _ClassVar[MatchStatus]
    MATCH_STATUS_FINISHED: _ClassVar[MatchStatus]
    MATCH_STATUS_ABORTED: _ClassVar[MatchStatus]

class ActionDetail(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACTION_DETAIL_UNSPECIFIED: _ClassVar[ActionDetail]
    ACTION_DETAIL_NOTATION: _ClassVar[ActionDetail]
    ACTION_DETAIL_TYPED: _ClassVar[ActionDetail]
TIMEOUT_ACTION_UNSPECIFIED: TimeoutAction
TIMEOUT_ACTION_FORFEIT: TimeoutAction
TIMEOUT_ACTION_PLAY_DEFAULT: TimeoutAction
MATCH_STATUS_UNSPECIFIED: MatchStatus
MATCH_STATUS_WAITING: MatchStatus
MATCH_STATUS_ACTIVE: MatchStatus
MATCH_STATUS_FINISHED: MatchStatus
MATCH_STATUS_ABORTED: MatchStatus
ACTION_DETAIL_UNSPECIFIED: ActionDetail
ACTION_DETAIL_NOTATION: ActionDetail
ACTION_DETAIL_TYPED: ActionDetail

class Match(_message.Message):
    __slots__ = ("match_id", "variant_id", "rules_version", "options", "status", "seats", "version", "last_seq", "turn", "result", "create_time", "start_position", "time_control", "timeout_policy", "abandon_after", "draw_offered_by", "chance")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _common_pb2.OptionValue
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_common_pb2.OptionValue, _Mapping]] = ...) -> None: ...
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    VARIANT_ID_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    LAST_SEQ_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    START_POSITION_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_POLICY_FIELD_NUMBER: _ClassVar[int]
    ABANDON_AFTER_FIELD_NUMBER: _ClassVar[int]
    DRAW_OFFERED_BY_FIELD_NUMBER: _ClassVar[int]
    CHANCE_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    variant_id: str
    rules_version: str
    options: _containers.MessageMap[str, _common_pb2.OptionValue]
    status: MatchStatus
    seats: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    version: int
    last_seq: int
    turn: _common_pb2.TurnInfo
    result: _common_pb2.MatchResult
    create_time: _timestamp_pb2.Timestamp
    start_position: str
    time_control: TimeControl
    timeout_policy: TimeoutPolicy
    abandon_after: _duration_pb2.Duration
    draw_offered_by: str
    chance: _common_pb2.Chance
    def __init__(self, match_id: _Optional[str] = ..., variant_id: _Optional[str] = ..., rules_version: _Optional[str] = ..., options: _Optional[_Mapping[str, _common_pb2.OptionValue]] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., seats: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ..., version: _Optional[int] = ..., last_seq: _Optional[int] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ..., result: _Optional[_Union[_common_pb2.MatchResult, _Mapping]] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., start_position: _Optional[str] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ..., timeout_policy: _Optional[_Union[TimeoutPolicy, _Mapping]] = ..., abandon_after: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., draw_offered_by: _Optional[str] = ..., chance: _Optional[_Union[_common_pb2.Chance, _Mapping]] = ...) -> None: ...

class TimeControl(_message.Message):
    __slots__ = ("none", "per_move", "fischer", "per_move_with_bank")
    NONE_FIELD_NUMBER: _ClassVar[int]
    PER_MOVE_FIELD_NUMBER: _ClassVar[int]
    FISCHER_FIELD_NUMBER: _ClassVar[int]
    PER_MOVE_WITH_BANK_FIELD_NUMBER: _ClassVar[int]
    none: NoTimeLimit
    per_move: PerMoveTime
    fischer: FischerTime
    per_move_with_bank: PerMoveWithBank
    def __init__(self, none: _Optional[_Union[NoTimeLimit, _Mapping]] = ..., per_move: _Optional[_Union[PerMoveTime, _Mapping]] = ..., fischer: _Optional[_Union[FischerTime, _Mapping]] = ..., per_move_with_bank: _Optional[_Union[PerMoveWithBank, _Mapping]] = ...) -> None: ...

class NoTimeLimit(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PerMoveTime(_message.Message):
    __slots__ = ("per_move", "first_move")
    PER_MOVE_FIELD_NUMBER: _ClassVar[int]
    FIRST_MOVE_FIELD_NUMBER: _ClassVar[int]
    per_move: _duration_pb2.Duration
    first_move: _duration_pb2.Duration
    def __init__(self, per_move: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., first_move: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class FischerTime(_message.Message):
    __slots__ = ("base", "increment")
    BASE_FIELD_NUMBER: _ClassVar[int]
    INCREMENT_FIELD_NUMBER: _ClassVar[int]
    base: _duration_pb2.Duration
    increment: _duration_pb2.Duration
    def __init__(self, base: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., increment: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class PerMoveWithBank(_message.Message):
    __slots__ = ("per_move", "bank")
    PER_MOVE_FIELD_NUMBER: _ClassVar[int]
    BANK_FIELD_NUMBER: _ClassVar[int]
    per_move: _duration_pb2.Duration
    bank: _duration_pb2.Duration
    def __init__(self, per_move: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., bank: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class TimeoutPolicy(_message.Message):
    __slots__ = ("action", "forfeit_after")
    ACTION_FIELD_NUMBER: _ClassVar[int]
    FORFEIT_AFTER_FIELD_NUMBER: _ClassVar[int]
    action: TimeoutAction
    forfeit_after: int
    def __init__(self, action: _Optional[_Union[TimeoutAction, str]] = ..., forfeit_after: _Optional[int] = ...) -> None: ...

class SeatInfo(_message.Message):
    __slots__ = ("seat", "occupied", "player_name", "bot_id")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OCCUPIED_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    seat: str
    occupied: bool
    player_name: str
    bot_id: str
    def __init__(self, seat: _Optional[str] = ..., occupied: _Optional[bool] = ..., player_name: _Optional[str] = ..., bot_id: _Optional[str] = ...) -> None: ...

class MatchView(_message.Message):
    __slots__ = ("version", "viewer_seat", "board", "turn", "scores", "position", "soccer_chess", "chessyball", "kings_goal", "xfutebol", "gridiron")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    VIEWER_SEAT_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    SOCCER_CHESS_FIELD_NUMBER: _ClassVar[int]
    CHESSYBALL_FIELD_NUMBER: _ClassVar[int]
    KINGS_GOAL_FIELD_NUMBER: _ClassVar[int]
    XFUTEBOL_FIELD_NUMBER: _ClassVar[int]
    GRIDIRON_FIELD_NUMBER: _ClassVar[int]
    version: int
    viewer_seat: str
    board: _board_pb2.BoardView
    turn: _common_pb2.TurnInfo
    scores: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    position: str
    soccer_chess: _soccer_chess_pb2.SoccerChessDetails
    chessyball: _chessyball_pb2.ChessyballDetails
    kings_goal: _kings_goal_pb2.KingsGoalDetails
    xfutebol: _xfutebol_pb2.XfutebolDetails
    gridiron: _gridiron_pb2.GridironDetails
    def __init__(self, version: _Optional[int] = ..., viewer_seat: _Optional[str] = ..., board: _Optional[_Union[_board_pb2.BoardView, _Mapping]] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ..., scores: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ..., position: _Optional[str] = ..., soccer_chess: _Optional[_Union[_soccer_chess_pb2.SoccerChessDetails, _Mapping]] = ..., chessyball: _Optional[_Union[_chessyball_pb2.ChessyballDetails, _Mapping]] = ..., kings_goal: _Optional[_Union[_kings_goal_pb2.KingsGoalDetails, _Mapping]] = ..., xfutebol: _Optional[_Union[_xfutebol_pb2.XfutebolDetails, _Mapping]] = ..., gridiron: _Optional[_Union[_gridiron_pb2.GridironDetails, _Mapping]] = ...) -> None: ...

class CreateMatchRequest(_message.Message):
    __slots__ = ("variant_id", "options", "seed", "start_position", "time_control", "timeout_policy", "abandon_after")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _common_pb2.OptionValue
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_common_pb2.OptionValue, _Mapping]] = ...) -> None: ...
    VARIANT_ID_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    START_POSITION_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_POLICY_FIELD_NUMBER: _ClassVar[int]
    ABANDON_AFTER_FIELD_NUMBER: _ClassVar[int]
    variant_id: str
    options: _containers.MessageMap[str, _common_pb2.OptionValue]
    seed: int
    start_position: str
    time_control: TimeControl
    timeout_policy: TimeoutPolicy
    abandon_after: _duration_pb2.Duration
    def __init__(self, variant_id: _Optional[str] = ..., options: _Optional[_Mapping[str, _common_pb2.OptionValue]] = ..., seed: _Optional[int] = ..., start_position: _Optional[str] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ..., timeout_policy: _Optional[_Union[TimeoutPolicy, _Mapping]] = ..., abandon_after: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class CreateMatchResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: Match
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ...) -> None: ...

class GetMatchRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class GetMatchResponse(_message.Message):
    __slots__ = ("match", "view")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    match: Match
    view: MatchView
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ..., view: _Optional[_Union[MatchView, _Mapping]] = ...) -> None: ...

class ListMatchesRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "variant_id", "status", "player_name")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    VARIANT_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAME_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    variant_id: str
    status: MatchStatus
    player_name: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., variant_id: _Optional[str] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., player_name: _Optional[str] = ...) -> None: ...

class ListMatchesResponse(_message.Message):
    __slots__ = ("matches", "next_page_token")
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[Match]
    next_page_token: str
    def __init__(self, matches: _Optional[_Iterable[_Union[Match, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class JoinMatchRequest(_message.Message):
    __slots__ = ("match_id", "seat", "player_name")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAME_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: str
    player_name: str
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[str] = ..., player_name: _Optional[str] = ...) -> None: ...

class JoinMatchResponse(_message.Message):
    __slots__ = ("seat", "seat_token", "match")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    seat: str
    seat_token: str
    match: Match
    def __init__(self, seat: _Optional[str] = ..., seat_token: _Optional[str] = ..., match: _Optional[_Union[Match, _Mapping]] = ...) -> None: ...

class GetLegalActionsRequest(_message.Message):
    __slots__ = ("match_id", "detail")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    detail: ActionDetail
    def __init__(self, match_id: _Optional[str] = ..., detail: _Optional[_Union[ActionDetail, str]] = ...) -> None: ...

class GetLegalActionsResponse(_message.Message):
    __slots__ = ("version", "turn", "actions", "view")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    version: int
    turn: _common_pb2.TurnInfo
    actions: _containers.RepeatedCompositeFieldContainer[_action_pb2.LegalAction]
    view: MatchView
    def __init__(self, version: _Optional[int] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ..., actions: _Optional[_Iterable[_Union[_action_pb2.LegalAction, _Mapping]]] = ..., view: _Optional[_Union[MatchView, _Mapping]] = ...) -> None: ...

class SubmitActionRequest(_message.Message):
    __slots__ = ("match_id", "expected_version", "client_action_id", "index", "action", "notation")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    expected_version: int
    client_action_id: str
    index: int
    action: _action_pb2.Action
    notation: str
    def __init__(self, match_id: _Optional[str] = ..., expected_version: _Optional[int] = ..., client_action_id: _Optional[str] = ..., index: _Optional[int] = ..., action: _Optional[_Union[_action_pb2.Action, _Mapping]] = ..., notation: _Optional[str] = ...) -> None: ...

class SubmitActionResponse(_message.Message):
    __slots__ = ("version", "events", "duplicate")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    version: int
    events: _containers.RepeatedCompositeFieldContainer[_event_pb2.MatchEvent]
    duplicate: bool
    def __init__(self, version: _Optional[int] = ..., events: _Optional[_Iterable[_Union[_event_pb2.MatchEvent, _Mapping]]] = ..., duplicate: _Optional[bool] = ...) -> None: ...

class ResignRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class ResignResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: Match
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ...) -> None: ...

class OfferDrawRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class OfferDrawResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: Match
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ...) -> None: ...

class AcceptDrawRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class AcceptDrawResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: Match
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ...) -> None: ...

class AbortMatchRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class AbortMatchResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: Match
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ...) -> None: ...

class ClaimVictoryRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class ClaimVictoryResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: Match
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ...) -> None: ...

class StreamMatchEventsRequest(_message.Message):
    __slots__ = ("match_id", "after_seq", "include_legal_actions", "prompt_detail")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_SEQ_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    PROMPT_DETAIL_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    after_seq: int
    include_legal_actions: bool
    prompt_detail: ActionDetail
    def __init__(self, match_id: _Optional[str] = ..., after_seq: _Optional[int] = ..., include_legal_actions: _Optional[bool] = ..., prompt_detail: _Optional[_Union[ActionDetail, str]] = ...) -> None: ...

class StreamMatchEventsResponse(_message.Message):
    __slots__ = ("event", "heartbeat", "your_turn")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_FIELD_NUMBER: _ClassVar[int]
    YOUR_TURN_FIELD_NUMBER: _ClassVar[int]
    event: _event_pb2.MatchEvent
    heartbeat: Heartbeat
    your_turn: YourTurn
    def __init__(self, event: _Optional[_Union[_event_pb2.MatchEvent, _Mapping]] = ..., heartbeat: _Optional[_Union[Heartbeat, _Mapping]] = ..., your_turn: _Optional[_Union[YourTurn, _Mapping]] = ...) -> None: ...

class YourTurn(_message.Message):
    __slots__ = ("version", "turn", "actions")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    version: int
    turn: _common_pb2.TurnInfo
    actions: _containers.RepeatedCompositeFieldContainer[_action_pb2.LegalAction]
    def __init__(self, version: _Optional[int] = ..., turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ..., actions: _Optional[_Iterable[_Union[_action_pb2.LegalAction, _Mapping]]] = ...) -> None: ...

class PlayRequest(_message.Message):
    __slots__ = ("open", "act")
    OPEN_FIELD_NUMBER: _ClassVar[int]
    ACT_FIELD_NUMBER: _ClassVar[int]
    open: PlayOpen
    act: PlayAction
    def __init__(self, open: _Optional[_Union[PlayOpen, _Mapping]] = ..., act: _Optional[_Union[PlayAction, _Mapping]] = ...) -> None: ...

class PlayOpen(_message.Message):
    __slots__ = ("match_id", "after_seq", "prompt_detail")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    AFTER_SEQ_FIELD_NUMBER: _ClassVar[int]
    PROMPT_DETAIL_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    after_seq: int
    prompt_detail: ActionDetail
    def __init__(self, match_id: _Optional[str] = ..., after_seq: _Optional[int] = ..., prompt_detail: _Optional[_Union[ActionDetail, str]] = ...) -> None: ...

class PlayAction(_message.Message):
    __slots__ = ("expected_version", "client_action_id", "index", "action", "notation")
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    expected_version: int
    client_action_id: str
    index: int
    action: _action_pb2.Action
    notation: str
    def __init__(self, expected_version: _Optional[int] = ..., client_action_id: _Optional[str] = ..., index: _Optional[int] = ..., action: _Optional[_Union[_action_pb2.Action, _Mapping]] = ..., notation: _Optional[str] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("event", "heartbeat", "your_turn", "acted")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_FIELD_NUMBER: _ClassVar[int]
    YOUR_TURN_FIELD_NUMBER: _ClassVar[int]
    ACTED_FIELD_NUMBER: _ClassVar[int]
    event: _event_pb2.MatchEvent
    heartbeat: Heartbeat
    your_turn: YourTurn
    acted: ActionOutcome
    def __init__(self, event: _Optional[_Union[_event_pb2.MatchEvent, _Mapping]] = ..., heartbeat: _Optional[_Union[Heartbeat, _Mapping]] = ..., your_turn: _Optional[_Union[YourTurn, _Mapping]] = ..., acted: _Optional[_Union[ActionOutcome, _Mapping]] = ...) -> None: ...

class ActionOutcome(_message.Message):
    __slots__ = ("client_action_id", "accepted", "refused")
    CLIENT_ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    client_action_id: str
    accepted: ActionAccepted
    refused: ActionRefused
    def __init__(self, client_action_id: _Optional[str] = ..., accepted: _Optional[_Union[ActionAccepted, _Mapping]] = ..., refused: _Optional[_Union[ActionRefused, _Mapping]] = ...) -> None: ...

class ActionAccepted(_message.Message):
    __slots__ = ("version", "duplicate")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    version: int
    duplicate: bool
    def __init__(self, version: _Optional[int] = ..., duplicate: _Optional[bool] = ...) -> None: ...

class ActionRefused(_message.Message):
    __slots__ = ("code", "reason", "message", "metadata", "retry_delay")
    class MetadataEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    CODE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    RETRY_DELAY_FIELD_NUMBER: _ClassVar[int]
    code: int
    reason: str
    message: str
    metadata: _containers.ScalarMap[str, str]
    retry_delay: _duration_pb2.Duration
    def __init__(self, code: _Optional[int] = ..., reason: _Optional[str] = ..., message: _Optional[str] = ..., metadata: _Optional[_Mapping[str, str]] = ..., retry_delay: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class Heartbeat(_message.Message):
    __slots__ = ("last_seq",)
    LAST_SEQ_FIELD_NUMBER: _ClassVar[int]
    last_seq: int
    def __init__(self, last_seq: _Optional[int] = ...) -> None: ...

class StreamLifecycleRequest(_message.Message):
    __slots__ = ("after_position", "variant_id", "player_name")
    AFTER_POSITION_FIELD_NUMBER: _ClassVar[int]
    VARIANT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAME_FIELD_NUMBER: _ClassVar[int]
    after_position: int
    variant_id: str
    player_name: str
    def __init__(self, after_position: _Optional[int] = ..., variant_id: _Optional[str] = ..., player_name: _Optional[str] = ...) -> None: ...

class StreamLifecycleResponse(_message.Message):
    __slots__ = ("event", "heartbeat")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    HEARTBEAT_FIELD_NUMBER: _ClassVar[int]
    event: LifecycleEvent
    heartbeat: LifecycleHeartbeat
    def __init__(self, event: _Optional[_Union[LifecycleEvent, _Mapping]] = ..., heartbeat: _Optional[_Union[LifecycleHeartbeat, _Mapping]] = ...) -> None: ...

class LifecycleEvent(_message.Message):
    __slots__ = ("position", "match_id", "variant_id", "time", "created", "seat_taken", "started", "ended")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    VARIANT_ID_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    CREATED_FIELD_NUMBER: _ClassVar[int]
    SEAT_TAKEN_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    position: int
    match_id: str
    variant_id: str
    time: _timestamp_pb2.Timestamp
    created: LifecycleCreated
    seat_taken: LifecycleSeatTaken
    started: LifecycleStarted
    ended: LifecycleEnded
    def __init__(self, position: _Optional[int] = ..., match_id: _Optional[str] = ..., variant_id: _Optional[str] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., created: _Optional[_Union[LifecycleCreated, _Mapping]] = ..., seat_taken: _Optional[_Union[LifecycleSeatTaken, _Mapping]] = ..., started: _Optional[_Union[LifecycleStarted, _Mapping]] = ..., ended: _Optional[_Union[LifecycleEnded, _Mapping]] = ...) -> None: ...

class LifecycleCreated(_message.Message):
    __slots__ = ("seed_source",)
    SEED_SOURCE_FIELD_NUMBER: _ClassVar[int]
    seed_source: _common_pb2.SeedSource
    def __init__(self, seed_source: _Optional[_Union[_common_pb2.SeedSource, str]] = ...) -> None: ...

class LifecycleSeatTaken(_message.Message):
    __slots__ = ("seat", "player_name", "bot_id")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    seat: str
    player_name: str
    bot_id: str
    def __init__(self, seat: _Optional[str] = ..., player_name: _Optional[str] = ..., bot_id: _Optional[str] = ...) -> None: ...

class LifecycleStarted(_message.Message):
    __slots__ = ("seats",)
    SEATS_FIELD_NUMBER: _ClassVar[int]
    seats: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    def __init__(self, seats: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ...) -> None: ...

class LifecycleEnded(_message.Message):
    __slots__ = ("status", "result", "seats")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    status: MatchStatus
    result: _common_pb2.MatchResult
    seats: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    def __init__(self, status: _Optional[_Union[MatchStatus, str]] = ..., result: _Optional[_Union[_common_pb2.MatchResult, _Mapping]] = ..., seats: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ...) -> None: ...

class LifecycleHeartbeat(_message.Message):
    __slots__ = ("position",)
    POSITION_FIELD_NUMBER: _ClassVar[int]
    position: int
    def __init__(self, position: _Optional[int] = ...) -> None: ...

class GetReplayRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class GetReplayResponse(_message.Message):
    __slots__ = ("header", "events")
    HEADER_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    header: ReplayHeader
    events: _containers.RepeatedCompositeFieldContainer[_event_pb2.MatchEvent]
    def __init__(self, header: _Optional[_Union[ReplayHeader, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_event_pb2.MatchEvent, _Mapping]]] = ...) -> None: ...

class ReplayHeader(_message.Message):
    __slots__ = ("match_id", "variant_id", "rules_version", "options", "start_position", "seats", "create_time", "status", "result", "time_control", "timeout_policy", "abandon_after", "chance")
    class OptionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: _common_pb2.OptionValue
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[_common_pb2.OptionValue, _Mapping]] = ...) -> None: ...
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    VARIANT_ID_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    START_POSITION_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_POLICY_FIELD_NUMBER: _ClassVar[int]
    ABANDON_AFTER_FIELD_NUMBER: _ClassVar[int]
    CHANCE_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    variant_id: str
    rules_version: str
    options: _containers.MessageMap[str, _common_pb2.OptionValue]
    start_position: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    create_time: _timestamp_pb2.Timestamp
    status: MatchStatus
    result: _common_pb2.MatchResult
    time_control: TimeControl
    timeout_policy: TimeoutPolicy
    abandon_after: _duration_pb2.Duration
    chance: _common_pb2.Chance
    def __init__(self, match_id: _Optional[str] = ..., variant_id: _Optional[str] = ..., rules_version: _Optional[str] = ..., options: _Optional[_Mapping[str, _common_pb2.OptionValue]] = ..., start_position: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., result: _Optional[_Union[_common_pb2.MatchResult, _Mapping]] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ..., timeout_policy: _Optional[_Union[TimeoutPolicy, _Mapping]] = ..., abandon_after: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., chance: _Optional[_Union[_common_pb2.Chance, _Mapping]] = ...) -> None: ...

class GetReplayViewRequest(_message.Message):
    __slots__ = ("match_id", "seq", "seat")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seq: int
    seat: str
    def __init__(self, match_id: _Optional[str] = ..., seq: _Optional[int] = ..., seat: _Optional[str] = ...) -> None: ...

class GetReplayViewResponse(_message.Message):
    __slots__ = ("view", "last_seq")
    VIEW_FIELD_NUMBER: _ClassVar[int]
    LAST_SEQ_FIELD_NUMBER: _ClassVar[int]
    view: MatchView
    last_seq: int
    def __init__(self, view: _Optional[_Union[MatchView, _Mapping]] = ..., last_seq: _Optional[int] = ...) -> None: ...

class ExportReplayRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class ExportReplayResponse(_message.Message):
    __slots__ = ("line",)
    LINE_FIELD_NUMBER: _ClassVar[int]
    line: str
    def __init__(self, line: _Optional[str] = ...) -> None: ...
