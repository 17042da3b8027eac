#!/bin/sh
# The loader cache of this machine (/etc/ld.so.cache), where a CUDA folder
# is in it (NVIDIA's packages add /etc/ld.so.conf.d/ files): doctor names
# the folder, the configuration file that adds it and `sudo ldconfig`, and
# explains that the cache is searched after LD_LIBRARY_PATH. A selection
# of the same CUDA major that lacks CUPTI has the cache's libcupti loaded
# silently in its place: a problem. Then a cache built here with ldconfig
# for a fake foreign toolkit, so that this runs everywhere.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-doctor.sh"

ldconfig=
for _p in /sbin/ldconfig /usr/sbin/ldconfig; do
	[ -x "$_p" ] && ldconfig=$_p && break
done
[ -n "$ldconfig" ] || skip "no ldconfig"
need cc

# ---- a cache built for a fake toolkit of another release --------------
c=$HOME/toolkits/cuda-12.4
o=$HOME/opt/cuda-12.8/lib
mkdir -p "$o" "$HOME/etc/ld.so.conf.d" proj &&
	doctor_cuda "$c" 12.4.1 &&
	no_cupti "$c" &&
	cuenv add cuda "$c" >/dev/null &&
	printf 'cuda = 12.4\n' >proj/.cuenv &&
	fake_elf libcupti.so.12 "$o/libcupti.so.12.8.90" &&
	ln -s libcupti.so.12.8.90 "$o/libcupti.so.12" &&
	fake_elf libcudnn.so.9 "$o/libcudnn.so.9" &&
	printf '%s\n' "$o" >"$HOME/etc/ld.so.conf.d/cuda-12-8.conf" &&
	printf 'include %s/etc/ld.so.conf.d/*.conf\n' "$HOME" >"$HOME/etc/ld.so.conf" &&
	"$ldconfig" -X -C "$HOME/etc/ld.so.cache" -f "$HOME/etc/ld.so.conf" 2>/dev/null &&
	cd proj &&
	expect_code 15 env CUENV_LD_SO_CACHE="$HOME/etc/ld.so.cache" \
		CUENV_LD_SO_CONF="$HOME/etc/ld.so.conf" cuenv doctor &&
	said "[loader-cache] the loader cache ($HOME/etc/ld.so.cache) lists CUDA 12 libraries in $o: libcudnn.so.9 and libcupti.so.12" &&
	said "searches the cache after LD_LIBRARY_PATH" &&
	said "lacks libcupti.so.12, so the cache's copy is loaded silently" &&
	said "fix: remove $o from $HOME/etc/ld.so.conf.d/cuda-12-8.conf (or delete that file), then run: sudo ldconfig" &&
	said "[missing-soname] the selection (cuda 12.4.1) has no libcupti.so.12" &&
	cd "$HOME" || exit 1

# ---- this machine's own cache ------------------------------------------
unset CUENV_LD_SO_CACHE
# The folders that give libcudart, a toolkit's own first (cuda in its name).
dirs=$("$ldconfig" -p | sed -n 's/^[[:space:]]*libcudart\.so\.[0-9.]* (libc6,[^)]*) => \(.*\)\/[^/]*$/\1/p' | sort -u)
[ -n "$dirs" ] || skip "no CUDA folder in this machine's loader cache (/etc/ld.so.cache lists no 64-bit libcudart)"
dir=$(printf '%s\n' "$dirs" | grep -i cuda | head -n 1)
[ -n "$dir" ] || dir=$(printf '%s\n' "$dirs" | head -n 1)
soname=$("$ldconfig" -p | sed -n "s|^[[:space:]]*\(libcudart\.so\.[0-9.]*\) (libc6,[^)]*) => $dir/.*|\1|p" | head -n 1)
major=${soname#libcudart.so.}
major=${major%%.*}
conf=$(grep -lx "$dir/*" /etc/ld.so.conf /etc/ld.so.conf.d/*.conf 2>/dev/null | head -n 1)
echo "this machine: $soname in $dir (CUDA $major), from ${conf:-no configuration file}"

m=$HOME/toolkits/cuda-$major
doctor_cuda "$m" "$major.0.0" &&
	no_cupti "$m" &&
	cuenv add cuda "$m" --as "$major.0.0" >/dev/null &&
	mkdir -p mach && printf 'cuda = %s.0.0\n' "$major" >mach/.cuenv &&
	cd mach &&
	expect_code 15 cuenv doctor --json &&
	said '"id": "loader-cache"' &&
	said "\"$dir\"" &&
	expect_code 15 cuenv doctor &&
	said "the loader cache (/etc/ld.so.cache) lists CUDA $major libraries in $dir" &&
	said "searches the cache after LD_LIBRARY_PATH" &&
	said "sudo ldconfig" &&
	if [ -n "$conf" ] && printf '%s' "$dir" | grep -qi cuda; then
		said "fix: remove $dir from $conf (or delete that file), then run: sudo ldconfig"
	fi &&
	if "$ldconfig" -p | grep -q "libcupti.so.$major (libc6,[^)]*) => $dir/"; then
		said "lacks libcupti.so.$major, so the cache's copy is loaded silently"
	fi
