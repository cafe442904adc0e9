import datetime

from google.protobuf import field_mask_pb2 as _field_mask_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ApiKeyScope(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    API_KEY_SCOPE_UNSPECIFIED: _ClassVar[ApiKeyScope]
    API_KEY_SCOPE_PLAY: _ClassVar[ApiKeyScope]
    API_KEY_SCOPE_CHALLENGE: _ClassVar[ApiKeyScope]
    API_KEY_SCOPE_MANAGE: _ClassVar[ApiKeyScope]
    API_KEY_SCOPE_OPERATOR: _ClassVar[ApiKeyScope]
API_KEY_SCOPE_UNSPECIFIED: ApiKeyScope
API_KEY_SCOPE_PLAY: ApiKeyScope
API_KEY_SCOPE_CHALLENGE: ApiKeyScope
API_KEY_SCOPE_MANAGE: ApiKeyScope
API_KEY_SCOPE_OPERATOR: ApiKeyScope

class Bot(_message.Message):
    __slots__ = ("bot_id", "name", "owner", "description", "variants", "max_concurrent", "daily_cap", "create_time")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    MAX_CONCURRENT_FIELD_NUMBER: _ClassVar[int]
    DAILY_CAP_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    name: str
    owner: str
    description: str
    variants: _containers.RepeatedScalarFieldContainer[str]
    max_concurrent: int
    daily_cap: int
    create_time: _timestamp_pb2.Timestamp
    def __init__(self, bot_id: _Optional[str] = ..., name: _Optional[str] = ..., owner: _Optional[str] = ..., description: _Optional[str] = ..., variants: _Optional[_Iterable[str]] = ..., max_concurrent: _Optional[int] = ..., daily_cap: _Optional[int] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ApiKey(_message.Message):
    __slots__ = ("key_id", "bot_id", "label", "scopes", "create_time", "revoke_time")
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    REVOKE_TIME_FIELD_NUMBER: _ClassVar[int]
    key_id: str
    bot_id: str
    label: str
    scopes: _containers.RepeatedScalarFieldContainer[ApiKeyScope]
    create_time: _timestamp_pb2.Timestamp
    revoke_time: _timestamp_pb2.Timestamp
    def __init__(self, key_id: _Optional[str] = ..., bot_id: _Optional[str] = ..., label: _Optional[str] = ..., scopes: _Optional[_Iterable[_Union[ApiKeyScope, str]]] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., revoke_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class CreateBotRequest(_message.Message):
    __slots__ = ("name", "owner", "description", "variants")
    NAME_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    name: str
    owner: str
    description: str
    variants: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., owner: _Optional[str] = ..., description: _Optional[str] = ..., variants: _Optional[_Iterable[str]] = ...) -> None: ...

class CreateBotResponse(_message.Message):
    __slots__ = ("bot", "key", "secret")
    BOT_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    bot: Bot
    key: ApiKey
    secret: str
    def __init__(self, bot: _Optional[_Union[Bot, _Mapping]] = ..., key: _Optional[_Union[ApiKey, _Mapping]] = ..., secret: _Optional[str] = ...) -> None: ...

class GetBotRequest(_message.Message):
    __slots__ = ("bot_id", "name")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    name: str
    def __init__(self, bot_id: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class GetBotResponse(_message.Message):
    __slots__ = ("bot",)
    BOT_FIELD_NUMBER: _ClassVar[int]
    bot: Bot
    def __init__(self, bot: _Optional[_Union[Bot, _Mapping]] = ...) -> None: ...

class ListBotsRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListBotsResponse(_message.Message):
    __slots__ = ("bots", "next_page_token")
    BOTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedCompositeFieldContainer[Bot]
    next_page_token: str
    def __init__(self, bots: _Optional[_Iterable[_Union[Bot, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class UpdateBotRequest(_message.Message):
    __slots__ = ("bot", "update_mask")
    BOT_FIELD_NUMBER: _ClassVar[int]
    UPDATE_MASK_FIELD_NUMBER: _ClassVar[int]
    bot: Bot
    update_mask: _field_mask_pb2.FieldMask
    def __init__(self, bot: _Optional[_Union[Bot, _Mapping]] = ..., update_mask: _Optional[_Union[_field_mask_pb2.FieldMask, _Mapping]] = ...) -> None: ...

class UpdateBotResponse(_message.Message):
    __slots__ = ("bot",)
    BOT_FIELD_NUMBER: _ClassVar[int]
    bot: Bot
    def __init__(self, bot: _Optional[_Union[Bot, _Mapping]] = ...) -> None: ...

class CreateApiKeyRequest(_message.Message):
    __slots__ = ("bot_id", "label", "scopes")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    label: str
    scopes: _containers.RepeatedScalarFieldContainer[ApiKeyScope]
    def __init__(self, bot_id: _Optional[str] = ..., label: _Optional[str] = ..., scopes: _Optional[_Iterable[_Union[ApiKeyScope, str]]] = ...) -> None: ...

class CreateApiKeyResponse(_message.Message):
    __slots__ = ("key", "secret")
    KEY_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    key: ApiKey
    secret: str
    def __init__(self, key: _Optional[_Union[ApiKey, _Mapping]] = ..., secret: _Optional[str] = ...) -> None: ...

class ListApiKeysRequest(_message.Message):
    __slots__ = ("bot_id", "page_size", "page_token")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    page_size: int
    page_token: str
    def __init__(self, bot_id: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListApiKeysResponse(_message.Message):
    __slots__ = ("keys", "next_page_token")
    KEYS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    keys: _containers.RepeatedCompositeFieldContainer[ApiKey]
    next_page_token: str
    def __init__(self, keys: _Optional[_Iterable[_Union[ApiKey, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class RevokeApiKeyRequest(_message.Message):
    __slots__ = ("key_id",)
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    key_id: str
    def __init__(self, key_id: _Optional[str] = ...) -> None: ...

class RevokeApiKeyResponse(_message.Message):
    __slots__ = ("key",)
    KEY_FIELD_NUMBER: _ClassVar[int]
    key: ApiKey
    def __init__(self, key: _Optional[_Union[ApiKey, _Mapping]] = ...) -> None: ...

class WhoAmIRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class WhoAmIResponse(_message.Message):
    __slots__ = ("key", "bot")
    KEY_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    key: ApiKey
    bot: Bot
    def __init__(self, key: _Optional[_Union[ApiKey, _Mapping]] = ..., bot: _Optional[_Union[Bot, _Mapping]] = ...) -> None: ...
