#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "nvidia/catalog.h"
#include "needs/needs_render.h"
#include "base/xalloc.h"

/* ---- helpers ------------------------------------------------------------- */

/* What `cuenv needs` reports, gathered as cmd/needs.c gathers it. */
struct model {
	struct needs_scan s;
	struct needs_python py;
	struct needs_installed in;
	struct needs_offer o;
	struct needs_fetches fs;
	struct buf out;
};

static int setup(void **state)
{
	struct model *m = xcalloc(1, sizeof(*m));

	needs_scan_init(&m->s);
	needs_python_init(&m->py, NULL);
	needs_installed_init(&m->in);
	needs_offer_init(&m->o);
	buf_init(&m->out);
	*state = m;
	return 0;
}

static int teardown(void **state)
{
	struct model *m = *state;

	needs_scan_release(&m->s);
	needs_python_release(&m->py);
	needs_installed_release(&m->in);
	needs_offer_release(&m->o);
	needs_fetches_release(&m->fs);
	buf_release(&m->out);
	free(m);
	return 0;
}

/* Record a file at path that needs needed and names named (lists
 * space-separated), as an ELF file read from disk would be. */
static void add(struct needs_scan *s, const char *path, const char *needed,
		const char *named)
{
	struct elf_info e;

	elf_info_init(&e);
	if (*needed)
		strv_split(&e.needed, needed, ' ');
	if (*named)
		strv_split(&e.cuda_named, named, ' ');
	needs_scan_add(s, path, &e);
	elf_info_release(&e);
}

/* Give every want the range needs_describe would ("CUDA 11.x"). */
static void ranges(struct needs_scan *s, const char *range)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].range);
		s->v[i].range = xstrdup(range);
	}
}

static void render(struct model *m, bool asked, bool satisfied)
{
	buf_reset(&m->out);
	needs_render_text(&m->out, &m->s, &m->py, &m->in, &m->o, &m->fs, asked,
			  satisfied);
}

/* ---- nothing asked ------------------------------------------------------- */

static void test_needs_render_counts_files_when_nothing_is_named(void **state)
{
	struct model *m = *state;

	m->s.files = 1;
	render(m, false, true);
	assert_string_equal(m->out.data, "no CUDA library is named by these "
					 "files (1 ELF file read)\n");
	m->s.files = 3;
	render(m, false, true);
	assert_string_equal(m->out.data, "no CUDA library is named by these "
					 "files (3 ELF files read)\n");
}

static void test_needs_render_counts_pe_files_apart(void **state)
{
	struct model *m = *state;

	m->s.files = 5;
	m->s.pe_files = 2;
	render(m, false, true);
	assert_string_equal(m->out.data,
			    "no CUDA library is named by these files (3 ELF "
			    "and 2 PE files read)\n");
}

static void test_needs_render_provided_under_path_is_not_asked(void **state)
{
	struct model *m = *state;
	struct elf_info e;

	elf_info_init(&e);
	e.soname = xstrdup("libcudart.so.12");
	needs_scan_add(&m->s, "/fw/libcudart.so.12", &e);
	elf_info_release(&e);
	add(&m->s, "/fw/libx.so", "libcudart.so.12", "");
	needs_scan_finish(&m->s);
	ranges(&m->s, "CUDA 12.x");
	render(m, false, true);
	assert_string_equal(m->out.data,
			    "libcudart.so.12        CUDA 12.x\n"
			    "    needed by   /fw/libx.so\n"
			    "    provided by /fw/libcudart.so.12 (under PATH)\n"
			    "\n"
			    "nothing here is asked of cuenv: the files under "
			    "PATH provide every CUDA library they name\n");
}

/* ---- the sonames --------------------------------------------------------- */

static void test_needs_render_lists_four_files_then_counts(void **state)
{
	struct model *m = *state;
	static const char *const files[] = {"/a", "/b", "/c", "/d", "/e", "/f"};

	for (size_t i = 0; i < 6; i++)
		add(&m->s, files[i], "libcudart.so.11.0", "");
	needs_scan_finish(&m->s);
	ranges(&m->s, "CUDA 11.x");
	m->s.v[0].found = xstrdup("/store/cuda/11.8.0/lib64/libcudart.so.11.0");
	render(m, false, true);
	assert_non_null(strstr(m->out.data,
			       "libcudart.so.11.0      CUDA 11.x\n"
			       "    needed by   /a\n"
			       "                /b\n"
			       "                /c\n"
			       "                /d\n"
			       "                ... and 2 more\n"
			       "    found in    /store/cuda/11.8.0/"
			       "lib64/libcudart.so.11.0\n"));
}

static void test_needs_render_marks_a_soname_only_named(void **state)
{
	struct model *m = *state;

	add(&m->s, "/tf/libtf.so", "", "libcupti.so.11.2");
	needs_scan_finish(&m->s);
	ranges(&m->s, "CUDA 11.2+");
	render(m, false, true);
	assert_non_null(strstr(m->out.data,
			       "libcupti.so.11.2       CUDA 11.2+ (may load: "
			       "named, not linked)\n"
			       "    named by    /tf/libtf.so\n"));
}

/* ---- framework reports and Python ---------------------------------------- */

static void test_needs_render_framework_report_says_minimums(void **state)
{
	struct model *m = *state;
	static const char meta[] =
	    "Name: torch\nVersion: 2.1.2\n"
	    "Requires-Dist: nvidia-cuda-runtime-cu12==12.1.105\n"
	    "Requires-Dist: nvidia-cudnn-cu12==8.9.2.26\n";

	assert_true(needs_read_metadata(
	    &m->s, "/sp/torch-2.1.2.dist-info/METADATA", meta, strlen(meta)));
	needs_scan_finish(&m->s);
	render(m, true, false);
	assert_string_equal(m->out.data,
			    "torch 2.1.2 built for CUDA 12.1+, cuDNN 8.9.2+\n"
			    "    says        /sp/torch-2.1.2.dist-info/"
			    "METADATA\n\n"
			    "installed: nothing provides everything\n"
			    "  nothing is installed\n"
			    "catalogue: not read\n");
}

static void test_needs_render_python_frameworks_escape_their_text(void **state)
{
	struct model *m = *state;
	static const char answer[] =
	    "{\"python\": \"3.11.2\", \"frameworks\": {"
	    "\"torch\": {\"version\": \"2.1.2\", \"cuda\": \"12.1\", "
	    "\"cudnn\": \"8.9.2\", \"problem\": \"bad\\u0007bell\"}, "
	    "\"tensorflow\": {\"version\": \"2.15.0\"}}}";

	needs_python_release(&m->py);
	needs_python_init(&m->py, "python3");
	for (int i = 0; i < NEEDS_FRAMEWORKS; i++)
		m->py.fw[i].absent = xstrdup("no answer");
	assert_int_equal(needs_python_parse(&m->py, answer, strlen(answer)), 0);
	render(m, false, true);
	assert_non_null(strstr(m->out.data, "frameworks (python3 3.11.2):\n"));
	assert_non_null(strstr(m->out.data,
			       "  torch       2.1.2, built with CUDA 12.1, "
			       "cuDNN 8.9.2\n"
			       "              problem: bad\\x07bell\n"));
	assert_non_null(strstr(m->out.data, "  tensorflow  2.15.0, built "
					    "without CUDA\n"));
	assert_non_null(strstr(m->out.data, "  jax         absent: no "
					    "answer\n"));
}

/* ---- the verdict --------------------------------------------------------- */

static void test_needs_render_installed_pick_and_how_to_select(void **state)
{
	struct model *m = *state;
	struct store_version *cuda =
	    fx_install_new(KIT_CUDA, "11.8.0", 11, "/c");
	struct store_version *cudnn =
	    fx_install_new(KIT_CUDNN, "8.9.7", 11, "/d");

	fx_list_push(&m->in.cudas, cuda);
	fx_list_push(&m->in.cudnns, cudnn);
	m->in.pick.cuda = cuda;
	m->in.pick.cudnn = cudnn;
	render(m, true, true);
	assert_string_equal(m->out.data,
			    "installed: cuda 11.8.0 + cudnn 8.9.7 (cuda11) "
			    "provides everything\n"
			    "select it with:\n"
			    "  cuenv local 11.8.0 --cudnn 8.9.7\n");
	m->in.active = true;
	render(m, true, true);
	assert_string_equal(m->out.data,
			    "installed: cuda 11.8.0 + cudnn 8.9.7 (cuda11) "
			    "provides everything (the active selection)\n");
}

static void test_needs_render_installed_names_what_may_load(void **state)
{
	struct model *m = *state;
	struct store_version *cuda =
	    fx_install_new(KIT_CUDA, "12.4.1", 12, "/c");

	add(&m->s, "/fw/lib.so", "libcudart.so.12", "libnvrtc.so.12");
	needs_scan_finish(&m->s);
	ranges(&m->s, "CUDA 12.x");
	m->s.v[0].found = xstrdup("/c/lib64/libcudart.so.12");
	fx_list_push(&m->in.cudas, cuda);
	m->in.pick.cuda = cuda;
	m->in.active = true;
	render(m, true, true);
	assert_non_null(strstr(m->out.data,
			       "\ninstalled: cuda 12.4.1 provides what the "
			       "files need (the active selection); not "
			       "libnvrtc.so.12, which they may load\n"));
}

/* What could not be read: the pick provides only what was read. */
static void test_needs_render_installed_with_unread_files(void **state)
{
	struct model *m = *state;
	struct store_version *cuda =
	    fx_install_new(KIT_CUDA, "12.4.1", 12, "/c");

	strv_push(&m->s.unread, "/w.whl/gpu/libbad.so");
	fx_list_push(&m->in.cudas, cuda);
	m->in.pick.cuda = cuda;
	m->in.active = true;
	render(m, true, true);
	assert_string_equal(m->out.data,
			    "installed: cuda 12.4.1 provides what the files "
			    "read need (the active selection); not known for "
			    "the 1 that could not be read\n");
}

/* An unread file is the command's failure, naming it: never exit 0. */
static void test_needs_unread_fail_names_them(void **state)
{
	struct model *m = *state;
	struct cuenv_err err = CUENV_ERR_INIT;

	assert_int_equal(needs_unread_fail(&m->s, &err), CUENV_OK);
	assert_int_equal(err.msg.len, 0);
	strv_push(&m->s.unread, "/a.whl/x.so");
	assert_int_equal(needs_unread_fail(&m->s, &err), CUENV_E_STORE);
	assert_string_equal(err.msg.data, "could not read '/a.whl/x.so': the "
					  "answer leaves it out");
	strv_push(&m->s.unread, "/d/y.so");
	assert_int_equal(needs_unread_fail(&m->s, &err), CUENV_E_STORE);
	assert_string_equal(err.msg.data,
			    "could not read '/a.whl/x.so' and '/d/y.so': the "
			    "answer leaves them out");
	for (int i = 0; i < 4; i++)
		strv_push(&m->s.unread, "/d/\033z.so");
	assert_int_equal(needs_unread_fail(&m->s, &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "'/a.whl/x.so', '/d/y.so', "));
	assert_non_null(strstr(err.msg.data, " and 2 more: the answer leaves "
					     "them out"));
	assert_null(strchr(err.msg.data, '\033'));
	err_release(&err);
}

/* --json: never "satisfied" with a file unread, which it lists. */
static void test_needs_json_unread_is_not_satisfied(void **state)
{
	struct model *m = *state;

	strv_push(&m->s.unread, "/w.whl/gpu/libbad.so");
	needs_render(&m->out, &m->s, &m->py, &m->in, &m->o, &m->fs, false, true,
		     1);
	assert_non_null(strstr(m->out.data, "\n  \"satisfied\": false"));
	assert_non_null(strstr(m->out.data, "\"unread\": [\n    "
					    "\"/w.whl/gpu/libbad.so\"\n  ]"));
}

static void test_needs_render_offer_names_releases_and_line(void **state)
{
	struct model *m = *state;
	struct release cuda = {
	    .source = SRC_REDIST, .version = "11.8.0", .cuda_major = 11};
	struct release cudnn = {
	    .source = SRC_TARBALL, .version = "8.9.7.29", .cuda_major = 11};

	m->in.report.n = 0;
	m->o.cuda = &cuda;
	m->o.cudnn = &cudnn;
	m->o.cupti = &cuda;
	m->o.line = xstrdup("cuenv install 11.8 --cudnn 8");
	render(m, true, false);
	assert_string_equal(m->out.data,
			    "installed: nothing provides everything\n"
			    "  nothing is installed\n"
			    "catalogue: cuda 11.8.0 (redist) + cudnn 8.9.7.29 "
			    "for CUDA 11 (tarball) + CUPTI of cuda 11.8.0\n"
			    "install them with:\n"
			    "  cuenv install 11.8 --cudnn 8\n");
}

static void test_needs_render_no_offer_says_why(void **state)
{
	struct model *m = *state;

	strv_push(&m->in.report, "cuda 12.4.1: lacks libcudart.so.11.0");
	render(m, true, false);
	assert_string_equal(m->out.data,
			    "installed: nothing provides everything\n"
			    "  cuda 12.4.1: lacks libcudart.so.11.0\n"
			    "catalogue: not read\n");
	buf_adds(&m->o.why, "no release gives libcudart.so.99");
	render(m, true, false);
	assert_non_null(strstr(m->out.data, "catalogue: no release gives "
					    "libcudart.so.99\n"));
}

/* ---- wheels fetched ------------------------------------------------------ */

static void test_needs_render_fetches_say_bytes_and_share(void **state)
{
	struct model *m = *state;
	struct needs_fetched ranged = {
	    .size = 1000, .bytes = 10, .requests = 3};
	struct needs_fetched meta = {
	    .size = 0, .bytes = 500, .requests = 2, .metadata = true};

	needs_fetches_add(&m->fs, "tf.whl", "http://i/simple", &ranged);
	needs_fetches_add(&m->fs, "torch.whl", "http://i/simple", &meta);
	m->s.files = 1;
	render(m, false, true);
	assert_string_equal(
	    m->out.data, "read 10 bytes of tf.whl (1000 bytes, 1.00%) in 3 "
			 "range requests\n"
			 "read 500 bytes of torch.whl (0 bytes, 0.00%) in 2 "
			 "requests\n"
			 "    the index's metadata file (PEP 658), then range "
			 "requests into the wheel\n"
			 "\n"
			 "no CUDA library is named by these files (1 ELF "
			 "file read)\n");
}

static void test_needs_render_json_or_text(void **state)
{
	struct model *m = *state;
	struct buf text = BUF_INIT;

	add(&m->s, "/x/libtorch_cuda.so", "libcudart.so.12", "");
	needs_scan_finish(&m->s);
	needs_render(&m->out, &m->s, &m->py, &m->in, &m->o, &m->fs, true, false,
		     0);
	needs_render_text(&text, &m->s, &m->py, &m->in, &m->o, &m->fs, true,
			  false);
	assert_string_equal(m->out.data, text.data);
	buf_reset(&m->out);
	needs_render(&m->out, &m->s, &m->py, &m->in, &m->o, &m->fs, true, false,
		     1);
	assert_true(!strncmp(m->out.data, "{\n  \"", 5));
	assert_non_null(strstr(m->out.data, "\"libcudart.so.12\""));
	assert_non_null(strstr(m->out.data, "\n  \"satisfied\": false"));
	assert_string_equal(m->out.data + m->out.len - 2, "}\n");
	buf_release(&text);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_needs_render_counts_files_when_nothing_is_named),
	    T(test_needs_render_counts_pe_files_apart),
	    T(test_needs_render_provided_under_path_is_not_asked),
	    T(test_needs_render_lists_four_files_then_counts),
	    T(test_needs_render_marks_a_soname_only_named),
	    T(test_needs_render_framework_report_says_minimums),
	    T(test_needs_render_python_frameworks_escape_their_text),
	    T(test_needs_render_installed_pick_and_how_to_select),
	    T(test_needs_render_installed_names_what_may_load),
	    T(test_needs_render_installed_with_unread_files),
	    T(test_needs_unread_fail_names_them),
	    T(test_needs_json_unread_is_not_satisfied),
	    T(test_needs_render_offer_names_releases_and_line),
	    T(test_needs_render_no_offer_says_why),
	    T(test_needs_render_fetches_say_bytes_and_share),
	    T(test_needs_render_json_or_text),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
