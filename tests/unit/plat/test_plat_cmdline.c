#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "plat/plat_cmdline.h"

#define N(a) (sizeof(a) / sizeof *(a))

/* ---- the child's side: a command line split by the rules ---------------- */

/*
 * What the child's C runtime does with the line (plat_cmdline.h's rules):
 * the oracle that plat_cmdline_quote's output is read back with. Only
 * the tests split; cuenv itself only quotes.
 */
static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

static void add_backslashes(struct buf *b, size_t n)
{
	while (n--)
		buf_addc(b, '\\');
}

static const char *split_program(struct strv *args, const char *p)
{
	struct buf a = BUF_INIT;

	if (*p == '"') {
		const char *end = strchr(++p, '"');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		buf_add(&a, p, n);
		p += n + (end != NULL);
	} else {
		while (*p && !is_space(*p))
			buf_addc(&a, *p++);
	}
	strv_push_take(args, buf_detach(&a));
	return p;
}

static void split(struct strv *args, const char *p)
{
	p = split_program(args, p);
	for (;;) {
		struct buf a = BUF_INIT;
		int quoted = 0;

		while (is_space(*p))
			p++;
		if (!*p)
			return;
		while (*p && (quoted || !is_space(*p))) {
			size_t slashes = 0;

			while (*p == '\\') {
				slashes++;
				p++;
			}
			if (*p != '"') {
				/* Literal; what follows is looked at anew. */
				add_backslashes(&a, slashes);
				if (!slashes)
					buf_addc(&a, *p++);
				continue;
			}
			add_backslashes(&a, slashes / 2);
			if (slashes % 2) {
				buf_addc(&a, '"');
			} else if (quoted && p[1] == '"') {
				buf_addc(&a, '"');
				p++;
			} else {
				quoted = !quoted;
			}
			p++;
		}
		strv_push_take(args, buf_detach(&a));
	}
}

/*
 * Microsoft's table in "Parsing C++ command-line arguments"
 * (learn.microsoft.com/cpp/c-language/parsing-c-command-line-arguments),
 * input line after the program name -> argv[1..3], typed from the page.
 */
static const struct {
	const char *line, *a1, *a2, *a3;
} ms_examples[] = {
    {"\"a b c\" d e", "a b c", "d", "e"},
    {"\"ab\\\"c\" \"\\\\\" d", "ab\"c", "\\", "d"},
    {"a\\\\\\b d\"e f\"g h", "a\\\\\\b", "de fg", "h"},
    {"a\\\\\\\"b c d", "a\\\"b", "c", "d"},
    {"a\\\\\\\\\"b c\" d e", "a\\\\b c", "d", "e"},
    {"a\"b\"\" c d", "ab\" c d", NULL, NULL},
};

static void test_plat_cmdline_split_microsoft_examples(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(ms_examples); i++) {
		struct strv v = STRV_INIT;
		struct buf line = BUF_INIT;
		const char *want[] = {"prog.exe", ms_examples[i].a1,
				      ms_examples[i].a2, ms_examples[i].a3};
		size_t n = ms_examples[i].a2 ? 4 : 2;

		buf_printf(&line, "prog.exe %s", ms_examples[i].line);
		split(&v, line.data);
		if (v.n != n)
			fail_msg("[%s]: %zu args, want %zu", line.data, v.n, n);
		for (size_t k = 0; k < n; k++)
			if (strcmp(v.v[k], want[k]))
				fail_msg("[%s] arg %zu: [%s], want [%s]",
					 line.data, k, v.v[k], want[k]);
		strv_release(&v);
		buf_release(&line);
	}
}

/* The program is read without escapes; quotes only group. */
static void test_plat_cmdline_split_program(void **state)
{
	struct strv v = STRV_INIT;

	(void)state;
	split(&v, "\"C:\\Program Files\\x\\\" a");
	assert_int_equal(v.n, 2);
	assert_string_equal(v.v[0], "C:\\Program Files\\x\\");
	assert_string_equal(v.v[1], "a");
	strv_release(&v);
}

/* Quoting: exact lines for a few cases, by hand from the rules. */
static void test_plat_cmdline_quote_exact(void **state)
{
	static const struct {
		const char *arg, *want;
	} cases[] = {
	    {"plain", "plain"},
	    {"", "\"\""},
	    {"a b", "\"a b\""},
	    {"C:\\dir\\", "C:\\dir\\"},
	    {"C:\\my dir\\", "\"C:\\my dir\\\\\""},
	    {"say \"hi\"", "\"say \\\"hi\\\"\""},
	    {"a\\\"b", "\"a\\\\\\\"b\""},
	    {"tab\there", "\"tab\there\""},
	};
	(void)state;
	for (size_t i = 0; i < N(cases); i++) {
		struct buf b = BUF_INIT;
		const char *argv[] = {"p", cases[i].arg, NULL};

		assert_int_equal(plat_cmdline_quote(&b, argv), 0);
		if (strcmp(b.data + 2, cases[i].want))
			fail_msg("[%s]: [%s], want [%s]", cases[i].arg,
				 b.data + 2, cases[i].want);
		buf_release(&b);
	}
}

/* Every argument survives quote then split, the program too. */
static void test_plat_cmdline_round_trip(void **state)
{
	static const char *const argv[] = {"C:\\Program Files\\py.exe",
					   "",
					   "a b",
					   "\\",
					   "\\\\",
					   "end\\",
					   "\"",
					   "\\\"",
					   "x\\\\\"y z\\",
					   "%PATH% ^&|<>",
					   "caf\xc3\xa9",
					   "\"\"",
					   NULL};
	struct buf b = BUF_INIT;
	struct strv v = STRV_INIT;

	(void)state;
	assert_int_equal(plat_cmdline_quote(&b, argv), 0);
	split(&v, b.data);
	assert_int_equal(v.n, N(argv) - 1);
	for (size_t i = 0; i < v.n; i++)
		if (strcmp(v.v[i], argv[i]))
			fail_msg("arg %zu: [%s], want [%s] (line [%s])", i,
				 v.v[i], argv[i], b.data);
	buf_release(&b);
	strv_release(&v);
}

static void test_plat_cmdline_quote_refuses_bad_program(void **state)
{
	struct buf b = BUF_INIT;
	const char *empty[] = {"", NULL};
	const char *quote[] = {"a\"b", "x", NULL};

	(void)state;
	assert_int_equal(plat_cmdline_quote(&b, empty), -1);
	assert_int_equal(plat_cmdline_quote(&b, quote), -1);
	assert_int_equal(b.len, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plat_cmdline_split_microsoft_examples),
	    cmocka_unit_test(test_plat_cmdline_split_program),
	    cmocka_unit_test(test_plat_cmdline_quote_exact),
	    cmocka_unit_test(test_plat_cmdline_round_trip),
	    cmocka_unit_test(test_plat_cmdline_quote_refuses_bad_program),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
