/* SPDX-License-Identifier: ISC */
/*
 * A fake RTR cache for the client's tests: a loopback listener the test drives by hand, one
 * PDU at a time, while the client runs on the same thread's event loop (every wait pumps the
 * loop, and every wait is bounded). Plain TCP, or TLS with an in-process OpenSSL server.
 */
#ifndef SKUA_RTR_TEST_H
#define SKUA_RTR_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bgpd/rtr/rtr.h"
#include "bgpd/rtr/rtr_pdu.h"

struct event_base;
struct rpki_db;
typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_st SSL;

struct fake_cache {
	int lfd; /* listener on 127.0.0.1 */
	uint16_t port;
	int fd;	      /* the accepted connection, -1 */
	SSL_CTX *ctx; /* TLS server context, NULL for plain TCP */
	SSL *ssl;
	uint8_t version; /* what fc_send_*() put in headers */
	uint16_t session_id;
};

extern struct event_base *rt_base;
extern struct rpki_db *rt_db;

/* A loop, a store and the client (rtr_init), with every timer scaled to ms_per_second. */
void rt_setup(uint32_t ms_per_second);
void rt_teardown(void);
/* Run the loop for about ms milliseconds. */
void rt_pump(unsigned ms);
/* Pump until cond(arg) or timeout_ms; returns cond's last answer. */
bool rt_wait(bool (*cond)(void *), void *arg, unsigned timeout_ms);

/* The status of the cache of this preference (asserts it exists). */
struct rtr_cache_status rt_status(uint8_t preference);
/* Pump until that cache is in state st (asserts it gets there in timeout_ms). */
void rt_wait_state(uint8_t preference, enum rtr_state st, unsigned timeout_ms);
/* Configure a plain TCP cache at 127.0.0.1:port. */
void rt_cache_tcp(uint8_t preference, uint16_t port);
/* The same with a host name or address, a source address and a TCP-MD5 key (NULL: none). */
void rt_cache(uint8_t preference, const char *host, uint16_t port, const char *source,
	      const char *password);

/* port 0: any free port. */
void fc_listen(struct fake_cache *fc, uint16_t port);
/* TLS: the server presents cert/key. */
void fc_listen_tls(struct fake_cache *fc, const char *cert, const char *key);
void fc_close(struct fake_cache *fc); /* connection and listener */
void fc_drop(struct fake_cache *fc);  /* the connection only */
/* Accept the client's connection (and finish the TLS handshake): true, or false after
 * timeout_ms (TLS: also when the handshake fails). */
bool fc_accept(struct fake_cache *fc, unsigned timeout_ms);
/* One PDU from the client into buf: its length, 0 at EOF, -1 after timeout_ms. */
int fc_recv(struct fake_cache *fc, uint8_t *buf, size_t size, unsigned timeout_ms);
/* Receive and decode; asserts a PDU of that type arrives. */
void fc_expect(struct fake_cache *fc, uint8_t type, struct rtr_pdu *pdu, uint8_t *buf, size_t size);
/* Asserts the client closes the connection within timeout_ms. */
void fc_expect_eof(struct fake_cache *fc, unsigned timeout_ms);

void fc_send_raw(struct fake_cache *fc, const uint8_t *b, size_t len);
void fc_send(struct fake_cache *fc, const struct rtr_pdu *pdu);
void fc_cache_response(struct fake_cache *fc);
void fc_end_of_data(struct fake_cache *fc, uint32_t serial, uint32_t refresh, uint32_t retry,
		    uint32_t expire);
void fc_notify(struct fake_cache *fc, uint32_t serial);
void fc_cache_reset(struct fake_cache *fc);
/* pfx "198.51.100.0/24" or an IPv6 prefix. */
void fc_prefix(struct fake_cache *fc, bool announce, const char *pfx, uint8_t max_len,
	       uint32_t asn);
void fc_aspa(struct fake_cache *fc, bool announce, bool ipv6, uint32_t customer,
	     const uint32_t *providers, uint16_t n);
/* Build one PDU's bytes (for malformed variants). */
size_t fc_build_prefix(uint8_t *b, uint8_t version, bool announce, const char *pfx, uint8_t max_len,
		       uint32_t asn);

/* The store holds this VRP. */
bool rt_has_vrp(const char *pfx, uint8_t max_len, uint32_t asn);
/* The store's providers of customer as "p1,p2,..." ("" when it has no record). */
const char *rt_aspa(uint32_t customer);

#endif /* SKUA_RTR_TEST_H */
