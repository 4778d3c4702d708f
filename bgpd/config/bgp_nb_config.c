/* SPDX-License-Identifier: ISC */
/*
 * skua-bgp callbacks: the validated model -> struct bgp and struct bgp_peer (bgpd/core/bgp.h).
 *
 * Most work happens in APPLY, which cannot fail: the model has already checked types, ranges
 * and the relations between settings. Strings are copied in PREPARE (so that running out of
 * memory would refuse the commit before anything changed) and swapped in at APPLY. The
 * session side is told about each change once, after the field is set.
 */
#include "lib/compat.h"

#include <arpa/inet.h>

#include "bgpd/config/bgp_config.h"
#include "bgpd/config/bgp_nb.h"
#include "bgpd/core/bgp.h"
#include "bgpd/fib/bgp_fib.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_policy_reeval.h"
#include "bgpd/session/bgp_dynamic.h"
#include "bgpd/session/bgp_security.h"
#include "lib/log.h"
#include "lib/yang.h"

DEFINE_MTYPE(BGP_PEER_CONF, "BGP peer configuration strings");

/* ---- helpers --------------------------------------------------------------------------- */

/* The peer a node belongs to (the neighbor entry above it), or NULL. */
static struct bgp_peer *nb_peer(const struct lyd_node *dnode)
{
	const struct lyd_node *nbr = yang_dnode_ancestor(dnode, "neighbor");
	const char *addr = nbr ? yang_dnode_get_string(nbr, "remote-address") : NULL;
	struct bgp *bgp = bgp_get();
	struct ipaddr a;

	if (!bgp || !addr || ipaddr_from_str(&a, addr) < 0)
		return NULL;
	return bgp_peer_lookup(bgp, &a);
}

/* APPLY needs its peer; a missing one means the instance and the model disagree (a bug). */
static struct bgp_peer *nb_peer_apply(const struct lyd_node *dnode)
{
	struct bgp_peer *peer = nb_peer(dnode);

	if (!peer) {
		char path[512];

		log_err("northbound: no peer for %s (a bug)",
			yang_dnode_path(dnode, path, sizeof(path)));
	}
	return peer;
}

struct bgp_peer *bgp_nb_peer_apply(const struct lyd_node *dnode)
{
	return nb_peer_apply(dnode);
}

static enum bgp_af nb_af(const struct lyd_node *dnode)
{
	return yang_dnode_ancestor(dnode, "ipv6-unicast") ? BGP_AF_IPV6_UNICAST
							  : BGP_AF_IPV4_UNICAST;
}

/* Where a string leaf's value goes in a peer's configuration. */
typedef char **(*conf_field_fn)(struct bgp_peer *peer, const struct lyd_node *dnode, size_t off);

static char **field_at(struct bgp_peer *peer, const struct lyd_node *dnode, size_t off)
{
	(void)dnode;
	return (char **)((char *)&peer->conf + off);
}

/* PREPARE copies the string; APPLY installs it in the field and returns the peer (NULL in
 * the other phases); ABORT drops the copy. */
static struct bgp_peer *string_install(struct nb_cb_args *args, conf_field_fn field, size_t off)
{
	struct bgp_peer *peer;
	char **where;

	switch (args->event) {
	case NB_EV_VALIDATE:
		return NULL;
	case NB_EV_PREPARE:
		*args->resource = XSTRDUP(MTYPE_BGP_PEER_CONF, lyd_get_value(args->dnode));
		return NULL;
	case NB_EV_ABORT:
		XFREE(MTYPE_BGP_PEER_CONF, *args->resource);
		return NULL;
	case NB_EV_APPLY:
		break;
	}
	peer = nb_peer_apply(args->dnode);
	if (!peer) {
		XFREE(MTYPE_BGP_PEER_CONF, *args->resource);
		return NULL;
	}
	where = field(peer, args->dnode, off);
	XFREE(MTYPE_BGP_PEER_CONF, *where);
	*where = *args->resource;
	*args->resource = NULL;
	return peer;
}

static int string_modify(struct nb_cb_args *args, size_t field_offset, enum bgp_peer_change chg)
{
	struct bgp_peer *peer = string_install(args, field_at, field_offset);

	if (peer)
		bgp_peer_config_changed(peer, chg);
	return NB_OK;
}

static int string_destroy(struct nb_cb_args *args, size_t field_offset, enum bgp_peer_change chg)
{
	struct bgp_peer *peer;
	char **field;

	if (args->event != NB_EV_APPLY || !(peer = nb_peer_apply(args->dnode)))
		return NB_OK;
	field = (char **)((char *)&peer->conf + field_offset);
	XFREE(MTYPE_BGP_PEER_CONF, *field);
	bgp_peer_config_changed(peer, chg);
	return NB_OK;
}

/* ---- kernel support for TCP-MD5 and GTSM ---------------------------------------------- */

/*
 * VALIDATE of `password` and `ttl-security hops N`: refuse what the running kernel cannot
 * enforce (bgpd's start-up probe) rather than commit it and hold the session down. Only the
 * setting being changed is checked, so an unrelated change is never refused for it. A neighbor
 * created with these settings is covered too: its leaves come as their own changes.
 */
static int security_validate(struct nb_cb_args *args, bool password, unsigned ttl_security_hops)
{
	const struct lyd_node *nbr = yang_dnode_ancestor(args->dnode, "neighbor");
	const char *addr = nbr ? yang_dnode_get_string(nbr, "remote-address") : NULL;
	char why[1200];
	struct ipaddr a;

	if (!addr || ipaddr_from_str(&a, addr) < 0)
		return NB_OK; /* cannot happen: the model's key is an IP address */
	if (bgp_peer_security_check(&a, password, ttl_security_hops, why, sizeof(why)) == 0)
		return NB_OK;
	snprintf(args->errmsg, args->errmsg_len, "neighbor %s %s refused: %s", addr,
		 password ? "password" : "ttl-security", why);
	return NB_ERR;
}

/*
 * The whole candidate: every GTSM neighbor must fit in the listeners' rule programs. Checked
 * per commit rather than per leaf (one count of all the rules, not one per neighbor), so a
 * file with thousands of GTSM neighbors is checked once.
 */
static bool prefix_of_range(const struct lyd_node *range, struct prefix *p)
{
	const char *s = yang_dnode_get_string(range, "prefix");

	return s && prefix_from_str(p, s, false) == 0;
}

/* The hops of the GTSM listen ranges of the (effective) instance node bgp: *ranges gets
 * their prefixes, hops[i] their group's ttl-security. Returns the count. */
static size_t gtsm_ranges(const struct lyd_node *bgp, struct prefix **ranges, unsigned **hops)
{
	struct ly_set *set = NULL;
	size_t n = 0;

	*ranges = NULL;
	*hops = NULL;
	if (lyd_find_xpath(bgp, "listen/range", &set) != LY_SUCCESS || !set->count) {
		ly_set_free(set, NULL);
		return 0;
	}
	*ranges = XCALLOC(MTYPE_BGP_PEER_CONF, set->count * sizeof(**ranges));
	*hops = XCALLOC(MTYPE_BGP_PEER_CONF, set->count * sizeof(**hops));
	for (uint32_t i = 0; i < set->count; i++) {
		const char *g = yang_dnode_get_string(set->dnodes[i], "peer-group");
		const struct lyd_node *grp =
			g ? yang_dnode_get(bgp, "peer-groups/peer-group[name='%s']", g) : NULL;
		unsigned h = grp ? (unsigned)yang_dnode_get_uint(grp, 0, "ttl-security") : 0;

		if (h && prefix_of_range(set->dnodes[i], &(*ranges)[n]))
			(*hops)[n++] = h;
	}
	ly_set_free(set, NULL);
	return n;
}

/*
 * The whole (effective) candidate: every GTSM neighbor (members and dynamic neighbors with
 * their group's ttl-security included), every GTSM listen range and every neighbor without
 * GTSM inside such a range must fit in the listeners' rule programs. Checked per commit
 * rather than per leaf (one count of all the rules, not one per neighbor), so a file with
 * thousands of GTSM neighbors is checked once.
 */
int bgp_nb_validate_tree(const struct lyd_node *tree, char *errmsg, size_t errlen, char *xpath,
			 size_t xpathlen)
{
	const struct lyd_node *bgp = tree ? yang_dnode_get(tree, BGP_XPATH) : NULL;
	struct ly_set *set = NULL;
	struct bgp_gtsm_rule *rules;
	struct prefix *ranges;
	unsigned *hops;
	size_t n = 0, nranges;
	int ret = NB_OK;

	if (!bgp || lyd_find_xpath(bgp, "neighbors/neighbor", &set) != LY_SUCCESS) {
		ly_set_free(set, NULL);
		return NB_OK;
	}
	nranges = gtsm_ranges(bgp, &ranges, &hops);
	rules = XCALLOC(MTYPE_BGP_PEER_CONF, (set->count + nranges + 1) * sizeof(*rules));
	for (uint32_t i = 0; i < set->count; i++) {
		const char *addr = yang_dnode_get_string(set->dnodes[i], "remote-address");
		struct bgp_gtsm_rule *r = &rules[n];

		if (!addr || ipaddr_from_str(&r->addr, addr) < 0)
			continue;
		r->hops = (unsigned)yang_dnode_get_uint(set->dnodes[i], 0, "ttl-security");
		for (size_t k = 0; !r->hops && k < nranges && !r->exempt; k++)
			r->exempt = prefix_contains_addr(&ranges[k], &r->addr);
		if (r->hops || r->exempt)
			n++;
	}
	for (size_t k = 0; k < nranges; k++) {
		rules[n].addr.family = ranges[k].family;
		memcpy(rules[n].addr.u.bytes, ranges[k].u.bytes,
		       ranges[k].family == AF_INET ? 4 : 16);
		rules[n].plen = ranges[k].len;
		rules[n].hops = hops[k];
		n++;
	}
	if (n && bgp_gtsm_rules_check(rules, n, errmsg, errlen) < 0) {
		/* The last neighbor is where the configuration went over. */
		if (set->count)
			yang_dnode_path(set->dnodes[set->count - 1], xpath, xpathlen);
		ret = NB_ERR;
	}
	XFREE(MTYPE_BGP_PEER_CONF, rules);
	XFREE(MTYPE_BGP_PEER_CONF, ranges);
	XFREE(MTYPE_BGP_PEER_CONF, hops);
	ly_set_free(set, NULL);
	return ret;
}

/* ---- the instance --------------------------------------------------------------------- */

/* The listen ranges of the (effective) instance node, with their group's password and
 * ttl-security, for bgp_dynamic_set_ranges(). */
static void listen_ranges_apply(const struct lyd_node *bgp)
{
	struct bgp_listen_range *nr = NULL;
	struct ly_set *set = NULL;
	size_t n = 0;

	if (bgp && lyd_find_xpath(bgp, "listen/range", &set) == LY_SUCCESS && set->count) {
		nr = XCALLOC(MTYPE_BGP_DYNAMIC, set->count * sizeof(*nr));
		for (uint32_t i = 0; i < set->count; i++) {
			const char *grp = yang_dnode_get_string(set->dnodes[i], "peer-group");
			const struct lyd_node *g =
				grp ? yang_dnode_get(bgp, "peer-groups/peer-group[name='%s']", grp)
				    : NULL;
			const char *pw = g ? yang_dnode_get_string(g, "password") : NULL;

			if (!g || !prefix_of_range(set->dnodes[i], &nr[n].prefix))
				continue;
			snprintf(nr[n].group, sizeof(nr[n].group), "%s", grp);
			nr[n].password = pw ? XSTRDUP(MTYPE_BGP_DYNAMIC, pw) : NULL;
			nr[n].ttl_security_hops =
				(uint8_t)yang_dnode_get_uint(g, 0, "ttl-security");
			n++;
		}
	}
	ly_set_free(set, NULL);
	bgp_dynamic_set_ranges(
		nr, n,
		bgp ? (unsigned)yang_dnode_get_uint(bgp, BGP_LISTEN_LIMIT_DEFAULT, "listen/limit")
		    : BGP_LISTEN_LIMIT_DEFAULT);
}

int bgp_nb_instance_create(struct nb_cb_args *args)
{
	uint32_t asn;

	if (args->event != NB_EV_APPLY)
		return NB_OK;
	asn = (uint32_t)yang_dnode_get_uint(args->dnode, 0, "local-as");
	if (bgp_get()) {
		log_err("northbound: router bgp %u while an instance runs (a bug)", asn);
		return NB_OK;
	}
	/* Settings below (router-id, timers, neighbors) follow as their own changes. */
	if (!bgp_create(asn, bgp_config_event_base()))
		log_err("cannot create the BGP instance for AS %u", asn);
	return NB_OK;
}

int bgp_nb_instance_destroy(struct nb_cb_args *args)
{
	struct bgp *bgp = bgp_get();
	struct bgp_peer *peer;

	if (args->event != NB_EV_APPLY || !bgp)
		return NB_OK;
	TAILQ_FOREACH (peer, &bgp->peers, entry)
		bgp_peer_config_strings_free(&peer->conf);
	bgp_delete(bgp);
	bgp_dynamic_reset();
	listen_ranges_apply(NULL);
	return NB_OK;
}

/* Any change in the instance: the listen ranges and their groups' security, for the
 * listeners and the dynamic neighbors (a no-op when they did not change). */
void bgp_nb_instance_apply_finish(struct nb_cb_args *args)
{
	if (bgp_get())
		listen_ranges_apply(args->dnode);
}

int bgp_nb_local_as_modify(struct nb_cb_args *args)
{
	/* A new value for an existing instance: the AS is the instance's identity (FRR). */
	if (args->event == NB_EV_VALIDATE && args->op == NB_OP_MODIFY && args->old_dnode) {
		snprintf(args->errmsg, args->errmsg_len, "BGP is already running; AS is %s",
			 lyd_get_value(args->old_dnode));
		return NB_ERR;
	}
	return NB_OK; /* creation is bgp_nb_instance_create's */
}

int bgp_nb_router_id_modify(struct nb_cb_args *args)
{
	struct bgp *bgp = bgp_get();
	struct in_addr id;

	if (args->event != NB_EV_APPLY || !bgp)
		return NB_OK;
	if (inet_pton(AF_INET, lyd_get_value(args->dnode), &id) != 1)
		return NB_OK; /* cannot happen: the model's type is an IPv4 address */
	if (bgp->router_id_configured && bgp->router_id.s_addr == id.s_addr)
		return NB_OK;
	bgp->router_id = id;
	bgp->router_id_configured = true;
	bgp_router_id_changed(bgp);
	return NB_OK;
}

int bgp_nb_router_id_destroy(struct nb_cb_args *args)
{
	struct bgp *bgp = bgp_get();

	if (args->event != NB_EV_APPLY || !bgp)
		return NB_OK;
	/* Back to an automatic router-id: bgp_router_id_changed() picks one. */
	bgp->router_id_configured = false;
	bgp->router_id.s_addr = 0;
	bgp_router_id_changed(bgp);
	return NB_OK;
}

int bgp_nb_default_ipv4_modify(struct nb_cb_args *args)
{
	struct bgp *bgp = bgp_get();
	bool on;

	if (args->event != NB_EV_APPLY || !bgp)
		return NB_OK;
	on = strcmp(lyd_get_value(args->dnode), "true") == 0;
	if (bgp->default_ipv4_unicast == on)
		return NB_OK;
	bgp->default_ipv4_unicast = on;
	bgp_default_af_changed(bgp);
	return NB_OK;
}

/* A boolean instance setting that nothing else depends on yet: store it. */
static int bool_modify(struct nb_cb_args *args, size_t field_offset)
{
	struct bgp *bgp = bgp_get();

	if (args->event == NB_EV_APPLY && bgp)
		*(bool *)((char *)bgp + field_offset) =
			strcmp(lyd_get_value(args->dnode), "true") == 0;
	return NB_OK;
}

int bgp_nb_log_neighbor_changes_modify(struct nb_cb_args *args)
{
	return bool_modify(args, offsetof(struct bgp, log_neighbor_changes));
}

/* RFC 8212 on or off: every eBGP neighbor's routes are re-evaluated both ways at once (FRR
 * leaves that to a `clear bgp`). */
int bgp_nb_ebgp_requires_policy_modify(struct nb_cb_args *args)
{
	struct bgp *bgp = bgp_get();
	bool on;

	if (args->event != NB_EV_APPLY || !bgp)
		return NB_OK;
	on = strcmp(lyd_get_value(args->dnode), "true") == 0;
	if (bgp->ebgp_requires_policy == on)
		return NB_OK;
	bgp->ebgp_requires_policy = on;
	bgp_ebgp_requires_policy_changed(bgp);
	return NB_OK;
}

int bgp_nb_network_import_check_modify(struct nb_cb_args *args)
{
	int r = bool_modify(args, offsetof(struct bgp, network_import_check));

	/* Statements without a kernel route are withdrawn, or announced regardless. */
	if (args->event == NB_EV_APPLY)
		bgp_network_check_sync(bgp_get());
	return r;
}

void bgp_nb_timers_apply_finish(struct nb_cb_args *args)
{
	struct bgp *bgp = bgp_get();
	uint16_t k, h;

	if (!bgp)
		return;
	k = (uint16_t)yang_dnode_get_uint(args->dnode, BGP_DEFAULT_KEEPALIVE, "keepalive");
	h = (uint16_t)yang_dnode_get_uint(args->dnode, BGP_DEFAULT_HOLDTIME, "hold-time");
	if (bgp->keepalive == k && bgp->holdtime == h)
		return;
	bgp->keepalive = k;
	bgp->holdtime = h;
	bgp_timers_changed(bgp);
}

/* ---- neighbors ----------------------------------------------------------------------- */

static void remote_as_of(const struct lyd_node *nbr, enum bgp_remote_as_type *type, uint32_t *as)
{
	const char *t = yang_dnode_get_string(nbr, "neighbor-remote-as/remote-as-type");

	*as = 0;
	if (t && !strcmp(t, "internal")) {
		*type = BGP_REMOTE_AS_INTERNAL;
	} else if (t && !strcmp(t, "external")) {
		*type = BGP_REMOTE_AS_EXTERNAL;
	} else {
		*type = BGP_REMOTE_AS_SPECIFIED;
		*as = (uint32_t)yang_dnode_get_uint(nbr, 0, "neighbor-remote-as/remote-as");
	}
}

int bgp_nb_neighbor_create(struct nb_cb_args *args)
{
	struct bgp *bgp = bgp_get();
	struct bgp_peer *peer;
	struct ipaddr a;
	const char *addr;

	if (args->event != NB_EV_APPLY || !bgp)
		return NB_OK;
	addr = yang_dnode_get_string(args->dnode, "remote-address");
	if (!addr || ipaddr_from_str(&a, addr) < 0)
		return NB_OK;
	peer = bgp_peer_create(bgp, &a);
	if (!peer) {
		log_err("cannot create neighbor %s", addr);
		return NB_OK;
	}
	/* The peer is born knowing its AS; the other settings follow as their own changes. */
	remote_as_of(args->dnode, &peer->conf.remote_as_type, &peer->conf.remote_as);
	peer->dynamic = bgp_dynamic_lookup(&a, NULL);
	return NB_OK;
}

int bgp_nb_neighbor_destroy(struct nb_cb_args *args)
{
	struct bgp_peer *peer;
	struct ipaddr addr;
	bool dynamic;

	if (args->event != NB_EV_APPLY || !(peer = nb_peer_apply(args->dnode)))
		return NB_OK;
	addr = peer->conf.addr;
	dynamic = peer->dynamic;
	bgp_peer_config_strings_free(&peer->conf);
	bgp_peer_delete(peer);
	if (dynamic)
		bgp_dynamic_forget(&addr);
	return NB_OK;
}

/* neighbor X peer-group NAME: kept for show commands; what the group gives the member comes
 * as the member's own changes (the expanded tree). */
int bgp_nb_neighbor_peer_group_modify(struct nb_cb_args *args)
{
	string_install(args, field_at, offsetof(struct bgp_peer_config, peer_group));
	return NB_OK;
}

int bgp_nb_neighbor_peer_group_destroy(struct nb_cb_args *args)
{
	struct bgp_peer *peer;

	if (args->event == NB_EV_APPLY && (peer = nb_peer_apply(args->dnode)))
		XFREE(MTYPE_BGP_PEER_CONF, peer->conf.peer_group);
	return NB_OK;
}

void bgp_nb_neighbor_remote_as_apply_finish(struct nb_cb_args *args)
{
	struct bgp_peer *peer = nb_peer_apply(args->dnode);
	enum bgp_remote_as_type type;
	uint32_t as;

	if (!peer)
		return;
	remote_as_of(lyd_parent(args->dnode), &type, &as);
	if (peer->conf.remote_as_type == type && peer->conf.remote_as == as)
		return;
	peer->conf.remote_as_type = type;
	peer->conf.remote_as = as;
	bgp_peer_config_changed(peer, BGP_PEER_CHG_REMOTE_AS);
}

int bgp_nb_neighbor_description_modify(struct nb_cb_args *args)
{
	return string_modify(args, offsetof(struct bgp_peer_config, description),
			     BGP_PEER_CHG_DESCRIPTION);
}

int bgp_nb_neighbor_description_destroy(struct nb_cb_args *args)
{
	return string_destroy(args, offsetof(struct bgp_peer_config, description),
			      BGP_PEER_CHG_DESCRIPTION);
}

int bgp_nb_neighbor_password_modify(struct nb_cb_args *args)
{
	if (args->event == NB_EV_VALIDATE)
		return security_validate(args, lyd_get_value(args->dnode)[0] != '\0', 0);
	return string_modify(args, offsetof(struct bgp_peer_config, password),
			     BGP_PEER_CHG_PASSWORD);
}

int bgp_nb_neighbor_password_destroy(struct nb_cb_args *args)
{
	return string_destroy(args, offsetof(struct bgp_peer_config, password),
			      BGP_PEER_CHG_PASSWORD);
}

static int flag_set(struct nb_cb_args *args, bool on, bool passive)
{
	struct bgp_peer *peer;
	bool *flag;

	if (args->event != NB_EV_APPLY || !(peer = nb_peer_apply(args->dnode)))
		return NB_OK;
	flag = passive ? &peer->conf.passive : &peer->conf.shutdown;
	if (*flag == on)
		return NB_OK;
	*flag = on;
	bgp_peer_config_changed(peer, passive ? BGP_PEER_CHG_PASSIVE : BGP_PEER_CHG_SHUTDOWN);
	return NB_OK;
}

/* neighbor X local-as: the presence container's leaves, read once per commit. */
static void local_as_set(struct bgp_peer *peer, uint32_t as, bool no_prepend, bool replace)
{
	struct bgp_peer_config *c = &peer->conf;

	if (c->local_as == as && c->local_as_no_prepend == no_prepend &&
	    c->local_as_replace == replace)
		return;
	c->local_as = as;
	c->local_as_no_prepend = no_prepend;
	c->local_as_replace = replace;
	bgp_peer_config_changed(peer, BGP_PEER_CHG_LOCAL_AS);
}

int bgp_nb_neighbor_local_as_create(struct nb_cb_args *args)
{
	(void)args; /* apply_finish reads the leaves */
	return NB_OK;
}

int bgp_nb_neighbor_local_as_destroy(struct nb_cb_args *args)
{
	struct bgp_peer *peer;

	if (args->event == NB_EV_APPLY && (peer = nb_peer_apply(args->dnode)))
		local_as_set(peer, 0, false, false);
	return NB_OK;
}

void bgp_nb_neighbor_local_as_apply_finish(struct nb_cb_args *args)
{
	struct bgp_peer *peer = nb_peer_apply(args->dnode);

	if (peer)
		local_as_set(peer, (uint32_t)yang_dnode_get_uint(args->dnode, 0, "as"),
			     yang_dnode_exists(args->dnode, "no-prepend"),
			     yang_dnode_exists(args->dnode, "replace-as"));
}

/* neighbor X local-role: the role decides the ASPA procedure, so an inbound route-map that
 * matches aspa must see the neighbor's routes again. */
static void local_role_set(struct bgp_peer *peer, enum bgp_role role, bool strict)
{
	struct bgp_peer_config *c = &peer->conf;

	if (c->local_role == role && c->local_role_strict == strict)
		return;
	c->local_role = role;
	c->local_role_strict = strict;
	for (int af = 0; af < BGP_AF_MAX; af++)
		if (route_map_uses_validation(c->rmap[af][BGP_DIR_IN]))
			bgp_policy_changed(peer, (enum bgp_af)af, BGP_DIR_IN);
}

static enum bgp_role role_from_name(const char *s)
{
	static const char *const names[] = {
		[BGP_ROLE_PROVIDER] = "provider",   [BGP_ROLE_RS_SERVER] = "rs-server",
		[BGP_ROLE_RS_CLIENT] = "rs-client", [BGP_ROLE_CUSTOMER] = "customer",
		[BGP_ROLE_PEER] = "peer",
	};

	for (size_t i = 1; s && i < array_size(names); i++)
		if (strcmp(s, names[i]) == 0)
			return (enum bgp_role)i;
	return BGP_ROLE_NONE;
}

int bgp_nb_neighbor_local_role_create(struct nb_cb_args *args)
{
	(void)args; /* apply_finish reads the leaves */
	return NB_OK;
}

int bgp_nb_neighbor_local_role_destroy(struct nb_cb_args *args)
{
	struct bgp_peer *peer;

	if (args->event == NB_EV_APPLY && (peer = nb_peer_apply(args->dnode)))
		local_role_set(peer, BGP_ROLE_NONE, false);
	return NB_OK;
}

void bgp_nb_neighbor_local_role_apply_finish(struct nb_cb_args *args)
{
	struct bgp_peer *peer = nb_peer_apply(args->dnode);

	if (peer)
		local_role_set(peer, role_from_name(yang_dnode_get_string(args->dnode, "role")),
			       yang_dnode_exists(args->dnode, "strict-mode"));
}

/* neighbor X advertisement-interval: read by the output at each batch, so a change applies at
 * once (FRR restarts its MRAI timer with the new value). */
static int adv_interval_set(struct nb_cb_args *args, uint16_t secs)
{
	struct bgp_peer *peer;

	if (args->event == NB_EV_APPLY && (peer = nb_peer_apply(args->dnode)))
		peer->conf.adv_interval = secs;
	return NB_OK;
}

int bgp_nb_neighbor_adv_interval_modify(struct nb_cb_args *args)
{
	return adv_interval_set(args, (uint16_t)strtoul(lyd_get_value(args->dnode), NULL, 10));
}

int bgp_nb_neighbor_adv_interval_destroy(struct nb_cb_args *args)
{
	return adv_interval_set(args, 0);
}

static int connected_check_set(struct nb_cb_args *args, bool disable)
{
	struct bgp_peer *peer;

	if (args->event != NB_EV_APPLY || !(peer = nb_peer_apply(args->dnode)))
		return NB_OK;
	if (peer->conf.disable_connected_check == disable)
		return NB_OK;
	peer->conf.disable_connected_check = disable;
	bgp_peer_config_changed(peer, BGP_PEER_CHG_CONNECTED_CHECK);
	return NB_OK;
}

int bgp_nb_neighbor_connected_check_create(struct nb_cb_args *args)
{
	return connected_check_set(args, true);
}

int bgp_nb_neighbor_connected_check_destroy(struct nb_cb_args *args)
{
	return connected_check_set(args, false);
}

/* RFC 9003: read when the Cease/Administrative Shutdown is sent; the session is not touched. */
int bgp_nb_neighbor_shutdown_message_modify(struct nb_cb_args *args)
{
	return string_modify(args, offsetof(struct bgp_peer_config, shutdown_message),
			     BGP_PEER_CHG_DESCRIPTION);
}

int bgp_nb_neighbor_shutdown_message_destroy(struct nb_cb_args *args)
{
	return string_destroy(args, offsetof(struct bgp_peer_config, shutdown_message),
			      BGP_PEER_CHG_DESCRIPTION);
}

int bgp_nb_neighbor_shutdown_create(struct nb_cb_args *args)
{
	return flag_set(args, true, false);
}

int bgp_nb_neighbor_shutdown_destroy(struct nb_cb_args *args)
{
	return flag_set(args, false, false);
}

int bgp_nb_neighbor_passive_create(struct nb_cb_args *args)
{
	return flag_set(args, true, true);
}

int bgp_nb_neighbor_passive_destroy(struct nb_cb_args *args)
{
	return flag_set(args, false, true);
}

static int u8_set(struct nb_cb_args *args, uint8_t value, bool ttl_security)
{
	struct bgp_peer *peer;
	uint8_t *field;

	if (args->event != NB_EV_APPLY || !(peer = nb_peer_apply(args->dnode)))
		return NB_OK;
	field = ttl_security ? &peer->conf.ttl_security_hops : &peer->conf.ebgp_multihop;
	if (*field == value)
		return NB_OK;
	*field = value;
	bgp_peer_config_changed(peer,
				ttl_security ? BGP_PEER_CHG_TTL_SECURITY : BGP_PEER_CHG_MULTIHOP);
	return NB_OK;
}

int bgp_nb_neighbor_multihop_modify(struct nb_cb_args *args)
{
	return u8_set(args, (uint8_t)strtoul(lyd_get_value(args->dnode), NULL, 10), false);
}

int bgp_nb_neighbor_multihop_destroy(struct nb_cb_args *args)
{
	return u8_set(args, 0, false);
}

int bgp_nb_neighbor_ttl_security_modify(struct nb_cb_args *args)
{
	if (args->event == NB_EV_VALIDATE)
		return security_validate(args, false,
					 (unsigned)strtoul(lyd_get_value(args->dnode), NULL, 10));
	return u8_set(args, (uint8_t)strtoul(lyd_get_value(args->dnode), NULL, 10), true);
}

int bgp_nb_neighbor_ttl_security_destroy(struct nb_cb_args *args)
{
	return u8_set(args, 0, true);
}

/* Install an update-source (ip and ifname both NULL: none). */
static void update_source_set(struct bgp_peer *peer, const char *ip, const char *ifname)
{
	struct ipaddr a;
	const char *cur = peer->conf.update_source_ifname;

	memset(&a, 0, sizeof(a));
	if (ip && ipaddr_from_str(&a, ip) < 0)
		memset(&a, 0, sizeof(a));
	if (ipaddr_cmp(&a, &peer->conf.update_source) == 0 &&
	    ((!cur && !ifname) || (cur && ifname && !strcmp(cur, ifname))))
		return;
	peer->conf.update_source = a;
	XFREE(MTYPE_BGP_PEER_CONF, peer->conf.update_source_ifname);
	if (ifname)
		peer->conf.update_source_ifname = XSTRDUP(MTYPE_BGP_PEER_CONF, ifname);
	bgp_peer_config_changed(peer, BGP_PEER_CHG_UPDATE_SOURCE);
}

int bgp_nb_neighbor_update_source_destroy(struct nb_cb_args *args)
{
	struct bgp_peer *peer;

	if (args->event == NB_EV_APPLY && (peer = nb_peer_apply(args->dnode)))
		update_source_set(peer, NULL, NULL);
	return NB_OK;
}

void bgp_nb_neighbor_update_source_apply_finish(struct nb_cb_args *args)
{
	struct bgp_peer *peer = nb_peer_apply(args->dnode);

	if (peer)
		update_source_set(peer, yang_dnode_get_string(args->dnode, "ip"),
				  yang_dnode_get_string(args->dnode, "interface"));
}

void bgp_nb_neighbor_timers_apply_finish(struct nb_cb_args *args)
{
	struct bgp_peer *peer = nb_peer_apply(args->dnode);
	struct bgp_peer_config *c;
	bool configured;
	uint16_t k, h, cr;

	if (!peer)
		return;
	c = &peer->conf;
	configured = yang_dnode_exists(args->dnode, "keepalive");
	k = (uint16_t)yang_dnode_get_uint(args->dnode, 0, "keepalive");
	h = (uint16_t)yang_dnode_get_uint(args->dnode, 0, "hold-time");
	cr = (uint16_t)yang_dnode_get_uint(args->dnode, BGP_DEFAULT_CONNECT_RETRY, "connect-time");
	if (c->timers_configured != configured || c->keepalive != k || c->holdtime != h) {
		c->timers_configured = configured;
		c->keepalive = k;
		c->holdtime = h;
		bgp_peer_config_changed(peer, BGP_PEER_CHG_TIMERS);
	}
	if (c->connect_retry != cr) {
		c->connect_retry = cr;
		bgp_peer_config_changed(peer, BGP_PEER_CHG_CONNECT_RETRY);
	}
	/* Read when the SendHoldTimer is next armed (bgp_send_hold.c): no reset needed. */
	c->send_hold_time = (uint16_t)yang_dnode_get_uint(args->dnode, 0, "send-hold-time");
}

static int af_activation_set(struct nb_cb_args *args, enum bgp_af_activation act)
{
	struct bgp_peer *peer;
	enum bgp_af af;

	if (args->event != NB_EV_APPLY || !(peer = nb_peer_apply(args->dnode)))
		return NB_OK;
	af = nb_af(args->dnode);
	if (peer->conf.af_activation[af] == act)
		return NB_OK;
	peer->conf.af_activation[af] = act;
	bgp_peer_config_changed(peer, BGP_PEER_CHG_AF_ACTIVATION);
	return NB_OK;
}

int bgp_nb_neighbor_af_enabled_modify(struct nb_cb_args *args)
{
	return af_activation_set(args, strcmp(lyd_get_value(args->dnode), "true") == 0
					       ? BGP_AF_ACT_ON
					       : BGP_AF_ACT_OFF);
}

int bgp_nb_neighbor_af_enabled_destroy(struct nb_cb_args *args)
{
	return af_activation_set(args, BGP_AF_ACT_DEFAULT);
}

/* ---- filters ------------------------------------------------------------------------- */

static enum bgp_dir nb_dir(const struct lyd_node *dnode)
{
	return strstr(dnode->schema->name, "-export") ? BGP_DIR_OUT : BGP_DIR_IN;
}

/* The configuration field a filter leaf sets: plist-* or filter-list-*. */
static char **filter_field(struct bgp_peer *peer, const struct lyd_node *dnode)
{
	enum bgp_af af = nb_af(dnode);
	enum bgp_dir dir = nb_dir(dnode);

	if (strncmp(dnode->schema->name, "filter-list-", 12) == 0)
		return &peer->conf.aspath_list[af][dir];
	if (strncmp(dnode->schema->name, "route-map-", 10) == 0)
		return &peer->conf.rmap[af][dir];
	return &peer->conf.plist[af][dir];
}

/* neighbor X prefix-list|filter-list NAME in|out: the name (copied in PREPARE), then
 * re-evaluation. */
static char **filter_field_at(struct bgp_peer *peer, const struct lyd_node *dnode, size_t off)
{
	(void)off;
	return filter_field(peer, dnode);
}

int bgp_nb_neighbor_plist_modify(struct nb_cb_args *args)
{
	struct bgp_peer *peer = string_install(args, filter_field_at, 0);

	if (peer)
		bgp_policy_changed(peer, nb_af(args->dnode), nb_dir(args->dnode));
	return NB_OK;
}

int bgp_nb_neighbor_plist_destroy(struct nb_cb_args *args)
{
	struct bgp_peer *peer;
	enum bgp_af af;
	enum bgp_dir dir;

	if (args->event != NB_EV_APPLY || !(peer = nb_peer_apply(args->dnode)))
		return NB_OK;
	af = nb_af(args->dnode);
	dir = nb_dir(args->dnode);
	XFREE(MTYPE_BGP_PEER_CONF, *filter_field(peer, args->dnode));
	bgp_policy_changed(peer, af, dir);
	return NB_OK;
}

/* ---- route reflection and next-hop-self ------------------------------------------------ */

/* Every session of the family sends its table again: who gets what changed. */
static void resend_all(struct bgp *bgp, enum bgp_af af)
{
	struct bgp_peer *peer;

	TAILQ_FOREACH (peer, &bgp->peers, entry)
		bgp_policy_changed(peer, af, BGP_DIR_OUT);
}

static int rr_client_set(struct nb_cb_args *args, bool on)
{
	struct bgp_peer *peer;
	enum bgp_af af;

	if (args->event != NB_EV_APPLY || !(peer = nb_peer_apply(args->dnode)))
		return NB_OK;
	af = nb_af(args->dnode);
	peer->conf.rr_client[af] = on;
	if (peer->bgp)
		resend_all(peer->bgp, af);
	return NB_OK;
}

int bgp_nb_neighbor_rr_client_create(struct nb_cb_args *args)
{
	return rr_client_set(args, true);
}

int bgp_nb_neighbor_rr_client_destroy(struct nb_cb_args *args)
{
	return rr_client_set(args, false);
}

static int nhs_set(struct nb_cb_args *args, enum bgp_nhs nhs)
{
	struct bgp_peer *peer;
	enum bgp_af af;

	if (args->event != NB_EV_APPLY || !(peer = nb_peer_apply(args->dnode)))
		return NB_OK;
	af = nb_af(args->dnode);
	peer->conf.nexthop_self[af] = nhs;
	bgp_policy_changed(peer, af, BGP_DIR_OUT);
	return NB_OK;
}

int bgp_nb_neighbor_nhs_modify(struct nb_cb_args *args)
{
	return nhs_set(args, strcmp(lyd_get_value(args->dnode), "force") == 0 ? BGP_NHS_FORCE
									      : BGP_NHS_SELF);
}

int bgp_nb_neighbor_nhs_destroy(struct nb_cb_args *args)
{
	return nhs_set(args, BGP_NHS_OFF);
}

/* send-community: the bits present are sent; an absent leaf sends all three kinds. */
static int send_comm_set(struct nb_cb_args *args, const char *bits)
{
	struct bgp_peer *peer;
	uint8_t off = 0;
	enum bgp_af af;

	if (args->event != NB_EV_APPLY || !(peer = nb_peer_apply(args->dnode)))
		return NB_OK;
	af = nb_af(args->dnode);
	if (bits)
		off = (strstr(bits, "standard") ? 0 : BGP_SEND_COMM_STANDARD) |
		      (strstr(bits, "extended") ? 0 : BGP_SEND_COMM_EXTENDED) |
		      (strstr(bits, "large") ? 0 : BGP_SEND_COMM_LARGE);
	peer->conf.send_comm_off[af] = off;
	bgp_policy_changed(peer, af, BGP_DIR_OUT);
	return NB_OK;
}

int bgp_nb_neighbor_send_comm_modify(struct nb_cb_args *args)
{
	return send_comm_set(args, lyd_get_value(args->dnode));
}

int bgp_nb_neighbor_send_comm_destroy(struct nb_cb_args *args)
{
	return send_comm_set(args, NULL);
}

static int soft_in_set(struct nb_cb_args *args, bool on)
{
	struct bgp_peer *peer;
	enum bgp_af af;

	if (args->event != NB_EV_APPLY || !(peer = nb_peer_apply(args->dnode)))
		return NB_OK;
	af = nb_af(args->dnode);
	peer->conf.soft_reconfig[af] = on;
	bgp_policy_soft_reconfig_changed(peer, af);
	return NB_OK;
}

int bgp_nb_neighbor_soft_in_create(struct nb_cb_args *args)
{
	return soft_in_set(args, true);
}

int bgp_nb_neighbor_soft_in_destroy(struct nb_cb_args *args)
{
	return soft_in_set(args, false);
}

static int rpa_set(struct nb_cb_args *args, enum bgp_rpa rpa)
{
	struct bgp_peer *peer;
	enum bgp_af af;

	if (args->event != NB_EV_APPLY || !(peer = nb_peer_apply(args->dnode)))
		return NB_OK;
	af = nb_af(args->dnode);
	peer->conf.remove_private_as[af] = rpa;
	bgp_policy_changed(peer, af, BGP_DIR_OUT);
	return NB_OK;
}

int bgp_nb_neighbor_rpa_modify(struct nb_cb_args *args)
{
	static const struct {
		const char *name;
		enum bgp_rpa rpa;
	} map[] = { { "remove", BGP_RPA_ONLY },
		    { "replace-as", BGP_RPA_ONLY_REPLACE },
		    { "all", BGP_RPA_ALL },
		    { "all-replace-as", BGP_RPA_ALL_REPLACE } };
	const char *v = lyd_get_value(args->dnode);

	for (size_t i = 0; i < array_size(map); i++)
		if (strcmp(v, map[i].name) == 0)
			return rpa_set(args, map[i].rpa);
	return NB_OK; /* cannot happen: the model's enumeration */
}

int bgp_nb_neighbor_rpa_destroy(struct nb_cb_args *args)
{
	return rpa_set(args, BGP_RPA_OFF);
}

static int allowas_set(struct nb_cb_args *args, uint8_t v)
{
	struct bgp_peer *peer;
	enum bgp_af af;

	if (args->event != NB_EV_APPLY || !(peer = nb_peer_apply(args->dnode)))
		return NB_OK;
	af = nb_af(args->dnode);
	peer->conf.allowas_in[af] = v;
	bgp_policy_changed(peer, af, BGP_DIR_IN); /* what was refused may come in now */
	return NB_OK;
}

int bgp_nb_neighbor_allowas_modify(struct nb_cb_args *args)
{
	const char *v = lyd_get_value(args->dnode);

	return allowas_set(args, strcmp(v, "origin") == 0 ? BGP_ALLOWAS_ORIGIN
							  : (uint8_t)strtoul(v, NULL, 10));
}

int bgp_nb_neighbor_allowas_destroy(struct nb_cb_args *args)
{
	return allowas_set(args, 0);
}

/* neighbor X maximum-prefix: the presence container's leaves, read once per commit. */
int bgp_nb_neighbor_maxpfx_create(struct nb_cb_args *args)
{
	(void)args; /* apply_finish reads the leaves */
	return NB_OK;
}

int bgp_nb_neighbor_maxpfx_destroy(struct nb_cb_args *args)
{
	struct bgp_peer *peer;
	enum bgp_af af;

	if (args->event != NB_EV_APPLY || !(peer = nb_peer_apply(args->dnode)))
		return NB_OK;
	af = nb_af(args->dnode);
	memset(&peer->conf.maxpfx[af], 0, sizeof(peer->conf.maxpfx[af]));
	bgp_max_prefix_changed(peer, af);
	return NB_OK;
}

void bgp_nb_neighbor_maxpfx_apply_finish(struct nb_cb_args *args)
{
	struct bgp_peer *peer = nb_peer_apply(args->dnode);
	struct bgp_maxpfx m;
	enum bgp_af af;

	if (!peer)
		return;
	af = nb_af(args->dnode);
	m.max = (uint32_t)yang_dnode_get_uint(args->dnode, 0, "max");
	m.threshold = (uint8_t)yang_dnode_get_uint(args->dnode, BGP_MAXPFX_THRESHOLD_DEFAULT,
						   "threshold");
	m.warning_only = yang_dnode_exists(args->dnode, "warning-only");
	m.restart = (uint16_t)yang_dnode_get_uint(args->dnode, 0, "restart");
	peer->conf.maxpfx[af] = m;
	bgp_max_prefix_changed(peer, af);
}

static int cluster_id_set(struct nb_cb_args *args, const char *value)
{
	struct bgp *bgp = bgp_get();
	struct in_addr id = { 0 };

	if (args->event != NB_EV_APPLY || !bgp)
		return NB_OK;
	if (value && inet_pton(AF_INET, value, &id) != 1)
		return NB_OK; /* cannot happen: the model's type is an IPv4 address */
	bgp->cluster_id = id;
	for (int af = 0; af < BGP_AF_MAX; af++)
		resend_all(bgp, (enum bgp_af)af);
	return NB_OK;
}

int bgp_nb_cluster_id_modify(struct nb_cb_args *args)
{
	return cluster_id_set(args, lyd_get_value(args->dnode));
}

int bgp_nb_cluster_id_destroy(struct nb_cb_args *args)
{
	return cluster_id_set(args, NULL);
}

/* ---- networks ------------------------------------------------------------------------ */

static int network_change(struct nb_cb_args *args, bool add)
{
	struct bgp *bgp = bgp_get();
	const char *s;
	struct prefix p;

	if (args->event != NB_EV_APPLY || !bgp)
		return NB_OK;
	s = yang_dnode_get_string(args->dnode, "prefix");
	if (!s || prefix_from_str(&p, s, false) < 0)
		return NB_OK;
	if ((add ? bgp_network_add : bgp_network_del)(bgp, nb_af(args->dnode), &p) < 0)
		log_err("cannot %s network %s", add ? "add" : "remove", s);
	else if (add && yang_dnode_exists(args->dnode, "route-map"))
		/* Before the first sync: the map's leaf callback only repeats this. */
		bgp_network_set_rmap(bgp, nb_af(args->dnode), &p,
				     yang_dnode_get_string(args->dnode, "route-map"));
	return NB_OK;
}

/* network P route-map NAME set (name) or removed (NULL). */
static int network_rmap_change(struct nb_cb_args *args, const char *name)
{
	const struct lyd_node *net = lyd_parent(args->dnode);
	struct bgp *bgp = bgp_get();
	const char *s;
	struct prefix p;

	if (args->event != NB_EV_APPLY || !bgp || !net)
		return NB_OK;
	s = yang_dnode_get_string(net, "prefix");
	if (!s || prefix_from_str(&p, s, false) < 0)
		return NB_OK;
	if (bgp_network_set_rmap(bgp, nb_af(net), &p, name) < 0)
		log_err("cannot set the route-map of network %s to %s", s, name ? name : "none");
	return NB_OK;
}

int bgp_nb_network_rmap_modify(struct nb_cb_args *args)
{
	return network_rmap_change(args, lyd_get_value(args->dnode));
}

int bgp_nb_network_rmap_destroy(struct nb_cb_args *args)
{
	return network_rmap_change(args, NULL);
}

int bgp_nb_network_create(struct nb_cb_args *args)
{
	return network_change(args, true);
}

int bgp_nb_network_destroy(struct nb_cb_args *args)
{
	return network_change(args, false);
}
