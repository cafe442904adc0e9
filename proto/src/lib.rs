//! The Pitchmate wire contract, package `pitchmate.v1`.
//!
//! `docs/api.md` in the repository explains it. Everything here is generated from the `.proto`
//! files beside this crate.

#![allow(clippy::large_enum_variant, clippy::doc_lazy_continuation)]

pub mod codec;

/// The `google.rpc.ErrorInfo.domain` of every error a Pitchmate server returns.
pub const ERROR_DOMAIN: &str = "pitchmate.dev";

pub mod v1 {
    tonic::include_proto!("pitchmate.v1");

    /// The encoded descriptors of every file, for gRPC server reflection.
    pub const FILE_DESCRIPTOR_SET: &[u8] =
        include_bytes!(concat!(env!("OUT_DIR"), "/pitchmate_descriptor.bin"));
}
