/*
 * Cases for core/plat/plat_path.c, shared by tests/unit/plat/test_plat_path.c
 * (cmocka, Linux) and tests/windows/test_core.c (plain C, under wine).
 * Expected values written by hand from Microsoft's "File path formats on
 * Windows systems" (learn.microsoft.com/dotnet/standard/io/file-path-formats:
 * "C:\Documents\Newsletters\Summer2018.pdf" absolute, "\Program
 * Files\Custom Utilities\StringFinder.exe" "an absolute path from the root
 * of the current drive", "2018\January.xlsx" relative,
 * "C:Projects\apilibrary\apilibrary.sln" "a relative path from the current
 * directory of the C: drive";
 * "\\system07\C$\" UNC, server then share; "\\.\C:\Test\Foo.txt" and
 * "\\?\C:\Test\Foo.txt" device paths, "?" paths not normalized) and
 * POSIX's pathname resolution (an absolute pathname begins with '/').
 */
#ifndef CUENV_PLAT_PATH_CASES_H
#define CUENV_PLAT_PATH_CASES_H

#include "plat/plat_path.h"

#define W (&plat_path_windows)
#define P (&plat_path_posix)

static const struct {
	const struct plat_path_rules *r;
	const char *path;
	enum plat_path_kind kind;
	size_t root_len;
	int abs;
} kind_cases[] = {
    {P, "/x", PLAT_PATH_ABSOLUTE, 1, 1},
    {P, "/", PLAT_PATH_ABSOLUTE, 1, 1},
    {P, "x/y", PLAT_PATH_RELATIVE, 0, 0},
    {P, "", PLAT_PATH_RELATIVE, 0, 0},
    {P, "C:\\x", PLAT_PATH_RELATIVE, 0, 0}, /* one odd name on POSIX */
    {P, "\\\\server\\s", PLAT_PATH_RELATIVE, 0, 0},
    {W, "C:\\x", PLAT_PATH_ABSOLUTE, 3, 1},
    {W, "C:/x", PLAT_PATH_ABSOLUTE, 3, 1},
    {W, "c:\\", PLAT_PATH_ABSOLUTE, 3, 1},
    {W, "C:x", PLAT_PATH_DRIVE_RELATIVE, 2, 0},
    {W, "C:", PLAT_PATH_DRIVE_RELATIVE, 2, 0},
    {W, "\\x", PLAT_PATH_ROOT_RELATIVE, 1, 0},
    {W, "/x", PLAT_PATH_ROOT_RELATIVE, 1, 0},
    {W, "\\\\server\\share\\x", PLAT_PATH_UNC, 15, 1},
    {W, "//server/share", PLAT_PATH_UNC, 14, 1},
    {W, "\\\\system07\\C$\\", PLAT_PATH_UNC, 14, 1},
    {W, "\\\\?\\C:\\x", PLAT_PATH_DEVICE, 4, 1},
    {W, "\\\\.\\C:\\Test\\Foo.txt", PLAT_PATH_DEVICE, 4, 1},
    {W, "x\\y", PLAT_PATH_RELATIVE, 0, 0},
    {W, "2018\\January.xlsx", PLAT_PATH_RELATIVE, 0, 0},
    {W, "1:\\x", PLAT_PATH_RELATIVE, 0, 0}, /* drives are letters */
    {W, "", PLAT_PATH_RELATIVE, 0, 0},
};

static const struct {
	const struct plat_path_rules *r;
	const char *a, *b, *want;
} join_cases[] = {
    {P, "/usr", "lib", "/usr/lib"},
    {P, "/usr/", "lib", "/usr/lib"},
    {P, "/usr", "/etc", "/etc"},
    {P, "", "x", "x"},
    {P, "a", "C:\\x", "a/C:\\x"},
    {W, "C:\\Program Files", "NVIDIA", "C:\\Program Files\\NVIDIA"},
    {W, "C:\\", "x", "C:\\x"},
    {W, "C:/a/", "b", "C:/a/b"},
    {W, "C:\\a", "D:\\b", "D:\\b"},
    {W, "C:\\a", "\\\\srv\\sh\\b", "\\\\srv\\sh\\b"},
    {W, "C:\\a", "\\b", "C:\\b"},
    {W, "\\\\srv\\sh\\a", "\\b", "\\\\srv\\sh\\b"},
    {W, "\\\\?\\C:\\a", "\\b", "\\\\?\\C:\\b"},
    {W, "C:\\a", "c:b", "C:\\a\\b"},
    {W, "C:\\a", "D:b", "D:b"},
    {W, "C:", "x", "C:x"},
    {W, "a", "b", "a\\b"},
};

static const struct {
	const struct plat_path_rules *r;
	const char *path, *want;
} normalize_cases[] = {
    {P, "/usr//lib/./x/", "/usr/lib/x"},
    {P, "a/../b", "a/../b"},
    {P, "", "."},
    {P, "./", "."},
    {P, "/", "/"},
    {P, "a\\b", "a\\b"},
    {W, "C:/Program Files//NVIDIA/", "C:\\Program Files\\NVIDIA"},
    {W, "c:\\", "c:\\"},
    {W, "C:x/./y", "C:x\\y"},
    {W, "//server/share/x", "\\\\server\\share\\x"},
    {W, "\\\\?\\C:\\a/b\\.\\c", "\\\\?\\C:\\a/b\\.\\c"},
    {W, "/x//y", "\\x\\y"},
    {W, "a\\..\\b", "a\\..\\b"},
};

static const struct {
	const struct plat_path_rules *r;
	const char *path, *root, *parts; /* parts joined by '|' */
} split_cases[] = {
    {P, "/usr/local//cuda-12.4/", "/", "usr|local|cuda-12.4"},
    {P, "rel/./x", "", "rel|x"},
    {W, "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.2", "C:\\",
     "Program Files|NVIDIA GPU Computing Toolkit|CUDA|v11.2"},
    {W, "//srv/share/a/b", "\\\\srv\\share\\", "a|b"},
    {W, "C:x\\y", "C:", "x|y"},
    {W, "\\x", "\\", "x"},
};

static const struct {
	const struct plat_path_rules *r;
	const char *path, *want; /* want NULL: no parent */
} parent_cases[] = {
    {P, "/a/b/.cuenv", "/a/b"},
    {P, "/a", "/"},
    {P, "/", NULL},
    {P, "a", NULL},
    {P, "a/b", "a"},
    {P, "a/..", NULL},
    {W, "C:\\Users\\me\\proj", "C:\\Users\\me"},
    {W, "C:\\Users", "C:\\"},
    {W, "C:\\", NULL},
    {W, "\\\\srv\\share\\x", "\\\\srv\\share\\"},
    {W, "\\\\srv\\share\\", NULL},
    {W, "C:x", "C:"},
};

static const struct {
	const struct plat_path_rules *r;
	const char *a, *b;
	int equal;
} equal_cases[] = {
    {P, "/usr/lib", "/usr//lib/", 1},
    {P, "/usr/lib", "/USR/lib", 0},
    {W, "C:\\Program Files\\NVIDIA", "c:/program files/nvidia/", 1},
    {W, "C:\\CUDA\\v11.2\\bin", "C:\\CUDA\\v11.2\\bin\\.", 1},
    {W, "C:\\a", "D:\\a", 0},
    {W, "C:\\a\\b", "C:\\a", 0},
    {W, "caf\xc3\xa9", "CAF\xc3\xa9", 1},
    {W, "caf\xc3\xa9", "caf\xc3\x89", 0}, /* only ASCII folded */
};

#undef W
#undef P

#endif
