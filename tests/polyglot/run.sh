#!/usr/bin/env bash
# Runs the Python client of tests/polyglot against a real npuzzle-server.
#
#   tests/polyglot/run.sh PYTHON SERVER_BINARY
#
# PYTHON must have grpcio, grpcio-tools and protobuf (.ci/run makes such a venv). The stubs are
# generated from proto/npuzzle.proto into tests/polyglot/gen/ (ignored by git) on every run, so
# they always match the contract. The server is stopped however the test ends.
set -euo pipefail

python=${1:?usage: run.sh PYTHON SERVER_BINARY}
server=${2:?usage: run.sh PYTHON SERVER_BINARY}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

rm -rf "$here/gen"
mkdir -p "$here/gen"
"$python" -m grpc_tools.protoc -I "$root/proto" \
    --python_out="$here/gen" --grpc_python_out="$here/gen" "$root/proto/npuzzle.proto"

# A port the OS just handed out; the server binds it again a moment later.
port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The server's log goes to a file, shown only if the test fails.
log="$here/gen/server.log"
# No pattern databases: the test sends no 4×4 board, and the default would load or build the
# 7-8 tables in the user's cache.
"$server" --listen "127.0.0.1:$port" --no-pattern-db 2>"$log" &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true' EXIT

if ! "$python" "$here/test_polyglot.py" "127.0.0.1:$port"; then
    echo "--- npuzzle-server log ---"
    cat "$log"
    exit 1
fi
