#!/usr/bin/env bash
# The house rules of issue 49 that a script can check: no import circles between modules, no
# function over 100 lines without a `Long:` comment on why, no non-test file under `src/` over
# 800 lines. Run by `.ci/run`; exit status 1 on the first rule broken.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/import-circles.py src | tail -1
python3 scripts/long-functions.py src 100 | tail -1
long=$(find src -name '*.rs' ! -name 'tests.rs' ! -path '*/tests/*' -print0 |
  xargs -0 wc -l | awk '$2 != "total" && $1 > 800 {print $1, $2}')
if [[ -n $long ]]; then
  echo "files over 800 lines:"; echo "$long"; exit 1
fi
echo "no non-test file under src/ over 800 lines"
