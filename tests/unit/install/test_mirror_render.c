#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "install/mirror_render.h"

static void test_mirror_render_a_line_per_file_gotten(void **state)
{
	struct mirror_file f = {.path = "cuda/a.tar.xz"};
	struct buf out = BUF_INIT;

	(void)state;
	mirror_render_file(&out, &f, MIRROR_FETCHED, 1500000);
	mirror_render_file(&out, &f, MIRROR_CACHED, 2500000000000ull);
	mirror_render_file(&out, &f, MIRROR_COPIED, 10);
	mirror_render_file(&out, &f, MIRROR_REPAIRED, 999);
	/* one already there is not said */
	mirror_render_file(&out, &f, MIRROR_HAD, 5);
	assert_string_equal(out.data,
			    "cuenv: fetched cuda/a.tar.xz (1.5 MB)\n"
			    "cuenv: copied cuda/a.tar.xz from the cache "
			    "(2.5 TB)\n"
			    "cuenv: wrote cuda/a.tar.xz\n"
			    "cuenv: replaced cuda/a.tar.xz, whose bytes were "
			    "wrong (999 B)\n");
	buf_release(&out);
}

static void test_mirror_render_summary_and_install_line(void **state)
{
	struct mirror_plan plan = {.nentries = 1, .nfiles = 7};
	struct mirror_report rep = {.fetched = 5,
				    .cached = 1,
				    .had = 1,
				    .fetched_bytes = 2000,
				    .had_bytes = 3};
	struct buf out = BUF_INIT;

	(void)state;
	mirror_render_summary(&out, &plan, &rep, "m", "/abs/m");
	assert_string_equal(out.data,
			    "mirrored 1 release (7 files) in m: fetched 5 "
			    "(2.0 KB), 1 from the cache, 1 already there "
			    "(3 B)\n"
			    "install from it with: cuenv install --mirror "
			    "file:///abs/m SPEC (see /abs/m/README.txt)\n");
	buf_reset(&out);
	plan.nentries = 2;
	rep.repaired = 2;
	mirror_render_summary(&out, &plan, &rep, "m", NULL);
	assert_non_null(strstr(out.data, "mirrored 2 releases (7 files)"));
	assert_non_null(strstr(out.data, "\nreplaced 2 damaged files\n"
					 "install from it with: cuenv install "
					 "--mirror file://m SPEC (see "
					 "m/README.txt)\n"));
	buf_release(&out);
}

static void collect(void *ctx, const char *text)
{
	buf_adds(ctx, text);
}

static void test_mirror_show_writes_lines_unless_quiet(void **state)
{
	struct mirror_file f = {.path = "cuda/a.tar.xz"};
	struct buf said = BUF_INIT;
	struct mirror_show s = {.write = collect, .write_ctx = &said};
	struct mirror_opts o = {0};

	(void)state;
	mirror_show_attach(&s, &o);
	assert_ptr_equal(o.ctx, &s);
	o.on_file(o.ctx, &f, MIRROR_HAD, 5); /* already there: nothing */
	assert_int_equal(said.len, 0);
	o.on_file(o.ctx, &f, MIRROR_FETCHED, 1500000);
	o.waiting(o.ctx, "/srv/m");
	assert_string_equal(said.data,
			    "cuenv: fetched cuda/a.tar.xz (1.5 MB)\n"
			    "cuenv: another cuenv mirror is writing '/srv/m'; "
			    "waiting for it\n");
	buf_reset(&said);
	s.quiet = 1;
	o.on_file(o.ctx, &f, MIRROR_FETCHED, 1500000);
	o.waiting(o.ctx, "/srv/m");
	assert_int_equal(said.len, 0);
	buf_release(&said);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_mirror_render_a_line_per_file_gotten),
	    cmocka_unit_test(test_mirror_render_summary_and_install_line),
	    cmocka_unit_test(test_mirror_show_writes_lines_unless_quiet),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
