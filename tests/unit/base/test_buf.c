#include "fakes/fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plat/plat_path.h"
#include "base/buf.h"
#include "base/xalloc.h"

/* ---- struct buf ---------------------------------------------------------- */

static void test_buf_init_is_empty_string_owning_nothing(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	assert_non_null(b.data);
	assert_string_equal(b.data, "");
	assert_int_equal(b.len, 0);
	assert_int_equal(b.cap, 0);
	buf_release(&b); /* must not free the shared "" */
	assert_string_equal(b.data, "");
}

static void test_buf_printf_grows_across_64_byte_boundary(void **state)
{
	struct buf b = BUF_INIT;
	char want[128];

	(void)state;
	memset(want, 'a', 60);
	want[60] = '\0';
	buf_adds(&b, want);
	assert_int_equal(b.cap, 64);
	buf_printf(&b, "%s-%d", "0123456789", 42);
	memcpy(want + 60, "0123456789-42", 14);
	assert_int_equal(b.len, 73);
	assert_true(b.cap >= b.len + 1);
	assert_string_equal(b.data, want);
	buf_release(&b);
}

static void test_buf_printf_filling_capacity_exactly(void **state)
{
	struct buf b = BUF_INIT;
	char want[70];

	(void)state;
	buf_addc(&b, 'x');
	assert_int_equal(b.cap, 64);
	/* 62 more bytes: 63 in all plus the NUL is exactly 64 */
	buf_printf(&b, "%062d", 7);
	assert_int_equal(b.len, 63);
	assert_int_equal(b.cap, 64);
	want[0] = 'x';
	memset(want + 1, '0', 61);
	want[62] = '7';
	want[63] = '\0';
	assert_string_equal(b.data, want);
	buf_printf(&b, "%c", '!');
	assert_int_equal(b.len, 64);
	assert_true(b.cap > 64);
	assert_int_equal(b.data[63], '!');
	assert_int_equal(b.data[64], '\0');
	buf_release(&b);
}

static void test_buf_printf_on_empty_buf_allocates(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_printf(&b, "%s/%s", "/root", "versions");
	assert_string_equal(b.data, "/root/versions");
	assert_int_equal(b.len, strlen("/root/versions"));
	assert_true(b.cap > 0);
	buf_release(&b);
}

static void test_buf_printf_appends_many_times(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	for (int i = 0; i < 1000; i++)
		buf_printf(&b, "%d,", i % 10);
	assert_int_equal(b.len, 2000);
	assert_int_equal(strlen(b.data), 2000);
	assert_memory_equal(b.data + 1990, "5,6,7,8,9,", 10);
	buf_release(&b);
}

static void test_buf_add_keeps_bytes_and_nul_terminator(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_add(&b, "ab\0cd", 5);
	assert_int_equal(b.len, 5);
	assert_memory_equal(b.data, "ab\0cd", 6);
	buf_add(&b, "zz", 0); /* nothing */
	assert_int_equal(b.len, 5);
	buf_release(&b);
}

static void test_buf_reset_keeps_memory_and_empties(void **state)
{
	struct buf b = BUF_INIT;
	char *mem;

	(void)state;
	buf_adds(&b, "hello");
	mem = b.data;
	buf_reset(&b);
	assert_ptr_equal(b.data, mem);
	assert_int_equal(b.len, 0);
	assert_string_equal(b.data, "");
	buf_adds(&b, "hi");
	assert_string_equal(b.data, "hi");
	buf_release(&b);
}

static void test_buf_setlen_truncates(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_adds(&b, "/root/versions");
	buf_setlen(&b, 5);
	assert_string_equal(b.data, "/root");
	assert_int_equal(b.len, 5);
	buf_release(&b);
}

static void test_buf_sets_replaces_contents(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_adds(&b, "a long old value");
	buf_sets(&b, "new");
	assert_string_equal(b.data, "new");
	assert_int_equal(b.len, 3);
	buf_release(&b);
}

static void test_buf_detach_hands_over_heap_string(void **state)
{
	struct buf b = BUF_INIT;
	char *s;

	(void)state;
	buf_adds(&b, "mine");
	s = buf_detach(&b);
	assert_string_equal(s, "mine");
	assert_string_equal(b.data, "");
	assert_int_equal(b.cap, 0);
	free(s);
}

static void test_buf_detach_of_empty_buf_returns_freeable_string(void **state)
{
	struct buf b = BUF_INIT;
	char *s;

	(void)state;
	s = buf_detach(&b);
	assert_non_null(s);
	assert_ptr_not_equal(s, buf_empty);
	assert_string_equal(s, "");
	free(s);
}

/* ---- display ------------------------------------------------------------- */

static void test_buf_add_display_escapes_control_and_non_ascii(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_add_display(&b, "a\tb\x1b\xc3\xa9\\z\x7f\n", 100);
	assert_string_equal(b.data, "a\\x09b\\x1b\\xc3\\xa9\\x5cz\\x7f\\x0a");
	buf_release(&b);
}

static void test_buf_add_display_keeps_printable_ascii(void **state)
{
	struct buf b = BUF_INIT;
	const char *s = "cuda = 12.4 # 'quoted' $(x) `y`";

	(void)state;
	buf_add_display(&b, s, 100);
	assert_string_equal(b.data, s);
	buf_release(&b);
}

static void test_buf_add_display_cuts_after_max_bytes(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_add_display(&b, "abcdef", 3);
	assert_string_equal(b.data, "abc...");
	buf_reset(&b);
	buf_add_display(&b, "abcdef", 6); /* exactly max: no cut */
	assert_string_equal(b.data, "abcdef");
	buf_release(&b);
}

static void test_buf_add_display_appends(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_adds(&b, "value: ");
	buf_add_display(&b, "x\n", 10);
	assert_string_equal(b.data, "value: x\\x0a");
	buf_release(&b);
}

/* ---- paths --------------------------------------------------------------- */

static void check_path(const char *dir, const char *name, const char *want)
{
	struct buf b = BUF_INIT;

	buf_path(&b, dir, name);
	assert_string_equal(b.data, want);
	assert_int_equal(b.len, strlen(want));
	buf_release(&b);
}

static void test_buf_path_joins_with_exactly_one_slash(void **state)
{
	(void)state;
	check_path("a", "b", "a/b");
	check_path("a/", "b", "a/b");
	check_path("a//", "/b", "a/b");
	check_path("/root", "versions/cuda", "/root/versions/cuda");
}

static void test_buf_path_keeps_the_root_slash(void **state)
{
	(void)state;
	check_path("/", "etc", "/etc");
	check_path("/", "/etc", "/etc");
	check_path("//", "etc", "/etc");
}

static void test_buf_path_extends_itself(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_adds(&b, "/root");
	buf_path(&b, b.data, "versions");
	buf_path(&b, b.data, "cuda");
	assert_string_equal(b.data, "/root/versions/cuda");
	buf_sets(&b, "/root/");
	buf_path(&b, b.data, "x");
	assert_string_equal(b.data, "/root/x");
	buf_release(&b);
}

static void test_buf_path_appends_to_existing_contents(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	buf_adds(&b, "path: ");
	buf_path(&b, "/a", "b");
	assert_string_equal(b.data, "path: /a/b");
	buf_release(&b);
}

/* ---- string vectors ------------------------------------------------------ */

static void test_mem_find_finds_first_match_across_nul_bytes(void **state)
{
	static const char hay[] = "ab\0.so.\0x.so.1";

	(void)state;
	assert_ptr_equal(mem_find(hay, sizeof(hay) - 1, ".so.", 4), hay + 3);
	assert_ptr_equal(mem_find(hay + 4, sizeof(hay) - 5, ".so.", 4),
			 hay + 9);
	assert_ptr_equal(mem_find(hay, sizeof(hay) - 1, "", 0), hay);
	/* A match may end at the last byte, never past it. */
	assert_ptr_equal(mem_find(hay, 13, ".so.1", 5), NULL);
	assert_ptr_equal(mem_find(hay, 14, ".so.1", 5), hay + 9);
	assert_null(mem_find(hay, 2, "abc", 3));
	assert_null(mem_find(hay, 0, "a", 1));
}

static void test_str_find_nocase_ignores_ascii_case(void **state)
{
	const char *s = "W: Could NOT load dynamic library";

	(void)state;
	assert_ptr_equal(str_find_nocase(s, "could not"), s + 3);
	assert_ptr_equal(str_find_nocase(s, "LIBRARY"), s + 26);
	assert_ptr_equal(str_find_nocase(s, ""), s);
	assert_null(str_find_nocase(s, "libraryx"));
	assert_null(str_find_nocase("", "a"));
}

static void test_strv_split_keeps_empty_fields(void **state)
{
	struct strv sv = STRV_INIT;

	(void)state;
	strv_split(&sv, ":a::b:", ':');
	assert_int_equal(sv.n, 5);
	assert_string_equal(sv.v[0], "");
	assert_string_equal(sv.v[1], "a");
	assert_string_equal(sv.v[2], "");
	assert_string_equal(sv.v[3], "b");
	assert_string_equal(sv.v[4], "");
	assert_null(sv.v[5]);
	strv_release(&sv);
}

static void test_strv_split_of_empty_string_is_one_empty_field(void **state)
{
	struct strv sv = STRV_INIT;

	(void)state;
	strv_split(&sv, "", ':');
	assert_int_equal(sv.n, 1);
	assert_string_equal(sv.v[0], "");
	strv_release(&sv);
}

static void test_strv_sort_orders_bytes(void **state)
{
	struct strv sv = STRV_INIT;
	struct buf b = BUF_INIT;

	(void)state;
	strv_sort(&sv); /* empty: nothing to do */
	strv_split(&sv, "libcupti.so.12,libcudart.so.12,Z,libcudart.so.11.0,",
		   ',');
	strv_sort(&sv);
	strv_join(&sv, ' ', &b);
	assert_string_equal(
	    b.data, " Z libcudart.so.11.0 libcudart.so.12 libcupti.so.12");
	strv_release(&sv);
	buf_release(&b);
}

static void test_strv_join_round_trips_split(void **state)
{
	static const char *const cases[] = {
	    "", ":", "a", "/usr/bin:/bin", "::x::", "a b:c'd:$e"};
	struct buf b = BUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct strv sv = STRV_INIT;

		strv_split(&sv, cases[i], ':');
		strv_join(&sv, ':', &b);
		assert_string_equal(b.data, cases[i]);
		strv_release(&sv);
	}
	buf_release(&b);
}

static void test_strv_join_resets_buffer_first(void **state)
{
	struct strv sv = STRV_INIT;
	struct buf b = BUF_INIT;

	(void)state;
	strv_push(&sv, "x");
	strv_push(&sv, "y");
	buf_adds(&b, "old contents");
	strv_join(&sv, ';', &b);
	assert_string_equal(b.data, "x;y");
	strv_release(&sv);
	buf_release(&b);
}

static void test_strv_join_of_empty_vector_is_empty(void **state)
{
	struct strv sv = STRV_INIT;
	struct buf b = BUF_INIT;

	(void)state;
	buf_adds(&b, "old");
	strv_join(&sv, ':', &b);
	assert_string_equal(b.data, "");
	buf_release(&b);
}

static void test_strv_push_copies_the_string(void **state)
{
	struct strv sv = STRV_INIT;
	char s[] = "abc";

	(void)state;
	strv_push(&sv, s);
	s[0] = 'X';
	assert_string_equal(sv.v[0], "abc");
	strv_release(&sv);
	assert_null(sv.v);
	assert_int_equal(sv.n, 0);
}

static void test_strv_push_take_keeps_the_pointer(void **state)
{
	struct strv sv = STRV_INIT;
	char *s = xstrdup("heap");

	(void)state;
	strv_push_take(&sv, s);
	assert_ptr_equal(sv.v[0], s);
	strv_release(&sv); /* frees s */
}

static void test_strv_grows_past_initial_capacity(void **state)
{
	struct strv sv = STRV_INIT;
	char name[16];

	(void)state;
	for (int i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "e%d", i);
		strv_push(&sv, name);
	}
	assert_int_equal(sv.n, 100);
	assert_string_equal(sv.v[0], "e0");
	assert_string_equal(sv.v[99], "e99");
	assert_null(sv.v[100]);
	strv_release(&sv);
}

static void test_strv_insert_and_remove_keep_order(void **state)
{
	struct strv sv = STRV_INIT;

	(void)state;
	strv_split(&sv, "a:c", ':');
	strv_insert(&sv, 1, "b");
	strv_insert(&sv, 0, "start");
	assert_int_equal(sv.n, 4);
	assert_string_equal(sv.v[0], "start");
	assert_string_equal(sv.v[1], "a");
	assert_string_equal(sv.v[2], "b");
	assert_string_equal(sv.v[3], "c");
	assert_null(sv.v[4]);
	strv_remove(&sv, 0);
	strv_remove(&sv, 2);
	assert_int_equal(sv.n, 2);
	assert_string_equal(sv.v[0], "a");
	assert_string_equal(sv.v[1], "b");
	assert_null(sv.v[2]);
	strv_release(&sv);
}

static void test_strv_insert_past_end_appends(void **state)
{
	struct strv sv = STRV_INIT;

	(void)state;
	strv_push(&sv, "a");
	strv_insert(&sv, 7, "z");
	assert_int_equal(sv.n, 2);
	assert_string_equal(sv.v[1], "z");
	assert_null(sv.v[2]);
	strv_release(&sv);
}

static void test_strv_find_returns_first_index_or_minus_one(void **state)
{
	struct strv sv = STRV_INIT;

	(void)state;
	assert_int_equal(strv_find(&sv, "a"), -1);
	strv_split(&sv, "x:a:y:a", ':');
	assert_int_equal(strv_find(&sv, "a"), 1);
	assert_int_equal(strv_find(&sv, "y"), 2);
	assert_int_equal(strv_find(&sv, "b"), -1);
	assert_int_equal(strv_find(&sv, ""), -1);
	strv_release(&sv);
}

static void test_str_index_finds_a_name_or_says_minus_one(void **state)
{
	static const char *const names[] = {"pass", NULL, "fail"};

	(void)state;
	assert_int_equal(str_index(names, 3, "pass"), 0);
	assert_int_equal(str_index(names, 3, "fail"), 2);
	assert_int_equal(str_index(names, 3, "skip"), -1);
	assert_int_equal(str_index(names, 3, ""), -1);
	assert_int_equal(str_index(names, 1, "fail"), -1);
}

static void test_release_each_empties_every_buffer_and_list(void **state)
{
	struct buf a = BUF_INIT, b = BUF_INIT;
	struct strv x = STRV_INIT, y = STRV_INIT;

	(void)state;
	buf_adds(&a, "one");
	buf_adds(&b, "two");
	strv_push(&x, "one");
	strv_push(&y, "two");
	BUF_RELEASE_EACH(&a, &b);
	STRV_RELEASE_EACH(&x, &y);
	assert_ptr_equal(a.data, buf_empty);
	assert_ptr_equal(b.data, buf_empty);
	assert_int_equal(a.len + a.cap + b.len + b.cap, 0);
	assert_null(x.v);
	assert_null(y.v);
	assert_int_equal(x.n + y.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_buf_init_is_empty_string_owning_nothing),
	    cmocka_unit_test(test_release_each_empties_every_buffer_and_list),
	    cmocka_unit_test(test_str_index_finds_a_name_or_says_minus_one),
	    cmocka_unit_test(test_mem_find_finds_first_match_across_nul_bytes),
	    cmocka_unit_test(test_str_find_nocase_ignores_ascii_case),
	    cmocka_unit_test(test_buf_printf_grows_across_64_byte_boundary),
	    cmocka_unit_test(test_buf_printf_filling_capacity_exactly),
	    cmocka_unit_test(test_buf_printf_on_empty_buf_allocates),
	    cmocka_unit_test(test_buf_printf_appends_many_times),
	    cmocka_unit_test(test_buf_add_keeps_bytes_and_nul_terminator),
	    cmocka_unit_test(test_buf_reset_keeps_memory_and_empties),
	    cmocka_unit_test(test_buf_setlen_truncates),
	    cmocka_unit_test(test_buf_sets_replaces_contents),
	    cmocka_unit_test(test_buf_detach_hands_over_heap_string),
	    cmocka_unit_test(
		test_buf_detach_of_empty_buf_returns_freeable_string),
	    cmocka_unit_test(
		test_buf_add_display_escapes_control_and_non_ascii),
	    cmocka_unit_test(test_buf_add_display_keeps_printable_ascii),
	    cmocka_unit_test(test_buf_add_display_cuts_after_max_bytes),
	    cmocka_unit_test(test_buf_add_display_appends),
	    cmocka_unit_test(test_buf_path_joins_with_exactly_one_slash),
	    cmocka_unit_test(test_buf_path_keeps_the_root_slash),
	    cmocka_unit_test(test_buf_path_extends_itself),
	    cmocka_unit_test(test_buf_path_appends_to_existing_contents),
	    cmocka_unit_test(test_strv_split_keeps_empty_fields),
	    cmocka_unit_test(
		test_strv_split_of_empty_string_is_one_empty_field),
	    cmocka_unit_test(test_strv_sort_orders_bytes),
	    cmocka_unit_test(test_strv_join_round_trips_split),
	    cmocka_unit_test(test_strv_join_resets_buffer_first),
	    cmocka_unit_test(test_strv_join_of_empty_vector_is_empty),
	    cmocka_unit_test(test_strv_push_copies_the_string),
	    cmocka_unit_test(test_strv_push_take_keeps_the_pointer),
	    cmocka_unit_test(test_strv_grows_past_initial_capacity),
	    cmocka_unit_test(test_strv_insert_and_remove_keep_order),
	    cmocka_unit_test(test_strv_insert_past_end_appends),
	    cmocka_unit_test(test_strv_find_returns_first_index_or_minus_one),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
