from pitchmate.v1 import chessyball_pb2 as _chessyball_pb2
from pitchmate.v1 import gridiron_pb2 as _gridiron_pb2
from pitchmate.v1 import kings_goal_pb2 as _kings_goal_pb2
from pitchmate.v1 import soccer_chess_pb2 as _soccer_chess_pb2
from pitchmate.v1 import xfutebol_pb2 as _xfutebol_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Action(_message.Message):
    __slots__ = ("soccer_chess", "chessyball", "kings_goal", "xfutebol", "gridiron")
    SOCCER_CHESS_FIELD_NUMBER: _ClassVar[int]
    CHESSYBALL_FIELD_NUMBER: _ClassVar[int]
    KINGS_GOAL_FIELD_NUMBER: _ClassVar[int]
    XFUTEBOL_FIELD_NUMBER: _ClassVar[int]
    GRIDIRON_FIELD_NUMBER: _ClassVar[int]
    soccer_chess: _soccer_chess_pb2.SoccerChessAction
    chessyball: _chessyball_pb2.ChessyballAction
    kings_goal: _kings_goal_pb2.KingsGoalAction
    xfutebol: _xfutebol_pb2.XfutebolAction
    gridiron: _gridiron_pb2.GridironAction
    def __init__(self, soccer_chess: _Optional[_Union[_soccer_chess_pb2.SoccerChessAction, _Mapping]] = ..., chessyball: _Optional[_Union[_chessyball_pb2.ChessyballAction, _Mapping]] = ..., kings_goal: _Optional[_Union[_kings_goal_pb2.KingsGoalAction, _Mapping]] = ..., xfutebol: _Optional[_Union[_xfutebol_pb2.XfutebolAction, _Mapping]] = ..., gridiron: _Optional[_Union[_gridiron_pb2.GridironAction, _Mapping]] = ...) -> None: ...

class LegalAction(_message.Message):
    __slots__ = ("index", "action", "notation")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    index: int
    action: Action
    notation: str
    def __init__(self, index: _Optional[int] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., notation: _Optional[str] = ...) -> None: ...
