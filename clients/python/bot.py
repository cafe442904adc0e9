"""A Pitchmate bot. Make it yours by changing `choose_action`: everything else (connecting,
following the match, reconnecting, the league) is in the `starter` package.

    python bot.py --create kings-goal          # create a match and play one seat
    python bot.py --join MATCH_ID              # play the other seat
    python bot.py --api-key KEY --queue kings-goal --matches 3   # play in the league
    python bot.py --help
"""

import random


def choose_action(view, legal_actions):
    """Picks the action to play from `legal_actions` (never empty), given `view`, the match as
    this seat sees it.

    `view` is a `pitchmate.v1.MatchView`: the board (`view.board.pieces`, `view.board.ball`),
    whose turn it is (`view.turn`), the scores, and the game's own details
    (`view.soccer_chess`, `view.gridiron`, ...). Each legal action has `index`, `notation`
    (such as "Qxe17" or "end") and `action`, the typed form. Return one of `legal_actions`."""
    return random.choice(legal_actions)


if __name__ == "__main__":
    from starter.cli import main

    raise SystemExit(main(choose_action))
