#!/usr/bin/env bash
# Builds a Paylinks release into OUT: the compiled server (and `paylinks` command) with only the
# production dependencies installed, started by `node dist/server/main.js`. The Dockerfile runs
# this script; test/release/build-release.test.ts runs it outside any container.
#
#   scripts/build-release.sh OUT                 from this checkout: a fresh copy, `npm ci`, build,
#                                                then `npm ci --omit=dev` in OUT
#   scripts/build-release.sh --reuse DIR OUT     the same, but the build takes the development
#                                                install from DIR (a node_modules folder), and the
#                                                production install copies DIR's compiled SQLite
#                                                driver instead of building it (tests: minutes saved
#                                                where no prebuilt binary can be downloaded)
set -euo pipefail

REUSE=''
if [ "${1:-}" = '--reuse' ]; then
  REUSE="$(cd "${2:?--reuse needs a node_modules folder}" && pwd)"
  shift 2
fi
OUT="${1:?usage: scripts/build-release.sh [--reuse NODE_MODULES] OUT}"
SRC="$(cd "$(dirname "$0")/.." && pwd)"
NPM_FLAGS=(--no-audit --no-fund --prefer-offline)

if [ -e "$OUT" ] && [ -n "$(ls -A "$OUT")" ]; then
  echo "build-release: $OUT exists and is not empty" >&2
  exit 1
fi
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/paylinks-build.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

# 1. A fresh copy of the sources: the files git knows (committed or not, ignored ones left out),
#    or, without git (a container's build context, already filtered by .dockerignore), all of them.
if git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf -) | tar -C "$WORK" -xf -
else
  (cd "$SRC" && tar --exclude=./node_modules --exclude=./dist --exclude=./data -cf - .) |
    tar -C "$WORK" -xf -
fi

# 2. The build, with the development dependencies.
cd "$WORK"
if [ -n "$REUSE" ]; then
  ln -s "$REUSE" node_modules
else
  npm ci "${NPM_FLAGS[@]}"
fi
npm run build --silent

# 3. The release: what `node dist/server/main.js` reads, and the production dependencies only.
#    scripts/build.mjs comes along for `npm start`, which finds the build current and keeps it.
mkdir -p "$OUT/db" "$OUT/scripts"
cp -R dist "$OUT/dist"
cp -R db/migrations "$OUT/db/migrations"
cp package.json package-lock.json README.md "$OUT/"
cp scripts/build.mjs "$OUT/scripts/"
cd "$OUT"
# --omit=optional as well: drizzle-orm's optional peers in the lock are type packages only.
NPM_FLAGS+=(--omit=dev --omit=optional)
if [ -n "$REUSE" ]; then
  npm ci --ignore-scripts "${NPM_FLAGS[@]}"
  mkdir -p node_modules/better-sqlite3/build/Release
  cp "$REUSE/better-sqlite3/build/Release/better_sqlite3.node" node_modules/better-sqlite3/build/Release/
else
  npm ci "${NPM_FLAGS[@]}"
fi
echo "build-release: $OUT is ready: cd $OUT && node dist/server/main.js" >&2
