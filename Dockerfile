# Umbra web service.
#   docker build -t umbra .
#   docker run -p 8000:8000 -e DATABASE_URL=postgresql://umbra:umbra@db:5432/umbra umbra
# Without DATABASE_URL it uses SQLite at /app/data/umbra.db (mount a volume there).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN groupadd --system umbra \
 && useradd --system --gid umbra --home-dir /app --no-create-home umbra

WORKDIR /app

# Dependencies first, so code edits do not reinstall them: a stub package with the same
# pyproject resolves and installs every dependency into this layer.
COPY pyproject.toml ./
RUN mkdir app && touch app/__init__.py README.md \
 && pip install . \
 && pip uninstall -y umbra \
 && rm -rf app README.md build *.egg-info

# The whole tree: the app finds migrations/, templates/, static/ and alembic.ini relative to
# its source (Path(__file__).resolve().parents[2]), so it is installed in place (editable).
COPY . .
RUN (test -f README.md || touch README.md) \
 && pip install --no-deps -e . \
 && mkdir -p /app/data \
 && chown -R umbra:umbra /app/data

USER umbra

EXPOSE 8000

HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD python -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2); sys.exit(0)"

# `serve` applies the migrations before it listens.
CMD ["umbra", "serve", "--host", "0.0.0.0", "--port", "8000"]
