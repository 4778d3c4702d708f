/* SPDX-License-Identifier: ISC */
/*
 * Graceful restart settings (RFC 4724, RFC 8538), FRR 8.4's commands: the commands, the
 * northbound callbacks and the running-config printers.
 *
 *   router bgp ASN
 *    bgp graceful-restart stalepath-time (1-4095)      default 360
 *    bgp graceful-restart restart-time (0-4095)        default 120
 *    no bgp graceful-restart notification              (the N bit; on by default)
 *    bgp graceful-restart select-defer-time (0-3600)   default 360
 *    bgp graceful-restart | bgp graceful-restart-disable   (neither: helper)
 *    bgp graceful-restart preserve-fw-state
 *    neighbor PEER graceful-restart | graceful-restart-helper | graceful-restart-disable
 *
 * The instance's lines print in that order (FRR's bgp_config_write), from one printer on their
 * container, whose apply_finish also sets them together. As FRR, the `no` form of a mode that
 * is not the one set is refused, and a change applies to the next OPEN (no session is reset).
 */
#include "lib/compat.h"

#include <inttypes.h>

#include "bgpd/config/bgp_cli_private.h"
#include "bgpd/config/bgp_config.h"
#include "bgpd/config/bgp_nb.h"
#include "bgpd/core/bgp.h"
#include "bgpd/core/bgp_peer.h"
#include "bgpd/instance/bgp_instance.h"
#include "lib/command.h"
#include "lib/northbound_cli.h"
#include "lib/vty.h"
#include "lib/yang.h"

#define GR_XPATH BGP_XPATH "/graceful-restart"
#define GR_STR "Graceful restart capability parameters\n"
#define GR_INVALID "%% The Graceful Restart command used is not valid at this moment.\n"

/* ---- the model's names of the modes ---- */

static enum bgp_gr_mode mode_from_str(const char *s, enum bgp_gr_mode absent)
{
	if (!s)
		return absent;
	if (!strcmp(s, "restart"))
		return BGP_GR_RESTART;
	if (!strcmp(s, "disable"))
		return BGP_GR_DISABLE;
	return BGP_GR_HELPER;
}

/* ---- northbound ---- */

void bgp_nb_gr_apply_finish(struct nb_cb_args *args)
{
	const struct lyd_node *d = args->dnode;
	struct bgp *bgp = bgp_get();

	if (!bgp)
		return;
	bgp->gr_mode = mode_from_str(yang_dnode_get_string(d, "mode"), BGP_GR_HELPER);
	bgp->gr_restart_time =
		(uint16_t)yang_dnode_get_uint(d, BGP_GR_RESTART_TIME_DEFAULT, "restart-time");
	bgp->gr_stalepath_time =
		(uint32_t)yang_dnode_get_uint(d, BGP_GR_STALEPATH_TIME_DEFAULT, "stalepath-time");
	bgp->gr_select_defer_time = (uint32_t)yang_dnode_get_uint(
		d, BGP_GR_SELECT_DEFER_TIME_DEFAULT, "select-defer-time");
	bgp->gr_preserve_fw_state = yang_dnode_get_bool(d, false, "preserve-fw-state");
	bgp->gr_notification = yang_dnode_get_bool(d, true, "notification");
}

static int neighbor_gr_set(struct nb_cb_args *args, enum bgp_gr_mode mode)
{
	struct bgp_peer *peer;

	if (args->event != NB_EV_APPLY || !(peer = bgp_nb_peer_apply(args->dnode)))
		return NB_OK;
	peer->conf.gr_mode = mode;
	return NB_OK;
}

int bgp_nb_neighbor_gr_modify(struct nb_cb_args *args)
{
	return neighbor_gr_set(args, mode_from_str(lyd_get_value(args->dnode), BGP_GR_INHERIT));
}

int bgp_nb_neighbor_gr_destroy(struct nb_cb_args *args)
{
	return neighbor_gr_set(args, BGP_GR_INHERIT);
}

static const struct nb_node_info gr_nodes[] = {
	{
		.xpath = GR_XPATH,
		.cbs = { .apply_finish = bgp_nb_gr_apply_finish, .cli_show = bgp_print_gr },
	},
	{ .xpath = NULL },
};

static const struct nb_module_info gr_module = {
	.name = "skua-bgp",
	.nodes = gr_nodes,
};

/* ---- printers ---- */

void bgp_print_gr(struct sbuf *out, const struct lyd_node *d)
{
	uint64_t stale = yang_dnode_get_uint(d, BGP_GR_STALEPATH_TIME_DEFAULT, "stalepath-time");
	uint64_t restart = yang_dnode_get_uint(d, BGP_GR_RESTART_TIME_DEFAULT, "restart-time");
	uint64_t defer =
		yang_dnode_get_uint(d, BGP_GR_SELECT_DEFER_TIME_DEFAULT, "select-defer-time");
	enum bgp_gr_mode mode = mode_from_str(yang_dnode_get_string(d, "mode"), BGP_GR_HELPER);

	if (stale != BGP_GR_STALEPATH_TIME_DEFAULT)
		sbuf_printf(out, " bgp graceful-restart stalepath-time %" PRIu64 "\n", stale);
	if (restart != BGP_GR_RESTART_TIME_DEFAULT)
		sbuf_printf(out, " bgp graceful-restart restart-time %" PRIu64 "\n", restart);
	if (!yang_dnode_get_bool(d, true, "notification"))
		sbuf_puts(out, " no bgp graceful-restart notification\n");
	if (defer != BGP_GR_SELECT_DEFER_TIME_DEFAULT)
		sbuf_printf(out, " bgp graceful-restart select-defer-time %" PRIu64 "\n", defer);
	if (mode == BGP_GR_RESTART)
		sbuf_puts(out, " bgp graceful-restart\n");
	else if (mode == BGP_GR_DISABLE)
		sbuf_puts(out, " bgp graceful-restart-disable\n");
	if (yang_dnode_get_bool(d, false, "preserve-fw-state"))
		sbuf_puts(out, " bgp graceful-restart preserve-fw-state\n");
}

void bgp_print_neighbor_gr(struct sbuf *out, const struct lyd_node *d)
{
	const char *v = lyd_get_value(d);
	const char *suffix = !strcmp(v, "helper")    ? "-helper"
			     : !strcmp(v, "disable") ? "-disable"
						     : "";

	sbuf_printf(out, " neighbor %s graceful-restart%s\n", bgp_print_nbr_addr(d), suffix);
}

/* ---- the instance's commands ---- */

static int gr_leaf(struct vty *vty, const char *leaf, enum nb_operation op, const char *value)
{
	char xpath[64];

	snprintf(xpath, sizeof(xpath), "./graceful-restart/%s", leaf);
	nb_cli_enqueue_change(vty, xpath, op, value);
	return nb_cli_apply_changes(vty, NULL);
}

/* The instance's mode now, as the candidate has it. */
static enum bgp_gr_mode gr_mode_now(struct vty *vty)
{
	const struct lyd_node *m = nb_cli_get(vty, GR_XPATH "/mode");

	return mode_from_str(m ? lyd_get_value(m) : NULL, BGP_GR_HELPER);
}

DEFCMD(bgp_gr, "bgp graceful-restart", BGP_STR "Graceful restart capability parameters\n")
{
	return gr_leaf(vty, "mode", NB_OP_MODIFY, "restart");
}

DEFCMD(no_bgp_gr, "no bgp graceful-restart", NO_STR BGP_STR GR_STR)
{
	if (gr_mode_now(vty) != BGP_GR_RESTART) {
		vty_out(vty, GR_INVALID);
		return CMD_WARNING_CONFIG_FAILED;
	}
	return gr_leaf(vty, "mode", NB_OP_DESTROY, NULL);
}

DEFCMD(bgp_gr_disable, "bgp graceful-restart-disable",
       BGP_STR "Graceful restart configuration parameters\n")
{
	return gr_leaf(vty, "mode", NB_OP_MODIFY, "disable");
}

DEFCMD(no_bgp_gr_disable, "no bgp graceful-restart-disable",
       NO_STR BGP_STR "Graceful restart configuration parameters\n")
{
	if (gr_mode_now(vty) != BGP_GR_DISABLE) {
		vty_out(vty, GR_INVALID);
		return CMD_WARNING_CONFIG_FAILED;
	}
	return gr_leaf(vty, "mode", NB_OP_DESTROY, NULL);
}

DEFCMD(bgp_gr_restart_time, "bgp graceful-restart restart-time (0-4095)$t",
       BGP_STR GR_STR "Set the time to wait to delete stale routes before a BGP open message "
		      "is received\n"
		      "Delay value (seconds)\n")
{
	return gr_leaf(vty, "restart-time", NB_OP_MODIFY, cmd_arg(args, "t"));
}

DEFCMD(no_bgp_gr_restart_time, "no bgp graceful-restart restart-time [(0-4095)]",
       NO_STR BGP_STR GR_STR "Set the time to wait to delete stale routes before a BGP open "
			     "message is received\n"
			     "Delay value (seconds)\n")
{
	return gr_leaf(vty, "restart-time", NB_OP_DESTROY, NULL);
}

DEFCMD(bgp_gr_stalepath_time, "bgp graceful-restart stalepath-time (1-4095)$t",
       BGP_STR GR_STR "Set the max time to hold onto restarting peer's stale paths\n"
		      "Delay value (seconds)\n")
{
	return gr_leaf(vty, "stalepath-time", NB_OP_MODIFY, cmd_arg(args, "t"));
}

DEFCMD(no_bgp_gr_stalepath_time, "no bgp graceful-restart stalepath-time [(1-4095)]",
       NO_STR BGP_STR GR_STR "Set the max time to hold onto restarting peer's stale paths\n"
			     "Delay value (seconds)\n")
{
	return gr_leaf(vty, "stalepath-time", NB_OP_DESTROY, NULL);
}

DEFCMD(bgp_gr_select_defer_time, "bgp graceful-restart select-defer-time (0-3600)$t",
       BGP_STR GR_STR "Set the time to defer the BGP route selection after restart\n"
		      "Delay value (seconds, 0 - disable)\n")
{
	return gr_leaf(vty, "select-defer-time", NB_OP_MODIFY, cmd_arg(args, "t"));
}

DEFCMD(no_bgp_gr_select_defer_time, "no bgp graceful-restart select-defer-time [(0-3600)]",
       NO_STR BGP_STR GR_STR "Set the time to defer the BGP route selection after restart\n"
			     "Delay value (seconds, 0 - disable)\n")
{
	return gr_leaf(vty, "select-defer-time", NB_OP_DESTROY, NULL);
}

DEFCMD(bgp_gr_preserve_fw, "[no] bgp graceful-restart preserve-fw-state",
       NO_STR BGP_STR GR_STR "Sets F-bit indication that fib is preserved while doing "
			     "Graceful Restart\n")
{
	return gr_leaf(vty, "preserve-fw-state", NB_OP_MODIFY,
		       cmd_has(args, "no") ? "false" : "true");
}

DEFCMD(bgp_gr_notification, "[no] bgp graceful-restart notification",
       NO_STR BGP_STR GR_STR "Indicate Graceful Restart support for BGP NOTIFICATION "
			     "messages\n")
{
	return gr_leaf(vty, "notification", NB_OP_MODIFY, cmd_has(args, "no") ? "false" : "true");
}

/* ---- the neighbor's (and peer-group's) commands ---- */

/* `[no] neighbor PEER graceful-restart[-helper|-disable]`: the negation only of the mode set. */
static int neighbor_gr_edit(struct vty *vty, const struct cmd_args *args, const char *mode)
{
	char base[256];
	const struct lyd_node *cur;

	if (!cmd_has(args, "no"))
		return bgp_cli_peer_edit(vty, args, "graceful-restart", NB_OP_MODIFY, mode);
	if (bgp_cli_peer_base(vty, args, base, sizeof(base)) < 0)
		return CMD_WARNING_CONFIG_FAILED;
	cur = nb_cli_get(vty, "%s/graceful-restart", base);
	if (!cur || strcmp(lyd_get_value(cur), mode) != 0) {
		vty_out(vty, GR_INVALID);
		return CMD_WARNING_CONFIG_FAILED;
	}
	return bgp_cli_peer_edit(vty, args, "graceful-restart", NB_OP_DESTROY, NULL);
}

DEFCMD(neighbor_gr, "[no] " NEIGHBOR_CMD " graceful-restart",
       NO_STR NEIGHBOR_STR "Enable Graceful Restart at peer level\n")
{
	return neighbor_gr_edit(vty, args, "restart");
}

DEFCMD(neighbor_gr_helper, "[no] " NEIGHBOR_CMD " graceful-restart-helper",
       NO_STR NEIGHBOR_STR "Enable Graceful Restart Helper at peer level\n")
{
	return neighbor_gr_edit(vty, args, "helper");
}

DEFCMD(neighbor_gr_disable, "[no] " NEIGHBOR_CMD " graceful-restart-disable",
       NO_STR NEIGHBOR_STR "Disable Graceful Restart at peer level\n")
{
	return neighbor_gr_edit(vty, args, "disable");
}

void bgp_gr_cli_init(void)
{
	static const struct cmd_def *const bgp_node_cmds[] = {
		&bgp_gr_cmd,
		&no_bgp_gr_cmd,
		&bgp_gr_disable_cmd,
		&no_bgp_gr_disable_cmd,
		&bgp_gr_restart_time_cmd,
		&no_bgp_gr_restart_time_cmd,
		&bgp_gr_stalepath_time_cmd,
		&no_bgp_gr_stalepath_time_cmd,
		&bgp_gr_select_defer_time_cmd,
		&no_bgp_gr_select_defer_time_cmd,
		&bgp_gr_preserve_fw_cmd,
		&bgp_gr_notification_cmd,
		&neighbor_gr_cmd,
		&neighbor_gr_helper_cmd,
		&neighbor_gr_disable_cmd,
	};

	nb_module_register(&gr_module);
	bgp_cli_install(BGP_NODE, bgp_node_cmds, array_size(bgp_node_cmds));
}
