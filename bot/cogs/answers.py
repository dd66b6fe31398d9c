"""Answers to the member who acted, and the one error handler for commands and buttons.

Every interaction gets an answer: a refusal (`GameError`) as its own sentence in the member's
language, anything unexpected logged under a short reference that the member is shown, so a
report can be matched to the log.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord
from discord import app_commands

from bot.core import metrics
from bot.core.errors import GameError
from bot.core.store import StoreUnavailable
from bot.core.texts import Language
from bot.core.texts.language import choose
from bot.core.texts.refusals import refusal

log = logging.getLogger(__name__)
NO_MENTIONS = discord.AllowedMentions.none()


def language_of(interaction: discord.Interaction[Any]) -> Language:
    """The language of answers only this member reads: their Discord client's, when the bot speaks
    it, else English."""
    return choose(interaction.locale.value)


async def tell(interaction: discord.Interaction[Any], text: str, *, ephemeral: bool = True) -> None:
    """Say something to the member who acted: ephemeral unless it is news for the channel."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=ephemeral, allowed_mentions=NO_MENTIONS)
    else:
        await interaction.response.send_message(text, ephemeral=ephemeral, allowed_mentions=NO_MENTIONS)


async def refuse(interaction: discord.Interaction[Any], key: str, **params: object) -> None:
    """The refusal `key` (bot/core/texts/refusals.py), only to the member."""
    await tell(interaction, refusal(language_of(interaction), key, params))


def refusal_of(interaction: discord.Interaction[Any], error: BaseException) -> str | None:
    """The sentence for an error the member caused, or None for one they did not."""
    original = getattr(error, "original", error)
    if isinstance(original, GameError):
        return refusal(language_of(interaction), original.key, original.params)
    if isinstance(original, StoreUnavailable):
        return refusal(language_of(interaction), "database", {})
    if isinstance(error, app_commands.TransformerError):  # discord.py's own words are English
        return refusal(language_of(interaction), "bad_value", {"value": str(error.value)})
    if isinstance(error, app_commands.CheckFailure):
        return refusal(language_of(interaction), "not_here", {})
    return None


def error_text(interaction: discord.Interaction[Any], error: BaseException) -> str:
    """What the member reads about `error`: its refusal, or an apology with a reference to the log."""
    text = refusal_of(interaction, error)
    original = getattr(error, "original", error)
    if isinstance(original, StoreUnavailable):
        log.warning("database unavailable: %s (%s)", _what(interaction), original.__cause__)
    if text is None:
        ref = secrets.token_hex(3)
        log.error("ref=%s interaction failed: %s", ref, _what(interaction), exc_info=original)
        text = refusal(language_of(interaction), "unexpected", {"ref": ref})
    return text


async def handle_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """The handler of every command (the tree's `on_error`) and every button's callback."""
    metrics.interaction_failed(error)
    text = error_text(interaction, error)
    try:
        await tell(interaction, text)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id)


def _what(interaction: discord.Interaction[Any]) -> str:
    return interaction.command.qualified_name if interaction.command else _custom_id(interaction)


def _custom_id(interaction: discord.Interaction[Any]) -> str:
    data: Any = interaction.data or {}
    return str(data.get("custom_id", "?"))[:100]


class PachisiTree(app_commands.CommandTree[Any]):
    """The bot's command tree: one error handler for every command."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
    ) -> None:
        await handle_error(interaction, error)
