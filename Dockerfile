# syntax=docker/dockerfile:1
# The claims-intake server as a container: `npm run build` in a build stage, then only the built files
# and the production dependencies in a slim image that runs `npm run start:prod` as a non-root user.
# Not built by our CI (no container daemon there): see docs/deploying.md.

# Both stages use the same base image, so better-sqlite3's native module built here runs there.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
# better-sqlite3 compiles from source when no prebuilt binary matches this platform
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci
COPY . .
# dist/client (vite), dist/server (tsc) and dist/validators (the browser validators, minified)
RUN npm run build
# the build needed the development dependencies; the runtime image gets the production ones only
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev

FROM ${NODE_IMAGE} AS runtime
# HOST=0.0.0.0 lets other machines (the proxy) connect, so the server refuses to start without
# PUBLIC_URL, the origin its e-mailed links are built from: give it at run time, as compose.yaml does
# (docker run -e PUBLIC_URL=https://claims.example-firm.com …)
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=3000 \
  DATA_DIR=/var/lib/claims-intake \
  NPM_CONFIG_UPDATE_NOTIFIER=false \
  NPM_CONFIG_SCRIPT_SHELL=/bin/bash
# NPM_CONFIG_SCRIPT_SHELL: bash runs the one-command start:prod script by exec, so the SIGTERM that
# `docker stop` hands npm reaches node and the server finishes its requests; Debian's sh would stay in
# between and die, and the container would stop with node cut off.
WORKDIR /app
# what the compiled server reads at run time: dist/ (server, client, validators), the app configs and
# their Spanish (forms/), the agreement templates (agreements/) and firm.json, which the template
# version hashes; package.json marks the project's root and holds the npm scripts
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/forms ./forms
COPY --from=build /app/agreements ./agreements
COPY --from=build /app/notices ./notices
COPY --from=build /app/demands ./demands
COPY --from=build /app/firm.json ./firm.json
# the files above stay root's and read-only to the server; only DATA_DIR is its own
RUN mkdir -p "$DATA_DIR" && chown node:node "$DATA_DIR"
USER node
# the SQLite database, the screenshots on disk and the e-mail outbox when SMTP_URL is unset
VOLUME ["/var/lib/claims-intake"]
EXPOSE 3000
# slim images have no curl: node asks /healthz itself
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((res) => process.exit(res.ok ? 0 : 1), () => process.exit(1))"]
CMD ["npm", "run", "start:prod"]
