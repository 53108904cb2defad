#!/usr/bin/env bash
# bench/deb.sh: the Debian package end to end. Builds it with
# dpkg-buildpackage -us -uc -b in a copy of the committed tree (git archive
# HEAD, so nothing of a local build gets in), lints it with lintian,
# installs it with dpkg, checks the man pages and the completion are where
# the package says, runs `iotriage doctor --lab`, and purges it: every file
# the package listed and the state directories must be gone. Too slow for
# CI (a full build). Needs root, debhelper, lintian, fakeroot; prints what
# it runs and lintian's output. Exit 0 when every step passed.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /var/tmp/iotriage-deb.XXXXXX)
installed=0
cleanup() {
	if [ "$installed" = 1 ]; then dpkg --purge iotriage >/dev/null 2>&1 || true; fi
	rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
step() { echo "+ $*"; }

[ "$(id -u)" -eq 0 ] || fail "needs root (dpkg -i)"
if dpkg -s iotriage >/dev/null 2>&1; then fail "iotriage is already installed; not touching it"; fi
for t in dpkg-buildpackage dh lintian fakeroot git; do
	command -v "$t" >/dev/null || fail "$t not installed (apt-get install dpkg-dev debhelper lintian fakeroot git)"
done

version=$(dpkg-parsechangelog -l "$here/debian/changelog" -S Version)
src=$work/iotriage-$version
mkdir "$src"
git -C "$here" archive HEAD | tar -x -C "$src"
step "cd $src && dpkg-buildpackage -us -uc -b"
(cd "$src" && dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; fail "dpkg-buildpackage"; }
deb=$(ls "$work"/iotriage_"$version"_*.deb)
changes=$(ls "$work"/iotriage_"$version"_*.changes)
echo "built $(basename "$deb") ($(stat -c %s "$deb") bytes)"

step "lintian --info $(basename "$changes")"
lintian --info "$changes" >"$work/lintian.txt" 2>&1 || true
cat "$work/lintian.txt"
if grep -q '^E: ' "$work/lintian.txt"; then fail "lintian reports errors"; fi

step "dpkg-deb -f $(basename "$deb") Depends Recommends Suggests"
dpkg-deb -f "$deb" Depends Recommends Suggests
step "dpkg -i $(basename "$deb")"
dpkg -i "$deb" >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "dpkg -i"; }
installed=1
dpkg -L iotriage | sort >"$work/files"
for f in /usr/bin/iotriage /usr/share/man/man1/iotriage.1.gz /usr/share/man/man1/iotriage-bundle.1.gz \
	/usr/share/bash-completion/completions/iotriage /usr/share/doc/iotriage/copyright; do
	grep -qx "$f" "$work/files" || fail "$f is not in the package"
	[ -e "$f" ] || fail "$f is listed but not installed"
done
echo "installed: $(grep -c . "$work/files") paths, man pages: $(grep -c '/man1/' "$work/files")"
step "man -w iotriage"
man -w iotriage

# The state directories may already hold another user's results on a
# shared machine (a root run from a clone): then doctor and the purge run in
# a private mount namespace with an empty tmpfs on each, and the check is
# that the purge emptied them (a mount point itself cannot go).
shared=0
for d in /var/lib/iotriage /var/log/iotriage; do [ -e "$d" ] && shared=1; done
cat >"$work/lab-and-purge.sh" <<'INNER'
set -u
work=$1 shared=$2
if [ "$shared" = 1 ]; then
	for d in /var/lib/iotriage /var/log/iotriage; do
		[ -d "$d" ] || { mkdir "$d" && echo "$d" >>"$work/made"; }
		mount -t tmpfs -o size=64m,mode=0755 tmpfs "$d" || exit 1
	done
fi
echo "+ iotriage doctor --lab"
iotriage doctor --lab >"$work/doctor.txt" 2>"$work/doctor.err"
echo "doctor exit status $?" >"$work/doctor.status"
tail -12 "$work/doctor.txt"
ls -A /var/lib/iotriage >"$work/results.list" 2>/dev/null
echo "+ dpkg --purge iotriage"
dpkg --purge iotriage >"$work/purge.log" 2>&1 || { cat "$work/purge.log"; exit 1; }
left=0
for d in /var/lib/iotriage /var/log/iotriage; do
	if [ "$shared" = 1 ]; then
		[ -z "$(ls -A "$d")" ] || { echo "left behind in $d: $(ls -A "$d")"; left=1; }
	else
		[ ! -e "$d" ] || { echo "left behind: $d"; left=1; }
	fi
done
exit $left
INNER
if [ "$shared" = 1 ]; then
	echo "(state directories already exist here: doctor and purge run over private tmpfs copies)"
	before=$(ls -A /var/lib/iotriage 2>/dev/null | md5sum)
	unshare -m --propagation private bash "$work/lab-and-purge.sh" "$work" 1 || rc=$?
	[ "$(ls -A /var/lib/iotriage 2>/dev/null | md5sum)" = "$before" ] || fail "the existing /var/lib/iotriage was touched"
	if [ -f "$work/made" ]; then while read -r d; do rmdir "$d"; done <"$work/made"; fi
else
	bash "$work/lab-and-purge.sh" "$work" 0 || rc=$?
fi
installed=0
cat "$work/doctor.status"
grep -qx "doctor exit status 0" "$work/doctor.status" || { tail -20 "$work/doctor.err"; fail "doctor --lab"; }
grep -q . "$work/results.list" || fail "doctor --lab as root kept no results in /var/lib/iotriage"
[ "${rc:-0}" -eq 0 ] || fail "the purge left state behind"
left=0
while IFS= read -r f; do
	case "$f" in /.|/usr|/usr/bin|/usr/share|/usr/share/man|/usr/share/man/man1|/usr/share/doc|/usr/share/bash-completion|/usr/share/bash-completion/completions) continue ;; esac
	if [ -e "$f" ]; then echo "left behind: $f"; left=$((left + 1)); fi
done <"$work/files"
[ "$left" -eq 0 ] || fail "$left packaged paths left after the purge"
echo "purged: nothing left"
echo "PASS"
