#!/usr/bin/env bash
# The cold start of npuzzle-server, measured: SERVERS servers started at once on one empty cache
# directory. The first is sent, one after the other, 12 random 15-puzzles (seeded) and the
# Princeton assignment's 78- and 80-move boards; each answer is printed with the seconds since
# the start, its status, moves and heuristic. Then a fixed 4x4 board is timed three times while
# the 7-8 tables build (the servers use 6-6-3 meanwhile) and three times on a 6-6-3 server once
# nothing builds, to show what the background build costs a search. Last: the time to 7-8 ready
# and each server's peak RSS, summed.
#
# Usage: scripts/cold-start.sh CACHE_DIR [SERVERS]   (CACHE_DIR must be empty or absent)
# With FIRST_ANSWERS_ONLY=1 it stops after the first answers and the timed searches.
# Needs the release binaries (cargo build --release --bins), python3 and curl.
set -euo pipefail

cache=${1:?usage: scripts/cold-start.sh CACHE_DIR [SERVERS]}
servers=${2:-1}
bin=${CARGO_TARGET_DIR:-target}/release
if [ -n "$(ls -A "$cache" 2>/dev/null)" ]; then
    echo "error: $cache is not empty; a cold start needs an empty cache directory" >&2
    exit 2
fi
mkdir -p "$cache"
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
listening() { until (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; do sleep 0.05; done; }
ports=() metrics_ports=()
for i in $(seq 0 "$servers"); do ports+=("$(free_port)") metrics_ports+=("$(free_port)"); done

start=$(date +%s.%N)
since() { echo "$(date +%s.%N) - $start" | bc; }

for i in $(seq 1 "$servers"); do
    RUST_LOG=info "$bin/npuzzle-server" --listen "127.0.0.1:${ports[$i]}" --cache-dir "$cache" \
        --metrics-listen "127.0.0.1:${metrics_ports[$i]}" 2> "$work/server$i.log" &
    pids+=("$!")
done
for i in $(seq 1 "$servers"); do listening "${ports[$i]}"; done
echo "servers listening after $(since) s"

python3 - "$work" <<'PY'
import random, sys
rng = random.Random(9)
def solvable(tiles):
    inversions = sum(1 for i in range(16) for j in range(i + 1, 16) if tiles[i] and tiles[j] and tiles[i] > tiles[j])
    blank_row_from_bottom = 3 - tiles.index(0) // 4
    return (inversions + blank_row_from_bottom) % 2 == 0
boards = []
while len(boards) < 12:
    tiles = list(range(16)); rng.shuffle(tiles)
    if solvable(tiles):
        boards.append(tiles)
boards.append([0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1])          # Princeton puzzle4x4-78
boards.append([0, 12, 9, 13, 15, 11, 10, 14, 3, 7, 5, 6, 4, 8, 2, 1])          # Princeton puzzle4x4-80
names = [f"random-{i + 1:02}" for i in range(12)] + ["princeton-78", "princeton-80"]
for name, tiles in zip(names, boards):
    rows = "\n".join(" ".join(f"{t:2}" for t in tiles[r * 4:r * 4 + 4]) for r in range(4))
    open(f"{sys.argv[1]}/{name}.txt", "w").write(f"4\n{rows}\n")
PY

solve() { # server puzzle-file -> "status moves heuristic nodes seconds"
    local began ended out
    began=$(date +%s.%N)
    if out=$("$bin/npuzzle-client" --addr "http://127.0.0.1:${ports[$1]}" --json < "$2" 2>&1); then
        ended=$(date +%s.%N)
        python3 -c 'import json,sys; s=json.loads(sys.argv[1]); t=s.get("stats",{}); print("OK", s["moves"], t.get("heuristic"), t.get("nodesExpanded"), end=" ")' "$out"
    else
        ended=$(date +%s.%N)
        echo -n "FAILED ${out//$'\n'/ } "
    fi
    echo "$(echo "$ended - $began" | bc)"
}

echo "== first answers (server 1), seconds since start: status moves heuristic nodes search-seconds"
for file in "$work"/random-*.txt "$work"/princeton-*.txt; do
    printf '%-14s %7.2f  %s\n' "$(basename "$file" .txt)" "$(since)" "$(solve 1 "$file")"
done

probe=$work/${PROBE:-random-01}.txt
ready() { grep -q 'partition=8-7' <(grep 'pattern databases ready' "$work/server$1.log"); }
echo "== a search while 7-8 builds (server 1 on 6-6-3): $(basename "$probe" .txt)"
for _ in 1 2 3; do
    ready 1 && { echo "7-8 became ready before the probe; no figure"; break; }
    echo "during build: $(solve 1 "$probe")"
done
[ "${FIRST_ANSWERS_ONLY:-0}" = 1 ] && exit 0

echo "== waiting for 7-8 on every server"
for i in $(seq 1 "$servers"); do
    until ready "$i"; do sleep 1; done
    echo "server $i: $(grep 'partition=8-7' "$work/server$i.log" | grep -o 'elapsed=[^ ]*')" \
        "$(grep -c 'building pattern databases.*partition=8-7' "$work/server$i.log") 7-8 build(s) here," \
        "peak RSS $(grep VmHWM "/proc/${pids[$((i - 1))]}/status" | awk '{print $2}') kB"
done
total=0
for pid in "${pids[@]}"; do total=$((total + $(grep VmHWM "/proc/$pid/status" | awk '{print $2}'))); done
echo "summed peak RSS: $((total / 1024)) MiB over $servers server(s)"
echo "7-8 file: $(ls -l "$cache"/*-8-7-*.bin | awk '{print $5}') bytes"

RUST_LOG=warn "$bin/npuzzle-server" --listen "127.0.0.1:${ports[0]}" --cache-dir "$cache" --pattern-db 6-6-3 &
pids+=("$!")
listening "${ports[0]}"
sleep 1
echo "== the same search with nothing building (a 6-6-3 server)"
for _ in 1 2 3; do echo "no build: $(solve 0 "$probe")"; done
echo "== server 1 metrics"
curl -s "127.0.0.1:${metrics_ports[1]}/metrics" | grep -v '^#' | grep -v '_bucket' | grep . || true
