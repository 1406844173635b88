#!/usr/bin/env bash
# The first step of `pnpm test`: Chromium for the browser tests, from Debian's package when it is missing
# and apt-get can run (as root, or through sudo without a password); otherwise one line says what to
# install, or to set CHROMIUM_PATH, and the browser tests fail with that line. Nothing else needs it,
# so `pnpm start` never waits for it.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'chromium: %s\n' "$*"; }

if node scripts/chromium.mjs >/dev/null; then exit 0; fi
sudo=()
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo=(sudo -n); fi
if [ -z "${CHROMIUM_PATH:-}" ] && command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" = 0 ] || [ ${#sudo[@]} -gt 0 ]; }; then
  say "installing Debian's chromium for the browser tests (apt-get, about a minute)"
  if ${sudo[@]+"${sudo[@]}"} apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${sudo[@]+"${sudo[@]}"} apt-get install -y -qq chromium >/dev/null; then
    say "$(node scripts/chromium.mjs)"
    exit 0
  fi
fi
say "$(node scripts/chromium.mjs)"
