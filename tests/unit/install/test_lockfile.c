#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "install/lockfile.h"

#define SHA_A "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
#define SHA_B "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"

static const char cuda_json[] =
    "{\"release_label\": \"12.4.1\", \"release_product\": \"cuda\","
    " \"cuda_cudart\": {\"version\": \"12.4.127\","
    "  \"linux-x86_64\": {\"relative_path\": \"cuda_cudart/a.tar.xz\","
    "   \"sha256\": \"" SHA_A "\", \"size\": \"1234\"}},"
    " \"cuda_nvcc\": {\"version\": \"12.4.131\","
    "  \"linux-x86_64\": {\"relative_path\": \"cuda_nvcc/b.tar.xz\","
    "   \"sha256\": \"" SHA_B "\", \"size\": \"99\"}},"
    " \"cuda_demo_suite\": {\"version\": \"12.4.127\","
    "  \"linux-x86_64\": {\"relative_path\": \"demo/c.tar.xz\","
    "   \"sha256\": \"" SHA_B "\", \"size\": \"5\"}}}";

static const char cudnn_json[] =
    "{\"release_label\": \"9.1.0\", \"release_product\": \"cudnn\","
    " \"cudnn\": {\"version\": \"9.1.0.70\", \"linux-x86_64\": {"
    "  \"cuda12\": {\"relative_path\": \"cudnn/linux-x86_64/a_cuda12.tar.xz\","
    "   \"sha256\": \"" SHA_B "\", \"size\": \"20\"}}}}";

static void load(struct catalog *cat)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	assert_int_equal(catalog_parse_redist(cat, "c.json", cuda_json,
					      strlen(cuda_json), "linux-x86_64",
					      NULL, NULL, &err),
			 CUENV_OK);
	assert_int_equal(catalog_parse_redist(cat, "d.json", cudnn_json,
					      strlen(cudnn_json),
					      "linux-x86_64", NULL, NULL, &err),
			 CUENV_OK);
	err_release(&err);
}

static void build(struct lockfile *lk, struct catalog *cat, int runtime)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct plan_opts o = {0};

	o.runtime_only = runtime;
	lock_init(lk);
	assert_int_equal(lock_build(lk, cat, "12.4", "9.1", NULL, -1, &o,
				    "linux-x86_64", &err),
			 CUENV_OK);
	err_release(&err);
}

static void test_lock_build_follows_the_install_plan(void **state)
{
	struct catalog cat = {0};
	struct lockfile lk;

	(void)state;
	load(&cat);
	build(&lk, &cat, 0);
	/* cudart and nvcc (default set), not the demo suite; and cudnn */
	assert_int_equal(lk.nparts, 3);
	assert_string_equal(lk.parts[0].name, "cuda_cudart");
	assert_string_equal(lk.parts[0].release, "12.4.1");
	assert_string_equal(lk.parts[0].version, "12.4.127");
	assert_int_equal(lk.parts[0].size, 1234);
	assert_non_null(strstr(lk.parts[0].url, NVIDIA_BASE "/"));
	assert_string_equal(lk.parts[1].name, "cuda_nvcc");
	assert_int_equal(lk.parts[2].kind, KIT_CUDNN);
	assert_int_equal(lk.parts[2].cuda_major, 12);
	lock_release(&lk);
	build(&lk, &cat, 1); /* runtime only: no nvcc */
	assert_int_equal(lk.nparts, 2);
	lock_release(&lk);
	catalog_release(&cat);
}

static void test_lock_round_trip(void **state)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct lockfile lk, back;
	struct buf text = BUF_INIT, again = BUF_INIT, why = BUF_INIT;
	struct release rel;

	(void)state;
	load(&cat);
	build(&lk, &cat, 0);
	lock_format(&lk, &text);
	lock_init(&back);
	assert_int_equal(
	    lock_parse("/p/.cuenv.lock", text.data, text.len, &back, &err),
	    CUENV_OK);
	lock_format(&back, &again);
	assert_string_equal(text.data, again.data);
	assert_int_equal(lock_compare(&back, &lk, &why), 0);
	assert_int_equal(lock_verify(&back, &cat, NULL, &err), CUENV_OK);
	assert_int_equal(lock_to_release(&back, KIT_CUDA, &rel), CUENV_OK);
	assert_int_equal(rel.nparts, 2);
	assert_string_equal(rel.version, "12.4.1");
	free(rel.parts);
	assert_int_equal(lock_to_release(&back, KIT_CUPTI, &rel), CUENV_NO);
	/* a changed spec is named */
	free(back.cuda);
	back.cuda = strdup("12.5");
	assert_int_equal(lock_compare(&back, &lk, &why), 1);
	assert_non_null(strstr(why.data, "cuda 12.4"));
	/* a release its own selection does not ask for is refused */
	assert_int_equal(lock_verify(&back, &cat, NULL, &err),
			 CUENV_E_INTEGRITY);
	assert_non_null(strstr(err.msg.data,
			       "the lock pins cuda 12.4.1, which its "
			       "selection (cuda 12.5) does not ask for"));
	free(back.cuda);
	back.cuda = strdup("12.4");
	/* a version the catalogue does not give is refused */
	free(back.parts[0].version);
	back.parts[0].version = strdup("12.4.99");
	assert_int_equal(lock_verify(&back, &cat, NULL, &err),
			 CUENV_E_INTEGRITY);
	assert_non_null(strstr(err.msg.data,
			       "disagree on the version of cuda 12.4.1 "
			       "cuda_cudart (lock 12.4.99, catalogue "
			       "12.4.127)"));
	free(back.parts[0].version);
	back.parts[0].version = strdup("12.4.127");
	/* a sha256 the catalogue does not have is refused */
	memset(back.parts[0].sha256, 'a', 64);
	assert_int_equal(lock_verify(&back, &cat, NULL, &err),
			 CUENV_E_INTEGRITY);
	assert_non_null(strstr(err.msg.data,
			       "lock and catalogue disagree on "
			       "sha256 of cuda 12.4.1 cuda_cudart"));
	lock_release(&back);
	lock_release(&lk);
	catalog_release(&cat);
	buf_release(&text);
	buf_release(&again);
	buf_release(&why);
	err_release(&err);
}

/* A lock whose part differs from a fresh resolution in its sha256 alone
 * (the same url, version and size) does not match it. */
static void test_lock_compare_sha256_alone(void **state)
{
	struct catalog cat = {0};
	struct lockfile have, want;
	struct buf why = BUF_INIT;

	(void)state;
	load(&cat);
	build(&have, &cat, 0);
	build(&want, &cat, 0);
	assert_int_equal(lock_compare(&have, &want, &why), 0);
	memset(have.parts[1].sha256, 'c', 64);
	assert_int_equal(lock_compare(&have, &want, &why), 1);
	assert_string_equal(why.data, "cuda 12.4.1 cuda_nvcc differs between "
				      "the lock and the catalogue");
	lock_release(&have);
	lock_release(&want);
	catalog_release(&cat);
	buf_release(&why);
}

/* Twice the same component, or more components than any release has:
 * refused, as 500 copies of one entry once were not. */
static void test_lock_parse_refuses_duplicates(void **state)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct lockfile lk, back;
	struct buf text = BUF_INIT, b = BUF_INIT;
	const char *open, *close;

	(void)state;
	load(&cat);
	build(&lk, &cat, 0);
	lock_format(&lk, &text);
	/* the first component object, once more after itself */
	open = strstr(text.data, "\"components\": [");
	open = strchr(open, '{');
	close = strstr(open, "}");
	buf_add(&b, text.data, (size_t)(close + 1 - text.data));
	buf_adds(&b, ", ");
	buf_add(&b, open, (size_t)(close + 1 - open));
	buf_adds(&b, close + 1);
	lock_init(&back);
	assert_int_equal(
	    lock_parse("/p/.cuenv.lock", b.data, b.len, &back, &err),
	    CUENV_E_MANIFEST);
	assert_string_equal(err.msg.data, "bad lock file '/p/.cuenv.lock': "
					  "cuda_cudart pinned twice");
	/* LOCK_MAX_PARTS + 1 */
	buf_reset(&b);
	buf_add(&b, text.data, (size_t)(close + 1 - text.data));
	for (unsigned i = 0; i < LOCK_MAX_PARTS; i++) {
		buf_adds(&b, ", ");
		buf_add(&b, open, (size_t)(close + 1 - open));
	}
	buf_adds(&b, close + 1);
	assert_int_equal(
	    lock_parse("/p/.cuenv.lock", b.data, b.len, &back, &err),
	    CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "more components than any "
					     "release has"));
	lock_release(&back);
	lock_release(&lk);
	catalog_release(&cat);
	buf_release(&text);
	buf_release(&b);
	err_release(&err);
}

/* A valid lock with one component field replaced by key: value. */
static void expect_bad(const char *key, const char *value, const char *want)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct lockfile lk, back;
	struct buf text = BUF_INIT, b = BUF_INIT;
	char *at, *end;

	load(&cat);
	build(&lk, &cat, 0);
	lock_format(&lk, &text);
	buf_printf(&b, "\"%s\": ", key);
	at = strstr(text.data, b.data);
	assert_non_null(at);
	end = strchr(at + b.len, ',');
	assert_non_null(end);
	buf_setlen(&b, 0);
	buf_add(&b, text.data, (size_t)(at - text.data));
	buf_printf(&b, "\"%s\": %s", key, value);
	buf_adds(&b, end);
	lock_init(&back);
	assert_int_equal(
	    lock_parse("/p/.cuenv.lock", b.data, b.len, &back, &err),
	    CUENV_E_MANIFEST);
	if (!strstr(err.msg.data, "/p/.cuenv.lock") ||
	    !strstr(err.msg.data, want))
		fail_msg("message '%s' lacks '%s'", err.msg.data, want);
	lock_release(&back);
	lock_release(&lk);
	catalog_release(&cat);
	buf_release(&text);
	buf_release(&b);
	err_release(&err);
}

static void test_lock_rejects_malformed(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct lockfile lk;

	(void)state;
	lock_init(&lk);
	assert_int_equal(
	    lock_parse("/p/.cuenv.lock", "{\"schema\": 1,", 13, &lk, &err),
	    CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "bad lock file '/p/.cuenv.lock'"));
	assert_int_equal(lock_parse("/q/.cuenv.lock", "[]", 2, &lk, &err),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "/q/.cuenv.lock"));
	assert_int_equal(lk.nparts, 0);
	lock_release(&lk);
	err_release(&err);
}

static void test_lock_rejects_tampered_sha256(void **state)
{
	(void)state;
	expect_bad("sha256", "\"" SHA_A "0\"", "sha256 of cuda_cudart");
	expect_bad("sha256", "\"XYZ\"", "sha256 of cuda_cudart");
	expect_bad("sha256", "12", "'sha256' missing");
}

static void test_lock_rejects_foreign_or_climbing_url(void **state)
{
	(void)state;
	expect_bad("url", "\"https://evil.example.com/cuda.tar.xz\"",
		   "url of cuda_cudart");
	expect_bad("url", "\"" NVIDIA_BASE "/compute/../../etc/passwd\"",
		   "url of cuda_cudart");
	expect_bad("url", "\"http://developer.download.nvidia.com/a.tar.xz\"",
		   "url of cuda_cudart");
	expect_bad("kind", "\"cuddles\"", "unknown kind");
}

static void test_lock_find_walks_up(void **state)
{
	struct fixture *fx = *state;
	struct buf out = BUF_INIT;
	char *sub, *want;

	fx_mkdir(fx, "p/a/b");
	fx_write(fx, "p/" LOCK_NAME, "{}");
	sub = fx_path(fx, "p/a/b");
	want = fx_path(fx, "p/" LOCK_NAME);
	assert_int_equal(lock_find(sub, &out), CUENV_OK);
	assert_string_equal(out.data, want);
	free(sub);
	sub = fx_path(fx, "");
	assert_int_equal(lock_find(sub, &out), CUENV_NO);
	free(sub);
	free(want);
	buf_release(&out);
}

/* `cuenv lock` and `lock --check`: which file, read back, compared. */
static void test_lock_check_path_read_and_compare(void **state)
{
	struct fixture *fx = *state;
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct selection sel;
	struct lockfile lk, have, rt;
	struct plan_opts o = {0};
	struct buf path = BUF_INIT, text = BUF_INIT, want = BUF_INIT;
	char *dot = fx_path(fx, "p/.cuenv");

	selection_init(&sel);
	assert_int_equal(lock_path_for(&sel, 0, &path, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "lock: no .cuenv selecting a CUDA version here");
	assert_non_null(strstr(err.hint.data, "cuenv local 12.4 --force"));
	assert_int_equal(lock_path_for(&sel, 1, &path, &err), CUENV_NO);
	sel.cuda = strdup("12.4");
	sel.origin = SEL_SHELL; /* cuenv use is not the project's */
	sel.origin_path = strdup("CUENV_VERSION");
	assert_int_equal(lock_path_for(&sel, 1, &path, &err), CUENV_NO);
	sel.origin = SEL_FILE;
	free(sel.origin_path);
	sel.origin_path = strdup(dot);
	assert_int_equal(lock_path_for(&sel, 0, &path, &err), CUENV_OK);
	buf_printf(&want, "%s.lock", dot);
	assert_string_equal(path.data, want.data);

	lock_init(&have);
	assert_int_equal(lock_read_for_check(path.data, &have, &o, &err),
			 CUENV_NO);
	buf_reset(&want);
	buf_printf(&want, "lock: no lock file '%s'", path.data);
	assert_string_equal(err.msg.data, want.data);
	assert_string_equal(err.hint.data, "write it with: cuenv lock");
	load(&cat);
	build(&lk, &cat, 1);
	lock_format(&lk, &text);
	fx_write(fx, "p/.cuenv.lock", text.data);
	lock_release(&have);
	lock_init(&have);
	assert_int_equal(lock_read_for_check(path.data, &have, &o, &err),
			 CUENV_OK);
	assert_int_equal(o.runtime_only, 1); /* as the lock was made */
	assert_null(o.components);
	assert_int_equal(lock_check(&have, &lk, path.data, &err), CUENV_OK);
	build(&rt, &cat, 0);
	assert_int_equal(lock_check(&have, &rt, path.data, &err), CUENV_NO);
	buf_reset(&want);
	buf_printf(&want, "lock: '%s' is out of date: ", path.data);
	assert_true(!strncmp(err.msg.data, want.data, want.len));
	assert_string_equal(err.hint.data, "update it with: cuenv lock");
	lock_release(&rt);
	lock_release(&lk);
	lock_release(&have);
	catalog_release(&cat);
	selection_release(&sel);
	buf_release(&path);
	buf_release(&text);
	buf_release(&want);
	err_release(&err);
	free(dot);
}

/* lock_prepare then lock_settle in root/p, as `cuenv lock [--check]`. */
static int lock_in_p(const struct fixture *fx, const struct catalog *cat,
		     int check, struct buf *said, struct cuenv_err *err)
{
	char *cwd = fx_path(fx, "p"), *root = fx_path(fx, "root");
	struct selection sel;
	struct lockfile have;
	struct plan_opts o = {0};
	struct lock_from from = {.root = root, .source = -1};
	struct buf path = BUF_INIT;
	int rc;

	selection_init(&sel);
	lock_init(&have);
	rc = lock_prepare(cwd, root, check, &sel, &path, &have, &o, err);
	if (!rc)
		rc = lock_settle(&sel, cat, &o, "linux-x86_64", &from, check,
				 path.data, &have, said, err);
	selection_release(&sel);
	lock_release(&have);
	buf_release(&path);
	free(cwd);
	free(root);
	return rc;
}

/* Written, then checked: matches; the .cuenv changed: out of date; a
 * catalogue that cannot give the lock: no match either. */
static void test_lock_prepare_and_settle_write_then_check(void **state)
{
	struct fixture *fx = *state;
	struct catalog cat = {0}, empty = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf said = BUF_INIT, want = BUF_INIT;
	char *lock = fx_path(fx, "p/" LOCK_NAME),
	     *dot = fx_path(fx, "p/.cuenv");
	char *text;

	load(&cat);
	fx_mkdir(fx, "root");
	fx_write(fx, "p/.cuenv", "cuda = 12.4\ncudnn = 9.1\n");
	assert_int_equal(lock_in_p(fx, &cat, 1, &said, &err), CUENV_NO);
	err_release(&err);
	assert_int_equal(lock_in_p(fx, &cat, 0, &said, &err), CUENV_OK);
	buf_printf(&want, "wrote %s (3 components)\n", lock);
	assert_string_equal(said.data, want.data);
	text = fx_read(fx, "p/" LOCK_NAME);
	assert_non_null(strstr(text, "cuda_nvcc"));
	free(text);

	buf_reset(&said);
	buf_reset(&want);
	assert_int_equal(lock_in_p(fx, &cat, 1, &said, &err), CUENV_OK);
	buf_printf(&want, "%s matches %s\n", lock, dot);
	assert_string_equal(said.data, want.data);

	buf_reset(&said);
	assert_int_equal(lock_in_p(fx, &empty, 1, &said, &err), CUENV_NO);
	assert_int_equal(said.len, 0);
	err_release(&err);
	fx_write(fx, "p/.cuenv", "cuda = 12.4\n");
	assert_int_equal(lock_in_p(fx, &cat, 1, &said, &err), CUENV_NO);
	assert_non_null(strstr(err.msg.data, "is out of date"));
	assert_int_equal(said.len, 0);
	err_release(&err);
	/* and without --check the failure is the catalogue's */
	assert_int_equal(lock_in_p(fx, &empty, 0, &said, &err),
			 CUENV_E_UNKNOWN);
	err_release(&err);
	catalog_release(&cat);
	buf_release(&said);
	buf_release(&want);
	free(lock);
	free(dot);
}

/* install --locked: CUDA with exactly its locked components, then cuDNN
 * with no component list; a runtime-only ask narrows the toolkit. */
static void test_lock_steps_locked_components(void **state)
{
	struct catalog cat = {0};
	struct lockfile lk;
	struct plan_opts asked = {0};
	struct plan_step steps[KIT_KINDS];
	struct strv names[KIT_KINDS];
	size_t n;

	(void)state;
	load(&cat);
	build(&lk, &cat, 0);
	n = lock_steps(&lk, &asked, steps, names);
	assert_int_equal(n, 2);
	assert_int_equal(steps[0].rel.kind, KIT_CUDA);
	assert_string_equal(steps[0].rel.version, "12.4.1");
	assert_int_equal(steps[0].rel.nparts, 2);
	assert_non_null(steps[0].opts.components);
	assert_int_equal(steps[0].opts.components->n, 2);
	assert_string_equal(steps[0].opts.components->v[0], "cuda_cudart");
	assert_string_equal(steps[0].opts.components->v[1], "cuda_nvcc");
	assert_int_equal(steps[0].keep_partial, 0);
	assert_int_equal(steps[1].rel.kind, KIT_CUDNN);
	assert_null(steps[1].opts.components);
	lock_steps_release(steps, names, n);
	asked.runtime_only = 1;
	n = lock_steps(&lk, &asked, steps, names);
	assert_int_equal(n, 2);
	assert_null(steps[0].opts.components);
	assert_int_equal(steps[0].opts.runtime_only, 1);
	lock_steps_release(steps, names, n);
	lock_release(&lk);
	catalog_release(&cat);
}

#define FS_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lock_build_follows_the_install_plan),
	    cmocka_unit_test(test_lock_round_trip),
	    cmocka_unit_test(test_lock_compare_sha256_alone),
	    cmocka_unit_test(test_lock_parse_refuses_duplicates),
	    cmocka_unit_test(test_lock_rejects_malformed),
	    cmocka_unit_test(test_lock_rejects_tampered_sha256),
	    cmocka_unit_test(test_lock_rejects_foreign_or_climbing_url),
	    FS_TEST(test_lock_find_walks_up),
	    FS_TEST(test_lock_check_path_read_and_compare),
	    FS_TEST(test_lock_prepare_and_settle_write_then_check),
	    cmocka_unit_test(test_lock_steps_locked_components),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
