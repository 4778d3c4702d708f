/* SPDX-License-Identifier: ISC */
/*
 * Harness for the session side's tests (check_bgp_fsm, check_bgp_peer): doubles of the RIB
 * side (bgp_msg.h) that count the calls, an event-loop pump, and a scripted remote speaker on
 * loopback TCP sockets. Timers are driven as a fake clock: tests read how long a timer has left
 * and deliver its expiry event themselves, so nothing waits for real seconds.
 */
#ifndef SKUA_TESTS_SESSION_TEST_H
#define SKUA_TESTS_SESSION_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bgpd/core/bgp.h"
#include "bgpd/core/bgp_msg.h"
#include "bgpd/session/bgp_session.h"

struct rib_calls {
	unsigned attach, detach, up, down, updates, refresh, writable, net_add, net_del;
	unsigned net_sync;	/* bgp_network_check_sync(): the statements changed */
	unsigned borr, eorr;	/* enhanced route refresh (RFC 7313) */
	unsigned down_graceful; /* rib_peer_down_graceful() */
	unsigned gr_flush;	/* rib_peer_gr_flush() */
	unsigned soft_in;	/* rib_soft_reconfig_in() calls that had routes kept */
	unsigned kept_af_mask;	/* 1 << af: the RIB keeps the routes as received for af */
	struct bgp_session_info last_info;
	bool last_update_announced_ipv4;
	/* rib_prefetch(): calls, prefixes hinted in all, and the UPDATEs handed over before
	 * each call (up to 8 calls) */
	unsigned prefetches, prefetched, updates_at_prefetch[8];
};
extern struct rib_calls rib_calls;

#define ST_LOCAL_AS 65001
#define ST_LOCAL_ID "192.0.2.9"

extern struct event_base *st_base;

void st_setup(void);
void st_teardown(void);
struct bgp_peer *st_peer(const char *addr, uint32_t remote_as, bool passive);

/* Run the loop without blocking for about ms milliseconds, or until cond(arg) holds. */
bool st_pump_until(bool (*cond)(void *arg), void *arg, int ms);
void st_pump(int ms);
bool st_state_is(struct bgp_peer *peer, enum bgp_fsm_state st, int ms);

/* The remote speaker. */
int st_listen(uint16_t *port);			/* on 127.0.0.1, any port */
int st_accept(int lfd, int ms);			/* pumps our loop while waiting */
int st_connect(const char *src, uint16_t port); /* from src to our listener on 127.0.0.1 */
size_t st_open_msg(uint8_t *buf, uint32_t asn, uint16_t hold, const char *id);
void st_send(int fd, const void *buf, size_t len);
void st_send_open(int fd, uint32_t asn, uint16_t hold, const char *id);
void st_send_keepalive(int fd);
void st_send_notify(int fd, uint8_t code, uint8_t subcode);
/* Read one message (pumping our loop meanwhile): its type, 0 on EOF, -1 on timeout. The body
 * goes to body (up to size bytes), its length to *len. */
int st_recv(int fd, uint8_t *body, size_t size, size_t *len, int ms);
/* Read messages until one of this type arrives (skipping others); -1 if EOF/timeout first. */
int st_expect(int fd, int type, uint8_t *body, size_t size, size_t *len, int ms);

/* Bring peer (configured passive or not) to Established over fd. Returns the remote's fd. */
int st_establish_outgoing(struct bgp_peer *peer, int lfd, uint32_t remote_as, const char *id);

/* Output checks: exactly one valid JSON value; the document without whitespace outside
 * strings (caller frees); "needle" in the compacted JSON / in the text (assert). */
bool st_json_valid(const char *s);
char *st_json_compact(const char *s);
void st_json_has(const char *doc, const char *needle);
void st_text_has(const char *doc, const char *needle);

/* Was one message logged (lib/log.h's ring) that contains all of a, b, c (NULLs ignored)? */
bool st_logged(const char *a, const char *b, const char *c);

#endif /* SKUA_TESTS_SESSION_TEST_H */
