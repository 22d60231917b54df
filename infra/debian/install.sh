#!/usr/bin/env bash
# Installs the Debian packages the tests use: poppler-utils (pdftotext,
# which reads back the PDFs Galley makes). Idempotent: nothing is done when
# the tools are already on PATH.
set -euo pipefail

die() {
	echo "infra/debian/install.sh: $*" >&2
	exit 1
}

if command -v pdftotext >/dev/null 2>&1; then
	exit 0
fi

command -v apt-get >/dev/null 2>&1 ||
	die "pdftotext is missing and apt-get is not available; install poppler-utils (it provides pdftotext)"

sudo=
if [[ $(id -u) -ne 0 ]]; then
	command -v sudo >/dev/null 2>&1 || die "pdftotext is missing; install poppler-utils as root (apt-get install poppler-utils)"
	sudo=sudo
fi

echo "infra/debian/install.sh: installing poppler-utils (pdftotext)"
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y --no-install-recommends poppler-utils; then
	$sudo apt-get update || die "apt-get update failed"
	$sudo apt-get install -y --no-install-recommends poppler-utils || die "apt-get install poppler-utils failed"
fi
command -v pdftotext >/dev/null 2>&1 || die "poppler-utils is installed but pdftotext is not on PATH"
