#include "fakes/fixture.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "plat/plat_path.h"
#include "store/store.h"

/* Open (creating) the store at root/store. */
static void open_store(const struct fixture *fx, struct store *st)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	char *root = fx_path(fx, "store");

	assert_int_equal(store_open(st, root, true, &err), CUENV_OK);
	free(root);
}

/* A registered CUDA install whose files would be at root/<rel>. */
static struct store_version *cuda_at(const struct fixture *fx,
				     const char *version, const char *rel)
{
	char *prefix = fx_path(fx, rel);
	struct store_version *in;

	in = fx_install_new(KIT_CUDA, version, (unsigned)atoi(version), prefix);
	free(prefix);
	return in;
}

static void register_ok(struct store *st, struct store_version *in)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	if (store_register(st, in, &err))
		fail_msg("store_register: %s", err.msg.data);
}

/* ---- names --------------------------------------------------------------- */

static void
test_install_name_is_version_or_version_dash_cuda_major(void **state)
{
	struct store_version in;
	char *name;

	(void)state;
	store_version_init(&in, KIT_CUDA);
	in.version = "12.4.1";
	in.cuda_major = 12;
	name = store_version_make_name(&in);
	assert_string_equal(name, "12.4.1");
	free(name);
	in.kind = KIT_CUDNN;
	in.version = "9.1.0.70";
	name = store_version_make_name(&in);
	assert_string_equal(name, "9.1.0.70-cuda12");
	free(name);
}

static void test_install_name_validation_for_cuda(void **state)
{
	(void)state;
	assert_true(store_version_name_is_valid(KIT_CUDA, "12.4.1"));
	assert_true(store_version_name_is_valid(KIT_CUDA, "11"));
	assert_false(store_version_name_is_valid(KIT_CUDA, "12.4.1-cuda12"));
	assert_false(store_version_name_is_valid(KIT_CUDA, ".."));
	assert_false(store_version_name_is_valid(KIT_CUDA, "../12.4"));
	assert_false(store_version_name_is_valid(KIT_CUDA, "12.4.tmp"));
	assert_false(store_version_name_is_valid(KIT_CUDA, ""));
}

static void test_install_name_validation_for_cudnn(void **state)
{
	(void)state;
	assert_true(store_version_name_is_valid(KIT_CUDNN, "9.1.0.70-cuda12"));
	assert_true(store_version_name_is_valid(KIT_CUDNN, "8.9-cuda11"));
	assert_false(store_version_name_is_valid(KIT_CUDNN, "9.1.0.70"));
	assert_false(store_version_name_is_valid(KIT_CUDNN, "9.1.0.70-cuda"));
	assert_false(
	    store_version_name_is_valid(KIT_CUDNN, "9.1.0.70-cuda012"));
	assert_false(
	    store_version_name_is_valid(KIT_CUDNN, "9.1.0.70-cuda1234"));
	assert_false(
	    store_version_name_is_valid(KIT_CUDNN, "9.1.0.70-cuda12x"));
	assert_false(
	    store_version_name_is_valid(KIT_CUDNN, "9.1.0.70-cuda-12"));
	assert_false(store_version_name_is_valid(KIT_CUDNN, "../9-cuda12"));
	assert_false(store_version_name_is_valid(KIT_CUDNN, "-cuda12"));
}

static void test_kit_kind_names_round_trip(void **state)
{
	enum kit_kind k;

	(void)state;
	assert_int_equal(kit_kind_parse("cuda", &k), 0);
	assert_int_equal(k, KIT_CUDA);
	assert_string_equal(kit_kind_name(k), "cuda");
	assert_int_equal(kit_kind_parse("cudnn", &k), 0);
	assert_int_equal(k, KIT_CUDNN);
	assert_string_equal(kit_kind_name(k), "cudnn");
	assert_int_equal(kit_kind_parse("cupti", &k), 0);
	assert_int_equal(k, KIT_CUPTI);
	assert_string_equal(kit_kind_name(k), "cupti");
	assert_int_equal(kit_kind_parse("CUDA", &k), -1);
	assert_int_equal(kit_kind_parse("nccl", &k), -1);
}

static void test_store_is_dir_follows_links(void **state)
{
	struct fixture *fx = *state;
	char *d = fx_path(fx, "d"), *f = fx_path(fx, "f"),
	     *l = fx_path(fx, "l");
	char *none = fx_path(fx, "none");

	fx_mkdir(fx, "d");
	fx_touch(fx, "f");
	fx_symlink(fx, "d", "l");
	assert_true(store_is_dir(d));
	assert_true(store_is_dir(l));
	assert_false(store_is_dir(f));
	assert_false(store_is_dir(none));
	free(d);
	free(f);
	free(l);
	free(none);
}

/* ---- opening ------------------------------------------------------------- */

static void test_store_open_with_create_makes_the_folders(void **state)
{
	struct fixture *fx = *state;
	struct store st;

	open_store(fx, &st);
	assert_true(fx_exists(fx, "store/versions/cuda"));
	assert_true(fx_exists(fx, "store/versions/cudnn"));
	assert_true(fx_exists(fx, "store/.staging"));
	assert_true(fx_exists(fx, "store/run"));
	assert_int_equal(st.lock_fd, -1);
	assert_int_equal(st.warnings.n, 0);
	store_release(&st);
}

static void test_store_open_without_create_makes_nothing(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *root = fx_path(fx, "store");
	struct store st;

	assert_int_equal(store_open(&st, root, false, &err), CUENV_OK);
	assert_false(fx_exists(fx, "store"));
	store_release(&st);
	free(root);
}

static void test_store_open_rejects_relative_root(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store st;

	(void)state;
	assert_int_equal(store_open(&st, "relative/root", true, &err),
			 CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "absolute"));
	store_release(&st);
	err_release(&err);
}

static void test_store_open_fails_when_root_is_a_file(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *root = fx_path(fx, "store");
	struct store st;

	fx_write(fx, "store", "a file\n");
	assert_int_equal(store_open(&st, root, true, &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "cannot create"));
	store_release(&st);
	err_release(&err);
	free(root);
}

static void test_store_global_path_is_root_version(void **state)
{
	struct fixture *fx = *state;
	struct buf p = BUF_INIT;
	char *want = fx_path(fx, "store/version");
	struct store st;

	open_store(fx, &st);
	buf_adds(&p, "old contents");
	store_global_path(&st, &p);
	assert_string_equal(p.data, want);
	store_release(&st);
	buf_release(&p);
	free(want);
}

/* ---- register and list --------------------------------------------------- */

static void test_store_register_then_list_round_trips(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version_list l = {0};
	struct store_version *in = cuda_at(fx, "12.4.1", "cuda-12.4");
	char *dir = fx_path(fx, "store/versions/cuda/12.4.1");
	const struct store_version *got;
	struct store st;

	in->cupti_version = strdup("12.4.127");
	strv_push(&in->notes, "cuda_cupti 12.4.127");
	open_store(fx, &st);
	register_ok(&st, in);
	assert_string_equal(in->name, "12.4.1");
	assert_string_equal(in->dir, dir);

	assert_int_equal(store_list(&st, KIT_CUDA, &l, &err), CUENV_OK);
	assert_int_equal(l.n, 1);
	got = l.v[0];
	assert_int_equal(got->kind, KIT_CUDA);
	assert_string_equal(got->version, "12.4.1");
	assert_int_equal(got->cuda_major, 12);
	assert_string_equal(got->name, "12.4.1");
	assert_string_equal(got->dir, dir);
	assert_string_equal(got->prefix, in->prefix);
	assert_true(got->registered);
	assert_string_equal(got->cupti_version, "12.4.127");
	assert_int_equal(got->bin.n, 1);
	assert_string_equal(got->bin.v[0], in->bin.v[0]);
	assert_int_equal(got->lib.n, 2);
	assert_string_equal(got->lib.v[0], in->lib.v[0]);
	assert_string_equal(got->lib.v[1], in->lib.v[1]);
	assert_int_equal(got->include.n, 1);
	assert_string_equal(got->include.v[0], in->include.v[0]);
	assert_int_equal(got->cupti.n, 1);
	assert_string_equal(got->cupti.v[0], in->cupti.v[0]);
	assert_int_equal(got->notes.n, 1);
	assert_string_equal(got->notes.v[0], "cuda_cupti 12.4.127");
	assert_int_equal(st.warnings.n, 0);

	store_version_list_release(&l);
	store_version_free(in);
	store_release(&st);
	free(dir);
}

static void
test_store_receipt_is_json_with_dirs_relative_to_prefix(void **state)
{
	struct fixture *fx = *state;
	struct store_version *in = cuda_at(fx, "12.4.1", "cuda-12.4");
	char *path = fx_path(fx, "store/versions/cuda/12.4.1/" RECEIPT_NAME);
	json_error_t jerr;
	json_t *j, *lib;
	struct store st;

	strv_push(&in->bin, in->prefix); /* the prefix itself */
	strv_push(&in->notes, "cuda_nvcc 12.4.131");
	open_store(fx, &st);
	register_ok(&st, in);

	j = json_load_file(path, 0, &jerr);
	if (!j)
		fail_msg("receipt is not JSON: %s", jerr.text);
	assert_string_equal(json_string_value(json_object_get(j, "kind")),
			    "cuda");
	assert_string_equal(json_string_value(json_object_get(j, "version")),
			    "12.4.1");
	assert_int_equal(json_integer_value(json_object_get(j, "cuda_major")),
			 12);
	assert_true(json_is_true(json_object_get(j, "registered")));
	assert_string_equal(json_string_value(json_object_get(j, "prefix")),
			    in->prefix);
	assert_string_equal(
	    json_string_value(json_array_get(json_object_get(j, "bin"), 0)),
	    "bin");
	assert_string_equal(
	    json_string_value(json_array_get(json_object_get(j, "bin"), 1)),
	    ".");
	lib = json_object_get(j, "lib");
	assert_int_equal(json_array_size(lib), 2);
	assert_string_equal(json_string_value(json_array_get(lib, 0)), "lib64");
	assert_string_equal(json_string_value(json_array_get(lib, 1)),
			    "extras/CUPTI/lib64");
	assert_string_equal(
	    json_string_value(json_array_get(json_object_get(j, "cupti"), 0)),
	    "extras/CUPTI/lib64");
	assert_string_equal(json_string_value(json_object_get(
				json_object_get(j, "components"), "cuda_nvcc")),
			    "12.4.131");
	json_decref(j);
	store_version_free(in);
	store_release(&st);
	free(path);
}

static void test_store_register_leaves_nothing_in_staging(void **state)
{
	struct fixture *fx = *state;
	struct store_version *in = cuda_at(fx, "12.4.1", "cuda-12.4");
	struct store st;

	open_store(fx, &st);
	register_ok(&st, in);
	assert_int_equal(fx_count_entries(fx, "store/.staging"), 0);
	assert_int_equal(fx_count_entries(fx, "store/versions/cuda/12.4.1"), 1);
	store_version_free(in);
	store_release(&st);
}

static void test_store_register_of_cudnn_names_cuda_major(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version_list l = {0};
	char *prefix = fx_path(fx, "cudnn");
	struct store_version *in =
	    fx_install_new(KIT_CUDNN, "9.1.0.70", 12, prefix);
	struct store st;

	open_store(fx, &st);
	register_ok(&st, in);
	assert_string_equal(in->name, "9.1.0.70-cuda12");
	assert_true(fx_exists(
	    fx, "store/versions/cudnn/9.1.0.70-cuda12/" RECEIPT_NAME));
	assert_int_equal(store_list(&st, KIT_CUDNN, &l, &err), CUENV_OK);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.v[0]->kind, KIT_CUDNN);
	assert_int_equal(l.v[0]->cuda_major, 12);
	store_version_list_release(&l);
	/* and it is no CUDA */
	assert_int_equal(store_list(&st, KIT_CUDA, &l, &err), CUENV_OK);
	assert_int_equal(l.n, 0);
	store_version_free(in);
	store_release(&st);
	free(prefix);
}

static void test_store_list_sorts_oldest_first(void **state)
{
	static const char *const order[] = {"12.4.1", "11.8", "12.10.0", "12.4",
					    "9.2"};
	static const char *const want[] = {"9.2", "11.8", "12.4", "12.4.1",
					   "12.10.0"};
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version_list l = {0};
	struct store st;

	open_store(fx, &st);
	for (size_t i = 0; i < 5; i++) {
		struct store_version *in = cuda_at(fx, order[i], "cuda");

		register_ok(&st, in);
		store_version_free(in);
	}
	assert_int_equal(store_list(&st, KIT_CUDA, &l, &err), CUENV_OK);
	assert_int_equal(l.n, 5);
	for (size_t i = 0; i < 5; i++)
		assert_string_equal(l.v[i]->version, want[i]);
	store_version_list_release(&l);
	store_release(&st);
}

static void test_store_list_of_missing_versions_folder_is_empty(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version_list l = {0};
	char *root = fx_path(fx, "nothing-here");
	struct store st;

	assert_int_equal(store_open(&st, root, false, &err), CUENV_OK);
	assert_int_equal(store_list(&st, KIT_CUDA, &l, &err), CUENV_OK);
	assert_int_equal(l.n, 0);
	assert_int_equal(st.warnings.n, 0);
	store_release(&st);
	free(root);
}

static void
test_store_list_skips_version_dir_without_receipt_silently(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version_list l = {0};
	struct store_version *in = cuda_at(fx, "12.4.1", "cuda");
	struct store st;

	open_store(fx, &st);
	register_ok(&st, in);
	fx_touch_exec(fx,
		      "store/versions/cuda/12.6.0/bin/nvcc"); /* half-made */
	assert_int_equal(store_list(&st, KIT_CUDA, &l, &err), CUENV_OK);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0]->version, "12.4.1");
	assert_int_equal(st.warnings.n, 0);
	store_version_list_release(&l);
	store_version_free(in);
	store_release(&st);
}

static void test_store_list_skips_hidden_entries(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version_list l = {0};
	struct store st;

	open_store(fx, &st);
	fx_write(fx, "store/versions/cuda/.12.4/" RECEIPT_NAME, "{}");
	assert_int_equal(store_list(&st, KIT_CUDA, &l, &err), CUENV_OK);
	assert_int_equal(l.n, 0);
	assert_int_equal(st.warnings.n, 0);
	store_release(&st);
}

static void test_store_list_reports_corrupt_receipt_in_warnings(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version_list l = {0};
	struct store_version *in = cuda_at(fx, "12.4.1", "cuda");
	struct store st;

	open_store(fx, &st);
	register_ok(&st, in);
	fx_write(fx, "store/versions/cuda/12.2.0/" RECEIPT_NAME, "{ not json");
	assert_int_equal(store_list(&st, KIT_CUDA, &l, &err), CUENV_OK);
	assert_int_equal(err.rc, CUENV_OK);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0]->version, "12.4.1");
	assert_int_equal(st.warnings.n, 1);
	assert_non_null(strstr(st.warnings.v[0], "versions/cuda/12.2.0"));
	store_version_list_release(&l);
	store_version_free(in);
	store_release(&st);
}

/* The four directory lists every receipt carries. */
#define NO_DIRS "\"bin\":[],\"lib\":[],\"include\":[],\"cupti\":[]"

static void write_receipt(const struct fixture *fx, const char *name,
			  const char *json)
{
	struct buf rel = BUF_INIT;

	buf_printf(&rel, "store/versions/cuda/%s/" RECEIPT_NAME, name);
	fx_write(fx, rel.data, json);
	buf_release(&rel);
}

/* List the one receipt written; expect it skipped with a warning. */
static void assert_receipt_skipped(const struct fixture *fx, const char *json)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version_list l = {0};
	struct store st;

	open_store(fx, &st);
	write_receipt(fx, "12.2.0", json);
	assert_int_equal(store_list(&st, KIT_CUDA, &l, &err), CUENV_OK);
	if (l.n)
		fail_msg("receipt accepted: %s", json);
	assert_int_equal(st.warnings.n, 1);
	store_release(&st);
}

static void test_store_list_reads_hand_written_registered_receipt(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version_list l = {0};
	struct store st;

	/* the receipts below differ from this one in one field each */
	open_store(fx, &st);
	write_receipt(fx, "12.2.0",
		      "{\"kind\":\"cuda\",\"version\":\"12.2.0\","
		      "\"cuda_major\":12,\"registered\":true,"
		      "\"prefix\":\"/opt/cuda\",\"bin\":[],\"lib\":[\"lib64\"],"
		      "\"include\":[],\"cupti\":[]}");
	assert_int_equal(store_list(&st, KIT_CUDA, &l, &err), CUENV_OK);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0]->prefix, "/opt/cuda");
	assert_string_equal(l.v[0]->lib.v[0], "/opt/cuda/lib64");
	assert_int_equal(st.warnings.n, 0);
	store_version_list_release(&l);
	store_release(&st);
}

static void
test_store_list_rejects_receipt_with_dir_escaping_prefix(void **state)
{
	struct fixture *fx = *state;

	assert_receipt_skipped(fx, "{\"kind\":\"cuda\",\"version\":\"12.2.0\","
				   "\"cuda_major\":12,\"registered\":true,"
				   "\"prefix\":\"/opt/cuda\","
				   "\"bin\":[],\"lib\":[\"../../etc\"],"
				   "\"include\":[],\"cupti\":[]}");
}

static void test_store_list_rejects_receipt_with_absolute_dir(void **state)
{
	struct fixture *fx = *state;

	assert_receipt_skipped(fx, "{\"kind\":\"cuda\",\"version\":\"12.2.0\","
				   "\"cuda_major\":12,\"registered\":true,"
				   "\"prefix\":\"/opt/cuda\","
				   "\"bin\":[\"/usr/bin\"],\"lib\":[],"
				   "\"include\":[],\"cupti\":[]}");
}

static void test_store_list_rejects_receipt_with_colon_in_dir(void **state)
{
	struct fixture *fx = *state;

	assert_receipt_skipped(fx, "{\"kind\":\"cuda\",\"version\":\"12.2.0\","
				   "\"cuda_major\":12,\"registered\":true,"
				   "\"prefix\":\"/opt/cuda\","
				   "\"bin\":[],\"lib\":[\"lib:x\"],"
				   "\"include\":[],\"cupti\":[]}");
}

static void test_store_list_rejects_receipt_with_colon_in_prefix(void **state)
{
	struct fixture *fx = *state;

	assert_receipt_skipped(fx, "{\"kind\":\"cuda\",\"version\":\"12.2.0\","
				   "\"cuda_major\":12,\"registered\":true,"
				   "\"prefix\":\"/opt/tool:kit\","
				   "\"bin\":[\"bin\"],\"lib\":[],"
				   "\"include\":[],\"cupti\":[]}");
}

static void test_store_list_rejects_receipt_with_newline_in_prefix(void **state)
{
	struct fixture *fx = *state;

	assert_receipt_skipped(fx, "{\"kind\":\"cuda\",\"version\":\"12.2.0\","
				   "\"cuda_major\":12,\"registered\":true,"
				   "\"prefix\":\"/opt/a\\nb;c\","
				   "\"bin\":[\"bin\"],\"lib\":[],"
				   "\"include\":[],\"cupti\":[]}");
}

static void test_store_register_writes_receipt_0644_whatever_umask(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *prefix = fx_path(fx, "cuda");
	char *receipt = fx_path(fx, "store/versions/cuda/12.4.1/" RECEIPT_NAME);
	struct store_version *in;
	struct store st;
	struct stat sb;
	mode_t old = umask(0);

	fx_mkdir(fx, "cuda/bin");
	open_store(fx, &st);
	in = fx_install_new(KIT_CUDA, "12.4.1", 12, prefix);
	assert_int_equal(store_register(&st, in, &err), CUENV_OK);
	umask(old);
	assert_int_equal(stat(receipt, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0644);
	store_version_free(in);
	store_release(&st);
	free(prefix);
	free(receipt);
}

static void test_store_list_rejects_receipt_with_invalid_version(void **state)
{
	struct fixture *fx = *state;

	assert_receipt_skipped(
	    fx, "{\"kind\":\"cuda\",\"version\":\"../x\","
		"\"cuda_major\":12,\"registered\":false," NO_DIRS "}");
}

static void test_store_list_rejects_receipt_of_other_kind(void **state)
{
	struct fixture *fx = *state;

	assert_receipt_skipped(
	    fx, "{\"kind\":\"cudnn\",\"version\":\"9.1\","
		"\"cuda_major\":12,\"registered\":false," NO_DIRS "}");
}

static void
test_store_list_rejects_registered_receipt_without_prefix(void **state)
{
	struct fixture *fx = *state;

	assert_receipt_skipped(
	    fx, "{\"kind\":\"cuda\",\"version\":\"12.2.0\","
		"\"cuda_major\":12,\"registered\":true," NO_DIRS "}");
}

static void
test_store_list_reads_installed_receipt_with_dir_as_prefix(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version_list l = {0};
	char *dir = fx_path(fx, "store/versions/cuda/12.2.0");
	char *bin = fx_path(fx, "store/versions/cuda/12.2.0/bin");
	struct store st;

	open_store(fx, &st);
	write_receipt(fx, "12.2.0",
		      "{\"kind\":\"cuda\",\"version\":\"12.2.0\","
		      "\"cuda_major\":12,\"registered\":false,"
		      "\"bin\":[\"bin\"],\"lib\":[],\"include\":[],"
		      "\"cupti\":[]}");
	assert_int_equal(store_list(&st, KIT_CUDA, &l, &err), CUENV_OK);
	assert_int_equal(l.n, 1);
	assert_false(l.v[0]->registered);
	assert_string_equal(l.v[0]->prefix, dir);
	assert_string_equal(l.v[0]->bin.v[0], bin);
	store_version_list_release(&l);
	store_release(&st);
	free(dir);
	free(bin);
}

static void test_store_register_of_taken_name_fails(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version *a = cuda_at(fx, "12.4.1", "cuda-a");
	struct store_version *b = cuda_at(fx, "12.4.1", "cuda-b");
	struct store_version_list l = {0};
	struct store st;

	open_store(fx, &st);
	register_ok(&st, a);
	assert_int_equal(store_register(&st, b, &err), CUENV_E_CONFLICT);
	assert_non_null(strstr(err.msg.data, "already in the store"));
	/* the first stays, and nothing is left half-made */
	assert_int_equal(fx_count_entries(fx, "store/.staging"), 0);
	assert_int_equal(store_list(&st, KIT_CUDA, &l, &err), CUENV_OK);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.v[0]->prefix, a->prefix);
	store_version_list_release(&l);
	store_version_free(a);
	store_version_free(b);
	store_release(&st);
	err_release(&err);
}

/* ---- delete -------------------------------------------------------------- */

static void test_store_delete_removes_the_version_dir(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version *in = cuda_at(fx, "12.4.1", "cuda-12.4");
	struct store_version_list l = {0};
	struct store st;

	open_store(fx, &st);
	register_ok(&st, in);
	assert_int_equal(store_delete(&st, in, &err), CUENV_OK);
	assert_false(fx_exists(fx, "store/versions/cuda/12.4.1"));
	assert_int_equal(fx_count_entries(fx, "store/.staging"), 0);
	assert_int_equal(store_list(&st, KIT_CUDA, &l, &err), CUENV_OK);
	assert_int_equal(l.n, 0);
	store_version_free(in);
	store_release(&st);
}

static void
test_store_delete_of_registered_install_keeps_its_files(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version *in = cuda_at(fx, "12.4.1", "cuda-12.4");
	struct store st;

	fake_cuda_classic(fx, "cuda-12.4", 12);
	open_store(fx, &st);
	register_ok(&st, in);
	assert_int_equal(store_delete(&st, in, &err), CUENV_OK);
	assert_true(fx_exists(fx, "cuda-12.4/bin/nvcc"));
	assert_true(fx_exists(fx, "cuda-12.4/lib64/libcudart.so.12"));
	store_version_free(in);
	store_release(&st);
}

static void test_store_delete_removes_installed_tree(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version_list l = {0};
	struct store st;

	open_store(fx, &st);
	write_receipt(fx, "12.2.0",
		      "{\"kind\":\"cuda\",\"version\":\"12.2.0\","
		      "\"cuda_major\":12,\"registered\":false," NO_DIRS "}");
	fake_cuda_classic(fx, "store/versions/cuda/12.2.0", 12);
	assert_int_equal(store_list(&st, KIT_CUDA, &l, &err), CUENV_OK);
	assert_int_equal(l.n, 1);
	assert_int_equal(store_delete(&st, l.v[0], &err), CUENV_OK);
	assert_int_equal(fx_count_entries(fx, "store/versions/cuda"), 0);
	assert_int_equal(fx_count_entries(fx, "store/.staging"), 0);
	store_version_list_release(&l);
	store_release(&st);
}

static void test_store_delete_of_missing_dir_fails(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version *in = cuda_at(fx, "12.4.1", "cuda-12.4");
	struct store st;

	open_store(fx, &st);
	in->dir = fx_path(fx, "store/versions/cuda/12.4.1");
	assert_int_equal(store_delete(&st, in, &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "cannot remove"));
	err_release(&err);
	store_version_free(in);
	store_release(&st);
}

static void test_store_delete_failure_leaves_staging_empty(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version *in = cuda_at(fx, "12.4.1", "cuda-12.4");
	struct store st;
	int rc, left;

	open_store(fx, &st);
	in->dir = fx_path(fx, "store/versions/cuda/12.4.1"); /* not there */
	rc = store_delete(&st, in, &err);
	left = fx_count_entries(fx, "store/.staging");
	err_release(&err);
	store_version_free(in);
	store_release(&st);
	assert_int_equal(rc, CUENV_E_STORE);
	/* like store_register, a failure leaves nothing in .staging */
	assert_int_equal(left, 0);
}

/* ---- removing trees ------------------------------------------------------ */

#define DEEP_NAME                                                              \
	"dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"     \
	"ddddddddddddddddddddddddddddddddddd"
#define DEEP_LEVELS 60 /* 60 * 100 bytes: past PATH_MAX (4096) */

/* Build rel/DEEP_NAME/... DEEP_LEVELS deep, with mkdirat and openat (no
 * path could reach the bottom), a 10-byte file at every level. */
static void make_deep_tree(const struct fixture *fx, const char *rel)
{
	char *top = fx_path(fx, rel);
	int fd;

	fx_mkdir(fx, rel);
	fd = open(top, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	for (int i = 0; i < DEEP_LEVELS; i++) {
		int f = openat(fd, "f", O_WRONLY | O_CREAT | O_EXCL, 0644),
		    next;

		assert_true(f >= 0);
		assert_int_equal(write(f, "0123456789", 10), 10);
		assert_int_equal(close(f), 0);
		assert_int_equal(mkdirat(fd, DEEP_NAME, 0755), 0);
		next = openat(fd, DEEP_NAME, O_RDONLY | O_DIRECTORY);
		assert_true(next >= 0);
		close(fd);
		fd = next;
	}
	assert_int_equal(symlinkat("/", fd, "root-link"), 0);
	close(fd);
	free(top);
}

static void
test_store_remove_tree_removes_a_tree_deeper_than_path_max(void **state)
{
	struct fixture *fx = *state;
	struct tree_stats ts;
	char *top = fx_path(fx, "deep");

	make_deep_tree(fx, "deep");
	assert_int_equal(store_measure_tree(top, &ts), 0);
	assert_int_equal(ts.bytes, 10 * DEEP_LEVELS);
	assert_int_equal(ts.linked, 0);
	assert_int_equal(store_remove_tree_stats(top, &ts), 0);
	assert_int_equal(ts.bytes, 10 * DEEP_LEVELS);
	assert_false(fx_exists(fx, "deep"));
	free(top);
}

static void test_store_remove_tree_never_follows_links(void **state)
{
	struct fixture *fx = *state;
	char *top = fx_path(fx, "tree"), *link = fx_path(fx, "link-to-outside");

	fx_write(fx, "outside/dir/keep", "keep");
	fx_write(fx, "outside/file", "keep");
	fx_write(fx, "tree/a/b/file", "x");
	fx_symlink(fx, "../../outside/dir", "tree/a/dir-link");
	fx_symlink(fx, "../../../outside/file", "tree/a/b/file-link");
	fx_symlink(fx, "outside/dir", "link-to-outside");
	assert_int_equal(store_remove_tree(top), 0);
	assert_false(fx_exists(fx, "tree"));
	/* the tree itself a link: the link goes, not what it points to */
	assert_int_equal(store_remove_tree(link), 0);
	assert_false(fx_exists(fx, "link-to-outside"));
	assert_true(fx_exists(fx, "outside/dir/keep"));
	assert_true(fx_exists(fx, "outside/file"));
	free(top);
	free(link);
}

static void test_store_remove_tree_of_a_missing_path_fails(void **state)
{
	struct fixture *fx = *state;
	char *top = fx_path(fx, "nothing");

	assert_int_equal(store_remove_tree(top), -1);
	assert_int_equal(errno, ENOENT);
	free(top);
}

static void test_store_remove_tree_empties_read_only_folders(void **state)
{
	struct fixture *fx = *state;
	char *top = fx_path(fx, "tree"), *ro = fx_path(fx, "tree/ro");

	fx_write(fx, "tree/ro/sub/file", "x");
	assert_int_equal(chmod(ro, 0500), 0);
	assert_int_equal(store_remove_tree(top), 0);
	assert_false(fx_exists(fx, "tree"));
	free(top);
	free(ro);
}

static void test_store_measure_tree_stops_at_a_linked_file(void **state)
{
	struct fixture *fx = *state;
	char *top = fx_path(fx, "pool/t"), *a = fx_path(fx, "pool/t/lib/a"),
	     *b = fx_path(fx, "version-a");
	struct tree_stats ts;

	fx_write(fx, "pool/t/lib/a", "0123456789");
	fx_write(fx, "pool/t/lib/b", "0123456789");
	assert_int_equal(link(a, b), 0);
	assert_int_equal(store_measure_tree(top, &ts), 0);
	assert_int_equal(ts.linked, 1);
	/* a removal frees only what had no other link */
	assert_int_equal(store_remove_tree_stats(top, &ts), 0);
	assert_int_equal(ts.bytes, 10);
	assert_int_equal(ts.linked, 1);
	assert_true(fx_exists(fx, "version-a"));
	free(top);
	free(a);
	free(b);
}

/* ---- the trash of an uninstall ------------------------------------------ */

static void test_store_delete_leaves_no_trash_lock(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store_version_list l = {0};
	struct store st;

	open_store(fx, &st);
	write_receipt(fx, "12.2.0",
		      "{\"kind\":\"cuda\",\"version\":\"12.2.0\","
		      "\"cuda_major\":12,\"registered\":false," NO_DIRS "}");
	make_deep_tree(fx, "store/versions/cuda/12.2.0/deep");
	assert_int_equal(store_list(&st, KIT_CUDA, &l, &err), CUENV_OK);
	assert_int_equal(l.n, 1);
	assert_int_equal(store_delete(&st, l.v[0], &err), CUENV_OK);
	assert_int_equal(fx_count_entries(fx, "store/versions/cuda"), 0);
	assert_int_equal(fx_count_entries(fx, "store/.staging"), 0);
	store_version_list_release(&l);
	store_release(&st);
}

/* ---- locking ------------------------------------------------------------- */

/* Can another process take a lock of type (F_WRLCK, F_RDLCK) on path now? */
static bool other_process_can_lock_as(const char *path, short type)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		struct flock fl = {.l_type = type, .l_whence = SEEK_SET};
		int fd = open(path, O_RDWR);

		_exit(fd >= 0 && !fcntl(fd, F_SETLK, &fl) ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status) == 0;
}

/* Can another process take a write lock on path right now? */
static bool other_process_can_lock(const char *path)
{
	return other_process_can_lock_as(path, F_WRLCK);
}

static void test_store_lock_excludes_other_processes(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *lock = fx_path(fx, "store/.lock");
	struct store st;

	open_store(fx, &st);
	assert_int_equal(store_lock(&st, &err), CUENV_OK);
	assert_true(st.lock_fd >= 0);
	assert_true(fx_exists(fx, "store/.lock"));
	assert_false(other_process_can_lock(lock));
	store_release(&st);
	assert_true(other_process_can_lock(lock));
	free(lock);
}

/* A writer (gc, add, remove) excludes installs, which take it shared. */
static void test_store_lock_excludes_shared_holders(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *lock = fx_path(fx, "store/.lock");
	struct store st;

	open_store(fx, &st);
	assert_int_equal(store_lock(&st, &err), CUENV_OK);
	assert_false(other_process_can_lock_as(lock, F_RDLCK));
	store_release(&st);
	assert_true(other_process_can_lock_as(lock, F_RDLCK));
	free(lock);
}

static void test_store_lock_shared_admits_only_other_readers(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *lock = fx_path(fx, "store/.lock");
	struct store st;

	open_store(fx, &st);
	assert_int_equal(store_lock_shared(&st, &err), CUENV_OK);
	assert_true(other_process_can_lock_as(lock, F_RDLCK));
	assert_false(other_process_can_lock_as(lock, F_WRLCK));
	store_release(&st);
	assert_true(other_process_can_lock_as(lock, F_WRLCK));
	free(lock);
}

static void test_store_lock_twice_is_harmless(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store st;
	int fd;

	open_store(fx, &st);
	assert_int_equal(store_lock(&st, &err), CUENV_OK);
	fd = st.lock_fd;
	assert_int_equal(store_lock(&st, &err), CUENV_OK);
	assert_int_equal(st.lock_fd, fd);
	store_release(&st);
	assert_int_equal(st.lock_fd, -1);
}

/*
 * Open file description locks: a second open of the same file, in the same
 * process (another worker thread), is refused while the first holds it;
 * fcntl's process-wide locks would have granted it.
 */
static void test_store_lock_path_excludes_same_process(void **state)
{
	struct fixture *fx = *state;
	char *path = fx_path(fx, "x.lock");
	int a, b;

	a = store_lock_path(path, 1, 0);
	assert_true(a >= 0);
	assert_int_equal(store_lock_path(path, 1, 0), -1);
	assert_int_equal(store_lock_path(path, 0, 0), -1);
	assert_false(other_process_can_lock(path));
	close(a);
	b = store_lock_path(path, 0, 0);
	assert_true(b >= 0);
	a = store_lock_path(path, 0, 0); /* shared with shared */
	assert_true(a >= 0);
	close(a);
	close(b);
	free(path);
}

static void test_store_lock_names_its_holder(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store st;
	char line[128], want[128];
	char *path = fx_path(fx, "store/.lock");
	ssize_t n;
	int fd;

	open_store(fx, &st);
	store_lock_describe(&st, "cuenv install cuda 12.4.1");
	assert_int_equal(store_lock_shared(&st, &err), CUENV_OK);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, line, sizeof(line) - 1);
	assert_true(n > 0);
	line[n] = '\0';
	snprintf(want, sizeof(want), "cuenv install cuda 12.4.1 (pid %ld)\n",
		 (long)getpid());
	assert_string_equal(line, want);
	close(fd);
	store_release(&st);
	free(path);
}

static void test_store_lock_fails_on_missing_root(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *root = fx_path(fx, "missing");
	struct store st;

	assert_int_equal(store_open(&st, root, false, &err), CUENV_OK);
	assert_int_equal(store_lock(&st, &err), CUENV_E_STORE);
	assert_int_equal(st.lock_fd, -1);
	err_release(&err);
	store_release(&st);
	free(root);
}

/* ---- stamps -------------------------------------------------------------- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double mtime_s(const char *path)
{
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	return (double)st.st_mtim.tv_sec + (double)st.st_mtim.tv_nsec / 1e9;
}

static void test_store_stamp_creates_backdated_stamp(void **state)
{
	struct fixture *fx = *state;
	struct buf path = BUF_INIT, want = BUF_INIT;
	struct store st;
	double before, after, m;

	open_store(fx, &st);
	buf_path(&want, st.root, "run");
	buf_printf(&want, "/%ld.stamp", (long)getpid());
	before = now_s();
	store_stamp(&st, (long)getpid(), &path);
	after = now_s();
	assert_string_equal(path.data, want.data);
	m = mtime_s(path.data);
	/* a little in the past: 50ms before the call's clock reading */
	assert_true(m <= after - 0.04);
	assert_true(m > before - 1.5);
	store_release(&st);
	buf_release(&path);
	buf_release(&want);
}

static void test_store_stamp_refreshes_existing_stamp(void **state)
{
	struct fixture *fx = *state;
	struct buf path = BUF_INIT;
	struct timespec old[2] = {{1000000000, 0}, {1000000000, 0}};
	struct store st;

	open_store(fx, &st);
	store_stamp(&st, (long)getpid(), &path);
	assert_int_equal(utimensat(AT_FDCWD, path.data, old, 0), 0);
	store_stamp(&st, (long)getpid(), &path);
	assert_true(path.len > 0);
	assert_true(mtime_s(path.data) > now_s() - 10);
	store_release(&st);
	buf_release(&path);
}

static void test_store_stamp_makes_missing_run_folder(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf path = BUF_INIT, rel = BUF_INIT;
	char *root = fx_path(fx, "store");
	struct store st;

	fx_mkdir(fx, "store");
	assert_int_equal(store_open(&st, root, false, &err), CUENV_OK);
	store_stamp(&st, (long)getpid(), &path);
	assert_true(path.len > 0);
	buf_printf(&rel, "store/run/%ld.stamp", (long)getpid());
	assert_true(fx_exists(fx, rel.data));
	buf_release(&rel);
	store_release(&st);
	buf_release(&path);
	free(root);
}

static void test_store_stamp_failure_leaves_path_empty(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf path = BUF_INIT;
	char *root = fx_path(fx, "store");
	struct store st;

	fx_write(fx, "store", "a file, not a folder\n");
	assert_int_equal(store_open(&st, root, false, &err), CUENV_OK);
	buf_adds(&path, "stale");
	store_stamp(&st, (long)getpid(), &path);
	assert_string_equal(path.data, "");
	store_release(&st);
	buf_release(&path);
	free(root);
}

static long dead_pid(void)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return (long)pid;
}

static void test_store_stamp_sweeps_stamps_of_dead_shells(void **state)
{
	struct fixture *fx = *state;
	struct buf path = BUF_INIT, rel = BUF_INIT;
	long dead = dead_pid();
	struct store st;

	open_store(fx, &st);
	buf_printf(&rel, "store/run/%ld.stamp", dead);
	fx_touch(fx, rel.data);
	fx_touch(fx, "store/run/1.stamp"); /* init: alive */
	fx_touch(fx, "store/run/notes.txt");
	store_stamp(&st, (long)getpid(), &path);
	assert_false(fx_exists(fx, rel.data));
	assert_true(fx_exists(fx, "store/run/1.stamp"));
	assert_true(fx_exists(fx, "store/run/notes.txt"));
	assert_true(path.len > 0);
	assert_int_equal(fx_count_entries(fx, "store/run"), 3);
	store_release(&st);
	buf_release(&path);
	buf_release(&rel);
}

#define FS_TEST(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(
		test_install_name_is_version_or_version_dash_cuda_major),
	    cmocka_unit_test(test_install_name_validation_for_cuda),
	    cmocka_unit_test(test_install_name_validation_for_cudnn),
	    cmocka_unit_test(test_kit_kind_names_round_trip),
	    FS_TEST(test_store_is_dir_follows_links),
	    FS_TEST(test_store_open_with_create_makes_the_folders),
	    FS_TEST(test_store_open_without_create_makes_nothing),
	    cmocka_unit_test(test_store_open_rejects_relative_root),
	    FS_TEST(test_store_open_fails_when_root_is_a_file),
	    FS_TEST(test_store_global_path_is_root_version),
	    FS_TEST(test_store_register_then_list_round_trips),
	    FS_TEST(test_store_receipt_is_json_with_dirs_relative_to_prefix),
	    FS_TEST(test_store_register_leaves_nothing_in_staging),
	    FS_TEST(test_store_register_of_cudnn_names_cuda_major),
	    FS_TEST(test_store_list_sorts_oldest_first),
	    FS_TEST(test_store_list_of_missing_versions_folder_is_empty),
	    FS_TEST(test_store_list_skips_version_dir_without_receipt_silently),
	    FS_TEST(test_store_list_skips_hidden_entries),
	    FS_TEST(test_store_list_reports_corrupt_receipt_in_warnings),
	    FS_TEST(test_store_list_reads_hand_written_registered_receipt),
	    FS_TEST(test_store_list_rejects_receipt_with_dir_escaping_prefix),
	    FS_TEST(test_store_list_rejects_receipt_with_absolute_dir),
	    FS_TEST(test_store_list_rejects_receipt_with_colon_in_dir),
	    FS_TEST(test_store_list_rejects_receipt_with_colon_in_prefix),
	    FS_TEST(test_store_list_rejects_receipt_with_newline_in_prefix),
	    FS_TEST(test_store_register_writes_receipt_0644_whatever_umask),
	    FS_TEST(test_store_list_rejects_receipt_with_invalid_version),
	    FS_TEST(test_store_list_rejects_receipt_of_other_kind),
	    FS_TEST(test_store_list_rejects_registered_receipt_without_prefix),
	    FS_TEST(test_store_list_reads_installed_receipt_with_dir_as_prefix),
	    FS_TEST(test_store_register_of_taken_name_fails),
	    FS_TEST(test_store_delete_removes_the_version_dir),
	    FS_TEST(test_store_delete_of_registered_install_keeps_its_files),
	    FS_TEST(test_store_delete_removes_installed_tree),
	    FS_TEST(test_store_delete_of_missing_dir_fails),
	    FS_TEST(test_store_delete_failure_leaves_staging_empty),
	    FS_TEST(test_store_remove_tree_removes_a_tree_deeper_than_path_max),
	    FS_TEST(test_store_remove_tree_never_follows_links),
	    FS_TEST(test_store_remove_tree_of_a_missing_path_fails),
	    FS_TEST(test_store_remove_tree_empties_read_only_folders),
	    FS_TEST(test_store_measure_tree_stops_at_a_linked_file),
	    FS_TEST(test_store_delete_leaves_no_trash_lock),
	    FS_TEST(test_store_lock_excludes_other_processes),
	    FS_TEST(test_store_lock_excludes_shared_holders),
	    FS_TEST(test_store_lock_shared_admits_only_other_readers),
	    FS_TEST(test_store_lock_twice_is_harmless),
	    FS_TEST(test_store_lock_fails_on_missing_root),
	    FS_TEST(test_store_lock_path_excludes_same_process),
	    FS_TEST(test_store_lock_names_its_holder),
	    FS_TEST(test_store_stamp_creates_backdated_stamp),
	    FS_TEST(test_store_stamp_refreshes_existing_stamp),
	    FS_TEST(test_store_stamp_makes_missing_run_folder),
	    FS_TEST(test_store_stamp_failure_leaves_path_empty),
	    FS_TEST(test_store_stamp_sweeps_stamps_of_dead_shells),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
