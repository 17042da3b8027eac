/*
 * libcupti.c: a fake CUPTI (libcupti.so.N). Its activity API records the
 * kernels the fake driver launched while tracing was on, in the record
 * layout of the CUPTI API version it claims (FAKE_CUPTI_VERSION): the
 * record struct and its size change from release to release, the fields
 * a tool reads stay at the offsets cuda_abi.h names. See fake.h.
 */
#include <dlfcn.h>
#include <string.h>

#include "fake.h"

#ifndef FAKE_DEFAULT_VERSION
#define FAKE_DEFAULT_VERSION 22
#endif

static cuenv_cupti_request_fn request;
static cuenv_cupti_complete_fn complete;
/* tracing was on from enabled_at until disabled_at (0: still on) */
static unsigned long long enabled_at, disabled_at;

static unsigned api(void)
{
	return (unsigned)fake_env("FAKE_CUPTI_VERSION", FAKE_DEFAULT_VERSION);
}

/*
 * sizeof() the kernel record each CUPTI release produces, from the
 * CUpti_ActivityKernelN structs of cupti_activity.h (CUDA 13.0, which
 * keeps the older ones in cupti_activity_deprecated.h): Kernel4 for CUDA
 * 9.0-10.2 (API 10-12), Kernel5 for 11.0-11.1 (13-14), Kernel6 for
 * 11.2-11.5 (15-16), Kernel7 for 11.6-11.7 (17), Kernel8 for 11.8 (18),
 * Kernel9 for 12.x (19-28), Kernel10 for 13.0-13.1 (130000-130199).
 * CUDA 8 and older (API <= 9) used Kernel3 (start at offset 8), which
 * this fake does not produce. Later releases append fields; the fake
 * gives them Kernel10's size.
 */
static size_t kernel_record_size(unsigned v)
{
	if (v >= 130000)
		return 216;
	if (v >= 19)
		return 208;
	if (v == 18)
		return 200;
	if (v == 17)
		return 176;
	if (v >= 15)
		return 168;
	if (v >= 13)
		return 160;
	return 144;
}

#define API_RECORD 40 /* sizeof(CUpti_ActivityAPI) */

static size_t record_size(const unsigned char *rec)
{
	unsigned kind;

	memcpy(&kind, rec, sizeof(kind));
	return kind == CUENV_CUPTI_KIND_RUNTIME ? API_RECORD
						: kernel_record_size(api());
}

FAKE_EXPORT int cuptiGetVersion(uint32_t *v)
{
	*v = api();
	return 0;
}

FAKE_EXPORT int cuptiGetResultString(int r, const char **s)
{
	*s = r == 0    ? "CUPTI_SUCCESS"
	     : r == 1  ? "CUPTI_ERROR_INVALID_PARAMETER"
	     : r == 12 ? "CUPTI_ERROR_MAX_LIMIT_REACHED"
		       : "CUPTI_ERROR_UNKNOWN";
	return 0;
}

FAKE_EXPORT int cuptiGetTimestamp(uint64_t *ns)
{
	*ns = fake_now_ns();
	return 0;
}

FAKE_EXPORT int cuptiActivityRegisterCallbacks(cuenv_cupti_request_fn req,
					       cuenv_cupti_complete_fn done)
{
	if (!req || !done)
		return 1;
	request = req;
	complete = done;
	return 0;
}

FAKE_EXPORT int cuptiActivityEnable(int kind)
{
	long e = fake_env("FAKE_CUPTI_ENABLE_ERROR", 0);

	if (e)
		return (int)e;
	if (kind != CUENV_CUPTI_KIND_CONCURRENT_KERNEL &&
	    kind != CUENV_CUPTI_KIND_KERNEL)
		return 1;
	enabled_at = fake_now_ns();
	disabled_at = 0;
	return 0;
}

FAKE_EXPORT int cuptiActivityDisable(int kind)
{
	(void)kind;
	disabled_at = fake_now_ns();
	return 0;
}

static void put(unsigned char *rec, size_t at, const void *v, size_t n)
{
	memcpy(rec + at, v, n);
}

FAKE_EXPORT int cuptiActivityFlushAll(uint32_t flag)
{
	void *drv = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	fake_launches_fn launches_of = NULL;
	const struct fake_launch *launches = NULL;
	int n = 0;
	uint8_t *buf = NULL;
	size_t size = 0, max = 0, used = 0, ksize = kernel_record_size(api());

	(void)flag;
	if (!request || !complete)
		return 0;
	if (drv)
		launches_of =
		    (fake_launches_fn)dlsym(drv, "cuenv_fake_cuda_launches");
	if (launches_of)
		n = launches_of(&launches);
	request(&buf, &size, &max);
	if (!buf) {
		if (drv)
			dlclose(drv);
		return 1;
	}
	/* a runtime API record first, so a reader must look at kinds */
	if (used + API_RECORD <= size) {
		unsigned kind = CUENV_CUPTI_KIND_RUNTIME;

		memset(buf + used, 0x5a, API_RECORD);
		put(buf + used, 0, &kind, sizeof(kind));
		used += API_RECORD;
	}
	for (int i = 0; i < n && !fake_env("FAKE_CUPTI_NO_RECORDS", 0); i++) {
		const struct fake_launch *l = &launches[i];
		unsigned kind = CUENV_CUPTI_KIND_CONCURRENT_KERNEL;
		unsigned long long start = l->start, end = l->end;
		const char *name = l->name;

		if (!enabled_at || l->start < enabled_at ||
		    (disabled_at && l->start > disabled_at) ||
		    used + ksize > size)
			continue;
		if (fake_env("FAKE_CUPTI_BAD_TIMES", 0)) {
			start = l->end;
			end = l->start;
		}
		/* the rest of the record is noise, as a reader must not
		 * care about fields it does not know */
		memset(buf + used, 0xa5, ksize);
		put(buf + used, 0, &kind, sizeof(kind));
		put(buf + used, CUENV_CUPTI_KERNEL_START, &start, 8);
		put(buf + used, CUENV_CUPTI_KERNEL_END, &end, 8);
		put(buf + used, 32, &end, 8); /* completed */
		put(buf + used, CUENV_CUPTI_KERNEL_CORRELATION, &l->correlation,
		    4);
		put(buf + used, CUENV_CUPTI_KERNEL_NAME, &name, sizeof(name));
		used += ksize;
	}
	complete(NULL, 0, buf, size, used);
	if (drv)
		dlclose(drv);
	return 0;
}

FAKE_EXPORT int cuptiActivityGetNextRecord(uint8_t *buffer, size_t valid,
					   void **record)
{
	uint8_t *next;

	if (!*record)
		next = buffer;
	else
		next = (uint8_t *)*record + record_size(*record);
	if (next >= buffer + valid)
		return CUENV_CUPTI_ERROR_MAX_LIMIT_REACHED;
	*record = next;
	return 0;
}
