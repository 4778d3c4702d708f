/* SPDX-License-Identifier: ISC */
/*
 * `show bgp summary`, `show bgp neighbors` and `debug bgp ...` through the command engine:
 * FRR's column layout (golden lines), FRR's JSON key names, one valid JSON document per
 * command (checked by a strict little parser), and the address-family rules of the summary.
 */
#include "lib/compat.h"

#include <check.h>
#include <unistd.h>

#include "bgpd/core/bgp_log.h"
#include "bgpd/core/bgp_msg.h"
#include "bgpd/rtr/rtr.h"
#include "bgpd/instance/bgp_instance.h"
#include "bgpd/session/bgp_network.h"
#include "bgpd/show/bgp_show.h"
#include "bgpd/show/bgp_show_neighbor.h"
#include "bgpd/wire/bgp_notify.h"
#include "lib/command.h"
#include "lib/vty.h"
#include "tests/unit/session_test.h"

static int lfd = -1;
static int remote_fd = -1;
static struct vty *vty;

static void setup(void)
{
	uint16_t port;

	st_setup();
	cmd_init();
	bgp_show_neighbor_init();
	bgp_debug_init();
	bgp_clear_init();
	vty = vty_new(-1);
	lfd = st_listen(&port);
	bgp_network_set_remote_port(port);
	ck_assert_int_eq(bgp_network_listen(st_base, "127.0.0.1", 0), 1);
}

static void teardown(void)
{
	if (remote_fd >= 0)
		close(remote_fd);
	remote_fd = -1;
	close(lfd);
	vty_free(vty);
	cmd_terminate();
	st_teardown();
}

static const char *run(const char *line)
{
	int r;

	sbuf_reset(&vty->out);
	r = cmd_execute(vty, line, false);
	ck_assert_msg(r == CMD_SUCCESS || r == CMD_WARNING, "%s: %d", line, r);
	return vty->out.buf ? vty->out.buf : "";
}

/* One established eBGP peer, one passive peer with a description, one shut down. */
static void three_peers(void)
{
	struct bgp_peer *p1 = st_peer("127.0.0.1", 65002, false), *p2, *p3;

	p2 = st_peer("127.0.0.2", 65003, true);
	p2->conf.description = XSTRDUP(MTYPE_BGP_PEER_CONF, "transit-a");
	p3 = st_peer("127.0.0.3", 65004, true);
	p3->conf.shutdown = true;
	bgp_peer_config_changed(p3, BGP_PEER_CHG_SHUTDOWN);
	remote_fd = st_establish_outgoing(p1, lfd, 65002, "192.0.2.1");
	ck_assert(st_state_is(p2, BGP_ST_ACTIVE, 2000));
}

/* ---- tests ---- */

START_TEST(test_summary_no_neighbors)
{
	ck_assert_str_eq(run("show bgp summary"), "% No BGP neighbors found in VRF default\n");
	ck_assert(st_json_valid(run("show bgp summary json")));
	st_json_has(run("show bgp summary json"), "{}");
	ck_assert(st_json_valid(run("show bgp ipv4 unicast summary json")));
	ck_assert(st_json_valid(run("show bgp neighbors json")));
	st_text_has(run("show bgp neighbors"), "% No BGP neighbors found\n");
}
END_TEST

START_TEST(test_summary_text_layout)
{
	const char *out;

	three_peers();
	out = run("show ip bgp summary");
	st_text_has(out, "\nIPv4 Unicast Summary (VRF default):\n"
			 "BGP router identifier 192.0.2.9, local AS number 65001 vrf-id 0\n"
			 "BGP table version 0\n"
			 "RIB entries 0, using 0 bytes of memory\n"
			 "Peers 3, using ");
	st_text_has(out, " of memory\n\nNeighbor        V         AS   MsgRcvd   MsgSent   TblVer  "
			 "InQ OutQ  Up/Down State/PfxRcd   PfxSnt Desc\n");
	st_text_has(out, "\n127.0.0.1       4      65002         2         2        0    0    0 "
			 "00:00:00            0        0 N/A\n");
	st_text_has(out, "\n127.0.0.2       4      65003         0         0        0    0    0    "
			 "never       Active        0 transit-a\n");
	st_text_has(out, "\n127.0.0.3       4      65004         0         0        0    0    0    "
			 "never Idle (Admin)        0 N/A\n");
	st_text_has(out, "\n\nTotal number of neighbors 3\n");
	/* `show bgp ipv4 unicast summary` is the same block without the title. */
	out = run("show bgp ipv4 unicast summary");
	ck_assert_msg(!strncmp(out, "BGP router identifier", 21), "%s", out);
	/* No IPv6 neighbor: nothing to show in that family. */
	ck_assert_str_eq(run("show bgp ipv6 summary"), "% No BGP neighbors found in VRF default\n");
}
END_TEST

START_TEST(test_summary_json)
{
	const char *out;

	three_peers();
	out = run("show ip bgp summary json");
	ck_assert_msg(st_json_valid(out), "%s", out);
	st_json_has(out, "{\"ipv4Unicast\":{\"routerId\":\"192.0.2.9\",\"as\":65001,\"vrfId\":0,"
			 "\"vrfName\":\"default\",\"tableVersion\":0,");
	st_json_has(out, "\"peerCount\":3,");
	st_json_has(out, "\"127.0.0.1\":{\"remoteAs\":65002,\"localAs\":65001,\"version\":4,"
			 "\"msgRcvd\":2,\"msgSent\":2,\"tableVersion\":0,\"outq\":0,\"inq\":0,"
			 "\"peerUptime\":\"00:00:00\",\"peerUptimeMsec\":0,"
			 "\"peerUptimeEstablishedEpoch\":");
	st_json_has(out,
		    "\"pfxRcd\":0,\"pfxSnt\":0,\"state\":\"Established\",\"peerState\":\"OK\","
		    "\"connectionsEstablished\":1,\"connectionsDropped\":0,\"idType\":\"ipv4\"}");
	st_json_has(out, "\"peerUptime\":\"never\",\"peerUptimeMsec\":0,\"pfxRcd\":0,\"pfxSnt\":0,"
			 "\"state\":\"Active\",\"peerState\":\"Passive\"");
	st_json_has(out, "\"desc\":\"transit-a\"");
	st_json_has(out, "\"state\":\"Idle (Admin)\",\"peerState\":\"Admin\"");
	st_json_has(out,
		    "\"failedPeers\":2,\"displayedPeers\":3,\"totalPeers\":3,\"dynamicPeers\":0}}");
	/* With the SAFI given: the bare block (FRR). */
	out = run("show bgp ipv4 unicast summary json");
	ck_assert(st_json_valid(out));
	st_json_has(out, "{\"routerId\":\"192.0.2.9\"");
	out = run("show bgp summary json");
	ck_assert(st_json_valid(out));
	st_json_has(out, "{\"ipv4Unicast\":{");
}
END_TEST

/* RFC 8212 on (bgp ebgp-requires-policy, the default): FRR's "(Policy)" in the summary's
 * count columns of an Established eBGP neighbor without policy, peerState "Policy" (after
 * Passive and Admin), and the neighbor's "discarded due to missing policy" lines. */
START_TEST(test_ebgp_requires_policy_shown)
{
	struct bgp_peer *p1;
	const char *out;

	three_peers();
	bgp_get()->ebgp_requires_policy = true;
	out = run("show ip bgp summary");
	st_text_has(out, "\n127.0.0.1       4      65002         2         2        0    0    0 "
			 "00:00:00     (Policy) (Policy) N/A\n");
	st_text_has(out, "    never       Active        0 transit-a\n");
	out = run("show ip bgp summary json");
	st_json_has(out, "\"pfxRcd\":0,\"pfxSnt\":0,\"state\":\"Established\",\"peerState\":"
			 "\"Policy\",");
	st_json_has(out, "\"state\":\"Active\",\"peerState\":\"Passive\"");
	st_json_has(out, "\"state\":\"Idle (Admin)\",\"peerState\":\"Admin\"");
	out = run("show ip bgp neighbors 127.0.0.1");
	/* In the family's block after the other per-family lines (send-community), as FRR. */
	st_text_has(out, "\n For address family: IPv4 Unicast\n");
	st_text_has(out, "\n  Inbound updates discarded due to missing policy\n"
			 "  Outbound updates discarded due to missing policy\n");
	out = run("show ip bgp neighbors 127.0.0.1 json");
	st_json_has(out, "\"inboundEbgpRequiresPolicy\":\"Inbound updates discarded due to "
			 "missing policy\",\"outboundEbgpRequiresPolicy\":\"Outbound updates "
			 "discarded due to missing policy\"");

	/* An inbound route-map (even one that does not exist) is a policy that way. */
	p1 = bgp_peer_lookup(
		bgp_get(), &(struct ipaddr){ .family = AF_INET, .u.v4.s_addr = htonl(0x7f000001) });
	ck_assert_ptr_nonnull(p1);
	p1->conf.rmap[BGP_AF_IPV4_UNICAST][BGP_DIR_IN] = XSTRDUP(MTYPE_BGP_PEER_CONF, "IN");
	out = run("show ip bgp summary");
	st_text_has(out, "00:00:00            0 (Policy) N/A\n");
	out = run("show ip bgp neighbors 127.0.0.1");
	ck_assert_ptr_null(strstr(out, "Inbound updates discarded"));
	st_text_has(out, "  Outbound updates discarded due to missing policy\n");
	/* Off: the counts again. */
	bgp_get()->ebgp_requires_policy = false;
	out = run("show ip bgp summary json");
	st_json_has(out, "\"state\":\"Established\",\"peerState\":\"OK\",");
}
END_TEST

/* A passive IPv6 neighbor with only IPv6 unicast activated, never up. */
static void ipv6_peer(void)
{
	struct bgp_peer *p = st_peer("::1", 65005, true);

	p->conf.af_activation[BGP_AF_IPV4_UNICAST] = BGP_AF_ACT_OFF;
	p->conf.af_activation[BGP_AF_IPV6_UNICAST] = BGP_AF_ACT_ON;
	bgp_peer_config_changed(p, BGP_PEER_CHG_AF_ACTIVATION);
	ck_assert(st_state_is(p, BGP_ST_ACTIVE, 2000));
}

/* `show bgp summary`: one titled block per family that has neighbors, in JSON one key each. */
START_TEST(test_summary_all_families)
{
	const char *out, *v6;

	three_peers();
	ipv6_peer();
	out = run("show bgp summary");
	st_text_has(out, "\nIPv4 Unicast Summary (VRF default):\nBGP router identifier 192.0.2.9");
	v6 = strstr(out, "\nIPv6 Unicast Summary (VRF default):\nBGP router identifier 192.0.2.9");
	ck_assert_msg(v6, "no IPv6 block in:\n%s", out);
	/* Each block lists its own neighbors. */
	ck_assert_ptr_nonnull(strstr(out, "\n127.0.0.1 "));
	ck_assert(strstr(out, "\n127.0.0.1 ") < v6);
	st_text_has(v6, "\n::1             4      65005         0         0        0    0    0    "
			"never       Active        0 N/A\n\nTotal number of neighbors 1\n");
	st_text_has(out, "\n\nTotal number of neighbors 3\n\nIPv6 Unicast Summary (VRF default):");
	out = run("show bgp summary json");
	ck_assert_msg(st_json_valid(out), "%s", out);
	st_json_has(out, "{\"ipv4Unicast\":{\"routerId\":\"192.0.2.9\"");
	st_json_has(out, "\"totalPeers\":3,\"dynamicPeers\":0},\"ipv6Unicast\":{\"routerId\"");
	st_json_has(out, "\"::1\":{\"remoteAs\":65005,");
	st_json_has(out, "\"idType\":\"ipv6\"}},\"failedPeers\":1,\"displayedPeers\":1,"
			 "\"totalPeers\":1,\"dynamicPeers\":0}}");
	/* `show ip bgp summary` is IPv4 only. */
	ck_assert_ptr_null(strstr(run("show ip bgp summary"), "IPv6"));
}
END_TEST

/* `established` and `failed` (FRR's filters and its failure columns). */
START_TEST(test_summary_filters)
{
	struct ipaddr a;
	const char *out;

	three_peers();
	ipv6_peer();
	out = run("show ip bgp summary established");
	st_text_has(out, "\n127.0.0.1       4      65002 ");
	ck_assert_ptr_null(strstr(out, "127.0.0.2"));
	ck_assert_ptr_null(strstr(out, "127.0.0.3"));
	st_text_has(out, "\n\nDisplayed neighbors 1\nTotal number of neighbors 3\n");

	out = run("show ip bgp summary failed");
	st_text_has(out, "Peers 3, using ");
	st_text_has(out, " of memory\n\nNeighbor        EstdCnt DropCnt ResetTime Reason\n"
			 "127.0.0.2             0       0     never Never established\n"
			 "127.0.0.3             0       0     never Admin. shutdown\n"
			 "\nDisplayed neighbors 2\nTotal number of neighbors 3\n");
	ck_assert_ptr_null(strstr(out, "127.0.0.1"));

	/* Nothing up in IPv6: `established` matches no one, `failed` everyone. */
	out = run("show bgp ipv6 unicast summary established");
	st_text_has(out, "Peers 1, using ");
	st_text_has(out, " of memory\n\n% No matching neighbor\n");
	ck_assert_ptr_null(strstr(out, "Neighbor "));
	out = run("show bgp ipv6 summary failed");
	st_text_has(out, "\nIPv6 Unicast Summary (VRF default):\n");
	st_text_has(out, "\n::1                   0       0     never Never established\n");

	out = run("show ip bgp summary failed json");
	ck_assert_msg(st_json_valid(out), "%s", out);
	st_json_has(out, "\"peers\":{\"127.0.0.2\":{\"connectionsEstablished\":0,"
			 "\"connectionsDropped\":0,\"peerUptime\":\"never\",\"peerUptimeMsec\":0,"
			 "\"lastResetDueTo\":\"\",\"lastResetCode\":0,\"idType\":\"ipv4\"},"
			 "\"127.0.0.3\":{");
	st_json_has(out, "\"lastResetDueTo\":\"Admin. shutdown\",\"lastResetCode\":11,");
	st_json_has(out, "\"failedPeers\":2,\"displayedPeers\":2,\"totalPeers\":3,");
	out = run("show bgp summary established json");
	ck_assert_msg(st_json_valid(out), "%s", out);
	st_json_has(out, "\"failedPeers\":2,\"displayedPeers\":1,\"totalPeers\":3,");
	st_json_has(out, "\"ipv6Unicast\":{\"routerId\":\"192.0.2.9\",");
	st_json_has(out, "\"peers\":{},\"failedPeers\":1,\"displayedPeers\":0,\"totalPeers\":1,");

	/* A session that went down with a NOTIFICATION shows it as the reason. */
	ck_assert_int_eq(ipaddr_from_str(&a, "127.0.0.1"), 0);
	bgp_fsm_event(bgp_session_primary(bgp_peer_lookup(bgp_get(), &a)), BGP_EV_HOLD_EXPIRES);
	out = run("show ip bgp summary failed");
	st_text_has(out,
		    "\n127.0.0.1             1       1  00:00:00 Notification sent (Hold Timer "
		    "Expired)\n");
	out = run("show ip bgp summary failed json");
	st_json_has(out, "\"127.0.0.1\":{\"connectionsEstablished\":1,\"connectionsDropped\":1,"
			 "\"peerUptime\":\"00:00:00\",\"peerUptimeMsec\":0,"
			 "\"peerUptimeEstablishedEpoch\":");
	st_json_has(out, "\"lastErrorCodeSubcode\":\"0400\",\"lastNotificationReason\":"
			 "\"Hold Timer Expired\",\"lastNotificationHardReset\":false,"
			 "\"lastResetDueTo\":\"BGP Notification send\",\"lastResetCode\":14,");
}
END_TEST

/* `failed` when every session is up: FRR's short answers, per family. */
START_TEST(test_summary_none_failed)
{
	struct bgp_peer *p1 = st_peer("127.0.0.1", 65002, false);
	const char *out;

	remote_fd = st_establish_outgoing(p1, lfd, 65002, "192.0.2.1");
	ck_assert_str_eq(run("show bgp ipv4 unicast summary failed"),
			 "% No failed BGP neighbors found\n");
	ck_assert_str_eq(
		run("show ip bgp summary failed"),
		"\nIPv4 Unicast Summary (VRF default):\n% No failed BGP neighbors found\n");
	out = run("show bgp ipv4 unicast summary failed json");
	ck_assert_msg(st_json_valid(out), "%s", out);
	st_json_has(out, "{\"failedPeersCount\":0,\"dynamicPeers\":0,\"totalPeers\":1}");
	out = run("show bgp summary failed json");
	ck_assert_msg(st_json_valid(out), "%s", out);
	st_json_has(out, "{\"ipv4Unicast\":{\"failedPeersCount\":0,\"dynamicPeers\":0,"
			 "\"totalPeers\":1}}");
	st_text_has(run("show bgp summary established"),
		    "\n\nDisplayed neighbors 1\nTotal number of neighbors 1\n");
}
END_TEST

START_TEST(test_neighbors_text)
{
	const char *out;

	three_peers();
	out = run("show ip bgp neighbors 127.0.0.1");
	st_text_has(out,
		    "BGP neighbor is 127.0.0.1, remote AS 65002, local AS 65001, external link\n"
		    "  Local Role: undefined\n"
		    "  Remote Role: undefined\n"
		    "  BGP version 4, remote router ID 192.0.2.1, local router ID 192.0.2.9\n"
		    "  BGP state = Established, up for 00:00:00\n");
	st_text_has(out, "  Hold time is 180 seconds, keepalive interval is 60 seconds\n"
			 "  Configured hold time is 180 seconds, keepalive interval is 60 seconds\n"
			 "  Neighbor capabilities:\n"
			 "    4 Byte AS: advertised and received\n");
	/* The scripted peer sends code 2 only: FRR names it "new". */
	st_text_has(out, "    Route refresh: advertised and received(new)\n");
	st_text_has(out, "    Address Family IPv4 Unicast: advertised and received\n");
	st_text_has(out, "    Graceful Restart Capability: advertised\n"
			 "  Graceful restart information:\n"
			 "    End-of-RIB send: \n"
			 "    End-of-RIB received: \n"
			 "    Local GR Mode: Helper*\n"
			 "    Remote GR Mode: Disable\n"
			 "    R bit: False\n"
			 "    N bit: False\n"
			 "    Timers:\n"
			 "      Configured Restart Time(sec): 120\n"
			 "      Received Restart Time(sec): 0\n"
			 "    IPv4 Unicast:\n"
			 "      F bit: False\n"
			 "      End-of-RIB sent: No\n"
			 "      End-of-RIB sent after update: No\n"
			 "      End-of-RIB received: No\n"
			 "      Timers:\n"
			 "        Configured Stale Path Time(sec): 360\n"
			 "  Message statistics:\n");
	st_text_has(out, "  Message statistics:\n    Inq depth is 0\n    Outq depth is 0\n"
			 "                         Sent       Rcvd\n"
			 "    Opens:                  1          1\n");
	st_text_has(out, " For address family: IPv4 Unicast\n"
			 "  Community attribute sent to this neighbor(all)\n");
	/* neighbor X default-originate [route-map NAME]: FRR 8.4's line after the community one,
	 * and its JSON keys. */
	{
		struct ipaddr a;
		struct bgp_peer *p;

		ipaddr_from_str(&a, "127.0.0.1");
		p = bgp_peer_lookup(bgp_get(), &a);
		p->conf.default_originate[BGP_AF_IPV4_UNICAST] = true;
		st_text_has(run("show ip bgp neighbors 127.0.0.1"),
			    "  Community attribute sent to this neighbor(all)\n"
			    "  Default information originate, default sent\n");
		st_json_has(run("show bgp neighbors 127.0.0.1 json"),
			    "\"commAttriSentToNbr\":\"extendedAndStandard\",\"defaultSent\":true,");
		p->conf.default_rmap[BGP_AF_IPV4_UNICAST] = XSTRDUP(MTYPE_BGP_PEER_CONF, "DEF");
		st_text_has(run("show ip bgp neighbors 127.0.0.1"),
			    "  Default information originate, default route-map DEF, default not "
			    "sent\n");
		st_json_has(run("show bgp neighbors 127.0.0.1 json"),
			    "\"defaultRouteMap\":\"DEF\",\"defaultNotSent\":true,");
		p->conf.default_originate[BGP_AF_IPV4_UNICAST] = false;
		XFREE(MTYPE_BGP_PEER_CONF, p->conf.default_rmap[BGP_AF_IPV4_UNICAST]);
		ck_assert_ptr_null(strstr(run("show ip bgp neighbors 127.0.0.1"), "Default"));
	}
	st_text_has(out, "  Connections established 1; dropped 0\n  Last reset never\n"
			 "  External BGP neighbor may be up to 1 hops away.\n"
			 "  TTL security (GTSM): off; on the socket minimum TTL 0, sending TTL 1\n"
			 "  Kernel counters (this namespace): TCPMinTTLDrop ");
	st_text_has(out, ", TCPMD5Failure ");
	st_text_has(out, "\nLocal host: 127.0.0.1, Local port: ");
	st_text_has(out, "Foreign host: 127.0.0.1, Foreign port: ");
	/* The IPv6 next hops are lo's (::1, or :: without IPv6): the lab checks a real link's. */
	st_text_has(out, "\nNexthop: 127.0.0.1\nNexthop global: ");
	st_text_has(out, "\nBGP connection: shared network\nBGP Connect Retry Timer");
	/* FRR 8.4: the message counters, then the advertisement interval, no blank line. */
	st_text_has(out, "\n  Minimum time between advertisement runs is ");
	ck_assert_msg(!strstr(out, "\n\n  Minimum time between"), "%s", out);
	st_text_has(out,
		    "  Community attribute sent to this neighbor(all)\n  0 accepted prefixes\n");
	st_text_has(out, "BGP Connect Retry Timer in Seconds: 120\n");
	out = run("show bgp neighbors");
	st_text_has(out, "BGP neighbor is 127.0.0.2, remote AS 65003");
	st_text_has(out, " Description: transit-a\n");
	st_text_has(out, "  BGP state = Active (passive)\n");
	st_text_has(out, " Administratively shut down\n");
	st_text_has(out, "  Last reset 00:00:00,  Admin. shutdown\n");
	ck_assert_str_eq(run("show bgp neighbors 192.0.2.200"),
			 "% No such neighbor in this view/vrf\n\n");
}
END_TEST

/* `show bgp ipv4 neighbors [PEER] graceful-restart [json]`, FRR 8.4's layout. */
#define GR_HEADER                                                             \
	"\nCodes: GR - Graceful Restart, * -  Inheriting Global GR Config,\n" \
	"       Restart - GR Mode-Restarting, Helper - GR Mode-Helper,\n"     \
	"       Disable - GR Mode-Disable.\n\n"                               \
	"Global BGP GR Mode :  Helper\n\n"

START_TEST(test_neighbors_graceful_restart)
{
	const char *out;

	three_peers();
	out = run("show bgp ipv4 neighbors 127.0.0.1 graceful-restart");
	ck_assert_str_eq(out, GR_HEADER "BGP neighbor is 127.0.0.1\n"
					"    Local GR Mode: Helper*\n"
					"    Remote GR Mode: Disable\n"
					"    R bit: False\n"
					"    N bit: False\n"
					"    Timers:\n"
					"      Configured Restart Time(sec): 120\n"
					"      Received Restart Time(sec): 0\n"
					"    IPv4 Unicast:\n"
					"      F bit: False\n"
					"      End-of-RIB sent: No\n"
					"      End-of-RIB sent after update: No\n"
					"      End-of-RIB received: No\n"
					"      Timers:\n"
					"        Configured Stale Path Time(sec): 360\n"
					"\n");
	out = run("show bgp ipv4 neighbors 127.0.0.1 graceful-restart json");
	ck_assert_msg(st_json_valid(out), "%s", out);
	st_json_has(out, "{\"127.0.0.1\":{\"neighborAddr\":\"127.0.0.1\",\"localGrMode\":"
			 "\"Helper*\",\"remoteGrMode\":\"Disable\",\"rBit\":false,\"nBit\":false,"
			 "\"timers\":{\"configuredRestartTimer\":120,\"receivedRestartTimer\":0},"
			 "\"ipv4Unicast\":{\"fBit\":false,");
	/* Every neighbor of the family; none in IPv6 (the header alone). */
	out = run("show bgp ipv4 neighbors graceful-restart");
	st_text_has(out, "BGP neighbor is 127.0.0.2\n    Local GR Mode: Helper*\n");
	ck_assert_str_eq(run("show bgp ipv6 neighbors graceful-restart"), GR_HEADER "\n");
	ck_assert_str_eq(run("show bgp ipv4 neighbors 192.0.2.200 graceful-restart"),
			 GR_HEADER "% No such neighbor\n\n");
	st_json_has(run("show bgp ipv4 neighbors 192.0.2.200 graceful-restart json"),
		    "\"bgpNoSuchNeighbor\":true");
}
END_TEST

START_TEST(test_neighbors_json)
{
	const char *out;

	three_peers();
	out = run("show bgp neighbors 127.0.0.1 json");
	ck_assert_msg(st_json_valid(out), "%s", out);
	st_json_has(
		out,
		"{\"127.0.0.1\":{\"remoteAs\":65002,\"localAs\":65001,"
		"\"nbrExternalLink\":true,\"localRole\":\"undefined\","
		"\"remoteRole\":\"undefined\",\"bgpVersion\":4,\"remoteRouterId\":\"192.0.2.1\","
		"\"localRouterId\":\"192.0.2.9\",\"bgpState\":\"Established\","
		"\"bgpTimerUpMsec\":");
	st_json_has(out, "\"bgpTimerUpString\":\"00:00:00\",\"bgpTimerUpEstablishedEpoch\":");
	st_json_has(out,
		    "\"bgpTimerConfiguredHoldTimeMsecs\":180000,"
		    "\"bgpTimerConfiguredKeepAliveIntervalMsecs\":60000,"
		    "\"bgpTimerHoldTimeMsecs\":180000,\"bgpTimerKeepAliveIntervalMsecs\":60000,"
		    "\"neighborCapabilities\":{\"4byteAs\":\"advertisedAndReceived\"");
	st_json_has(out, "\"routeRefresh\":\"advertisedAndReceivedNew\"");
	/* The scripted peer sends no Graceful Restart capability: FRR's "Disable". */
	st_json_has(out, "\"multiprotocolExtensions\":{\"ipv4Unicast\":{\"advertisedAndReceived\":"
			 "true}},\"gracefulRestart\":\"advertised\"}");
	st_json_has(out,
		    "\"gracefulRestartInfo\":{\"endOfRibSend\":{},\"endOfRibRecv\":{},"
		    "\"localGrMode\":\"Helper*\",\"remoteGrMode\":\"Disable\",\"rBit\":false,"
		    "\"nBit\":false,\"timers\":{\"configuredRestartTimer\":120,"
		    "\"receivedRestartTimer\":0},\"ipv4Unicast\":{\"fBit\":false,"
		    "\"endOfRibStatus\":{\"endOfRibSend\":false,\"endOfRibSentAfterUpdate\":false,"
		    "\"endOfRibRecv\":false},\"timers\":{\"stalePathTimer\":360}}},"
		    "\"messageStats\"");
	st_json_has(out, "\"messageStats\":{\"depthInq\":0,\"depthOutq\":0,\"opensSent\":1,"
			 "\"opensRecv\":1,");
	/* FRR 8.4's default send-community (all three kinds) says "extendedAndStandard". */
	st_json_has(out,
		    "\"addressFamilyInfo\":{\"ipv4Unicast\":{"
		    "\"commAttriSentToNbr\":\"extendedAndStandard\",\"acceptedPrefixCounter\":0,"
		    "\"sentPrefixCounter\":0}},\"connectionsEstablished\":1,"
		    "\"connectionsDropped\":0,\"lastReset\":\"never\","
		    "\"externalBgpNbrMaxHopsAway\":1,\"gtsm\":{\"enabled\":false,\"hops\":0,"
		    "\"minTtlConfigured\":0,\"minTtlSocket\":0,\"sendTtlSocket\":1,"
		    "\"listenerProtected\":false},\"kernelCounters\":{\"tcpMinTtlDrop\":");
	st_json_has(out, "\"tcpMd5Failure\":");
	st_json_has(out, "},\"hostLocal\":\"127.0.0.1\",\"portLocal\":");
	st_json_has(out, "\"hostForeign\":\"127.0.0.1\",\"portForeign\":");
	st_json_has(out, "\"connectRetryTimer\":120");

	out = run("show ip bgp neighbors json");
	ck_assert(st_json_valid(out));
	st_json_has(out, "\"127.0.0.3\":{");
	st_json_has(out, "\"adminShutDown\":true");
	st_json_has(out, "\"lastResetDueTo\":\"Admin. shutdown\",\"lastResetCode\":11");
	st_json_has(out, "\"hostLocal\":\"Unknown\",\"portLocal\":-1");
	out = run("show bgp neighbors 192.0.2.200 json");
	ck_assert(st_json_valid(out));
	st_json_has(out, "{\"bgpNoSuchNeighbor\":true}");
}
END_TEST

START_TEST(test_neighbors_after_notification)
{
	struct bgp_peer *peer;
	struct ipaddr a;
	const char *out;

	three_peers();
	ck_assert_int_eq(ipaddr_from_str(&a, "127.0.0.1"), 0);
	peer = bgp_peer_lookup(bgp_get(), &a);
	ck_assert_ptr_nonnull(peer);
	bgp_fsm_event(bgp_session_primary(peer), BGP_EV_HOLD_EXPIRES);
	out = run("show bgp neighbors 127.0.0.1");
	st_text_has(out, "  Connections established 1; dropped 1\n");
	st_text_has(out, "  Last reset 00:00:00,  Notification sent (Hold Timer Expired)\n");
	st_text_has(out, "Next start timer due in 1 seconds\n");
	out = run("show bgp neighbors 127.0.0.1 json");
	ck_assert(st_json_valid(out));
	st_json_has(out, "\"lastErrorCodeSubcode\":\"0400\",\"lastNotificationReason\":"
			 "\"Hold Timer Expired\"");
	st_json_has(out, "\"lastResetDueTo\":\"BGP Notification send\",\"lastResetCode\":14");
	out = run("show ip bgp summary");
	st_text_has(out, "\n127.0.0.1       4      65002         2         3        0    0    0 "
			 "00:00:00         Idle        0 N/A\n");
}
END_TEST

static struct bgp_peer *peer_at(const char *addr);

/* A Cease received with a shutdown communication (RFC 9003): FRR's lastShutdownDescription in
 * the neighbor's JSON (FRR's text does not show it). */
START_TEST(test_neighbors_received_shutdown_message)
{
	static const char text[] = "maintenance window 42";
	uint8_t buf[BGP_HEADER_LEN + 3 + sizeof(text)];
	struct bgp_peer *peer;
	const char *out;
	size_t len;

	three_peers();
	peer = peer_at("127.0.0.1");
	len = bgp_notify_encode_shutdown(buf, sizeof(buf), BGP_ERR_CEASE_ADMIN_SHUTDOWN, text);
	ck_assert_uint_eq(len, BGP_HEADER_LEN + 3 + strlen(text));
	st_send(remote_fd, buf, len);
	ck_assert(st_state_is(peer, BGP_ST_IDLE, 2000));
	out = run("show bgp neighbors 127.0.0.1 json");
	ck_assert(st_json_valid(out));
	st_json_has(out, "\"lastNotificationReason\":\"Cease/Administrative Shutdown\","
			 "\"lastNotificationHardReset\":false,"
			 "\"lastShutdownDescription\":\"maintenance window 42\"");
	st_json_has(out, "\"lastResetDueTo\":\"BGP Notification received\"");
}
END_TEST

static struct bgp_peer *peer_at(const char *addr)
{
	struct ipaddr a;

	ck_assert_int_eq(ipaddr_from_str(&a, addr), 0);
	return bgp_peer_lookup(bgp_get(), &a);
}

/* maximum-prefix exceeded (what the RIB reports): NOTIFICATION Cease / Maximum Number of
 * Prefixes Reached with AFI 1, SAFI 1 and the limit as data (RFC 4486, as FRR), the session
 * held "Idle (PfxCt)" with FRR's lines, the restart timer shown, `clear bgp` releases it. */
START_TEST(test_max_prefix_overflow)
{
	struct bgp_peer *p1;
	uint8_t body[64];
	size_t len = 0;
	const char *out;

	three_peers();
	p1 = peer_at("127.0.0.1");
	p1->conf.maxpfx[BGP_AF_IPV4_UNICAST] =
		(struct bgp_maxpfx){ .max = 300, .threshold = 90, .restart = 0 };
	out = run("show ip bgp neighbors 127.0.0.1");
	st_text_has(out, "  Maximum prefixes allowed 300\n  Threshold for warning message 90%\n");
	session_max_prefix_exceeded(p1, BGP_AF_IPV4_UNICAST, 300);
	ck_assert_int_eq(st_expect(remote_fd, 3, body, sizeof(body), &len, 2000), 3);
	ck_assert_uint_eq(len, 9);
	ck_assert_uint_eq(body[0], BGP_ERR_CEASE);
	ck_assert_uint_eq(body[1], BGP_ERR_CEASE_MAX_PREFIX);
	ck_assert_mem_eq(body + 2, "\x00\x01\x01\x00\x00\x01\x2c", 7);
	ck_assert(st_state_is(p1, BGP_ST_IDLE, 2000));
	st_pump(100); /* no restart by itself */
	ck_assert(bgp_session_state(p1) == BGP_ST_IDLE);
	out = run("show ip bgp summary");
	st_text_has(out, "00:00:00 Idle (PfxCt)        0 N/A\n");
	out = run("show ip bgp summary json");
	st_json_has(out, "\"state\":\"Idle (PfxCt)\",\"peerState\":\"PfxCt\"");
	out = run("show ip bgp neighbors 127.0.0.1");
	st_text_has(out, "Notification sent (Cease/Maximum Number of Prefixes Reached)\n"
			 "  Peer had exceeded the max. no. of prefixes configured.\n"
			 "  Reduce the no. of prefix and clear ip bgp 127.0.0.1 to restore "
			 "peering\n");
	out = run("show ip bgp neighbors 127.0.0.1 json");
	st_json_has(out, "\"prefixAllowedMax\":300,\"prefixAllowedWarningThresh\":90}");
	st_json_has(out, "\"prefixesConfigExceedMax\":true,\"reducePrefixNumAndClearIpBgp\":true");
	ck_assert_str_eq(run("clear ip bgp 127.0.0.1"), "");
	ck_assert(st_state_is(p1, BGP_ST_CONNECT, 2000));
	ck_assert(!bgp_session_pfx_overflow(p1));
	ck_assert_ptr_null(strstr(run("show ip bgp neighbors 127.0.0.1"), "Peer had exceeded"));
}
END_TEST

/* The number right after the first `what` in text (the test fails when there is none). */
static long number_after(const char *text, const char *what)
{
	const char *p = strstr(text, what);

	ck_assert_msg(p, "missing [%s] in:\n%s", what, text);
	return strtol(p + strlen(what), NULL, 10);
}

/* With `restart 5`: the timer runs and is shown; warning-only never calls the session. */
START_TEST(test_max_prefix_restart_timer)
{
	struct bgp_peer *p1;
	uint8_t body[64];
	size_t len = 0;
	const char *out;
	int64_t left;

	three_peers();
	p1 = peer_at("127.0.0.1");
	p1->conf.maxpfx[BGP_AF_IPV4_UNICAST] =
		(struct bgp_maxpfx){ .max = 2, .threshold = 75, .restart = 5 };
	session_max_prefix_exceeded(p1, BGP_AF_IPV4_UNICAST, 2);
	ck_assert_int_eq(st_expect(remote_fd, 3, body, sizeof(body), &len, 2000), 3);
	ck_assert(st_state_is(p1, BGP_ST_IDLE, 2000));
	left = bgp_session_pfx_restart_remaining(p1);
	ck_assert_int_gt(left, 290000);
	ck_assert_int_le(left, 300000);
	out = run("show ip bgp neighbors 127.0.0.1");
	st_text_has(out, "  Threshold for warning message 75%, restart interval 5 min\n");
	/* 290..300 seconds left, depending on how long the steps above took. */
	ck_assert_int_ge(
		number_after(out, "Reduce the no. of prefix from 127.0.0.1, will restart in "),
		290);
	ck_assert_int_le(number_after(out, "will restart in "), 300);
	out = run("show ip bgp neighbors 127.0.0.1 json");
	st_json_has(out, "\"prefixAllowedRestartIntervalMsecs\":300000");
	st_json_has(out, "\"prefixesConfigExceedMax\":true,\"reducePrefixNumFrom\":true,"
			 "\"restartInTimerMsec\":");
	ck_assert_int_ge(number_after(out, "\"restartInTimerMsec\":"), 290000);
	ck_assert_int_le(number_after(out, "\"restartInTimerMsec\":"), 300000);
}
END_TEST

/* Single-hop eBGP to an address on no connected network is not connected to (FRR's "Waiting
 * for NHT"); ebgp-multihop, ttl-security or disable-connected-check lift the check; a neighbor
 * on a connected network (127.0.0.1 on lo) passes. The neighbors are passive: a unit test
 * opens no connection towards a documentation address (the lab tests the FSM in namespaces). */
START_TEST(test_connected_check)
{
	struct bgp_peer *far = st_peer("198.51.100.200", 65002, true);
	const char *out;

	ck_assert(!bgp_session_connected_ok(far->session));
	ck_assert_uint_eq(far->session->last_reset, BGP_DOWN_WAITING_NHT);
	ck_assert(st_logged("198.51.100.200 is on no connected network", "disable-connected-check",
			    ""));
	out = run("show bgp neighbors 198.51.100.200");
	st_text_has(out, "  Last reset 00:00:00,  Waiting for NHT\n");
	st_json_has(run("show bgp neighbors 198.51.100.200 json"),
		    "\"lastResetDueTo\":\"Waiting for NHT\",\"lastResetCode\":27");
	far->conf.ebgp_multihop = 2;
	ck_assert(bgp_session_connected_ok(far->session));
	far->conf.ebgp_multihop = 0;
	far->conf.ttl_security_hops = 2;
	ck_assert(bgp_session_connected_ok(far->session));
	far->conf.ttl_security_hops = 0;
	far->conf.disable_connected_check = true;
	ck_assert(bgp_session_connected_ok(far->session));
	far->conf.disable_connected_check = false;
	ck_assert(!bgp_session_connected_ok(far->session));
	ck_assert(bgp_session_connected_ok(st_peer("127.0.0.1", 65003, true)->session));
}
END_TEST

/* `clear bgp PEER`: Cease / Administrative Reset, "User reset", and a new start at once. */
START_TEST(test_clear_hard)
{
	struct bgp_peer *p1;
	uint8_t body[64];
	size_t len = 0;

	three_peers();
	p1 = peer_at("127.0.0.1");
	ck_assert_str_eq(run("clear ip bgp 127.0.0.1"), "");
	ck_assert_int_eq(st_expect(remote_fd, 3, body, sizeof(body), &len, 2000), 3);
	ck_assert_uint_ge(len, 2);
	ck_assert_uint_eq(body[0], BGP_ERR_CEASE);
	ck_assert_uint_eq(body[1], BGP_ERR_CEASE_ADMIN_RESET);
	ck_assert_uint_eq(p1->session->dropped_count, 1);
	ck_assert_uint_eq(p1->session->last_reset, BGP_DOWN_USER_RESET);
	/* No IdleHoldTimer: the peer is connecting again already. */
	ck_assert(st_state_is(p1, BGP_ST_CONNECT, 2000));
	ck_assert_int_eq(bgp_session_timer_remaining(p1, BGP_TIMER_IDLE_HOLD), -1);
	st_text_has(run("show bgp neighbors 127.0.0.1"), "  Last reset 00:00:00,  User reset\n");
	/* The passive one stays passive, the shut down one down. */
	ck_assert_str_eq(run("clear bgp *"), "");
	st_pump(50);
	ck_assert_uint_eq(bgp_session_state(peer_at("127.0.0.2")), BGP_ST_ACTIVE);
	ck_assert_uint_eq(bgp_session_state(peer_at("127.0.0.3")), BGP_ST_IDLE);
	ck_assert_str_eq(run("clear bgp 192.0.2.200"),
			 "% BGP: Unknown neighbor - \"192.0.2.200\"\n");
}
END_TEST

/* `soft in` sends a ROUTE-REFRESH, `soft out` has the RIB resend; the session stays up. */
START_TEST(test_clear_soft)
{
	struct bgp_peer *p1;
	uint8_t body[64];
	size_t len = 0;

	three_peers();
	p1 = peer_at("127.0.0.1");
	ck_assert_str_eq(run("clear ip bgp 127.0.0.1 soft in"), "");
	ck_assert_int_eq(st_expect(remote_fd, 5, body, sizeof(body), &len, 2000), 5);
	ck_assert_uint_eq(len, 4);
	ck_assert_mem_eq(body, "\x00\x01\x00\x01", 4); /* AFI 1, reserved, SAFI 1 */
	ck_assert_uint_eq(rib_calls.refresh, 0);
	ck_assert_str_eq(run("clear bgp * soft out"), "");
	ck_assert_uint_eq(rib_calls.refresh, 1);
	ck_assert_str_eq(run("clear bgp ipv4 unicast 127.0.0.1 soft"), "");
	ck_assert_uint_eq(rib_calls.refresh, 2);
	ck_assert_int_eq(st_expect(remote_fd, 5, body, sizeof(body), &len, 2000), 5);
	ck_assert_str_eq(run("clear bgp ipv6 127.0.0.1 out"),
			 "% BGP: Enable IPv6 Unicast address family for the neighbor 127.0.0.1\n");
	ck_assert_uint_eq(rib_calls.refresh, 2);
	/* A peer without the capability cannot be asked. */
	p1->session->info.route_refresh = false;
	ck_assert_str_eq(run("clear ip bgp * in"),
			 "% BGP: Inbound soft reconfig for 127.0.0.1 not possible as it\n"
			 "      has neither refresh capability, nor inbound soft reconfig\n");
	ck_assert_uint_eq(bgp_session_state(p1), BGP_ST_ESTABLISHED);
	ck_assert_uint_eq(p1->session->dropped_count, 0);
	ck_assert_uint_eq(p1->session->sent.count[3], 0); /* no NOTIFICATION */
}
END_TEST

/*
 * The RIB keeps the routes as received without soft-reconfiguration inbound (an inbound
 * route-map matching rpki or aspa; the RIB stub says so here): `soft in` re-runs them and sends
 * no ROUTE-REFRESH, even to a peer without the capability, and `show bgp neighbors` says why
 * they are kept (skua's line; the configured case prints FRR's).
 */
START_TEST(test_clear_soft_in_kept_for_validation)
{
	struct bgp_peer *p1;
	unsigned rr;

	three_peers();
	p1 = peer_at("127.0.0.1");
	rib_calls.kept_af_mask = 1u << BGP_AF_IPV4_UNICAST;
	rr = p1->session->sent.count[5];
	ck_assert_str_eq(run("clear ip bgp 127.0.0.1 soft in"), "");
	ck_assert_uint_eq(rib_calls.soft_in, 1);
	p1->session->info.route_refresh = false;
	ck_assert_str_eq(run("clear bgp * soft in"), "");
	ck_assert_uint_eq(rib_calls.soft_in, 2);
	st_pump(50);
	ck_assert_uint_eq(p1->session->sent.count[5], rr); /* no ROUTE-REFRESH */

	st_text_has(run("show bgp neighbors 127.0.0.1"),
		    " For address family: IPv4 Unicast\n"
		    "  Inbound routes kept as received (inbound route-map matches rpki or aspa)\n");
	ck_assert_ptr_nonnull(strstr(run("show bgp neighbors 127.0.0.1 json"),
				     "\"inboundRoutesKeptForValidation\":true"));
	/* Configured: FRR's line and key only. */
	p1->conf.soft_reconfig[BGP_AF_IPV4_UNICAST] = true;
	ck_assert_ptr_null(strstr(run("show bgp neighbors 127.0.0.1"), "Inbound routes kept"));
	st_text_has(run("show bgp neighbors 127.0.0.1"),
		    "  Inbound soft reconfiguration allowed\n");
	ck_assert_ptr_null(strstr(run("show bgp neighbors 127.0.0.1 json"), "KeptForValidation"));
	p1->conf.soft_reconfig[BGP_AF_IPV4_UNICAST] = false;
}
END_TEST

START_TEST(test_debug_commands)
{
	vty->node = ENABLE_NODE;
	debug_flags = 0;
	run("debug bgp neighbor-events");
	run("debug bgp updates in");
	ck_assert(DEBUG_ON(BGP_DEBUG_NEIGHBOR_EVENTS));
	ck_assert(DEBUG_ON(BGP_DEBUG_UPDATES_IN));
	ck_assert(!DEBUG_ON(BGP_DEBUG_UPDATES_OUT));
	ck_assert_str_eq(run("show debugging bgp"),
			 "BGP debugging status:\n  BGP neighbor-events debugging is on\n"
			 "  BGP updates debugging is on (inbound)\n");
	run("debug bgp keepalives");
	run("no debug bgp updates");
	run("no debug bgp neighbor-events");
	ck_assert_str_eq(run("show debugging bgp"),
			 "BGP debugging status:\n  BGP keepalives debugging is on\n");
	run("no debug bgp keepalives");
	ck_assert_uint_eq(debug_flags, 0);
	run("debug rpki");
	ck_assert(DEBUG_ON(RTR_DEBUG));
	ck_assert_str_eq(run("show debugging"),
			 "BGP debugging status:\n  BGP RPKI debugging is on\n");
	vty->node = CONFIG_NODE; /* also a configuration-mode command, as in FRR */
	run("no debug rpki");
	vty->node = ENABLE_NODE;
	ck_assert_uint_eq(debug_flags, 0);
	ck_assert_str_eq(run("show debugging bgp"), "BGP debugging status:\n");
}
END_TEST

static Suite *show_suite(void)
{
	Suite *s = suite_create("bgp_show");
	TCase *tc = tcase_create("show");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_summary_no_neighbors);
	tcase_add_test(tc, test_summary_text_layout);
	tcase_add_test(tc, test_summary_json);
	tcase_add_test(tc, test_ebgp_requires_policy_shown);
	tcase_add_test(tc, test_summary_all_families);
	tcase_add_test(tc, test_summary_filters);
	tcase_add_test(tc, test_summary_none_failed);
	tcase_add_test(tc, test_neighbors_text);
	tcase_add_test(tc, test_neighbors_json);
	tcase_add_test(tc, test_neighbors_graceful_restart);
	tcase_add_test(tc, test_neighbors_after_notification);
	tcase_add_test(tc, test_neighbors_received_shutdown_message);
	tcase_add_test(tc, test_clear_hard);
	tcase_add_test(tc, test_connected_check);
	tcase_add_test(tc, test_max_prefix_overflow);
	tcase_add_test(tc, test_max_prefix_restart_timer);
	tcase_add_test(tc, test_clear_soft);
	tcase_add_test(tc, test_debug_commands);
	tcase_add_test(tc, test_clear_soft_in_kept_for_validation);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(show_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
