/* SPDX-License-Identifier: ISC */
/*
 * Peer-groups and dynamic neighbors as a tree expansion (the skua-bgp expand_tree hook,
 * lib/northbound.h).
 *
 * The configuration tree keeps what the operator wrote: a group's settings under
 * peer-groups/peer-group, a member's own settings and its peer-group leaf under its neighbor
 * entry. Before every commit the northbound asks for the *effective* tree, in which
 *
 *   - every dynamic neighbor (bgpd/session/bgp_dynamic.c) whose range still exists becomes a
 * neighbor entry of its group, passive (it connected to us; FRR never connects out to one);
 *   - every member gets each setting its group makes and it does not make itself.
 *
 * The northbound validates that tree (the model's constraints hold on what bgpd runs), diffs it
 * against the effective running tree and hands the differences to the per-leaf neighbor
 * callbacks. So a change to a group reaches every member as if made on each of them, a member
 * leaving its group loses exactly what it inherited, and any neighbor setting added to the
 * model's neighbor-settings grouping is inherited without code here.
 */
#include "lib/compat.h"

#include "bgpd/config/bgp_nb.h"
#include "bgpd/session/bgp_dynamic.h"
#include "lib/yang.h"

/* Containers a member takes whole or not at all: one choice (update-source), a type with a
 * value that only means something with that type (remote-as), or a statement whose options
 * go with it (default-originate: a member's own line without a route-map is not the group's
 * route-map). */
static bool taken_whole(const struct lysc_node *snode)
{
	return snode->nodetype == LYS_CONTAINER &&
	       (!strcmp(snode->name, "neighbor-remote-as") ||
		!strcmp(snode->name, "update-source") || !strcmp(snode->name, "default-originate"));
}

/* Does the subtree hold anything set (not a default)? */
static bool has_explicit(const struct lyd_node *n)
{
	const struct lyd_node *c;

	if (!n)
		return false;
	if (!(n->schema->nodetype & (LYS_CONTAINER | LYS_LIST)))
		return !(n->flags & LYD_DEFAULT);
	/* A presence container is a setting by itself, leaves or not (default-originate). */
	if (n->schema->nodetype == LYS_CONTAINER && !lysc_is_np_cont(n->schema))
		return true;
	LY_LIST_FOR(lyd_child(n), c)
	if (has_explicit(c))
		return true;
	return false;
}

static struct lyd_node *child_of(struct lyd_node *parent, const struct lysc_node *snode)
{
	struct lyd_node *m = NULL;

	if (lyd_find_sibling_val(lyd_child(parent), snode, NULL, 0, &m) != LY_SUCCESS)
		return NULL;
	return m;
}

/* Copy into member what grp sets and member does not. Schema nodes of the two lists differ
 * (the grouping is used twice), so children are matched by name. */
static int inherit(struct lyd_node *member, const struct lyd_node *grp)
{
	const struct lyd_node *g;

	LY_LIST_FOR(lyd_child(grp), g)
	{
		const struct lysc_node *ms;
		struct lyd_node *m, *dup = NULL;

		if (lysc_is_key(g->schema) || !has_explicit(g))
			continue;
		ms = lys_find_child(member->schema, g->schema->module, g->schema->name, 0, 0, 0);
		if (!ms)
			continue; /* peer-group-only node: none yet */
		m = child_of(member, ms);
		if (ms->nodetype == LYS_CONTAINER && !taken_whole(ms)) {
			if (!m && lyd_new_inner(member, NULL, ms->name, 0, &m) != LY_SUCCESS)
				return -1;
			if (inherit(m, g) < 0)
				return -1;
			continue;
		}
		if (has_explicit(m))
			continue; /* the member's own setting wins */
		if (m)
			lyd_free_tree(m);
		if (ms->nodetype == LYS_CONTAINER) {
			if (lyd_new_inner(member, NULL, ms->name, 0, &dup) != LY_SUCCESS ||
			    inherit(dup, g) < 0)
				return -1;
		} else if (lyd_new_term(member, NULL, ms->name, lyd_get_value(g), 0, &dup) !=
			   LY_SUCCESS) {
			return -1;
		}
	}
	return 0;
}

static struct lyd_node *find_bgp(struct lyd_node *tree)
{
	struct lyd_node *n;

	LY_LIST_FOR(tree, n)
	if (!strcmp(n->schema->name, "bgp") && !strcmp(n->schema->module->name, "skua-bgp"))
		return n;
	return NULL;
}

static const struct lyd_node *group_of(const struct lyd_node *bgp, const char *name)
{
	return yang_dnode_get(bgp, "peer-groups/peer-group[name='%s']", name);
}

/* Does a listen range of group cover addr (in the tree being expanded)? */
static bool range_covers(const struct lyd_node *bgp, const struct ipaddr *addr, const char *group)
{
	struct ly_set *set = NULL;
	bool found = false;
	char xpath[128];

	snprintf(xpath, sizeof(xpath), "listen/range[peer-group='%s']", group);
	if (lyd_find_xpath(bgp, xpath, &set) != LY_SUCCESS)
		return false;
	for (uint32_t i = 0; i < set->count && !found; i++) {
		const char *s = yang_dnode_get_string(set->dnodes[i], "prefix");
		struct prefix p;

		found = s && prefix_from_str(&p, s, false) == 0 && prefix_contains_addr(&p, addr);
	}
	ly_set_free(set, NULL);
	return found;
}

struct expand_ctx {
	struct lyd_node *bgp;
	int err;
};

/* A dynamic neighbor into the tree, unless it no longer has a range, or a configured
 * neighbor took its address. */
static void add_dynamic(const struct ipaddr *addr, const char *group, void *arg)
{
	struct expand_ctx *x = arg;
	char a[IPADDR_STRLEN], xpath[256];
	struct lyd_node *n = NULL;

	ipaddr_to_str(addr, a, sizeof(a));
	snprintf(xpath, sizeof(xpath), "neighbors/neighbor[remote-address='%s']", a);
	if (x->err || yang_dnode_exists(x->bgp, "%s", xpath) || !group_of(x->bgp, group) ||
	    !range_covers(x->bgp, addr, group))
		return;
	if (lyd_new_path(x->bgp, NULL, xpath, NULL, 0, &n) != LY_SUCCESS)
		goto fail;
	snprintf(xpath, sizeof(xpath), "neighbors/neighbor[remote-address='%s']/peer-group", a);
	if (lyd_new_path(x->bgp, NULL, xpath, group, 0, NULL) != LY_SUCCESS)
		goto fail;
	snprintf(xpath, sizeof(xpath), "neighbors/neighbor[remote-address='%s']/passive", a);
	if (lyd_new_path(x->bgp, NULL, xpath, NULL, 0, NULL) != LY_SUCCESS)
		goto fail;
	return;
fail:
	x->err = -1;
}

int bgp_nb_expand_tree(struct lyd_node **tree, char *errmsg, size_t errlen, char *xpath,
		       size_t xpathlen)
{
	struct expand_ctx x = { find_bgp(*tree), 0 };
	struct ly_set *set = NULL;
	int ret = NB_OK;

	if (!x.bgp)
		return NB_OK;
	bgp_dynamic_foreach(add_dynamic, &x);
	if (x.err) {
		snprintf(errmsg, errlen, "cannot add the dynamic neighbors (out of memory?)");
		return NB_ERR;
	}
	if (lyd_find_xpath(x.bgp, "neighbors/neighbor[peer-group]", &set) != LY_SUCCESS)
		return NB_OK;
	for (uint32_t i = 0; i < set->count && ret == NB_OK; i++) {
		struct lyd_node *nbr = set->dnodes[i];
		const char *name = yang_dnode_get_string(nbr, "peer-group");
		const struct lyd_node *grp = name ? group_of(x.bgp, name) : NULL;

		if (grp && inherit(nbr, grp) < 0) {
			snprintf(errmsg, errlen,
				 "cannot apply peer-group %s to its member (out of memory?)", name);
			yang_dnode_path(nbr, xpath, xpathlen);
			ret = NB_ERR;
		}
	}
	ly_set_free(set, NULL);
	return ret;
}
