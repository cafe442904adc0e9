from pitchmate.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GridironPieceKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GRIDIRON_PIECE_KIND_UNSPECIFIED: _ClassVar[GridironPieceKind]
    GRIDIRON_PIECE_KIND_HEAVY: _ClassVar[GridironPieceKind]
    GRIDIRON_PIECE_KIND_STRONG: _ClassVar[GridironPieceKind]
    GRIDIRON_PIECE_KIND_FAST: _ClassVar[GridironPieceKind]
    GRIDIRON_PIECE_KIND_QB: _ClassVar[GridironPieceKind]
    GRIDIRON_PIECE_KIND_SAFETY: _ClassVar[GridironPieceKind]
    GRIDIRON_PIECE_KIND_NICKELBACK: _ClassVar[GridironPieceKind]
    GRIDIRON_PIECE_KIND_RUSHER: _ClassVar[GridironPieceKind]
    GRIDIRON_PIECE_KIND_SCRAMBLER: _ClassVar[GridironPieceKind]
    GRIDIRON_PIECE_KIND_DEEP_THREAT: _ClassVar[GridironPieceKind]
    GRIDIRON_PIECE_KIND_LEAD_BLOCKER: _ClassVar[GridironPieceKind]
    GRIDIRON_PIECE_KIND_LINEMAN: _ClassVar[GridironPieceKind]

class GridironSpot(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GRIDIRON_SPOT_UNSPECIFIED: _ClassVar[GridironSpot]
    GRIDIRON_SPOT_NW: _ClassVar[GridironSpot]
    GRIDIRON_SPOT_NE: _ClassVar[GridironSpot]
    GRIDIRON_SPOT_C: _ClassVar[GridironSpot]
    GRIDIRON_SPOT_SW: _ClassVar[GridironSpot]
    GRIDIRON_SPOT_SE: _ClassVar[GridironSpot]

class GridironAbility(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GRIDIRON_ABILITY_UNSPECIFIED: _ClassVar[GridironAbility]
    GRIDIRON_ABILITY_PUSH: _ClassVar[GridironAbility]
    GRIDIRON_ABILITY_CHOP_BLOCK: _ClassVar[GridironAbility]
    GRIDIRON_ABILITY_CHIP_BLOCK: _ClassVar[GridironAbility]
    GRIDIRON_ABILITY_RETREAT: _ClassVar[GridironAbility]
    GRIDIRON_ABILITY_ENGAGE: _ClassVar[GridironAbility]
    GRIDIRON_ABILITY_SPEED_RUSH: _ClassVar[GridironAbility]
    GRIDIRON_ABILITY_REACT: _ClassVar[GridironAbility]
    GRIDIRON_ABILITY_JAM: _ClassVar[GridironAbility]
    GRIDIRON_ABILITY_SEAL: _ClassVar[GridironAbility]
    GRIDIRON_ABILITY_JUKE: _ClassVar[GridironAbility]
    GRIDIRON_ABILITY_ROUTE_RUNNING: _ClassVar[GridironAbility]
    GRIDIRON_ABILITY_IMPACT: _ClassVar[GridironAbility]
    GRIDIRON_ABILITY_ANCHOR: _ClassVar[GridironAbility]

class GridironDicePurpose(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GRIDIRON_DICE_PURPOSE_UNSPECIFIED: _ClassVar[GridironDicePurpose]
    GRIDIRON_DICE_PURPOSE_COLLISION: _ClassVar[GridironDicePurpose]
    GRIDIRON_DICE_PURPOSE_PASS: _ClassVar[GridironDicePurpose]

class GridironDownResult(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GRIDIRON_DOWN_RESULT_UNSPECIFIED: _ClassVar[GridironDownResult]
    GRIDIRON_DOWN_RESULT_TACKLE: _ClassVar[GridironDownResult]
    GRIDIRON_DOWN_RESULT_SACK: _ClassVar[GridironDownResult]
    GRIDIRON_DOWN_RESULT_TURN_LIMIT: _ClassVar[GridironDownResult]
    GRIDIRON_DOWN_RESULT_INCOMPLETE: _ClassVar[GridironDownResult]
    GRIDIRON_DOWN_RESULT_INTERCEPTION: _ClassVar[GridironDownResult]
    GRIDIRON_DOWN_RESULT_TOUCHDOWN: _ClassVar[GridironDownResult]
    GRIDIRON_DOWN_RESULT_SAFETY: _ClassVar[GridironDownResult]

class GridironDriveStart(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GRIDIRON_DRIVE_START_UNSPECIFIED: _ClassVar[GridironDriveStart]
    GRIDIRON_DRIVE_START_KICKOFF: _ClassVar[GridironDriveStart]
    GRIDIRON_DRIVE_START_TOUCHDOWN: _ClassVar[GridironDriveStart]
    GRIDIRON_DRIVE_START_SAFETY: _ClassVar[GridironDriveStart]
    GRIDIRON_DRIVE_START_INTERCEPTION: _ClassVar[GridironDriveStart]
    GRIDIRON_DRIVE_START_PUNT: _ClassVar[GridironDriveStart]
    GRIDIRON_DRIVE_START_DOWNS: _ClassVar[GridironDriveStart]
GRIDIRON_PIECE_KIND_UNSPECIFIED: GridironPieceKind
GRIDIRON_PIECE_KIND_HEAVY: GridironPieceKind
GRIDIRON_PIECE_KIND_STRONG: GridironPieceKind
GRIDIRON_PIECE_KIND_FAST: GridironPieceKind
GRIDIRON_PIECE_KIND_QB: GridironPieceKind
GRIDIRON_PIECE_KIND_SAFETY: GridironPieceKind
GRIDIRON_PIECE_KIND_NICKELBACK: GridironPieceKind
GRIDIRON_PIECE_KIND_RUSHER: GridironPieceKind
GRIDIRON_PIECE_KIND_SCRAMBLER: GridironPieceKind
GRIDIRON_PIECE_KIND_DEEP_THREAT: GridironPieceKind
GRIDIRON_PIECE_KIND_LEAD_BLOCKER: GridironPieceKind
GRIDIRON_PIECE_KIND_LINEMAN: GridironPieceKind
GRIDIRON_SPOT_UNSPECIFIED: GridironSpot
GRIDIRON_SPOT_NW: GridironSpot
GRIDIRON_SPOT_NE: GridironSpot
GRIDIRON_SPOT_C: GridironSpot
GRIDIRON_SPOT_SW: GridironSpot
GRIDIRON_SPOT_SE: GridironSpot
GRIDIRON_ABILITY_UNSPECIFIED: GridironAbility
GRIDIRON_ABILITY_PUSH: GridironAbility
GRIDIRON_ABILITY_CHOP_BLOCK: GridironAbility
GRIDIRON_ABILITY_CHIP_BLOCK: GridironAbility
GRIDIRON_ABILITY_RETREAT: GridironAbility
GRIDIRON_ABILITY_ENGAGE: GridironAbility
GRIDIRON_ABILITY_SPEED_RUSH: GridironAbility
GRIDIRON_ABILITY_REACT: GridironAbility
GRIDIRON_ABILITY_JAM: GridironAbility
GRIDIRON_ABILITY_SEAL: GridironAbility
GRIDIRON_ABILITY_JUKE: GridironAbility
GRIDIRON_ABILITY_ROUTE_RUNNING: GridironAbility
GRIDIRON_ABILITY_IMPACT: GridironAbility
GRIDIRON_ABILITY_ANCHOR: GridironAbility
GRIDIRON_DICE_PURPOSE_UNSPECIFIED: GridironDicePurpose
GRIDIRON_DICE_PURPOSE_COLLISION: GridironDicePurpose
GRIDIRON_DICE_PURPOSE_PASS: GridironDicePurpose
GRIDIRON_DOWN_RESULT_UNSPECIFIED: GridironDownResult
GRIDIRON_DOWN_RESULT_TACKLE: GridironDownResult
GRIDIRON_DOWN_RESULT_SACK: GridironDownResult
GRIDIRON_DOWN_RESULT_TURN_LIMIT: GridironDownResult
GRIDIRON_DOWN_RESULT_INCOMPLETE: GridironDownResult
GRIDIRON_DOWN_RESULT_INTERCEPTION: GridironDownResult
GRIDIRON_DOWN_RESULT_TOUCHDOWN: GridironDownResult
GRIDIRON_DOWN_RESULT_SAFETY: GridironDownResult
GRIDIRON_DRIVE_START_UNSPECIFIED: GridironDriveStart
GRIDIRON_DRIVE_START_KICKOFF: GridironDriveStart
GRIDIRON_DRIVE_START_TOUCHDOWN: GridironDriveStart
GRIDIRON_DRIVE_START_SAFETY: GridironDriveStart
GRIDIRON_DRIVE_START_INTERCEPTION: GridironDriveStart
GRIDIRON_DRIVE_START_PUNT: GridironDriveStart
GRIDIRON_DRIVE_START_DOWNS: GridironDriveStart

class GridironLocation(_message.Message):
    __slots__ = ("square", "spot")
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    SPOT_FIELD_NUMBER: _ClassVar[int]
    square: _common_pb2.Square
    spot: GridironSpot
    def __init__(self, square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., spot: _Optional[_Union[GridironSpot, str]] = ...) -> None: ...

class GridironAction(_message.Message):
    __slots__ = ("choose_captain", "recruit", "default_roster", "commit_roster", "go_for_it", "punt", "place", "ready", "move", "use_ability", "fake", "commit_orders")
    CHOOSE_CAPTAIN_FIELD_NUMBER: _ClassVar[int]
    RECRUIT_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_ROSTER_FIELD_NUMBER: _ClassVar[int]
    COMMIT_ROSTER_FIELD_NUMBER: _ClassVar[int]
    GO_FOR_IT_FIELD_NUMBER: _ClassVar[int]
    PUNT_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    READY_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    USE_ABILITY_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    FAKE_FIELD_NUMBER: _ClassVar[int]
    COMMIT_ORDERS_FIELD_NUMBER: _ClassVar[int]
    choose_captain: GridironChooseCaptain
    recruit: GridironRecruit
    default_roster: GridironDefaultRoster
    commit_roster: GridironCommitRoster
    go_for_it: GridironGoForIt
    punt: GridironPunt
    place: GridironPlace
    ready: GridironReady
    move: GridironMove
    use_ability: GridironUseAbility
    fake: GridironFake
    commit_orders: GridironCommitOrders
    def __init__(self, choose_captain: _Optional[_Union[GridironChooseCaptain, _Mapping]] = ..., recruit: _Optional[_Union[GridironRecruit, _Mapping]] = ..., default_roster: _Optional[_Union[GridironDefaultRoster, _Mapping]] = ..., commit_roster: _Optional[_Union[GridironCommitRoster, _Mapping]] = ..., go_for_it: _Optional[_Union[GridironGoForIt, _Mapping]] = ..., punt: _Optional[_Union[GridironPunt, _Mapping]] = ..., place: _Optional[_Union[GridironPlace, _Mapping]] = ..., ready: _Optional[_Union[GridironReady, _Mapping]] = ..., move: _Optional[_Union[GridironMove, _Mapping]] = ..., use_ability: _Optional[_Union[GridironUseAbility, _Mapping]] = ..., fake: _Optional[_Union[GridironFake, _Mapping]] = ..., commit_orders: _Optional[_Union[GridironCommitOrders, _Mapping]] = ..., **kwargs) -> None: ...

class GridironChooseCaptain(_message.Message):
    __slots__ = ("kind",)
    KIND_FIELD_NUMBER: _ClassVar[int]
    kind: GridironPieceKind
    def __init__(self, kind: _Optional[_Union[GridironPieceKind, str]] = ...) -> None: ...

class GridironRecruit(_message.Message):
    __slots__ = ("kind",)
    KIND_FIELD_NUMBER: _ClassVar[int]
    kind: GridironPieceKind
    def __init__(self, kind: _Optional[_Union[GridironPieceKind, str]] = ...) -> None: ...

class GridironDefaultRoster(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GridironCommitRoster(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GridironGoForIt(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GridironPunt(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GridironPlace(_message.Message):
    __slots__ = ("piece_id", "to")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    to: GridironLocation
    def __init__(self, piece_id: _Optional[int] = ..., to: _Optional[_Union[GridironLocation, _Mapping]] = ...) -> None: ...

class GridironReady(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GridironMove(_message.Message):
    __slots__ = ("piece_id", "to")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    to: GridironLocation
    def __init__(self, piece_id: _Optional[int] = ..., to: _Optional[_Union[GridironLocation, _Mapping]] = ...) -> None: ...

class GridironUseAbility(_message.Message):
    __slots__ = ("piece_id", "ability", "target_id")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    ABILITY_FIELD_NUMBER: _ClassVar[int]
    TARGET_ID_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    ability: GridironAbility
    target_id: int
    def __init__(self, piece_id: _Optional[int] = ..., ability: _Optional[_Union[GridironAbility, str]] = ..., target_id: _Optional[int] = ...) -> None: ...

class GridironPass(_message.Message):
    __slots__ = ("piece_id", "receiver_id")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    RECEIVER_ID_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    receiver_id: int
    def __init__(self, piece_id: _Optional[int] = ..., receiver_id: _Optional[int] = ...) -> None: ...

class GridironFake(_message.Message):
    __slots__ = ("piece_id", "partner_id", "keeper_id")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    PARTNER_ID_FIELD_NUMBER: _ClassVar[int]
    KEEPER_ID_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    partner_id: int
    keeper_id: int
    def __init__(self, piece_id: _Optional[int] = ..., partner_id: _Optional[int] = ..., keeper_id: _Optional[int] = ...) -> None: ...

class GridironCommitOrders(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GridironEvent(_message.Message):
    __slots__ = ("roster_updated", "roster_committed", "roster_revealed", "coin_tossed", "period_started", "drive_started", "down_started", "fourth_down_decided", "formation_set", "piece_placed", "formation_ready", "order_written", "orders_committed", "orders_revealed", "piece_moved", "move_stopped", "dice_rolled", "collision", "piece_returned", "ability_used", "order_failed", "piece_pushed", "movement_changed", "ball_hidden", "keeper_chosen", "ball_revealed", "pass_thrown", "pass_cancelled", "pass_completed", "pass_incomplete", "pass_intercepted", "tackled", "tackle_missed", "scored", "down_ended", "first_down", "turnover_on_downs", "period_ended", "game_ended")
    ROSTER_UPDATED_FIELD_NUMBER: _ClassVar[int]
    ROSTER_COMMITTED_FIELD_NUMBER: _ClassVar[int]
    ROSTER_REVEALED_FIELD_NUMBER: _ClassVar[int]
    COIN_TOSSED_FIELD_NUMBER: _ClassVar[int]
    PERIOD_STARTED_FIELD_NUMBER: _ClassVar[int]
    DRIVE_STARTED_FIELD_NUMBER: _ClassVar[int]
    DOWN_STARTED_FIELD_NUMBER: _ClassVar[int]
    FOURTH_DOWN_DECIDED_FIELD_NUMBER: _ClassVar[int]
    FORMATION_SET_FIELD_NUMBER: _ClassVar[int]
    PIECE_PLACED_FIELD_NUMBER: _ClassVar[int]
    FORMATION_READY_FIELD_NUMBER: _ClassVar[int]
    ORDER_WRITTEN_FIELD_NUMBER: _ClassVar[int]
    ORDERS_COMMITTED_FIELD_NUMBER: _ClassVar[int]
    ORDERS_REVEALED_FIELD_NUMBER: _ClassVar[int]
    PIECE_MOVED_FIELD_NUMBER: _ClassVar[int]
    MOVE_STOPPED_FIELD_NUMBER: _ClassVar[int]
    DICE_ROLLED_FIELD_NUMBER: _ClassVar[int]
    COLLISION_FIELD_NUMBER: _ClassVar[int]
    PIECE_RETURNED_FIELD_NUMBER: _ClassVar[int]
    ABILITY_USED_FIELD_NUMBER: _ClassVar[int]
    ORDER_FAILED_FIELD_NUMBER: _ClassVar[int]
    PIECE_PUSHED_FIELD_NUMBER: _ClassVar[int]
    MOVEMENT_CHANGED_FIELD_NUMBER: _ClassVar[int]
    BALL_HIDDEN_FIELD_NUMBER: _ClassVar[int]
    KEEPER_CHOSEN_FIELD_NUMBER: _ClassVar[int]
    BALL_REVEALED_FIELD_NUMBER: _ClassVar[int]
    PASS_THROWN_FIELD_NUMBER: _ClassVar[int]
    PASS_CANCELLED_FIELD_NUMBER: _ClassVar[int]
    PASS_COMPLETED_FIELD_NUMBER: _ClassVar[int]
    PASS_INCOMPLETE_FIELD_NUMBER: _ClassVar[int]
    PASS_INTERCEPTED_FIELD_NUMBER: _ClassVar[int]
    TACKLED_FIELD_NUMBER: _ClassVar[int]
    TACKLE_MISSED_FIELD_NUMBER: _ClassVar[int]
    SCORED_FIELD_NUMBER: _ClassVar[int]
    DOWN_ENDED_FIELD_NUMBER: _ClassVar[int]
    FIRST_DOWN_FIELD_NUMBER: _ClassVar[int]
    TURNOVER_ON_DOWNS_FIELD_NUMBER: _ClassVar[int]
    PERIOD_ENDED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    roster_updated: GridironRosterUpdated
    roster_committed: GridironRosterCommitted
    roster_revealed: GridironRosterRevealed
    coin_tossed: GridironCoinTossed
    period_started: GridironPeriodStarted
    drive_started: GridironDriveStarted
    down_started: GridironDownStarted
    fourth_down_decided: GridironFourthDownDecided
    formation_set: GridironFormationSet
    piece_placed: GridironPiecePlaced
    formation_ready: GridironFormationReady
    order_written: GridironOrderWritten
    orders_committed: GridironOrdersCommitted
    orders_revealed: GridironOrdersRevealed
    piece_moved: GridironPieceMoved
    move_stopped: GridironMoveStopped
    dice_rolled: GridironDiceRolled
    collision: GridironCollision
    piece_returned: GridironPieceReturned
    ability_used: GridironAbilityUsed
    order_failed: GridironOrderFailed
    piece_pushed: GridironPiecePushed
    movement_changed: GridironMovementChanged
    ball_hidden: GridironBallHidden
    keeper_chosen: GridironKeeperChosen
    ball_revealed: GridironBallRevealed
    pass_thrown: GridironPassThrown
    pass_cancelled: GridironPassCancelled
    pass_completed: GridironPassCompleted
    pass_incomplete: GridironPassIncomplete
    pass_intercepted: GridironPassIntercepted
    tackled: GridironTackled
    tackle_missed: GridironTackleMissed
    scored: GridironScored
    down_ended: GridironDownEnded
    first_down: GridironFirstDown
    turnover_on_downs: GridironTurnoverOnDowns
    period_ended: GridironPeriodEnded
    game_ended: GridironGameEnded
    def __init__(self, roster_updated: _Optional[_Union[GridironRosterUpdated, _Mapping]] = ..., roster_committed: _Optional[_Union[GridironRosterCommitted, _Mapping]] = ..., roster_revealed: _Optional[_Union[GridironRosterRevealed, _Mapping]] = ..., coin_tossed: _Optional[_Union[GridironCoinTossed, _Mapping]] = ..., period_started: _Optional[_Union[GridironPeriodStarted, _Mapping]] = ..., drive_started: _Optional[_Union[GridironDriveStarted, _Mapping]] = ..., down_started: _Optional[_Union[GridironDownStarted, _Mapping]] = ..., fourth_down_decided: _Optional[_Union[GridironFourthDownDecided, _Mapping]] = ..., formation_set: _Optional[_Union[GridironFormationSet, _Mapping]] = ..., piece_placed: _Optional[_Union[GridironPiecePlaced, _Mapping]] = ..., formation_ready: _Optional[_Union[GridironFormationReady, _Mapping]] = ..., order_written: _Optional[_Union[GridironOrderWritten, _Mapping]] = ..., orders_committed: _Optional[_Union[GridironOrdersCommitted, _Mapping]] = ..., orders_revealed: _Optional[_Union[GridironOrdersRevealed, _Mapping]] = ..., piece_moved: _Optional[_Union[GridironPieceMoved, _Mapping]] = ..., move_stopped: _Optional[_Union[GridironMoveStopped, _Mapping]] = ..., dice_rolled: _Optional[_Union[GridironDiceRolled, _Mapping]] = ..., collision: _Optional[_Union[GridironCollision, _Mapping]] = ..., piece_returned: _Optional[_Union[GridironPieceReturned, _Mapping]] = ..., ability_used: _Optional[_Union[GridironAbilityUsed, _Mapping]] = ..., order_failed: _Optional[_Union[GridironOrderFailed, _Mapping]] = ..., piece_pushed: _Optional[_Union[GridironPiecePushed, _Mapping]] = ..., movement_changed: _Optional[_Union[GridironMovementChanged, _Mapping]] = ..., ball_hidden: _Optional[_Union[GridironBallHidden, _Mapping]] = ..., keeper_chosen: _Optional[_Union[GridironKeeperChosen, _Mapping]] = ..., ball_revealed: _Optional[_Union[GridironBallRevealed, _Mapping]] = ..., pass_thrown: _Optional[_Union[GridironPassThrown, _Mapping]] = ..., pass_cancelled: _Optional[_Union[GridironPassCancelled, _Mapping]] = ..., pass_completed: _Optional[_Union[GridironPassCompleted, _Mapping]] = ..., pass_incomplete: _Optional[_Union[GridironPassIncomplete, _Mapping]] = ..., pass_intercepted: _Optional[_Union[GridironPassIntercepted, _Mapping]] = ..., tackled: _Optional[_Union[GridironTackled, _Mapping]] = ..., tackle_missed: _Optional[_Union[GridironTackleMissed, _Mapping]] = ..., scored: _Optional[_Union[GridironScored, _Mapping]] = ..., down_ended: _Optional[_Union[GridironDownEnded, _Mapping]] = ..., first_down: _Optional[_Union[GridironFirstDown, _Mapping]] = ..., turnover_on_downs: _Optional[_Union[GridironTurnoverOnDowns, _Mapping]] = ..., period_ended: _Optional[_Union[GridironPeriodEnded, _Mapping]] = ..., game_ended: _Optional[_Union[GridironGameEnded, _Mapping]] = ...) -> None: ...

class GridironRosterUpdated(_message.Message):
    __slots__ = ("seat", "action")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    seat: str
    action: GridironAction
    def __init__(self, seat: _Optional[str] = ..., action: _Optional[_Union[GridironAction, _Mapping]] = ...) -> None: ...

class GridironRosterCommitted(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: str
    def __init__(self, seat: _Optional[str] = ...) -> None: ...

class GridironRosterPiece(_message.Message):
    __slots__ = ("piece_id", "kind")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    kind: GridironPieceKind
    def __init__(self, piece_id: _Optional[int] = ..., kind: _Optional[_Union[GridironPieceKind, str]] = ...) -> None: ...

class GridironRosterRevealed(_message.Message):
    __slots__ = ("seat", "pieces")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PIECES_FIELD_NUMBER: _ClassVar[int]
    seat: str
    pieces: _containers.RepeatedCompositeFieldContainer[GridironRosterPiece]
    def __init__(self, seat: _Optional[str] = ..., pieces: _Optional[_Iterable[_Union[GridironRosterPiece, _Mapping]]] = ...) -> None: ...

class GridironCoinTossed(_message.Message):
    __slots__ = ("winner",)
    WINNER_FIELD_NUMBER: _ClassVar[int]
    winner: str
    def __init__(self, winner: _Optional[str] = ...) -> None: ...

class GridironPeriodStarted(_message.Message):
    __slots__ = ("period", "first_offense")
    PERIOD_FIELD_NUMBER: _ClassVar[int]
    FIRST_OFFENSE_FIELD_NUMBER: _ClassVar[int]
    period: int
    first_offense: str
    def __init__(self, period: _Optional[int] = ..., first_offense: _Optional[str] = ...) -> None: ...

class GridironDriveStarted(_message.Message):
    __slots__ = ("offense", "line_of_scrimmage", "how", "possession")
    OFFENSE_FIELD_NUMBER: _ClassVar[int]
    LINE_OF_SCRIMMAGE_FIELD_NUMBER: _ClassVar[int]
    HOW_FIELD_NUMBER: _ClassVar[int]
    POSSESSION_FIELD_NUMBER: _ClassVar[int]
    offense: str
    line_of_scrimmage: int
    how: GridironDriveStart
    possession: int
    def __init__(self, offense: _Optional[str] = ..., line_of_scrimmage: _Optional[int] = ..., how: _Optional[_Union[GridironDriveStart, str]] = ..., possession: _Optional[int] = ...) -> None: ...

class GridironDownStarted(_message.Message):
    __slots__ = ("offense", "down", "line_of_scrimmage", "first_down_line")
    OFFENSE_FIELD_NUMBER: _ClassVar[int]
    DOWN_FIELD_NUMBER: _ClassVar[int]
    LINE_OF_SCRIMMAGE_FIELD_NUMBER: _ClassVar[int]
    FIRST_DOWN_LINE_FIELD_NUMBER: _ClassVar[int]
    offense: str
    down: int
    line_of_scrimmage: int
    first_down_line: int
    def __init__(self, offense: _Optional[str] = ..., down: _Optional[int] = ..., line_of_scrimmage: _Optional[int] = ..., first_down_line: _Optional[int] = ...) -> None: ...

class GridironFourthDownDecided(_message.Message):
    __slots__ = ("seat", "punt")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PUNT_FIELD_NUMBER: _ClassVar[int]
    seat: str
    punt: bool
    def __init__(self, seat: _Optional[str] = ..., punt: _Optional[bool] = ...) -> None: ...

class GridironPieceLocation(_message.Message):
    __slots__ = ("piece_id", "location")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    location: GridironLocation
    def __init__(self, piece_id: _Optional[int] = ..., location: _Optional[_Union[GridironLocation, _Mapping]] = ...) -> None: ...

class GridironFormationSet(_message.Message):
    __slots__ = ("pieces",)
    PIECES_FIELD_NUMBER: _ClassVar[int]
    pieces: _containers.RepeatedCompositeFieldContainer[GridironPieceLocation]
    def __init__(self, pieces: _Optional[_Iterable[_Union[GridironPieceLocation, _Mapping]]] = ...) -> None: ...

class GridironPiecePlaced(_message.Message):
    __slots__ = ("piece_id", "to")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    to: GridironLocation
    def __init__(self, piece_id: _Optional[int] = ..., to: _Optional[_Union[GridironLocation, _Mapping]] = ...) -> None: ...

class GridironFormationReady(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: str
    def __init__(self, seat: _Optional[str] = ...) -> None: ...

class GridironOrderWritten(_message.Message):
    __slots__ = ("seat", "action")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    seat: str
    action: GridironAction
    def __init__(self, seat: _Optional[str] = ..., action: _Optional[_Union[GridironAction, _Mapping]] = ...) -> None: ...

class GridironOrdersCommitted(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: str
    def __init__(self, seat: _Optional[str] = ...) -> None: ...

class GridironOrdersRevealed(_message.Message):
    __slots__ = ("seat", "orders")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ORDERS_FIELD_NUMBER: _ClassVar[int]
    seat: str
    orders: _containers.RepeatedCompositeFieldContainer[GridironAction]
    def __init__(self, seat: _Optional[str] = ..., orders: _Optional[_Iterable[_Union[GridironAction, _Mapping]]] = ...) -> None: ...

class GridironPieceMoved(_message.Message):
    __slots__ = ("piece_id", "to")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    to: GridironLocation
    def __init__(self, piece_id: _Optional[int] = ..., to: _Optional[_Union[GridironLocation, _Mapping]] = ..., **kwargs) -> None: ...

class GridironMoveStopped(_message.Message):
    __slots__ = ("piece_id", "reason")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    reason: str
    def __init__(self, piece_id: _Optional[int] = ..., reason: _Optional[str] = ...) -> None: ...

class GridironDiceRolled(_message.Message):
    __slots__ = ("purpose", "seat", "piece_id", "value")
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    purpose: GridironDicePurpose
    seat: str
    piece_id: int
    value: int
    def __init__(self, purpose: _Optional[_Union[GridironDicePurpose, str]] = ..., seat: _Optional[str] = ..., piece_id: _Optional[int] = ..., value: _Optional[int] = ...) -> None: ...

class GridironCollision(_message.Message):
    __slots__ = ("mover_id", "occupant_id", "winner_id")
    MOVER_ID_FIELD_NUMBER: _ClassVar[int]
    OCCUPANT_ID_FIELD_NUMBER: _ClassVar[int]
    WINNER_ID_FIELD_NUMBER: _ClassVar[int]
    mover_id: int
    occupant_id: int
    winner_id: int
    def __init__(self, mover_id: _Optional[int] = ..., occupant_id: _Optional[int] = ..., winner_id: _Optional[int] = ...) -> None: ...

class GridironPieceReturned(_message.Message):
    __slots__ = ("piece_id", "to")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    to: GridironLocation
    def __init__(self, piece_id: _Optional[int] = ..., to: _Optional[_Union[GridironLocation, _Mapping]] = ...) -> None: ...

class GridironAbilityUsed(_message.Message):
    __slots__ = ("piece_id", "ability", "target_id")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    ABILITY_FIELD_NUMBER: _ClassVar[int]
    TARGET_ID_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    ability: GridironAbility
    target_id: int
    def __init__(self, piece_id: _Optional[int] = ..., ability: _Optional[_Union[GridironAbility, str]] = ..., target_id: _Optional[int] = ...) -> None: ...

class GridironOrderFailed(_message.Message):
    __slots__ = ("piece_id", "what", "reason")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    WHAT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    what: str
    reason: str
    def __init__(self, piece_id: _Optional[int] = ..., what: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class GridironPiecePushed(_message.Message):
    __slots__ = ("piece_id", "to")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    to: GridironLocation
    def __init__(self, piece_id: _Optional[int] = ..., to: _Optional[_Union[GridironLocation, _Mapping]] = ..., **kwargs) -> None: ...

class GridironMovementChanged(_message.Message):
    __slots__ = ("piece_id", "change", "frozen", "next_turn")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    CHANGE_FIELD_NUMBER: _ClassVar[int]
    FROZEN_FIELD_NUMBER: _ClassVar[int]
    NEXT_TURN_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    change: int
    frozen: bool
    next_turn: bool
    def __init__(self, piece_id: _Optional[int] = ..., change: _Optional[int] = ..., frozen: _Optional[bool] = ..., next_turn: _Optional[bool] = ...) -> None: ...

class GridironBallHidden(_message.Message):
    __slots__ = ("passer_id", "partner_id")
    PASSER_ID_FIELD_NUMBER: _ClassVar[int]
    PARTNER_ID_FIELD_NUMBER: _ClassVar[int]
    passer_id: int
    partner_id: int
    def __init__(self, passer_id: _Optional[int] = ..., partner_id: _Optional[int] = ...) -> None: ...

class GridironKeeperChosen(_message.Message):
    __slots__ = ("keeper_id",)
    KEEPER_ID_FIELD_NUMBER: _ClassVar[int]
    keeper_id: int
    def __init__(self, keeper_id: _Optional[int] = ...) -> None: ...

class GridironBallRevealed(_message.Message):
    __slots__ = ("holder_id",)
    HOLDER_ID_FIELD_NUMBER: _ClassVar[int]
    holder_id: int
    def __init__(self, holder_id: _Optional[int] = ...) -> None: ...

class GridironPassThrown(_message.Message):
    __slots__ = ("passer_id", "receiver_id", "modifier")
    PASSER_ID_FIELD_NUMBER: _ClassVar[int]
    RECEIVER_ID_FIELD_NUMBER: _ClassVar[int]
    MODIFIER_FIELD_NUMBER: _ClassVar[int]
    passer_id: int
    receiver_id: int
    modifier: int
    def __init__(self, passer_id: _Optional[int] = ..., receiver_id: _Optional[int] = ..., modifier: _Optional[int] = ...) -> None: ...

class GridironPassCancelled(_message.Message):
    __slots__ = ("passer_id", "reason")
    PASSER_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    passer_id: int
    reason: str
    def __init__(self, passer_id: _Optional[int] = ..., reason: _Optional[str] = ...) -> None: ...

class GridironPassCompleted(_message.Message):
    __slots__ = ("receiver_id", "total")
    RECEIVER_ID_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    receiver_id: int
    total: int
    def __init__(self, receiver_id: _Optional[int] = ..., total: _Optional[int] = ...) -> None: ...

class GridironPassIncomplete(_message.Message):
    __slots__ = ("total",)
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    total: int
    def __init__(self, total: _Optional[int] = ...) -> None: ...

class GridironPassIntercepted(_message.Message):
    __slots__ = ("by_id", "total")
    BY_ID_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    by_id: int
    total: int
    def __init__(self, by_id: _Optional[int] = ..., total: _Optional[int] = ...) -> None: ...

class GridironTackled(_message.Message):
    __slots__ = ("tackler_id", "carrier_id", "at")
    TACKLER_ID_FIELD_NUMBER: _ClassVar[int]
    CARRIER_ID_FIELD_NUMBER: _ClassVar[int]
    AT_FIELD_NUMBER: _ClassVar[int]
    tackler_id: int
    carrier_id: int
    at: GridironLocation
    def __init__(self, tackler_id: _Optional[int] = ..., carrier_id: _Optional[int] = ..., at: _Optional[_Union[GridironLocation, _Mapping]] = ...) -> None: ...

class GridironTackleMissed(_message.Message):
    __slots__ = ("tackler_id", "piece_id")
    TACKLER_ID_FIELD_NUMBER: _ClassVar[int]
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    tackler_id: int
    piece_id: int
    def __init__(self, tackler_id: _Optional[int] = ..., piece_id: _Optional[int] = ...) -> None: ...

class GridironScored(_message.Message):
    __slots__ = ("seat", "points", "reason")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    seat: str
    points: int
    reason: GridironDownResult
    def __init__(self, seat: _Optional[str] = ..., points: _Optional[int] = ..., reason: _Optional[_Union[GridironDownResult, str]] = ...) -> None: ...

class GridironDownEnded(_message.Message):
    __slots__ = ("result", "ball_rank")
    RESULT_FIELD_NUMBER: _ClassVar[int]
    BALL_RANK_FIELD_NUMBER: _ClassVar[int]
    result: GridironDownResult
    ball_rank: int
    def __init__(self, result: _Optional[_Union[GridironDownResult, str]] = ..., ball_rank: _Optional[int] = ...) -> None: ...

class GridironFirstDown(_message.Message):
    __slots__ = ("line_of_scrimmage", "first_down_line")
    LINE_OF_SCRIMMAGE_FIELD_NUMBER: _ClassVar[int]
    FIRST_DOWN_LINE_FIELD_NUMBER: _ClassVar[int]
    line_of_scrimmage: int
    first_down_line: int
    def __init__(self, line_of_scrimmage: _Optional[int] = ..., first_down_line: _Optional[int] = ...) -> None: ...

class GridironTurnoverOnDowns(_message.Message):
    __slots__ = ("spot",)
    SPOT_FIELD_NUMBER: _ClassVar[int]
    spot: int
    def __init__(self, spot: _Optional[int] = ...) -> None: ...

class GridironPeriodEnded(_message.Message):
    __slots__ = ("period",)
    PERIOD_FIELD_NUMBER: _ClassVar[int]
    period: int
    def __init__(self, period: _Optional[int] = ...) -> None: ...

class GridironGameEnded(_message.Message):
    __slots__ = ("winner", "scores")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    winner: str
    scores: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    def __init__(self, winner: _Optional[str] = ..., scores: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ...) -> None: ...

class GridironPieceDetails(_message.Message):
    __slots__ = ("piece_id", "owner", "kind", "location", "used", "movement_change", "frozen", "jammed", "anchored", "sealing")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOCATION_FIELD_NUMBER: _ClassVar[int]
    USED_FIELD_NUMBER: _ClassVar[int]
    MOVEMENT_CHANGE_FIELD_NUMBER: _ClassVar[int]
    FROZEN_FIELD_NUMBER: _ClassVar[int]
    JAMMED_FIELD_NUMBER: _ClassVar[int]
    ANCHORED_FIELD_NUMBER: _ClassVar[int]
    SEALING_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    owner: str
    kind: GridironPieceKind
    location: GridironLocation
    used: _containers.RepeatedScalarFieldContainer[GridironAbility]
    movement_change: int
    frozen: bool
    jammed: bool
    anchored: bool
    sealing: bool
    def __init__(self, piece_id: _Optional[int] = ..., owner: _Optional[str] = ..., kind: _Optional[_Union[GridironPieceKind, str]] = ..., location: _Optional[_Union[GridironLocation, _Mapping]] = ..., used: _Optional[_Iterable[_Union[GridironAbility, str]]] = ..., movement_change: _Optional[int] = ..., frozen: _Optional[bool] = ..., jammed: _Optional[bool] = ..., anchored: _Optional[bool] = ..., sealing: _Optional[bool] = ...) -> None: ...

class GridironDetails(_message.Message):
    __slots__ = ("phase", "offense", "down", "line_of_scrimmage", "first_down_line", "turn", "turns_per_down", "period", "possessions", "possessions_per_period", "scores", "committed", "own_orders", "own_captain", "own_standard", "pieces", "ball_hidden", "pass_thrown")
    PHASE_FIELD_NUMBER: _ClassVar[int]
    OFFENSE_FIELD_NUMBER: _ClassVar[int]
    DOWN_FIELD_NUMBER: _ClassVar[int]
    LINE_OF_SCRIMMAGE_FIELD_NUMBER: _ClassVar[int]
    FIRST_DOWN_LINE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    TURNS_PER_DOWN_FIELD_NUMBER: _ClassVar[int]
    PERIOD_FIELD_NUMBER: _ClassVar[int]
    POSSESSIONS_FIELD_NUMBER: _ClassVar[int]
    POSSESSIONS_PER_PERIOD_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    COMMITTED_FIELD_NUMBER: _ClassVar[int]
    OWN_ORDERS_FIELD_NUMBER: _ClassVar[int]
    OWN_CAPTAIN_FIELD_NUMBER: _ClassVar[int]
    OWN_STANDARD_FIELD_NUMBER: _ClassVar[int]
    PIECES_FIELD_NUMBER: _ClassVar[int]
    BALL_HIDDEN_FIELD_NUMBER: _ClassVar[int]
    PASS_THROWN_FIELD_NUMBER: _ClassVar[int]
    phase: str
    offense: str
    down: int
    line_of_scrimmage: int
    first_down_line: int
    turn: int
    turns_per_down: int
    period: int
    possessions: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    possessions_per_period: int
    scores: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    committed: _containers.RepeatedScalarFieldContainer[str]
    own_orders: _containers.RepeatedCompositeFieldContainer[GridironAction]
    own_captain: GridironPieceKind
    own_standard: _containers.RepeatedScalarFieldContainer[GridironPieceKind]
    pieces: _containers.RepeatedCompositeFieldContainer[GridironPieceDetails]
    ball_hidden: bool
    pass_thrown: bool
    def __init__(self, phase: _Optional[str] = ..., offense: _Optional[str] = ..., down: _Optional[int] = ..., line_of_scrimmage: _Optional[int] = ..., first_down_line: _Optional[int] = ..., turn: _Optional[int] = ..., turns_per_down: _Optional[int] = ..., period: _Optional[int] = ..., possessions: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ..., possessions_per_period: _Optional[int] = ..., scores: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ..., committed: _Optional[_Iterable[str]] = ..., own_orders: _Optional[_Iterable[_Union[GridironAction, _Mapping]]] = ..., own_captain: _Optional[_Union[GridironPieceKind, str]] = ..., own_standard: _Optional[_Iterable[_Union[GridironPieceKind, str]]] = ..., pieces: _Optional[_Iterable[_Union[GridironPieceDetails, _Mapping]]] = ..., ball_hidden: _Optional[bool] = ..., pass_thrown: _Optional[bool] = ...) -> None: ...
