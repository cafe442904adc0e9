from pitchmate.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TurnStructure(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TURN_STRUCTURE_UNSPECIFIED: _ClassVar[TurnStructure]
    TURN_STRUCTURE_ALTERNATING: _ClassVar[TurnStructure]
    TURN_STRUCTURE_MULTI_ACTION: _ClassVar[TurnStructure]
    TURN_STRUCTURE_SIMULTANEOUS: _ClassVar[TurnStructure]

class OptionType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OPTION_TYPE_UNSPECIFIED: _ClassVar[OptionType]
    OPTION_TYPE_INT: _ClassVar[OptionType]
    OPTION_TYPE_BOOL: _ClassVar[OptionType]
    OPTION_TYPE_CHOICE: _ClassVar[OptionType]
TURN_STRUCTURE_UNSPECIFIED: TurnStructure
TURN_STRUCTURE_ALTERNATING: TurnStructure
TURN_STRUCTURE_MULTI_ACTION: TurnStructure
TURN_STRUCTURE_SIMULTANEOUS: TurnStructure
OPTION_TYPE_UNSPECIFIED: OptionType
OPTION_TYPE_INT: OptionType
OPTION_TYPE_BOOL: OptionType
OPTION_TYPE_CHOICE: OptionType

class ListVariantsRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListVariantsResponse(_message.Message):
    __slots__ = ("variants", "next_page_token")
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    variants: _containers.RepeatedCompositeFieldContainer[Variant]
    next_page_token: str
    def __init__(self, variants: _Optional[_Iterable[_Union[Variant, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class Variant(_message.Message):
    __slots__ = ("id", "name", "summary", "files", "ranks", "seats", "turn_structure", "max_actions_per_turn", "setup_phase", "chance", "hidden_information", "options", "rules_version", "position_notation", "draws_possible")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    FILES_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TURN_STRUCTURE_FIELD_NUMBER: _ClassVar[int]
    MAX_ACTIONS_PER_TURN_FIELD_NUMBER: _ClassVar[int]
    SETUP_PHASE_FIELD_NUMBER: _ClassVar[int]
    CHANCE_FIELD_NUMBER: _ClassVar[int]
    HIDDEN_INFORMATION_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    POSITION_NOTATION_FIELD_NUMBER: _ClassVar[int]
    DRAWS_POSSIBLE_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    summary: str
    files: int
    ranks: int
    seats: _containers.RepeatedScalarFieldContainer[str]
    turn_structure: TurnStructure
    max_actions_per_turn: int
    setup_phase: bool
    chance: bool
    hidden_information: bool
    options: _containers.RepeatedCompositeFieldContainer[OptionSpec]
    rules_version: str
    position_notation: str
    draws_possible: bool
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., summary: _Optional[str] = ..., files: _Optional[int] = ..., ranks: _Optional[int] = ..., seats: _Optional[_Iterable[str]] = ..., turn_structure: _Optional[_Union[TurnStructure, str]] = ..., max_actions_per_turn: _Optional[int] = ..., setup_phase: _Optional[bool] = ..., chance: _Optional[bool] = ..., hidden_information: _Optional[bool] = ..., options: _Optional[_Iterable[_Union[OptionSpec, _Mapping]]] = ..., rules_version: _Optional[str] = ..., position_notation: _Optional[str] = ..., draws_possible: _Optional[bool] = ...) -> None: ...

class OptionSpec(_message.Message):
    __slots__ = ("name", "description", "type", "default_value", "min", "max", "choices")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_VALUE_FIELD_NUMBER: _ClassVar[int]
    MIN_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    type: OptionType
    default_value: _common_pb2.OptionValue
    min: int
    max: int
    choices: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., type: _Optional[_Union[OptionType, str]] = ..., default_value: _Optional[_Union[_common_pb2.OptionValue, _Mapping]] = ..., min: _Optional[int] = ..., max: _Optional[int] = ..., choices: _Optional[_Iterable[str]] = ...) -> None: ...
