#!/usr/bin/env bash
# Refresh the vendored SortableJS (ui/components/cards/vendor/) from npm, at the version pinned in
# ui/components/cards/__init__.py (SORTABLE_VERSION); then update SORTABLE_SHA256 there to the printed hash.
# The app never fetches it: the component inlines the file (tests/ui/test_cards_component.py checks the hash).
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=$(python -c "from ui.components.cards import SORTABLE_VERSION; print(SORTABLE_VERSION)")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "sortablejs@${VERSION}" >/dev/null && tar xzf "sortablejs-${VERSION}.tgz")
cp "$tmp/package/Sortable.min.js" "$tmp/package/LICENSE" ui/components/cards/vendor/
sha256sum ui/components/cards/vendor/Sortable.min.js
