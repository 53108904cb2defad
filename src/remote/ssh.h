/* remote/ssh.h: the OpenSSH client as the fleet's transport: its command
 * lines, the remote command's quoting, and what its failures mean.
 *
 * Every session is `ssh [-F FILE] -o BatchMode=yes -o ConnectTimeout=N
 * -o ControlMaster=auto -o ControlPath=DIR/%C -o ControlPersist=60 -T HOST
 * -- WORDS...` (-tt for a session with a terminal, see ssh_opts.tty):
 *   - the user's ~/.ssh/config applies (aliases, ProxyJump, IdentityFile,
 *     known hosts); -F replaces it only when a config file is given;
 *   - BatchMode: a password or passphrase prompt fails instead of hanging;
 *   - one multiplexed connection per host: the first session starts a
 *     master, the others (the run, re-runs) reuse it; ssh_exit_argv() stops
 *     it at the end (ControlPersist also ends it a minute after its last
 *     session, should the fleet itself die);
 *   - host key checking is left to the user's configuration, unless
 *     accept_new_host_keys asks for StrictHostKeyChecking=accept-new (new
 *     keys are learnt, changed keys still refused). It is never turned off.
 * ssh hands the remote command to the remote user's shell as one string, so
 * each word is quoted for a POSIX shell there (ssh_quote()). Nothing here
 * runs a program; ssh_classify() is a pure function.
 */
#ifndef IOTRIAGE_REMOTE_SSH_H
#define IOTRIAGE_REMOTE_SSH_H

#include <stdbool.h>
#include <stddef.h>

#include "basic/strbuf.h"

struct ssh_opts {
	const char *config_file;      /* ssh -F FILE; NULL: the user's ~/.ssh/config */
	const char *control_dir;      /* ControlPath DIR/%C; NULL: no multiplexing */
	unsigned connect_timeout_s;   /* ConnectTimeout; 0: 10 s */
	bool accept_new_host_keys;    /* StrictHostKeyChecking=accept-new */
	bool tty;                     /* -tt instead of -T: a terminal there (remote/server.h) */
};

/* The argv of one session running WORDS (NULL-terminated) on HOST. Free
 * with ssh_argv_free(). */
char **ssh_argv(const struct ssh_opts *o, const char *host, const char *const *words);
/* The argv that stops HOST's master connection (ssh -O exit). */
char **ssh_exit_argv(const struct ssh_opts *o, const char *host);
void ssh_argv_free(char **argv);

/* `ssh [-F FILE] -G HOST`: the configuration ssh would use for HOST,
 * printed without connecting. */
char **ssh_config_argv(const struct ssh_opts *o, const char *host);
/* The "hostname" ssh -G printed in TEXT (the HostName after aliases), into
 * BUF. Returns 0 or -ENOENT. */
int ssh_config_hostname(const char *text, char *buf, size_t len);

/* Appends WORD quoted for a POSIX shell: as it is when it holds only
 * characters no shell treats specially, else in single quotes ('\'' for a
 * quote inside). */
void ssh_quote(struct strbuf *sb, const char *word);

enum ssh_failure {
	SSH_FAIL_NONE,          /* ssh connected; the remote command's status is its own */
	SSH_FAIL_UNREACHABLE,   /* name not resolved, refused, timed out, no route, closed */
	SSH_FAIL_AUTH,          /* the server refused every key (Permission denied) */
	SSH_FAIL_HOST_KEY,      /* unknown or changed host key */
	SSH_FAIL_NOT_FOUND,     /* the remote shell found no such program (126, 127) */
	SSH_FAIL_OTHER,         /* ssh failed for another reason (bad -F file, option) */
};

/* What an ssh run that exited with STATUS and wrote STDERR_TEXT means.
 * WHY gets ssh's own line for the failure ("ssh: connect to host a port 22:
 * Connection refused"), empty for SSH_FAIL_NONE. */
enum ssh_failure ssh_classify(int status, const char *stderr_text, char *why, size_t len);

/* "unreachable", "authentication refused", "host key not trusted",
 * "iotriage missing", "ssh failed", "" */
const char *ssh_failure_name(enum ssh_failure f);

#endif
