#!/usr/bin/env bash
# Mutation testing of the code where a silent bug costs most (not in CI: it is slow).
#   bash benchmarks/mutation.sh [MODULE...]      default: the modules listed below
# Each module runs under `timeout $MUTATION_BUDGET` seconds (default 600) with its own
# tests; needs `pip install mutmut==3.8.1`. Scores go to docs/testing.md by hand.
set -uo pipefail
cd "$(dirname "$0")/.."
BUDGET=${MUTATION_BUDGET:-600}
declare -A TESTS=(
  [src/motherlode/arena/ratings.py]="tests/arena/test_ratings.py tests/arena/test_tournament.py"
  [src/motherlode/server/fairness.py]="tests/server/test_fairness.py tests/server/test_fairness_forgery.py"
  [src/motherlode/server/service.py]="tests/server"
  [src/motherlode/server/runtime.py]="tests/server"
  [src/motherlode/core/records.py]="tests/test_protocol.py tests/server/test_fairness_forgery.py"
)
modules=("$@")
[ ${#modules[@]} -gt 0 ] || modules=("${!TESTS[@]}")
for m in "${modules[@]}"; do
  echo "== $m (budget ${BUDGET}s)"
  rm -rf mutants
  timeout "$BUDGET" python -m mutmut run --paths-to-mutate "$m" \
    --tests-dir "${TESTS[$m]:-tests}" || echo "   (stopped: time box or error)"
  python -m mutmut results || true
done
