#!/usr/bin/env bash
# tests/vm/build_initramfs.sh KVER IOTRIAGE SCENARIO OUT.cpio.gz
# An initramfs for the RAM-disk VM test: busybox-static, the kernel modules
# the scenario needs (with their dependencies from modules.dep, decompressed
# when the kernel ships them compressed), the iotriage binary with every
# library ldd lists, an init that mounts what the scenario needs, runs it on
# the serial console and powers off. Builds in a temporary directory that
# is removed on success, failure and signals.
# VM_MODULES replaces the module list (default: the RAM-disk backends);
# VM_PROGRAMS names more programs (e.g. smartctl) copied into /bin with
# their libraries; VM_FILES names files copied into / (by their base name).
# VM_TREE=DIR copies DIR's tree into / (OpenZFS's unpacked userland: its
# programs and libraries, tests/vm/openzfs_build.sh) and, for each program
# under DIR's sbin and bin folders, the host libraries ldd lists for it (DIR's
# own libraries first). VM_KO names module files built outside the kernel
# (spl.ko zfs.ko), copied to /lib/modules/KVER/extra with the kernel modules
# their "depends" name, and entered in modules.dep so modprobe loads them.
# VM_UDEV=1 adds the host's udev (systemd 252's udevadm, which runs as
# systemd-udevd when called by that name, with ata_id, scsi_id and
# 60-persistent-storage.rules, as Debian's own initramfs carries it), so the
# scenario can start it and have /dev/disk/by-id made as on a real host.
set -eu
kver=${1:?kernel version} iotriage=${2:?iotriage binary} scenario=${3:?scenario script} out=${4:?output}
here=$(cd "$(dirname "$0")" && pwd)
moddir=/lib/modules/$kver
[ -f "$moddir/modules.dep" ] || { echo "no $moddir/modules.dep" >&2; exit 1; }
busybox=$(command -v busybox)
file -L "$busybox" | grep -q 'statically linked' || { echo "busybox is not static (install busybox-static)" >&2; exit 1; }

root=$(mktemp -d /tmp/iotriage-initramfs.XXXXXX)
trap 'rm -rf "$root"' EXIT
trap 'exit 130' INT TERM HUP
mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,run,etc,mnt} "$root$moddir"

cp "$busybox" "$root/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done

# Modules and everything they depend on, in modules.dep's own paths.
want=${VM_MODULES:-"scsi_debug sd_mod null_blk configfs brd"}
for ko in ${VM_KO:-}; do
	for dep in $(modinfo -F depends "$ko" | tr ',' ' '); do
		case " ${VM_KO} " in *"/$dep.ko "*) ;; *) want="$want $dep" ;; esac
	done
done
declare -A seen=()
add_module() { # add_module PATH-IN-MODULES.DEP
	local rel=$1 dep
	[ -n "${seen[$rel]:-}" ] && return 0
	seen[$rel]=1
	for dep in $(awk -F': *' -v m="$rel" '$1 == m { print $2 }' "$moddir/modules.dep"); do
		add_module "$dep"
	done
}
for m in $want; do
	rel=$(awk -F: -v m="$m" '{ n = $1; sub(/.*\//, "", n); sub(/\.ko(\.(xz|zst|gz))?$/, "", n); gsub(/-/, "_", n) } n == m { print $1; exit }' "$moddir/modules.dep")
	[ -n "$rel" ] || { echo "module $m is not in $moddir/modules.dep" >&2; exit 1; }
	add_module "$rel"
done
for rel in "${!seen[@]}"; do
	plain=${rel%.xz}; plain=${plain%.zst}; plain=${plain%.gz}
	mkdir -p "$(dirname "$root$moddir/$plain")"
	case $rel in
	*.xz) xz -dc "$moddir/$rel" >"$root$moddir/$plain" ;;
	*.zst) zstd -qdc "$moddir/$rel" >"$root$moddir/$plain" ;;
	*.gz) gzip -dc "$moddir/$rel" >"$root$moddir/$plain" ;;
	*) cp "$moddir/$rel" "$root$moddir/$plain" ;;
	esac
done
# modules.dep for the copied modules, with the decompressed names.
for rel in "${!seen[@]}"; do
	grep -E "^${rel//./\\.}:" "$moddir/modules.dep"
done | sed -E 's/\.ko\.(xz|zst|gz)/.ko/g' >"$root$moddir/modules.dep"
# Out-of-tree modules: each after the kernel modules it depends on.
if [ -n "${VM_KO:-}" ]; then
	mkdir -p "$root$moddir/extra"
	for ko in $VM_KO; do
		cp "$ko" "$root$moddir/extra/"
	done
	for ko in $VM_KO; do
		deps=""
		for dep in $(modinfo -F depends "$ko" | tr ',' ' '); do
			if [ -f "$root$moddir/extra/$dep.ko" ]; then
				deps="$deps extra/$dep.ko"
			else
				rel=$(awk -F: -v m="$dep" '{ n = $1; sub(/.*\//, "", n); sub(/\.ko(\.(xz|zst|gz))?$/, "", n); gsub(/-/, "_", n) } n == m { print $1; exit }' "$root$moddir/modules.dep")
				[ -n "$rel" ] && deps="$deps $rel"
			fi
		done
		echo "extra/${ko##*/}:$deps" >>"$root$moddir/modules.dep"
	done
fi
: >"$root$moddir/modules.builtin"
[ -f "$moddir/modules.builtin" ] && cp "$moddir/modules.builtin" "$root$moddir/modules.builtin"

# iotriage (and VM_PROGRAMS) with their libraries (and the dynamic loader)
# at their own paths.
add_program() { # add_program PATH NAME-IN-/bin
	local lib
	cp "$1" "$root/bin/$2"
	for lib in $(ldd "$1" | awk '/=>/ { print $3 } /^\t\/lib/ { print $1 }'); do
		[ -f "$lib" ] || continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}
add_program "$iotriage" iotriage
if [ -n "${VM_TREE:-}" ]; then
	cp -a "$VM_TREE/." "$root/"
	libpath=$(find "$VM_TREE" -name '*.so*' -printf '%h\n' | sort -u | tr '\n' ':')
	for prog in "$VM_TREE"/sbin/* "$VM_TREE"/usr/sbin/* "$VM_TREE"/bin/* "$VM_TREE"/usr/bin/*; do
		[ -f "$prog" ] && file -L "$prog" | grep -q ELF || continue
		for lib in $(LD_LIBRARY_PATH=$libpath ldd "$prog" | awk '/=>/ { print $3 } /^\t\/lib/ { print $1 }'); do
			case $lib in "$VM_TREE"/*) continue ;; esac
			[ -f "$lib" ] && [ ! -e "$root$lib" ] || continue
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
	done
fi
# Libraries a program opens itself, which ldd cannot see (libgcc_s, which
# glibc's pthread_exit loads: zdb aborts without it).
for lib in ${VM_LIBS:-}; do
	[ -f "$lib" ] || { echo "library $lib is not installed" >&2; exit 1; }
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done
for p in ${VM_PROGRAMS:-}; do
	path=$(command -v "$p") || { echo "program $p is not installed" >&2; exit 1; }
	rm -f "$root/bin/${path##*/}" # a busybox applet of the same name gives way
	add_program "$path" "${path##*/}"
done
if [ "${VM_UDEV:-0}" = 1 ]; then
	udevadm=$(command -v udevadm) || { echo "udevadm is not installed (package udev)" >&2; exit 1; }
	add_program "$udevadm" udevadm
	ln -s udevadm "$root/bin/systemd-udevd"
	rules=/usr/lib/udev/rules.d/60-persistent-storage.rules
	[ -f "$rules" ] || { echo "no $rules (package udev)" >&2; exit 1; }
	mkdir -p "$root/usr/lib/udev/rules.d" "$root/etc/udev"
	cp "$rules" "$root/usr/lib/udev/rules.d/"
	for helper in ata_id scsi_id; do
		add_program "/usr/lib/udev/$helper" "$helper"
		mv "$root/bin/$helper" "$root/usr/lib/udev/$helper"
	done
	# Debian's udev (split /usr) looks for rules and helpers under /lib/udev too
	# (where VM_TREE may have put its own rules: OpenZFS's zvol and vdev rules).
	if [ -d "$root/lib/udev" ] && [ ! -L "$root/lib/udev" ]; then
		cp -a "$root/lib/udev/." "$root/usr/lib/udev/"
		rm -rf "$root/lib/udev"
	fi
	ln -s ../usr/lib/udev "$root/lib/udev"
fi
cp "$scenario" "$root/scenario.sh"
for f in ${VM_FILES:-}; do
	cp "$f" "$root/${f##*/}"
done
cp "$here/init" "$root/init"
chmod 755 "$root/init" "$root/scenario.sh"
echo "root:x:0:0:root:/:/bin/sh" >"$root/etc/passwd"
echo "nobody:x:65534:65534:nobody:/nonexistent:/bin/sh" >>"$root/etc/passwd"

(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$out"
