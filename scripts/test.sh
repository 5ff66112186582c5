#!/usr/bin/env bash
# Install everything the tests need (Python packages, Debian's Chromium for browser tests) and run all tests.
# Usage: bash scripts/test.sh [extra pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
# The package itself (console script ndcg-lab-eval), without touching the pinned dependencies.
python -m pip install --quiet --disable-pip-version-check --no-deps -e .
# Chromium for the browser tests; Noto CJK for Chinese/Korean pages and the PDF handout; poppler-utils
# (pdftoppm) renders the handout to PNG in the tests.
if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || ! command -v pdftoppm >/dev/null \
    || [ ! -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ]; then
  echo "Installing Debian's chromium, fonts-noto-cjk and poppler-utils for the browser and handout tests..."
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-noto-cjk poppler-utils >/dev/null
fi
# Classroom store tests run against a real PostgreSQL (tests/classroom/postgres.py starts a throwaway
# cluster with initdb + pg_ctl); they fail, never skip, without the server binaries.
if ! ls ${PG_BIN:-/usr/lib/postgresql/*/bin}/pg_ctl >/dev/null 2>&1; then
  echo "Installing Debian's postgresql for the PostgreSQL tests..."
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
fi
# Spark tests (metrics.runfiles.spark) start a real local Spark, which needs Java 17+; they fail, never skip,
# without it.
if ! command -v java >/dev/null 2>&1; then
  echo "Installing Debian's default-jre-headless for the Spark tests..."
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq default-jre-headless >/dev/null
fi
export STREAMLIT_BROWSER_GATHER_USAGE_STATS=false
echo "ruff check ..."
python -m ruff check .
python -m pytest "$@"
