# The bot in a container, next to its database (compose.yaml). Built in two stages: the first
# compiles the engine's hot modules (mypyc needs a C compiler) into the project's wheel, with the
# build tools pinned in requirements-build.txt; the second installs the dependencies exactly as
# requirements.txt pins them (versions and hashes; scripts/lock makes both files), then that wheel
# alone, into a slim image without a compiler. The image was never built on the project's
# machines (no container runtime there can pull images): tests/e2e/test_container.py lints this
# file with hadolint and runs its install and start steps in fresh virtual environments instead.
#
#   docker build -t pachisi-bot .
#   docker run -d --env-file .env -v pachisi-data:/data pachisi-bot
#   docker run --rm -v pachisi-data:/data pachisi-bot backup /data/backup.sqlite3

FROM python:3.11-bookworm AS build
WORKDIR /src
COPY requirements-build.txt ./
RUN python -m pip install --no-cache-dir --require-hashes -r requirements-build.txt
COPY pyproject.toml setup.py README.md ./
COPY engine engine
COPY render render
COPY bot bot
COPY migrations migrations
COPY localdiscord localdiscord
RUN python -m pip wheel --no-cache-dir --no-build-isolation --no-deps --wheel-dir /wheels .

FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATABASE_URL=sqlite+aiosqlite:////data/pachisi.sqlite3 \
    METRICS_PORT=9464
COPY --from=build /wheels /wheels
COPY requirements.txt /wheels/
RUN python -m pip install --no-cache-dir --require-hashes -r /wheels/requirements.txt \
    && python -m pip install --no-cache-dir --no-index --no-deps /wheels/*.whl \
    && rm -rf /wheels \
    && useradd --system --uid 10001 --home-dir /data --no-create-home pachisi \
    && mkdir /data \
    && chown pachisi /data
USER 10001
WORKDIR /data
VOLUME /data
EXPOSE 9464
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot", "healthcheck"]
ENTRYPOINT ["python", "-m", "bot"]
