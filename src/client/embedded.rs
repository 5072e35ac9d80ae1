//! The in-process server a [`super::Client`] can talk to when no address is given: the
//! library's own [`server`] on 127.0.0.1:0, spoken to over real gRPC, so a single program works
//! alone exactly as it would against a remote server. Also the choice of the pattern databases
//! such a server loads before its first search.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use tokio::net::TcpListener;
use tracing::error;

use super::error::ClientError;
use crate::server;
use crate::solver::pdb::cache::file_name;
use crate::solver::{Partition, PatternDatabases, PdbError};

/// Starts `config`'s server on 127.0.0.1:0 for the life of the current tokio runtime, and says
/// where it listens.
pub async fn start(config: server::Config) -> Result<SocketAddr, ClientError> {
    let listener = TcpListener::bind("127.0.0.1:0").await.map_err(ClientError::Embedded)?;
    let address = listener.local_addr().map_err(ClientError::Embedded)?;
    tokio::spawn(async move {
        if let Err(failure) = server::run(listener, std::future::pending(), config).await {
            error!(error = %failure, "the in-process server stopped");
        }
    });
    Ok(address)
}

/// The pattern databases for an in-process server, from `dir`: `wanted` if given (loaded, or
/// built once); else 7-8 when its file is already cached, else 6-6-3, built the first time in
/// seconds. `before_build` is called with the partition about to be built, so a program can say
/// why it waits.
pub fn pattern_databases(
    dir: &Path,
    wanted: Option<&Partition>,
    before_build: impl FnOnce(&Partition),
) -> Result<Arc<PatternDatabases>, PdbError> {
    let strongest = Partition::seven_eight();
    if wanted.is_none()
        && let Ok(databases) = PatternDatabases::load(&dir.join(file_name(&strongest)), &strongest)
    {
        return Ok(Arc::new(databases));
    }
    let partition = wanted.cloned().unwrap_or_else(Partition::six_six_three);
    if !dir.join(file_name(&partition)).is_file() {
        before_build(&partition);
    }
    PatternDatabases::load_or_build_partition(dir, &partition)
}
