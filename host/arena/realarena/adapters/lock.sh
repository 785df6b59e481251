#!/usr/bin/env bash
# Rewrites NAME/requirements.lock from NAME/requirements.in: every
# transitive package pinned with the hashes of all its wheels, for every
# Python >= 3.10 and platform, wheels only (no source build can ever run).
# Maintainers only; it reaches the Python package index.
set -euo pipefail
cd "$(dirname "$0")"
name=${1:?usage: lock.sh vanilla|langgraph|openai-agents}
venv=$(mktemp -d)
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
"$venv/bin/pip" install -q uv==0.13.9
constraints=(-c constraints.txt)
# langchain-openai accepts no openai 3.x: the LangGraph environment keeps
# its own openai 2.x (and httpx), which its lock resolves.
if [ "$name" = langgraph ]; then constraints=(); fi
"$venv/bin/uv" pip compile --universal --generate-hashes --only-binary :all: \
  --python-version 3.10 "${constraints[@]}" "$name/requirements.in" -o "$name/requirements.lock"
