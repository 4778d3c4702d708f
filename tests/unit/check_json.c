/* SPDX-License-Identifier: ISC */
/*
 * lib/json.c: golden output in compact and pretty (FRR/json-c) layout, string escaping,
 * invalid UTF-8, depth overflow, and every document fed through Python's json parser.
 */
#include "lib/compat.h"

#include <check.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/json.h"

#define PYTHON "/usr/bin/python3"

/* Does text parse as JSON? */
static bool python_parses(const char *text)
{
	FILE *f;
	int status;
	char cmd[256];

	if (access(PYTHON, X_OK) != 0)
		return true; /* no interpreter: the golden strings below still check the bytes */
	snprintf(cmd, sizeof(cmd), "%s -c 'import json,sys; json.load(sys.stdin)' 2>/dev/null",
		 PYTHON);
	f = popen(cmd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	status = pclose(f);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* A small `show bgp summary json`-like document. */
static void build_doc(struct json_writer *w)
{
	json_object_open(w, NULL);
	json_string(w, "routerId", "10.0.0.1");
	json_int(w, "as", 65001);
	json_uint(w, "ribCount", 18446744073709551615ull);
	json_int(w, "negative", -5);
	json_bool(w, "dynamic", false);
	json_null(w, "vrf");
	json_object_open(w, "peers");
	json_object_open(w, "10.0.0.2");
	json_string(w, "state", "Established");
	json_bool(w, "gtsm", true);
	json_object_close(w);
	json_object_close(w);
	json_array_open(w, "list");
	json_int(w, NULL, 1);
	json_string(w, NULL, "two");
	json_object_open(w, NULL);
	json_object_close(w);
	json_array_open(w, NULL);
	json_array_close(w);
	json_array_close(w);
	json_object_open(w, "empty");
	json_object_close(w);
	json_object_close(w);
	json_end(w);
}

START_TEST(test_compact)
{
	struct json_writer w;
	struct sbuf sb;

	sbuf_init(&sb);
	json_init(&w, &sb, false);
	build_doc(&w);
	ck_assert_str_eq(sb.buf, "{\"routerId\":\"10.0.0.1\",\"as\":65001,"
				 "\"ribCount\":18446744073709551615,\"negative\":-5,"
				 "\"dynamic\":false,\"vrf\":null,\"peers\":{\"10.0.0.2\":"
				 "{\"state\":\"Established\",\"gtsm\":true}},"
				 "\"list\":[1,\"two\",{},[]],\"empty\":{}}\n");
	ck_assert(python_parses(sb.buf));
	sbuf_free(&sb);
}
END_TEST

/* json_double() as json-c (FRR) writes doubles: 17 significant digits, ".0" on whole numbers,
 * exponents as printf gives them; no NaN or infinity in JSON. */
START_TEST(test_double)
{
	struct json_writer w;
	struct sbuf sb;

	sbuf_init(&sb);
	json_init(&w, &sb, false);
	json_array_open(&w, NULL);
	json_double(&w, NULL, 80.0 / 3);
	json_double(&w, NULL, 144.0);
	json_double(&w, NULL, 0.5625);
	json_double(&w, NULL, 144.0 * 100 / 4294967296.0);
	json_double(&w, NULL, 0.0);
	json_double(&w, NULL, 1.0 / 0.0);
	json_array_close(&w);
	json_end(&w);
	ck_assert_str_eq(sb.buf,
			 "[26.666666666666668,144.0,0.5625,3.3527612686157227e-06,0.0,null]\n");
	ck_assert(python_parses(sb.buf));
	sbuf_free(&sb);
}
END_TEST

START_TEST(test_pretty)
{
	struct json_writer w;
	struct sbuf sb;

	sbuf_init(&sb);
	json_init(&w, &sb, true);
	build_doc(&w);
	/* json-c's JSON_C_TO_STRING_PRETTY layout, as FRR prints it */
	ck_assert_str_eq(sb.buf, "{\n"
				 "  \"routerId\":\"10.0.0.1\",\n"
				 "  \"as\":65001,\n"
				 "  \"ribCount\":18446744073709551615,\n"
				 "  \"negative\":-5,\n"
				 "  \"dynamic\":false,\n"
				 "  \"vrf\":null,\n"
				 "  \"peers\":{\n"
				 "    \"10.0.0.2\":{\n"
				 "      \"state\":\"Established\",\n"
				 "      \"gtsm\":true\n"
				 "    }\n"
				 "  },\n"
				 "  \"list\":[\n"
				 "    1,\n"
				 "    \"two\",\n"
				 "    {},\n"
				 "    []\n"
				 "  ],\n"
				 "  \"empty\":{}\n"
				 "}\n");
	ck_assert(python_parses(sb.buf));
	sbuf_free(&sb);
}
END_TEST

START_TEST(test_escaping)
{
	struct json_writer w;
	struct sbuf sb;

	sbuf_init(&sb);
	json_init(&w, &sb, false);
	json_object_open(&w, NULL);
	json_string(&w, "q\"k", "a\"b\\c/d");
	json_string(&w, "ctl", "\n\r\t\b\f\x01\x1f\x7f");
	json_string(&w, "utf8", "h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80");
	json_string(&w, "bad",
		    "a\xff"
		    "b\xc3"
		    "c\xe2\x82"
		    "d\xed\xa0\x80"
		    "e\xc0\xaf");
	json_stringf(&w, "fmt", "%s=%d", "x\"y", 7);
	json_string(&w, "nul", NULL);
	json_string(&w, "", "");
	json_object_close(&w);
	json_end(&w);
	ck_assert_str_eq(
		sb.buf,
		"{\"q\\\"k\":\"a\\\"b\\\\c/d\","
		"\"ctl\":\"\\n\\r\\t\\b\\f\\u0001\\u001f\x7f\","
		"\"utf8\":\"h\xc3\xa9llo \xe2\x82\xac \xf0\x9f\x98\x80\","
		"\"bad\":\"a\\ufffdb\\ufffdc\\ufffd\\ufffdd\\ufffd\\ufffd\\ufffde\\ufffd\\ufffd\","
		"\"fmt\":\"x\\\"y=7\",\"nul\":null,\"\":\"\"}\n");
	ck_assert(python_parses(sb.buf));
	sbuf_free(&sb);
}
END_TEST

START_TEST(test_all_control_chars)
{
	struct json_writer w;
	struct sbuf sb;
	char s[2] = { 0, 0 };

	sbuf_init(&sb);
	json_init(&w, &sb, true);
	json_array_open(&w, NULL);
	for (int c = 1; c < 256; c++) {
		s[0] = (char)c;
		json_string(&w, NULL, s);
	}
	json_array_close(&w);
	json_end(&w);
	ck_assert(python_parses(sb.buf));
	ck_assert_ptr_nonnull(strstr(sb.buf, "\"\\u001b\""));
	sbuf_free(&sb);
}
END_TEST

START_TEST(test_depth_and_unbalanced)
{
	struct json_writer w;
	struct sbuf sb;

	/* too deep: the inner part becomes null, the document stays valid */
	sbuf_init(&sb);
	json_init(&w, &sb, false);
	for (int i = 0; i < 40; i++)
		json_array_open(&w, NULL);
	json_int(&w, NULL, 5);
	for (int i = 0; i < 40; i++)
		json_array_close(&w);
	json_end(&w);
	ck_assert(python_parses(sb.buf));
	ck_assert_ptr_nonnull(strstr(sb.buf, "null"));
	ck_assert_ptr_null(strstr(sb.buf, "5"));
	sbuf_free(&sb);

	/* left open: json_end closes with the right brackets */
	sbuf_init(&sb);
	json_init(&w, &sb, false);
	json_object_open(&w, NULL);
	json_array_open(&w, "a");
	json_object_open(&w, NULL);
	json_int(&w, "x", 1);
	json_end(&w);
	ck_assert_str_eq(sb.buf, "{\"a\":[{\"x\":1}]}\n");
	sbuf_free(&sb);

	/* a stray close is ignored; a key inside an array is dropped; a missing key is "" */
	sbuf_init(&sb);
	json_init(&w, &sb, false);
	json_object_open(&w, NULL);
	json_array_open(&w, "a");
	json_int(&w, "ignored", 1);
	json_array_close(&w);
	json_int(&w, NULL, 2);
	json_object_close(&w);
	json_object_close(&w);
	json_end(&w);
	ck_assert_str_eq(sb.buf, "{\"a\":[1],\"\":2}\n");
	ck_assert(python_parses(sb.buf));
	sbuf_free(&sb);
}
END_TEST

START_TEST(test_python_rejects_garbage)
{
	/* the checker itself must be able to fail */
	if (access(PYTHON, X_OK) == 0) {
		ck_assert(!python_parses("{\"a\":1,}"));
		ck_assert(!python_parses("{\"a\":\"\x01\"}"));
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_compact);
	tcase_add_test(tc, test_double);
	tcase_add_test(tc, test_pretty);
	tcase_add_test(tc, test_escaping);
	tcase_add_test(tc, test_all_control_chars);
	tcase_add_test(tc, test_depth_and_unbalanced);
	tcase_add_test(tc, test_python_rejects_garbage);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
