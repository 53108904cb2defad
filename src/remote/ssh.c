#include "remote/ssh.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"

struct argv_builder {
	char **v;
	size_t n;
};

static void push(struct argv_builder *b, const char *s)
{
	char **grown = xreallocarray(b->v, b->n + 2, sizeof(*grown));
	b->v = grown;
	b->v[b->n++] = xstrdup(s);
	b->v[b->n] = NULL;
}

static void push_opt(struct argv_builder *b, const char *fmt, const char *value)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, fmt, value);
	push(b, "-o");
	push(b, sb.buf);
	strbuf_release(&sb);
}

static void common_opts(struct argv_builder *b, const struct ssh_opts *o)
{
	char timeout[16];
	push(b, "ssh");
	if (o->config_file) {
		push(b, "-F");
		push(b, o->config_file);
	}
	push_opt(b, "BatchMode=%s", "yes");
	snprintf(timeout, sizeof(timeout), "%u", o->connect_timeout_s ? o->connect_timeout_s : 10);
	push_opt(b, "ConnectTimeout=%s", timeout);
	if (o->control_dir) {
		push_opt(b, "ControlMaster=%s", "auto");
		push_opt(b, "ControlPath=%s/%%C", o->control_dir);
		push_opt(b, "ControlPersist=%s", "60");
	}
	if (o->accept_new_host_keys)
		push_opt(b, "StrictHostKeyChecking=%s", "accept-new");
}

void ssh_quote(struct strbuf *sb, const char *word)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_";
	if (*word && strspn(word, safe) == strlen(word)) {
		strbuf_adds(sb, word);
		return;
	}
	strbuf_addch(sb, '\'');
	for (const char *p = word; *p; p++) {
		if (*p == '\'')
			strbuf_adds(sb, "'\\''");
		else
			strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '\'');
}

char **ssh_argv(const struct ssh_opts *o, const char *host, const char *const *words)
{
	struct argv_builder b = { 0 };
	common_opts(&b, o);
	push(&b, o->tty ? "-tt" : "-T");
	push(&b, host);
	push(&b, "--");
	struct strbuf cmd = STRBUF_INIT;
	for (size_t i = 0; words[i]; i++) {
		if (i)
			strbuf_addch(&cmd, ' ');
		ssh_quote(&cmd, words[i]);
	}
	push(&b, cmd.buf);
	strbuf_release(&cmd);
	return b.v;
}

char **ssh_exit_argv(const struct ssh_opts *o, const char *host)
{
	struct argv_builder b = { 0 };
	common_opts(&b, o);
	push(&b, "-O");
	push(&b, "exit");
	push(&b, host);
	return b.v;
}

char **ssh_config_argv(const struct ssh_opts *o, const char *host)
{
	struct argv_builder b = { 0 };
	push(&b, "ssh");
	if (o->config_file) {
		push(&b, "-F");
		push(&b, o->config_file);
	}
	push(&b, "-G");
	push(&b, host);
	return b.v;
}

int ssh_config_hostname(const char *text, char *buf, size_t len)
{
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		if (n > 9 && strncmp(p, "hostname ", 9) == 0) {
			snprintf(buf, len, "%.*s", (int)(n - 9), p + 9);
			return 0;
		}
		p += n;
		p += *p == '\n';
	}
	return -ENOENT;
}

void ssh_argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* The last line of TEXT that contains NEEDLE, copied into WHY. */
static bool line_with(const char *text, const char *needle, char *why, size_t len)
{
	const char *hit = NULL;
	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		hit = p;
	if (!hit)
		return false;
	const char *start = hit;
	while (start > text && start[-1] != '\n')
		start--;
	snprintf(why, len, "%.*s", (int)strcspn(start, "\r\n"), start);
	return true;
}

static const char *const unreachable_signs[] = {
	"Could not resolve hostname", "Connection refused", "Connection timed out", "timed out",
	"No route to host", "Network is unreachable", "Connection closed by", "Connection reset",
	"kex_exchange_identification", "Broken pipe", "Connection to", NULL,
};

enum ssh_failure ssh_classify(int status, const char *stderr_text, char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	if (status == 126 || status == 127) {
		snprintf(why, len, "%.*s", (int)strcspn(stderr_text, "\r\n"), stderr_text);
		return SSH_FAIL_NOT_FOUND;
	}
	if (status != 255)
		return SSH_FAIL_NONE;
	if (line_with(stderr_text, "Permission denied", why, len))
		return SSH_FAIL_AUTH;
	if (line_with(stderr_text, "Host key verification failed", why, len) ||
	    line_with(stderr_text, "REMOTE HOST IDENTIFICATION HAS CHANGED", why, len) ||
	    line_with(stderr_text, "No ED25519 host key is known", why, len) ||
	    line_with(stderr_text, "host key is known", why, len))
		return SSH_FAIL_HOST_KEY;
	for (size_t i = 0; unreachable_signs[i]; i++)
		if (line_with(stderr_text, unreachable_signs[i], why, len))
			return SSH_FAIL_UNREACHABLE;
	const char *last = stderr_text;
	for (const char *p = strchr(stderr_text, '\n'); p && p[1]; p = strchr(p + 1, '\n'))
		last = p + 1;
	snprintf(why, len, "%.*s", (int)strcspn(last, "\r\n"), last);
	if (!why[0])
		snprintf(why, len, "ssh exited with status 255");
	return SSH_FAIL_OTHER;
}

const char *ssh_failure_name(enum ssh_failure f)
{
	switch (f) {
	case SSH_FAIL_UNREACHABLE: return "unreachable";
	case SSH_FAIL_AUTH: return "authentication refused";
	case SSH_FAIL_HOST_KEY: return "host key not trusted";
	case SSH_FAIL_NOT_FOUND: return "iotriage missing";
	case SSH_FAIL_OTHER: return "ssh failed";
	case SSH_FAIL_NONE: break;
	}
	return "";
}
