/* SPDX-License-Identifier: ISC */
/*
 * Completion of configured neighbors (bgpd/config/bgp_cli_complete.c): the provider registers
 * itself at program start and offers the neighbors of bgp_get() to `?` and TAB wherever a command
 * binds $peer. bgp_get() is a test double here: the instance is a few hand-made peers.
 */
#include "lib/compat.h"

#include <check.h>

#include "bgpd/config/bgp_cli_complete.h"
#include "bgpd/core/bgp.h"
#include "bgpd/instance/bgp_instance.h"
#include "lib/command.h"
#include "lib/vty.h"

static struct bgp fake_bgp;
static struct bgp_peer fake_peers[3];
static bool have_bgp;

struct bgp *bgp_get(void)
{
	return have_bgp ? &fake_bgp : NULL;
}

static int nop(struct vty *vty, const struct cmd_args *args)
{
	return CMD_SUCCESS;
}

/* The grammars bgpd uses for neighbors (bgpd/config/bgp_cli_neighbor.c,
 * bgpd/show/bgp_show_neighbor.c). */
static const struct cmd_def nbr_def = {
	.grammar = "neighbor <A.B.C.D|X:X::X:X>$peer remote-as <ASNUM|internal|external>",
	.help = "Specify a neighbor router\nNeighbor address\nNeighbor IPv6 address\n"
		"Specify a BGP neighbor\nAS number\nInternal BGP peer\nExternal BGP peer\n",
	.handler = nop,
};
static const struct cmd_def show_def = {
	.grammar = "show ip bgp neighbors [<A.B.C.D|X:X::X:X>$peer] [json]",
	.help = "Show\nIP\nBGP\nNeighbors\nNeighbor to display information about\n"
		"Neighbor to display information about\nJavaScript Object Notation\n",
	.handler = nop,
};

static struct vty *vty;

static void add_peer(int i, const char *addr)
{
	struct bgp_peer *p = &fake_peers[i];

	memset(p, 0, sizeof(*p));
	p->bgp = &fake_bgp;
	snprintf(p->name, sizeof(p->name), "%s", addr);
	TAILQ_INSERT_TAIL(&fake_bgp.peers, p, entry);
}

static void setup(void)
{
	memset(&fake_bgp, 0, sizeof(fake_bgp));
	TAILQ_INIT(&fake_bgp.peers);
	add_peer(0, "192.0.2.2");
	add_peer(1, "2001:db8::2");
	add_peer(2, "192.0.2.10");
	have_bgp = true;
	cmd_init();
	cmd_install(BGP_NODE, &nbr_def);
	cmd_install(VIEW_NODE, &show_def);
	vty = vty_new(-1);
}

static void teardown(void)
{
	vty_free(vty);
	cmd_terminate();
}

static const char *print(int (*fn)(struct vty *, const char *), const char *line)
{
	sbuf_reset(&vty->out);
	sbuf_puts(&vty->out, "");
	ck_assert_int_eq(fn(vty, line), CMD_SUCCESS);
	return vty->out.buf;
}

START_TEST(registered_at_start)
{
	/* Nobody called anything: linking the file registered the provider. */
	ck_assert_str_eq(print(cmd_describe_print, "show ip bgp neighbors "),
			 "  <cr>\n"
			 "  A.B.C.D   Neighbor to display information about\n"
			 "     192.0.2.2 192.0.2.10\n"
			 "  X:X::X:X  Neighbor to display information about\n"
			 "     2001:db8::2\n"
			 "  json      JavaScript Object Notation\n");
	ck_assert_str_eq(print(cmd_complete_print, "show ip bgp neighbors "),
			 "192.0.2.10\n192.0.2.2\n2001:db8::2\njson\n");
}
END_TEST

START_TEST(router_node)
{
	cmd_enter_node(vty, BGP_NODE);
	ck_assert_str_eq(print(cmd_complete_print, "neighbor 192.0.2."), "192.0.2.10\n192.0.2.2\n");
	ck_assert_str_eq(print(cmd_complete_print, "neighbor 2001:"), "2001:db8::2\n");
	ck_assert_str_eq(print(cmd_complete_print, "neighbor 10."), "");
	/* the values listed continue the partial word */
	ck_assert_str_eq(print(cmd_describe_print, "neighbor 2"),
			 "  A.B.C.D   Neighbor address\n"
			 "  X:X::X:X  Neighbor IPv6 address\n"
			 "     2001:db8::2\n");
	ck_assert_str_eq(print(cmd_describe_print, "neighbor 192.0.2.1"),
			 "  A.B.C.D  Neighbor address\n"
			 "     192.0.2.10\n");
	/* the same from a config node through `do` */
	ck_assert_str_eq(print(cmd_complete_print, "do show ip bgp neighbors 2001"),
			 "2001:db8::2\n");

	/* a peer removed is no longer offered; no instance, no values */
	TAILQ_REMOVE(&fake_bgp.peers, &fake_peers[1], entry);
	ck_assert_str_eq(print(cmd_complete_print, "neighbor 2001:"), "");
	have_bgp = false;
	ck_assert_str_eq(print(cmd_complete_print, "neighbor "), "");
	ck_assert_str_eq(print(cmd_describe_print, "neighbor "),
			 "  A.B.C.D   Neighbor address\n"
			 "  X:X::X:X  Neighbor IPv6 address\n");
}
END_TEST

static void collect(const char *value, void *ctx)
{
	sbuf_printf(ctx, "%s;", value);
}

START_TEST(provider_order)
{
	struct sbuf sb;

	/* configuration order, every family: the engine filters per placeholder */
	sbuf_init(&sb);
	sbuf_puts(&sb, "");
	bgp_cli_complete_peers(vty, collect, &sb);
	ck_assert_str_eq(sb.buf, "192.0.2.2;2001:db8::2;192.0.2.10;");
	sbuf_free(&sb);
}
END_TEST

static Suite *complete_suite(void)
{
	Suite *s = suite_create("bgp_cli_complete");
	TCase *tc = tcase_create("peers");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, registered_at_start);
	tcase_add_test(tc, router_node);
	tcase_add_test(tc, provider_order);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(complete_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
