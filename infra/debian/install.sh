#!/usr/bin/env bash
# Installs the Debian packages the tests use: poppler-utils (pdftotext,
# which reads back the PDFs Galley makes), and curl and jq (the README's
# walk-through, which infra/readme_test.go runs as pasted), chromium (the
# headless browser of the reader's browser tests,
# shared/reader/readerhttp/browser_test.go, at /usr/bin/chromium) and
# fonts-dejavu-core (glyphs for its pages and screenshots), and two real
# Sphinx sites that the content import tests serve on loopback
# (shared/imports/sphinx_test.go): python-flask-doc (Flask's documentation,
# 77 pages) and python3.11-doc (Python's, 530 pages). Idempotent: nothing is
# done when the tools and files are already there.
set -euo pipefail

die() {
	echo "infra/debian/install.sh: $*" >&2
	exit 1
}

# command -> the package that provides it
declare -A packages=([pdftotext]=poppler-utils [jq]=jq [curl]=curl [chromium]=chromium)
# file -> the package that provides it
declare -A files=([/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf]=fonts-dejavu-core
	[/usr/share/doc/python-flask-doc/html/index.html]=python-flask-doc
	[/usr/share/doc/python3.11/html/index.html]=python3.11-doc)
missing=()
for cmd in "${!packages[@]}"; do
	command -v "$cmd" >/dev/null 2>&1 || missing+=("${packages[$cmd]}")
done
for file in "${!files[@]}"; do
	[[ -f "$file" ]] || missing+=("${files[$file]}")
done
if [[ ${#missing[@]} -eq 0 ]]; then
	exit 0
fi

command -v apt-get >/dev/null 2>&1 ||
	die "missing: ${missing[*]}, and apt-get is not available; install these packages"

sudo=
if [[ $(id -u) -ne 0 ]]; then
	command -v sudo >/dev/null 2>&1 || die "missing: ${missing[*]}; install them as root (apt-get install ${missing[*]})"
	sudo=sudo
fi

echo "infra/debian/install.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y --no-install-recommends "${missing[@]}"; then
	$sudo apt-get update || die "apt-get update failed"
	$sudo apt-get install -y --no-install-recommends "${missing[@]}" || die "apt-get install ${missing[*]} failed"
fi
for cmd in "${!packages[@]}"; do
	command -v "$cmd" >/dev/null 2>&1 || die "${packages[$cmd]} is installed but $cmd is not on PATH"
done
for file in "${!files[@]}"; do
	[[ -f "$file" ]] || die "${files[$file]} is installed but $file is missing"
done
