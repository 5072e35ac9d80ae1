#!/usr/bin/env bash
# Does a background 7-8 build slow searches? Times one 4x4 search (6-6-3 tables, through a
# server) in three situations, interleaved over ROUNDS rounds, and prints each time and the
# median per situation:
#   none    no build running;
#   idle    a cold-starting server building 7-8 the way servers do (idle scheduling priority);
#   normal  `npuzzle-server --prepare` building 7-8 at normal priority, for comparison.
# The two builds run in temporary cache directories and are paused (SIGSTOP) when not measured.
#
# Usage: scripts/build-yields.sh [ROUNDS]   Needs the release binaries and python3.
set -euo pipefail

rounds=${1:-5}
bin=${CARGO_TARGET_DIR:-target}/release
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -CONT "$pid" 2>/dev/null || true; kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
listening() { until (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; do sleep 0.05; done; }

# The probe: a random 59-move 15-puzzle (random-12 of scripts/cold-start.sh), about 1 M nodes
# with the 6-6-3 tables.
printf '4\n11  0  2  5\n 3 14  9 13\n 4  1  6 10\n12 15  7  8\n' > "$work/probe.txt"
"$bin/npuzzle-server" --prepare --pattern-db 6-6-3 --cache-dir "$work/warm" 2> /dev/null
"$bin/npuzzle-server" --listen "127.0.0.1:$port" --pattern-db 6-6-3 --cache-dir "$work/warm" 2> /dev/null &
pids+=("$!")
listening "$port"

RUST_LOG=info "$bin/npuzzle-server" --listen "127.0.0.1:$(free_port)" --cache-dir "$work/cold" 2> "$work/cold.log" &
idle=$!
pids+=("$idle")
until grep -q 'building pattern databases.*partition=8-7' "$work/cold.log"; do sleep 0.2; done
"$bin/npuzzle-server" --prepare --cache-dir "$work/prepare" 2> /dev/null &
normal=$!
pids+=("$normal")
sleep 2

probe() {
    local began ended
    began=$(date +%s.%N)
    "$bin/npuzzle-client" --addr "http://127.0.0.1:$port" < "$work/probe.txt" > /dev/null
    ended=$(date +%s.%N)
    echo "$ended - $began" | bc
}
for round in $(seq 1 "$rounds"); do
    for mode in none idle normal; do
        kill -STOP "$idle" "$normal"
        case $mode in idle) kill -CONT "$idle" ;; normal) kill -CONT "$normal" ;; esac
        sleep 1
        seconds=$(probe)
        echo "round $round $mode $seconds"
        echo "$mode $seconds" >> "$work/times"
    done
done
python3 - "$work/times" <<'PY'
import statistics, sys
times = {}
for line in open(sys.argv[1]):
    mode, seconds = line.split()
    times.setdefault(mode, []).append(float(seconds))
for mode in ("none", "idle", "normal"):
    print(f"{mode:7} median {statistics.median(times[mode]):.3f} s over {len(times[mode])} searches")
PY
