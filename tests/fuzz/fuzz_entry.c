/*
 * fuzz_entry.c: libFuzzer target for unpack_check_entry(), the check that
 * stands between an untrusted archive entry and the disk.
 *
 * Input layout (anything shorter is padded with zeros):
 *
 *	byte 0     bits 0-2: the type (regular, folder, link, char and block
 *	           device, FIFO, socket, 0); bit 3: symlink given; bit 4:
 *	           hardlink given; bit 5: Windows' name checks too (a zip)
 *	bytes 1-2  the mode bits, little-endian, & 07777
 *	the rest   path NUL symlink NUL hardlink (a missing field is "")
 *
 * When the entry is accepted, checks what extraction relies on, by its own
 * resolver rather than the one in unpack_archive.c, and aborts on any
 * violation:
 *
 *   - the path is relative, names something, and has no ".." component;
 *   - the type is a regular file, folder or symbolic link (or 0 for a hard
 *     link), with no setuid, setgid or sticky bit;
 *   - a symbolic link has a target, which, resolved lexically from the
 *     link's folder with a stack of names, never climbs above the
 *     destination, and has no ".." after a name (through a link to "..",
 *     that would climb where the stack cannot see);
 *   - a hard link's target is relative with no ".." component.
 *
 * A refusal must be CUENV_E_UNPACK with a "refused archive entry" message
 * on one line. Everything is released, so LeakSanitizer reports only real
 * leaks.
 *
 *	make fuzz [FUZZ_SECONDS=60]
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "base/err.h"
#include "net/unpack.h"

static const mode_t types[] = { S_IFREG, S_IFDIR, S_IFLNK,  S_IFCHR,
				S_IFBLK, S_IFIFO, S_IFSOCK, 0 };

struct input {
	const char *path, *symlink, *hardlink;
	mode_t type, mode;
};

static void violation(const char *what, const struct input *in,
		      const struct cuenv_err *err)
{
	struct buf shown = BUF_INIT;

	fprintf(stderr, "fuzz_entry: invariant broken: %s\n", what);
	buf_add_display(&shown, in->path, 512);
	fprintf(stderr, "  path:     '%s'\n", shown.data);
	fprintf(stderr, "  type:     0%o\n  mode:     0%o\n",
		(unsigned)in->type, (unsigned)in->mode);
	if (in->symlink) {
		buf_reset(&shown);
		buf_add_display(&shown, in->symlink, 512);
		fprintf(stderr, "  symlink:  '%s'\n", shown.data);
	}
	if (in->hardlink) {
		buf_reset(&shown);
		buf_add_display(&shown, in->hardlink, 512);
		fprintf(stderr, "  hardlink: '%s'\n", shown.data);
	}
	if (err && err->msg.len)
		fprintf(stderr, "  error:    %s\n", err->msg.data);
	buf_release(&shown);
	abort();
}

/* Split s on '/' into sv, dropping empty and "." names. */
static void names(const char *s, struct strv *sv)
{
	struct strv all = STRV_INIT;

	strv_split(&all, s, '/');
	for (size_t i = 0; i < all.n; i++)
		if (*all.v[i] && strcmp(all.v[i], "."))
			strv_push(sv, all.v[i]);
	strv_release(&all);
}

static bool has_dotdot(const struct strv *sv)
{
	return strv_find(sv, "..") >= 0;
}

/* Is the relative path safe to write under the destination? */
static bool safe_path(const char *p)
{
	struct strv sv = STRV_INIT;
	bool ok = *p != '/';

	names(p, &sv);
	ok = ok && sv.n > 0 && !has_dotdot(&sv);
	strv_release(&sv);
	return ok;
}

/* Resolve target from path's folder with a stack of names. */
static bool link_stays_inside(const char *path, const char *target)
{
	struct strv stack = STRV_INIT, t = STRV_INIT;
	bool ok = *target != '/', named = false;

	names(path, &stack);
	if (stack.n)
		strv_remove(&stack, stack.n - 1); /* the link itself */
	names(target, &t);
	for (size_t i = 0; ok && i < t.n; i++) {
		if (strcmp(t.v[i], "..")) {
			strv_push(&stack, t.v[i]);
			named = true;
		} else if (named || !stack.n) {
			ok = false;
		} else {
			strv_remove(&stack, stack.n - 1);
		}
	}
	strv_release(&stack);
	strv_release(&t);
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf rest = BUF_INIT;
	const char *fields[3] = { "", "", "" };
	struct input in;
	uint8_t head[3] = { 0, 0, 0 };
	size_t off = 0;
	int rc;

	if (size > 4096)
		return -1; /* archive names are far shorter */
	memcpy(head, data, size < 3 ? size : 3);
	if (size > 3)
		buf_add(&rest, data + 3, size - 3);
	for (int i = 0; i < 3 && off <= rest.len; i++) {
		fields[i] = rest.data + off;
		off += strlen(fields[i]) + 1;
	}
	in.type = types[head[0] & 7];
	in.mode = (mode_t)(head[1] | head[2] << 8) & 07777;
	in.path = fields[0];
	in.symlink = head[0] & 8 ? fields[1] : NULL;
	in.hardlink = head[0] & 16 ? fields[2] : NULL;

	rc = unpack_check_entry(in.path, in.type, in.mode, in.symlink,
				in.hardlink, head[0] & 32, &err);
	if (rc != CUENV_OK) {
		if (rc != CUENV_E_UNPACK)
			violation("a refusal is CUENV_E_UNPACK", &in, &err);
		if (strncmp(err.msg.data, "refused archive entry '", 23))
			violation("a refusal says 'refused archive entry'", &in,
				  &err);
		if (strchr(err.msg.data, '\n'))
			violation("a refusal is one line", &in, &err);
		goto out;
	}
	if (!safe_path(in.path))
		violation("the path is relative, named, without '..'", &in,
			  NULL);
	if (in.type != S_IFREG && in.type != S_IFDIR && in.type != S_IFLNK &&
	    !(in.type == 0 && in.hardlink))
		violation("only files, folders and links", &in, NULL);
	if (in.mode & 07000)
		violation("no setuid, setgid or sticky bit", &in, NULL);
	if (in.type == S_IFLNK && (!in.symlink || !*in.symlink))
		violation("a symbolic link has a target", &in, NULL);
	if (in.symlink && !link_stays_inside(in.path, in.symlink))
		violation("a symbolic link stays inside", &in, NULL);
	if (in.hardlink && !safe_path(in.hardlink))
		violation("a hard link's target is inside", &in, NULL);
out:
	buf_release(&rest);
	err_release(&err);
	return 0;
}
