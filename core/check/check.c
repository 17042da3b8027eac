#include "check/check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <getopt.h>
#include <stddef.h>
#include <string.h>

#include "plat/file.h"
#include "plat/plat_path.h"
#include "nvidia/compat.h"
#include "plat/plat_fs.h"
#include "plat/plat_sys.h"
#include "base/version.h"
#include "base/xalloc.h"

/* ---- the report ---------------------------------------------------------- */

static const char *const layer_names[CHECK_LAYERS] = {
	"driver", "runtime", "kernel", "cudnn", "cupti",
};

void check_report_init(struct check_report *r)
{
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < CHECK_LAYERS; i++)
		r->layer[i].asked = true;
}

static void layer_release(struct check_layer *l)
{
	FREE_EACH(l->version, l->soname, l->file, l->message, l->fix);
	STRV_RELEASE_EACH(&l->details, &l->warnings);
}

void check_report_release(struct check_report *r)
{
	FREE_EACH(r->cuda, r->cudnn, r->cupti);
	for (size_t i = 0; i < CHECK_LAYERS; i++)
		layer_release(&r->layer[i]);
	check_report_init(r);
}

const char *check_layer_name(enum check_layer_id id)
{
	if ((unsigned)id >= CHECK_LAYERS)
		BUG("no layer %d", (int)id);
	return layer_names[id];
}

int check_layer_rc(enum check_layer_id id)
{
	return CUENV_E_DRIVER + (int)id;
}

/* By enum check_status. */
static const char *const status_names[] = { "skip", "pass", "fail" };
#define STATUSES (sizeof(status_names) / sizeof(*status_names))

const char *check_status_name(enum check_status st)
{
	return (unsigned)st < STATUSES ? status_names[st] : "skip";
}

int check_status_parse(const char *s, enum check_status *st)
{
	long i = str_index(status_names, STATUSES, s);

	if (i >= 0)
		*st = (enum check_status)i;
	return i < 0 ? -1 : 0;
}

void check_setstr(char **field, const char *s)
{
	char *copy = s ? xstrdup(s) : NULL;

	free(*field);
	*field = copy;
}

static char *vformat(const char *fmt, va_list ap)
{
	struct buf b = BUF_INIT;

	buf_vprintf(&b, fmt, ap);
	return buf_detach(&b);
}

/* *slot replaced by the formatted string. */
static void vreplace(char **slot, const char *fmt, va_list ap)
{
	char *s = vformat(fmt, ap);

	free(*slot);
	*slot = s;
}

void check_set(struct check_layer *l, enum check_status st, const char *fmt,
	       ...)
{
	va_list ap;

	l->status = st;
	va_start(ap, fmt);
	vreplace(&l->message, fmt, ap);
	va_end(ap);
}

void check_fix(struct check_layer *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreplace(&l->fix, fmt, ap);
	va_end(ap);
}

void check_warn(struct check_layer *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strv_push_take(&l->warnings, vformat(fmt, ap));
	va_end(ap);
}

static long detail_index(const struct check_layer *l, const char *key)
{
	size_t kl = strlen(key);

	for (size_t i = 0; i < l->details.n; i++)
		if (!strncmp(l->details.v[i], key, kl) &&
		    l->details.v[i][kl] == '=')
			return (long)i;
	return -1;
}

void check_detail(struct check_layer *l, const char *key, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	long at = detail_index(l, key);

	buf_printf(&b, "%s=", key);
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (at >= 0) {
		free(l->details.v[at]);
		l->details.v[at] = buf_detach(&b);
	} else {
		strv_push_take(&l->details, buf_detach(&b));
	}
}

/* ---- rules --------------------------------------------------------------- */

/* The layers each one needs to have passed before its GPU part can run. */
static const unsigned needs[CHECK_LAYERS] = {
	[CHECK_DRIVER] = 0,
	[CHECK_RUNTIME] = 1u << CHECK_DRIVER,
	[CHECK_KERNEL] = 1u << CHECK_DRIVER | 1u << CHECK_RUNTIME,
	[CHECK_CUDNN] = 1u << CHECK_DRIVER | 1u << CHECK_RUNTIME,
	[CHECK_CUPTI] =
		1u << CHECK_DRIVER | 1u << CHECK_RUNTIME | 1u << CHECK_KERNEL,
};

void check_report_finish(struct check_report *r)
{
	for (size_t i = 0; i < CHECK_LAYERS; i++) {
		struct check_layer *l = &r->layer[i];

		if (l->status != CHECK_PASS)
			continue;
		for (size_t d = 0; d < i; d++) {
			if (!(needs[i] & 1u << d) ||
			    r->layer[d].status == CHECK_PASS)
				continue;
			{
				char *was = l->message;

				l->message = NULL;
				check_set(l, CHECK_SKIP,
					  "%s%snot counted as a pass: the %s "
					  "layer %s",
					  was ? was : "", was ? "; " : "",
					  layer_names[d],
					  r->layer[d].status == CHECK_FAIL
						  ? "failed"
						  : "was skipped");
				free(was);
			}
			break;
		}
	}
}

int check_report_rc(const struct check_report *r, int *first)
{
	int skipped = -1;

	for (int i = 0; i < CHECK_LAYERS; i++) {
		const struct check_layer *l = &r->layer[i];

		if (l->status == CHECK_FAIL) {
			if (first)
				*first = i;
			return check_layer_rc((enum check_layer_id)i);
		}
		if (l->status == CHECK_SKIP && l->asked && skipped < 0)
			skipped = i;
	}
	if (first)
		*first = skipped;
	return skipped < 0 ? CUENV_OK
			   : check_layer_rc((enum check_layer_id)skipped);
}

/* ---- JSON ---------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s, or 0. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	size_t n;
	unsigned char lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

static void json_str(struct buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		buf_adds(b, "null");
		return;
	}
	buf_addc(b, '"');
	while (*p) {
		size_t n = utf8_len(p);

		if (!n) {
			buf_adds(b, "\\ufffd");
			p++;
		} else if (*p == '"' || *p == '\\') {
			buf_addc(b, '\\');
			buf_addc(b, (char)*p++);
		} else if (*p == '\n') {
			buf_adds(b, "\\n");
			p++;
		} else if (*p == '\t') {
			buf_adds(b, "\\t");
			p++;
		} else if (*p < 0x20 || *p == 0x7f) {
			buf_printf(b, "\\u%04x", *p);
			p++;
		} else {
			buf_add(b, p, n);
			p += n;
		}
	}
	buf_addc(b, '"');
}

static void json_key(struct buf *b, const char *key)
{
	json_str(b, key);
	buf_addc(b, ':');
}

/* "key":"value", with null for NULL. */
static void json_field(struct buf *b, const char *key, const char *val)
{
	json_key(b, key);
	json_str(b, val);
	buf_addc(b, ',');
}

static void layer_to_json(const struct check_layer *l, const char *name,
			  struct buf *b)
{
	buf_addc(b, '{');
	json_field(b, "name", name);
	json_field(b, "status", check_status_name(l->status));
	buf_printf(b, "\"asked\":%s,", l->asked ? "true" : "false");
	json_field(b, "version", l->version);
	json_field(b, "soname", l->soname);
	json_field(b, "file", l->file);
	buf_printf(b, "\"foreign\":%s,\"ms\":%.3f,",
		   l->foreign ? "true" : "false", l->ms >= 0 ? l->ms : 0.0);
	json_field(b, "message", l->message);
	json_field(b, "fix", l->fix);
	buf_adds(b, "\"details\":{");
	for (size_t i = 0; i < l->details.n; i++) {
		const char *kv = l->details.v[i], *eq = strchr(kv, '=');
		char *key = xstrndup(kv, (size_t)(eq - kv));

		if (i)
			buf_addc(b, ',');
		json_key(b, key);
		json_str(b, eq + 1);
		free(key);
	}
	buf_adds(b, "},\"warnings\":[");
	for (size_t i = 0; i < l->warnings.n; i++) {
		if (i)
			buf_addc(b, ',');
		json_str(b, l->warnings.v[i]);
	}
	buf_adds(b, "]}");
}

void check_report_to_json(const struct check_report *r, struct buf *out)
{
	int first, rc = check_report_rc(r, &first);

	buf_adds(out, "{\"schema\":1,");
	json_field(out, "cuda", r->cuda);
	json_field(out, "cudnn", r->cudnn);
	json_field(out, "cupti", r->cupti);
	buf_printf(out, "\"device\":%d,\"exit\":%d,", r->device, rc);
	json_field(out, "failed", first >= 0 ? layer_names[first] : NULL);
	buf_adds(out, "\"layers\":[");
	for (size_t i = 0; i < CHECK_LAYERS; i++) {
		if (i)
			buf_addc(out, ',');
		layer_to_json(&r->layer[i], layer_names[i], out);
	}
	buf_adds(out, "]}");
}

/* ---- versions ------------------------------------------------------------ */

void check_cuda_version(int v, struct buf *out)
{
	buf_printf(out, "%d.%d", v / 1000, v % 1000 / 10);
}

void check_cudnn_version(size_t v, struct buf *out)
{
	/* cuDNN 9 counts majors in ten thousands, earlier ones in thousands */
	size_t major_unit = v >= 90000 ? 10000 : 1000;

	buf_printf(out, "%zu.%zu.%zu", v / major_unit, v % major_unit / 100,
		   v % 100);
}

void check_cupti_version(unsigned v, struct buf *out)
{
	/* From CUDA 13 the API version is xxyyzz: 130001 is 13.0.1. */
	if (v >= 100000)
		buf_printf(out, "%u.%u.%u", v / 10000, v % 10000 / 100,
			   v % 100);
	else
		buf_printf(out, "%u", v);
}

/* ---- the driver ---------------------------------------------------------- */

static bool is_driver_version(const char *s)
{
	return compat_driver_cmp(s, "0") != -2;
}

/* The failure for a driver too old for release cuda. */
static void driver_too_old(struct check_layer *l, const char *cuda,
			   const struct version *sel, const char *shown,
			   const char *need, const char *compat,
			   int driver_cuda)
{
	struct buf why = BUF_INIT, inst = BUF_INIT, pkg = BUF_INIT;
	unsigned long major = sel->part[0],
		      minor = sel->n > 1 ? sel->part[1] : 0;

	if (need) {
		buf_printf(&why, "it needs %s or newer", need);
		buf_printf(&inst, "install an NVIDIA driver >= %s", need);
	} else {
		buf_printf(&why, "it needs a driver for CUDA %lu.%lu", major,
			   minor);
		buf_printf(&inst, "install an NVIDIA driver for CUDA %lu.%lu",
			   major, minor);
	}
	if (compat)
		buf_printf(&why,
			   " (%s or newer under minor version "
			   "compatibility)",
			   compat);
	if (driver_cuda) {
		buf_adds(&why, "; this one supports CUDA ");
		check_cuda_version(driver_cuda, &why);
	}
	buf_printf(&pkg, "cuda-compat-%lu-%lu", major, minor);
	check_set(l, CHECK_FAIL, "%s is too old for CUDA %s: %s", shown, cuda,
		  why.data);
	/* NVIDIA's forward compatibility exists for Linux only */
	if (plat_sys_lib_naming() == PLAT_LIB_DLL) {
		check_fix(l, "%s (NVIDIA's driver download for this GPU)",
			  inst.data);
		goto out;
	}
	check_fix(l,
		  "%s; or, on a data-center GPU, NVIDIA's forward-compatibility"
		  " package %s (apt install %s, then put "
		  "/usr/local/cuda-%lu.%lu/compat first on LD_LIBRARY_PATH)",
		  inst.data, pkg.data, pkg.data, major, minor);
out:
	buf_release(&why);
	buf_release(&inst);
	buf_release(&pkg);
}

/* Old, but runs under minor version compatibility: a pass with a warning. */
static void driver_minor_compat(struct check_layer *l, const char *cuda,
				const char *shown, const char *need,
				const char *compat, int driver_cuda)
{
	struct buf what = BUF_INIT;

	if (driver_cuda) {
		buf_printf(&what, "%s supports CUDA ", shown);
		check_cuda_version(driver_cuda, &what);
	} else {
		buf_printf(&what, "%s is older than %s", shown, need);
	}
	check_set(l, CHECK_PASS,
		  "%s, older than CUDA %s: it runs under minor version "
		  "compatibility%s%s%s",
		  what.data, cuda, compat ? " (>= " : "", compat ? compat : "",
		  compat ? ")" : "");
	check_warn(l,
		   "%s is older than %s, the minimum for CUDA %s: applications"
		   " run, but PTX built by this toolkit cannot be JIT-compiled"
		   " and newer APIs fail",
		   shown, need ? need : "the driver it was released with",
		   cuda);
	if (need)
		check_fix(l,
			  "install an NVIDIA driver >= %s for the whole "
			  "feature set",
			  need);
	buf_release(&what);
}

void check_judge_driver(struct check_layer *l, const char *cuda,
			const char *module, int driver_cuda, const char *need,
			const char *compat)
{
	struct version sel;
	struct buf shown = BUF_INIT, dv = BUF_INIT;
	int want, libcuda_old, same_major, mod_need = -2, mod_compat = -2;

	if (version_parse(cuda, &sel)) {
		check_set(l, CHECK_FAIL, "'%s' is not a CUDA version", cuda);
		return;
	}
	want = (int)(sel.part[0] * 1000 + (sel.n > 1 ? sel.part[1] : 0) * 10);
	libcuda_old = driver_cuda && driver_cuda < want;
	same_major = driver_cuda / 1000 == (int)sel.part[0];
	if (module && need)
		mod_need = compat_driver_cmp(module, need);
	if (module && compat)
		mod_compat = compat_driver_cmp(module, compat);
	if (module)
		buf_printf(&shown, "driver %s", module);
	else
		buf_adds(&shown, "the driver");
	check_cuda_version(driver_cuda, &dv);

	if (libcuda_old && mod_need >= 0) {
		check_set(l, CHECK_FAIL,
			  "libcuda.so.1 supports only CUDA %s, although the "
			  "kernel module (driver %s) is new enough for CUDA %s:"
			  " this libcuda.so.1 is not the driver's own",
			  dv.data, module, cuda);
		check_fix(l,
			  "take the folder of %s off LD_LIBRARY_PATH, or "
			  "reinstall the driver",
			  l->file ? l->file : "that libcuda.so.1");
	} else if (libcuda_old && same_major && mod_compat != -1) {
		driver_minor_compat(l, cuda, shown.data, need, compat,
				    driver_cuda);
	} else if (libcuda_old) {
		driver_too_old(l, cuda, &sel, shown.data, need, compat,
			       driver_cuda);
	} else if (mod_need == -1 && driver_cuda) {
		check_set(l, CHECK_PASS,
			  "libcuda.so.1 supports CUDA %s over kernel module %s,"
			  " which is older than %s (the minimum for CUDA %s): "
			  "NVIDIA's forward compatibility (cuda-compat)",
			  dv.data, module, need, cuda);
	} else if (mod_need == -1 && mod_compat >= 0) {
		driver_minor_compat(l, cuda, shown.data, need, compat, 0);
	} else if (mod_need == -1) {
		driver_too_old(l, cuda, &sel, shown.data, need, compat, 0);
	} else {
		struct buf what = BUF_INIT;

		if (driver_cuda)
			buf_printf(&what, "%s supports CUDA %s", shown.data,
				   dv.data);
		else
			buf_printf(&what, "%s is loaded", shown.data);
		if (need)
			buf_printf(&what, "; CUDA %s needs %s or newer", cuda,
				   need);
		check_set(l, CHECK_PASS, "%s", what.data);
		buf_release(&what);
	}
	buf_release(&shown);
	buf_release(&dv);
}

/* The first word of s that is a driver version, into out. */
static bool first_driver_word(const char *s, struct buf *out)
{
	while (*s) {
		size_t n;
		char *w;
		bool ok;

		s += strspn(s, " \t\n");
		n = strcspn(s, " \t\n");
		if (!n)
			break;
		w = xstrndup(s, n);
		ok = is_driver_version(w);
		if (ok) {
			buf_reset(out);
			buf_adds(out, w);
		}
		free(w);
		if (ok)
			return true;
		s += n;
	}
	return false;
}

/* The driver's version files are a line or two; sysfs says 4096 bytes. */
#define MODULE_TEXT_MAX (64u << 10)

/*
 * The driver version in text, a version file's contents: its first line
 * (sys), else the rest of a line after "Kernel Module" (proc). text is
 * cut into lines in place.
 */
static bool module_text_version(char *text, bool first_line, struct buf *out)
{
	for (char *line = text, *nl; line; line = nl) {
		const char *p;

		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		/* one line: "550.54.15" */
		if (first_line)
			return first_driver_word(line, out);
		/* "NVRM version: NVIDIA UNIX [Open] Kernel Module [for
		 * x86_64]  550.54.15  Release Build ..." */
		p = strstr(line, "Kernel Module");
		if (p && first_driver_word(p + strlen("Kernel Module"), out))
			return true;
	}
	return false;
}

bool check_module_version(const char *root, struct buf *out, struct buf *source)
{
	static const char *const files[] = { "sys/module/nvidia/version",
					     "proc/driver/nvidia/version" };
	struct buf path = BUF_INIT, text = BUF_INIT;
	bool found = false;

	for (size_t i = 0; i < 2 && !found; i++) {
		struct cuenv_err e = CUENV_ERR_INIT;

		buf_reset(&path);
		buf_printf(&path, "%s/%s", root, files[i]);
		/* not there, not a file, too large: the next one, or none */
		found = !file_read(path.data, MODULE_TEXT_MAX,
				   FILE_MAY_BE_MISSING, &text, &e) &&
			module_text_version(text.data, i == 0, out);
		err_release(&e);
		if (found) {
			buf_reset(source);
			buf_printf(source, "/%s", files[i]);
		}
	}
	buf_release(&path);
	buf_release(&text);
	return found;
}

/* ---- files and sonames --------------------------------------------------- */

bool check_file_is_own(const char *file, const char *soname,
		       const struct strv *own, char **provided)
{
	char *real = file ? plat_realpath(file) : NULL;
	struct buf p = BUF_INIT;
	bool mine = false;

	if (provided)
		*provided = NULL;
	for (size_t i = 0; i < own->n && !mine; i++) {
		char *r;

		buf_reset(&p);
		buf_path(&p, own->v[i], soname);
		r = plat_realpath(p.data);
		if (!r)
			continue;
		if (provided && !*provided)
			*provided = xstrdup(p.data);
		mine = real && !strcmp(r, real);
		free(r);
	}
	free(real);
	buf_release(&p);
	return mine;
}

/* Number of numeric parts after stem in name ("libcudart.so.11.0": 2), or
 * 0 when name is not stem followed by ".<digits>" parts. */
static unsigned soname_parts(const char *name, const char *stem)
{
	size_t sl = strlen(stem);
	const char *p = name + sl;
	unsigned parts = 0;

	if (strncmp(name, stem, sl))
		return 0;
	while (*p == '.') {
		size_t digits = strspn(p + 1, "0123456789");

		if (!digits)
			return 0;
		parts++;
		p += 1 + digits;
	}
	return *p ? 0 : parts;
}

char *check_find_soname(const struct strv *dirs, const char *stem)
{
	char *best = NULL;
	unsigned best_parts = 0;
	struct buf p = BUF_INIT;

	for (size_t i = 0; i < dirs->n; i++) {
		struct plat_dir *d = plat_opendir(dirs->v[i]);
		const char *ent;

		if (!d)
			continue;
		while ((ent = plat_readdir(d))) {
			unsigned parts = soname_parts(ent, stem);
			struct plat_stat st;

			if (!parts || (best && parts >= best_parts))
				continue;
			buf_reset(&p);
			buf_path(&p, dirs->v[i], ent);
			if (plat_stat(p.data, &st) || st.type != PLAT_F_REG)
				continue;
			free(best);
			best = xstrdup(ent);
			best_parts = parts;
		}
		plat_closedir(d);
	}
	buf_release(&p);
	return best;
}

/* ---- cuenv-probe's command line ----------------------------------------- */

const char check_probe_usage[] =
	"usage: cuenv-probe --cuda V --runtime SONAME --cupti-lib SONAME"
	" [--cudnn-lib SONAME] [--cudnn V] [--cupti V] [--device N]"
	" [--driver-need V] [--driver-compat V] [--own DIR]...\n"
	"(run by cuenv check)\n";

/*
 * cuenv-probe's options, for getopt_long: the i-th (its value i + 1, so
 * that getopt_long tells an ambiguous abbreviation) sets the string
 * field of struct check_probe at probe_field[i], but --device (a number)
 * and --own (repeated).
 */
enum { P_DEVICE, P_OWN };

static const struct option probe_opts[] = {
	{ "device", required_argument, NULL, 1 },
	{ "own", required_argument, NULL, 2 },
	{ "cuda", required_argument, NULL, 3 },
	{ "cudnn", required_argument, NULL, 4 },
	{ "cupti", required_argument, NULL, 5 },
	{ "driver-need", required_argument, NULL, 6 },
	{ "driver-compat", required_argument, NULL, 7 },
	{ "runtime", required_argument, NULL, 8 },
	{ "cudnn-lib", required_argument, NULL, 9 },
	{ "cupti-lib", required_argument, NULL, 10 },
	{ NULL, 0, NULL, 0 },
};

static const size_t probe_field[] = {
	0,
	0,
	offsetof(struct check_probe, cuda),
	offsetof(struct check_probe, cudnn),
	offsetof(struct check_probe, cupti),
	offsetof(struct check_probe, driver_need),
	offsetof(struct check_probe, driver_compat),
	offsetof(struct check_probe, runtime_lib),
	offsetof(struct check_probe, cudnn_lib),
	offsetof(struct check_probe, cupti_lib),
};

int check_probe_args(struct check_probe *p, int argc, char **argv)
{
	int c, i;
	char *end;

	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, "", probe_opts, NULL)) != -1) {
		i = c - 1;
		if (i < 0 ||
		    i >= (int)(sizeof(probe_field) / sizeof(*probe_field)))
			return -1;
		if (i == P_DEVICE) {
			p->device = (int)strtol(optarg, &end, 10);
			if (*end || !*optarg || p->device < 0)
				return -1;
		} else if (i == P_OWN) {
			strv_push(&p->own, optarg);
		} else {
			*(const char **)(void *)((char *)p + probe_field[i]) =
				optarg;
		}
	}
	if (optind != argc || !p->cuda || !p->runtime_lib || !p->cupti_lib)
		return -1;
	return 0;
}
