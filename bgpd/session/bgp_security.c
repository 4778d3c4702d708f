/* SPDX-License-Identifier: ISC */
/*
 * TCP-MD5 and GTSM on connection sockets (bgpd/session/bgp_security.h): the probe, the per-socket
 * sequence and the live changes. The kernel layer does the options and names the failing one
 * with the peer and the errno in struct kernel_sec_err; we add which socket and what happens
 * to it, and close it.
 */
#include "lib/compat.h"

#include "bgpd/core/bgp_log.h"
#include "bgpd/session/bgp_fsm.h"
#include "bgpd/session/bgp_security.h"
#include "bgpd/session/bgp_session.h"

static struct kernel_caps probe;
static bool probed;
static char listener_problem[KERNEL_SEC_ERRLEN];

void bgp_security_probe(void)
{
	char missing[1024];

	kernel_caps_probe(&probe);
	probed = true;
	/* Say at start-up what will be refused, before any configuration asks for it. */
	if (kernel_caps_format(&probe, ~0u, missing, sizeof(missing)) > 0) {
		char *line, *save = NULL;

		for (line = strtok_r(missing, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			log_info("kernel probe: %s", line);
	}
}

void bgp_security_set_caps(const struct kernel_caps *caps)
{
	if (caps) {
		probe = *caps;
		probed = true;
	} else {
		memset(&probe, 0, sizeof(probe));
		probed = false;
	}
}

void bgp_security_set_listener_problem(const char *reason)
{
	snprintf(listener_problem, sizeof(listener_problem), "%s", reason ? reason : "");
}

unsigned bgp_security_required(int family, bool password, unsigned ttl_security_hops)
{
	unsigned req = 0;

	if (password)
		req |= KERNEL_CAP_BIT(family == AF_INET6 ? KERNEL_CAP_MD5_V6 : KERNEL_CAP_MD5_V4);
	if (ttl_security_hops) {
		req |= KERNEL_CAP_BIT(family == AF_INET6 ? KERNEL_CAP_MINHOPCOUNT
							 : KERNEL_CAP_MINTTL_V4);
		/* Without a socket filter the listener cannot TTL-check a GTSM peer's handshake. */
		req |= KERNEL_CAP_BIT(KERNEL_CAP_SOCKET_FILTER);
	}
	return req;
}

/* Copy kernel_caps_format()'s lines to out as one list: "a; b" (always NUL-terminated). */
static void lines_to_list(const char *lines, char *out, size_t size)
{
	size_t used = 0;

	for (const char *p = lines; *p && used + 1 < size; p++) {
		if (*p != '\n') {
			out[used++] = *p;
			continue;
		}
		if (!p[1] || used + 3 >= size)
			break;
		out[used++] = ';';
		out[used++] = ' ';
	}
	out[used] = '\0';
}

int bgp_peer_security_check(const struct ipaddr *addr, bool password, unsigned ttl_security_hops,
			    char *msg, size_t size)
{
	char lines[1024], list[1024];
	int missing = 0;
	size_t used;

	if (size)
		msg[0] = '\0';
	list[0] = '\0';
	if (probed) {
		unsigned req = bgp_security_required(addr->family, password, ttl_security_hops);

		missing = kernel_caps_format(&probe, req, lines, sizeof(lines));
		if (missing)
			lines_to_list(lines, list, sizeof(list));
	}
	if (ttl_security_hops && listener_problem[0]) {
		used = strlen(list);
		snprintf(list + used, sizeof(list) - used,
			 "%sthe BGP listener cannot TTL-check a GTSM peer's handshake (%s)",
			 used ? "; " : "", listener_problem);
		missing++;
	}
	if (!missing)
		return 0;
	snprintf(msg, size, "%s; remove the setting or run bgpd where the kernel supports it",
		 list);
	return -1;
}

int bgp_gtsm_rules_check(const struct bgp_gtsm_rule *rules, size_t n, char *msg, size_t size)
{
	static const unsigned families[] = { KERNEL_GTSM_FILTER_V4, KERNEL_GTSM_FILTER_V6 };
	struct kernel_gtsm_peer *peers;
	int ret = 0;

	if (!n)
		return 0;
	peers = XCALLOC(MTYPE_BGP_PEER_CONF, n * sizeof(*peers));
	for (size_t i = 0; i < n; i++) {
		peers[i].addr = rules[i].addr;
		peers[i].plen = rules[i].plen;
		peers[i].exempt = rules[i].exempt;
		if (rules[i].hops)
			peers[i].min_ttl = (uint8_t)kernel_gtsm_min_for_hops((int)rules[i].hops);
	}
	for (size_t f = 0; f < array_size(families) && ret == 0; f++) {
		struct kernel_sec_err err;
		size_t count = 0;
		int len;

		memset(&err, 0, sizeof(err));
		len = kernel_gtsm_filter_build(peers, n, families[f], NULL, &err);
		if (len >= 0)
			continue;
		for (size_t i = 0; i < n; i++)
			count += (rules[i].addr.family == AF_INET) == (f == 0);
		snprintf(msg, size,
			 "too many GTSM neighbors for the listener: %zu %s neighbors with "
			 "ttl-security do not fit in its rule program (%s); the guaranteed "
			 "capacity is 313 neighbors in any mix, up to 4,005 IPv4 neighbors sharing "
			 "one hops value (doc/gtsm.md, Limits)",
			 count, f == 0 ? "IPv4" : "IPv6", err.msg[0] ? err.msg : strerror(-len));
		ret = -1;
	}
	XFREE(MTYPE_BGP_PEER_CONF, peers);
	return ret;
}

int bgp_security_check_all(const struct bgp *bgp, struct sbuf *why)
{
	const struct bgp_peer *peer;
	char msg[1200];
	int bad = 0;

	if (!bgp)
		return 0;
	TAILQ_FOREACH (peer, &bgp->peers, entry) {
		bool pw = peer->conf.password && peer->conf.password[0];

		if (bgp_peer_security_check(&peer->conf.addr, pw, peer->conf.ttl_security_hops, msg,
					    sizeof(msg)) == 0)
			continue;
		sbuf_printf(why, "neighbor %s (%s%s%s) refused: %s\n", peer->name,
			    pw ? "password" : "", pw && peer->conf.ttl_security_hops ? ", " : "",
			    peer->conf.ttl_security_hops ? "ttl-security" : "", msg);
		bad++;
	}
	return bad ? -1 : 0;
}

/* ---- parameters ---- */

int bgp_peer_plain_ttl(const struct bgp_peer *peer)
{
	/* eBGP and confed-external: 1 (directly connected) unless ebgp-multihop; iBGP: 255
	 * (FRR's defaults: every peer but an internal one gets BGP_DEFAULT_TTL). */
	if (!bgp_peer_is_ebgp(peer) && !bgp_peer_is_confed(peer))
		return 255;
	return peer->conf.ebgp_multihop ? peer->conf.ebgp_multihop : 1;
}

int bgp_peer_min_ttl(const struct bgp_peer *peer)
{
	int min = kernel_gtsm_min_for_hops(peer->conf.ttl_security_hops);

	return min < 0 ? 0 : min;
}

void bgp_peer_sec_params(const struct bgp_peer *peer, struct kernel_sec_params *params)
{
	memset(params, 0, sizeof(*params));
	if (peer->conf.password && peer->conf.password[0])
		params->md5_key = peer->conf.password;
	params->gtsm_hops = peer->conf.ttl_security_hops;
	params->ttl = bgp_peer_plain_ttl(peer);
}

/* ---- new sockets ---- */

int bgp_conn_secure(struct bgp_conn *c)
{
	struct bgp_peer *peer = c->s->peer;
	struct kernel_sec_params params;
	struct kernel_sec_err err;
	int r;

	memset(&err, 0, sizeof(err));
	bgp_peer_sec_params(peer, &params);
	r = kernel_sec_apply(c->fd, &peer->conf.addr, &params, &err);
	if (r < 0)
		bgp_peer_err(peer,
			     "outgoing connection: socket (fd %d) closed before connect(): %s",
			     c->fd, err.msg);
	return r;
}

int bgp_sock_secure_accepted(struct bgp_peer *peer, int fd)
{
	struct kernel_sec_params params;
	struct kernel_sec_err err;
	int r;

	memset(&err, 0, sizeof(err));
	bgp_peer_sec_params(peer, &params);
	r = kernel_gtsm_accepted(fd, &peer->conf.addr, &params, &err);
	if (r < 0)
		bgp_peer_err(peer,
			     "incoming connection: socket (fd %d) closed before reading from "
			     "it: %s",
			     fd, err.msg);
	return r;
}

/* ---- live changes ---- */

/* A socket whose options could not be changed is in an unknown state: drop the connection as
 * if TCP had failed (no NOTIFICATION can be trusted to matter; the peer sees the close). */
static void conn_fail_closed(struct bgp_conn *c, enum bgp_down_reason why)
{
	bgp_conn_abort(c);
	bgp_conn_set_down_reason(c, why);
	bgp_fsm_event(c, BGP_EV_TCP_FAILS);
}

void bgp_session_gtsm_live(struct bgp_peer *peer)
{
	struct bgp_session *s = peer->session;
	unsigned hops = peer->conf.ttl_security_hops;
	int i;

	if (!s)
		return;
	for (i = 0; i < 2; i++) {
		struct bgp_conn *c = &s->conn[i];
		struct kernel_sec_err err;
		int r;

		if (c->fd < 0)
			continue;
		memset(&err, 0, sizeof(err));
		/* Enable/change: TTL 255 first, so that our segments already qualify when the
		 * peer's minimum applies; then our minimum. Disable: minimum off first, then back
		 * to the plain TTL. Either way no segment of the session is dropped by us. */
		if (hops)
			r = kernel_gtsm_set(c->fd, &peer->conf.addr, (int)hops, &err);
		else
			r = kernel_gtsm_clear(c->fd, &peer->conf.addr, bgp_peer_plain_ttl(peer),
					      &err);
		if (r < 0) {
			bgp_peer_err(peer,
				     "ttl-security change on the %s connection (fd %d): %s; "
				     "connection closed",
				     bgp_fsm_state_str(c->state), c->fd, err.msg);
			conn_fail_closed(c, BGP_DOWN_SOCKET_ERROR);
			continue;
		}
		bgp_peer_debug(BGP_DEBUG_NEIGHBOR_EVENTS, peer,
			       "ttl-security %s on the %s connection (fd %d), no reset",
			       hops ? "applied" : "removed", bgp_fsm_state_str(c->state), c->fd);
	}
}

void bgp_session_ttl_live(struct bgp_peer *peer)
{
	struct bgp_session *s = peer->session;
	int i, ttl = bgp_peer_plain_ttl(peer);

	/* With GTSM the TTL is 255 whatever multihop says (the model forbids both anyway). */
	if (!s || peer->conf.ttl_security_hops)
		return;
	for (i = 0; i < 2; i++) {
		struct bgp_conn *c = &s->conn[i];
		struct kernel_sec_err err;

		if (c->fd < 0)
			continue;
		memset(&err, 0, sizeof(err));
		if (kernel_ttl_set(c->fd, &peer->conf.addr, ttl, &err) < 0) {
			bgp_peer_err(peer,
				     "TTL change on the %s connection (fd %d): %s; connection "
				     "closed",
				     bgp_fsm_state_str(c->state), c->fd, err.msg);
			conn_fail_closed(c, BGP_DOWN_MULTIHOP_CHANGE);
		}
	}
}
