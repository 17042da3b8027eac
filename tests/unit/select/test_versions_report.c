#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "select/versions_report.h"
#include "base/xalloc.h"

/* An activation listing CUDA 11.8 and 12.4 (active) and a cuDNN
 * registered from a system root, as activation_list leaves it; the
 * cuDNN's folder (/sys/cudnn) is gone. */
static void listing(struct activation *a)
{
	struct store_version *old =
	    fx_install_new(KIT_CUDA, "11.8.0", 11, "/r/11");
	struct store_version *cu =
	    fx_install_new(KIT_CUDA, "12.4.1", 12, "/r/12");
	struct store_version *dnn =
	    fx_install_new(KIT_CUDNN, "9.1.0", 12, "/sys/cudnn");

	activation_init(a);
	old->dir = xstrdup("/r/versions/cuda/11.8.0");
	cu->dir = xstrdup("/r/versions/cuda/12.4.1");
	dnn->dir = xstrdup("/sys/versions/cudnn/9.1.0");
	old->registered = cu->registered = false; /* installed */
	strv_push(&cu->notes, "cuda_cudart 12.4.127");
	fx_list_push(&a->cudas, old);
	fx_list_push(&a->cudas, cu);
	fx_list_push(&a->cudnns, dnn);
	a->act.cuda = cu;
	a->ok = 1;
}

static void test_versions_text_marks_active_registered_and_roots(void **s)
{
	struct activation a;
	struct buf out = BUF_INIT;

	(void)s;
	listing(&a);
	versions_text(&out, &a, "/r");
	assert_string_equal(
	    out.data,
	    "  cuda   11.8.0                /r/11\n"
	    "* cuda   12.4.1                /r/12\n"
	    "  cudnn  9.1.0 (cuda12)        /sys/cudnn  (registered)  "
	    "(missing)  (system root)\n");
	/* nothing resolved: nothing marked */
	a.ok = 0;
	buf_reset(&out);
	versions_text(&out, &a, "/r");
	assert_null(strchr(out.data, '*'));
	activation_release(&a);
	buf_release(&out);
}

static void test_versions_root_is_a_whole_folder_name(void **s)
{
	struct activation a;
	struct buf out = BUF_INIT;

	(void)s;
	listing(&a);
	/* /r/versions is not under /r/ver */
	versions_text(&out, &a, "/r/ver");
	assert_non_null(strstr(out.data, "/r/11  (system root)\n"));
	activation_release(&a);
	buf_release(&out);
}

static void test_versions_json_by_kind(void **s)
{
	struct activation a;
	json_t *j, *c;

	(void)s;
	listing(&a);
	j = versions_json(&a);
	assert_int_equal(json_array_size(json_object_get(j, "cuda")), 2);
	assert_int_equal(json_array_size(json_object_get(j, "cupti")), 0);
	c = json_array_get(json_object_get(j, "cuda"), 1);
	assert_string_equal(json_string_value(json_object_get(c, "version")),
			    "12.4.1");
	assert_true(json_is_true(json_object_get(c, "active")));
	assert_string_equal(
	    json_string_value(json_object_get(json_object_get(c, "components"),
					      "cuda_cudart")),
	    "12.4.127");
	c = json_array_get(json_object_get(j, "cudnn"), 0);
	assert_true(json_is_true(json_object_get(c, "registered")));
	assert_false(json_is_true(json_object_get(c, "active")));
	assert_null(json_object_get(c, "cupti")); /* a toolkit's only */
	assert_true(json_is_true(json_object_get(c, "missing")));
	c = json_array_get(json_object_get(j, "cuda"), 1);
	assert_true(json_is_false(json_object_get(c, "missing")));
	json_decref(j);
	activation_release(&a);
}

static void test_versions_render_each_format(void **s)
{
	struct activation a;
	struct buf out = BUF_INIT, want = BUF_INIT;

	(void)s;
	listing(&a);
	versions_render(&out, &a, "/r", VERSIONS_BARE);
	assert_string_equal(out.data, "11.8.0\n12.4.1\n");
	buf_reset(&out);
	versions_render(&out, &a, "/r", VERSIONS_TEXT);
	versions_text(&want, &a, "/r");
	assert_string_equal(out.data, want.data);
	buf_reset(&out);
	versions_render(&out, &a, "/r", VERSIONS_JSON);
	assert_true(!strncmp(out.data, "{\n  \"cuda\": [\n", 14));
	assert_string_equal(out.data + out.len - 2, "}\n");
	assert_false(versions_none(&a));
	activation_release(&a);
	activation_init(&a);
	assert_true(versions_none(&a));
	buf_reset(&out);
	versions_render(&out, &a, "/r", VERSIONS_BARE);
	assert_int_equal(out.len, 0);
	activation_release(&a);
	buf_release(&out);
	buf_release(&want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(
		test_versions_text_marks_active_registered_and_roots),
	    cmocka_unit_test(test_versions_root_is_a_whole_folder_name),
	    cmocka_unit_test(test_versions_json_by_kind),
	    cmocka_unit_test(test_versions_render_each_format),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
