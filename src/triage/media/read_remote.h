/* triage/media/read_remote.h: the entries of a read batch that live on
 * other hosts (disk_read.host: a Ceph OSD's device on the host `ceph osd
 * metadata` names), read there through the fleet (triage/fleet/fleet.h):
 * per entry, the handshake and `iotriage --fleet-session --json readdisk
 * DEVICE -s SIZE -b BS -q N -e ENGINE` over the host's one multiplexed ssh
 * connection, with the batch's read options and read_batch.remote's ssh
 * config and remote program. The document that comes back is read
 * (remote/remote_read.h) into the entry, so the remote read is ranked and
 * judged with the local ones; its latency histogram is rebuilt from the
 * document's percentiles (each at its own value: the p99 the verdict
 * judges is the remote one, the mean kept, the stdev not). A host that
 * cannot be reached, refuses us, or has no iotriage: each of its entries
 * fails with the host's reason, once (the host is not tried again), and
 * the other entries are read. Reads run one at a time. */
#ifndef IOTRIAGE_TRIAGE_READ_REMOTE_H
#define IOTRIAGE_TRIAGE_READ_REMOTE_H

#include <stddef.h>

#include "media/readtest.h"
#include "remote/remote_read.h"

/* How a batch's entries on other hosts (disk_read.host) are read there:
 * `iotriage readdisk DEVICE --json` through the fleet (OpenSSH, the user's
 * ssh_config unless SSH_CONFIG, BatchMode). A read batch holds one. */
struct read_remote {
	const char *ssh_config;  /* ssh -F FILE; NULL: ~/.ssh/config */
	const char *iotriage;    /* the program there; NULL: iotriage in its PATH */
	int schema_version;      /* this iotriage's document schema (the handshake's check) */
};

/* Reads every one of the N READS with a host that is not skipped, with
 * OPTS (logging a READ-DISK line for each, "on host H"). Returns how many
 * were read. */
size_t read_remote_execute(struct disk_read *reads, size_t n, const struct readtest_opts *opts,
			   const struct read_remote *remote);
/* D (its host set) filled from its host's read RR: status, reason ("on
 * host H: ..."), identity, and a job result with RR's bytes and seconds and
 * a latency histogram rebuilt from its percentiles. Pure. */
void read_remote_fill(struct disk_read *d, const struct remote_read *rr);
/* One more read of D on its host into AGAIN (zeroed by the caller, its info
 * copied): a confirming read. */
void read_remote_again(const struct disk_read *d, const struct readtest_opts *opts, const struct read_remote *remote,
		       struct disk_read *again);

#endif
