/*
 * What install fetches for a request: the archives of a release, the
 * options each kind takes, the installs of one request, and the cuDNN a
 * minimum asks for. Releases are NVIDIA-shaped redist manifests parsed
 * by the catalogue, or made by hand where only their versions matter.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "install/plan.h"

#define SHA "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
#define COMPONENT(name, ver, path)                                             \
	" \"" name "\": {\"version\": \"" ver "\", \"linux-x86_64\":"          \
	" {\"relative_path\": \"" path "\", \"sha256\": \"" SHA "\","          \
	" \"size\": \"10\"}}"

/* CUDA 12.4.1 with a runtime, a compiler and a component in neither
 * default set. */
static const char cuda_json[] =
    "{\"release_label\": \"12.4.1\", \"release_product\": \"cuda\"," COMPONENT(
	"cuda_nvcc", "12.4.131",
	"cuda_nvcc/n.tar.xz") "," COMPONENT("cuda_demo_suite", "12.4.127",
					    "demo/d.tar.xz") "," COMPONENT("cuda_cudart",
									   "12.4.127",
									   "cuda_cudart/c.tar.xz") "}";

static const struct release *load(struct catalog *cat)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	assert_int_equal(catalog_parse_redist(cat, "c.json", cuda_json,
					      strlen(cuda_json), "linux-x86_64",
					      NULL, NULL, &err),
			 CUENV_OK);
	err_release(&err);
	assert_int_equal(cat->n, 1);
	return cat->v[0];
}

static void test_plan_default_set_skips_what_a_release_lacks(void **state)
{
	struct catalog cat = {0};
	const struct release *rel = load(&cat);
	struct plan_opts o = {0};
	struct strv names = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(plan_archives(rel, &o, &names, &err), CUENV_OK);
	/* the default set's order; cuda_demo_suite is in no set */
	assert_int_equal(names.n, 2);
	assert_string_equal(names.v[0], "cuda_cudart");
	assert_string_equal(names.v[1], "cuda_nvcc");
	strv_release(&names);
	o.runtime_only = 1;
	assert_int_equal(plan_archives(rel, &o, &names, &err), CUENV_OK);
	assert_int_equal(names.n, 1);
	assert_string_equal(names.v[0], "cuda_cudart");
	strv_release(&names);
	catalog_release(&cat);
}

static void test_plan_explicit_components_once_each(void **state)
{
	struct catalog cat = {0};
	const struct release *rel = load(&cat);
	struct strv want = STRV_INIT, names = STRV_INIT;
	struct plan_opts o = {.components = &want};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	strv_push(&want, "cuda_demo_suite");
	strv_push(&want, "cuda_cudart");
	strv_push(&want, "cuda_demo_suite");
	assert_int_equal(plan_archives(rel, &o, &names, &err), CUENV_OK);
	assert_int_equal(names.n, 2);
	assert_string_equal(names.v[0], "cuda_demo_suite");
	assert_string_equal(names.v[1], "cuda_cudart");
	strv_release(&names);
	strv_release(&want);
	catalog_release(&cat);
}

static void test_plan_rejects_a_component_the_release_lacks(void **state)
{
	struct catalog cat = {0};
	const struct release *rel = load(&cat);
	struct strv want = STRV_INIT, names = STRV_INIT;
	struct plan_opts o = {.components = &want};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	strv_push(&want, "cuda_nosuch");
	assert_int_equal(plan_archives(rel, &o, &names, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "cuda 12.4.1 has no component 'cuda_nosuch'");
	/* the hint names every component it has */
	assert_non_null(strstr(err.hint.data, "cuda_nvcc"));
	assert_non_null(strstr(err.hint.data, "cuda_demo_suite"));
	assert_non_null(strstr(err.hint.data, "cuda_cudart"));
	err_release(&err);
	strv_release(&names);
	strv_release(&want);
	catalog_release(&cat);
}

static void test_plan_runfile_takes_components_unchecked(void **state)
{
	struct part whole = {.name = "runfile"};
	struct release rel = {.kind = KIT_CUDA,
			      .source = SRC_RUNFILE,
			      .version = "11.2.2",
			      .parts = &whole,
			      .nparts = 1};
	struct strv want = STRV_INIT, names = STRV_INIT;
	struct plan_opts o = {.components = &want};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	strv_push(&want, "cuda_nvcc");
	assert_int_equal(plan_archives(&rel, &o, &names, &err), CUENV_OK);
	assert_int_equal(names.n, 1);
	assert_string_equal(names.v[0], "cuda_nvcc");
	strv_release(&names);
	/* a runfile has no redist manifest: the default set, unfiltered */
	o.components = NULL;
	o.runtime_only = 1;
	assert_int_equal(plan_archives(&rel, &o, &names, &err), CUENV_OK);
	assert_int_equal(names.n, 9);
	assert_string_equal(names.v[8], "libnvjitlink");
	strv_release(&names);
	strv_release(&want);
}

static void test_plan_cupti_and_cudnn_take_their_own_archive(void **state)
{
	struct catalog cat = {0};
	struct release rel = *load(&cat);
	struct part dnn = {.name = "cudnn"};
	struct release cudnn = {.kind = KIT_CUDNN,
				.source = SRC_TARBALL,
				.version = "9.1.0.70",
				.cuda_major = 12,
				.parts = &dnn,
				.nparts = 1};
	struct strv want = STRV_INIT, names = STRV_INIT;
	struct plan_opts o = {.components = &want};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	strv_push(&want, "cuda_nvcc");
	rel.kind = KIT_CUPTI;
	assert_int_equal(plan_archives(&rel, &o, &names, &err), CUENV_OK);
	assert_int_equal(names.n, 1);
	assert_string_equal(names.v[0], "cuda_cupti");
	strv_release(&names);
	assert_int_equal(plan_archives(&cudnn, &o, &names, &err), CUENV_OK);
	assert_int_equal(names.n, 1);
	assert_string_equal(names.v[0], "cudnn");
	strv_release(&names);
	strv_release(&want);
	catalog_release(&cat);
}

static void test_plan_opts_for_each_kind(void **state)
{
	struct strv want = STRV_INIT;
	struct plan_opts asked = {.runtime_only = 1, .components = &want};
	struct plan_opts o;

	(void)state;
	o = plan_opts_for(KIT_CUDA, &asked);
	assert_int_equal(o.runtime_only, 1);
	assert_ptr_equal(o.components, &want);
	/* cuDNN: no component list, but still only its libraries */
	o = plan_opts_for(KIT_CUDNN, &asked);
	assert_int_equal(o.runtime_only, 1);
	assert_null(o.components);
	o = plan_opts_for(KIT_CUPTI, &asked);
	assert_int_equal(o.runtime_only, 0);
	assert_null(o.components);
}

static void test_plan_steps_order_and_keep_partial(void **state)
{
	struct release cuda = {.kind = KIT_CUDA,
			       .source = SRC_REDIST,
			       .version = "12.4.1",
			       .cuda_major = 12};
	struct release cudnn = {.kind = KIT_CUDNN,
				.source = SRC_REDIST,
				.version = "9.1.0.70",
				.cuda_major = 12};
	struct release cupti = cuda;
	struct catalog_choice ch = {.cuda = &cuda};
	struct plan_opts asked = {.runtime_only = 1};
	struct plan_step s[KIT_KINDS];

	(void)state;
	cupti.version = "12.6.3";
	assert_int_equal(plan_steps(&ch, -1, &asked, s), 1);
	assert_int_equal(s[0].rel.kind, KIT_CUDA);
	assert_int_equal(s[0].keep_partial, 0);
	assert_int_equal(s[0].opts.runtime_only, 1);

	ch.cudnn = &cudnn;
	ch.cupti = &cupti;
	assert_int_equal(plan_steps(&ch, SRC_REDIST, &asked, s), 3);
	assert_string_equal(s[0].rel.version, "12.4.1");
	assert_int_equal(s[0].keep_partial, 1);
	assert_int_equal(s[1].rel.kind, KIT_CUDNN);
	assert_int_equal(s[1].opts.runtime_only, 1);
	assert_int_equal(s[1].keep_partial, 0);
	/* CUPTI from a CUDA release, installed as its own kind */
	assert_int_equal(s[2].rel.kind, KIT_CUPTI);
	assert_string_equal(s[2].rel.version, "12.6.3");
	assert_int_equal(s[2].opts.runtime_only, 0);
	assert_int_equal(s[2].rel.source, SRC_REDIST);
	/* the catalogue's release is not changed */
	assert_int_equal(cupti.kind, KIT_CUDA);
}

static void test_plan_steps_explicit_components_keep_nothing(void **state)
{
	struct release cuda = {.kind = KIT_CUDA,
			       .source = SRC_REDIST,
			       .version = "12.4.1",
			       .cuda_major = 12};
	struct release cudnn = {.kind = KIT_CUDNN,
				.source = SRC_TARBALL,
				.version = "9.1.0.70",
				.cuda_major = 12};
	struct catalog_choice ch = {.cuda = &cuda, .cudnn = &cudnn};
	struct strv want = STRV_INIT;
	struct plan_opts asked = {.components = &want};
	struct plan_step s[KIT_KINDS];

	(void)state;
	assert_int_equal(plan_steps(&ch, -1, &asked, s), 2);
	assert_int_equal(s[0].keep_partial, 0);
	assert_ptr_equal(s[0].opts.components, &want);
	assert_null(s[1].opts.components);
}

static void test_plan_steps_pypi_applies_to_every_release(void **state)
{
	struct release cuda = {.kind = KIT_CUDA,
			       .source = SRC_REDIST,
			       .version = "12.4.1",
			       .cuda_major = 12};
	struct release cudnn = {.kind = KIT_CUDNN,
				.source = SRC_TARBALL,
				.version = "9.1.0.70",
				.cuda_major = 12};
	struct catalog_choice ch = {
	    .cuda = &cuda, .cudnn = &cudnn, .cupti = &cuda};
	struct plan_opts asked = {0};
	struct plan_step s[KIT_KINDS];

	(void)state;
	assert_int_equal(plan_steps(&ch, SRC_PYPI, &asked, s), 3);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(s[i].rel.source, SRC_PYPI);
	assert_int_equal(cuda.source, SRC_REDIST);
	assert_int_equal(cudnn.source, SRC_TARBALL);
}

static void test_plan_locked_toolkit_gets_exactly_its_parts(void **state)
{
	struct catalog cat = {0};
	const struct release *rel = load(&cat);
	struct strv names = STRV_INIT, want = STRV_INIT;
	struct plan_opts asked = {0}, o;

	(void)state;
	o = plan_locked_opts(rel, KIT_CUDA, &asked, &names);
	assert_ptr_equal(o.components, &names);
	assert_int_equal(names.n, 3);
	assert_true(strv_find(&names, "cuda_demo_suite") >= 0);
	strv_release(&names);
	/* narrowed further: as asked */
	asked.runtime_only = 1;
	o = plan_locked_opts(rel, KIT_CUDA, &asked, &names);
	assert_null(o.components);
	assert_int_equal(o.runtime_only, 1);
	assert_int_equal(names.n, 0);
	asked.runtime_only = 0;
	asked.components = &want;
	o = plan_locked_opts(rel, KIT_CUDA, &asked, &names);
	assert_ptr_equal(o.components, &want);
	assert_int_equal(names.n, 0);
	/* a locked cuDNN or CUPTI: neither list nor runtime_only */
	asked.runtime_only = 1;
	o = plan_locked_opts(rel, KIT_CUDNN, &asked, &names);
	assert_null(o.components);
	assert_int_equal(o.runtime_only, 0);
	o = plan_locked_opts(rel, KIT_CUPTI, &asked, &names);
	assert_null(o.components);
	assert_int_equal(o.runtime_only, 0);
	catalog_release(&cat);
}

static void test_plan_cudnn_at_least_prefers_the_exact_version(void **state)
{
	struct release r[] = {
	    {.kind = KIT_CUDNN, .version = "8.9.7.29", .cuda_major = 12},
	    {.kind = KIT_CUDNN, .version = "9.1.0.70", .cuda_major = 12},
	    {.kind = KIT_CUDNN, .version = "9.1.1.17", .cuda_major = 12},
	    {.kind = KIT_CUDNN, .version = "9.3.0.75", .cuda_major = 12},
	    {.kind = KIT_CUDNN, .version = "9.1.0.70", .cuda_major = 11},
	    {.kind = KIT_CUDA, .version = "9.2.148", .cuda_major = 9},
	};
	struct release *v[] = {&r[0], &r[1], &r[2], &r[3], &r[4], &r[5]};
	struct catalog cat = {.v = v, .n = 6};

	(void)state;
	assert_string_equal(plan_cudnn_at_least(&cat, 12, "9.1"), "9.1.1.17");
	assert_string_equal(plan_cudnn_at_least(&cat, 12, "9.1.0.70"),
			    "9.1.0.70");
	/* none of that version: the newest later one of its major */
	assert_string_equal(plan_cudnn_at_least(&cat, 12, "9.2"), "9.3.0.75");
	assert_string_equal(plan_cudnn_at_least(&cat, 12, "8.9"), "8.9.7.29");
	assert_string_equal(plan_cudnn_at_least(&cat, 11, "9"), "9.1.0.70");
	assert_null(plan_cudnn_at_least(&cat, 12, "9.4"));
	assert_null(plan_cudnn_at_least(&cat, 11, "9.2"));
	assert_null(plan_cudnn_at_least(&cat, 9, "9.2"));
}

/* ---- install --for ------------------------------------------------------- */

static void test_plan_framework_arg_splits_and_checks(void **state)
{
	struct buf name = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	const char *spec;

	(void)state;
	assert_int_equal(
	    plan_framework_arg("tensorflow==2.6", &name, &spec, &err),
	    CUENV_OK);
	assert_string_equal(name.data, "tensorflow");
	assert_string_equal(spec, "2.6");
	buf_reset(&name);
	assert_int_equal(plan_framework_arg("jax", &name, &spec, &err),
			 CUENV_OK);
	assert_string_equal(name.data, "jax");
	assert_null(spec);
	buf_reset(&name);
	assert_int_equal(plan_framework_arg("keras==3", &name, &spec, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "--for: 'keras==3' is not FRAMEWORK==VERSION");
	err_release(&err);
	buf_reset(&name);
	assert_int_equal(plan_framework_arg("torch==2.x", &name, &spec, &err),
			 CUENV_E_USAGE);
	err_release(&err);
	buf_release(&name);
}

#define TSV_HEAD "framework\tversion\tcuda\tcudnn\tsource\tnotes\n"

static void test_plan_framework_rows_updated_table_first(void **state)
{
	struct fixture *fx = *state;
	struct framework_builds rows = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	char *shipped, *updated, *empty;

	fx_write(fx, "shipped/frameworks.tsv",
		 TSV_HEAD "tensorflow\ttensorflow-2.5.0\t11.2\t8.1\ts\t\n"
			  "tensorflow\ttensorflow-2.6.0\t11.2\t8.1\ts\t\n"
			  "jax\tjax-0.4.30\t12.4\t9.1\ts\t\n");
	fx_write(fx, "updated/frameworks.tsv",
		 TSV_HEAD "tensorflow\ttensorflow-2.6.0\t11.2\t8.2\tindex\t\n");
	fx_mkdir(fx, "empty");
	shipped = fx_path(fx, "shipped");
	updated = fx_path(fx, "updated");
	empty = fx_path(fx, "empty");
	assert_int_equal(plan_framework_rows(shipped, updated, "tensorflow",
					     NULL, &rows, &err),
			 CUENV_OK);
	/* the newest release first; the index's row before the table's */
	assert_int_equal(rows.n, 3);
	assert_string_equal(rows.v[0].version, "2.6.0");
	assert_string_equal(rows.v[0].cudnn, "8.2");
	assert_string_equal(rows.v[1].version, "2.6.0");
	assert_string_equal(rows.v[1].cudnn, "8.1");
	assert_string_equal(rows.v[2].version, "2.5.0");
	framework_builds_release(&rows);
	assert_int_equal(plan_framework_rows(shipped, empty, "tensorflow",
					     "2.6", &rows, &err),
			 CUENV_OK);
	assert_int_equal(rows.n, 1);
	assert_string_equal(rows.v[0].cudnn, "8.1");
	framework_builds_release(&rows);
	assert_int_equal(
	    plan_framework_rows(shipped, NULL, "jax", NULL, &rows, &err),
	    CUENV_OK);
	assert_int_equal(rows.n, 1);
	assert_string_equal(rows.v[0].cuda, "12.4");
	framework_builds_release(&rows);
	/* no shipped table: an error, whatever the index said */
	assert_int_equal(plan_framework_rows(empty, updated, "tensorflow", NULL,
					     &rows, &err),
			 CUENV_E_MANIFEST);
	assert_int_equal(rows.n, 0);
	err_release(&err);
	free(shipped);
	free(updated);
	free(empty);
}

/* A release only the updated table has (the shipped one has no row of
 * it): the updated rows alone, nothing copied from an empty list (a
 * memcpy from NULL, which SANITIZE=1 stops on). */
static void test_plan_framework_rows_only_the_updated_table_has_it(void **state)
{
	struct fixture *fx = *state;
	struct framework_builds rows = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	char *shipped, *updated;

	fx_write(fx, "shipped/frameworks.tsv",
		 TSV_HEAD "jax\tjax-0.4.30\t12.4\t9.1\ts\t\n");
	fx_write(fx, "updated/frameworks.tsv",
		 TSV_HEAD "jax\tjax-0.4.99\t12.8\t\tindex\t\n");
	shipped = fx_path(fx, "shipped");
	updated = fx_path(fx, "updated");
	assert_int_equal(
	    plan_framework_rows(shipped, updated, "jax", "0.4.99", &rows, &err),
	    CUENV_OK);
	assert_int_equal(rows.n, 1);
	assert_string_equal(rows.v[0].version, "0.4.99");
	assert_string_equal(rows.v[0].cuda, "12.8");
	assert_null(rows.v[0].cudnn);
	framework_builds_release(&rows);
	err_release(&err);
	free(shipped);
	free(updated);
}

static void test_plan_framework_pick_first_installable(void **state)
{
	struct catalog cat = {0};
	struct framework_build b[] = {
	    {.framework = "jax", .version = "0.5.0", .cuda = "12.6"},
	    {.framework = "jax", .version = "0.4.30", .cuda = "12.4"},
	};
	struct framework_builds rows = {.v = b, .n = 2};
	struct cuenv_err first = CUENV_ERR_INIT;

	(void)state;
	load(&cat);
	assert_ptr_equal(plan_framework_pick(&rows, &cat, NULL, -1, &first),
			 &b[1]);
	/* why the preferred row could not be */
	assert_int_not_equal(first.rc, CUENV_OK);
	assert_non_null(strstr(first.msg.data, "12.6"));
	err_release(&first);
	/* asked exactly as install asks: with the cuDNN given */
	assert_null(plan_framework_pick(&rows, &cat, "9.1", -1, &first));
	assert_non_null(strstr(first.msg.data, "12.6"));
	err_release(&first);
	catalog_release(&cat);
}

static void test_plan_framework_choose_rows_then_pick(void **state)
{
	struct fixture *fx = *state;
	struct framework_choice c = FRAMEWORK_CHOICE_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct catalog cat = {0};
	char *shipped, *hint;

	load(&cat);
	fx_write(fx, "shipped/frameworks.tsv",
		 TSV_HEAD "jax\tjax-0.4.30\t12.4\t\ts\t\n"
			  "jax\tjax-0.5.0\t12.6\t\ts\t\n");
	shipped = fx_path(fx, "shipped");
	/* the newest release first; 12.6 is not in the catalogue */
	assert_int_equal(plan_framework_choose(shipped, NULL, "jax", NULL, &cat,
					       NULL, -1, &c, &err),
			 CUENV_OK);
	assert_int_equal(c.rows.n, 2);
	assert_non_null(c.best);
	assert_string_equal(c.best->version, "0.4.30");
	assert_non_null(strstr(c.first.msg.data, "12.6"));
	framework_choice_release(&c);
	/* none can be: why the first cannot, the rows kept to say which */
	assert_int_not_equal(plan_framework_choose(shipped, NULL, "jax", NULL,
						   &cat, "9.1", -1, &c, &err),
			     CUENV_OK);
	assert_int_equal(c.rows.n, 2);
	assert_null(c.best);
	assert_non_null(strstr(err.msg.data, "12.6"));
	framework_choice_release(&c);
	err_release(&err);
	/* a release the table lacks */
	assert_int_equal(plan_framework_choose(shipped, NULL, "jax", "0.3",
					       &cat, NULL, -1, &c, &err),
			 CUENV_E_UNKNOWN);
	assert_string_equal(err.msg.data,
			    "no jax 0.3 with CUDA in the framework table");
	hint = fx_path(fx, "shipped/frameworks.tsv");
	assert_non_null(strstr(err.hint.data, hint));
	framework_choice_release(&c);
	err_release(&err);
	catalog_release(&cat);
	free(shipped);
	free(hint);
}

/* What install --for and mirror --for say of a choice, and its copy. */
static void test_plan_framework_notes_say_what_was_skipped(void **state)
{
	struct fixture *fx = *state;
	struct framework_choice c = FRAMEWORK_CHOICE_INIT;
	struct framework_builds out = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct strv notes = STRV_INIT;
	struct catalog cat = {0};
	struct buf want = BUF_INIT;
	char *shipped;
	int rc;

	load(&cat);
	fx_write(fx, "shipped/frameworks.tsv",
		 TSV_HEAD "jax\tjax-0.4.30\t12.4\t\ts\tn\n"
			  "jax\tjax-0.4.31\t12.6\t\ts\t\n"
			  "jax\tjax-0.5.0\t12.6\t9.2\ts\t\n");
	shipped = fx_path(fx, "shipped");
	rc = plan_framework_choose(shipped, NULL, "jax", NULL, &cat, NULL, -1,
				   &c, &err);
	assert_int_equal(rc, CUENV_OK);
	plan_framework_notes(&c, rc, &notes);
	assert_int_equal(notes.n, 2);
	buf_printf(&want,
		   "skipped jax 0.5.0 with CUDA 12.6 and 1 more build: %s",
		   c.first.msg.data);
	assert_string_equal(notes.v[0], want.data);
	assert_string_equal(notes.v[1], "jax 0.4.30 was built and tested with "
					"CUDA 12.4");
	plan_framework_best(&c, &out);
	assert_int_equal(out.n, 1);
	assert_string_equal(out.v[0].version, "0.4.30");
	assert_null(out.v[0].cudnn);
	assert_string_equal(out.v[0].notes, "n");
	assert_true(out.v[0].framework != c.best->framework); /* a copy */
	framework_builds_release(&out);
	framework_choice_release(&c);
	strv_release(&notes);
	/* none can be: the preferred row's build, and nothing copied */
	rc = plan_framework_choose(shipped, NULL, "jax", NULL, &cat, "9.9", -1,
				   &c, &err);
	assert_int_not_equal(rc, CUENV_OK);
	plan_framework_notes(&c, rc, &notes);
	assert_int_equal(notes.n, 1);
	assert_string_equal(notes.v[0], "jax 0.5.0 was built and tested with "
					"CUDA 12.6 and cuDNN 9.2");
	memset(&out, 0, sizeof(out));
	plan_framework_best(&c, &out);
	assert_int_equal(out.n, 0);
	assert_null(out.v);
	framework_choice_release(&c);
	strv_release(&notes);
	err_release(&err);
	catalog_release(&cat);
	buf_release(&want);
	free(shipped);
}

/* install --for and mirror --for: the tables found as the environment says. */
static void test_plan_framework_for_reads_both_tables(void **state)
{
	struct fixture *fx = *state;
	struct framework_builds out = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct strv notes = STRV_INIT;
	struct catalog cat = {0};
	struct buf only = BUF_INIT, none = BUF_INIT;
	char *ship = fx_path(fx, "ship"), *root = fx_path(fx, "root");
	char *envp[] = {NULL, NULL};

	load(&cat);
	fx_write(fx, "ship/compat/frameworks.tsv",
		 TSV_HEAD "jax\tjax-0.4.30\t12.4\t\ts\t\n"
			  "jax\tjax-0.5.0\t12.6\t\ts\t\n");
	fx_mkdir(fx, "root");
	buf_printf(&only, "CUENV_MANIFESTS=%s", ship);
	envp[0] = only.data;
	assert_int_equal(plan_framework_for(envp, NULL, root, "jax", &cat, NULL,
					    -1, &notes, &out, &err),
			 CUENV_OK);
	assert_int_equal(out.n, 1);
	assert_string_equal(out.v[0].version, "0.4.30");
	assert_int_equal(notes.n, 2);
	assert_true(
	    !strncmp(notes.v[0], "skipped jax 0.5.0 with CUDA 12.6", 32));
	assert_string_equal(notes.v[1], "jax 0.4.30 was built and tested with "
					"CUDA 12.4");
	framework_builds_release(&out);
	memset(&out, 0, sizeof(out));
	strv_release(&notes);
	/* what `cuenv update --frameworks` read comes first */
	fx_write(fx, "root/manifests/compat/frameworks.tsv",
		 TSV_HEAD "jax\tjax-0.4.31\t12.4\t\ts\t\n");
	assert_int_equal(plan_framework_for(envp, NULL, root, "jax", &cat, NULL,
					    -1, &notes, &out, &err),
			 CUENV_OK);
	assert_int_equal(out.n, 1);
	assert_string_equal(out.v[0].version, "0.4.31");
	framework_builds_release(&out);
	memset(&out, 0, sizeof(out));
	strv_release(&notes);
	/* none can be: the preferred build said, nothing picked */
	assert_int_not_equal(plan_framework_for(envp, NULL, root, "jax==0.5.0",
						&cat, NULL, -1, &notes, &out,
						&err),
			     CUENV_OK);
	assert_non_null(strstr(err.msg.data, "12.6"));
	assert_int_equal(out.n, 0);
	assert_int_equal(notes.n, 1);
	assert_string_equal(notes.v[0], "jax 0.5.0 was built and tested with "
					"CUDA 12.6");
	err_release(&err);
	strv_release(&notes);
	/* a bad argument is said before missing tables */
	buf_printf(&none, "CUENV_MANIFESTS=%s/none", ship);
	envp[0] = none.data;
	assert_int_equal(plan_framework_for(envp, NULL, root, "numpy", &cat,
					    NULL, -1, &notes, &out, &err),
			 CUENV_E_USAGE);
	assert_non_null(strstr(err.msg.data, "numpy"));
	err_release(&err);
	assert_int_equal(plan_framework_for(envp, NULL, root, "jax", &cat, NULL,
					    -1, &notes, &out, &err),
			 CUENV_E_MANIFEST);
	assert_int_equal(notes.n, 0);
	assert_int_equal(out.n, 0);
	err_release(&err);
	strv_release(&notes);
	catalog_release(&cat);
	buf_release(&only);
	buf_release(&none);
	free(ship);
	free(root);
}

/* --components and --runtime-only, as install, lock and mirror take them. */
static void test_plan_opts_parse_and_check(void **state)
{
	struct plan_opts o = {0};
	struct strv comps = STRV_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(plan_opts_parse("lock", NULL, 1, &comps, &o, &err),
			 CUENV_OK);
	assert_int_equal(o.runtime_only, 1);
	assert_null(o.components);
	assert_int_equal(plan_opts_check("lock", &o, &err), CUENV_OK);
	assert_int_equal(plan_opts_parse("install", "cuda_cudart,libcublas", 0,
					 &comps, &o, &err),
			 CUENV_OK);
	assert_ptr_equal(o.components, &comps);
	assert_int_equal(comps.n, 2);
	assert_string_equal(comps.v[1], "libcublas");
	o.runtime_only = 1;
	assert_int_equal(plan_opts_check("mirror", &o, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "mirror: --components and "
					  "--runtime-only do not go together");
	strv_release(&comps);
	o.components = NULL;
	assert_int_equal(
	    plan_opts_parse("install", "cuda_cudart,,x", 0, &comps, &o, &err),
	    CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "install: bad component name ''");
	strv_release(&comps);
	assert_int_equal(
	    plan_opts_parse("install", "../x", 0, &comps, &o, &err),
	    CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "install: bad component name '../x'");
	assert_null(o.components);
	strv_release(&comps);
	err_release(&err);
}

/* --for from the wheel's own metadata: torch 2.1.2's nvidia-* pins. */
static void test_plan_framework_from_wheel(void **state)
{
	static const char meta[] =
	    "Name: torch\nVersion: 2.1.2\n"
	    "Requires-Dist: nvidia-cuda-runtime-cu12==12.1.105\n"
	    "Requires-Dist: nvidia-cudnn-cu12==8.9.2.26\n";
	struct release r[] = {
	    {.kind = KIT_CUDNN, .version = "8.9.2.26", .cuda_major = 12},
	    {.kind = KIT_CUDNN, .version = "8.9.7.29", .cuda_major = 12},
	    {.kind = KIT_CUDNN, .version = "8.9.7.29", .cuda_major = 11},
	};
	struct release *v[] = {&r[0], &r[1], &r[2]};
	struct catalog cat = {.v = v, .n = 3};
	struct framework_builds out = {0};
	struct buf why = BUF_INIT;
	struct needs_scan s;

	(void)state;
	needs_scan_init(&s);
	needs_read_metadata(&s, "/w/torch-2.1.2.dist-info/METADATA", meta,
			    strlen(meta));
	needs_scan_finish(&s);
	assert_int_equal(plan_framework_from_wheel(&s, "torch", "2.1.2",
						   "torch-2.1.2-cp311.whl",
						   &cat, &out, &why),
			 CUENV_OK);
	assert_int_equal(out.n, 1);
	assert_string_equal(out.v[0].framework, "torch");
	assert_string_equal(out.v[0].version, "2.1.2");
	assert_string_equal(out.v[0].cuda, "12.1");
	/* the pinned build is in the catalogue: that one */
	assert_string_equal(out.v[0].cudnn, "8.9.2.26");
	assert_string_equal(out.v[0].notes, "from the package index");
	framework_builds_release(&out);
	needs_scan_release(&s);

	/* metadata silent on CUDA: no row, and why */
	needs_scan_init(&s);
	needs_read_metadata(&s, "/w/x-1.0.dist-info/METADATA",
			    "Name: x\nVersion: 1.0\n", 21);
	needs_scan_finish(&s);
	memset(&out, 0, sizeof(out));
	assert_int_equal(plan_framework_from_wheel(&s, "x", "1.0", "x-1.0.whl",
						   &cat, &out, &why),
			 CUENV_NO);
	assert_int_equal(out.n, 0);
	assert_string_equal(why.data,
			    "the metadata of x-1.0.whl says nothing of CUDA");
	needs_scan_release(&s);
	buf_release(&why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plan_framework_from_wheel),
	    cmocka_unit_test(test_plan_default_set_skips_what_a_release_lacks),
	    cmocka_unit_test(test_plan_explicit_components_once_each),
	    cmocka_unit_test(test_plan_rejects_a_component_the_release_lacks),
	    cmocka_unit_test(test_plan_runfile_takes_components_unchecked),
	    cmocka_unit_test(test_plan_cupti_and_cudnn_take_their_own_archive),
	    cmocka_unit_test(test_plan_opts_for_each_kind),
	    cmocka_unit_test(test_plan_opts_parse_and_check),
	    cmocka_unit_test(test_plan_steps_order_and_keep_partial),
	    cmocka_unit_test(test_plan_steps_explicit_components_keep_nothing),
	    cmocka_unit_test(test_plan_steps_pypi_applies_to_every_release),
	    cmocka_unit_test(test_plan_locked_toolkit_gets_exactly_its_parts),
	    cmocka_unit_test(
		test_plan_cudnn_at_least_prefers_the_exact_version),
	    cmocka_unit_test(test_plan_framework_arg_splits_and_checks),
	    cmocka_unit_test_setup_teardown(
		test_plan_framework_rows_updated_table_first, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_plan_framework_rows_only_the_updated_table_has_it,
		fx_setup, fx_teardown),
	    cmocka_unit_test(test_plan_framework_pick_first_installable),
	    cmocka_unit_test_setup_teardown(
		test_plan_framework_choose_rows_then_pick, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_plan_framework_notes_say_what_was_skipped, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_plan_framework_for_reads_both_tables, fx_setup,
		fx_teardown),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
