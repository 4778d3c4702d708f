/* SPDX-License-Identifier: ISC */
/*
 * The command engine: grammar parsing, matching (exact/partial/ambiguous/incomplete, typed
 * tokens, groups, bindings, LINE...), `?` and TAB, walk-up, caret placement, node changes,
 * and golden files in FRR's test_cli style (tests/unit/cli/<name>.in -> <name>.refout).
 */
#include "lib/compat.h"

#include <check.h>
#include <dirent.h>
#include <signal.h>
#include <unistd.h>

#include "lib/command.h"
#include "lib/command_private.h"
#include "lib/memory.h"
#include "lib/vty.h"

#ifndef CLI_GOLDEN_DIR
#error "CLI_GOLDEN_DIR must point at tests/unit/cli"
#endif

/* ---- the test commands ------------------------------------------------------------------- */

#define MAX_ARGS 16
static struct {
	int calls;
	int argc;
	char name[MAX_ARGS][64], token[MAX_ARGS][64], text[MAX_ARGS][256];
} last;

/* Print the match FRR-test style and remember it for assertions. */
static int test_handler(struct vty *vty, const struct cmd_args *args)
{
	last.calls++;
	last.argc = args->argc;
	vty_out(vty, "%d args:", args->argc);
	for (int i = 0; i < args->argc; i++)
		vty_out(vty, " %s", args->argv[i].token);
	vty_out(vty, "\n");
	for (int i = 0; i < args->argc && i < MAX_ARGS; i++) {
		const struct cmd_arg *a = &args->argv[i];

		snprintf(last.name[i], sizeof(last.name[i]), "%s", a->name);
		snprintf(last.token[i], sizeof(last.token[i]), "%s", a->token);
		snprintf(last.text[i], sizeof(last.text[i]), "%s", a->text);
		if (strcmp(a->name, a->token) != 0)
			vty_out(vty, "[%02d] %s (%s): %s\n", i, a->name, a->token, a->text);
		else
			vty_out(vty, "[%02d] %s: %s\n", i, a->name, a->text);
	}
	return CMD_SUCCESS;
}

static int enter_bgp(struct vty *vty, const struct cmd_args *args)
{
	test_handler(vty, args);
	cmd_enter_node(vty, BGP_NODE);
	return CMD_SUCCESS;
}

static int enter_af(struct vty *vty, const struct cmd_args *args)
{
	test_handler(vty, args);
	cmd_enter_node(vty,
		       strcmp(cmd_arg(args, "afi"), "ipv6") == 0 ? BGP_IPV6_NODE : BGP_IPV4_NODE);
	return CMD_SUCCESS;
}

static int refuse(struct vty *vty, const struct cmd_args *args)
{
	vty_out(vty, "%% refused\n");
	return CMD_WARNING_CONFIG_FAILED;
}

static int set_hostname(struct vty *vty, const struct cmd_args *args)
{
	vty_set_hostname(cmd_arg(args, "name"));
	return CMD_SUCCESS;
}

#define TC(g, h)                                                 \
	{                                                        \
		.grammar = g, .help = h, .handler = test_handler \
	}

static const struct cmd_def enable_defs[] = {
	TC("arg ipv4 A.B.C.D", "Arguments\nIPv4\nAn IPv4 address\n"),
	TC("arg ipv4m A.B.C.D/M", "Arguments\nIPv4 prefix\nAn IPv4 prefix\n"),
	TC("arg ipv6 X:X::X:X$foo", "Arguments\nIPv6\nAn IPv6 address\n"),
	TC("arg ipv6m X:X::X:X/M", "Arguments\nIPv6 prefix\nAn IPv6 prefix\n"),
	TC("arg range (5-15)", "Arguments\nA range\nFive to fifteen\n"),
	TC("arg big (0-18446744073709551615)$n", "Arguments\nA big range\nAny 64-bit number\n"),
	TC("arg asn ASNUM$asn", "Arguments\nAn AS number\nAS number (plain or asdot)\n"),
	TC("pat a <a|b>", "Patterns\nA\nFirst\nSecond\n"),
	TC("pat b <a|b A.B.C.D$bar>", "Patterns\nB\nFirst\nSecond\nAn address\n"),
	TC("pat c <a|b|c> A.B.C.D", "Patterns\nC\nFirst\nSecond\nThird\nAn address\n"),
	TC("pat d {foo A.B.C.D$foo|bar X:X::X:X$bar|baz} [final]",
	   "Patterns\nD\nFoo\nFoo address\nBar\nBar address\nBaz\nFinal word\n"),
	TC("pat e [WORD]", "Patterns\nE\nAny word\n"),
	TC("pat f [key]", "Patterns\nF\nThe key\n"),
	TC("alt a WORD", "Alternatives\nA\nA word\n"),
	TC("alt a A.B.C.D", "Alternatives\nA\nAn address\n"),
	TC("alt a X:X::X:X", "Alternatives\nA\nAn IPv6 address\n"),
	TC("echo LINE...", "Echo\nText to echo\n"),
	TC("show ip bgp [summary]", "Show running system information\nIP\nBGP\nSummary\n"),
	TC("show ipv6 route", "Show running system information\nIPv6\nRoutes\n"),
	TC("amb one", "Ambiguity\nOne\n"),
	TC("amb only", "Ambiguity\nOnly\n"),
	TC("shutdown", "Shut down\n"),
	TC("neighbor <A.B.C.D|X:X::X:X>$peer timers (0-65535)$ka (0-65535)$hold",
	   "Neighbor\nIPv4 peer\nIPv6 peer\nTimers\nKeepalive\nHold time\n"),
	TC("neighbor WORD$peer peer-group", "Neighbor\nPeer name\nPeer group\n"),
	{ .grammar = "hidden-cmd",
	  .help = "Hidden\n",
	  .handler = test_handler,
	  .flags = CMD_HIDDEN },
};

static const struct cmd_def router_bgp_def = {
	.grammar = "router bgp ASNUM$asn",
	.help = "Routing process\nBGP\nAS number\n",
	.handler = enter_bgp,
};
static const struct cmd_def hostname_def = {
	.grammar = "hostname WORD$name",
	.help = "Host name\nThe name\n",
	.handler = set_hostname,
};
static const struct cmd_def nbr_def =
	TC("neighbor <A.B.C.D|X:X::X:X>$peer remote-as ASNUM$as",
	   "Specify a BGP neighbor\nNeighbor address\nNeighbor IPv6 address\n"
	   "Specify a BGP neighbor\nAS number\n");
static const struct cmd_def af_def = {
	.grammar = "address-family <ipv4|ipv6>$afi [unicast]",
	.help = "Address family\nIPv4\nIPv6\nUnicast\n",
	.handler = enter_af,
};
static const struct cmd_def refuse_def = {
	.grammar = "bgp refuse",
	.help = "BGP\nRefused setting\n",
	.handler = refuse,
};
static const struct cmd_def network_def = TC("network A.B.C.D/M", "Network\nA prefix\n");

static struct vty *vty;

static void setup(void)
{
	cmd_init();
	for (size_t i = 0; i < array_size(enable_defs); i++)
		cmd_install(ENABLE_NODE, &enable_defs[i]);
	cmd_install(CONFIG_NODE, &router_bgp_def);
	cmd_install(CONFIG_NODE, &hostname_def);
	cmd_install(BGP_NODE, &nbr_def);
	cmd_install(BGP_NODE, &af_def);
	cmd_install(BGP_NODE, &refuse_def);
	cmd_install(BGP_IPV4_NODE, &network_def);
	cmd_install(BGP_IPV6_NODE, &network_def);
	vty_set_hostname("test");
	vty = vty_new(-1);
	memset(&last, 0, sizeof(last));
}

static void teardown(void)
{
	cmd_value_provider_set("peer", NULL); /* a failed test may leave it */
	vty_free(vty);
	vty = NULL;
	cmd_terminate();
	vty_set_hostname(NULL);
	/* Everything the engine allocated is gone again. */
	ck_assert_uint_eq(MTYPE_CMD_TOKEN->allocated, 0);
	ck_assert_uint_eq(MTYPE_CMD_GRAPH->allocated, 0);
	ck_assert_uint_eq(MTYPE_CMD_TEXT->allocated, 0); /* the strings go with the last node */
	ck_assert_uint_eq(MTYPE_CMD_MATCH->allocated, 0);
}

/* Execute and return the status; the output is left in vty->out (reset first). */
static int run(const char *line)
{
	sbuf_reset(&vty->out);
	memset(&last, 0, sizeof(last));
	return cmd_execute(vty, line, false);
}

static int run_walk(const char *line)
{
	sbuf_reset(&vty->out);
	memset(&last, 0, sizeof(last));
	return cmd_execute(vty, line, true);
}

static const char *out(void)
{
	return vty->out.buf ? vty->out.buf : "";
}

static const char *arg_text(int i)
{
	ck_assert_int_lt(i, last.argc);
	return last.text[i];
}

/* ---- grammar parsing ---------------------------------------------------------------------- */

static int parse(const char *grammar, const char *help, char *err, size_t errlen)
{
	struct cmd_def def = { .grammar = grammar, .help = help, .handler = test_handler };
	struct cmd_gnode_list nodes = { 0 };
	struct cmd_gnode *start;
	int rc = cmd_grammar_parse(&def, &nodes, &start, err, errlen);

	cmd_gnode_list_free(&nodes);
	return rc;
}

START_TEST(grammar_valid)
{
	static const struct {
		const char *g, *h;
	} ok[] = {
		{ "a", "A\n" },
		{ "a b c", "A\nB\nC" },
		{ "x <a|b c|d>", "X\nA\nB\nC\nD\n" },
		{ "x [a|b]", "X\nA\nB\n" },
		{ "x {a|b A.B.C.D$y}", "X\nA\nB\nAddr\n" },
		{ "x (1-10) (0-18446744073709551615)", "X\nR\nBig\n" },
		{ "x A.B.C.D/M X:X::X:X X:X::X:X/M ASNUM NAME", "X\n1\n2\n3\n4\n5\n" },
		{ "x <A.B.C.D|X:X::X:X>$peer", "X\nv4\nv6\n" },
		{ "x LINE...", "X\nRest\n" },
		{ "x [LINE...]", "X\nRest\n" },
		{ "  x   < a | b >  ", "X\nA\nB\n" },
		{ "x [a [b]]", "X\nA\nB\n" },
	};
	char err[1024];

	for (size_t i = 0; i < array_size(ok); i++)
		ck_assert_msg(parse(ok[i].g, ok[i].h, err, sizeof(err)) == 0, "'%s': %s", ok[i].g,
			      err);
}
END_TEST

START_TEST(grammar_malformed)
{
	static const struct {
		const char *g, *h, *why;
	} bad[] = {
		{ "", "", "empty" },
		{ "x <a|b", "X\nA\nB\n", "without its" },
		{ "x a|b>", "X\nA\nB\n", "unbalanced" },
		{ "x <a|>", "X\nA\n", "empty alternative" },
		{ "x []", "X\n", "empty alternative" },
		{ "x (5-1)", "X\nR\n", "bad range" },
		{ "x (1-99999999999999999999)", "X\nR\n", "bad range" },
		{ "x (a-b)", "X\nR\n", "bad range" },
		{ "x (1-2", "X\nR\n", "without ')'" },
		{ "x $", "X\n", "unexpected '$'" },
		{ "x A.B.C.D$", "X\nA\n", "followed by a name" },
		{ "x Foo", "X\nF\n", "upper case" },
		{ "x LINE... y", "X\nL\nY\n", "must be the last" },
		{ "x {LINE...|b}", "X\nL\nB\n", "must be the last" },
		{ "a b", "A\n", "no help line" },
		{ "a", "A\nextra\n", "more help lines" },
	};
	char err[1024];

	for (size_t i = 0; i < array_size(bad); i++) {
		ck_assert_msg(parse(bad[i].g, bad[i].h, err, sizeof(err)) == -1, "'%s' accepted",
			      bad[i].g);
		ck_assert_msg(strstr(err, bad[i].why) != NULL, "'%s': message '%s' lacks '%s'",
			      bad[i].g, err, bad[i].why);
		/* The message quotes the grammar and puts a caret under the spot. */
		ck_assert_ptr_nonnull(strchr(err, '^'));
	}
	/* The caret is under the offending token. */
	ck_assert_int_eq(parse("show (9-1)", "S\nR\n", err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "\"show (9-1)\"\n        ^"));
}
END_TEST

START_TEST(install_malformed_aborts)
{
	static const struct cmd_def broken = { .grammar = "x <a|b",
					       .help = "X\nA\nB\n",
					       .handler = test_handler };

	cmd_install(ENABLE_NODE, &broken); /* raises SIGABRT (a programming error) */
}
END_TEST

static void count_show(const struct cmd_gnode *tok, void *arg)
{
	if (tok->type != CMD_TOK_END && strcmp(tok->text, "show") == 0)
		(*(int *)arg)++;
}

START_TEST(install_shares_prefixes)
{
	struct cmd_words w;
	int shows = 0;

	/* "show ip bgp [summary]", "show ipv6 route" and the basic "show version" begin with the
	 * same token (same help too): one graph node. */
	cmd_words_split(&w, "");
	ck_assert_int_eq(cmd_match_next(cmd_node_graph(ENABLE_NODE), &w, 0, count_show, &shows), 1);
	cmd_words_free(&w);
	ck_assert_int_eq(shows, 1);
	ck_assert_int_eq(run("show ip bgp"), CMD_SUCCESS);
	ck_assert_int_eq(run("show ipv6 route"), CMD_SUCCESS);
	ck_assert_int_eq(run("show version"), CMD_SUCCESS);
	/* Installing the same definition twice is refused (and harmless). */
	cmd_install(ENABLE_NODE, &enable_defs[0]);
	ck_assert_int_eq(run("arg ipv4 1.2.3.4"), CMD_SUCCESS);
	ck_assert_int_eq(last.calls, 1);
}
END_TEST

/* ---- matching ----------------------------------------------------------------------------- */

START_TEST(match_exact_partial)
{
	ck_assert_int_eq(run("show ip bgp"), CMD_SUCCESS);
	ck_assert_int_eq(last.argc, 3);
	ck_assert_str_eq(arg_text(1), "ip");
	/* Abbreviations expand to the full keyword. */
	ck_assert_int_eq(run("sh ip b su"), CMD_SUCCESS);
	ck_assert_int_eq(last.argc, 4);
	ck_assert_str_eq(arg_text(0), "show");
	ck_assert_str_eq(arg_text(2), "bgp");
	ck_assert_str_eq(arg_text(3), "summary");
	/* "ip" is exact for ip and partial for ipv6: exact wins. */
	ck_assert_int_eq(run("show ip bgp"), CMD_SUCCESS);
	ck_assert_str_eq(arg_text(1), "ip");
	ck_assert_int_eq(run("show ipv route"), CMD_SUCCESS);
	ck_assert_str_eq(arg_text(1), "ipv6");
	/* Keywords are case sensitive. */
	ck_assert_int_eq(run("SHOW ip bgp"), CMD_ERR_NO_MATCH);
	/* White space does not matter. */
	ck_assert_int_eq(run("   show\tip   bgp  "), CMD_SUCCESS);
}
END_TEST

START_TEST(match_ambiguous_incomplete)
{
	/* "s" abbreviates show and shutdown; only shutdown is complete: it runs. */
	ck_assert_int_eq(run("s"), CMD_SUCCESS);
	ck_assert_str_eq(arg_text(0), "shutdown");
	/* "sh ip" could be show ip ... only. */
	ck_assert_int_eq(run("sh ip"), CMD_ERR_INCOMPLETE);
	ck_assert_str_eq(out(), "% Command incomplete.\n");
	/* "pat" leads nowhere complete. */
	ck_assert_int_eq(run("pat"), CMD_ERR_INCOMPLETE);
	/* "alt a 1.2.3.4": A.B.C.D beats WORD; "alt a ab": WORD only. */
	ck_assert_int_eq(run("alt a 1.2.3.4"), CMD_SUCCESS);
	ck_assert_str_eq(last.token[2], "A.B.C.D");
	ck_assert_int_eq(run("alt a ab"), CMD_SUCCESS);
	ck_assert_str_eq(last.token[2], "WORD");
	ck_assert_int_eq(run("alt a 1:2::3"), CMD_SUCCESS);
	ck_assert_str_eq(last.token[2], "X:X::X:X");
	/* Two commands that match equally well are ambiguous. */
	ck_assert_int_eq(run("e"), CMD_ERR_AMBIGUOUS);	    /* echo LINE... / end / exit ... */
	ck_assert_int_eq(run("ex"), CMD_CLOSE);		    /* exit, the only complete match */
	ck_assert_int_eq(run("amb on"), CMD_ERR_AMBIGUOUS); /* one / only */
	ck_assert_str_eq(out(), "% Ambiguous command.\n");
	ck_assert_int_eq(last.calls, 0);
	ck_assert_int_eq(run("amb one"), CMD_SUCCESS); /* exact beats partial */
	ck_assert_str_eq(arg_text(1), "one");
	/* Only complete matches compete: "b" may be bar (needs an address) or baz. */
	ck_assert_int_eq(run("pat d b"), CMD_SUCCESS);
	ck_assert_str_eq(arg_text(2), "baz");
	/* Comments and blank lines do nothing. */
	ck_assert_int_eq(run(""), CMD_SUCCESS);
	ck_assert_int_eq(run("   "), CMD_SUCCESS);
	ck_assert_int_eq(run("! a comment"), CMD_SUCCESS);
	ck_assert_int_eq(run("#another"), CMD_SUCCESS);
	ck_assert_str_eq(out(), "");
	ck_assert_int_eq(last.calls, 0);
}
END_TEST

START_TEST(match_ranges)
{
	ck_assert_int_eq(run("arg range 5"), CMD_SUCCESS);
	ck_assert_int_eq(run("arg range 15"), CMD_SUCCESS);
	ck_assert_str_eq(arg_text(2), "15");
	ck_assert_int_eq(run("arg range 4"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run("arg range 16"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run("arg range -1"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run("arg range +7"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run("arg range 7x"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run("arg range 99999999999999999999999"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run("arg big 18446744073709551615"), CMD_SUCCESS);
	ck_assert_int_eq(run("arg big 18446744073709551616"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run("arg big 0"), CMD_SUCCESS);
}
END_TEST

static int u64_handler_seen;
static uint64_t u64_value;

static int u64_handler(struct vty *v, const struct cmd_args *args)
{
	u64_handler_seen++;
	u64_value = cmd_arg_u64(args, "n", 7);
	return CMD_SUCCESS;
}

START_TEST(match_asnum_and_u64)
{
	static const struct cmd_def num = { .grammar = "num ASNUM$n",
					    .help = "Num\nAS\n",
					    .handler = u64_handler };

	cmd_install(ENABLE_NODE, &num);
	ck_assert_int_eq(run("num 65001"), CMD_SUCCESS);
	ck_assert_uint_eq(u64_value, 65001);
	ck_assert_int_eq(run("num 4294967295"), CMD_SUCCESS);
	ck_assert_uint_eq(u64_value, 4294967295u);
	ck_assert_int_eq(run("num 1.10"), CMD_SUCCESS); /* asdot: 1 * 65536 + 10 */
	ck_assert_uint_eq(u64_value, 65546);
	ck_assert_int_eq(run("num 0"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run("num 4294967296"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run("num 65536.1"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run("num 1.65536"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run("num 1."), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run("num 0.0"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run("num x"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(u64_handler_seen, 3);
}
END_TEST

START_TEST(match_addresses)
{
	static const struct {
		const char *line;
		int status;
	} cases[] = {
		{ "arg ipv4 1.2.3.4", CMD_SUCCESS },
		{ "arg ipv4 0.0.0.0", CMD_SUCCESS },
		{ "arg ipv4 255.255.255.255", CMD_SUCCESS },
		{ "arg ipv4 1.2.3", CMD_ERR_NO_MATCH },
		{ "arg ipv4 1.2.3.4.5", CMD_ERR_NO_MATCH },
		{ "arg ipv4 1.a.3.4", CMD_ERR_NO_MATCH },
		{ "arg ipv4 256.1.1.1", CMD_ERR_NO_MATCH },
		{ "arg ipv4 1..3.4", CMD_ERR_NO_MATCH },
		{ "arg ipv4 ::1", CMD_ERR_NO_MATCH },
		{ "arg ipv4m 1.2.3.0/24", CMD_SUCCESS },
		{ "arg ipv4m 0.0.0.0/0", CMD_SUCCESS },
		{ "arg ipv4m 1.2.3.0/33", CMD_ERR_NO_MATCH },
		{ "arg ipv4m 1.2.3.0/999", CMD_ERR_NO_MATCH },
		{ "arg ipv4m 1.2.3.0/a9", CMD_ERR_NO_MATCH },
		{ "arg ipv4m 1.2.3.0/9a", CMD_ERR_NO_MATCH },
		{ "arg ipv4m 1.2.3.0/", CMD_ERR_NO_MATCH },
		{ "arg ipv4m 1.2.3/9", CMD_ERR_NO_MATCH },
		{ "arg ipv4m 1.2.3.4", CMD_ERR_NO_MATCH },
		{ "arg ipv6 de4d:b33f::cafe", CMD_SUCCESS },
		{ "arg ipv6 ::", CMD_SUCCESS },
		{ "arg ipv6 ::ffff:1.2.3.4", CMD_SUCCESS },
		{ "arg ipv6 de4d:b33f:z::cafe", CMD_ERR_NO_MATCH },
		{ "arg ipv6 de4d:b33f:cafe:", CMD_ERR_NO_MATCH },
		{ "arg ipv6 12::34::56", CMD_ERR_NO_MATCH },
		{ "arg ipv6 1:2:3:4:5:6:7:8:9", CMD_ERR_NO_MATCH },
		{ "arg ipv6 1.2.3.4", CMD_ERR_NO_MATCH },
		{ "arg ipv6 ::/", CMD_ERR_NO_MATCH },
		{ "arg ipv6m dead:beef:cafe::/64", CMD_SUCCESS },
		{ "arg ipv6m ::/0", CMD_SUCCESS },
		{ "arg ipv6m ::/129", CMD_ERR_NO_MATCH },
		{ "arg ipv6m dead::", CMD_ERR_NO_MATCH },
	};

	for (size_t i = 0; i < array_size(cases); i++)
		ck_assert_msg(run(cases[i].line) == cases[i].status, "'%s': want %d, output '%s'",
			      cases[i].line, cases[i].status, out());
	ck_assert_int_eq(run("arg ipv6 de4d:b33f::cafe"), CMD_SUCCESS);
	ck_assert_str_eq(last.name[2], "foo");
	ck_assert_str_eq(last.token[2], "X:X::X:X");
	ck_assert_str_eq(arg_text(2), "de4d:b33f::cafe");
}
END_TEST

START_TEST(match_groups)
{
	/* <a|b> */
	ck_assert_int_eq(run("pat a a"), CMD_SUCCESS);
	ck_assert_int_eq(run("pat a b"), CMD_SUCCESS);
	ck_assert_int_eq(run("pat a c"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run("pat a a x"), CMD_ERR_NO_MATCH);
	/* an alternative that is a sequence */
	ck_assert_int_eq(run("pat b b 1.2.3.4"), CMD_SUCCESS);
	ck_assert_str_eq(last.name[3], "bar");
	ck_assert_int_eq(run("pat b b"), CMD_ERR_INCOMPLETE);
	ck_assert_int_eq(run("pat b a 1.2.3.4"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run("pat c c 1.2.3.4"), CMD_SUCCESS);
	ck_assert_int_eq(run("pat c c"), CMD_ERR_INCOMPLETE);
	/* [optional] */
	ck_assert_int_eq(run("pat e"), CMD_SUCCESS);
	ck_assert_int_eq(last.argc, 2);
	ck_assert_int_eq(run("pat e foo"), CMD_SUCCESS);
	ck_assert_int_eq(last.argc, 3);
	ck_assert_int_eq(run("pat e foo bar"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run("pat f"), CMD_SUCCESS);
	ck_assert_int_eq(run("pat f key"), CMD_SUCCESS);
	ck_assert_int_eq(run("pat f k"), CMD_SUCCESS);
	ck_assert_str_eq(arg_text(2), "key");
	ck_assert_int_eq(run("pat f foo"), CMD_ERR_NO_MATCH);
	/* {a|b}: any order, each at most once, at least one */
	ck_assert_int_eq(run("pat d"), CMD_ERR_INCOMPLETE);
	ck_assert_int_eq(run("pat d baz"), CMD_SUCCESS);
	ck_assert_int_eq(run("pat d foo 1.2.3.4"), CMD_SUCCESS);
	ck_assert_int_eq(run("pat d bar 1::2 foo 3.4.5.6"), CMD_SUCCESS);
	ck_assert_int_eq(last.argc, 6);
	ck_assert_str_eq(last.name[3], "bar");
	ck_assert_str_eq(arg_text(3), "1::2");
	ck_assert_str_eq(last.name[5], "foo");
	ck_assert_str_eq(arg_text(5), "3.4.5.6");
	ck_assert_int_eq(run("pat d foo 3.4.5.6 baz bar ::1 final"), CMD_SUCCESS);
	ck_assert_int_eq(last.argc, 8);
	ck_assert_int_eq(run("pat d baz baz"), CMD_ERR_NO_MATCH); /* once each */
	ck_assert_int_eq(run("pat d foo 1.2.3.4 foo 1.2.3.5"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run("pat d foo"), CMD_ERR_INCOMPLETE);
	ck_assert_int_eq(run("pat d final"), CMD_ERR_NO_MATCH);
}
END_TEST

static char bound_peer[64], bound_v4[64], bound_kw[64];
static uint64_t bound_ka, bound_hold;
static bool bound_has_v6;

static int binding_handler(struct vty *v, const struct cmd_args *args)
{
	const char *s;

	snprintf(bound_peer, sizeof(bound_peer), "%s", (s = cmd_arg(args, "peer")) ? s : "-");
	snprintf(bound_v4, sizeof(bound_v4), "%s", (s = cmd_arg(args, "A.B.C.D")) ? s : "-");
	snprintf(bound_kw, sizeof(bound_kw), "%s", (s = cmd_arg(args, "timers")) ? s : "-");
	bound_has_v6 = cmd_has(args, "X:X::X:X");
	bound_ka = cmd_arg_u64(args, "ka", 1);
	bound_hold = cmd_arg_u64(args, "hold", 1);
	return CMD_SUCCESS;
}

static char bound_hops[64];

static int hops_handler(struct vty *v, const struct cmd_args *args)
{
	const char *s = cmd_arg(args, "hops");

	snprintf(bound_hops, sizeof(bound_hops), "%s", s ? s : "-");
	return CMD_SUCCESS;
}

START_TEST(match_bindings_and_line)
{
	static const struct cmd_def bind = {
		.grammar = "bind <A.B.C.D|X:X::X:X>$peer timers (0-65535)$ka (0-65535)$hold",
		.help = "Bind\nv4\nv6\nTimers\nKA\nHold\n",
		.handler = binding_handler,
	};

	cmd_install(ENABLE_NODE, &bind);
	ck_assert_int_eq(run("bind 10.0.0.1 ti 30 90"), CMD_SUCCESS);
	ck_assert_str_eq(bound_peer, "10.0.0.1");
	ck_assert_str_eq(bound_v4, "10.0.0.1"); /* also found by its token */
	ck_assert_str_eq(bound_kw, "timers");	/* keywords bind their full text */
	ck_assert(!bound_has_v6);
	ck_assert_uint_eq(bound_ka, 30);
	ck_assert_uint_eq(bound_hold, 90);
	ck_assert_int_eq(run("bind 2001:db8::1 timers 0 65535"), CMD_SUCCESS);
	ck_assert_str_eq(bound_peer, "2001:db8::1");
	ck_assert_str_eq(bound_v4, "-");
	ck_assert(bound_has_v6);
	ck_assert_uint_eq(bound_hold, 65535);

	/* A $name binding wins over a keyword with the same text. */
	static const struct cmd_def hops = {
		.grammar = "gtsm hops (1-254)$hops",
		.help = "GTSM\nHops\nCount\n",
		.handler = hops_handler,
	};
	cmd_install(ENABLE_NODE, &hops);
	ck_assert_int_eq(run("gtsm hops 3"), CMD_SUCCESS);
	ck_assert_str_eq(bound_hops, "3");

	/* LINE... takes the rest, joined by single spaces. */
	ck_assert_int_eq(run("echo  hello   big\tworld "), CMD_SUCCESS);
	ck_assert_int_eq(last.argc, 2);
	ck_assert_str_eq(last.token[1], "LINE...");
	ck_assert_str_eq(arg_text(1), "hello big world");
	ck_assert_int_eq(run("echo"), CMD_ERR_INCOMPLETE);
	ck_assert_int_eq(run("echo show ip bgp"), CMD_SUCCESS); /* keywords are just words */
	ck_assert_str_eq(arg_text(1), "show ip bgp");

	/* typed token beats WORD at the same place, per word from the left */
	ck_assert_int_eq(run("neighbor 1.2.3.4 timers 1 3"), CMD_SUCCESS);
	ck_assert_str_eq(last.token[1], "A.B.C.D");
	ck_assert_int_eq(run("neighbor 1.2.3.4 peer-group"), CMD_SUCCESS);
	ck_assert_str_eq(last.token[1], "WORD");
	ck_assert_str_eq(last.name[1], "peer");
	/* hidden commands still run */
	ck_assert_int_eq(run("hidden-cmd"), CMD_SUCCESS);
}
END_TEST

/* ---- error messages and the caret -------------------------------------------------------- */

START_TEST(caret_placement)
{
	ck_assert_int_eq(run("show ip bgp summry"), CMD_ERR_NO_MATCH);
	ck_assert_str_eq(out(), "% Unknown command: show ip bgp summry\n"
				"                               ^\n");
	ck_assert_int_eq(run("  arg   range 99  "), CMD_ERR_NO_MATCH);
	ck_assert_str_eq(out(), "% Unknown command: arg   range 99\n"
				"                               ^\n");
	ck_assert_int_eq(run("bogus"), CMD_ERR_NO_MATCH);
	ck_assert_str_eq(out(), "% Unknown command: bogus\n"
				"                   ^\n");
	ck_assert_int_eq(run("pat a a x"), CMD_ERR_NO_MATCH); /* one word too many */
	ck_assert_str_eq(out(), "% Unknown command: pat a a x\n"
				"                           ^\n");
	/* tabs are echoed as spaces so the caret stays aligned */
	ck_assert_int_eq(run("arg\tipv4 1.2.3"), CMD_ERR_NO_MATCH);
	ck_assert_str_eq(out(), "% Unknown command: arg ipv4 1.2.3\n"
				"                            ^\n");
}
END_TEST

/* ---- `?` and TAB --------------------------------------------------------------------------- */

static int describe(const char *line, struct cmd_help *h, int max)
{
	return cmd_describe(vty, line, h, max);
}

START_TEST(describe_entries)
{
	struct cmd_help h[64];
	int n;

	n = describe("arg ", h, 64);
	ck_assert_int_eq(n, 7);
	ck_assert_str_eq(h[0].token, "asn");
	ck_assert_str_eq(h[0].help, "An AS number");
	ck_assert_str_eq(h[6].token, "range");

	/* complete line: <cr> first */
	n = describe("show ip bgp ", h, 64);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(h[0].token, "<cr>");
	ck_assert_str_eq(h[1].token, "summary");
	ck_assert_str_eq(h[1].help, "Summary");

	/* partial last word: the keywords it may become */
	n = describe("pat d ba", h, 64);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(h[0].token, "bar");
	ck_assert_str_eq(h[1].token, "baz");
	n = describe("show ip", h, 64);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(h[0].token, "ip");
	ck_assert_str_eq(h[1].token, "ipv6");

	/* typed tokens show while a value is being typed */
	n = describe("arg ipv4 1.2.", h, 64);
	ck_assert_int_eq(n, 1);
	ck_assert_str_eq(h[0].token, "A.B.C.D");
	n = describe("alt a 1.2", h, 64);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(h[0].token, "A.B.C.D");
	ck_assert_str_eq(h[1].token, "WORD");
	n = describe("arg range 1", h, 64); /* could still become 10..15 */
	ck_assert_int_eq(n, 1);
	ck_assert_str_eq(h[0].token, "(5-15)");
	ck_assert_int_eq(describe("arg range 3", h, 64), -CMD_ERR_NO_MATCH);
	ck_assert_int_eq(describe("arg ipv6m dead:beef:cafe:", h, 64), 1);

	/* {a|b}: what was used is not offered again; the optional tail and <cr> are */
	n = describe("pat d baz ", h, 64);
	ck_assert_int_eq(n, 4);
	ck_assert_str_eq(h[0].token, "<cr>");
	ck_assert_str_eq(h[1].token, "bar");
	ck_assert_str_eq(h[2].token, "final");
	ck_assert_str_eq(h[3].token, "foo");

	/* LINE... keeps taking words */
	n = describe("echo a ", h, 64);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(h[0].token, "<cr>");
	ck_assert_str_eq(h[1].token, "LINE...");

	/* hidden commands are not listed; nothing fits: an error */
	n = describe("h", h, 64);
	ck_assert_int_eq(n, -CMD_ERR_NO_MATCH);
	ck_assert_int_eq(describe("bogus ", h, 64), -CMD_ERR_NO_MATCH);
	ck_assert_int_eq(describe("show ip bgp summary x", h, 64), -CMD_ERR_NO_MATCH);

	/* the count is the total even when max is smaller */
	ck_assert_int_eq(describe("arg ", h, 2), 7);
	ck_assert_str_eq(h[1].token, "big");
}
END_TEST

START_TEST(describe_print_layout)
{
	sbuf_reset(&vty->out);
	ck_assert_int_eq(cmd_describe_print(vty, "show ip bgp "), CMD_SUCCESS);
	ck_assert_str_eq(out(), "  <cr>\n"
				"  summary  Summary\n");
	sbuf_reset(&vty->out);
	ck_assert_int_eq(cmd_describe_print(vty, "pat c "), CMD_SUCCESS);
	ck_assert_str_eq(out(), "  a  First\n"
				"  b  Second\n"
				"  c  Third\n");
	sbuf_reset(&vty->out);
	ck_assert_int_eq(cmd_describe_print(vty, "zzz"), CMD_ERR_NO_MATCH);
	ck_assert_str_eq(out(), "% There is no matched command.\n");
}
END_TEST

START_TEST(complete_entries)
{
	char *c[32];
	int n;

	n = cmd_complete(vty, "sh", c, 32);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(c[0], "show");
	ck_assert_str_eq(c[1], "shutdown");
	n = cmd_complete(vty, "show i", c, 32);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(c[0], "ip");
	ck_assert_str_eq(c[1], "ipv6");
	n = cmd_complete(vty, "show ip b", c, 32);
	ck_assert_int_eq(n, 1);
	ck_assert_str_eq(c[0], "bgp");
	n = cmd_complete(vty, "pat ", c, 32); /* every keyword that may come next */
	ck_assert_int_eq(n, 6);
	ck_assert_str_eq(c[0], "a");
	ck_assert_str_eq(c[5], "f");
	/* only placeholders next: nothing to complete, but not an error */
	ck_assert_int_eq(cmd_complete(vty, "arg ipv4 ", c, 32), 0);
	ck_assert_int_eq(cmd_complete(vty, "zz", c, 32), 0);
	ck_assert_int_eq(cmd_complete(vty, "zz ", c, 32), -CMD_ERR_NO_MATCH);
	ck_assert_int_eq(cmd_complete(vty, "hid", c, 32), 0); /* hidden */

	sbuf_reset(&vty->out);
	ck_assert_int_eq(cmd_complete_print(vty, "show i"), CMD_SUCCESS);
	ck_assert_str_eq(out(), "ip\nipv6\n");
}
END_TEST

/* ---- `[no]` forms ---------------------------------------------------------------------------- */

/* A pair written as two definitions (BGP_IPV4_NODE) and as one with a leading `[no]`
 * (BGP_IPV6_NODE), next to a `no` command that stays on its own (it takes other words). */
static const struct cmd_def passive_def =
	TC("neighbor A.B.C.D passive", "Neighbor\nAddress\nPassive\n");
static const struct cmd_def no_passive_def =
	TC("no neighbor A.B.C.D passive", "Negate\nNeighbor\nAddress\nPassive\n");
static const struct cmd_def no_or_passive_def =
	TC("[no] neighbor A.B.C.D passive", "Negate\nNeighbor\nAddress\nPassive\n");
static const struct cmd_def no_password_def =
	TC("no neighbor A.B.C.D password [WORD]", "Negate\nNeighbor\nAddress\nPassword\nKey\n");

/* `?` and TAB of line in node, printed. */
static char *help_in(enum node_type node, const char *line)
{
	struct sbuf sb;
	int described, completed;

	vty->node = node;
	sbuf_reset(&vty->out);
	described = cmd_describe_print(vty, line);
	completed = cmd_complete_print(vty, line);
	sbuf_init(&sb);
	sbuf_printf(&sb, "%d %d\n%s", described, completed, out());
	return sbuf_steal(&sb);
}

START_TEST(no_form_by_grammar)
{
	static const char *const lines[] = {
		"",
		"n",
		"no",
		"no ",
		"no n",
		"no neighbor ",
		"no neighbor 1.2.3.4 ",
		"no neighbor 1.2.3.4 p",
		"no neighbor 1.2.3.4 passive ",
		"neighbor ",
		"neighbor 1.2.3.4 ",
		"neighbor 1.2.3.4 passive ",
	};

	cmd_install(BGP_IPV4_NODE, &passive_def);
	cmd_install(BGP_IPV4_NODE, &no_passive_def);
	cmd_install(BGP_IPV4_NODE, &no_password_def);
	cmd_install(BGP_IPV6_NODE, &no_or_passive_def);
	cmd_install(BGP_IPV6_NODE, &no_password_def);

	/* The one definition describes and completes as the two it replaces. */
	for (size_t i = 0; i < array_size(lines); i++) {
		char *two = help_in(BGP_IPV4_NODE, lines[i]),
		     *one = help_in(BGP_IPV6_NODE, lines[i]);

		ck_assert_msg(strcmp(two, one) == 0, "'%s': two definitions:\n%s\n[no]:\n%s",
			      lines[i], two, one);
		XFREE(MTYPE_SBUF, two);
		XFREE(MTYPE_SBUF, one);
	}

	/* It takes both forms, abbreviated too; the handler sees "no" only in the negation. */
	vty->node = BGP_IPV6_NODE;
	ck_assert_int_eq(run("neighbor 1.2.3.4 passive"), CMD_SUCCESS);
	ck_assert_int_eq(last.argc, 3);
	ck_assert_str_eq(arg_text(0), "neighbor");
	ck_assert_int_eq(run("no nei 1.2.3.4 passi"), CMD_SUCCESS);
	ck_assert_int_eq(last.argc, 4);
	ck_assert_str_eq(arg_text(0), "no");
	ck_assert_int_eq(run("no neighbor 1.2.3.4 password"), CMD_SUCCESS);
	ck_assert_str_eq(last.token[3], "password");
	ck_assert_int_eq(run("no neighbor 1.2.3.4"), CMD_ERR_INCOMPLETE);
	ck_assert_int_eq(run("no no neighbor 1.2.3.4 passive"), CMD_ERR_NO_MATCH);
}
END_TEST

/* ---- values of placeholders (providers) -------------------------------------------------- */

static int provider_calls;

static void test_peers(struct vty *v, cmd_value_add add, void *ctx)
{
	ck_assert_ptr_eq(v, vty);
	provider_calls++;
	add("10.0.0.2", ctx);
	add("2001:db8::1", ctx);
	add("10.0.0.1", ctx);
	add("not an address", ctx); /* not one word: never offered */
	add("", ctx);
	add("10.0.1.1", ctx);
}

START_TEST(values_describe_and_complete)
{
	struct cmd_help h[16];
	char *c[16];
	int n;

	ck_assert_int_eq(cmd_value_provider_set("peer", test_peers), 0);
	ck_assert_int_eq(run("conf t"), CMD_SUCCESS);
	ck_assert_int_eq(run("router bgp 1"), CMD_SUCCESS);

	/* `?`: each placeholder with the values it accepts, in the provider's order */
	provider_calls = 0;
	n = describe("neighbor ", h, 16);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(h[0].token, "A.B.C.D");
	ck_assert_str_eq(h[0].values, "10.0.0.2 10.0.0.1 10.0.1.1");
	ck_assert_str_eq(h[1].token, "X:X::X:X");
	ck_assert_str_eq(h[1].values, "2001:db8::1");
	ck_assert_int_eq(provider_calls, 2); /* once per placeholder, not once per path */
	/* a partial word narrows the values */
	n = describe("neighbor 10.0.0", h, 16);
	ck_assert_int_eq(n, 1);
	ck_assert_str_eq(h[0].values, "10.0.0.2 10.0.0.1");
	n = describe("neighbor 10.0.0.1 ", h, 16); /* after the address: keywords, no values */
	ck_assert_int_eq(n, 1);
	ck_assert_str_eq(h[0].token, "remote-as");
	ck_assert_ptr_null(h[0].values);
	n = describe("neighbor 10.0.0.1 remote-as ", h, 16); /* ASNUM binds "as": no provider */
	ck_assert_int_eq(n, 1);
	ck_assert_ptr_null(h[0].values);

	/* the printed layout: values on an indented line under the placeholder */
	sbuf_reset(&vty->out);
	ck_assert_int_eq(cmd_describe_print(vty, "neighbor "), CMD_SUCCESS);
	ck_assert_str_eq(out(), "  A.B.C.D   Neighbor address\n"
				"     10.0.0.2 10.0.0.1 10.0.1.1\n"
				"  X:X::X:X  Neighbor IPv6 address\n"
				"     2001:db8::1\n");

	/* TAB: the values complete like keywords, sorted */
	n = cmd_complete(vty, "neighbor ", c, 16);
	ck_assert_int_eq(n, 4);
	ck_assert_str_eq(c[0], "10.0.0.1");
	ck_assert_str_eq(c[1], "10.0.0.2");
	ck_assert_str_eq(c[2], "10.0.1.1");
	ck_assert_str_eq(c[3], "2001:db8::1");
	n = cmd_complete(vty, "neighbor 10.0.0.", c, 16);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(c[0], "10.0.0.1");
	ck_assert_str_eq(c[1], "10.0.0.2");
	n = cmd_complete(vty, "neighbor 2", c, 16);
	ck_assert_int_eq(n, 1);
	ck_assert_str_eq(c[0], "2001:db8::1");
	ck_assert_int_eq(cmd_complete(vty, "neighbor 192.", c, 16), 0);
	sbuf_reset(&vty->out);
	ck_assert_int_eq(cmd_complete_print(vty, "neighbor 10.0.0.2"), CMD_SUCCESS);
	ck_assert_str_eq(out(), "10.0.0.2\n");
	/* the completed line is a command */
	ck_assert_int_eq(run("neighbor 10.0.0.2 remote-as 5"), CMD_SUCCESS);

	/* `do` from a config node describes the enable command, values included */
	n = describe("do neighbor ", h, 16);
	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(h[0].token, "A.B.C.D");
	ck_assert_str_eq(h[0].values, "10.0.0.2 10.0.0.1 10.0.1.1");
	/* "neighbor WORD$peer peer-group": WORD takes any word, but addresses are listed only
	 * under the address placeholders (a peer-group's name would be listed here) */
	ck_assert_str_eq(h[1].token, "WORD");
	ck_assert_ptr_null(h[1].values);
	ck_assert_str_eq(h[2].token, "X:X::X:X");

	/* removed: back to placeholders only */
	ck_assert_int_eq(cmd_value_provider_set("peer", NULL), 0);
	n = describe("neighbor ", h, 16);
	ck_assert_int_eq(n, 2);
	ck_assert_ptr_null(h[0].values);
	ck_assert_int_eq(cmd_complete(vty, "neighbor ", c, 16), 0);
}
END_TEST

START_TEST(values_provider_table)
{
	char name[16];
	int i;

	ck_assert_int_eq(cmd_value_provider_set("", test_peers), -1);
	ck_assert_int_eq(cmd_value_provider_set(NULL, test_peers), -1);
	ck_assert_int_eq(cmd_value_provider_set("absent", NULL), 0); /* removing nothing is fine */
	for (i = 0; i < CMD_VALUE_PROVIDERS_MAX; i++) {
		snprintf(name, sizeof(name), "v%d", i);
		ck_assert_int_eq(cmd_value_provider_set(name, test_peers), 0);
	}
	ck_assert_int_eq(cmd_value_provider_set("one-too-many", test_peers), -1);
	ck_assert_int_eq(cmd_value_provider_set("v3", test_peers), 0); /* replacing: no new slot */
	for (i = 0; i < CMD_VALUE_PROVIDERS_MAX; i++) {
		snprintf(name, sizeof(name), "v%d", i);
		ck_assert_int_eq(cmd_value_provider_set(name, NULL), 0);
	}
	ck_assert_int_eq(cmd_value_provider_set("one-too-many", test_peers), 0);
	ck_assert_int_eq(cmd_value_provider_set("one-too-many", NULL), 0);
}
END_TEST

/* ---- nodes: exit, end, do, walk-up ------------------------------------------------------------
 */

START_TEST(nodes_exit_end_do)
{
	char p[64];

	ck_assert_int_eq(vty->node, ENABLE_NODE);
	ck_assert_str_eq(vty_prompt(vty, p, sizeof(p)), "test# ");
	ck_assert_int_eq(run("conf t"), CMD_SUCCESS);
	ck_assert_int_eq(vty->node, CONFIG_NODE);
	ck_assert_str_eq(vty_prompt(vty, p, sizeof(p)), "test(config)# ");
	ck_assert_int_eq(run("router bgp 65001"), CMD_SUCCESS);
	ck_assert_int_eq(vty->node, BGP_NODE);
	ck_assert_int_eq(vty->xpath_index, 1);
	ck_assert_str_eq(vty_prompt(vty, p, sizeof(p)), "test(config-router)# ");
	ck_assert_int_eq(run("address-family ipv6 unicast"), CMD_SUCCESS);
	ck_assert_int_eq(vty->node, BGP_IPV6_NODE);
	ck_assert_int_eq(vty->xpath_index, 2);
	ck_assert_str_eq(vty_prompt(vty, p, sizeof(p)), "test(config-router-af)# ");
	ck_assert_int_eq(run("exit-address-family"), CMD_SUCCESS);
	ck_assert_int_eq(vty->node, BGP_NODE);
	ck_assert_int_eq(vty->xpath_index, 1);
	ck_assert_int_eq(run("address-family ipv4"), CMD_SUCCESS);
	ck_assert_int_eq(vty->node, BGP_IPV4_NODE);
	ck_assert_int_eq(run("exit"), CMD_SUCCESS);
	ck_assert_int_eq(vty->node, BGP_NODE);
	ck_assert_int_eq(vty->xpath_index, 1);
	ck_assert_int_eq(run("exit"), CMD_SUCCESS);
	ck_assert_int_eq(vty->node, CONFIG_NODE);
	ck_assert_int_eq(vty->xpath_index, 0);
	ck_assert_int_eq(run("exit"), CMD_SUCCESS);
	ck_assert_int_eq(vty->node, ENABLE_NODE);

	/* end from deep inside goes straight to enable mode */
	ck_assert_int_eq(run("configure"), CMD_SUCCESS);
	ck_assert_int_eq(run("router bgp 1"), CMD_SUCCESS);
	ck_assert_int_eq(run("address-family ipv4"), CMD_SUCCESS);
	ck_assert_int_eq(run("end"), CMD_SUCCESS);
	ck_assert_int_eq(vty->node, ENABLE_NODE);
	ck_assert_int_eq(vty->xpath_index, 0);

	/* do: an enable command from a config node, and back */
	ck_assert_int_eq(run("configure terminal"), CMD_SUCCESS);
	ck_assert_int_eq(run("router bgp 1"), CMD_SUCCESS);
	ck_assert_int_eq(run("do show ip bgp summary"), CMD_SUCCESS);
	ck_assert_int_eq(last.argc, 4);
	ck_assert_int_eq(vty->node, BGP_NODE);
	ck_assert_int_eq(vty->xpath_index, 1);
	ck_assert_int_eq(run("do show version"), CMD_SUCCESS);
	ck_assert_ptr_nonnull(strstr(out(), "skua bgpd "));
	ck_assert_ptr_nonnull(strstr(out(), "ISC"));
	ck_assert_int_eq(run("do bogus"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(vty->node, BGP_NODE);
	/* enable commands are not config commands */
	ck_assert_int_eq(run("show version"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run_walk("show version"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(vty->node, BGP_NODE);

	/* exit at the top ends the session; view mode */
	ck_assert_int_eq(run("end"), CMD_SUCCESS);
	ck_assert_int_eq(run("disable"), CMD_SUCCESS);
	ck_assert_int_eq(vty->node, VIEW_NODE);
	ck_assert_str_eq(vty_prompt(vty, p, sizeof(p)), "test> ");
	ck_assert_int_eq(run("show version"), CMD_SUCCESS);
	ck_assert_int_eq(run("configure terminal"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(run("enable"), CMD_SUCCESS);
	ck_assert_int_eq(vty->node, ENABLE_NODE);
	ck_assert_int_eq(run("end"), CMD_SUCCESS); /* nothing to end */
	ck_assert_int_eq(vty->node, ENABLE_NODE);
	ck_assert_int_eq(run("quit"), CMD_CLOSE);
	ck_assert_int_eq(run("exit"), CMD_CLOSE);
}
END_TEST

START_TEST(nodes_walk_up)
{
	ck_assert_int_eq(run("configure terminal"), CMD_SUCCESS);
	ck_assert_int_eq(run("router bgp 65001"), CMD_SUCCESS);
	ck_assert_int_eq(run("address-family ipv4 unicast"), CMD_SUCCESS);
	ck_assert_int_eq(vty->node, BGP_IPV4_NODE);

	/* Without walk-up, a BGP line in the AF node is unknown and nothing moves. */
	ck_assert_int_eq(run("neighbor 10.0.0.2 remote-as 65002"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(vty->node, BGP_IPV4_NODE);
	ck_assert_int_eq(vty->xpath_index, 2);

	/* With it, the line runs in BGP_NODE and the vty stays there. */
	ck_assert_int_eq(run_walk("neighbor 10.0.0.2 remote-as 65002"), CMD_SUCCESS);
	ck_assert_int_eq(vty->node, BGP_NODE);
	ck_assert_int_eq(vty->xpath_index, 1);
	ck_assert_str_eq(arg_text(1), "10.0.0.2");

	/* Two levels: a CONFIG line from the AF node. */
	ck_assert_int_eq(run("address-family ipv6"), CMD_SUCCESS);
	ck_assert_int_eq(run_walk("hostname r9"), CMD_SUCCESS);
	ck_assert_int_eq(vty->node, CONFIG_NODE);
	ck_assert_int_eq(vty->xpath_index, 0);
	ck_assert_str_eq(vty_get_hostname(), "r9");

	/* Walking up and entering a node again. */
	ck_assert_int_eq(run("router bgp 1"), CMD_SUCCESS);
	ck_assert_int_eq(run("address-family ipv4"), CMD_SUCCESS);
	ck_assert_int_eq(run_walk("router bgp 2"), CMD_SUCCESS);
	ck_assert_int_eq(vty->node, BGP_NODE);
	ck_assert_int_eq(vty->xpath_index, 1);

	/* A line that fits nowhere: the node is unchanged, the caret is under the word that
	 * went furthest in any node (here in BGP_NODE). */
	ck_assert_int_eq(run("address-family ipv4"), CMD_SUCCESS);
	ck_assert_int_eq(run_walk("neighbor 10.0.0.2 remote-ass 1"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(vty->node, BGP_IPV4_NODE);
	ck_assert_int_eq(vty->xpath_index, 2);
	ck_assert_str_eq(out(), "% Unknown command: neighbor 10.0.0.2 remote-ass 1\n"
				"                                     ^\n");

	/* A handler that refuses after a walk-up: back to where the line came from. */
	ck_assert_int_eq(run("exit"), CMD_SUCCESS);
	ck_assert_int_eq(run("address-family ipv4"), CMD_SUCCESS);
	ck_assert_int_eq(run_walk("bgp refuse"), CMD_WARNING_CONFIG_FAILED);
	ck_assert_str_eq(out(), "% refused\n");
	ck_assert_int_eq(vty->node, BGP_IPV4_NODE);
	ck_assert_int_eq(vty->xpath_index, 2);

	/* Walk-up never leaves configuration mode. */
	ck_assert_int_eq(run_walk("shutdown"), CMD_ERR_NO_MATCH);
	ck_assert_int_eq(vty->node, BGP_IPV4_NODE);
}
END_TEST

static int enter_calls, leave_calls;
static bool refuse_enter;

static int hook_enter(struct vty *v)
{
	enter_calls++;
	if (refuse_enter) {
		vty_out(v, "%% configuration is locked by another session\n");
		return -1;
	}
	return 0;
}

static void hook_leave(struct vty *v)
{
	leave_calls++;
}

START_TEST(config_hooks)
{
	struct vty *other;

	cmd_set_config_hooks(hook_enter, hook_leave);
	enter_calls = leave_calls = 0;
	refuse_enter = false;
	ck_assert_int_eq(run("conf t"), CMD_SUCCESS);
	ck_assert_int_eq(enter_calls, 1);
	ck_assert_int_eq(run("router bgp 1"), CMD_SUCCESS);
	ck_assert_int_eq(run("exit"), CMD_SUCCESS);
	ck_assert_int_eq(leave_calls, 0); /* still configuring */
	ck_assert_int_eq(run("exit"), CMD_SUCCESS);
	ck_assert_int_eq(leave_calls, 1);
	ck_assert_int_eq(run("conf t"), CMD_SUCCESS);
	ck_assert_int_eq(run("end"), CMD_SUCCESS);
	ck_assert_int_eq(leave_calls, 2);
	ck_assert_int_eq(run("end"), CMD_SUCCESS); /* not configuring: no leave */
	ck_assert_int_eq(leave_calls, 2);

	refuse_enter = true;
	ck_assert_int_eq(run("conf t"), CMD_WARNING_CONFIG_FAILED);
	ck_assert_str_eq(out(), "% configuration is locked by another session\n");
	ck_assert_int_eq(vty->node, ENABLE_NODE);
	refuse_enter = false;

	/* A session closing in config mode leaves it. */
	other = vty_new(-1);
	ck_assert_int_eq(cmd_execute(other, "configure terminal", false), CMD_SUCCESS);
	vty_free(other);
	ck_assert_int_eq(leave_calls, 3);
}
END_TEST

START_TEST(vty_basics)
{
	ck_assert_int_eq(vty_out(vty, "%s %d", "abc", 42), 6);
	ck_assert_str_eq(out(), "abc 42");
	vty_set_hostname(NULL);
	ck_assert(strlen(vty_get_hostname()) > 0); /* the system's name */
	vty_set_hostname("r1");
	ck_assert_str_eq(vty_get_hostname(), "r1");
}
END_TEST

/* ---- golden files -------------------------------------------------------------------------- */

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	struct sbuf sb;
	char buf[4096];
	size_t n;

	if (!fp)
		return NULL;
	sbuf_init(&sb);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		sbuf_put(&sb, buf, n);
	fclose(fp);
	return sbuf_steal(&sb);
}

/*
 * FRR test_cli style: each input line is echoed after the prompt, then its output. A line
 * ending in '?' is described (the '?' is not part of the line), one ending in "<TAB>" is
 * completed; anything else is executed with walk-up as an interactive vty does.
 */
static void golden_run(const char *in, struct sbuf *res)
{
	struct vty *g = vty_new(-1);
	const char *p = in;
	char prompt[128];

	vty_set_hostname("test"); /* every file starts alike, whatever ran before */
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = XSTRNDUP(MTYPE_CMD_MATCH, p, n);
		size_t len = strlen(line);

		sbuf_reset(&g->out);
		sbuf_printf(res, "%s%s\n", vty_prompt(g, prompt, sizeof(prompt)), line);
		if (len && line[len - 1] == '?') {
			line[len - 1] = '\0';
			cmd_describe_print(g, line);
		} else if (len >= 5 && strcmp(line + len - 5, "<TAB>") == 0) {
			line[len - 5] = '\0';
			cmd_complete_print(g, line);
		} else if (cmd_execute(g, line, true) == CMD_CLOSE) {
			sbuf_puts(&g->out, "(session closed)\n");
		}
		if (g->out.len)
			sbuf_puts(res, g->out.buf);
		XFREE(MTYPE_CMD_MATCH, line);
		p += n + (nl ? 1 : 0);
	}
	vty_free(g);
}

START_TEST(golden_files)
{
	DIR *dir = opendir(CLI_GOLDEN_DIR);
	struct dirent *de;
	int files = 0;

	ck_assert_msg(dir != NULL, "cannot open %s", CLI_GOLDEN_DIR);
	while ((de = readdir(dir)) != NULL) {
		size_t n = strlen(de->d_name);
		char in_path[1024], ref_path[1024], out_path[1024];
		char *in, *ref;
		struct sbuf res;
		FILE *fp;

		if (n < 4 || strcmp(de->d_name + n - 3, ".in") != 0)
			continue;
		snprintf(in_path, sizeof(in_path), "%s/%s", CLI_GOLDEN_DIR, de->d_name);
		snprintf(ref_path, sizeof(ref_path), "%s/%.*s.refout", CLI_GOLDEN_DIR, (int)(n - 3),
			 de->d_name);
		snprintf(out_path, sizeof(out_path), "cli-%.*s.out", (int)(n - 3), de->d_name);
		in = slurp(in_path);
		ref = slurp(ref_path);
		ck_assert_msg(in && ref, "missing %s or %s", in_path, ref_path);
		sbuf_init(&res);
		golden_run(in, &res);
		/*
		 * On a mismatch, leave the actual output in the build directory for
		 * `diff -u REF OUT`; a passing run leaves nothing behind (distcleancheck).
		 */
		if (strcmp(res.buf ? res.buf : "", ref) != 0) {
			fp = fopen(out_path, "w");
			if (fp) {
				fputs(res.buf ? res.buf : "", fp);
				fclose(fp);
			}
		} else {
			unlink(out_path);
		}
		ck_assert_msg(strcmp(res.buf ? res.buf : "", ref) == 0,
			      "%s differs from %s (actual output in %s)", in_path, ref_path,
			      out_path);
		sbuf_free(&res);
		XFREE(MTYPE_SBUF, in);
		XFREE(MTYPE_SBUF, ref);
		files++;
	}
	closedir(dir);
	ck_assert_int_ge(files, 2);
}
END_TEST

static Suite *command_suite(void)
{
	Suite *s = suite_create("command");
	TCase *tc;

	tc = tcase_create("grammar");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, grammar_valid);
	tcase_add_test(tc, grammar_malformed);
	tcase_add_test_raise_signal(tc, install_malformed_aborts, SIGABRT);
	tcase_add_test(tc, install_shares_prefixes);
	suite_add_tcase(s, tc);

	tc = tcase_create("match");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, match_exact_partial);
	tcase_add_test(tc, match_ambiguous_incomplete);
	tcase_add_test(tc, match_ranges);
	tcase_add_test(tc, match_asnum_and_u64);
	tcase_add_test(tc, match_addresses);
	tcase_add_test(tc, match_groups);
	tcase_add_test(tc, match_bindings_and_line);
	tcase_add_test(tc, caret_placement);
	suite_add_tcase(s, tc);

	tc = tcase_create("help");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, describe_entries);
	tcase_add_test(tc, describe_print_layout);
	tcase_add_test(tc, complete_entries);
	tcase_add_test(tc, no_form_by_grammar);
	tcase_add_test(tc, values_describe_and_complete);
	tcase_add_test(tc, values_provider_table);
	suite_add_tcase(s, tc);

	tc = tcase_create("nodes");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, nodes_exit_end_do);
	tcase_add_test(tc, nodes_walk_up);
	tcase_add_test(tc, config_hooks);
	tcase_add_test(tc, vty_basics);
	suite_add_tcase(s, tc);

	tc = tcase_create("golden");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, golden_files);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(command_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
