from pitchmate.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class XfutebolRole(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    XFUTEBOL_ROLE_UNSPECIFIED: _ClassVar[XfutebolRole]
    XFUTEBOL_ROLE_KEEPER: _ClassVar[XfutebolRole]
    XFUTEBOL_ROLE_DEFENDER: _ClassVar[XfutebolRole]
    XFUTEBOL_ROLE_MIDFIELDER: _ClassVar[XfutebolRole]
    XFUTEBOL_ROLE_ATTACKER: _ClassVar[XfutebolRole]
    XFUTEBOL_ROLE_DRIBBLER: _ClassVar[XfutebolRole]
    XFUTEBOL_ROLE_GOALER: _ClassVar[XfutebolRole]
    XFUTEBOL_ROLE_LONG_EXPERT: _ClassVar[XfutebolRole]

class XfutebolSpecial(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    XFUTEBOL_SPECIAL_UNSPECIFIED: _ClassVar[XfutebolSpecial]
    XFUTEBOL_SPECIAL_DRIBBLER: _ClassVar[XfutebolSpecial]
    XFUTEBOL_SPECIAL_GOALER: _ClassVar[XfutebolSpecial]
    XFUTEBOL_SPECIAL_LONG_EXPERT: _ClassVar[XfutebolSpecial]

class XfutebolFormation(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    XFUTEBOL_FORMATION_UNSPECIFIED: _ClassVar[XfutebolFormation]
    XFUTEBOL_FORMATION_FOUR_THREE_THREE: _ClassVar[XfutebolFormation]
    XFUTEBOL_FORMATION_FIVE_THREE_TWO: _ClassVar[XfutebolFormation]

class XfutebolDuelKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    XFUTEBOL_DUEL_KIND_UNSPECIFIED: _ClassVar[XfutebolDuelKind]
    XFUTEBOL_DUEL_KIND_CHALLENGE: _ClassVar[XfutebolDuelKind]
    XFUTEBOL_DUEL_KIND_INTERCEPTION: _ClassVar[XfutebolDuelKind]
    XFUTEBOL_DUEL_KIND_DRIBBLE: _ClassVar[XfutebolDuelKind]
    XFUTEBOL_DUEL_KIND_KEEPER: _ClassVar[XfutebolDuelKind]
    XFUTEBOL_DUEL_KIND_BARRIER: _ClassVar[XfutebolDuelKind]
    XFUTEBOL_DUEL_KIND_PENALTY: _ClassVar[XfutebolDuelKind]

class XfutebolDuelOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    XFUTEBOL_DUEL_OUTCOME_UNSPECIFIED: _ClassVar[XfutebolDuelOutcome]
    XFUTEBOL_DUEL_OUTCOME_INITIATOR_WINS: _ClassVar[XfutebolDuelOutcome]
    XFUTEBOL_DUEL_OUTCOME_TIE: _ClassVar[XfutebolDuelOutcome]
    XFUTEBOL_DUEL_OUTCOME_OPPONENT_WINS: _ClassVar[XfutebolDuelOutcome]
    XFUTEBOL_DUEL_OUTCOME_REBOUND: _ClassVar[XfutebolDuelOutcome]

class XfutebolTossPurpose(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    XFUTEBOL_TOSS_PURPOSE_UNSPECIFIED: _ClassVar[XfutebolTossPurpose]
    XFUTEBOL_TOSS_PURPOSE_KICK_OFF: _ClassVar[XfutebolTossPurpose]
    XFUTEBOL_TOSS_PURPOSE_SHOOTOUT_DECIDER: _ClassVar[XfutebolTossPurpose]

class XfutebolPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    XFUTEBOL_PHASE_UNSPECIFIED: _ClassVar[XfutebolPhase]
    XFUTEBOL_PHASE_LINEUP: _ClassVar[XfutebolPhase]
    XFUTEBOL_PHASE_PLAY: _ClassVar[XfutebolPhase]
    XFUTEBOL_PHASE_SEND_OFF: _ClassVar[XfutebolPhase]
    XFUTEBOL_PHASE_PENALTY: _ClassVar[XfutebolPhase]
    XFUTEBOL_PHASE_SHOOTOUT: _ClassVar[XfutebolPhase]
    XFUTEBOL_PHASE_OVER: _ClassVar[XfutebolPhase]
XFUTEBOL_ROLE_UNSPECIFIED: XfutebolRole
XFUTEBOL_ROLE_KEEPER: XfutebolRole
XFUTEBOL_ROLE_DEFENDER: XfutebolRole
XFUTEBOL_ROLE_MIDFIELDER: XfutebolRole
XFUTEBOL_ROLE_ATTACKER: XfutebolRole
XFUTEBOL_ROLE_DRIBBLER: XfutebolRole
XFUTEBOL_ROLE_GOALER: XfutebolRole
XFUTEBOL_ROLE_LONG_EXPERT: XfutebolRole
XFUTEBOL_SPECIAL_UNSPECIFIED: XfutebolSpecial
XFUTEBOL_SPECIAL_DRIBBLER: XfutebolSpecial
XFUTEBOL_SPECIAL_GOALER: XfutebolSpecial
XFUTEBOL_SPECIAL_LONG_EXPERT: XfutebolSpecial
XFUTEBOL_FORMATION_UNSPECIFIED: XfutebolFormation
XFUTEBOL_FORMATION_FOUR_THREE_THREE: XfutebolFormation
XFUTEBOL_FORMATION_FIVE_THREE_TWO: XfutebolFormation
XFUTEBOL_DUEL_KIND_UNSPECIFIED: XfutebolDuelKind
XFUTEBOL_DUEL_KIND_CHALLENGE: XfutebolDuelKind
XFUTEBOL_DUEL_KIND_INTERCEPTION: XfutebolDuelKind
XFUTEBOL_DUEL_KIND_DRIBBLE: XfutebolDuelKind
XFUTEBOL_DUEL_KIND_KEEPER: XfutebolDuelKind
XFUTEBOL_DUEL_KIND_BARRIER: XfutebolDuelKind
XFUTEBOL_DUEL_KIND_PENALTY: XfutebolDuelKind
XFUTEBOL_DUEL_OUTCOME_UNSPECIFIED: XfutebolDuelOutcome
XFUTEBOL_DUEL_OUTCOME_INITIATOR_WINS: XfutebolDuelOutcome
XFUTEBOL_DUEL_OUTCOME_TIE: XfutebolDuelOutcome
XFUTEBOL_DUEL_OUTCOME_OPPONENT_WINS: XfutebolDuelOutcome
XFUTEBOL_DUEL_OUTCOME_REBOUND: XfutebolDuelOutcome
XFUTEBOL_TOSS_PURPOSE_UNSPECIFIED: XfutebolTossPurpose
XFUTEBOL_TOSS_PURPOSE_KICK_OFF: XfutebolTossPurpose
XFUTEBOL_TOSS_PURPOSE_SHOOTOUT_DECIDER: XfutebolTossPurpose
XFUTEBOL_PHASE_UNSPECIFIED: XfutebolPhase
XFUTEBOL_PHASE_LINEUP: XfutebolPhase
XFUTEBOL_PHASE_PLAY: XfutebolPhase
XFUTEBOL_PHASE_SEND_OFF: XfutebolPhase
XFUTEBOL_PHASE_PENALTY: XfutebolPhase
XFUTEBOL_PHASE_SHOOTOUT: XfutebolPhase
XFUTEBOL_PHASE_OVER: XfutebolPhase

class XfutebolAction(_message.Message):
    __slots__ = ("default_lineup", "choose_formation", "assign_special", "place", "confirm_lineup", "move", "sprint", "long_pass", "dribble", "challenge", "shoot", "long_shoot", "free_kick", "penalty", "send_off", "end_turn")
    DEFAULT_LINEUP_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_FORMATION_FIELD_NUMBER: _ClassVar[int]
    ASSIGN_SPECIAL_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    CONFIRM_LINEUP_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SPRINT_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    LONG_PASS_FIELD_NUMBER: _ClassVar[int]
    DRIBBLE_FIELD_NUMBER: _ClassVar[int]
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    SHOOT_FIELD_NUMBER: _ClassVar[int]
    LONG_SHOOT_FIELD_NUMBER: _ClassVar[int]
    FREE_KICK_FIELD_NUMBER: _ClassVar[int]
    PENALTY_FIELD_NUMBER: _ClassVar[int]
    SEND_OFF_FIELD_NUMBER: _ClassVar[int]
    END_TURN_FIELD_NUMBER: _ClassVar[int]
    default_lineup: XfutebolDefaultLineup
    choose_formation: XfutebolChooseFormation
    assign_special: XfutebolAssignSpecial
    place: XfutebolPlace
    confirm_lineup: XfutebolConfirmLineup
    move: XfutebolMove
    sprint: XfutebolSprint
    long_pass: XfutebolLongPass
    dribble: XfutebolDribble
    challenge: XfutebolChallenge
    shoot: XfutebolShoot
    long_shoot: XfutebolLongShoot
    free_kick: XfutebolFreeKick
    penalty: XfutebolPenalty
    send_off: XfutebolSendOff
    end_turn: XfutebolEndTurn
    def __init__(self, default_lineup: _Optional[_Union[XfutebolDefaultLineup, _Mapping]] = ..., choose_formation: _Optional[_Union[XfutebolChooseFormation, _Mapping]] = ..., assign_special: _Optional[_Union[XfutebolAssignSpecial, _Mapping]] = ..., place: _Optional[_Union[XfutebolPlace, _Mapping]] = ..., confirm_lineup: _Optional[_Union[XfutebolConfirmLineup, _Mapping]] = ..., move: _Optional[_Union[XfutebolMove, _Mapping]] = ..., sprint: _Optional[_Union[XfutebolSprint, _Mapping]] = ..., long_pass: _Optional[_Union[XfutebolLongPass, _Mapping]] = ..., dribble: _Optional[_Union[XfutebolDribble, _Mapping]] = ..., challenge: _Optional[_Union[XfutebolChallenge, _Mapping]] = ..., shoot: _Optional[_Union[XfutebolShoot, _Mapping]] = ..., long_shoot: _Optional[_Union[XfutebolLongShoot, _Mapping]] = ..., free_kick: _Optional[_Union[XfutebolFreeKick, _Mapping]] = ..., penalty: _Optional[_Union[XfutebolPenalty, _Mapping]] = ..., send_off: _Optional[_Union[XfutebolSendOff, _Mapping]] = ..., end_turn: _Optional[_Union[XfutebolEndTurn, _Mapping]] = ..., **kwargs) -> None: ...

class XfutebolDefaultLineup(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class XfutebolChooseFormation(_message.Message):
    __slots__ = ("formation",)
    FORMATION_FIELD_NUMBER: _ClassVar[int]
    formation: XfutebolFormation
    def __init__(self, formation: _Optional[_Union[XfutebolFormation, str]] = ...) -> None: ...

class XfutebolAssignSpecial(_message.Message):
    __slots__ = ("at", "special")
    AT_FIELD_NUMBER: _ClassVar[int]
    SPECIAL_FIELD_NUMBER: _ClassVar[int]
    at: _common_pb2.Square
    special: XfutebolSpecial
    def __init__(self, at: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., special: _Optional[_Union[XfutebolSpecial, str]] = ...) -> None: ...

class XfutebolPlace(_message.Message):
    __slots__ = ("to",)
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    to: _common_pb2.Square
    def __init__(self, to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class XfutebolConfirmLineup(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class XfutebolMove(_message.Message):
    __slots__ = ("to",)
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    to: _common_pb2.Square
    def __init__(self, to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class XfutebolSprint(_message.Message):
    __slots__ = ("to",)
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    to: _common_pb2.Square
    def __init__(self, to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class XfutebolPass(_message.Message):
    __slots__ = ("to",)
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    to: _common_pb2.Square
    def __init__(self, to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class XfutebolLongPass(_message.Message):
    __slots__ = ("via", "to")
    FROM_FIELD_NUMBER: _ClassVar[int]
    VIA_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    via: _common_pb2.Square
    to: _common_pb2.Square
    def __init__(self, via: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class XfutebolDribble(_message.Message):
    __slots__ = ("to",)
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    to: _common_pb2.Square
    def __init__(self, to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class XfutebolChallenge(_message.Message):
    __slots__ = ("target",)
    FROM_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    target: _common_pb2.Square
    def __init__(self, target: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class XfutebolShoot(_message.Message):
    __slots__ = ("goal",)
    FROM_FIELD_NUMBER: _ClassVar[int]
    GOAL_FIELD_NUMBER: _ClassVar[int]
    goal: _common_pb2.Square
    def __init__(self, goal: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class XfutebolLongShoot(_message.Message):
    __slots__ = ("via", "goal")
    FROM_FIELD_NUMBER: _ClassVar[int]
    VIA_FIELD_NUMBER: _ClassVar[int]
    GOAL_FIELD_NUMBER: _ClassVar[int]
    via: _common_pb2.Square
    goal: _common_pb2.Square
    def __init__(self, via: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., goal: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class XfutebolFreeKick(_message.Message):
    __slots__ = ("goal",)
    FROM_FIELD_NUMBER: _ClassVar[int]
    GOAL_FIELD_NUMBER: _ClassVar[int]
    goal: _common_pb2.Square
    def __init__(self, goal: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class XfutebolPenalty(_message.Message):
    __slots__ = ("kicker",)
    KICKER_FIELD_NUMBER: _ClassVar[int]
    kicker: _common_pb2.Square
    def __init__(self, kicker: _Optional[_Union[_common_pb2.Square, _Mapping]] = ...) -> None: ...

class XfutebolSendOff(_message.Message):
    __slots__ = ("at",)
    AT_FIELD_NUMBER: _ClassVar[int]
    at: _common_pb2.Square
    def __init__(self, at: _Optional[_Union[_common_pb2.Square, _Mapping]] = ...) -> None: ...

class XfutebolEndTurn(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class XfutebolEvent(_message.Message):
    __slots__ = ("formation_chosen", "special_assigned", "piece_placed", "lineup_confirmed", "coin_tossed", "kick_off", "piece_moved", "ball_taken", "ball_passed", "ball_loose", "ball_won", "duel", "dribbled", "shot_taken", "goal_scored", "foul", "yellow_card", "red_card", "piece_sent_off", "free_kick_awarded", "penalty_awarded", "free_kick_taken", "penalty_taken", "sprint_used", "piece_rested", "piece_returned", "turn_ended", "period_ended", "shootout_started", "shootout_kick", "match_ended")
    FORMATION_CHOSEN_FIELD_NUMBER: _ClassVar[int]
    SPECIAL_ASSIGNED_FIELD_NUMBER: _ClassVar[int]
    PIECE_PLACED_FIELD_NUMBER: _ClassVar[int]
    LINEUP_CONFIRMED_FIELD_NUMBER: _ClassVar[int]
    COIN_TOSSED_FIELD_NUMBER: _ClassVar[int]
    KICK_OFF_FIELD_NUMBER: _ClassVar[int]
    PIECE_MOVED_FIELD_NUMBER: _ClassVar[int]
    BALL_TAKEN_FIELD_NUMBER: _ClassVar[int]
    BALL_PASSED_FIELD_NUMBER: _ClassVar[int]
    BALL_LOOSE_FIELD_NUMBER: _ClassVar[int]
    BALL_WON_FIELD_NUMBER: _ClassVar[int]
    DUEL_FIELD_NUMBER: _ClassVar[int]
    DRIBBLED_FIELD_NUMBER: _ClassVar[int]
    SHOT_TAKEN_FIELD_NUMBER: _ClassVar[int]
    GOAL_SCORED_FIELD_NUMBER: _ClassVar[int]
    FOUL_FIELD_NUMBER: _ClassVar[int]
    YELLOW_CARD_FIELD_NUMBER: _ClassVar[int]
    RED_CARD_FIELD_NUMBER: _ClassVar[int]
    PIECE_SENT_OFF_FIELD_NUMBER: _ClassVar[int]
    FREE_KICK_AWARDED_FIELD_NUMBER: _ClassVar[int]
    PENALTY_AWARDED_FIELD_NUMBER: _ClassVar[int]
    FREE_KICK_TAKEN_FIELD_NUMBER: _ClassVar[int]
    PENALTY_TAKEN_FIELD_NUMBER: _ClassVar[int]
    SPRINT_USED_FIELD_NUMBER: _ClassVar[int]
    PIECE_RESTED_FIELD_NUMBER: _ClassVar[int]
    PIECE_RETURNED_FIELD_NUMBER: _ClassVar[int]
    TURN_ENDED_FIELD_NUMBER: _ClassVar[int]
    PERIOD_ENDED_FIELD_NUMBER: _ClassVar[int]
    SHOOTOUT_STARTED_FIELD_NUMBER: _ClassVar[int]
    SHOOTOUT_KICK_FIELD_NUMBER: _ClassVar[int]
    MATCH_ENDED_FIELD_NUMBER: _ClassVar[int]
    formation_chosen: XfutebolFormationChosen
    special_assigned: XfutebolSpecialAssigned
    piece_placed: XfutebolPiecePlaced
    lineup_confirmed: XfutebolLineupConfirmed
    coin_tossed: XfutebolCoinTossed
    kick_off: XfutebolKickOff
    piece_moved: XfutebolPieceMoved
    ball_taken: XfutebolBallTaken
    ball_passed: XfutebolBallPassed
    ball_loose: XfutebolBallLoose
    ball_won: XfutebolBallWon
    duel: XfutebolDuel
    dribbled: XfutebolDribbled
    shot_taken: XfutebolShotTaken
    goal_scored: XfutebolGoalScored
    foul: XfutebolFoul
    yellow_card: XfutebolYellowCard
    red_card: XfutebolRedCard
    piece_sent_off: XfutebolPieceSentOff
    free_kick_awarded: XfutebolFreeKickAwarded
    penalty_awarded: XfutebolPenaltyAwarded
    free_kick_taken: XfutebolFreeKickTaken
    penalty_taken: XfutebolPenaltyTaken
    sprint_used: XfutebolSprintUsed
    piece_rested: XfutebolPieceRested
    piece_returned: XfutebolPieceReturned
    turn_ended: XfutebolTurnEnded
    period_ended: XfutebolPeriodEnded
    shootout_started: XfutebolShootoutStarted
    shootout_kick: XfutebolShootoutKick
    match_ended: XfutebolMatchEnded
    def __init__(self, formation_chosen: _Optional[_Union[XfutebolFormationChosen, _Mapping]] = ..., special_assigned: _Optional[_Union[XfutebolSpecialAssigned, _Mapping]] = ..., piece_placed: _Optional[_Union[XfutebolPiecePlaced, _Mapping]] = ..., lineup_confirmed: _Optional[_Union[XfutebolLineupConfirmed, _Mapping]] = ..., coin_tossed: _Optional[_Union[XfutebolCoinTossed, _Mapping]] = ..., kick_off: _Optional[_Union[XfutebolKickOff, _Mapping]] = ..., piece_moved: _Optional[_Union[XfutebolPieceMoved, _Mapping]] = ..., ball_taken: _Optional[_Union[XfutebolBallTaken, _Mapping]] = ..., ball_passed: _Optional[_Union[XfutebolBallPassed, _Mapping]] = ..., ball_loose: _Optional[_Union[XfutebolBallLoose, _Mapping]] = ..., ball_won: _Optional[_Union[XfutebolBallWon, _Mapping]] = ..., duel: _Optional[_Union[XfutebolDuel, _Mapping]] = ..., dribbled: _Optional[_Union[XfutebolDribbled, _Mapping]] = ..., shot_taken: _Optional[_Union[XfutebolShotTaken, _Mapping]] = ..., goal_scored: _Optional[_Union[XfutebolGoalScored, _Mapping]] = ..., foul: _Optional[_Union[XfutebolFoul, _Mapping]] = ..., yellow_card: _Optional[_Union[XfutebolYellowCard, _Mapping]] = ..., red_card: _Optional[_Union[XfutebolRedCard, _Mapping]] = ..., piece_sent_off: _Optional[_Union[XfutebolPieceSentOff, _Mapping]] = ..., free_kick_awarded: _Optional[_Union[XfutebolFreeKickAwarded, _Mapping]] = ..., penalty_awarded: _Optional[_Union[XfutebolPenaltyAwarded, _Mapping]] = ..., free_kick_taken: _Optional[_Union[XfutebolFreeKickTaken, _Mapping]] = ..., penalty_taken: _Optional[_Union[XfutebolPenaltyTaken, _Mapping]] = ..., sprint_used: _Optional[_Union[XfutebolSprintUsed, _Mapping]] = ..., piece_rested: _Optional[_Union[XfutebolPieceRested, _Mapping]] = ..., piece_returned: _Optional[_Union[XfutebolPieceReturned, _Mapping]] = ..., turn_ended: _Optional[_Union[XfutebolTurnEnded, _Mapping]] = ..., period_ended: _Optional[_Union[XfutebolPeriodEnded, _Mapping]] = ..., shootout_started: _Optional[_Union[XfutebolShootoutStarted, _Mapping]] = ..., shootout_kick: _Optional[_Union[XfutebolShootoutKick, _Mapping]] = ..., match_ended: _Optional[_Union[XfutebolMatchEnded, _Mapping]] = ...) -> None: ...

class XfutebolFormationChosen(_message.Message):
    __slots__ = ("seat", "formation")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FORMATION_FIELD_NUMBER: _ClassVar[int]
    seat: str
    formation: XfutebolFormation
    def __init__(self, seat: _Optional[str] = ..., formation: _Optional[_Union[XfutebolFormation, str]] = ...) -> None: ...

class XfutebolSpecialAssigned(_message.Message):
    __slots__ = ("piece_id", "special")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    SPECIAL_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    special: XfutebolSpecial
    def __init__(self, piece_id: _Optional[int] = ..., special: _Optional[_Union[XfutebolSpecial, str]] = ...) -> None: ...

class XfutebolPiecePlaced(_message.Message):
    __slots__ = ("piece_id", "to")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    to: _common_pb2.Square
    def __init__(self, piece_id: _Optional[int] = ..., to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class XfutebolLineupConfirmed(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: str
    def __init__(self, seat: _Optional[str] = ...) -> None: ...

class XfutebolCoinTossed(_message.Message):
    __slots__ = ("purpose", "winner")
    PURPOSE_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    purpose: XfutebolTossPurpose
    winner: str
    def __init__(self, purpose: _Optional[_Union[XfutebolTossPurpose, str]] = ..., winner: _Optional[str] = ...) -> None: ...

class XfutebolKickOff(_message.Message):
    __slots__ = ("seat", "half", "ball")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HALF_FIELD_NUMBER: _ClassVar[int]
    BALL_FIELD_NUMBER: _ClassVar[int]
    seat: str
    half: int
    ball: _common_pb2.Square
    def __init__(self, seat: _Optional[str] = ..., half: _Optional[int] = ..., ball: _Optional[_Union[_common_pb2.Square, _Mapping]] = ...) -> None: ...

class XfutebolPieceMoved(_message.Message):
    __slots__ = ("piece_id", "to", "sprint")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    SPRINT_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    to: _common_pb2.Square
    sprint: bool
    def __init__(self, piece_id: _Optional[int] = ..., to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., sprint: _Optional[bool] = ..., **kwargs) -> None: ...

class XfutebolBallTaken(_message.Message):
    __slots__ = ("piece_id", "square")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    square: _common_pb2.Square
    def __init__(self, piece_id: _Optional[int] = ..., square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ...) -> None: ...

class XfutebolBallPassed(_message.Message):
    __slots__ = ("piece_id", "to", "via", "long")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    VIA_FIELD_NUMBER: _ClassVar[int]
    LONG_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    to: _common_pb2.Square
    via: _common_pb2.Square
    long: bool
    def __init__(self, piece_id: _Optional[int] = ..., to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., via: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., long: _Optional[bool] = ..., **kwargs) -> None: ...

class XfutebolBallLoose(_message.Message):
    __slots__ = ("square",)
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    square: _common_pb2.Square
    def __init__(self, square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ...) -> None: ...

class XfutebolBallWon(_message.Message):
    __slots__ = ("piece_id",)
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    def __init__(self, piece_id: _Optional[int] = ...) -> None: ...

class XfutebolDuel(_message.Message):
    __slots__ = ("kind", "initiator_id", "initiator_total", "opponent_id", "opponent_total", "outcome")
    KIND_FIELD_NUMBER: _ClassVar[int]
    INITIATOR_ID_FIELD_NUMBER: _ClassVar[int]
    INITIATOR_TOTAL_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_ID_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_TOTAL_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    kind: XfutebolDuelKind
    initiator_id: int
    initiator_total: int
    opponent_id: int
    opponent_total: int
    outcome: XfutebolDuelOutcome
    def __init__(self, kind: _Optional[_Union[XfutebolDuelKind, str]] = ..., initiator_id: _Optional[int] = ..., initiator_total: _Optional[int] = ..., opponent_id: _Optional[int] = ..., opponent_total: _Optional[int] = ..., outcome: _Optional[_Union[XfutebolDuelOutcome, str]] = ...) -> None: ...

class XfutebolDribbled(_message.Message):
    __slots__ = ("piece_id", "to")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    to: _common_pb2.Square
    def __init__(self, piece_id: _Optional[int] = ..., to: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., **kwargs) -> None: ...

class XfutebolShotTaken(_message.Message):
    __slots__ = ("piece_id", "goal", "via", "long", "empty_goal")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    GOAL_FIELD_NUMBER: _ClassVar[int]
    VIA_FIELD_NUMBER: _ClassVar[int]
    LONG_FIELD_NUMBER: _ClassVar[int]
    EMPTY_GOAL_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    goal: _common_pb2.Square
    via: _common_pb2.Square
    long: bool
    empty_goal: bool
    def __init__(self, piece_id: _Optional[int] = ..., goal: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., via: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., long: _Optional[bool] = ..., empty_goal: _Optional[bool] = ..., **kwargs) -> None: ...

class XfutebolGoalScored(_message.Message):
    __slots__ = ("seat", "scorer_id", "score")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SCORER_ID_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    seat: str
    scorer_id: int
    score: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    def __init__(self, seat: _Optional[str] = ..., scorer_id: _Optional[int] = ..., score: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ...) -> None: ...

class XfutebolFoul(_message.Message):
    __slots__ = ("seat", "piece_id", "fouled_id", "square", "team_fouls")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    FOULED_ID_FIELD_NUMBER: _ClassVar[int]
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    TEAM_FOULS_FIELD_NUMBER: _ClassVar[int]
    seat: str
    piece_id: int
    fouled_id: int
    square: _common_pb2.Square
    team_fouls: int
    def __init__(self, seat: _Optional[str] = ..., piece_id: _Optional[int] = ..., fouled_id: _Optional[int] = ..., square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., team_fouls: _Optional[int] = ...) -> None: ...

class XfutebolYellowCard(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: str
    def __init__(self, seat: _Optional[str] = ...) -> None: ...

class XfutebolRedCard(_message.Message):
    __slots__ = ("seat", "removal")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REMOVAL_FIELD_NUMBER: _ClassVar[int]
    seat: str
    removal: bool
    def __init__(self, seat: _Optional[str] = ..., removal: _Optional[bool] = ...) -> None: ...

class XfutebolPieceSentOff(_message.Message):
    __slots__ = ("piece_id",)
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    def __init__(self, piece_id: _Optional[int] = ...) -> None: ...

class XfutebolFreeKickAwarded(_message.Message):
    __slots__ = ("seat", "square")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    seat: str
    square: _common_pb2.Square
    def __init__(self, seat: _Optional[str] = ..., square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ...) -> None: ...

class XfutebolPenaltyAwarded(_message.Message):
    __slots__ = ("seat", "square")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    seat: str
    square: _common_pb2.Square
    def __init__(self, seat: _Optional[str] = ..., square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ...) -> None: ...

class XfutebolFreeKickTaken(_message.Message):
    __slots__ = ("piece_id", "goal", "barrier_ids")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    GOAL_FIELD_NUMBER: _ClassVar[int]
    BARRIER_IDS_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    goal: _common_pb2.Square
    barrier_ids: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, piece_id: _Optional[int] = ..., goal: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., barrier_ids: _Optional[_Iterable[int]] = ...) -> None: ...

class XfutebolPenaltyTaken(_message.Message):
    __slots__ = ("piece_id", "keeper_id")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    KEEPER_ID_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    keeper_id: int
    def __init__(self, piece_id: _Optional[int] = ..., keeper_id: _Optional[int] = ...) -> None: ...

class XfutebolSprintUsed(_message.Message):
    __slots__ = ("seat", "count", "free")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    FREE_FIELD_NUMBER: _ClassVar[int]
    seat: str
    count: int
    free: bool
    def __init__(self, seat: _Optional[str] = ..., count: _Optional[int] = ..., free: _Optional[bool] = ...) -> None: ...

class XfutebolPieceRested(_message.Message):
    __slots__ = ("piece_id", "own_turns")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    OWN_TURNS_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    own_turns: int
    def __init__(self, piece_id: _Optional[int] = ..., own_turns: _Optional[int] = ...) -> None: ...

class XfutebolPieceReturned(_message.Message):
    __slots__ = ("piece_id", "square")
    PIECE_ID_FIELD_NUMBER: _ClassVar[int]
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    piece_id: int
    square: _common_pb2.Square
    def __init__(self, piece_id: _Optional[int] = ..., square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ...) -> None: ...

class XfutebolTurnEnded(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: str
    def __init__(self, seat: _Optional[str] = ...) -> None: ...

class XfutebolPeriodEnded(_message.Message):
    __slots__ = ("half", "score")
    HALF_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    half: int
    score: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    def __init__(self, half: _Optional[int] = ..., score: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ...) -> None: ...

class XfutebolShootoutStarted(_message.Message):
    __slots__ = ("first",)
    FIRST_FIELD_NUMBER: _ClassVar[int]
    first: str
    def __init__(self, first: _Optional[str] = ...) -> None: ...

class XfutebolShootoutKick(_message.Message):
    __slots__ = ("seat", "kicker_id", "scored", "goals")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KICKER_ID_FIELD_NUMBER: _ClassVar[int]
    SCORED_FIELD_NUMBER: _ClassVar[int]
    GOALS_FIELD_NUMBER: _ClassVar[int]
    seat: str
    kicker_id: int
    scored: bool
    goals: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    def __init__(self, seat: _Optional[str] = ..., kicker_id: _Optional[int] = ..., scored: _Optional[bool] = ..., goals: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ...) -> None: ...

class XfutebolMatchEnded(_message.Message):
    __slots__ = ("winner", "score", "reason")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    winner: str
    score: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    reason: str
    def __init__(self, winner: _Optional[str] = ..., score: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ..., reason: _Optional[str] = ...) -> None: ...

class XfutebolAttributes(_message.Message):
    __slots__ = ("speed", "skill", "strength", "goal", "defense")
    SPEED_FIELD_NUMBER: _ClassVar[int]
    SKILL_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    GOAL_FIELD_NUMBER: _ClassVar[int]
    DEFENSE_FIELD_NUMBER: _ClassVar[int]
    speed: int
    skill: int
    strength: int
    goal: int
    defense: int
    def __init__(self, speed: _Optional[int] = ..., skill: _Optional[int] = ..., strength: _Optional[int] = ..., goal: _Optional[int] = ..., defense: _Optional[int] = ...) -> None: ...

class XfutebolPiece(_message.Message):
    __slots__ = ("id", "seat", "number", "role", "slot", "attributes", "square", "resting_turns", "sent_off")
    ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NUMBER_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    ATTRIBUTES_FIELD_NUMBER: _ClassVar[int]
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    RESTING_TURNS_FIELD_NUMBER: _ClassVar[int]
    SENT_OFF_FIELD_NUMBER: _ClassVar[int]
    id: int
    seat: str
    number: int
    role: XfutebolRole
    slot: XfutebolRole
    attributes: XfutebolAttributes
    square: _common_pb2.Square
    resting_turns: int
    sent_off: bool
    def __init__(self, id: _Optional[int] = ..., seat: _Optional[str] = ..., number: _Optional[int] = ..., role: _Optional[_Union[XfutebolRole, str]] = ..., slot: _Optional[_Union[XfutebolRole, str]] = ..., attributes: _Optional[_Union[XfutebolAttributes, _Mapping]] = ..., square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., resting_turns: _Optional[int] = ..., sent_off: _Optional[bool] = ...) -> None: ...

class XfutebolShootout(_message.Message):
    __slots__ = ("first", "kicks", "goals")
    FIRST_FIELD_NUMBER: _ClassVar[int]
    KICKS_FIELD_NUMBER: _ClassVar[int]
    GOALS_FIELD_NUMBER: _ClassVar[int]
    first: str
    kicks: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    goals: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    def __init__(self, first: _Optional[str] = ..., kicks: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ..., goals: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ...) -> None: ...

class XfutebolDetails(_message.Message):
    __slots__ = ("phase", "winning_style", "half", "movements_played", "period_length", "score", "fouls", "yellow_cards", "red_cards", "sprints_used", "moved_this_turn", "free_kick", "home_formation", "away_formation", "kicked_off_first", "shootout", "pieces")
    PHASE_FIELD_NUMBER: _ClassVar[int]
    WINNING_STYLE_FIELD_NUMBER: _ClassVar[int]
    HALF_FIELD_NUMBER: _ClassVar[int]
    MOVEMENTS_PLAYED_FIELD_NUMBER: _ClassVar[int]
    PERIOD_LENGTH_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    FOULS_FIELD_NUMBER: _ClassVar[int]
    YELLOW_CARDS_FIELD_NUMBER: _ClassVar[int]
    RED_CARDS_FIELD_NUMBER: _ClassVar[int]
    SPRINTS_USED_FIELD_NUMBER: _ClassVar[int]
    MOVED_THIS_TURN_FIELD_NUMBER: _ClassVar[int]
    FREE_KICK_FIELD_NUMBER: _ClassVar[int]
    HOME_FORMATION_FIELD_NUMBER: _ClassVar[int]
    AWAY_FORMATION_FIELD_NUMBER: _ClassVar[int]
    KICKED_OFF_FIRST_FIELD_NUMBER: _ClassVar[int]
    SHOOTOUT_FIELD_NUMBER: _ClassVar[int]
    PIECES_FIELD_NUMBER: _ClassVar[int]
    phase: XfutebolPhase
    winning_style: str
    half: int
    movements_played: int
    period_length: int
    score: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    fouls: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    yellow_cards: _containers.RepeatedScalarFieldContainer[str]
    red_cards: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    sprints_used: _containers.RepeatedCompositeFieldContainer[_common_pb2.SeatScore]
    moved_this_turn: bool
    free_kick: _common_pb2.Square
    home_formation: XfutebolFormation
    away_formation: XfutebolFormation
    kicked_off_first: str
    shootout: XfutebolShootout
    pieces: _containers.RepeatedCompositeFieldContainer[XfutebolPiece]
    def __init__(self, phase: _Optional[_Union[XfutebolPhase, str]] = ..., winning_style: _Optional[str] = ..., half: _Optional[int] = ..., movements_played: _Optional[int] = ..., period_length: _Optional[int] = ..., score: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ..., fouls: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ..., yellow_cards: _Optional[_Iterable[str]] = ..., red_cards: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ..., sprints_used: _Optional[_Iterable[_Union[_common_pb2.SeatScore, _Mapping]]] = ..., moved_this_turn: _Optional[bool] = ..., free_kick: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., home_formation: _Optional[_Union[XfutebolFormation, str]] = ..., away_formation: _Optional[_Union[XfutebolFormation, str]] = ..., kicked_off_first: _Optional[str] = ..., shootout: _Optional[_Union[XfutebolShootout, _Mapping]] = ..., pieces: _Optional[_Iterable[_Union[XfutebolPiece, _Mapping]]] = ...) -> None: ...
