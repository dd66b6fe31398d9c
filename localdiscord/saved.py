"""The local table's Discord kept in an SQLite file, so that a restart finds it as it was.

What a bot would find on Discord after a restart is kept: the application and its synced commands,
the users, the guild with its members, channels and threads, and every message that is not
ephemeral, with its attachments. Interactions, gateway sessions and ephemeral answers are not:
Discord forgets them too. `Saved.save` writes the whole state in one transaction; attachments
are written once and deleted when no kept message uses them any more.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from localdiscord.objects import (
    PUBLIC_THREAD,
    Attachment,
    ChannelRecord,
    GuildRecord,
    MemberRecord,
    Message,
    User,
)
from localdiscord.state import State

Json = dict[str, Any]
SCHEMA = """
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS attachments (
    id INTEGER PRIMARY KEY, filename TEXT NOT NULL, content_type TEXT NOT NULL, data BLOB NOT NULL
);
"""
VERSION = 1


class Saved:
    """One state file; `load` fills a new server from it, `save` writes a server into it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.db = sqlite3.connect(path)
        self.db.executescript(SCHEMA)
        self.written: set[int] = {row[0] for row in self.db.execute("SELECT id FROM attachments")}

    def close(self) -> None:
        self.db.close()

    def load(self, server: State) -> bool:
        """Fill `server` (new, not started) from the file; False when the file holds nothing yet."""
        row = self.db.execute("SELECT value FROM state WHERE key = 'discord'").fetchone()
        if row is None:
            return False
        state = json.loads(row[0])
        if state.get("version") != VERSION:
            raise ValueError(f"{self.path} was written by another version (delete it to start afresh)")
        attachments = {
            ident: Attachment(ident, filename, bytes(data), content_type)
            for ident, filename, content_type, data in self.db.execute("SELECT * FROM attachments")
        }
        restore(server, state, attachments)
        return True

    def save(self, server: State) -> None:
        state = dump(server)
        kept = {a.id: a for m in live_messages(server) for a in m.attachments}
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO state (key, value) VALUES ('discord', ?)", (json.dumps(state),)
            )
            self.db.executemany(
                "INSERT OR IGNORE INTO attachments (id, filename, content_type, data) VALUES (?, ?, ?, ?)",
                [
                    (a.id, a.filename, a.content_type, a.data)
                    for i, a in kept.items()
                    if i not in self.written
                ],
            )
            gone = self.written - kept.keys()
            self.db.executemany("DELETE FROM attachments WHERE id = ?", [(i,) for i in gone])
        self.written = set(kept)

    def page_owners(self) -> dict[int, str]:
        """Which browser holds each member of the page (members.py): kept with the table."""
        row = self.db.execute("SELECT value FROM state WHERE key = 'page_owners'").fetchone()
        return {int(k): str(v) for k, v in json.loads(row[0]).items()} if row else {}

    def save_page_owners(self, owners: dict[int, str]) -> None:
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO state (key, value) VALUES ('page_owners', ?)", (json.dumps(owners),)
            )


def forget_unused(server: State, keep_requests: int = 1000) -> None:
    """Drop from memory what a long evening would pile up and nothing shows any more: pictures of
    earlier versions of messages (a turn's board is replaced at every move) and old request
    records."""
    used = {a.id for m in server.messages.values() if not m.deleted for a in m.attachments}
    for ident in [i for i in server.attachments if i not in used]:
        del server.attachments[ident]
    del server.requests[:-keep_requests]


def live_messages(server: State) -> list[Message]:
    """The messages a restart keeps: not deleted, not ephemeral."""
    return [m for m in server.messages.values() if not m.deleted and not m.ephemeral]


def dump(server: State) -> Json:
    return {
        "version": VERSION,
        "token": server.token,
        "application_id": server.application_id,
        "owner_id": server.owner.id,
        "users": [[u.id, u.name, u.bot] for u in server.users.values()],
        "guilds": [
            {
                "id": g.id,
                "name": g.name,
                "owner_id": g.owner_id,
                "moderator_role": g.moderator_role,
                "members": [[m.user.id, m.joined_at, m.roles, m.locale] for m in g.members.values()],
            }
            for g in server.guilds.values()
        ],
        "channels": [
            {
                "id": c.id,
                "guild_id": c.guild_id,
                "name": c.name,
                "position": c.position,
                "deleted": c.deleted,
                "bot_denied": c.bot_denied,
                "type": c.type,
                "parent_id": c.parent.id if c.parent else None,
                "owner_id": c.owner_id,
                "auto_archive_duration": c.auto_archive_duration,
            }
            for c in server.channels.values()
        ],
        "messages": [
            {
                "id": m.id,
                "channel_id": m.channel_id,
                "guild_id": m.guild_id,
                "author_id": m.author.id,
                "content": m.content,
                "embeds": m.embeds,
                "components": m.components,
                "attachments": [a.id for a in m.attachments],
                "flags": m.flags,
                "timestamp": m.timestamp,
                "edited_timestamp": m.edited_timestamp,
                "thread_id": m.thread_id,
                "invoked": m.invoked,
            }
            for m in live_messages(server)
        ],
        "commands": [[scope, list(table.values())] for scope, table in server.commands.items()],
    }


def restore(server: State, state: Json, attachments: dict[int, Attachment]) -> None:
    """Put a dumped state into a new server: same application, token, ids and history."""
    server.token = state["token"]
    server.application_id = state["application_id"]
    server.users = {ident: User(ident, name, bot) for ident, name, bot in state["users"]}
    server.bot_user = server.users[server.application_id]
    server.owner = server.users[state["owner_id"]]
    for g in state["guilds"]:
        guild = GuildRecord(g["id"], g["name"], g["owner_id"], moderator_role=g["moderator_role"])
        for user_id, joined_at, roles, locale in g["members"]:
            guild.members[user_id] = MemberRecord(server.users[user_id], guild.id, joined_at, roles, locale)
        server.guilds[guild.id] = guild
    for c in state["channels"]:
        channel = ChannelRecord(
            c["id"],
            c["guild_id"],
            c["name"],
            c["position"],
            deleted=c["deleted"],
            bot_denied=c["bot_denied"],
            bot_id=server.bot_user.id,
            type=c["type"],
            owner_id=c["owner_id"],
            auto_archive_duration=c["auto_archive_duration"],
        )
        server.channels[channel.id] = server.guilds[channel.guild_id].channels[channel.id] = channel
    for c in state["channels"]:
        if c["type"] == PUBLIC_THREAD and c["parent_id"] is not None:
            server.channels[c["id"]].parent = server.channels[c["parent_id"]]
    for m in state["messages"]:
        message = Message(
            m["id"],
            m["channel_id"],
            m["guild_id"],
            server.users[m["author_id"]],
            content=m["content"],
            embeds=m["embeds"],
            components=m["components"],
            attachments=[attachments[a] for a in m["attachments"] if a in attachments],
            flags=m["flags"],
            timestamp=m["timestamp"],
            edited_timestamp=m["edited_timestamp"],
            thread_id=m["thread_id"],
            invoked=(m["invoked"][0], m["invoked"][1]) if m["invoked"] else None,
        )
        server.messages[message.id] = message
        server.channel_messages.setdefault(message.channel_id, []).append(message)
    server.attachments.update(attachments)
    server.commands = {scope: {c["name"]: c for c in table} for scope, table in state["commands"]}
    server.commands.setdefault(None, {})
