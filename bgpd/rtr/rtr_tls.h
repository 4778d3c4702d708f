/* SPDX-License-Identifier: ISC */
/*
 * RTR over TLS as a loadable module (rtr_tls.so), and its loader.
 *
 * Why a module: OpenSSL is the one large library bgpd needs only for TLS caches, and linking
 * it costs every bgpd its relocations and tables, about 1.7 MiB of resident memory (libcrypto,
 * libssl, libevent_openssl: /proc/PID/smaps of an idle bgpd), used or not. As FRR loads its
 * RPKI support as a module, bgpd loads rtr_tls.so the first time a TLS cache is configured;
 * a daemon without one never maps OpenSSL.
 *
 * The module exports one symbol, rtr_tls_module, a table of the five operations below. It
 * uses libc, OpenSSL and libevent only, never bgpd's own functions, so bgpd need not export
 * any.
 */
#ifndef SKUA_RTR_TLS_H
#define SKUA_RTR_TLS_H

#include <stddef.h>

struct bufferevent;
struct event_base;
struct rtr_cache_cfg;
typedef struct ssl_ctx_st SSL_CTX;

/* Raised whenever the table or struct rtr_cache_cfg changes: a module of another build is
 * refused, not called. */
#define RTR_TLS_ABI 1
#define RTR_TLS_MODULE "rtr_tls.so"
#define RTR_TLS_SYMBOL "rtr_tls_module"

struct rtr_tls_ops {
	unsigned abi;	     /* RTR_TLS_ABI */
	size_t cfg_size;     /* sizeof(struct rtr_cache_cfg) */
	const char *version; /* PACKAGE_VERSION */
	/* Build the context for cfg (CA file, client certificate and key). NULL with a reason
	 * in err. */
	SSL_CTX *(*ctx_new)(const struct rtr_cache_cfg *cfg, char *err, size_t errlen);
	void (*ctx_free)(SSL_CTX *ctx);
	/* A bufferevent running the TLS client handshake on the connected fd, checking the
	 * server's certificate against cfg->host. NULL with a reason in err. */
	struct bufferevent *(*bev_new)(struct event_base *base, SSL_CTX *ctx, int fd,
				       const struct rtr_cache_cfg *cfg, char *err, size_t errlen);
	/* Why the handshake failed (verification result, OpenSSL's error queue). */
	void (*failure)(struct bufferevent *bev, char *err, size_t errlen);
	/* After the handshake: the verified subject and the protocol version. */
	void (*peer)(struct bufferevent *bev, char *subject, size_t slen, char *version,
		     size_t vlen);
};

/* The module's table (rtr_tls.c). */
extern const struct rtr_tls_ops rtr_tls_module;

/* The loaded module's table, loading it on first use (rtr_tls_load.c): from the build tree
 * when the running program is one of its own, else from the installed module directory.
 * NULL with the reason in err; a failed load is tried again on the next call. */
const struct rtr_tls_ops *rtr_tls(char *err, size_t errlen);

#endif /* SKUA_RTR_TLS_H */
