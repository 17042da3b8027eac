/*
 * register.c: `cuenv add`'s decisions about what it found (see the
 * header).
 */
#include "register.h"

#include <stdlib.h>
#include <string.h>

#include "trust.h"

int register_listable(const struct install *in, struct cuenv_err *err)
{
	const struct strv *lists[] = { &in->bin, &in->lib, &in->include,
				       &in->cupti };
	int rc = trust_check_listable(in->prefix, "the folder", err);

	for (size_t k = 0; !rc && k < sizeof(lists) / sizeof(*lists); k++)
		for (size_t i = 0; !rc && i < lists[k]->n; i++)
			rc = trust_check_listable(lists[k]->v[i], "the folder",
						  err);
	return rc;
}

int register_record(struct store *st, struct install *in, struct cuenv_err *err)
{
	struct install_list list = { 0 };
	char *name = install_make_name(in);
	int rc = store_list(st, in->kind, &list, err);

	for (size_t i = 0; !rc && i < list.n; i++) {
		const struct install *old = list.v[i];

		if (strcmp(old->name, name))
			continue;
		if (old->registered && !strcmp(old->prefix, in->prefix)) {
			rc = CUENV_NO; /* nothing to do, not an error */
		} else {
			rc = cuenv_fail(err, CUENV_E_CONFLICT,
					"%s %s is already in the store (%s)",
					kit_kind_name(in->kind), name,
					old->registered ? old->prefix
							: "installed by cuenv");
			cuenv_hint(err,
				   "remove it first (cuenv remove %s %s), or "
				   "register this one under another version "
				   "with --as",
				   kit_kind_name(in->kind), name);
		}
	}
	if (!rc)
		rc = store_register(st, in, err);
	free(name);
	install_list_release(&list);
	return rc;
}

void register_already(const struct install *in, struct buf *out)
{
	char *name = install_make_name(in);

	buf_printf(out, "%s %s is already registered from %s\n",
		   kit_kind_name(in->kind), name, in->prefix);
	free(name);
}

void register_describe(const struct install *in, struct buf *out)
{
	buf_printf(out, "registered %s %s", kit_kind_name(in->kind),
		   in->version);
	if (in->kind == KIT_CUDNN)
		buf_printf(out, " for CUDA %u", in->cuda_major);
	buf_printf(out, " from %s", in->prefix);
	if (in->kind == KIT_CUDA)
		buf_printf(out, in->cupti.n ? " (CUPTI %s)" : " (no CUPTI)",
			   in->cupti_version ? in->cupti_version : "found");
	buf_adds(out, "\n");
}

/* ---- remove and uninstall ------------------------------------------------- */

int register_remove(struct store *st, const struct install *in, struct buf *out,
		    struct cuenv_err *err)
{
	struct install_list inner = { 0 };
	int rc;

	if (!in->registered) {
		rc = cuenv_fail(err, CUENV_E_CONFLICT,
				"%s %s was installed by cuenv, not registered",
				kit_kind_name(in->kind), in->name);
		cuenv_hint(err, "delete it: cuenv uninstall %s %s",
			   kit_kind_name(in->kind), in->name);
		return rc;
	}
	rc = store_delete(st, in, err);
	if (rc)
		return rc;
	buf_printf(out, "removed %s %s (%s, left in place)\n",
		   kit_kind_name(in->kind), in->name, in->prefix);
	if (in->kind != KIT_CUDA)
		return CUENV_OK;
	rc = store_list(st, KIT_CUDNN, &inner, err);
	for (size_t i = 0; !rc && i < inner.n; i++) {
		if (!inner.v[i]->registered ||
		    strcmp(inner.v[i]->prefix, in->prefix))
			continue;
		rc = store_delete(st, inner.v[i], err);
		if (!rc)
			buf_printf(out, "removed cudnn %s (inside it)\n",
				   inner.v[i]->name);
	}
	install_list_release(&inner);
	return rc;
}

int register_uninstall(struct store *st, const struct install *in,
		       struct buf *out, struct cuenv_err *err)
{
	int rc;

	if (in->registered) {
		rc = cuenv_fail(err, CUENV_E_CONFLICT,
				"%s %s was registered from %s; cuenv does not "
				"delete files it did not install",
				kit_kind_name(in->kind), in->name, in->prefix);
		cuenv_hint(err, "unregister it: cuenv remove %s %s",
			   kit_kind_name(in->kind), in->name);
		return rc;
	}
	rc = store_delete(st, in, err);
	if (!rc)
		buf_printf(out, "uninstalled %s %s\n", kit_kind_name(in->kind),
			   in->name);
	return rc;
}
