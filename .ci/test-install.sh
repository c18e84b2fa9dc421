#!/usr/bin/env bash
# make test-install: installs rasp the way a package would (make install DESTDIR=<tmp>
# PREFIX=/usr), checks each file it installed, runs the installed rasp where the Swift toolchain
# cannot be reached, uses its manual page and completions, then uninstalls and checks that
# nothing is left. Ends with 'test-install: N passed, 0 failed' (and how many were skipped, and
# why); the first failure stops it with a non-zero status.
set -euo pipefail
cd "$(dirname "$0")/.."
make=${MAKE:-make}
destdir=$(mktemp -d "${TMPDIR:-/tmp}/rasp-install.XXXXXX")
trap 'rm -rf "$destdir"' EXIT
passed=0
skipped=0
pass() { passed=$((passed + 1)); echo "test-install: ok: $*"; }
skip() { skipped=$((skipped + 1)); echo "test-install: skipped: $*"; }
fail() {
  echo "test-install: FAILED: $*" >&2
  echo "test-install: $passed passed, 1 failed"
  exit 1
}

$make --no-print-directory install DESTDIR="$destdir" PREFIX=/usr

expected='usr/bin/rasp 755
usr/share/bash-completion/completions/rasp 644
usr/share/fish/vendor_completions.d/rasp.fish 644
usr/share/man/man1/rasp.1 644
usr/share/zsh/site-functions/_rasp 644'
actual=$(cd "$destdir" && find . -type f -printf '%P %m\n' | LC_ALL=C sort)
[ "$actual" = "$expected" ] || fail "installed, with their modes:
$actual
expected:
$expected"
pass "make install DESTDIR=… PREFIX=/usr installed rasp, rasp.1 and the three completions"

rasp=$destdir/usr/bin/rasp
# The toolchain's folder: the one holding bin/swift and lib/swift.
swift_path=$(command -v swiftc || command -v swift) || fail "no swift on the PATH"
toolchain=$(dirname "$(dirname "$(readlink -f "$swift_path")")")
libraries=$(ldd "$rasp") || fail "ldd $rasp: $libraries"
if grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|lib_Foundation|libicu' \
  <<< "$libraries"; then
  fail "rasp still loads Swift's libraries:
$libraries"
fi
if grep -F "$toolchain" <<< "$libraries"; then
  fail "rasp loads libraries from the toolchain, $toolchain"
fi
pass "ldd: no Swift library, nothing from $toolchain"

version=$(env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= "$rasp" --version) ||
  fail "rasp --version, in an empty environment, exited with $?"
[[ $version == "rasp "* ]] || fail "rasp --version printed '$version'"
pass "env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= rasp --version: $version"

# The strongest check: the toolchain's folder made empty (a tmpfs over it, in a mount namespace
# of this command alone), then a real replay and comparison with a golden file.
golden=(check --golden fixtures/golden-docs/expected.jsonl fixtures/golden-docs/events.jsonl)
if [ "$toolchain" = /usr ] || [ "$toolchain" = / ]; then
  skip "the toolchain is in $toolchain, which cannot be hidden without hiding the system"
elif unshare --mount true 2> /dev/null; then
  hidden=$(unshare --mount sh -c '
    mount -t tmpfs none "$1" && shift &&
    if [ -e "$0/bin" ]; then echo "toolchain still visible"; exit 1; fi &&
    env -i PATH=/usr/bin:/bin "$@" 2>&1' "$toolchain" "$toolchain" "$rasp" "${golden[@]}") ||
    fail "with $toolchain hidden, rasp ${golden[*]} failed: $hidden"
  pass "with $toolchain hidden: rasp ${golden[*]}: $hidden"
else
  skip "hiding $toolchain needs a mount namespace, which 'unshare --mount' cannot make here" \
    "(it needs root, or CAP_SYS_ADMIN); the ldd and env -i checks above stand in for it"
fi

if command -v man > /dev/null; then
  page=$(MANPATH="$destdir/usr/share/man" MANPAGER=cat MANWIDTH=80 man rasp 2>&1) ||
    fail "man rasp, with MANPATH=$destdir/usr/share/man: $page"
  grep -q '^RASP(1)' <<< "$page" || fail "man rasp showed: $page"
  grep -q -- '--log-format' <<< "$page" || fail "man rasp has no --log-format: $page"
  pass "man rasp finds and shows the installed page"
else
  skip "man is not installed (apt-get install man-db)"
fi

offered=$(bash -c 'source "$1" && COMP_WORDS=(rasp replay --log-format "") COMP_CWORD=3 &&
  _rasp && echo "${COMPREPLY[*]}"' bash "$destdir/usr/share/bash-completion/completions/rasp")
[ "$offered" = "rasp fsa devtools cloudevents segment otel kcat gpsd owntracks" ] ||
  fail "the installed bash completion offers '$offered' after --log-format"
pass "bash: the installed completion offers the --log-format presets"
for shell in zsh fish; do
  if ! command -v "$shell" > /dev/null; then
    skip "$shell is not installed (apt-get install $shell)"
    continue
  fi
  case $shell in
    zsh) check=(zsh -n "$destdir/usr/share/zsh/site-functions/_rasp") ;;
    fish) check=(fish --no-execute "$destdir/usr/share/fish/vendor_completions.d/rasp.fish") ;;
  esac
  "${check[@]}" || fail "${check[*]}"
  pass "${check[*]}"
done

$make --no-print-directory uninstall DESTDIR="$destdir" PREFIX=/usr
left=$(find "$destdir" -mindepth 1 -printf '%P\n')
[ -z "$left" ] || fail "make uninstall left: $left"
pass "make uninstall DESTDIR=… PREFIX=/usr removed every file and every folder install made"

# A folder that existed before install, or that holds something else by then, stays.
mkdir -p "$destdir/usr/bin"
$make --no-print-directory install DESTDIR="$destdir" PREFIX=/usr > /dev/null
touch "$destdir/usr/share/man/man1/other.1"
$make --no-print-directory uninstall DESTDIR="$destdir" PREFIX=/usr > /dev/null
left=$(cd "$destdir" && find . -mindepth 1 -printf '%P\n' | LC_ALL=C sort | tr '\n' ' ')
[ "$left" = "usr usr/bin usr/share usr/share/man usr/share/man/man1 usr/share/man/man1/other.1 " ] ||
  fail "make uninstall, after a folder existed and another was used, left: $left"
pass "make uninstall keeps a folder that existed before install, and one holding another file"

echo "test-install: $passed passed, 0 failed, $skipped skipped"
