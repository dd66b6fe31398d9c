"""A local stand-in for Discord, shaped as a small aiohttp application (server.py: the state in
state.py and objects.py, the gateway in gateway.py, the REST resources in rest/), and the local
table, `python -m bot play` (table.py, the page in page.py; docs/LOCAL.md). child.py starts the bot
as a child process. The bot and the stand-in talk only as the bot and Discord do: neither imports
the other. The tests and the benchmarks drive the stand-in through tests/support/driver.py."""
