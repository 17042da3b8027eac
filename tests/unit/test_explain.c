#include "fakes/fixture.h"

#include "../../core/explain.h"

static void test_explain_placeholder(void **state)
{
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_explain_placeholder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
