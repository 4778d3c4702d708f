/* SPDX-License-Identifier: ISC */
/*
 * kernel/libkernelsec.la without privileges: argument checks that never reach the kernel, the
 * wording of error reports (option, peer, strerror, errno name, what to do; never the key),
 * the GTSM hop formula, and the capability report formatter on synthetic probe results.
 */
#include "lib/compat.h"

#include <check.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kernel/kernel_security.h"

static struct ipaddr ip(const char *s)
{
	struct ipaddr a;

	ck_assert_int_eq(ipaddr_from_str(&a, s), 0);
	return a;
}

START_TEST(test_hops_formula)
{
	/* RFC 5082 with the Quagga/FRR/BIRD/OpenBGPD convention: hops N accepts TTL >= 256-N */
	ck_assert_int_eq(kernel_gtsm_min_for_hops(1), 255);
	ck_assert_int_eq(kernel_gtsm_min_for_hops(2), 254);
	ck_assert_int_eq(kernel_gtsm_min_for_hops(254), 2);
	ck_assert_int_eq(kernel_gtsm_min_for_hops(0), -EINVAL);
	ck_assert_int_eq(kernel_gtsm_min_for_hops(255), -EINVAL);
	ck_assert_int_eq(kernel_gtsm_min_for_hops(-1), -EINVAL);
}
END_TEST

/* Errors from the kernel on a descriptor that is not a socket: the message has it all. */
START_TEST(test_error_wording)
{
	struct ipaddr peer = ip("192.0.2.1");
	struct kernel_sec_err err;
	int fd = open("/dev/null", O_RDONLY); /* a descriptor, but not a socket */

	ck_assert_int_ge(fd, 0);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(kernel_md5_set(fd, &peer, "s3cret-password", &err), -ENOTSOCK);
	ck_assert_int_eq(err.code, -ENOTSOCK);
	ck_assert_str_eq(err.option, "TCP_MD5SIG");
	ck_assert_msg(strstr(err.msg, "TCP_MD5SIG") && strstr(err.msg, "peer 192.0.2.1") &&
			      strstr(err.msg, strerror(ENOTSOCK)) && strstr(err.msg, "ENOTSOCK"),
		      "%s", err.msg);
	ck_assert_msg(!strstr(err.msg, "s3cret"), "the key leaked into: %s", err.msg);
	ck_assert_msg(strstr(err.msg, "15 bytes"), "%s", err.msg);

	ck_assert_int_eq(kernel_gtsm_set(fd, &peer, 1, &err), -ENOTSOCK);
	ck_assert_str_eq(err.option, "IP_TTL");
	ck_assert_int_eq(kernel_minttl_set(fd, NULL, 255, &err), -ENOTSOCK);
	ck_assert_msg(strstr(err.msg, "for listener"), "%s", err.msg);
	close(fd);

	/* a closed descriptor */
	ck_assert_int_eq(kernel_ttl_set(fd, &peer, 255, &err), -EBADF);
	ck_assert_msg(strstr(err.msg, "EBADF") && strstr(err.msg, "not an open socket"), "%s",
		      err.msg);
	ck_assert_int_eq(kernel_ttl_get(fd, AF_INET), -EBADF);
	ck_assert_int_eq(kernel_ttl_get(fd, AF_UNIX), -EAFNOSUPPORT);
	ck_assert_int_eq(kernel_minttl_get(fd, AF_UNIX), -EAFNOSUPPORT);

	/* NULL err is allowed everywhere */
	ck_assert_int_eq(kernel_md5_set(fd, &peer, "x", NULL), -EBADF);
}
END_TEST

/* Values refused before any system call, with the option named. */
START_TEST(test_argument_checks)
{
	struct ipaddr peer = ip("2001:db8::1");
	struct kernel_sec_err err;
	char key81[82];
	struct prefix p;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	ck_assert_int_ge(fd, 0);
	memset(key81, 'k', 81);
	key81[81] = '\0';
	ck_assert_int_eq(kernel_md5_set(fd, &peer, key81, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "81 bytes") && strstr(err.msg, "1 to 80"), "%s", err.msg);
	key81[80] = '\0';
	/* 80 bytes pass the length check; an IPv6 peer on an AF_INET socket does not */
	ck_assert_int_eq(kernel_md5_set(fd, &peer, key81, &err), -EAFNOSUPPORT);
	ck_assert_msg(strstr(err.msg, "AF_INET6 socket"), "%s", err.msg);
	ck_assert_int_eq(kernel_md5_set(fd, &peer, "", &err), -EINVAL);
	ck_assert_int_eq(kernel_md5_set(fd, &peer, NULL, &err), -EINVAL);
	ck_assert_int_eq(kernel_md5_set(fd, NULL, "key", &err), -EINVAL);
	/* TCP-MD5 needs no privilege: a v4-mapped prefix is the IPv4 prefix on an AF_INET
	 * socket; deletion is by the masked prefix; a second deletion finds nothing */
	ck_assert_int_eq(prefix_from_str(&p, "::ffff:192.0.2.0/120", true), 0);
	ck_assert_int_eq(kernel_md5_set_prefix(fd, &p, "key", &err), 0);
	ck_assert_int_eq(prefix_from_str(&p, "192.0.2.77/24", false), 0);
	ck_assert_int_eq(kernel_md5_del_prefix(fd, &p, &err), 0);
	ck_assert_int_eq(kernel_md5_del_prefix(fd, &p, &err), -ENOENT);
	ck_assert_msg(strstr(err.msg, "TCP_MD5SIG_EXT remove key for prefix 192.0.2.77/24") &&
			      strstr(err.msg, "no key was installed"),
		      "%s", err.msg);
	ck_assert_int_eq(kernel_ttl_set(fd, NULL, 0, &err), -EINVAL);
	ck_assert_int_eq(kernel_ttl_set(fd, NULL, 256, &err), -EINVAL);
	ck_assert_int_eq(kernel_minttl_set(fd, NULL, -1, &err), -EINVAL);
	ck_assert_int_eq(kernel_minttl_set(fd, NULL, 256, &err), -EINVAL);
	ck_assert_str_eq(err.option, "IP_MINTTL");
	ck_assert_int_eq(kernel_gtsm_set(fd, NULL, 255, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "hops is 1 to 254"), "%s", err.msg);
	ck_assert_int_eq(kernel_gtsm_clear(fd, NULL, 300, &err), -EINVAL);
	close(fd);
}
END_TEST

START_TEST(test_caps_format)
{
	struct kernel_caps caps;
	char buf[1024], small[40];
	unsigned all = (1u << KERNEL_CAP__MAX) - 1;

	memset(&caps, 0, sizeof(caps));
	for (unsigned c = 0; c < KERNEL_CAP__MAX; c++)
		caps.cap[c].ok = true;
	ck_assert_int_eq(kernel_caps_format(&caps, all, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");

	caps.cap[KERNEL_CAP_SOCKET_FILTER] = (struct kernel_cap_result){ false, -EPERM };
	caps.cap[KERNEL_CAP_MD5_V6] = (struct kernel_cap_result){ false, -ENOPROTOOPT };
	/* not required: not reported */
	ck_assert_int_eq(
		kernel_caps_format(&caps, KERNEL_CAP_BIT(KERNEL_CAP_MD5_V4), buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(kernel_caps_format(&caps, all, buf, sizeof(buf)), 2);
	ck_assert_msg(strstr(buf, "this kernel lacks TCP-MD5 for IPv6 peers (TCP_MD5SIG) "
				  "(ENOPROTOOPT: Protocol not available): a neighbor password "
				  "cannot be enforced on IPv6 sessions\n"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "this kernel lacks socket filters on the listener "
				  "(SO_ATTACH_FILTER) (EPERM: Operation not permitted)"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "CAP_NET_ADMIN"), "%s", buf);
	/* truncation keeps a terminated string and the count */
	ck_assert_int_eq(kernel_caps_format(&caps, all, small, sizeof(small)), 2);
	ck_assert_uint_eq(strlen(small), sizeof(small) - 1);
	ck_assert_int_eq(kernel_caps_format(&caps, all, NULL, 0), 2);
	ck_assert_str_eq(kernel_cap_name(KERNEL_CAP_MINHOPCOUNT),
			 "a minimum hop limit for IPv6 (IPV6_MINHOPCOUNT)");
	ck_assert_str_eq(kernel_cap_name(KERNEL_CAP__MAX), "(unknown)");
}
END_TEST

static Suite *api_suite(void)
{
	Suite *s = suite_create("kernel_security_api");
	TCase *tc = tcase_create("api");

	tcase_add_test(tc, test_hops_formula);
	tcase_add_test(tc, test_error_wording);
	tcase_add_test(tc, test_argument_checks);
	tcase_add_test(tc, test_caps_format);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(api_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
