/* SPDX-License-Identifier: ISC */
/*
 * bgpd's configuration layer end to end: config files and vtysh-style commands through the
 * command engine, the northbound and the skua-bgp callbacks, into test doubles of the bgpd.h
 * lifecycle functions (they record every call, so the tests see what bgpd would be told).
 *
 * Sample files live in tests/unit/conf/: good-*.conf must load and print exactly good-*.ok,
 * and printing is a fixed point (load -> print -> load -> print); bad-*.conf must be refused
 * with the one line of bad-*.err, leaving the running configuration (base.conf) and the bgpd
 * objects untouched.
 */
#include "lib/compat.h"

#include <check.h>
#include <unistd.h>

#include "bgpd/bgp_config.h"
#include "bgpd/bgp_nb.h"
#include "bgpd/bgpd.h"
#include "lib/command.h"
#include "lib/northbound.h"
#include "lib/northbound_cli.h"
#include "lib/vty.h"
#include "lib/yang.h"

#ifndef CONF_DIR
#define CONF_DIR "tests/unit/conf"
#endif

/* ---- test doubles of bgpd.h ------------------------------------------------------------ */

static struct bgp *the_bgp;
static struct sbuf calls; /* one line per call into "bgpd" */

static const char *const change_names[] = {
	[BGP_PEER_CHG_REMOTE_AS] = "REMOTE_AS",
	[BGP_PEER_CHG_DESCRIPTION] = "DESCRIPTION",
	[BGP_PEER_CHG_SHUTDOWN] = "SHUTDOWN",
	[BGP_PEER_CHG_PASSIVE] = "PASSIVE",
	[BGP_PEER_CHG_TIMERS] = "TIMERS",
	[BGP_PEER_CHG_CONNECT_RETRY] = "CONNECT_RETRY",
	[BGP_PEER_CHG_UPDATE_SOURCE] = "UPDATE_SOURCE",
	[BGP_PEER_CHG_MULTIHOP] = "MULTIHOP",
	[BGP_PEER_CHG_AF_ACTIVATION] = "AF_ACTIVATION",
	[BGP_PEER_CHG_PASSWORD] = "PASSWORD",
	[BGP_PEER_CHG_TTL_SECURITY] = "TTL_SECURITY",
};

struct bgp *bgp_get(void)
{
	return the_bgp;
}

struct bgp *bgp_create(uint32_t asn)
{
	struct bgp *bgp = calloc(1, sizeof(*bgp));

	ck_assert_ptr_null(the_bgp);
	bgp->asn = asn;
	bgp->keepalive = BGP_DEFAULT_KEEPALIVE;
	bgp->holdtime = BGP_DEFAULT_HOLDTIME;
	bgp->default_ipv4_unicast = true;
	TAILQ_INIT(&bgp->peers);
	for (int af = 0; af < BGP_AF_MAX; af++)
		TAILQ_INIT(&bgp->networks[af]);
	the_bgp = bgp;
	sbuf_printf(&calls, "bgp_create %u\n", asn);
	return bgp;
}

static void peer_free(struct bgp_peer *peer)
{
	TAILQ_REMOVE(&peer->bgp->peers, peer, entry);
	peer->bgp->peer_count--;
	free(peer);
}

static void bgp_free(struct bgp *bgp)
{
	struct bgp_network *n;

	while (!TAILQ_EMPTY(&bgp->peers))
		peer_free(TAILQ_FIRST(&bgp->peers));
	for (int af = 0; af < BGP_AF_MAX; af++)
		while ((n = TAILQ_FIRST(&bgp->networks[af])) != NULL) {
			TAILQ_REMOVE(&bgp->networks[af], n, entry);
			free(n);
		}
	free(bgp);
}

void bgp_delete(struct bgp *bgp)
{
	struct bgp_peer *peer;

	/* The northbound owns the configuration strings and must have freed them. */
	TAILQ_FOREACH (peer, &bgp->peers, entry) {
		ck_assert_ptr_null(peer->conf.description);
		ck_assert_ptr_null(peer->conf.password);
		ck_assert_ptr_null(peer->conf.update_source_ifname);
	}
	sbuf_printf(&calls, "bgp_delete %u\n", bgp->asn);
	bgp_free(bgp);
	the_bgp = NULL;
}

struct bgp_peer *bgp_peer_lookup(struct bgp *bgp, const struct ipaddr *addr)
{
	struct bgp_peer *peer;

	TAILQ_FOREACH (peer, &bgp->peers, entry)
		if (ipaddr_cmp(&peer->conf.addr, addr) == 0)
			return peer;
	return NULL;
}

struct bgp_peer *bgp_peer_create(struct bgp *bgp, const struct ipaddr *addr)
{
	struct bgp_peer *peer = calloc(1, sizeof(*peer));

	ck_assert_ptr_null(bgp_peer_lookup(bgp, addr));
	peer->bgp = bgp;
	peer->conf.addr = *addr;
	peer->conf.connect_retry = BGP_DEFAULT_CONNECT_RETRY;
	ipaddr_to_str(addr, peer->name, sizeof(peer->name));
	TAILQ_INSERT_TAIL(&bgp->peers, peer, entry);
	bgp->peer_count++;
	sbuf_printf(&calls, "peer_create %s\n", peer->name);
	return peer;
}

void bgp_peer_delete(struct bgp_peer *peer)
{
	ck_assert_ptr_null(peer->conf.description);
	ck_assert_ptr_null(peer->conf.password);
	ck_assert_ptr_null(peer->conf.update_source_ifname);
	sbuf_printf(&calls, "peer_delete %s\n", peer->name);
	peer_free(peer);
}

void bgp_peer_config_changed(struct bgp_peer *peer, enum bgp_peer_change what)
{
	sbuf_printf(&calls, "peer_changed %s %s\n", peer->name, change_names[what]);
}

void bgp_router_id_changed(struct bgp *bgp)
{
	char buf[INET_ADDRSTRLEN];

	sbuf_printf(&calls, "router_id_changed %s\n",
		    inet_ntop(AF_INET, &bgp->router_id, buf, sizeof(buf)));
}

void bgp_timers_changed(struct bgp *bgp)
{
	sbuf_printf(&calls, "timers_changed %u %u\n", bgp->keepalive, bgp->holdtime);
}

void bgp_default_af_changed(struct bgp *bgp)
{
	sbuf_printf(&calls, "default_af_changed %d\n", bgp->default_ipv4_unicast);
}

int bgp_network_add(struct bgp *bgp, enum bgp_af af, const struct prefix *p)
{
	struct bgp_network *n = calloc(1, sizeof(*n));
	char buf[PREFIX_STRLEN];

	n->prefix = *p;
	TAILQ_INSERT_TAIL(&bgp->networks[af], n, entry);
	sbuf_printf(&calls, "network_add %d %s\n", af, prefix_to_str(p, buf, sizeof(buf)));
	return 0;
}

int bgp_network_del(struct bgp *bgp, enum bgp_af af, const struct prefix *p)
{
	struct bgp_network *n;
	char buf[PREFIX_STRLEN];

	TAILQ_FOREACH (n, &bgp->networks[af], entry)
		if (prefix_same(&n->prefix, p)) {
			TAILQ_REMOVE(&bgp->networks[af], n, entry);
			free(n);
			sbuf_printf(&calls, "network_del %d %s\n", af,
				    prefix_to_str(p, buf, sizeof(buf)));
			return 0;
		}
	ck_abort_msg("network_del of a network never added");
	return -1;
}

/* ---- harness ------------------------------------------------------------------------- */

static void start(void)
{
	cmd_init();
	nb_init();
	bgp_config_init();
}

static void stop(void)
{
	struct bgp_peer *peer;

	nb_terminate();
	cmd_terminate();
	if (the_bgp) {
		TAILQ_FOREACH (peer, &the_bgp->peers, entry) {
			XFREE(MTYPE_BGP_PEER_CONF, peer->conf.description);
			XFREE(MTYPE_BGP_PEER_CONF, peer->conf.password);
			XFREE(MTYPE_BGP_PEER_CONF, peer->conf.update_source_ifname);
		}
		bgp_free(the_bgp);
		the_bgp = NULL;
	}
	vty_set_hostname(NULL);
}

static void setup(void)
{
	sbuf_init(&calls);
	ck_assert_int_eq(chdir(CONF_DIR), 0);
	start();
}

static void teardown(void)
{
	stop();
	sbuf_free(&calls);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	struct sbuf sb;
	char buf[4096];
	size_t n;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	sbuf_init(&sb);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sbuf_put(&sb, buf, n);
	fclose(f);
	return sb.buf ? sbuf_steal(&sb) : XSTRDUP(MTYPE_SBUF, "");
}

static char *show(void)
{
	struct sbuf sb;

	sbuf_init(&sb);
	nb_cli_show_config(&sb, nb_running());
	return sbuf_steal(&sb);
}

static void load_ok(const char *path)
{
	struct sbuf errors;

	sbuf_init(&errors);
	ck_assert_msg(nb_config_load_file(path, &errors) == 0, "%s: %s", path,
		      errors.buf ? errors.buf : "");
	ck_assert_uint_eq(errors.len, 0);
	sbuf_free(&errors);
}

static const char *calls_text(void)
{
	return calls.buf ? calls.buf : "";
}

/* A vty in configuration mode, as `configure terminal` leaves it. */
static struct vty *config_vty(void)
{
	struct vty *vty = vty_new(-1);

	cmd_enter_node(vty, CONFIG_NODE);
	return vty;
}

/* Run one line; return its output (valid until the next call). */
static const char *run(struct vty *vty, const char *line, int expect)
{
	int rc;

	sbuf_reset(&vty->out);
	rc = cmd_execute(vty, line, true);
	ck_assert_msg(rc == expect, "\"%s\" returned %d, expected %d: %s", line, rc, expect,
		      vty->out.buf ? vty->out.buf : "");
	return vty->out.buf ? vty->out.buf : "";
}

static void vty_done(struct vty *vty)
{
	vty->node = ENABLE_NODE;
	vty_free(vty);
}

/* ---- sample files -------------------------------------------------------------------- */

static const char *const good_files[] = {
	"good-minimal",		  "good-empty",		"good-full",	    "good-ipv6",
	"good-no-default",	  "good-default-later", "good-quagga",	    "good-no-forms",
	"good-conflict-resolved", "good-sorting",	"good-system-only",
};

static const char *const bad_files[] = {
	"bad-unknown-command", "bad-no-remote-as",	"bad-ttl-multihop",
	"bad-hold-time",       "bad-keepalive-gt-hold", "bad-neighbor-timers",
	"bad-as-mismatch",     "bad-host-bits",		"bad-link-local",
	"bad-password-long",   "bad-ttl-range",		"bad-hostname",
	"bad-no-network",      "bad-activate-unknown",	"bad-router-id-mismatch",
	"bad-incomplete",      "bad-no-instance",	"bad-log-file",
	"bad-ifname-long",     "bad-outside-router",	"bad-must-at-end",
};

START_TEST(t_good_file)
{
	const char *name = good_files[_i];
	char conf[128], ok[128], tmp[] = "/tmp/skua-nb-fixpoint-XXXXXX";
	char *expected, *first, *second;
	struct sbuf body;
	int fd;

	snprintf(conf, sizeof(conf), "%s.conf", name);
	snprintf(ok, sizeof(ok), "%s.ok", name);
	load_ok(conf);
	first = show();
	expected = read_file(ok);
	ck_assert_msg(strcmp(first, expected) == 0, "%s printed:\n%s\nexpected:\n%s", name, first,
		      expected);

	/* The printer is the inverse of the parser: its output loads into the same tree. */
	sbuf_init(&body);
	nb_cli_show_config_body(&body, nb_running());
	sbuf_puts(&body, "end\n");
	fd = mkstemp(tmp);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, body.buf, body.len), (ssize_t)body.len);
	close(fd);
	stop();
	sbuf_reset(&calls);
	start();
	load_ok(tmp);
	second = show();
	ck_assert_msg(strcmp(first, second) == 0, "%s: not a fixed point:\n%s\nthen:\n%s", name,
		      first, second);
	unlink(tmp);
	sbuf_free(&body);
	XFREE(MTYPE_SBUF, expected);
	XFREE(MTYPE_SBUF, first);
	XFREE(MTYPE_SBUF, second);
}
END_TEST

static void bad_file_check(const char *name, bool check_only)
{
	char conf[128], err[128];
	char *expected, *before, *after, *calls_before;
	struct sbuf errors;
	int rc;

	snprintf(conf, sizeof(conf), "%s.conf", name);
	snprintf(err, sizeof(err), "%s.err", name);
	load_ok("base.conf");
	before = show();
	calls_before = strdup(calls_text());
	expected = read_file(err);

	sbuf_init(&errors);
	rc = check_only ? nb_config_check_file(conf, &errors) : nb_config_load_file(conf, &errors);
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(errors.buf && strcmp(errors.buf, expected) == 0,
		      "%s said:\n%s\nexpected:\n%s", name, errors.buf ? errors.buf : "(nothing)",
		      expected);

	/* All or nothing: running and the bgpd objects are as they were. */
	after = show();
	ck_assert_str_eq(before, after);
	ck_assert_str_eq(calls_text(), calls_before);
	ck_assert_str_eq(vty_get_hostname(), "base");

	sbuf_free(&errors);
	free(calls_before);
	XFREE(MTYPE_SBUF, expected);
	XFREE(MTYPE_SBUF, before);
	XFREE(MTYPE_SBUF, after);
}

START_TEST(t_bad_file)
{
	bad_file_check(bad_files[_i], false);
}
END_TEST

START_TEST(t_bad_file_check_only)
{
	bad_file_check(bad_files[_i], true);
}
END_TEST

START_TEST(t_check_file_applies_nothing)
{
	struct sbuf errors;

	sbuf_init(&errors);
	ck_assert_int_eq(nb_config_check_file("good-full.conf", &errors), 0);
	ck_assert_uint_eq(errors.len, 0);
	ck_assert_ptr_null(nb_running());
	ck_assert_str_eq(calls_text(), "");
	ck_assert_ptr_null(the_bgp);
	sbuf_free(&errors);
}
END_TEST

/* A constraint across the tree (the node at fault is not the one the bad line edits): the
 * loader falls back to bisecting the file. The VALIDATE callback of router-id is replaced by
 * one that refuses a neighbor 10.0.0.66. */
static int router_id_crosscheck(struct nb_cb_args *args)
{
	if (args->event == NB_EV_VALIDATE &&
	    yang_dnode_exists(args->dnode, "../neighbors/neighbor[remote-address='10.0.0.66']")) {
		snprintf(args->errmsg, args->errmsg_len,
			 "router-id conflicts with neighbor 10.0.0.66");
		return NB_ERR;
	}
	return NB_OK;
}

START_TEST(t_locate_by_bisection)
{
	static const struct nb_node_info crosscheck = {
		.xpath = "/skua-bgp:bgp/router-id",
		.cbs = { .modify = router_id_crosscheck },
	};
	const struct lysc_node *snode = lys_find_path(yang_ctx(), NULL, crosscheck.xpath, 0);
	char tmp[] = "/tmp/skua-nb-bisect-XXXXXX", expected[128];
	const char *text = "router bgp 65001\n"
			   " bgp router-id 10.0.0.1\n"
			   " neighbor 10.0.0.5 remote-as 1\n"
			   "!\n"
			   " neighbor 10.0.0.66 remote-as 2\n"
			   " neighbor 10.0.0.7 remote-as 3\n"
			   " neighbor 10.0.0.7 description after the bad line\n";
	struct sbuf errors;
	int fd;

	ck_assert_ptr_nonnull(snode);
	((struct lysc_node *)(uintptr_t)snode)->priv = (void *)(uintptr_t)&crosscheck;
	fd = mkstemp(tmp);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	sbuf_init(&errors);
	ck_assert_int_eq(nb_config_load_file(tmp, &errors), -1);
	snprintf(expected, sizeof(expected), "%s:5: router-id conflicts with neighbor 10.0.0.66\n",
		 tmp);
	ck_assert_str_eq(errors.buf, expected);
	ck_assert_ptr_null(nb_running());
	unlink(tmp);
	sbuf_free(&errors);
}
END_TEST

START_TEST(t_missing_file)
{
	struct sbuf errors;

	sbuf_init(&errors);
	ck_assert_int_eq(nb_config_load_file("no-such-file.conf", &errors), -1);
	ck_assert_str_eq(errors.buf, "no-such-file.conf: cannot open the configuration file: No "
				     "such file or directory\n");
	sbuf_free(&errors);
}
END_TEST

/* ---- what bgpd is told ------------------------------------------------------------- */

START_TEST(t_apply_into_bgpd)
{
	struct bgp_peer *p2, *p3, *p4;
	struct ipaddr a;

	load_ok("good-full.conf");
	ck_assert_ptr_nonnull(the_bgp);
	ck_assert_uint_eq(the_bgp->asn, 65001);
	ck_assert(the_bgp->router_id_configured);
	ck_assert_uint_eq(ntohl(the_bgp->router_id.s_addr), 0x0a000001);
	ck_assert_uint_eq(the_bgp->keepalive, 10);
	ck_assert_uint_eq(the_bgp->holdtime, 30);
	ck_assert(the_bgp->default_ipv4_unicast);
	ck_assert_str_eq(vty_get_hostname(), "r1");

	ipaddr_from_str(&a, "10.0.0.2");
	p2 = bgp_peer_lookup(the_bgp, &a);
	ck_assert_ptr_nonnull(p2);
	ck_assert_int_eq(p2->conf.remote_as_type, BGP_REMOTE_AS_SPECIFIED);
	ck_assert_uint_eq(p2->conf.remote_as, 65002);
	ck_assert_str_eq(p2->conf.description, "transit provider A");
	ck_assert_str_eq(p2->conf.password, "s3cret");
	ck_assert(p2->conf.shutdown && p2->conf.passive);
	ck_assert_uint_eq(p2->conf.ttl_security_hops, 2);
	ck_assert_uint_eq(p2->conf.ebgp_multihop, 0);
	ck_assert(p2->conf.timers_configured);
	ck_assert_uint_eq(p2->conf.keepalive, 3);
	ck_assert_uint_eq(p2->conf.holdtime, 9);
	ck_assert_uint_eq(p2->conf.connect_retry, 5);
	ck_assert_int_eq(p2->conf.update_source.family, AF_INET);
	ck_assert_ptr_null(p2->conf.update_source_ifname);
	ck_assert_int_eq(p2->conf.af_activation[BGP_AF_IPV4_UNICAST], BGP_AF_ACT_ON);

	ipaddr_from_str(&a, "10.0.0.3");
	p3 = bgp_peer_lookup(the_bgp, &a);
	ck_assert_int_eq(p3->conf.remote_as_type, BGP_REMOTE_AS_EXTERNAL);
	ck_assert_uint_eq(p3->conf.ebgp_multihop, 255);
	ck_assert_str_eq(p3->conf.update_source_ifname, "eth0");
	ck_assert_int_eq(p3->conf.update_source.family, 0);
	ck_assert(!p3->conf.timers_configured);
	ck_assert_uint_eq(p3->conf.connect_retry, 120);
	ck_assert_int_eq(p3->conf.af_activation[BGP_AF_IPV4_UNICAST], BGP_AF_ACT_OFF);

	ipaddr_from_str(&a, "10.0.0.4");
	p4 = bgp_peer_lookup(the_bgp, &a);
	ck_assert_int_eq(p4->conf.remote_as_type, BGP_REMOTE_AS_INTERNAL);
	ck_assert_uint_eq(p4->conf.ebgp_multihop, 3);
	ck_assert_int_eq(p4->conf.af_activation[BGP_AF_IPV6_UNICAST], BGP_AF_ACT_ON);

	ck_assert_ptr_nonnull(TAILQ_FIRST(&the_bgp->networks[BGP_AF_IPV4_UNICAST]));
	ck_assert_ptr_nonnull(strstr(calls_text(), "network_add 1 2001:db8:100::/48\n"));
	/* The instance first, then its peers; timers told once, as a pair. */
	ck_assert_ptr_eq(strstr(calls_text(), "bgp_create 65001\n"), calls_text());
	ck_assert_ptr_nonnull(strstr(calls_text(), "timers_changed 10 30\n"));
	ck_assert_ptr_null(strstr(calls_text(), "timers_changed 10 180\n"));
	ck_assert_ptr_null(strstr(calls_text(), "peer_changed 10.0.0.2 REMOTE_AS\n"));
}
END_TEST

START_TEST(t_vty_per_command_commits)
{
	struct vty *vty = config_vty();
	struct bgp_peer *peer;
	struct ipaddr a;
	char *before, *after;

	run(vty, "router bgp 65001", CMD_SUCCESS);
	ck_assert_int_eq(vty->node, BGP_NODE);
	ck_assert_str_eq(vty->xpath[0], "/skua-bgp:bgp");
	ck_assert_ptr_nonnull(the_bgp); /* committed by the command itself */
	run(vty, "neighbor 10.0.0.2 remote-as 65002", CMD_SUCCESS);
	run(vty, "neighbor 10.0.0.2 ttl-security hops 1", CMD_SUCCESS);

	/* Refused commands say why and change nothing. */
	before = show();
	sbuf_reset(&calls);
	ck_assert_str_eq(run(vty, "neighbor 10.0.0.2 ebgp-multihop 2", CMD_WARNING_CONFIG_FAILED),
			 "% ebgp-multihop and ttl-security cannot be configured together\n");
	ck_assert_str_eq(run(vty, "neighbor 10.0.0.9 description x", CMD_WARNING_CONFIG_FAILED),
			 "% Specify remote-as or peer-group commands first\n");
	ck_assert_str_eq(run(vty, "timers bgp 100 30", CMD_WARNING_CONFIG_FAILED),
			 "% the keepalive interval must not be greater than the hold time\n");
	ck_assert_str_eq(run(vty, "neighbor 10.0.0.2 timers 5 2", CMD_WARNING_CONFIG_FAILED),
			 "% hold time value must be either 0 or greater than 3\n");
	ck_assert_str_eq(run(vty, "router bgp 65002", CMD_WARNING_CONFIG_FAILED),
			 "% BGP is already running; AS is 65001\n");
	ck_assert_int_eq(vty->node, BGP_NODE); /* a refused walk-up leaves the vty where it was */
	ck_assert_str_eq(calls_text(), "");
	after = show();
	ck_assert_str_eq(after, before);
	XFREE(MTYPE_SBUF, before);
	XFREE(MTYPE_SBUF, after);

	/* One command, one notification of the right kind. */
	ipaddr_from_str(&a, "10.0.0.2");
	peer = bgp_peer_lookup(the_bgp, &a);
	run(vty, "neighbor 10.0.0.2 timers 10 30", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "peer_changed 10.0.0.2 TIMERS\n");
	sbuf_reset(&calls);
	run(vty, "neighbor 10.0.0.2 password secret", CMD_SUCCESS);
	ck_assert_str_eq(peer->conf.password, "secret");
	ck_assert_str_eq(calls_text(), "peer_changed 10.0.0.2 PASSWORD\n");
	sbuf_reset(&calls);
	run(vty, "no neighbor 10.0.0.2 password", CMD_SUCCESS);
	ck_assert_ptr_null(peer->conf.password);
	ck_assert_str_eq(calls_text(), "peer_changed 10.0.0.2 PASSWORD\n");
	sbuf_reset(&calls);
	/* Setting what is already set tells nobody. */
	run(vty, "neighbor 10.0.0.2 remote-as 65002", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "");
	run(vty, "neighbor 10.0.0.2 remote-as external", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "peer_changed 10.0.0.2 REMOTE_AS\n");
	ck_assert_int_eq(peer->conf.remote_as_type, BGP_REMOTE_AS_EXTERNAL);
	sbuf_reset(&calls);
	run(vty, "neighbor 10.0.0.2 update-source lo", CMD_SUCCESS);
	run(vty, "neighbor 10.0.0.2 update-source 2001:db8::1", CMD_SUCCESS);
	ck_assert_ptr_null(peer->conf.update_source_ifname);
	ck_assert_int_eq(peer->conf.update_source.family, AF_INET6);
	run(vty, "no neighbor 10.0.0.2 update-source", CMD_SUCCESS);
	ck_assert_int_eq(peer->conf.update_source.family, 0);
	ck_assert_str_eq(calls_text(), "peer_changed 10.0.0.2 UPDATE_SOURCE\n"
				       "peer_changed 10.0.0.2 UPDATE_SOURCE\n"
				       "peer_changed 10.0.0.2 UPDATE_SOURCE\n");

	/* Address families, and walking back up from them. */
	run(vty, "address-family ipv6", CMD_SUCCESS);
	ck_assert_int_eq(vty->node, BGP_IPV6_NODE);
	run(vty, "network 2001:db8::/32", CMD_SUCCESS);
	run(vty, "neighbor 10.0.0.2 activate", CMD_SUCCESS);
	ck_assert_int_eq(peer->conf.af_activation[BGP_AF_IPV6_UNICAST], BGP_AF_ACT_ON);
	run(vty, "neighbor 10.0.0.3 remote-as 65003", CMD_SUCCESS);
	ck_assert_int_eq(vty->node, BGP_NODE);
	run(vty, "exit", CMD_SUCCESS);
	ck_assert_int_eq(vty->node, CONFIG_NODE);

	/* Gone with the instance: peers, strings, networks. */
	run(vty, "router bgp 65001", CMD_SUCCESS);
	run(vty, "neighbor 10.0.0.3 description something", CMD_SUCCESS);
	sbuf_reset(&calls);
	run(vty, "no router bgp 65001", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "bgp_delete 65001\n");
	ck_assert_ptr_null(the_bgp);
	ck_assert_uint_eq(MTYPE_BGP_PEER_CONF->allocated, 0);
	ck_assert_str_eq(run(vty, "no router bgp", CMD_WARNING_CONFIG_FAILED),
			 "% No BGP process is configured\n");
	vty_done(vty);
}
END_TEST

START_TEST(t_vty_neighbor_delete_and_idempotence)
{
	struct vty *vty = config_vty();

	run(vty, "router bgp 65001", CMD_SUCCESS);
	run(vty, "neighbor 10.0.0.2 remote-as 65002", CMD_SUCCESS);
	run(vty, "neighbor 10.0.0.2 description d", CMD_SUCCESS);
	sbuf_reset(&calls);
	/* FRR: deleting an unknown neighbor is fine; its settings are not. */
	run(vty, "no neighbor 10.0.0.99", CMD_SUCCESS);
	ck_assert_str_eq(run(vty, "no neighbor 10.0.0.99 passive", CMD_WARNING_CONFIG_FAILED),
			 "% Specify remote-as or peer-group commands first\n");
	run(vty, "no neighbor 10.0.0.2 passive", CMD_SUCCESS); /* not set: nothing to do */
	ck_assert_str_eq(calls_text(), "");
	run(vty, "no neighbor 10.0.0.2 remote-as 65002", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "peer_delete 10.0.0.2\n");
	ck_assert_uint_eq(MTYPE_BGP_PEER_CONF->allocated, 0);
	ck_assert_uint_eq(the_bgp->peer_count, 0);
	vty_done(vty);
}
END_TEST

START_TEST(t_show_commands)
{
	struct vty *vty = vty_new(-1);
	char *expected;
	const char *out;

	load_ok("good-full.conf");
	expected = show();
	ck_assert_str_eq(run(vty, "show running-config", CMD_SUCCESS), expected);
	ck_assert_str_eq(run(vty, "write terminal", CMD_SUCCESS), expected);
	out = run(vty, "show running-config json", CMD_SUCCESS);
	ck_assert_ptr_nonnull(strstr(out, "\"skua-bgp:bgp\": {"));
	ck_assert_ptr_nonnull(strstr(out, "\"local-as\": 65001"));
	ck_assert_ptr_nonnull(strstr(out, "\"skua-system:system\": {"));
	ck_assert_ptr_nonnull(strstr(out, "\"ttl-security\": 2"));
	XFREE(MTYPE_SBUF, expected);

	/* And from a config node through `do`. */
	cmd_enter_node(vty, BGP_NODE);
	ck_assert_ptr_nonnull(
		strstr(run(vty, "do show running-config", CMD_SUCCESS), "router bgp 65001\n"));
	vty_done(vty);

	/* Nothing configured. */
	stop();
	start();
	vty = vty_new(-1);
	ck_assert_str_eq(run(vty, "show running-config", CMD_SUCCESS),
			 "Building configuration...\n\nCurrent configuration:\n!\nend\n");
	ck_assert_str_eq(run(vty, "show running-config json", CMD_SUCCESS), "{\n}\n");
	vty_done(vty);
}
END_TEST

START_TEST(t_every_setting_is_applied)
{
	struct sbuf missing;

	/* Every leaf of both models reaches a callback: none is silently ignored. */
	sbuf_init(&missing);
	ck_assert_msg(nb_check_coverage(&missing) == 0, "not applied:\n%s", missing.buf);
	sbuf_free(&missing);
}
END_TEST

START_TEST(t_system_commands)
{
	struct vty *vty = config_vty();

	run(vty, "hostname r9", CMD_SUCCESS);
	ck_assert_str_eq(vty_get_hostname(), "r9");
	ck_assert_str_eq(run(vty, "hostname -x", CMD_WARNING_CONFIG_FAILED),
			 "% Please specify string starting with alphabet or number\n");
	ck_assert_str_eq(vty_get_hostname(), "r9");
	run(vty, "log syslog notifications", CMD_SUCCESS);
	run(vty, "log file /dev/null errors", CMD_SUCCESS);
	run(vty, "log file /dev/null", CMD_SUCCESS); /* the level back to the default */
	ck_assert_ptr_nonnull(
		strstr(run(vty, "do show running-config", CMD_SUCCESS),
		       "!\nhostname r9\nlog file /dev/null\nlog syslog notifications\n!\nend\n"));
	/* Removing the other top-level tree keeps this one. */
	run(vty, "router bgp 65001", CMD_SUCCESS);
	run(vty, "exit", CMD_SUCCESS);
	run(vty, "no router bgp", CMD_SUCCESS);
	ck_assert_ptr_null(the_bgp);
	ck_assert_ptr_nonnull(
		strstr(run(vty, "do show running-config", CMD_SUCCESS), "hostname r9\n"));
	run(vty, "no log file", CMD_SUCCESS);
	run(vty, "no log syslog", CMD_SUCCESS);
	run(vty, "no hostname", CMD_SUCCESS);
	ck_assert_str_ne(vty_get_hostname(), "r9");
	ck_assert_str_eq(run(vty, "do show running-config", CMD_SUCCESS),
			 "Building configuration...\n\nCurrent configuration:\n!\nend\n");
	vty_done(vty);
}
END_TEST

static Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *files = tcase_create("files");
	TCase *cli = tcase_create("cli");

	tcase_add_checked_fixture(files, setup, teardown);
	tcase_add_loop_test(files, t_good_file, 0, (int)array_size(good_files));
	tcase_add_loop_test(files, t_bad_file, 0, (int)array_size(bad_files));
	tcase_add_loop_test(files, t_bad_file_check_only, 0, (int)array_size(bad_files));
	tcase_add_test(files, t_check_file_applies_nothing);
	tcase_add_test(files, t_missing_file);
	tcase_add_test(files, t_locate_by_bisection);
	suite_add_tcase(s, files);

	tcase_add_checked_fixture(cli, setup, teardown);
	tcase_add_test(cli, t_apply_into_bgpd);
	tcase_add_test(cli, t_vty_per_command_commits);
	tcase_add_test(cli, t_vty_neighbor_delete_and_idempotence);
	tcase_add_test(cli, t_show_commands);
	tcase_add_test(cli, t_every_setting_is_applied);
	tcase_add_test(cli, t_system_commands);
	suite_add_tcase(s, cli);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(config_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
