/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target: UPDATEs ingested into the real RIB (bgpd/rib: Adj-RIB-In, the decision,
 * Adj-RIB-Out with its export rules) with policy applied inbound and outbound (route-maps with
 * every match and set kind, prefix lists, community lists, AS path lists, and the neighbor
 * options that rewrite attributes), then printed by the show code (bgpd/show) as text and as
 * JSON: the table, the detail of the best paths, what a neighbor was sent and received. The
 * received attributes reach every printer.
 *
 * Four neighbors: 192.0.2.2 (eBGP, AS 65002), 192.0.2.6 (eBGP, AS 65003), 192.0.2.10 (iBGP)
 * and 2001:db8::4 (iBGP); their sessions are doubles that decode every UPDATE the RIB sends.
 *
 * Properties (abort() otherwise): what the RIB sends decodes without error and is never to be
 * treated as withdraw, fits the neighbor's message size, goes only to neighbors that are up;
 * every JSON output is valid JSON; when every neighbor is down again, no interned attribute
 * set is left (nothing leaked a reference).
 *
 * Input: 3 bytes of options (struct opts below), then records: a byte (bits 0-1 the neighbor;
 * bit 6 the neighbor goes down and up first; bit 7 it sends a ROUTE-REFRESH for IPv4 instead),
 * a 2-byte length and an UPDATE body. See tests/fuzz/README.md.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <stdlib.h>

#include "bgpd/core/bgp.h"
#include "bgpd/core/bgp_msg.h"
#include "bgpd/policy/bgp_aspath_list.h"
#include "bgpd/policy/bgp_clist.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "bgpd/show/bgp_show.h"
#include "bgpd/wire/bgp_attr.h"
#include "bgpd/wire/bgp_header.h"
#include "bgpd/wire/bgp_update.h"
#include "lib/command.h"
#include "lib/log.h"
#include "lib/plist.h"
#include "lib/table.h"
#include "lib/vty.h"
#include "tests/fuzz/fuzz_json_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NPEERS 4
#define MAX_RECORDS 32
#define RUN_ALL 1000000
#define V4 BGP_AF_IPV4_UNICAST
#define V6 BGP_AF_IPV6_UNICAST

struct fz_peer {
	struct bgp_peer peer; /* first: the session doubles find the fz_peer from the peer */
	struct bgp_session_info info;
	bool up;
};

static struct bgp *bgp;
static struct fz_peer peers[NPEERS];
static struct vty *vty;

/* The show commands find the running instance through the instance layer: this one. */
struct bgp *bgp_get(void)
{
	return bgp;
}

/* ---- the session side, as the RIB sees it ---- */

static size_t fz_send_space(const struct bgp_peer *peer)
{
	return SIZE_MAX;
}

static int fz_send(struct bgp_peer *peer, const uint8_t *msg, size_t len)
{
	struct fz_peer *fp = (struct fz_peer *)peer;
	struct bgp_codec_ctx ctx = fp->info.codec;
	struct bgp_update upd;
	struct bgp_error err;

	if (!fp->up || len < 19 || len > fp->info.max_msg_size || msg[18] != 2 ||
	    ((size_t)msg[16] << 8 | msg[17]) != len)
		abort();
	/* The neighbor's side of the session decodes it. */
	ctx.local_as = fp->info.remote_as;
	ctx.peer_as = peer->conf.local_as ? peer->conf.local_as : bgp->asn;
	memset(&upd, 0, sizeof(upd));
	if (bgp_update_decode(&upd, msg + 19, len - 19, &ctx, &err) < 0 || upd.treat_as_withdraw)
		abort(); /* our own UPDATEs must be acceptable */
	bgp_update_release(&upd);
	return 0;
}

static void fz_max_prefix_exceeded(struct bgp_peer *peer, enum bgp_af af, uint32_t limit)
{
}

static int fz_send_route_refresh(struct bgp_peer *peer, enum bgp_af af)
{
	return 0;
}

static const struct bgp_session_ops fz_session_ops = {
	.send_space = fz_send_space,
	.send = fz_send,
	.max_prefix_exceeded = fz_max_prefix_exceeded,
	.send_route_refresh = fz_send_route_refresh,
};

/* ---- policy: one set of objects, attached per input ---- */

static char *xs(const char *s)
{
	return XSTRDUP(MTYPE_BGP_ROUTEMAP, s);
}

static uint32_t *u32s(const uint32_t *v, uint32_t n)
{
	uint32_t *out = XMALLOC(MTYPE_BGP_ROUTEMAP, n * sizeof(*v));

	memcpy(out, v, n * sizeof(*v));
	return out;
}

static void plist(int family, const char *name, uint32_t seq, enum prefix_list_action a,
		  const char *pfx, uint8_t ge, uint8_t le)
{
	struct prefix_list_entry e = { .seq = seq, .action = a, .ge = ge, .le = le };

	if (pfx)
		prefix_from_str(&e.p, pfx, true);
	else
		e.any = true;
	prefix_list_entry_set(prefix_list_get(family, name), &e);
}

static void policy_init(void)
{
	static const uint32_t comm[] = { 65001u << 16 | 1, 65001u << 16 | 2 };
	static const uint32_t lcomm[] = { 65001, 1, 1 };
	static const uint32_t prepend[] = { 65001, 65001, 4200000000u };
	struct rmap_entry e;

	plist(AF_INET, "PL4", 5, PREFIX_DENY, "203.0.113.0/25", 0, 0);
	plist(AF_INET, "PL4", 10, PREFIX_PERMIT, "198.51.100.0/24", 24, 32);
	plist(AF_INET, "PL4", 20, PREFIX_PERMIT, "0.0.0.0/0", 0, 24);
	plist(AF_INET6, "PL6", 5, PREFIX_PERMIT, "2001:db8::/32", 32, 64);
	plist(AF_INET6, "PL6", 10, PREFIX_DENY, NULL, 0, 0);
	community_list_entry_set("CL", false, 5, true, "65002:100 65002:200");
	community_list_entry_set("CL", false, 10, false, "no-export");
	community_list_entry_set("CLX", true, 5, true, "^65002:[0-9]+$");
	lcommunity_list_entry_set("LCL", false, 5, true, "65002:1:1");
	lcommunity_list_entry_set("LCLX", true, 5, true, "65002:.*");
	aspath_list_entry_set("AP", 5, false, "_64512_");
	aspath_list_entry_set("AP", 10, true, ".*");

	/* IN: deny a community, rewrite matched prefixes, prepend on a path match, tag. */
	e = (struct rmap_entry){
		.seq = 10, .permit = false, .match_clist = xs("CL"), .match_clist_exact = true
	};
	route_map_entry_set("IN", &e);
	e = (struct rmap_entry){ .seq = 20,
				 .permit = true,
				 .match_plist4 = xs("PL4"),
				 .lp_set = true,
				 .lp_op = RMAP_ADD,
				 .lp = 10,
				 .comm_set = true,
				 .comm_additive = true,
				 .comm = u32s(comm, 2),
				 .ncomm = 2,
				 .on_match = RMAP_NEXT };
	route_map_entry_set("IN", &e);
	e = (struct rmap_entry){ .seq = 30,
				 .permit = true,
				 .match_aspath = xs("AP"),
				 .med_set = true,
				 .med_op = RMAP_SUB,
				 .med = 5,
				 .prepend = u32s(prepend, 3),
				 .nprepend = 3,
				 .comm_delete = xs("CLX"),
				 .on_match = RMAP_GOTO,
				 .goto_seq = 50 };
	route_map_entry_set("IN", &e);
	e = (struct rmap_entry){ .seq = 40, .permit = false };
	route_map_entry_set("IN", &e);
	e = (struct rmap_entry){ .seq = 50,
				 .permit = true,
				 .match_plist6 = xs("PL6"),
				 .weight_set = true,
				 .weight = 100,
				 .lcomm_set = true,
				 .lcomm_additive = true,
				 .lcomm = u32s(lcomm, 3),
				 .nlcomm = 1,
				 .nexthop6_set = true,
				 .call = xs("SUB") };
	inet_pton(AF_INET6, "2001:db8::99", &e.nexthop6);
	route_map_entry_set("IN", &e);
	e = (struct rmap_entry){ .seq = 60, .permit = true, .match_lclist = xs("LCLX") };
	route_map_entry_set("IN", &e);
	/* IN2: everything permitted, attributes replaced. */
	e = (struct rmap_entry){ .seq = 10,
				 .permit = true,
				 .lp_set = true,
				 .lp = 300,
				 .med_set = true,
				 .med = 7,
				 .comm_set = true,
				 .comm_none = true,
				 .lcomm_set = true,
				 .lcomm_none = true,
				 .nexthop_set = true };
	inet_pton(AF_INET, "192.0.2.99", &e.nexthop);
	route_map_entry_set("IN2", &e);
	/* SUB: called from IN. */
	e = (struct rmap_entry){ .seq = 10,
				 .permit = true,
				 .match_metric_set = true,
				 .match_metric = 0,
				 .med_set = true,
				 .med_op = RMAP_ADD,
				 .med = 1 };
	route_map_entry_set("SUB", &e);
	e = (struct rmap_entry){ .seq = 20, .permit = true };
	route_map_entry_set("SUB", &e);
	/* OUT: per-prefix decisions after the export cache. */
	e = (struct rmap_entry){ .seq = 10,
				 .permit = true,
				 .match_clist = xs("CLX"),
				 .lcomm_delete = xs("LCL"),
				 .comm_delete = xs("CL") };
	route_map_entry_set("OUT", &e);
	e = (struct rmap_entry){ .seq = 20,
				 .permit = true,
				 .match_plist4 = xs("PL4"),
				 .med_set = true,
				 .med = 42,
				 .prepend = u32s(prepend, 2),
				 .nprepend = 2 };
	route_map_entry_set("OUT", &e);
	e = (struct rmap_entry){ .seq = 30, .permit = true, .match_plist6 = xs("PL6") };
	route_map_entry_set("OUT", &e);
	/* OUT2: a loop of calls, cut by the depth limit. */
	e = (struct rmap_entry){ .seq = 10, .permit = true, .call = xs("OUT2") };
	route_map_entry_set("OUT2", &e);
}

/* ---- the instance and its neighbors ---- */

static void peer_init(struct fz_peer *fp, const char *addr, uint32_t as, const char *local,
		      const char *rid)
{
	struct bgp_peer *peer = &fp->peer;

	peer->bgp = bgp;
	ipaddr_from_str(&peer->conf.addr, addr);
	peer->conf.remote_as = as;
	snprintf(peer->name, sizeof(peer->name), "%s", addr);
	fp->info.af[V4] = fp->info.af[V6] = true;
	fp->info.ebgp = as != bgp->asn;
	fp->info.remote_as = as;
	inet_pton(AF_INET, rid, &fp->info.remote_id);
	fp->info.remote_addr = peer->conf.addr;
	ipaddr_from_str(&fp->info.local_addr, local);
	fp->info.codec.ebgp = fp->info.ebgp;
	fp->info.codec.local_as = bgp->asn;
	fp->info.codec.peer_as = as;
	rib_peer_attach(peer);
}

static void init(void)
{
	log_init("bgpd");
	log_set_target(LOG_TARGET_STDOUT, LOG_LVL_DISABLED, NULL);
	bgp = calloc(1, sizeof(*bgp));
	if (!bgp)
		abort();
	bgp->asn = 65001;
	inet_pton(AF_INET, "192.0.2.1", &bgp->router_id);
	TAILQ_INIT(&bgp->peers);
	for (int af = 0; af < BGP_AF_MAX; af++)
		TAILQ_INIT(&bgp->networks[af]);
	rib_new(bgp, &fz_session_ops); /* no loop: rib_work_run() runs its work */
	if (!bgp->rib)
		abort();
	peer_init(&peers[0], "192.0.2.2", 65002, "192.0.2.1", "198.51.100.2");
	peer_init(&peers[1], "192.0.2.6", 65003, "192.0.2.5", "198.51.100.6");
	peer_init(&peers[2], "192.0.2.10", 65001, "192.0.2.9", "198.51.100.10");
	peer_init(&peers[3], "2001:db8::4", 65001, "2001:db8::1", "198.51.100.14");
	policy_init();
	cmd_init();
	bgp_show_route_init();
	vty = vty_new(-1);
}

/* Options of one input, from its first 3 bytes. */
static char rmap_in[] = "IN", rmap_in2[] = "IN2", rmap_out[] = "OUT", rmap_out2[] = "OUT2";
static char rmap_missing[] = "NONE", pl4[] = "PL4", pl6[] = "PL6", ap[] = "AP";

static void configure(const uint8_t *o)
{
	char *const in[] = { NULL, rmap_in, rmap_in2, rmap_missing };
	char *const out[] = { NULL, rmap_out, rmap_out2, rmap_missing };
	struct bgp_peer_config *c0 = &peers[0].peer.conf, *c1 = &peers[1].peer.conf;
	struct bgp_peer_config *c2 = &peers[2].peer.conf, *c3 = &peers[3].peer.conf;

	for (int af = 0; af < BGP_AF_MAX; af++) {
		c0->rmap[af][BGP_DIR_IN] = in[o[0] & 3];
		c1->rmap[af][BGP_DIR_OUT] = out[(o[0] >> 2) & 3];
		c3->rmap[af][BGP_DIR_IN] = in[(o[2] >> 4) & 3];
		c2->rmap[af][BGP_DIR_OUT] = out[(o[2] >> 6) & 3];
		c1->aspath_list[af][BGP_DIR_OUT] = (o[0] & 0x20) ? ap : NULL;
		c3->rr_client[af] = o[0] & 0x40;
		c2->nexthop_self[af] =
			(o[0] & 0x80) ? ((o[1] & 1) ? BGP_NHS_FORCE : BGP_NHS_SELF) : BGP_NHS_OFF;
		c1->remove_private_as[af] = (enum bgp_rpa)((o[1] >> 1) % 5);
		c0->allowas_in[af] = (o[1] & 0x08) ? ((o[1] & 0x10) ? BGP_ALLOWAS_ORIGIN : 2) : 0;
		c0->soft_reconfig[af] = o[1] & 0x20;
		c1->send_comm_off[af] = (o[1] & 0x40) ? BGP_SEND_COMM_ALL : 0;
		c0->maxpfx[af].max = (o[1] & 0x80) ? 5 : 0;
		c0->maxpfx[af].warning_only = o[2] & 0x01;
		bgp->maxpaths[af][0] = bgp->maxpaths[af][1] = (o[2] & 0x04) ? 4 : 1;
	}
	c0->plist[V4][BGP_DIR_IN] = (o[0] & 0x10) ? pl4 : NULL;
	c0->plist[V6][BGP_DIR_IN] = (o[0] & 0x10) ? pl6 : NULL;
	c1->local_as = (o[2] & 0x08) ? 65500 : 0;
	bgp->ebgp_requires_policy = o[2] & 0x02;
	peers[0].info.codec.as4 = !(o[2] & 0x02);
	for (int i = 1; i < NPEERS; i++)
		peers[i].info.codec.as4 = true;
	for (int i = 0; i < NPEERS; i++) {
		peers[i].info.codec.extended_message = i == 1;
		peers[i].info.max_msg_size = i == 1 ? BGP_MAX_EXT_MSG_LEN : BGP_MAX_MSG_LEN;
	}
}

static void peer_up(struct fz_peer *fp)
{
	fp->up = true;
	rib_peer_up(&fp->peer, &fp->info);
}

static void peer_down(struct fz_peer *fp)
{
	fp->up = false;
	rib_peer_down(&fp->peer);
}

/* ---- show ---- */

static void show(const char *line, bool json)
{
	sbuf_reset(&vty->out);
	cmd_execute(vty, line, false);
	if (json && !fuzz_json_valid(vty->out.buf ? vty->out.buf : "")) {
		fprintf(stderr, "invalid JSON from `%s`:\n%s\n", line, vty->out.buf);
		abort();
	}
}

struct detail {
	const char *cmd;
	int left;
};

static int show_detail(const struct prefix *p, void *value, void *arg)
{
	struct detail *d = arg;
	char pfx[PREFIX_STRLEN], line[128];

	prefix_to_str(p, pfx, sizeof(pfx));
	snprintf(line, sizeof(line), "%s %s", d->cmd, pfx);
	show(line, false);
	snprintf(line, sizeof(line), "%s %s json", d->cmd, pfx);
	show(line, true);
	return --d->left <= 0; /* a few prefixes per family */
}

static void show_all(void)
{
	struct detail d4 = { "show ip bgp", 3 }, d6 = { "show bgp ipv6 unicast", 3 };

	show("show ip bgp", false);
	show("show ip bgp json", true);
	show("show bgp ipv6 unicast", false);
	show("show bgp ipv6 unicast json", true);
	ptree_walk(bgp->rib->af[V4].tree, show_detail, &d4);
	ptree_walk(bgp->rib->af[V6].tree, show_detail, &d6);
	show("show ip bgp neighbors 192.0.2.6 advertised-routes", false);
	show("show ip bgp neighbors 192.0.2.6 advertised-routes json", true);
	show("show bgp ipv6 unicast neighbors 192.0.2.10 advertised-routes json", true);
	show("show ip bgp neighbors 192.0.2.2 routes json", true);
	show("show ip bgp neighbors 192.0.2.2 received-routes", false);
	show("show ip bgp neighbors 192.0.2.2 received-routes json", true);
}

/* ---- one input ---- */

static void record(const uint8_t *body, size_t len, uint8_t how)
{
	struct fz_peer *fp = &peers[how & 3];
	struct bgp_update upd;
	struct bgp_error err;

	if (how & 0x40) {
		peer_down(fp);
		rib_work_run(bgp->rib, RUN_ALL);
		peer_up(fp);
	}
	if (how & 0x80) {
		rib_route_refresh_received(&fp->peer, V4);
	} else {
		memset(&upd, 0, sizeof(upd));
		if (bgp_update_decode(&upd, body, len, &fp->info.codec, &err) == 0)
			rib_update_received(&fp->peer, &upd); /* the RIB releases it */
	}
	rib_work_run(bgp->rib, 4); /* part of the work now, the rest interleaved */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t off = 3;

	if (size < 3)
		return 0;
	if (!bgp)
		init();
	configure(data);
	for (int i = 0; i < NPEERS; i++)
		peer_up(&peers[i]);
	rib_work_run(bgp->rib, RUN_ALL);
	for (int n = 0; n < MAX_RECORDS && size - off >= 3; n++) {
		uint8_t how = data[off];
		size_t len = MIN((size_t)data[off + 1] << 8 | data[off + 2], size - off - 3);

		record(data + off + 3, len, how);
		off += 3 + len;
	}
	rib_work_run(bgp->rib, RUN_ALL);
	show_all();
	for (int i = 0; i < NPEERS; i++)
		peer_down(&peers[i]);
	rib_work_run(bgp->rib, RUN_ALL);
	if (bgp_attr_count() != 0)
		abort(); /* an attribute set outlived every path: a reference leaked */
	return 0;
}
