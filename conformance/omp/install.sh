#!/usr/bin/env bash
# Installs what the OMP conformance test needs into conformance/omp/node_modules:
# the published release @oh-my-pi/pi-coding-agent 18.1.16 and bun 1.4.2, at the
# exact versions package-lock.json pins, from the npm registry.
#
#   conformance/omp/install.sh          install (or check) the pinned tree
#   conformance/omp/install.sh --clean  remove node_modules first
#
# No install script of any package runs (--ignore-scripts), optional
# dependencies are left out (--omit=optional), and the dependencies of the
# release that the harness never loads are replaced by the local stub in
# absent/ (see "overrides" in package.json). Needs node and npm; linux-x64.
set -euo pipefail
cd "$(dirname "$0")"

if [ "${1:-}" = "--clean" ]; then rm -rf node_modules; fi

if ! command -v npm >/dev/null 2>&1; then
  echo "install.sh: npm is needed (Debian: apt-get install npm)" >&2
  exit 1
fi
case "$(uname -s)/$(uname -m)" in
  Linux/x86_64) ;;
  *) echo "install.sh: the pinned bun and native packages are for linux-x64; this is $(uname -s)/$(uname -m)" >&2; exit 1 ;;
esac

bun=node_modules/@oven/bun-linux-x64-baseline/bin/bun
release=node_modules/@oh-my-pi/pi-coding-agent/package.json
if [ -x "$bun" ] && [ -f "$release" ] && grep -q '"version": "18.1.16"' "$release"; then
  echo "install.sh: already installed ($("$bun" --version), pi-coding-agent 18.1.16)"
  exit 0
fi

start=$(date +%s)
npm ci --ignore-scripts --omit=optional --no-audit --no-fund --loglevel=error
# npm ci leaves the bun binary as it ships (no install script ran); it must
# be executable.
chmod +x "$bun"
# node_modules must never hold a Go package of the deskcheck module: a go.mod
# makes it a module of its own, which ./... patterns skip.
printf 'module deskcheck.invalid/conformance-node-modules\n' > node_modules/go.mod

echo "install.sh: installed bun $("$bun" --version) and pi-coding-agent 18.1.16 in $(( $(date +%s) - start ))s ($(du -sh node_modules | cut -f1))"
