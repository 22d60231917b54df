#!/usr/bin/env bash
# rebuild.sh MODULE@VERSION [DIR]
#
# Rebuilds Galley's fork of MODULE@VERSION from the released module and
# the fork's patch: downloads the module (go mod download: the Go module
# proxy or the module cache, checked against the checksum database), copies
# its files without tests (*_test.go, testdata/) and dot-files (.github,
# .gitignore...: they would act on Galley's repository), applies MODULE@VERSION.patch
# (git apply: no fuzz, fails when a hunk does not apply), formats the Go
# files with gofmt, and writes the
# result to DIR (default: MODULE@VERSION next to this script, replaced).
#
# -t keeps upstream's tests and test data, so that they can be run on the
# patched code (infra/forks_test.go does, in a temporary directory).
#
# To upgrade a fork: rename the patch to the new version, run this script
# with the new version, fix the patch if it no longer applies, update the
# replace and require lines in go.mod; see docs/dependencies.md.
set -euo pipefail

tests=
if [[ ${1:-} == -t ]]; then tests=1; shift; fi
if [[ $# -lt 1 || $# -gt 2 || $1 != *@* ]]; then
	echo "usage: $0 [-t] MODULE@VERSION [DIR]" >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
modver=$1
out=${2:-$here/$modver}
patchfile=$here/$modver.patch
test -f "$patchfile" || { echo "$0: no patch $patchfile" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Outside any module, so that Galley's go.mod (and its replace lines) play no
# part in what is downloaded.
dir=$(cd "$work" && GOFLAGS= GOWORK=off go mod download -json "$modver" |
	sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
test -d "$dir" || { echo "$0: go mod download $modver gave no directory" >&2; exit 1; }

mkdir "$work/src"
if [[ -n $tests ]]; then
	tar -C "$dir" --exclude='*/.*' -cf - . | tar -C "$work/src" -xf -
else
	tar -C "$dir" --exclude='*/.*' --exclude='*_test.go' --exclude=testdata -cf - . | tar -C "$work/src" -xf -
fi
chmod -R u+w "$work/src"
(cd "$work/src" && git apply -p1 "$patchfile")
# gofmt'd, as every Go file of Galley's repository is (upstream's older files
# carry "// +build" lines without "//go:build", and the like).
(cd "$work/src" && gofmt -l . | xargs -r gofmt -w)

rm -rf "$out"
mkdir -p "$(dirname "$out")"
cp -R "$work/src" "$out"
