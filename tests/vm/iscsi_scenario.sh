# tests/vm/iscsi_scenario.sh: runs inside the test VM (busybox sh): step 3
# across the wire over iSCSI. A null_blk RAM disk exported through LIO by
# iotriage run in the server's network namespace "srv" (10.77.0.1), read by
# open-iscsi from the VM's initial namespace (10.77.0.2) over a veth, with
# no delay and then with netem 500 us on both ends. The initiator is in
# the initial namespace because the kernel's iSCSI initiator netlink
# (scsi_transport_iscsi) answers there only: iscsid in another namespace
# fails ("sendmsg: bug? ctrl_fd"), iscsiadm exits 18. Bad input, destroy
# while exported, Ctrl-C and SIGKILL of the client, SIGKILL of an export.
# Sections as in ramdisk_scenario.sh; tests/cli/test_iscsi_vm.sh asserts.
export IOTRIAGE_STATE_DIR=/tmp/state
I=iotriage
S="/bin/ip netns exec srv"
T=/sys/kernel/config/target
INIT=iqn.2026-12.org.iotriage.test:client
run() { n=$1; shift; echo "=== BEGIN $n"; "$@" 2>&1; rc=$?; echo "=== END $n rc=$rc"; }
runj() {
	n=$1; shift
	echo "=== JSON $n"; "$@" 2>/tmp/err; rc=$?; echo; echo "=== ENDJSON $n rc=$rc"
	echo "=== BEGIN $n-log"; cat /tmp/err; echo "=== END $n-log rc=$rc"
}
objects() { # what LIO and the initiator hold now (its own variable names: run's $n stays)
	for o_d in $T/iscsi/iqn.2014-08.org.iotriage* $T/iscsi/*/tpgt_1/np/* $T/iscsi/*/tpgt_1/acls/* $T/core/iblock_61696/*; do
		[ -e "$o_d" ] && echo "lio ${o_d#$T/}"
	done
	for o_s in /sys/class/iscsi_session/*; do [ -e "$o_s" ] && echo "session ${o_s##*/} $(cat $o_s/targetname)"; done
	for o_n in /etc/iscsi/nodes/*; do [ -e "$o_n" ] && echo "node ${o_n##*/}"; done
	[ -e /run/iotriage/ramdisk/export-lio ] && echo "record export-lio"
	true
}

modprobe veth
modprobe sch_netem
modprobe iscsi_tcp
# the iSCSI target asks the crypto API for crc32c at every login; the
# kernel would load it on demand, but this VM has no /sbin/modprobe for that
modprobe crc32c_generic
modprobe sd_mod # the LUN's disk driver, for the same reason
modprobe configfs
mount -t configfs configfs /sys/kernel/config
/bin/ip link set lo up
/bin/ip netns add srv
/bin/ip link add vcli type veth peer name vsrv
/bin/ip link set vsrv netns srv
/bin/ip addr add 10.77.0.2/24 dev vcli
/bin/ip link set vcli up
$S ip addr add 10.77.0.1/24 dev vsrv
$S ip link set vsrv up
$S ip link set lo up
run ping ping -c 1 -W 5 10.77.0.1
mkdir -p /etc/iscsi /run/lock/iscsi
cp /iscsid.conf /etc/iscsi/iscsid.conf
echo "InitiatorName=$INIT" >/etc/iscsi/initiatorname.iscsi
run iscsid /bin/iscsid

run export-none $S $I ramdisk export --iscsi 10.77.0.1 --allow-any-host
run objects-none objects
runj create $I ramdisk create 64M --backend null_blk -y --json
run export-noinit $S $I ramdisk export --iscsi 10.77.0.1
run export-badinit $S $I ramdisk export --iscsi 10.77.0.1 --initiator "not an iqn"
run export-notlocal $S $I ramdisk export --iscsi 192.0.2.1 --allow-any-host
run objects-notlocal objects
$S nc -l -p 3270 >/dev/null 2>&1 &
ncpid=$!
sleep 1
run export-inuse $S $I ramdisk export --iscsi 10.77.0.1:3270 --allow-any-host
kill $ncpid; wait $ncpid 2>/dev/null
run objects-inuse objects

runj export $S $I ramdisk export --iscsi 10.77.0.1 --allow-any-host --json
run objects-exported objects
run list $I ramdisk list
runj export-again $S $I ramdisk export --nvme-tcp 10.77.0.1 --allow-any-host --json

V="nsenter -t 1 -n"
runj wire0 $S $I ramdisk wire --via "$V" --runtime 2s --json
run objects-wire0 objects
$S tc qdisc add dev vsrv root netem delay 500us
/bin/tc qdisc add dev vcli root netem delay 500us
run ping-delay ping -c 3 10.77.0.1
runj wire500 $S $I ramdisk wire --via "$V" --runtime 2s --json
run objects-wire500 objects
run wire-table $S $I ramdisk wire --via "$V" --runtime 1s

# Ctrl-C while the client reads: it logs out and deletes the node record
$S $I ramdisk wire --via "$V" --runtime 4s >/tmp/int.out 2>&1 &
wpid=$!
n=0
while [ $n -lt 600 ] && ! ls /sys/class/iscsi_session/ 2>/dev/null | grep -q session; do sleep 0.1; n=$((n + 1)); done
sleep 1
run objects-during objects
kill -INT $wpid
wait $wpid
echo "=== INT rc=$?"
run int-log cat /tmp/int.out
run objects-int objects

# SIGKILL of the client while it reads: the next client run logs the
# leftover session out first, and leaves nothing either
iqn=$(ls $T/iscsi | grep iotriage | head -n 1)
$I ramdisk client --iscsi 10.77.0.1 --target "$iqn" --runtime 8s >/dev/null 2>&1 &
kpid=$!
n=0
while [ $n -lt 600 ] && ! ls /sys/class/iscsi_session/ 2>/dev/null | grep -q session; do sleep 0.1; n=$((n + 1)); done
sleep 1
kill -9 $kpid
wait $kpid 2>/dev/null
run objects-client-killed objects
runj client-after-kill $I ramdisk client --iscsi 10.77.0.1 --target "$iqn" --runtime 1s --json
run objects-client-after objects

run destroy-exported $I ramdisk destroy -y
run objects-refused objects
run unexport $I ramdisk unexport
run objects-unexported objects

# one allowed initiator: this one reads; a target for another refuses it
runj export-other $S $I ramdisk export --iscsi 10.77.0.1 --initiator iqn.2026-12.org.iotriage.test:other --json
run objects-other objects
iqn=$(ls $T/iscsi | grep iotriage | head -n 1)
run client-refused $I ramdisk client --iscsi 10.77.0.1 --target "$iqn" --runtime 1s
run objects-refused-client objects
run unexport-other $I ramdisk unexport
runj export-init $S $I ramdisk export --iscsi 10.77.0.1 --initiator $INIT --json
run objects-init objects
runj wire-init $S $I ramdisk wire --via "$V" --runtime 1s --json
run unexport-init $I ramdisk unexport
run objects-init-after objects

# SIGKILL of an export at a few moments, each followed by the next run
for d in 0.005 0.01 0.02 0.04 0.08; do
	$S $I ramdisk export --iscsi 10.77.0.1 --allow-any-host >/dev/null 2>&1 &
	kpid=$!
	sleep $d
	kill -9 $kpid
	wait $kpid 2>/dev/null
	echo "=== KILLED after $d s: $(objects | tr '\n' ' ') $(grep complete= /run/iotriage/ramdisk/export-lio 2>/dev/null)"
	run unexport-after-kill-$d $I ramdisk unexport
	run objects-after-kill-$d objects
done
$S $I ramdisk export --iscsi 10.77.0.1 --allow-any-host >/dev/null 2>&1 &
kpid=$!
while [ ! -e /run/iotriage/ramdisk/export-lio ] && kill -0 $kpid 2>/dev/null; do :; done
kill -9 $kpid
wait $kpid 2>/dev/null
echo "=== KILLED before destroy: $(objects | tr '\n' ' ') $(grep complete= /run/iotriage/ramdisk/export-lio 2>/dev/null)"
run destroy-after-kill $I ramdisk destroy --force -y
run objects-final objects
run list-final $I ramdisk list
