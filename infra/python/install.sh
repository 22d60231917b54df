#!/usr/bin/env bash
# Installs the project's Python tools (infra/python/requirements.txt) into
# "${GALLEY_CACHE:-$HOME/.cache/galley}/venv", where shared/testenv looks for
# moto_server. Idempotent: a stamp file in the venv records the hash of the
# requirements (and of the Python that made the venv), and a matching stamp
# skips pip entirely, so running this before every test run costs nothing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
req="$here/requirements.txt"
cache="${GALLEY_CACHE:-$HOME/.cache/galley}"
venv="$cache/venv"
stamp="$venv/.galley-requirements.sha256"

die() {
	echo "infra/python/install.sh: $*" >&2
	exit 1
}

command -v python3 >/dev/null 2>&1 ||
	die "python3 not found on PATH; install Python 3.11 (Debian: apt-get install python3 python3-venv)"

mkdir -p "$cache" || die "cannot create cache folder $cache"

# Two installs racing on one venv would corrupt it; serialise them when flock
# is available (util-linux; present on Debian).
if command -v flock >/dev/null 2>&1; then
	exec 9>"$cache/.python-install.lock"
	flock 9
fi

# The Python version is part of the hash: a venv made by another interpreter
# has dangling links and must be rebuilt.
want="$({ python3 --version 2>&1; cat "$req"; } | sha256sum | cut -d' ' -f1)"

if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]] && "$venv/bin/python" -c '' >/dev/null 2>&1; then
	echo "python tools up to date in $venv"
	exit 0
fi

# A venv whose interpreter no longer runs cannot be repaired in place.
if [[ -d "$venv" ]] && ! "$venv/bin/python" -c '' >/dev/null 2>&1; then
	echo "removing broken venv $venv"
	rm -rf "$venv"
fi

if [[ ! -x "$venv/bin/python" ]]; then
	echo "creating venv $venv"
	python3 -m venv "$venv" ||
		die "python3 -m venv failed; on Debian install python3-venv (apt-get install python3-venv)"
fi

echo "installing $(grep -cvE '^\s*(#|$)' "$req") pinned packages into $venv (first run takes a few minutes)"
"$venv/bin/python" -m pip install --disable-pip-version-check --no-input --quiet -r "$req" ||
	die "pip install -r $req failed"
"$venv/bin/python" -m pip check --disable-pip-version-check ||
	die "installed packages have conflicting requirements"

# Written last, through a rename, so an interrupted install is retried.
echo "$want" >"$stamp.tmp"
mv "$stamp.tmp" "$stamp"
echo "python tools installed in $venv"
