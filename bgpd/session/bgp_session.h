/* SPDX-License-Identifier: ISC */
/*
 * The session side of a peer: its connections (each running the RFC 4271 FSM), timers,
 * buffers, what was negotiated, and the counters the show commands print. Owned by
 * bgp_session.c: created with the peer, released in one function (bgp_session_free()).
 */
#ifndef SKUA_BGP_SESSION_H
#define SKUA_BGP_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>

#include "bgpd/core/bgp.h"
#include "bgpd/core/bgp_msg.h"
#include "bgpd/session/bgp_fsm.h"
#include "bgpd/wire/bgp_error.h"
#include "bgpd/wire/bgp_header.h"
#include "bgpd/wire/bgp_notify.h"
#include "bgpd/wire/bgp_open.h"
#include "bgpd/wire/bgp_update.h"
#include "lib/memory.h"
#include "lib/prefix.h"

struct ev;
struct bgp_session;

DECLARE_MTYPE(BGP_SESSION);
DECLARE_MTYPE(BGP_IBUF);
DECLARE_MTYPE(BGP_OBUF);

/* Message counters (FRR's messageStats), indexed by message type (enum bgp_msg_type); type 6
 * is the dynamic capability message, counted only. */
#define BGP_MSG_COUNTERS 8
struct bgp_msg_counters {
	uint32_t count[BGP_MSG_COUNTERS];
};

/* Output queue: a list of chunks written in order; new messages go into the last chunk. */
struct bgp_obuf_chunk {
	TAILQ_ENTRY(bgp_obuf_chunk) entry;
	size_t start; /* first unwritten byte */
	size_t end;   /* one past the last queued byte */
	size_t size;
	uint32_t nmsgs; /* messages that end in this chunk */
	uint8_t data[];
};
TAILQ_HEAD(bgp_obuf_list, bgp_obuf_chunk);

/* Why a session went down (FRR's peer_down_str texts). */
enum bgp_down_reason {
	BGP_DOWN_NONE = 0,
	BGP_DOWN_ROUTER_ID,
	BGP_DOWN_REMOTE_AS,
	BGP_DOWN_UPDATE_SOURCE,
	BGP_DOWN_AF_ACTIVATE,
	BGP_DOWN_ADMIN_SHUTDOWN,
	BGP_DOWN_USER_RESET,
	BGP_DOWN_NOTIFY_RECEIVED,
	BGP_DOWN_NOTIFY_SENT,
	BGP_DOWN_CLOSED,
	BGP_DOWN_NEIGHBOR_DELETE,
	BGP_DOWN_PASSIVE_CHANGE,
	BGP_DOWN_MULTIHOP_CHANGE,
	BGP_DOWN_CONFIG_CHANGE,
	BGP_DOWN_SOCKET_ERROR,
	BGP_DOWN_HOLD_EXPIRED,
	BGP_DOWN_NO_ROUTER_ID,
	BGP_DOWN_PASSWORD_CHANGE,
	BGP_DOWN_WAITING_NHT, /* single-hop eBGP neighbor not on a connected network */
	BGP_DOWN_LOCAL_AS,    /* neighbor X local-as changed */
	BGP_DOWN_MAX,
};
const char *bgp_down_reason_str(enum bgp_down_reason r);

/* One TCP connection and its FSM. */
struct bgp_conn {
	struct bgp_session *s;
	enum bgp_fsm_state state;
	int fd;
	bool outgoing;	 /* we initiated it (RFC 4271 6.8 collision resolution needs to know) */
	bool connecting; /* non-blocking connect() not completed yet */
	uint32_t gen;	 /* bumped every time the connection is closed: callbacks detect reuse */
	struct ev *read_ev, *write_ev, *resume_ev, *connect_ev;
	struct ev *hold_timer, *keepalive_timer;
	struct ev *send_hold_timer; /* RFC 9687 (bgp_send_hold.c) */

	/* Input: a linear buffer holding at most one partial message after each pass. */
	uint8_t *ibuf;
	size_t ilen;
	size_t isize;
	size_t itouched; /* bytes of ibuf written since its pages were last given back */
	uint32_t inq;	 /* complete messages waiting (bounded reading left them) */
	/* Output */
	struct bgp_obuf_list obuf;
	size_t oqueued; /* bytes queued, not yet written */
	uint32_t omsgs; /* messages queued (OutQ) */

	struct ipaddr local, remote;
	uint16_t lport, rport;

	struct bgp_open_local olocal; /* what our OPEN on this connection said */
	bool open_rcvd;
	struct bgp_open_result nego; /* valid once open_rcvd */
	uint16_t holdtime;	     /* negotiated, seconds; 0 = no hold timer and no keepalives */
	uint16_t keepalive;	     /* negotiated interval, seconds */
	bool ext_msg;		     /* RFC 8654 negotiated: messages up to 65535 bytes */
	/* The HoldTimer (bgp_session.c): when it runs out (the last KEEPALIVE, UPDATE or
	 * ROUTE-REFRESH read, plus the hold time), and when the armed timer fires. */
	uint64_t hold_due_ms, hold_armed_ms;

	/* Event context: the message being dispatched and the error to send with *_ERR. */
	uint8_t rx_type;
	const uint8_t *rx_body;
	size_t rx_len;
	struct bgp_update rx_update; /* decoded UpdateMsg (rx_update_held), for the RIB */
	bool rx_update_held;
	struct bgp_error err;
	enum bgp_down_reason down_reason;

	uint64_t last_read_ms, last_write_ms;
	bool taw_warned; /* a treat-as-withdraw was logged at warning level on this session */
};

struct bgp_session {
	struct bgp_peer *peer;
	struct bgp_conn conn[2];
	int primary; /* conn[primary] is the peer's FSM; the other one is a collision candidate */

	struct ev *connect_retry_timer, *idle_hold_timer;
	uint32_t idle_hold_ms;	      /* the next IdleHoldTimer value (back-off) */
	uint32_t connect_retry_count; /* RFC 4271 ConnectRetryCounter */
	uint32_t retry_backoff_ms; /* ConnectRetryTimer after a failed attempt (bgp_reconnect.c) */

	bool established;		 /* conn[primary] is Established and the RIB knows */
	struct bgp_session_info info;	 /* negotiated; valid while established */
	struct bgp_open_local open_sent; /* what our last OPEN announced */
	struct bgp_open_result nego;	 /* what the last OPEN exchange negotiated (show) */
	bool have_nego;
	struct in_addr remote_id;     /* last known BGP Identifier of the peer */
	uint16_t holdtime, keepalive; /* negotiated values of the last session */
	struct ipaddr local, remote;  /* addresses of the last connected socket */
	uint16_t lport, rport;
	bool have_addrs;

	struct bgp_msg_counters sent, rcvd;
	uint32_t established_count, dropped_count;
	uint64_t uptime_ms;   /* monotime of the last change to/from Established, 0 never */
	int64_t uptime_epoch; /* wall clock of the same instant */
	uint64_t last_read_ms, last_write_ms;

	enum bgp_down_reason last_reset;
	uint64_t last_reset_ms;	      /* monotime, 0 = never */
	struct bgp_error last_notify; /* last NOTIFICATION sent or received */
	bool last_notify_sent;	      /* direction of last_notify */
	bool have_last_notify;
	/* The shutdown communication of the last Cease received (RFC 9003; "" when none or
	 * invalid), as bgp_notify_decode() made it safe to print; FRR's lastShutdownDescription. */
	char rx_shutdown_msg[BGP_SHUTDOWN_MSG_MAX + 1];

	bool write_blocked; /* the RIB found no space: tell it when there is */
	bool no_router_id_warned;
	bool sec_refused_warned;   /* bgp_peer_security_check() refused the settings (logged) */
	bool listener_md5_failed;  /* a listener lacks this peer's TCP-MD5 key: refuse incoming */
	bool not_connected_logged; /* bgp_connected.c: "not on a connected network" said once */
	uint8_t stop_subcode;	   /* Cease subcode for the next ManualStop/AutomaticStop */
	uint8_t stop_data[8];	   /* ... and its data (maximum-prefix: AFI, SAFI, limit) */
	uint8_t stop_data_len;
	/* neighbor X maximum-prefix (bgp_max_prefix.c): held down after the limit was exceeded,
	 * until `clear bgp` or the restart timer. */
	bool pfx_overflow;
	uint8_t pfx_data[7];	   /* the NOTIFICATION's data, sent on the next loop turn */
	struct ev *pfx_stop_ev;	   /* deferred: stop the session (not from inside the RIB) */
	struct ev *pfx_restart_ev; /* `restart MINUTES` */
	struct ev *kick_ev;	   /* deferred: reconcile the session with the configuration */
};

/* What the RIB calls (bgpd/core/bgp_msg.h), given to rib_new() by the instance layer. */
extern const struct bgp_session_ops bgp_session_ops;
size_t session_send_space(const struct bgp_peer *peer);
int session_send(struct bgp_peer *peer, const uint8_t *msg, size_t len);
void session_max_prefix_exceeded(struct bgp_peer *peer, enum bgp_af af, uint32_t limit);
int session_send_route_refresh(struct bgp_peer *peer, enum bgp_af af);

/* Lifecycle, called by bgpd/instance/bgp_instance.c. */
void bgp_session_new(struct bgp_peer *peer);
void bgp_session_free(struct bgp_peer *peer);
/* ManualStart (or the passive variant): no-op unless Idle and the peer may run. */
void bgp_session_start(struct bgp_peer *peer);
/* ManualStop: NOTIFICATION Cease/subcode if a connection is up, then Idle without restart.
 * BGP_SESSION_STOP_SILENT (Cease subcode 0 is reserved, RFC 4486): no NOTIFICATION, the
 * connection is just closed, as a crash would: a restarting speaker's stop (bgpd/instance/),
 * which a graceful-restart peer takes for a restart. */
#define BGP_SESSION_STOP_SILENT 0
void bgp_session_stop(struct bgp_peer *peer, uint8_t cease_subcode, enum bgp_down_reason why);
/* The same with data in the Cease NOTIFICATION (RFC 4486: maximum-prefix's AFI/SAFI/limit). */
void bgp_session_stop_data(struct bgp_peer *peer, uint8_t cease_subcode, const uint8_t *data,
			   size_t len, enum bgp_down_reason why);
/* Stop then start again at once (config changes, `clear`). */
void bgp_session_reset(struct bgp_peer *peer, uint8_t cease_subcode, enum bgp_down_reason why);
/* May the peer run at all (not shut down, have a router-id, remote AS usable)? */
bool bgp_session_may_start(const struct bgp_peer *peer);

/* Reconcile with the configuration on the next loop turn (start, or stop if it may not run). */
void bgp_session_kick(struct bgp_peer *peer);

/* A connection accepted by the listener for this peer (bgp_network.c). Takes fd. */
void bgp_session_accept(struct bgp_peer *peer, int fd);

enum bgp_fsm_state bgp_session_state(const struct bgp_peer *peer);
/* maximum-prefix (bgp_max_prefix.c): held down after the limit was exceeded ("Idle (PfxCt)"),
 * the restart timer's milliseconds left (-1: none), and `clear bgp`'s release. */
bool bgp_session_pfx_overflow(const struct bgp_peer *peer);
int64_t bgp_session_pfx_restart_remaining(const struct bgp_peer *peer);
void bgp_max_prefix_clear(struct bgp_peer *peer);
struct bgp_conn *bgp_session_primary(const struct bgp_peer *peer);
bool bgp_conn_is_primary(const struct bgp_conn *conn);

/* Timers (tests inspect and fire them through the FSM). */
enum bgp_timer {
	BGP_TIMER_CONNECT_RETRY,
	BGP_TIMER_IDLE_HOLD,
	BGP_TIMER_HOLD,	     /* of the primary connection */
	BGP_TIMER_KEEPALIVE, /* of the primary connection */
	BGP_TIMER_SEND_HOLD, /* of the primary connection (RFC 9687) */
};
/* Milliseconds left, -1 when not running. */
int64_t bgp_session_timer_remaining(const struct bgp_peer *peer, enum bgp_timer t);

/* Back-off of the IdleHoldTimer (RFC 4271 8.1.1 DampPeerOscillations, our policy). */
#define BGP_IDLE_HOLD_MIN_MS 1000
#define BGP_IDLE_HOLD_MAX_MS 120000
/* A session that stayed Established this long resets the back-off. */
#define BGP_IDLE_HOLD_STABLE_MS 60000
/* RFC 9687 4: the default SendHoldTime is the greater of this and twice the hold time. */
#define BGP_SEND_HOLD_MIN_DEFAULT_S 480
/* The first retry after a failed attempt that followed a prompt start (bgp_reconnect.c). */
#define BGP_RETRY_PROMPT_MS 1000
/* RFC 4271 8.2.2: a "large value" for the HoldTimer until the OPEN arrives; 4 minutes. */
#define BGP_OPEN_HOLD_MS 240000

/* Output queue limits: the RIB may fill up to HIGH; it is told to go on below LOW. */
#define BGP_OBUF_HIGH (256 * 1024)
#define BGP_OBUF_LOW (64 * 1024)
/* Bounded input work per read event (doc/architecture.md "Event loop": keepalives are never
 * starved, and the shell answers while a table moves). The RIB's work grows with the prefixes a
 * message carries, and the densest message is a withdrawal: 4 bytes per IPv4 /24, so bytes
 * bound it; 32 KiB is at most about 8,000 prefixes, a few milliseconds. */
#define BGP_READ_MAX_MSGS 64
#define BGP_READ_MAX_BYTES (32 * 1024)

/*
 * ---- Internal to the session side (bgp_fsm.c, bgp_packet.c, bgp_io.c, bgp_network.c) ----
 */

/* bgp_session.c */
void bgp_conn_close(struct bgp_conn *c); /* fd, buffers, connection timers; gen++ */
/* Close the socket at once and unread, e.g. its protection could not be set (fail closed);
 * the caller then runs the FSM (or bgp_conn_close()) as for a failed connection. */
void bgp_conn_abort(struct bgp_conn *c);
void bgp_conn_take_names(struct bgp_conn *c); /* local/remote address and port of the fd */
void bgp_conn_hold_start(struct bgp_conn *c, uint32_t ms);
void bgp_conn_hold_restart(struct bgp_conn *c); /* the negotiated hold time, or stop if 0 */
void bgp_conn_keepalive_start(struct bgp_conn *c);
void bgp_session_connect_retry_start(struct bgp_session *s);
void bgp_session_connect_retry_stop(struct bgp_session *s);
void bgp_session_idle_hold_stop(struct bgp_session *s);
/* RFC 4271 6.8 on receipt of an OPEN on c: true when c must be dumped; when the other
 * connection loses, it is dumped here. */
bool bgp_session_collision(struct bgp_conn *c);
void bgp_conn_negotiated(struct bgp_conn *c); /* hold/keepalive from c->nego and config */
void bgp_session_up(struct bgp_conn *c);      /* OpenConfirm -> Established */
void bgp_session_state_changed(struct bgp_conn *c, enum bgp_fsm_state from, enum bgp_fsm_event ev);
/* Note what ended the session (kept unless a more specific reason is already there). */
void bgp_conn_set_down_reason(struct bgp_conn *c, enum bgp_down_reason why);

/* bgp_send_hold.c: the SendHoldTimer (RFC 9687). Armed when output starts waiting, restarted
 * by each write that makes progress, stopped when the queue is empty or the connection
 * closes. */
uint32_t bgp_conn_send_hold_ms(const struct bgp_conn *c); /* the SendHoldTime in force */
void bgp_conn_send_hold_init(struct bgp_conn *c, struct event_base *base);
void bgp_conn_send_hold_queued(struct bgp_conn *c);
void bgp_conn_send_hold_progress(struct bgp_conn *c);
void bgp_conn_send_hold_stop(struct bgp_conn *c);

/* bgp_reconnect.c: the back-off of connection attempts. A prompt start (clear, configuration
 * change, a Cease saying the peer was reset, Established) makes the next retry 1 s; each
 * failed attempt arms the ConnectRetryTimer with the back-off and doubles it up to the
 * ConnectRetryTime. */
void bgp_session_retry_prompt(struct bgp_session *s);
void bgp_session_connect_retry_after_failure(struct bgp_session *s);
/* A NOTIFICATION that ends a session without suggesting the peer is unstable (a Cease for an
 * administrative reset, shutdown or reconfiguration): no IdleHoldTimer back-off. */
bool bgp_cease_is_prompt(uint8_t code, uint8_t subcode);

/* bgp_connected.c: may we connect to the peer now? Single-hop eBGP (TTL 1: no ebgp-multihop,
 * no ttl-security) needs its address on a connected network, unless disable-connected-check
 * (FRR). When not, notes "Waiting for NHT" as the last reset and logs it once. */
bool bgp_session_connected_ok(struct bgp_session *s);

/* bgp_max_prefix.c */
void bgp_max_prefix_session_init(struct bgp_session *s, struct event_base *base);

/* bgp_packet.c: messages in and out */
/* Graceful restart (bgp_session_gr.c): our capabilities for the neighbor's effective mode,
 * after l->af is set; what the RIB is told, after info->af is set. */
void bgp_open_local_gr(const struct bgp_peer *peer, struct bgp_open_local *l);
void bgp_session_info_gr(struct bgp_session_info *info, const struct bgp_open_result *nego);
/* RFC 8538: the Hard Reset to send in err's place into out (true), when n_bit (both sent the N
 * bit) and err is a Cease FRR sends as one; false: send err. */
bool bgp_session_notify_hard_reset(bool n_bit, const struct bgp_error *err, struct bgp_error *out);
/* Does graceful restart keep the peer's routes after s was lost for why (the last NOTIFICATION
 * as s recorded it)? */
bool bgp_session_gr_covers(const struct bgp_session *s, enum bgp_down_reason why);
/* Does a stop with this Cease subcode end graceful restart (the routes kept stale go)? */
bool bgp_session_stop_flushes(uint8_t cease_subcode);

int bgp_conn_send_open(struct bgp_conn *c);
int bgp_conn_send_keepalive(struct bgp_conn *c);
void bgp_conn_send_notify(struct bgp_conn *c, const struct bgp_error *err);
/* Cease with subcode and data; an Administrative Shutdown without data carries the neighbor's
 * shutdown message (RFC 9003) when one is configured. */
void bgp_conn_send_cease(struct bgp_conn *c, uint8_t subcode, const uint8_t *data, size_t data_len);
/* One complete message read from c (header checked). */
void bgp_conn_dispatch(struct bgp_conn *c, uint8_t type, const uint8_t *body, size_t len);
void bgp_session_update(struct bgp_conn *c); /* Established + UpdateMsg: hand to the RIB */

/* bgp_io.c */
int bgp_conn_io_start(struct bgp_conn *c);
void bgp_conn_io_stop(struct bgp_conn *c);
/* Give the input buffer's pages back to the system when it holds nothing (after a burst such
 * as a full table: 128 KiB resident per session until then); they come back, zeroed, when
 * it is next filled. */
void bgp_conn_ibuf_release(struct bgp_conn *c);
int bgp_conn_queue(struct bgp_conn *c, const uint8_t *msg, size_t len);
/* Drop what is queued and write msg now, best effort (a NOTIFICATION before closing). */
void bgp_conn_write_now(struct bgp_conn *c, const uint8_t *msg, size_t len);

/* bgp_network.c (the options of the sockets: bgp_security.h) */
int bgp_conn_connect(struct bgp_conn *c); /* start a non-blocking connect; <0 failed at once */
void bgp_conn_connect_cancel(struct bgp_conn *c);

#endif /* SKUA_BGP_SESSION_H */
