/* SPDX-License-Identifier: ISC */
/*
 * bgpd's configuration layer end to end: config files and vtysh-style commands through the
 * command engine, the northbound and the skua-bgp callbacks, into test doubles of the layers
 * the configuration drives (the instance's lifecycle, the RIB's re-evaluation, the forwarding
 * settings: they record every call, so the tests see what bgpd would be told).
 *
 * Sample files live in tests/unit/conf/: good-*.conf and good-*.json must load and print
 * exactly good-*.ok, and printing is a fixed point in both forms (load -> show running-config
 * -> load that -> identical text and identical JSON; the JSON printout loads back into the
 * same tree too); bad-*.conf and bad-*.json must be refused with the one line of bad-*.err,
 * at start-up, by bgpd -C and on a reload, leaving the running configuration (base.conf;
 * compared as text and as JSON) and the bgpd objects untouched.
 *
 * Then the configuration lifecycle: reload applies only the diff, `write memory` saves
 * atomically, configure private/exclusive sessions, three-way merges at commit, confirmed
 * commits and the history with rollback.
 */
#include "lib/compat.h"

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bgpd/config/bgp_config.h"
#include "bgpd/config/bgp_nb.h"
#include "bgpd/core/bgp.h"
#include "bgpd/fib/bgp_fib.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/policy/bgp_routemap.h"
#include "bgpd/rib/bgp_gshut.h"
#include "bgpd/rib/bgp_policy_reeval.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "bgpd/rtr/rtr.h"
#include "bgpd/session/bgp_dynamic.h"
#include "bgpd/session/bgp_security.h"
#include "lib/command.h"
#include "lib/event.h"
#include "lib/log.h"
#include "lib/log_file.h"
#include "lib/northbound.h"
#include "lib/northbound_cli.h"
#include "lib/vty.h"
#include "lib/yang.h"

#ifndef CONF_DIR
#define CONF_DIR "tests/unit/conf"
#endif

/* ---- test doubles of the layers below bgpd/config ------------------------------------- */

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
	[BGP_PEER_CHG_CONNECTED_CHECK] = "CONNECTED_CHECK",
	[BGP_PEER_CHG_LOCAL_AS] = "LOCAL_AS",
};

static struct event_base *test_base; /* the timer of commit confirmed runs here */

struct bgp *bgp_get(void)
{
	return the_bgp;
}

struct bgp *bgp_create(uint32_t asn, struct event_base *base)
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
	/* What the northbound installed (the daemon's bgp_peer_delete() frees the same). */
	bgp_peer_config_strings_free(&peer->conf);
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
	for (int af = 0; af < BGP_AF_MAX; af++)
		for (int dir = 0; dir < BGP_DIR_MAX; dir++)
			ck_assert_ptr_null(peer->conf.plist[af][dir]);
	sbuf_printf(&calls, "peer_delete %s\n", peer->name);
	peer_free(peer);
}

void bgp_peer_config_changed(struct bgp_peer *peer, enum bgp_peer_change what)
{
	sbuf_printf(&calls, "peer_changed %s %s\n", peer->name, change_names[what]);
}

/* The RTR manager (bgpd/rtr/rtr.h): what the rpki node tells it. rtr_cache_check() keeps
 * the contract the configuration layer relies on: files it cannot read are refused, with
 * the file and the reason (in bgpd/rtr's words for the CA file). */
static struct rtr_timers rtr_timers_now = { RTR_DEFAULT_POLLING_PERIOD, RTR_DEFAULT_RETRY_INTERVAL,
					    RTR_DEFAULT_EXPIRE_INTERVAL };

static int file_readable(const char *what, const char *path, char *err, size_t errlen)
{
	if (!path || access(path, R_OK) == 0)
		return 0;
	snprintf(err, errlen, "cannot read %s %s: %s", what, path, strerror(errno));
	return -errno;
}

int rtr_cache_check(const struct rtr_cache_config *c, char *err, size_t errlen)
{
	int rc;

	if ((rc = file_readable("CA file", c->ca_file, err, errlen)) < 0 ||
	    (rc = file_readable("client certificate", c->client_cert, err, errlen)) < 0 ||
	    (rc = file_readable("client key", c->client_key, err, errlen)) < 0)
		return rc;
	return 0;
}

int rtr_cache_set(const struct rtr_cache_config *c, char *err, size_t errlen)
{
	sbuf_printf(&calls, "rtr_cache_set %u %s %s %u%s%s%s%s%s%s%s%s%s%s\n", c->preference,
		    c->transport == RTR_TRANSPORT_TLS ? "tls" : "tcp", c->host, c->port,
		    c->source ? " source " : "", c->source ? c->source : "",
		    c->password ? " password " : "", c->password ? c->password : "",
		    c->ca_file ? " ca " : "", c->ca_file ? c->ca_file : "",
		    c->client_cert ? " cert " : "", c->client_cert ? c->client_cert : "",
		    c->client_key ? " key " : "", c->client_key ? c->client_key : "");
	return rtr_cache_check(c, err, errlen);
}

void rtr_cache_del(uint8_t preference)
{
	sbuf_printf(&calls, "rtr_cache_del %u\n", preference);
}

void rtr_timers_set(const struct rtr_timers *t)
{
	rtr_timers_now = *t;
	sbuf_printf(&calls, "rtr_timers_set %u %u %u\n", t->polling_period, t->retry_interval,
		    t->expire_interval);
}

void rtr_timers_get(struct rtr_timers *t)
{
	*t = rtr_timers_now;
}

void bgp_policy_changed(struct bgp_peer *peer, enum bgp_af af, enum bgp_dir dir)
{
	const char *name = peer->conf.plist[af][dir];

	sbuf_printf(&calls, "policy_changed %s %s %s %s\n", peer->name,
		    af == BGP_AF_IPV4_UNICAST ? "ipv4" : "ipv6", dir == BGP_DIR_IN ? "in" : "out",
		    name ? name : "-");
}

void bgp_max_prefix_changed(struct bgp_peer *peer, enum bgp_af af)
{
	const struct bgp_maxpfx *m = &peer->conf.maxpfx[af];

	sbuf_printf(&calls, "maxpfx %s %s %u %u %s %u\n", peer->name,
		    af == BGP_AF_IPV4_UNICAST ? "ipv4" : "ipv6", m->max, m->threshold,
		    m->warning_only ? "warning-only" : "-", m->restart);
}

void bgp_ebgp_requires_policy_changed(struct bgp *bgp)
{
	sbuf_printf(&calls, "ebgp_requires_policy %s\n", bgp->ebgp_requires_policy ? "on" : "off");
}

void bgp_graceful_shutdown_changed(struct bgp *bgp)
{
	sbuf_printf(&calls, "graceful_shutdown %s\n", bgp->graceful_shutdown ? "on" : "off");
}

/* The listeners' rule capacity, as a double: at most 8 GTSM neighbors per family here, so
 * that a sample file shows the refusal (the real count is tested in check_bgp_gtsm). */
#define TEST_GTSM_CAPACITY 8
int bgp_gtsm_rules_check(const struct bgp_gtsm_rule *rules, size_t n, char *msg, size_t size)
{
	size_t v4 = 0;

	for (size_t i = 0; i < n; i++)
		v4 += rules[i].addr.family == AF_INET;
	if (v4 <= TEST_GTSM_CAPACITY && n - v4 <= TEST_GTSM_CAPACITY)
		return 0;
	snprintf(msg, size, "too many GTSM neighbors for the listener: %zu IPv4, %zu IPv6", v4,
		 n - v4);
	return -1;
}

/* Dynamic neighbors, as doubles: a list the tests fill (bgp_dynamic.c keeps the real one). */
static struct {
	struct ipaddr addr;
	char group[BGP_PEER_GROUP_NAME_MAX + 1];
} test_dyn[8];
static size_t test_ndyn;
static unsigned test_dyn_applies;

DEFINE_MTYPE(BGP_DYNAMIC, "BGP dynamic neighbors and listen ranges");
static size_t test_nranges;

void bgp_dynamic_set_ranges(struct bgp_listen_range *ranges, size_t n, unsigned limit)
{
	(void)limit;
	for (size_t i = 0; i < n; i++)
		XFREE(MTYPE_BGP_DYNAMIC, ranges[i].password);
	XFREE(MTYPE_BGP_DYNAMIC, ranges);
	test_nranges = n;
	test_dyn_applies++;
}

void bgp_dynamic_reset(void)
{
	test_ndyn = 0;
}

void bgp_dynamic_set_apply(bgp_dynamic_apply_fn fn)
{
	(void)fn;
}

void bgp_dynamic_foreach(void (*cb)(const struct ipaddr *addr, const char *group, void *arg),
			 void *arg)
{
	for (size_t i = 0; i < test_ndyn; i++)
		cb(&test_dyn[i].addr, test_dyn[i].group, arg);
}

bool bgp_dynamic_lookup(const struct ipaddr *addr, const char **group)
{
	for (size_t i = 0; i < test_ndyn; i++)
		if (ipaddr_cmp(&test_dyn[i].addr, addr) == 0) {
			if (group)
				*group = test_dyn[i].group;
			return true;
		}
	return false;
}

void bgp_dynamic_forget(const struct ipaddr *addr)
{
	for (size_t i = 0; i < test_ndyn; i++)
		if (ipaddr_cmp(&test_dyn[i].addr, addr) == 0) {
			test_dyn[i] = test_dyn[--test_ndyn];
			return;
		}
}

void bgp_policy_soft_reconfig_changed(struct bgp_peer *peer, enum bgp_af af)
{
	sbuf_printf(&calls, "soft_reconfig %s %s %d\n", peer->name,
		    af == BGP_AF_IPV4_UNICAST ? "ipv4" : "ipv6", peer->conf.soft_reconfig[af]);
}

void bgp_router_id_changed(struct bgp *bgp)
{
	char buf[INET_ADDRSTRLEN];

	sbuf_printf(&calls, "router_id_changed %s\n",
		    inet_ntop(AF_INET, &bgp->router_id, buf, sizeof(buf)));
}

void bgp_confed_changed(struct bgp *bgp)
{
	sbuf_printf(&calls, "confed_changed %u", bgp->confed_id);
	for (unsigned i = 0; i < bgp->confed_npeers; i++)
		sbuf_printf(&calls, " %u", bgp->confed_peers[i]);
	sbuf_puts(&calls, "\n");
}

void bgp_timers_changed(struct bgp *bgp)
{
	sbuf_printf(&calls, "timers_changed %u %u\n", bgp->keepalive, bgp->holdtime);
}

void bgp_fib_config_changed(struct bgp *bgp)
{
	sbuf_printf(&calls, "fib_changed install=%d table=%u retain=%d\n", bgp->fib_install,
		    bgp->fib_table, bgp->fib_retain);
}

void bgp_maxpaths_changed(struct bgp *bgp, enum bgp_af af)
{
	sbuf_printf(&calls, "maxpaths_changed %s %u %u\n",
		    af == BGP_AF_IPV4_UNICAST ? "ipv4" : "ipv6", bgp->maxpaths[af][0],
		    bgp->maxpaths[af][1]);
}

void bgp_bestpath_changed(struct bgp *bgp)
{
	const struct bgp_bestpath *b = &bgp->bestpath;

	sbuf_printf(&calls,
		    "bestpath_changed dmed=%d acm=%d ignore=%d confed=%d relax=%d rid=%d "
		    "med-confed=%d worst=%d\n",
		    b->deterministic_med, b->always_compare_med, b->aspath_ignore, b->aspath_confed,
		    b->multipath_relax, b->compare_routerid, b->med_confed,
		    b->med_missing_as_worst);
}

void bgp_network_check_sync(struct bgp *bgp)
{
	sbuf_printf(&calls, "network_check_sync import-check=%d\n", bgp->network_import_check);
}

void bgp_redist_changed(struct bgp *bgp)
{
	static const char *const names[] = { "connected", "static", "kernel" };

	sbuf_puts(&calls, "redist_changed");
	for (int af = 0; af < BGP_AF_MAX; af++)
		for (int t = 0; t < BGP_REDIST_MAX; t++)
			if (bgp->redist[af][t].on)
				sbuf_printf(&calls, " %s/%s%s%u%s%s",
					    af == BGP_AF_IPV4_UNICAST ? "ipv4" : "ipv6", names[t],
					    bgp->redist[af][t].metric_set ? ":m" : "",
					    bgp->redist[af][t].metric,
					    bgp->redist[af][t].rmap[0] ? ":" : "",
					    bgp->redist[af][t].rmap);
	sbuf_puts(&calls, "\n");
}

void bgp_default_af_changed(struct bgp *bgp)
{
	sbuf_printf(&calls, "default_af_changed %d\n", bgp->default_ipv4_unicast);
}

void rib_aggregate_add(struct bgp *bgp, enum bgp_af af, const struct prefix *p,
		       const struct rib_aggregate_opts *opts)
{
	char buf[PREFIX_STRLEN];

	(void)bgp;
	sbuf_printf(&calls, "aggregate_add %d %s%s%s", af, prefix_to_str(p, buf, sizeof(buf)),
		    opts->as_set ? " as-set" : "", opts->summary_only ? " summary-only" : "");
	if (opts->rmap[0])
		sbuf_printf(&calls, " route-map %s", opts->rmap);
	if (opts->origin_set)
		sbuf_printf(&calls, " origin %u", opts->origin);
	if (opts->match_med)
		sbuf_puts(&calls, " matching-MED-only");
	if (opts->suppress_map[0])
		sbuf_printf(&calls, " suppress-map %s", opts->suppress_map);
	sbuf_puts(&calls, "\n");
}

void rib_default_originate_changed(struct bgp *bgp)
{
	(void)bgp;
	sbuf_puts(&calls, "default_originate_changed\n");
}

void rib_aggregate_del(struct bgp *bgp, enum bgp_af af, const struct prefix *p)
{
	char buf[PREFIX_STRLEN];

	(void)bgp;
	sbuf_printf(&calls, "aggregate_del %d %s\n", af, prefix_to_str(p, buf, sizeof(buf)));
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

int bgp_network_set_rmap(struct bgp *bgp, enum bgp_af af, const struct prefix *p, const char *rmap)
{
	char buf[PREFIX_STRLEN];

	(void)bgp;
	sbuf_printf(&calls, "network_rmap %d %s %s\n", af, prefix_to_str(p, buf, sizeof(buf)),
		    rmap ? rmap : "-");
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

/* What the stand-in of bgpd's kernel probe lacks (a test sets these; setup clears them). */
static bool lacks_md5, lacks_minttl;

int bgp_peer_security_check(const struct ipaddr *addr, bool password, unsigned ttl_security_hops,
			    char *msg, size_t size)
{
	(void)addr;
	if (size)
		msg[0] = '\0';
	if (password && lacks_md5) {
		snprintf(msg, size, "this kernel lacks TCP_MD5SIG (IPv4: Operation not permitted)");
		return -1;
	}
	if (ttl_security_hops && lacks_minttl) {
		snprintf(msg, size, "this kernel lacks IP_MINTTL (IPv4: Operation not permitted)");
		return -1;
	}
	return 0;
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
	lacks_md5 = lacks_minttl = false;
	sbuf_init(&calls);
	ck_assert_int_eq(chdir(CONF_DIR), 0);
	/* The samples log to /tmp/skua-unit-check-config.log: a log file set from a vty (or by
	 * a test not run as root) must be in the log directory. */
	log_file_set_dir("/tmp");
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

/* What `show running-config json` prints. */
static char *show_json(void)
{
	struct vty *vty = vty_new(-1);
	char *s;

	ck_assert_int_eq(cmd_execute(vty, "show running-config json", false), CMD_SUCCESS);
	s = sbuf_steal(&vty->out);
	vty_free(vty);
	return s;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fputs(text, f) >= 0, 1);
	ck_assert_int_eq(fclose(f), 0);
}

/* The file name with its extension replaced. */
static void with_ext(char *buf, size_t size, const char *name, const char *ext)
{
	const char *dot = strrchr(name, '.');

	snprintf(buf, size, "%.*s%s", dot ? (int)(dot - name) : (int)strlen(name), name, ext);
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
	"good-minimal.conf",
	"good-empty.conf",
	"good-full.conf",
	"good-ipv6.conf",
	"good-no-default.conf",
	"good-default-later.conf",
	"good-quagga.conf",
	"good-no-forms.conf",
	"good-conflict-resolved.conf",
	"good-sorting.conf",
	"good-system-only.conf",
	"good-json-full.json",
	"good-json-defaults.json",
	"good-json-empty.json",
	"good-frr.conf",
	"good-frr-switches.conf",
	"good-frr-daemon-lines.conf",
	"good-prefix-list.conf",
	"good-neighbor-prefix-list.conf",
	"good-peer-group.conf",
	"good-aspath-list.conf",
	"good-route-map.conf",
	"good-route-map-peer-tag.conf",
	"good-community-list.conf",
	"good-community-list-numbered.conf",
	"good-large-community.conf",
	"good-extcommunity-list.conf",
	"good-route-reflector.conf",
	"good-fib.conf",
	"good-neighbor-options.conf",
	"good-rpki.conf",
	"good-ops.conf",
	"good-llgr.conf",
	"good-aggregate.conf",
	"good-af-order.conf",
	"good-set-community.conf",
	"good-network-route-map.conf",
	"good-aggregate-options.conf",
	"good-netmask.conf",
	"good-default-originate.conf",
};

/* At least 40 (issue 4): types, ranges, conflicts, dangling references, garbage, truncated
 * files, duplicates, bad JSON. */
static const char *const bad_files[] = {
	"bad-unknown-command.conf",
	"bad-five-lines.conf",
	"bad-password-encryption.conf",
	"bad-frr-unsupported.conf",
	"bad-five-mixed.conf",
	"bad-log-precision.conf",
	"bad-no-remote-as.conf",
	"bad-ttl-multihop.conf",
	"bad-hold-time.conf",
	"bad-keepalive-gt-hold.conf",
	"bad-neighbor-timers.conf",
	"bad-as-mismatch.conf",
	"bad-host-bits.conf",
	"bad-link-local.conf",
	"bad-password-long.conf",
	"bad-ttl-range.conf",
	"bad-hostname.conf",
	"bad-no-network.conf",
	"bad-no-aggregate.conf",
	"bad-aggregate-host.conf",
	"bad-activate-unknown.conf",
	"bad-router-id-mismatch.conf",
	"bad-incomplete.conf",
	"bad-no-instance.conf",
	"bad-log-file.conf",
	"bad-ifname-long.conf",
	"bad-outside-router.conf",
	"bad-must-at-end.conf",
	"bad-asn-zero.conf",
	"bad-asn-range.conf",
	"bad-router-id-type.conf",
	"bad-garbage.conf",
	"bad-truncated.conf",
	"bad-duplicate-instance.conf",
	"bad-duplicate-conflict.conf",
	"bad-multihop-range.conf",
	"bad-connect-zero.conf",
	"bad-send-hold-zero.conf",
	"bad-shutdown-message-long.conf",
	"bad-json-shutdown-message-alone.json",
	"bad-description-long.conf",
	"bad-update-source-dangling.conf",
	"bad-no-description-dangling.conf",
	"bad-log-level.conf",
	"bad-ipv6-host-bits.conf",
	"bad-ipv4-network-v6.conf",
	"bad-af-outside.conf",
	"bad-peer-malformed.conf",
	"bad-hostname-long.conf",
	"bad-ttl-zero.conf",
	"bad-keepalive-range.conf",
	"bad-fib-table.conf",
	"bad-maxpaths-range.conf",
	"bad-json-syntax.json",
	"bad-json-truncated.json",
	"bad-json-type.json",
	"bad-json-range.json",
	"bad-json-must.json",
	"bad-json-unknown.json",
	"bad-json-duplicate.json",
	"bad-json-duplicate-key.json",
	"bad-json-mandatory.json",
	"bad-json-keepalive.json",
	"bad-json-garbage.json",
	"bad-json-module.json",
	"bad-json-prefix.json",
	"bad-json-hostname.json",
	"bad-json-ifname-space.json",
	"bad-json-password-space.json",
	"bad-json-description-newline.json",
	"bad-json-plist-description-tab.json",
	"bad-frr-defaults.conf",
	"bad-plist-le-short.conf",
	"bad-plist-ge-gt-le.conf",
	"bad-plist-ge-range.conf",
	"bad-plist-description-long.conf",
	"bad-json-plist-family.json",
	"bad-gtsm-too-many.conf",
	"bad-aspath-regex.conf",
	"bad-rmap-goto-back.conf",
	"bad-rmap-local-pref.conf",
	"bad-rmap-exclude-zero.conf",
	"bad-rmap-tag-zero.conf",
	"bad-rmap-source-protocol.conf",
	"bad-clist-type-change.conf",
	"bad-rmap-community.conf",
	"bad-lclist-value.conf",
	"bad-eclist-value.conf",
	"bad-rmap-extcommunity.conf",
	"bad-rpki-ca-unreadable.conf",
	"bad-rpki-cert-no-key.conf",
	"bad-rpki-duplicate-preference.conf",
	"bad-rpki-expire-below-polling.conf",
	"bad-rpki-no-cache-unknown.conf",
	"bad-rpki-polling-above-expire.conf",
	"bad-rpki-port-zero.conf",
	"bad-rpki-preference-range.conf",
	"bad-rpki-tls-no-ca.conf",
	"bad-json-rpki-password-tls.json",
	"bad-json-rpki-preference.json",
	"bad-rmap-large-community.conf",
	"bad-send-community-unknown.conf",
	"bad-maxpfx-threshold.conf",
	"bad-json-maxpfx-both.json",
	"bad-local-as-ibgp.conf",
	"bad-adv-interval-range.conf",
	"bad-llgr-stale-time-zero.conf",
	"bad-llgr-stale-time-range.conf",
	"bad-network-backdoor.conf",
	"bad-aggregate-option-twice.conf",
	"bad-aggregate-summary-suppress.conf",
	"bad-netmask-holes.conf",
};

/* Restart the northbound (a new daemon) and load path into it. */
static void restart_and_load(const char *path)
{
	stop();
	sbuf_reset(&calls);
	start();
	load_ok(path);
}

START_TEST(t_good_file)
{
	const char *name = good_files[_i];
	char ok[128], tmp[] = "/tmp/skua-nb-fixpoint-XXXXXX", tmpj[64];
	char *expected, *first, *second, *third, *json1, *json2, *json3;
	struct sbuf body, errors;
	uint32_t txid = 99;
	int fd;

	with_ext(ok, sizeof(ok), name, ".ok");
	load_ok(name);
	first = show();
	json1 = show_json();
	expected = read_file(ok);
	ck_assert_msg(strcmp(first, expected) == 0, "%s printed:\n%s\nexpected:\n%s", name, first,
		      expected);

	/* Reloading the same file changes nothing and tells bgpd nothing. */
	sbuf_reset(&calls);
	sbuf_init(&errors);
	ck_assert_int_eq(nb_config_reload(name, &txid, &errors), 0);
	ck_assert_uint_eq(txid, 0);
	ck_assert_str_eq(calls_text(), "");
	sbuf_free(&errors);

	/* The printer is the inverse of the parser: its output loads into the same tree,
	 * which prints the same text and the same JSON. */
	sbuf_init(&body);
	nb_cli_show_config_body(&body, nb_running());
	sbuf_puts(&body, "end\n");
	fd = mkstemp(tmp);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, body.buf, body.len), (ssize_t)body.len);
	close(fd);
	restart_and_load(tmp);
	second = show();
	json2 = show_json();
	ck_assert_msg(strcmp(first, second) == 0, "%s: not a fixed point:\n%s\nthen:\n%s", name,
		      first, second);
	ck_assert_msg(strcmp(json1, json2) == 0,
		      "%s: JSON differs after a text round trip:\n%s\nthen:\n%s", name, json1,
		      json2);

	/* `show running-config json` loads back identically (bgpd -f x.json). */
	snprintf(tmpj, sizeof(tmpj), "%s.json", tmp);
	write_file(tmpj, json1);
	restart_and_load(tmpj);
	third = show();
	json3 = show_json();
	ck_assert_str_eq(first, third);
	ck_assert_str_eq(json1, json3);

	unlink(tmp);
	unlink(tmpj);
	sbuf_free(&body);
	XFREE(MTYPE_SBUF, expected);
	XFREE(MTYPE_SBUF, first);
	XFREE(MTYPE_SBUF, second);
	XFREE(MTYPE_SBUF, third);
	XFREE(MTYPE_SBUF, json1);
	XFREE(MTYPE_SBUF, json2);
	XFREE(MTYPE_SBUF, json3);
}
END_TEST

enum bad_mode { BAD_STARTUP, BAD_CHECK, BAD_RELOAD };

static void bad_file_check(const char *name, enum bad_mode mode)
{
	char err[128];
	char *expected, *before, *after, *json_before, *json_after, *calls_before;
	struct sbuf errors;
	int rc;

	with_ext(err, sizeof(err), name, ".err");
	/* At start-up nothing runs yet; otherwise base.conf is in force. */
	if (mode != BAD_STARTUP)
		load_ok("base.conf");
	before = show();
	json_before = show_json();
	calls_before = strdup(calls_text());
	expected = read_file(err);

	sbuf_init(&errors);
	switch (mode) {
	case BAD_STARTUP:
		rc = nb_config_load_file(name, &errors);
		break;
	case BAD_CHECK:
		rc = nb_config_check_file(name, &errors);
		break;
	case BAD_RELOAD:
	default:
		rc = nb_config_reload(name, NULL, &errors);
		break;
	}
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(errors.buf && strcmp(errors.buf, expected) == 0,
		      "%s said:\n%s\nexpected:\n%s", name, errors.buf ? errors.buf : "(nothing)",
		      expected);

	/* All or nothing: running and the bgpd objects are as they were. */
	after = show();
	json_after = show_json();
	ck_assert_str_eq(before, after);
	ck_assert_str_eq(json_before, json_after);
	ck_assert_str_eq(calls_text(), calls_before);
	if (mode == BAD_STARTUP)
		ck_assert_ptr_null(nb_running());
	else
		ck_assert_str_eq(vty_get_hostname(), "base");
	/* Nothing refused was recorded as a transaction. */
	ck_assert_int_eq(nb_history_count(), mode == BAD_STARTUP ? 0 : 1);

	sbuf_free(&errors);
	free(calls_before);
	XFREE(MTYPE_SBUF, expected);
	XFREE(MTYPE_SBUF, before);
	XFREE(MTYPE_SBUF, after);
	XFREE(MTYPE_SBUF, json_before);
	XFREE(MTYPE_SBUF, json_after);
}

START_TEST(t_bad_file)
{
	bad_file_check(bad_files[_i], BAD_STARTUP);
}
END_TEST

START_TEST(t_bad_file_check_only)
{
	bad_file_check(bad_files[_i], BAD_CHECK);
}
END_TEST

START_TEST(t_bad_file_reload)
{
	bad_file_check(bad_files[_i], BAD_RELOAD);
}
END_TEST

START_TEST(t_enough_bad_files)
{
	/* The issue asks for at least 40 refused configurations; every one has its .err. */
	ck_assert_uint_ge(array_size(bad_files), 40);
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

/* Write len bytes (NULs included) to path. */
static void write_bytes(const char *path, const char *bytes, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, bytes, len), (ssize_t)len);
	close(fd);
}

/* A NUL used to end the line for the parser: `password abc\0REST` loaded as `password abc`,
 * and a reload of such a file reported success. The whole file is refused instead. */
/* FRR's vty lines load and do nothing, but never silently: one note per line in the log,
 * naming the file and line, so an operator who relied on a vty password learns it is gone. */
static void count_vty_notes(const char *line, void *arg)
{
	struct sbuf *sb = arg;

	if (strstr(line, "ignored: skua has no telnet vty")) {
		const char *at = strstr(line, "good-frr-daemon-lines.conf:");

		sbuf_printf(sb, "%s\n", at ? at : line);
	}
}

START_TEST(t_frr_vty_lines_noted)
{
	static const char expected[] =
		"good-frr-daemon-lines.conf:6: `password` ignored: skua has no telnet vty: vtysh "
		"uses bgpd's UNIX socket, whose mode decides who may connect (see "
		"doc/security.md)\n";
	struct sbuf notes;

	sbuf_init(&notes);
	log_ring_clear();
	load_ok("good-frr-daemon-lines.conf");
	log_ring_walk(count_vty_notes, &notes);
	ck_assert_ptr_nonnull(notes.buf);
	/* password, enable password, line vty, exec-timeout, two access-class, no login */
	ck_assert_msg(strncmp(notes.buf, expected, strlen(expected)) == 0, "notes:\n%s", notes.buf);
	ck_assert_msg(strstr(notes.buf, ":7: `enable password`") &&
			      strstr(notes.buf, ":18: `line vty`") &&
			      strstr(notes.buf, ":19: `exec-timeout`") &&
			      strstr(notes.buf, ":20: `access-class`") &&
			      strstr(notes.buf, ":21: `access-class`") &&
			      strstr(notes.buf, ":22: `login`"),
		      "notes:\n%s", notes.buf);
	sbuf_free(&notes);
}
END_TEST

START_TEST(t_nul_byte_refused)
{
	static const char text[] = "router bgp 65001\n"
				   " neighbor 10.0.0.2 remote-as 65002\n"
				   " neighbor 10.0.0.2 password abc\0REST\n"
				   " neighbor 10.0.0.3 remote-as 65003\n";
	char dir[] = "/tmp/skua-nb-nul-XXXXXX", path[128], expect[256];
	uint32_t txid = 99;
	struct sbuf errors;
	char *before;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/bgpd.conf", dir);
	write_bytes(path, text, sizeof(text) - 1);
	snprintf(expect, sizeof(expect),
		 "%s:3: contains a NUL byte; nothing was applied (remove the byte: the file "
		 "must be text)\n",
		 path);
	sbuf_init(&errors);

	/* At start-up: refused, nothing applied. */
	ck_assert_int_eq(nb_config_load_file(path, &errors), -1);
	ck_assert_str_eq(errors.buf, expect);
	ck_assert_ptr_null(nb_running());
	ck_assert_str_eq(calls_text(), "");
	ck_assert_ptr_null(the_bgp);

	/* bgpd -C: refused too. */
	sbuf_reset(&errors);
	ck_assert_int_eq(nb_config_check_file(path, &errors), -1);
	ck_assert_str_eq(errors.buf, expect);

	/* A reload: refused, and the running configuration is what it was. */
	load_ok("reload-a.conf");
	before = show_json();
	sbuf_reset(&calls);
	sbuf_reset(&errors);
	ck_assert_int_eq(nb_config_reload(path, &txid, &errors), -1);
	ck_assert_str_eq(errors.buf, expect);
	ck_assert_str_eq(calls_text(), "");
	{
		char *after = show_json();

		ck_assert_str_eq(before, after);
		XFREE(MTYPE_SBUF, after);
	}
	unlink(path);
	rmdir(dir);
	XFREE(MTYPE_SBUF, before);
	sbuf_free(&errors);
}
END_TEST

/* ---- RPKI ------------------------------------------------------------------------------- */

struct rmap_states {
	enum rpki_state rpki[4];
	enum aspa_state aspa[4];
	int n;
};

static void collect_states(const char *map, const struct rmap_entry *e, void *arg)
{
	struct rmap_states *st = arg;

	(void)map;
	if (st->n < 4) {
		st->rpki[st->n] = e->match_rpki;
		st->aspa[st->n++] = e->match_aspa;
	}
}

/* match rpki / match aspa reach the route-map entries the RIB evaluates. */
START_TEST(t_rpki_route_map_matches)
{
	struct rmap_states st = { 0 };
	struct vty *vty;

	load_ok("good-route-map.conf");
	route_map_walk("UP-IN", collect_states, &st);
	ck_assert_int_eq(st.n, 3);
	ck_assert_int_eq(st.rpki[0], RPKI_INVALID); /* deny 10 */
	ck_assert_int_eq(st.aspa[0], ASPA_UNKNOWN);
	ck_assert_int_eq(st.rpki[1], RPKI_NOT_USED); /* permit 20 */
	ck_assert_int_eq(st.aspa[1], ASPA_NOT_USED);
	ck_assert_int_eq(st.rpki[2], RPKI_NOTFOUND); /* permit 30 */
	ck_assert_int_eq(st.aspa[2], ASPA_VALID);
	ck_assert(route_map_uses_validation("UP-IN"));
	ck_assert(!route_map_uses_validation("V6-OUT"));

	/* From the vty: `no match rpki` with another state still removes it (FRR). */
	vty = config_vty();
	run(vty, "route-map UP-IN deny 10", CMD_SUCCESS);
	run(vty, "no match rpki valid", CMD_SUCCESS);
	run(vty, "no match aspa", CMD_SUCCESS);
	run(vty, "match rpki bogus", CMD_ERR_NO_MATCH);
	memset(&st, 0, sizeof(st));
	route_map_walk("UP-IN", collect_states, &st);
	ck_assert_int_eq(st.rpki[0], RPKI_NOT_USED);
	ck_assert_int_eq(st.aspa[0], ASPA_NOT_USED);
	vty_done(vty);
}
END_TEST

/* neighbor X local-role reaches the peer (a group's through its members); a change
 * re-evaluates the neighbor's routes only where its inbound route-map matches aspa. */
START_TEST(t_rpki_local_role)
{
	struct bgp_peer *p;
	struct ipaddr a;
	struct vty *vty;

	load_ok("good-rpki.conf");
	ipaddr_from_str(&a, "192.0.2.2");
	p = bgp_peer_lookup(the_bgp, &a);
	ck_assert_int_eq(p->conf.local_role, BGP_ROLE_PROVIDER);
	ck_assert(!p->conf.local_role_strict);
	ipaddr_from_str(&a, "192.0.2.3");
	p = bgp_peer_lookup(the_bgp, &a);
	ck_assert_int_eq(p->conf.local_role, BGP_ROLE_RS_CLIENT);
	ck_assert(p->conf.local_role_strict);
	ipaddr_from_str(&a, "192.0.2.4");
	p = bgp_peer_lookup(the_bgp, &a);
	ck_assert_int_eq(p->conf.local_role, BGP_ROLE_CUSTOMER);

	vty = config_vty();
	run(vty, "route-map ASPA permit 10", CMD_SUCCESS);
	run(vty, "match aspa invalid", CMD_SUCCESS);
	run(vty, "exit", CMD_SUCCESS);
	run(vty, "router bgp 65001", CMD_SUCCESS);
	run(vty, "neighbor 192.0.2.2 route-map ASPA in", CMD_SUCCESS);
	sbuf_reset(&calls);
	run(vty, "neighbor 192.0.2.3 local-role peer", CMD_SUCCESS); /* no aspa map: nothing */
	ck_assert_ptr_null(strstr(calls_text(), "policy_changed"));
	run(vty, "neighbor 192.0.2.2 local-role customer strict-mode", CMD_SUCCESS);
	ck_assert_ptr_nonnull(strstr(calls_text(), "policy_changed 192.0.2.2 ipv4 in"));
	ipaddr_from_str(&a, "192.0.2.2");
	p = bgp_peer_lookup(the_bgp, &a);
	ck_assert_int_eq(p->conf.local_role, BGP_ROLE_CUSTOMER);
	ck_assert(p->conf.local_role_strict);
	run(vty, "no neighbor 192.0.2.2 local-role", CMD_SUCCESS);
	ck_assert_int_eq(p->conf.local_role, BGP_ROLE_NONE);
	ck_assert(!p->conf.local_role_strict);
	run(vty, "neighbor 192.0.2.2 local-role transit", CMD_ERR_NO_MATCH);
	vty_done(vty);
}
END_TEST

/* The best-path knobs take effect at once, each by itself, `no` clearing only the words given
 * (FRR's `bgp bestpath med`), and every prefix is decided again. */
START_TEST(t_bestpath_knobs_apply)
{
	struct vty *vty = config_vty();

	run(vty, "router bgp 65001", CMD_SUCCESS);
	ck_assert(!the_bgp->bestpath.deterministic_med); /* FRR 8.4's traditional default */
	sbuf_reset(&calls);
	run(vty, "bgp deterministic-med", CMD_SUCCESS);
	run(vty, "bgp always-compare-med", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(),
			 "bestpath_changed dmed=1 acm=0 ignore=0 confed=0 relax=0 rid=0 "
			 "med-confed=0 worst=0\n"
			 "bestpath_changed dmed=1 acm=1 ignore=0 confed=0 relax=0 rid=0 "
			 "med-confed=0 worst=0\n");
	sbuf_reset(&calls);
	run(vty, "bgp bestpath med missing-as-worst confed", CMD_SUCCESS);
	run(vty, "bgp bestpath as-path multipath-relax no-as-set", CMD_SUCCESS);
	run(vty, "bgp bestpath as-path ignore", CMD_SUCCESS);
	run(vty, "bgp bestpath compare-routerid", CMD_SUCCESS);
	ck_assert(the_bgp->bestpath.med_confed && the_bgp->bestpath.med_missing_as_worst);
	ck_assert(the_bgp->bestpath.multipath_relax);
	ck_assert(the_bgp->bestpath.aspath_ignore && the_bgp->bestpath.compare_routerid);
	sbuf_reset(&calls);
	run(vty, "no bgp bestpath med confed", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(),
			 "bestpath_changed dmed=1 acm=1 ignore=1 confed=0 relax=1 rid=1 "
			 "med-confed=0 worst=1\n");
	sbuf_reset(&calls);
	run(vty, "bgp bestpath med missing-as-worst", CMD_SUCCESS); /* no change: no walk */
	ck_assert_str_eq(calls_text(), "");
	run(vty, "no bgp bestpath as-path multipath-relax as-set", CMD_SUCCESS);
	ck_assert(!the_bgp->bestpath.multipath_relax);
	run(vty, "bgp bestpath as-path multipath-relax", CMD_SUCCESS);
	ck_assert(the_bgp->bestpath.multipath_relax);
	run(vty, "no bgp bestpath as-path multipath-relax", CMD_SUCCESS);
	ck_assert(!the_bgp->bestpath.multipath_relax);
	run(vty, "no bgp deterministic-med", CMD_SUCCESS);
	ck_assert(!the_bgp->bestpath.deterministic_med);
	run(vty, "bgp bestpath med", CMD_ERR_INCOMPLETE);
	run(vty, "bgp bestpath as-path", CMD_ERR_INCOMPLETE);
	vty_done(vty);
}
END_TEST

/* bgp confederation identifier|peers: the list grows in the order given, `no` takes out the
 * ASes named, a bad word changes nothing, and every change reaches the instance at once. */
START_TEST(t_confederation_applies)
{
	struct vty *vty = config_vty();

	run(vty, "router bgp 65001", CMD_SUCCESS);
	sbuf_reset(&calls);
	run(vty, "bgp confederation identifier 65000", CMD_SUCCESS);
	run(vty, "bgp confederation peers 65003 65002 65003", CMD_SUCCESS);
	run(vty, "bgp confederation peers 1.2", CMD_SUCCESS); /* asdot: 65538 */
	ck_assert_str_eq(calls_text(), "confed_changed 65000\n"
				       "confed_changed 65000 65003 65002\n"
				       "confed_changed 65000 65003 65002 65538\n");
	sbuf_reset(&calls);
	run(vty, "bgp confederation peers 65004 65001", CMD_WARNING_CONFIG_FAILED);
	run(vty, "bgp confederation peers 65004 x65005", CMD_WARNING_CONFIG_FAILED);
	run(vty, "bgp confederation peers 65002", CMD_SUCCESS); /* already there */
	ck_assert_str_eq(calls_text(), "");
	run(vty, "no bgp confederation peers 65002 65538", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "confed_changed 65000 65003\n");
	ck_assert_uint_eq(the_bgp->confed_npeers, 1);
	ck_assert(bgp_confed_member(the_bgp, 65003) && !bgp_confed_member(the_bgp, 65002));
	ck_assert_uint_eq(bgp_outside_as(the_bgp), 65000);
	sbuf_reset(&calls);
	run(vty, "no bgp confederation identifier", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "confed_changed 0 65003\n");
	/* Without an identifier no AS is a member: the peers list waits for one (FRR). */
	ck_assert(!bgp_confed_member(the_bgp, 65003));
	ck_assert_uint_eq(bgp_outside_as(the_bgp), 65001);
	vty_done(vty);
}
END_TEST

/* `[no] bgp network import-check` takes effect at once: the network statements are checked
 * again (bgpd/fib/bgp_network_check.c) with the new setting. */
START_TEST(t_network_import_check_applies)
{
	struct vty *vty = config_vty();

	run(vty, "router bgp 65001", CMD_SUCCESS);
	ck_assert(the_bgp->network_import_check); /* FRR's default */
	sbuf_reset(&calls);
	run(vty, "no bgp network import-check", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "network_check_sync import-check=0\n");
	sbuf_reset(&calls);
	run(vty, "bgp network import-check", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "network_check_sync import-check=1\n");
	vty_done(vty);
}
END_TEST

/* aggregate-address's options, in any order, reach the RIB whole; a line replaces them all,
 * and `network P route-map NAME` hands the statement its map once it exists. */
/* Every line of calls_text() is want (the callbacks of an entry's leaves each hand the RIB the
 * whole aggregate: never a part of the options), and there is one at least. */
static void assert_every_call(const char *want)
{
	const char *c = calls_text();
	size_t n = strlen(want);

	ck_assert_msg(*c, "no call, want %s", want);
	for (; *c; c += n)
		ck_assert_msg(strncmp(c, want, n) == 0, "calls:\n%s\nwant each:\n%s", calls_text(),
			      want);
}

START_TEST(t_aggregate_options_apply)
{
	struct vty *vty = config_vty();

	run(vty, "router bgp 65001", CMD_SUCCESS);
	run(vty, "address-family ipv4 unicast", CMD_SUCCESS);
	sbuf_reset(&calls);
	run(vty,
	    "aggregate-address 192.0.2.0/24 suppress-map SUP matching-MED-only origin egp "
	    "route-map AGG",
	    CMD_SUCCESS);
	assert_every_call("aggregate_add 0 192.0.2.0/24 route-map AGG origin 1 "
			  "matching-MED-only suppress-map SUP\n");
	/* FRR 8.4 refuses the two together; nothing reaches the RIB. */
	sbuf_reset(&calls);
	run(vty, "aggregate-address 192.0.2.0/24 summary-only suppress-map SUP",
	    CMD_WARNING_CONFIG_FAILED);
	ck_assert_str_eq(calls_text(), "");
	sbuf_reset(&calls);
	run(vty, "aggregate-address 192.0.2.0/24 as-set origin incomplete", CMD_SUCCESS);
	assert_every_call("aggregate_add 0 192.0.2.0/24 as-set origin 2\n");
	run(vty, "aggregate-address 192.0.2.0/24 route-map A route-map B", CMD_ERR_NO_MATCH);
	sbuf_reset(&calls);
	run(vty, "network 198.51.100.0/24 route-map TAG", CMD_SUCCESS);
	/* The map set with the statement's creation, before its first announcement (the leaf's
	 * own callback repeats it, which changes nothing). */
	ck_assert_str_eq(calls_text(),
			 "network_add 0 198.51.100.0/24\nnetwork_rmap 0 198.51.100.0/24 TAG\n"
			 "network_rmap 0 198.51.100.0/24 TAG\n");
	sbuf_reset(&calls);
	run(vty, "network 198.51.100.0/24", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "network_rmap 0 198.51.100.0/24 -\n");
	vty_done(vty);
}
END_TEST

/* default-originate reaches the peers, a peer-group's members included, per family, and the
 * RIB is told. */
START_TEST(t_default_originate_apply)
{
	struct bgp_peer *p;
	struct ipaddr a;

	load_ok("good-default-originate.conf");
	ck_assert_ptr_nonnull(strstr(calls_text(), "default_originate_changed\n"));
	ipaddr_from_str(&a, "192.0.2.2");
	p = bgp_peer_lookup(the_bgp, &a);
	ck_assert_ptr_nonnull(p);
	ck_assert(p->conf.default_originate[BGP_AF_IPV4_UNICAST]);
	ck_assert_str_eq(p->conf.default_rmap[BGP_AF_IPV4_UNICAST], "DEF");
	ck_assert(!p->conf.default_originate[BGP_AF_IPV6_UNICAST]);
	ipaddr_from_str(&a, "198.51.100.9");
	p = bgp_peer_lookup(the_bgp, &a);
	ck_assert_ptr_nonnull(p);
	ck_assert(p->conf.default_originate[BGP_AF_IPV4_UNICAST]);
	ck_assert_ptr_null(p->conf.default_rmap[BGP_AF_IPV4_UNICAST]);
	ipaddr_from_str(&a, "2001:db8::2");
	p = bgp_peer_lookup(the_bgp, &a);
	ck_assert(p->conf.default_originate[BGP_AF_IPV6_UNICAST]);
	ck_assert_str_eq(p->conf.default_rmap[BGP_AF_IPV6_UNICAST], "DEF6");
}
END_TEST

/* The rpki node tells the RTR manager each statement whole, once per commit, and prints
 * itself back in FRR's form. */
START_TEST(t_rpki_node)
{
	struct vty *vty = config_vty();
	char *text;

	sbuf_reset(&calls);
	run(vty, "rpki", CMD_SUCCESS);
	ck_assert_int_eq(vty->node, RPKI_NODE);
	run(vty, "rpki cache 192.0.2.9 323 preference 1", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "rtr_cache_set 1 tcp 192.0.2.9 323\n");
	sbuf_reset(&calls);
	run(vty, "rpki cache tcp 192.0.2.10 8282 source 192.0.2.1 password k3y preference 2",
	    CMD_SUCCESS);
	ck_assert_str_eq(calls_text(),
			 "rtr_cache_set 2 tcp 192.0.2.10 8282 source 192.0.2.1 password k3y\n");
	sbuf_reset(&calls);
	run(vty, "rpki cache tls rpki.example.net 324 ca-file /dev/null preference 3", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "rtr_cache_set 3 tls rpki.example.net 324 ca /dev/null\n");

	/* The same statement again changes nothing; another one on a taken preference is
	 * refused (FRR's words), as is removing a cache that is not there. */
	sbuf_reset(&calls);
	run(vty, "rpki cache 192.0.2.9 323 preference 1", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "");
	ck_assert_ptr_nonnull(strstr(
		run(vty, "rpki cache 192.0.2.99 323 preference 1", CMD_WARNING_CONFIG_FAILED),
		"% Cache with preference 1 is already configured"));
	ck_assert_ptr_nonnull(strstr(
		run(vty, "no rpki cache 192.0.2.9 323 preference 9", CMD_WARNING_CONFIG_FAILED),
		"% Could not find cache with preference 9"));
	ck_assert_ptr_nonnull(strstr(run(vty,
					 "rpki cache tls h 324 ca-file /nonexistent/ca.pem "
					 "preference 4",
					 CMD_WARNING_CONFIG_FAILED),
				     "% cannot read CA file /nonexistent/ca.pem: No such file"));
	ck_assert_ptr_nonnull(
		strstr(run(vty, "rpki cache 192.0.2.9 0 preference 4", CMD_WARNING_CONFIG_FAILED),
		       "% A cache port is 1 to 65535"));
	ck_assert_str_eq(calls_text(), "");

	/* Intervals: applied together, the defaults printed nowhere. */
	run(vty, "rpki polling_period 300", CMD_SUCCESS);
	ck_assert_ptr_nonnull(strstr(calls_text(), "rtr_timers_set 300 600 7200\n"));
	ck_assert_ptr_nonnull(strstr(run(vty, "rpki expire_interval 600", CMD_SUCCESS), ""));
	ck_assert_ptr_nonnull(strstr(run(vty, "rpki polling_period 601", CMD_WARNING_CONFIG_FAILED),
				     "% Expiry interval must be polling period or larger"));
	run(vty, "rpki polling_period 3600x", CMD_ERR_NO_MATCH);
	text = show();
	ck_assert_ptr_nonnull(strstr(text,
				     "!\nrpki\n rpki polling_period 300\n"
				     " rpki expire_interval 600\n"
				     " rpki cache 192.0.2.9 323 preference 1\n"
				     " rpki cache tcp 192.0.2.10 8282 source 192.0.2.1 password "
				     "k3y preference 2\n"
				     " rpki cache tls rpki.example.net 324 ca-file /dev/null "
				     "preference 3\n"
				     "exit\n!\nend\n"));
	XFREE(MTYPE_SBUF, text);

	/* An address in another spelling is the same statement. */
	run(vty, "rpki cache tcp 2001:DB8::9 323 source 2001:DB8::1 preference 9", CMD_SUCCESS);
	sbuf_reset(&calls);
	run(vty, "rpki cache tcp 2001:db8::9 323 source 2001:db8:0::1 preference 9", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "");
	run(vty, "no rpki cache 2001:db8::9 323 preference 9", CMD_SUCCESS);

	/* The TLS files in any order; printed in one (the double reads /dev/null fine). */
	sbuf_reset(&calls);
	run(vty,
	    "rpki cache tls h 324 client-key /dev/null ca-file /dev/zero client-cert /dev/null "
	    "preference 6",
	    CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "rtr_cache_set 6 tls h 324 ca /dev/zero cert /dev/null "
				       "key /dev/null\n");
	text = show();
	ck_assert_ptr_nonnull(strstr(text, " rpki cache tls h 324 ca-file /dev/zero client-cert "
					   "/dev/null client-key /dev/null preference 6\n"));
	XFREE(MTYPE_SBUF, text);
	ck_assert_ptr_nonnull(strstr(run(vty,
					 "rpki cache tls h 324 ca-file /dev/zero client-key "
					 "/dev/null preference 7",
					 CMD_WARNING_CONFIG_FAILED),
				     "% client-key goes with client-cert"));
	run(vty, "no rpki cache tls h 324 preference 6", CMD_SUCCESS);

	/* A cache goes by its preference, whatever else the no form says (FRR). */
	sbuf_reset(&calls);
	run(vty, "no rpki cache 192.0.2.77 1 preference 2", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "rtr_cache_del 2\n");
	run(vty, "no rpki expire_interval", CMD_SUCCESS);
	run(vty, "no rpki polling_period 5", CMD_SUCCESS);
	run(vty, "exit", CMD_SUCCESS);
	ck_assert_int_eq(vty->node, CONFIG_NODE);

	/* no rpki: every cache goes, as in FRR 8.4; nothing left to print. */
	sbuf_reset(&calls);
	run(vty, "no rpki", CMD_SUCCESS);
	ck_assert_ptr_nonnull(strstr(calls_text(), "rtr_cache_del 1\n"));
	ck_assert_ptr_nonnull(strstr(calls_text(), "rtr_cache_del 3\n"));
	text = show();
	ck_assert_ptr_null(strstr(text, "rpki"));
	XFREE(MTYPE_SBUF, text);
	vty_done(vty);
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

/* FRR's switches reach struct bgp with FRR's (traditional) defaults. */
START_TEST(t_frr_switches)
{
	struct vty *vty;
	char *text;

	load_ok("good-minimal.conf");
	ck_assert(!the_bgp->log_neighbor_changes);
	ck_assert(the_bgp->ebgp_requires_policy);
	ck_assert(the_bgp->network_import_check);

	restart_and_load("good-frr.conf");
	ck_assert(the_bgp->log_neighbor_changes);
	ck_assert(!the_bgp->ebgp_requires_policy);
	ck_assert(!the_bgp->network_import_check);
	ck_assert_str_eq(vty_get_hostname(), "r1");

	/* From the vty, each way, and back to the defaults (which print nothing). */
	vty = config_vty();
	run(vty, "router bgp 65001", CMD_SUCCESS);
	run(vty, "bgp ebgp-requires-policy", CMD_SUCCESS);
	ck_assert(the_bgp->ebgp_requires_policy);
	run(vty, "no bgp log-neighbor-changes", CMD_SUCCESS);
	ck_assert(!the_bgp->log_neighbor_changes);
	run(vty, "bgp network import-check", CMD_SUCCESS);
	ck_assert(the_bgp->network_import_check);
	run(vty, "no bgp ebgp-requires-policy", CMD_SUCCESS);
	ck_assert(!the_bgp->ebgp_requires_policy);
	/* The routes of every eBGP neighbor are re-evaluated (bgpd/rib/), at once. */
	ck_assert_ptr_nonnull(strstr(calls_text(), "ebgp_requires_policy off\n"));
	text = show();
	ck_assert_ptr_nonnull(strstr(text, "\n no bgp ebgp-requires-policy\n"));
	ck_assert_ptr_null(strstr(text, "log-neighbor-changes"));
	ck_assert_ptr_null(strstr(text, "import-check"));
	XFREE(MTYPE_SBUF, text);

	/* RFC 8326: switched on, every table is sent again marked; printed after cluster-id as
	 * FRR does; the same value again changes nothing; off prints nothing. */
	run(vty, "bgp cluster-id 192.0.2.9", CMD_SUCCESS);
	run(vty, "bgp graceful-shutdown", CMD_SUCCESS);
	ck_assert(the_bgp->graceful_shutdown);
	ck_assert_ptr_nonnull(strstr(calls_text(), "graceful_shutdown on\n"));
	text = show();
	ck_assert_ptr_nonnull(
		strstr(text, "\n bgp cluster-id 192.0.2.9\n bgp graceful-shutdown\n"));
	XFREE(MTYPE_SBUF, text);
	run(vty, "bgp graceful-shutdown", CMD_SUCCESS);
	ck_assert_ptr_null(strstr(strstr(calls_text(), "graceful_shutdown on\n") + 1,
				  "graceful_shutdown on\n"));
	run(vty, "no bgp graceful-shutdown", CMD_SUCCESS);
	ck_assert(!the_bgp->graceful_shutdown);
	ck_assert_ptr_nonnull(strstr(calls_text(), "graceful_shutdown off\n"));
	text = show();
	ck_assert_ptr_null(strstr(text, "graceful-shutdown"));
	XFREE(MTYPE_SBUF, text);
	run(vty, "no bgp cluster-id", CMD_SUCCESS);

	/* The top-of-file lines FRR writes are accepted; a profile skua lacks is refused. */
	run(vty, "exit", CMD_SUCCESS);
	run(vty, "frr version 8.4.4", CMD_SUCCESS);
	run(vty, "frr defaults traditional", CMD_SUCCESS);
	run(vty, "service integrated-vtysh-config", CMD_SUCCESS);
	run(vty, "no service integrated-vtysh-config", CMD_SUCCESS);
	ck_assert_ptr_nonnull(strstr(run(vty, "frr defaults datacenter", CMD_WARNING_CONFIG_FAILED),
				     "`traditional` defaults only"));
	ck_assert_ptr_nonnull(strstr(run(vty, "frr defaults fast", CMD_WARNING_CONFIG_FAILED),
				     "Unknown defaults profile fast"));
	text = show();
	ck_assert_ptr_null(strstr(text, "frr "));
	ck_assert_ptr_null(strstr(text, "service"));
	XFREE(MTYPE_SBUF, text);
	vty_done(vty);
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

/* ---- the rows of neighbor settings ---------------------------------------------------- */

#define NBR_XPATH BGP_XPATH "/neighbors/neighbor"
#define PG_XPATH BGP_XPATH "/peer-groups/peer-group"
#define AF4 "/afi-safis/ipv4-unicast/"
#define AF6 "/afi-safis/ipv6-unicast/"

static const struct nb_node_info *row_at(const char *prefix, const char *rel)
{
	char xpath[512];

	snprintf(xpath, sizeof(xpath), "%s%s", prefix, rel);
	return nb_node_info_of(lys_find_path(yang_ctx(), NULL, xpath, 0));
}

static bool applies(const struct nb_node_info *ni)
{
	return ni->cbs.create || ni->cbs.modify || ni->cbs.destroy || ni->cbs.apply_finish;
}

/* The same callbacks, printers and flags. */
static bool same_row(const struct nb_node_info *a, const struct nb_node_info *b)
{
	return a && b && memcmp(&a->cbs, &b->cbs, sizeof(a->cbs)) == 0 &&
	       a->keep_explicit_default == b->keep_explicit_default &&
	       strcmp(a->missing_msg ? a->missing_msg : "", b->missing_msg ? b->missing_msg : "") ==
		       0;
}

/* The row registered for snode when it is below the list xpath (NULL otherwise, and for the
 * list's own); *rel: its path below the list. */
static const struct nb_node_info *row_below(const struct lysc_node *snode, const char *list,
					    char *path, size_t size, const char **rel)
{
	const struct nb_node_info *ni = nb_node_info_of(snode);

	lysc_path(snode, LYSC_PATH_DATA, path, size);
	*rel = path + strlen(list);
	return ni && **rel ? ni : NULL;
}

struct rows_seen {
	unsigned per_af, grouped, group_rows;
};

/* A row below the neighbor list: per-family ones have their twin in the other family, the
 * others that print (or keep an explicit default) their printer-only twin in the group. */
static LY_ERR neighbor_row_check(struct lysc_node *snode, void *arg, ly_bool *dfs_continue)
{
	const struct nb_node_info *ni, *twin;
	struct rows_seen *seen = arg;
	char path[256];
	const char *rel;

	*dfs_continue = 0;
	ni = row_below(snode, NBR_XPATH, path, sizeof(path), &rel);
	if (!ni)
		return LY_SUCCESS;
	if (!strncmp(rel, AF4, strlen(AF4)) || !strncmp(rel, AF6, strlen(AF6))) {
		char other[256];

		snprintf(other, sizeof(other), "%s%s", strncmp(rel, AF4, strlen(AF4)) ? AF4 : AF6,
			 rel + strlen(AF4));
		twin = row_at(NBR_XPATH, other);
		ck_assert_msg(same_row(ni, twin), "%s: no twin row in the other family", path);
		ck_assert_ptr_null(row_at(PG_XPATH, rel)); /* printed with the families */
		seen->per_af++;
		return LY_SUCCESS;
	}
	if (!ni->cbs.cli_show && !ni->keep_explicit_default)
		return LY_SUCCESS;
	twin = row_at(PG_XPATH, rel);
	ck_assert_msg(twin != NULL, "%s: no peer-group row", path);
	ck_assert_msg(twin->cbs.cli_show == ni->cbs.cli_show, "%s: another group printer", path);
	ck_assert_int_eq(twin->keep_explicit_default, ni->keep_explicit_default);
	seen->grouped++;
	return LY_SUCCESS;
}

/* A row below the peer-group list: it prints only (the neighbors' rows apply what a group
 * gives its members), the neighbor's printer unless the neighbor's head line prints it. */
static LY_ERR group_row_check(struct lysc_node *snode, void *arg, ly_bool *dfs_continue)
{
	const struct nb_node_info *ni, *nbr;
	struct rows_seen *seen = arg;
	char path[256];
	const char *rel;

	*dfs_continue = 0;
	ni = row_below(snode, PG_XPATH, path, sizeof(path), &rel);
	if (!ni)
		return LY_SUCCESS;
	nbr = row_at(NBR_XPATH, rel);
	ck_assert_msg(!applies(ni), "%s: a group row applies something", path);
	ck_assert_msg(nbr != NULL, "%s: no neighbor row", path);
	ck_assert_msg(!nbr->cbs.cli_show || nbr->cbs.cli_show == ni->cbs.cli_show,
		      "%s: another printer than the neighbor's", path);
	ck_assert_int_eq(ni->keep_explicit_default, nbr->keep_explicit_default);
	seen->group_rows++;
	return LY_SUCCESS;
}

START_TEST(t_neighbor_settings_rows)
{
	struct rows_seen seen = { 0 };

	/* Every neighbor setting has its peer-group row and both family rows, checked on what
	 * is registered (not on the list the rows are made from). */
	lysc_tree_dfs_full(lys_find_path(yang_ctx(), NULL, NBR_XPATH, 0), neighbor_row_check,
			   &seen);
	lysc_tree_dfs_full(lys_find_path(yang_ctx(), NULL, PG_XPATH, 0), group_row_check, &seen);
	ck_assert_uint_gt(seen.per_af, 0);
	ck_assert_uint_eq(seen.per_af % 2, 0);
	ck_assert_uint_gt(seen.grouped, 0);
	/* The group's rows are exactly the neighbor's printing rows, and remote-as, which a
	 * neighbor prints in its head line. */
	ck_assert_uint_eq(seen.group_rows, seen.grouped + 1);
	ck_assert_ptr_null(row_at(NBR_XPATH, "/neighbor-remote-as")->cbs.cli_show);
	ck_assert_ptr_nonnull(row_at(PG_XPATH, "/neighbor-remote-as")->cbs.cli_show);
}
END_TEST

/* Peer-groups (issue 5): members take what the group sets and they do not; a change to
 * the group reaches every member as its own change; the printout keeps what was written. */
static void vty_leave(struct vty *vty);

static struct bgp_peer *peer_at(const char *addr)
{
	struct ipaddr a;

	ck_assert_int_eq(ipaddr_from_str(&a, addr), 0);
	return bgp_peer_lookup(the_bgp, &a);
}

/* Graceful restart: the instance's settings and each neighbor's effective mode, as the
 * session side reads them (bgp_peer_gr_mode()), through a group and the `no` forms. */
START_TEST(t_graceful_restart_apply)
{
	struct vty *vty = config_vty();

	/* Before any command: FRR's defaults. */
	run(vty, "router bgp 65001", CMD_SUCCESS);
	ck_assert_int_eq(the_bgp->gr_mode, BGP_GR_HELPER);
	ck_assert_uint_eq(the_bgp->gr_restart_time, 120);
	ck_assert_uint_eq(the_bgp->gr_stalepath_time, 360);
	ck_assert_uint_eq(the_bgp->gr_select_defer_time, 360);
	ck_assert(the_bgp->gr_notification);
	ck_assert(!the_bgp->gr_preserve_fw_state);
	run(vty, "end", CMD_SUCCESS);
	vty_free(vty);

	load_ok("good-graceful-restart.conf");
	ck_assert_int_eq(the_bgp->gr_mode, BGP_GR_RESTART);
	ck_assert_uint_eq(the_bgp->gr_restart_time, 30);
	ck_assert_uint_eq(the_bgp->gr_stalepath_time, 60);
	ck_assert_uint_eq(the_bgp->gr_select_defer_time, 45);
	ck_assert(!the_bgp->gr_notification);
	ck_assert(the_bgp->gr_preserve_fw_state);
	ck_assert_int_eq(peer_at("192.0.2.2")->conf.gr_mode, BGP_GR_DISABLE);
	ck_assert_int_eq(peer_at("192.0.2.3")->conf.gr_mode, BGP_GR_RESTART);
	ck_assert_int_eq(peer_at("192.0.2.4")->conf.gr_mode, BGP_GR_HELPER); /* PG's */
	ck_assert_int_eq(peer_at("192.0.2.5")->conf.gr_mode, BGP_GR_RESTART);
	ck_assert_int_eq(peer_at("192.0.2.6")->conf.gr_mode, BGP_GR_INHERIT); /* the instance's */

	/* The `no` forms: the instance back to helper, the group's mode gone. */
	vty = config_vty();
	run(vty, "router bgp 65001", CMD_SUCCESS);
	ck_assert_str_eq(run(vty, "no bgp graceful-restart-disable", CMD_WARNING_CONFIG_FAILED),
			 "% The Graceful Restart command used is not valid at this moment.\n");
	run(vty, "no bgp graceful-restart", CMD_SUCCESS);
	ck_assert_int_eq(the_bgp->gr_mode, BGP_GR_HELPER);
	run(vty, "bgp graceful-restart-disable", CMD_SUCCESS);
	ck_assert_int_eq(the_bgp->gr_mode, BGP_GR_DISABLE);
	ck_assert_str_eq(run(vty, "no neighbor PG graceful-restart", CMD_WARNING_CONFIG_FAILED),
			 "% The Graceful Restart command used is not valid at this moment.\n");
	run(vty, "no neighbor PG graceful-restart-helper", CMD_SUCCESS);
	ck_assert_int_eq(peer_at("192.0.2.4")->conf.gr_mode, BGP_GR_INHERIT);
	ck_assert_int_eq(peer_at("192.0.2.5")->conf.gr_mode, BGP_GR_RESTART);
	run(vty, "no bgp graceful-restart restart-time", CMD_SUCCESS);
	run(vty, "bgp graceful-restart notification", CMD_SUCCESS);
	run(vty, "no bgp graceful-restart preserve-fw-state", CMD_SUCCESS);
	ck_assert_uint_eq(the_bgp->gr_restart_time, 120);
	ck_assert(the_bgp->gr_notification);
	ck_assert(!the_bgp->gr_preserve_fw_state);
	vty_free(vty);
}
END_TEST

/* Long-lived graceful restart's stale time, as the session side reads it: absent is 0 (no
 * LLGR, FRR's default), set by the sample, gone with the `no` form whatever value it names. */
START_TEST(t_llgr_apply)
{
	struct vty *vty = config_vty();

	run(vty, "router bgp 65001", CMD_SUCCESS);
	ck_assert_uint_eq(the_bgp->llgr_stale_time, 0);
	run(vty, "end", CMD_SUCCESS);
	vty_free(vty);
	load_ok("good-llgr.conf");
	ck_assert_uint_eq(the_bgp->llgr_stale_time, 100);
	vty = config_vty();
	run(vty, "router bgp 65001", CMD_SUCCESS);
	run(vty, "bgp long-lived-graceful-restart stale-time 4294967295", CMD_SUCCESS);
	ck_assert_uint_eq(the_bgp->llgr_stale_time, 4294967295u);
	run(vty, "no bgp long-lived-graceful-restart stale-time 5", CMD_SUCCESS);
	ck_assert_uint_eq(the_bgp->llgr_stale_time, 0);
	vty_free(vty);
}
END_TEST

START_TEST(t_peer_group_inheritance)
{
	struct vty *vty = config_vty();
	struct bgp_peer *p2, *p3;
	const char *out;

	run(vty, "router bgp 65001", CMD_SUCCESS);
	ck_assert_str_eq(run(vty, "neighbor 10.0.0.2 peer-group G", CMD_WARNING_CONFIG_FAILED),
			 "% Configure the peer-group first\n");
	run(vty, "neighbor G peer-group", CMD_SUCCESS);
	ck_assert_str_eq(run(vty, "neighbor 10.0.0.2 peer-group G", CMD_WARNING_CONFIG_FAILED),
			 "% Specify remote-as or peer-group remote AS first\n");
	ck_assert_str_eq(run(vty, "neighbor H password x", CMD_WARNING_CONFIG_FAILED),
			 "% Create the peer-group or interface first\n");
	run(vty, "neighbor G remote-as 65002", CMD_SUCCESS);
	run(vty, "neighbor G password s3cret", CMD_SUCCESS);
	run(vty, "neighbor G ttl-security hops 1", CMD_SUCCESS);
	sbuf_reset(&calls);
	/* The member is created with everything the group has. */
	run(vty, "neighbor 10.0.0.2 peer-group G", CMD_SUCCESS);
	p2 = peer_at("10.0.0.2");
	ck_assert_ptr_nonnull(p2);
	ck_assert_uint_eq(p2->conf.remote_as, 65002);
	ck_assert_str_eq(p2->conf.password, "s3cret");
	ck_assert_uint_eq(p2->conf.ttl_security_hops, 1);
	ck_assert_str_eq(p2->conf.peer_group, "G");
	run(vty, "neighbor 10.0.0.3 peer-group G", CMD_SUCCESS);
	p3 = peer_at("10.0.0.3");
	/* A member's own setting wins over the group's... */
	run(vty, "neighbor 10.0.0.3 password own", CMD_SUCCESS);
	ck_assert_str_eq(p3->conf.password, "own");
	/* ...and a member cannot contradict it where the model says so, on the expanded tree. */
	ck_assert_str_eq(run(vty, "neighbor 10.0.0.3 ebgp-multihop 2", CMD_WARNING_CONFIG_FAILED),
			 "% ebgp-multihop and ttl-security cannot be configured together\n");
	ck_assert_str_eq(run(vty, "neighbor 10.0.0.3 remote-as 65009", CMD_WARNING_CONFIG_FAILED),
			 "% Peer-group member cannot override remote-as of peer-group\n");

	/* A group change reaches every member that does not override it, as its own change. */
	sbuf_reset(&calls);
	run(vty, "neighbor G password changed", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "peer_changed 10.0.0.2 PASSWORD\n");
	ck_assert_str_eq(p2->conf.password, "changed");
	ck_assert_str_eq(p3->conf.password, "own");
	sbuf_reset(&calls);
	run(vty, "address-family ipv4 unicast", CMD_SUCCESS);
	run(vty, "neighbor G route-map OUT out", CMD_SUCCESS);
	ck_assert_str_eq(p2->conf.rmap[BGP_AF_IPV4_UNICAST][BGP_DIR_OUT], "OUT");
	ck_assert_str_eq(p3->conf.rmap[BGP_AF_IPV4_UNICAST][BGP_DIR_OUT], "OUT");
	run(vty, "no neighbor G route-map OUT out", CMD_SUCCESS);
	ck_assert_ptr_null(p2->conf.rmap[BGP_AF_IPV4_UNICAST][BGP_DIR_OUT]);
	run(vty, "exit-address-family", CMD_SUCCESS);
	/* Removing the member's own setting gives it the group's again. */
	run(vty, "no neighbor 10.0.0.3 password", CMD_SUCCESS);
	ck_assert_str_eq(p3->conf.password, "changed");
	run(vty, "no neighbor G ttl-security hops", CMD_SUCCESS);
	ck_assert_uint_eq(p2->conf.ttl_security_hops, 0);
	ck_assert_uint_eq(p3->conf.ttl_security_hops, 0);

	/* The printout is what was written, in FRR's form. */
	out = run(vty, "do show running-config", CMD_SUCCESS);
	ck_assert_ptr_nonnull(strstr(out, " neighbor G peer-group\n"
					  " neighbor G remote-as 65002\n"
					  " neighbor G password changed\n"
					  " neighbor 10.0.0.2 peer-group G\n"
					  " neighbor 10.0.0.3 peer-group G\n"
					  "exit\n"));

	/* FRR: leaving the group deletes the neighbor; deleting the group deletes its members. */
	sbuf_reset(&calls);
	run(vty, "no neighbor 10.0.0.3 peer-group G", CMD_SUCCESS);
	ck_assert_ptr_null(peer_at("10.0.0.3"));
	run(vty, "no neighbor G peer-group", CMD_SUCCESS);
	ck_assert_ptr_null(peer_at("10.0.0.2"));
	ck_assert_ptr_null(yang_dnode_get(nb_running(), BGP_XPATH "/peer-groups/peer-group"));

	/* A member with its own AS in a group without one; a range needs its group. */
	run(vty, "neighbor P peer-group", CMD_SUCCESS);
	run(vty, "neighbor P passive", CMD_SUCCESS);
	run(vty, "neighbor 10.0.0.4 remote-as 65004", CMD_SUCCESS);
	run(vty, "neighbor 10.0.0.4 peer-group P", CMD_SUCCESS);
	ck_assert(peer_at("10.0.0.4")->conf.passive);
	ck_assert_uint_eq(peer_at("10.0.0.4")->conf.remote_as, 65004);
	ck_assert_str_eq(
		run(vty, "bgp listen range 203.0.113.0/24 peer-group Q", CMD_WARNING_CONFIG_FAILED),
		"% Configure the peer-group first\n");
	run(vty, "bgp listen range 203.0.113.7/24 peer-group P", CMD_SUCCESS);
	ck_assert_str_eq(yang_dnode_get_string(nb_running(), BGP_XPATH "/listen/range/prefix"),
			 "203.0.113.0/24");
	/* A dynamic neighbor is a member in the effective tree only. */
	ck_assert_int_eq(ipaddr_from_str(&test_dyn[0].addr, "203.0.113.9"), 0);
	snprintf(test_dyn[0].group, sizeof(test_dyn[0].group), "P");
	test_ndyn = 1;
	{
		struct nb_error err;

		/* Without an AS (the group has none) it cannot exist. */
		ck_assert_int_eq(nb_running_reexpand(&err), -1);
		ck_assert_str_eq(err.msg, "Specify remote-as or peer-group commands first");
		ck_assert_ptr_null(peer_at("203.0.113.9"));
		run(vty, "neighbor P remote-as external", CMD_SUCCESS);
		ck_assert_int_eq(nb_running_reexpand(&err), 0);
	}
	ck_assert_ptr_nonnull(peer_at("203.0.113.9"));
	ck_assert(peer_at("203.0.113.9")->dynamic);
	ck_assert(peer_at("203.0.113.9")->conf.passive);
	ck_assert_int_eq(peer_at("203.0.113.9")->conf.remote_as_type, BGP_REMOTE_AS_EXTERNAL);
	ck_assert_ptr_null(strstr(run(vty, "do show running-config", CMD_SUCCESS), "203.0.113.9"));
	/* Its range gone, it goes. */
	run(vty, "no bgp listen range 203.0.113.0/24 peer-group P", CMD_SUCCESS);
	ck_assert_ptr_null(peer_at("203.0.113.9"));
	ck_assert_uint_eq(test_ndyn, 0);
	vty_leave(vty);
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
	run(vty, "log file /tmp/skua-unit-check-config.log errors", CMD_SUCCESS);
	run(vty, "log file /tmp/skua-unit-check-config.log",
	    CMD_SUCCESS); /* the level back to the default */
	ck_assert_ptr_nonnull(
		strstr(run(vty, "do show running-config", CMD_SUCCESS),
		       "!\nhostname r9\nlog file /tmp/skua-unit-check-config.log\nlog syslog "
		       "notifications\n!\nend\n"));
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

/* ---- reload ------------------------------------------------------------------------ */

/* Does any recorded call mention addr? */
static bool calls_mention(const char *addr)
{
	char pat[64];

	snprintf(pat, sizeof(pat), " %s", addr);
	return strstr(calls_text(), pat) != NULL;
}

START_TEST(t_reload_applies_only_the_diff)
{
	struct sbuf errors;
	uint32_t txid = 0;
	struct bgp_peer *p2;
	struct ipaddr a;

	load_ok("reload-a.conf");
	ipaddr_from_str(&a, "10.0.0.2");
	p2 = bgp_peer_lookup(the_bgp, &a);
	ck_assert_ptr_nonnull(p2);
	sbuf_reset(&calls);
	sbuf_init(&errors);
	ck_assert_int_eq(nb_config_reload("reload-b.conf", &txid, &errors), 0);
	ck_assert_uint_eq(errors.len, 0);
	ck_assert_uint_eq(txid, 2);
	/* Only the changed neighbors hear about it; the instance, its router-id, 10.0.0.2
	 * (same settings, other order in the file) and the network are left alone. */
	ck_assert_msg(strstr(calls_text(), "peer_changed 10.0.0.3 DESCRIPTION\n"), "%s",
		      calls_text());
	ck_assert_msg(strstr(calls_text(), "peer_delete 10.0.0.4\n"), "%s", calls_text());
	ck_assert_msg(strstr(calls_text(), "peer_create 10.0.0.5\n"), "%s", calls_text());
	ck_assert_msg(!calls_mention("10.0.0.2"), "%s", calls_text());
	ck_assert_ptr_null(strstr(calls_text(), "bgp_"));
	ck_assert_ptr_null(strstr(calls_text(), "router_id"));
	ck_assert_ptr_null(strstr(calls_text(), "network_"));
	ck_assert_ptr_eq(bgp_peer_lookup(the_bgp, &a), p2); /* the same peer object */
	ck_assert_str_eq(vty_get_hostname(), "r1");

	/* Again: nothing to do. */
	sbuf_reset(&calls);
	ck_assert_int_eq(nb_config_reload("reload-b.conf", &txid, &errors), 0);
	ck_assert_uint_eq(txid, 0);
	ck_assert_str_eq(calls_text(), "");
	ck_assert_int_eq(nb_history_count(), 2);
	ck_assert_int_eq(nb_history_get(1)->source, NB_SRC_RELOAD);
	sbuf_free(&errors);
}
END_TEST

START_TEST(t_reload_command)
{
	struct vty *vty = vty_new(-1);
	char dir[] = "/tmp/skua-nb-reload-XXXXXX", path[128], expect[256], *a, *before;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/bgpd.conf", dir);
	ck_assert_str_eq(run(vty, "clear configuration reload", CMD_WARNING),
			 "% There is no startup configuration file to reload\n");
	nb_config_set_startup(path);
	a = read_file("reload-a.conf");
	write_file(path, a);
	snprintf(expect, sizeof(expect), "%% Configuration reloaded from %s (Transaction ID #1)\n",
		 path);
	ck_assert_str_eq(run(vty, "clear configuration reload", CMD_SUCCESS), expect);
	snprintf(expect, sizeof(expect), "%% Configuration reloaded from %s: no changes\n", path);
	ck_assert_str_eq(run(vty, "clear configuration reload", CMD_SUCCESS), expect);

	/* A broken file: nothing changes, and the operator is told where and why. */
	before = show_json();
	sbuf_reset(&calls);
	write_file(path, "router bgp 65001\n neighbor 10.0.0.2 remote-as 65002\n"
			 " neighbor 10.0.0.2 ttl-security hops 300\n");
	snprintf(expect, sizeof(expect),
		 "%% %s:3: Unknown command: neighbor 10.0.0.2 ttl-security hops 300\n"
		 "%% Reload refused; the running configuration was not changed\n",
		 path);
	ck_assert_str_eq(run(vty, "clear configuration reload", CMD_WARNING_CONFIG_FAILED), expect);
	ck_assert_str_eq(calls_text(), "");
	{
		char *after = show_json();

		ck_assert_str_eq(before, after);
		XFREE(MTYPE_SBUF, after);
	}

	/* SIGHUP does the same from the signal handler (logged). */
	write_file(path, "hostname r7\n");
	nb_config_sighup();
	ck_assert_str_eq(vty_get_hostname(), "r7");
	ck_assert_ptr_null(the_bgp);

	unlink(path);
	rmdir(dir);
	nb_config_set_startup(NULL);
	XFREE(MTYPE_SBUF, a);
	XFREE(MTYPE_SBUF, before);
	vty_free(vty);
}
END_TEST

/* ---- write memory ----------------------------------------------------------------- */

/* The names in dir, sorted, one per line. */
static char *dir_list(const char *dir)
{
	struct dirent **names;
	struct sbuf sb;
	int n = scandir(dir, &names, NULL, alphasort);

	ck_assert_int_ge(n, 0);
	sbuf_init(&sb);
	for (int i = 0; i < n; i++) {
		if (strcmp(names[i]->d_name, ".") && strcmp(names[i]->d_name, ".."))
			sbuf_printf(&sb, "%s\n", names[i]->d_name);
		free(names[i]);
	}
	free(names);
	return sb.buf ? sbuf_steal(&sb) : XSTRDUP(MTYPE_SBUF, "");
}

START_TEST(t_write_memory)
{
	struct vty *vty = vty_new(-1);
	char dir[] = "/tmp/skua-nb-write-XXXXXX", path[128], jpath[128], expect[512], names[256];
	char *text, *saved, *sav, *listing, *shown, *before;
	struct sbuf want;
	struct stat st;
	uint32_t txid = 1;
	struct sbuf errors;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/bgpd.conf", dir);
	snprintf(jpath, sizeof(jpath), "%s/bgpd.json", dir);
	write_file(path, "hostname old\n");
	ck_assert_int_eq(chmod(path, 0600), 0);
	load_ok("good-full.conf");
	nb_config_set_startup(path);

	snprintf(expect, sizeof(expect),
		 "Building Configuration...\nConfiguration saved to %s\n[OK]\n", path);
	ck_assert_str_eq(run(vty, "write memory", CMD_SUCCESS), expect);
	saved = read_file(path);
	sbuf_init(&want);
	nb_config_text(&want, false);
	ck_assert_str_eq(saved, want.buf);
	ck_assert_ptr_nonnull(strstr(saved, "!\nhostname r1\n"));
	ck_assert(strlen(saved) > 6 && !strcmp(saved + strlen(saved) - 4, "end\n"));
	/* The old file is kept as .sav; permissions stay; no temporary file is left. */
	sav = read_file("/dev/null");
	XFREE(MTYPE_SBUF, sav);
	snprintf(names, sizeof(names), "%s.sav", path);
	sav = read_file(names);
	ck_assert_str_eq(sav, "hostname old\n");
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0600);
	listing = dir_list(dir);
	ck_assert_str_eq(listing, "bgpd.conf\nbgpd.conf.sav\n");
	XFREE(MTYPE_SBUF, listing);
	XFREE(MTYPE_SBUF, sav);

	/* The other spellings are the same command; the backup is now the last save. */
	ck_assert_str_eq(run(vty, "write file", CMD_SUCCESS), expect);
	ck_assert_str_eq(run(vty, "write", CMD_SUCCESS), expect);
	ck_assert_str_eq(run(vty, "copy running-config startup-config", CMD_SUCCESS), expect);
	ck_assert_str_eq(run(vty, "wr", CMD_SUCCESS), expect);
	sav = read_file(names);
	ck_assert_str_eq(sav, saved);
	XFREE(MTYPE_SBUF, sav);
	ck_assert_str_eq(run(vty, "show startup-config", CMD_SUCCESS), saved);

	/* What was saved is what runs: reloading it changes nothing. */
	sbuf_init(&errors);
	sbuf_reset(&calls);
	ck_assert_int_eq(nb_config_reload(path, &txid, &errors), 0);
	ck_assert_uint_eq(txid, 0);
	ck_assert_str_eq(calls_text(), "");

	/* A JSON startup file is written as JSON and loads back into the same tree. */
	nb_config_set_startup(jpath);
	snprintf(expect, sizeof(expect),
		 "Building Configuration...\nConfiguration saved to %s\n[OK]\n", jpath);
	ck_assert_str_eq(run(vty, "write memory", CMD_SUCCESS), expect);
	text = read_file(jpath);
	before = show_json();
	ck_assert_str_eq(text, before);
	ck_assert_int_eq(stat(jpath, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0640); /* a new file */
	shown = show();
	restart_and_load(jpath);
	{
		char *again = show();

		ck_assert_str_eq(shown, again);
		XFREE(MTYPE_SBUF, again);
	}

	/* Failures say why and leave the file alone. */
	nb_config_set_startup("/nonexistent-dir/bgpd.conf");
	ck_assert_ptr_nonnull(
		strstr(run(vty, "write memory", CMD_WARNING_CONFIG_FAILED),
		       "% Can't open configuration file /nonexistent-dir/.bgpd.conf."));
	ck_assert_ptr_nonnull(strstr(run(vty, "write memory", CMD_WARNING_CONFIG_FAILED),
				     "% The configuration was not saved; "
				     "/nonexistent-dir/bgpd.conf is unchanged\n"));
	ck_assert_ptr_nonnull(strstr(run(vty, "show startup-config", CMD_WARNING),
				     "% Can't open configuration file /nonexistent-dir/bgpd.conf"));
	nb_config_set_startup(NULL);
	ck_assert_str_eq(run(vty, "write memory", CMD_WARNING_CONFIG_FAILED),
			 "Building Configuration...\n"
			 "% There is no startup configuration file to write to\n");

	unlink(path);
	unlink(names);
	unlink(jpath);
	rmdir(dir);
	sbuf_free(&want);
	sbuf_free(&errors);
	XFREE(MTYPE_SBUF, saved);
	XFREE(MTYPE_SBUF, text);
	XFREE(MTYPE_SBUF, before);
	XFREE(MTYPE_SBUF, shown);
	vty_free(vty);
}
END_TEST

static void find_line(const char *line, void *arg)
{
	const char **want = arg;

	if (*want && strstr(line, *want))
		*want = NULL;
}

/* Was a line containing needle logged (the ring of lib/log.h)? */
static bool logged(const char *needle)
{
	const char *want = needle;

	log_ring_walk(find_line, &want);
	return want == NULL;
}

/* An existing world-readable file used to keep its mode: the saved passwords were readable
 * by every local user. The save, and the backup, are at most readable by the group now. */
START_TEST(t_write_memory_tightens_mode)
{
	static const struct {
		mode_t before, after;
	} cases[] = {
		{ 0644, 0640 }, { 0666, 0640 }, { 0604, 0600 },	 { 0600, 0600 },
		{ 0640, 0640 }, { 0400, 0600 }, { 04755, 0640 },
	};
	struct vty *vty = vty_new(-1);
	char dir[] = "/tmp/skua-nb-mode-XXXXXX", path[128], sav[160], notice[256];
	bool root = geteuid() == 0;
	struct stat st;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/bgpd.conf", dir);
	snprintf(sav, sizeof(sav), "%s.sav", path);
	load_ok("good-full.conf");
	nb_config_set_startup(path);
	for (size_t i = 0; i < array_size(cases); i++) {
		write_file(path, "hostname old\n");
		/* Owner and group stay (root can give the new file to them). chown first: it
		 * clears the set-user-ID bit. */
		if (root)
			ck_assert_int_eq(chown(path, 4242, 4343), 0);
		ck_assert_int_eq(chmod(path, cases[i].before), 0);
		log_ring_clear();
		ck_assert_ptr_nonnull(strstr(run(vty, "write memory", CMD_SUCCESS), "[OK]"));
		ck_assert_int_eq(stat(path, &st), 0);
		ck_assert_msg((st.st_mode & 07777) == cases[i].after, "%04o saved as %04o",
			      (unsigned)cases[i].before, (unsigned)(st.st_mode & 07777));
		if (root) {
			ck_assert_uint_eq(st.st_uid, 4242);
			ck_assert_uint_eq(st.st_gid, 4343);
		}
		/* the backup holds the old passwords: the same mode */
		ck_assert_int_eq(stat(sav, &st), 0);
		ck_assert_msg((st.st_mode & 07777) == cases[i].after, "backup of %04o is %04o",
			      (unsigned)cases[i].before, (unsigned)(st.st_mode & 07777));
		snprintf(notice, sizeof(notice), "write memory: %s was mode %04o; saved it as %04o",
			 path, (unsigned)cases[i].before, (unsigned)cases[i].after);
		if (cases[i].before & 0037)
			ck_assert_msg(logged(notice), "no notice for %04o",
				      (unsigned)cases[i].before);
		else
			ck_assert(!logged("write memory:"));
		unlink(sav);
	}
	unlink(path);
	rmdir(dir);
	nb_config_set_startup(NULL);
	vty_free(vty);
}
END_TEST

/* ---- configuration sessions -------------------------------------------------------- */

static void vty_leave(struct vty *vty)
{
	/* As a vtysh session that closes: leaving configuration mode runs its hook. */
	vty_free(vty);
}

START_TEST(t_private_session)
{
	struct vty *a = vty_new(-1);
	const char *out;

	ck_assert_str_eq(run(a, "configure private", CMD_SUCCESS),
			 "Warning: uncommitted changes will be discarded on exit.\n\n");
	ck_assert_int_eq(a->node, CONFIG_NODE);
	ck_assert_str_eq(run(a, "do configure private", CMD_WARNING),
			 "% Already in configuration mode\n");
	ck_assert_int_eq(a->node, CONFIG_NODE);
	run(a, "hostname priv", CMD_SUCCESS);
	run(a, "router bgp 65001", CMD_SUCCESS);
	run(a, "neighbor 10.0.0.2 remote-as 65002", CMD_SUCCESS);
	run(a, "neighbor 10.0.0.2 description in the candidate", CMD_SUCCESS);
	/* Nothing applied: bgpd heard nothing, running is empty. */
	ck_assert_str_eq(calls_text(), "");
	ck_assert_ptr_null(nb_running());
	ck_assert_str_ne(vty_get_hostname(), "priv");
	out = run(a, "show configuration candidate", CMD_SUCCESS);
	ck_assert_ptr_nonnull(strstr(out, " neighbor 10.0.0.2 description in the candidate\n"));
	ck_assert_str_eq(run(a, "show configuration candidate changes", CMD_SUCCESS),
			 "+ hostname priv\n"
			 "+ router bgp 65001\n"
			 "+  neighbor 10.0.0.2 remote-as 65002\n"
			 "+  neighbor 10.0.0.2 description in the candidate\n"
			 "+ exit\n");
	/* Leaving without commit applies nothing. */
	ck_assert_str_eq(run(a, "end", CMD_SUCCESS), "% Uncommitted changes were discarded\n");
	ck_assert_int_eq(a->node, ENABLE_NODE);
	ck_assert_ptr_null(a->candidate);
	ck_assert_ptr_null(nb_running());
	ck_assert_str_eq(calls_text(), "");

	/* Commit applies it all at once. */
	run(a, "configure private", CMD_SUCCESS);
	run(a, "router bgp 65001", CMD_SUCCESS);
	run(a, "neighbor 10.0.0.2 remote-as 65002", CMD_SUCCESS);
	run(a, "neighbor 10.0.0.2 ttl-security hops 1", CMD_SUCCESS);
	ck_assert_str_eq(run(a, "commit check", CMD_SUCCESS),
			 "% Candidate configuration validated successfully.\n");
	ck_assert_str_eq(run(a, "commit comment first one", CMD_SUCCESS),
			 "% Configuration committed successfully (Transaction ID #1).\n");
	ck_assert_ptr_nonnull(the_bgp);
	ck_assert_ptr_eq(strstr(calls_text(), "bgp_create 65001\n"), calls_text());
	ck_assert_str_eq(run(a, "commit", CMD_SUCCESS), "% No configuration changes to commit.\n");
	ck_assert_str_eq(nb_history_get(0)->comment, "first one");

	/* A command is all or nothing in the candidate too: hold time 2 is refused, and the
	 * keepalive of the same command is not left behind. */
	ck_assert_str_eq(run(a, "timers bgp 10 2", CMD_WARNING_CONFIG_FAILED),
			 "% hold time value must be either 0 or greater than 3\n");
	ck_assert_ptr_null(
		strstr(run(a, "show configuration candidate json", CMD_SUCCESS), "\"keepalive\""));

	/* The whole-tree check comes at commit, naming the neighbor; the candidate stays. */
	sbuf_reset(&calls);
	run(a, "neighbor 10.0.0.2 ebgp-multihop 2", CMD_SUCCESS);
	ck_assert_str_eq(run(a, "commit check", CMD_WARNING),
			 "% Failed to validate candidate configuration: ebgp-multihop and "
			 "ttl-security cannot be configured together\n");
	ck_assert_str_eq(
		run(a, "commit", CMD_WARNING_CONFIG_FAILED),
		"% ebgp-multihop and ttl-security cannot be configured together "
		"(neighbor 10.0.0.2)\n"
		"% Nothing was committed; the candidate is kept (fix it, or \"discard\")\n");
	ck_assert_str_eq(calls_text(), "");
	run(a, "no neighbor 10.0.0.2 ttl-security hops", CMD_SUCCESS);
	ck_assert_str_eq(run(a, "commit", CMD_SUCCESS),
			 "% Configuration committed successfully (Transaction ID #2).\n");
	ck_assert_str_eq(calls_text(), "peer_changed 10.0.0.2 MULTIHOP\n"
				       "peer_changed 10.0.0.2 TTL_SECURITY\n");

	/* discard: back to running. */
	run(a, "neighbor 10.0.0.2 description to be discarded", CMD_SUCCESS);
	run(a, "discard", CMD_SUCCESS);
	ck_assert_str_eq(run(a, "show configuration candidate changes", CMD_SUCCESS), "");
	ck_assert_str_eq(run(a, "commit", CMD_SUCCESS), "% No configuration changes to commit.\n");
	run(a, "neighbor 10.0.0.2 description kept", CMD_SUCCESS);
	ck_assert_str_eq(run(a, "exit", CMD_SUCCESS), "");
	ck_assert_str_eq(run(a, "exit", CMD_SUCCESS), "% Uncommitted changes were discarded\n");
	ck_assert_ptr_null(
		yang_dnode_get(nb_running(), BGP_NEIGHBOR_XPATH "/description", "10.0.0.2"));

	/* A session that closes inside configure private applies nothing either. */
	run(a, "configure private", CMD_SUCCESS);
	run(a, "hostname never", CMD_SUCCESS);
	vty_leave(a);
	ck_assert_str_ne(vty_get_hostname(), "never");
}
END_TEST

START_TEST(t_two_sessions_merge)
{
	struct vty *a = vty_new(-1), *b = vty_new(-1), *c = vty_new(-1);
	char *before;
	const char *out;

	load_ok("base.conf");
	run(a, "configure private", CMD_SUCCESS);
	run(b, "configure private", CMD_SUCCESS);
	run(a, "router bgp 65001", CMD_SUCCESS);
	run(b, "router bgp 65001", CMD_SUCCESS);

	/* Different settings: both commits go in, the second merged onto the first. */
	run(a, "neighbor 192.0.2.1 password aaa", CMD_SUCCESS);
	run(b, "neighbor 10.0.0.9 remote-as 65009", CMD_SUCCESS);
	sbuf_reset(&calls);
	run(a, "commit", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "peer_changed 192.0.2.1 PASSWORD\n");
	sbuf_reset(&calls);
	ck_assert_str_eq(run(b, "commit", CMD_SUCCESS),
			 "% Configuration committed successfully (Transaction ID #3).\n");
	ck_assert_msg(!calls_mention("192.0.2.1"), "%s", calls_text());
	ck_assert_ptr_nonnull(strstr(calls_text(), "peer_create 10.0.0.9\n"));
	ck_assert_str_eq(
		yang_dnode_get_string(nb_running(), BGP_NEIGHBOR_XPATH "/password", "192.0.2.1"),
		"aaa");

	/* The same setting changed differently: the later commit is refused, nothing of it
	 * applied, running keeps the first. */
	run(a, "neighbor 192.0.2.1 description from a", CMD_SUCCESS);
	run(b, "neighbor 192.0.2.1 description from b", CMD_SUCCESS);
	run(b, "neighbor 10.0.0.9 passive", CMD_SUCCESS);
	run(a, "commit", CMD_SUCCESS);
	before = show_json();
	sbuf_reset(&calls);
	ck_assert_str_eq(run(b, "commit", CMD_WARNING_CONFIG_FAILED),
			 "% Commit refused: since this session's candidate was made, another "
			 "commit changed \"neighbor 192.0.2.1 description LINE...\" too; nothing "
			 "was applied (\"show configuration running\" shows it; \"discard\" starts "
			 "again from it, \"commit force\" overwrites it)\n");
	ck_assert_str_eq(calls_text(), "");
	{
		char *after = show_json();

		ck_assert_str_eq(before, after);
		XFREE(MTYPE_SBUF, after);
	}
	/* update refuses the same way; commit force takes b's candidate as it is. */
	ck_assert_ptr_nonnull(strstr(run(b, "update", CMD_WARNING), "% Commit refused"));
	run(b, "commit force", CMD_SUCCESS);
	ck_assert_str_eq(
		yang_dnode_get_string(nb_running(), BGP_NEIGHBOR_XPATH "/description", "192.0.2.1"),
		"from b");

	/* The same change made twice is no conflict. */
	run(a, "discard", CMD_SUCCESS);
	run(a, "neighbor 10.0.0.9 description same", CMD_SUCCESS);
	run(b, "neighbor 10.0.0.9 description same", CMD_SUCCESS);
	run(a, "commit", CMD_SUCCESS);
	ck_assert_str_eq(run(b, "commit", CMD_SUCCESS), "% No configuration changes to commit.\n");

	/* Editing a neighbor another session removed is a conflict. */
	run(a, "no neighbor 10.0.0.9", CMD_SUCCESS);
	run(b, "neighbor 10.0.0.9 description still here?", CMD_SUCCESS);
	run(a, "commit", CMD_SUCCESS);
	out = run(b, "commit", CMD_WARNING_CONFIG_FAILED);
	ck_assert_ptr_nonnull(strstr(out, "\"neighbor 10.0.0.9 description LINE...\""));
	ck_assert_ptr_null(yang_dnode_get(nb_running(), BGP_NEIGHBOR_XPATH, "10.0.0.9"));
	run(b, "discard", CMD_SUCCESS);

	/* configure terminal commits in between: b's commit stands on top of them. */
	run(c, "configure terminal", CMD_SUCCESS);
	run(c, "router bgp 65001", CMD_SUCCESS);
	run(c, "bgp router-id 10.9.9.9", CMD_SUCCESS);
	run(b, "neighbor 192.0.2.1 description b again", CMD_SUCCESS);
	run(b, "commit", CMD_SUCCESS);
	ck_assert_str_eq(yang_dnode_get_string(nb_running(), BGP_XPATH "/router-id"), "10.9.9.9");
	ck_assert_str_eq(
		yang_dnode_get_string(nb_running(), BGP_NEIGHBOR_XPATH "/description", "192.0.2.1"),
		"b again");

	XFREE(MTYPE_SBUF, before);
	vty_leave(a);
	vty_leave(b);
	vty_leave(c);
}
END_TEST

START_TEST(t_exclusive)
{
	struct vty *a = vty_new(-1), *b = vty_new(-1);

	load_ok("base.conf");
	run(a, "configure exclusive", CMD_SUCCESS);
	ck_assert_str_eq(run(b, "configure terminal", CMD_WARNING_CONFIG_FAILED),
			 "% Configuration is locked by another VTY (configure exclusive)\n");
	ck_assert_int_eq(b->node, ENABLE_NODE);
	ck_assert_str_eq(run(b, "configure private", CMD_WARNING_CONFIG_FAILED),
			 "% Configuration is locked by another VTY (configure exclusive)\n");
	ck_assert_str_eq(run(b, "rollback configuration 1", CMD_WARNING_CONFIG_FAILED),
			 "% Configuration is locked by another VTY (configure exclusive)\n");
	ck_assert_str_eq(run(b, "clear configuration reload", CMD_WARNING),
			 "% There is no startup configuration file to reload\n");
	run(a, "hostname mine", CMD_SUCCESS);
	run(a, "commit", CMD_SUCCESS);
	ck_assert_str_eq(vty_get_hostname(), "mine");
	run(a, "end", CMD_SUCCESS);

	/* Free again; and exclusive waits for nobody else to be configuring. */
	run(b, "configure terminal", CMD_SUCCESS);
	ck_assert_str_eq(run(a, "configure exclusive", CMD_WARNING_CONFIG_FAILED),
			 "% Another VTY is in configuration mode; configure exclusive needs to be "
			 "the only one\n");
	run(b, "end", CMD_SUCCESS);
	run(a, "configure exclusive", CMD_SUCCESS);
	vty_leave(a); /* the lock goes with the session */
	run(b, "configure terminal", CMD_SUCCESS);
	vty_leave(b);
}
END_TEST

/* ---- confirmed commits ------------------------------------------------------------ */

/* Run the test loop until no confirmed commit is pending (or max_ms pass). */
static void run_loop_until_expired(unsigned max_ms)
{
	uint64_t end = monotime_ms() + max_ms;

	while (nb_confirm_pending(NULL, NULL) && monotime_ms() < end) {
		event_loop_once(test_base, false);
		usleep(2000);
	}
}

static void run_loop_for(unsigned ms)
{
	uint64_t end = monotime_ms() + ms;

	while (monotime_ms() < end) {
		event_loop_once(test_base, false);
		usleep(2000);
	}
}

static void confirm_setup(void)
{
	setup();
	setenv("SKUA_CONFIRM_UNIT_MS", "40", 1);
	test_base = event_loop_new();
	bgp_config_set_event_base(test_base);
}

static void confirm_teardown(void)
{
	teardown(); /* nb_terminate() frees the timer before the loop goes */
	bgp_config_set_event_base(NULL);
	event_loop_free(test_base);
	test_base = NULL;
	unsetenv("SKUA_CONFIRM_UNIT_MS");
}

START_TEST(t_commit_confirmed_times_out)
{
	struct vty *a = vty_new(-1), *c = vty_new(-1);
	char *before;
	uint32_t id;

	ck_assert_uint_eq(nb_confirm_unit_ms(), 40);
	load_ok("base.conf");
	before = show_json();
	run(a, "configure private", CMD_SUCCESS);
	run(a, "router bgp 65001", CMD_SUCCESS);
	run(a, "neighbor 10.0.0.7 remote-as 65007", CMD_SUCCESS);
	ck_assert_str_eq(run(a, "commit confirmed 2", CMD_SUCCESS),
			 "% Configuration committed successfully (Transaction ID #2).\n"
			 "% The commit reverts in 2 minute(s) unless confirmed with \"commit\"\n");
	ck_assert(nb_confirm_pending(&id, NULL));
	ck_assert_uint_eq(id, 2);
	ck_assert_ptr_nonnull(strstr(run(a, "do show configuration commits", CMD_SUCCESS),
				     "Confirmed commit #2 pending"));
	/* The session may go: the pending commit does not depend on it. */
	vty_leave(a);

	/* Meanwhile another session changes something else: that survives the rollback. */
	run(c, "configure terminal", CMD_SUCCESS);
	run(c, "hostname meanwhile", CMD_SUCCESS);
	sbuf_reset(&calls);
	run_loop_until_expired(2000);
	ck_assert(!nb_confirm_pending(NULL, NULL));
	ck_assert_msg(strstr(calls_text(), "peer_delete 10.0.0.7\n"), "%s", calls_text());
	ck_assert_ptr_null(yang_dnode_get(nb_running(), BGP_NEIGHBOR_XPATH, "10.0.0.7"));
	ck_assert_str_eq(vty_get_hostname(), "meanwhile");
	ck_assert_int_eq(nb_history_get(nb_history_count() - 1)->source, NB_SRC_ROLLBACK);
	ck_assert_str_eq(nb_history_get(nb_history_count() - 1)->comment,
			 "confirmed commit 2 timed out");

	/* A later commit that changed the same settings: the configuration from before the
	 * confirmed commit comes back whole. */
	run(c, "hostname base", CMD_SUCCESS);
	{
		char *now = show_json();

		ck_assert_str_eq(now, before);
		XFREE(MTYPE_SBUF, now);
	}
	a = vty_new(-1);
	run(a, "configure private", CMD_SUCCESS);
	run(a, "router bgp 65001", CMD_SUCCESS);
	run(a, "neighbor 10.0.0.8 remote-as 65008", CMD_SUCCESS);
	run(a, "commit confirmed 1", CMD_SUCCESS);
	run(c, "router bgp 65001", CMD_SUCCESS);
	run(c, "neighbor 10.0.0.8 description touched by c", CMD_SUCCESS);
	run_loop_until_expired(2000);
	ck_assert(!nb_confirm_pending(NULL, NULL));
	{
		char *now = show_json();

		ck_assert_str_eq(now, before);
		XFREE(MTYPE_SBUF, now);
	}
	ck_assert_ptr_nonnull(
		strstr(nb_history_get(nb_history_count() - 1)->comment, "(full restore)"));
	XFREE(MTYPE_SBUF, before);
	vty_leave(a);
	vty_leave(c);
}
END_TEST

START_TEST(t_commit_confirmed_confirmed)
{
	struct vty *a = vty_new(-1), *b = vty_new(-1);

	load_ok("base.conf");
	run(a, "configure private", CMD_SUCCESS);
	run(a, "router bgp 65001", CMD_SUCCESS);
	run(a, "neighbor 10.0.0.7 remote-as 65007", CMD_SUCCESS);
	run(a, "commit confirmed 1", CMD_SUCCESS);
	/* Saving now would bring the change back at the next start even if it rolls back. */
	nb_config_set_startup("/tmp/skua-nb-never-written.conf");
	ck_assert_str_eq(run(b, "write memory", CMD_WARNING_CONFIG_FAILED),
			 "Building Configuration...\n"
			 "% Confirmed commit #2 is pending: confirm it with \"commit\" (or let it "
			 "roll back) before saving\n");
	ck_assert_int_ne(access("/tmp/skua-nb-never-written.conf", F_OK), 0);
	nb_config_set_startup(NULL);
	/* Again with a new time: the window restarts, with the new changes in it. */
	run(a, "neighbor 10.0.0.7 description extended", CMD_SUCCESS);
	ck_assert_str_eq(run(a, "commit confirmed 3", CMD_SUCCESS),
			 "% Configuration committed successfully (Transaction ID #3).\n"
			 "% Resetting confirmed-commit timeout to 3 minute(s)\n");
	/* Confirmed from another session. */
	run(b, "configure terminal", CMD_SUCCESS);
	ck_assert_str_eq(run(b, "commit", CMD_SUCCESS), "% Commit complete.\n");
	ck_assert(!nb_confirm_pending(NULL, NULL));
	sbuf_reset(&calls);
	run_loop_for(300);
	ck_assert_str_eq(calls_text(), "");
	ck_assert_str_eq(
		yang_dnode_get_string(nb_running(), BGP_NEIGHBOR_XPATH "/description", "10.0.0.7"),
		"extended");

	/* Confirmed by the same session's commit, which may carry more changes. */
	run(a, "neighbor 10.0.0.7 passive", CMD_SUCCESS);
	run(a, "commit confirmed 1", CMD_SUCCESS);
	run(a, "neighbor 10.0.0.7 shutdown", CMD_SUCCESS);
	ck_assert_str_eq(run(a, "commit", CMD_SUCCESS),
			 "% Configuration committed successfully (Transaction ID #5).\n"
			 "% Commit complete.\n");
	run_loop_for(200);
	ck_assert(yang_dnode_exists(nb_running(), BGP_NEIGHBOR_XPATH "/passive", "10.0.0.7"));
	ck_assert(yang_dnode_exists(nb_running(), BGP_NEIGHBOR_XPATH "/shutdown", "10.0.0.7"));

	/* Nothing to commit and nothing pending: nothing to confirm. */
	ck_assert_str_eq(run(a, "commit confirmed 1", CMD_SUCCESS),
			 "% No configuration changes to commit.\n");
	ck_assert(!nb_confirm_pending(NULL, NULL));
	vty_leave(a);
	vty_leave(b);
}
END_TEST

START_TEST(t_commit_confirmed_needs_loop)
{
	struct vty *a = vty_new(-1);

	/* Without the event loop no timer can run: the commit stands and says so. */
	run(a, "configure private", CMD_SUCCESS);
	run(a, "hostname r5", CMD_SUCCESS);
	ck_assert_str_eq(run(a, "commit confirmed 1", CMD_WARNING),
			 "% Configuration committed successfully (Transaction ID #1).\n"
			 "% commit confirmed needs the daemon's event loop (not running): the "
			 "commit is NOT protected by a timeout\n");
	ck_assert_str_eq(vty_get_hostname(), "r5");
	vty_leave(a);
}
END_TEST

/* ---- history and rollback ----------------------------------------------------------- */

START_TEST(t_history_and_rollback)
{
	struct vty *t = vty_new(-1), *e = vty_new(-1);
	char cmd[64], *at5 = NULL, *now, *list;
	const char *out;
	uint32_t last;

	load_ok("base.conf"); /* #1 */
	run(t, "configure terminal", CMD_SUCCESS);
	run(t, "router bgp 65001", CMD_SUCCESS);
	for (int i = 2; i <= 25; i++) {
		snprintf(cmd, sizeof(cmd), "neighbor 10.0.1.%d remote-as %d", i, 65000 + i);
		run(t, cmd, CMD_SUCCESS);
		if (i == 5)
			at5 = show_json();
	}
	ck_assert_int_eq(nb_history_count(), 25);
	out = run(e, "show configuration commits", CMD_SUCCESS);
	ck_assert_ptr_eq(strstr(out, "Transaction ID  Source    Date                 Changes  "
				     "Comment\n"),
			 out);
	ck_assert_ptr_nonnull(strstr(out, "\n            25  vtysh  "));
	ck_assert_ptr_nonnull(strstr(out, "\n             1  file     "));
	ck_assert_ptr_nonnull(strstr(out, "base.conf\n"));
	/* Newest first. */
	ck_assert(strstr(out, "            25  vtysh") < strstr(out, "             1  file"));
	list = strdup(out); /* out lives in e's buffer, which the next command reuses */
	ck_assert_ptr_nonnull(strstr(run(e, "show configuration commits json", CMD_SUCCESS),
				     "\"transactions\":["));
	ck_assert_str_eq(run(e, "show configuration transaction", CMD_SUCCESS), list);
	free(list);

	/* Rolling back to #5 restores that configuration exactly; only the difference is
	 * applied. */
	sbuf_reset(&calls);
	ck_assert_str_eq(run(e, "rollback configuration 5", CMD_SUCCESS),
			 "% Configuration was successfully rolled back (Transaction ID #26).\n");
	now = show_json();
	ck_assert_str_eq(now, at5);
	XFREE(MTYPE_SBUF, now);
	ck_assert_msg(!calls_mention("10.0.1.5") && !calls_mention("192.0.2.1"), "%s",
		      calls_text());
	ck_assert_ptr_nonnull(strstr(calls_text(), "peer_delete 10.0.1.6\n"));
	ck_assert_int_eq(nb_history_get(nb_history_count() - 1)->source, NB_SRC_ROLLBACK);
	ck_assert_str_eq(nb_history_get(nb_history_count() - 1)->comment,
			 "Rollback to transaction 5");
	ck_assert_str_eq(run(e, "rollback configuration 5", CMD_WARNING),
			 "% Aborting - no configuration changes detected.\n");
	ck_assert_str_eq(run(e, "rollback configuration 999", CMD_WARNING),
			 "% Transaction 999 does not exist.\n");

	/* A transaction's configuration, and what it changed. */
	ck_assert_ptr_nonnull(strstr(run(e, "show configuration transaction 3", CMD_SUCCESS),
				     " neighbor 10.0.1.3 remote-as 65003\n"));
	ck_assert_str_eq(run(e, "show configuration transaction 3 changes", CMD_SUCCESS),
			 "  router bgp 65001\n"
			 "+  neighbor 10.0.1.3 remote-as 65003\n");

	/* A label and a comment show in the list. */
	run(t, "end", CMD_SUCCESS);
	run(t, "configure private", CMD_SUCCESS);
	run(t, "hostname labelled", CMD_SUCCESS);
	run(t, "commit label lab1 comment raise the bar", CMD_SUCCESS);
	ck_assert_ptr_nonnull(
		strstr(run(e, "show configuration commits", CMD_SUCCESS), "  vtysh  "));
	ck_assert_ptr_nonnull(strstr(run(e, "show configuration commits", CMD_SUCCESS),
				     "[lab1] raise the bar\n"));

	/* The ring keeps the last NB_HISTORY_MAX. */
	for (int i = 0; i < 40; i++) {
		snprintf(cmd, sizeof(cmd), "hostname h%d", i);
		run(t, cmd, CMD_SUCCESS);
		run(t, "commit", CMD_SUCCESS);
	}
	last = nb_history_last_id();
	ck_assert_int_eq(nb_history_count(), NB_HISTORY_MAX);
	ck_assert_uint_eq(nb_history_get(0)->id, last - NB_HISTORY_MAX + 1);
	ck_assert_str_eq(run(e, "rollback configuration 5", CMD_WARNING),
			 "% Transaction 5 does not exist.\n");
	snprintf(cmd, sizeof(cmd), "rollback configuration %u", last - 10);
	run(e, cmd, CMD_SUCCESS);
	ck_assert_str_eq(vty_get_hostname(), "h29");

	XFREE(MTYPE_SBUF, at5);
	vty_leave(t);
	vty_leave(e);
}
END_TEST

START_TEST(t_kernel_cannot_enforce)
{
	static const char file_text[] = "router bgp 65001\n"
					" neighbor 10.0.0.3 remote-as 65003\n"
					" neighbor 10.0.0.3 password s3cret\n";
	char path[] = "/tmp/skua-nb-security-XXXXXX";
	struct vty *vty = config_vty();
	struct sbuf errors;
	char *before, *after, expected[256];
	const char *out;
	int fd;

	run(vty, "router bgp 65001", CMD_SUCCESS);
	run(vty, "neighbor 10.0.0.2 remote-as 65002", CMD_SUCCESS);
	run(vty, "neighbor 10.0.0.2 password before", CMD_SUCCESS); /* the kernel could then */

	/* Refused: the operator is told which neighbor and which kernel option; nothing
	 * changes, in running or in bgpd. */
	lacks_md5 = lacks_minttl = true;
	before = show();
	sbuf_reset(&calls);
	out = run(vty, "neighbor 10.0.0.2 password after", CMD_WARNING_CONFIG_FAILED);
	ck_assert_str_eq(out, "% neighbor 10.0.0.2 password refused: this kernel lacks TCP_MD5SIG "
			      "(IPv4: Operation not permitted)\n");
	out = run(vty, "neighbor 10.0.0.2 ttl-security hops 2", CMD_WARNING_CONFIG_FAILED);
	ck_assert_str_eq(out, "% neighbor 10.0.0.2 ttl-security refused: this kernel lacks "
			      "IP_MINTTL (IPv4: Operation not permitted)\n");
	ck_assert_str_eq(calls_text(), "");
	after = show();
	ck_assert_str_eq(after, before);
	XFREE(MTYPE_SBUF, after);

	/* Only the setting being changed is checked, and removing one is always allowed. */
	lacks_minttl = false;
	run(vty, "neighbor 10.0.0.2 ttl-security hops 2", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "peer_changed 10.0.0.2 TTL_SECURITY\n");
	sbuf_reset(&calls);
	run(vty, "no neighbor 10.0.0.2 password", CMD_SUCCESS);
	ck_assert_str_eq(calls_text(), "peer_changed 10.0.0.2 PASSWORD\n");
	vty_done(vty);
	XFREE(MTYPE_SBUF, before);

	/* A neighbor created with a password: the file is refused at its line, at start-up and
	 * by bgpd -C alike, and nothing runs. */
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	write_file(path, file_text);
	snprintf(expected, sizeof(expected),
		 "%s:3: neighbor 10.0.0.3 password refused: this kernel lacks TCP_MD5SIG "
		 "(IPv4: Operation not permitted)\n",
		 path);
	stop();
	sbuf_reset(&calls);
	start();
	sbuf_init(&errors);
	ck_assert_int_eq(nb_config_check_file(path, &errors), -1);
	ck_assert_str_eq(errors.buf ? errors.buf : "", expected);
	sbuf_reset(&errors);
	ck_assert_int_eq(nb_config_load_file(path, &errors), -1);
	ck_assert_str_eq(errors.buf ? errors.buf : "", expected);
	ck_assert_ptr_null(nb_running());
	ck_assert_ptr_null(the_bgp);
	ck_assert_str_eq(calls_text(), "");
	/* The same file loads once the kernel can enforce it. */
	lacks_md5 = false;
	sbuf_reset(&errors);
	ck_assert_int_eq(nb_config_load_file(path, &errors), 0);
	ck_assert_ptr_nonnull(the_bgp);
	sbuf_free(&errors);
	unlink(path);
}
END_TEST

static Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *files = tcase_create("files");
	TCase *cli = tcase_create("cli");
	TCase *life = tcase_create("lifecycle");
	TCase *confirm = tcase_create("confirm");

	tcase_add_checked_fixture(files, setup, teardown);
	tcase_add_loop_test(files, t_good_file, 0, (int)array_size(good_files));
	tcase_add_loop_test(files, t_bad_file, 0, (int)array_size(bad_files));
	tcase_add_loop_test(files, t_bad_file_check_only, 0, (int)array_size(bad_files));
	tcase_add_loop_test(files, t_bad_file_reload, 0, (int)array_size(bad_files));
	tcase_add_test(files, t_enough_bad_files);
	tcase_add_test(files, t_check_file_applies_nothing);
	tcase_add_test(files, t_missing_file);
	tcase_add_test(files, t_nul_byte_refused);
	tcase_add_test(files, t_frr_vty_lines_noted);
	tcase_add_test(files, t_locate_by_bisection);
	suite_add_tcase(s, files);

	tcase_add_checked_fixture(cli, setup, teardown);
	tcase_add_test(cli, t_apply_into_bgpd);
	tcase_add_test(cli, t_default_originate_apply);
	tcase_add_test(cli, t_frr_switches);
	tcase_add_test(cli, t_vty_per_command_commits);
	tcase_add_test(cli, t_vty_neighbor_delete_and_idempotence);
	tcase_add_test(cli, t_show_commands);
	tcase_add_test(cli, t_every_setting_is_applied);
	tcase_add_test(cli, t_neighbor_settings_rows);
	tcase_add_test(cli, t_system_commands);
	tcase_add_test(cli, t_peer_group_inheritance);
	tcase_add_test(cli, t_graceful_restart_apply);
	tcase_add_test(cli, t_llgr_apply);
	tcase_add_test(cli, t_kernel_cannot_enforce);
	tcase_add_test(cli, t_rpki_route_map_matches);
	tcase_add_test(cli, t_rpki_local_role);
	tcase_add_test(cli, t_rpki_node);
	tcase_add_test(cli, t_network_import_check_applies);
	tcase_add_test(cli, t_aggregate_options_apply);
	tcase_add_test(cli, t_bestpath_knobs_apply);
	tcase_add_test(cli, t_confederation_applies);
	suite_add_tcase(s, cli);

	tcase_add_checked_fixture(life, setup, teardown);
	tcase_add_test(life, t_reload_applies_only_the_diff);
	tcase_add_test(life, t_reload_command);
	tcase_add_test(life, t_write_memory);
	tcase_add_test(life, t_write_memory_tightens_mode);
	tcase_add_test(life, t_private_session);
	tcase_add_test(life, t_two_sessions_merge);
	tcase_add_test(life, t_exclusive);
	tcase_add_test(life, t_commit_confirmed_needs_loop);
	tcase_add_test(life, t_history_and_rollback);
	suite_add_tcase(s, life);

	tcase_add_checked_fixture(confirm, confirm_setup, confirm_teardown);
	tcase_add_test(confirm, t_commit_confirmed_times_out);
	tcase_add_test(confirm, t_commit_confirmed_confirmed);
	suite_add_tcase(s, confirm);
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
