#include "remote/hostlist.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/cleanup.h"
#include "basic/strbuf.h"

/* Host names, IPv4 and IPv6 addresses ([fe80::1%eth0]), user@host. */
static const char name_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_@:[]%+";

bool hostlist_valid_name(const char *s)
{
	size_t len = strlen(s);
	return len > 0 && len <= HOSTLIST_NAME_MAX && s[0] != '-' && strspn(s, name_chars) == len;
}

static int add_host(struct hostlist *hl, const char *name, size_t n, const char *where, char *why, size_t len)
{
	char host[HOSTLIST_NAME_MAX + 1];
	if (n == 0) {
		snprintf(why, len, "empty host name in %s", where);
		return -EINVAL;
	}
	if (n > HOSTLIST_NAME_MAX) {
		snprintf(why, len, "host name too long in %s", where);
		return -EINVAL;
	}
	memcpy(host, name, n);
	host[n] = '\0';
	if (!hostlist_valid_name(host)) {
		snprintf(why, len, "'%s' in %s is not a host name, address or ssh alias", host, where);
		return -EINVAL;
	}
	for (size_t i = 0; i < hl->n; i++) {
		if (strcmp(hl->hosts[i], host) == 0) {
			snprintf(why, len, "host '%s' is listed twice (%s)", host, where);
			return -EINVAL;
		}
	}
	char **grown = xreallocarray(hl->hosts, hl->n + 1, sizeof(*grown));
	hl->hosts = grown;
	hl->hosts[hl->n++] = xstrdup(host);
	return 0;
}

int hostlist_add_list(struct hostlist *hl, const char *text, char *why, size_t len)
{
	struct strbuf where = STRBUF_INIT;
	strbuf_addf(&where, "the host list '%s'", text);
	int r = 0;
	const char *p = text;
	for (;;) {
		size_t n = strcspn(p, ",");
		r = add_host(hl, p, n, where.buf, why, len);
		if (r < 0 || p[n] == '\0')
			break;
		p += n + 1;
	}
	strbuf_release(&where);
	return r;
}

static size_t trim(const char **s, size_t n)
{
	while (n > 0 && strchr(" \t\r", **s)) {
		(*s)++;
		n--;
	}
	while (n > 0 && strchr(" \t\r", (*s)[n - 1]))
		n--;
	return n;
}

int hostlist_add_text(struct hostlist *hl, const char *text, const char *name, char *why, size_t len)
{
	const char *p = text;
	for (unsigned line = 1; *p; line++) {
		size_t n = strcspn(p, "\n");
		const char *next = p[n] ? p + n + 1 : p + n;
		size_t comment = strcspn(p, "#\n");
		const char *word = p;
		size_t wn = trim(&word, comment < n ? comment : n);
		if (wn > 0) {
			char where[4200];
			snprintf(where, sizeof(where), "line %u of '%s'", line, name);
			if (strcspn(word, " \t") < wn) {
				snprintf(why, len, "malformed %s: '%.*s' (one host per line)", where, (int)wn, word);
				return -EINVAL;
			}
			int r = add_host(hl, word, wn, where, why, len);
			if (r < 0)
				return r;
		}
		p = next;
	}
	return 0;
}

int hostlist_add_file(struct hostlist *hl, const char *path, char *why, size_t len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int r = -errno;
		snprintf(why, len, "cannot read host file '%s': %s", path, strerror(-r));
		return r;
	}
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0 && sb.len < (1u << 20))
		strbuf_add(&sb, buf, (size_t)n);
	int r = 0;
	if (n < 0) {
		r = -errno;
		snprintf(why, len, "cannot read host file '%s': %s", path, strerror(-r));
	} else if (memchr(sb.buf, '\0', sb.len)) {
		snprintf(why, len, "malformed host file '%s': it is not text", path);
		r = -EINVAL;
	} else {
		r = hostlist_add_text(hl, sb.buf, path, why, len);
	}
	strbuf_release(&sb);
	return r;
}

void hostlist_release(struct hostlist *hl)
{
	for (size_t i = 0; i < hl->n; i++)
		free(hl->hosts[i]);
	free(hl->hosts);
	hl->hosts = NULL;
	hl->n = 0;
}
