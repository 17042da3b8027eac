#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/xalloc.h"
#include "plat_path_cases.h"

#define N(a) (sizeof(a) / sizeof *(a))

static const char *style(const struct plat_path_rules *r)
{
	return r->style == PLAT_PATH_WINDOWS ? "windows" : "posix";
}

static void test_plat_path_kind_and_is_abs(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(kind_cases); i++) {
		size_t n = 99;
		enum plat_path_kind k =
		    plat_path_kind(kind_cases[i].r, kind_cases[i].path, &n);

		if (k != kind_cases[i].kind || n != kind_cases[i].root_len ||
		    plat_path_is_abs(kind_cases[i].r, kind_cases[i].path) !=
			kind_cases[i].abs)
			fail_msg(
			    "%s [%s]: kind %d root %zu, want %d %zu abs %d",
			    style(kind_cases[i].r), kind_cases[i].path, (int)k,
			    n, (int)kind_cases[i].kind, kind_cases[i].root_len,
			    kind_cases[i].abs);
	}
}

static void test_plat_path_join(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(join_cases); i++) {
		char *s = plat_path_join(join_cases[i].r, join_cases[i].a,
					 join_cases[i].b);

		if (strcmp(s, join_cases[i].want))
			fail_msg("%s join [%s] [%s] = [%s], want [%s]",
				 style(join_cases[i].r), join_cases[i].a,
				 join_cases[i].b, s, join_cases[i].want);
		free(s);
	}
}

static void test_plat_path_normalize(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(normalize_cases); i++) {
		char *s = plat_path_normalize(normalize_cases[i].r,
					      normalize_cases[i].path);

		if (strcmp(s, normalize_cases[i].want))
			fail_msg("%s normalize [%s] = [%s], want [%s]",
				 style(normalize_cases[i].r),
				 normalize_cases[i].path, s,
				 normalize_cases[i].want);
		free(s);
	}
}

static void test_plat_path_split(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(split_cases); i++) {
		struct strv parts = {0};
		struct buf joined = BUF_INIT;
		char *root;

		plat_path_split(split_cases[i].r, split_cases[i].path, &root,
				&parts);
		strv_join(&parts, '|', &joined);
		if (strcmp(root, split_cases[i].root) ||
		    strcmp(joined.len ? joined.data : "", split_cases[i].parts))
			fail_msg("%s split [%s] = [%s] [%s], want [%s] [%s]",
				 style(split_cases[i].r), split_cases[i].path,
				 root, joined.data, split_cases[i].root,
				 split_cases[i].parts);
		free(root);
		strv_release(&parts);
		buf_release(&joined);
	}
}

static void test_plat_path_parent_walks_up_to_the_root(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(parent_cases); i++) {
		char *s =
		    plat_path_parent(parent_cases[i].r, parent_cases[i].path);
		const char *want = parent_cases[i].want;

		if (want ? !s || strcmp(s, want) : s != NULL)
			fail_msg("%s parent [%s] = [%s], want [%s]",
				 style(parent_cases[i].r), parent_cases[i].path,
				 s ? s : "(none)", want ? want : "(none)");
		free(s);
	}
	/* the .cuenv walk-up ends, from any depth */
	{
		char *p = xstrdup("C:\\a\\b\\c\\d"), *q;
		int steps = 0;

		while ((q = plat_path_parent(&plat_path_windows, p))) {
			free(p);
			p = q;
			steps++;
		}
		assert_string_equal(p, "C:\\");
		assert_int_equal(steps, 4);
		free(p);
	}
}

static void test_plat_path_equal(void **state)
{
	struct plat_path_rules exact = plat_path_windows;

	(void)state;
	for (size_t i = 0; i < N(equal_cases); i++)
		if (plat_path_equal(equal_cases[i].r, equal_cases[i].a,
				    equal_cases[i].b) != equal_cases[i].equal)
			fail_msg("%s equal [%s] [%s] != %d",
				 style(equal_cases[i].r), equal_cases[i].a,
				 equal_cases[i].b, equal_cases[i].equal);
	/* asked for case-sensitive (a case-sensitive NTFS folder) */
	exact.fold_case = 0;
	assert_false(plat_path_equal(&exact, "C:\\A", "C:\\a"));
	assert_true(plat_path_equal(&exact, "C:\\a", "C:/a"));
}

static void test_plat_path_list_separator_and_native(void **state)
{
	(void)state;
	assert_int_equal(plat_path_posix.list_sep, ':');
	assert_int_equal(plat_path_windows.list_sep, ';');
	assert_int_equal(plat_path_posix.sep, '/');
	assert_int_equal(plat_path_windows.sep, '\\');
	assert_true(plat_path_is_sep(&plat_path_windows, '/'));
	assert_false(plat_path_is_sep(&plat_path_posix, '\\'));
	/* these tests run on Linux */
	assert_ptr_equal(plat_path_native(), &plat_path_posix);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plat_path_kind_and_is_abs),
	    cmocka_unit_test(test_plat_path_join),
	    cmocka_unit_test(test_plat_path_normalize),
	    cmocka_unit_test(test_plat_path_split),
	    cmocka_unit_test(test_plat_path_parent_walks_up_to_the_root),
	    cmocka_unit_test(test_plat_path_equal),
	    cmocka_unit_test(test_plat_path_list_separator_and_native),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
