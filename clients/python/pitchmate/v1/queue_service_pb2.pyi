import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from pitchmate.v1 import challenge_service_pb2 as _challenge_service_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class TicketStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TICKET_STATUS_UNSPECIFIED: _ClassVar[TicketStatus]
    TICKET_STATUS_WAITING: _ClassVar[TicketStatus]
    TICKET_STATUS_PAIRED: _ClassVar[TicketStatus]
    TICKET_STATUS_LEFT: _ClassVar[TicketStatus]
TICKET_STATUS_UNSPECIFIED: TicketStatus
TICKET_STATUS_WAITING: TicketStatus
TICKET_STATUS_PAIRED: TicketStatus
TICKET_STATUS_LEFT: TicketStatus

class Ticket(_message.Message):
    __slots__ = ("ticket_id", "pool", "terms", "enter_time", "status", "match_id")
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    POOL_FIELD_NUMBER: _ClassVar[int]
    TERMS_FIELD_NUMBER: _ClassVar[int]
    ENTER_TIME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    pool: str
    terms: _challenge_service_pb2.MatchTerms
    enter_time: _timestamp_pb2.Timestamp
    status: TicketStatus
    match_id: str
    def __init__(self, ticket_id: _Optional[str] = ..., pool: _Optional[str] = ..., terms: _Optional[_Union[_challenge_service_pb2.MatchTerms, _Mapping]] = ..., enter_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., status: _Optional[_Union[TicketStatus, str]] = ..., match_id: _Optional[str] = ...) -> None: ...

class EnterQueueRequest(_message.Message):
    __slots__ = ("terms",)
    TERMS_FIELD_NUMBER: _ClassVar[int]
    terms: _challenge_service_pb2.MatchTerms
    def __init__(self, terms: _Optional[_Union[_challenge_service_pb2.MatchTerms, _Mapping]] = ...) -> None: ...

class EnterQueueResponse(_message.Message):
    __slots__ = ("ticket",)
    TICKET_FIELD_NUMBER: _ClassVar[int]
    ticket: Ticket
    def __init__(self, ticket: _Optional[_Union[Ticket, _Mapping]] = ...) -> None: ...

class LeaveQueueRequest(_message.Message):
    __slots__ = ("ticket_id",)
    TICKET_ID_FIELD_NUMBER: _ClassVar[int]
    ticket_id: str
    def __init__(self, ticket_id: _Optional[str] = ...) -> None: ...

class LeaveQueueResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListTicketsRequest(_message.Message):
    __slots__ = ("waiting_only", "page_size", "page_token")
    WAITING_ONLY_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    waiting_only: bool
    page_size: int
    page_token: str
    def __init__(self, waiting_only: _Optional[bool] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListTicketsResponse(_message.Message):
    __slots__ = ("tickets", "next_page_token")
    TICKETS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tickets: _containers.RepeatedCompositeFieldContainer[Ticket]
    next_page_token: str
    def __init__(self, tickets: _Optional[_Iterable[_Union[Ticket, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...
