# syntax=docker/dockerfile:1
# The image of every Engram service. Build from the repository root, naming the service
# (a directory of services/):
#   docker build --build-arg SERVICE=retrieval -t engram/retrieval .
# The image also carries the engram CLI (tools/cli), so it can run `db setup` and `db migrate`.

FROM node:20-bookworm-slim AS build
ARG SERVICE
WORKDIR /app
ENV CI=true NX_DAEMON=false NX_NO_CLOUD=true
# The whole workspace (see .dockerignore): npm ci needs every workspace's package.json.
COPY . .
RUN test -n "${SERVICE}" && test -f "services/${SERVICE}/project.json" \
 || { echo "build with --build-arg SERVICE=<one of: $(ls services | tr '\n' ' ')>" >&2; exit 1; }
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
# Builds the service and the libs it depends on, plus the CLI (the Nx project is named like its directory).
RUN npx nx run-many -t build --projects=${SERVICE},cli --output-style=static --skip-nx-cache \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ARG SERVICE
# Which service this image runs: read by CMD and HEALTHCHECK below, not by the service.
ENV NODE_ENV=production ENGRAM_SERVICE=${SERVICE}
WORKDIR /app
# Owned by root and read-only for the node user: the app never writes its own code.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/libs ./libs
COPY --from=build /app/tools/cli ./tools/cli
COPY --from=build /app/services/${SERVICE} ./services/${SERVICE}
USER node
# No EXPOSE: the port is the service's default (DEFAULT_HTTP_PORTS in libs/config: api 8080,
# ingest 9101 …) unless HTTP_PORT says otherwise. The slim image has no curl; Node 20's fetch
# probes the port the service listens on.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "const port=process.env.HTTP_PORT||require('@engram/config').DEFAULT_HTTP_PORTS[process.env.ENGRAM_SERVICE];fetch('http://127.0.0.1:'+port+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# exec: node is PID 1 and gets SIGTERM itself (it drains, then exits 0).
CMD ["sh", "-c", "exec node services/${ENGRAM_SERVICE}/dist/main.js"]
