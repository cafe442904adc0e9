//! The Pitchmate wire contract, package `pitchmate.v1`.
//!
//! `docs/api.md` in the repository explains it. Everything here is generated from the `.proto`
//! files beside this crate. The `grpc` feature (on by default) adds the services' clients and
//! servers and their codec; without it the crate is the messages alone.

#![allow(clippy::large_enum_variant, clippy::doc_lazy_continuation)]

#[cfg(feature = "grpc")]
pub mod codec;

/// The `google.rpc.ErrorInfo.domain` of every error a Pitchmate server returns.
pub const ERROR_DOMAIN: &str = "pitchmate.dev";

pub mod v1 {
    include!(concat!(env!("OUT_DIR"), "/pitchmate.v1.rs"));

    /// The encoded descriptors of every file, for gRPC server reflection.
    pub const FILE_DESCRIPTOR_SET: &[u8] =
        include_bytes!(concat!(env!("OUT_DIR"), "/pitchmate_descriptor.bin"));
}
