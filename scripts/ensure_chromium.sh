#!/usr/bin/env bash
# Browser tests drive Debian's Chromium through Playwright; install it when missing (as root, as on CI).
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
else
  echo "Chromium is missing: run 'sudo apt-get install -y chromium' (Debian's package) and try again." >&2
  exit 1
fi
