/* SPDX-License-Identifier: ISC */
/*
 * A tiny daemon for the vtysh end-to-end tests and for trying vtysh by hand:
 *   tests/unit/cli_testd SOCKET [HOSTNAME]
 * serves the vty socket with the basic commands plus a few test commands until SIGTERM or
 * SIGINT. Config commands record what they did; `show test log` prints the record.
 */
#include "lib/compat.h"

#include <signal.h>

#include "lib/command.h"
#include "lib/event.h"
#include "lib/sbuf.h"
#include "lib/vty.h"

static struct sbuf record;

DEFCMD(testd_output, "show test output (0-100000000)$bytes",
       "Show running system information\n"
       "Test daemon\n"
       "Print a block of text\n"
       "How many bytes\n")
{
	uint64_t n = cmd_arg_u64(args, "bytes", 0);

	/* Lines of 64 bytes: "line NNNNNNNNNN " and padding, so a client can check order. */
	for (uint64_t i = 0; i + 64 <= n; i += 64)
		vty_out(vty, "line %010llu %047d\n", (unsigned long long)(i / 64), 0);
	for (uint64_t i = n - n % 64; i < n; i++)
		vty_out(vty, "%c", i + 1 == n ? '\n' : 'x');
	return CMD_SUCCESS;
}

DEFCMD(testd_log, "show test log",
       "Show running system information\n"
       "Test daemon\n"
       "What the config commands did\n")
{
	vty_out(vty, "%s", record.buf ? record.buf : "");
	return CMD_SUCCESS;
}

DEFCMD(testd_echo, "echo LINE...$text", "Print text\nThe text\n")
{
	vty_out(vty, "%s\n", cmd_arg(args, "text"));
	return CMD_SUCCESS;
}

DEFCMD(testd_warn, "test warning", "Test daemon\nReturn CMD_WARNING\n")
{
	vty_out(vty, "%% this is only a warning\n");
	return CMD_WARNING;
}

DEFCMD(testd_hostname, "hostname WORD$name", "Set the host name\nThe new name\n")
{
	vty_set_hostname(cmd_arg(args, "name"));
	sbuf_printf(&record, "hostname %s\n", cmd_arg(args, "name"));
	return CMD_SUCCESS;
}

DEFCMD(testd_router_bgp, "router bgp ASNUM$asn",
       "Enable a routing process\n"
       "BGP\n"
       "Autonomous system number\n")
{
	sbuf_printf(&record, "router bgp %s\n", cmd_arg(args, "asn"));
	cmd_enter_node(vty, BGP_NODE);
	snprintf(vty->xpath[0], sizeof(vty->xpath[0]), "/bgp[asn='%s']", cmd_arg(args, "asn"));
	return CMD_SUCCESS;
}

DEFCMD(testd_neighbor, "neighbor <A.B.C.D|X:X::X:X>$peer remote-as ASNUM$as",
       "Specify a BGP neighbor\n"
       "Neighbor address\n"
       "Neighbor IPv6 address\n"
       "Specify a BGP neighbor\n"
       "AS number of the neighbor\n")
{
	sbuf_printf(&record, " neighbor %s remote-as %s\n", cmd_arg(args, "peer"),
		    cmd_arg(args, "as"));
	return CMD_SUCCESS;
}

DEFCMD(testd_password, "neighbor <A.B.C.D|X:X::X:X>$peer password WORD$key",
       "Specify a BGP neighbor\n"
       "Neighbor address\n"
       "Neighbor IPv6 address\n"
       "Set a password\n"
       "The password\n")
{
	sbuf_printf(&record, " neighbor %s password %s\n", cmd_arg(args, "peer"),
		    cmd_arg(args, "key"));
	return CMD_SUCCESS;
}

DEFCMD(testd_refuse, "bgp refuse", "BGP settings\nA setting the test daemon refuses\n")
{
	vty_out(vty, "%% The test daemon refuses this setting.\n");
	return CMD_WARNING_CONFIG_FAILED;
}

DEFCMD(testd_af, "address-family <ipv4|ipv6>$afi [unicast]",
       "Enter address-family mode\n"
       "IPv4\n"
       "IPv6\n"
       "Unicast\n")
{
	bool v6 = strcmp(cmd_arg(args, "afi"), "ipv6") == 0;

	sbuf_printf(&record, " address-family %s unicast\n", cmd_arg(args, "afi"));
	cmd_enter_node(vty, v6 ? BGP_IPV6_NODE : BGP_IPV4_NODE);
	return CMD_SUCCESS;
}

DEFCMD(testd_network, "network A.B.C.D/M$prefix", "Announce a prefix\nThe prefix\n")
{
	sbuf_printf(&record, "  network %s\n", cmd_arg(args, "prefix"));
	return CMD_SUCCESS;
}

static void on_signal(int sig, short what, void *arg)
{
	event_loop_exit(arg);
}

int main(int argc, char **argv)
{
	struct event_base *base;
	struct ev *sterm, *sint;
	int rc;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s SOCKET [HOSTNAME]\n", argv[0]);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	sbuf_init(&record);
	cmd_init();
	cmd_install(ENABLE_NODE, &testd_output_cmd);
	cmd_install(ENABLE_NODE, &testd_log_cmd);
	cmd_install(ENABLE_NODE, &testd_echo_cmd);
	cmd_install(ENABLE_NODE, &testd_warn_cmd);
	cmd_install(CONFIG_NODE, &testd_hostname_cmd);
	cmd_install(CONFIG_NODE, &testd_router_bgp_cmd);
	cmd_install(BGP_NODE, &testd_neighbor_cmd);
	cmd_install(BGP_NODE, &testd_password_cmd);
	cmd_install(BGP_NODE, &testd_refuse_cmd);
	cmd_install(BGP_NODE, &testd_af_cmd);
	cmd_install(BGP_IPV4_NODE, &testd_network_cmd);
	vty_set_hostname(argc == 3 ? argv[2] : "testd");

	base = event_loop_new();
	sterm = event_signal_new(base, SIGTERM, on_signal, base);
	sint = event_signal_new(base, SIGINT, on_signal, base);
	event_add(sterm);
	event_add(sint);
	if (vty_server_start(base, argv[1]) != 0) {
		fprintf(stderr, "%s: cannot serve %s\n", argv[0], argv[1]);
		return 1;
	}
	rc = event_loop_run(base);
	vty_server_stop();
	event_free(sterm);
	event_free(sint);
	event_loop_free(base);
	cmd_terminate();
	sbuf_free(&record);
	return rc == 0 ? 0 : 1;
}
