"""What the page's server sends over plain HTTP: the page itself, its fonts, its words, and the
pictures the bot uploaded. Everything comes from the page's own origin, so the strict
Content-Security-Policy (page.py) holds: no third-party font, script or picture."""

from __future__ import annotations

from importlib import resources

from aiohttp import web

from localdiscord import views, words
from localdiscord.state import State

STATIC = {
    "index.html": "text/html",
    "app.js": "text/javascript",
    "markdown.js": "text/javascript",
    "style.css": "text/css",
}
FONTS = ("NotoSansDevanagari-Bold.ttf", "DejaVuSans-Bold.ttf")
"""The fonts the board pictures are drawn with (render/assets), served for the page's Hindi and
Latin text as well, so a computer without them shows the same letters."""


async def static(request: web.Request) -> web.Response:
    """A file of the page; a table's address (`/t/<channel>`) is the page too."""
    name = request.match_info.get("name", "index.html")
    if name not in STATIC:
        raise web.HTTPNotFound()
    body = resources.files("localdiscord").joinpath("static", name).read_bytes()
    return web.Response(body=body, content_type=STATIC[name], headers={"Cache-Control": "no-cache"})


PAGE_FONTS = ("NotoSansDevanagari-Regular.woff2", "PachisiFullwidth.woff2")
"""The page's own (static/fonts, each licence beside it): Devanagari at the regular weight (the
pictures draw only bold), so Hindi text is not bold beside regular Latin; and full-width Latin
("Ａsha", refused as a look-alike name), made from DejaVu Sans by scripts/fullwidth_font.py, so
the name box shows the letter on a computer without a CJK font."""


async def font(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    if name in PAGE_FONTS:
        body = resources.files("localdiscord").joinpath("static", "fonts", name).read_bytes()
        kind = "font/woff2"
    elif name in FONTS:
        body, kind = resources.files("render").joinpath("assets", name).read_bytes(), "font/ttf"
    else:
        raise web.HTTPNotFound()
    return web.Response(body=body, content_type=kind, headers={"Cache-Control": "max-age=86400"})


async def page_words(request: web.Request) -> web.Response:
    """The page's words in the language of `?locale=` (the name dialog needs them before a member)."""
    language = words.language_of(request.query.get("locale"))
    return web.json_response({"lang": language.code, "words": words.page_words(language)})


def attachment(server: State, ident: int) -> web.Response:
    """A picture the bot uploaded; anything else is offered as a download, never run here."""
    found = server.attachments.get(ident)
    if found is None:
        raise web.HTTPNotFound()
    picture = views.picture_type(found)
    headers = {"Cache-Control": "max-age=86400, immutable"}
    if picture is None:
        headers["Content-Disposition"] = "attachment"
    content_type = picture or "application/octet-stream"
    return web.Response(body=found.data, content_type=content_type, headers=headers)
