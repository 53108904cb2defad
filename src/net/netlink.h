/* net/netlink.h: a minimal rtnetlink client: one NETLINK_ROUTE socket, dump
 * requests, and attribute walking. Message decoding lives with the callers
 * (links.c, routes.c) as pure functions over a struct nlmsghdr, so tests can
 * feed them messages built in memory.
 */
#ifndef IOTRIAGE_NET_NETLINK_H
#define IOTRIAGE_NET_NETLINK_H

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stddef.h>
#include <stdint.h>

/* Called for each message of a dump; a negative return stops the dump and
 * is passed back. */
typedef int (*nl_msg_fn)(const struct nlmsghdr *h, void *arg);

/* Sends an NLM_F_DUMP request of TYPE (RTM_GETLINK, RTM_GETADDR,
 * RTM_GETROUTE) whose family header is HDR (HDR_LEN bytes) on a new
 * NETLINK_ROUTE socket and calls FN for each answer until NLMSG_DONE.
 * Returns 0 or -errno (an NLMSG_ERROR answer's error). */
int nl_dump(uint16_t type, const void *hdr, size_t hdr_len, nl_msg_fn fn, void *arg);

/* Sends one request (TYPE with NLM_F_REQUEST, header and attributes already
 * in BUF of LEN bytes, starting with its struct nlmsghdr) and calls FN for
 * the answer. Returns 0 or -errno. */
int nl_request(void *buf, size_t len, nl_msg_fn fn, void *arg);

/* Attribute table: TB[type] points at the last attribute of that type in
 * the LEN bytes at ATTRS (types above MAX are ignored); others are NULL. */
void nl_parse_attrs(const struct rtattr *attrs, size_t len, const struct rtattr **tb, unsigned max);

/* Payload of an attribute, its length, and fixed-size readers that return
 * DEF when the attribute is missing or too short. */
static inline const void *nl_attr_data(const struct rtattr *a)
{
	return (const char *)a + RTA_LENGTH(0);
}
static inline size_t nl_attr_len(const struct rtattr *a)
{
	return a->rta_len >= RTA_LENGTH(0) ? a->rta_len - RTA_LENGTH(0) : 0;
}
uint32_t nl_attr_u32(const struct rtattr *a, uint32_t def);
/* Copies a NUL-terminated string attribute into BUF ("" when missing). */
void nl_attr_str(const struct rtattr *a, char *buf, size_t len);

/* Appends attribute TYPE with DATA to the message H whose buffer holds CAP
 * bytes (for building requests and test messages). Returns 0 or -ENOSPC. */
int nl_add_attr(struct nlmsghdr *h, size_t cap, unsigned short type, const void *data, size_t len);

#endif
