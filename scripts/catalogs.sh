#!/usr/bin/env bash
# Makes the catalogs of Swift's options that benchbed carries
# (templates/catalog/data/swift-VERSION.json) from a Swift git repository's
# sample confs at the release tags that current Debian and Ubuntu ship, and,
# for the version installed here, Debian's own samples beside them.
# Usage: scripts/catalogs.sh SWIFT_GIT_REPO [VERSION...]
set -euo pipefail
cd "$(dirname "$0")/.."
repo=${1:?usage: scripts/catalogs.sh SWIFT_GIT_REPO [VERSION...]}
shift
# Ubuntu 22.04 2.29.2, Debian 12 2.30.1, Ubuntu 24.04 2.33.0, Debian 13
# 2.35.0, Ubuntu 25.10 2.36.0.
versions=("${@:-2.29.2 2.30.1 2.33.0 2.35.0 2.36.0}")
read -ra versions <<< "${versions[*]}"
bin=$(mktemp -d)/swiftcatalog
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/swiftcatalog
here=$(dpkg-query -W -f='${Version}' python3-swift 2>/dev/null | sed 's/-.*//' || true)
for v in "${versions[@]}"; do
  dirs=()
  if [ "$v" = "$here" ] && [ -d /usr/share/doc/swift/examples ]; then
    dirs=(/usr/share/doc/swift/examples)
  fi
  "$bin" -version "$v" -git "$repo" "${dirs[@]}" > "templates/catalog/data/swift-$v.json"
  echo "templates/catalog/data/swift-$v.json"
done
