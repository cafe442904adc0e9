"""Plays one seat of a match over one `Play` stream until the match ends, riding out lost
connections without acting twice (docs/api.md, "Playing over one stream" and "Idempotency")."""

import asyncio
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import grpc

from pitchmate.v1 import action_pb2, common_pb2, match_service_pb2, match_service_pb2_grpc

from .connection import Backoff, ConnectionLost, bearer

ChooseAction = Callable[
    [match_service_pb2.MatchView, Sequence[action_pb2.LegalAction]], action_pb2.LegalAction
]

# The server sends a heartbeat after 15 s of quiet by default: a stream silent four times as
# long is taken for a dead connection and opened again.
SILENCE_LIMIT_SECS = 60.0

# Refusals that mean the match moved on before the action arrived (the other seat acted in a
# simultaneous phase, a clock ran out, the match ended): the stream brings what happened and,
# if the seat is still to act, a new prompt.
_MOVED_ON = {"STALE_VERSION", "NOT_YOUR_TURN", "MATCH_NOT_ACTIVE"}


class BadChoice(Exception):
    """`choose_action` returned something that is not one of the legal actions it was given."""


class ActionRefused(Exception):
    """The server refused an action for a reason retrying cannot mend (an action that is not
    legal, a malformed one): `choose_action` returned something the server would not take."""


@dataclass
class PlayRecord:
    """What a play loop saw, for printing and for checking."""

    # Every event seq read, in order, over all connections.
    seqs: list[int] = field(default_factory=list)
    # Each accepted action: its client action id and whether it had been applied before.
    accepted: list[tuple[str, bool]] = field(default_factory=list)
    # Each refused action: its client action id and the reason.
    refused: list[tuple[str, str]] = field(default_factory=list)
    # Streams opened after the first.
    reconnects: int = 0
    result: common_pb2.MatchResult | None = None


async def play_match(
    channel: grpc.aio.Channel,
    match_id: str,
    token: str,
    choose_action: ChooseAction,
    *,
    backoff: Backoff | None = None,
    silence_limit: float = SILENCE_LIMIT_SECS,
    record: PlayRecord | None = None,
) -> common_pb2.MatchResult:
    """Plays the seat that `token` (a seat token, or a bot's API key for a seat the bot holds)
    acts for in `match_id`, choosing with `choose_action`, and returns the match's result.

    When the connection breaks or the server restarts, waits as `backoff` says and opens the
    stream again after the last event seen; unanswered actions are sent again with the same
    client action id, so the server applies each at most once."""
    player = _Player(channel, match_id, token, choose_action, silence_limit, record or PlayRecord())
    backoff = backoff or Backoff()
    while True:
        try:
            return await player.follow(backoff)
        except (grpc.aio.AioRpcError, ConnectionLost) as error:
            await backoff.wait(error)
            player.record.reconnects += 1


class _Player:
    def __init__(self, channel, match_id, token, choose_action, silence_limit, record):
        self.matches = match_service_pb2_grpc.MatchServiceStub(channel)
        self.match_id = match_id
        self.metadata = bearer(token)
        self.choose_action = choose_action
        self.silence_limit = silence_limit
        self.record = record
        # The newest event seen: a stream opened again starts after it.
        self.last_seq = 0
        # Actions sent and not yet answered, oldest first: the server answers them in order.
        self.in_flight: deque[match_service_pb2.PlayAction] = deque()

    async def follow(self, backoff: Backoff) -> common_pb2.MatchResult:
        """One connection's worth of play, until the match ends or the stream fails."""
        call = self.matches.Play(metadata=self.metadata)
        try:
            return await self._play(call, backoff)
        except asyncio.InvalidStateError:
            # A write to a stream that had already ended without an error.
            raise ConnectionLost(f"match {self.match_id}: the stream ended")
        finally:
            call.cancel()

    async def _play(self, call, backoff: Backoff) -> common_pb2.MatchResult:
        # A prompt only says when to act: the actions choose_action gets come with the view
        # from GetLegalActions, so prompts need not spell them out typed as well.
        open_ = match_service_pb2.PlayOpen(
            match_id=self.match_id,
            after_seq=self.last_seq,
            prompt_detail=match_service_pb2.ACTION_DETAIL_NOTATION,
        )
        await call.write(match_service_pb2.PlayRequest(open=open_))
        # Whatever was sent before the cut and not answered goes again under the same id:
        # answered as a duplicate if it had been applied, applied now if it had not.
        for action in self.in_flight:
            await call.write(match_service_pb2.PlayRequest(act=action))
        first = True
        while True:
            response = await self._read(call)
            if first:
                backoff.succeeded()
                first = False
            item = response.WhichOneof("item")
            if item == "event":
                result = self._event(response.event)
                if result is not None:
                    await self._drain(call)
                    return result
            elif item == "your_turn":
                await self._your_turn(call, response.your_turn)
            elif item == "acted":
                await self._acted(call, response.acted)

    async def _read(self, call) -> match_service_pb2.PlayResponse:
        try:
            response = await asyncio.wait_for(call.read(), self.silence_limit)
        except TimeoutError:
            raise ConnectionLost(
                f"match {self.match_id}: no word from the server for {self.silence_limit:.0f} s"
            )
        # A stream that failed raises its status; one the server closed before the match ended
        # (it shuts down) goes on after its restart.
        if response is grpc.aio.EOF:
            raise ConnectionLost(f"match {self.match_id}: the server closed the stream")
        return response

    def _event(self, event) -> common_pb2.MatchResult | None:
        self.last_seq = event.seq
        self.record.seqs.append(event.seq)
        if event.WhichOneof("kind") == "match_ended":
            self.record.result = event.match_ended.result
            return event.match_ended.result
        return None

    async def _drain(self, call) -> None:
        """After the match ended: reads what the server still sends (the answer to the action
        that ended it) until it closes the stream."""
        while self.in_flight:
            try:
                response = await asyncio.wait_for(call.read(), self.silence_limit)
            except (TimeoutError, grpc.aio.AioRpcError):
                return
            if response is grpc.aio.EOF:
                return
            if response.WhichOneof("item") == "acted":
                await self._acted(call, response.acted)

    async def _your_turn(self, call, prompt) -> None:
        # An action for this version is on its way (sent again after a reconnect, say): its
        # answer is coming.
        if any(action.expected_version == prompt.version for action in self.in_flight):
            return
        legal = await self.matches.GetLegalActions(
            match_service_pb2.GetLegalActionsRequest(match_id=self.match_id), metadata=self.metadata
        )
        # The match may have moved on since the prompt; the listing is the newer word.
        if not legal.actions or any(a.expected_version == legal.version for a in self.in_flight):
            return
        actions = list(legal.actions)
        choice = self.choose_action(legal.view, actions)
        if choice not in actions:
            raise BadChoice(
                f"choose_action returned {choice!r}, which is not one of the legal actions it was given"
            )
        action = match_service_pb2.PlayAction(
            expected_version=legal.version,
            # One id per version the seat acts at: an action sent again after a cut is known as
            # the same one, and the seat's versions never repeat.
            client_action_id=f"v{legal.version}",
            index=choice.index,
        )
        self.in_flight.append(action)
        await call.write(match_service_pb2.PlayRequest(act=action))

    async def _acted(self, call, outcome) -> None:
        action = next((a for a in self.in_flight if a.client_action_id == outcome.client_action_id), None)
        if action is None:
            return
        self.in_flight.remove(action)
        if outcome.WhichOneof("result") == "accepted":
            self.record.accepted.append((outcome.client_action_id, outcome.accepted.duplicate))
            return
        refused = outcome.refused
        self.record.refused.append((outcome.client_action_id, refused.reason))
        if refused.reason == "RATE_LIMITED":
            delay = refused.retry_delay.ToTimedelta().total_seconds() or 0.1
            await asyncio.sleep(delay)
            self.in_flight.appendleft(action)
            await call.write(match_service_pb2.PlayRequest(act=action))
        elif refused.reason not in _MOVED_ON:
            raise ActionRefused(
                f"match {self.match_id}: the server refused action {outcome.client_action_id} "
                f"({refused.reason}): {refused.message}"
            )


def describe_result(result: common_pb2.MatchResult) -> str:
    """One line for people: who won, the score and why."""
    winner = f"{result.winner} wins" if result.winner else "no winner"
    scores = " - ".join(f"{s.seat} {s.score}" for s in result.scores)
    reason = common_pb2.ResultReason.Name(result.reason).removeprefix("RESULT_REASON_").lower()
    detail = f", {result.detail}" if result.detail else ""
    return f"{winner}, {scores} ({reason}{detail})"
