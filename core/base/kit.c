#include "base/kit.h"

#include "base/buf.h"

/* By enum kit_kind. */
static const char *const kind_names[KIT_KINDS] = { "cuda", "cudnn", "cupti" };

const char *kit_kind_name(enum kit_kind kind)
{
	return (unsigned)kind < KIT_KINDS ? kind_names[kind] : "cupti";
}

int kit_kind_parse(const char *s, enum kit_kind *kind)
{
	long i = str_index(kind_names, KIT_KINDS, s);

	if (i >= 0)
		*kind = (enum kit_kind)i;
	return i < 0 ? -1 : 0;
}
