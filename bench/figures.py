"""Where every benchmark keeps its figures: `bench/results/<name>.json`, one file per benchmark,
holding the figures of its latest run with the commit and the date they were taken at, the command
that made them and a note (say, that the machine was busy). docs/PERFORMANCE.md quotes these files
whole; `python bench/figures.py` copies them into it again, between its `<!-- bench/results/... -->`
markers.
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
ROOT = RESULTS.parents[1]
DOC = ROOT / "docs" / "PERFORMANCE.md"
QUOTED = re.compile(r"(<!-- (bench/results/[\w.-]+\.json) -->\n).*?(<!-- end -->)", re.S)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every benchmark shares: --json, --no-save, --note."""
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--no-save", dest="save", action="store_false", help=f"leave {RESULTS.relative_to(ROOT)}/ alone"
    )
    parser.add_argument("--note", default="", help="kept with the figures (e.g. 'taken under load')")


def commit() -> str:
    """The checkout's commit, marked `+changes` when files differ from it (figures of uncommitted code)."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
        return done.stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    changed = git("status", "--porcelain", "--untracked-files=no", "--", ".", ":!bench/results")
    return head + ("+changes" if changed else "")


def command(argv: list[str]) -> str:
    """The command that made the figures, its --note left out (the note is kept beside it)."""
    kept: list[str] = []
    skip = False
    for arg in argv[1:]:
        if skip or arg.startswith("--note="):
            skip = False
        elif arg == "--note":
            skip = True
        else:
            kept.append(arg)
    return shlex.join(["python", f"bench/{Path(argv[0]).name}", *kept])


def save(name: str, figures: dict[str, Any], args: argparse.Namespace) -> Path | None:
    """Write `figures` to bench/results/<name>.json (unless --no-save); returns the file."""
    if not args.save:
        return None
    RESULTS.mkdir(exist_ok=True)
    record = {
        "benchmark": name,
        "commit": commit(),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": command(sys.argv),
        "note": args.note,
        "figures": figures,
    }
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(record, indent=2) + "\n")
    return path


def show(figures: dict[str, Any], args: argparse.Namespace, width: int = 22) -> None:
    """Print the figures: one JSON object with --json, else one per line."""
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>{width}}: {value}")


def quote(match: re.Match[str]) -> str:
    """A results file as the doc quotes it: whole, or a line saying it is not there yet."""
    path = ROOT / match[2]
    body = f"```json\n{path.read_text()}```\n" if path.exists() else "(not measured yet)\n"
    return match[1] + body + match[3]


def main() -> None:
    """Copy every results file docs/PERFORMANCE.md names into it, whole."""
    text = DOC.read_text()
    DOC.write_text(QUOTED.sub(quote, text))
    print(f"{DOC.relative_to(ROOT)}: {len(QUOTED.findall(text))} results files quoted")


if __name__ == "__main__":
    main()
