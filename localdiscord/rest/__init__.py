"""The stand-in's REST API under /api/v10: one module per kind of resource, each with its aiohttp
route table; api.py assembles them into the application the server mounts."""
