"""The channel to a Pitchmate server, the credentials each call carries, what an error says,
and how long to wait before trying again after the connection is lost."""

import asyncio
import random
import time

import grpc
from google.rpc import error_details_pb2, status_pb2

DEFAULT_SERVER = "127.0.0.1:50051"

# The server answers messages of up to 16 MiB (`limits.max_response_bytes`); gRPC's Python
# default of 4 MiB would refuse a long match's replay.
_MAX_MESSAGE_BYTES = 16 * 1024 * 1024

_CHANNEL_OPTIONS = [
    ("grpc.max_receive_message_length", _MAX_MESSAGE_BYTES),
    # gRPC dials a lost server again after 1 s at first by default; the play loop's own backoff
    # decides how patient to be, so the channel should be ready to try again sooner.
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.min_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 5000),
]


def connect(address: str) -> grpc.aio.Channel:
    """A channel to the server at `address` (`host:port`, cleartext HTTP/2 as the server
    speaks it). Connecting happens on the first call."""
    return grpc.aio.insecure_channel(address, options=_CHANNEL_OPTIONS)


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    """Call metadata presenting a seat token or a bot's API key."""
    return (("authorization", f"Bearer {token}"),)


def error_reason(error: grpc.RpcError) -> str | None:
    """The stable reason the server gave for an error (`ErrorInfo.reason`, such as
    `ALREADY_SEATED`), or None when the error did not come from the server's judgement."""
    details = _status_details(error)
    if details is None:
        return None
    for detail in details.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info.reason
    return None


def describe_error(error: BaseException) -> str:
    """One line for people: the code, the server's reason and its message."""
    # Both the asyncio errors and the blocking API's errors are calls with a status.
    if isinstance(error, grpc.RpcError) and hasattr(error, "code"):
        reason = error_reason(error)
        code = error.code().name
        label = f"{code} / {reason}" if reason else code
        return f"{label}: {error.details()}"
    return str(error) or type(error).__name__


def is_transient(error: BaseException) -> bool:
    """Whether trying again may succeed: the server is unreachable or restarting, or the
    connection broke under the call.

    The server attaches an `ErrorInfo` to every error it gives, so a status without one, of a
    code that transports produce (a reset stream, a dropped connection), did not come from its
    judgement of the request. `UNAVAILABLE` always is, the server's own `MATCH_UNAVAILABLE`
    while it shuts down included."""
    if isinstance(error, (ConnectionLost, asyncio.TimeoutError)):
        return True
    if not isinstance(error, grpc.aio.AioRpcError):
        return False
    code = error.code()
    if code == grpc.StatusCode.UNAVAILABLE:
        return True
    if code in (
        grpc.StatusCode.UNKNOWN,
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.CANCELLED,
        grpc.StatusCode.ABORTED,
    ):
        return error_reason(error) is None
    return False


class ConnectionLost(Exception):
    """A stream ended or went silent before what it was following was over."""


class GaveUp(Exception):
    """The server stayed unreachable for longer than the backoff's patience."""


class Backoff:
    """The waits between attempts after failures: from `first_delay` seconds, times
    `multiplier` each time, up to `max_delay`, each shortened by a random share of at most
    `jitter` (so bots cut off together do not all come back at the same instant). Gives up once
    failures have gone on for `give_up_after` seconds without a success in between."""

    def __init__(
        self,
        first_delay: float = 0.1,
        max_delay: float = 5.0,
        multiplier: float = 2.0,
        jitter: float = 0.5,
        give_up_after: float | None = 60.0,
    ) -> None:
        self.first_delay = first_delay
        self.max_delay = max_delay
        self.multiplier = max(multiplier, 1.0)
        self.jitter = min(max(jitter, 0.0), 1.0)
        self.give_up_after = give_up_after
        self._next_delay = first_delay
        self._failing_since: float | None = None
        self._attempts = 0

    def succeeded(self) -> None:
        """A call got through: the next failure starts again from the first delay."""
        self._next_delay = self.first_delay
        self._failing_since = None
        self._attempts = 0

    async def wait(self, error: BaseException) -> None:
        """Sleeps before the next attempt after `error`. Raises `error` again at once when
        retrying cannot help, and `GaveUp` when patience has run out."""
        if not is_transient(error):
            raise error
        now = time.monotonic()
        if self._failing_since is None:
            self._failing_since = now
        self._attempts += 1
        delay = min(self._next_delay, self.max_delay)
        self._next_delay = min(delay * self.multiplier, self.max_delay)
        delay *= 1.0 - self.jitter * random.random()
        if self.give_up_after is not None:
            left = self.give_up_after - (now - self._failing_since)
            if left <= 0:
                raise GaveUp(
                    f"gave up after {self._attempts} attempts in {now - self._failing_since:.1f} s; "
                    f"last error: {describe_error(error)}"
                ) from error
            # One last attempt right at the limit rather than a wait past it.
            delay = min(delay, left)
        await asyncio.sleep(delay)


def _status_details(error: grpc.RpcError) -> status_pb2.Status | None:
    trailing = error.trailing_metadata() if hasattr(error, "trailing_metadata") else None
    for key, value in trailing or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status()
            status.ParseFromString(value)
            return status
    return None
