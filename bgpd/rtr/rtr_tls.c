/* SPDX-License-Identifier: ISC */
/*
 * RTR over TLS (RFC 6810 7, IANA port 324) with OpenSSL bufferevents.
 *
 * The client trusts only the configured CA file (never the system store: an RPKI cache is
 * our own infrastructure), requires TLS 1.2 or later, verifies the chain and that the
 * certificate names the configured host (a DNS name, or an address literal against its IP
 * SANs), sends SNI for names, and presents a client certificate when one is configured. Every
 * failure comes back as text with OpenSSL's own reason, for the log and `show rpki
 * cache-connection`.
 *
 * This file is the module rtr_tls.so (bgpd/rtr/rtr_tls.h): libc, OpenSSL and libevent only.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "bgpd/rtr/rtr_private.h"
#include "bgpd/rtr/rtr_tls.h"

/* The most specific reason in OpenSSL's error queue (emptied), or fallback. */
static void ssl_reason(char *err, size_t errlen, const char *what, const char *fallback)
{
	unsigned long e, last = 0;
	char buf[200];

	while ((e = ERR_get_error()) != 0)
		last = e;
	if (last) {
		ERR_error_string_n(last, buf, sizeof(buf));
		snprintf(err, errlen, "%s: %s", what, buf);
	} else {
		snprintf(err, errlen, "%s: %s", what, fallback);
	}
}

static SSL_CTX *tls_ctx_new(const struct rtr_cache_cfg *cfg, char *err, size_t errlen)
{
	SSL_CTX *ctx;

	ERR_clear_error();
	if (!cfg->ca_file) {
		snprintf(err, errlen, "a TLS cache needs a CA file to verify it");
		return NULL;
	}
	if (!cfg->client_cert != !cfg->client_key) {
		snprintf(err, errlen,
			 "a client certificate needs its key, and a key its certificate");
		return NULL;
	}
	ctx = SSL_CTX_new(TLS_client_method());
	if (!ctx) {
		ssl_reason(err, errlen, "cannot create a TLS context", "out of memory");
		return NULL;
	}
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
	if (SSL_CTX_load_verify_locations(ctx, cfg->ca_file, NULL) != 1) {
		char what[300];

		snprintf(what, sizeof(what), "cannot load CA file %s (a readable PEM file?)",
			 cfg->ca_file);
		ssl_reason(err, errlen, what, "no certificate in it");
		SSL_CTX_free(ctx);
		return NULL;
	}
	if (cfg->client_cert) {
		char what[300];

		if (SSL_CTX_use_certificate_chain_file(ctx, cfg->client_cert) != 1) {
			snprintf(what, sizeof(what), "cannot load client certificate %s",
				 cfg->client_cert);
			ssl_reason(err, errlen, what, "not a PEM certificate");
			SSL_CTX_free(ctx);
			return NULL;
		}
		if (SSL_CTX_use_PrivateKey_file(ctx, cfg->client_key, SSL_FILETYPE_PEM) != 1) {
			snprintf(what, sizeof(what), "cannot load client key %s", cfg->client_key);
			ssl_reason(err, errlen, what, "not a PEM private key");
			SSL_CTX_free(ctx);
			return NULL;
		}
		if (SSL_CTX_check_private_key(ctx) != 1) {
			snprintf(what, sizeof(what), "client key %s does not match certificate %s",
				 cfg->client_key, cfg->client_cert);
			ssl_reason(err, errlen, what, "mismatch");
			SSL_CTX_free(ctx);
			return NULL;
		}
	}
	return ctx;
}

static void tls_ctx_free(SSL_CTX *ctx)
{
	SSL_CTX_free(ctx);
}

static struct bufferevent *tls_bev_new(struct event_base *base, SSL_CTX *ctx, int fd,
				       const struct rtr_cache_cfg *cfg, char *err, size_t errlen)
{
	struct bufferevent *bev;
	X509_VERIFY_PARAM *param;
	uint8_t literal[16];
	SSL *ssl;
	int ok;

	ERR_clear_error();
	ssl = SSL_new(ctx);
	if (!ssl) {
		ssl_reason(err, errlen, "cannot create a TLS session", "out of memory");
		return NULL;
	}
	param = SSL_get0_param(ssl);
	X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
	if (inet_pton(AF_INET, cfg->host, literal) == 1 ||
	    inet_pton(AF_INET6, cfg->host, literal) == 1) {
		ok = X509_VERIFY_PARAM_set1_ip_asc(param, cfg->host);
	} else {
		ok = X509_VERIFY_PARAM_set1_host(param, cfg->host, 0) &&
		     SSL_set_tlsext_host_name(ssl, cfg->host);
	}
	if (!ok) {
		ssl_reason(err, errlen, "cannot set the host name to verify", cfg->host);
		SSL_free(ssl);
		return NULL;
	}
	bev = bufferevent_openssl_socket_new(base, fd, ssl, BUFFEREVENT_SSL_CONNECTING,
					     BEV_OPT_CLOSE_ON_FREE);
	if (!bev) {
		snprintf(err, errlen, "cannot create a TLS bufferevent");
		SSL_free(ssl);
		return NULL;
	}
	return bev;
}

static void tls_failure(struct bufferevent *bev, char *err, size_t errlen)
{
	SSL *ssl = bufferevent_openssl_get_ssl(bev);
	unsigned long e, last = 0;
	long vr = ssl ? SSL_get_verify_result(ssl) : X509_V_OK;

	while ((e = bufferevent_get_openssl_error(bev)) != 0)
		last = e;
	if (vr != X509_V_OK) {
		snprintf(err, errlen, "certificate verification failed: %s",
			 X509_verify_cert_error_string(vr));
	} else if (last && ERR_GET_LIB(last) != 0) {
		/* (libevent queues socket errors here too, as library 0: not a TLS reason) */
		char buf[200];

		ERR_error_string_n(last, buf, sizeof(buf));
		snprintf(err, errlen, "%s", buf);
	} else {
		/* No TLS alert and no verdict: the peer went away (not a TLS server?). */
		snprintf(err, errlen, "the connection closed during the handshake (is it TLS?)");
	}
	ERR_clear_error();
}

static void tls_peer(struct bufferevent *bev, char *subject, size_t slen, char *version,
		     size_t vlen)
{
	SSL *ssl = bufferevent_openssl_get_ssl(bev);
	X509 *cert;

	subject[0] = version[0] = '\0';
	if (!ssl)
		return;
	snprintf(version, vlen, "%s", SSL_get_version(ssl));
	cert = SSL_get1_peer_certificate(ssl);
	if (cert) {
		X509_NAME_oneline(X509_get_subject_name(cert), subject, (int)slen);
		X509_free(cert);
	}
}

const struct rtr_tls_ops rtr_tls_module = {
	.abi = RTR_TLS_ABI,
	.cfg_size = sizeof(struct rtr_cache_cfg),
	.version = PACKAGE_VERSION,
	.ctx_new = tls_ctx_new,
	.ctx_free = tls_ctx_free,
	.bev_new = tls_bev_new,
	.failure = tls_failure,
	.peer = tls_peer,
};
