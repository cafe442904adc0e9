from pitchmate.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ZoneKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ZONE_KIND_UNSPECIFIED: _ClassVar[ZoneKind]
    ZONE_KIND_GOAL: _ClassVar[ZoneKind]
    ZONE_KIND_SMALL_AREA: _ClassVar[ZoneKind]
    ZONE_KIND_TEAM_AREA: _ClassVar[ZoneKind]
    ZONE_KIND_KEEPER_BOX: _ClassVar[ZoneKind]
    ZONE_KIND_INNER_AREA: _ClassVar[ZoneKind]
    ZONE_KIND_GOAL_AREA: _ClassVar[ZoneKind]
    ZONE_KIND_PENALTY_AREA: _ClassVar[ZoneKind]
    ZONE_KIND_END_ZONE: _ClassVar[ZoneKind]
ZONE_KIND_UNSPECIFIED: ZoneKind
ZONE_KIND_GOAL: ZoneKind
ZONE_KIND_SMALL_AREA: ZoneKind
ZONE_KIND_TEAM_AREA: ZoneKind
ZONE_KIND_KEEPER_BOX: ZoneKind
ZONE_KIND_INNER_AREA: ZoneKind
ZONE_KIND_GOAL_AREA: ZoneKind
ZONE_KIND_PENALTY_AREA: ZoneKind
ZONE_KIND_END_ZONE: ZoneKind

class BoardView(_message.Message):
    __slots__ = ("files", "ranks", "zones", "pieces", "ball")
    FILES_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    ZONES_FIELD_NUMBER: _ClassVar[int]
    PIECES_FIELD_NUMBER: _ClassVar[int]
    BALL_FIELD_NUMBER: _ClassVar[int]
    files: int
    ranks: int
    zones: _containers.RepeatedCompositeFieldContainer[Zone]
    pieces: _containers.RepeatedCompositeFieldContainer[Piece]
    ball: Ball
    def __init__(self, files: _Optional[int] = ..., ranks: _Optional[int] = ..., zones: _Optional[_Iterable[_Union[Zone, _Mapping]]] = ..., pieces: _Optional[_Iterable[_Union[Piece, _Mapping]]] = ..., ball: _Optional[_Union[Ball, _Mapping]] = ...) -> None: ...

class Zone(_message.Message):
    __slots__ = ("kind", "seat", "squares")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SQUARES_FIELD_NUMBER: _ClassVar[int]
    kind: ZoneKind
    seat: str
    squares: _containers.RepeatedCompositeFieldContainer[_common_pb2.Square]
    def __init__(self, kind: _Optional[_Union[ZoneKind, str]] = ..., seat: _Optional[str] = ..., squares: _Optional[_Iterable[_Union[_common_pb2.Square, _Mapping]]] = ...) -> None: ...

class Piece(_message.Message):
    __slots__ = ("id", "seat", "kind", "symbol", "square", "spot")
    ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SYMBOL_FIELD_NUMBER: _ClassVar[int]
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    SPOT_FIELD_NUMBER: _ClassVar[int]
    id: int
    seat: str
    kind: str
    symbol: str
    square: _common_pb2.Square
    spot: str
    def __init__(self, id: _Optional[int] = ..., seat: _Optional[str] = ..., kind: _Optional[str] = ..., symbol: _Optional[str] = ..., square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., spot: _Optional[str] = ...) -> None: ...

class Ball(_message.Message):
    __slots__ = ("square", "holder_id", "possible_holder_ids")
    SQUARE_FIELD_NUMBER: _ClassVar[int]
    HOLDER_ID_FIELD_NUMBER: _ClassVar[int]
    POSSIBLE_HOLDER_IDS_FIELD_NUMBER: _ClassVar[int]
    square: _common_pb2.Square
    holder_id: int
    possible_holder_ids: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, square: _Optional[_Union[_common_pb2.Square, _Mapping]] = ..., holder_id: _Optional[int] = ..., possible_holder_ids: _Optional[_Iterable[int]] = ...) -> None: ...
