"""What the tests, the benchmarks (bench/) and the page's tests (tests/local) share, in one place:

- `driver.py`: the stand-in Discord driven as people use it (guilds, channels, members who click);
- `play.py`: a game on the stand-in as its players read it, and the bot's database read as
  another process would;
- `table.py`: a table of members playing a game by clicks and commands;
- `processes.py`: the bot as a process of its own, the databases it writes, free ports;
- `stores.py`: the databases of the store tests (a SQLite file, a PostgreSQL database per worker);
- `services.py`: the service on a store, a clock moved by hand, whole games played through it;
- `snapshots.py`: a stored game's snapshot made without a database;
- `browser.py`: Chromium as the page's tests launch it.

Benchmarks import it as the tests do, with the repository's root on `sys.path`."""
