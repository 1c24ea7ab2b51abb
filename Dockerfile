# toolgate as a container: built in one stage, run from a small one as an unprivileged user.
#   docker build -t toolgate .
#   docker run -p 4000:4000 -v toolgate-data:/data toolgate            # embedded SQLite in /data
#   docker run -p 4000:4000 -e TOOLGATE_DATABASE_URL=postgres://… toolgate
# compose.yaml runs two replicas on PostgreSQL behind a proxy; docs/deploy.md explains both.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 downloads a prebuilt binary; these build it where none fits.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY src ./src
COPY bin ./bin
COPY tsconfig.json schema.graphql ./
# The install builds dist/ and the Prisma clients (scripts/build.mjs); then only runtime packages stay.
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    TOOLGATE_DATABASE_URL=file:/data/toolgate.db
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/bin ./bin
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/node_modules ./node_modules
RUN mkdir /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 4000
# Ready, not only alive: a replica that cannot reach its database is taken out of rotation.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# bin/toolgate.js starts Node with the memory settings of docs/deploy.md; SIGTERM drains and exits 0.
ENTRYPOINT ["/app/bin/toolgate.js"]
CMD ["serve"]
