#!/usr/bin/env bash
# Installs Keycloak (an identity provider; its Quarkus distribution, from
# Maven Central) into the project's cache folder, where the single sign-on
# test (shared/sso, TestKeycloakSignIn) starts it from:
#
#   ${GALLEY_CACHE:-$HOME/.cache/galley}/keycloak/
#     bin/kc.sh       Keycloak's launcher
#     lib/, conf/ …   the distribution, as in the zip
#     java-home       the JDK (21 or newer) Keycloak runs on, one line
#     .installed      the version and SHA-256 of the zip installed
#
# Start it by hand with:
#   JAVA_HOME=$(cat DIR/java-home) KC_BOOTSTRAP_ADMIN_USERNAME=admin \
#     KC_BOOTSTRAP_ADMIN_PASSWORD=admin DIR/bin/kc.sh start-dev --http-port=8080
#
# Keycloak 26 needs Java 21 or newer, which need not be the default java:
# the first of $KEYCLOAK_JAVA_HOME, $JAVA_HOME and /usr/lib/jvm/* holding a
# Java 21+ is recorded in java-home (shared/testenv sets JAVA_HOME to it for
# Keycloak only).
#
# Idempotent: does nothing when this version is installed and its JDK is
# still there. The zip's SHA-1 is checked against Maven Central's .sha1
# file, and its SHA-256 against the one pinned below.
set -euo pipefail

version=26.7.3
sha256=27a6535553c3cdcd083872ba40629efafb3475e3b758e0c6f691395561dd0f1f
url=https://repo1.maven.org/maven2/org/keycloak/keycloak-quarkus-dist/$version/keycloak-quarkus-dist-$version.zip

cache=${GALLEY_CACHE:-$HOME/.cache/galley}
dest=$cache/keycloak

die() {
	echo "keycloak install: $*" >&2
	exit 1
}

# java_major prints the major version of the java in JDK home $1, or nothing.
java_major() {
	[[ -x $1/bin/java ]] || return 0
	"$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n1
}

# find_jdk prints the first JDK home with Java 21 or newer.
find_jdk() {
	local h m
	for h in "${KEYCLOAK_JAVA_HOME:-}" "${JAVA_HOME:-}" /usr/lib/jvm/*; do
		[[ -n $h && -d $h ]] || continue
		m=$(java_major "$h")
		if [[ -n $m && $m -ge 21 ]]; then
			(cd "$h" && pwd -P)
			return 0
		fi
	done
}

jdk=$(find_jdk)
[[ -n $jdk ]] ||
	die "Keycloak $version needs Java 21 or newer and none was found (looked at \$KEYCLOAK_JAVA_HOME, \$JAVA_HOME, /usr/lib/jvm/*);" \
		"install one (Debian: apt-get install openjdk-21-jre-headless) or set KEYCLOAK_JAVA_HOME to its home"

stamp="$version $sha256"
if [[ -f $dest/.installed && $(cat "$dest/.installed") == "$stamp" && -x $dest/bin/kc.sh ]]; then
	if [[ ! -f $dest/java-home || $(cat "$dest/java-home") != "$jdk" ]]; then
		echo "$jdk" >"$dest/java-home"
	fi
	echo "keycloak: $version already installed in $dest (Java: $jdk)"
	exit 0
fi

for cmd in curl unzip sha1sum sha256sum; do
	command -v "$cmd" >/dev/null 2>&1 ||
		die "$cmd not found; install it (Debian: apt-get install curl unzip coreutils)"
done

mkdir -p "$cache"
tmp=$(mktemp -d "$cache/.keycloak.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

echo "keycloak: downloading $url (~170 MB)..."
curl -fsSL --retry 3 -o "$tmp/kc.zip" "$url" || die "download of $url failed"
want_sha1=$(curl -fsSL --retry 3 "$url.sha1" | tr -d '[:space:]') || die "download of $url.sha1 failed"
[[ $want_sha1 =~ ^[0-9a-f]{40}$ ]] || die "$url.sha1 does not hold a SHA-1: '$want_sha1'"
got_sha1=$(sha1sum "$tmp/kc.zip" | cut -d' ' -f1)
[[ $got_sha1 == "$want_sha1" ]] ||
	die "SHA-1 mismatch for $url: got $got_sha1, Maven Central's .sha1 says $want_sha1"
got_sha256=$(sha256sum "$tmp/kc.zip" | cut -d' ' -f1)
[[ $got_sha256 == "$sha256" ]] ||
	die "SHA-256 mismatch for $url: got $got_sha256, want $sha256 (pinned in $0)"

unzip -q "$tmp/kc.zip" -d "$tmp/x" || die "unzip of the Keycloak zip failed"
[[ -x $tmp/x/keycloak-$version/bin/kc.sh ]] || die "keycloak-$version/bin/kc.sh missing from the zip"
mv "$tmp/x/keycloak-$version" "$tmp/keycloak"
echo "$jdk" >"$tmp/keycloak/java-home"

rm -rf "$dest"
mv "$tmp/keycloak" "$dest"

# The zip holds Keycloak's production image; its first start in dev mode
# rebuilds it (a minute or two). Done here, with the build options of the
# tests (shared/testenv.KeycloakArgs: start-dev --db=dev-mem), so that the
# tests start in seconds: start it once, until the rebuild is over.
free_port() {
	local p
	while :; do
		p=$((20000 + RANDOM % 20000))
		(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || {
			echo "$p"
			return
		}
	done
}
echo "keycloak: building its dev-mode image (first start-dev; a minute or two)..."
JAVA_HOME=$jdk KC_BOOTSTRAP_ADMIN_USERNAME=admin KC_BOOTSTRAP_ADMIN_PASSWORD="$RANDOM$RANDOM" \
	"$dest/bin/kc.sh" start-dev --db=dev-mem --http-port="$(free_port)" --http-management-port="$(free_port)" >"$tmp/build.log" 2>&1 &
kc=$!
built=
for _ in $(seq 1 1200); do
	if grep -q 'Running the server in development mode' "$tmp/build.log"; then
		built=1
		break
	fi
	kill -0 "$kc" 2>/dev/null || break
	sleep 0.5
done
kill -TERM "$kc" 2>/dev/null || true
wait "$kc" 2>/dev/null || true
rm -rf "$dest/data"
if [[ -z $built ]]; then
	tail -n 40 "$tmp/build.log" >&2
	rm -f "$dest/.installed"
	die "Keycloak's first start in dev mode failed (output above)"
fi
echo "$stamp" >"$dest/.installed"
echo "keycloak: $version installed in $dest (Java: $jdk)"
