# tests/vm/static_scenario.sh: runs inside the test VM (busybox sh) with the
# static iotriage (meson -Dstatic=true) as the only program besides busybox:
# proves that no shared library is in the initramfs, then ramdisk list,
# ramdisk create (brd), readdisks of the two RAM disks, ramdisk destroy.
# Sections as in ramdisk_scenario.sh; tests/cli/test_static_vm.sh asserts.
export IOTRIAGE_STATE_DIR=/tmp/state
I=iotriage
run() { # run NAME CMD...
	n=$1; shift
	echo "=== BEGIN $n"
	"$@" 2>&1
	rc=$?
	echo "=== END $n rc=$rc"
}
runj() { # runj NAME CMD...: stdout (JSON) alone
	n=$1; shift
	echo "=== JSON $n"
	"$@" 2>/tmp/err
	rc=$?
	echo
	echo "=== ENDJSON $n rc=$rc"
	echo "=== BEGIN $n-log"
	cat /tmp/err
	echo "=== END $n-log rc=$rc"
}
libs() { # every shared object or dynamic loader in the VM's root file system
	find / -xdev \( -name '*.so' -o -name '*.so.*' -o -name 'ld-linux*' \) 2>/dev/null
	echo "count=$(find / -xdev \( -name '*.so' -o -name '*.so.*' -o -name 'ld-linux*' \) 2>/dev/null | wc -l)"
}
run libs libs
run list-empty $I ramdisk list
runj brd-create $I ramdisk create 64M --count 2 --backend brd -y --json
runj readdisks $I readdisks --match ram0 --match ram1 --size 16M --json
run list $I ramdisk list
run destroy $I ramdisk destroy
