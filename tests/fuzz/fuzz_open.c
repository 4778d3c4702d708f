/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target: the small messages. Input: one selector byte, then a message body.
 *   selector % 4 == 0: OPEN (decode, check against a configuration, re-encode ours)
 *   selector % 4 == 1: NOTIFICATION (decode, print)
 *   selector % 4 == 2: ROUTE-REFRESH
 *   selector % 4 == 3: a 19-byte header
 * See tests/fuzz/README.md.
 */
#include "lib/compat.h"

#include "bgpd/wire/bgp_header.h"
#include "bgpd/wire/bgp_notify.h"
#include "bgpd/wire/bgp_open.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bgp_open_local local = {
		.asn = 65001,
		.holdtime = 90,
		.af = { true, true },
		.route_refresh = true,
		.enhanced_rr = true,
		.ext_message = true,
	};
	struct bgp_open_result res;
	struct bgp_route_refresh rr;
	struct bgp_notify n;
	struct bgp_header h;
	struct bgp_error err;
	struct bgp_open open;
	uint8_t buf[4096];
	char text[1024];

	if (size < 1)
		return 0;
	local.id.s_addr = htonl(0x0a000001);
	switch (data[0] & 3) {
	case 0:
		local.remote_as_type = (enum bgp_remote_as_type)((data[0] >> 2) % 3);
		local.remote_as = (data[0] & 0x20) ? 65002 : 0;
		if (bgp_open_decode(&open, data + 1, size - 1, &err) == 0 &&
		    bgp_open_check(&open, &local, &res, &err) == 0) {
			/* Negotiated at least one family, a sane hold time. */
			if (!(res.af[0] || res.af[1]) || res.holdtime == 1 || res.holdtime == 2)
				abort();
		}
		if (!bgp_open_encode(buf, sizeof(buf), &local))
			abort();
		break;
	case 1:
		if (bgp_notify_decode(&n, data + 1, size - 1) == 0)
			bgp_notify_str(&n, text, sizeof(text));
		break;
	case 2:
		bgp_route_refresh_decode(&rr, data + 1, size - 1, &err);
		break;
	case 3:
		if (size >= 1 + BGP_HEADER_LEN)
			bgp_header_decode(data + 1, data[0] & 4, &h, &err);
		break;
	}
	return 0;
}
