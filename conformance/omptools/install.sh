#!/usr/bin/env bash
# Installs the OMP releases the tools differential (conformance/omptools)
# drives, besides 18.1.16 (conformance/omp/install.sh installs that one and
# the bun every release runs on): each release under releases/<version>/ is
# installed at the exact versions of its committed package-lock.json into a
# cache folder outside the repository,
#   ${DESKCHECK_OMP_RELEASES:-$HOME/.cache/deskcheck/omp-releases}/<version>
# with no install script of any package (--ignore-scripts) and no optional
# dependencies (the linux-x64 native addon is a direct dependency; the
# other platforms' addons are replaced by the stub in absent/).
#
#   conformance/omptools/install.sh            install (or check) every release
#   conformance/omptools/install.sh 17.3.5     just that one
#   conformance/omptools/install.sh --clean    remove the installs first
#
# About 450 MB per release, 10-20 s each with a warm npm cache. Needs node
# and npm; linux-x64.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${DESKCHECK_OMP_RELEASES:-$HOME/.cache/deskcheck/omp-releases}"

clean=0
versions=()
for a in "$@"; do
  case "$a" in
    --clean) clean=1 ;;
    *) versions+=("$a") ;;
  esac
done
if [ ${#versions[@]} -eq 0 ]; then
  for d in "$here"/releases/*/; do versions+=("$(basename "$d")"); done
fi

if ! command -v npm >/dev/null 2>&1; then
  echo "install.sh: npm is needed (Debian: apt-get install npm)" >&2
  exit 1
fi
case "$(uname -s)/$(uname -m)" in
  Linux/x86_64) ;;
  *) echo "install.sh: the pinned native packages are for linux-x64; this is $(uname -s)/$(uname -m)" >&2; exit 1 ;;
esac

for v in "${versions[@]}"; do
  src="$here/releases/$v"
  if [ ! -f "$src/package-lock.json" ]; then
    echo "install.sh: no pinned release $v (known: $(ls "$here/releases" | tr '\n' ' '))" >&2
    exit 2
  fi
  dst="$cache/$v"
  if [ "$clean" = 1 ]; then rm -rf "$dst"; fi
  pkg="$dst/node_modules/@oh-my-pi/pi-coding-agent/package.json"
  if [ -f "$pkg" ] && grep -q "\"version\": \"$v\"" "$pkg" && cmp -s "$src/package-lock.json" "$dst/package-lock.json"; then
    echo "install.sh: $v already installed in $dst"
    continue
  fi
  start=$(date +%s)
  mkdir -p "$dst"
  cp "$src/package.json" "$src/package-lock.json" "$dst/"
  rm -rf "$dst/absent" && cp -r "$here/absent" "$dst/absent"
  (cd "$dst" && npm ci --ignore-scripts --omit=optional --no-audit --no-fund --loglevel=error)
  # A release that runs on the nearest published dependencies adapts its
  # install here (our own script, never a package's).
  if [ -f "$src/after-install.sh" ]; then (cd "$dst" && bash "$src/after-install.sh"); fi
  echo "install.sh: installed pi-coding-agent $v in $dst in $(( $(date +%s) - start ))s ($(du -sh "$dst/node_modules" | cut -f1))"
done
