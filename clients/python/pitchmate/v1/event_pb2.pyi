import datetime

from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from pitchmate.v1 import action_pb2 as _action_pb2
from pitchmate.v1 import chessyball_pb2 as _chessyball_pb2
from pitchmate.v1 import common_pb2 as _common_pb2
from pitchmate.v1 import gridiron_pb2 as _gridiron_pb2
from pitchmate.v1 import kings_goal_pb2 as _kings_goal_pb2
from pitchmate.v1 import soccer_chess_pb2 as _soccer_chess_pb2
from pitchmate.v1 import xfutebol_pb2 as _xfutebol_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class MatchEvent(_message.Message):
    __slots__ = ("seq", "time", "version", "match_created", "seat_joined", "match_started", "turn_started", "action_taken", "game_event", "match_ended", "resigned", "draw_offered", "draw_accepted", "match_aborted", "victory_claimed", "timed_out")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    MATCH_CREATED_FIELD_NUMBER: _ClassVar[int]
    SEAT_JOINED_FIELD_NUMBER: _ClassVar[int]
    MATCH_STARTED_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    ACTION_TAKEN_FIELD_NUMBER: _ClassVar[int]
    GAME_EVENT_FIELD_NUMBER: _ClassVar[int]
    MATCH_ENDED_FIELD_NUMBER: _ClassVar[int]
    RESIGNED_FIELD_NUMBER: _ClassVar[int]
    DRAW_OFFERED_FIELD_NUMBER: _ClassVar[int]
    DRAW_ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    MATCH_ABORTED_FIELD_NUMBER: _ClassVar[int]
    VICTORY_CLAIMED_FIELD_NUMBER: _ClassVar[int]
    TIMED_OUT_FIELD_NUMBER: _ClassVar[int]
    seq: int
    time: _timestamp_pb2.Timestamp
    version: int
    match_created: MatchCreated
    seat_joined: SeatJoined
    match_started: MatchStarted
    turn_started: TurnStarted
    action_taken: ActionTaken
    game_event: GameEvent
    match_ended: MatchEnded
    resigned: Resigned
    draw_offered: DrawOffered
    draw_accepted: DrawAccepted
    match_aborted: MatchAborted
    victory_claimed: VictoryClaimed
    timed_out: TimedOut
    def __init__(self, seq: _Optional[int] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., version: _Optional[int] = ..., match_created: _Optional[_Union[MatchCreated, _Mapping]] = ..., seat_joined: _Optional[_Union[SeatJoined, _Mapping]] = ..., match_started: _Optional[_Union[MatchStarted, _Mapping]] = ..., turn_started: _Optional[_Union[TurnStarted, _Mapping]] = ..., action_taken: _Optional[_Union[ActionTaken, _Mapping]] = ..., game_event: _Optional[_Union[GameEvent, _Mapping]] = ..., match_ended: _Optional[_Union[MatchEnded, _Mapping]] = ..., resigned: _Optional[_Union[Resigned, _Mapping]] = ..., draw_offered: _Optional[_Union[DrawOffered, _Mapping]] = ..., draw_accepted: _Optional[_Union[DrawAccepted, _Mapping]] = ..., match_aborted: _Optional[_Union[MatchAborted, _Mapping]] = ..., victory_claimed: _Optional[_Union[VictoryClaimed, _Mapping]] = ..., timed_out: _Optional[_Union[TimedOut, _Mapping]] = ...) -> None: ...

class MatchCreated(_message.Message):
    __slots__ = ("variant_id", "rules_version", "chance")
    VARIANT_ID_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    CHANCE_FIELD_NUMBER: _ClassVar[int]
    variant_id: str
    rules_version: str
    chance: _common_pb2.Chance
    def __init__(self, variant_id: _Optional[str] = ..., rules_version: _Optional[str] = ..., chance: _Optional[_Union[_common_pb2.Chance, _Mapping]] = ...) -> None: ...

class SeatJoined(_message.Message):
    __slots__ = ("seat", "player_name")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAME_FIELD_NUMBER: _ClassVar[int]
    seat: str
    player_name: str
    def __init__(self, seat: _Optional[str] = ..., player_name: _Optional[str] = ...) -> None: ...

class MatchStarted(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TurnStarted(_message.Message):
    __slots__ = ("turn", "deadline", "clocks")
    TURN_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    CLOCKS_FIELD_NUMBER: _ClassVar[int]
    turn: _common_pb2.TurnInfo
    deadline: _timestamp_pb2.Timestamp
    clocks: _containers.RepeatedCompositeFieldContainer[SeatClock]
    def __init__(self, turn: _Optional[_Union[_common_pb2.TurnInfo, _Mapping]] = ..., deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., clocks: _Optional[_Iterable[_Union[SeatClock, _Mapping]]] = ...) -> None: ...

class SeatClock(_message.Message):
    __slots__ = ("seat", "remaining", "deadline")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REMAINING_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    seat: str
    remaining: _duration_pb2.Duration
    deadline: _timestamp_pb2.Timestamp
    def __init__(self, seat: _Optional[str] = ..., remaining: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Resigned(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: str
    def __init__(self, seat: _Optional[str] = ...) -> None: ...

class DrawOffered(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: str
    def __init__(self, seat: _Optional[str] = ...) -> None: ...

class DrawAccepted(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: str
    def __init__(self, seat: _Optional[str] = ...) -> None: ...

class MatchAborted(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: str
    def __init__(self, seat: _Optional[str] = ...) -> None: ...

class VictoryClaimed(_message.Message):
    __slots__ = ("seat", "opponent")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_FIELD_NUMBER: _ClassVar[int]
    seat: str
    opponent: str
    def __init__(self, seat: _Optional[str] = ..., opponent: _Optional[str] = ...) -> None: ...

class TimedOut(_message.Message):
    __slots__ = ("seat", "consecutive", "forfeited")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CONSECUTIVE_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    seat: str
    consecutive: int
    forfeited: bool
    def __init__(self, seat: _Optional[str] = ..., consecutive: _Optional[int] = ..., forfeited: _Optional[bool] = ...) -> None: ...

class ActionTaken(_message.Message):
    __slots__ = ("seat", "action", "notation")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    seat: str
    action: _action_pb2.Action
    notation: str
    def __init__(self, seat: _Optional[str] = ..., action: _Optional[_Union[_action_pb2.Action, _Mapping]] = ..., notation: _Optional[str] = ...) -> None: ...

class GameEvent(_message.Message):
    __slots__ = ("dice_rolled", "soccer_chess", "chessyball", "kings_goal", "xfutebol", "gridiron")
    DICE_ROLLED_FIELD_NUMBER: _ClassVar[int]
    SOCCER_CHESS_FIELD_NUMBER: _ClassVar[int]
    CHESSYBALL_FIELD_NUMBER: _ClassVar[int]
    KINGS_GOAL_FIELD_NUMBER: _ClassVar[int]
    XFUTEBOL_FIELD_NUMBER: _ClassVar[int]
    GRIDIRON_FIELD_NUMBER: _ClassVar[int]
    dice_rolled: DiceRolled
    soccer_chess: _soccer_chess_pb2.SoccerChessEvent
    chessyball: _chessyball_pb2.ChessyballEvent
    kings_goal: _kings_goal_pb2.KingsGoalEvent
    xfutebol: _xfutebol_pb2.XfutebolEvent
    gridiron: _gridiron_pb2.GridironEvent
    def __init__(self, dice_rolled: _Optional[_Union[DiceRolled, _Mapping]] = ..., soccer_chess: _Optional[_Union[_soccer_chess_pb2.SoccerChessEvent, _Mapping]] = ..., chessyball: _Optional[_Union[_chessyball_pb2.ChessyballEvent, _Mapping]] = ..., kings_goal: _Optional[_Union[_kings_goal_pb2.KingsGoalEvent, _Mapping]] = ..., xfutebol: _Optional[_Union[_xfutebol_pb2.XfutebolEvent, _Mapping]] = ..., gridiron: _Optional[_Union[_gridiron_pb2.GridironEvent, _Mapping]] = ...) -> None: ...

class DiceRolled(_message.Message):
    __slots__ = ("purpose", "sides", "values", "seat")
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    SIDES_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    purpose: str
    sides: int
    values: _containers.RepeatedScalarFieldContainer[int]
    seat: str
    def __init__(self, purpose: _Optional[str] = ..., sides: _Optional[int] = ..., values: _Optional[_Iterable[int]] = ..., seat: _Optional[str] = ...) -> None: ...

class MatchEnded(_message.Message):
    __slots__ = ("result",)
    RESULT_FIELD_NUMBER: _ClassVar[int]
    result: _common_pb2.MatchResult
    def __init__(self, result: _Optional[_Union[_common_pb2.MatchResult, _Mapping]] = ...) -> None: ...
