#!/bin/sh
# install.sh CACHE VERSION...: the minimal install of the policy engine of
# @google/gemini-cli-core VERSION into CACHE/gemini/VERSION: the release's
# tarball, fetched by exact version and checked against the registry's
# sha512 recorded in conformance/gemini/testdata/tarballs.json, beside the
# six packages its policy modules run on (releases/deps, installed once
# with npm ci --ignore-scripts). Nothing of the release is run here.
set -eu
cache=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
sums="$here/../../../conformance/gemini/testdata/tarballs.json"
deps="$cache/gemini/deps"
if [ ! -d "$deps/node_modules" ]; then
  mkdir -p "$deps"
  cp "$here/releases/deps/package.json" "$here/releases/deps/package-lock.json" "$deps/"
  (cd "$deps" && npm ci --ignore-scripts --no-audit --no-fund >/dev/null)
fi
for v in "$@"; do
  dir="$cache/gemini/$v"
  if [ -f "$dir/package/package.json" ]; then
    continue
  fi
  want=$(node -e 'const d=require(process.argv[1]);const r=d.releases.find(x=>x.version===process.argv[2]);if(!r){process.exit(1)}console.log(r.integrity)' "$sums" "$v") || {
    echo "gemini $v: no recorded sha512 in $sums" >&2
    exit 1
  }
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "@google/gemini-cli-core@$v" >/dev/null)
  got=$(node -e 'const c=require("crypto"),f=require("fs");console.log("sha512-"+c.createHash("sha512").update(f.readFileSync(process.argv[1])).digest("base64"))' "$tmp"/*.tgz)
  if [ "$got" != "$want" ]; then
    echo "gemini $v: the tarball's sha512 is $got, the registry recorded $want" >&2
    rm -rf "$tmp"
    exit 1
  fi
  mkdir -p "$dir"
  tar -xzf "$tmp"/*.tgz -C "$dir"
  ln -sfn "$deps/node_modules" "$dir/package/node_modules"
  rm -rf "$tmp"
  echo "gemini $v: installed (sha512 checked)"
done
