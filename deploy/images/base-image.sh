#!/usr/bin/env bash
# base-image.sh OUT [JAVA_HOME]: the base image of the broker's and the agent's images, made from packages,
# without a container daemon or registry. Writes OUT/base.tar, a `docker save` tarball Jib reads as
# `tar://OUT/base.tar`, with two layers:
#   1. a distroless-style root filesystem from Debian 12 packages (glibc, libgcc/libstdc++ which the JVM links,
#      zlib, CA certificates, tzdata, netbase, base-files), their docs pruned, the CA bundle concatenated the way
#      distroless does, /etc/passwd and /etc/group with root, nonroot (65532) and nobody, and one dpkg status
#      file per package under /var/lib/dpkg/status.d/ so image scanners see what is inside;
#   2. a Java runtime at /opt/java made by jlink from JAVA_HOME (default: the JDK running the build).
# The result is cached: a second call with the same script, packages and JDK returns at once (the agent and the
# broker share one base). Needs apt-get (with package lists: apt-get update), dpkg-deb, tar, sha256sum, jlink.
set -euo pipefail

out="${1:?usage: base-image.sh OUT [JAVA_HOME]}"
java_home="${2:-${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}}"

# The Debian packages of the root filesystem (distroless's base + cc: the JVM's libjvm.so needs libstdc++ and
# libgcc_s, bin/java needs libz). Their versions are the ones apt resolves today; the status files record them.
packages=(base-files netbase tzdata ca-certificates libc6 libgcc-s1 libstdc++6 zlib1g)

# The JDK modules the services use. `jdeps --print-module-deps --ignore-missing-deps --multi-release 17` over the
# broker's and the agent's jars and target/lib (31 s, so not run at every build) says: java.base, java.compiler,
# java.desktop (java.beans, for Jackson and SnakeYAML), java.management, java.naming, java.security.jgss,
# java.security.sasl, java.sql, jdk.jfr, jdk.unsupported (Netty), with java.logging and java.xml implied. Added
# because the code finds them at run time, not by linking: jdk.crypto.ec (TLS with EC keys and ECDHE, to Kafka and
# the API servers), jdk.naming.dns (JNDI DNS), jdk.zipfs (jar file systems), jdk.management (the
# com.sun.management beans that metrics read), jdk.security.auth (Kafka's Kerberos and SASL login modules).
# Re-run jdeps when a dependency brings a new module; a missing one fails at run time with NoClassDefFoundError.
modules=java.base,java.compiler,java.desktop,java.logging,java.management,java.naming,java.security.jgss,\
java.security.sasl,java.sql,java.xml,jdk.crypto.ec,jdk.jfr,jdk.management,jdk.naming.dns,jdk.security.auth,\
jdk.unsupported,jdk.zipfs

jlink_bin="$java_home/bin/jlink"
[ -x "$jlink_bin" ] || { echo "base-image.sh: no jlink in $java_home (a JDK with jmods is needed)" >&2; exit 2; }
[ -d "$java_home/jmods" ] || { echo "base-image.sh: $java_home has no jmods (Debian: openjdk-17-jdk-headless)" >&2; exit 2; }

mkdir -p "$out"
out="$(cd "$out" && pwd)"
exec 9>"$out/.lock"
flock 9 # the agent's and the broker's builds may run at once (mvn -T)

java_version="$("$java_home/bin/java" -version 2>&1 | tr '\n' ' ')"
key="$( (cat "$0"; echo "$java_version"; echo "${packages[*]}"; echo "$modules") | sha256sum | cut -c1-16)"
if [ -f "$out/base.tar" ] && [ "$(cat "$out/base.key" 2>/dev/null)" = "$key" ]; then
  echo "base-image.sh: reusing $out/base.tar ($key)"
  exit 0
fi
echo "base-image.sh: assembling $out/base.tar ($key) from ${packages[*]} and jlink of $java_home"

work="$out/work"
rm -rf "$work" "$out/base.tar" "$out/base.key"
mkdir -p "$work/debs" "$work/rootfs" "$work/java" "$work/image"

# --- 1. root filesystem from packages -------------------------------------------------------------------------
# apt-get download fetches into the current directory; as root it warns that _apt cannot write there: harmless.
(cd "$work/debs" && apt-get download -q "${packages[@]}" 2>&1 | grep -v -e '^W: Download is performed unsandboxed' -e '^Get:' || true)
for p in "${packages[@]}"; do
  deb=$(ls "$work/debs/${p}"_*.deb 2>/dev/null | head -n 1 || true)
  [ -n "$deb" ] || { echo "base-image.sh: could not download $p (stale or missing package lists? apt-get update)" >&2; exit 2; }
done
rootfs="$work/rootfs"
mkdir -p "$rootfs/var/lib/dpkg/status.d"
for deb in "$work/debs"/*.deb; do
  dpkg-deb -x "$deb" "$rootfs"
  name=$(dpkg-deb -f "$deb" Package)
  { dpkg-deb -f "$deb" Package Version Architecture Source Maintainer Installed-Size Depends Description;
    echo "Status: install ok installed"; } > "$rootfs/var/lib/dpkg/status.d/$name"
  # the licences stay (as distroless keeps them): copyright files only
  mkdir -p "$work/copyright/$name"
  cp "$rootfs/usr/share/doc/$name/copyright" "$work/copyright/$name/" 2>/dev/null || true
done
# what nothing in the image reads: docs, manuals, translations, lintian overrides, iconv modules (the JVM does its
# own charset conversion), the CA certificate updater's hooks (there is no shell to run them)
rm -rf "$rootfs/usr/share/doc" "$rootfs/usr/share/man" "$rootfs/usr/share/info" "$rootfs/usr/share/locale" \
  "$rootfs/usr/share/lintian" "$rootfs/usr/share/bug" "$rootfs/usr/lib/x86_64-linux-gnu/gconv" \
  "$rootfs/usr/share/gcc" "$rootfs/usr/share/gdb" "$rootfs/etc/ca-certificates/update.d" "$rootfs/usr/sbin" \
  "$rootfs/usr/share/base-files/dot.bashrc" "$rootfs/usr/share/base-files/profile"* "$rootfs/usr/share/base-files/dot.profile"*
mkdir -p "$rootfs/usr/share/doc"
cp -r "$work/copyright/." "$rootfs/usr/share/doc/"
# the CA bundle as update-ca-certificates would make it (distroless concatenates the same certificates)
mkdir -p "$rootfs/etc/ssl/certs"
find "$rootfs/usr/share/ca-certificates" -name '*.crt' | LC_ALL=C sort | xargs cat > "$rootfs/etc/ssl/certs/ca-certificates.crt"
# users: root, nonroot (65532, distroless's), nobody; a home and a /tmp (1777, mount a volume there when the root
# filesystem is read-only)
cat > "$rootfs/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin
nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin
EOF
cat > "$rootfs/etc/group" <<'EOF'
root:x:0:
nobody:x:65534:
tty:x:5:
staff:x:50:
nonroot:x:65532:
EOF
printf 'hosts: files dns\n' > "$rootfs/etc/nsswitch.conf"
ln -sf /usr/share/zoneinfo/Etc/UTC "$rootfs/etc/localtime"
echo "Etc/UTC" > "$rootfs/etc/timezone"
mkdir -p "$rootfs/home/nonroot" "$rootfs/tmp"
chmod 1777 "$rootfs/tmp"

# --- 2. Java runtime ------------------------------------------------------------------------------------------
# --compress=0: the layer is gzipped anyway, and gzip does better on uncompressed classes than on jlink's own
# compression (measured with a CDS archive: 30 MB against 36 MB for --compress=2, which also costs start time and
# 15 s of jlink); the runtime is 77 MB on disk, 27 MB gzipped.
# No --generate-cds-archive: JDK 17 does not write the class-data-sharing archive the same way twice, so the layer
# would get a new digest at every build (a new 30 MB for every registry and node); it saved ~0.1 s of a start.
"$jlink_bin" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files --compress=0 \
  --output "$work/java/opt/java" >/dev/null

# --- 3. docker-save tarball -----------------------------------------------------------------------------------
# Layers are reproducible: sorted names, owner root, one fixed date. /home/nonroot belongs to nonroot.
layer() { # layer DIR NAME
  tar --sort=name --numeric-owner --owner=0 --group=0 --mtime='@0' --format=posix \
    --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
    --exclude=./home/nonroot -C "$1" -cf "$work/image/$2.tar" .
  if [ -d "$1/home/nonroot" ]; then
    tar --numeric-owner --owner=65532 --group=65532 --mtime='@0' --format=posix \
      --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime \
      -C "$1" -rf "$work/image/$2.tar" ./home/nonroot
  fi
}
layer "$rootfs" rootfs
layer "$work/java" java
diff_rootfs="sha256:$(sha256sum "$work/image/rootfs.tar" | cut -d' ' -f1)"
diff_java="sha256:$(sha256sum "$work/image/java.tar" | cut -d' ' -f1)"
debian_versions=$(for deb in "$work/debs"/*.deb; do printf '%s=%s ' "$(dpkg-deb -f "$deb" Package)" "$(dpkg-deb -f "$deb" Version)"; done)
java_release=$(sed -n 's/^JAVA_VERSION="\(.*\)"/\1/p' "$work/java/opt/java/release")
cat > "$work/image/config.json" <<EOF
{"architecture":"amd64","os":"linux",
 "config":{"User":"65532:65532","WorkingDir":"/home/nonroot",
  "Env":["PATH=/opt/java/bin:/usr/local/bin:/usr/bin:/bin","JAVA_HOME=/opt/java","LANG=C.UTF-8",
         "SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt"],
  "Labels":{"dev.cartograph.base.debian":"${debian_versions% }","dev.cartograph.base.java":"${java_release}"}},
 "created":"1970-01-01T00:00:00Z",
 "history":[{"created":"1970-01-01T00:00:00Z","created_by":"deploy/images/base-image.sh: Debian ${packages[*]}"},
            {"created":"1970-01-01T00:00:00Z","created_by":"deploy/images/base-image.sh: jlink ${modules}"}],
 "rootfs":{"type":"layers","diff_ids":["${diff_rootfs}","${diff_java}"]}}
EOF
cat > "$work/image/manifest.json" <<'EOF'
[{"Config":"config.json","RepoTags":["cartograph-base:latest"],"Layers":["rootfs.tar","java.tar"]}]
EOF
# names without ./ (Jib refuses an entry named ./ in a base tarball)
tar --numeric-owner --owner=0 --group=0 --mtime='@0' -C "$work/image" -cf "$out/base.tar.part" \
  manifest.json config.json rootfs.tar java.tar
mv "$out/base.tar.part" "$out/base.tar"
echo "$key" > "$out/base.key"
echo "base-image.sh: wrote $out/base.tar: root filesystem $(du -h "$work/image/rootfs.tar" | cut -f1), Java runtime $(du -h "$work/image/java.tar" | cut -f1)"
rm -rf "$work"
