/* remote/hostlist.h: the hosts a fleet run reaches, from a comma list
 * ("a,b,user@c"), a file (one host per line, '#' starts a comment, blank
 * lines skipped), or both, in the order given.
 *
 * Refused, with the reason in WHY: an empty name ("a,,b", a trailing
 * comma), a line holding more than one word, a name ssh would take for an
 * option (a leading '-') or that holds characters no host name, alias or
 * user@host has, and a host named twice (in either source). A host is
 * what ssh is given: an alias from ~/.ssh/config, a name or an address.
 * Pure functions except hostlist_add_file(), which reads the file.
 */
#ifndef IOTRIAGE_REMOTE_HOSTLIST_H
#define IOTRIAGE_REMOTE_HOSTLIST_H

#include <stdbool.h>
#include <stddef.h>

#define HOSTLIST_NAME_MAX 255

struct hostlist {
	char **hosts;
	size_t n;
};

/* Adds the hosts of a comma list. Returns 0 or -EINVAL with WHY. */
int hostlist_add_list(struct hostlist *hl, const char *text, char *why, size_t len);

/* Adds the hosts of a host file's TEXT; NAME is the file's name for WHY.
 * Returns 0 or -EINVAL with WHY naming the line. */
int hostlist_add_text(struct hostlist *hl, const char *text, const char *name, char *why, size_t len);

/* Reads PATH and adds its hosts. Returns 0, -EINVAL, or -errno when it
 * cannot be read (WHY says which). */
int hostlist_add_file(struct hostlist *hl, const char *path, char *why, size_t len);

/* Whether S can be passed to ssh as a destination. */
bool hostlist_valid_name(const char *s);

void hostlist_release(struct hostlist *hl);

#endif
