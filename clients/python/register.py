"""Registers a bot on a Pitchmate server (BotService.CreateBot) and prints its first API key,
which the server shows only this once:

    python register.py my-bot --owner "Ada <ada@example.org>"

Then run it in the league with `python bot.py --api-key KEY --queue VARIANT`."""

import argparse
import sys

import grpc

from pitchmate.v1 import bot_service_pb2, bot_service_pb2_grpc
from starter.connection import DEFAULT_SERVER, describe_error


def main() -> int:
    parser = argparse.ArgumentParser(description="Registers a bot and prints its first API key.")
    parser.add_argument("name", help="1 to 32 letters, digits, - and _; unique on the server")
    parser.add_argument("--owner", default="", help="who runs the bot: a person, a team, an address")
    parser.add_argument("--description", default="")
    parser.add_argument(
        "--server", default=DEFAULT_SERVER, metavar="HOST:PORT", help=f"the server (default {DEFAULT_SERVER})"
    )
    args = parser.parse_args()
    with grpc.insecure_channel(args.server) as channel:
        try:
            created = bot_service_pb2_grpc.BotServiceStub(channel).CreateBot(
                bot_service_pb2.CreateBotRequest(
                    name=args.name, owner=args.owner, description=args.description
                )
            )
        except grpc.RpcError as error:
            print(f"register.py: {describe_error(error)}", file=sys.stderr)
            return 1
    print(f"bot {created.bot.name} registered (id {created.bot.bot_id})")
    print(f"API key, shown only this once: {created.secret}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
