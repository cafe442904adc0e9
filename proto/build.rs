//! Compiles `pitchmate/v1/*.proto` with protox, a pure-Rust compiler, so building needs no
//! system `protoc`. The encoded descriptor set is kept for gRPC server reflection.

use std::path::PathBuf;

use prost::Message;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = "pitchmate/v1";
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    files.retain(|p| p.extension().is_some_and(|e| e == "proto"));
    files.sort();

    let descriptors = protox::Compiler::new(["."])?
        .include_imports(true)
        .include_source_info(true)
        .open_files(&files)?
        .file_descriptor_set();

    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(
        out.join("pitchmate_descriptor.bin"),
        descriptors.encode_to_vec(),
    )?;

    tonic_prost_build::configure()
        .build_server(true)
        .build_client(true)
        .codec_path("crate::codec::PitchmateCodec")
        .server_mod_attribute(".", "#[cfg(feature = \"grpc\")]")
        .client_mod_attribute(".", "#[cfg(feature = \"grpc\")]")
        .compile_fds(descriptors)?;

    println!("cargo:rerun-if-changed={dir}");
    Ok(())
}
