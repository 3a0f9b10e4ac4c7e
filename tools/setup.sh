#!/usr/bin/env bash
# Installs what the build, demo and tests need when it is missing: Emscripten (Debian's package),
# Chromium (browser tests only, with --browser) and the npm packages.
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
if [ "$need_browser" = 1 ] && [ ! -x /usr/bin/chromium ]; then apt_install chromium; fi
if [ ! -d node_modules/three ] || [ ! -d node_modules/playwright-core ] || [ package.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm install"
  npm install --no-audit --no-fund --loglevel=error
fi
