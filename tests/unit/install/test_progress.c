#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "install/progress.h"

/* Two archives as install_run reports them. */
static void parts(struct part_progress p[2])
{
	memset(p, 0, 2 * sizeof(*p));
	p[0].name = "cuda_cudart";
	p[0].total = 1000000;
	p[0].state = PART_FETCHING;
	p[1].name = "libcublas";
	p[1].total = 3000000;
	p[1].state = PART_WAITING;
}

static void test_progress_size_in_words(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	progress_size(&b, 512, PROGRESS_GB);
	assert_string_equal(b.data, "512 B");
	buf_reset(&b);
	progress_size(&b, 1500000, PROGRESS_GB);
	assert_string_equal(b.data, "1.5 MB");
	buf_reset(&b);
	progress_size(&b, 2.5e12, PROGRESS_GB); /* GB is the largest */
	assert_string_equal(b.data, "2500.0 GB");
	buf_reset(&b);
	progress_size(&b, 2.5e12, PROGRESS_TB);
	assert_string_equal(b.data, "2.5 TB");
	buf_reset(&b);
	progress_size(&b, 2.5e16, PROGRESS_TB);
	assert_string_equal(b.data, "25000.0 TB");
	buf_release(&b);
}

static void test_progress_tty_redraws_the_block(void **state)
{
	struct progress pg;
	struct part_progress p[2];
	struct buf out = BUF_INIT;

	(void)state;
	parts(p);
	p[0].done = 500000;
	progress_init(&pg, true, "cuda 12.4.1", 2);
	progress_update(&pg, p, 2, 1.0, 80, &out);
	assert_string_equal(
	    out.data,
	    "\033[2K  cuda_cudart              500.0 KB / 1.0 MB     \n"
	    "\033[2K  libcublas                     0 B / 3.0 MB     waiting\n"
	    "\033[2K  total                    500.0 KB / 4.0 MB     "
	    "500.0 KB/s, 7 s left\n");
	/* the next one goes back up over the three lines first */
	buf_reset(&out);
	p[0].done = 1000000;
	p[0].state = PART_DONE;
	p[1].state = PART_DONE;
	p[1].cached = 1;
	p[1].done = 3000000;
	progress_update(&pg, p, 2, 2.0, 80, &out);
	assert_true(!strncmp(out.data, "\033[3A\033[2K  cuda_cudart ", 22));
	assert_non_null(strstr(out.data, " done\n"));
	assert_non_null(strstr(out.data, " cached\n"));
	/* all done: no time left */
	assert_non_null(strstr(out.data, "2.0 MB/s\n"));
	progress_release(&pg);
	buf_release(&out);
}

static void test_progress_tty_lines_fit_a_narrow_terminal(void **state)
{
	struct progress pg;
	struct part_progress p[2];
	struct buf out = BUF_INIT;
	struct strv lines = STRV_INIT;

	(void)state;
	parts(p);
	p[0].name = "a_very_long_component_name";
	p[0].state = PART_DONE;
	p[0].done = 1000000;
	progress_init(&pg, true, "cuda 12.4.1", 2);
	progress_update(&pg, p, 2, 10.0, 45, &out);
	strv_split(&lines, out.data, '\n');
	for (size_t i = 0; i < lines.n; i++)
		/* "\033[2K" and at most 44 columns */
		assert_true(strlen(lines.v[i]) <= 4 + 44);
	assert_string_equal(lines.v[0],
			    "\033[2K  a_very_long_   1.0 MB/1.0 MB   done");
	/* the total, with rate and time left, cut at 44 */
	assert_string_equal(lines.v[2], "\033[2K  total          1.0 MB/4.0 MB"
					"   100.0 KB/s,");
	strv_release(&lines);
	progress_release(&pg);
	buf_release(&out);
}

static void test_progress_plain_announces_each_part_once(void **state)
{
	struct progress pg;
	struct part_progress p[2];
	struct buf out = BUF_INIT;

	(void)state;
	parts(p);
	progress_init(&pg, false, "cuda 12.4.1", 2);
	progress_update(&pg, p, 2, 1.0, 80, &out);
	assert_string_equal(out.data, "");
	p[0].state = PART_DONE;
	p[0].done = 1000000;
	progress_update(&pg, p, 2, 1.0, 80, &out);
	assert_string_equal(out.data, "cuenv: cuda_cudart done (1.0 MB)\n"
				      "cuenv: cuda 12.4.1: 25% (1.0 MB)\n");
	buf_reset(&out);
	progress_update(&pg, p, 2, 1.0, 80, &out);
	assert_string_equal(out.data, ""); /* nothing new */
	p[1].state = PART_FAILED;
	p[1].done = 2500000;
	progress_update(&pg, p, 2, 1.0, 80, &out);
	assert_string_equal(out.data,
			    "cuenv: libcublas failed (2.5 MB of 3.0 MB)\n"
			    "cuenv: cuda 12.4.1: 75% (3.5 MB)\n");
	progress_release(&pg);
	buf_release(&out);
}

static void test_progress_plain_sizes_without_a_total(void **state)
{
	struct progress pg;
	struct part_progress p[2];
	struct buf out = BUF_INIT;

	(void)state;
	parts(p);
	p[0].total = p[1].total = 0; /* a runfile, a tarball */
	p[0].state = PART_DONE;
	p[0].cached = 1;
	p[0].done = 4200;
	p[1].state = PART_FAILED;
	p[1].done = 10;
	progress_init(&pg, false, "cuda 11.8.0", 2);
	progress_update(&pg, p, 2, 1.0, 80, &out);
	assert_string_equal(out.data,
			    "cuenv: cuda_cudart from the cache (4.2 KB)\n"
			    "cuenv: libcublas failed (10 B)\n");
	progress_release(&pg);
	buf_release(&out);
}

static void test_progress_plain_never_says_100(void **state)
{
	struct progress pg;
	struct part_progress p[2];
	struct buf out = BUF_INIT;

	(void)state;
	parts(p);
	/* past 25 and 50 at once: one line, the highest quarter */
	p[0].done = 1000000;
	p[1].done = 1500000;
	progress_init(&pg, false, "cuda 12.4.1", 1);
	progress_update(&pg, p, 2, 1.0, 80, &out);
	assert_string_equal(out.data, "cuenv: cuda 12.4.1: 50% (2.5 MB)\n");
	buf_reset(&out);
	p[1].done = 3000000;
	p[0].state = p[1].state = PART_DONE;
	progress_update(&pg, p, 2, 1.0, 80, &out);
	/* only the first archive is announced (nparts 1); no 100% */
	assert_string_equal(out.data, "cuenv: cuda_cudart done (1.0 MB)\n");
	progress_release(&pg);
	buf_release(&out);
}

/* ---- progress_show ------------------------------------------------------- */

static int64_t fake_ms;

static int64_t fake_clock(void)
{
	return fake_ms;
}

static unsigned fake_columns(void)
{
	return 60;
}

/* The writer: everything said, in order. */
static void collect(void *ctx, const char *text)
{
	buf_adds(ctx, text);
}

static const struct release cuda = {.kind = KIT_CUDA,
				    .version = "12.4.1",
				    .cuda_major = 12,
				    .source = SRC_REDIST,
				    .nparts = 2};

/* A show that is not on a terminal, its clock at 1 s. */
static void show_init(struct progress_show *s, int quiet, struct buf *said)
{
	fake_ms = 1000;
	progress_show_init(s, &cuda, quiet, collect, said);
	s->pg.tty = false;
	s->clock_ms = fake_clock;
	s->columns = fake_columns;
	s->start_ms = fake_ms;
}

/* "installing" once, before the first thing said; one note only. */
static void test_progress_show_begins_once_and_notes_once(void **state)
{
	struct progress_show s;
	struct install_opts o = {0};
	struct buf said = BUF_INIT;

	(void)state;
	show_init(&s, 0, &said);
	progress_show_attach(&s, &o);
	assert_ptr_equal(o.progress_ctx, &s);
	assert_ptr_equal(o.fetch.note_ctx, &s);
	assert_int_equal(said.len, 0); /* nothing until it starts */
	o.fetch.note(o.fetch.note_ctx, "the server ignores ranges");
	o.fetch.note(o.fetch.note_ctx, "a second note");
	o.waiting(o.progress_ctx, "cuda 12.4.1");
	assert_string_equal(said.data,
			    "cuenv: installing cuda 12.4.1 (redist)\n"
			    "cuenv: the server ignores ranges\n"
			    "cuenv: another install of cuda 12.4.1 is running; "
			    "waiting for it\n");
	progress_show_detach(&o);
	assert_null(o.progress);
	assert_null(o.waiting);
	assert_null(o.progress_ctx);
	assert_null(o.fetch.note);
	assert_null(o.fetch.note_ctx);
	progress_show_release(&s);
	buf_release(&said);
}

static void test_progress_show_progress_lines(void **state)
{
	struct progress_show s;
	struct install_opts o = {0};
	struct part_progress p[2];
	struct buf said = BUF_INIT;

	(void)state;
	show_init(&s, 0, &said);
	progress_show_attach(&s, &o);
	parts(p);
	p[0].done = 1000000;
	p[0].state = PART_DONE;
	o.progress(o.progress_ctx, p, 2);
	assert_string_equal(said.data,
			    "cuenv: installing cuda 12.4.1 (redist)\n"
			    "cuenv: cuda_cudart done (1.0 MB)\n"
			    "cuenv: cuda 12.4.1: 25% (1.0 MB)\n");
	/* on a terminal: the block, cut to the width the terminal has */
	buf_reset(&said);
	s.pg.tty = true;
	o.progress(o.progress_ctx, p, 2);
	assert_non_null(strstr(said.data, "\033[2K  total"));
	assert_null(strstr(said.data, "installing"));
	progress_show_release(&s);
	buf_release(&said);
}

static void test_progress_show_quiet_says_nothing(void **state)
{
	struct progress_show s;
	struct install_opts o = {0};
	struct part_progress p[2];
	struct store_version done;
	struct buf said = BUF_INIT, out = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	show_init(&s, 1, &said);
	progress_show_attach(&s, &o);
	parts(p);
	o.progress(o.progress_ctx, p, 2);
	o.fetch.note(o.fetch.note_ctx, "note");
	o.waiting(o.progress_ctx, "cuda 12.4.1");
	assert_int_equal(said.len, 0);
	store_version_init(&done, KIT_CUDA);
	done.dir = strdup("/r/versions/cuda/12.4.1");
	assert_int_equal(
	    progress_show_result(&s, CUENV_NO, &done, NULL, &out, &err),
	    CUENV_OK);
	assert_int_equal(
	    progress_show_result(&s, CUENV_OK, &done, NULL, &out, &err),
	    CUENV_OK);
	assert_int_equal(out.len, 0);
	store_version_release(&done);
	progress_show_release(&s);
	buf_release(&said);
}

static void test_progress_show_result_lines_and_hint(void **state)
{
	struct progress_show s;
	struct store_version done;
	struct buf said = BUF_INIT, out = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	show_init(&s, 0, &said);
	store_version_init(&done, KIT_CUDA);
	done.dir = strdup("/r/versions/cuda/12.4.1");
	assert_int_equal(
	    progress_show_result(&s, CUENV_NO, &done, NULL, &out, &err),
	    CUENV_OK);
	assert_string_equal(out.data, "cuda 12.4.1 is already installed "
				      "(/r/versions/cuda/12.4.1)\n");
	buf_reset(&out);
	fake_ms = 3500;
	assert_int_equal(
	    progress_show_result(&s, CUENV_OK, &done, NULL, &out, &err),
	    CUENV_OK);
	assert_string_equal(out.data, "installed cuda 12.4.1 in "
				      "/r/versions/cuda/12.4.1 (2.5 s)\n");
	buf_reset(&out);
	/* a failed fetch: no line, and a hint at mirrors unless one was used */
	cuenv_fail(&err, CUENV_E_FETCH, "cannot fetch");
	assert_int_equal(progress_show_result(&s, CUENV_E_FETCH, &done,
					      "file:///m", &out, &err),
			 CUENV_E_FETCH);
	assert_int_equal(err.hint.len, 0);
	assert_int_equal(
	    progress_show_result(&s, CUENV_E_FETCH, &done, NULL, &out, &err),
	    CUENV_E_FETCH);
	assert_non_null(strstr(err.hint.data, "--mirror URL"));
	assert_int_equal(out.len, 0);
	assert_int_equal(said.len, 0);
	err_release(&err);
	store_version_release(&done);
	progress_show_release(&s);
	buf_release(&said);
	buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_progress_size_in_words),
	    cmocka_unit_test(test_progress_tty_redraws_the_block),
	    cmocka_unit_test(test_progress_tty_lines_fit_a_narrow_terminal),
	    cmocka_unit_test(test_progress_plain_announces_each_part_once),
	    cmocka_unit_test(test_progress_plain_sizes_without_a_total),
	    cmocka_unit_test(test_progress_plain_never_says_100),
	    cmocka_unit_test(test_progress_show_begins_once_and_notes_once),
	    cmocka_unit_test(test_progress_show_progress_lines),
	    cmocka_unit_test(test_progress_show_quiet_says_nothing),
	    cmocka_unit_test(test_progress_show_result_lines_and_hint),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
