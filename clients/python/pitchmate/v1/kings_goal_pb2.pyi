from pitchmate.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class KingsGoalPieceKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KINGS_GOAL_PIECE_KIND_UNSPECIFIED: _ClassVar[KingsGoalPieceKind]
    KINGS_GOAL_PIECE_KIND_KING: _ClassVar[KingsGoalPieceKind]
    KINGS_GOAL_PIECE_KIND_QUEEN: _ClassVar[KingsGoalPieceKind]
    KINGS_GOAL_PIECE_KIND_ROOK: _ClassVar[KingsGoalPieceKind]
    KINGS_GOAL_PIECE_KIND_BISHOP: _ClassVar[KingsGoalPieceKind]
    KINGS_GOAL_PIECE_KIND_KNIGHT: _ClassVar[KingsGoalPieceKind]
    KINGS_GOAL_PIECE_KIND_PAWN: _ClassVar[KingsGoalPieceKind]

class KingsGoalPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KINGS_GOAL_PHASE_UNSPECIFIED: _ClassVar[KingsGoalPhase]
    KINGS_GOAL_PHASE_CHOICE: _ClassVar[KingsGoalPhase]
    KINGS_GOAL_PHASE_PLACEMENT: _ClassVar[KingsGoalPhase]
    KINGS_GOAL_PHASE_PLAY: _ClassVar[KingsGoalPhase]
    KINGS_GOAL_PHASE_OVER: _ClassVar[KingsGoalPhase]

class KingsGoalGoalKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KINGS_GOAL_GOAL_KIND_UNSPECIFIED: _ClassVar[KingsGoalGoalKind]
    KINGS_GOAL_GOAL_KIND_CARRIED: _ClassVar[KingsGoalGoalKind]
    KINGS_GOAL_GOAL_KIND_PASSED: _ClassVar[KingsGoalGoalKind]
    KINGS_GOAL_GOAL_KIND_KING_CAPTURED: _ClassVar[KingsGoalGoalKind]
    KINGS_GOAL_GOAL_KIND_CAPTURED_ON_GOAL_LINE: _ClassVar[KingsGoalGoalKind]

class KingsGoalRestartReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    KINGS_GOAL_RESTART_REASON_UNSPECIFIED: _ClassVar[KingsGoalRestartReason]
    KINGS_GOAL_RESTART_REASON_GOAL: _ClassVar[KingsGoalRestartReason]
    KINGS_GOAL_RESTART_REASON_KING_VERSUS_KING: _ClassVar[KingsGoalRestartReason]
    KINGS_GOAL_RESTART_REASON_HALF_TIME: _ClassVar[KingsGoalRestartReason]
KINGS_GOAL_PIECE_KIND_UNSPECIFIED: KingsGoalPieceKind
KINGS_GOAL_PIECE_KIND_KING: KingsGoalPieceKind
KINGS_GOAL_PIECE_KIND_QUEEN: KingsGoalPieceKind
KINGS_GOAL_PIECE_KIND_ROOK: KingsGoalPieceKind
KINGS_GOAL_PIECE_KIND_BISHOP: KingsGoalPieceKind
KINGS_GOAL_PIECE_KIND_KNIGHT: KingsGoalPieceKind
KINGS_GOAL_PIECE_KIND_PAWN: KingsGoalPieceKind
KINGS_GOAL_PHASE_UNSPECIFIED: KingsGoalPhase
KINGS_GOAL_PHASE_CHOICE: KingsGoalPhase
KINGS_GOAL_PHASE_PLACEMENT: KingsGoalPhase
KINGS_GOAL_PHASE_PLAY: KingsGoalPhase
KINGS_GOAL_PHASE_OVER: KingsGoalPhase
KINGS_GOAL_GOAL_KIND_UNSPECIFIED: KingsGoalGoalKind
KINGS_GOAL_GOAL_KIND_CARRIED: KingsGoalGoalKind
KINGS_GOAL_GOAL_KIND_PASSED: KingsGoalGoalKind
KINGS_GOAL_GOAL_KIND_KING_CAPTURED: KingsGoalGoalKind
KINGS_GOAL_GOAL_KIND_CAPTURED_ON_GOAL_LINE: KingsGoalGoalKind
KINGS_GOAL_RESTART_REASON_UNSPECIFIED: KingsGoalRestartReason
KINGS_GOAL_RESTART_REASON_GOAL: KingsGoalRestartReason
KINGS_GOAL_RESTART_REASON_KING_VERSUS_KING: KingsGoalRestartReason
KINGS_GOAL_RESTART_REASON_HALF_TIME: KingsGoalRestartReason

class KingsGoalAction(_message.Message):
    __slots__ = ("choose", "default_choice", "place", "default_placement", "move", "capture", "wait")
    CHOOSE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_CHOICE_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_PLACEMENT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    CAPTURE_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    WAIT_FIELD_NUMBER: _ClassVar[int]
    choose: KingsGoalChoose
    default_choice: KingsGoalDefaultChoice
    place: KingsGoalPlace
    default_placement: KingsGoalDefaultPlacement
    move: KingsGoalMove
    capture: KingsGoalCapture
    wait: KingsGoalWait
    def __init__(self, choose: _Optional[_Union[KingsGoalChoose, _Mapping]] = ..., default_choice: _Optional[_Union[KingsGoalDefaultChoice, _Mapping]] = ..., place: _Optional[_Union[KingsGoalPlace, _Mapping]] = ..., default_placement: _Optional[_Union[KingsGoalDefaultPlacement, _Mapping]] = ..., move: _Optional[_Union[KingsGoalMove, _Mapping]] = ..., capture: _Optional[_Union[KingsGoalCapture, _Mapping]] = ..., wait: _Optional[_Union[KingsGoalWait, _Mapping]] = ..., **kwargs) -> None: ...

class KingsGoalChoose(_message.Message):
    __slots__ = ("kind",)
    KIND_FIELD_NUMBER: _ClassVar[int]
    kind: KingsGoalPieceKind
    def __init__(self, kind: _Optional[_Union[KingsGoalPieceKind, str]] = ...) -> None: ...

class KingsGoalDefaultChoice(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class KingsGoalPlace(_message.Message):
    __slots__ = ("kind", "square")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    kind: KingsGoalPieceKind
    square: _common_pb2.Square
    def __init__(self, kind: _Optional[_Union[KingsGoalPieceKind, str]] = ..., square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ...) -> None: ...

class KingsGoalDefaultPlacement(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class KingsGoalMove(_message.Message):
    __slots__ = ("to", "promotion")
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    PROMOTION_FIELD_NUMBER: _ClassVar[int]
    to: _common_pb2.Square
    promotion: KingsGoalPieceKind
    def __init__(self, to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., promotion: _Optional[_Union[KingsGoalPieceKind, str]] = ..., **kwargs) -> None: ...

class KingsGoalCapture(_message.Message):
    __slots__ = ("to", "promotion")
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    PROMOTION_FIELD_NUMBER: _ClassVar[int]
    to: _common_pb2.Square
    promotion: KingsGoalPieceKind
    def __init__(self, to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., promotion: _Optional[_Union[KingsGoalPieceKind, str]] = ..., **kwargs) -> None: ...

class KingsGoalPass(_message.Message):
    __slots__ = ("to",)
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    to: _common_pb2.Square
    def __init__(self, to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class KingsGoalWait(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class KingsGoalEvent(_message.Message):
    __slots__ = ("pieces_chosen", "piece_placed", "kick_off", "piece_moved", "ball_passed", "carrier_captured", "pawn_promoted", "move_waived", "goal_scored", "half_ended", "restarted", "game_ended")
    PIECES_CHOSEN_FIELD_NUMBER: _ClassVar[int]
    PIECE_PLACED_FIELD_NUMBER: _ClassVar[int]
    KICK_OFF_FIELD_NUMBER: _ClassVar[int]
    PIECE_MOVED_FIELD_NUMBER: _ClassVar[int]
    BALL_PASSED_FIELD_NUMBER: _ClassVar[int]
    CARRIER_CAPTURED_FIELD_NUMBER: _ClassVar[int]
    PAWN_PROMOTED_FIELD_NUMBER: _ClassVar[int]
    MOVE_WAIVED_FIELD_NUMBER: _ClassVar[int]
    GOAL_SCORED_FIELD_NUMBER: _ClassVar[int]
    HALF_ENDED_FIELD_NUMBER: _ClassVar[int]
    RESTARTED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    pieces_chosen: KingsGoalPiecesChosen
    piece_placed: KingsGoalPiecePlaced
    kick_off: KingsGoalKickOff
    piece_moved: KingsGoalPieceMoved
    ball_passed: KingsGoalBallPassed
    carrier_captured: KingsGoalCarrierCaptured
    pawn_promoted: KingsGoalPawnPromoted
    move_waived: KingsGoalMoveWaived
    goal_scored: KingsGoalGoalScored
    half_ended: KingsGoalHalfEnded
    restarted: KingsGoalRestarted
    game_ended: KingsGoalGameEnded
    def __init__(self, pieces_chosen: _Optional[_Union[KingsGoalPiecesChosen, _Mapping]] = ..., piece_placed: _Optional[_Union[KingsGoalPiecePlaced, _Mapping]] = ..., kick_off: _Optional[_Union[KingsGoalKickOff, _Mapping]] = ..., piece_moved: _Optional[_Union[KingsGoalPieceMoved, _Mapping]] = ..., ball_passed: _Optional[_Union[KingsGoalBallPassed, _Mapping]] = ..., carrier_captured: _Optional[_Union[KingsGoalCarrierCaptured, _Mapping]] = ..., pawn_promoted: _Optional[_Union[KingsGoalPawnPromoted, _Mapping]] = ..., move_waived: _Optional[_Union[KingsGoalMoveWaived, _Mapping]] = ..., goal_scored: _Optional[_Union[KingsGoalGoalScored, _Mapping]] = ..., half_ended: _Optional[_Union[KingsGoalHalfEnded, _Mapping]] = ..., restarted: _Optional[_Union[KingsGoalRestarted, _Mapping]] = ..., game_ended: _Optional[_Union[KingsGoalGameEnded, _Mapping]] = ...) -> None: ...

class KingsGoalPiecesChosen(_message.Message):
    __slots__ = ("seat", "kinds")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    seat: str
    kinds: _containers.RepeatedScalarFieldContainer[KingsGoalPieceKind]
    def __init__(self, seat: _Optional[str] = ..., kinds: _Optional[_Iterable[_Union[KingsGoalPieceKind, str]]] = ...) -> None: ...

class KingsGoalPiecePlaced(_message.Message):
    __slots__ = ("seat", "piece_id", "kind", "square")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    seat: str
    piece_id: int
    kind: KingsGoalPieceKind
    square: _common_pb2.Square
    def __init__(self, seat: _Optional[str] = ..., piece_id: _Optional[int] = ..., kind: _Optional[_Union[KingsGoalPieceKind, str]] = ..., square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ...) -> None: ...

class KingsGoalKickOff(_message.Message):
    __slots__ = ("seat", "piece_id", "square")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    seat: str
    piece_id: int
    square: _common_pb2.Square
    def __init__(self, seat: _Optional[str] = ..., piece_id: _Optional[int] = ..., square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ...) -> None: ...

class KingsGoalPieceMoved(_message.Message):
    __slots__ = ("piece_id", "to", "with_ball")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    WITH_BALL_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    to: _common_pb2.Square
    with_ball: bool
    def __init__(self, piece_id: _Optional[int] = ..., to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., with_ball: _Optional[bool] = ..., **kwargs) -> None: ...

class KingsGoalBallPassed(_message.Message):
    __slots__ = ("from_piece_id", "to_piece_id", "to")
    FROM_PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    TO_PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    from_piece_id: int
    to_piece_id: int
    to: _common_pb2.Square
    def __init__(self, from_piece_id: _Optional[int] = ..., to_piece_id: _Optional[int] = ..., to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class KingsGoalCarrierCaptured(_message.Message):
    __slots__ = ("captor_id", "captured_id", "captured_kind", "square")
    CAPTOR_ID_FIELD_NUMBER: _ClassVar[int]
    CAPTURED_ID_FIELD_NUMBER: _ClassVar[int]
    CAPTURED_KIND_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    captor_id: int
    captured_id: int
    captured_kind: KingsGoalPieceKind
    square: _common_pb2.Square
    def __init__(self, captor_id: _Optional[int] = ..., captured_id: _Optional[int] = ..., captured_kind: _Optional[_Union[KingsGoalPieceKind, str]] = ..., square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class KingsGoalPawnPromoted(_message.Message):
    __slots__ = ("piece_id", "square", "kind")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    square: _common_pb2.Square
    kind: KingsGoalPieceKind
    def __init__(self, piece_id: _Optional[int] = ..., square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., kind: _Optional[_Union[KingsGoalPieceKind, str]] = ...) -> None: ...

class KingsGoalMoveWaived(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: str
    def __init__(self, seat: _Optional[str] = ...) -> None: ...

class KingsGoalGoalScored(_message.Message):
    __slots__ = ("seat", "how", "scores")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HOW_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    seat: str
    how: KingsGoalGoalKind
    scores: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    def __init__(self, seat: _Optional[str] = ..., how: _Optional[_Union[KingsGoalGoalKind, str]] = ..., scores: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ...) -> None: ...

class KingsGoalHalfEnded(_message.Message):
    __slots__ = ("half", "scores")
    HALF_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    half: int
    scores: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    def __init__(self, half: _Optional[int] = ..., scores: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ...) -> None: ...

class KingsGoalRestarted(_message.Message):
    __slots__ = ("reason", "kicking_seat", "half")
    REASON_FIELD_NUMBER: _ClassVar[int]
    KICKING_SEAT_FIELD_NUMBER: _ClassVar[int]
    HALF_FIELD_NUMBER: _ClassVar[int]
    reason: KingsGoalRestartReason
    kicking_seat: str
    half: int
    def __init__(self, reason: _Optional[_Union[KingsGoalRestartReason, str]] = ..., kicking_seat: _Optional[str] = ..., half: _Optional[int] = ...) -> None: ...

class KingsGoalGameEnded(_message.Message):
    __slots__ = ("winner", "scores")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    winner: str
    scores: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    def __init__(self, winner: _Optional[str] = ..., scores: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ...) -> None: ...

class KingsGoalHand(_message.Message):
    __slots__ = ("seat", "kinds")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    seat: str
    kinds: _containers.RepeatedScalarFieldContainer[KingsGoalPieceKind]
    def __init__(self, seat: _Optional[str] = ..., kinds: _Optional[_Iterable[_Union[KingsGoalPieceKind, str]]] = ...) -> None: ...

class KingsGoalDetails(_message.Message):
    __slots__ = ("phase", "half", "plies_played", "plies_per_half", "kicking_seat", "kickoff_pending", "scores", "chosen", "unplaced")
    PHASE_FIELD_NUMBER: _ClassVar[int]
    HALF_FIELD_NUMBER: _ClassVar[int]
    PLIES_PLAYED_FIELD_NUMBER: _ClassVar[int]
    PLIES_PER_HALF_FIELD_NUMBER: _ClassVar[int]
    KICKING_SEAT_FIELD_NUMBER: _ClassVar[int]
    KICKOFF_PENDING_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    CHOSEN_FIELD_NUMBER: _ClassVar[int]
    UNPLACED_FIELD_NUMBER: _ClassVar[int]
    phase: KingsGoalPhase
    half: int
    plies_played: int
    plies_per_half: int
    kicking_seat: str
    kickoff_pending: bool
    scores: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    chosen: _containers.RepeatedCompositeFieldContainer[KingsGoalHand]
    unplaced: _containers.RepeatedCompositeFieldContainer[KingsGoalHand]
    def __init__(self, phase: _Optional[_Union[KingsGoalPhase, str]] = ..., half: _Optional[int] = ..., plies_played: _Optional[int] = ..., plies_per_half: _Optional[int] = ..., kicking_seat: _Optional[str] = ..., kickoff_pending: _Optional[bool] = ..., scores: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ..., chosen: _Optional[_Iterable[_Union[KingsGoalHand, _Mapping]]] = ..., unplaced: _Optional[_Iterable[_Union[KingsGoalHand, _Mapping]]] = ...) -> None: ...
