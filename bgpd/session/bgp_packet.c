/* SPDX-License-Identifier: ISC */
/*
 * Messages of a session: building ours with the codec, and turning each received message into
 * an FSM event (RFC 4271 8.1.5 message events) after the codec has checked it, so that the
 * FSM actions only ever see valid content or a ready NOTIFICATION.
 */
#include "lib/compat.h"

#include <arpa/inet.h>

#include "bgpd/core/bgp_log.h"
#include "bgpd/core/bgp_msg.h"
#include "bgpd/session/bgp_fsm.h"
#include "bgpd/session/bgp_session.h"
#include "bgpd/wire/bgp_header.h"
#include "bgpd/wire/bgp_notify.h"
#include "bgpd/wire/bgp_open.h"
#include "bgpd/wire/bgp_update.h"
#include "lib/event.h"

/* ---- sending ---- */

static void open_local_fill(struct bgp_conn *c, struct bgp_open_local *l)
{
	struct bgp_peer *peer = c->s->peer;
	int af;

	memset(l, 0, sizeof(*l));
	/* neighbor X local-as: the AS this neighbor knows us by (FRR's change_local_as); outside
	 * our confederation, its identifier (RFC 5065 4). remote-as external is outside. */
	l->confed = bgp_peer_is_confed(peer);
	l->asn = bgp_peer_local_as(peer);
	l->id = peer->bgp->router_id;
	l->holdtime = bgp_peer_holdtime(peer);
	/* RFC 4271 4.2: a hold time of 1 or 2 seconds is not allowed; round up. */
	if (l->holdtime > 0 && l->holdtime < 3)
		l->holdtime = 3;
	for (af = 0; af < BGP_AF_MAX; af++)
		l->af[af] = bgp_peer_af_activated(peer, af);
	l->route_refresh = true;
	l->ext_message = true;
	l->remote_as_type = peer->conf.remote_as_type;
	l->remote_as = peer->conf.remote_as;
	bgp_open_local_gr(peer, l);
	/* RFC 7313 (BoRR/EoRR both ways) only beside the Graceful Restart capability: FRR 8.4
	 * answers no ROUTE-REFRESH of a peer that negotiated enhanced route refresh before it has
	 * sent that peer End-of-RIB, which it sends only to peers with the GR capability, so
	 * with `graceful-restart-disable` a refresh asked of FRR would go unanswered. */
	l->enhanced_rr = l->gr;
}

int bgp_conn_send_open(struct bgp_conn *c)
{
	struct bgp_peer *peer = c->s->peer;
	uint8_t buf[BGP_MAX_MSG_LEN];
	char id[INET_ADDRSTRLEN];
	size_t len;

	open_local_fill(c, &c->olocal);
	len = bgp_open_encode(buf, sizeof(buf), &c->olocal);
	if (len == 0) {
		bgp_peer_err(peer, "cannot encode our OPEN (too many capabilities for 4096 bytes)");
		return -1;
	}
	c->s->open_sent = c->olocal;
	bgp_peer_debug(BGP_DEBUG_NEIGHBOR_EVENTS, peer,
		       "sending OPEN, version 4, my as %u, holdtime %u, id %s", c->olocal.asn,
		       c->olocal.holdtime,
		       inet_ntop(AF_INET, &peer->bgp->router_id, id, sizeof(id)));
	return bgp_conn_queue(c, buf, len);
}

int bgp_conn_send_keepalive(struct bgp_conn *c)
{
	uint8_t buf[BGP_HEADER_LEN];
	size_t len = bgp_keepalive_encode(buf, sizeof(buf));

	bgp_peer_debug(BGP_DEBUG_KEEPALIVES, c->s->peer, "sending KEEPALIVE");
	return bgp_conn_queue(c, buf, len);
}

/* Log, remember for show (err's data, cut to BGP_ERROR_DATA_MAX) and write a NOTIFICATION
 * already encoded in buf, dropping what was queued (bgp_conn_write_now()). */
static void notify_write(struct bgp_conn *c, const struct bgp_error *err, const uint8_t *buf,
			 size_t len, const char *shutdown_msg)
{
	struct bgp_session *s = c->s;
	char text[128];

	bgp_error_str(err->code, err->subcode, text, sizeof(text));
	bgp_peer_log(err->code == BGP_ERR_CEASE ? LOG_LVL_INFO : LOG_LVL_NOTICE, s->peer,
		     "sending NOTIFICATION %u/%u (%s) %u bytes%s%s%s%s%s%s", err->code,
		     err->subcode, text, err->data_len, err->reason ? " (" : "",
		     err->reason ? err->reason : "", err->reason ? ")" : "",
		     shutdown_msg ? " \"" : "", shutdown_msg ? shutdown_msg : "",
		     shutdown_msg ? "\"" : "");
	if (bgp_conn_is_primary(c)) {
		s->last_notify = *err;
		s->last_notify.reason = NULL;
		s->last_notify_sent = true;
		s->have_last_notify = true;
		s->rx_shutdown_msg[0] = '\0';
	}
	bgp_conn_set_down_reason(c, BGP_DOWN_NOTIFY_SENT);
	bgp_conn_write_now(c, buf, len);
}

void bgp_conn_send_notify(struct bgp_conn *c, const struct bgp_error *err)
{
	uint8_t buf[BGP_HEADER_LEN + 2 + BGP_ERROR_DATA_MAX];
	struct bgp_error hard;
	size_t len;

	if (c->fd < 0 || c->connecting)
		return;
	if (bgp_session_notify_hard_reset(c->open_rcvd && c->nego.gr_notification, err, &hard))
		err = &hard;
	len = bgp_notify_encode_error(buf, sizeof(buf), err);
	if (len == 0)
		return;
	notify_write(c, err, buf, len, NULL);
}

void bgp_conn_send_cease(struct bgp_conn *c, uint8_t subcode, const uint8_t *data, size_t data_len)
{
	const char *msg = c->s->peer->conf.shutdown_message;
	uint8_t buf[BGP_HEADER_LEN + 2 + 2 + 1 + BGP_SHUTDOWN_MSG_MAX];
	uint8_t hbuf[sizeof(buf)];
	struct bgp_error err, hard;
	size_t len;

	bgp_error_set(&err, BGP_ERR_CEASE, subcode, data, data_len, NULL);
	/* RFC 9003 2: `neighbor X shutdown message TEXT` rides on the Administrative Shutdown. */
	if (subcode != BGP_ERR_CEASE_ADMIN_SHUTDOWN || !msg || !*msg || data_len) {
		bgp_conn_send_notify(c, &err);
		return;
	}
	if (c->fd < 0 || c->connecting)
		return;
	len = bgp_notify_encode_shutdown(buf, sizeof(buf), subcode, msg);
	if (len == 0)
		return;
	/* RFC 8538 3: with the N bit the shutdown is a Hard Reset that carries the whole Cease,
	 * message included (FRR decapsulates it and shows the text). */
	if (bgp_session_notify_hard_reset(c->open_rcvd && c->nego.gr_notification, &err, &hard)) {
		len = bgp_notify_encode(hbuf, sizeof(hbuf), BGP_ERR_CEASE, BGP_ERR_CEASE_HARD_RESET,
					buf + BGP_HEADER_LEN, len - BGP_HEADER_LEN);
		if (len == 0)
			return;
		memcpy(buf, hbuf, len);
	}
	/* What show keeps: the subcode sent, then its data (the length octet and the text, after
	 * the inner code and subcode in a Hard Reset), as far as BGP_ERROR_DATA_MAX goes. */
	bgp_error_set(&err, BGP_ERR_CEASE, buf[BGP_HEADER_LEN + 1], buf + BGP_HEADER_LEN + 2,
		      len - BGP_HEADER_LEN - 2, NULL);
	notify_write(c, &err, buf, len, msg);
}

/* ---- receiving ---- */

static void rx_open(struct bgp_conn *c, const uint8_t *body, size_t len)
{
	struct bgp_peer *peer = c->s->peer;
	char text[128], id[INET_ADDRSTRLEN];

	if (c->state != BGP_ST_OPENSENT) {
		bgp_fsm_event(c, BGP_EV_OPEN); /* unexpected: the table says what to do */
		return;
	}
	if (bgp_open_receive(body, len, &c->olocal, &c->nego, &c->err) < 0) {
		bgp_peer_warn_limited(
			peer, "OPEN rejected: %s%s%s%s",
			bgp_error_str(c->err.code, c->err.subcode, text, sizeof(text)),
			c->err.reason ? " (" : "", c->err.reason ? c->err.reason : "",
			c->err.reason ? ")" : "");
		bgp_fsm_event(c, BGP_EV_OPEN_ERR);
		return;
	}
	c->open_rcvd = true;
	bgp_peer_debug(BGP_DEBUG_NEIGHBOR_EVENTS, peer,
		       "rcvd OPEN, remote-as %u, holdtime %u, id %s%s%s%s", c->nego.remote_as,
		       c->nego.holdtime, inet_ntop(AF_INET, &c->nego.remote_id, id, sizeof(id)),
		       c->nego.as4 ? ", 4-octet AS" : "",
		       c->nego.route_refresh ? ", route refresh" : "",
		       c->nego.ext_message ? ", extended message" : "");
	bgp_fsm_event(c, BGP_EV_OPEN);
}

static void rx_update(struct bgp_conn *c, const uint8_t *body, size_t len)
{
	struct bgp_session *s = c->s;
	struct bgp_peer *peer = s->peer;
	struct bgp_update *upd = &c->rx_update;
	char text[128];

	if (c->state != BGP_ST_ESTABLISHED) {
		bgp_fsm_event(c, BGP_EV_UPDATE_MSG);
		return;
	}
	if (bgp_update_decode(upd, body, len, &s->info.codec, &c->err) < 0) {
		bgp_peer_warn_limited(
			peer, "malformed UPDATE: %s%s%s%s",
			bgp_error_str(c->err.code, c->err.subcode, text, sizeof(text)),
			c->err.reason ? " (" : "", c->err.reason ? c->err.reason : "",
			c->err.reason ? ")" : "");
		bgp_fsm_event(c, BGP_EV_UPDATE_ERR);
		return;
	}
	/* RFC 7606 3: errors handled without a reset are logged. The first per session at
	 * warning level so that operators notice; all under `debug bgp updates in`. */
	if (upd->treat_as_withdraw) {
		if (!c->taw_warned) {
			bgp_peer_warn_limited(peer,
					      "UPDATE treated as withdraw (RFC 7606): %s; further "
					      "ones are logged with `debug bgp updates in`",
					      upd->reason ? upd->reason : "malformed attribute");
			c->taw_warned = true;
		} else {
			bgp_peer_debug(BGP_DEBUG_UPDATES_IN, peer,
				       "UPDATE treated as withdraw (RFC 7606): %s",
				       upd->reason ? upd->reason : "malformed attribute");
		}
	} else if (upd->discarded) {
		bgp_peer_debug(BGP_DEBUG_UPDATES_IN, peer,
			       "UPDATE: attribute(s) discarded (RFC 7606, type bits 0x%llx): %s",
			       (unsigned long long)upd->discarded,
			       upd->reason ? upd->reason : "malformed optional attribute");
	}
	/* The connection holds the decoded UPDATE while the FSM runs UpdateMsg: its action
	 * hands it to the RIB (bgp_session_update()); on any other path it is released here. */
	c->rx_update_held = true;
	bgp_fsm_event(c, BGP_EV_UPDATE_MSG);
	if (c->rx_update_held) {
		bgp_update_release(upd);
		c->rx_update_held = false;
	}
}

void bgp_session_update(struct bgp_conn *c)
{
	if (!c->rx_update_held)
		return;
	c->rx_update_held = false;
	rib_update_received(c->s->peer, &c->rx_update); /* the RIB releases it */
}

static void rx_notification(struct bgp_conn *c, const uint8_t *body, size_t len)
{
	struct bgp_session *s = c->s;
	struct bgp_notify n;
	char text[512];
	enum bgp_fsm_event ev;

	if (bgp_notify_decode(&n, body, len) < 0) {
		memset(&n, 0, sizeof(n));
		n.code = len > 0 ? body[0] : 0;
	}
	bgp_peer_log(n.code == BGP_ERR_CEASE ? LOG_LVL_NOTICE : LOG_LVL_WARNING, s->peer,
		     "received NOTIFICATION %u/%u (%s) %u bytes", n.code, n.subcode,
		     bgp_notify_str(&n, text, sizeof(text)), n.data_len);
	if (bgp_conn_is_primary(c)) {
		bgp_error_set(&s->last_notify, n.code, n.subcode, n.data,
			      MIN(n.data_len, (uint16_t)BGP_ERROR_DATA_MAX), NULL);
		s->last_notify_sent = false;
		s->have_last_notify = true;
		/* RFC 9003 3: an invalid communication is noted, never shown. */
		snprintf(s->rx_shutdown_msg, sizeof(s->rx_shutdown_msg), "%s",
			 n.has_shutdown_msg && !n.shutdown_msg_invalid ? n.shutdown_msg : "");
	}
	bgp_conn_set_down_reason(c, BGP_DOWN_NOTIFY_RECEIVED);
	/* RFC 4271 8.1.5 event 24: the peer does not speak our version. */
	ev = n.code == BGP_ERR_OPEN && n.subcode == BGP_ERR_OPEN_UNSUP_VERSION
		     ? BGP_EV_NOTIF_VER_ERR
		     : BGP_EV_NOTIF;
	bgp_fsm_event(c, ev);
}

static void rx_route_refresh(struct bgp_conn *c, const uint8_t *body, size_t len)
{
	struct bgp_session *s = c->s;
	struct bgp_route_refresh rr;

	if (c->state != BGP_ST_ESTABLISHED) {
		bgp_peer_info_limited(s->peer, "ROUTE-REFRESH received in %s, ignored",
				      bgp_fsm_state_str(c->state));
		return;
	}
	if (bgp_route_refresh_decode(&rr, body, len, &c->err) < 0) {
		/* The FSM has no event for it (RFC 7313 5): like an UPDATE error, it ends the
		 * session with the NOTIFICATION the parser chose. */
		bgp_fsm_event(c, BGP_EV_UPDATE_ERR);
		return;
	}
	bgp_conn_hold_restart(c);
	if (rr.ignore || rr.af < 0 || !s->info.af[rr.af]) {
		bgp_peer_debug(BGP_DEBUG_UPDATES_IN, s->peer,
			       "ROUTE-REFRESH for AFI %u SAFI %u subtype %u ignored", rr.afi,
			       rr.safi, rr.subtype);
		return;
	}
	if (rr.subtype != BGP_RR_NORMAL) {
		/* BoRR/EoRR of a peer that did not negotiate enhanced route refresh: ignored,
		 * as FRR does (its routes are then never purged behind its back). */
		if (!s->info.enhanced_rr) {
			bgp_peer_info_limited(s->peer,
					      "%s for %s received without the enhanced route "
					      "refresh capability, ignored",
					      rr.subtype == BGP_RR_BORR ? "BoRR" : "EoRR",
					      bgp_af_text_name(rr.af));
			return;
		}
		bgp_peer_debug(BGP_DEBUG_UPDATES_IN, s->peer, "rcvd %s for %s",
			       rr.subtype == BGP_RR_BORR ? "BoRR" : "EoRR",
			       bgp_af_text_name(rr.af));
		if (rr.subtype == BGP_RR_BORR)
			rib_refresh_begin_received(s->peer, rr.af);
		else
			rib_refresh_end_received(s->peer, rr.af);
		return;
	}
	bgp_peer_debug(BGP_DEBUG_UPDATES_IN, s->peer, "rcvd ROUTE-REFRESH for %s",
		       bgp_af_text_name(rr.af));
	rib_route_refresh_received(s->peer, rr.af);
}

void bgp_conn_dispatch(struct bgp_conn *c, uint8_t type, const uint8_t *body, size_t len)
{
	struct bgp_session *s = c->s;

	if (type < BGP_MSG_COUNTERS)
		s->rcvd.count[type]++;
	switch (type) {
	case BGP_MSG_OPEN:
		rx_open(c, body, len);
		break;
	case BGP_MSG_UPDATE:
		rx_update(c, body, len);
		break;
	case BGP_MSG_NOTIFICATION:
		rx_notification(c, body, len);
		break;
	case BGP_MSG_KEEPALIVE:
		bgp_peer_debug(BGP_DEBUG_KEEPALIVES, s->peer, "KEEPALIVE rcvd");
		bgp_fsm_event(c, BGP_EV_KEEPALIVE_MSG);
		break;
	case BGP_MSG_ROUTE_REFRESH:
		rx_route_refresh(c, body, len);
		break;
	default:
		/* bgp_header_decode() refuses other types; nothing to do. */
		break;
	}
}

/* ---- the RIB side's calls (bgpd/core/bgp_msg.h) ---- */

/*
 * An UPDATE went into the output queue. RFC 4271 8.2.2 (Established): "Each time the local
 * system sends a KEEPALIVE or UPDATE message, it restarts its KeepaliveTimer"; the UPDATE
 * restarts the peer's HoldTimer as a KEEPALIVE would (OpenBGPD does the same). A session busy
 * with a large table gets no KEEPALIVE between UPDATEs. Not for ROUTE-REFRESH: RFC 2918 does
 * not say that it restarts the receiver's HoldTimer, so it must not stand in for a KEEPALIVE.
 */
static void conn_update_sent(struct bgp_conn *c)
{
	if (c->state == BGP_ST_ESTABLISHED && c->keepalive)
		bgp_conn_keepalive_start(c);
}

size_t session_send_space(const struct bgp_peer *peer)
{
	struct bgp_session *s = peer->session;
	const struct bgp_conn *c;

	if (!s || !s->established)
		return 0;
	c = &s->conn[s->primary];
	if (c->oqueued >= BGP_OBUF_HIGH) {
		s->write_blocked = true;
		return 0;
	}
	return BGP_OBUF_HIGH - c->oqueued;
}

int session_send(struct bgp_peer *peer, const uint8_t *msg, size_t len)
{
	struct bgp_session *s = peer->session;
	struct bgp_conn *c;

	if (!s || !s->established || len < BGP_HEADER_LEN)
		return -1;
	c = &s->conn[s->primary];
	if (bgp_conn_queue(c, msg, len) < 0)
		return -1;
	if (c->oqueued >= BGP_OBUF_HIGH)
		s->write_blocked = true;
	if (msg[BGP_HEADER_LEN - 1] == BGP_MSG_UPDATE)
		conn_update_sent(c);
	return 0;
}

int session_send_route_refresh(struct bgp_peer *peer, enum bgp_af af)
{
	struct bgp_session *s = peer->session;
	uint8_t buf[BGP_ROUTE_REFRESH_LEN];
	size_t len;

	if (!s || !s->established || (unsigned)af >= BGP_AF_MAX)
		return -1;
	if (!s->info.route_refresh || !s->info.af[af]) {
		bgp_peer_info(peer, "cannot ask for a refresh of %s: %s", bgp_af_text_name(af),
			      !s->info.route_refresh ? "the peer does not support ROUTE-REFRESH"
						     : "address family not negotiated");
		return -1;
	}
	len = bgp_route_refresh_encode(buf, sizeof(buf), af, BGP_RR_NORMAL);
	if (len == 0)
		return -1;
	bgp_peer_debug(BGP_DEBUG_UPDATES_OUT, peer, "sending ROUTE-REFRESH for %s",
		       bgp_af_text_name(af));
	return bgp_conn_queue(&s->conn[s->primary], buf, len);
}

static void session_release_idle(struct bgp_peer *peer)
{
	struct bgp_session *s = peer->session;

	if (!s)
		return;
	for (int i = 0; i < 2; i++)
		bgp_conn_ibuf_release(&s->conn[i]);
}

const struct bgp_session_ops bgp_session_ops = {
	.send_space = session_send_space,
	.send = session_send,
	.max_prefix_exceeded = session_max_prefix_exceeded,
	.send_route_refresh = session_send_route_refresh,
	.release_idle = session_release_idle,
};
