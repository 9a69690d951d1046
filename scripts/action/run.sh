#!/usr/bin/env bash
# The steps of the composite action (action.yml at the repository root; docs/matrix.md "One line in CI"):
# install cgp-conformance, run the suite against the one target the inputs name (or a matrix file), and leave
# the JUnit file and the report page in the output directory for the upload step. test/conformance/matrix/action.test.ts
# runs this very script.
#
# Inputs (environment, set by action.yml from the action's inputs):
#   INPUT_STDIO       a provider's command line (over stdio; split on spaces)
#   INPUT_URL         a provider's URL (http:// only on loopback)
#   INPUT_HOST_CMD    a host process speaking the host control protocol
#   INPUT_ADAPTER     a host adapter module
#   INPUT_BUNDLED     "provider" or "host": the toolkit's own reference implementation
#   INPUT_MATRIX      a matrix file instead of one target (the site goes to the output directory)
#   INPUT_TAGS, INPUT_BASELINE, INPUT_TIMEOUT, INPUT_STRICT ("true"), INPUT_OUT (default cgp-reports),
#   INPUT_VERSION     the cgp-conformance version to install (default: the action's own)
#   CGP_CONFORMANCE_CLI  a cgp-conformance command line to use instead of installing one (split on spaces)
# Outputs ($GITHUB_OUTPUT): exit-code, junit, html. The script exits with the suite's exit code
# (0 conformant · 1 a MUST failed · 2 usage · 3 never answered · 4 harness error).
set -euo pipefail

out="${INPUT_OUT:-cgp-reports}"
mkdir -p "$out"

if [ -n "${CGP_CONFORMANCE_CLI:-}" ]; then
  read -r -a cli <<< "$CGP_CONFORMANCE_CLI"
else
  action_dir="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/../.." && pwd)}"
  version="${INPUT_VERSION:-}"
  if [ -z "$version" ]; then version="$(node -p "require(process.argv[1]).version" "$action_dir/package.json")"; fi
  prefix="${RUNNER_TEMP:-$(mktemp -d)}/cgp-conformance-$version"
  if [ ! -f "$prefix/node_modules/cgp-conformance/dist/bundle/cli.cjs" ]; then
    mkdir -p "$prefix"
    npm install --prefix "$prefix" --no-audit --no-fund --no-save "cgp-conformance@$version" >&2
  fi
  cli=(node "$prefix/node_modules/cgp-conformance/dist/bundle/cli.cjs")
fi

given=0
for v in "${INPUT_STDIO:-}" "${INPUT_URL:-}" "${INPUT_HOST_CMD:-}" "${INPUT_ADAPTER:-}" "${INPUT_BUNDLED:-}" "${INPUT_MATRIX:-}"; do
  if [ -n "$v" ]; then given=$((given + 1)); fi
done
if [ "$given" -ne 1 ]; then
  echo "cgp-conformance action: give exactly one of stdio, url, host-cmd, adapter, bundled, matrix (got $given)" >&2
  echo "exit-code=2" >> "${GITHUB_OUTPUT:-/dev/null}"
  exit 2
fi

junit="$out/junit.xml"
html="$out/index.html"
opts=(--junit "$junit" --html "$html" --out "$out")
if [ -n "${INPUT_TAGS:-}" ]; then opts+=(--tags "$INPUT_TAGS"); fi
if [ -n "${INPUT_BASELINE:-}" ]; then opts+=(--baseline "$INPUT_BASELINE"); fi
if [ -n "${INPUT_TIMEOUT:-}" ]; then opts+=(--timeout "$INPUT_TIMEOUT"); fi
if [ "${INPUT_STRICT:-false}" = "true" ]; then opts+=(--strict); fi

if [ -n "${INPUT_STDIO:-}" ]; then
  read -r -a words <<< "$INPUT_STDIO"
  cmd=("${cli[@]}" stdio "${opts[@]}" -- "${words[@]}")
elif [ -n "${INPUT_URL:-}" ]; then
  cmd=("${cli[@]}" http "${opts[@]}" "$INPUT_URL")
elif [ -n "${INPUT_HOST_CMD:-}" ]; then
  cmd=("${cli[@]}" host "${opts[@]}" --cmd "$INPUT_HOST_CMD")
elif [ -n "${INPUT_ADAPTER:-}" ]; then
  cmd=("${cli[@]}" host "${opts[@]}" --adapter "$INPUT_ADAPTER")
elif [ -n "${INPUT_BUNDLED:-}" ]; then
  case "$INPUT_BUNDLED" in
    provider) cmd=("${cli[@]}" stdio "${opts[@]}" -- "${cli[@]}" provider) ;;
    host) cmd=("${cli[@]}" host "${opts[@]}") ;;
    *) echo "cgp-conformance action: bundled must be provider or host (got \"$INPUT_BUNDLED\")" >&2; echo "exit-code=2" >> "${GITHUB_OUTPUT:-/dev/null}"; exit 2 ;;
  esac
else
  # a matrix: the site (index.html, matrix.json, summary.md, each run's JUnit under runs/) in the output directory
  junit="$out/runs"
  cmd=("${cli[@]}" matrix "$INPUT_MATRIX" --out "$out")
fi

set +e
"${cmd[@]}"
code=$?
set -e

{
  echo "exit-code=$code"
  echo "junit=$junit"
  echo "html=$html"
} >> "${GITHUB_OUTPUT:-/dev/null}"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  if [ -f "$out/summary.md" ]; then cat "$out/summary.md" >> "$GITHUB_STEP_SUMMARY"; else echo "cgp-conformance: exit $code — report page: $html, JUnit: $junit" >> "$GITHUB_STEP_SUMMARY"; fi
fi
exit "$code"
