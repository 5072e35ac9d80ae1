//! The generated gRPC types of `proto/npuzzle.proto` (package `npuzzle.v1`), and the encoded
//! descriptor set that server reflection serves.

#![allow(missing_docs, clippy::all, clippy::pedantic)]

tonic::include_proto!("npuzzle.v1");

/// The encoded `FileDescriptorSet` of `proto/npuzzle.proto`, comments included, so that
/// `grpcurl describe` shows them.
pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("npuzzle_descriptor");
