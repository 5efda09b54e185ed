#!/usr/bin/env bash
# Builds the Debian package (make package) and checks what it installs, without installing it: unpacks
# it into a temporary folder and runs the packaged lanescope-cli there. The executables carry the
# product's code themselves (no library of the product is packaged or needed), so the unpacked tree
# runs wherever it lies, as the installed one does under /usr.
#
#   check-package.sh [BUILD_DIR]      (default: build)
set -euo pipefail
build="${1:-build}"
cmake --build "$build" --target package
deb=$(ls -t "$build"/lanescope_*.deb | head -1)
echo "package: $deb"
dpkg-deb --info "$deb" | sed -n 's/^ \(Package\|Version\|Architecture\|Depends\|Installed-Size\):/  \1:/p'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$deb" "$tmp/root"
cli="$tmp/root/usr/bin/lanescope-cli"
gui="$tmp/root/usr/bin/lanescope"
fail() { echo "check-package: $*" >&2; exit 1; }
[ -x "$cli" ] || fail "no usr/bin/lanescope-cli in $deb"
[ -x "$gui" ] || fail "no usr/bin/lanescope in $deb"

# Every library either executable needs resolves, and none is one of the product's own (the build
# tree's shared libraries are for the test programs only).
for exe in "$cli" "$gui"; do
    missing=$(ldd "$exe" | grep "not found" || true)
    [ -z "$missing" ] || fail "$(basename "$exe"): libraries not found:\n$missing"
    own=$(ldd "$exe" | grep -o "liblanescope_[a-z]*\.so" || true)
    [ -z "$own" ] || fail "$(basename "$exe") links product libraries (it should carry their code): $own"
done
# The Depends line names what the libraries need too (dpkg-shlibdeps saw them).
deps=$(dpkg-deb -f "$deb" Depends)
for d in libqt6core6 libqt6widgets6 libsimdjson14 libsqlite3-0; do
    case "$deps" in *"$d"*) ;; *) fail "Depends lacks $d: $deps";; esac
done

# The packaged CLI works: writes the bundled sample and reads it back.
# (no trace cache: the check writes nothing outside its temporary folder)
"$cli" generate-sample --folder "$tmp/sample" > /dev/null
out=$(LANESCOPE_NO_CACHE=1 "$cli" info "$tmp/sample/synthetic_rmsnorm_profile")
grep -q "^capture: *ok" <<< "$out" || fail "packaged lanescope-cli info on the sample did not say 'capture: ok':\n$out"
# The packaged GUI renders its window (offscreen) from the same libraries.
LANESCOPE_NO_CACHE=1 QT_QPA_PLATFORM=offscreen "$gui" --screenshot "$tmp/window.png" "$tmp/sample/synthetic_rmsnorm_profile" > /dev/null
[ -s "$tmp/window.png" ] || fail "packaged lanescope --screenshot wrote no picture"
libs=$(find "$tmp/root" -name 'liblanescope_*.so' | wc -l)
[ "$libs" -eq 0 ] || fail "the package holds $libs product libraries nothing needs"
echo "check-package: ok ($(du -h "$deb" | cut -f1), $(dpkg-deb -f "$deb" Depends | tr ',' '\n' | wc -l) dependencies)"
