#!/usr/bin/env bash
# Installs what the build, demo and tests need when it is missing: Emscripten (Debian's package),
# clang with libFuzzer (Debian's clang; the fuzzer runtime libclang_rt.fuzzer comes with
# libclang-rt-<version>-dev), Chromium (browser tests only, with --browser) and the npm packages of
# package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."
need_browser=0
[ "${1:-}" = "--browser" ] && need_browser=1

SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
apt_install() {
  echo "setup: installing $* (Debian packages)"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

command -v emcc >/dev/null 2>&1 || apt_install emscripten
# `make fuzz-smoke`: clang must link -fsanitize=fuzzer (the runtime is a separate package on Debian)
fuzzer_links() {
  command -v clang >/dev/null 2>&1 || return 1
  echo 'int LLVMFuzzerTestOneInput(const char* d, unsigned long n) { (void)d; (void)n; return 0; }' |
    clang -x c - -fsanitize=fuzzer,address,undefined -o /tmp/tribo_fuzzer_check.$$ >/dev/null 2>&1
  local ok=$?
  rm -f /tmp/tribo_fuzzer_check.$$
  return $ok
}
if ! fuzzer_links; then
  command -v clang >/dev/null 2>&1 || apt_install clang
  if ! fuzzer_links; then
    v=$(clang --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
    apt_install "libclang-rt-$v-dev"
  fi
  fuzzer_links || { echo "setup: clang cannot link -fsanitize=fuzzer"; exit 1; }
fi
if [ "$need_browser" = 1 ] && [ ! -x /usr/bin/chromium ]; then apt_install chromium; fi
# `npm ls` fails when a package of package.json is missing or outside its range. `npm ci` then
# installs exactly package-lock.json's versions and never rewrites the lock file (npm install may).
if ! npm ls --depth=0 >/dev/null 2>&1; then
  if [ -f package-lock.json ]; then
    echo "setup: npm ci (node_modules does not match package.json)"
    npm ci --no-audit --no-fund --loglevel=error
  else
    echo "setup: npm install (no package-lock.json)"
    npm install --no-audit --no-fund --loglevel=error
  fi
fi
