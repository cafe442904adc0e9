"""The starter bot's command line: play one match (create it, join it, or take up a seat whose
token you hold) or run as a league bot with an API key."""

import argparse
import asyncio
import functools
import sys
from collections.abc import Sequence

import grpc

from pitchmate.v1 import (
    challenge_service_pb2,
    common_pb2,
    match_service_pb2,
    match_service_pb2_grpc,
)

from .connection import DEFAULT_SERVER, GaveUp, bearer, connect, describe_error
from .league import run_league
from .play import ActionRefused, BadChoice, ChooseAction, describe_result, play_match

say = functools.partial(print, flush=True)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="bot.py",
        description="A Pitchmate bot that plays whatever choose_action picks from the legal actions.",
        epilog="Without --create, --join or --match, an --api-key runs the bot in the league.",
    )
    parser.add_argument(
        "--server", default=DEFAULT_SERVER, metavar="HOST:PORT", help=f"the server (default {DEFAULT_SERVER})"
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--create", metavar="VARIANT", help="create a match of this variant, print its id, and play one seat"
    )
    mode.add_argument("--join", metavar="MATCH", help="join this match and play one seat")
    mode.add_argument("--match", metavar="MATCH", help="play the seat of this match that --seat-token holds")
    parser.add_argument(
        "--seat-token", metavar="TOKEN", help="with --match: the seat token JoinMatch returned"
    )
    parser.add_argument(
        "--seat", default="", help="with --create or --join: the seat to take (default: the first free one)"
    )
    parser.add_argument(
        "--name", default="python-starter", help="with --create or --join: the player name others see"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a match option for --create or --queue, repeatable (e.g. --option moves_per_half=10); "
        "ListVariants lists them",
    )
    parser.add_argument(
        "--api-key",
        metavar="KEY",
        help="a bot's API key (BotService.CreateBot answers the first): alone, plays in the league; "
        "with --create or --join, takes the seat as the bot",
    )
    parser.add_argument(
        "--queue", metavar="VARIANT", help="league: wait in the matchmaking queue for this variant"
    )
    parser.add_argument(
        "--rated", action="store_true", help="league: wait in the rated pool (default: casual)"
    )
    parser.add_argument(
        "--matches",
        type=int,
        default=1,
        metavar="N",
        help="league: stop after N matches have ended (default 1)",
    )
    args = parser.parse_args(argv)
    if args.match and not args.seat_token:
        parser.error("--match needs --seat-token")
    if not (args.create or args.join or args.match or args.api_key):
        parser.error(
            "say --create VARIANT, --join MATCH, --match MATCH --seat-token TOKEN, "
            "or --api-key KEY (see --help)"
        )
    if args.matches < 1:
        parser.error("--matches must be at least 1")
    try:
        args.options = parse_options(args.option)
    except ValueError as error:
        parser.error(str(error))
    return args


def parse_options(pairs: Sequence[str]) -> dict[str, common_pb2.OptionValue]:
    """`name=value` pairs as option values: a whole number, true or false, or text."""
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise ValueError(f"option {pair!r} is not NAME=VALUE")
        if value.lstrip("-").isdigit():
            options[name] = common_pb2.OptionValue(int_value=int(value))
        elif value in ("true", "false"):
            options[name] = common_pb2.OptionValue(bool_value=value == "true")
        else:
            options[name] = common_pb2.OptionValue(string_value=value)
    return options


async def run(args: argparse.Namespace, choose_action: ChooseAction) -> None:
    channel = connect(args.server)
    try:
        if args.create or args.join:
            await play_one(channel, args, choose_action)
        elif args.match:
            await play_seat(channel, args.match, args.seat_token, choose_action)
        else:
            await play_league(channel, args, choose_action)
    finally:
        await channel.close()


async def play_one(channel: grpc.aio.Channel, args: argparse.Namespace, choose_action: ChooseAction) -> None:
    matches = match_service_pb2_grpc.MatchServiceStub(channel)
    match_id = args.join
    if args.create:
        created = await matches.CreateMatch(
            match_service_pb2.CreateMatchRequest(variant_id=args.create, options=args.options)
        )
        match_id = created.match.match_id
        server = "" if args.server == DEFAULT_SERVER else f" --server {args.server}"
        join = f"python bot.py{server} --join {match_id}"
        say(f"match {match_id} ({args.create}) created; a second bot joins it with: {join}")
    if args.api_key:
        # A bot plays under its own name, with its key in place of a seat token.
        joined = await matches.JoinMatch(
            match_service_pb2.JoinMatchRequest(match_id=match_id, seat=args.seat),
            metadata=bearer(args.api_key),
        )
        token = args.api_key
    else:
        joined = await matches.JoinMatch(
            match_service_pb2.JoinMatchRequest(match_id=match_id, seat=args.seat, player_name=args.name)
        )
        token = joined.seat_token
    await play_seat(channel, match_id, token, choose_action, seat=joined.seat)


async def play_seat(channel, match_id: str, token: str, choose_action: ChooseAction, seat: str = "") -> None:
    if not seat:
        matches = match_service_pb2_grpc.MatchServiceStub(channel)
        seat = (
            await matches.GetMatch(
                match_service_pb2.GetMatchRequest(match_id=match_id), metadata=bearer(token)
            )
        ).view.viewer_seat
    say(f"playing seat {seat} of match {match_id}")
    result = await play_match(channel, match_id, token, choose_action)
    verdict = "a draw" if not result.winner else ("won" if result.winner == seat else "lost")
    say(f"match {match_id}, seat {seat}: {verdict}; {describe_result(result)}")


async def play_league(
    channel: grpc.aio.Channel, args: argparse.Namespace, choose_action: ChooseAction
) -> None:
    queue = None
    if args.queue:
        queue = challenge_service_pb2.MatchTerms(
            variant_id=args.queue, options=args.options, rated=args.rated
        )
    waiting = f", waiting in the queue for {args.queue}" if args.queue else ""
    say(f"league bot: playing until {args.matches} of its matches have ended{waiting}")
    report = await run_league(
        channel, args.api_key, choose_action, matches=args.matches, queue=queue, say=say
    )
    ended, failed = len(report.finished), len(report.failed)
    say(f"league bot: done; matches ended: {ended}, not played to their end: {failed}")


def main(choose_action: ChooseAction, argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        asyncio.run(run(args, choose_action))
    except KeyboardInterrupt:
        return 130
    except grpc.RpcError as error:
        print(f"bot.py: {describe_error(error)}", file=sys.stderr)
        return 1
    except (ActionRefused, BadChoice, GaveUp) as error:
        print(f"bot.py: {error}", file=sys.stderr)
        return 1
    return 0
