/* SPDX-License-Identifier: ISC */
/*
 * hostname and log targets: CLI -> skua-system edits -> callbacks -> vty/log, and back out as
 * running-config lines (FRR's order: hostname, log file, log stdout, log syslog; a level is
 * printed only when it is not the default, debugging).
 */
#include "lib/compat.h"

#include <limits.h>
#include <unistd.h>

#include "lib/command.h"
#include "lib/frr_vty_compat_cli.h"
#include "lib/log.h"
#include "lib/log_file.h"
#include "lib/northbound.h"
#include "lib/northbound_cli.h"
#include "lib/system_cli.h"
#include "lib/vty.h"
#include "lib/yang.h"

#define SYS_XPATH "/skua-system:system"
#define LOG_XPATH SYS_XPATH "/logging"
#define LOG_DEFAULT_LEVEL "debugging"

/* ---- callbacks --------------------------------------------------------------------------- */

static int hostname_modify(struct nb_cb_args *args)
{
	if (args->event == NB_EV_APPLY)
		vty_set_hostname(lyd_get_value(args->dnode));
	return NB_OK;
}

static int hostname_destroy(struct nb_cb_args *args)
{
	if (args->event == NB_EV_APPLY)
		vty_set_hostname(NULL); /* back to the system's name */
	return NB_OK;
}

static int log_filename_modify(struct nb_cb_args *args)
{
	/* Checked without touching anything, so that `bgpd -C` stays free of side effects.
	 * Only the configuration file (start-up, reload) may log outside the log directory
	 * (lib/log_file.h). */
	enum nb_source src = nb_commit_source();
	bool any_dir = src == NB_SRC_FILE || src == NB_SRC_RELOAD;

	if (args->event == NB_EV_VALIDATE &&
	    log_file_check_path(lyd_get_value(args->dnode), any_dir, args->errmsg,
				args->errmsg_len) < 0)
		return NB_ERR;
	return NB_OK;
}

static int log_level_of(const struct lyd_node *target)
{
	const char *name = yang_dnode_get_string(target, "level");
	int level = log_level_from_name(name ? name : LOG_DEFAULT_LEVEL);

	return level < 0 ? LOG_LVL_DEBUG : level;
}

static enum log_target log_target_of(const struct lyd_node *dnode)
{
	const char *name = dnode->schema->name;

	if (!strcmp(name, "file"))
		return LOG_TARGET_FILE;
	if (!strcmp(name, "syslog"))
		return LOG_TARGET_SYSLOG;
	return LOG_TARGET_STDOUT;
}

static int log_target_create(struct nb_cb_args *args)
{
	return NB_OK; /* apply_finish sets the target once its level and file name are known */
}

static int log_target_destroy(struct nb_cb_args *args)
{
	if (args->event == NB_EV_APPLY)
		log_set_target(log_target_of(args->dnode), LOG_LVL_DISABLED, NULL);
	return NB_OK;
}

static void log_target_apply_finish(struct nb_cb_args *args)
{
	enum log_target t = log_target_of(args->dnode);
	const char *file =
		t == LOG_TARGET_FILE ? yang_dnode_get_string(args->dnode, "filename") : NULL;

	if (log_set_target(t, log_level_of(args->dnode), file) < 0)
		log_err("cannot log to %s: %s", file ? file : args->dnode->schema->name,
			strerror(errno));
}

static int log_precision_modify(struct nb_cb_args *args)
{
	/* the model's range (0..6) holds: the value is one digit */
	if (args->event == NB_EV_APPLY)
		log_set_timestamp_precision(atoi(lyd_get_value(args->dnode)));
	return NB_OK;
}

static int log_precision_destroy(struct nb_cb_args *args)
{
	if (args->event == NB_EV_APPLY)
		log_set_timestamp_precision(-1);
	return NB_OK;
}

/* ---- running-config printers ---------------------------------------------------------- */

static void hostname_show(struct sbuf *out, const struct lyd_node *dnode)
{
	sbuf_printf(out, "hostname %s\n", lyd_get_value(dnode));
}

static void log_target_show(struct sbuf *out, const struct lyd_node *dnode)
{
	const char *level = yang_dnode_get_string(dnode, "level");

	sbuf_printf(out, "log %s", dnode->schema->name);
	if (log_target_of(dnode) == LOG_TARGET_FILE)
		sbuf_printf(out, " %s", yang_dnode_get_string(dnode, "filename"));
	if (level && strcmp(level, LOG_DEFAULT_LEVEL) != 0)
		sbuf_printf(out, " %s", level);
	sbuf_puts(out, "\n");
}

/* Printed whenever set, 0 included: skua's default (3) is not FRR's (0). */
static void log_precision_show(struct sbuf *out, const struct lyd_node *dnode)
{
	sbuf_printf(out, "log timestamp precision %s\n", lyd_get_value(dnode));
}

static const struct nb_node_info system_nb_nodes[] = {
	{
		.xpath = SYS_XPATH "/hostname",
		.cbs = { .modify = hostname_modify,
			 .destroy = hostname_destroy,
			 .cli_show = hostname_show },
	},
	{
		.xpath = LOG_XPATH "/file",
		.cbs = { .create = log_target_create,
			 .destroy = log_target_destroy,
			 .apply_finish = log_target_apply_finish,
			 .cli_show = log_target_show },
	},
	{
		.xpath = LOG_XPATH "/file/filename",
		.cbs = { .modify = log_filename_modify },
		.missing_msg = "log file needs a file name",
	},
	{
		.xpath = LOG_XPATH "/stdout",
		.cbs = { .create = log_target_create,
			 .destroy = log_target_destroy,
			 .apply_finish = log_target_apply_finish,
			 .cli_show = log_target_show },
	},
	{
		.xpath = LOG_XPATH "/syslog",
		.cbs = { .create = log_target_create,
			 .destroy = log_target_destroy,
			 .apply_finish = log_target_apply_finish,
			 .cli_show = log_target_show },
	},
	{
		.xpath = LOG_XPATH "/timestamp-precision",
		.cbs = { .modify = log_precision_modify,
			 .destroy = log_precision_destroy,
			 .cli_show = log_precision_show },
	},
	{ .xpath = NULL },
};

static const struct nb_module_info system_nb_module = {
	.name = "skua-system",
	.nodes = system_nb_nodes,
};

/* ---- commands ------------------------------------------------------------------------ */

#define LOG_LEVELS \
	"<emergencies|alerts|critical|errors|warnings|notifications|informational|debugging>"
/* FRR's LOG_LEVEL_DESC */
#define LOG_LEVELS_HELP                       \
	"System is unusable\n"                \
	"Immediate action needed\n"           \
	"Critical conditions\n"               \
	"Error conditions\n"                  \
	"Warning conditions\n"                \
	"Normal but significant conditions\n" \
	"Informational messages\n"            \
	"Debugging messages\n"

/*
 * bgpd opens the log file with its own privileges: a session of the vty group (admitted
 * straight into enable mode) must not choose it. The configuration file (start-up, reload)
 * and sessions of root or of bgpd's own user may.
 */
static bool log_file_allowed(struct vty *vty)
{
	if (vty_is_privileged(vty))
		return true;
	if (vty->cred_known)
		vty_out(vty,
			"%% Only root or bgpd's own user may change the log file from a vty (this "
			"session is uid %u); set it in the configuration file and reload\n",
			(unsigned)vty->uid);
	else
		vty_out(vty, "%% Only root or bgpd's own user may change the log file from a vty "
			     "(who this session is could not be told); set it in the "
			     "configuration file and reload\n");
	return false;
}

/* The level keyword given on the line, or the default. */
static const char *level_arg(const struct cmd_args *args)
{
	for (int l = LOG_LVL_EMERG; l <= LOG_LVL_DEBUG; l++)
		if (cmd_has(args, log_level_name(l)))
			return log_level_name(l);
	return LOG_DEFAULT_LEVEL;
}

DEFCMD(config_hostname, "hostname WORD",
       "Set system's network name\n"
       "This system's network name\n")
{
	nb_cli_enqueue_change(vty, SYS_XPATH "/hostname", NB_OP_MODIFY, cmd_arg(args, "WORD"));
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(config_no_hostname, "no hostname [WORD]",
       "Negate a command or set its defaults\n"
       "Reset system's network name\n"
       "Host name of this router\n")
{
	nb_cli_enqueue_change(vty, SYS_XPATH "/hostname", NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(config_log_file, "log file WORD [" LOG_LEVELS "]",
       "Logging control\n"
       "Logging to file\n"
       "Logging filename\n" LOG_LEVELS_HELP)
{
	const char *name = cmd_arg(args, "WORD");
	char abs[PATH_MAX + 2], cwd[PATH_MAX];

	if (!log_file_allowed(vty))
		return CMD_WARNING_CONFIG_FAILED;
	/* As FRR: a relative name is taken from where the command was given; the daemon's
	 * working directory may differ by the time the file is reopened. */
	if (name[0] != '/' && getcwd(cwd, sizeof(cwd))) {
		snprintf(abs, sizeof(abs), "%s/%.*s", strcmp(cwd, "/") ? cwd : "",
			 (int)(sizeof(abs) - strlen(cwd) - 2), name);
		name = abs;
	}
	/* One command replaces the whole target (file name and level). */
	nb_cli_enqueue_change(vty, LOG_XPATH "/file", NB_OP_DESTROY, NULL);
	nb_cli_enqueue_change(vty, LOG_XPATH "/file/filename", NB_OP_MODIFY, name);
	nb_cli_enqueue_change(vty, LOG_XPATH "/file/level", NB_OP_MODIFY, level_arg(args));
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(config_no_log_file, "no log file [WORD [" LOG_LEVELS "]]",
       "Negate a command or set its defaults\n"
       "Logging control\n"
       "Cancel logging to file\n"
       "Logging filename\n" LOG_LEVELS_HELP)
{
	if (!log_file_allowed(vty))
		return CMD_WARNING_CONFIG_FAILED;
	nb_cli_enqueue_change(vty, LOG_XPATH "/file", NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(config_log_stdout, "log stdout [" LOG_LEVELS "]",
       "Logging control\n"
       "Set stdout logging level\n" LOG_LEVELS_HELP)
{
	nb_cli_enqueue_change(vty, LOG_XPATH "/stdout/level", NB_OP_MODIFY, level_arg(args));
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(config_no_log_stdout, "no log stdout [" LOG_LEVELS "]",
       "Negate a command or set its defaults\n"
       "Logging control\n"
       "Cancel logging to stdout\n" LOG_LEVELS_HELP)
{
	nb_cli_enqueue_change(vty, LOG_XPATH "/stdout", NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(config_log_syslog, "log syslog [" LOG_LEVELS "]",
       "Logging control\n"
       "Set syslog logging level\n" LOG_LEVELS_HELP)
{
	nb_cli_enqueue_change(vty, LOG_XPATH "/syslog/level", NB_OP_MODIFY, level_arg(args));
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(config_no_log_syslog, "no log syslog [" LOG_LEVELS "]",
       "Negate a command or set its defaults\n"
       "Logging control\n"
       "Cancel logging to syslog\n" LOG_LEVELS_HELP)
{
	nb_cli_enqueue_change(vty, LOG_XPATH "/syslog", NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(config_log_precision, "log timestamp precision (0-6)$digits",
       "Logging control\n"
       "Timestamp configuration\n"
       "Set the timestamp precision\n"
       "Number of subsecond digits\n")
{
	nb_cli_enqueue_change(vty, LOG_XPATH "/timestamp-precision", NB_OP_MODIFY,
			      cmd_arg(args, "digits"));
	return nb_cli_apply_changes(vty, NULL);
}

DEFCMD(config_no_log_precision, "no log timestamp precision [(0-6)]",
       "Negate a command or set its defaults\n"
       "Logging control\n"
       "Timestamp configuration\n"
       "Reset the timestamp precision to the default value\n"
       "Number of subsecond digits\n")
{
	nb_cli_enqueue_change(vty, LOG_XPATH "/timestamp-precision", NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

/*
 * Lines FRR writes at the top of its saved configurations and of `show running-config`,
 * accepted so that an FRR configuration loads unchanged (hidden: nothing to configure).
 *  - `frr version V`: which FRR wrote the file; informational.
 *  - `frr defaults PROFILE`: the defaults the file was written against. skua's defaults are
 *    FRR's `traditional` profile; `datacenter` changes several (timers, logging, ...), so a
 *    file written against it would not mean the same here: refused, with what to do.
 *  - `[no] service integrated-vtysh-config`: FRR vtysh's own setting (one frr.conf for all
 *    daemons), printed by its `show running-config`; skua's vtysh always saves through bgpd,
 *    so there is nothing to set.
 */
static int frr_version(struct vty *vty, const struct cmd_args *args)
{
	return CMD_SUCCESS;
}

static int frr_defaults(struct vty *vty, const struct cmd_args *args)
{
	const char *profile = cmd_arg(args, "PROFILE");

	if (profile && strcmp(profile, "traditional") == 0)
		return CMD_SUCCESS;
	if (profile && strcmp(profile, "datacenter") == 0)
		vty_out(vty, "%% skua has FRR's `traditional` defaults only: remove `frr defaults "
			     "datacenter` and configure explicitly what that profile changes "
			     "(e.g. timers bgp 3 9, bgp log-neighbor-changes)\n");
	else
		vty_out(vty,
			"%% Unknown defaults profile %s (FRR knows traditional and "
			"datacenter; skua has traditional)\n",
			profile ? profile : "");
	return CMD_WARNING_CONFIG_FAILED;
}

static int service_integrated(struct vty *vty, const struct cmd_args *args)
{
	return CMD_SUCCESS;
}

static const struct cmd_def frr_compat_defs[] = {
	{ "frr version LINE...",
	  "FRRouting global parameters\nversion configuration was written by\nversion string\n",
	  frr_version, CMD_HIDDEN },
	{ "frr defaults WORD$PROFILE",
	  "FRRouting global parameters\nset of configuration defaults used\nprofile name\n",
	  frr_defaults, CMD_HIDDEN },
	{ "service integrated-vtysh-config",
	  "Set up miscellaneous service\nWrite configuration into integrated file\n",
	  service_integrated, CMD_HIDDEN },
	{ "no service integrated-vtysh-config",
	  "Negate a command or set its defaults\nSet up miscellaneous service\n"
	  "Write configuration into integrated file\n",
	  service_integrated, CMD_HIDDEN },
};

void system_cli_init(void)
{
	nb_module_register(&system_nb_module);
	cmd_install(CONFIG_NODE, &config_hostname_cmd);
	cmd_install(CONFIG_NODE, &config_no_hostname_cmd);
	cmd_install(CONFIG_NODE, &config_log_file_cmd);
	cmd_install(CONFIG_NODE, &config_no_log_file_cmd);
	cmd_install(CONFIG_NODE, &config_log_stdout_cmd);
	cmd_install(CONFIG_NODE, &config_no_log_stdout_cmd);
	cmd_install(CONFIG_NODE, &config_log_syslog_cmd);
	cmd_install(CONFIG_NODE, &config_no_log_syslog_cmd);
	cmd_install(CONFIG_NODE, &config_log_precision_cmd);
	cmd_install(CONFIG_NODE, &config_no_log_precision_cmd);
	for (size_t i = 0; i < array_size(frr_compat_defs); i++)
		cmd_install(CONFIG_NODE, &frr_compat_defs[i]);
	frr_vty_compat_cli_init();
}
