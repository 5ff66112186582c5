#!/usr/bin/env bash
# Install everything the tests need (Python packages, Debian's Chromium for browser tests) and run all tests.
#
# Usage: bash scripts/test.sh [--fast] [extra pytest args]
#   (no option)  everything: ruff, then one pytest session over unit, property, cross-check, doctest, AppTest,
#                PostgreSQL and browser tests, on every core (pytest-xdist), Hypothesis profile "ci".
#   --fast       the everyday loop: ruff, then everything except the browser, PostgreSQL and slow tests,
#                Hypothesis profile "dev" (a quarter of the examples, random, failures replayed).
# Environment: PYTEST_WORKERS (default "auto": one per core; 0 runs in this process), HYPOTHESIS_PROFILE
# (dev, ci, thorough), NDCG_LAB_SKIP_INSTALL=1 (skip the installs below, e.g. on a shared interpreter whose
# editable install must keep pointing elsewhere).
set -euo pipefail
cd "$(dirname "$0")/.."

FAST=0
if [ "${1:-}" = "--fast" ]; then
  FAST=1
  shift
fi

if [ "${NDCG_LAB_SKIP_INSTALL:-0}" != "1" ]; then
  # PyICU (classroom nicknames) builds against Debian's ICU; nginx runs in front of several app servers in the
  # classroom's multi-server tests.
  if ! pkg-config --exists icu-uc 2>/dev/null || ! command -v g++ >/dev/null || [ ! -x "${NGINX_PATH:-/usr/sbin/nginx}" ]; then
    echo "Installing Debian's libicu-dev, pkg-config, g++ and nginx..."
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libicu-dev pkg-config g++ nginx >/dev/null
  fi
  python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
  # The package itself (console script ndcg-lab-eval), without touching the pinned dependencies.
  python -m pip install --quiet --disable-pip-version-check --no-deps -e .
  if [ "$FAST" = "0" ]; then
    # Chromium for the browser tests (the headless shell runs them; the full browser opens every page once, see
    # tests/browser/conftest.py); Noto CJK for Chinese/Korean pages and the PDF handout; poppler-utils
    # (pdftoppm) renders the handout to PNG in the tests.
    if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}" ] || [ ! -x "${FULL_CHROMIUM_PATH:-/usr/bin/chromium}" ] \
        || ! command -v pdftoppm >/dev/null \
        || [ ! -f /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc ]; then
      echo "Installing Debian's chromium, chromium-headless-shell, fonts-noto-cjk and poppler-utils for the browser and handout tests..."
      SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
      $SUDO apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-headless-shell fonts-noto-cjk poppler-utils >/dev/null
    fi
    # Classroom store tests run against a real PostgreSQL (tests/classroom/postgres.py starts a throwaway
    # cluster with initdb + pg_ctl); they fail, never skip, without the server binaries.
    if ! ls ${PG_BIN:-/usr/lib/postgresql/*/bin}/pg_ctl >/dev/null 2>&1; then
      echo "Installing Debian's postgresql for the PostgreSQL tests..."
      SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
      $SUDO apt-get update -qq
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
    fi
  fi
  # Spark tests (metrics.runfiles.spark) start a real local Spark, which needs Java 17+; they fail, never skip,
  # without it.
  if ! command -v java >/dev/null 2>&1; then
    echo "Installing Debian's default-jre-headless for the Spark tests..."
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq default-jre-headless >/dev/null
  fi
fi
export STREAMLIT_BROWSER_GATHER_USAGE_STATS=false
echo "ruff check ..."
python -m ruff check .

# One worker per core; tests that share a module-scoped fixture or Spark's JVM stay on one worker
# (tests/conftest.py gives them an xdist group).  pytest-timeout's thread method also ends a test hung inside
# a C extension (the signal method cannot interrupt one); under xdist only that worker is replaced.
WORKERS="${PYTEST_WORKERS:-auto}"
PARALLEL=(-n "$WORKERS" --dist loadgroup -o timeout_method=thread)
if [ "$WORKERS" = "0" ]; then
  PARALLEL=()
fi
if [ "$FAST" = "1" ]; then
  export HYPOTHESIS_PROFILE="${HYPOTHESIS_PROFILE:-dev}"
  python -m pytest "${PARALLEL[@]}" -m "not browser and not postgres and not slow" "$@"
else
  export HYPOTHESIS_PROFILE="${HYPOTHESIS_PROFILE:-ci}"
  python -m pytest "${PARALLEL[@]}" "$@"
fi
