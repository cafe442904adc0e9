"""The machinery of the Pitchmate starter bot: connecting, playing a match over one `Play`
stream, and following a bot's inbox in a league. A bot author changes `choose_action` in
`bot.py` and leaves this package alone."""
