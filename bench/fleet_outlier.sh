#!/usr/bin/env bash
# bench/fleet_outlier.sh [TRIALS]: does `iotriage fleet` name the slow host,
# and only it? Six hosts (tests/cli/fleetlab.sh: network namespaces on a
# bridge, each with its own sshd, host name, machine-id and loop device),
# every host's disk read-throttled to 100 MiB/s by a cgroup v1 blkio rule
# (identical appliances; unthrottled loop devices on this VM read anywhere
# from 0.5 to 1.7 GB/s from one run to the next, which no robust statistic
# can call comparable), and host h6 at 55 MiB/s (55% of the others).
#   phase 1: TRIALS runs of `fleet h1..h6 --parallel 6 -- readdisk DISK
#            --size 64M`: a run is right when h6, and only h6, is named
#            (confirmed by its re-run: "2 of 2 runs");
#   phase 2: h6's rule raised to 100 MiB/s too, TRIALS runs: right when no
#            host is named.
# Prints one line per run and the two counts. Needs root and openssh-server;
# removes everything it makes (fleetlab's undo list).
trials=${1:-10}
here=$(cd "$(dirname "$0")/.." && pwd)
export IOTRIAGE=${IOTRIAGE:-$here/build/iotriage}
. "$here/tests/cli/lib.sh"
. "$here/tests/cli/fleetlab.sh"
if ! why=$(fleetlab_need); then echo "fleet_outlier: $why" >&2; exit 1; fi

fast=104857600 slow=57671680
fleetlab_up || exit 1
for h in h1 h2 h3 h4 h5; do fleetlab_host $h ok $fast || exit 1; done
fleetlab_host h6 ok $slow || exit 1

# run PHASE I: one fleet run; prints the hosts named, comma-separated ("" for none)
run() {
	fleet h1,h2,h3,h4,h5,h6 --parallel 6 --json -- readdisk "$FLEET_FIX/disk" --size 64M \
		>"$TMP/run.json" 2>/dev/null
	jq -r '[.outliers.hosts[] | select(.confirmed) | .host] | join(",")' "$TMP/run.json"
}
show() { # PHASE I NAMED
	printf '%s run %2d: named [%s]; %s\n' "$1" "$2" "$3" \
		"$(jq -r '[.hosts[] | "\(.host) \((.read_bw_bytes_per_s // 0) / 1048576 | floor)"] | join(", ") + " MiB/s"' "$TMP/run.json")"
	jq -r '.outliers.hosts[].sentence' "$TMP/run.json" | sed 's/^/    /'
}

right1=0
for i in $(seq "$trials"); do
	named=$(run)
	[ "$named" = h6 ] && right1=$((right1 + 1))
	show "slowed" "$i" "$named"
done
rule="$(lsblk -dno MAJ:MIN "$(cat "$FLEET_DIR/h6/loop")" | tr -d ' ') $fast"
echo "$rule" >"/sys/fs/cgroup/blkio/$FLEET-h6/blkio.throttle.read_bps_device" || exit 1
right2=0
for i in $(seq "$trials"); do
	named=$(run)
	[ -z "$named" ] && right2=$((right2 + 1))
	show "even  " "$i" "$named"
done
echo "h6 at 55%: h6 and only h6 named in $right1 of $trials runs"
echo "no host slowed: none named in $right2 of $trials runs"
TAP_N=0
