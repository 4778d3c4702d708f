/* SPDX-License-Identifier: ISC */
/*
 * The configured caches and their failover (RFC 8210 10).
 *
 * Preferences are unique, so a preference group is one cache. The rule, applied after every
 * change of any cache (deferred to the next loop turn):
 *
 *   walk the caches by preference; run each one until reaching a cache that has synchronised
 *   on its current connection, or one that has not failed yet (it is being tried: the less
 *   preferred ones wait for its verdict); stop every cache after that point and drop its data.
 *
 * So the most preferred cache is used when it works; when it fails, the next is started while
 * the failed one keeps retrying every retry interval (its `failed` mark stays until it
 * synchronises again); once it has synchronised, the less preferred caches are disconnected
 * and their data leaves the store. A failed cache's own data stays until its expire interval.
 */
#include "lib/compat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bgpd/rpki/rpki_db.h"
#include "bgpd/rtr/rtr_private.h"
#include "bgpd/rtr/rtr_tls.h"
#include "lib/event.h"
#include "lib/log.h"

DEFINE_MTYPE(RTR_CACHE, "RTR caches");

static struct {
	struct event_base *base;
	struct rpki_db *db;
	struct rtr_cache *caches; /* by preference */
	struct rtr_timers timers;
	bool running;
	struct ev *evaluate_ev;
} mgr = {
	.timers = { RTR_DEFAULT_POLLING_PERIOD, RTR_DEFAULT_RETRY_INTERVAL,
		    RTR_DEFAULT_EXPIRE_INTERVAL },
	.running = true,
};

const char *rtr_state_name(enum rtr_state s)
{
	switch (s) {
	case RTR_STATE_IDLE:
		return "idle";
	case RTR_STATE_RESOLVING:
		return "resolving";
	case RTR_STATE_CONNECTING:
		return "connecting";
	case RTR_STATE_TLS_HANDSHAKE:
		return "tls-handshake";
	case RTR_STATE_SYNCING:
		return "syncing";
	case RTR_STATE_ESTABLISHED:
		return "established";
	case RTR_STATE_ERROR:
		return "error";
	}
	return "unknown";
}

static void evaluate(void)
{
	bool stop_rest = false;

	for (struct rtr_cache *c = mgr.caches; c; c = c->next) {
		if (!mgr.running || stop_rest) {
			if (c->running || c->source >= 0) {
				if (mgr.running)
					log_info("rpki: cache %s port %u (preference %u) not "
						 "needed: a "
						 "more preferred cache is in use",
						 c->cfg.host, c->cfg.port, c->cfg.preference);
				rtr_session_stop(c, true);
			}
			continue;
		}
		if (!c->running)
			rtr_session_start(c);
		if (c->synced || !c->failed)
			stop_rest = true;
	}
}

static void evaluate_cb(int fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	evaluate();
}

void rtr_mgr_changed(void)
{
	if (mgr.evaluate_ev)
		event_defer(mgr.evaluate_ev);
}

void rtr_init(struct event_base *base, struct rpki_db *db)
{
	mgr.base = base;
	mgr.db = db;
	mgr.running = true;
	mgr.evaluate_ev = event_defer_new(base, evaluate_cb, NULL);
}

void rtr_fini(void)
{
	while (mgr.caches) {
		struct rtr_cache *c = mgr.caches;

		mgr.caches = c->next;
		rtr_session_free(c);
	}
	rtr_dns_free();
	event_free(mgr.evaluate_ev);
	mgr.evaluate_ev = NULL;
	mgr.base = NULL;
	mgr.db = NULL;
}

static int check(const struct rtr_cache_config *c, char *err, size_t errlen)
{
	struct rtr_cache_cfg cfg;
	const struct rtr_tls_ops *tls;
	struct ipaddr a;
	SSL_CTX *ctx;

	if (!c->host || !c->host[0] || strlen(c->host) > RTR_HOST_MAX) {
		snprintf(err, errlen,
			 "the cache's host must be a name or address of 1-%d characters",
			 RTR_HOST_MAX);
		return -EINVAL;
	}
	if (c->preference == 0) {
		snprintf(err, errlen, "preference must be 1-255");
		return -EINVAL;
	}
	if (c->port == 0) {
		snprintf(err, errlen, "port must be 1-65535");
		return -EINVAL;
	}
	if (c->source && ipaddr_from_str(&a, c->source) < 0) {
		snprintf(err, errlen, "source %s is not an IPv4 or IPv6 address", c->source);
		return -EINVAL;
	}
	if (c->password && c->transport != RTR_TRANSPORT_TCP) {
		snprintf(err, errlen, "a TCP-MD5 password applies to plain TCP caches only");
		return -EINVAL;
	}
	if (c->password && (!c->password[0] || strlen(c->password) > 80)) {
		snprintf(err, errlen, "a TCP-MD5 password has 1-80 characters");
		return -EINVAL;
	}
	if (c->transport != RTR_TRANSPORT_TLS) {
		if (c->ca_file || c->client_cert || c->client_key) {
			snprintf(err, errlen, "certificates apply to TLS caches only");
			return -EINVAL;
		}
		return 0;
	}
	/* Build the TLS context once: it reads and checks every file, as the connection will. */
	memset(&cfg, 0, sizeof(cfg));
	cfg.host = (char *)c->host;
	cfg.ca_file = (char *)c->ca_file;
	cfg.client_cert = (char *)c->client_cert;
	cfg.client_key = (char *)c->client_key;
	if (c->ca_file && access(c->ca_file, R_OK) < 0) {
		snprintf(err, errlen, "cannot read CA file %s: %s", c->ca_file, strerror(errno));
		return -EINVAL;
	}
	tls = rtr_tls(err, errlen);
	ctx = tls ? tls->ctx_new(&cfg, err, errlen) : NULL;
	if (!ctx)
		return -EINVAL;
	tls->ctx_free(ctx);
	return 0;
}

int rtr_cache_check(const struct rtr_cache_config *c, char *err, size_t errlen)
{
	return check(c, err, errlen);
}

static bool str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static bool same_config(const struct rtr_cache *c, const struct rtr_cache_config *n)
{
	return c->cfg.transport == n->transport && str_eq(c->cfg.host, n->host) &&
	       c->cfg.port == n->port && str_eq(c->cfg.source, n->source) &&
	       str_eq(c->cfg.password, n->password) && str_eq(c->cfg.ca_file, n->ca_file) &&
	       str_eq(c->cfg.client_cert, n->client_cert) &&
	       str_eq(c->cfg.client_key, n->client_key);
}

int rtr_cache_set(const struct rtr_cache_config *cfg, char *err, size_t errlen)
{
	struct rtr_cache **pp, *old = NULL, *c;
	bool first;
	int ret;

	ret = check(cfg, err, errlen);
	if (ret < 0)
		return ret;
	if (!mgr.base) {
		snprintf(err, errlen, "the RTR client is not initialised");
		return -ENODEV;
	}
	for (pp = &mgr.caches; *pp && (*pp)->cfg.preference < cfg->preference; pp = &(*pp)->next)
		;
	if (*pp && (*pp)->cfg.preference == cfg->preference) {
		old = *pp;
		if (same_config(old, cfg))
			return 0;
		*pp = old->next;
		rtr_session_free(old); /* its data leaves with it; the new one syncs afresh */
	}
	first = mgr.caches == NULL;
	c = rtr_session_new(mgr.base, mgr.db, cfg, &mgr.timers);
	c->next = *pp;
	*pp = c;
	if (first && mgr.db)
		rpki_db_set_active(mgr.db, true);
	log_info("rpki: cache %s port %u preference %u %s", c->cfg.host, c->cfg.port,
		 c->cfg.preference, old ? "changed" : "added");
	rtr_mgr_changed();
	return 0;
}

void rtr_cache_del(uint8_t preference)
{
	for (struct rtr_cache **pp = &mgr.caches; *pp; pp = &(*pp)->next) {
		struct rtr_cache *c = *pp;

		if (c->cfg.preference != preference)
			continue;
		*pp = c->next;
		log_info("rpki: cache %s port %u preference %u removed", c->cfg.host, c->cfg.port,
			 preference);
		rtr_session_free(c);
		if (!mgr.caches && mgr.db)
			rpki_db_set_active(mgr.db, false);
		rtr_mgr_changed();
		return;
	}
}

void rtr_timers_set(const struct rtr_timers *t)
{
	mgr.timers = *t;
	for (struct rtr_cache *c = mgr.caches; c; c = c->next)
		rtr_session_timers(c, t);
}

void rtr_timers_get(struct rtr_timers *t)
{
	*t = mgr.timers;
}

void rtr_reset(void)
{
	for (struct rtr_cache *c = mgr.caches; c; c = c->next)
		rtr_session_reset(c);
	rtr_mgr_changed();
}

void rtr_stop(void)
{
	mgr.running = false;
	evaluate();
}

void rtr_start(void)
{
	mgr.running = true;
	for (struct rtr_cache *c = mgr.caches; c; c = c->next)
		c->failed = false;
	evaluate();
}

bool rtr_running(void)
{
	return mgr.running;
}

void rtr_status_walk(rtr_status_cb cb, void *arg)
{
	struct rtr_cache_status s;

	for (struct rtr_cache *c = mgr.caches; c; c = c->next) {
		rtr_session_status(c, &s);
		cb(&s, arg);
	}
}

uint8_t rtr_active_group(void)
{
	/* The cache whose data is in use; while none has synchronised, the one being tried. */
	for (struct rtr_cache *c = mgr.caches; c; c = c->next)
		if (c->running && c->synced)
			return c->cfg.preference;
	for (struct rtr_cache *c = mgr.caches; c; c = c->next)
		if (c->running)
			return c->cfg.preference;
	return 0;
}
