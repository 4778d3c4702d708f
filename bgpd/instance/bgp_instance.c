/* SPDX-License-Identifier: ISC */
/*
 * The instance and its peers (bgpd/instance/bgp_instance.h): creation and deletion, and what a
 * configuration change means for a running session. The northbound's apply callbacks call
 * these; the session side and the RIB side each keep and free their own half of a peer.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <string.h>

#include "bgpd/core/bgp_log.h"
#include "bgpd/fib/bgp_fib.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/policy/bgp_aspath_list.h"
#include "bgpd/policy/bgp_clist.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_policy_reeval.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "bgpd/rib/bgp_rib_rpki.h"
#include "bgpd/session/bgp_closer.h"
#include "bgpd/session/bgp_network.h"
#include "bgpd/session/bgp_security.h"
#include "bgpd/session/bgp_session.h"
#include "kernel/kernel.h"
#include "lib/event.h"
#include "lib/hash.h"
#include "lib/memory.h"
#include "lib/plist.h"

DEFINE_MTYPE(BGP, "BGP instance");
DEFINE_MTYPE(BGP_PEER, "BGP peer");
DEFINE_MTYPE(BGP_NETWORK, "BGP network statement");
DEFINE_MTYPE(BGP_PEER_INDEX, "BGP peer index bitmap");

static struct bgp *bgp_instance;

/* ---- the instance ---- */

struct bgp *bgp_get(void)
{
	return bgp_instance;
}

/* ---- named policy objects: who must re-evaluate when one changes ---- */

/* The hooks of lib/plist.h and bgpd/policy/ carry no instance: they reach the running one. */
static void plist_changed(int family, const char *name)
{
	if (bgp_instance) {
		bgp_policy_plist_changed(bgp_instance, family, name);
		bgp_redist_changed(bgp_instance);	    /* redistribute ... route-map NAME */
		bgp_network_check_policy_changed();	    /* network ... route-map NAME */
		rib_aggregate_policy_changed(bgp_instance); /* aggregate-address ... *-map */
	}
}

static void aspath_changed(const char *name)
{
	if (bgp_instance) {
		bgp_policy_aspath_changed(bgp_instance, name);
		bgp_redist_changed(bgp_instance);
		bgp_network_check_policy_changed();
		rib_aggregate_policy_changed(bgp_instance);
	}
}

/* A route-map or a community list (only route-maps use those) changed. */
static void rmap_changed(const char *name)
{
	(void)name;
	if (bgp_instance) {
		bgp_policy_rmap_changed(bgp_instance);
		bgp_redist_changed(bgp_instance);
		bgp_network_check_policy_changed();
		rib_aggregate_policy_changed(bgp_instance);
	}
}

static void policy_watch(bool on)
{
	prefix_list_set_change_hook(on ? plist_changed : NULL);
	aspath_list_set_change_hook(on ? aspath_changed : NULL);
	route_map_set_change_hook(on ? rmap_changed : NULL);
	community_list_set_change_hook(on ? rmap_changed : NULL);
}

/* The router-id when none is configured: the highest IPv4 address of the host (not 127/8). */
static void router_id_auto(struct bgp *bgp)
{
	struct in_addr id;

	if (bgp->router_id_configured)
		return;
	if (kernel_highest_ipv4(&id) == 0) {
		bgp->router_id = id;
		return;
	}
	bgp->router_id.s_addr = INADDR_ANY;
	log_warn("no IPv4 address to use as router-id; sessions will not start until "
		 "`bgp router-id A.B.C.D` is configured");
}

struct bgp *bgp_create(uint32_t asn, struct event_base *base)
{
	struct bgp *bgp;
	int af;

	if (bgp_instance)
		return bgp_instance->asn == asn ? bgp_instance : NULL;
	bgp = XCALLOC(MTYPE_BGP, sizeof(*bgp));
	bgp->asn = asn;
	route_map_set_local_as(asn); /* set extcommunity bandwidth carries it */
	bgp->keepalive = BGP_DEFAULT_KEEPALIVE;
	bgp->holdtime = BGP_DEFAULT_HOLDTIME;
	bgp->default_ipv4_unicast = true;
	bgp->fib_install = true;
	bgp->fib_table = BGP_FIB_TABLE_DEFAULT;
	for (af = 0; af < BGP_AF_MAX; af++)
		bgp->maxpaths[af][0] = bgp->maxpaths[af][1] = BGP_MAXPATHS_DEFAULT;
	bgp->ebgp_requires_policy = true; /* RFC 8212, the model's default */
	bgp->gr_mode = BGP_GR_HELPER;
	bgp->gr_restart_time = BGP_GR_RESTART_TIME_DEFAULT;
	bgp->gr_stalepath_time = BGP_GR_STALEPATH_TIME_DEFAULT;
	bgp->gr_select_defer_time = BGP_GR_SELECT_DEFER_TIME_DEFAULT;
	bgp->gr_notification = true;
	TAILQ_INIT(&bgp->peers);
	for (af = 0; af < BGP_AF_MAX; af++)
		TAILQ_INIT(&bgp->networks[af]);
	bgp->peer_hash = bgp_peer_table_new();
	bgp->base = base;
	bgp->created_epoch = wallclock_s();
	router_id_auto(bgp);
	bgp_instance = bgp;
	bgp_network_set_instance(bgp);
	bgp->rib = rib_new(bgp, &bgp_session_ops);
	/* RPKI data changes revalidate this RIB's routes (bgpd/main.c made the store). */
	rib_rpki_watch(bgp->rib, true);
	policy_watch(true);
	return bgp;
}

void bgp_delete(struct bgp *bgp)
{
	struct bgp_peer *peer;
	struct bgp_network *n;
	int af;

	if (!bgp)
		return;
	rib_fib_instance(bgp->rib, false); /* the kernel's routes go (or stay) in one step */
	while ((peer = TAILQ_FIRST(&bgp->peers)))
		bgp_peer_delete(peer);
	bgp_closer_flush(); /* their connections are gone with them */
	for (af = 0; af < BGP_AF_MAX; af++) {
		while ((n = TAILQ_FIRST(&bgp->networks[af]))) {
			TAILQ_REMOVE(&bgp->networks[af], n, entry);
			XFREE(MTYPE_BGP_NETWORK, n);
		}
	}
	policy_watch(false);
	bgp_policy_fini(bgp);
	rib_rpki_watch(bgp->rib, false);
	rib_free(bgp->rib);
	bgp->rib = NULL;
	hash_free(bgp->peer_hash);
	if (bgp_instance == bgp) {
		bgp_instance = NULL;
		bgp_network_set_instance(NULL);
	}
	XFREE(MTYPE_BGP, bgp);
}

/* ---- peer indexes: small, dense, reused (the RIB keeps per-peer bitmaps) ---- */

static uint64_t *index_map;
static uint32_t index_words;

static uint32_t index_alloc(void)
{
	uint32_t w;

	for (w = 0; w < index_words; w++)
		if (index_map[w] != UINT64_MAX)
			break;
	if (w == index_words) {
		uint32_t nw = index_words ? index_words * 2 : 4;

		index_map = XREALLOC(MTYPE_BGP_PEER_INDEX, index_map, nw * sizeof(*index_map));
		memset(index_map + index_words, 0, (nw - index_words) * sizeof(*index_map));
		index_words = nw;
	}
	for (uint32_t b = 0; b < 64; b++) {
		if (!(index_map[w] & (UINT64_C(1) << b))) {
			index_map[w] |= UINT64_C(1) << b;
			return w * 64 + b;
		}
	}
	return UINT32_MAX; /* not reached */
}

static void index_free(uint32_t idx)
{
	if (idx / 64 < index_words)
		index_map[idx / 64] &= ~(UINT64_C(1) << (idx % 64));
	/* The map is released with the last peer so that a test's counters come back even. */
	for (uint32_t w = 0; w < index_words; w++)
		if (index_map[w])
			return;
	XFREE(MTYPE_BGP_PEER_INDEX, index_map);
	index_words = 0;
}

/* ---- peers ---- */

struct bgp_peer *bgp_peer_create(struct bgp *bgp, const struct ipaddr *addr)
{
	struct bgp_peer *peer;
	int af;

	if (bgp_peer_lookup(bgp, addr))
		return NULL;
	peer = XCALLOC(MTYPE_BGP_PEER, sizeof(*peer));
	peer->bgp = bgp;
	peer->conf.addr = *addr;
	ipaddr_unmap_v4(&peer->conf.addr);
	peer->conf.remote_as_type = BGP_REMOTE_AS_SPECIFIED;
	peer->conf.keepalive = BGP_DEFAULT_KEEPALIVE;
	peer->conf.holdtime = BGP_DEFAULT_HOLDTIME;
	peer->conf.connect_retry = BGP_DEFAULT_CONNECT_RETRY;
	for (af = 0; af < BGP_AF_MAX; af++)
		peer->conf.af_activation[af] = BGP_AF_ACT_DEFAULT;
	peer->index = index_alloc();
	ipaddr_to_str(&peer->conf.addr, peer->name, sizeof(peer->name));
	TAILQ_INSERT_TAIL(&bgp->peers, peer, entry);
	hash_insert(bgp->peer_hash, peer);
	bgp->peer_count++;
	rib_peer_attach(peer);
	/* The session starts on the next loop turn, once the rest of the commit (remote-as,
	 * timers...) has been applied. */
	bgp_session_new(peer);
	return peer;
}

void bgp_peer_delete(struct bgp_peer *peer)
{
	struct bgp *bgp = peer->bgp;

	/* Cease / Peer De-configured (RFC 4486), routes withdrawn by rib_peer_down(). */
	bgp_session_stop(peer, BGP_ERR_CEASE_PEER_DECONFIGURED, BGP_DOWN_NEIGHBOR_DELETE);
	bgp_network_peer_delete(peer); /* its key and GTSM rule leave the listeners */
	bgp_session_free(peer);
	rib_peer_detach(peer);
	hash_remove(bgp->peer_hash, peer);
	TAILQ_REMOVE(&bgp->peers, peer, entry);
	bgp->peer_count--;
	index_free(peer->index);
	bgp_peer_config_strings_free(&peer->conf);
	XFREE(MTYPE_BGP_PEER, peer);
}

static bool peer_running(const struct bgp_peer *peer)
{
	const struct bgp_session *s = peer->session;

	return s && (s->conn[0].state != BGP_ST_IDLE || s->conn[1].state != BGP_ST_IDLE);
}

void bgp_peer_config_changed(struct bgp_peer *peer, enum bgp_peer_change what)
{
	switch (what) {
	case BGP_PEER_CHG_REMOTE_AS:
		if (peer_running(peer))
			bgp_session_reset(peer, BGP_ERR_CEASE_CONFIG_CHANGE, BGP_DOWN_REMOTE_AS);
		break;
	case BGP_PEER_CHG_DESCRIPTION:
	case BGP_PEER_CHG_TIMERS:	 /* next session (FRR) */
	case BGP_PEER_CHG_CONNECT_RETRY: /* next time the timer is armed */
		return;
	case BGP_PEER_CHG_SHUTDOWN:
		if (peer->conf.shutdown)
			bgp_session_stop(peer, BGP_ERR_CEASE_ADMIN_SHUTDOWN,
					 BGP_DOWN_ADMIN_SHUTDOWN);
		break;
	case BGP_PEER_CHG_PASSIVE:
		if (peer_running(peer) && bgp_session_state(peer) != BGP_ST_ESTABLISHED)
			bgp_session_reset(peer, BGP_ERR_CEASE_CONFIG_CHANGE,
					  BGP_DOWN_PASSIVE_CHANGE);
		break;
	case BGP_PEER_CHG_UPDATE_SOURCE:
		if (peer_running(peer))
			bgp_session_reset(peer, BGP_ERR_CEASE_CONFIG_CHANGE,
					  BGP_DOWN_UPDATE_SOURCE);
		break;
	case BGP_PEER_CHG_LOCAL_AS:
		if (peer_running(peer))
			bgp_session_reset(peer, BGP_ERR_CEASE_CONFIG_CHANGE, BGP_DOWN_LOCAL_AS);
		break;
	case BGP_PEER_CHG_CONNECTED_CHECK:
		/* FRR resets the session, with "Multihop config change". */
		if (peer_running(peer))
			bgp_session_reset(peer, BGP_ERR_CEASE_CONFIG_CHANGE,
					  BGP_DOWN_MULTIHOP_CHANGE);
		break;
	case BGP_PEER_CHG_MULTIHOP:
		bgp_session_ttl_live(peer); /* the new TTL on the live sockets, as FRR */
		break;
	case BGP_PEER_CHG_AF_ACTIVATION:
		if (peer_running(peer))
			bgp_session_reset(peer, BGP_ERR_CEASE_CONFIG_CHANGE, BGP_DOWN_AF_ACTIVATE);
		break;
	case BGP_PEER_CHG_PASSWORD:
		/*
		 * A password change resets the session (FRR does too). The kernel checks the
		 * TCP-MD5 key on every segment (RFC 2385): the moment one end's key differs from
		 * the other's, every segment between them is dropped, so a live connection cannot
		 * move to a new key; both ends must change, and the session comes back on a new
		 * connection signed with the new key. The Cease goes out on the old connection,
		 * still signed with the old key. The listeners get the new key first.
		 */
		bgp_network_peer_password(peer);
		if (peer_running(peer))
			bgp_session_reset(peer, BGP_ERR_CEASE_CONFIG_CHANGE,
					  BGP_DOWN_PASSWORD_CHANGE);
		break;
	case BGP_PEER_CHG_TTL_SECURITY:
		/*
		 * Hitless (RFC 5082 has nothing to negotiate): the listeners' rules first, so that
		 * a new connection's handshake meets the new minimum, then every open socket of
		 * the peer, the Established one and a colliding or connecting one alike. Between
		 * the two ends' changes one side drops the other's segments and TCP backs off, so
		 * operators change the second end within (hold time - keepalive) / 2 (doc/gtsm.md
		 * section 4 has the measurements).
		 */
		bgp_network_peer_gtsm(peer);
		bgp_session_gtsm_live(peer);
		break;
	}
	bgp_session_kick(peer);
}

void bgp_max_prefix_changed(struct bgp_peer *peer, enum bgp_af af)
{
	rib_max_prefix_check(peer, af);
}

/* ---- instance-wide changes ---- */

void bgp_router_id_changed(struct bgp *bgp)
{
	struct in_addr old = bgp->router_id;
	struct bgp_peer *peer;
	char buf[INET_ADDRSTRLEN];

	if (!bgp->router_id_configured)
		router_id_auto(bgp);
	if (old.s_addr == bgp->router_id.s_addr)
		return;
	inet_ntop(AF_INET, &bgp->router_id, buf, sizeof(buf));
	log_notice("router-id is now %s", buf);
	/* FRR resets every session: the identifier is in the OPEN. */
	TAILQ_FOREACH (peer, &bgp->peers, entry) {
		if (peer_running(peer))
			bgp_session_reset(peer, BGP_ERR_CEASE_CONFIG_CHANGE, BGP_DOWN_ROUTER_ID);
		else
			bgp_session_kick(peer);
	}
}

void bgp_timers_changed(struct bgp *bgp)
{
	/* Applies to the next OPEN exchange of each peer, as in FRR. */
}

void bgp_default_af_changed(struct bgp *bgp)
{
	struct bgp_peer *peer;

	TAILQ_FOREACH (peer, &bgp->peers, entry)
		if (peer->conf.af_activation[BGP_AF_IPV4_UNICAST] == BGP_AF_ACT_DEFAULT)
			bgp_peer_config_changed(peer, BGP_PEER_CHG_AF_ACTIVATION);
}

static struct bgp_network *network_find(struct bgp *bgp, enum bgp_af af, const struct prefix *p)
{
	struct bgp_network *n;

	TAILQ_FOREACH (n, &bgp->networks[af], entry)
		if (prefix_same(&n->prefix, p))
			return n;
	return NULL;
}

int bgp_network_add(struct bgp *bgp, enum bgp_af af, const struct prefix *p)
{
	struct bgp_network *n;

	if ((unsigned)af >= BGP_AF_MAX || p->family != bgp_af_family(af))
		return -EINVAL;
	if (network_find(bgp, af, p))
		return -EEXIST;
	n = XCALLOC(MTYPE_BGP_NETWORK, sizeof(*n));
	n->prefix = *p;
	prefix_apply_mask(&n->prefix);
	TAILQ_INSERT_TAIL(&bgp->networks[af], n, entry);
	bgp_network_check_sync(bgp); /* announced now, or once the kernel has the route */
	return 0;
}

int bgp_network_del(struct bgp *bgp, enum bgp_af af, const struct prefix *p)
{
	struct bgp_network *n;
	struct prefix q = *p;

	if ((unsigned)af >= BGP_AF_MAX)
		return -EINVAL;
	prefix_apply_mask(&q);
	n = network_find(bgp, af, &q);
	if (!n)
		return -ENOENT;
	TAILQ_REMOVE(&bgp->networks[af], n, entry);
	bgp_network_check_sync(bgp); /* withdrawn if it was announced */
	XFREE(MTYPE_BGP_NETWORK, n);
	return 0;
}

int bgp_network_set_rmap(struct bgp *bgp, enum bgp_af af, const struct prefix *p, const char *rmap)
{
	struct bgp_network *n;
	struct prefix q = *p;

	if ((unsigned)af >= BGP_AF_MAX)
		return -EINVAL;
	if (rmap && strlen(rmap) >= sizeof(n->rmap))
		return -ENAMETOOLONG;
	prefix_apply_mask(&q);
	n = network_find(bgp, af, &q);
	if (!n)
		return -ENOENT;
	if (strcmp(n->rmap, rmap ? rmap : "") == 0)
		return 0; /* set with the statement already (bgpd/config/) */
	snprintf(n->rmap, sizeof(n->rmap), "%s", rmap ? rmap : "");
	bgp_network_check_sync(bgp); /* announced with the map's sets, or withdrawn if it denies */
	return 0;
}

/*
 * How bgpd's stop reaches a peer. In graceful-restart mode the routes stay in the kernel
 * (bgpd/fib/bgp_fib.c) and a peer that negotiated Graceful Restart should keep ours as stale
 * until we are back. Without the N bit any NOTIFICATION makes an RFC 4724 helper drop them;
 * with it (RFC 8538) an administrative Cease goes out as a Hard Reset, which does too. So the
 * connection is closed without a NOTIFICATION, as a crash would, which is what FRR does
 * (peer_notify_shutdown() skips it for a peer capable of graceful restart).
 */
static uint8_t stop_subcode(const struct bgp_peer *peer)
{
	const struct bgp_session *s = peer->session;

	if (!s || !s->established || !s->info.gr || !peer->bgp->gr_fib_forwarding ||
	    peer->bgp->gr_mode != BGP_GR_RESTART || bgp_peer_gr_mode(peer) != BGP_GR_RESTART)
		return BGP_ERR_CEASE_ADMIN_SHUTDOWN;
	return BGP_SESSION_STOP_SILENT;
}

void bgp_shutdown_all(struct bgp *bgp)
{
	struct bgp_peer *peer;

	if (!bgp)
		return;
	/* Cease / Administrative Shutdown to every peer with a connection; the NOTIFICATION is
	 * written at once (bgp_conn_write_now), so it is on the wire before we exit. In
	 * graceful-restart mode, what keeps our routes at the peer (stop_subcode()). */
	TAILQ_FOREACH (peer, &bgp->peers, entry)
		bgp_session_stop(peer, stop_subcode(peer), BGP_DOWN_ADMIN_SHUTDOWN);
}
