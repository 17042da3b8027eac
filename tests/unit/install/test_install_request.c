#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "install/install_request.h"
#include "install/lockfile.h"
#include "store/store.h"
#include "base/version.h"

static void test_install_env_reads_and_checks_each_variable(void **state)
{
	char *envp[] = {"CUENV_MIRROR=file:///srv/nv",
			"CUENV_FETCH_RETRIES=2",
			"CUENV_FETCH_MAX_BYTES=100",
			"CUENV_UNPACK_MAX_RATIO=7",
			"HOME=/h",
			NULL};
	char *bad[] = {"CUENV_FETCH_STALL_SECONDS=abc", NULL};
	char *big[] = {"CUENV_UNPACK_MAX_RATIO=1000001", NULL};
	struct install_env e = {.fetch = FETCH_OPTS_INIT, .expand_ratio = 50};
	struct cuenv_err err = CUENV_ERR_INIT;
	unsigned stall = e.fetch.stall_seconds;

	(void)state;
	assert_int_equal(install_request_env(envp, &e, &err), CUENV_OK);
	assert_string_equal(e.mirror, "file:///srv/nv");
	assert_null(e.pypi_index);
	assert_int_equal(e.fetch.retries, 2);
	assert_true(e.fetch.max_bytes == 100);
	assert_int_equal(e.fetch.stall_seconds, stall); /* unset: kept */
	assert_int_equal(e.expand_ratio, 7);
	assert_int_equal(install_request_env(bad, &e, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "CUENV_FETCH_STALL_SECONDS must be a whole number "
			    "from 0 to 86400, not 'abc'");
	assert_int_equal(install_request_env(big, &e, &err), CUENV_E_USAGE);
	assert_non_null(strstr(err.msg.data, "CUENV_UNPACK_MAX_RATIO"));
	assert_int_equal(e.expand_ratio, 7);
	err_release(&err);
}

static void test_install_mode_four_and_their_conflicts(void **state)
{
	struct install_request q = {.source = -1};
	struct cuenv_err err = CUENV_ERR_INIT;
	enum install_mode m;

	(void)state;
	assert_int_equal(install_request_mode(&q, 0, &m, &err), CUENV_OK);
	assert_int_equal(m, INSTALL_SELECTED);
	assert_int_equal(install_request_mode(&q, 1, &m, &err), CUENV_OK);
	assert_int_equal(m, INSTALL_SPEC);
	q.for_spec = "tensorflow==2.6";
	assert_int_equal(install_request_mode(&q, 0, &m, &err), CUENV_OK);
	assert_int_equal(m, INSTALL_FOR);
	assert_int_equal(install_request_mode(&q, 1, &m, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "install: give a SPEC or --for, not both");
	q.for_spec = NULL;
	q.locked = 1;
	assert_int_equal(install_request_mode(&q, 0, &m, &err), CUENV_OK);
	assert_int_equal(m, INSTALL_LOCKED);
	assert_int_equal(install_request_mode(&q, 1, &m, &err), CUENV_E_USAGE);
	assert_non_null(strstr(err.msg.data, "--locked installs what"));
	q.cupti = "12.4";
	assert_int_equal(install_request_mode(&q, 0, &m, &err), CUENV_E_USAGE);
	q.cupti = NULL;
	q.source = SRC_PYPI;
	assert_int_equal(install_request_mode(&q, 0, &m, &err), CUENV_E_USAGE);
	q.source = -1;
	q.for_spec = "jax";
	assert_int_equal(install_request_mode(&q, 0, &m, &err), CUENV_E_USAGE);
	err_release(&err);
}

static void test_install_selected_and_build_fill_what_was_not_given(void **s)
{
	struct install_request q = {.source = -1, .cudnn = "9.1"};
	struct selection sel;
	struct framework_build b = {.cuda = "11.2", .cudnn = "8.1"};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)s;
	selection_init(&sel);
	assert_int_equal(install_request_selected(&q, &sel, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "install: no version given and none "
					  "selected here");
	assert_non_null(strstr(err.hint.data, "cuenv local 12.4 --force"));
	sel.cuda = strdup("12.4");
	sel.cudnn = strdup("9.0");
	sel.cupti = strdup("12.4.1");
	sel.origin = SEL_FILE;
	assert_int_equal(install_request_selected(&q, &sel, &err), CUENV_OK);
	assert_string_equal(q.spec, "12.4");
	assert_string_equal(q.cudnn, "9.1"); /* given: wins */
	assert_string_equal(q.cupti, "12.4.1");
	install_request_build(&q, &b);
	assert_string_equal(q.spec, "11.2");
	assert_string_equal(q.cudnn, "9.1");
	q.cudnn = NULL;
	install_request_build(&q, &b);
	assert_string_equal(q.cudnn, "8.1");
	selection_release(&sel);
	err_release(&err);
}

static void test_install_check_names_the_bad_version(void **state)
{
	struct install_request q = {.spec = "12.4", .cudnn = "9.x"};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(install_request_check(&q, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "invalid cudnn version '9.x'");
	q.cudnn = NULL;
	q.cupti = "12.4.1";
	assert_int_equal(install_request_check(&q, &err), CUENV_OK);
	q.spec = "../x";
	assert_int_equal(install_request_check(&q, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "invalid cuda version '../x'");
	assert_int_equal(version_check("cuda", "system", 1, &err), CUENV_OK);
	assert_int_equal(version_check("cuda", "system", 0, &err),
			 CUENV_E_USAGE);
	err_release(&err);
}

static void test_install_index_default_and_http(void **state)
{
	(void)state;
	assert_string_equal(install_request_index(NULL),
			    "https://pypi.org/simple");
	assert_string_equal(install_request_index(""),
			    "https://pypi.org/simple");
	assert_string_equal(install_request_index("http://i/simple"),
			    "http://i/simple");
	assert_true(install_request_index_http("http://i/simple"));
	assert_false(install_request_index_http("https://i/simple"));
	assert_false(install_request_index_http(NULL));
}

static void test_install_dry_run_and_names(void **state)
{
	struct release cuda = {.kind = KIT_CUDA,
			       .source = SRC_RUNFILE,
			       .version = "11.2.2",
			       .cuda_major = 11};
	struct release cudnn = {.kind = KIT_CUDNN,
				.source = SRC_TARBALL,
				.version = "8.1.1.33",
				.cuda_major = 11};
	struct catalog_choice ch = {&cuda, NULL, NULL};
	struct buf out = BUF_INIT;

	(void)state;
	install_request_dry_run(&ch, -1, &out);
	assert_string_equal(out.data, "would install cuda 11.2.2 (runfile)\n");
	buf_reset(&out);
	ch.cudnn = &cudnn;
	ch.cupti = &cuda;
	install_request_dry_run(&ch, SRC_PYPI, &out);
	assert_string_equal(out.data, "would install cuda 11.2.2 + cudnn "
				      "8.1.1.33 + cupti 11.2.2 (pypi)\n");
	buf_reset(&out);
	install_request_what(&cuda, &out);
	assert_string_equal(out.data, "cuda 11.2.2");
	buf_reset(&out);
	install_request_what(&cudnn, &out);
	assert_string_equal(out.data, "cudnn 8.1.1.33 for CUDA 11");
	buf_release(&out);
}

static void test_install_fetch_hint_only_when_it_helps(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct release redist = {.kind = KIT_CUDA,
				 .source = SRC_REDIST,
				 .version = (char *)"11.4.4"};
	struct release runfile = {.kind = KIT_CUDA,
				  .source = SRC_RUNFILE,
				  .version = (char *)"11.2.2"};
	struct release pypi = {
	    .kind = KIT_CUDA, .source = SRC_PYPI, .version = (char *)"12.4.1"};

	(void)state;
	install_request_fetch_hint(CUENV_E_FETCH, NULL, &redist, NULL, &err);
	assert_non_null(strstr(err.hint.data, "--mirror URL or CUENV_MIRROR"));
	err_release(&err);
	install_request_fetch_hint(CUENV_E_FETCH, "", &runfile, NULL, &err);
	assert_true(err.hint.len > 0);
	err_release(&err);
	install_request_fetch_hint(CUENV_E_FETCH, "file:///m", &redist, NULL,
				   &err);
	assert_int_equal(err.hint.len, 0);
	install_request_fetch_hint(CUENV_E_FETCH, NULL, &pypi, NULL, &err);
	assert_int_equal(err.hint.len, 0);
	install_request_fetch_hint(CUENV_E_STORE, NULL, &redist, NULL, &err);
	assert_int_equal(err.hint.len, 0);
	cuenv_hint(&err, "kept");
	install_request_fetch_hint(CUENV_E_FETCH, NULL, &redist, NULL, &err);
	assert_string_equal(err.hint.data, "kept");
	err_release(&err);
}

/* A release the index has: the command that installs it from there,
 * with a mirror given or not (issue 23). */
static void test_install_fetch_hint_names_the_index(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct release rel = {.kind = KIT_CUDA,
			      .source = SRC_REDIST,
			      .version = (char *)"12.4.1",
			      .on_index = true};

	(void)state;
	install_request_fetch_hint(CUENV_E_FETCH, NULL, &rel, NULL, &err);
	assert_non_null(
	    strstr(err.hint.data, ": cuenv install 12.4.1 --source pypi"));
	assert_non_null(strstr(err.hint.data, "NVIDIA's servers"));
	err_release(&err);
	install_request_fetch_hint(CUENV_E_FETCH, "http://127.0.0.1:1", &rel,
				   NULL, &err);
	assert_non_null(strstr(err.hint.data,
			       "if the mirror cannot be reached from here, "
			       "install from the package index: cuenv "
			       "install 12.4.1 --source pypi"));
	err_release(&err);
	/* the request as it was made: its components, or runtime only */
	{
		struct strv comps = STRV_INIT;
		struct plan_opts plan = {.components = &comps};

		strv_push(&comps, "cuda_cudart");
		strv_push(&comps, "cuda_nvrtc");
		install_request_fetch_hint(CUENV_E_FETCH, NULL, &rel, &plan,
					   &err);
		assert_non_null(strstr(err.hint.data,
				       ": cuenv install 12.4.1 --source pypi "
				       "--components cuda_cudart,cuda_nvrtc"));
		err_release(&err);
		plan.components = NULL;
		plan.runtime_only = 1;
		install_request_fetch_hint(CUENV_E_FETCH, NULL, &rel, &plan,
					   &err);
		assert_non_null(strstr(err.hint.data, "--source pypi "
						      "--runtime-only"));
		err_release(&err);
		strv_release(&comps);
	}
	rel.kind = KIT_CUDNN; /* its command would need a CUDA selected */
	install_request_fetch_hint(CUENV_E_FETCH, NULL, &rel, NULL, &err);
	assert_null(strstr(err.hint.data, "--source pypi"));
	err_release(&err);
}

static void test_install_lock_platform(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(install_request_lock_platform("/p/.cuenv.lock",
						       "linux-x86_64",
						       "linux-x86_64", &err),
			 CUENV_OK);
	assert_int_equal(install_request_lock_platform("/p/.cuenv.lock",
						       "linux-sbsa",
						       "linux-x86_64", &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "install: '/p/.cuenv.lock' is for "
					  "linux-sbsa, this machine is "
					  "linux-x86_64");
	err_release(&err);
}

static void test_install_mirror_url_schemes(void **state)
{
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(
	    install_request_mirror_url("install", "https://m/x", &fo, &err),
	    CUENV_OK);
	assert_false(fo.allow_http);
	assert_false(fo.allow_file);
	assert_int_equal(
	    install_request_mirror_url("mirror", "http://m/x", &fo, &err),
	    CUENV_OK);
	assert_true(fo.allow_http);
	assert_int_equal(
	    install_request_mirror_url("mirror", "file:///srv", &fo, &err),
	    CUENV_OK);
	assert_true(fo.allow_file);
	assert_int_equal(
	    install_request_mirror_url("update", "ftp://m", &fo, &err),
	    CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "update: mirror 'ftp://m' is not "
					  "https://, http:// or file://");
	err_release(&err);
}

static void test_install_kind_word_cuda_cudnn_or_none(void **state)
{
	char *none[] = {"12.4"}, *cuda[] = {"cuda", "12.4"},
	     *cudnn[] = {"cudnn", "9.1"};
	struct install_request q = {.source = -1};
	struct cuenv_err err = CUENV_ERR_INIT;
	int used = 7;

	(void)state;
	assert_int_equal(install_request_kind(&q, 0, none, &used, &err),
			 CUENV_OK);
	assert_int_equal(used, 0);
	assert_int_equal(install_request_kind(&q, 1, none, &used, &err),
			 CUENV_OK);
	assert_int_equal(used, 0);
	assert_int_equal(install_request_kind(&q, 2, cuda, &used, &err),
			 CUENV_OK);
	assert_int_equal(used, 1);
	assert_null(q.cudnn);
	assert_int_equal(install_request_kind(&q, 2, cudnn, &used, &err),
			 CUENV_OK);
	assert_int_equal(used, 2);
	assert_string_equal(q.cudnn, "9.1");
}

static void test_install_kind_word_refusals(void **state)
{
	char *cupti[] = {"cupti", "12.4"}, *lone[] = {"cudnn"},
	     *bad[] = {"cudnn", "9.x"}, *two[] = {"cudnn", "9.1"};
	struct install_request q = {.source = -1};
	struct cuenv_err err = CUENV_ERR_INIT;
	int used;

	(void)state;
	assert_int_equal(install_request_kind(&q, 2, cupti, &used, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "install: CUPTI comes from a CUDA release");
	assert_string_equal(err.hint.data, "cuenv install SPEC --cupti V");
	err_release(&err);
	assert_int_equal(install_request_kind(&q, 1, lone, &used, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "install: cudnn needs one version "
					  "(and no --cudnn)");
	assert_non_null(strstr(err.hint.data, "cuenv install cudnn 9.1"));
	err_release(&err);
	assert_int_equal(install_request_kind(&q, 2, bad, &used, &err),
			 CUENV_E_USAGE);
	assert_non_null(strstr(err.msg.data, "9.x"));
	err_release(&err);
	q.cudnn = "8.9"; /* --cudnn given too */
	assert_int_equal(install_request_kind(&q, 2, two, &used, &err),
			 CUENV_E_USAGE);
	assert_string_equal(q.cudnn, "8.9");
	err_release(&err);
}

static const char cuda_json[] =
    "{\"release_label\": \"12.4.1\", \"release_product\": \"cuda\","
    " \"cuda_cudart\": {\"version\": \"12.4.127\","
    "  \"linux-x86_64\": {\"relative_path\": \"cuda_cudart/a.tar.xz\","
    "   \"sha256\": \"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c"
    "15b0f00a08\", \"size\": \"1234\"},"
    "  \"linux-sbsa\": {\"relative_path\": \"cuda_cudart/b.tar.xz\","
    "   \"sha256\": \"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c"
    "15b0f00a08\", \"size\": \"1234\"}}}";

/* A lock of CUDA 12.4 for platform, written to rel. */
static void write_lock(const struct fixture *fx, const char *rel,
		       const char *platform)
{
	struct catalog cat = {0};
	struct lockfile lk;
	struct plan_opts o = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf text = BUF_INIT;

	assert_int_equal(catalog_parse_redist(&cat, "c.json", cuda_json,
					      strlen(cuda_json), platform, NULL,
					      NULL, &err),
			 CUENV_OK);
	lock_init(&lk);
	assert_int_equal(
	    lock_build(&lk, &cat, "12.4", NULL, NULL, -1, &o, platform, &err),
	    CUENV_OK);
	lock_format(&lk, &text);
	fx_write(fx, rel, text.data);
	lock_release(&lk);
	catalog_release(&cat);
	buf_release(&text);
}

static void test_install_lock_found_read_and_for_here(void **state)
{
	struct fixture *fx = *state;
	struct lockfile lk;
	struct buf path = BUF_INIT, want = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *sub;

	fx_mkdir(fx, "p/sub");
	sub = fx_path(fx, "p/sub");
	lock_init(&lk);
	assert_int_equal(
	    install_request_lock(sub, "linux-x86_64", &path, &lk, &err),
	    CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "install: --locked but no "
					  ".cuenv.lock here or above");
	assert_string_equal(err.hint.data, "write it with: cuenv lock");
	err_release(&err);
	write_lock(fx, "p/.cuenv.lock", "linux-sbsa");
	buf_reset(&path);
	assert_int_equal(
	    install_request_lock(sub, "linux-x86_64", &path, &lk, &err),
	    CUENV_E_USAGE);
	buf_printf(&want,
		   "install: '%s/p/.cuenv.lock' is for linux-sbsa, "
		   "this machine is linux-x86_64",
		   fx->root);
	assert_string_equal(err.msg.data, want.data);
	err_release(&err);
	lock_release(&lk);
	lock_init(&lk);
	write_lock(fx, "p/.cuenv.lock", "linux-x86_64");
	buf_reset(&path);
	assert_int_equal(
	    install_request_lock(sub, "linux-x86_64", &path, &lk, &err),
	    CUENV_OK);
	assert_string_equal(lk.cuda, "12.4");
	assert_int_equal(lk.nparts, 1);
	lock_release(&lk);
	lock_init(&lk);
	fx_write(fx, "p/.cuenv.lock", "{not json");
	buf_reset(&path);
	assert_int_equal(
	    install_request_lock(sub, "linux-x86_64", &path, &lk, &err),
	    CUENV_E_MANIFEST);
	err_release(&err);
	lock_release(&lk);
	buf_release(&path);
	buf_release(&want);
	free(sub);
}

/* The .cuenv beside the lock must ask for what the lock was made for:
 * else a refusal naming both files and values (none beside it: fine). */
static void test_install_lock_refused_when_the_dotfile_moved_on(void **state)
{
	static const struct {
		const char *dotfile, *msg; /* NULL: accepted */
	} cases[] = {
	    {"cuda = 12.4\n", NULL},
	    {"12.4\n", NULL},
	    {"# pinned\ncuda = 12.4\nisolate = true\n", NULL},
	    {"cuda = 12.6\n",
	     "asks for cuda 12.6 but '%s' was made for cuda 12.4"},
	    {"cuda = 12.4.1\n",
	     "asks for cuda 12.4.1 but '%s' was made for cuda 12.4"},
	    {"cuda = 12.4\ncudnn = 9.1\n",
	     "asks for cudnn 9.1 but '%s' was made for no cudnn"},
	    {"cuda = 12.4\ncupti = 12.6\n",
	     "asks for cupti 12.6 but '%s' was made for no cupti"},
	    {"cuda = system\n",
	     "asks for cuda system but '%s' was made for cuda 12.4"},
	};
	struct fixture *fx = *state;
	struct lockfile lk;
	struct buf path = BUF_INIT, want = BUF_INIT, lock = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *p = fx_path(fx, "p");

	write_lock(fx, "p/.cuenv.lock", "linux-x86_64");
	buf_printf(&lock, "%s/.cuenv.lock", p);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		int rc;

		fx_write(fx, "p/.cuenv", cases[i].dotfile);
		lock_init(&lk);
		rc = install_request_lock(p, "linux-x86_64", &path, &lk, &err);
		if (!cases[i].msg) {
			if (rc)
				fail_msg("'%s': refused: %s", cases[i].dotfile,
					 err.msg.data);
		} else {
			assert_int_equal(rc, CUENV_E_MANIFEST);
			buf_reset(&want);
			buf_printf(&want, "install: '%s/.cuenv' ", p);
			buf_printf(&want, cases[i].msg, lock.data);
			assert_string_equal(err.msg.data, want.data);
			assert_string_equal(err.hint.data,
					    "update the lock with: cuenv lock");
		}
		err_release(&err);
		lock_release(&lk);
	}
	/* a .cuenv that cannot be read is its own error */
	fx_write(fx, "p/.cuenv", "cudaa = 12.4\n");
	lock_init(&lk);
	assert_int_equal(
	    install_request_lock(p, "linux-x86_64", &path, &lk, &err),
	    CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "cudaa"));
	err_release(&err);
	lock_release(&lk);
	BUF_RELEASE_EACH(&path, &want, &lock);
	free(p);
}

/* cuenv use's variables win over the .cuenv; a --cudnn given wins. */
static void test_install_select_use_then_dotfile(void **state)
{
	struct fixture *fx = *state;
	struct install_request q = {.source = -1};
	struct selection sel;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *none[] = {NULL},
	     *use[] = {"CUENV_VERSION=11.8", "CUENV_CUDNN_VERSION=8.9", NULL};
	char *cwd, *root = fx_path(fx, "root");

	fx_mkdir(fx, "p/sub");
	cwd = fx_path(fx, "p/sub");
	selection_init(&sel);
	assert_int_equal(
	    install_request_select(&q, cwd, root, none, &sel, &err),
	    CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "install: no version given and none "
					  "selected here");
	err_release(&err);
	selection_release(&sel);
	fx_write(fx, "p/.cuenv", "cuda = 12.4\ncudnn = 9.1\n");
	selection_init(&sel);
	assert_int_equal(
	    install_request_select(&q, cwd, root, none, &sel, &err), CUENV_OK);
	assert_string_equal(q.spec, "12.4");
	assert_string_equal(q.cudnn, "9.1");
	selection_release(&sel);
	q = (struct install_request){.source = -1, .cudnn = "9.0"};
	selection_init(&sel);
	assert_int_equal(install_request_select(&q, cwd, root, use, &sel, &err),
			 CUENV_OK);
	assert_string_equal(q.spec, "11.8");
	assert_string_equal(q.cudnn, "9.0");
	selection_release(&sel);
	free(cwd);
	free(root);
}

static void test_install_list_only_options(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(install_request_list_only(0, 0, &err), CUENV_OK);
	assert_int_equal(install_request_list_only(0, 1, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "install: --all and --json go with --list");
	assert_string_equal(err.hint.data, "see: cuenv install --help");
	err_release(&err);
	assert_int_equal(install_request_list_only(1, 0, &err), CUENV_E_USAGE);
	err_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_install_env_reads_and_checks_each_variable),
	    cmocka_unit_test(test_install_mode_four_and_their_conflicts),
	    cmocka_unit_test(
		test_install_selected_and_build_fill_what_was_not_given),
	    cmocka_unit_test(test_install_check_names_the_bad_version),
	    cmocka_unit_test(test_install_index_default_and_http),
	    cmocka_unit_test(test_install_dry_run_and_names),
	    cmocka_unit_test(test_install_fetch_hint_only_when_it_helps),
	    cmocka_unit_test(test_install_fetch_hint_names_the_index),
	    cmocka_unit_test(test_install_lock_platform),
	    cmocka_unit_test(test_install_mirror_url_schemes),
	    cmocka_unit_test(test_install_kind_word_cuda_cudnn_or_none),
	    cmocka_unit_test(test_install_kind_word_refusals),
	    cmocka_unit_test_setup_teardown(
		test_install_select_use_then_dotfile, fx_setup, fx_teardown),
	    cmocka_unit_test(test_install_list_only_options),
	    cmocka_unit_test_setup_teardown(
		test_install_lock_found_read_and_for_here, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_install_lock_refused_when_the_dotfile_moved_on, fx_setup,
		fx_teardown),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
