#!/usr/bin/env bash
# fleet on hosts that share the fleet's database: hosts whose runs keep
# their state in this machine's state directory (the local host itself, or
# hosts on a shared file system). Each host's run is already in the
# database when the fleet records it; it must be recorded once, with its
# host and the fleet run, not refused (it was: "cannot record the run of
# host 's1': UNIQUE constraint failed: runs.id", exit 1).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fleetlab.sh"

if ! why=$(fleetlab_need); then skip "fleet on a shared database" "$why"; exit 0; fi
command -v sqlite3 >/dev/null || { skip "fleet on a shared database" "sqlite3 is not installed"; exit 0; }

fleetlab_up
ok $? "lab up"
fleetlab_host s1 shared 41943040 && fleetlab_host s2 shared 41943040 && fleetlab_host h1 ok 41943040
ok $? "hosts up: s1 and s2 share this machine's state directory, h1 has its own"
DISK=$FLEET_FIX/disk
db=$IOTRIAGE_STATE_DIR/iotriage.db

fleet s1,s2,h1 --json -- readdisk "$DISK" --size 8M >"$TMP/run.json" 2>"$TMP/run.err"
rc=$?
ok $rc "every host ok: exit 0 (exit $rc)" || sed 's/^/# /' "$TMP/run.err"
check "no error about recording a host's run" -- bash -c "! grep -q 'cannot record the run' '$TMP/run.err'"
fleet_id=$(json "$TMP/run.json" .run_id)
runid() { json "$TMP/run.json" ".hosts[] | select(.host == \"$1\") | .document.run_id"; }
for h in s1 s2 h1; do
	id=$(runid "$h")
	check "$h: ok, with a run id" -- bash -c "[ '$(json "$TMP/run.json" ".hosts[] | select(.host == \"$h\") | .status")' = ok ] && [ -n '$id' ]"
	check "$h: its run is in the database once" -- test "$(sqlite3 "$db" "select count(*) from runs where id = '$id'")" = 1
	check "$h: recorded with its host, host name, machine-id and the fleet run" -- test "$(sqlite3 "$db" \
		"select count(*) from runs where id = '$id' and host = '$h' and host_hostname = 'fleet-$h' and host_machine_id = '$(cat "$FLEET_DIR/$h/machine-id")' and fleet_run_id = '$fleet_id'")" = 1
done
for h in s1 s2; do
	id=$(runid "$h")
	check "$h: the run's own rows are kept (its device's result)" -- \
		test "$(sqlite3 "$db" "select count(*) from results where run_id = '$id'")" -ge 1
	check "$h: the row keeps the document the run stored" -- \
		test "$(sqlite3 "$db" "select json_extract(document, '\$.run_id') from runs where id = '$id'")" = "$id"
done
check "the fleet run itself is recorded" -- test "$(sqlite3 "$db" "select count(*) from runs where id = '$fleet_id' and command = 'fleet'")" = 1
"$IOTRIAGE" history --host s1 --json >"$TMP/hist.json"
check "history --host s1: the shared host's run under its host" -- jtest "$TMP/hist.json" \
	"any(.runs[]; .run_id == \"$(runid s1)\" and .fleet_run_id == \"$fleet_id\")"
"$IOTRIAGE" show "${fleet_id:0:8}@s2" >"$TMP/show.out" 2>&1
ok $? "show RUN@HOST of a shared host exits 0"
check "and shows its run under its host" -- grep -q "^run $(runid s2): readdisk on s2, " "$TMP/show.out"

fleet s1 --json -- readdisk "$DISK" --size 8M >"$TMP/again.json" 2>"$TMP/again.err"
ok $? "a second fleet run on a shared host: exit 0"
check "its run recorded once, under the new fleet run" -- test "$(sqlite3 "$db" \
	"select count(*) from runs where id = '$(json "$TMP/again.json" '.hosts[0].document.run_id')' and fleet_run_id = '$(json "$TMP/again.json" .run_id)'")" = 1

finish
