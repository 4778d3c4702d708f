/* SPDX-License-Identifier: ISC */
/*
 * The instance and its peers (bgpd/bgpd.h): creation and deletion, the effective values of
 * inherited settings, and what a configuration change means for a running session. The
 * northbound's apply callbacks call these; the session side and the RIB side each keep and
 * free their own half of a peer.
 */
#include "lib/compat.h"

#include <arpa/inet.h>

#include "bgpd/bgp_closer.h"
#include "bgpd/bgp_policy.h"
#include "bgpd/bgp_log.h"
#include "bgpd/bgp_msg.h"
#include "bgpd/bgp_network.h"
#include "bgpd/bgp_security.h"
#include "bgpd/bgp_session.h"
#include "bgpd/bgpd.h"
#include "kernel/kernel.h"
#include "lib/event.h"
#include "lib/hash.h"
#include "lib/memory.h"

DEFINE_MTYPE(BGP, "BGP instance");
DEFINE_MTYPE(BGP_PEER, "BGP peer");
DEFINE_MTYPE(BGP_NETWORK, "BGP network statement");
DEFINE_MTYPE(BGP_PEER_INDEX, "BGP peer index bitmap");

static struct bgp *bgp_instance;
static struct event_base *bgp_base;

/* ---- address families ---- */

const char *bgp_af_json_name(enum bgp_af af)
{
	switch (af) {
	case BGP_AF_IPV4_UNICAST:
		return "ipv4Unicast";
	case BGP_AF_IPV6_UNICAST:
		return "ipv6Unicast";
	default:
		return "unknown";
	}
}

const char *bgp_af_text_name(enum bgp_af af)
{
	switch (af) {
	case BGP_AF_IPV4_UNICAST:
		return "IPv4 Unicast";
	case BGP_AF_IPV6_UNICAST:
		return "IPv6 Unicast";
	default:
		return "Unknown";
	}
}

int bgp_af_from_afi_safi(uint16_t afi, uint8_t safi)
{
	if (safi != BGP_SAFI_UNICAST)
		return -1;
	if (afi == BGP_AFI_IPV4)
		return BGP_AF_IPV4_UNICAST;
	if (afi == BGP_AFI_IPV6)
		return BGP_AF_IPV6_UNICAST;
	return -1;
}

void bgp_af_to_afi_safi(enum bgp_af af, uint16_t *afi, uint8_t *safi)
{
	*afi = af == BGP_AF_IPV6_UNICAST ? BGP_AFI_IPV6 : BGP_AFI_IPV4;
	*safi = BGP_SAFI_UNICAST;
}

/* ---- the instance ---- */

struct bgp *bgp_get(void)
{
	return bgp_instance;
}

void bgp_set_event_base(struct event_base *base)
{
	bgp_base = base;
}

struct event_base *bgp_event_base(void)
{
	return bgp_base;
}

static uint32_t peer_hash_key(const void *item)
{
	const struct bgp_peer *peer = item;

	return hash_bytes(peer->conf.addr.u.bytes, family_addr_bytes(peer->conf.addr.family),
			  peer->conf.addr.family);
}

static bool peer_hash_eq(const void *a, const void *b)
{
	const struct bgp_peer *pa = a, *pb = b;

	return ipaddr_cmp(&pa->conf.addr, &pb->conf.addr) == 0;
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

struct bgp *bgp_create(uint32_t asn)
{
	struct bgp *bgp;
	int af;

	if (bgp_instance)
		return bgp_instance->asn == asn ? bgp_instance : NULL;
	bgp = XCALLOC(MTYPE_BGP, sizeof(*bgp));
	bgp->asn = asn;
	bgp->keepalive = BGP_DEFAULT_KEEPALIVE;
	bgp->holdtime = BGP_DEFAULT_HOLDTIME;
	bgp->default_ipv4_unicast = true;
	bgp->fib_install = true;
	bgp->fib_table = BGP_FIB_TABLE_DEFAULT;
	for (af = 0; af < BGP_AF_MAX; af++)
		bgp->maxpaths[af][0] = bgp->maxpaths[af][1] = BGP_MAXPATHS_DEFAULT;
	bgp->ebgp_requires_policy = true; /* RFC 8212, the model's default */
	TAILQ_INIT(&bgp->peers);
	for (af = 0; af < BGP_AF_MAX; af++)
		TAILQ_INIT(&bgp->networks[af]);
	bgp->peer_hash = hash_new(peer_hash_key, peer_hash_eq, "BGP peers");
	bgp->base = bgp_base;
	bgp->created_epoch = wallclock_s();
	router_id_auto(bgp);
	bgp_instance = bgp;
	bgp->rib = rib_new(bgp);
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
	bgp_policy_fini(bgp);
	rib_free(bgp->rib);
	bgp->rib = NULL;
	hash_free(bgp->peer_hash);
	if (bgp_instance == bgp)
		bgp_instance = NULL;
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

struct bgp_peer *bgp_peer_lookup(struct bgp *bgp, const struct ipaddr *addr)
{
	struct bgp_peer key;

	if (!bgp || !addr)
		return NULL;
	memset(&key, 0, sizeof(key));
	key.conf.addr = *addr;
	ipaddr_unmap_v4(&key.conf.addr);
	return hash_lookup(bgp->peer_hash, &key);
}

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

/* ---- effective values ---- */

void bgp_ebgp_requires_policy_changed(struct bgp *bgp)
{
	struct bgp_peer *peer;

	TAILQ_FOREACH (peer, &bgp->peers, entry) {
		if (!bgp_peer_is_ebgp(peer))
			continue;
		for (int af = 0; af < BGP_AF_MAX; af++)
			for (int dir = 0; dir < BGP_DIR_MAX; dir++)
				bgp_policy_changed(peer, (enum bgp_af)af, (enum bgp_dir)dir);
	}
}

bool bgp_peer_is_ebgp(const struct bgp_peer *peer)
{
	const struct bgp_session *s = peer->session;

	switch (peer->conf.remote_as_type) {
	case BGP_REMOTE_AS_EXTERNAL:
		return true;
	case BGP_REMOTE_AS_INTERNAL:
		return false;
	case BGP_REMOTE_AS_SPECIFIED:
		break;
	}
	if (peer->conf.remote_as)
		return peer->conf.remote_as != peer->bgp->asn;
	return s && s->remote_as && s->remote_as != peer->bgp->asn;
}

uint32_t bgp_peer_remote_as_expected(const struct bgp_peer *peer)
{
	return peer->conf.remote_as_type == BGP_REMOTE_AS_SPECIFIED ? peer->conf.remote_as : 0;
}

bool bgp_peer_af_activated(const struct bgp_peer *peer, enum bgp_af af)
{
	if ((unsigned)af >= BGP_AF_MAX)
		return false;
	switch (peer->conf.af_activation[af]) {
	case BGP_AF_ACT_ON:
		return true;
	case BGP_AF_ACT_OFF:
		return false;
	case BGP_AF_ACT_DEFAULT:
		break;
	}
	/* `bgp default ipv4-unicast` (on by default) activates IPv4 unicast for every neighbor,
	 * FRR's traditional behaviour; other families need `neighbor X activate`. */
	return af == BGP_AF_IPV4_UNICAST && peer->bgp->default_ipv4_unicast;
}

uint16_t bgp_peer_keepalive(const struct bgp_peer *peer)
{
	if (peer->conf.timers_configured)
		return peer->conf.keepalive;
	return peer->bgp->keepalive;
}

uint16_t bgp_peer_holdtime(const struct bgp_peer *peer)
{
	if (peer->conf.timers_configured)
		return peer->conf.holdtime;
	return peer->bgp->holdtime;
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
	rib_network_add(bgp, af, &n->prefix);
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
	rib_network_del(bgp, af, &n->prefix);
	XFREE(MTYPE_BGP_NETWORK, n);
	return 0;
}

void bgp_shutdown_all(struct bgp *bgp)
{
	struct bgp_peer *peer;

	if (!bgp)
		return;
	/* Cease / Administrative Shutdown to every peer with a connection; the NOTIFICATION is
	 * written at once (bgp_conn_write_now), so it is on the wire before we exit. */
	TAILQ_FOREACH (peer, &bgp->peers, entry)
		bgp_session_stop(peer, BGP_ERR_CEASE_ADMIN_SHUTDOWN, BGP_DOWN_ADMIN_SHUTDOWN);
}
