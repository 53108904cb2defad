#include "remote/server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "basic/interrupt.h"
#include "basic/spawn.h"
#include "basic/timeutil.h"

int remote_host_address(const struct ssh_opts *o, const char *host, char *addr, size_t addr_len, char *why,
			size_t len)
{
	char **argv = ssh_config_argv(o, host);
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	char name[256];
	int r = spawn_check((const char *const *)argv, 10000, &out, &err);
	ssh_argv_free(argv);
	if (r < 0)
		snprintf(why, len, "host '%s': %s", host, err.buf);
	else if (ssh_config_hostname(out.buf, name, sizeof(name)) < 0) {
		snprintf(why, len, "host '%s': ssh -G printed no hostname", host);
		r = -ENOENT;
	}
	strbuf_release(&out);
	strbuf_release(&err);
	if (r < 0)
		return r;
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *res = NULL;
	int g = getaddrinfo(name, NULL, &hints, &res);
	if (g != 0 || !res) {
		snprintf(why, len, "host '%s': '%s' does not resolve to an IPv4 address (%s)", host, name,
			 gai_strerror(g));
		return -ENOENT;
	}
	const struct sockaddr_in *sin = (const struct sockaddr_in *)res->ai_addr;
	inet_ntop(AF_INET, &sin->sin_addr, addr, (socklen_t)addr_len);
	freeaddrinfo(res);
	return 0;
}

int remote_server_start(struct remote_server *s, const struct ssh_opts *o, const char *host,
			const char *const *words)
{
	struct ssh_opts own = *o;
	own.tty = true;
	own.control_dir = NULL; /* its own connection: ending it hangs the terminal up */
	memset(s, 0, sizeof(*s));
	s->host = host;
	char **argv = ssh_argv(&own, host, words);
	int r = child_start(&s->child, (const char *const *)argv);
	ssh_argv_free(argv);
	if (r < 0) {
		snprintf(s->why, sizeof(s->why), "cannot run ssh: %s",
			 r == -ENOENT ? "not installed (install openssh-client)" : strerror(-r));
		return r;
	}
	s->started = true;
	return 0;
}

/* The last non-empty line of TEXT into BUF. */
static void last_line(const char *text, char *buf, size_t len)
{
	const char *end = text + strlen(text);
	while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	const char *start = end;
	while (start > text && start[-1] != '\n')
		start--;
	snprintf(buf, len, "%.*s", (int)(end - start), start);
}

static void ended_why(struct remote_server *s)
{
	char why[400], line[400];
	s->ended = true;
	if (ssh_classify(s->child.status, s->child.err.buf, why, sizeof(why)) != SSH_FAIL_NONE) {
		snprintf(s->why, sizeof(s->why), "%s", why);
		return;
	}
	last_line(s->child.out.buf, line, sizeof(line));
	if (!line[0])
		last_line(s->child.err.buf, line, sizeof(line));
	snprintf(s->why, sizeof(s->why), "it ended (exit status %d)%s%s", s->child.status, line[0] ? ": " : "",
		 line);
}

size_t remote_servers_wait_ready(struct remote_server *s, size_t n, bool (*ready)(const char *text),
				 int timeout_ms)
{
	struct child *watched[64];
	uint64_t deadline = now_ns() + (uint64_t)timeout_ms * 1000000ULL;
	size_t nready = 0;
	for (;;) {
		size_t waiting = 0;
		nready = 0;
		for (size_t i = 0; i < n && i < 64; i++) {
			watched[i] = NULL;
			if (!s[i].started || s[i].ended)
				continue;
			if (!s[i].ready && ready(s[i].child.out.buf))
				s[i].ready = true;
			if (s[i].ready) {
				nready++;
				continue;
			}
			if (!s[i].child.running) {
				ended_why(&s[i]);
				continue;
			}
			watched[i] = &s[i].child;
			waiting++;
		}
		if (waiting == 0 || interrupt_requested() || now_ns() >= deadline)
			break;
		children_poll(watched, n < 64 ? n : 64, 100);
	}
	for (size_t i = 0; i < n && i < 64; i++)
		if (s[i].started && !s[i].ready && !s[i].ended)
			snprintf(s[i].why, sizeof(s[i].why), "%s", interrupt_requested() ? "interrupted"
				 : "it did not say it was listening in time");
	return nready;
}

/* Polls S's session until it ends or WAIT_MS passes. */
static bool wait_end(struct remote_server *s, int wait_ms)
{
	struct child *c = &s->child;
	uint64_t deadline = now_ns() + (uint64_t)wait_ms * 1000000ULL;
	while (c->running && now_ns() < deadline)
		children_poll(&c, 1, 100);
	return !c->running;
}

bool remote_server_stop(struct remote_server *s, int wait_ms)
{
	if (!s->started)
		return false;
	s->started = false;
	bool by_itself = wait_end(s, wait_ms);
	if (!by_itself) {
		child_send(&s->child, "\003");
		if (!wait_end(s, 2000)) {
			child_signal(&s->child, SIGTERM);
			if (!wait_end(s, 2000))
				child_signal(&s->child, SIGKILL);
		}
	}
	child_release(&s->child);
	s->ended = true;
	return by_itself;
}

const char *remote_server_output(const struct remote_server *s)
{
	return s->child.out.buf ? s->child.out.buf : "";
}
