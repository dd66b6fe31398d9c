"""The bot without Discord: settings, the store, the game service and its refusals, records and
ratings, and every word members read. Nothing here imports `discord`; the Discord side (the client,
the command sync and the cogs, in `bot/`) imports this package, never the other way round."""
