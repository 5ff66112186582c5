#!/usr/bin/env bash
# Install what the app needs and run it: the README's first command.
#
# Usage: bash scripts/run.sh [streamlit options, e.g. --server.address 127.0.0.1 --server.port 8501]
# Installs, where missing, Debian's libicu-dev, pkg-config and g++ (PyICU, which the classroom uses to refuse
# look-alike nicknames, is built against the system's ICU), then the pinned runtime (requirements.txt), then runs
# `streamlit run app.py`. NDCG_LAB_SKIP_INSTALL=1 skips the installs.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${NDCG_LAB_SKIP_INSTALL:-0}" != "1" ]; then
  if ! pkg-config --exists icu-uc 2>/dev/null || ! command -v g++ >/dev/null; then
    echo "Installing Debian's libicu-dev, pkg-config and g++ (to build PyICU)..."
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libicu-dev pkg-config g++ >/dev/null
  fi
  python -m pip install --quiet --disable-pip-version-check -r requirements.txt
fi
export STREAMLIT_BROWSER_GATHER_USAGE_STATS=false
exec python -m streamlit run app.py "$@"
