/* media/disk_verdict.h: the verdict of step 1 on one disk, as a type.
 *
 * A verdict has a kind (what the read test concluded), its reasons (each
 * piece of evidence weighed, in words, and whether it counts against the
 * disk), the comparison with its peers (media/outlier.h: its rate, and its
 * p99 completion latency, where only a high one counts) and the count of
 * its reads (the first and the confirming re-reads). The judgement that
 * fills it is triage/media/read_verdict.c (and triage/media/read_health.c for the
 * health reason); everything else asks this module's rules, never the word.
 *
 * The word a kind is shown and stored as (disk_verdict_word) is coarser
 * than the kind: a regression against the disk's baseline is "slow" like a
 * disk slow against its peers, and every failed or refused read is "error".
 * A slow tail is a kind only when the rate is in line; otherwise it is a
 * reason beside the rate's finding.
 * A health failure is not a kind: it is a reason, a finding whatever the
 * kind (a disk can read at full speed and report its own failure); so is a
 * link trained below what both its ends support (triage/media/read_link.h). Pure.
 */
#ifndef IOTRIAGE_MEDIA_DISK_VERDICT_H
#define IOTRIAGE_MEDIA_DISK_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "media/outlier.h"

enum verdict_kind {
	VERDICT_NOT_JUDGED,  /* not judged yet (or the batch was interrupted) */
	VERDICT_OK,          /* in line with its peers and its baseline, or nothing to compare with */
	VERDICT_SLOW,        /* every read out of line below its peers */
	VERDICT_FAST,        /* every read out of line above its peers */
	VERDICT_REGRESSED,   /* every read below its baseline (in line with its peers, or none) */
	VERDICT_SLOW_TAIL,   /* every read's p99 latency out of line above its peers', its rate in line */
	VERDICT_IO_ERROR,    /* the device failed a read part way */
	VERDICT_NO_RESPONSE, /* no I/O completed within the deadline */
	VERDICT_CUT_SHORT,   /* the read started and was interrupted before its end */
	VERDICT_NOT_READ,    /* the read could not start (cannot open, no engine...) */
	VERDICT_SKIPPED,     /* not read on purpose (a partition, in use, not a disk...) */
};
#define VERDICT_KIND_COUNT (VERDICT_SKIPPED + 1)

/* How sure the verdict is, from where its evidence came. */
enum verdict_confidence {
	VERDICT_UNSUPPORTED, /* no evidence on the media: not judged, not read, or cut short */
	VERDICT_ONE_READ,    /* in line on its only read: nothing to confirm */
	VERDICT_DISMISSED,   /* out of line at first, a confirming read was not: ok */
	VERDICT_CONFIRMED,   /* out of line on every read, the confirming re-reads included */
	VERDICT_BY_DEVICE,   /* the device's own answer: an I/O error, or no answer at all */
};

enum verdict_reason_kind {
	REASON_PEERS,    /* its rate against its peers' median, or that it has none */
	REASON_BASELINE, /* its rate against its own baseline from an earlier run */
	REASON_LATENCY,  /* its p99 completion latency against its peers', when out of line */
	REASON_READ,     /* why the read failed, stopped or did not run */
	REASON_HEALTH,   /* the drive's own report of a failure (SMART) */
	REASON_LINK,     /* a link below what both its ends support, or at the disk's rate (its ceiling) */
};

#define VERDICT_MAX_REASONS 6
#define VERDICT_SENTENCE_LEN 512 /* the sentence's room, as stored and logged */

struct verdict_reason {
	enum verdict_reason_kind kind;
	bool against;                        /* this evidence counts against the disk */
	char evidence[VERDICT_SENTENCE_LEN]; /* in words, lowercase, no full stop */
};

/* The reads a verdict rests on: the first and its confirming re-reads. */
struct verdict_reads {
	unsigned total;
	unsigned out_of_line;      /* out of line with its peers, in the first read's direction */
	unsigned below_baseline;   /* below the regression limit of its baseline */
	unsigned tail_out_of_line; /* its p99 latency out of line above its peers' */
};

/* The tail is judged with media/outlier's statistics on the p99 latency
 * itself, so a tail above its peers' is the larger number: OUTLIER_FAST. */
#define VERDICT_TAIL_HIGH OUTLIER_FAST
/* A p99 of fewer completions than this is close to their maximum, one
 * hiccup: such a read's tail is not judged. */
#define VERDICT_TAIL_MIN_IOS 200

struct disk_verdict {
	enum verdict_kind kind;
	struct outlier_finding peers; /* the first read against its peers */
	struct outlier_finding tail;  /* its p99 latency against its peers'; OUTLIER_NO_PEERS: not judged */
	double p99_ns;                /* the first read's p99 completion latency; 0 when not judged */
	struct verdict_reads reads;
	struct verdict_reason reasons[VERDICT_MAX_REASONS];
	size_t reason_count;
};

/* The kind of a disk that read, from its counts of reads and the first
 * read's flags against its peers (FIRST its rate, TAIL its p99 latency):
 * slow or fast when every read was out of line with its peers, else
 * regressed when every read was below its baseline, else a slow tail when
 * every read's p99 was above its peers', else ok. */
enum verdict_kind disk_verdict_kind_of_reads(enum outlier_flag first, enum outlier_flag tail,
					     const struct verdict_reads *reads);
enum verdict_confidence disk_verdict_confidence(const struct disk_verdict *v);

/* The word shown in the VERDICT column and stored as the device's
 * "verdict": "ok", "slow", "fast", "slow tail", "error", "skipped"; NULL
 * when not judged. */
const char *disk_verdict_word(enum verdict_kind k);
/* Whether a stored verdict word names an outlier against the peers or the
 * baseline ("slow", "fast", "slow tail"); false for NULL or a word it does
 * not know. */
bool disk_verdict_word_is_outlier(const char *word);

/* Slow against its peers or its baseline. */
bool disk_verdict_is_slow(enum verdict_kind k);
/* Out of line with its peers or its baseline: slow, fast, regressed or a
 * slow tail. */
bool disk_verdict_out_of_line(enum verdict_kind k);
/* A media suspect, to be cross-checked with its health and named by
 * doctor: slow, regressed or a slow tail (a fast disk is not). */
bool disk_verdict_suspect(enum verdict_kind k);
/* The read started and did not end well: an I/O error, no response, or cut
 * short. */
bool disk_verdict_read_failed(enum verdict_kind k);
/* Anything but ok, skipped or not judged: worth showing the disk's health
 * beside it. */
bool disk_verdict_flagged(enum verdict_kind k);

/* Adds a reason (dropped when VERDICT_MAX_REASONS are there already). */
void disk_verdict_add_reason(struct disk_verdict *v, enum verdict_reason_kind kind, bool against,
			     const char *evidence);
bool disk_verdict_has_reason(const struct disk_verdict *v, enum verdict_reason_kind kind);
/* The reasons in one sentence, in the order they were added, "; " between
 * them, a health reason introduced by "health finding: "; cut to LEN. ""
 * when there is no reason. */
void disk_verdict_sentence(const struct disk_verdict *v, char *buf, size_t len);

#endif
