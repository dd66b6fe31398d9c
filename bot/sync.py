"""Slash command sync: only when the command tree changed, once for all processes, or on demand.

Every process used to bulk-overwrite the global commands at start-up; N shard processes made N
identical overwrites per deploy, and Discord rate-limits command updates. Now the payload's hash
is kept in the database (`command_sync`) and compared under the migrations' lock; `python -m bot
sync` syncs whatever the database says (after commands were changed or deleted by hand).
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands

from bot.core.store import Store

log = logging.getLogger(__name__)
GLOBAL_SCOPE = 0


async def command_payload(
    tree: app_commands.CommandTree[Any], guild: discord.abc.Snowflake | None
) -> list[Any]:
    """What `tree.sync(guild=guild)` sends: with the tree's translator, every name, description and
    choice with its localisations (a changed translation is a changed payload)."""
    commands = tree._get_all_commands(guild=guild)
    if tree.translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, tree.translator) for command in commands]


def payload_hash(payload: list[Any]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


async def sync_commands(
    tree: app_commands.CommandTree[Any], store: Store, guild_id: int | None, *, force: bool = False
) -> bool:
    """Sync the commands (globally, or to the development guild `guild_id`) unless the database
    says this very payload was synced already; returns whether it synced."""
    guild = discord.Object(guild_id) if guild_id else None
    if guild is not None:
        tree.copy_global_to(guild=guild)
    digest = payload_hash(await command_payload(tree, guild))
    scope = guild_id or GLOBAL_SCOPE
    async with store.schema_locked() as session:
        if not force and await store.synced_hash(session, scope) == digest:
            log.info("commands unchanged scope=%s hash=%s", scope, digest[:12])
            return False
        synced = await tree.sync(guild=guild)
        await store.set_synced_hash(session, scope, digest)
    log.info("commands synced scope=%s count=%d hash=%s", scope, len(synced), digest[:12])
    return True
