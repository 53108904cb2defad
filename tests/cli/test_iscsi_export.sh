#!/usr/bin/env bash
# ramdisk export --iscsi on this machine, whose kernel has no LIO (the
# kernel's iSCSI target): every refusal is clear, exits non-zero and makes
# nothing (no record, no configfs object): no RAM disks, no initiator, a
# malformed initiator name, an address that is not local, LIO absent (on a
# real zram RAM disk); the client refuses a target that is not iotriage's.
# The export itself, logins and latency are in test_iscsi_vm.sh.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "iscsi export tests" "need root for zram devices"; exit 0; fi
if [ ! -e /sys/class/zram-control/hot_add ]; then skip "iscsi export tests" "this kernel has no zram"; exit 0; fi
if ls /dev/iotriage-ramdisk* >/dev/null 2>&1 || ls /run/iotriage/ramdisk/iotriage-ramdisk* >/dev/null 2>&1; then
	skip "iscsi export tests" "iotriage RAM disks exist already; not touching them"
	exit 0
fi
undo "'$IOTRIAGE' ramdisk destroy --force -y >/dev/null 2>&1"
rec=/run/iotriage/ramdisk/export-lio
nothing_made() { [ ! -e "$rec" ] && ! ls -d /sys/kernel/config/target/iscsi/iqn.2014-08.org.iotriage* >/dev/null 2>&1; }

bad() { # bad NAME STATUS MESSAGE ARGS...
	local name=$1 want=$2 msg=$3
	shift 3
	"$IOTRIAGE" ramdisk "$@" >"$TMP/out" 2>&1
	local rc=$?
	ok $((rc != want)) "$name: exits $want (got $rc)"
	check "$name: says '$msg'" -- grep -qF -- "$msg" "$TMP/out"
	nothing_made; ok $? "$name: nothing made"
}

bad "no transport" 2 "expected --nvme-tcp ADDR[:PORT] or --iscsi ADDR[:PORT]" export --initiator iqn.2026-12.org.x:y
bad "both transports" 2 "expected --nvme-tcp ADDR[:PORT] or --iscsi ADDR[:PORT]" export --iscsi 127.0.0.1 --nvme-tcp 127.0.0.1 --allow-any-host
bad "no RAM disks" 1 "no RAM disks to export: create them first" export --iscsi 127.0.0.1 --allow-any-host
bad "no initiator" 1 "name the client: --initiator IQN" export --iscsi 127.0.0.1
bad "a malformed initiator" 1 "'client one' is not an iSCSI name" export --iscsi 127.0.0.1 --initiator "client one"
bad "a malformed port" 1 "invalid port in '127.0.0.1:99999'" export --iscsi 127.0.0.1:99999 --allow-any-host
bad "the client, a target not iotriage's" 1 "is not an IQN iotriage exports" client --iscsi 127.0.0.1 --target iqn.2003-01.org.linux-iscsi.x:sn.1
bad "the client, no target" 2 "--iscsi ADDR[:PORT] and --target IQN" client --iscsi 127.0.0.1
bad "wire with nothing exported" 1 "nothing is exported" wire --via env --runtime 1s

"$IOTRIAGE" ramdisk create 64M --backend zram -y >"$TMP/create.out" 2>&1
ok $? "a zram RAM disk to export"
bad "an address that is not local" 1 "address '192.0.2.1' is not one of this host's" export --iscsi 192.0.2.1 --allow-any-host
if [ -d /sys/module/target_core_mod ] || modprobe -n target_core_mod 2>/dev/null; then
	skip "LIO absent" "this kernel has LIO; its absence is tested where the kernel lacks it"
else
	bad "LIO absent" 1 "LIO, the kernel's iSCSI target, is not available on this host" export --iscsi 127.0.0.1 --allow-any-host
	check "the reason names the module" -- grep -q "target_core_mod" "$TMP/out"
fi
"$IOTRIAGE" ramdisk list >"$TMP/list.out" 2>&1
check "list shows no export" -- bash -c "! grep -q 'Exported over' '$TMP/list.out'"
"$IOTRIAGE" ramdisk destroy -y >"$TMP/destroy.out" 2>&1
ok $? "destroy is not refused (nothing exported)"
finish
