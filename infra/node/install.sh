#!/usr/bin/env bash
# Installs the npm packages the tests use (pinned in infra/node/package.json
# and package-lock.json, from the npm registry) into
# "${GALLEY_CACHE:-$HOME/.cache/galley}/node": GitBook's official API client
# (@gitbook/api), which infra/client_test.go drives, the MCP TypeScript SDK
# (@modelcontextprotocol/sdk), whose client infra/mcp_test.go connects to a
# site's MCP endpoint, and axe-core, which
# shared/reader/readerhttp/browser_test.go injects into the reader's pages. Idempotent: a stamp of the lock file's hash skips npm.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cache="${GALLEY_CACHE:-$HOME/.cache/galley}"
dest="$cache/node"
stamp="$dest/.galley-lock.sha256"

die() {
	echo "infra/node/install.sh: $*" >&2
	exit 1
}

command -v node >/dev/null 2>&1 || die "node not found on PATH; install Node.js 20 (Debian: apt-get install nodejs npm)"
command -v npm >/dev/null 2>&1 || die "npm not found on PATH; install npm (Debian: apt-get install npm)"

want="$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -d' ' -f1)"
# package -> a file the tests read from it
declare -A files=([@gitbook/api]=package.json [@modelcontextprotocol/sdk]=dist/esm/client/streamableHttp.js [axe-core]=axe.min.js)
installed() {
	local p
	for p in "${!files[@]}"; do
		[[ -f "$dest/node_modules/$p/${files[$p]}" ]] || return 1
	done
}
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]] && installed; then
	exit 0
fi

mkdir -p "$dest" || die "cannot create $dest"
cp "$here/package.json" "$here/package-lock.json" "$dest/"
echo "infra/node/install.sh: npm ci (${!files[*]}) into $dest"
(cd "$dest" && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci failed (is the npm registry reachable?)"
for p in "${!files[@]}"; do
	test -f "$dest/node_modules/$p/${files[$p]}" || die "$p is not in $dest/node_modules after npm ci ($p/${files[$p]} is missing)"
done
echo "$want" >"$stamp"
