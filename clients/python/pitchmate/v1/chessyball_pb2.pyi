from pitchmate.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ChessyballBallPlacement(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHESSYBALL_BALL_PLACEMENT_UNSPECIFIED: _ClassVar[ChessyballBallPlacement]
    CHESSYBALL_BALL_PLACEMENT_CENTRE: _ClassVar[ChessyballBallPlacement]
    CHESSYBALL_BALL_PLACEMENT_RANDOM: _ClassVar[ChessyballBallPlacement]
    CHESSYBALL_BALL_PLACEMENT_BY_DEFENDER: _ClassVar[ChessyballBallPlacement]
    CHESSYBALL_BALL_PLACEMENT_NEAREST_FREE: _ClassVar[ChessyballBallPlacement]

class ChessyballTurnEndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHESSYBALL_TURN_END_REASON_UNSPECIFIED: _ClassVar[ChessyballTurnEndReason]
    CHESSYBALL_TURN_END_REASON_ACTIONS_USED: _ClassVar[ChessyballTurnEndReason]
    CHESSYBALL_TURN_END_REASON_ENDED_EARLY: _ClassVar[ChessyballTurnEndReason]
    CHESSYBALL_TURN_END_REASON_GOAL: _ClassVar[ChessyballTurnEndReason]
    CHESSYBALL_TURN_END_REASON_NO_LEGAL_ACTION: _ClassVar[ChessyballTurnEndReason]
    CHESSYBALL_TURN_END_REASON_EXTENSION_LIMIT: _ClassVar[ChessyballTurnEndReason]

class ChessyballMatchEndReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHESSYBALL_MATCH_END_REASON_UNSPECIFIED: _ClassVar[ChessyballMatchEndReason]
    CHESSYBALL_MATCH_END_REASON_GOAL_TARGET: _ClassVar[ChessyballMatchEndReason]
    CHESSYBALL_MATCH_END_REASON_TOTAL_GOALS: _ClassVar[ChessyballMatchEndReason]
    CHESSYBALL_MATCH_END_REASON_TURN_LIMIT: _ClassVar[ChessyballMatchEndReason]
    CHESSYBALL_MATCH_END_REASON_SHOOTOUT: _ClassVar[ChessyballMatchEndReason]
    CHESSYBALL_MATCH_END_REASON_SHOOTOUT_COIN: _ClassVar[ChessyballMatchEndReason]
CHESSYBALL_BALL_PLACEMENT_UNSPECIFIED: ChessyballBallPlacement
CHESSYBALL_BALL_PLACEMENT_CENTRE: ChessyballBallPlacement
CHESSYBALL_BALL_PLACEMENT_RANDOM: ChessyballBallPlacement
CHESSYBALL_BALL_PLACEMENT_BY_DEFENDER: ChessyballBallPlacement
CHESSYBALL_BALL_PLACEMENT_NEAREST_FREE: ChessyballBallPlacement
CHESSYBALL_TURN_END_REASON_UNSPECIFIED: ChessyballTurnEndReason
CHESSYBALL_TURN_END_REASON_ACTIONS_USED: ChessyballTurnEndReason
CHESSYBALL_TURN_END_REASON_ENDED_EARLY: ChessyballTurnEndReason
CHESSYBALL_TURN_END_REASON_GOAL: ChessyballTurnEndReason
CHESSYBALL_TURN_END_REASON_NO_LEGAL_ACTION: ChessyballTurnEndReason
CHESSYBALL_TURN_END_REASON_EXTENSION_LIMIT: ChessyballTurnEndReason
CHESSYBALL_MATCH_END_REASON_UNSPECIFIED: ChessyballMatchEndReason
CHESSYBALL_MATCH_END_REASON_GOAL_TARGET: ChessyballMatchEndReason
CHESSYBALL_MATCH_END_REASON_TOTAL_GOALS: ChessyballMatchEndReason
CHESSYBALL_MATCH_END_REASON_TURN_LIMIT: ChessyballMatchEndReason
CHESSYBALL_MATCH_END_REASON_SHOOTOUT: ChessyballMatchEndReason
CHESSYBALL_MATCH_END_REASON_SHOOTOUT_COIN: ChessyballMatchEndReason

class ChessyballAction(_message.Message):
    __slots__ = ("move", "place_ball", "end_turn", "shoot")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    PLACE_BALL_FIELD_NUMBER: _ClassVar[int]
    END_TURN_FIELD_NUMBER: _ClassVar[int]
    SHOOT_FIELD_NUMBER: _ClassVar[int]
    move: ChessyballMove
    place_ball: ChessyballPlaceBall
    end_turn: ChessyballEndTurn
    shoot: ChessyballShoot
    def __init__(self, move: _Optional[_Union[ChessyballMove, _Mapping]] = ..., place_ball: _Optional[_Union[ChessyballPlaceBall, _Mapping]] = ..., end_turn: _Optional[_Union[ChessyballEndTurn, _Mapping]] = ..., shoot: _Optional[_Union[ChessyballShoot, _Mapping]] = ...) -> None: ...

class ChessyballMove(_message.Message):
    __slots__ = ("to",)
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    to: _common_pb2.Square
    def __init__(self, to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class ChessyballPlaceBall(_message.Message):
    __slots__ = ("square",)
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    square: _common_pb2.Square
    def __init__(self, square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ...) -> None: ...

class ChessyballEndTurn(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ChessyballShoot(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ChessyballEvent(_message.Message):
    __slots__ = ("starting_seat_chosen", "ball_placed", "turn_started", "piece_moved", "ball_kicked", "goal_scored", "pieces_reset", "extension_started", "turn_ended", "shootout_started", "penalty_taken", "shootout_coin_flipped", "match_ended")
    STARTING_SEAT_CHOSEN_FIELD_NUMBER: _ClassVar[int]
    BALL_PLACED_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    PIECE_MOVED_FIELD_NUMBER: _ClassVar[int]
    BALL_KICKED_FIELD_NUMBER: _ClassVar[int]
    GOAL_SCORED_FIELD_NUMBER: _ClassVar[int]
    PIECES_RESET_FIELD_NUMBER: _ClassVar[int]
    EXTENSION_STARTED_FIELD_NUMBER: _ClassVar[int]
    TURN_ENDED_FIELD_NUMBER: _ClassVar[int]
    SHOOTOUT_STARTED_FIELD_NUMBER: _ClassVar[int]
    PENALTY_TAKEN_FIELD_NUMBER: _ClassVar[int]
    SHOOTOUT_COIN_FLIPPED_FIELD_NUMBER: _ClassVar[int]
    MATCH_ENDED_FIELD_NUMBER: _ClassVar[int]
    starting_seat_chosen: ChessyballStartingSeatChosen
    ball_placed: ChessyballBallPlaced
    turn_started: ChessyballTurnStarted
    piece_moved: ChessyballPieceMoved
    ball_kicked: ChessyballBallKicked
    goal_scored: ChessyballGoalScored
    pieces_reset: ChessyballPiecesReset
    extension_started: ChessyballExtensionStarted
    turn_ended: ChessyballTurnEnded
    shootout_started: ChessyballShootoutStarted
    penalty_taken: ChessyballPenaltyTaken
    shootout_coin_flipped: ChessyballShootoutCoinFlipped
    match_ended: ChessyballMatchEnded
    def __init__(self, starting_seat_chosen: _Optional[_Union[ChessyballStartingSeatChosen, _Mapping]] = ..., ball_placed: _Optional[_Union[ChessyballBallPlaced, _Mapping]] = ..., turn_started: _Optional[_Union[ChessyballTurnStarted, _Mapping]] = ..., piece_moved: _Optional[_Union[ChessyballPieceMoved, _Mapping]] = ..., ball_kicked: _Optional[_Union[ChessyballBallKicked, _Mapping]] = ..., goal_scored: _Optional[_Union[ChessyballGoalScored, _Mapping]] = ..., pieces_reset: _Optional[_Union[ChessyballPiecesReset, _Mapping]] = ..., extension_started: _Optional[_Union[ChessyballExtensionStarted, _Mapping]] = ..., turn_ended: _Optional[_Union[ChessyballTurnEnded, _Mapping]] = ..., shootout_started: _Optional[_Union[ChessyballShootoutStarted, _Mapping]] = ..., penalty_taken: _Optional[_Union[ChessyballPenaltyTaken, _Mapping]] = ..., shootout_coin_flipped: _Optional[_Union[ChessyballShootoutCoinFlipped, _Mapping]] = ..., match_ended: _Optional[_Union[ChessyballMatchEnded, _Mapping]] = ...) -> None: ...

class ChessyballStartingSeatChosen(_message.Message):
    __slots__ = ("seat", "by_coin")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BY_COIN_FIELD_NUMBER: _ClassVar[int]
    seat: str
    by_coin: bool
    def __init__(self, seat: _Optional[str] = ..., by_coin: _Optional[bool] = ...) -> None: ...

class ChessyballBallPlaced(_message.Message):
    __slots__ = ("square", "placement")
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    PLACEMENT_FIELD_NUMBER: _ClassVar[int]
    square: _common_pb2.Square
    placement: ChessyballBallPlacement
    def __init__(self, square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., placement: _Optional[_Union[ChessyballBallPlacement, str]] = ...) -> None: ...

class ChessyballTurnStarted(_message.Message):
    __slots__ = ("seat", "number", "actions")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    seat: str
    number: int
    actions: int
    def __init__(self, seat: _Optional[str] = ..., number: _Optional[int] = ..., actions: _Optional[int] = ...) -> None: ...

class ChessyballPieceMoved(_message.Message):
    __slots__ = ("piece_id", "to")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    to: _common_pb2.Square
    def __init__(self, piece_id: _Optional[int] = ..., to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class ChessyballBallKicked(_message.Message):
    __slots__ = ("piece_id", "to")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    to: _common_pb2.Square
    def __init__(self, piece_id: _Optional[int] = ..., to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class ChessyballGoalScored(_message.Message):
    __slots__ = ("seat", "own_goal", "square", "score")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OWN_GOAL_FIELD_NUMBER: _ClassVar[int]
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    seat: str
    own_goal: bool
    square: _common_pb2.Square
    score: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    def __init__(self, seat: _Optional[str] = ..., own_goal: _Optional[bool] = ..., square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., score: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ...) -> None: ...

class ChessyballPiecesReset(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ChessyballExtensionStarted(_message.Message):
    __slots__ = ("seat", "limit")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    seat: str
    limit: int
    def __init__(self, seat: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class ChessyballTurnEnded(_message.Message):
    __slots__ = ("seat", "actions", "reason")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    seat: str
    actions: int
    reason: ChessyballTurnEndReason
    def __init__(self, seat: _Optional[str] = ..., actions: _Optional[int] = ..., reason: _Optional[_Union[ChessyballTurnEndReason, str]] = ...) -> None: ...

class ChessyballShootoutStarted(_message.Message):
    __slots__ = ("first",)
    FIRST_FIELD_NUMBER: _ClassVar[int]
    first: str
    def __init__(self, first: _Optional[str] = ...) -> None: ...

class ChessyballPenaltyTaken(_message.Message):
    __slots__ = ("seat", "round", "roll", "scored", "tally")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ROLL_FIELD_NUMBER: _ClassVar[int]
    SCORED_FIELD_NUMBER: _ClassVar[int]
    TALLY_FIELD_NUMBER: _ClassVar[int]
    seat: str
    round: int
    roll: int
    scored: bool
    tally: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    def __init__(self, seat: _Optional[str] = ..., round: _Optional[int] = ..., roll: _Optional[int] = ..., scored: _Optional[bool] = ..., tally: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ...) -> None: ...

class ChessyballShootoutCoinFlipped(_message.Message):
    __slots__ = ("winner",)
    WINNER_FIELD_NUMBER: _ClassVar[int]
    winner: str
    def __init__(self, winner: _Optional[str] = ...) -> None: ...

class ChessyballMatchEnded(_message.Message):
    __slots__ = ("winner", "score", "reason")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    winner: str
    score: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    reason: ChessyballMatchEndReason
    def __init__(self, winner: _Optional[str] = ..., score: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ..., reason: _Optional[_Union[ChessyballMatchEndReason, str]] = ...) -> None: ...

class ChessyballPenaltyKicks(_message.Message):
    __slots__ = ("seat", "scored")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SCORED_FIELD_NUMBER: _ClassVar[int]
    seat: str
    scored: _containers.RepeatedScalarFieldContainer[bool]
    def __init__(self, seat: _Optional[str] = ..., scored: _Optional[_Iterable[bool]] = ...) -> None: ...

class ChessyballDetails(_message.Message):
    __slots__ = ("score", "turn_number", "max_turns", "first_to", "total_goals", "starting_seat", "actions_allowed", "actions_taken", "ball_moved_every_action", "extension_actions", "extension_limit", "shootout", "shootout_first", "penalty_kicks")
    SCORE_FIELD_NUMBER: _ClassVar[int]
    TURN_NUMBER_FIELD_NUMBER: _ClassVar[int]
    MAX_TURNS_FIELD_NUMBER: _ClassVar[int]
    FIRST_TO_FIELD_NUMBER: _ClassVar[int]
    TOTAL_GOALS_FIELD_NUMBER: _ClassVar[int]
    STARTING_SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    ACTIONS_TAKEN_FIELD_NUMBER: _ClassVar[int]
    BALL_MOVED_EVERY_ACTION_FIELD_NUMBER: _ClassVar[int]
    EXTENSION_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    EXTENSION_LIMIT_FIELD_NUMBER: _ClassVar[int]
    SHOOTOUT_FIELD_NUMBER: _ClassVar[int]
    SHOOTOUT_FIRST_FIELD_NUMBER: _ClassVar[int]
    PENALTY_KICKS_FIELD_NUMBER: _ClassVar[int]
    score: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    turn_number: int
    max_turns: int
    first_to: int
    total_goals: int
    starting_seat: str
    actions_allowed: int
    actions_taken: int
    ball_moved_every_action: bool
    extension_actions: int
    extension_limit: int
    shootout: bool
    shootout_first: str
    penalty_kicks: _containers.RepeatedCompositeFieldContainer[ChessyballPenaltyKicks]
    def __init__(self, score: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ..., turn_number: _Optional[int] = ..., max_turns: _Optional[int] = ..., first_to: _Optional[int] = ..., total_goals: _Optional[int] = ..., starting_seat: _Optional[str] = ..., actions_allowed: _Optional[int] = ..., actions_taken: _Optional[int] = ..., ball_moved_every_action: _Optional[bool] = ..., extension_actions: _Optional[int] = ..., extension_limit: _Optional[int] = ..., shootout: _Optional[bool] = ..., shootout_first: _Optional[str] = ..., penalty_kicks: _Optional[_Iterable[_Union[ChessyballPenaltyKicks, _Mapping]]] = ...) -> None: ...
