from pitchmate.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SoccerChessPieceKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SOCCER_CHESS_PIECE_KIND_UNSPECIFIED: _ClassVar[SoccerChessPieceKind]
    SOCCER_CHESS_PIECE_KIND_KEEPER: _ClassVar[SoccerChessPieceKind]
    SOCCER_CHESS_PIECE_KIND_DEFENDER: _ClassVar[SoccerChessPieceKind]
    SOCCER_CHESS_PIECE_KIND_ROOK: _ClassVar[SoccerChessPieceKind]
    SOCCER_CHESS_PIECE_KIND_BISHOP: _ClassVar[SoccerChessPieceKind]
    SOCCER_CHESS_PIECE_KIND_ATTACKER: _ClassVar[SoccerChessPieceKind]
SOCCER_CHESS_PIECE_KIND_UNSPECIFIED: SoccerChessPieceKind
SOCCER_CHESS_PIECE_KIND_KEEPER: SoccerChessPieceKind
SOCCER_CHESS_PIECE_KIND_DEFENDER: SoccerChessPieceKind
SOCCER_CHESS_PIECE_KIND_ROOK: SoccerChessPieceKind
SOCCER_CHESS_PIECE_KIND_BISHOP: SoccerChessPieceKind
SOCCER_CHESS_PIECE_KIND_ATTACKER: SoccerChessPieceKind

class SoccerChessAction(_message.Message):
    __slots__ = ("place", "default_formation", "move", "kick", "end_set")
    PLACE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_FORMATION_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    KICK_FIELD_NUMBER: _ClassVar[int]
    END_SET_FIELD_NUMBER: _ClassVar[int]
    place: SoccerChessPlace
    default_formation: SoccerChessDefaultFormation
    move: SoccerChessMove
    kick: SoccerChessKick
    end_set: SoccerChessEndSet
    def __init__(self, place: _Optional[_Union[SoccerChessPlace, _Mapping]] = ..., default_formation: _Optional[_Union[SoccerChessDefaultFormation, _Mapping]] = ..., move: _Optional[_Union[SoccerChessMove, _Mapping]] = ..., kick: _Optional[_Union[SoccerChessKick, _Mapping]] = ..., end_set: _Optional[_Union[SoccerChessEndSet, _Mapping]] = ...) -> None: ...

class SoccerChessPlace(_message.Message):
    __slots__ = ("kind", "square")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    kind: SoccerChessPieceKind
    square: _common_pb2.Square
    def __init__(self, kind: _Optional[_Union[SoccerChessPieceKind, str]] = ..., square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ...) -> None: ...

class SoccerChessDefaultFormation(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SoccerChessMove(_message.Message):
    __slots__ = ("to",)
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    to: _common_pb2.Square
    def __init__(self, to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class SoccerChessKick(_message.Message):
    __slots__ = ("target",)
    FROM_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    target: _common_pb2.Square
    def __init__(self, target: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class SoccerChessEndSet(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SoccerChessEvent(_message.Message):
    __slots__ = ("piece_placed", "piece_moved", "ball_kicked", "goal_scored", "ball_reset", "set_ended", "game_ended", "second_game_started", "golden_goal_started")
    PIECE_PLACED_FIELD_NUMBER: _ClassVar[int]
    PIECE_MOVED_FIELD_NUMBER: _ClassVar[int]
    BALL_KICKED_FIELD_NUMBER: _ClassVar[int]
    GOAL_SCORED_FIELD_NUMBER: _ClassVar[int]
    BALL_RESET_FIELD_NUMBER: _ClassVar[int]
    SET_ENDED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    SECOND_GAME_STARTED_FIELD_NUMBER: _ClassVar[int]
    GOLDEN_GOAL_STARTED_FIELD_NUMBER: _ClassVar[int]
    piece_placed: SoccerChessPiecePlaced
    piece_moved: SoccerChessPieceMoved
    ball_kicked: SoccerChessBallKicked
    goal_scored: SoccerChessGoalScored
    ball_reset: SoccerChessBallReset
    set_ended: SoccerChessSetEnded
    game_ended: SoccerChessGameEnded
    second_game_started: SoccerChessSecondGameStarted
    golden_goal_started: SoccerChessGoldenGoalStarted
    def __init__(self, piece_placed: _Optional[_Union[SoccerChessPiecePlaced, _Mapping]] = ..., piece_moved: _Optional[_Union[SoccerChessPieceMoved, _Mapping]] = ..., ball_kicked: _Optional[_Union[SoccerChessBallKicked, _Mapping]] = ..., goal_scored: _Optional[_Union[SoccerChessGoalScored, _Mapping]] = ..., ball_reset: _Optional[_Union[SoccerChessBallReset, _Mapping]] = ..., set_ended: _Optional[_Union[SoccerChessSetEnded, _Mapping]] = ..., game_ended: _Optional[_Union[SoccerChessGameEnded, _Mapping]] = ..., second_game_started: _Optional[_Union[SoccerChessSecondGameStarted, _Mapping]] = ..., golden_goal_started: _Optional[_Union[SoccerChessGoldenGoalStarted, _Mapping]] = ...) -> None: ...

class SoccerChessPiecePlaced(_message.Message):
    __slots__ = ("piece_id", "kind", "square")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    kind: SoccerChessPieceKind
    square: _common_pb2.Square
    def __init__(self, piece_id: _Optional[int] = ..., kind: _Optional[_Union[SoccerChessPieceKind, str]] = ..., square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ...) -> None: ...

class SoccerChessPieceMoved(_message.Message):
    __slots__ = ("piece_id", "to")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    to: _common_pb2.Square
    def __init__(self, piece_id: _Optional[int] = ..., to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class SoccerChessBallKicked(_message.Message):
    __slots__ = ("piece_id", "ball_from", "ball_to")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    BALL_FROM_FIELD_NUMBER: _ClassVar[int]
    BALL_TO_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    ball_from: _common_pb2.Square
    ball_to: _common_pb2.Square
    def __init__(self, piece_id: _Optional[int] = ..., ball_from: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., ball_to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class SoccerChessGoalScored(_message.Message):
    __slots__ = ("seat", "game", "away_goal", "own_goal", "game_score")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    AWAY_GOAL_FIELD_NUMBER: _ClassVar[int]
    OWN_GOAL_FIELD_NUMBER: _ClassVar[int]
    GAME_SCORE_FIELD_NUMBER: _ClassVar[int]
    seat: str
    game: int
    away_goal: bool
    own_goal: bool
    game_score: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    def __init__(self, seat: _Optional[str] = ..., game: _Optional[int] = ..., away_goal: _Optional[bool] = ..., own_goal: _Optional[bool] = ..., game_score: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ...) -> None: ...

class SoccerChessBallReset(_message.Message):
    __slots__ = ("square",)
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    square: _common_pb2.Square
    def __init__(self, square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ...) -> None: ...

class SoccerChessSetEnded(_message.Message):
    __slots__ = ("seat", "set_number", "moves")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SET_NUMBER_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    seat: str
    set_number: int
    moves: int
    def __init__(self, seat: _Optional[str] = ..., set_number: _Optional[int] = ..., moves: _Optional[int] = ...) -> None: ...

class SoccerChessGameEnded(_message.Message):
    __slots__ = ("game", "game_score")
    GAME_FIELD_NUMBER: _ClassVar[int]
    GAME_SCORE_FIELD_NUMBER: _ClassVar[int]
    game: int
    game_score: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    def __init__(self, game: _Optional[int] = ..., game_score: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ...) -> None: ...

class SoccerChessSecondGameStarted(_message.Message):
    __slots__ = ("visitor",)
    VISITOR_FIELD_NUMBER: _ClassVar[int]
    visitor: str
    def __init__(self, visitor: _Optional[str] = ...) -> None: ...

class SoccerChessGoldenGoalStarted(_message.Message):
    __slots__ = ("aggregate",)
    AGGREGATE_FIELD_NUMBER: _ClassVar[int]
    aggregate: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    def __init__(self, aggregate: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ...) -> None: ...

class SoccerChessDetails(_message.Message):
    __slots__ = ("game", "visitor", "set_number", "sets_per_game", "moved_piece_ids", "game1_score", "game2_score", "away_goals", "golden_goal", "unplaced")
    GAME_FIELD_NUMBER: _ClassVar[int]
    VISITOR_FIELD_NUMBER: _ClassVar[int]
    SET_NUMBER_FIELD_NUMBER: _ClassVar[int]
    SETS_PER_GAME_FIELD_NUMBER: _ClassVar[int]
    MOVED_PIECE_IDS_FIELD_NUMBER: _ClassVar[int]
    GAME1_SCORE_FIELD_NUMBER: _ClassVar[int]
    GAME2_SCORE_FIELD_NUMBER: _ClassVar[int]
    AWAY_GOALS_FIELD_NUMBER: _ClassVar[int]
    GOLDEN_GOAL_FIELD_NUMBER: _ClassVar[int]
    UNPLACED_FIELD_NUMBER: _ClassVar[int]
    game: int
    visitor: str
    set_number: int
    sets_per_game: int
    moved_piece_ids: _containers.RepeatedScalarFieldContainer[int]
    game1_score: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    game2_score: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    away_goals: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    golden_goal: bool
    unplaced: _containers.RepeatedScalarFieldContainer[SoccerChessPieceKind]
    def __init__(self, game: _Optional[int] = ..., visitor: _Optional[str] = ..., set_number: _Optional[int] = ..., sets_per_game: _Optional[int] = ..., moved_piece_ids: _Optional[_Iterable[int]] = ..., game1_score: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ..., game2_score: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ..., away_goals: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ..., golden_goal: _Optional[bool] = ..., unplaced: _Optional[_Iterable[_Union[SoccerChessPieceKind, str]]] = ...) -> None: ...
