#!/usr/bin/env bash
# Installs DynamoDB Local (AWS's DynamoDB emulator, from Maven Central) into
# the project's cache folder, where the integration tests start it from:
#
#   ${GALLEY_CACHE:-$HOME/.cache/galley}/dynamodb-local/
#     DynamoDBLocal.jar
#     lib/*.jar                          its dependencies
#     lib/libsqlite4java-linux-amd64.so  native SQLite (and the other natives)
#     .installed                         checksum of the pom.xml installed
#
# Start it by hand with:
#   java -Djava.library.path=DIR/lib -cp 'DIR/DynamoDBLocal.jar:DIR/lib/*' \
#     software.amazon.dynamodb.services.local.main.ServerRunner -inMemory -port 8000
#
# Idempotent: does nothing when the same pom.xml is already installed. Needs
# java (17 or newer) and mvn; Maven's local repository (~/.m2) is used as is.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${GALLEY_CACHE:-$HOME/.cache/galley}
dest=$cache/dynamodb-local

die() {
	echo "dynamodb-local install: $*" >&2
	exit 1
}

command -v java >/dev/null 2>&1 ||
	die "java not found; install a JDK/JRE 17 or newer (Debian: apt-get install openjdk-17-jre-headless)"
command -v mvn >/dev/null 2>&1 ||
	die "mvn not found; install Maven (Debian: apt-get install maven)"

java_major=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n1)
if [[ -z $java_major || $java_major -lt 17 ]]; then
	die "DynamoDB Local 3.x needs Java 17 or newer; found: $(java -version 2>&1 | head -n1)"
fi

case "$(uname -s)/$(uname -m)" in
Linux/x86_64 | Linux/amd64) ;;
*) echo "dynamodb-local install: warning: only the linux-amd64 native SQLite library is on Maven Central;" \
	"DynamoDB Local may not start on $(uname -s)/$(uname -m)" >&2 ;;
esac

stamp=$(cksum <"$here/pom.xml" | cut -d' ' -f1)
if [[ -f $dest/.installed && $(cat "$dest/.installed") == "$stamp" &&
	-f $dest/DynamoDBLocal.jar && -f $dest/lib/libsqlite4java-linux-amd64.so ]]; then
	echo "dynamodb-local: already installed in $dest"
	exit 0
fi

mkdir -p "$cache"
tmp=$(mktemp -d "$cache/.dynamodb-local.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

echo "dynamodb-local: resolving dependencies with Maven (first run downloads ~50 MB)..."
# stripVersion names the files as DynamoDB Local expects them, notably the
# native library libsqlite4java-linux-amd64.so.
if ! mvn -B -Dstyle.color=never -f "$here/pom.xml" dependency:copy-dependencies \
	-DoutputDirectory="$tmp/lib" -Dmdep.stripVersion=true -DincludeScope=runtime >"$tmp/mvn.log" 2>&1; then
	grep -E 'ERROR|WARN' "$tmp/mvn.log" >&2 || tail -n 40 "$tmp/mvn.log" >&2
	die "mvn dependency:copy-dependencies failed (output above)"
fi
rm -f "$tmp/mvn.log"

[[ -f $tmp/lib/DynamoDBLocal.jar ]] || die "DynamoDBLocal.jar missing from the resolved dependencies"
[[ -f $tmp/lib/libsqlite4java-linux-amd64.so ]] || die "libsqlite4java-linux-amd64.so missing from the resolved dependencies"
mv "$tmp/lib/DynamoDBLocal.jar" "$tmp/DynamoDBLocal.jar"
echo "$stamp" >"$tmp/.installed"

rm -rf "$dest"
mv "$tmp" "$dest"
trap - EXIT
echo "dynamodb-local: installed in $dest"
