# Wharf gateway: compiled server on Node 20, run as a non-root user (docs/operations.md).
# Build stage: install, compile generated/ and the runtime into .wharf/dist, keep runtime packages only.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/typescript node_modules/ts-morph node_modules/@ts-morph \
           node_modules/esbuild node_modules/@esbuild node_modules/tsx

# Run stage: only what the compiled server reads.
FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/.wharf/dist ./.wharf/dist
COPY --from=build /app/generated ./generated
COPY --from=build /app/environments ./environments
# data/: token store; .wharf/: the embedded demo database's cache. Both written by the server.
RUN mkdir -p data && chown node:node data .wharf
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", ".wharf/dist/runtime/main.js", "--root", "/app"]
