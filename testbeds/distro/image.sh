# The distro lab's cache: the Debian image every host boots from and the
# package mirror the hosts install from. Sourced by up after lib.sh.

# image makes the hosts' root image once with debootstrap (in a temporary
# directory renamed into place when complete, so an interrupted up leaves
# no half image), then prepares it: no host keys (each host gets its own),
# apt sources pointing only at the lab's mirror, an empty machine-id.
image() {
  [ -f "$DISTRO_IMAGE/etc/os-release" ] && return 0
  local tmp=$DISTRO_CACHE/image.new t0=$SECONDS
  mkdir -p "$DISTRO_CACHE"
  rm -rf "$tmp"
  log "debootstrap $DISTRO_SUITE into $DISTRO_IMAGE (a few minutes, once)"
  debootstrap --variant=minbase --include="$DISTRO_INCLUDE" "$DISTRO_SUITE" "$tmp" "$DISTRO_ARCHIVE" \
    > "$DISTRO_CACHE/debootstrap.log" 2>&1 || die "debootstrap failed (see $DISTRO_CACHE/debootstrap.log)"
  rm -f "$tmp"/etc/ssh/ssh_host_*
  : > "$tmp/etc/machine-id"
  rm -f "$tmp/etc/hostname"
  rm -rf "$tmp"/var/lib/apt/lists/* "$tmp"/var/cache/apt/archives/*.deb
  echo "deb [trusted=yes] http://$DISTRO_GW:$DISTRO_MIRROR_PORT/ ./" > "$tmp/etc/apt/sources.list"
  cat > "$tmp/etc/ssh/sshd_config.d/benchbed.conf" <<'CFG'
# benchbed's distro lab: one host key per host (written by up), room for
# benchbed's parallel sessions.
HostKey /etc/ssh/ssh_host_ed25519_key
PermitRootLogin prohibit-password
PasswordAuthentication no
MaxStartups 100:30:200
MaxSessions 100
CFG
  mv "$tmp" "$DISTRO_IMAGE"
  log "image made in $((SECONDS - t0)) s"
}

# mirror fills the flat repository once: every package of
# DISTRO_MIRROR_PKGS with what it needs beyond the image (apt computes the
# closure against the image's own package database), indexed with
# dpkg-scanpackages and apt-ftparchive. The package list and the image's
# package database's checksum are kept beside it: a changed list or a new
# image fills it again.
mirror() {
  local want tmp=$DISTRO_CACHE/mirror.new t0=$SECONDS
  want="${DISTRO_MIRROR_PKGS[*]} image $(sha256sum < "$DISTRO_IMAGE/var/lib/dpkg/status" | cut -c1-16)"
  [ -s "$DISTRO_MIRROR/Packages.gz" ] && [ "$(cat "$DISTRO_MIRROR/packages" 2>/dev/null)" = "$want" ] && return 0
  log "filling the package mirror: ${DISTRO_MIRROR_PKGS[*]}"
  rm -rf "$tmp"
  mkdir -p "$tmp/partial"
  [ -n "$(ls /var/lib/apt/lists/*_Packages 2>/dev/null)" ] || apt-get update -qq
  apt-get -q -y --no-install-recommends --download-only \
    -o Dir::State::status="$DISTRO_IMAGE/var/lib/dpkg/status" \
    -o Dir::Cache::archives="$tmp" -o APT::Sandbox::User=root \
    install "${DISTRO_MIRROR_PKGS[@]}" > "$DISTRO_CACHE/mirror.log" 2>&1 ||
    die "downloading the mirror's packages failed (see $DISTRO_CACHE/mirror.log)"
  rmdir "$tmp/partial" 2>/dev/null || rm -rf "$tmp/partial" "$tmp/lock"
  rm -f "$tmp/lock"
  (cd "$tmp" && dpkg-scanpackages -m . /dev/null 2>>"$DISTRO_CACHE/mirror.log" > Packages &&
    gzip -9k Packages && apt-ftparchive release . > Release) || die "indexing the mirror failed"
  echo "$want" > "$tmp/packages"
  rm -rf "$DISTRO_MIRROR"
  mv "$tmp" "$DISTRO_MIRROR"
  log "mirror filled in $((SECONDS - t0)) s: $(ls "$DISTRO_MIRROR"/*.deb | wc -l) packages"
}

# serve_mirror serves the mirror over HTTP on the bridge's address (nowhere
# else), once.
serve_mirror() {
  local pidf=$DISTRO_DIR/mirror.pid i
  mkdir -p "$DISTRO_DIR"
  if [ -s "$pidf" ] && kill -0 "$(cat "$pidf")" 2>/dev/null; then return 0; fi
  setsid bash -c "echo \$\$ > $pidf; exec python3 -m http.server $DISTRO_MIRROR_PORT --bind $DISTRO_GW --directory $DISTRO_MIRROR" \
    </dev/null >"$DISTRO_DIR/mirror.log" 2>&1 9>&- &
  for i in $(seq 1 50); do
    (exec 3<>"/dev/tcp/$DISTRO_GW/$DISTRO_MIRROR_PORT") 2>/dev/null && return 0
    sleep 0.1
  done
  die "the mirror's HTTP server did not start (see $DISTRO_DIR/mirror.log)"
}
