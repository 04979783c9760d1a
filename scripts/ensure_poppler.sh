#!/usr/bin/env bash
# The print tests read the problem books' PDFs with pdftotext (Debian's poppler-utils); install it when missing
# (as root, as on CI), as scripts/ensure_chromium.sh does for Chromium.
set -euo pipefail
if command -v pdftotext >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y poppler-utils
else
  echo "pdftotext is missing: run 'sudo apt-get install -y poppler-utils' (Debian's package) and try again." >&2
  exit 1
fi
