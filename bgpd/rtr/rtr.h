/* SPDX-License-Identifier: ISC */
/*
 * The RTR client manager: the configured caches, their connections, and their status.
 *
 * Configuration mirrors FRR's `rpki` node: global intervals and a list of caches, each with a
 * unique preference (1 = most preferred). The caches of the lowest preference value that can
 * be reached are the ones used; the next group is tried when every cache of the current one
 * has failed, and a more preferred cache is retried every retry interval, the data of the
 * less preferred ones dropped once it has synchronised (RFC 8210 10). A cache that is lost
 * keeps its data until its expire interval (from its End of Data, or the configured default
 * with version 0) runs out, never longer.
 *
 * Everything here is called on the loop given to rtr_init(); nothing blocks.
 */
#ifndef SKUA_RTR_H
#define SKUA_RTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/memory.h"

struct event_base;
struct rpki_db;

DECLARE_MTYPE(RTR_CACHE); /* caches, their buffers and TLS state */

#define RTR_PORT_TCP 323 /* IANA "rpki-rtr" */
#define RTR_PORT_TLS 324 /* IANA "rpki-rtr-tls" */
#define RTR_HOST_MAX 253 /* a DNS name or an address literal */

enum rtr_transport {
	RTR_TRANSPORT_TCP = 0,
	RTR_TRANSPORT_TLS,
};

/* FRR's defaults (bgpd/bgp_rpki.c): used until a cache's End of Data gives its own (RTR v1+),
 * and always with version 0. */
#define RTR_DEFAULT_POLLING_PERIOD 3600 /* refresh, seconds */
#define RTR_DEFAULT_RETRY_INTERVAL 600
#define RTR_DEFAULT_EXPIRE_INTERVAL 7200

/* One `rpki cache ...` statement. Strings are copied by rtr_cache_set(). */
struct rtr_cache_config {
	enum rtr_transport transport;
	const char *host; /* address literal or DNS name (TLS: also the name verified) */
	uint16_t port;
	uint8_t preference;	 /* 1..255, unique: the cache's key */
	const char *source;	 /* local address to bind, NULL = any */
	const char *password;	 /* TCP-MD5 key (TCP only), NULL = none */
	const char *ca_file;	 /* TLS: PEM file of trusted CAs (required for TLS) */
	const char *client_cert; /* TLS: PEM certificate presented to the cache, or NULL */
	const char *client_key;	 /* TLS: its private key (both or neither) */
};

/* The intervals of the `rpki` node (seconds). */
struct rtr_timers {
	uint32_t polling_period;  /* rpki polling_period (1-86400) */
	uint32_t retry_interval;  /* rpki retry_interval (1-7200) */
	uint32_t expire_interval; /* rpki expire_interval (600-172800) */
};

/*
 * `debug rpki`: every PDU received and sent is logged at debugging level (type, version,
 * length, key fields), at most RTR_DEBUG_BURST lines a second per cache. A bit of lib/log.h's
 * debug_flags, like bgpd/core/bgp_log.h's BGP_DEBUG_* (which leave it free): the show layer
 * sets it, this layer tests it with DEBUG_ON().
 */
#define RTR_DEBUG (UINT64_C(1) << 16)
#define RTR_DEBUG_BURST 200

/* Caches feed db. */
void rtr_init(struct event_base *base, struct rpki_db *db);
void rtr_fini(void); /* close everything, free every cache; db is left as it is */

/* Add a cache or replace the one with the same preference (its connection restarts when any
 * field changed). 0, or -errno with a reason in err (an unreadable ca-file, a key without a
 * certificate...): the configuration layer refuses the line with it. */
int rtr_cache_set(const struct rtr_cache_config *c, char *err, size_t errlen);
/* Check a cache statement without applying it (the northbound's validate phase): the same
 * errors as rtr_cache_set(). */
int rtr_cache_check(const struct rtr_cache_config *c, char *err, size_t errlen);
void rtr_cache_del(uint8_t preference);
void rtr_timers_set(const struct rtr_timers *t);
void rtr_timers_get(struct rtr_timers *t);

/* Exec commands: `rpki reset` (every cache reconnects and resets), `rpki stop` / `rpki start`
 * (all connections closed and the data dropped / opened again). */
void rtr_reset(void);
void rtr_stop(void);
void rtr_start(void);
bool rtr_running(void);

/* ---- status, for `show rpki cache-connection`, `cache-server` and JSON ---- */

enum rtr_state {
	RTR_STATE_IDLE = 0,	 /* not used now (a less preferred group), or stopped */
	RTR_STATE_RESOLVING,	 /* name lookup */
	RTR_STATE_CONNECTING,	 /* TCP connect */
	RTR_STATE_TLS_HANDSHAKE, /* TLS handshake and certificate verification */
	RTR_STATE_SYNCING,	 /* Reset or Serial Query sent, waiting for End of Data */
	RTR_STATE_ESTABLISHED,	 /* synchronised, waiting for the refresh timer or a Notify */
	RTR_STATE_ERROR, /* failed; retried after the retry interval (last_error says why) */
};

struct rtr_cache_status {
	struct rtr_cache_config config; /* pointers valid during the callback only */
	enum rtr_state state;
	bool data_expired; /* its data was dropped at the expire interval */
	uint8_t version;   /* negotiated RTR version */
	uint16_t session_id;
	uint32_t serial;
	bool have_serial;		 /* at least one End of Data received */
	uint32_t refresh, retry, expire; /* in force (the cache's, or the defaults) */
	int64_t last_sync;		 /* wall clock of the last End of Data, 0 = never */
	int64_t state_since;		 /* wall clock of the last state change */
	size_t vrps_v4, vrps_v6, aspas;	 /* records this cache holds in the store */
	uint64_t pdus_rx, pdus_tx, errors_rx, errors_tx, connects;
	char last_error[256]; /* why it last failed ("" = never): errno text, OpenSSL's
			       * reason, the Error Report a cache sent or we sent */
	char tls_peer[256];   /* TLS: subject of the verified certificate, "" otherwise */
	char tls_version[16]; /* TLS: "TLSv1.3", "" otherwise */
};

typedef void (*rtr_status_cb)(const struct rtr_cache_status *s, void *arg);
/* Every cache in preference order. */
void rtr_status_walk(rtr_status_cb cb, void *arg);
/* The preference group in use (caches connected or being connected), 0 = none. */
uint8_t rtr_active_group(void);
const char *rtr_state_name(enum rtr_state s);

#endif /* SKUA_RTR_H */
