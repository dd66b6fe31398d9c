"""Discord's limits as the stand-in enforces them: what a message body may hold, the per-channel
bucket of new messages and edits, and the 429 answer a bot gets past a limit."""

from __future__ import annotations

import re
import time

from aiohttp import web

from localdiscord.objects import COMPONENTS_V2, ApiError, Attachment, Json, buttons_in, json_response


def check_message(body: Json, files: dict[int, Attachment], *, new: bool) -> None:
    """Discord's limits on a message body: a bot that breaks one gets a 400, as from Discord."""
    content = body.get("content") or ""
    if len(content) > 2000:
        raise ApiError(400, 50035, "Invalid Form Body: content must be 2000 or fewer in length")
    if len(body.get("embeds") or []) > 10 or len(files) > 10:
        raise ApiError(400, 50035, "Invalid Form Body: at most 10 embeds and 10 files")
    components = body.get("components") or []
    rows_ok = len(components) <= 5 and all(len(row.get("components", [])) <= 5 for row in components)
    if not rows_ok and not int(body.get("flags") or 0) & COMPONENTS_V2:
        raise ApiError(400, 50035, "Invalid Form Body: at most 5 rows of 5 components")
    for button in buttons_in(components):
        if len(button.custom_id or "") > 100 or len(button.label or "") > 80:
            raise ApiError(400, 50035, "Invalid Form Body: custom_id <= 100, label <= 80 characters")
    if new and not (content or body.get("embeds") or files or components or body.get("poll")):
        raise ApiError(400, 50006, "Cannot send an empty message")


def check_choices(choices: list[Json]) -> None:
    """Discord's limits on autocomplete choices."""
    if len(choices) > 25 or any(not 1 <= len(str(c.get("name", ""))) <= 100 for c in choices):
        raise ApiError(400, 50035, "Invalid Form Body: at most 25 choices, names of 1 to 100 characters")


def pinged_users(body: Json) -> list[int]:
    """Who a new message notifies: users mentioned in its content that `allowed_mentions` lets
    through (no `allowed_mentions`: all of them). Edits never notify anyone."""
    mentioned = [int(found) for found in re.findall(r"<@!?(\d+)>", body.get("content") or "")]
    allowed = body.get("allowed_mentions")
    if allowed is None or "users" in (allowed.get("parse") or []):
        return list(dict.fromkeys(mentioned))
    users = {int(u) for u in allowed.get("users") or []}
    return [u for u in dict.fromkeys(mentioned) if u in users]


def bucket_headers(limit: int, remaining: int, reset_after: float, **extra: str) -> dict[str, str]:
    """Discord's X-RateLimit-* headers for a bucket of `limit` calls, `remaining` of them left."""
    headers = {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
    }
    return {**headers, **{f"X-RateLimit-{key.title()}": value for key, value in extra.items()}}


def too_many(
    retry_after: float,
    headers: dict[str, str],
    *,
    message: str = "You are being rate limited.",
    code: int | None = None,
) -> web.Response:
    """Discord's 429: how long to wait, in the body and (as Reset-After) in the headers."""
    body: Json = {"message": message, "retry_after": retry_after, "global": False}
    if code is not None:
        body["code"] = code
    return json_response(body, 429, headers)


class MessageBuckets:
    """Discord's per-channel limits on new messages and on edits through the channel routes: each
    kind `count` per `seconds`, then a 429 (off until `enforce`)."""

    def __init__(self) -> None:
        self.limit: tuple[int, float] | None = None
        self.written_at: dict[tuple[int, str], list[float]] = {}
        """(channel id, "post" or "edit") -> monotonic times of its recent writes."""
        self.refused = 0  # 429s answered

    def enforce(self, count: int, seconds: float) -> None:
        self.limit = (count, seconds)

    def _recent(self, channel_id: int, kind: str) -> list[float]:
        now = time.monotonic()
        window = self.limit[1] if self.limit else 0.0
        recent = [t for t in self.written_at.get((channel_id, kind), []) if now - t < window]
        self.written_at[channel_id, kind] = recent
        return recent

    def take(self, channel_id: int, kind: str = "post") -> web.Response | None:
        """None when a message may be posted (or edited) now, and counts it; else Discord's 429."""
        if self.limit is None:
            return None
        count, seconds = self.limit
        recent = self._recent(channel_id, kind)
        if len(recent) >= count:
            retry = max(0.001, recent[0] + seconds - time.monotonic())
            self.refused += 1
            return too_many(retry, {**self.headers(channel_id, kind), "X-RateLimit-Scope": "shared"})
        recent.append(time.monotonic())
        return None

    def headers(self, channel_id: int, kind: str = "post") -> dict[str, str]:
        """The bucket's headers for an answer in `channel_id` (none while no limit is enforced)."""
        if self.limit is None:
            return {}
        count, seconds = self.limit
        recent = self._recent(channel_id, kind)
        reset_after = recent[0] + seconds - time.monotonic() if recent else seconds
        remaining = max(0, count - len(recent))
        return bucket_headers(count, remaining, reset_after, bucket=f"messages-{kind}-{channel_id}")
