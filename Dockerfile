# Paylinks on Node, for a server: `docker compose up -d` (compose.yaml puts Caddy in front for
# HTTPS). The image wraps scripts/build-release.sh, which test/release/build-release.test.ts runs
# outside any container: build with the development dependencies, then a release holding the
# compiled server and the production dependencies only.

FROM node:20-bookworm-slim AS build
# Only for better-sqlite3 when no prebuilt binary fits the platform: it is then compiled here.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN scripts/build-release.sh /app

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    GATEWAY_MODE=live \
    HOST=0.0.0.0 \
    PORT=8787 \
    DATABASE_PATH=/data/paylinks.db
# The release belongs to root and is read-only to the server; only /data is its to write.
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
VOLUME /data
WORKDIR /app
USER node
EXPOSE 8787
# No curl in slim images: Node itself asks /healthz (the database reachable).
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8787)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node itself is PID 1 (no npm, no shell): SIGTERM reaches the server, which finishes requests
# in flight and closes the database (within 10 s; compose.yaml allows 20).
STOPSIGNAL SIGTERM
CMD ["node", "dist/server/main.js"]
