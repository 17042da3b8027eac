#include "fakes/fixture.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "select/dotfile.h"

#define NAME "/p/.cuenv"

static int parse_n(const char *text, size_t len, struct dotfile *df,
		   struct cuenv_err *err)
{
	return dotfile_parse(NAME, text, len, df, err);
}

static int parse(const char *text, struct dotfile *df, struct cuenv_err *err)
{
	return parse_n(text, strlen(text), df, err);
}

/* Parse text that must be rejected with want_msg in the message. */
static void assert_rejected(const char *text, size_t len, const char *want_msg)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df;

	dotfile_init(&df);
	assert_int_equal(parse_n(text, len, &df, &err), CUENV_E_MANIFEST);
	assert_int_equal(err.rc, CUENV_E_MANIFEST);
	if (want_msg && !strstr(err.msg.data, want_msg))
		fail_msg("message '%s' lacks '%s'", err.msg.data, want_msg);
	/* df is filled only on success */
	assert_true(dotfile_is_empty(&df));
	dotfile_release(&df);
	err_release(&err);
}

#define REJECT(text, want) assert_rejected(text, strlen(text), want)

/* ---- accepted files ------------------------------------------------------ */

static void test_dotfile_parses_every_key(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df;

	(void)state;
	dotfile_init(&df);
	assert_int_equal(parse("cuda = 12.4\ncudnn = 9.1\ncupti = 11.2\n"
			       "isolate = true\n",
			       &df, &err),
			 CUENV_OK);
	assert_string_equal(df.cuda, "12.4");
	assert_string_equal(df.cudnn, "9.1");
	assert_string_equal(df.cupti, "11.2");
	assert_int_equal(df.isolate, 1);
	assert_false(dotfile_is_empty(&df));
	dotfile_release(&df);
	err_release(&err);
}

static void test_dotfile_leaves_missing_keys_unset(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df;

	(void)state;
	dotfile_init(&df);
	assert_int_equal(parse("cuda = 12.4.1\n", &df, &err), CUENV_OK);
	assert_string_equal(df.cuda, "12.4.1");
	assert_null(df.cudnn);
	assert_null(df.cupti);
	assert_int_equal(df.isolate, -1);
	dotfile_release(&df);
}

static void test_dotfile_parses_bare_pyenv_style_version(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df;

	(void)state;
	dotfile_init(&df);
	assert_int_equal(parse("12.4\n", &df, &err), CUENV_OK);
	assert_string_equal(df.cuda, "12.4");
	assert_null(df.cudnn);
	assert_int_equal(df.isolate, -1);
	dotfile_release(&df);
}

static void test_dotfile_parses_bare_version_with_comments(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df;

	(void)state;
	dotfile_init(&df);
	assert_int_equal(parse("# pinned\n\n  11.8  # for tf\n\n", &df, &err),
			 CUENV_OK);
	assert_string_equal(df.cuda, "11.8");
	dotfile_release(&df);
}

static void test_dotfile_accepts_system_for_cuda(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df;

	(void)state;
	dotfile_init(&df);
	assert_int_equal(parse("cuda = system\n", &df, &err), CUENV_OK);
	assert_string_equal(df.cuda, DOTFILE_SYSTEM);
	dotfile_release(&df);
	assert_int_equal(parse("system\n", &df, &err), CUENV_OK);
	assert_string_equal(df.cuda, DOTFILE_SYSTEM);
	dotfile_release(&df);
}

static void test_dotfile_rejects_system_for_cudnn(void **state)
{
	(void)state;
	REJECT("cuda = 12.4\ncudnn = system\n", ":2: invalid version 'system'");
	REJECT("cuda = 12.4\ncupti = system\n", ":2: invalid version");
}

static void test_dotfile_skips_full_line_comments_and_blanks(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df;

	(void)state;
	dotfile_init(&df);
	assert_int_equal(parse("# what this project needs\n\n   \t\n"
			       "  # indented comment = with equals\n"
			       "cuda = 12.4\n#cudnn = 1\n",
			       &df, &err),
			 CUENV_OK);
	assert_string_equal(df.cuda, "12.4");
	assert_null(df.cudnn);
	dotfile_release(&df);
}

static void test_dotfile_strips_inline_comments(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df;

	(void)state;
	dotfile_init(&df);
	assert_int_equal(parse("cuda = 12.4   # torch 2.3\n"
			       "cupti = 11.2\t# CUPTI from another release\n"
			       "isolate = true# no space\n",
			       &df, &err),
			 CUENV_OK);
	assert_string_equal(df.cuda, "12.4");
	assert_string_equal(df.cupti, "11.2");
	assert_int_equal(df.isolate, 1);
	dotfile_release(&df);
}

static void test_dotfile_accepts_crlf_line_endings(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df;

	(void)state;
	dotfile_init(&df);
	assert_int_equal(parse("# windows\r\ncuda = 12.4\r\ncudnn = 9.1\r\n"
			       "\r\nisolate = false\r\n",
			       &df, &err),
			 CUENV_OK);
	assert_string_equal(df.cuda, "12.4");
	assert_string_equal(df.cudnn, "9.1");
	assert_int_equal(df.isolate, 0);
	dotfile_release(&df);
	assert_int_equal(parse("12.4\r\n", &df, &err), CUENV_OK);
	assert_string_equal(df.cuda, "12.4");
	dotfile_release(&df);
}

static void test_dotfile_accepts_missing_final_newline(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df;

	(void)state;
	dotfile_init(&df);
	assert_int_equal(parse("cuda = 12.4\ncudnn = 9.1", &df, &err),
			 CUENV_OK);
	assert_string_equal(df.cudnn, "9.1");
	dotfile_release(&df);
}

static void test_dotfile_trims_blanks_around_key_and_value(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df;

	(void)state;
	dotfile_init(&df);
	assert_int_equal(parse(" \tcuda\t=\t12.4 \t\ncudnn=9.1\n", &df, &err),
			 CUENV_OK);
	assert_string_equal(df.cuda, "12.4");
	assert_string_equal(df.cudnn, "9.1");
	dotfile_release(&df);
}

static void test_dotfile_with_only_comments_is_empty(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df;

	(void)state;
	dotfile_init(&df);
	assert_int_equal(parse("# nothing yet\n\n# cuda = 12.4\n", &df, &err),
			 CUENV_OK);
	assert_true(dotfile_is_empty(&df));
	assert_int_equal(parse("", &df, &err), CUENV_OK);
	assert_true(dotfile_is_empty(&df));
	dotfile_release(&df);
}

static void test_dotfile_isolate_accepts_boolean_words(void **state)
{
	static const char *const yes[] = {"true", "yes", "on", "1"};
	static const char *const no[] = {"false", "no", "off", "0"};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	struct dotfile df;

	(void)state;
	dotfile_init(&df);
	for (size_t i = 0; i < 4; i++) {
		buf_reset(&text);
		buf_printf(&text, "cuda = 12.4\nisolate = %s\n", yes[i]);
		assert_int_equal(parse(text.data, &df, &err), CUENV_OK);
		assert_int_equal(df.isolate, 1);
		dotfile_release(&df);
		buf_reset(&text);
		buf_printf(&text, "cuda = 12.4\nisolate = %s\n", no[i]);
		assert_int_equal(parse(text.data, &df, &err), CUENV_OK);
		assert_int_equal(df.isolate, 0);
		dotfile_release(&df);
	}
	buf_release(&text);
}

static void test_dotfile_parse_reads_only_len_bytes(void **state)
{
	const char *text = "cuda = 12.4\ncudnn = 9.1\n";
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df;

	(void)state;
	dotfile_init(&df);
	assert_int_equal(parse_n(text, strlen("cuda = 12.4\n"), &df, &err),
			 CUENV_OK);
	assert_string_equal(df.cuda, "12.4");
	assert_null(df.cudnn);
	dotfile_release(&df);
}

/* ---- rejected files ------------------------------------------------------ */

static void test_dotfile_rejects_unknown_key(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df;

	(void)state;
	dotfile_init(&df);
	assert_int_equal(parse("cuda = 12.4\n\ncudaa = 12.4\n", &df, &err),
			 CUENV_E_MANIFEST);
	assert_string_equal(err.msg.data, NAME ":3: unknown key 'cudaa'");
	assert_non_null(strstr(err.hint.data, "cuda, cudnn, cupti, isolate"));
	err_release(&err);
	REJECT("CUDA = 12.4\n", "unknown key 'CUDA'");
	REJECT("= 12.4\n", "unknown key ''");
	REJECT("python = 3.11\ncuda = 12.4\n", ":1: unknown key 'python'");
}

/* source = chooses where install gets the project's CUDA (issue 23):
 * kept, rewritten in place, removed with the rest; other words refused. */
static void test_dotfile_source_key(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df, set;
	struct buf out = BUF_INIT;
	const char *text = "cuda = 12.4\nsource = pypi # no NVIDIA here\n";

	(void)state;
	dotfile_init(&df);
	dotfile_init(&set);
	assert_int_equal(parse(text, &df, &err), CUENV_OK);
	assert_string_equal(df.source, "pypi");
	set.cuda = (char *)"12.2";
	dotfile_rewrite(text, strlen(text), &set, 0, &out);
	assert_string_equal(out.data,
			    "cuda = 12.2\nsource = pypi # no NVIDIA here\n");
	set.cuda = NULL;
	dotfile_rewrite(text, strlen(text), &set, 1, &out);
	assert_string_equal(out.data, "");
	dotfile_release(&df);
	REJECT("cuda = 12.4\nsource = conda\n", ":2: unknown source 'conda'");
	REJECT("source = pypi\n",
	       "no 'cuda' key (cudnn, cupti, isolate and source go with one)");
	buf_release(&out);
}

static void test_dotfile_rejects_duplicate_key(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df;

	(void)state;
	dotfile_init(&df);
	assert_int_equal(
	    parse("cuda = 12.4\n# again\ncuda = 12.4\n", &df, &err),
	    CUENV_E_MANIFEST);
	assert_string_equal(err.msg.data, NAME ":3: duplicate key 'cuda' "
					       "(first on line 1)");
	err_release(&err);
	REJECT("cuda = 12.4\nisolate = 1\nisolate = 0\n",
	       ":3: duplicate key 'isolate'");
}

static void test_dotfile_rejects_empty_value(void **state)
{
	(void)state;
	REJECT("cuda =\n", NAME ":1: no value for 'cuda'");
	REJECT("cuda = 12.4\ncudnn =   # later\n", ":2: no value for 'cudnn'");
	REJECT("cuda = 12.4\nisolate =\n", "no value for 'isolate'");
}

static void test_dotfile_rejects_invalid_version(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df;

	(void)state;
	dotfile_init(&df);
	assert_int_equal(parse("cuda = 12.4.x\n", &df, &err), CUENV_E_MANIFEST);
	assert_string_equal(err.msg.data, NAME ":1: invalid version '12.4.x'");
	assert_non_null(strstr(err.hint.data, "12.4.1"));
	err_release(&err);
	REJECT("cuda = 12 .4\n", "invalid version");
	REJECT("cuda = 012.4\n", "invalid version");
	REJECT("cuda = 12.4\ncudnn = 9.1.0.70.1\n", ":2: invalid version");
	REJECT("cuda = -12\n", "invalid version");
	REJECT("12.4.x\n", ":1: invalid version '12.4.x'");
}

static void test_dotfile_rejects_path_traversal_version(void **state)
{
	(void)state;
	REJECT("cuda = ../../../bin\n", "invalid version '../../../bin'");
	REJECT("cuda = 12.4\ncudnn = ../../../bin\n", ":2: invalid version");
	REJECT("cuda = 12.4\ncupti = ../../../bin\n", ":2: invalid version");
	REJECT("../../../bin\n", "invalid version");
	REJECT("cuda = /usr/local/cuda\n", "invalid version");
	REJECT("cuda = 12.4/../..\n", "invalid version");
}

static void test_dotfile_rejects_command_substitution_version(void **state)
{
	(void)state;
	REJECT("cuda = $(rm -rf ~)\n", "invalid version '$(rm -rf ~)'");
	REJECT("$(rm -rf ~)\n", "invalid version");
}

static void test_dotfile_rejects_backtick_version(void **state)
{
	(void)state;
	REJECT("cuda = `id`\n", "invalid version '`id`'");
	REJECT("cuda = 12.4\ncudnn = 9`id`\n", ":2: invalid version");
}

static void test_dotfile_rejects_nul_byte(void **state)
{
	static const char text[] = "cuda = 12.4\ncudnn = 9\0.1\n";

	(void)state;
	assert_rejected(text, sizeof(text) - 1, ":2: binary data");
	assert_rejected("\0", 1, ":1: binary data");
	/* even inside a comment */
	assert_rejected("cuda = 12.4 # \0\n", 16, ":1: binary data");
}

static void test_dotfile_rejects_bare_version_with_other_lines(void **state)
{
	(void)state;
	REJECT("12.4\ncudnn = 9.1\n", ":2: a bare version (line 1) must be "
				      "the only line");
	REJECT("cuda = 12.4\n12.5\n", ":2: expected 'key = value'");
	REJECT("12.4\n12.5\n", ":2: expected 'key = value'");
	REJECT("cuda = 12.4\nsystem\n", ":2:");
}

static void test_dotfile_rejects_keys_without_cuda(void **state)
{
	(void)state;
	REJECT("cudnn = 9.1\n", NAME ": no 'cuda' key");
	REJECT("cupti = 11.2\n", "no 'cuda' key");
	REJECT("isolate = true\n", "no 'cuda' key");
}

static void test_dotfile_rejects_bad_isolate(void **state)
{
	(void)state;
	REJECT("cuda = 12.4\nisolate = maybe\n",
	       ":2: isolate must be true or false, not 'maybe'");
	REJECT("cuda = 12.4\nisolate = TRUE\n", "isolate must be");
	REJECT("cuda = 12.4\nisolate = 2\n", "isolate must be");
}

static void test_dotfile_error_escapes_control_bytes(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct dotfile df;

	(void)state;
	dotfile_init(&df);
	assert_int_equal(parse("cuda = 1\x1b[2J\n", &df, &err),
			 CUENV_E_MANIFEST);
	assert_null(strchr(err.msg.data, '\x1b'));
	assert_non_null(strstr(err.msg.data, "1\\x1b[2J"));
	err_release(&err);
}

static void test_dotfile_error_cuts_long_values(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;
	struct dotfile df;

	(void)state;
	dotfile_init(&df);
	buf_adds(&text, "cuda = ");
	for (int i = 0; i < 500; i++)
		buf_addc(&text, 'x');
	assert_int_equal(parse(text.data, &df, &err), CUENV_E_MANIFEST);
	assert_true(err.msg.len < 200);
	assert_non_null(strstr(err.msg.data, "...'"));
	err_release(&err);
	buf_release(&text);
}

/* ---- reading files ------------------------------------------------------- */

static void test_dotfile_read_parses_file(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path = fx_path(fx, "proj/.cuenv");
	struct dotfile df;

	dotfile_init(&df);
	fx_write(fx, "proj/.cuenv", "cuda = 12.4\ncudnn = 9.1\n");
	assert_int_equal(dotfile_read(path, &df, &err), CUENV_OK);
	assert_string_equal(df.cuda, "12.4");
	assert_string_equal(df.cudnn, "9.1");
	dotfile_release(&df);
	free(path);
}

static void test_dotfile_read_error_names_the_file(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path = fx_path(fx, "proj/.cuenv");
	struct buf want = BUF_INIT;
	struct dotfile df;

	dotfile_init(&df);
	fx_write(fx, "proj/.cuenv", "# x\ncuda = 12.4\ncudaa = 1\n");
	assert_int_equal(dotfile_read(path, &df, &err), CUENV_E_MANIFEST);
	buf_printf(&want, "%s:3: unknown key 'cudaa'", path);
	assert_string_equal(err.msg.data, want.data);
	err_release(&err);
	buf_release(&want);
	free(path);
}

static void test_dotfile_read_missing_file_is_no(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path = fx_path(fx, "nowhere/.cuenv");
	struct dotfile df;

	dotfile_init(&df);
	assert_int_equal(dotfile_read(path, &df, &err), CUENV_NO);
	assert_int_equal(err.rc, CUENV_OK); /* err untouched */
	assert_string_equal(err.msg.data, "");
	assert_true(dotfile_is_empty(&df));
	free(path);
}

static void test_dotfile_read_below_a_file_is_no(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path = fx_path(fx, "file/.cuenv");
	struct dotfile df;

	dotfile_init(&df);
	fx_write(fx, "file", "not a folder\n");
	assert_int_equal(dotfile_read(path, &df, &err), CUENV_NO);
	assert_int_equal(err.rc, CUENV_OK);
	free(path);
}

/* ~/.cuenv, the default root, is a folder: no project file, no error. */
static void test_dotfile_read_treats_a_directory_as_absent(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path = fx_path(fx, "proj/.cuenv");
	struct dotfile df;

	dotfile_init(&df);
	fx_mkdir(fx, "proj/.cuenv");
	assert_int_equal(dotfile_read(path, &df, &err), CUENV_NO);
	assert_int_equal(err.rc, CUENV_OK);
	err_release(&err);
	free(path);
}

static void test_dotfile_read_rejects_a_fifo_without_blocking(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path = fx_path(fx, ".cuenv");
	struct dotfile df;

	dotfile_init(&df);
	assert_int_equal(mkfifo(path, 0644), 0);
	alarm(5); /* a hang fails the test instead of stalling the run */
	assert_int_equal(dotfile_read(path, &df, &err), CUENV_E_STORE);
	alarm(0);
	err_release(&err);
	free(path);
}

static void test_dotfile_read_rejects_too_big_file(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path = fx_path(fx, ".cuenv");
	char *text = malloc(DOTFILE_MAX_BYTES + 2);
	struct dotfile df;

	dotfile_init(&df);
	memset(text, '#', DOTFILE_MAX_BYTES + 1);
	text[DOTFILE_MAX_BYTES + 1] = '\0';
	fx_write(fx, ".cuenv", text);
	assert_int_equal(dotfile_read(path, &df, &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "larger than"));
	err_release(&err);
	free(text);
	free(path);
}

static void test_dotfile_read_accepts_file_of_max_size(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path = fx_path(fx, ".cuenv");
	char *text = malloc(DOTFILE_MAX_BYTES + 1);
	struct dotfile df;

	dotfile_init(&df);
	memcpy(text, "cuda = 12.4\n", 12);
	memset(text + 12, '#', DOTFILE_MAX_BYTES - 12);
	text[DOTFILE_MAX_BYTES] = '\0';
	fx_write(fx, ".cuenv", text);
	assert_int_equal(dotfile_read(path, &df, &err), CUENV_OK);
	assert_string_equal(df.cuda, "12.4");
	dotfile_release(&df);
	free(text);
	free(path);
}

static void test_dotfile_read_rejects_unreadable_file(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path = fx_path(fx, ".cuenv");
	struct dotfile df;

	if (geteuid() == 0) {
		free(path);
		skip(); /* root reads anything */
	}
	dotfile_init(&df);
	fx_write(fx, ".cuenv", "cuda = 12.4\n");
	assert_int_equal(chmod(path, 0), 0);
	assert_int_equal(dotfile_read(path, &df, &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "cannot open"));
	err_release(&err);
	free(path);
}

/* ---- rewriting ----------------------------------------------------------- */

static void rewrite(const char *old, const struct dotfile *set, int unset,
		    const char *want)
{
	struct buf out = BUF_INIT;

	dotfile_rewrite(old, strlen(old), set, unset, &out);
	assert_string_equal(out.data, want);
	buf_release(&out);
}

static void
test_dotfile_rewrite_replaces_in_place_keeping_comments(void **state)
{
	struct dotfile set;

	(void)state;
	dotfile_init(&set);
	set.cuda = "12.4";
	rewrite("# project\ncuda = 12.2\n\n# cudnn too\ncudnn = 8.9\n"
		"isolate = false\n",
		&set, 0,
		"# project\ncuda = 12.4\n\n# cudnn too\ncudnn = 8.9\n"
		"isolate = false\n");
}

static void test_dotfile_rewrite_keeps_order_of_keys(void **state)
{
	struct dotfile set;

	(void)state;
	dotfile_init(&set);
	set.cudnn = "9.1";
	set.isolate = 1;
	rewrite("isolate = false\ncudnn = 8.9\ncuda = 12.2\n", &set, 0,
		"isolate = true\ncudnn = 9.1\ncuda = 12.2\n");
}

static void test_dotfile_rewrite_appends_missing_keys(void **state)
{
	struct dotfile set;

	(void)state;
	dotfile_init(&set);
	set.cupti = "11.2";
	set.cudnn = "9.1";
	rewrite("# mine\ncuda = 12.4\n", &set, 0,
		"# mine\ncuda = 12.4\ncudnn = 9.1\ncupti = 11.2\n");
}

static void test_dotfile_rewrite_of_empty_file_writes_keys(void **state)
{
	struct dotfile set;

	(void)state;
	dotfile_init(&set);
	set.cuda = "12.4";
	set.isolate = 0;
	rewrite("", &set, 0, "cuda = 12.4\nisolate = false\n");
}

static void test_dotfile_rewrite_adds_newline_after_last_line(void **state)
{
	struct dotfile set;

	(void)state;
	dotfile_init(&set);
	set.cudnn = "9.1";
	rewrite("cuda = 12.2", &set, 0, "cuda = 12.2\ncudnn = 9.1\n");
}

static void test_dotfile_rewrite_converts_bare_version_line(void **state)
{
	struct dotfile set;

	(void)state;
	dotfile_init(&set);
	set.cudnn = "9.1";
	rewrite("# old style\n12.2\n", &set, 0,
		"# old style\ncuda = 12.2\ncudnn = 9.1\n");
}

static void test_dotfile_rewrite_replaces_bare_version_line(void **state)
{
	struct dotfile set;

	(void)state;
	dotfile_init(&set);
	set.cuda = "12.4";
	rewrite("# old style\n12.2\n", &set, 0, "# old style\ncuda = 12.4\n");
}

static void
test_dotfile_rewrite_keeps_inline_comment_of_replaced_key(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT;
	const char *old = "cuda = 12.4\n"
			  "cupti = 11.2\t# CUPTI from another release\n";
	struct dotfile set, df;

	(void)state;
	dotfile_init(&set);
	dotfile_init(&df);
	bool kept, parsed;

	set.cupti = "12.1";
	dotfile_rewrite(old, strlen(old), &set, 0, &out);
	/* "keeps old's comments": the note on the line stays with it */
	kept = strstr(out.data, "# CUPTI from another release") != NULL;
	if (!kept)
		print_message("comment lost; rewritten file:\n%s", out.data);
	parsed = parse(out.data, &df, &err) == CUENV_OK && df.cupti &&
		 !strcmp(df.cupti, "12.1");
	dotfile_release(&df);
	buf_release(&out);
	assert_true(kept);
	assert_true(parsed);
}

static void test_dotfile_rewrite_keeps_unrelated_lines(void **state)
{
	struct dotfile set;

	(void)state;
	dotfile_init(&set);
	set.cuda = "12.4";
	rewrite("python = 3.11\ncuda = 12.2\n", &set, 0,
		"python = 3.11\ncuda = 12.4\n");
}

static void test_dotfile_rewrite_output_parses_back(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT;
	const char *old = "# c\r\n12.2\r\n";
	struct dotfile set, df;

	(void)state;
	dotfile_init(&set);
	dotfile_init(&df);
	set.cudnn = "9.1";
	set.isolate = 1;
	dotfile_rewrite(old, strlen(old), &set, 0, &out);
	assert_int_equal(parse(out.data, &df, &err), CUENV_OK);
	assert_string_equal(df.cuda, "12.2");
	assert_string_equal(df.cudnn, "9.1");
	assert_int_equal(df.isolate, 1);
	assert_non_null(strstr(out.data, "# c"));
	dotfile_release(&df);
	buf_release(&out);
}

static void
test_dotfile_rewrite_of_crlf_file_with_blank_line_parses_back(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf out = BUF_INIT;
	const char *old = "# gpu box\r\ncuda = 12.2\r\n\r\ncudnn = 8.9\r\n";
	struct dotfile set, df;
	int rc;
	bool right;

	(void)state;
	dotfile_init(&set);
	dotfile_init(&df);
	set.cudnn = "9.1";
	dotfile_rewrite(old, strlen(old), &set, 0, &out);
	rc = parse(out.data, &df, &err);
	if (rc)
		print_message("%s\nrewritten file:\n%s", err.msg.data,
			      out.data);
	right = !rc && df.cuda && !strcmp(df.cuda, "12.2") && df.cudnn &&
		!strcmp(df.cudnn, "9.1");
	dotfile_release(&df);
	buf_release(&out);
	err_release(&err);
	assert_int_equal(rc, CUENV_OK);
	assert_true(right);
}

static void test_dotfile_rewrite_unset_removes_cuenv_keys(void **state)
{
	struct dotfile set;

	(void)state;
	dotfile_init(&set);
	rewrite("# project notes\ncuda = 12.4\ncudnn = 9.1\n\n# end\n", &set, 1,
		"# project notes\n\n# end\n");
}

static void test_dotfile_rewrite_unset_of_keys_only_file_is_empty(void **state)
{
	struct dotfile set;

	(void)state;
	dotfile_init(&set);
	rewrite("cuda = 12.4\n\ncudnn = 9.1\nisolate = true\n  \n", &set, 1,
		"");
	rewrite("12.4\n", &set, 1, "");
}

static void test_dotfile_rewrite_unset_keeps_unrelated_keys(void **state)
{
	struct dotfile set;

	(void)state;
	dotfile_init(&set);
	rewrite("python = 3.11\ncuda = 12.4\n", &set, 1, "python = 3.11\n");
}

#define FS_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_dotfile_parses_every_key),
	    cmocka_unit_test(test_dotfile_leaves_missing_keys_unset),
	    cmocka_unit_test(test_dotfile_source_key),
	    cmocka_unit_test(test_dotfile_parses_bare_pyenv_style_version),
	    cmocka_unit_test(test_dotfile_parses_bare_version_with_comments),
	    cmocka_unit_test(test_dotfile_accepts_system_for_cuda),
	    cmocka_unit_test(test_dotfile_rejects_system_for_cudnn),
	    cmocka_unit_test(test_dotfile_skips_full_line_comments_and_blanks),
	    cmocka_unit_test(test_dotfile_strips_inline_comments),
	    cmocka_unit_test(test_dotfile_accepts_crlf_line_endings),
	    cmocka_unit_test(test_dotfile_accepts_missing_final_newline),
	    cmocka_unit_test(test_dotfile_trims_blanks_around_key_and_value),
	    cmocka_unit_test(test_dotfile_with_only_comments_is_empty),
	    cmocka_unit_test(test_dotfile_isolate_accepts_boolean_words),
	    cmocka_unit_test(test_dotfile_parse_reads_only_len_bytes),
	    cmocka_unit_test(test_dotfile_rejects_unknown_key),
	    cmocka_unit_test(test_dotfile_rejects_duplicate_key),
	    cmocka_unit_test(test_dotfile_rejects_empty_value),
	    cmocka_unit_test(test_dotfile_rejects_invalid_version),
	    cmocka_unit_test(test_dotfile_rejects_path_traversal_version),
	    cmocka_unit_test(test_dotfile_rejects_command_substitution_version),
	    cmocka_unit_test(test_dotfile_rejects_backtick_version),
	    cmocka_unit_test(test_dotfile_rejects_nul_byte),
	    cmocka_unit_test(
		test_dotfile_rejects_bare_version_with_other_lines),
	    cmocka_unit_test(test_dotfile_rejects_keys_without_cuda),
	    cmocka_unit_test(test_dotfile_rejects_bad_isolate),
	    cmocka_unit_test(test_dotfile_error_escapes_control_bytes),
	    cmocka_unit_test(test_dotfile_error_cuts_long_values),
	    FS_TEST(test_dotfile_read_parses_file),
	    FS_TEST(test_dotfile_read_error_names_the_file),
	    FS_TEST(test_dotfile_read_missing_file_is_no),
	    FS_TEST(test_dotfile_read_below_a_file_is_no),
	    FS_TEST(test_dotfile_read_treats_a_directory_as_absent),
	    FS_TEST(test_dotfile_read_rejects_a_fifo_without_blocking),
	    FS_TEST(test_dotfile_read_rejects_too_big_file),
	    FS_TEST(test_dotfile_read_accepts_file_of_max_size),
	    FS_TEST(test_dotfile_read_rejects_unreadable_file),
	    cmocka_unit_test(
		test_dotfile_rewrite_replaces_in_place_keeping_comments),
	    cmocka_unit_test(test_dotfile_rewrite_keeps_order_of_keys),
	    cmocka_unit_test(test_dotfile_rewrite_appends_missing_keys),
	    cmocka_unit_test(test_dotfile_rewrite_of_empty_file_writes_keys),
	    cmocka_unit_test(test_dotfile_rewrite_adds_newline_after_last_line),
	    cmocka_unit_test(test_dotfile_rewrite_converts_bare_version_line),
	    cmocka_unit_test(test_dotfile_rewrite_replaces_bare_version_line),
	    cmocka_unit_test(
		test_dotfile_rewrite_keeps_inline_comment_of_replaced_key),
	    cmocka_unit_test(test_dotfile_rewrite_keeps_unrelated_lines),
	    cmocka_unit_test(test_dotfile_rewrite_output_parses_back),
	    cmocka_unit_test(
		test_dotfile_rewrite_of_crlf_file_with_blank_line_parses_back),
	    cmocka_unit_test(test_dotfile_rewrite_unset_removes_cuenv_keys),
	    cmocka_unit_test(
		test_dotfile_rewrite_unset_of_keys_only_file_is_empty),
	    cmocka_unit_test(test_dotfile_rewrite_unset_keeps_unrelated_keys),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
