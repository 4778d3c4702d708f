/* SPDX-License-Identifier: ISC */
/*
 * The best-path knobs (FRR 8.4's commands): the commands, their northbound callbacks and
 * their running-config lines. What each one does is in bgpd/rib/bgp_decision.c.
 *
 *   router bgp ASN
 *    bgp always-compare-med
 *    bgp deterministic-med
 *    bgp bestpath as-path ignore|confed|multipath-relax [no-as-set]
 *    bgp bestpath compare-routerid
 *    bgp bestpath med confed|missing-as-worst (either or both, either order)
 *
 * FRR prints always-compare-med after log-neighbor-changes, deterministic-med after
 * cluster-id, and the bestpath lines after graceful-shutdown and the graceful-restart
 * lines, in the order above; the model keeps that order. A change re-runs the decision for
 * every prefix at once (FRR waits for the next update or a `clear`).
 */
#include "lib/compat.h"

#include "bgpd/config/bgp_cli_help.h"
#include "bgpd/config/bgp_cli_private.h"
#include "bgpd/config/bgp_config.h"
#include "bgpd/config/bgp_nb.h"
#include "bgpd/core/bgp.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "lib/command.h"
#include "lib/northbound_cli.h"
#include "lib/vty.h"
#include "lib/yang.h"

static int switch_modify(struct nb_cb_args *args, size_t offset)
{
	struct bgp *bgp = bgp_get();
	bool on, *field;

	if (args->event != NB_EV_APPLY || !bgp)
		return NB_OK;
	on = strcmp(lyd_get_value(args->dnode), "true") == 0;
	field = (bool *)((char *)bgp + offset);
	if (*field == on)
		return NB_OK;
	*field = on;
	bgp_bestpath_changed(bgp);
	return NB_OK;
}

int bgp_nb_always_compare_med_modify(struct nb_cb_args *args)
{
	return switch_modify(args, offsetof(struct bgp, bestpath.always_compare_med));
}

int bgp_nb_deterministic_med_modify(struct nb_cb_args *args)
{
	return switch_modify(args, offsetof(struct bgp, bestpath.deterministic_med));
}

void bgp_nb_bestpath_apply_finish(struct nb_cb_args *args)
{
	struct bgp *bgp = bgp_get();
	struct bgp_bestpath bp;

	if (!bgp)
		return;
	bp = bgp->bestpath;
	bp.aspath_ignore = yang_dnode_get_bool(args->dnode, false, "as-path-ignore");
	bp.aspath_confed = yang_dnode_get_bool(args->dnode, false, "as-path-confed");
	bp.multipath_relax = yang_dnode_get_bool(args->dnode, false, "as-path-multipath-relax");
	bp.compare_routerid = yang_dnode_get_bool(args->dnode, false, "compare-routerid");
	bp.med_confed = yang_dnode_get_bool(args->dnode, false, "med-confed");
	bp.med_missing_as_worst = yang_dnode_get_bool(args->dnode, false, "med-missing-as-worst");
	if (memcmp(&bp, &bgp->bestpath, sizeof(bp)) == 0)
		return;
	bgp->bestpath = bp;
	bgp_bestpath_changed(bgp);
}

/* ---- running-config ---- */

void bgp_print_always_compare_med(struct sbuf *out, const struct lyd_node *dnode)
{
	if (strcmp(lyd_get_value(dnode), "true") == 0)
		sbuf_puts(out, " bgp always-compare-med\n");
}

void bgp_print_deterministic_med(struct sbuf *out, const struct lyd_node *dnode)
{
	if (strcmp(lyd_get_value(dnode), "true") == 0)
		sbuf_puts(out, " bgp deterministic-med\n");
}

void bgp_print_bestpath(struct sbuf *out, const struct lyd_node *dnode)
{
	bool confed = yang_dnode_get_bool(dnode, false, "med-confed");
	bool worst = yang_dnode_get_bool(dnode, false, "med-missing-as-worst");

	if (yang_dnode_get_bool(dnode, false, "as-path-ignore"))
		sbuf_puts(out, " bgp bestpath as-path ignore\n");
	if (yang_dnode_get_bool(dnode, false, "as-path-confed"))
		sbuf_puts(out, " bgp bestpath as-path confed\n");
	if (yang_dnode_get_bool(dnode, false, "as-path-multipath-relax"))
		sbuf_puts(out, " bgp bestpath as-path multipath-relax\n");
	if (yang_dnode_get_bool(dnode, false, "compare-routerid"))
		sbuf_puts(out, " bgp bestpath compare-routerid\n");
	if (confed || worst)
		sbuf_printf(out, " bgp bestpath med%s%s\n", confed ? " confed" : "",
			    worst ? " missing-as-worst" : "");
}

/* ---- commands ---- */

static int set_leaf(struct vty *vty, const char *xpath, const char *value)
{
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, value);
	return nb_cli_apply_changes(vty, NULL);
}

static const char *on_off(const struct cmd_args *args)
{
	return cmd_has(args, "no") ? "false" : "true";
}

DEFCMD(bgp_always_compare_med, "[no] bgp always-compare-med",
       NO_STR BGP_STR "Allow comparing MED from different neighbors\n")
{
	return set_leaf(vty, "./always-compare-med", on_off(args));
}

DEFCMD(bgp_deterministic_med, "[no] bgp deterministic-med",
       NO_STR BGP_STR "Pick the best-MED path among paths advertised from the neighboring AS\n")
{
	return set_leaf(vty, "./deterministic-med", on_off(args));
}

#define BESTPATH_STR BGP_STR "Change the default bestpath selection\n"
#define ASPATH_STR "AS-path attribute\n"

DEFCMD(bgp_bestpath_aspath_ignore, "[no] bgp bestpath as-path ignore",
       NO_STR BESTPATH_STR ASPATH_STR "Ignore as-path length in selecting a route\n")
{
	return set_leaf(vty, "./bestpath/as-path-ignore", on_off(args));
}

DEFCMD(bgp_bestpath_aspath_confed, "[no] bgp bestpath as-path confed",
       NO_STR BESTPATH_STR ASPATH_STR "Compare path lengths including confederation sets & "
				      "sequences in selecting a route\n")
{
	return set_leaf(vty, "./bestpath/as-path-confed", on_off(args));
}

/* FRR's `as-set` variant is refused as not supported (bgp_cli_unsupported.c); its `no`
 * form, like FRR's, takes either word. */
DEFCMD(bgp_bestpath_aspath_relax, "bgp bestpath as-path multipath-relax [no-as-set]",
       BESTPATH_STR ASPATH_STR "Allow load sharing across routes that have different AS paths "
			       "(but same length)\n"
			       "Do not generate an AS_SET\n")
{
	return set_leaf(vty, "./bestpath/as-path-multipath-relax", "true");
}

DEFCMD(no_bgp_bestpath_aspath_relax, "no bgp bestpath as-path multipath-relax [<as-set|no-as-set>]",
       NO_STR BESTPATH_STR ASPATH_STR "Allow load sharing across routes that have different AS "
				      "paths (but same length)\n"
				      "Generate an AS_SET\n"
				      "Do not generate an AS_SET\n")
{
	return set_leaf(vty, "./bestpath/as-path-multipath-relax", "false");
}

DEFCMD(bgp_bestpath_compare_routerid, "[no] bgp bestpath compare-routerid",
       NO_STR BESTPATH_STR "Compare router-id for identical EBGP paths\n")
{
	return set_leaf(vty, "./bestpath/compare-routerid", on_off(args));
}

/* FRR: the words given are set (or cleared with `no`); the other one is left as it is. */
DEFCMD(bgp_bestpath_med,
       "[no] bgp bestpath med <confed [missing-as-worst]|missing-as-worst [confed]>",
       NO_STR BESTPATH_STR "MED attribute\n"
			   "Compare MED among confederation paths\n"
			   "Treat missing MED as the least preferred one\n"
			   "Treat missing MED as the least preferred one\n"
			   "Compare MED among confederation paths\n")
{
	const char *v = on_off(args);

	if (cmd_has(args, "confed"))
		nb_cli_enqueue_change(vty, "./bestpath/med-confed", NB_OP_MODIFY, v);
	if (cmd_has(args, "missing-as-worst"))
		nb_cli_enqueue_change(vty, "./bestpath/med-missing-as-worst", NB_OP_MODIFY, v);
	return nb_cli_apply_changes(vty, NULL);
}

void bgp_bestpath_cli_init(void)
{
	static const struct cmd_def *const cmds[] = {
		&bgp_always_compare_med_cmd,	    &bgp_deterministic_med_cmd,
		&bgp_bestpath_aspath_ignore_cmd,    &bgp_bestpath_aspath_confed_cmd,
		&bgp_bestpath_aspath_relax_cmd,	    &no_bgp_bestpath_aspath_relax_cmd,
		&bgp_bestpath_compare_routerid_cmd, &bgp_bestpath_med_cmd,
	};

	for (size_t i = 0; i < array_size(cmds); i++)
		cmd_install(BGP_NODE, cmds[i]);
}
