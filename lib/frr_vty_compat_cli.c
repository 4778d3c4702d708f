/* SPDX-License-Identifier: ISC */
/*
 * Lines of FRR's daemon files that configure FRR's own vty (its telnet port and password
 * prompt), which skua does not have: vtysh reaches bgpd on a UNIX socket, and who may use it
 * is decided by the socket's owner and mode (doc/security.md). So that an FRR
 * file loads unchanged they are accepted, change nothing, are not printed back by `show
 * running-config`, and each leaves a note in the log saying where it was and why it does
 * nothing:
 *   password [8] WORD, enable password [8] WORD (and their `no` forms),
 *   line vty, and in it: exec-timeout, access-class, ipv6 access-class, login.
 * `service password-encryption` is refused instead: FRR's type 7 form is a reversible
 * obfuscation, and accepting it silently would let an operator believe the neighbor
 * passwords of the saved file are protected when only the file's mode protects them.
 */
#include "lib/compat.h"

#include "lib/command.h"
#include "lib/frr_vty_compat_cli.h"
#include "lib/log.h"
#include "lib/vty.h"

#define WHY_NO_VTY                                                                           \
	"skua has no telnet vty: vtysh uses bgpd's UNIX socket, whose mode decides who may " \
	"connect (see doc/security.md)"

/* The statement's first words, for the note: "password", "line vty", "exec-timeout"... */
static int ignored(struct vty *vty, const char *what)
{
	if (vty->source_name)
		log_notice("%s:%u: `%s` ignored: " WHY_NO_VTY, vty->source_name, vty->source_line,
			   what);
	else
		log_notice("`%s` ignored: " WHY_NO_VTY, what);
	return CMD_SUCCESS;
}

static int password(struct vty *vty, const struct cmd_args *args)
{
	return ignored(vty, "password");
}

static int enable_password(struct vty *vty, const struct cmd_args *args)
{
	return ignored(vty, "enable password");
}

static int line_vty(struct vty *vty, const struct cmd_args *args)
{
	cmd_enter_node(vty, VTY_NODE);
	return ignored(vty, "line vty");
}

static int exec_timeout(struct vty *vty, const struct cmd_args *args)
{
	return ignored(vty, "exec-timeout");
}

static int access_class(struct vty *vty, const struct cmd_args *args)
{
	return ignored(vty, "access-class");
}

static int login(struct vty *vty, const struct cmd_args *args)
{
	return ignored(vty, "login");
}

static int password_encryption(struct vty *vty, const struct cmd_args *args)
{
	vty_out(vty, "%% service password-encryption is not supported by skua: FRR's type 7 "
		     "form is reversible and would only hide the neighbor passwords; the saved "
		     "file is kept mode 0640 instead (see doc/security.md): remove the line\n");
	return CMD_WARNING_CONFIG_FAILED;
}

static int no_password_encryption(struct vty *vty, const struct cmd_args *args)
{
	return CMD_SUCCESS; /* what skua does anyway */
}

#define NO_HELP "Negate a command or set its defaults\n"
#define PW_HELP                                                                              \
	"Assign the terminal connection password\nSpecifies a HIDDEN password will follow\n" \
	"The password string\n"
#define EN_HELP "Modify enable password parameters\n"
#define TIMEOUT_HELP "Set timeout value\nTimeout value in minutes\nTimeout in seconds\n"

static const struct cmd_def config_defs[] = {
	{ "password [(8-8)] WORD", PW_HELP, password, CMD_HIDDEN },
	{ "no password [(8-8)] [WORD]", NO_HELP PW_HELP, password, CMD_HIDDEN },
	{ "enable password [(8-8)] WORD", EN_HELP PW_HELP, enable_password, CMD_HIDDEN },
	{ "no enable password [(8-8)] [WORD]", NO_HELP EN_HELP PW_HELP, enable_password,
	  CMD_HIDDEN },
	{ "line vty", "Configure a terminal line\nVirtual terminal\n", line_vty, CMD_HIDDEN },
	{ "service password-encryption",
	  "Set up miscellaneous service\nEnable encrypted passwords\n", password_encryption,
	  CMD_HIDDEN },
	{ "no service password-encryption",
	  NO_HELP "Set up miscellaneous service\nEnable encrypted passwords\n",
	  no_password_encryption, CMD_HIDDEN },
};

static const struct cmd_def vty_defs[] = {
	{ "exec-timeout (0-35791) [(0-2147483)]", TIMEOUT_HELP, exec_timeout, 0 },
	{ "no exec-timeout [(0-35791) [(0-2147483)]]", NO_HELP TIMEOUT_HELP, exec_timeout, 0 },
	{ "access-class WORD", "Filter connections based on an IP access list\nIP access list\n",
	  access_class, 0 },
	{ "no access-class [WORD]",
	  NO_HELP "Filter connections based on an IP access list\nIP access list\n", access_class,
	  0 },
	{ "ipv6 access-class WORD",
	  "IPv6 information\nFilter connections based on an IP access list\nIPv6 access list\n",
	  access_class, 0 },
	{ "no ipv6 access-class [WORD]",
	  NO_HELP "IPv6 information\nFilter connections based on an IP access list\n"
		  "IPv6 access list\n",
	  access_class, 0 },
	{ "login", "Enable password checking\n", login, 0 },
	{ "no login", NO_HELP "Enable password checking\n", login, 0 },
};

void frr_vty_compat_cli_init(void)
{
	static const struct cmd_node vty_node = {
		VTY_NODE, "vty", "%s(config-line)# ", CONFIG_NODE, true, 0,
	};

	cmd_node_install(&vty_node);
	for (size_t i = 0; i < array_size(config_defs); i++)
		cmd_install(CONFIG_NODE, &config_defs[i]);
	for (size_t i = 0; i < array_size(vty_defs); i++)
		cmd_install(VTY_NODE, &vty_defs[i]);
}
