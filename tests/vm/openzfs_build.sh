#!/usr/bin/env bash
# tests/vm/openzfs_build.sh [--prepare] [KERNEL_VERSION]: real OpenZFS for the
# qemu VM, built once and cached. Prints the cache directory on stdout:
#   DIR/modules/*.ko (spl.ko, zfs.ko, and 2.1's other parts) built for KERNEL_VERSION (default:
#                                            the newest /boot/vmlinuz-*, the VM's kernel)
#   DIR/root/                                zfsutils-linux and its libraries,
#                                            unpacked (zpool, zfs, libzfs...)
#   DIR/VERSION                              the OpenZFS version
# --prepare does only what needs apt (the contrib sources entry, the VM
# kernel's headers and the build tools, the packages downloaded), for
# scripts/install-test-deps.sh; the build itself then needs no apt, so
# scripts/test.sh runs it in the background while the plain pass runs.
#
# The host never gets OpenZFS installed: zfs-dkms and zfsutils-linux Break and
# Conflict with zfs-fuse, which the host's own tests use (and the host kernel
# loads no modules). So the packages are downloaded from Debian's contrib
# component (bookworm-backports, OpenZFS 2.3) and unpacked with dpkg-deb -x,
# and the module is built from zfs-dkms's source tree against Debian's
# headers for the VM's kernel. The cache key is the kernel and OpenZFS
# versions: a second run finds the modules and builds nothing (the build
# takes 15 to 25 minutes on 2 cores). A second caller waits for a build in
# progress (flock) rather than starting another. IOTRIAGE_OPENZFS_CACHE moves
# the cache (default /var/cache/iotriage/openzfs). IOTRIAGE_OPENZFS_SUITE=bookworm
# takes OpenZFS 2.1 instead (bookworm/contrib), for captures of its output
# (tests/data/capture_openzfs.sh); the suite runs 2.3 only.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/lib-apt.sh

prepare=false
[ "${1:-}" = --prepare ] && { prepare=true; shift; }
kver=${1:-$(basename "$(ls -v /boot/vmlinuz-* | tail -n 1)" | sed 's/^vmlinuz-//')}
suite=${IOTRIAGE_OPENZFS_SUITE:-bookworm-backports}
cache_root=${IOTRIAGE_OPENZFS_CACHE:-/var/cache/iotriage/openzfs}
sources=/etc/apt/sources.list.d/iotriage-contrib.sources
mkdir -p "$cache_root/downloads"
exec 9>"$cache_root/.lock"
flock 9

# Debian's contrib component, for the test suite only (never a runtime
# dependency). Nothing is installed from it: packages are downloaded.
if [ ! -f "$sources" ]; then
	cat >"$sources" <<SRC
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm $suite
Components: contrib
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	apt-get update -qq >&2
fi
madison() { apt-cache madison zfs-dkms 2>/dev/null | awk -v s=" $suite/contrib" '$0 ~ s {print $3; exit}'; }
zver=$(madison)
[ -n "$zver" ] || { apt-get update -qq >&2; zver=$(madison); }
[ -n "$zver" ] || { echo "openzfs_build: zfs-dkms is not in $suite/contrib" >&2; exit 1; }
upstream=${zver%%-*}
dir=$cache_root/$kver-$upstream
built() { [ -f "$dir/modules/zfs.ko" ] && [ -f "$dir/modules/spl.ko" ] && [ -x "$dir/root/sbin/zpool" ]; }
if built; then
	echo "$dir"
	exit 0
fi

debs=$cache_root/downloads/$upstream
if [ ! -f "$debs/.complete" ]; then
	# The build's own tools: the VM kernel's headers (with gcc-12 and kbuild).
	apt_install "linux-headers-$kver" build-essential >&2
	mkdir -p "$debs"
	chown _apt "$debs" 2>/dev/null || true
	# zfsutils-linux's own libraries, whose names carry their ABI (libzfs6linux in 2.3, libzfs4linux in 2.1).
	libs=$(apt-cache depends "zfsutils-linux=$zver" | awk '/Depends: lib(zfs|nvpair|uutil|zpool)[0-9]+linux/ { print $2 "=" v }' v="$zver" | sort -u)
	(cd "$debs" && apt-get download -qq "zfs-dkms=$zver" "zfsutils-linux=$zver" $libs >&2)
	touch "$debs/.complete"
fi
$prepare && exit 0

work=$(mktemp -d /var/tmp/iotriage-openzfs.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/root"
dpkg-deb -x "$debs"/zfs-dkms_*.deb "$work/src"
for deb in "$debs"/zfsutils-linux_*.deb "$debs"/lib*.deb; do
	dpkg-deb -x "$deb" "$work/root"
done
srcdir=$(ls -d "$work"/src/usr/src/zfs-*)
common=$(ls -d /usr/src/linux-headers-"${kver%-amd64}"-common 2>/dev/null || true)
echo "openzfs_build: building OpenZFS $upstream for $kver (15 to 25 minutes)" >&2
start=$SECONDS
(
	cd "$srcdir"
	# The dkms tree ships configure; the kernel part only.
	./configure --with-config=kernel --with-linux="${common:-/usr/src/linux-headers-$kver}" \
		--with-linux-obj="/usr/src/linux-headers-$kver" >"$work/configure.log" 2>&1 ||
		{ tail -n 30 "$work/configure.log" >&2; exit 1; }
	make -j"$(nproc)" -C module >"$work/make.log" 2>&1 || { tail -n 40 "$work/make.log" >&2; exit 1; }
)
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp/modules"
# 2.3 builds spl.ko and zfs.ko; 2.1 splits zfs into icp, zavl, zcommon, zlua,
# znvpair, zunicode and zzstd besides: every module goes.
find "$srcdir/module" -name '*.ko' -exec cp {} "$dir.tmp/modules/" \;
[ -f "$dir.tmp/modules/zfs.ko" ] && [ -f "$dir.tmp/modules/spl.ko" ] ||
	{ echo "openzfs_build: the build made no spl.ko/zfs.ko" >&2; exit 1; }
strip --strip-debug "$dir.tmp/modules/"*.ko
cp -a "$work/root" "$dir.tmp/root"
echo "$upstream" >"$dir.tmp/VERSION"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
echo "openzfs_build: built in $((SECONDS - start)) s, cached in $dir" >&2
echo "$dir"
