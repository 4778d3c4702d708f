/* SPDX-License-Identifier: ISC */
/*
 * Inside bgpd/rtr: one cache (struct rtr_cache) between its session (rtr_session.c), its TLS
 * transport (rtr_tls.c) and the manager (rtr_mgr.c). Not for other layers: they use rtr.h.
 */
#ifndef SKUA_RTR_PRIVATE_H
#define SKUA_RTR_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "bgpd/rtr/rtr.h"
#include "bgpd/rtr/rtr_aspa.h"
#include "lib/log_limit.h"
#include "lib/prefix.h"

#define RTR_ADDRS_MAX 8 /* addresses of one cache name tried before giving up */

struct bufferevent;
struct ev;
struct evdns_base;
struct evdns_getaddrinfo_request;
struct rpki_txn;
struct rtr_tls_ops;
typedef struct ssl_ctx_st SSL_CTX;

/* Milliseconds per protocol second: 1000, lowered by tests so that a 600-second expire
 * interval (RFC 8210 6's minimum) passes in well under a second. */
extern uint32_t rtr_ms_per_second;

/* The configuration of one cache, with its strings owned. */
struct rtr_cache_cfg {
	enum rtr_transport transport;
	char *host;
	uint16_t port;
	uint8_t preference;
	char *source, *password, *ca_file, *client_cert, *client_key;
};

struct rtr_cache {
	struct rtr_cache_cfg cfg;
	struct rtr_cache *next; /* the manager's list, by preference */
	struct event_base *base;
	struct rpki_db *db;
	int source; /* the store's source id, -1 while the cache holds nothing */

	/* What the manager wants of it, and what the failover reads. */
	bool running; /* connected or connecting, or waiting to retry */
	bool failed;  /* the last attempt failed and it has not synchronised since */
	bool synced;  /* an End of Data arrived on the current connection */

	/* The connection. */
	enum rtr_state state;
	struct evdns_getaddrinfo_request *dns_req;
	struct ipaddr peer;		    /* the address being tried */
	struct ipaddr addrs[RTR_ADDRS_MAX]; /* what the host resolved to, tried in turn */
	unsigned naddrs, addr_idx;
	int fd;		       /* until the bufferevent owns it */
	struct ev *connect_ev; /* the non-blocking connect's completion */
	struct bufferevent *bev;
	SSL_CTX *ssl_ctx; /* TLS: built from the configuration, kept across connections */
	const struct rtr_tls_ops *tls; /* the module that built ssl_ctx (rtr_tls.h) */
	bool closing;		       /* an Error Report is being flushed before the close */
	struct ev *retry_timer, *refresh_timer, *expire_timer, *close_timer;
	struct ev *input_ev; /* more input to decode on the next loop turn */

	/* The protocol. */
	uint8_t version;      /* the version we speak on this connection */
	uint8_t version_try;  /* the version to open the next connection with */
	bool version_agreed;  /* the cache has answered at version */
	bool query_pending;   /* a Reset/Serial Query sent, no Cache Response yet */
	bool query_was_reset; /* ... and it was a Reset Query */
	bool in_response;     /* between Cache Response and End of Data */
	uint16_t session_id;
	uint32_t serial;
	bool have_serial;
	uint32_t refresh, retry, expire;
	bool eod_timers; /* they came from an End of Data */
	struct rpki_txn *txn;
	struct rtr_aspa_table aspa;

	/* Status. */
	bool data_expired;
	int64_t last_sync, state_since;
	uint64_t pdus_rx, pdus_tx, errors_rx, errors_tx, connects;
	char last_error[256];
	char tls_peer[256];
	char tls_version[16];
	struct log_limit log_limit;   /* this cache's state-change lines */
	struct log_limit debug_limit; /* its `debug rpki` PDU lines */
};

/* ---- rtr_session.c ---- */
struct rtr_cache *rtr_session_new(struct event_base *base, struct rpki_db *db,
				  const struct rtr_cache_config *c, const struct rtr_timers *t);
void rtr_session_free(struct rtr_cache *c); /* closes, drops its data */
/* Connect (now) if not connected or connecting. */
void rtr_session_start(struct rtr_cache *c);
/* Close the connection and stop retrying; drop: also remove its data from the store. */
void rtr_session_stop(struct rtr_cache *c, bool drop);
/* Run the protocol on fd, a stream socket already connected to a cache (a socketpair in the
 * fuzz target), as if connect() had just succeeded; the session owns fd from here. */
void rtr_session_attach_fd(struct rtr_cache *c, int fd);
/* Forget the session (serial, negotiated version) and reconnect with a Reset Query. */
void rtr_session_reset(struct rtr_cache *c);
/* The configured intervals changed: used by caches whose End of Data gave none. */
void rtr_session_timers(struct rtr_cache *c, const struct rtr_timers *t);
void rtr_session_status(const struct rtr_cache *c, struct rtr_cache_status *s);
struct evdns_base *rtr_dns_base(struct event_base *base);
void rtr_dns_free(void); /* after every cache is freed (rtr_fini) */

/* ---- rtr_mgr.c ---- */
/* A cache synchronised, failed or lost its connection: re-evaluate the failover (deferred to
 * the next loop turn, so that a cache is never freed from inside its own callback). */
void rtr_mgr_changed(void);

/* rtr_tls.c is a module: bgpd/rtr/rtr_tls.h. */

#endif /* SKUA_RTR_PRIVATE_H */
